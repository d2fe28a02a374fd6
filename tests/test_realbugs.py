"""The real-bug reproductions (tests/fixtures/realbugs/) are true: each bug raises when run, each fixed twin runs.

The analyser's verdicts on the same files are checked by tests/test_fixtures.py from the inline expectations.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "fixtures" / "realbugs"
CASES = sorted(p for p in HERE.glob("[0-9]*.py") if not p.stem.endswith("_fixed"))

RUNNER = r"""
import json, runpy, sys, traceback
out = {}
for path in sys.argv[1:]:
    try:
        runpy.run_path(path, run_name="__main__")
        out[path] = None
    except BaseException as exc:  # AssertionError from torch's own checks counts as raising
        out[path] = type(exc).__name__
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def outcomes() -> dict[str, str | None]:
    paths = [str(p) for c in CASES for p in (c, c.with_name(c.stem + "_fixed.py"))]
    proc = subprocess.run([sys.executable, "-c", RUNNER, *paths], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def test_there_are_cases() -> None:
    assert len(CASES) >= 14


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_bug_raises_and_fix_runs(case: Path, outcomes: dict[str, str | None]) -> None:
    assert outcomes[str(case)] is not None, f"{case.name} ran without error: not a reproduction"
    fixed = case.with_name(case.stem + "_fixed.py")
    assert outcomes[str(fixed)] is None, f"{fixed.name} raised {outcomes[str(fixed)]}"
