"""A project keeps parsed modules between files only up to a budget; a forgotten module is parsed again when needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shapecheck.analysis.index.project import Project
from shapecheck.config import Config
from shapecheck.runner import run

LIB = """
from jaxtyping import Float
from torch import Tensor


def head(x: Float[Tensor, "b 8"]) -> Float[Tensor, "b 4"]:
    return x[:, :4]
"""

USER = """
import torch
from {lib} import head


def use():
    return head(torch.zeros(2, 5))  # error: SHP205
"""


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


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_trim_collects_the_garbage_files_leave(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the automatic collector off (as in a check run), trim() frees the cyclic garbage the analyses left once
    enough container objects piled up, though no module was forgotten; below that count it leaves them."""
    import gc
    import weakref

    from shapecheck.analysis.index import project as project_module

    project = Project(_tree(tmp_path, 1))
    was = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        garbage = _Cycle()
        ref = weakref.ref(garbage)
        del garbage
        monkeypatch.setattr(project_module, "GARBAGE_OBJECTS", 10_000)
        project.trim()
        assert ref() is not None  # a few objects: not collected yet
        filler = [[i] for i in range(20_000)]  # the young generation's count passes the threshold
        project.trim()
        assert ref() is None
        assert len(filler) == 20_000
    finally:
        if was:
            gc.enable()


def test_findings_identical_under_a_tiny_budget(tmp_path: Path, monkeypatch) -> None:
    files = _tree(tmp_path, 4)
    roomy = run(files, Config(root=str(tmp_path)), jobs=1, use_cache=False)
    monkeypatch.setattr("shapecheck.analysis.index.project.MODULE_BUDGET", 1)
    monkeypatch.setattr(Project.trim, "__defaults__", (1,))
    tight = run(files, Config(root=str(tmp_path)), jobs=1, use_cache=False)
    assert [(f.path, f.line, f.code) for f in roomy] == [(f.path, f.line, f.code) for f in tight]
    assert sorted((Path(f.path).name, f.line, f.code) for f in roomy) == [
        (f"user{i}.py", 7, "SHP205") for i in range(4)
    ]


def test_star_imports_are_read_not_analysed(tmp_path: Path) -> None:
    """``from pkg import *`` over a package that star-imports many modules: a name is placed from each module's
    imports and definitions, and only the module that defines a called function is analysed (transformers'
    ``commands/chat.py`` had 1,754 modules parsed, 150 s, before)."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    names = [f"m{i}" for i in range(30)]
    (pkg / "__init__.py").write_text("".join(f"from .{n} import *\n" for n in names))
    for n in names:
        (pkg / f"{n}.py").write_text(
            f"import torch\n\n\ndef {n}_fn(x):\n    return x\n\n\nVALUE_{n} = torch.zeros(3)\n"
        )
    (pkg / "m7.py").write_text(LIB.replace("def head", "def m7_head"))
    user = tmp_path / "user.py"
    user.write_text(
        "import torch\nfrom jaxtyping import Float\nfrom pkg import *\n\n\ndef use(x: Float[torch.Tensor, 'n']):\n"
        "    n = len(x)\n    print(n)\n    return m7_head(torch.zeros(2, 5))  # error: SHP205\n"
    )
    files = sorted(tmp_path.rglob("*.py"))
    project = Project(files)
    from shapecheck.core import check_source

    found = check_source(user.read_text(), str(user), Config(), project=project)
    assert [(f.line, f.code) for f in found] == [(9, "SHP205")]
    assert set(project.modules) <= {"pkg", "pkg.m7", "user"}


def test_module_facts_are_read_with_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ast_read`` reads a module's facts (stable_global, rebound_global) from the tree it parsed for the index: the
    module's analysis asks for them without a CPython parse of its own, and gets what a parse of its own gives."""
    import ast

    from shapecheck.analysis.index.cst_parse import parse_module
    from shapecheck.analysis.index.module_facts import module_facts
    from shapecheck.analysis.interpret.module import ModuleAnalysis

    project = Project(_tree(tmp_path, 3))
    texts = [LIB + f"\nTABLE{i} = {{}}\n\n\ndef fill{i}():\n    TABLE{i}['k'] = 1\n" for i in range(3)]
    for i, text in enumerate(texts):
        project.ast_read(f"pkg.lib{i}", text)
    assert project.facts_of("pkg.lib0", texts[1]) is None  # another text than the one read
    read = project.facts_of("pkg.lib0", texts[0])
    assert read is not None and read == module_facts(texts[0], ast.parse(texts[0]))
    assert "TABLE0" in read[0] and "TABLE1" not in read[0]

    ma = ModuleAnalysis(texts[0], "lib0.py", parse_module(texts[0]), project, "pkg.lib0", False)
    parses: list[object] = []
    real_parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda *a, **k: parses.append(a) or real_parse(*a, **k))
    assert not ma.stable_global("TABLE0") and ma.stable_global("TABLE1")
    assert parses == []
    other = ModuleAnalysis(texts[1], "lib1b.py", parse_module(texts[1]), project, "pkg.unread", False)
    assert not other.stable_global("TABLE1") and len(parses) == 1  # not read by the index: parsed now


_PARALLEL_TIGHT = """
import gc, json, sys
from pathlib import Path
from shapecheck.analysis.index.project import Project
from shapecheck.config import Config
from shapecheck.runner import run

files = [Path(p) for p in sys.argv[2:]]
Project.trim.__defaults__ = (1,)
found = run(files, Config(root=sys.argv[1]), jobs=2, use_cache=False)
print(json.dumps({"found": sorted([Path(f.path).name, f.line, f.code] for f in found), "frozen": gc.get_freeze_count()}))
"""


def test_parallel_run_under_a_tiny_budget(tmp_path: Path) -> None:
    """``-j 2`` over 8 files forks: what the parent loaded is frozen before the fork (runner._freeze) and every module is
    trimmed after each file. The findings are those of a roomy run, and nothing stays frozen once the run ends. In a
    fresh interpreter: forking the test process, which may hold JAX's threads, could deadlock."""
    files = _tree(tmp_path, 4)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    out = subprocess.run(
        [sys.executable, "-c", _PARALLEL_TIGHT, str(tmp_path), *map(str, files)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"found": [[f"user{i}.py", 7, "SHP205"] for i in range(4)], "frozen": 0}
