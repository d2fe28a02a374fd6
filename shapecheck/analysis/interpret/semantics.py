"""What the interpreter asks of the module it runs in: the call-semantics interface.

The interpreter (interpreter.py) walks statements and evaluates expressions; everything that needs more than the
node in front of it -- what a name or an import means, what an annotation declares, what a call returns, an
object's attributes, a tensor operator's shape -- it asks through this interface. ``ModuleAnalysis`` (module.py)
implements it; narrowing.py, which runs under an interpreter, uses only these members too. The rules do not reach
the module through the interpreter: what they need of it they ask ``OpContext`` (rules/registry.py).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Protocol

import libcst as cst

from .values import DictV, FuncV, LayerV, ObjV, TensorV, Value

if TYPE_CHECKING:
    from ..index.functions import ClassInfo, FunctionInfo
    from ..index.imports import ImportTable
    from ..index.project import Project
    from ..index.jaxtyping_bridge import Annotation
    from ..rules.shapes_bridge import ShapeChecks
    from .context import Context
    from .interpreter import FrameInfo, Interpreter


class Semantics(Protocol):
    # --- the module's state the interpreter reads
    @property
    def ctx(self) -> "Context": ...  # findings, fresh symbols, hover records

    @property
    def globals(self) -> dict[str, Value]: ...

    @property
    def module_name(self) -> str: ...  # (a registry object bound to a global is named by it: registries.py)

    @property
    def imports(self) -> "ImportTable": ...

    @property
    def project(self) -> "Project | None": ...  # (the functions other modules define: what an imported name calls)

    @property
    def shapes(self) -> "ShapeChecks": ...  # annotation shapes (narrowing by declared parameters)

    @property
    def assigned_cache(self) -> dict[int, set[str]]: ...  # names a loop body assigns, by id of the loop

    @property
    def path(self) -> str: ...  # the module's file (a note's ``path:line``, with ``line_of``)

    def line_of(self, node: cst.CSTNode) -> int: ...

    def code_for(self, node: cst.CSTNode) -> str: ...  # a node's source text

    # --- names
    def qualify(self, node: cst.BaseExpression) -> str | None: ...

    def global_value(self, name: str) -> Value: ...

    def stable_global(self, name: str) -> bool: ...  # a module-level list/dict no code can change after the module ran
    def writer_store(
        self, frame_key: str, name: str, index: Value, value: Value
    ) -> bool: ...  # ``D[k] = v`` by a writer the module level calls
    def patched_instance(
        self, name: str, value: ObjV, in_function: bool
    ) -> Value: ...  # attributes set from outside: unknown

    def multi_transform_applies(self, t: LayerV) -> int | None: ...  # hk.multi_transform(f).apply's length
    def namedtuple_items(self, obj: ObjV) -> tuple[Value, ...] | None: ...  # a NamedTuple instance's items
    def iterate_object(self, interp: "Interpreter", node: cst.CSTNode, obj: Value) -> Value | None: ...
    def item_of_object(self, interp: "Interpreter", node: cst.Subscript, obj: Value, index: Value) -> Value | None: ...
    def registry_entry(self, name: str, key: Value | None) -> Value | None: ...  # ``D[key]`` of a decorator's registry
    def registry_contents(self, name: str) -> DictV | None: ...  # a registry read whole, every entry known
    def param_registry_contents(self, name: str) -> DictV | None: ...  # a dict ``@factory(name)`` fills elsewhere
    def imported_param_registry(self, name: str) -> DictV | None: ...  # such a dict imported from its module

    def never_returns(self, interp: "Interpreter", node: cst.Call) -> bool: ...  # pytest.skip(...), sys.exit(1)

    def rebound_global(self, name: str) -> bool: ...  # a module-level name a function rebinds through ``global``

    def patched_class_attr(self, cls_name: str, attr: str) -> bool: ...  # set outside the class body (Config.dim = d)

    def find_class(self, key: str) -> "ClassInfo | None": ...  # a class of the analysed code, by key

    def qualified_value(self, qualname: str) -> Value: ...

    def top_level_definition(self, qualname: str) -> bool: ...  # ``mod.f``: a def or class at the top of ``mod``

    def find_function(self, key: str) -> "FunctionInfo | None": ...

    def local_function(
        self, node: cst.FunctionDef, frame: "FrameInfo", env: "dict[str, Value] | None" = None, key: str | None = None
    ) -> Value: ...

    def local_class(self, node: cst.ClassDef, frame: "FrameInfo", env: "dict[str, Value]") -> Value: ...

    def local_lambda(
        self, node: cst.Lambda, frame: "FrameInfo", env: "dict[str, Value]", live: bool = False
    ) -> Value: ...

    # --- annotations in statements
    def annotation_of(self, node: cst.BaseExpression) -> "Annotation | None": ...

    def check_declared(self, stmt: cst.AnnAssign, ann: "Annotation", value: Value, frame: "FrameInfo") -> Value: ...

    def check_return(self, stmt: cst.Return, value: Value, frame: "FrameInfo") -> None: ...

    # --- calls
    def call(self, interp: "Interpreter", node: cst.Call) -> Value: ...

    def call_function(
        self, interp: "Interpreter", node: cst.Call, fv: FuncV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value: ...

    def call_on_building_self(
        self, interp: "Interpreter", node: cst.Call, fi: "FunctionInfo", args: list[Value], kwargs: dict[str, Value]
    ) -> Value: ...

    # --- objects
    def object_attr(self, obj: ObjV, attr: str) -> Value: ...

    def flax_bound_method(self, obj: ObjV, method: str) -> LayerV | None: ...

    def class_attr(self, cls_key: str, attr: str) -> Value: ...

    # --- regions of statements
    def expects_exception(self, node: cst.BaseExpression) -> bool: ...

    def autocast_region(self, stmt: cst.With, interp: "Interpreter") -> "contextlib.AbstractContextManager[None]": ...

    # --- tensors: attributes, indexing and operators (the framework-op rules)
    def tensor_attribute(self, interp: "Interpreter", node: cst.Attribute, t: TensorV, attr: str) -> Value: ...

    def index_tensor(
        self, interp: "Interpreter", node: cst.Subscript, t: TensorV, at: cst.CSTNode | None = None
    ) -> Value: ...

    def made_by_subscript(self, node: cst.Subscript, base: TensorV, out: Value) -> Value: ...

    def tensor_binary(
        self, interp: "Interpreter", node: cst.CSTNode, left: Value, op: cst.CSTNode, right: Value
    ) -> Value: ...

    def column_concat(self, interp: "Interpreter", node: cst.Subscript, items: list[Value]) -> Value: ...

    def tensor_store(self, interp: "Interpreter", node: cst.CSTNode, region: TensorV, value: TensorV) -> None: ...

    def tensor_in_place(self, node: cst.AugAssign, left: Value, right: Value, result: Value) -> None: ...
