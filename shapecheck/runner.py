"""Run the checker over many files: discovery, pre-filter, parallelism and a content-keyed cache."""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from ._version import __version__
from .config import Config
from .core import check_source, decode_source, relevant
from .diagnostics import Finding, Witness, make

if TYPE_CHECKING:
    from .analysis.project import Project

CACHE_DIR = ".shapecheck_cache"

# The analysis keeps every parsed module alive until the run ends (or Project.trim forgets it): CPython's default
# thresholds make the collector walk that whole, growing heap again and again for no garbage (a quarter of a cold run's
# CPU on nerfstudio). Young generations are still collected; Project.trim collects after forgetting modules.
_GC_THRESHOLDS = (100_000, 50, 1_000)


def collect_files(paths: Iterable[str], config: Config) -> list[Path]:
    out: list[Path] = []
    seen: set[Path] = set()
    for given in paths:
        root = Path(given)
        if root.is_file():
            candidates = [root]
        else:
            candidates = []
            for dirpath, dirnames, filenames in os.walk(root):
                d = Path(dirpath)
                dirnames[:] = sorted(n for n in dirnames if not config.is_excluded(_rel(d / n, root)))
                candidates.extend(d / f for f in sorted(filenames) if f.endswith(".py"))
        for c in candidates:
            if c in seen or (c != root and config.is_excluded(_rel(c, root))):
                continue
            _check_link(c)
            seen.add(c)
            out.append(c)
    return out


def _check_link(path: Path) -> None:
    """A symbolic link that cannot be followed is an input error (exit 2), not a finding in the file."""
    from .config import UsageError

    if not path.is_symlink():
        return
    try:
        target = path.resolve(strict=True)
    except RuntimeError:  # Python < 3.13: a loop
        raise UsageError(f"{path}: a symbolic link that loops back on itself; expected a Python file") from None
    except OSError as exc:
        import errno

        if exc.errno == errno.ELOOP:
            raise UsageError(f"{path}: a symbolic link that loops back on itself; expected a Python file") from None
        raise UsageError(f"{path}: a symbolic link to {os.readlink(path)!r}, which does not exist; expected a Python file") from None
    if not target.is_file():
        raise UsageError(f"{path}: a symbolic link to {str(target)!r}, which is not a file; expected a Python file")


def _rel(p: Path, root: Path) -> Path:
    try:
        return p.relative_to(root)
    except ValueError:
        return p


def _finding_to_cache(f: Finding) -> dict[str, Any]:
    d = f.to_json()
    d["severity_override"] = f.severity.value if f.severity is not None else None
    if f.witness is not None:
        d["witness_raw"] = {
            "sizes": list(f.witness.sizes), "op": f.witness.op, "pattern": f.witness.pattern,
            "input_shapes": [list(s) for s in f.witness.input_shapes], "axes_lengths": list(f.witness.axes_lengths),
            "extra": [list(e) for e in f.witness.extra],
        }
    return d


def _finding_from_cache(d: dict[str, Any]) -> Finding:
    from .diagnostics import Severity

    w = None
    if d.get("witness_raw"):
        r = d["witness_raw"]
        w = Witness(tuple((k, v) for k, v in r["sizes"]), r["op"], r["pattern"], tuple(tuple(s) for s in r["input_shapes"]),
                    tuple((k, v) for k, v in r["axes_lengths"]), tuple((k, v) for k, v in r["extra"]))
    sev = Severity(d["severity_override"]) if d.get("severity_override") else None
    return Finding(d["path"], d["line"], d["column"], d["end_line"], d["end_column"], d["code"], d["message"], tuple(d["notes"]), sev, w)


_FINGERPRINT: str | None = None


def _code_fingerprint() -> str:
    """The version plus the size and mtime of shapecheck's own modules and stubs: a changed checker misses the cache."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        from .analysis.stubs import bundled_stub_dir

        h = hashlib.sha256(__version__.encode())
        roots = [Path(__file__).resolve().parent]
        stubs = bundled_stub_dir()
        if stubs is not None:
            roots.append(stubs)
        for root in roots:
            for p in sorted(root.rglob("*.py*")):
                try:
                    st = p.stat()
                except OSError:
                    continue
                h.update(f"{p.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}".encode())
        _FINGERPRINT = h.hexdigest()
    return _FINGERPRINT


class Cache:
    def __init__(self, root: Path, enabled: bool = True) -> None:
        self.dir = root / CACHE_DIR
        # SHAPECHECK_NO_CACHE=1 turns the cache off for every host (the CLI also has --no-cache)
        self.enabled = enabled and not os.environ.get("SHAPECHECK_NO_CACHE")

    def key(self, data: bytes, deps: list[bytes], display: str) -> str:
        h = hashlib.sha256(_code_fingerprint().encode())
        h.update(display.encode("utf-8", "surrogateescape"))
        h.update(data)
        for d in deps:
            h.update(hashlib.sha256(d).digest())
        return h.hexdigest()

    def get(self, key: str) -> list[Finding] | None:
        if not self.enabled:
            return None
        p = self.dir / key[:2] / f"{key}.json"
        try:
            return [_finding_from_cache(d) for d in json.loads(p.read_text("utf-8"))]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, findings: list[Finding]) -> None:
        if not self.enabled:
            return
        p = self.dir / key[:2] / f"{key}.json"
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            if not (self.dir / ".gitignore").exists():
                (self.dir / ".gitignore").write_text("*\n")
            tmp = p.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps([_finding_to_cache(f) for f in findings]), "utf-8")
            os.replace(tmp, p)
        except OSError:
            pass


_WORKER_PROJECT: "Project | None" = None


def _init_worker(files: list[Path], stub_paths: tuple[str, ...]) -> None:
    """One project per worker process: imported modules are parsed once per worker, not once per file."""
    global _WORKER_PROJECT
    import gc

    from .analysis.project import Project

    gc.set_threshold(*_GC_THRESHOLDS)
    _WORKER_PROJECT = Project.for_files(files, stub_paths)


def _check_one(args: tuple[str, str]) -> list[Finding]:
    path_s, display = args
    return _analyse_path(Path(path_s), display, _WORKER_PROJECT)


def _analyse_path(path: Path, display: str, project: "Project | None") -> list[Finding]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        return [make("SHP901", display, (1, 1, 1, 1), reason=f"cannot read file ({exc.strerror or exc})")]
    # unfiltered: configuration is applied by the caller
    try:
        return check_source(data, display, Config(), project=project)
    finally:
        trim = getattr(project, "trim", None)
        if trim is not None:
            trim()


def run(files: list[Path], config: Config, jobs: int = 0, use_cache: bool = True) -> list[Finding]:
    import gc

    previous = gc.get_threshold()
    gc.set_threshold(*_GC_THRESHOLDS)
    try:
        return _run(files, config, jobs, use_cache)
    finally:
        gc.set_threshold(*previous)


def _run(files: list[Path], config: Config, jobs: int, use_cache: bool) -> list[Finding]:
    from .analysis.project import Project

    cache = Cache(Path(config.root) if config.root else Path.cwd(), enabled=use_cache)
    results: dict[int, list[Finding]] = {}
    todo: list[tuple[int, Path, str]] = []
    project = Project.for_files(files, config.stub_paths)
    keys: dict[int, str] = {}
    for i, f in enumerate(files):
        display = str(f)
        try:
            data = f.read_bytes()
        except OSError as exc:
            results[i] = [make("SHP901", display, (1, 1, 1, 1), reason=f"cannot read file ({exc.strerror or exc})")]
            continue
        if not _maybe_relevant(data, project, f):
            results[i] = []
            continue
        deps = []
        try:
            text = decode_source(data)
            name = project.add_file(f)
            for dep in project.dependencies(text, name):
                try:
                    deps.append(dep.read_bytes())
                except OSError:
                    pass
        except (UnicodeDecodeError, SyntaxError, LookupError):
            pass
        keys[i] = cache.key(data, deps, display)
        cached = cache.get(keys[i])
        if cached is not None:
            results[i] = cached
        else:
            todo.append((i, f, display))
    n_jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
    if len(todo) >= 8 and n_jobs > 1:
        with ProcessPoolExecutor(max_workers=n_jobs, initializer=_init_worker, initargs=(files, config.stub_paths)) as ex:
            outs = list(ex.map(_check_one, [(str(f), d) for _, f, d in todo], chunksize=4))
        for (i, _, _), found in zip(todo, outs):
            results[i] = found
    else:
        for i, f, d in todo:
            results[i] = _analyse_path(f, d, project)
    for i, _, _ in todo:
        cache.put(keys[i], results[i])
    from .core import _filter

    out: list[Finding] = []
    for i, f in enumerate(files):
        fs = results.get(i, [])
        if fs:
            try:
                lines = decode_source(f.read_bytes()).splitlines()
            except Exception:
                lines = []
            out.extend(_filter(fs, lines, config, str(f)))
    return out


def _maybe_relevant(data: bytes, project: object, path: Path) -> bool:
    return relevant(data.decode("latin-1"), project, str(path))
