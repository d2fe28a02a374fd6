"""Differential harness over the framework op table (issue 16): generated calls, static shape against runtime shape.

A *case* is a few lines of generated code: inputs built with constructors the analyser models, then one call of the
op under test bound to ``out`` (sometimes indexed afterwards: ``out = y[0]``, ``y[1:]``, ``y[..., None]``, a mask).
shapecheck analyses the text (it never runs it); the harness then executes the same generated snippet -- our own
generated code, not analysed user code -- in the real framework and compares:

* the analyser reports a SHP1xx/SHP2xx while the call succeeds: a **false positive**;
* the analyser claims a shape (rank, and every concrete size) that differs from the runtime one: a **wrong shape**
  (likewise a claimed int / ``.shape`` tuple / dtype that differs);
* any SHP9xx, or the analysis raising: an **internal** error.

Where the call raises, the analyser may say anything. The only runtime "failure" besides an exception is torch's
warning that a loss target's size differs from the input's (SHP204 where the sizes cannot broadcast, the SHP404 warning
where one of them is 1: docs/codes.md).

Frameworks are plug-ins: a `Framework` subclass says how to import the framework, build an input, read a result and
spell an argument (``axis``/``dim``, ``keepdims``/``keepdim``), and lists its op generators. `FRAMEWORKS` holds the
installed ones. TensorFlow and Paddle (`TensorFlowFW`, `PaddleFW`) segfault when both are imported into one process, so
their snippets run in one worker subprocess per framework (tests/ops_worker.py) that returns ``out``'s shape and dtype.
Every op the analyser models must be covered by a generator or listed in `UNEXERCISED` with the reason (tests/test_ops_differential.py checks it).
"""

from __future__ import annotations

import functools
import importlib.util
import random
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from shapecheck.analysis.editor.hover import inferred_values
from shapecheck.analysis.rules.ops_common import (
    DTYPE_NAMES,
    ELEMENTWISE_FUNCS,
    LOSSES,
    RANDOM_SIZED,
    REDUCTIONS,
    SAME_SHAPE,
)
from shapecheck.analysis.interpret.values import IntV, SeqV, TensorV
from shapecheck.analysis.rules.ops import INPLACE_ELEMENTWISE

STUBS = Path(__file__).resolve().parents[1] / "stubs"

# ------------------------------------------------------------------------------------------------- cases


@dataclass
class Case:
    op: str  # the op-table key: "reduce:sum", "stub:torch.nn.functional.linear", ...
    framework: str
    setup: list[str]
    expr: str
    post: str | None = None  # an indexing chained on the result: "[0]", "[1:]", ...

    def source(self, header: str) -> str:
        lines = [header, *self.setup]
        if self.post is None:
            lines.append(f"out = {self.expr}")
        else:
            lines.append(f"res = {self.expr}")
            lines.append(f"out = res{self.post}")
        return "\n".join(lines) + "\n"


@dataclass
class Outcome:
    case: Case
    source: str
    verdict: str  # "ok" | "false-positive" | "wrong-shape" | "wrong-dtype" | "internal"
    runtime: str  # "ok" | "raise" | "warn"
    detail: str = ""
    claimed: bool = False  # the analyser claimed a concrete shape / value


# ------------------------------------------------------------------------------------------------- frameworks


class Framework:
    name = ""
    module = ""  # importable module that must be present
    header = ""
    mod = ""  # the alias generated code uses
    axis = "axis"
    keep = "keepdims"
    dtypes: tuple[str, ...] = ()
    int_dtype = ""
    bool_dtype = ""

    def available(self) -> bool:
        return importlib.util.find_spec(self.module) is not None

    def lib(self) -> Any:
        return importlib.import_module(self.module)

    def tensor(self, shape: tuple[int, ...], dtype: str | None = None) -> str:
        raise NotImplementedError

    def dtype_name(self, value: Any) -> str | None:
        dt = getattr(value, "dtype", None)
        return None if dt is None else str(dt).replace("torch.", "")

    def has(self, qual: str) -> bool:
        """Whether ``mod.a.b`` exists (generated calls of functions the framework lacks are wasted)."""
        obj: Any = self.lib()
        for part in qual.split(".")[1:]:
            obj = getattr(obj, part, None)
            if obj is None:
                return False
        return True

    def has_method(self, name: str) -> bool:
        """Whether a tensor of this framework has the method ``name``."""
        try:
            return callable(getattr(self.lib().ones((1,)), name, None))
        except Exception:  # torch's .imag of a real tensor raises
            return False

    def has_functional(self, name: str) -> bool:
        """Whether ``F.name`` exists (torch.nn.functional; other frameworks: no such module)."""
        return False

    def generators(self) -> dict[str, Callable[[random.Random], Case]]:
        raise NotImplementedError

    def stub_modules(self) -> list[str]:
        """Stub modules (dotted, as under stubs/) whose every signature this framework exercises."""
        return []


def shape_src(shape: tuple[int, ...] | list[int]) -> str:
    shape = tuple(shape)
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def rand_shape(r: random.Random, lo: int = 0, hi: int = 4) -> tuple[int, ...]:
    """A shape of rank lo..hi; now and then an empty axis (size 0)."""
    return tuple(0 if r.random() < 0.03 else r.choice((1, 2, 3, 4, 5)) for _ in range(r.randint(lo, hi)))


def broadcast_partner(r: random.Random, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that broadcasts with ``shape`` (mostly), or sometimes does not."""
    roll = r.random()
    if roll < 0.25:
        return shape
    if roll < 0.85:
        k = r.randint(0, len(shape))
        tail = list(shape[len(shape) - k :])
        tail = [1 if r.random() < 0.3 else s for s in tail]
        lead = [r.choice((1, 2, 3)) for _ in range(r.randint(0, 1))]
        return tuple(lead + tail)
    return rand_shape(r, 0, 4)


def dim_value(r: random.Random, rank: int, allow_tuple: bool = True, allow_none: bool = True) -> str | None:
    """An axis argument: int, negative int, tuple, None, or (rarely) out of range. ``None`` return: omit it."""
    roll = r.random()
    if roll < 0.1:
        return None
    if roll < 0.2 and allow_none:
        return "None"
    if roll < 0.4 and allow_tuple and rank >= 1:
        k = r.randint(1, rank)
        dims = r.sample(range(rank), k)
        dims = [d - rank if r.random() < 0.3 else d for d in dims]
        return "(" + ", ".join(map(str, dims)) + ("," if k == 1 else "") + ")"
    if roll < 0.45:
        return str(rank + r.randint(0, 1))  # out of range
    if rank == 0:
        return r.choice(("0", "-1"))
    d = r.randrange(rank)
    return str(d - rank if r.random() < 0.4 else d)


# SAME_SHAPE / stub-like unary ops and the extra arguments each needs (method form, function form)
UNARY_ARGS: dict[str, str] = {
    "clamp": "min={bound}",
    "clip": "0.0, {bound}",
    "clamp_min": "0.0",
    "clamp_max": "1.0",
    "masked_fill": "{mask}, 0.0",
    "masked_fill_": "{mask}, 0.0",
    "fill_": "1.0",
    "copy_": "{same}",
    "normal_": "",
    "uniform_": "",
    "bernoulli_": "0.5",
    "exponential_": "",
    "roll": "1",
    "flip": "{flipdims}",
    "dropout": "0.5",
    "dropout1d": "0.5",
    "dropout2d": "0.5",
    "softmax": "{dim}",
    "log_softmax": "{dim}",
    "cumsum": "{dim}",
    "cumprod": "{dim}",
    "lerp": "{same}, 0.5",
    "leaky_relu": "",
    "normalize": "",
    "type_as": "{same}",
    "to": "{dtype}",
    "type": "{dtype}",
    "astype": "{dtype}",
    "full_like": "2.0",
    "logit": "",
    "round": "",
    "nan_to_num": "",
}


# torch's in-place methods whose tensor arguments broadcast into the tensor itself, and their arguments: every method
# the op rules register as element-wise in place (ops.INPLACE_ELEMENTWISE) takes one tensor unless listed here, and
# ``copy_`` (a rule of its own) takes one too
_INPLACE_ARGS_OTHER_THAN_ONE_TENSOR = {
    "lerp_": "{b}, {c}",
    "addcmul_": "{b}, {c}, value=0.5",
    "addcdiv_": "{b}, {c}",
    "clamp_": "{b}, {c}",
    "clip_": "max={b}",
}
INPLACE_METHOD_ARGS: dict[str, str] = {
    k: _INPLACE_ARGS_OTHER_THAN_ONE_TENSOR.get(k, "{b}") for k in sorted(INPLACE_ELEMENTWISE | {"copy_"})
}


class TorchFW(Framework):
    name = "torch"
    module = "torch"
    header = "import numpy as np\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F"
    mod = "torch"
    axis = "dim"
    keep = "keepdim"
    dtypes = ("torch.float32", "torch.float64", "torch.float16", "torch.bfloat16", "torch.int64", "torch.int32")
    int_dtype = "torch.int64"
    bool_dtype = "torch.bool"

    def tensor(self, shape: tuple[int, ...], dtype: str | None = None) -> str:
        dt = f", dtype={dtype}" if dtype else ""
        return f"torch.ones({shape_src(shape)}{dt})"

    def generators(self) -> dict[str, Callable[[random.Random], Case]]:
        return common_generators(self) | torch_generators(self)

    def stub_modules(self) -> list[str]:
        return ["torch", "torch.nn.functional"]

    def has_functional(self, name: str) -> bool:
        import torch.nn.functional as F

        return callable(getattr(F, name, None))


class NumpyFW(Framework):
    name = "numpy"
    module = "numpy"
    header = "import numpy as np"
    mod = "np"
    dtypes = ("np.float32", "np.float64", "np.float16", "np.int64", "np.int32", "'float32'")
    int_dtype = "np.int64"
    bool_dtype = "bool"

    def tensor(self, shape: tuple[int, ...], dtype: str | None = None) -> str:
        dt = f", dtype={dtype}" if dtype else ""
        return f"np.ones({shape_src(shape)}{dt})"

    def generators(self) -> dict[str, Callable[[random.Random], Case]]:
        return common_generators(self) | numpy_generators(self)

    def stub_modules(self) -> list[str]:
        return ["numpy"]


class JaxFW(Framework):
    name = "jax"
    module = "jax"
    header = "import jax\nimport jax.numpy as jnp"
    mod = "jnp"
    dtypes = ("jnp.float32", "jnp.float16", "jnp.bfloat16", "jnp.int32")
    int_dtype = "jnp.int32"
    bool_dtype = "bool"

    def lib(self) -> Any:
        return importlib.import_module("jax.numpy")

    def tensor(self, shape: tuple[int, ...], dtype: str | None = None) -> str:
        dt = f", dtype={dtype}" if dtype else ""
        return f"jnp.ones({shape_src(shape)}{dt})"

    def generators(self) -> dict[str, Callable[[random.Random], Case]]:
        return common_generators(self) | jax_generators(self)

    def stub_modules(self) -> list[str]:
        return ["jax.numpy", "jax.nn"]


# ------------------------------------------------------------------------------------------------- generators

Gen = Callable[[random.Random], Case]


def _maybe_index(r: random.Random, case: Case, p: float = 0.2) -> Case:
    if r.random() < p:
        case.post = r.choice(
            (
                "[0]",
                "[1:]",
                "[..., None]",
                "[None]",
                "[:, 0]",
                "[-1]",
                "[::2]",
                "[..., 0]",
                "[res > 0]",
                "[0, ..., None]",
                "[:1]",
            )
        )
    return case


LIKES = ("zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like")
CONVERSIONS = ("array", "asarray", "tensor", "as_tensor", "ascontiguousarray", "asfortranarray")
CUMULATIVE = ("cumsum", "cumprod", "nancumsum", "nancumprod")
CONCATS = ("cat", "concatenate", "concat", "stack", "hstack", "vstack")
LAYER_KINDS = (
    "Linear",
    "LayerNorm",
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "TransposedConv",
    "ChannelNorm",
    "GroupNorm",
    "Embedding",
    "Flatten",
    "Elementwise",
    "Sequential",
    "TransformerBlock",
    "PixelShuffle",
    "Unfold",
    "Loss",
    "ClassLoss",
)


_FFTN = ("fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn")


def _fftn_arguments(r: random.Random, pick: str, rank: int, axes_kw: str) -> tuple[str, str]:
    """``, s=(..)`` and ``, dim=(..)`` / ``, axes=(..)`` for an n-d FFT of a rank-``rank`` input: each left out or
    given (distinct axes, negative ones too; as many point counts as axes)."""
    k = 2 if pick.endswith("2") else r.randint(1, rank)
    axes = r.sample(range(rank), k) if r.random() < 0.5 else None
    if axes is not None:
        axes = [a - rank if r.random() < 0.5 else a for a in axes]
    given_axes = axes is not None or (pick.endswith("2") and r.random() < 0.3)
    if axes is None:
        axes = list(range(rank - k, rank))
    s_arg = f", s={tuple(r.randint(1, 9) for _ in axes)}" if r.random() < 0.5 else ""
    if not s_arg and pick.endswith("n") and not given_axes:
        return "", ""  # every axis
    return s_arg, (f", {axes_kw}={tuple(axes)}" if given_axes or not s_arg else "")


def _each(g: dict[str, Gen], prefix: str, fn: Callable[..., Case], names: list[str]) -> None:
    """One generator per op name (``reduce:sum``, ``reduce:mean`` ...), so that every op is exercised."""
    for n in names:
        key = "random." + n.rsplit(".", 1)[-1] if n.startswith("numpy.random.") else n
        g[f"{prefix}:{key}"] = functools.partial(fn, pick=n)


def common_generators(fw: Framework) -> dict[str, Gen]:
    m = fw.mod
    g: dict[str, Gen] = {}

    def x_of(r: random.Random, lo: int = 0, hi: int = 4, dtype: str | None = None) -> tuple[tuple[int, ...], str]:
        s = rand_shape(r, lo, hi)
        return s, f"x = {fw.tensor(s, dtype)}"

    # --- constructors
    def make_ctor(name: str) -> Gen:
        def gen(r: random.Random) -> Case:
            s = rand_shape(r, 0, 4)
            form = r.choice(("varargs", "tuple", "list", "kw", "int", "shape"))
            if fw.name != "torch" and form == "varargs" and r.random() < 0.8:
                form = "tuple"
            if form == "varargs":
                size = ", ".join(map(str, s))
            elif form == "tuple":
                size = shape_src(s)
            elif form == "list":
                size = "[" + ", ".join(map(str, s)) + "]"
            elif form == "int":
                size = str(s[0] if s else 3)
            elif form == "shape":
                size = "x.shape"
            else:
                size = ("size=" if fw.name == "torch" else "shape=") + shape_src(s)
            args = [size] if size else []
            if name == "full":
                fill = r.choice(("1.5", "2", "True"))
                args.append(f"fill_value={fill}" if form == "kw" else fill)
            if r.random() < 0.4:
                dt = r.choice(fw.dtypes)
                args.append(dt if (fw.name != "torch" and r.random() < 0.5 and form != "kw") else f"dtype={dt}")
            setup = [f"x = {fw.tensor(s)}"] if form == "shape" else []
            return _maybe_index(r, Case(f"construct:{name}", fw.name, setup, f"{m}.{name}({', '.join(args)})"))

        return gen

    for name in ("zeros", "ones", "empty", "full"):
        g[f"construct:{name}"] = make_ctor(name)

    def arange(r: random.Random) -> Case:
        form = r.choice(("n", "neg", "start", "float", "kw", "step", "backwards", "float_step", "float_back"))
        n = r.randint(0, 6)
        step, lo = r.choice((1, 2, 3, 5)), r.randint(-3, 4)
        fstep = r.choice(("0.5", "1.5", "0.25", "1.0", "2.0"))
        expr = {
            "n": f"{m}.arange({n})",
            "neg": f"{m}.arange(-{n})",
            "start": f"{m}.arange(1, {n + 2})",
            "float": f"{m}.arange({n}.0)",
            "kw": f"{m}.arange({n}, dtype={r.choice(fw.dtypes)})",
            "step": f"{m}.arange({lo}, {lo + n}, {step})",
            "backwards": f"{m}.arange({lo + n}, {lo}, -{step})",
            # float bounds or steps: ceil((stop - start) / step) elements (Transformer-XL's arange(q - 1, -1, -1.0))
            "float_step": f"{m}.arange({lo}, {lo + n}, {fstep})",
            "float_back": f"{m}.arange({lo + n} - 1, {r.choice(('-1', '-1.0', str(lo) + '.5'))}, -{fstep})",
        }[form]
        return _maybe_index(r, Case("construct:arange", fw.name, [], expr))

    g["construct:arange"] = arange

    def like(r: random.Random, pick: str = "") -> Case:
        name = pick
        s, x = x_of(r)
        extra = ", 2.0" if name == "full_like" else ""
        dt = f", dtype={r.choice(fw.dtypes)}" if r.random() < 0.3 else ""
        return _maybe_index(r, Case(f"construct:{name}", fw.name, [x], f"{m}.{name}(x{extra}{dt})"))

    _each(g, "construct", like, [n for n in LIKES if fw.has(f"x.{n}")])

    def conversion(r: random.Random, pick: str = "") -> Case:
        name = pick
        s, x = x_of(r)
        dt = f", dtype={r.choice(fw.dtypes)}" if r.random() < 0.3 else ""
        if fw.name in ("numpy", "jax") and name in ("array", "asarray") and r.random() < 0.4:
            # a list of arrays of one shape: stacked along a new first axis
            form = r.choice(("pair", "comprehension", "nested"))
            items = {
                "pair": "[x, x + 1]",
                "comprehension": f"[x * i for i in range({r.randint(1, 4)})]",
                "nested": "[[x, x], [x, x], [x, x]]",
            }[form]
            return _maybe_index(r, Case(f"construct:{name}", fw.name, [x], f"{m}.{name}({items}{dt})"))
        return _maybe_index(r, Case(f"construct:{name}", fw.name, [x], f"{m}.{name}(x{dt})"))

    _each(g, "construct", conversion, [n for n in CONVERSIONS if fw.has(f"x.{n}")])

    # --- attributes and size queries
    def attr(r: random.Random) -> Case:
        s, x = x_of(r)
        choices = ["x.shape", "x.ndim", "x.T", "x.real", "len(x)", f"x.shape[{r.randint(-2, 2)}]"]
        if fw.name == "torch":
            choices += [
                "x.mT",
                "x.mH",
                "x.H",
                "x.data",
                "x.size()",
                f"x.size({r.randint(-2, 2)})",
                "x.dim()",
                "x.ndimension()",
                "x.numel()",
                f"x.size(dim={r.randint(-1, 1)})",
            ]
        else:
            choices += ["x.size", "x.mT", "x.imag", f"{m}.shape(x)", f"{m}.ndim(x)", f"{m}.shape(x)[-1]"]
            if fw.name == "jax":
                choices.append(f"{m}.size(x)")
        expr = r.choice(choices)
        op = "attr:" + expr.split("(")[0].split("[")[0].replace("x.", "").replace(f"{m}.", "")
        return _maybe_index(r, Case(op, fw.name, [x], expr), 0.1)

    g["attr"] = attr

    # --- elementwise
    def binary(r: random.Random) -> Case:
        a = rand_shape(r, 0, 4)
        b = broadcast_partner(r, a)
        op = r.choice(("+", "-", "*", "/", "//", "**", "%"))
        da = r.choice((None, None, fw.int_dtype, fw.dtypes[0], fw.dtypes[2]))
        db = da if r.random() < 0.6 else r.choice((None, fw.int_dtype, fw.dtypes[0]))
        setup = [f"a = {fw.tensor(a, da)}", f"b = {fw.tensor(b, db)}"]
        form = r.random()
        if form < 0.2:
            expr = f"a {op} {r.choice(('2', '1.5', 'True'))}"
        elif form < 0.3:
            expr = f"{r.choice(('2', '1.5'))} {op} b"
        elif form < 0.4:
            setup.append(f"a {op}= b")
            expr = "a"
        else:
            expr = f"a {op} b"
        return _maybe_index(r, Case(f"binary:{op}", fw.name, setup, expr))

    g["binary"] = binary

    def compare(r: random.Random) -> Case:
        a = rand_shape(r, 0, 4)
        b = broadcast_partner(r, a)
        op = r.choice(("<", "<=", ">", ">=", "==", "!="))
        setup = [f"a = {fw.tensor(a)}", f"b = {fw.tensor(b)}"]
        return _maybe_index(r, Case(f"binary:{op}", fw.name, setup, f"a {op} b"))

    g["compare"] = compare

    def compare_call(r: random.Random) -> Case:
        """Comparisons written as calls: torch's ``a.ne(b)`` / ``torch.gt(a, 0)``, numpy's ``np.greater(a, b)``."""
        a = rand_shape(r, 0, 4)
        b = broadcast_partner(r, a)
        setup = [f"a = {fw.tensor(a)}", f"b = {fw.tensor(b)}"]
        other = r.choice(("b", "b", "0", "0.5"))
        if fw.name == "torch":
            name = r.choice(
                ("eq", "ne", "gt", "ge", "lt", "le", "greater", "less", "greater_equal", "less_equal", "not_equal")
            )
            expr = r.choice((f"a.{name}({other})", f"torch.{name}(a, {other})"))
        else:
            name = r.choice(("greater", "less", "greater_equal", "less_equal", "not_equal"))
            expr = f"{m}.{name}(a, {other})"
        return _maybe_index(r, Case(f"method:{name}", fw.name, setup, expr))

    if fw.name in ("torch", "numpy", "jax"):
        g["compare_call"] = compare_call

    def setitem(r: random.Random) -> Case:
        """``x[index] = value`` (numpy and torch; jax arrays refuse item assignment): the value fits the region,
        has extra leading 1s or 1s for some axes, or does not fit."""
        x = rand_shape(r, 1, 3)
        index, region = [], []
        for n in x[: r.randint(1, len(x))]:
            form = r.choice(("all", "slice", "int", "neg"))
            if form == "int" and n > 0:
                index.append(str(r.randrange(n)))
                continue
            if form == "slice":
                lo, hi = r.randint(0, n), r.randint(0, n)
                index.append(f"{lo}:{hi}")
                region.append(max(hi - lo, 0))
            elif form == "neg" and n > 0:
                k = r.randint(1, n)
                index.append(f"{-k}:")
                region.append(k)
            else:
                index.append(":")
                region.append(n)
        region += list(x[len(index) :])
        roll = r.random()
        if roll < 0.4:
            value = tuple(region)
        elif roll < 0.6:
            value = (1,) * r.randint(1, 2) + tuple(region)
        elif roll < 0.8:
            value = tuple(1 if r.random() < 0.5 else s for s in region)
        else:
            value = rand_shape(r, 0, 3)
        setup = [f"x = {fw.tensor(x)}", f"x[{', '.join(index)}] = {fw.tensor(value)}"]
        return Case("setitem", fw.name, setup, "x")

    g["setitem"] = setitem

    if fw.name in ("torch", "numpy"):

        def inplace(r: random.Random) -> Case:
            """``a op= b`` (torch and numpy change ``a`` in place: the broadcast must keep its shape; a jax array is
            rebound): b broadcasts to a's shape, to a larger one, or not at all."""
            a = rand_shape(r, 0, 4)
            b = broadcast_partner(r, a)
            op = r.choice(("+=", "-=", "*="))
            return Case("inplace", fw.name, [f"a = {fw.tensor(a)}", f"a {op} {fw.tensor(b)}"], "a")

        g["inplace"] = inplace

    if fw.name == "torch":

        def inplace_method(r: random.Random) -> Case:
            """torch's in-place methods (``a.add_(b)``, ``a.addcmul_(b, c)``, ``a.copy_(b)``...): their tensor
            arguments broadcast with ``a`` to ``a``'s own shape, to a larger one (fails), or not at all."""
            name = r.choice(sorted(INPLACE_METHOD_ARGS))
            a = tuple(1 if r.random() < 0.3 else s for s in rand_shape(r, 0, 4))
            grown = tuple(r.randint(2, 4) if s == 1 and r.random() < 0.5 else s for s in a)

            def partner() -> str:
                return fw.tensor(broadcast_partner(r, a if r.random() < 0.6 else grown))

            args = INPLACE_METHOD_ARGS[name].format(b=partner(), c=partner())
            return Case(f"inplace:{name}", fw.name, [f"a = {fw.tensor(a)}"], f"a.{name}({args})")

        g["inplace_method"] = inplace_method

    def elementwise_fn(r: random.Random, pick: str = "") -> Case:
        name = pick
        a = rand_shape(r, 0, 4)
        b = broadcast_partner(r, a)
        dt = r.choice((None, None, fw.int_dtype, fw.dtypes[2]))
        setup = [f"a = {fw.tensor(a, dt)}", f"b = {fw.tensor(b, dt)}"]
        if name == "where":
            c = broadcast_partner(r, a)
            setup.append(f"c = {fw.tensor(c, fw.bool_dtype)}")
            expr = r.choice((f"{m}.where(c, a, b)", "a.where(c, b)" if fw.name == "torch" else f"{m}.where(c, a, b)"))
        elif name == "lerp":
            expr = r.choice((f"{m}.lerp(a, b, 0.5)", "a.lerp(b, 0.5)"))
        elif name in ("pow", "power") and r.random() < 0.25:
            expr = f"{m}.{name}({r.choice(('2.0', '2', '0.5'))}, b)"  # a Python number raised to each element
        elif r.random() < 0.5 and fw.name == "torch":
            expr = f"a.{name}(b)"
        else:
            expr = f"{m}.{name}(a, b)"
        return _maybe_index(r, Case(f"elementwise:{name}", fw.name, setup, expr))

    _each(g, "elementwise", elementwise_fn, sorted(n for n in ELEMENTWISE_FUNCS if fw.has(f"x.{n}")))

    # --- where(cond) with one argument: a tuple of index vectors, one per axis of the condition (data-dependent length)
    def where_indices(r: random.Random) -> Case:
        s = rand_shape(r, 0, 3)
        setup = [f"c = {fw.tensor(s)} > 0"]
        case = Case("index:where", fw.name, setup, f"{m}.where(c)")
        case.post = r.choice(("[0]", "[-1]", "[0][:, None]", "[0][None]")) if s else None
        return case

    g["index:where"] = where_indices

    # --- argsort: int indices of the input's shape (numpy / jax: axis=None flattens)
    def argsort(r: random.Random) -> Case:
        s = rand_shape(r, 0, 4)
        setup = [f"x = {fw.tensor(s)}"]
        rank = len(s)
        d = r.randint(-rank - 1, rank) if rank else r.choice((0, -1))
        forms = [f"{m}.argsort(x)", f"{m}.argsort(x, {d})", f"{m}.argsort(x, {fw.axis}={d})"]
        if fw.name == "torch":
            forms += [f"x.argsort({d})", f"x.argsort(dim={d}, descending=True)", f"{m}.argsort(x, {d}, True)"]
        else:
            forms += [f"{m}.argsort(x, axis=None)", f"x.argsort({d})"]
        return _maybe_index(r, Case("index:argsort", fw.name, setup, r.choice(forms)))

    g["index:argsort"] = argsort

    # --- matmul
    def matmul(r: random.Random) -> Case:
        ra, rb = r.randint(1, 4), r.randint(1, 4)
        k = r.choice((2, 3))
        a = list(rand_shape(r, ra, ra))
        b = list(rand_shape(r, rb, rb))
        a[-1] = k
        if len(b) >= 2:
            b[-2] = k if r.random() < 0.85 else k + 1
        else:
            b[0] = k if r.random() < 0.85 else k + 1
        if len(a) > 2 and len(b) > 2 and r.random() < 0.5:
            b[:-2] = a[:-2][len(a) - len(b) :] if len(b) <= len(a) else b[:-2]
        setup = [f"a = {fw.tensor(tuple(a))}", f"b = {fw.tensor(tuple(b))}"]
        names = ["a @ b", f"{m}.matmul(a, b)", "a.dot(b)" if fw.name != "jax" else "jnp.dot(a, b)", f"{m}.dot(a, b)"]
        if fw.name == "torch":
            names += [
                "a.matmul(b)",
                "a.mm(b)",
                "a.bmm(b)",
                "torch.mm(a, b)",
                "torch.bmm(a, b)",
                "torch.mv(a, b)",
                "torch.outer(a, b)",
                "a.outer(b)",
            ]
        else:
            names += [f"{m}.outer(a, b)", f"{m}.inner(a, b)"]
        expr = r.choice(names)
        op = "matmul:" + expr.replace("a.", "").replace(f"{m}.", "").split("(")[0].replace("a @ b", "@")
        return _maybe_index(r, Case(op, fw.name, setup, expr))

    g["matmul"] = matmul

    # --- addmm / baddbmm / addbmm (torch): input + a @ b, the factors of fixed rank, the input broadcast to the product
    if fw.name == "torch":

        def add_product(r: random.Random) -> Case:
            name = r.choice(("addmm", "baddbmm", "addbmm"))
            n, k, p = r.randint(1, 4), r.choice((2, 3)), r.randint(1, 4)
            bt = r.randint(1, 3)
            a = [n, k] if name == "addmm" else [bt, n, k]
            b = (
                [k if r.random() < 0.85 else k + 1, p]
                if name == "addmm"
                else [bt, k if r.random() < 0.85 else k + 1, p]
            )
            if name != "addmm" and r.random() < 0.1:
                b[0] = bt + 1  # batches of different sizes
            out = [n, p] if name != "baddbmm" else [bt, n, p]
            c = list(broadcast_partner(r, tuple(out)))
            setup = [f"a = {fw.tensor(tuple(a))}", f"b = {fw.tensor(tuple(b))}", f"c = {fw.tensor(tuple(c))}"]
            expr = r.choice((f"torch.{name}(c, a, b)", f"c.{name}(a, b)", f"torch.{name}(c, a, b, beta=0.5, alpha=2)"))
            return _maybe_index(r, Case(f"matmul:{name}", fw.name, setup, expr))

        g["add_product"] = add_product

    # --- linalg.solve: a vector, a batch of vectors (torch only), a stack of matrices; broadcasting batches
    def solve(r: random.Random) -> Case:
        n, k = r.choice((2, 3)), r.choice((1, 2, 4))
        batch = list(rand_shape(r, 0, 2))
        a = batch + [n, n if r.random() < 0.9 else n + 1]
        form = r.choice(("vector", "batch-vector", "matrix", "batched-matrix", "broadcast"))
        b = {
            "vector": [n],
            "batch-vector": batch + [n],
            "matrix": [n, k],
            "batched-matrix": batch + [n, k],
            "broadcast": [1] * len(batch) + [n, k],
        }[form]
        if r.random() < 0.15:
            b[-1 if form in ("vector", "batch-vector") else -2] += 1
        eye = f" + {m}.eye({n})" if a[-1] == a[-2] else ""  # ones + identity: never singular
        setup = [f"a = {fw.tensor(tuple(a))}{eye}", f"b = {fw.tensor(tuple(b))}"]
        return Case("linalg:solve", fw.name, setup, f"{m}.linalg.solve(a, b)")

    g["solve"] = solve

    # --- linalg.qr: q or r of a (batched) matrix, reduced (the default) or complete
    def qr(r: random.Random) -> Case:
        shape = list(rand_shape(r, 0, 2)) + [r.randint(1, 5), r.randint(1, 5)]
        mode = r.choice(("", "", ", mode='reduced'", ", mode='complete'"))
        setup = [f"a = {fw.tensor(tuple(shape))}"]
        return Case("linalg:qr", fw.name, setup, f"{m}.linalg.qr(a{mode})[{r.choice((0, 1))}]")

    g["qr"] = qr

    # --- linalg.cholesky: the factor of a (batched) positive-definite matrix (a non-square one: the framework raises)
    def cholesky(r: random.Random) -> Case:
        n = r.randint(1, 4)
        shape = list(rand_shape(r, 0, 2)) + [n, n if r.random() < 0.9 else n + 1]
        eye = f" + {n} * {m}.eye({n})" if shape[-1] == shape[-2] else ""  # ones + n * identity: positive definite
        return Case("linalg:cholesky", fw.name, [f"a = {fw.tensor(tuple(shape))}{eye}"], f"{m}.linalg.cholesky(a)")

    g["cholesky"] = cholesky

    # --- linalg.eigh / eig / eigvalsh / eigvals: eigenvalues (..., n) and eigenvectors (..., n, n) of a (batched)
    # square matrix (a non-square one: the framework raises); linalg.svd: (U, S, Vh), full or reduced
    def eig(r: random.Random, pick: str = "") -> Case:
        n = r.randint(1, 4)
        shape = list(rand_shape(r, 0, 2)) + [n, n if r.random() < 0.9 else n + 1]
        eye = f" + {n} * {m}.eye({n})" if shape[-1] == shape[-2] else ""  # symmetric: real eigenvalues
        expr = f"{m}.linalg.{pick}(a)" + (f"[{r.choice((0, 1))}]" if pick in ("eigh", "eig") else "")
        return Case(f"linalg:{pick}", fw.name, [f"a = {fw.tensor(tuple(shape))}{eye}"], expr)

    _each(g, "linalg", eig, ["eigh", "eig", "eigvalsh", "eigvals"])

    def svd(r: random.Random) -> Case:
        shape = list(rand_shape(r, 0, 2)) + [r.randint(1, 5), r.randint(1, 5)]
        full = r.choice(("", ", full_matrices=False", ", full_matrices=True", ", False"))
        setup = [f"a = {fw.tensor(tuple(shape))}"]
        if fw.name != "torch" and r.random() < 0.2:
            return Case("linalg:svd", fw.name, setup, f"{m}.linalg.svd(a, compute_uv=False)")
        return Case("linalg:svd", fw.name, setup, f"{m}.linalg.svd(a{full})[{r.choice((0, 1, 2))}]")

    g["svd"] = svd

    # --- diag: a 1-d array on the k-th diagonal of a square matrix, or the k-th diagonal of a 2-d array
    def diag(r: random.Random) -> Case:
        shape = rand_shape(r, 1, 2)
        k = r.randint(-2, 2)
        return Case("diag", fw.name, [f"a = {fw.tensor(tuple(shape))}"], f"{m}.diag(a, {k})")

    g["diag"] = diag

    # --- reductions
    def reduction(r: random.Random, pick: str = "") -> Case:
        name = pick
        dt = r.choice((fw.bool_dtype, fw.int_dtype, fw.dtypes[2], None, None))
        s, x = x_of(r, 0, 4, dt)
        d = dim_value(r, len(s))
        args: list[str] = []
        method = r.random() < 0.5
        if d is not None:
            if r.random() < 0.5:
                args.append(d)
            else:
                args.append(f"{r.choice((fw.axis, fw.axis, 'axis' if fw.name == 'torch' else fw.axis))}={d}")
        if r.random() < 0.4:
            kv = r.choice(("True", "False"))
            if args and not args[0].startswith(("axis", "dim")) and fw.name == "torch" and r.random() < 0.4:
                args.append(kv)
            else:
                args.append(f"{r.choice((fw.keep, fw.keep, 'keepdims' if fw.name == 'torch' else fw.keep))}={kv}")
        if name in ("std", "var") and fw.name == "torch" and r.random() < 0.3 and args and "=" not in args[0]:
            args.insert(1, r.choice(("True", "False")))  # x.std(1, True): unbiased, not keepdim
        if (
            fw.name != "torch"
            and name in ("sum", "mean", "prod", "std", "var", "nansum", "nanmean")
            and args
            and "=" not in args[0]
            and r.random() < 0.3
        ):
            args.insert(1, r.choice(fw.dtypes))  # np.sum(x, 0, np.float32)
        if name == "norm" and r.random() < 0.3:
            args.insert(0, r.choice(("2", "1")) if fw.name == "torch" else "ord=2")
        expr = (
            f"x.{name}({', '.join(args)})"
            if method and fw.has_method(name)
            else f"{m}.{name}(x{''.join(', ' + a for a in args)})"
        )
        if name == "norm" and fw.name != "torch":
            expr = f"{m}.linalg.norm(x{''.join(', ' + a for a in args)})"
        return _maybe_index(r, Case(f"reduce:{name}", fw.name, [x], expr))

    _each(g, "reduce", reduction, sorted(n for n in REDUCTIONS if fw.has(f"x.{n}") or fw.has_method(n)))

    def cumulative(r: random.Random, pick: str = "") -> Case:
        name = pick
        s, x = x_of(r, 0, 4, r.choice((fw.bool_dtype, fw.int_dtype, None, None)))
        d = dim_value(r, len(s), allow_tuple=False)
        args = [] if d is None else [d if r.random() < 0.5 else f"{fw.axis}={d}"]
        if r.random() < 0.3:
            args.append(f"dtype={r.choice(fw.dtypes)}")
        method = r.random() < 0.5 and fw.name != "jax"
        expr = f"x.{name}({', '.join(args)})" if method else f"{m}.{name}(x{''.join(', ' + a for a in args)})"
        return _maybe_index(r, Case(f"cumulative:{name}", fw.name, [x], expr))

    _each(g, "cumulative", cumulative, [n for n in CUMULATIVE if fw.has(f"x.{n}") or fw.has_method(n)])

    # --- shape ops
    def reshape(r: random.Random) -> Case:
        s, x = x_of(r, 0, 4)
        total = 1
        for v in s:
            total *= v
        target = factorise(r, total if r.random() < 0.85 else total + 1)
        if target and r.random() < 0.4:
            target[r.randrange(len(target))] = -1
        name = r.choice(("reshape", "reshape", "view")) if fw.name == "torch" else "reshape"
        form = r.random()
        if form < 0.4 and target:
            expr = f"x.{name}({', '.join(map(str, target))})"
        elif form < 0.7:
            expr = f"x.{name}({shape_src(target)})"
        elif form < 0.85:
            expr = f"{m}.reshape(x, {shape_src(target)})"
        else:
            expr = (
                f"x.{name}({'shape' if fw.name != 'torch' else 'shape'}={shape_src(target)})"
                if name == "reshape"
                else f"x.view({shape_src(target)})"
            )
        return _maybe_index(r, Case(f"shape:{name}", fw.name, [x], expr))

    g["shape:reshape"] = reshape

    if fw.name == "torch":

        def reshape_as(r: random.Random) -> Case:
            s, x = x_of(r, 0, 4)
            total = 1
            for v in s:
                total *= v
            target = factorise(r, total if r.random() < 0.85 else total + 1)
            name = r.choice(("reshape_as", "view_as"))
            return _maybe_index(r, Case(f"shape:{name}", fw.name, [x], f"x.{name}({fw.tensor(tuple(target))})"))

        g["shape:reshape_as"] = reshape_as

        def randperm(r: random.Random) -> Case:
            n = r.choice((0, 1, 3, 5))
            arg = r.choice((str(n), f"n={n}", f"len(torch.zeros({n}, 2))"))
            dt = r.choice(("", ", dtype=torch.int32", ", device='cpu'"))
            return _maybe_index(r, Case("construct:randperm", fw.name, [], f"torch.randperm({arg}{dt})"))

        g["construct:randperm"] = randperm

    def transpose(r: random.Random) -> Case:
        s, x = x_of(r, 1, 4)
        rank = len(s)
        perm = list(range(rank))
        r.shuffle(perm)
        a, b = r.randrange(-rank, rank), r.randrange(-rank, rank)
        choices = [
            f"x.transpose({a}, {b})",
            f"x.swapaxes({a}, {b})",
            f"{m}.swapaxes(x, {a}, {b})",
            f"{m}.moveaxis(x, {a}, {b})",
            f"{m}.transpose(x, {shape_src(perm)})",
        ]
        if fw.name == "torch":
            choices += [
                f"x.permute({', '.join(map(str, perm))})",
                f"x.permute({shape_src(perm)})",
                f"x.permute(dims={shape_src(perm)})",
                f"torch.permute(x, {shape_src(perm)})",
                f"x.movedim({a}, {b})",
                f"x.swapdims({a}, {b})",
                f"torch.transpose(x, {a}, {b})",
                f"x.moveaxis({a}, {b})",
            ]
        else:
            choices += [
                f"x.transpose({', '.join(map(str, perm))})",
                f"x.transpose({shape_src(perm)})",
                "x.transpose()",
                f"{m}.transpose(x)",
                f"{m}.moveaxis(x, {shape_src(perm[:1])}, {shape_src([r.randrange(rank)])})",
            ]
        expr = r.choice(choices)
        op = "shape:" + expr.replace("x.", "").replace(f"{m}.", "").split("(")[0]
        return _maybe_index(r, Case(op, fw.name, [x], expr))

    g["shape:transpose"] = transpose

    def unsqueeze(r: random.Random) -> Case:
        s, x = x_of(r)
        d = r.randint(-len(s) - 2, len(s) + 1)
        if fw.name == "torch":
            expr = r.choice((f"x.unsqueeze({d})", f"torch.unsqueeze(x, {d})", f"x.unsqueeze(dim={d})"))
        else:
            expr = r.choice(
                (
                    f"{m}.expand_dims(x, {d})",
                    f"{m}.expand_dims(x, axis={d})",
                    f"{m}.expand_dims(x, {shape_src([d, (d + 1) % (len(s) + 2)])})",
                )
            )
        return _maybe_index(
            r, Case("shape:unsqueeze" if fw.name == "torch" else "shape:expand_dims", fw.name, [x], expr)
        )

    g["shape:unsqueeze"] = unsqueeze

    def squeeze(r: random.Random) -> Case:
        s = tuple(1 if r.random() < 0.4 else v for v in rand_shape(r, 0, 4))
        x = f"x = {fw.tensor(s)}"
        d = dim_value(r, len(s), allow_none=False)
        arg = "" if d is None else (d if r.random() < 0.5 else f"{fw.axis}={d}")
        expr = r.choice((f"x.squeeze({arg})", f"{m}.squeeze(x{', ' + arg if arg else ''})"))
        return _maybe_index(r, Case("shape:squeeze", fw.name, [x], expr))

    g["shape:squeeze"] = squeeze

    def flatten(r: random.Random) -> Case:
        s, x = x_of(r)
        if fw.name == "torch":
            a, b = r.randint(-3, 3), r.randint(-3, 3)
            expr = r.choice(
                (
                    "x.flatten()",
                    f"x.flatten({a})",
                    f"x.flatten({a}, {b})",
                    f"torch.flatten(x, {a})",
                    f"x.flatten(start_dim={a}, end_dim={b})",
                    f"torch.flatten(x, start_dim={a})",
                )
            )
        else:
            expr = r.choice(("x.flatten()", f"{m}.ravel(x)", "x.ravel()", "x.flatten(order='F')"))
        return _maybe_index(r, Case("shape:flatten", fw.name, [x], expr))

    g["shape:flatten"] = flatten

    def broadcast_to(r: random.Random) -> Case:
        s, x = x_of(r, 0, 3)
        target = list(s)
        target = [r.choice((2, 3)) if v == 1 and r.random() < 0.5 else v for v in target]
        target = [r.choice((1, 2, 3)) for _ in range(r.randint(0, 2))] + target
        if r.random() < 0.15 and target:
            target[r.randrange(len(target))] += 1
        if fw.name == "torch":
            t2 = [-1 if r.random() < 0.2 and i >= len(target) - len(s) else v for i, v in enumerate(target)]
            expr = r.choice(
                (
                    f"x.expand({', '.join(map(str, t2))})",
                    f"x.expand({shape_src(t2)})",
                    f"torch.broadcast_to(x, {shape_src(target)})",
                    f"x.broadcast_to({shape_src(target)})",
                    f"x.expand_as({fw.tensor(tuple(target))})",
                )
            )
        else:
            expr = f"{m}.broadcast_to(x, {shape_src(target)})"
        op = "shape:" + expr.replace("x.", "").replace(f"{m}.", "").split("(")[0]
        return _maybe_index(r, Case(op, fw.name, [x], expr))

    g["shape:expand"] = broadcast_to

    def broadcast_all(r: random.Random) -> Case:
        s, x = x_of(r, 0, 3)
        y = f"y = {fw.tensor(broadcast_partner(r, s))}"
        fn = "torch.broadcast_tensors" if fw.name == "torch" else f"{m}.broadcast_arrays"
        expr = f"{fn}(x, y)[{r.randint(0, 1)}]"
        return Case("shape:" + fn.rsplit(".", 1)[-1], fw.name, [x, y], expr)

    g["shape:broadcast_tensors"] = broadcast_all

    # --- unary same-shape ops
    def unary(r: random.Random, pick: str) -> Case:
        name = pick
        method = fw.has_method(name) and (not fw.has(f"x.{name}") or r.random() < 0.5)
        s, x = x_of(r)
        setup = [x]
        extra = UNARY_ARGS.get(name, "")
        rank = len(s)
        fill = {
            "mask": r.choice(("mask", "mask", "m2 > 0", "x > 0.5")),
            "same": "y",
            "dim": str(r.randrange(-rank, rank) if rank else 0),
            "flipdims": shape_src([r.randrange(rank)]) if rank else "(0,)",
            "dtype": r.choice(fw.dtypes),
        }
        fill["bound"] = r.choice(("0.0", "b"))
        if "{bound}" in extra and fill["bound"] == "b":
            setup.append(f"b = {fw.tensor(broadcast_partner(r, s))}")
        if "{mask}" in extra:
            setup.append(f"mask = {fw.tensor(broadcast_partner(r, s), fw.bool_dtype)}")
            setup.append(f"m2 = {fw.tensor(broadcast_partner(r, s))}")
        if "{same}" in extra:
            setup.append(f"y = {fw.tensor(s if r.random() < 0.8 else broadcast_partner(r, s))}")
        extra = extra.format(**fill)
        if method:
            expr = f"x.{name}({extra})"
        elif not fw.has(f"x.{name}"):  # torch.nn.functional only (dropout2d, hardswish)
            expr = f"F.{name}(x{', ' + extra if extra else ''})"
        else:
            expr = f"{m}.{name}(x{', ' + extra if extra else ''})"
        return _maybe_index(r, Case(f"unary:{name}", fw.name, setup, expr))

    _each(
        g, "unary", unary, sorted(n for n in SAME_SHAPE if fw.has_method(n) or fw.has(f"x.{n}") or fw.has_functional(n))
    )
    # predicates with rules of their own (a bool tensor of the same shape)
    _each(
        g,
        "unary",
        unary,
        sorted(n for n in ("isposinf", "isneginf", "signbit") if fw.has_method(n) or fw.has(f"x.{n}")),
    )

    # --- dtype names called as functions: np.float32(x), jnp.int8(x) (casts)
    def dtype_call(r: random.Random, pick: str) -> Case:
        s, x = x_of(r)
        return _maybe_index(r, Case(f"cast:{pick}", fw.name, [x], f"{m}.{pick}(x)"))

    if fw.name in ("numpy", "jax"):
        _each(g, "cast", dtype_call, sorted(n for n in DTYPE_NAMES if fw.has(f"x.{n}")))

    # --- concatenation
    def concat(r: random.Random, pick: str = "") -> Case:
        name = pick
        s = rand_shape(r, 1, 3)
        n = r.randint(1, 3)
        d = r.randint(-len(s) - 1, len(s))
        shapes = []
        for _ in range(n):
            t = list(s)
            if name not in ("stack",) and r.random() < 0.6:
                t[d % len(s) if -len(s) <= d < len(s) else 0] = r.randint(1, 4)
            if r.random() < 0.1:
                t[r.randrange(len(t))] += 1
            shapes.append(tuple(t))
        if fw.name == "torch" and r.random() < 0.15:
            shapes.insert(r.randint(0, len(shapes)), (0,))  # torch.cat skips 1-d empty operands
            n += 1
        setup = [f"t{i} = {fw.tensor(sh)}" for i, sh in enumerate(shapes)]
        seq = ("[" if r.random() < 0.6 else "(") + ", ".join(f"t{i}" for i in range(n)) + ("," if n == 1 else "")
        seq += "]" if seq[0] == "[" else ")"
        form = r.random()
        if name in ("hstack", "vstack") or form < 0.2:
            expr = f"{m}.{name}({seq})"
        elif form < 0.6:
            expr = f"{m}.{name}({seq}, {d})"
        else:
            expr = f"{m}.{name}({seq}, {fw.axis}={d})"
        return _maybe_index(r, Case(f"concat:{name}", fw.name, setup, expr))

    _each(g, "concat", concat, [n for n in CONCATS if fw.has(f"x.{n}")])

    # --- column_stack: 0-d and 1-d pieces become columns, the others are joined along axis 1 as they are
    def column_stack(r: random.Random) -> Case:
        n = r.randint(1, 4)
        tail = tuple(r.randint(1, 3) for _ in range(r.choice((0, 0, 1))))  # rank-3 pieces now and then
        shapes: list[tuple[int, ...]] = []
        for _ in range(r.randint(1, 3)):
            kind = r.choice(("0d", "1d", "2d", "2d"))
            if kind == "0d" and n == 1 and not tail:
                shapes.append(())
            elif kind == "1d" and not tail:
                shapes.append((n,))
            else:
                shapes.append((n, r.randint(1, 3)) + tail)
            if r.random() < 0.1 and shapes[-1]:
                shapes[-1] = (shapes[-1][0] + 1,) + shapes[-1][1:]
        setup = [f"t{i} = {fw.tensor(sh)}" for i, sh in enumerate(shapes)]
        seq = "[" + ", ".join(f"t{i}" for i in range(len(shapes))) + "]"
        return _maybe_index(r, Case("concat:column_stack", fw.name, setup, f"{m}.column_stack({seq})"))

    if fw.has("x.column_stack"):
        g["concat:column_stack"] = column_stack

    def index(r: random.Random) -> Case:
        s, x = x_of(r, 0, 4)
        rank = len(s)
        items: list[str] = []
        for _ in range(r.randint(1, max(1, rank + 1))):
            items.append(r.choice(("0", "-1", "1", ":", "1:", ":2", "::2", "None", "...", "1:-1", "-2:", "2")))
        if r.random() < 0.4:
            # integer array indices (several broadcast together; placed first when not adjacent), zeros so that every
            # axis takes them; a few shapes that do not broadcast
            for _ in range(r.randint(1, 3)):
                idx = tuple(r.choice((1, 2, 3)) for _ in range(r.randint(0, 2)))
                src = f"{fw.mod}.zeros({shape_src(idx)}, dtype={fw.int_dtype})"
                items.insert(r.randint(0, len(items)), src)
        expr = "x[" + ", ".join(items) + "]"
        if r.random() < 0.15:
            expr = r.choice(
                (
                    "x[x > 0]",
                    f"x[{fw.tensor(s, fw.bool_dtype)}]",
                    f"x[{shape_src([0, 0])}]" if fw.name != "jax" else "x[0]",
                )
            )
        return Case("index", fw.name, [x], expr)

    g["index"] = index

    # --- issue 13: multi-value ops, einsum equations, value-dependent constructors and shape ops
    def pieces(r: random.Random) -> Case:
        s, x = x_of(r, 1, 3)
        d = r.randrange(-len(s), len(s))
        n = r.randint(1, 4)
        sizes = factorise(r, max(1, s[d]))
        choices = (
            [
                f"x.chunk({n}, {d})",
                f"x.chunk({n}, dim={d})",
                f"x.split({n}, {d})",
                f"x.split({list(sizes)}, dim={d})",
                f"x.unbind({d})",
                f"x.topk({n}, {d}).values",  # (k may exceed the axis: RuntimeError)
                f"x.sort({d}).values",
                f"x.max({d}).values",
                f"x.min(dim={d})[0]",
                f"x.median({d}).indices",
                f"torch.chunk(x, {n}, {d})",
                f"x.tensor_split({n}, {d})",
                f"x.kthvalue(1, {d}).values",
                f"x.mode({d}).indices",
            ]
            if fw.name == "torch"
            else [
                f"{m}.split(x, {n}, {d})",
                f"{m}.array_split(x, {n}, {d})",
                f"{m}.sort(x, {d})",
                # indices: the pieces between them (negative, repeated and out-of-range ones too)
                f"{m}.split(x, {sorted(r.sample(range(-2, 7), r.randint(1, 3)))}, {d})",
                f"{m}.array_split(x, {[r.randint(-3, 6) for _ in range(r.randint(1, 3))]}, axis={d})",
            ]
        )
        expr = r.choice(choices)
        op = "multi:" + expr.replace("x.", "").replace(f"{m}.", "").split("(")[0]
        post = (
            r.choice(("[0]", "[-1]", ""))
            if not expr.endswith(("values", "indices", "]")) and "sort" not in expr
            else ""
        )
        return Case(op, fw.name, [x], expr + post)

    g["multi"] = pieces

    def einsum(r: random.Random) -> Case:
        letters = "ijkl"
        ra, rb = r.randint(1, 3), r.randint(1, 3)
        sizes = {c: r.randint(1, 4) for c in letters}
        la = "".join(r.sample(letters, ra))
        lb = "".join(r.sample(letters, rb))
        out = "".join(c for c in letters if (c in la) != (c in lb) or r.random() < 0.3 if c in la + lb)
        a = tuple(sizes[c] for c in la)
        b = tuple(sizes[c] if r.random() < 0.9 else sizes[c] + 1 for c in lb)
        eq = f"{la},{lb}->{out}" if r.random() < 0.8 else f"{la},{lb}"
        setup = [f"a = {fw.tensor(a)}", f"b = {fw.tensor(b)}"]
        return _maybe_index(r, Case("einsum:einsum", fw.name, setup, f"{m}.einsum('{eq}', a, b)"), 0.1)

    g["einsum"] = einsum

    def valued(r: random.Random) -> Case:
        n, k = r.randint(0, 5), r.randint(1, 4)
        s = rand_shape(r, 1, 3)
        setup = [f"x = {fw.tensor(s)}"]
        choices = [
            f"{m}.linspace(0, 1, {n})",
            f"{m}.logspace(0, 1, {n})",
            f"{m}.eye({k})",
            f"{m}.eye({k}, {n})",
            f"{m}.meshgrid({m}.ones({k}), {m}.ones({n}))[0]",
            f"{m}.meshgrid({m}.ones({k}), {m}.ones({n}), indexing='ij')[1]",
            f"{m}.tile(x, {shape_src([k] * r.randint(1, 3))})",
            f"{m}.ravel(x)",
            f"{m}.atleast_1d(x)",
            f"{m}.atleast_2d(x)",
            f"{m}.atleast_3d(x)",
            f"{m}.atleast_2d(x[0])",
            f"{m}.atleast_3d(x[0])",
        ]
        if fw.name == "torch":
            choices += [
                f"F.pad(x, {shape_src([r.randint(0, 2) for _ in range(2 * r.randint(1, len(s)))])})",
                # a length that is odd or longer than two per axis: torch raises
                f"F.pad(x, {shape_src([r.randint(0, 2) for _ in range(r.randint(1, 2 * len(s) + 3))])})",
                f"x.tile({shape_src([k])})",
                f"x.index_select({r.randrange(len(s))}, torch.zeros({n}, dtype=torch.int64))",
                f"x.gather({r.randrange(len(s))}, torch.zeros({shape_src(s)}, dtype=torch.int64))",
                f"x.take(torch.zeros({shape_src(rand_shape(r, 0, 2))}, dtype=torch.int64))",
                f"torch.take(x, torch.zeros({shape_src(rand_shape(r, 0, 2))}, dtype=torch.int64))",
                "x.nonzero()",
                "torch.nonzero(x > 0)",
                "torch.argwhere(x)",
                "x.nonzero(as_tuple=True)[0]",
                "x[x > 0]",
            ]
        else:
            idx = f"{m}.zeros({shape_src(rand_shape(r, 0, 2))}, dtype={m}.int32)"
            axis = r.choice(("", f", axis={r.randrange(-len(s), len(s))}", ", axis=None"))
            choices += [
                f"{m}.linspace(0, 1)",
                f"{m}.linspace(0, 1, num={n})",
                "x[x > 0]",
                f"{m}.pad(x, 1)",
                f"{m}.take(x, {idx}{axis})",
                f"{m}.take(x, {r.choice(('0', '[0, 0, 0]', '(0,)'))}{axis})",
                f"x.take({idx}{axis})",
                f"{m}.nonzero(x)[0]",
                "x.nonzero()[-1]",
                f"{m}.argwhere(x)",
            ]
        expr = r.choice(choices)
        op = (
            "valued:mask_index"
            if expr == "x[x > 0]"
            else "valued:" + expr.replace("x.", "").replace(f"{m}.", "").replace("F.", "").split("(")[0]
        )
        return _maybe_index(r, Case(op, fw.name, setup, expr), 0.15)

    g["valued"] = valued
    g["method:diff"] = _diff_gen(fw)
    if fw.name == "torch":
        g["function:grid_sample"] = _grid_sample_gen(fw)
    return g


def _grid_sample_gen(fw: Framework) -> Gen:
    """``F.grid_sample(input, grid)``: a 4-d input sampled at a (N, Ho, Wo, 2) grid, or a 5-d one at a
    (N, Do, Ho, Wo, 3) grid; sometimes the batch sizes differ, or the grid's last axis is wrong."""

    def gen(r: random.Random) -> Case:
        k = r.choice((2, 3))
        n = r.randint(1, 3)
        src = [n, r.randint(1, 4), *(r.randint(1, 6) for _ in range(k))]
        out = [n, *(r.randint(1, 5) for _ in range(k)), k]
        pick = r.random()
        if pick < 0.15:
            out[0] = n + 1
        elif pick < 0.25:
            out[-1] = 5 - k
        kw = r.choice(("", ", align_corners=False", ", mode='nearest', padding_mode='border', align_corners=True"))
        setup = [f"x = {fw.tensor(tuple(src))}", f"grid = {fw.tensor(tuple(out))}"]
        expr = r.choice((f"F.grid_sample(x, grid{kw})", f"torch.nn.functional.grid_sample(input=x, grid=grid{kw})"))
        return _maybe_index(r, Case("function:grid_sample", fw.name, setup, expr))

    return gen


def factorise(r: random.Random, total: int) -> list[int]:
    out = []
    while total > 1 and len(out) < 4:
        divs = [d for d in range(1, total + 1) if total % d == 0]
        d = r.choice(divs)
        out.append(d)
        total //= d
    if total > 1:
        out.append(total)
    if r.random() < 0.3:
        out.insert(r.randint(0, len(out)), 1)
    return out


def torch_generators(fw: Framework) -> dict[str, Gen]:
    g: dict[str, Gen] = {}
    for name in ("rand", "randn"):
        g[f"construct:{name}"] = _sized_ctor(fw, name)

    def randint(r: random.Random) -> Case:
        s = rand_shape(r, 0, 3)
        expr = r.choice(
            (
                f"torch.randint(0, 5, {shape_src(s)})",
                f"torch.randint(5, {shape_src(s)})",
                f"torch.randint(0, 5, size={shape_src(s)})",
                f"torch.randint(low=0, high=5, size={shape_src(s)})",
                f"torch.randint(0, 5, {shape_src(s)}, dtype=torch.int32)",
            )
        )
        return _maybe_index(r, Case("construct:randint", fw.name, [], expr))

    g["construct:randint"] = randint

    def window(r: random.Random) -> Case:
        name = r.choice(("hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"))
        n = r.randint(1, 9)
        expr = r.choice(
            (f"torch.{name}({n})", f"torch.{name}(window_length={n})", f"torch.{name}({n}, dtype=torch.float64)")
        )
        return _maybe_index(r, Case(f"construct:{name}", fw.name, [], expr))

    g["construct:window"] = window

    def adaptive_pool(r: random.Random, pick: str = "") -> Case:
        # F.adaptive_avg_pool2d(x, output_size): (N, C, *spatial) or (C, *spatial), spatial axes set (None keeps one)
        n = int(pick[-2])
        s = tuple(r.randint(1, 6) for _ in range(n + r.choice((1, 2))))
        size = r.choice(
            (
                str(r.randint(1, 4)),
                "(" + ", ".join(r.choice(("1", "2", "3", "None")) for _ in range(n)) + ("," if n == 1 else "") + ")",
            )
        )
        how = r.choice(("", "output_size=")) if r.random() < 0.9 else ""
        return _maybe_index(
            r, Case(f"adaptive_pool:{pick}", fw.name, [f"x = {fw.tensor(s)}"], f"F.{pick}(x, {how}{size})")
        )

    _each(g, "adaptive_pool", adaptive_pool, [f"adaptive_{k}_pool{n}d" for k in ("avg", "max") for n in (1, 2, 3)])

    def fft(r: random.Random, pick: str = "") -> Case:
        s = rand_shape(r, 1, 3)
        n = "" if r.random() < 0.5 else f", n={r.randint(1, 9)}" if r.random() < 0.7 else f", {r.randint(1, 9)}"
        dim = "" if r.random() < 0.4 else f", dim={r.randint(-len(s), len(s) - 1)}"
        return _maybe_index(r, Case(f"fft:{pick}", fw.name, [f"x = {fw.tensor(s)}"], f"torch.fft.{pick}(x{n}{dim})"))

    _each(g, "fft", fft, ["fft", "ifft", "rfft", "irfft"])

    def complex_parts(r: random.Random, pick: str = "") -> Case:
        # torch.polar(abs, angle) / torch.complex(real, imag): the parts broadcast, float32 / float64 give complex
        a = rand_shape(r, 0, 3)
        b = broadcast_partner(r, a)
        dt = r.choice(("", ", dtype=torch.float64"))
        setup = [f"a = torch.rand({shape_src(a)}{dt})", f"b = torch.rand({shape_src(b)}{dt})"]
        kw = ("abs", "angle") if pick == "polar" else ("real", "imag")
        expr = r.choice((f"torch.{pick}(a, b)", f"torch.{pick}(a, {kw[1]}=b)", f"torch.{pick}({kw[0]}=a, {kw[1]}=b)"))
        return _maybe_index(r, Case(f"complex:{pick}", fw.name, setup, expr))

    _each(g, "complex", complex_parts, ["polar", "complex"])

    def fftn(r: random.Random, pick: str = "") -> Case:
        s = rand_shape(r, 2 if pick.endswith("2") else 1, 4)
        s_arg, dim = _fftn_arguments(r, pick, len(s), "dim")
        return _maybe_index(
            r, Case(f"fft:{pick}", fw.name, [f"x = {fw.tensor(s)}"], f"torch.fft.{pick}(x{s_arg}{dim})")
        )

    _each(g, "fft", fftn, list(_FFTN))

    def tensor_class(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        as_tuple = r.random() < 0.2
        data: Any = 0.5
        for n in reversed(s):
            data = tuple([data] * n) if as_tuple else [data] * n
        name = r.choice(("Tensor", "FloatTensor"))
        return _maybe_index(r, Case(f"construct:{name}", fw.name, [], f"torch.{name}({data!r})"))

    g["construct:Tensor"] = tensor_class

    def unfold(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        d = r.randrange(len(s))
        size = r.randint(0, s[d] + 1)
        step = r.randint(1, 3)
        dim = r.choice((d, d - len(s)))
        expr = r.choice((f"x.unfold({dim}, {size}, {step})", f"x.unfold(dimension={dim}, size={size}, step={step})"))
        return _maybe_index(r, Case("method:unfold", fw.name, [f"x = {fw.tensor(s)}"], expr))

    g["method:unfold"] = unfold

    def new_sized(r: random.Random) -> Case:
        s = rand_shape(r, 0, 3)
        size = rand_shape(r, 0, 3)
        name = r.choice(("new_zeros", "new_ones", "new_empty", "new_full"))
        fill = ", 2.0" if name == "new_full" else ""
        forms = [
            f"x.{name}({shape_src(size)}{fill})",
            f"x.{name}(size={shape_src(size)}{fill.replace(', ', ', fill_value=')})",
        ]
        if name != "new_full" and size:
            forms.append(f"x.{name}({', '.join(str(d) for d in size)})")
            forms.append(f"x.{name}({', '.join(str(d) for d in size)}, dtype=torch.bool)")
        return _maybe_index(r, Case(f"method:{name}", fw.name, [f"x = {fw.tensor(s)}"], r.choice(forms)))

    g["method:new_zeros"] = new_sized

    def new_tensor(r: random.Random) -> Case:
        s = rand_shape(r, 0, 3)
        data = r.choice(("[1.0, 2.0]", "[[1, 2, 3], [4, 5, 6]]", "[float('inf')]", "3.0", "[]"))
        forms = [f"x.new_tensor({data})", f"x.new_tensor({data}, dtype=torch.float64)"]
        return _maybe_index(r, Case("method:new_tensor", fw.name, [f"x = {fw.tensor(s)}"], r.choice(forms)))

    g["method:new_tensor"] = new_tensor

    def repeat_interleave(r: random.Random) -> Case:
        s = rand_shape(r, 0, 3)
        n = r.randint(0, 3)
        setup = [f"x = {fw.tensor(s)}"]
        if not s or r.random() < 0.2:
            forms = [f"x.repeat_interleave({n})", f"torch.repeat_interleave(x, {n})"]
        else:
            d = r.randrange(-len(s), len(s))
            forms = [
                f"x.repeat_interleave({n}, {d})",
                f"x.repeat_interleave({n}, dim={d})",
                f"torch.repeat_interleave(x, {n}, dim={d})",
            ]
            if r.random() < 0.2:
                setup.append(f"reps = torch.ones({s[d]}, dtype=torch.int64)")
                forms = [f"x.repeat_interleave(reps, dim={d})"]
        return _maybe_index(r, Case("method:repeat_interleave", fw.name, setup, r.choice(forms)))

    g["method:repeat_interleave"] = repeat_interleave

    def multinomial(r: random.Random) -> Case:
        s = rand_shape(r, 1, 2)
        n = r.randint(0, 4)
        rep = r.choice(["", ", True", ", False", ", replacement=True"])
        forms = [
            f"x.multinomial({n}{rep})",
            f"torch.multinomial(x, {n}{rep})",
            f"torch.multinomial(x, num_samples={n})",
        ]
        return Case("method:multinomial", fw.name, [f"x = {fw.tensor(s)}"], r.choice(forms))

    g["method:multinomial"] = multinomial

    def fill_diagonal(r: random.Random) -> Case:
        s = rand_shape(r, 2, 2) if r.random() < 0.7 else (r.randint(1, 3),) * r.randint(1, 4)
        wrap = r.choice(["", ", wrap=True", ", True"])
        return Case("method:fill_diagonal_", fw.name, [f"x = {fw.tensor(s)}"], f"x.fill_diagonal_(0.5{wrap})")

    g["method:fill_diagonal_"] = fill_diagonal

    def transpose_t(r: random.Random) -> Case:
        s = rand_shape(r, 0, 3)
        expr = r.choice(("x.t()", "torch.t(x)", "x.t() @ x" if len(s) == 2 else "x.t()"))
        return _maybe_index(r, Case("method:t", fw.name, [f"x = {fw.tensor(s)}"], expr))

    g["method:t"] = transpose_t

    def binary_extreme(r: random.Random) -> Case:
        a = rand_shape(r, 0, 3)
        b = broadcast_partner(r, a)
        name = r.choice(("max", "min"))
        expr = r.choice((f"torch.{name}(a, b)", f"a.{name}(b)", f"torch.{name}(a, other=b)"))
        setup = [f"a = {fw.tensor(a)}", f"b = {fw.tensor(b)}"]
        return _maybe_index(r, Case(f"method:{name}", fw.name, setup, expr))

    g["method:binary_extreme"] = binary_extreme

    def gather(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        d = r.randrange(len(s))
        # an index of the input's rank (now and then another rank), each axis up to one larger than the input's
        rank = len(s) if r.random() < 0.8 else r.randint(1, 3)
        idx = tuple(r.randint(0, (s[i] if i < len(s) else 3) + 1) if i != d else r.randint(0, 6) for i in range(rank))
        dim = r.choice((d, d - len(s)))
        index = f"torch.zeros({shape_src(idx)}, dtype=torch.int64)"
        expr = r.choice(
            (f"x.gather({dim}, {index})", f"torch.gather(x, {dim}, {index})", f"x.gather(dim={dim}, index={index})")
        )
        return _maybe_index(r, Case("method:gather", fw.name, [f"x = {fw.tensor(s)}"], expr))

    g["method:gather"] = gather

    def index_add(r: random.Random) -> Case:
        s = rand_shape(r, 0, 3)
        d = r.randrange(len(s)) if s else 0
        n = r.randint(0, 4)
        src = [s[i] if i != d else n for i in range(len(s))]
        roll = r.random()
        if roll < 0.15 and src:
            src[r.randrange(len(src))] += 1
        elif roll < 0.25:
            src = src[1:] if src else [1]
        count = n if r.random() < 0.85 else n + 1
        index_shape: tuple[int, ...] = (count,) if r.random() < 0.9 else (count, 2)
        setup = [
            f"x = {fw.tensor(s)}",
            f"i = torch.zeros({shape_src(index_shape)}, dtype=torch.int64)",
            f"src = {fw.tensor(tuple(src))}",
        ]
        expr = r.choice(
            (
                f"x.index_add({d}, i, src)",
                f"x.index_add_({d}, i, src)",
                f"torch.index_add(x, {d}, i, src)",
                f"x.index_add({d}, i, src, alpha=2)",
                f"x.index_add(dim={d}, index=i, source=src)",
            )
        )
        op = "method:index_add_" if "index_add_(" in expr else "method:index_add"
        return _maybe_index(r, Case(op, fw.name, setup, expr))

    g["method:index_add"] = index_add

    def scatter(r: random.Random) -> Case:
        # out of place: a copy of x (an index no larger than x and src along each axis; now and then a larger one)
        s = rand_shape(r, 1, 3)
        d = r.randrange(len(s))
        idx = tuple(r.randint(0, n) for n in s)
        if r.random() < 0.1:
            idx = tuple(n + (1 if i != d else 0) for i, n in enumerate(idx))
        setup = [
            f"x = {fw.tensor(s)}",
            f"i = torch.zeros({shape_src(idx)}, dtype=torch.int64)",
            f"src = {fw.tensor(idx)}",
        ]
        dim = r.choice((d, d - len(s)))
        expr = r.choice(
            (
                f"x.scatter({dim}, i, src)",
                f"torch.scatter(x, {dim}, i, src)",
                f"x.scatter_add({dim}, i, src)",
                f"x.scatter_reduce({dim}, i, src, reduce='amax')",
                f"x.scatter(dim={dim}, index=i, src=src)",
            )
        )
        op = "method:" + expr.split("(", 1)[0].rsplit(".", 1)[-1]
        return _maybe_index(r, Case(op, fw.name, setup, expr))

    g["method:scatter"] = scatter

    def stft(r: random.Random) -> Case:
        length = r.randint(1, 40)
        s = (length,) if r.random() < 0.4 else (r.randint(1, 3), length)
        n = r.randint(1, 16)
        parts = [str(n)]
        if r.random() < 0.6:
            parts.append(f"hop_length={r.randint(1, 6)}")
        if r.random() < 0.3:
            parts.append(f"center={r.random() < 0.5}")
        if r.random() < 0.3:
            parts.append(f"onesided={r.random() < 0.5}")
        if r.random() < 0.2:
            parts.append("pad_mode='constant'")
        if r.random() < 0.2:
            parts.append(f"window=torch.hann_window({n})")
        parts.append(f"return_complex={r.random() < 0.8}")
        call = r.choice(("torch.stft(x, ", "x.stft("))
        return _maybe_index(r, Case("method:stft", fw.name, [f"x = {fw.tensor(s)}"], call + ", ".join(parts) + ")"))

    g["method:stft"] = stft

    def view_as_real(r: random.Random) -> Case:
        setup = [f"x = torch.randn({rand_shape(r, 0, 3)!r}, dtype=torch.complex64)"]
        return _maybe_index(r, Case("method:view_as_real", fw.name, setup, "torch.view_as_real(x)"))

    g["method:view_as_real"] = view_as_real

    def view_as_complex(r: random.Random) -> Case:
        last = 2 if r.random() < 0.8 else r.randint(1, 3)
        setup = [f"x = torch.randn({rand_shape(r, 0, 3) + (last,)!r})"]
        return _maybe_index(r, Case("method:view_as_complex", fw.name, setup, "torch.view_as_complex(x)"))

    g["method:view_as_complex"] = view_as_complex

    def tensor_sizes(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        name = r.choice(
            (
                "Tensor",
                "FloatTensor",
                "LongTensor",
                "DoubleTensor",
                "IntTensor",
                "BoolTensor",
                "HalfTensor",
                "BFloat16Tensor",
            )
        )
        args = ", ".join(map(str, s)) if r.random() < 0.8 else f"torch.Size({list(s)})"
        return _maybe_index(r, Case(f"construct:{name}", fw.name, [], f"torch.{name}({args})"))

    g["construct:tensor_sizes"] = tensor_sizes

    def block_diag(r: random.Random) -> Case:
        shapes = [rand_shape(r, 0, 3) for _ in range(r.randint(1, 4))]  # a 3-d block now and then: torch raises
        setup = [f"t{i} = {fw.tensor(sh)}" for i, sh in enumerate(shapes)]
        blocks = ", ".join(f"t{i}" for i in range(len(shapes)))
        expr = f"torch.block_diag({blocks})" if r.random() < 0.7 else f"torch.block_diag(*[{blocks}])"
        return _maybe_index(r, Case("concat:block_diag", fw.name, setup, expr))

    g["concat:block_diag"] = block_diag

    def casts(r: random.Random) -> Case:
        s = rand_shape(r)
        x = f"x = {fw.tensor(s)}"
        expr = r.choice(
            (
                "x.float()",
                "x.half()",
                "x.double()",
                "x.bfloat16()",
                "x.long()",
                "x.int()",
                "x.bool()",
                "x.to(torch.float16)",
                "x.to(dtype=torch.float64)",
                "x.to('cpu')",
                "x.to('cpu', torch.float16)",
                "x.type(torch.float16)",
                "x.type(torch.HalfTensor)",
                "x.type('torch.DoubleTensor')",
                "x.view(torch.int32)",
                # the bytes read as another dtype: the last axis scaled by the item sizes (or a raise)
                "x.view(torch.uint8)",
                "x.view(torch.float16)",
                "x.view(torch.int64)",
                "x.type_as(torch.ones(1, dtype=torch.int64))",
            )
        )
        return _maybe_index(r, Case("cast:" + expr.split("(")[0].replace("x.", ""), fw.name, [x], expr))

    g["cast"] = casts

    def repeat(r: random.Random) -> Case:
        s = rand_shape(r, 0, 3)
        reps = [r.randint(1, 3) for _ in range(max(0, len(s) + r.randint(-1, 2)))]
        x = f"x = {fw.tensor(s)}"
        expr = r.choice((f"x.repeat({', '.join(map(str, reps))})", f"x.repeat({shape_src(reps)})"))
        return _maybe_index(r, Case("shape:repeat", fw.name, [x], expr))

    g["shape:repeat"] = repeat

    def unflatten(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        d = r.randrange(-len(s), len(s))
        target = factorise(r, s[d])
        if target and r.random() < 0.3:
            target[0] = -1
        x = f"x = {fw.tensor(s)}"
        expr = r.choice((f"x.unflatten({d}, {shape_src(target)})", f"torch.unflatten(x, {d}, {shape_src(target)})"))
        return _maybe_index(r, Case("shape:unflatten", fw.name, [x], expr))

    g["shape:unflatten"] = unflatten

    def losses(r: random.Random, pick: str = "") -> Case:
        name = pick or r.choice(sorted(LOSSES))
        a = rand_shape(r, 1, 3)
        b = a if r.random() < 0.6 else broadcast_partner(r, a)
        setup = [f"a = torch.full({shape_src(a)}, 0.5)", f"b = torch.full({shape_src(b)}, 0.5)"]
        red = r.choice(("", ", reduction='none'", ", reduction='sum'", ", reduction='mean'"))
        return _maybe_index(r, Case(f"loss:{name}", fw.name, setup, f"F.{name}(a, b{red})"), 0.1)

    _each(g, "loss", losses, sorted(LOSSES))

    def class_losses(r: random.Random, pick: str = "") -> Case:
        # F.cross_entropy / F.nll_loss with class-index targets: a weight of one entry per class, or one more / less
        name = pick or r.choice(("cross_entropy", "nll_loss"))
        x = rand_shape(r, 1, 4)
        c = x[1] if len(x) >= 2 else x[0]
        target = x[:1] + x[2:] if len(x) >= 2 else ()
        wn = c if r.random() < 0.5 else max(0, c + r.choice((-1, 1, 2)))
        setup = [
            f"a = torch.randn({shape_src(x)})",
            f"t = torch.zeros({shape_src(target)}, dtype=torch.long)",
            f"w = torch.ones({wn})",
        ]
        weight = r.choice(("w", "weight=w", "None"))
        red = r.choice(("", ", reduction='none'", ", reduction='sum'", ", reduction='mean'"))
        return _maybe_index(r, Case(f"class_loss:{name}", fw.name, setup, f"F.{name}(a, t, {weight}{red})"), 0.1)

    _each(g, "class_loss", class_losses, ["cross_entropy", "nll_loss"])

    def layers(r: random.Random, pick: str = "") -> Case:
        kind = pick or r.choice(LAYER_KINDS)
        s = rand_shape(r, 1, 4)
        setup = [f"x = {fw.tensor(s)}"]
        expr = "layer(x)"
        if kind == "Linear":
            fin = s[-1] if r.random() < 0.85 else s[-1] + 1
            setup.append(
                f"layer = nn.Linear({fin}, {r.randint(1, 4)})"
                if r.random() < 0.5
                else f"layer = nn.Linear(in_features={fin}, out_features=3, bias=False)"
            )
        elif kind == "LayerNorm":
            k = r.randint(1, len(s))
            shp = list(s[len(s) - k :])
            if r.random() < 0.15:
                shp[0] += 1
            setup.append(f"layer = nn.LayerNorm({shp[-1] if k == 1 and r.random() < 0.5 else shape_src(shp)})")
        elif kind.startswith("Conv"):
            n = int(kind[4])
            rank = r.choice((n + 1, n + 2, n + 2, n))
            shp = [r.randint(1, 3) for _ in range(rank - n)] + [r.randint(3, 7) for _ in range(n)]
            c = shp[-n - 1] if rank > n else 2
            setup = [f"x = {fw.tensor(tuple(shp))}"]
            k = r.randint(1, 3)
            parts = [
                str(c if r.random() < 0.9 else c + 1),
                str(r.randint(1, 4)),
                str(k) if r.random() < 0.6 else shape_src([k] * n),
            ]
            for kw, vals in (
                ("stride", ("1", "2", shape_src([2] * n))),
                ("padding", ("0", "1", "'same'", "'valid'", shape_src([1] * n))),
                ("dilation", ("1", "2")),
            ):
                if r.random() < 0.4:
                    v = r.choice(vals)
                    if v == "'same'" and "stride" in " ".join(parts):
                        v = "1"
                    parts.append(f"{kw}={v}")
            setup.append(f"layer = nn.{kind}({', '.join(parts)})")
        elif kind == "TransposedConv":
            n = r.randint(1, 3)
            shp = [r.randint(1, 3) for _ in range(r.choice((1, 2, 2)))] + [r.randint(1, 4) for _ in range(n)]
            c = shp[-n - 1]
            setup = [
                f"x = {fw.tensor(tuple(shp))}",
                f"layer = nn.ConvTranspose{n}d({c if r.random() < 0.85 else c + 1}, {r.randint(1, 3)}, {r.randint(1, 3)}",
            ]
            stride = r.choice((1, 2, 3))
            extra = [f"stride={stride}"] if stride > 1 or r.random() < 0.3 else []
            if r.random() < 0.5:
                extra.append(f"padding={r.choice((0, 1, 2))}")
            if stride > 1 and r.random() < 0.5:
                extra.append(f"output_padding={r.randint(0, stride - 1)}")
            if r.random() < 0.3:
                extra.append(f"dilation={r.choice((1, 2))}")
            setup[-1] += "".join(f", {e}" for e in extra) + ")"
        elif kind == "ChannelNorm":
            n = r.randint(1, 3)
            shp = [r.randint(2, 3)] + [r.randint(1, 4) for _ in range(n + (1 if n > 1 or r.random() < 0.5 else 0))]
            c = shp[1] if r.random() < 0.85 else shp[1] + 1
            setup = [
                f"x = {fw.tensor(tuple(shp))}",
                f"layer = nn.{r.choice(('BatchNorm', 'BatchNorm', 'InstanceNorm'))}{n}d({c})",
            ]
        elif kind == "GroupNorm":
            shp = [r.randint(1, 3)] + [r.randint(1, 4) for _ in range(r.randint(1, 3))]
            c = shp[1] if r.random() < 0.85 else shp[1] + 1
            setup = [f"x = {fw.tensor(tuple(shp))}", f"layer = nn.GroupNorm({r.choice((1, c, 2))}, {c})"]
        elif kind == "PixelShuffle":
            f = r.choice((1, 2, 3))
            shuffle = r.random() < 0.5
            lead = [r.randint(1, 2) for _ in range(r.randint(0, 2))]
            if shuffle:
                c = f * f * r.randint(1, 2) if r.random() < 0.85 else f * f + 1
                shp = lead + [c, r.randint(1, 3), r.randint(1, 3)]
            else:
                shp = lead + [r.randint(1, 2)] + [f * r.randint(1, 2) if r.random() < 0.85 else f + 1 for _ in range(2)]
            name = "PixelShuffle" if shuffle else "PixelUnshuffle"
            setup = [f"x = {fw.tensor(tuple(shp))}", f"layer = nn.{name}({f})"]
        elif kind == "Unfold":
            shp = [r.randint(1, 2) for _ in range(r.randint(0, 1))] + [
                r.randint(1, 3),
                r.randint(1, 7),
                r.randint(1, 7),
            ]
            k = r.choice((1, 2, 3, (2, 3), (3, 1)))
            extra = [f"stride={r.choice((1, 2, (2, 1)))}"] if r.random() < 0.5 else []
            if r.random() < 0.4:
                extra.append(f"padding={r.choice((0, 1, (1, 0)))}")
            if r.random() < 0.3:
                extra.append(f"dilation={r.choice((1, 2))}")
            functional = r.random() < 0.3
            args = "".join(f", {e}" for e in [str(k), *extra])
            setup = [f"x = {fw.tensor(tuple(shp))}"]
            if functional:
                return _maybe_index(r, Case("layer:Unfold", fw.name, setup, f"torch.nn.functional.unfold(x{args})"))
            setup.append(f"layer = nn.Unfold({args[2:]})")
        elif kind == "Embedding":
            setup = [
                f"x = torch.zeros({shape_src(s)}, dtype=torch.int64)",
                f"layer = nn.Embedding(10, {r.randint(1, 4)})",
            ]
        elif kind == "Flatten":
            setup.append(
                r.choice(
                    (
                        "layer = nn.Flatten()",
                        f"layer = nn.Flatten({r.randint(0, 2)})",
                        f"layer = nn.Flatten({r.randint(0, 1)}, {r.randint(-1, 2)})",
                    )
                )
            )
        elif kind == "Loss":
            t = list(s)
            if r.random() < 0.3:
                i = r.randrange(len(t))
                t[i] = r.choice((1, t[i] + 1))
            red = r.choice(("", "reduction='none'", "reduction='sum'"))
            name = r.choice(("MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss"))
            setup += [f"y = {fw.tensor(tuple(t))}", f"layer = nn.{name}({red})"]
            expr = "layer(x, y)"
        elif kind == "ClassLoss":
            # nn.CrossEntropyLoss / nn.NLLLoss with class-index targets and a weight of one entry per class or not
            c = s[1] if len(s) >= 2 else s[0]
            t = s[:1] + s[2:] if len(s) >= 2 else ()
            wn = c if r.random() < 0.5 else max(0, c + r.choice((-1, 1)))
            red = r.choice(("", ", reduction='none'", ", reduction='sum'"))
            w = r.choice((f"weight=torch.ones({wn})", f"torch.ones({wn})", "None"))
            name = r.choice(("CrossEntropyLoss", "NLLLoss"))
            setup += [f"y = torch.zeros({shape_src(t)}, dtype=torch.long)", f"layer = nn.{name}({w}{red})"]
            expr = "layer(x, y)"
        elif kind == "Elementwise":
            setup.append(
                f"layer = nn.{r.choice(('GELU', 'ReLU', 'SiLU', 'Tanh', 'Sigmoid', 'Dropout', 'Identity', 'LeakyReLU', 'Softplus'))}()"
            )
        elif kind == "TransformerBlock":
            shp = [r.randint(1, 3) for _ in range(r.choice((1, 2)))] + [r.choice((2, 4, 6))]
            d = shp[-1] if r.random() < 0.8 else shp[-1] + 2
            bf = r.choice(("True", "False"))
            which = r.choice(("enc_layer", "encoder", "dec_layer", "decoder"))
            setup = [f"x = {fw.tensor(tuple(shp))}"]
            if which.startswith("enc"):
                block = f"nn.TransformerEncoderLayer({d}, 2, dim_feedforward=4, dropout=0.0, batch_first={bf})"
                setup.append(
                    f"layer = {block}"
                    if which == "enc_layer"
                    else f"layer = nn.TransformerEncoder({block}, num_layers=1)"
                )
                expr = r.choice(("layer(x)", "layer(src=x)"))
            else:
                block = f"nn.TransformerDecoderLayer(d_model={d}, nhead=2, dim_feedforward=4, dropout=0.0, batch_first={bf})"
                setup.append(
                    f"layer = {block}"
                    if which == "dec_layer"
                    else f"layer = nn.TransformerDecoder({block}, num_layers=1)"
                )
                expr = r.choice(("layer(x, x)", "layer(tgt=x, memory=x)"))
        else:
            fin = s[-1]
            setup.append(
                f"layer = nn.Sequential(nn.Linear({fin}, 4), nn.GELU(), nn.Linear({4 if r.random() < 0.85 else 5}, 2))"
            )
        return _maybe_index(r, Case(f"layer:{kind}", fw.name, setup, expr), 0.1)

    _each(g, "layer", layers, list(LAYER_KINDS))

    def attention(r: random.Random) -> Case:
        batch = rand_shape(r, 0, 2)
        L, S, E, Ev = (r.randint(1, 4) for _ in range(4))

        def bshape(tail: tuple[int, ...]) -> tuple[int, ...]:
            b = list(batch)
            if b and r.random() < 0.3:
                b[r.randrange(len(b))] = 1
            if b and r.random() < 0.2:
                b = b[1:]
            return tuple(b) + tail

        q, k, v = (
            bshape((L, E)),
            bshape((S, E if r.random() < 0.9 else E + 1)),
            bshape((S if r.random() < 0.9 else S + 1, Ev)),
        )
        setup = [f"q = {fw.tensor(q)}", f"k = {fw.tensor(k)}", f"v = {fw.tensor(v)}"]
        extra = r.choice(("", ", is_causal=True", ", enable_gqa=True", ", dropout_p=0.0", ", scale=0.5"))
        form = r.choice(("q, k, v", "q, k, value=v", "query=q, key=k, value=v"))
        return _maybe_index(
            r,
            Case(
                "attention:scaled_dot_product_attention",
                fw.name,
                setup,
                f"F.scaled_dot_product_attention({form}{extra})",
            ),
            0.1,
        )

    g["attention"] = attention

    def linear(r: random.Random) -> Case:
        x = rand_shape(r, 0, 3) + (r.randint(1, 4),)
        fin = x[-1] if r.random() < 0.85 else x[-1] + 1
        w = (r.randint(1, 4), fin) if r.random() < 0.7 else (fin,)
        setup = [f"x = {fw.tensor(x)}", f"w = {fw.tensor(w)}"]
        bias = r.choice(("", f", bias={fw.tensor(w[:1] if len(w) == 2 else ())}", ", bias=None"))
        form = r.choice(("F.linear(x, w", "F.linear(input=x, weight=w", "torch.nn.functional.linear(x, w"))
        return _maybe_index(r, Case("functional:linear", fw.name, setup, f"{form}{bias})"), 0.1)

    g["functional:linear"] = linear

    def embedding(r: random.Random) -> Case:
        """F.embedding(indices, table): indices of any rank (all 1, in range) into a (num, dim) table, sometimes a
        table of another rank (torch raises; the analyser gives an unknown shape)."""
        x = rand_shape(r, 0, 3)
        w = (r.randint(2, 5), r.randint(1, 4)) if r.random() < 0.85 else rand_shape(r, 1, 3)
        setup = [f"x = {fw.tensor(x, fw.int_dtype)}", f"w = {fw.tensor(w)}"]
        form = r.choice(("F.embedding(x, w)", "F.embedding(input=x, weight=w)", "torch.nn.functional.embedding(x, w)"))
        return _maybe_index(r, Case("functional:embedding", fw.name, setup, form), 0.1)

    g["functional:embedding"] = embedding

    def cosine_similarity(r: random.Random) -> Case:
        """F.cosine_similarity(x1, x2, dim): operands that broadcast (a pairwise matrix from (n, 1, d) and (1, n, d)),
        sometimes not, reduced over one axis of the broadcast shape, sometimes one out of range."""
        n, d = r.randint(1, 4), r.randint(1, 4)
        pairs = (((n, 1, d), (1, n, d)), ((n, d), (n, d)), ((n, d), (d,)), ((n, d), (n + 1, d)), ((2, n, d), (n, d)))
        a, b = r.choice(pairs)
        rank = max(len(a), len(b))
        dim = r.randint(-rank, rank - 1) if r.random() < 0.9 else rank
        setup = [f"a = {fw.tensor(a)}", f"b = {fw.tensor(b)}"]
        form = r.choice(
            (
                f"F.cosine_similarity(a, b, dim={dim})",
                f"torch.cosine_similarity(a, b, {dim})",
                "F.cosine_similarity(a, b)",
            )
        )
        return _maybe_index(r, Case("functional:cosine_similarity", fw.name, setup, form), 0.1)

    g["functional:cosine_similarity"] = cosine_similarity

    def conv(r: random.Random) -> Case:
        """F.conv1d / conv2d / conv3d (and torch.convNd): a weight (out, in / groups, *kernel), mostly fitting."""
        n = r.randint(1, 3)
        groups = r.choice((1, 1, 2))
        cin = groups * r.randint(1, 3)
        spatial = tuple(r.randint(3, 7) for _ in range(n))
        x = ((r.randint(1, 3),) if r.random() < 0.8 else ()) + (cin if r.random() < 0.9 else cin + 1,) + spatial
        if r.random() < 0.05:
            x = x[-n:]  # too few dimensions
        w = (groups * r.randint(1, 2), cin // groups) + tuple(r.randint(1, 3) for _ in range(n))
        setup = [f"x = {fw.tensor(x)}", f"w = {fw.tensor(w)}"]
        extra = r.choice(
            ("", ", padding=1", ", stride=2", ", padding='same'", ", padding='valid'", ", dilation=2", "")
        ) + (f", groups={groups}" if groups > 1 and r.random() < 0.8 else "")
        form = r.choice((f"F.conv{n}d(x, w", f"torch.conv{n}d(x, w", f"F.conv{n}d(input=x, weight=w"))
        return _maybe_index(r, Case(f"functional:conv{n}d", fw.name, setup, f"{form}{extra})"), 0.1)

    g["functional:conv"] = conv

    def convert(r: random.Random) -> Case:
        """Across frameworks: x.numpy() / np.asarray(x) are numpy arrays, torch.from_numpy(a) a tensor."""
        s = rand_shape(r, 1, 4)
        perm = list(range(len(s)))
        r.shuffle(perm)
        then = r.choice(
            (
                f".transpose({', '.join(map(str, perm))})",
                ".flatten()",
                ".T",
                f".sum({r.randrange(len(s))})",
                f".reshape({shape_src([-1])})",
                f".transpose({', '.join(map(str, perm[:2]))})" if len(s) >= 2 else ".T",
            )
        )
        first = r.choice(
            (
                f"torch.ones({shape_src(s)}).numpy()",
                f"np.asarray(torch.ones({shape_src(s)}))",
                f"torch.ones({shape_src(s)}).detach().cpu().numpy()",
                f"torch.from_numpy(np.ones({shape_src(s)}))",
                f"torch.as_tensor(np.ones({shape_src(s)}))",
                f"torch.tensor(np.ones({shape_src(s)}))",
            )
        )
        label = (
            "from_numpy"
            if "from_numpy" in first
            else ("numpy" if ".numpy()" in first else first.split("(")[0].split(".")[-1])
        )
        return Case(f"convert:{label}", fw.name, [f"y = {first}"], f"y{then}")

    g["convert"] = convert

    def grad(r: random.Random) -> Case:
        s = rand_shape(r)
        setup = [f"x = torch.ones({shape_src(s)}, requires_grad=True)", "x.sum().backward()"]
        return Case("attr:grad", fw.name, setup, "x.grad")

    g["attr:grad"] = grad
    return g


def _sized_ctor(fw: Framework, name: str, qual: str | None = None) -> Gen:
    qual = qual or f"{fw.mod}.{name}"

    def gen(r: random.Random) -> Case:
        s = rand_shape(r, 0, 4)
        form = r.choice(("varargs", "varargs", "tuple", "list", "size"))
        if qual.startswith("np.random") and form != "varargs" and r.random() < 0.7:
            form = "varargs"
        size = {
            "varargs": ", ".join(map(str, s)),
            "tuple": shape_src(s),
            "list": "[" + ", ".join(map(str, s)) + "]",
            "size": f"size={shape_src(s)}",
        }[form]
        dt = f", dtype={r.choice(fw.dtypes)}" if fw.name == "torch" and r.random() < 0.3 else ""
        expr = f"{qual}({size}{dt})" if size or not dt else f"{qual}({dt[2:]})"
        return _maybe_index(r, Case(f"construct:{qual.split('.', 1)[1]}", fw.name, [], expr))

    return gen


def numpy_generators(fw: Framework) -> dict[str, Gen]:
    g: dict[str, Gen] = {}

    def window(r: random.Random) -> Case:
        name = r.choice(("hanning", "hamming", "blackman", "bartlett", "kaiser"))
        n = r.randint(-1, 9)
        args = f"{n}, 5.0" if name == "kaiser" else str(n)
        return _maybe_index(r, Case(f"construct:{name}", fw.name, [], f"np.{name}({args})"))

    g["construct:np_window"] = window

    def sliding_window(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        form = r.choice(("int", "all", "axis", "axes", "repeat"))
        a = r.randrange(len(s))
        win = [r.randint(1, x + 1) for x in s]  # a window one larger than its axis: numpy raises
        if form == "int":
            args = str(win[0])
        elif form == "all":
            args = shape_src(tuple(win))
        elif form == "axis":
            args = f"{win[a]}, axis={a - len(s) if r.random() < 0.3 else a}"
        elif form == "axes":
            args = f"({win[a]}, {win[0]}), axis=({a}, 0)"
        else:
            args = f"({max(1, win[a] // 2)}, {max(1, win[a] // 2)}), axis=({a}, {a})"
        expr = f"np.lib.stride_tricks.sliding_window_view(x, {args})"
        return _maybe_index(r, Case("stride:sliding_window_view", fw.name, [f"x = {fw.tensor(s)}"], expr))

    g["stride:sliding_window_view"] = sliding_window

    def concatenate_rows(r: random.Random) -> Case:
        s = rand_shape(r, 1, 4)
        axis = r.choice(("", f", axis={r.randint(-len(s), len(s) - 1)}", ", axis=None"))
        expr = f"np.concatenate(x{axis})"
        return _maybe_index(r, Case("concat:concatenate", fw.name, [f"x = {fw.tensor(s)}"], expr))

    g["concat:concatenate_rows"] = concatenate_rows

    def fft(r: random.Random, pick: str = "") -> Case:
        s = rand_shape(r, 1, 3)
        n = "" if r.random() < 0.5 else f", n={r.randint(1, 9)}" if r.random() < 0.7 else f", {r.randint(1, 9)}"
        axis = "" if r.random() < 0.4 else f", axis={r.randint(-len(s), len(s) - 1)}"
        return _maybe_index(r, Case(f"fft:{pick}", fw.name, [f"x = {fw.tensor(s)}"], f"np.fft.{pick}(x{n}{axis})"))

    _each(g, "fft", fft, ["fft", "ifft", "rfft", "irfft"])

    def fftn(r: random.Random, pick: str = "") -> Case:
        s = rand_shape(r, 2 if pick.endswith("2") else 1, 4)
        s_arg, axes = _fftn_arguments(r, pick, len(s), "axes")
        return _maybe_index(r, Case(f"fft:{pick}", fw.name, [f"x = {fw.tensor(s)}"], f"np.fft.{pick}(x{s_arg}{axes})"))

    _each(g, "fft", fftn, list(_FFTN))

    def fftfreq(r: random.Random, pick: str = "") -> Case:
        n = r.randint(1, 9)
        d = "" if r.random() < 0.5 else ", 0.5"
        return _maybe_index(r, Case(f"construct:{pick}", fw.name, [], f"np.fft.{pick}({n}{d})"))

    _each(g, "construct", fftfreq, ["fftfreq", "rfftfreq"])

    def pad(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        form = r.choice(("int", "one", "pair", "pair1", "rows", "singles", "bad"))
        w = [(r.randint(0, 3), r.randint(0, 3)) for _ in s]
        width = {
            "int": str(w[0][0]),
            "one": f"({w[0][0]},)",
            "pair": f"({w[0][0]}, {w[0][1]})",
            "pair1": f"(({w[0][0]}, {w[0][1]}),)",
            "rows": "(" + ", ".join(f"({a}, {b})" for a, b in w) + ",)",
            "singles": "(" + ", ".join(f"({a},)" for a, _ in w) + ",)",
            "bad": "(" + ", ".join(f"({a}, {b})" for a, b in w + [(1, 1)]) + ",)",
        }[form]
        mode = r.choice(("", ', mode="edge"', ', mode="constant"', ", mode='wrap'"))
        return _maybe_index(r, Case("pad:numpy.pad", fw.name, [f"x = {fw.tensor(s)}"], f"np.pad(x, {width}{mode})"))

    g["pad:numpy.pad"] = pad

    # --- convolve / correlate of two vectors: 'full' n + m - 1, 'same' max(n, m), 'valid' max - min + 1
    def convolve(r: random.Random, pick: str = "") -> Case:
        n, k = r.randint(1, 7), r.randint(1, 7)
        mode = r.choice(("", ", mode='full'", ", mode='same'", ", mode='valid'", ", 'valid'"))
        setup = [f"a = {fw.tensor((n,))}", f"v = {fw.tensor((k,))}"]
        return _maybe_index(r, Case(f"conv1d:{pick}", fw.name, setup, f"np.{pick}(a, v{mode})"))

    _each(g, "conv1d", convolve, ["convolve", "correlate"])
    for name in ("rand", "randn"):
        g[f"construct:random.{name}"] = _sized_ctor(fw, name, f"np.random.{name}")

    def sampler(r: random.Random, pick: str = "") -> Case:
        qual = pick or r.choice(sorted(q for q in RANDOM_SIZED if q.startswith("numpy.")))
        name = qual.rsplit(".", 1)[1]
        pos = RANDOM_SIZED[qual]
        s = rand_shape(r, 0, 3)
        params = {
            0: [],
            1: ["1.0" if name not in ("poisson", "geometric", "chisquare", "standard_t") else "0.5"],
            2: ["0", "5"] if name == "randint" else (["5", "0.5"] if name == "binomial" else ["0.0", "1.0"]),
        }[pos]
        form = r.random()
        if form < 0.4:
            args = params + [shape_src(s)]
        elif form < 0.7:
            args = params + [f"size={shape_src(s)}"]
        elif form < 0.8:
            args = params + [f"size={s[0] if s else 2}"]
        elif form < 0.9:
            args = params
        else:
            args = params[:1] + ([f"{fw.tensor(s)}"] if params else []) + ([] if not params else [])
        expr = f"np.random.{name}({', '.join(args)})"
        return _maybe_index(r, Case(f"construct:random.{name}", fw.name, [], expr))

    _each(g, "construct", sampler, sorted(q for q in RANDOM_SIZED if q.startswith("numpy.")))
    g["repeat:elements"] = _element_repeat(fw)
    g["pad:array"] = _array_pad(fw)

    def rng(r: random.Random) -> Case:
        s = rand_shape(r, 0, 3)
        expr = r.choice(
            (
                f"rng.standard_normal({shape_src(s)})",
                f"rng.random({shape_src(s)})",
                f"rng.normal(0, 1, size={shape_src(s)})",
                f"rng.integers(0, 5, size={shape_src(s)})",
                f"np.random.RandomState(0).randn({', '.join(map(str, s))})",
            )
        )
        return Case("construct:default_rng", fw.name, ["rng = np.random.default_rng(0)"], expr)

    g["construct:default_rng"] = rng

    def choice(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        n = r.choice((5, 40))
        a = r.choice((str(n), f"np.arange({n})", f"np.zeros(({n},), dtype=np.float32)", f"np.zeros(({n}, 2))"))
        size = r.choice((shape_src(s), f"size={shape_src(s)}", str(s[0]), "size=None"))
        replace = r.choice(("", ", replace=False", ", replace=True"))
        gen = r.choice(("np.random", "rng"))
        expr = f"{gen}.choice({a}, {size}{replace})" if "=" not in size else f"{gen}.choice({a}{replace}, {size})"
        return _maybe_index(r, Case("construct:random.choice", fw.name, ["rng = np.random.default_rng(0)"], expr))

    g["construct:random.choice"] = choice

    def permutation(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        gen = r.choice(("np.random", "rng"))
        a = r.choice((str(s[0]), f"len(np.zeros({shape_src(s)}))", f"np.zeros({shape_src(s)})"))
        expr = f"{gen}.permutation({a})"
        setup = ["rng = np.random.default_rng(0)"]
        return _maybe_index(r, Case("construct:random.permutation", fw.name, setup, expr))

    g["construct:random.permutation"] = permutation

    def casts(r: random.Random) -> Case:
        s = rand_shape(r)
        x = f"x = {fw.tensor(s)}"
        expr = r.choice(
            (
                "x.astype(np.float16)",
                "x.astype('float32')",
                "x.astype(dtype=np.int64)",
                "x.view(np.int64)",
                "x.view(np.uint8)",
                "x.view(np.int32)",
                "x.astype(np.float32, copy=False)",
            )
        )
        return _maybe_index(r, Case("cast:astype", fw.name, [x], expr))

    g["cast"] = casts
    return g


def jax_generators(fw: Framework) -> dict[str, Gen]:
    g: dict[str, Gen] = {}
    store = common_generators(fw)["setitem"]

    def at_update(r: random.Random) -> Case:
        """``x.at[index].set(value)`` / ``.add`` / ``.multiply``: the regions and values of ``setitem``."""
        case = store(r)
        index, value = case.setup[1].split("[", 1)[1].split("] = ", 1)
        method = r.choice(("set", "add", "multiply", "max"))
        return Case("setitem", fw.name, case.setup[:1], f"x.at[{index}].{method}({value})")

    g["at_update"] = at_update

    def casts(r: random.Random) -> Case:
        s = rand_shape(r)
        x = f"x = {fw.tensor(s)}"
        expr = r.choice(("x.astype(jnp.float16)", "x.astype('float32')", "x.astype(jnp.bfloat16)"))
        return _maybe_index(r, Case("cast:astype", fw.name, [x], expr))

    g["cast"] = casts

    def random_(r: random.Random) -> Case:
        s = rand_shape(r, 0, 3)
        expr = r.choice(
            (
                f"jax.random.normal(key, {shape_src(s)})",
                f"jax.random.uniform(key, shape={shape_src(s)})",
                f"jax.random.randint(key, {shape_src(s)}, 0, 5)",
                f"jax.random.bernoulli(key, 0.5, {shape_src(s)})",
                f"jax.random.rademacher(key, {shape_src(s)})",
                f"jax.random.cauchy(key, {shape_src(s)})",
                f"jax.random.choice(key, 7, {shape_src(s)})",
                f"jax.random.choice(key, jnp.ones((7, 3)), {shape_src(s)}, axis=-1)",
                "jax.random.permutation(key, 5)",
                f"jax.random.categorical(key, jnp.zeros({shape_src(s + (4,))}))",
                f"jax.random.categorical(key, jnp.zeros({shape_src((4,) + s)}), axis=0)",
                "jax.random.permutation(key, jnp.ones((4, 3)))",
            )
        )
        return Case("construct:jax.random", fw.name, ["key = jax.random.PRNGKey(0)"], expr)

    g["construct:jax.random"] = random_

    def image_resize(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        target = tuple(r.choice((1, 2, 3, 6)) for _ in range(len(s) + (1 if r.random() < 0.1 else 0)))
        method = r.choice(("'linear'", "'nearest'", "'bicubic'", "method='cubic'"))
        x = f"x = {fw.tensor(s)}"
        return _maybe_index(
            r, Case("image:jax.image.resize", fw.name, [x], f"jax.image.resize(x, {shape_src(target)}, {method})")
        )

    g["image:jax.image.resize"] = image_resize

    def top_k(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        k = r.randint(0, max(s[-1], 1))
        axis = r.choice(("", "", f", axis={r.randrange(len(s)) - (len(s) if r.random() < 0.5 else 0)}"))
        pick = r.choice(("[0]", "[1]"))
        x = f"x = {fw.tensor(s)}"
        return Case("lax:jax.lax.top_k", fw.name, [x], f"jax.lax.top_k(x, {k}{axis}){pick}")

    g["lax:jax.lax.top_k"] = top_k

    def dynamic_slice(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        x = f"x = {fw.tensor(s)}"
        if r.random() < 0.5:
            sizes = [r.randint(0, d + 1) for d in s]  # one larger than its axis: jax raises
            starts = [r.randint(0, 2) for _ in s]
            expr = f"jax.lax.dynamic_slice(x, {shape_src(tuple(starts))}, {shape_src(tuple(sizes))})"
        else:
            a = r.randrange(len(s))
            expr = f"jax.lax.dynamic_slice_in_dim(x, 1, {r.randint(0, s[a])}, axis={a})"
        return _maybe_index(r, Case("lax:jax.lax.dynamic_slice", fw.name, [x], expr))

    g["lax:jax.lax.dynamic_slice"] = dynamic_slice

    def dynamic_update_slice(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        if r.random() < 0.15:
            u = rand_shape(r, 1, 3)  # of another rank, often: jax raises
        else:
            u = tuple(r.randint(0, d + 1) for d in s)  # one larger than its axis: jax raises
        starts = tuple(r.randint(0, 2) for _ in s)
        setup = [f"x = {fw.tensor(s)}", f"u = {fw.tensor(u)}"]
        expr = f"jax.lax.dynamic_update_slice(x, u, {shape_src(starts)})"
        return _maybe_index(r, Case("lax:jax.lax.dynamic_update_slice", fw.name, setup, expr))

    g["lax:jax.lax.dynamic_update_slice"] = dynamic_update_slice

    def triangular_solve(r: random.Random) -> Case:
        n = r.randint(1, 4)
        a = [n, n] if r.random() < 0.85 else [n, n + 1]
        b = r.choice(([n], [n, r.randint(1, 3)], [n + 1], list(rand_shape(r, 1, 3))))
        eye = f" + {n} * jnp.eye({n})" if a[0] == a[1] else ""
        setup = ["import jax.scipy.linalg as jsl", f"a = {fw.tensor(tuple(a))}{eye}", f"b = {fw.tensor(tuple(b))}"]
        expr = r.choice(("jsl.cho_solve((a, True), b)", "jsl.cho_solve((a, False), b)", "jsl.solve_triangular(a, b)"))
        return Case("linalg:jax.scipy.linalg.cho_solve", fw.name, setup, expr)

    g["linalg:jax.scipy.linalg.cho_solve"] = triangular_solve

    def segment(r: random.Random, pick: str = "") -> Case:
        s = rand_shape(r, 1, 3)
        k = 1 if r.random() < 0.8 else r.randint(1, len(s))
        ids = f"ids = jnp.asarray(np.random.randint(0, 3, size={shape_src(s[:k])}), jnp.int32)"
        count = r.choice(("", ", 4", ", num_segments=1", ", num_segments=5", f", num_segments={r.randint(0, 3)}"))
        x = f"x = {fw.tensor(s)}"
        return _maybe_index(
            r,
            Case(f"segment:jax.ops.{pick}", fw.name, ["import numpy as np", x, ids], f"jax.ops.{pick}(x, ids{count})"),
        )

    for name in ("segment_sum", "segment_max", "segment_min", "segment_prod"):
        g[f"segment:jax.ops.{name}"] = functools.partial(segment, pick=name)

    def reduce_window(r: random.Random) -> Case:
        s = rand_shape(r, 1, 4)
        n = len(s)
        dims = tuple(r.randint(1, 3) for _ in range(n))
        strides = tuple(r.randint(1, 2) for _ in range(n))
        pad = r.choice(
            (
                "'VALID'",
                "'SAME'",
                "'SAME_LOWER'",
                "(" + ", ".join(f"({r.randint(0, 1)}, {r.randint(0, 2)})" for _ in range(n)) + ",)",
                # one pair too few or too many, or an entry of three values: jax raises
                "(" + ", ".join(f"({r.randint(0, 1)}, {r.randint(0, 2)})" for _ in range(n + r.choice((-1, 1)))) + ",)",
                "(" + ", ".join("(1, 1, 1)" if i == 0 else "(0, 1)" for i in range(n)) + ",)",
            )
        )
        rest = f"{shape_src(strides)}, {pad}"
        if r.random() < 0.3:
            rest += f", {shape_src(tuple(r.randint(1, 2) for _ in range(n)))}, {shape_src(tuple(r.randint(1, 2) for _ in range(n)))}"
        if r.random() < 0.2:
            rest = "padding='VALID'"
        x = f"x = {fw.tensor(s)}"
        expr = f"jax.lax.reduce_window(x, 0.0, jax.lax.add, {shape_src(dims)}, {rest})"
        return _maybe_index(r, Case("lax:jax.lax.reduce_window", fw.name, [x], expr))

    g["lax:jax.lax.reduce_window"] = reduce_window

    def conv_general(r: random.Random, pick: str = "") -> Case:
        n = r.randint(1, 3)
        c = r.randint(1, 3)
        spatial = tuple(r.randint(3, 6) for _ in range(n))
        kernel = tuple(r.randint(1, 3) for _ in range(n))
        # now and then a kernel whose input features are not the input's channels: jax raises
        c_in = c if r.random() < 0.85 else c + 1
        out_c = r.randint(1, 4)
        general = pick.endswith("conv_general_dilated")
        channels_last = general and n == 2 and r.random() < 0.3
        if channels_last:  # ("NHWC", "HWIO", "NHWC")
            x = f"x = {fw.tensor((2,) + spatial + (c,))}"
            w = f"w = {fw.tensor(kernel + (c_in, out_c))}"
        else:
            x = f"x = {fw.tensor((2, c) + spatial)}"
            w = f"w = {fw.tensor((out_c, c_in) + kernel)}"
        pad = r.choice(
            (
                "'SAME'",
                "'VALID'" if general else "'SAME'",
                "(" + ", ".join(f"({r.randint(0, 1)}, {r.randint(0, 2)})" for _ in range(n)) + ",)",
                "[" + ", ".join(f"[{r.randint(0, 1)}, {r.randint(0, 2)}]" for _ in range(n)) + "]",
                "(" + "".join("(1, 1), " for _ in range(n + r.choice((-1, 1)))) + ")",
                "(" + ", ".join("(1, 1, 1)" for _ in range(n)) + ",)",
            )
        )
        strides = tuple(r.randint(1, 2) for _ in range(n)) if general else (1,) * n
        if pick.endswith("conv_with_general_padding"):
            rest = ", None, None"
        else:
            rest = ""
            if r.random() < 0.4:  # lhs and rhs dilation
                rest += f", {shape_src(tuple(r.randint(1, 2) for _ in range(n)))}"
                rest += f", {shape_src(tuple(r.randint(1, 2) for _ in range(n)))}"
            if channels_last:
                rest += ", dimension_numbers=('NHWC', 'HWIO', 'NHWC')"
        expr = f"{pick}(x, w, {shape_src(strides)}, {pad}{rest})"
        return Case(f"lax:{pick}", fw.name, [x, w], expr)

    for name in ("conv_general_dilated", "conv_with_general_padding"):
        g[f"lax:jax.lax.{name}"] = functools.partial(conv_general, pick=f"jax.lax.{name}")
    g["repeat:elements"] = _element_repeat(fw)
    g["pad:array"] = _array_pad(fw)
    return g


def _diff_gen(fw: Framework) -> Gen:
    """``diff``: n-th differences along one axis, with scalars or arrays joined before / after it."""
    m = fw.mod

    def gen(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        n = r.randint(0, 3)
        ax = r.randint(-len(s), len(s) - 1)
        key = "dim" if fw.name == "torch" else "axis"
        setup = [f"x = {fw.tensor(s)}"]
        extras = ""
        pick = r.random()
        if pick < 0.25:
            side = list(s)
            side[ax] = r.randint(1, 2)
            setup.append(f"p = {fw.tensor(tuple(side))}")
            extras = f", {r.choice(('prepend', 'append'))}=p"
        elif pick < 0.4 and fw.name != "torch":
            extras = ", prepend=0.0, append=1.0"
        forms = [f"{m}.diff(x, n={n}, {key}={ax}{extras})", f"{m}.diff(x{extras})"]
        if fw.name == "torch":
            forms.append(f"x.diff(n={n}, dim={ax}{extras})")
        return _maybe_index(r, Case("method:diff", fw.name, setup, r.choice(forms)))

    return gen


def _array_pad(fw: Framework) -> Gen:
    """numpy's / jax's ``pad(a, pad_width, mode=...)``: an int, ``(k,)``, ``(before, after)``, ``((before, after),)``
    or one pair per axis; a width numpy cannot broadcast to (rank, 2) raises."""

    def gen(r: random.Random) -> Case:
        s = rand_shape(r, 1, 3)
        n = len(s)

        def k() -> int:
            return r.randint(0, 2)

        width = r.choice(
            (
                str(k()),
                f"({k()},)",
                f"({k()}, {k()})",
                f"(({k()}, {k()}),)",
                "(" + "".join(f"({k()}, {k()}), " for _ in range(n)) + ")",
                "[" + ", ".join(f"[{k()}, {k()}]" for _ in range(n)) + "]",
                "(" + "".join(f"({k()}, {k()}), " for _ in range(n + 1)) + ")",  # one pair too many: raises
            )
        )
        mode = r.choice(("", ", mode='constant'", ", mode='edge'", ", mode='wrap'", ", constant_values=1"))
        x = f"x = {fw.tensor(s)}"
        return _maybe_index(r, Case("pad:array", fw.name, [x], f"{fw.mod}.pad(x, {width}{mode})"))

    return gen


def _element_repeat(fw: Framework) -> Gen:
    """numpy's / jax's ``repeat(a, repeats, axis)`` (function and method forms): each element repeated."""

    def gen(r: random.Random) -> Case:
        s = rand_shape(r, 0, 3)
        reps = r.randint(0, 3)
        axis = "" if r.random() < 0.2 else (f", axis={dim_value(r, len(s), allow_tuple=False) or 0}")
        x = f"x = {fw.tensor(s)}"
        expr = r.choice((f"{fw.mod}.repeat(x, {reps}{axis})", f"x.repeat({reps}{axis})"))
        return _maybe_index(r, Case("repeat:elements", fw.name, [x], expr))

    return gen


# ------------------------------------------------------------------------------------------------- stubs


@dataclass
class StubSig:
    qual: str  # "torch.nn.functional.linear"
    params: list[tuple[str, str | None, str | None, bool, bool]]  # (name, dtype class, dims, has default, kw-only)


def stub_signatures(module: str) -> list[StubSig]:
    """The signatures of one bundled stub module, read with libcst (as the analyser reads them)."""
    import libcst as cst

    rel = Path(*module.split("."))
    path = next(p for p in (STUBS / rel.with_suffix(".pyi"), STUBS / rel / "__init__.pyi") if p.is_file())
    tree = cst.parse_module(path.read_text("utf-8"))
    out = []
    for stmt in tree.body:
        if not isinstance(stmt, cst.FunctionDef):
            continue
        params = []
        groups = [(p, False) for p in stmt.params.params] + [(p, True) for p in stmt.params.kwonly_params]
        for p, kwonly in groups:
            dtype = dims = None
            ann = p.annotation.annotation if p.annotation is not None else None
            if isinstance(ann, cst.Subscript) and isinstance(ann.value, cst.Name) and len(ann.slice) == 2:
                dtype = ann.value.value
                el = ann.slice[1].slice
                if isinstance(el, cst.Index) and isinstance(el.value, cst.SimpleString):
                    dims = el.value.evaluated_value  # type: ignore[assignment]
            params.append((p.name.value, dtype, dims, p.default is not None, kwonly))
        out.append(StubSig(f"{module}.{stmt.name.value}", params))
    return out


# extra arguments a stub's non-tensor parameters need (beyond its defaults)
STUB_EXTRA: dict[str, str] = {
    "torch.softmax": "dim={dim}",
    "torch.log_softmax": "dim={dim}",
    "torch.nn.functional.layer_norm": "{lastshape}",
    "torch.nn.functional.rms_norm": "{lastshape}",
    "torch.nn.functional.softmax": "dim={dim}",
    "torch.nn.functional.log_softmax": "dim={dim}",
    "torch.nn.functional.softmin": "dim={dim}",
    "torch.nn.functional.one_hot": "num_classes=4",
    "jax.nn.one_hot": "num_classes=4",
}
_MODULE_ALIAS = {
    "torch": "torch",
    "torch.nn.functional": "F",
    "numpy": "np",
    "jax.numpy": "jnp",
    "jax.nn": "jax.nn",
    "tensorflow": "tf",
    "tensorflow.math": "tf.math",
    "tensorflow.nn": "tf.nn",
    "paddle": "paddle",
    "paddle.nn.functional": "PF",
}


def stub_generator(fw: Framework, sig: StubSig) -> Gen:
    alias = _MODULE_ALIAS[sig.qual.rsplit(".", 1)[0]]
    fname = sig.qual.rsplit(".", 1)[1]

    def gen(r: random.Random) -> Case:
        env: dict[str, int] = {}
        variadic: dict[str, tuple[int, ...]] = {}
        setup: list[str] = []
        args: list[str] = []
        last_shape: tuple[int, ...] = ()
        first_rank = 0
        for i, (pname, dtype, dims, _has_default, kwonly) in enumerate(sig.params):
            if dims is None:
                continue
            shape: list[int] = []
            for tok in dims.split():
                bare = tok.lstrip("#*")
                if tok.startswith(("*", "#*")) or tok == "...":
                    key = bare if tok != "..." else f"...{i}"
                    if key not in variadic:
                        variadic[key] = rand_shape(r, 0, 2)
                    v = list(variadic[key])
                    if tok.startswith("#") and v and r.random() < 0.3:
                        v[0] = 1
                    shape.extend(v)
                elif bare.isdigit():
                    shape.append(int(bare))
                else:
                    if bare not in env:
                        env[bare] = r.randint(1, 4)
                    shape.append(env[bare])
            if r.random() < 0.35:  # a shape the signature may not accept: the real function decides
                shape = list(rand_shape(r, 0, 4)) if r.random() < 0.6 else shape[1:] + [r.randint(1, 3)]
            dt = fw.int_dtype if dtype == "Int" else None
            setup.append(
                f"a{i} = {fw.tensor(tuple(shape), dt) if dtype != 'Int' else fw.tensor(tuple(shape), dt).replace('ones', 'zeros')}"
            )
            args.append(f"{pname}=a{i}" if kwonly or (i > 0 and r.random() < 0.2) else f"a{i}")
            if not last_shape:
                last_shape = tuple(shape)
                first_rank = len(shape)
        # a positional argument after a keyword one is a syntax error: keywords last
        args = [a for a in args if "=" not in a] + [a for a in args if "=" in a]
        if any(p[0] == "dtype" for p in sig.params) and r.random() < 0.3:
            args.append(f"dtype={r.choice(fw.dtypes[:3])}")
        extra = STUB_EXTRA.get(sig.qual, "")
        if extra:
            d = r.randrange(-first_rank, first_rank) if first_rank else 0
            last = shape_src(last_shape[-1:]) if last_shape else "(1,)"
            args.append(extra.format(dim=d, lastshape=last))
        return _maybe_index(r, Case(f"stub:{sig.qual}", fw.name, setup, f"{alias}.{fname}({', '.join(args)})"), 0.1)

    return gen


_GENERATORS: dict[str, dict[str, Gen]] = {}


def all_generators(fw: Framework) -> dict[str, Gen]:
    """Every generator of a framework, by key (built once per process)."""
    if fw.name not in _GENERATORS:
        _GENERATORS[fw.name] = _build_generators(fw)
    return _GENERATORS[fw.name]


def _build_generators(fw: Framework) -> dict[str, Gen]:
    gens = dict(fw.generators())
    for module in fw.stub_modules():
        for sig in stub_signatures(module):
            gens[f"stub:{sig.qual}"] = stub_generator(fw, sig)
    return gens


# ------------------------------------------------------------------------------------------------- running


def _static_claim(v: Any) -> tuple[str, Any] | None:
    """What the analyser claims about ``out``: ("tensor", (rank, {axis: size}), dtype) / ("int", n) / ("seq", [...])."""
    if isinstance(v, TensorV) and v.shape is not None:
        sizes = {i: s.as_int() for i, s in enumerate(v.shape) if s.as_int() is not None}
        return "tensor", (len(v.shape), sizes, v.dtype)
    if isinstance(v, TensorV) and v.dtype is not None:
        return "tensor", (None, {}, v.dtype)
    if isinstance(v, IntV) and v.size.as_int() is not None:
        return "int", v.size.as_int()
    if isinstance(v, SeqV) and v.kind == "shape":
        return "seq", [i.size.as_int() if isinstance(i, IntV) else None for i in v.items]
    return None


def _runtime(fw: Framework, src: str) -> tuple[str, Any, str]:
    if isinstance(fw, SubprocessFW):
        return fw.run(src)
    ns: dict[str, Any] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(compile(src, "<generated case>", "exec"), ns)  # noqa: S102 - our own generated snippet
        except Exception as exc:  # the framework rejects the call
            return "raise", None, f"{type(exc).__name__}: {str(exc)[:160]}"
    if any("target size" in str(w.message) for w in caught):
        return "warn", ns.get("out"), "loss target broadcast warning"
    return "ok", ns.get("out"), ""


def _runtime_shape(value: Any) -> tuple[int, ...] | None:
    if isinstance(value, (bool, int, float, complex)):
        return ()
    shape = getattr(value, "shape", None)
    if shape is None or isinstance(value, tuple):
        return None
    try:
        return tuple(int(s) for s in shape)
    except TypeError:
        return None


def run_case(fw: Framework, case: Case, dtypes: bool = True) -> Outcome:
    src = case.source(fw.header)
    try:
        values, findings = inferred_values(src, "generated_case.py")
    except Exception as exc:  # a crash of the analyser
        return Outcome(case, src, "internal", "?", f"analysis raised {type(exc).__name__}: {exc}")
    internal = [f for f in findings if f.code.startswith("SHP9")]
    errors = [f for f in findings if f.code[:4] in ("SHP1", "SHP2")]
    runtime, value, why = _runtime(fw, src)
    claim = _static_claim(values.get("out"))
    out = Outcome(case, src, "ok", runtime, why, claimed=claim is not None)
    if internal:
        out.verdict, out.detail = "internal", internal[0].message
        return out
    if runtime != "ok":
        return out
    if errors:
        out.verdict, out.detail = "false-positive", "; ".join(f.message for f in errors)
        return out
    if claim is None:
        return out
    kind, data = claim
    if kind == "int":
        real = value if isinstance(value, int) else None
        if real is None and hasattr(value, "item") and getattr(value, "shape", None) == ():
            real = int(value.item())
        if real != data:
            out.verdict, out.detail = "wrong-shape", f"analyser: int {data}, runtime: {value!r}"
        return out
    if kind == "seq":
        real_t = tuple(value) if isinstance(value, tuple) else None
        if real_t is None or len(real_t) != len(data) or any(d is not None and d != v for d, v in zip(data, real_t)):
            out.verdict, out.detail = "wrong-shape", f"analyser: shape tuple {data}, runtime: {value!r}"
        return out
    rank, sizes, dtype = data
    real = _runtime_shape(value)
    if rank is not None:
        if real is None or len(real) != rank or any(real[i] != s for i, s in sizes.items()):
            shown = tuple(sizes.get(i, "?") for i in range(rank))
            out.verdict, out.detail = (
                "wrong-shape",
                f"analyser: {shown}, runtime: {real if real is not None else type(value).__name__}",
            )
            return out
    if dtypes and dtype is not None:
        real_dt = fw.dtype_name(value) if real is not None and not isinstance(value, (bool, int, float)) else None
        if real_dt is not None and real_dt != dtype:
            out.verdict, out.detail = "wrong-dtype", f"analyser: {dtype}, runtime: {real_dt}"
    return out


# ------------------------------------------------------------------------------------------------- TensorFlow, Paddle
# Importing both in one process segfaults: their real calls run in a worker subprocess per framework
# (tests/ops_worker.py), which returns the shape and dtype of ``out``; this process never imports them.


@dataclass
class RemoteValue:
    shape: tuple[int, ...]
    dtype: str | None


class SubprocessFW(Framework):
    _proc: Any = None

    def lib(self) -> Any:
        raise RuntimeError(f"{self.name} is never imported in the test process (see tests/ops_worker.py)")

    def dtype_name(self, value: Any) -> str | None:
        return value.dtype if isinstance(value, RemoteValue) else None

    def run(self, src: str) -> tuple[str, Any, str]:
        import json
        import os
        import subprocess
        import sys

        if self._proc is None or self._proc.poll() is not None:
            env = dict(
                os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="", OMP_NUM_THREADS="1", GLOG_minloglevel="3"
            )
            self._proc = subprocess.Popen(
                [sys.executable, str(Path(__file__).with_name("ops_worker.py"))],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=env,
            )
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps({"src": src}) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            self._proc = None
            return "raise", None, "the worker process died"
        res = json.loads(line)
        if res["status"] != "ok":
            return "raise", None, res.get("why", "")
        if res["kind"] == "tensor":
            return "ok", RemoteValue(tuple(res["shape"]), res["dtype"]), ""
        if res["kind"] == "int":
            return "ok", res["value"], ""
        if res["kind"] == "scalar":
            return "ok", 0.0, ""
        return "ok", object(), ""


class TensorFlowFW(SubprocessFW):
    name = "tensorflow"
    module = "tensorflow"
    header = "import tensorflow as tf"
    mod = "tf"
    dtypes = ("tf.float32", "tf.float64", "tf.float16", "tf.int32", "tf.int64", "'float32'")
    int_dtype = "tf.int32"
    bool_dtype = "tf.bool"

    def tensor(self, shape: tuple[int, ...], dtype: str | None = None) -> str:
        dt = f", dtype={dtype}" if dtype else ""
        return f"tf.ones({shape_src(shape)}{dt})"

    def generators(self) -> dict[str, Gen]:
        return tf_paddle_generators(self)

    def stub_modules(self) -> list[str]:
        return ["tensorflow", "tensorflow.math", "tensorflow.nn"]


class PaddleFW(SubprocessFW):
    name = "paddle"
    module = "paddle"
    header = "import paddle\nimport paddle.nn.functional as PF"
    mod = "paddle"
    keep = "keepdim"
    dtypes = ("paddle.float32", "paddle.float64", "paddle.float16", "paddle.int32", "paddle.int64", "'float32'")
    int_dtype = "paddle.int64"
    bool_dtype = "paddle.bool"

    def tensor(self, shape: tuple[int, ...], dtype: str | None = None) -> str:
        dt = f", dtype={dtype}" if dtype else ""
        return f"paddle.ones({list(shape)}{dt})"

    def generators(self) -> dict[str, Gen]:
        return tf_paddle_generators(self)

    def stub_modules(self) -> list[str]:
        return ["paddle", "paddle.nn.functional"]


def tf_paddle_generators(fw: Framework) -> dict[str, Gen]:
    """The ops frameworks.py models for TensorFlow / Paddle, in each one's own spelling."""
    g: dict[str, Gen] = {}
    m = fw.mod
    tf = fw.name == "tensorflow"

    def shp(s: tuple[int, ...] | list[int]) -> str:
        return shape_src(s) if tf or len(s) % 2 else str(list(s))  # paddle: lists and tuples

    def x_of(r: random.Random, lo: int = 0, hi: int = 4) -> tuple[tuple[int, ...], str]:
        s = rand_shape(r, lo, hi)
        return s, f"x = {fw.tensor(s)}"

    def construct(r: random.Random) -> Case:
        s = rand_shape(r, 0, 4)
        dt = r.choice(("", f", dtype={r.choice(fw.dtypes)}"))
        if tf:
            expr = r.choice(
                (
                    f"tf.zeros({shp(s)}{dt})",
                    f"tf.ones({shp(s)}{dt})",
                    f"tf.fill({shp(s)}, 1.0)",
                    f"tf.fill({shp(s)}, 2)",
                    f"tf.random.normal({shp(s)})",
                    f"tf.random.uniform({shp(s)})",
                    f"tf.ones(shape={shp(s)}{dt})",
                )
            )
        else:
            expr = r.choice(
                (
                    f"paddle.zeros({shp(s)}{dt})",
                    f"paddle.ones({shp(s)}{dt})",
                    f"paddle.full({shp(s)}, 1.0{dt})",
                    f"paddle.full({shp(s)}, 2)",
                    f"paddle.randn({shp(s)})",
                    f"paddle.rand({shp(s)})",
                    f"paddle.ones(shape={shp(s)}{dt})",
                    f"paddle.to_tensor(np.ones({shape_src(s)}))",
                )
            )
        setup = [] if tf else ["import numpy as np"]
        return _maybe_index(r, Case("construct:" + expr.split("(")[0], fw.name, setup, expr), 0.1)

    g["construct"] = construct

    def cast(r: random.Random) -> Case:
        s, x = x_of(r)
        dt = r.choice(fw.dtypes)
        expr = r.choice(
            (f"{m}.cast(x, {dt})", f"{m}.cast(x, dtype={dt})") + (() if tf else (f"x.astype({dt})", f"x.cast({dt})"))
        )
        return _maybe_index(r, Case("cast:" + expr.split("(")[0].rsplit(".", 1)[-1], fw.name, [x], expr))

    g["cast"] = cast

    def reshape(r: random.Random) -> Case:
        s, x = x_of(r, 0, 4)
        total = 1
        for d in s:
            total *= d
        target: list[int] = factorise(r, total) if total > 0 and r.random() < 0.85 else list(rand_shape(r, 0, 3))
        if target and r.random() < 0.3:
            target[r.randrange(len(target))] = -1
        if not tf and target and r.random() < 0.3:
            i = r.randrange(len(target))
            target[i] = 0  # paddle: copy the input's size at that position
        forms = [f"{m}.reshape(x, {shp(target)})", f"{m}.reshape(x, shape={shp(target)})"]
        if not tf:
            forms.append(f"x.reshape({shp(target)})")
        return _maybe_index(r, Case("reshape", fw.name, [x], r.choice(forms)))

    g["reshape"] = reshape

    def transpose(r: random.Random) -> Case:
        s, x = x_of(r, 1, 4)
        perm = list(range(len(s)))
        r.shuffle(perm)
        if r.random() < 0.1:
            perm = perm[:-1] or [0, 0]
        p = shp(perm)
        forms = [f"{m}.transpose(x, {p})", f"{m}.transpose(x, perm={p})"]
        forms += ["tf.transpose(x)"] if tf else [f"x.transpose({p})"]
        return _maybe_index(r, Case("transpose", fw.name, [x], r.choice(forms)))

    g["transpose"] = transpose

    def concat(r: random.Random) -> Case:
        s, x = x_of(r, 1, 3)
        rank = len(s)
        ax = r.randrange(-rank, rank)
        other = list(s)
        name = r.choice(("concat", "stack"))
        if name == "concat":
            other[ax] = r.choice((0, 1, 2, 3, 5))
            if r.random() < 0.1:
                other[(ax + 1) % rank] += 1
        elif r.random() < 0.1:
            other[0] += 1
        axis = r.randrange(-rank - (name == "stack"), rank + (name == "stack"))
        axis = ax if name == "concat" else axis
        y = f"y = {fw.tensor(tuple(other))}"
        expr = r.choice(
            (f"{m}.{name}([x, y], {axis})", f"{m}.{name}([x, y], axis={axis})", f"{m}.{name}((x, y), axis={axis})")
        )
        if name == "concat" and r.random() < 0.3:
            expr = f"{m}.{name}([x, x], axis={axis})"
        return _maybe_index(r, Case(name, fw.name, [x, y], expr))

    g["concat"] = concat

    def expand(r: random.Random) -> Case:
        s, x = x_of(r, 0, 3)
        rank = len(s)
        if tf:
            ax = r.randint(-rank - 1, rank)
            expr = r.choice((f"tf.expand_dims(x, {ax})", f"tf.expand_dims(x, axis={ax})"))
            return _maybe_index(r, Case("expand_dims", fw.name, [x], expr))
        ax = r.randint(-rank - 1, rank)
        arg = str(ax) if r.random() < 0.6 else shp(sorted({r.randint(0, rank + 1) for _ in range(2)}))
        expr = r.choice((f"paddle.unsqueeze(x, {arg})", f"paddle.unsqueeze(x, axis={arg})", f"x.unsqueeze({arg})"))
        return _maybe_index(r, Case("unsqueeze", fw.name, [x], expr))

    g["expand_dims"] = expand

    def squeeze(r: random.Random) -> Case:
        s = tuple(1 if r.random() < 0.4 else d for d in rand_shape(r, 0, 4))
        x = f"x = {fw.tensor(s)}"
        rank = len(s)
        roll = r.random()
        if roll < 0.3 or rank == 0:
            arg = ""
        elif roll < 0.7:
            arg = str(r.randrange(-rank, rank))
        else:
            arg = shp(sorted(set(r.sample(range(rank), r.randint(1, rank)))))
        forms = [f"{m}.squeeze(x{', ' + arg if arg else ''})", f"{m}.squeeze(x{', axis=' + arg if arg else ''})"]
        if not tf:
            forms.append(f"x.squeeze({arg})")
        return _maybe_index(r, Case("squeeze", fw.name, [x], r.choice(forms)))

    g["squeeze"] = squeeze

    def tile(r: random.Random) -> Case:
        s, x = x_of(r, 0, 3)
        n = len(s) if tf or r.random() < 0.6 else r.randint(max(len(s), 1), len(s) + 1)
        if r.random() < 0.1:
            n = r.randint(0, len(s) + 1)
        mult = [r.choice((1, 2, 3)) for _ in range(n)]
        forms = [f"{m}.tile(x, {shp(mult)})", f"{m}.tile(x, {'multiples' if tf else 'repeat_times'}={shp(mult)})"]
        if not tf:
            forms.append(f"x.tile({shp(mult)})")
        return _maybe_index(r, Case("tile", fw.name, [x], r.choice(forms)))

    g["tile"] = tile

    def matmul(r: random.Random) -> Case:
        batch = [r.choice((1, 2, 3)) for _ in range(r.randint(0, 2))]
        n, k, p = r.randint(1, 4), r.randint(1, 4), r.randint(1, 4)
        ta, tb = r.random() < 0.3, r.random() < 0.3
        a = batch + ([k, n] if ta else [n, k])
        bb = (batch if r.random() < 0.7 else batch[1:]) + ([p, k] if tb else [k, p])
        if r.random() < 0.15:
            bb[-1 if tb else -2] += 1
        if not tf and r.random() < 0.25:
            bb, tb = [k], False  # paddle.matmul takes 1-d operands
        setup = [f"a = {fw.tensor(tuple(a))}", f"b = {fw.tensor(tuple(bb))}"]
        kw = ("transpose_a", "transpose_b") if tf else ("transpose_x", "transpose_y")
        flags = (f", {kw[0]}=True" if ta else "") + (f", {kw[1]}=True" if tb else "")
        forms = [f"{m}.matmul(a, b{flags})"]
        if not flags:
            forms.append("a @ b")
            if not tf:
                forms.append("a.matmul(b)")
        return _maybe_index(r, Case("matmul", fw.name, setup, r.choice(forms)))

    g["matmul"] = matmul

    names = (
        [
            "reduce_sum",
            "reduce_mean",
            "reduce_prod",
            "reduce_max",
            "reduce_min",
            "reduce_any",
            "reduce_all",
            "reduce_logsumexp",
            "reduce_std",
            "reduce_variance",
        ]
        if tf
        else ["sum", "mean", "prod", "max", "min", "amax", "amin", "any", "all", "logsumexp", "nansum", "nanmean"]
    )

    def reduce(r: random.Random) -> Case:
        name = r.choice(names)
        s = rand_shape(r, 0, 4)
        boolish = name in ("reduce_any", "reduce_all", "any", "all")
        x = f"x = {fw.tensor(s, fw.bool_dtype if boolish else None)}"
        args = []
        d = dim_value(r, len(s), allow_none=True)
        if d is not None and not tf and d.startswith("("):
            d = "[" + d[1:-1].rstrip(",") + "]"
        if d is not None:
            args.append(r.choice((d, f"axis={d}")))
        if r.random() < 0.5:
            args.append(f"{fw.keep}={r.choice(('True', 'False'))}")
        expr = f"{m}.{name}(x{''.join(', ' + a for a in args)})"
        if not tf and r.random() < 0.3:
            expr = f"x.{name}({', '.join(args)})"
        return _maybe_index(r, Case(f"reduce:{name}", fw.name, [x], expr), 0.1)

    g["reduce"] = reduce

    def extra(r: random.Random) -> Case:
        """The other modelled calls: *_like, cumsum/cumprod, einsum, flatten, mm/bmm, t, constant/convert_to_tensor."""
        s, x = x_of(r, 0, 3)
        rank = len(s)
        ax = r.randrange(-rank, rank) if rank else 0
        forms = [f"{m}.zeros_like(x)", f"{m}.ones_like(x)", f"{m}.cumsum(x, {ax})", f"{m}.cumsum(x, axis={ax})"]
        if tf:
            forms += [
                f"tf.math.cumprod(x, {ax})",
                f"tf.constant(np.ones({shape_src(s)}))",
                f"tf.convert_to_tensor(np.ones({shape_src(s)}))",
                "tf.einsum('ij,jk->ik', a, b)",
                f"tf.random.truncated_normal({shape_src(s)})",
            ]
        else:
            forms += [
                f"paddle.cumprod(x, {ax})",
                "paddle.flatten(x)",
                f"x.flatten({min(ax, 0)})",
                "paddle.einsum('ij,jk->ik', a, b)",
                "paddle.mm(a, b)",
                "paddle.bmm(a[None], b[None])",
                "paddle.t(a)",
                "x.clone()",
                "x.detach()",
                "x.cumsum()",
            ]
        expr = r.choice(forms)
        k = r.randint(1, 3)
        setup = [
            "import numpy as np",
            x,
            f"a = {fw.tensor((r.randint(1, 3), k))}",
            f"b = {fw.tensor((k if r.random() < 0.9 else k + 1, r.randint(1, 3)))}",
        ]
        return _maybe_index(
            r, Case("extra:" + expr.split("(")[0].replace(f"{m}.", "").replace("x.", ""), fw.name, setup, expr), 0.1
        )

    g["extra"] = extra
    return g


FRAMEWORK_CLASSES: list[type[Framework]] = [NumpyFW, TorchFW, JaxFW, TensorFlowFW, PaddleFW]


def frameworks() -> dict[str, Framework]:
    """The installed frameworks, by name."""
    out = {}
    for cls in FRAMEWORK_CLASSES:
        fw = cls()
        if fw.available():
            out[fw.name] = fw
    return out


def run_seed(fw: Framework, gens: dict[str, Gen], key: str, seed: int) -> Outcome:
    r = random.Random(seed)
    return run_case(fw, gens[key](r))


@dataclass
class Tally:
    cases: int = 0
    raised: int = 0
    claimed: int = 0
    bad: dict[str, int] = field(default_factory=dict)
    examples: list[Outcome] = field(default_factory=list)
