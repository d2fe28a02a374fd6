"""flake8 host: ``flake8 --select SHP`` reports shapecheck findings (flake8 itself handles ``# noqa``)."""

from __future__ import annotations

import ast
import os
from typing import Any, Iterator, Sequence

from .._version import __version__


_PROJECTS: dict[tuple[str, ...], Any] = {}


def _shared_project(path: str) -> Any:
    """One project per package root for the whole flake8 process: imported modules are parsed once, not per file."""
    from ..analysis.project import Project

    roots = tuple(str(r) for r in Project.roots_for(path))
    if roots not in _PROJECTS:
        _PROJECTS[roots] = Project.for_file(path)
    return _PROJECTS[roots]


class ShapecheckFlake8:
    name = "shapecheck"
    version = __version__

    def __init__(self, tree: ast.AST, filename: str = "<stdin>", lines: Sequence[str] = ()) -> None:
        self.filename = filename
        self.lines = lines  # the text flake8 read (also for ``flake8 -`` on standard input)

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        from ..config import Config
        from ..core import check_source

        # the default Config: flake8's own --select / --extend-ignore / noqa decide what is shown
        source = "".join(self.lines)
        project = _shared_project(self.filename) if os.path.isfile(self.filename) else None
        for f in check_source(source, self.filename, Config(), project=project, prefilter=True):
            yield f.line, f.column - 1, f.message, type(self)
