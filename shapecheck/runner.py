"""Run the checker over many files: discovery, pre-filter, parallelism and a content-keyed cache."""

from __future__ import annotations

import hashlib
import json
import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, NamedTuple

from ._version import __version__
from .config import Config
from .core import check_source, decode_source, relevant, with_roomy_frames
from .diagnostics import Finding, Witness, make
from .diagnostics.details import Unreadable

if TYPE_CHECKING:
    from .analysis.index.project import Project

CACHE_DIR = ".shapecheck_cache"

# The analysis keeps every parsed module alive until the run ends (or Project.trim forgets it): CPython's default
# thresholds make the collector walk that whole, growing heap again and again for no garbage (a quarter of a cold run's
# CPU on nerfstudio). Even with raised thresholds the middle generation's passes walked every node of every parsed
# module once more (vit-pytorch: 5 passes, 0.56 s of a 5.7 s run), so a check run turns the automatic collector off;
# the cyclic garbage of forgotten modules is collected by Project.trim, which calls gc.collect() itself.


@contextmanager
def _collector_off() -> Iterator[None]:
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            # everything the run allocated sits in the youngest generation: enabled as is, the next allocation would
            # make the collector walk all of it (0.8 s at the end of a nerfstudio run). Moved to the oldest
            # generation instead, it is walked only by a later full collection, if the process lives that long
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def collect_files(paths: Iterable[str], config: Config) -> list[Path]:
    out: list[Path] = []
    seen: set[Path] = set()
    for given in paths:
        root = Path(given)
        if root.is_file():
            candidates = [root] if root.suffix.lower() != ".md" else []  # Markdown: documentation examples (cli)
        else:
            candidates = []
            for dirpath, dirnames, filenames in os.walk(root):
                d = Path(dirpath)
                dirnames[:] = sorted(n for n in dirnames if not config.is_excluded(_rel(d / n, root), True))
                candidates.extend(d / f for f in sorted(filenames) if f.endswith(".py"))
        for c in candidates:
            if c in seen or (c != root and config.is_excluded(_rel(c, root), True)):
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
        raise UsageError(
            f"{path}: a symbolic link to {os.readlink(path)!r}, which does not exist; expected a Python file"
        ) from None
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
    d["fields"] = f.fields_json()  # as JSON data: a finding read back carries them too (SARIF properties)
    if f.witness is not None:
        d["witness_raw"] = {
            "sizes": list(f.witness.sizes),
            "op": f.witness.op,
            "pattern": f.witness.pattern,
            "input_shapes": [list(s) for s in f.witness.input_shapes],
            "axes_lengths": list(f.witness.axes_lengths),
            "extra": [list(e) for e in f.witness.extra],
        }
    return d


def _finding_from_cache(d: dict[str, Any]) -> Finding:
    from .diagnostics import Severity

    w = None
    if d.get("witness_raw"):
        r = d["witness_raw"]
        w = Witness(
            tuple((k, v) for k, v in r["sizes"]),
            r["op"],
            r["pattern"],
            tuple(tuple(s) for s in r["input_shapes"]),
            tuple((k, v) for k, v in r["axes_lengths"]),
            tuple((k, v) for k, v in r["extra"]),
        )
    sev = Severity(d["severity_override"]) if d.get("severity_override") else None
    return Finding(
        d["path"],
        d["line"],
        d["column"],
        d["end_line"],
        d["end_column"],
        d["code"],
        d["message"],
        tuple(d["notes"]),
        sev,
        w,
        fields=tuple(d.get("fields", {}).items()),
    )


_FINGERPRINT: str | None = None


def _code_fingerprint() -> str:
    """The version plus the size and mtime of shapecheck's own modules and stubs: a changed checker misses the cache."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        from .analysis.index.stubs import bundled_stub_dir

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


_DATA_FILE = re.compile(r"""['"]([\w./-]+\.(?:ya?ml|json|toml))['"]""")


def data_files(sources: list[tuple[Path, str]]) -> list[Path]:
    """The files named by string literals of these sources (``"mit_tiny.yaml"``, ``"configs/base.json"``) that lie
    beside the source, in the order found, each once: the config files the analysis may read."""
    out: dict[Path, None] = {}
    for path, text in sources:
        for lit in _DATA_FILE.findall(text):
            if lit.startswith("/"):
                continue
            candidate = path.parent / lit
            if candidate.is_file():
                out[candidate] = None
            # (``os.path.join(HERE, "configs", "tiny.yaml")``: the name one folder down)
            for found in sorted(path.parent.glob(f"*/{Path(lit).name}")):
                if found.is_file():
                    out[found] = None
    return list(out)


def dependency_bytes(project: Any, path: Path, text: str, current: str) -> list[bytes]:
    """What a cache key of the file ``path`` (``text``, module ``current``) covers besides the file itself: the
    project files it imports, then the config files they and it may read (``open(os.path.join(HERE, "cfg.yaml"))``,
    ``data_files``): a change to any is a new key. No project: the config files only."""
    deps: list[bytes] = []
    sources = [(path, text)]
    for dep in project.dependencies(text, current) if project is not None else ():
        try:
            raw = dep.read_bytes()
        except OSError:
            continue
        deps.append(raw)
        sources.append((dep, raw.decode("utf-8", "replace")))
    for data_file in data_files(sources):
        try:
            deps.append(data_file.read_bytes())
        except OSError:
            pass
    return deps


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


class DocPart(NamedTuple):
    """A work item: the ``part``-th chain of examples of a documentation file (analysis/index/examples.py)."""

    path: Path
    part: int


Item = tuple[int, "Path | DocPart", str]  # (number, source file or documentation chain, displayed path)


def _after_their_files(todo: list[Item], doc_items: list[tuple[int, DocPart, str]]) -> list[Item]:
    """``todo`` (the Python files) with each documentation chain of ``doc_items`` placed right after the last file of
    its project (the Markdown file's ``project_root``, else its folder), or at the end when no file lies there. The
    examples import their package's modules, which its files loaded just before; run after every file of a run over
    many packages, they parsed again what ``Project.trim`` had forgotten meanwhile."""
    from .analysis.index.project import project_root

    last_under: dict[Path, int] = {}  # folder -> the index in todo of the last file under it
    for k, (_, f, _) in enumerate(todo):
        if isinstance(f, Path):
            for folder in f.resolve().parents:
                last_under[folder] = k
    last_of: dict[Path, int] = {}  # documentation file -> the index in todo it follows
    after: dict[int, list[Item]] = {}
    for doc_item in doc_items:
        doc = doc_item[1].path
        if doc not in last_of:
            home = project_root(doc) or doc.resolve().parent
            last_of[doc] = last_under.get(home, len(todo) - 1)
        after.setdefault(last_of[doc], []).append(doc_item)
    out = list(after.get(-1, []))  # no Python file to run at all
    for k, t in enumerate(todo):
        out.append(t)
        out.extend(after.get(k, []))
    return out


def _segments(todo: list[Item], n: int) -> list[tuple[int, int]]:
    """``todo`` (in directory order) cut into ``n`` runs of about the same size of source: (start, end) indices."""
    sizes = []
    for _, f, _ in todo:
        try:
            sizes.append(f.stat().st_size + 1 if isinstance(f, Path) else 1)
        except OSError:
            sizes.append(1)
    total, acc, cuts = sum(sizes), 0, [0]
    for j, size in enumerate(sizes):
        while len(cuts) < n and acc >= total * len(cuts) / n:
            cuts.append(j)
        acc += size
    cuts += [len(todo)] * (n + 1 - len(cuts))
    return [(cuts[k], cuts[k + 1]) for k in range(n)]


def _work(todo: list[Item], w: int, bounds: Any, project: Any) -> dict[int, list[Finding]]:
    """Worker ``w``'s share of a parallel run: files one at a time from one end of its segment of ``todo`` (even
    workers from the front, odd ones from the back: two workers share a segment and meet in it), then from the other
    segments. Neighbouring files import each other and a module is parsed once per process that needs it, so each
    worker keeps to a run of neighbours (issue 11: with files dealt out in chunks of 4, two workers parsed 57% more
    lines than one process) while the work stays balanced."""
    n_seg = len(bounds) // 2
    seg, front = w // 2, w % 2 == 0
    lo, hi = bounds[2 * seg], bounds[2 * seg + 1]
    mid = (lo + hi) // 2
    mine = todo[lo:mid] if front else todo[mid:hi]  # what this worker expects to check: parsed whole when imported
    project.checking = {project.add_file(f) for _, f, _ in mine if isinstance(f, Path)}
    project.mask_imports = True
    out: dict[int, list[Finding]] = {}
    for s in [seg] + [k for k in range(n_seg) if k != seg]:
        while True:
            with bounds.get_lock():
                lo, hi = bounds[2 * s], bounds[2 * s + 1]
                if lo >= hi:
                    break
                if front or s != seg:
                    j, bounds[2 * s] = lo, lo + 1
                else:
                    j, bounds[2 * s + 1] = hi - 1, hi - 1
            i, f, d = todo[j]
            loaded = project.modules.get(project.add_file(f)) if isinstance(f, Path) else None
            if loaded is not None and (loaded.masked or loaded.other_trees):
                # taken from another worker's share after it was imported with bodies blanked: forgotten (as
                # Project.trim forgets modules) so that it is parsed whole, once, for its own analysis
                project.modules.pop(loaded.module_name, None)
            out[i] = _analyse_path(f, d, project)
    return out


def _worker(
    todo: list[Item],
    w: int,
    bounds: Any,
    files: list[Path],
    stub_paths: tuple[str, ...],
    conn: Any,
    project: Any = None,
) -> None:
    from .analysis.index.project import Project

    try:
        conn.send(_work(todo, w, bounds, project if project is not None else Project.for_files(files, stub_paths)))
    finally:
        conn.close()


def _shares(todo: list[Item], n: int, segments: list[tuple[int, int]]) -> list[list[Item]]:
    """What each of ``n`` workers starts with (see ``_work``): the front or back half of its segment."""
    out = []
    for w in range(n):
        lo, hi = segments[w // 2]
        mid = (lo + hi) // 2
        out.append(todo[lo:mid] if w % 2 == 0 else todo[mid:hi])
    return out


def _preload(shares: list[list[Item]], project: Any) -> None:
    """Load, before the workers fork, the modules that files of more than one worker's share import (or check): each
    worker would otherwise parse and run them again (issue 11: with ``-j 2`` each worker parsed about as many lines
    as a ``-j 1`` run). They are loaded whole, as the worker that checks one of them needs it; the children inherit
    them. The rest (a module only one share imports) is loaded by its worker, in parallel."""
    from .core import decode_source

    deps: dict[str, list[str]] = {}

    def imported(name: str) -> list[str]:
        if name not in deps:
            deps[name] = []
            path = project.paths.get(name)
            if path is not None:
                try:
                    deps[name] = project.dependency_names(decode_source(path.read_bytes()), name)
                except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
                    pass
        return deps[name]

    users: dict[str, set[int]] = {}
    order: list[str] = []
    for w, share in enumerate(shares):
        todo = [project.add_file(f) for _, f, _ in share if isinstance(f, Path)]
        seen: set[str] = set()
        while todo:  # the share's files and what they import, transitively
            m = todo.pop(0)
            if not m or m in seen:
                continue
            seen.add(m)
            if m not in users:
                users[m] = set()
                order.append(m)
            users[m].add(w)
            todo.extend(imported(m))
    for m in order:
        if len(users[m]) > 1:
            project.module(m)


def _freeze(project: Any) -> None:
    """Before the fork: what this process holds (the preloaded modules, the imported code) moves out of the
    collector's reach for the rest of the run (``gc.freeze``, as CPython's documentation advises before a fork). The
    workers share these pages with the parent; a collection walking them wrote into every object's header, so each
    worker's pages were copied, and ``Project.trim``'s one collection in a whole-corpus run walked 2.8 M objects of
    which a fifth were garbage (mostly preloaded modules it had forgotten). A frozen module that trim forgets stays
    in memory, as it does in the parent's pages of every worker, and no longer counts towards a collection."""
    import gc

    project.frozen.update(id(ma) for ma in project.modules.values())
    gc.freeze()


def _run_parallel(todo: list[Item], n: int, files: list[Path], project: Any) -> dict[int, list[Finding]]:
    """``todo`` over ``n`` workers (see ``_work``): this process and ``n - 1`` children. Files of a child that died are
    left out (the caller analyses them)."""
    import multiprocessing

    from .analysis.report import checker  # noqa: F401  (children forked below inherit the parser and the analyser)

    ctx = multiprocessing.get_context()
    segments = _segments(todo, (n + 1) // 2)
    bounds = ctx.Array("i", [x for seg in segments for x in seg])
    forked = ctx.get_start_method() == "fork"
    if forked:
        _preload(_shares(todo, n, segments), project)
        _freeze(project)
    running = []
    for w in range(1, n):
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(
            target=_worker,
            args=(todo, w, bounds, files, project.stub_paths, send, project if forked else None),
            daemon=True,
        )
        proc.start()
        send.close()
        running.append((proc, recv))
    results = _work(todo, 0, bounds, project)
    for proc, recv in running:
        try:
            results.update(recv.recv())
        except (EOFError, OSError):
            pass
        finally:
            recv.close()
            proc.join()
    return results


def _analyse_path(path: "Path | DocPart", display: str, project: "Project | None") -> list[Finding]:
    """Findings of one work item, a source file or a documentation file (unfiltered: the caller applies the
    configuration; its pre-filter passed the file already); the project forgets modules after each."""
    try:
        if isinstance(path, DocPart):
            if project is None:
                return []
            from .analysis.index.examples import check_doc

            return check_doc(path.path, display, project, path.part)
        try:
            data = path.read_bytes()
        except OSError as exc:
            return [make("SHP901", display, (1, 1, 1, 1), detail=Unreadable(str(exc.strerror or exc)))]
        return check_source(data, display, Config(), project=project, prefilter=False)
    finally:
        trim = getattr(project, "trim", None)
        if trim is not None:
            trim()


def run(
    files: list[Path],
    config: Config,
    jobs: int = 0,
    use_cache: bool = True,
    docs: list[Path] | None = None,
    roots: list[Path] | None = None,
) -> list[Finding]:
    """Findings of ``files``, then of the examples in the documentation files ``docs`` (analysis/index/examples.py).
    Each group of ``_groups`` is analysed as a run of its own. ``roots``: folders imports are also found in, after
    the files' own (the folders named on the command line)."""
    return with_roomy_frames(_run_groups, files, config, jobs, use_cache, docs or [], roots or [])


def _run_groups(
    files: list[Path], config: Config, jobs: int, use_cache: bool, docs: list[Path], roots: list[Path]
) -> list[Finding]:
    with _collector_off():
        groups = _groups(files, docs)
        if len(groups) == 1:
            return _run(files, config, jobs, use_cache, docs, roots)
        from .analysis.index import project as project_module
        from .analysis.index.project import files_import_roots

        # a group's imports resolve from its own folders first, then from every folder of the run (a module no
        # other group names again is found wherever it lies, as in one run of all files)
        everywhere = files_import_roots(files)
        everywhere.extend(r for r in roots if r not in everywhere)
        found: dict[str, list[Finding]] = {}
        project_module.RUN_LOOKUPS = {}  # (what the groups' projects find on disk, each root looked in once)
        try:
            for group_files, group_docs in groups:
                for f in _run(group_files, config, jobs, use_cache, group_docs, everywhere):
                    found.setdefault(f.path, []).append(f)
        finally:
            project_module.RUN_LOOKUPS = None
        out: list[Finding] = []
        for p in [*files, *docs]:
            out.extend(found.pop(str(p), []))
        for rest in found.values():
            out.extend(rest)
        return out


def _groups(files: list[Path], docs: list[Path]) -> list[tuple[list[Path], list[Path]]]:
    """The named files in groups whose modules have distinct names, each analysed as a run of its own (its own
    project: the modules it imports are found from its own files' folders). Module names come from the folders
    (``module_name_for``): two copies of a project, or several small projects without a pyproject.toml / .git, each
    with its own ``model.py``, checked in one run, would otherwise share whichever ``model`` was found first. A folder
    whose Python files name one module twice, a module that some file imports, is split into its subfolders
    (recursively) and the files directly in it; a folder without such a clash stays one group (the usual run: one
    project, or packages of distinct names; two ``tests/conftest.py`` that nothing imports by name do not split)."""
    from .analysis.index.project import module_name_for
    from .analysis.index.resolve import imported_modules, scan_records

    names: dict[Path, tuple[str, bool]] = {}
    by_name: dict[str, Path] = {}
    clash = False
    for f in files:
        try:
            names[f] = module_name_for(f)
        except (OSError, ValueError, RuntimeError):
            names[f] = ("", False)
        other = by_name.setdefault(names[f][0], f) if names[f][0] else f
        clash = clash or (other != f and other.resolve() != f.resolve())
    if not clash:  # the usual run: no file is read here
        return [(files, docs)]
    wanted: set[str] = set()  # the modules some file imports, and their packages: only their clashes matter
    for f in files:
        name, is_package = names[f]
        try:
            for record in scan_records(decode_source(f.read_bytes())):
                for target in imported_modules(record, name, is_package):
                    parts = target.split(".")
                    wanted.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
        except (OSError, ValueError, RuntimeError, SyntaxError, LookupError):
            pass

    def clashes(items: list[Path]) -> bool:
        seen: dict[str, Path] = {}
        for f in items:
            name = names.get(f, ("", False))[0]
            if name in wanted:
                other = seen.setdefault(name, f)
                if other != f and other.resolve() != f.resolve():
                    return True
        return False

    out: list[list[Path]] = []

    def split(items: list[Path], depth: int) -> None:
        if not clashes(items):
            out.append(items)
            return
        here: list[Path] = []
        below: dict[str, list[Path]] = {}
        for p in items:
            parts = p.resolve().parts
            if len(parts) - 1 > depth:
                below.setdefault(parts[depth], []).append(p)
            else:
                here.append(p)
        if here:
            out.append(here)
        for sub in below.values():
            split(sub, depth + 1)

    everything = [*files, *docs]
    if not everything:
        return [(files, docs)]
    common = os.path.commonpath([str(p.resolve().parent) for p in everything])
    split(everything, len(Path(common).parts))
    doc_set = set(docs)
    return [([p for p in g if p not in doc_set], [p for p in g if p in doc_set]) for g in out]


def _run(
    files: list[Path],
    config: Config,
    jobs: int,
    use_cache: bool,
    docs: list[Path],
    fallback_roots: "list[Path] | None" = None,
) -> list[Finding]:
    from .analysis.index.project import Project

    cache = Cache(Path(config.root) if config.root else Path.cwd(), enabled=use_cache)
    results: dict[int, list[Finding]] = {}
    todo: list[Item] = []
    project = Project.for_files(files, config.stub_paths, fallback_roots)
    keys: dict[int, str] = {}
    for i, f in enumerate(files):
        display = str(f)
        try:
            data = f.read_bytes()
        except OSError as exc:
            results[i] = [make("SHP901", display, (1, 1, 1, 1), detail=Unreadable(str(exc.strerror or exc)))]
            continue
        if not _maybe_relevant(data, project, f):
            results[i] = []
            continue
        if not cache.enabled:  # no key to compute: the imported files are read only if the analysis needs them
            todo.append((i, f, display))
            continue
        deps: list[bytes] = []
        try:
            text = decode_source(data)
            deps = dependency_bytes(project, f, text, project.add_file(f))
        except (UnicodeDecodeError, SyntaxError, LookupError):
            pass
        keys[i] = cache.key(data, deps, display)
        cached = cache.get(keys[i])
        if cached is not None:
            results[i] = cached
        else:
            todo.append((i, f, display))
    docs_at: dict[int, Path] = {}  # documentation files, numbered after the Python files
    chains: dict[int, int] = {}  # work item -> its documentation file's number: one item per chain of examples
    if docs:
        from .analysis.index.examples import doc_jobs

        doc_items: list[tuple[int, DocPart, str]] = []
        item = len(files) + len(docs)
        for i, (doc, key, n_chains) in enumerate(doc_jobs(docs, project, cache), start=len(files)):
            docs_at[i] = doc
            cached = cache.get(key) if key else None
            if cached is not None:
                results[i] = cached
                continue
            if key:
                keys[i] = key
            results[i] = []
            for k in range(n_chains):
                chains[item] = i
                doc_items.append((item, DocPart(doc, k), str(doc)))
                item += 1
        todo = _after_their_files(todo, doc_items)
    n_jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
    left = todo
    if len(todo) >= 8 and n_jobs > 1:
        results.update(_run_parallel(todo, n_jobs, files, project))
        left = [t for t in todo if t[0] not in results]
    project.checking = {project.add_file(f) for _, f, _ in left if isinstance(f, Path)}
    project.mask_imports = True
    for i, w, d in left:
        results[i] = _analyse_path(w, d, project)
    for item, i in chains.items():  # a documentation file's findings: its chains', in order
        results[i].extend(results.pop(item, []))
    for i in dict.fromkeys(chains.get(i, i) for i, _, _ in todo):
        if i in keys:
            cache.put(keys[i], results[i])
    from .core import _filter

    out: list[Finding] = []
    for i, f in [*enumerate(files), *docs_at.items()]:  # the Python files, then the documentation files
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
