"""Calls of library functions that the interpreter answers itself, by qualified name: Python's standard library
(``collections.OrderedDict``, ``copy.deepcopy``, ``functools.partial``, ``itertools``, ``dataclasses.asdict``,
``namedtuple``, ``math.prod``, ``os.path`` / ``urllib.parse`` on known strings) and the frameworks' function
transforms and containers (``jax.vmap`` / ``jit`` / ``grad`` / ``lax.scan``, ``eqx.tree_at``, pytree flattening,
``torch.nn.utils.weight_norm``, packed sequences, ``np.pad``, random generators).

Where a call of a qualified name goes (``ModuleAnalysis.call_qualified``, for ``f(...)`` and for a function value
called later: ``partial(np.pad, ...)``, ``map(f, xs)``): to the rules registered here, in registration order, the
first answer that is not None winning; then to the analysed code's own functions and classes, and to the op rules of
``rules/registry.py`` (einops, framework functions and stubs, layers). Builtins (``len``, ``zip``, ``getattr``)
have a table of their own, ``module._BUILTINS``. Add a call the interpreter must answer (one that needs the analysis: calling a function value,
forgetting what a call may change) with ``@library_call("qualified.name")`` here; an op on tensors goes to the rules.

A rule takes the call (``LibraryCall``: the module's analysis, the interpreter, the node, the qualified name, the
evaluated arguments) and returns its value, or None to let the next rule answer. A rule may replace an argument value
in ``args`` for the rules after it (``_imported_function``). ``call_qualified``
consults the table after its own checks: a library name the analysed module assigns itself (``F.linear =
flat_linear``: ``patched_library``) is unknown, and einops calls have rules of their own.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, cast

import libcst as cst

from ...diagnostics import details as D
from ...sizes import Size
from ..index.imports import dotted
from ..index.project import MODELLED
from .context import OpSpec
from .interpreter import _var_key, int_of
from .values import (
    INCOMPLETE_NAMESPACE,
    RAISES_CONTEXT,
    NUMPY_INT,
    UNKNOWN,
    BoolV,
    DictV,
    FloatV,
    FuncV,
    IntDictV,
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
    elements_of,
)

if TYPE_CHECKING:
    from ..index.functions import ClassInfo
    from .interpreter import Interpreter
    from .module import ModuleAnalysis


class LibraryCall(NamedTuple):
    """One call of a registered name: the module's analysis, the interpreter running the call, the call node, its
    qualified name, the evaluated positional and keyword arguments (``*`` / ``**`` spread where known), and whether
    some spread was not known."""

    m: ModuleAnalysis
    interp: Interpreter
    node: cst.Call
    qual: str
    args: list[Value]
    kwargs: dict[str, Value]
    dynamic: bool


LibraryRule = Callable[[LibraryCall], "Value | None"]
LIBRARY_CALLS: dict[str, list[LibraryRule]] = {}


def library_call(*quals: str) -> Callable[[LibraryRule], LibraryRule]:
    """Register a rule for calls of these qualified names (after the rules already registered for them)."""

    def register(rule: LibraryRule) -> LibraryRule:
        for q in quals:
            LIBRARY_CALLS.setdefault(q, []).append(rule)
        return rule

    return register


def call_library(
    m: ModuleAnalysis,
    interp: Interpreter,
    node: cst.Call,
    qual: str,
    args: list[Value],
    kwargs: dict[str, Value],
    dynamic: bool,
) -> Value | None:
    """The value of a call of ``qual`` by the rules registered for it (None: no rule, or none answered)."""
    rules = LIBRARY_CALLS.get(qual)
    if rules is None:
        return None
    call = LibraryCall(m, interp, node, qual, args, kwargs, dynamic)
    for rule in rules:
        got = rule(call)
        if got is not None:
            return got
    return None


# -- helpers -------------------------------------------------------------------------------------------------------------


VMAPS = frozenset({"jax.vmap", "equinox.filter_vmap", "torch.vmap", "torch.func.vmap", "functorch.vmap", "haiku.vmap"})
# torch's vmap: ``in_dims`` / ``out_dims``, keyword arguments passed as they are (not mapped)
TORCH_VMAPS = frozenset({"torch.vmap", "torch.func.vmap", "functorch.vmap"})


# pytree flattening (the leaves of nested tuples and lists, in order)
_TREE_FLATTENS = frozenset(
    {
        "torch.utils._pytree.tree_flatten",
        "torch.utils._pytree.tree_leaves",
        "jax.tree_util.tree_flatten",
        "jax.tree_util.tree_leaves",
        "jax.tree.flatten",
        "jax.tree.leaves",
    }
)


_MAX_LEAVES = 64


def _tree_leaves(v: Value, depth: int, jax: bool = False) -> list[Value] | None:
    """The leaves of a pytree made of tuples and lists whose every piece is known: arrays, numbers, strings and
    booleans are leaves. None (a leaf for some libraries, an empty subtree for others), dicts (key order differs),
    objects and unknown values (perhaps containers): None. ``jax``: as jax flattens, None an empty subtree and a
    dict's values by sorted key too."""
    if isinstance(v, IntV) and v.assumed:
        return None  # a constructor parameter that may be a tuple
    if isinstance(v, (TensorV, IntV, FloatV, BoolV, StrV)):
        return [v]
    if jax and isinstance(v, NoneV):
        return []
    if jax and depth <= 8 and isinstance(v, DictV) and v.kind == "dict":
        v = SeqV(tuple(x for _, x in sorted(v.items, key=lambda kv: kv[0])), "tuple")
    if depth > 8 or not isinstance(v, SeqV) or v.kind not in ("tuple", "list") or v.names is not None and jax:
        return None
    out: list[Value] = []
    for x in v.items:
        got = _tree_leaves(x, depth + 1, jax)
        if got is None:
            return None
        out.extend(got)
        if len(out) > _MAX_LEAVES:
            return None
    return out


# transforms whose result is called as the function itself (same shapes)
SAME_FUNCTION = frozenset(
    {
        "jax.jit",
        "equinox.filter_jit",
        "jax.checkpoint",
        "jax.remat",
        "equinox.filter_checkpoint",
        "jax.custom_vjp",
        "jax.custom_jvp",
        "flax.nnx.jit",
        "flax.nnx.remat",
        # torch.compile(model) / torch.jit.script(model): a module (or function) whose call runs the same forward
        "torch.compile",
        "torch.jit.script",
    }
)


_SAME_MODULE = frozenset(
    {
        "torch.nn.utils.weight_norm",
        "torch.nn.utils.spectral_norm",
        "torch.nn.utils.parametrizations.weight_norm",
        "torch.nn.utils.parametrizations.spectral_norm",
        # nn.DataParallel(model) / DistributedDataParallel(model): calling the wrapper runs the model's forward (on
        # chunks of the batch, gathered along axis 0: the same shapes)
        "torch.nn.DataParallel",
        "torch.nn.parallel.DataParallel",
        "torch.nn.parallel.DistributedDataParallel",
        "torch.nn.parallel.distributed.DistributedDataParallel",
        "torch.nn.parallel.data_parallel.DataParallel",
    }
)


GRADS = frozenset(
    {
        "jax.grad",
        "jax.value_and_grad",
        "equinox.filter_grad",
        "equinox.filter_value_and_grad",
        "flax.nnx.grad",  # (the gradient of a module argument is an nnx.State: unknown here)
        "flax.nnx.value_and_grad",
    }
)


# transforms that trace their function: every argument they are handed that is not static arrives as an array (a
# tracer), a Python number or bool among them included (``jax.jit(f)(x, 3)``: ``n`` is a 0-d array in ``f``, so
# ``isinstance(n, int)`` is False and it gives no size). ``eqx.filter_jit`` keeps what is not an array static.
TRACES = frozenset({"jax.jit", "jax.checkpoint", "jax.remat", "flax.nnx.jit", "flax.nnx.remat"})


# their options that change no argument (static_argnums / static_argnames are read)
_TRACE_OPTIONS = frozenset(
    {"donate_argnums", "donate_argnames", "inline", "keep_unused", "device", "backend", "prevent_cse", "policy"}
)


TraceSpec = tuple[frozenset[int], frozenset[str]]  # the static argument positions and names


def static_literal(node: cst.BaseExpression) -> list[int | str] | None:
    """``1`` / ``(1, 2)`` / ``"n"`` / ``("a", "b")`` / ``[...]``: the positions or names (None: not such a literal)."""
    if type(node) is cst.Integer:
        return [int(node.evaluated_value)]
    if type(node) is cst.SimpleString:
        text = node.evaluated_value
        return [text] if isinstance(text, str) else None
    if isinstance(node, (cst.Tuple, cst.List)):
        out: list[int | str] = []
        for el in node.elements:
            if type(el) is cst.StarredElement:
                return None
            got = static_literal(el.value)
            if got is None:
                return None
            out.extend(got)
        return out
    return None


def _static_value(v: Value) -> list[int | str] | None:
    """The static positions or names an evaluated option holds (None: not known)."""
    if isinstance(v, IntV) and v.size.as_int() is not None:
        return [v.size.as_int()]  # type: ignore[list-item]
    if isinstance(v, StrV):
        return [v.value]
    if isinstance(v, SeqV) and v.kind in ("tuple", "list"):
        out: list[int | str] = []
        for item in v.items:
            got = _static_value(item)
            if got is None:
                return None
            out.extend(got)
        return out
    return None


def trace_spec(options: dict[str, list[int | str] | None]) -> TraceSpec | None:
    """The statics of a tracing transform from its keyword options (None: an option not understood, or statics not
    known: the arguments are then taken as they are)."""
    nums: set[int] = set()
    names: set[str] = set()
    for k, got in options.items():
        if k in _TRACE_OPTIONS:
            continue
        if k not in ("static_argnums", "static_argnames") or got is None:
            return None
        for x in got:
            if isinstance(x, int) and k == "static_argnums" and x >= 0:
                nums.add(x)
            elif isinstance(x, str) and k == "static_argnames":
                names.add(x)
            else:
                return None  # a negative position (counted from the end of the call's arguments)
    return frozenset(nums), frozenset(names)


def grad_transform(qual: str, args: list[Value], kwargs: dict[str, Value], node: cst.Call) -> Value:
    """``jax.grad(f, argnums=0, has_aux=False)`` / ``value_and_grad`` / ``eqx.filter_grad(f, has_aux=False)`` as a
    callable (Module.call_grad). argnums other than one int, and has_aux not a literal, leave parts unknown."""
    filt = qual.startswith("equinox.")
    names = ("has_aux",) if filt else ("argnums", "has_aux")
    extra = dict(zip(names, args[1:]))
    extra.update(kwargs)
    if len(args) - 1 > len(names) or set(extra) - set(names) - {"holomorphic", "allow_int", "reduce_axes"}:
        return UNKNOWN
    an = extra.get("argnums", IntV(Size.const(0)))
    argnums = an.size.as_int() if isinstance(an, IntV) else None
    ha = extra.get("has_aux", BoolV(False))
    has_aux = ha.value if isinstance(ha, BoolV) else None
    return LayerV(
        "grad",
        (
            ("func", args[0]),
            ("value", qual.endswith("value_and_grad")),
            ("argnums", 0 if filt else argnums),
            ("has_aux", has_aux),
            ("filter", filt),
        ),
        node,
    )


NO_AXES = object()  # in_axes not given


class IfArray(NamedTuple):
    """``eqx.if_array(axis)`` in ``eqx.filter_vmap``'s ``in_axes``: the arrays of that argument mapped over ``axis``,
    anything else not mapped (``filter_vmap``'s default is ``if_array(0)``)."""

    axis: int


def _vmap_in_axes(qual: str, args: list[Value], kwargs: dict[str, Value]) -> Any:
    """The ``in_axes`` of ``jax.vmap(f, in_axes, out_axes)`` / ``eqx.filter_vmap(f, in_axes=..., out_axes=...)`` as
    an int, None (the argument is not mapped) or a tuple of those per positional argument; ``NO_AXES`` when not
    given (jax: 0 for every argument; equinox: ``if_array(0)``, arrays on axis 0 and anything else unmapped).
    ``None`` (the Python value) when the call is not modelled: out_axes other than 0, a pytree or callable spec,
    ``axis_name`` / ``axis_size`` or other options."""
    filt = qual == "equinox.filter_vmap"
    # torch.vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None): the same axes under other
    # names (randomness and chunk_size change no shape)
    ins, outs = ("in_dims", "out_dims") if qual in TORCH_VMAPS else ("in_axes", "out_axes")
    # hk.vmap(f, in_axes, out_axes, *, split_rng): jax.vmap's axes (whether keys are split changes no shape)
    options = {"randomness", "chunk_size"} if qual in TORCH_VMAPS else {"split_rng"} if qual == "haiku.vmap" else set()
    if len(args) > (1 if filt else 3) or set(kwargs) - {ins, outs} - options:
        return None
    spec = args[1] if len(args) > 1 else kwargs.get(ins)
    out = args[2] if len(args) > 2 else kwargs.get(outs)
    if (len(args) > 1 and ins in kwargs) or (len(args) > 2 and outs in kwargs):
        return None
    if out is not None and _vmap_out_axis(out) is None:
        return None

    def one(v: Value) -> Any:
        if isinstance(v, NoneV):
            return None
        if isinstance(v, LayerV) and v.kind == "if_array":
            return IfArray(v.param("axis")) if filt else NO_AXES  # (jax.vmap takes no callables there)
        k = int_of(v)
        return k if k is not None else NO_AXES

    if spec is None:
        return NO_AXES
    if isinstance(spec, SeqV) and spec.kind in (("tuple",) if filt or qual in TORCH_VMAPS else ("tuple", "list")):
        axes = tuple(one(v) for v in spec.items)
        return None if NO_AXES in axes else axes
    axis = one(spec)
    return None if axis is NO_AXES else ("all", axis)


def _vmap_out_axis(out: Value | None) -> int | None:
    """The ``out_axes`` of a vmap when it is one known int (default 0): where the mapped axis goes in each array
    result; None for anything else (a pytree of axes, None, a callable), which is not modelled."""
    if out is None:
        return 0
    if isinstance(out, IntV) and out.assumed:
        return None
    return int_of(out) if isinstance(out, IntV) else None


def _zip_longest(args: list[Value]) -> Value:
    """``itertools.zip_longest(dims, dims[1:])`` of tuples and lists the analysis knows (no ``fillvalue``): as
    many tuples as the longest, the shorter ones' places None."""
    args = [tensor_items(a) for a in args]
    if not args or not all(isinstance(a, SeqV) and a.kind in ("tuple", "list", "range", "modulelist") for a in args):
        return UNKNOWN  # (an nn.ModuleList's modules, in order, as ``zip`` takes them)
    seqs = [a for a in args if isinstance(a, SeqV)]
    n = max(len(a.items) for a in seqs)
    fill = NoneV()
    return SeqV(tuple(SeqV(tuple(a.items[i] if i < len(a.items) else fill for a in seqs)) for i in range(n)), "tuple")


def _itertools_call(qual: str, args: list[Value]) -> Value:
    """``islice(cycle(attn_types), depth)``: ``cycle`` of a known non-empty tuple or list repeats its elements without
    end (held as any number of their join); ``islice`` of it, or of a known sequence, up to a known stop is that
    many elements (each the join for a cycle, so a branch on one stays undecided unless all are alike)."""
    if qual == "itertools.repeat":  # repeat(x, n): n times the same object (without n, endless: unknown)
        n = int_of(args[1]) if len(args) == 2 and not (isinstance(args[1], IntV) and args[1].assumed) else None
        return SeqV((args[0],) * max(n, 0), "iter") if n is not None and n <= MAX_RANGE else UNKNOWN
    if qual == "itertools.cycle":
        if len(args) == 1 and isinstance(args[0], SeqV) and args[0].kind in ("tuple", "list") and args[0].items:
            return ManyV(elements_of(args[0]), "cycle")
        return UNKNOWN
    bounds = [int_of(a) if not isinstance(a, NoneV) else None for a in args[1:]]
    if not 2 <= len(args) <= 4 or any(b is None and not isinstance(a, NoneV) for a, b in zip(args[1:], bounds)):
        return UNKNOWN
    if any(b is not None and b < 0 for b in bounds) or (len(bounds) == 3 and bounds[2] == 0):
        return UNKNOWN  # islice raises ValueError
    window = slice(*bounds) if len(bounds) > 1 else slice(bounds[0])
    src = args[0]
    if isinstance(src, SeqV) and src.kind in ("tuple", "list"):
        return SeqV(tuple(src.items[window]), "tuple")
    if isinstance(src, ManyV) and src.kind == "cycle" and src.elem is not None and window.stop is not None:
        n = len(range(window.stop)[window])
        return SeqV((src.elem,) * n, "tuple") if n <= MAX_RANGE else UNKNOWN
    return UNKNOWN


def _pairwise(a: Value) -> Value:
    """``itertools.pairwise(xs)`` of a known tuple, list or range, or of an array whose first axis has a known length
    (``for prev, succ in pairwise(seq)``): the overlapping pairs of its items, one fewer than the items."""
    a = tensor_items(a)
    if not isinstance(a, SeqV) or a.kind not in ("tuple", "list", "range"):
        return UNKNOWN
    return SeqV(tuple(SeqV((x, y), "tuple") for x, y in zip(a.items, a.items[1:])), "tuple")


def tensor_items(a: Value) -> Value:
    """An array iterated (``zip(dims, keys)``): its slices along axis 0 when that axis has a known length (at most
    MAX_RANGE); anything else as it is."""
    if isinstance(a, TensorV) and a.shape and a.alts is None:
        n = a.shape[0].as_int()
        if n is not None and 0 <= n <= MAX_RANGE:
            item = a.with_shape(a.shape[1:], a.axes[1:] if a.axes is not None else None)
            return SeqV((item,) * n, "tuple")
    return a


MAX_RANGE = 128  # range(n) of a known n up to this many elements is a sequence of known ints


def _carried(v: Value, depth: int = 4) -> Value:
    """A loop carry of ``jax.lax.while_loop`` / ``fori_loop`` after the loop: arrays keep their shapes (as JAX arrays),
    Python numbers become 0-d arrays, tuples, lists and dicts keep their structure; anything else is unknown."""
    if isinstance(v, TensorV):
        return TensorV(v.shape, v.dtype, "jax", v.axes, None, v.vshape)
    if isinstance(v, (IntV, FloatV, BoolV)):
        return TensorV((), None, "jax")
    if isinstance(v, NoneV):
        return v
    if depth > 0 and isinstance(v, SeqV) and v.kind in ("tuple", "list"):
        return SeqV(tuple(_carried(x, depth - 1) for x in v.items), v.kind, v.names)
    if depth > 0 and isinstance(v, DictV) and v.kind == "dict":
        return DictV(tuple((k, _carried(x, depth - 1)) for k, x in v.items), v.kind)
    return UNKNOWN


def _pure_leaf(n: cst.CSTNode) -> bool:
    """An integer, a name, or ``x.shape[i]`` / ``x.shape``: evaluating it again runs nothing."""
    if type(n) is cst.Subscript:
        n = n.value
    if type(n) is cst.Attribute:
        return n.attr.value == "shape" and type(n.value) is cst.Name
    return type(n) in (cst.Integer, cst.Name)


def _padded(interp: Interpreter, node: cst.Call, args: list[Value], kwargs: dict[str, Value], fw: str) -> Value | None:
    """``np.pad(x, pad_width)`` / ``jnp.pad``: each axis grows by its (before, after) widths; ``pad_width`` an int, a
    ``(before, after)`` pair for every axis, one pair per axis, or the same written as ``np.array([[...], ...])`` of
    names and integers. Widths not known (or negative): None (the stub's unknown shape)."""
    x = args[0]
    width = args[1] if len(args) > 1 else kwargs.get("pad_width", UNKNOWN)
    if not isinstance(x, TensorV) or x.shape is None:
        return None
    arg = node.args[1].value if len(node.args) > 1 and node.args[1].keyword is None else None
    if isinstance(width, TensorV) and type(arg) is cst.Call and len(arg.args) == 1 and arg.args[0].keyword is None:
        # np.array([[0, 0], [0, pad]]): its literal rows (names and integers only: evaluating them runs nothing)
        name = dotted(arg.func) or ""
        inner = arg.args[0].value
        if name.rsplit(".", 1)[-1] in ("array", "asarray") and all(_pure_leaf(n) for n in _literal_nodes(inner)):
            width = interp.eval(inner)

    def pair(v: Value) -> tuple[Size, Size] | None:
        if isinstance(v, IntV):
            return (v.size, v.size)
        if isinstance(v, SeqV) and v.kind != "shape" and len(v.items) in (1, 2):
            ends = [x.size for x in v.items if isinstance(x, IntV) and not x.assumed]
            if len(ends) == len(v.items):
                return (ends[0], ends[-1])
        return None

    rank = len(x.shape)
    pairs: list[tuple[Size, Size]] | None = None
    one = pair(width)
    if one is not None:
        pairs = [one] * rank
    elif isinstance(width, SeqV) and width.kind != "shape":
        each = [pair(v) for v in width.items]
        if all(p is not None for p in each):
            ps = [p for p in each if p is not None]
            pairs = ps * rank if len(ps) == 1 else ps if len(ps) == rank else None
    if pairs is None or any((s.as_int() or 0) < 0 for p in pairs for s in p):
        return None
    dtype = x.dtype
    return TensorV(tuple(d + a + b for d, (a, b) in zip(x.shape, pairs)), dtype, fw)


def _literal_nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The leaves of a nested list / tuple display (its items, recursively), the operands of arithmetic on them."""
    out: list[cst.CSTNode] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.List, cst.Tuple)):
            stack.extend(e.value for e in n.elements)
        elif type(n) is cst.BinaryOperation:
            stack.extend((n.left, n.right))
        elif type(n) is cst.UnaryOperation:
            stack.append(n.expression)
        else:
            out.append(n)
    return out


def _copied(v: Value, deep: bool) -> Value:
    """``copy.copy(v)`` / ``copy.deepcopy(v)``: new containers with the same values (a deep copy copies the
    containers inside too), so that changing the copy leaves the original's names alone."""
    if isinstance(v, DictV):
        return DictV(tuple((k, _copied(x, deep) if deep else x) for k, x in v.items), v.kind)
    if isinstance(v, IntDictV):
        return IntDictV(tuple((k, _copied(x, deep) if deep else x) for k, x in v.items))
    if isinstance(v, SeqV):
        return SeqV(tuple(_copied(x, deep) if deep else x for x in v.items), v.kind, v.names)
    return v


def _forget_with_aliases(interp: "Interpreter", node: cst.BaseExpression) -> None:
    """What ``node`` names (a variable, ``self.x``, or an attribute of an object) changed in a way not tracked: it
    and every other name for the same value are unknown (an attribute chain forgets its object)."""
    key = _var_key(node)
    if key is None:
        interp.forget_object(node)
        return
    held = interp.scope.vars.get(key)
    if isinstance(held, (LayerV, ObjV)):
        for other, v in list(interp.scope.vars.items()):
            if v is held:
                interp.scope.vars[other] = UNKNOWN
    interp.scope.vars[key] = UNKNOWN


_STRING_FUNCTIONS = frozenset(
    {
        "urllib.parse.urlsplit",
        "urllib.parse.urlparse",
        "os.path.split",
        "os.path.basename",
        "os.path.dirname",
        "os.path.splitext",
    }
)


def _string_function(qual: str, args: list[Value]) -> Value | None:
    """``urlsplit(name)`` / ``os.path.split(path)`` & co. of a known string (a model name parsed before it is looked
    up in a registry): the standard library's own answer. A path with a backslash or a colon is left alone (Windows
    reads those as separators and drives)."""
    if len(args) != 1 or not isinstance(args[0], StrV):
        return None
    import posixpath
    import urllib.parse

    text = args[0].value
    if qual.startswith("urllib."):
        try:
            url = urllib.parse.urlsplit(text) if qual.endswith("urlsplit") else urllib.parse.urlparse(text)
        except ValueError:
            return None
        return SeqV(tuple(StrV(p) for p in url), "tuple", tuple(url._fields))
    if "\\" in text or ":" in text:
        return None
    name = qual.rpartition(".")[2]
    out = getattr(posixpath, name)(text)
    return StrV(out) if isinstance(out, str) else SeqV(tuple(StrV(p) for p in out), "tuple")


def _namedtuple_type(node: cst.Call, args: list[Value], kwargs: dict[str, Value]) -> LayerV | None:
    """``namedtuple('Return', ['quantized', 'indices'], defaults=[None])`` / ``namedtuple('P', 'x y')`` /
    ``NamedTuple('P', [('x', Tensor), ('y', Tensor)])``: a tuple type whose fields are known. Anything else (a dynamic
    field list, ``rename=True``): None."""
    if len(args) != 2 or not isinstance(args[0], StrV) or set(kwargs) - {"defaults", "module"}:
        return None
    spec = args[1]
    fields: list[str] = []
    if isinstance(spec, StrV):
        fields = spec.value.replace(",", " ").split()
    elif isinstance(spec, SeqV) and spec.kind in ("tuple", "list"):
        for item in spec.items:
            if isinstance(item, StrV):
                fields.append(item.value)
            elif isinstance(item, SeqV) and len(item.items) == 2 and isinstance(item.items[0], StrV):
                fields.append(item.items[0].value)  # typing.NamedTuple's (name, type) pairs
            else:
                return None
    else:
        return None
    if not all(f.isidentifier() and not f.startswith("_") for f in fields) or len(set(fields)) != len(fields):
        return None  # Python raises (or renames with rename=True)
    defaults: tuple[Value, ...] = ()
    if "defaults" in kwargs:
        d = kwargs["defaults"]
        if isinstance(d, NoneV):
            defaults = ()
        elif isinstance(d, SeqV) and d.kind in ("tuple", "list") and len(d.items) <= len(fields):
            defaults = d.items
        else:
            return None
    return LayerV("namedtuple", (("name", args[0].value), ("fields", tuple(fields)), ("defaults", defaults)), node)


# numpy's random generators: a Generator (default_rng) and a legacy RandomState sample with the module's signatures
# (``rng.normal(loc, scale, size)``, ``rng.integers(low, high, size)``, ``rs.randn(2, 3)``)
_RANDOM_STATE_MAKERS = {
    "numpy.random.default_rng": "numpy.random",
    "numpy.random.RandomState": "numpy.random",
}


RANDOM_STATES = frozenset(_RANDOM_STATE_MAKERS.values())


# values of these kinds are never called as functions (callable(d) and inspect.isfunction(d) are False)
PLAIN_DATA = (TensorV, IntV, FloatV, StrV, NoneV, SeqV, BoolV, DictV)


def _isfunction(v: Value) -> Value:
    """``inspect.isfunction(d)``: a plain function or lambda of the analysed code is one; a bound method, a class, a
    partial, a tensor, a number, a string, None, a sequence are not. Objects and anything else: unknown."""
    if isinstance(v, FuncV):
        return BoolV(v.bound_self is None)
    if (isinstance(v, RefV) and v.qualname.startswith("class:")) or (isinstance(v, LayerV) and v.kind == "partial"):
        return BoolV(False)
    if isinstance(v, PLAIN_DATA):
        return BoolV(False)
    return UNKNOWN


# -- rules -------------------------------------------------------------------------------------------------------------


@library_call("collections.OrderedDict")
def _ordered_dict(c: LibraryCall) -> Value | None:
    if not c.dynamic and not c.args:
        return DictV(tuple(c.kwargs.items()))  # OrderedDict(c2=c2, c3=c3): the keywords in order, as dict(...)
    if not c.dynamic and len(c.args) == 1 and isinstance(c.args[0], DictV) and c.args[0].kind == "dict":
        return DictV(tuple({**dict(c.args[0].items), **c.kwargs}.items()))  # a copy, the keywords replacing its keys
    if (
        not c.dynamic
        and not c.kwargs
        and len(c.args) == 1
        and isinstance(c.args[0], SeqV)
        and all(isinstance(p, SeqV) and len(p.items) == 2 and isinstance(p.items[0], StrV) for p in c.args[0].items)
    ):
        # OrderedDict([("fc1", nn.Linear(...)), ...]): the named entries in order (nn.Sequential(OrderedDict(...)))
        return DictV(
            tuple(
                (p.items[0].value, p.items[1])
                for p in c.args[0].items
                if isinstance(p, SeqV) and isinstance(p.items[0], StrV)
            )
        )
    return None


@library_call("argparse.Namespace", "types.SimpleNamespace")
def _namespace(c: LibraryCall) -> Value | None:
    """``Namespace(seq_len=96, d_model=512)`` / ``SimpleNamespace(**cfg)``: a config object whose attributes are the
    keywords (``**cfg`` of a known dict spread), as an ``argparse`` result is (``argparse_defaults``)."""
    if c.dynamic or c.args:
        return None
    return DictV(tuple(c.kwargs.items()), "namespace")


@library_call("equinox.tree_at")
def _tree_at(c: LibraryCall) -> Value | None:
    if len(c.args) == 3 and not c.kwargs and not c.dynamic:
        from . import objects

        # eqx.tree_at(lambda m: m.head.weight, model, w): the model with that leaf replaced
        return objects.tree_at(c.node.args[0].value, c.args[1], c.args[2])
    return None


@library_call("torch.autograd.Variable", "torch.autograd.variable.Variable")
def _variable(c: LibraryCall) -> Value | None:
    if len(c.args) == 1 and set(c.kwargs) <= {"requires_grad", "volatile"} and not c.dynamic:
        if isinstance(c.args[0], TensorV):
            return c.args[0]  # Variable(torch.randn(2, 3, 32, 32)): since torch 0.4, the tensor itself
    return None


@library_call("torch.is_tensor")
def _is_tensor(c: LibraryCall) -> Value | None:
    if len(c.args) == 1 and not c.kwargs and not c.dynamic:
        # is_tensor(t): decided as isinstance(t, torch.Tensor) is, by the kind of value t holds
        v = c.args[0]
        if isinstance(v, TensorV) and v.framework is not None:
            return BoolV(v.framework == "torch")
        if isinstance(v, (SeqV, NoneV, IntV, FloatV, BoolV, StrV, DictV)):
            return BoolV(False)
        return UNKNOWN
    return None


@library_call(*sorted(_TREE_FLATTENS))
def _tree_flatten(c: LibraryCall) -> Value | None:
    if len(c.args) == 1 and not c.kwargs and not c.dynamic:
        # tree_flatten((logits, embeds)): the leaves in order, and a spec (not followed)
        leaves = _tree_leaves(c.args[0], 0)
        if leaves is None:
            return UNKNOWN
        if c.qual.endswith("leaves"):
            return SeqV(tuple(leaves), "list")
        return SeqV((SeqV(tuple(leaves), "list"), UNKNOWN), "tuple")
    return None


@library_call(*sorted(VMAPS | SAME_FUNCTION | GRADS))
def _imported_function(c: LibraryCall) -> Value | None:
    if c.args and isinstance(c.args[0], RefV) and c.m.project is not None:
        # jax.grad(loss) of a function imported from another module of the tree: that function, for the rules
        # after this one and the call's own handling
        imported = c.m.project.lookup(c.args[0].qualname)
        if isinstance(imported, FuncV):
            c.args[0] = imported
    return None


@library_call(*sorted(VMAPS))
def _vmap(c: LibraryCall) -> Value | None:
    if not c.dynamic and c.args and isinstance(c.args[0], (FuncV, ObjV, LayerV)):
        # jax.vmap(model)(batch), jax.vmap(f, in_axes=(0, None)), eqx.filter_vmap(f): f on each slice along the
        # mapped axes, its array results stacked along axis 0
        in_axes = _vmap_in_axes(c.qual, c.args, c.kwargs)
        if in_axes is not None:
            return LayerV(
                "vmap",
                (
                    ("func", c.args[0]),
                    ("filter", c.qual == "equinox.filter_vmap"),
                    ("in_axes", in_axes),
                    (
                        "out_axes",
                        _vmap_out_axis(
                            c.args[2]
                            if len(c.args) > 2
                            else c.kwargs.get("out_dims" if c.qual in TORCH_VMAPS else "out_axes")
                        ),
                    ),
                    ("torch", c.qual in TORCH_VMAPS),
                ),
                c.node,
            )
    return None


@library_call("equinox.if_array")
def _if_array(c: LibraryCall) -> Value | None:
    """``eqx.if_array(k)``: the axis spec of ``eqx.filter_vmap``'s ``in_axes`` (``_vmap_in_axes``)."""
    k = int_of(c.args[0]) if len(c.args) == 1 and not c.kwargs and not c.dynamic else None
    if k is None or (isinstance(c.args[0], IntV) and c.args[0].assumed):
        return None
    return LayerV("if_array", (("axis", k),), c.node)


@library_call(*sorted(SAME_FUNCTION))
def _same_function(c: LibraryCall) -> Value | None:
    if not c.dynamic and c.args and isinstance(c.args[0], (FuncV, ObjV, LayerV)):
        if c.qual in TRACES and len(c.args) == 1:
            spec = trace_spec({k: _static_value(v) for k, v in c.kwargs.items()})
            if spec is not None:
                # jax.jit(f, static_argnums=1): f's shapes, on its arguments as the trace hands them over
                return LayerV("traced", (("func", c.args[0]), ("spec", spec)), c.node)
        return c.args[0]  # jax.jit(f), eqx.filter_jit(f), jax.checkpoint(f): f's shapes
    return None


@library_call(*sorted(_SAME_MODULE))
def _same_module(c: LibraryCall) -> Value | None:
    if not c.dynamic and c.args and isinstance(c.args[0], (ObjV, LayerV)):
        # weight_norm(nn.Conv1d(...)), spectral_norm(layer): the module itself, its weight reparametrized in
        # place; its sizes and what its forward returns are unchanged
        return c.args[0]
    return None


@library_call("jax.lax.stop_gradient")
def _stop_gradient_tree(c: LibraryCall) -> Value | None:
    """``jax.lax.stop_gradient((logits, feats))``: a pytree of arrays, each as it was (one array: the elementwise
    rule)."""
    if c.dynamic or len(c.args) != 1 or c.kwargs or not isinstance(c.args[0], (SeqV, DictV)):
        return None
    return c.args[0] if _tree_leaves(c.args[0], 0) is not None else None


@library_call("jax.eval_shape", "equinox.filter_eval_shape")
def _eval_shape(c: LibraryCall) -> Value | None:
    """``jax.eval_shape(fn, *args, **kwargs)``: ``fn`` traced on its arguments (every one an array, a Python number
    a 0-d one, as under ``jax.jit``), giving the shapes and dtypes of what it returns (``ShapeDtypeStruct`` leaves,
    read as the arrays themselves); ``eqx.filter_eval_shape`` keeps what is not an array static (a model built
    abstractly: ``eqx.filter_eval_shape(Model, cfg, key=key)``)."""
    if c.dynamic or not c.args or not isinstance(c.args[0], (FuncV, ObjV, LayerV, RefV)):
        return None
    if isinstance(c.args[0], RefV) and c.qual == "jax.eval_shape":
        return None
    fn = c.args[0]
    if c.qual == "jax.eval_shape":
        fn = LayerV("traced", (("func", fn), ("spec", (frozenset(), frozenset()))), c.node)
    return c.m.call_callee(c.interp, c.node, fn, list(c.args[1:]), dict(c.kwargs))


# torch.utils.checkpoint.checkpoint's own keywords; the others go to the function
_CHECKPOINT_KEYWORDS = frozenset({"use_reentrant", "preserve_rng_state", "context_fn", "determinism_check", "debug"})


@library_call("torch.utils.checkpoint.checkpoint")
def _activation_checkpoint(c: LibraryCall) -> Value | None:
    """``checkpoint(fn, *args, use_reentrant=False, **kwargs)``: ``fn(*args, **kwargs)`` (activation checkpointing
    runs the forward once now, and again in the backward pass)."""
    if c.dynamic or not c.args or not isinstance(c.args[0], (FuncV, ObjV, LayerV)):
        return None
    kwargs = {k: v for k, v in c.kwargs.items() if k not in _CHECKPOINT_KEYWORDS}
    return c.m.call_callee(c.interp, c.node, c.args[0], list(c.args[1:]), kwargs)


# torch-einops-utils (lucidrains' helpers, imported by x-transformers and his newer packages) when it is not part of
# the analysed tree: ``Sequential(*modules)`` is ``nn.Sequential(*filter(exists, modules))``, ``Identity()`` returns
# its first argument, ``Lambda(fn)`` calls ``fn`` with its arguments (torch_einops_utils/nn.py)
_TEU = ("torch_einops_utils.nn.", "torch_einops_utils.")


def _teu_external(c: LibraryCall) -> bool:
    return not c.dynamic and (c.m.project is None or c.m.project.lookup(c.qual) is None)


@library_call(*(p + "Sequential" for p in _TEU))
def _teu_sequential(c: LibraryCall) -> Value | None:
    if not _teu_external(c) or c.kwargs:
        return None
    from ..rules import layers as layer_rules

    # None is left out; any other value is a link (an unknown one: an unknown link of the chain, never skipped)
    kept: list[Value] = [v for v in c.args if not isinstance(v, NoneV)]
    return layer_rules.layer(c.m.ops, c.node, "Sequential", kept, {})


@library_call(*(p + "Identity" for p in _TEU))
def _teu_identity(c: LibraryCall) -> Value | None:
    if not _teu_external(c) or c.args or c.kwargs:
        return None
    from ..rules import layers as layer_rules

    return layer_rules.layer(c.m.ops, c.node, "Identity", [], {})


@library_call(*(p + "Lambda" for p in _TEU))
def _teu_lambda(c: LibraryCall) -> Value | None:
    if not _teu_external(c) or len(c.args) + len(c.kwargs) != 1 or set(c.kwargs) - {"fn"}:
        return None
    fn = c.args[0] if c.args else c.kwargs["fn"]
    if not (isinstance(fn, (RefV, FuncV, ObjV)) or (isinstance(fn, LayerV) and fn.kind in ("partial", "either"))):
        return None
    return LayerV("partial", (("func", fn), ("args", ()), ("kwargs", ())), c.node)


@library_call("copy.copy", "copy.deepcopy")
def _copy(c: LibraryCall) -> Value | None:
    if not c.dynamic and len(c.args) == 1 and not c.kwargs:
        arg = c.node.args[0].value
        if type(arg) is cst.Attribute and arg.attr.value == "__dict__":
            # copy.deepcopy(self.__dict__) in a config's to_dict(): a new dict of what the instance holds
            held = _instance_dict(c, arg.value)
            if held is not None:
                return _copied(held, c.qual == "copy.deepcopy")
        if isinstance(c.args[0], (DictV, SeqV)):
            return _copied(c.args[0], c.qual == "copy.deepcopy")
        if isinstance(c.args[0], ObjV) and c.args[0].concrete:
            # ema = copy.deepcopy(model): another instance with the same attributes (a new attribute tuple: another
            # object to forget_object and to the methods run on it, as a fresh instance is); what it holds is held
            # by both, so a change in place of a held list or object forgets it in either (forget_inner)
            obj = c.args[0]
            return ObjV(obj.cls_key, tuple(list(obj.attrs)), True, obj.fresh)
        if isinstance(c.args[0], LayerV):
            # target = copy.deepcopy(online): a torch layer, an nn.Sequential with the same sizes. The very same
            # value: a change made through either name forgets the other (forget_object), never shows in it
            return c.args[0]
    return None


def _instance_dict(c: LibraryCall, owner: cst.BaseExpression) -> DictV | None:
    """``owner.__dict__`` as a dict of the attributes an instance of a plain class of the analysed code (no base outside
    it) holds, when they are all known by name (none set by a name not known, none that may or may not be set)."""
    from . import objects

    with c.m.ctx.discarding():
        obj = c.interp.eval(owner)
    if not isinstance(obj, ObjV) or not obj.concrete:
        return None
    ci = c.m.find_class(obj.cls_key)
    if ci is None or objects.foreign_bases(c.m, ci):
        return None
    if any(not k.isidentifier() for k, _ in obj.attrs):
        return None  # (an attribute set by a name not known, one that may not be set: ``k?``, an internal record)
    return DictV(tuple(obj.attrs))


@library_call("dataclasses.asdict")
def _asdict(c: LibraryCall) -> Value | None:
    if not c.dynamic and len(c.args) == 1 and not c.kwargs:
        return c.m.dataclass_dict(c.args[0])
    return None


@library_call("dataclasses.fields")
def _dataclass_fields(c: LibraryCall) -> Value | None:
    """``dataclasses.fields(cfg)`` (of an instance or the class) of a ``@dataclass`` of the analysed code, every class
    of whose MRO is one and that declares no ``InitVar``: its fields in order, each read as ``f.name``."""
    if c.dynamic or len(c.args) != 1 or c.kwargs:
        return None
    ci = _dataclass_of(c, c.args[0])
    from . import objects

    if (
        ci is None
        or objects.foreign_bases(c.m, ci)
        or not all(
            "dataclasses.dataclass" in k.decorators and not objects._pseudo_fields(k) for k in objects.mro(c.m, ci)
        )
    ):
        return None
    out = []
    for name, owner, default in objects.class_fields(c.m, ci):
        # (a Field has more attributes than these: not every one is an entry) ``default_factory``: the class of a
        # ``field(default_factory=Sub)`` of the analysed code, ``dataclasses.MISSING`` when the field has none
        factory: Value = UNKNOWN
        expr = objects._field_keyword(default, "default_factory")
        if expr is not None:
            q = owner.module.qualify(expr) if type(expr) in (cst.Name, cst.Attribute) else None
            held = c.m.project.lookup(q) if q is not None and c.m.project is not None else None
            if held is None and type(expr) is cst.Name:
                held = owner.module.globals.get(expr.value)
            if isinstance(held, RefV) and held.qualname.startswith("class:"):
                factory = held
        elif default is None or not (type(default) is cst.Call and (dotted(default.func) or "").endswith("field")):
            factory = RefV(_MISSING)
        out.append(
            DictV((("name", StrV(name)), ("default_factory", factory), (INCOMPLETE_NAMESPACE, UNKNOWN)), "namespace")
        )
    return SeqV(tuple(out), "tuple")


_MISSING = "dataclasses.MISSING"


def _dataclass_of(c: LibraryCall, v: Value) -> "ClassInfo | None":
    """The class of the analysed code an instance is of, or a class reference names (one imported from another
    module, ``from config import S2TConfig``, through the project)."""
    key = v.cls_key if isinstance(v, ObjV) else c.interp._class_key(v)
    return c.m.find_class(key) if key is not None else None


@library_call("dataclasses.is_dataclass")
def _is_dataclass(c: LibraryCall) -> Value | None:
    """``is_dataclass(x)``: of an object or class of the analysed code, whether a class of its MRO is a
    ``@dataclass`` one (a subclass inherits the fields; a foreign base: not known); False of ``dataclasses.MISSING``
    (a ``Field``'s missing ``default_factory``), numbers, strings, None, lists, dicts and tensors."""
    if c.dynamic or len(c.args) != 1 or c.kwargs:
        return None
    v = c.args[0]
    if isinstance(v, RefV) and v.qualname == _MISSING:
        return BoolV(False)
    if isinstance(v, (IntV, FloatV, StrV, BoolV, NoneV, TensorV)) or (
        isinstance(v, (SeqV, DictV)) and v.kind in ("list", "tuple", "dict")
    ):
        return BoolV(False)
    ci = _dataclass_of(c, v) if isinstance(v, (ObjV, RefV)) else None
    if ci is None:
        return None
    from . import objects

    if objects.foreign_bases(c.m, ci):
        return None
    # (a subclass of a dataclass is one too: it inherits ``__dataclass_fields__``)
    return BoolV(any("dataclasses.dataclass" in k.decorators for k in objects.mro(c.m, ci)))


@library_call("dataclasses.replace")
def _dataclass_replace(c: LibraryCall) -> Value | None:
    """``dataclasses.replace(cfg, dim=32)``: the dataclass built again from the instance's fields with the changes, as
    Python does (its ``__init__`` and ``__post_init__`` run again); anything not known: unknown."""
    if c.dynamic or len(c.args) != 1 or not isinstance(c.args[0], ObjV):
        return None
    fields = c.m.dataclass_dict(c.args[0])
    if fields is None:
        return UNKNOWN
    ci = c.m.find_class(c.args[0].cls_key)
    if ci is None:
        return UNKNOWN
    from .objects import init_fields

    # the fields __init__ takes (not ``field(init=False)`` nor a KW_ONLY sentinel), as the instance holds them
    # (nested dataclasses kept)
    takes, _, _ = init_fields(c.m, ci)
    kwargs = {name: (c.args[0].attr(name) or UNKNOWN) for name in sorted(takes)}
    if not set(c.kwargs) <= set(kwargs):
        return UNKNOWN  # a name that is no init field: replace raises
    kwargs.update(c.kwargs)
    return c.m.instantiate(c.interp, c.node, ci.key, [], kwargs)


@library_call("torch.nn.utils.rnn.pack_padded_sequence", "torch.nn.utils.rnn.pad_packed_sequence")
def _packed_sequence(c: LibraryCall) -> Value | None:
    if not c.dynamic:
        from ..rules.layers import packed_sequence

        return packed_sequence(c.m.ops, c.node, c.qual, c.args, c.kwargs)
    return None


@library_call("torch.nn.utils.rnn.pad_sequence")
def _pad_sequence(c: LibraryCall) -> Value | None:
    """``pad_sequence(seqs, batch_first=False)``: the tensors of one rank stacked, each padded along its leading axis
    to the longest: (n, longest, *rest) batch first, else (longest, n, *rest). n is the list's length (known, or a
    loop's count); the longest is the greatest of a known list's lengths when all are known, else a length of its own
    unless every element's is the same known int (an element that stands for several, one per data item, may have as
    many lengths)."""
    seqs = c.args[0] if c.args else c.kwargs.get("sequences", UNKNOWN)
    bf = c.args[1] if len(c.args) > 1 else c.kwargs.get("batch_first", BoolV(False))
    if c.dynamic or not isinstance(bf, BoolV) or bf.value is None or not isinstance(seqs, (SeqV, ManyV)):
        return None
    elem = elements_of(seqs)
    items = seqs.items if isinstance(seqs, SeqV) else ()
    tensors = [t for t in items if type(t) is TensorV and t.shape]
    if tensors and len(tensors) == len(items) and len({cast("tuple[Size, ...]", t.shape)[1:] for t in tensors}) == 1:
        elem = items[0]  # tensors of lengths of their own, the same trailing axes (their join may know no shape)
    if not isinstance(elem, TensorV) or not elem.shape:
        return None
    firsts = [t.shape[0].as_int() if isinstance(t, TensorV) and t.shape else None for t in items]
    ops = c.m.ops
    if isinstance(seqs, ManyV):
        known = {f for f in firsts if f is not None}
        first = known.pop() if len(known) == 1 else None
    else:
        # a list of known tensors: each its own length, the longest the greatest when every one is known
        first = max(firsts) if firsts and None not in firsts else None  # type: ignore[type-var]
    longest = Size.const(first) if first is not None else ops.fresh("max_len")
    if isinstance(seqs, SeqV):
        n = Size.const(len(seqs.items))
    else:
        n = seqs.count if seqs.count is not None else ops.fresh("n")
    shape = (n, longest, *elem.shape[1:]) if bf.value else (longest, n, *elem.shape[1:])
    return TensorV(shape, elem.dtype, elem.framework, None, ops.origin(c.node, "pad_sequence(...)"))


@library_call(*sorted(GRADS))
def _grad(c: LibraryCall) -> Value | None:
    if not c.dynamic and c.args and isinstance(c.args[0], (FuncV, ObjV, LayerV)):
        # jax.value_and_grad(loss_fn)(params, x): loss_fn run on the arguments, its gradient shaped as params
        return grad_transform(c.qual, c.args, c.kwargs, c.node)
    return None


@library_call("itertools.zip_longest")
def _zip_longest_call(c: LibraryCall) -> Value | None:
    return _zip_longest(c.args) if not c.dynamic and not c.kwargs else None


@library_call("itertools.pairwise")
def _pairwise_call(c: LibraryCall) -> Value | None:
    return _pairwise(c.args[0]) if not c.dynamic and not c.kwargs and len(c.args) == 1 else None


@library_call("itertools.cycle", "itertools.islice", "itertools.repeat")
def _itertools(c: LibraryCall) -> Value | None:
    return _itertools_call(c.qual, c.args) if not c.dynamic and not c.kwargs else None


@library_call("functools.partial")
def _partial(c: LibraryCall) -> Value | None:
    if not c.args or c.dynamic:
        return None
    if isinstance(c.args[0], LayerV) and c.args[0].kind == "partial":
        # partial(partial(LayerNorm, dim), unit_offset=True): functools flattens it into one partial of the
        # inner function, the inner arguments first (a keyword given again wins)
        inner = c.args[0]
        return LayerV(
            "partial",
            (
                ("func", inner.param("func")),
                ("args", (*inner.param("args", ()), *c.args[1:])),
                ("kwargs", tuple({**dict(inner.param("kwargs", ())), **c.kwargs}.items())),
            ),
            c.node,
        )
    if isinstance(c.args[0], (RefV, FuncV, ObjV)) or (isinstance(c.args[0], LayerV) and c.args[0].kind == "either"):
        # partial(nn.LayerNorm, eps=1e-6), partial(nn.Conv1d, kernel_size=1): called later with the rest
        return LayerV(
            "partial",
            (("func", c.args[0]), ("args", tuple(c.args[1:])), ("kwargs", tuple(c.kwargs.items()))),
            c.node,
        )
    return None


# operator's functions of two numbers that functools.reduce folds with, as the operators they are
_OPERATORS: dict[str, cst.BaseBinaryOp] = {
    "operator.mul": cst.Multiply(),
    "operator.add": cst.Add(),
    "operator.floordiv": cst.FloorDivide(),
    "operator.sub": cst.Subtract(),
}


@library_call("functools.reduce")
def _reduce(c: LibraryCall) -> Value | None:
    """``functools.reduce(f, xs[, initial])`` over a tuple or list of known items, ``f`` a lambda written at the call
    or a function of the analysed code: ``f`` applied left to right (``reduce(lambda x, y: x * y // gcd(x, y),
    numbers, 1)``). Unknown as soon as one step is; an empty sequence without ``initial`` raises (left to the run)."""
    if c.dynamic or c.kwargs or len(c.args) not in (2, 3) or any(a.star for a in c.node.args):
        return None
    seq = c.args[1]
    if not isinstance(seq, SeqV) or seq.kind not in ("tuple", "list") or len(seq.items) > MAX_RANGE:
        return None
    items = list(seq.items) if len(c.args) == 3 else list(seq.items[1:])
    if len(c.args) == 2 and not seq.items:
        return None
    acc = c.args[2] if len(c.args) == 3 else seq.items[0]
    fn_node = c.node.args[0].value
    fn = c.args[0]
    op = _OPERATORS.get(fn.qualname) if isinstance(fn, RefV) else None
    if type(fn_node) is not cst.Lambda and not isinstance(fn, FuncV) and op is None:
        return None
    from ..rules.multi_ops import _apply_lambda

    for item in items:
        if op is not None:
            # reduce(mul, shape[i:j]): numbers only (a tensor operand is left to the run)
            if not (isinstance(acc, (IntV, FloatV)) and isinstance(item, (IntV, FloatV))):
                return UNKNOWN
            acc = c.interp.binary(c.node, acc, op, item)
        elif type(fn_node) is cst.Lambda:
            acc = _apply_lambda(c.interp, fn_node, [acc, item])
        else:
            assert isinstance(fn, FuncV)
            acc = c.m.call_function(c.interp, c.node, fn, [acc, item], {})
        if acc is UNKNOWN:
            return UNKNOWN
    return acc


_MODULE_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


@library_call("importlib.import_module")
def _import_module(c: LibraryCall) -> Value | None:
    """``importlib.import_module("ldm.unet")`` of a name known: that module, as ``import ldm.unet`` names it, when it
    is a module of the analysed tree or of a framework the analysis models (``getattr(module, "UNetModel")`` then
    reaches its class: latent diffusion's ``instantiate_from_config``). Relative names and other modules: unknown."""
    if c.dynamic or c.kwargs or len(c.args) != 1 or not isinstance(c.args[0], StrV):
        return None
    name = c.args[0].value
    if not _MODULE_NAME.fullmatch(name):
        return None
    paths = c.m.project.paths if c.m.project is not None else {}
    if name in paths or name.partition(".")[0] in MODELLED:
        return RefV(name)
    return None


@library_call("pytest.raises", "numpy.testing.assert_raises", "numpy.testing.assert_raises_regex")
def _raises(c: LibraryCall) -> Value | None:
    # (called with the callable and its arguments, assert_raises runs it and returns None: not a context then)
    return RAISES_CONTEXT if len(c.node.args) <= 2 and not any(a.star for a in c.node.args) else None


@library_call("collections.namedtuple", "typing.NamedTuple")
def _namedtuple(c: LibraryCall) -> Value | None:
    return (_namedtuple_type(c.node, c.args, c.kwargs) or UNKNOWN) if not c.dynamic else None


@library_call("torch.nn.utils.parametrize.register_parametrization")
def _register_parametrization(c: LibraryCall) -> Value | None:
    if not c.node.args:
        return None
    unsafe = c.kwargs.get("unsafe", BoolV(False))  # keyword-only
    if c.dynamic or not (isinstance(unsafe, BoolV) and unsafe.value is False):
        # unsafe=True lets the parametrization change the tensor's shape: the module's sizes are unknown
        _forget_with_aliases(c.interp, c.node.args[0].value)
    return UNKNOWN


# torch.distributions' univariate distributions (event shape ()): their parameters, in order, by class (and the
# module defining it); the batch shape is the parameters' broadcast
_UNIVARIATE = {
    "Normal": ("normal", ("loc", "scale")),
    "Laplace": ("laplace", ("loc", "scale")),
    "LogNormal": ("log_normal", ("loc", "scale")),
    "Gumbel": ("gumbel", ("loc", "scale")),
    "Cauchy": ("cauchy", ("loc", "scale")),
    "Uniform": ("uniform", ("low", "high")),
    "Beta": ("beta", ("concentration1", "concentration0")),
    "Gamma": ("gamma", ("concentration", "rate")),
    "Exponential": ("exponential", ("rate",)),
    "Poisson": ("poisson", ("rate",)),
    "HalfNormal": ("half_normal", ("scale",)),
}


@library_call(
    *(f"torch.distributions.{n}" for n in _UNIVARIATE),
    *(f"torch.distributions.{mod}.{n}" for n, (mod, _) in _UNIVARIATE.items()),
)
def _univariate_distribution(c: LibraryCall) -> Value | None:
    """``torch.distributions.Normal(mu, std)`` (``Beta(a, b)``, ``Uniform(lo, hi)``, ``Gamma``, ``Exponential`` and
    the other univariate ones): a distribution whose batch shape is the broadcast of its parameters (a number is a
    0-d one); ``rsample()`` / ``sample()`` / ``log_prob(x)`` / ``entropy()`` and ``.mean`` / ``.stddev`` have that
    shape (``Module._layer_method``, ``Interpreter._attribute``). Parameters that do not broadcast: unknown (torch
    raises; not reported here)."""
    from ..rules.ops_common import broadcast_shapes

    names = _UNIVARIATE[c.qual.rsplit(".", 1)[-1]][1]
    if c.dynamic or len(c.args) > len(names) or set(c.kwargs) - {*names, "validate_args"}:
        return None
    bound = dict(zip(names, c.args))
    bound.update((k, v) for k, v in c.kwargs.items() if k != "validate_args")
    if set(bound) != set(names):
        return None
    shape: tuple[Size, ...] = ()
    for name in names:
        v = bound[name]
        if isinstance(v, TensorV) and v.shape is not None and v.framework == "torch" and not v.alts:
            got, fails = broadcast_shapes(shape, v.shape)
            if got is None or fails is not None:
                return UNKNOWN
            shape = got
        elif not isinstance(v, (IntV, FloatV)):
            return UNKNOWN
    return LayerV("fw:Normal", (("shape", shape),), c.node)


def _torchaudio_quals(*names: str) -> tuple[str, ...]:
    return tuple(f"torchaudio.transforms.{p}{n}" for n in names for p in ("", "_transforms."))


_SPECTROGRAM_ARGS = (
    "n_fft",
    "win_length",
    "hop_length",
    "pad",
    "window_fn",
    "power",
    "normalized",
    "wkwargs",
    "center",
    "pad_mode",
    "onesided",
)
_MEL_ARGS = (
    "sample_rate",
    "n_fft",
    "win_length",
    "hop_length",
    "f_min",
    "f_max",
    "pad",
    "n_mels",
    *_SPECTROGRAM_ARGS[4:],
)


@library_call(*_torchaudio_quals("Spectrogram", "MelSpectrogram"))
def _torchaudio_spectrogram(c: LibraryCall) -> Value | None:
    """``torchaudio.transforms.Spectrogram(n_fft=400, win_length=None, hop_length=None, pad=0, ..., center=True,
    onesided=True)`` and ``MelSpectrogram(sample_rate, n_fft, win_length, hop_length, f_min, f_max, pad, n_mels=128,
    ...)``: a layer (kind ``fw:Spectrogram``) taking a signal (..., time) to (..., n_fft // 2 + 1 or n_mels, frames),
    the window ``win_length`` (default n_fft) moved by ``hop_length`` (default win_length // 2). Arguments not known
    as numbers (or a two-sided spectrogram, whose frequencies are n_fft): an unknown frequency count or frame count."""
    mel = c.qual.endswith("MelSpectrogram")
    names = _MEL_ARGS if mel else _SPECTROGRAM_ARGS
    if c.dynamic or len(c.args) > len(names) or any(k not in names and k != "return_complex" for k in c.kwargs):
        return None
    given = dict(zip(names, c.args))
    for k, v in c.kwargs.items():
        if k in given:
            return None
        given[k] = v

    def number(name: str, default: int | None) -> int | None:
        v = given.get(name)
        if v is None or isinstance(v, NoneV):
            return default
        return int_of(v) if isinstance(v, IntV) and not v.assumed else None

    n_fft = number("n_fft", 400)
    win = number("win_length", n_fft)
    hop = number("hop_length", win // 2 if win is not None else None)
    pad = number("pad", 0)
    center = given.get("center", BoolV(True))
    onesided = given.get("onesided", NoneV())
    freqs: int | None = None
    if mel:
        freqs = number("n_mels", 128)
    elif n_fft is not None and (isinstance(onesided, NoneV) or (isinstance(onesided, BoolV) and onesided.value)):
        freqs = n_fft // 2 + 1
    centered = center.value if isinstance(center, BoolV) else None
    params = (("freqs", freqs), ("n_fft", n_fft), ("hop", hop), ("pad", pad), ("center", centered))
    return LayerV("fw:Spectrogram", params, c.node)


@library_call(
    *_torchaudio_quals(
        "AmplitudeToDB", "FrequencyMasking", "TimeMasking", "ComputeDeltas", "Vol", "Fade", "MuLawEncoding"
    )
)
def _torchaudio_same_shape(c: LibraryCall) -> Value | None:
    """torchaudio transforms that keep their input's shape (a scale change, a mask, deltas, gain, a fade)."""
    return LayerV("Elementwise", (("name", c.qual.rsplit(".", 1)[-1]),), c.node)


@library_call("torch.Size")
def _torch_size(c: LibraryCall) -> Value | None:
    """``torch.Size([4, 2])`` (``torch.Size((h, w))``): a shape of those ints, compared item by item with ``x.shape``
    (``boxes.shape[-2:] == torch.Size([4, 2])``); ``torch.Size()`` is the empty shape. Anything else: unknown."""
    if c.dynamic or c.kwargs or len(c.args) > 1:
        return None
    if not c.args:
        return SeqV((), "shape")
    items = c.args[0]
    if (
        isinstance(items, SeqV)
        and items.kind in ("tuple", "list", "shape")
        and all(isinstance(v, IntV) for v in items.items)
    ):
        return SeqV(items.items, "shape")
    return UNKNOWN


@library_call(
    "haiku.transform",
    "haiku.transform_with_state",
    "haiku.without_apply_rng",
    "haiku.multi_transform",
    "haiku.multi_transform_with_state",
)
def _haiku_transform(c: LibraryCall) -> Value | None:
    """``hk.transform(f)`` (``transform_with_state``): a pair of pure functions, ``init(rng, *a)`` and ``apply(params,
    rng, *a)`` (``apply(params, state, rng, *a)``, which returns ``(out, state)``), each running ``f(*a)``;
    ``hk.without_apply_rng(t)``: ``apply`` without its ``rng`` (``haiku_transformed``, run by
    ``ModuleAnalysis.haiku_apply``). ``hk.multi_transform(f)``: ``f()`` returns ``(init_fn, apply_fns)``; ``init``
    runs init_fn, ``apply`` is a tuple of functions, one per entry of apply_fns (``multi``)."""
    if c.dynamic or len(c.args) != 1:
        return None
    f = c.args[0]
    if c.qual == "haiku.without_apply_rng":
        if c.kwargs or not isinstance(f, LayerV) or f.kind != "haiku_transformed":
            return None
        kept = tuple((k, v) for k, v in f.params if k != "rng")
        return LayerV("haiku_transformed", kept + (("rng", False),))
    if not isinstance(f, FuncV) or set(c.kwargs) - {"apply_rng"}:
        return None
    apply_rng = c.kwargs.get("apply_rng")
    if apply_rng is not None and not isinstance(apply_rng, BoolV):
        return None
    rng = apply_rng is None or apply_rng.value is True
    multi = c.qual.startswith("haiku.multi_transform")
    params = (("fn", f), ("state", c.qual.endswith("with_state")), ("rng", rng))
    return LayerV("haiku_transformed", params + ((("multi", True),) if multi else ()), c.node)


@library_call("flax.linen.vmap", "flax.linen.transforms.vmap")
def _linen_vmap(c: LibraryCall) -> Value | None:
    """``nn.vmap(LRUClassifier, in_axes=0, out_axes=0, variable_axes={"params": None}, split_rngs=...)``: a module
    class whose instances run ``__call__`` on each slice of their inputs along ``in_axes`` (an int, or a tuple per
    argument), the results stacked along ``out_axes`` (``linen_vmapped``). The variable and rng options change no
    shape the module's own code sees."""
    cls = c.args[0] if c.args else c.kwargs.get("target")
    if c.dynamic or len(c.args) > 1 or not isinstance(cls, RefV) or not cls.qualname.startswith("class:"):
        return None
    axes = {k: v for k, v in c.kwargs.items() if k in ("in_axes", "out_axes")}
    in_axes = _vmap_in_axes("jax.vmap", [cls], axes)
    out_axis = _vmap_out_axis(axes.get("out_axes"))
    if in_axes is None or out_axis is None:
        return UNKNOWN
    return LayerV("linen_vmap", (("cls", cls), ("in_axes", in_axes), ("out_axes", out_axis)), c.node)


@library_call(
    "flax.linen.remat", "flax.linen.checkpoint", "flax.linen.transforms.remat", "flax.linen.transforms.checkpoint"
)
def _linen_remat(c: LibraryCall) -> Value | None:
    """``nn.remat(Block)``: a module class whose instances compute what ``Block``'s do (their activations recomputed
    in the backward pass); the options (``static_argnums``, ``prevent_cse``, ``policy``) change no shape."""
    cls = c.args[0] if c.args else c.kwargs.get("target")
    if c.dynamic or len(c.args) > 1 or not isinstance(cls, RefV) or not cls.qualname.startswith("class:"):
        return None
    return cls


@library_call("flax.linen.scan", "flax.linen.transforms.scan")
def _linen_scan(c: LibraryCall) -> Value | None:
    """``nn.scan(Block, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=nn.broadcast,
    length=depth)``: a module class whose instances run ``Block.__call__(carry, *xs)`` over the slices of ``xs``
    along ``in_axes`` (0 by default; ``nn.broadcast``: handed whole to each step), the carry threaded through, the
    per-step outputs stacked along ``out_axes`` (``linen_scanned``). The variable and rng options change no shape the
    module's own code sees."""
    cls = c.args[0] if c.args else c.kwargs.get("target")
    if c.dynamic or len(c.args) > 1 or not isinstance(cls, RefV) or not cls.qualname.startswith("class:"):
        return None

    def axis(v: Value) -> int | str | None:
        if isinstance(v, RefV) and v.qualname in (
            "flax.linen.broadcast",
            "flax.core.broadcast",
            "flax.core.axes_scan.broadcast",
        ):
            return "broadcast"
        return int_of(v)

    given = c.kwargs.get("in_axes")
    in_axes: Any
    if given is None:
        in_axes = 0
    elif isinstance(given, SeqV) and given.kind in ("tuple", "list"):
        in_axes = tuple(axis(x) for x in given.items)
        if None in in_axes:
            return UNKNOWN
    else:
        in_axes = axis(given)
    out_axes = 0 if "out_axes" not in c.kwargs else int_of(c.kwargs["out_axes"])
    length = c.kwargs.get("length")
    if in_axes is None or out_axes is None:
        return UNKNOWN  # (``reverse``, ``unroll``: the order of the steps, no shape)
    size = length.size if isinstance(length, IntV) and not length.assumed else None
    if length is not None and not isinstance(length, NoneV) and size is None:
        return UNKNOWN
    return LayerV("linen_scan", (("cls", cls), ("in_axes", in_axes), ("out_axes", out_axes), ("length", size)), c.node)


@library_call("jax.lax.associative_scan")
def _associative_scan(c: LibraryCall) -> Value | None:
    """``jax.lax.associative_scan(fn, elems)``: every prefix combined, so the result has the structure and the shapes
    of ``elems`` (jax requires ``fn`` to keep them); the dtypes are ``fn``'s (not known here)."""
    elems = c.args[1] if len(c.args) > 1 else c.kwargs.get("elems")
    if c.dynamic or elems is None:
        return None

    def kept(v: Value) -> Value:
        if isinstance(v, TensorV):
            return TensorV(v.shape, None, v.framework)
        if isinstance(v, SeqV) and v.kind in ("tuple", "list"):
            return SeqV(tuple(kept(x) for x in v.items), v.kind)
        return UNKNOWN

    return kept(elems)


@library_call("jax.lax.scan")
def _scan(c: LibraryCall) -> Value | None:
    return UNKNOWN if c.dynamic else c.m.call_scan(c.interp, c.node, c.args, c.kwargs)


@library_call("haiku.dynamic_unroll", "haiku.static_unroll")
def _haiku_unroll(c: LibraryCall) -> Value | None:
    return UNKNOWN if c.dynamic else c.m.call_unroll(c.interp, c.node, c.qual, c.args, c.kwargs)


@library_call("jax.lax.map")
def _lax_map(c: LibraryCall) -> Value | None:
    return UNKNOWN if c.dynamic else c.m.call_lax_map(c.interp, c.node, c.args, c.kwargs)


@library_call("jax.lax.while_loop", "jax.lax.fori_loop")
def _loop(c: LibraryCall) -> Value | None:
    # the carry keeps the structure, shapes and dtypes of init_val (JAX rejects a body that changes them)
    at = 2 if c.qual == "jax.lax.while_loop" else 3
    init = c.args[at] if len(c.args) > at else c.kwargs.get("init_val", UNKNOWN)
    return UNKNOWN if c.dynamic or len(c.args) > at + 1 else _carried(init)


def pad_width_shape(v: Value) -> tuple[int, ...] | None:
    """The shape of the array numpy makes of ``pad_width`` when it is an int, a tuple or list of ints, or one of
    tuples or lists of ints all of one length (the values need not be known: only the structure is read); None for
    anything else."""
    if isinstance(v, IntV):
        return ()
    if not isinstance(v, SeqV) or v.kind not in ("tuple", "list"):
        return None
    if all(isinstance(x, IntV) for x in v.items):
        return (len(v.items),)
    lengths = {
        len(x.items)
        if isinstance(x, SeqV) and x.kind in ("tuple", "list") and all(isinstance(y, IntV) for y in x.items)
        else -1
        for x in v.items
    }
    if len(lengths) != 1 or -1 in lengths:
        return None
    return (len(v.items), lengths.pop())


def pad_width_fits(shape: tuple[int, ...], rank: int) -> bool:
    """numpy broadcasts ``pad_width`` to (rank, 2) (``np.broadcast_to``; JAX accepts a subset of those shapes)."""
    return len(shape) <= 2 and all(d in (1, want) for d, want in zip(reversed(shape), (2, rank)))


def _pad_width_fails(c: LibraryCall) -> bool:
    """``np.pad(x, pad_width)`` / ``jnp.pad``: a ``pad_width`` whose shape does not broadcast to (x.ndim, 2) raises
    whatever the widths and sizes (``((r, r), (r, r))`` for a 3-d image)."""
    x = c.args[0]
    width = c.args[1] if len(c.args) > 1 else c.kwargs.get("pad_width")
    if not isinstance(x, TensorV) or x.shape is None or x.alts is not None or width is None:
        return False
    if len(c.args) > 1 and (len(c.node.args) < 2 or c.node.args[1].star or c.node.args[1].keyword is not None):
        return False
    shape = pad_width_shape(width)
    if shape is None or pad_width_fits(shape, len(x.shape)):
        return False
    op = "np.pad" if c.qual.startswith("numpy.") else "jnp.pad"
    cx = c.m.ops
    cx.ctx.report(
        c.node,
        "SHP204",
        {"op": op, "detail": D.PadArguments("width", len(x.shape), shape=shape)},
        cx.origins([x]),
        spec=OpSpec("pad.arguments", None, (x.shape,), (), (("op", op), ("width", shape))),
    )
    return True


@library_call("numpy.pad", "jax.numpy.pad")
def _pad(c: LibraryCall) -> Value | None:
    if not c.dynamic and c.args and _pad_width_fails(c):
        return UNKNOWN
    if not c.dynamic and c.args:
        return _padded(c.interp, c.node, c.args, c.kwargs, "jax" if c.qual.startswith("jax") else "numpy")
    return None


@library_call("torch.jit.is_scripting")
def _not_scripting(c: LibraryCall) -> Value | None:
    """``if torch.jit.is_scripting(): ... else: ...``: the analysis follows eager execution, where the test is False."""
    if c.args or c.kwargs or c.dynamic:
        return None
    return BoolV(False)


@library_call(*sorted(_RANDOM_STATE_MAKERS))
def _random_state(c: LibraryCall) -> Value | None:
    return RefV(_RANDOM_STATE_MAKERS[c.qual])  # a generator whose methods sample like the module's functions


@library_call("inspect.isfunction")
def _inspect_isfunction(c: LibraryCall) -> Value | None:
    if len(c.args) == 1 and not c.kwargs and not c.dynamic:
        return _isfunction(c.args[0])  # x-transformers' default(val, d): `d() if isfunction(d) else d`
    return None


_JSON_MAX_CHARS = 100_000


_TREE_MAPS = ("jax.tree_util.tree_map", "jax.tree.map", "jax.tree_map")


def _tree_map(c: LibraryCall, f: Value, tree: Value, rest: list[Value], depth: int = 0) -> Value | None:
    """``f`` applied leaf by leaf to ``tree`` and the matching leaves of ``rest`` (same structure), rebuilt in the
    structure of ``tree``; None when the structures are not known or differ."""
    if isinstance(tree, (TensorV, IntV, FloatV, BoolV)):
        return c.m.call_value(c.interp, c.node, f, [tree, *rest])
    if isinstance(tree, NoneV):
        return tree
    if depth > 4:
        return None
    if isinstance(tree, SeqV) and tree.kind in ("tuple", "list") and tree.names is None:
        if any(not isinstance(r, SeqV) or len(r.items) != len(tree.items) for r in rest):
            return None
        items = [
            _tree_map(c, f, x, [r.items[i] for r in rest if isinstance(r, SeqV)], depth + 1)
            for i, x in enumerate(tree.items)
        ]
        return None if any(x is None for x in items) else SeqV(tuple(x for x in items if x is not None), tree.kind)
    if isinstance(tree, DictV) and tree.kind == "dict":
        keys = [k for k, _ in tree.items]
        if any(not isinstance(r, DictV) or sorted(k for k, _ in r.items) != sorted(keys) for r in rest):
            return None
        entries: list[tuple[str, Value]] = []
        for k, x in tree.items:
            got = _tree_map(c, f, x, [r.get(k) for r in rest if isinstance(r, DictV)], depth + 1)
            if got is None:
                return None
            entries.append((k, got))
        return DictV(tuple(entries), "dict")
    return None


@library_call(*_TREE_MAPS)
def _jax_tree_map(c: LibraryCall) -> Value | None:
    """``jax.tree_util.tree_map(f, tree, *rest)`` over arrays, numbers, tuples, lists, dicts and None: ``f`` run on
    each leaf (with the matching leaves of ``rest``), the results in the structure of ``tree``. Anything else
    (``is_leaf``, an object registered as a pytree): unknown."""
    if c.dynamic or c.kwargs or len(c.args) < 2 or not isinstance(c.args[0], (FuncV, ObjV, LayerV)):
        return None
    if _tree_leaves(c.args[1], 0, jax=True) is None:
        return None
    return _tree_map(c, c.args[0], c.args[1], list(c.args[2:]))


@library_call("types.MappingProxyType")
def _mapping_proxy(c: LibraryCall) -> Value | None:
    """``MappingProxyType({...})`` of a dict made by the call itself (a display, ``{**DEFAULTS, **overrides}``,
    ``dict(...)``): a read-only view of a dict nothing else holds, so its entries (a proxy of a dict another name
    holds shows that dict's later changes: not followed)."""
    arg = c.node.args[0].value if len(c.node.args) == 1 and not c.node.args[0].keyword else None
    fresh = type(arg) is cst.Dict or (type(arg) is cst.Call and type(arg.func) is cst.Name and arg.func.value == "dict")
    if c.dynamic or c.kwargs or len(c.args) != 1 or not fresh:
        return None
    d = c.args[0]
    return d if isinstance(d, DictV) and d.kind == "dict" else None


@library_call("json.loads")
def _json_loads(c: LibraryCall) -> Value | None:
    """``json.loads(CONFIG_JSON)`` of a known string (a config written in the source): the data it holds, parsed by
    Python's json module (data, never code). Anything else, or text json cannot read: unknown."""
    import json

    return _parsed_config(c, _JSON_MAX_CHARS, json.loads)


def _parsed_config(c: LibraryCall, limit: int, parse: Callable[[str], Any], files: bool = False) -> Value | None:
    """``parse(text)`` (json's, tomllib's, yaml's safe loader) of the one known string ``c`` is given -- or, with
    ``files``, of the config file of the project it is given (``read_config_file``) -- as values (``_json_value``):
    data, never code. Text longer than ``limit``, or that does not parse (the call raises there: what follows does
    not run, nothing to say about it): unknown."""
    if c.dynamic or c.kwargs or len(c.args) != 1:
        return None
    read = read_config_file(c.m, c.args[0]) if files else None
    if read is not None:
        text = read  # (read_config_file's own bound on its size)
    elif isinstance(c.args[0], StrV):
        text = c.args[0].value
        if len(text) > limit:
            return UNKNOWN
    else:
        return None
    try:
        data = parse(text)
    except (ValueError, RecursionError):
        return UNKNOWN
    return _json_value(data, 0)


def _json_value(data: Any, depth: int) -> Value:
    if depth > 8:
        return UNKNOWN
    if isinstance(data, bool):
        return BoolV(data)
    if isinstance(data, int):
        return IntV(Size.const(data))
    if isinstance(data, float):
        return FloatV(data)
    if isinstance(data, str):
        return StrV(data)
    if data is None:
        return NoneV()
    if isinstance(data, list):
        return SeqV(tuple(_json_value(x, depth + 1) for x in data), "list")
    if isinstance(data, dict):
        return DictV(tuple((k, _json_value(v, depth + 1)) for k, v in data.items()))
    return UNKNOWN


@library_call("math.prod", "numpy.prod")
def _prod(c: LibraryCall) -> Value | None:
    if c.dynamic or c.kwargs:
        return None
    from ..rules.multi_ops import size_product

    prod = size_product(c.args)
    if isinstance(prod, IntV) and c.qual == "numpy.prod":
        return IntV(prod.size, NUMPY_INT)  # a numpy integer scalar: sizes take it, isinstance(n, int) not
    return prod


@library_call(*sorted(_STRING_FUNCTIONS))
def _string_call(c: LibraryCall) -> Value | None:
    return _string_function(c.qual, c.args) if not c.dynamic and not c.kwargs else None


@library_call("os.path.join", "os.path.abspath", "os.path.normpath", "os.path.realpath")
def _path_call(c: LibraryCall) -> Value | None:
    """``os.path.join(HERE, "cfg.yaml")`` of known strings (posix rules; a backslash or a colon: left alone), and
    ``abspath`` / ``realpath`` / ``normpath`` of an absolute one (a relative path is the running program's working
    directory's, not known here): where a config file the code reads lies."""
    if c.dynamic or c.kwargs or not c.args:
        return None
    import posixpath

    # (a ``pathlib`` path is its text here: os.path takes any path-like)
    texts = [a.get("path") if isinstance(a, DictV) and a.kind == "path" else a for a in c.args]
    if not all(isinstance(a, StrV) for a in texts):
        return None
    parts = [a.value for a in texts if isinstance(a, StrV)]
    if any("\\" in p or ":" in p for p in parts):
        return None
    if c.qual == "os.path.join":
        return StrV(posixpath.join(*parts))
    if len(parts) != 1 or not parts[0].startswith("/"):
        return None
    return StrV(posixpath.normpath(parts[0]))


# ---- config files the code reads: ``open(path)`` of a known path inside the analysed project, read by json / yaml's
# safe loader / ``f.read()`` (data, never code); the value of ``open(...)`` is DictV kind "file" holding the path

_MAX_CONFIG_FILE = 200_000  # bytes


def read_config_file(m: "ModuleAnalysis", f: Value) -> str | None:
    """The text of the file an ``open(...)`` value names, when it lies in the analysed module's project (its root
    folder, or the module's own folder without one) and is small; None otherwise."""
    if not (isinstance(f, DictV) and f.kind == "file"):
        return None
    path = dict(f.items).get("path")
    if not isinstance(path, StrV):
        return None
    from pathlib import Path

    from ..index.project import project_root
    from .path_values import in_tmp_dir, written_text

    if in_tmp_dir(path.value):
        return written_text(path.value)  # (a file the run wrote in a test's tmp_path; never one on disk)

    try:
        file = Path(path.value).resolve()
        here = Path(m.path).resolve()
        root = project_root(here) or here.parent
        if not file.is_file() or not file.is_relative_to(root) or file.stat().st_size > _MAX_CONFIG_FILE:
            return None
        return file.read_text("utf-8")
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def _python_data(v: Value, depth: int = 0) -> Any:
    """The plain data ``v`` stands for (a dict of str keys, a list or tuple, a known number, string, bool or None),
    as ``json.dumps`` would take it; ``_NO_DATA`` when it is not all known."""
    if depth > 8:
        return _NO_DATA
    if isinstance(v, BoolV):
        return v.value if v.value is not None else _NO_DATA
    if isinstance(v, IntV):
        n = v.size.as_int() if not v.assumed else None
        return n if n is not None else _NO_DATA
    if isinstance(v, FloatV):
        return v.value if v.value is not None else _NO_DATA
    if isinstance(v, StrV):
        return v.value
    if isinstance(v, NoneV):
        return None
    if isinstance(v, SeqV) and v.kind in ("list", "tuple") and v.names is None:
        items = [_python_data(x, depth + 1) for x in v.items]
        return _NO_DATA if any(x is _NO_DATA for x in items) else items
    if isinstance(v, DictV) and v.kind == "dict":
        out = {k: _python_data(x, depth + 1) for k, x in v.items}
        return _NO_DATA if any(x is _NO_DATA for x in out.values()) else out
    return _NO_DATA


_NO_DATA = object()


def _json_text(c: LibraryCall, obj: Value) -> str | None:
    """What ``json.dumps(obj, indent=..., sort_keys=...)`` writes for data all known (None: not that)."""
    import json

    if c.dynamic or set(c.kwargs) - {"indent", "sort_keys"}:
        return None
    data = _python_data(obj)
    indent, sort = c.kwargs.get("indent", NoneV()), c.kwargs.get("sort_keys", BoolV(False))
    if data is _NO_DATA or not (isinstance(indent, NoneV) or (isinstance(indent, IntV) and indent.size.as_int())):
        return None
    if not isinstance(sort, BoolV) or sort.value is None:
        return None
    width = indent.size.as_int() if isinstance(indent, IntV) else None
    try:
        return json.dumps(data, indent=width, sort_keys=sort.value)
    except (TypeError, ValueError):
        return None


@library_call("json.dumps")
def _json_dumps(c: LibraryCall) -> Value | None:
    """``json.dumps(cfg)`` of plain data all known: the text json writes (a config a test writes to a file)."""
    if len(c.args) != 1:
        return None
    text = _json_text(c, c.args[0])
    return StrV(text) if text is not None else None


@library_call("json.dump")
def _json_dump(c: LibraryCall) -> Value | None:
    """``json.dump(cfg, f)`` into ``f = open(tmp_path / "cfg.json", "w")``: the file holds json's text of ``cfg``
    for the rest of the test's run (not known when ``cfg`` is not all known)."""
    from .path_values import write_file

    if len(c.args) != 2:
        return None
    f = c.args[1]
    if isinstance(f, DictV) and f.kind == "written" and isinstance(path := f.get("path"), StrV):
        write_file(path.value, _json_text(c, c.args[0]))
        return NoneV()
    return None


@library_call("json.load")
def _json_load(c: LibraryCall) -> Value | None:
    """``json.load(f)`` of ``f = open(path)``, a config file of the project (``read_config_file``)."""
    if isinstance(c.args[0] if c.args else None, StrV):
        return None  # (json.load reads a file, not a string)
    import json

    return _parsed_config(c, _JSON_MAX_CHARS, json.loads, files=True)


@library_call(
    "rotary_embedding_torch.apply_rotary_emb", "rotary_embedding_torch.rotary_embedding_torch.apply_rotary_emb"
)
def _apply_rotary_emb(c: LibraryCall) -> Value | None:
    """lucidrains' rotary-embedding-torch ``apply_rotary_emb(freqs, t, start_index=0, ...)``: the features of ``t``
    from ``start_index`` on, as many as ``freqs`` has, rotated by ``freqs`` (broadcast against them) and put back
    between the others. Whenever it runs, the result has ``t``'s shape when ``freqs`` has no more axes than ``t`` and
    broadcasting cannot widen ``t`` (each of ``t``'s other axes is known not to be 1, or ``freqs`` has 1 there); else
    unknown."""
    if c.dynamic:
        return None
    freqs = c.args[0] if c.args else c.kwargs.get("freqs")
    t = c.args[1] if len(c.args) > 1 else c.kwargs.get("t")
    if not (isinstance(t, TensorV) and t.shape and isinstance(freqs, TensorV) and freqs.shape is not None):
        return None
    if len(freqs.shape) > len(t.shape) or t.alts or freqs.alts:
        return None
    for a, f in zip(reversed(t.shape[:-1]), reversed(freqs.shape[:-1])):
        if f.as_int() != 1 and a.as_int() in (None, 1):
            return None  # (freqs may broadcast this axis of t up)
    return TensorV(t.shape, None, t.framework, t.axes, t.origin)


@library_call("rotary_embedding_torch.RotaryEmbedding", "rotary_embedding_torch.rotary_embedding_torch.RotaryEmbedding")
def _rotary_embedding(c: LibraryCall) -> Value | None:
    """``RotaryEmbedding(dim, ...)`` of rotary-embedding-torch: a layer (kind ``fw:RotaryEmbedding``) whose
    ``rotate_queries_or_keys(t)`` keeps ``t``'s shape (module._layer_method)."""
    return LayerV("fw:RotaryEmbedding", (), c.node)


# ---- torch.utils.data: datasets and the batches a DataLoader yields
#
# ``TensorDataset(x, y)`` is a layer value (kind ``tensor_dataset``) holding its tensors; a dataset of the analysed
# code is an object whose ``__getitem__`` runs with an index not known. ``DataLoader(dataset, batch_size=B, ...)`` is a
# list of any length (ManyV) whose every element is a batch: ``collate_fn`` run on a list of B items (the default
# stacks tensors, makes numbers tensors, and goes into dicts, tuples and lists). The batch axis is B when every batch
# is full (the dataset's length a multiple of B, or ``drop_last=True``), else a size not known.

_LOADERS = ("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader")
_TENSOR_DATASETS = ("torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset")
# the DataLoader keywords that leave each batch as collate_fn makes it from batch_size items
_LOADER_KEYWORDS = frozenset(
    {
        "dataset",
        "batch_size",
        "shuffle",
        "sampler",
        "num_workers",
        "collate_fn",
        "pin_memory",
        "drop_last",
        "timeout",
        "worker_init_fn",
        "generator",
        "prefetch_factor",
        "persistent_workers",
        "pin_memory_device",
        "multiprocessing_context",
    }
)
_MAX_BATCH = 64  # a custom collate_fn gets a list of that many items at most (else a list of any length)
_MAX_LOADER_BATCHES = 8  # a loader whose last batch is shorter: its batches one by one, up to this many full ones


@library_call(*_TENSOR_DATASETS)
def _tensor_dataset(c: LibraryCall) -> Value | None:
    if c.dynamic or c.kwargs or not c.args:
        return None
    tensors = c.args
    first = tensors[0]
    if not all(isinstance(t, TensorV) and t.shape for t in tensors) or not isinstance(first, TensorV):
        return LayerV("tensor_dataset", (), c.node)  # (a dataset nothing is known of)
    n = first.shape[0]  # type: ignore[index]
    if any(t.shape[0] != n for t in tensors):  # type: ignore[union-attr,index]
        return None  # torch raises "Size mismatch between tensors"
    items = SeqV(tuple(t.with_shape(t.shape[1:]) for t in tensors), "tuple")  # type: ignore[union-attr,index]
    return LayerV("tensor_dataset", (("item", items), ("length", n)), c.node)


def _dataset_item(c: LibraryCall, dataset: Value) -> tuple[Value, Size | None] | None:
    """What ``dataset[i]`` is for an index not known, and the dataset's length when known."""
    from .objects import find_method

    if isinstance(dataset, LayerV) and dataset.kind == "tensor_dataset":
        item = dataset.param("item")
        return (item, dataset.param("length")) if item is not None else None
    if isinstance(dataset, SeqV) and dataset.kind in ("list", "tuple") and dataset.items:
        elem = elements_of(dataset)
        return (elem, Size.const(len(dataset.items))) if elem is not None and elem is not UNKNOWN else None
    if isinstance(dataset, ObjV) and dataset.concrete:
        ci = c.m.find_class(dataset.cls_key)
        get = find_method(c.m, ci, "__getitem__") if ci is not None else None
        if get is None or get.is_static or get.is_classmethod:
            return None
        index = IntV(c.interp.ctx.fresh("index", "(an index of the dataset a DataLoader draws)"))
        item = c.m.call_function(c.interp, c.node, FuncV(get.key, bound_self=dataset), [index], {})
        length: Size | None = None
        size = find_method(c.m, ci, "__len__") if ci is not None else None
        if size is not None and not size.is_static and not size.is_classmethod:
            got = c.m.call_function(c.interp, c.node, FuncV(size.key, bound_self=dataset), [], {})
            length = got.size if isinstance(got, IntV) and got.size.as_int() is not None else None
        n = length.as_int() if length is not None else None
        if n is not None and 0 < n <= _MAX_ENUMERATED_ITEMS and _incomplete(item, 4):
            # (only when every item's shapes are known and agree: items of many shapes are better told by the run
            # for an index not known, ``(n, 6)``, than by their join)
            every = _every_item(c, FuncV(get.key, bound_self=dataset), n)
            item = every if every is not None and not _incomplete(every, 4) else item
        if item is UNKNOWN:
            return None
        return item, length
    return None


_MAX_ENUMERATED_ITEMS = 64  # a dataset of at most this many items whose item is not known for any index: each one


def _incomplete(v: Value, depth: int) -> bool:
    """Does ``v`` hold an unknown value or a tensor whose shape is not known exactly (up to ``depth`` levels of
    dicts, tuples and lists)?"""
    if v is UNKNOWN or depth <= 0:
        return True
    if isinstance(v, TensorV):
        return v.shape is None or any(s.as_int() is None for s in v.shape)
    if isinstance(v, DictV):
        return any(_incomplete(x, depth - 1) for _, x in v.items)
    if isinstance(v, SeqV):
        return any(_incomplete(x, depth - 1) for x in v.items)
    return False


def _every_item(c: LibraryCall, get: FuncV, n: int) -> Value | None:
    """What ``dataset[i]`` may be, from ``__getitem__`` run for each index ``0 .. n - 1`` (a dataset ``n`` long): the
    items joined (a shape all of them agree on is kept). What fails in a run is not a finding here: that item may
    never be drawn. None when an item is not known."""
    from .values import join

    out: Value | None = None
    with c.interp.ctx.discarding(), c.m.ctx.discarding():
        for k in range(n):
            got = c.m.call_function(c.interp, c.node, get, [IntV(Size.const(k))], {})
            if got is UNKNOWN:
                return None
            out = got if out is None else join(out, got)
    return out


def _view(item: Value, length: Size | None, node: cst.Call) -> LayerV:
    """A dataset whose items are like ``item`` (a split or subset of another), ``length`` of them when known."""
    params: tuple[tuple[str, Any], ...] = (("item", item),) + ((("length", length),) if length is not None else ())
    return LayerV("tensor_dataset", params, node)


@library_call("torch.utils.data.random_split", "torch.utils.data.dataset.random_split")
def _random_split(c: LibraryCall) -> Value | None:
    """``train, val = random_split(ds, [80, 20])``: datasets of the lengths given (fractions: lengths not known)
    whose items are the dataset's."""
    if c.dynamic or len(c.args) != 2 or set(c.kwargs) - {"generator"}:
        return None
    found = _dataset_item(c, c.args[0])
    parts = c.args[1]
    if found is None or not isinstance(parts, SeqV) or parts.kind not in ("list", "tuple") or not parts.items:
        return None
    sizes = [
        p.size if isinstance(p, IntV) and not p.assumed and p.size.as_int() is not None else None for p in parts.items
    ]
    if not all(isinstance(p, (IntV, FloatV)) for p in parts.items):
        return None
    return SeqV(tuple(_view(found[0], n, c.node) for n in sizes), "list")


@library_call("torch.utils.data.Subset", "torch.utils.data.dataset.Subset")
def _subset(c: LibraryCall) -> Value | None:
    """``Subset(ds, indices)``: a dataset of ``len(indices)`` items like the dataset's."""
    if c.dynamic or len(c.args) != 2 or c.kwargs:
        return None
    found = _dataset_item(c, c.args[0])
    if found is None:
        return None
    idx = c.args[1]
    n = Size.const(len(idx.items)) if isinstance(idx, SeqV) and idx.kind in ("list", "tuple") else None
    if isinstance(idx, TensorV) and idx.shape is not None and len(idx.shape) == 1:
        n = idx.shape[0]
    return _view(found[0], n, c.node)


def _default_collate(v: Value, batch: Size, origin: Any, depth: int = 4) -> Value:
    """torch's ``default_collate`` of ``batch`` items each like ``v``: tensors and numpy arrays stacked into one
    torch tensor, ints / floats / bools into a 1-d tensor, dicts, tuples and lists item by item; else unknown."""
    if depth <= 0:
        return UNKNOWN
    if isinstance(v, TensorV):
        if v.framework not in ("torch", "numpy") or v.alts:
            return UNKNOWN
        shape = (batch, *v.shape) if v.shape is not None else None
        # (the note names the item's making too: ``a batch of DataLoader(...), of from_numpy(...) in __getitem__``)
        made = origin.made_from(v.origin) if hasattr(origin, "made_from") else origin
        return TensorV(shape, v.dtype, "torch", None, made)
    if isinstance(v, IntV) and not v.assumed:
        return TensorV((batch,), "int64", "torch", None, origin)
    if isinstance(v, FloatV):
        return TensorV((batch,), "float64", "torch", None, origin)
    if isinstance(v, BoolV):
        return TensorV((batch,), "bool", "torch", None, origin)
    if isinstance(v, DictV) and v.kind == "dict":
        return DictV(tuple((k, _default_collate(x, batch, origin, depth - 1)) for k, x in v.items), "dict")
    if isinstance(v, SeqV) and v.kind in ("tuple", "list"):
        return SeqV(tuple(_default_collate(x, batch, origin, depth - 1) for x in v.items), v.kind)
    return UNKNOWN


@library_call(
    "torch.utils.data.default_collate",
    "torch.utils.data.dataloader.default_collate",
    "torch.utils.data._utils.collate.default_collate",
)
def _default_collate_call(c: LibraryCall) -> Value | None:
    """``default_collate(items)`` of a list of items whose shapes are all known and agree: the batch a DataLoader
    makes of them (``_default_collate``); items of different shapes (torch.stack raises) or not known: unknown."""
    from ..rules.shapes_bridge import Origin

    items = c.args[0] if len(c.args) == 1 and not c.kwargs and not c.dynamic else None
    if not isinstance(items, SeqV) or items.kind not in ("list", "tuple") or not items.items:
        return None
    item = _alike(list(items.items), 4)
    if item is None:
        return UNKNOWN
    origin = Origin(c.m, c.node, "default_collate(...)")
    return _default_collate(item, Size.const(len(items.items)), origin)


def _alike(values: list[Value], depth: int) -> Value | None:
    """One item standing for all of ``values`` as ``default_collate`` treats them: tensors of one known shape, ints
    (floats, bools) of any value, tuples, lists and dicts of such alike place by place; None otherwise."""
    from .values import join

    first = values[0]
    if depth <= 0:
        return None
    if isinstance(first, TensorV):
        out = first
        for v in values[1:]:
            out = join(out, v)  # type: ignore[assignment]
        return out if isinstance(out, TensorV) and not _incomplete(out, 1) else None
    for kind in (IntV, FloatV, BoolV):
        if isinstance(first, kind) and all(type(v) is kind for v in values):
            if kind is IntV and any(cast(IntV, v).assumed for v in values):
                return None
            return first
    if isinstance(first, SeqV) and first.kind in ("tuple", "list"):
        n = len(first.items)
        if not all(isinstance(v, SeqV) and v.kind == first.kind and len(v.items) == n for v in values):
            return None
        parts = [_alike([cast(SeqV, v).items[i] for v in values], depth - 1) for i in range(n)]
        return None if any(p is None for p in parts) else SeqV(tuple(cast(list[Value], parts)), first.kind)
    if isinstance(first, DictV) and first.kind == "dict":
        keys = [k for k, _ in first.items]
        if not all(isinstance(v, DictV) and v.kind == "dict" and [k for k, _ in v.items] == keys for v in values):
            return None
        entries = [_alike([cast(DictV, v).get(k) for v in values], depth - 1) for k in keys]
        if any(e is None for e in entries):
            return None
        return DictV(tuple(zip(keys, cast(list[Value], entries))), "dict")
    return None


@library_call(*_LOADERS)
def _data_loader(c: LibraryCall) -> Value | None:
    """``DataLoader(dataset, batch_size=4, collate_fn=...)``: a list of any length of batches (see above)."""
    from ..rules.shapes_bridge import Origin

    if c.dynamic or len(c.args) > 3 or set(c.kwargs) - _LOADER_KEYWORDS or "batch_sampler" in c.kwargs:
        return None
    dataset = c.args[0] if c.args else c.kwargs.get("dataset")
    size = c.args[1] if len(c.args) > 1 else c.kwargs.get("batch_size", IntV(Size.const(1)))
    drop = c.kwargs.get("drop_last", BoolV(False))
    collate = c.kwargs.get("collate_fn", NoneV())
    if dataset is None or not isinstance(drop, BoolV) or drop.value is None:
        return None
    found = _dataset_item(c, dataset)
    if found is None:
        return ManyV(UNKNOWN, "list")  # batches of a dataset nothing is known of (a loader, not unknown)
    item, length = found
    b = size.size.as_int() if isinstance(size, IntV) and not size.assumed else None
    if b is None or b <= 0:
        return ManyV(UNKNOWN, "list")  # (batch_size=None: items one by one, default_convert's; not followed)
    # (a sampler may draw another number of items than the dataset holds: the last batch's size is then not known)
    n = length.as_int() if length is not None and isinstance(c.kwargs.get("sampler", NoneV()), NoneV) else None
    exact: Size
    origin = Origin(c.m, c.node, "a batch of DataLoader(...)")
    if isinstance(collate, RefV) and c.m.project is not None:
        collate = c.m.project.lookup(collate.qualname) or collate  # ``from data import collate_triplets``

    def collated(k: Size) -> Value:
        if isinstance(collate, NoneV):
            return _default_collate(item, k, origin)
        known = k.as_int()
        items = SeqV((item,) * known, "list") if known is not None and known <= _MAX_BATCH else ManyV(item, "list", k)
        return c.m.call_value(c.interp, c.node, collate, [items])

    if drop.value or (n is not None and n % b == 0):
        exact = Size.const(b)
    elif n is not None and n // b < _MAX_LOADER_BATCHES:
        # a few batches, the last one shorter (10 items by 4: 4, 4, 2): each as it is, in order (a loop over the
        # loader sees the short one last; shuffling changes which items, not how many)
        full = collated(Size.const(b))
        return SeqV((full,) * (n // b) + (collated(Size.const(n % b)),), "tuple")
    else:
        exact = c.interp.ctx.fresh("batch", f"(a batch of DataLoader(...), batch_size={b}, the last one smaller)")
    return ManyV(collated(exact), "list")


@library_call("xformers.ops.memory_efficient_attention", "xformers.ops.fmha.memory_efficient_attention")
def _xformers_attention(c: LibraryCall) -> Value | None:
    """xformers' ``memory_efficient_attention(q, k, v, attn_bias=None, p=0.0, scale=None, op=None)``: queries
    (B, M, H, K) or (B, M, K), values (B, N, H, Kv) or (B, N, Kv): one output per query, (B, M, H, Kv) or (B, M, Kv).
    Only the output's shape is told (xformers checks the rest)."""
    names = ("query", "key", "value")
    got = [c.args[i] if i < len(c.args) else c.kwargs.get(n) for i, n in enumerate(names)]
    if c.dynamic or len(c.args) > 3 or set(c.kwargs) - {*names, "attn_bias", "p", "scale", "op", "output_dtype"}:
        return None
    q, k, v = got
    if not all(isinstance(t, TensorV) and t.shape is not None and not t.alts for t in (q, k, v)):
        return None
    assert isinstance(q, TensorV) and isinstance(k, TensorV) and isinstance(v, TensorV)
    rank = len(q.shape or ())
    if rank not in (3, 4) or len(k.shape or ()) != rank or len(v.shape or ()) != rank:
        return None
    shape = (*q.shape[:-1], v.shape[-1])  # type: ignore[index]
    return TensorV(shape, q.dtype, q.framework, None, c.m.ops.origin(c.node, "memory_efficient_attention(...)"))


_JAX_INITIALIZERS = (
    "normal",
    "uniform",
    "truncated_normal",
    "zeros",
    "ones",
    "constant",
    "glorot_uniform",
    "glorot_normal",
    "xavier_uniform",
    "xavier_normal",
    "lecun_uniform",
    "lecun_normal",
    "he_uniform",
    "he_normal",
    "kaiming_uniform",
    "kaiming_normal",
    "variance_scaling",
    "orthogonal",
)


@library_call(
    *(
        f"{p}.{n}"
        for p in ("jax.nn.initializers", "flax.nnx.initializers", "flax.linen.initializers")
        for n in _JAX_INITIALIZERS
    )
)
def _jax_initializer(c: LibraryCall) -> Value | None:
    """``nnx.initializers.normal(0.02)`` (jax.nn's, flax's): an initializer, whose call ``init(key, shape, dtype)``
    makes an array of that shape (``module.call_callee``). ``zeros`` / ``ones`` are initializers themselves."""
    if c.dynamic:
        return None
    name = c.qual.rsplit(".", 1)[-1]
    if name in ("zeros", "ones"):
        return None  # (an initializer already: ``zeros(key, shape)`` -- the call being read here makes the array)
    return LayerV("jax_initializer", (), c.node)


# ---- optax's losses: elementwise over broadcast operands (the class axis of logits reduced)

_OPTAX = ("optax.", "optax.losses.")


def _optax_operands(c: LibraryCall, first: str, second: str) -> tuple[TensorV, TensorV] | None:
    a = c.args[0] if c.args else c.kwargs.get(first)
    b = c.args[1] if len(c.args) > 1 else c.kwargs.get(second)
    if c.dynamic or len(c.args) > 2 or not (isinstance(a, TensorV) and isinstance(b, TensorV)):
        return None
    if a.shape is None or b.shape is None or a.alts or b.alts:
        return None
    return a, b


@library_call(*(p + "softmax_cross_entropy_with_integer_labels" for p in _OPTAX))
def _optax_integer_labels(c: LibraryCall) -> Value | None:
    """``optax.softmax_cross_entropy_with_integer_labels(logits, labels)``: one loss per label, logits' leading axes
    broadcast against the labels' (labels one axis fewer than logits; another rank is not followed)."""
    from ..rules.ops import elementwise

    got = _optax_operands(c, "logits", "labels")
    if got is None or set(c.kwargs) - {"logits", "labels"}:
        return None
    logits, labels = got
    if not logits.shape or len(labels.shape) != len(logits.shape) - 1:  # type: ignore[arg-type]
        return None
    lead = logits.with_shape(logits.shape[:-1])
    out = elementwise(c.m.ops, c.node, c.qual.rsplit(".", 1)[-1], [lead, labels])
    return TensorV(out.shape, logits.dtype, "jax", None, out.origin) if isinstance(out, TensorV) else None


@library_call(*(p + "softmax_cross_entropy" for p in _OPTAX))
def _optax_softmax_cross_entropy(c: LibraryCall) -> Value | None:
    """``optax.softmax_cross_entropy(logits, labels)``: logits and label distributions broadcast, the class axis
    (the last) summed away."""
    from ..rules.ops import elementwise

    got = _optax_operands(c, "logits", "labels")
    if got is None or set(c.kwargs) - {"logits", "labels"}:
        return None
    out = elementwise(c.m.ops, c.node, c.qual.rsplit(".", 1)[-1], list(got))
    if not isinstance(out, TensorV) or not out.shape:
        return TensorV(None, got[0].dtype, "jax") if isinstance(out, TensorV) else None
    return TensorV(out.shape[:-1], got[0].dtype, "jax", None, out.origin)


@library_call(*(p + "smooth_labels" for p in _OPTAX))
def _optax_smooth_labels(c: LibraryCall) -> Value | None:
    """``optax.smooth_labels(labels, alpha)``: the label distributions mixed with the uniform one, the same shape."""
    labels = c.args[0] if c.args else c.kwargs.get("labels")
    if c.dynamic or len(c.args) > 2 or set(c.kwargs) - {"labels", "alpha"} or not isinstance(labels, TensorV):
        return None
    return TensorV(labels.shape, labels.dtype, "jax", None, labels.origin, labels.vshape, labels.alts, labels.not_ranks)


@library_call(*(p + n for p in _OPTAX for n in ("sigmoid_binary_cross_entropy", "huber_loss", "log_cosh")))
def _optax_elementwise_loss(c: LibraryCall) -> Value | None:
    """``optax.sigmoid_binary_cross_entropy(logits, labels)`` / ``huber_loss(predictions, targets)`` /
    ``log_cosh(...)``: one loss per element of the broadcast operands."""
    from ..rules.ops import elementwise

    names = ("logits", "labels") if c.qual.endswith("binary_cross_entropy") else ("predictions", "targets")
    got = _optax_operands(c, *names)
    if got is None or set(c.kwargs) - {*names, "delta"}:
        return None
    out = elementwise(c.m.ops, c.node, c.qual.rsplit(".", 1)[-1], list(got))
    return out if isinstance(out, TensorV) else None


@library_call("flax.training.train_state.TrainState.create")
def _train_state(c: LibraryCall) -> Value | None:
    """``TrainState.create(apply_fn=model.apply, params=params, tx=tx)``: a record whose ``apply_fn`` and ``params``
    are the ones given (``state.apply_fn({"params": state.params}, x)``); its optimizer state is not followed."""
    if c.dynamic or c.args or not {"apply_fn", "params", "tx"} <= set(c.kwargs):
        return None
    kw = c.kwargs
    fields = {"step": IntV(Size.const(0)), "apply_fn": kw["apply_fn"], "params": kw["params"], "tx": kw["tx"]}
    fields["opt_state"] = UNKNOWN  # (the order module._TRAIN_STATE_FIELDS reads; a subclass's own fields after)
    fields.update((k, v) for k, v in kw.items() if k not in fields)
    # (a frozen record, as a named tuple: no code can change it, so a closure reading it keeps it)
    return SeqV(tuple(fields.values()), "tuple", tuple(fields))


# ---- YAML text written in the code: ``yaml.safe_load(CONFIG_YAML)`` of a known string, read with PyYAML's safe
# loader (plain data: no tag that builds an object or runs code), its values as ``json.loads``'s (``_json_value``)

_YAML_MAX_CHARS = 20_000
_YAML_MAX_NODES = 5_000  # (anchors and aliases share nodes: a short text can stand for a huge tree)
_YAML_LOADERS = frozenset({"SafeLoader", "CSafeLoader", "FullLoader", "CFullLoader", "Loader", "CLoader"})


@library_call("yaml.safe_load", "yaml.load")
def _yaml_load(c: LibraryCall) -> Value | None:
    """``yaml.safe_load(CONFIG)`` (``yaml.load(CONFIG, Loader=yaml.SafeLoader)``, or another of PyYAML's loaders) of
    a string the analysis knows: the mappings, lists, numbers and strings it holds, read by the safe loader whatever
    loader the code names (text it cannot read that way, or anything but str keys and plain scalars: unknown)."""
    kwargs = dict(c.kwargs)
    if c.qual == "yaml.load":
        loader = kwargs.pop("Loader", None)
        if not (isinstance(loader, RefV) and loader.qualname.rsplit(".", 1)[-1] in _YAML_LOADERS):
            return None
    # (``yaml.safe_load(f)`` of a config file of the project too)
    return _parsed_config(c._replace(kwargs=kwargs), _YAML_MAX_CHARS, _yaml_data, files=True)


def _yaml_data(text: str) -> Any:
    """PyYAML's safe loader's data of ``text``; ValueError for text it cannot read, or for anything but str keys and
    plain scalars (or more than _YAML_MAX_NODES nodes)."""
    try:
        import yaml  # type: ignore[import-untyped,unused-ignore]

        data = yaml.safe_load(text)
    except Exception as exc:  # (yaml.YAMLError, or PyYAML not installed)
        raise ValueError(exc) from exc
    if not _plain_data(data, [_YAML_MAX_NODES]):
        raise ValueError("not plain data")
    return data


def _plain_data(data: Any, budget: list[int]) -> bool:
    """Only dicts with str keys, lists, str / int / float / bool / None, within ``budget`` nodes in all."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if isinstance(data, dict):
        return all(isinstance(k, str) and _plain_data(v, budget) for k, v in data.items())
    if isinstance(data, list):
        return all(_plain_data(x, budget) for x in data)
    return data is None or isinstance(data, (str, int, float, bool))


# ---- TOML text written in the code: ``tomllib.loads(CONFIG)`` of a known string, read with the standard library's
# parser (data, never code), its values as ``json.loads``'s (``_json_value``)

_TOML_MAX_CHARS = 20_000


@library_call("tomllib.loads", "tomli.loads")
def _toml_loads(c: LibraryCall) -> Value | None:
    """``tomllib.loads(CONFIG)`` of a string the analysis knows: the tables, arrays, numbers and strings it holds
    (text that does not parse: unknown, where the call raises; no ``tomllib`` before Python 3.11: unknown)."""
    try:
        import tomllib
    except ImportError:
        return UNKNOWN
    return _parsed_config(c, _TOML_MAX_CHARS, tomllib.loads)
