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
modules called in this run returned, when they all agree on it: torch stores the last call's output, and it is one
of them (a read before the hook ran raises KeyError). A read before any call the analysis followed, or after calls
that disagree, is unknown.
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
    # the modules hooks are on, by _kind: a copy of one (``replace(layer, built=note)``, an object without its
    # constructor values) is the same module
    watched: dict[tuple[str, object], list[Value]] = field(default_factory=dict)
    outputs: dict[int, tuple[int, list[Value]]] = field(default_factory=dict)
    generation: int = 0  # how many modules hooks are on (a call summary made with fewer did not see their calls)
    log: list[tuple[Value, Value]] = field(default_factory=list)  # (hooked module, output), as they came


STATE = _State()


def new_run() -> None:
    """A top-level run begins: the outputs kept so far belong to another run."""
    STATE.run += 1


def reset() -> None:
    """Forget every registration (the modules it names are forgotten). The run and generation counters go on: a
    call summary made before keeps its generation, which no later one repeats."""
    global STATE
    STATE = _State(run=STATE.run + 1, generation=STATE.generation + 1)


def _capture_form(fn: cst.CSTNode) -> tuple[tuple[str, str, cst.BaseExpression], ...] | None:
    """The stores of a hook whose body only stores its ``output`` (through shape-keeping methods) by a key into
    ``self.<attr>`` or a name: ((kind, attr or name, key node), ...). The hook is a function ``def hook(module,
    inputs, output)`` (``self`` the enclosing method's), or a method ``def _save(self, module, inputs, output)``
    (kind "attr" then only: its own ``self``). None for any other body, a return of a value, or other parameters."""
    if type(fn) is not cst.FunctionDef:
        return None
    ps = fn.params
    if ps.posonly_params or ps.kwonly_params or type(ps.star_arg) is cst.Param or ps.star_kwarg is not None:
        return None
    if len(ps.params) not in (3, 4):
        return None
    if any(p.default is not None for p in ps.params):
        return None
    out_name = ps.params[-1].name.value
    me = ps.params[0].name.value if len(ps.params) == 4 else "self"
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
        if type(holder) is cst.Name and len(ps.params) == 3:
            stores.append(("name", holder.value, target.slice[0].slice.value))
        elif type(holder) is cst.Attribute and type(holder.value) is cst.Name and holder.value.value == me:
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
    if not isinstance(hook, FuncV):
        return False
    fi = m.find_function(hook.key)
    if fi is None:
        return False
    stores = capture_form(fi.node)
    method = len(fi.node.params.params) == 4
    if stores is None or method != (hook.bound_self is not None and fi.cls_key is not None and not fi.is_static):
        return False
    if not isinstance(module, (LayerV, ObjV)):
        return True
    env = dict(hook.env)
    for kind, name, key_node in stores:
        key = _key_of(key_node, env)
        if key is None:
            continue
        if kind == "attr":
            owner = hook.bound_self if method else env.get("self")
            parent = fi if method else next((m.find_function(k) for k in _parents(hook.key)), None)
            cls_key = owner.cls_key if isinstance(owner, ObjV) else (parent.cls_key if parent is not None else None)
            if cls_key is None:
                continue
            where: Where = ("attr", cls_key, name)
        else:
            where = binding_scope(fi.module, hook.key, name)  # (the hook only stores into it: it does not bind it)
        mods = STATE.registered.setdefault((where, key), [])
        if not any(x is module for x, _, _ in mods):
            mods.append((module, m, node))
        same = STATE.watched.setdefault(_kind(module), [])
        if not any(x is module for x in same):
            same.append(module)
            STATE.generation += 1
    return True


def _kind(module: Value) -> tuple[str, object]:
    if isinstance(module, LayerV):
        return (module.kind, id(module.line_node))
    return ("object", module.cls_key if isinstance(module, ObjV) else None)


def _same(a: Value, b: Value) -> bool:
    """Is ``b`` the module ``a`` (or a copy of it: equal parameters and line, equal attributes)?"""
    if a is b:
        return True
    if isinstance(a, LayerV):
        return a == b
    return isinstance(a, ObjV) and isinstance(b, ObjV) and a.cls_key == b.cls_key and a.attrs == b.attrs


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
    """A call of ``module`` returned ``out``: kept for the hooked modules it is (kept by their ids: each is held in
    ``STATE.registered``, so no other object takes its id)."""
    for hooked in STATE.watched.get(_kind(module), ()):
        if _same(hooked, module):
            _record(hooked, out)
            STATE.log.append((hooked, out))


def _record(hooked: Value, out: Value) -> None:
    run, outs = STATE.outputs.get(id(hooked), (-1, []))
    if run != STATE.run:
        outs = []
        STATE.outputs[id(hooked)] = (STATE.run, outs)
    if len(outs) <= MAX_OUTPUTS:
        outs.append(out)


def mark() -> int:
    return len(STATE.log)


def since(at: int) -> tuple[tuple[Value, Value], ...]:
    """The hooked calls made since ``mark()`` gave ``at``: a call summary keeps them, to replay when reused."""
    return tuple(STATE.log[at:])


def replay(events: tuple[tuple[Value, Value], ...]) -> None:
    """A call summary reused: the hooked calls its body made happen again, in this run."""
    for hooked, out in events:
        _record(hooked, out)


def captured(where: Where, key: str) -> Value:
    """What the modules noted for ``where[key]`` returned in this run, when they all returned it; else unknown."""
    from ..rules.shapes_bridge import Origin

    mods = STATE.registered.get((where, key))
    if not mods:
        return UNKNOWN
    seen: list[Value] = []
    for mod, _, _ in mods:
        # (a module registered for another object, in another run, that this run did not call: not this key's)
        run, outs = STATE.outputs.get(id(mod), (-1, []))
        if run != STATE.run:
            continue
        if len(outs) > MAX_OUTPUTS:
            return UNKNOWN
        seen.extend(outs)
    if not seen:
        return UNKNOWN
    first = seen[0]
    if not isinstance(first, TensorV) or first.shape is None:
        return UNKNOWN
    if any(not isinstance(o, TensorV) or o.shape != first.shape for o in seen[1:]):
        return UNKNOWN
    _, m, node = mods[0]
    stored = Origin(m, node, "the forward hook registered", "stored by").made_from(first.origin)
    return first.with_shape(first.shape, first.axes, stored)
