"""Functions and classes of the analysed code: signatures with their jaxtyping annotations."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Callable

import libcst as cst

from .jaxtyping_bridge import Annotation

if TYPE_CHECKING:
    from ..interpret.module import ModuleAnalysis
    from ..interpret.values import Value


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    ann: Annotation | None
    default: cst.BaseExpression | None
    kind: str  # "pos" | "posonly" | "kwonly" | "star" | "starstar"


@dataclass(frozen=True)
class FunctionInfo:
    """A ``def`` of the analysed code (or of a stub), complete when made. Signing it (reading its annotations, which
    may use aliases the module level defines later) makes a new one that replaces it in its module's table
    (``ModuleAnalysis.functions``); what analysing it learns lives in the interpreter (``interpret/state.py``)."""

    key: str
    node: cst.FunctionDef
    module: "ModuleAnalysis"
    params: tuple[Param, ...]
    return_ann: Annotation | None
    cls_key: str | None = None
    is_static: bool = False
    is_classmethod: bool = False
    rebound: bool = False  # a method its class body assigns again after the def (``rel = torch.vmap(rel)``)

    @property
    def name(self) -> str:
        return self.node.name.value

    @property
    def where(self) -> str:
        """``path:line`` of the def."""
        return f"{self.module.path}:{self.module.line_of(self.node)}"

    @property
    def annotated(self) -> bool:
        return any(p.ann is not None for p in self.params) or self.return_ann is not None

    @property
    def has_unknown_decorators(self) -> bool:
        if self.rebound:
            return True  # what the class binds under the name is not this def
        return any(self.unknown_decorator(d) for d in self.node.decorators)

    def unknown_decorator(self, d: cst.Decorator) -> bool:
        """Is ``d`` a decorator whose result may be other than the function (``has_unknown_decorators``)?"""
        text = d.decorator
        name = text.func if type(text) is cst.Call else text
        n = name.attr.value if type(name) is cst.Attribute else name.value if type(name) is cst.Name else ""
        if n in _JIT_MARKS and type(name) is cst.Attribute and _last_name(name.value) == "jit":
            return False  # ``@torch.jit.ignore`` / ``unused`` / ``export`` / ``script``: the same shapes as the function itself
        if n == "setter" and type(text) is cst.Attribute and _last_name(text.value) == self.name:
            return False  # ``@max_seq_length.setter``: the method a store to the property runs (property_setter)
        if n == "wrap" and type(text) is cst.Attribute and _last_name(text.value) == "fx":
            return False  # ``@torch.fx.wrap``: registers the function as a leaf of fx tracing and returns it
        if n == "partial" and type(text) is cst.Call and text.args and text.args[0].keyword is None:
            # ``@partial(jax.jit, static_argnums=1)`` / ``@functools.partial(jax.checkpoint, prevent_cse=False)``:
            # a transform that keeps the function's shapes, given its options
            inner = text.args[0].value
            if type(inner) in (cst.Name, cst.Attribute) and _last_name(inner) in _SAME_SHAPES_TRANSFORMS:
                return False
        if n not in (
            "staticmethod",
            "classmethod",
            "jaxtyped",
            "typechecked",
            "beartype",
            "jit",
            "filter_jit",
            "wraps",
            "torch_compile",
            "compile",
            "no_grad",
            "enable_grad",
            "inference_mode",
            "property",
            "cached_property",
            "cache",
            "lru_cache",
            "checkpoint",
            "typecheck",
            "autocast",
            "overload",
            "compact",
            "nowrap",
            "custom_vjp",
            "custom_jvp",
            # a name for profiles or a rematerialisation: the function itself runs (``@jax.named_scope("conv")``)
            "named_scope",
            "named_call",
            "remat",
            "record_function",
            "custom_fwd",
            "custom_bwd",
        ):
            if type(text) is cst.Name and _transparent_decorator(self.module, text):
                return False
            if type(text) is cst.Call and type(text.func) is cst.Name and _factory_of_identity(self.module, text):
                return False
            return True
        return False


_JIT_MARKS = frozenset({"ignore", "unused", "export", "script", "script_method"})
# transforms whose options ``partial`` binds and that return a function with the shapes of the one they wrap
_SAME_SHAPES_TRANSFORMS = frozenset(
    {"jit", "filter_jit", "checkpoint", "remat", "filter_checkpoint", "custom_vjp", "custom_jvp", "named_call"}
)

_TRANSPARENT: dict[int, tuple[cst.FunctionDef, bool]] = {}  # id(decorator def) -> (it, does it pass calls through)


def _decorator_def(m: "ModuleAnalysis", name: cst.Name) -> FunctionInfo | None:
    """The plain function of the analysed code that ``@name`` names (defined in the module or imported into it)."""
    from ..interpret.values import FuncV

    fi = m.functions.get(f"{m.module_name}:{name.value}")
    if fi is None and m.project is not None:
        q = m.qualify(name)
        v = m.project.lookup(q) if q is not None else None
        fi = m.find_function(v.key) if isinstance(v, FuncV) and v.bound_self is None and not v.env else None
    if fi is None or fi.cls_key is not None or fi.node.decorators:
        return None
    return fi


def _transparent_decorator(m: "ModuleAnalysis", name: cst.Name) -> bool:
    """``@eval_decorator`` where the analysed code defines it as a wrapper that calls the function with exactly its own
    arguments and returns what it returns (``transparent_wrapper``): calling the decorated function runs its body."""
    fi = _decorator_def(m, name)
    if fi is None:
        return False
    hit = _TRANSPARENT.get(id(fi.node))
    if hit is None or hit[0] is not fi.node:
        hit = _TRANSPARENT[id(fi.node)] = (fi.node, transparent_wrapper(fi.node) or returns_its_argument(fi.node))
    return hit[1]


def _factory_of_identity(m: "ModuleAnalysis", call: cst.Call) -> bool:
    """``@register_model(mean=...)`` where the analysed code defines ``register_model`` as a factory whose body is
    ``def _register(fn): ...; return fn`` and ``return _register`` (``returns_its_argument``): the decorated
    function is itself."""
    assert type(call.func) is cst.Name
    if any(a.star for a in call.args):
        return False
    fi = _decorator_def(m, call.func)
    if fi is None:
        return False
    hit = _FACTORIES.get(id(fi.node))
    if hit is None or hit[0] is not fi.node:
        shape = _factory_shape(fi.node)
        hit = _FACTORIES[id(fi.node)] = (fi.node, shape is not None and returns_its_argument(shape))
    return hit[1]


_FACTORIES: dict[int, tuple[cst.FunctionDef, bool]] = {}  # id(factory def) -> (it, does its decorator hand back fn)


def _factory_shape(deco: cst.FunctionDef) -> cst.FunctionDef | None:
    """The inner def of ``def factory(...): def inner(fn): ...; return inner``, or None."""
    body = _body(deco.body)
    if len(body) != 2 or type(body[0]) is not cst.FunctionDef or type(body[1]) is not cst.Return:
        return None
    inner = body[0]
    if inner.decorators or not _is_name(body[1].value, inner.name.value):
        return None
    return inner


# a constructor wrapper's keyword filter: (the comprehension's key name, its condition; None: every keyword passes)
KeywordFilter = tuple[str, "cst.BaseExpression | None"]
_FORWARDING: dict[int, tuple[cst.FunctionDef, "KeywordFilter | None"]] = {}


def constructor_wrapper_filter(fi: FunctionInfo) -> KeywordFilter | None:
    """For an ``__init__`` whose one decorator is a function of the analysed code that returns a wrapper forwarding
    the constructor call (``constructor_wrapper``, diffusers' ``@register_to_config``): the filter the wrapper applies
    to the keyword arguments it forwards. None: no such decorator (or something else on the def)."""
    if fi.rebound or len(fi.node.decorators) != 1 or fi.name != "__init__" or fi.cls_key is None:
        return None
    text = fi.node.decorators[0].decorator
    if type(text) is not cst.Name:
        return None
    deco = _decorator_def(fi.module, text)
    if deco is None:
        return None
    hit = _FORWARDING.get(id(deco.node))
    if hit is None or hit[0] is not deco.node:
        hit = _FORWARDING[id(deco.node)] = (deco.node, constructor_wrapper(deco.node))
    return hit[1]


# calls that only read the arguments they get (a wrapper may hand them ``self``, ``args`` or ``kwargs``)
_PURE_READS = frozenset({"getattr", "hasattr", "isinstance", "len", "zip", "enumerate", "signature", "type", "id"})
_KWARGS_READS = frozenset({"items", "keys", "values", "get"})


def constructor_wrapper(deco: cst.FunctionDef) -> KeywordFilter | None:
    """Is ``deco`` a constructor decorator whose wrapper runs the constructor with its own arguments:

        def register_to_config(init):
            @functools.wraps(init)                       # optional
            def inner_init(self, *args, **kwargs):
                init_kwargs = {k: v for k, v in kwargs.items() if not k.startswith("_")}   # optional filter
                ...                                      # bookkeeping: locals, ifs that raise, loops, calls
                init(self, *args, **init_kwargs)         # last, once
            return inner_init

    The bookkeeping may not rebind or store into ``self``, ``args``, ``kwargs`` or the filtered dict, nor hand
    them to a call other than a pure read (``getattr(self, name)``, ``kwargs.items()``, ``zip(args, ...)``,
    ``inspect.signature(init)``), nor return, yield, or define functions. Then building the object runs ``__init__``
    with the arguments given, keywords the filter drops left out: the filter (key name, condition), or None when
    ``deco`` is not such a decorator. (A method the bookkeeping calls on the object, a configuration registry
    ``self.register_to_config(**cfg)``, is not followed: ``__init__`` is taken to set what its body reads.)"""
    wrapper = _wrapper_shape(deco, default_allowed=False)
    if wrapper is None:
        return None
    fn, inner = wrapper
    ip = inner.params
    if (
        ip.posonly_params
        or ip.kwonly_params
        or len(ip.params) != 1
        or ip.params[0].default is not None
        or type(ip.star_arg) is not cst.Param
        or ip.star_kwarg is None
    ):
        return None
    me, star, starstar = ip.params[0].name.value, ip.star_arg.name.value, ip.star_kwarg.name.value
    stmts = _body(inner.body)
    if not stmts or type(stmts[-1]) is not cst.Expr:
        return None
    call = stmts[-1].value
    if not (type(call) is cst.Call and _is_name(call.func, fn) and len(call.args) == 3):
        return None
    a0, a1, a2 = call.args
    if not (
        a0.keyword is None
        and not a0.star
        and _is_name(a0.value, me)
        and a1.star == "*"
        and _is_name(a1.value, star)
        and a2.star == "**"
        and type(a2.value) is cst.Name
    ):
        return None
    forwarded = a2.value.value
    found: KeywordFilter | None = None
    if forwarded == starstar:
        found = ("", None)
    protected = {me, star, starstar, fn, forwarded}
    for st in stmts[:-1]:
        if (
            forwarded != starstar
            and type(st) is cst.Assign
            and len(st.targets) == 1
            and _is_name(st.targets[0].target, forwarded)
        ):
            if found is not None:
                return None  # bound twice
            found = _kwargs_filter(st.value, starstar)
            if found is None:
                return None
            continue
        if not _bookkeeping(st, protected, {starstar, forwarded}, me):
            return None
    return found


def _kwargs_filter(e: cst.BaseExpression, starstar: str) -> KeywordFilter | None:
    """``{k: v for k, v in kwargs.items() if cond}`` (at most one ``if``, nothing else): (k, cond)."""
    if type(e) is not cst.DictComp:
        return None
    comp = e.for_in
    if comp.inner_for_in is not None or comp.asynchronous is not None or len(comp.ifs) > 1:
        return None
    target = comp.target
    if not (type(target) is cst.Tuple and len(target.elements) == 2):
        return None
    k, v = (el.value for el in target.elements)
    if not (type(k) is cst.Name and type(v) is cst.Name and k.value != v.value):
        return None
    it = comp.iter
    if not (
        type(it) is cst.Call
        and not it.args
        and type(it.func) is cst.Attribute
        and it.func.attr.value == "items"
        and _is_name(it.func.value, starstar)
    ):
        return None
    if not (_is_name(e.key, k.value) and _is_name(e.value, v.value)):
        return None
    return (k.value, comp.ifs[0].test if comp.ifs else None)


def _bookkeeping(st: cst.CSTNode, protected: set[str], dicts: set[str], me: str) -> bool:
    """A statement of a constructor wrapper before it runs the constructor (``constructor_wrapper``): nothing that
    rebinds or stores into a protected name, hands one to a call other than a pure read, changes ``args`` or the
    keyword dicts through a method, or leaves the wrapper. A method called on the object (``self.register(**cfg)``)
    may record what it is given."""
    from ..interpret.walk import children

    stack: list[cst.CSTNode] = [st]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp in (cst.Return, cst.Yield, cst.Await, cst.Global, cst.Nonlocal, cst.FunctionDef, cst.ClassDef):
            return False
        if tp in (cst.Lambda, cst.Try, cst.With, cst.Del, cst.NamedExpr, cst.Import, cst.ImportFrom):
            return False
        if isinstance(n, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For)):
            root: cst.BaseExpression = n.target
            while isinstance(root, (cst.Attribute, cst.Subscript)):
                root = root.value
            if _names_in(root) & protected or (type(root) is cst.Name and root.value in protected):
                return False
        elif isinstance(n, cst.CompFor):
            if _names_in(n.target) & protected:
                return False
        elif tp is cst.Call:
            assert isinstance(n, cst.Call)
            func = n.func
            if type(func) is cst.Attribute:
                owner: cst.BaseExpression = func.value
                while isinstance(owner, (cst.Attribute, cst.Subscript)):
                    owner = owner.value
                if type(owner) is cst.Name and owner.value in protected and owner.value != me:
                    if not (
                        type(func.value) is cst.Name and func.value.value in dicts and func.attr.value in _KWARGS_READS
                    ):
                        return False  # args.append(...), kwargs.pop(...): changes what init gets
            handed = [a for a in n.args if _mentions(a.value, protected)]
            if handed and _last_name(func) not in _PURE_READS:
                return False
        stack.extend(children(n))
    return True


def _mentions(e: cst.BaseExpression, names: set[str]) -> bool:
    """A protected name itself, an attribute / item of it (``self``, ``self.cfg``, ``args[0]``), or a display holding
    one (``[self]``, ``(args, 1)``)."""
    while isinstance(e, (cst.Attribute, cst.Subscript)):
        e = e.value
    if isinstance(e, (cst.Tuple, cst.List, cst.Set)):
        return any(_mentions(el.value, names) for el in e.elements)
    if isinstance(e, cst.Dict):
        return any(
            _mentions(el.value, names) or (isinstance(el, cst.DictElement) and _mentions(el.key, names))
            for el in e.elements
        )
    return type(e) is cst.Name and e.value in names


def keyword_kept(flt: KeywordFilter, key: str) -> bool | None:
    """Does the wrapper's keyword filter keep ``key`` (None: a condition this does not evaluate)?"""
    name, cond = flt
    return True if cond is None else _eval_key_test(cond, name, key)


def _eval_key_test(e: cst.BaseExpression, name: str, key: str) -> bool | None:
    tp = type(e)
    if tp is cst.UnaryOperation and type(e.operator) is cst.Not:  # type: ignore[attr-defined]
        inner = _eval_key_test(e.expression, name, key)  # type: ignore[attr-defined]
        return None if inner is None else not inner
    if tp is cst.BooleanOperation:
        first = _eval_key_test(e.left, name, key)  # type: ignore[attr-defined]
        second = _eval_key_test(e.right, name, key)  # type: ignore[attr-defined]
        if first is None or second is None:
            return None
        return (first and second) if type(e.operator) is cst.And else (first or second)  # type: ignore[attr-defined]
    if tp is cst.Call:
        assert isinstance(e, cst.Call)
        func = e.func
        if (
            type(func) is cst.Attribute
            and _is_name(func.value, name)
            and func.attr.value in ("startswith", "endswith")
            and len(e.args) == 1
            and e.args[0].keyword is None
            and not e.args[0].star
        ):
            text = _string(e.args[0].value)
            if text is None:
                return None
            return key.startswith(text) if func.attr.value == "startswith" else key.endswith(text)
        return None
    if tp is cst.Comparison:
        assert isinstance(e, cst.Comparison)
        if not _is_name(e.left, name) or len(e.comparisons) != 1:
            return None
        op, other = e.comparisons[0].operator, e.comparisons[0].comparator
        if type(op) in (cst.Equal, cst.NotEqual):
            text = _string(other)
            if text is None:
                return None
            return (key == text) if type(op) is cst.Equal else (key != text)
        if isinstance(other, (cst.Tuple, cst.List, cst.Set)) and type(op) in (cst.In, cst.NotIn):
            texts = [_string(el.value) for el in other.elements]
            if any(t is None for t in texts):
                return None
            return (key in texts) if type(op) is cst.In else (key not in texts)
    return None


def _string(e: cst.BaseExpression) -> str | None:
    if isinstance(e, cst.SimpleString) and not e.prefix.lower().strip("u"):
        v = e.evaluated_value
        return v if isinstance(v, str) else None
    return None


def returns_its_argument(deco: cst.FunctionDef) -> bool:
    """Is ``deco`` a decorator that hands back the very function it gets (a registry's ``@register_model``:
    ``_entrypoints[fn.__name__] = fn ... return fn``)? One plain parameter, the body ending with ``return fn``,
    every return of the body ``return fn``, and nothing that rebinds ``fn`` or stores into it (``fn.x = ...``,
    ``setattr(fn, ...)``, ``fn.__dict__.update(...)``): calling the decorated name runs the function itself."""
    from ..interpret.walk import children

    fn = _sole_parameter(deco.params, default_allowed=False)
    if fn is None:
        return False
    stmts = _body(deco.body)
    if not stmts or not isinstance(stmts[-1], cst.Return) or not _is_name(stmts[-1].value, fn):
        return False
    stack: list[cst.CSTNode] = [deco.body]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Return):
            if not _is_name(n.value, fn):
                return False
        elif type(n) is cst.Assign and len(n.targets) == 1 and _records_a_name(n, fn):
            continue  # ``cls.registry_name = name``: a public data attribute set on it, which calling it never reads
        elif isinstance(n, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr, cst.Del)):
            root: cst.BaseExpression = n.target
            while isinstance(root, (cst.Attribute, cst.Subscript)):
                root = root.value  # ``fn.x = ...``, ``fn.__dict__[k] = ...``: a change of the function object
            if fn in _names_in(root):
                return False
        elif isinstance(n, (cst.Global, cst.Nonlocal, cst.Lambda, cst.FunctionDef, cst.ClassDef)):
            return False  # a nested def could close over ``fn`` and be handed back by another way: keep it simple
        elif isinstance(n, cst.Call):
            if any(_is_name(a.value, fn) for a in n.args) and _last_name(n.func) in _CHANGES_FUNCTION:
                return False
            if isinstance(n.func, cst.Attribute):
                owner: cst.BaseExpression = n.func.value
                while isinstance(owner, (cst.Attribute, cst.Subscript)):
                    owner = owner.value
                if _is_name(owner, fn) and n.func.attr.value not in _STRING_READS:
                    return False  # ``fn.__dict__.update(...)``: a change of the function object
        stack.extend(children(n))
    return True


def _records_a_name(st: cst.Assign, fn: str) -> bool:
    """``fn.registry_name = name`` / ``fn.tag = "resnet"``: a public attribute (no underscore) of the decorated
    object, named as a label is (``...name``, ``...key``, ``...tag``, ``...id``), set to a plain name or a string: how
    registries label what they register. Not a method's name the object's call could run (``forward``, ``call``,
    ``apply``...), nor an attribute the object's methods would read as a size or a flag."""
    t = st.targets[0].target
    return (
        type(t) is cst.Attribute
        and _is_name(t.value, fn)
        and not t.attr.value.startswith("_")
        and t.attr.value.endswith(("name", "key", "tag", "id"))
        and t.attr.value not in _RUN_BY_CALLS
        and type(st.value) in (cst.Name, cst.SimpleString)
        and not _is_name(st.value, fn)
    )


# attribute names a call of a module, a layer or a flax / equinox / keras object may run
_RUN_BY_CALLS = frozenset({"forward", "call", "apply", "init", "setup", "build", "compute", "step"})

_CHANGES_FUNCTION = frozenset({"setattr", "update_wrapper", "wraps", "partial"})
_STRING_READS = frozenset({"split", "rsplit", "startswith", "endswith", "lower", "upper", "replace", "strip"})


def _wrapper_shape(
    deco: cst.FunctionDef, *, default_allowed: bool, stores: bool = False
) -> tuple[str, cst.FunctionDef] | None:
    """A decorator of the shape ``def deco(fn): @wraps(fn) def inner(...): ...; return inner`` (``@wraps`` optional):
    (the decorated function's parameter name, ``inner``), or None. ``stores``: the wrapper may also be stored under
    a key in a dict between its def and the return (a timm-style registry keeping the wrapper,
    ``_entrypoints[fn.__name__] = inner``, the key perhaps a name bound first to ``fn.__name__``): what the decorated
    name is bound to stays ``inner``."""
    fn = _sole_parameter(deco.params, default_allowed=default_allowed)
    if fn is None:
        return None
    outer = _body(deco.body)
    if len(outer) < 2 or type(outer[0]) is not cst.FunctionDef or type(outer[-1]) is not cst.Return:
        return None
    inner = outer[0]
    if not _is_name(outer[-1].value, inner.name.value):
        return None
    if len(outer) > 2 and not (stores and all(_stores_wrapper(st, fn, inner.name.value) for st in outer[1:-1])):
        return None
    for d in inner.decorators:  # @wraps(fn) / @functools.wraps(fn)
        call = d.decorator
        if not (
            type(call) is cst.Call
            and _last_name(call.func) == "wraps"
            and len(call.args) == 1
            and _is_name(call.args[0].value, fn)
        ):
            return None
    return fn, inner


def _stores_wrapper(st: cst.CSTNode, fn: str, inner: str) -> bool:
    """``D[key] = inner`` (``D`` and ``key`` plain names other than ``fn`` / ``inner``, or the key ``fn.__name__``)
    or ``key = fn.__name__``: a statement of a registering wrapper decorator that binds neither name."""
    if type(st) is not cst.Assign or len(st.targets) != 1:
        return False
    target = st.targets[0].target

    def name_of_fn(e: cst.BaseExpression) -> bool:
        return type(e) is cst.Attribute and e.attr.value == "__name__" and _is_name(e.value, fn)

    if type(target) is cst.Name:
        return target.value not in (fn, inner) and name_of_fn(st.value)
    if type(target) is not cst.Subscript or not _is_name(st.value, inner) or type(target.value) is not cst.Name:
        return False
    if target.value.value in (fn, inner) or len(target.slice) != 1:
        return False
    key = target.slice[0].slice
    if type(key) is not cst.Index:
        return False
    k = key.value
    return name_of_fn(k) or (type(k) is cst.Name and k.value not in (fn, inner))


def _is_name(e: cst.CSTNode | None, name: str) -> bool:
    return isinstance(e, cst.Name) and e.value == name


def _names_in(target: cst.CSTNode) -> set[str]:
    """The plain names a target binds (``a``, ``a, (b, *c)``)."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return {x for e in target.elements for x in _names_in(e.value)}
    if isinstance(target, cst.StarredElement):
        return _names_in(target.value)
    return set()


def _sole_parameter(ps: cst.Parameters, default_allowed: bool) -> str | None:
    """The name of the one plain positional parameter of ``ps`` (with a default only when ``default_allowed``), else
    None: a decorator's ``def deco(fn)``."""
    if (
        len(ps.params) != 1
        or (ps.params[0].default is not None and not default_allowed)
        or ps.posonly_params
        or ps.kwonly_params
        or ps.star_kwarg
        or not isinstance(ps.star_arg, cst.MaybeSentinel)
    ):
        return None
    return ps.params[0].name.value


def _body(suite: cst.BaseSuite) -> list[cst.BaseStatement | cst.BaseSmallStatement]:
    """A suite's statements, one per simple statement, without a leading docstring."""
    out: list[cst.BaseStatement | cst.BaseSmallStatement] = []
    if type(suite) is cst.SimpleStatementSuite:
        out.extend(suite.body)
    elif type(suite) is cst.IndentedBlock:
        for stmt in suite.body:
            if type(stmt) is cst.SimpleStatementLine:
                out.extend(stmt.body)
            else:
                out.append(stmt)
    if out and type(out[0]) is cst.Expr and type(out[0].value) in (cst.SimpleString, cst.ConcatenatedString):
        out = out[1:]
    return out


def transparent_wrapper(deco: cst.FunctionDef) -> bool:
    """Is ``deco`` a decorator whose wrapper only forwards its call:

        def eval_decorator(fn):
            @wraps(fn)                          # optional
            def inner(model, *args, **kwargs):
                was_training = model.training   # names bound from attributes of the positional parameters
                model.eval()                    # .eval() / .train(...) on them
                out = fn(model, *args, **kwargs)  # every parameter, in order, once (or ``return fn(...)``)
                model.train(was_training)
                return out
            return inner

    Nothing else is allowed: no other call, no other return, no change of an argument (an in-place op on a tensor
    argument would change the shapes the function sees)."""
    wrapper = _wrapper_shape(deco, default_allowed=True, stores=True)
    if wrapper is None:
        return False
    fn, inner = wrapper
    ip = inner.params
    if ip.posonly_params or ip.kwonly_params or any(p.default is not None for p in ip.params):
        return False
    positional = [p.name.value for p in ip.params]
    star = ip.star_arg.name.value if type(ip.star_arg) is cst.Param else None
    starstar = ip.star_kwarg.name.value if ip.star_kwarg is not None else None
    forwarded = (
        [(n, "") for n in positional] + ([(star, "*")] if star else []) + ([(starstar, "**")] if starstar else [])
    )

    def forwards(call: cst.BaseExpression) -> bool:
        return (
            type(call) is cst.Call
            and type(call.func) is cst.Name
            and call.func.value == fn
            and [(a.value.value if type(a.value) is cst.Name else None, a.star) for a in call.args] == forwarded
            and all(a.keyword is None for a in call.args)
        )

    stmts = _body(inner.body)
    if not stmts or type(stmts[-1]) is not cst.Return or stmts[-1].value is None:
        return False
    last = stmts[-1].value
    result: str | None = None
    calls = 0
    bound = set(positional) | {star, starstar, fn}
    for st in stmts[:-1]:
        if type(st) is cst.Assign and len(st.targets) == 1 and type(st.targets[0].target) is cst.Name:
            target = st.targets[0].target.value
            if target in bound or target == result:
                return False
            if forwards(st.value):
                calls += 1
                result = target
            elif not _attribute_read(st.value, set(positional)):
                return False
            bound.add(target) if result != target else None
        elif (
            type(st) is cst.Expr
            and type(st.value) is cst.Call
            and type(st.value.func) is cst.Attribute
            and st.value.func.attr.value in ("eval", "train")
            and type(st.value.func.value) is cst.Name
            and st.value.func.value.value in positional
            and all(
                isinstance(a.value, (cst.Name, cst.Integer)) and a.value.value not in (fn, star, starstar)
                for a in st.value.args
            )
        ):
            continue
        else:
            return False
    if forwards(last):
        calls += 1
    elif not (type(last) is cst.Name and result is not None and last.value == result):
        return False
    return calls == 1


def _attribute_read(e: cst.BaseExpression, params: set[str]) -> bool:
    """``model.training``: an attribute of a positional parameter, read."""
    return type(e) is cst.Attribute and type(e.value) is cst.Name and e.value.value in params


def _last_name(node: cst.BaseExpression) -> str:
    return node.attr.value if type(node) is cst.Attribute else node.value if type(node) is cst.Name else ""


class MethodTable(Mapping[str, FunctionInfo]):
    """A class's methods by name. The names and their function keys are fixed when the class is indexed; each is read
    from the module's function table, which holds the function as last signed."""

    __slots__ = ("_keys", "_functions")

    def __init__(self, keys: Mapping[str, str], functions: Mapping[str, FunctionInfo]) -> None:
        self._keys = MappingProxyType(dict(keys))
        self._functions = functions

    def __getitem__(self, name: str) -> FunctionInfo:
        return self._functions[self._keys[name]]

    def __contains__(self, name: object) -> bool:
        return name in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def get(self, name: str, default: FunctionInfo | None = None) -> FunctionInfo | None:  # type: ignore[override]
        key = self._keys.get(name)
        return self._functions[key] if key is not None else default


@dataclass(frozen=True)
class ClassInfo:
    """A ``class`` of the analysed code, complete when made: its methods, bases and decorators. What analysing it
    learns (attributes from ``__init__``, objects built, its MRO) lives in the interpreter (``interpret/state.py``)."""

    key: str
    node: cst.ClassDef
    module: "ModuleAnalysis"
    methods: MethodTable
    bases: tuple[str, ...]
    decorators: tuple[str, ...]


def signature_params(
    node: cst.FunctionDef, annotation_of: Callable[[cst.BaseExpression], Annotation | None]
) -> tuple[Param, ...]:
    ps = node.params
    out: list[Param] = []

    def add(p: cst.Param, kind: str) -> None:
        ann = annotation_of(p.annotation.annotation) if p.annotation is not None else None
        out.append(Param(p.name.value, ann, p.default, kind))

    for p in ps.posonly_params:
        add(p, "posonly")
    for p in ps.params:
        add(p, "pos")
    if type(ps.star_arg) is cst.Param:
        add(ps.star_arg, "star")
    for p in ps.kwonly_params:
        add(p, "kwonly")
    if ps.star_kwarg is not None:
        add(ps.star_kwarg, "starstar")
    return tuple(out)


# among a call's keywords: the call also spreads a dict whose keys are not known (``**kwargs``); the rules of
# UNKNOWN_KEYWORDS_OK read the same mark
OPEN_KEYWORDS = "**"


def bind_arguments(
    params: tuple[Param, ...], args: list["Value"], kwargs: dict[str, "Value"], skip_first: bool
) -> dict[str, "Value"] | None:
    """Map call arguments to parameter names (None when the call does not fit or uses *args/**kwargs).

    ``kwargs[OPEN_KEYWORDS]``: the call also spreads a dict whose keys are not known (``f(x, **kwargs)``): every
    parameter the other arguments leave (but the positional-only ones) is unknown, not its default, and so is a
    ``**`` parameter."""
    from ..interpret.values import UNKNOWN

    plist = params[1:] if skip_first else params
    out: dict[str, Value] = {}
    open_keywords = OPEN_KEYWORDS in kwargs
    if open_keywords:
        kwargs = {k: v for k, v in kwargs.items() if k != OPEN_KEYWORDS}
    positional = [p for p in plist if p.kind in ("pos", "posonly")]
    star = next((p for p in plist if p.kind == "star"), None)
    starstar = next((p for p in plist if p.kind == "starstar"), None)
    if len(args) > len(positional) and star is None:
        return None
    for p, a in zip(positional, args):
        out[p.name] = a
    by_name = {p.name: p for p in plist if p.kind in ("pos", "kwonly")}
    extra: dict[str, Value] = {}
    for k, v in kwargs.items():
        if k in by_name and k not in out:
            out[k] = v
        elif starstar is None:
            return None
        else:
            extra[k] = v
    if starstar is not None:
        from ..interpret.values import DictV

        # **kwargs: the named arguments no parameter took
        out[starstar.name] = UNKNOWN if open_keywords else DictV(tuple(extra.items()))
    if star is not None:
        from ..interpret.values import SeqV

        # *args: the positional arguments no parameter took (none when fewer than the positional parameters came)
        out[star.name] = SeqV(tuple(args[len(positional) :]), "tuple")
    if open_keywords:
        for p in plist:
            if p.name not in out and p.kind in ("pos", "kwonly"):
                out[p.name] = UNKNOWN
    for p in plist:
        if p.name not in out and p.kind in ("pos", "posonly", "kwonly") and p.default is None:
            return None  # a required argument is missing: the call is not understood
    return out
