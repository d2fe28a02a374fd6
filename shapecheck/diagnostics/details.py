"""What exactly is wrong, as data: the ``detail`` field of a finding.

A registry template says what a code reports (``"{op}: {detail}"`` for SHP204); its ``detail`` field (SHP202's
``requirement``) is one of the typed values below, never a sentence written at the call site. Each kind is a frozen dataclass with the facts of
the problem (axes, sizes, shapes as the analysis shows them) and ONE renderer, its ``render`` method; ``str()`` of a
detail is its rendering, so ``Code.format`` fills the template with it. ``to_json`` is the same value as data (the
``kind`` and the fields), for SARIF and other programs.

Kinds whose text has no variable part derive from :class:`Rule`: a closed table of rule names to texts.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, Mapping, Sequence

KINDS: dict[str, type["Detail"]] = {}


def jsonable(v: Any) -> Any:
    """A field value as JSON data: details become objects, tuples lists, a size its number (or its text when symbolic),
    anything else not JSON its text."""
    if isinstance(v, Detail):
        return v.to_json()
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    as_int = getattr(v, "as_int", None)  # a symbolic size: its number when it is one, else its text
    n = as_int() if callable(as_int) else None
    return n if isinstance(n, int) else str(v)


@dataclass(frozen=True)
class Detail:
    """Base of every detail kind: ``code`` is the registry code it belongs to, ``kind`` its name within it."""

    code: ClassVar[str] = ""
    kind: ClassVar[str] = ""
    also: ClassVar[tuple[str, ...]] = ()  # other codes whose findings carry this kind
    field: ClassVar[str] = "detail"  # the template field it fills

    @classmethod
    def used_by(cls, code: str) -> bool:
        return code == cls.code or code in cls.also

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if cls.kind:
            key = f"{cls.code}:{cls.kind}"
            assert key not in KINDS, f"detail kind {key} declared twice"
            KINDS[key] = cls

    def render(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.render()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = jsonable(getattr(self, f.name))
        return out


@dataclass(frozen=True)
class Rule(Detail):
    """A detail with no variable part: ``rule`` names one entry of the kind's ``TEXTS``."""

    rule: str
    TEXTS: ClassVar[Mapping[str, str]] = {}

    def __post_init__(self) -> None:
        assert self.rule in self.TEXTS, f"{type(self).__name__}: unknown rule {self.rule!r}"

    def render(self) -> str:
        return self.TEXTS[self.rule]


def _names(axes: Sequence[str]) -> str:
    """Axis names quoted as einops shows them; the one-character ellipsis marker reads '...'."""
    return ", ".join("'...'" if a == "\u2026" else repr(a) for a in axes)


# ---- SHP101 pattern-syntax ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PatternSyntax(Rule):
    code, kind = "SHP101", "syntax"
    TEXTS = {
        "dots": "dots are only allowed in one '...'",
        "zero-anonymous": "an anonymous axis must have positive length, not 0",
        "nested": "axis composition is one level deep (no parentheses inside parentheses)",
        "unbalanced": "parentheses are not balanced",
        "no-arrow": "missing '->'",
        "many-arrows": "more than one '->'",
    }


@dataclass(frozen=True)
class UnknownCharacter(Detail):
    code, kind = "SHP101", "unknown-character"
    char: str

    def render(self) -> str:
        return f"unknown character {self.char!r}"


AXIS_NAME_RULES = {
    "not-identifier": "not a valid python identifier",
    "underscore": "axis name should not start or end with underscore",
}


@dataclass(frozen=True)
class InvalidIdentifier(Detail):
    """``rule``: a key of ``AXIS_NAME_RULES`` (what einops says is wrong with the name)."""

    code, kind = "SHP101", "invalid-identifier"
    token: str
    rule: str

    def render(self) -> str:
        return f"invalid axis identifier {self.token!r}: {AXIS_NAME_RULES[self.rule]}"


# ---- SHP103 pattern-ellipsis ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EllipsisPlacement(Rule):
    code, kind = "SHP103", "ellipsis"
    TEXTS = {
        "right-only": "'...' on the right side but not on the left side",
        "parenthesized-left": "'...' inside parentheses on the left side",
        "parenthesized": "'...' inside parentheses",
        "literal-marker": "a literal '\u2026' on the right side does not stand for the left side's '...'",
    }


# ---- SHP104 pattern-identifiers -------------------------------------------------------------------------------


@dataclass(frozen=True)
class IdentifierRule(Rule):
    code, kind = "SHP104", "rule"
    TEXTS = {
        "rearrange-anonymous": "rearrange does not accept anonymous axes other than 1",
        "parse-shape-composed": "parse_shape cannot parse composed axes",
    }


@dataclass(frozen=True)
class AxesMisused(Detail):
    """Axes the operation cannot take: ``rule`` says how (one side only, dropped by repeat, ...)."""

    code, kind = "SHP104", "axes"
    rule: str  # "one-side" | "repeat-drops" | "repeat-length" | "reduce-introduces" | "cannot-infer"
    axes: tuple[str, ...]

    def render(self) -> str:
        names = _names(self.axes)
        return {
            "one-side": f"axes {names} appear on one side only",
            "repeat-drops": f"repeat cannot drop axes {names}",
            "repeat-length": f"repeat needs a length for the new axes {names}",
            "reduce-introduces": f"reduce cannot introduce axes {names}",
            "cannot-infer": f"cannot infer the sizes of {names} (give all but one)",
        }[self.rule]


# ---- SHP105 axis-length-keyword -------------------------------------------------------------------------------


@dataclass(frozen=True)
class KeywordRule(Rule):
    code, kind = "SHP105", "keyword"
    TEXTS = {
        "invalid-name": "is not a valid axis name",
        "unused": "is not used in the pattern",
        "non-positive": "must be positive",
    }


# ---- SHP107 pack-pattern --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PackAxis(Detail):
    code, kind = "SHP107", "axis"
    rule: str  # "twice" | "invalid"
    axis: str

    def render(self) -> str:
        return f"axis {self.axis!r} appears twice" if self.rule == "twice" else f"invalid axis name {self.axis!r}"


@dataclass(frozen=True)
class PackRule(Rule):
    code, kind = "SHP107", "rule"
    TEXTS = {"no-star": "no '*' axis"}


# ---- SHP108 einsum-pattern ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EinsumRule(Rule):
    code, kind = "SHP108", "rule"
    TEXTS = {
        "unit-axes": "unit axes () / 1 are not supported",
        "composed-axes": "composed axes are not supported",
        "anonymous-axes": "anonymous axes are not supported",
        "no-arrow": "no '->'",
        "many-arrows": "more than one '->'",
        "too-many-axes": "too many axes (more than 52)",
        "output-twice": "an output axis appears twice",
        "many-ellipses": "more than one ellipsis in a term",
    }


@dataclass(frozen=True)
class OutputNotInInput(Detail):
    code, kind = "SHP108", "output-axis"
    axis: str

    def render(self) -> str:
        return f"output axis {self.axis!r} is not in any input"


@dataclass(frozen=True)
class OperandCount(Detail):
    """``source``: "pattern" (einops) or "equation" (a framework's einsum)."""

    code, kind = "SHP108", "operand-count"
    expected: int
    given: int
    source: str = "pattern"

    def render(self) -> str:
        return f"{self.expected} operand(s) in the {self.source} but {self.given} given"


@dataclass(frozen=True)
class EquationSyntax(Detail):
    """A framework einsum equation its parser rejects: ``where`` is "operand #i" or "the output"."""

    code, kind = "SHP108", "equation"
    rule: str
    where: str = ""
    subscript: str = ""

    def render(self) -> str:
        return {
            "many-arrows": "more than one '->'",
            "stray-arrow": "a stray '-' or '>' (the output is introduced by '->')",
            "stray-dot": f"a '.' that is not part of an ellipsis '...' in {self.where}",
            "invalid-subscript": f"invalid subscript {self.subscript!r} in {self.where} (subscripts are letters a-z, A-Z)",
            "many-ellipses": f"more than one ellipsis in {self.where}",
            "output-comma": "the output has a ','",
            "output-unknown": f"output subscript {self.subscript!r} does not appear in any operand",
            "output-twice": "an output subscript appears more than once",
        }[self.rule]


# ---- SHP109 einmix-pattern ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EinMixRule(Rule):
    code, kind = "SHP109", "rule"
    TEXTS = {
        "weight-ellipsis": "no ellipsis in the weight shape",
        "one-sided-ellipsis": "an ellipsis must be on both sides",
        "parenthesized-ellipsis": "the ellipsis on the left side cannot be in parentheses",
        "anonymous": "no anonymous axes (numbers)",
        "bias-not-str": "bias_shape must be a string",
        "bias-before-ellipsis": "all bias axes must come after the ellipsis in the output",
        "too-many-axes": "more than 26 distinct axes",
    }


@dataclass(frozen=True)
class EinMixAxes(Detail):
    code, kind = "SHP109", "axes"
    rule: str  # "output-unknown" | "weight-length" | "unused-lengths" | "weight-redundant" | "bias-lengths"
    axes: tuple[str, ...]

    def render(self) -> str:
        listed = repr(list(self.axes))
        return {
            "output-unknown": f"output axes {listed} are neither in the input nor the weight",
            "weight-length": f"the length of weight axis {self.axes[0]!r} must be given",
            "unused-lengths": f"axis lengths {listed} are not used",
            "weight-redundant": f"weight axes {listed} are in neither side",
            "bias-lengths": f"the lengths of bias axes {listed} must be given",
        }[self.rule]


@dataclass(frozen=True)
class EinMixShape(Detail):
    """A weight or bias shape string einops rejects."""

    code, kind = "SHP109", "shape"
    rule: str  # "weight-parentheses" | "weight-unit-axes" | "bias-not-in-output"
    shape: str

    def render(self) -> str:
        return {
            "weight-parentheses": f"no parentheses in the weight shape {self.shape!r}",
            "weight-unit-axes": f"unit axes are not allowed in the weight shape {self.shape!r}",
            "bias-not-in-output": f"bias axes of {self.shape!r} are not in the output",
        }[self.rule]


@dataclass(frozen=True)
class EinMixInner(Detail):
    """A problem of one of the Rearrange layers EinMix builds (``layer_pattern`` empty: of EinMix's own pattern)."""

    code, kind = "SHP109", "inner"
    inner_code: str
    inner_fields: tuple[tuple[str, Any], ...]
    layer_pattern: str = ""

    def render(self) -> str:
        from .registry import get

        if not self.layer_pattern:
            return get(self.inner_code).template.format(**dict(self.inner_fields))
        inner = get(self.inner_code).format(**dict(self.inner_fields))
        return f"the internal rearrangement {self.layer_pattern!r} fails: {inner}"


# ---- SHP111 api-use -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ApiRule(Rule):
    code, kind = "SHP111", "rule"
    TEXTS = {
        "unpack-no-shapes": "unpack() needs the packed shapes",
        "unpack-no-shapes-call": "einops.unpack(tensor, packed_shapes, pattern) is called without packed shapes",
        "einsum-pattern-first": "einops.einsum needs the tensors first and the pattern last",
        "pack-empty": "pack() of an empty list of tensors",
    }


@dataclass(frozen=True)
class EmptyList(Detail):
    """``op`` of an empty list of tensors (``call``: the einops call in the code, which always raises)."""

    code, kind = "SHP111", "empty-list"
    op: str
    call: bool = False

    def render(self) -> str:
        if self.call:
            return f"einops.{self.op} of an empty list of tensors always raises"
        return f"{self.op}() of an empty list of tensors"


@dataclass(frozen=True)
class UnpackShapes(Detail):
    """``rule``: "many-unknown" (more than one -1 among the packed shapes) or "cannot-reshape" (one packed shape)."""

    code, kind = "SHP111", "unpack-shapes"
    rule: str
    shapes: str  # as einops prints the list

    def render(self) -> str:
        if self.rule == "many-unknown":
            return f"unpack() with more than one -1 in the packed shapes {self.shapes}"
        return f"unpack() packed shape {self.shapes} cannot be reshaped to"


@dataclass(frozen=True)
class PackTupleUsed(Detail):
    """The (packed, packed_shapes) tuple einops.pack returns, used whole: as ``use`` (a tensor argument), or its
    ``attribute`` read."""

    code, kind = "SHP111", "pack-tuple"
    use: str = ""
    attribute: str = ""

    def render(self) -> str:
        if self.attribute:
            return (
                f"einops.pack returns a tuple (packed, packed_shapes), which has no attribute {self.attribute!r} "
                "(AttributeError) -- unpack it first: packed, ps = pack(...)"
            )
        return (
            f"einops.pack returns a tuple (packed, packed_shapes), used here as {self.use}; einops raises 'Tensor "
            "type unknown' for a tuple -- unpack it first: packed, ps = pack(...)"
        )


@dataclass(frozen=True)
class TupleInput(Detail):
    code, kind = "SHP111", "tuple-input"
    op: str

    def render(self) -> str:
        return (
            f"einops.{self.op} accepts a tensor or a list of tensors, not a tuple (einops raises 'Tensor type "
            "unknown'); pass a list"
        )


@dataclass(frozen=True)
class NoReduction(Detail):
    code, kind = "SHP111", "no-reduction"
    pattern: str

    def render(self) -> str:
        return f"einops.reduce({self.pattern!r}) is called without a reduction"


@dataclass(frozen=True)
class BarePackedShape(Detail):
    code, kind = "SHP111", "bare-packed-shape"
    index: int

    def render(self) -> str:
        return (
            f"einops.unpack needs packed shapes, one shape (a tuple or list of ints) per output as einops.pack "
            f"returns them, but entry #{self.index} is a bare int: einops tests `-1 in p_shape` for every entry "
            "and raises TypeError (wrap each entry, e.g. [(n,), (m,)])"
        )


@dataclass(frozen=True)
class EinsumPatternFirst(Detail):
    code, kind = "SHP111", "einsum-pattern-first"
    pattern: str

    def render(self) -> str:
        return f"einops.einsum takes the tensors first and the pattern last (got the pattern {self.pattern!r} first)"


# ---- SHP202 axis-length-mismatch: what requires the expected size (the ``requirement`` field) ----------------------


@dataclass(frozen=True)
class Requirement(Rule):
    code, kind = "SHP202", "requirement"
    field = "requirement"
    TEXTS = {
        "annotation": "the annotation requires",
        "unpack-split": "unpack() cannot split it into",
        "unit-axis": "a unit axis needs",
        "anonymous-axis": "the anonymous axis needs",
    }


@dataclass(frozen=True)
class PatternRequires(Detail):
    code, kind = "SHP202", "pattern"
    field = "requirement"
    pattern: str

    def render(self) -> str:
        return f"the pattern {self.pattern!r} requires"


@dataclass(frozen=True)
class PackedShapesTotal(Detail):
    code, kind = "SHP202", "packed-shapes"
    field = "requirement"
    shapes: tuple[tuple[Any, ...], ...]

    def render(self) -> str:
        # sizes as the message writes them everywhere (`n`, `h*w`), not as Python reprs (`Size(n)`); ints print as
        # einops prints the list
        shapes = ", ".join("[" + ", ".join(str(x) for x in s) + "]" for s in self.shapes)
        return f"the packed shapes [{shapes}] add up to"


@dataclass(frozen=True)
class ExpressionValue(Detail):
    code, kind = "SHP202", "expression"
    field = "requirement"
    expression: str

    def render(self) -> str:
        return f"{self.expression} evaluates to"


@dataclass(frozen=True)
class AlreadyBound(Detail):
    """A jaxtyping name bound earlier (``where``: by which argument or value, when known)."""

    code, kind = "SHP202", "bound"
    field = "requirement"
    name: str
    where: str = ""

    def render(self) -> str:
        return f"{self.name!r} is already bound" + (f" by {self.where}" if self.where else "") + " to"


@dataclass(frozen=True)
class VariadicBound(Detail):
    """A variadic ``*name`` whose earlier value the new part contradicts: ``rule`` "bound" (they differ),
    "no-broadcast" (they cannot broadcast), "not-broadcast-to" or "smaller" (with broadcastable ``#*name``)."""

    code, kind = "SHP202", "variadic"
    field = "requirement"
    rule: str
    name: str
    where: str = ""

    def render(self) -> str:
        text = {
            "no-broadcast": f"cannot be broadcast with the existing value of *{self.name}",
            "not-broadcast-to": f"does not broadcast to the existing value of *{self.name}",
            "smaller": f"is smaller than the broadcast with *{self.name}",
            "bound": f"*{self.name} is already bound to",
        }[self.rule]
        return text + (f" (bound by {self.where})" if self.where else "")


# ---- SHP204 incompatible-operands (the einops engine's kinds; framework ops add theirs) -------------------------


@dataclass(frozen=True)
class AxisSizes(Detail):
    """One axis with two sizes that must agree (einsum operands, a repeated einsum letter, stacked lists, pack)."""

    code, kind = "SHP204", "axis-sizes"
    rule: str  # "operands" | "repeated" | "list-elements" | "pack-outer"
    axis: str
    left: Any
    right: Any
    index: int = 0  # the operand (repeated) or list element (list-elements)

    def render(self) -> str:
        a, b = self.left, self.right
        if self.rule == "operands":
            return f"axis {self.axis!r} has sizes {a} and {b}"
        if self.rule == "repeated":
            return f"axis {self.axis!r} repeats in operand #{self.index} with sizes {a} and {b}"
        if self.rule == "list-elements":
            return f"list elements have sizes {a} and {b} (element #{self.index})"
        return f"tensors to pack differ outside '*': {a} and {b}"


@dataclass(frozen=True)
class ListRanks(Detail):
    code, kind = "SHP204", "list-ranks"
    index: int
    rank: int
    first_rank: int

    def render(self) -> str:
        return f"list element #{self.index} has {self.rank} dimensions, element #0 has {self.first_rank}"


@dataclass(frozen=True)
class PackZeroElements(Detail):
    code, kind = "SHP204", "pack-zero"
    index: int

    def render(self) -> str:
        return f"tensor #{self.index} has zero elements; -1 cannot be inferred"


@dataclass(frozen=True)
class SummedEllipsis(Detail):
    """An einsum whose ellipsis dimensions are not in the output (``framework``: who raises, when not einops)."""

    code, kind = "SHP204", "summed-ellipsis"
    dims: int
    framework: str = ""

    def render(self) -> str:
        text = f"the ellipsis covers {self.dims} dimension(s) but the output has no '...'"
        return text + (f" ({self.framework} raises; torch and jax sum them)" if self.framework else "")


def _shape(shape: Sequence[Any]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")"


Shape = tuple[Any, ...]  # sizes (ints or symbolic sizes) as the analysis knows them


@dataclass(frozen=True)
class Broadcast(Detail):
    """Elementwise operands whose sizes differ, neither 1, on ``axis`` (counted from the right, 1 = last)."""

    code, kind = "SHP204", "broadcast"
    left: Shape
    right: Shape
    axis: int
    left_size: Any
    right_size: Any

    def render(self) -> str:
        return (
            f"shapes {_shape(self.left)} and {_shape(self.right)} cannot broadcast: "
            f"axis {self.axis} has {self.left_size} against {self.right_size}"
        )


@dataclass(frozen=True)
class InPlace(Detail):
    """``x += y`` (``&=``, ``*=``, ...) on a torch tensor or numpy array changes ``x`` in place: the operands must
    broadcast to ``x``'s own shape (torch: "output with shape ... doesn't match the broadcast shape ...", numpy:
    "non-broadcastable output operand"). ``axis`` counts from the right (1 = last); 0 when the broadcast has more axes
    than ``x`` (``left_size`` and ``right_size`` are then the two ranks)."""

    code, kind = "SHP204", "in-place"
    left: Shape
    right: Shape
    result: Shape
    axis: int
    left_size: Any
    right_size: Any

    def render(self) -> str:
        head = (
            f"an in-place operation keeps the shape {_shape(self.left)}, but the operands broadcast to "
            f"{_shape(self.result)}"
        )
        if self.axis == 0:
            return f"{head}: {self.right_size} axes against {self.left_size}"
        # counted from the left, from 0, as the broadcast messages count (``axis`` counts from the right)
        return f"{head}: axis {len(self.left) - self.axis} has {self.left_size} against {self.right_size}"


@dataclass(frozen=True)
class MatmulInner(Detail):
    code, kind = "SHP204", "matmul-inner"
    left: Shape
    right: Shape
    left_size: Any
    right_size: Any

    def render(self) -> str:
        return (
            f"inner dimensions differ: {_shape(self.left)} @ {_shape(self.right)} "
            f"contracts {self.left_size} with {self.right_size}"
        )


@dataclass(frozen=True)
class MatmulBatch(Detail):
    code, kind = "SHP204", "matmul-batch"
    left_batch: Shape
    right_batch: Shape

    def render(self) -> str:
        return f"batch dimensions {_shape(self.left_batch)} and {_shape(self.right_batch)} cannot broadcast"


@dataclass(frozen=True)
class LinalgSolve(Detail):
    """``linalg.solve(a, b)`` that fails: ``rule`` is "square" (a is not square), "rows" (b's rows are not a's
    columns; ``stacked`` when numpy >= 2 / JAX >= 0.5 read a b of 2 or more dimensions as a stack of matrices) or
    "batch" (the batch dimensions do not broadcast)."""

    code, kind = "SHP204", "solve"
    rule: str
    a: Shape
    b: Shape
    left_size: Any = None
    right_size: Any = None
    stacked: bool = False

    def render(self) -> str:
        if self.rule == "square":
            return f"the matrix {_shape(self.a)} is not square ({self.left_size} rows, {self.right_size} columns)"
        if self.rule == "batch":
            return f"batch dimensions of {_shape(self.a)} and {_shape(self.b)} cannot broadcast"
        text = (
            f"{_shape(self.a)} has {self.left_size} columns but the right-hand side {_shape(self.b)} has "
            f"{self.right_size} rows"
        )
        if self.stacked:
            text += (
                " (a right-hand side of 2 or more dimensions is a stack of matrices since numpy 2.0 and JAX 0.5;"
                " for a batch of vectors, solve b[..., None] and drop the last axis, or vmap the solve)"
            )
        return text


@dataclass(frozen=True)
class StubArgument(Detail):
    """An argument that contradicts the bundled stub's annotation of ``param`` (``cause``: the matcher's finding)."""

    code, kind = "SHP204", "stub-argument"
    param: str
    annotation: str
    cause: str
    cause_fields: tuple[tuple[str, Any], ...]

    def render(self) -> str:
        from .registry import get

        quoted = get(self.cause).template.format(**dict(self.cause_fields))
        return f"argument {self.param!r} does not fit the stub signature {self.param}: {self.annotation}: {quoted}"


@dataclass(frozen=True)
class LinearFeatures(Detail):
    code, kind = "SHP204", "linear-features"
    input: Shape
    weight: Shape
    in_features: Any

    def render(self) -> str:
        return (
            f"input {_shape(self.input)} has {self.input[-1]} features on its last axis, "
            f"the weight {_shape(self.weight)} takes {self.in_features}"
        )


@dataclass(frozen=True)
class AttentionMismatch(Detail):
    """``pair``: "query-key" (last axes), "key-value" (sequence axes), "mask" (``left_size`` the attention mask's
    shape, ``right_size`` the attention weights' (*batch, L, S) it does not broadcast with), or "mask-rank" (haiku's
    ``MultiHeadAttention`` wants a mask of its logits' rank: ``left_size`` the mask's shape, ``right_size`` the logits'
    rank)."""

    code, kind = "SHP204", "attention"
    pair: str
    left_size: Any
    right_size: Any
    query: Shape
    key: Shape
    value: Shape

    def render(self) -> str:
        if self.pair == "mask-rank":
            return (
                f"mask {_shape(self.left_size)} has rank {len(self.left_size)}, the attention logits "
                f"(*batch, heads, query length, key length) rank {self.right_size}: hk.MultiHeadAttention raises "
                f"unless they match ({_shape(self.query)}, {_shape(self.key)}, {_shape(self.value)})"
            )
        if self.pair == "mask":
            return (
                f"mask {_shape(self.left_size)} does not broadcast with the attention weights "
                f"{_shape(self.right_size)} ({_shape(self.query)}, {_shape(self.key)}, {_shape(self.value)})"
            )
        what, axis = (
            ("query and key", "last axis") if self.pair == "query-key" else ("key and value", "sequence axis (-2)")
        )
        return (
            f"{what} differ on their {axis}: {self.left_size} vs {self.right_size} "
            f"({_shape(self.query)}, {_shape(self.key)}, {_shape(self.value)})"
        )


@dataclass(frozen=True)
class ConcatRanks(Detail):
    code, kind = "SHP204", "concat-ranks"
    shapes: tuple[Shape, ...]

    def render(self) -> str:
        return "operands have different ranks: " + ", ".join(_shape(s) for s in self.shapes)


@dataclass(frozen=True)
class ConcatAxis(Detail):
    """Operands of cat/stack that differ on an axis other than the joined one (``other``: the first that differs)."""

    code, kind = "SHP204", "concat-axis"
    axis: int
    first: Shape
    other: Shape

    def render(self) -> str:
        return (
            f"axis {self.axis} differs between operands: {self.first[self.axis]} vs {self.other[self.axis]} "
            f"({_shape(self.first)} and {_shape(self.other)})"
        )


@dataclass(frozen=True)
class LossTarget(Detail):
    """A loss whose input and target differ: on ``axis`` (same rank), or so that they cannot broadcast (axis -1)."""

    code, kind = "SHP204", "loss-target"
    input: Shape
    target: Shape
    axis: int = -1

    def render(self) -> str:
        head = f"input {_shape(self.input)} and target {_shape(self.target)}"
        if self.axis < 0:
            return head + " cannot broadcast"
        return (
            head + f" differ on axis {self.axis} ({self.input[self.axis]} vs {self.target[self.axis]}); the loss "
            "would broadcast (or fail) instead of comparing element by element"
        )


@dataclass(frozen=True)
class ClassTarget(Detail):
    """A class loss (``F.cross_entropy`` / ``F.nll_loss``) whose batched input and target have different first
    (batch) axes."""

    code, kind = "SHP204", "class-target"
    input: Shape
    target: Shape

    def render(self) -> str:
        return (
            f"input {_shape(self.input)} and target {_shape(self.target)} have different batch sizes "
            f"({self.input[0]} vs {self.target[0]}): torch raises"
        )


@dataclass(frozen=True)
class ClassIndex(Detail):
    """A class loss whose index target surely holds ``index``, not below the input's number of ``classes`` (and not
    its ``ignore_index``): torch raises "Target 7 is out of bounds" (``torch.arange(n)`` labels of a contrastive loss
    whose logits have fewer columns than rows)."""

    code, kind = "SHP204", "class-index"
    classes: Any
    index: Any

    def render(self) -> str:
        return f"the target holds the class index {self.index}, out of range for {self.classes} classes"


@dataclass(frozen=True)
class ClassTargetShape(Detail):
    """A class loss whose target (not of the input's shape, so class indices) is not the input's shape without the
    class axis 1 (``expected``)."""

    code, kind = "SHP204", "class-target-shape"
    input: Shape
    target: Shape
    expected: Shape

    def render(self) -> str:
        return (
            f"input {_shape(self.input)} has its {self.input[1]} classes on axis 1, so a target of class indices must "
            f"have shape {_shape(self.expected)}, not {_shape(self.target)} (classes on the last axis: move them to "
            "axis 1)"
        )


@dataclass(frozen=True)
class CtcLengths(Detail):
    """``F.ctc_loss`` whose ``input_lengths`` / ``target_lengths`` (``which``) have ``size`` entries, not one per
    batch entry of the time-major (T, N, C) log-probs of ``shape``."""

    code, kind = "SHP204", "ctc-lengths"
    which: str
    shape: Shape
    size: Any

    def render(self) -> str:
        return (
            f"{self.which} has {self.size} entries but the log-probs {_shape(self.shape)} are read as time-major "
            f"(T, N, C) with batch N={self.shape[1]}: torch raises"
        )


@dataclass(frozen=True)
class ClassWeight(Detail):
    """A class loss (``F.cross_entropy`` / ``F.nll_loss``) whose 1-d ``weight`` has another size than the input's
    class axis (axis 1; axis 0 of an unbatched input)."""

    code, kind = "SHP204", "class-weight"
    input: Shape
    weight: Shape
    classes: Any

    def render(self) -> str:
        axis = 1 if len(self.input) >= 2 else 0
        return (
            f"weight of shape {_shape(self.weight)} is not one per class: the input {_shape(self.input)} has "
            f"{self.classes} classes on axis {axis}"
        )


@dataclass(frozen=True)
class PaddingMask(Detail):
    """``nn.MultiheadAttention``'s ``key_padding_mask`` whose shape is not (batch, source length) -- (source length)
    for an unbatched query; ``batch_first``: how the layer reads its inputs (None: an unbatched query)."""

    code, kind = "SHP204", "padding-mask"
    mask: Shape
    expected: Shape
    batch_first: bool | None

    def render(self) -> str:
        text = f"key_padding_mask of shape {_shape(self.mask)} is not (batch, source length) = {_shape(self.expected)}"
        if self.batch_first is None:
            return f"key_padding_mask of shape {_shape(self.mask)} is not (source length,) = {_shape(self.expected)}"
        if not self.batch_first:
            text += " (batch_first=False: inputs are (length, batch, features), so the batch is their second axis)"
        return text


@dataclass(frozen=True)
class AttnMask(Detail):
    """An attention's ``attn_mask`` (a transformer layer's ``tgt_mask`` / ``src_mask`` / ``memory_mask``) whose shape
    is not (query length, key length), or (batch * heads, query length, key length) for a 3-D one."""

    code, kind = "SHP204", "attn-mask"
    mask: Shape
    expected: Shape

    def render(self) -> str:
        what = (
            "(query length, key length)" if len(self.expected) == 2 else "(batch * num_heads, query length, key length)"
        )
        return f"attn_mask of shape {_shape(self.mask)} is not {what} = {_shape(self.expected)}"


@dataclass(frozen=True)
class LayerInput(Detail):
    """A layer given an input it cannot take: the layer's class and parameter (``param`` empty: ``value`` is the
    layer's positional shape, LayerNorm), what was found (``found``: "last-axis" | "channels" | "shape" | "scalar", an
    equinox Embedding given an array of indices | "vector", an equinox Linear given a matrix | "hidden-last-axis", a recurrent cell's state | "hidden-shape", an
    nn.LSTM / GRU / RNN's initial state, ``value`` the shape it must have) and its size;
    ``input``: the input's shape when shown; ``sequential``: the input is the previous layer's output."""

    code, kind = "SHP204", "layer-input"
    layer: str
    param: str
    value: Any
    found: str
    size: Any = None
    input: Shape | None = None
    sequential: bool = False
    exact: bool = False  # an equinox layer: one example, x.shape must be the layer's shape

    def render(self) -> str:
        if self.found == "scalar":
            return (
                f"{self.layer} takes one scalar index, not an array of shape {_shape(self.input or ())} "
                "(jax.vmap the layer over the indices)"
            )
        if self.found == "vector":  # an equinox Linear given more than one axis: weight @ x contracts axis -2
            return (
                f"{self.layer}({self.param}={self.value}) takes one vector, not an input of shape "
                f"{_shape(self.input or ())}: weight @ x contracts its axis -2 ({self.size}) with {self.param}, then "
                "adds the bias to the last axis (equinox layers see no batch axis: jax.vmap the layer over the "
                "leading axes)"
            )
        if self.exact and len(self.input or ()) != len(self.value):
            return (
                f"{self.layer}({', '.join(map(str, self.value))}) takes one example of exactly that shape, not "
                f"{_shape(self.input or ())} (equinox layers see no batch axis: jax.vmap the layer over the leading axes)"
            )
        head = (
            f"{self.layer}({self.param}={self.value})"
            if self.param
            else f"{self.layer}({', '.join(map(str, self.value))})"
        )
        if self.sequential:
            what = f"whose last axis is {self.size}" if self.found == "last-axis" else f"which has {self.size} channels"
            return f"{head} cannot take the previous layer's output, {what}, in this nn.Sequential"
        if self.found == "shape":
            return f"{head} cannot take an input of shape {_shape(self.input or ())}"
        if self.found == "hidden-shape":  # an nn.LSTM / GRU / RNN's initial state: torch checks its whole shape
            return (
                f"{self.layer}({self.param}) expects an initial state of shape {_shape(self.value)}, "
                f"not {_shape(self.input or ())}"
            )
        if self.found == "hidden-last-axis":  # a recurrent cell's state
            shown = f" (state shape {_shape(self.input)})" if self.input is not None else ""
            return f"{head} cannot take a hidden state whose last axis is {self.size}{shown}"
        what = f"whose last axis is {self.size}" if self.found == "last-axis" else f"with {self.size} channels"
        shown = f" (input shape {_shape(self.input)})" if self.input is not None else ""
        return f"{head} cannot take an input {what}{shown}"


@dataclass(frozen=True)
class KernelTooLarge(Detail):
    """A convolution whose kernel (dilated: ``dilation * (kernel - 1) + 1`` positions) spans more than the input's
    spatial axis ``axis`` has, padding included: torch raises "Kernel size can't be greater than actual input size"."""

    code, kind = "SHP204", "kernel-size"
    layer: str
    axis: int
    size: int
    padded: int
    span: int
    input: Shape

    def render(self) -> str:
        padded = f" ({self.padded} with the padding)" if self.padded != self.size else ""
        return (
            f"{self.layer}'s kernel spans {self.span} positions on axis {self.axis}, more than the input's "
            f"{self.size}{padded} (input shape {_shape(self.input)})"
        )


@dataclass(frozen=True)
class EmbeddingIndex(Detail):
    """An ``nn.Embedding`` given indices one of which is surely ``index`` >= ``num_embeddings`` (``torch.arange(0,
    t)`` with t longer than the table): torch raises "index out of range in self"."""

    code, kind = "SHP204", "embedding-index"
    num_embeddings: Any
    index: Any

    def render(self) -> str:
        return (
            f"the indices hold {self.index}, out of range for num_embeddings={self.num_embeddings} "
            f"(indices must be below {self.num_embeddings})"
        )


@dataclass(frozen=True)
class IndexBounds(Detail):
    """An integer index surely outside its axis (``x[:, :, H * r, W * r]`` of an output exactly ``H * r`` high): torch
    and numpy raise IndexError ("index 128 is out of bounds for dimension 2 with size 128"); jax clamps instead."""

    code, kind = "SHP204", "index-bounds"
    index: Any
    axis: int
    size: Any
    shape: Any

    def render(self) -> str:
        return (
            f"index {self.index} is out of bounds for axis {self.axis} of size {self.size} "
            f"(shape {_shape(self.shape)}; an index must lie in [-{self.size}, {self.size}))"
        )


@dataclass(frozen=True)
class IndexCount(Detail):
    """More indices than the array has axes (``x[:, :, 0]`` of a 2-d tensor): each integer and each slice takes an
    axis of its own (``None`` and ``...`` take none), and torch, numpy and JAX raise IndexError ("too many indices for
    tensor of dimension 2"). ``count``: the indices that surely take an axis."""

    code, kind = "SHP204", "index-count"
    count: int
    rank: int
    shape: Any

    def render(self) -> str:
        return (
            f"{self.count} indices for an array of {self.rank} dimensions (shape {_shape(self.shape)}): each integer "
            "and each slice takes an axis of its own"
        )


@dataclass(frozen=True)
class DimRange(Detail):
    """A dimension argument outside the array's axes (``x.sum(dim=2)`` of a 2-d tensor, ``x.size(1)`` of a 1-d one,
    ``x.unsqueeze(3)`` of a 2-d one, ``np.mean(a, axis=2)`` of a 2-d array): torch raises IndexError ("Dimension out
    of range (expected to be in range of [-2, 1], but got 2)"), numpy AxisError and JAX ValueError ("axis 2 is out
    of bounds for array of dimension 2"). ``low`` / ``high``: the values it accepts (a 0-d torch tensor takes 0 and
    -1); ``word``: "dimension" (torch's dim) or "axis" (numpy's and JAX's)."""

    code, kind = "SHP204", "dim-range"
    dim: Any
    rank: Any
    low: Any
    high: Any
    word: str = "dimension"

    def render(self) -> str:
        kind = "a tensor" if self.word == "dimension" else "an array"
        return (
            f"{self.word} {self.dim} is out of range for {kind} of {self.rank} dimensions "
            f"(expected in [{self.low}, {self.high}])"
        )


@dataclass(frozen=True)
class LayerArguments(Detail):
    """A layer whose constructor rejects its own sizes: ``value`` (the parameter ``param``) must be divisible by
    ``by`` (the parameter ``by_param``), as ``nn.GroupNorm(num_groups, num_channels)`` and
    ``nn.MultiheadAttention(embed_dim, num_heads)`` require."""

    code, kind = "SHP204", "layer-arguments"
    layer: str
    param: str
    value: Any
    by_param: str
    by: Any
    raiser: str = "the constructor"  # flax linen's attention checks its sizes when called: "the call"

    def render(self) -> str:
        return f"{self.param}={self.value} is not divisible by {self.by_param}={self.by}: {self.raiser} raises"


@dataclass(frozen=True)
class PadArguments(Detail):
    """A padding argument the operation rejects whatever the sizes: ``F.pad``'s flat tuple of an odd length
    (``rule`` "odd") or longer than two per input axis ("long", ``rank`` the input's); ``lax.reduce_window`` /
    ``lax.conv_general_dilated`` padding that is not one (low, high) pair per window axis ("pairs": ``count``
    entries for ``axes`` axes, or "pair": entry ``index`` has ``length`` values, not 2); ``np.pad`` / ``jnp.pad``'s
    ``pad_width`` of a ``shape`` that does not broadcast to (``count``, 2) ("width", ``count`` the input's rank)."""

    code, kind = "SHP204", "pad-arguments"
    rule: str
    count: int
    axes: int | None = None
    index: int = -1
    length: int = 2
    shape: tuple[int, ...] = ()

    def render(self) -> str:
        if self.rule == "width":
            return (
                f"pad_width of shape {self.shape} does not broadcast to ({self.count}, 2), one (before, after) pair "
                f"per axis of the {self.count}-d input"
            )
        if self.rule == "odd":
            return f"a padding tuple of {self.count} values (an odd number) cannot be read as (before, after) pairs"
        if self.rule == "long":
            return (
                f"a padding tuple of {self.count} values pads {self.count // 2} axes, "
                f"but the input has only {self.axes}"
            )
        if self.rule == "pair":
            return f"padding entry {self.index} has {self.length} values, not a (low, high) pair"
        return f"{self.count} (low, high) padding pairs for {self.axes} window axes"


@dataclass(frozen=True)
class ResizeArguments(Detail):
    """``F.interpolate`` / ``nn.Upsample`` given a ``size`` or ``scale_factor`` sequence (``arg``) of ``count``
    entries for an input (N, C, *spatial) of ``shape`` with another number of spatial axes."""

    code, kind = "SHP204", "resize-arguments"
    arg: str
    count: int
    shape: Shape

    def render(self) -> str:
        n = len(self.shape) - 2
        return (
            f"a {self.arg} of {self.count} entries for the input {_shape(self.shape)}, which has {n} spatial "
            f"{'axis' if n == 1 else 'axes'} after (N, C): torch raises whatever the sizes"
        )


@dataclass(frozen=True)
class ReshapeElements(Detail):
    """reshape/view to a target whose element count cannot match: ``unknown`` lists the -1 positions of the target;
    with them, ``known`` (the product of the given sizes) does not divide ``total``."""

    code, kind = "SHP204", "reshape"
    op: str
    shape: Shape
    total: Any
    target: Shape
    unknown: tuple[int, ...] = ()
    known: Any = None
    target_total: Any = None

    def render(self) -> str:
        head = f"cannot {self.op} {_shape(self.shape)} ({self.total} elements) into "
        if self.unknown:
            target = "(" + ", ".join("-1" if i in self.unknown else str(s) for i, s in enumerate(self.target)) + ")"
            return head + f"{target}: {self.total} is not divisible by {self.known}"
        return head + f"{_shape(self.target)} ({self.target_total} elements)"


@dataclass(frozen=True)
class ViewStrides(Detail):
    """torch's ``view`` of a tensor whose memory layout is known (a transpose or permute of a contiguous one) into a
    shape one of whose axes would span memory that is not one evenly strided block: torch raises whatever the values
    ("view size is not compatible with input tensor's size and stride"); ``reshape`` copies instead."""

    code, kind = "SHP204", "view-strides"
    shape: Shape
    strides: tuple[int, ...]
    target: Shape

    def render(self) -> str:
        return (
            f"cannot view {_shape(self.shape)} with strides {tuple(self.strides)} (a transposed or permuted "
            f"tensor, not contiguous) as {_shape(self.target)}: an axis of the result would merge or split axes that "
            "are not adjacent in memory; use .reshape(...) or .contiguous().view(...)"
        )


@dataclass(frozen=True)
class NegativeSize(Detail):
    """An array constructor (zeros, ones, empty, full, rand, randn, random samplers) given a negative size: torch,
    numpy and jax all raise, whatever the other sizes."""

    code, kind = "SHP204", "negative-size"
    shape: Shape
    axis: int

    def render(self) -> str:
        return f"cannot make an array of shape {_shape(self.shape)}: axis {self.axis} has the negative size {self.shape[self.axis]}"


@dataclass(frozen=True)
class ExpandAxis(Detail):
    code, kind = "SHP204", "expand"
    shape: Shape
    target: Shape
    axis: int
    size: Any

    def render(self) -> str:
        return f"cannot expand {_shape(self.shape)} to {_shape(self.target)}: axis {self.axis} has {self.size}, which is not 1"


@dataclass(frozen=True)
class UpdateSlice(Detail):
    """``lax.dynamic_update_slice(operand, update, start_indices)``: the update must have the operand's rank and fit
    inside it on every axis (jax raises otherwise). ``axis`` -1: the ranks differ (``size`` and ``limit`` are the
    two ranks)."""

    code, kind = "SHP204", "update_slice"
    update: Shape
    operand: Shape
    axis: int
    size: Any
    limit: Any

    def render(self) -> str:
        head = f"an update of shape {_shape(self.update)} cannot be written into an operand of shape {_shape(self.operand)}"
        if self.axis < 0:
            return f"{head}: the update has {self.size} axes, the operand {self.limit}"
        return f"{head}: axis {self.axis} has {self.size}, more than the operand's {self.limit}"


@dataclass(frozen=True)
class SqueezeAxis(Detail):
    code, kind = "SHP204", "squeeze"
    shape: Shape
    axis: int
    size: Any

    def render(self) -> str:
        return f"cannot squeeze axis {self.axis} of {_shape(self.shape)}: it has {self.size}, which is not 1"


@dataclass(frozen=True)
class AttentionBatch(Detail):
    """``nn.MultiheadAttention`` called on a batched query, key and value whose batch axes (the first with
    ``batch_first=True``, else the second) differ: ``left`` / ``right`` name the two inputs."""

    code, kind = "SHP204", "attention-batch"
    left: str
    right: str
    left_size: Any
    right_size: Any
    left_shape: Shape
    right_shape: Shape
    batch_first: bool

    def render(self) -> str:
        axis = "first" if self.batch_first else "second"
        return (
            f"the {self.left} {_shape(self.left_shape)} and the {self.right} {_shape(self.right_shape)} have batches of "
            f"{self.left_size} and {self.right_size} (their {axis} axes, batch_first={self.batch_first})"
        )


@dataclass(frozen=True)
class ItemElements(Detail):
    """``x.item()`` of a tensor whose element count is known to be other than one."""

    code, kind = "SHP204", "item-elements"
    shape: Shape
    count: Any

    def render(self) -> str:
        return f"a tensor of shape {_shape(self.shape)} has {self.count} elements; only one converts to a Python number"


@dataclass(frozen=True)
class StoreShape(Detail):
    """``x[index] = value``: a value that cannot broadcast to the shape of the region it is stored into (numpy and
    torch drop the value's leading axes of size 1 first). ``axis`` is the region's axis (from the left); -1 when the
    value has more axes than the region (``value_size`` and ``region_size`` are then the two ranks)."""

    code, kind = "SHP204", "store"
    value: Shape
    region: Shape
    axis: int
    value_size: Any
    region_size: Any

    def render(self) -> str:
        head = f"a value of shape {_shape(self.value)} cannot be stored into a region of shape {_shape(self.region)}"
        if self.axis < 0:
            return f"{head}: it has {self.value_size} axes after its leading 1s, the region {self.region_size}"
        return f"{head}: axis {self.axis} has {self.value_size} against {self.region_size}"


@dataclass(frozen=True)
class MaskShape(Detail):
    """``x[mask]``: a boolean mask whose sizes differ from the axes of ``x`` it covers (numpy: "boolean index did not
    match indexed array along axis 0", torch: "The shape of the mask ... does not match the shape of the indexed
    tensor"). ``axis`` is the first axis that differs."""

    code, kind = "SHP204", "mask-shape"
    mask: Shape
    indexed: Shape
    axis: int
    mask_size: Any
    indexed_size: Any

    def render(self) -> str:
        return (
            f"a boolean mask of shape {_shape(self.mask)} does not fit the array of shape {_shape(self.indexed)}: "
            f"axis {self.axis} has {self.mask_size} in the mask against {self.indexed_size}"
        )


@dataclass(frozen=True)
class VmapAxes(Detail):
    """``jax.vmap(f, in_axes)(...)`` whose mapped axes have different sizes (jax: "vmap got inconsistent sizes for
    array axes to be mapped"; a size of 1 is not broadcast): argument #``arg`` on ``axis`` against the first mapped
    argument, #``first`` on ``first_axis``. ``scanned``: the arrays of ``jax.lax.scan``'s ``xs`` instead, each
    scanned over its leading axis (jax: "scan got values with different leading axis sizes"), ``xs[first]`` and
    ``xs[arg]``."""

    code, kind = "SHP204", "vmap-axes"
    first: int
    first_axis: int
    first_shape: Shape
    arg: int
    axis: int
    shape: Shape
    scanned: bool = False

    def render(self) -> str:
        a, b = self.first_shape[self.first_axis], self.shape[self.axis]
        if self.scanned:
            return (
                f"the arrays scanned over have leading axes of different lengths: xs[{self.first}] "
                f"{_shape(self.first_shape)} has {a}, xs[{self.arg}] {_shape(self.shape)} has {b}"
            )
        return (
            f"mapped axes differ: argument #{self.first} {_shape(self.first_shape)} is mapped over axis "
            f"{self.first_axis} ({a}), argument #{self.arg} {_shape(self.shape)} over axis {self.axis} ({b})"
        )


@dataclass(frozen=True)
class ScanCarry(Detail):
    """``jax.lax.scan(f, init, ...)`` whose body returns a carry component of another shape than the one it was given
    (jax: "scan body function carry input and carry output must have equal types"): ``component`` names it
    (``carry``, ``carry[1]``...), ``given`` the shape of ``init`` there, ``returned`` the body's."""

    code, kind = "SHP204", "scan-carry"
    component: str
    given: Shape
    returned: Shape

    def render(self) -> str:
        return (
            f"the scan body returns {self.component} of shape {_shape(self.returned)}, but was given "
            f"{_shape(self.given)} (the carry must keep its shape)"
        )


@dataclass(frozen=True)
class StateDictSize(Detail):
    """``model.load_state_dict(sd)`` given an entry whose tensor has another shape than the model's parameter or
    buffer of that name (torch: "size mismatch for <key>: copying a param with shape ... from checkpoint, the shape in
    current model is ...", raised whether ``strict`` or not)."""

    code, kind = "SHP204", "state-dict-size"
    key: str
    given: Shape
    expected: Shape

    def render(self) -> str:
        return (
            f"size mismatch for {self.key!r}: the state dict's tensor has shape "
            f"{_shape(self.given)}, the model's {_shape(self.expected)}"
        )


@dataclass(frozen=True)
class IndexShape(Detail):
    """torch's ``gather`` / ``index_add`` given an index or a source (``operand``) the op rejects, ``dim`` being the
    indexed axis of the input: ``rule`` "rank" (the operand has another number of dimensions than the input),
    "larger" (gather's index is larger than the input on ``axis``), "differs" (index_add's source differs from the
    input on ``axis``), "count" (index_add's index, ``other``, has another number of entries than the source, ``input``
    here, on ``dim``), "vector" (index_add's index has 2 or more dimensions)."""

    code, kind = "SHP204", "index-shape"
    rule: str
    operand: str
    input: Shape
    other: Shape
    dim: int
    axis: int = -1

    def render(self) -> str:
        if self.rule == "rank":
            return (
                f"the {self.operand} {_shape(self.other)} must have as many dimensions as the input "
                f"{_shape(self.input)}"
            )
        if self.rule == "larger":
            return (
                f"the {self.operand} {_shape(self.other)} is larger than the input {_shape(self.input)} on axis "
                f"{self.axis} ({self.other[self.axis]} > {self.input[self.axis]}); only axis {self.dim} may be larger"
            )
        if self.rule == "differs":
            return (
                f"the {self.operand} {_shape(self.other)} must match the input {_shape(self.input)} except on axis "
                f"{self.dim}: axis {self.axis} has {self.other[self.axis]} vs {self.input[self.axis]}"
            )
        if self.rule == "count":
            return (
                f"the index {_shape(self.other)} has {self.other[0] if self.other else 1} entries but the source "
                f"{_shape(self.input)} has {self.input[self.dim]} on axis {self.dim}"
            )
        return f"the {self.operand} {_shape(self.other)} must be a vector (one dimension)"


@dataclass(frozen=True)
class SplitSizes(Detail):
    code, kind = "SHP204", "split-sizes"
    sizes: tuple[Any, ...]
    total: Any
    axis: int
    shape: Shape
    size: Any  # the axis's size

    def render(self) -> str:
        return (
            f"the split sizes [{', '.join(map(str, self.sizes))}] sum to {self.total} "
            f"but axis {self.axis} of {_shape(self.shape)} has {self.size}"
        )


@dataclass(frozen=True)
class TopKRange(Detail):
    """``x.topk(k, dim)`` asking for more elements than the axis has."""

    code, kind = "SHP204", "topk-range"
    k: Any
    axis: int
    shape: Shape
    size: Any  # the axis's size

    def render(self) -> str:
        return f"k = {self.k} is more than the {self.size} elements of axis {self.axis} of {_shape(self.shape)}"


@dataclass(frozen=True)
class ArraySections(Detail):
    """``np.split`` / ``jnp.split`` into a number of sections that does not divide the axis."""

    code, kind = "SHP204", "array-sections"
    sections: int
    axis: int
    shape: Shape
    size: Any  # the axis's size

    def render(self) -> str:
        return (
            f"{self.sections} sections do not divide axis {self.axis} of {_shape(self.shape)}, which has {self.size} "
            f"(array split does not result in an equal division)"
        )


@dataclass(frozen=True)
class PieceCount(Detail):
    """``a, b, c = x.split(3, dim)`` (or chunk / unbind / np.split): the pieces of an axis of known size are not as
    many as the names they are unpacked into."""

    code, kind = "SHP204", "piece-count"
    how: tuple[Any, ...]  # ("split", size) | ("chunk", n) | ("unbind",) | ("sizes", sizes) | ("sections", n) | ...
    axis: int
    shape: Shape | None  # None: of unknown rank (``axis`` counts from the end when negative)
    size: Any  # the axis's size
    count: int  # the pieces made
    names: str  # how many names take them ("3", or "at least 2" with a starred one)

    def render(self) -> str:
        of = f" of {_shape(self.shape)}" if self.shape is not None else ""
        where = f"axis {self.axis}{of}, which has {self.size},"
        kind, rest = self.how[0], self.how[1:]
        cut = {
            "split": lambda: f"cutting {where} in pieces of {rest[0]}",
            "chunk": lambda: f"cutting {where} in {rest[0]} chunks",
            "unbind": lambda: f"unbinding {where}",
            "sizes": lambda: f"cutting {where} in pieces of [{', '.join(map(str, rest[0]))}]",
            "sections": lambda: f"cutting {where} in {rest[0]} sections",
            "indices": lambda: f"cutting {where} at [{', '.join(map(str, rest[0]))}]",
        }[kind]()
        return f"{cut} gives {self.count} pieces, but the assignment unpacks them into {self.names} names"


# ---- SHP207 a failing assertion -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AssertionFails(Detail):
    """The code's own ``assert`` on sizes, false here: ``test`` its source, ``values`` the known sizes of the names
    it reads (name, value), ``message`` its message when a string literal. ``raises``: the check is an ``if <test>:
    raise <raises>(...)`` whose test is true here."""

    code, kind = "SHP207", "assertion"
    test: str
    values: tuple[tuple[str, Any], ...] = ()
    message: str | None = None
    raises: str | None = None  # ``if <test>: raise <raises>(...)``: the test is true, so the code raises

    def render(self) -> str:
        shown = f" with {', '.join(f'{k}={v}' for k, v in self.values)}" if self.values else ""
        said = f" ({self.message!r})" if self.message else ""
        if self.raises is not None:
            return f"`if {self.test}: raise {self.raises}` raises: its test is true{shown}{said}"
        return f"`{self.test}` is false{shown}{said}"


# ---- SHP205 / SHP206 annotations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnnotationMismatch(Detail):
    """The annotation matcher's own finding (``cause``: its code, ``cause_fields``: its fields), quoted."""

    code, kind = "SHP205", "annotation"
    also = ("SHP206",)
    cause: str
    cause_fields: tuple[tuple[str, Any], ...]

    def render(self) -> str:
        from .registry import get

        return get(self.cause).template.format(**dict(self.cause_fields))


# ---- SHP110 jaxtyping-annotation ------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnboundExpression(Detail):
    code, kind = "SHP110", "unbound-expression"
    expression: str
    names: tuple[str, ...]

    def render(self) -> str:
        return (
            f"the expression {self.expression!r} uses {', '.join(self.names)}, which no axis of an earlier "
            "annotation binds (jaxtyping evaluates expressions only over axis names already bound; a function "
            "argument of that name is not one)"
        )


@dataclass(frozen=True)
class DimsSyntax(Detail):
    """A shape string jaxtyping rejects: ``jaxtyping_message`` is jaxtyping's own explanation (its words, as
    shapecheck/annotations/dims.py mirrors its grammar), open text like a parser's message."""

    code, kind = "SHP110", "dims"
    jaxtyping_message: str

    def render(self) -> str:
        return self.jaxtyping_message


# ---- SHP301 / SHP302 / SHP303 precision ------------------------------------------------------------------------

FP16_MAX = 65504
FP16_EXACT_INT = 2048
FP16_COUNT_INF = 65520  # the smallest integer float16 rounds to inf
BF16_EXACT_INT = 256


def _fmt_int(n: int) -> str:
    return f"{n:,}"


def _fmt_real(x: float) -> str:
    if x >= 10:
        return f"{round(x):,}"
    if x >= 0.01:
        return f"{x:.2g}"
    return f"{x:.2e}"


def _count_text(count: Any, factors: Sequence[tuple[str | None, Any]]) -> tuple[str, int | None, str]:
    """(count for the message, the integer count if known, parenthesised breakdown or '')."""
    if count is None:
        return "an unknown number of", None, ""
    n = count.as_int()
    named = [(a, s) for a, s in factors if a]
    if n is None:
        return str(count), None, ""
    breakdown = ""
    if named and len(named) == len(factors) and all(s.as_int() is not None for _, s in named):
        names = "*".join(a for a, _ in named)
        values = "*".join(str(s.as_int()) for _, s in named)
        breakdown = f" ({names} = {values})" if len(named) > 1 else f" ({names} = {_fmt_int(n)})"
    elif len(factors) > 1 and all(s.as_int() is not None for _, s in factors):
        breakdown = " (" + "*".join(str(s.as_int()) for _, s in factors) + ")"
    return _fmt_int(n), n, breakdown


def _threshold(n: int | None, count: Any, what: str) -> str:
    if n is not None and n > 0:
        return f"{what} is inf once their mean magnitude exceeds {_fmt_real(FP16_MAX / n)}"
    if count is not None:
        return f"{what} is inf once their mean magnitude exceeds 65,504/({count})"
    return f"{what} is inf once it exceeds 65,504"


def _explain(code: str, kind: str, fw: str | None, n: int | None, count: Any) -> str:
    numpy_like = fw == "numpy"
    if code == "SHP301":
        if kind == "prod":
            if n is not None and n > 0:
                g = FP16_MAX ** (1 / n)
                lo = (2.0**-24) ** (1 / n)
                text = (
                    f": the product is inf once their geometric-mean magnitude exceeds {g:.6g} and 0 once it falls below "
                    f"{lo:.6g}"
                )
            else:
                text = ": the product is inf once it exceeds 65,504 and 0 below 6e-8 (float16's smallest subnormal)"
            if numpy_like:
                text += "; numpy multiplies in float16, rounding every partial product"
            return text
        text = (
            ": "
            + _threshold(n, count, "the result")
            + f"; float16 holds integers exactly only up to {FP16_EXACT_INT:,}"
        )
        if numpy_like:
            text += (
                f"; numpy adds in float16, so along a non-contiguous axis a running sum of ones stalls at "
                f"{FP16_EXACT_INT:,}"
            )
        elif fw in ("torch", "jax"):
            text += f" ({fw} accumulates in float32 but stores the sum in float16)"
        elif fw == "tensorflow":
            text += " (TensorFlow stores the sum in float16; under a mixed_float16 policy too)"
        elif fw == "paddle":
            text += (
                " (Paddle accumulates in float32 but stores the sum in float16; inside paddle.amp.auto_cast "
                "O1 on GPU it runs in float32)"
            )
        return text
    if code == "SHP303":
        if kind == "mean" and fw == "tensorflow":
            gpu = "; on GPU TensorFlow sums in float32 and divides by a float32 count"
            if n is not None and n >= FP16_COUNT_INF:
                return (
                    f": TensorFlow's CPU kernel divides by the count converted to float16, and {_fmt_int(n)} is inf "
                    "in float16: the mean is 0 or NaN on any data" + gpu
                )
            return (
                ": TensorFlow's CPU kernel stores the sum in float16 before dividing: "
                + _threshold(n, count, "the mean")
                + f", and from {FP16_COUNT_INF:,} values on the float16 count is inf (the mean is 0 or NaN on any data)"
                + gpu
            )
        if kind == "mean":
            return (
                ": with dtype=float16 numpy accumulates the sum in float16 (without it numpy's mean of float16 "
                f"accumulates in float32): a running sum of ones stalls at {FP16_EXACT_INT:,} along a non-contiguous "
                "axis and the sum is inf past 65,504"
            )
        if kind == "cumprod":
            text = ": every partial product is stored in float16: inf once one exceeds 65,504, 0 below 6e-8"
        else:
            text = ": every prefix sum is stored in float16: " + _threshold(n, count, "the last one").replace(
                "their", "the values'"
            )
            text += f"; past {FP16_EXACT_INT:,} the stored prefixes are rounded to multiples of 2 or more"
        if numpy_like:
            text += f"; numpy accumulates in float16 itself, so a running sum of ones stalls at {FP16_EXACT_INT:,}"
        elif fw == "tensorflow" and kind == "cumsum":
            text += f"; TensorFlow adds in float16 itself, so a running sum of ones stalls at {FP16_EXACT_INT:,}"
        return text
    # SHP302: bfloat16
    bits = f"bfloat16 keeps 8 significant bits: integers are exact only up to {BF16_EXACT_INT}"
    if kind == "prod":
        return f": {bits} and every factor adds a rounding error of up to 0.4%; bfloat16 does not overflow here"
    if kind in ("cumsum", "cumprod"):
        text = f": every running {'sum' if kind == 'cumsum' else 'product'} is rounded to bfloat16 ({bits})"
    elif numpy_like:
        text = f": the sum is accumulated in bfloat16 ({bits}), so a running sum of ones stalls at {BF16_EXACT_INT}"
    else:
        lib = "jax" if fw == "jax" else "torch"  # (jax.numpy's reductions upcast to float32 alike)
        text = f": {bits}; {lib} accumulates in float32 but rounds the sum to bfloat16 (100,000 ones sum to 99,840)"
        if n is not None and n > BF16_EXACT_INT:
            text = f": {bits}; {lib} accumulates in float32 but rounds the sum of these {_fmt_int(n)} values to bfloat16 (100,000 ones sum to 99,840)"
    return text + "; it does not overflow (bfloat16 has float32's range)" if kind in ("sum", "cumsum") else text


@dataclass(frozen=True)
class Accumulation(Detail):
    """A float16/bfloat16 reduction (``reduction``: sum, prod, cumsum, cumprod, mean) over ``count`` values (``n``
    when it is a number; ``factors``: the axes multiplied, named where the annotation names them): the breakdown of
    the count and what the framework's arithmetic does with them."""

    reduction: str
    framework: str | None
    n: int | None
    count: Any
    factors: tuple[tuple[str | None, Any], ...] = ()

    def render(self) -> str:
        return _count_text(self.count, self.factors)[2] + _explain(
            self.code, self.reduction, self.framework, self.n, self.count
        )


@dataclass(frozen=True)
class Float16Accumulation(Accumulation):
    code, kind = "SHP301", "float16-sum"


@dataclass(frozen=True)
class Bfloat16Accumulation(Accumulation):
    code, kind = "SHP302", "bfloat16-reduction"


@dataclass(frozen=True)
class Float16RunningAccumulation(Accumulation):
    code, kind = "SHP303", "float16-accumulation"


# ---- SHP901 syntax-error (the parsers' and the OS's own messages are open text, in named fields) ----------------


@dataclass(frozen=True)
class ParseFailed(Detail):
    """A parser refused the file: ``parser`` "cpython" (its message is authoritative) or "libcst" (Python accepts
    the file, libcst does not); ``line`` 0 when the parser gives none (CPython's ValueError on NUL bytes)."""

    code, kind = "SHP901", "parse"
    parser: str
    line: int
    parser_message: str

    def render(self) -> str:
        if self.parser == "libcst":
            return f"libcst cannot parse line {self.line} although Python accepts the file: {self.parser_message}"
        if not self.line:
            return self.parser_message
        return f"syntax error at line {self.line}: {self.parser_message}"


@dataclass(frozen=True)
class TooDeep(Detail):
    code, kind = "SHP901", "too-deep"
    stage: str  # "parse" | "analyse"

    def render(self) -> str:
        return f"source nested too deeply to {self.stage}"


@dataclass(frozen=True)
class Undecodable(Detail):
    """Bytes that are not text in the file's encoding (``byte``/``line`` known), or a bad coding declaration
    (``decoder_message``: the decoder's own words)."""

    code, kind = "SHP901", "undecodable"
    encoding: str = ""
    byte: int = -1
    line: int = 0
    decoder_message: str = ""

    def render(self) -> str:
        if self.byte >= 0:
            return f"cannot decode source: byte 0x{self.byte:02x} at line {self.line} is not valid {self.encoding}"
        return f"cannot decode source ({self.decoder_message})"


@dataclass(frozen=True)
class Unreadable(Detail):
    code, kind = "SHP901", "unreadable"
    os_message: str = ""

    def render(self) -> str:
        return f"cannot read file ({self.os_message})" if self.os_message else "cannot read file"


# ---- SHP903 analysis-budget -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BudgetLimit(Detail):
    code, kind = "SHP903", "limit"
    rule: str  # "steps" | "seconds" | "lines"
    limit: float
    lines: int = 0

    def render(self) -> str:
        if self.rule == "steps":
            return f"more than {int(self.limit):,} analysis steps; the rest of it was not checked"
        if self.rule == "seconds":
            return f"more than {self.limit:g} s of analysis; the rest of it was not checked"
        return f"its body has {self.lines:,} lines, more than the {int(self.limit):,} a function may have; it was not checked"
