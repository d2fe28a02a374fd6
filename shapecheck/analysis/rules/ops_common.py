"""What every framework-operation rule shares: dtype names, argument readers, broadcasting, and the base class."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

import libcst as cst

from ...sizes import Size, Truth, equal, greater_equal
from ..interpret.values import (
    UNKNOWN,
    DtypeV,
    IntV,
    RefV,
    SeqV,
    StrV,
    TensorV,
    Value,
)

if TYPE_CHECKING:
    from .registry import OpContext

DTYPE_NAMES = {
    "float16": "float16",
    "half": "float16",
    "bfloat16": "bfloat16",
    "float32": "float32",
    "float": "float32",
    "float64": "float64",
    "double": "float64",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "long": "int64",
    "int": "int32",
    "uint8": "uint8",
    "bool": "bool",
    "bool_": "bool",
    "complex64": "complex64",
    "complex128": "complex128",
    "cfloat": "complex64",
    "cdouble": "complex128",
    "float_": "float64",
    "single": "float32",
}
# legacy tensor types: ``x.type(torch.HalfTensor)`` / ``x.type("torch.cuda.HalfTensor")``
_TENSOR_TYPES = {
    "HalfTensor": "float16",
    "BFloat16Tensor": "bfloat16",
    "FloatTensor": "float32",
    "DoubleTensor": "float64",
    "LongTensor": "int64",
    "IntTensor": "int32",
    "BoolTensor": "bool",
}


def _tensor_type_dtype(target: Value) -> str | None:
    name = target.qualname if isinstance(target, RefV) else (target.value if isinstance(target, StrV) else None)
    if name and name.startswith("torch.") and name.rsplit(".", 1)[-1] in _TENSOR_TYPES:
        return _TENSOR_TYPES[name.rsplit(".", 1)[-1]]
    return None


_FRAMEWORK_PREFIX = {
    "torch": "torch",
    "numpy": "numpy",
    "jax": "jax",
    "jaxlib": "jax",
    # issue 15: their calls go to frameworks.py (ops.call), never to the torch rules
    "tensorflow": "tensorflow",
    "keras": "tensorflow",
    "tf_keras": "tensorflow",
    "paddle": "paddle",
    "flax": "jax",
    "jmp": "jax",
    "haiku": "jax",
    "timm": "torch",
}

# same-shape methods whose result keeps the input's memory layout (torch's elementwise kernels follow the input's
# strides; ``clone`` / ``float`` keep them under ``preserve_format``); the others of SAME_SHAPE forget it
LAYOUT_KEEPING = frozenset(
    {"clone", "detach", "cpu", "cuda", "abs", "absolute", "exp", "log", "sqrt", "rsqrt", "sigmoid", "tanh", "relu"}
    | {"gelu", "silu", "neg", "float", "half", "double", "bfloat16", "sin", "cos", "square", "reciprocal"}
)


def permuted_layout(t: "TensorV", order: Sequence[int], out: "TensorV") -> "TensorV":
    """``out``, the axes of ``t`` in this ``order`` (transpose, permute, ``.T``), with ``t``'s strides permuted when
    they are known: a view of the same memory."""
    if t.strides is None or t.framework != "torch" or len(order) != len(t.strides) or out.shape is None:
        return out
    from dataclasses import replace

    return replace(out, strides=tuple(t.strides[i] for i in order))


# methods / functions that keep the shape of their (first) tensor argument
SAME_SHAPE = {
    "contiguous",
    "clone",
    "detach",
    "cpu",
    "cuda",
    "abs",
    "absolute",
    "fabs",
    "exp",
    "log",
    "log1p",
    "expm1",
    "sqrt",
    "rsqrt",
    "sigmoid",
    "tanh",
    "relu",
    "gelu",
    "silu",
    "neg",
    "negative",
    "sin",
    "cos",
    # the other elementwise math of one tensor (torch and numpy names alike)
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "acosh",
    "atanh",
    "arcsin",
    "arccos",
    "arctan",
    "arcsinh",
    "arccosh",
    "arctanh",
    "exp2",
    "log2",
    "log10",
    "trunc",
    "frac",
    "erfc",
    "erfinv",
    "square",
    "reciprocal",
    "sign",
    "floor",
    "ceil",
    "round",
    "clamp",
    "clip",
    "clamp_min",
    "clamp_max",
    "masked_fill",
    "masked_fill_",
    "requires_grad_",
    "pin_memory",
    "numpy",
    "relu_",
    "sigmoid_",
    "zero_",
    "fill_",
    "normal_",
    "uniform_",
    "bernoulli_",  # (stochastic depth's keep mask: ``x.new_empty(b, 1, 1, 1).bernoulli_(keep_prob)``)
    "exponential_",
    "copy_",
    # numpy / jax arrays' x.copy() and np.copy(x) (a torch tensor has no copy method)
    "copy",
    "nan_to_num",
    "erf",
    "softplus",
    "leaky_relu",
    "elu",
    "mish",
    "hardswish",
    "dropout",
    "dropout1d",
    "dropout2d",
    "layer_norm_like",
    "normalize",
    "softmax",
    "log_softmax",
    "cumsum",
    "cumprod",
    "flip",
    "roll",
    "tril",
    "triu",
    "tril_",
    "triu_",
    "detach_",
    "logit",
    "float",
    "half",
    "double",
    "bfloat16",
    "long",
    "int",
    "bool",
    "to",
    "type",
    "type_as",
    "astype",
    "view_as_real_like",
    "asarray",
    "array",
    "stop_gradient",
    "gelu_new",
    "sign_",
    "isnan",
    "isinf",
    "isfinite",
    "logical_not",
    "bitwise_not",
    "zeros_like",
    "ones_like",
    "empty_like",
    "rand_like",
    "randn_like",
    "full_like",
    "real",
    "imag",
    "conj",
    "angle",
    "group_norm_like",
    "instance_norm_like",
}
_CASTS = {
    "float": "float32",
    "half": "float16",
    "double": "float64",
    "bfloat16": "bfloat16",
    "long": "int64",
    "int": "int32",
    "bool": "bool",
}
REDUCTIONS = {
    "sum",
    "mean",
    "prod",
    "amax",
    "amin",
    "max",
    "min",
    "std",
    "var",
    "norm",
    "logsumexp",
    "all",
    "any",
    "argmax",
    "argmin",
    "nansum",
    "nanmean",
    "median",
    "count_nonzero",
}
LOSSES = {
    "mse_loss",
    "l1_loss",
    "smooth_l1_loss",
    "huber_loss",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "soft_margin_loss",
    "kl_div",
    "poisson_nll_loss",
}
BROADCASTING_LOSSES = {"kl_div", "poisson_nll_loss", "soft_margin_loss"}  # no warning, no error on another target size
CONSTRUCTORS = {"zeros", "ones", "empty", "rand", "randn", "full"}
# the constructors modelled, by qualified name (another module's zeros/rand may mean anything)
SIZE_CONSTRUCTORS = {
    f"{m}.{n}" for m in ("torch", "numpy", "jax.numpy") for n in ("zeros", "ones", "empty", "full")
} | {"torch.rand", "torch.randn", "numpy.random.rand", "numpy.random.randn"}
VARARG_SIZES = {"numpy.random.rand", "numpy.random.randn"}  # sizes as separate arguments only
# random samplers whose shape is their ``size`` argument: qualified name -> its position
RANDOM_SIZED = {
    **{
        f"numpy.random.{n}": 0
        for n in (
            "random",
            "random_sample",
            "sample",
            "ranf",
            "standard_normal",
            "standard_cauchy",
            "standard_exponential",
        )
    },
    **{
        f"numpy.random.{n}": 2
        # integers: numpy.random.Generator's randint (rng.integers(0, 10, size=(2, 3)))
        for n in ("normal", "uniform", "randint", "integers", "lognormal", "logistic", "gumbel", "laplace", "binomial")
    },
    **{f"numpy.random.{n}": 1 for n in ("exponential", "poisson", "rayleigh", "standard_t", "chisquare", "geometric")},
    "torch.randint": -1,
    # jax.random.normal(key, shape=(), dtype): the shape follows the key (a scalar when left out)
    **{
        f"jax.random.{n}": 1
        for n in (
            "normal",
            "uniform",
            "randint",
            "gumbel",
            "laplace",
            "logistic",
            "exponential",
            "rademacher",
            "cauchy",
        )
    },
    # jax.random.bernoulli(key, p=0.5, shape=None): the shape after the probability (None: p's shape)
    "jax.random.bernoulli": 2,
}
ELEMENTWISE_FUNCS = {
    "add",
    "sub",
    "subtract",
    "mul",
    "multiply",
    "div",
    "divide",
    "true_divide",
    "maximum",
    "minimum",
    "where",
    "pow",
    "power",
    "atan2",
    "hypot",
    "fmod",
    "remainder",
    "lerp",
    # boolean results (``jnp.logical_and(causal, pad_mask[:, None, :])``): the operands broadcast all the same
    "logical_and",
    "logical_or",
    "logical_xor",
}


def _framework(qual: str) -> str | None:
    return _FRAMEWORK_PREFIX.get(qual.split(".", 1)[0])


# the float constants of math, numpy and torch (``x * pi`` after ``from math import pi`` keeps x's shape)
_FLOAT_CONSTANTS = {
    f"{mod}.{name}": value
    for mod in ("math", "numpy", "torch", "jax.numpy")
    for name, value in (("pi", 3.141592653589793), ("e", 2.718281828459045), ("inf", float("inf")))
} | {"math.tau": 6.283185307179586, "math.nan": float("nan"), "numpy.nan": float("nan"), "torch.nan": float("nan")}
_FLOAT_CONSTANTS["jax.numpy.nan"] = float("nan")


def constant(qual: str) -> Value | None:
    fw = _framework(qual)
    last = qual.rsplit(".", 1)[-1]
    if fw is not None and last in DTYPE_NAMES and qual.count(".") <= 2 and not qual.startswith("torch.nn"):
        return DtypeV(DTYPE_NAMES[last])
    if qual in _FLOAT_CONSTANTS:
        from ..interpret.values import FloatV

        return FloatV(_FLOAT_CONSTANTS[qual])
    if qual in ("numpy.newaxis", "jax.numpy.newaxis"):  # None: a new axis where it indexes
        from ..interpret.values import NoneV

        return NoneV()
    return None


def dim_out_of_range(
    cx: "OpContext", node: cst.CSTNode, op: str, t: TensorV, dims: Sequence[int], extra: int = 0
) -> bool:
    """A dimension (torch) or axis (numpy, JAX) argument surely outside the array's axes (``x.sum(dim=2)``,
    ``np.mean(a, axis=2)`` of a 2-d one; ``extra`` = 1 where it may also name the new last axis: ``unsqueeze``,
    ``expand_dims``, ``stack``): torch raises IndexError, numpy AxisError and JAX ValueError for it, at every size.
    Reported (SHP204) once; True when so. A 0-d torch tensor takes 0 and -1, as torch wraps it; numpy and JAX treat
    0-d arrays differently from one function to the next, so those are left alone."""
    fw = t.framework
    if fw not in ("torch", "numpy", "jax") or t.shape is None or (fw != "torch" and not t.shape):
        return False
    r = max(len(t.shape) + extra, 1)
    bad = next((d for d in dims if not -r <= d < r), None)
    if bad is None:
        return False
    from ...diagnostics import details as D
    from ..interpret.context import OpSpec
    from .registry import origin_notes

    cx.ctx.report(
        node,
        "SHP204",
        {"op": op, "detail": D.DimRange(bad, len(t.shape), -r, r - 1, "dimension" if fw == "torch" else "axis")},
        origin_notes([t]),
        spec=OpSpec("dim.range", None, (t.shape,), (), (("dim", bad), ("extra", extra), ("framework", fw))),
    )
    return True


def _norm_dim(d: int, rank: int) -> int | None:
    if -rank <= d < rank:
        return d % rank
    return None


def _ints(values: Sequence[Value]) -> list[int] | None:
    out = []
    for v in values:
        if not isinstance(v, IntV) or v.size.as_int() is None:
            return None
        out.append(v.size.as_int())
    return out  # type: ignore[return-value]


def _shape_args(args: Sequence[Value]) -> list[Value] | None:
    """``f(2, 3)`` or ``f((2, 3))`` / ``f([2, 3])`` / ``f(x.shape)`` -> the size values."""
    if len(args) == 1 and isinstance(args[0], SeqV):
        return list(args[0].items)
    if len(args) == 1 and isinstance(args[0], IntV) and args[0].assumed:
        return None  # ``torch.zeros(shape)`` with a constructor parameter that may be a tuple
    if args and all(isinstance(a, (IntV,)) or a is UNKNOWN for a in args):  # none: the sizes are keywords, or absent
        return list(args)
    return None


def _sizes(values: Sequence[Value], fresh: Callable[[str], Size]) -> tuple[Size, ...] | None:
    out = []
    for v in values:
        if isinstance(v, IntV):
            out.append(v.size)
        elif v is UNKNOWN:
            out.append(fresh("n"))
        else:
            return None
    return tuple(out)


def surely_differ(a: tuple[Size, ...], b: tuple[Size, ...]) -> bool:
    """Two shapes that differ for every value of their sizes: other ranks, or an axis surely of another size."""
    return len(a) != len(b) or any(equal(x, y) is Truth.FALSE for x, y in zip(a, b))


def broadcast_shapes(
    a: tuple[Size, ...], b: tuple[Size, ...], fresh: Callable[[], Size] | None = None
) -> tuple[tuple[Size, ...] | None, tuple[int, Size, Size] | None]:
    """(broadcast shape or None if unknown, the definitely failing (axis from the right, a, b) or None). ``fresh``:
    an axis whose result is not known (two sizes that may each be 1) gets a new size from it instead, the rank and
    the other axes kept."""
    out: list[Size] = []
    unknown = False
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else None
        y = b[-i] if i <= len(b) else None
        if x is None:
            out.append(y)  # type: ignore[arg-type]
            continue
        if y is None:
            out.append(x)
            continue
        if equal(x, y) is Truth.TRUE:
            out.append(x)
            continue
        if equal(x, 1) is Truth.TRUE:
            out.append(y)
            continue
        if equal(y, 1) is Truth.TRUE:
            out.append(x)
            continue
        if equal(x, y) is Truth.FALSE and (
            (greater_equal(x, 2) is Truth.TRUE and greater_equal(y, 2) is Truth.TRUE)
            or (x.as_int() == 0 and greater_equal(y, 2) is Truth.TRUE)
            or (y.as_int() == 0 and greater_equal(x, 2) is Truth.TRUE)
        ):
            return None, (i, x, y)  # two sizes neither 1 (an empty axis of 0 broadcasts only against 1 or 0)
        if greater_equal(x, 2) is Truth.TRUE:
            out.append(x)  # the other is 1 or the same size when the operation runs: the result has this one
            continue
        if greater_equal(y, 2) is Truth.TRUE:
            out.append(y)
            continue
        if fresh is not None:
            out.append(fresh())
            continue
        unknown = True
        out.append(x)
    return (None if unknown else tuple(reversed(out))), None


def _dtype_kw(kwargs: dict[str, Value]) -> str | None:
    dt = kwargs.get("dtype")
    if isinstance(dt, DtypeV):
        return dt.name
    if isinstance(dt, StrV):
        return DTYPE_NAMES.get(dt.value)
    return None


def _dtype_arg(v: Value) -> str | None:
    if isinstance(v, DtypeV):
        return v.name
    if isinstance(v, StrV):
        return DTYPE_NAMES.get(v.value)
    return None


def _fill_dtype(v: Value | None) -> str | None:
    """numpy's ``full`` without a dtype takes the fill value's."""
    from ..interpret.values import BoolV, FloatV

    if isinstance(v, BoolV):
        return "bool"
    if isinstance(v, IntV):
        return "int64"
    if isinstance(v, FloatV):
        return "float64"
    return None


def _is_none_or_ellipsis(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Ellipsis or (type(node) is cst.Name and node.value == "None")


def _op_name(op: cst.CSTNode) -> str:
    return {
        cst.Add: "+",
        cst.Subtract: "-",
        cst.Multiply: "*",
        cst.Divide: "/",
        cst.FloorDivide: "//",
        cst.Power: "**",
        cst.Modulo: "%",
        cst.AddAssign: "+=",
        cst.SubtractAssign: "-=",
        cst.MultiplyAssign: "*=",
        cst.DivideAssign: "/=",
        cst.LessThan: "<",
        cst.LessThanEqual: "<=",
        cst.GreaterThan: ">",
        cst.GreaterThanEqual: ">=",
        cst.Equal: "==",
        cst.NotEqual: "!=",
        cst.BitAnd: "&",
        cst.BitOr: "|",
        cst.BitXor: "^",
        cst.BitAndAssign: "&=",
        cst.BitOrAssign: "|=",
        cst.BitXorAssign: "^=",
    }.get(type(op), "elementwise operation")


# SHP403: the output tensors of recurrent layers built without batch_first=True and called on a 3-d tensor, whose
# axis 1 is the batch: id -> (the output, the layer call, the layer's name, the context that analysed the call).
# Holding each output keeps its id from being reused.
TIME_MAJOR: dict[int, tuple[object, cst.CSTNode, str, object]] = {}


def time_major_output(out: object, node: cst.CSTNode, layer: str, ctx: object) -> None:
    TIME_MAJOR[id(out)] = (out, node, layer, ctx)


def time_major_use(ctx: object, t: object, use: str) -> None:
    """SHP403 at the layer call that made ``t``: the code uses ``t``'s axis 1 as time (reduces over it, or picks its
    last or first step) where the layer put the batch. Only the very value the layer returned, in the context that
    analysed the call."""
    rec = TIME_MAJOR.get(id(t))
    if rec is None or rec[0] is not t or rec[3] is not ctx:
        return
    ctx.report(rec[1], "SHP403", {"layer": rec[2], "use": use})  # type: ignore[attr-defined]


# ---- layout names (SHP401) ------------------------------------------------------------------------------------------
# A layer whose documented layout fixes what its output's axes are (``nn.Conv2d``: (N, C, H, W)) names them with the
# layout's letters behind LAYOUT, so they never meet an annotation's or a pattern's names: a convolution's channels
# and a token map's positions are told apart, whatever the sizes (``misaligned``). The spatial letters are positions,
# not identities (a convolution does not know which of two axes is the height): two spatial axes swapped between two
# operands is not a misalignment (test-time augmentation transposes an image and back).
LAYOUT = "@"
_SPATIAL = {1: ("L",), 2: ("H", "W"), 3: ("D", "H", "W")}
_SPATIAL_NAMES = frozenset(LAYOUT + s for s in ("L", "D", "H", "W"))


def layout_axes(
    axes: tuple[str | None, ...] | None, rank: int, n: int, channels_last: bool = False, spatial_kernel: bool = True
) -> tuple[str | None, ...] | None:
    """The axis names of an n-d convolution's output of ``rank`` axes ((N, C, *spatial) or (C, *spatial), the
    channels last with ``channels_last`` and any number of batch axes in front): a batch or spatial axis keeps its
    input's name (the same axis, resized), else the layout's letter (the batch ``N``; more than one batch axis is left
    unnamed), the channels are the layout's ``C``. A pointwise convolution (``spatial_kernel`` False: every kernel
    size 1, or a size not known) is a linear map of whatever axis it is handed (a 1x1 ``Conv1d`` mixing the tokens
    of an MLP-Mixer): it names nothing its input did not (its channels ``C`` only when they were)."""
    spatial = _SPATIAL.get(n)
    lead = rank - n - 1
    if spatial is None or lead < 0 or (lead > 1 and not channels_last):
        return None
    given = axes if axes is not None and len(axes) == rank else (None,) * rank
    ch = rank - 1 if channels_last else lead
    if not spatial_kernel:
        out = tuple(given[i] if i != ch else (LAYOUT + "C" if given[ch] == LAYOUT + "C" else None) for i in range(rank))
        return out if any(a is not None for a in out) else None
    batch = tuple(given[i] if given[i] is not None else (LAYOUT + "N" if lead == 1 else None) for i in range(lead))
    sp_at = range(lead, lead + n) if channels_last else range(lead + 1, rank)
    sp = tuple(given[i] if given[i] is not None else LAYOUT + s for i, s in zip(sp_at, spatial))
    c = (LAYOUT + "C",)
    return batch + sp + c if channels_last else batch + c + sp


def merged_name(names: Sequence[str | None]) -> str | None:
    """The name of axes merged into one (``x.flatten(2)`` of ``N C H W``: ``(H W)``), when each is named."""
    if len(names) == 1:
        return names[0]
    if not names or any(a is None for a in names):
        return None
    return "(" + " ".join(a.strip("()") for a in names if a is not None) + ")"


def spatial_name(name: str | None) -> bool:
    """A layout's spatial axis, or several merged."""
    return name is not None and all(part in _SPATIAL_NAMES for part in name.strip("()").split())


def shown_axes(axes: Sequence[str | None]) -> str:
    """Axis names as a message shows them: ``?`` for an unnamed axis, a layout's letters without their marker."""
    return " ".join(a.replace(LAYOUT, "") if a is not None else "?" for a in axes)
