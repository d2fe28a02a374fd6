"""flake8 host: ``flake8 --select SHP`` reports shapecheck findings (flake8 itself handles ``# noqa``)."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Iterator, Sequence

from .._version import __version__


class _ModulesOnDisk(dict[str, Path]):
    """``Project.paths`` that finds an imported module's file on first lookup, for hosts that see one file."""

    def __init__(self, roots: list[Path], packages: set[str]) -> None:
        super().__init__()
        self.roots, self.packages = roots, packages

    def _find(self, name: object) -> bool:
        if not isinstance(name, str) or not name or dict.__contains__(self, name):
            return dict.__contains__(self, name)
        parts = name.split(".")
        for root in self.roots:
            base = root.joinpath(*parts)
            for cand, is_pkg in ((base / "__init__.py", True), (base.with_suffix(".py"), False)):
                if cand.is_file():
                    self[name] = cand
                    if is_pkg:
                        self.packages.add(name)
                    return True
        return False

    def __contains__(self, name: object) -> bool:
        return self._find(name)

    def get(self, name: Any, default: Any = None) -> Any:
        return dict.get(self, name, default) if self._find(name) else default


def project_for(path: str) -> Any:
    """A cross-module project for one file: imports resolve next to its top-level package and the cwd."""
    from ..analysis.project import Project

    project = Project()
    p = Path(path)
    roots = [Path.cwd()]
    if p.suffix == ".py" and p.is_file():
        d = p.resolve().parent
        while (d / "__init__.py").exists() and d != d.parent:
            d = d.parent
        roots.insert(0, d)
    project.paths = _ModulesOnDisk(list(dict.fromkeys(roots)), project.packages)
    return project


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
        project = project_for(self.filename) if os.path.isfile(self.filename) else None
        for f in check_source(source, self.filename, Config(), project=project, prefilter=True):
            yield f.line, f.column - 1, f.message, type(self)
