"""``torch.nn`` layers: Linear, LayerNorm, Conv*d, Embedding, Flatten, activations and Sequential chains.

Each layer kind is one class registered with ``@register_layer(kind, *class names)``: ``build`` reads the
constructor call ``nn.Name(...)`` into a LayerV of that kind, ``apply`` is the layer called on a tensor.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

import libcst as cst

from ...diagnostics import details as D
from ...sizes import Size, Truth, divisible, equal, greater_equal, product
from ..interpret.context import LazyNote, OpSpec, Pending, note
from ..interpret.values import (
    UNKNOWN,
    exact_values,
    BoolV,
    DictV,
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
)

if TYPE_CHECKING:
    from ..interpret.interpreter import Interpreter

from .ops_common import (
    SAME_SHAPE,
    broadcast_shapes,
    layout_axes,
    time_major_output,
    _ints,
)
from . import shape_ops
from .registry import FUNCTIONS, LAYER_KINDS, LAYERS, OpContext, layer as register_layer


# the torch.nn module classes the analysis builds, each with its bases in torch.nn (but nn.Module, every one's):
# ``isinstance(m, nn.modules.batchnorm._BatchNorm)`` of a layer built as nn.BatchNorm2d holds
TORCH_NN_ANCESTORS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d"), ("_AdaptiveAvgPoolNd",)),
    **dict.fromkeys(("AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d"), ("_AdaptiveMaxPoolNd",)),
    **dict.fromkeys(("AlphaDropout", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d"), ("_DropoutNd",)),
    **dict.fromkeys(("AvgPool1d", "AvgPool2d", "AvgPool3d"), ("_AvgPoolNd",)),
    **dict.fromkeys(("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm"), ("_BatchNorm", "_NormBase")),
    **dict.fromkeys(
        (
            "CELU",
            "ELU",
            "Embedding",
            "EmbeddingBag",
            "Flatten",
            "GELU",
            "GLU",
            "GroupNorm",
            "Hardsigmoid",
            "Hardswish",
            "Hardtanh",
            "Identity",
            "LayerNorm",
            "LeakyReLU",
            "Linear",
            "LogSoftmax",
            "Mish",
            "ModuleDict",
            "ModuleList",
            "MultiheadAttention",
            "PReLU",
            "ParameterList",
            "PixelShuffle",
            "PixelUnshuffle",
            "RMSNorm",
            "ReLU",
            "SELU",
            "Sequential",
            "SiLU",
            "Sigmoid",
            "Softmax",
            "Softmin",
            "Softplus",
            "Softsign",
            "Tanh",
            "Tanhshrink",
            "TransformerDecoder",
            "TransformerDecoderLayer",
            "TransformerEncoder",
            "TransformerEncoderLayer",
            "Unfold",
            "Upsample",
        ),
        (),
    ),
    **dict.fromkeys(("CircularPad1d", "CircularPad2d", "CircularPad3d"), ("_CircularPadNd",)),
    **dict.fromkeys(("ConstantPad1d", "ConstantPad2d", "ConstantPad3d"), ("_ConstantPadNd",)),
    **dict.fromkeys(("Conv1d", "Conv2d", "Conv3d"), ("_ConvNd",)),
    **dict.fromkeys(("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"), ("_ConvTransposeNd", "_ConvNd")),
    **dict.fromkeys(("CrossEntropyLoss", "NLLLoss"), ("_WeightedLoss", "_Loss")),
    **dict.fromkeys(("GRU", "LSTM", "RNN"), ("RNNBase",)),
    **dict.fromkeys(("GRUCell", "LSTMCell", "RNNCell"), ("RNNCellBase",)),
    **dict.fromkeys(("HuberLoss", "L1Loss", "MSELoss", "SmoothL1Loss", "KLDivLoss"), ("_Loss",)),
    **dict.fromkeys(("InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"), ("_InstanceNorm", "_NormBase")),
    **dict.fromkeys(("LazyBatchNorm2d",), ("_LazyNormBase", "LazyModuleMixin", "_BatchNorm", "_NormBase")),
    **dict.fromkeys(("MaxPool1d", "MaxPool2d", "MaxPool3d"), ("_MaxPoolNd",)),
    **dict.fromkeys(("ReLU6",), ("Hardtanh",)),
    **dict.fromkeys(("ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d"), ("_ReflectionPadNd",)),
    **dict.fromkeys(("ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d"), ("_ReplicationPadNd",)),
    **dict.fromkeys(("UpsamplingBilinear2d", "UpsamplingNearest2d"), ("Upsample",)),
    **dict.fromkeys(("ZeroPad1d",), ("ConstantPad1d", "_ConstantPadNd")),
    **dict.fromkeys(("ZeroPad2d",), ("ConstantPad2d", "_ConstantPadNd")),
    **dict.fromkeys(("ZeroPad3d",), ("ConstantPad3d", "_ConstantPadNd")),
}


def torch_nn_direct_base(name: str) -> str | None:
    """The one direct base of the torch.nn class ``name`` (``Conv2d.__bases__ == (_ConvNd,)``, ``Linear``'s: Module),
    from the table above, whose first entry is the direct base; None for a class not in it or with several direct
    bases (the lazy layers)."""
    if name not in TORCH_NN_ANCESTORS or name.startswith("Lazy"):
        return None
    ancestors = TORCH_NN_ANCESTORS[name]
    return ancestors[0] if ancestors else "Module"


def torch_nn_known_class(name: str) -> bool:
    """``name`` is a torch.nn class the table knows: one of its classes, one of their bases, or Module."""
    return name == "Module" or name in TORCH_NN_ANCESTORS or any(name in a for a in TORCH_NN_ANCESTORS.values())


def layer(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nn.Name(*args)``: the layer value its registered rule builds (unknown for a class without one)."""
    rule = LAYERS.get(name)
    if rule is None:
        return UNKNOWN
    return _noted_build(cx, node, name, rule.build(cx, node, name, args, kwargs))


def _noted_build(cx: OpContext, node: cst.Call, name: str, out: Value) -> Value:
    """``out`` (a layer just built by the call ``node``) noting where it was made, when nothing noted it yet: the
    findings of its calls name that line (a constructor that stores it names its own line instead)."""
    if isinstance(out, LayerV) and out.built is None:
        from ..interpret.context import BuiltNote, Where
        from ..interpret.objects import construction_chain

        parts = (f"the {name} was built at ", Where(cx.source, node), *construction_chain())
        out = replace(out, built=BuiltNote(parts, named=False))
    return out


# where a context's findings stood: (its pending list, its length), (its inline findings, their length)
Marks = tuple[tuple[list[Pending], int], tuple[list[Pending], int]]


def _mark(ctx: Any) -> Marks:
    return ((ctx.pending, len(ctx.pending)), (ctx.inline_findings, len(ctx.inline_findings)))


def _amend_since(marks: Marks, amend: Callable[[Pending], "Pending | None"]) -> None:
    """Each finding made since ``marks`` replaced by what ``amend`` makes of it (None: left as it is)."""
    for lst, start in marks:
        for i in range(start, len(lst)):
            new = amend(lst[i])
            if new is not None:
                lst[i] = new


def apply_layer(
    cx: OpContext,
    interp: "Interpreter",
    node: cst.Call,
    layer: LayerV,
    args: list[Value],
    kwargs: dict[str, Value],
    in_sequential: bool = False,
    at_call: bool = False,
) -> Value:
    """``layer(x)``: the rule registered for the layer's kind (torch.nn here, einops in einops_calls.py, Keras / Flax
    in frameworks.py); a Keras layer under a dtype policy casts around it. ``in_sequential``: a link of a chain,
    reported on the line that built it; ``at_call``: a link of a chain another module built, reported at the call
    (its line is in that module's file). A definite finding of a layer a constructor stored (``self.dec1``) names the
    line that stored it: the sizes to fix were asked for there."""
    from ..interpret import hooks

    built = layer.built
    if built is None or in_sequential or getattr(node, "func", None) is layer.line_node:  # ``nn.Linear(3, 4)(x)``
        out = _apply_layer(cx, interp, node, layer, args, kwargs, in_sequential, at_call)
    else:
        marks = _mark(cx.ctx)
        out = _apply_layer(cx, interp, node, layer, args, kwargs, in_sequential, at_call)
        _amend_since(
            marks,
            lambda p: (
                replace(p, notes=p.notes + (built,))
                if p.code.startswith(("SHP1", "SHP2")) and built not in p.notes
                else None
            ),
        )
    if hooks.STATE.watched:
        hooks.returned(layer, out)  # (a forward hook that captures what it returns: hooks.py)
    return out


# flax linen normalisations whose call takes a ``mask`` of the entries the statistics are taken over (it is
# broadcast with the input)
_MASKED_NORMS = frozenset({"LayerNorm", "RMSNorm", "GroupNorm"})


def _mask_fits(cx: OpContext, node: cst.CSTNode, x: TensorV, mask: TensorV) -> bool:
    """``nn.LayerNorm()(x, mask=mask)``: the mask broadcasts with the input (``jnp.mean(x, where=mask)``); a mask
    that cannot (a (batch, points) mask against (batch, points, features) activations) is a finding. False then."""
    assert x.shape is not None and mask.shape is not None
    _, bad = broadcast_shapes(x.shape, mask.shape)
    if bad is None:
        return True
    i, a, b = bad
    rank = max(len(x.shape), len(mask.shape))
    cx.ctx.report(
        node,
        "SHP204",
        {"op": "mask", "detail": D.Broadcast(x.shape, mask.shape, rank - i, a, b)},
        cx.origins([x, mask]),
        spec=OpSpec("elementwise", None, (x.shape, mask.shape), (), (("name", "mask"),)),
    )
    return False


def _apply_layer(
    cx: OpContext,
    interp: "Interpreter",
    node: cst.Call,
    layer: LayerV,
    args: list[Value],
    kwargs: dict[str, Value],
    in_sequential: bool,
    at_call: bool,
) -> Value:
    if layer.kind == "either":  # one of several layers (``if glu: proj = ... else: proj = ...``): each runs
        return cx.call_either(interp, node, layer, args, kwargs)
    if layer.param("compute_dtype") is not None:  # a Keras layer under a dtype policy (frameworks.py)
        from . import frameworks

        return frameworks.apply_with_policy(cx, interp, node, layer, args, kwargs, in_sequential and not at_call)
    if layer.kind in ("fw:LinenCell", "fw:LinenRNN", "fw:HaikuCore"):  # cell(carry, x), nn.RNN(cell)(x), core(x, s)
        from . import frameworks

        if layer.kind == "fw:LinenRNN":
            return frameworks.apply_linen_rnn(cx, node, layer, args, kwargs)
        report_at = layer.line_node if in_sequential and layer.line_node is not None and not at_call else node
        step = frameworks.apply_haiku_core if layer.kind == "fw:HaikuCore" else frameworks.apply_linen_cell
        return step(cx, node, report_at, layer, args, kwargs)
    from ..interpret.paths import branching, each_path

    if branching(args) is not None:
        # an input whose shape differs between the paths that made it (the batches a generator yields, its last one
        # shorter): the layer runs once per path, what fails on every path is reported, the results are joined
        out = each_path(
            cx.ctx, list(args), lambda a: apply_layer(cx, interp, node, layer, a, kwargs, in_sequential, at_call)
        )
        return out if out is not None else UNKNOWN
    x = args[0] if args else UNKNOWN
    if not args and layer.kind == "TransformerBlock":  # encoder(src=x), decoder(tgt=y, memory=m)
        x = kwargs.get("src", kwargs.get("tgt", UNKNOWN))
    if not args and layer.kind == "MultiheadAttention":  # attn(query=q, key=k, value=v, key_padding_mask=m)
        x = kwargs.get("query", UNKNOWN)
    report_node: cst.CSTNode = (
        layer.line_node if in_sequential and layer.line_node is not None and not at_call else node
    )
    if not in_sequential:
        cx.ctx.note_evidence(node, "layer", x if isinstance(x, TensorV) else None)
    if (
        x is UNKNOWN
        and len(args) == 1
        and not kwargs
        and (
            layer.kind == "Linear"
            or _sets_trailing_axes(layer)
            or _conv_sets_channels(layer)
            or _fixes_trailing_axes(layer)
        )
    ):
        # what nn.Linear returns is a tensor whose last axis is out_features, nn.LayerNorm's ends in its shape, an
        # adaptive pool's in its output_size (an array of the layer's library: flax.nnx's are JAX's)
        x = TensorV(None, None, layer.param("framework", "torch"))
    if x is UNKNOWN and layer.kind == "Sequential" and len(args) == 1 and not kwargs:
        return _unknown_into_chain(cx, interp, node, layer)
    if isinstance(x, LayerV) and x.kind == "PackedSequence" and layer.kind == "RNN":
        return _rnn_on_packed(cx, interp, node, report_node, layer, x)
    if layer.kind == "Sequential" and x is not UNKNOWN and not isinstance(x, TensorV) and len(args) == 1 and not kwargs:
        return _chain_of_modules(cx, interp, node, layer, x)
    if not isinstance(x, TensorV):
        return UNKNOWN
    if layer.kind == "MultiheadAttention" and x.shape is not None:
        return apply_mha(cx, report_node, layer, args, kwargs)  # query, key and value
    if layer.kind == "Elementwise" and layer.param("name") in _MASKED_NORMS and x.shape is not None:
        mask = kwargs.get("mask")
        if isinstance(mask, TensorV) and mask.shape is not None and not _mask_fits(cx, report_node, x, mask):
            return x.with_shape(None)
    if layer.kind == "fw:LinenAttention" and x.shape is not None:
        from .frameworks import linen_attention_mask

        if not linen_attention_mask(cx, report_node, layer, x, args, kwargs):
            return x.with_shape(None)
    if layer.kind == "fw:HaikuMHA" and x.shape is not None:
        # haiku's attention: ``mha(query, key, value, mask=None)``, a mask of the logits' rank (query's + 1) or it raises
        mask = args[3] if len(args) > 3 else kwargs.get("mask")
        if isinstance(mask, TensorV) and mask.shape is not None and len(mask.shape) != len(x.shape) + 1:
            k = args[1] if len(args) > 1 and isinstance(args[1], TensorV) else x
            v = args[2] if len(args) > 2 and isinstance(args[2], TensorV) else k
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": "hk.MultiHeadAttention",
                    "detail": D.AttentionMismatch(
                        "mask-rank", mask.shape, len(x.shape) + 1, x.shape, k.shape or (), v.shape or ()
                    ),
                },
                cx.origins([x, mask]),
                spec=OpSpec("haiku.mha.mask", None, (x.shape, mask.shape)),
            )
            return x.with_shape(None)
    if layer.kind == "EqxMHA":
        from .jax_ops import apply_eqx_mha

        return apply_eqx_mha(cx, interp, node, report_node, layer, args, kwargs)
    if layer.kind == "EqxRoPE":
        from .jax_ops import apply_eqx_rope

        return apply_eqx_rope(cx, report_node, layer, args, kwargs)
    rule = LAYER_KINDS.get(layer.kind)
    if rule is None:
        return x.with_shape(None)
    if layer.kind == "EmbeddingBag" and x.shape is not None and len(x.shape) == 1:
        return _embedding_bags(layer, x, args, kwargs)
    if layer.kind == "Loss":
        return _apply_loss(cx, node, layer, args, kwargs)
    if layer.kind == "ClassLoss":
        return _apply_class_loss(cx, node, layer, args, kwargs)
    if layer.kind == "RNNCell" and _hidden_state_fails(cx, report_node, layer, args, kwargs):
        return UNKNOWN
    if layer.kind == "RNN" and _initial_state_fails(cx, report_node, layer, x, args, kwargs):
        return UNKNOWN
    if layer.kind == "TransposedConv" and (len(args) > 1 or kwargs):  # up(x, output_size=...): sizes it chooses
        layer = replace(layer, params=tuple((k, None if k == "k" else v) for k, v in layer.params))
    if layer.kind == "TransformerBlock" and layer.param("name") == "Transformer":
        # nn.Transformer()(src, tgt, ...): both of d_model features; the decoder's output has tgt's shape
        tgt = args[1] if len(args) > 1 else kwargs.get("tgt")
        if not isinstance(tgt, TensorV):
            return x.with_shape(None)
        src = rule(cx, interp, node, report_node, layer, x)
        if not isinstance(src, TensorV) or src.shape is None:
            return x.with_shape(None)  # (src of another width reported: the call raises there, tgt is not read)
        out = rule(cx, interp, node, report_node, layer, tgt)
        return (
            out.with_shape(out.shape, None, cx.origin(node, "the Transformer layer"))
            if isinstance(out, TensorV) and out.shape is not None
            else out
        )
    if layer.kind == "TransformerBlock" and (len(args) > 1 or kwargs):
        if _transformer_masks_fail(cx, report_node, layer, x, args, kwargs):
            return x.with_shape(None)
    out = rule(cx, interp, node, report_node, layer, x)
    # a shape the layer made (changed, or re-created from its own sizes: a norm layer, a Linear(d, d)) was made
    # here, not where its input was: notes name the layer's call. An activation or dropout passes its input on.
    name = layer.param("name")
    shown = name if isinstance(name, str) else layer.kind.split(":")[-1].removeprefix("Flax")  # fw:FlaxConv: Conv
    res = _made_here(out, x, _layer_origin(cx, node, shown, layer, x), 0, layer.kind not in _PASS_ON)
    if (
        layer.kind == "RNN"
        and layer.param("batch_first") is False
        and x.shape is not None
        and len(x.shape) == 3
        and x.shape[1].as_int() != 1
        and isinstance(res, SeqV)
        and res.items
        and isinstance(res.items[0], TensorV)
    ):
        # a (seq, batch, features) output: SHP403 where the code takes its axis 1 for time (ops_common)
        time_major_output(res.items[0], report_node, f"nn.{shown}", cx.ctx)
    return res


_PASS_ON = frozenset({"Elementwise", "Sequential"})  # a chain's own layers name themselves


def _layer_origin(cx: OpContext, node: cst.CSTNode, shown: str, layer: LayerV, x: TensorV) -> object:
    """``from the Linear layer at f.py:64 (built at f.py:35), of cat(...) at f.py:28``: the call that made an output,
    the line that built the layer when it is another (its sizes were chosen there), and, one step back, where its
    input was made (the axes the layer keeps come from there)."""
    from ..interpret.context import Where

    origin = cx.origin(node, f"the {shown} layer").made_from(x.origin)
    built = layer.built
    where = next((p for p in built.parts if type(p) is Where), None) if built is not None else None
    return replace(origin, built=where) if where is not None else origin


def _made_here(v: Value, x: TensorV, origin: object, depth: int, remade: bool = False) -> Value:
    if isinstance(v, TensorV):
        # (a rule that made a new tensor with no origin of its own, an embedding lookup: made by this call too)
        if (v.origin is x.origin or v.origin is None) and v.shape is not None and (remade or v.shape != x.shape):
            return v.with_shape(v.shape, v.axes, origin)
        return v
    if isinstance(v, SeqV) and depth < 2:
        return SeqV(tuple(_made_here(i, x, origin, depth + 1, remade) for i in v.items), v.kind)
    return v


def _divides(
    cx: OpContext, node: cst.Call, layer: str, value: tuple[str, Size | None], by: tuple[str, Size | None]
) -> bool:
    """A constructor's check that one size divides another (``nn.GroupNorm``: num_channels by num_groups): False,
    after an SHP204 on the constructor call, when it fails for every value of the symbols involved."""
    v, d = value[1], by[1]
    if v is None or d is None or divisible(v, d) is not Truth.FALSE:
        return True
    cx.ctx.report(
        node,
        "SHP204",
        {"op": layer, "detail": D.LayerArguments(layer, value[0], v, by[0], d)},
        spec=OpSpec("layer.arguments", None, (), (), (("layer", layer), ("value", v), ("by", d))),
    )
    return False


def _size_arg(args: list[Value], kwargs: dict[str, Value], i: int, kw: str) -> Size | None:
    v = args[i] if len(args) > i else kwargs.get(kw)
    return v.size if isinstance(v, IntV) else None


class LayerKind:
    """Defaults of a layer rule: a constructor that makes no layer, and an output of unknown shape."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return UNKNOWN

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        return x.with_shape(None)


@register_layer("Linear")
class Linear(LayerKind):
    """``nn.Linear(in_features, out_features)``: (*, in) -> (*, out)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        bias = args[2] if len(args) > 2 else kwargs.get("bias")
        # ``bias=False``: the layer's ``bias`` attribute is None (``if self.proj.bias is not None`` decided)
        no_bias = (("bias", False),) if isinstance(bias, BoolV) and bias.value is False else ()
        return LayerV(
            "Linear",
            (("in", _size_arg(args, kwargs, 0, "in_features")), ("out", _size_arg(args, kwargs, 1, "out_features")))
            + no_bias,
            node,
        )

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None:
            return _apply_unranked(cx, report_node, layer, x)
        fin, fout = layer.param("in"), layer.param("out")
        if not x.shape:
            return x.with_shape(None)
        if layer.param("lib") == "equinox" and len(x.shape) >= 2:
            return _equinox_linear_batch(cx, report_node, layer, x)
        if fin is not None and fin.as_int() == 0 and x.shape[-1].as_int() is None:
            # a zero-width layer (``nn.Linear(condition_dim, ...)`` with the option off, 0) takes a zero-width input:
            # a size not known may be that 0
            return x.with_shape(x.shape[:-1] + (fout if fout is not None else cx.fresh("out"),))
        if fin is not None and equal(x.shape[-1], fin) is Truth.FALSE:
            # named as the code builds it: eqx.nn.MLP(in_size=...) is a chain of equinox Linear layers
            mlp = layer.param("name") == "MLP"
            lib = "eqx.nn." if layer.param("lib") == "equinox" else "nn."
            cls, param = ("MLP", "in_size") if mlp else ("Linear", "in_features")
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": lib + cls,
                    "detail": D.LayerInput(cls, param, fin, "last-axis", x.shape[-1], x.shape),
                },
                cx.origins([x]),
                spec=OpSpec("nn.Linear", None, (x.shape,), (), (("in_features", fin), ("out_features", fout))),
            )
            return x.with_shape(None)
        return x.with_shape(x.shape[:-1] + (fout if fout is not None else cx.fresh("out_features"),), _lead_axes(x))


def _equinox_linear_batch(cx: OpContext, report_node: cst.CSTNode, layer: LayerV, x: TensorV) -> Value:
    """An equinox Linear (or the first Linear of an MLP) given more than one axis: it computes ``weight @ x``, so it
    contracts ``in_features`` against the input's axis -2 (not its last), then adds the bias, (out,), to the
    (..., out, b) product. Reported when axis -2 surely differs from ``in_features``, or when the bias surely cannot
    broadcast against the last axis; what fits: (..., out, out) with a bias and b in {out, 1}, (..., out, b) without
    one. An MLP's result, or anything not decided: unknown (rank kept unknown)."""
    assert x.shape is not None
    fin, fout = layer.param("in"), layer.param("out")
    mlp = layer.param("name") == "MLP"
    a, b = x.shape[-2], x.shape[-1]
    bias = layer.param("bias", True) is not False
    bad = fin is not None and equal(a, fin) is Truth.FALSE
    broadcast_bad = (
        not mlp
        and not bad
        and bias
        and fin is not None
        and fout is not None
        and equal(a, fin) is Truth.TRUE
        and equal(b, fout) is Truth.FALSE
        and b.as_int() != 1
        and fout.as_int() != 1
        and b.as_int() is not None
        and fout.as_int() is not None
    )
    if bad or broadcast_bad:
        cls, param = ("MLP", "in_size") if mlp else ("Linear", "in_features")
        cx.ctx.report(
            report_node,
            "SHP204",
            {"op": "eqx.nn." + cls, "detail": D.LayerInput(cls, param, fin, "vector", a, x.shape)},
            cx.origins([x]),
            spec=OpSpec(
                "eqx.nn.Linear",
                None,
                (x.shape,),
                (),
                (("in_features", fin), ("out_features", fout), ("use_bias", bias), ("mlp", mlp)),
            ),
        )
        return x.with_shape(None)
    if mlp or fin is None or fout is None or equal(a, fin) is not Truth.TRUE:
        return TensorV(None, x.dtype, x.framework)
    if not bias:
        return x.with_shape(x.shape[:-2] + (fout, b))
    if equal(b, fout) is Truth.TRUE or b.as_int() == 1:
        return x.with_shape(x.shape[:-2] + (fout, fout))
    return TensorV(None, x.dtype, x.framework)


def _lead_axes(x: TensorV) -> tuple[str | None, ...] | None:
    """The axis names a layer that replaces only the last axis keeps (``nn.Linear``, an RNN's output): the others'
    (a time-major ``t b h`` stays ``t b`` in front, so SHP401 sees it against a batch-first ``b t v``)."""
    axes = x.axes
    if not axes or x.shape is None or len(axes) != len(x.shape) or all(a is None for a in axes[:-1]):
        return None
    return axes[:-1] + (None,)


@register_layer("LayerNorm", "LayerNorm", "RMSNorm")
class LayerNorm(LayerKind):
    """``nn.LayerNorm(normalized_shape)`` / ``nn.RMSNorm``: the input's trailing axes must be ``normalized_shape``."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        v = args[0] if args else kwargs.get("normalized_shape")
        if name == "RMSNorm":
            rms: tuple[Size, ...] | None = None
            if isinstance(v, IntV):
                rms = (v.size,)
            elif isinstance(v, SeqV) and all(isinstance(x, IntV) for x in v.items):
                rms = tuple(x.size for x in v.items if isinstance(x, IntV))
            if isinstance(v, IntV) and v.assumed:
                return LayerV("LayerNorm", (("shape", rms), ("name", "RMSNorm"), ("assumed", True)), node)
            return LayerV("LayerNorm", (("shape", rms), ("name", "RMSNorm")), node)
        shape = (
            tuple(x.size for x in v.items if isinstance(x, IntV))
            if isinstance(v, SeqV) and all(isinstance(x, IntV) for x in v.items)
            else ((v.size,) if isinstance(v, IntV) else None)
        )
        if isinstance(v, IntV) and v.assumed:
            # a constructor parameter taken for a size may be a tuple: the number of normalised axes is not known
            return LayerV("LayerNorm", (("shape", shape), ("assumed", True)), node)
        affine = kwargs.get("elementwise_affine", BoolV(True))
        if not (isinstance(affine, BoolV) and affine.value is True) or len(args) > 2:
            return LayerV("LayerNorm", (("shape", shape), ("affine", None)), node)  # its weight: None, or not known
        return LayerV("LayerNorm", (("shape", shape),), node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None:
            return _apply_unranked(cx, report_node, layer, x)
        shape = layer.param("shape")
        if shape is not None and layer.param("lib") == "equinox":
            if len(shape) == len(x.shape) and all(equal(a, b) is not Truth.FALSE for a, b in zip(x.shape, shape)):
                return x
            name = str(layer.param("name") or "LayerNorm")
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": f"eqx.nn.{name}",
                    "detail": D.LayerInput(name, "", tuple(shape), "shape", None, x.shape, exact=True),
                },
                cx.origins([x]),
                spec=OpSpec("eqx.nn.LayerNorm", None, (x.shape,), (), (("shape", tuple(shape)), ("name", name))),
            )
            return x.with_shape(None)
        if shape is not None and len(shape) <= len(x.shape):
            tail = x.shape[len(x.shape) - len(shape) :]
            for a, b in zip(tail, shape):
                if equal(a, b) is Truth.FALSE:
                    cx.ctx.report(
                        report_node,
                        "SHP204",
                        {
                            "op": "nn.LayerNorm",
                            "detail": D.LayerInput("LayerNorm", "", tuple(shape), "shape", None, x.shape),
                        },
                        cx.origins([x]),
                        spec=OpSpec("nn.LayerNorm", None, (x.shape,), (), (("normalized_shape", tuple(shape)),)),
                    )
                    return x.with_shape(None)
        return x


def _conv_tuple(v: Value | None, default: int) -> tuple[int, ...] | None:
    if v is None:
        return (default,)
    if isinstance(v, IntV) and v.size.as_int() is not None:
        return (v.size.as_int(),)  # type: ignore[return-value]
    if isinstance(v, SeqV):
        return tuple(_ints(v.items) or ()) or None
    return None


def _padding_pairs(v: Value | None) -> tuple[tuple[int, int], ...] | None:
    """equinox's ``padding=[(lo, hi), ...]``: one pair of known ints per spatial axis (the padding before and after),
    or None."""
    if not isinstance(v, SeqV) or not v.items:
        return None
    out = []
    for item in v.items:
        pair = _ints(item.items) if isinstance(item, SeqV) and len(item.items) == 2 else None
        if pair is None:
            return None
        out.append((pair[0], pair[1]))
    return tuple(out)


# set while an equinox Conv is built through torch's rule (_equinox_layer): its constructor checks in_channels only
_EQUINOX_CONV = [False]


def _conv_groups(
    cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value], g_v: Value | None
) -> bool:
    """``nn.Conv{n}d`` / ``nn.ConvTranspose{n}d``'s constructor (torch's ``_ConvNd``) raises unless ``groups``
    divides both ``in_channels`` and ``out_channels`` (equinox's: ``in_channels`` only): False, after an SHP204 on
    the call, when one of them surely is not a multiple of ``groups``."""
    if not isinstance(g_v, IntV) or g_v.assumed:
        return True
    op = f"nn.{name}" if name != "TransposedConv" else "nn.ConvTranspose"
    # (equinox's Conv checks in_channels only: ``eqx.nn.Conv2d(64, 32, 3, groups=64)`` builds a (32, 1, 3, 3) weight)
    equinox = _EQUINOX_CONV[0]
    for i, kw in ((0, "in_channels"),) if equinox else ((0, "in_channels"), (1, "out_channels")):
        v = args[i] if len(args) > i else kwargs.get(kw)
        if isinstance(v, IntV) and not v.assumed and not _divides(cx, node, op, (kw, v.size), ("groups", g_v.size)):
            return False
    return True


def _conv_spec(layer: LayerV, shape: tuple[Size, ...]) -> OpSpec:
    """How ``--verify`` replays a ``nn.Conv{n}d`` call on an input of ``shape``."""
    sizes = (
        ("in_channels", "in"),
        ("out_channels", "out"),
        ("k", "k"),
        ("s", "s"),
        ("p", "p"),
        ("pt", "pt"),
        ("d", "d"),
    )
    return OpSpec(
        "nn.Conv", None, (shape,), (), (("n", layer.param("n")),) + tuple((k, layer.param(p)) for k, p in sizes)
    )


@register_layer("Conv1d")
@register_layer("Conv2d")
@register_layer("Conv3d")
class Conv(LayerKind):
    """``nn.Conv{n}d(in_channels, out_channels, kernel_size, stride, padding, dilation)``: (N?, C_in, *spatial)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        k = _conv_tuple(args[2] if len(args) > 2 else kwargs.get("kernel_size"), 1)
        s = _conv_tuple(args[3] if len(args) > 3 else kwargs.get("stride"), 1)
        p_v = args[4] if len(args) > 4 else kwargs.get("padding")
        pairs = _padding_pairs(p_v)
        p = None if isinstance(p_v, StrV) or pairs is not None else _conv_tuple(p_v, 0)
        # the padding added to each spatial axis in all (both sides): 2 * padding, or lo + hi of equinox's pairs
        pt = tuple(lo + hi for lo, hi in pairs) if pairs is not None else None
        if pairs is not None and all(lo == hi for lo, hi in pairs):
            p = tuple(lo for lo, _ in pairs)
        d = _conv_tuple(args[5] if len(args) > 5 else kwargs.get("dilation"), 1)
        g_v = args[6] if len(args) > 6 else kwargs.get("groups")
        if not _conv_groups(cx, node, name, args, kwargs, g_v):
            return UNKNOWN
        # groups, when known (the weight's second axis is in_channels // groups)
        g = 1 if g_v is None else g_v.size.as_int() if isinstance(g_v, IntV) and not g_v.assumed else None
        return LayerV(
            name,
            (
                ("in", _size_arg(args, kwargs, 0, "in_channels")),
                ("out", _size_arg(args, kwargs, 1, "out_channels")),
                ("k", k),
                ("s", s),
                ("p", p),
                ("pt", pt),
                ("d", d),
                ("n", int(name[4])),
                ("groups", g),
            ),
            node,
        )

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None:
            return _conv_ranked(cx, report_node, layer, x)
        n = layer.param("n")
        if len(x.shape) not in (n + 1, n + 2):
            if len(x.shape) < n + 1 or len(x.shape) > n + 2:
                _conv_rank_fails(cx, report_node, layer, x, len(x.shape), x.shape)
            return x.with_shape(None)
        c = x.shape[-n - 1]
        cin = layer.param("in")
        if cin is not None and equal(c, cin) is Truth.FALSE:
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": layer.param("fn") or f"nn.{layer.kind}",
                    "detail": D.LayerInput(layer.kind, "in_channels", cin, "channels", c, x.shape),
                },
                cx.origins([x]),
                spec=_conv_spec(layer, x.shape),
            )
            return x.with_shape(None)
        spatial = []
        k, s, p, d = (layer.param(key) for key in ("k", "s", "pt", "d"))
        if p is None and layer.param("p") is not None:
            p = tuple(2 * i for i in layer.param("p"))  # the padding added to an axis in all: both sides
        for i, size in enumerate(x.shape[-n:]):

            def pick(v: tuple[int, ...] | None, i: int = i) -> int | None:
                if v is None:
                    return None
                return v[0] if len(v) == 1 else (v[i] if i < len(v) else None)

            ki, si, pi, di = pick(k), pick(s), pick(p), pick(d)
            hv = size.as_int()
            if ki is None or si is None or pi is None or di is None:
                spatial.append(cx.fresh("h"))
                continue
            span = di * (ki - 1) + 1  # the positions a (dilated) kernel covers
            if hv is not None and hv + pi < span:
                # (nn.Conv2d(c, c, (8, 1)) over 4 time steps: torch's "Kernel size can't be greater than actual
                # input size")
                detail = D.KernelTooLarge(layer.kind, len(x.shape) - n + i, hv, hv + pi, span, x.shape)
                cx.ctx.report(
                    report_node,
                    "SHP204",
                    {"op": layer.param("fn") or f"nn.{layer.kind}", "detail": detail},
                    cx.origins([x]),
                    spec=_conv_spec(layer, x.shape),
                )
                return x.with_shape(None)
            if hv is not None:
                spatial.append(Size.const((hv + pi - span) // si + 1))
            elif si == 1 and span - 1 == pi:
                spatial.append(size)
            else:
                spatial.append(cx.fresh("h"))
        cout = layer.param("out")
        shape = x.shape[: -n - 1] + (cout if cout is not None else cx.fresh("c"),) + tuple(spatial)
        return x.with_shape(shape, layout_axes(x.axes, len(shape), n, spatial_kernel=_spatial_kernel(k)))


@register_layer("TransposedConv", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")
class TransposedConv(LayerKind):
    """``nn.ConvTranspose{n}d(in_channels, out_channels, ...)``: the channels are checked, the spatial sizes fresh."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        def arg(i: int, kw: str, default: int) -> tuple[int, ...] | None:
            return _conv_tuple(args[i] if len(args) > i else kwargs.get(kw), default)

        if not _conv_groups(cx, node, name, args, kwargs, args[6] if len(args) > 6 else kwargs.get("groups")):
            return UNKNOWN

        return LayerV(
            "TransposedConv",
            (
                ("in", _size_arg(args, kwargs, 0, "in_channels")),
                ("out", _size_arg(args, kwargs, 1, "out_channels")),
                ("n", int(name[-2])),
                # kernel_size, stride, padding, output_padding, dilation (positions 2-5 and 8)
                ("k", arg(2, "kernel_size", 1)),
                ("s", arg(3, "stride", 1)),
                ("p", arg(4, "padding", 0)),
                ("op", arg(5, "output_padding", 0)),
                ("d", arg(8, "dilation", 1)),
            ),
            node,
        )

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None:
            return x.with_shape(None)
        n, cin, cout = layer.param("n"), layer.param("in"), layer.param("out")
        if len(x.shape) in (n + 1, n + 2) and cin is not None and equal(x.shape[-n - 1], cin) is Truth.FALSE:
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": f"nn.ConvTranspose{n}d",
                    "detail": D.LayerInput(
                        f"ConvTranspose{n}d", "in_channels", cin, "channels", x.shape[-n - 1], x.shape
                    ),
                },
                cx.origins([x]),
                spec=OpSpec(
                    "nn.ConvTranspose", None, (x.shape,), (), (("n", n), ("in_channels", cin), ("out_channels", cout))
                ),
            )
            return x.with_shape(None)
        if len(x.shape) in (n + 1, n + 2):
            shape = (
                x.shape[: -n - 1]
                + (cout if cout is not None else cx.fresh("c"),)
                + tuple(_transposed_size(cx, layer, i, size) for i, size in enumerate(x.shape[-n:]))
            )
            return x.with_shape(
                shape, layout_axes(x.axes, len(shape), n, spatial_kernel=_spatial_kernel(layer.param("k")))
            )
        return x.with_shape(None)


def _spatial_kernel(k: tuple[int, ...] | None) -> bool:
    """A convolution's kernel known to span more than one position on some axis (``layout_axes``)."""
    return k is not None and any(i > 1 for i in k)


def _transposed_size(cx: OpContext, layer: LayerV, i: int, size: Size) -> Size:
    """One spatial output size of ``nn.ConvTranspose{n}d``: (size - 1) * s - 2p + d (k - 1) + output_padding + 1."""
    picked = []
    for key in ("k", "s", "p", "op", "d"):
        v = layer.param(key)
        picked.append(None if v is None else (v[0] if len(v) == 1 else (v[i] if i < len(v) else None)))
    if None in picked:
        return cx.fresh("h")
    k, s, p, op, d = picked
    out = size * s + (d * (k - 1) + op + 1 - s - 2 * p)  # type: ignore[operator]
    known = out.as_int()
    return cx.fresh("h") if known is not None and known < 1 else out  # torch raises on these


@register_layer("Sequential")
class Sequential(LayerKind):
    """``nn.Sequential(*layers)``: each layer applied to the previous output (the chain's own sizes are checked
    when it is built)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        # ("home": the file that built it; its links' lines are that file's)
        home = ("home", cx.source.path)
        if len(args) == 1 and isinstance(args[0], DictV) and not kwargs:  # Sequential(OrderedDict(...)): its values
            items = args[0].items
            names = ("names", tuple(k for k, _ in items))  # (a walk of the module tree names the links by them)
            return LayerV("Sequential", (("layers", tuple(v for _, v in items)), home, names), node)
        layers = tuple(args) if not kwargs else ()
        if not _applied_piecewise(cx, node):
            check_chain(cx, node, layers)
        return LayerV("Sequential", (("layers", layers), home), node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if layer.param("repeat") is not None:
            # any number of the same block (zero included): its output when it keeps the input's shape, else unknown
            sub = layer.param("repeat")
            once = (
                apply_layer(cx, interp, node, sub, [x], {})
                if isinstance(sub, LayerV)
                else cx.call_object(interp, node, sub, [x], {})
                if isinstance(sub, ObjV)
                else UNKNOWN
            )
            return (
                x if isinstance(once, TensorV) and once.shape == x.shape and x.shape is not None else x.with_shape(None)
            )
        out: Value = x
        home = layer.param("home")
        # a chain another module built (``model = MLPMixer(...)`` then ``model(images)``): its links' failures are
        # reported at this call, each with a note naming the link
        foreign = isinstance(home, str) and home != cx.source.path
        for sub in layer.param("layers", ()):
            if isinstance(sub, LayerV):
                marks = _mark(cx.ctx)
                out = apply_layer(cx, interp, node, sub, [out], {}, in_sequential=True, at_call=foreign)
                if foreign:
                    _name_link(cx, node, sub, home, marks)
                elif sub.line_node is not None:
                    _name_call(cx, node, sub.line_node, marks)
            elif isinstance(sub, ObjV):
                out = cx.call_object(interp, node, sub, [out], {})
            else:
                out = UNKNOWN
            if not isinstance(out, TensorV):
                return UNKNOWN
        return out


def _name_link(
    cx: OpContext,
    node: cst.Call,
    sub: LayerV,
    home: str,
    marks: Marks,
) -> None:
    """Findings a link of a chain built in ``home`` added at ``node`` (since ``marks``) get a note naming it."""
    shown = sub.kind.split(":")[-1]
    text = f"raised in the chain's {shown} layer (the nn.Sequential was built in {home})"
    _amend_since(
        marks, lambda p: replace(p, notes=p.notes + (text,)) if p.node is node and text not in p.notes else None
    )


# the prefix of the origin ``_name_call`` notes: the call that gave a chain its input (module._chain_call reads it)
CHAIN_INPUT = "given its input by"


def _name_call(cx: OpContext, node: cst.Call, link: cst.CSTNode, marks: Marks) -> None:
    """Findings a link of a chain built in this file added on its own line (since ``marks``) get a note naming the
    call that gave the chain its input (``self.heads[task](feats)`` in forward, the link built in ``__init__``)."""
    if link is node:
        return
    where = cx.origin(node, "the call of this nn.Sequential", CHAIN_INPUT)
    _amend_since(
        marks,
        lambda p: (
            replace(p, notes=p.notes + (note(where),))
            if p.node is link and not any(isinstance(n, LazyNote) and where in n.parts for n in p.notes)
            else None
        ),
    )


def _chain_of_modules(cx: OpContext, interp: "Interpreter", node: cst.Call, layer: LayerV, x: Value) -> Value:
    """``nn.Sequential(*modules)`` called on what is not a tensor (an HRNet stage's list of branch inputs): torch's
    forward hands each module the previous one's output, whatever it is. Modules of the analysed code run on it; a
    torch layer runs on a tensor; anything else (a repeated block, a layer given a list) leaves the result unknown."""
    if layer.param("repeat") is not None:
        return UNKNOWN
    out = x
    for sub in layer.param("layers", ()):
        if isinstance(sub, ObjV):
            out = cx.call_object(interp, node, sub, [out], {})
        elif isinstance(sub, LayerV) and isinstance(out, TensorV):
            out = apply_layer(cx, interp, node, sub, [out], {})
        else:
            return UNKNOWN
        if out is UNKNOWN:
            return UNKNOWN
    return out


def _unknown_into_chain(cx: OpContext, interp: "Interpreter", node: cst.Call, layer: LayerV) -> Value:
    """``nn.Sequential(nn.SiLU(), nn.Linear(d, 2 * d))`` called on an unknown input: activations and dropouts before
    the first Linear leave it unknown; the Linear makes a tensor whose last axis is its out_features (as a Linear
    called on an unknown input does), and the rest of the chain runs on that. A module of the analysed code runs on
    the unknown input as any call of it would. An adaptive pool of known output sizes first (a classifier head
    ``nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c, k))``) makes its two shapes, one per rank, and
    the chain runs on each. Another layer first (a norm, a conv): unknown."""
    chain: tuple[Value, ...] = tuple(layer.param("layers", ())) if layer.param("repeat") is None else ()
    for i, sub in enumerate(chain):
        if isinstance(sub, ObjV):
            # a module of the analysed code first (a weight-normalised ``Linear`` whose forward is F.linear): its
            # forward on the unknown input, and the rest of the chain on what it returns
            out = cx.call_object(interp, node, sub, [UNKNOWN], {})
            if not isinstance(out, TensorV) or i + 1 == len(chain):
                return out
            rest = LayerV("Sequential", (("layers", chain[i + 1 :]), ("home", layer.param("home"))), layer.line_node)
            return apply_layer(cx, interp, node, rest, [out], {})
        if not isinstance(sub, LayerV):
            return UNKNOWN
        if sub.kind == "Elementwise":
            continue
        if sub.kind == "either" or (sub.kind == "Sequential" and sub.param("repeat") is None):
            # a chain nested first (``nn.Sequential(project_in, nn.Dropout(p), nn.Linear(...))``): its own links on
            # the unknown input, then the rest of this chain on what they return
            out = (
                apply_layer(cx, interp, node, sub, [UNKNOWN], {})
                if sub.kind == "either"
                else _unknown_into_chain(cx, interp, node, sub)
            )
            if not isinstance(out, TensorV) or i + 1 == len(chain):
                return out
            rest = LayerV("Sequential", (("layers", chain[i + 1 :]), ("home", layer.param("home"))), layer.line_node)
            return apply_layer(cx, interp, node, rest, [out], {})
        if (
            sub.kind != "Linear"
            and not _sets_trailing_axes(sub)
            and not _conv_sets_channels(sub)
            and not _fixes_trailing_axes(sub)
        ):
            return UNKNOWN
        rest = LayerV("Sequential", (("layers", chain[i:]), ("home", layer.param("home"))), layer.line_node)
        return apply_layer(cx, interp, node, rest, [TensorV(None, None, "torch")], {})
    return UNKNOWN


ACTIVATIONS = (
    "Identity",
    "GELU",
    "ReLU",
    "SiLU",
    "Tanh",
    "Sigmoid",
    "Dropout",
    "Softmax",
    "LeakyReLU",
    "Mish",
    "ELU",
    "Hardswish",
    "Dropout1d",
    "Dropout2d",
    "Softplus",
    "Dropout3d",
    "ReLU6",
    "PReLU",
    "SELU",
    "CELU",
    "Hardsigmoid",
    "Hardtanh",
    "LogSoftmax",
    "Softsign",
    "Tanhshrink",
    "AlphaDropout",
    "Softmin",
)


@register_layer("Elementwise", *ACTIVATIONS)
class Elementwise(LayerKind):
    """Activations and dropouts: the input's shape."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return LayerV("Elementwise", (("name", name),), node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        return x


@register_layer(
    "ChannelNorm",
    "BatchNorm1d",
    "BatchNorm2d",
    "BatchNorm3d",
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "SyncBatchNorm",
    "LazyBatchNorm2d",
)
class ChannelNorm(LayerKind):
    """``nn.BatchNorm{n}d(num_features)`` / ``nn.InstanceNorm{n}d``: axis 1 has ``num_features`` channels -- when the
    layer has a weight (``affine``) or running statistics (``track_running_stats``): without either, torch never
    reads ``num_features`` (InstanceNorm's default: ``nn.InstanceNorm1d(3)`` takes 2 channels, with a warning)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        default = not name.startswith("InstanceNorm")

        def flag(i: int, kw: str) -> bool | None:
            v = args[i] if len(args) > i else kwargs.get(kw)
            return default if v is None else (v.value if isinstance(v, BoolV) else None)

        checked = flag(3, "affine") is True or flag(4, "track_running_stats") is True
        c = _size_arg(args, kwargs, 0, "num_features") if not name.startswith("Lazy") and checked else None
        n = int(name[-2]) if name[-2].isdigit() else None
        return LayerV("ChannelNorm", (("name", name), ("c", c), ("n", n)), node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None:
            return _norm_unranked(cx, report_node, layer, x)
        c, n = layer.param("c"), layer.param("n")
        name = layer.param("name", "")
        if (
            n is not None
            and name.startswith(("BatchNorm", "LazyBatchNorm"))
            and len(x.shape) not in ((2, 3) if n == 1 else (n + 2,))
        ):
            # torch's _check_input_dim: BatchNorm1d takes 2-d or 3-d input, BatchNorm2d 4-d, BatchNorm3d 5-d
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": f"nn.{name}",
                    "detail": D.LayerInput(name, "", (c,) if c is not None else (), "shape", None, x.shape),
                },
                cx.origins([x]),
                spec=OpSpec(
                    "nn.ChannelNorm",
                    None,
                    (x.shape,),
                    (),
                    (("name", name), ("num_features", c), ("ranks", (2, 3) if n == 1 else (n + 2,))),
                ),
            )
            return x.with_shape(None)
        if n is not None and len(x.shape) not in (n + 1, n + 2) and name.startswith("Batch"):
            return x
        if (
            c is not None
            and len(x.shape) >= 2
            and equal(x.shape[1], c) is Truth.FALSE
            # (a batch of examples; BatchNorm1d's (N, C) too: InstanceNorm1d reads a 2-d input as one unbatched
            # (C, L) example)
            and (n is None or len(x.shape) == n + 2 or (n == 1 and len(x.shape) == 2 and name.startswith("Batch")))
        ):
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": f"nn.{layer.param('name')}",
                    "detail": D.LayerInput(layer.param("name"), "num_features", c, "channels", x.shape[1], x.shape),
                },
                cx.origins([x]),
                spec=OpSpec(
                    "nn.ChannelNorm", None, (x.shape,), (), (("name", layer.param("name")), ("num_features", c))
                ),
            )
            return x.with_shape(None)
        return x


@register_layer("GroupNorm")
class GroupNorm(LayerKind):
    """``nn.GroupNorm(num_groups, num_channels)``: axis 1 has ``num_channels``."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        groups, c = _size_arg(args, kwargs, 0, "num_groups"), _size_arg(args, kwargs, 1, "num_channels")
        if not _divides(cx, node, "nn.GroupNorm", ("num_channels", c), ("num_groups", groups)):
            return UNKNOWN
        return LayerV("GroupNorm", (("groups", groups), ("c", c)), node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None:
            return x.with_shape(None)
        c = layer.param("c")
        # eqx.nn.GroupNorm(groups, channels) takes one example, channels on axis 0; torch's takes a batch, channels on
        # axis 1. The equinox finding is replayed as torch's GroupNorm on the example with a batch of one in front
        eqx = layer.param("lib") == "equinox"
        axis = 0 if eqx else 1
        if c is not None and len(x.shape) > axis and equal(x.shape[axis], c) is Truth.FALSE:
            batched = ((Size.const(1),) + x.shape) if eqx else x.shape
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": "eqx.nn.GroupNorm" if eqx else "nn.GroupNorm",
                    "detail": D.LayerInput(
                        "GroupNorm", "channels" if eqx else "num_channels", c, "channels", x.shape[axis], x.shape
                    ),
                },
                cx.origins([x]),
                spec=OpSpec("nn.GroupNorm", None, (batched,), (), (("num_channels", c), ("n", len(batched) - 2))),
            )
            return x.with_shape(None)
        return x


@register_layer("MultiheadAttention")
class MultiheadAttention(LayerKind):
    """``nn.MultiheadAttention(embed_dim, num_heads, ...)``: built (its sizes are read), applied: unknown."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        bf = args[6] if len(args) > 6 else kwargs.get("batch_first")
        kdim = args[4] if len(args) > 4 else kwargs.get("kdim")
        vdim = args[5] if len(args) > 5 else kwargs.get("vdim")
        from ..interpret.values import NoneV

        e, heads = _size_arg(args, kwargs, 0, "embed_dim"), _size_arg(args, kwargs, 1, "num_heads")
        if not _divides(cx, node, "nn.MultiheadAttention", ("embed_dim", e), ("num_heads", heads)):
            return UNKNOWN
        return LayerV(
            "MultiheadAttention",
            (
                ("e", e),
                ("heads", heads),
                ("batch_first", bf.value if isinstance(bf, BoolV) else (False if bf is None else None)),
                (
                    "kv_dims",
                    tuple(
                        e if d is None or isinstance(d, NoneV) else d.size if isinstance(d, IntV) else None
                        for d in (kdim, vdim)
                    ),
                ),
            ),
            node,
        )

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        return x.with_shape(None) if x.shape is None else UNKNOWN  # (called with its arguments: see apply_mha)


def _in_projection(shape: tuple[Size, ...], features: Size) -> OpSpec:
    """The witness of a layer whose first step projects the input's last axis (MultiheadAttention's packed in-projection,
    an RNN's input weights, a transformer layer's attention): a linear map of ``features`` input features."""
    return OpSpec("nn.Linear", None, (shape,), (), (("in_features", features), ("out_features", features)))


def apply_mha(
    cx: OpContext, report_node: cst.CSTNode, layer: LayerV, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``attn(query, key, value)`` of an ``nn.MultiheadAttention(embed_dim, num_heads)``: the query's last axis, and
    the key's and value's when no kdim / vdim was given, must be embed_dim (the packed in-projection). The output
    has the query's shape; the attention weights come second (``_mha_weights``)."""
    names = ("query", "key", "value")
    ins = [args[i] if len(args) > i else kwargs.get(n, UNKNOWN) for i, n in enumerate(names)]
    e = layer.param("e")
    wants = (("embed_dim", e), *zip(("kdim", "vdim"), layer.param("kv_dims", (None, None))))
    for t, (what, want) in zip(ins, wants):
        if want is None or not isinstance(t, TensorV) or not t.shape or len(t.shape) not in (2, 3):
            continue
        if equal(t.shape[-1], want) is Truth.FALSE:
            # the key's and value's last axes are embed_dim (the packed in-projection) unless kdim / vdim were given:
            # then the separate k / v projection weights are (embed_dim, kdim) / (embed_dim, vdim)
            param = "embed_dim" if want is e else what
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": "nn.MultiheadAttention",
                    "detail": D.LayerInput("MultiheadAttention", param, want, "last-axis", t.shape[-1], t.shape),
                },
                cx.origins([t]),
                spec=_in_projection(t.shape, want),
            )
            return UNKNOWN
    if _batch_mismatch(cx, report_node, layer, ins):
        return UNKNOWN
    q = ins[0]
    mask = args[3] if len(args) > 3 else kwargs.get("key_padding_mask")
    if isinstance(mask, TensorV) and _padding_mask_fails(cx, report_node, layer, q, ins[1], mask):
        return UNKNOWN
    attn_mask = args[5] if len(args) > 5 else kwargs.get("attn_mask")
    if isinstance(attn_mask, TensorV) and _attn_mask_fails(
        cx,
        report_node,
        "nn.MultiheadAttention",
        layer.param("e"),
        layer.param("heads"),
        layer.param("batch_first"),
        q,
        ins[1],
        attn_mask,
        exact=True,
    ):
        return UNKNOWN
    if isinstance(q, TensorV) and q.shape is not None and len(q.shape) in (2, 3):
        return SeqV((q, _mha_weights(layer, q, ins[1], args, kwargs)), "tuple")
    return UNKNOWN


def _batch_mismatch(cx: OpContext, report_node: cst.CSTNode, layer: LayerV, ins: list[Value]) -> bool:
    """Batched (3-d) query, key and value must share their batch -- the first axis with ``batch_first=True``, else
    the second: torch reshapes the projected key to (S, N * num_heads, head_dim) with the query's N, and checks the
    key against the value first. A seq-first query handed to a batch-first layer (``q.unsqueeze(1).expand(-1, N,
    -1)``) fails there."""
    bf = layer.param("batch_first")
    if not isinstance(bf, bool) or not all(isinstance(t, TensorV) and t.shape is not None for t in ins):
        return False
    shapes = [t.shape for t in ins if isinstance(t, TensorV) and t.shape is not None]
    if any(len(s) != 3 for s in shapes):
        return False
    b = 0 if bf else 1
    for (i, j), (left, right) in (((1, 2), ("key", "value")), ((0, 1), ("query", "key"))):
        if equal(shapes[i][b], shapes[j][b]) is not Truth.FALSE:
            continue
        cx.ctx.report(
            report_node,
            "SHP204",
            {
                "op": "nn.MultiheadAttention",
                "detail": D.AttentionBatch(left, right, shapes[i][b], shapes[j][b], shapes[i], shapes[j], bf),
            },
            cx.origins([t for t in ins if isinstance(t, TensorV)]),
            spec=OpSpec("nn.MultiheadAttention", None, tuple(shapes), (), (("batch_first", bf),)),
        )
        return True
    return False


def _padding_mask_fails(
    cx: OpContext, report_node: cst.CSTNode, layer: LayerV, q: Value, k: Value, mask: TensorV
) -> bool:
    """``key_padding_mask`` must be (N, S) for a batched query -- N its batch, S the key's length, the first axes or
    (batch_first=True) the second -- and (S,) for an unbatched one, exactly (torch asserts it; no broadcasting).
    Decided only where the query and the key agree on their batch (else torch fails elsewhere first)."""
    if not isinstance(q, TensorV) or not isinstance(k, TensorV) or q.shape is None or k.shape is None:
        return False
    if mask.shape is None or len(q.shape) != len(k.shape) or len(q.shape) not in (2, 3):
        return False
    bf = layer.param("batch_first") if len(q.shape) == 3 else None
    if len(q.shape) == 3:
        if not isinstance(bf, bool):
            return False
        n, s = (q.shape[0], k.shape[1]) if bf else (q.shape[1], k.shape[0])
        if equal(n, k.shape[0] if bf else k.shape[1]) is not Truth.TRUE:
            return False
        expected: tuple[Size, ...] = (n, s)
    else:
        expected = (k.shape[0],)
    if len(mask.shape) == len(expected) and all(equal(a, b) is not Truth.FALSE for a, b in zip(mask.shape, expected)):
        return False
    cx.ctx.report(
        report_node,
        "SHP204",
        {"op": "nn.MultiheadAttention", "detail": D.PaddingMask(mask.shape, expected, bf)},
        cx.origins([mask, k]),  # the key gives the source length
        spec=OpSpec(
            "nn.MultiheadAttention.mask",
            None,
            (q.shape, k.shape, mask.shape),
            (),
            (("embed_dim", layer.param("e")), ("num_heads", layer.param("heads")), ("batch_first", bool(bf))),
        ),
    )
    return True


# the positions of a transformer layer's attention masks: (argument index, keyword, attends to the memory)
_TRANSFORMER_MASKS = {
    "TransformerEncoderLayer": ((1, "src_mask", False),),
    "TransformerEncoder": ((1, "mask", False),),
    "TransformerDecoderLayer": ((2, "tgt_mask", False), (3, "memory_mask", True)),
    "TransformerDecoder": ((2, "tgt_mask", False), (3, "memory_mask", True)),
}


def _transformer_masks_fail(
    cx: OpContext, report_node: cst.CSTNode, layer: LayerV, x: TensorV, args: list[Value], kwargs: dict[str, Value]
) -> bool:
    """``decoder(tgt, memory, tgt_mask=m)`` of an ``nn.TransformerDecoder`` / ``nn.TransformerDecoderLayer`` (and
    ``src_mask`` / ``mask`` of the encoders): each mask is the ``attn_mask`` of the layer's ``nn.MultiheadAttention``,
    the self-attention's over the input (L, L), the decoder's ``memory_mask`` over the memory (L, S)
    (``_attn_mask_fails``). The encoders' inference fast path (eval mode, no grad) views a 2-D mask as (1, 1, L, L)
    and takes any mask of L * L elements, so for them only a 2-D mask of another number of elements is decided."""
    name = str(layer.param("name", ""))
    masks = _TRANSFORMER_MASKS.get(name)
    if masks is None:
        return False
    memory = args[1] if len(args) > 1 else kwargs.get("memory", UNKNOWN)
    for i, kw, cross in masks:
        mask = args[i] if len(args) > i else kwargs.get(kw)
        if not isinstance(mask, TensorV):
            continue
        k = memory if cross else x
        if _attn_mask_fails(
            cx,
            report_node,
            f"nn.{name}",
            layer.param("d"),
            layer.param("heads"),
            layer.param("batch_first"),
            x,
            k,
            mask,
            exact=name.startswith("TransformerDecoder"),
        ):
            return True
    return False


def _attn_mask_fails(
    cx: OpContext,
    report_node: cst.CSTNode,
    op: str,
    e: Size | None,
    heads: Size | None,
    bf: object,
    q: Value,
    k: Value,
    mask: TensorV,
    exact: bool,
) -> bool:
    """``attn_mask`` of an ``nn.MultiheadAttention`` for a query of L and a key of S positions: torch takes a 2-D
    mask of exactly (L, S) and a 3-D one of exactly (N * num_heads, L, S) (num_heads unbatched), with no
    broadcasting ("The shape of the 2D attn_mask is ..., but should be ..."). The positions are the first axes of
    (L, N, E) inputs, the second with batch_first=True. ``exact`` False: only a 2-D mask whose number of elements is
    not L * S is decided (the encoders' fast path). Decided where the query and the key agree on their batch."""
    if not isinstance(q, TensorV) or not isinstance(k, TensorV) or q.shape is None or k.shape is None:
        return False
    if mask.shape is None or len(mask.shape) not in (2, 3) or len(q.shape) != len(k.shape):
        return False
    if len(q.shape) == 3:
        if not isinstance(bf, bool):
            return False
        n, ln, s = (q.shape[0], q.shape[1], k.shape[1]) if bf else (q.shape[1], q.shape[0], k.shape[0])
        if equal(n, k.shape[0] if bf else k.shape[1]) is not Truth.TRUE:
            return False
        lead: Size | None = n * heads if heads is not None else None
    elif len(q.shape) == 2:
        ln, s = q.shape[0], k.shape[0]
        lead = heads
    else:
        return False
    if len(mask.shape) == 2:
        expected: tuple[Size, ...] = (ln, s)
        if not exact:
            if equal(product(mask.shape), ln * s) is not Truth.FALSE:
                return False
        elif all(equal(a, b) is not Truth.FALSE for a, b in zip(mask.shape, expected)):
            return False
    else:
        if not exact or lead is None:
            return False
        expected = (lead, ln, s)
        if all(equal(a, b) is not Truth.FALSE for a, b in zip(mask.shape, expected)):
            return False
    cx.ctx.report(
        report_node,
        "SHP204",
        {"op": op, "detail": D.AttnMask(mask.shape, expected)},
        cx.origins([mask, q]),
        spec=OpSpec(
            "nn.MultiheadAttention.attn_mask",
            None,
            (q.shape, k.shape, mask.shape),
            (),
            (("embed_dim", e), ("num_heads", heads), ("batch_first", bool(bf))),
        ),
    )
    return True


def _mha_weights(layer: LayerV, q: TensorV, k: Value, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """The attention weights ``nn.MultiheadAttention`` returns second: ``None`` with ``need_weights=False``; else
    (N, L, S) averaged over the heads, (N, num_heads, L, S) with ``average_attn_weights=False`` (no N unbatched),
    for a query of L and a key of S positions (the first axes, or the second with ``batch_first=True``)."""
    from ..interpret.values import NoneV

    def flag(i: int, name: str) -> bool | None:
        v = args[i] if len(args) > i else kwargs.get(name, BoolV(True))
        return v.value if isinstance(v, BoolV) else None

    need, average = flag(4, "need_weights"), flag(6, "average_attn_weights")
    if need is False:
        return NoneV()
    if need is None or average is None or not isinstance(k, TensorV) or k.shape is None or q.shape is None:
        return UNKNOWN
    if len(k.shape) != len(q.shape):
        return UNKNOWN
    heads = () if average else (layer.param("heads"),)
    if None in heads:
        return UNKNOWN
    if len(q.shape) == 2:
        shape = heads + (q.shape[0], k.shape[0])
    else:
        bf = layer.param("batch_first")
        if bf is None:
            return UNKNOWN
        n, l_, s = (q.shape[0], q.shape[1], k.shape[1]) if bf else (q.shape[1], q.shape[0], k.shape[0])
        shape = (n,) + heads + (l_, s)
    return TensorV(shape, q.dtype, q.framework)


@register_layer("Pool", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d")
class Pool(LayerKind):
    """``nn.MaxPool2d(kernel_size, stride=kernel_size, padding=0, dilation=1)`` / ``nn.AvgPool2d``: the channels
    kept, each spatial axis (h + 2p - d(k - 1) - 1) // s + 1."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return pool_layer(node, name, args, kwargs)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        return _pool_out(cx, x, layer)


@register_layer(
    "AdaptivePool",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d",
)
class AdaptivePool(LayerKind):
    """``nn.AdaptiveAvgPool2d(output_size)``: the spatial axes become output_size (None keeps an axis)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        v = args[0] if args else kwargs.get("output_size")
        n = int(name[-2])
        items = v.items if isinstance(v, SeqV) else (v,) * n if isinstance(v, IntV) else None
        out = (
            tuple(x.size if isinstance(x, IntV) else None for x in items)
            if items is not None and len(items) == n
            else None
        )
        if "return_indices" in kwargs:
            return UNKNOWN
        # torch's AdaptiveAvgPool2d / 3d take any number of leading axes (the last n are pooled); the max pools and
        # AdaptiveAvgPool1d take (C, *spatial) or (N, C, *spatial) only
        leading = (("any_lead", True),) if name in ("AdaptiveAvgPool2d", "AdaptiveAvgPool3d") else ()
        return LayerV("AdaptivePool", (("n", n), ("out", out), *leading), node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None and _fixes_trailing_axes(layer):
            return _adaptive_pool_unranked(cx, node, layer, x)
        return _pool_out(cx, x, layer)


@FUNCTIONS.register(
    *(f"adaptive_{k}_pool{n}d" for k in ("avg", "max") for n in (1, 2, 3)),
)
def _adaptive_pool_function(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``F.adaptive_avg_pool2d(x, output_size)`` (max; 1d, 2d, 3d): what ``nn.AdaptiveAvgPool2d(output_size)(x)``
    gives (a squeeze-excite block's ``F.adaptive_avg_pool2d(x, 1)``). ``return_indices=True`` (a pair): unknown."""
    if fw != "torch" or not args or not isinstance(args[0], TensorV) or len(args) > 3:
        return None
    if kwargs.keys() - {"output_size", "return_indices"} or (len(args) > 2 and not isinstance(args[2], BoolV)):
        return UNKNOWN
    ri = kwargs.get("return_indices", args[2] if len(args) > 2 else BoolV(False))
    if not (isinstance(ri, BoolV) and ri.value is False):
        return UNKNOWN
    name = "Adaptive" + ("Avg" if "avg" in qual.rsplit(".", 1)[-1] else "Max") + "Pool" + qual[-2:]
    size = args[1] if len(args) > 1 else kwargs.get("output_size")
    if size is None:
        return UNKNOWN
    built = AdaptivePool.build(cx, node, name, [size], {})
    if not isinstance(built, LayerV):
        return UNKNOWN
    return AdaptivePool.apply(cx, None, node, node, built, args[0])  # type: ignore[arg-type]


def _fixes_trailing_axes(layer: LayerV) -> bool:
    """A torch ``nn.AdaptiveAvgPool{n}d`` / ``AdaptiveMaxPool{n}d`` whose every output size is a known int (no None,
    which keeps an input axis): what it returns ends in those sizes, whatever its input."""
    out = layer.param("out")
    return (
        layer.kind == "AdaptivePool"
        and layer.param("lib") is None
        and out is not None
        and all(o is not None for o in out)
    )


def _adaptive_pool_unranked(cx: OpContext, node: cst.Call, layer: LayerV, x: TensorV) -> Value:
    """An adaptive pool on an input of unknown rank: torch's max pools and AdaptiveAvgPool1d take (C, *spatial) or
    (N, C, *spatial) and nothing else, so the result is one of two shapes, ``(n, c, *out)`` or ``(c, *out)`` (n, c
    sizes of their own): a value with one path per rank (paths.py), on which a later operation is a definite failure
    only when it fails on both (``nn.Linear(768)`` on the unflattened ``(n, c, 1, 1)``: its last axis is 1 either
    way). A rank a condition ruled out is no path. AdaptiveAvgPool2d / 3d pool the last axes of any rank: a third
    path, of more axes, whose trailing sizes only are known."""
    n = layer.param("n")
    out = tuple(layer.param("out"))
    origin = cx.origin(node, "the AdaptivePool layer")
    options = [
        TensorV(tuple(cx.fresh(s) for s in "nc"[2 - lead :]) + out, x.dtype, x.framework, None, origin)
        for lead in (2, 1)  # the batched shape first: the one a finding shows when both fail
        if n + lead not in x.not_ranks
    ]
    if layer.param("any_lead"):
        # AdaptiveAvgPool2d / 3d pool the last n axes of any rank: a third path, of n + 3 axes or more, of which only
        # the trailing sizes are known (a later layer taking n + 1 or n + 2 axes only raises on it: _conv_unranked)
        more = frozenset(range(n + 3)) | x.not_ranks
        options.append(TensorV(None, x.dtype, x.framework, None, origin, ((), cx.fresh("V"), out), not_ranks=more))
    if not options:
        return x.with_shape(None)
    if len(options) == 1:
        return options[0]
    return TensorV(None, x.dtype, x.framework, None, None, ((), cx.fresh("V"), out), tuple(options))


_FUNCTIONAL_POOLS = {
    f"torch.nn.functional.{k}_pool{n}d": f"{k.capitalize()}Pool{n}d" for k in ("max", "avg") for n in (1, 2, 3)
}

_FUNCTIONAL_CONVS = {f"{m}.conv{n}d": n for m in ("torch.nn.functional", "torch") for n in (1, 2, 3)}
_CONV_ARGS = ("input", "weight", "bias", "stride", "padding", "dilation", "groups")


@FUNCTIONS.register(*_FUNCTIONAL_CONVS)
def _functional_conv(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``F.conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)``: the layer ``nn.Conv2d`` with
    ``in_channels = weight.shape[1] * groups``, ``out_channels = weight.shape[0]`` and the weight's kernel sizes, applied
    to ``x`` ((N?, C_in, *spatial), the same checks). ``padding='same'`` keeps the spatial sizes (stride 1), 'valid' is
    0. A weight of unknown rank, an unknown ``groups`` or an argument given twice: only the result's kind."""
    if set(kwargs) - set(_CONV_ARGS) or len(args) > len(_CONV_ARGS):
        return None
    given = dict(zip(_CONV_ARGS, args))
    if set(given) & set(kwargs):
        return None
    given.update(kwargs)
    x, w = given.get("input"), given.get("weight")
    n = _FUNCTIONAL_CONVS[qual]
    if not isinstance(x, TensorV):
        return None
    groups = given.get("groups")
    g = 1 if groups is None else groups.size.as_int() if isinstance(groups, IntV) else None
    if not isinstance(w, TensorV) or w.shape is None or len(w.shape) != n + 2 or g is None or g < 1:
        return x.with_shape(None)
    kernel = tuple(k.as_int() for k in w.shape[2:])
    padding = given.get("padding")
    same = isinstance(padding, StrV) and padding.value == "same"
    if isinstance(padding, StrV) and padding.value == "valid":
        padding = None
    elif isinstance(padding, StrV) and not same:
        return x.with_shape(None)
    s = _conv_tuple(given.get("stride"), 1)
    d = _conv_tuple(given.get("dilation"), 1)
    layer = LayerV(
        f"Conv{n}d",
        (
            ("in", w.shape[1] * g),
            ("out", w.shape[0]),
            ("k", None if None in kernel else kernel),
            ("s", s),
            ("p", None if same else _conv_tuple(padding, 0)),
            ("d", d),
            ("n", n),
            ("fn", qual.replace("torch.nn.functional.", "F.")),
        ),
        node,
    )
    out = Conv.apply(cx, None, node, node, layer, x)  # type: ignore[arg-type]
    if same and isinstance(out, TensorV) and out.shape is not None and x.shape is not None and s == (1,):
        return out.with_shape(out.shape[:-n] + x.shape[-n:])  # 'same' (stride 1): the input's spatial sizes
    return out


@FUNCTIONS.register(*_FUNCTIONAL_POOLS)
def _functional_pool(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``F.max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, ...)`` / ``F.avg_pool2d(...)``: the pooling
    layer's output shape (nn.MaxPool2d's arguments after the input)."""
    x = args[0] if args else kwargs.get("input")
    if not isinstance(x, TensorV):
        return None
    rest = {k: v for k, v in kwargs.items() if k not in ("input", "count_include_pad", "divisor_override")}
    layer = pool_layer(node, _FUNCTIONAL_POOLS[qual], list(args[1:]), rest)
    return _pool_out(cx, x, layer) if isinstance(layer, LayerV) else x.with_shape(None)


def pool_layer(node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """MaxPool / AvgPool: kernel, stride (the kernel's when not given), padding and dilation as integers."""
    from ..interpret.values import NoneV

    def tup(v: Value | None) -> tuple[int, ...] | None:
        if isinstance(v, IntV) and v.size.as_int() is not None:
            return (v.size.as_int(),)  # type: ignore[return-value]
        if isinstance(v, SeqV):
            return tuple(_ints(v.items) or ()) or None
        return None

    keys = (
        ("kernel_size", "stride", "padding", "dilation")
        if name.startswith("Max")
        else ("kernel_size", "stride", "padding")
    )
    f = kwargs.get("return_indices")
    if f is not None and not (isinstance(f, BoolV) and f.value is False):
        return UNKNOWN  # return_indices returns a pair
    c = kwargs.get("ceil_mode")
    if c is not None and not (isinstance(c, BoolV) and c.value is not None):
        return UNKNOWN  # rounding up or down: not known
    ceil = isinstance(c, BoolV) and c.value is True
    if len(args) > len(keys):
        return UNKNOWN
    given = {k: (args[i] if len(args) > i else kwargs.get(k)) for i, k in enumerate(keys)}
    k = tup(given["kernel_size"])
    s_v = given["stride"]
    s = k if s_v is None or isinstance(s_v, NoneV) else tup(s_v)
    p = (0,) if given["padding"] is None else tup(given["padding"])
    d = (1,) if given.get("dilation") is None else tup(given["dilation"])
    params: tuple[tuple[str, Any], ...] = (("n", int(name[-2])), ("k", k), ("s", s), ("p", p), ("d", d))
    return LayerV("Pool", params + ((("ceil", True),) if ceil else ()), node)


def _pool_out(cx: OpContext, x: TensorV, layer: LayerV) -> Value:
    n = layer.param("n")
    if x.shape is None or (len(x.shape) not in (n + 1, n + 2) and not (layer.param("any_lead") and len(x.shape) > n)):
        return x.with_shape(None)
    if layer.kind == "AdaptivePool" and layer.param("lib") == "equinox":
        # equinox takes exactly (channels, *spatial); each spatial axis must hold at least its target (a known
        # target of 1, or a known size no smaller): otherwise the shape is left unknown
        out = layer.param("out")
        if len(x.shape) != n + 1 or not all(
            o.as_int() == 1 or (h.as_int() is not None and o.as_int() is not None and h.as_int() >= o.as_int())
            for o, h in zip(out, x.shape[1:])
        ):
            return x.with_shape(None)
        return x.with_shape(x.shape[:1] + tuple(out), x.axes)
    if layer.kind == "AdaptivePool":
        out = layer.param("out")
        if out is None:
            return x.with_shape(x.shape[:-n] + tuple(cx.fresh("h") for _ in range(n)), x.axes)
        return x.with_shape(x.shape[:-n] + tuple(o if o is not None else h for o, h in zip(out, x.shape[-n:])), x.axes)
    spatial = []
    for i, size in enumerate(x.shape[-n:]):
        vals = [layer.param(key) for key in ("k", "s", "p", "d")]
        ki, si, pi, di = (None if v is None else v[0] if len(v) == 1 else (v[i] if i < len(v) else None) for v in vals)
        hv = size.as_int()
        if None in (ki, si, pi, di) or hv is None:
            spatial.append(cx.fresh("h"))
        elif layer.param("ceil"):
            # torch's pooling_output_shape with ceil_mode: rounded up, but the last window must start inside the
            # input or its left padding
            out = (hv + 2 * pi - di * (ki - 1) - 1 + (si - 1)) // si + 1  # type: ignore[operator]
            if (out - 1) * si >= hv + pi:  # type: ignore[operator]
                out -= 1
            spatial.append(Size.const(max(0, out)))
        else:
            spatial.append(Size.const(max(0, (hv + 2 * pi - di * (ki - 1) - 1) // si + 1)))  # type: ignore[operator]
    return x.with_shape(x.shape[:-n] + tuple(spatial), x.axes)  # the same axes, resized


def _input_size_fails(cx: OpContext, report_node: cst.CSTNode, layer: LayerV, x: TensorV) -> bool:
    """A recurrent layer or cell (``in``: its input_size) given an input whose last axis differs: SHP204, True."""
    fin, name = layer.param("in"), str(layer.param("name"))
    if fin is None or x.shape is None or equal(x.shape[-1], fin) is not Truth.FALSE:
        return False
    cx.ctx.report(
        report_node,
        "SHP204",
        {"op": f"nn.{name}", "detail": D.LayerInput(name, "input_size", fin, "last-axis", x.shape[-1], x.shape)},
        cx.origins([x]),
        spec=_in_projection(x.shape, fin),
    )
    return True


def _hidden_state_fails(
    cx: OpContext, report_node: cst.CSTNode, layer: LayerV, args: list[Value], kwargs: dict[str, Value]
) -> bool:
    """``cell(x, h)`` of a GRUCell / RNNCell (``h``), or an LSTMCell (``(h, c)``), torch's or equinox's: each state's
    last axis must be hidden_size (torch: ``hx``; equinox: ``hidden``). A state whose last axis differs: SHP204, True."""
    hidden, name = layer.param("hidden"), str(layer.param("name"))
    h = args[1] if len(args) > 1 else kwargs.get("hx", kwargs.get("hidden"))
    if hidden is None or h is None:
        return False
    states = h.items if isinstance(h, SeqV) and name == "LSTMCell" and len(h.items) == 2 else (h,)
    for t in states:
        if isinstance(t, TensorV) and t.shape and not t.alts and equal(t.shape[-1], hidden) is Truth.FALSE:
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": f"nn.{name}",
                    "detail": D.LayerInput(name, "hidden_size", hidden, "hidden-last-axis", t.shape[-1], t.shape),
                },
                cx.origins([t]),
                spec=_in_projection(t.shape, hidden),
            )
            return True
    return False


def _initial_state_fails(
    cx: OpContext, report_node: cst.CSTNode, layer: LayerV, x: TensorV, args: list[Value], kwargs: dict[str, Value]
) -> bool:
    """``rnn(x, hx)`` of an ``nn.LSTM`` (``hx`` the pair ``(h_0, c_0)``) / ``GRU`` / ``RNN``: torch checks each state's
    whole shape, (D * num_layers, batch, H) for a batched (3-d) input, (D * num_layers, H) for an unbatched one, with
    H hidden_size (an LSTM's h_0: proj_size when given) and batch the input's axis 0 (batch_first) or 1. A state of
    known rank whose shape differs there for every size (a rank other than the input's: torch raises too): SHP204,
    True."""
    hx = args[1] if len(args) > 1 else kwargs.get("hx")
    hidden, name, proj = layer.param("hidden"), str(layer.param("name")), layer.param("proj")
    if hx is None or isinstance(hx, NoneV) or hidden is None or x.shape is None or len(x.shape) not in (2, 3) or x.alts:
        return False
    if name == "LSTM":
        if not isinstance(hx, SeqV) or len(hx.items) != 2:
            return False
        states = list(zip(hx.items, (proj if proj is not None else hidden, hidden), ("h_0", "c_0")))
    else:
        states = [(hx, hidden, "h_0")]
    dirs = int(layer.param("dirs") or 1)
    lead = layer.param("layers") * Size.const(dirs)
    batch = () if len(x.shape) == 2 else (x.shape[0] if layer.param("batch_first") else x.shape[1],)
    for t, width, which in states:
        if not isinstance(t, TensorV) or t.shape is None or t.alts:
            continue
        want = (lead, *batch, width)
        if len(t.shape) == len(want) and all(equal(a, b) is not Truth.FALSE for a, b in zip(t.shape, want)):
            continue
        shown = f"num_layers={layer.param('layers')}, hidden_size={hidden}" + (
            ", bidirectional=True" if dirs == 2 else ""
        )
        cx.ctx.report(
            report_node,
            "SHP204",
            {"op": f"nn.{name}", "detail": D.LayerInput(name, shown, want, "hidden-shape", None, t.shape)},
            cx.origins([x, t]),
            spec=OpSpec(
                "nn.RNN.state",
                None,
                (x.shape, t.shape),
                (),
                (
                    ("name", name),
                    ("input_size", x.shape[-1]),
                    ("hidden_size", hidden),
                    ("proj_size", proj),
                    ("num_layers", layer.param("layers")),
                    ("dirs", dirs),
                    ("batch_first", bool(layer.param("batch_first"))),
                    ("state", which),
                ),
            ),
        )
        return True
    return False


# torch.nn's element-wise loss modules and the functional loss each one calls
_LOSS_LAYERS = {
    "MSELoss": "mse_loss",
    "L1Loss": "l1_loss",
    "SmoothL1Loss": "smooth_l1_loss",
    "HuberLoss": "huber_loss",
    "KLDivLoss": "kl_div",
}


@register_layer("Loss", *_LOSS_LAYERS)
class Loss(LayerKind):
    """``nn.MSELoss()`` / ``L1Loss`` / ``SmoothL1Loss`` / ``HuberLoss`` (``reduction``, ``beta`` / ``delta``) /
    ``KLDivLoss`` (``log_target``): ``loss(input, target)`` is the functional loss (``F.mse_loss(input, target,
    reduction=...)``): a target of another size warns and broadcasts, or fails (rules/ops.py ``loss``; kl_div
    broadcasts silently, only a failing broadcast is one)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        red = kwargs.get("reduction", StrV("mean"))
        if args or set(kwargs) - {"reduction", "beta", "delta", "log_target"} or not isinstance(red, StrV):
            return UNKNOWN
        return LayerV("Loss", (("name", name), ("reduction", red.value)), node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        return UNKNOWN  # (two operands: apply_layer calls _apply_loss)


# torch.nn's class losses and the functional loss each one calls
_CLASS_LOSS_LAYERS = {"CrossEntropyLoss": "cross_entropy", "NLLLoss": "nll_loss"}


@register_layer("ClassLoss", *_CLASS_LOSS_LAYERS)
class ClassLoss(LayerKind):
    """``nn.CrossEntropyLoss(weight=w, reduction=...)`` / ``nn.NLLLoss``: ``loss(input, target)`` is the functional
    loss with that weight and reduction (rules/ops.py ``class_loss``: a 1-d weight needs one entry per class)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        red = kwargs.get("reduction", StrV("mean"))
        keys = {"weight", "reduction", "ignore_index", "label_smoothing"}
        if len(args) > 1 or set(kwargs) - keys or not isinstance(red, StrV):
            return UNKNOWN
        w = args[0] if args else kwargs.get("weight", NoneV())
        # the weight's shape (None: a weight not known or of unknown shape), and whether one was given
        weighted = not isinstance(w, NoneV)
        shape = w.shape if isinstance(w, TensorV) else None
        ignore = kwargs.get("ignore_index", IntV(Size.const(-100)))
        ignored = ignore.size.as_int() if isinstance(ignore, IntV) and not ignore.assumed else None
        params = (
            ("name", name),
            ("reduction", red.value),
            ("weighted", weighted),
            ("weight_shape", shape),
            ("ignore_index", ignored),
        )
        return LayerV("ClassLoss", params, node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        return UNKNOWN  # (two operands: apply_layer calls _apply_class_loss)


def _apply_class_loss(
    cx: OpContext, node: cst.Call, layer: LayerV, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    from .ops import class_loss

    a = args[0] if args else kwargs.get("input")
    b = args[1] if len(args) > 1 else kwargs.get("target")
    if len(args) + len(kwargs) != 2 or not isinstance(a, TensorV) or not isinstance(b, TensorV):
        return UNKNOWN
    name = str(layer.param("name"))
    shape = layer.param("weight_shape")
    w = TensorV(shape, None, "torch") if layer.param("weighted") else None
    fn = _CLASS_LOSS_LAYERS[name]
    ignored = layer.param("ignore_index")
    return class_loss(cx, node, fn, f"nn.{name}", a, w, StrV(str(layer.param("reduction"))), b, ignored)


def _apply_loss(cx: OpContext, node: cst.Call, layer: LayerV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    from .ops import loss

    a = args[0] if args else kwargs.get("input")
    b = args[1] if len(args) > 1 else kwargs.get("target")
    if len(args) + len(kwargs) != 2 or not isinstance(a, TensorV) or not isinstance(b, TensorV):
        return UNKNOWN
    fn = _LOSS_LAYERS[str(layer.param("name"))]
    return loss(cx, node, fn, a, b, {"reduction": StrV(str(layer.param("reduction")))})


@register_layer("RNNCell", "RNNCell", "GRUCell", "LSTMCell")
class RNNCell(LayerKind):
    """``nn.GRUCell(input_size, hidden_size)`` / ``LSTMCell`` / ``RNNCell`` (and equinox's, built in ``jax_layer``):
    one step. The input's last axis must be input_size; the new hidden state is (..., hidden_size), an LSTM cell's
    result the pair (h, c). equinox's cells take one unbatched vector (``jax.vmap`` / ``lax.scan`` map them)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if len(args) > 2 or set(kwargs) - {"input_size", "hidden_size", "bias", "nonlinearity", "device", "dtype"}:
            return UNKNOWN
        return LayerV(
            "RNNCell",
            (
                ("name", name),
                ("in", _size_arg(args, kwargs, 0, "input_size")),
                ("hidden", _size_arg(args, kwargs, 1, "hidden_size")),
            ),
            node,
        )

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        ranks = (1,) if layer.param("lib") == "equinox" else (1, 2)
        if x.shape is None or len(x.shape) not in ranks:
            return UNKNOWN
        hidden, name = layer.param("hidden"), str(layer.param("name"))
        if _input_size_fails(cx, report_node, layer, x):
            return UNKNOWN
        if hidden is None:
            return UNKNOWN
        h = x.with_shape(x.shape[:-1] + (hidden,), None)
        return SeqV((h, h), "tuple") if name == "LSTMCell" else h


@register_layer("RNN", "LSTM", "GRU", "RNN")
class RNN(LayerKind):
    """``nn.LSTM(input_size, hidden_size, num_layers=1, ..., batch_first=False, ..., bidirectional=False)`` (GRU,
    RNN): the input's last axis must be input_size; it returns (output, h_n) with output (..., D * hidden_size) and
    h_n (D * num_layers, [batch,] hidden_size); an LSTM's second item is the pair (h_n, c_n). An LSTM's ``proj_size``
    (> 0) replaces hidden_size in output and h_n."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if len(args) > 3:
            return UNKNOWN
        proj = kwargs.get("proj_size", IntV(Size.const(0)))
        if name != "LSTM" and "proj_size" in kwargs or not isinstance(proj, IntV) or proj.size.as_int() is None:
            return UNKNOWN
        flags = {k: kwargs.get(k, BoolV(False)) for k in ("batch_first", "bidirectional")}
        layers_v = args[2] if len(args) > 2 else kwargs.get("num_layers", IntV(Size.const(1)))
        if not all(isinstance(f, BoolV) and f.value is not None for f in flags.values()) or not isinstance(
            layers_v, IntV
        ):
            return UNKNOWN
        return LayerV(
            "RNN",
            (
                ("name", name),
                ("in", _size_arg(args, kwargs, 0, "input_size")),
                ("hidden", _size_arg(args, kwargs, 1, "hidden_size")),
                ("layers", layers_v.size),
                ("batch_first", flags["batch_first"].value),  # type: ignore[union-attr]
                ("dirs", 2 if flags["bidirectional"].value else 1),  # type: ignore[union-attr]
                ("proj", proj.size if proj.size.as_int() else None),
            ),
            node,
        )

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None or len(x.shape) not in (2, 3):
            return UNKNOWN
        hidden, dirs, name = layer.param("hidden"), layer.param("dirs"), layer.param("name")
        if _input_size_fails(cx, report_node, layer, x):
            return UNKNOWN
        if hidden is None:
            return UNKNOWN
        # an LSTM with proj_size > 0 projects its hidden state: output and h_n have proj_size features, c_n keeps
        # hidden_size
        proj = layer.param("proj")
        emitted = proj if proj is not None else hidden
        out = x.with_shape(x.shape[:-1] + (emitted * Size.const(dirs),), _lead_axes(x))
        batch = () if len(x.shape) == 2 else (x.shape[0] if layer.param("batch_first") else x.shape[1],)
        lead = (layer.param("layers") * Size.const(dirs),) + batch
        h = TensorV(lead + (emitted,), x.dtype, x.framework)
        c = TensorV(lead + (hidden,), x.dtype, x.framework)
        return SeqV((out, SeqV((h, c), "tuple") if name == "LSTM" else h), "tuple")


def packed_sequence(
    cx: OpContext, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``torch.nn.utils.rnn``'s ``pack_padded_sequence(x, lengths, batch_first=False)``: a PackedSequence, kept as
    the padded batch it stands for in batch-first layout, (batch, max length, *features), the longest length a size
    of its own (at most the padded one); ``pad_packed_sequence(packed, batch_first=False, total_length=None)``: the
    pair (padded, lengths), padded to total_length when given. None: not one of these."""
    name = qual.rsplit(".", 1)[-1]
    if qual != f"torch.nn.utils.rnn.{name}" or name not in ("pack_padded_sequence", "pad_packed_sequence"):
        return None
    packing = name == "pack_padded_sequence"
    x = args[0] if args else kwargs.get("input" if packing else "sequence", UNKNOWN)
    # (input, lengths, batch_first, enforce_sorted) / (sequence, batch_first, padding_value, total_length)
    at = 2 if packing else 1
    bf = args[at] if len(args) > at else kwargs.get("batch_first", BoolV(False))
    if not isinstance(bf, BoolV) or bf.value is None:
        return UNKNOWN
    if packing:
        if not isinstance(x, TensorV) or x.shape is None or len(x.shape) < 2:
            return UNKNOWN
        batch = x.shape[0] if bf.value else x.shape[1]
        padded = TensorV(
            (batch, cx.fresh("max_len"), *x.shape[2:]),
            x.dtype,
            x.framework,
            None,
            cx.origin(node, "pack_padded_sequence(...)"),
        )
        return LayerV("PackedSequence", (("padded", padded),))
    if not isinstance(x, LayerV) or x.kind != "PackedSequence":
        return UNKNOWN
    padded = x.param("padded")
    assert isinstance(padded, TensorV) and padded.shape is not None
    total = args[3] if len(args) > 3 else kwargs.get("total_length", NoneV())
    if isinstance(total, IntV):
        length = total.size
    elif isinstance(total, NoneV):
        length = padded.shape[1]
    else:
        return UNKNOWN
    batch, rest = padded.shape[0], padded.shape[2:]
    shape = (batch, length, *rest) if bf.value else (length, batch, *rest)
    out = padded.with_shape(shape, None, cx.origin(node, "pad_packed_sequence(...)"))
    return SeqV((out, TensorV((batch,), "int64", padded.framework)), "tuple")


def _rnn_on_packed(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: LayerV
) -> Value:
    """An nn.LSTM / GRU / RNN given a PackedSequence: what it does to the padded batch in batch-first layout, its
    output packed again."""
    padded = x.param("padded")
    if not isinstance(padded, TensorV) or padded.shape is None or len(padded.shape) != 3:
        return UNKNOWN
    first = replace(layer, params=tuple((k, True if k == "batch_first" else v) for k, v in layer.params))
    out = RNN.apply(cx, interp, node, report_node, first, padded)
    if not isinstance(out, SeqV) or len(out.items) != 2 or not isinstance(out.items[0], TensorV):
        return UNKNOWN
    return SeqV((LayerV("PackedSequence", (("padded", out.items[0]),)), out.items[1]), "tuple")


@register_layer("Upsample", "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d")
class Upsample(LayerKind):
    """``nn.Upsample(size=None, scale_factor=None, mode=...)``: the spatial axes resized (see ``resized``)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        size = args[0] if args else kwargs.get("size")
        scale = args[1] if len(args) > 1 else kwargs.get("scale_factor")
        return LayerV("Upsample", (("size", size), ("scale", scale)), node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        return resized(cx, x, layer.param("size"), layer.param("scale"), ("nn.Upsample", report_node))


PAD_LAYERS = tuple(
    f"{k}Pad{n}d" for k in ("Reflection", "Replication", "Zero", "Constant", "Circular") for n in (1, 2, 3)
)


@register_layer("Pad", *PAD_LAYERS)
class Pad(LayerKind):
    """``nn.ReplicationPad1d(padding)`` / ``ReflectionPad2d`` / ``ZeroPad2d`` / ``ConstantPad3d(padding, value)`` /
    ``CircularPad1d``: the last n axes of an (N, C, *n) or (C, *n) input grow by their padding, an int for every side
    or (left, right, top, bottom, front, back) from the last axis back (F.pad's order)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        n = int(name[-2])
        v = args[0] if args else kwargs.get("padding")
        if isinstance(v, IntV):
            amounts: tuple[Size, ...] | None = (v.size,) * (2 * n)
        elif isinstance(v, SeqV) and len(v.items) == 2 * n and all(isinstance(a, IntV) for a in v.items):
            amounts = tuple(a.size for a in v.items if isinstance(a, IntV))
        else:
            amounts = None
        if amounts is None or len(args) > (2 if name.startswith("Constant") else 1):
            return UNKNOWN
        return LayerV("Pad", (("name", name), ("n", n), ("pad", amounts)), node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        n, pad = layer.param("n"), layer.param("pad")
        if x.shape is None or len(x.shape) not in (n + 1, n + 2):
            return x.with_shape(None)
        out = list(x.shape)
        for i in range(n):
            out[-1 - i] = out[-1 - i] + pad[2 * i] + pad[2 * i + 1]
        return x.with_shape(tuple(out))


@register_layer("PixelShuffle", "PixelShuffle", "PixelUnshuffle")
class PixelShuffle(LayerKind):
    """``nn.PixelShuffle(r)``: (*, C * r * r, H, W) -> (*, C, H * r, W * r); ``nn.PixelUnshuffle(r)`` the inverse,
    (*, C, H * r, W * r) -> (*, C * r * r, H, W). A channel count (PixelShuffle) or a spatial axis (PixelUnshuffle) that
    the factor may not divide gives an unknown shape: torch raises there, and this rule stays silent about it."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        key = "upscale_factor" if name == "PixelShuffle" else "downscale_factor"
        r = _size_arg(args, kwargs, 0, key)
        if r is None or r.as_int() is None or len(args) + len(kwargs) != 1:
            return UNKNOWN
        return LayerV("PixelShuffle", (("name", name), ("r", r)), node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        r: Size = layer.param("r")
        if x.shape is None or len(x.shape) < 3:
            return x.with_shape(None)
        *lead, c, h, w = x.shape
        rr = r * r
        name = layer.param("name")
        if name == "PixelShuffle":
            fits = divisible(c, rr)
            if fits is Truth.FALSE:
                _report_pixel_shuffle(cx, report_node, name, r, x.shape, "channels", c, cx.origins([x]))
            if fits is not Truth.TRUE:
                return x.with_shape(None)
            return x.with_shape((*lead, c.exact_div(rr), h * r, w * r))  # type: ignore[arg-type]
        fits_h, fits_w = divisible(h, r), divisible(w, r)
        if fits_h is Truth.FALSE or fits_w is Truth.FALSE:
            _report_pixel_shuffle(cx, report_node, name, r, x.shape, "shape", None, cx.origins([x]))
        if fits_h is not Truth.TRUE or fits_w is not Truth.TRUE:
            return x.with_shape(None)
        return x.with_shape((*lead, c * rr, h.exact_div(r), w.exact_div(r)))  # type: ignore[arg-type]


def _report_pixel_shuffle(
    cx: OpContext,
    node: cst.CSTNode,
    name: str,
    r: Size,
    shape: tuple[Size, ...],
    found: str,
    channels: Size | None,
    notes: "list[str | LazyNote]",
    sequential: bool = False,
) -> None:
    """``nn.PixelShuffle(r)`` given channels that r * r does not divide, ``nn.PixelUnshuffle(r)`` a height or width
    that r does not divide: torch raises (``pixel_shuffle expects its input's 'channel' dimension to be divisible by
    the square of upscale_factor``)."""
    key = "upscale_factor" if name == "PixelShuffle" else "downscale_factor"
    cx.ctx.report(
        node,
        "SHP204",
        {"op": f"nn.{name}", "detail": D.LayerInput(name, key, r, found, channels, shape, sequential)},
        notes,
        spec=OpSpec("nn.PixelShuffle", None, (shape,), (), (("name", name), ("r", r))),
    )


def _resize_count(cx: OpContext, report: "tuple[str, cst.CSTNode] | None", x: TensorV, arg: str, count: int) -> None:
    """``F.interpolate`` / ``nn.Upsample`` given a ``size`` / ``scale_factor`` sequence of ``count`` entries for
    an input (N, C, *spatial) with another number of spatial axes: torch raises whatever the sizes."""
    if report is None or x.shape is None or x.framework != "torch":
        return
    what, node = report
    cx.ctx.report(
        node,
        "SHP204",
        {"op": what, "detail": D.ResizeArguments(arg, count, x.shape)},
        cx.origins([x]),
        spec=OpSpec("interpolate.count", None, (x.shape,), (), (("arg", arg), ("count", count))),
    )


def resized(
    cx: OpContext,
    x: TensorV,
    size: Value | None,
    scale: Value | None,
    report: "tuple[str, cst.CSTNode] | None" = None,
) -> TensorV:
    """``F.interpolate(x, size=..., scale_factor=...)`` on (N, C, *spatial): each spatial axis becomes its size, or
    floor(axis * scale_factor); the batch and channel axes are kept. ``report``: (the operation's name, the node to
    report at) when a size or scale tuple whose length is not the input's number of spatial axes is an error."""
    from ..interpret.values import FloatV, NoneV

    has_size = size is not None and not isinstance(size, NoneV)
    if x.shape is None and has_size and isinstance(size, SeqV) and 1 <= len(size.items) <= 3:
        # F.interpolate(x, (length, 1)) on an input of unknown shape: torch requires as many spatial axes as the
        # size has items (else it raises), so the result is (N, C, *size), N and C unknown
        spatial = tuple(s.size if isinstance(s, IntV) else cx.fresh("h") for s in size.items)
        return x.with_shape((cx.fresh("n"), cx.fresh("c")) + spatial)
    if x.shape is None or not 3 <= len(x.shape) <= 5:
        return x.with_shape(None)
    n = len(x.shape) - 2
    sizes: list[Value] | None = None
    if has_size:
        sizes = list(size.items) if isinstance(size, SeqV) else [size] * n if isinstance(size, IntV) else None
        if isinstance(size, SeqV) and size.kind in ("list", "tuple", "shape") and len(size.items) != n:
            # torch: "Input and output must have the same number of spatial dimensions" (a ValueError before
            # anything else is looked at, whatever the sizes)
            _resize_count(cx, report, x, "size", len(size.items))
            return x.with_shape(None)
        if sizes is None or len(sizes) != n:
            return x.with_shape(None)
        spatial = tuple(s.size if isinstance(s, IntV) else cx.fresh("h") for s in sizes)
    else:
        scales = list(scale.items) if isinstance(scale, SeqV) else [scale] * n
        if isinstance(scale, SeqV) and scale.kind in ("list", "tuple") and len(scales) != n:
            _resize_count(cx, report, x, "scale_factor", len(scales))
            return x.with_shape(None)
        if len(scales) != n:
            return x.with_shape(None)
        out: list[Size] = []
        for s, h in zip(scales, x.shape[2:]):
            k = s.size.as_int() if isinstance(s, IntV) else None
            f = s.value if isinstance(s, FloatV) else (float(k) if k is not None else None)
            hv = h.as_int()
            if k is not None:
                out.append(h * Size.const(k))
            elif f is not None and hv is not None:
                out.append(Size.const(int(hv * f)))
            else:
                out.append(cx.fresh("h"))
        spatial = tuple(out)
    return x.with_shape(x.shape[:2] + spatial, x.axes)  # the same axes, resized


@register_layer(
    "TransformerBlock",
    "TransformerEncoderLayer",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerDecoder",
    "Transformer",
)
class TransformerBlock(LayerKind):
    """``nn.TransformerEncoderLayer(d_model, nhead, ...)`` / ``nn.TransformerDecoderLayer``, and
    ``nn.TransformerEncoder(layer, num_layers)`` / ``nn.TransformerDecoder``: the output has the shape of the input
    (``src`` / ``tgt``, batched or not), whose last axis must be ``d_model``."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if name == "Transformer":
            # nn.Transformer(d_model=512, nhead=8, ..., batch_first=False): torch's defaults when not given
            d = _size_arg(args, kwargs, 0, "d_model") if args or "d_model" in kwargs else Size.const(512)
            heads = _size_arg(args, kwargs, 1, "nhead") if len(args) > 1 or "nhead" in kwargs else Size.const(8)
            bf = args[10] if len(args) > 10 else kwargs.get("batch_first")
            batch_first = bf.value if isinstance(bf, BoolV) else (False if bf is None else None)
        elif name.endswith("Layer"):
            d = _size_arg(args, kwargs, 0, "d_model")
            heads = _size_arg(args, kwargs, 1, "nhead")
            bf = args[6] if len(args) > 6 else kwargs.get("batch_first")
            batch_first = bf.value if isinstance(bf, BoolV) else (False if bf is None else None)
        else:
            inner = args[0] if args else kwargs.get("encoder_layer", kwargs.get("decoder_layer"))
            known = isinstance(inner, LayerV) and inner.kind == "TransformerBlock"
            d = inner.param("d") if isinstance(inner, LayerV) and known else None
            heads = inner.param("heads") if isinstance(inner, LayerV) and known else None
            batch_first = inner.param("batch_first") if isinstance(inner, LayerV) and known else None
        return LayerV(
            "TransformerBlock", (("d", d), ("name", name), ("heads", heads), ("batch_first", batch_first)), node
        )

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None or len(x.shape) not in (2, 3):
            return x.with_shape(None)
        d = layer.param("d")
        if d is not None and equal(x.shape[-1], d) is Truth.FALSE:
            name = str(layer.param("name", "TransformerEncoderLayer"))
            cx.ctx.report(
                report_node,
                "SHP204",
                {"op": f"nn.{name}", "detail": D.LayerInput(name, "d_model", d, "last-axis", x.shape[-1], x.shape)},
                cx.origins([x]),
                spec=OpSpec("nn.TransformerBlock", None, (x.shape,), (), (("d_model", d),)),
            )
            return x.with_shape(None)
        return x


@register_layer("Embedding")
class Embedding(LayerKind):
    """``nn.Embedding(num_embeddings, embedding_dim)``: indices (*) -> (*, embedding_dim)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return LayerV(
            "Embedding",
            (("n", _size_arg(args, kwargs, 0, "num_embeddings")), ("d", _size_arg(args, kwargs, 1, "embedding_dim"))),
            node,
        )

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None:
            return x.with_shape(None)
        d = layer.param("d")
        if layer.param("lib") == "equinox" and x.shape:
            # eqx.nn.Embedding looks up one scalar index (it raises "should be called with a scalar index" for any
            # array of indices): a sequence of ids goes through jax.vmap
            cx.ctx.report(
                report_node,
                "SHP204",
                {"op": "eqx.nn.Embedding", "detail": D.LayerInput("Embedding", "", (), "scalar", None, x.shape)},
                cx.origins([x]),
                spec=OpSpec(
                    "eqx.nn.Embedding",
                    None,
                    (x.shape,),
                    (),
                    (("num_embeddings", layer.param("n")), ("embedding_size", d)),
                ),
            )
            return x.with_shape(None)
        n = layer.param("n")
        top = x.top[0] if x.top is not None else None
        if top is None and (held := exact_values(x)):
            top = Size.const(max(held))  # torch.tensor([3, 10]): its elements are known
        if layer.param("lib") is None and top is not None and n is not None and greater_equal(top, n) is Truth.TRUE:
            # torch's lookup raises "index out of range in self" for an index >= num_embeddings: ``torch.arange(0, t)``
            # holds t - 1 (the positions of a sequence longer than a learned position table)
            cx.ctx.report(
                report_node,
                "SHP204",
                {"op": "nn.Embedding", "detail": D.EmbeddingIndex(n, top)},
                cx.origins([x]),
                spec=OpSpec("nn.Embedding.index", None, (x.shape,), (), (("num_embeddings", n), ("index", top))),
            )
            return x.with_shape(None)
        return TensorV(x.shape + (d if d is not None else cx.fresh("d"),), None, x.framework)


@register_layer("EmbeddingBag")
class EmbeddingBag(LayerKind):
    """``nn.EmbeddingBag(num_embeddings, embedding_dim)``: one pooled embedding per bag. A (bags, length) input
    gives (bags, embedding_dim); a flat input of indices with ``offsets`` (bags,) gives one row per offset (one
    fewer with ``include_last_offset=True``). A flat input without offsets, or anything else: unknown."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        last = args[8] if len(args) > 8 else kwargs.get("include_last_offset")
        return LayerV(
            "EmbeddingBag",
            (
                ("n", _size_arg(args, kwargs, 0, "num_embeddings")),
                ("d", _size_arg(args, kwargs, 1, "embedding_dim")),
                ("last", last.value if isinstance(last, BoolV) else (False if last is None else None)),
            ),
            node,
        )

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        d = layer.param("d")
        if x.shape is None or d is None or len(x.shape) != 2:
            return x.with_shape(None)
        return TensorV((x.shape[0], d), None, x.framework)


def _embedding_bags(layer: LayerV, x: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``bag(indices, offsets)`` of a flat index tensor: one row per offset (EmbeddingBag)."""
    d = layer.param("d")
    offsets = args[1] if len(args) > 1 else kwargs.get("offsets")
    last = layer.param("last")
    if d is None or not isinstance(offsets, TensorV) or offsets.shape is None or len(offsets.shape) != 1:
        return x.with_shape(None)
    bags = offsets.shape[0]
    if last is not False:  # include_last_offset=True: the last offset closes the last bag
        k = bags.as_int() if last is True else None
        if k is None or k < 1:
            return x.with_shape(None)
        bags = Size.const(k - 1)
    return TensorV((bags, d), None, x.framework)


def _pair_ints(v: Value | None, default: int) -> tuple[int, int] | None:
    """An ``int`` or a pair of ints of ``nn.Unfold`` (its default when not given); None when not known."""
    if v is None:
        return default, default
    if isinstance(v, IntV) and not v.assumed and (i := v.size.as_int()) is not None:
        return i, i
    if isinstance(v, SeqV) and len(v.items) == 2:
        got = [x.size.as_int() if isinstance(x, IntV) and not x.assumed else None for x in v.items]
        if got[0] is not None and got[1] is not None:
            return got[0], got[1]
    return None


_UNFOLD_PARAMS = ("kernel_size", "dilation", "padding", "stride")


def unfold_layer(node: cst.CSTNode, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nn.Unfold(kernel_size, dilation=1, padding=0, stride=1)`` (and ``F.unfold``'s same parameters): a layer of
    known ints, else unknown."""
    if len(args) > 4 or set(kwargs) - set(_UNFOLD_PARAMS):
        return UNKNOWN
    got = []
    for i, (name, default) in enumerate(zip(_UNFOLD_PARAMS, (None, 1, 0, 1))):
        v = args[i] if len(args) > i else kwargs.get(name)
        if v is None and default is None:
            return UNKNOWN
        pair = _pair_ints(v, default if default is not None else 0)
        if pair is None or (name != "padding" and min(pair) < 1) or min(pair) < 0:
            return UNKNOWN
        got.append((name, pair))
    return LayerV("Unfold", tuple(got), node)


@register_layer("Unfold")
class Unfold(LayerKind):
    """``nn.Unfold(kernel_size, dilation=1, padding=0, stride=1)``: sliding blocks of a (N, C, H, W) or (C, H, W)
    input as columns, (N, C * kh * kw, L) with L the product over both spatial axes of
    ``(size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1``. Unknown sizes (or no block at all, where
    torch raises) give an unknown shape."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return unfold_layer(node, args, kwargs)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None or len(x.shape) not in (3, 4):
            return x.with_shape(None)
        (kh, kw), (dh, dw), (ph, pw), (sh, sw) = (layer.param(k) for k in _UNFOLD_PARAMS)
        h, w = (d.as_int() for d in x.shape[-2:])
        c = x.shape[-3]
        if h is None or w is None:
            return x.with_shape(None)
        blocks_h = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
        blocks_w = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
        if blocks_h < 1 or blocks_w < 1:
            return x.with_shape(None)
        out = (c * (kh * kw), Size.const(blocks_h * blocks_w))
        return TensorV(x.shape[:-3] + out, x.dtype, x.framework, None, cx.origin(report_node, "unfold(...)"))


@FUNCTIONS.register("torch.nn.functional.unfold")
def _f_unfold(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``F.unfold(input, kernel_size, dilation=1, padding=0, stride=1)``: as ``nn.Unfold``."""
    x = args[0] if args else kwargs.get("input")
    if not isinstance(x, TensorV):
        return None
    layer_v = unfold_layer(node, args[1:], {k: v for k, v in kwargs.items() if k != "input"})
    if not isinstance(layer_v, LayerV):
        return x.with_shape(None)
    return Unfold.apply(cx, None, node, node, layer_v, x)  # type: ignore[arg-type]


@register_layer("Flatten")
class Flatten(LayerKind):
    """``nn.Flatten(start_dim=1, end_dim=-1)``."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        start_v = args[0] if args else kwargs.get("start_dim")
        end_v = args[1] if len(args) > 1 else kwargs.get("end_dim")
        if len(args) > 2 or set(kwargs) - {"start_dim", "end_dim"} or (args and "start_dim" in kwargs):
            start_v = end_v = UNKNOWN  # more than Flatten takes: not this layer's signature
        start = _ints([start_v]) if start_v is not None else [1]  # nn.Flatten(start_dim=-2)
        end = _ints([end_v]) if end_v is not None else [-1]
        return LayerV(
            "Flatten",
            (("start", tuple(start) if start is not None else None), ("end", tuple(end) if end is not None else None)),
            node,
        )  # hashable params

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        if x.shape is None:
            return x.with_shape(None)
        s, e = layer.param("start"), layer.param("end")
        if s is None or e is None:
            return x.with_shape(None)
        return shape_ops.flatten(x, [IntV(Size.const(s[0])), IntV(Size.const(e[0]))], {})


@register_layer("GLU")
class GLU(LayerKind):
    """``nn.GLU(dim=-1)``: the input with axis ``dim`` halved (its two halves gate each other); an odd or unknown
    length gives an unknown shape."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        v = args[0] if args else kwargs.get("dim")
        dim = _ints([v]) if v is not None else [-1]
        if dim is None or len(args) > 1 or set(kwargs) - {"dim"}:
            return UNKNOWN
        return LayerV("GLU", (("dim", dim[0]),), node)

    @staticmethod
    def apply(
        cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value:
        dim = layer.param("dim")
        if x.shape is None or not isinstance(dim, int) or not -len(x.shape) <= dim < len(x.shape):
            return x.with_shape(None)
        d = dim % len(x.shape)
        half = x.shape[d].exact_div(2) if divisible(x.shape[d], 2) is Truth.TRUE else None
        if half is None:
            return x.with_shape(None)
        return x.with_shape(x.shape[:d] + (half,) + x.shape[d + 1 :])


@register_layer("Parameter", "Parameter", "Buffer")
class Parameter(LayerKind):
    """``nn.Parameter(t)`` / ``nn.Buffer(t)``: the tensor itself."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        t = args[0] if args else kwargs.get("data", UNKNOWN)
        return t if isinstance(t, TensorV) else UNKNOWN


@register_layer("ModuleList")
class ModuleList(LayerKind):
    """``nn.ModuleList(modules)``: the list of its layers."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return _module_list(args[0] if args else kwargs.get("modules", SeqV((), "list")))


def _module_list(v: Value) -> Value:
    """The layers (or parameters) a ``ModuleList`` / ``ParameterList`` is built from, as that list."""
    if isinstance(v, SeqV) and v.kind != "shape":
        return SeqV(v.items, "modulelist")
    if isinstance(v, ManyV):
        return ManyV(v.elem, "modulelist")
    return UNKNOWN


@register_layer("ParameterList")
class ParameterList(LayerKind):
    """``nn.ParameterList(values)``: the list of its parameters (``pl[i]`` is the i-th, of that tensor's shape)."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        return _module_list(args[0] if args else kwargs.get("values", SeqV((), "list")))


@register_layer("ModuleDict")
class ModuleDict(LayerKind):
    """``nn.ModuleDict(modules)``: the dict of its layers."""

    @staticmethod
    def build(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        v = args[0] if args else kwargs.get("modules", DictV(()))
        return DictV(v.items, "moduledict") if isinstance(v, DictV) else UNKNOWN


def _applied_piecewise(cx: OpContext, node: cst.Call) -> bool:
    """``self.decoder = nn.Sequential(...)`` (or ``decoder = ...``) that the class (the function) only ever uses in
    pieces -- ``self.decoder[3 * i : 3 * (i + 1)](h)``, ``for layer in self.decoder`` -- and never calls whole: a
    container of layers, whose consecutive sizes need not fit (a U-Net decoder concatenates a skip between its
    slices). Its chain is not checked at construction; a call of a slice is checked as any call."""
    from .precision import assignment_of, statement_parents

    parents = statement_parents(cx.source)  # a statement and the scopes around it are statement-level nodes
    parent = assignment_of(cx.source, node)
    if type(parent) is cst.Assign and parent.value is node and len(parent.targets) == 1:
        target: cst.BaseExpression = parent.targets[0].target
    elif type(parent) is cst.AnnAssign and parent.value is node:
        target = parent.target
    else:
        return False
    scope_kind: type[cst.ClassDef] | type[cst.FunctionDef]
    if type(target) is cst.Attribute and type(target.value) is cst.Name and target.value.value == "self":
        key, scope_kind = f"self.{target.attr.value}", cst.ClassDef
    elif type(target) is cst.Name:
        key, scope_kind = target.value, cst.FunctionDef
    else:
        return False
    scope = parents.get(id(parent))
    top: cst.CSTNode = parent
    while scope is not None and not isinstance(scope, scope_kind):
        top = scope
        scope = parents.get(id(scope))
    if scope is None:
        # a chain built at a module's top level: only a hook can change what its links are given
        return scope_kind is cst.FunctionDef and isinstance(top, cst.Module) and key in hooked_containers(top)
    piecewise, whole = _container_uses(scope).get(key, (False, False))
    return (piecewise and not whole) or key in hooked_containers(scope)


_HOOK_METHODS = frozenset({"register_forward_pre_hook", "register_forward_hook"})


def hooked_containers(scope: cst.CSTNode) -> frozenset[str]:
    """Names (``enc``) and attributes of self (``self.body``) in ``scope`` that get a forward hook on themselves or
    on a layer reached through them: ``enc[0].register_forward_hook(f)``, ``self.body.register_forward_pre_hook(f)``,
    ``for m in self.body: m.register_forward_hook(f)``. A hook may change what a link gives the next one, so the
    container's own sizes need not fit."""
    from ..interpret.interpreter import _var_key as name_of
    from ..interpret.walk import children, memo

    def root_of(e: cst.CSTNode) -> str | None:
        while name_of(e) is None and type(e) in (cst.Subscript, cst.Attribute, cst.Call):
            e = e.func if type(e) is cst.Call else e.value  # type: ignore[attr-defined]
        return name_of(e)

    def compute(root: cst.CSTNode) -> frozenset[str]:
        loops: dict[str, set[str]] = {}  # loop variable -> the names its iterable reads
        receivers: list[str] = []
        stack = [root]
        while stack:
            n = stack.pop()
            stack.extend(children(n))
            tp = type(n)
            if (tp is cst.For or tp is cst.CompFor) and type(n.target) is cst.Name:  # type: ignore[attr-defined]
                read: set[str] = set()
                inner = [n.iter]  # type: ignore[attr-defined]
                while inner:
                    e = inner.pop()
                    k = name_of(e)
                    if k:
                        read.add(k)
                    inner.extend(children(e))
                loops.setdefault(n.target.value, set()).update(read)  # type: ignore[attr-defined]
            elif tp is cst.Call and type(n.func) is cst.Attribute and n.func.attr.value in _HOOK_METHODS:  # type: ignore[attr-defined]
                k = root_of(n.func.value)  # type: ignore[attr-defined]
                if k:
                    receivers.append(k)
        out: set[str] = set()
        for k in receivers:
            out.add(k)
            out.update(loops.get(k, ()))
        return frozenset(out)

    return memo("hooked-containers", scope, compute)


def _container_uses(scope: cst.CSTNode) -> dict[str, tuple[bool, bool]]:
    """Per name (``x``) and attribute of self (``self.x``) in ``scope``: (used in pieces -- subscripted, or the
    iterable of a for loop or comprehension, directly or inside enumerate/zip/reversed --, called whole)."""
    from ..interpret.interpreter import _var_key as name_of
    from ..interpret.walk import children, memo

    def compute(root: cst.CSTNode) -> dict[str, tuple[bool, bool]]:
        pieces: set[str] = set()
        called: set[str] = set()
        stack = [root]
        while stack:
            n = stack.pop()
            stack.extend(children(n))
            # exact types (libcst's node classes are ABCs, and this walk passes every node of a class)
            tp = type(n)
            if tp is cst.Subscript:
                k = name_of(n.value)  # type: ignore[attr-defined]
                if k:
                    pieces.add(k)
            elif tp is cst.For or tp is cst.CompFor:
                it = n.iter  # type: ignore[attr-defined]
                iters = [it]
                if type(it) is cst.Call and type(it.func) is cst.Name:
                    if it.func.value in ("enumerate", "zip", "reversed"):
                        iters = [a.value for a in it.args]
                for e in iters:
                    k = name_of(e)
                    if k:
                        pieces.add(k)
            elif tp is cst.Call:
                k = name_of(n.func)  # type: ignore[attr-defined]
                if k:
                    called.add(k)
        return {k: (k in pieces, k in called) for k in pieces | called}

    return memo("sequential-uses", scope, compute)


def check_chain(cx: OpContext, node: cst.Call, layers: tuple[Value, ...]) -> None:
    """An ``nn.Sequential`` whose own sizes cannot fit, whatever its input: ``Linear(d, 4 * d)`` then
    ``Linear(2 * d, d)``. Reported on the layer that cannot take the previous one's output, with notes naming where
    the previous sizing layer and that one were built (a chain made from a list, ``nn.Sequential(*m)``, is reported
    at its own call)."""
    marks = _mark(cx.ctx)
    seen: list[LayerV] = []
    _check_chain(cx, node, layers, seen)
    if not seen:
        return
    failing = seen[-1]
    before = next((x for x in reversed(seen[:-1]) if x.kind not in ("Elementwise", "Dropout")), None)
    extra = tuple(x.built for x in (before, failing) if x is not None and x.built is not None)
    if extra:
        _amend_since(
            marks,
            lambda p: (
                replace(p, notes=p.notes + tuple(n for n in extra if n not in p.notes)) if p.code == "SHP204" else None
            ),
        )


def _check_chain(cx: OpContext, node: cst.Call, layers: tuple[Value, ...], seen: list[LayerV]) -> None:
    feature: Size | None = None  # last axis (Linear) or channels (Conv) the previous layers leave
    kind: str | None = None  # "last" | "channel"
    arg_nodes = {id(a.value) for a in node.args}
    for a in node.args:  # (equinox's and haiku's Sequential take a list of layers)
        if type(a.value) in (cst.List, cst.Tuple):
            arg_nodes |= {id(e.value) for e in a.value.elements if type(e) is cst.Element}  # type: ignore[attr-defined]
    for sub in layers:
        if not isinstance(sub, LayerV):
            return
        seen.append(sub)
        where = sub.line_node if sub.line_node is not None and id(sub.line_node) in arg_nodes else node
        if sub.kind == "Linear":
            fin, fout = sub.param("in"), sub.param("out")
            if kind == "last" and feature is not None and fin is not None and equal(feature, fin) is Truth.FALSE:
                cx.ctx.report(
                    where,
                    "SHP204",
                    {
                        "op": "nn.Linear",
                        "detail": D.LayerInput("Linear", "in_features", fin, "last-axis", feature, sequential=True),
                    },
                    spec=OpSpec("nn.Linear", None, ((feature,),), (), (("in_features", fin), ("out_features", fout))),
                )
                return
            feature, kind = fout, "last"
        elif sub.kind.startswith("Conv") or sub.kind == "TransposedConv":
            cin, cout = sub.param("in"), sub.param("out")
            if kind == "channel" and feature is not None and cin is not None and equal(feature, cin) is Truth.FALSE:
                n = sub.param("n")
                ks, ds = sub.param("k") or (1,), sub.param("d") or (1,)
                side = Size.const(max(64, max(ds) * (max(ks) - 1) + 1))
                label = f"ConvTranspose{n}d" if sub.kind == "TransposedConv" else sub.kind
                cx.ctx.report(
                    where,
                    "SHP204",
                    {
                        "op": f"nn.{label}",
                        "detail": D.LayerInput(label, "in_channels", cin, "channels", feature, sequential=True),
                    },
                    spec=OpSpec(
                        "nn.ConvTranspose" if sub.kind == "TransposedConv" else "nn.Conv",
                        None,
                        ((feature,) + (side,) * n,),
                        (),
                        (
                            ("n", n),
                            ("in_channels", cin),
                            ("out_channels", cout),
                            ("k", sub.param("k")),
                            ("s", sub.param("s")),
                            ("p", sub.param("p")),
                            ("d", sub.param("d")),
                        ),
                    ),
                )
                return
            feature, kind = cout, "channel"
        elif sub.kind in ("ChannelNorm", "GroupNorm"):
            c = sub.param("c")
            if kind == "channel" and feature is not None and c is not None and equal(feature, c) is Truth.FALSE:
                name = sub.param("name", "GroupNorm")
                cx.ctx.report(
                    where,
                    "SHP204",
                    {
                        "op": f"nn.{name}",
                        "detail": D.LayerInput(name, "num_channels", c, "channels", feature, sequential=True),
                    },
                    spec=OpSpec(
                        "nn.GroupNorm",
                        None,
                        ((Size.const(1), feature, Size.const(4)),),
                        (),
                        (("num_channels", c), ("n", 1)),
                    ),
                )
                return
        elif sub.kind == "LayerNorm":
            shape = sub.param("shape")
            if kind == "last" and feature is not None and shape and equal(feature, shape[-1]) is Truth.FALSE:
                cx.ctx.report(
                    where,
                    "SHP204",
                    {
                        "op": "nn.LayerNorm",
                        "detail": D.LayerInput("LayerNorm", "", tuple(shape), "last-axis", feature, sequential=True),
                    },
                    spec=OpSpec("nn.LayerNorm", None, ((feature,),), (), (("normalized_shape", tuple(shape)),)),
                )
                return
        elif sub.kind == "PixelShuffle" and sub.param("name") == "PixelShuffle" and kind == "channel":
            r = sub.param("r")
            fits = divisible(feature, r * r) if feature is not None else Truth.UNKNOWN
            if fits is Truth.FALSE and feature is not None:
                shape = (Size.const(1), feature, Size.const(4), Size.const(4))
                _report_pixel_shuffle(cx, where, "PixelShuffle", r, shape, "channels", feature, [], sequential=True)
                return
            feature = feature.exact_div(r * r) if fits is Truth.TRUE and feature is not None else None
        elif sub.kind != "Elementwise" or sub.param("name") in ("Softmax", "LogSoftmax", "Softmin"):
            feature, kind = None, None


def jax_layer(cx: OpContext, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """equinox.nn layers whose sizes the call gives (the library is not analysed code; flax.linen: frameworks.py),
    each noting where it was built (as ``layer`` does)."""
    return _noted_build(cx, node, qual.rsplit(".", 1)[-1], _equinox_layer(cx, node, qual, args, kwargs))


def _equinox_layer(cx: OpContext, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    name = qual.rsplit(".", 1)[-1]

    def size(i: int, *kws: str) -> Size | None:
        v = args[i] if len(args) > i else next((kwargs[k] for k in kws if k in kwargs), None)
        return v.size if isinstance(v, IntV) else None

    def named(i: int, *kws: str) -> bool:
        v = args[i] if len(args) > i else next((kwargs[k] for k in kws if k in kwargs), None)
        return not isinstance(v, IntV) and v is not None and v is not UNKNOWN

    if name in ("Linear", "MLP") and (named(0, "in_features", "in_size") or named(1, "out_features", "out_size")):
        # eqx.nn.Linear(n, "scalar"): a 0-d output (or input) with no axis for it; not followed
        return UNKNOWN
    if name == "Linear":
        use_bias = args[2] if len(args) > 2 else kwargs.get("use_bias", BoolV(True))
        bias = (("bias", use_bias.value),) if isinstance(use_bias, BoolV) and use_bias.value is not None else ()
        return LayerV(
            "Linear",
            (("in", size(0, "in_features")), ("out", size(1, "out_features")), ("lib", "equinox")) + bias,
            node,
        )
    if name == "MultiheadAttention":
        from .jax_ops import eqx_mha

        return eqx_mha(cx, node, args, {k: v for k, v in kwargs.items() if k != "key"})
    if name == "RotaryPositionalEmbedding" and set(kwargs) <= {"embedding_size", "theta", "dtype"} and len(args) <= 2:
        v = args[0] if args else kwargs.get("embedding_size")
        if not isinstance(v, IntV) or v.assumed:
            return UNKNOWN
        return LayerV("EqxRoPE", (("d", v.size), ("lib", "equinox")), node)
    if name == "MLP":
        return LayerV(
            "Linear",
            (("in", size(0, "in_size")), ("out", size(1, "out_size")), ("lib", "equinox"), ("name", "MLP")),
            node,
        )
    if name == "Embedding" and "weight" not in kwargs:
        return LayerV(
            "Embedding",
            (("n", size(0, "num_embeddings")), ("d", size(1, "embedding_size")), ("lib", "equinox")),
            node,
        )
    if name in ("Conv1d", "Conv2d", "Conv3d"):
        _EQUINOX_CONV[0] = True
        try:
            return layer(cx, node, name, args, {k: v for k, v in kwargs.items() if k != "key"})
        finally:
            _EQUINOX_CONV[0] = False
    if name in ("LayerNorm", "RMSNorm"):
        v = args[0] if args else kwargs.get("shape")
        built = layer(cx, node, "LayerNorm", [v] if v is not None else [], {})
        if not isinstance(built, LayerV) or built.param("shape") is None:
            return UNKNOWN
        # equinox (>= 0.11): ``x.shape == shape`` exactly, one example (no leading batch axes); a constructor
        # parameter taken for an int may be a tuple there: its layer decides nothing
        if isinstance(v, IntV) and v.assumed:
            return UNKNOWN
        return LayerV("LayerNorm", built.params + (("lib", "equinox"), ("name", name)), node)
    if name == "GroupNorm" and set(kwargs) <= {"groups", "channels", "eps", "channelwise_affine", "dtype"}:
        groups = args[0] if args else kwargs.get("groups")
        chans = args[1] if len(args) > 1 else kwargs.get("channels")
        if not isinstance(chans, IntV) or chans.assumed or not isinstance(groups, IntV) or len(args) > 2:
            return UNKNOWN  # channels=None: any channel count the groups divide
        built = layer(cx, node, "GroupNorm", [groups, chans], {})
        return LayerV("GroupNorm", built.params + (("lib", "equinox"),), node) if isinstance(built, LayerV) else UNKNOWN
    if name in ("GRUCell", "LSTMCell"):
        cell = layer(cx, node, name, args[:2], {k: v for k, v in kwargs.items() if k in ("input_size", "hidden_size")})
        return LayerV(cell.kind, cell.params + (("lib", "equinox"),), node) if isinstance(cell, LayerV) else UNKNOWN
    if name in ("Dropout", "Identity"):
        return LayerV("Elementwise", (("name", name),), node)
    if name == "Lambda":
        return _equinox_lambda(node, args, kwargs)
    if name == "Sequential" and len(args) + len(kwargs) == 1 and set(kwargs) <= {"layers"}:
        # eqx.nn.Sequential([...]): the list's layers in turn, as torch's nn.Sequential(*layers) runs them
        v = args[0] if args else kwargs["layers"]
        if not isinstance(v, SeqV) or v.kind not in ("list", "tuple"):
            return UNKNOWN
        return layer(cx, node, "Sequential", list(v.items), {})
    if name in _EQX_ADAPTIVE and len(args) + len(kwargs) == 1 and set(kwargs) <= {"target_shape"}:
        # equinox adaptive pools: (channels, *spatial) -> (channels, *target_shape), one example (no batch axis)
        v = args[0] if args else kwargs["target_shape"]
        n = int(name[-2])
        items = v.items if isinstance(v, SeqV) else (v,) * n if isinstance(v, IntV) else None
        if items is None or len(items) != n or not all(isinstance(i, IntV) and not i.assumed for i in items):
            return UNKNOWN
        out = tuple(i.size for i in items if isinstance(i, IntV))
        return LayerV("AdaptivePool", (("n", n), ("out", out), ("lib", "equinox")), node)
    if (
        name in ("MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d")
        and "use_ceil" not in kwargs
    ):
        # equinox pools: stride 1 unless given (torch's default is the kernel size)
        pool_kw = {k: v for k, v in kwargs.items() if k in ("kernel_size", "stride", "padding")}
        if len(args) > 3 or len(pool_kw) != len(kwargs):
            return UNKNOWN
        if len(args) < 2 and "stride" not in pool_kw:
            pool_kw["stride"] = IntV(Size.const(1))
        return pool_layer(node, name, args, pool_kw)
    return UNKNOWN


def _equinox_lambda(node: cst.Call, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``eqx.nn.Lambda(fn)`` of a jax function whose result keeps its input's shape (``jax.nn.relu``, ``jnp.tanh``):
    an activation; of ``jnp.ravel``: a flatten of every axis (one example: equinox layers see no batch axis).
    Any other function: unknown."""
    fn = args[0] if len(args) == 1 and not kwargs else kwargs.get("fn") if not args and set(kwargs) == {"fn"} else None
    if not isinstance(fn, RefV) or not fn.qualname.startswith(("jax.nn.", "jax.numpy.")):
        return UNKNOWN
    last = fn.qualname.rsplit(".", 1)[-1]
    if fn.qualname in ("jax.numpy.ravel", "jax.numpy.ndarray.flatten"):
        return LayerV("Flatten", (("start", (0,)), ("end", (-1,))), node)
    if last in SAME_SHAPE and fn.qualname.count(".") == 2:
        return LayerV("Elementwise", (("name", last),), node)
    return UNKNOWN


_EQX_ADAPTIVE = frozenset(f"Adaptive{k}Pool{n}d" for k in ("Avg", "Max") for n in (1, 2, 3))


def _conv_ranked(cx: OpContext, report_node: cst.CSTNode, layer: LayerV, x: TensorV) -> Value:
    """A convolution on an input of unknown sizes whose rank a check fixed (``b, c, h, w = x.shape``): a batched input
    (n + 2 axes) gives (batch, out_channels, *spatial), an unbatched one (n + 1) gives (out_channels, *spatial): the
    same rank, the channel axis known, the spatial sizes not. Rank not known: ``_conv_unranked``."""
    from .ops import _exact_rank

    rank, n, out = _exact_rank(x), layer.param("n"), layer.param("out")
    if rank is None and isinstance(n, int) and layer.param("lib") is None:
        return _conv_unranked(cx, report_node, layer, x, n)
    if rank is None or not isinstance(n, int) or out is None or rank not in (n + 1, n + 2):
        return x.with_shape(None)
    lead = (cx.fresh("batch"), out) if rank == n + 2 else (out,)
    return TensorV(None, x.dtype, x.framework, None, x.origin, (lead, cx.fresh("V"), ()), not_ranks=x.not_ranks)


def _conv_sets_channels(layer: LayerV) -> bool:
    """A torch ``nn.Conv{n}d`` whose out_channels is known: its output ends in (out_channels, *spatial)."""
    return (
        layer.kind in ("Conv1d", "Conv2d", "Conv3d")
        and layer.param("lib") is None
        and isinstance(layer.param("n"), int)
        and layer.param("out") is not None
    )


def _conv_rank_fails(
    cx: OpContext, report_node: cst.CSTNode, layer: LayerV, x: TensorV, actual: object, witness: tuple[Size, ...]
) -> None:
    """SHP201: a convolution given an input of neither rank it takes (n + 1 or n + 2 axes), replayed on ``witness``."""
    n = layer.param("n")
    cx.ctx.report(
        report_node,
        "SHP201",
        {
            "what": layer.param("fn") or f"nn.{layer.kind}",
            "expected": f"{n + 1} or {n + 2}",
            "subject": "its input",
            "actual": actual,
        },
        cx.origins([x]),
        spec=_conv_spec(layer, witness),
    )


def _conv_unranked(cx: OpContext, report_node: cst.CSTNode, layer: LayerV, x: TensorV, n: int) -> Value:
    """``nn.Conv{n}d`` on an input of unknown rank: it runs only on n + 1 or n + 2 axes, whose channel axis is the
    (n + 1)-th from the end either way. Known trailing axes (a convolution's output before it) are checked there;
    the output ends in (out_channels, *spatial), the spatial sizes new (a following BatchNorm reads the channels)."""
    vs, cin, out = x.vshape, layer.param("in"), layer.param("out")
    if {n + 1, n + 2} <= x.not_ranks:
        # neither rank it takes (an AdaptiveAvgPool2d's output for an input of five axes or more)
        c = cin.as_int() if cin is not None and cin.as_int() else 2
        witness = (Size.const(2),) * 2 + (Size.const(c),) + (Size.const(8),) * n
        _conv_rank_fails(cx, report_node, layer, x, "another number", witness)
        return x.with_shape(None)
    if vs is not None and len(vs[2]) >= n + 1:
        c = vs[2][-n - 1]
        if cin is not None and equal(c, cin) is Truth.FALSE:
            ks, ds = layer.param("k") or (1,), layer.param("d") or (1,)
            side = Size.const(max(64, max(ds) * (max(ks) - 1) + 1))
            cx.ctx.report(
                report_node,
                "SHP204",
                {
                    "op": layer.param("fn") or f"nn.{layer.kind}",
                    "detail": D.LayerInput(layer.kind, "in_channels", cin, "channels", c),
                },
                cx.origins([x]),
                spec=_conv_spec(layer, (Size.const(2), c) + (side,) * n),
            )
            return x.with_shape(None)
        if out is None:
            return x.with_shape(None)
        spatial = tuple(cx.fresh("h") for _ in range(n))
        return TensorV(None, x.dtype, x.framework, None, x.origin, (vs[0], vs[1], vs[2][: -n - 1] + (out,) + spatial))
    if out is None or (vs is not None and (vs[0] or vs[2])) or x.alts:
        return x.with_shape(None)
    spatial = tuple(cx.fresh("h") for _ in range(n))
    return TensorV(None, x.dtype, x.framework, None, x.origin, ((), cx.fresh("V"), (out,) + spatial))


def _norm_unranked(cx: OpContext, report_node: cst.CSTNode, layer: LayerV, x: TensorV) -> Value:
    """``nn.BatchNorm{2,3}d`` / ``nn.InstanceNorm{n}d`` on an input of unknown rank whose trailing axes are known (a
    convolution's output): the channel axis is the (n + 1)-th from the end on every rank the layer takes (BatchNorm2d
    4-d only, InstanceNorm2d 3-d or 4-d); BatchNorm1d's depends on the rank and is not read."""
    vs, c, n = x.vshape, layer.param("c"), layer.param("n")
    name = layer.param("name", "")
    if (
        vs is None
        or x.alts
        or c is None
        or not isinstance(n, int)
        or len(vs[2]) < n + 1
        or (name.startswith(("BatchNorm", "LazyBatchNorm", "SyncBatchNorm")) and n < 2)
        or not name.startswith(("BatchNorm", "InstanceNorm"))
    ):
        return x.with_shape(None) if vs is None or x.alts else x
    found = vs[2][-n - 1]
    if equal(found, c) is not Truth.FALSE:
        return x
    shape = (Size.const(2), found) + (Size.const(4),) * n
    cx.ctx.report(
        report_node,
        "SHP204",
        {"op": f"nn.{name}", "detail": D.LayerInput(name, "num_features", c, "channels", found)},
        cx.origins([x]),
        spec=OpSpec("nn.ChannelNorm", None, (shape,), (), (("name", name), ("num_features", c))),
    )
    return x.with_shape(None)


def _sets_trailing_axes(layer: LayerV) -> bool:
    """A torch-style ``LayerNorm`` / ``RMSNorm`` whose ``normalized_shape`` is known (not a constructor parameter that
    may be a tuple, not equinox's, which takes one example of exactly its shape): its output ends in those axes."""
    return (
        layer.kind == "LayerNorm"
        and bool(layer.param("shape"))
        and not layer.param("assumed")
        and layer.param("lib") is None
    )


def _apply_unranked(cx: OpContext, report_node: cst.CSTNode, layer: LayerV, x: TensorV) -> Value:
    """Linear / LayerNorm on an input of unknown rank: its known trailing axes (an einops ``...`` result) are
    checked, and the output keeps the last axis the layer sets (``(..., out_features)``), which a later einops
    pattern reads."""
    vs = x.vshape
    last = vs[2][-1] if vs is not None and vs[2] else None
    if layer.kind == "LayerNorm":
        shape = layer.param("shape")
        if _sets_trailing_axes(layer) and (vs is None or not (vs[0] or vs[2])):
            # nothing known of the input: what the layer returns ends in its normalized_shape (the call fails
            # otherwise), ``(..., d)`` as nn.Linear's ``(..., out_features)``
            return TensorV(
                None, x.dtype, x.framework, None, x.origin, ((), cx.fresh("V"), shape), not_ranks=x.not_ranks
            )
        if last is not None and shape and equal(last, shape[-1]) is Truth.FALSE:
            cx.ctx.report(
                report_node,
                "SHP204",
                {"op": "nn.LayerNorm", "detail": D.LayerInput("LayerNorm", "", tuple(shape), "last-axis", last)},
                cx.origins([x]),
                spec=OpSpec("nn.LayerNorm", None, ((last,),), (), (("normalized_shape", tuple(shape)),)),
            )
            return x.with_shape(None)
        return x
    fin, fout = layer.param("in"), layer.param("out")
    if last is not None and fin is not None and equal(last, fin) is Truth.FALSE:
        cx.ctx.report(
            report_node,
            "SHP204",
            {"op": "nn.Linear", "detail": D.LayerInput("Linear", "in_features", fin, "last-axis", last)},
            cx.origins([x]),
            spec=OpSpec("nn.Linear", None, ((last,),), (), (("in_features", fin), ("out_features", fout))),
        )
        return x.with_shape(None)
    if fout is None:
        return x.with_shape(None)
    # the output has the input's rank: what a check said of it (``b, n, _ = x.shape``) holds for the output too
    if vs is not None and vs[2]:
        return TensorV(
            None, x.dtype, x.framework, None, x.origin, (vs[0], vs[1], vs[2][:-1] + (fout,)), not_ranks=x.not_ranks
        )
    return TensorV(
        None,
        x.dtype,
        x.framework,
        None,
        x.origin,
        (vs[0] if vs is not None else (), cx.fresh("V"), (fout,)),
        not_ranks=x.not_ranks,
    )
