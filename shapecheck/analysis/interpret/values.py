"""Abstract values the interpreter carries: what is known about a tensor, an int, a tuple, a layer ..."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Union, Sequence

from ...sizes import Size


@dataclass(frozen=True)
class Unknown:
    def __repr__(self) -> str:
        return "?"


UNKNOWN = Unknown()


@dataclass(frozen=True)
class TensorV:
    shape: tuple[Size, ...] | None  # None: rank unknown
    dtype: str | None = None  # "float16", "bfloat16", "float32", ... ; None unknown
    framework: str | None = None  # "torch" | "numpy" | "jax"
    axes: tuple[str | None, ...] | None = None  # semantic axis names, when known (for SHP401)
    origin: Any = None  # where the shape came from (str() renders "from x: ... at f.py:3")
    # With shape None: (prefix, V, suffix) -- known leading and trailing axes around an unknown number of axes whose
    # product is the symbol V (what an einops `...` carries). Only einops calls read it; everything else sees rank ?.
    vshape: tuple[tuple[Size, ...], Size, tuple[Size, ...]] | None = None
    # With shape None: the shapes this value may have, one per path through the branches that made it (a join);
    # an operation on it is a definite failure only when it fails for each (see paths.py). At most MAX_ALTS.
    alts: "tuple[TensorV, ...] | None" = None
    # With shape None: ranks a condition ruled out (the else branch of ``if x.ndim == 3``)
    not_ranks: frozenset[int] = frozenset()
    # An integer tensor whose every element lies in [lo, hi) (``torch.randint(high, size)``); kept by its rows
    bounds: tuple[Size, Size] | None = None
    # An integer tensor one of whose elements is exactly ``top[0]`` (``torch.arange(0, t)`` holds t - 1), made by the
    # call ``top[1]``: kept only while a variable hands it on unchanged (Interpreter.eval drops it from the value of
    # any other expression, an in-place method drops it from its variable)
    top: "tuple[Size, Any] | None" = None
    # A small integer tensor of rank 0 or 1 whose elements are exactly ``values[0]`` (``torch.tensor([33, 20])``, its
    # ``.max()``), made by the call ``values[1]`` (``values[2]`` numbers that making): kept, as ``top``, only while a
    # variable hands it on unchanged, and read only while no in-place operation seen on a tensor holding them may
    # have changed them (``mark_stale``)
    values: "tuple[tuple[int, ...], Any, int] | None" = None
    # An unknown value taken for an array by a test of its shape (``assert obj.shape == (5, 3, 2, 2)``): its shape is
    # what the test says, but it may be an object with a shape of its own, whose ``ndim`` need not be the shape's rank
    assumed: bool = False
    # A torch tensor's element strides, when its memory layout is known: contiguous for one a factory made
    # (``torch.randn(4, 8, 16)``), permuted by ``transpose`` / ``permute`` / ``.T`` / ``.mT``, kept by the
    # elementwise ops that keep the layout; what ``view`` can merge or split depends on them. None: not known
    strides: tuple[int, ...] | None = None

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    def with_shape(
        self, shape: tuple[Size, ...] | None, axes: tuple[str | None, ...] | None = None, origin: Any = None
    ) -> "TensorV":
        return TensorV(shape, self.dtype, self.framework, axes, origin if origin is not None else self.origin)

    def with_dtype(self, dtype: str | None) -> "TensorV":
        return TensorV(
            self.shape,
            dtype,
            self.framework,
            self.axes,
            self.origin,
            self.vshape,
            tuple(a.with_dtype(dtype) for a in self.alts) if self.alts else None,
            self.not_ranks,
        )


def contiguous_strides(shape: "tuple[Size, ...] | None") -> tuple[int, ...] | None:
    """The strides of a contiguous array of this shape, when every size is a known int."""
    if shape is None:
        return None
    sizes: list[int] = []
    for s in shape:
        n = s.as_int()
        if n is None or n < 0:
            return None
        sizes.append(n)
    out: list[int] = []
    step = 1
    for n in reversed(sizes):
        out.append(step)
        step *= max(n, 1)
    return tuple(reversed(out))


def view_strides(shape: Sequence[int], strides: Sequence[int], target: Sequence[int]) -> tuple[int, ...] | None:
    """torch's ``computeStride``: the strides of ``view(target)`` of a tensor with these sizes and strides, or None
    when the view cannot be made (an axis of the target spans memory that is not one evenly strided block)."""
    numel = 1
    for n in shape:
        numel *= n
    if numel == 0:
        return None if list(shape) != list(target) else tuple(strides)
    new = [0] * len(target)
    view_d = len(target) - 1
    chunk_base = strides[-1] if strides else 1
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[tensor_d]
        if tensor_d == 0 or (shape[tensor_d - 1] != 1 and strides[tensor_d - 1] != tensor_numel * chunk_base):
            while view_d >= 0 and (view_numel < tensor_numel or target[view_d] == 1):
                new[view_d] = view_numel * chunk_base
                view_numel *= target[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base = strides[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(new)


def same_rank_unknown(t: TensorV) -> TensorV:
    """The result of an op that moves the axes of ``t`` (rank unknown) around: the same rank, so what a check said of
    it (``not_ranks``) holds, but none of the shapes ``t`` may have (``alts``, ``vshape``) is the result's."""
    if not t.alts and t.vshape is None:
        return t
    return TensorV(None, t.dtype, t.framework, None, t.origin, not_ranks=t.not_ranks)


NUMPY_INT = "numpy integer"


@dataclass(frozen=True)
class IntV:
    size: Size
    # NUMPY_INT for a numpy integer scalar (``np.prod(shape)``) or an int that may be one: no ``int`` instance
    origin: str | None = None
    # A constructor parameter taken for a size only because nothing says otherwise (no annotation, no default): it
    # may as well be a tuple of sizes, so a rank is never read from it (``torch.zeros(shape)``, ``torch.tensor(s)``)
    assumed: bool = False


@dataclass(frozen=True)
class StrV:
    value: str


@dataclass(frozen=True)
class BoolV:
    value: bool | None


@dataclass(frozen=True)
class FloatV:
    value: float | None = None


@dataclass(frozen=True)
class NoneV:
    pass


@dataclass(frozen=True)
class SeqV:
    items: tuple["Value", ...]
    kind: str = "tuple"  # "tuple" | "list" | "shape"
    names: tuple[str, ...] | None = None  # a namedtuple's field names (``ret.indices`` reads an item)


# the key of a "namespace" DictV whose entries are not all of its object's attributes (pytest's ``request``)
INCOMPLETE_NAMESPACE = "<incomplete>"


@dataclass(frozen=True)
class DictV:
    items: tuple[tuple[str, "Value"], ...]
    kind: str = "dict"  # "dict" | "moduledict" (whose entries are attributes too: ``self.transformer.wte``)

    def get(self, key: str) -> "Value":
        for k, v in self.items:
            if k == key:
                return v
        return UNKNOWN


@dataclass(frozen=True)
class StateDictV:
    """``model.state_dict()`` of a torch module the analysis built (or a copy of it): the dotted names of the
    parameters and persistent buffers it knows, with their tensors. Other keys may be in it: a key not among these
    is unknown (neither absent nor present), and so is anything that needs every key (its length, a loop over it)."""

    items: tuple[tuple[str, "Value"], ...]

    def get(self, key: str) -> "Value":
        for k, v in self.items:
            if k == key:
                return v
        return UNKNOWN


@dataclass(frozen=True)
class IntDictV:
    """A dict whose keys are all known ints: a display (``CONV = {1: nn.Conv1d, 2: nn.Conv2d, 3: nn.Conv3d}``, a table
    of layer classes by number of spatial dims), ``dict(zip(resolutions, features))`` of known int keys, or an empty
    dict filled by ``d[k] = v`` with known ints (feature maps kept by resolution). Read by subscription, ``k in d``,
    ``get``, ``keys`` / ``values`` / ``items`` with known ints; a mutation the analysis does not follow forgets it."""

    items: tuple[tuple[int, "Value"], ...]

    def get(self, key: int) -> "Value":
        for k, v in self.items:
            if k == key:
                return v
        return UNKNOWN


@dataclass(frozen=True)
class DtypeV:
    name: str  # canonical: "float16", "bfloat16", "float32", "float64", "int64", ...


@dataclass(frozen=True)
class RefV:
    """A reference to something named: a module, a library function or class (qualified name)."""

    qualname: str


# what ``pytest.raises(...)`` (``self.assertRaises(...)``, ...) gives: a context manager expecting an exception, no
# tuple, list or array (``@pytest.mark.parametrize("x, expected", [(..., (1, 10)), (..., pytest.raises(E))])``, then
# ``with expected:`` or ``if isinstance(expected, tuple):`` in the test)
RAISES_CONTEXT = RefV("<expects an exception>")

# ``torch.finfo(dtype)`` (numpy's, jax.numpy's): its limits are Python floats (``scores.masked_fill(~mask,
# torch.finfo(scores.dtype).min)``, ``(1.0 - mask) * torch.finfo(torch.float32).min`` in Hugging Face models)
FINFO = "<finfo>"
FINFO_FLOATS = frozenset({"min", "max", "eps", "tiny", "smallest_normal", "resolution", "epsneg"})


@dataclass(frozen=True)
class LayerV:
    """An instantiated layer: einops layers, torch.nn layers, Sequential chains."""

    kind: str  # "Rearrange" | "Reduce" | "EinMix" | "Linear" | "LayerNorm" | "Conv2d" | "Sequential" | "Identity" | "Elementwise"
    params: tuple[tuple[str, Any], ...] = ()
    line_node: Any = None  # the constructor call node (findings on a layer that cannot take its input go there)
    # the note naming where the constructor stored it (``self.dec1 = conv_block(base, base)``), set by that first
    # ``self.x = ...``: a finding of the layer's call names the line to fix (not part of the value's identity)
    built: Any = field(default=None, compare=False, hash=False, repr=False)
    # the torch.nn class whose constructor built it (``isinstance(m, nn.Linear)`` reads it; not part of the identity)
    cls: str | None = field(default=None, compare=False, hash=False, repr=False)

    def param(self, key: str, default: Any = None) -> Any:
        for k, v in self.params:
            if k == key:
                return v
        return default


@dataclass(frozen=True)
class FuncV:
    """A function defined in the analysed code (by key into the project's function table)."""

    key: str
    bound_self: "Value | None" = None
    # a nested function's closure: the enclosing function's values of the names it reads (each bound once there)
    env: tuple[tuple[str, "Value"], ...] = ()


@dataclass(frozen=True)
class ObjV:
    """An instance of a class defined in the analysed code."""

    cls_key: str
    attrs: tuple[tuple[str, "Value"], ...] = field(default=())
    # built by a constructor call the analysis followed (its __init__ ran with these arguments): ``attrs`` is all its
    # __init__ set; otherwise the class's own attributes stand for any instance
    concrete: bool = False
    # what the constructor set for the attributes other methods may reassign (``attrs`` has them unknown): they
    # are the object's while it was just built and the one local variable holding it has had no method run on it
    # (module.call_function promotes them for a call on that variable, then drops them)
    fresh: tuple[tuple[str, "Value"], ...] = field(default=())

    def attr(self, name: str) -> "Value | None":
        for k, v in self.attrs:
            if k == name:
                return v
        return None


# set among an instance's attributes when its constructor set attributes by names the analysis does not know
# (``setattr(self, k, v)``, ``self.__dict__.update(kwargs)``): an attribute it did not see set is unknown, not the
# class body's
DYNAMIC_ATTRS = "<attributes set by name>"


def set_by_name(flag: "Value | None", attr: str) -> bool:
    """May an attribute named ``attr`` have been set by a name not known? ``flag`` is the instance's DYNAMIC_ATTRS
    entry: a tuple of the known beginnings of those names (``setattr(self, f"optim{i}", o)``: "optim"; "" for any)."""
    if flag is None:
        return False
    if not isinstance(flag, SeqV):
        return True
    return any(not isinstance(p, StrV) or attr.startswith(p.value) for p in flag.items)


@dataclass(frozen=True)
class ManyV:
    """A list / ModuleList / tuple of unknown length whose every element is like ``elem`` (None: no element seen yet).

    ``[Block(dim) for _ in range(depth)]``, or a list filled by ``layers.append(...)`` in a loop."""

    elem: "Value | None"
    kind: str = "list"  # "list" | "modulelist"
    # how many elements, when a loop of a known number of iterations appended one in each (``for t in range(T):
    # logits.append(...)``); only joins read it (torch.stack of an empty list raises, so a negative T cannot pass)
    count: "Size | None" = None


Value = Union[
    Unknown,
    TensorV,
    IntV,
    StrV,
    BoolV,
    FloatV,
    NoneV,
    SeqV,
    DictV,
    StateDictV,
    IntDictV,
    DtypeV,
    RefV,
    LayerV,
    FuncV,
    ObjV,
    ManyV,
]


MAX_ALTS = 4


def _informative(t: TensorV) -> bool:
    # (known trailing axes count: a Linear's ``(..., out_features)`` on each path of ``if glu: ... else: ...``)
    return t.shape is not None or bool(t.not_ranks) or t.vshape is not None


def join(a: Value, b: Value) -> Value:
    """The value after an if/else: equal values survive, differing tensors keep what both agree on."""
    if a == b:
        return a
    if isinstance(a, TensorV) and isinstance(b, TensorV):
        shape = a.shape if a.shape == b.shape else None
        alts = None
        not_ranks: frozenset[int] = frozenset()
        if shape is None:
            options: list[TensorV] = []
            for t in (a.alts or (a,)) + (b.alts or (b,)):
                if t not in options:
                    options.append(t)
            if len(options) <= MAX_ALTS and any(_informative(t) for t in options):
                alts = tuple(options)
            if a.shape is None and b.shape is None and not a.alts and not b.alts:
                not_ranks = a.not_ranks & b.not_ranks
        return TensorV(
            shape,
            a.dtype if a.dtype == b.dtype else None,
            a.framework if a.framework == b.framework else None,
            a.axes if a.axes == b.axes and shape is not None else None,
            a.origin if shape is not None else None,
            a.vshape if a.vshape == b.vshape else None,
            alts,
            not_ranks,
        )
    if isinstance(a, IntV) and isinstance(b, IntV) and a.size == b.size:
        return a if b.origin is None else b  # an int that may be numpy's either way stays one
    if type(a) is type(b) and isinstance(a, (FloatV, BoolV)):
        # a float (a bool) either way, of a value the branches disagree on: ``eps = 1e-5 if fp32 else 1e-3``
        # added to a tensor keeps its shape
        return type(a)(None)
    if isinstance(a, SeqV) and isinstance(b, SeqV) and len(a.items) == len(b.items) and a.kind == b.kind:
        return SeqV(
            tuple(join(x, y) for x, y in zip(a.items, b.items)), a.kind, a.names if a.names == b.names else None
        )
    if isinstance(a, ManyV) and isinstance(b, ManyV) and a.kind == b.kind:
        return ManyV(join_elem(a.elem, b.elem), a.kind, a.count if a.count == b.count else None)
    if (
        isinstance(a, DictV)
        and isinstance(b, DictV)
        and a.kind == b.kind == "dict"
        and [k for k, _ in a.items] == [k for k, _ in b.items]
    ):
        # the same keys either way (``{"label": y, "tokens": []}`` filled by a loop): each entry joined
        return DictV(tuple((k, join(x, y)) for (k, x), (_, y) in zip(a.items, b.items)), "dict")
    if isinstance(a, IntDictV) and isinstance(b, IntDictV) and [k for k, _ in a.items] == [k for k, _ in b.items]:
        # the same keys either way (``if exists(sle): residuals[res] = sle(x)`` decided alike, or set in both)
        return IntDictV(tuple((k, join(x, y)) for (k, x), (_, y) in zip(a.items, b.items)))
    if isinstance(a, StateDictV) and isinstance(b, StateDictV):
        # a state dict either way: the keys known on both paths (any other key may be in it)
        theirs = dict(b.items)
        return StateDictV(tuple((k, join(v, theirs[k])) for k, v in a.items if k in theirs))
    if isinstance(a, ObjV) and isinstance(b, ObjV) and a.cls_key == b.cls_key and a.concrete and b.concrete:
        names = [k for k, _ in a.attrs]
        if names == [k for k, _ in b.attrs]:
            return ObjV(a.cls_key, tuple((k, join(x, y)) for (k, x), (_, y) in zip(a.attrs, b.attrs)), True)
    if (_callable_option(a) or (isinstance(a, LayerV) and a.kind == "either")) and (
        _callable_option(b) or (isinstance(b, LayerV) and b.kind == "either")
    ):
        return _join_callables(a, b)
    return UNKNOWN


def _callable_option(v: Value) -> bool:
    """A value a call runs: a class or function of the analysed code or of a framework, a partial, a layer, an
    object of the analysed code (an "either" of them is its options)."""
    if isinstance(v, RefV):
        return v.qualname.startswith(("class:", "torch.nn.", "flax.", "equinox.nn."))
    if isinstance(v, LayerV):
        return v.kind != "namedtuple"
    return isinstance(v, FuncV) or (isinstance(v, ObjV) and v.concrete)


def callable_options(v: Value) -> tuple[Value, ...]:
    """The values a callable may be: an "either" (``LayerV("either")``) its options, else the value itself."""
    if isinstance(v, LayerV) and v.kind == "either":
        options: tuple[Value, ...] = v.param("options", ())
        return options
    return (v,)


def _join_callables(a: Value, b: Value) -> Value:
    """Two callables after an undecided if/else (``LayerNorm = partial(nn.LayerNorm, bias=False)`` under a version
    check, ``act = nn.ReLU if flag else nn.GELU``): an "either" that a call runs as each option, keeping what the
    results agree on (at most MAX_ALTS options; anything else: unknown)."""
    options: list[Value] = []
    for v in callable_options(a) + callable_options(b):
        if not _callable_option(v) or (isinstance(v, LayerV) and v.kind == "either"):
            return UNKNOWN
        if v not in options:
            options.append(v)
    if len(options) > MAX_ALTS:
        return UNKNOWN
    return LayerV("either", (("options", tuple(options)),))


def join_elem(a: "Value | None", b: "Value | None") -> "Value | None":
    """``join`` where None stands for 'no value yet' (the element of an empty list)."""
    if a is None:
        return b
    if b is None:
        return a
    return join(a, b)


def number_of(v: Value) -> int | float | None:
    """The value of a Python number when it is known: a constant int size, or a float's value."""
    if isinstance(v, IntV):
        return v.size.as_int()
    return v.value if isinstance(v, FloatV) else None


def elements_of(v: Value) -> "Value | None":
    """What every element of a sequence is like (None when unknown or empty)."""
    if isinstance(v, ManyV):
        return v.elem
    if isinstance(v, SeqV) and v.kind != "shape" and v.items:
        out: Value | None = None
        for it in v.items:
            out = join_elem(out, it)
        return out
    return None


# Exact element values (TensorV.values) an in-place operation may have changed since they were made: an operation
# on any tensor holding them (``lengths += 1``, ``ix.add_(1)``, ``ix[0] = 5``, through whatever name or frame) makes
# every copy of them stale for the rest of the run. Each making has its own serial number (a function analysed again
# makes them afresh).
_STALE_MAKINGS: set[int] = set()
_MAKINGS = itertools.count()
MAX_EXACT = 64  # at most this many exact elements are kept
EXACT_LIMIT = 1 << 20  # of magnitude below this (no dtype overflows on sums of them)


def exact(values: tuple[int, ...], node: Any) -> tuple[tuple[int, ...], Any, int]:
    """A ``TensorV.values`` for elements ``values`` made by the call ``node`` (a new making)."""
    return values, node, next(_MAKINGS)


def mark_stale(v: "Value") -> None:
    """``v`` (a tensor) was changed in place: the exact values its making gave it no longer hold anywhere."""
    if isinstance(v, TensorV) and v.values is not None:
        _STALE_MAKINGS.add(v.values[2])


def exact_values(v: "Value") -> tuple[int, ...] | None:
    """The exact elements of a small integer tensor (``torch.tensor([33, 20])``), when known and not stale."""
    if not isinstance(v, TensorV) or v.values is None or v.shape is None or v.alts:
        return None
    if v.values[2] in _STALE_MAKINGS:
        return None
    return v.values[0]


# the integer dtypes whose arithmetic exact_arith follows (narrower ones wrap around: uint8 250 + 10 is 4)
_INT_DTYPES = (None, "int64", "int32")


def known_count(shape: "tuple[Size, ...] | None") -> int | None:
    """The number of elements of an array of this shape, when every size is known (None otherwise)."""
    if shape is None:
        return None
    n = 1
    for s in shape:
        k = s.as_int()
        if k is None:
            return None
        n *= k
    return n


def exact_arith(left: "Value", op: str, right: "Value", node: Any) -> "tuple[tuple[int, ...], Any, int] | None":
    """``TensorV.values`` of ``left op right`` (``+``, ``-``, ``*``, ``//``, ``%``) when each side is an integer
    tensor of exactly known elements (``exact_values``) or a known int, of the same number of elements or one of them
    a single one (``(lengths - 400) // 320 + 1``, wav2vec2's frame counts); None otherwise (a float, an unknown, a
    division by zero)."""
    sides: list[tuple[int, ...]] = []
    for v in (left, right):
        if isinstance(v, IntV) and not v.assumed and (k := v.size.as_int()) is not None:
            sides.append((k,))
            continue
        vals = exact_values(v)
        if vals is None or not isinstance(v, TensorV) or v.dtype not in _INT_DTYPES:
            return None
        sides.append(vals)
    a, b = sides
    if len(a) != len(b) and 1 not in (len(a), len(b)):
        return None
    n = max(len(a), len(b))
    a, b = (a * n if len(a) == 1 else a), (b * n if len(b) == 1 else b)
    if op in ("//", "%") and 0 in b:
        return None
    fns = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__, "//": int.__floordiv__, "%": int.__mod__}
    if op not in fns:
        return None
    return exact(tuple(fns[op](x, y) for x, y in zip(a, b)), node)


def exact_scalar(v: "Value") -> int | None:
    """The one element of a tensor of exactly one known element (``lengths.max()``), else None."""
    vals = exact_values(v)
    if vals is None or len(vals) != 1 or not isinstance(v, TensorV) or v.shape is None:
        return None
    if any(s.as_int() != 1 for s in v.shape):
        return None
    return vals[0]


# flax's model.init / model.apply runs in progress (innermost last; module.call_flax_method): for each, the method
# frame it runs (the module's own ``__call__``), "init" or "apply", and the record of the input features each
# ``nn.Dense`` of that frame first saw at init (by the Dense's node), which an apply with those params checks.
# FLAX_INIT_RECORDS: those records by the token the init's variables carry (LayerV "flax_variables" / "flax_params").
FLAX_PARAM_RUNS: "list[dict[str, Any] | None]" = []
FLAX_INIT_RECORDS: "dict[int, dict[int, tuple[Any, Any]]]" = {}
FLAX_TOKENS = itertools.count(1)
