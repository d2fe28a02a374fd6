"""einops calls and layers: validate the pattern (SHP1xx) and apply it to the inferred shapes (SHP2xx).

Each einops function is one rule registered with ``@einops_function(name)`` (``rule(cx, node, args, kwargs,
dynamic)``, ``dynamic`` when a ``**lengths`` spread hides the axis names); each layer class of ``einops.layers.*``
is one class registered with ``@einops_layer(name)``: ``build`` reads the constructor, ``apply`` the layer called on a
tensor. :func:`call` is the entry point of every ``einops.*`` call: it finds the rule by name and handles what all
the layers share (the flax ``sizes`` dict, the Keras dtype policy).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, NoReturn

import libcst as cst

from ... import pattern as P
from ...diagnostics import details as D
from ...sizes import Size
from ..interpret.context import _ALL_RANKS_BUT_ONE, LazyNote, MadeUp, OpSpec, PatternSizes
from .precision import check_einops_reduction
from .registry import EINOPS_FUNCTIONS, EINOPS_LAYERS, OpContext, einops_function, einops_layer
from .shapes_bridge import shape_note
from ..interpret.values import UNKNOWN, DictV, FuncV, IntV, LayerV, RefV, SeqV, StrV, TensorV, Value
from ..index.imports import literal_str

if TYPE_CHECKING:
    from ..interpret.interpreter import Interpreter

_IDENT = re.compile(r"[^\W\d]\w*")


def _operation(qual: str) -> str | None:
    """The registered einops function or layer class ``qual`` names (``einops.rearrange``,
    ``einops.layers.torch.Rearrange``), or None."""
    parts = qual.split(".")
    if parts[0] != "einops":
        return None
    name = parts[-1]
    if EINOPS_FUNCTIONS.get(name) and (len(parts) == 2 or parts[1] in ("einops", "packing", "array_api")):
        return name
    if name in EINOPS_LAYERS and len(parts) >= 3 and parts[1] in ("layers", "experimental"):
        return name
    return None


def _opaque_reduction(tensor: object, axes: object) -> NoReturn:
    """Stands for a reduction callable of the analysed code (never called)."""
    raise AssertionError("never called")


def _reduction(value: Value) -> tuple[str | None, bool]:
    """(the reduction's name, whether it is a callable of the analysed code); (None, False) when unknown."""
    if isinstance(value, StrV):
        return value.value, False
    return None, isinstance(value, (FuncV, RefV))


def _identifiers(pattern: str) -> tuple[str, ...]:
    return tuple(sorted(set(_IDENT.findall(pattern))))


def output_axes(pattern: str) -> tuple[str | None, ...] | None:
    """Axis names of the output, when each output group is a single named axis."""
    if "->" not in pattern or pattern.count("->") != 1:
        return None
    right = pattern.split("->")[1]
    if "(" in right or "..." in right or "…" in right:
        return None
    toks = right.split()
    if not all(_IDENT.fullmatch(t) for t in toks):
        return None
    return tuple(toks)


# ------------------------------------------------------------------ entry
def call(
    cx: OpContext,
    interp: "Interpreter",
    node: cst.Call,
    qual: str,
    args: list[Value],
    kwargs: dict[str, Value],
    dynamic: bool,
) -> Value | None:
    """``einops.name(...)`` / ``einops.layers.<backend>.Name(...)``: its registered rule; None when ``qual`` is no
    einops function or layer class."""
    op = _operation(qual)
    if op is None:
        return None
    from ..interpret.paths import branching, each_path

    if branching(args) is not None:
        return each_path(cx.ctx, args, lambda a: call(cx, interp, node, qual, a, kwargs, dynamic))
    layer_rule = EINOPS_LAYERS.get(op)
    if layer_rule is not None:
        backend = qual.split(".")[2:3]
        if backend == ["flax"]:
            return _flax_layer(cx, interp, node, op, args, kwargs, dynamic)
        layer = layer_rule.build(cx, node, op, args, kwargs, dynamic)
        if backend in (["keras"], ["tensorflow"]):  # a Keras layer: the dtype policy applies
            from .frameworks import keras_compute_dtype, with_compute_dtype

            return with_compute_dtype(layer, keras_compute_dtype(cx, {}))
        return layer
    for rule in EINOPS_FUNCTIONS.get(op):
        out = rule(cx, node, args, kwargs, dynamic)
        if out is not None:
            return out
    return UNKNOWN


# ------------------------------------------------------------------ helpers
def _report(
    cx: OpContext,
    node: cst.CSTNode,
    problem: P.Problem,
    notes: "list[str | LazyNote] | list[str] | tuple[str, ...]" = (),
    spec: OpSpec | None = None,
) -> None:
    cx.ctx.report(
        node,
        problem.code,
        dict(problem.fields),
        tuple(notes),
        spec=spec if problem.code.startswith("SHP2") else None,
    )


def _lengths(cx: OpContext, node: cst.CSTNode, kwargs: dict[str, Value], exclude: tuple[str, ...]) -> dict[str, Size]:
    out: dict[str, Size] = {}
    for k, v in kwargs.items():
        if k in exclude:
            continue
        if isinstance(v, IntV):
            out[k] = v.size
        else:
            out[k] = cx.ctx.fresh(k, cx.origin(node, f"the keyword {k}=... (value unknown)"))
    return out


def _input(v: Value) -> tuple[list[tuple[Size, ...]] | None, bool, TensorV | None]:
    """(input shapes or None if unknown, is a stacked list, a representative tensor)"""
    if isinstance(v, TensorV):
        return ([v.shape] if v.shape is not None else None), False, v
    if isinstance(v, SeqV) and v.items and all(isinstance(t, TensorV) for t in v.items):
        ts = [t for t in v.items if isinstance(t, TensorV)]
        if all(t.shape is not None for t in ts):
            return [t.shape for t in ts if t.shape is not None], True, ts[0]
        return None, True, ts[0]
    return None, isinstance(v, SeqV), None


def _notes(tensors: list[TensorV], pattern: str) -> "list[str | LazyNote]":
    notes = []
    for i, t in enumerate(tensors):
        label = "input" if len(tensors) == 1 else f"input #{i}"
        notes.append(shape_note(f"{label} shape", t.shape, t.origin))
    return notes


def _result(
    cx: OpContext,
    node: cst.CSTNode,
    res: P.Inferred | P.Problem,
    template: TensorV | None,
    pattern: str,
    tensors: list[TensorV],
    axes: tuple[str | None, ...] | None = None,
    spec: OpSpec | None = None,
) -> Value:
    if isinstance(res, P.Problem):
        fw = next((t.framework for t in tensors if t.framework in ("tensorflow", "paddle")), None)
        if spec is not None and fw is not None:  # --verify also replays it on that framework's tensors
            spec = OpSpec(spec.op, spec.pattern, spec.inputs, spec.axes_lengths, spec.extra + (("framework", fw),))
        _report(cx, node, res, _notes(tensors, pattern), spec)
        cx.ctx.count("einops:problem")
        return UNKNOWN
    cx.ctx.count("einops:inferred")
    outs = res.outputs
    if not outs:
        return UNKNOWN
    base = template or TensorV(None)
    origin = cx.origin(node, f"the einops pattern {pattern!r}")
    return base.with_shape(tuple(outs[0]), axes if axes and len(axes) == len(outs[0]) else None, origin)


def _shape_from_pattern(
    cx: OpContext,
    side: str,
    lengths: dict[str, Size],
    names: dict[str, Size],
    node: cst.CSTNode,
    ellipsis: Size | None = None,
) -> tuple[Size, ...] | None:
    """The input shape an unknown tensor must have for ``side`` to apply (no ellipsis): the call fails otherwise.

    Named axes get fresh symbols (shared through ``names`` between the operands of one call), so the output of
    the call -- and what follows it -- is known symbolically even for code without annotations.
    """
    try:
        expr = P.parse_expression(side, allow_underscore=False, allow_duplicates=True)
    except P.PatternError:
        return None
    if expr.has_marker and (ellipsis is None or expr.ellipsis_parenthesized):
        return None
    out: list[Size] = []
    origin = cx.origin(node, f"the pattern {side.strip()!r}")
    for group in expr.composition:
        if isinstance(group, str):  # the ellipsis marker: one placeholder axis standing for all of them
            assert ellipsis is not None
            out.append(ellipsis)
            continue
        size = Size.const(1)
        for atom in group:
            if isinstance(atom, str):
                if atom in lengths:
                    size = size * lengths[atom]
                else:
                    if atom not in names:
                        names[atom] = cx.ctx.fresh(atom, origin)
                    size = size * names[atom]
            else:
                size = size * atom.value
        out.append(size)
    return tuple(out)


def _checked_pattern(cx: OpContext, node: cst.CSTNode, kind: str, v: Value) -> str | None:
    """The literal pattern of a pack/unpack/parse_shape call, or None (dynamic, or invalid and reported)."""
    pattern = _pattern(v)
    if pattern is None:
        return None
    problem = P.check_call(kind, pattern)
    if problem is not None:
        _report(cx, node, problem)
        return None
    return pattern


def _pattern(v: Value) -> str | None:
    return v.value if isinstance(v, StrV) else None


# ------------------------------------------------------------------ rearrange / reduce / repeat
def _transform(
    cx: OpContext, kind: str, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool
) -> Value:
    tensor = args[0] if args else kwargs.get("tensor", UNKNOWN)
    pat_v = args[1] if len(args) > 1 else kwargs.get("pattern", UNKNOWN)
    pattern = _pattern(pat_v)
    if isinstance(tensor, SeqV) and tensor.kind == "pack" and pattern is not None:
        cx.ctx.report(node, "SHP111", {"detail": D.PackTupleUsed(f"the input of einops.{kind}")})
        return UNKNOWN
    if isinstance(tensor, SeqV) and tensor.kind == "tuple" and pattern is not None:
        cx.ctx.report(node, "SHP111", {"detail": D.TupleInput(kind)})
        return UNKNOWN
    if isinstance(tensor, SeqV) and tensor.kind == "list" and not tensor.items and pattern is not None:
        cx.ctx.report(node, "SHP111", {"detail": D.EmptyList(kind, call=True)})
        return UNKNOWN
    shapes, stacked, template = _input(tensor)
    fallback: Value = (
        template.with_shape(None)
        if template is not None and not stacked
        else (TensorV(None, template.dtype, template.framework) if template else UNKNOWN)
    )
    if pattern is None:
        cx.ctx.count("einops:dynamic-pattern")
        return fallback
    reduction: str | None = None
    is_callable = False
    if kind == "reduce":
        reduction, is_callable = _reduction(args[2] if len(args) > 2 else kwargs.get("reduction", UNKNOWN))
        if reduction is None and not is_callable and len(args) <= 2 and "reduction" not in kwargs and not dynamic:
            cx.ctx.report(node, "SHP111", {"detail": D.NoReduction(pattern)})
            return fallback
    extra = len(args) - (3 if kind == "reduce" else 2)
    if extra > 0:
        return fallback  # positional axis lengths are not accepted by einops; let the type checker say so
    lengths = _lengths(cx, node, kwargs, ("tensor", "pattern", "reduction"))
    axes_names = _identifiers(pattern) if dynamic else tuple(lengths)
    problem = P.check_call(kind, pattern, reduction=reduction, reduction_is_callable=is_callable, axes_names=axes_names)
    if problem is not None:
        _report(cx, node, problem)
        return fallback
    if (
        isinstance(tensor, TensorV)
        and tensor.shape is None
        and tensor.not_ranks
        and _excluded_rank(cx, node, kind, pattern, tensor, lengths, reduction if not is_callable else "callable")
    ):
        return fallback
    ellipsis: Size | None = None
    made_up = False
    # a rank the code's own check fixed (``b, c, h, w = x.shape``, ``assert x.ndim == 4``): the input shape built
    # from the pattern has that rank (_excluded_rank ruled out the others), so only its sizes are made up
    rank_known = isinstance(tensor, TensorV) and tensor.shape is None and len(tensor.not_ranks) >= _ALL_RANKS_BUT_ONE
    if (
        (MAKE_UP_INPUTS or rank_known)
        and not dynamic
        and shapes is None
        and not stacked
        and (tensor is UNKNOWN or (isinstance(tensor, TensorV) and tensor.shape is None))
    ):
        synthetic, ellipsis = _partial_input(cx, tensor, pattern, lengths, node)
        if rank_known and synthetic is not None and ellipsis is not None:
            assert isinstance(tensor, TensorV)
            synthetic, ellipsis = _ranked_ellipsis(cx, node, synthetic, ellipsis, tensor), None
        if synthetic is not None:
            shapes = [synthetic]
            template = tensor if isinstance(tensor, TensorV) else TensorV(None)
            cx.ctx.count("einops:from-pattern")
            made_up = not rank_known
    # (a rank fixed by a check is evidence even where the pattern's axis lengths are not known: ``**axes_lengths``)
    cx.ctx.note_evidence(node, "einops", template if shapes is not None or rank_known else None, made_up)
    if dynamic or shapes is None:
        cx.ctx.count("einops:dynamic-axes" if dynamic else "einops:unknown-input")
        return fallback
    res = P.infer(
        kind,
        pattern,
        shapes,
        axes_lengths=lengths,
        reduction=reduction if not is_callable else _opaque_reduction,
        stacked_list=stacked,
        fresh=_fresher(cx, node),
    )
    tensors = [t for t in (tensor.items if isinstance(tensor, SeqV) else [tensor]) if isinstance(t, TensorV)]
    spec = OpSpec(
        kind,
        pattern,
        tuple(shapes),
        tuple(lengths.items()),
        (("reduction", reduction if not is_callable else "callable"), ("stacked", stacked)),
    )
    out = _result(
        cx,
        node,
        res,
        template if not stacked else (TensorV(None, template.dtype, template.framework) if template else None),
        pattern,
        tensors,
        output_axes(pattern),
        spec,
    )
    if made_up and isinstance(out, TensorV):
        out = out.with_shape(out.shape, out.axes, MadeUp(out.origin))
    elif rank_known and shapes is not None and isinstance(out, TensorV):
        out = out.with_shape(out.shape, out.axes, PatternSizes(out.origin))
    if ellipsis is not None and isinstance(out, TensorV) and out.shape is not None:
        out = _variadic_output(cx, out, pattern, ellipsis)
    if kind == "reduce" and isinstance(out, TensorV) and template is not None:
        check_einops_reduction(cx.source, node, "einops.reduce", template, reduction, res, pattern)
    return out


def _excluded_rank(
    cx: OpContext,
    node: cst.CSTNode,
    kind: str,
    pattern: str,
    tensor: TensorV,
    lengths: dict[str, Size],
    reduction: str | None,
) -> bool:
    """A pattern that needs exactly k dimensions, on a tensor a condition proved is not k-dimensional."""
    try:
        expr = P.parse_expression(pattern.split("->")[0], allow_underscore=False, allow_duplicates=True)
    except P.PatternError:
        return False
    if expr.has_marker:
        return False
    k = len(expr.composition)
    if k not in tensor.not_ranks:
        return False
    possible = sorted(set(range(18)) - tensor.not_ranks)
    actual = (
        str(possible[0])
        if len(possible) == 1 or (len(possible) == 2 and possible[1] == 17)
        else f"a number of dimensions other than {k} here"
    )
    cx.ctx.report(
        node,
        "SHP201",
        {"what": f'{kind} pattern "{pattern}"', "expected": str(k), "subject": "the input", "actual": actual},
        ["a check on the path that reaches the call (x.ndim, len(x.shape), x.dim(), unpacking x.shape) fixed the rank"],
        spec=OpSpec(
            kind,
            pattern,
            (tuple(cx.ctx.fresh("n") for _ in range(next(r for r in possible if r >= 1))),),
            tuple(lengths.items()),
            (("reduction", reduction), ("stacked", False)),
        ),
    )
    return True


# an input of unknown shape is made up from the pattern (its rank, the sizes the pattern fixes) so the rest of the
# code has shapes to check; benchmarks/corpus.py turns it off to count the sites whose input rank owes nothing to a
# shape made up this way, even through the ops that handed it on
MAKE_UP_INPUTS = True


def _partial_input(
    cx: OpContext, tensor: Value, pattern: str, lengths: dict[str, Size], node: cst.CSTNode
) -> tuple[tuple[Size, ...] | None, Size | None]:
    """The input shape of a call on a tensor of unknown rank, from its pattern (and its known leading/trailing axes).

    An einops ``...`` is modelled as one placeholder axis V (the product of the axes it stands for): einops never
    splits or checks the axes under ``...`` on the left, so no finding can depend on V.
    """
    left = pattern.split("->")[0]
    try:
        expr = P.parse_expression(left, allow_underscore=False, allow_duplicates=True)
    except P.PatternError:
        return None, None
    if not expr.has_marker:
        shape = _shape_from_pattern(cx, left, lengths, {}, node)
        if shape is not None and isinstance(tensor, TensorV) and tensor.vshape is not None:
            # the known leading and trailing axes of a tensor of unknown rank (``(..., d)`` from a LayerNorm or a
            # Linear) are those of the input the pattern names, whatever its rank
            prefix, _, suffix = tensor.vshape
            if len(prefix) + len(suffix) > len(shape):
                return None, None
            shape = prefix + shape[len(prefix) : len(shape) - len(suffix)] + suffix
        return shape, None
    if expr.ellipsis_parenthesized:
        return None, None
    if isinstance(tensor, TensorV) and tensor.vshape is not None:
        prefix, v, suffix = tensor.vshape
        k = next(i for i, g in enumerate(expr.composition) if isinstance(g, str))
        m = len(expr.composition) - k - 1
        if len(prefix) > k or len(suffix) > m:
            return None, None  # the pattern may take known axes into its `...`: not modelled
        if len(prefix) < k or len(suffix) < m:
            # the pattern names axes that are still inside the unknown run: take them out as fresh sizes
            # (and a fresh run for the rest); only the product relation to V is forgotten
            origin = cx.origin(node, f"the axes of {left.strip()!r}")
            prefix = prefix + tuple(cx.ctx.fresh("n", origin) for _ in range(k - len(prefix)))
            suffix = tuple(cx.ctx.fresh("n", origin) for _ in range(m - len(suffix))) + suffix
            v = cx.ctx.fresh("…", origin)
        return prefix + (v,) + suffix, v
    v = cx.ctx.fresh("…", cx.origin(node, f"the axes under '...' in {left.strip()!r}"))
    return _shape_from_pattern(cx, left, lengths, {}, node, ellipsis=v), v


def _may_be_empty(
    synthetic: tuple[Size, ...],
    vshape: tuple[tuple[Size, ...], Size, tuple[Size, ...]],
    lengths: dict[str, Size],
    ellipsis: Size | None,
) -> tuple[Size, ...]:
    """The input made up for a layer's pattern around a tensor's known axes, with each size the pattern made up
    (a symbol neither the tensor nor the layer's lengths gave) one less than a fresh positive symbol: such an axis may
    be empty (the frames after the first of a one-frame video), so nothing may take it for a size of at least 1."""
    known: set[str] = set()
    for size in (*vshape[0], vshape[1], *vshape[2], *lengths.values(), *((ellipsis,) if ellipsis is not None else ())):
        known |= size.free_symbols()
    minted = {sym for size in synthetic for sym in size.free_symbols()} - known
    env = {sym: Size.sym(sym) - 1 for sym in minted}
    return tuple(size.substitute(env) for size in synthetic) if env else synthetic


def _ranked_ellipsis(
    cx: OpContext, node: cst.CSTNode, synthetic: tuple[Size, ...], v: Size, tensor: TensorV
) -> tuple[Size, ...] | None:
    """The input built for a pattern with ``...`` on a tensor whose rank a check fixed: the placeholder axis becomes
    as many fresh axes as that rank leaves for the ``...`` (None when the pattern names more axes than it has: the
    call fails, which is left to the rank check)."""
    rank = min(set(range(_ALL_RANKS_BUT_ONE + 2)) - tensor.not_ranks)
    i = next((j for j, s in enumerate(synthetic) if s is v), None)
    if i is None or rank < len(synthetic) - 1:
        return None
    origin = cx.origin(node, "the axes under '...'")
    fill = tuple(cx.ctx.fresh("n", origin) for _ in range(rank - len(synthetic) + 1))
    return synthetic[:i] + fill + synthetic[i + 1 :]


def _variadic_output(cx: OpContext, out: TensorV, pattern: str, v: Size) -> TensorV:
    """Turn the placeholder axis back into an unknown number of axes where the output keeps ``...`` standalone."""
    right = pattern.split("->")[1]
    try:
        expr = P.parse_expression(right, allow_underscore=False, allow_duplicates=True)
    except P.PatternError:
        return out.with_shape(None)
    positions = [i for i, g in enumerate(expr.composition) if isinstance(g, str)]
    if not positions:
        return out  # reduced away, or inside a group: the rank is known
    i = positions[0]
    assert out.shape is not None
    if i >= len(out.shape) or out.shape[i] != v:
        return out.with_shape(None)
    cx.ctx.count("einops:variadic-output")
    return TensorV(None, out.dtype, out.framework, None, out.origin, (out.shape[:i], v, out.shape[i + 1 :]))


def _fresher(cx: OpContext, node: cst.CSTNode) -> Callable[[str], Size]:
    def fresh(name: str) -> Size:
        return cx.ctx.fresh(name, cx.origin(node, "the einops call", prefix="inferred by"))

    return fresh


@einops_function("rearrange")
def rearrange(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
    return _transform(cx, "rearrange", node, args, kwargs, dynamic)


@einops_function("reduce")
def reduce(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
    return _transform(cx, "reduce", node, args, kwargs, dynamic)


@einops_function("repeat")
def repeat(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
    return _transform(cx, "repeat", node, args, kwargs, dynamic)


# ------------------------------------------------------------------ pack / unpack
@einops_function("pack")
def pack(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
    tensors = args[0] if args else kwargs.get("tensors", UNKNOWN)
    pattern = _checked_pattern(cx, node, "pack", args[1] if len(args) > 1 else kwargs.get("pattern", UNKNOWN))
    if pattern is None:
        return UNKNOWN
    if (
        not isinstance(tensors, SeqV)
        or not tensors.items
        or not all(isinstance(t, TensorV) and t.shape is not None for t in tensors.items)
    ):
        return SeqV((UNKNOWN, UNKNOWN), "pack")
    ts = [t for t in tensors.items if isinstance(t, TensorV)]
    res = P.infer("pack", pattern, [t.shape for t in ts if t.shape is not None], fresh=_fresher(cx, node))
    if isinstance(res, P.Problem):
        _report(
            cx,
            node,
            res,
            _notes(ts, pattern),
            OpSpec("pack", pattern, tuple(t.shape for t in ts if t.shape is not None)),
        )
        return SeqV((UNKNOWN, UNKNOWN), "pack")
    packed = ts[0].with_shape(tuple(res.outputs[0]), None, cx.origin(node, f"the einops pack pattern {pattern!r}"))
    star = pattern.split().index("*") if "*" in pattern.split() else 0
    n_after = len(pattern.split()) - star - 1
    ps_items: list[Value] = []
    for t in ts:
        assert t.shape is not None
        inner = t.shape[star : len(t.shape) - n_after]
        ps_items.append(SeqV(tuple(IntV(s) for s in inner), "shape"))
    return SeqV((packed, SeqV(tuple(ps_items), "list")), "pack")


@einops_function("unpack")
def unpack(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
    tensor = args[0] if args else kwargs.get("tensor", UNKNOWN)
    ps = args[1] if len(args) > 1 else kwargs.get("packed_shapes", UNKNOWN)
    if len(args) == 2 and isinstance(ps, StrV) and "pattern" not in kwargs and not dynamic:
        cx.ctx.report(node, "SHP111", {"detail": D.ApiRule("unpack-no-shapes-call")})
        return UNKNOWN
    pattern = _checked_pattern(cx, node, "unpack", args[2] if len(args) > 2 else kwargs.get("pattern", UNKNOWN))
    if pattern is None:
        return UNKNOWN
    if isinstance(tensor, SeqV) and tensor.kind == "pack":
        cx.ctx.report(node, "SHP111", {"detail": D.PackTupleUsed("the tensor einops.unpack splits")})
        return UNKNOWN
    if isinstance(ps, SeqV) and ps.kind == "pack":
        cx.ctx.report(node, "SHP111", {"detail": D.PackTupleUsed("the packed shapes of einops.unpack")})
        return UNKNOWN
    bare = [i for i, item in enumerate(ps.items) if isinstance(item, IntV)] if isinstance(ps, SeqV) else []
    if bare:
        cx.ctx.report(node, "SHP111", {"detail": D.BarePackedShape(bare[0])})
        return UNKNOWN
    if not isinstance(tensor, TensorV) or tensor.shape is None or not isinstance(ps, SeqV):
        return UNKNOWN
    packed_shapes = []
    for item in ps.items:
        if not isinstance(item, SeqV) or not all(isinstance(x, IntV) for x in item.items):
            return SeqV(tuple(tensor.with_shape(None) for _ in ps.items), "list")
        packed_shapes.append([x.size for x in item.items if isinstance(x, IntV)])
    res = P.infer("unpack", pattern, [tensor.shape], packed_shapes=packed_shapes, fresh=_fresher(cx, node))
    if isinstance(res, P.Problem):
        _report(
            cx,
            node,
            res,
            _notes([tensor], pattern),
            OpSpec(
                "unpack", pattern, (tensor.shape,), (), (("packed_shapes", tuple(tuple(p) for p in packed_shapes)),)
            ),
        )
        return UNKNOWN
    return SeqV(
        tuple(
            tensor.with_shape(tuple(o), None, cx.origin(node, f"the einops unpack pattern {pattern!r}"))
            for o in res.outputs
        ),
        "list",
    )


# ------------------------------------------------------------------ einsum / parse_shape
@einops_function("einsum")
def einsum(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
    if dynamic or kwargs or not args:
        return UNKNOWN
    if isinstance(args[0], StrV) and len(args) > 1 and not isinstance(args[-1], StrV):
        cx.ctx.report(node, "SHP111", {"detail": D.EinsumPatternFirst(args[0].value)})
        return UNKNOWN
    pattern = _pattern(args[-1])
    if pattern is None:
        return UNKNOWN
    operands = args[:-1]
    problem = P.check_call("einsum", pattern, n_operands=len(operands))
    if problem is not None:
        _report(cx, node, problem)
        return UNKNOWN
    if not operands:
        return UNKNOWN
    if not all(isinstance(t, TensorV) and t.shape is not None for t in operands):
        t0 = next((t for t in operands if isinstance(t, TensorV)), None)
        lefts = pattern.split("->")[0].split(",")
        names: dict[str, Size] = {}
        filled: list[Value] = []
        for t, side in zip(operands, lefts):
            if isinstance(t, TensorV) and t.shape is not None:
                filled.append(t)
                continue
            if t is not UNKNOWN and not isinstance(t, TensorV):
                filled = []
                break
            synthetic = _shape_from_pattern(cx, side, {}, names, node)
            if synthetic is None:
                filled = []
                break
            filled.append(
                TensorV(
                    synthetic,
                    t.dtype if isinstance(t, TensorV) else None,
                    t.framework if isinstance(t, TensorV) else None,
                )
            )
        if len(filled) != len(operands) or len(lefts) != len(operands):
            cx.ctx.count("einops:unknown-input")
            return TensorV(None, t0.dtype if t0 else None, t0.framework if t0 else None)
        cx.ctx.count("einops:from-pattern")
        operands = filled
    ts = [t for t in operands if isinstance(t, TensorV)]
    res = P.infer("einsum", pattern, [t.shape for t in ts if t.shape is not None], fresh=_fresher(cx, node))
    return _result(
        cx,
        node,
        res,
        ts[0],
        pattern,
        ts,
        output_axes(pattern),
        OpSpec("einsum", pattern, tuple(t.shape for t in ts if t.shape is not None)),
    )


@einops_function("parse_shape")
def parse_shape(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
    x = args[0] if args else kwargs.get("x", UNKNOWN)
    pattern = _checked_pattern(cx, node, "parse_shape", args[1] if len(args) > 1 else kwargs.get("pattern", UNKNOWN))
    if pattern is None:
        return UNKNOWN
    if not isinstance(x, TensorV) or x.shape is None:
        return UNKNOWN
    res = P.infer("parse_shape", pattern, [x.shape], fresh=_fresher(cx, node))
    if isinstance(res, P.Problem):
        _report(cx, node, res, _notes([x], pattern), OpSpec("parse_shape", pattern, (x.shape,)))
        return UNKNOWN
    names = [t for t in pattern.split() if t not in ("_", "...", "…") and _IDENT.fullmatch(t)]
    return DictV(tuple((n, IntV(res.axes[n])) for n in names if n in res.axes))


# ------------------------------------------------------------------ layers
def _flax_layer(
    cx: OpContext,
    interp: "Interpreter",
    node: cst.Call,
    op: str,
    args: list[Value],
    kwargs: dict[str, Value],
    dynamic: bool,
) -> Value:
    """``einops.layers.flax``: dataclass modules whose axis lengths are one ``sizes`` dict, not keywords.

    ``Rearrange(pattern, sizes)``, ``Reduce(pattern, reduction, sizes)``, ``EinMix(pattern, weight_shape,
    bias_shape, sizes)`` (each layer rule's ``flax_fields``); ``name`` and ``parent`` are flax's own fields. Lengths a dict literal or ``dict(...)``
    does not spell out make the layer's axis names unknown (as ``**lengths`` does for the other frameworks).
    """
    rule = EINOPS_LAYERS[op]
    fields = rule.flax_fields
    if len(args) > len(fields) or any(k not in fields and k not in ("name", "parent") for k in kwargs):
        return UNKNOWN  # not a signature flax accepts (or a *args/**kwargs spread we cannot place): unknown
    sizes_at = fields.index("sizes")
    sizes_node: cst.BaseExpression | None = None
    positional = [a for a in node.args if a.keyword is None]
    if len(positional) > sizes_at:
        sizes_node = positional[sizes_at].value
    for a in node.args:
        if a.keyword is not None and a.keyword.value == "sizes":
            sizes_node = a.value
    lengths = {} if sizes_node is None else _literal_dict(cx, interp, sizes_node)
    plain_args = list(args[:sizes_at])
    plain_kwargs = {k: v for k, v in kwargs.items() if k in fields[:sizes_at]}
    if lengths is None or dynamic:
        return rule.build(cx, node, op, plain_args, plain_kwargs, True)
    return rule.build(cx, node, op, plain_args, {**plain_kwargs, **lengths}, False)


def _literal_dict(cx: OpContext, interp: "Interpreter", expr: cst.BaseExpression) -> dict[str, Value] | None:
    """``{"p1": 16}`` or ``dict(p1=16)`` as str keys -> values; None for anything else (a name, ``**extra``...)."""

    out: dict[str, Value] = {}
    if type(expr) is cst.Dict:
        for el in expr.elements:
            key = literal_str(el.key) if type(el) is cst.DictElement else None
            if key is None:
                return None
            out[key] = interp.eval(el.value)
        return out
    if (
        type(expr) is cst.Call
        and type(expr.func) is cst.Name
        and expr.func.value == "dict"
        and cx.is_builtin(interp, "dict")
    ):
        for a in expr.args:
            if a.keyword is None or a.star:
                return None
            out[a.keyword.value] = interp.eval(a.value)
        return out
    return None


class Transform:
    """``Rearrange(pattern, **lengths)`` / ``Reduce(pattern, reduction, **lengths)``: the pattern is checked when the
    layer is built, and applied (as ``rearrange`` / ``reduce``) when it is called."""

    @staticmethod
    def build(
        cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value], dynamic: bool
    ) -> Value:
        pattern = _pattern(args[0] if args else kwargs.get("pattern", UNKNOWN))
        if pattern is None:
            return UNKNOWN
        kind = "layer_rearrange" if name == "Rearrange" else "layer_reduce"
        reduction, is_callable = (None, False)
        if name == "Reduce":
            reduction, is_callable = _reduction(args[1] if len(args) > 1 else kwargs.get("reduction", UNKNOWN))
        lengths = _lengths(cx, node, kwargs, ("pattern", "reduction"))
        axes_names = _identifiers(pattern) if dynamic else tuple(lengths)
        problem = P.check_call(
            kind, pattern, reduction=reduction, reduction_is_callable=is_callable, axes_names=axes_names
        )
        if problem is not None:
            _report(cx, node, problem)
            return UNKNOWN
        return LayerV(
            name,
            (
                ("pattern", pattern),
                ("reduction", reduction if not is_callable else _opaque_reduction),
                ("lengths", tuple(lengths.items())),
                ("dynamic", dynamic),
            ),
            node,
        )

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if layer.param("dynamic"):
            return TensorV(None, x.dtype, x.framework)
        pattern = layer.param("pattern")
        if pattern is None:
            return x.with_shape(None)
        lengths = dict(layer.param("lengths", ()))
        ellipsis: Size | None = None
        made_up = False
        if x.shape is None and x.vshape is not None and MAKE_UP_INPUTS:
            # a tensor of unknown rank with known leading / trailing axes (``(..., d)``, what a LayerNorm or a
            # Linear returns): the input is made up from the pattern around those axes, as einops.rearrange does
            synthetic, ellipsis = _partial_input(cx, x, pattern, lengths, report_node)
            if synthetic is None:
                return x.with_shape(None)
            x, made_up = x.with_shape(_may_be_empty(synthetic, x.vshape, lengths, ellipsis)), True
            cx.ctx.count("einops:from-pattern")
        if x.shape is None:
            return x.with_shape(None)
        kind = "rearrange" if layer.kind == "Rearrange" else "reduce"
        res = P.infer(
            kind,
            pattern,
            [x.shape],
            axes_lengths=lengths,
            reduction=layer.param("reduction"),
            fresh=_fresher(cx, report_node),
        )
        red = layer.param("reduction")
        spec = OpSpec(
            kind,
            pattern,
            (x.shape,),
            tuple(lengths.items()),
            (("reduction", red if isinstance(red, str) or red is None else "callable"), ("stacked", False)),
        )
        out = _result(cx, report_node, res, x, pattern, [x], output_axes(pattern), spec)
        if made_up and isinstance(out, TensorV):
            out = out.with_shape(out.shape, out.axes, MadeUp(out.origin))
            if ellipsis is not None and out.shape is not None:
                out = _variadic_output(cx, out, pattern, ellipsis)
        if kind == "reduce" and isinstance(out, TensorV):
            check_einops_reduction(
                cx.source, report_node, "einops Reduce layer", x, layer.param("reduction"), res, pattern
            )
        return out


@einops_layer("Rearrange")
class Rearrange(Transform):
    flax_fields = ("pattern", "sizes")


@einops_layer("Reduce")
class Reduce(Transform):
    flax_fields = ("pattern", "reduction", "sizes")


@einops_layer("EinMix")
class EinMix:
    """``EinMix(pattern, weight_shape, bias_shape=None, **lengths)``: the pattern and the weight are checked when the
    layer is built; the output shape of a call is not modelled yet."""

    flax_fields = ("pattern", "weight_shape", "bias_shape", "sizes")

    @staticmethod
    def build(
        cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value], dynamic: bool
    ) -> Value:
        pattern = _pattern(args[0] if args else kwargs.get("pattern", UNKNOWN))
        if pattern is None:
            return UNKNOWN
        weight = _pattern(args[1] if len(args) > 1 else kwargs.get("weight_shape", UNKNOWN))
        bias_v = args[2] if len(args) > 2 else kwargs.get("bias_shape", None)
        bias = _pattern(bias_v) if bias_v is not None else None
        if weight is None or (bias_v is not None and bias is None and not isinstance(bias_v, type(None))):
            return LayerV("EinMix", (("pattern", pattern),), node)
        lengths = _lengths(cx, node, kwargs, ("pattern", "weight_shape", "bias_shape"))
        if not dynamic:
            problem = P.check_call("einmix", pattern, weight_shape=weight, bias_shape=bias, axes_names=tuple(lengths))
            if problem is not None:
                _report(cx, node, problem)
                return UNKNOWN
        return LayerV(
            "EinMix",
            (
                ("pattern", pattern),
                ("weight_shape", weight),
                ("lengths", tuple(lengths.items())),
                ("dynamic", dynamic),
            ),
            node,
        )

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if layer.param("dynamic"):
            return TensorV(None, x.dtype, x.framework)
        return x.with_shape(None)  # the mixing weight is validated at construction; output shape not modelled yet
