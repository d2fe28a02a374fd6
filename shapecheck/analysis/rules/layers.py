"""``torch.nn`` layers: Linear, LayerNorm, Conv*d, Embedding, Flatten, activations and Sequential chains."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from ...sizes import Size, Truth, equal
from ..interpret.context import OpSpec
from .shapes_bridge import shape_text
from ..interpret.values import (
    UNKNOWN, DictV, IntV, LayerV, ManyV, ObjV, SeqV, StrV, TensorV, Value,
)

if TYPE_CHECKING:
    from ..interpret.interpreter import Interpreter

from .ops_common import (
    _ints,
)
from . import shape_ops
from .registry import OpContext


def layer(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    def size_arg(i: int, kw: str) -> Size | None:
        v = args[i] if len(args) > i else kwargs.get(kw)
        return v.size if isinstance(v, IntV) else None

    if name == "Linear":
        return LayerV("Linear", (("in", size_arg(0, "in_features")), ("out", size_arg(1, "out_features"))), node)
    if name == "LayerNorm":
        v = args[0] if args else kwargs.get("normalized_shape")
        shape = tuple(x.size for x in v.items if isinstance(x, IntV)) if isinstance(v, SeqV) and all(isinstance(x, IntV) for x in v.items) else ((v.size,) if isinstance(v, IntV) else None)
        return LayerV("LayerNorm", (("shape", shape),), node)
    if name in ("Conv1d", "Conv2d", "Conv3d"):
        def tup(v: Value | None, default: int) -> tuple[int, ...] | None:
            if v is None:
                return (default,)
            if isinstance(v, IntV) and v.size.as_int() is not None:
                return (v.size.as_int(),)  # type: ignore[return-value]
            if isinstance(v, SeqV):
                return tuple(_ints(v.items) or ()) or None
            return None
        k = tup(args[2] if len(args) > 2 else kwargs.get("kernel_size"), 1)
        s = tup(args[3] if len(args) > 3 else kwargs.get("stride"), 1)
        p_v = args[4] if len(args) > 4 else kwargs.get("padding")
        p = None if isinstance(p_v, StrV) else tup(p_v, 0)
        d = tup(args[5] if len(args) > 5 else kwargs.get("dilation"), 1)
        return LayerV(name, (("in", size_arg(0, "in_channels")), ("out", size_arg(1, "out_channels")), ("k", k), ("s", s), ("p", p), ("d", d),
                             ("n", int(name[4]))), node)
    if name in ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"):
        return LayerV("TransposedConv", (("in", size_arg(0, "in_channels")), ("out", size_arg(1, "out_channels")), ("n", int(name[-2]))), node)
    if name == "Sequential":
        if len(args) == 1 and isinstance(args[0], DictV) and not kwargs:  # Sequential(OrderedDict(...)) not read
            return UNKNOWN
        layers = tuple(args) if not kwargs else ()
        check_chain(cx, node, layers)
        return LayerV("Sequential", (("layers", layers),), node)
    if name in ("Parameter", "Buffer"):
        t = args[0] if args else kwargs.get("data", UNKNOWN)
        return t if isinstance(t, TensorV) else UNKNOWN
    if name == "ModuleList":
        v = args[0] if args else kwargs.get("modules", SeqV((), "list"))
        if isinstance(v, SeqV) and v.kind != "shape":
            return SeqV(v.items, "modulelist")
        if isinstance(v, ManyV):
            return ManyV(v.elem, "modulelist")
        return UNKNOWN
    if name == "ModuleDict":
        v = args[0] if args else kwargs.get("modules", DictV(()))
        return v if isinstance(v, DictV) else UNKNOWN
    if name in ("Identity", "GELU", "ReLU", "SiLU", "Tanh", "Sigmoid", "Dropout", "Softmax", "LeakyReLU", "Mish", "ELU", "Hardswish", "Dropout1d", "Dropout2d", "Softplus",
                "Dropout3d", "ReLU6", "PReLU", "SELU", "CELU", "GLU0", "Hardsigmoid", "Hardtanh", "LogSoftmax", "Softsign", "Tanhshrink", "AlphaDropout", "Softmin"):
        return LayerV("Elementwise", (("name", name),), node)
    if name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "SyncBatchNorm", "LazyBatchNorm2d"):
        c = size_arg(0, "num_features") if not name.startswith("Lazy") else None
        n = int(name[-2]) if name[-2].isdigit() else None
        return LayerV("ChannelNorm", (("name", name), ("c", c), ("n", n)), node)
    if name == "GroupNorm":
        return LayerV("GroupNorm", (("groups", size_arg(0, "num_groups")), ("c", size_arg(1, "num_channels"))), node)
    if name == "RMSNorm":
        v = args[0] if args else kwargs.get("normalized_shape")
        rms: tuple[Size, ...] | None = None
        if isinstance(v, IntV):
            rms = (v.size,)
        elif isinstance(v, SeqV) and all(isinstance(x, IntV) for x in v.items):
            rms = tuple(x.size for x in v.items if isinstance(x, IntV))
        return LayerV("LayerNorm", (("shape", rms), ("name", "RMSNorm")), node)
    if name == "MultiheadAttention":
        bf = args[6] if len(args) > 6 else kwargs.get("batch_first")
        kdim = args[4] if len(args) > 4 else kwargs.get("kdim")
        vdim = args[5] if len(args) > 5 else kwargs.get("vdim")
        from ..interpret.values import BoolV, NoneV
        return LayerV("MultiheadAttention", (("e", size_arg(0, "embed_dim")), ("heads", size_arg(1, "num_heads")),
                                             ("batch_first", bf.value if isinstance(bf, BoolV) else (False if bf is None else None)),
                                             ("plain_kv", (kdim is None or isinstance(kdim, NoneV)) and (vdim is None or isinstance(vdim, NoneV)))), node)
    if name == "Embedding":
        return LayerV("Embedding", (("n", size_arg(0, "num_embeddings")), ("d", size_arg(1, "embedding_dim"))), node)
    if name == "Flatten":
        return LayerV("Flatten", (("start", _ints([args[0]]) if args else [1]), ("end", _ints([args[1]]) if len(args) > 1 else [-1])), node)
    return UNKNOWN


def apply_layer(cx: OpContext, interp: "Interpreter", node: cst.Call, layer: LayerV, args: list[Value], kwargs: dict[str, Value], in_sequential: bool = False) -> Value:
    if layer.param("compute_dtype") is not None:  # a Keras layer under a dtype policy (frameworks.py)
        from . import frameworks
        return frameworks.apply_with_policy(cx, interp, node, layer, args, kwargs, in_sequential)
    x = args[0] if args else UNKNOWN
    report_node: cst.CSTNode = layer.line_node if in_sequential and layer.line_node is not None else node
    if not in_sequential:
        cx.ctx.note_evidence(node, "layer", x if isinstance(x, TensorV) else None)
    if layer.kind in ("Rearrange", "Reduce", "EinMix"):
        return cx.m.einops.apply_layer(report_node, layer, x)
    if layer.kind.startswith("fw:"):  # Keras / Flax layers (frameworks.py)
        from . import frameworks
        return frameworks.apply_layer(cx, node, report_node, layer, x, args)
    if x is UNKNOWN and layer.kind == "Linear" and len(args) == 1 and not kwargs:
        x = TensorV(None, None, "torch")  # what nn.Linear returns is a tensor whose last axis is out_features
    if not isinstance(x, TensorV):
        return UNKNOWN
    if layer.kind == "Sequential" and layer.param("repeat") is not None:
        # any number of the same block (zero included): its output when it keeps the input's shape, else unknown
        sub = layer.param("repeat")
        once = apply_layer(cx, interp, node, sub, [x], {}) if isinstance(sub, LayerV) else \
            cx.m.call_object(interp, node, sub, [x], {}) if isinstance(sub, ObjV) else UNKNOWN
        return x if isinstance(once, TensorV) and once.shape == x.shape and x.shape is not None else x.with_shape(None)
    if layer.kind == "Sequential":
        out: Value = x
        for sub in layer.param("layers", ()):
            if isinstance(sub, LayerV):
                out = apply_layer(cx, interp, node, sub, [out], {}, in_sequential=True)
            elif isinstance(sub, ObjV):
                out = cx.m.call_object(interp, node, sub, [out], {})
            else:
                out = UNKNOWN
            if not isinstance(out, TensorV):
                return UNKNOWN
        return out
    if layer.kind == "Elementwise":
        return x
    if x.shape is None and layer.kind in ("Linear", "LayerNorm"):
        return _apply_unranked(cx, report_node, layer, x)
    if x.shape is None:
        return x.with_shape(None)
    if layer.kind == "Linear":
        fin, fout = layer.param("in"), layer.param("out")
        if not x.shape:
            return x.with_shape(None)
        if fin is not None and equal(x.shape[-1], fin) is Truth.FALSE:
            cx.ctx.report(report_node, "SHP204", {"op": "nn.Linear", "reason": f"Linear(in_features={fin}) cannot take an input whose last axis is {x.shape[-1]} "
                                                                               f"(input shape {shape_text(x.shape)})"}, cx.origins([x]),
                            spec=OpSpec("nn.Linear", None, (x.shape,), (), (("in_features", fin), ("out_features", fout))))
            return x.with_shape(None)
        return x.with_shape(x.shape[:-1] + (fout if fout is not None else cx.fresh("out_features"),))
    if layer.kind == "LayerNorm":
        shape = layer.param("shape")
        if shape is not None and len(shape) <= len(x.shape):
            tail = x.shape[len(x.shape) - len(shape):]
            for a, b in zip(tail, shape):
                if equal(a, b) is Truth.FALSE:
                    cx.ctx.report(report_node, "SHP204", {"op": "nn.LayerNorm", "reason": f"LayerNorm({', '.join(map(str, shape))}) cannot take an input of shape {shape_text(x.shape)}"}, cx.origins([x]),
                                    spec=OpSpec("nn.LayerNorm", None, (x.shape,), (), (("normalized_shape", tuple(shape)),)))
                    return x.with_shape(None)
        return x
    if layer.kind.startswith("Conv"):
        n = layer.param("n")
        if len(x.shape) not in (n + 1, n + 2):
            if len(x.shape) < n + 1 or len(x.shape) > n + 2:
                cx.ctx.report(report_node, "SHP201", {"what": f"nn.{layer.kind}", "expected": f"{n + 1} or {n + 2}", "subject": "its input", "actual": len(x.shape)}, cx.origins([x]),
                                spec=OpSpec("nn.Conv", None, (x.shape,), (), (("n", n), ("in_channels", layer.param("in")), ("out_channels", layer.param("out")), ("k", layer.param("k")), ("s", layer.param("s")), ("p", layer.param("p")), ("d", layer.param("d")))))
            return x.with_shape(None)
        c = x.shape[-n - 1]
        cin = layer.param("in")
        if cin is not None and equal(c, cin) is Truth.FALSE:
            cx.ctx.report(report_node, "SHP204", {"op": f"nn.{layer.kind}", "reason": f"{layer.kind}(in_channels={cin}) cannot take an input with {c} channels "
                                                                                     f"(input shape {shape_text(x.shape)})"}, cx.origins([x]),
                            spec=OpSpec("nn.Conv", None, (x.shape,), (), (("n", n), ("in_channels", cin), ("out_channels", layer.param("out")), ("k", layer.param("k")), ("s", layer.param("s")), ("p", layer.param("p")), ("d", layer.param("d")))))
            return x.with_shape(None)
        spatial = []
        k, s, p, d = (layer.param(key) for key in ("k", "s", "p", "d"))
        for i, size in enumerate(x.shape[-n:]):
            def pick(v: tuple[int, ...] | None, i: int = i) -> int | None:
                if v is None:
                    return None
                return v[0] if len(v) == 1 else (v[i] if i < len(v) else None)
            ki, si, pi, di = pick(k), pick(s), pick(p), pick(d)
            hv = size.as_int()
            if None in (ki, si, pi, di):
                spatial.append(cx.fresh("h"))
            elif hv is not None:
                spatial.append(Size.const((hv + 2 * pi - di * (ki - 1) - 1) // si + 1))  # type: ignore[operator]
            elif si == 1 and di * (ki - 1) == 2 * pi:  # type: ignore[operator]
                spatial.append(size)
            else:
                spatial.append(cx.fresh("h"))
        cout = layer.param("out")
        return x.with_shape(x.shape[:-n - 1] + (cout if cout is not None else cx.fresh("c"),) + tuple(spatial))
    if layer.kind == "ChannelNorm":
        c, n = layer.param("c"), layer.param("n")
        if n is not None and len(x.shape) not in (n + 1, n + 2) and layer.param("name", "").startswith("Batch"):
            return x
        if c is not None and len(x.shape) >= 2 and equal(x.shape[1], c) is Truth.FALSE and (n is None or len(x.shape) == n + 2):
            cx.ctx.report(report_node, "SHP204", {"op": f"nn.{layer.param('name')}", "reason": f"{layer.param('name')}(num_features={c}) cannot take an input with {x.shape[1]} channels "
                                                                                            f"(input shape {shape_text(x.shape)})"}, cx.origins([x]))
            return x.with_shape(None)
        return x
    if layer.kind == "GroupNorm":
        c = layer.param("c")
        if c is not None and len(x.shape) >= 2 and equal(x.shape[1], c) is Truth.FALSE:
            cx.ctx.report(report_node, "SHP204", {"op": "nn.GroupNorm", "reason": f"GroupNorm(num_channels={c}) cannot take an input with {x.shape[1]} channels "
                                                                                  f"(input shape {shape_text(x.shape)})"}, cx.origins([x]),
                            spec=OpSpec("nn.GroupNorm", None, (x.shape,), (), (("num_channels", c), ("n", len(x.shape) - 2))))
            return x.with_shape(None)
        return x
    if layer.kind == "MultiheadAttention":
        return UNKNOWN
    if layer.kind == "TransposedConv":
        n, cin, cout = layer.param("n"), layer.param("in"), layer.param("out")
        if len(x.shape) in (n + 1, n + 2) and cin is not None and equal(x.shape[-n - 1], cin) is Truth.FALSE:
            cx.ctx.report(report_node, "SHP204", {"op": f"nn.ConvTranspose{n}d", "reason": f"ConvTranspose{n}d(in_channels={cin}) cannot take an input with "
                                                                                             f"{x.shape[-n - 1]} channels (input shape {shape_text(x.shape)})"}, cx.origins([x]),
                            spec=OpSpec("nn.ConvTranspose", None, (x.shape,), (), (("n", n), ("in_channels", cin), ("out_channels", cout))))
            return x.with_shape(None)
        if len(x.shape) in (n + 1, n + 2):
            return x.with_shape(x.shape[:-n - 1] + (cout if cout is not None else cx.fresh("c"),) + tuple(cx.fresh("h") for _ in range(n)))
        return x.with_shape(None)
    if layer.kind == "Embedding":
        d = layer.param("d")
        return TensorV(x.shape + (d if d is not None else cx.fresh("d"),), None, x.framework)
    if layer.kind == "Flatten":
        s, e = layer.param("start"), layer.param("end")
        if s is None or e is None:
            return x.with_shape(None)
        return shape_ops.flatten(x, [IntV(Size.const(s[0])), IntV(Size.const(e[0]))], {})
    return x.with_shape(None)


def check_chain(cx: OpContext, node: cst.Call, layers: tuple[Value, ...]) -> None:
    """An ``nn.Sequential`` whose own sizes cannot fit, whatever its input: ``Linear(d, 4 * d)`` then
    ``Linear(2 * d, d)``. Reported on the layer that cannot take the previous one's output."""
    feature: Size | None = None  # last axis (Linear) or channels (Conv) the previous layers leave
    kind: str | None = None  # "last" | "channel"
    arg_nodes = {id(a.value) for a in node.args}
    for sub in layers:
        if not isinstance(sub, LayerV):
            return
        where = sub.line_node if sub.line_node is not None and id(sub.line_node) in arg_nodes else node
        if sub.kind == "Linear":
            fin, fout = sub.param("in"), sub.param("out")
            if kind == "last" and feature is not None and fin is not None and equal(feature, fin) is Truth.FALSE:
                cx.ctx.report(where, "SHP204", {"op": "nn.Linear", "reason": f"Linear(in_features={fin}) cannot take the previous layer's output, "
                                                                              f"whose last axis is {feature}, in this nn.Sequential"},
                                spec=OpSpec("nn.Linear", None, ((feature,),), (), (("in_features", fin), ("out_features", fout))))
                return
            feature, kind = fout, "last"
        elif sub.kind.startswith("Conv") or sub.kind == "TransposedConv":
            cin, cout = sub.param("in"), sub.param("out")
            if kind == "channel" and feature is not None and cin is not None and equal(feature, cin) is Truth.FALSE:
                n = sub.param("n")
                ks, ds = sub.param("k") or (1,), sub.param("d") or (1,)
                side = Size.const(max(64, max(ds) * (max(ks) - 1) + 1))
                label = f"ConvTranspose{n}d" if sub.kind == "TransposedConv" else sub.kind
                cx.ctx.report(where, "SHP204", {"op": f"nn.{label}", "reason": f"{label}(in_channels={cin}) cannot take the previous layer's output, "
                                                                                  f"which has {feature} channels, in this nn.Sequential"},
                                spec=OpSpec("nn.ConvTranspose" if sub.kind == "TransposedConv" else "nn.Conv", None, ((feature,) + (side,) * n,), (), (("n", n), ("in_channels", cin), ("out_channels", cout), ("k", sub.param("k")),
                                                                                        ("s", sub.param("s")), ("p", sub.param("p")), ("d", sub.param("d")))))
                return
            feature, kind = cout, "channel"
        elif sub.kind in ("ChannelNorm", "GroupNorm"):
            c = sub.param("c")
            if kind == "channel" and feature is not None and c is not None and equal(feature, c) is Truth.FALSE:
                name = sub.param("name", "GroupNorm")
                cx.ctx.report(where, "SHP204", {"op": f"nn.{name}", "reason": f"{name}(num_channels={c}) cannot take the previous layer's output, "
                                                                              f"which has {feature} channels, in this nn.Sequential"},
                                spec=OpSpec("nn.GroupNorm", None, ((Size.const(1), feature, Size.const(4)),), (), (("num_channels", c), ("n", 1))))
                return
        elif sub.kind == "LayerNorm":
            shape = sub.param("shape")
            if kind == "last" and feature is not None and shape and equal(feature, shape[-1]) is Truth.FALSE:
                cx.ctx.report(where, "SHP204", {"op": "nn.LayerNorm", "reason": f"LayerNorm({', '.join(map(str, shape))}) cannot take the previous layer's output, "
                                                                                f"whose last axis is {feature}, in this nn.Sequential"},
                                spec=OpSpec("nn.LayerNorm", None, ((feature,),), (), (("normalized_shape", tuple(shape)),)))
                return
        elif sub.kind != "Elementwise" or sub.param("name") in ("Softmax", "LogSoftmax", "Softmin", "GLU0"):
            feature, kind = None, None


def jax_layer(cx: OpContext, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """equinox.nn layers whose sizes the call gives (the library is not analysed code; flax.linen: frameworks.py)."""
    name = qual.rsplit(".", 1)[-1]

    def size(i: int, *kws: str) -> Size | None:
        v = args[i] if len(args) > i else next((kwargs[k] for k in kws if k in kwargs), None)
        return v.size if isinstance(v, IntV) else None

    if name == "Linear":
        return LayerV("Linear", (("in", size(0, "in_features")), ("out", size(1, "out_features")), ("lib", "equinox")), node)
    if name == "MLP":
        return LayerV("Linear", (("in", size(0, "in_size")), ("out", size(1, "out_size")), ("lib", "equinox")), node)
    if name in ("Conv1d", "Conv2d", "Conv3d"):
        return layer(cx, node, name, args, {k: v for k, v in kwargs.items() if k != "key"})
    if name == "LayerNorm":
        return layer(cx, node, name, args[:1], {})
    if name in ("Dropout", "Identity", "Lambda"):
        return LayerV("Elementwise", (("name", name),), node) if name != "Lambda" else UNKNOWN
    return UNKNOWN


def _apply_unranked(cx: OpContext, report_node: cst.CSTNode, layer: LayerV, x: TensorV) -> Value:
    """Linear / LayerNorm on an input of unknown rank: its known trailing axes (an einops ``...`` result) are
    checked, and the output keeps the last axis the layer sets (``(..., out_features)``), which a later einops
    pattern reads."""
    vs = x.vshape
    last = vs[2][-1] if vs is not None and vs[2] else None
    if layer.kind == "LayerNorm":
        shape = layer.param("shape")
        if last is not None and shape and equal(last, shape[-1]) is Truth.FALSE:
            cx.ctx.report(report_node, "SHP204", {"op": "nn.LayerNorm", "reason": f"LayerNorm({', '.join(map(str, shape))}) cannot take an input whose last axis is {last}"},
                            cx.origins([x]), spec=OpSpec("nn.LayerNorm", None, ((last,),), (), (("normalized_shape", tuple(shape)),)))
            return x.with_shape(None)
        return x
    fin, fout = layer.param("in"), layer.param("out")
    if last is not None and fin is not None and equal(last, fin) is Truth.FALSE:
        cx.ctx.report(report_node, "SHP204", {"op": "nn.Linear", "reason": f"Linear(in_features={fin}) cannot take an input whose last axis is {last}"},
                        cx.origins([x]), spec=OpSpec("nn.Linear", None, ((last,),), (), (("in_features", fin), ("out_features", fout))))
        return x.with_shape(None)
    if fout is None:
        return x.with_shape(None)
    if vs is not None and vs[2]:
        return TensorV(None, x.dtype, x.framework, None, x.origin, (vs[0], vs[1], vs[2][:-1] + (fout,)))
    return TensorV(None, x.dtype, x.framework, None, x.origin, (vs[0] if vs is not None else (), cx.fresh("V"), (fout,)))
