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

from typing import TYPE_CHECKING

import libcst as cst

from ...sizes import Size, Truth, equal
from ..interpret.context import MadeUp
from ..interpret.values import UNKNOWN, StrV, TensorV, Value

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
