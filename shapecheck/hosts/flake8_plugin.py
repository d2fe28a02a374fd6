"""flake8 host: ``flake8 --select SHP`` reports shapecheck findings (flake8 itself handles ``# noqa``, and
``--disable-noqa``); ``[tool.shapecheck]`` select / ignore / per-file-ignores apply as in the other hosts."""

from __future__ import annotations

import ast
import os
from typing import Any, Iterator, Sequence

from .._version import __version__


_CONFIGS: dict[Any, Any] = {}  # pyproject.toml -> Config, once per flake8 process


def _config_for(path: str) -> Any:
    """``[tool.shapecheck]`` of the file's project (select, ignore, per-file-ignores), as the other hosts apply it.

    A configuration that is not valid is said once on standard error and every code stays on: a broken
    configuration must never make the run look clean.
    """
    import sys
    from pathlib import Path

    from ..config import Config, ConfigError, find_pyproject, load_config

    where = find_pyproject(Path(path)) if os.path.exists(path) else find_pyproject(Path.cwd())
    if where not in _CONFIGS:
        try:
            _CONFIGS[where] = load_config(pyproject=where) if where is not None else Config()
        except ConfigError as exc:
            print(f"shapecheck: warning: {exc}; using the default configuration", file=sys.stderr)
            _CONFIGS[where] = Config()
    return _CONFIGS[where]


def _cache_key(source: str, path: str, project: Any, config: Any) -> tuple[Any, str]:
    """The CLI's result cache (.shapecheck_cache/, keyed by content, imported project files and the checker itself)."""
    from pathlib import Path

    from ..analysis.index.project import module_name_for
    from ..runner import Cache, dependency_bytes

    cache = Cache(Path.cwd())
    current = module_name_for(Path(path))[0] if project is not None else ""
    # (the imported files and the config files the code may read: as the CLI's key)
    deps = dependency_bytes(project, Path(path), source, current)
    return cache, cache.key(source.encode("utf-8", "surrogatepass"), deps, f"flake8:{path}:{config!r}")


def _cached(source: str, path: str, project: Any, config: Any) -> Any:
    try:
        cache, key = _cache_key(source, path, project, config)
        return cache.get(key)
    except Exception:  # a cache problem must never cost a finding
        return None


def _store(source: str, path: str, project: Any, config: Any, findings: Any) -> None:
    try:
        cache, key = _cache_key(source, path, project, config)
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
        from ..analysis.index.project import Project
        from ..core import check_source

        # [tool.shapecheck] select / ignore / per-file-ignores apply as in every host; flake8's own --select /
        # --extend-ignore then filter what is left, and flake8 itself applies noqa comments (or not: --disable-noqa)
        config = _config_for(self.filename)
        source = "".join(self.lines)
        on_disk = os.path.isfile(self.filename)
        # one project per package root for the whole flake8 process: imported modules are parsed once, not per file
        project = Project.shared(self.filename) if on_disk else None
        findings = _cached(source, self.filename, project, config) if on_disk else None
        if findings is None:
            findings = check_source(source, self.filename, config, project=project, prefilter=True, noqa=False)
            if on_disk:
                _store(source, self.filename, project, config, findings)
            if project is not None:
                project.trim()  # bounded memory over a long flake8 run
        for f in findings:
            yield f.line, f.column - 1, f.message, type(self)
