"""Forward hooks that capture what a module returns (feature extraction, distillation, linear probes):

    def _save(self, name):
        def hook(module, inputs, output):
            self.features[name] = output
        return hook
    ...
    self.backbone.layer2.register_forward_hook(self._save("layer2"))
    ...
    self.backbone(x)
    feat = self.features["layer2"]      # what layer2 returned in that call

A hook whose body only stores its ``output`` (or ``output.detach()``, ...) under a key of a dict returns None, so
the module's output is its own forward's (the analysis keeps following the module). The registration is noted: the
dict (``self.<attr>`` of the hook's class, or a name of the function that binds it) and the key, for the module.
While one top-level run goes on (an entry point, a function analysed on its own), each call of a noted module keeps
what it returned. A read of that dict by that key, where the dict's own value does not know it, is what the noted
modules returned in this run when they all agree on it: torch stores the last call's output, and it is one of them.
Calls the analysis did not follow are not seen, so a read before any call, or after calls that disagree, is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst

from .values import UNKNOWN, FuncV, LayerV, ObjV, StrV, TensorV, Value
from .walk import memo

if TYPE_CHECKING:
    from .module import ModuleAnalysis

MAX_OUTPUTS = 8  # outputs kept per module and run (more, and the module's output is not known)
_SHAPE_KEEPING = frozenset({"detach", "clone", "contiguous", "cpu", "float", "half", "bfloat16", "double"})

# where a dict lives: ("attr", class key, attribute) for ``self.<attribute>``, ("name", function key, name) for a
# function's local, ("global", module name, name) for a module-level dict
Where = tuple[str, str, str]


@dataclass
class _State:
    run: int = 0
    registered: dict[tuple[Where, str], list[tuple[Value, "ModuleAnalysis", cst.CSTNode]]] = field(
        default_factory=dict
    )  # (the module, and where its hook was registered)
    watched: dict[int, Value] = field(default_factory=dict)  # id -> the module (kept, so the id is not reused)
    outputs: dict[int, tuple[int, list[Value]]] = field(default_factory=dict)


STATE = _State()


def new_run() -> None:
    """A top-level run begins: the outputs kept so far belong to another run."""
    STATE.run += 1


def reset() -> None:
    """Forget every registration (a new analysis of the project)."""
    global STATE
    STATE = _State()


def _capture_form(fn: cst.CSTNode) -> tuple[tuple[str, str, cst.BaseExpression], ...] | None:
    """The stores of a hook ``def hook(module, inputs, output)`` whose body only stores ``output`` (through
    shape-keeping methods) by a key into ``self.<attr>`` or a name: ((kind, attr or name, key node), ...); None for
    any other body, a return of a value, or other parameters."""
    if type(fn) is not cst.FunctionDef:
        return None
    ps = fn.params
    if ps.posonly_params or ps.kwonly_params or type(ps.star_arg) is cst.Param or ps.star_kwarg is not None:
        return None
    if len(ps.params) != 3:
        return None
    if any(p.default is not None for p in ps.params):
        return None
    out_name = ps.params[2].name.value
    stores: list[tuple[str, str, cst.BaseExpression]] = []
    body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else ()
    for i, stmt in enumerate(body):
        if type(stmt) is not cst.SimpleStatementLine or len(stmt.body) != 1:
            return None
        small = stmt.body[0]
        if type(small) is cst.Pass:
            continue
        if i == 0 and type(small) is cst.Expr and type(small.value) is cst.SimpleString:
            continue  # a docstring
        if type(small) is not cst.Assign or len(small.targets) != 1:
            return None
        target = small.targets[0].target
        if type(target) is not cst.Subscript or len(target.slice) != 1 or type(target.slice[0].slice) is not cst.Index:
            return None
        if not _is_output(small.value, out_name):
            return None
        holder = target.value
        if type(holder) is cst.Name:
            stores.append(("name", holder.value, target.slice[0].slice.value))
        elif type(holder) is cst.Attribute and type(holder.value) is cst.Name and holder.value.value == "self":
            stores.append(("attr", holder.attr.value, target.slice[0].slice.value))
        else:
            return None
    return tuple(stores) if stores else None


def _is_output(e: cst.BaseExpression, out_name: str) -> bool:
    while type(e) is cst.Call and not e.args and type(e.func) is cst.Attribute and e.func.attr.value in _SHAPE_KEEPING:
        e = e.func.value
    return type(e) is cst.Name and e.value == out_name


def capture_form(fn: cst.FunctionDef) -> tuple[tuple[str, str, cst.BaseExpression], ...] | None:
    return memo("hook-capture", fn, _capture_form)


def _parents(key: str) -> list[str]:
    """``a.<locals>.b.<locals>.hook`` -> [``a.<locals>.b``, ``a``]: the functions a nested one is made in."""
    parts = key.split(".<locals>.")
    return [".<locals>.".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]


def binding_scope(m: "ModuleAnalysis", frame_key: str, name: str) -> Where:
    """Where the name ``name`` read in the function ``frame_key`` lives: the innermost of it and the functions it
    is nested in that binds the name, else the module."""
    from .module import _binds

    for key in [frame_key, *_parents(frame_key)]:
        fi = m.find_function(key) if key != "<module>" else None
        if fi is not None and name in memo("binds", fi.node, _binds):
            return ("name", key, name)
    return ("global", m.module_name, name)


def register(m: "ModuleAnalysis", node: cst.CSTNode, hook: Value, module: Value) -> bool:
    """``module.register_forward_hook(hook)``: True when the hook only stores the output (the module's output is its
    own), its stores noted for ``module`` when their keys are known strings."""
    if not isinstance(hook, FuncV) or hook.bound_self is not None:
        return False
    fi = m.find_function(hook.key)
    if fi is None:
        return False
    stores = capture_form(fi.node)
    if stores is None:
        return False
    if not isinstance(module, (LayerV, ObjV)):
        return True
    env = dict(hook.env)
    for kind, name, key_node in stores:
        key = _key_of(key_node, env)
        if key is None:
            continue
        if kind == "attr":
            owner = env.get("self")
            parent = next((m.find_function(k) for k in _parents(hook.key)), None)
            cls_key = owner.cls_key if isinstance(owner, ObjV) else (parent.cls_key if parent is not None else None)
            if cls_key is None:
                continue
            where: Where = ("attr", cls_key, name)
        else:
            where = binding_scope(fi.module, hook.key, name)  # (the hook only stores into it: it does not bind it)
        mods = STATE.registered.setdefault((where, key), [])
        if not any(x is module for x, _, _ in mods):
            mods.append((module, m, node))
        STATE.watched[id(module)] = module
    return True


def _key_of(e: cst.BaseExpression, env: dict[str, Value]) -> str | None:
    if type(e) is cst.SimpleString:
        text = e.evaluated_value
        return text if isinstance(text, str) else None
    if type(e) is cst.Name:
        v = env.get(e.value)
        return v.value if isinstance(v, StrV) else None
    return None


def watching() -> bool:
    return bool(STATE.watched)


def returned(module: Value, out: Value) -> None:
    """A call of ``module`` returned ``out``: kept when a capture hook is on it."""
    if id(module) not in STATE.watched or STATE.watched[id(module)] is not module:
        return
    run, outs = STATE.outputs.get(id(module), (-1, []))
    if run != STATE.run:
        outs = []
        STATE.outputs[id(module)] = (STATE.run, outs)
    if len(outs) <= MAX_OUTPUTS:
        outs.append(out)


def captured(where: Where, key: str) -> Value:
    """What the modules noted for ``where[key]`` returned in this run, when they all returned it; else unknown."""
    from ..rules.shapes_bridge import Origin

    mods = STATE.registered.get((where, key))
    if not mods:
        return UNKNOWN
    seen: list[Value] = []
    for mod, _, _ in mods:
        run, outs = STATE.outputs.get(id(mod), (-1, []))
        if run != STATE.run or not outs or len(outs) > MAX_OUTPUTS:
            return UNKNOWN
        seen.extend(outs)
    first = seen[0]
    if not isinstance(first, TensorV) or first.shape is None:
        return UNKNOWN
    if any(not isinstance(o, TensorV) or o.shape != first.shape for o in seen[1:]):
        return UNKNOWN
    _, m, node = mods[0]
    stored = Origin(m, node, "the forward hook registered", "stored by").made_from(first.origin)
    return first.with_shape(first.shape, first.axes, stored)
