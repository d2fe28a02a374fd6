"""Per-module analysis state shared by the interpreter's parts: findings, symbols and their origins."""

from __future__ import annotations

import contextlib
import itertools
from dataclasses import dataclass, field
from typing import Any, Iterator

import libcst as cst

from ...diagnostics import Witness
from ...sizes import Size


# the definite errors whose operation raises when run (not an annotation contradicted: SHP205 / SHP206)
RAISING = frozenset({"SHP201", "SHP202", "SHP203", "SHP204", "SHP207"})


@dataclass(frozen=True)
class OpSpec:
    """The failing operation of a definite (SHP2xx) finding, with symbolic inputs: what a witness makes concrete.

    op: "rearrange" | "reduce" | "repeat" | "pack" | "unpack" | "einsum" | "parse_shape" | "matmul" |
        "elementwise" | "cat" | "stack" | "reshape" | "expand" | "loss" | "linear" | "nn.Linear" |
        "nn.LayerNorm" | "nn.Conv" | "annotation"
    inputs: the symbolic input shapes, in operand order.
    extra: operation details, e.g. ("reduction", "sum"), ("dim", 1), ("target", (Size, ...)),
           ("packed_shapes", ((Size, ...), ...)), ("dims", "b n d") for annotations, layer parameters.
    """

    op: str
    pattern: str | None
    inputs: tuple[tuple[Size, ...], ...]
    axes_lengths: tuple[tuple[str, Size], ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.extra:
            if k == key:
                return v
        return default


class LazyNote:
    """A note that names a line (an origin's ``path:line``, a def's place): its text is joined from its parts when a
    finding is made of it (``findings_of``), so a finding that is dropped (an inlined callee's, reported again from
    another call or not at all) never costs its module a positions pass."""

    __slots__ = ("parts",)

    def __init__(self, parts: tuple[object, ...]) -> None:
        self.parts = parts

    def __str__(self) -> str:
        return "".join(map(str, self.parts))


class BuiltNote(LazyNote):
    """Where a layer was made, for the findings of its calls: the ``self.x = ...`` of the constructor that stored
    it (``named``), else the call that made it; with the constructor calls around it (``in the PreNorm constructed
    at f.py:83``): the sizes to fix were asked for there."""

    __slots__ = ("named",)

    def __init__(self, parts: tuple[object, ...], named: bool) -> None:
        super().__init__(parts)
        self.named = named


def note(*parts: object) -> "str | LazyNote":
    """A note of these parts: text at once when each part is text, else joined when the finding is made."""
    if all(type(p) is str for p in parts):
        return "".join(parts)  # type: ignore[arg-type]
    return LazyNote(parts)


class Where:
    """``path:line`` of a node of a module, rendered when asked (a note's part)."""

    __slots__ = ("module", "node")

    def __init__(self, module: Any, node: cst.CSTNode) -> None:
        self.module, self.node = module, node

    def __str__(self) -> str:
        return f"{self.module.path}:{self.module.line_of(self.node)}"


@dataclass
class Pending:
    """A finding whose position is resolved only if the module has findings at all (positions cost a pass)."""

    node: cst.CSTNode
    code: str
    fields: tuple[tuple[str, Any], ...] = ()  # the template's fields (Finding.fields); the text is rendered at the end
    notes: "tuple[str | LazyNote, ...]" = ()
    witness: Witness | None = None
    span: tuple[int, int, int, int] | None = None  # already known (e.g. from another module)
    path: str | None = None
    fix: tuple[tuple[cst.CSTNode, str, str], ...] = ()  # autofix: (node, "before" | "after" | "replace", text)
    spec: OpSpec | None = None  # the failing operation (definite findings), for witnesses and --verify
    inner: cst.CSTNode | None = None  # a finding raised inside inlined calls: the operation itself (node: the call)
    calls: int = 0  # how many inlined calls lie between ``node`` and ``inner``


_counter = itertools.count()


def _rests_on_unverified(notes: "tuple[str | LazyNote, ...]") -> bool:
    """Whether a finding's notes name a shape made by a callee's return annotation that no argument verified (the
    ``unverified`` origins of shapes_bridge)."""
    return any(isinstance(n, LazyNote) and any(getattr(part, "unverified", False) for part in n.parts) for n in notes)


def counter_mark() -> int:
    """A number below every symbol ``Context.fresh`` makes from now on (the ``@N`` suffix)."""
    return next(_counter)


@dataclass(frozen=True)
class MadeUp:
    """The origin of a shape made up from an einops pattern because the input was unknown (not evidence): the call's
    own origin (``from the einops pattern '...' at f.py:3``), rendered only when a note shows it."""

    origin: Any

    def __str__(self) -> str:
        return str(self.origin)


class PatternSizes(MadeUp):
    """The origin of a shape whose rank rests on evidence (a check of the code fixed its input's rank) and whose sizes
    were made up from an einops pattern: evidence for the rank, not for any size."""


# evidence levels of a call site's input (the best any analysis of the site reached)
EVIDENCE_NONE, EVIDENCE_MADE_UP, EVIDENCE_SIZE_ONLY, EVIDENCE_RANK, EVIDENCE_SIZE = 0, 1, 2, 3, 4


_ALL_RANKS_BUT_ONE = 16  # narrowing.MAX_RANK: a tensor whose other ranks are all ruled out


def _evidence_size(s: Size) -> bool:
    """A size that rests on evidence: a number, or an expression over constructor parameters."""
    return s.as_int() is not None or any("@ctor:" in sym for sym in s.free_symbols())


@dataclass
class Context:
    path: str
    pending: list[Pending] = field(default_factory=list)
    origins: dict[str, Any] = field(default_factory=dict)  # symbol -> where it was bound (str() renders it)
    hovers: dict[int, Any] = field(default_factory=dict)  # id(node) -> value, for the LSP hover (when enabled)
    hover_nodes: dict[int, Any] = field(default_factory=dict)  # id(node) -> node
    record_hovers: bool = False
    suppress_depth: int = 0  # >0 while inlining a callee: findings are collected by the caller instead
    inline_findings: list[Pending] = field(default_factory=list)
    uncertain: int = 0  # >0 inside a branch of an inlined callee whose condition is unknown: its findings are dropped
    caught: int = 0  # >0 inside a try body whose handler catches shape errors: definite findings there are dropped
    # while a branch of an undecided ``if`` in an inlined callee runs (Interpreter.run_branches): the definite errors
    # it drops (a branch that returns with none leaves the rest of the callee conditional)
    doubtful: "list[Pending] | None" = None
    stats: dict[str, int] = field(default_factory=dict)  # coverage counters (benchmarks/corpus.py)
    evidence: dict[int, tuple[str, int]] = field(default_factory=dict)  # id(call) -> (kind, best evidence level)
    branch_unknown: int = 0  # how many enclosing branches have a condition the analysis cannot decide
    loop_watch: list[int] = field(default_factory=list)  # first passes of loops: branch_unknown when each started
    tagged: set[int] = field(default_factory=set)  # findings made in such a pass under an undecided branch
    # (function key, variable) -> the target node of the last ``model = Net(...)`` of an entry point (depth 0): a
    # finding of ``model(x)`` names where the object got the sizes it fails with
    obj_sites: dict[tuple[str, str], Any] = field(default_factory=dict)
    # id(call) -> (the pieces, the tensor cut, the axis, its size, how) of the last chunk / split / unbind the call
    # made: their number is exact, so an unpacking of them into another number of names raises (Interpreter)
    pieces: dict[int, tuple[Any, Any, int, Any, tuple[Any, ...]]] = field(default_factory=dict)

    def count(self, key: str) -> None:
        if not self.suppress_depth:
            self.stats[key] = self.stats.get(key, 0) + 1

    def report(
        self,
        node: cst.CSTNode,
        code: str,
        fields: dict[str, Any],
        notes: "tuple[str | LazyNote, ...] | list[str] | list[str | LazyNote]" = (),
        witness: Witness | None = None,
        fix: tuple[tuple[cst.CSTNode, str, str], ...] = (),
        spec: OpSpec | None = None,
    ) -> None:
        self.add(Pending(node, code, tuple(fields.items()), tuple(notes), witness, fix=tuple(fix), spec=spec))

    def add(self, p: Pending) -> None:
        if self.caught and p.code.startswith(("SHP1", "SHP2")):
            return  # the error is raised and handled: the code does not fail there
        if p.code.startswith("SHP2") and _rests_on_unverified(p.notes):
            return  # an operand's shape is only what a callee's annotation claims for a call it was not checked on
        if self.loop_watch and self.branch_unknown > self.loop_watch[0]:
            self.tagged.add(id(p))
        if self.suppress_depth:
            if not self.uncertain:
                self.inline_findings.append(p)
            elif self.doubtful is not None and p.code in RAISING:
                self.doubtful.append(p)
        else:
            self.pending.append(p)

    def note_evidence(self, node: cst.CSTNode, kind: str, tensor: Any, made_up: bool = False) -> None:
        """What the input shape of an einops call or a layer call at ``node`` rests on, over every analysis of it
        (on its own, or inlined for a caller's arguments): made up from the pattern, a known rank, a known size."""
        level = EVIDENCE_NONE
        shape = getattr(tensor, "shape", None)
        vs = getattr(tensor, "vshape", None)
        if made_up and vs is not None and any(_evidence_size(s) for s in vs[0] + vs[2]):
            level = EVIDENCE_SIZE_ONLY  # the rank is made up from the pattern, a trailing axis is known (a layer's)
        elif shape is None and len(getattr(tensor, "not_ranks", ())) >= _ALL_RANKS_BUT_ONE:
            level = EVIDENCE_RANK  # the code's own check (``if x.ndim == 4``, ``assert x.ndim == 4``) leaves one rank
            if vs is not None and any(_evidence_size(s) for s in vs[0] + vs[2]):
                level = EVIDENCE_SIZE  # and a known axis (the out_features of a Linear applied to it)
        elif isinstance(getattr(tensor, "origin", None), PatternSizes) and shape is not None:
            level = EVIDENCE_RANK
        elif made_up or isinstance(getattr(tensor, "origin", None), MadeUp):
            level = EVIDENCE_MADE_UP
        elif shape is not None:
            level = EVIDENCE_RANK
            if any(_evidence_size(s) for s in shape):
                level = EVIDENCE_SIZE
        old = self.evidence.get(id(node))
        if old is None or old[1] < level:
            self.evidence[id(node)] = (kind, level)

    def evidence_stats(self) -> dict[str, int]:
        out: dict[str, int] = {}
        names = {
            EVIDENCE_NONE: "unknown",
            EVIDENCE_MADE_UP: "made-up",
            EVIDENCE_SIZE_ONLY: "made-up-rank-known-size",
            EVIDENCE_RANK: "rank",
            EVIDENCE_SIZE: "size",
        }
        for kind, level in self.evidence.values():
            for key in (f"evidence:{kind}:sites", f"evidence:{kind}:{names[level]}"):
                out[key] = out.get(key, 0) + 1
        return out

    def mark(self) -> tuple[int, int, dict[str, int]]:
        """Where the findings stand now (``rollback`` drops what came after: a loop pass that did not hold)."""
        return len(self.pending), len(self.inline_findings), dict(self.stats)

    def rollback(self, mark: tuple[int, int, dict[str, int]]) -> None:
        del self.pending[mark[0] :]
        del self.inline_findings[mark[1] :]
        self.stats = dict(mark[2])

    def drop_tagged(self, mark: tuple[int, int, dict[str, int]]) -> None:
        """Drop the findings made since ``mark`` under a branch the analysis could not decide (a loop's first pass
        whose state did not hold: that branch may only run in a later iteration, on other values)."""
        self.pending[mark[0] :] = [p for p in self.pending[mark[0] :] if id(p) not in self.tagged]
        self.inline_findings[mark[1] :] = [p for p in self.inline_findings[mark[1] :] if id(p) not in self.tagged]

    def drop_repeated(self, first: tuple[int, int, dict[str, int]], second: tuple[int, int, dict[str, int]]) -> None:
        """Drop the findings since ``second`` that the pass between ``first`` and ``second`` made already."""
        seen = {
            (id(p.node), p.code)
            for p in self.pending[first[0] : second[0]] + self.inline_findings[first[1] : second[1]]
        }
        self.pending[second[0] :] = [p for p in self.pending[second[0] :] if (id(p.node), p.code) not in seen]
        self.inline_findings[second[1] :] = [
            p for p in self.inline_findings[second[1] :] if (id(p.node), p.code) not in seen
        ]
        self.stats = dict(second[2])  # a site counted once

    @contextlib.contextmanager
    def maybe_taken(self, truth: bool | None) -> Iterator[None]:
        """A branch whose condition is unknown. In a function analysed for one call's arguments (inlined), what fails
        there fails only if the caller's state (a flag, a config, the input's rank) takes that branch, which the
        analysis cannot tell: such findings are not reported at the call. A function analysed on its own reports them."""
        uncertain = truth is None and self.suppress_depth > 0
        self.uncertain += uncertain
        self.branch_unknown += truth is None
        try:
            yield
        finally:
            self.uncertain -= uncertain
            self.branch_unknown -= truth is None

    @contextlib.contextmanager
    def catching(self, catches: bool) -> Iterator[None]:
        """A ``try`` body whose ``except`` takes the errors a failing shape raises (EinopsError, RuntimeError, ...)."""
        self.caught += catches
        try:
            yield
        finally:
            self.caught -= catches

    @contextlib.contextmanager
    def discarding(self) -> Iterator[None]:
        """Findings made inside are dropped (code under `pytest.raises` is expected to fail)."""
        saved_depth, saved = self.suppress_depth, self.inline_findings
        self.suppress_depth, self.inline_findings = saved_depth + 1, []
        try:
            yield
        finally:
            self.suppress_depth, self.inline_findings = saved_depth, saved

    def fresh(self, name: str, origin: Any = None) -> Size:
        sym = f"{name}@{next(_counter)}"
        if origin:
            self.origins[sym] = origin
        return Size.sym(sym)

    def scoped(self, name: str, scope: str, origin: Any = None) -> Size:
        sym = f"{name}@{scope}"
        if origin and sym not in self.origins:
            self.origins[sym] = origin
        return Size.sym(sym)

    def describe(self, size: Size) -> str:
        """Where the symbols of a size were bound, for notes."""
        parts = []
        for s in sorted(size.free_symbols()):
            if s in self.origins:
                parts.append(f"{s.split('@')[0]} {self.origins[s]}")
        return "; ".join(parts)
