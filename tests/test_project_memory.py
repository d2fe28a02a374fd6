"""A project keeps parsed modules between files only up to a budget; a forgotten module is parsed again when needed."""

from __future__ import annotations

from pathlib import Path

from shapecheck.analysis.project import Project
from shapecheck.config import Config
from shapecheck.runner import run

LIB = '''
from jaxtyping import Float
from torch import Tensor


def head(x: Float[Tensor, "b 8"]) -> Float[Tensor, "b 4"]:
    return x[:, :4]
'''

USER = '''
import torch
from {lib} import head


def use():
    return head(torch.zeros(2, 5))  # error: SHP205
'''


def _tree(tmp_path: Path, n: int) -> list[Path]:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    files = []
    for i in range(n):
        (pkg / f"lib{i}.py").write_text(LIB)
        files.append(pkg / f"lib{i}.py")
        (pkg / f"user{i}.py").write_text(USER.format(lib=f"pkg.lib{i}"))
        files.append(pkg / f"user{i}.py")
    return files


def test_trim_forgets_least_recently_used(tmp_path: Path) -> None:
    files = _tree(tmp_path, 3)
    project = Project(files)
    for i in range(3):
        assert project.module(f"pkg.lib{i}") is not None
    project.module("pkg.lib0")  # used again: now the most recent
    project.trim(budget=2 * len(LIB))
    assert list(project.modules) == ["pkg.lib2", "pkg.lib0"]
    project.trim(budget=0)
    assert not project.modules
    assert project.module("pkg.lib1") is not None  # parsed again on demand


def test_findings_identical_under_a_tiny_budget(tmp_path: Path, monkeypatch) -> None:
    files = _tree(tmp_path, 4)
    roomy = run(files, Config(root=str(tmp_path)), jobs=1, use_cache=False)
    monkeypatch.setattr("shapecheck.analysis.project.MODULE_BUDGET", 1)
    monkeypatch.setattr(Project.trim, "__defaults__", (1,))
    tight = run(files, Config(root=str(tmp_path)), jobs=1, use_cache=False)
    assert [(f.path, f.line, f.code) for f in roomy] == [(f.path, f.line, f.code) for f in tight]
    assert sorted((Path(f.path).name, f.line, f.code) for f in roomy) == [(f"user{i}.py", 7, "SHP205") for i in range(4)]
