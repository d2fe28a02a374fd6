"""What exactly is wrong, as data: the ``detail`` field of a finding.

A registry template says what a code reports (``"{op}: {detail}"`` for SHP204); its ``detail`` field is one of the
typed values below, never a sentence written at the call site. Each kind is a frozen dataclass with the facts of
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
    """A field value as JSON data: details become objects, tuples lists, anything else not JSON its text."""
    if isinstance(v, Detail):
        return v.to_json()
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


@dataclass(frozen=True)
class Detail:
    """Base of every detail kind: ``code`` is the registry code it belongs to, ``kind`` its name within it."""

    code: ClassVar[str] = ""
    kind: ClassVar[str] = ""

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
            return (f"einops.pack returns a tuple (packed, packed_shapes), which has no attribute {self.attribute!r} "
                    "(AttributeError) -- unpack it first: packed, ps = pack(...)")
        return (f"einops.pack returns a tuple (packed, packed_shapes), used here as {self.use}; einops raises 'Tensor "
                "type unknown' for a tuple -- unpack it first: packed, ps = pack(...)")


@dataclass(frozen=True)
class TupleInput(Detail):
    code, kind = "SHP111", "tuple-input"
    op: str

    def render(self) -> str:
        return (f"einops.{self.op} accepts a tensor or a list of tensors, not a tuple (einops raises 'Tensor type "
                "unknown'); pass a list")


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
        return (f"einops.unpack needs packed shapes, one shape (a tuple or list of ints) per output as einops.pack "
                f"returns them, but entry #{self.index} is a bare int: einops tests `-1 in p_shape` for every entry "
                "and raises TypeError (wrap each entry, e.g. [(n,), (m,)])")


@dataclass(frozen=True)
class EinsumPatternFirst(Detail):
    code, kind = "SHP111", "einsum-pattern-first"
    pattern: str

    def render(self) -> str:
        return f"einops.einsum takes the tensors first and the pattern last (got the pattern {self.pattern!r} first)"


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
        return text + (f" ({self.framework} raises; only torch sums them)" if self.framework else "")


# ---- SHP205 / SHP206 annotations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnnotationMismatch(Detail):
    """The annotation matcher's own finding (``cause``: its code, ``cause_fields``: its fields), quoted."""

    code, kind = "SHP205", "annotation"
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
        return (f"the expression {self.expression!r} uses {', '.join(self.names)}, which no earlier dimension or "
                "parameter binds (jaxtyping evaluates expressions only over names already bound)")


@dataclass(frozen=True)
class DimsSyntax(Detail):
    """A shape string the jaxtyping grammar rejects: ``message`` is that grammar's own explanation."""

    code, kind = "SHP110", "dims"
    message: str

    def render(self) -> str:
        return self.message


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
