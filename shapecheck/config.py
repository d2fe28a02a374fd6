"""Configuration: ``[tool.shapecheck]`` in pyproject.toml, merged with command-line options."""

from __future__ import annotations

import fnmatch
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,no-redef]

DEFAULT_EXCLUDE = (
    ".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv", "env", "__pycache__", "build", "dist",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", "node_modules", "site-packages", ".eggs", "*.egg-info",
)


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ("SHP",)
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    stub_paths: tuple[str, ...] = ()
    root: str = "."

    def enabled(self, code: str, path: str | None = None) -> bool:
        if not any(code.startswith(s) for s in self.select):
            return False
        ignored = self.ignore
        if path is not None:
            for pattern, codes in self.per_file_ignores:
                if _path_matches(path, pattern):
                    ignored = ignored + codes
        # the most specific selector wins (as in flake8/ruff): SHP2 ignored but SHP201 selected keeps SHP201
        best_sel = max((len(s) for s in self.select if code.startswith(s)), default=-1)
        best_ign = max((len(s) for s in ignored if code.startswith(s)), default=-1)
        return best_sel > best_ign

    def is_excluded(self, path: Path) -> bool:
        patterns = self.exclude + self.extend_exclude
        parts = path.parts
        rel = path.as_posix()
        for pattern in patterns:
            if any(fnmatch.fnmatch(part, pattern) for part in parts):
                return True
            if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(rel, pattern.rstrip("/") + "/*"):
                return True
        return False


def _path_matches(path: str, pattern: str) -> bool:
    p = Path(path).as_posix()
    return fnmatch.fnmatch(p, pattern) or fnmatch.fnmatch(Path(p).name, pattern) or p.endswith("/" + pattern)


def _codes(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split()]
    return tuple(str(v).strip() for v in value if str(v).strip())


def find_pyproject(start: Path) -> Path | None:
    start = start.resolve()
    for d in [start, *start.parents] if start.is_dir() else [start.parent, *start.parent.parents]:
        candidate = d / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(start: Path | None = None, pyproject: Path | None = None) -> Config:
    """Read ``[tool.shapecheck]`` from the nearest pyproject.toml (or the one given)."""
    pyproject = pyproject or find_pyproject(start or Path.cwd())
    if pyproject is None:
        return Config()
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return Config()
    section = data.get("tool", {}).get("shapecheck", {})
    return config_from_mapping(section, root=str(pyproject.parent))


def config_from_mapping(section: dict[str, Any], root: str = ".") -> Config:
    cfg = Config(root=root)
    if "select" in section:
        cfg = replace(cfg, select=_codes(section["select"]))
    if "ignore" in section:
        cfg = replace(cfg, ignore=_codes(section["ignore"]))
    if "exclude" in section:
        cfg = replace(cfg, exclude=tuple(section["exclude"]))
    if "extend-exclude" in section or "extend_exclude" in section:
        cfg = replace(cfg, extend_exclude=tuple(section.get("extend-exclude", section.get("extend_exclude", ()))))
    pfi = section.get("per-file-ignores", section.get("per_file_ignores", {}))
    if pfi:
        cfg = replace(cfg, per_file_ignores=tuple((k, _codes(v)) for k, v in pfi.items()))
    stubs = section.get("stub-paths", section.get("stub_paths", section.get("stubs", ())))
    if stubs:
        base = Path(root)
        cfg = replace(cfg, stub_paths=tuple(str((base / s).resolve()) for s in stubs))
    return cfg


def with_cli(cfg: Config, select: str | None = None, ignore: str | None = None, extend_ignore: str | None = None) -> Config:
    if select:
        cfg = replace(cfg, select=_codes(select))
    if ignore:
        cfg = replace(cfg, ignore=_codes(ignore))
    if extend_ignore:
        cfg = replace(cfg, ignore=cfg.ignore + _codes(extend_ignore))
    return cfg
