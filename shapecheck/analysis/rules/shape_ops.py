"""Rules for operations that move axes around: indexing, reshape/view, transpose/permute, flatten, squeeze, expand."""

from __future__ import annotations

from dataclasses import replace

from typing import TYPE_CHECKING, Any

import libcst as cst

from ...diagnostics import details as D
from ...sizes import Size, Truth, at_least, divisible, equal, greater_equal, product
from ..interpret.context import OpSpec
from ..interpret.values import (
    contiguous_strides,
    view_strides,
    UNKNOWN,
    FloatV,
    IntV,
    NoneV,
    SeqV,
    TensorV,
    Value,
    same_rank_unknown,
)

if TYPE_CHECKING:
    from ..interpret.interpreter import Interpreter

from .ops_common import (
    permuted_layout,
    merged_name,
    TIME_MAJOR,
    time_major_use,
    _ints,
    _is_none_or_ellipsis,
    _norm_dim,
    _shape_args,
    dim_out_of_range,
    broadcast_shapes,
)
from .registry import TENSOR_METHODS, OpContext, origin_notes


def _full(el: cst.SubscriptElement) -> bool:
    sl = el.slice
    return type(sl) is cst.Slice and sl.lower is None and sl.upper is None and sl.step is None


def _time_step(node: cst.Subscript) -> int | None:
    """``x[:, -1]``, ``x[:, 0]`` (or with a trailing ``:``): the step taken from axis 1."""
    items = node.slice
    if len(items) not in (2, 3) or not _full(items[0]) or (len(items) == 3 and not _full(items[2])):
        return None
    sl = items[1].slice
    if type(sl) is not cst.Index:
        return None
    v = sl.value
    if type(v) is cst.Integer and v.value == "0":
        return 0
    if type(v) is cst.UnaryOperation and type(v.operator) is cst.Minus and type(v.expression) is cst.Integer:
        return -1 if v.expression.value == "1" else None
    return None


def index_tensor(
    interp: "Interpreter", node: cst.Subscript, t: TensorV, at: cst.CSTNode | None = None, cx: OpContext | None = None
) -> Value:
    """``t[...]`` at ``node``; a finding goes to ``at`` (default ``node``: a node of the analysed file), whose line
    ``cx`` (the module's) names for a size made up here."""
    at = node if at is None else at
    if TIME_MAJOR and t.shape is not None and len(t.shape) == 3:
        step = _time_step(node)
        if step is not None:
            time_major_use(interp.ctx, t, f"[:, {step}]")  # SHP403: the last (first) batch item taken for a step
    only = node.slice[0].slice if len(node.slice) == 1 else None
    held = (
        interp.eval(only.value)
        if type(only) is cst.Index and type(only.value) in (cst.Name, cst.Attribute, cst.BinaryOperation)
        else None
    )  # (``x[(...,) + (None,) * k]``: k new axes, the ``append_dims`` of k-diffusion)
    if type(only) is cst.Index and (type(only.value) is cst.Tuple or (isinstance(held, SeqV) and held.kind == "tuple")):
        # x[(..., *((None,) * k))]: a tuple built in the index is the index items themselves; so is one a name holds
        # (``l = (*pre_slices, slice(None, index)); t[l]``)
        items = _index_items(held if held is not None else interp.eval(only.value))
        if items is None:
            return t.with_shape(None)
        if not items:
            return t  # x[()]: an empty tuple of indices selects the whole array (a view of the same shape)
        node = node.with_changes(slice=[cst.SubscriptElement(e) for e in items])
    if any(type(e.slice) is cst.Index and type(e.slice.value) in (cst.Name, cst.Attribute) for e in node.slice):
        # x[:, np.newaxis]: a name (or attribute) holding None is a new axis, as None written out is
        nones = [_holds_none(interp, e.slice) for e in node.slice]
        if any(nones):
            new_axis = cst.SubscriptElement(cst.Index(cst.Name("None")))
            node = node.with_changes(slice=[new_axis if none else e for e, none in zip(node.slice, nones)])
    if t.shape is not None and t.framework in ("torch", "numpy", "jax") and len(node.slice) > len(t.shape):
        taken = sum(1 for e in node.slice if _takes_an_axis(interp, e.slice))
        if taken > len(t.shape):
            # x[:, :, 0] of a 2-d tensor: each integer and slice takes an axis (None and ... none, and an index of
            # unknown value may be None): torch, numpy and JAX raise IndexError
            interp.ctx.report(
                at,
                "SHP204",
                {"op": "indexing", "detail": D.IndexCount(taken, len(t.shape), t.shape)},
                origin_notes([t]),
                spec=OpSpec(
                    "index.count", None, (t.shape,), (), (("count", taken), ("framework", t.framework or "torch"))
                ),
            )
            return t.with_shape(None)
    if t.shape is None and t.alts:
        # a tensor whose shape differs between the branches that made it (``vals[i]`` of a list built by a
        # conditional expression): indexed once per path, the results joined
        from ..interpret.paths import each_path

        final = node

        def one_path(v: list[Value]) -> Value:
            assert isinstance(v[0], TensorV)
            return index_tensor(interp, final, v[0], at, cx)

        return each_path(interp.ctx, [t], one_path) or t.with_shape(None)
    if t.shape is None:
        for el in node.slice:
            if type(el.slice) is cst.Index:
                interp.eval(el.slice.value)
        if t.not_ranks and not t.alts and all(type(el.slice) is cst.Slice for el in node.slice):
            # x[:, :k] on a tensor whose rank a check fixed (``b, n, d = x.shape``): slices keep every axis
            return TensorV(None, t.dtype, t.framework, None, t.origin, None, None, t.not_ranks)
        return t.with_shape(None)
    # each result axis in order: ("keep", size, axis name) from a slice, None or the ellipsis, or ("adv", index
    # shape, None) for an integer array index; the advanced indices' shapes broadcast together and go in place of the
    # first when they are adjacent, else first (numpy's rule, which torch follows for tensor indices)
    parts: list[tuple[str, Any, str | None]] = []
    pos = 0
    elems = list(node.slice)
    n_consumed = sum(1 for e in elems if not (type(e.slice) is cst.Index and _is_none_or_ellipsis(e.slice.value)))
    ellipsis_seen = False
    scalars: list[int] = []  # where an integer index stood in ``parts``
    index_tensors: list[TensorV] = []
    for el in elems:
        sl = el.slice
        if type(sl) is cst.Index and type(sl.value) in (cst.Name, cst.Attribute):
            sl = _slice_object(interp, sl)
        if type(sl) is cst.Slice:
            if pos >= len(t.shape):
                return t.with_shape(None)
            if sl.lower is None and sl.upper is None and (sl.step is None):
                parts.append(("keep", t.shape[pos], t.axes[pos] if t.axes else None))
            else:
                size = _slice_size(interp, sl, t.shape[pos])
                if size is None:
                    # bounds of unknown value (``offsets[:length]``): a slice keeps its axis whatever they are (a bound
                    # Python rejects raises, and the code does not go on); its size is unknown
                    why = "a slice whose bounds are unknown"
                    size = interp.ctx.fresh("n", cx.origin(at, why) if cx is not None else f"(the size of {why})")
                parts.append(("keep", size, None))
            pos += 1
            continue
        assert type(sl) is cst.Index
        value_node = sl.value
        if type(value_node) is cst.Name and value_node.value == "None":
            parts.append(("keep", Size.const(1), None))
            continue
        if type(value_node) is cst.Ellipsis:
            if ellipsis_seen:
                return t.with_shape(None)
            ellipsis_seen = True
            skip = len(t.shape) - n_consumed  # the axes the ellipsis stands for
            if skip < 0:
                return t.with_shape(None)
            for _ in range(skip):
                parts.append(("keep", t.shape[pos], t.axes[pos] if t.axes else None))
                pos += 1
            continue
        if type(value_node) is cst.List and value_node.elements:
            # x[:, [-1], :]: a list of int literals is an integer array index of its length (a 1-d advanced index)
            if pos >= len(t.shape) or not all(_int_literal(e) for e in value_node.elements):
                return t.with_shape(None)
            listed = Size.const(len(value_node.elements))
            parts.append(("adv", (listed,), None))
            index_tensors.append(TensorV((listed,), "int64", t.framework))
            pos += 1
            continue
        v = interp.eval(value_node)
        if (
            isinstance(v, SeqV)
            and (v.kind == "list" or (v.kind == "range" and t.framework in ("torch", "numpy")))
            and v.items
            and all(type(x) is IntV for x in v.items)
            and t.framework in ("torch", "numpy", "jax")
        ):
            # (``history[..., range(self.input_dim)]``: torch and numpy take a range as the list of its ints)
            # x[..., index] with ``index`` a list of ints (``[0, 2, 5]``, a list of chosen modes): an integer array
            # index of its length
            if pos >= len(t.shape):
                return t.with_shape(None)
            listed = Size.const(len(v.items))
            parts.append(("adv", (listed,), None))
            index_tensors.append(TensorV((listed,), "int64", t.framework))
            pos += 1
            continue
        if isinstance(v, IntV):
            if pos >= len(t.shape):
                return t.with_shape(None)
            if _out_of_bounds(v, t.shape[pos]) and t.framework in ("torch", "numpy"):
                # torch and numpy raise IndexError (jax clamps an index outside the axis)
                interp.ctx.report(
                    at,
                    "SHP204",
                    {"op": "indexing", "detail": D.IndexBounds(v.size, pos, t.shape[pos], t.shape)},
                    origin_notes([t]),
                    spec=OpSpec("index.int", None, (t.shape,), (), (("axis", pos), ("index", v.size))),
                )
                return t.with_shape(None)
            pos += 1
            scalars.append(len(parts))
            continue
        if isinstance(v, TensorV) and v.shape is not None and _integer_index(v, t):
            # embed[tokens]: an integer array index, its shape in place of the axis it indexes
            if pos >= len(t.shape):
                return t.with_shape(None)
            parts.append(("adv", v.shape, None))
            index_tensors.append(v)
            pos += 1
            continue
        return t.with_shape(None)  # other tensor / list indexing: advanced indexing not modelled
    if pos > len(t.shape):
        return t.with_shape(None)
    adv = [i for i, p in enumerate(parts) if p[0] == "adv"]
    if adv and scalars and t.framework != "torch":
        # numpy and jax: an int next to an array index is an advanced index too (a 0-d one); torch selects the
        # int's axis first and indexes the rest with the tensors
        for k in reversed(scalars):
            parts.insert(k, ("adv", (), None))
        adv = [i for i, p in enumerate(parts) if p[0] == "adv"]
    if len(adv) > 1:
        joined: tuple[Size, ...] | None = parts[adv[0]][1]
        for i in adv[1:]:
            before = joined
            joined, fails = broadcast_shapes(joined, parts[i][1])  # type: ignore[arg-type]
            if fails is not None and before is not None:
                # x[rows, cols] with index tensors of shapes that do not broadcast together (numpy / torch:
                # "shape mismatch: indexing arrays could not be broadcast together", jax: "Incompatible shapes")
                k, a, b = fails
                axis = max(len(before), len(parts[i][1])) - k
                interp.ctx.report(
                    at,
                    "SHP204",
                    {"op": "indexing", "detail": D.Broadcast(before, parts[i][1], axis, a, b)},
                    origin_notes(index_tensors),
                    spec=OpSpec("elementwise", None, (before, parts[i][1]), (), (("name", "indexing"),)),
                )
            if joined is None:
                return t.with_shape(None)  # index tensors that do not broadcast (or unknown): not modelled
        if adv[-1] - adv[0] == len(adv) - 1:
            parts[adv[0] : adv[-1] + 1] = [("adv", joined, None)]
        else:
            parts = [("adv", joined, None)] + [p for p in parts if p[0] == "keep"]
    out: list[Size] = []
    axes: list[str | None] = []
    for kind, what, name in parts:
        if kind == "keep":
            out.append(what)
            axes.append(name)
        else:
            out.extend(what)
            axes.extend([None] * len(what))
    out.extend(t.shape[pos:])
    axes.extend(t.axes[pos:] if t.axes else [None] * (len(t.shape) - pos))
    res = t.with_shape(tuple(out), tuple(axes) if t.axes else None)
    # (the elements indexed out are the tensor's own: the range they lie in holds for them, ``randperm(n)[:k]``)
    return replace(res, bounds=t.bounds) if t.bounds is not None else res


def _holds_none(interp: "Interpreter", sl: cst.BaseSlice) -> bool:
    """An index that is a name or attribute (not ``None`` itself) holding None (``np.newaxis``)."""
    from ..interpret.values import NoneV

    if type(sl) is not cst.Index or type(sl.value) not in (cst.Name, cst.Attribute):
        return False
    if type(sl.value) is cst.Name and sl.value.value == "None":
        return False
    return isinstance(interp.eval(sl.value), NoneV)


def _out_of_bounds(v: IntV, size: Size) -> bool:
    """An integer index surely outside an axis of ``size``: at least ``size``, or below ``-size``."""
    if v.assumed:
        return False
    i = v.size.as_int()
    if i is not None and i < 0:
        return greater_equal(Size.const(-i) - 1, size) is Truth.TRUE
    return greater_equal(v.size, size) is Truth.TRUE


def _slice_object(interp: "Interpreter", sl: cst.Index) -> cst.Index | cst.Slice:
    """An index that is a name (or attribute) holding a ``slice(...)`` object of known ints, as the slice written
    out (``x[:, self.freq_slice]`` is ``x[:, 0:512]``); any other index as it is (evaluated again by the caller:
    reading a name or an attribute does nothing else)."""
    written = _slice_node(interp.eval(sl.value))
    return sl if written is None else written


def _slice_node(v: Value) -> cst.Slice | None:
    """A ``slice(...)`` object of known ints (``SeqV`` of kind "slice"), as the slice written out; else None."""
    if not (isinstance(v, SeqV) and v.kind == "slice" and len(v.items) == 3):
        return None
    parts: list[cst.BaseExpression | None] = []
    for b in v.items:
        i = b.size.as_int() if isinstance(b, IntV) else None
        if i is None:
            parts.append(None)
        else:
            parts.append(cst.Integer(str(i)) if i >= 0 else cst.UnaryOperation(cst.Minus(), cst.Integer(str(-i))))
    return cst.Slice(lower=parts[0], upper=parts[1], step=parts[2])


def _takes_an_axis(interp: "Interpreter", sl: cst.BaseSlice) -> bool:
    """Does this index item surely take one axis: a slice, an int literal, or a name holding an int (None and the
    ellipsis take none; a tensor or a value not known may take any number)?"""
    if type(sl) is cst.Slice:
        return True
    if type(sl) is not cst.Index:
        return False
    v = sl.value
    if _int_literal_expr(v):
        return True
    return type(v) is cst.Name and v.value != "None" and isinstance(interp.lookup(v.value, v), IntV)


def _int_literal(e: cst.BaseElement) -> bool:
    """An element of a list index that is an int literal (``-1`` too), not starred."""
    return type(e) is cst.Element and _int_literal_expr(e.value)


def _int_literal_expr(v: cst.BaseExpression) -> bool:
    """An int literal, ``-1`` too."""
    if type(v) is cst.UnaryOperation and type(v.operator) is cst.Minus:
        v = v.expression
    return type(v) is cst.Integer


def _index_items(v: Value) -> list[cst.BaseSlice] | None:
    """The items of a tuple value used as an index, as index expressions: the ellipsis, None, known ints and
    ``slice(...)`` objects of known ints (``x[(*((slice(None),) * dim), ...)]``) only."""
    from ..interpret.values import NoneV, RefV

    if not isinstance(v, SeqV) or v.kind != "tuple":
        return None
    out: list[cst.BaseSlice] = []
    for item in v.items:
        written = _slice_node(item)
        if written is not None:
            out.append(written)
        elif isinstance(item, RefV) and item.qualname == "builtins.Ellipsis":
            out.append(cst.Index(cst.Ellipsis()))
        elif isinstance(item, NoneV):
            out.append(cst.Index(cst.Name("None")))
        elif isinstance(item, IntV) and (i := item.size.as_int()) is not None:
            out.append(
                cst.Index(cst.Integer(str(i)) if i >= 0 else cst.UnaryOperation(cst.Minus(), cst.Integer(str(-i))))
            )
        else:
            return None
    return out


# integer dtypes each framework takes as an index array (torch reads uint8 / bool as masks)
_INDEX_DTYPES = {
    "torch": ("int64", "int32"),
    "numpy": ("int64", "int32", "int16", "int8", "uint16", "uint32", "uint64"),
    "jax": ("int64", "int32", "int16", "int8", "uint16", "uint32", "uint64"),
}


def _integer_index(v: Value, t: TensorV) -> bool:
    """An array of a known integer dtype and shape indexing ``t`` of the same framework (a gather)."""
    return (
        isinstance(v, TensorV)
        and v.shape is not None
        and v.framework == t.framework
        and v.dtype in _INDEX_DTYPES.get(t.framework or "", ())
    )


def _window(interp: "Interpreter", sl: cst.Slice, n: Size) -> Size | None:
    """``data[i : i + k]`` (and ``data[i + c : i + c + k]``) where every value ``i`` may take is known to lie in a range
    that keeps the window inside the axis (``i`` a row of ``torch.randint(len(data) - k, (b,))``, the index of a ``for
    i in range(0, len(data) - k + 1, stride)``): exactly k. The
    stop must be the start plus a known non-negative k, written so; no step."""
    if sl.lower is None or sl.upper is None or sl.step is not None:
        return None
    # ``i + c`` and ``i + c + k`` (``s + lookback - 1 : s + lookback + horizon``): one name plus known ints
    low, high = _offset_of(interp, sl.lower), _offset_of(interp, sl.upper)
    if low is None or high is None or low[0] != high[0]:
        return None
    shift = low[1]
    k = IntV(high[1] - low[1])
    i = interp.eval(cst.Name(low[0]))
    ranged = interp.index_ranges.get(id(i)) if isinstance(i, IntV) else None
    if ranged is not None and ranged[0] is i:
        # ``for i in range(0, n - k + 1, s)``: each index the loop binds
        lo, hi = Size.const(ranged[1]) + shift, Size.const(ranged[2]) + shift
    elif isinstance(i, TensorV) and i.bounds is not None and i.shape == ():
        lo, hi = i.bounds[0] + shift, i.bounds[1] + shift
    else:
        return None
    if not isinstance(k, IntV):
        return None
    if (
        greater_equal(k.size, 0) is Truth.TRUE
        and greater_equal(lo, 0) is Truth.TRUE
        and greater_equal(n - k.size + 1, hi) is Truth.TRUE
    ):
        return k.size
    return None


def _offset_of(interp: "Interpreter", e: cst.BaseExpression, depth: int = 0) -> tuple[str, Size] | None:
    """``e`` as a name plus an int: ``s``, ``s + lookback - 1``, ``offset + s`` (the other terms names, attributes or
    integers of known int value; nothing that can fail or run code); None otherwise."""
    pure = (cst.Name, cst.Integer, cst.Attribute)
    if type(e) is cst.Name:
        return e.value, Size.const(0)
    if depth > 6 or type(e) is not cst.BinaryOperation or type(e.operator) not in (cst.Add, cst.Subtract):
        return None
    for inner, other, sign in ((e.left, e.right, 1), (e.right, e.left, None)):
        if sign is None and type(e.operator) is not cst.Add:
            break  # (``c - s`` is no name plus an int)
        if type(other) not in pure:
            continue
        got = _offset_of(interp, inner, depth + 1) if type(inner) in (cst.Name, cst.BinaryOperation) else None
        if got is None:
            continue
        c = interp.eval(other)
        if not isinstance(c, IntV) or c.assumed:
            return None
        return got[0], got[1] + c.size if type(e.operator) is cst.Add else got[1] - c.size
    return None


def _slice_size(interp: "Interpreter", sl: cst.Slice, n: Size) -> Size | None:
    window = _window(interp, sl, n)
    if window is not None:
        return window
    lo = interp.eval(sl.lower) if sl.lower is not None else None
    hi = interp.eval(sl.upper) if sl.upper is not None else None
    st = interp.eval(sl.step) if sl.step is not None else None
    nn = n.as_int()
    if any(x is not None and not isinstance(x, IntV) for x in (lo, hi, st)):
        return None
    ints = [x.size.as_int() if isinstance(x, IntV) else None for x in (lo, hi, st)]
    if (
        lo is None
        and st is None
        and isinstance(hi, IntV)
        and not hi.assumed
        and ints[1] is None
        and at_least(hi.size, n) is Truth.TRUE
    ):
        return n  # ``table[: h.shape[1]]`` of a stop at least the axis's length (prompts + tokens): the whole axis
    if any(x is not None and i is None for x, i in zip((lo, hi, st), ints)):
        return None  # a symbolic bound
    if nn is not None and ints[2] != 0:
        return Size.const(len(range(nn)[ints[0] : ints[1] : ints[2]]))
    if ints[2] in (None, 1) and ints[1] is not None and 0 <= ints[1] <= (ints[0] or 0):
        return Size.const(0)  # x[:0], x[5:3]: empty whatever the axis's length
    # symbolic: x[:k] with k <= n unknown in general; x[1:] -> n-1 and x[:-1] -> n-1 (an axis's length, at least
    # 1, as every size the analysis compares)
    if ints[2] is None and ints[1] is None and isinstance(ints[0], int) and ints[0] >= 0:
        if at_least(n, ints[0]) is Truth.TRUE:
            return n - ints[0]
    if ints[2] in (None, 1) and ints[0] in (None, 0) and isinstance(ints[1], int) and ints[1] > 0:
        if at_least(n, ints[1]) is Truth.TRUE:
            return Size.const(ints[1])  # x[:k] of an axis at least k long (``if wav.shape[0] >= k: wav[:k]``)
    if ints[2] is None and ints[0] in (None, 0) and isinstance(ints[1], int) and ints[1] < 0:
        if at_least(n, -ints[1]) is Truth.TRUE:
            return n + ints[1]
    return None


def reshape(cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    vals = _shape_args(args)
    shape_kw = kwargs.get("shape")
    if vals is None and isinstance(shape_kw, SeqV):
        vals = list(shape_kw.items)
    if vals is None:
        return t.with_shape(None)
    minus = [i for i, v in enumerate(vals) if isinstance(v, IntV) and v.size.as_int() == -1]
    if len(minus) > 1 or (any(v is UNKNOWN for v in vals) and not _int_args(name, t, args)):
        return t.with_shape(None)
    if t.shape is not None and any(v is UNKNOWN for v in vals):
        # a size of unknown value: the element counts cannot be compared, but the result has one axis per size
        # whenever it runs (x.reshape(b, -1, d) of a known 4-d x with b unknown is 3-d)
        t = t.with_shape(None)
    sizes = [
        v.size if isinstance(v, IntV) else cx.ctx.fresh("n", cx.origin(node, _UNKNOWN_SIZE))
        for v in vals
        if v is UNKNOWN or isinstance(v, IntV)
    ]
    non_positive = any((n := s.as_int()) is not None and n <= 0 and i not in minus for i, s in enumerate(sizes))
    if non_positive and not minus and t.shape is not None and product(t.shape).as_int() == 0:
        # ``torch.zeros(0).reshape(1, 0)``: an empty tensor given a shape with a 0 in it keeps exactly that shape
        # (a later ``reshape(-1)`` of it is 0 long, not a new positive size)
        non_positive = any((n := s.as_int()) is not None and n < 0 for s in sizes)
    if len(sizes) != len(vals) or non_positive:
        return t.with_shape(None)
    if t.shape is None:
        # the input's shape is unknown but the result has the sizes asked for (an unknown int or the inferred -1 one
        # of unknown value): x.view(b * n, seq_len, -1) is (b * n, seq_len, ?) whenever it runs
        for i in minus:
            sizes[i] = cx.ctx.fresh("n", cx.origin(node, _INFERRED_SIZE))
        return t.with_shape(tuple(sizes))
    total = product(t.shape)
    if minus:
        known = product(s for i, s in enumerate(sizes) if i not in minus)
        if divisible(total, known) is Truth.FALSE:
            cx.ctx.report(
                node,
                "SHP204",
                {
                    "op": name,
                    "detail": D.ReshapeElements(name, t.shape, total, tuple(sizes), tuple(minus), known=known),
                },
                cx.origins([t]),
                spec=OpSpec(
                    "reshape",
                    None,
                    (t.shape,),
                    (),
                    (("target", tuple(Size.const(-1) if i in minus else x for i, x in enumerate(sizes))),),
                ),
            )
            return t.with_shape(None)
        q = total.exact_div(known)
        if q is None:
            return t.with_shape(None)
        sizes[minus[0]] = q
        return _viewed(cx, node, name, t, tuple(sizes))
    if equal(total, product(sizes)) is Truth.FALSE:
        cx.ctx.report(
            node,
            "SHP204",
            {"op": name, "detail": D.ReshapeElements(name, t.shape, total, tuple(sizes), target_total=product(sizes))},
            cx.origins([t]),
            spec=OpSpec("reshape", None, (t.shape,), (), (("target", tuple(sizes)),)),
        )
        return t.with_shape(None)
    return _viewed(cx, node, name, t, tuple(sizes))


def _viewed(cx: OpContext, node: cst.Call, name: str, t: TensorV, sizes: tuple[Size, ...]) -> TensorV:
    """The result of a reshape of ``t`` to ``sizes`` (element counts agreeing). torch's ``view`` of a tensor whose
    strides are known (a transpose of a contiguous one) is checked against them (``view_strides``): torch raises when
    an axis of the result spans memory that is not evenly strided; the view made has the strides computed."""
    out = t.with_shape(sizes)
    if t.framework != "torch" or t.strides is None or t.shape is None:
        return out
    old = [s.as_int() for s in t.shape]
    new = [s.as_int() for s in sizes]
    if any(n is None for n in old) or any(n is None for n in new):
        return out
    if name != "view":
        # reshape: a view when the strides allow it, else a contiguous copy
        made = view_strides(old, t.strides, new)  # type: ignore[arg-type]
        return replace(out, strides=made if made is not None else contiguous_strides(sizes))
    made = view_strides(old, t.strides, new)  # type: ignore[arg-type]
    if made is None:
        cx.ctx.report(
            node,
            "SHP204",
            {"op": name, "detail": D.ViewStrides(t.shape, t.strides, sizes)},
            cx.origins([t]),
            spec=OpSpec("view.strided", None, (t.shape,), (), (("target", sizes), ("strides", t.strides))),
        )
        return t.with_shape(None)
    return replace(out, strides=made)


_UNKNOWN_SIZE = "a size of unknown value given to a reshape"
_INFERRED_SIZE = "the size a reshape infers for -1 from an input of unknown shape"


def _int_args(name: str, t: TensorV, args: list[Value]) -> bool:
    """Whether each size handed to a reshape is an int even where its value is unknown: several positional sizes or
    a tuple of them (a single unknown argument may be a whole shape; numpy's ``a.view(...)`` takes a dtype)."""
    if len(args) == 1 and not isinstance(args[0], SeqV):
        return False
    return name != "view" or t.framework not in ("numpy", "jax")


def transpose(t: TensorV, args: list[Value], kwargs: dict[str, Value], name: str) -> Value:
    if t.shape is None:
        return same_rank_unknown(t)
    rank = len(t.shape)
    if name == "transpose" and t.framework in ("numpy", "jax") and (args or "axes" in kwargs):
        # numpy's transpose takes a whole permutation: x.transpose(2, 0, 1), np.transpose(x, (1, 0, 2))
        axes = kwargs.get("axes", args[0] if len(args) == 1 else SeqV(tuple(args)))
        return permute(t, list(axes.items)) if isinstance(axes, SeqV) else t.with_shape(None)
    if name == "transpose" and len(args) > 2:
        # three or more axes are a whole permutation (numpy / jax style: the output of a flax layer whose framework
        # is not known); torch's transpose takes exactly two dims, so a torch tensor is left unknown
        return permute(t, list(args)) if t.framework is None else t.with_shape(None)
    ds = _ints(args[:2])
    if ds is None or len(ds) != 2:
        if not args and name == "transpose" and t.framework == "numpy":
            return t.with_shape(tuple(reversed(t.shape)), tuple(reversed(t.axes)) if t.axes else None)
        return t.with_shape(None)
    a, b = (_norm_dim(d, rank) for d in ds)
    if a is None or b is None:
        return t.with_shape(None)
    if name in ("moveaxis", "movedim"):
        order = [i for i in range(rank) if i != a]
        order.insert(b, a)
    else:
        order = list(range(rank))
        order[a], order[b] = order[b], order[a]
    out = t.with_shape(tuple(t.shape[i] for i in order), tuple(t.axes[i] for i in order) if t.axes else None)
    return permuted_layout(t, order, out)


def permute(t: TensorV, dims: list[Value] | None) -> Value:
    if dims is None or t.shape is None:
        return t.with_shape(None)
    ds = _ints(dims)
    rank = len(t.shape)
    if ds is None or len(ds) != rank:
        return t.with_shape(None)
    order = [_norm_dim(d, rank) for d in ds]
    if any(o is None for o in order) or len(set(order)) != rank:
        return t.with_shape(None)
    out = t.with_shape(tuple(t.shape[o] for o in order), tuple(t.axes[o] for o in order) if t.axes else None)  # type: ignore[index]
    return permuted_layout(t, order, out)  # type: ignore[arg-type]


def flatten(t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    if t.shape is None:
        return t.with_shape(None)
    if t.framework == "numpy":
        return t.with_shape((product(t.shape),))
    start = _ints([args[0]]) if args else _ints([kwargs.get("start_dim", IntV(Size.const(0)))])
    end = _ints([args[1]]) if len(args) > 1 else _ints([kwargs.get("end_dim", IntV(Size.const(-1)))])
    rank = len(t.shape)
    if start is None or end is None:
        return t.with_shape(None)
    if rank == 0:
        return t.with_shape((Size.const(1),))
    s, e = _norm_dim(start[0], rank), _norm_dim(end[0], rank)
    if s is None or e is None or s > e:
        return t.with_shape(None)
    axes = t.axes[:s] + (merged_name(t.axes[s : e + 1]),) + t.axes[e + 1 :] if t.axes else None
    return t.with_shape(t.shape[:s] + (product(t.shape[s : e + 1]),) + t.shape[e + 1 :], axes)


def unflatten(cx: OpContext, node: cst.Call, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    if t.shape is None or len(args) < 2 or not isinstance(args[1], SeqV):
        return t.with_shape(None)
    d = _ints([args[0]])
    if d is None:
        return t.with_shape(None)
    pos = _norm_dim(d[0], len(t.shape))
    if pos is None:
        return t.with_shape(None)
    inner = TensorV((t.shape[pos],), t.dtype, t.framework)
    res = reshape(cx, node, "unflatten", inner, [args[1]], {})
    if not isinstance(res, TensorV) or res.shape is None:
        return t.with_shape(None)
    return t.with_shape(t.shape[:pos] + res.shape + t.shape[pos + 1 :])


def squeeze(t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    if t.shape is None:
        # the rank may fall: nothing a check said of the input's rank (``assert x.ndim == 3``), nor its possible
        # shapes, holds for the result
        return t.with_shape(None)
    arg = args[0] if args else kwargs.get("dim", kwargs.get("axis"))
    if len(args) > 1:
        if t.framework != "torch":
            return t.with_shape(None)
        arg = SeqV(tuple(args), "tuple")  # torch's x.squeeze(2, 3): the dims as varargs, as squeeze((2, 3))
    if arg is None:
        if all(equal(s, 1) is not Truth.UNKNOWN for s in t.shape):
            keep = [i for i, s in enumerate(t.shape) if equal(s, 1) is Truth.FALSE]
            return t.with_shape(tuple(t.shape[i] for i in keep), tuple(t.axes[i] for i in keep) if t.axes else None)
        return t.with_shape(None)
    dims = _ints(list(arg.items) if isinstance(arg, SeqV) else [arg])
    if dims is None:
        return t.with_shape(None)
    rank = len(t.shape)
    norm = [_norm_dim(d, rank) for d in dims]
    if any(n is None for n in norm):
        return t.with_shape(None)
    drop = []
    for n in norm:
        e = equal(t.shape[n], 1)  # type: ignore[index]
        if e is Truth.UNKNOWN:
            return t.with_shape(None)
        if e is Truth.TRUE:
            drop.append(n)
    keep = [i for i in range(rank) if i not in drop]
    return t.with_shape(tuple(t.shape[i] for i in keep), tuple(t.axes[i] for i in keep) if t.axes else None)


def expand(cx: OpContext, node: cst.Call, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    vals = _shape_args(args)
    if vals is None:
        return t.with_shape(None)
    out: list[Size] = []
    shape = t.shape
    if shape is not None and len(vals) < len(shape):
        return t.with_shape(None)
    for i, v in enumerate(vals):
        j = i - (len(vals) - len(shape)) if shape is not None else -1
        if isinstance(v, IntV) and v.size.as_int() == -1:
            if shape is None or j < 0:
                return t.with_shape(None)
            out.append(shape[j])
        elif isinstance(v, IntV):
            out.append(v.size)
        else:
            return t.with_shape(None)
    return expand_to(cx, node, t, tuple(out), "expand")


def expand_to(
    cx: OpContext, node: cst.Call, t: TensorV, out: tuple[Size, ...], op: str, others: tuple[TensorV, ...] = ()
) -> Value:
    """``t`` expanded to the sizes ``out`` (``x.expand(...)`` with the -1 resolved, ``x.expand_as(y)``): torch raises
    when an axis of ``t`` is neither 1 nor the target's size, or when ``out`` has fewer dimensions than ``t``."""
    shape = t.shape
    if shape is not None:
        if len(out) < len(shape):
            return t.with_shape(None)
        for i, s in enumerate(shape):
            target = out[len(out) - len(shape) + i]
            if equal(s, target) is Truth.FALSE and equal(s, 1) is Truth.FALSE and greater_equal(s, 2) is Truth.TRUE:
                cx.ctx.report(
                    node,
                    "SHP204",
                    {"op": op, "detail": D.ExpandAxis(shape, out, i, s)},
                    cx.origins([t, *others]),
                    spec=OpSpec("expand", None, (shape,), (), (("target", out),)),  # expand_as is expand to y.shape
                )
                return t.with_shape(None)
    return t.with_shape(out)


# ------------------------------------------------------------------------------------------ tensor-method rules
@TENSOR_METHODS.register("view", "reshape")
def _reshape(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return reshape(cx, node, name, t, args, kwargs)


@TENSOR_METHODS.register("reshape_as", "view_as")
def _reshape_as(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """torch's ``x.reshape_as(y)`` / ``x.view_as(y)``: ``x.reshape(y.shape)`` (the element counts must agree)."""
    if not method or t.framework != "torch" or len(args) != 1 or kwargs or not isinstance(args[0], TensorV):
        return None
    other = args[0]
    if other.shape is None or other.alts:
        return t.with_shape(None)
    return reshape(cx, node, name, t, [SeqV(tuple(IntV(s) for s in other.shape), "shape")], {})


@TENSOR_METHODS.register("transpose", "swapaxes", "swapdims", "moveaxis", "movedim")
def _transpose(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    out = transpose(t, args, kwargs, name)
    if t.shape is not None and isinstance(out, TensorV) and out.shape is None:
        ds = _ints(args[:2])
        if ds is not None and len(ds) == 2 and len(args) == 2:
            dim_out_of_range(cx, node, name, t, ds)  # x.transpose(1, 2) of a 2-d tensor, np.swapaxes(a, 0, 2)
    return out


@TENSOR_METHODS.register("t")
def _t(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """torch's ``x.t()`` / ``torch.t(x)``: a matrix transposed, a vector or a 0-d tensor as it is (torch raises on
    3 or more dimensions: unknown here)."""
    if t.framework != "torch" or args or kwargs:
        return None
    if t.shape is None or len(t.shape) > 2:
        return t.with_shape(None)
    out = t.with_shape(tuple(reversed(t.shape)), tuple(reversed(t.axes)) if t.axes else None)
    return permuted_layout(t, list(reversed(range(len(t.shape)))), out)


@TENSOR_METHODS.register("permute")
def _permute(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    dims = _shape_args(args)
    dims_kw = kwargs.get("dims")
    if dims is None and isinstance(dims_kw, SeqV):
        dims = list(dims_kw.items)
    return permute(t, dims)


@TENSOR_METHODS.register("flatten")
def _flatten(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return flatten(t, args, kwargs)


@TENSOR_METHODS.register("unflatten")
def _unflatten(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return unflatten(cx, node, t, args, kwargs)


@TENSOR_METHODS.register("unsqueeze", "expand_dims")
def _unsqueeze(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    shape = t.shape
    d = _ints(args[:1] or ([kwargs["dim"]] if "dim" in kwargs else [kwargs.get("axis", UNKNOWN)]))
    if d is None or shape is None:
        return t.with_shape(None)
    pos = _norm_dim(d[0], len(shape) + 1)
    if pos is None:
        dim_out_of_range(cx, node, name, t, d, extra=1)  # x.unsqueeze(3), np.expand_dims(a, 3) of a 2-d one
        return t.with_shape(None)
    return t.with_shape(
        shape[:pos] + (Size.const(1),) + shape[pos:], (t.axes[:pos] + (None,) + t.axes[pos:]) if t.axes else None
    )


@TENSOR_METHODS.register("squeeze")
def _squeeze(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    if t.framework in ("numpy", "jax") and t.shape is not None and _squeezes_a_wide_axis(cx, node, t, args, kwargs):
        return t.with_shape(None)
    return squeeze(t, args, kwargs)


def _squeezes_a_wide_axis(
    cx: OpContext, node: cst.Call, t: TensorV, args: list[Value], kwargs: dict[str, Value]
) -> bool:
    """numpy's and JAX's ``squeeze(x, axis)`` raise on an axis whose size is not 1 (torch leaves it): reported when
    the axis and its size are known."""
    assert t.shape is not None
    arg = args[0] if args else kwargs.get("axis")
    if arg is None:
        return False
    dims = _ints(list(arg.items) if isinstance(arg, SeqV) else [arg])
    if dims is None:
        return False
    for d in dims:
        n = _norm_dim(d, len(t.shape))
        if n is not None and equal(t.shape[n], 1) is Truth.FALSE:
            cx.ctx.report(
                node,
                "SHP204",
                {"op": "squeeze", "detail": D.SqueezeAxis(t.shape, n, t.shape[n])},
                cx.origins([t]),
                spec=OpSpec("squeeze", None, (t.shape,), (), (("axis", n),)),
            )
            return True
    return False


@TENSOR_METHODS.register("expand", "broadcast_to")
def _expand(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return expand(cx, node, t, args, kwargs)


@TENSOR_METHODS.register("diff")
def _diff(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """``np.diff(a, n=1, axis=-1, prepend=, append=)`` / ``jnp.diff`` / ``torch.diff(x, n=1, dim=-1, ...)`` (and
    ``x.diff(...)`` in torch): the n-th differences along one axis, ``n`` fewer there (none left past the axis's
    length), after ``prepend`` / ``append`` joined it (a scalar is one more, an array its length along the axis).
    ``n=0`` gives the input itself. An axis not known: the shape unknown; ``n`` or a joined value not known: the rank
    kept, that axis's length unknown."""
    if method and t.framework != "torch":
        return None  # (numpy and jax arrays have no ``diff`` method)
    shape = t.shape
    if shape is None or not shape:
        return t.with_shape(None)
    axis_key = "dim" if t.framework == "torch" else "axis"
    n_v = args[0] if args else kwargs.get("n", IntV(Size.const(1)))
    axis_v = args[1] if len(args) > 1 else kwargs.get(axis_key, IntV(Size.const(-1)))
    extra = [args[2] if len(args) > 2 else kwargs.get("prepend"), args[3] if len(args) > 3 else kwargs.get("append")]
    axis = _ints([axis_v])
    at = _norm_dim(axis[0], len(shape)) if axis is not None else None
    if at is None:
        return t.with_shape(None)
    n = n_v.size.as_int() if isinstance(n_v, IntV) else None
    length: Size | None = shape[at]
    for e in extra:
        if e is None or isinstance(e, NoneV) or length is None:
            continue
        if isinstance(e, (IntV, FloatV)):
            length = length + 1
        elif isinstance(e, TensorV) and e.shape is not None and len(e.shape) == len(shape):
            length = length + e.shape[at]
        else:
            length = None
    if n == 0 and length is shape[at]:
        return t
    out: Size | None = None
    if n is not None and n >= 0 and length is not None:
        k = length.as_int()
        if k is not None:
            out = Size.const(max(0, k - n))
        elif greater_equal(length, Size.const(n)) is Truth.TRUE:
            out = length - n
    new = out if out is not None else cx.fresh("d")
    return t.with_shape(shape[:at] + (new,) + shape[at + 1 :])
