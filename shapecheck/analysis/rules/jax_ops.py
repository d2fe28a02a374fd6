"""jax / numpy array ops whose output shape the call's arguments decide: ``jnp.repeat`` (numpy's element repeat),
``jax.image.resize``, ``jax.lax.top_k``, ``jax.lax.reduce_window``, and flax.linen's ``DenseGeneral``.

Each rule gives the output shape only when every argument it reads is known, and an unknown shape otherwise; none
reports by itself (what fails later is reported by the op that fails).
"""

from __future__ import annotations

import libcst as cst

from ...sizes import Size, Truth, equal, greater_equal
from typing import TYPE_CHECKING

from ...diagnostics import details as D
from ..interpret.context import OpSpec
from ..interpret.values import UNKNOWN, FloatV, IntV, LayerV, NoneV, SeqV, StrV, TensorV, Value
from .frameworks import _window_side
from .ops_common import _norm_dim
from .registry import FUNCTIONS, STUB_OVERRIDES, TENSOR_METHODS, OpContext, framework_layer, layer_kind

if TYPE_CHECKING:
    from ..interpret.interpreter import Interpreter


def _int(v: Value | None) -> int | None:
    return v.size.as_int() if isinstance(v, IntV) and not v.assumed else None


def _int_tuple(v: Value | None) -> tuple[int, ...] | None:
    if not isinstance(v, SeqV) or v.kind not in ("tuple", "list", "shape"):
        return None
    out = tuple(_int(i) for i in v.items)
    return None if None in out else out  # type: ignore[return-value]


@TENSOR_METHODS.register("repeat")
def _np_repeat(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """numpy's / jax's ``repeat(a, repeats, axis=None)`` (``a.repeat(repeats, axis)`` alike): each element
    ``repeats`` times along ``axis`` (that axis times ``repeats``), or along the flattened array when axis is None.
    Only a Python int ``repeats`` is read (an array of counts gives an unknown shape)."""
    if t.framework not in ("jax", "numpy"):
        return None
    if set(kwargs) - {"repeats", "axis"} or len(args) > 2:
        return t.with_shape(None)
    reps = args[0] if args else kwargs.get("repeats")
    axis = args[1] if len(args) > 1 else kwargs.get("axis", NoneV())
    if not isinstance(reps, IntV) or reps.assumed or t.shape is None:
        return t.with_shape(None)
    if isinstance(axis, NoneV):
        total = Size.const(1)
        for s in t.shape:
            total = total * s
        return t.with_shape((total * reps.size,), origin=cx.origin(node, "repeat"))
    d = _int(axis)
    at = _norm_dim(d, len(t.shape)) if d is not None else None
    if at is None:
        return t.with_shape(None)
    shape = t.shape[:at] + (t.shape[at] * reps.size,) + t.shape[at + 1 :]
    return t.with_shape(shape, origin=cx.origin(node, "repeat"))


@FUNCTIONS.register("jax.image.resize")
def _image_resize(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jax.image.resize(image, shape, method)``: an array of exactly ``shape`` (of the image's rank: jax raises
    otherwise, and the shape is then left unknown)."""
    x = args[0] if args else kwargs.get("image")
    shape = args[1] if len(args) > 1 else kwargs.get("shape")
    if not isinstance(x, TensorV):
        return None
    if not isinstance(shape, SeqV) or not all(isinstance(i, IntV) and not i.assumed for i in shape.items):
        return x.with_shape(None)
    sizes = tuple(i.size for i in shape.items if isinstance(i, IntV))
    if x.shape is not None and len(x.shape) != len(sizes):
        return x.with_shape(None)
    out = x.with_shape(sizes, origin=cx.origin(node, "jax.image.resize"))
    return out if x.dtype is None or x.dtype.startswith(("float", "bfloat", "complex")) else out.with_dtype(None)


@FUNCTIONS.register("jax.lax.top_k")
def _top_k(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jax.lax.top_k(operand, k, *, axis=-1)``: (values, indices), the operand's shape with ``k`` on that axis
    (indices int32)."""
    x = args[0] if args else kwargs.get("operand")
    k = args[1] if len(args) > 1 else kwargs.get("k")
    if not isinstance(x, TensorV):
        return None
    axis = _int(kwargs.get("axis", IntV(Size.const(-1))))
    if set(kwargs) - {"operand", "k", "axis"} or not isinstance(k, IntV) or x.shape is None or axis is None:
        return SeqV((x.with_shape(None), TensorV(None, "int32", x.framework)), "tuple")
    at = _norm_dim(axis, len(x.shape))
    if at is None:
        return UNKNOWN
    shape = x.shape[:at] + (k.size,) + x.shape[at + 1 :]
    origin = cx.origin(node, "jax.lax.top_k")
    return SeqV((x.with_shape(shape, origin=origin), TensorV(shape, "int32", x.framework, None, origin)), "tuple")


_SEGMENT_OPS = ("segment_sum", "segment_max", "segment_min", "segment_prod")


@FUNCTIONS.register(*(f"jax.ops.{n}" for n in _SEGMENT_OPS))
def _segment_reduce(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jax.ops.segment_sum(data, segment_ids, num_segments)`` (max / min / prod alike), with one id per row of
    ``data``: one row per segment, ``(num_segments,) + data.shape[1:]``. Without ``num_segments`` the count is the
    ids' maximum + 1 (data-dependent): unknown."""
    names = ("data", "segment_ids", "num_segments", "indices_are_sorted", "unique_indices", "bucket_size", "mode")
    if len(args) > len(names) or set(kwargs) - set(names):
        return None
    bound = dict(zip(names, args))
    bound.update(kwargs)
    data, ids, count = bound.get("data"), bound.get("segment_ids"), bound.get("num_segments")
    if not isinstance(data, TensorV):
        return None
    if not isinstance(count, IntV) or count.assumed or not isinstance(ids, TensorV):
        return data.with_shape(None)
    if data.shape is None or ids.shape is None or len(ids.shape) != 1 or not data.shape:
        return data.with_shape(None)  # (ids of another rank: jax's scatter broadcasts them in ways not modelled)
    k = count.size.as_int()
    if k is not None and k < 0:
        return UNKNOWN
    shape = (count.size,) + data.shape[1:]
    return data.with_shape(shape, origin=cx.origin(node, qual.rsplit(".", 1)[-1]))


def _window_out(n: int, w: int, s: int, lo: int, hi: int, bd: int, wd: int) -> int | None:
    """One axis of ``lax.reduce_window``: the base dilated to (n - 1) * bd + 1, padded by lo and hi, then windows
    of the dilated extent (w - 1) * wd + 1 every s steps (none when the window does not fit: size 0)."""
    if s <= 0 or w <= 0 or bd <= 0 or wd <= 0:
        return None
    extent = (0 if n == 0 else (n - 1) * bd + 1) + lo + hi
    span = (w - 1) * wd + 1
    return 0 if extent < span else (extent - span) // s + 1


@FUNCTIONS.register("jax.lax.reduce_window")
def _reduce_window(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``lax.reduce_window(operand, init_value, computation, window_dimensions, window_strides=None,
    padding='VALID', base_dilation=None, window_dilation=None)`` on one array: each axis as the window slides
    (``'SAME'`` pads to ceil(n / s) windows; padding pairs as given). Concrete sizes only; a tuple of operands or
    anything unread gives an unknown shape."""
    names = (
        "operand",
        "init_value",
        "computation",
        "window_dimensions",
        "window_strides",
        "padding",
        "base_dilation",
        "window_dilation",
    )
    if len(args) > len(names) or set(kwargs) - set(names):
        return None
    vals = {n: args[i] if len(args) > i else kwargs.get(n) for i, n in enumerate(names)}
    x = vals["operand"]
    if not isinstance(x, TensorV):
        return None
    window = vals["window_dimensions"]
    if (
        isinstance(window, SeqV)
        and (x.shape is None or len(x.shape) == len(window.items))
        and _pad_pairs_fail(cx, node, "lax.reduce_window", vals["padding"], len(window.items), [x], [x.shape])
    ):
        return x.with_shape(None)
    if x.shape is None:
        return x.with_shape(None)
    rank = len(x.shape)
    dims = _int_tuple(vals["window_dimensions"])

    def per_axis(key: str) -> tuple[int, ...] | None:
        v = vals[key]
        return (1,) * rank if v is None or isinstance(v, NoneV) else _int_tuple(v)

    strides, bd, wd = per_axis("window_strides"), per_axis("base_dilation"), per_axis("window_dilation")
    ns = tuple(s.as_int() for s in x.shape)
    if dims is None or strides is None or bd is None or wd is None or None in ns:
        return x.with_shape(None)
    if not len(dims) == len(strides) == len(bd) == len(wd) == rank:
        return x.with_shape(None)
    pad = vals["padding"] if vals["padding"] is not None else StrV("VALID")
    pairs: list[tuple[int, int]] = []
    if isinstance(pad, StrV) and pad.value.upper() in ("VALID", "SAME", "SAME_LOWER"):
        if pad.value.upper() != "VALID" and (
            vals["window_strides"] is None or isinstance(vals["window_strides"], NoneV)
        ):
            return x.with_shape(None)  # jax pads for strides it is not given (an empty list): not modelled
        for n, w, s, d in zip(ns, dims, strides, wd):
            if pad.value.upper() == "VALID" or s <= 0:
                pairs.append((0, 0))
                continue
            # jax.lax.padtype_to_pads on the operand's (undilated) sizes and the dilated window
            total = max(((n + s - 1) // s - 1) * s + (w - 1) * d + 1 - n, 0)  # type: ignore[operator]
            lo = total // 2 if pad.value.upper() == "SAME" else total - total // 2
            pairs.append((lo, total - lo))
    elif isinstance(pad, SeqV) and len(pad.items) == rank:
        for p in pad.items:
            pair = _int_tuple(p)
            if pair is None or len(pair) != 2:
                return x.with_shape(None)
            pairs.append((pair[0], pair[1]))
    else:
        return x.with_shape(None)
    out = []
    for n, w, s, (lo, hi), b, d in zip(ns, dims, strides, pairs, bd, wd):
        o = _window_out(n, w, s, lo, hi, b, d)
        if o is None:
            return x.with_shape(None)
        out.append(Size.const(o))
    return x.with_shape(tuple(out), origin=cx.origin(node, "lax.reduce_window"))


def _pad_pairs_fail(
    cx: OpContext,
    node: cst.Call,
    op: str,
    pad: Value | None,
    axes: int,
    operands: list[TensorV],
    shapes: list[tuple[Size, ...] | None],
) -> bool:
    """Explicit padding of ``lax.reduce_window`` / ``lax.conv_general_dilated``: one (low, high) pair per window axis
    (``axes``: the window's length, the strides' for a convolution), whatever the sizes. jax unpacks each entry into
    two values (an entry of another length raises ValueError) and zips the pairs with the axes (another count
    raises). Only a sequence whose entries are all sequences of known length is read (a string or anything else:
    silent). The shapes shown are the operands', or made-up ones of the rank the window fits."""
    if not isinstance(pad, SeqV) or pad.kind not in ("tuple", "list"):
        return False
    lengths = [len(p.items) if isinstance(p, SeqV) and p.kind in ("tuple", "list") else None for p in pad.items]
    if None in lengths:
        return False
    bad = [i for i, k in enumerate(lengths) if k != 2]
    if bad:
        detail = D.PadArguments("pair", len(lengths), axes, bad[0], lengths[bad[0]] or 0)
    elif len(lengths) != axes:
        detail = D.PadArguments("pairs", len(lengths), axes)
    else:
        return False
    conv = op != "lax.reduce_window"
    known = [s for s in shapes if s is not None and len(s) > 1]
    channels = known[0][1] if conv and known else cx.ctx.fresh("c")
    inputs = []
    for i, shape in enumerate(shapes):
        if shape is None:  # a convolution's (n, c, ...) and (o, c, ...) share their features; a window's is its rank
            lead = (cx.ctx.fresh("n" if i == 0 else "o"), channels) if conv else ()
            shape = lead + tuple(cx.ctx.fresh("d") for _ in range(axes))
        inputs.append(shape)
    cx.ctx.report(
        node,
        "SHP204",
        {"op": op, "detail": detail},
        cx.origins(operands),
        spec=OpSpec("pad.arguments", None, tuple(inputs), (), (("op", op), ("pairs", tuple(lengths)), ("axes", axes))),
    )
    return True


def _conv_specs(v: Value | None, rank: int) -> tuple[str, str, str] | None:
    """``dimension_numbers`` of ``lax.conv_general_dilated``: None (NCHW / OIHW / NCHW, any rank) or three layout
    strings (``("NHWC", "HWIO", "NHWC")``) of the operands' rank; None for anything else (not read)."""
    if v is None or isinstance(v, NoneV):
        if not 3 <= rank <= 5:
            return None
        spatial = "DHW"[5 - rank :]
        return "NC" + spatial, "OI" + spatial, "NC" + spatial
    if not (isinstance(v, SeqV) and len(v.items) == 3 and all(isinstance(x, StrV) for x in v.items)):
        return None
    lhs, rhs, out = (x.value for x in v.items if isinstance(x, StrV))
    if not all(isinstance(x, str) and len(x) == rank and len(set(x)) == rank for x in (lhs, rhs, out)):
        return None
    if not ({"N", "C"} <= set(lhs) and {"O", "I"} <= set(rhs) and {"N", "C"} <= set(out)):
        return None
    return lhs, rhs, out


def _conv_features_fail(
    cx: OpContext, node: cst.Call, lhs: TensorV, rhs: TensorV, n: int, args: list[Value], kwargs: dict[str, Value]
) -> bool:
    """jax's check that the input's features (``C`` of the lhs layout) equal the kernel's input features (``I`` of
    the rhs layout): a kernel made (O, I, H, W) under ``("NHWC", "HWIO", "NHWC")`` reads its W as I. Only with one
    feature and batch group (the defaults) and known layouts."""
    if lhs.shape is None or rhs.shape is None:
        return False
    names = ("lhs_dilation", "rhs_dilation", "dimension_numbers", "feature_group_count", "batch_group_count")
    extra = dict(zip(names, args[4:]))
    extra.update(kwargs)
    for name in ("feature_group_count", "batch_group_count"):
        g = extra.get(name)
        if g is not None and not (isinstance(g, IntV) and g.size.as_int() == 1):
            return False
    specs = _conv_specs(extra.get("dimension_numbers"), n + 2)
    if specs is None:
        return False
    c, i = specs[0].index("C"), specs[1].index("I")
    if equal(lhs.shape[c], rhs.shape[i]) is not Truth.FALSE:
        return False
    cx.ctx.report(
        node,
        "SHP204",
        {
            "op": "lax.conv_general_dilated",
            "detail": D.LayerInput(
                "lax.conv_general_dilated", f"{specs[1]} kernel's I", rhs.shape[i], "channels", lhs.shape[c], lhs.shape
            ),
        },
        cx.origins([lhs, rhs]),
        spec=OpSpec("lax.conv", None, (lhs.shape, rhs.shape), (), (("specs", specs),)),
    )
    return True


@FUNCTIONS.register("jax.lax.conv_general_dilated", "jax.lax.conv_with_general_padding")
def _conv_general(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``lax.conv_general_dilated(lhs, rhs, window_strides, padding, ...)`` (``conv_with_general_padding`` alike):
    only its explicit padding is checked (one (low, high) pair per stride); the output shape is left to the
    stubs."""
    names = ("lhs", "rhs", "window_strides", "padding")
    vals = {n: args[i] if len(args) > i else kwargs.get(n) for i, n in enumerate(names)}
    lhs, rhs, strides = vals["lhs"], vals["rhs"], vals["window_strides"]
    if not isinstance(lhs, TensorV) or not isinstance(rhs, TensorV) or not isinstance(strides, SeqV):
        return None
    n = len(strides.items)
    if any(t.shape is not None and len(t.shape) != n + 2 for t in (lhs, rhs)):
        return None  # (a rank the strides do not fit fails on its own: not this rule's finding)
    if qual.endswith("conv_general_dilated") and _conv_features_fail(cx, node, lhs, rhs, n, args, kwargs):
        return lhs.with_shape(None)
    if qual.endswith("conv_general_dilated") and kwargs.get("dimension_numbers") not in (None, NoneV()):
        shapes: list[tuple[Size, ...] | None] = [None, None]  # the layout may move the features: shapes made up
        if lhs.shape is not None or rhs.shape is not None:
            return None
    else:
        shapes = [lhs.shape, rhs.shape]
    if _pad_pairs_fail(cx, node, qual.replace("jax.", "", 1), vals["padding"], n, [lhs, rhs], shapes):
        return lhs.with_shape(None)
    if qual.endswith("conv_general_dilated"):
        out = _conv_general_shape(cx, lhs, rhs, strides, vals["padding"], n, args, kwargs)
        if out is not None:
            return lhs.with_shape(out)
    return None


def _conv_general_shape(
    cx: OpContext,
    lhs: TensorV,
    rhs: TensorV,
    strides: SeqV,
    padding: Value | None,
    n: int,
    args: list[Value],
    kwargs: dict[str, Value],
) -> tuple[Size, ...] | None:
    """The output shape of ``lax.conv_general_dilated``, laid out as ``dimension_numbers`` says (NC.. / OI.. / NC..
    by default): the lhs's batch, the kernel's O, and per spatial axis, of input length ``h`` dilated to
    ``(h - 1) * lhs_dilation + 1`` and kernel ``k`` dilated to ``(k - 1) * rhs_dilation + 1``, ``ceil(h' / s)`` with
    "SAME" padding, else ``(h' + lo + hi - k') // s + 1``. None without known shapes, layouts, strides, dilations and
    padding, or with a batch_group_count other than 1; a length not known from known ints is a fresh size."""
    if lhs.shape is None or rhs.shape is None:
        return None
    names = ("lhs_dilation", "rhs_dilation", "dimension_numbers", "feature_group_count", "batch_group_count")
    extra: dict[str, Value] = dict(zip(names, args[4:]))
    extra.update(kwargs)
    g = extra.get("batch_group_count")
    if g is not None and not (isinstance(g, IntV) and g.size.as_int() == 1):
        return None
    specs = _conv_specs(extra.get("dimension_numbers"), n + 2)
    if specs is None:
        return None
    lhs_spec, rhs_spec, out_spec = specs

    def ints(v: Value | None) -> list[int | None] | None:
        if v is None or isinstance(v, NoneV):
            return [1] * n
        if isinstance(v, SeqV) and len(v.items) == n:
            return [x.size.as_int() if isinstance(x, IntV) else None for x in v.items]
        return None

    steps, ldil, rdil = ints(strides), ints(extra.get("lhs_dilation")), ints(extra.get("rhs_dilation"))
    if steps is None or ldil is None or rdil is None:
        return None
    same = isinstance(padding, StrV) and padding.value in ("SAME", "SAME_LOWER")
    pairs: list[tuple[int | None, int | None]]
    if isinstance(padding, StrV) and padding.value == "VALID":
        pairs = [(0, 0)] * n
    elif same:
        pairs = []
    elif isinstance(padding, SeqV) and len(padding.items) == n:
        pairs = []
        for p in padding.items:
            if not (isinstance(p, SeqV) and len(p.items) == 2):
                return None
            lo, hi = p.items
            pairs.append(
                (lo.size.as_int() if isinstance(lo, IntV) else None, hi.size.as_int() if isinstance(hi, IntV) else None)
            )
    else:
        return None
    spatial = [c for c in out_spec if c not in "NC"]
    sides: dict[str, Size] = {}
    for i, c in enumerate(spatial):
        size, k = lhs.shape[lhs_spec.index(c)], rhs.shape[rhs_spec.index(c)]
        s, ld, rd = steps[i], ldil[i], rdil[i]
        h, kv = size.as_int(), k.as_int()
        side: Size | None = None
        if same and s == 1 and ld == 1:
            side = size
        elif h is not None and s is not None and s > 0 and ld is not None and ld > 0:
            # the dilated lengths through flax's window arithmetic (``_window_side``: SAME or explicit pads)
            h_eff = Size.const((h - 1) * ld + 1 if h > 0 else 0)
            if same:
                side = _window_side(h_eff, None, s, True)
            elif kv is not None and rd is not None and rd > 0:
                low, high = pairs[i]
                if low is not None and high is not None:
                    side = _window_side(h_eff, (kv - 1) * rd + 1, s, False, low, high)
        sides[c] = side if side is not None else cx.fresh("d")
    out: list[Size] = []
    for c in out_spec:
        out.append(
            lhs.shape[lhs_spec.index("N")] if c == "N" else rhs.shape[rhs_spec.index("O")] if c == "C" else sides[c]
        )
    return tuple(out)


@framework_layer("flax.linen", "DenseGeneral")
def _linen_dense_general(
    cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``nn.DenseGeneral(features, axis=-1, batch_dims=())``: ``features`` an int or a tuple of ints, ``axis`` the
    input axes it contracts (its kernel is made from the input, so any sizes fit). Read without batch_dims only."""
    feats = args[0] if args else kwargs.get("features")
    axis = args[1] if len(args) > 1 else kwargs.get("axis", IntV(Size.const(-1)))
    batch = args[2] if len(args) > 2 else kwargs.get("batch_dims", SeqV((), "tuple"))
    if not (isinstance(batch, SeqV) and not batch.items):
        return UNKNOWN
    if isinstance(feats, IntV) and not feats.assumed:
        out: tuple[Size, ...] | None = (feats.size,)
    elif isinstance(feats, SeqV) and all(isinstance(i, IntV) and not i.assumed for i in feats.items):
        out = tuple(i.size for i in feats.items if isinstance(i, IntV))
    else:
        out = None
    d = _int(axis)
    axes = (d,) if d is not None else _int_tuple(axis)
    return LayerV("fw:DenseGeneral", (("features", out), ("axis", axes)), node)


@layer_kind("fw:DenseGeneral")
def _apply_dense_general(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """(..., contracted axes ...) -> the axes not contracted, in order, then ``features``."""
    feats, axes = layer.param("features"), layer.param("axis")
    if x.shape is None or feats is None or axes is None:
        return x.with_shape(None)
    at = [_norm_dim(a, len(x.shape)) for a in axes]
    if None in at or len(set(at)) != len(at):
        return x.with_shape(None)
    return x.with_shape(tuple(s for i, s in enumerate(x.shape) if i not in at) + tuple(feats))


_SCALAR_MATH = ("exp", "log", "sqrt", "tanh", "abs", "sin", "cos")


@FUNCTIONS.register(
    "jax.scipy.linalg.cho_solve",
    "jax.scipy.linalg.solve_triangular",
    "scipy.linalg.cho_solve",
    "scipy.linalg.solve_triangular",
)
def _triangular_solve(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``cho_solve((c, lower), b)`` / ``solve_triangular(a, b)`` of a square (n, n) factor and a b of n rows ((n,) or
    (n, k)): the solution has b's shape. Anything else (a batch, sizes not known to agree): an unknown shape, and no
    finding (what fails is reported by the op that uses the result)."""
    cho = qual.endswith("cho_solve")
    first = args[0] if args else kwargs.get("c_and_lower" if cho else "a")
    b = args[1] if len(args) > 1 else kwargs.get("b")
    a = first.items[0] if cho and isinstance(first, SeqV) and len(first.items) == 2 else None if cho else first
    framework = "jax" if qual.startswith("jax.") else "numpy"
    if not isinstance(a, TensorV) or not isinstance(b, TensorV) or a.shape is None or b.shape is None:
        return TensorV(None, None, framework)
    if (
        len(a.shape) != 2
        or len(b.shape) not in (1, 2)
        or equal(a.shape[0], a.shape[1]) is not Truth.TRUE
        or equal(a.shape[1], b.shape[0]) is not Truth.TRUE
    ):
        return TensorV(None, None, framework)
    return TensorV(b.shape, None, framework, b.axes, cx.origin(node, f"{qual.rsplit('.', 1)[-1]}(...)"))


@STUB_OVERRIDES.register("jax.nn.softmax", "jax.nn.log_softmax", "jax.nn.logsumexp")
def _jax_nn_axis(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jax.nn.softmax(x, axis=2)`` of a 2-d array (``log_softmax``, ``logsumexp``; an int or a tuple of ints):
    JAX raises ValueError for an axis outside the array's at every size (SHP204, unknown result). Otherwise the
    stub's signature answers (the same shape; logsumexp's reduction)."""
    from .ops_common import dim_out_of_range

    x = args[0] if args else kwargs.get("x", kwargs.get("a"))
    axis_v = args[1] if len(args) > 1 else kwargs.get("axis")
    if not isinstance(x, TensorV) or x.shape is None or axis_v is None:
        return None
    items = axis_v.items if isinstance(axis_v, SeqV) and axis_v.kind == "tuple" else (axis_v,)
    dims = [_int(a) for a in items]
    if not dims or any(d is None for d in dims):
        return None
    if dim_out_of_range(cx, node, qual.rsplit(".", 1)[-1], x, dims):  # type: ignore[arg-type]
        return TensorV(None, x.dtype, x.framework)
    return None


@STUB_OVERRIDES.register("jax.nn.one_hot")
def _jax_one_hot(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jax.nn.one_hot(x, num_classes, axis=-1)`` with num_classes known (> 0): a new axis of that many classes at
    ``axis`` (last by default), float32 unless a dtype is given; another axis, or one not known: an unknown shape."""
    x = args[0] if args else kwargs.get("x")
    n = _int(args[1] if len(args) > 1 else kwargs.get("num_classes"))
    if not isinstance(x, TensorV) or x.shape is None or n is None or n <= 0 or len(args) > 2:
        return None
    dtype = None if "dtype" in kwargs else "float32"
    axis_v = kwargs.get("axis")
    rank = len(x.shape) + 1
    axis = -1 if axis_v is None else _int(axis_v)
    at = _norm_dim(axis, rank) if axis is not None else None
    if at is None:
        return TensorV(None, dtype, x.framework)
    shape = x.shape[:at] + (Size.const(n),) + x.shape[at:]
    return TensorV(shape, dtype, x.framework, None, cx.origin(node, "one_hot(...)"))


@STUB_OVERRIDES.register(*(f"{m}.{n}" for m in ("jax.numpy", "numpy") for n in _SCALAR_MATH))
def _scalar_math(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jnp.sqrt(dim)`` / ``np.sqrt(2)`` of a Python number: a 0-d array (jax) / a numpy scalar, shape ()."""
    if len(args) == 1 and not kwargs and isinstance(args[0], (IntV, FloatV)):
        return TensorV((), None, fw, None, cx.origin(node, f"{qual.rsplit('.', 1)[-1]}(...)"))
    return None


_EQX_MHA_SIZES = ("num_heads", "query_size", "key_size", "value_size", "output_size", "qk_size", "vo_size")


def eqx_mha(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``eqx.nn.MultiheadAttention(num_heads, query_size, key_size=None, value_size=None, output_size=None, ...)``:
    key_size, value_size and output_size default to query_size (equinox's __init__)."""
    vals = {n: args[i] if len(args) > i else kwargs.get(n) for i, n in enumerate(_EQX_MHA_SIZES)}
    if len(args) > len(_EQX_MHA_SIZES):
        return UNKNOWN

    def size(n: str) -> Size | None:
        v = vals[n]
        if v is None or isinstance(v, NoneV):
            v = vals["query_size"]
        return v.size if isinstance(v, IntV) else None

    heads = vals["num_heads"]
    h = heads.size if isinstance(heads, IntV) and not heads.assumed and heads.size.as_int() else None
    query = vals["query_size"]
    per_head = None  # query_size // num_heads, the default qk_size and vo_size
    if h is not None and isinstance(query, IntV) and not query.assumed:
        q, n = query.size.as_int(), h.as_int()
        per_head = Size.const(q // n) if q is not None and n else None

    def head_size(n: str) -> Size | None:
        v = vals[n]
        if v is None or isinstance(v, NoneV):
            return per_head
        return v.size if isinstance(v, IntV) and not v.assumed else None

    return LayerV(
        "EqxMHA",
        (
            ("q", size("query_size")),
            ("k", size("key_size")),
            ("v", size("value_size")),
            ("o", size("output_size")),
            ("heads", h),
            ("qk", head_size("qk_size")),
            ("vo", head_size("vo_size")),
        ),
        node,
    )


def apply_eqx_mha(
    cx: OpContext,
    interp: "Interpreter",
    node: cst.Call,
    report_node: cst.CSTNode,
    layer: LayerV,
    args: list[Value],
    kwargs: dict[str, Value],
) -> Value:
    """``attn(query, key_, value, mask=None)``: one example each, (q_seq, query_size), (kv_seq, key_size) and
    (kv_seq, value_size); each goes through its Linear projection, so a last axis that differs from its size fails.
    The result is (q_seq, output_size). ``process_heads=f`` (a function of the analysed code, keyword only): ``f``
    runs on the projected heads, (q_seq, num_heads, qk_size), (kv_seq, num_heads, qk_size) and (kv_seq, num_heads,
    vo_size), when those sizes are known."""
    from ...diagnostics import details as D
    from .layers import _in_projection

    names = (("query", "q", "query_size"), ("key_", "k", "key_size"), ("value", "v", "value_size"))
    ins = [args[i] if len(args) > i else kwargs.get(n, UNKNOWN) for i, (n, _, _) in enumerate(names)]
    if not all(isinstance(t, TensorV) and t.shape is not None and len(t.shape) == 2 for t in ins):
        return UNKNOWN
    for t, (_, p, param) in zip(ins, names):
        size = layer.param(p)
        assert isinstance(t, TensorV) and t.shape is not None
        if size is not None and equal(t.shape[-1], size) is Truth.FALSE:
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": "eqx.nn.MultiheadAttention",
                    "detail": D.LayerInput("MultiheadAttention", param, size, "last-axis", t.shape[-1], t.shape),
                },
                cx.origins([t]),
                spec=_in_projection(t.shape, size),
            )
            return UNKNOWN
    q, o = ins[0], layer.param("o")
    assert isinstance(q, TensorV) and q.shape is not None
    process = kwargs.get("process_heads")
    heads, qk, vo = layer.param("heads"), layer.param("qk"), layer.param("vo")
    if process is not None and len(args) <= 3 and all(x is not None for x in (heads, qk, vo)):
        projected: list[Value] = []
        for t, size in zip(ins, (qk, qk, vo)):
            assert isinstance(t, TensorV) and t.shape is not None
            origin = cx.origin(node, "the attention's heads")
            projected.append(TensorV((t.shape[0], heads, size), t.dtype, t.framework, None, origin))
        cx.call_value(interp, node, process, projected)
    return q.with_shape((q.shape[0], o)) if o is not None else UNKNOWN


def apply_eqx_rope(
    cx: OpContext, report_node: cst.CSTNode, layer: LayerV, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``eqx.nn.RotaryPositionalEmbedding(embedding_size)(x)``: one example of shape (seq_length, embedding_size)
    (equinox raises "x.shape[-1] must match self.embedding_size" otherwise); the result has its shape."""
    from ...diagnostics import details as D
    from .layers import _in_projection

    x = args[0] if len(args) == 1 else UNKNOWN
    if not isinstance(x, TensorV) or x.shape is None or len(x.shape) != 2 or set(kwargs) - {"key"}:
        return UNKNOWN
    d = layer.param("d")
    if equal(x.shape[-1], d) is Truth.FALSE:
        cx.ctx.report(
            report_node,
            "SHP204",
            {
                "op": "eqx.nn.RotaryPositionalEmbedding",
                "detail": D.LayerInput(
                    "RotaryPositionalEmbedding", "embedding_size", d, "last-axis", x.shape[-1], x.shape
                ),
            },
            cx.origins([x]),
            spec=_in_projection(x.shape, d),
        )
        return UNKNOWN
    return x


_WINDOWS = ("hanning", "hamming", "blackman", "bartlett", "kaiser")


@FUNCTIONS.register(*(f"{m}.{w}" for m in ("numpy", "jax.numpy") for w in _WINDOWS))
def _np_window(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``np.hanning(M)`` & co. (``np.kaiser(M, beta)``): a float vector of M points (empty for M < 1)."""
    m = args[0] if args else kwargs.get("M")
    if not isinstance(m, IntV) or m.assumed:
        return None
    n = m.size.as_int()
    size = Size.const(max(n, 0)) if n is not None else m.size
    dtype = "float64" if qual.startswith("numpy.") else "float32"
    return TensorV((size,), dtype, fw, None, cx.origin(node, f"{qual.rsplit('.', 1)[-1]}(...)"))


def _pad_widths(v: Value, rank: int) -> list[tuple[Size, Size]] | None:
    """numpy's ``pad_width`` broadcast to (rank, 2): an int, ``(n,)``, ``(before, after)``, ``((before, after),)``,
    one pair per axis or ``((n1,), (n2,), ...)``; None when it is not known (or does not broadcast)."""
    if isinstance(v, IntV) and not v.assumed:
        return [(v.size, v.size)] * rank
    if not isinstance(v, SeqV) or v.kind not in ("tuple", "list"):
        return None
    if all(isinstance(x, IntV) and not x.assumed for x in v.items):
        sizes = [x.size for x in v.items if isinstance(x, IntV)]
        if len(sizes) == 1:
            return [(sizes[0], sizes[0])] * rank
        if len(sizes) == 2:
            return [(sizes[0], sizes[1])] * rank
        return None
    rows: list[tuple[Size, Size]] = []
    for row in v.items:
        if not isinstance(row, SeqV) or not all(isinstance(x, IntV) and not x.assumed for x in row.items):
            return None
        sizes = [x.size for x in row.items if isinstance(x, IntV)]
        if len(sizes) == 1:
            rows.append((sizes[0], sizes[0]))
        elif len(sizes) == 2:
            rows.append((sizes[0], sizes[1]))
        else:
            return None
    if len(rows) == 1:
        return rows * rank
    return rows if len(rows) == rank else None


@FUNCTIONS.register("numpy.pad", "jax.numpy.pad")
def _np_pad(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``np.pad(array, pad_width, mode=..., ...)``: each axis grows by its (before, after) widths. Only literal or
    known int widths are read; anything else gives an unknown shape."""
    t = args[0] if args else kwargs.get("array")
    if not isinstance(t, TensorV):
        return None
    width = args[1] if len(args) > 1 else kwargs.get("pad_width", UNKNOWN)
    rows = _pad_widths(width, len(t.shape)) if t.shape is not None else None
    if t.shape is None or rows is None or any(s.as_int() is not None and s.as_int() < 0 for r in rows for s in r):  # type: ignore[operator]
        return t.with_shape(None)
    return t.with_shape(tuple(s + b + a for s, (b, a) in zip(t.shape, rows)), origin=cx.origin(node, "pad(...)"))


@FUNCTIONS.register("numpy.lib.stride_tricks.sliding_window_view")
def _sliding_window_view(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``sliding_window_view(x, window_shape, axis=None)``: each windowed axis of size n becomes n - w + 1 (axes may
    repeat: each window shrinks what is left), and the window's sizes are appended. Without ``axis`` the window has
    one size per axis of ``x``. Known only when every window size is known and no larger than its axis (numpy
    raises otherwise, which is left to the run)."""
    x = args[0] if args else kwargs.get("x")
    if not isinstance(x, TensorV):
        return None
    if x.shape is None or set(kwargs) - {"x", "window_shape", "axis", "subok", "writeable"}:
        return x.with_shape(None)
    win = args[1] if len(args) > 1 else kwargs.get("window_shape", UNKNOWN)
    axis = args[2] if len(args) > 2 else kwargs.get("axis", NoneV())
    items = list(win.items) if isinstance(win, SeqV) and win.kind in ("tuple", "list", "shape") else [win]
    if not all(isinstance(w, IntV) and not w.assumed for w in items):
        return x.with_shape(None)
    sizes = [w.size for w in items if isinstance(w, IntV)]
    rank = len(x.shape)
    if isinstance(axis, NoneV):
        axes: list[int] | None = list(range(rank)) if len(sizes) == rank else None
    else:
        given = [_int(a) for a in (axis.items if isinstance(axis, SeqV) else (axis,))]
        axes = [a % rank for a in given if a is not None and -rank <= a < rank]
        if len(axes) != len(given):
            axes = None
    if axes is None or len(axes) != len(sizes) or any((w.as_int() or 1) < 1 for w in sizes):
        return x.with_shape(None)
    out = list(x.shape)
    for a, w in zip(axes, sizes):
        if greater_equal(out[a], w) is not Truth.TRUE:
            return x.with_shape(None)
        out[a] = out[a] - w + 1
    return x.with_shape(tuple(out) + tuple(sizes), origin=cx.origin(node, "sliding_window_view(...)"))


_FFT_NAMES = ("fft", "ifft", "rfft", "irfft")


def _half(s: Size) -> Size | None:
    """``s // 2`` as a size (one symbol per expression when ``s`` is symbolic and odd or unknown parity)."""
    from ..interpret.interpreter import _int_arith

    v = _int_arith(IntV(s), cst.FloorDivide(), IntV(Size.const(2)))
    return v.size if isinstance(v, IntV) else None


@FUNCTIONS.register(*(f"{m}.{n}" for m in ("numpy.fft", "jax.numpy.fft", "torch.fft") for n in _FFT_NAMES))
def _fft(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """One-dimensional FFTs over one axis (``axis``; torch: ``dim``; default the last), the input cropped or
    zero-padded to ``n`` points when given: fft/ifft give n (default: the axis's size) complex points, rfft
    n // 2 + 1, irfft n real points (default 2 * (m - 1) for an axis of m >= 2). Unknown when anything read is."""
    name, torch, x, axis_kw = _fft_input(qual, args, kwargs, "axis")
    if x is None:
        return None
    if x.shape is None or not x.shape or set(kwargs) - {"input" if torch else "a", "n", axis_kw, "norm", "out"}:
        return x.with_shape(None).with_dtype(None)
    n_v = args[1] if len(args) > 1 else kwargs.get("n", NoneV())
    axis_v = args[2] if len(args) > 2 else kwargs.get(axis_kw, IntV(Size.const(-1)))
    d = _int(axis_v)
    at = _norm_dim(d, len(x.shape)) if d is not None else None
    if at is None:
        return x.with_shape(None).with_dtype(None)
    if n_v is UNKNOWN or (isinstance(n_v, IntV) and n_v.assumed):
        # rfft(x, n=next_fast_len(N + M - 1), dim=-2): a point count not known (an int, or the call raises) gives
        # that axis a size of its own; the other axes are kept
        out = x.shape[:at] + (cx.fresh("n"),) + x.shape[at + 1 :]
        return x.with_shape(out, origin=cx.origin(node, f"{name}(...)")).with_dtype(None)
    if not (isinstance(n_v, NoneV) or isinstance(n_v, IntV)):
        return x.with_shape(None).with_dtype(None)
    m = x.shape[at]
    n = n_v.size if isinstance(n_v, IntV) else None
    if n is not None and (n.as_int() or 1) < 1:
        return x.with_shape(None).with_dtype(None)
    if name == "rfft":
        half = _half(n if n is not None else m)
        if half is None:
            return x.with_shape(None).with_dtype(None)
        size = half + 1
    elif name == "irfft":
        if n is None and greater_equal(m, 2) is not Truth.TRUE:
            return x.with_shape(None).with_dtype(None)
        size = n if n is not None else (m - 1) * 2
    else:
        size = n if n is not None else m
    out = x.shape[:at] + (size,) + x.shape[at + 1 :]
    return x.with_shape(out, origin=cx.origin(node, f"{name}(...)")).with_dtype(None)


def _fft_input(
    qual: str, args: list[Value], kwargs: dict[str, Value], axis_name: str
) -> tuple[str, bool, TensorV | None, str]:
    """(the function's last name, torch's or not, its input array or None, the keyword naming its axes: torch's
    ``dim``, else ``axis_name``) of an FFT call."""
    torch = qual.startswith("torch.")
    x = args[0] if args else kwargs.get("input" if torch else "a")
    return qual.rsplit(".", 1)[-1], torch, x if isinstance(x, TensorV) else None, "dim" if torch else axis_name


_FFTN_NAMES = ("fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn")


@FUNCTIONS.register(*(f"{m}.{n}" for m in ("numpy.fft", "jax.numpy.fft", "torch.fft") for n in _FFTN_NAMES))
def _fftn(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """FFTs over several axes (``fft2`` / ``fftn`` and their inverse and real forms): ``s`` gives each transformed
    axis its point count (the input cropped or zero-padded), ``dim`` (torch) / ``axes`` the axes: the last two for
    the ``2`` forms, every axis for the ``n`` forms (the last ``len(s)`` when only ``s`` is given). The complex ones
    keep each axis's count; ``rfft2`` / ``rfftn`` give the last transformed axis n // 2 + 1 points, ``irfft2`` /
    ``irfftn`` give it s[-1] (default 2 * (m - 1)). Unknown when anything read is."""
    name, torch, x, axis_kw = _fft_input(qual, args, kwargs, "axes")
    if x is None:
        return None
    unknown = x.with_shape(None).with_dtype(None)
    if x.shape is None or not x.shape or set(kwargs) - {"input" if torch else "a", "s", axis_kw, "norm", "out"}:
        return unknown
    rank = len(x.shape)
    s_v = args[1] if len(args) > 1 else kwargs.get("s", NoneV())
    axes_v = args[2] if len(args) > 2 else kwargs.get(axis_kw, NoneV())
    counts: list[Size] | None = None
    if isinstance(s_v, SeqV):
        counts = []
        for c in s_v.items:
            if not isinstance(c, IntV) or c.assumed or (c.size.as_int() or 1) < 1:
                return unknown
            counts.append(c.size)
    elif not isinstance(s_v, NoneV):
        return unknown
    if isinstance(axes_v, NoneV):
        n_axes = 2 if name.endswith("2") else (len(counts) if counts is not None else rank)
        axes: list[int | None] = list(range(rank - n_axes, rank))
    elif isinstance(axes_v, SeqV):
        axes = [_norm_dim(d, rank) if (d := _int(a)) is not None else None for a in axes_v.items]
    else:
        return unknown
    if not axes or any(a is None or a < 0 for a in axes) or len(set(axes)) != len(axes):
        return unknown
    if counts is not None and len(counts) != len(axes):
        return unknown
    out = list(x.shape)
    for i, a in enumerate(axes):
        assert a is not None
        m, n = x.shape[a], counts[i] if counts is not None else None
        last = i == len(axes) - 1
        if last and name.startswith("rfft"):
            half = _half(n if n is not None else m)
            if half is None:
                return unknown
            out[a] = half + 1
        elif last and name.startswith("irfft"):
            if n is None and greater_equal(m, 2) is not Truth.TRUE:
                return unknown
            out[a] = n if n is not None else (m - 1) * 2
        else:
            out[a] = n if n is not None else m
    return x.with_shape(tuple(out), origin=cx.origin(node, f"{name}(...)")).with_dtype(None)


@FUNCTIONS.register(*(f"{m}.{n}" for m in ("numpy.fft", "jax.numpy.fft") for n in ("fftfreq", "rfftfreq")))
def _fftfreq(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``fftfreq(n, d=1.0)``: n sample frequencies; ``rfftfreq(n)``: n // 2 + 1."""
    n_v = args[0] if args else kwargs.get("n")
    if not isinstance(n_v, IntV) or n_v.assumed or (n_v.size.as_int() or 1) < 1:
        return None
    half = _half(n_v.size)
    if half is None:
        return None
    size = half + 1 if qual.endswith("rfftfreq") else n_v.size
    dtype = "float64" if qual.startswith("numpy.") else "float32"
    return TensorV((size,), dtype, fw, None, cx.origin(node, f"{qual.rsplit('.', 1)[-1]}(...)"))


@FUNCTIONS.register("jax.lax.dynamic_slice", "jax.lax.dynamic_slice_in_dim")
def _dynamic_slice(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jax.lax.dynamic_slice(operand, start_indices, slice_sizes)``: an array of exactly ``slice_sizes`` (one per
    axis, each no larger than its axis: jax raises otherwise, left unknown here). ``dynamic_slice_in_dim(operand,
    start, slice_size, axis=0)``: that one axis becomes ``slice_size``."""
    x = args[0] if args else kwargs.get("operand")
    if not isinstance(x, TensorV):
        return None
    if x.shape is None:
        return x.with_shape(None)
    if qual.endswith("_in_dim"):
        size_v = args[2] if len(args) > 2 else kwargs.get("slice_size")
        axis_v = args[3] if len(args) > 3 else kwargs.get("axis", IntV(Size.const(0)))
        d = _int(axis_v)
        at = _norm_dim(d, len(x.shape)) if d is not None else None
        if at is None or not isinstance(size_v, IntV) or size_v.assumed:
            return x.with_shape(None)
        sizes = list(x.shape)
        sizes[at] = size_v.size
    else:
        sizes_v = args[2] if len(args) > 2 else kwargs.get("slice_sizes")
        items = sizes_v.items if isinstance(sizes_v, SeqV) and sizes_v.kind in ("tuple", "list", "shape") else None
        if items is None or len(items) != len(x.shape) or not all(isinstance(i, IntV) and not i.assumed for i in items):
            return x.with_shape(None)
        sizes = [i.size for i in items if isinstance(i, IntV)]
    if any(greater_equal(have, want) is not Truth.TRUE for have, want in zip(x.shape, sizes)):
        return x.with_shape(None)
    return x.with_shape(tuple(sizes), origin=cx.origin(node, qual.rsplit(".", 1)[-1]))


@FUNCTIONS.register("jax.lax.dynamic_update_slice")
def _dynamic_update_slice(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``jax.lax.dynamic_update_slice(operand, update, start_indices)``: the operand's shape, with ``update`` written
    at those indices (clamped so that it fits). jax raises when the update's rank is not the operand's, or when it is
    larger than the operand on an axis (a key/value cache allocated with fewer features per head than the keys it
    stores): SHP204 where that holds for every size known."""
    names = ("operand", "update", "start_indices")
    if len(args) > len(names) or set(kwargs) - set(names):
        return None
    bound = dict(zip(names, args))
    bound.update(kwargs)
    x, u = bound.get("operand"), bound.get("update")
    if not isinstance(x, TensorV):
        return None
    if not isinstance(u, TensorV) or x.shape is None or u.shape is None:
        return x
    detail = None
    if len(u.shape) != len(x.shape):
        detail = D.UpdateSlice(u.shape, x.shape, -1, len(u.shape), len(x.shape))
    else:
        for i, (have, limit) in enumerate(zip(u.shape, x.shape)):
            if greater_equal(limit, have) is Truth.FALSE:
                detail = D.UpdateSlice(u.shape, x.shape, i, have, limit)
                break
    if detail is None:
        return x
    cx.ctx.report(
        node,
        "SHP204",
        {"op": "lax.dynamic_update_slice", "detail": detail},
        cx.origins([u, x]),
        spec=OpSpec("lax.dynamic_update_slice", None, (u.shape, x.shape), (), ()),
    )
    return x.with_shape(None)


@FUNCTIONS.register(*(f"{m}.{n}" for m in ("numpy", "jax.numpy") for n in ("convolve", "correlate")))
def _np_convolve(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``np.convolve(a, v, mode='full')`` / ``np.correlate(a, v, mode='valid')`` of two vectors of n and m points:
    'full' gives n + m - 1, 'same' max(n, m), 'valid' max(n, m) - min(n, m) + 1. Known only for two 1-d inputs
    whose sizes are known to be at least 1 (numpy raises on empty ones) and, where the result reads max / min, whose
    order is decided; anything else gives an unknown shape."""
    a = args[0] if args else kwargs.get("a")
    v = args[1] if len(args) > 1 else kwargs.get("v")
    if not isinstance(a, TensorV):
        return None
    unknown = a.with_shape(None).with_dtype(None)
    default = "valid" if qual.endswith("correlate") else "full"
    mode_v = args[2] if len(args) > 2 else kwargs.get("mode", StrV(default))
    if (
        not isinstance(v, TensorV)
        or a.shape is None
        or v.shape is None
        or len(a.shape) != 1
        or len(v.shape) != 1
        or not isinstance(mode_v, StrV)
        or set(kwargs) - {"a", "v", "mode", "precision", "preferred_element_type"}
    ):
        return unknown
    n, m = a.shape[0], v.shape[0]
    if greater_equal(n, 1) is not Truth.TRUE or greater_equal(m, 1) is not Truth.TRUE:
        return unknown
    mode = mode_v.value
    if mode == "full":
        size = n + m - 1
    elif mode in ("same", "valid"):
        if greater_equal(n, m) is Truth.TRUE:
            big, small = n, m
        elif greater_equal(m, n) is Truth.TRUE:
            big, small = m, n
        else:
            return unknown
        size = big if mode == "same" else big - small + 1
    else:
        return unknown
    name = qual.rsplit(".", 1)[-1]
    return a.with_shape((size,), origin=cx.origin(node, f"{name}(...)")).with_dtype(None)
