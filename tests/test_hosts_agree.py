"""One answer everywhere: every single-file fixture through the core, the CLI, flake8 and mypy gives the same
(line, code) set -- the one written in the fixture. The CLI's JSON report is also held to the severities, columns
and message fragments written there (tests/fixture_format.py)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from fixture_format import FIXTURES, expectations, mismatches, single_fixtures
from host_runs import run_mypy
from shapecheck.config import Config
from shapecheck.core import check_source
from shapecheck.diagnostics import Severity

MYPY_CONFIG = """[tool.mypy]
plugins = ["shapecheck"]
ignore_missing_imports = true
check_untyped_defs = false

[[tool.mypy.overrides]]
module = ["torch", "torch.*", "numpy", "numpy.*", "einops", "einops.*", "jaxtyping", "jaxtyping.*", "jax", "jax.*"]
follow_imports = "skip"
follow_imports_for_stubs = true
"""


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixtures copied as top-level modules of one folder (flat names, so mypy sees no duplicate modules)."""
    root = tmp_path_factory.mktemp("agree")
    for p in single_fixtures():
        name = "_".join(p.relative_to(FIXTURES).with_suffix("").parts) + ".py"
        shutil.copy(p, root / name)
    (root / "pyproject.toml").write_text(MYPY_CONFIG)
    return root


def _expected(root: Path) -> dict[str, set[tuple[int, str]]]:
    return {p.name: expectations(p.read_text("utf-8")) for p in sorted(root.glob("*.py"))}


def test_core(tree: Path) -> None:
    for name, want in _expected(tree).items():
        text = (tree / name).read_text("utf-8")
        got = {(f.line, f.code) for f in check_source(text, name, Config())}
        assert got == want, name


def test_cli(tree: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "shapecheck", "check", "--no-cache", "--format", "json", "."],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    got: dict[str, list[SimpleNamespace]] = {}
    for f in json.loads(proc.stdout):
        got.setdefault(Path(f["path"]).name, []).append(
            SimpleNamespace(
                line=f["line"],
                column=f["column"],
                code=f["code"],
                message=f["message"],
                effective_severity=Severity(f["severity"]),
                notes=tuple(f.get("notes", ())),
            )
        )
    for name in _expected(tree):
        # the JSON report as users read it: lines, codes, severities, columns and message fragments
        problems = mismatches((tree / name).read_text("utf-8"), got.get(name, []))
        assert not problems, f"{name}: " + "\n".join(problems)


def test_flake8(tree: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "SHP", "--format", "%(path)s|%(row)d|%(code)s", "."],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=300,
    )
    got: dict[str, set[tuple[int, str]]] = {}
    for line in proc.stdout.splitlines():
        path, row, code = line.split("|")
        got.setdefault(Path(path).name, set()).add((int(row), code))
    for name, want in _expected(tree).items():
        assert got.get(name, set()) == want, name


def test_mypy(tree: Path) -> None:
    files = sorted(p.name for p in tree.glob("*.py"))
    proc, got = run_mypy(tree, files)
    assert got, proc.stdout + proc.stderr
    assert re.search(r": note: input shape \(", proc.stdout), "notes (where sizes were bound) reach mypy's output"
    for name, want in _expected(tree).items():
        assert got.get(name, set()) == want, (name, proc.stdout[-3000:])
