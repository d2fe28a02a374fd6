"""Imported modules are parsed with their function bodies blanked; a body is parsed when it must run (issue 11).

The findings must not depend on it: the same project analysed with every module parsed whole gives the same
findings, with the same positions and the same line numbers in notes that point into the imported module.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from shapecheck.analysis.index.project import Project, blank_bodies
from shapecheck.config import Config
from shapecheck.core import check_source

ROOT = Path(__file__).resolve().parents[1]

HELPERS = '''import torch


def unused(a, b):
    c = a + b
    d = c * 2
    return d


class Box:
    def __init__(self, n):
        self.n = n
        self.w = torch.zeros(3, 4)

    def other(self):
        self.k = 3
        return self.k


def flatten(x):
    """Reshape to 3 x 5."""
    y = x.reshape(3, 5)
    return y
'''

MAIN = """import torch
from einops import rearrange

from pkg.helpers import Box, flatten


def f():
    x = torch.zeros(2, 4)
    return flatten(x)  # error: SHP204 (raised at helpers.py:22)


def g():
    b = Box(3)
    return rearrange(b.w, "a b c -> (a b) c")  # error: SHP201 (b.w is (3, 4), from Box.__init__)
"""


def _cli_findings(cwd: Path, jobs: int, targets: list[str]) -> list[dict[str, Any]]:
    """``shapecheck check --format json -j JOBS TARGETS`` in a subprocess (-j 2 forks, and this test process may have
    loaded a multithreaded library such as jax by then); the run must report something (exit 1)."""
    proc = subprocess.run(
        [sys.executable, "-m", "shapecheck", "check", "--no-cache", "--format", "json", "-j", str(jobs), *targets],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 1, proc.stderr
    found: list[dict[str, Any]] = json.loads(proc.stdout)
    return found


def _tree(tmp_path: Path) -> list[Path]:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text(HELPERS)
    (pkg / "main.py").write_text(MAIN)
    return [pkg / "__init__.py", pkg / "helpers.py", pkg / "main.py"]


def _check(files: list[Path], blank: bool) -> tuple[list[tuple[object, ...]], Project]:
    project = Project(files)
    project.mask_imports = True  # as the CLI runner does
    if not blank:
        project.checking = {"pkg", "pkg.helpers", "pkg.main"}  # parsed whole, as a module being checked is
    main = files[2]
    found = check_source(main.read_bytes(), str(main), Config(), project=project)
    return [(f.code, f.line, f.column, f.end_line, f.end_column, f.message, f.notes) for f in found], project


def test_findings_do_not_depend_on_blanked_bodies(tmp_path: Path) -> None:
    files = _tree(tmp_path)
    lazy, project = _check(files, blank=True)
    whole, _ = _check(files, blank=False)
    assert lazy == whole
    assert [(code, line) for code, line, *_ in lazy] == [("SHP204", 9), ("SHP201", 14)]
    reshape = lazy[0]
    assert any(note.endswith(f"{files[1]}:22 in flatten() for the arguments of this call") for note in reshape[6])
    # flatten() fails inside for f()'s argument: to know whether helpers.py reports that failure on its own (then
    # the call site would not repeat it), the module is analysed in full, whichever process checks it
    assert project.modules["pkg.helpers"].analysed
    # with a call that fits, nothing needs helpers.py's own findings: only what runs is parsed
    (files[2]).write_text(MAIN.replace("torch.zeros(2, 4)", "torch.zeros(3, 5)"))
    fits, project = _check(files, blank=True)
    assert [(code, line) for code, line, *_ in fits] == [("SHP201", 14)]
    helpers = project.modules["pkg.helpers"]
    assert not helpers.analysed
    # flatten() ran and Box.__init__ gave Box its attributes: their statements were parsed; unused() never ran
    assert len(helpers.other_trees) == 2
    unused = helpers.functions["pkg.helpers:unused"]
    assert (
        id(unused.node) in helpers.fragment_of
        and unused.node.body.body[0].body[0].value.__class__.__name__ == "Ellipsis"
    )
    assert len(helpers.functions["pkg.helpers:flatten"].node.body.body) == 3


def test_blanked_text_keeps_every_line(tmp_path: Path) -> None:
    text = HELPERS.replace("\n", "\r\n")
    out = blank_bodies(text, [(5, 7), (21, 23)])
    assert out.count("\r\n") == text.count("\r\n")
    lines = out.split("\r\n")
    assert lines[4] == "    ..." and lines[5] == lines[6] == "" and lines[20] == "    ..."
    assert lines[3] == "def unused(a, b):" and lines[9] == "class Box:"


def test_parallel_run_matches_sequential(tmp_path: Path) -> None:
    files = _tree(tmp_path)
    for k in range(10):  # enough files for two workers
        extra = tmp_path / "pkg" / f"user{k}.py"
        extra.write_text(MAIN.replace("b = Box(3)", f"b = Box({k + 2})"))
        files.append(extra)

    def findings(jobs: int) -> list[tuple[object, ...]]:
        return [
            (f["path"], f["line"], f["column"], f["code"], f["message"], f["notes"])
            for f in _cli_findings(tmp_path, jobs, [str(p) for p in files])
        ]

    one, two = findings(1), findings(2)
    # notes included: each call site's notes name its own arguments, whichever file a process analysed first
    assert one == two
    assert len(one) == 2 * 11


def test_imported_file_cpython_refuses_is_reported_whichever_reads_it_first(tmp_path: Path) -> None:
    """A module another checked file imports is parsed (libcst accepts 210 nested parentheses) before its own check;
    its check still gets CPython's verdict (SHP901), as it does when nothing imported it first -- with -j 1, and
    with -j 2, where modules both workers import are loaded before the fork."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (pkg / "__init__.py").write_text("")
    nested = "(" * 210 + "1" + ")" * 210
    (pkg / "b.py").write_text(f"import einops\n\n\ndef g(x):\n    return x\n\n\ny = {nested}\n")
    for k in range(9):
        (pkg / f"a{k}.py").write_text("import einops\nfrom pkg.b import g\n\n\ndef f(x):\n    return g(x)\n")

    def findings(jobs: int) -> list[tuple[object, ...]]:
        return [
            (Path(f["path"]).name, f["line"], f["column"], f["code"]) for f in _cli_findings(tmp_path, jobs, ["pkg"])
        ]

    assert findings(1) == findings(2) == [("b.py", 8, 205, "SHP901")]


CALLEE = """import torch
from jaxtyping import Float


def wrap(u: Float[torch.Tensor, "c n"]) -> Float[torch.Tensor, "c n"]:
    return u


def plot(u: Float[torch.Tensor, "1 n n"]):
    return wrap(u)  # rank 3 into "c n": fails for every argument, reported here on its own
"""

CALLER = """import torch
from pkg.z_plot import plot


def test_plot_{k}():
    plot(torch.zeros(1, {n}, {n}))
"""


def test_callee_failure_reported_once_whichever_process_analysed_the_callee(tmp_path: Path) -> None:
    """An inlined callee's failure that its own module reports (for any argument) is not repeated at the call sites.
    That used to depend on whether the process had analysed the callee's file before the caller's: with ``-j 2`` the
    callers the other worker checked repeated it (exponax: 169 findings with -j 1, 206 with -j 2)."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (pkg / "__init__.py").write_text("")
    (pkg / "z_plot.py").write_text(CALLEE)  # sorted last: the callers come first in every process
    for k in range(10):
        (pkg / f"a{k}.py").write_text(CALLER.format(k=k, n=k + 2))

    def findings(jobs: int) -> list[tuple[object, ...]]:
        return [(Path(f["path"]).name, f["line"], f["code"]) for f in _cli_findings(tmp_path, jobs, ["pkg"])]

    one, two = findings(1), findings(2)
    assert one == two == [("z_plot.py", 10, "SHP205")]
