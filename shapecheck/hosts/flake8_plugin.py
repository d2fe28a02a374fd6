"""flake8 host: ``flake8 --select SHP`` reports shapecheck findings (flake8 itself handles ``# noqa``)."""

from __future__ import annotations

import ast
import os
from typing import Any, Iterator, Sequence

from .._version import __version__


def _cache_key(source: str, path: str, project: Any) -> tuple[Any, str]:
    """The CLI's result cache (.shapecheck_cache/, keyed by content, imported project files and the checker itself)."""
    from pathlib import Path

    from ..runner import Cache

    cache = Cache(Path.cwd())
    deps: list[bytes] = []
    for dep in project.dependencies(source, "") if project is not None else ():
        try:
            deps.append(dep.read_bytes())
        except OSError:
            pass
    return cache, cache.key(source.encode("utf-8", "surrogatepass"), deps, "flake8:" + path)


def _cached(source: str, path: str, project: Any) -> Any:
    try:
        cache, key = _cache_key(source, path, project)
        return cache.get(key)
    except Exception:  # a cache problem must never cost a finding
        return None


def _store(source: str, path: str, project: Any, findings: Any) -> None:
    try:
        cache, key = _cache_key(source, path, project)
        cache.put(key, findings)
    except Exception:
        pass


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
        from ..analysis.project import Project

        source = "".join(self.lines)
        on_disk = os.path.isfile(self.filename)
        # one project per package root for the whole flake8 process: imported modules are parsed once, not per file
        project = Project.shared(self.filename) if on_disk else None
        findings = _cached(source, self.filename, project) if on_disk else None
        if findings is None:
            findings = check_source(source, self.filename, Config(), project=project, prefilter=True)
            if on_disk:
                _store(source, self.filename, project, findings)
            if project is not None:
                project.trim()  # bounded memory over a long flake8 run
        for f in findings:
            yield f.line, f.column - 1, f.message, type(self)
