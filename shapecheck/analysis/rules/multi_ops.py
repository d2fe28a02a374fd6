"""Operations that return several values: chunk / split / unbind, (values, indices) pairs, map / zip / tuple.

torch facts (checked against torch 2.x, see tests/test_multi_ops.py):

* ``x.chunk(n, dim)`` makes pieces of ceil(size / n) along ``dim`` -- n pieces when n divides the size, possibly
  fewer otherwise (``torch.zeros(2).chunk(3)`` is 2 pieces);
* ``x.split(s, dim)`` pieces of s (the last one smaller); ``x.split([s1, s2, ...], dim)`` needs the sizes to sum
  exactly to the axis (RuntimeError otherwise);
* ``x.unbind(dim)`` one tensor per index, ``dim`` removed;
* ``x.topk(k, dim)`` / ``x.sort(dim)`` / ``x.max(dim)`` / ``x.min(dim)`` / ``kthvalue`` / ``median(dim)`` /
  ``mode(dim)`` return (values, indices) namedtuples.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Callable

import libcst as cst

from ...diagnostics import details as D
from ...sizes import Size, Truth, divisible, equal, greater_equal, product
from ..interpret.context import OpSpec
from .ops_common import _ints, _norm_dim
from ..interpret.values import (
    RAISES_CONTEXT,
    UNKNOWN,
    BoolV,
    DictV,
    FloatV,
    FuncV,
    IntV,
    LayerV,
    ManyV,
    NoneV,
    ObjV,
    RefV,
    SeqV,
    StrV,
    TensorV,
    Value,
    exact_scalar,
    number_of,
)

from .registry import TENSOR_METHODS, OpContext

if TYPE_CHECKING:
    from ..interpret.interpreter import Interpreter

PAIR = "values_indices"  # SeqV kind of a (values, indices) namedtuple
MULTI = frozenset({"chunk", "split", "array_split", "tensor_split", "unbind", "topk", "sort", "kthvalue", "mode"})
_MAX_PIECES = 64
_MAX_ALIKE = 4096  # unbind: its pieces are one value, so a longer axis costs no more


def _dim(args: list[Value], kwargs: dict[str, Value], pos: int, default: int | None, rank: int) -> int | None:
    v = (
        args[pos]
        if len(args) > pos
        else kwargs.get("dim", IntV(Size.const(default)) if default is not None else NoneV())
    )
    d = _ints([v])
    if d is None:
        return None
    return _norm_dim(d[0], rank)


def _with_axis(t: TensorV, pos: int, size: Size | None) -> TensorV:
    assert t.shape is not None
    if size is None:
        shape = t.shape[:pos] + t.shape[pos + 1 :]
        axes = (t.axes[:pos] + t.axes[pos + 1 :]) if t.axes else None
    else:
        shape = t.shape[:pos] + (size,) + t.shape[pos + 1 :]
        axes = t.axes if t.axes and equal(size, t.shape[pos]) is Truth.TRUE else None
    return t.with_shape(shape, axes)


def _cut(cx: OpContext, node: cst.Call, pieces: SeqV, t: TensorV, pos: int, how: tuple[object, ...]) -> SeqV:
    """``pieces`` made at ``node`` by cutting axis ``pos`` of ``t`` (``how``: ("chunk", n), ("split", size),
    ("sizes", sizes), ("unbind",), ("sections", n), ("indices", indices)): kept in Context.pieces, their number being
    exact, for the unpacking of them into names (Interpreter._check_pieces_unpack). ``t`` of unknown rank: ``pos``
    counts into its known leading (>= 0) or trailing (< 0) axes."""
    if not t.assumed:
        assert t.shape is not None or t.vshape is not None
        size = t.shape[pos] if t.shape is not None else (t.vshape[0] if pos >= 0 else t.vshape[2])[pos]  # type: ignore[index]
        cx.ctx.pieces[id(node)] = (pieces, t, pos, size, how)
    return pieces


def _array_split(cx: OpContext, node: cst.Call, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``np.split(x, n, axis)`` / ``jnp.split(x, n, axis)`` with a number of sections: n equal pieces, and a
    ValueError when n does not divide the axis; with a list of indices (``_split_at``), the pieces between them."""
    spec = args[0] if args else kwargs.get("indices_or_sections", UNKNOWN)
    if isinstance(spec, SeqV) and spec.kind in ("list", "tuple"):
        return _split_at(cx, node, t, spec, args, kwargs)
    n = _ints([spec]) if isinstance(spec, IntV) else None
    shape = t.shape
    if n is None or n[0] <= 0 or shape is None or not shape:
        return UNKNOWN
    axis_v = args[1] if len(args) > 1 else kwargs.get("axis", IntV(Size.const(0)))
    d = _ints([axis_v])
    pos = _norm_dim(d[0], len(shape)) if d is not None else None
    if pos is None:
        return UNKNOWN
    size, count = shape[pos], Size.const(n[0])
    verdict = divisible(size, count)
    if verdict is Truth.FALSE:
        names = [f"a{i}" for i in range(len(shape))]
        split = " ".join(f"(n {x})" if i == pos else x for i, x in enumerate(names))
        out = " ".join(f"n {x}" if i == pos else x for i, x in enumerate(names))
        cx.ctx.report(
            node,
            "SHP204",
            {"op": "split", "detail": D.ArraySections(n[0], pos, shape, size)},
            cx.origins([t]),
            spec=OpSpec("rearrange", f"{split} -> {out}", (shape,), (("n", count),)),
        )  # the same divisibility
        return UNKNOWN
    piece = size.exact_div(count) if verdict is Truth.TRUE else None
    if piece is None or n[0] > _MAX_PIECES:
        return UNKNOWN
    return _cut(
        cx, node, SeqV(tuple(_with_axis(t, pos, piece) for _ in range(n[0])), "list"), t, pos, ("sections", n[0])
    )


def _split_at(
    cx: OpContext, node: cst.Call, t: TensorV, spec: SeqV, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``np.split(x, [i, j], axis)`` / ``jnp.split`` / ``np.array_split`` with indices: ``x[:i]``, ``x[i:j]``,
    ``x[j:]`` along the axis, each as Python slices it (negative indices from the end, clamped, an index before the
    previous one an empty piece). Known int indices only; on an axis of unknown length, non-negative ascending
    indices it surely reaches (torch-style sizes ported as indices give pieces of other lengths: a Mamba ``x_proj``
    split at ``[dt_rank, d_state]``)."""
    shape = t.shape
    idx = _ints(list(spec.items)) if all(isinstance(x, IntV) and not x.assumed for x in spec.items) else None
    if idx is None or not shape or len(idx) + 1 > _MAX_PIECES:
        return UNKNOWN
    d = _ints([args[1] if len(args) > 1 else kwargs.get("axis", IntV(Size.const(0)))])
    pos = _norm_dim(d[0], len(shape)) if d is not None else None
    if pos is None:
        return UNKNOWN
    size = shape[pos]
    bounds = [None, *idx, None]
    k = size.as_int()
    if k is not None:
        sizes = [Size.const(len(range(k)[a:b])) for a, b in zip(bounds[:-1], bounds[1:])]
    else:
        if any(i < 0 for i in idx) or any(a > b for a, b in zip(idx[:-1], idx[1:])):
            return UNKNOWN
        if idx and greater_equal(size, Size.const(idx[-1])) is not Truth.TRUE:
            return UNKNOWN
        starts = [0, *idx]
        sizes = [Size.const(b - a) for a, b in zip(starts[:-1], idx)] + [size - Size.const(starts[-1])]
    return _cut(cx, node, SeqV(tuple(_with_axis(t, pos, s) for s in sizes), "list"), t, pos, ("indices", tuple(idx)))


def _array_split_uneven(
    cx: OpContext, node: cst.Call, t: TensorV, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``np.array_split(x, n, axis)`` with a number of sections (cross-validation folds): n pieces that need not be
    equal, the first ``len % n`` one longer (numpy's rule). A list of indices is not modelled."""
    spec = args[0] if args else kwargs.get("indices_or_sections", UNKNOWN)
    if isinstance(spec, SeqV) and spec.kind in ("list", "tuple"):
        return _split_at(cx, node, t, spec, args, kwargs)
    n = _ints([spec]) if isinstance(spec, IntV) else None
    shape = t.shape
    if n is None or not 0 < n[0] <= _MAX_PIECES or not shape:
        return UNKNOWN
    d = _ints([args[1] if len(args) > 1 else kwargs.get("axis", IntV(Size.const(0)))])
    pos = _norm_dim(d[0], len(shape)) if d is not None else None
    if pos is None:
        return UNKNOWN
    k = shape[pos].as_int()
    if k is not None:
        q, r = divmod(k, n[0])
        sizes = [Size.const(q + 1 if i < r else q) for i in range(n[0])]
    elif (
        divisible(shape[pos], Size.const(n[0])) is Truth.TRUE
        and (piece := shape[pos].exact_div(Size.const(n[0]))) is not None
    ):
        sizes = [piece] * n[0]
    else:
        return UNKNOWN
    return _cut(cx, node, SeqV(tuple(_with_axis(t, pos, s) for s in sizes), "list"), t, pos, ("sections", n[0]))


def _chunk_pieces(size: Size, n: int) -> list[Size] | None:
    """The sizes of ``x.chunk(n)`` along an axis of ``size``: torch's rule on a known size, n equal pieces when n
    divides a symbolic one; None when the number of pieces is not known."""
    k = size.as_int()
    if k is not None:
        c = -(-k // n) if k else 0
        if c == 0:
            return None
        count = -(-k // c)
        return [Size.const(min(c, k - i * c)) for i in range(count)] if count <= _MAX_PIECES else None
    if n <= _MAX_PIECES and divisible(size, Size.const(n)) is Truth.TRUE:
        piece = size.exact_div(Size.const(n))
        if piece is not None:
            return [piece] * n
    return None


def _chunk_unranked(cx: OpContext, node: cst.Call, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``x.chunk(n, dim)`` on a tensor of unknown rank whose leading / trailing axes are known (``self.to_kv(x)``:
    the last axis a Linear set): when ``dim`` counts into the known axes, the pieces keep the rest unknown."""
    assert t.vshape is not None
    prefix, v, suffix = t.vshape
    n = _ints(args[:1] or [kwargs.get("chunks", UNKNOWN)])
    d = _ints([args[1] if len(args) > 1 else kwargs.get("dim", IntV(Size.const(0)))])
    if n is None or d is None or n[0] <= 0:
        return UNKNOWN
    dim = d[0]
    if 0 <= dim < len(prefix):
        sizes = _chunk_pieces(prefix[dim], n[0])
        if sizes is None:
            return UNKNOWN
        shapes = [(prefix[:dim] + (s,) + prefix[dim + 1 :], v, suffix) for s in sizes]
    elif -len(suffix) <= dim < 0:
        i = len(suffix) + dim
        sizes = _chunk_pieces(suffix[i], n[0])
        if sizes is None:
            return UNKNOWN
        shapes = [(prefix, v, suffix[:i] + (s,) + suffix[i + 1 :]) for s in sizes]
    else:
        return UNKNOWN  # the axis lies in the unknown run (or its position is not known)
    pieces = SeqV(
        tuple(TensorV(None, t.dtype, t.framework, None, t.origin, vs, not_ranks=t.not_ranks) for vs in shapes), "tuple"
    )
    return _cut(cx, node, pieces, t, dim, ("chunk", n[0]))


def pair(values: Value, indices: Value) -> SeqV:
    return SeqV((values, indices), PAIR)


@TENSOR_METHODS.register(*MULTI)
def apply(
    cx: OpContext,
    node: cst.Call,
    name: str,
    t: TensorV,
    args: list[Value],
    kwargs: dict[str, Value],
    method: bool = True,
) -> Value | None:
    """The value of ``t.name(*args)`` / ``torch.name(t, *args)``, or None when ``name`` is not one of these."""
    if name not in MULTI:
        return None
    if not method and t.framework is not None:
        # ``jnp.split(x, 3, axis=2)`` on another library's array (torch's split takes the size of each piece,
        # numpy's and jax's sections or indices): converted first, or an error; not modelled. (An array whose
        # library is not known has the function's already: rules/ops.call)
        qual = cx.source.qualify(node.func) or ""
        lib = "numpy" if qual.startswith("numpy.") else "jax" if qual.startswith("jax.") else None
        if lib is not None and t.framework != lib and not (lib == "jax" and t.framework == "numpy"):
            return UNKNOWN
    if t.framework in ("numpy", "jax") and name == "split":
        return _array_split(cx, node, t, args, kwargs)
    if name == "array_split":
        return (
            _array_split_uneven(cx, node, t, args, kwargs)
            if t.framework in ("numpy", "jax") and not method
            else UNKNOWN
        )
    if name == "sort" and t.framework in ("numpy", "jax") and (not method or t.framework == "jax"):
        # np.sort(a, axis=-1) / jnp.sort / jax's a.sort(): one sorted array of the input's shape (axis=None: the
        # flattened input); numpy's a.sort() sorts in place and gives None (not answered)
        axis = args[0] if args else kwargs.get("axis")
        if axis is None:
            return t
        if t.shape is None:
            return t.with_shape(None)
        if isinstance(axis, NoneV):
            return t.with_shape((product(t.shape),))
        at = _ints([axis])
        if at is None or _norm_dim(at[0], len(t.shape)) is None:
            return t.with_shape(None)
        return t
    if t.framework not in ("torch", None):
        return UNKNOWN  # numpy's split takes sections or indices, jax likewise: not modelled
    shape = t.shape
    if shape is None and name == "chunk" and t.vshape is not None:
        return _chunk_unranked(cx, node, t, args, kwargs)
    if shape is None:
        if name in ("topk", "sort", "kthvalue", "mode"):
            return pair(t.with_shape(None), TensorV(None, "int64", t.framework))
        return UNKNOWN
    rank = len(shape)
    if name == "chunk":
        n = _ints(args[:1] or [kwargs.get("chunks", UNKNOWN)])
        pos = _dim(args, kwargs, 1, 0, rank)
        if n is None or pos is None or n[0] <= 0:
            return UNKNOWN
        sizes = _chunk_pieces(shape[pos], n[0])
        if sizes is None:
            return UNKNOWN
        return _cut(cx, node, SeqV(tuple(_with_axis(t, pos, s) for s in sizes), "tuple"), t, pos, ("chunk", n[0]))
    if name == "split":
        spec = args[0] if args else kwargs.get("split_size_or_sections", kwargs.get("split_size", UNKNOWN))
        pos = _dim(args, kwargs, 1, 0, rank)
        if pos is None:
            return UNKNOWN
        size = shape[pos]
        if isinstance(spec, SeqV):
            if not all(isinstance(x, IntV) for x in spec.items) or len(spec.items) > _MAX_PIECES:
                return UNKNOWN
            parts = [x.size for x in spec.items if isinstance(x, IntV)]
            total = Size.const(0)
            for p in parts:
                total = total + p
            if total.as_int() == 0 and size.as_int() is None:
                # split([0, 0]) (the sizes of empty targets): made for an empty axis, which an axis of unknown size,
                # taken for a positive one elsewhere, may be (a view's -1 of no elements is 0)
                return UNKNOWN
            if equal(total, size) is Truth.FALSE:
                cx.ctx.report(
                    node,
                    "SHP204",
                    {"op": "split", "detail": D.SplitSizes(tuple(parts), total, pos, shape, size)},
                    cx.origins([t]),
                    spec=OpSpec("split", None, (shape,), (), (("sizes", tuple(parts)), ("dim", pos))),
                )
                return UNKNOWN
            return _cut(
                cx, node, SeqV(tuple(_with_axis(t, pos, p) for p in parts), "tuple"), t, pos, ("sizes", tuple(parts))
            )
        s = _ints([spec])
        k = size.as_int()
        if s is None or s[0] <= 0:
            return UNKNOWN
        if k is not None:
            count = max(1, -(-k // s[0]))
            if count > _MAX_PIECES:
                return UNKNOWN
            pieces = SeqV(tuple(_with_axis(t, pos, Size.const(min(s[0], k - i * s[0]))) for i in range(count)), "tuple")
            return _cut(cx, node, pieces, t, pos, ("split", s[0]))
        q = size.exact_div(Size.const(s[0])) if divisible(size, Size.const(s[0])) is Truth.TRUE else None
        count_q = q.as_int() if q is not None else None
        if count_q is not None and count_q <= _MAX_PIECES:
            pieces = SeqV(tuple(_with_axis(t, pos, Size.const(s[0])) for _ in range(count_q)), "tuple")
            return _cut(cx, node, pieces, t, pos, ("split", s[0]))
        return UNKNOWN
    if name == "unbind":
        pos = _dim(args, kwargs, 0, 0, rank)
        if pos is None:
            return UNKNOWN
        k = shape[pos].as_int()
        if k is None or k > _MAX_ALIKE:
            return UNKNOWN
        # alike pieces: one value (read once by loops)
        return _cut(cx, node, SeqV((_with_axis(t, pos, None),) * k, "tuple"), t, pos, ("unbind",))
    if name in ("topk", "sort", "kthvalue", "mode"):
        default = -1
        dim_pos = {"topk": 1, "sort": 0, "kthvalue": 1, "mode": 0}[name]
        pos = _dim(args, kwargs, dim_pos, default, rank)
        if pos is None:
            return pair(t.with_shape(None), TensorV(None, "int64", t.framework))
        if name == "sort":
            out = t
        elif name == "topk":
            k_v = args[0] if args else kwargs.get("k", UNKNOWN)
            if isinstance(k_v, IntV) and not k_v.assumed and greater_equal(shape[pos], k_v.size) is Truth.FALSE:
                # torch.topk(preacts, k, dim=1) over an axis shorter than k: "selected index k out of range"
                cx.ctx.report(
                    node,
                    "SHP204",
                    {"op": "topk", "detail": D.TopKRange(k_v.size, pos, shape, shape[pos])},
                    cx.origins([t]),
                    spec=OpSpec("topk", None, (shape,), (), (("k", k_v.size), ("dim", pos))),
                )
                return UNKNOWN
            out = _with_axis(t, pos, k_v.size) if isinstance(k_v, IntV) else t.with_shape(None)
        else:
            keep = kwargs.get("keepdim", args[dim_pos + 1] if len(args) > dim_pos + 1 else BoolV(False))
            if not isinstance(keep, BoolV) or keep.value is None:
                return pair(t.with_shape(None), TensorV(None, "int64", t.framework))
            out = _with_axis(t, pos, Size.const(1) if keep.value else None)
        return pair(out, TensorV(out.shape, "int64", t.framework, out.axes))
    return None


def values_indices(t: TensorV, result: TensorV) -> SeqV:
    """``x.max(dim)`` / ``x.min(dim)`` / ``x.median(dim)``: the reduced values and their int64 indices."""
    return pair(result, TensorV(result.shape, "int64", t.framework, result.axes))


def pair_attribute(v: SeqV, attr: str) -> Value:
    if attr == "values":
        return v.items[0]
    if attr == "indices":
        return v.items[1]
    return UNKNOWN


def pack_attribute(interp: "Interpreter", node: cst.Attribute, attr: str) -> Value:
    """``pack(...).shape``: the (packed, packed_shapes) tuple has only tuple's attributes."""
    if attr not in ("count", "index") and not attr.startswith("__"):
        interp.ctx.report(node, "SHP111", {"detail": D.PackTupleUsed(attribute=attr)})
    return UNKNOWN


# ---------------------------------------------------------------------------------------------------------- builtins


def _sorted(v: Value) -> Value | None:
    """``sorted(xs)`` of strings or of known ints, ``sorted(d)``: the keys of a dict (``sorted(modality_dims)``)."""
    if isinstance(v, DictV):
        items: tuple[Value, ...] = tuple(StrV(k) for k, _ in v.items)
    elif isinstance(v, SeqV) and v.kind != "shape":
        items = v.items
    else:
        return None
    texts = [x.value for x in items if isinstance(x, StrV)]
    if len(texts) == len(items):
        return SeqV(tuple(StrV(t) for t in sorted(texts)), "list")
    ints = [n for n in (x.size.as_int() if isinstance(x, IntV) else None for x in items) if n is not None]
    if len(ints) == len(items):
        order = sorted(range(len(items)), key=lambda j: ints[j])
        return SeqV(tuple(items[j] for j in order), "list")  # stable, as Python's sort
    return None


def _some_int(cx: OpContext, node: cst.Call) -> IntV:
    """An int whose value is not known (``int(rng.integers(4, 9))``), one symbol per evaluation named after the call:
    a size it gives an array is "some size", as an unknown size handed to a constructor is (ops.zeros)."""
    code = cx.code_for(node).replace(" ", "")
    return IntV(cx.ctx.fresh(code if len(code) <= 24 else "n", f"(the value of {code[:60]}, not known)"))


_FLOAT_TEXT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")  # plain decimal float text


def _numeric_builtin(cx: OpContext, name: str, args: list[Value], node: cst.Call) -> Value | None:
    """``max(dim_head // 2, 32)``, ``min(a, b)``, ``min(sizes)`` of known ints or floats; ``int(x)`` / ``float(x)`` / ``round(x)``
    of a number (``round`` as Python rounds: half to even; with ``ndigits`` a float, not followed). ``int(x)`` of an
    array's scalar and ``min`` / ``max`` of ints not all known: an int whose value is not known (``_some_int``)."""
    if any(a.star for a in node.args) or len(args) != len(node.args):
        return None
    if name == "round":
        v = args[0] if len(args) == 1 else None
        if isinstance(v, IntV):
            return v
        if isinstance(v, FloatV) and v.value is not None and math.isfinite(v.value):
            return IntV(Size.const(round(v.value)))
        return None
    if name in ("int", "float"):
        if len(args) != 1:
            return None
        v = args[0]
        if isinstance(v, BoolV) and v.value is not None:  # int(not match): 0 or 1
            return IntV(Size.const(int(v.value))) if name == "int" else FloatV(float(v.value))
        if isinstance(v, IntV):
            k = v.size.as_int()
            if name == "int":
                return v if v.origin is None else IntV(v.size, None, v.assumed)  # int(np.prod(s)): a Python int
            return FloatV(None if k is None else float(k))
        if isinstance(v, FloatV):
            if name == "float":
                return v
            return IntV(Size.const(int(v.value))) if v.value is not None and math.isfinite(v.value) else None
        k = exact_scalar(v)
        if k is not None:  # int(lengths.max()) of a tensor whose one element is known exactly
            return IntV(Size.const(k)) if name == "int" else FloatV(float(k))
        if isinstance(v, StrV) and name == "int":  # int("4") of a known string (``channel_mult.split(",")``)
            if len(v.value) > 40:
                return None
            try:
                return IntV(Size.const(int(v.value)))
            except ValueError:
                return None  # int("1.5") raises
        if isinstance(v, StrV) and name == "float":  # float("0.25") of a known string (a decoded block string)
            if len(v.value) > 40 or not _FLOAT_TEXT.fullmatch(v.value.strip()):
                return FloatV(None)  # ("inf", "nan", "1_000": Python's own rules, not followed)
            return FloatV(float(v.value))
        if name == "int" and isinstance(v, TensorV) and v.shape == () and (v.dtype or "").startswith(("int", "uint")):
            # int(rng.integers(min_len, max_len + 1)), int(np.random.randint(n)): an integer array's one element
            return _some_int(cx, node)
        # float(anything else) is a Python float or raises: `self.drop_prob = float(drop_prob)` of a value the
        # analysis does not know still multiplies a tensor as a scalar (int(x) may be any int: not a size, left out)
        return FloatV(None) if name == "float" else None
    if len(args) == 1 and isinstance(args[0], SeqV) and args[0].kind in ("tuple", "list", "shape") and args[0].items:
        args = list(args[0].items)  # min(input_resolution): the items of a known tuple
    elif len(args) < 2:
        return None  # max(xs): an iterable of unknown items
    numbers: list[float] = []
    for a in args:
        n = number_of(a)
        if n is None:
            # floats of which one is not known (``max(current_eps * eps_decay, eps)`` in a loop): one of them, a float
            if all(type(x) is FloatV for x in args):
                return FloatV(None)
            # ints of which one is not known (``min(len(s["x"]), max_len)``): one of them, an int
            if len(args) == len(node.args) and all(type(x) is IntV and not x.assumed for x in args):
                return _some_int(cx, node)
            return None
        numbers.append(n)
    pick = max(numbers) if name == "max" else min(numbers)
    chosen = args[numbers.index(pick)]  # the first of equal values, as Python returns it
    return chosen


_MATH_FLOAT: dict[str, Callable[..., float]] = {
    "sqrt": math.sqrt,
    "exp": math.exp,
    "log": math.log,
    "log2": math.log2,
    "log10": math.log10,
    "pow": math.pow,
    "cos": math.cos,
    "sin": math.sin,
}
_MATH_INT: dict[str, Callable[[float], int]] = {"ceil": math.ceil, "floor": math.floor}


def size_product(args: list[Value]) -> Value | None:
    """``math.prod(sizes)`` / ``np.prod(patch_size)`` of a non-empty list, tuple or shape of known ints: their product
    (an int; numpy's is an integer scalar, which sizes take alike). Anything else: None (not this rule)."""
    if len(args) != 1 or not isinstance(args[0], SeqV) or not args[0].items:
        return None
    items = args[0].items
    if not all(isinstance(x, IntV) and not x.assumed for x in items):
        return None
    return IntV(product(tuple(x.size for x in items if isinstance(x, IntV))))


def math_call(qual: str, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
    """``math.sqrt(dim)``, ``math.log(n)``, ``math.ceil(n / k)`` ... of numbers: a float (its value when the arguments
    are known), an int for ceil/floor of a known value; anything else is unknown."""
    name = qual[len("math.") :]
    if dynamic or kwargs or not args:
        return UNKNOWN
    if not all(isinstance(a, (IntV, FloatV)) for a in args):
        # math.log(self.max_period) of a value not known: whatever it is, what returns is a Python float (a number,
        # never an array: ``-math.log(p) * freqs`` keeps the array's shape)
        return FloatV(None) if name in _MATH_FLOAT else UNKNOWN
    known = [float(n) for n in map(number_of, args) if n is not None]
    if name in _MATH_FLOAT:
        if len(known) != len(args):
            return FloatV(None)
        try:
            return FloatV(float(_MATH_FLOAT[name](*known)))
        except (ValueError, ArithmeticError, TypeError):  # math.log(x, 1), math.sqrt(-1), math.exp(1000): raises
            return UNKNOWN
    if name in ("gcd", "lcm"):
        ints = [x.size.as_int() for x in args if isinstance(x, IntV) and not x.assumed]
        if len(ints) != len(args) or any(i is None for i in ints):
            return UNKNOWN
        return IntV(Size.const((math.gcd if name == "gcd" else math.lcm)(*(i for i in ints if i is not None))))
    if name in _MATH_INT and len(args) == 1:
        if isinstance(args[0], IntV):
            return args[0]
        if len(known) == 1 and math.isfinite(known[0]):
            return IntV(Size.const(int(_MATH_INT[name](known[0]))))
    return UNKNOWN


_MAX_ROWS = 64  # list(x) of an array with up to this many rows is a list of known length
_MAX_CHARS = 512  # list(s) of a string of up to this many characters is the list of them


def builtin_call(cx: OpContext, interp: "Interpreter", node: cst.Call, name: str, args: list[Value]) -> Value | None:
    """``map(f, xs)``, ``zip(xs, ys)``, ``tuple(xs)`` / ``list(xs)``, ``enumerate(xs)`` on sequences of known length;
    ``isinstance`` on values of known kind; ``abs(x)`` of a tensor."""
    if name == "abs" and len(args) == 1 and len(node.args) == 1 and isinstance(args[0], TensorV):
        return args[0]  # x.__abs__(): same shape and dtype
    if name in ("max", "min", "int", "float", "round"):
        return _numeric_builtin(cx, name, args, node)
    if name == "isinstance" and len(args) == 2 and len(node.args) == 2:
        return _isinstance(cx, interp, args[0], node.args[1].value)
    if name == "sorted" and len(args) == 1 and len(node.args) == 1 and not node.args[0].star:
        return _sorted(args[0])
    if name in ("tuple", "list") and not args and not node.args:
        return SeqV((), "tuple" if name == "tuple" else "list")  # tuple(), list(): as () and [] are
    if name in ("tuple", "list") and len(args) == 1 and len(node.args) == 1:
        v = args[0]
        if isinstance(v, SeqV):
            return SeqV(v.items, "tuple" if name == "tuple" else "list")
        if isinstance(v, DictV) and v.kind == "dict" and not node.args[0].star:
            # list(MODELS): the keys of a dict, in insertion order
            return SeqV(tuple(StrV(k) for k, _ in v.items), "tuple" if name == "tuple" else "list")
        if isinstance(v, StrV) and len(v.value) <= _MAX_CHARS and not node.args[0].star:
            # list("LAGVSERTIDPKQNFYMHWC"): its characters (an alphabet, a vocabulary)
            return SeqV(tuple(StrV(c) for c in v.value), "tuple" if name == "tuple" else "list")
        if isinstance(v, TensorV) and v.shape and v.alts is None and not node.args[0].star:
            # list(x) of an array whose first axis has a known length: its rows (einops stacks such a list back)
            n = v.shape[0].as_int()
            if n is not None and 0 <= n <= _MAX_ROWS:
                row = v.with_shape(v.shape[1:], v.axes[1:] if v.axes is not None else None)
                return SeqV((row,) * n, "tuple" if name == "tuple" else "list")
        return None
    if (
        name == "zip"
        and args
        and all(isinstance(a, SeqV) for a in args)
        and len(args) == len(node.args)
        and not any(a.keyword is not None for a in node.args)
    ):
        n = min(len(a.items) for a in args if isinstance(a, SeqV))
        return SeqV(
            tuple(SeqV(tuple(a.items[i] for a in args if isinstance(a, SeqV)), "tuple") for i in range(n)), "list"
        )
    if name == "enumerate" and len(args) == 1 and len(node.args) == 1 and isinstance(args[0], SeqV):
        return SeqV(tuple(SeqV((IntV(Size.const(i)), x), "tuple") for i, x in enumerate(args[0].items)), "list")
    if name == "map" and len(node.args) >= 2 and len(args) == len(node.args):
        # a tensor iterates over its rows: ``mk, mv = map(lambda t: repeat(t, ...), self.mem_kv)`` on a (2, h, d, n)
        # parameter applies the function to two (h, d, n) rows
        args = [args[0]] + [_rows(a) for a in args[1:]]
    if (
        name == "map"
        and len(node.args) >= 2
        and len(args) == len(node.args)
        and all(isinstance(a, SeqV) for a in args[1:])
    ):
        seqs = [a for a in args[1:] if isinstance(a, SeqV)]
        n = min(len(s.items) for s in seqs)
        fn = node.args[0].value
        out: list[Value] = []
        ctx = interp.ctx
        marks = (len(ctx.pending), len(ctx.inline_findings), ctx.inline_findings)
        try:
            return _map(cx, interp, node, fn, args, seqs, n, out)
        finally:
            # one finding per place: the function applied to equal items fails the same way each time
            for lst, start in (
                (ctx.pending, marks[0]),
                (ctx.inline_findings, marks[1] if ctx.inline_findings is marks[2] else 0),
            ):
                seen: set[tuple[int, str, str]] = set()
                kept = []
                for p in lst[start:]:
                    key = (id(p.node), p.code, repr(p.fields))  # equal fields: the same finding
                    if key not in seen:
                        seen.add(key)
                        kept.append(p)
                lst[start:] = kept
    return None


MAX_ROWS = 16  # a tensor with this many rows or fewer (a known first axis) is mapped over row by row


def _rows(v: Value) -> Value:
    """The rows of a tensor whose first axis is a known small number, as a tuple (what iterating it yields); any
    other value as it is."""
    if not isinstance(v, TensorV) or not v.shape:
        return v
    n = v.shape[0].as_int()
    if n is None or not 0 < n <= MAX_ROWS:
        return v
    row = v.with_shape(v.shape[1:], v.axes[1:] if v.axes else None)
    return SeqV((row,) * n, "tuple")


def _map(
    cx: OpContext,
    interp: "Interpreter",
    node: cst.Call,
    fn: cst.BaseExpression,
    args: list[Value],
    seqs: list[SeqV],
    n: int,
    out: list[Value],
) -> Value | None:
    for i in range(n):
        items = [s.items[i] for s in seqs]
        if type(fn) is cst.Lambda:
            out.append(_apply_lambda(interp, fn, items))
        elif isinstance(args[0], FuncV):
            out.append(cx.call_function(interp, node, args[0], items, {}))
        elif isinstance(args[0], LayerV) and args[0].kind == "partial":  # map(partial(l2norm, groups=g), (q, k))
            out.append(cx.call_value(interp, node, args[0], items))
        elif isinstance(args[0], (LayerV, ObjV)) and len(seqs) == 1:
            # x, cond = map(self.proj_in, (x, cond)): a layer or module instance of the analysed code on each item
            out.append(cx.call_value(interp, node, args[0], items))
        elif isinstance(args[0], RefV) and args[0].qualname.startswith(("torch.", "numpy.", "jax.")) and len(seqs) == 1:
            out.append(cx.call_value(interp, node, args[0], items))  # map(jnp.asarray, batch): a framework function
        elif (
            type(fn) is cst.Name and fn.value in _MAPPED_BUILTINS and len(seqs) == 1 and cx.is_builtin(interp, fn.value)
        ):
            item = _sequence_builtin(fn.value, items[0])  # zip(*map(reversed, (in_out, heads))): each one reversed
            if item is None:
                return None
            out.append(item)
        else:
            return None
    return SeqV(tuple(out), "list")


_MAPPED_BUILTINS = frozenset({"reversed", "tuple", "list", "len"})


def _sequence_builtin(name: str, v: Value) -> Value | None:
    """``reversed`` / ``tuple`` / ``list`` / ``len`` of one sequence of known length (None: not known)."""
    if not isinstance(v, SeqV) or v.kind in ("shape", "range"):
        return None
    if name == "len":
        return IntV(Size.const(len(v.items)))
    items = tuple(reversed(v.items)) if name == "reversed" else v.items
    return SeqV(items, "list" if name == "list" else "tuple")


def _apply_lambda(interp: "Interpreter", fn: cst.Lambda, items: list[Value]) -> Value:
    params = fn.params
    if (
        params.star_arg is not cst.MaybeSentinel.DEFAULT
        and params.star_arg is not None
        or params.kwonly_params
        or params.star_kwarg is not None
        or params.posonly_params
    ):
        return UNKNOWN
    names = [p.name.value for p in params.params]
    if len(names) < len(items) or any(p.default is None for p in params.params[len(items) :]):
        return UNKNOWN
    saved = dict(interp.scope.vars)
    try:
        for i, name in enumerate(names):
            interp.scope.vars[name] = items[i] if i < len(items) else interp.eval(params.params[i].default)
        return interp.eval(fn.body)
    finally:
        interp.scope.vars = saved


_TENSOR_CLASSES = {"torch.Tensor": "torch", "numpy.ndarray": "numpy", "jax.Array": "jax", "jax.numpy.ndarray": "jax"}
_IMAGE_CLASSES = frozenset({"PIL.Image.Image"})
_ABSTRACT_MAPPINGS = frozenset(
    {"collections.abc.Mapping", "collections.abc.MutableMapping", "typing.Mapping", "typing.MutableMapping"}
)


# (not Sequence / Sized: a zip, map or enumerate held as a list of its items is neither)
_ABSTRACT_CONTAINERS = frozenset({"collections.abc.Iterable", "typing.Iterable"})
_ABSTRACT_SEQUENCES = frozenset({"collections.abc.Sequence", "typing.Sequence"})


def _function_or_class(v: Value) -> bool:
    """A def of the analysed code (no partial, no bound method of an object) or a class of the analysed code or of
    the frameworks' layer namespaces: no instance of a builtin type, nor a ``functools.partial``."""
    if isinstance(v, FuncV):
        return v.bound_self is None and not v.env
    return isinstance(v, RefV) and v.qualname.startswith(("class:", "torch.nn.", "flax.", "equinox.nn."))


def _torch_nn_class(q: str | None) -> str | None:
    """The name of the torch.nn module class ``q`` names (``torch.nn.Linear``, ``torch.nn.modules.batchnorm._BatchNorm``;
    not ``nn.Parameter``, a tensor); None for anything else."""
    if q is None or not q.startswith("torch.nn."):
        return None
    parts = q.split(".")
    if not (len(parts) == 3 or (len(parts) == 5 and parts[2] == "modules")):
        return None
    name = parts[-1]
    return name if (name[:1].isupper() or name[:1] == "_") and name not in ("Parameter", "Buffer") else None


def _torch_module_is(cx: OpContext, v: Value, name: str) -> bool | None:
    """``isinstance(v, torch.nn.<name>)`` when what built ``v`` decides it: a torch layer (its class and that class's
    bases), an nn.ModuleList / nn.ModuleDict, an instance of an analysed class whose bases outside the analysed code
    are torch.nn classes the analysis knows, or a value that is no module at all."""
    from .layers import TORCH_NN_ANCESTORS

    if isinstance(v, LayerV):
        if v.cls is None:
            return None
        return name in ("Module", v.cls) or name in TORCH_NN_ANCESTORS.get(v.cls, ())
    if isinstance(v, (SeqV, ManyV)) and v.kind == "modulelist":
        return name in ("Module", "ModuleList")
    if isinstance(v, DictV) and v.kind == "moduledict":
        return name in ("Module", "ModuleDict")
    if isinstance(v, ObjV):
        bases = cx.torch_bases(v)
        if bases is None or not all(b == "Module" or b in TORCH_NN_ANCESTORS for b in bases):
            return None
        known = set(bases) | {a for b in bases for a in TORCH_NN_ANCESTORS.get(b, ())}
        return name in known or (name == "Module" and bool(bases))
    if isinstance(v, (TensorV, IntV, FloatV, BoolV, StrV, NoneV)) or (
        isinstance(v, SeqV) and v.kind in ("tuple", "list", "shape")
    ):
        return False
    return None


def _isinstance(cx: OpContext, interp: "Interpreter", v: Value, classes: cst.BaseExpression) -> Value | None:
    """``isinstance(x, C)`` / ``isinstance(x, (C1, C2))`` when the kind of ``x`` decides it; None when unknown."""
    nodes = [e.value for e in classes.elements] if type(classes) is cst.Tuple else [classes]
    answers = []
    for c in nodes:
        if (
            type(c) is cst.Name
            and c.value in ("list", "tuple", "int", "float", "str", "dict", "bool")
            and cx.is_builtin(interp, c.value)
        ):
            builtin = c.value
            if (
                isinstance(v, TensorV)
                or isinstance(v, NoneV)
                or (isinstance(v, ObjV) and cx.plain_object(v))
                or v == RAISES_CONTEXT
            ):
                answers.append(False)
            elif isinstance(v, SeqV) and v.kind in ("range", "iter", "set"):
                answers.append(False)  # a range or an iterator (itertools.repeat) is neither a list nor a tuple
            elif isinstance(v, SeqV) and builtin in ("list", "tuple"):
                kind = "tuple" if v.kind in ("tuple", "shape", PAIR, "pack") else "list"
                answers.append(kind == builtin)
            elif isinstance(v, SeqV):
                answers.append(False)
            elif isinstance(v, DictV) and v.kind == "dict":
                answers.append(builtin == "dict")  # ``dict(...)`` or ``{...}``: a dict, no list, tuple or number
            elif _function_or_class(v):
                # a function or a class (``get_act_layer(nn.ReLU)``: ``if not isinstance(name, str): return name``)
                answers.append(False)
            elif isinstance(v, (IntV, FloatV, BoolV, StrV)) and builtin in ("list", "tuple", "dict"):
                answers.append(
                    False
                )  # a number or a string is no container (``pair(t)``: ``t if isinstance(t, tuple)``)
            elif isinstance(v, StrV) and builtin == "str":
                answers.append(True)
            elif isinstance(v, BoolV) and builtin in ("bool", "int", "float"):
                answers.append(builtin != "float")  # a bool is an int, and no float (``isinstance(enable, bool)``)
            elif (isinstance(v, (IntV, FloatV, BoolV)) and builtin == "str") or (
                isinstance(v, StrV) and builtin in ("int", "float", "bool")
            ):
                answers.append(False)  # ``isinstance(attentional_pool, str)`` of a flag: a number is no string
            elif isinstance(v, IntV) and not v.assumed and builtin == "float":
                answers.append(False)  # an int is no float (nor is numpy's int64)
            elif (
                isinstance(v, IntV)
                and not v.assumed
                and v.origin is None
                and builtin == "int"
                and v.size.as_int() is not None
            ):
                # a known int: a literal, a length, a shape's size or arithmetic on them (a numpy integer, which is
                # no int, is either marked (np.prod) or not held as a known int: np.int64(...) and array items)
                answers.append(True)
            else:
                return None
            continue
        q = cx.source.qualify(c) if type(c) in (cst.Name, cst.Attribute) else None
        cls = interp.eval(c) if type(c) in (cst.Name, cst.Attribute) and q not in _TENSOR_CLASSES else None
        if isinstance(cls, RefV) and not cls.qualname.startswith("class:"):
            key = cx.project_class(cls.qualname)  # a class of the analysed code imported from another module
            cls = RefV("class:" + key) if key is not None else cls
        if isinstance(cls, RefV) and cls.qualname.startswith("class:"):
            # a class of the analysed code: ``for norm, block in self.layers: if isinstance(block, Attention)``
            if isinstance(v, ObjV):
                found = cx.is_instance_of(v, cls.qualname[6:])
                if found is None:
                    return None
                answers.append(found)
            elif isinstance(v, (TensorV, NoneV, IntV, FloatV, BoolV, StrV, SeqV, LayerV)):
                answers.append(False)  # a value of a library's or a builtin kind
            else:
                return None
            continue
        if q in _ABSTRACT_SEQUENCES:  # ``isinstance(x, Sequence)`` (equinox-style n-tuple parsers)
            if isinstance(v, (IntV, FloatV, BoolV, NoneV, TensorV)):
                answers.append(False)  # (neither numpy's nor torch's arrays register as a Sequence)
            elif isinstance(v, StrV) or (isinstance(v, SeqV) and v.kind in ("tuple", "list", "shape", PAIR, "range")):
                answers.append(True)
            elif isinstance(v, SeqV) and v.kind in ("iter", "set"):
                answers.append(False)
            else:
                return None
            continue
        if q in _ABSTRACT_CONTAINERS:  # ``isinstance(x, collections.abc.Iterable)`` (n-tuple parsers)
            if isinstance(v, (IntV, FloatV, BoolV, NoneV)):
                answers.append(False)
            elif isinstance(v, (StrV, SeqV)):  # every sequence, range, zip, map or iterator held is iterable
                answers.append(True)
            else:
                return None
            continue
        if q in ("types.FunctionType", "types.LambdaType") and (
            (isinstance(v, RefV) and _function_or_class(v)) or isinstance(v, (TensorV, NoneV, IntV, StrV, SeqV))
        ):
            answers.append(False)  # ``isinstance(norm_layer, types.FunctionType)`` of a class: no def
            continue
        if q == "functools.partial" and (_function_or_class(v) or isinstance(v, (TensorV, NoneV, IntV, StrV, SeqV))):
            answers.append(False)  # ``isinstance(norm_layer, functools.partial)`` of a class or a def
            continue
        torch_class = _torch_nn_class(q)
        if torch_class is not None:
            # ``isinstance(child, nn.Linear)`` in a walk of a model's modules (LoRA injection, weight init)
            found = _torch_module_is(cx, v, torch_class)
            if found is None:
                return None
            answers.append(found)
            continue
        if q in _IMAGE_CLASSES and isinstance(v, (TensorV, SeqV, NoneV, IntV, FloatV, BoolV, StrV)):
            answers.append(False)  # ``isinstance(img, Image.Image)`` of an array: a PIL image is none of these
            continue
        if q in _ABSTRACT_MAPPINGS:  # ``isinstance(batch, Mapping)`` (collate functions, transforms)
            if isinstance(v, (TensorV, SeqV, NoneV, IntV, FloatV, BoolV, StrV)):
                answers.append(False)  # (no array, sequence, number or string is a Mapping)
            elif isinstance(v, DictV) and v.kind == "dict":
                answers.append(True)
            else:
                return None
            continue
        if q in _TENSOR_CLASSES:
            if isinstance(v, TensorV) and v.framework is not None:
                answers.append(v.framework == _TENSOR_CLASSES[q])
            elif (
                isinstance(v, (SeqV, NoneV, IntV, FloatV, BoolV, StrV))
                or (isinstance(v, ObjV) and cx.plain_object(v))
                or v == RAISES_CONTEXT
            ):
                answers.append(False)  # (a number: ``if not isinstance(k, torch.Tensor): k = torch.Tensor([k])``)
            else:
                return None
            continue
        return None
    return BoolV(any(answers))
