"""TensorFlow / Keras, PaddlePaddle and Flax (issue 15): functions, tensor methods and layers.

The shape engine is the torch one (``ops.py``, ``shape_ops.py``, ``layers.py``); this module reads each framework's
own signatures and hands the engine what it needs. A function or method not listed here gives an unknown value,
never a torch-semantics guess: ``tf.transpose(x, perm)`` and ``paddle.transpose(x, perm)`` take a permutation,
``paddle.reshape`` copies the input size where the target says 0, ``tf.squeeze`` and ``tf.matmul`` differ from
torch, Keras layers leave out the batch axis in ``Reshape`` / ``Permute`` / ``Input``. Stub-expressible functions
(same-shape activations, ``paddle.nn.functional.linear`` with its ``[in, out]`` weight, ...) live in
``stubs/tensorflow`` and ``stubs/paddle``.

Keras, Flax and Paddle layers are registered like ``torch.nn``'s: one build rule per class,
``@framework_layer(namespace, *names)`` (``"keras.layers"``, ``"flax.linen"``, ``"flax.nnx"``, ``"paddle.nn"``),
and one apply rule per layer kind, ``@layer_kind("fw:Name")`` (a paddle layer is built as its torch kind); the
other Keras calls (``keras.Input``, ``keras.Sequential``, the dtype policy) with ``@keras_function(*names)``.
``keras_call``, ``flax_call`` and ``call`` only route a qualified name to its table.
"""

from __future__ import annotations

from dataclasses import replace

from typing import TYPE_CHECKING, Any, Callable

import libcst as cst

from ...diagnostics import details as D
from ...sizes import Size, Truth, divisible, equal, product
from ..interpret.context import OpSpec, note
from .ops_common import DTYPE_NAMES, _ints, _norm_dim, broadcast_shapes, layout_axes
from ..interpret.values import (
    FLAX_PARAM_RUNS,
    UNKNOWN,
    BoolV,
    DictV,
    DtypeV,
    FloatV,
    IntV,
    LayerV,
    NoneV,
    ObjV,
    RefV,
    SeqV,
    StrV,
    TensorV,
    Value,
    same_rank_unknown,
)

from . import einops_calls, layers, ops, shape_ops
from .registry import (
    FRAMEWORK_FUNCTIONS,
    FRAMEWORK_LAYERS,
    FRAMEWORK_METHODS,
    KERAS_FUNCTIONS,
    FunctionRule,
    MethodRule,
    OpContext,
    framework_functions,
    framework_layer,
    framework_methods,
    keras_function,
    layer_kind,
)

if TYPE_CHECKING:
    from ..interpret.interpreter import Interpreter

# qualified-name heads that belong to this module, and the array framework their tensors are
PREFIXES = ("tensorflow.", "keras.", "tf_keras.", "paddle.", "flax.", "jmp.", "haiku.", "timm.")

_TF_REDUCTIONS = {
    "reduce_sum": "sum",
    "reduce_mean": "mean",
    "reduce_prod": "prod",
    "reduce_max": "amax",
    "reduce_min": "amin",
    "reduce_any": "any",
    "reduce_all": "all",
    "reduce_logsumexp": "logsumexp",
    "reduce_std": "std",
    "reduce_variance": "var",
}
_PADDLE_REDUCTIONS = {
    "sum": "sum",
    "mean": "mean",
    "prod": "prod",
    "max": "amax",
    "min": "amin",
    "amax": "amax",
    "amin": "amin",
    "any": "any",
    "all": "all",
    "logsumexp": "logsumexp",
    "nansum": "nansum",
    "nanmean": "nanmean",
}
# same-shape functions of every framework here (activations, elementwise maths, casts aside)
_SAME_SHAPE = {
    "relu",
    "relu6",
    "gelu",
    "silu",
    "swish",
    "sigmoid",
    "tanh",
    "softmax",
    "log_softmax",
    "softplus",
    "elu",
    "selu",
    "leaky_relu",
    "exp",
    "log",
    "sqrt",
    "rsqrt",
    "abs",
    "square",
    "negative",
    "neg",
    "sign",
    "floor",
    "ceil",
    "round",
    "erf",
    "identity",
    "stop_gradient",
    "zeros_like",
    "ones_like",
    "clip_by_value",
    "clip",
    "dropout",
    "hard_swish",
    "hardswish",
    "mish",
    "l2_normalize",
}
_ACTIVATION_LAYERS = {
    "ReLU",
    "GELU",
    "Silu",
    "SiLU",
    "Sigmoid",
    "Tanh",
    "Softmax",
    "LeakyReLU",
    "ELU",
    "Dropout",
    "Identity",
    "Activation",
    "BatchNormalization",
    "LayerNormalization",
    "Hardswish",
    "Mish",
    "Dropout1D",
    "Dropout2D",
    "SpatialDropout1D",
    "SpatialDropout2D",
    "GaussianNoise",
    "AlphaDropout",
    "UnitNormalization",
    "PReLU",
    "Softplus",
    "Swish",
    "InputLayer",
}


def framework_of(qual: str) -> str | None:
    head = qual.split(".", 1)[0]
    return {
        "tensorflow": "tensorflow",
        "keras": "tensorflow",
        "tf_keras": "tensorflow",
        "paddle": "paddle",
        "flax": "jax",
        "jmp": "jax",
        "haiku": "jax",
        "timm": "torch",
    }.get(head)


def _keras_name(qual: str) -> str | None:
    """``tensorflow.keras.layers.Dense`` / ``keras.src.layers.core.dense.Dense`` -> ``keras.layers.Dense``;
    None when ``qual`` is not in Keras."""
    for head in ("tensorflow.keras.", "tensorflow.python.keras.", "tf_keras.", "keras.src.", "keras."):
        if qual.startswith(head):
            rest = qual[len(head) :].split(".")
            last = rest[-1]
            if rest[0] in ("layers",):
                return f"keras.layers.{last}"
            if rest[0] in ("models", "Sequential", "Model", "Input") or len(rest) == 1:
                return f"keras.{last}"
            if rest[0] == "mixed_precision":
                return "keras.mixed_precision." + last
            return "keras." + ".".join(rest)
    return None


def _arg(args: list[Value], kwargs: dict[str, Value], i: int, kw: str, default: Value | None = None) -> Value | None:
    if len(args) > i:
        return args[i]
    return kwargs.get(kw, default)


def _dtype(v: Value | None) -> str | None:
    if isinstance(v, DtypeV):
        return v.name
    if isinstance(v, StrV):
        return DTYPE_NAMES.get(v.value)
    return None


def _shape_of(v: Value | None, fresh: Callable[[str], Size] | None) -> tuple[Size, ...] | None:
    """A literal shape: a list / tuple of non-negative sizes (``None`` entries: fresh, as Keras's ``None``)."""
    if isinstance(v, IntV):
        return (v.size,) if v.size.as_int() is None or v.size.as_int() >= 0 else None  # type: ignore[operator]
    if not isinstance(v, SeqV):
        return None
    out = []
    for item in v.items:
        if isinstance(item, IntV) and (item.size.as_int() is None or item.size.as_int() >= 0):  # type: ignore[operator]
            out.append(item.size)
        elif isinstance(item, NoneV) and fresh is not None:
            out.append(fresh("n"))
        else:
            return None
    return tuple(out)


# ------------------------------------------------------------------------------------------------------ functions
def call(
    cx: OpContext, interp: "Interpreter", node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    fw = framework_of(qual)
    keras = _keras_name(qual)
    if keras is not None:
        return keras_call(cx, interp, node, keras, args, kwargs)
    if qual.startswith("flax."):
        return flax_call(cx, node, qual, args, kwargs)
    if qual.startswith("jmp."):
        return jmp_call(qual, args, kwargs)
    if qual.startswith("haiku."):
        return haiku_call(cx, node, qual, args, kwargs)
    if qual.startswith("timm."):
        return timm_call(cx, node, qual, args, kwargs)
    if qual == "paddle.nn.functional.linear":
        # linear(x, weight) is matmul(x, weight) + bias: a weight that is not 2-d broadcasts like paddle.matmul
        weight = _arg(args, kwargs, 1, "weight")
        if isinstance(weight, TensorV) and weight.shape is not None and len(weight.shape) != 2:
            return _matmul(cx, node, "paddle.nn.functional.linear", _arg(args, kwargs, 0, "x"), weight, False, False, 1)
    stub = cx.stub(qual)
    if stub is not None:
        return ops.call_stub(cx, node, qual, stub, args, kwargs)
    if (
        qual.startswith("paddle.nn.")
        and not qual.startswith("paddle.nn.functional")
        and qual.rsplit(".", 1)[-1][:1].isupper()
    ):
        last = qual.rsplit(".", 1)[-1]
        build = FRAMEWORK_LAYERS["paddle.nn"].get(last)  # the torch layers under their paddle names
        return build(cx, node, last, args, kwargs) if build is not None else UNKNOWN
    if fw == "tensorflow":
        return tf_call(cx, node, qual, args, kwargs)
    if fw == "paddle":
        return paddle_call(cx, node, qual, args, kwargs)
    return UNKNOWN


def _construct(cx: OpContext, node: cst.Call, fw: str, name: str, shape_v: Value | None, dtype: str | None) -> Value:
    shape = _shape_of(shape_v, None)
    return TensorV(shape, dtype, fw, None, cx.origin(node, f"{name}(...)") if shape is not None else None)


def _einsum(cx: OpContext, node: cst.Call, equation: Value | None, operands: list[Value]) -> Value:
    """``tf.einsum("bij,bjk->bik", a, b)``: one letter per axis, checked by the einops engine as ``"b i j, b j k -> b i k"``."""
    t0 = next((t for t in operands if isinstance(t, TensorV)), None)
    unknown = TensorV(None, t0.dtype if t0 else None, t0.framework if t0 else None)
    if not isinstance(equation, StrV) or not operands or not all(isinstance(t, TensorV) for t in operands):
        return unknown
    eq = equation.value.replace(" ", "")
    if eq.count("->") != 1:
        return unknown
    left, right = eq.split("->")
    sides = left.split(",")
    if len(sides) != len(operands):
        return unknown

    def spaced(side: str) -> str | None:
        side = side.replace("...", "\0")
        if not all(c.isalpha() or c == "\0" for c in side):
            return None
        return " ".join("..." if c == "\0" else c for c in side)

    parts = [spaced(s) for s in sides]
    out = spaced(right)
    if out is None or any(p is None for p in parts) or any(not p for p in parts):
        return unknown
    pattern = ", ".join(p for p in parts if p) + " -> " + out
    res = einops_calls.einsum(cx, node, [*operands, StrV(pattern)], {}, False)
    return res if isinstance(res, TensorV) else unknown


def _matmul(
    cx: OpContext,
    node: cst.Call,
    name: str,
    a: Value | None,
    b: Value | None,
    ta: bool | None,
    tb: bool | None,
    min_rank: int,
) -> Value:
    if not isinstance(a, TensorV) or not isinstance(b, TensorV):
        return UNKNOWN
    dtype = a.dtype if a.dtype == b.dtype else None
    if (
        ta is None
        or tb is None
        or a.shape is None
        or b.shape is None
        or len(a.shape) < min_rank
        or len(b.shape) < min_rank
    ):
        return TensorV(None, dtype, a.framework or b.framework)

    def flip(t: TensorV, yes: bool) -> TensorV:
        if not yes or t.shape is None or len(t.shape) < 2:
            return t if not yes else t.with_shape(None)
        return t.with_shape(t.shape[:-2] + (t.shape[-1], t.shape[-2]))

    fa, fb = flip(a, ta), flip(b, tb)
    if fa.shape is None or fb.shape is None:
        return TensorV(None, dtype, a.framework or b.framework)
    return ops.matmul(cx, node, name, fa, fb)


def _reduce(
    cx: OpContext,
    node: cst.Call,
    kind: str,
    t: Value | None,
    axis: Value | None,
    keep: Value | None,
    dtype: Value | None = None,
) -> Value:
    if not isinstance(t, TensorV):
        return UNKNOWN
    kw: dict[str, Value] = {
        "axis": axis if axis is not None else NoneV(),
        "keepdims": keep if keep is not None else BoolV(False),
    }
    if dtype is not None and not isinstance(dtype, NoneV):
        kw["dtype"] = dtype
    return ops.reduction(cx, node, kind, t, [], kw, False)


def _expand_dims(t: TensorV, axes: Value | None) -> Value:
    if t.shape is None:
        return t.with_shape(None)  # the rank grows: what a check said of the input's rank does not hold
    dims = _ints(list(axes.items) if isinstance(axes, SeqV) else [axes]) if axes is not None else None
    if dims is None:
        return t.with_shape(None)
    shape = list(t.shape)
    for d in dims:
        pos = _norm_dim(d, len(shape) + 1)
        if pos is None:
            return t.with_shape(None)
        shape.insert(pos, Size.const(1))
    return t.with_shape(tuple(shape))


def _transpose(cx: OpContext, t: TensorV, perm: Value | None) -> Value:
    if t.shape is None:
        return same_rank_unknown(t)
    if perm is None or isinstance(perm, NoneV):
        return t.with_shape(tuple(reversed(t.shape)), tuple(reversed(t.axes)) if t.axes else None)
    if not isinstance(perm, SeqV):
        return t.with_shape(None)
    return shape_ops.permute(t, list(perm.items))


def _tile(t: TensorV, multiples: Value | None) -> Value:
    reps = _shape_of(multiples, None)
    if t.shape is None or reps is None or len(reps) < len(t.shape):
        return t.with_shape(None)
    padded = (Size.const(1),) * (len(reps) - len(t.shape)) + t.shape
    return t.with_shape(tuple(a * b for a, b in zip(padded, reps)))


def _cast(t: Value | None, dtype: Value | None) -> Value:
    if not isinstance(t, TensorV):
        return UNKNOWN
    return t.with_dtype(_dtype(dtype))


def _concat(cx: OpContext, node: cst.Call, name: str, fw: str, seq: Value | None, axis: Value | None) -> Value:
    if seq is None or axis is None:
        return UNKNOWN
    return ops.concat(cx, node, name, fw, [seq, axis], {})


def _tf_key(qual: str) -> str:
    """``tensorflow.math.reduce_sum`` / ``tensorflow.reduce_sum``: the name, after the first namespace if any."""
    parts = qual.split(".")
    return f"tensorflow.{parts[1]}.{parts[-1]}" if len(parts) > 2 else qual


def _tf(*names: str, spaces: tuple[str, ...] = ("",)) -> Callable[[FunctionRule], FunctionRule]:
    """Register a TensorFlow function rule for ``tf.name`` in each namespace of ``spaces`` ("" is ``tf.`` itself)."""
    return framework_functions(
        "tensorflow", *(f"tensorflow.{s}.{n}" if s else f"tensorflow.{n}" for s in spaces for n in names)
    )


def tf_call(cx: OpContext, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    for rule in FRAMEWORK_FUNCTIONS["tensorflow"].get(_tf_key(qual)):
        out = rule(cx, node, qual, "tensorflow", args, kwargs)
        if out is not None:
            return out
    return UNKNOWN


@_tf("normal", "uniform", "truncated_normal", spaces=("random",))
def _tf_random(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    name = qual.rsplit(".", 1)[-1]
    return _construct(
        cx,
        node,
        fw,
        f"tf.random.{name}",
        _arg(args, kwargs, 0, "shape"),
        _dtype(_arg(args, kwargs, 3, "dtype")) or ("float32" if _arg(args, kwargs, 3, "dtype") is None else None),
    )


@_tf("fill")
def _tf_fill(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    value = _arg(args, kwargs, 1, "value")
    return _construct(
        cx, node, fw, "tf.fill", _arg(args, kwargs, 0, "dims"), "float32" if isinstance(value, FloatV) else None
    )


@_tf("constant")
def _tf_constant(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    dt = _arg(args, kwargs, 1, "dtype")
    shape = _arg(args, kwargs, 2, "shape")
    value = _arg(args, kwargs, 0, "value")
    if shape is not None and not isinstance(shape, NoneV):
        return _construct(cx, node, fw, "tf.constant", shape, _dtype(dt))
    if isinstance(value, TensorV):
        return TensorV(value.shape, _dtype(dt) if dt is not None else value.dtype, fw, value.axes, value.origin)
    return TensorV(None, _dtype(dt), fw)


@_tf("Variable", "convert_to_tensor")
def _tf_variable(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    value = _arg(args, kwargs, 0, "initial_value" if qual.endswith(".Variable") else "value")
    dt = kwargs.get("dtype")
    if isinstance(value, TensorV):
        return TensorV(value.shape, _dtype(dt) if dt is not None else value.dtype, fw, value.axes, value.origin)
    return TensorV(None, _dtype(dt), fw)


@_tf("zeros_like", "ones_like")
def _tf_like(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    t = _arg(args, kwargs, 0, "input")
    dt = _arg(args, kwargs, 1, "dtype")
    return (
        t.with_dtype(_dtype(dt))
        if isinstance(t, TensorV) and dt is not None
        else (t if isinstance(t, TensorV) else UNKNOWN)
    )


@_tf("shape")
def _tf_shape(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    t = _arg(args, kwargs, 0, "input")
    # the dynamic shape: an int32 tensor of the rank's length (x.shape is the static one)
    rank = t.rank if isinstance(t, TensorV) else None
    return TensorV((Size.const(rank),) if rank is not None else None, "int32", fw)


@_tf("transpose")
def _tf_transpose(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    t = _arg(args, kwargs, 0, "a")
    if not isinstance(t, TensorV) or "conjugate" in kwargs or len(args) > 2:
        return UNKNOWN if not isinstance(t, TensorV) else t.with_shape(None)
    return _transpose(cx, t, _arg(args, kwargs, 1, "perm"))


@_tf("concat", "stack")
def _tf_concat(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    name = qual.rsplit(".", 1)[-1]
    return _concat(
        cx,
        node,
        name,
        fw,
        _arg(args, kwargs, 0, "values"),
        _arg(args, kwargs, 1, "axis", IntV(Size.const(0)) if name == "stack" else None),
    )


@_tf("tile")
def _tf_tile(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    t = _arg(args, kwargs, 0, "input")
    return _tile(t, _arg(args, kwargs, 1, "multiples")) if isinstance(t, TensorV) else UNKNOWN


@_tf("matmul", spaces=("", "linalg"))
def _tf_matmul(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    flags = [kwargs.get(k, BoolV(False)) for k in ("transpose_a", "transpose_b", "adjoint_a", "adjoint_b")]
    if len(args) > 2 or not all(isinstance(f, BoolV) for f in flags):
        return UNKNOWN
    ta = bool(flags[0].value or flags[2].value)  # type: ignore[union-attr]
    tb = bool(flags[1].value or flags[3].value)  # type: ignore[union-attr]
    return _matmul(cx, node, "tf.matmul", _arg(args, kwargs, 0, "a"), _arg(args, kwargs, 1, "b"), ta, tb, 2)


@_tf(*_TF_REDUCTIONS, spaces=("", "math"))
def _tf_reduction(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    name = qual.rsplit(".", 1)[-1]
    return _reduce(
        cx,
        node,
        _TF_REDUCTIONS[name],
        _arg(args, kwargs, 0, "input_tensor"),
        _arg(args, kwargs, 1, "axis"),
        _arg(args, kwargs, 2, "keepdims"),
    )


@_tf("cumsum", "cumprod", spaces=("", "math"))
def _tf_cumulative(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    x = _arg(args, kwargs, 0, "input")
    if not isinstance(x, TensorV):
        return None
    axis = _arg(args, kwargs, 1, "axis", IntV(Size.const(0)))
    ops.note_framework_reduction(cx, node, qual.rsplit(".", 1)[-1], x, _axes_list(x, axis), {})
    return x


def _axes_list(t: TensorV, axis: Value | None) -> list[int] | None:
    if t.shape is None or axis is None:
        return None
    d = _ints([axis])
    pos = _norm_dim(d[0], len(t.shape)) if d is not None else None
    return [pos] if pos is not None else None


def _paddle_reshape(cx: OpContext, node: cst.Call, t: TensorV, target: Value | None) -> Value:
    """``paddle.reshape(x, [0, -1])``: a 0 copies the input's size at that position."""
    if not isinstance(target, SeqV):
        return t.with_shape(None)
    items = list(target.items)
    for i, v in enumerate(items):
        if isinstance(v, IntV) and v.size.as_int() == 0:
            # on an input with no elements paddle keeps a 0 as a literal 0 (x of [5, 2, 4, 0] -> reshape([1, 0]): [1, 0])
            if t.shape is None or i >= len(t.shape) or any(s.as_int() == 0 for s in t.shape):
                return t.with_shape(None)
            items[i] = IntV(t.shape[i])
    return shape_ops.reshape(cx, node, "reshape", t, [SeqV(tuple(items), target.kind)], {})


def _paddle(*quals: str) -> Callable[[FunctionRule], FunctionRule]:
    """Register a paddle function rule for each qualified name (``paddle.zeros``, ``paddle.tensor.zeros``, ...)."""
    return framework_functions("paddle", *quals)


def _in(spaces: tuple[str, ...], *names: str) -> tuple[str, ...]:
    return tuple(f"paddle.{s}.{n}" if s else f"paddle.{n}" for s in spaces for n in names)


def paddle_call(cx: OpContext, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``paddle.name(...)``: its registered rule; else a tensor first argument makes it ``x.name(...)`` (in
    ``paddle``, ``paddle.tensor``, ``paddle.linalg``); else unknown."""
    for rule in FRAMEWORK_FUNCTIONS["paddle"].get(qual):
        out = rule(cx, node, qual, "paddle", args, kwargs)
        if out is not None:
            return out
    parts = qual.split(".")
    space = ".".join(parts[1:-1])
    t = _arg(args, kwargs, 0, "x")
    if isinstance(t, TensorV) and space in ("", "tensor", "linalg"):
        rest = list(args[1:]) if "x" not in kwargs else list(args)
        return paddle_method(cx, node, t, parts[-1], rest, {k: v for k, v in kwargs.items() if k != "x"})
    return UNKNOWN


@_paddle("paddle.amp.decorate", "paddle.amp.amp_decorate")
def _paddle_amp_decorate(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    # decorate(models, optimizers=None, level='O1', ...): the same model objects (O2 casts their parameters to
    # float16; outputs then follow the auto_cast region, which is not modelled) and optimizers
    models = _arg(args, kwargs, 0, "models")
    optimizers = _arg(args, kwargs, 1, "optimizers")
    if models is None:
        return UNKNOWN
    return models if optimizers is None or isinstance(optimizers, NoneV) else SeqV((models, optimizers), "tuple")


def _filled(prefix: str, none_dtype: str | None = "float32") -> FunctionRule:
    """``name(shape, dtype=None)`` (``zeros``, ``ones``, ``empty``, the random ones): float32 unless a dtype is given,
    ``prefix.name`` in messages (TensorFlow's, paddle's and keras.ops'); an explicit ``dtype=None`` gives
    ``none_dtype`` (TensorFlow's functions do not take one: unknown)."""

    def rule(
        cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
    ) -> Value | None:
        dt = _arg(args, kwargs, 1, "dtype")
        return _construct(
            cx,
            node,
            fw,
            f"{prefix}.{qual.rsplit('.', 1)[-1]}",
            _arg(args, kwargs, 0, "shape"),
            "float32" if dt is None else none_dtype if isinstance(dt, NoneV) else _dtype(dt),
        )

    return rule


_tf("zeros", "ones")(_filled("tf", none_dtype=None))
_paddle(*_in(("", "tensor"), "zeros", "ones", "randn", "rand", "empty"))(_filled("paddle"))


@_paddle(*_in(("", "tensor"), "full"))
def _paddle_full(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    dt = _arg(args, kwargs, 2, "dtype")
    value = _arg(args, kwargs, 1, "fill_value")
    default = "float32" if isinstance(value, FloatV) else None
    return _construct(
        cx,
        node,
        fw,
        "paddle.full",
        _arg(args, kwargs, 0, "shape"),
        default if dt is None or isinstance(dt, NoneV) else _dtype(dt),
    )


@_paddle(*_in(("", "tensor"), "to_tensor"))
def _paddle_to_tensor(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    data = _arg(args, kwargs, 0, "data")
    dt = _arg(args, kwargs, 1, "dtype")
    if isinstance(data, TensorV):
        return TensorV(
            data.shape,
            _dtype(dt) if dt is not None and not isinstance(dt, NoneV) else data.dtype,
            fw,
            data.axes,
            data.origin,
        )
    return TensorV(None, _dtype(dt), fw)


@_paddle(*_in(("nn.functional",), *_SAME_SHAPE))
def _paddle_functional_same_shape(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    t = _arg(args, kwargs, 0, "x")
    return t if isinstance(t, TensorV) else None


@_paddle(*_in(("", "tensor"), "concat", "stack"))
def _paddle_concat(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    seq = _arg(args, kwargs, 0, "x")
    if isinstance(seq, TensorV):
        return None  # a tensor where the list belongs: x.concat(...), which paddle has not
    return _concat(cx, node, qual.rsplit(".", 1)[-1], fw, seq, _arg(args, kwargs, 1, "axis", IntV(Size.const(0))))


@_paddle(*_in(("", "tensor"), "einsum"))
def _paddle_einsum(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    if isinstance(_arg(args, kwargs, 0, "x"), TensorV):
        return None
    return _einsum(cx, node, args[0] if args else kwargs.get("equation"), list(args[1:]))


def method_of(
    cx: OpContext, node: cst.Call, framework: str, t: TensorV, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``x.name(...)`` with the rules registered for ``framework`` (unknown for a method without one)."""
    for rule in FRAMEWORK_METHODS[framework].get(name):
        out = rule(cx, node, name, t, args, kwargs, True)
        if out is not None:
            return out
    return UNKNOWN


def paddle_method(
    cx: OpContext, node: cst.Call, t: TensorV, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``x.op(...)`` on a paddle tensor, or ``paddle.op(x, ...)`` (``args`` without ``x``)."""
    return method_of(cx, node, "paddle", t, name, args, kwargs)


def _paddle_method(*names: str) -> Callable[[MethodRule], MethodRule]:
    return framework_methods("paddle", *names)


@_paddle_method("astype", "cast")
def _paddle_cast(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return _cast(t, _arg(args, kwargs, 0, "dtype"))


@_paddle_method("reshape")
def _paddle_reshape_method(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return _paddle_reshape(cx, node, t, _arg(args, kwargs, 0, "shape"))


@_paddle_method("transpose")
def _paddle_transpose(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    perm = _arg(args, kwargs, 0, "perm")
    return _transpose(cx, t, perm) if perm is not None else t.with_shape(None)


@_paddle_method("t")
def _paddle_t(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    if not args and t.shape is not None and len(t.shape) <= 2:
        return t.with_shape(tuple(reversed(t.shape)))
    return None


@_paddle_method("unsqueeze")
def _paddle_unsqueeze(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return _expand_dims(t, _arg(args, kwargs, 0, "axis"))


@_paddle_method("squeeze")
def _paddle_squeeze(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    axis = _arg(args, kwargs, 0, "axis")
    return shape_ops.squeeze(
        t, [axis] if axis is not None and not isinstance(axis, NoneV) else [], {}
    )  # a non-1 axis is left alone, as in torch


@_paddle_method("flatten")
def _paddle_flatten(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    start = _arg(args, kwargs, 0, "start_axis", IntV(Size.const(0)))
    stop = _arg(args, kwargs, 1, "stop_axis", IntV(Size.const(-1)))
    return shape_ops.flatten(t, [start, stop], {})  # type: ignore[list-item]


@_paddle_method("matmul", "mm", "bmm")
def _paddle_matmul(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    ta, tb = kwargs.get("transpose_x", BoolV(False)), kwargs.get("transpose_y", BoolV(False))
    if len(args) > 1 or not isinstance(ta, BoolV) or not isinstance(tb, BoolV):
        return t.with_shape(None)
    return _matmul(
        cx,
        node,
        "paddle.matmul",
        t,
        _arg(args, kwargs, 0, "y"),
        ta.value,
        tb.value,
        1 if name == "matmul" else (2 if name == "mm" else 3),
    )


@_paddle_method("tile")
def _paddle_tile(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return _tile(t, _arg(args, kwargs, 0, "repeat_times"))


@_paddle_method(*_PADDLE_REDUCTIONS)
def _paddle_reduction(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    kind = _PADDLE_REDUCTIONS[name]
    if name in ("sum", "nansum"):  # sum(x, axis=None, dtype=None, keepdim=False)
        return _reduce(
            cx,
            node,
            kind,
            t,
            _arg(args, kwargs, 0, "axis"),
            _arg(args, kwargs, 2, "keepdim"),
            _arg(args, kwargs, 1, "dtype"),
        )
    return _reduce(cx, node, kind, t, _arg(args, kwargs, 0, "axis"), _arg(args, kwargs, 1, "keepdim"))


@_paddle_method("cumsum", "cumprod")
def _paddle_cumulative(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    axis = _arg(args, kwargs, 0, "axis" if name == "cumsum" else "dim")
    ops.note_framework_reduction(
        cx, node, name, t, _axes_list(t, axis) if axis is not None and not isinstance(axis, NoneV) else None, {}
    )
    return (
        t.with_shape((product(t.shape),))
        if name == "cumsum" and (axis is None or isinstance(axis, NoneV)) and t.shape is not None
        else t
    )


@_paddle_method("numel")
def _paddle_numel(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return UNKNOWN if not args else None


@_paddle_method("dim", "ndimension")
def _paddle_dim(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    if args:
        return None
    return IntV(Size.const(len(t.shape))) if t.shape is not None else UNKNOWN


@_paddle_method(*_SAME_SHAPE, "clone", "detach", "cpu", "cuda", "contiguous")
def _paddle_same_shape(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return t


@framework_methods("tensorflow", "get_shape")
def _tf_get_shape(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    """A TensorFlow tensor has few shape methods of its own (numpy behaviour aside): the rest is unknown."""
    if not args and t.shape is not None:
        return SeqV(tuple(IntV(s) for s in t.shape), "shape")
    return None


@framework_methods("tensorflow", "numpy")
def _tf_numpy(
    cx: OpContext, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool
) -> Value | None:
    return TensorV(t.shape, t.dtype, "numpy", t.axes, t.origin)


# ------------------------------------------------------------------------------------------------------ layers
def _kl(name: str, node: cst.Call, **params: Any) -> LayerV:
    return LayerV("fw:" + name, tuple(params.items()), node)


def _named(layer: LayerV, name: str, kwargs: dict[str, Value] | None = None) -> LayerV:
    extra: tuple[tuple[str, Any], ...] = (("cls", name),)
    shape = _shape_of((kwargs or {}).get("input_shape"), None)
    if shape is not None:
        extra += (("input_shape", shape),)
    return replace(layer, params=layer.params + extra)


# ------------------------------------------------------------------------------------------------------ precision
_POLICY_COMPUTE = {
    "mixed_float16": "float16",
    "mixed_bfloat16": "bfloat16",
    "float16": "float16",
    "bfloat16": "bfloat16",
    "float32": "float32",
    "float64": "float64",
}


def _policy_name(v: Value | None) -> str | None:
    """A Keras dtype policy: its name (``"mixed_float16"`` or a ``Policy("mixed_float16")`` value), else None."""
    if isinstance(v, StrV):
        return v.value
    if isinstance(v, DtypeV):
        return v.name
    return None


def keras_compute_dtype(cx: OpContext, kwargs: dict[str, Value]) -> str | None:
    """The compute dtype of a Keras layer built now: its own ``dtype=`` policy, else the global one (if set)."""
    own = kwargs.get("dtype")
    if own is not None:
        name = _policy_name(own)
        return _POLICY_COMPUTE.get(name) if name is not None else None
    policy = cx.keras_global_policy
    return _POLICY_COMPUTE.get(policy) if isinstance(policy, str) else None


def with_compute_dtype(layer: Value, dtype: str | None) -> Value:
    if not isinstance(layer, LayerV) or dtype is None:
        return layer
    return replace(layer, params=layer.params + (("compute_dtype", dtype),))


def apply_with_policy(
    cx: OpContext,
    interp: "Interpreter",
    node: cst.Call,
    layer: LayerV,
    args: list[Value],
    kwargs: dict[str, Value],
    in_sequential: bool,
) -> Value:
    """A Keras layer under a float16 / bfloat16 policy: floating inputs are cast to the compute dtype on the call
    (so an einops ``Reduce`` sums in float16) and the output has the compute dtype; the variables stay float32."""
    dtype = layer.param("compute_dtype")
    plain = replace(layer, params=tuple(p for p in layer.params if p[0] != "compute_dtype"))
    x = args[0] if args else UNKNOWN
    if isinstance(x, TensorV) and (x.dtype is None or "float" in x.dtype):
        args = [x.with_dtype(dtype)] + list(args[1:])
    out = layers.apply_layer(cx, interp, node, plain, args, kwargs, in_sequential)
    return out.with_dtype(dtype) if isinstance(out, TensorV) else out


def _jmp_dtype(text: str) -> str | None:
    return {
        "float16": "float16",
        "f16": "float16",
        "half": "float16",
        "bfloat16": "bfloat16",
        "bf16": "bfloat16",
        "float32": "float32",
        "f32": "float32",
        "full": "float32",
        "single": "float32",
    }.get(text.strip().lower())


def jmp_call(qual: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``jmp.get_policy("params=float32,compute=float16,output=float32")`` / ``jmp.Policy(...)``: a policy value."""
    name = qual.rsplit(".", 1)[-1]
    if name in ("cast_to_half", "cast_to_full", "cast_to_bf16") and len(args) == 1 and not kwargs:
        target = {"cast_to_half": "float16", "cast_to_full": "float32", "cast_to_bf16": "bfloat16"}[name]
        return jmp_method(LayerV("fw:jmp", (("jmp_compute", target),)), "cast_to_compute", args)
    roles: dict[str, str | None] = {}
    if name == "get_policy":
        spec = args[0] if args else kwargs.get("policy_name")
        if not isinstance(spec, StrV):
            return UNKNOWN
        if "=" not in spec.value:
            d = _jmp_dtype(spec.value)
            roles = {"param": d, "compute": d, "output": d}
        else:
            keys = {
                "params": "param",
                "param": "param",
                "p": "param",
                "compute": "compute",
                "c": "compute",
                "output": "output",
                "o": "output",
            }
            for part in spec.value.split(","):
                k, _, v = part.partition("=")
                if k.strip().lower() in keys:
                    roles[keys[k.strip().lower()]] = _jmp_dtype(v)
    elif name == "Policy":
        for i, role in enumerate(("param", "compute", "output")):
            roles[role] = _dtype(args[i] if len(args) > i else kwargs.get(f"{role}_dtype"))
    else:
        return UNKNOWN
    return LayerV("fw:jmp", tuple((f"jmp_{k}", v) for k, v in roles.items()))


def jmp_method(policy: LayerV, method: str, args: list[Value]) -> Value:
    role = {"cast_to_compute": "compute", "cast_to_param": "param", "cast_to_output": "output"}.get(method)
    if role is None or len(args) != 1:
        return UNKNOWN
    dtype = policy.param(f"jmp_{role}")

    def cast(v: Value) -> Value:
        if isinstance(v, TensorV):
            return v.with_dtype(dtype) if v.dtype is None or "float" in v.dtype else v
        if isinstance(v, SeqV):
            return SeqV(tuple(cast(i) for i in v.items), v.kind)
        return UNKNOWN

    return cast(args[0])


def keras_call(
    cx: OpContext, interp: "Interpreter", node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``qual`` (brought to ``keras.``): the rules registered with ``@keras_function`` (by qualified name, then by
    last name), then ``keras.ops`` and ``keras.layers``."""
    name = qual.rsplit(".", 1)[-1]
    for rule in KERAS_FUNCTIONS.get(qual) + KERAS_FUNCTIONS.get(name):
        out = rule(cx, interp, node, qual, args, kwargs)
        if out is not None:
            return out
    if qual.startswith("keras.ops."):
        return keras_ops(cx, node, name, args, kwargs)
    if not qual.startswith("keras.layers."):
        return UNKNOWN
    return with_compute_dtype(
        _named(_keras_layer(cx, node, name, args, kwargs), qual, kwargs), keras_compute_dtype(cx, kwargs)
    )


@keras_function("set_global_policy", "set_policy", "set_dtype_policy")
def _keras_set_policy(
    cx: OpContext, interp: "Interpreter", node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``keras.mixed_precision.set_global_policy("mixed_float16")``: the compute dtype of the layers built after it."""
    policy = _policy_name(args[0] if args else kwargs.get("policy", kwargs.get("dtype_policy")))
    cx.keras_global_policy = policy  # None: a policy we cannot read -- unknown from here on
    return NoneV()


@keras_function("Policy", "DTypePolicy")
def _keras_policy(
    cx: OpContext, interp: "Interpreter", node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``keras.mixed_precision.Policy("mixed_float16")``: its name (what ``dtype=`` and ``set_global_policy`` read)."""
    v = args[0] if args else kwargs.get("name")
    return v if isinstance(v, StrV) else UNKNOWN


@keras_function("keras.Input", "keras.layers.Input")
def _keras_input(
    cx: OpContext, interp: "Interpreter", node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``keras.Input(shape, batch_size, dtype)``: a tensor with a batch axis before ``shape``."""
    shape = _shape_of(_arg(args, kwargs, 0, "shape"), cx.fresh)
    batch = _arg(args, kwargs, 1, "batch_size")
    dt = _arg(args, kwargs, 2, "dtype")
    if shape is None:
        return TensorV(None, _dtype(dt) if dt is not None else "float32", "tensorflow")
    b = batch.size if isinstance(batch, IntV) else cx.fresh("batch")
    return TensorV(
        (b,) + shape,
        _dtype(dt) if dt is not None and not isinstance(dt, NoneV) else "float32",
        "tensorflow",
        None,
        cx.origin(node, "keras.Input(...)"),
    )


@keras_function("Sequential")
def _keras_sequential(
    cx: OpContext, interp: "Interpreter", node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``keras.Sequential([...])`` (``keras.models.Sequential``): the chain of layers; built here, as Keras does,
    when its input shape is known (an ``Input`` first, or ``input_shape=`` on the first layer)."""
    layers_v = _arg(args, kwargs, 0, "layers")
    if layers_v is None and not args and set(kwargs) <= {"name", "trainable"}:
        # keras.Sequential(): an empty chain that model.add(...) grows (keras_sequential_add)
        return LayerV("Sequential", (("layers", ()), ("keras", True)), node)
    if not isinstance(layers_v, SeqV):
        return LayerV("Sequential", (("layers", (UNKNOWN,)),), node) if layers_v is not None else UNKNOWN
    items = list(layers_v.items)
    start: TensorV | None = None
    if items and isinstance(items[0], TensorV):  # keras.Sequential([keras.Input(shape=...), ...])
        start, items = items[0], items[1:]
    elif items and isinstance(items[0], LayerV) and items[0].param("input_shape") is not None:
        # Keras 2 style: Dense(64, input_shape=(784,)) -- the model is built here, with a batch axis
        start = TensorV(
            (cx.fresh("batch"),) + items[0].param("input_shape"),
            "float32",
            "tensorflow",
            None,
            cx.origin(node, "input_shape=..."),
        )
    seq = LayerV("Sequential", (("layers", tuple(items)),), node)
    built: Value = UNKNOWN
    if start is not None:
        # Keras builds the model here: a layer that cannot take its input fails at construction
        built = layers.apply_layer(cx, interp, node, seq, [start], {})
    return LayerV(
        "Sequential",
        (("layers", tuple(items)), ("keras", True)) + ((("built", built),) if isinstance(built, TensorV) else ()),
        node,
    )


def keras_sequential_add(cx: OpContext, interp: "Interpreter", node: cst.Call, model: LayerV, layer: Value) -> LayerV:
    """``model.add(layer)`` on a ``keras.Sequential``: the chain grows by one layer. A model Keras has built (an
    ``Input`` added first, or ``input_shape=`` on the first layer) builds the new layer at once, with the previous
    layers' output: a layer that cannot take it fails there, reported on that layer as in the list form."""
    items = tuple(model.param("layers", ()))
    built = model.param("built")
    if not items and built is None and isinstance(layer, TensorV):  # model.add(keras.Input(shape=...))
        return LayerV("Sequential", (("layers", ()), ("keras", True), ("built", layer)), model.line_node)
    if not items and built is None and isinstance(layer, LayerV) and layer.param("input_shape") is not None:
        built = TensorV(
            (cx.fresh("batch"),) + layer.param("input_shape"),
            "float32",
            "tensorflow",
            None,
            cx.origin(node, "input_shape=..."),
        )
    if not isinstance(layer, (LayerV, ObjV)):
        layer = UNKNOWN
    out: Value = UNKNOWN
    if isinstance(built, TensorV) and layer is not UNKNOWN:
        out = layers.apply_layer(cx, interp, node, LayerV("Sequential", (("layers", (layer,)),), node), [built], {})
    params: tuple[tuple[str, Any], ...] = (("layers", items + (layer,)), ("keras", True))
    return LayerV("Sequential", params + ((("built", out),) if isinstance(out, TensorV) else ()), model.line_node)


def keras_add_weight(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``self.add_weight(shape=..., dtype=...)`` in a subclassed Keras layer: a variable of that shape (float32
    unless dtype says otherwise)."""
    shape = _shape_of(_arg(args, kwargs, 0, "shape"), None)
    dt = _arg(args, kwargs, 2, "dtype")
    if shape is None:
        return UNKNOWN
    dtype = "float32" if dt is None or isinstance(dt, NoneV) else _dtype(dt)
    return TensorV(shape, dtype, "tensorflow", None, cx.origin(node, "self.add_weight(...)"))


def _keras_layer(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> LayerV:
    """``keras.layers.Name(...)``: the layer its registered rule builds; an opaque layer (output of unknown shape)
    for a class without one."""
    build = FRAMEWORK_LAYERS["keras.layers"].get(name)
    layer = build(cx, node, name, args, kwargs) if build is not None else None
    return layer if isinstance(layer, LayerV) else _kl("Opaque", node)


@layer_kind("fw:Spectrogram")
def _apply_spectrogram(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """torchaudio's ``Spectrogram`` / ``MelSpectrogram`` (``library_calls._torchaudio_spectrogram``): a signal
    (..., time) -> (..., frequencies, frames), as ``torch.stft`` counts frames: 1 + (time + 2 * pad + 2 * (n_fft // 2)
    - n_fft) // hop when centred (without the n_fft // 2 on each side otherwise). A signal too short for the
    reflection padding or for one frame, or sizes not known: that count is unknown."""
    if x.shape is None or not x.shape or x.framework not in (None, "torch"):
        return TensorV(None, None, "torch")
    freqs, n_fft, hop, pad, center = (layer.param(k) for k in ("freqs", "n_fft", "hop", "pad", "center"))
    length = x.shape[-1].as_int()
    frames: Size | None = None
    if length is not None and n_fft is not None and hop and pad is not None and center is not None:
        signal = length + 2 * pad
        padded = signal + 2 * (n_fft // 2) if center else signal
        if not (center and signal <= n_fft // 2) and padded >= n_fft:
            frames = Size.const(1 + (padded - n_fft) // hop)
    shape = x.shape[:-1] + (
        Size.const(freqs) if freqs is not None else cx.fresh("freqs"),
        frames if frames is not None else cx.fresh("frames"),
    )
    return TensorV(shape, None, "torch", None, cx.origin(node, "spectrogram"))


@layer_kind("fw:RotaryEmbedding")
def _apply_rotary_embedding(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """rotary-embedding-torch's ``RotaryEmbedding`` called (its frequencies for these positions): what it gives
    differs between the library's versions, so it is unknown (``rotate_queries_or_keys``: module._layer_method)."""
    return UNKNOWN


@layer_kind("fw:Opaque")
def _apply_opaque(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """A Keras layer whose configuration is not modelled (``data_format="channels_first"``, an unknown class)."""
    return x.with_shape(None)


@framework_layer("keras.layers", "Dense")
def _keras_dense(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    units = _arg(args, kwargs, 0, "units")
    return _kl("Dense", node, units=units.size if isinstance(units, IntV) else None)


@layer_kind("fw:Dense")
def _apply_dense(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """``Dense(units)`` (Keras, flax.linen): (*, in) -> (*, units)."""
    if not x.shape:
        return x.with_shape(None)
    units = layer.param("units")
    if layer.param("flax") and FLAX_PARAM_RUNS and FLAX_PARAM_RUNS[-1] is not None:
        if not _init_features_hold(cx, interp, report_node, layer, x, FLAX_PARAM_RUNS[-1]):
            return x.with_shape(None)
    return x.with_shape(x.shape[:-1] + (units if units is not None else cx.fresh("units"),))


def _init_features_hold(
    cx: OpContext, interp: "Interpreter", report_node: cst.CSTNode, layer: LayerV, x: TensorV, run: dict[str, Any]
) -> bool:
    """A flax ``nn.Dense`` in the module's own method during ``model.init`` / ``model.apply``: its first call of the
    run. init records the input features its kernel is built for; apply with those params finds the kernel there,
    and an input of other features raises (flax's ScopeParamShapeError). False when it does."""
    node = layer.line_node
    if node is None or interp.frame.key != run["frame"] or id(node) in run["seen"]:
        return True
    run["seen"].add(id(node))  # (only the first call of each Dense: later ones, in a loop, may be other layers)
    feature = x.shape[-1] if x.shape else None
    if feature is None:
        return True
    if run["mode"] == "init":
        run["record"][id(node)] = (feature, run["at"])
        return True
    made = run["record"].get(id(node))
    if made is None or equal(made[0], feature) is not Truth.FALSE:
        return True
    units = layer.param("units")
    cx.ctx.report(
        report_node,
        "SHP204",
        {"op": "nn.Dense", "detail": D.LayerInput("Dense", "in_features", made[0], "last-axis", feature, x.shape)},
        [*cx.origins([x]), note(f"its kernel was made by model.init for inputs of {made[0]} features, at ", made[1])],
        spec=OpSpec("nn.Linear", None, ((feature,),), (), (("in_features", made[0]), ("out_features", units))),
    )
    return False


@framework_layer("keras.layers", "Conv1D", "Conv2D", "Conv3D")
def _keras_conv(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    n = int(name[4])
    filters = _arg(args, kwargs, 0, "filters")
    k = _int_tuple(_arg(args, kwargs, 1, "kernel_size"), n)
    s = _int_tuple(_arg(args, kwargs, 2, "strides", IntV(Size.const(1))), n)
    pad = _arg(args, kwargs, 3, "padding", StrV("valid"))
    fmt = _arg(args, kwargs, 4, "data_format", NoneV())
    d = _int_tuple(_arg(args, kwargs, 5, "dilation_rate", IntV(Size.const(1))), n)
    if not isinstance(fmt, NoneV) and not (isinstance(fmt, StrV) and fmt.value == "channels_last"):
        return _kl("Opaque", node)
    return _kl(
        "Conv",
        node,
        n=n,
        filters=filters.size if isinstance(filters, IntV) else None,
        k=k,
        s=s,
        padding=pad.value.lower() if isinstance(pad, StrV) else None,
        d=d,
    )


@layer_kind("fw:Conv")
def _apply_conv(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """Keras ``ConvND``, channels last: (batch, spatial..., channels) -> (batch, spatial'..., filters)."""
    if x.shape is None:
        return x.with_shape(None)
    shape = x.shape
    n = layer.param("n")
    if _wrong_rank(cx, report_node, layer, x, n + 2):
        return x.with_shape(None)
    k, s, d, pad = layer.param("k"), layer.param("s"), layer.param("d"), layer.param("padding")
    spatial: list[Size] = []
    for i, size in enumerate(shape[1:-1]):
        hv = size.as_int()
        if k is None or s is None or d is None or pad not in ("valid", "same") or hv is None:
            spatial.append(cx.fresh("h"))
        elif pad == "same":
            spatial.append(Size.const(-(-hv // s[i])))
        else:
            span = d[i] * (k[i] - 1) + 1
            spatial.append(Size.const((hv - span) // s[i] + 1) if hv >= span else cx.fresh("h"))
    f = layer.param("filters")
    return x.with_shape((shape[0],) + tuple(spatial) + (f if f is not None else cx.fresh("filters"),))


@framework_layer("keras.layers", "Flatten")
def _keras_flatten(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return _kl("Flatten", node)


@layer_kind("fw:Flatten")
def _apply_flatten(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """Keras ``Flatten``: the batch axis stays, the rest become one."""
    shape = x.shape
    if shape is None or len(shape) < 1:
        return x.with_shape(None)
    return x.with_shape(shape[:1] + (product(shape[1:]),) if len(shape) > 1 else shape + (Size.const(1),))


@framework_layer("keras.layers", "Reshape")
def _keras_reshape(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return _kl("Reshape", node, target=_shape_of_minus(_arg(args, kwargs, 0, "target_shape")))


@layer_kind("fw:Reshape")
def _apply_reshape(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """Keras ``Reshape(target_shape)``: the batch axis stays; the rest must hold the same number of elements."""
    shape = x.shape
    target = layer.param("target")
    if shape is None or target is None or len(shape) < 1:
        return x.with_shape(None)
    body = TensorV(shape[1:], x.dtype, x.framework, None, x.origin)
    target_v: list[Value] = [SeqV(tuple(IntV(Size.const(v)) for v in target), "tuple")]
    res = shape_ops.reshape(cx, report_node, "reshape", body, target_v, {})  # type: ignore[arg-type]
    if not isinstance(res, TensorV) or res.shape is None:
        return x.with_shape(None)
    return x.with_shape(shape[:1] + res.shape)


@framework_layer("keras.layers", "Permute")
def _keras_permute(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    dims = _ints(list(v.items)) if isinstance(v := _arg(args, kwargs, 0, "dims"), SeqV) else None
    return _kl("Permute", node, dims=tuple(dims) if dims is not None else None)


@layer_kind("fw:Permute")
def _apply_permute(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """Keras ``Permute(dims)``: dims count from 1 (the batch axis stays first)."""
    shape = x.shape
    dims = layer.param("dims")
    if shape is None or dims is None or len(dims) != len(shape) - 1 or sorted(dims) != list(range(1, len(shape))):
        return x.with_shape(None)
    return x.with_shape(shape[:1] + tuple(shape[d] for d in dims))


@framework_layer("keras.layers", "Embedding")
def _keras_embedding(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    out = _arg(args, kwargs, 1, "output_dim")
    return _kl("Embedding", node, d=out.size if isinstance(out, IntV) else None)


@layer_kind("fw:Embedding")
def _apply_embedding(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """``Embedding`` (Keras, ``flax.linen.Embed``): one axis of size ``d`` more."""
    if x.shape is None:
        return x.with_shape(None)
    d = layer.param("d")
    return TensorV(x.shape + (d if d is not None else cx.fresh("d"),), None, x.framework)


@framework_layer(
    "keras.layers",
    "GlobalAveragePooling1D",
    "GlobalAveragePooling2D",
    "GlobalAveragePooling3D",
    "GlobalMaxPooling1D",
    "GlobalMaxPooling2D",
    "GlobalMaxPooling3D",
    "GlobalAvgPool2D",
    "GlobalMaxPool2D",
    "GlobalAvgPool1D",
    "GlobalMaxPool1D",
)
def _keras_global_pool(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    n = int(name[-2])
    fmt = _arg(args, kwargs, 0, "data_format", NoneV())
    keep = kwargs.get("keepdims", BoolV(False))
    if (
        not isinstance(fmt, NoneV)
        and not (isinstance(fmt, StrV) and fmt.value == "channels_last")
        or not isinstance(keep, BoolV)
    ):
        return _kl("Opaque", node)
    return _kl("GlobalPool", node, n=n, keep=keep.value, mean="Average" in name or "Avg" in name)


@layer_kind("fw:GlobalPool")
def _apply_global_pool(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """Keras global pooling, channels last: (batch, spatial..., channels) -> (batch, channels)."""
    shape = x.shape
    if shape is None:
        return x.with_shape(None)
    n = layer.param("n")
    if _wrong_rank(cx, report_node, layer, x, n + 2):
        return x.with_shape(None)
    if layer.param("keep"):
        return x.with_shape(shape[:1] + (Size.const(1),) * n + shape[-1:])
    return x.with_shape((shape[0], shape[-1]))


@framework_layer("keras.layers", "MultiHeadAttention")
def _keras_mha(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return _kl("MHA", node)


@layer_kind("fw:MHA")
def _apply_mha(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """Keras ``MultiHeadAttention``, ``nnx.MultiHeadAttention`` without ``out_features``: the query's shape."""
    return x


@framework_layer("keras.layers", *_ACTIVATION_LAYERS)
def _keras_same_shape(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    return LayerV("Elementwise", (("name", name),), node)


def keras_ops(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``keras.ops.name(...)`` (any module below ``keras.ops``): the rules registered with ``@_keras_ops(name)``."""
    qual = f"keras.ops.{name}"
    for rule in FRAMEWORK_FUNCTIONS["tensorflow"].get(qual):
        out = rule(cx, node, qual, "tensorflow", args, kwargs)
        if out is not None:
            return out
    return UNKNOWN


def _keras_ops(*names: str) -> Callable[[FunctionRule], FunctionRule]:
    """A rule for ``keras.ops.name`` (numpy signatures; on the TensorFlow backend)."""
    return framework_functions("tensorflow", *(f"keras.ops.{n}" for n in names))


# TensorFlow's functions and their keras.ops twins: one rule each, registered for both with each one's parameter names
# (keras.ops follows numpy's). A rule returns None for a call that is not its case (then the call is unknown).


def _tensor_and(
    op: Callable[[OpContext, cst.Call, TensorV, Value | None], Value], tensor: str, other: str
) -> FunctionRule:
    """The rule of ``f(tensor, other)``: ``op`` on the tensor and the second argument (None when it is not given)."""

    def rule(
        cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
    ) -> Value | None:
        t = _arg(args, kwargs, 0, tensor)
        return op(cx, node, t, _arg(args, kwargs, 1, other)) if isinstance(t, TensorV) else None

    return rule


def _reshape_to(cx: OpContext, node: cst.Call, t: TensorV, shape: Value | None) -> Value:
    return shape_ops.reshape(cx, node, "reshape", t, [shape], {}) if isinstance(shape, SeqV) else t.with_shape(None)


def _squeeze_ones(cx: OpContext, node: cst.Call, t: TensorV, axis: Value | None) -> Value:
    """Every size-1 axis; ``squeeze(x, axis)`` raises on an axis that is not 1: not modelled (unknown shape)."""
    return shape_ops.squeeze(t, [], {}) if axis is None or isinstance(axis, NoneV) else t.with_shape(None)


def _expand_at(cx: OpContext, node: cst.Call, t: TensorV, axis: Value | None) -> Value:
    return _expand_dims(t, axis)


def _cast_to(cx: OpContext, node: cst.Call, t: TensorV, dtype: Value | None) -> Value:
    return _cast(t, dtype)


def _transpose_by(cx: OpContext, node: cst.Call, t: TensorV, perm: Value | None) -> Value:
    return _transpose(cx, t, perm)


_tf("reshape")(_tensor_and(_reshape_to, "tensor", "shape"))
_keras_ops("reshape")(_tensor_and(_reshape_to, "x", "newshape"))
_tf("squeeze")(_tensor_and(_squeeze_ones, "input", "axis"))
_keras_ops("squeeze")(_tensor_and(_squeeze_ones, "x", "axis"))
_tf("expand_dims")(_tensor_and(_expand_at, "input", "axis"))
_keras_ops("expand_dims")(_tensor_and(_expand_at, "x", "axis"))
_tf("cast")(_tensor_and(_cast_to, "x", "dtype"))
_keras_ops("cast")(_tensor_and(_cast_to, "x", "dtype"))
_keras_ops("transpose")(_tensor_and(_transpose_by, "x", "axes"))  # tf.transpose: _tf_transpose (conjugate, name)


def _einsum_rule(equation: str) -> FunctionRule:
    """``einsum(equation, *operands)``, the equation's keyword named ``equation``."""

    def rule(
        cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
    ) -> Value | None:
        return _einsum(cx, node, args[0] if args else kwargs.get(equation), list(args[1:]))

    return rule


_tf("einsum", spaces=("", "linalg"))(_einsum_rule("equation"))
_keras_ops("einsum")(_einsum_rule("subscripts"))


def _same_shape(tensor: str) -> FunctionRule:
    """An elementwise function: its tensor argument's shape (the parameter named ``tensor``)."""

    def rule(
        cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
    ) -> Value | None:
        x = _arg(args, kwargs, 0, tensor)
        return x if isinstance(x, TensorV) else None

    return rule


_tf(*_SAME_SHAPE, spaces=("", "math", "nn"))(_same_shape("input"))
_keras_ops(*_SAME_SHAPE)(_same_shape("x"))
_keras_ops("zeros", "ones", "empty")(_filled("keras.ops"))


@_keras_ops("concatenate", "stack")
def _keras_concat(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    return _concat(
        cx,
        node,
        "concat" if qual.endswith(".concatenate") else "stack",
        fw,
        _arg(args, kwargs, 0, "x"),
        _arg(args, kwargs, 1, "axis", IntV(Size.const(0))),
    )


@_keras_ops("matmul")
def _keras_matmul(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    a, b = _arg(args, kwargs, 0, "x1"), _arg(args, kwargs, 1, "x2")
    return ops.matmul(cx, node, "keras.ops.matmul", a, b) if isinstance(a, TensorV) and isinstance(b, TensorV) else None


@_keras_ops("sum", "prod", "mean", "max", "min")
def _keras_reduction(
    cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """On the TensorFlow backend ``sum`` / ``prod`` call ``tf.reduce_*`` on the input dtype (65,536 float16 ones sum
    to inf), while ``mean`` casts float16 to float32 first (safe)."""
    x = _arg(args, kwargs, 0, "x")
    if not isinstance(x, TensorV):
        return None
    name = qual.rsplit(".", 1)[-1]
    kind = {"max": "amax", "min": "amin"}.get(name, name)
    if name == "mean" and x.dtype in ("float16", "bfloat16"):
        out = _reduce(
            cx, node, kind, x.with_dtype("float32"), _arg(args, kwargs, 1, "axis"), _arg(args, kwargs, 2, "keepdims")
        )
        return out.with_dtype(x.dtype) if isinstance(out, TensorV) else out
    return _reduce(cx, node, kind, x, _arg(args, kwargs, 1, "axis"), _arg(args, kwargs, 2, "keepdims"))


def _int_tuple(v: Value | None, n: int) -> tuple[int, ...] | None:
    k = v.size.as_int() if isinstance(v, IntV) else None
    if k is not None:
        return (k,) * n
    if isinstance(v, SeqV):
        got = _ints(list(v.items))
        return tuple(got) if got is not None and len(got) == n else None
    return None


def _shape_of_minus(v: Value | None) -> tuple[int, ...] | None:
    if not isinstance(v, SeqV):
        return None
    got = _ints(list(v.items))
    return tuple(got) if got is not None else None


# ``paddle.nn`` layers: the torch ones under their paddle names, registered with @framework_layer("paddle.nn", ...)
@framework_layer("paddle.nn", "Linear", "LayerNorm", "Embedding")
def _paddle_nn_as_torch(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``paddle.nn.Linear`` keeps its weight as ``[in, out]``, which changes nothing for its input: the last axis must
    be ``in_features``; ``LayerNorm`` and ``Embedding`` are torch's."""
    kw = {
        k: v
        for k, v in kwargs.items()
        if k in ("in_features", "out_features", "normalized_shape", "num_embeddings", "embedding_dim")
    }
    return layers.layer(cx, node, name, args[:2], kw)


@framework_layer("paddle.nn", "Conv1D", "Conv2D", "Conv3D")
def _paddle_nn_conv(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``paddle.nn.Conv2D`` is torch's ``Conv2d`` in channels-first layout without groups (anything else: unknown)."""
    fmt = _arg(args, kwargs, 10, "data_format")
    if fmt is not None and not (isinstance(fmt, StrV) and fmt.value in ("NCL", "NCHW", "NCDHW")):
        return UNKNOWN
    if (
        len(args) > 6
        or any(k in kwargs for k in ("groups",))
        and not (isinstance(kwargs.get("groups"), IntV) and kwargs["groups"].size.as_int() == 1)  # type: ignore[union-attr]
    ):
        return UNKNOWN
    kw = {
        k: v
        for k, v in kwargs.items()
        if k in ("in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation")
    }
    return layers.layer(cx, node, name[:-1] + "d", args[:6], kw)


@framework_layer("paddle.nn", "Flatten")
def _paddle_nn_flatten(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    start = _arg(args, kwargs, 0, "start_axis", IntV(Size.const(1)))
    stop = _arg(args, kwargs, 1, "stop_axis", IntV(Size.const(-1)))
    return layers.layer(cx, node, "Flatten", [start, stop], {})  # type: ignore[list-item]


@framework_layer("paddle.nn", "Sequential")
def _paddle_nn_sequential(
    cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return layers.layer(cx, node, "Sequential", args, kwargs)


@framework_layer("paddle.nn", *_ACTIVATION_LAYERS)  # Silu, Hardswish, Dropout2D: paddle's spellings
def _paddle_nn_elementwise(
    cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    return LayerV("Elementwise", (("name", name),), node)


def flax_call(cx: OpContext, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``flax.linen.Name(...)`` / ``flax.nnx.Name(...)`` (any module below them): the rule registered for the name.
    A linen layer keeps its dataclass fields as given (``conv.kernel_size[1]``, ``conv.strides``: LINEN_FIELDS)."""
    parts = qual.split(".")
    if len(parts) < 3 or parts[1] not in ("linen", "nnx"):
        return UNKNOWN
    build = FRAMEWORK_LAYERS[f"flax.{parts[1]}"].get(parts[-1])
    out = build(cx, node, parts[-1], args, kwargs) if build is not None else UNKNOWN
    if type(out) is LayerV and parts[1] == "linen" and parts[-1] in LINEN_FIELDS:
        fields = _linen_fields(parts[-1], args, kwargs)
        if fields:
            return replace(out, params=out.params + (("linen_fields", fields),))
    return out


# flax.linen layers read as dataclasses (flax 0.12): the leading fields a positional argument binds, and the defaults
# of the plain fields (numbers, strings, None) -- what ``layer.name`` holds before the layer is bound, as given
LINEN_FIELDS: dict[str, tuple[tuple[str, ...], dict[str, object]]] = {
    "Dense": (("features",), {"use_bias": True}),
    "DenseGeneral": (("features",), {"axis": -1, "use_bias": True}),
    "Conv": (
        ("features", "kernel_size"),
        {
            "strides": 1,
            "padding": "SAME",
            "input_dilation": 1,
            "kernel_dilation": 1,
            "feature_group_count": 1,
            "use_bias": True,
        },
    ),
    "ConvTranspose": (
        ("features", "kernel_size"),
        {"strides": None, "padding": "SAME", "kernel_dilation": None, "use_bias": True},
    ),
    "Embed": (("num_embeddings", "features"), {}),
    "Dropout": (("rate",), {}),
    "GroupNorm": (("num_groups",), {"num_groups": 32, "epsilon": 1e-6}),
    "LayerNorm": ((), {"epsilon": 1e-6}),
    "BatchNorm": (("use_running_average",), {"use_running_average": None, "axis": -1, "momentum": 0.99}),
}


def _linen_fields(name: str, args: list[Value], kwargs: dict[str, Value]) -> tuple[tuple[str, Value], ...]:
    """The fields of a linen layer built with ``args`` / ``kwargs`` (LINEN_FIELDS): the arguments as given, the
    defaults of the fields not given. A positional argument past the leading fields binds a field not listed: the
    layer's fields are then not read."""
    leading, defaults = LINEN_FIELDS[name]
    if len(args) > len(leading):
        return ()
    out: dict[str, Value] = {}
    for field_name, default in defaults.items():
        out[field_name] = (
            NoneV()
            if default is None
            else BoolV(default)
            if isinstance(default, bool)
            else IntV(Size.const(default))
            if isinstance(default, int)
            else FloatV(default)
            if isinstance(default, float)
            else StrV(str(default))
        )
    out.update(zip(leading, args))
    out.update(kwargs)
    return tuple(out.items())


@framework_layer("flax.linen", *_SAME_SHAPE)
@framework_layer("flax.nnx", *_SAME_SHAPE)
def _flax_same_shape(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nn.relu(x)``, ``nnx.gelu(x)``: the input's shape."""
    x = args[0] if args else None
    return x if isinstance(x, TensorV) else UNKNOWN


@framework_layer("flax.linen", "max_pool", "avg_pool", "min_pool")
@framework_layer("flax.nnx", "max_pool", "avg_pool", "min_pool")
def _flax_pool(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nn.max_pool(x, window_shape, strides=None, padding="VALID")`` (avg_pool, min_pool; flax.linen.pooling.pool):
    channels last, ``(batch..., *spatial, features)`` or one example ``(*spatial, features)``; each spatial axis
    becomes ceil(h / s) with SAME, (h - k) // s + 1 with VALID, (h + lo + hi - k) // s + 1 with explicit pads
    (only for one batch axis: flax pads one leading axis). Anything not known: the spatial sizes are unknown."""
    x = _arg(args, kwargs, 0, "inputs")
    ws = _arg(args, kwargs, 1, "window_shape")
    if not isinstance(x, TensorV):
        return UNKNOWN
    if x.shape is None or not isinstance(ws, SeqV) or len(args) > 4:
        return x.with_shape(None)
    n = len(ws.items)
    kernel = _ints(list(ws.items))
    st = _arg(args, kwargs, 2, "strides")
    strides = (
        (1,) * n if st is None or isinstance(st, NoneV) else _ints(list(st.items)) if isinstance(st, SeqV) else None
    )
    pad = _arg(args, kwargs, 3, "padding", StrV("VALID"))
    batch = len(x.shape) - (n + 1)
    if batch < 0 or strides is None or len(strides) != n:
        return x.with_shape(None)  # flax asserts these
    pads: list[tuple[int, int]] | None = None
    if isinstance(pad, StrV) and pad.value.upper() in ("SAME", "VALID"):
        mode = pad.value.upper()
    elif isinstance(pad, SeqV) and batch == 1 and len(pad.items) == n:
        mode = "EXPLICIT"
        pairs = [_ints(list(p.items)) if isinstance(p, SeqV) else None for p in pad.items]
        pads = [(p[0], p[1]) for p in pairs if p is not None and len(p) == 2]
        if len(pads) != n:
            return x.with_shape(None)
    else:
        return x.with_shape(None)
    sides: list[Size] = []
    for i, size in enumerate(x.shape[batch : batch + n]):
        hv, si = size.as_int(), strides[i]
        ki = kernel[i] if kernel is not None and len(kernel) == n else None
        lo, hi = pads[i] if pads is not None else (0, 0)
        if mode == "VALID" and si == 1 and ki == 1:
            sides.append(size)
            continue
        if mode != "SAME" and hv is not None and ki is not None and hv + lo + hi < ki:
            return x.with_shape(None)  # a window larger than the padded axis: lax's error, not modelled here
        side = _window_side(size, ki, si, mode == "SAME", lo, hi)
        sides.append(side if side is not None else cx.fresh("h"))
    return x.with_shape(x.shape[:batch] + tuple(sides) + x.shape[batch + n :], x.axes)


def _window_side(size: Size, kernel: int | None, stride: int, same: bool, lo: int = 0, hi: int = 0) -> Size | None:
    """One spatial axis of a flax window op (nn.Conv, the pools): ceil(h / s) with SAME padding, else
    (h + lo + hi - k) // s + 1; None when that is not known (or the window is larger than the padded axis)."""
    hv = size.as_int()
    if same:
        return size if stride == 1 else Size.const(-(-hv // stride)) if hv is not None else None
    if kernel is None or hv is None or hv + lo + hi < kernel:
        return None
    return Size.const((hv + lo + hi - kernel) // stride + 1)


@framework_layer("flax.linen", "Dense")
def _linen_dense(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    feats = _arg(args, kwargs, 0, "features")
    return _kl("Dense", node, units=feats.size if isinstance(feats, IntV) else None, flax=True)


@framework_layer("flax.linen", "Sequential")
def _linen_sequential(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    layers_v = _arg(args, kwargs, 0, "layers")
    if not isinstance(layers_v, SeqV):
        return UNKNOWN
    items: list[Value] = []
    for item in layers_v.items:
        if isinstance(item, RefV) and item.qualname.rsplit(".", 1)[-1] in _SAME_SHAPE:
            items.append(LayerV("Elementwise", (("name", item.qualname),), node))
        else:
            items.append(item)
    return LayerV("Sequential", (("layers", tuple(items)),), node)


@framework_layer("flax.linen", "LayerNorm", "Dropout", "BatchNorm", "RMSNorm", "GroupNorm", "InstanceNorm")
@framework_layer("flax.nnx", "Dropout", "BatchNorm")
def _flax_elementwise(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """Normalisations and dropout: the input's shape (linen's GroupNorm and InstanceNorm read their feature count
    from the input; GroupNorm raises when num_groups does not divide it, which is not checked here)."""
    return LayerV("Elementwise", (("name", name),), node)


@framework_layer("flax.linen", "Embed")
def _linen_embed(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    feats = _arg(args, kwargs, 1, "features")
    return _kl("Embedding", node, d=feats.size if isinstance(feats, IntV) else None)


# flax.nnx layers whose sizes are torch's: (name, keyword names in torch's positional order)
_NNX_AS_TORCH = {
    "Linear": ("Linear", ("in_features", "out_features")),
    "LayerNorm": ("LayerNorm", ("num_features",)),
    "RMSNorm": ("RMSNorm", ("num_features",)),
    "Embed": ("Embedding", ("num_embeddings", "features")),
}


@framework_layer("flax.nnx", *_NNX_AS_TORCH)
def _nnx_as_torch(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``flax.nnx`` layers built in ``__init__`` with their sizes: ``nnx.Linear(in_features, out_features,
    rngs=...)`` is torch's Linear, ``nnx.LayerNorm(num_features)`` normalises the last axis, ``nnx.Embed(n,
    features)``."""
    torch_name, keywords = _NNX_AS_TORCH[name]
    sizes: list[Value] = []
    for i, kw in enumerate(keywords):
        v = _arg(args, kwargs, i, kw)
        if v is None:
            return UNKNOWN
        sizes.append(v)
    built = layers.layer(cx, node, torch_name, sizes, {})
    # (what it is applied to, when that is not known, is a JAX array: layers.apply_layer)
    return replace(built, params=built.params + (("framework", "jax"),)) if type(built) is LayerV else built


@framework_layer("flax.nnx", "Param", "Variable", "BatchStat", "Cache", "Intermediate")
def _nnx_variable(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nnx.Param(value, **metadata)`` (and the other Variable kinds): held as the array it wraps, which its
    ``.value``, ``[...]`` and arithmetic read (ops.tensor_attribute); anything but a jax array is unknown."""
    v = _arg(args, kwargs, 0, "value")
    return v if isinstance(v, TensorV) and v.framework == "jax" else UNKNOWN


@framework_layer("flax.nnx", "MultiHeadAttention")
def _nnx_mha(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nnx.MultiHeadAttention`` without ``out_features`` returns its query's shape."""
    out = kwargs.get("out_features")
    if out is None or isinstance(out, NoneV):
        return _kl("MHA", node)
    return UNKNOWN


@framework_layer("flax.linen", "SelfAttention", "MultiHeadDotProductAttention", "MultiHeadAttention")
def _linen_attention(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nn.SelfAttention(num_heads, qkv_features=None, out_features=None)`` and ``nn.MultiHeadDotProductAttention``
    (``nn.MultiHeadAttention``): read here, checked when called (see ``_apply_linen_attention``)."""
    if len(args) > 1:
        return UNKNOWN  # dtype, param_dtype ... given by position: not read

    def size(v: Value | None) -> Any:
        if v is None or isinstance(v, NoneV):
            return None  # the input's features
        return v.size if isinstance(v, IntV) else "?"

    heads = size(_arg(args, kwargs, 0, "num_heads"))
    params = (
        ("name", name),
        ("heads", heads if heads is not None else "?"),
        ("qkv", size(kwargs.get("qkv_features"))),
        ("out", size(kwargs.get("out_features"))),
    )
    return LayerV("fw:LinenAttention", params, node)


# the broadcasting element-wise functions ``make_attention_mask`` may pair the query and key inputs with
_PAIRWISE = frozenset(
    f"{m}.{n}"
    for m in ("jax.numpy", "numpy")
    for n in (
        "multiply",
        "equal",
        "not_equal",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "logical_and",
        "logical_or",
        "add",
        "subtract",
    )
)


@framework_layer("flax.linen", "make_attention_mask", "make_causal_mask")
@framework_layer("flax.nnx", "make_attention_mask", "make_causal_mask")
def _flax_attention_mask(
    cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """flax's mask helpers (flax/linen/attention.py, the same in flax.nnx): ``make_attention_mask(query_input,
    key_input, pairwise_fn=jnp.multiply, extra_batch_dims=0, dtype=jnp.float32)`` compares ``query_input[..., :,
    None]`` with ``key_input[..., None, :]`` and inserts an axis of 1 for the heads: ``broadcast(q.shape[:-1],
    k.shape[:-1]) + (1, q_len, kv_len)``, with ``extra_batch_dims`` axes of 1 in front. ``make_causal_mask(x,
    extra_batch_dims=0, dtype=jnp.float32)`` is ``make_attention_mask(idx, idx, jnp.greater_equal)`` on the positions
    ``idx`` broadcast to ``x.shape``: every axis of ``x`` but the last is a batch axis, the last the length (an
    activation ``(b, n, d)`` gives ``(b, n, 1, d, d)``). A pairwise function other than a broadcasting numpy
    element-wise one, or sizes not known: unknown."""
    causal = name == "make_causal_mask"
    names: tuple[str, ...] = ("x", "extra_batch_dims", "dtype")
    if not causal:
        names = ("query_input", "key_input", "pairwise_fn", "extra_batch_dims", "dtype")
    if len(args) > len(names) or set(kwargs) - set(names):
        return UNKNOWN
    bound = dict(zip(names, args)) | kwargs
    extra = bound.get("extra_batch_dims", IntV(Size.const(0)))
    n_extra = extra.size.as_int() if isinstance(extra, IntV) and not extra.assumed else None
    if n_extra is None or n_extra < 0:
        return UNKNOWN
    q = bound.get("x" if causal else "query_input")
    k = q if causal else bound.get("key_input")
    if not causal:
        fn = bound.get("pairwise_fn")
        if fn is not None and not (isinstance(fn, RefV) and fn.qualname in _PAIRWISE):
            return UNKNOWN
    if not (isinstance(q, TensorV) and isinstance(k, TensorV)) or q.shape is None or k.shape is None:
        return UNKNOWN
    if not q.shape or not k.shape:
        return UNKNOWN  # a 0-d input has no length (``x.shape[-1]`` raises)
    batch, bad = broadcast_shapes(q.shape[:-1], k.shape[:-1])
    if batch is None or bad is not None:
        return UNKNOWN
    dtype = bound.get("dtype")
    out = (Size.const(1),) * n_extra + tuple(batch) + (Size.const(1), q.shape[-1], k.shape[-1])
    return TensorV(out, "float32" if dtype is None else _dtype(dtype), "jax", None, cx.origin(node, f"{name}(...)"))


def linen_attention_mask(
    cx: OpContext, node: cst.CSTNode, layer: LayerV, x: TensorV, args: list[Value], kwargs: dict[str, Value]
) -> bool:
    """flax linen attention's ``mask`` fills the attention weights (*batch, num_heads, q_length, kv_length): a mask
    whose shape does not broadcast with theirs raises (a (batch, kv_length) padding mask handed on unexpanded). The
    mask is ``SelfAttention``'s second argument, and a keyword of ``MultiHeadDotProductAttention``. False after an
    SHP204."""
    name = layer.param("name")
    self_attention = name == "SelfAttention"
    mask = kwargs.get("mask", args[1] if self_attention and len(args) > 1 else None)
    heads = layer.param("heads")
    if not isinstance(mask, TensorV) or mask.shape is None or not isinstance(heads, Size) or x.shape is None:
        return True
    kv: Value = x
    if not self_attention:
        kv = args[1] if len(args) > 1 else kwargs.get("inputs_k", kwargs.get("inputs_kv", x))
        if isinstance(kv, NoneV):
            kv = x
    if not isinstance(kv, TensorV) or kv.shape is None or len(x.shape) < 2 or len(kv.shape) < 2:
        return True
    weights = x.shape[:-2] + (heads, x.shape[-2], kv.shape[-2])
    _, bad = broadcast_shapes(mask.shape, weights)
    if bad is None:
        return True
    cx.ctx.report(
        node,
        "SHP204",
        {"op": str(name), "detail": D.AttentionMismatch("mask", mask.shape, weights, x.shape, kv.shape, kv.shape)},
        cx.origins([x, mask]),
        spec=OpSpec("elementwise", None, (mask.shape, weights), (), (("name", "attention mask"),)),
    )
    return False


@layer_kind("fw:LinenAttention")
def _apply_linen_attention(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """flax linen attention on ``inputs_q`` of shape (*batch, length, features): the output is (*batch, length,
    out_features or features); ``qkv_features`` (the query's features when not given) must be divisible by
    ``num_heads`` (an assertion in the call). Keys and values are projected from their own features."""
    if x.shape is None or len(x.shape) < 2:
        return x.with_shape(None)
    feats = x.shape[-1]
    heads, qkv, out = layer.param("heads"), layer.param("qkv"), layer.param("out")
    qkv_eff = feats if qkv is None else qkv
    if isinstance(heads, Size) and isinstance(qkv_eff, Size) and divisible(qkv_eff, heads) is Truth.FALSE:
        name = layer.param("name")
        cx.ctx.report(
            report_node,
            "SHP204",
            {"op": name, "detail": D.LayerArguments(name, "qkv_features", qkv_eff, "num_heads", heads, "the call")},
            cx.origins([x]),
            spec=OpSpec("layer.arguments", None, (), (), (("layer", name), ("value", qkv_eff), ("by", heads))),
        )
        return UNKNOWN
    last = feats if out is None else (out if isinstance(out, Size) else cx.fresh("out_features"))
    return x.with_shape(x.shape[:-1] + (last,), None)


# flax linen's recurrent cells (flax/linen/recurrent.py) and the number of arrays in their carry: LSTMs carry (c, h)
_LINEN_CELLS = {"LSTMCell": 2, "OptimizedLSTMCell": 2, "GRUCell": 1, "MGUCell": 1, "SimpleCell": 1}


@framework_layer("flax.linen", *_LINEN_CELLS)
def _linen_cell(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nn.LSTMCell(features)`` / ``OptimizedLSTMCell`` / ``GRUCell`` / ``MGUCell`` / ``SimpleCell``: read here;
    ``cell.initialize_carry(rng, input_shape)`` makes the carry (``linen_initialize_carry``), ``cell(carry, x)`` one
    step (``apply_linen_cell``)."""
    if len(args) > 1:
        return UNKNOWN  # gate_fn, activation_fn ... given by position: not read
    feats = _arg(args, kwargs, 0, "features")
    return LayerV("fw:LinenCell", (("name", name), ("features", feats.size if isinstance(feats, IntV) else None)), node)


def _cell_carry(cx: OpContext, name: str, mem: tuple[Size, ...] | None, node: cst.CSTNode | None = None) -> Value:
    """A linen cell's carry of arrays shaped ``mem`` (unknown: None): ``(c, h)`` for an LSTM, one array else."""
    arr = TensorV(mem, "float32", "jax", None, cx.origin(node, "initialize_carry(...)") if node is not None else None)
    return SeqV((arr, arr), "tuple") if _LINEN_CELLS[name] == 2 else arr


def linen_initialize_carry(
    cx: OpContext, node: cst.Call, cell: LayerV, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``cell.initialize_carry(rng, input_shape)``: arrays of shape ``input_shape[:-1] + (features,)`` (the input of
    one step's batch axes, then the cell's features; ``carry_init``'s param_dtype, float32 by default)."""
    name = str(cell.param("name"))
    if len(args) + len(kwargs) != 2 or not set(kwargs) <= {"rng", "input_shape"}:
        return UNKNOWN  # flax < 0.7's initialize_carry(rng, batch_dims, size) was a static method of the class
    shape = _shape_of(_arg(args, kwargs, 1, "input_shape"), None)
    feats = cell.param("features")
    if shape is None or len(shape) < 1:
        return _cell_carry(cx, name, None)
    return _cell_carry(cx, name, shape[:-1] + (feats if feats is not None else cx.fresh("features"),), node)


def apply_linen_cell(
    cx: OpContext, node: cst.Call, report_node: cst.CSTNode, cell: LayerV, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``cell(carry, inputs)`` of a linen cell: every gate is ``Dense(H)(inputs) + Dense(H)(h)`` with ``H =
    h.shape[-1]`` (the carry's own width, not the cell's features), so ``inputs.shape[:-1] + (H,)`` must broadcast
    with ``h``'s shape (SHP204 when it cannot: a carry made from the whole sequence's shape, its time axis still
    in it, against one step's input); an LSTM's ``c`` broadcasts with the gates too. Returns ``(new_carry, out)``."""
    name = str(cell.param("name"))
    carry = args[0] if args else kwargs.get("carry")
    x = args[1] if len(args) > 1 else kwargs.get("inputs")
    if len(args) + len(kwargs) != 2 or carry is None or x is None:
        return UNKNOWN
    unknown = SeqV((_cell_carry(cx, name, None), TensorV(None, None, "jax")), "tuple")
    if _LINEN_CELLS[name] == 2:
        if not isinstance(carry, SeqV) or len(carry.items) != 2:
            return unknown
        c, h = carry.items
    else:
        c = h = carry
    if not (isinstance(c, TensorV) and isinstance(h, TensorV) and isinstance(x, TensorV)):
        return unknown
    if not h.shape or not x.shape or c.shape is None or c.alts or h.alts or x.alts:
        return unknown
    proj = TensorV(
        x.shape[:-1] + (h.shape[-1],), x.dtype, "jax", None, cx.origin(node, f"the {name}'s input projection")
    )
    gates = ops.elementwise(cx, report_node, f"nn.{name}", [proj, h])
    if not isinstance(gates, TensorV) or gates.shape is None:
        return unknown
    if _LINEN_CELLS[name] == 2:
        new_c = ops.elementwise(cx, report_node, f"nn.{name}", [c, gates])  # f * c + i * g
        if not isinstance(new_c, TensorV) or new_c.shape is None:
            return unknown
        new_h = TensorV(new_c.shape, None, "jax", None, proj.origin)
        return SeqV((SeqV((new_h.with_shape(new_c.shape), new_h), "tuple"), new_h), "tuple")
    new = TensorV(gates.shape, None, "jax", None, proj.origin)
    return SeqV((new, new), "tuple")


@framework_layer("flax.linen", "RNN")
def _linen_rnn(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nn.RNN(cell, time_major=False, return_carry=False, ...)`` over a linen cell."""
    cell = _arg(args, kwargs, 0, "cell")
    flags = {k: _arg(args, kwargs, i, k, BoolV(False)) for i, k in ((1, "time_major"), (2, "return_carry"))}
    if not isinstance(cell, LayerV) or cell.kind != "fw:LinenCell" or len(args) > 3:
        return UNKNOWN
    if not all(isinstance(v, BoolV) for v in flags.values()):
        return UNKNOWN
    params = tuple((k, v.value) for k, v in flags.items() if isinstance(v, BoolV))
    return LayerV("fw:LinenRNN", (("cell", cell), *params), node)


def apply_linen_rnn(cx: OpContext, node: cst.Call, rnn: LayerV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nn.RNN(cell)(inputs)`` on (*batch, time, features) (``time_major``: (time, *batch, features)): the cell runs
    over the time axis from the carry ``initialize_carry`` makes of one step's shape, so the output is the input
    with its features replaced by the cell's; ``return_carry`` puts the final carry (batch axes, features) before
    it. An ``initial_carry`` given (or a flag not known): unknown."""
    x = args[0] if args else kwargs.get("inputs")
    flags = {k: rnn.param(k) for k in ("time_major", "return_carry")}
    for k in flags:
        if k in kwargs and not isinstance(kwargs[k], NoneV):
            v = kwargs[k]
            flags[k] = v.value if isinstance(v, BoolV) else None
    if (
        len(args) != 1
        or not set(kwargs) <= {"time_major", "return_carry", "seq_lengths", "init_key", "reverse", "keep_order"}
        or None in flags.values()
        or not isinstance(x, TensorV)
        or x.shape is None
        or len(x.shape) < 2
        or x.alts
    ):
        return UNKNOWN
    cell = rnn.param("cell")
    feats = cell.param("features")
    h = feats if feats is not None else cx.fresh("features")
    out = TensorV(x.shape[:-1] + (h,), None, "jax", None, cx.origin(node, "the RNN layer"))
    if not flags["return_carry"]:
        return out
    batch = x.shape[1:-1] if flags["time_major"] else x.shape[:-2]
    return SeqV((_cell_carry(cx, str(cell.param("name")), batch + (h,), node), out), "tuple")


@framework_layer("flax.linen", "Conv")
def _flax_conv(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nn.Conv(features, kernel_size, strides=1, padding="SAME")``: channels last; the output has ``features``
    channels and, with SAME padding, ceil(size / stride) on each spatial axis."""
    feats = _arg(args, kwargs, 0, "features")
    ks = _arg(args, kwargs, 1, "kernel_size")
    if (
        not isinstance(ks, SeqV)
        or not all(isinstance(k, IntV) for k in ks.items)
        or len(args) > 3
        or not {"input_dilation", "feature_group_count"}.isdisjoint(kwargs)
    ):
        return UNKNOWN
    n = len(ks.items)
    st = _arg(args, kwargs, 2, "strides", IntV(Size.const(1)))
    strides = _ints([st] * n) if isinstance(st, IntV) else (_ints(list(st.items)) if isinstance(st, SeqV) else None)
    pad = kwargs.get("padding", StrV("SAME"))
    same = isinstance(pad, StrV) and pad.value.upper() == "SAME"
    # kernel_dilation d: a window of d * (k - 1) + 1 (SAME padding still gives ceil(h / s))
    dil = kwargs.get("kernel_dilation", IntV(Size.const(1)))
    dils = _ints([dil] * n) if isinstance(dil, IntV) else (_ints(list(dil.items)) if isinstance(dil, SeqV) else None)
    kernel = _ints(list(ks.items))
    window = (
        tuple(d * (k - 1) + 1 for d, k in zip(dils, kernel))
        if dils is not None and kernel is not None and len(dils) == n and all(d >= 1 for d in dils)
        else None
    )
    valid = isinstance(pad, StrV) and pad.value.upper() == "VALID" and window is not None
    pads = _conv_pads(pad, n) if window is not None else None
    return _kl(
        "FlaxConv",
        node,
        n=n,
        features=feats.size if isinstance(feats, IntV) else None,
        strides=tuple(strides) if strides is not None and len(strides) == n else None,
        same=same,
        valid=window if valid or pads is not None else None,
        pads=pads,
        spatial_kernel=any((k.size.as_int() or 1) > 1 for k in ks.items if isinstance(k, IntV)),
    )


def _conv_pads(pad: Value, n: int) -> tuple[tuple[int, int], ...] | None:
    """flax Conv's explicit ``padding``: an int (that many on both sides of every spatial axis), or a sequence of n
    ints (each on both sides of its axis) or of n (low, high) pairs; None for a string or anything not known."""
    if isinstance(pad, IntV):
        k = pad.size.as_int()
        return ((k, k),) * n if k is not None and k >= 0 else None
    if not isinstance(pad, SeqV) or len(pad.items) != n:
        return None
    out: list[tuple[int, int]] = []
    for p in pad.items:
        pair = [p] if isinstance(p, IntV) else list(p.items) if isinstance(p, SeqV) else None
        got = _ints(pair) if pair is not None and len(pair) in (1, 2) else None
        if got is None or any(v < 0 for v in got):
            return None
        out.append((got[0], got[-1]))
    return tuple(out)


# nnx.Conv / ConvTranspose keywords that change no shape (an initializer, a flag, a matmul precision); ``dtype`` and
# ``param_dtype`` are not among them for what they would say of the output's dtype
_NNX_SHAPE_NEUTRAL = ("use_bias", "kernel_init", "bias_init", "precision")


@framework_layer("flax.nnx", "Conv")
def _nnx_conv(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nnx.Conv(in_features, out_features, kernel_size, strides=1, padding="SAME", rngs=...)``: linen's Conv with
    its input channels given, which the input's last axis must have."""
    fin = _arg(args, kwargs, 0, "in_features")
    rest = {k: v for k, v in kwargs.items() if k not in ("in_features", "rngs", *_NNX_SHAPE_NEUTRAL)}
    if "out_features" in rest:
        rest["features"] = rest.pop("out_features")
    if not isinstance(fin, IntV) or set(rest) - {"features", "kernel_size", "strides", "padding", "kernel_dilation"}:
        return UNKNOWN
    conv = _flax_conv(cx, node, name, list(args[1:4]), rest)
    if not isinstance(conv, LayerV) or len(args) > 4:
        return UNKNOWN
    return LayerV(conv.kind, conv.params + (("in", fin.size),), node)


@framework_layer("flax.nnx", "List")
def _nnx_list(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nnx.List([...])``: torch's ModuleList (its items, or any number of one element)."""
    if len(args) > 1 or kwargs:
        return UNKNOWN
    return layers.ModuleList.build(cx, node, "ModuleList", args, {})


@framework_layer("flax.nnx", "Dict")
def _nnx_dict(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nnx.Dict({name: module, ...}, **more)``: torch's ModuleDict (a dict's entries, then the keywords)."""
    if len(args) > 1 or (args and not isinstance(args[0], DictV)):
        return UNKNOWN
    items = dict(args[0].items) if args and isinstance(args[0], DictV) else {}
    items.update(kwargs)
    return DictV(tuple(items.items()), "moduledict")


@framework_layer("flax.nnx", "Sequential")
def _nnx_sequential(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nnx.Sequential(*layers)``: linen's Sequential of the same layers (functions such as ``nnx.relu`` too)."""
    if kwargs:
        return UNKNOWN
    return _linen_sequential(cx, node, name, [SeqV(tuple(args))], {})


@framework_layer("flax.nnx", "GroupNorm")
def _nnx_group_norm(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nnx.GroupNorm(num_features, num_groups=32, group_size=None, rngs=...)``: channels last; the constructor
    rejects groups that do not divide the features, the input's last axis must have ``num_features``."""
    feats = _arg(args, kwargs, 0, "num_features")
    groups = _arg(args, kwargs, 1, "num_groups", IntV(Size.const(32)))
    gsize = _arg(args, kwargs, 2, "group_size", NoneV())
    if not isinstance(feats, IntV) or not isinstance(gsize, NoneV) or "reduction_axes" in kwargs:
        return UNKNOWN
    if isinstance(groups, IntV) and not layers._divides(
        cx, node, "nnx.GroupNorm", ("num_features", feats.size), ("num_groups", groups.size)
    ):
        return UNKNOWN
    return _kl("ChannelsLastNorm", node, cls="GroupNorm", c=feats.size)


@layer_kind("fw:ChannelsLastNorm")
def _apply_channels_last_norm(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    shape, c = x.shape, layer.param("c")
    if shape is None or not shape or c is None or equal(shape[-1], c) is not Truth.FALSE:
        return x
    cls = layer.param("cls")
    cx.ctx.report(
        report_node,
        "SHP204",
        {"op": f"nnx.{cls}", "detail": D.LayerInput(cls, "num_features", c, "last-axis", shape[-1], shape)},
        cx.origins([x]),
        spec=OpSpec("nn.Linear", None, (shape,), (), (("in_features", c), ("out_features", c))),
    )
    return x.with_shape(None)


@framework_layer("flax.linen", "ConvTranspose")
def _flax_conv_transpose(
    cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``nn.ConvTranspose(features, kernel_size, strides=None, padding="SAME")``: channels last; each spatial side
    becomes ``h * s`` (SAME) or ``h * s + max(k - s, 0)`` (VALID)."""
    feats = _arg(args, kwargs, 0, "features")
    ks = _arg(args, kwargs, 1, "kernel_size")
    if isinstance(ks, IntV):
        ks = SeqV((ks,))
    if (
        not isinstance(ks, SeqV)
        or not all(isinstance(k, IntV) for k in ks.items)
        or len(args) > 3
        or not {"kernel_dilation", "input_dilation", "feature_group_count"}.isdisjoint(kwargs)
    ):
        return UNKNOWN
    n = len(ks.items)
    st = _arg(args, kwargs, 2, "strides", NoneV())
    st = IntV(Size.const(1)) if isinstance(st, NoneV) else st
    strides = _ints([st] * n) if isinstance(st, IntV) else (_ints(list(st.items)) if isinstance(st, SeqV) else None)
    kernel = _ints(list(ks.items))
    pad = kwargs.get("padding", StrV("SAME"))
    mode = pad.value.upper() if isinstance(pad, StrV) and pad.value.upper() in ("SAME", "VALID") else None
    return _kl(
        "FlaxConvTranspose",
        node,
        n=n,
        features=feats.size if isinstance(feats, IntV) else None,
        strides=tuple(strides) if strides is not None and len(strides) == n else None,
        kernel=tuple(kernel) if kernel is not None else None,
        mode=mode,
    )


@framework_layer("flax.nnx", "ConvTranspose")
def _nnx_conv_transpose(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``nnx.ConvTranspose(in_features, out_features, kernel_size, strides=None, padding="SAME", rngs=...)``:
    linen's ConvTranspose with its input channels given, which the input's last axis must have."""
    fin = _arg(args, kwargs, 0, "in_features")
    rest = {k: v for k, v in kwargs.items() if k not in ("in_features", "rngs", *_NNX_SHAPE_NEUTRAL)}
    if "out_features" in rest:
        rest["features"] = rest.pop("out_features")
    if not isinstance(fin, IntV) or len(args) > 4 or set(rest) - {"features", "kernel_size", "strides", "padding"}:
        return UNKNOWN
    conv = _flax_conv_transpose(cx, node, name, list(args[1:4]), rest)
    if not isinstance(conv, LayerV):
        return UNKNOWN
    return LayerV(conv.kind, conv.params + (("in", fin.size),), node)


@layer_kind("fw:FlaxConvTranspose")
def _apply_flax_conv_transpose(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    shape = x.shape
    n, f = layer.param("n"), layer.param("features")
    if shape is None or len(shape) < n + 1:
        return x.with_shape(None)
    fin = layer.param("in")  # nnx.ConvTranspose's in_features: the input's channels (last axis)
    if fin is not None and equal(shape[-1], fin) is Truth.FALSE:
        cx.ctx.report(
            report_node,
            "SHP204",
            {
                "op": "nnx.ConvTranspose",
                "detail": D.LayerInput("ConvTranspose", "in_features", fin, "last-axis", shape[-1], shape),
            },
            cx.origins([x]),
            spec=OpSpec("nn.Linear", None, (shape,), (), (("in_features", fin), ("out_features", fin))),
        )
        return UNKNOWN
    strides, kernel, mode = layer.param("strides"), layer.param("kernel"), layer.param("mode")
    sides: list[Size] = []
    for i, size in enumerate(shape[-n - 1 : -1]):
        if strides is None or kernel is None or mode is None:
            sides.append(cx.fresh("h"))
        elif mode == "SAME":
            sides.append(size * strides[i])
        else:
            sides.append(size * strides[i] + max(kernel[i] - strides[i], 0))
    out = shape[: -n - 1] + tuple(sides) + (f if f is not None else cx.fresh("features"),)
    spatial_kernel = kernel is not None and any(k > 1 for k in kernel)
    return x.with_shape(out, layout_axes(x.axes, len(out), n, channels_last=True, spatial_kernel=spatial_kernel))


@layer_kind("fw:FlaxConv")
def _apply_flax_conv(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    shape = x.shape
    if shape is None:
        return x.with_shape(None)
    n, f, strides = layer.param("n"), layer.param("features"), layer.param("strides")
    if len(shape) < n + 1:
        return x.with_shape(None)
    fin = layer.param("in")  # nnx.Conv's in_features: the input's channels (last axis)
    if fin is not None and equal(shape[-1], fin) is Truth.FALSE:
        cx.ctx.report(
            report_node,
            "SHP204",
            {"op": "nnx.Conv", "detail": D.LayerInput("Conv", "in_features", fin, "last-axis", shape[-1], shape)},
            cx.origins([x]),
            spec=OpSpec("nn.Linear", None, (shape,), (), (("in_features", fin), ("out_features", fin))),
        )
        return UNKNOWN
    sides: list[Size] = []
    kernel = layer.param("valid")  # VALID or explicit padding: the kernel sizes (no dilation)
    pads = layer.param("pads")  # explicit padding: (low, high) per spatial axis
    same = bool(layer.param("same"))
    for i, size in enumerate(shape[-n - 1 : -1]):
        side = None
        if strides is not None and (same or kernel):
            lo, hi = pads[i] if pads else (0, 0)
            side = _window_side(size, kernel[i] if kernel else None, strides[i], same, lo, hi)
        sides.append(side if side is not None else cx.fresh("h"))
    out = shape[: -n - 1] + tuple(sides) + (f if f is not None else cx.fresh("features"),)
    return x.with_shape(
        out, layout_axes(x.axes, len(out), n, channels_last=True, spatial_kernel=bool(layer.param("spatial_kernel")))
    )


def _wrong_rank(cx: OpContext, report_node: cst.CSTNode, layer: LayerV, x: TensorV, ndim: int) -> bool:
    """A Keras layer's input-rank check (its InputSpec ``ndim``: batch, spatial axes, channels): SHP201 when it fails."""
    shape = x.shape or ()
    if len(shape) == ndim:
        return False
    cx.ctx.report(
        report_node,
        "SHP201",
        {
            "what": layer_name(layer),
            "expected": ndim,
            "subject": "its input (batch, spatial..., channels)",
            "actual": len(shape),
        },
        cx.origins([x]),
        spec=OpSpec("keras.layer", None, (shape,), (), (("cls", layer_name(layer)), ("ndim", ndim))),
    )
    return True


def layer_name(layer: LayerV) -> str:
    return str(layer.param("cls", layer.kind[3:]))


# ------------------------------------------------------------------------------------------------------ haiku
def haiku_call(cx: OpContext, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.Name(...)`` / ``hk.nets.Name(...)``: the rule registered for the name (haiku's modules are built inside
    a transformed function and called at once; their sizes are their constructor's)."""
    parts = qual.split(".")
    if not (len(parts) == 2 or (len(parts) == 3 and parts[1] == "nets")):
        return UNKNOWN
    build = FRAMEWORK_LAYERS["haiku"].get(parts[-1])
    return build(cx, node, parts[-1], args, kwargs) if build is not None else UNKNOWN


def _int_size(v: Value | None) -> Size | None:
    return v.size if isinstance(v, IntV) else None


@framework_layer("haiku", "max_pool", "avg_pool")
def _haiku_pool(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.max_pool(value, window_shape, strides, padding, channel_axis=-1)`` (avg_pool): a window over every axis
    (haiku's ``_infer_shape``: an int is that size on each axis but the first and the channel axis, a shorter
    sequence is padded with 1s in front, a full one taken as it is), each axis ceil(n / s) with SAME, (n - k) // s + 1
    with VALID. Anything not known: the sizes are unknown."""
    x = _arg(args, kwargs, 0, "value")
    if not isinstance(x, TensorV):
        return UNKNOWN
    ws, st = _arg(args, kwargs, 1, "window_shape"), _arg(args, kwargs, 2, "strides")
    pad = _arg(args, kwargs, 3, "padding")
    ch = _arg(args, kwargs, 4, "channel_axis", IntV(Size.const(-1)))
    if x.shape is None or len(args) > 5 or not (isinstance(pad, StrV) and pad.value in ("SAME", "VALID")):
        return x.with_shape(None)
    rank = len(x.shape)
    channel = ch.size.as_int() if isinstance(ch, IntV) else 0 if isinstance(ch, NoneV) else None
    if channel is None:
        return x.with_shape(None)

    def full(v: Value | None) -> list[int] | None:
        if isinstance(v, IntV):
            k = v.size.as_int()
            if k is None or (channel and not 0 <= abs(channel) < rank):
                return None
            c = channel + rank if channel and channel < 0 else channel
            return [1] + [k if d != c else 1 for d in range(1, rank)]
        sizes = _ints(list(v.items)) if isinstance(v, SeqV) else None
        if sizes is None or len(sizes) > rank:
            return None
        return [1] * (rank - len(sizes)) + list(sizes)

    window, strides = full(ws), full(st)
    if window is None or strides is None or any(k < 1 for k in window) or any(s < 1 for s in strides):
        return x.with_shape(None)
    sides: list[Size] = []
    for size, k, s in zip(x.shape, window, strides):
        if k == 1 and s == 1:
            sides.append(size)
            continue
        n = size.as_int()
        if pad.value == "VALID" and n is not None and n < k:
            sides.append(Size.const(0))  # a window larger than the axis: lax.reduce_window gives an empty axis
            continue
        side = _window_side(size, k, s, pad.value == "SAME")
        sides.append(side if side is not None else cx.fresh("h"))
    return x.with_shape(tuple(sides), x.axes)


@framework_layer("haiku", "Linear")
def _haiku_linear(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.Linear(output_size)``: (*, in) -> (*, output_size), the input size read on the first call."""
    return _kl("Dense", node, units=_int_size(_arg(args, kwargs, 0, "output_size")))


@framework_layer("haiku", "MLP")
def _haiku_mlp(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.nets.MLP(output_sizes)``: a chain of ``hk.Linear``, so (*, in) -> (*, output_sizes[-1])."""
    sizes = _arg(args, kwargs, 0, "output_sizes")
    if not isinstance(sizes, SeqV) or not sizes.items:
        return UNKNOWN
    return _kl("Dense", node, units=_int_size(sizes.items[-1]))


@framework_layer("haiku", "Embed")
def _haiku_embed(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.Embed(vocab_size, embed_dim)``: ids (*) -> (*, embed_dim) (the default ARRAY_INDEX lookup); built from
    an ``embedding_matrix`` or another ``lookup_style``, not read."""
    if len(args) > 2 or any(k not in ("vocab_size", "embed_dim", "w_init", "name") for k in kwargs):
        return UNKNOWN
    return _kl("Embedding", node, d=_int_size(_arg(args, kwargs, 1, "embed_dim")))


@framework_layer("haiku", "LayerNorm", "RMSNorm", "BatchNorm", "GroupNorm", "InstanceNorm")
def _haiku_norm(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """Normalisations: the input's shape (their scale and offset are created to fit it)."""
    return LayerV("Elementwise", (("name", "haiku." + name),), node)


@framework_layer("haiku", "dropout")
def _haiku_dropout(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.dropout(rng, rate, x)``: x's shape."""
    x = _arg(args, kwargs, 2, "x")
    return x if isinstance(x, TensorV) else UNKNOWN


@framework_layer("haiku", "get_parameter")
def _haiku_parameter(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.get_parameter(name, shape, dtype=None, init=None)``: an array of that shape."""
    shape = _arg(args, kwargs, 1, "shape")
    if not isinstance(shape, SeqV) or not all(isinstance(v, IntV) for v in shape.items):
        return UNKNOWN
    sizes = tuple(v.size for v in shape.items if isinstance(v, IntV))
    return TensorV(sizes, None, "jax", None, cx.origin(node, "hk.get_parameter(...)"))


@framework_layer("haiku", "Conv1D", "Conv2D", "Conv3D")
def _haiku_conv(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.Conv2D(output_channels, kernel_shape, stride=1, rate=1, padding="SAME", ...)``: channels last (the
    default ``data_format``), batched or not, as flax linen's ``Conv(features, kernel_size, strides, padding,
    kernel_dilation)`` (both run ``lax.conv_general_dilated``); another data format, a padding that is not a string
    and feature groups are not read."""
    n = int(name[4])
    names = ("output_channels", "kernel_shape", "stride", "rate", "padding")
    if len(args) > len(names):
        return UNKNOWN
    bound = dict(zip(names, args))
    bound.update(kwargs)
    fmt = bound.get("data_format")
    if fmt is not None and not (isinstance(fmt, StrV) and fmt.value in ("NWC", "NHWC", "NDHWC", "channels_last")):
        return UNKNOWN
    groups = bound.get("feature_group_count")
    if groups is not None and not (isinstance(groups, IntV) and groups.size.as_int() == 1):
        return UNKNOWN
    pad = bound.get("padding", StrV("SAME"))
    if not isinstance(pad, StrV) or pad.value.upper() not in ("SAME", "VALID"):
        return UNKNOWN

    def per_axis(v: Value | None) -> Value | None:
        if v is None or isinstance(v, IntV):
            return SeqV((v or IntV(Size.const(1)),) * n, "tuple")
        return v if isinstance(v, SeqV) and len(v.items) == n else None

    kernel, stride, rate = (
        per_axis(bound.get("kernel_shape")),
        per_axis(bound.get("stride")),
        per_axis(bound.get("rate")),
    )
    feats = bound.get("output_channels")
    if kernel is None or stride is None or rate is None or "kernel_shape" not in bound or feats is None:
        return UNKNOWN
    return _flax_conv(cx, node, "Conv", [feats, kernel], {"strides": stride, "padding": pad, "kernel_dilation": rate})


@framework_layer("haiku", "Flatten")
def _haiku_flatten(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.Flatten(preserve_dims=1)``: the first ``preserve_dims`` axes kept, the rest flattened into one (an input
    of no more axes than that is returned as it is)."""
    keep = _arg(args, kwargs, 0, "preserve_dims", IntV(Size.const(1)))
    k = keep.size.as_int() if isinstance(keep, IntV) else None
    if k is None or k < 1 or len(args) > 2:
        return UNKNOWN
    return _kl("HaikuFlatten", node, keep=k)


@layer_kind("fw:HaikuFlatten")
def _apply_haiku_flatten(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    keep = layer.param("keep")
    if x.shape is None or not isinstance(keep, int):
        return x.with_shape(None)
    if len(x.shape) <= keep:
        return x
    return x.with_shape(x.shape[:keep] + (product(x.shape[keep:]),))


# functions of jax.nn (and jnp) that keep their input's shape, as links of an hk.Sequential
_JAX_SAME_SHAPE = frozenset(
    f"jax.nn.{n}"
    for n in ("relu", "gelu", "silu", "swish", "sigmoid", "elu", "leaky_relu", "softplus", "tanh", "relu6", "selu")
) | frozenset({"jax.numpy.tanh"})


@framework_layer("haiku", "Sequential")
def _haiku_sequential(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.Sequential([hk.Linear(64), jax.nn.relu, hk.Linear(1)])``: each link applied to what the last gave; a
    link that is neither a layer, a module nor a same-shape jax.nn function makes the rest unknown."""
    items_v = _arg(args, kwargs, 0, "layers")
    if not isinstance(items_v, SeqV):
        return UNKNOWN
    items: list[Value] = []
    for item in items_v.items:
        if isinstance(item, RefV) and item.qualname in _JAX_SAME_SHAPE:
            items.append(LayerV("Elementwise", (("name", item.qualname),), node))
        else:
            items.append(item)
    return LayerV("Sequential", (("layers", tuple(items)),), node)


# haiku's recurrent cores (haiku/_src/recurrent.py): ``core(inputs, prev_state) -> (output, next_state)``
_HAIKU_CORES = ("LSTM", "GRU", "VanillaRNN")


@framework_layer("haiku", *_HAIKU_CORES)
def _haiku_core(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.LSTM(hidden_size)`` / ``hk.GRU(hidden_size)`` / ``hk.VanillaRNN(hidden_size)``: read here;
    ``core.initial_state(batch_size)`` makes the state (``haiku_initial_state``), ``core(x, state)`` one step
    (``apply_haiku_core``), ``hk.dynamic_unroll(core, xs, state)`` a scan of steps."""
    hidden = _arg(args, kwargs, 0, "hidden_size")
    if len(args) > 1 and name != "VanillaRNN" or len(args) > 2:
        return UNKNOWN
    return LayerV("fw:HaikuCore", (("name", name), ("hidden", hidden.size if isinstance(hidden, IntV) else None)), node)


def _haiku_state(name: str, shape: tuple[Size, ...] | None, origin: Any = None) -> Value:
    """A core's state of arrays shaped ``shape`` (unknown: None): ``LSTMState(hidden, cell)`` for an LSTM."""
    arr = TensorV(shape, "float32", "jax", None, origin)
    return SeqV((arr, arr), "tuple", ("hidden", "cell")) if name == "LSTM" else arr


def haiku_initial_state(
    cx: OpContext, node: cst.Call, core: LayerV, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``core.initial_state(batch_size)``: zeros of ``(batch_size, hidden_size)`` (``(hidden_size,)`` for None); an
    LSTM's is ``LSTMState(hidden, cell)``, both of that shape."""
    batch = _arg(args, kwargs, 0, "batch_size")
    name, hidden = str(core.param("name")), core.param("hidden")
    if len(args) + len(kwargs) != 1 or batch is None or hidden is None:
        return UNKNOWN
    if isinstance(batch, NoneV):
        shape: tuple[Size, ...] = (hidden,)
    elif isinstance(batch, IntV):
        shape = (batch.size, hidden)
    else:
        return _haiku_state(name, None)
    return _haiku_state(name, shape, cx.origin(node, "initial_state(...)"))


def _core_failure(
    name: str, hidden: Size, x: tuple[Size, ...], state: tuple[tuple[Size, ...], ...]
) -> tuple[str, Any] | tuple[None, tuple[Size, ...]] | None:
    """One step of a haiku core on an input of shape ``x`` and a state of these shapes, as recurrent.py computes it:
    ``("SHP201" | "SHP204", detail)`` when it surely raises, ``(None, output shape)`` when it surely runs, None when
    that is not known."""
    if name in ("LSTM", "GRU") and len(x) not in (1, 2):
        return "SHP201", len(x)
    if not x:
        return None
    gates = x[:-1] + (hidden,)

    def joined(a: tuple[Size, ...], b: tuple[Size, ...]) -> tuple[str, Any] | tuple[None, tuple[Size, ...]] | None:
        out, fail = broadcast_shapes(a, b)
        if fail is not None:
            axis, sa, sb = fail  # (counted from the right)
            return "SHP204", D.Broadcast(a, b, max(len(a), len(b)) - axis, sa, sb)
        return (None, out) if out is not None else None

    if name == "LSTM":
        h, c = state
        if len(h) != len(x):
            return "SHP204", D.ConcatRanks((x, h))  # jnp.concatenate([inputs, prev_state.hidden], axis=-1)
        for i, (a, b) in enumerate(zip(x[:-1], h[:-1])):
            if equal(a, b) is Truth.FALSE:
                return "SHP204", D.ConcatAxis(i, x, h)
            if equal(a, b) is not Truth.TRUE:
                return None
        return joined(gates, c)  # f * prev_state.cell + ...
    if name == "GRU":
        (s,) = state
        if not s:
            return None
        if equal(s[-1], hidden) is Truth.FALSE:  # jnp.matmul(state, w_h_z): w_h_z is (hidden_size, 2 * hidden_size)
            return "SHP204", D.MatmulInner(s, (hidden, hidden + hidden), s[-1], hidden)
        if equal(s[-1], hidden) is not Truth.TRUE:
            return None
        zr = joined(x[:-1] + (hidden,), s[:-1] + (hidden,))  # zr_x + zr_h (2 * hidden each: the same broadcast)
        if zr is None or zr[0] is not None:
            return zr
        z = zr[1][:-1] + (hidden,)
        rs = joined(z, s)  # r * state
        if rs is None or rs[0] is not None:
            return rs
        new = joined(gates, rs[1][:-1] + (hidden,))  # a_x + a_h
        if new is None or new[0] is not None:
            return new
        return joined(rs[1], new[1])  # (1 - z) * state + z * a
    (p,) = state
    if not p:
        return None
    return joined(gates, p[:-1] + (hidden,))  # input_to_hidden(inputs) + hidden_to_hidden(prev_state)


def apply_haiku_core(
    cx: OpContext, node: cst.Call, report_node: cst.CSTNode, core: LayerV, args: list[Value], kwargs: dict[str, Value]
) -> Value:
    """``core(inputs, prev_state)`` of ``hk.LSTM`` / ``hk.GRU`` / ``hk.VanillaRNN``: ``(output, next_state)``, the
    output ``inputs.shape[:-1] + (hidden_size,)`` broadcast with the state as recurrent.py computes it. An LSTM or GRU
    input of neither rank 1 nor 2 (haiku: "LSTM input must be rank-1 or rank-2.") is SHP201; an input and state that
    cannot meet (an LSTM's hidden state of another batch, a GRU state not ``hidden_size`` wide, shapes that do not
    broadcast) SHP204, replayed on haiku itself."""
    name, hidden = str(core.param("name")), core.param("hidden")
    x = args[0] if args else kwargs.get("inputs")
    state = args[1] if len(args) > 1 else kwargs.get("prev_state", kwargs.get("state"))
    unknown = SeqV((TensorV(None, None, "jax"), _haiku_state(name, None)), "tuple")
    if len(args) + len(kwargs) != 2 or not isinstance(x, TensorV) or x.shape is None or x.alts or hidden is None:
        return unknown
    parts = list(state.items) if name == "LSTM" and isinstance(state, SeqV) and len(state.items) == 2 else [state]
    if len(parts) != (2 if name == "LSTM" else 1):
        return unknown
    shapes: list[tuple[Size, ...]] = []
    for t in parts:
        if not isinstance(t, TensorV) or t.shape is None or t.alts:
            return unknown
        shapes.append(t.shape)
    found = _core_failure(name, hidden, x.shape, tuple(shapes))
    if found is None:
        return unknown
    code, what = found
    if code is not None:
        spec = OpSpec("haiku.core", None, (x.shape, *shapes), extra=(("core", name), ("hidden", hidden)))
        fields: dict[str, Any] = (
            {"what": f"hk.{name}", "expected": "1 or 2", "subject": "its input", "actual": what}
            if code == "SHP201"
            else {"op": f"hk.{name}", "detail": what}
        )
        operands = [x, *parts[: 1 if isinstance(what, (D.ConcatRanks, D.ConcatAxis)) else None]]
        cx.ctx.report(report_node, code, fields, cx.origins(operands), spec=spec)
        return unknown
    out = TensorV(what, x.dtype, "jax", None, cx.origin(node, f"the {name} core"))
    return SeqV((out, SeqV((out, out), "tuple", ("hidden", "cell")) if name == "LSTM" else out), "tuple")


@framework_layer("haiku", "MultiHeadAttention")
def _haiku_mha(cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``hk.MultiHeadAttention(num_heads, key_size, w_init_scale=None, *, value_size=None, model_size=None, ...)``:
    its output's last axis is ``model_size``, by default ``key_size * num_heads`` (haiku/_src/attention.py)."""
    if len(args) > 3:
        return UNKNOWN
    heads, key = _int_size(_arg(args, kwargs, 0, "num_heads")), _int_size(_arg(args, kwargs, 1, "key_size"))
    model, value = kwargs.get("model_size"), kwargs.get("value_size")
    size: Size | None
    if model is not None and not isinstance(model, NoneV):
        size = _int_size(model)
    else:
        size = product((heads, key)) if heads is not None and key is not None else None
    v_size = _int_size(value) if value is not None and not isinstance(value, NoneV) else key
    return _kl("HaikuMHA", node, model=size, heads=heads, key=key, value=v_size)


@layer_kind("fw:HaikuMHA")
def _apply_haiku_mha(
    cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
) -> Value:
    """``mha(query, key, value, mask=None)``: (..., T', D_q) -> (..., T', model_size)."""
    if x.shape is None or len(x.shape) < 2:
        return x.with_shape(None)
    model = layer.param("model")
    return TensorV(x.shape[:-1] + (model if model is not None else cx.fresh("model_size"),), None, x.framework)


# ------------------------------------------------------------------------------------------------------ timm
# the helpers of timm's layers (``timm.layers``, formerly ``timm.models.layers``; also reached through the modules
# that re-export them) that model code imports: by last name
_TIMM_HELPERS = frozenset({"DropPath", "trunc_normal_", "to_1tuple", "to_2tuple", "to_3tuple", "to_4tuple", "Mlp"})


def timm_call(cx: OpContext, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``DropPath(p)`` (the input's shape), ``trunc_normal_(t, ...)`` (t, filled in place), ``to_2tuple(x)`` (x
    repeated, or a sequence as a tuple) and ``Mlp(in_features, hidden_features=None, out_features=None)`` (two
    Linear layers: in -> hidden -> out, each defaulting to in_features) from timm's layers; anything else unknown."""
    parts = qual.split(".")
    name = parts[-1]
    if name not in _TIMM_HELPERS or not ({"layers", "models"} & set(parts[1:-1])):
        return UNKNOWN
    if name == "DropPath":
        return LayerV("Elementwise", (("name", "DropPath"),), node)
    if name == "trunc_normal_":
        t = _arg(args, kwargs, 0, "tensor")
        return t if isinstance(t, TensorV) else UNKNOWN
    if name.startswith("to_"):
        n = int(name[3])
        x = _arg(args, kwargs, 0, "x")
        if len(args) != 1 or kwargs or x is None:
            return UNKNOWN
        if isinstance(x, (IntV, FloatV, BoolV, NoneV)):
            return SeqV((x,) * n, "tuple")
        return SeqV(tuple(x.items), "tuple") if isinstance(x, SeqV) else UNKNOWN
    return _timm_mlp(cx, node, args, kwargs)


def _timm_mlp(cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value]) -> Value:
    names = ("in_features", "hidden_features", "out_features", "act_layer", "norm_layer", "bias", "drop", "use_conv")
    if len(args) > len(names) or set(kwargs) - set(names) - {"device", "dtype"}:
        return UNKNOWN
    bound: dict[str, Value] = dict(zip(names, args))
    bound.update(kwargs)
    use_conv, norm = bound.get("use_conv"), bound.get("norm_layer")
    if use_conv is not None and not (isinstance(use_conv, BoolV) and use_conv.value is False):
        return UNKNOWN
    if norm is not None and not isinstance(norm, NoneV):
        return UNKNOWN  # (a norm of the hidden features: its sizes are the hidden ones, not modelled here)
    fin = bound.get("in_features")
    if not isinstance(fin, IntV):
        return UNKNOWN

    def size(key: str) -> Value | None:
        v = bound.get(key)  # (``hidden_features or in_features``: None or 0 gives in_features)
        if v is None or isinstance(v, NoneV) or (isinstance(v, IntV) and v.size.as_int() == 0):
            return fin
        return v if isinstance(v, IntV) else None

    hidden, fout = size("hidden_features"), size("out_features")
    if hidden is None or fout is None:
        return UNKNOWN
    first = layers.layer(cx, node, "Linear", [fin, hidden], {})
    second = layers.layer(cx, node, "Linear", [hidden, fout], {})
    if not isinstance(first, LayerV) or not isinstance(second, LayerV):
        return UNKNOWN
    act = LayerV("Elementwise", (("name", "act_layer"),), node)
    return LayerV("Sequential", (("layers", (first, act, second)),), node)
