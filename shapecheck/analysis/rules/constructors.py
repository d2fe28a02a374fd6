"""Constructors and shape ops whose output size comes from argument values (no jaxtyping signature can say it):
linspace, eye, meshgrid, F.pad, tile, gather, index_select, take, ravel, and boolean-mask indexing.

torch / numpy facts (checked against torch 2.x and numpy 2.x, see tests/fixtures/shapes/constructors_shape_ops.py):

* ``torch.linspace(start, end, steps)`` is (steps,); ``np.linspace(start, stop, num=50)`` is (num,);
* ``torch.eye(n, m=None)`` / ``np.eye(N, M=None)`` is (n, m or n);
* ``meshgrid(a, b, ...)`` of 1-d tensors gives one tensor per input, each (len(a), len(b), ...) with
  ``indexing="ij"`` (torch's default) and the first two swapped with ``indexing="xy"`` (numpy's default);
* ``F.pad(x, (l, r, t, b, ...))`` grows the last axis by l + r, the one before by t + b, ... (negative pads crop);
* ``x.tile(reps)`` / ``np.tile(x, reps)``: reps padded with leading 1s to the rank (or x with leading 1-axes to the
  reps' length), then multiplied axis by axis;
* ``x.gather(dim, index)`` has index's shape; ``x.index_select(dim, index)`` replaces axis dim by index's length;
  torch's gather raises when a non-empty index has another rank than x, or is larger than x off ``dim``;
* ``x.index_add(dim, index, source)`` (and ``index_add_``, ``torch.index_add``) has x's shape; torch raises when the
  source differs from x in rank or off ``dim``, when its size on ``dim`` is not the index's length, and when the
  index has 2 or more dimensions;
* ``np.take(a, indices, axis)`` / ``jnp.take`` / ``a.take(indices, axis=...)``: the axis replaced by the indices'
  shape (an int index: the axis dropped); no axis: the indices' shape (``a`` flattened first). ``torch.take(x, index)``
  / ``x.take(index)``: the index's shape;
* ``x[mask]`` with a boolean mask over the leading axes: one axis of unknown length, then the remaining axes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from ...diagnostics import details as D
from ...sizes import Size, Truth, equal, greater_equal, product
from .ops_common import _dtype_kw, _ints, _norm_dim
from .shapes_bridge import shape_note
from ..interpret.context import OpSpec
from ..interpret.values import UNKNOWN, FloatV, IntV, NoneV, SeqV, StrV, TensorV, Value

from . import registry
from .registry import OpContext

if TYPE_CHECKING:
    from ..interpret.interpreter import Interpreter

ATLEAST = ("atleast_1d", "atleast_2d", "atleast_3d")

FUNCTIONS = frozenset(
    {"linspace", "logspace", "eye", "meshgrid", "pad", "tile", "gather", "index_select", "take", *ATLEAST}
)


@registry.FUNCTIONS.register(*FUNCTIONS)
def call(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``torch.linspace(...)``, ``np.eye(...)``, ``F.pad(x, ...)``, ...; None when not one of these."""
    name = qual.rsplit(".", 1)[-1]
    if name not in FUNCTIONS:
        return None
    if name == "pad" and qual != "torch.nn.functional.pad":
        if qual in ("numpy.pad", "jax.numpy.pad") and args and isinstance(args[0], TensorV):
            return array_pad(cx, args[0], args[1] if len(args) > 1 else kwargs.get("pad_width", UNKNOWN))
        return None
    dtype = _dtype_kw(kwargs)
    if name in ("linspace", "logspace"):
        if fw == "torch" and "dtype" not in kwargs:
            # torch's default dtype, whatever the arguments: float32 unless set_default_dtype chose another floating
            # one (it takes no other), so ``m.item()`` of an element is a float either way
            dtype = "float32"
        key = "steps" if fw == "torch" else "num"
        n = args[2] if len(args) > 2 else kwargs.get(key, IntV(Size.const(50)) if fw != "torch" else UNKNOWN)
        if fw != "torch" and len(args) > 3:
            return TensorV(None, dtype, fw)
        if isinstance(n, IntV) and (n.size.as_int() is None or n.size.as_int() >= 0):  # type: ignore[operator]
            out = TensorV((n.size,), dtype or ("float64" if fw == "numpy" else None), fw)
            start, end = (args[0] if args else kwargs.get("start")), (args[1] if len(args) > 1 else None)
            if (
                fw == "torch"
                and isinstance(start, IntV)
                and isinstance(end, IntV)
                and greater_equal(start.size, 0) is Truth.TRUE
                and greater_equal(end.size, start.size) is Truth.TRUE
            ):
                # torch.linspace(0, n - k, steps): every element lies in [0, n - k], and so does its integer part
                # (``.long()``: the starts of windows that stay inside the data)
                out = replace(out, bounds=(start.size, end.size + 1))
            return out
        if fw == "torch" and (n is UNKNOWN or isinstance(n, TensorV)) and (len(args) > 2 or key in kwargs):
            # torch.linspace(1., 0., self.num_timesteps + 1): steps is an int and start / end are scalars (0-d
            # tensors at most), so the result has one axis, of a length the analysis does not know. So it is for a
            # 0-d tensor of steps (``for level in levels_tensor``); torch raises for any other tensor
            return TensorV((cx.fresh("steps"),), dtype, fw)
        return TensorV(None, dtype, fw)
    if name == "eye":
        n = args[0] if args else kwargs.get("n", kwargs.get("N", UNKNOWN))
        m = args[1] if len(args) > 1 else kwargs.get("m", kwargs.get("M", n))
        if isinstance(m, NoneV):
            m = n
        if isinstance(n, IntV) and isinstance(m, IntV):
            return TensorV((n.size, m.size), dtype or ("float64" if fw == "numpy" else None), fw)
        return TensorV(None, dtype, fw)
    if name == "meshgrid":
        return meshgrid(fw, args, kwargs)
    if not args or not isinstance(args[0], TensorV):
        return None
    return method(cx, node, name, args[0], args[1:], kwargs, fw)


def array_pad(cx: OpContext, t: TensorV, width: Value) -> Value:
    """``np.pad(x, pad_width)`` / ``jnp.pad``: the same rank, each axis longer by its (before, after) widths. numpy
    broadcasts ``pad_width`` to (rank, 2): an int or ``(k,)`` pads every side by k, ``(before, after)`` or
    ``((before, after),)`` every axis alike, one pair per axis each its own. A width not known leaves that axis's
    length unknown (a fresh size); a pad_width of another form, every length."""
    shape = t.shape
    if shape is None:
        return t.with_shape(None)
    n = len(shape)

    def size(v: Value) -> Size | None:
        return v.size if isinstance(v, IntV) else None

    def pair(v: Value) -> tuple[Size | None, Size | None] | None:
        if isinstance(v, IntV):
            return (v.size, v.size)
        if isinstance(v, SeqV) and len(v.items) == 1:
            k = size(v.items[0])
            return (k, k)
        if isinstance(v, SeqV) and len(v.items) == 2:
            return (size(v.items[0]), size(v.items[1]))
        return None

    pairs: list[tuple[Size | None, Size | None] | None]
    if isinstance(width, IntV):
        pairs = [pair(width)] * n
    elif isinstance(width, SeqV) and len(width.items) == 2 and all(isinstance(x, IntV) for x in width.items):
        pairs = [pair(width)] * n  # (before, after) for every axis
    elif isinstance(width, SeqV) and len(width.items) == 1:
        pairs = [pair(width.items[0])] * n
    elif isinstance(width, SeqV) and len(width.items) == n:
        pairs = [pair(x) for x in width.items]
    else:
        pairs = [None] * n
    out: list[Size] = []
    for s, p in zip(shape, pairs):
        if p is None or p[0] is None or p[1] is None:
            out.append(cx.fresh("padded"))
        else:
            out.append(s + p[0] + p[1])
    return t.with_shape(tuple(out))


def atleast(name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``np.atleast_Nd(x)`` / ``torch.atleast_Nd(x)`` / ``jnp.atleast_Nd(x)`` of one array: x itself when it has N or
    more axes, else 1-axes added: 1d: () -> (1,); 2d: () -> (1, 1), (n,) -> (1, n); 3d: () -> (1, 1, 1),
    (n,) -> (1, n, 1), (m, n) -> (m, n, 1) (numpy, torch and jax agree). Several arrays give a tuple: not modelled."""
    if args or kwargs:
        return UNKNOWN
    shape = t.shape
    if shape is None:
        return t
    want = int(name[len("atleast_")])
    if len(shape) >= want:
        return t
    one = Size.const(1)
    if want == 1 or want == 2 or not shape:
        return t.with_shape((one,) * (want - len(shape)) + tuple(shape))
    return t.with_shape(((one,) if len(shape) == 1 else ()) + tuple(shape) + (one,))


def method(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], fw: str | None
) -> Value | None:
    shape = t.shape
    if name in ATLEAST:
        return atleast(name, t, args, kwargs)
    if name == "take":
        return _take(t, args, kwargs, t.framework or fw)
    if name == "ravel":  # x.ravel() / np.ravel(x) / torch.ravel(x): one axis of every element (order= keeps it)
        if args or shape is None:
            return t.with_shape(None)
        return t.with_shape((product(shape),))
    if name == "pad":
        pad = args[0] if args else kwargs.get("pad", UNKNOWN)
        if isinstance(pad, SeqV) and pad.kind in ("tuple", "list") and _pad_length_fails(cx, node, t, len(pad.items)):
            return t.with_shape(None)
        if not isinstance(pad, SeqV) or shape is None:
            return t.with_shape(None)
        amounts = [x.size for x in pad.items if isinstance(x, IntV)]
        if len(amounts) != len(pad.items) or len(amounts) % 2 or len(amounts) // 2 > len(shape):
            return t.with_shape(None)
        out = list(shape)
        for i in range(len(amounts) // 2):
            out[len(shape) - 1 - i] = out[len(shape) - 1 - i] + amounts[2 * i] + amounts[2 * i + 1]
        return t.with_shape(tuple(out))
    if name == "tile":
        reps_v = (
            args[0]
            if len(args) == 1
            else (SeqV(tuple(args)) if args else kwargs.get("dims", kwargs.get("reps", UNKNOWN)))
        )
        if isinstance(reps_v, IntV):
            reps_v = SeqV((reps_v,))
        if not isinstance(reps_v, SeqV) or shape is None or not all(isinstance(x, IntV) for x in reps_v.items):
            return t.with_shape(None)
        reps = [x.size for x in reps_v.items if isinstance(x, IntV)]
        n = max(len(reps), len(shape))
        padded_shape = (Size.const(1),) * (n - len(shape)) + tuple(shape)
        padded_reps = (Size.const(1),) * (n - len(reps)) + tuple(reps)
        return t.with_shape(tuple(a * b for a, b in zip(padded_shape, padded_reps)))
    if name == "gather" and fw in ("torch", None):
        index = args[1] if len(args) > 1 else kwargs.get("index", UNKNOWN)
        if isinstance(index, TensorV):
            if (fw == "torch" or t.framework == "torch") and _gather_fails(
                cx, node, t, args[0] if args else kwargs.get("dim", UNKNOWN), index
            ):
                return TensorV(None, t.dtype, t.framework)
            return TensorV(index.shape, t.dtype, t.framework)
        return t.with_shape(None)
    if name in ("index_add", "index_add_"):
        if t.framework != "torch":
            return None
        vals = [args[i] if len(args) > i else kwargs.get(k, UNKNOWN) for i, k in enumerate(("dim", "index", "source"))]
        index, source = vals[1], vals[2]
        if (
            isinstance(index, TensorV)
            and isinstance(source, TensorV)
            and _index_add_fails(cx, node, t, vals[0], index, source)
        ):
            return t.with_shape(None)
        return t
    if name == "index_select" and fw in ("torch", None):
        dim = _ints(args[:1] or [kwargs.get("dim", UNKNOWN)])
        index = args[1] if len(args) > 1 else kwargs.get("index", UNKNOWN)
        if (
            dim is None
            or shape is None
            or not isinstance(index, TensorV)
            or index.shape is None
            or len(index.shape) > 1
        ):
            return t.with_shape(None)
        pos = _norm_dim(dim[0], len(shape))
        if pos is None:
            return t.with_shape(None)
        length = index.shape[0] if index.shape else Size.const(1)
        return t.with_shape(shape[:pos] + (length,) + shape[pos + 1 :])
    return None


def _take(t: TensorV, args: list[Value], kwargs: dict[str, Value], fw: str | None) -> Value | None:
    """``np.take(a, indices, axis=None)`` (jax and the array method alike; ``mode`` / ``fill_value`` / ``out`` keep
    the shape): with an axis, that axis replaced by the indices' shape, without one the indices' shape alone (the
    array flattened first). ``torch.take(x, index)`` / ``x.take(index)``: the index's shape. Indices of a shape not
    known (or an axis out of range, which raises): a shape not known."""
    torch = fw == "torch"
    if fw is None or (torch and (len(args) > 1 or kwargs.keys() - {"index"})):
        return None
    index = args[0] if args else kwargs.get("index" if torch else "indices", UNKNOWN)
    axis = args[1] if len(args) > 1 else kwargs.get("axis", NoneV())
    picked: tuple[Size, ...] | None = None
    if isinstance(index, IntV) and not index.assumed:
        picked = ()
    elif isinstance(index, TensorV):
        picked = index.shape
    elif isinstance(index, SeqV) and index.kind in ("list", "tuple"):
        if all(isinstance(x, IntV) and not x.assumed for x in index.items):
            picked = (Size.const(len(index.items)),)
    if picked is None:
        return t.with_shape(None)
    if isinstance(axis, NoneV):
        return t.with_shape(picked)
    at = _ints([axis])
    if at is None or t.shape is None:
        return t.with_shape(None)
    pos = _norm_dim(at[0], len(t.shape))
    if pos is None:
        return t.with_shape(None)
    return t.with_shape(t.shape[:pos] + picked + t.shape[pos + 1 :])


def _pad_length_fails(cx: OpContext, node: cst.Call, t: TensorV, n: int) -> bool:
    """``F.pad(x, pad)`` raises for a flat tuple of an odd length ("Padding length must be divisible by 2") and for
    one longer than two values per axis of ``x``, whatever the values and sizes (every mode)."""
    if t.framework != "torch":
        return False
    rank = len(t.shape) if t.shape is not None else None
    if n % 2:
        detail = D.PadArguments("odd", n, rank)
    elif rank is not None and n // 2 > rank:
        detail = D.PadArguments("long", n, rank)
    else:
        return False
    # an unknown input: any rank fails the odd length (torch checks it first); one that fits its pairs is shown
    shape = t.shape if t.shape is not None else tuple(cx.ctx.fresh("d") for _ in range((n + 1) // 2))
    cx.ctx.report(
        node,
        "SHP204",
        {"op": "F.pad", "detail": detail},
        cx.origins([t]),
        spec=OpSpec("pad.arguments", None, (shape,), (), (("op", "F.pad"), ("count", n))),
    )
    return True


def _report_index(
    cx: OpContext, node: cst.Call, op: str, detail: D.IndexShape, tensors: list[TensorV], inputs: tuple[TensorV, ...]
) -> bool:
    shapes = tuple(t.shape or () for t in inputs)
    cx.ctx.report(
        node,
        "SHP204",
        {"op": op, "detail": detail},
        cx.origins(tensors),
        spec=OpSpec(op, None, shapes, (), (("dim", detail.dim if detail.dim >= 0 else None),)),
    )
    return True


def _gather_fails(cx: OpContext, node: cst.Call, t: TensorV, dim_v: Value, index: TensorV) -> bool:
    """torch's ``x.gather(dim, index)`` raises when the index has another rank than x (both at least 1-d), or is larger
    than x on an axis other than ``dim``; an empty index is never checked (so every axis of it must be known >= 1)."""
    shape, ishape = t.shape, index.shape
    if not shape or not ishape or not all(greater_equal(s, 1) is Truth.TRUE for s in ishape):
        return False
    if len(shape) != len(ishape):
        return _report_index(
            cx, node, "gather", D.IndexShape("rank", "index", shape, ishape, -1), [t, index], (t, index)
        )
    d = _ints([dim_v])
    pos = _norm_dim(d[0], len(shape)) if d is not None else None
    if pos is None:
        return False
    for i, (a, b) in enumerate(zip(ishape, shape)):
        if i != pos and greater_equal(a, b + 1) is Truth.TRUE:
            return _report_index(
                cx, node, "gather", D.IndexShape("larger", "index", shape, ishape, pos, i), [t, index], (t, index)
            )
    return False


def _index_add_fails(cx: OpContext, node: cst.Call, t: TensorV, dim_v: Value, index: TensorV, source: TensorV) -> bool:
    """torch's ``x.index_add(dim, index, source)`` raises when the index has 2 or more dimensions, when the source
    has another rank than x (both at least 1-d) or differs from x on an axis other than ``dim``, and when the index's
    length is not the source's size on ``dim``."""
    shape, ishape, sshape = t.shape, index.shape, source.shape
    op = "index_add"
    if ishape is not None and len(ishape) > 1:
        return _report_index(
            cx, node, op, D.IndexShape("vector", "index", shape or (), ishape, -1), [index], (t, index, source)
        )
    if not shape or not sshape:
        return False
    if len(shape) != len(sshape):
        return _report_index(
            cx, node, op, D.IndexShape("rank", "source", shape, sshape, -1), [t, source], (t, index, source)
        )
    d = _ints([dim_v])
    pos = _norm_dim(d[0], len(shape)) if d is not None else None
    if pos is None:
        return False
    for i, (a, b) in enumerate(zip(sshape, shape)):
        if i != pos and equal(a, b) is Truth.FALSE:
            return _report_index(
                cx, node, op, D.IndexShape("differs", "source", shape, sshape, pos, i), [t, source], (t, index, source)
            )
    if ishape is not None:
        count = ishape[0] if ishape else Size.const(1)
        if equal(count, sshape[pos]) is Truth.FALSE:
            return _report_index(
                cx, node, op, D.IndexShape("count", "index", sshape, ishape, pos), [index, source], (t, index, source)
            )
    return False


def meshgrid(fw: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    tensors = list(args)
    if len(tensors) == 1 and isinstance(tensors[0], SeqV):
        tensors = list(tensors[0].items)
    indexing = kwargs.get("indexing", StrV("ij" if fw == "torch" else "xy"))
    if not isinstance(indexing, StrV) or indexing.value not in ("ij", "xy") or not tensors:
        return UNKNOWN
    if fw != "torch" and any(k in kwargs for k in ("sparse", "copy")):
        return UNKNOWN
    sizes: list[Size] = []
    for t in tensors:
        if not isinstance(t, TensorV) or t.shape is None or len(t.shape) > 1:
            return UNKNOWN  # numpy flattens n-d inputs; torch rejects them
        sizes.append(t.shape[0] if t.shape else Size.const(1))
    if indexing.value == "xy" and len(sizes) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    first = tensors[0]
    assert isinstance(first, TensorV)
    out = tuple(TensorV(tuple(sizes), t.dtype if isinstance(t, TensorV) else None, fw) for t in tensors)
    return SeqV(out, "tuple")


def mask_index(interp: "Interpreter", node: cst.Subscript, t: TensorV) -> Value | None:
    """``x[mask]``: a boolean tensor (or a comparison of ``x``-shaped operands) over the leading axes of ``x``.
    ``x[:, mask]`` (full slices before a boolean tensor, and after it): the axes of the slices, then the selected
    ones, then the rest."""
    if t.shape is None:
        return None
    lead = 0
    while lead < len(node.slice) and _full_slice(node.slice[lead].slice):
        lead += 1
    index = node.slice[lead].slice if lead < len(node.slice) else None
    if type(index) is not cst.Index or not all(_full_slice(e.slice) for e in node.slice[lead + 1 :]):
        return None
    if lead:
        return _mask_after_slices(interp, index.value, t, lead)
    expr = index.value
    mask_rank: int | None = None
    mask_shape: tuple[Size, ...] | None = None
    if (
        type(expr) is cst.Comparison
        and len(expr.comparisons) == 1
        and type(expr.comparisons[0].operator)
        in (cst.GreaterThan, cst.LessThan, cst.GreaterThanEqual, cst.LessThanEqual, cst.Equal, cst.NotEqual)
    ):
        left = interp.eval(expr.left)
        right = interp.eval(expr.comparisons[0].comparator)
        tensor_side = left if isinstance(left, TensorV) else right if isinstance(right, TensorV) else None
        other = right if tensor_side is left else left
        if tensor_side is None or tensor_side.shape is None:
            return None
        if not (isinstance(other, (IntV, FloatV)) or (isinstance(other, TensorV) and other.shape == tensor_side.shape)):
            return None
        mask_rank = len(tensor_side.shape)
        mask_shape = tensor_side.shape if not tensor_side.alts else None
    elif _names_only(expr):
        # ``x[mask]``, ``x[self.mask]``, ``x[mask & ~padding_mask]``: a boolean array
        with interp.ctx.discarding():
            v = interp.eval(expr)
        if isinstance(v, TensorV) and v.dtype == "bool" and v.shape is not None:
            mask_rank = len(v.shape)
            mask_shape = v.shape if not v.alts else None
    if mask_rank is None or mask_rank == 0 or mask_rank > len(t.shape):
        return None
    if mask_shape is not None and not t.alts and t.framework in ("numpy", "torch", "jax"):
        for i, (m, n) in enumerate(zip(mask_shape, t.shape)):
            if equal(m, n) is Truth.FALSE:  # the mask's sizes must be the axes' own: no broadcasting
                interp.ctx.report(
                    node,
                    "SHP204",
                    {"op": "boolean mask index", "detail": D.MaskShape(mask_shape, t.shape, i, m, n)},
                    [shape_note("the indexed array has shape", t.shape, t.origin)],
                    spec=OpSpec("mask_index", None, (t.shape, mask_shape), (), ()),
                )
                return t.with_shape(None)
    selected = interp.ctx.fresh("selected")
    return t.with_shape((selected,) + t.shape[mask_rank:])


def _full_slice(s: cst.BaseSlice) -> bool:
    """``:`` in an index: every item of that axis."""
    return type(s) is cst.Slice and s.lower is None and s.upper is None and s.step is None


def _names_only(expr: cst.BaseExpression) -> bool:
    """A name, an attribute chain, or ``~`` / ``&`` / ``|`` / ``^`` of such (no call: evaluating it again is free)."""
    tp = type(expr)
    if tp is cst.Name:
        return True
    if tp is cst.Attribute:
        return _names_only(expr.value)  # type: ignore[attr-defined]
    if tp is cst.UnaryOperation and type(expr.operator) is cst.BitInvert:  # type: ignore[attr-defined]
        return _names_only(expr.expression)  # type: ignore[attr-defined]
    if tp is cst.BinaryOperation and type(expr.operator) in (cst.BitAnd, cst.BitOr, cst.BitXor):  # type: ignore[attr-defined]
        return _names_only(expr.left) and _names_only(expr.right)  # type: ignore[attr-defined]
    return False


def _mask_after_slices(interp: "Interpreter", expr: cst.BaseExpression, t: TensorV, lead: int) -> Value | None:
    """``x[:, mask]`` with ``lead`` full slices before a boolean tensor (a name or attribute) whose sizes are those
    of the axes it covers: x's first ``lead`` axes, one axis of unknown length, the rest. Anything else (sizes that
    differ or are not known to match, another index): None."""
    assert t.shape is not None
    if type(expr) not in (cst.Name, cst.Attribute) or t.alts or t.framework not in ("numpy", "torch", "jax"):
        return None
    v = interp.eval(expr)
    if not isinstance(v, TensorV) or v.dtype != "bool" or v.shape is None or v.alts or not v.shape:
        return None
    covered = t.shape[lead : lead + len(v.shape)]
    if len(covered) != len(v.shape) or any(equal(m, n) is not Truth.TRUE for m, n in zip(v.shape, covered)):
        return None
    selected = interp.ctx.fresh("selected")
    return t.with_shape(t.shape[:lead] + (selected,) + t.shape[lead + len(v.shape) :])


@registry.TENSOR_METHODS.register("tile", "gather", "index_select", "take", "ravel", "index_add", "index_add_")
def _method(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], is_method: bool
) -> Value | None:
    """``x.tile(reps)`` / ``np.tile(x, reps)`` (jax's function form: not modelled), gather, index_select, take,
    ravel."""
    if name == "tile" and not (is_method or t.framework in ("torch", "numpy")):
        return None
    shaped = method(cx, node, name, t, args, kwargs, t.framework)
    if shaped is None and name in ("gather", "index_select", "take"):
        return UNKNOWN
    return shaped
