"""Where op semantics are registered: one table per kind of call, filled by the family modules at import.

A rule is a plain function of an :class:`OpContext` (the op helpers: fresh symbols, reporting, origins, the stub
signatures; the module only as a :class:`RuleModule`) and the call's values. Each family module registers its rules with a decorator next to the rule:

* :data:`TENSOR_METHODS` -- ``x.name(...)`` on a torch / numpy / jax tensor, and ``torch.name(x, ...)`` /
  ``np.name(x, ...)`` when no function rule takes the call (``args`` then exclude the tensor itself);
* :data:`FUNCTIONS` -- framework functions, by qualified name (``torch.nn.functional.linear``) or by last name
  (``cat``, for ``torch.cat``, ``np.cat``, ``jnp.cat``, ...); the qualified rules run first;
* :data:`STUB_OVERRIDES` -- qualified functions whose rule wins over their stub signature in ``stubs/``;
* :data:`FRAMEWORK_METHODS`, :data:`FRAMEWORK_FUNCTIONS` -- TensorFlow and Paddle, whose tensors and functions
  have rules of their own: methods by name, functions by qualified name;
* :data:`LAYERS` -- ``torch.nn`` layer classes: how the layer is built and how it applies to a tensor;
* :data:`EINOPS_FUNCTIONS`, :data:`EINOPS_LAYERS` -- ``einops.name(...)`` by name, and the layer classes of
  ``einops.layers.<backend>`` (``Rearrange``, ``Reduce``, ``EinMix``) by class name;
* :data:`FRAMEWORK_LAYERS` -- Keras, Flax (linen, nnx) and Paddle (``paddle.nn``) layer classes by namespace and
  name: how the layer is built (its kind says how it applies);
* :data:`KERAS_FUNCTIONS` -- the Keras calls that are neither ``keras.ops`` nor layers (``keras.Input``,
  ``keras.Sequential``, the mixed-precision policy), by qualified name or by last name;
* :data:`LAYER_KINDS` -- every layer value's kind (torch, einops, Keras, Flax) -> the rule that applies it.

A rule returns the output value, or None when the call is not its case: the next rule registered for the same name
runs (rules of one name run in registration order), then the default (an unknown value). The families are the
modules listed in :data:`FAMILIES`; :func:`load` imports them all (the dispatcher in ``ops.py`` does at import).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Generic, Protocol, TypeVar

import libcst as cst

from ...sizes import Size
from ..interpret.context import LazyNote, note
from ..interpret.values import FuncV, LayerV, ObjV, RefV, TensorV, Value
from .shapes_bridge import Origin, shape_note

if TYPE_CHECKING:
    from ..index.functions import FunctionInfo
    from ..index.imports import ImportTable
    from ..index.stubs import StubIndex
    from ..interpret.context import Context
    from ..interpret.interpreter import Interpreter
    from ..interpret.module import ModuleAnalysis

# the modules that register rules, in the order their rules for a shared name run
FAMILIES = (
    "ops",
    "shape_ops",
    "multi_ops",
    "constructors",
    "einsum_eq",
    "layers",
    "frameworks",
    "einops_calls",
    "jax_ops",
)


class RuleModule(Protocol):
    """The analysed module as the rules' precision checks and origins see it (``OpContext.source``): its path and
    tree, how a name in it is qualified, a node's source text and line, and its findings (``ctx``)."""

    @property
    def path(self) -> str: ...

    @property
    def ctx(self) -> "Context": ...

    @property
    def tree(self) -> cst.Module: ...

    @property
    def imports(self) -> "ImportTable": ...

    @property
    def text(self) -> str: ...

    # the precision checks keep their per-module caches (the autocast stack, a parent map) here
    __dict__: dict[str, Any]

    def line_of(self, node: cst.CSTNode) -> int: ...

    def code_for(self, node: cst.CSTNode) -> str: ...

    def qualify(self, node: cst.BaseExpression) -> str | None: ...


class OpContext:
    """What a rule may use besides the call's values: fresh size symbols and reporting (``ctx``), where a shape was
    made (``origin``), the stub signatures, a node's source text, calls of module objects and functions of the
    analysed code (``call_object``, for a Sequential of them; ``call_function``, for ``map(f, xs)``), whether a name
    is Python's builtin there (``is_builtin``), the Keras dtype policy the module set, and the module as
    :class:`RuleModule` (``source``: qualified names, and the precision checks). Nothing else of the analysed module
    is reachable from a rule."""

    __slots__ = ("_module", "ctx", "keras_global_policy")

    def __init__(self, module: "ModuleAnalysis") -> None:
        self._module = module
        self.ctx: "Context" = module.ctx
        # keras.mixed_precision.set_global_policy(...) run by the module (None: not set, or not readable)
        self.keras_global_policy: str | None = None

    @property
    def source(self) -> RuleModule:
        return self._module

    def fresh(self, name: str) -> Size:
        return self.ctx.fresh(name)

    def origin(self, node: cst.CSTNode, text: str, prefix: str = "from") -> Origin:
        """``{prefix} {text} at path:line``, the line of ``node`` rendered only when the note is."""
        return Origin(self._module, node, text, prefix)

    def stub(self, qual: str) -> "FunctionInfo | None":
        """The signature of the function ``qual`` in the shape stubs (``stubs/`` and the project's stub folders)."""
        stubs: StubIndex = self._module.stubs
        return stubs.function(qual)

    def code_for(self, node: cst.CSTNode) -> str:
        return self._module.code_for(node)

    def call_object(
        self, interp: "Interpreter", node: cst.Call, obj: ObjV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """Call an object of a class of the analysed code (``forward`` / ``__call__`` run with its attributes)."""
        return self._module.call_object(interp, node, obj, args, kwargs)

    def call_function(
        self, interp: "Interpreter", node: cst.Call, fv: FuncV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """Call a function of the analysed code (its body run with these arguments, or its annotations)."""
        return self._module.call_function(interp, node, fv, args, kwargs)

    def call_either(
        self, interp: "Interpreter", node: cst.Call, either: LayerV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """Call a callable that is one of several (an undecided ``if``'s two layers): each option runs, the results
        are paths."""
        return self._module.call_either(interp, node, either, args, kwargs)

    def call_value(self, interp: "Interpreter", node: cst.Call, func: Value, args: list[Value]) -> Value:
        """Call a function value (a function of the analysed code, an object, a partial, a vmap, a layer)."""
        return self._module.call_value(interp, node, func, args)

    def is_instance_of(self, obj: ObjV, cls_key: str) -> bool | None:
        """``isinstance(obj, C)`` with C a class of the analysed code (None: undecided)."""
        from ..interpret.objects import is_instance_of

        return is_instance_of(self._module, obj, cls_key)

    def plain_object(self, obj: ObjV) -> bool:
        """Is ``obj`` an instance of a class of the analysed code with no base outside it but ``object`` (a
        ``NestedTensor`` record): no builtin container, number, string or tensor."""
        from ..interpret.objects import body_attrs, foreign_bases, mro

        m = self._module
        ci = m.find_class(obj.cls_key) if obj.concrete else None
        if ci is None or not foreign_bases(m, ci) <= {"", "object"}:
            return False
        # (a ``__class__`` of its own may make it pass for another class)
        return not any("__class__" in c.methods or "__class__" in body_attrs(m, c) for c in mro(m, ci))

    def torch_bases(self, obj: ObjV) -> frozenset[str] | None:
        """The bases outside the analysed code of ``obj``'s class that are torch.nn classes, by name (``{"Module"}``
        for a plain ``nn.Module`` subclass; empty for a plain object); None when some other library's class is one."""
        from ..interpret.objects import foreign_bases

        m = self._module
        ci = m.find_class(obj.cls_key)
        if ci is None:
            return None
        out: set[str] = set()
        for b in foreign_bases(m, ci):
            parts = b.split(".")
            if b in ("object", "abc.ABC", "typing.Generic"):
                continue  # ("": a base written as no name, ``Generic[T]`` or a call, which may be any class)
            if parts[:2] != ["torch", "nn"] or not (len(parts) == 3 or (len(parts) == 5 and parts[2] == "modules")):
                return None
            out.add(parts[-1])
        return frozenset(out)

    def project_class(self, qual: str) -> str | None:
        """The key of the analysed class an imported name stands for (``unet.layers.ResBlock``), or None."""
        project = self._module.project
        v = project.lookup(qual) if project is not None else None
        if isinstance(v, RefV) and v.qualname.startswith("class:"):
            return v.qualname[6:]
        return None

    def is_builtin(self, interp: "Interpreter", name: str) -> bool:
        """``name`` is Python's builtin where ``interp`` runs: no local variable, module global or import binds it."""
        return (
            name not in interp.scope.vars
            and name not in self._module.globals
            and name not in self._module.imports.names
        )

    def origins(self, tensors: list[TensorV]) -> "list[str | LazyNote]":
        """One note per operand: its shape and where it was made."""
        return origin_notes(tensors)


class MethodRule(Protocol):
    """``x.name(*args, **kwargs)`` (``method``) or ``fw.name(x, *args, **kwargs)`` (not ``method``)."""

    def __call__(
        self,
        cx: OpContext,
        node: cst.Call,
        name: str,
        t: TensorV,
        args: list[Value],
        kwargs: dict[str, Value],
        method: bool,
        /,
    ) -> Value | None: ...


class FunctionRule(Protocol):
    """``qual(*args, **kwargs)``, ``fw`` the framework of ``qual``."""

    def __call__(
        self, cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value], /
    ) -> Value | None: ...


class ApplyRule(Protocol):
    """A layer (a LayerV of the kind the rule is registered for) called on a tensor ``x``; ``report_node`` is where a
    failure is reported (the layer's line inside a Sequential)."""

    def __call__(
        self,
        cx: OpContext,
        interp: "Interpreter",
        node: cst.Call,
        report_node: cst.CSTNode,
        layer: LayerV,
        x: TensorV,
        /,
    ) -> Value: ...


class BuildRule(Protocol):
    """The constructor call ``Name(*args, **kwargs)`` of a layer class: the layer's value (usually a LayerV)."""

    def __call__(
        self, cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value], /
    ) -> Value: ...


class KerasRule(Protocol):
    """``qual(*args, **kwargs)`` in Keras (``qual`` as ``keras.Input``, ``keras.mixed_precision.set_global_policy``:
    every Keras spelling brought to ``keras.``); ``interp`` runs the layers of a model Keras builds at once."""

    def __call__(
        self,
        cx: OpContext,
        interp: "Interpreter",
        node: cst.Call,
        qual: str,
        args: list[Value],
        kwargs: dict[str, Value],
        /,
    ) -> Value | None: ...


class LayerApply(Protocol):
    """A layer kind's call (see ApplyRule), as the static method ``apply`` of a layer rule class."""

    def apply(
        self, cx: OpContext, interp: "Interpreter", node: cst.Call, report_node: cst.CSTNode, layer: LayerV, x: TensorV
    ) -> Value: ...


class LayerRule(LayerApply, Protocol):
    """A ``torch.nn`` layer kind: ``build`` reads the constructor call ``nn.Name(*args)`` (the value of the layer,
    usually a LayerV of this kind), ``apply`` the layer called on a tensor."""

    def build(self, cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value: ...


class EinopsRule(Protocol):
    """``einops.name(*args, **kwargs)``; ``dynamic`` when a ``**lengths`` spread hides the axis names."""

    def __call__(
        self, cx: OpContext, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool, /
    ) -> Value | None: ...


class EinopsLayerRule(LayerApply, Protocol):
    """An einops layer class ``einops.layers.<backend>.Name``: ``build`` reads the constructor's values (axis lengths
    as keywords; ``dynamic`` as for EinopsRule), ``flax_fields`` its flax dataclass fields in order (the lengths are
    one ``sizes`` dict there), ``apply`` as for every layer kind (the kind is the class name)."""

    flax_fields: tuple[str, ...]

    def build(
        self, cx: OpContext, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value], dynamic: bool
    ) -> Value: ...


R = TypeVar("R")


class Table(Generic[R]):
    """Rules by name; several rules of one name run in registration order."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.rules: dict[str, tuple[R, ...]] = {}
        self.ready = False  # every family loaded, and the rules of each name in the families' order

    def register(self, *names: str) -> Callable[[R], R]:
        def add(rule: R) -> R:
            for n in names:
                self.rules[n] = self.rules.get(n, ()) + (rule,)
            self.ready = False
            return rule

        return add

    def get(self, name: str) -> tuple[R, ...]:
        if not self.ready:
            self._prepare()
        return self.rules.get(name, ())

    def names(self) -> set[str]:
        if not self.ready:
            self._prepare()
        return set(self.rules)

    def _prepare(self) -> None:
        """Rules of one name from several families run in the order of FAMILIES (a stable sort: a family's own
        rules keep their registration order)."""
        load()
        rank = {f"{__package__}.{f}": i for i, f in enumerate(FAMILIES)}
        for n, rules in self.rules.items():
            self.rules[n] = tuple(sorted(rules, key=lambda r: rank.get(getattr(r, "__module__", ""), len(rank))))
        self.ready = True


TENSOR_METHODS: Table[MethodRule] = Table("tensor method of torch / numpy / jax")
FUNCTIONS: Table[FunctionRule] = Table("framework function")
STUB_OVERRIDES: Table[FunctionRule] = Table("framework function whose rule wins over its stub signature")
# TensorFlow and Paddle: tensor methods by name, functions by qualified name (frameworks.py)
FRAMEWORK_METHODS: dict[str, Table[MethodRule]] = {fw: Table(f"{fw} tensor method") for fw in ("tensorflow", "paddle")}
FRAMEWORK_FUNCTIONS: dict[str, Table[FunctionRule]] = {fw: Table(f"{fw} function") for fw in ("tensorflow", "paddle")}
LAYERS: dict[str, LayerRule] = {}  # torch.nn class name -> its kind's rule
LAYER_KINDS: dict[str, ApplyRule] = {}  # the LayerV kind (of every family) -> the rule that applies it
TORCH_LAYER_KINDS: set[str] = set()  # the kinds of torch.nn layers
EINOPS_FUNCTIONS: Table[EinopsRule] = Table("einops function")
EINOPS_LAYERS: dict[str, EinopsLayerRule] = {}  # einops layer class name (= its LayerV kind) -> its rule
# Keras, Flax and Paddle: the layer classes (and, in flax, the same-shape functions) of each namespace by last name
# -> the rule that builds the layer's value; its kind's ApplyRule is registered with @layer_kind (frameworks.py), or
# is the torch kind the layer is built as (paddle.nn)
FRAMEWORK_LAYERS: dict[str, dict[str, BuildRule]] = {
    api: {} for api in ("keras.layers", "flax.linen", "flax.nnx", "paddle.nn", "haiku")
}
# Keras calls other than keras.ops and keras.layers: by qualified name, or (a name without a dot) by last name in any
# Keras module; the qualified rules run first (frameworks.py keras_call)
KERAS_FUNCTIONS: Table[KerasRule] = Table("keras function")


def framework_methods(framework: str, *names: str) -> Callable[[MethodRule], MethodRule]:
    """A rule for the tensor methods ``names`` of ``framework`` (its tensors never reach the torch rules)."""
    return FRAMEWORK_METHODS[framework].register(*names)


def framework_functions(framework: str, *quals: str) -> Callable[[FunctionRule], FunctionRule]:
    """A rule for the functions ``quals`` (qualified names) of ``framework``."""
    return FRAMEWORK_FUNCTIONS[framework].register(*quals)


L = TypeVar("L", bound=type)


def layer(kind: str, *names: str) -> Callable[[L], L]:
    """A layer kind (the LayerV kind ``build`` makes), built by the ``torch.nn`` classes ``names`` (default: the kind
    itself); the decorated class has ``build`` and ``apply`` (static methods, see LayerRule)."""

    def add(cls: L) -> L:
        rule: LayerRule = cls()
        LAYER_KINDS[kind] = rule.apply
        TORCH_LAYER_KINDS.add(kind)
        for n in names or (kind,):
            LAYERS[n] = rule
        return cls

    return add


def einops_function(*names: str) -> Callable[[EinopsRule], EinopsRule]:
    """A rule for ``einops.name(...)`` (also reached as ``einops.einops.name``, ``einops.packing.name``,
    ``einops.array_api.name``)."""
    return EINOPS_FUNCTIONS.register(*names)


def einops_layer(name: str) -> Callable[[L], L]:
    """The einops layer class ``name`` of every backend (``einops.layers.torch.name``, ``...flax.name``, ...); the
    decorated class has ``build``, ``apply`` (static methods, see EinopsLayerRule) and ``flax_fields``."""

    def add(cls: L) -> L:
        rule: EinopsLayerRule = cls()
        EINOPS_LAYERS[name] = rule
        LAYER_KINDS[name] = rule.apply
        return cls

    return add


def keras_function(*names: str) -> Callable[[KerasRule], KerasRule]:
    """A rule for the Keras calls ``names``: qualified (``"keras.Input"``; every Keras spelling -- ``tf.keras.``,
    ``keras.src.``, ``tf_keras.`` -- is brought to ``keras.`` first) or a last name (``"Sequential"``: that name in
    any Keras module). It runs before the ``keras.ops`` and ``keras.layers`` rules; None: not its case."""
    return KERAS_FUNCTIONS.register(*names)


B = TypeVar("B", bound=BuildRule)
A = TypeVar("A", bound=ApplyRule)


def framework_layer(api: str, *names: str) -> Callable[[B], B]:
    """A rule building the layers ``names`` of ``api`` (``"keras.layers"``, ``"flax.linen"``, ``"flax.nnx"``,
    ``"paddle.nn"``): ``keras.layers.Dense(...)``, ``flax.linen.Dense(...)``, ``nnx.Linear(...)``,
    ``paddle.nn.Linear(...)``. The layer value it makes is applied by the rule of its kind (``@layer_kind``, or the
    torch kind a paddle layer is built as)."""

    def add(rule: B) -> B:
        for n in names:
            assert n not in FRAMEWORK_LAYERS[api], f"{api}.{n} registered twice"
            FRAMEWORK_LAYERS[api][n] = rule
        return rule

    return add


def layer_kind(kind: str) -> Callable[[A], A]:
    """The rule applying the layers of ``kind`` (a LayerV kind no ``@layer`` / ``@einops_layer`` class defines: the
    Keras and Flax kinds, ``fw:Dense`` ...) to a tensor."""

    def add(rule: A) -> A:
        assert kind not in LAYER_KINDS, f"layer kind {kind} registered twice"
        LAYER_KINDS[kind] = rule
        return rule

    return add


_loaded = False


def load() -> None:
    """Import every family module (their registrations run at import)."""
    global _loaded
    if not _loaded:
        _loaded = True
        for name in FAMILIES:
            importlib.import_module(f"{__package__}.{name}")


def op_names() -> set[str]:
    """Every op name a rule is registered for: tensor methods, last names of functions, ``torch.nn`` layer kinds."""
    names = TENSOR_METHODS.names()
    names |= TORCH_LAYER_KINDS
    for table in (FUNCTIONS, STUB_OVERRIDES):
        names |= {q.rsplit(".", 1)[-1] for q in table.names()}
    return names


def origin_notes(tensors: list[TensorV]) -> "list[str | LazyNote]":
    """One note per operand: its shape and where it was made."""
    out: "list[str | LazyNote]" = []
    for i, t in enumerate(tensors):
        if t.shape is None and t.vshape is not None and (t.vshape[0] or t.vshape[2]):
            # an input of unknown rank whose leading or trailing axes are known (a layer fixed its last one)
            head, _, tail = t.vshape
            text = "(" + ", ".join([*(str(s) for s in head), "...", *(str(s) for s in tail)]) + ")"
            out.append(note(f"operand #{i}: shape {text}", *((" ", t.origin) if t.origin is not None else ())))
        else:
            out.append(shape_note(f"operand #{i}: shape", t.shape, t.origin))
    return out
