"""Re-analysis of an edited module that redoes only what the edit can affect (the language server's engine).

The batch hosts parse and analyse a module at once. An editor sends the whole text after every keystroke, and
most of it is unchanged. A ``Document`` keeps, between versions of one module:

* the parsed top-level statements, one libcst parse per top-level statement ("chunk", split where CPython's
  ``ast`` says statements start), keyed by the chunk's text: an edit re-parses the chunks it touched;
* node positions per chunk (columns do not move when lines above change; lines are shifted);
* the result of each function's stand-alone run (findings, hover values, closures it defined), keyed by the
  function, the text and position of its own chunk, the chunks it names (transitively: a callee's body is
  inlined into its callers), every module-level statement, and the project's state (any other file changing
  clears the cache).

The module is still analysed by ``ModuleAnalysis.analyse`` (so every host gives the same findings): only
``run_function`` for a function's stand-alone run is answered from the cache when its key is unchanged.
``cancelled`` is polled before each function: a newer edit stops a run that has become stale.
"""

from __future__ import annotations

import ast
import collections
import re
from dataclasses import dataclass, field
from typing import Any, Callable

import libcst as cst

from ...diagnostics import Finding
from ..interpret.state import class_state

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Cancelled(Exception):
    """A newer version of the document arrived: this run's result would never be published."""


@dataclass
class Chunk:
    """One or more top-level statements starting on one line, parsed on their own."""

    text: str
    module: cst.Module
    defines: frozenset[str]  # names the chunk binds at module level (def/class names, assignments, imports)
    is_def: bool
    idents: frozenset[str]
    _positions: dict[int, tuple[int, int, int, int]] | None = None
    _shifted: tuple[int, dict[int, tuple[int, int, int, int]]] | None = None
    _walk: Any = None

    def positions(self, offset: int) -> dict[int, tuple[int, int, int, int]]:
        """id(node) -> (line, column, end line, end column), 1-based lines, 1-based columns (as findings use)."""
        if self._shifted is not None and self._shifted[0] == offset:
            return self._shifted[1]
        if self._positions is None:
            from ..report.positions import compute_positions

            self._positions = compute_positions(self.module)
        shifted = {k: (a + offset, b + 1, c + offset, d + 1) for k, (a, b, c, d) in self._positions.items()}
        self._shifted = (offset, shifted)
        return shifted

    def walk(
        self,
    ) -> tuple[
        list[int], list[tuple[cst.CSTNode, cst.BaseExpression | None]], list[tuple[cst.Attribute, cst.ClassDef]]
    ]:
        """(ids of the function definitions inside, assignment targets with their value expression, ``self.x``
        attributes with their class)."""
        if self._walk is None:
            defs: list[int] = []
            targets: list[tuple[cst.CSTNode, cst.BaseExpression | None]] = []
            attrs: list[tuple[cst.Attribute, cst.ClassDef]] = []
            todo: list[tuple[cst.CSTNode, cst.ClassDef | None]] = [(s, None) for s in self.module.body]
            while todo:
                node, cls = todo.pop()
                tp = type(node)
                if tp is cst.FunctionDef:
                    defs.append(id(node))
                elif tp is cst.ClassDef:
                    cls = node  # type: ignore[assignment]
                elif tp is cst.Assign:
                    for t in node.targets:  # type: ignore[attr-defined]
                        targets.append((t.target, node.value if len(node.targets) == 1 else None))  # type: ignore[attr-defined]
                elif tp is cst.AnnAssign or tp is cst.AugAssign:
                    targets.append((node.target, None))  # type: ignore[attr-defined]
                elif tp is cst.For:
                    targets.append((node.target, None))  # type: ignore[attr-defined]
                elif tp is cst.Attribute and cls is not None:
                    base = node.value  # type: ignore[attr-defined]
                    if type(base) is cst.Name and base.value == "self":
                        attrs.append((node, cls))  # type: ignore[arg-type]
                todo.extend((c, cls) for c in node.children)
            self._walk = (defs, targets, attrs)
        walked: tuple[
            list[int], list[tuple[cst.CSTNode, cst.BaseExpression | None]], list[tuple[cst.Attribute, cst.ClassDef]]
        ] = self._walk
        return walked


def split_lines(text: str) -> list[str]:
    return _LINE.findall(text)


_STARTS = re.compile(r"[A-Za-z_@]")
_NOT_A_START = ("else", "elif", "except", "finally")


def chunk_bounds(lines: list[str]) -> list[int]:
    """0-based first lines of candidate chunks: lines that start a statement at column 0 (a decorator's ``def``
    stays with it). A candidate inside a string or brackets leaves a piece that does not parse on its own, and the
    whole text then takes the batch path."""
    starts = [0]
    decorated = False
    for i, line in enumerate(lines):
        if not line or not _STARTS.match(line):
            continue
        word = _IDENT.match(line)
        if word is not None and word.group(0) in _NOT_A_START:
            decorated = False
            continue
        if i and not decorated:
            starts.append(i)
        decorated = line.startswith("@")
    return starts


def ast_bounds(text: str) -> list[int] | None:
    """The chunks' first lines from CPython's parse of the whole text (None: it does not parse)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    starts = {0}
    for stmt in tree.body:
        first = stmt.lineno
        for d in getattr(stmt, "decorator_list", ()):
            first = min(first, d.lineno)
        starts.add(first - 1)
    return sorted(starts)


def _bound_names(tree: ast.Module) -> frozenset[str]:
    """Names module-level code binds (assignment targets, imports, defs and classes under if/try/with, globals)."""
    out: set[str] = set()
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
            continue  # their bodies bind local names
        elif isinstance(node, ast.Global):
            out.update(node.names)
        elif isinstance(node, ast.alias):
            continue
        todo.extend(ast.iter_child_nodes(node))
    return frozenset(out)


def _is_def(stmt: cst.CSTNode) -> str | None:
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return stmt.name.value
    return None


@dataclass
class _Entry:
    node: cst.CSTNode
    scope: Any
    pending: list[Any]
    inline: list[Any]  # findings collected for a caller (the run was inside an inlined call or a discarded region)
    origins: list[tuple[str, Any]]
    hovers: dict[int, Any]
    hover_nodes: dict[int, Any]
    locals: list[tuple[str, cst.FunctionDef]]
    # the argparse choices the run found for its function (ModuleAnalysis.argparse_alternatives), each run again
    alternatives: dict[str, Any] = field(default_factory=dict)


@dataclass
class Result:
    findings: list[Finding]
    analysis: Any = None  # the ModuleAnalysis (None: not analysed, or fell back to the batch path)
    chunks: list[tuple[int, Chunk]] = field(default_factory=list)  # (line offset, chunk)
    reused: int = 0  # functions answered from the cache
    ran: int = 0  # functions run


class Document:
    """What one module's previous versions leave for the next (see the module docstring)."""

    def __init__(self) -> None:
        self.chunks: dict[str, list[Chunk]] = {}
        self.older: dict[str, list[Chunk]] = {}  # the version before: an edit undone finds its parse again
        self.functions: dict[Any, _Entry] = {}
        self.annotations: dict[int, tuple[cst.CSTNode, Any, list[Any]]] = {}
        self.classes: dict[Any, tuple[cst.CSTNode, set[str], frozenset[str]]] = {}
        self.harvest: Callable[[], None] = _nothing
        self.epoch: Any = None

    # ------------------------------------------------------------------ parsing
    def _parse_chunk(self, text: str) -> Chunk:
        tree = ast.parse(text)  # CPython's verdict first, as checker.parse does (raises SyntaxError)
        module = cst.parse_module(text)
        names = [_is_def(s) for s in module.body]
        is_def = bool(names) and all(n is not None for n in names)
        defines = frozenset(n for n in names if n) if is_def else _bound_names(tree)
        return Chunk(text, module, defines, is_def, frozenset(_IDENT.findall(text)))

    def parse(
        self, text: str, cancelled: Callable[[], bool] | None = None
    ) -> tuple[cst.Module, list[tuple[int, Chunk]]] | None:
        lines = split_lines(text)
        chunks = self._chunks(lines, chunk_bounds(lines), cancelled)
        if chunks is None:  # a candidate start inside a string or brackets, or a syntax error
            bounds = ast_bounds(text)
            chunks = self._chunks(lines, bounds, cancelled) if bounds is not None else None
            if chunks is None:
                return None
        first, last = chunks[0][1].module, chunks[-1][1].module
        indented = next((c.module for _, c in chunks if "\n " in c.text or "\n\t" in c.text), first)
        body = [s for _, c in chunks for s in c.module.body]
        tree = cst.Module(
            body=body,
            header=first.header,
            footer=last.footer,
            encoding=first.encoding,
            default_indent=indented.default_indent,
            default_newline=first.default_newline,
            has_trailing_newline=last.has_trailing_newline,
        )
        return tree, chunks

    def _chunks(
        self, lines: list[str], bounds: list[int], cancelled: Callable[[], bool] | None = None
    ) -> list[tuple[int, Chunk]] | None:
        used: dict[str, int] = {}
        chunks: list[tuple[int, Chunk]] = []
        fresh: dict[str, list[Chunk]] = {}
        for i, start in enumerate(bounds):
            end = bounds[i + 1] if i + 1 < len(bounds) else len(lines)
            piece = "".join(lines[start:end])
            n = used.get(piece, 0)
            used[piece] = n + 1
            known = self.chunks.get(piece) or self.older.get(piece) or []
            if n < len(known):
                ch = known[n]  # identical text twice in one module gets two parses: node ids stay unique
            else:
                if cancelled is not None and cancelled():  # a long first parse: what is parsed so far is kept
                    for piece_text, parsed in fresh.items():
                        self.older.setdefault(piece_text, parsed)
                    raise Cancelled()
                try:
                    ch = self._parse_chunk(piece)
                except Exception:
                    return None
            fresh.setdefault(piece, []).append(ch)
            chunks.append((start, ch))
        if fresh.keys() != self.chunks.keys():
            self.older = self.chunks
        self.chunks = fresh
        return chunks

    # ------------------------------------------------------------------ analysis
    def analyse(
        self, text: str, path: str, project: Any, epoch: Any = None, cancelled: Callable[[], bool] | None = None
    ) -> Result | None:
        """Findings (unfiltered) and the analysis, or None when this text needs the batch path (syntax errors,
        text libcst parses differently in pieces). Raises ``Cancelled``."""
        from pathlib import Path

        from ..interpret.module import ModuleAnalysis
        from ..index.project import module_name_for

        parsed = self.parse(text, cancelled)
        if parsed is None:
            return None
        tree, chunks = parsed
        if epoch != self.epoch:
            self.functions = {}
            self.annotations = {}
            self.classes = {}
            self.epoch = epoch
        name, is_pkg = ("", False)
        p = Path(path)
        if p.suffix == ".py" and p.exists():
            name, is_pkg = module_name_for(p)
        ma = ModuleAnalysis(text, path, tree, project, name, is_pkg)
        ma.ctx.record_hovers = True
        ma._positions = collections.ChainMap(*(c.positions(off) for off, c in chunks))  # type: ignore[assignment]
        if name and project is not None:
            project.register(name, ma)
        result = Result([], ma, chunks)
        previous = (self.functions, self.annotations)
        self._install(ma, chunks, result, cancelled)
        from ..report.checker import findings_of

        old_functions, old_annotations = previous
        try:
            ma.analyse()
        except BaseException:
            # cancelled (or failed) part-way: keep what the last complete run left, with what this one added
            self.functions = {**old_functions, **self.functions}
            self.annotations = {**old_annotations, **self.annotations}
            raise
        finally:
            # the wrappers hold this run's caches, and the cache entries hold analyses (through the origins of
            # sizes): left in place, every version would keep the one before alive. A module analysed here and
            # used later by another file's analysis (the project keeps it) runs its functions unwrapped.
            for wrapped in ("run_function", "param_value", "annotation_of", "collect_definitions"):
                ma.__dict__.pop(wrapped, None)
        self.harvest()
        self.harvest = _nothing
        result.findings = findings_of(ma)
        return result

    def _environments(self, chunks: list[tuple[int, Chunk]]) -> dict[int, Any]:
        """id(function node) -> the cache key part that changes when anything its stand-alone run reads changes:
        every module-level statement, and the chunks that bind a name the function's chunk mentions, transitively
        (through module-level code too: ``model = Model()`` makes a function that calls ``model`` depend on
        ``Model``)."""
        glob = tuple((off, c.text) for off, c in chunks if not c.is_def)
        by_name: dict[str, list[int]] = {}
        for i, (_, c) in enumerate(chunks):
            for n in c.defines:
                by_name.setdefault(n, []).append(i)
        env_of_chunk: dict[int, Any] = {}
        out: dict[int, Any] = {}
        for i, (_, c) in enumerate(chunks):
            if not c.is_def:
                continue
            seen = {i}
            todo = [i]
            while todo:
                j = todo.pop()
                for ident in chunks[j][1].idents:
                    for k in by_name.get(ident, ()):
                        if k not in seen:
                            seen.add(k)
                            todo.append(k)
            env_of_chunk[i] = (glob, tuple((chunks[k][0], chunks[k][1].text) for k in sorted(seen)))
            for fid in c.walk()[0]:
                out[fid] = env_of_chunk[i]
            for stmt in c.module.body:
                if type(stmt) is cst.ClassDef:
                    out[id(stmt)] = env_of_chunk[i]
        return out

    def _install(
        self, ma: Any, chunks: list[tuple[int, Chunk]], result: Result, cancelled: Callable[[], bool] | None
    ) -> None:
        """Wrap this analysis's ``run_function`` (stand-alone runs answered from the cache) and ``param_value``
        (a parameter's value recorded for hover at its ``def``)."""
        from ..interpret.interpreter import FrameInfo

        envs = self._environments(chunks)
        old: dict[Any, _Entry] = self.functions
        new: dict[Any, _Entry] = {}
        self.functions = new
        ctx = ma.ctx
        ctx.hovers = _Hovers(ctx)
        run = ma.run_function
        param_value = ma.param_value

        def run_function(fi: Any, args: Any, self_value: Any, depth: int = 0, **building: Any) -> Any:
            if cancelled is not None and cancelled():
                raise Cancelled()
            env = envs.get(id(fi.node))
            if args is not None or depth or env is None or building or ma.argparse_choice is not None:
                # an object under construction, a script run with one of an option's choices: not cached
                return run(fi, args, self_value, depth, **building)
            # where a finding made inside lands depends only on whether these counters are non-zero (Context.add)
            state = (ctx.suppress_depth > 0, ctx.uncertain > 0, ctx.caught > 0)
            key = (fi.key, env, repr(self_value), state)
            hit = old.get(key) or new.get(key)
            if hit is not None and hit.node is fi.node:
                new[key] = hit
                ctx.pending.extend(hit.pending)
                ctx.inline_findings.extend(hit.inline)
                for k, v in hit.origins:
                    ctx.origins.setdefault(k, v)
                ctx.hovers.merge(hit.hovers)
                ctx.hover_nodes.update(hit.hover_nodes)
                for parent, node in hit.locals:
                    ma.local_function(node, FrameInfo(parent))
                ma.argparse_alternatives.update(hit.alternatives)
                result.reused += 1
                return hit.scope
            saved_hovers, saved_nodes = ctx.hovers, ctx.hover_nodes
            ctx.hovers, ctx.hover_nodes = _Hovers(ctx), {}
            inline = ctx.inline_findings
            n_pending, n_inline, n_origins, known = len(ctx.pending), len(inline), len(ctx.origins), set(ma.functions)
            choices_known = set(ma.argparse_alternatives)
            try:
                scope = run(fi, args, self_value, depth)
            finally:
                hovers, nodes = ctx.hovers, ctx.hover_nodes
                saved_hovers.merge(hovers)
                saved_nodes.update(nodes)
                ctx.hovers, ctx.hover_nodes = saved_hovers, saved_nodes
            local = [(k.rsplit(".<locals>.", 1)[0], ma.functions[k].node) for k in ma.functions if k not in known]
            new[key] = _Entry(
                fi.node,
                scope,
                ctx.pending[n_pending:],
                inline[n_inline:],
                list(ctx.origins.items())[n_origins:],
                hovers,
                nodes,
                local,
                {k: v for k, v in ma.argparse_alternatives.items() if k not in choices_known},
            )
            result.ran += 1
            return scope

        def record_param(fi: Any, p: Any, memo: Any) -> Any:
            value = param_value(fi, p, memo)
            node = param_name_node(fi.node, p.name)
            if node is not None and ctx.record_hovers:
                ctx.hovers[id(node)] = value
                ctx.hover_nodes[id(node)] = node
            return value

        annotation_of = ma.annotation_of
        # an annotation's meaning depends on the node and on what module-level code and definitions bind
        scope_key = (
            tuple(c.text for _, c in chunks if not c.is_def),
            frozenset(n for _, c in chunks for n in c.defines),
        )
        old_ann = self.annotations
        new_ann: dict[int, tuple[cst.CSTNode, Any, list[Any]]] = {}
        self.annotations = new_ann
        calls: dict[int, int] = {}

        def cached_annotation(node: Any) -> Any:
            # the n-th question about a node this run gets the n-th answer of the last run (run_module signs a
            # def with the aliases known when it runs, and again at the end)
            k = id(node)
            n = calls.get(k, 0)
            calls[k] = n + 1
            if k not in new_ann:
                hit = old_ann.get(k)
                new_ann[k] = (
                    hit if hit is not None and hit[0] is node and hit[1] == scope_key else (node, scope_key, [])
                )
            answers = new_ann[k][2]
            if n < len(answers):
                return answers[n]
            value = annotation_of(node)
            answers.append(value)
            return value

        # which ``self.x`` other methods may change (objects.outside_init) depends on the class's methods and its
        # bases': a class whose chunk and environment are unchanged gets the last run's answer
        collect_definitions = ma.collect_definitions
        old_classes = self.classes

        def collect_with_known_classes() -> None:
            collect_definitions()
            for ci in ma.classes.values():
                env = envs.get(id(ci.node))
                hit = old_classes.get((ci.key, env)) if env is not None else None
                st = class_state(ci)
                if hit is not None and hit[0] is ci.node and st.outside_init is None:
                    # (both of what objects.outside_init computes: the attributes, and those of them only stored
                    # into by item, whose arrays keep their shape)
                    st.outside_init, st.items_only = set(hit[1]), hit[2]

        def harvest() -> None:  # after a complete run (a cancelled one leaves the last complete run's answers)
            fresh: dict[Any, tuple[cst.CSTNode, set[str], frozenset[str]]] = {}
            for ci in ma.classes.values():
                env = envs.get(id(ci.node))
                st = class_state(ci)
                if env is not None and st.outside_init is not None:
                    fresh[(ci.key, env)] = (ci.node, set(st.outside_init), st.items_only)
            self.classes = fresh

        ma.run_function = run_function
        ma.param_value = record_param
        ma.annotation_of = cached_annotation
        ma.collect_definitions = collect_with_known_classes
        self.harvest = harvest


def _nothing() -> None:
    pass


class _Hovers(dict):  # type: ignore[type-arg]
    """``Context.hovers`` that prefers what a function's own analysis found for a node over what one call of it
    inlined found (a body shows ``(b, n, 128)`` from its annotations, not ``(2, 16, 128)`` from one caller's
    arguments); a node only inlined calls reach keeps their value."""

    def __init__(self, ctx: Any) -> None:
        super().__init__()
        self.ctx = ctx
        self.own: set[int] = set()

    def __setitem__(self, key: int, value: Any) -> None:
        if self.ctx.suppress_depth:
            if key in self.own:
                return
        else:
            self.own.add(key)
        super().__setitem__(key, value)

    def merge(self, other: "_Hovers") -> None:
        for key, value in other.items():
            if key in other.own:
                self.own.add(key)
                super().__setitem__(key, value)
            elif key not in self.own:
                super().__setitem__(key, value)


def param_name_node(fn: cst.FunctionDef, name: str) -> cst.Name | None:
    ps = fn.params
    every = [*ps.posonly_params, *ps.params, *ps.kwonly_params]
    for extra in (ps.star_arg, ps.star_kwarg):
        if type(extra) is cst.Param:
            every.append(extra)
    for p in every:
        if p.name.value == name:
            return p.name
    return None
