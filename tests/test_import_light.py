"""`import shapecheck` (and its core and CLI modules) stays light: no tensor library, no host framework."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "jax", "jaxlib", "numpy", "einops", "mypy", "flake8", "pygls", "lsprotocol", "jaxtyping")

_PROBE = """
import json, sys
before = set(sys.modules)
import {module}
loaded = sorted(set(sys.modules) - before)
print(json.dumps(loaded))
"""


@pytest.mark.parametrize("module", ["shapecheck", "shapecheck.core", "shapecheck.cli", "shapecheck.runner"])
def test_import_is_light(module: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE.format(module=module)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    assert module in loaded or module == "shapecheck"
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert heavy == [], f"import {module} pulled in {heavy}"


def test_check_source_on_einops_code_stays_light() -> None:
    """Analysing code that imports torch/einops must not import them (the analyser reads text only)."""
    code = (
        "import torch\nimport einops\nfrom jaxtyping import Float\n"
        "def f(x: Float[torch.Tensor, 'b c h w']):\n    return einops.rearrange(x, 'b c h w -> b (c h w)')\n"
    )
    probe = (
        "import json, sys\nimport shapecheck\n"
        f"shapecheck.check_source({code!r}, 'm.py')\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert heavy == [], f"analysing einops code pulled in {heavy}"
