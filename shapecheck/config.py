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
    ".git",
    ".hg",
    ".svn",
    ".tox",
    ".nox",
    ".venv",
    "venv",
    "env",
    "__pycache__",
    "build",
    "dist",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    "node_modules",
    "site-packages",
    ".eggs",
    "*.egg-info",
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
    examples: bool = True  # python blocks of README / docs Markdown files are analysed as entry points

    def enabled(self, code: str, path: str | None = None) -> bool:
        if not any(code.startswith(s) for s in self.select):
            return False
        ignored = self.ignore
        if path is not None:
            for pattern, codes in self.per_file_ignores:
                if _path_matches(path, pattern, self.root):
                    ignored = ignored + codes
        # the most specific selector wins (as in flake8/ruff): SHP2 ignored but SHP201 selected keeps SHP201
        best_sel = max((len(s) for s in self.select if code.startswith(s)), default=-1)
        best_ign = max((len(s) for s in ignored if code.startswith(s)), default=-1)
        return best_sel > best_ign

    def is_excluded(self, path: Path, folders_checked: bool = False) -> bool:
        """Does an exclude pattern match a part of ``path`` or the whole of it? ``folders_checked``: a walk that
        checked (and entered) each folder above already, so only the last part is matched part-wise."""
        patterns = self.exclude + self.extend_exclude
        parts = path.parts[-1:] if folders_checked else path.parts
        rel = path.as_posix()
        for pattern in patterns:
            if any(fnmatch.fnmatch(part, pattern) for part in parts):
                return True
            if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(rel, pattern.rstrip("/") + "/*"):
                return True
        return False


class UsageError(Exception):
    """Input shapecheck cannot check (a path, a configuration): one line on standard error, exit 2."""


class ConfigError(UsageError):
    """A configuration that cannot be used: one line naming the file, the key and what was expected (exit 2)."""


# [tool.shapecheck] keys (dashes; the underscore spelling is read too)
KEYS = ("select", "ignore", "extend-ignore", "exclude", "extend-exclude", "per-file-ignores", "stub-paths", "examples")
_ALIASES = {"stubs": "stub-paths"}


def _path_matches(path: str, pattern: str, root: str = ".") -> bool:
    """``pattern`` (a glob relative to the configuration's folder ``root``) against a checked file's ``path``
    (as shown, relative to the working directory or absolute): the same answer whatever the working directory.
    A pattern without ``/`` also matches the file's name; a pattern naming a folder matches the files below it."""
    import os

    full = os.path.abspath(path)
    base = os.path.abspath(root or ".")
    rel = os.path.relpath(full, base) if full.startswith(base.rstrip(os.sep) + os.sep) or full == base else full
    rel = Path(rel).as_posix()
    pat = Path(pattern).as_posix() if pattern else pattern
    if pat.startswith("./"):
        pat = pat[2:]
    if fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch(rel, pat.rstrip("/") + "/*"):
        return True
    return "/" not in pat and fnmatch.fnmatch(Path(rel).name, pat)


def warn(message: str) -> None:
    """One line on standard error (configuration that is accepted but not as written)."""
    print(f"shapecheck: warning: {message}", file=sys.stderr)


def _known_selector(sel: str) -> bool:
    from .diagnostics import CODES

    return any(c.code.startswith(sel) for c in CODES)


def _closest(word: str, choices: "list[str] | tuple[str, ...]") -> str:
    import difflib

    hit = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    return f" (did you mean {hit[0]!r}?)" if hit else ""


def _codes(value: Any, where: str = "", key: str = "codes", *, strict: bool = True) -> tuple[str, ...]:
    """Codes or code prefixes, from a list of strings (configuration) or a comma-separated string (command line).

    Lower-case codes are accepted (with a warning); a code that selects nothing (``SHP999``, ``XYZ``) is an error.
    """
    from .diagnostics import CODES

    if isinstance(value, str) and not strict:
        items: list[Any] = [v for v in value.replace(",", " ").split()]
    elif isinstance(value, list):
        items = value
    else:
        got = f"the string {value!r}" if isinstance(value, str) else f"{type(value).__name__} {value!r}"
        raise ConfigError(f'{where}{key}: expected a list of codes such as ["SHP2", "SHP301"], got {got}')
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise ConfigError(
                f'{where}{key}: expected codes as strings such as "SHP201", got {type(item).__name__} {item!r}'
            )
        code = item.strip()
        if not code:
            continue
        if code != code.upper():
            warn(f"{where}{key}: code {code!r} read as {code.upper()!r} (codes are upper-case)")
            code = code.upper()
        if not _known_selector(code):
            raise ConfigError(
                f"{where}{key}: unknown code {code!r}: expected a code or prefix of one, such as "
                f"SHP, SHP2 or SHP201{_closest(code, [c.code for c in CODES])} (shapecheck rules lists them)"
            )
        out.append(code)
    return tuple(out)


def _strings(value: Any, where: str, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        import json

        raise ConfigError(
            f"{where}{key}: expected a list of strings, got the string {json.dumps(value)} "
            f"(write {key} = [{json.dumps(value)}])"
        )
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}{key}: expected a list of strings, got {type(value).__name__} {value!r}")
    return tuple(value)


def find_pyproject(start: Path) -> Path | None:
    start = start.resolve()
    for d in [start, *start.parents] if start.is_dir() else [start.parent, *start.parent.parents]:
        candidate = d / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(start: Path | None = None, pyproject: Path | None = None) -> Config:
    """Read ``[tool.shapecheck]`` from the nearest pyproject.toml (or the one given).

    Raises ``ConfigError`` (one line: the file, the key, what was expected) for a file that is missing, is not
    TOML, or holds a ``[tool.shapecheck]`` that is not valid.
    """
    given = pyproject is not None
    pyproject = pyproject or find_pyproject(start or Path.cwd())
    if pyproject is None:
        return Config()
    try:
        raw = pyproject.read_bytes()
    except OSError as exc:
        if given and not pyproject.exists():
            raise ConfigError(f"{pyproject}: configuration file not found") from None
        raise ConfigError(f"{pyproject}: cannot read the configuration ({exc.strerror or exc})") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{pyproject}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{_shown(pyproject)}: invalid TOML: {exc}") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(
            f"{_shown(pyproject)}: tool: expected a table ([tool.shapecheck]), got {type(tool).__name__} {tool!r}"
        )
    section = tool.get("shapecheck", {})
    if not isinstance(section, dict):
        raise ConfigError(
            f"{_shown(pyproject)}: [tool] shapecheck: expected a table ([tool.shapecheck]), got {type(section).__name__} {section!r}"
        )
    return config_from_mapping(section, root=str(pyproject.parent), source=_shown(pyproject))


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return str(path)


def config_from_mapping(section: dict[str, Any], root: str = ".", source: str = "") -> Config:
    where = f"{source}: [tool.shapecheck] " if source else "[tool.shapecheck] "
    norm: dict[str, Any] = {}
    for key, value in section.items():
        k = _ALIASES.get(key, key.replace("_", "-"))
        if k not in KEYS:
            raise ConfigError(f"{where}{key}: unknown key{_closest(k, KEYS)}; the keys are {', '.join(KEYS)}")
        norm[k] = value
    cfg = Config(root=root)
    if "select" in norm:
        cfg = replace(cfg, select=_codes(norm["select"], where, "select"))
    if "ignore" in norm:
        cfg = replace(cfg, ignore=_codes(norm["ignore"], where, "ignore"))
    if "extend-ignore" in norm:
        cfg = replace(cfg, ignore=cfg.ignore + _codes(norm["extend-ignore"], where, "extend-ignore"))
    if "exclude" in norm:
        cfg = replace(cfg, exclude=_strings(norm["exclude"], where, "exclude"))
    if "extend-exclude" in norm:
        cfg = replace(cfg, extend_exclude=_strings(norm["extend-exclude"], where, "extend-exclude"))
    if "per-file-ignores" in norm:
        pfi = norm["per-file-ignores"]
        if not isinstance(pfi, dict):
            raise ConfigError(
                f'{where}per-file-ignores: expected a table of "glob" = [codes] '
                f"([tool.shapecheck.per-file-ignores]), got {type(pfi).__name__} {pfi!r}"
            )
        cfg = replace(
            cfg, per_file_ignores=tuple((k, _codes(v, where, f"per-file-ignores.{k!r}")) for k, v in pfi.items())
        )
    if "stub-paths" in norm:
        base = Path(root)
        stubs = _strings(norm["stub-paths"], where, "stub-paths")
        for s in stubs:
            if not (base / s).is_dir():
                raise ConfigError(f"{where}stub-paths: {s!r} is not a folder (paths are relative to {base})")
        cfg = replace(cfg, stub_paths=tuple(str((base / s).resolve()) for s in stubs))
    if "examples" in norm:
        if not isinstance(norm["examples"], bool):
            raise ConfigError(
                f"{where}examples: expected true or false, got {type(norm['examples']).__name__} {norm['examples']!r}"
            )
        cfg = replace(cfg, examples=norm["examples"])
    check_selects_something(cfg, where.rstrip())
    return cfg


def check_selects_something(cfg: Config, where: str) -> None:
    """A selection that reports no code at all is a mistake (it would turn CI green): ConfigError."""
    from .diagnostics import CODES

    if not any(cfg.enabled(c.code) for c in CODES):
        raise ConfigError(
            f"{where}: select = {list(cfg.select)} with ignore = {list(cfg.ignore)} selects no code at all; "
            "expected at least one code to report"
        )


def with_cli(
    cfg: Config, select: str | None = None, ignore: str | None = None, extend_ignore: str | None = None
) -> Config:
    if select is not None:
        cfg = replace(cfg, select=_codes(select, "", "--select", strict=False))
    if ignore is not None:
        cfg = replace(cfg, ignore=_codes(ignore, "", "--ignore", strict=False))
    if extend_ignore is not None:
        cfg = replace(cfg, ignore=cfg.ignore + _codes(extend_ignore, "", "--extend-ignore", strict=False))
    if select is not None or ignore is not None or extend_ignore is not None:
        check_selects_something(cfg, "command line")
    return cfg
