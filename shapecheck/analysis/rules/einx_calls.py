"""einx's ``get_at`` (vector-quantize-pytorch's codebook lookups): the output shape of
``get_at('q [c] d, b n q -> q b n d', codebooks, indices)`` from its inputs' shapes.

einx semantics (checked against einx 0.4.3): the first input's expression names its axes with one axis in brackets,
the one indexed; the second input holds the indices, one per position of its axes; an axis named in both inputs must
have one size in both (no broadcasting of 1s: einx raises); each input's rank must equal its expression's number of
axes (einx raises otherwise). The output has the named axes' sizes in the output expression's order. An ellipsis
``...`` stands for the same axes wherever it appears and takes them from the input that has it.

Only this plain form is read: names, one bracketed name in the first input, at most one ellipsis. A call that would
raise gives an unknown result (no finding: these rules only say what a successful call returns).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from ...sizes import Size, Truth, equal
from ..interpret.context import MadeUp
from ..interpret.values import UNKNOWN, BoolV, FloatV, IntV, StrV, TensorV, Value

if TYPE_CHECKING:
    from .registry import OpContext

ELLIPSIS = "..."


def _axes(expr: str) -> list[str] | None:
    out = []
    for tok in expr.split():
        name = tok[1:-1] if tok.startswith("[") and tok.endswith("]") else tok
        if name != ELLIPSIS and not name.isidentifier():
            return None  # a composition, a number, a bracket over several axes: not this plain form
        out.append(tok)
    return out


def get_at(cx: "OpContext", node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
    if dynamic or kwargs or len(args) != 3 or not isinstance(args[0], StrV):
        return UNKNOWN
    tensor, index = args[1], args[2]
    if not isinstance(tensor, TensorV) or not isinstance(index, TensorV) or tensor.shape is None or index.shape is None:
        return UNKNOWN
    text = args[0].value
    if text.count("->") != 1:
        return UNKNOWN
    lhs, rhs = text.split("->")
    inputs = lhs.split(",")
    if len(inputs) != 2:
        return UNKNOWN
    if "[" in inputs[1]:
        return _get_at_coordinates(cx, node, tensor, index, inputs[0], inputs[1], rhs)
    t_axes, i_axes, o_axes = _axes(inputs[0]), _axes(inputs[1]), _axes(rhs)
    if t_axes is None or i_axes is None or o_axes is None:
        return UNKNOWN
    bracketed = [a for a in t_axes if a.startswith("[")]
    if len(bracketed) != 1 or any(a.startswith("[") for a in i_axes + o_axes):
        return UNKNOWN
    if sum(a == ELLIPSIS for a in t_axes + i_axes) > 1 or o_axes.count(ELLIPSIS) > 1:
        return UNKNOWN
    sizes: dict[str, tuple[Size, ...]] = {}
    for axes, shape in ((t_axes, tensor.shape), (i_axes, index.shape)):
        if ELLIPSIS in axes:
            k = axes.index(ELLIPSIS)
            rest = len(axes) - 1
            if len(shape) < rest:
                return UNKNOWN
            got = {ELLIPSIS: tuple(shape[k : len(shape) - (rest - k)])}
            plain = axes[:k] + axes[k + 1 :]
            dims = shape[:k] + shape[len(shape) - (rest - k) :]
        else:
            if len(shape) != len(axes):
                return UNKNOWN  # einx raises: no result to give
            got, plain, dims = {}, axes, shape
        for name, size in zip(plain, dims):
            if name.startswith("["):
                continue
            got[name] = (size,)
        for name, value in got.items():
            if name in sizes:
                if len(sizes[name]) != len(value) or any(
                    equal(a, b) is Truth.FALSE for a, b in zip(sizes[name], value)
                ):
                    return UNKNOWN  # einx raises on an axis of two sizes
            else:
                sizes[name] = value
    out: list[Size] = []
    for name in o_axes:
        if name not in sizes:
            return UNKNOWN
        out.extend(sizes[name])
    made_up = next((t.origin for t in (tensor, index) if isinstance(t.origin, MadeUp)), None)
    origin = made_up if made_up is not None else cx.origin(node, "get_at(...)")
    return TensorV(tuple(out), tensor.dtype, tensor.framework or index.framework, None, origin)


def _bracketed(expr: str) -> list[tuple[str, bool]] | None:
    """``b [h w] c`` as (name, in brackets) pairs; None for a nested, unclosed or empty bracket (a composition's
    parentheses stay in its names, which are then no identifiers)."""
    out: list[tuple[str, bool]] = []
    inside = False
    opened = 0  # how many names came before the open bracket
    for tok in expr.replace("[", " [ ").replace("]", " ] ").split():
        if tok == "[":
            if inside:
                return None
            inside, opened = True, len(out)
        elif tok == "]":
            if not inside or len(out) == opened:
                return None  # (an unopened or an empty bracket)
            inside = False
        else:
            out.append((tok, inside))
    return None if inside else out


def _bracket_axes(expr: str) -> list[tuple[str, bool]] | None:
    """``b h i [j]`` (a reduction's or softmax's expression): its axes as (name, in brackets), each name once and
    some bracketed; None for any other form."""
    axes = _bracketed(expr)
    if not axes or not any(b for _, b in axes):
        return None
    names = [n for n, _ in axes]
    return axes if all(n.isidentifier() for n in names) and len(set(names)) == len(names) else None


def _get_at_coordinates(
    cx: "OpContext", node: cst.Call, tensor: TensorV, index: TensorV, t_expr: str, i_expr: str, o_expr: str
) -> Value:
    """``get_at('b [h w] c, b p [2] -> b p c', x, coords)``: the first input indexed on several bracketed axes, each
    index a vector of that many coordinates along the index's one bracketed axis, written as that number (einx 0.4.3:
    it raises when the number is not the count of bracketed axes, when a rank is not its expression's, or when a
    name has two sizes). Names only, no ellipsis; anything else is not known."""
    t, i, o = _bracketed(t_expr), _bracketed(i_expr), _bracketed(o_expr)
    if t is None or i is None or o is None or any(b for _, b in o):
        return UNKNOWN
    coords = [n for n, b in i if b]
    indexed = [n for n, b in t if b]
    if len(coords) != 1 or not coords[0].isdigit() or int(coords[0]) != len(indexed) or len(indexed) < 2:
        return UNKNOWN
    names = [n for n, _ in t] + [n for n, b in i if not b] + [n for n, _ in o]
    if not all(n.isidentifier() for n in names):
        return UNKNOWN
    assert tensor.shape is not None and index.shape is not None
    if len(tensor.shape) != len(t) or len(index.shape) != len(i):
        return UNKNOWN  # einx raises: no result to give
    k_at = [j for j, (_, b) in enumerate(i) if b][0]
    if equal(index.shape[k_at], Size.const(len(indexed))) is Truth.FALSE:
        return UNKNOWN
    sizes: dict[str, Size] = {}
    for (name, b), size in [*zip(t, tensor.shape), *zip(i, index.shape)]:
        if b:
            continue
        if name in sizes and equal(sizes[name], size) is Truth.FALSE:
            return UNKNOWN
        sizes.setdefault(name, size)
    if not all(n in sizes for n, _ in o):
        return UNKNOWN
    origin = cx.origin(node, "get_at(...)")
    return TensorV(tuple(sizes[n] for n, _ in o), tensor.dtype, tensor.framework or index.framework, None, origin)


# einx functions whose plain forms mean what an einops call means (einx 0.4.3, checked by running both):
# ``rearrange`` / ``id`` with one input, one output, the same names on both sides, each once, compositions of names
# in parentheses: einops.rearrange with the same pattern (einx raises a RankError where einops raises, for the input's
# rank, and an AxisSizeError where a composition cannot be split). A reduction over bracketed names (``sum('b [n]
# d', x)``): einops.reduce dropping them.
_REARRANGES = frozenset({"einx.rearrange", "einx.id"})
_REDUCTIONS = {
    "einx.sum": "sum",
    "einx.mean": "mean",
    "einx.max": "max",
    "einx.min": "min",
    "einx.prod": "prod",
    "einx.any": "any",
    "einx.all": "all",
}
# elementwise along the bracketed axes: the output has the input's shape
_SHAPE_KEEPING = frozenset({"einx.softmax", "einx.log_softmax"})
_NOT_SIZES = frozenset({"backend", "cse", "graph"})


def _plain_side(side: str) -> list[str] | None:
    """The top-level elements of one side of a plain pattern: names and parenthesised groups of names."""
    out: list[str] = []
    for m in re.finditer(r"\(([^()]*)\)|(\S+)", side):
        if m.group(1) is not None:
            inner = m.group(1).split()
            if not inner or not all(n.isidentifier() for n in inner):
                return None
            out.append(f"({' '.join(inner)})")
        elif m.group(2).isidentifier():
            out.append(m.group(2))
        else:
            return None  # an ellipsis, a number, a bracket, a concatenation, a comma: not this plain form
    return out


def _names(elements: list[str]) -> list[str]:
    return [n for e in elements for n in e.strip("()").split()]


def as_einops(
    qual: str, args: list[Value], kwargs: dict[str, Value]
) -> tuple[str, list[Value], dict[str, Value]] | None:
    """The einops call an einx call of a plain form is (``einx.rearrange('b n (h d) -> b h n d', x, h=8)``:
    ``einops.rearrange(x, 'b n (h d) -> b h n d', h=8)``): its name, arguments and axis lengths. None for any other
    form or function."""
    if len(args) != 2 or not isinstance(args[0], StrV) or not isinstance(args[1], TensorV):
        return None
    sizes = {k: v for k, v in kwargs.items() if k not in _NOT_SIZES}
    text = args[0].value
    if qual in _REARRANGES:
        if text.count("->") != 1:
            return None
        left, right = (_plain_side(s) for s in text.split("->"))
        if left is None or right is None:
            return None
        names = _names(left)
        if len(set(names)) != len(names) or sorted(names) != sorted(_names(right)) or not set(sizes) <= set(names):
            return None
        if any(len(_names([e])) - len(set(_names([e])) & set(sizes)) > 1 for e in left):
            # a composition with two names not given (``c h (n b) -> c (n b) h``): einx takes it whole when the
            # output keeps it, where einops cannot split it
            return None
        return "einops.rearrange", [args[1], StrV(text)], sizes
    if qual in _REDUCTIONS:
        if "->" in text or sizes:
            return None
        axes = _bracket_axes(text)
        if axes is None:
            return None
        every = " ".join(n for n, _ in axes)
        kept = " ".join(n for n, b in axes if not b)
        return "einops.reduce", [args[1], StrV(f"{every} -> {kept}"), StrV(_REDUCTIONS[qual])], {}
    return None


def keeps_shape(qual: str, args: list[Value], kwargs: dict[str, Value]) -> Value | None:
    """``einx.softmax('b h i [j]', sim)``: the input when its rank is the pattern's number of axes (each a name, some
    bracketed); None when not that form or not that rank (nothing is reported: the result is not known)."""
    if qual not in _SHAPE_KEEPING or len(args) != 1 + 1 or not isinstance(args[0], StrV):
        return None
    x = args[1]
    if not isinstance(x, TensorV) or x.shape is None or set(kwargs) - _NOT_SIZES:
        return None
    axes = _bracket_axes(args[0].value)
    return x if axes is not None and len(x.shape) == len(axes) else None


# einx's elementwise functions with an explicit output: ``einx.where('b j, b h i j, -> b h i j', mask, sim, value)``
_ELEMENTWISE = frozenset(
    f"einx.{name}"
    for name in (
        "add",
        "subtract",
        "multiply",
        "divide",
        "where",
        "less",
        "less_equal",
        "greater",
        "greater_equal",
        "equal",
        "not_equal",
        "logical_and",
        "logical_or",
        "maximum",
        "minimum",
    )
)
_COMPARISONS = frozenset(
    {"einx.less", "einx.less_equal", "einx.greater", "einx.greater_equal", "einx.equal", "einx.not_equal"}
)


def elementwise(
    cx: "OpContext", node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``einx.add('b h i j, h i j -> b h i j', x, bias)`` and the other elementwise functions, each input's expression
    of names only (empty for a scalar), the output's names those of the inputs: the output's shape, when the call
    succeeds (einx 0.4.3 raises when an input's rank is not its expression's, when a name has two sizes -- a 1 does
    not broadcast -- and when an input's name is missing from the output). None for any other form; nothing is
    reported."""
    if qual not in _ELEMENTWISE or not args or not isinstance(args[0], StrV) or set(kwargs) - _NOT_SIZES:
        return None
    text = args[0].value
    if text.count("->") != 1:
        return None
    lhs, rhs = text.split("->")
    exprs = [e.split() for e in lhs.split(",")]
    out_names = rhs.split()
    if len(exprs) != len(args) - 1 or len(set(out_names)) != len(out_names):
        return None
    sizes: dict[str, Size] = {}
    first: TensorV | None = None
    for names, value in zip(exprs, args[1:]):
        if not all(n.isidentifier() for n in names) or len(set(names)) != len(names):
            return None
        if not isinstance(value, TensorV):
            if names or not isinstance(value, (IntV, FloatV, BoolV)):
                return None
            continue
        if value.shape is None or len(value.shape) != len(names):
            return None
        first = first or value
        for name, size in zip(names, value.shape):
            if name in sizes and equal(sizes[name], size) is Truth.FALSE:
                return None
            sizes.setdefault(name, size)
    if first is None or set(sizes) != set(out_names):
        return None
    dtype = "bool" if qual in _COMPARISONS or qual in ("einx.logical_and", "einx.logical_or") else None
    return TensorV(tuple(sizes[n] for n in out_names), dtype, first.framework, None, cx.origin(node, f"{qual}(...)"))
