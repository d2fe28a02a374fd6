"""What the interpreter learns about the index's functions and classes while it runs (the index itself is immutable).

Each module keeps the state of its own functions and classes, by key: a function or class signed again, or given
its complete node (``project.unmask``), is a new index object with the same key and the same state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Hashable

    import libcst as cst

    from ..index.functions import ClassInfo, FunctionInfo
    from ..index.jaxtyping_bridge import Annotation
    from .context import Pending
    from .values import Value


@dataclass(slots=True)
class FunctionState:
    # call signature -> (return value, findings of the body for it)
    summaries: dict[Hashable, tuple[Value, list[Pending]]] = field(default_factory=dict)
    # call signature -> what the parameters carried back to the caller held when the body returned (_inline)
    exits: dict[Hashable, dict[str, Value]] = field(default_factory=dict)
    # call signature -> (hooks.STATE.generation, the calls of hooked modules the body made), for a summary made
    # while forward hooks capture outputs (replayed when it is reused; not reused after more modules got hooks)
    hooked: dict[Hashable, tuple[int, tuple[tuple[Value, Value], ...]]] = field(default_factory=dict)
    analysing: int = 0  # how many runs of its body are under way (a recursive call is mostly not followed)
    keeps_args: bool | None = None  # its body leaves its arguments' attributes alone (objects.keeps_arguments)
    one_line: bool | None = None  # its body is one ``return`` of calls by name only (objects.one_line_helper)
    leaf: bool | None = None  # a short straight body that calls no method of ``self`` (objects.leaf_method)
    fixture: dict[int, tuple[Value, ...]] | None = None  # a pytest fixture's values, per depth (entry_points._fixture)
    reads_only: frozenset[str] | None = None  # parameters only handed to library calls (objects.read_only_params)
    reads_items: frozenset[str] | None = None  # parameters only read (objects.item_read_params)
    reads_dict: frozenset[str] | None = None  # of those, dicts whose items are only used as values
    reads_plain: frozenset[str] | None = None  # a dict handed there stays as it is (objects.plain_read_params)
    reads_plain_records: frozenset[str] | None = None  # the same, for a list of records no code can change
    # the element annotations of a ``-> tuple[A, B]`` return annotation, ``()`` for any other (shapes_bridge)
    tuple_returns: "tuple[Annotation | None, ...] | None" = None


@dataclass(slots=True)
class ClassState:
    attrs: dict[str, Value] = field(default_factory=dict)  # from __init__: self.x = ...
    attrs_ready: bool = False
    body_attrs: dict[str, Value] | None = None  # class-body assignments (``expansion = 4``, ``dim: int = 64``)
    instances: dict[Hashable, tuple[Value, list[Pending]]] = field(default_factory=dict)  # arguments -> object
    building: bool = False
    mro: list[ClassInfo] | None = None
    outside_init: set[str] | None = None  # self attributes a method not run by __init__ assigns
    items_only: frozenset[str] = frozenset()  # of those, the ones such methods only store items into (objects)
    # self attributes a method other than the constructors of the class or a base (overridden ones too) binds again
    rebound_by_methods: frozenset[str] | None = None
    # self attributes running an instance binds again, and the names it calls on self (ModuleAnalysis._run_rebinds)
    run_rebinds: tuple[frozenset[str], frozenset[str]] | None = None
    stored_read_only: frozenset[str] | None = None  # objects.stored_read_only_params, once per class
    value_enum: bool | None = None  # a str / int enum (objects.enum_member)
    attr_dict: bool | None = None  # a dict subclass whose instance is its own __dict__ (objects.attr_dict_instance)
    named_tuple: bool | None = None  # a typing.NamedTuple (interpreter._frozen_record)
    intercepted: frozenset[str] | None = None  # attributes whose stores run code ("*": all; objects.intercepts_attr)
    items_read_only: frozenset[str] | None = None  # attributes methods only read items of (objects._items_read_only)
    # dataclass-style fields over the MRO (objects.class_fields), and what the generated __init__ takes of them
    fields: list[tuple[str, ClassInfo, cst.BaseExpression | None]] | None = None
    init_fields: tuple[set[str], list[str], set[str]] | None = None


def function_state(fi: FunctionInfo) -> FunctionState:
    states = fi.module.function_states
    st = states.get(fi.key)
    if st is None:
        st = states[fi.key] = FunctionState()
    return st


def class_state(ci: ClassInfo) -> ClassState:
    states = ci.module.class_states
    st = states.get(ci.key)
    if st is None:
        st = states[ci.key] = ClassState()
    return st
