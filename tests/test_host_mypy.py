"""mypy host: the real `mypy` command on a temporary project with ``[tool.mypy] plugins = ["shapecheck"]``.

One project is shared by the module (mypy runs are slow); tests that edit files restore them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from _config_project import set_width, write_configured

PYPROJECT = """[tool.mypy]
plugins = ["shapecheck"]

# keep the test fast: the libraries' own sources are not analysed (shapecheck reads the annotations itself)
[[tool.mypy.overrides]]
module = ["torch", "torch.*", "numpy", "numpy.*", "einops", "einops.*", "jaxtyping", "jaxtyping.*"]
follow_imports = "skip"
follow_imports_for_stubs = true
"""

FILES = {
    "sample.py": """import torch
from torch import Tensor
from einops import rearrange
from jaxtyping import Float


def patchify(img: Float[Tensor, "b 3 225 225"]):
    return rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)


def bad_pattern(x):
    return rearrange(x, "b c -> b c d")
""",
    # no einops call at all: only annotations
    "annot_only.py": """from torch import Tensor
from jaxtyping import Float


def f(x: Float[Tensor, "b c"]) -> Float[Tensor, "b d e"]:
    return x
""",
    "ignored.py": """from torch import Tensor
from einops import rearrange
from jaxtyping import Float


def g(img: Float[Tensor, "b 3 225 225"]):
    y = rearrange(img, "b c (h p) w -> b h p c w", p=16)  # type: ignore[shape-mismatch]
    return rearrange(y, "b c -> b c d")  # type: ignore[shape-pattern]
""",
    "pkg/__init__.py": "",
    "pkg/models.py": """from torch import Tensor
from jaxtyping import Float


def embed(x: Float[Tensor, "b 3 224 224"]) -> Float[Tensor, "b 196 768"]:
    raise NotImplementedError
""",
    "pkg/use.py": """from einops import rearrange

from pkg.models import embed


def f(img):
    t = embed(img)
    return rearrange(t, "b (h w) c -> b h w c", h=15)
""",
    "clean.py": "import os\n\nprint(os.sep)\n",
}

_ERR = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+):(?P<eline>\d+):(?P<ecol>\d+): (?P<sev>\w+): (?P<msg>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mypyproj")
    (root / "pyproject.toml").write_text(PYPROJECT)
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def mypy(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> tuple[list[tuple[str, int, int, int, int, str, str]], str]:
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--show-column-numbers",
        "--show-error-end",
        "--no-pretty",
        "--no-color-output",
        *args,
        "sample.py",
        "annot_only.py",
        "ignored.py",
        "pkg",
        "clean.py",
    ]
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    errors = []
    for line in proc.stdout.splitlines():
        m = _ERR.match(line)
        if m and m["sev"] == "error":
            errors.append(
                (
                    Path(m["path"]).as_posix(),
                    int(m["line"]),
                    int(m["col"]),
                    int(m["eline"]),
                    int(m["ecol"]),
                    m["code"] or "",
                    m["msg"],
                )
            )
    return errors, proc.stdout


def shape_errors(errors: list[tuple[str, int, int, int, int, str, str]]) -> list[tuple[str, int, int, str, str]]:
    return sorted(
        (p, ln, col, code, msg.split()[0]) for p, ln, col, _, _, code, msg in errors if code.startswith("shape-")
    )


EXPECTED = [
    ("annot_only.py", 6, 5, "shape-mismatch", "SHP206"),
    ("pkg/use.py", 8, 12, "shape-mismatch", "SHP203"),
    ("sample.py", 8, 12, "shape-mismatch", "SHP203"),
    ("sample.py", 12, 12, "shape-pattern", "SHP104"),
]


@pytest.fixture(scope="module")
def cold(project: Path) -> tuple[list[tuple[str, int, int, int, int, str, str]], str]:
    return mypy(project)


def test_findings_at_line_and_column(cold: tuple[list, str]) -> None:  # type: ignore[type-arg]
    errors, out = cold
    assert shape_errors(errors) == EXPECTED, out
    # end positions too: the rearrange call in sample.py spans columns 12..81 (mypy prints inclusive ends)
    spans = {(p, ln): (col, eline, ecol) for p, ln, col, eline, ecol, code, _ in errors if code.startswith("shape-")}
    assert spans[("sample.py", 8)] == (12, 8, 81)
    # nothing but shapecheck's findings (the project is otherwise type-correct)
    assert all(code.startswith("shape-") for *_, code, _ in errors), out
    # the message starts with its SHP code exactly once
    for *_, msg in errors:
        assert re.match(r"SHP\d{3} ", msg) and not re.match(r"SHP\d{3} SHP", msg)


def test_same_lines_and_codes_as_the_core(project: Path, cold: tuple[list, str]) -> None:  # type: ignore[type-arg]
    proc = subprocess.run(
        [sys.executable, "-m", "shapecheck", "check", "--no-cache", "--format", "json", "."],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    core = sorted(
        (Path(f["path"]).as_posix().removeprefix("./"), f["line"], f["code"]) for f in json.loads(proc.stdout)
    )
    ignored_by_mypy = [("ignored.py", 7, "SHP203"), ("ignored.py", 8, "SHP104")]  # `# type: ignore[...]` is mypy's
    assert core == sorted([(p, ln, shp) for p, ln, _, _, shp in EXPECTED] + ignored_by_mypy)


def test_in_process_analysis_same_as_background_worker(project: Path, tmp_path: Path, cold: tuple[list, str]) -> None:  # type: ignore[type-arg]
    """Findings are the same whether the analysis runs in mypy's process or in the background worker (the default)."""
    import os

    env = {**os.environ, "SHAPECHECK_MYPY_WORKER": "0"}
    errors, out = mypy(project, "--cache-dir", str(tmp_path / "cache"), env=env)
    assert errors == cold[0], out


def test_warm_cache_second_run_identical(project: Path, cold: tuple[list, str]) -> None:  # type: ignore[type-arg]
    warm = mypy(project)
    assert warm[1] == cold[1]


def test_disable_error_code(project: Path, cold: tuple[list, str]) -> None:  # type: ignore[type-arg]
    errors, out = mypy(project, "--disable-error-code", "shape-mismatch")
    assert shape_errors(errors) == [e for e in EXPECTED if e[3] != "shape-mismatch"], out
    errors, out = mypy(project, "--warn-unused-ignores")
    assert shape_errors(errors) == EXPECTED, out  # the two ignores in ignored.py are used


def test_annotation_change_in_imported_module_rechecks_importer(project: Path, cold: tuple[list, str]) -> None:  # type: ignore[type-arg]
    models = project / "pkg" / "models.py"
    original = models.read_text()
    try:
        models.write_text(original.replace('"b 196 768"', '"b 225 768"'))  # 225 = 15 * 15: the split now fits
        errors, out = mypy(project)
        assert ("pkg/use.py", 8, 12, "shape-mismatch", "SHP203") not in shape_errors(errors), out
        assert len(shape_errors(errors)) == len(EXPECTED) - 1
    finally:
        models.write_text(original)
    errors, out = mypy(project)
    assert shape_errors(errors) == EXPECTED, out


def test_internal_failure_is_one_shp902_error(project: Path, tmp_path: Path) -> None:
    """A crash inside shapecheck becomes one SHP902 error per file under `shape-internal`; mypy goes on."""
    (tmp_path / "sitecustomize.py").write_text(
        "import shapecheck.core\n"
        "def _boom(*a, **k):\n    raise RuntimeError('boom')\n"
        "shapecheck.core.check_source = _boom\n"
    )
    import os

    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--show-column-numbers",
        "--cache-dir",
        str(tmp_path / "cache"),
        "sample.py",
        "clean.py",
    ]
    proc = subprocess.run(cmd, cwd=project, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[0] == (
        "sample.py:1:1: error: SHP902 internal analysis failure (RuntimeError: boom); this file was not fully checked"
        "  [shape-internal]"
    ), proc.stdout
    assert "Found 1 error in 1 file" in proc.stdout


def test_config_file_change_rechecks_the_module(tmp_path: Path) -> None:
    """A YAML file the code reads is in the module's cache entry (report_config_data): editing it, with the Python
    file unchanged, re-checks the module on a warm run."""
    (tmp_path / "pyproject.toml").write_text(PYPROJECT.replace('"jaxtyping.*"]', '"jaxtyping.*", "yaml", "yaml.*"]'))
    write_configured(tmp_path, 8)

    def shp() -> list[str]:
        cmd = [sys.executable, "-m", "mypy", "--no-color-output", "test_cfg.py"]
        proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert proc.returncode in (0, 1), proc.stdout + proc.stderr
        return re.findall(r"\bSHP\d{3}\b", proc.stdout)

    assert shp() == []
    set_width(tmp_path, 6)
    assert shp() == ["SHP204"]
