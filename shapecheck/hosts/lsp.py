"""Language server (``shapecheck lsp``, stdio): diagnostics on unsaved text, shape hovers and inlay hints,
autofix quick fixes.

Positions: shapecheck counts 1-based lines and code points; LSP counts 0-based lines and, unless the client
negotiated otherwise, UTF-16 code units. pygls's position codec converts with the document's own lines.

Scheduling: notifications only record what changed. After a short pause (``DEBOUNCE``) one worker thread analyses
the newest version of each changed document, then the open documents that import a changed file (with the
unsaved text of every open buffer). A run whose document has a newer version is abandoned between functions,
and results are published only for the version they were computed from, so diagnostics never go back in time.
Hovers and inlay hints answer from an index built after each analysis, never by analysing.
"""

from __future__ import annotations

import asyncio
import functools
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from .._version import __version__
from ..diagnostics import Edit, Finding, Severity
from ..diagnostics.finding import note_places

try:
    from lsprotocol import types as T
    from pygls.lsp.server import LanguageServer
    from pygls.uris import to_fs_path
except ImportError:  # the [lsp] extra is not installed: ``serve`` says so
    HAVE_PYGLS = False
else:
    HAVE_PYGLS = True

if TYPE_CHECKING:
    from ..analysis.editor.hover import HoverIndex
    from ..analysis.editor.incremental import Document

MISSING_EXTRA = (
    "shapecheck lsp needs the [lsp] extra (pygls, lsprotocol), which is not installed. Install it from a local "
    "checkout:\n"
    '    pip install "/path/to/shapecheck[lsp]"\n'
    "or from git:\n"
    '    pip install "shapecheck-tensors[lsp] @ git+<URL of the shapecheck repository>"\n'
    "(shapecheck-tensors is not published on PyPI: `pip install shapecheck-tensors[lsp]` fails.)"
)

DEBOUNCE = 0.05  # seconds of quiet after an edit before analysing
IDLE_GC = 1.0  # seconds of quiet before the full garbage collection (never in the middle of an analysis)
GC_GROWTH_MB = 150  # while edits never pause: a full collection once the process grew this much since the last
GC_EVERY = 500  # runs, where the process size cannot be read
SETTINGS_KEY = "shapecheck"


def _path(uri: str) -> str:
    return to_fs_path(uri) or uri


def to_range(lines: Sequence[str], codec: Any, line: int, col: int, end_line: int, end_col: int) -> T.Range:
    """1-based code-point span -> LSP range in the client's units."""
    rng = T.Range(T.Position(max(line - 1, 0), max(col - 1, 0)), T.Position(max(end_line - 1, 0), max(end_col - 1, 0)))
    converted: T.Range = codec.range_to_client_units(list(lines), rng)  # pygls position codec (untyped here)
    return converted


def related_information(f: Finding) -> list[T.DiagnosticRelatedInformation] | None:
    """The places a finding's notes name (where a called function raised, where operands and layers were made), as
    locations the editor links to: a failure reported at a test's call leads to the line inside the model."""
    out = []
    for text, path, line in note_places(f):
        p = Path(path) if Path(path).is_absolute() else Path.cwd() / path
        start = T.Position(max(line - 1, 0), 0)
        out.append(T.DiagnosticRelatedInformation(T.Location(p.resolve().as_uri(), T.Range(start, start)), text))
    return out or None


def to_diagnostic(lines: Sequence[str], codec: Any, f: Finding) -> T.Diagnostic:
    error = f.effective_severity is Severity.ERROR
    return T.Diagnostic(
        range=to_range(lines, codec, f.line, f.column, f.end_line, f.end_column),
        message="\n".join([f.message, *f.notes]),
        severity=T.DiagnosticSeverity.Error if error else T.DiagnosticSeverity.Warning,
        code=f.code,
        source="shapecheck",
        related_information=related_information(f),
    )


def to_code_actions(
    uri: str, lines: Sequence[str], codec: Any, findings: Sequence[Finding], want: T.Range
) -> list[T.CodeAction]:
    actions = []
    for f in findings:
        if not f.fix:
            continue
        diag = to_diagnostic(lines, codec, f)
        if diag.range.end.line < want.start.line or diag.range.start.line > want.end.line:
            continue
        edits = [T.TextEdit(to_range(lines, codec, e.line, e.column, e.end_line, e.end_column), e.text) for e in f.fix]
        actions.append(
            T.CodeAction(
                title=f"Fix {f.code}: {_describe(f.fix)}",
                kind=T.CodeActionKind.QuickFix,
                diagnostics=[diag],
                edit=T.WorkspaceEdit(changes={uri: edits}),
                is_preferred=True,
            )
        )
    return actions


def _describe(edits: Sequence[Edit]) -> str:
    inserted = [e.text for e in edits if e.text]
    return "insert " + " and ".join(repr(t) for t in inserted) if inserted else "apply shapecheck fix"


# ---------------------------------------------------------------------------------------------- analysis side
@dataclass
class Analysed:
    """One document version's analysis: what diagnostics, hovers, hints and quick fixes are answered from."""

    uri: str
    version: int | None
    text: str
    findings: list[Finding]
    index: "HoverIndex | None" = None
    lines: list[str] = field(default_factory=list)
    incremental: Any = None  # the incremental.Result the index is built from (after publishing: not on the clock)
    indexing: bool = False  # an index is being built for this version


def _overlay_project_class() -> Any:
    from ..analysis.index.project import Bindings, Project

    class OverlayProject(Project):
        """A ``Project.for_file`` whose modules come from the editor's unsaved buffers where one is open."""

        buffers: dict[str, str]
        documents: dict[str, "Document"]

        def module(self, name: str) -> Any:
            if name in self.modules or name in self._loading:
                return super().module(name)
            path = self.paths.get(name)
            text = self.buffers.get(_key(path)) if path is not None else None
            if path is None or text is None:
                return super().module(name)
            from ..analysis.interpret.module import ModuleAnalysis

            self._loading.add(name)
            try:
                doc = self.documents.get(_key(path))
                parsed = doc.parse(text) if doc is not None else None
                if parsed is None:
                    import libcst as cst

                    try:
                        tree = cst.parse_module(text)
                    except Exception:
                        return None
                else:
                    tree = parsed[0]
                ma = ModuleAnalysis(text, str(path), tree, self, name, name in self.packages)
                if parsed is not None:
                    import collections

                    ma._positions = collections.ChainMap(*(c.positions(off) for off, c in parsed[1]))  # type: ignore[assignment]
                self.modules[name] = ma
                ma.run_module()
                return ma
            finally:
                self._loading.discard(name)

        def _bindings(self, module: str) -> Bindings:
            path = self.paths.get(module)
            if module not in self.modules and path is not None and _key(path) in self.buffers:
                self.module(module)  # re-exports read from the unsaved text, not from the disk
            return super()._bindings(module)

        def _relevance_key(self, dep: Path) -> str:
            return _key(dep)

        def _dependency_text(self, key: str, dep: Path) -> str:
            """Imported modules are read from their unsaved buffers when open."""
            text = self.buffers.get(key)
            return text if text is not None else super()._dependency_text(key, dep)

        def imported_files(self, name: str, ma: Any) -> list[str]:
            """Resolved paths of the files a loaded module imports (cached while its text is the same)."""
            cache: dict[str, tuple[str, list[str]]] = self.__dict__.setdefault("_imported", {})
            hit = cache.get(name)
            if hit is None or hit[0] is not ma.text:
                hit = (ma.text, [_key(p) for p in self.dependencies(ma.text, name)])
                cache[name] = hit
            return hit[1]

        def forget(self, changed: set[str]) -> None:
            """Drop the modules of changed files and every loaded module that imports one, transitively."""
            if not changed:
                return
            files = {n: _key(ma.path) for n, ma in self.modules.items()}
            gone = {f for f in files.values() if f in changed} | changed
            dropped = {n for n, f in files.items() if f in gone}
            while True:
                more = {
                    n
                    for n, ma in self.modules.items()
                    if n not in dropped and any(f in gone for f in self.imported_files(n, ma))
                }
                if not more:
                    break
                dropped |= more
                gone |= {files[n] for n in more}
            for n in dropped:
                self.modules.pop(n, None)
            self._binding_cache.clear()
            self._star_cache.clear()
            self._relevance.clear()

    return OverlayProject


@functools.lru_cache(maxsize=8192)
def _key(path: Any) -> str:
    """A file's resolved path: the one name buffers, disk files and loaded modules are matched by."""
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError):
        return str(path)


class Analyser:
    """The worker thread's state: incremental documents, projects (one per package roots), results."""

    def __init__(self) -> None:
        self.documents: dict[str, "Document"] = {}  # resolved path -> incremental state
        self.projects: dict[tuple[str, ...], Any] = {}
        self.buffers: dict[str, str] = {}  # resolved path -> unsaved text of every open buffer
        self.disk: dict[str, tuple[float, str]] = {}
        self.deps: dict[str, tuple[str, list[str]]] = {}  # path -> (its text, the files it imports)

    def project_for(self, path: str) -> Any:
        from ..analysis.index.project import Project

        roots = tuple(str(r) for r in Project.roots_for(path))
        if roots not in self.projects:
            project = _overlay_project_class().for_file(path)
            project.buffers = self.buffers
            project.documents = self.documents
            self.projects[roots] = project
        return self.projects[roots]

    def changed(self, paths: set[str]) -> None:
        for project in self.projects.values():
            project.forget(paths)

    def _text(self, path: str) -> str | None:
        if path in self.buffers:
            return self.buffers[path]
        try:
            p = Path(path)
            mtime = p.stat().st_mtime
            if path not in self.disk or self.disk[path][0] != mtime:
                from ..core import decode_source

                self.disk[path] = (mtime, decode_source(p.read_bytes()))
            return self.disk[path][1]
        except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
            return None

    def imports(self, path: str, limit: int = 200) -> set[str]:
        """Files of the project ``path`` imports, transitively (read with a regex, from buffers or the disk)."""
        from ..analysis.index.project import module_name_for

        project = self.project_for(path)
        seen: set[str] = set()
        todo = [path]
        while todo and len(seen) < limit:
            current = todo.pop()
            text = self._text(current)
            if text is None:
                continue
            hit = self.deps.get(current)
            if hit is None or hit[0] is not text:
                p = Path(current)
                name = module_name_for(p)[0] if p.suffix == ".py" and p.exists() else ""
                hit = (text, [_key(dep) for dep in project.dependencies(text, name)])
                self.deps[current] = hit
            for k in hit[1]:
                if k not in seen:
                    seen.add(k)
                    todo.append(k)
        return seen

    def analyse(
        self, uri: str, version: int | None, text: str, epoch: Any, stale: "Callable[[], bool] | None" = None
    ) -> Analysed:
        """Findings and hover index of one version (raises ``Cancelled`` when a newer version arrives)."""
        from ..analysis.editor.incremental import Cancelled, Document
        from ..config import Config, load_config
        from ..core import _filter, check_source, relevant

        path = _path(uri)
        key = _key(path)
        try:
            config = load_config(Path(path))
        except Exception:
            config = Config()
        project = self.project_for(path)
        doc = self.documents.setdefault(key, Document())

        incremental = None
        try:
            result = doc.analyse(text, path, project, epoch, stale)
        except Cancelled:
            raise
        except Exception:  # a bug of ours, or a deep recursion: the batch path reports it as SHP90x
            result = None
        if result is None:
            findings = check_source(text, path, config, project=project)
        else:
            findings = _filter(result.findings, text.splitlines(), config, path)
            if not relevant(text, project, path):
                # as every host reports: a file that uses none of our libraries is not checked. It is analysed all
                # the same, for hovers and hints (plain PyTorch modules have shapes too)
                findings = []
            incremental = result
        return Analysed(uri, version, text, findings, incremental=incremental, indexing=incremental is not None)


# ---------------------------------------------------------------------------------------------- server side
class Session:
    """Event-loop side: what is open, what changed, what was published."""

    def __init__(self, ls: Any) -> None:
        self.ls = ls
        self.analyser = Analyser()
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="shapecheck-analysis")
        self.latest: dict[str, int | None] = {}  # uri -> newest version received
        self.generation = 0  # bumped by every change of any file (read by the worker: a run on older text stops)
        self.results: dict[str, Analysed] = {}  # uri -> newest published analysis (quick fixes use it)
        self.indexed: dict[str, Analysed] = {}  # uri -> newest analysis with its hover index (hovers, hints)
        self.published: dict[str, int | None] = {}  # uri -> version of the diagnostics last published
        self.dirty: dict[str, None] = {}  # uris whose newest version is not analysed yet (ordered)
        self.changed_paths: set[str] = set()  # files changed since the last run (dependents are re-analysed)
        self.changes: dict[str, int] = {}  # path -> how often its text changed (buffer edits, closes, disk events)
        self.timer: asyncio.TimerHandle | None = None
        self.gc_timer: asyncio.TimerHandle | None = None
        self.runs_since_gc = 0
        self.rss_after_gc: float | None = None
        self.running = False
        self.inlay_hints = True
        self.lock = threading.Lock()
        self.line_map: tuple[Any, dict[int, int]] = (None, {})

    # ------------------------------------------------------------------ notifications
    def touched(self, uri: str, version: int | None, content_changed: bool = True) -> None:
        self.generation += 1
        self.latest[uri] = version
        self.dirty[uri] = None
        path = _key(_path(uri))
        with self.lock:
            self.changed_paths.add(path)
        if content_changed:
            self.changes[path] = self.changes.get(path, 0) + 1
        self._arm()

    def closed(self, uri: str) -> None:
        self.generation += 1
        self.latest.pop(uri, None)
        self.dirty.pop(uri, None)
        self.results.pop(uri, None)
        self.indexed.pop(uri, None)
        self.published.pop(uri, None)
        path = _key(_path(uri))
        with self.lock:
            self.changed_paths.add(path)  # the disk's text replaces the buffer's for the files importing it
        self.changes[path] = self.changes.get(path, 0) + 1
        self._arm()

    def disk_changed(self, uris: Sequence[str]) -> None:
        self.generation += 1
        paths = {_key(_path(u)) for u in uris}
        with self.lock:
            self.changed_paths.update(paths)
        for path in paths:
            self.changes[path] = self.changes.get(path, 0) + 1
        self._arm()

    def _arm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.gc_timer is not None:
            self.gc_timer.cancel()
            self.gc_timer = None
        self.timer = asyncio.get_running_loop().call_later(DEBOUNCE, self._kick)

    def _collect(self, idle: bool = False) -> None:
        """A full garbage collection on the worker thread, between runs. An analysis leaves cycles (a module's
        analysis and its functions point at each other) among a large heap of syntax trees: the interpreter's own
        full collections would land in the middle of a run, at a cost of the order of a whole run.

        When edits pause (``idle``) everything is collected and what survives is frozen (``gc.freeze``): the
        collections forced while edits keep coming then walk only what was made since, a fraction of the heap.
        The next pause unfreezes and collects all again, so nothing frozen stays uncollected for long."""
        import gc

        self.gc_timer = None
        self.runs_since_gc = 0
        if not self.running:

            def collect() -> None:
                if idle:
                    gc.unfreeze()
                gc.collect()
                if idle:
                    gc.freeze()
                self.rss_after_gc = _rss_mb()

            self.executor.submit(collect)

    def _kick(self) -> None:
        self.timer = None
        if self.running:
            return  # picked up when the current run ends
        if not self.dirty and not self.changed_paths:
            return
        docs = {d.uri: d for d in self.ls.workspace.text_documents.values()}
        jobs = [(u, docs[u].version, docs[u].source) for u in self.dirty if u in docs]
        self.dirty = {}
        buffers = {_key(_path(u)): d.source for u, d in docs.items()}
        others = [(u, d.version, d.source) for u, d in docs.items()]
        counts = dict(self.changes)
        with self.lock:
            changed, self.changed_paths = self.changed_paths, set()
        self.running = True
        loop = asyncio.get_running_loop()
        fut = self.executor.submit(self._run, loop, jobs, others, buffers, counts, changed, self.generation)
        fut.add_done_callback(lambda f: _call_soon(loop, self._finished, f))

    def _finished(self, fut: Future[None]) -> None:
        self.running = False
        exc = fut.exception()
        if exc is not None:
            self.ls.window_log_message(T.LogMessageParams(T.MessageType.Error, f"shapecheck: {exc!r}"))
        self.runs_since_gc += 1
        size = _rss_mb()
        if self.rss_after_gc is None:
            self.rss_after_gc = size
        if self.runs_since_gc >= GC_EVERY or (
            size is not None and self.rss_after_gc is not None and size > self.rss_after_gc + GC_GROWTH_MB
        ):
            self._collect()
        elif self.timer is None and self.gc_timer is None:
            self.gc_timer = asyncio.get_running_loop().call_later(IDLE_GC, self._collect, True)
        if (self.dirty or self.changed_paths) and self.timer is None:
            self._kick()

    # ------------------------------------------------------------------ worker thread
    def _run(
        self,
        loop: asyncio.AbstractEventLoop,
        jobs: list[tuple[str, int | None, str]],
        others: list[tuple[str, int | None, str]],
        buffers: dict[str, str],
        counts: dict[str, int],
        changed: set[str],
        generation: int,
    ) -> None:
        from ..analysis.editor.incremental import Cancelled

        a = self.analyser
        a.buffers.clear()
        a.buffers.update(buffers)
        for k in list(a.documents):
            if k not in buffers:
                del a.documents[k]  # closed: its caches go
        a.changed(changed)
        todo = list(jobs)
        queued = {u for u, _, _ in jobs}
        if changed:  # open documents importing a changed file see its new text
            for u, v, text in others:
                if u not in queued and changed & a.imports(_key(_path(u))):
                    todo.append((u, v, text))
                    queued.add(u)
        for i, (uri, version, text) in enumerate(todo):
            # the document's function results stay valid while no file it imports changed
            own = _key(_path(uri))
            epoch = tuple(sorted((p, counts[p]) for p in a.imports(own) if p in counts and p != own))
            try:
                if self.generation != generation:
                    raise Cancelled()
                result = a.analyse(uri, version, text, epoch, lambda: self._stale(generation))
            except Cancelled:
                # a file changed since this run's snapshot of the buffers: what is left is redone from the newer one
                _call_soon(loop, self._requeue, [u for u, _, _ in todo[i:]], changed)
                return
            if not _call_soon(loop, self._publish, result):
                return
            if result.incremental is not None:
                from ..analysis.editor.hover import index_of

                try:
                    index: HoverIndex | None = index_of(result.incremental)
                except Exception:
                    index = None
                result.incremental = None
                _call_soon(loop, self._indexed, result, index)

    def _stale(self, generation: int) -> bool:
        """Polled by the worker before each function it analyses: has any file changed since the run began?"""
        return self.generation != generation

    def _requeue(self, uris: list[str], changed: set[str]) -> None:
        for u in uris:
            if u in self.latest:  # still open
                self.dirty[u] = None
        with self.lock:
            self.changed_paths |= changed

    # ------------------------------------------------------------------ results
    def _publish(self, result: Analysed) -> None:
        uri = result.uri
        if uri not in self.latest or self.latest[uri] != result.version:
            return  # closed, or superseded: a newer version's diagnostics follow
        try:
            doc = self.ls.workspace.get_text_document(uri)
        except Exception:
            return
        if doc.source != result.text:
            return
        self.results[uri] = result
        result.lines = list(doc.lines)
        diags = [to_diagnostic(result.lines, doc.position_codec, f) for f in result.findings]
        self.published[uri] = result.version
        self.ls.text_document_publish_diagnostics(
            T.PublishDiagnosticsParams(uri=uri, diagnostics=diags, version=result.version)
        )

    def _indexed(self, result: Analysed, index: "HoverIndex | None") -> None:
        result.indexing = False
        if (
            index is not None and self.results.get(result.uri) is result
        ):  # still the newest analysis of an open document
            result.index = index
            self.indexed[result.uri] = result

    async def current_indexed(self, uri: str, wait: float = 2.0) -> tuple[Analysed, Any, dict[int, int] | None] | None:
        """``current``, once the index of the published version is built (it is built right after publishing)."""
        for _ in range(int(wait / 0.005)):
            published = self.results.get(uri)
            if published is None or not published.indexing:
                break
            await asyncio.sleep(0.005)
        return self.current(uri)

    def current(self, uri: str) -> tuple[Analysed, Any, dict[int, int] | None] | None:
        """(newest analysis, the document, analysed line -> current line map; None: identical text)."""
        result = self.indexed.get(uri)
        if result is None or result.index is None:
            return None
        try:
            doc = self.ls.workspace.get_text_document(uri)
        except Exception:
            return None
        if doc.source == result.text:
            return result, doc, None
        if self.line_map[0] != (id(result), doc.version):
            self.line_map = ((id(result), doc.version), _line_map(result.text, doc.source))
        return result, doc, self.line_map[1]


def _rss_mb() -> float | None:
    """Resident size of this process in MB (Linux; None elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4096 / 1e6
    except (OSError, ValueError, IndexError):
        return None


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Any, *args: Any) -> bool:
    """Hand a result to the event loop (False once the server has shut down)."""
    try:
        loop.call_soon_threadsafe(fn, *args)
    except RuntimeError:  # the loop is closed
        return False
    return True


def _line_map(old: str, new: str) -> dict[int, int]:
    """0-based lines of ``old`` that are unchanged in ``new`` -> their line there (edits arrive while analysing):
    the lines before the first difference and after the last one (an edit is one place in the text)."""
    a, b = old.splitlines(), new.splitlines()
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    out = {i: i for i in range(head)}
    out.update({len(a) - 1 - i: len(b) - 1 - i for i in range(tail)})
    return out


def _setting(options: Any, name: str) -> Any:
    """``{"inlayHints": false}`` or ``{"shapecheck": {"inlayHints": false}}``."""
    if not isinstance(options, dict):
        return None
    if isinstance(options.get(SETTINGS_KEY), dict) and name in options[SETTINGS_KEY]:
        return options[SETTINGS_KEY][name]
    return options.get(name)


def create_server() -> Any:
    server = LanguageServer("shapecheck", __version__)
    session: Session | None = None

    def get(ls: Any) -> Session:
        nonlocal session
        if session is None:
            session = Session(ls)
        return session

    def configure(ls: Any, options: Any) -> bool:
        value = _setting(options, "inlayHints")
        s = get(ls)
        if isinstance(value, bool) and value != s.inlay_hints:
            s.inlay_hints = value
            return True
        return False

    @server.feature(T.INITIALIZE)
    def initialize(ls: Any, params: T.InitializeParams) -> None:
        configure(ls, params.initialization_options)

    @server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: Any, params: T.DidChangeConfigurationParams) -> None:
        if configure(ls, params.settings):
            caps = ls.client_capabilities.workspace
            if caps is not None and caps.inlay_hint is not None and caps.inlay_hint.refresh_support:
                ls.workspace_inlay_hint_refresh(None)

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: Any, params: T.DidOpenTextDocumentParams) -> None:
        get(ls).touched(params.text_document.uri, params.text_document.version)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: Any, params: T.DidChangeTextDocumentParams) -> None:
        get(ls).touched(params.text_document.uri, params.text_document.version)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: Any, params: T.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        get(ls).touched(uri, get(ls).latest.get(uri), content_changed=False)

    @server.feature(T.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: Any, params: T.DidChangeWatchedFilesParams) -> None:
        get(ls).disk_changed([c.uri for c in params.changes])

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: Any, params: T.DidCloseTextDocumentParams) -> None:
        get(ls).closed(params.text_document.uri)
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    async def hover(ls: Any, params: T.HoverParams) -> T.Hover | None:
        found = await get(ls).current_indexed(params.text_document.uri)
        if found is None:
            return None
        result, doc, line_map = found
        pos = doc.position_from_client_units(params.position)
        line = pos.line
        if line_map is not None:  # the text changed since: only lines that are still the same are answered
            back = {b: a for a, b in line_map.items()}
            if line not in back:
                return None
            line = back[line]
        assert result.index is not None
        try:
            text = result.index.at(line + 1, pos.character)
        except Exception:
            return None
        if not text:
            return None
        head, _, rest = text.partition("\n")
        value = f"```text\n{head}\n```" + (f"\n{rest.strip()}" if rest.strip() else "")
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=value))

    @server.feature(T.TEXT_DOCUMENT_INLAY_HINT, T.InlayHintOptions(resolve_provider=False))
    async def inlay_hint(ls: Any, params: T.InlayHintParams) -> list[T.InlayHint]:
        s = get(ls)
        found = await s.current_indexed(params.text_document.uri) if s.inlay_hints else None
        if found is None:
            return []
        result, doc, line_map = found
        assert result.index is not None
        lines = list(doc.lines)
        hints = []
        for line, col, label in result.index.inlay_hints():
            now = line - 1 if line_map is None else line_map.get(line - 1)
            if now is None or not params.range.start.line <= now <= params.range.end.line:
                continue
            pos = doc.position_codec.position_to_client_units(lines, T.Position(now, col))
            hints.append(T.InlayHint(position=pos, label=label, kind=T.InlayHintKind.Type, padding_left=False))
        return hints

    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
    def code_action(ls: Any, params: T.CodeActionParams) -> list[T.CodeAction]:
        uri = params.text_document.uri
        result = get(ls).results.get(uri)
        doc = ls.workspace.get_text_document(uri)
        if result is None or result.text != doc.source:
            return []  # the fixes of an older text would edit the wrong place
        return to_code_actions(uri, doc.lines, doc.position_codec, result.findings, params.range)

    @server.feature(T.SHUTDOWN)
    def shutdown(ls: Any, *args: Any) -> None:
        if session is not None:
            session.executor.shutdown(wait=False, cancel_futures=True)

    return server


def serve() -> None:
    if not HAVE_PYGLS:
        print(MISSING_EXTRA, file=sys.stderr)
        raise SystemExit(2)
    import gc

    sys.setswitchinterval(0.001)  # the event loop gets the interpreter back quickly while the worker analyses
    young, middle, _ = gc.get_threshold()
    # the young generations are collected as usual (small and cheap); full collections run between analyses only
    # (Session._collect): the interpreter's own would land in the middle of a run
    gc.set_threshold(young, middle, 1_000_000)
    create_server().start_io()
