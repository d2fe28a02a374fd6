"""torch / numpy / jax operations: the shape rules the stubs in ``stubs/`` cannot express as plain signatures.

Each rule returns the output value, reports a definite failure, or returns an unknown shape. A rule never guesses:
an argument it cannot read makes the output unknown. This module is the entry point of framework calls (``call``,
``tensor_method``, ``tensor_attribute``, ``tensor_binary``), dispatching through the tables of registry.py, and holds
the rules for casts, elementwise/matmul, reductions and constructors; axis-moving rules live in shape_ops.py,
``torch.nn`` layers in layers.py, TensorFlow / Keras / Paddle / Flax in frameworks.py.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Callable

import libcst as cst

from ...diagnostics import details as D
from ...sizes import Size, Truth, at_least, equal, greater_equal, product
from ..interpret.context import MadeUp, OpSpec, Where, note
from ..interpret.walk import plain_read
from .shapes_bridge import shape_note, shape_text
from ..interpret.values import (
    UNKNOWN,
    contiguous_strides,
    BoolV,
    DtypeV,
    FloatV,
    IntV,
    LayerV,
    ManyV,
    NoneV,
    RefV,
    SeqV,
    StrV,
    TensorV,
    Value,
    same_rank_unknown,
    EXACT_LIMIT,
    MAX_EXACT,
    exact,
    exact_arith,
    known_count,
    exact_scalar,
    exact_values,
    FINFO,
)

if TYPE_CHECKING:
    from ..index.functions import FunctionInfo
    from ..interpret.interpreter import Interpreter

from .ops_common import (
    LAYOUT_KEEPING,
    permuted_layout,
    surely_differ,
    LAYOUT,
    shown_axes,
    spatial_name,
    TIME_MAJOR,
    time_major_use,
    _CASTS,
    _TENSOR_TYPES,
    DTYPE_NAMES,
    BROADCASTING_LOSSES,
    ELEMENTWISE_FUNCS,
    LOSSES,
    RANDOM_SIZED,
    REDUCTIONS,
    SAME_SHAPE,
    dim_out_of_range,
    SIZE_CONSTRUCTORS,
    VARARG_SIZES,
    _dtype_arg,
    _dtype_kw,
    _fill_dtype,
    _framework,
    _ints,
    _norm_dim,
    _op_name,
    _shape_args,
    _sizes,
    _tensor_type_dtype,
    broadcast_shapes,
)
from . import frameworks, layers
from .registry import FRAMEWORK_METHODS, FUNCTIONS, STUB_OVERRIDES, TENSOR_METHODS, OpContext


_X64 = {"float64", "int64", "complex128", "uint64"}
_INTEGRAL = {"int8", "int16", "int32", "int64", "uint8", "bool"}
_TRUE_DIVISION = {"/", "/=", "div", "divide", "true_divide", "atan2", "hypot", "**", "**=", "pow", "power", "lerp"}


def _comparison_mask(interp: "Interpreter", node: cst.BaseExpression | None) -> Value:
    """The mask of ``x.masked_fill(y > 0, v)``: a comparison is no tensor value to the interpreter, but its shape is
    its operands' broadcast (plain names, attributes and literals are looked up again; anything else: unknown)."""
    if type(node) is not cst.Comparison:
        return UNKNOWN
    operands = [node.left] + [c.comparator for c in node.comparisons]
    simple = (cst.Name, cst.Attribute, cst.Integer, cst.Float)
    if not all(isinstance(o, simple) for o in operands):
        return UNKNOWN
    shape: tuple[Size, ...] | None = ()
    fw = None
    for o in operands:
        v = interp.eval(o)
        if isinstance(v, TensorV):
            if v.shape is None or shape is None:
                return UNKNOWN
            shape, fail = broadcast_shapes(shape, v.shape)
            fw = fw or v.framework
            if fail is not None or shape is None:
                return UNKNOWN
        elif not isinstance(v, (IntV, FloatV, BoolV)):
            return UNKNOWN
    return TensorV(shape, "bool", fw) if fw is not None else UNKNOWN


def _shape_value(t: TensorV) -> Value:
    if t.shape is None:
        k = _only_rank(t)
        # a rank the code's own checks leave (``b, c, h, w = x.shape`` before): that many sizes, each unknown
        return SeqV((UNKNOWN,) * k, "shape") if k is not None else UNKNOWN
    return SeqV(tuple(IntV(s) for s in t.shape), "shape")


def _ndim_value(t: TensorV) -> Value:
    if t.shape is None:
        k = _only_rank(t)
        return IntV(Size.const(k)) if k is not None else UNKNOWN
    return IntV(Size.const(len(t.shape)))


def tensor_attribute(interp: "Interpreter", node: cst.Attribute, t: TensorV, attr: str) -> Value:
    if attr == "shape":
        return _shape_value(t)
    if attr == "ndim":
        return UNKNOWN if t.assumed else _ndim_value(t)
    if attr == "size" and t.framework in ("numpy", "jax"):  # an int there (torch's x.size is a method)
        return IntV(product(t.shape)) if t.shape is not None else UNKNOWN
    if attr == "dtype":
        return DtypeV(t.dtype) if t.dtype else UNKNOWN
    if attr in ("T", "mT", "mH", "H"):
        if t.shape is None:
            return same_rank_unknown(t)
        if attr in ("T",):
            order = list(reversed(range(len(t.shape))))
            return permuted_layout(
                t, order, t.with_shape(tuple(reversed(t.shape)), tuple(reversed(t.axes)) if t.axes else None)
            )
        if len(t.shape) < 2:
            return t.with_shape(None)
        s = t.shape[:-2] + (t.shape[-1], t.shape[-2])
        ax = (t.axes[:-2] + (t.axes[-1], t.axes[-2])) if t.axes else None
        rank = len(t.shape)
        return permuted_layout(t, [*range(rank - 2), rank - 1, rank - 2], t.with_shape(s, ax))
    if attr in ("real", "imag", "data", "grad"):
        return t
    if attr in ("value", "raw_value") and t.framework == "jax":
        return t  # a flax.nnx Variable's array (``self.pos_embed.value``: nnx.Param(t) is held as t)
    if attr == "device":
        return UNKNOWN
    return UNKNOWN


def _only_rank(t: TensorV) -> int | None:
    """The one rank a tensor of unknown shape can still have, once conditions ruled out every other."""
    if len(t.not_ranks) < _ALL_BUT_ONE or t.alts:
        return None
    left = _RANKS - t.not_ranks
    return next(iter(left)) if len(left) == 1 else None


_RANKS = frozenset(range(17))  # narrowing.MAX_RANK + 1
_ALL_BUT_ONE = 16


def tensor_binary(
    cx: OpContext, interp: "Interpreter", node: cst.CSTNode, left: Value, op: cst.CSTNode, right: Value
) -> Value:
    from ..interpret.paths import branching, each_path

    if branching([left, right]) is not None:
        return each_path(cx.ctx, [left, right], lambda v: tensor_binary(cx, interp, node, v[0], op, v[1])) or UNKNOWN
    if type(op) in (cst.MatrixMultiply, cst.MatrixMultiplyAssign):
        if isinstance(left, TensorV) and isinstance(right, TensorV):
            return matmul(cx, node, "@", left, right)
        return UNKNOWN
    name = _op_name(op)
    if isinstance(left, TensorV) and isinstance(right, TensorV):
        out = elementwise(cx, node, name, [left, right])
    else:
        t = left if isinstance(left, TensorV) else right
        other = right if t is left else left
        assert isinstance(t, TensorV)
        if not isinstance(other, (IntV, FloatV, BoolV)):
            return t.with_shape(None)
        out = _with_scalar(name, t, other)
    # (lengths - 400) // 320 + 1 of exactly known lengths: the frame counts, exactly (an augmented ``+=`` is no
    # operator exact_arith follows: it changes its operand in place)
    made = exact_arith(left, name, right, node)
    if made is not None and isinstance(out, TensorV) and known_count(out.shape) == len(made[0]):
        return replace(out, values=made)
    return out


_AUGMENTED: dict[type[cst.CSTNode], str] = {
    cst.AddAssign: "+=",
    cst.SubtractAssign: "-=",
    cst.MultiplyAssign: "*=",
    cst.DivideAssign: "/=",
    cst.FloorDivideAssign: "//=",
    cst.ModuloAssign: "%=",
    cst.PowerAssign: "**=",
    cst.BitAndAssign: "&=",
    cst.BitOrAssign: "|=",
    cst.BitXorAssign: "^=",
    cst.LeftShiftAssign: "<<=",
    cst.RightShiftAssign: ">>=",
}


def in_place(
    cx: OpContext,
    node: cst.CSTNode,
    op: cst.CSTNode | None,
    left: Value,
    right: Value,
    result: Value,
    name: str | None = None,
) -> None:
    """``x op= y`` on a torch tensor or a numpy array of rank >= 1 (a numpy reduction's 0-d result is a scalar,
    rebound rather than changed): the broadcast ``result`` must keep ``x``'s shape. JAX arrays are immutable (the
    name is rebound), so any broadcast goes. ``name``: a torch in-place method (``x.add_(y)``, ``op`` None), which
    writes its broadcast result into ``x`` the same way."""
    if not (isinstance(left, TensorV) and isinstance(right, TensorV) and isinstance(result, TensorV)):
        return
    if left.framework not in ("torch", "numpy") or right.framework not in ("torch", "numpy", None):
        return
    if type(op) is cst.MatrixMultiplyAssign or left.alts or right.alts or result.alts:
        return
    a, b, out = left.shape, right.shape, result.shape
    if a is None or b is None or out is None or (left.framework == "numpy" and not a):
        return
    detail = None
    if len(out) > len(a):
        detail = D.InPlace(a, b, out, 0, len(a), len(out))
    else:
        for i in range(1, len(a) + 1):
            if equal(a[-i], out[-i]) is Truth.FALSE:
                detail = D.InPlace(a, b, out, i, a[-i], out[-i])
                break
    if detail is not None:
        cx.ctx.report(
            node,
            "SHP204",
            {
                "op": name or (_AUGMENTED.get(type(op), "in-place operation") if op is not None else "in-place"),
                "detail": detail,
            },
            cx.origins([left, right]),
            spec=OpSpec("inplace", None, (a, b), (), ()),
        )


def _with_scalar(opname: str, t: TensorV, other: Value) -> TensorV:
    """A tensor combined with a Python number keeps its shape (not the range its elements lay in)."""
    if t.dtype in _INTEGRAL and (opname in _TRUE_DIVISION or isinstance(other, FloatV) or t.dtype == "bool"):
        return t.with_dtype(None)  # an int tensor divided, or times a float, is a float tensor
    return replace(t, bounds=None) if t.bounds is not None else t


def _broadcast_trailing(unranked: list[TensorV], known: list[TensorV]) -> tuple[Size, ...] | None:
    """The trailing axes an elementwise operation's result is known to end in, when every operand of unknown rank
    has known trailing axes (a Linear's ``(..., out_features)``): the last k of them broadcast together (with the
    known shapes' last k, a shorter one only where it has axes), k the fewest any such operand has. None when an
    axis's result is not known (sizes that may each be 1), on a failure (left to the operation as it runs), or when
    nothing is known."""
    vss = [t.vshape for t in unranked if not t.alts]
    if len(vss) < len(unranked) or any(vs is None or not vs[2] for vs in vss):
        return None
    k = min(len(vs[2]) for vs in vss if vs is not None)
    out: tuple[Size, ...] = vss[0][2][-k:]  # type: ignore[index]
    for other in [vs[2][-k:] for vs in vss[1:] if vs is not None] + [t.shape[-k:] for t in known if t.shape]:
        new, fail = broadcast_shapes(out, other)
        if new is None or fail is not None or len(new) != k:
            return None
        out = new
    return out


def _exact_rank(t: TensorV) -> int | None:
    """The rank of ``t`` when known: its shape's, or the one rank conditions left it (shape unknown)."""
    return len(t.shape) if t.shape is not None else _only_rank(t)


# the bitwise operators, which keep booleans boolean (``mask & ~padding_mask``)
_LOGICAL = frozenset({"&", "|", "^", "&=", "|=", "^="})


def elementwise(cx: OpContext, node: cst.CSTNode, opname: str, tensors: list[TensorV], loss: bool = False) -> Value:
    known = [t for t in tensors if t.shape is not None]
    dtype = tensors[0].dtype if all(t.dtype == tensors[0].dtype for t in tensors) else None
    if dtype in _INTEGRAL and (opname in _TRUE_DIVISION or (dtype == "bool" and opname not in _LOGICAL)):
        dtype = None  # true division (atan2, hypot) of integers gives floats; bool arithmetic gives ints
    fw = next((t.framework for t in tensors if t.framework), None)
    if len(known) < len(tensors):
        unranked = [t for t in tensors if t.shape is None]
        if len(unranked) == 1 and unranked[0].vshape is not None and all(t.shape == () for t in known):
            # with 0-d tensors (a learned gain): the one of unknown rank keeps its known axes
            u = unranked[0]
            return TensorV(None, dtype, fw, None, u.origin, u.vshape, not_ranks=u.not_ranks)
        # ``x * F.gelu(gate)`` of two halves of a Linear's output: the known trailing axes broadcast as axes do
        trailing = _broadcast_trailing(unranked, known)
        vshape = ((), cx.fresh("V"), trailing) if trailing is not None else None
        origin = unranked[0].origin if trailing is not None else None
        ranks = [_exact_rank(t) for t in tensors]
        if all(r is not None for r in ranks):
            # every rank fixed (a check fixed the unknown ones): broadcasting gives the largest, sizes unknown
            top = max(r for r in ranks if r is not None)
            return TensorV(None, dtype, fw, None, origin, vshape, not_ranks=_RANKS - {top})
        return TensorV(None, dtype, fw, None, origin, vshape)
    shape: tuple[Size, ...] | None = known[0].shape
    for t in known[1:]:
        assert shape is not None and t.shape is not None
        new, fail = broadcast_shapes(shape, t.shape, lambda: cx.fresh("n"))
        if fail is not None:
            i, a, b = fail
            rank = max(len(shape), len(t.shape))
            axis_index = rank - i
            cx.ctx.report(
                node,
                "SHP204",
                {"op": opname, "detail": D.Broadcast(shape, t.shape, axis_index, a, b)},
                cx.origins(tensors),
                spec=OpSpec("loss" if loss else "elementwise", None, (shape, t.shape), (), (("name", opname),)),
            )
            return TensorV(None, dtype, fw)
        shape = new
        if shape is None:
            misaligned(cx, node, opname, tensors)
            return TensorV(None, dtype, fw)
    misaligned(cx, node, opname, tensors)
    axes = tensors[0].axes if all(t.axes == tensors[0].axes for t in tensors) else None
    return TensorV(
        shape,
        dtype,
        fw,
        axes if shape is not None and axes is not None and len(axes) == len(shape) else None,
        tensors[0].origin,
    )


def tensor_store(
    cx: OpContext, node: cst.CSTNode, region: TensorV, value: TensorV, op: str = "item assignment"
) -> None:
    """``x[index] = value``: numpy and torch broadcast the value to the region's shape, after dropping the value's
    leading axes of size 1; a size that is neither 1 nor the region's fails (numpy: "could not broadcast input array
    from shape ... into shape ...", torch: "The expanded size of the tensor ... must match the existing size ...").
    jax's ``x.at[index].set(value)`` (and ``.add`` ...) broadcasts the value to the region too, more strictly (a
    leading 1 beyond the region's rank fails as well, which is not reported here; an empty region takes any value):
    ``op`` names it (``copy_``: torch's ``dst.copy_(src)``, broadcast as an item assignment)."""
    if region.shape is None or value.shape is None or region.alts or value.alts:
        return
    jax_update = op not in ("item assignment", "copy_")
    if region.framework not in (("jax",) if jax_update else ("numpy", "torch")) or value.framework not in (
        ("jax", "numpy", None) if jax_update else ("numpy", "torch", None)
    ):
        return  # jax arrays refuse item assignment whatever the shapes (x.at[i].set(v) is their way)
    if jax_update and any(equal(r, 0) is not Truth.FALSE for r in region.shape):
        return  # jax updates an empty region with any value
    shape = value.shape
    while len(shape) > len(region.shape) and equal(shape[0], 1) is Truth.TRUE:
        shape = shape[1:]
    detail = None
    if len(shape) > len(region.shape):
        if equal(shape[0], 1) is Truth.FALSE:  # a leading axis that is not 1 has no axis to fill
            detail = D.StoreShape(value.shape, region.shape, -1, len(shape), len(region.shape))
    else:
        offset = len(region.shape) - len(shape)
        for i, v in enumerate(shape):
            r = region.shape[offset + i]
            if v.as_int() == 0 and r.as_int() is None:
                continue  # an empty value into a slice of unknown bounds (``g[..., :offset] = prompt``): it may be empty
            if equal(v, r) is Truth.FALSE and equal(v, 1) is Truth.FALSE:  # 0 fills no region axis but 0
                detail = D.StoreShape(value.shape, region.shape, offset + i, v, r)
                break
    if detail is not None:
        cx.ctx.report(
            node,
            "SHP204",
            {"op": op, "detail": detail},
            cx.origins([value, region]),
            spec=OpSpec("setitem", None, (value.shape, region.shape), (), ()),
        )


# methods and functions that reorder the axes of a tensor (``x.transpose(1, 2)``, ``rearrange(x, ...)``)
_PERMUTING = frozenset(
    {"rearrange", "transpose", "permute", "swapaxes", "swapdims", "movedim", "moveaxis", "t", "permute_dims"}
)


def _permuted(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """What ``node`` may reorder the axes of: ``x`` for ``x.transpose(-1, -2)``, ``x.mT``, ``x.t()``,
    ``rearrange(x, ...)``, ``torch.permute(x, ...)`` (a method's object or a function's first argument: both are
    candidates); empty when ``node`` reorders nothing."""
    if type(node) is cst.Attribute and node.attr.value in ("T", "mT"):
        return [node.value]
    if type(node) is not cst.Call:
        return []
    func = node.func
    if type(func) is cst.Attribute:
        name, out = func.attr.value, [func.value]
    elif type(func) is cst.Name:
        name, out = func.value, []
    else:
        return []
    if name not in _PERMUTING:
        return []
    if node.args and node.args[0].keyword is None and not node.args[0].star:
        out.append(node.args[0].value)
    return out


def _self_permutation(node: cst.CSTNode) -> bool:
    """Two operands of ``node`` that are one tensor and a reordering of its axes (``x + rearrange(x, "b i j -> b j i")``,
    ``sim + sim.transpose(-1, -2)``, ``mse_loss(a, a.T)``): a symmetrization, the axes swapped on purpose."""
    if type(node) is cst.BinaryOperation:
        operands: list[cst.BaseExpression] = [node.left, node.right]
    elif type(node) is cst.Call:
        operands = [a.value for a in node.args if a.keyword is None and not a.star]
    else:
        return False
    for i, a in enumerate(operands):
        for b in operands[i + 1 :]:
            sources_a = [a, *_permuted(a)]
            sources_b = [b, *_permuted(b)]
            if any(
                plain_read(x) and x.deep_equals(y) and (x is not a or y is not b) for x in sources_a for y in sources_b
            ):
                return True
    return False


def _distinct_names(axes: tuple[str | None, ...]) -> bool:
    """Two or more axes named, no name twice."""
    names = [a for a in axes if a is not None]
    return len(names) >= 2 and len(set(names)) == len(names)


def moved_names(a: tuple[str | None, ...], b: tuple[str | None, ...]) -> list[int]:
    """The positions where two namings of equally many axes hold the same names in another order (empty when they
    agree, differ in length, or name different axes). Partly named (a Linear kept the leading names of ``t b h``):
    the positions named in both hold the same names in another order, and no name stands elsewhere in the other."""
    if len(a) != len(b) or a == b:
        return []
    if None in a or None in b:
        both = [k for k in range(len(a)) if a[k] is not None and b[k] is not None]
        if len(both) < 2 or {a[k] for k in both} != {b[k] for k in both}:
            return []
        if {x for x in a if x is not None} & {x for x in b if x is not None} != {a[k] for k in both}:
            return []
    elif set(a) != set(b):
        return []
    return [k for k in range(len(a)) if a[k] != b[k] and a[k] is not None and b[k] is not None]


def misaligned(cx: OpContext, node: cst.CSTNode, opname: str, tensors: list[TensorV]) -> None:
    """SHP401: the same named axes in a different order (silently wrong wherever sizes coincide). Not for a tensor and
    a reordering of its own axes (``_self_permutation``)."""
    named = [t for t in tensors if t.axes is not None and t.shape is not None and _distinct_names(t.axes)]
    if len(named) >= 2 and _self_permutation(node):
        return
    for i in range(len(named)):
        for j in range(i + 1, len(named)):
            a, b = named[i].axes, named[j].axes
            assert a is not None and b is not None
            moved = moved_names(a, b)
            if moved:
                sa, sb = named[i].shape, named[j].shape
                assert sa is not None and sb is not None
                if isinstance(named[i].origin, MadeUp) or isinstance(named[j].origin, MadeUp):
                    continue  # a shape made up from the pattern's own names: nothing says they name the same axes
                if all(sa[k].as_int() is None and sa[k] == sb[k] for k in moved):
                    # the sizes say the operands line up by position: each moved name sits on the same size symbol
                    # in both (names from two unrelated patterns, `b 1 t1 t2 -> b t2 t1` of a (b, 1, ty, tx) map
                    # against `b 1 t1 t2 -> b t1 t2` of a (b, 1, tx, ty) mask)
                    continue
                if all(spatial_name(a[k]) and spatial_name(b[k]) for k in moved):
                    continue  # a layout's spatial axes among themselves: positions, not identities (ops_common)
                if any(
                    (LAYOUT in (a[k] or "") + (b[k] or "")) and (sa[k].as_int() == 1 or sb[k].as_int() == 1)
                    for k in moved
                ):
                    continue  # a layout's axis of one against another's broadcast: an outer product, on purpose
                left, right = shown_axes(a), shown_axes(b)
                hint = (
                    f'rearrange one operand first, e.g. rearrange(y, "{right} -> {left}")'
                    if "?" not in left + right
                    else "rearrange one operand first (an axis shown as ? has no name)"
                )
                cx.ctx.report(node, "SHP401", {"op": opname, "left": left, "right": right}, [hint])
                return


def matmul(cx: OpContext, node: cst.CSTNode, opname: str, a: TensorV, b: TensorV) -> Value:
    dtype = a.dtype if a.dtype == b.dtype else None
    fw = a.framework or b.framework
    if a.shape is None or b.shape is None or len(a.shape) == 0 or len(b.shape) == 0:
        return TensorV(None, dtype, fw)
    k1 = a.shape[-1]
    k2 = b.shape[-2] if len(b.shape) >= 2 else b.shape[0]
    if equal(k1, k2) is Truth.FALSE:
        cx.ctx.report(
            node,
            "SHP204",
            {"op": opname, "detail": D.MatmulInner(a.shape, b.shape, k1, k2)},
            cx.origins([a, b]),
            spec=OpSpec("matmul", None, (a.shape, b.shape)),
        )
        return TensorV(None, dtype, fw)
    if len(a.shape) == 1 and len(b.shape) == 1:
        return TensorV((), dtype, fw)
    if len(b.shape) == 1:
        return TensorV(a.shape[:-1], dtype, fw)
    if len(a.shape) == 1:
        return TensorV(b.shape[:-2] + b.shape[-1:], dtype, fw)
    batch, fail = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    if fail is not None:
        cx.ctx.report(
            node,
            "SHP204",
            {"op": opname, "detail": D.MatmulBatch(a.shape[:-2], b.shape[:-2])},
            cx.origins([a, b]),
            spec=OpSpec("matmul", None, (a.shape, b.shape)),
        )
        return TensorV(None, dtype, fw)
    if batch is None:
        return TensorV(None, dtype, fw)
    ax = None
    if a.axes and b.axes and len(a.axes) == len(a.shape) and len(b.axes) == len(b.shape) and a.axes[:-2] == b.axes[:-2]:
        ax = a.axes[:-1] + b.axes[-1:]
    return TensorV(batch + (a.shape[-2], b.shape[-1]), dtype, fw, ax)


def numpy_dot(cx: OpContext, node: cst.CSTNode, a: TensorV, b: TensorV) -> Value:
    """``np.dot``: matmul for 1-d and 2-d operands; above, a sum over a's last axis and b's second-to-last,
    without broadcasting: ``a.shape[:-1] + b.shape[:-2] + b.shape[-1:]``; a 0-d operand multiplies."""
    if a.shape is None or b.shape is None or (len(a.shape) <= 2 and len(b.shape) <= 2 and a.shape and b.shape):
        return matmul(cx, node, "dot", a, b)
    dtype = a.dtype if a.dtype == b.dtype else None
    if not a.shape or not b.shape:
        return TensorV(b.shape if not a.shape else a.shape, dtype, a.framework)
    k2 = b.shape[-2] if len(b.shape) >= 2 else b.shape[0]
    if equal(a.shape[-1], k2) is Truth.FALSE:
        return TensorV(None, dtype, a.framework)  # raises; no rule of ours says so
    out = a.shape[:-1] + (b.shape[:-2] + b.shape[-1:] if len(b.shape) >= 2 else ())
    return TensorV(out, dtype, a.framework)


def tensor_method(
    cx: OpContext,
    interp: "Interpreter",
    node: cst.Call,
    t: TensorV,
    name: str,
    args: list[Value],
    kwargs: dict[str, Value],
    dynamic: bool,
) -> Value:
    from ..interpret.paths import branching, each_path

    if branching([t] + args) is not None:
        return (
            each_path(cx.ctx, [t] + args, lambda v: tensor_method(cx, interp, node, v[0], name, v[1:], kwargs, dynamic))  # type: ignore[arg-type]
            or UNKNOWN
        )
    if dynamic:
        return t.with_shape(None) if name in SAME_SHAPE else UNKNOWN
    if name in ("masked_fill", "masked_fill_") and args and not isinstance(args[0], TensorV):
        args = [_comparison_mask(interp, node.args[0].value if node.args else None), *args[1:]]
    if name == "astype" and t.framework == "numpy" and args and args[0] is UNKNOWN and node.args:
        # numpy's ``x.astype(int)``: Python's int is numpy's default integer (int64; float64, bool and complex128
        # for the others), when the name is the builtin
        first = node.args[0].value
        if type(first) is cst.Name and first.value in _BUILTIN_DTYPES and cx.is_builtin(interp, first.value):
            args = [DtypeV(_BUILTIN_DTYPES[first.value]), *args[1:]]
    if t.framework in FRAMEWORK_METHODS:  # TensorFlow / Paddle tensors: their own rules (frameworks.py), never torch's
        return frameworks.method_of(cx, node, t.framework, t, name, args, kwargs)
    return apply_op(cx, node, name, t, args, kwargs, method=True)


_BUILTIN_DTYPES = {"int": "int64", "float": "float64", "bool": "bool", "complex": "complex128"}


def apply_op(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value:
    """Shared by ``x.op(...)`` and ``torch.op(x, ...)`` (``args`` exclude the tensor itself)."""
    out = _made_by(cx, node, name, t, _dispatch_method(cx, node, name, t, args, kwargs, method))
    if t.framework == "jax" and isinstance(out, TensorV) and out.dtype in _X64 and out.dtype != t.dtype:
        return out.with_dtype(None)  # jax makes 64-bit dtypes 32-bit unless jax_enable_x64 is set
    if t.values is not None and not args and not kwargs:
        return _exact_result(node, name, t, out, method)
    if t.values is not None and len(args) == 1 and isinstance(out, TensorV):
        # torch.div(n + hop - 1, hop, rounding_mode="floor"), lengths.sub(1): exact elements in, exact out
        op = _EXACT_OPS.get(name) if not kwargs else None
        if name == "div" and set(kwargs) == {"rounding_mode"}:
            mode = kwargs["rounding_mode"]
            op = "//" if isinstance(mode, StrV) and mode.value == "floor" else None
        made = exact_arith(t, op, args[0], node) if op is not None else None
        if made is not None and known_count(out.shape) == len(made[0]):
            return replace(out, values=made)
    return out


# the element-wise methods whose exact result exact_arith computes (``div`` only with rounding_mode="floor")
_EXACT_OPS = {"add": "+", "sub": "-", "mul": "*", "floor_divide": "//", "remainder": "%"}


def _total(vals: tuple[int, ...]) -> int:
    return sum(vals)


_EXACT_REDUCTIONS: dict[str, Callable[[tuple[int, ...]], int]] = {
    "max": max,
    "min": min,
    "amax": max,
    "amin": min,
    "sum": _total,
}


def _exact_result(node: cst.Call, name: str, t: TensorV, out: Value, method: bool) -> Value:
    """A whole-tensor ``max`` / ``min`` / ``sum`` of exactly known elements (``lengths.max()``): a 0-d tensor of its
    exact value; ``.item()`` of one known element: that int."""
    vals = exact_values(t)
    if vals is None:
        return out
    if name in _EXACT_REDUCTIONS and vals and isinstance(out, TensorV) and out.shape == ():
        return replace(out, values=exact((_EXACT_REDUCTIONS[name](vals),), node))
    one = exact_scalar(t)
    if name == "item" and method and one is not None:
        return IntV(Size.const(one))
    return out


def _made_by(cx: OpContext, node: cst.Call, name: str, t: TensorV, out: Value) -> Value:
    """An op that changed its input's shape (``x.unsqueeze(1)``, ``q.view(b, n, h, d)``, the parts of ``x.split``)
    made the shape it returns: notes name it, not where its input was made (as reductions and layers do already).
    A shape made up from an einops pattern stays made up (it is not evidence)."""
    if t.origin is None or t.shape is None or isinstance(t.origin, MadeUp):
        return out
    made = cx.origin(node, f"{name}(...)").made_from(t.origin)  # ``from split(...) at :26, of the Dense layer at :25``
    if isinstance(out, TensorV):
        if out.origin is t.origin and out.shape is not None and out.shape != t.shape:
            renamed = out.with_shape(out.shape, out.axes, made)
            return replace(renamed, strides=out.strides) if out.strides is not None else renamed
    elif isinstance(out, SeqV) and any(isinstance(i, TensorV) and i.origin is t.origin for i in out.items):
        return SeqV(
            tuple(
                i.with_shape(i.shape, i.axes, made)
                if isinstance(i, TensorV) and i.origin is t.origin and i.shape is not None and i.shape != t.shape
                else i
                for i in out.items
            ),
            out.kind,
        )
    return out


# reductions that pool a sequence over its time axis (``out.mean(dim=1)`` of a batch-first output)
_TIME_REDUCTIONS = frozenset({"mean", "sum", "max", "amax", "min", "amin", "logsumexp", "nanmean"})


# torch's argument parser takes numpy's names for these parameters of every function and method (``x.sum(axis=1)``,
# ``x.repeat_interleave(2, axis=1)``, ``torch.mean(x, axis=0, keepdims=True)``)
_TORCH_ALIASES = {"axis": "dim", "keepdims": "keepdim"}


def torch_keywords(kwargs: dict[str, Value], keep: bool = False) -> dict[str, Value]:
    """``kwargs`` of a torch call with numpy's aliases under torch's own names (``keep``: under both, for a tensor
    whose framework is not known, which numpy's rules read by numpy's names)."""
    if not any(k in _TORCH_ALIASES for k in kwargs):
        return kwargs
    out = dict(kwargs)
    for alias, own in _TORCH_ALIASES.items():
        if alias in out and own not in out:
            out[own] = out[alias] if keep else out.pop(alias)
    return out


def _dispatch_method(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value:
    if t.framework in ("torch", None):
        kwargs = torch_keywords(kwargs, keep=t.framework is None)
    if method and name in _TIME_REDUCTIONS and TIME_MAJOR and t.shape is not None and len(t.shape) == 3:
        dim = args[0] if args else kwargs.get("dim")
        if isinstance(dim, IntV) and dim.size.as_int() in (1, -2):
            time_major_use(cx.ctx, t, f"{name}(dim={dim.size.as_int()})")  # SHP403: the batch taken for time
    for rule in TENSOR_METHODS.get(name):
        out = rule(cx, node, name, t, args, kwargs, method)
        if out is not None:
            return out
    return t.with_shape(None) if method else UNKNOWN


# ------------------------------------------------------------------------------------------ tensor-method rules
@TENSOR_METHODS.register("outer", "ger", "mm", "mv", "bmm")
def _stubbed_method(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.outer(freqs)``, ``a.bmm(b)``: torch's method is its function on ``x`` (the shape stub of ``torch.outer``)."""
    if not method or t.framework != "torch":
        return None
    stub = cx.stub(f"torch.{name}")
    if stub is None:
        return None
    return _made_by_call(cx, node, name, call_stub(cx, node, f"torch.{name}", stub, [t, *args], kwargs), [t, *args])


@TENSOR_METHODS.register(*_CASTS)
def _cast_method(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.float()``, ``x.half()``, ...; ``x.long()`` / ``x.int()`` of an array whose elements lie in a known range
    from 0 up (``torch.linspace(0, n - k, steps).long()``) keeps that range: truncation keeps them there."""
    if not method or args:
        return None
    out = t.with_dtype(_CASTS[name])
    if name in ("long", "int") and t.bounds is not None and greater_equal(t.bounds[0], 0) is Truth.TRUE:
        out = replace(out, bounds=t.bounds)
    return out


@TENSOR_METHODS.register("numpy")
def _to_numpy(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    if method and not args and t.framework == "torch":  # x.numpy(): a numpy array from here on
        return TensorV(t.shape, t.dtype, "numpy", t.axes, t.origin, t.vshape)
    return None


@TENSOR_METHODS.register("to", "type", "astype", "type_as", "view")
def _cast_to(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.to(torch.float16)``, ``x.astype("float32")``, ``x.type_as(y)``, ``x.view(torch.int32)``, ``x.to(dtype=...)``;
    a cast to an integer dtype of an array whose elements lie in a known range from 0 up keeps it (``_cast_method``)."""
    out = _cast_to_dtype(cx, node, name, t, args, kwargs, method)
    if (
        name != "view"
        and isinstance(out, TensorV)
        and out.dtype in ("int64", "int32")
        and t.bounds is not None
        and greater_equal(t.bounds[0], 0) is Truth.TRUE
    ):
        out = replace(out, bounds=t.bounds)
    return out


def _cast_to_dtype(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    if args:
        target = args[0]
        if name == "view" and (
            isinstance(target, DtypeV) or (isinstance(target, StrV) and target.value in DTYPE_NAMES)
        ):
            new = target.name if isinstance(target, DtypeV) else DTYPE_NAMES[target.value]
            return _bytes_viewed(t, new)
        if isinstance(target, DtypeV):
            return t.with_dtype(target.name)
        if isinstance(target, StrV) and target.value in DTYPE_NAMES:
            return t.with_dtype(DTYPE_NAMES[target.value])
        if isinstance(target, TensorV) and name in ("to", "type_as"):
            return t.with_dtype(target.dtype)
        if name == "type" and _tensor_type_dtype(target) is not None:
            return t.with_dtype(_tensor_type_dtype(target))
        if name == "to" and len(args) > 1 and isinstance(args[1], DtypeV):  # x.to("cuda", torch.float16)
            return t.with_dtype(args[1].name)
        if name in ("to", "type", "astype", "type_as"):
            if isinstance(target, (StrV, RefV)) or target is UNKNOWN:
                dt = kwargs.get("dtype")
                return (
                    t.with_dtype(dt.name)
                    if isinstance(dt, DtypeV)
                    else (t if isinstance(target, StrV) and name == "to" else t.with_dtype(None))
                )
    if name in ("to", "astype", "type") and "dtype" in kwargs:
        dt = kwargs["dtype"]
        return t.with_dtype(dt.name if isinstance(dt, DtypeV) else None)
    return None


_ITEM_BYTES = {
    "bool": 1,
    "uint8": 1,
    "int8": 1,
    "int16": 2,
    "uint16": 2,
    "float16": 2,
    "bfloat16": 2,
    "int32": 4,
    "uint32": 4,
    "float32": 4,
    "int64": 8,
    "uint64": 8,
    "float64": 8,
    "complex64": 8,
    "complex128": 16,
}


def _bytes_viewed(t: TensorV, dtype: str) -> TensorV:
    """``x.view(torch.int32)`` / numpy's ``a.view(np.int32)``: the same bytes read as ``dtype``, the last axis scaled
    by the ratio of the item sizes (64 uint8 bytes are 16 int32s); its elements' values are others. A size not known
    (either dtype's, or the last axis's when it changes) leaves the shape unknown."""
    old, new = _ITEM_BYTES.get(t.dtype or ""), _ITEM_BYTES.get(dtype)
    if t.shape is None or old is None or new is None or t.alts:
        return TensorV(None, dtype, t.framework)
    if old == new:
        return TensorV(t.shape, dtype, t.framework, t.axes, t.origin)
    last = t.shape[-1].as_int() if t.shape else None
    if last is None or (last * old) % new:
        return TensorV(None, dtype, t.framework)  # (a 0-d tensor or a last axis not a whole number of items: raises)
    return TensorV(t.shape[:-1] + (Size.const(last * old // new),), dtype, t.framework, None, t.origin)


@TENSOR_METHODS.register("new_zeros", "new_ones", "new_empty", "new_full")
def _new_sized(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.new_ones(b, 1)``, ``x.new_zeros((b, n))``, ``x.new_full((b, n), v)``: a torch tensor of the sizes given
    (as ``torch.ones`` takes them) with x's dtype unless ``dtype=`` says another."""
    if not method or t.framework not in ("torch", None):
        return None
    dtype = _dtype_kw(kwargs) if "dtype" in kwargs else t.dtype
    shape_args = args[:1] if name == "new_full" else args
    if "size" in kwargs:
        if shape_args:
            return TensorV(None, dtype, "torch")
        shape_args = [kwargs["size"]]
    return _sized(cx, node, name, shape_args, dtype, "torch")


@TENSOR_METHODS.register("new_tensor")
def _new_tensor(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.new_tensor([float("inf")])``: ``torch.tensor(data)`` with x's dtype unless ``dtype=`` says another (the
    shape of the data: a literal list, or another tensor's)."""
    if not method or t.framework not in ("torch", None) or len(args) != 1:
        return None
    data = args[0]
    shape = data.shape if isinstance(data, TensorV) else _literal_shape(data, arrays=False)
    dtype = _dtype_kw(kwargs) if "dtype" in kwargs else t.dtype
    return TensorV(shape, dtype, "torch")


@TENSOR_METHODS.register("repeat_interleave")
def _repeat_interleave(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.repeat_interleave(n, dim)`` / ``torch.repeat_interleave(x, n, dim=d)`` with an int n: axis d n times as
    long; without a dim, the flattened elements n times each. A tensor of repeats (or a size not known): the axis's
    new length is unknown."""
    if t.framework not in ("torch", None):
        return None
    reps = args[0] if args else kwargs.get("repeats", UNKNOWN)
    dim = args[1] if len(args) > 1 else kwargs.get("dim", NoneV())
    if t.shape is None:
        return t.with_shape(None)
    n = reps.size if isinstance(reps, IntV) and not reps.assumed else None
    if n is not None and (n.as_int() or 0) < 0:
        return t.with_shape(None)  # (torch raises: not modelled)
    if isinstance(dim, NoneV):
        return t.with_shape((product(t.shape) * n if n is not None else cx.fresh("n"),))
    d = dim.size.as_int() if isinstance(dim, IntV) else None
    axis = _norm_dim(d, len(t.shape)) if d is not None else None
    if axis is None:
        return t.with_shape(None)
    out = list(t.shape)
    out[axis] = out[axis] * n if n is not None else cx.fresh("n")
    return t.with_shape(tuple(out))


@TENSOR_METHODS.register("fill_diagonal_")
def _fill_diagonal(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """torch's ``x.fill_diagonal_(value, wrap=False)``: x itself, its main diagonal filled in place (BLIP's hard
    negatives: ``F.softmax(sim, dim=1).fill_diagonal_(0)``). The shape is claimed for a 2-d tensor, or one of more
    axes all of one known length; torch raises for fewer than 2 axes or unequal ones (not modelled: unknown)."""
    if not method or t.framework not in ("torch", None) or set(kwargs) - {"fill_value", "wrap"} or len(args) > 2:
        return None
    if t.shape is None or len(t.shape) < 2:
        return t.with_shape(None)
    sizes = {s.as_int() for s in t.shape}
    if len(t.shape) > 2 and (None in sizes or len(sizes) != 1):
        return t.with_shape(None)
    return t


@TENSOR_METHODS.register("multinomial")
def _multinomial(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``torch.multinomial(probs, num_samples, replacement=False)`` / ``probs.multinomial(n)``: (n,) or (b, n) int64
    indices for a 1-d or 2-d input. The shape is claimed only when the call is sure to sample: n >= 1 and, without
    replacement, no more than the categories of a known last axis (torch raises otherwise: not modelled)."""
    if t.framework not in ("torch", None) or set(kwargs) - {"num_samples", "replacement", "generator"}:
        return None
    n_v = args[0] if args else kwargs.get("num_samples", UNKNOWN)
    rep_v = args[1] if len(args) > 1 else kwargs.get("replacement", BoolV(False))
    out_dtype = "int64"
    if t.shape is None or len(t.shape) not in (1, 2) or len(args) > 2:
        return TensorV(None, out_dtype, "torch")
    n = n_v.size.as_int() if isinstance(n_v, IntV) and not n_v.assumed else None
    cats = t.shape[-1].as_int()
    replacement = rep_v.value if isinstance(rep_v, BoolV) else None
    if n is None or n < 1 or cats is None or cats < 1 or replacement is None or (not replacement and n > cats):
        return TensorV(None, out_dtype, "torch")
    return TensorV(t.shape[:-1] + (Size.const(n),), out_dtype, "torch", origin=cx.origin(node, "multinomial(...)"))


@TENSOR_METHODS.register("size")
def _size(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    shape = t.shape
    if shape is None:
        return UNKNOWN
    key = "dim" if method else "axis"  # np.size(a, axis) / jnp.size(a, axis): one axis's length
    if not args and key not in kwargs:
        # np.size(a) / jnp.size(a): the element count, as a.size
        return SeqV(tuple(IntV(s) for s in shape), "shape") if method else IntV(product(shape))
    d = _ints([args[0] if args else kwargs[key]])
    pos = _norm_dim(d[0], len(shape)) if d is not None else None
    if pos is None and d is not None and method:
        dim_out_of_range(cx, node, "size", t, d)  # x.size(1) of a 1-d tensor
    return IntV(shape[pos]) if pos is not None else UNKNOWN


@TENSOR_METHODS.register("dim", "ndimension")
def _dim(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    if args:
        return None
    return IntV(Size.const(len(t.shape))) if t.shape is not None and not t.assumed else UNKNOWN


@TENSOR_METHODS.register("is_complex", "is_floating_point")
def _dtype_predicate(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.is_complex()`` / ``torch.is_floating_point(x)``: decided by a known dtype (a branch on it, as in a complex
    multiply that converts real operands first, then runs one way)."""
    if args or kwargs:
        return None
    kind = _DTYPE_KINDS.get(t.dtype or "")
    if kind is None:
        return UNKNOWN
    return BoolV(kind == ("complex" if name == "is_complex" else "floating"))


_DTYPE_KINDS = {
    **dict.fromkeys(("float16", "bfloat16", "float32", "float64"), "floating"),
    **dict.fromkeys(("complex32", "complex64", "complex128"), "complex"),
    **dict.fromkeys(("int8", "int16", "int32", "int64", "uint8", "bool"), "other"),
}


@TENSOR_METHODS.register("numel")
def _numel(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    if args:
        return None
    return IntV(product(t.shape)) if t.shape is not None else UNKNOWN


@TENSOR_METHODS.register("expand_as")
def _expand_as(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.expand_as(y)`` (torch): ``x.expand(y.size())``, so each axis of ``x`` must be 1 or ``y``'s size there."""
    if len(args) != 1 or kwargs or not isinstance(args[0], TensorV):
        return None
    other = args[0]
    if other.shape is None:
        return t.with_shape(None)
    from .shape_ops import expand_to

    return expand_to(cx, node, t, other.shape, "expand_as", (other,))


@TENSOR_METHODS.register("unfold")
def _unfold(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.unfold(dimension, size, step)`` (torch): axis ``dimension`` becomes the (L - size) // step + 1 windows
    and a last axis of ``size`` is added (sliding frames of a signal). Sizes known as numbers, or a step of 1."""
    if not method or t.framework != "torch" or t.shape is None:
        return None
    names = ("dimension", "size", "step")
    vals = [args[i] if len(args) > i else kwargs.get(n) for i, n in enumerate(names)]
    ints = _ints([v for v in vals if v is not None]) if None not in vals else None
    if ints is None or len(ints) != 3:
        return t.with_shape(None)
    d, size, step = _norm_dim(ints[0], len(t.shape)) if t.shape else None, ints[1], ints[2]
    if d is None or size < 0 or step <= 0:
        return t.with_shape(None)
    length = t.shape[d].as_int()
    if length is not None:
        if size > length:
            return t.with_shape(None)  # torch raises: no rule of ours says so
        windows = Size.const((length - size) // step + 1)
    elif step == 1:
        windows = t.shape[d] - size + 1
    else:
        return t.with_shape(None)
    shape = t.shape[:d] + (windows,) + t.shape[d + 1 :] + (Size.const(size),)
    return TensorV(shape, t.dtype, t.framework, None, cx.origin(node, "unfold(...)"))


@TENSOR_METHODS.register("stft")
def _stft(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """torch's ``stft(x, n_fft, hop_length=n_fft // 4, win_length, window, center=True, pad_mode, normalized,
    onesided, return_complex)`` of a real signal (L,) or batch (B, L): (B?, n_fft // 2 + 1, frames), n_fft frequencies
    when ``onesided=False``, frames = 1 + (L + 2 * (n_fft // 2) - n_fft) // hop when centered (1 + (L - n_fft) // hop
    otherwise); ``return_complex=False`` adds a last axis of 2 (real, imaginary). The frame count is a number only
    for a known length; a signal torch rejects (too short, return_complex not given) gives an unknown shape."""
    if t.framework != "torch" or t.shape is None or len(t.shape) not in (1, 2) or len(args) > 9:
        return None
    names = (
        "n_fft",
        "hop_length",
        "win_length",
        "window",
        "center",
        "pad_mode",
        "normalized",
        "onesided",
        "return_complex",
    )
    given = {n: args[i] for i, n in enumerate(names) if i < len(args)}
    for k, v in kwargs.items():
        if k in given or k not in names + ("align_to_window",):
            return t.with_shape(None)
        given[k] = v
    unknown = TensorV(None, None, "torch")
    n_v, hop_v, rc = given.get("n_fft"), given.get("hop_length", NoneV()), given.get("return_complex")
    n = n_v.size.as_int() if isinstance(n_v, IntV) else None
    hop = (
        n // 4
        if isinstance(hop_v, NoneV) and n is not None
        else (hop_v.size.as_int() if isinstance(hop_v, IntV) else None)
    )
    center = given.get("center", BoolV(True))
    onesided = given.get("onesided", NoneV())
    if n is None or n <= 0 or not isinstance(rc, BoolV) or rc.value is None or not isinstance(center, BoolV):
        return unknown
    if center.value is None or (t.dtype or "").startswith("complex"):
        return unknown  # a complex signal is two-sided by default (a signal of unknown dtype is taken as real)
    if isinstance(onesided, BoolV) and onesided.value is not None:
        freqs = n // 2 + 1 if onesided.value else n
    elif isinstance(onesided, NoneV):
        freqs = n // 2 + 1
    else:
        return unknown
    length = t.shape[-1].as_int()
    if hop is not None and hop > 0 and length is not None:
        padded = length + 2 * (n // 2) if center.value else length
        if center.value and length <= n // 2 or padded < n:
            return unknown  # torch raises (reflect padding wider than the signal, or a frame longer than it)
        frames = Size.const(1 + (padded - n) // hop)
    elif hop is not None and hop > 0:
        frames = cx.fresh("frames")
    else:
        return unknown
    shape = t.shape[:-1] + (Size.const(freqs), frames) + (() if rc.value else (Size.const(2),))
    return TensorV(shape, None, "torch", None, cx.origin(node, "stft(...)"))


@TENSOR_METHODS.register("view_as_real", "view_as_complex")
def _view_as_real(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """torch's ``view_as_real(z)``: a complex (...) tensor as real (..., 2) (real, imaginary); ``view_as_complex(x)``
    the reverse, dropping a last axis of 2. A last axis not known to be 2 gives an unknown shape."""
    if method or t.framework != "torch" or args or kwargs:
        return None
    if t.shape is None:
        return t.with_shape(None)
    if name == "view_as_real":
        shape = t.shape + (Size.const(2),)
    elif t.shape and t.shape[-1].as_int() == 2:
        shape = t.shape[:-1]
    else:
        return t.with_shape(None)
    return TensorV(shape, None, "torch", None, cx.origin(node, f"{name}(...)"))


@TENSOR_METHODS.register("matmul", "mm", "bmm", "dot")
def _matmul_method(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    if not args or not isinstance(args[0], TensorV):
        return None
    if name == "dot" and t.framework in ("numpy", "jax"):
        return numpy_dot(cx, node, t, args[0])
    return matmul(cx, node, name, t, args[0])


@TENSOR_METHODS.register("addmm", "baddbmm", "addbmm")
def _add_product_method(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``torch.baddbmm(input, b1, b2, beta=, alpha=)`` / ``input.addmm(m1, m2)``: ``beta * input + alpha * (b1 @
    b2)``. The factors are matrices (``addmm``) or batches of them of one batch size (``baddbmm``; ``addbmm`` sums
    the batch), multiplied without broadcasting; ``input`` broadcasts to the product's shape. (``t`` is ``input``.)"""
    a = args[0] if args else kwargs.get("mat1" if name == "addmm" else "batch1")
    b = args[1] if len(args) > 1 else kwargs.get("mat2" if name == "addmm" else "batch2")
    if len(args) > 2 or set(kwargs) - {"mat1", "mat2", "batch1", "batch2", "beta", "alpha", "out"}:
        return None
    if not isinstance(a, TensorV) or not isinstance(b, TensorV):
        return None
    unknown = TensorV(None, t.dtype if t.dtype == a.dtype == b.dtype else None, t.framework)
    rank = 2 if name == "addmm" else 3
    if a.shape is None or b.shape is None or len(a.shape) != rank or len(b.shape) != rank:
        return unknown
    if rank == 3 and equal(a.shape[0], b.shape[0]) is not Truth.TRUE:
        return unknown  # (bmm takes batches of one size: no broadcasting of a batch of 1)
    prod = matmul(cx, node, name, a, b)
    if not isinstance(prod, TensorV) or prod.shape is None:
        return unknown
    shape = prod.shape[1:] if name == "addbmm" else prod.shape
    out = elementwise(cx, node, name, [t, prod.with_shape(shape)])
    if not isinstance(out, TensorV) or out.shape is None or len(out.shape) != len(shape):
        return unknown
    if any(equal(x, y) is not Truth.TRUE for x, y in zip(out.shape, shape)):
        return unknown  # (an input larger than the product: torch refuses to expand it)
    return TensorV(shape, unknown.dtype, t.framework, None, cx.origin(node, f"{name}(...)"))


@TENSOR_METHODS.register("max", "min")
def _binary_extreme(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """torch's ``torch.min(a, b)`` / ``a.max(b)`` with a tensor ``other``: the elementwise minimum / maximum (the
    operands broadcast), not a reduction."""
    other = args[0] if len(args) == 1 and "other" not in kwargs else (kwargs.get("other") if not args else None)
    if t.framework != "torch" or not isinstance(other, TensorV) or set(kwargs) - {"out", "other"}:
        return None
    return elementwise(cx, node, name, [t, other])


@TENSOR_METHODS.register(*REDUCTIONS)
def _reduction(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return reduction(cx, node, name, t, args, kwargs, method)


@TENSOR_METHODS.register("cumsum", "cumprod", "nancumsum", "nancumprod")
def _cumulative(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return cumulative(cx, node, name, t, args, kwargs)


@TENSOR_METHODS.register(*DTYPE_NAMES)
def _dtype_call(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``np.half(x)``, ``np.float32(x)``: casts."""
    return t.with_dtype(DTYPE_NAMES[name]) if not method and t.framework in ("numpy", "jax") else None


@TENSOR_METHODS.register("isnan", "isinf", "isfinite", "isposinf", "isneginf", "logical_not", "signbit")
def _predicate(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return t.with_dtype("bool")


# comparisons written as calls: torch's ``mask = tokens.ne(pad)``, ``torch.gt(a, b)``, numpy's ``np.greater(a, b)``
_COMPARISONS = frozenset(
    {"eq", "ne", "gt", "ge", "lt", "le", "greater", "less", "greater_equal", "less_equal", "not_equal"}
)


@TENSOR_METHODS.register(*_COMPARISONS)
def _comparison(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """A bool tensor: the input's shape against a Python number, the broadcast shape against a tensor."""
    if len(args) != 1 or kwargs:
        return None
    other = args[0]
    if isinstance(other, (IntV, FloatV, BoolV)):
        return t.with_dtype("bool")
    if not isinstance(other, TensorV):
        return None
    out = elementwise(cx, node, name, [t, other])
    return out.with_dtype("bool") if isinstance(out, TensorV) else out


@TENSOR_METHODS.register("tril", "triu")
def _triangle(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    shape = t.shape
    if t.framework in ("numpy", "jax") and shape is not None and len(shape) < 2:
        return t.with_shape(shape * 2 if len(shape) == 1 else None)  # np.tril of a vector: its (n, n) matrix
    return None


@TENSOR_METHODS.register("clamp", "clip", "clamp_min", "clamp_max")
def _clamp(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    bounds = [v for v in [*args, *kwargs.values()] if isinstance(v, TensorV)]
    return elementwise(cx, node, name, [t, *bounds]) if bounds else None  # tensor bounds broadcast with the input


# torch's in-place methods that compute an element-wise result of the tensor and their tensor arguments (the
# method's out-of-place twin) and write it into the tensor itself: the broadcast may not grow it
INPLACE_ELEMENTWISE = frozenset(
    {
        "add_",
        "sub_",
        "subtract_",
        "mul_",
        "multiply_",
        "div_",
        "divide_",
        "true_divide_",
        "floor_divide_",
        "pow_",
        "remainder_",
        "fmod_",
        "atan2_",
        "hypot_",
        "xlogy_",
        "lerp_",
        "addcmul_",
        "addcdiv_",
        "clamp_",
        "clamp_min_",
        "clamp_max_",
        "clip_",
    }
)


@TENSOR_METHODS.register(*INPLACE_ELEMENTWISE)
def _inplace_elementwise(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.add_(y)``, ``x.mul_(gate)``, ``x.lerp_(end, w)``, ``x.addcmul_(a, b)``, ``x.clamp_(lo, hi)``: the tensor
    arguments broadcast with ``x`` (SHP204 when they cannot, as for ``x + y``), and the broadcast result is written
    into ``x``, whose shape stays: a result larger than ``x`` is SHP204 (torch: "output with shape [3, 1] doesn't
    match the broadcast shape [3, 4]"), as for ``x += y``. Numbers, a tensor of unknown shape: ``x`` as it is."""
    if not method or t.framework != "torch":
        return None
    operands = [v for v in [*args, *kwargs.values()] if isinstance(v, TensorV)]
    if not operands or t.shape is None or any(v.shape is None for v in operands):
        return t
    result = elementwise(cx, node, name, [t, *operands])
    if isinstance(result, TensorV) and result.shape is not None:
        other = operands[0] if len(operands) == 1 else result
        in_place(cx, node, None, t, other, result, name)
    return t


@TENSOR_METHODS.register("masked_fill", "masked_fill_")
def _masked_fill(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    if not args:
        return None
    shape = t.shape
    inplace = name == "masked_fill_"  # x.masked_fill_(mask, v): the mask broadcasts to x, whose shape stays
    if not isinstance(args[0], TensorV) or args[0].shape is None or shape is None:
        return t if inplace else t.with_shape(None)  # a mask of unknown shape may broadcast the result
    out, fail = broadcast_shapes(shape, args[0].shape)  # out of place, the mask broadcasts too
    if fail is not None:
        elementwise(cx, node, name, [t, args[0]])  # reports the axes that cannot broadcast
        return t if inplace else t.with_shape(None)
    if inplace:
        if out is not None and out != shape:
            in_place(cx, node, None, t, args[0], t.with_shape(out), name)  # a mask wider than x: x cannot hold it
        return t
    return t.with_shape(out, t.axes if out == shape else None)


@TENSOR_METHODS.register("copy_")
def _copy_into(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``dst.copy_(src)``: src broadcasts to dst's shape, which stays (a state cache filled in place:
    ``conv_state.copy_(x[:, :, -k:])``). What fails for an item assignment fails here too, and copy_ is stricter
    still: src broadcasts to dst's own shape, so leading axes of size 1 beyond dst's rank fail as well."""
    src = args[0] if method and len(args) == 1 and not kwargs else kwargs.get("src") if method and not args else None
    if isinstance(src, TensorV) and t.framework == "torch":
        tensor_store(cx, node, t, src, op="copy_")
        a, b = t.shape, src.shape
        if (
            a is not None
            and b is not None
            and not t.alts
            and not src.alts
            and len(b) > len(a)
            and all(equal(s, 1) is Truth.TRUE for s in b[: len(b) - len(a)])
        ):
            out, _ = broadcast_shapes(a, b)
            if out is not None:
                in_place(cx, node, None, t, src, t.with_shape(out), name)
    return t


_DIM_FIRST = frozenset({"softmax", "log_softmax", "cumsum", "cumprod"})  # torch: x.softmax(dim), F.softmax(x, dim)


@TENSOR_METHODS.register(*SAME_SHAPE)
def _same_shape(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    if name in _DIM_FIRST and t.framework == "torch" and t.shape is not None:
        d = _ints([args[0] if args else kwargs.get("dim", UNKNOWN)])
        if d is not None and dim_out_of_range(cx, node, name, t, d):
            return t.with_shape(None)
    if t.strides is not None and (name not in LAYOUT_KEEPING or "memory_format" in kwargs):
        # softmax, contiguous and the like write a new contiguous tensor; others (``clone(memory_format=...)``): the
        # layout is not known
        return replace(
            t, strides=contiguous_strides(t.shape) if name in ("contiguous", "softmax", "log_softmax") else None
        )
    return t


@TENSOR_METHODS.register("scatter", "scatter_add", "scatter_reduce")
def _scatter(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """torch's out-of-place ``x.scatter(dim, index, src)`` / ``scatter_add`` / ``scatter_reduce`` (and
    ``torch.scatter(x, ...)``): a copy of x with some entries replaced, so x's shape and dtype (what is written where
    is not checked). Another framework's (or an unknown one's) ``scatter``: unknown."""
    if t.framework != "torch":
        return UNKNOWN
    return t.with_shape(t.shape, t.axes)


@TENSOR_METHODS.register("nonzero", "argwhere")
def _nonzero(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """torch's ``x.nonzero()`` / ``torch.nonzero(x)`` / ``torch.argwhere(x)`` and numpy's ``np.argwhere(x)``: one row
    per nonzero element (a count the data decides: a fresh size) and one column per axis, int64. ``as_tuple=True``
    and numpy's ``nonzero``: a tuple of one index array per axis, each of that count. jax's (whose ``size=`` decides
    the count under jit), a 0-d numpy array's, other arguments: unknown (a radius graph's ``adj.nonzero().t()``
    edge list is (2, E))."""
    fw = t.framework
    if t.shape is None or fw not in ("torch", "numpy") or args or set(kwargs) - {"as_tuple"}:
        return UNKNOWN
    as_tuple = kwargs.get("as_tuple")
    if as_tuple is not None and (fw != "torch" or name != "nonzero" or not isinstance(as_tuple, BoolV)):
        return UNKNOWN
    rank = len(t.shape)
    split = (name == "nonzero" and fw == "numpy") or (isinstance(as_tuple, BoolV) and as_tuple.value is True)
    if split and (rank == 0 or (isinstance(as_tuple, BoolV) and as_tuple.value is None)):
        return UNKNOWN
    n = cx.fresh("nnz")
    made = cx.origin(node, f"{name}(...)")
    if split:
        return SeqV(tuple(TensorV((n,), "int64", fw, None, made) for _ in range(rank)), "tuple")
    return TensorV((n, Size.const(rank)), "int64", fw, None, made)


_TOLIST_ITEMS = 64  # x.tolist() of at most this many elements is a nested list of known lengths


@TENSOR_METHODS.register("tolist")
def _tolist(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.tolist()`` of a tensor of known shape and few elements: nested lists of those lengths, each element a
    Python float of a floating tensor, a bool of a bool one, an int of any sign of an integer one (unknown values:
    ``rates[i].tolist()`` of a linspace, the drop-path rates handed to blocks); unknown when the dtype is not known."""
    if not method or args or kwargs or t.shape is None or t.alts:
        return UNKNOWN
    dims = [s.as_int() for s in t.shape]
    if any(d is None for d in dims) or math.prod(d for d in dims if d is not None) > _TOLIST_ITEMS:
        return UNKNOWN
    dtype = t.dtype or ""

    def element() -> Value:
        if dtype.startswith(("float", "bfloat")):
            return FloatV(None)
        if dtype == "bool":
            return BoolV(None)
        if dtype.startswith(("int", "uint")):
            return IntV(cx.fresh("int") - cx.fresh("int"))  # (any sign: no symbol is negative)
        return UNKNOWN

    def nested(rest: list[int]) -> Value:
        if not rest:
            return element()
        return SeqV(tuple(nested(rest[1:]) for _ in range(rest[0])), "list")

    return nested([d for d in dims if d is not None])


@TENSOR_METHODS.register("unique", "masked_select")
def _unknown(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """A Python value, or a shape that depends on the data."""
    return UNKNOWN


@TENSOR_METHODS.register("bincount")
def _bincount(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``torch.bincount(x, weights=None, minlength=0)`` of a 1-d tensor of counts: one count per value up to the
    largest, at least ``minlength`` -- a length the data decides, so a fresh size, known to be positive when
    ``minlength`` is (or the input is not empty). The degrees of a graph's nodes (``torch.bincount(dst,
    minlength=num_nodes)``) then broadcast as a (k, 1) column."""
    if t.framework != "torch" or t.shape is None or len(t.shape) != 1:
        return UNKNOWN
    extra = dict(zip(("weights", "minlength"), args))
    if len(args) > 2 or set(kwargs) - {"weights", "minlength"} or set(extra) & set(kwargs):
        return UNKNOWN
    extra.update(kwargs)
    m = extra.get("minlength")
    positive = (isinstance(m, IntV) and greater_equal(m.size, 1) is Truth.TRUE) or at_least(t.shape[0], 1) is Truth.TRUE
    if not positive:
        return UNKNOWN
    weights = extra.get("weights")
    dtype = "int64" if weights is None or isinstance(weights, NoneV) else None
    return TensorV((cx.fresh("bincount"),), dtype, "torch")


@TENSOR_METHODS.register("item")
def _item(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.item()``: the one element as a Python number, whose value the data decides. A floating tensor's is a
    float (``[x.item() for x in torch.linspace(0, rate, depth)]``, stochastic-depth rates that scale tensors later);
    any other dtype, or an unknown one: unknown. A tensor whose element count is a known number other than one
    (``logits[..., 0].item()`` of a batch of 2) raises in torch, numpy and JAX alike: SHP204."""
    if method and not args and not kwargs and t.shape is not None:
        n = product(t.shape).as_int()
        if isinstance(n, int) and n > 1:
            cx.ctx.report(
                node,
                "SHP204",
                {"op": "item", "detail": D.ItemElements(t.shape, n)},
                cx.origins([t]),
                spec=OpSpec("item", None, (t.shape,)),
            )
            return UNKNOWN
    if method and t.dtype is not None and t.dtype.startswith(("float", "bfloat")) and not args and not kwargs:
        return FloatV(None)
    return UNKNOWN


@TENSOR_METHODS.register(*ELEMENTWISE_FUNCS)
def _elementwise(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    if name.startswith("logical_"):
        if len(args) != 1 or not isinstance(args[0], TensorV):
            return None
        out = elementwise(cx, node, name, [t, args[0]])
        return out.with_dtype("bool") if isinstance(out, TensorV) else out
    if args and name != "where" and isinstance(args[0], (IntV, FloatV, BoolV)):
        return _with_scalar(name, t, args[0])  # x.pow(2), torch.mul(x, 0.5): the tensor's shape
    if name == "where" and len(args) >= 2 and all(isinstance(a, (TensorV, IntV, FloatV, BoolV)) for a in args[:2]):
        # torch.where(cond, 0.5, 0.0), x.where(cond, 0.0): the tensors broadcast, a Python number takes any shape
        tensors = [t, *(a for a in args[:2] if isinstance(a, TensorV))]
        out = elementwise(cx, node, name, tensors) if len(tensors) > 1 else t
        return out.with_dtype(None) if isinstance(out, TensorV) and not method else out
    if not args or not isinstance(args[0], TensorV):
        return None
    if name == "where":  # x.where(condition, y): all three broadcast
        if not all(isinstance(a, TensorV) for a in args[:2]) or len(args) < 2:
            return t.with_shape(None)
        return elementwise(cx, node, name, [t, *args[:2]])  # type: ignore[list-item]
    return elementwise(cx, node, name, [t, args[0]])


@TENSOR_METHODS.register("where")
def _where_indices(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``torch.where(cond)`` / ``np.where(cond)`` (one argument): a tuple of one int64 index vector per axis of the
    condition, all of the same data-dependent length (one fresh size)."""
    if method or args or kwargs or t.framework not in ("torch", "numpy") or t.shape is None or not t.shape:
        return None
    count = cx.fresh("selected")
    return SeqV(tuple(TensorV((count,), "int64", t.framework) for _ in t.shape))


@TENSOR_METHODS.register("argsort")
def _argsort(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``x.argsort(dim)`` / ``torch.argsort(x, dim)`` / ``np.argsort(a, axis)``: int indices of the input's shape
    (numpy's and jax's ``axis=None`` sort the flattened array: rank 1)."""
    # (jax's: int32 unless jax_enable_x64, as jax.random.randint's; an integer index either way)
    dtype = "int64" if t.framework in ("torch", "numpy") else "int32" if t.framework == "jax" else None
    axis = args[0] if args else kwargs.get("dim", kwargs.get("axis"))
    if t.shape is None or (not t.shape and t.framework != "torch"):  # numpy sorts a 0-d array as a 1-element one
        return TensorV(None, dtype, t.framework)
    if isinstance(axis, NoneV):
        if t.framework == "torch":
            return TensorV(None, dtype, t.framework)
        return TensorV((product(t.shape),), dtype, t.framework)
    if axis is not None:
        at = _ints([axis])
        if at is None or _norm_dim(at[0], len(t.shape)) is None:
            return TensorV(None, dtype, t.framework)
    return TensorV(t.shape, dtype, t.framework, t.axes, t.origin)


@TENSOR_METHODS.register("repeat")
def _repeat(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """torch's ``x.repeat(*sizes)`` (numpy's ``repeat`` repeats elements: unknown)."""
    shape = t.shape
    if not method or t.framework != "torch":
        return None
    reps = _shape_args(args)
    if reps is None or shape is None or len(reps) < len(shape):
        return t.with_shape(None)
    sizes = _sizes(reps, cx.fresh)
    if sizes is None:
        return t.with_shape(None)
    padded = (Size.const(1),) * (len(sizes) - len(shape)) + shape
    return t.with_shape(tuple(a * b for a, b in zip(padded, sizes)))


def reduction(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value:
    shape = t.shape
    # x.norm(p, dim, keepdim) / np.linalg.norm(x, ord, axis, keepdims); x.std(dim, unbiased, keepdim) in torch
    at_dim, at_keep = (1, 2) if name == "norm" else (0, 2 if name in ("std", "var") else 1)
    dim_v = args[at_dim] if len(args) > at_dim else kwargs.get("dim", kwargs.get("axis", NoneV()))
    # (a tensor of no known framework, ``rearrange(x, ...)`` of an unannotated parameter: a bool where torch takes
    # ``keepdim`` or ``unbiased`` is that -- numpy and jax take a dtype there, which a bool is not)
    torch_like = t.framework in ("torch", None)
    if name in ("std", "var") and torch_like and isinstance(dim_v, BoolV):
        dim_v = NoneV()  # x.std(True): the unbiased flag
    keep_pos = (
        args[at_keep] if len(args) > at_keep and isinstance(args[at_keep], BoolV) and torch_like else BoolV(False)
    )
    keep_v = kwargs.get("keepdim", kwargs.get("keepdims", keep_pos))
    if isinstance(dim_v, SeqV) and not dim_v.items and t.framework == "torch":
        dim_v = UNKNOWN  # torch reads dim=() as every axis, in some versions
    keep = keep_v.value if isinstance(keep_v, BoolV) else None
    out_dtype = t.dtype
    if name in ("argmax", "argmin"):
        # positions: numpy's intp and torch's int64, jax's int32 (without x64): indices a gather can take
        out_dtype = {"numpy": "int64", "torch": "int64", "jax": "int32"}.get(t.framework or "")
    elif name in ("all", "any", "count_nonzero"):
        out_dtype = None
    elif out_dtype in _INTEGRAL:
        # sums and products of bools / ints accumulate in int64; means and norms of ints are floats (or raise)
        out_dtype = (
            "int64"
            if name in ("sum", "prod", "nansum") and t.framework in ("torch", "numpy")
            else (out_dtype if name in ("max", "min", "amax", "amin") else None)
        )
    if "dtype" in kwargs:
        out_dtype = _dtype_kw(kwargs)
    elif (
        t.framework in ("numpy", "jax") and len(args) > 1 and name != "norm" and not isinstance(args[1], (NoneV, BoolV))
    ):
        out_dtype = _dtype_arg(args[1])  # np.sum(x, 0, np.float32): numpy's dtype comes second
    result: Value
    if shape is None or keep is None:
        result = TensorV(None, out_dtype, t.framework)
        reduced: list[int] | None = None
    elif isinstance(dim_v, NoneV):
        reduced = list(range(len(shape)))
        result = TensorV(tuple(Size.const(1) for _ in shape) if keep else (), out_dtype, t.framework)
    else:
        dims = _ints(list(dim_v.items) if isinstance(dim_v, SeqV) else [dim_v])
        norm = [_norm_dim(d, len(shape)) for d in dims] if dims is not None else None
        if norm is None or any(n is None for n in norm):
            if dims is not None:
                dim_out_of_range(cx, node, name, t, dims)  # x.sum(dim=2) of a 2-d tensor
            reduced = None
            result = TensorV(None, out_dtype, t.framework)
        else:
            reduced = sorted(set(n for n in norm if n is not None))
            new = (
                tuple(Size.const(1) if i in reduced else s for i, s in enumerate(shape))
                if keep
                else tuple(s for i, s in enumerate(shape) if i not in reduced)
            )
            axes = None
            if t.axes:
                axes = (
                    tuple(None if i in reduced else a for i, a in enumerate(t.axes))
                    if keep
                    else tuple(a for i, a in enumerate(t.axes) if i not in reduced)
                )
            result = TensorV(new, out_dtype, t.framework, axes, cx.origin(node, f"{name}(...)"))
            if (
                name in ("max", "min", "median")
                and not isinstance(dim_v, NoneV)
                and t.framework not in ("numpy", "jax")
            ):
                from .multi_ops import values_indices

                result = values_indices(t, result) if len(reduced) == 1 and not isinstance(dim_v, SeqV) else UNKNOWN
    note_framework_reduction(cx, node, name, t, reduced, kwargs)
    return result


def cumulative(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """cumsum / cumprod: the shape is kept (numpy without an axis flattens); the dtype follows ``dtype=``."""
    dim_v = args[0] if args else kwargs.get("dim", kwargs.get("axis", NoneV()))
    reduced: list[int] | None = None
    if t.shape is not None:
        if isinstance(dim_v, NoneV):
            reduced = list(range(len(t.shape))) if t.framework in ("numpy", "jax") else None
        else:
            d = _ints([dim_v])
            pos = _norm_dim(d[0], len(t.shape)) if d is not None else None
            reduced = [pos] if pos is not None else None
            if d is not None and pos is None and dim_out_of_range(cx, node, name, t, d):
                return t.with_shape(None)  # x.cumsum(2), np.cumsum(a, axis=2) of a 2-d array
    note_framework_reduction(cx, node, name, t, reduced, kwargs)
    dt = kwargs.get("dtype")
    out = t.with_dtype(_dtype_kw(kwargs)) if dt is not None and not isinstance(dt, NoneV) else t
    if dt is None and t.dtype in _INTEGRAL:
        out = t.with_dtype("int64" if t.framework in ("torch", "numpy") else None)  # accumulates in int64
    if t.framework in ("numpy", "jax") and t.shape is not None and (isinstance(dim_v, NoneV) or not t.shape):
        return out.with_shape((product(t.shape),))  # flattened without an axis; a 0-d array becomes (1,)
    return out


def note_framework_reduction(
    cx: OpContext, node: cst.CSTNode, name: str, t: TensorV, reduced: list[int] | None, kwargs: dict[str, Value]
) -> None:
    from .precision import check_framework_reduction

    check_framework_reduction(cx.source, node, name, t, reduced, kwargs)


def call(
    cx: OpContext,
    interp: "Interpreter",
    node: cst.Call,
    qual: str,
    args: list[Value],
    kwargs: dict[str, Value],
    dynamic: bool,
) -> Value | None:
    """A call of a framework function ``qual``; None when ``qual`` is no framework's."""
    fw = _framework(qual)
    if fw is None:
        return None
    name = qual.rsplit(".", 1)[-1]
    if dynamic:
        return UNKNOWN
    from ..interpret.paths import branching, each_path

    if branching(args) is not None:
        return each_path(cx.ctx, args, lambda a: call(cx, interp, node, qual, a, kwargs, dynamic))
    if qual.startswith(frameworks.PREFIXES):
        return frameworks.call(cx, interp, node, qual, args, kwargs)
    if qual.startswith("torch.nn.") and not qual.startswith("torch.nn.functional") and name[:1].isupper():
        built = layers.layer(cx, node, name, args, kwargs)
        if isinstance(built, LayerV) and name in layers.TORCH_NN_ANCESTORS:
            return replace(built, cls=name)
        return built
    if fw == "torch":
        kwargs = torch_keywords(kwargs)
    for rule in STUB_OVERRIDES.get(qual):
        out = rule(cx, node, qual, fw, args, kwargs)
        if out is not None:
            return (
                _made_by_call(cx, node, name, out, args) if out.__class__ is TensorV and out.origin is not None else out
            )
    stub = cx.stub(qual)
    if stub is not None:
        return _made_by_call(cx, node, name, call_stub(cx, node, qual, stub, args, kwargs), args)
    for rule in FUNCTIONS.get(qual) + FUNCTIONS.get(name):
        out = rule(cx, node, qual, fw, args, kwargs)
        if out is not None:
            return _made_by_call(cx, node, name, out, args)
    if (
        name == "where"
        and fw in ("numpy", "jax")
        and len(args) == 3
        and not kwargs
        and isinstance(args[0], (BoolV, IntV, FloatV))
        and any(isinstance(a, TensorV) for a in args[1:])
    ):
        # ``np.where(keep_rate < 1.0, kept, x)``: a Python condition is a 0-d array, broadcast with the two others
        args = [TensorV((), "bool", fw), *args[1:]]
    if args and isinstance(args[0], TensorV):
        t = args[0]
        if t.framework is None and fw in ("torch", "numpy", "jax"):
            # jnp.split(q, [k]) on an array whose framework is not known (a flax nnx layer's output): the function's
            # framework decides what its arguments mean (split indices, not sizes) and makes what it returns
            t = replace(t, framework=fw)
        return apply_op(cx, node, name, t, args[1:], kwargs, method=False)
    return UNKNOWN


def _made_by_call(cx: OpContext, node: cst.Call, name: str, out: Value, args: "list[Value] | None" = None) -> Value:
    """A function's result of known shape that no rule said the making of (``torch.cat``, ``einsum``, a stub's
    result), or that kept the making of an argument whose shape it changed (``F.interpolate(prev, scale_factor=2)``
    is not the conv that made ``prev``): made by this call, so a finding on it names the line (``from cat(...) at
    model.py:23``)."""
    if type(out) is not TensorV or out.shape is None:
        return out
    if out.origin is None:
        return replace(out, origin=cx.origin(node, f"{name}(...)"))
    for a in args or ():
        if type(a) is TensorV and a.origin is out.origin and a.shape != out.shape:
            return replace(out, origin=cx.origin(node, f"{name}(...)").made_from(a.origin))
    return out


# --------------------------------------------------------------------------------------------- function rules
@STUB_OVERRIDES.register("numpy.shape", "numpy.ndim", "jax.numpy.shape", "jax.numpy.ndim", "jax.numpy.size")
def _shape_queries(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``np.shape(x)`` / ``np.ndim(x)`` (and jax.numpy's, and ``jnp.size(x)``) of one array: what ``x.shape`` /
    ``x.ndim`` / the product of its sizes are (``np.size`` and ``torch.numel`` come from their stubs;
    ``jnp.size(x, axis)``: not modelled)."""
    if len(args) != 1 or kwargs or not isinstance(args[0], TensorV):
        return None
    t, name = args[0], qual.rsplit(".", 1)[-1]
    if name == "shape":
        return _shape_value(t)
    if name == "ndim":
        return _ndim_value(t)
    return IntV(product(t.shape)) if t.shape is not None else None


@STUB_OVERRIDES.register("torch.nn.functional.scaled_dot_product_attention")
def _attention(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    return attention(cx, node, args, kwargs)


@STUB_OVERRIDES.register("torch.nn.functional.cosine_similarity", "torch.cosine_similarity")
def _cosine_similarity(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``F.cosine_similarity(x1, x2, dim=1, eps=1e-8)``: x1 and x2 broadcast (operands that cannot raise, as for
    ``x1 * x2``), then reduced over ``dim`` of the broadcast shape: ``(8, 1, 16)`` against ``(1, 8, 16)`` over
    dim=1 is (8, 16). SimCLR's similarity matrix wants ``dim=-1``."""
    names = ("x1", "x2", "dim", "eps")
    if len(args) > len(names) or set(kwargs) - set(names):
        return None
    bound = dict(zip(names, args))
    bound.update(kwargs)
    x1, x2 = bound.get("x1"), bound.get("x2")
    if not isinstance(x1, TensorV) or not isinstance(x2, TensorV):
        return None
    joined = elementwise(cx, node, "cosine_similarity", [x1, x2])
    d = _ints([bound.get("dim", IntV(Size.const(1)))])
    if not isinstance(joined, TensorV) or joined.shape is None or d is None:
        return TensorV(None, x1.dtype, "torch")
    at = _norm_dim(d[0], len(joined.shape))
    if at is None:
        return TensorV(None, x1.dtype, "torch")
    out = joined.shape[:at] + joined.shape[at + 1 :]
    return TensorV(out, joined.dtype, "torch", None, cx.origin(node, "cosine_similarity(...)"))


@STUB_OVERRIDES.register("torch.nn.functional.linear")
def _linear(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    return linear(cx, node, args, kwargs)


@STUB_OVERRIDES.register("torch.nn.functional.embedding")
def _embedding(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``F.embedding(indices, weight)``: indices of any shape with a (num_embeddings, dim) table -> (*indices, dim),
    in the table's dtype (a table of another rank, or an unknown one, gives a tensor of unknown shape)."""
    x = args[0] if args else kwargs.get("input", UNKNOWN)
    w = args[1] if len(args) > 1 else kwargs.get("weight", UNKNOWN)
    if not isinstance(w, TensorV):
        return TensorV(None, None, "torch")
    if not isinstance(x, TensorV) or x.shape is None or w.shape is None or len(w.shape) != 2:
        return TensorV(None, w.dtype, "torch")
    return TensorV(x.shape + (w.shape[1],), w.dtype, "torch")


@STUB_OVERRIDES.register("torch.nn.functional.layer_norm")
def _layer_norm(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``F.layer_norm(x, normalized_shape, weight, bias)``: x's trailing axes must be ``normalized_shape`` (a tuple,
    list or ``x.shape[-1:]`` of known ints), as ``nn.LayerNorm``'s; an elementwise weight or bias must have exactly
    that shape. What is not known is not checked (the stub's shape, x's, is the result)."""
    x = args[0] if args else kwargs.get("input", UNKNOWN)
    ns = args[1] if len(args) > 1 else kwargs.get("normalized_shape", UNKNOWN)
    if not isinstance(x, TensorV) or x.shape is None or not isinstance(ns, SeqV):
        return None
    if not ns.items or not all(isinstance(i, IntV) for i in ns.items):
        return None
    shape = tuple(i.size for i in ns.items if isinstance(i, IntV))
    fails = len(shape) > len(x.shape) or any(
        equal(a, b) is Truth.FALSE for a, b in zip(x.shape[len(x.shape) - len(shape) :], shape)
    )
    if fails and len(shape) <= len(x.shape):
        cx.ctx.report(
            node,
            "SHP204",
            {"op": "F.layer_norm", "detail": D.LayerInput("layer_norm", "", shape, "shape", None, x.shape)},
            cx.origins([x]),
            spec=OpSpec("nn.LayerNorm", None, (x.shape,), (), (("normalized_shape", shape),)),
        )
        return x.with_shape(None)
    return None


@STUB_OVERRIDES.register("torch.nn.functional.one_hot")
def _one_hot(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``F.one_hot(index, num_classes)`` with num_classes known (> 0): a last axis of that many classes, int64 (the
    stub's ``*s c`` otherwise, c a fresh size)."""
    n = args[1] if len(args) > 1 else kwargs.get("num_classes")
    x = args[0] if args else kwargs.get("tensor")
    if not isinstance(n, IntV) or not isinstance(x, TensorV) or x.shape is None:
        return None
    k = n.size.as_int()
    if k is None or k <= 0:
        return None
    return TensorV(x.shape + (n.size,), "int64", x.framework, None, cx.origin(node, "one_hot(...)"))


@FUNCTIONS.register("torch.finfo", "numpy.finfo", "jax.numpy.finfo")
def _finfo(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``torch.finfo(dtype)`` (numpy's, jax.numpy's): an object whose limits are Python floats (values.FINFO)."""
    return RefV(FINFO) if len(args) + len(kwargs) <= 1 else None


@FUNCTIONS.register("torch.tril_indices", "torch.triu_indices")
def _triangle_indices(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``torch.tril_indices(row, col, offset=0)`` (``triu_indices``): a (2, count) int64 tensor, count the cells of
    the row x col grid on the kept side of the diagonal ``offset`` (DLRM's pairwise interactions: n(n-1)/2 for
    offset -1); a fresh count when a size is not a known int."""
    names = ("row", "col", "offset")
    got = [args[i] if i < len(args) else kwargs.get(k) for i, k in enumerate(names)]
    if len(args) > 3 or kwargs.keys() - {*names, "dtype", "device", "layout"}:
        return None
    ints = [v.size.as_int() if isinstance(v, IntV) else None for v in got[:2]]
    offset = 0 if got[2] is None else (got[2].size.as_int() if isinstance(got[2], IntV) else None)
    dtype = _dtype_kw(kwargs) or ("int64" if "dtype" not in kwargs else None)
    row, col = ints
    count: Size | None = None
    if row is not None and col is not None and offset is not None and 0 <= row <= 4096 and 0 <= col:
        if qual.endswith("tril_indices"):  # cells j <= i + offset
            k = sum(max(0, min(col, i + offset + 1)) for i in range(row))
        else:  # cells j >= i + offset
            k = sum(max(0, col - max(0, i + offset)) for i in range(row))
        count = Size.const(k)
    return TensorV(
        (Size.const(2), count if count is not None else cx.fresh("n")),
        dtype,
        "torch",
        None,
        cx.origin(node, qual.rsplit(".", 1)[-1] + "(...)"),
    )


@FUNCTIONS.register(*SIZE_CONSTRUCTORS, "arange")
def _construct(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    made = construct(cx, node, fw, qual, qual.rsplit(".", 1)[-1], args, kwargs)
    if fw == "torch" and isinstance(made, TensorV) and made.shape is not None and "memory_format" not in kwargs:
        made = replace(made, strides=contiguous_strides(made.shape))  # a new tensor: contiguous
    return made


@FUNCTIONS.register(*RANDOM_SIZED)
def _random_sized(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    return random_sized(cx, node, fw, qual, args, kwargs)


@FUNCTIONS.register("numpy.random.choice")
def _random_choice(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``np.random.choice(n, size)`` / ``rng.choice(len(x), k, replace=False)``: ``size`` draws from ``range(n)`` or
    from a 1-d array, so the shape is ``size``. A many-axis array (a Generator draws rows of it), ``axis=``, or no
    size (a scalar): not this rule."""
    if set(kwargs) - {"size", "replace", "p", "shuffle"}:
        return None
    a = args[0] if args else None
    size = kwargs["size"] if "size" in kwargs else (args[1] if len(args) > 1 else None)
    if size is None or isinstance(size, NoneV):
        if isinstance(a, IntV) and not a.assumed and fw == "numpy":  # rng.choice(n, p=probs): one int (a 0-d array)
            return TensorV((), "int64", fw, None, cx.origin(node, "choice(...)"))
        return None
    if isinstance(a, IntV) and not a.assumed:
        dtype: str | None = "int64"
    elif isinstance(a, TensorV) and a.shape is not None and len(a.shape) == 1:
        dtype = a.dtype
    else:
        return None
    return _sized(cx, node, "choice", [size], dtype, fw)


@FUNCTIONS.register("numpy.random.permutation")
def _random_permutation(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``np.random.permutation(n)`` / ``rng.permutation(len(y))``: the ints of ``range(n)`` shuffled, shape (n,);
    ``rng.permutation(x)``: a shuffled copy of ``x``, its shape."""
    if len(args) != 1 or set(kwargs) - {"axis"}:
        return None
    a = args[0]
    if isinstance(a, IntV) and not a.assumed:
        return TensorV((a.size,), "int64", "numpy", None, cx.origin(node, "permutation(...)"))
    if isinstance(a, TensorV) and a.shape:
        return a
    return None


@FUNCTIONS.register("torch.randperm")
def _randperm(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``torch.randperm(n)``: the ints of ``range(n)`` shuffled, shape (n,) (int64 unless ``dtype=`` says otherwise),
    so ``torch.randperm(n)[:k]`` has min(n, k) rows when both are known."""
    n = args[0] if args else kwargs.get("n")
    if len(args) > 1 or set(kwargs) - {"n", "device", "dtype", "generator", "requires_grad", "pin_memory", "layout"}:
        return None
    if not isinstance(n, IntV) or n.assumed or ((k := n.size.as_int()) is not None and k < 0):
        return None
    dtype = "int64" if "dtype" not in kwargs else None
    out = TensorV((n.size,), dtype, "torch", None, cx.origin(node, "randperm(...)"))
    # every element in [0, n), as torch.randint(n, ...) gives (a window start read back: ``series[s : s + w]``)
    return replace(out, bounds=(Size.const(0), n.size)) if dtype is not None else out


@FUNCTIONS.register("jax.random.PRNGKey", "jax.random.key")
def _prng_key(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jax.random.PRNGKey(seed)``: a raw key, one axis whose length depends on the PRNG implementation: 2 for the
    default threefry, unless the call names one (``impl=``) or the module mentions choosing one (the
    ``jax_default_prng_impl`` / ``JAX_DEFAULT_PRNG_IMPL`` setting, ``jax_enable_custom_prng``; rbg's keys have 4);
    ``jax.random.key(seed)``: a typed key, a scalar."""
    if qual.endswith("PRNGKey"):
        text = cx.source.text
        chosen = "impl" in kwargs or len(args) > 1 or any(w in text for w in ("PRNG_IMPL", "prng_impl", "custom_prng"))
        if chosen:
            return TensorV((cx.fresh("key_data"),), "uint32", "jax", None, cx.origin(node, "PRNGKey(...)"))
        made = cx.origin(node, "PRNGKey(...) (a raw key: 2 words with jax's default PRNG)")
        return TensorV((Size.const(2),), "uint32", "jax", None, made)
    return TensorV((), None, "jax", None, cx.origin(node, "key(...)"))


@FUNCTIONS.register("jax.random.split")
def _prng_split(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jax.random.split(key, num=2)``: ``num`` keys shaped like ``key`` (a tuple ``num`` is a shape). Never the
    array ``split`` of numpy / jnp."""
    key = args[0] if args else kwargs.get("key")
    num = args[1] if len(args) > 1 else kwargs.get("num", IntV(Size.const(2)))
    if len(args) > 2 or not isinstance(key, TensorV) or key.shape is None:
        return UNKNOWN
    nums = [num] if isinstance(num, IntV) else list(num.items) if isinstance(num, SeqV) else None
    if nums is None or not all(isinstance(n, IntV) and (n.size.as_int() or 0) >= 0 for n in nums):
        return UNKNOWN
    lead = tuple(n.size for n in nums if isinstance(n, IntV))
    return TensorV(lead + key.shape, key.dtype, "jax", None, cx.origin(node, "split(...)"))


@FUNCTIONS.register("jax.random.choice", "jax.random.permutation")
def _prng_choice(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jax.random.choice(key, a, shape=(), replace=True, p=None, axis=0)``: ``shape`` draws of ``a`` -- of
    ``range(a)`` for an int, of the array's slices along ``axis`` in its place for an array;
    ``jax.random.permutation(key, x, axis=0)``: ``range(x)`` shuffled, (x,), for an int, the array's shape for an
    array. Anything else (a shape not known, a 0-d array): unknown."""
    names = ("key", "a", "shape", "replace", "p", "axis") if qual.endswith("choice") else ("key", "x", "axis")
    if len(args) > len(names) or set(kwargs) - set(names) - {"independent"}:
        return UNKNOWN
    given = dict(zip(names, args))
    given.update(kwargs)
    a = given.get(names[1])
    axis = given.get("axis", IntV(Size.const(0)))
    at = axis.size.as_int() if isinstance(axis, IntV) and not axis.assumed else None
    made = cx.origin(node, f"{qual.rsplit('.', 1)[-1]}(...)")
    if qual.endswith("permutation"):
        if isinstance(a, IntV) and not a.assumed:
            return TensorV((a.size,), "int32", "jax", None, made)
        return a.with_shape(a.shape, None, made) if isinstance(a, TensorV) and a.shape else UNKNOWN
    shape = given.get("shape", SeqV((), "tuple"))
    sizes = [shape] if isinstance(shape, IntV) else list(shape.items) if isinstance(shape, SeqV) else None
    if sizes is None or not all(isinstance(n, IntV) and not n.assumed for n in sizes):
        return UNKNOWN
    drawn = tuple(n.size for n in sizes if isinstance(n, IntV))
    if isinstance(a, IntV) and not a.assumed:
        return TensorV(drawn, "int32", "jax", None, made)
    if not isinstance(a, TensorV) or not a.shape or at is None or not -len(a.shape) <= at < len(a.shape):
        return UNKNOWN
    at %= len(a.shape)
    return TensorV(a.shape[:at] + drawn + a.shape[at + 1 :], a.dtype, "jax", None, made)


@FUNCTIONS.register("jax.random.categorical")
def _prng_categorical(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jax.random.categorical(key, logits, axis=-1, shape=None)``: one index per distribution, int32: the logits'
    shape without ``axis``; with ``shape`` given, that shape. Anything else not known."""
    names = ("key", "logits", "axis", "shape", "replace", "mode")
    if len(args) > len(names) or set(kwargs) - set(names):
        return UNKNOWN
    given = dict(zip(names, args))
    given.update(kwargs)
    logits, axis, shape = given.get("logits"), given.get("axis", IntV(Size.const(-1))), given.get("shape")
    made = cx.origin(node, "categorical(...)")
    if shape is not None and not isinstance(shape, NoneV):
        sizes = list(shape.items) if isinstance(shape, SeqV) else None
        if sizes is None or not all(isinstance(n, IntV) and not n.assumed for n in sizes):
            return UNKNOWN
        return TensorV(tuple(n.size for n in sizes if isinstance(n, IntV)), "int32", "jax", None, made)
    at = axis.size.as_int() if isinstance(axis, IntV) and not axis.assumed else None
    if (
        not isinstance(logits, TensorV)
        or not logits.shape
        or at is None
        or not -len(logits.shape) <= at < len(logits.shape)
    ):
        return UNKNOWN
    at %= len(logits.shape)
    return TensorV(logits.shape[:at] + logits.shape[at + 1 :], "int32", "jax", None, made)


@FUNCTIONS.register("outer")
def _outer(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    if fw in ("numpy", "jax") and len(args) == 2 and isinstance(args[0], TensorV) and isinstance(args[1], TensorV):
        return outer(args[0], args[1], fw)
    return None  # torch.outer: its stub


@FUNCTIONS.register("torch.broadcast_tensors", "numpy.broadcast_arrays", "jax.numpy.broadcast_arrays")
def _broadcast_tensors(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``torch.broadcast_tensors(a, b)`` / ``np.broadcast_arrays(a, b)``: each array broadcast to the shape of all
    (shapes that do not broadcast raise, as for ``a + b``: SHP204); a tuple (jax: a list) of them, dtypes kept."""
    if kwargs or not args or not all(isinstance(a, TensorV) for a in args):
        return None
    tensors = [a for a in args if isinstance(a, TensorV)]
    joined = elementwise(cx, node, qual.rsplit(".", 1)[-1], tensors)
    if not isinstance(joined, TensorV) or joined.shape is None:
        return UNKNOWN
    out = tuple(TensorV(joined.shape, t.dtype, t.framework or fw, None, t.origin) for t in tensors)
    return SeqV(out, "list" if fw == "jax" else "tuple")


@FUNCTIONS.register("zeros_like", "ones_like", "empty_like", "randn_like", "rand_like", "full_like")
def _like(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    if not args or not isinstance(args[0], TensorV):
        return None
    if "shape" in kwargs:  # np.zeros_like(x, shape=(2, 3))
        dt = _dtype_kw(kwargs) if "dtype" in kwargs else args[0].dtype
        return _sized(cx, node, qual.rsplit(".", 1)[-1], [kwargs["shape"]], dt, fw)
    return args[0].with_dtype(_dtype_kw(kwargs)) if "dtype" in kwargs else args[0]


@FUNCTIONS.register("cat", "concatenate", "concat", "stack")
def _concat(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    return concat(cx, node, qual.rsplit(".", 1)[-1], fw, args, kwargs)


@FUNCTIONS.register("hstack", "vstack")
def _hv_stack(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``hstack(xs)``: 0-d pieces become (1,); joined along axis 0 when the first piece is 1-d, else along axis 1.
    ``vstack(xs)``: pieces made at least 2-d (0-d: (1, 1), (n,): (1, n)), joined along axis 0. numpy, jax and
    torch alike."""
    name = qual.rsplit(".", 1)[-1]
    seq = args[0] if len(args) == 1 and not (set(kwargs) - {"dtype", "casting"}) else None
    if not isinstance(seq, SeqV) or seq.kind not in ("list", "tuple") or not seq.items:
        return TensorV(None, None, fw)
    pieces: list[TensorV] = []
    for t in seq.items:
        if not isinstance(t, TensorV) or t.shape is None or t.alts:
            return TensorV(None, None, fw)
        one, shape = Size.const(1), t.shape
        if name == "hstack" and not shape:
            t = t.with_shape((one,))
        elif name == "vstack" and len(shape) < 2:
            t = t.with_shape((one, shape[0] if shape else one))
        pieces.append(t)
    first = pieces[0].shape or ()
    axis = 1 if name == "hstack" and len(first) != 1 else 0
    return concat(cx, node, name, fw, [SeqV(tuple(pieces), "list"), IntV(Size.const(axis))], {})


@FUNCTIONS.register("block_diag")
def _block_diag(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``torch.block_diag(*blocks)`` (recurrent block-diagonal weights): a 0-d block is (1, 1), a 1-d (n,) is
    (1, n); the result is (sum of rows, sum of columns)."""
    if fw != "torch" or kwargs or not args:
        return None
    rows, cols = Size.const(0), Size.const(0)
    for t in args:
        if not isinstance(t, TensorV) or t.shape is None or t.alts or len(t.shape) > 2:
            return None
        r, c = (
            (Size.const(1), Size.const(1))
            if not t.shape
            else (Size.const(1), t.shape[0])
            if len(t.shape) == 1
            else t.shape
        )
        rows, cols = rows + r, cols + c
    dtypes = {t.dtype for t in args if isinstance(t, TensorV)}
    return TensorV((rows, cols), dtypes.pop() if len(dtypes) == 1 else None, fw)


@FUNCTIONS.register("column_stack")
def _column_stack(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``column_stack([a, b])``: a 0-d or 1-d piece is a column ((1, 1) / (n, 1)), the others stay as they are,
    all joined along axis 1."""
    seq = args[0] if len(args) == 1 and not kwargs else None
    if not isinstance(seq, SeqV) or seq.kind not in ("list", "tuple") or not seq.items:
        return None
    return column_stack(cx, node, "column_stack", fw, list(seq.items))


def column_stack(cx: OpContext, node: cst.CSTNode, name: str, fw: str, items: list[Value]) -> Value:
    """The pieces of ``column_stack`` / ``np.c_[...]`` joined along axis 1, a 0-d or 1-d piece as a column."""
    pieces: list[Value] = []
    for t in items:
        if not isinstance(t, TensorV) or t.shape is None or t.alts:
            return TensorV(None, None, fw)
        if len(t.shape) < 2:
            t = t.with_shape((t.shape[0] if t.shape else Size.const(1), Size.const(1)))
        pieces.append(t)
    return concat(cx, node, name, fw, [SeqV(tuple(pieces), "list"), IntV(Size.const(1))], {})  # type: ignore[arg-type]


@FUNCTIONS.register("matmul", "bmm", "mm")
def _matmul(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    if len(args) == 2 and isinstance(args[0], TensorV) and isinstance(args[1], TensorV):
        return matmul(cx, node, qual.rsplit(".", 1)[-1], args[0], args[1])
    return None


@FUNCTIONS.register(
    "torch.hann_window", "torch.hamming_window", "torch.blackman_window", "torch.bartlett_window", "torch.kaiser_window"
)
def _window(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``torch.hann_window(n)`` & co.: a float vector of n (float32 unless ``dtype=``)."""
    n = args[0] if args else kwargs.get("window_length")
    if not isinstance(n, IntV):
        return None
    dt = _dtype_kw(kwargs) if "dtype" in kwargs else "float32"
    return TensorV((n.size,), dt, "torch", None, cx.origin(node, f"{qual.rsplit('.', 1)[-1]}(...)"))


@FUNCTIONS.register("torch.linalg.solve", "numpy.linalg.solve", "jax.numpy.linalg.solve")
def _solve(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    names = ("A", "B") if fw == "torch" else ("a", "b")
    a = args[0] if args else kwargs.get(names[0])
    b = args[1] if len(args) > 1 else kwargs.get(names[1])
    left = kwargs.get("left")
    if not isinstance(a, TensorV) or not isinstance(b, TensorV) or (left is not None and not isinstance(left, BoolV)):
        return None
    if isinstance(left, BoolV) and not left.value:
        return TensorV(None, None, fw)  # x @ A = B: not modelled
    return linalg_solve(cx, node, fw, a, b)


@FUNCTIONS.register("torch.linalg.cholesky", "numpy.linalg.cholesky", "jax.numpy.linalg.cholesky")
def _cholesky(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``linalg.cholesky(a)`` of a (..., n, n) matrix: its factor, of a's shape (not known square: unknown)."""
    a = args[0] if args else kwargs.get("A" if fw == "torch" else "a")
    if not isinstance(a, TensorV):
        return None
    if a.shape is None or len(a.shape) < 2 or equal(a.shape[-1], a.shape[-2]) is not Truth.TRUE:
        return TensorV(None, a.dtype, fw)
    return TensorV(a.shape, a.dtype, fw, None, cx.origin(node, "linalg.cholesky(...)"))


@FUNCTIONS.register("torch.linalg.qr", "numpy.linalg.qr", "jax.numpy.linalg.qr", "torch.qr")
def _qr(cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]) -> Value | None:
    """``linalg.qr(a)`` of a (..., m, n) array: (q, r), q (..., m, k) and r (..., k, n) with k = min(m, n)
    ("reduced", the default), or q (..., m, m) and r (..., m, n) ("complete"). Other modes: not this rule.
    torch's older ``torch.qr(a, some=True)``: ``some`` chooses "reduced", ``some=False`` "complete"."""
    a = (
        args[0]
        if args
        else kwargs.get("A" if fw == "torch" and qual != "torch.qr" else ("input" if fw == "torch" else "a"))
    )
    if qual == "torch.qr":
        some = args[1] if len(args) > 1 else kwargs.get("some", BoolV(True))
        if not isinstance(some, BoolV) or some.value is None:
            return None
        mode: Value = StrV("reduced" if some.value else "complete")
    else:
        mode = args[1] if len(args) > 1 else kwargs.get("mode", StrV("reduced"))
    if not isinstance(a, TensorV) or not isinstance(mode, StrV) or mode.value not in ("reduced", "complete"):
        return None
    unknown = TensorV(None, a.dtype, fw)
    if a.shape is None or len(a.shape) < 2:
        return SeqV((unknown, unknown), "tuple")
    *batch, m, n = a.shape
    if mode.value == "complete":
        k: Size | None = m
    else:
        mi, ni = m.as_int(), n.as_int()
        k = Size.const(min(mi, ni)) if mi is not None and ni is not None else (m if equal(m, n) is Truth.TRUE else None)
    if k is None:
        return SeqV((unknown, unknown), "tuple")
    q = TensorV((*batch, m, k), a.dtype, fw, None, cx.origin(node, "linalg.qr(...)"))
    r = TensorV((*batch, k, n), a.dtype, fw, None, cx.origin(node, "linalg.qr(...)"))
    return SeqV((q, r), "tuple")


_LINALG_SPACES = ("torch.linalg", "numpy.linalg", "jax.numpy.linalg")


def _real_float(dtype: str | None) -> str | None:
    """A float input's dtype, which eigh's eigenvalues and svd's singular values keep; else not known here."""
    return dtype if dtype is not None and dtype.startswith(("float", "bfloat")) else None


@FUNCTIONS.register(*(f"{m}.{n}" for m in _LINALG_SPACES for n in ("eigh", "eig", "eigvalsh", "eigvals")))
def _eig(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``linalg.eigh(a)`` / ``linalg.eig(a)`` of a (..., n, n) matrix: (eigenvalues (..., n), eigenvectors
    (..., n, n), one eigenvector per column); ``eigvalsh`` / ``eigvals``: the eigenvalues alone. A matrix not known
    square: unknown (the framework raises for a non-square one, left to the run)."""
    name = qual.rsplit(".", 1)[-1]
    a = args[0] if args else kwargs.get("A" if fw == "torch" else "a")
    if not isinstance(a, TensorV):
        return None
    real = name in ("eigh", "eigvalsh")
    unknown = TensorV(None, _real_float(a.dtype) if real else None, fw)
    pair = SeqV((unknown, unknown), "tuple", ("eigenvalues", "eigenvectors"))
    vectors = name in ("eigh", "eig")
    if a.shape is None or len(a.shape) < 2 or equal(a.shape[-1], a.shape[-2]) is not Truth.TRUE:
        return pair if vectors else unknown
    where = cx.origin(node, f"linalg.{name}(...)")
    w = TensorV(a.shape[:-1], _real_float(a.dtype) if real else None, fw, None, where)
    if not vectors:
        return w
    v = TensorV(a.shape, _real_float(a.dtype) if real else None, fw, None, where)
    return SeqV((w, v), "tuple", ("eigenvalues", "eigenvectors"))


@FUNCTIONS.register(*(f"{m}.svd" for m in _LINALG_SPACES))
def _svd(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``linalg.svd(a, full_matrices=True)`` of a (..., m, n) array: (U, S, Vh) with k = min(m, n), S (..., k), U
    (..., m, m) and Vh (..., n, n) with ``full_matrices``, else U (..., m, k) and Vh (..., k, n); numpy / jax with
    ``compute_uv=False``: S alone. k is known when the order of m and n is decided; else those shapes are unknown."""
    a = args[0] if args else kwargs.get("A" if fw == "torch" else "a")
    if not isinstance(a, TensorV):
        return None
    full_v = args[1] if len(args) > 1 else kwargs.get("full_matrices", BoolV(True))
    uv_v = BoolV(True) if fw == "torch" else (args[2] if len(args) > 2 else kwargs.get("compute_uv", BoolV(True)))
    unknown = TensorV(None, None, fw)
    if not isinstance(full_v, BoolV) or full_v.value is None or not isinstance(uv_v, BoolV) or uv_v.value is None:
        return None
    triple = SeqV((unknown, unknown, unknown), "tuple", ("U", "S", "Vh"))
    if a.shape is None or len(a.shape) < 2 or "subset_by_index" in kwargs:
        return triple if uv_v.value else unknown
    *batch, m, n = a.shape
    k: Size | None = m if greater_equal(n, m) is Truth.TRUE else n if greater_equal(m, n) is Truth.TRUE else None
    where = cx.origin(node, "linalg.svd(...)")
    s = TensorV((*batch, k), _real_float(a.dtype), fw, None, where) if k is not None else unknown
    if not uv_v.value:
        return s
    if full_v.value:
        u = TensorV((*batch, m, m), a.dtype, fw, None, where)
        vh = TensorV((*batch, n, n), a.dtype, fw, None, where)
    elif k is not None:
        u = TensorV((*batch, m, k), a.dtype, fw, None, where)
        vh = TensorV((*batch, k, n), a.dtype, fw, None, where)
    else:
        u = vh = unknown
    return SeqV((u, s, vh), "tuple", ("U", "S", "Vh"))


@FUNCTIONS.register("torch.diag", "numpy.diag", "jax.numpy.diag")
def _diag(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``diag(v)`` of a 1-d array of length n: the (n + |k|, n + |k|) matrix with v on its k-th diagonal (k the
    ``diagonal`` / ``k`` argument, 0 by default); of a 2-d array: its k-th diagonal, 1-d (of a length known when the
    main one of known sizes). A value whose shape differs between branches: once per path, the results joined."""
    from ..interpret.paths import branching, each_path

    v = args[0] if args else kwargs.get("input" if fw == "torch" else "v")
    k_v = args[1] if len(args) > 1 else kwargs.get("diagonal" if fw == "torch" else "k", IntV(Size.const(0)))
    if not isinstance(v, TensorV) or len(args) > 2:
        return None
    k = k_v.size.as_int() if isinstance(k_v, IntV) else None
    if k is None:
        return TensorV(None, v.dtype, fw)
    if branching([v]) is not None:
        return each_path(cx.ctx, [v], lambda p: _diag(cx, node, qual, fw, p, {})) or TensorV(None, v.dtype, fw)
    if v.shape is None or len(v.shape) not in (1, 2):
        return TensorV(None, v.dtype, fw)  # other ranks raise
    if len(v.shape) == 1:
        side = v.shape[0] + abs(k)
        return TensorV((side, side), v.dtype, fw)
    rows, cols = (x.as_int() for x in v.shape)
    length: Size | None = None
    if rows is not None and cols is not None:
        length = Size.const(max(0, min(rows + min(k, 0), cols - max(k, 0))))
    if length is None and k == 0 and equal(v.shape[0], v.shape[1]) is Truth.TRUE:
        length = v.shape[0]
    return TensorV((length if length is not None else cx.fresh("diagonal"),), v.dtype, fw)


def linalg_solve(cx: OpContext, node: cst.CSTNode, fw: str, a: TensorV, b: TensorV) -> Value:
    """``linalg.solve(a, b)``: a is (..., n, n); b is a vector (n,) or a stack of matrices (..., n, k) in numpy >= 2
    and JAX >= 0.5 (only a 1-d b is a vector); torch also takes a batch of vectors, a b whose shape is a's without its
    last axis. The batch dimensions broadcast. A finding only where every rule of the framework fails."""
    dtype = a.dtype if a.dtype == b.dtype else None
    unknown = TensorV(None, dtype, fw)
    if a.shape is None or b.shape is None or len(a.shape) < 2 or not b.shape:
        return unknown
    spec = OpSpec("solve", None, (a.shape, b.shape), extra=(("framework", fw),))

    def fail(detail: D.LinalgSolve) -> Value:
        cx.ctx.report(node, "SHP204", {"op": "linalg.solve", "detail": detail}, cx.origins([a, b]), spec=spec)
        return unknown

    n = a.shape[-1]
    if equal(a.shape[-2], n) is Truth.FALSE:
        return fail(D.LinalgSolve("square", a.shape, b.shape, a.shape[-2], n))
    vector = len(b.shape) == 1
    if fw == "torch" and 1 < len(b.shape) == len(a.shape) - 1:
        same = [equal(x, y) for x, y in zip(b.shape, a.shape[:-1])]
        if any(t is Truth.UNKNOWN for t in same):
            return unknown  # a batch of vectors or a matrix: decided by sizes not known here
        vector = all(t is Truth.TRUE for t in same)
    rows = b.shape[-1] if vector else b.shape[-2]
    if equal(rows, n) is Truth.FALSE:
        stacked = fw in ("numpy", "jax") and len(b.shape) == len(a.shape) - 1
        return fail(D.LinalgSolve("rows", a.shape, b.shape, n, rows, stacked))
    if len(b.shape) == 1:
        return TensorV(a.shape[:-1], dtype, fw)
    batch, bad = broadcast_shapes(a.shape[:-2], b.shape[:-1] if vector else b.shape[:-2])
    if bad is not None:
        return fail(D.LinalgSolve("batch", a.shape, b.shape))
    if batch is None:
        return unknown
    return TensorV(batch + ((n,) if vector else (n, b.shape[-1])), dtype, fw)


@FUNCTIONS.register(*LOSSES)
def _loss(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    if len(args) >= 2 and isinstance(args[0], TensorV) and isinstance(args[1], TensorV):
        return loss(cx, node, qual.rsplit(".", 1)[-1], args[0], args[1], kwargs)
    return None


@FUNCTIONS.register("torch.nn.functional.ctc_loss")
def _ctc_loss(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)``: batched
    log-probs are time-major (T, N, C), and torch requires one input length and one target length per batch entry
    ("input_lengths must be of size batch_size"): a 1-d length tensor, or a list / tuple, of surely another size
    than N is a finding (batch-first (N, T, C) log-probs read as T=N, N=T). The result is 0-d for the ``mean`` /
    ``sum`` reductions, (N,) for ``reduction='none'``."""
    names = ("log_probs", "targets", "input_lengths", "target_lengths", "blank", "reduction", "zero_infinity")
    given = dict(zip(names, args)) | {k: v for k, v in kwargs.items() if k in names}
    x = given.get("log_probs")
    if not isinstance(x, TensorV) or len(args) > len(names):
        return None
    if x.shape is None or len(x.shape) != 3:
        return TensorV(None, x.dtype, "torch")
    n = x.shape[1]
    for which in ("input_lengths", "target_lengths"):
        v = given.get(which)
        if isinstance(v, TensorV) and v.shape is not None and len(v.shape) == 1:
            size: Size | None = v.shape[0]
        elif isinstance(v, SeqV) and v.kind in ("list", "tuple"):
            size = Size.const(len(v.items))
        else:
            continue
        if size is not None and equal(size, n) is Truth.FALSE:
            lengths: tuple[Size, ...] = v.shape if isinstance(v, TensorV) and v.shape is not None else (size,)
            cx.ctx.report(
                node,
                "SHP204",
                {"op": "F.ctc_loss", "detail": D.CtcLengths(which, x.shape, size)},
                cx.origins([x] + ([v] if isinstance(v, TensorV) else [])),
                spec=OpSpec("ctc_loss.lengths", None, (x.shape, lengths), (), (("which", which),)),
            )
            return TensorV(None, x.dtype, "torch")
    red = given.get("reduction", StrV("mean"))
    if isinstance(red, StrV) and red.value in ("mean", "sum"):
        return TensorV((), x.dtype, "torch")
    if isinstance(red, StrV) and red.value == "none":
        return TensorV((n,), x.dtype, "torch")
    return TensorV(None, x.dtype, "torch")


# torch's legacy reduction arguments of the class losses (they override ``reduction``)
_CLASS_LOSS_LEGACY = ("size_average", "reduce")


@FUNCTIONS.register("torch.nn.functional.cross_entropy", "torch.nn.functional.nll_loss")
def _class_loss(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``F.cross_entropy(input, target, weight)`` / ``F.nll_loss``: the classes are input's axis 1 (axis 0 of a 1-d,
    unbatched input), and a 1-d ``weight`` must have one entry per class (torch: "weight tensor should be defined
    either for all C classes or no classes"), for index and probability targets alike. The result is 0-d for the
    ``mean`` / ``sum`` reductions, input's shape without the class axis for ``reduction='none'``; the legacy
    ``size_average`` / ``reduce`` arguments leave it unknown."""
    name = qual.rsplit(".", 1)[-1]
    x = args[0] if args else kwargs.get("input", UNKNOWN)
    w = args[2] if len(args) > 2 else kwargs.get("weight")
    t = args[1] if len(args) > 1 else kwargs.get("target")
    if not isinstance(x, TensorV):
        return None
    t = t if isinstance(t, TensorV) else None
    ignore = kwargs.get("ignore_index", IntV(Size.const(-100)))
    ignored = ignore.size.as_int() if isinstance(ignore, IntV) and not ignore.assumed else None
    if len(args) > 3 or any(k in kwargs for k in _CLASS_LOSS_LEGACY):
        return class_loss(cx, node, name, f"F.{name}", x, w, None, t, ignored)
    return class_loss(cx, node, name, f"F.{name}", x, w, kwargs.get("reduction", StrV("mean")), t, ignored)


def class_loss(
    cx: OpContext,
    node: cst.Call,
    name: str,
    op: str,
    x: TensorV,
    w: Value | None,
    red: Value | None,
    target: TensorV | None = None,
    ignore_index: int | None = -100,
) -> TensorV:
    """``name`` (cross_entropy / nll_loss) of ``x`` with the class weight ``w`` (None: none given) and the reduction
    ``red`` (None: not known), reported as ``op`` (``F.cross_entropy``, ``nn.CrossEntropyLoss``). A batched input
    (2-d or more) and a target (index or probability) whose first axes surely differ: torch raises "Expected input
    batch_size (N) to match target batch_size (M)" (shapes that differ take the index path, nll_loss_nd, which
    compares the first axes before anything else; equal shapes have equal first axes)."""
    if (
        x.framework == "torch"
        and target is not None
        and x.shape is not None
        and target.shape is not None
        and len(x.shape) >= 2
    ):
        detail: D.Detail | None = None
        if len(target.shape) >= 1 and equal(x.shape[0], target.shape[0]) is Truth.FALSE:
            detail = D.ClassTarget(x.shape, target.shape)
        elif surely_differ(target.shape, x.shape[:1] + x.shape[2:]) and (
            name == "nll_loss" or surely_differ(target.shape, x.shape)
        ):
            # a target of another shape than the input is one of class indices (a probability target has the
            # input's shape; nll_loss takes only indices): torch wants the input's shape without the class axis 1
            # ("Expected target size [4, 5], got [4, 10]" for a (4, 10, 5) input whose classes are on the last axis)
            detail = D.ClassTargetShape(x.shape, target.shape, x.shape[:1] + x.shape[2:])
        if detail is not None:
            cx.ctx.report(
                node,
                "SHP204",
                {"op": op, "detail": detail},
                cx.origins([x, target]),
                spec=OpSpec("class_loss.target", None, (x.shape, target.shape), (), (("name", name),)),
            )
            return TensorV(None, x.dtype, "torch")
    index = _target_index_out_of_range(x, target, ignore_index)
    if index is not None and x.shape is not None and target is not None:
        classes = x.shape[1] if len(x.shape) >= 2 else x.shape[0]
        cx.ctx.report(
            node,
            "SHP204",
            {"op": op, "detail": D.ClassIndex(classes, index)},
            cx.origins([x, target]),
            spec=OpSpec("class_loss.index", None, (x.shape,), (), (("classes", classes), ("index", index))),
        )
        return TensorV(None, x.dtype, "torch")
    if x.shape is not None and len(x.shape) >= 1 and isinstance(w, TensorV) and w.shape is not None:
        classes = x.shape[1] if len(x.shape) >= 2 else x.shape[0]
        if len(w.shape) == 1 and equal(w.shape[0], classes) is Truth.FALSE:
            cx.ctx.report(
                node,
                "SHP204",
                {"op": op, "detail": D.ClassWeight(x.shape, w.shape, classes)},
                cx.origins([x, w]),
                spec=OpSpec("class_loss.weight", None, (x.shape, w.shape), (), (("name", name),)),
            )
            return TensorV(None, x.dtype, "torch")
    if not isinstance(red, StrV) or red.value not in ("mean", "sum", "none"):
        return TensorV(None, x.dtype, "torch")
    if red.value != "none":
        return TensorV((), x.dtype, "torch")
    if x.shape is None or not x.shape:
        return TensorV(None, x.dtype, "torch")
    return TensorV(x.shape[:1] + x.shape[2:] if len(x.shape) >= 2 else (), x.dtype, "torch")


def _target_index_out_of_range(x: TensorV, target: TensorV | None, ignore_index: int | None) -> Size | None:
    """A class index the target of a class loss surely holds (``torch.arange(n)``'s n - 1, a known element) that is
    not a class of ``x`` (axis 1; axis 0 of a 1-d input) and not the ``ignore_index``: torch raises "Target 7 is
    out of bounds". Only an integer target of the input's shape without the class axis (an index target)."""
    if (
        target is None
        or x.framework != "torch"
        or x.shape is None
        or not x.shape
        or target.shape is None
        or target.dtype not in ("int64", "long")
        or ignore_index is None
    ):
        return None
    expected = x.shape[:1] + x.shape[2:] if len(x.shape) >= 2 else ()
    if len(target.shape) != len(expected) or any(equal(a, b) is not Truth.TRUE for a, b in zip(target.shape, expected)):
        return None
    top = target.top[0] if target.top is not None else None
    if top is None and (held := exact_values(target)):
        top = Size.const(max(held))
    classes = x.shape[1] if len(x.shape) >= 2 else x.shape[0]
    if top is None or top.as_int() == ignore_index or greater_equal(top, classes) is not Truth.TRUE:
        return None
    return top


@FUNCTIONS.register(*ELEMENTWISE_FUNCS)
def _elementwise_fn(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    name = qual.rsplit(".", 1)[-1]
    if name.startswith("logical_"):
        if len(args) != 2 or not all(isinstance(a, TensorV) for a in args):
            return None
        out = elementwise(cx, node, name, args)  # type: ignore[arg-type]
        return out.with_dtype("bool") if isinstance(out, TensorV) else out
    if name == "where" and len(args) == 3 and all(isinstance(a, TensorV) for a in args) and not kwargs:
        # torch.where(cond, x, y): the three broadcast; the values' dtype when x and y share one (the condition's
        # bool is not the result's)
        out = elementwise(cx, node, name, args)  # type: ignore[arg-type]
        same = args[1].dtype if args[1].dtype == args[2].dtype else None  # type: ignore[union-attr]
        return out.with_dtype(same) if isinstance(out, TensorV) else out
    if len(args) >= 2 and all(isinstance(a, TensorV) for a in args[:2]):
        return elementwise(cx, node, name, [a for a in args if isinstance(a, TensorV)])
    if (  # np.maximum(0, x) (a ReLU): a Python number and an array (numpy's and jax's ufuncs; torch's want tensors,
        # but for torch.pow(2.0, exps): a number raised to each element)
        (fw in ("numpy", "jax") or (fw == "torch" and name == "pow"))
        and name != "where"
        and len(args) == 2
        and isinstance(args[0], (IntV, FloatV, BoolV))
        and isinstance(args[1], TensorV)
    ):
        return _with_scalar(name, args[1], args[0])
    return None


@FUNCTIONS.register("torch.polar", "torch.complex")
def _complex_from_parts(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``torch.polar(abs, angle)`` / ``torch.complex(real, imag)``: the two broadcast; float32 parts give complex64,
    float64 parts complex128 (parts of two dtypes raise, half parts too: no dtype claimed then)."""
    names = ("abs", "angle") if qual == "torch.polar" else ("real", "imag")
    parts = list(args[:2]) + [kwargs[k] for k in names[len(args) :] if k in kwargs]
    if (
        len(args) > 2
        or len(parts) != 2
        or set(kwargs) - {*names, "out"}
        or not all(isinstance(p, TensorV) for p in parts)
    ):
        return None
    a, b = parts
    assert isinstance(a, TensorV) and isinstance(b, TensorV)
    out = elementwise(cx, node, qual.rsplit(".", 1)[-1], [a, b])
    dtype = {"float32": "complex64", "float64": "complex128"}.get(a.dtype or "") if a.dtype == b.dtype else None
    return out.with_dtype(dtype) if isinstance(out, TensorV) else out


@FUNCTIONS.register("torch.nn.functional.interpolate", "torch.nn.functional.upsample")
def _interpolate(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    x = args[0] if args else kwargs.get("input")
    if x is UNKNOWN:
        x = TensorV(None, None, "torch")  # F.interpolate raises on anything but a tensor
    if not isinstance(x, TensorV) or len(args) > 3:
        return None
    size = args[1] if len(args) > 1 else kwargs.get("size")
    scale = args[2] if len(args) > 2 else kwargs.get("scale_factor")
    if "**" in kwargs:
        # F.interpolate(x, scale_factor=2, **self.up_kwargs) (the keywords not known): they can only add mode,
        # align_corners, recompute_scale_factor or antialias, which keep the output size when an explicit size or
        # whole-number scale factors decide it (a second size or scale, or any other name, raises)
        given_size = size is not None and not isinstance(size, NoneV)
        whole = isinstance(scale, IntV) or (
            isinstance(scale, SeqV) and scale.kind != "shape" and all(isinstance(s, IntV) for s in scale.items)
        )
        if given_size == whole or "recompute_scale_factor" in kwargs:
            return x.with_shape(None)
        kwargs = {k: v for k, v in kwargs.items() if k != "**"}
    if "recompute_scale_factor" in kwargs and scale is not None:
        return x.with_shape(None)
    return layers.resized(cx, x, size, scale, (f"F.{qual.rsplit('.', 1)[-1]}", node))


@FUNCTIONS.register("torch.Tensor", *(f"torch.{n}" for n in _TENSOR_TYPES))
def _tensor_class(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``torch.Tensor(data)`` / ``torch.FloatTensor(data)`` with a list or tuple: data of its literal shape;
    ``torch.FloatTensor(2, 3)`` / ``torch.LongTensor(n)`` with sizes (ints, or a ``torch.Size``): an uninitialised
    tensor of those sizes. float32 for ``torch.Tensor`` (the default dtype)."""
    short = qual.rsplit(".", 1)[-1]
    dtype = _TENSOR_TYPES.get(short, "float32")
    if len(args) == 1 and not kwargs and isinstance(args[0], SeqV) and args[0].kind in ("list", "tuple"):
        return TensorV(_literal_shape(args[0]), dtype, "torch", None, cx.origin(node, f"torch.{short}(...)"))
    if (
        len(args) == 1
        and not kwargs
        and isinstance(args[0], TensorV)
        and args[0].framework == "numpy"
        and args[0].shape  # (rank 0 may be a numpy scalar, which these constructors reject)
    ):
        # torch.Tensor(states / 255.), torch.FloatTensor(np.random.random((1, 3, 64, 64))): a copy of the array's
        # data, of its shape, converted to the class's dtype
        return TensorV(args[0].shape, dtype, "torch", None, cx.origin(node, f"torch.{short}(...)"))
    if kwargs or not args:
        return None
    if len(args) == 1 and isinstance(args[0], SeqV) and args[0].kind == "shape":
        sizes = list(args[0].items)
    elif all(isinstance(a, IntV) and not a.assumed for a in args):
        sizes = list(args)
    else:
        return None
    if not all(isinstance(a, IntV) and (a.size.as_int() is None or a.size.as_int() >= 0) for a in sizes):  # type: ignore[operator]
        return None
    return TensorV(
        tuple(a.size for a in sizes if isinstance(a, IntV)),
        dtype,
        "torch",
        None,
        cx.origin(node, f"torch.{short}(...)"),
    )


@FUNCTIONS.register("tensor", "as_tensor", "from_numpy", "array", "asarray")
def _as_array(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    if args and isinstance(args[0], TensorV):  # np.asarray(torch_tensor) is a numpy array from here on
        src = args[0]
        out = TensorV(src.shape, src.dtype, fw, src.axes, src.origin, src.vshape)
        if fw == "jax" and src.dtype in _X64:
            out = out.with_dtype(None)
        return out.with_dtype(_dtype_kw(kwargs)) if "dtype" in kwargs else out
    arrays = fw in ("numpy", "jax")
    shape = _literal_shape(args[0], arrays=arrays) if args and qual.rsplit(".", 1)[-1] != "from_numpy" else None
    dtype = _dtype_kw(kwargs)
    if dtype is None and "dtype" not in kwargs and shape is not None and fw in ("torch", "numpy"):
        dtype = _literal_dtype(args[0])
    elif dtype is None and "dtype" not in kwargs and shape is not None and fw == "jax":
        # jax's default integer is int32 (int64 under jax_enable_x64): an integer array either way, so
        # ``nodes[senders]`` gathers rows
        literal = _literal_dtype(args[0])
        dtype = "int32" if literal == "int64" else literal
    values = _literal_ints(args[0], node) if shape is not None and len(shape) <= 1 and fw in ("torch", "jax") else None
    if values is not None and (kwargs.keys() - {"dtype", "device"} or dtype not in (None, "int64", "int32")):
        values = None
    return TensorV(shape, dtype, fw, values=values)


@FUNCTIONS.register("ascontiguousarray", "asfortranarray")
def _contiguous_array(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``np.ascontiguousarray(a)`` / ``np.asfortranarray(a)`` of an array: its elements laid out in C (Fortran)
    order, of its shape, at least 1-d (a 0-d array becomes shape (1,)); converted to ``dtype`` when given."""
    if fw != "numpy" or len(args) != 1 or set(kwargs) - {"dtype"} or not isinstance(args[0], TensorV):
        return None
    a = args[0]
    if a.shape is None or a.alts or a.framework != "numpy":
        return None
    out = TensorV(a.shape or (Size.const(1),), a.dtype, "numpy", a.axes if a.shape else None, a.origin)
    return out.with_dtype(_dtype_kw(kwargs)) if "dtype" in kwargs else out


def _literal_ints(v: Value, node: cst.Call) -> tuple[tuple[int, ...], cst.Call, int] | None:
    """The exact elements of ``torch.tensor([33, 20, 28])`` / ``jnp.array(5)`` of known Python ints (small ones, at
    most MAX_EXACT), with the call that made them (``TensorV.values``). numpy arrays are left out: numpy changes
    them in place through functions with no mark of it (``np.random.shuffle``, ``np.copyto``)."""
    items = v.items if isinstance(v, SeqV) else (v,)
    if len(items) > MAX_EXACT:
        return None
    out: list[int] = []
    for x in items:
        n = x.size.as_int() if isinstance(x, IntV) and not x.assumed else None
        if n is None or abs(n) >= EXACT_LIMIT:
            return None
        out.append(n)
    return exact(tuple(out), node)


def _literal_dtype(v: Value) -> str | None:
    """The dtype torch and numpy give a literal of Python ints (int64) or bools (bool) without a dtype argument, so
    ``x[torch.tensor([0, 2])]`` picks rows; floats (torch's default dtype may be changed) and mixes stay unknown."""
    kinds: set[type] = set()
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, SeqV):
            stack.extend(x.items)
        else:
            kinds.add(type(x))
    if kinds == {IntV}:
        return "int64"
    if kinds == {BoolV}:
        return "bool"
    return None


def _literal_shape(v: Value, depth: int = 0, arrays: bool = False) -> tuple[Size, ...] | None:
    """The shape of ``jnp.array(3)`` / ``torch.tensor([[1, 2], [3, 4]])``: a number is (), a list or tuple of equal
    pieces adds its length in front (ragged or unknown pieces: None). ``arrays``: numpy / jax ``array`` stack the
    numpy / jax arrays of a list too (``np.array([f(k) for k in keys])``, each piece its known shape)."""
    if isinstance(v, IntV) and v.assumed:
        return None  # a constructor parameter that may be a tuple
    if isinstance(v, (IntV, FloatV, BoolV)):
        return ()
    if arrays and depth > 0 and isinstance(v, TensorV) and v.framework in ("numpy", "jax") and not v.alts:
        return v.shape
    if not isinstance(v, SeqV) or v.kind not in ("list", "tuple") or not v.items or depth > 8:
        return None
    inner = [_literal_shape(x, depth + 1, arrays) for x in v.items]
    first = inner[0]
    if first is None or any(s != first for s in inner[1:]):
        return None
    return (Size.const(len(v.items)),) + first


def call_stub(
    cx: OpContext, node: cst.Call, qual: str, fi: "FunctionInfo", args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """A function declared in a shape stub: check each argument against its annotation, return the declared shape."""
    from ...annotations import Memo, instantiate, match_shape
    from ..index.functions import bind_arguments
    from .shapes_bridge import _bound_shapes, _param_dims, annotation_spec

    bound = bind_arguments(fi.params, args, kwargs, skip_first=False)
    tensors = [a for a in args if isinstance(a, TensorV)]
    first = tensors[0] if tensors else None
    if bound is None:
        return TensorV(None, first.dtype if first else None, first.framework if first else None)
    memo = Memo()
    for p in fi.params:
        arg = bound.get(p.name)
        if p.ann is None or not isinstance(arg, TensorV) or arg.shape is None:
            continue
        spec = annotation_spec(p.ann)
        if spec is None:
            continue
        res = match_shape(spec, arg.shape, memo, fresh=lambda n: cx.ctx.fresh(n))
        if res.ok is False and res.problem is not None:
            code, fields = res.problem
            short = qual.rsplit(".", 1)[-1]
            cx.ctx.report(
                node,
                "SHP204",
                {"op": qual, "detail": D.StubArgument(p.name, p.ann.text, code, tuple(fields.items()))},
                [
                    shape_note("the argument has shape", arg.shape, arg.origin),
                    note(f"stub {short}() at ", Where(fi.module, fi.node)),
                ],
                spec=OpSpec(
                    "annotation",
                    None,
                    _bound_shapes(fi, bound, p.name) + (arg.shape,),
                    (),
                    (("dims", p.ann.dims), ("params", _param_dims(fi, bound, p.name)), ("stub", qual)),
                ),
            )
            return TensorV(None, first.dtype if first else None, first.framework if first else None)
    ret = fi.return_ann
    fw = first.framework if first else _framework(qual)
    if ret is None:
        return TensorV(None, first.dtype if first else None, fw)
    dtype = ret.dtype or (first.dtype if first else None)
    if "dtype" in kwargs and not isinstance(kwargs["dtype"], NoneV):
        dtype = _dtype_kw(kwargs)  # softmax(x, dim, dtype=torch.float32)
    same = _same_shape_param(fi)
    arg = bound.get(same) if same is not None else None
    if isinstance(arg, TensorV) and arg.shape is None:
        # ``F.layer_norm(x, ...)`` declared ``*s -> *s`` on an input of unknown shape: the result has its shape,
        # whatever is known of it (the trailing axes a Linear set, the rank a check fixed)
        return TensorV(None, dtype, fw, None, None, arg.vshape, not_ranks=arg.not_ranks)
    spec = annotation_spec(ret)
    shape = instantiate(spec, memo, lambda n: cx.ctx.fresh(n)) if spec is not None else None
    axes = first.axes if first is not None and shape is not None and first.shape == tuple(shape) else None
    origin: object = None
    if isinstance(arg, TensorV) and shape is not None and arg.shape == tuple(shape):
        # ``F.dropout(x)``, ``F.gelu(x)``: the shape its input had, made where that was (a shape made up from an
        # einops pattern is shown where the pattern is; what the result is evidence of is its own shape's business)
        origin = arg.origin.origin if isinstance(arg.origin, MadeUp) else arg.origin
    elif shape is not None:
        origin = cx.origin(node, f"{qual.rsplit('.', 1)[-1]}(...)")
    return TensorV(tuple(shape) if shape is not None else None, dtype, fw, axes, origin)


def _same_shape_param(fi: "FunctionInfo") -> str | None:
    """The one array parameter of a stub whose return is declared with exactly its dims (``*s -> *s``), or None."""
    arrays = [p for p in fi.params if p.ann is not None]
    ret = fi.return_ann
    if len(arrays) != 1 or ret is None or arrays[0].ann is None or arrays[0].ann.dims != ret.dims:
        return None
    return arrays[0].name


def linear(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``F.linear(x, weight)``: (*, in) with (out, in) -> (*, out); a 1-d weight (in,) gives (*)."""
    x = args[0] if args else kwargs.get("input", UNKNOWN)
    w = args[1] if len(args) > 1 else kwargs.get("weight", UNKNOWN)
    if x is UNKNOWN and isinstance(w, TensorV) and w.shape is not None and len(w.shape) == 2:
        # an unknown input: the result is a tensor whose last axis is the weight's first (as nn.Linear's)
        return TensorV(None, w.dtype, "torch", None, None, ((), cx.fresh("V"), (w.shape[0],)))
    if not isinstance(x, TensorV):
        return UNKNOWN
    if not isinstance(w, TensorV) or x.shape is None or w.shape is None or not x.shape or len(w.shape) not in (1, 2):
        return TensorV(None, x.dtype, "torch")
    fin = w.shape[-1]
    if equal(x.shape[-1], fin) is Truth.FALSE:
        cx.ctx.report(
            node,
            "SHP204",
            {"op": "linear", "detail": D.LinearFeatures(x.shape, w.shape, fin)},
            cx.origins([x, w]),
            spec=OpSpec("linear", None, (x.shape, w.shape)),
        )
        return TensorV(None, x.dtype, "torch")
    dtype = x.dtype if x.dtype == w.dtype else None
    return TensorV(x.shape[:-1] + (w.shape[:1] if len(w.shape) == 2 else ()), dtype, "torch")


def attention(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``F.scaled_dot_product_attention(q, k, v)``: (*batch, L, E), (*batch, S, E), (*batch, S, Ev) -> (*batch, L, Ev).

    The batch axes of the three broadcast (``enable_gqa`` lets the head axis differ: then they are unknown).
    """
    names = ("query", "key", "value")
    q, k, v = (args[i] if len(args) > i else kwargs.get(n, UNKNOWN) for i, n in enumerate(names))
    if not (isinstance(q, TensorV) and isinstance(k, TensorV) and isinstance(v, TensorV)):
        return TensorV(None, q.dtype if isinstance(q, TensorV) else None, "torch")
    dtype = q.dtype
    if q.shape is None or k.shape is None or v.shape is None or min(len(q.shape), len(k.shape), len(v.shape)) < 2:
        return TensorV(None, dtype, "torch")
    for what, x, y in (("query and key", q.shape[-1], k.shape[-1]), ("key and value", k.shape[-2], v.shape[-2])):
        if equal(x, y) is Truth.FALSE:
            cx.ctx.report(
                node,
                "SHP204",
                {
                    "op": "scaled_dot_product_attention",
                    "detail": D.AttentionMismatch(
                        "query-key" if what == "query and key" else "key-value", x, y, q.shape, k.shape, v.shape
                    ),
                },
                cx.origins([q, k, v]),
                spec=OpSpec("attention", None, (q.shape, k.shape, v.shape)),
            )
            return TensorV(None, dtype, "torch")
    gqa = kwargs.get("enable_gqa")
    if gqa is not None and not (isinstance(gqa, BoolV) and gqa.value is False):
        return TensorV(None, dtype, "torch")
    batch, fail = broadcast_shapes(q.shape[:-2], k.shape[:-2])
    if batch is not None and fail is None:
        batch, fail = broadcast_shapes(batch, v.shape[:-2])
    if batch is None or fail is not None:
        return TensorV(None, dtype, "torch")
    mask = args[3] if len(args) > 3 else kwargs.get("attn_mask")
    if isinstance(mask, TensorV) and mask.shape is not None:
        # the mask is added to (or fills) the attention weights (*batch, L, S): its shape must broadcast with theirs
        # (a (B, L, S) key-padding mask lined up with (B, H, L, S) weights puts the batch against the heads)
        weights = batch + (q.shape[-2], k.shape[-2])
        _, bad = broadcast_shapes(mask.shape, weights)
        if bad is not None:
            cx.ctx.report(
                node,
                "SHP204",
                {
                    "op": "scaled_dot_product_attention",
                    "detail": D.AttentionMismatch("mask", mask.shape, weights, q.shape, k.shape, v.shape),
                },
                cx.origins([q, k, v, mask]),
                spec=OpSpec("attention", None, (q.shape, k.shape, v.shape, mask.shape)),
            )
            return TensorV(None, dtype, "torch")
    return TensorV(batch + (q.shape[-2], v.shape[-1]), dtype, "torch")


_PYTHON_TYPE_DTYPES = {
    "numpy": {"bool": "bool", "int": "int64", "float": "float64"},
    "torch": {"bool": "bool", "int": "int64", "float": "float64"},
    "jax": {"bool": "bool", "int": "int32", "float": "float32"},
}


def _python_type_dtype(node: cst.Call, fw: str) -> str | None:
    """``np.ones(shape, dtype=bool)``: the dtype a Python type stands for in each framework (the analysis gives the
    builtins no value; a module that rebinds ``bool`` is not expected)."""
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == "dtype" and type(arg.value) is cst.Name:
            return _PYTHON_TYPE_DTYPES.get(fw, {}).get(arg.value.value)
    return None


def construct(
    cx: OpContext, node: cst.Call, fw: str, qual: str, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """zeros / ones / empty / full / rand / randn: the sizes as varargs (torch, ``np.random.rand``) or one tuple."""
    dtype = _dtype_kw(kwargs) or _python_type_dtype(node, fw)
    at = 2 if name == "full" else 1
    if dtype is None and fw in ("numpy", "jax") and len(args) > at and name != "arange" and qual not in VARARG_SIZES:
        dtype = _dtype_arg(args[at])  # np.zeros((2, 3), np.float32)
    unread = "dtype" in kwargs or (fw in ("numpy", "jax") and len(args) > at and qual not in VARARG_SIZES)
    if dtype is None and fw == "numpy" and name != "arange" and not unread:  # dtype=bool: not a value we read
        dtype = "float64" if name != "full" else _fill_dtype(args[1] if len(args) > 1 else kwargs.get("fill_value"))
    if name == "arange":
        if fw == "torch":  # torch.arange(lengths.max()): a 0-d integer tensor of a known value bounds it as the int
            args = [IntV(Size.const(k)) if (k := exact_scalar(a)) is not None else a for a in args]
        if dtype is None and fw in ("torch", "numpy") and args and all(isinstance(a, IntV) for a in args):
            if not kwargs.keys() - {"device"}:
                dtype = "int64"  # integer bounds give int64 (an index array: ``x[torch.arange(b), idx]``)
        if (
            dtype is None
            and "dtype" not in kwargs
            and args
            and all(isinstance(a, IntV) and not a.assumed for a in args)
        ):
            # integers only: numpy and torch make int64, jax int32 (without x64)
            dtype = {"numpy": "int64", "torch": "int64", "jax": "int32"}.get(fw)
        if (
            len(args) == 1
            and isinstance(args[0], IntV)
            and "step" not in kwargs
            and "end" not in kwargs
            and "stop" not in kwargs
        ):
            n = args[0].size.as_int()
            if n is not None and n < 0:
                return TensorV((Size.const(0),), dtype, fw) if fw == "numpy" else TensorV(None, dtype, fw)
            top = _arange_top(fw, node, Size.const(0), args[0], dtype)
            # (an int arange's elements lie in [0, n): a window ``y[s : s + k]`` at each ``s`` of it, shapes_ops._window)
            bounds = (Size.const(0), args[0].size) if dtype in ("int64", "int32") and not args[0].assumed else None
            return TensorV((args[0].size,), dtype, fw, top=top, bounds=bounds)
        if 2 <= len(args) <= 3 and not kwargs.keys() - {"dtype", "device"} and all(isinstance(a, IntV) for a in args):
            length = _arange_length(args)
            step = args[2].size.as_int() if len(args) == 3 and isinstance(args[2], IntV) else 1
            top = (
                _arange_top(fw, node, args[0].size, args[1], dtype) if step == 1 and isinstance(args[0], IntV) else None
            )
            lo_v, hi_v = args[0], args[1]
            ints = dtype in ("int64", "int32") and not any(isinstance(a, IntV) and a.assumed for a in args)
            bounds = (
                (lo_v.size, hi_v.size)
                if ints and step is not None and step > 0 and isinstance(lo_v, IntV) and isinstance(hi_v, IntV)
                else None
            )
            return TensorV((length if length is not None else cx.fresh("n"),), dtype, fw, top=top, bounds=bounds)
        if 2 <= len(args) <= 3 and not kwargs.keys() - {"dtype", "device"}:
            # float bounds or step (``torch.arange(qlen - 1, -1, -1.0)``, Transformer-XL's relative positions)
            length = _float_arange_length(args)
            if length is not None:
                return TensorV((length,), dtype, fw)
        if len(args) == 1 and isinstance(args[0], FloatV) and not kwargs.keys() - {"dtype", "device"}:
            # ``jnp.arange(9.0)``: from 0 up to a float stop, ceil(stop) floats
            length = _float_arange_length([IntV(Size.const(0)), args[0]])
            if length is not None:
                return TensorV((length,), dtype, fw)
        return TensorV((cx.fresh("n"),), dtype, fw)  # always one axis, of a length that is not read here
    if qual in VARARG_SIZES:
        shape_args = args  # np.random.randn(2, 3): sizes only as separate arguments
        if any(not isinstance(a, IntV) for a in args):
            return TensorV(None, dtype, fw)
    elif name == "full" or fw in ("numpy", "jax"):
        shape_args = args[:1]
    else:
        shape_args = args
    if "size" in kwargs or "shape" in kwargs:
        if args and name != "full":
            return TensorV(None, dtype, fw)
        shape_args = [kwargs.get("size", kwargs.get("shape", UNKNOWN))]
    out = _sized(cx, node, name, shape_args, dtype, fw)
    fill = args[1] if len(args) > 1 else kwargs.get("fill_value")
    if (
        name == "full"
        and fw == "torch"
        and isinstance(fill, IntV)
        and not fill.assumed
        and fill.size.as_int() is not None
        and (dtype or ("int64" if "dtype" not in kwargs else "")).startswith("int")
        and out.shape is not None
        and all((s.as_int() or 0) >= 1 for s in out.shape)
    ):
        # torch.full((b, n), mask_id): every element is mask_id, an int64 tensor for an int fill (an embedding
        # lookup of it is checked)
        out = replace(out, dtype=dtype or "int64", top=(fill.size, node))
    return out


def _sized(cx: OpContext, node: cst.Call, name: str, shape_args: list[Value], dtype: str | None, fw: str) -> TensorV:
    if len(shape_args) == 1 and isinstance(shape_args[0], IntV) and not shape_args[0].assumed:
        vals: list[Value] | None = list(shape_args)
    else:
        vals = _shape_args(shape_args)
    if vals is None:
        return TensorV(None, dtype, fw)
    positional = [a for a in node.args if a.keyword is None]
    if (
        fw == "torch"
        and len(shape_args) >= 2
        and len(vals) == len(shape_args) == len(positional)
        and not any(a.star for a in node.args)
        and any(v is UNKNOWN for v in vals)
    ):
        # torch.empty(o // 4, i, h, w): sizes passed one by one are ints, so the rank is their count even when a
        # value is unknown (an unknown size, not evidence of a size)
        codes = [cx.code_for(a.value).replace(" ", "") for a in positional]
        vals = [
            v
            if v is not UNKNOWN
            else IntV(
                cx.ctx.fresh(codes[i] if len(codes[i]) <= 24 else f"n{i}", f"(an unknown size passed to {name}(...))")
            )
            for i, v in enumerate(vals)
        ]
    elif len(shape_args) == 1 and isinstance(shape_args[0], SeqV) and any(v is UNKNOWN for v in vals):
        # torch.zeros((b,), device=d) with b unknown: each item of the shape is an int (anything else raises), so
        # the rank is the sequence's length even when a size is unknown (an unknown size, not evidence of a size)
        given = [a.value for a in node.args if a.keyword is None] or [
            a.value for a in node.args if a.keyword is not None and a.keyword.value in ("size", "shape")
        ]
        elems = given[0].elements if given and isinstance(given[0], (cst.Tuple, cst.List)) else None
        codes = (
            [cx.code_for(e.value).replace(" ", "") for e in elems]
            if elems is not None and len(elems) == len(vals)
            else [f"n{i}" for i in range(len(vals))]
        )
        vals = [
            v
            if v is not UNKNOWN
            else IntV(
                cx.ctx.fresh(codes[i] if len(codes[i]) <= 24 else f"n{i}", f"(an unknown size passed to {name}(...))")
            )
            for i, v in enumerate(vals)
        ]
    sizes = []
    for v in vals:
        if isinstance(v, IntV) and (v.size.as_int() is None or v.size.as_int() >= 0):  # type: ignore[operator]
            sizes.append(v.size)
        else:
            _negative_size(cx, node, name, vals)
            return TensorV(None, dtype, fw)
    return TensorV(tuple(sizes), dtype, fw, None, cx.origin(node, f"{name}(...)"))


def _negative_size(cx: OpContext, node: cst.Call, name: str, vals: list[Value]) -> None:
    """A size that is a known negative int (``jnp.zeros((1, (80 - 1280) // 8))``): torch, numpy and jax raise whatever
    the other sizes are. Sizes taken for ints only because nothing says otherwise decide nothing, and neither does
    -1 itself: the "not set yet" default of config fields (``d_vocab: int = -1``), which a constructor the analysis
    did not follow all the way replaces before any array is made."""
    if not all(isinstance(v, IntV) and not v.assumed for v in vals):
        return
    ints = [v.size for v in vals if isinstance(v, IntV)]
    axis = next((i for i, s in enumerate(ints) if (s.as_int() or 0) < -1), None)
    if axis is None:
        return
    # the negative sizes are known ints (kept as ints in the spec: a witness makes only the symbolic ones concrete)
    shape = tuple(s.as_int() if (s.as_int() or 0) < 0 else s for s in ints)
    cx.ctx.report(
        node,
        "SHP204",
        {"op": name, "detail": D.NegativeSize(tuple(ints), axis)},
        spec=OpSpec("array.new", None, (), (), (("shape", shape), ("name", name))),
    )


def random_sized(
    cx: OpContext, node: cst.Call, fw: str, qual: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``np.random.normal(0, 1, size=(2, 3))`` / ``torch.randint(0, 5, (2, 3))``: the shape is the ``size`` argument."""
    name = qual.rsplit(".", 1)[-1]
    pos = RANDOM_SIZED[qual]
    dtype = _dtype_kw(kwargs)
    if dtype is None and fw == "numpy" and "dtype" not in kwargs:
        dtype = "int64" if name in ("randint", "integers", "binomial", "poisson", "geometric") else "float64"
    if dtype is None and fw == "jax" and name == "randint" and "dtype" not in kwargs:
        dtype = "int32"  # jax.random.randint's default dtype=int (int32 unless jax_enable_x64)
    if fw == "jax" and name == "bernoulli":
        dtype = "bool"
    if fw == "torch":  # torch.randint(high, size) / torch.randint(low, high, size): the size is the last positional
        size = kwargs["size"] if "size" in kwargs else (args[-1] if args and isinstance(args[-1], SeqV) else None)
        if dtype is None:
            dtype = "int64"
    else:
        kw = "shape" if fw == "jax" else "size"
        size = kwargs[kw] if kw in kwargs else (args[pos] if len(args) > pos else None)
    if size is None or isinstance(size, NoneV):
        if fw == "numpy" and name in ("randint", "integers") and args and all(isinstance(a, IntV) for a in args):
            return TensorV((), dtype, fw, None, cx.origin(node, f"{name}(...)"))  # rng.integers(n): one int
        if (
            fw == "numpy"
            and dtype == "float64"
            and not set(kwargs) - {"low", "high", "loc", "scale", "size"}
            and all(isinstance(a, (IntV, FloatV)) for a in [*args, *(v for k, v in kwargs.items() if k != "size")])
        ):
            return FloatV()  # rng.uniform(5, 20), np.random.normal(0, 1): one Python float, its value not known
        return UNKNOWN  # no size: a scalar, or the broadcast shape of array parameters
    out = _sized(cx, node, name, [size], dtype, fw)
    bounds = _randint_bounds(fw, qual, args, kwargs)
    return replace(out, bounds=bounds) if bounds is not None and isinstance(out, TensorV) else out


def _randint_bounds(fw: str, qual: str, args: list[Value], kwargs: dict[str, Value]) -> tuple[Size, Size] | None:
    """The range [low, high) of ``torch.randint(high, size)`` / ``torch.randint(low, high, size)`` and of numpy's
    ``np.random.randint(low, high=None, size)`` (high None: [0, low)), when the bounds are ints the analysis knows
    (constants or sizes: ``len(data) - block_size``). Anything else: None."""
    name = qual.rsplit(".", 1)[-1]
    if name != "randint" or fw not in ("torch", "numpy"):
        return None
    zero: Value = IntV(Size.const(0))
    lo: Value
    hi: Value
    if fw == "torch":
        pos = [a for a in args if not isinstance(a, SeqV)]
        if len(pos) != len(args) - (0 if "size" in kwargs else 1) or "low" in kwargs or "high" in kwargs:
            return None
        if len(pos) not in (1, 2):
            return None
        lo, hi = (zero, pos[0]) if len(pos) == 1 else (pos[0], pos[1])
    else:
        if "low" in kwargs or "high" in kwargs or not args:
            return None
        lo, hi = (zero, args[0]) if len(args) == 1 or isinstance(args[1], NoneV) else (args[0], args[1])
    if isinstance(lo, IntV) and isinstance(hi, IntV):
        return lo.size, hi.size
    return None


def outer(a: TensorV, b: TensorV, fw: str) -> Value:
    """numpy / jax ``outer`` flatten both operands (torch's requires 1-d ones: its stub)."""
    dtype = a.dtype if a.dtype == b.dtype else None
    if a.shape is None or b.shape is None:
        return TensorV(None, dtype, fw)
    return TensorV((product(a.shape), product(b.shape)), dtype, fw)


def concat(cx: OpContext, node: cst.Call, name: str, fw: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    seq = args[0] if args else kwargs.get("tensors", kwargs.get("arrays", UNKNOWN))
    dim_v = args[1] if len(args) > 1 else kwargs.get("dim", kwargs.get("axis", IntV(Size.const(0))))
    if isinstance(seq, ManyV):
        return _concat_many(cx, name, fw, seq, dim_v)
    if isinstance(seq, TensorV) and name == "concatenate" and fw in ("numpy", "jax"):
        return _concat_rows(seq, dim_v)
    if not isinstance(seq, SeqV) or not seq.items or not all(isinstance(t, TensorV) for t in seq.items):
        t0 = seq.items[0] if isinstance(seq, SeqV) and seq.items and isinstance(seq.items[0], TensorV) else None
        return TensorV(None, t0.dtype if t0 else None, fw)
    ts = [t for t in seq.items if isinstance(t, TensorV)]
    dtype = ts[0].dtype if all(t.dtype == ts[0].dtype for t in ts) else None
    d = _ints([dim_v])
    if d is None or any(t.shape is None for t in ts):
        return TensorV(None, dtype, fw)
    stack = name == "stack"
    if fw == "torch" and not stack and len({len(t.shape) for t in ts if t.shape is not None}) > 1:
        # torch.cat skips 1-d empty tensors whatever the other operands' shapes (legacy behaviour)
        kept = [t for t in ts if not (t.shape is not None and len(t.shape) == 1 and equal(t.shape[0], 0) is Truth.TRUE)]
        if any(t.shape is not None and len(t.shape) == 1 and equal(t.shape[0], 0) is not Truth.FALSE for t in kept):
            return TensorV(None, dtype, fw)  # ranks differ, and a 1-d operand may be empty
        ts = kept or ts[:1]
    shapes = [t.shape for t in ts if t.shape is not None]
    rank = len(shapes[0])
    if any(len(s) != rank for s in shapes):
        cx.ctx.report(
            node,
            "SHP204",
            {"op": name, "detail": D.ConcatRanks(tuple(shapes))},
            cx.origins(ts),
            spec=OpSpec("stack" if stack else "cat", None, tuple(shapes), (), (("dim", d[0]),)),
        )
        return TensorV(None, dtype, fw)
    pos = _norm_dim(d[0], rank + 1 if stack else rank)
    if pos is None:
        if rank:  # torch.cat([a, b], dim=2) of 2-d tensors (torch.stack: one more)
            dim_out_of_range(cx, node, name, ts[0], d[:1], extra=1 if stack else 0)
        return TensorV(None, dtype, fw)
    for i in range(rank):
        if not stack and i == pos:
            continue
        for s in shapes[1:]:
            if equal(shapes[0][i], s[i]) is Truth.FALSE:
                cx.ctx.report(
                    node,
                    "SHP204",
                    {"op": name, "detail": D.ConcatAxis(i, shapes[0], s)},
                    cx.origins(ts),
                    spec=OpSpec("stack" if stack else "cat", None, tuple(shapes), (), (("dim", d[0]),)),
                )
                return TensorV(None, dtype, fw)
    if stack:
        misaligned(cx, node, name, ts)
        out = shapes[0][:pos] + (Size.const(len(shapes)),) + shapes[0][pos:]
    else:
        total = shapes[0][pos]
        for s in shapes[1:]:
            total = total + s[pos]
        out = shapes[0][:pos] + (total,) + shapes[0][pos + 1 :]
    return TensorV(out, dtype, fw)


def _concat_rows(t: TensorV, dim_v: Value) -> Value:
    """numpy's / jax's ``concatenate(a, axis)`` of one array: its n rows (the leading axis) joined along ``axis`` of
    a row, which becomes n times longer (``axis=None``: everything flattened)."""
    d = _ints([dim_v]) if not isinstance(dim_v, NoneV) else None
    if t.shape is None or len(t.shape) < 2 or (d is None and not isinstance(dim_v, NoneV)):
        return t.with_shape(None)
    n, row = t.shape[0], t.shape[1:]
    if d is None:
        return t.with_shape((product(t.shape),), None)
    pos = _norm_dim(d[0], len(row))
    if pos is None:
        return t.with_shape(None)
    return t.with_shape(row[:pos] + (row[pos] * n,) + row[pos + 1 :], None)


def _concat_many(cx: OpContext, name: str, fw: str, seq: ManyV, dim_v: Value) -> Value:
    """``torch.stack(xs, dim=-1)`` / ``torch.cat(xs, dim)`` of a list of unknown length whose every element has one
    shape (``xs.append(indices)`` in a loop): the element's shape with the count (stack) or the joined axis (cat) a
    new unknown size, or what the list's known count (ManyV.count) makes it. Nothing is reported (the elements' own sizes may differ where the element is a join)."""
    elem = seq.elem
    d = _ints([dim_v])
    if isinstance(elem, TensorV) and elem.shape is None and elem.alts:
        elem = _one_rank(cx, elem)  # elements appended on different paths: one rank, the sizes they agree on
    if not isinstance(elem, TensorV) or elem.shape is None or elem.alts or d is None or name not in _MANY_JOINS:
        return TensorV(None, elem.dtype if isinstance(elem, TensorV) else None, fw)
    shape = elem.shape
    stack = name == "stack"
    if not stack and not shape:
        return TensorV(None, elem.dtype, fw)  # 0-d pieces cannot be concatenated
    pos = _norm_dim(d[0], len(shape) + 1 if stack else len(shape))
    if pos is None:
        return TensorV(None, elem.dtype, fw)
    if seq.count is not None and (stack or shape[pos].as_int() is not None):
        # a loop of a known number of iterations appended one element in each: that many (joined, each element's
        # length along the axis, when it is one known int: a symbol there may stand for a length of its own per
        # element, a data item's)
        n = seq.count if stack else shape[pos] * seq.count
    else:
        n = cx.fresh("count" if stack else "joined")
    out = shape[:pos] + (n,) + (shape[pos:] if stack else shape[pos + 1 :])
    return TensorV(out, elem.dtype, fw)


def _one_rank(cx: OpContext, t: TensorV) -> TensorV:
    """A joined tensor whose every path has one rank: that rank, each axis the size all paths agree on or a new
    unknown size (``t`` itself when the ranks differ or one is unknown)."""
    shapes = [a.shape for a in t.alts or ()]
    first = shapes[0] if shapes else None
    if first is None or any(s is None or len(s) != len(first) for s in shapes):
        return t
    out = tuple(
        first[i] if all(s is not None and equal(first[i], s[i]) is Truth.TRUE for s in shapes) else cx.fresh("joined")
        for i in range(len(first))
    )
    return TensorV(out, t.dtype, t.framework)


_MANY_JOINS = frozenset({"stack", "cat", "concatenate", "concat"})


# losses that warn and broadcast a target of another size (torch's UserWarning), where the binary cross-entropies raise
WARNING_LOSSES = frozenset({"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"})


def loss(cx: OpContext, node: cst.Call, name: str, a: TensorV, b: TensorV, kwargs: dict[str, Value]) -> Value:
    out_dtype = a.dtype
    out_shape: tuple[Size, ...] | None = None
    if a.shape is not None and b.shape is not None:
        # torch warns (mse, l1, smooth_l1, huber) or raises (binary cross-entropies) on a target of another size:
        # a finding. kl_div, poisson_nll_loss and soft_margin_loss broadcast silently: only a failing broadcast is.
        strict = name not in BROADCASTING_LOSSES
        if len(a.shape) == len(b.shape) and strict:
            for i, (x, y) in enumerate(zip(a.shape, b.shape)):
                if equal(x, y) is Truth.FALSE:
                    ones = (equal(x, 1), equal(y, 1))
                    if name in WARNING_LOSSES and Truth.TRUE in ones:
                        # torch warns and broadcasts the size-1 axis: an ensemble scored against one target, or
                        # a (b, 1) prediction against (b, k): suspicious, not a failure (SHP404)
                        if broadcast_shapes(a.shape, b.shape)[1] is None:
                            cx.ctx.report(
                                node,
                                "SHP404",
                                {
                                    "op": name,
                                    "input_shape": shape_text(a.shape),
                                    "target_shape": shape_text(b.shape),
                                    "axis": str(i),
                                    "left": str(x),
                                    "right": str(y),
                                },
                                cx.origins([a, b]),
                            )
                            break
                        continue
                    if name in WARNING_LOSSES and ones != (Truth.FALSE, Truth.FALSE):
                        continue  # (one may be 1: torch may broadcast; the broadcast below decides)
                    cx.ctx.report(
                        node,
                        "SHP204",
                        {"op": name, "detail": D.LossTarget(a.shape, b.shape, i)},
                        cx.origins([a, b]),
                        spec=OpSpec("loss", None, (a.shape, b.shape), (), (("name", name),)),
                    )
                    return TensorV(None, out_dtype, a.framework)
        out_shape, fail = broadcast_shapes(a.shape, b.shape)
        if fail is not None:
            cx.ctx.report(
                node,
                "SHP204",
                {"op": name, "detail": D.LossTarget(a.shape, b.shape)},
                cx.origins([a, b]),
                spec=OpSpec("loss", None, (a.shape, b.shape), (), (("name", name),)),
            )
            return TensorV(None, out_dtype, a.framework)
        misaligned(cx, node, name, [a, b])
    red = kwargs.get("reduction")
    if isinstance(red, StrV) and red.value == "none":
        return a.with_shape(out_shape)  # the broadcast shape of input and target
    if red is None or (isinstance(red, StrV) and red.value in ("mean", "sum")):
        return TensorV((), out_dtype, a.framework)
    return TensorV(None, out_dtype, a.framework)


def _arange_top(fw: str, node: cst.Call, start: Size, stop: Value, dtype: str | None) -> tuple[Size, cst.Call] | None:
    """The largest value of torch's ``arange(start, stop)`` (step 1, integers): stop - 1, when the range is surely
    not empty (stop - 1 >= start for every value of the sizes), with the call that made it; else None."""
    if fw != "torch" or dtype != "int64" or not isinstance(stop, IntV) or stop.assumed:
        return None
    top = stop.size - 1
    return (top, node) if greater_equal(top, start) is Truth.TRUE else None


def _float_arange_length(args: list[Value]) -> Size | None:
    """``arange(start, stop[, step])`` with a float among ints: ``ceil((stop - start) / step)`` (at least 0) when all
    are known, as torch and numpy count it; ``stop - start`` (``start - stop``) for a step of 1 (-1) and bounds of
    integer value when that is surely not negative; else None."""
    nums: list[Size | float] = []
    for a in args:
        if isinstance(a, IntV):
            k = a.size.as_int()
            nums.append(float(k) if k is not None else a.size)
        elif isinstance(a, FloatV) and a.value is not None and math.isfinite(a.value):
            nums.append(a.value)
        else:
            return None
    start, stop = nums[0], nums[1]
    step = nums[2] if len(nums) == 3 else 1.0
    if not isinstance(step, float) or step == 0:
        return None
    if isinstance(start, float) and isinstance(stop, float):
        return Size.const(max(0, math.ceil((stop - start) / step)))
    if step not in (1.0, -1.0):
        return None
    bounds = []
    for b in (start, stop):
        if isinstance(b, float):
            if not b.is_integer():
                return None
            b = Size.const(int(b))
        bounds.append(b)
    length = bounds[1] - bounds[0] if step == 1.0 else bounds[0] - bounds[1]
    return length if greater_equal(length, Size.const(0)) is Truth.TRUE else None


def _arange_length(args: list[Value]) -> Size | None:
    """``arange(start, stop[, step])`` of ints: ``max(0, ceil((stop - start) / step))`` when all are known,
    ``stop`` itself for ``arange(0, stop)`` / ``arange(0, stop, 1)``."""
    sizes = [a.size for a in args if isinstance(a, IntV)]
    if len(sizes) != len(args):
        return None
    start, stop = sizes[0].as_int(), sizes[1].as_int()
    step = sizes[2].as_int() if len(sizes) == 3 else 1
    if step == 0 or step is None:
        return None
    if start is not None and stop is not None:
        return Size.const(max(0, -((start - stop) // step)))
    if start == 0 and step == 1:
        return sizes[1]
    span = (sizes[1] - sizes[0]).as_int()
    if span is not None:
        # arange(start, start + clip_len, stride) of a start not known: the span alone counts
        return Size.const(max(0, -(-span // step)))
    return None
