"""A single file checked alone resolves its imports against its project (issue 14, item 2).

``pkg/head.py`` passes a ``(2, 10, 512)`` tensor to ``pkg/attention.py``'s ``attend``, annotated ``"b n 256"``. Each
host given only ``pkg/head.py`` reports the SHP205 there, and nothing for ``attention.py`` (a file not named). The
project's root is found like mypy and pyright find it: a regular package, a namespace package (no ``__init__.py``)
below pyproject.toml / .git, a src layout. pre-commit passes only the staged files: the hook must still see it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ATTENTION = """from jaxtyping import Float
from torch import Tensor


def attend(x: Float[Tensor, "b n 256"]) -> Float[Tensor, "b n 256"]:
    return x
"""
HEAD = """import torch

from {imp} import attend


def head() -> None:
    x = torch.zeros(2, 10, 512)
    attend(x)
"""
MYPY = '[tool.mypy]\nplugins = ["shapecheck"]\nignore_missing_imports = true\n'


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "SHAPECHECK_NO_CACHE": "1"}


def _python_m(cwd: Path, *args: str, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    """``python -m ARGS`` in ``cwd`` with this checkout on the path (shapecheck, flake8, mypy)."""
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, env=_env(), capture_output=True, text=True, timeout=timeout
    )


def make_project(root: Path, layout: str) -> Path:
    """The issue's two modules in ``layout``; returns the folder holding ``pkg`` (the working directory)."""
    base = root / "src" if layout == "src" else root
    pkg = base / "pkg"
    pkg.mkdir(parents=True)
    (root / "pyproject.toml").write_text(MYPY)
    if layout != "namespace":
        (pkg / "__init__.py").write_text("")
    (pkg / "attention.py").write_text(ATTENTION)
    imp = ".attention" if layout == "relative" else "pkg.attention"
    (pkg / "head.py").write_text(HEAD.format(imp=imp))
    return base


def _codes_by_file(lines: list[str]) -> set[tuple[str, int, str]]:
    out = set()
    for line in lines:
        m = re.match(r"^(?P<path>[^:\s]+\.py):(?P<line>\d+):(?:\d+:)? ?(?:error: )?(?P<code>SHP\d{3})", line)
        if m:
            out.add((Path(m["path"]).name, int(m["line"]), m["code"]))
    return out


WANT = {("head.py", 8, "SHP205")}


@pytest.mark.parametrize("layout", ["absolute", "relative", "namespace", "src"])
def test_cli_single_file_sees_imported_module(tmp_path: Path, layout: str) -> None:
    cwd = make_project(tmp_path, layout)
    target = str(Path("pkg") / "head.py")
    proc = _python_m(cwd, "shapecheck", "check", target)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert _codes_by_file(proc.stdout.splitlines()) == WANT, proc.stdout
    assert 'note: parameter x: Float[Tensor, "b n 256"] of attend() at pkg/attention.py:5' in proc.stdout
    # run from inside the package folder, and from the project's root for the src layout: the same finding
    inner = _python_m(cwd / "pkg", "shapecheck", "check", "head.py")
    assert _codes_by_file(inner.stdout.splitlines()) == WANT, inner.stdout + inner.stderr


@pytest.mark.parametrize("layout", ["relative", "namespace"])
def test_flake8_and_mypy_agree_on_the_single_file(tmp_path: Path, layout: str) -> None:
    cwd = make_project(tmp_path, layout)
    target = str(Path("pkg") / "head.py")
    flake8 = _python_m(cwd, "flake8", "--select", "SHP", target)
    assert _codes_by_file(flake8.stdout.splitlines()) == WANT, flake8.stdout + flake8.stderr
    mypy = _python_m(
        cwd, "mypy", "--no-incremental", "--config-file", str(tmp_path / "pyproject.toml"), target, timeout=300
    )
    assert _codes_by_file(mypy.stdout.splitlines()) == WANT, mypy.stdout + mypy.stderr


def test_only_named_files_are_reported(tmp_path: Path) -> None:
    """attention.py has a finding of its own: a check of head.py alone never shows it."""
    cwd = make_project(tmp_path, "absolute")
    (cwd / "pkg" / "attention.py").write_text(
        "import torch\n" + ATTENTION + "\n\ndef broken() -> None:\n    attend(torch.zeros(1, 2, 3))\n"
    )
    whole = _python_m(cwd, "shapecheck", "check", ".")
    assert ("attention.py", 11, "SHP205") in _codes_by_file(whole.stdout.splitlines()), whole.stdout
    one = _python_m(cwd, "shapecheck", "check", "pkg/head.py")
    assert _codes_by_file(one.stdout.splitlines()) == WANT, one.stdout


def _git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        check=check,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_precommit_on_staged_files_blocks_cross_module_error(tmp_path: Path) -> None:
    """The real pre-commit, installed as the git hook: committing only head.py is refused for the SHP205."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    from test_host_precommit import snapshot_repo

    hookrepo = snapshot_repo(tmp_path / "hookrepo")
    sha = _git(hookrepo, "rev-parse", "HEAD").stdout.strip()
    work = tmp_path / "work"
    work.mkdir()
    _git(work, "init", "-q")
    make_project(work, "absolute")
    (work / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hookrepo.as_posix()}\n    rev: {sha}\n    hooks:\n      - id: shapecheck\n"
    )
    head = (work / "pkg" / "head.py").read_text()
    (work / "pkg" / "head.py").unlink()
    _git(work, "add", ".")
    _git(work, "commit", "-q", "-m", "attention", "--no-verify")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "PRE_COMMIT_COLOR": "never"}
    env.pop("PYTHONPATH", None)  # the hook runs the shapecheck pre-commit installed from the hook repository
    subprocess.run(
        [sys.executable, "-m", "pre_commit", "install"], cwd=work, env=env, check=True, capture_output=True, timeout=120
    )
    (work / "pkg" / "head.py").write_text(head)
    _git(work, "add", "pkg/head.py")
    commit = subprocess.run(
        [
            "git",
            "-c",
            "user.email=t@example.com",
            "-c",
            "user.name=t",
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-m",
            "head",
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    out = commit.stdout + commit.stderr
    assert commit.returncode != 0, out
    assert "pkg/head.py:8:5: SHP205" in out, out
    assert "Found 1 finding" in out, out  # head.py's, and nothing for the file that was not staged
    assert _git(work, "log", "--oneline").stdout.count("\n") == 1  # the commit was refused


MODEL = """import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear({width}, 4)

    def forward(self, x):
        return self.fc(x)
"""
SCRIPT = """import torch
from model import Net

net = Net()
y = net(torch.randn(2, {width}))
"""


def _run_scripts(root: Path, bad: str, good: tuple[str, ...]) -> None:
    """Each script run with python from its own folder: the good ones run, the bad one raises torch's error."""
    for script in (*good, bad):
        path = root / script
        ran = subprocess.run([sys.executable, path.name], cwd=path.parent, capture_output=True, text=True, timeout=300)
        assert (ran.returncode != 0) == (script == bad), ran.stderr
        if script == bad:
            assert "mat1 and mat2 shapes cannot be multiplied (2x8 and 16x4)" in ran.stderr, ran.stderr


def make_examples(root: Path) -> Path:
    """Two example folders of one project, each a script beside its own ``model.py`` (widths 8 and 16); ``b/bad.py``
    gives b's model a width-8 input. Python puts a script's folder first on ``sys.path``: ``from model import Net``
    is the sibling."""
    (root / "pyproject.toml").write_text("")
    for name, width in (("a", 8), ("b", 16)):
        d = root / "examples" / name
        d.mkdir(parents=True)
        (d / "model.py").write_text(MODEL.format(width=width))
        (d / "train.py").write_text(SCRIPT.format(width=width))
    (root / "examples" / "b" / "bad.py").write_text(SCRIPT.format(width=8))
    return root


def test_sibling_example_folders_each_import_their_own_model(tmp_path: Path) -> None:
    root = make_examples(tmp_path)
    _run_scripts(root / "examples", bad="b/bad.py", good=("a/train.py", "b/train.py"))
    want = {("bad.py", 5, "SHP204")}
    for args in (["."], ["-j", "2", "."], ["examples/b"], ["examples/b/train.py", "examples/b/bad.py"]):
        proc = _python_m(root, "shapecheck", "check", *args)
        assert _codes_by_file(proc.stdout.splitlines()) == want, (args, proc.stdout + proc.stderr)
        assert "Linear(in_features=16) cannot take an input whose last axis is 8" in proc.stdout
        assert "examples/b/model.py:10 in forward()" in proc.stdout
    flake8 = _python_m(root, "flake8", "--select", "SHP", "examples/a/train.py", "examples/b/bad.py")
    assert _codes_by_file(flake8.stdout.splitlines()) == want, flake8.stdout + flake8.stderr


def test_copies_of_a_project_without_markers_checked_in_one_run(tmp_path: Path) -> None:
    """Two small projects without pyproject.toml or .git (``one/`` and ``two/``: the bug and the fix of a case, say),
    each with its own ``model.py`` and a package of the same name, checked in one run: each is analysed with its own
    modules (runner._groups), as when it is checked alone."""
    for name, width in (("one", 8), ("two", 16)):
        d = tmp_path / name
        (d / "pkg").mkdir(parents=True)
        (d / "pkg" / "__init__.py").write_text("from .model import Net\n")
        (d / "pkg" / "model.py").write_text(MODEL.format(width=width))
        (d / "train.py").write_text(SCRIPT.format(width=width).replace("from model", "from pkg"))
    (tmp_path / "two" / "bad.py").write_text(SCRIPT.format(width=8).replace("from model", "from pkg"))
    _run_scripts(tmp_path, bad="two/bad.py", good=("one/train.py", "two/train.py"))
    alone = _python_m(tmp_path, "shapecheck", "check", "two")
    want = {("bad.py", 5, "SHP204")}
    assert _codes_by_file(alone.stdout.splitlines()) == want, alone.stdout + alone.stderr
    for jobs in ("1", "2"):
        both = _python_m(tmp_path, "shapecheck", "check", "-j", jobs, ".")
        assert both.stdout == alone.stdout.replace("two/bad.py", str(Path("two") / "bad.py")), both.stdout


def test_groups_split_only_where_module_names_clash(tmp_path: Path) -> None:
    from shapecheck.runner import _groups

    files = {
        "a/model.py": "",
        "a/tests/test_model.py": "",
        "b/model.py": "",
        "b/train.py": "import model\n",
        "c/other.py": "",
        "top.py": "",
        "t1/conftest.py": "",
        "t2/conftest.py": "",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    paths = sorted(tmp_path.rglob("*.py"))
    groups = sorted(sorted(str(f.relative_to(tmp_path)) for f in g) for g, _ in _groups(paths, []))
    # a/ and b/ each hold a model.py, which b/train.py imports: the folder above is split; a/ (with its tests/) stays
    # whole; each subfolder of a split folder is a group of its own
    assert groups == [
        ["a/model.py", "a/tests/test_model.py"],
        ["b/model.py", "b/train.py"],
        ["c/other.py"],
        ["t1/conftest.py"],
        ["t2/conftest.py"],
        ["top.py"],
    ]
    # without b/, only the two conftest.py clash, and nothing imports them by name: one group
    rest = [f for f in paths if not f.is_relative_to(tmp_path / "b")]
    assert len(_groups(rest, [])) == 1
