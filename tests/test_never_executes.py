"""shapecheck never executes the analysed code (issue 3, item 8).

Every module below writes a marker file if it is imported, or if one of its class bodies, decorators, default
arguments, annotations or package ``__init__`` runs. We analyse the tree through the CLI (serial and parallel),
through ``check_source`` with a cross-module project and through the flake8 host, and show that no marker file
exists afterwards and that the analysed tree is byte-for-byte unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _writer(marker: Path, what: str) -> str:
    """An expression that writes ``marker/what`` when evaluated (several spellings, none of them needs imports)."""
    target = str(marker / what)
    return f"open({target!r}, 'w').write('ran')"


def _make_tree(base: Path, marker: Path) -> dict[str, str]:
    def w(what: str) -> str:
        return _writer(marker, what)

    files = {
        "pkg/__init__.py": f"""
            import einops
            {w("package-init")}
            from .helper import scale
        """,
        "pkg/helper.py": f"""
            import os
            import einops
            {w("imported-module-top-level")}
            os.system({"touch " + str(marker / "os-system")!r})
            __import__("pathlib").Path({str(marker / "dunder-import")!r}).write_text("ran")

            def scale(x, factor={w("helper-default")}):
                return einops.rearrange(x, "b n d -> b (n d)")
        """,
        "pkg/model.py": f"""
            import einops
            import torch
            from jaxtyping import Float
            from torch import Tensor
            from .helper import scale
            from pkg import helper

            {w("top-level")}

            def deco(fn):
                {w("decorator-body")}
                return fn

            def deco_factory(arg):
                {w("decorator-factory")}
                return deco

            @deco
            @deco_factory({w("decorator-argument")})
            def f(x: Float[Tensor, "b c h w"], y=({w("default-argument")}), *, z={w("kwonly-default")}) -> Float[Tensor, "b c"]:
                {w("function-body")}
                return einops.reduce(x, "b c h w -> b c", "mean")

            def g(x: Float[Tensor, "b n=__import__('os').system('touch {marker / "annotation-dims"}')"]):
                return x

            def h(x: '''Float[Tensor, {w("string-annotation")!r}]'''):
                return x

            class Block(torch.nn.Module, metaclass=type({w("metaclass")!r}, (type,), {{}})):
                {w("class-body")}
                size: Float[Tensor, "n"] = {w("class-attribute")}

                def __init__(self, d=({w("method-default")})):
                    super().__init__()
                    {w("method-body")}

                def forward(self, x: Float[Tensor, "b n d"]) -> Float[Tensor, "b (n d)"]:
                    return scale(x)

            lam = lambda t={w("lambda-default")}: t
            values = [{w("comprehension")} for _ in range(2)]
            y = f(torch.zeros(2, 3, 4, 4))
            z = einops.rearrange(torch.zeros(2, 3), "a b -> b a", **{{k: {w("axes-lengths")} for k in ()}})
            w = einops.rearrange(torch.zeros(2, 3), f"a b -> {{ {w("f-string-pattern")} }}")

            if __name__ == "__main__":
                {w("main-guard")}
        """,
        "pkg/sub/__init__.py": f"""
            {w("subpackage-init")}
        """,
        "pkg/sub/use.py": f"""
            import einops
            from ..model import f, Block
            from . import *
            {w("relative-importer")}
            out = f(None)
        """,
        "script.py": f"""
            import einops
            import pkg.model
            from pkg.sub.use import out
            exec({w("exec-arg")!r})
            eval("1")
            {w("script-top-level")}
        """,
        "pyproject.toml": "[tool.shapecheck]\n",
    }
    out: dict[str, str] = {}
    for rel, text in files.items():
        p = base / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        body = textwrap.dedent(text).lstrip("\n")
        p.write_text(body, encoding="utf-8")
        out[rel] = body
    return out


def _snapshot(base: Path) -> dict[str, str]:
    """Every file of the analysed tree, except shapecheck's own result cache (written by the flake8 host)."""
    return {
        str(p.relative_to(base)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(base.rglob("*"))
        if p.is_file() and ".shapecheck_cache" not in p.relative_to(base).parts
    }


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    base, marker = tmp_path / "tree", tmp_path / "markers"
    base.mkdir()
    marker.mkdir()
    _make_tree(base, marker)
    return base, marker


def _assert_nothing_ran(base: Path, marker: Path, before: dict[str, str]) -> None:
    assert sorted(os.listdir(marker)) == [], f"analysed code ran: {sorted(os.listdir(marker))}"
    assert _snapshot(base) == before, "the analysed tree changed"


def test_sanity_the_tree_really_writes(tree: tuple[Path, Path]) -> None:
    """The fixture is armed: importing the package for real does write marker files."""
    base, marker = tree
    proc = subprocess.run(
        [sys.executable, "-c", "import pkg.helper"], cwd=base, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert {"package-init", "imported-module-top-level", "os-system", "dunder-import"} <= set(os.listdir(marker))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_never_executes(tree: tuple[Path, Path], jobs: str) -> None:
    base, marker = tree
    before = _snapshot(base)
    proc = subprocess.run(
        [sys.executable, "-m", "shapecheck", "check", "--no-cache", "-j", jobs, "--format", "json", "."],
        cwd=base,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode in (0, 1), proc.stderr
    findings = json.loads(proc.stdout)
    assert not [f for f in findings if f["code"] in ("SHP901", "SHP902")], findings
    _assert_nothing_ran(base, marker, before)


def test_cli_with_cache_writes_only_its_cache(tree: tuple[Path, Path]) -> None:
    """With the cache on, the only new files are under .shapecheck_cache; the analysed files are untouched."""
    base, marker = tree
    before = _snapshot(base)
    proc = subprocess.run(
        [sys.executable, "-m", "shapecheck", "check", "-j", "1", "."],
        cwd=base,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode in (0, 1), proc.stderr
    assert sorted(os.listdir(marker)) == []
    after = {k: v for k, v in _snapshot(base).items() if not k.startswith(".shapecheck_cache")}
    assert after == before


def test_check_source_never_executes(tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from shapecheck.analysis.index.project import Project
    from shapecheck.core import check_source

    base, marker = tree
    before = _snapshot(base)
    monkeypatch.chdir(base)
    files = sorted(base.rglob("*.py"))
    project = Project(files)
    for p in files:
        findings = check_source(p.read_bytes(), str(p), project=project, prefilter=False)
        assert not [f for f in findings if f.code in ("SHP901", "SHP902")], findings
        # and once more without a project, from text
        check_source(p.read_text("utf-8"), str(p.relative_to(base)), prefilter=False)
    _assert_nothing_ran(base, marker, before)


def test_flake8_host_never_executes(tree: tuple[Path, Path]) -> None:
    pytest.importorskip("flake8")
    base, marker = tree
    before = _snapshot(base)
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "SHP", "-j", "1", "."],
        cwd=base,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode in (0, 1), proc.stderr
    _assert_nothing_ran(base, marker, before)
