"""torch / numpy / jax operations: the shape rules the stubs in ``stubs/`` cannot express as plain signatures.

Each rule returns the output value, reports a definite failure, or returns an unknown shape. A rule never guesses:
an argument it cannot read makes the output unknown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import libcst as cst

from ..sizes import Size, Truth, divisible, equal, greater_equal, product
from .context import OpSpec
from .shapes_bridge import Origin, shape_text
from .values import (
    UNKNOWN, BoolV, DtypeV, FloatV, FuncV, IntV, LayerV, NoneV, ObjV, RefV, SeqV, StrV, TensorV, Value,
)

if TYPE_CHECKING:
    from .interpreter import Interpreter
    from .module import ModuleAnalysis

DTYPE_NAMES = {
    "float16": "float16", "half": "float16", "bfloat16": "bfloat16", "float32": "float32", "float": "float32",
    "float64": "float64", "double": "float64", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "long": "int64", "int": "int32", "uint8": "uint8", "bool": "bool", "bool_": "bool", "complex64": "complex64",
    "complex128": "complex128", "float_": "float64", "single": "float32",
}
# legacy tensor types: ``x.type(torch.HalfTensor)`` / ``x.type("torch.cuda.HalfTensor")``
_TENSOR_TYPES = {"HalfTensor": "float16", "BFloat16Tensor": "bfloat16", "FloatTensor": "float32", "DoubleTensor": "float64",
                 "LongTensor": "int64", "IntTensor": "int32", "BoolTensor": "bool"}


def _tensor_type_dtype(target: Value) -> str | None:
    name = target.qualname if isinstance(target, RefV) else (target.value if isinstance(target, StrV) else None)
    if name and name.startswith("torch.") and name.rsplit(".", 1)[-1] in _TENSOR_TYPES:
        return _TENSOR_TYPES[name.rsplit(".", 1)[-1]]
    return None

_FRAMEWORK_PREFIX = {"torch": "torch", "numpy": "numpy", "jax": "jax", "jaxlib": "jax"}

# methods / functions that keep the shape of their (first) tensor argument
SAME_SHAPE = {
    "contiguous", "clone", "detach", "cpu", "cuda", "abs", "exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "sigmoid",
    "tanh", "relu", "gelu", "silu", "neg", "negative", "sin", "cos", "square", "reciprocal", "sign", "floor", "ceil",
    "round", "clamp", "clip", "clamp_min", "clamp_max", "masked_fill", "requires_grad_", "pin_memory", "numpy",
    "relu_", "sigmoid_", "zero_", "fill_", "normal_", "uniform_", "copy_", "nan_to_num", "erf", "softplus",
    "leaky_relu", "elu", "mish", "hardswish", "dropout", "dropout1d", "dropout2d", "layer_norm_like", "normalize",
    "softmax", "log_softmax", "cumsum", "cumprod", "flip", "roll", "tril", "triu", "detach_", "sigmoid", "logit",
    "float", "half", "double", "bfloat16", "long", "int", "bool", "to", "type", "type_as", "astype", "view_as_real_like",
    "asarray", "array", "stop_gradient", "gelu_new", "sign_", "isnan", "isinf", "isfinite", "logical_not", "bitwise_not",
    "zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like", "real", "imag", "conj", "angle",
    "group_norm_like", "instance_norm_like",
}
_CASTS = {"float": "float32", "half": "float16", "double": "float64", "bfloat16": "bfloat16", "long": "int64", "int": "int32", "bool": "bool"}
REDUCTIONS = {"sum", "mean", "prod", "amax", "amin", "max", "min", "std", "var", "norm", "logsumexp", "all", "any",
              "argmax", "argmin", "nansum", "nanmean", "median", "count_nonzero"}
LOSSES = {"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
          "soft_margin_loss", "kl_div", "poisson_nll_loss"}
CONSTRUCTORS = {"zeros", "ones", "empty", "rand", "randn", "full"}
ELEMENTWISE_FUNCS = {"add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "maximum", "minimum",
                     "where", "pow", "power", "atan2", "hypot", "fmod", "remainder", "lerp"}


def _framework(qual: str) -> str | None:
    return _FRAMEWORK_PREFIX.get(qual.split(".", 1)[0])


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
    if all(isinstance(a, (IntV,)) or a is UNKNOWN for a in args):
        return list(args)
    return None


def _sizes(values: Sequence[Value], fresh: Any) -> tuple[Size, ...] | None:
    out = []
    for v in values:
        if isinstance(v, IntV):
            out.append(v.size)
        elif v is UNKNOWN:
            out.append(fresh("n"))
        else:
            return None
    return tuple(out)


def broadcast_shapes(a: tuple[Size, ...], b: tuple[Size, ...]) -> tuple[tuple[Size, ...] | None, tuple[int, Size, Size] | None]:
    """(broadcast shape or None if unknown, the definitely failing (axis from the right, a, b) or None)."""
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
        if equal(x, y) is Truth.FALSE and greater_equal(x, 2) is Truth.TRUE and greater_equal(y, 2) is Truth.TRUE:
            return None, (i, x, y)
        unknown = True
        out.append(x)
    return (None if unknown else tuple(reversed(out))), None


class FrameworkOps:
    def __init__(self, module: "ModuleAnalysis") -> None:
        self.m = module
        self.ctx = module.ctx

    def fresh(self, name: str) -> Size:
        return self.ctx.fresh(name)

    # ------------------------------------------------------------------ names
    def constant(self, qual: str) -> Value | None:
        fw = _framework(qual)
        last = qual.rsplit(".", 1)[-1]
        if fw is not None and last in DTYPE_NAMES and qual.count(".") <= 2 and not qual.startswith("torch.nn"):
            return DtypeV(DTYPE_NAMES[last])
        return None

    # ------------------------------------------------------------------ attributes and indexing
    def tensor_attribute(self, interp: "Interpreter", node: cst.Attribute, t: TensorV, attr: str) -> Value:
        if attr == "shape":
            if t.shape is None:
                return UNKNOWN
            return SeqV(tuple(IntV(s) for s in t.shape), "shape")
        if attr == "ndim":
            return IntV(Size.const(len(t.shape))) if t.shape is not None else UNKNOWN
        if attr == "dtype":
            return DtypeV(t.dtype) if t.dtype else UNKNOWN
        if attr in ("T", "mT", "mH", "H"):
            if t.shape is None:
                return t
            if attr in ("T",):
                return t.with_shape(tuple(reversed(t.shape)), tuple(reversed(t.axes)) if t.axes else None)
            if len(t.shape) < 2:
                return t.with_shape(None)
            s = t.shape[:-2] + (t.shape[-1], t.shape[-2])
            ax = (t.axes[:-2] + (t.axes[-1], t.axes[-2])) if t.axes else None
            return t.with_shape(s, ax)
        if attr in ("real", "imag", "data", "grad"):
            return t
        if attr == "device":
            return UNKNOWN
        return UNKNOWN

    def index_tensor(self, interp: "Interpreter", node: cst.Subscript, t: TensorV) -> Value:
        if t.shape is None:
            for el in node.slice:
                if isinstance(el.slice, cst.Index):
                    interp.eval(el.slice.value)
            return t.with_shape(None)
        out: list[Size] = []
        axes: list[str | None] = []
        pos = 0
        elems = list(node.slice)
        n_consumed = sum(1 for e in elems if not (isinstance(e.slice, cst.Index) and _is_none_or_ellipsis(e.slice.value)))
        ellipsis_seen = False
        for el in elems:
            sl = el.slice
            if isinstance(sl, cst.Slice):
                if pos >= len(t.shape):
                    return t.with_shape(None)
                if sl.lower is None and sl.upper is None and (sl.step is None):
                    out.append(t.shape[pos])
                    axes.append(t.axes[pos] if t.axes else None)
                else:
                    size = self._slice_size(interp, sl, t.shape[pos])
                    if size is None:
                        return t.with_shape(None)
                    out.append(size)
                    axes.append(None)
                pos += 1
                continue
            assert isinstance(sl, cst.Index)
            value_node = sl.value
            if isinstance(value_node, cst.Name) and value_node.value == "None":
                out.append(Size.const(1))
                axes.append(None)
                continue
            if isinstance(value_node, cst.Ellipsis):
                if ellipsis_seen:
                    return t.with_shape(None)
                ellipsis_seen = True
                n_rest = n_consumed - (pos)
                skip = len(t.shape) - pos - (n_consumed - pos)
                if skip < 0:
                    return t.with_shape(None)
                for _ in range(skip):
                    out.append(t.shape[pos])
                    axes.append(t.axes[pos] if t.axes else None)
                    pos += 1
                continue
            v = interp.eval(value_node)
            if isinstance(v, IntV):
                if pos >= len(t.shape):
                    return t.with_shape(None)
                pos += 1
                continue
            return t.with_shape(None)  # tensor / list indexing: advanced indexing not modelled
        if pos > len(t.shape):
            return t.with_shape(None)
        out.extend(t.shape[pos:])
        axes.extend(t.axes[pos:] if t.axes else [None] * (len(t.shape) - pos))
        return t.with_shape(tuple(out), tuple(axes) if t.axes else None)

    def _slice_size(self, interp: "Interpreter", sl: cst.Slice, n: Size) -> Size | None:
        lo = interp.eval(sl.lower) if sl.lower is not None else None
        hi = interp.eval(sl.upper) if sl.upper is not None else None
        st = interp.eval(sl.step) if sl.step is not None else None
        nn = n.as_int()
        if any(x is not None and not isinstance(x, IntV) for x in (lo, hi, st)):
            return None
        ints = [x.size.as_int() if isinstance(x, IntV) else None for x in (lo, hi, st)]
        if any(x is not None and i is None for x, i in zip((lo, hi, st), ints)):
            return None  # a symbolic bound
        if nn is not None and ints[2] != 0:
            return Size.const(len(range(nn)[ints[0]:ints[1]:ints[2]]))
        # symbolic: x[:k] with k <= n unknown in general; x[1:] -> n-1 (when n >= 1)
        if ints[2] is None and ints[1] is None and isinstance(ints[0], int) and ints[0] >= 0:
            if greater_equal(n, ints[0]) is Truth.TRUE:
                return n - ints[0]
        return None

    # ------------------------------------------------------------------ binary operators
    def tensor_binary(self, interp: "Interpreter", node: cst.CSTNode, left: Value, op: cst.CSTNode, right: Value) -> Value:
        if isinstance(op, (cst.MatrixMultiply, cst.MatrixMultiplyAssign)):
            if isinstance(left, TensorV) and isinstance(right, TensorV):
                return self.matmul(node, "@", left, right)
            return UNKNOWN
        if isinstance(left, TensorV) and isinstance(right, TensorV):
            return self.elementwise(node, _op_name(op), [left, right])
        t = left if isinstance(left, TensorV) else right
        other = right if t is left else left
        assert isinstance(t, TensorV)
        if isinstance(other, (IntV, FloatV, BoolV)):
            return t
        return t.with_shape(None)

    def elementwise(self, node: cst.CSTNode, opname: str, tensors: list[TensorV], loss: bool = False) -> Value:
        known = [t for t in tensors if t.shape is not None]
        dtype = tensors[0].dtype if all(t.dtype == tensors[0].dtype for t in tensors) else None
        fw = next((t.framework for t in tensors if t.framework), None)
        if len(known) < len(tensors):
            return TensorV(None, dtype, fw)
        shape: tuple[Size, ...] | None = known[0].shape
        for t in known[1:]:
            assert shape is not None and t.shape is not None
            if loss and len(shape) == len(t.shape) and any(equal(a, b) is Truth.FALSE for a, b in zip(shape, t.shape)):
                pass
            new, fail = broadcast_shapes(shape, t.shape)
            if fail is not None:
                i, a, b = fail
                rank = max(len(shape), len(t.shape))
                axis_index = rank - i
                self.ctx.report(node, "SHP204", {"op": opname, "reason": f"shapes {shape_text(shape)} and {shape_text(t.shape)} cannot broadcast: "
                                                                         f"axis {axis_index} has {a} against {b}"},
                                self._origins(tensors), spec=OpSpec("loss" if loss else "elementwise", None, (shape, t.shape), (), (("name", opname),)))
                return TensorV(None, dtype, fw)
            if loss and new is not None and (new != shape or new != t.shape) and len(shape) == len(t.shape):
                pass
            shape = new
            if shape is None:
                self.misaligned(node, opname, tensors)
                return TensorV(None, dtype, fw)
        self.misaligned(node, opname, tensors)
        axes = tensors[0].axes if all(t.axes == tensors[0].axes for t in tensors) else None
        return TensorV(shape, dtype, fw, axes if shape is not None and axes is not None and len(axes) == len(shape) else None, tensors[0].origin)

    def misaligned(self, node: cst.CSTNode, opname: str, tensors: list[TensorV]) -> None:
        """SHP401: the same named axes in a different order (silently wrong wherever sizes coincide)."""
        named = [t for t in tensors if t.axes is not None and t.shape is not None and all(a is not None for a in t.axes)]
        for i in range(len(named)):
            for j in range(i + 1, len(named)):
                a, b = named[i].axes, named[j].axes
                assert a is not None and b is not None
                if len(a) == len(b) and len(set(a)) == len(a) and set(a) == set(b) and a != b:
                    self.ctx.report(node, "SHP401", {"op": opname, "left": " ".join(a), "right": " ".join(b)},  # type: ignore[arg-type]
                                    [f"rearrange one operand first, e.g. rearrange(y, \"{' '.join(b)} -> {' '.join(a)}\")"])  # type: ignore[arg-type]
                    return

    def _origins(self, tensors: list[TensorV]) -> list[str]:
        return [f"operand #{i}: shape {shape_text(t.shape)}" + (f" {t.origin}" if t.origin is not None else "") for i, t in enumerate(tensors)]

    def matmul(self, node: cst.CSTNode, opname: str, a: TensorV, b: TensorV) -> Value:
        dtype = a.dtype if a.dtype == b.dtype else None
        fw = a.framework or b.framework
        if a.shape is None or b.shape is None or len(a.shape) == 0 or len(b.shape) == 0:
            return TensorV(None, dtype, fw)
        k1 = a.shape[-1]
        k2 = b.shape[-2] if len(b.shape) >= 2 else b.shape[0]
        if equal(k1, k2) is Truth.FALSE:
            self.ctx.report(node, "SHP204", {"op": opname, "reason": f"inner dimensions differ: {shape_text(a.shape)} @ {shape_text(b.shape)} "
                                                                     f"contracts {k1} with {k2}"}, self._origins([a, b]),
                            spec=OpSpec("matmul", None, (a.shape, b.shape)))
            return TensorV(None, dtype, fw)
        if len(a.shape) == 1 and len(b.shape) == 1:
            return TensorV((), dtype, fw)
        if len(b.shape) == 1:
            return TensorV(a.shape[:-1], dtype, fw)
        if len(a.shape) == 1:
            return TensorV(b.shape[:-2] + b.shape[-1:], dtype, fw)
        batch, fail = broadcast_shapes(a.shape[:-2], b.shape[:-2])
        if fail is not None:
            self.ctx.report(node, "SHP204", {"op": opname, "reason": f"batch dimensions {shape_text(a.shape[:-2])} and {shape_text(b.shape[:-2])} cannot broadcast"}, self._origins([a, b]),
                            spec=OpSpec("matmul", None, (a.shape, b.shape)))
            return TensorV(None, dtype, fw)
        if batch is None:
            return TensorV(None, dtype, fw)
        ax = None
        if a.axes and b.axes and len(a.axes) == len(a.shape) and len(b.axes) == len(b.shape) and a.axes[:-2] == b.axes[:-2]:
            ax = a.axes[:-1] + b.axes[-1:]
        return TensorV(batch + (a.shape[-2], b.shape[-1]), dtype, fw, ax)

    # ------------------------------------------------------------------ methods
    def tensor_method(self, interp: "Interpreter", node: cst.Call, t: TensorV, name: str, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
        if dynamic:
            return t.with_shape(None) if name in SAME_SHAPE else UNKNOWN
        return self.apply_op(node, name, t, args, kwargs, method=True)

    def apply_op(self, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool) -> Value:
        """Shared by ``x.op(...)`` and ``torch.op(x, ...)`` (``args`` exclude the tensor itself)."""
        shape = t.shape
        rank = len(shape) if shape is not None else None
        if name in ("float", "half", "double", "bfloat16", "long", "int", "bool") and method and not args:
            return t.with_dtype(_CASTS[name])
        if name in ("to", "type", "astype", "type_as", "view") and args:
            target = args[0]
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
                    return t.with_dtype(dt.name) if isinstance(dt, DtypeV) else (t if isinstance(target, StrV) and name == "to" else t.with_dtype(None))
        if name == "to" and "dtype" in kwargs:
            dt = kwargs["dtype"]
            return t.with_dtype(dt.name if isinstance(dt, DtypeV) else None)
        if name in ("size",):
            if shape is None:
                return UNKNOWN
            if not args and "dim" not in kwargs:
                return SeqV(tuple(IntV(s) for s in shape), "shape")
            d = _ints([args[0] if args else kwargs["dim"]])
            if d is None or _norm_dim(d[0], rank) is None:  # type: ignore[arg-type]
                return UNKNOWN
            return IntV(shape[_norm_dim(d[0], rank)])  # type: ignore[arg-type, index]
        if name == "dim" and not args:
            return IntV(Size.const(rank)) if rank is not None else UNKNOWN
        if name == "numel" and not args:
            return IntV(product(shape)) if shape is not None else UNKNOWN
        if name in ("view", "reshape"):
            return self.reshape(node, name, t, args, kwargs)
        if name in ("transpose", "swapaxes", "swapdims", "moveaxis", "movedim"):
            return self.transpose(t, args, kwargs, name)
        if name == "permute":
            dims = _shape_args(args)
            dims_kw = kwargs.get("dims")
            if dims is None and isinstance(dims_kw, SeqV):
                dims = list(dims_kw.items)
            return self.permute(t, dims)
        if name == "flatten":
            return self.flatten(t, args, kwargs)
        if name == "unflatten":
            return self.unflatten(node, t, args, kwargs)
        if name == "unsqueeze" or name == "expand_dims":
            d = _ints(args[:1] or ([kwargs["dim"]] if "dim" in kwargs else [kwargs.get("axis", UNKNOWN)]))
            if d is None or shape is None:
                return t.with_shape(None)
            pos = _norm_dim(d[0], rank + 1)  # type: ignore[operator]
            if pos is None:
                return t.with_shape(None)
            return t.with_shape(shape[:pos] + (Size.const(1),) + shape[pos:], (t.axes[:pos] + (None,) + t.axes[pos:]) if t.axes else None)
        if name == "squeeze":
            return self.squeeze(t, args, kwargs)
        if name in ("expand", "broadcast_to"):
            return self.expand(node, t, args, kwargs)
        if name == "expand_as" and args and isinstance(args[0], TensorV):
            return t.with_shape(args[0].shape)
        if name in ("matmul", "mm", "bmm", "dot") and args and isinstance(args[0], TensorV):
            return self.matmul(node, name, t, args[0])
        if name in REDUCTIONS:
            return self.reduction(node, name, t, args, kwargs, method)
        if name in ("cumsum", "cumprod", "nancumsum", "nancumprod"):
            return self.cumulative(node, name, t, args, kwargs)
        if name in ("softmax", "log_softmax") or name in SAME_SHAPE:
            return t
        if name in ("chunk", "split", "unbind", "tolist", "item", "nonzero", "unique", "masked_select", "topk", "sort", "gather", "scatter", "index_select"):
            return UNKNOWN
        if name in ELEMENTWISE_FUNCS and args and isinstance(args[0], TensorV):
            return self.elementwise(node, name, [t, args[0]])
        if name == "repeat" and method and t.framework == "torch":
            reps = _shape_args(args)
            if reps is None or shape is None or len(reps) < len(shape):
                return t.with_shape(None)
            sizes = _sizes(reps, self.fresh)
            if sizes is None:
                return t.with_shape(None)
            padded = (Size.const(1),) * (len(sizes) - len(shape)) + shape
            return t.with_shape(tuple(a * b for a, b in zip(padded, sizes)))
        return t.with_shape(None) if method else UNKNOWN

    def reshape(self, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
        vals = _shape_args(args)
        shape_kw = kwargs.get("shape")
        if vals is None and isinstance(shape_kw, SeqV):
            vals = list(shape_kw.items)
        if vals is None:
            return t.with_shape(None)
        minus = [i for i, v in enumerate(vals) if isinstance(v, IntV) and v.size.as_int() == -1]
        if len(minus) > 1 or any(v is UNKNOWN for v in vals):
            return t.with_shape(None)
        sizes = [v.size for v in vals if isinstance(v, IntV)]
        if len(sizes) != len(vals) or any(s.as_int() is not None and s.as_int() <= 0 and i not in minus for i, s in enumerate(sizes)):  # type: ignore[operator]
            return t.with_shape(None)
        if t.shape is None:
            if not minus:
                return t.with_shape(tuple(sizes))
            return t.with_shape(None)
        total = product(t.shape)
        if minus:
            known = product(s for i, s in enumerate(sizes) if i not in minus)
            if divisible(total, known) is Truth.FALSE:
                self.ctx.report(node, "SHP204", {"op": name, "reason": f"cannot {name} {shape_text(t.shape)} ({total} elements) into "
                                                                       f"{_shape_list(sizes, minus)}: {total} is not divisible by {known}"}, self._origins([t]),
                                spec=OpSpec("reshape", None, (t.shape,), (), (("target", tuple(Size.const(-1) if i in minus else x for i, x in enumerate(sizes))),)))
                return t.with_shape(None)
            q = total.exact_div(known)
            if q is None:
                return t.with_shape(None)
            sizes[minus[0]] = q
            return t.with_shape(tuple(sizes))
        if equal(total, product(sizes)) is Truth.FALSE:
            self.ctx.report(node, "SHP204", {"op": name, "reason": f"cannot {name} {shape_text(t.shape)} ({total} elements) into "
                                                                   f"{shape_text(tuple(sizes))} ({product(sizes)} elements)"}, self._origins([t]),
                            spec=OpSpec("reshape", None, (t.shape,), (), (("target", tuple(sizes)),)))
            return t.with_shape(None)
        return t.with_shape(tuple(sizes))

    def transpose(self, t: TensorV, args: list[Value], kwargs: dict[str, Value], name: str) -> Value:
        if t.shape is None:
            return t
        rank = len(t.shape)
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
        return t.with_shape(tuple(t.shape[i] for i in order), tuple(t.axes[i] for i in order) if t.axes else None)

    def permute(self, t: TensorV, dims: list[Value] | None) -> Value:
        if dims is None or t.shape is None:
            return t.with_shape(None)
        ds = _ints(dims)
        rank = len(t.shape)
        if ds is None or len(ds) != rank:
            return t.with_shape(None)
        order = [_norm_dim(d, rank) for d in ds]
        if any(o is None for o in order) or len(set(order)) != rank:
            return t.with_shape(None)
        return t.with_shape(tuple(t.shape[o] for o in order), tuple(t.axes[o] for o in order) if t.axes else None)  # type: ignore[index]

    def flatten(self, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
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
        return t.with_shape(t.shape[:s] + (product(t.shape[s:e + 1]),) + t.shape[e + 1:])

    def unflatten(self, node: cst.Call, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if t.shape is None or len(args) < 2 or not isinstance(args[1], SeqV):
            return t.with_shape(None)
        d = _ints([args[0]])
        if d is None:
            return t.with_shape(None)
        pos = _norm_dim(d[0], len(t.shape))
        if pos is None:
            return t.with_shape(None)
        inner = TensorV((t.shape[pos],), t.dtype, t.framework)
        res = self.reshape(node, "unflatten", inner, [args[1]], {})
        if not isinstance(res, TensorV) or res.shape is None:
            return t.with_shape(None)
        return t.with_shape(t.shape[:pos] + res.shape + t.shape[pos + 1:])

    def squeeze(self, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
        if t.shape is None:
            return t
        arg = args[0] if args else kwargs.get("dim", kwargs.get("axis"))
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

    def expand(self, node: cst.Call, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
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
        if shape is not None:
            for i, s in enumerate(shape):
                target = out[len(out) - len(shape) + i]
                if equal(s, target) is Truth.FALSE and equal(s, 1) is Truth.FALSE and greater_equal(s, 2) is Truth.TRUE:
                    self.ctx.report(node, "SHP204", {"op": "expand", "reason": f"cannot expand {shape_text(shape)} to {shape_text(tuple(out))}: "
                                                                             f"axis {i} has {s}, which is not 1"}, self._origins([t]),
                                    spec=OpSpec("expand", None, (shape,), (), (("target", tuple(out)),)))
                    return t.with_shape(None)
        return t.with_shape(tuple(out))

    def reduction(self, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value], method: bool) -> Value:
        shape = t.shape
        dim_v = args[0] if args else kwargs.get("dim", kwargs.get("axis", NoneV()))
        keep_v = kwargs.get("keepdim", kwargs.get("keepdims", args[1] if len(args) > 1 and isinstance(args[1], BoolV) else BoolV(False)))
        keep = keep_v.value if isinstance(keep_v, BoolV) else None
        out_dtype = t.dtype
        if name in ("all", "any", "argmax", "argmin", "count_nonzero"):
            out_dtype = None
        if "dtype" in kwargs:
            dt = kwargs["dtype"]
            out_dtype = dt.name if isinstance(dt, DtypeV) else None
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
                reduced = None
                result = TensorV(None, out_dtype, t.framework)
            else:
                reduced = sorted(set(n for n in norm if n is not None))
                if name in ("max", "min", "median") and not isinstance(dim_v, NoneV) and t.framework not in ("numpy", "jax"):
                    result = UNKNOWN  # (values, indices)
                else:
                    new = tuple(Size.const(1) if i in reduced else s for i, s in enumerate(shape)) if keep else tuple(s for i, s in enumerate(shape) if i not in reduced)
                    axes = None
                    if t.axes:
                        axes = tuple(None if i in reduced else a for i, a in enumerate(t.axes)) if keep else tuple(a for i, a in enumerate(t.axes) if i not in reduced)
                    result = TensorV(new, out_dtype, t.framework, axes, t.origin)
        self.note_framework_reduction(node, name, t, reduced, kwargs)
        return result

    def cumulative(self, node: cst.Call, name: str, t: TensorV, args: list[Value], kwargs: dict[str, Value]) -> Value:
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
        self.note_framework_reduction(node, name, t, reduced, kwargs)
        dt = kwargs.get("dtype")
        out = t.with_dtype(dt.name if isinstance(dt, DtypeV) else None) if dt is not None and not isinstance(dt, NoneV) else t
        if isinstance(dim_v, NoneV) and t.framework in ("numpy", "jax") and t.shape is not None:
            return out.with_shape((product(t.shape),))
        return out

    # ------------------------------------------------------------------ precision hooks (see precision.py)
    def note_reduction(self, node: cst.CSTNode, op: str, t: TensorV | None, reduction: str | None, res: Any, pattern: str, out: TensorV) -> None:
        from .precision import check_einops_reduction

        if t is not None:
            check_einops_reduction(self.m, node, op, t, reduction, res, pattern)

    def note_framework_reduction(self, node: cst.CSTNode, name: str, t: TensorV, reduced: list[int] | None, kwargs: dict[str, Value]) -> None:
        from .precision import check_framework_reduction

        check_framework_reduction(self.m, node, name, t, reduced, kwargs)

    # ------------------------------------------------------------------ qualified functions
    def call(self, interp: "Interpreter", node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value | None:
        fw = _framework(qual)
        if fw is None:
            return None
        name = qual.rsplit(".", 1)[-1]
        if dynamic:
            return UNKNOWN
        if qual.startswith("torch.nn.") and not qual.startswith("torch.nn.functional") and name[:1].isupper():
            return self.layer(node, name, args, kwargs)
        stub = self.m.stubs.function(qual)
        if stub is not None:
            return self.call_stub(node, qual, stub, args, kwargs)
        if name in CONSTRUCTORS or name in ("arange",):
            return self.construct(node, fw, name, args, kwargs)
        if name in ("zeros_like", "ones_like", "empty_like", "randn_like", "rand_like", "full_like") and args and isinstance(args[0], TensorV):
            dt = kwargs.get("dtype")
            return args[0].with_dtype(dt.name) if isinstance(dt, DtypeV) else args[0]
        if name in ("cat", "concatenate", "concat", "stack", "hstack", "vstack"):
            return self.concat(node, name, fw, args, kwargs)
        if name in ("matmul", "bmm", "mm") and len(args) == 2 and all(isinstance(a, TensorV) for a in args):
            return self.matmul(node, name, args[0], args[1])  # type: ignore[arg-type]
        if name in LOSSES and len(args) >= 2 and isinstance(args[0], TensorV) and isinstance(args[1], TensorV):
            return self.loss(node, name, args[0], args[1], kwargs)
        if name in ELEMENTWISE_FUNCS and len(args) >= 2 and all(isinstance(a, TensorV) for a in args[:2]):
            tensors = [a for a in args if isinstance(a, TensorV)]
            return self.elementwise(node, name, tensors)
        if name == "einsum":
            return None if qual.startswith("einops") else UNKNOWN
        if name in ("tensor", "as_tensor", "from_numpy", "array", "asarray"):
            if args and isinstance(args[0], TensorV):
                dt = kwargs.get("dtype")
                return args[0].with_dtype(dt.name) if isinstance(dt, DtypeV) else args[0]
            return TensorV(None, _dtype_kw(kwargs), fw)
        if args and isinstance(args[0], TensorV):
            return self.apply_op(node, name, args[0], args[1:], kwargs, method=False)
        return UNKNOWN

    def call_stub(self, node: cst.Call, qual: str, fi: Any, args: list[Value], kwargs: dict[str, Value]) -> Value:
        """A function declared in a shape stub: check each argument against its annotation, return the declared shape."""
        from ..annotations import Memo, instantiate, match_shape
        from ..diagnostics import get
        from .functions import bind_arguments
        from .shapes_bridge import _bound_shapes, _param_dims

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
            spec = fi.module.shapes.spec(p.ann)
            if spec is None:
                continue
            res = match_shape(spec, arg.shape, memo, fresh=lambda n: self.ctx.fresh(n))
            if res.ok is False and res.problem is not None:
                code, fields = res.problem
                reason = get(code).template.format(**fields)
                short = qual.rsplit(".", 1)[-1]
                self.ctx.report(node, "SHP204", {"op": qual, "reason": f"argument {p.name!r} does not fit the stub signature "
                                                                       f"{p.name}: {p.ann.text}: {reason}"},
                                [f"the argument has shape {shape_text(arg.shape)}" + (f" {arg.origin}" if arg.origin is not None else ""),
                                 f"stub {short}() at {fi.module.path}:{fi.module.line_of(fi.node)}"],
                                spec=OpSpec("annotation", None, _bound_shapes(fi, bound, p.name) + (arg.shape,), (),
                                            (("dims", p.ann.dims), ("params", _param_dims(fi, bound, p.name)), ("stub", qual))))
                return TensorV(None, first.dtype if first else None, first.framework if first else None)
        ret = fi.return_ann
        fw = first.framework if first else _framework(qual)
        if ret is None:
            return TensorV(None, first.dtype if first else None, fw)
        dtype = ret.dtype or (first.dtype if first else None)
        spec = fi.module.shapes.spec(ret)
        shape = instantiate(spec, memo, lambda n: self.ctx.fresh(n)) if spec is not None else None
        axes = first.axes if first is not None and shape is not None and first.shape == tuple(shape) else None
        return TensorV(tuple(shape) if shape is not None else None, dtype, fw, axes)

    def construct(self, node: cst.Call, fw: str, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        dtype = _dtype_kw(kwargs)
        if dtype is None and fw == "numpy" and name != "arange":
            dtype = "float64"
        if name == "arange":
            if len(args) == 1 and isinstance(args[0], IntV):
                return TensorV((args[0].size,), dtype, fw)
            return TensorV(None, dtype, fw)
        shape_args = args[:1] if name == "full" or fw in ("numpy", "jax") else args
        if "size" in kwargs or "shape" in kwargs:
            shape_args = [kwargs.get("size", kwargs.get("shape", UNKNOWN))]
        vals = _shape_args(shape_args)
        if vals is None:
            return TensorV(None, dtype, fw)
        sizes = []
        for v in vals:
            if isinstance(v, IntV) and (v.size.as_int() is None or v.size.as_int() >= 0):  # type: ignore[operator]
                sizes.append(v.size)
            else:
                return TensorV(None, dtype, fw)
        return TensorV(tuple(sizes), dtype, fw, None, Origin(self.m, node, f"{name}(...)"))

    def concat(self, node: cst.Call, name: str, fw: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
        seq = args[0] if args else kwargs.get("tensors", kwargs.get("arrays", UNKNOWN))
        dim_v = args[1] if len(args) > 1 else kwargs.get("dim", kwargs.get("axis", IntV(Size.const(0))))
        if not isinstance(seq, SeqV) or not seq.items or not all(isinstance(t, TensorV) for t in seq.items):
            t0 = seq.items[0] if isinstance(seq, SeqV) and seq.items and isinstance(seq.items[0], TensorV) else None
            return TensorV(None, t0.dtype if t0 else None, fw)
        ts = [t for t in seq.items if isinstance(t, TensorV)]
        dtype = ts[0].dtype if all(t.dtype == ts[0].dtype for t in ts) else None
        d = _ints([dim_v])
        if d is None or any(t.shape is None for t in ts) or name in ("hstack", "vstack"):
            return TensorV(None, dtype, fw)
        shapes = [t.shape for t in ts if t.shape is not None]
        stack = name == "stack"
        rank = len(shapes[0])
        if any(len(s) != rank for s in shapes):
            self.ctx.report(node, "SHP204", {"op": name, "reason": "operands have different ranks: " + ", ".join(shape_text(s) for s in shapes)}, self._origins(ts),
                            spec=OpSpec("stack" if stack else "cat", None, tuple(shapes), (), (("dim", d[0]),)))
            return TensorV(None, dtype, fw)
        pos = _norm_dim(d[0], rank + 1 if stack else rank)
        if pos is None:
            return TensorV(None, dtype, fw)
        for i in range(rank):
            if not stack and i == pos:
                continue
            for s in shapes[1:]:
                if equal(shapes[0][i], s[i]) is Truth.FALSE:
                    self.ctx.report(node, "SHP204", {"op": name, "reason": f"axis {i} differs between operands: {shapes[0][i]} vs {s[i]} "
                                                                           f"({shape_text(shapes[0])} and {shape_text(s)})"}, self._origins(ts),
                                    spec=OpSpec("stack" if stack else "cat", None, tuple(shapes), (), (("dim", d[0]),)))
                    return TensorV(None, dtype, fw)
        if stack:
            self.misaligned(node, name, ts)
            out = shapes[0][:pos] + (Size.const(len(shapes)),) + shapes[0][pos:]
        else:
            total = shapes[0][pos]
            for s in shapes[1:]:
                total = total + s[pos]
            out = shapes[0][:pos] + (total,) + shapes[0][pos + 1:]
        return TensorV(out, dtype, fw)

    def loss(self, node: cst.Call, name: str, a: TensorV, b: TensorV, kwargs: dict[str, Value]) -> Value:
        out_dtype = a.dtype
        if a.shape is not None and b.shape is not None:
            if len(a.shape) == len(b.shape):
                for i, (x, y) in enumerate(zip(a.shape, b.shape)):
                    if equal(x, y) is Truth.FALSE:
                        self.ctx.report(node, "SHP204", {"op": name, "reason": f"input {shape_text(a.shape)} and target {shape_text(b.shape)} differ on axis {i} "
                                                                               f"({x} vs {y}); the loss would broadcast (or fail) instead of comparing element by element"},
                                        self._origins([a, b]), spec=OpSpec("loss", None, (a.shape, b.shape), (), (("name", name),)))
                        return TensorV(None, out_dtype, a.framework)
            else:
                _, fail = broadcast_shapes(a.shape, b.shape)
                if fail is not None:
                    self.ctx.report(node, "SHP204", {"op": name, "reason": f"input {shape_text(a.shape)} and target {shape_text(b.shape)} cannot broadcast"}, self._origins([a, b]),
                                    spec=OpSpec("loss", None, (a.shape, b.shape), (), (("name", name),)))
                    return TensorV(None, out_dtype, a.framework)
            self.misaligned(node, name, [a, b])
        red = kwargs.get("reduction")
        if isinstance(red, StrV) and red.value == "none":
            return a.with_shape(a.shape)
        if red is None or (isinstance(red, StrV) and red.value in ("mean", "sum")):
            return TensorV((), out_dtype, a.framework)
        return TensorV(None, out_dtype, a.framework)

    # ------------------------------------------------------------------ nn layers
    def layer(self, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
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
        if name == "Sequential":
            layers = tuple(args) if not kwargs else ()
            return LayerV("Sequential", (("layers", layers),), node)
        if name in ("Identity", "GELU", "ReLU", "SiLU", "Tanh", "Sigmoid", "Dropout", "Softmax", "LeakyReLU", "Mish", "ELU", "Hardswish", "Dropout1d", "Dropout2d", "Softplus"):
            return LayerV("Elementwise", (("name", name),), node)
        if name == "Embedding":
            return LayerV("Embedding", (("n", size_arg(0, "num_embeddings")), ("d", size_arg(1, "embedding_dim"))), node)
        if name == "Flatten":
            return LayerV("Flatten", (("start", _ints([args[0]]) if args else [1]), ("end", _ints([args[1]]) if len(args) > 1 else [-1])), node)
        return UNKNOWN

    def apply_layer(self, interp: "Interpreter", node: cst.Call, layer: LayerV, args: list[Value], kwargs: dict[str, Value], in_sequential: bool = False) -> Value:
        x = args[0] if args else UNKNOWN
        report_node: cst.CSTNode = layer.line_node if in_sequential and layer.line_node is not None else node
        if layer.kind in ("Rearrange", "Reduce", "EinMix"):
            return self.m.einops.apply_layer(report_node, layer, x)
        if not isinstance(x, TensorV):
            return UNKNOWN
        if layer.kind == "Sequential":
            out: Value = x
            for sub in layer.param("layers", ()):
                if isinstance(sub, LayerV):
                    out = self.apply_layer(interp, node, sub, [out], {}, in_sequential=True)
                elif isinstance(sub, (FuncV, ObjV)):
                    out = UNKNOWN
                else:
                    out = UNKNOWN
                if not isinstance(out, TensorV):
                    return UNKNOWN
            return out
        if layer.kind == "Elementwise":
            return x
        if x.shape is None:
            return x.with_shape(None)
        if layer.kind == "Linear":
            fin, fout = layer.param("in"), layer.param("out")
            if not x.shape:
                return x.with_shape(None)
            if fin is not None and equal(x.shape[-1], fin) is Truth.FALSE:
                self.ctx.report(report_node, "SHP204", {"op": "nn.Linear", "reason": f"Linear(in_features={fin}) cannot take an input whose last axis is {x.shape[-1]} "
                                                                                   f"(input shape {shape_text(x.shape)})"}, self._origins([x]),
                                spec=OpSpec("nn.Linear", None, (x.shape,), (), (("in_features", fin), ("out_features", fout))))
                return x.with_shape(None)
            return x.with_shape(x.shape[:-1] + (fout if fout is not None else self.fresh("out_features"),))
        if layer.kind == "LayerNorm":
            shape = layer.param("shape")
            if shape is not None and len(shape) <= len(x.shape):
                tail = x.shape[len(x.shape) - len(shape):]
                for a, b in zip(tail, shape):
                    if equal(a, b) is Truth.FALSE:
                        self.ctx.report(report_node, "SHP204", {"op": "nn.LayerNorm", "reason": f"LayerNorm({', '.join(map(str, shape))}) cannot take an input of shape {shape_text(x.shape)}"}, self._origins([x]),
                                        spec=OpSpec("nn.LayerNorm", None, (x.shape,), (), (("normalized_shape", tuple(shape)),)))
                        return x.with_shape(None)
            return x
        if layer.kind.startswith("Conv"):
            n = layer.param("n")
            if len(x.shape) not in (n + 1, n + 2):
                if len(x.shape) < n + 1 or len(x.shape) > n + 2:
                    self.ctx.report(report_node, "SHP201", {"what": f"nn.{layer.kind}", "expected": f"{n + 1} or {n + 2}", "subject": "its input", "actual": len(x.shape)}, self._origins([x]),
                                    spec=OpSpec("nn.Conv", None, (x.shape,), (), (("n", n), ("in_channels", layer.param("in")), ("out_channels", layer.param("out")), ("k", layer.param("k")), ("s", layer.param("s")), ("p", layer.param("p")), ("d", layer.param("d")))))
                return x.with_shape(None)
            c = x.shape[-n - 1]
            cin = layer.param("in")
            if cin is not None and equal(c, cin) is Truth.FALSE:
                self.ctx.report(report_node, "SHP204", {"op": f"nn.{layer.kind}", "reason": f"{layer.kind}(in_channels={cin}) cannot take an input with {c} channels "
                                                                                         f"(input shape {shape_text(x.shape)})"}, self._origins([x]),
                                spec=OpSpec("nn.Conv", None, (x.shape,), (), (("n", n), ("in_channels", cin), ("out_channels", layer.param("out")), ("k", layer.param("k")), ("s", layer.param("s")), ("p", layer.param("p")), ("d", layer.param("d")))))
                return x.with_shape(None)
            spatial = []
            k, s, p, d = (layer.param(key) for key in ("k", "s", "p", "d"))
            for i, size in enumerate(x.shape[-n:]):
                def pick(v: tuple[int, ...] | None) -> int | None:
                    if v is None:
                        return None
                    return v[0] if len(v) == 1 else (v[i] if i < len(v) else None)
                ki, si, pi, di = pick(k), pick(s), pick(p), pick(d)
                hv = size.as_int()
                if None in (ki, si, pi, di):
                    spatial.append(self.fresh("h"))
                elif hv is not None:
                    spatial.append(Size.const((hv + 2 * pi - di * (ki - 1) - 1) // si + 1))  # type: ignore[operator]
                elif si == 1 and di * (ki - 1) == 2 * pi:  # type: ignore[operator]
                    spatial.append(size)
                else:
                    spatial.append(self.fresh("h"))
            cout = layer.param("out")
            return x.with_shape(x.shape[:-n - 1] + (cout if cout is not None else self.fresh("c"),) + tuple(spatial))
        if layer.kind == "Embedding":
            d = layer.param("d")
            return TensorV(x.shape + (d if d is not None else self.fresh("d"),), None, x.framework)
        if layer.kind == "Flatten":
            s, e = layer.param("start"), layer.param("end")
            if s is None or e is None:
                return x.with_shape(None)
            return self.flatten(x, [IntV(Size.const(s[0])), IntV(Size.const(e[0]))], {})
        return x.with_shape(None)


def _dtype_kw(kwargs: dict[str, Value]) -> str | None:
    dt = kwargs.get("dtype")
    if isinstance(dt, DtypeV):
        return dt.name
    if isinstance(dt, StrV):
        return DTYPE_NAMES.get(dt.value)
    return None


def _shape_list(sizes: list[Size], minus: list[int]) -> str:
    return "(" + ", ".join("-1" if i in minus else str(s) for i, s in enumerate(sizes)) + ")"


def _is_none_or_ellipsis(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Ellipsis) or (isinstance(node, cst.Name) and node.value == "None")


def _op_name(op: cst.CSTNode) -> str:
    return {
        cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//", cst.Power: "**",
        cst.Modulo: "%", cst.AddAssign: "+=", cst.SubtractAssign: "-=", cst.MultiplyAssign: "*=", cst.DivideAssign: "/=",
    }.get(type(op), "elementwise operation")
