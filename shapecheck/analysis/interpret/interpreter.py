"""The abstract interpreter: walks statements in order, evaluates expressions to abstract values.

Anything it does not understand evaluates to UNKNOWN, and nothing is ever reported about UNKNOWN.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence, TypeVar, cast

import libcst as cst

from ...sizes import Size, Truth, equal
from . import hooks, objects, registries
from .budget import tick
from ..index.cst_parse import WHITESPACE_CLASSES
from ..index.imports import literal_str
from .walk import memo as _memo
from .values import (
    RAISES_CONTEXT,
    FINFO,
    FINFO_FLOATS,
    DYNAMIC_ATTRS,
    NUMPY_INT,
    set_by_name,
    mark_stale,
    UNKNOWN,
    BoolV,
    DictV,
    DtypeV,
    IntDictV,
    FloatV,
    FuncV,
    IntV,
    LayerV,
    ManyV,
    NoneV,
    ObjV,
    RefV,
    SeqV,
    StateDictV,
    StrV,
    TensorV,
    Unknown,
    Value,
    INCOMPLETE_NAMESPACE,
    MAX_ALTS,
    callable_options,
    elements_of,
    join,
    number_of,
)
from ...sizes import divisible, greater_equal
from ...witness import assertion_holds
from .context import BuiltNote, MadeUp, OpSpec, Where, note
from .narrowing import _rank_check, narrow
from .objects import foreign_bases
from .state import class_state
from .walk import chain_root, children, contains, has_own, memo, plain_read, walk_all, walk_own

if TYPE_CHECKING:
    from ...annotations import Memo
    from ..index.functions import ClassInfo, FunctionInfo
    from ..index.jaxtyping_bridge import Annotation
    from .semantics import Semantics


class Scope:
    def __init__(self, parent_vars: dict[str, Value] | None = None) -> None:
        self.vars: dict[str, Value] = dict(parent_vars or {})
        self.returns: list[tuple[cst.Return, Value]] = []
        self.yields: list[Value] = []  # a generator's yielded values (``yield from xs``: an element of xs)
        # the loops of the body run otherwise than once per element, in order (to a fixpoint, a first pass only):
        # the yields of a generator inside one are not its elements one by one (module._generated)
        self.rolled: set[int] = set()
        self.dead_end = False  # the body's end is not reached (a raise that surely runs)
        # parameters whose values at each exit (a ``return``, the end of the body) are recorded in ``exits``
        self.watch: frozenset[str] = frozenset()
        self.exits: list[dict[str, Value]] = []
        # SHP402: names holding a tensor's own axis sizes (``b, f, t = x.shape``, ``t = x.size(2)``): name -> (the
        # tensor's variable, the axis, the tensor's rank, the tensor's value then, the name's value then). Forgotten
        # when either name is bound again (Interpreter.assign)
        self.size_reads: dict[str, tuple[str, int, int, Value, Value]] = {}


TRAINING_KEY = "self.training"
TRAINING_SUFFIX = ".training"  # ``model.training`` of a variable after ``model.eval()`` (False while it holds)
# how many inlined calls made in eval mode (``self.eval()`` run earlier in a caller's body) enclose the current run
EVAL_MODE: list[int] = [0]
# and in train mode (``model.train()`` run on the variable or attribute the call goes through); both: not known
TRAIN_MODE: list[int] = [0]


def mode_key(owner: str) -> str:
    """The scope key of the mode ``owner.eval()`` / ``owner.train()`` set (``owner`` a variable or ``self.x``; the
    latter's key does not start with ``self.``: it is no attribute)."""
    return owner + TRAINING_SUFFIX if not owner.startswith("self.") else "%" + owner + TRAINING_SUFFIX


def _mode_receivers(body: cst.CSTNode) -> frozenset[str]:
    """What the ``.eval()`` / ``.train(...)`` calls of a body are made on: each receiver's name, ``?`` for one that
    is no plain name (``self.model``, ``models[0]``); nested functions and classes included."""
    out: set[str] = set()
    stack: list[cst.CSTNode] = [body]
    while stack:
        n = stack.pop()
        if type(n) is cst.Call and type(n.func) is cst.Attribute and n.func.attr.value in ("eval", "train"):
            out.add(n.func.value.value if type(n.func.value) is cst.Name else "?")
        stack.extend(children(n))
    return frozenset(out)


# nn.Module methods that only read the module tree (``next(self.unets.parameters()).device``)
MODULE_READS = frozenset(
    {
        "parameters",
        "named_parameters",
        "buffers",
        "named_buffers",
        "modules",
        "named_modules",
        "children",
        "named_children",
    }
)
# torch.nn.Module methods that leave the module's mode alone (``_freshly_built``)
_MODE_KEEPING = MODULE_READS | frozenset(
    {
        "to",
        "cuda",
        "cpu",
        "float",
        "half",
        "double",
        "bfloat16",
        "zero_grad",
        "state_dict",
        "forward",
        "requires_grad_",
        "eval",
        "train",
    }
)


def _plainly_called(body: cst.CSTNode) -> frozenset[str]:
    """The names a body uses only by calling them (``model(x)``), reading their attributes (``model.config``) or
    calling the torch.nn.Module methods that leave the mode alone (``model.parameters()``, ``model.to(dev)``): no
    argument of a call, store, alias, container or other method (which could set the object's mode elsewhere)."""
    ok: dict[str, bool] = {}
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None]] = [(body, None, None)]
    while stack:
        n, parent, grand = stack.pop()
        if type(n) is cst.Name:
            fine = (
                (type(parent) is cst.Call and parent.func is n)
                or (type(parent) is cst.AssignTarget and parent.target is n)
                or (
                    type(parent) is cst.Attribute
                    and parent.value is n
                    and (not (type(grand) is cst.Call and grand.func is parent) or parent.attr.value in _MODE_KEEPING)
                )
                or (type(parent) is cst.Attribute and parent.attr is n)
            )
            ok[n.value] = ok.get(n.value, True) and fine
            continue
        stack.extend((c, n, parent) for c in children(n))
    return frozenset(k for k, v in ok.items() if v)


def _mode_call(node: cst.BaseExpression) -> tuple[str, bool | None] | None:
    """``model.eval()`` -> ("model", False), ``self.net.train()`` / ``.train(True)`` -> ("self.net", True),
    ``model.train(flag)`` -> ("model", None); None for any other call (``self.eval()`` is _own_mode_call's)."""
    if type(node) is not cst.Call or type(node.func) is not cst.Attribute:
        return None
    owner, name = node.func.value, node.func.attr.value
    if name not in ("eval", "train"):
        return None
    if type(owner) is cst.Name and owner.value != "self":
        key = owner.value
    elif type(owner) is cst.Attribute and type(owner.value) is cst.Name and owner.value.value == "self":
        key = "self." + owner.attr.value
    else:
        return None
    if name == "eval":
        return (key, False) if not node.args else (key, None)
    if not node.args:
        return key, True
    arg = node.args[0].value
    if len(node.args) == 1 and node.args[0].keyword in (None, "mode") and type(arg) is cst.Name:
        if arg.value in ("True", "False"):
            return key, arg.value == "True"
    return key, None


def _plain_train_call(node: cst.BaseExpression) -> bool:
    """``self.train()`` or ``self.train(True)``."""
    if type(node) is not cst.Call or type(node.func) is not cst.Attribute or node.func.attr.value != "train":
        return False
    if not node.args:
        return True
    a = node.args[0]
    return len(node.args) == 1 and a.keyword is None and type(a.value) is cst.Name and a.value.value == "True"


def _own_mode_call(node: cst.BaseExpression, owner_name: str = "self") -> bool | None:
    """``self.eval()`` or ``self.train(False)`` -> True; another ``self.train(...)`` -> False; anything else None.
    ``owner_name``: the variable whose method it is (``model.eval()``)."""
    if type(node) is not cst.Call or type(node.func) is not cst.Attribute:
        return None
    owner, name = node.func.value, node.func.attr.value
    if type(owner) is not cst.Name or owner.value != owner_name or name not in ("eval", "train"):
        return None
    if name == "eval":
        return True if not node.args else None
    if len(node.args) == 1 and node.args[0].keyword is None and type(node.args[0].value) is cst.Name:
        return node.args[0].value.value == "False"
    return False


@dataclass
class FrameInfo:
    """What the interpreter needs to know about the function whose body it walks."""

    key: str = "<module>"
    return_ann: "Annotation | None" = None
    memo: "Memo | None" = None  # the function's own dimension symbols
    self_value: Value | None = None
    cls_key: str | None = None
    depth: int = 0
    building: bool = False  # a constructor (or a helper it calls on self): ``self.x = ...`` builds the object


def _assigned_then_returned(stmt: cst.CSTNode, nxt: cst.CSTNode) -> bool:
    """``x = value`` on a line of its own, and the next statement of the block a ``return``."""
    return (
        type(nxt) is cst.SimpleStatementLine
        and type(nxt.body[0]) is cst.Return
        and type(stmt) is cst.SimpleStatementLine
        and len(stmt.body) == 1
        and type(stmt.body[0]) is cst.Assign
    )


def _int_literal(node: cst.BaseExpression) -> int | None:
    if type(node) is cst.Integer:
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
        inner = _int_literal(node.expression)
        return -inner if inner is not None else None
    return None


def _forget_size_reads(reads: dict[str, tuple[str, int, int, Value, Value]], name: str) -> None:
    reads.pop(name, None)
    for k in [k for k, r in reads.items() if r[0] == name]:
        del reads[k]


def _shape_of(node: cst.BaseExpression) -> str | None:
    """``x.shape`` or ``x.size()`` of a variable x: its name."""
    if type(node) is cst.Attribute and node.attr.value == "shape" and type(node.value) is cst.Name:
        return node.value.value
    if (
        type(node) is cst.Call
        and not node.args
        and type(node.func) is cst.Attribute
        and node.func.attr.value == "size"
        and type(node.func.value) is cst.Name
    ):
        return node.func.value.value
    return None


def _one_size_of(node: cst.BaseExpression) -> tuple[str, int] | None:
    """``x.shape[i]`` or ``x.size(i)`` with a literal i: (x, i)."""
    if type(node) is cst.Subscript and len(node.slice) == 1 and type(node.slice[0].slice) is cst.Index:
        base = _shape_of(node.value) if type(node.value) is cst.Attribute else None
        i = _int_literal(node.slice[0].slice.value)
        return (base, i) if base is not None and i is not None else None
    if (
        type(node) is cst.Call
        and len(node.args) == 1
        and node.args[0].keyword is None
        and not node.args[0].star
        and type(node.func) is cst.Attribute
        and node.func.attr.value == "size"
        and type(node.func.value) is cst.Name
    ):
        i = _int_literal(node.args[0].value)
        return (node.func.value.value, i) if i is not None else None
    return None


_RESHAPES = frozenset({"reshape", "view", "view_as", "reshape_as", "as_strided", "flatten", "unflatten", "unfold"})


def _ancestors(m: object, node: cst.CSTNode) -> list[cst.CSTNode] | None:
    """The nodes enclosing ``node``, outermost first (None: not found in the module's trees)."""
    from ..rules.precision import _trees
    from .walk import children as kids

    for tree in _trees(m):  # type: ignore[arg-type]
        stack: list[tuple[cst.CSTNode, int]] = [(tree, 0)]
        path: list[cst.CSTNode] = []
        while stack:
            n, depth = stack.pop()
            del path[depth:]
            if n is node:
                return path
            path.append(n)
            stack.extend((c, depth + 1) for c in reversed(kids(n)))
    return None


def _reshaped_again(m: object, node: cst.Call) -> bool:
    """Whether what the reshape ``node`` returns is reshaped again (``x.view(b, t2, t1)[:, 1:].view(b, t1, t2 - 1)``,
    or a name it is assigned to, after the assignment in the same function): the relative-shift trick reinterprets
    memory on purpose. True too where the node cannot be found (silence)."""
    from .walk import children as kids, contains

    path = _ancestors(m, node)
    if path is None:
        return True
    assigned: set[str] = set()
    stmt: cst.CSTNode | None = None
    for a in reversed(path):
        if type(a) is cst.Call and type(a.func) is cst.Attribute and a.func.attr.value in _RESHAPES:
            if contains(a.func.value, node):
                return True
        if isinstance(a, cst.BaseSmallStatement):
            stmt = a
            if type(a) is cst.Assign:
                for t in a.targets:
                    if type(t.target) is cst.Name:
                        assigned.add(t.target.value)
                    elif type(t.target) in (cst.Tuple, cst.List):
                        assigned.update(e.value.value for e in t.target.elements if type(e.value) is cst.Name)  # type: ignore[attr-defined]
            break
    if not assigned or stmt is None:
        return False
    scope = next((a for a in reversed(path) if type(a) in (cst.FunctionDef, cst.Lambda)), path[0])
    after = False
    stack: list[cst.CSTNode] = [scope]
    while stack:
        n = stack.pop()
        if n is stmt:
            after = True
            continue
        if after and type(n) is cst.Call and type(n.func) is cst.Attribute and n.func.attr.value in _RESHAPES:
            inner: list[cst.CSTNode] = [n.func.value]
            while inner:
                e = inner.pop()
                if type(e) is cst.Name and e.value in assigned:
                    return True
                inner.extend(kids(e))
        stack.extend(reversed(kids(n)))
    return False


def _product_names(node: cst.BaseExpression) -> list[str] | None:
    """``h * w`` (or a plain name): the names multiplied."""
    if type(node) is cst.Name:
        return [node.value]
    if type(node) is cst.BinaryOperation and type(node.operator) is cst.Multiply:
        left, right = _product_names(node.left), _product_names(node.right)
        return left + right if left is not None and right is not None else None
    return None


def int_of(v: Value) -> int | None:
    if isinstance(v, IntV):
        return v.size.as_int()
    return None


# the handlers of statements and expressions, by exact node type (filled by the decorators below; a statement type
# with no handler -- import, pass -- changes nothing, an expression type with none is UNKNOWN)
_STATEMENTS: dict[type[cst.CSTNode], Callable[..., None]] = {}
_EXPRESSIONS: dict[type[cst.CSTNode], Callable[..., Value]] = {}
S = TypeVar("S", bound=Callable[..., None])
E = TypeVar("E", bound=Callable[..., Value])


def _statement(*types: type[cst.CSTNode]) -> Callable[[S], S]:
    def add(handler: S) -> S:
        for t in types:
            _STATEMENTS[t] = handler
        return handler

    return add


def _expression(*types: type[cst.CSTNode]) -> Callable[[E], E]:
    def add(handler: E) -> E:
        for t in types:
            _EXPRESSIONS[t] = handler
        return handler

    return add


class Interpreter:
    """Runs statements and evaluates expressions through the tables above; everything the module knows (names,
    annotations, calls, objects, tensor semantics) it asks through ``Semantics`` (semantics.py)."""

    def __init__(self, module: "Semantics", frame: FrameInfo, scope: Scope) -> None:
        self.m = module
        self.ctx = module.ctx
        self.frame = frame
        self.scope = scope
        self.dead = False  # the rest of the current block is unreachable (after return/raise/continue/break)
        # undecided ``if``s of an inlined callee passed so far whose body returned normally: what follows runs only
        # when the condition was false, which this call may not make it -- its findings are not this call's (each
        # adds one to ctx.uncertain until the function's run ends: ModuleAnalysis.run_function)
        self.narrowed = 0
        self.returning: cst.BaseExpression | None = None  # the value of the ``return`` being evaluated
        self.if_alt: tuple[cst.IfExp, Value] | None = None  # the last ``a if c else None`` on an undecided c: (node, a)
        self.loop_depth = 0
        self.loop_runs = 1  # how many times the enclosing loops run the current statement (passes, unrolled elements)
        # lambdas (by node id) written as arguments of the call being evaluated, whose callee runs them before it
        # returns: they read this frame's names as they are now (module.ModuleAnalysis.call); the values made
        self.live_lambdas: frozenset[int] = frozenset()
        self.live_made: list[Value] = []
        self.continued: list[list[dict[str, Value]]] = []  # per loop run to a fixpoint: the states at its continues
        # the iterable of a ``for`` (or list comprehension) about to be evaluated, when the loop runs a generator it
        # calls to its end: the loop's body cannot leave early (``for b in batches(xs): ...``)
        self.iterating: cst.BaseExpression | None = None
        # ``range(a, b)`` of ints not known (a ``for`` over it runs to a fixpoint): the call and b - a, its length
        # when it is not negative (module._call_range notes it; run_loop reads it for its own iterable)
        self.range_length: tuple[cst.BaseExpression, Size] | None = None
        # how many loops around the running statement run their body for any iteration (to a fixpoint, or once with
        # what the body assigns unknown), not one pass per element: ``next(it)`` there consumes no known item
        self.rolling = 0
        # the loop variable of a ``for`` over a list (or nn.ModuleList) a variable names, while the body runs for
        # every element in order (unrolled) or for any element (run to a fixpoint over a list of unknown length):
        # name -> [the list's key, the list as it is now, the element's index (None: any element)]. An attribute
        # stored through the variable (``for blk in self.blocks: blk.attn.cache = c``) is the element's (_LoopItem)
        self.loop_items: dict[str, Any] = {}  # (a list's record, or a _WalkItem)
        # variables of walks over a model's modules handed to a call whose changes to them are carried back
        # (``inject_lora(child)``, ModuleAnalysis._call_carrying): the call's own forgetting leaves the walk going,
        # and the carry puts what the callee left in the model (or, when it cannot, ends the walk)
        self.carrying_walk: frozenset[str] = frozenset()
        # the variable of a ``for`` over a display of names, while a pass runs: the name whose object it holds
        # (``for tower in (query_tower, item_tower):``, _aliased_pass)
        self.loop_aliases: dict[str, str] = {}
        # the index a ``for i in range(a, b, step)`` of known ints binds while its body runs for any element (by the
        # value's id): (the value, the least element, one past the greatest); a window ``x[i : i + k]`` reads them
        self.index_ranges: dict[int, tuple[IntV, int, int]] = {}
        # names a function defined in this body declares ``nonlocal``: it may rebind them whenever it runs (at the
        # module level: the names a function of the module declares ``global``, which a call may rebind)
        self.shared_names: set[str] = set()
        if frame.key == "<module>" and "global" in getattr(module, "text", ""):
            self.shared_names.update(memo("global-names", cast(Any, module).tree, _global_names))
        # ``model = create(...)`` and the statement right after it, while that statement runs (_fresh_read)
        self.fresh_window: tuple[str, cst.Call, cst.BaseExpression, tuple[str, ...]] | None = None

    # ------------------------------------------------------------------ statements
    def run_block(self, body: Sequence[cst.BaseStatement] | Sequence[cst.BaseSmallStatement]) -> None:
        last = len(body) - 1
        for i, stmt in enumerate(body):
            if self.dead:
                break
            if i > 0 and (window := _fresh_window(body, i)) is not None:
                # ``model = create_model(name)`` then ``if n != model.num_classes:`` (_fresh_read)
                outer_window, self.fresh_window = self.fresh_window, window
                try:
                    self.run_stmt(stmt)
                finally:
                    self.fresh_window = outer_window
                continue
            if i < last and _assigned_then_returned(stmt, body[i + 1]):
                # ``out = Rec(hiddens=hiddens)`` right before a ``return``: nothing of this frame runs after the
                # assignment, as for a value built in the return itself (objects._lists_owned)
                outer, self.returning = self.returning, stmt.body[0].value  # type: ignore[attr-defined]
                try:
                    self.run_stmt(stmt)
                finally:
                    self.returning = outer
                continue
            self.run_stmt(stmt)

    def run_suite(self, suite: cst.BaseSuite) -> None:
        if type(suite) is cst.IndentedBlock:
            self.run_block(suite.body)
        elif type(suite) is cst.SimpleStatementSuite:
            self.run_block(suite.body)

    def run_stmt(self, stmt: cst.CSTNode) -> None:
        tick()  # the analysis budget (budget.py)
        handler = _STATEMENTS.get(type(stmt))
        if handler is not None:  # imports, pass: nothing to track
            handler(self, stmt)

    @_statement(cst.Import, cst.ImportFrom)
    def _import(self, stmt: cst.Import | cst.ImportFrom) -> None:
        """An import in a function body of a name the module's imports bind to different things (each test
        importing its own ``Wrap``): the name is what this import binds, in this function."""
        if self.frame.key == "<module>":
            return
        for name, qual in self.m.imports.local_bindings(stmt):
            self.scope.vars[name] = self.m.qualified_value(qual)

    @_statement(cst.SimpleStatementLine)
    def _simple_line(self, stmt: cst.SimpleStatementLine) -> None:
        self.run_block(stmt.body)

    @_statement(cst.Assign)
    def _assign(self, stmt: cst.Assign) -> None:
        self.if_alt = None
        if type(stmt.value) is cst.Call and self.ctx.pieces:
            self.ctx.pieces.pop(id(stmt.value), None)  # what this evaluation cuts, not an earlier one
        value = self.eval(stmt.value)
        if value is UNKNOWN and len(stmt.targets) == 1 and type(stmt.targets[0].target) is cst.Name:
            name = stmt.targets[0].target.value
            if _counts_lengths(stmt.value) and not ({"len", "max", "min"} & set(self.m.globals)):
                # ``width = max(len(s) for s in seqs)``: one int, the same wherever the name is read (two buffers
                # ``torch.full((n, width), ...)`` have one width), not a size made up anew at each use
                value = IntV(self.ctx.fresh(name, f"({name}, a length not known)"))
        if type(stmt.value) in (cst.IfExp, cst.BooleanOperation) and isinstance(value, (SeqV, DictV, ManyV)):
            # ``target = no_decay if p.ndim < 2 else decay``: which list the name holds is not known here, so a
            # change through it (``target.append(p)``) may be either's: neither is tracked from here
            value = self._ambiguous_alias(stmt.value, value)
        # ys = xs (``self.cfgs = cfgs``): two names for one list hold the same value object; a mutation through
        # either forgets both (forget_aliases)
        for target in stmt.targets:
            self._check_shape_unpack(target.target, stmt.value, value)
            self.assign(target.target, value)
            self._narrow_shape_unpack(target.target, stmt.value, value)
            self._record_size_reads(target.target, stmt.value)
            chained = self._chained_mode(stmt.value) if isinstance(value, (ObjV, LayerV)) else None
            if type(target.target) is cst.Name and chained is not None:
                # ``model = Model(dim=64).eval()`` / ``Model(cfg).train()``: the module itself, in that mode
                self.scope.vars[mode_key(target.target.value)] = BoolV(chained)
            elif type(target.target) is cst.Name and self._freshly_built(target.target.value, stmt.value, value):
                # ``model = VQVAE(channel=32)``: a new torch module is in train mode (torch's default)
                self.scope.vars[mode_key(target.target.value)] = BoolV(True)
        alt, self.if_alt = self.if_alt, None
        if alt is not None and alt[0] is stmt.value and self.frame.building:
            # ``self.mlp = nn.Sequential(...) if exists(time_dim) else None`` on an undecided condition
            for target in stmt.targets:
                key = _var_key(target.target)
                if key is not None and key.startswith("self."):
                    self.scope.vars[key + OPTIONAL] = alt[1]

    def _narrow_shape_unpack(self, target: cst.BaseExpression, node: cst.BaseExpression, value: Value) -> None:
        """``b, c, h, w = x.shape`` (or ``b, n, _, h = *x.shape, self.heads``, ``b, t = x.size()``) on a tensor of
        unknown rank: the statement raises unless x has exactly that many axes, so after it x is 4-d (its sizes stay
        unknown, as after ``assert x.ndim == 4``)."""
        if value is not UNKNOWN or not (type(target) is cst.Tuple or type(target) is cst.List):
            return
        if any(type(e) is cst.StarredElement for e in target.elements):
            return
        extra = 0
        shape_of = node
        if type(node) is cst.Tuple:
            starred = [e for e in node.elements if type(e) is cst.StarredElement]
            if len(starred) != 1:
                return
            extra = len(node.elements) - 1
            shape_of = starred[0].value
        sized = _size_call(shape_of)  # ``b, t = idx.size()``
        if sized is None and not (
            type(shape_of) is cst.Attribute and shape_of.attr.value == "shape" and type(shape_of.value) is cst.Name
        ):
            return
        rank = len(target.elements) - extra
        name = sized if sized is not None else cast(cst.Name, cast(cst.Attribute, shape_of).value).value
        if rank < 0 or any(type(e.value) is cst.Name and e.value.value == name for e in target.elements):
            return  # ``x, y = *x.shape, 1`` rebinds x itself

        yes, _ = _rank_check(self, name, rank)
        self.scope.vars.update(yes)

    def _check_shape_unpack(self, target: cst.BaseExpression, node: cst.BaseExpression, value: Value) -> None:
        """``b, c, h, w = x.shape`` on a tensor of another known rank: Python raises (too many or not enough values
        to unpack). Only a name's shape, a tensor without alternative shapes, names without a starred one."""
        if type(node) is cst.Subscript:
            if type(target) is cst.Tuple or type(target) is cst.List:
                self._check_shape_slice_unpack(target, node)
            return
        if type(node) is cst.Tuple and (type(target) is cst.Tuple or type(target) is cst.List):
            self._check_starred_shapes_unpack(target, node)
            return
        sized = _size_call(node)  # ``_, t = idx.size()``: the shape, as ``idx.shape``
        if (
            type(node) is cst.Call
            and type(value) is SeqV
            and (type(target) is cst.Tuple or type(target) is cst.List)
            and sized is None
        ):
            self._check_pieces_unpack(target, node, value)
            return
        if not (isinstance(value, SeqV) and value.kind == "shape"):  # first: cheap, and rare
            return
        if not isinstance(target, (cst.Tuple, cst.List)):
            return
        if any(isinstance(e, cst.StarredElement) for e in target.elements):
            return
        if sized is None and not (
            type(node) is cst.Attribute and node.attr.value == "shape" and type(node.value) is cst.Name
        ):
            return
        name = sized if sized is not None else cast(cst.Name, cast(cst.Attribute, node).value).value
        t = self.scope.vars.get(name)
        if len(target.elements) == len(value.items):
            if isinstance(t, TensorV) and t.axes is not None and sized is None:
                self._check_unpack_names(target, cast(cst.Attribute, node), t)
            return
        if not isinstance(t, TensorV) or t.shape is None or t.alts or len(t.shape) != len(value.items):
            return
        from ..rules.shapes_bridge import shape_note

        n = len(target.elements)
        self.ctx.report(
            node,
            "SHP201",
            {
                "what": f"unpacking {name}.{'size()' if sized is not None else 'shape'} into {n} names",
                "expected": n,
                "subject": "the tensor",
                "actual": len(t.shape),
            },
            [shape_note(f"{name} has shape", t.shape, t.origin)],
            spec=OpSpec("unpack.shape", None, (t.shape,), (), (("names", n),)),
        )

    def _check_pieces_unpack(self, target: cst.Tuple | cst.List, node: cst.Call, value: SeqV) -> None:
        """``x0, x1, v = u.split(3, dim=1)`` on an axis of 72: a chunk / split / unbind of a known axis makes an exact
        number of pieces (Context.pieces), and Python raises when the names (one of them perhaps starred) cannot
        take them."""
        made = self.ctx.pieces.get(id(node))
        if made is None or len(made[0].items) != len(value.items):
            return  # not pieces this evaluation of the call made
        _, t, pos, size, how = made
        n = len(target.elements)
        starred = any(type(e) is cst.StarredElement for e in target.elements)
        count = len(value.items)
        if count == n or (starred and count >= n - 1):
            return
        from ...diagnostics import details as D
        from ..rules.shapes_bridge import shape_note

        need = f"at least {n - 1}" if starred else str(n)
        self.ctx.report(
            node,
            "SHP204",
            {
                "op": f"unpacking {self.m.code_for(node)}",
                "detail": D.PieceCount(how, pos, t.shape, size, count, need),
            },
            [
                shape_note("the tensor cut has shape", t.shape, t.origin)
                if t.shape is not None
                else note(f"axis {pos} of the tensor cut has {size}", *((" ", t.origin) if t.origin else ())),
                *_pieces_hint(how, size, n, starred),
            ],
            spec=OpSpec(
                "unpack.pieces",
                None,
                (t.shape if t.shape is not None else (size,),),  # of unknown rank: its axis alone cuts alike
                (),
                (
                    ("how", how),
                    ("dim", pos if t.shape is not None else 0),
                    ("names", n),
                    ("starred", starred),
                    ("framework", t.framework),
                ),
            ),
        )

    def _check_starred_shapes_unpack(self, target: cst.Tuple | cst.List, node: cst.Tuple) -> None:
        """``b, h, n, d, k, e = *q.shape, *v.shape[-2:]``: a tuple of starred shapes (a name's ``.shape``, or a slice
        of it with literal bounds) and single values, each shape of a tensor whose rank is known, has a known number
        of values; Python raises when the names (none starred) cannot take them."""
        if not any(type(e) is cst.StarredElement for e in node.elements):
            return
        if any(type(e) is cst.StarredElement for e in target.elements):
            return
        from ..rules.shapes_bridge import shape_note

        sizes: list[Size] = []
        notes: list[Any] = []
        for e in node.elements:
            if type(e) is not cst.StarredElement:
                sizes.append(Size.const(1))  # one value (the witness counts values, not their sizes)
                continue
            got = self._starred_shape(e.value)
            if got is None:
                return
            name, t, part = got
            sizes.extend(part)
            notes.append(shape_note(f"{name} has shape", t.shape, t.origin))
        n = len(target.elements)
        if len(sizes) == n:
            return
        self.ctx.report(
            node,
            "SHP201",
            {
                "what": f"unpacking {self.m.code_for(node)} into {n} names",
                "expected": n,
                "subject": "the tuple",
                "actual": len(sizes),
            },
            notes,
            spec=OpSpec("unpack.shape", None, (tuple(sizes),), (), (("names", n),)),
        )

    def _starred_shape(self, node: cst.BaseExpression) -> tuple[str, TensorV, tuple[Size, ...]] | None:
        """(name, its tensor, the sizes) of ``x.shape`` or ``x.shape[lo:hi]`` (literal bounds, step 1) when x's shape
        is known with no alternative; else None."""
        sl = None
        if type(node) is cst.Subscript:
            if len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Slice:
                return None
            sl = node.slice[0].slice
            node = node.value
        if not (type(node) is cst.Attribute and node.attr.value == "shape" and type(node.value) is cst.Name):
            return None
        t = self.scope.vars.get(node.value.value)
        if not isinstance(t, TensorV) or t.shape is None or t.alts:
            return None
        shape = tuple(t.shape)
        if sl is not None:
            assert isinstance(sl, cst.Slice)
            bounds = _literal_bounds(sl)
            if bounds is None:
                return None
            shape = shape[bounds[0] : bounds[1]]
        return node.value.value, t, shape

    def _check_unpack_names(self, target: cst.Tuple | cst.List, node: cst.Attribute, t: TensorV) -> None:
        """SHP401: ``b, k, h, w = maps.shape`` of a tensor whose axes an einops pattern or an annotation named
        ``b k w h``: the names the code reads the sizes into are the tensor's own names in another order (the code
        takes the width for the height, silently wrong wherever the two coincide). Names bound once each, as
        ``misaligned`` compares two operands; not a shape made up from a pattern."""
        from ..rules.ops import moved_names, _distinct_names

        if t.shape is None or t.alts or isinstance(t.origin, MadeUp) or not _distinct_names(t.axes):  # type: ignore[arg-type]
            return
        names = tuple(
            e.value.value if type(e.value) is cst.Name and e.value.value != "_" else None for e in target.elements
        )
        if not _distinct_names(names) or not moved_names(t.axes, names):  # type: ignore[arg-type]
            return
        left, right = (" ".join(x if x is not None else "?" for x in axes) for axes in (t.axes, names))  # type: ignore[union-attr]
        self.ctx.report(
            node,
            "SHP401",
            {"op": f"unpacking {node.value.value}.shape", "left": left, "right": right},  # type: ignore[attr-defined]
            [f"the names read the axes {left} as {right}"],
        )

    def _check_shape_slice_unpack(self, target: cst.Tuple | cst.List, node: cst.Subscript) -> None:
        """``f, h, w = x.shape[-2:]``: a slice of a tensor's shape with literal bounds has a known number of sizes
        when the rank is known, and at most a number fixed by the bounds whatever the rank (``[-2:]``, ``[:2]``,
        ``[1:3]`` give at most 2). Python raises when the names cannot take them. Only a name's shape, step 1."""
        if any(type(e) is cst.StarredElement for e in target.elements) or len(node.slice) != 1:
            return
        sl, base = node.slice[0].slice, node.value
        if not (type(sl) is cst.Slice and type(base) is cst.Attribute and base.attr.value == "shape"):
            return
        bounds = _literal_bounds(sl)
        if type(base.value) is not cst.Name or bounds is None:
            return
        lo, hi = bounds
        t = self.scope.vars.get(base.value.value)
        if not isinstance(t, TensorV):
            return
        n = len(target.elements)
        exact = t.shape is not None and not t.alts
        if exact:
            count: int | None = len(range(len(t.shape))[lo:hi])  # type: ignore[arg-type]
        else:
            count = _slice_length_bound(lo, hi)
            if count is None or count >= n:
                return
        if count is None or count == n:
            return
        from ..rules.shapes_bridge import shape_note

        text = f"{base.value.value}.shape[{'' if lo is None else lo}:{'' if hi is None else hi}]"
        notes = []
        # the sizes the slice gives: of the known shape, or (rank unknown) as many as the bounds allow at most
        sliced = t.shape[lo:hi] if exact else tuple(Size.const(2) for _ in range(count))  # type: ignore[index]
        spec = OpSpec("unpack.shape", None, (sliced,), (), (("names", n),))
        if exact:
            notes.append(shape_note(f"{base.value.value} has shape", t.shape, t.origin))
        self.ctx.report(
            node,
            "SHP201",
            {
                "what": f"unpacking {text} into {n} names",
                "expected": n,
                "subject": "the slice",
                "actual": count if exact else f"at most {count} for every rank",
            },
            notes,
            spec=spec,
        )

    @_statement(cst.AnnAssign)
    def _ann_assign(self, stmt: cst.AnnAssign) -> None:
        value = self.eval(stmt.value) if stmt.value is not None else UNKNOWN
        ann = self.m.annotation_of(stmt.annotation.annotation)
        if ann is not None and type(stmt.target) is cst.Name:
            declared = self.m.check_declared(stmt, ann, value, self.frame)
            if (
                stmt.value is not None
                and isinstance(declared, TensorV)
                and not (isinstance(value, TensorV) and value.shape is not None)
            ):
                # ``y: Float[Array, " "] = f(x)`` with f's result unknown: nothing checks a local annotation at run
                # time (jaxtyping checks parameters and returns), so its shape is no evidence for a definite finding:
                # the name keeps what the value says, and the annotation's dtype
                if isinstance(value, TensorV):
                    if value.dtype is None and declared.dtype is not None:
                        value = value.with_dtype(declared.dtype)
                else:
                    value = TensorV(None, declared.dtype, declared.framework)
            else:
                value = declared if value is UNKNOWN or stmt.value is None else self._prefer(value, declared)
        if stmt.value is not None or ann is not None:
            self.assign(stmt.target, value)

    @_statement(cst.AugAssign)
    def _aug_assign(self, stmt: cst.AugAssign) -> None:
        left = self.eval(stmt.target)
        right = self.eval(stmt.value)
        key = _var_key(stmt.target)
        if key is not None and isinstance(left, (SeqV, ManyV)) and left.kind == "list":
            self.forget_aliases(key, left)  # ``xs += [y]`` extends the list in place: ys = xs sees it too
        result = self.binary(stmt, left, stmt.operator, right)
        if isinstance(left, TensorV):
            mark_stale(left)  # x += 1 changes x's elements in place (every name for it sees the change)
            if isinstance(result, TensorV) and result.values is not None:
                result = replace(result, values=None)
            self.m.tensor_in_place(stmt, left, right, result)  # x += y changes x: its shape must hold the result
            if (
                left.shape is not None
                and (left.framework == "torch" or (left.framework == "numpy" and left.shape))
                and not (isinstance(result, TensorV) and result.shape is not None)
                and (left.framework == "numpy" or type(stmt.operator) is not cst.MatrixMultiplyAssign)
            ):
                # a torch tensor's or numpy array's in-place operator keeps its shape and dtype whatever the other
                # operand is (it raises otherwise); jax arrays and numpy scalars (rank 0: ``np.sum(a)``) have none
                # (``x += y`` rebinds x to x + y, which broadcasts), and torch has no in-place ``@=``
                result = TensorV(left.shape, left.dtype, left.framework, left.axes, left.origin)
        self.assign(stmt.target, result)

    @_statement(cst.Expr)
    def _expr_stmt(self, stmt: cst.Expr) -> None:
        self.eval(stmt.value)
        mode = _own_mode_call(stmt.value) if self.frame.cls_key is not None else None
        called = _mode_call(stmt.value) if mode is None else None
        if mode is not None:
            # ``self.eval()`` / ``self.train(False)``: the module and every submodule are in eval mode from here
            # (torch sets ``training`` recursively); ``self.train(...)`` otherwise: the mode is not known
            if mode:
                self.scope.vars[TRAINING_KEY] = BoolV(False)
            elif _plain_train_call(stmt.value) and self.keeps_torch_train(self.frame.cls_key):
                # ``self.train()`` / ``self.train(True)`` with torch's train: train mode from here, submodules too
                self.scope.vars[TRAINING_KEY] = BoolV(True)
            else:
                self.scope.vars.pop(TRAINING_KEY, None)
        elif called is not None:
            # ``model.eval()`` / ``self.model.train()`` in a test, a script or a trainer's step: that object's
            # methods, called through this name, run in that mode (``if self.training:`` decided) until the name is
            # bound again or the mode is set again; a mode not known (``model.train(flag)``) forgets it
            owner, on = called
            holder = self.scope.vars.get(owner) if not owner.startswith("self.") else self.eval(stmt.value.func.value)  # type: ignore[attr-defined]
            if on is not None and isinstance(holder, (ObjV, LayerV)):
                self.scope.vars[mode_key(owner)] = BoolV(on)
            else:
                self.scope.vars.pop(mode_key(owner), None)
        if type(stmt.value) is cst.Call and self.m.never_returns(self, stmt.value):
            self.dead = True  # pytest.skip(...), sys.exit(1), self.skipTest(...): what follows does not run

    @_statement(cst.Return)
    def _return(self, stmt: cst.Return) -> None:
        outer, self.returning = self.returning, stmt.value
        try:
            value = self.eval(stmt.value) if stmt.value is not None else NoneV()
        finally:
            self.returning = outer
        self.scope.returns.append((stmt, value))
        if self.scope.watch:
            self.scope.exits.append({k: self.scope.vars.get(k, UNKNOWN) for k in self.scope.watch})
        self.m.check_return(stmt, value, self.frame)
        self.dead = True

    @_statement(cst.Raise)
    def _raise(self, stmt: cst.Raise) -> None:
        if stmt.exc is not None:
            self.eval(stmt.exc)
        self.dead = True

    @_statement(cst.Continue, cst.Break)
    def _leave(self, stmt: cst.Continue | cst.Break) -> None:
        if type(stmt) is cst.Continue and self.continued:
            self.continued[-1].append(dict(self.scope.vars))  # the next iteration starts from here too
        self.dead = True

    @_statement(cst.Assert)
    def _assert(self, stmt: cst.Assert) -> None:
        truth = _truth(self.eval(stmt.test))
        if truth is False:
            self._assertion_fails(stmt)
            self.dead = True
        elif truth is None:  # past ``assert x.ndim == 4`` the condition holds, as in an if's true branch
            self.scope.vars.update(narrow(self, stmt.test)[0])

    def _assertion_fails(self, stmt: cst.Assert) -> None:
        """SHP207: an ``assert`` that compares sizes is false here. Only on a path every enclosing condition decides
        (``branch_unknown``; an inlined callee's undecided branch drops its findings anyway), and only when one of the
        conditions its test requires (the test, or a term of its ``and``) is an arithmetic comparison of known integers
        read from names -- ``x.shape[-1] % p == 0``, ``h <= self.max_len``, or a call of a predicate that returns
        one, ``divisible_by(h, w)`` -- false for their values: the witness holds that comparison with the values,
        which ``--verify`` replays. A flag or ``None`` check (``assert exists(cfg)``, ``assert False``) is not one."""
        if not self._check_decided(stmt.test):
            return
        todo: list[cst.BaseExpression] = [stmt.test]
        while todo:
            node = todo.pop()
            if type(node) is cst.BooleanOperation and type(node.operator) is cst.And:
                todo += [node.right, node.left]
                continue
            if self._check_fails(stmt, stmt.test, node, literal_str(stmt.msg) if stmt.msg is not None else None):
                return

    def _raising_check_fails(self, test: cst.BaseExpression, raised: cst.Raise) -> None:
        """SHP207: the code's own check ``if x.shape[-1] != self.dim: raise ValueError(...)`` is true here, so the
        block raises: an ``assert`` of the opposite comparison, false (``_assertion_fails``: the same conditions on the
        path and on the comparison; the witness holds the opposite comparison, which ``--verify`` replays). Only one
        comparison of sizes, and a builtin exception a shape error raises too (what ``except`` clauses that catch
        shape errors are recognised by)."""
        if type(test) is not cst.Comparison or len(test.comparisons) != 1:
            return
        exc = raised.exc.func if type(raised.exc) is cst.Call else raised.exc
        name = exc.attr.value if type(exc) is cst.Attribute else exc.value if type(exc) is cst.Name else None
        if name not in ("ValueError", "RuntimeError", "TypeError", "IndexError"):
            return
        opposite = _OPPOSITE_OPS.get(type(test.comparisons[0].operator))
        if opposite is None or not _reads_a_shape(test) or not self._check_decided(test):
            return
        holds = test.with_changes(comparisons=[test.comparisons[0].with_changes(operator=opposite())])
        call = raised.exc if type(raised.exc) is cst.Call else None
        message = literal_str(call.args[0].value) if call is not None and call.args else None
        self._check_fails(raised, test, holds, message, name)

    def _check_decided(self, test: cst.BaseExpression) -> bool:
        """Is a check of the code's own (SHP207) decided here: on a path every enclosing condition decides
        (``branch_unknown``; an inlined callee's undecided branch drops its findings anyway), over no name a closure
        the analysis never ran changes?"""
        if self.ctx.branch_unknown or self.ctx.uncertain:
            return False
        fi = self.m.find_function(self.frame.key) if self.frame.key != "<module>" else None
        # ``count == 1`` after a hook (a nested def the framework calls) did ``nonlocal count; count += 1``,
        # ``len(calls)`` of a list a callback appends to: the analysis never ran those calls
        return fi is None or not _names_in(test) & memo("closure-changed", fi.node, _changed_by_closures)

    def _check_fails(
        self,
        at: cst.CSTNode,
        test: cst.BaseExpression,
        condition: cst.BaseExpression,
        message: str | None,
        raises: str | None = None,
    ) -> bool:
        """SHP207 on ``at`` when ``condition``, a comparison of known integers read from names (``_comparison_text``)
        that the check needs to hold, is false for their values; ``test`` is the check's source as shown. Reported:
        True."""
        bindings: dict[str, int] = {}
        shown: dict[str, int] = {}
        text = self._comparison_text(condition, bindings, shown)
        if text is None or not shown or assertion_holds(text, bindings) is not False:
            return False
        source = " ".join(self.m.code_for(test).split())
        from ...diagnostics import details as D

        detail = D.AssertionFails(
            source if len(source) <= 120 else source[:117] + "...", tuple(sorted(shown.items())[:6]), message, raises
        )
        self.ctx.report(
            at,
            "SHP207",
            {"detail": detail},
            spec=OpSpec("assert", None, (), (), (("condition", text), ("values", tuple(sorted(bindings.items()))))),
        )
        return True

    def _comparison_text(self, node: cst.BaseExpression, bindings: dict[str, int], shown: dict[str, int]) -> str | None:
        """``node`` as a comparison of integer arithmetic over placeholders ``v0``, ``v1`` ... for the known
        integers it reads (``bindings``; ``shown``: the same values by their source text); a call of a predicate of
        the analysed code whose body returns such a comparison of its parameters is that comparison of the
        arguments. None for anything else."""
        if type(node) is cst.Comparison:
            text = self._compare_text(node, bindings, shown, None)
            return text if text is not None else self._shape_compare_text(node, bindings, shown)
        divides = _is_integer_division(node)
        if divides is not None:
            return self._divides_text(divides, bindings, shown, None)
        if type(node) is not cst.Call or not node.args or any(a.keyword is not None or a.star for a in node.args):
            return None
        fv = self.eval(node.func)
        fi = self.m.find_function(fv.key) if isinstance(fv, FuncV) and fv.bound_self is None else None
        if fi is None or fi.cls_key is not None or fi.node.asynchronous:
            return None
        body = [b for b in fi.node.body.body if not _docstring(b)] if type(fi.node.body) is cst.IndentedBlock else []
        if len(body) != 1 or type(body[0]) is not cst.SimpleStatementLine or type(body[0].body[0]) is not cst.Return:
            return None
        ret = body[0].body[0].value
        params = fi.node.params
        if (
            ret is None
            or (type(ret) is not cst.Comparison and _is_integer_division(ret) is None)
            or params.star_arg not in (None, cst.MaybeSentinel.DEFAULT)
            or params.kwonly_params
            or params.star_kwarg is not None
            or len(params.posonly_params) + len(params.params) != len(node.args)
        ):
            return None
        subst: dict[str, str] = {}
        for p, a in zip((*params.posonly_params, *params.params), node.args):
            t = self._arith_text(a.value, bindings, shown, None)
            if t is None:
                return None
            subst[p.name.value] = t
        if type(ret) is not cst.Comparison:
            return self._divides_text(_is_integer_division(ret), bindings, shown, subst)  # type: ignore[arg-type]
        return self._compare_text(ret, bindings, shown, subst)

    def _generic_self_read(self, node: cst.BaseExpression) -> bool:
        """Is ``node`` a read through ``self`` (``self.n``, ``self.cfg.dim``) in a method run for no instance in
        particular (its ``self`` not built by a constructor call the analysis followed)?"""
        root = chain_root(node)
        if type(root) is not cst.Name or root.value != "self" or root is node or self.frame.cls_key is None:
            return False
        sv = self.frame.self_value
        return not (isinstance(sv, ObjV) and sv.concrete)

    def _shape_compare_text(self, node: cst.Comparison, bindings: dict[str, int], shown: dict[str, int]) -> str | None:
        """``a.shape == b.shape`` (or against ``(n, d)``, ``b.shape[1:]``, ``tuple(b.shape)``) of shapes whose sizes
        are all known and differ: the first axis they differ on (``v0 == v1`` of ``a.shape[1]`` and ``b.shape[1]``),
        or their ranks when those differ (``len(a.shape) == len(b.shape)``). Shapes are equal only if both are."""
        if len(node.comparisons) != 1 or type(node.comparisons[0].operator) is not cst.Equal:
            return None
        sides = (node.left, node.comparisons[0].comparator)
        if any(self._generic_self_read(x) for e in sides for x in _attribute_reads(e)):
            return None  # (``(b, n, self.dim)`` in a method analysed for any instance)
        values = [_known_sizes(self.eval(e)) for e in sides]
        a, b = values
        if a is None or b is None or not any(type(e) is cst.Attribute or type(e) is cst.Subscript for e in sides):
            return None
        texts = [" ".join(self.m.code_for(e).split()) for e in sides]
        if len(a) != len(b):
            pairs = [(f"len({texts[0]})", len(a)), (f"len({texts[1]})", len(b))]
        else:
            at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
            if at is None:
                return None
            pairs = [(_axis_text(e, t, at), v[at]) for e, t, v in zip(sides, texts, values)]  # type: ignore[index]
        names = []
        for text, k in pairs:
            name = f"v{len(bindings)}"
            bindings[name] = k
            if not text.lstrip("-").isdigit():  # (a literal size shows itself in the test's text)
                shown[text] = k
            names.append(name)
        return f"{names[0]} == {names[1]}"

    def _divides_text(
        self, div: cst.BinaryOperation, bindings: dict[str, int], shown: dict[str, int], subst: dict[str, str] | None
    ) -> str | None:
        """``(a / b).is_integer()`` of integers as ``(a % b) == 0`` (exact while the sizes stay below 2**53)."""
        left = self._arith_text(div.left, bindings, shown, subst)
        right = self._arith_text(div.right, bindings, shown, subst)
        return None if left is None or right is None else f"({left} % {right}) == 0"

    def _compare_text(
        self, node: cst.Comparison, bindings: dict[str, int], shown: dict[str, int], subst: dict[str, str] | None
    ) -> str | None:
        """An order / equality comparison chain as text, each operand by ``_arith_text``; None when one is not."""
        if not all(type(c.operator) in _ORDER_OPS for c in node.comparisons):
            return None
        parts = [self._arith_text(node.left, bindings, shown, subst)]
        for c in node.comparisons:
            parts += [_COMPARE_TEXT[type(c.operator)], self._arith_text(c.comparator, bindings, shown, subst)]
        return None if any(x is None for x in parts) else " ".join(parts)  # type: ignore[arg-type]

    def _arith_text(
        self,
        node: cst.BaseExpression,
        bindings: dict[str, int],
        shown: dict[str, int],
        subst: dict[str, str] | None,
    ) -> str | None:
        """Integer arithmetic (``+ - * // % **``, unary ``-``, int literals) over reads of known integers, as text
        with a placeholder per read; ``subst``: a predicate's parameters, by the text of their arguments."""
        tp = type(node)
        if tp is cst.Integer:
            try:
                return str(int(node.value, 0))  # type: ignore[attr-defined]
            except ValueError:
                return None
        if tp is cst.BinaryOperation:
            op = _ARITH_TEXT.get(type(node.operator))  # type: ignore[attr-defined]
            left = self._arith_text(node.left, bindings, shown, subst)  # type: ignore[attr-defined]
            right = self._arith_text(node.right, bindings, shown, subst)  # type: ignore[attr-defined]
            return None if op is None or left is None or right is None else f"({left} {op} {right})"
        if tp is cst.UnaryOperation and type(node.operator) is cst.Minus:  # type: ignore[attr-defined]
            inner = self._arith_text(node.expression, bindings, shown, subst)  # type: ignore[attr-defined]
            return None if inner is None else f"(-{inner})"
        if subst is not None:
            return f"({subst[node.value]})" if tp is cst.Name and node.value in subst else None  # type: ignore[attr-defined]
        if tp not in (cst.Name, cst.Attribute, cst.Subscript) or not plain_read(node):
            return None
        if self._generic_self_read(node):
            # ``assert self.num_flops_per_token > 0`` in a method analysed for any instance: the constructor's
            # ``-1`` is a placeholder other code sets later (``processor.num_flops_per_token = n``), not a fact
            return None
        v = self.eval(node)
        k = v.size.as_int() if isinstance(v, IntV) else None
        if k is None:
            return None
        name = f"v{len(bindings)}"
        bindings[name] = k
        shown[" ".join(self.m.code_for(node).split())] = k
        return name

    @_statement(cst.If)
    def _if(self, stmt: cst.If) -> None:
        self.run_branches([stmt.body, stmt.orelse], test=stmt.test)

    @_statement(cst.Else)
    def _else(self, stmt: cst.Else) -> None:
        self.run_suite(stmt.body)

    @_statement(cst.For, cst.While)
    def _loop(self, stmt: cst.For | cst.While) -> None:
        if type(stmt) is cst.For:
            walked = _walked_modules_changed(stmt)
            if self._walk_unrolled(stmt, walked is not None):
                return
            if walked is not None:
                # ``for m in model.modules(): m.num_heads //= tp``: submodules the loop cannot tell apart changed
                self.forget_object(walked)
        target = stmt.target.value if type(stmt) is cst.For and type(stmt.target) is cst.Name else None
        if target is None or target not in self.loop_items:
            self.run_loop(stmt)
            return
        outer = self.loop_items.pop(target)  # (the inner loop's variable is another element)
        try:
            self.run_loop(stmt)
        finally:
            self.loop_items[target] = outer

    @_statement(cst.With)
    def _with(self, stmt: cst.With) -> None:
        expects_failure = False
        suppresses = False
        for item in stmt.items:
            expects_failure = expects_failure or self.m.expects_exception(item.item)
            suppresses = suppresses or self._suppresses_shape_errors(item.item)
            v = self.eval(item.item)
            # ``with expected:`` of a parametrized ``pytest.raises(...)`` case
            expects_failure = expects_failure or v == RAISES_CONTEXT
            if item.asname is not None:
                # (a tensor, or a file ``open(path)`` made: its ``__enter__`` hands back the object itself)
                kept = isinstance(v, TensorV) or (type(v) is DictV and v.kind in ("file", "written"))
                self.assign(item.asname.name, v if kept else UNKNOWN)
        if expects_failure:
            # `with pytest.raises(...)`: the body is meant to fail; what fails there is not a finding, and it stops
            # somewhere on the way: what it binds or changes joins what held before it (``driver.step()`` raising
            # before its counter moves)
            before = dict(self.scope.vars)
            with self.ctx.discarding():
                self.run_suite(stmt.body)
            self.scope.vars = self._join_all([dict(self.scope.vars), before])
            self.dead = False
        elif suppresses:
            # `with contextlib.suppress(RuntimeError):` is a try whose handler does nothing: the body may stop at any
            # statement, so what it binds joins what was bound before it
            before = dict(self.scope.vars)
            with self.ctx.catching(True), self.m.autocast_region(stmt, self):
                self.run_suite(stmt.body)
            self.scope.vars = self._join_all([dict(self.scope.vars), before])
            self.dead = False
        else:
            with self.m.autocast_region(stmt, self):
                self.run_suite(stmt.body)

    def _suppresses_shape_errors(self, node: cst.BaseExpression) -> bool:
        """``contextlib.suppress(RuntimeError)`` (or any of the errors a failing shape raises)."""
        if type(node) is not cst.Call or self.m.qualify(node.func) != "contextlib.suppress":
            return False
        return _names_shape_error([a.value for a in node.args if a.star == ""])

    @_statement(cst.Try)
    def _try(self, stmt: cst.Try) -> None:
        before = dict(self.scope.vars)
        with self.ctx.catching(any(_catches_shape_errors(h) for h in stmt.handlers)):
            self.run_suite(stmt.body)
        if stmt.orelse is not None and not self.dead:
            self.run_suite(stmt.orelse.body)
        branches = [(dict(self.scope.vars), self.dead)]
        for handler in stmt.handlers:
            self.scope.vars = dict(before)
            self.dead = False
            # a handler runs only when the body raises what it catches (``except NotImplementedError:`` around a
            # fast path that works for these inputs): what would fail in it is not a definite finding
            with self.ctx.discarding():
                self.run_suite(handler.body)
            branches.append((dict(self.scope.vars), self.dead))
        live = [b for b, dead in branches if not dead]
        self.scope.vars = self._join_all(live) if live else before
        self.dead = not live
        if stmt.finalbody is not None:
            dead = self.dead
            self.dead = False
            self.run_suite(stmt.finalbody.body)
            self.dead = self.dead or dead

    @_statement(cst.FunctionDef)
    def _function_def(self, stmt: cst.FunctionDef) -> None:
        self.scope.vars[stmt.name.value] = self.m.local_function(stmt, self.frame, self.scope.vars)
        shared = memo("nonlocal-names", stmt, _nonlocal_names)
        if shared:
            # ``def add(): nonlocal total; total += p.numel()``: ``total`` is whatever the last run of ``add`` (by a
            # call here or by code that keeps it) left, from now on
            self.shared_names.update(shared)
            for name in shared:
                self.scope.vars[name] = UNKNOWN

    @_statement(cst.ClassDef)
    def _class_def(self, stmt: cst.ClassDef) -> None:
        local = self.frame.key != "<module>"
        self.scope.vars[stmt.name.value] = self.m.local_class(stmt, self.frame, self.scope.vars) if local else UNKNOWN

    @_statement(cst.Del)
    def _del(self, stmt: cst.Del) -> None:
        for t in stmt.target.elements if type(stmt.target) is cst.Tuple else [stmt.target]:
            node = t.value if type(t) is cst.Element else t
            if type(node) is cst.Name:
                self.scope.vars.pop(node.value, None)
            elif type(node) is cst.Subscript:
                if _var_key(node.value) is not None:
                    self.forget_module_chain(node.value, self.eval(node.value))
                self.forget_if_list(node.value)

    @_statement(cst.Global, cst.Nonlocal)
    def _global(self, stmt: cst.Global | cst.Nonlocal) -> None:
        for n in stmt.names:
            self.scope.vars[n.name.value] = UNKNOWN

    @_statement(cst.Match)
    def _match(self, stmt: cst.Match) -> None:
        """The cases in turn, as an ``if``/``elif`` chain: a case whose pattern is a value (``case 2:`` on
        ``x.ndim``), a singleton or a fixed-length sequence (``case (n, m):`` on ``x.shape``) is tested as ``==`` /
        ``is`` / ``len(...) ==`` would be (so a case a check ruled out does not run, and one that holds ends the
        chain), a wildcard or capture without a guard ends it; any other pattern may or may not match."""
        self.eval(stmt.subject)
        self._match_cases(stmt.subject, tuple(stmt.cases))

    def _match_cases(self, subject: cst.BaseExpression, cases: tuple[cst.MatchCase, ...]) -> None:
        if not cases:
            return
        case, rest = cases[0], cases[1:]
        test, irrefutable = _case_test(subject, case.pattern)
        if test is not None and type(case.pattern) in (cst.MatchSequence, cst.MatchList, cst.MatchTuple):
            value = self.eval(subject)
            if isinstance(value, StrV):
                self._match_cases(subject, rest)  # a str never matches a sequence pattern
                return
            if not isinstance(value, SeqV):
                test = None  # an object of unknown kind: a sequence pattern's len() test decides nothing
        if case.guard is not None:
            irrefutable = False
            test = None  # (a guard: the case may or may not run, whatever its pattern says)
        if irrefutable:
            self._case_body(subject, case)
            return
        self.run_branches([_CaseBody(subject, case), _Cases(subject, rest)], test=test)

    def _case_body(self, subject: cst.BaseExpression, case: cst.MatchCase) -> None:
        value = self.eval(subject)
        for target, bound in _case_captures(case.pattern, value):
            self.scope.vars[target] = bound
        if case.guard is not None:
            self.eval(case.guard)
        self.run_suite(case.body)

    def _prefer(self, value: Value, declared: Value) -> Value:
        if isinstance(value, TensorV) and isinstance(declared, TensorV):
            if value.shape is None:
                return declared
            if declared.shape is not None and value.axes is None:
                return TensorV(
                    value.shape,
                    value.dtype or declared.dtype,
                    value.framework or declared.framework,
                    declared.axes if len(declared.shape) == len(value.shape) else None,
                    value.origin,
                )
        return value

    def _join_all(self, branches: list[dict[str, Value]]) -> dict[str, Value]:
        first, rest = branches[0], branches[1:]
        if not rest:
            return first
        out: dict[str, Value] = {}
        # (in the order the branches first bound them: an object's attributes keep the order its constructor set
        # them in, the order torch registers its submodules in)
        keys = dict.fromkeys(first)
        for b in rest:
            keys.update(dict.fromkeys(b))
        for k in keys:
            v = first.get(k, UNKNOWN)
            for b in rest:
                other = b.get(k, UNKNOWN)
                if other is not v:  # a branch that left a variable alone holds the very same value
                    v = join(v, other)
            out[k] = v
        for k in list(out):
            # ``if exists(mask): mask = rearrange(mask, "b j -> b 1 1 j")``: a tensor or None, the tensor kept for a
            # later test of it (narrowing._none_check); a constructor's ``self.mlp = ... if c else None`` alike
            if (
                out[k] is UNKNOWN
                and not k.endswith(OPTIONAL)
                and ((k.isidentifier() and k != "self") or (self.frame.building and k.startswith("self.")))
            ):
                alt = _optional_alternative([b.get(k, UNKNOWN) for b in branches])
                if alt is not None and k + OPTIONAL not in out:
                    out[k + OPTIONAL] = alt
        return out

    def run_branches(
        self,
        suites: "list[cst.BaseSuite | cst.If | cst.Else | _CaseBody | _Cases | None]",
        test: cst.BaseExpression | None,
    ) -> None:
        truth = _truth(self.eval(test)) if test is not None else None
        # ``if random.random() > self.p: return x`` of a known p: each branch this draw can take runs on some calls
        gate = self._random_gate(test) if truth is None and type(test) is cst.Comparison else None
        if gate is not None and gate != (True, True):
            truth = gate[0]  # one outcome only (``torch.rand(1) > 1.0``)
            gate = None
        if truth is True and test is not None and len(suites) == 2 and isinstance(suites[0], cst.IndentedBlock):
            raised = _raises_at_end(suites[0])
            if raised is not None:
                self._raising_check_fails(test, raised)
        refined: list[dict[str, Value]] = [{}, {}]
        if test is not None and len(suites) == 2:
            refined = list(narrow(self, test))
        known = truth is not None and len(suites) == 2
        if known:
            refined = [refined[0] if truth else refined[1]]
            suites = [suites[0] if truth else suites[1]]
        before = dict(self.scope.vars)
        tick(len(before) * len(suites))  # the analysis budget: each branch copies every variable
        results = []
        # an undecided ``if`` of an inlined callee a branch of which returns normally (no definite error on the
        # way): the rest of the callee is conditional (``narrowed``)
        watched = not known and gate is None and self.ctx.suppress_depth > 0 and self.frame.depth > 0
        returned_clean = failed = False
        for i, suite in enumerate(suites):
            self.scope.vars = dict(before)
            if i < len(refined):
                self.scope.vars.update(refined[i])
            self.dead = False
            # (ctx.maybe_taken, written out: a generator-based context manager per branch was 2% of a run)
            ctx = self.ctx
            uncertain = not known and gate is None and ctx.suppress_depth > 0
            ctx.uncertain += uncertain
            ctx.branch_unknown += not known
            returns_before = len(self.scope.returns)
            outer_doubtful = ctx.doubtful
            if watched:
                ctx.doubtful = []
            try:
                if suite is None:
                    pass
                elif isinstance(suite, (cst.Else,)):
                    self.run_suite(suite.body)
                elif isinstance(suite, cst.If):
                    self.run_branches([suite.body, suite.orelse], test=suite.test)
                elif isinstance(suite, _CaseBody):
                    self._case_body(suite.subject, suite.case)
                elif isinstance(suite, _Cases):
                    self._match_cases(suite.subject, suite.cases)
                else:
                    self.run_suite(suite)
            finally:
                ctx.uncertain -= uncertain
                ctx.branch_unknown -= not known
                if watched:
                    inner, ctx.doubtful = ctx.doubtful or [], outer_doubtful
                    failed = bool(inner)
                    if inner and outer_doubtful is not None:
                        outer_doubtful.extend(inner)  # (an enclosing undecided branch fails with it, maybe)
            if not self.dead:
                results.append(dict(self.scope.vars))
            elif watched and len(self.scope.returns) > returns_before and not failed:
                returned_clean = True
        self.dead = not results
        self.scope.vars = self._join_all(results) if results else before
        if returned_clean and results:
            self.narrowed += 1
            self.ctx.uncertain += 1

    def _random_gate(self, test: cst.Comparison) -> tuple[bool, bool] | None:
        """Can ``test``, a uniform draw from [0, 1) compared with a known number (``random.random() < p``,
        ``torch.rand(1).item() > self.prob``, ``np.random.rand() <= 0.5``), be true, and can it be false? None when
        the test is not such a comparison. The draw's outcome depends on no size nor flag of the call, so a branch
        it can take is one the call runs (with that probability), not a guess."""
        if len(test.comparisons) != 1:
            return None
        comp = test.comparisons[0]
        op: Any = type(comp.operator)
        if op not in _GATE_OPS:
            return None
        left, right = test.left, comp.comparator
        if self._uniform_draw(right):
            left, right = right, left
            op = _GATE_FLIP[op]
        elif not self._uniform_draw(left):
            return None
        v = self.eval(right)
        if isinstance(v, FloatV):
            p = v.value
        elif isinstance(v, IntV):
            n = v.size.as_int()
            p = None if n is None else float(n)
        else:
            return None
        if p is None:
            return None
        # u in [0, 1): the draw can be below p when p > 0, at or above it when p < 1 (u == p: probability 0)
        below, above = p > 0, p < 1
        return (below, above) if op in (cst.LessThan, cst.LessThanEqual) else (above, below)

    def _uniform_draw(self, node: cst.BaseExpression) -> bool:
        """``random.random()``, ``np.random.rand()`` / ``random()`` / ``uniform()``, ``torch.rand(1)`` (one element,
        ``generator=`` / ``device=`` allowed), possibly through ``.item()``, ``[0]`` or ``float(...)``."""
        while True:
            if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "item":
                if node.args:
                    return False
                node = node.func.value
            elif type(node) is cst.Subscript and len(node.slice) == 1:
                node = node.value
            elif type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "float":
                if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
                    return False
                node = node.args[0].value
            else:
                break
        if type(node) is not cst.Call:
            return False
        name = self.m.qualify(node.func)
        positional = [a for a in node.args if a.keyword is None]
        if any(a.star for a in node.args):
            return False
        if name in ("random.random", "numpy.random.random", "numpy.random.random_sample", "numpy.random.rand"):
            return not node.args
        if name == "numpy.random.uniform":
            return not node.args
        if name == "torch.rand":
            if any(a.keyword.value not in ("generator", "device", "dtype") for a in node.args if a.keyword):
                return False
            return len(positional) == 1 and _is_one(positional[0].value)
        return False

    def _iteration_changes(self, obj: ObjV) -> bool:
        """Does iterating ``obj`` (its class's ``__iter__`` or ``__next__``, in the analysed code) set attributes of
        it?"""
        from .objects import find_method

        ci = self.m.find_class(obj.cls_key)
        if ci is None:
            return False
        for name in ("__iter__", "__next__"):
            fi = find_method(cast(Any, self.m), ci, name)
            if fi is not None and any(k.startswith("self.") for k in _assigned_names(fi.node.body)):
                return True
        return False

    def run_loop(self, stmt: cst.For | cst.While) -> None:
        # anything assigned in the body may hold any iteration's value: forget it before and after
        cache = self.m.assigned_cache
        if id(stmt) not in cache:
            cache[id(stmt)] = _assigned_names(stmt.body) | (
                _target_names(stmt.target) if type(stmt) is cst.For else set()
            )
        assigned = cache[id(stmt)]
        # the header runs once, before the body: `for` evaluates its iterable once (a `while` test evaluated again
        # after the body would see nothing new: everything the body assigns is unknown by then)
        if isinstance(stmt, cst.For):
            outer = self.iterating
            self.iterating = stmt.iter if _consumes_all(stmt.body, self.m.assigned_cache) else None
            try:
                it = self.eval(stmt.iter)
            finally:
                self.iterating = outer
            if type(it) is ObjV:
                # ``for layer in self`` in an nn.ModuleList subclass, or in an nn.Sequential subclass (its modules)
                modules = held_modules(it) or _chain_modules(it)
                generated = None
                if modules is None:
                    # ``for batch in loader`` of an object whose ``__iter__`` is a generator: what it yields, as
                    # ``iter(loader)`` (run for the loop's own ``iter(...)`` call, made once per loop)
                    made = memo("loop-iter-call", stmt, _loop_iter_call)
                    generated = self.m.iterate_object(self, made, it)
                if modules is None and self._iteration_changes(it):
                    # ``for batch in loader`` whose ``__iter__`` / ``__next__`` counts (``self.batches_processed +=
                    # 1``): the object is not what it was before the loop, in it or after it
                    self.forget_object(stmt.iter)
                it = modules or generated or it
            elif type(it) is DictV and it.kind == "dict":
                it = SeqV(tuple(StrV(k) for k, _ in it.items), "list")  # for task in config.task_num_labels: its keys
            elif type(it) is StrV and len(it.value) <= _MAX_STRING_LOOP:
                it = SeqV(tuple(StrV(c) for c in it.value), "tuple")  # for ch in pattern ("ccgt"): its characters
            if it is UNKNOWN and self.range_length is not None and self.range_length[0] is stmt.iter:
                # ``for t in range(emb.shape[1])``: some index, an int that is never negative (``emb[:, t]`` drops the
                # axis), never assumed to be a particular one; the loop runs range_length times
                it = ManyV(IntV(self.ctx.fresh("i") - 1), "range", self.range_length[1])
        else:
            it = self.eval(stmt.test)
        if type(stmt) is cst.For and self._unrolled(stmt, assigned, it):
            return
        if type(stmt) is cst.While and _truth(it) is True and self._while_unrolled(stmt):
            return
        self.scope.rolled.add(id(stmt))
        for name in memo("changed-in-place", stmt.body, _changed_in_place):
            held = self.scope.vars.get(name)
            if isinstance(held, (DictV, SeqV, IntDictV, ManyV)):
                # ``for name in fields: fields[name] = field.t()`` with ``fields`` an item of ``data``: the body
                # changes that container in place, and what the loop leaves of the name (not known) no longer shows
                # which other names hold it, so they are not trusted from here (store_item's rule, made before)
                self.forget_holders(name, held)
        if type(stmt) is cst.While and _truth(it) is False:
            # the test fails before the first pass (`while t.ndim > len(lead) and ...` on a t that is already
            # aligned): the body never runs, the `else` does
            if stmt.orelse is not None:
                self.run_suite(stmt.orelse.body)
            return
        if self.loop_depth < 2 and _fixpoint_ok(stmt, self.m.assigned_cache, allow_continue=True):
            self.loop_depth += 1
            self.rolling += 1
            runs = self.loop_runs
            self.loop_runs = runs * 3
            try:
                if self._loop_fixpoint(stmt, assigned, it, self._iterations(stmt, it)):
                    return
            finally:
                self.loop_depth -= 1
                self.rolling -= 1
                self.loop_runs = runs
                if type(stmt) is cst.For and type(stmt.target) is cst.Name:
                    self.loop_items.pop(stmt.target.value, None)
        if type(stmt) is cst.For:
            self._first_iteration(stmt, assigned, it)
        for name in assigned:
            self.scope.vars[name] = UNKNOWN
        if type(stmt) is cst.For:
            # the elements: only when the body cannot change what the iterable names (`xs += [y]` extends the list
            # being iterated)
            elem = None if _names_in(stmt.iter) & assigned else self._loop_element(it)
            if elem is not None:
                self.assign(stmt.target, elem)
        self.rolling += 1
        try:
            self.run_suite(stmt.body)
        finally:
            self.rolling -= 1
        self.dead = False  # the loop may run zero times, or leave by break
        for name in assigned:
            self.scope.vars[name] = UNKNOWN
        if stmt.orelse is not None:
            self.run_suite(stmt.orelse.body)
            self.dead = False

    def _first_iteration(self, stmt: cst.For, assigned: set[str], it: Value) -> None:
        """A ``for`` over a known non-empty sequence that the analysis cannot unroll because a ``break`` may end it
        early (``for _ in range(seq_len): x = out[:, -max_len:]; ...; if eos: break``): its first iteration surely
        runs, from the state before the loop with the first element, so what fails there fails (its findings stand).
        The state it leaves is dropped: the loop is then analysed as any other (what the body assigns unknown).
        Only a body that leaves by ``break`` / ``continue`` alone (no return, raise, yield, del, nested function)."""
        if (
            not isinstance(it, SeqV)
            or not it.items
            or it.kind == "shape"
            or self.loop_depth >= 2
            or self.dead
            or (_names_in(stmt.iter) & assigned and not self._fresh_range(stmt.iter))
            or not _breaks_only(stmt.body, self.m.assigned_cache)
        ):
            return
        saved = dict(self.scope.vars)
        self.loop_depth += 1
        runs = self.loop_runs
        self.loop_runs = runs * 2
        self.continued.append([])
        try:
            self.assign(stmt.target, it.items[0])
            self.run_suite(stmt.body)
        finally:
            self.continued.pop()
            self.loop_depth -= 1
            self.loop_runs = runs
            self.scope.vars = saved
            self.dead = False

    def _loop_element(self, it: Value) -> Value | None:
        """What every element of a loop's iterable is like. ``enumerate(seq)`` of a known sequence: the counter of
        some iteration is a non-negative int (a fresh ``i - 1``, never assumed to be a particular one), the item the
        items' join."""
        elem = _common_element(it)
        if (
            elem is UNKNOWN
            and isinstance(it, SeqV)
            and it.kind == "range"
            and all(isinstance(x, IntV) and x.size.as_int() is not None and x.size.as_int() >= 0 for x in it.items)  # type: ignore[operator]
        ):
            # ``for i in range(n)`` with n known but more than one element: some iteration's index, an int that is
            # never negative (so ``X[i, :]`` drops the axis), never assumed to be a particular one; the least and
            # greatest elements are noted (a window ``x[i : i + k]`` inside the axis for each)
            index = IntV(self.ctx.fresh("i") - 1)
            ints = [cast(IntV, x).size.as_int() or 0 for x in it.items]
            self.index_ranges[id(index)] = (index, min(ints), max(ints) + 1)
            return index
        if (
            isinstance(elem, SeqV)
            and len(elem.items) == 2
            and elem.items[0] is UNKNOWN
            and isinstance(it, SeqV)
            and all(
                isinstance(x, SeqV)
                and len(x.items) == 2
                and isinstance(x.items[0], IntV)
                and x.items[0].size.as_int() == i
                for i, x in enumerate(it.items)
            )
        ):
            counter = IntV(self.ctx.fresh("i") - 1)
            return SeqV((counter, elem.items[1]), elem.kind, elem.names)
        return elem

    def _fresh_range(self, node: cst.BaseExpression) -> bool:
        """``range(len(xs) - 1, 0, -1)``: a new sequence of ints made once before the first pass, which nothing the body
        does to the names in it (``xs[i - 1] = ...``) can change."""
        return (
            type(node) is cst.Call
            and type(node.func) is cst.Name
            and node.func.value == "range"
            and "range" not in self.scope.vars
            and "range" not in self.m.globals
        )

    def _numbers_only(self, names: set[str]) -> bool:
        """Do ``names`` all hold numbers, strings, booleans or None now? The body rebinding one (``for blk in
        chunk[i:]: ...; i += 1``) cannot change the sequence the loop made from it before its first pass."""
        return all(isinstance(self.scope.vars.get(n), (IntV, FloatV, BoolV, StrV, NoneV)) for n in names)

    def _unrolled(self, stmt: cst.For, assigned: set[str], it: Value) -> bool:
        """A ``for`` over a sequence whose elements are all known (``for dim_in, dim_out in zip(dims[:-1], dims[1:])``,
        ``for _ in range(3)``) runs its body once per element, in order, as Python does: each iteration sees its own
        sizes. Only for a short sequence the body does not change, and that no ``break`` leaves early (a ``continue`` ends
        its iteration: the next one starts from the states at the continues joined with the body's end)."""
        if isinstance(it, SeqV) and not it.items and it.kind != "shape":
            # over a known empty sequence (``for _ in range(1, blocks)`` with blocks=1): the body never runs
            if stmt.orelse is not None:
                self.run_suite(stmt.orelse.body)
            return True
        if not isinstance(it, SeqV) or not 1 <= len(it.items) <= _unroll_limit(it, stmt, self.loop_depth):
            return False
        if self.loop_depth >= 2 and (
            self.loop_runs * len(it.items) > MAX_NESTED_RUNS
            or (_common_element(it) is not UNKNOWN and not memo("fills-lists", stmt, _fills_lists))
        ):
            # deeper down, only elements whose join says nothing (lists of different lengths), or a body filling a
            # list, whose length the join would lose (HRNet's fuse layers: ``for k in range(i - j):
            # convs.append(...)`` inside the loops over branches)
            return False
        if (
            _names_in(stmt.iter) & assigned
            and not self._fresh_range(stmt.iter)
            and not _stores_at_own_index(stmt, _names_in(stmt.iter) & assigned, self.m.assigned_cache)
            and not self._numbers_only(_names_in(stmt.iter) & assigned)
        ) or not _fixpoint_ok(stmt, self.m.assigned_cache, allow_continue=True, allow_return=True, allow_yield=True):
            return False
        self.loop_depth += 1
        runs = self.loop_runs
        self.loop_runs = runs * len(it.items)
        first = self.ctx.mark()
        rec = self._loop_item(stmt, it)
        sources = _loop_sources(stmt, len(it.items))
        try:
            for i, item in enumerate(it.items):
                if rec is not None:
                    rec[2] = i
                if sources is None:
                    self._unrolled_pass(stmt, item, first, i > 0)
                else:
                    self._aliased_pass(stmt, item, first, i > 0, sources[i])
                if self.dead:
                    return True
        finally:
            self.loop_depth -= 1
            self.loop_runs = runs
            if rec is not None:
                self.loop_items.pop(stmt.target.value, None)  # type: ignore[attr-defined]
        if stmt.orelse is not None:
            self.run_suite(stmt.orelse.body)
        return True

    def _aliased_pass(self, stmt: cst.For, item: Value, first: Any, again: bool, source: str) -> None:
        """A pass of ``for tower in (query_tower, item_tower):`` whose body never rebinds ``tower``: the loop variable
        is the object ``source`` names, so what a call carries back into it (``inject_lora(tower)``) is that name's
        too."""
        target = cast(cst.Name, stmt.target).value
        outer = self.loop_aliases.get(target)
        self.loop_aliases[target] = source
        try:
            self._unrolled_pass(stmt, item, first, again)
        finally:
            if outer is None:
                self.loop_aliases.pop(target, None)
            else:
                self.loop_aliases[target] = outer
        now = self.scope.vars.get(target)
        held = self.scope.vars.get(source)
        if (
            now is not item
            and now is not None
            and now is not UNKNOWN
            and isinstance(item, (ObjV, LayerV, DictV, SeqV))
            and (held is item or held is UNKNOWN)
        ):
            # (the name itself forgotten as another name for the object a call was handed: the loop variable holds
            # what the call left in it, tracked -- the body binds neither name)
            self.scope.vars[source] = now

    def _unrolled_pass(self, stmt: cst.For, item: Value, first: Any, again: bool) -> None:
        """One pass of a ``for`` run element by element: the target bound to ``item``, the body run. ``again``: a later
        pass, whose lines that fail the same way as on an earlier one (since the mark ``first``) are one finding. A
        ``continue`` on the way: the next pass starts from there, or from the body's end."""
        start = self.ctx.mark()
        self.assign(stmt.target, item)
        self.continued.append([])
        try:
            self.run_suite(stmt.body)
        finally:
            ends = self.continued.pop()
        if again:
            self.ctx.drop_repeated(first, start)
        if ends:
            if not self.dead:
                ends.append(self.scope.vars)
            self.scope.vars = _join_states(ends)
            self.dead = False

    def _loop_item(self, stmt: cst.For, it: Value) -> list[Any] | None:
        """Registers the variable of a ``for`` over a list (or nn.ModuleList) a variable names (``for blk in
        self.blocks``) in ``loop_items``, for an attribute stored through it (store_through); the record, or None."""
        if type(stmt.target) is not cst.Name or not (
            (isinstance(it, SeqV) and it.kind in ("list", "modulelist")) or isinstance(it, ManyV)
        ):
            return None
        key = _var_key(stmt.iter)
        if key is None or key == stmt.target.value:
            return None
        rec: list[Any] = [key, it, None]
        self.loop_items[stmt.target.value] = rec
        return rec

    def _while_unrolled(self, stmt: cst.While) -> bool:
        """A ``while`` whose test the values decide before every pass (``while len(e.shape) < len(h.shape): e = e[...,
        None]`` with both ranks known) runs as Python runs it: pass after pass until the test is False, at most
        _WHILE_PASSES passes. Only for a body with no break / continue / return; a test undecided before some pass (or
        more passes) rolls everything back: False, the loop is analysed as any other."""
        if self.loop_depth >= 2 or not _fixpoint_ok(stmt, self.m.assigned_cache):
            return False
        before = dict(self.scope.vars)
        first = self.ctx.mark()
        self.loop_depth += 1
        try:
            for i in range(_WHILE_PASSES):
                start = self.ctx.mark()
                self.run_suite(stmt.body)
                if i:
                    self.ctx.drop_repeated(first, start)  # a line that fails the same way again is one finding
                if self.dead:
                    break
                t = _truth(self.eval(stmt.test))
                if t is False:
                    if stmt.orelse is not None:
                        self.run_suite(stmt.orelse.body)
                    return True
                if t is None:
                    break
        finally:
            self.loop_depth -= 1
        self.ctx.rollback(first)
        self.scope.vars = before
        self.dead = False
        return False

    def _iterations(self, stmt: cst.For | cst.While, it: Value) -> Size | None:
        """How many times a ``for`` runs its body when it does not leave early: the length of ``range(a, b)`` (b - a,
        if not negative), of the leading axis of a tensor, of a list of known length."""
        if type(stmt) is not cst.For:
            return None
        if type(it) is TensorV and it.shape:
            return it.shape[0]
        if type(it) is ManyV:
            return it.count
        if type(it) is SeqV and it.kind in ("list", "tuple", "range", "modulelist"):
            return Size.const(len(it.items))
        return None

    def _loop_fixpoint(
        self, stmt: cst.For | cst.While, assigned: set[str], it: Value, iterations: Size | None = None
    ) -> bool:
        """Run the body from the values before the loop, joined with what each pass leaves, until nothing changes
        (3 passes at most). A stable state holds for every iteration, so its findings stand: ``x = block(x) + x``
        keeps x's shape through any number of blocks. The first pass is the first iteration, whose findings stand
        too; the findings of later passes that did not hold are dropped. Never stable: False.

        A list of known length before the loop that the body appends to once per iteration (``logits.append(out)``)
        has ``iterations`` more elements after it (ManyV.count)."""
        before = dict(self.scope.vars)
        state: dict[str, Value] = {}
        for name in assigned:
            v = before.get(name, UNKNOWN)
            if isinstance(v, SeqV) and v.kind in ("list", "modulelist"):
                v = ManyV(elements_of(v), v.kind)  # a list the body may grow: any number of such elements
            state[name] = v
        first_mark = first_end = None
        widened: dict[str, Size] = {}  # (_widen) the sizes this run of the loop gave up following
        # a ``for`` over a known non-empty sequence the body leaves alone (``for _ in range(n_iters)`` with n_iters
        # = 20, too long to unroll) runs at least once: after it, every name holds what some pass left, never its
        # value before the loop (``a = 0`` before ``a = logk - sb.logsumexp(...)`` in the body)
        nonempty = (
            type(stmt) is cst.For
            and isinstance(it, SeqV)
            and bool(it.items)
            and not (_names_in(stmt.iter) & assigned and not self._fresh_range(stmt.iter))
        )
        for attempt in range(3):
            mark = self.ctx.mark()
            self.scope.vars = {**before, **state}
            self.dead = False
            if type(stmt) is cst.For:
                # the iterable was evaluated once; its elements, unless the body changes what it names
                elem = None if _names_in(stmt.iter) & assigned else self._loop_element(it)
                if nonempty and not attempt and isinstance(it, SeqV):
                    # the first pass is the first iteration: its element (``for i, lstm in enumerate(self.layers)``
                    # over 64 blocks, an mLSTM first then an sLSTM every eighth: the first call is the mLSTM's)
                    elem = it.items[0]
                self.assign(stmt.target, elem if elem is not None else UNKNOWN)
                if isinstance(it, ManyV) and elem is not None and _fixpoint_ok(stmt, self.m.assigned_cache):
                    # (each pass starts from the list before the loop; a ``continue`` would skip some elements)
                    self._loop_item(stmt, it)
            if not attempt:
                first_mark = mark
                self.ctx.loop_watch.append(self.ctx.branch_unknown)
            self.continued.append([])
            try:
                self.run_suite(stmt.body)
            finally:
                if not attempt:
                    self.ctx.loop_watch.pop()
                ends = self.continued.pop()
            # the next iteration starts from the end of the body, or from any `continue` on the way
            if not self.dead:
                ends.append(self.scope.vars)
            new = dict(state)
            if nonempty and not attempt and ends:
                # the state the second iteration starts from: what the first left (at its end or any continue)
                new = {name: ends[0].get(name, UNKNOWN) for name in assigned}
                ends = ends[1:]
            for end in ends:
                new = {name: join(new[name], end.get(name, UNKNOWN)) for name in assigned}
            new = {name: self._widen(v, name, widened, stmt) for name, v in new.items()}
            if new == state:
                if first_end is not None:
                    self.ctx.drop_repeated(first_mark, first_end)  # type: ignore[arg-type]
                if not self.ctx.loop_watch:
                    self.ctx.tagged.clear()
                fi = self.m.find_function(self.frame.key) if iterations is not None else None
                if fi is not None and iterations is not None:
                    for name in memo("appended-once", stmt.body, _appended_once) & assigned:
                        grown, was = state.get(name), before.get(name)
                        if (
                            type(grown) is ManyV
                            and type(was) is SeqV
                            and was.kind == "list"
                            and not _list_shared_before(fi.node, stmt, name)
                        ):
                            state[name] = replace(grown, count=iterations + len(was.items))
                self.scope.vars = {**self.scope.vars, **state}
                self.dead = False
                if stmt.orelse is not None:
                    self.run_suite(stmt.orelse.body)
                    self.dead = False
                return True
            if attempt:
                self.ctx.rollback(mark)
            else:
                # the first pass is the first iteration itself: what fails there fails, unless it sits under a
                # branch the analysis could not decide (that branch may only run in a later iteration)
                self.ctx.drop_tagged(mark)
                first_end = self.ctx.mark()
            state = new
        if not self.ctx.loop_watch:
            self.ctx.tagged.clear()
        self.scope.vars = before
        self.dead = False
        return False

    def _monai_factory(self, factory: str, idx_nodes: Sequence[cst.SubscriptElement]) -> Value:
        """``Conv[Conv.CONV, spatial_dims]``, ``Norm["batch", 2]``, ``Act[act_name]`` of MONAI's layer factories: the
        torch.nn class the factory function of that name returns for that many spatial axes (a name not in the
        table, or not known: unknown)."""
        first = idx_nodes[0].slice.value  # type: ignore[attr-defined]
        if type(first) is cst.Attribute and _MONAI_FACTORY.fullmatch(self.m.qualify(first.value) or ""):
            name: str | None = first.attr.value  # ``Conv.CONV``: the factory's constant, its own name
        else:
            key = self.eval(first)
            name = key.value if isinstance(key, StrV) else None
        entry = _MONAI_TABLE.get((factory, name.upper())) if name is not None else None
        if entry is None:
            return UNKNOWN
        if isinstance(entry, str):
            return RefV(f"torch.nn.{entry}") if len(idx_nodes) <= 2 else UNKNOWN
        dim = int_of(self.eval(idx_nodes[1].slice.value)) if len(idx_nodes) == 2 else None  # type: ignore[attr-defined]
        if dim is None or not 1 <= dim <= len(entry):
            return UNKNOWN
        return RefV(f"torch.nn.{entry[dim - 1]}")

    def _one_of(self, items: Sequence[Value], depth: int) -> Value | None:
        """One of ``items``, not known which, when they are tensors of one rank (or tuples of such, item by item): the
        sizes they all agree on, and on each other axis a new size (the chosen element's, one value). A join would
        lose the rank past a few different shapes (a dataset's graphs of 7, 12, 9, ... nodes). None otherwise."""
        if not items:
            return None
        first = items[0]
        if type(first) is IntV:
            # ``e, t = self.index[i]`` of pairs of known ints: some int from the least to the greatest of them (a
            # window ``obs[t - context : t + 1]`` inside the axis for each, shape_ops._window); never negative here
            maybe = [t.size.as_int() if type(t) is IntV and not t.assumed else None for t in items]
            ints = [n for n in maybe if n is not None]
            if len(ints) < len(maybe) or len(set(ints)) < 2 or min(ints) < 0:
                return None
            lo, hi = min(ints), max(ints)
            one = IntV(self.ctx.fresh("i") - 1 + lo)
            self.index_ranges[id(one)] = (one, lo, hi + 1)
            return one
        if type(first) is TensorV and first.shape is not None and not first.alts:
            if any(type(t) is not TensorV or t.shape is None or t.alts for t in items):
                return None
            shapes = [cast(tuple[Size, ...], cast(TensorV, t).shape) for t in items]
            if any(len(sh) != len(first.shape) for sh in shapes) or all(sh == first.shape for sh in shapes):
                return None
            dtypes = {cast(TensorV, t).dtype for t in items}
            frameworks = {cast(TensorV, t).framework for t in items}
            out = _agreed_shape(shapes, lambda i: self.ctx.fresh("n"))
            return TensorV(
                out, dtypes.pop() if len(dtypes) == 1 else None, frameworks.pop() if len(frameworks) == 1 else None
            )
        if depth and type(first) is SeqV and first.kind in ("tuple", "list"):
            n = len(first.items)
            if any(not isinstance(t, SeqV) or t.kind != first.kind or len(t.items) != n for t in items):
                return None
            parts: list[Value] = []
            for k in range(n):
                column = [cast(SeqV, t).items[k] for t in items]
                part = self._one_of(column, depth - 1)
                if part is None:
                    part = elements_of(SeqV(tuple(column), "list"))
                parts.append(part if part is not None else UNKNOWN)
            return SeqV(tuple(parts), first.kind)
        return None

    def _widen(self, v: Value, key: str, widened: dict[str, Size], loop: cst.CSTNode) -> Value:
        """``v``, a value a loop's passes joined, with the rank its paths agree on kept: a tensor whose paths all have
        one rank (``offset`` grown by each graph of a batch, an element of another length per pass) gets, on each
        axis the paths disagree on, a size of its own for this run of the loop, the same in every pass (a new one per
        pass would never let the passes agree). In one iteration that size stands for the axis's length then: what
        the body relates to it holds for every iteration. Lists' elements and tuples' items alike."""
        if type(v) is TensorV and v.shape is None and v.alts:
            shapes = [a.shape for a in v.alts]
            first = shapes[0]
            if first is None or any(sh is None or len(sh) != len(first) for sh in shapes):
                return v

            def own(i: int) -> Size:
                k = f"{key}:{i}"
                if k not in widened:
                    line = self.m.line_of(loop)
                    widened[k] = self.ctx.fresh("len", f"(the length of {key} as the loop at line {line} changes it)")
                return widened[k]

            return TensorV(_agreed_shape(cast(list[tuple[Size, ...]], shapes), own), v.dtype, v.framework)
        if type(v) is ManyV and v.elem is not None:
            elem = self._widen(v.elem, f"an element of {key}", widened, loop)
            return v if elem is v.elem else replace(v, elem=elem)
        if type(v) is SeqV and v.kind in ("tuple", "list") and len(v.items) <= 8:
            items = tuple(self._widen(x, f"{key}[{i}]", widened, loop) for i, x in enumerate(v.items))
            return v if all(a is b for a, b in zip(items, v.items)) else replace(v, items=items)
        return v

    def assign(self, target: cst.BaseExpression, value: Value) -> None:
        if type(target) is cst.Name:
            self.scope.vars[target.value] = value
            self.scope.vars.pop(target.value + OPTIONAL, None)
            self.scope.vars.pop(target.value + CONSUMED, None)
            if target.value + TRAINING_SUFFIX in self.scope.vars and target.value != "self":
                del self.scope.vars[target.value + TRAINING_SUFFIX]  # another object (or the same, its mode unknown)
            if type(value) is ObjV and value.concrete and not self.frame.depth:
                self.ctx.obj_sites[(self.frame.key, target.value)] = target
                if self.frame.key == "<module>" and value.attr(registries.REGISTRY_MARK) is None:
                    ci = self.m.find_class(value.cls_key)
                    if ci is not None and memo("registry-dicts", ci.node, registries.registry_dicts):
                        # ``BACKBONES = Registry("backbone")``: the dict its decorators fill is read through the global
                        mark = StrV(f"{self.m.module_name}|{target.value}")
                        value = ObjV(value.cls_key, (*value.attrs, (registries.REGISTRY_MARK, mark)), True, value.fresh)
                        self.scope.vars[target.value] = value
            if self.scope.size_reads:
                _forget_size_reads(self.scope.size_reads, target.value)
            if self.ctx.record_hovers:
                self.ctx.hovers[id(target)] = value
                self.ctx.hover_nodes[id(target)] = target
        elif type(target) is cst.Tuple or type(target) is cst.List:
            elems = target.elements
            starred = [i for i, e in enumerate(elems) if type(e) is cst.StarredElement]
            items: Sequence[Value] | None = None
            if isinstance(value, SeqV):
                items = value.items
            elif type(value) is ObjV:
                items = self.m.namedtuple_items(value)  # nodes, edges, *rest = graph (a typing.NamedTuple)
            elif _sequential_layers(value) is not None:
                items = _sequential_layers(value)  # a, b = nn.Sequential(...)[:2]: its modules
            elif isinstance(value, TensorV) and value.shape is not None and not starred and len(value.shape) >= 1:
                items = None  # unpacking a tensor along dim 0: shapes of rows
                if equal(value.shape[0], len(elems)) is Truth.TRUE:
                    items = [value.with_shape(value.shape[1:], value.axes[1:] if value.axes else None)] * len(elems)
            elif isinstance(value, TensorV) and value.shape and len(starred) == 1:
                # `k1, k2, *rest = jax.random.split(key, 2 + depth)`: the rows, when their number is known
                n = value.shape[0].as_int()
                if n is not None and len(elems) - 1 <= n <= MAX_REPEAT:
                    items = [value.with_shape(value.shape[1:], value.axes[1:] if value.axes else None)] * n
            if items is not None and not starred and len(items) == len(elems):
                for e, v in zip(elems, items):
                    self.assign(e.value, v)
            elif items is not None and len(starred) == 1 and len(items) >= len(elems) - 1:
                i = starred[0]
                n_after = len(elems) - i - 1
                for e, v in zip(elems[:i], items[:i]):
                    self.assign(e.value, v)
                rest = items[i : len(items) - n_after]
                self.assign(elems[i].value, SeqV(tuple(rest), "list"))
                for e, v in zip(elems[i + 1 :], items[len(items) - n_after :]):
                    self.assign(e.value, v)
            else:
                for e in elems:
                    self.assign(e.value, UNKNOWN)
        elif type(target) is cst.StarredElement:
            self.assign(target.value, UNKNOWN)
        elif type(target) is cst.Attribute:
            obj = target.value
            attr = target.attr.value
            if type(obj) is cst.Name and obj.value == "self":
                self.scope.vars.pop(mode_key("self." + attr), None)  # another object: its mode not known
            if (
                attr == "data"
                and type(obj) is cst.Attribute
                and obj.attr.value in ("weight", "bias")
                and isinstance(self.scope.vars.get(_var_key(obj.value) or ""), LayerV)
            ):
                # lin.weight.data = w: the parameter replaced as ``lin.weight = w`` would
                param = obj
                target, obj, attr = param, param.value, param.attr.value
            data_of = _var_key(obj) if attr in ("data", "value") else None
            held_t = self.eval(obj) if data_of is not None else None
            if data_of is not None and isinstance(held_t, TensorV) and (attr == "data" or held_t.framework == "jax"):
                # w.data = v, self.weight.data = self.weight.data.t(): the name holds a tensor of v's shape from now
                # on (when v is a tensor); other names for the old tensor hold what is no longer known. So does
                # self.cache.value = kv (a flax.nnx Variable, held as its array)
                old = self.scope.vars.get(data_of)
                for other, held in list(self.scope.vars.items()):
                    if old is not None and held is old and other != data_of:
                        self.scope.vars[other] = UNKNOWN
                self.scope.vars[data_of] = value if isinstance(value, TensorV) else UNKNOWN
                return
            if type(obj) is cst.Name and obj.value == "self" and self.frame.cls_key is not None:
                owner = self.m.find_class(self.frame.cls_key)
                if (
                    attr in objects.NN_MODULE_NAMES
                    and isinstance(value, (LayerV, ObjV, TensorV))
                    and (owner is None or objects.foreign_bases(owner.module, owner))
                ):
                    # ``self.modules = modules``: torch registers the module, and reading ``self.modules`` finds
                    # nn.Module's own method first (zeta's RecursiveBlock calls ``self.modules(x)``, a generator).
                    # A class whose bases are all the analysed code's own is no module: ``self.forward =
                    # hk.transform(fn)`` of a trainer holds what it is given
                    value = UNKNOWN
                if owner is not None and objects.intercepts_attr(owner.module, owner, attr):
                    setter = objects.property_setter(owner.module, owner, attr) if self.frame.building else None
                    if setter is not None:
                        # ``self.max_seq_length = config.block_size`` in a constructor: the property's setter runs on
                        # the object being built (litgpt's registers the rope cache buffers); reading the attribute
                        # runs the getter, so nothing is stored under its name
                        self.scope.vars.pop(f"self.{attr}", None)
                        self.m.call_on_building_self(self, target, setter, [value], {})  # type: ignore[arg-type]
                        return
                    value = UNKNOWN  # self.dim = 3 through a property setter, a descriptor or __setattr__
                if isinstance(value, LayerV) and self.frame.building and not getattr(value.built, "named", False):
                    # the line a finding of its calls names as the one to fix: a layer a helper built
                    # (``self.dec1 = conv_block(base, base)``) is wrong where the constructor asked for it
                    parts = (f"self.{attr} was built at ", Where(self.m, target), *objects.construction_chain())
                    value = replace(value, built=BuiltNote(parts, named=True))
                earlier = self.scope.vars.get(f"self.{attr}")
                if earlier is not None and _plain_data(earlier) and not _plain_data(value) and value is not UNKNOWN:
                    # a module set on an attribute that held plain data (``self.downsample = None`` first): torch
                    # registers it after the modules registered since, the order its module walks follow
                    del self.scope.vars[f"self.{attr}"]
                self.scope.vars[f"self.{attr}"] = value
                if not _plain_data(value):
                    # a module assigned to an nn.Sequential joins its chain (to an nn.ModuleList, its iteration):
                    # in a constructor, a framework layer is appended (``class Transition(nn.Sequential)``:
                    # ``self.norm = ...; self.conv = ...``, torch registers them in that order); anything else, or
                    # later, leaves the chain unknown
                    chain = self.scope.vars.get("self.<nn.Sequential layers>")
                    if chain is not None and self.frame.building and _torch_layer(value):
                        self.scope.vars["self.<nn.Sequential layers>"] = objects.sequential_added(chain, attr, value)
                    elif chain is not None:
                        self.scope.vars["self.<nn.Sequential layers>"] = UNKNOWN
                    for chain_key in ("self." + MODULE_LIST_ATTR, "self." + MODULE_DICT_ATTR):
                        if chain_key in self.scope.vars:
                            self.scope.vars[chain_key] = UNKNOWN
                self.scope.vars.pop(f"self.{attr}{OPTIONAL}", None)
                if self.ctx.record_hovers:  # hover on `self.x = ...` shows what was assigned
                    self.ctx.hovers[id(target)] = value
                    self.ctx.hover_nodes[id(target)] = target
            elif (
                type(obj) is cst.Attribute
                and type(obj.value) is cst.Name
                and obj.value.value == "self"
                and isinstance(self.scope.vars.get(f"self.{obj.attr.value}"), LayerV)
            ):
                # self.to_logits.weight = self.token_emb.weight: a layer's parameter replaced (weight tying)
                key = f"self.{obj.attr.value}"
                self.scope.vars[key] = _with_parameter(self.scope.vars[key], attr, value)  # type: ignore[arg-type]
            elif (
                type(obj) is cst.Attribute
                and type(obj.value) is cst.Attribute
                and type(obj.value.value) is cst.Name
                and obj.value.value.value == "self"
                and isinstance(sub := self.scope.vars.get(f"self.{obj.value.attr.value}"), ObjV)
                and sub.concrete
                and isinstance(sub.attr(obj.attr.value), LayerV)
                and _held_once(self.scope.vars, sub)
            ):
                # self.head.decoder.weight = self.embeddings.word.weight (weight tying through a submodule held by no
                # other name): that layer's parameter replaced, in the submodule's place
                layer = sub.attr(obj.attr.value)
                self.scope.vars[f"self.{obj.value.attr.value}"] = _with_attr_in_place(
                    sub,
                    obj.attr.value,
                    _with_parameter(layer, attr, value),  # type: ignore[arg-type]
                )
            elif type(obj) is cst.Name and isinstance(self.scope.vars.get(obj.value), LayerV):
                # lin = nn.Linear(1, 1); lin.weight = nn.Parameter(w): the layer (and any other name for it) now
                # has that weight's sizes
                self.set_attribute(obj, attr, value)
            else:
                item: cst.BaseExpression = obj
                while type(item) is cst.Attribute:
                    item = item.value
                if type(item) is cst.Subscript:
                    # seq[0].weight = w, self.blocks[i].proj = layer: an element of a module chain or a list changed
                    root = _subscript_root(item)
                    if _var_key(root) is not None:
                        self.forget_module_chain(root, self.eval(root))
                        self.forget_if_list(root, modules=True)
                self.forget_object(obj, attr, value)
        elif (
            type(target) is cst.Subscript
            and type(target.value) is cst.Attribute
            and target.value.attr.value in ("__dict__", "_modules", "_parameters", "_buffers")
            and type(target.value.value) is cst.Name
            and target.value.value.value == "self"
            and self.frame.building
            and self.frame.cls_key is not None
            and len(target.slice) == 1
            and type(target.slice[0].slice) is cst.Index
        ):
            # self.__dict__[k] = v in a constructor: setattr(self, k, v); so is self._modules[k] = layer (and
            # _parameters, _buffers): torch's Module.__getattr__ reads these dicts for the attribute
            self.set_attributes_by_name([(self.eval(target.slice[0].slice.value), value)])
        elif type(target) is cst.Subscript:
            # only a chain of plain indexes on a variable is evaluated here (``groups[ind][key]``): an index or a
            # container with a call in it (``f(x)[0][1] = v``) would run the call a second time
            plain = _plain_item_chain(target, slice_target=True) or self._namespace_keyed(target)
            if plain and self.store_item(target, value, []):
                return
            if (
                plain
                and type(target.value) is cst.Name
                and target.value.value not in self.scope.vars
                and type(index := target.slice[0].slice) is cst.Index
                and self.m.writer_store(self.frame.key, target.value.value, self.eval(index.value), value)
            ):
                return  # _PRESETS[name] = cfg in register_preset(...), a top-level statement of its module
            # xs[i] = t: an element changed that is not tracked; groups[k][name] = t changes groups itself
            root = _subscript_root(target)
            held = self.eval(target.value) if plain or _runs_nothing(target) else UNKNOWN
            if held is UNKNOWN:
                # n.numpy()[...] = 12, n.view(1)[0] = 12: written through what a method of n gives, which may share
                # n's elements
                base: cst.BaseExpression = target.value
                while type(base) in (cst.Attribute, cst.Subscript, cst.Call):
                    base = base.func if type(base) is cst.Call else base.value  # type: ignore[attr-defined]
                if type(base) is cst.Name:
                    mark_stale(self.scope.vars.get(base.value, UNKNOWN))
            if isinstance(held, TensorV):
                # self.centroids[j] = row, gy[1:-1, :] = d: an array's items set in place, its shape and the object
                # unchanged; the value must broadcast to the region's shape. The largest value arange gave it may
                # have been overwritten
                mark_stale(held)
                if held.framework == "jax":
                    # self.cache[...] = kv: a flax.nnx Variable (held as its array; a jax array takes no item
                    # assignment), whose store replaced the whole value in some flax versions: not known
                    self.forget_object(target.value)
                    if (held_key := _var_key(target.value)) is not None:
                        self.scope.vars[held_key] = UNKNOWN
                    return
                # (the range its elements lay in -- randint's, arange's -- may no longer hold either)
                stored = _var_key(target.value) if held.top is not None or held.bounds is not None else None
                if stored is not None and self.scope.vars.get(stored) is held:
                    self.scope.vars[stored] = replace(held, top=None, bounds=None)
                if held.shape is not None:  # the region: its index tensors must broadcast together
                    from ..rules.constructors import mask_index

                    # x[mask] = v: the selected rows (one axis of unknown length) then x's remaining axes
                    region = mask_index(self, target, held) or self.m.index_tensor(self, target, held)
                    if isinstance(region, TensorV) and isinstance(value, TensorV) and value.shape is not None:
                        self.m.tensor_store(self, target, region, value)
                    elif (
                        isinstance(region, TensorV)
                        and isinstance(value, IntV)
                        and not value.assumed
                        and value.size.as_int() is not None
                        and (held.dtype or "").startswith("int")
                        and region.shape is not None
                        and all((r.as_int() or 0) >= 1 for r in region.shape)
                        and (store_key := _var_key(target.value)) is not None
                        and self.scope.vars.get(store_key) is not None
                    ):
                        # seq[:, -1] = mask_id into a region that is surely not empty: the tensor now holds
                        # mask_id (an embedding lookup of it is checked, as of arange's largest value)
                        now = self.scope.vars[store_key]
                        if isinstance(now, TensorV):
                            self.scope.vars[store_key] = replace(now, top=(value.size, target))
                return
            if plain and root is not target.value and (isinstance(held, (DictV, IntDictV, SeqV)) or held is UNKNOWN):
                # (``features[Kind.OBS][key] = f`` whose inner container is not known -- a key the analysis cannot
                # read, a str-Enum member: whatever it is, it lies inside the root, which changes; hunt55, lerobot)
                self.forget_if_list(root)
            elif not plain and root is not target.value and type(root) in (cst.Name, cst.Attribute):
                # ``features[Kind.OBS][key] = f``: an index not evaluated here (an Enum member, a call) of a
                # container inside the root, which changes (hunt55, lerobot)
                self.forget_if_list(root)
            self.forget_module_chain(target.value, held)  # self.net[-1] = nn.Linear(dim, 7)
            self.forget_if_list(target.value)
            self.forget_object(target.value)

    def _ambiguous_alias(self, expr: cst.BaseExpression, value: Value) -> Value:
        """The value of ``a if c else b`` / ``a or b`` naming lists or dicts: when it is one of the operands' own
        object (the test decided), that; else both operands are forgotten and the value is not known."""
        parts = [expr.body, expr.orelse] if type(expr) is cst.IfExp else [expr.left, expr.right]  # type: ignore[attr-defined]
        # the names of either operand, or of the items of a tuple or list display there (``target, names =
        # (no_decay, no_decay_names) if excluded else (decay, decay_names)``), that hold lists or dicts
        named: list[str] = []
        for p in parts:
            items = [e.value for e in cast(Any, p).elements] if type(p) in (cst.Tuple, cst.List) else [p]
            named.extend(
                k for k in map(_var_key, items) if k is not None and _mutable_container(self.scope.vars.get(k))
            )
        if not named:
            return value  # (displays of numbers, strings, tuples: no list another name holds can change through it)
        keys = [_var_key(p) for p in parts]
        decided: bool | None = None
        if type(expr) is cst.IfExp and type(expr.test) in (cst.Name, cst.Attribute, cst.Comparison):
            with self.ctx.discarding():  # (a name, an attribute or a comparison of them: evaluating it again is safe)
                if all(type(n) in _PURE_INDEX or type(n) in _COMPARISON_PARTS for n in walk_all(expr.test)):
                    decided = _truth(self.eval(expr.test))
        elif type(expr) is cst.BooleanOperation and keys[0] is not None:
            first = self.scope.vars.get(keys[0])
            decided = _truth(first) if first is not None else None
        if decided is not None or (keys[0] is not None and keys[0] == keys[1]):
            return value  # (the test decided which operand it is: that one's own object)
        for k in named:
            h = self.scope.vars.get(k)
            if h is not None:
                self.forget_aliases(k, h)
                self.scope.vars[k] = UNKNOWN
        return UNKNOWN

    def _namespace_keyed(self, target: cst.Subscript) -> bool:
        """``kwargs[f.name] = v`` on a variable, ``f`` a variable holding a namespace (a ``dataclasses.Field`` read as
        one): reading the key runs no code, as for a plain index."""
        if len(target.slice) != 1 or _var_key(target.value) is None:
            return False
        index = target.slice[0].slice
        if type(index) is not cst.Index or index.star is not None:
            return False
        key = index.value
        if type(key) is not cst.Attribute or type(key.value) is not cst.Name:
            return False
        held = self.scope.vars.get(key.value.value)
        return type(held) is DictV and held.kind == "namespace"

    def store_item(self, target: cst.Subscript, value: Value, replaced: list[Value]) -> bool:
        """``d[key] = v``, ``xs[1] = v``, ``groups[ind][key] = v`` (a list of dicts filled in a loop): the variable
        holding the dict or list gets the container with that entry set, when the index's value is a known string
        (dict) or an int within the list. Only for a chain ``_plain_item_chain`` accepts (every index one name or
        constant, on a variable). Other names holding a replaced container (aliases) are no longer trusted. False
        when not tracked (the caller forgets what may have changed)."""
        index = target.slice[0].slice
        container = target.value
        key: str | None = None
        if type(container) is cst.Subscript:
            old = self.eval(container)
        else:
            key = _var_key(container)
            if key is None or key not in self.scope.vars or (key.startswith("self.") and not self.frame.building):
                return False
            old = self.scope.vars[key]
        if type(index) is cst.Slice:
            # the slice written out, as the ``slice(...)`` object it makes (None for a bound left out)
            bounds = tuple(NoneV() if b is None else self.eval(b) for b in (index.lower, index.upper, index.step))
            at: Value = SeqV(bounds, "slice")
        else:
            assert type(index) is cst.Index
            at = self.eval(index.value)
        new = _with_item(old, at, value)
        if new is None:
            return False
        replaced.append(old)
        if type(container) is cst.Subscript:
            return self.store_item(container, new, replaced)
        assert key is not None
        for other, held in list(self.scope.vars.items()):
            if other != key and any(held is r or _holds(held, r, 3) for r in replaced):
                self.scope.vars[other] = UNKNOWN
        self.scope.vars[key] = new
        return True

    def may_forget(self, node: cst.BaseExpression) -> bool:
        """Could ``forget_if_list(node, modules=True)`` or ``forget_object(node)`` change anything: what the argument
        names holds a list, dict or object. A call whose arguments hold none of them skips what decides which of
        its arguments are kept (lookups of the callee: most calls hand on tensors and numbers)."""
        if type(node) in (cst.List, cst.Tuple, cst.Set):
            # seed_all([model], 3): the objects of a display, handed on in it
            return any(
                type(e) is not cst.StarredElement and self.may_forget(e.value)
                for e in node.elements  # type: ignore[attr-defined]
            )
        key = _var_key(node)
        if key is not None:
            v = self.scope.vars.get(key)
            if isinstance(v, _LIST_LIKE) or (v is None and key.startswith("self.")):
                return True  # (``self.params``: forget_object(node, attr) reads it from the object)
        root: cst.BaseExpression = node
        while type(root) is cst.Attribute or type(root) is cst.Subscript:
            root = root.value  # (``holder["m"]``: an item of a container, forget_object)
        key = _var_key(root)
        if key is None:
            return False
        return isinstance(self.scope.vars.get(key), (ObjV, LayerV, DictV, SeqV, ManyV))

    def forget_if_list(self, node: cst.BaseExpression, modules: bool = False) -> None:
        """A list the code mutates (``xs.append(t)``, ``xs[i] = t``, ``del xs[i]``, passed to a function): unknown from here.

        A list value records what the list held when it was built; after a mutation that is no longer what it holds.
        ``modules``: an ``nn.ModuleList`` too (handed to a function that may fill it: ``append(self.layers, block)``).
        """
        key = _var_key(node)
        self.walked_changed(key)
        v = self.scope.vars.get(key) if key is not None else None
        kinds = ("list", "modulelist") if modules else ("list",)
        if key is not None and (
            (isinstance(v, SeqV) and v.kind in kinds)
            or (isinstance(v, (DictV, IntDictV, StateDictV)) and not (type(v) is DictV and v.kind == "path"))
            or (isinstance(v, ManyV) and v.kind in kinds)
        ):  # (may_forget: every type here is in _LIST_LIKE; a ``pathlib`` path no code changes)
            self.forget_aliases(key, v)
            self.scope.vars[key] = UNKNOWN

    def set_attributes_by_name(self, items: list[tuple[Value, Value]] | None, prefix: str = "") -> None:
        """Attributes a constructor sets by name (``setattr(self, k, v)``, ``self.__dict__.update(d)``): each
        known name is set; a name not known may be any attribute (any beginning with ``prefix``, the literal start
        of ``f"optim{i}"``), so each such attribute set so far, and any the class body gives, is unknown from here
        (DYNAMIC_ATTRS marks the instance with the prefixes)."""
        if items is not None:
            names = [k.value for k, _ in items if isinstance(k, StrV) and k.value.isidentifier()]
            if len(names) == len(items):
                for name, (_, v) in zip(names, items):
                    self.scope.vars[f"self.{name}"] = v
                return
        for key in list(self.scope.vars):
            if key.startswith("self." + prefix) and not key.startswith("self.<"):
                self.scope.vars[key] = UNKNOWN
        key = "self." + DYNAMIC_ATTRS
        before = self.scope.vars.get(key)
        known = before.items if isinstance(before, SeqV) else ()
        self.scope.vars[key] = SeqV((*known, StrV(prefix)), "tuple") if before is None or known else before

    def forget_module_chain(self, node: cst.BaseExpression, held: Value) -> None:
        """``self.net[-1] = nn.Linear(dim, 7)``, ``del self.layers[0]``: a module of an nn.Sequential or an
        nn.ModuleList replaced or removed, so the chain (and any other name for it) is not the one built."""
        key = _var_key(node)
        self.walked_changed(key)
        if key is not None and (
            (isinstance(held, LayerV) and held.kind == "Sequential")
            or (isinstance(held, (SeqV, ManyV)) and held.kind == "modulelist")
        ):
            self.forget_aliases(key, held)
            self.scope.vars[key] = UNKNOWN

    def forget_aliases(self, key: str, v: Value) -> None:
        """The list ``v`` that ``key`` names is mutated: any other name bound to the same list (``ys = xs``, the very
        same value object) no longer holds what it held."""
        for other, held in self.scope.vars.items():
            if held is v and other != key:
                self.scope.vars[other] = UNKNOWN

    def forget_holders(self, key: str, v: Value) -> None:
        """The dict ``v`` that ``key`` names is changed in place by one of its methods (``for s in self.states:
        s.clear()``): a list, dict or object another name holds it in no longer holds what was tracked (an attribute
        of ``self`` not set in this method is forgotten under its own name)."""
        self.forget_aliases(key, v)
        for other, held in list(self.scope.vars.items()):
            if other == key or held is UNKNOWN:
                continue
            if other == "self" and type(held) is ObjV:
                for a, x in held.attrs:
                    if f"self.{a}" not in self.scope.vars and (x is v or _holds(x, v, 3)):
                        self.scope.vars[f"self.{a}"] = UNKNOWN
            elif _holds(held, v, 3):
                self.scope.vars[other] = UNKNOWN

    def forget_inner(self, old: Value, new: Value | None, skip: frozenset[str]) -> None:
        """``old``, what a variable held, was changed in place by code run on it (``task.prepare()`` storing
        ``self.model.scale``, an object handed to code that may change it): the objects, lists and dicts it held,
        three levels down, that ``new`` (what the variable holds now; None: nothing known) no longer holds as they
        were may have changed, so any other variable (not in ``skip``) holding one of them no longer holds what was
        tracked (``model`` after ``task = Task(model); task.prepare()``)."""
        parts = _mutable_parts(self.m, old, 3)
        if not parts:
            return
        if new is not None:
            for i in _mutable_parts(self.m, new, 3):
                parts.pop(i, None)  # the same value at the same place: the code left it alone
            if not parts:
                return
        for k, held in list(self.scope.vars.items()):
            if k in skip:
                continue
            key = _object_key(held)
            if key == _object_key(old) or key in parts or any(i in parts for i in _mutable_parts(self.m, held, 3)):
                self.scope.vars[k] = UNKNOWN

    def forget_handed_container(self, node: cst.BaseExpression, held: Value) -> bool:
        """``conv(x, self.state)``: a plain dict or list of self (not holding self) handed to code that may change it.
        It no longer holds what was tracked, nor does any name holding it or what it holds; the rest of the object
        stays as it was (module._call_carrying may carry back what the callee left in it). False: not such an
        argument."""
        own = _var_key(node) if type(node) is cst.Attribute else None
        me = self.scope.vars.get("self")
        if own is None or not (isinstance(held, (DictV, SeqV, ManyV)) and held.kind in ("dict", "list")):
            return False
        if me is None or _holds(held, me, 3):
            return False
        for other, x in list(self.scope.vars.items()):
            if other not in (own, "self") and (x is held or _holds(x, held, 3)):
                self.scope.vars[other] = UNKNOWN
        self.scope.vars[own] = UNKNOWN
        self.forget_inner(held, None, frozenset((own, "self")))
        return True

    def forget_object(
        self, node: cst.BaseExpression, attr: str | None = None, value: Value = UNKNOWN, frozen_too: bool = False
    ) -> None:
        """``model.head = layer`` (or ``model`` handed to code that may change it): an object the analysis built no
        longer holds what its constructor set. One attribute replaced is tracked; anything else forgets the object.
        ``frozen_too``: the store gets past a frozen class too (``object.__setattr__(cfg, "dim", 6)``)."""
        if attr is None and type(node) is cst.Name and node.value in self.carrying_walk:
            return  # (carried back, or the walk ended, by the call: ModuleAnalysis._call_carrying)
        root: cst.BaseExpression = node
        while type(root) is cst.Attribute and (attr is None or _var_key(root) is None):
            # down to a name; for an attribute set, down to ``self.x`` too (``self.inner.fc = ...`` changes
            # self.inner). A value handed on (``FPN(self.backbone.out_channels)``) leaves ``self.backbone`` as built
            root = root.value
        key = _var_key(root)
        if key is None and type(root) is cst.Subscript:
            # reshape_params(holder["m"]): the object an item of a container holds, handed to code that may change
            # it: any name holding it (the container too) no longer holds what was tracked
            with self.ctx.discarding():
                obj = self.eval(root)
            if isinstance(obj, ObjV) and obj.concrete and not _frozen_record(self.m, obj):
                ident = _object_key(obj)  # a holder's copy of the object is the same object
                for other, held in list(self.scope.vars.items()):
                    if _object_key(held) == ident or ident in _mutable_parts(self.m, held, 3):
                        self.scope.vars[other] = UNKNOWN
                self.forget_inner(obj, None, frozenset())
            return
        v = self.scope.vars.get(key) if key is not None else None
        walk = self.loop_items.get(key) if key is not None and self.loop_items else None
        if type(walk) is _WalkItem and key is not None:
            # the variable of a loop over a model's modules: a store the walk records changes the model in place;
            # anything else leaves the model unknown
            if not (
                attr is not None
                and attr != "__class__"
                and isinstance(v, ObjV)
                and v.concrete
                and self.store_through(node, root, key, v, attr, value)
            ):
                self.walk_broken(walk)
            else:
                return
        if v is None and key is not None and key.startswith("self."):
            v = self_attribute(self, key[5:])  # an attribute of the object a method runs on
        if key is not None and isinstance(v, LayerV) and v.kind == "Sequential" and v.param("keras"):
            self.scope.vars[key] = UNKNOWN  # a keras.Sequential handed to code that may add or pop its layers
            return
        if key is not None and isinstance(v, DictV) and v.kind == "namespace":
            # argparse options: ``args.lr = 0.1`` sets one (on every name holding them); handed to code, any
            for other, held in list(self.scope.vars.items()):
                if held is v and other != key:
                    self.scope.vars[other] = UNKNOWN
            if attr is not None and root is node:
                kept = tuple((k, x) for k, x in v.items if k != attr)
                self.scope.vars[key] = DictV((*kept, (attr, value)), "namespace")
            else:
                self.scope.vars[key] = UNKNOWN
            return
        if v is None and key is not None and type(root) is cst.Name and key not in self.scope.vars:
            if root is not node:
                # config.DEFAULT.dim = 8: an object another module made, reached through that module's name; the
                # names this module imported for it (from pkg.config import DEFAULT) no longer hold it as built
                obj = self.eval(node)
                if isinstance(obj, ObjV) and obj.concrete:
                    for name in sorted(self.m.imports.names):
                        if name != key and name not in self.scope.vars:
                            held = self.eval(cst.Name(name))
                            if held is obj or held == obj:
                                self.scope.vars[name] = UNKNOWN
                return
            v = self.eval(root)  # DEFAULT.dim = 8 on an imported (or global) object: it changes from here
        if key is not None and isinstance(v, LayerV) and attr is not None and attr != "training":
            # ``shrink(lin)`` whose body sets ``linear.weight = nn.Parameter(...)``: a framework layer whose
            # parameter (or any attribute) was replaced is not the one built (any other name for it neither)
            for other, held in list(self.scope.vars.items()):
                if held is v or (other != key and _holds(held, v, 3)):
                    self.scope.vars[other] = UNKNOWN
            return
        if key is None or not isinstance(v, ObjV) or not v.concrete:
            return
        if not frozen_too and _frozen_record(self.m, v):
            return  # a frozen dataclass of plain values: nothing can set its fields (setting one raises)
        if attr is None and not frozen_too and _frozen_module(self.m, v):
            return  # an equinox / flax linen module handed on (eqx.filter(model, eqx.is_array)): it cannot change
        if attr is not None and attr != "__class__" and self.store_through(node, root, key, v, attr, value):
            return
        for other, held in list(self.scope.vars.items()):
            # the same object reached through another name (``for _, attn, _ in self.stages: attn.norm = ...``
            # changes the element of self.stages too; ``alias = model; alias.head = ...`` changes model): what holds
            # it is no longer trusted (an equal value may be another instance built alike: forgotten all the same)
            if other != key and (held is v or _holds(held, v, 3)):
                self.scope.vars[other] = UNKNOWN
        if attr is not None and root is node and attr != "__class__":  # (obj.__class__ = Other: another object)
            ci = self.m.find_class(v.cls_key)
            if ci is not None and objects.intercepts_attr(ci.module, ci, attr):
                value = UNKNOWN  # cfg.dim = 4 through a property setter, a descriptor or __setattr__
            self.scope.vars[key] = ObjV(
                v.cls_key,
                tuple((k, x) for k, x in v.attrs if k not in (attr, attr + OPTIONAL)) + ((attr, value),),
                True,
                tuple((k, x) for k, x in v.fresh if k not in (attr, attr + OPTIONAL)),
            )
        else:
            self.scope.vars[key] = UNKNOWN
            self.forget_inner(v, None, frozenset((key,)))

    def store_through(
        self, node: cst.BaseExpression, root: cst.BaseExpression, key: str, v: ObjV, attr: str | None, value: Value
    ) -> bool:
        """``blk.attn.cache = c`` (``node`` is ``blk.attn``, ``root`` is ``blk``, ``v`` the object ``key`` holds): the
        objects on the way get the attribute (each a concrete object of the analysed code that stores it plainly, and
        held by no other variable), and when ``key`` is the variable of a loop over a list (``for blk in
        self.blocks``, Interpreter.loop_items) the list gets the changed element in its place (every element, for a
        list of unknown length: the body runs for each). ``attr`` None: the object ``node`` names is ``value`` now
        (``blk.attn.setup_cache(...)`` run on it assigned its attributes: ``value`` is it as the method left it).
        False when that is not what the store does (the caller forgets)."""
        path = attr_path(node, root)
        if path is None:
            return False
        if path and root is not node and key not in self.loop_items:
            return False  # (an object a plain variable holds, reached through attributes: left as it was)
        chain: list[ObjV] = [v]
        for name in path:
            inner = chain[-1].attr(name)
            if not isinstance(inner, ObjV) or not inner.concrete:
                return False
            chain.append(inner)
        names = [*path, attr] if attr is not None else path
        if attr is None and not (
            isinstance(value, ObjV) and value.cls_key == chain[-1].cls_key and (path or key in self.loop_items)
        ):
            return False
        for obj, name in zip(chain, names):
            ci = self.m.find_class(obj.cls_key)
            if ci is None or objects.intercepts_attr(ci.module, ci, name) or _frozen_record(self.m, obj):
                return False
        rec = self.loop_items.get(key)
        if type(rec) is _WalkItem:
            return attr is not None and self._store_walked(rec, key, v, chain, names, value)
        holder_key: str | None = rec[0] if rec is not None else None
        if rec is not None:
            assert holder_key is not None
            holder = rec[1]
            now = self.scope.vars.get(holder_key)
            own = self.scope.vars.get("self")
            if now is None and holder_key.startswith("self.") and isinstance(own, ObjV):
                now = own.attr(holder_key[5:])
            if now is not holder:
                return False
            if isinstance(holder, SeqV):
                if not (rec[2] < len(holder.items) and holder.items[rec[2]] is v):
                    return False
            elif not (isinstance(holder, ManyV) and holder.elem is v):
                return False
        for other, held in self.scope.vars.items():
            if other == key or other == holder_key:
                continue
            if other == "self" and isinstance(held, ObjV) and holder_key is not None and holder_key.startswith("self."):
                # the object the method runs on holds the list: any other attribute holding one of the objects
                held = ObjV(held.cls_key, tuple((k, x) for k, x in held.attrs if k != holder_key[5:]), True)
            if any(held is o or _holds(held, o, 3) for o in chain):
                return False  # the same object reached through another name
        new: Value = value
        for obj, name in reversed(list(zip(chain, names))):
            new = ObjV(
                obj.cls_key,
                tuple((k, x) for k, x in obj.attrs if k not in (name, name + OPTIONAL)) + ((name, new),),
                True,
                tuple((k, x) for k, x in obj.fresh if k not in (name, name + OPTIONAL)),
            )
        self.scope.vars[key] = new
        if rec is not None:
            holder = rec[1]
            if isinstance(holder, SeqV):
                items = list(holder.items)
                items[rec[2]] = new
                rec[1] = replace(holder, items=tuple(items))
            else:
                rec[1] = replace(holder, elem=new)
            self.scope.vars[holder_key] = rec[1]  # type: ignore[index]
        return True

    def forget(self, node: cst.BaseExpression) -> None:
        """The variable (or ``self.x``) ``node`` names no longer holds what was tracked (``x.unsqueeze_(1)``)."""
        key = _var_key(node)
        if key is not None:
            self.walked_changed(key)
            self.scope.vars[key] = UNKNOWN
            self.scope.vars.pop(key + OPTIONAL, None)

    def set_attribute(self, obj: cst.Name, attr: str, value: Value) -> None:
        """``setattr(obj, "name", value)`` on a local variable: what ``obj.name = value`` does to a layer or object it
        holds."""
        held = self.scope.vars.get(obj.value)
        if isinstance(held, LayerV):
            changed = _with_parameter(held, attr, value)
            if isinstance(changed, LayerV) and attr == "weight" and changed.params != held.params:
                # its findings name the line that gave it other sizes (``out.weight = emb.weight``, weight tying)
                before: tuple[object, ...] = (*held.built.parts, "; ") if held.built is not None else ()
                changed = replace(
                    changed, built=BuiltNote((*before, "its weight was replaced at ", Where(self.m, obj)), named=True)
                )
            walk = self.loop_items.get(obj.value) if self.loop_items else None
            if type(walk) is _WalkItem:
                # a module of a walk over a model (``setattr(seq, "0", LoRALinear(child))``): changed in the model
                model = self.scope.vars.get(walk.holder, UNKNOWN)
                if (
                    walk.path is not None
                    and walk.bound is held
                    and _module_at(model, walk.path) is held
                    and self._replace_in_model(walk.holder, model, walk.path, changed)
                ):
                    walk.bound = changed
                    walk.replaced.add(walk.path + (attr,))
                else:
                    self.walk_broken(walk)
            places: dict[str, list[tuple[str, ...]]] = {}
            for other, x in list(self.scope.vars.items()):
                if x is held:
                    self.scope.vars[other] = changed
                elif isinstance(x, (ObjV, LayerV, SeqV, DictV)):
                    found = list(objects.module_paths(x, held, 3))
                    if found:
                        places[other] = found
            if places:
                # ``out = self.get_output_embeddings(); out.weight = emb.weight``: the model holding the layer
                # (``self.predictions.decoder``) holds the tied one. Found at more than one place (a layer shared
                # by two blocks, or two alike layers the analysis cannot tell apart): those holders are unknown
                (only, paths), *more = places.items()
                if not more and len(paths) == 1 and _module_at(self.scope.vars[only], paths[0]) is held:
                    self.scope.vars[only] = _module_replaced(self.scope.vars[only], paths[0], changed) or UNKNOWN
                else:
                    for other in places:
                        self.scope.vars[other] = UNKNOWN
            return
        if isinstance(held, ObjV) and self.loop_items and self._set_walked_child(obj.value, held, attr, value):
            return
        self.forget_object(obj, attr, value)

    def _set_walked_child(self, holder: str, held: ObjV, attr: str, value: Value) -> bool:
        """``setattr(module, name, LoRALinear(child))`` inside ``for name, child in module.named_children():`` (the
        walk's model itself, at the child the walk is at): the model holds the new module there, and the walk goes
        on over the children that follow (False: not that)."""
        for walk in self.loop_items.values():
            if (
                type(walk) is _WalkItem
                and walk.holder == holder
                and not walk.broken
                and not walk.deep  # (torch's modules() goes on into the module it was at, not the new one)
                and walk.path == (attr,)
                and self.scope.vars.get(holder) is held
                and _module_at(held, walk.path) is walk.bound
            ):
                if not self._replace_in_model(holder, held, walk.path, value):
                    return False
                walk.replaced.add(walk.path)
                return True
        return False

    def _replace_in_model(self, holder: str, model: Value, path: tuple[str, ...], new: Value) -> bool:
        """The model the variable ``holder`` holds, with ``new`` at ``path``, under every name holding the model
        (False, nothing changed: no module at that path, or another name holds the model inside something else)."""
        rebuilt = _module_replaced(model, path, new)
        if rebuilt is None or any(
            other != holder and x is not model and _holds(x, model, 3) for other, x in self.scope.vars.items()
        ):
            return False
        for other, x in list(self.scope.vars.items()):
            if x is model:
                self.scope.vars[other] = rebuilt
        return True

    def walked_model(self, key: str, held: Value) -> Value | None:
        """The model a walk over its modules is at ``held`` of, when the variable ``key`` of that walk holds it (None:
        no such walk)."""
        walk = self.loop_items.get(key) if self.loop_items else None
        if type(walk) is not _WalkItem or walk.bound is not held or not walk.path:
            return None
        model = self.scope.vars.get(walk.holder)
        return model if model is not None and _module_at(model, walk.path) is held else None

    def walked_replaced(self, key: str, held: Value, changed: Value) -> None:
        """The variable ``key`` of a walk over a model's modules, which held the module ``held``, now holds
        ``changed`` (a callee changed that module: ``inject_lora(child)``): the model holds it in its place. Any other
        change: the model is no longer known."""
        walk = self.loop_items.get(key) if self.loop_items else None
        if type(walk) is not _WalkItem:
            return
        model = self.scope.vars.get(walk.holder, UNKNOWN)
        if (
            walk.path
            and walk.bound is held
            and _module_at(model, walk.path) is held
            and self._replace_in_model(walk.holder, model, walk.path, changed)
        ):
            walk.bound = changed
        else:
            self.walk_broken(walk)

    def walked_changed(self, key: str | None) -> None:
        """The variable ``key`` changes in a way not tracked: when it is the variable of a loop over a model's modules,
        the model is no longer known."""
        if key is not None and self.loop_items and key not in self.carrying_walk:
            walk = self.loop_items.get(key)
            if type(walk) is _WalkItem:
                self.walk_broken(walk)

    def walk_broken(self, walk: "_WalkItem") -> None:
        """A module a walk of the model's tree is at changed in a way not tracked: the model (and any other name for
        it) is unknown from here, and the walk's later stores go nowhere."""
        held = self.scope.vars.get(walk.holder)
        for other, x in list(self.scope.vars.items()):
            if x is held or other == walk.holder:
                self.scope.vars[other] = UNKNOWN
        walk.path = None
        walk.broken = True

    def _store_walked(
        self, walk: "_WalkItem", key: str, v: ObjV, chain: list[ObjV], names: list[str], value: Value
    ) -> bool:
        """``setattr(module, name, LoRALinear(child))`` on the variable of a loop over a model's modules: the module
        gets the attribute (in its place: torch keeps a registered module's position), and the model gets the
        changed module at the walk's path. False when the module is no longer the model's (the caller forgets)."""
        if walk.path is None or self.scope.vars.get(key) is not walk.bound:
            return False
        model = self.scope.vars.get(walk.holder)
        if model is None or _module_at(model, walk.path) is not v:
            return False
        aliases = [walk.holder]  # (``self.model`` and ``model`` naming the one model: both get the change)
        for other, held in self.scope.vars.items():
            if other == key or other == walk.holder:
                continue
            if held is model:
                aliases.append(other)
            elif _holds(held, model, 3) or any(held is o or _holds(held, o, 3) for o in chain):
                return False  # the same object reached through another name
        new: Value = value
        for obj, name in reversed(list(zip(chain, names))):
            new = _with_attr_in_place(obj, name, new)
        rebuilt = _module_replaced(model, walk.path, new)
        if rebuilt is None:
            return False
        self.scope.vars[key] = new
        for other in aliases:
            self.scope.vars[other] = rebuilt
        walk.bound = new
        walk.replaced.add(walk.path + tuple(names))
        return True

    def _walk_unrolled(self, stmt: cst.For, changes: bool) -> bool:
        """``for m in model.modules(): ...`` (``named_modules()``, ``children()``, ``named_children()``, through
        ``list(...)`` / ``tuple(...)`` / ``enumerate(...)``) over a model a local variable holds whose module tree is
        known: the body runs once per module, in torch's order (the model first, then depth first in the order the
        constructors registered them), with the loop variable holding that module. What the body sets on it
        (``setattr(module, name, LoRALinear(child))``) is set in the model, at that module's path; a ``return``
        (``find_module``: the first instance of a class) leaves at the first module whose test holds. A list made
        of the walk first holds the modules as they were; the walk itself visits what an earlier pass put in place.
        ``changes``: the body sets attributes of the loop variable (_walked_modules_changed); a walk that neither does
        that nor returns runs as any other loop. False when the loop is not such a walk."""
        it = stmt.iter
        snapshot = counted = False
        while type(it) is cst.Call and type(it.func) is cst.Name and it.func.value in ("list", "tuple", "enumerate"):
            if len(it.args) != 1 or it.args[0].keyword is not None or it.args[0].star:
                return False
            if it.func.value == "enumerate":
                if counted or snapshot:
                    return False
                counted = True
            else:
                snapshot = True
            it = it.args[0].value
        if not (
            type(it) is cst.Call
            and not it.args
            and type(it.func) is cst.Attribute
            and it.func.attr.value in _MODULE_WALKS
            and type(it.func.value) is cst.Name
        ):
            return False
        if not changes and not has_own(stmt.body, cst.Return):
            return False  # (a walk that only reads the modules, or fills them in place, runs as any other loop)
        method = it.func.attr.value
        holder = it.func.value.value
        target: cst.BaseExpression = stmt.target
        if counted:
            if type(target) is not cst.Tuple or len(target.elements) != 2:
                return False
            target = target.elements[1].value
        named = method.startswith("named_")
        var = target
        if named:
            if type(target) is not cst.Tuple or len(target.elements) != 2:
                return False
            var = target.elements[1].value
        model = self.scope.vars.get(holder)
        if (
            type(var) is not cst.Name
            or var.value == holder
            or holder == "self"
            or not isinstance(model, ObjV)
            or not model.concrete
            or self.loop_depth >= 2
            or not _fixpoint_ok(stmt, self.m.assigned_cache, allow_continue=True, allow_return=True)
        ):
            return False
        deep = method in ("modules", "named_modules") and not snapshot
        if deep:
            # the walk itself: each module's submodules are read when the walk gets to them (``find_module`` returns
            # the model itself before any is needed)
            pending: list[tuple[tuple[str, ...], Value]] = [((), model)]
        else:
            if method in ("modules", "named_modules"):
                walked = objects.module_walk(cast(Any, self.m), model)
            else:
                kids = objects.submodules(cast(Any, self.m), model)
                walked = [((k,), x) for k, x in kids] if kids is not None else None
            if walked is None:
                return False
            pending = list(reversed(walked))
        rec = _WalkItem(holder, None, UNKNOWN, set(), deep=deep)
        key = var.value
        outer = self.loop_items.get(key)
        self.loop_items[key] = rec
        self.loop_depth += 1
        runs = self.loop_runs
        self.loop_runs = runs * (objects.WALK_LIMIT if deep else len(pending))
        first = self.ctx.mark()
        count = 0
        stopped = False  # modules the analysis cannot follow are still to come
        try:
            while pending:
                path, orig = pending.pop()
                cur = _module_at(self.scope.vars.get(rec.holder), path) if not rec.broken else None
                if count >= objects.WALK_LIMIT or (deep and cur is None):
                    stopped = True
                    break
                replaced = any(path[:i] in rec.replaced for i in range(1, len(path) + 1))
                # (a list made of the walk first holds a module an earlier pass replaced: no longer the model's)
                module = cur if cur is not None and (deep or not replaced) else orig
                rec.path = path if module is cur else None
                rec.bound = module
                item: Value = SeqV((StrV(".".join(path)), module)) if named else module
                if counted:
                    item = SeqV((IntV(Size.const(count)), item))
                self._unrolled_pass(stmt, item, first, count > 0)
                count += 1
                if self.scope.vars.get(key) is not rec.bound and not rec.broken:
                    self.walk_broken(rec)  # the loop variable changed in a way not tracked (a method it ran)
                if self.dead:
                    return True
                if deep:
                    now = _module_at(self.scope.vars.get(rec.holder), path) if not rec.broken else None
                    kids = objects.submodules(cast(Any, self.m), now) if now is not None else None
                    if kids is None:
                        stopped = True
                        break
                    pending.extend((path + (k,), x) for k, x in reversed(kids))
        finally:
            self.loop_depth -= 1
            self.loop_runs = runs
            if outer is not None:
                self.loop_items[key] = outer
            else:
                self.loop_items.pop(key, None)
        if stopped:
            # the rest of the loop runs as any other loop over modules not known (one the body changes: the model
            # is no longer known)
            if _walked_modules_changed(stmt) is not None:
                self.forget_object(it.func.value)
            self.run_loop(stmt)
            return True
        if stmt.orelse is not None:
            self.run_suite(stmt.orelse.body)
        return True

    # ------------------------------------------------------------------ expressions
    def eval(self, node: cst.BaseExpression | None) -> Value:
        if node is None:
            return UNKNOWN
        handler = _EXPRESSIONS.get(type(node))
        value = handler(self, node) if handler is not None else UNKNOWN
        if type(value) is TensorV and value.top is not None and type(node) is not cst.Name and node is not value.top[1]:
            value = replace(value, top=None)  # the values an operation made from arange's are not arange's
        if (
            type(value) is TensorV
            and value.values is not None
            and type(node) is not cst.Name
            and node is not value.values[1]
        ):
            value = replace(value, values=None)  # nor are the elements of anything made from exact ones
        if self.ctx.record_hovers and type(node) in (
            cst.Name,
            cst.Call,
            cst.Attribute,
            cst.Subscript,
            cst.BinaryOperation,
        ):
            self.ctx.hovers[id(node)] = value
            self.ctx.hover_nodes[id(node)] = node
        return value

    @_expression(cst.Name)
    def _name(self, node: cst.Name) -> Value:
        return self.lookup(node.value, node)

    @_expression(cst.Call)
    def _call(self, node: cst.Call) -> Value:
        if self.scope.size_reads and type(node.func) is cst.Attribute and type(node.func.value) is cst.Name:
            if node.func.attr.value in ("reshape", "view"):
                self._check_reshape_reorders(node)
            elif node.func.attr.value.endswith("_"):
                _forget_size_reads(self.scope.size_reads, node.func.value.value)  # x.transpose_(1, 2) in place
        if (
            type(node.func) is cst.Name
            and node.func.value in ("list", "tuple")
            and len(node.args) == 1
            and type(node.args[0].value) is cst.Call
        ):
            # ``list(batches(...))`` iterates the generator call to its end, as a ``for`` over it does
            # (module._enumerated reads it)
            outer = self.iterating
            self.iterating = node
            try:
                return self.m.call(self, node)
            finally:
                self.iterating = outer
        return self.m.call(self, node)

    def _record_size_reads(self, target: cst.BaseExpression, node: cst.BaseExpression) -> None:
        """Remember which names hold which axis sizes of a tensor variable: ``b, f, t = x.shape`` (or
        ``x.size()``, no starred name) and ``t = x.shape[2]`` / ``t = x.size(-1)`` of a tensor of known rank
        (SHP402, ``_check_reshape_reorders``)."""
        reads: list[tuple[str, str, int, int]] = []  # (name, tensor variable, axis, rank)
        if type(target) is cst.Tuple or type(target) is cst.List:
            src = _shape_of(node)
            if src is None or any(type(e) is not cst.Element or type(e.value) is not cst.Name for e in target.elements):
                return
            n = len(target.elements)
            names = [e.value.value for e in target.elements]  # type: ignore[attr-defined]
            if src in names:
                return  # ``x, y = x.shape``: x is bound again
            reads = [(nm, src, i, n) for i, nm in enumerate(names) if nm != "_"]
        elif type(target) is cst.Name:
            one = _one_size_of(node)
            if one is None or one[0] == target.value:
                return
            t = self.scope.vars.get(one[0])
            if not isinstance(t, TensorV) or t.shape is None or t.alts:
                return
            rank = len(t.shape)
            if not -rank <= one[1] < rank:
                return
            reads = [(target.value, one[0], one[1] % rank, rank)]
        if not reads:
            return
        t = self.scope.vars.get(reads[0][1], UNKNOWN)  # a tensor, or a value unknown (``x.size()`` narrows nothing)
        if not (t is UNKNOWN or isinstance(t, TensorV)) or (
            isinstance(t, TensorV) and t.shape is not None and len(t.shape) != reads[0][3]
        ):
            return
        for nm, src, axis, rank in reads:
            self.scope.size_reads[nm] = (src, axis, rank, t, self.scope.vars.get(nm, UNKNOWN))

    def _check_reshape_reorders(self, node: cst.Call) -> None:
        """SHP402: ``b, f, t = x.shape`` then ``x.reshape(b, t, f)``: the sizes of x's own axes (by the names they
        were read into, not by equal values) asked for in another order. A reshape keeps the elements in their
        order: the result reads the frequency bins as frames where a transpose was meant. Sizes may be grouped
        (``x.view(b, h * w, c)`` of a ``b c h w`` x), one may be -1 (the axes no name covers), a literal 1 adds an
        axis; the reshape must account for every axis of x exactly once. Silent when the axes of sizes other than
        a known 1 keep their order, and when the result's shape is provably x's own (the moved sizes equal)."""
        func = node.func
        assert type(func) is cst.Attribute and type(func.value) is cst.Name
        src = func.value.value
        items: list[cst.BaseExpression] = []
        if len(node.args) == 1 and type(node.args[0].value) in (cst.Tuple, cst.List):
            items = [e.value for e in node.args[0].value.elements if type(e) is cst.Element]  # type: ignore[attr-defined]
            if len(items) != len(node.args[0].value.elements):  # type: ignore[attr-defined]
                return
        elif all(a.keyword is None and not a.star for a in node.args):
            items = [a.value for a in node.args]
        if len(items) < 2:
            return
        reads = self.scope.size_reads
        groups: list[list[int] | None] = []  # None: the -1
        rank = None
        tensor = None
        for item in items:
            lit = _int_literal(item)
            if lit == 1:
                continue
            if lit == -1:
                if None in groups:
                    return
                groups.append(None)
                continue
            factors = _product_names(item)
            if factors is None:
                return
            group = []
            for nm in factors:
                r = reads.get(nm)
                if r is None or r[0] != src:
                    return
                if rank is not None and (r[2] != rank or r[3] is not tensor):
                    return
                rank, tensor = r[2], r[3]
                now = self.scope.vars.get(nm, UNKNOWN)
                if now is not r[4] and now is not UNKNOWN:
                    return  # the name was joined with another value (a branch)
                group.append(r[1])
            groups.append(group)
        if rank is None or tensor is None or self.scope.vars.get(src, UNKNOWN) is not tensor:
            return
        covered = [a for g in groups if g is not None for a in g]
        if len(set(covered)) != len(covered):
            return
        rest = sorted(set(range(rank)) - set(covered))
        shown = list(groups)
        if None in groups:
            if not rest:
                return
            groups = [rest if g is None else g for g in groups]
        elif rest:
            return  # sizes of x no name covers: not a reshape of x's own axes (SHP204 where the counts differ)
        if any(g is None or len(g) != 1 for g in groups):
            # a merge (``x.view(b, h * w, c)`` of a ``b c h w`` x) is right where the axis it moves has size 1, and
            # real code relies on that (a grayscale image's pixels as (b, n, 1) for a histogram): only a
            # permutation of x's own axes, one name (or the -1 of one axis) each, is reported
            return
        shape = tensor.shape if isinstance(tensor, TensorV) and not tensor.alts else None
        order = [a for g in groups if g is not None for a in sorted(g)]
        if shape is not None:
            order = [a for a in order if shape[a].as_int() != 1]
        if order == sorted(order):
            return
        if (
            shape is not None
            and len(groups) == rank
            and all(
                g is not None and len(g) == 1 and equal(shape[g[0]], shape[i]) is Truth.TRUE
                for i, g in enumerate(groups)
            )
        ):
            return  # the result's shape is x's own: the names say nothing about which axis is which
        if _reshaped_again(self.m, node):
            return  # a memory trick (Transformer-XL's relative shift): the reinterpreted data are reshaped again
        names = {r[1]: nm for nm, r in reads.items() if r[0] == src and r[3] is tensor}
        source = ", ".join(names.get(i, "?") for i in range(rank))
        target = ", ".join(" * ".join(names.get(a, "?") for a in g) if g is not None else "-1" for g in shown)
        self.ctx.report(
            node,
            "SHP402",
            {"op": f"{src}.{func.attr.value}", "source": source, "target": target},
            [f"{src}'s axes are ({source}); moving them needs {src}.permute(...) (or transpose) before the reshape"],
        )

    @_expression(cst.Integer)
    def _integer(self, node: cst.Integer) -> Value:
        literal = _int_literal(node)
        return IntV(Size.const(literal)) if literal is not None else UNKNOWN

    @_expression(cst.Float)
    def _float(self, node: cst.Float) -> Value:
        try:
            return FloatV(float(node.value.replace("_", "")))
        except ValueError:
            return FloatV(None)

    @_expression(cst.SimpleString, cst.ConcatenatedString)
    def _string(self, node: cst.SimpleString | cst.ConcatenatedString) -> Value:
        # read once per node: libcst recomputes a string's prefix and quotes (regular expressions) at each access,
        # and the same literals (einops patterns, keys) are evaluated at every run of their function
        s = _memo("literal", node, _literal_of)
        return StrV(s) if s is not None else UNKNOWN

    @_expression(cst.FormattedString)
    def _fstring(self, node: cst.FormattedString) -> Value:
        # its value when every replacement field is a known string or int, written plainly (no conversion, format
        # spec or ``=``): ``f'b n (h d) -> {ein_rhs_eq}'`` with ``ein_rhs_eq`` decided is an einops pattern
        out: list[str | None] | None = []
        raw = "r" in node.prefix.lower()
        for part in node.parts:
            if type(part) is cst.FormattedStringExpression:
                v = self.eval(part.expression)
                spec = _format_spec(part.format_spec) if part.format_spec is not None else ""
                if out is None or part.conversion is not None or spec is None or part.equal:
                    out = None
                elif isinstance(v, StrV) and v.value is not None:
                    out.append(_formatted(v.value, spec))
                elif isinstance(v, IntV) and v.size.as_int() is not None and not v.assumed:
                    out.append(_formatted(cast(int, v.size.as_int()), spec))
                else:
                    out = None
                if out is not None and None in out:
                    out = None
            elif out is not None and type(part) is cst.FormattedStringText:
                if "\\" in part.value and not raw:
                    out = None  # an escape sequence: not decoded here
                else:
                    out.append(part.value.replace("{{", "{").replace("}}", "}"))
        return StrV("".join(cast(list[str], out))) if out is not None else UNKNOWN

    @_expression(cst.UnaryOperation)
    def _unary(self, node: cst.UnaryOperation) -> Value:
        inner = self.eval(node.expression)
        if type(node.operator) is cst.Minus and isinstance(inner, IntV):
            return IntV(-inner.size)
        if type(node.operator) is cst.Minus and isinstance(inner, FloatV):
            return FloatV(None if inner.value is None else -inner.value)
        if type(node.operator) in (cst.Minus, cst.Plus, cst.BitInvert) and isinstance(inner, TensorV):
            return inner
        if type(node.operator) is cst.Plus:
            return inner
        if type(node.operator) is cst.Not:
            truth = _truth(inner)
            return BoolV(None if truth is None else not truth)
        return UNKNOWN

    @_expression(cst.Tuple, cst.List)
    def _sequence(self, node: cst.Tuple | cst.List) -> Value:
        items: list[Value] = []
        for e in node.elements:
            v = self.eval(e.value)
            if type(e) is cst.StarredElement:
                if isinstance(v, SeqV):
                    items.extend(v.items)
                    continue
                for rest in node.elements:
                    self.eval(rest.value)
                return UNKNOWN
            items.append(v)
        return SeqV(tuple(items), "tuple" if type(node) is cst.Tuple else "list")

    @_expression(cst.Set)
    def _set(self, node: cst.Set) -> Value:
        """``{BatchNormAct2d, GroupNormAct}``: a set of classes, ``functools.partial`` objects and defs (a membership
        test of a class decides by identity: ``_class_in_set``); any other set is unknown."""
        items: list[Value] = []
        for e in node.elements:
            v = self.eval(e.value)
            if type(e) is cst.StarredElement:
                items.append(UNKNOWN)
            else:
                items.append(v)
        return self._class_set(items)

    def _class_set(self, items: Sequence[Value]) -> Value:
        out: list[Value] = []
        for v in items:
            key = self._class_key(v)
            if key is not None:
                v = RefV("class:" + key)
            elif not _set_member_kind(v):
                return UNKNOWN
            if v not in out:
                out.append(v)
        return SeqV(tuple(out), "set") if out else UNKNOWN

    def _class_in_set(self, a: Value, members: SeqV) -> bool | None:
        """``norm_layer in _NORM_ACT_TYPES`` of a set of classes, partials and defs: a class is in it when it is one
        of them (one key per class of the analysed code; a torch.nn class is none of them); anything else: unknown."""
        if isinstance(a, RefV) and a.qualname.startswith("torch.nn.") and a.qualname.rsplit(".", 1)[-1][:1].isupper():
            if a in members.items:
                return True
            return False if all(_set_member_kind(m) for m in members.items) else None
        key = self._class_key(a)
        if key is None:
            return None
        return RefV("class:" + key) in members.items

    def _same_class(self, a: Value, op: cst.CSTNode, b: Value) -> bool | None:
        """``cls == HATBlock`` (``is``, ``!=``, ``is not``) of two classes of the analysed code: one class is equal to
        itself only (a class compares by identity); None when either is not one."""
        x, y = self._class_key(a), self._class_key(b)
        if x is None or y is None:
            return None
        return (x == y) == (type(op) in (cst.Is, cst.Equal))

    def _class_key(self, v: Value) -> str | None:
        """The key of the analysed code's class ``v`` stands for (one key per class, whatever name imported it)."""
        if not isinstance(v, RefV):
            return None
        if v.qualname.startswith("class:"):
            return v.qualname[6:]
        project = getattr(self.m, "project", None)
        found = project.lookup(v.qualname) if project is not None else None
        return found.qualname[6:] if isinstance(found, RefV) and found.qualname.startswith("class:") else None

    @_expression(cst.BinaryOperation)
    def _binary_operation(self, node: cst.BinaryOperation) -> Value:
        left = self.eval(node.left)
        right = self.eval(node.right)
        return self.binary(node, left, node.operator, right)

    @_expression(cst.BooleanOperation)
    def _boolean_operation(self, node: cst.BooleanOperation) -> Value:
        a = self.eval(node.left)
        ta = _truth(a)
        if ta is not None:  # short-circuits as Python does: `dim_out or dim`, `exists(x) and x.ndim == 3`
            decided = ta if type(node.operator) is cst.Or else not ta
            return a if decided else self.eval(node.right)
        b = self.eval(node.right)
        tb = _truth(b)
        if isinstance(a, BoolV) and isinstance(b, BoolV):
            if type(node.operator) is cst.And:
                return BoolV(False if False in (ta, tb) else (True if ta is True and tb is True else None))
            return BoolV(True if True in (ta, tb) else (False if ta is False and tb is False else None))
        if a is UNKNOWN and isinstance(b, BoolV) and tb is (type(node.operator) is not cst.And):
            # `self.training and self.quantize_dropout` with the flag False: falsy whichever side it returns
            return BoolV(tb)
        return join(a, b) if not isinstance(a, (BoolV, NoneV)) else UNKNOWN

    @_expression(cst.IfExp)
    def _if_exp(self, node: cst.IfExp) -> Value:

        truth = _truth(self.eval(node.test))
        # each side runs with what the test says of the variables there, as an ``if`` statement's branches do
        # (``rearrange(t, "-> 1 1") if t.ndim == 0 else ...``: t is 0-d on the left)
        yes, no = narrow(self, node.test)
        if truth is not None:
            return self._refined_eval(node.body if truth else node.orelse, yes if truth else no)
        with self.ctx.maybe_taken(None):
            body, orelse = self._refined_eval(node.body, yes), self._refined_eval(node.orelse, no)
        out = join(body, orelse)
        if out is UNKNOWN and self.frame.building and (isinstance(body, NoneV) or isinstance(orelse, NoneV)):
            other = orelse if isinstance(body, NoneV) else body
            if other is not UNKNOWN and not isinstance(other, NoneV):
                self.if_alt = (node, other)
        return out

    def _refined_eval(self, node: cst.BaseExpression, refinement: dict[str, Value]) -> Value:
        """``node``'s value with ``refinement`` applied to the variables while it is evaluated (then undone, unless
        the expression bound one of them again: ``(x := ...)``)."""
        if not refinement:
            return self.eval(node)
        vars_ = self.scope.vars
        saved = {k: vars_.get(k) for k in refinement}
        vars_.update(refinement)
        try:
            return self.eval(node)
        finally:
            for k, old in saved.items():
                if vars_.get(k) is refinement[k]:
                    if old is None:
                        vars_.pop(k, None)
                    else:
                        vars_[k] = old

    @_expression(cst.Lambda)
    def _lambda(self, node: cst.Lambda) -> Value:
        if id(node) in self.live_lambdas:
            v = self.m.local_lambda(node, self.frame, self.scope.vars, live=True)
            self.live_made.append(v)
            return v
        return self.m.local_lambda(node, self.frame, self.scope.vars)

    @_expression(cst.Yield)
    def _yield(self, node: cst.Yield) -> Value:
        """``yield v`` evaluates v (what fails there fails when the generator runs) and hands it to the loop that
        iterates the generator; ``yield from xs`` hands on each element of xs. The value sent back: unknown."""
        if node.value is None:
            self.scope.yields.append(NoneV())
        elif isinstance(node.value, cst.From):
            elem = _common_element(self.eval(node.value.item))
            self.scope.yields.append(elem if elem is not None else UNKNOWN)
        else:
            self.scope.yields.append(self.eval(node.value))
        return UNKNOWN

    @_expression(cst.Ellipsis)
    def _ellipsis(self, node: cst.Ellipsis) -> Value:
        return RefV("builtins.Ellipsis")

    @_expression(cst.Dict)
    def _dict(self, node: cst.Dict) -> Value:
        """A dict display: string keys (``**d`` of a known string-keyed dict merges its entries, later keys winning
        as in Python: ``{**PRESETS[name], **overrides}``) or int keys; anything else is unknown."""
        entries: dict[str, Value] | None = {}
        ints: list[tuple[int, Value]] | None = []
        for el in node.elements:
            if type(el) is cst.DictElement:
                k = self.eval(el.key)
                v = self.eval(el.value)
                if isinstance(k, StrV) and entries is not None:
                    entries[k.value] = v
                else:
                    entries = None
                n = k.size.as_int() if isinstance(k, IntV) and not k.assumed else None
                if n is not None and ints is not None:
                    ints.append((n, v))
                else:
                    ints = None
            else:
                merged = self.eval(el.value)
                ints = None
                if isinstance(merged, DictV) and merged.kind == "dict" and entries is not None:
                    entries.update(merged.items)
                else:
                    entries = None
        if ints:
            return IntDictV(tuple(ints))
        return DictV(tuple(entries.items())) if entries is not None else UNKNOWN

    @_expression(cst.DictComp)
    def _dict_comp(self, node: cst.DictComp) -> Value:
        """``{name: head(dim, n) for name, n in tasks.items()}`` over a sequence of known items (one ``for``, its
        ``if`` filters decided for each item): a dict of what each iteration builds, when every key is a known string
        (later keys win, as in Python); anything else is unknown."""
        comp = node.for_in
        it = self.eval(comp.iter)
        if isinstance(it, DictV) and it.kind == "dict":
            it = SeqV(tuple(StrV(k) for k, _ in it.items), "list")  # ``{k: chunks[k][i] for k in batch}``: its keys
        if comp.inner_for_in is not None or not isinstance(it, SeqV) or comp.asynchronous is not None:
            # not known, and not run: an object a method call in its entries is called on may have changed
            # (``{name: c.tick() for name in names}``), so what names one is not known after it
            own: set[str] = set()
            c: cst.CompFor | None = comp
            while c is not None:
                own |= _target_names(c.target)
                c = c.inner_for_in
            for name in memo("comprehension-call-roots", node, _call_roots) - own:
                if isinstance(self.scope.vars.get(name), (ObjV, DictV, SeqV, ManyV, IntDictV)):
                    self.scope.vars[name] = UNKNOWN
            return UNKNOWN
        saved = dict(self.scope.vars)
        entries: dict[str, Value] | None = {}
        ints: dict[int, Value] | None = {}  # (``{r: channels_at(r) for r in resolutions}``: known int keys)
        for item in it.items:
            self.assign(comp.target, item)
            kept = [self.eval(c.test) for c in comp.ifs]
            if any(not isinstance(t, BoolV) or t.value is None for t in kept):
                entries = ints = None  # a filter the analysis cannot decide for this item
                break
            if not all(isinstance(t, BoolV) and t.value for t in kept):
                continue
            k, v = self.eval(node.key), self.eval(node.value)
            n = k.size.as_int() if type(k) is IntV and not k.assumed else None
            if entries is not None and isinstance(k, StrV):
                entries[k.value] = v
                ints = None
            elif ints is not None and n is not None:
                ints[n] = v
                entries = None
            else:
                entries = ints = None
                break
        # (every item run in order, or some left out: what a call there changed is then not known)
        self._leave_comprehension(saved, comp, entries is None and ints is None)
        if ints:
            return IntDictV(tuple(ints.items()))
        return DictV(tuple(entries.items())) if entries is not None else UNKNOWN

    @_expression(cst.NamedExpr)
    def _named_expr(self, node: cst.NamedExpr) -> Value:
        v = self.eval(node.value)
        self.assign(node.target, v)
        return v

    @_expression(cst.Await)
    def _await(self, node: cst.Await) -> Value:
        self.eval(node.expression)
        return UNKNOWN

    @_expression(cst.Comparison)
    def comparison(self, node: cst.Comparison) -> Value:
        exact = self._type_test(node)
        if exact is not None:
            return exact
        left = self.eval(node.left)
        if len(node.comparisons) == 1 and type(node.comparisons[0].operator) in _ORDER_OPS:
            right = self.eval(node.comparisons[0].comparator)
            op = node.comparisons[0].operator
            if _compared_elementwise(left, op, right):
                # shapes that cannot broadcast fail as they do in arithmetic (reported there), else a bool tensor
                out = self.m.tensor_binary(self, node, left, op, right)
                return out.with_dtype("bool") if isinstance(out, TensorV) else out
            t = _tensor_comparison(left, right)
            if t is not None:
                return t
            r = _compare(left, op, right)
            if r is None and type(op) in (cst.Equal, cst.NotEqual):
                r = self._same_class(left, op, right)
            if r is None and _maybe_tensor_comparison(left, right):
                # ``u >= v`` of values that may be tensors: a bool or a bool tensor (torch.as_tensor(u >= v) is not
                # a 0-d tensor)
                return UNKNOWN
            return BoolV(r)
        result: bool | None = True
        left_node: cst.BaseExpression = node.left
        for c in node.comparisons:
            right = self.eval(c.comparator)
            r = _compare(left, c.operator, right)
            if (
                r is None
                and type(c.operator) in (cst.In, cst.NotIn)
                and isinstance(right, SeqV)
                and right.kind == "set"
            ):
                # (a known string is in a set by value; a class, partial or def of the set never equals it)
                r = (
                    any(isinstance(x, StrV) and x.value == left.value for x in right.items)
                    if isinstance(left, StrV)
                    else self._class_in_set(left, right)
                )
                r = r if r is None or type(c.operator) is cst.In else not r
            if r is None and type(c.operator) in (cst.Is, cst.IsNot):
                r = _bool_identity(left_node, left, c.operator, c.comparator, right)
            if r is None and type(c.operator) in (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual):
                r = self._same_class(left, c.operator, right)
            left_node = c.comparator
            if r is False:
                result = False
            elif r is None and result is not False:
                result = None
            left = right
        return BoolV(result)

    def _type_test(self, node: cst.Comparison) -> BoolV | None:
        """``type(p) == tuple`` (``is``, ``!=``, ``is not``) with Python's builtins, where the value decides its exact
        class: a plain tuple or list display, a string, None, a bool. A number is never a container, but whether
        it is exactly ``int`` is not decided (a numpy integer is not); anything else: None (evaluated as before)."""
        if len(node.comparisons) != 1 or type(node.left) is not cst.Call:
            return None
        call, comp = node.left, node.comparisons[0]
        op, right = comp.operator, comp.comparator
        if not (
            type(call.func) is cst.Name
            and call.func.value == "type"
            and len(call.args) == 1
            and call.args[0].keyword is None
            and not call.args[0].star
            and type(right) is cst.Name
            and right.value in ("tuple", "list", "str", "dict", "int", "float", "bool")
            and type(op) in (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)
        ):
            return None
        for name in ("type", right.value):  # Python's builtins: no local, global or import binds the names
            if name in self.scope.vars or name in self.m.globals or name in self.m.imports.names:
                return None
        v = self.eval(call.args[0].value)
        kind: str | None = None
        if isinstance(v, SeqV) and v.kind in ("tuple", "list") and v.names is None:
            kind = v.kind
        elif isinstance(v, StrV):
            kind = "str"
        elif isinstance(v, NoneV):
            kind = "NoneType"
        elif isinstance(v, BoolV):
            kind = "bool"
        elif isinstance(v, (IntV, FloatV)) and right.value in ("tuple", "list", "str", "dict"):
            kind = "number"
        if kind is None:
            return None
        same = kind == right.value
        return BoolV(same if type(op) in (cst.Equal, cst.Is) else not same)

    def lookup(self, name: str, node: cst.CSTNode | None = None) -> Value:
        if self.shared_names and name in self.shared_names:
            return UNKNOWN
        if name in self.scope.vars:
            return self.scope.vars[name]
        if name == "None":
            return NoneV()
        if name in ("True", "False"):
            return BoolV(name == "True")
        if name == "self" and self.frame.self_value is not None:
            return self.frame.self_value
        value = self.m.global_value(name)
        if name == "__file__" and value is UNKNOWN and name not in self.m.globals:
            return _module_file(self.m.path)
        if (
            value is UNKNOWN
            and name in BUILTIN_EXCEPTIONS
            and name not in self.m.globals
            and name not in self.m.imports.names
        ):
            # ``error_expected=AssertionError`` of a parametrize case: a class, true in ``if error_expected:``
            return RefV(f"builtins.{name}")
        if value is UNKNOWN and name == "Ellipsis" and name not in self.m.globals and name not in self.m.imports.names:
            return RefV("builtins.Ellipsis")  # ``scales[(*((None,) * (x.ndim - 1)), Ellipsis)]``: what ``...`` is
        if (
            isinstance(value, DictV)
            and not value.items
            and value.kind == "dict"
            and self.frame.key != "<module>"
            and (entries := self.m.param_registry_contents(name)) is not None
        ):
            return entries  # ``build_from_cfg(cfg, HEADS)``: the classes ``@register(HEADS)`` registered
        if (
            self.frame.key != "<module>"
            and name not in self.m.globals
            and (entries := self.m.imported_param_registry(name)) is not None
        ):
            return entries  # ``from .registry import BACKBONES`` in a builder: the registry's entries, as there
        if (
            (
                (isinstance(value, (SeqV, ManyV)) and value.kind == "list")
                or isinstance(value, IntDictV)
                # (a compiled regular expression, a match, a path: immutable, regex_calls, path_values)
                or (isinstance(value, DictV) and value.kind not in ("regex", "match", "path"))
            )
            and self.frame.key != "<module>"
            and not self.m.stable_global(name)
        ):
            if isinstance(value, DictV):
                entries = self.m.registry_contents(name)
                if entries is not None:
                    return entries  # ``sorted(_model_entrypoints)`` in list_models(): every entry known
            return UNKNOWN  # a module-level list any function may have filled since
        if self.frame.key != "<module>" and name in self.m.globals and self.m.rebound_global(name):
            return UNKNOWN  # ``global DIM; DIM = d`` in some function: that function may have run since
        if isinstance(value, ObjV):
            value = self.m.patched_instance(name, value, self.frame.key != "<module>")
        return value

    @_expression(cst.Attribute)
    def attribute(self, node: cst.Attribute, base: Value | None = None) -> Value:
        """``base``: the value of ``node.value`` when the caller evaluated it already (a method call that no rule
        took): evaluating it again would run a call in it twice, and report what fails there twice."""
        v = self._attribute(node, base)
        if isinstance(v, FuncV) and v.bound_self is not None:
            fi = self.m.find_function(v.key)
            # (``functools.cached_property``: the same value, computed on the first read)
            if fi is not None and any(
                _decorator_name(d) in ("property", "cached_property") for d in fi.node.decorators
            ):
                if self.frame.building and type(node.value) is cst.Name and node.value.value == "self":
                    return self.m.call_on_building_self(self, node, fi, [], {})  # type: ignore[arg-type]
                return self.m.call_function(self, node, v, [], {})  # type: ignore[arg-type]
        return v

    def _torch_class(self, cls_key: str | None) -> "ClassInfo | None":
        """The class ``cls_key`` of the analysed code when it is a torch module (a torch.nn base), else None."""
        ci = self.m.find_class(cls_key) if cls_key is not None else None
        if ci is None or not any(b.startswith("torch.nn.") for b in foreign_bases(ci.module, ci)):
            return None
        return ci

    def built_in_train_mode(self, cls_key: str) -> bool:
        """Is a torch module of the class ``cls_key`` (of the analysed code) in train mode when just built: torch's
        default, unless a constructor of its classes sets the mode (``self.eval()`` in ``__init__``)?"""
        ci = self._torch_class(cls_key)
        if ci is None:
            return False
        for c in objects.mro(cast(Any, ci.module), ci):
            init = c.methods.get("__init__")
            if init is not None and memo("mode-receivers", init.node.body, _mode_receivers):
                return False
        return True

    def keeps_torch_train(self, cls_key: str | None) -> bool:
        """Does the class ``cls_key`` (of the analysed code, a torch module) leave ``train`` as torch's?"""
        ci = self._torch_class(cls_key)
        return ci is not None and objects.find_method(cast(Any, ci.module), ci, "train") is None

    def in_eval_mode(self) -> bool:
        """This body runs after ``self.eval()`` in its own or a calling body: ``<module>.training`` is False."""
        v = self.scope.vars.get(TRAINING_KEY)
        return (EVAL_MODE[0] > 0 and not TRAIN_MODE[0]) or (isinstance(v, BoolV) and v.value is False)

    def _chained_mode(self, node: cst.BaseExpression) -> bool | None:
        """``X.eval()`` -> False; ``X.train()`` / ``X.train(True)`` -> True; anything else None."""
        if type(node) is not cst.Call or type(node.func) is not cst.Attribute:
            return None
        name = node.func.attr.value
        if name == "eval" and not node.args:
            return False
        if name == "train" and not node.args:
            return True
        if name == "train" and len(node.args) == 1 and node.args[0].keyword is None:
            with self.ctx.discarding():  # (evaluated, and reported, with the call already)
                return True if _truth(self.eval(node.args[0].value)) is True else None
        return None

    def _freshly_built(self, name: str, call: cst.BaseExpression, value: Value) -> bool:
        """``name = Cls(...)`` with ``Cls`` a torch module class of the analysed code, in a body (a function's, or
        the module's) that sets no other name's mode (``.eval()`` / ``.train(...)`` only on ``name`` itself): the
        object is in train mode until ``name`` is bound again or its mode set; no alias, container or attribute
        through which some other call could set it has its mode set here."""
        if type(call) is not cst.Call or not isinstance(value, ObjV) or not value.concrete:
            return False
        if type(call.func) is not cst.Name and type(call.func) is not cst.Attribute:
            return False
        with self.ctx.discarding():
            made_by = self.eval(call.func)
        cls_name = value.cls_key.rpartition(":")[2]
        if not isinstance(made_by, RefV) or not (
            made_by.qualname == "class:" + value.cls_key or made_by.qualname.endswith("." + cls_name)
        ):
            return False  # (a class of this module, or one imported: not a function that builds it)
        if not self.built_in_train_mode(value.cls_key):
            return False
        fi = self.m.find_function(self.frame.key) if self.frame.key != "<module>" else None
        body = fi.node.body if fi is not None else cast(Any, self.m).tree
        return memo("mode-receivers", body, _mode_receivers) <= {name} and name in memo(
            "plainly-called", body, _plainly_called
        )

    def in_train_mode(self) -> bool:
        """This body runs in a call made through a variable or attribute ``model.train()`` put in train mode (and in
        no call made in eval mode): ``<module>.training`` is True, for a module whose class leaves ``train`` as
        torch's."""
        v = self.scope.vars.get(TRAINING_KEY)
        if isinstance(v, BoolV) and v.value is True:
            return True  # (``self.train()`` in this body)
        return TRAIN_MODE[0] > 0 and not EVAL_MODE[0] and TRAINING_KEY not in self.scope.vars

    def _fresh_read(self, node: cst.Attribute, obj: ObjV, attr: str) -> Value | None:
        """``model.num_classes`` in the test of the statement right after ``model = create_fn(**kwargs)``, the test
        made of names, constants, comparisons and reads of the model's attributes only (no call, index or operator
        that could run code): the constructor's value of an attribute other methods reassign (ObjV.fresh), when the
        call built the object -- a class of the analysed code, or a function whose every ``return`` is a call of that
        class -- and nothing has run since. A number, a string, None or a tuple of them only."""
        assert self.fresh_window is not None
        name, call, test, stored = self.fresh_window
        if type(node.value) is not cst.Name or node.value.value != name or self.scope.vars.get(name) is not obj:
            return None
        if attr in stored:
            return None  # (``model.num_classes = 10`` before the test)
        ci = self.m.find_class(obj.cls_key)
        if ci is None or not objects.plain_fresh_object(ci, stored):
            return None  # (a metaclass, a property, a descriptor or a ``__setattr__`` may run code on the object)
        if not contains(test, node) or not _plain_test(test, name):
            return None
        got = next((v for k, v in obj.fresh if k == attr), None)
        if got is None or not _plain_value(got) or not obj.concrete:
            return None
        with self.ctx.discarding():
            made_by = self.eval(call.func)
        if isinstance(made_by, RefV) and made_by.qualname == "class:" + obj.cls_key:
            return got
        fi = self.m.find_function(made_by.key) if isinstance(made_by, FuncV) and made_by.bound_self is None else None
        if fi is None or fi.has_unknown_decorators or not _returns_only_built(fi, obj.cls_key):
            return None
        return got

    def _attribute(self, node: cst.Attribute, evaluated: Value | None = None) -> Value:
        attr = node.attr.value
        if attr == "training" and (owner := _var_key(node.value)) is not None:
            set_mode = self.scope.vars.get(mode_key(owner))
            if isinstance(set_mode, BoolV):
                return set_mode  # ``model.training`` after ``model.eval()`` / ``model.train()``
        if attr == "training" and self.in_eval_mode():
            if type(node.value) is cst.Name and node.value.value == "self" and self.frame.cls_key is not None:
                return BoolV(False)
            evaluated = self.eval(node.value) if evaluated is None else evaluated
            if isinstance(evaluated, (ObjV, LayerV)):
                return BoolV(False)
        if attr == "training" and self.in_train_mode():
            evaluated = self.eval(node.value) if evaluated is None else evaluated
            if isinstance(evaluated, LayerV) or (
                isinstance(evaluated, ObjV)
                and evaluated.attr("train") is None
                and (ci := self.m.find_class(evaluated.cls_key)) is not None
                and objects.find_method(ci.module, ci, "train") is None
            ):
                return BoolV(True)
        if type(node.value) is cst.Name and node.value.value == "self" and self.frame.cls_key is not None:
            key = f"self.{attr}"
            if key in self.scope.vars:
                return self.scope.vars[key]
            sv = self.frame.self_value
            if isinstance(sv, ObjV) and (
                sv.concrete or sv.attr(attr) is not None
            ):  # (a keras layer's built attributes)
                return self.m.object_attr(sv, attr)
            # the object's own class, not the method's: a base class's method run on a subclass object calls the
            # subclass's override (``self.encode(x)`` in AutoEncoder.forward of a MaskedAutoEncoder)
            return self.m.class_attr(sv.cls_key if isinstance(sv, ObjV) else self.frame.cls_key, attr)
        base = self.eval(node.value) if evaluated is None else evaluated
        if attr == "__name__" and isinstance(base, RefV) and base.qualname.startswith(("class:", "torch.nn.")):
            # a class's own name (``norm_layer.__name__.lower().startswith("batchnorm")``), whatever name held it
            # (a class of the analysed code is ``class:module:Qual.Name``: its name is after the last colon and dot)
            name = base.qualname.rsplit(":", 1)[-1].rsplit(".", 1)[-1]
            if base.qualname.startswith("class:") or name[:1].isupper():  # (torch.nn.functional: a module)
                return StrV(name)
        if attr == "__bases__" and isinstance(base, RefV):
            bases = _torch_nn_bases(base)  # ``layer.__bases__[0] is _ConvNd`` of ``layer=nn.Conv2d``
            if bases is not None:
                return bases
        if isinstance(base, RefV) and base.qualname.startswith("class:"):
            if attr == "apply":
                forward = cast(Any, self.m)._autograd_forward(self, node.value)
                if forward is not None:
                    # pscan = PScan.apply: a torch.autograd.Function's static forward, its ``ctx`` given
                    # (module._call runs ``PScan.apply(a, x)`` the same way)
                    fv, takes_ctx = forward
                    return LayerV("partial", (("func", fv), ("args", (UNKNOWN,) if takes_ctx else ()), ("kwargs", ())))
            member = _enum_member(self.m, base.qualname[6:], attr)
            if member is not None:
                return member  # Expect.RAISE of ``class Expect(Enum)``: that member, itself
            return self.m.object_attr(ObjV(base.qualname[6:], (), True), attr)  # Config.dim: a class attribute
        if isinstance(base, RefV) and base.qualname == FINFO:
            return FloatV(None) if attr in FINFO_FLOATS else UNKNOWN  # torch.finfo(x.dtype).min: a Python float
        if isinstance(base, RefV):
            v = self.m.qualified_value(f"{base.qualname}.{attr}")
            if (
                v is not UNKNOWN
                and not isinstance(v, RefV)
                and type(node.value) is cst.Name
                and self.m.patched_class_attr(node.value.value, attr)
            ):
                return UNKNOWN  # ``Config.dim = args.dim`` here, Config imported: not the value its module gives
            return v
        if isinstance(base, TensorV):
            return self.m.tensor_attribute(self, node, base, attr)
        if isinstance(base, ObjV):
            if attr in ("apply", "init"):
                bound = self.m.flax_bound_method(base, attr)  # jax.jit(model.apply): the bound method, called later
                if bound is not None:
                    return bound
            if base.fresh and self.fresh_window is not None and type(node.value) is cst.Name:
                fresh = self._fresh_read(node, base, attr)
                if fresh is not None:
                    return fresh
            return self.m.object_attr(base, attr)
        if (
            isinstance(base, LayerV)
            and base.kind == "fw:Normal"
            and attr in ("mean", "stddev", "variance", "loc", "scale")
        ):
            shape = base.param("shape")  # torch.distributions.Normal(mu, std).mean: the batch shape
            return TensorV(shape, None, "torch") if isinstance(shape, tuple) else UNKNOWN
        if isinstance(base, LayerV) and base.kind == "haiku_transformed" and attr == "apply" and base.param("multi"):
            # hk.multi_transform(f).apply: one function per entry of the apply functions f returns
            n = self.m.multi_transform_applies(base)
            if n is None:
                return UNKNOWN
            return SeqV(tuple(LayerV("flax_method", (("obj", base), ("method", f"apply#{i}"))) for i in range(n)))
        if (
            isinstance(base, LayerV)
            and base.kind in ("linen_vmapped", "haiku_transformed")
            and attr in ("apply", "init")
        ):
            # jax.jit(model.apply) of a lifted module, jax.jit(net.init) of an hk.transform-ed function
            return LayerV("flax_method", (("obj", base), ("method", attr)))
        if isinstance(base, LayerV) and (fields := base.param("linen_fields")) is not None:
            return next((v for k, v in fields if k == attr), UNKNOWN)  # a flax.linen layer's dataclass fields
        if isinstance(base, LayerV) and attr == "weight":
            return _layer_weight(base)
        if isinstance(base, LayerV) and base.param("framework") == "jax" and attr in ("embedding", "kernel"):
            # flax.nnx's ``embed.embedding`` (num_embeddings, features), ``linear.kernel`` (in, out): the table and
            # the weight as nnx holds them (a Param, read as its array)
            if attr == "embedding" and base.kind == "Embedding" and base.param("n") is not None and base.param("d"):
                return TensorV((base.param("n"), base.param("d")), None, "jax")
            if attr == "kernel" and base.kind == "Linear" and base.param("in") is not None and base.param("out"):
                return TensorV((base.param("in"), base.param("out")), None, "jax")
            return UNKNOWN
        if isinstance(base, LayerV) and attr == "bias" and base.kind == "Linear" and base.param("bias") is False:
            return NoneV()  # nn.Linear(d, n, bias=False).bias
        if isinstance(base, LayerV) and attr == "bias" and base.kind == "Linear" and base.param("bias") is True:
            out = base.param("out")  # eqx.nn.Linear(d, n, use_bias=True).bias: (n,)
            return TensorV((out,), None, _weights_framework(base)) if isinstance(out, Size) else UNKNOWN
        if isinstance(base, LayerV) and attr in _LAYER_SIZE_ATTRS:
            return _layer_size(base, attr)
        if isinstance(base, DictV) and base.kind in ("moduledict", "namespace"):
            return base.get(attr)  # nn.ModuleDict(dict(wte=...)).wte, args.dim (argparse_defaults)
        if isinstance(base, DictV) and base.kind == "path":
            from . import path_values

            return path_values.attribute(base, attr)  # Path(__file__).parent
        if isinstance(base, SeqV) and base.names is not None:
            return base.items[base.names.index(attr)] if attr in base.names else UNKNOWN  # ret.indices (namedtuple)
        if isinstance(base, SeqV) and base.kind == "values_indices":
            from ..rules.multi_ops import pair_attribute

            return pair_attribute(base, attr)
        if isinstance(base, SeqV) and base.kind == "pack":
            from ..rules.multi_ops import pack_attribute

            return pack_attribute(self, node, attr)
        return UNKNOWN

    def _module_dict_entry(self, owner: cst.BaseExpression, key_node: cst.BaseExpression) -> Value | None:
        """``models.__dict__["deit_tiny"]`` (the model factories of training scripts, ``vits.__dict__[args.arch]``): a
        module's ``__dict__`` read by a known string is the name the module binds, here a function or class its own
        top level defines (the module of the analysed tree, found without analysing it); anything else is None."""
        with self.ctx.discarding():
            base = self.eval(owner)
        if not isinstance(base, RefV) or base.qualname.startswith("class:"):
            return None
        key = self.eval(key_node)
        if not isinstance(key, StrV) or key.value is None or not key.value.isidentifier():
            return None
        qualname = f"{base.qualname}.{key.value}"
        return self.m.qualified_value(qualname) if self.m.top_level_definition(qualname) else None

    @_expression(cst.Subscript)
    def subscript(self, node: cst.Subscript) -> Value:
        idx_nodes = node.slice
        if (
            type(node.value) is cst.Name
            and len(idx_nodes) == 1
            and type(idx_nodes[0].slice) is cst.Index
            and self.frame.key != "<module>"
            and node.value.value not in self.scope.vars
            and self.m.registry_entry(node.value.value, None) is not None
        ):
            # ``_entrypoints[name]``: a dict a registering decorator fills (registries.py), read by a known string
            found = self.m.registry_entry(node.value.value, self.eval(idx_nodes[0].slice.value))
            return found if found is not None else UNKNOWN
        if (
            type(node.value) is cst.Attribute
            and node.value.attr.value == "__dict__"
            and type(node.value.value) in (cst.Name, cst.Attribute)
            and len(idx_nodes) == 1
            and type(idx_nodes[0].slice) is cst.Index
        ):
            found = self._module_dict_entry(node.value.value, idx_nodes[0].slice.value)
            if found is not None:
                return found
        last = (
            node.value.value
            if type(node.value) is cst.Name
            else getattr(getattr(node.value, "attr", None), "value", "")
        )
        if last in _MONAI_FACTORIES and all(type(e.slice) is cst.Index for e in idx_nodes):
            # (the last name first: qualifying every subscript's base would cost a lookup on a hot path)
            factory = _MONAI_FACTORY.fullmatch(self.m.qualify(node.value) or "")
            if factory is not None:
                return self._monai_factory(factory.group(1), idx_nodes)
        base = self.eval(node.value)
        if type(base) is ObjV:
            first = idx_nodes[0].slice if len(idx_nodes) == 1 else None
            if base.concrete and type(first) is cst.Index:
                # ``ds[0]`` of a dataset of the analysed code: its class's own ``__getitem__`` run with that index
                got = self.m.item_of_object(self, node, base, self.eval(first.value))
                if got is not None:
                    return got
            modules = _chain_modules(base) if type(first) is cst.Index else None
            if modules is not None and type(first) is cst.Index:
                # ``self[0](tensor_list)`` in an nn.Sequential subclass (DETR's Joiner): the module at that index
                i = int_of(self.eval(first.value))
                return modules.items[i] if i is not None and -len(modules.items) <= i < len(modules.items) else UNKNOWN
            base = held_modules(base) or base  # ``self[i]`` in an nn.ModuleList subclass
        if isinstance(base, SeqV) and len(idx_nodes) == 1 and type(idx_nodes[0].slice) is cst.Index:
            idx = self.eval(idx_nodes[0].slice.value)
            i = int_of(idx)
            if i is not None and -len(base.items) <= i < len(base.items):
                return base.items[i]
            if i is not None and base.kind == "shape" and base.items and all(type(x) is IntV for x in base.items):
                # x.shape[-2] of a 1-d tensor: the shape tuple raises IndexError (the dims torch's size(d) takes)
                from ...diagnostics import details as D

                count = len(base.items)
                sizes = tuple(x.size for x in base.items)  # type: ignore[union-attr]
                self.ctx.report(
                    node,
                    "SHP204",
                    {"op": "shape[...]", "detail": D.DimRange(i, count, -count, count - 1)},
                    [f"the shape has {count} entries"],
                    spec=OpSpec("dim.range", None, (sizes,), (), (("dim", i), ("extra", 0))),
                )
                return UNKNOWN
            if i is None and base.kind in ("list", "modulelist", "tuple") and isinstance(idx, IntV):
                # xs[i]: one of the elements, whichever it is
                return self._one_of(base.items, 2) or elements_of(base) or UNKNOWN
            if isinstance(idx, SeqV) and idx.kind == "slice" and base.kind in ("list", "tuple", "shape"):
                known = _slice_bounds(idx)  # x.shape[expand_slice]: a slice object of known ints
                return SeqV(tuple(base.items[slice(*known)]), base.kind) if known is not None else UNKNOWN
            return UNKNOWN
        if isinstance(base, ManyV) and len(idx_nodes) == 1:
            if type(idx_nodes[0].slice) is cst.Index:
                idx = self.eval(idx_nodes[0].slice.value)
                return base.elem if isinstance(idx, IntV) and base.elem is not None else UNKNOWN
            return base
        if isinstance(base, SeqV) and len(idx_nodes) == 1 and type(idx_nodes[0].slice) is cst.Slice:
            sl = idx_nodes[0].slice
            bounds = [int_of(self.eval(x)) if x is not None else None for x in (sl.lower, sl.upper, sl.step)]
            if all(b is not None or x is None for b, x in zip(bounds, (sl.lower, sl.upper, sl.step))):
                return SeqV(tuple(base.items[slice(*bounds)]), base.kind)
            return UNKNOWN
        if isinstance(base, (DictV, StateDictV)) and len(idx_nodes) == 1 and type(idx_nodes[0].slice) is cst.Index:
            key = self.eval(idx_nodes[0].slice.value)
            if key is UNKNOWN and isinstance(base, DictV) and base.kind == "dict":
                # ``ATTENTION_MODES[attn_mode]`` of a mode not known: one of the classes (functions) it holds, an
                # "either" whose calls run each (what an option reports is dropped)
                return _any_entry(base)
            if not isinstance(key, StrV):
                return UNKNOWN
            if hooks.STATE.registered and isinstance(base, DictV) and all(k != key.value for k, _ in base.items):
                return self.hook_captured(node.value, key.value)
            return base.get(key.value)
        if isinstance(base, IntDictV) and len(idx_nodes) == 1 and type(idx_nodes[0].slice) is cst.Index:
            key = self.eval(idx_nodes[0].slice.value)
            n = key.size.as_int() if isinstance(key, IntV) and not key.assumed else None
            return base.get(n) if n is not None else UNKNOWN
        if isinstance(base, StrV) and len(idx_nodes) == 1:  # k[len(prefix):] of a known string
            part = idx_nodes[0].slice
            if type(part) is cst.Index:
                i = int_of(self.eval(part.value))
                return StrV(base.value[i]) if i is not None and -len(base.value) <= i < len(base.value) else UNKNOWN
            if type(part) is not cst.Slice:
                return UNKNOWN
            parts = (part.lower, part.upper, part.step)
            bounds = [int_of(self.eval(x)) if x is not None else None for x in parts]
            if all(b is not None or x is None for b, x in zip(bounds, parts)) and bounds[2] != 0:
                return StrV(base.value[slice(*bounds)])
            return UNKNOWN
        if isinstance(base, LayerV) and base.kind == "flax_variables" and len(idx_nodes) == 1:
            # ``variables["params"]`` of what this analysis's ``model.init`` made: the params it built
            part = idx_nodes[0].slice
            key = self.eval(part.value) if type(part) is cst.Index else UNKNOWN
            if isinstance(key, StrV) and key.value == "params":
                return LayerV("flax_params", base.params, base.line_node)
            return UNKNOWN
        chain = _sequential_layers(base)
        if chain is not None and len(idx_nodes) == 1:
            # torch's nn.Sequential: seq[i] is its i-th module, seq[a:b] a Sequential of those modules
            part = idx_nodes[0].slice
            if type(part) is cst.Index:
                i = int_of(self.eval(part.value))
                return chain[i] if i is not None and -len(chain) <= i < len(chain) else UNKNOWN
            if type(part) is not cst.Slice:
                return UNKNOWN
            parts = (part.lower, part.upper, part.step)
            bounds = [int_of(self.eval(x)) if x is not None else None for x in parts]
            if all(b is not None or x is None for b, x in zip(bounds, parts)) and bounds[2] != 0:
                assert isinstance(base, LayerV)
                params = tuple((k, chain[slice(*bounds)] if k == "layers" else v) for k, v in base.params)
                return LayerV("Sequential", params, base.line_node)
            return UNKNOWN
        if isinstance(base, RefV) and base.qualname == "numpy.c_":
            items = [self.eval(el.slice.value) if type(el.slice) is cst.Index else UNKNOWN for el in idx_nodes]
            return self.m.column_concat(self, node, items)
        if isinstance(base, TensorV):
            from ..rules.constructors import mask_index

            masked = mask_index(self, node, base)
            out = masked if masked is not None else self.m.index_tensor(self, node, base)
            return self.m.made_by_subscript(node, base, out)
        keys = [self.eval(el.slice.value) for el in idx_nodes if type(el.slice) is cst.Index]
        if (
            base is UNKNOWN
            and len(keys) == len(idx_nodes) == 1
            and isinstance(keys[0], StrV)
            and hooks.STATE.registered
        ):
            return self.hook_captured(node.value, keys[0].value)
        return UNKNOWN

    def hook_captured(self, holder: cst.BaseExpression, key: str) -> Value:
        """``self.features[name]`` / ``features[name]`` not known from the dict's own value: what the modules a
        forward hook stores into it by that key returned in this run (hooks.py), when they agree."""
        if type(holder) is cst.Attribute:
            owner = self.eval(holder.value)
            if not isinstance(owner, ObjV):
                return UNKNOWN
            ci = self.m.find_class(owner.cls_key)
            m = cast(Any, self.m)
            for cls_key in [c.key for c in objects.mro(m, ci)] if ci is not None else [owner.cls_key]:
                found = hooks.captured(("attr", cls_key, holder.attr.value), key)
                if found is not UNKNOWN:
                    return found
            return UNKNOWN
        if type(holder) is cst.Name:
            return hooks.captured(hooks.binding_scope(cast(Any, self.m), self.frame.key, holder.value), key)
        return UNKNOWN

    @_expression(cst.SetComp)
    def _set_comp(self, node: cst.SetComp) -> Value:
        """``{m for n, m in _NORM_ACT_MAP.items()}``: built as the list of its elements would be, then held as a set of
        classes, partials and defs (``_class_set``) when every element is known to be one; else unknown."""
        elems = self.comprehension(cst.ListComp(elt=node.elt, for_in=node.for_in))
        if isinstance(elems, SeqV) and elems.kind == "list":
            return self._class_set(elems.items)
        return UNKNOWN

    @_expression(cst.GeneratorExp, cst.ListComp)
    def comprehension(self, node: cst.GeneratorExp | cst.ListComp) -> Value:
        comp = node.for_in
        outer = self.iterating
        self.iterating = comp.iter if type(node) is cst.ListComp else None  # a list is built to its end
        try:
            it = self.eval(comp.iter)
        finally:
            self.iterating = outer
        if isinstance(it, StrV) and len(it.value) <= MAX_REPEAT:
            it = SeqV(tuple(StrV(c) for c in it.value), "list")  # [stoi[ch] for ch in text]: one item per character
        rows = it.shape[0].as_int() if isinstance(it, TensorV) and it.shape and not it.alts else None
        if (
            rows is not None
            and rows <= MAX_REPEAT
            and type(node) is cst.ListComp
            and isinstance(it, TensorV)
            and it.shape is not None
        ):
            # [Block(key=k) for k in jax.random.split(key, n)]: n elements when n is known, each what one row builds
            # (the rows are alike: the element is evaluated once)
            if comp.inner_for_in is None and not comp.ifs and comp.asynchronous is None:
                saved = dict(self.scope.vars)
                self.assign(comp.target, row_of(it))
                elt = self.eval(node.elt)
                self._leave_comprehension(saved, comp, True)
                return SeqV((elt,) * rows, "list")
        if comp.inner_for_in is None and not comp.ifs and isinstance(it, SeqV) and comp.asynchronous is None:
            if len(it.items) > MAX_REPEAT and all(x is it.items[0] for x in it.items):
                # (rearrange(h, ...) for h in t.unbind(1)) over a long axis: the items are one value, so is the
                # element (evaluated once)
                saved = dict(self.scope.vars)
                self.assign(comp.target, it.items[0])
                elt = self.eval(node.elt)
                self._leave_comprehension(saved, comp, True)
                return SeqV((elt,) * len(it.items), "list")
            saved = dict(self.scope.vars)
            results = []
            start = self.ctx.mark()
            for k, item in enumerate(it.items):
                before = self.ctx.mark()
                self.assign(comp.target, item)
                results.append(self.eval(node.elt))
                if k:  # [hog(img) for i in range(8)]: a failure of the element reported once, not once per item
                    self.ctx.drop_repeated(start, before)
            self._leave_comprehension(saved, comp, False)
            return SeqV(tuple(results), "list")
        if isinstance(it, SeqV) and (comp.inner_for_in is not None or comp.ifs):
            expanded = self._expand_comprehension(node, it)
            if expanded is not None:
                return expanded
        saved = dict(self.scope.vars)
        for name in _target_names(comp.target):
            self.scope.vars[name] = UNKNOWN
        elem = _common_element(it)
        if elem is not None:
            self.assign(comp.target, elem)
        elt = self.eval(node.elt)
        self._leave_comprehension(saved, comp, True)
        if comp.inner_for_in is None and elt is not UNKNOWN and type(node) is cst.ListComp:
            # [Block(dim) for _ in range(depth)]: every element is what one iteration builds (as many as the
            # iterable's, when known and no ``if`` drops any)
            count = it.count if type(it) is ManyV and not comp.ifs else None
            return ManyV(elt, "list", count)
        return UNKNOWN

    def _expand_comprehension(self, node: cst.GeneratorExp | cst.ListComp, first: SeqV) -> SeqV | None:
        """``(x for x in reversed(pads) for _ in range(d))``, ``[n for n in dims if n > 1]``: every ``for`` over a
        sequence of known length and every ``if`` decided gives the elements in order; anything undecided (an
        unknown iterable, an undecided condition, more than MAX_REPEAT elements) gives None, with the findings made
        on the way dropped (the caller evaluates the element once more, on what is known of the items)."""
        saved = dict(self.scope.vars)
        start = self.ctx.mark()
        results: list[Value] = []
        visits = [0]

        def walk(comp: cst.CompFor, it: Value) -> bool:
            if not isinstance(it, SeqV) or comp.asynchronous is not None:
                return False
            for item in it.items:
                visits[0] += 1
                if visits[0] > 4 * MAX_REPEAT:  # (items filtered out cost too)
                    return False
                self.assign(comp.target, item)
                kept = True
                for cond in comp.ifs:
                    truth = _truth(self.eval(cond.test))
                    if truth is None:
                        return False
                    if not truth:
                        kept = False
                        break
                if not kept:
                    continue
                if comp.inner_for_in is not None:
                    if not walk(comp.inner_for_in, self.eval(comp.inner_for_in.iter)):
                        return False
                    continue
                before = self.ctx.mark()
                results.append(self.eval(node.elt))
                if len(results) > 1:
                    self.ctx.drop_repeated(start, before)
                if len(results) > MAX_REPEAT:
                    return False
            return True

        ok = walk(node.for_in, first)
        if not ok:
            self.scope.vars = saved
            self.ctx.rollback(start)
            return None
        self._leave_comprehension(saved, node.for_in, False)
        return SeqV(tuple(results), "list")

    def _leave_comprehension(self, saved: dict[str, Value], comp: cst.CompFor, once: bool) -> None:
        """Back from a comprehension's elements: its own variables (the targets of its ``for``s) are what they were
        before it. Another name an element changed -- an object a method call changed, carried back (``[cur.step(x)
        for _ in range(4)]``), or a walrus -- keeps what the last element left when the elements ran one by one in
        order, and is not known when one run stood for several. A name a call only forgot keeps its value."""
        own: set[str] = set()
        c: cst.CompFor | None = comp
        while c is not None:
            own |= _target_names(c.target)
            c = c.inner_for_in
        now = self.scope.vars
        out = dict(saved)
        for k, v in now.items():
            if k not in own and saved.get(k) is not v and (v is not UNKNOWN or k not in saved):
                # (a name an element's call only forgot, handing it on -- ``nn.ModuleList(Block(config) for _ in
                # range(n))`` -- keeps what it held, as the comprehension's elements always did)
                out[k] = UNKNOWN if once else v
        self.scope.vars = out

    def binary(self, node: cst.CSTNode, left: Value, op: cst.CSTNode, right: Value) -> Value:
        if type(left) is BoolV and left.value is not None and isinstance(right, (IntV, FloatV)):
            left = IntV(Size.const(int(left.value)))  # ``True * 16``: a bool is the int 0 or 1
        elif type(right) is BoolV and right.value is not None and isinstance(left, (IntV, FloatV)):
            right = IntV(Size.const(int(right.value)))  # ``in_features * enable_q``
        if isinstance(left, IntV) and isinstance(right, IntV):
            out = _int_arith(left, op, right)
            return _float_arith(left, op, right) if out is UNKNOWN else out
        if isinstance(left, (IntV, FloatV)) and isinstance(right, (IntV, FloatV)):
            return _float_arith(left, op, right)
        if isinstance(left, SeqV) and isinstance(right, SeqV) and type(op) in (cst.Add, cst.AddAssign):
            return SeqV(left.items + right.items, left.kind)
        if type(op) in (cst.Multiply, cst.MultiplyAssign) and (isinstance(left, SeqV) or isinstance(right, SeqV)):
            if isinstance(left, SeqV):
                return _repeat_sequence(left, right)
            if isinstance(right, SeqV):
                return _repeat_sequence(right, left)
        if isinstance(left, BoolV) and isinstance(right, BoolV):
            return _bool_bits(left.value, op, right.value)
        if isinstance(left, StrV):
            text = _string_operation(left.value, op, right)  # "layer" + "1", "denselayer%d" % (i + 1)
            if text is not None:
                return StrV(text) if len(text) <= MAX_STRING else UNKNOWN
        if type(op) is cst.Divide and (
            (type(left) is DictV and left.kind == "path") or (type(right) is DictV and right.kind == "path")
        ):
            from . import path_values

            joined = path_values.join(left, right)  # HERE / "configs" / "tiny.yaml"
            if joined is not None:
                return joined
        if (left is UNKNOWN and type(right) is BoolV) or (right is UNKNOWN and type(left) is BoolV):
            # ``self.auto_shard_seq & is_distributed()`` with the flag False: False whatever the other side is (a
            # bool, an int, or a tensor of False, which no ``if`` takes); True | anything is true as well
            known = right if left is UNKNOWN else left
            if known.value is False and type(op) in (cst.BitAnd, cst.BitAndAssign):  # type: ignore[union-attr]
                return BoolV(False)
            if known.value is True and type(op) in (cst.BitOr, cst.BitOrAssign):  # type: ignore[union-attr]
                return BoolV(True)
        if isinstance(left, TensorV) or isinstance(right, TensorV):
            if (
                type(node) is cst.BinaryOperation
                and type(op) in _COMPLEX_SCALAR_OPS
                and _imaginary_literal(node.right if isinstance(left, TensorV) else node.left)
            ):
                # a complex literal (``1j * imag_part``, ``x + 2j``) is a scalar: the tensor keeps its shape and
                # becomes complex (dtype not tracked)
                t = left if isinstance(left, TensorV) else right
                return t.with_dtype(None)  # type: ignore[union-attr]
            return self.m.tensor_binary(self, node, left, op, right)
        return UNKNOWN


_COMPLEX_SCALAR_OPS = frozenset({cst.Add, cst.Subtract, cst.Multiply, cst.Divide})


def _imaginary_literal(node: cst.BaseExpression) -> bool:
    """``1j``, ``-2.5j``, ``(1j)``: a complex number written as a literal."""
    while type(node) is cst.UnaryOperation and type(node.operator) in (cst.Minus, cst.Plus):
        node = node.expression
    return type(node) is cst.Imaginary


def _layer_weight(layer: LayerV) -> Value:
    """``layer.weight`` of a layer whose sizes are known: nn.Linear (out_features, in_features), nn.Embedding
    (num_embeddings, embedding_dim), nn.Conv{n}d (out_channels, in_channels // groups, *kernel_size) when groups is
    known; any other layer's is unknown."""
    if layer.kind in ("Conv1d", "Conv2d", "Conv3d") and layer.param("keras") is None:
        g = layer.param("groups")
        if not isinstance(g, int) or isinstance(g, bool):
            return UNKNOWN
        w = _conv_weight(layer, (), {} if g == 1 else {"groups": IntV(Size.const(g))})
        return w if w is not None else UNKNOWN
    if (
        layer.kind == "LayerNorm"
        and len(layer.params) == 1
        and isinstance(shape := layer.param("shape"), tuple)
        and all(isinstance(d, Size) for d in shape)
    ):
        # nn.LayerNorm(d).weight (elementwise affine, the default): normalized_shape
        return TensorV(shape, None, "torch")
    sizes = {"Linear": ("out", "in"), "Embedding": ("n", "d")}.get(layer.kind)
    if sizes is None or layer.param("keras") is not None:
        return UNKNOWN
    shape = tuple(layer.param(k) for k in sizes)
    return TensorV(shape if None not in shape else None, None, _weights_framework(layer))


def _weights_framework(layer: LayerV) -> str:
    """Whose arrays a layer's parameters are: equinox's layers hold jax arrays (indexed, broadcast and reduced as
    jax does), torch.nn's tensors."""
    return "jax" if layer.param("lib") == "equinox" else "torch"


# torch.nn's attributes that hold a constructor size: attribute -> (layer kinds, the LayerV parameter)
_LAYER_SIZE_ATTRS = {
    "in_features": (("Linear",), "in"),
    "out_features": (("Linear",), "out"),
    "num_embeddings": (("Embedding",), "n"),
    "embedding_dim": (("Embedding",), "d"),
    "in_channels": (("Conv1d", "Conv2d", "Conv3d"), "in"),
    "out_channels": (("Conv1d", "Conv2d", "Conv3d"), "out"),
    "num_features": (("ChannelNorm",), "c"),
    "num_groups": (("GroupNorm",), "groups"),
    "num_channels": (("GroupNorm",), "c"),
    "normalized_shape": (("LayerNorm",), "shape"),
    "input_size": (("RNNCell", "RNN"), "in"),  # equinox's cells have them too
    "hidden_size": (("RNNCell", "RNN"), "hidden"),
}


def _layer_size(layer: LayerV, attr: str) -> Value:
    """``norm.normalized_shape[0]``, ``proj.out_features``, ``conv.out_channels`` of a torch.nn layer whose
    constructor size is known (``TransformerWrapper`` reading its width off ``attn_layers.norm``); anything else
    (another framework's layer, a size not known) is unknown."""
    kinds, key = _LAYER_SIZE_ATTRS[attr]
    lib = layer.param("lib")
    if layer.kind not in kinds or (lib is not None and (lib != "equinox" or layer.kind != "RNNCell")):
        return UNKNOWN  # (of equinox's layers, the recurrent cells' sizes only)
    if layer.param("keras") is not None:
        return UNKNOWN
    v = layer.param(key)
    if attr == "normalized_shape":
        if v is None or layer.param("name") is not None:  # (RMSNorm: named so in the layer)
            return UNKNOWN
        return SeqV(tuple(IntV(x) for x in v), "tuple")
    return IntV(v) if isinstance(v, Size) else UNKNOWN


# torch.nn constructors' positional parameters, for the ones the parameters' shapes depend on
_CONV_PARAMS = ("in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups", "bias")
_LAYER_PARAMS = {"Linear": ("in_features", "out_features", "bias"), **{f"Conv{n}d": _CONV_PARAMS for n in (1, 2, 3)}}


def _layer_argument(layer: LayerV, args: Sequence[Value], kwargs: dict[str, Value], name: str) -> Value | None:
    """The argument a torch.nn layer's constructor got for the parameter ``name`` (None: not given)."""
    names = _LAYER_PARAMS[layer.kind]
    i = names.index(name)
    return args[i] if i < len(args) else kwargs.get(name)


def _layer_bias(layer: LayerV, args: Sequence[Value], kwargs: dict[str, Value], out: object) -> Value | None:
    """``self.bias`` of an nn.Linear / nn.Conv{n}d: (out,) when ``bias`` is left True, None when it is False, not
    known otherwise."""
    if layer.param("lib") == "equinox":
        # equinox: ``use_bias``; a convolution's bias broadcasts over its spatial axes, (out, 1, ..., 1)
        bias = kwargs.get("use_bias")
        n = layer.param("n") if layer.kind.startswith("Conv") else 0
        if not isinstance(n, int) or len(args) > (2 if layer.kind == "Linear" else 7):
            return None
        if isinstance(bias, BoolV) and bias.value is False:
            return NoneV()
        if (bias is None or (isinstance(bias, BoolV) and bias.value is True)) and isinstance(out, Size):
            return TensorV((out, *(Size.const(1),) * n), None, "jax")
        return None
    bias = _layer_argument(layer, args, kwargs, "bias")
    if isinstance(bias, BoolV) and bias.value is False:
        return NoneV()
    if (bias is None or (isinstance(bias, BoolV) and bias.value is True)) and isinstance(out, Size):
        return TensorV((out,), None, "torch")
    return None


def _conv_weight(layer: LayerV, args: Sequence[Value], kwargs: dict[str, Value]) -> Value | None:
    """``self.weight`` of an nn.Conv{n}d: (out_channels, in_channels // groups, *kernel_size), when the sizes and
    ``groups`` are known (a groups that does not divide both channel counts: torch refuses the layer)."""
    cin, cout, k, n = (layer.param(key) for key in ("in", "out", "k", "n"))
    if not isinstance(cin, Size) or not isinstance(cout, Size) or not isinstance(k, tuple) or len(k) not in (1, n):
        return None
    groups = _layer_argument(layer, args, kwargs, "groups")
    g = 1 if groups is None else groups.size.as_int() if isinstance(groups, IntV) and not groups.assumed else None
    if g is None or g < 1:
        return None
    if g > 1:
        i, o = cin.as_int(), cout.as_int()
        if i is None or o is None or i % g or o % g:
            return None
        cin = Size.const(i // g)
    kernel = tuple(Size.const(x) for x in (k * n if len(k) == 1 else k))
    return TensorV((cout, cin, *kernel), None, _weights_framework(layer))


def layer_attributes(layer: LayerV, args: Sequence[Value], kwargs: dict[str, Value]) -> dict[str, Value]:
    """The size attributes a torch.nn layer built with ``args`` and ``kwargs`` sets on itself, as far as they are
    known (``normalized_shape``, ``in_features``, ``out_channels``...; the weight of an nn.Linear / nn.Embedding /
    nn.Conv{n}d (groups included) and the bias of the first and last, and of an nn.LayerNorm left
    elementwise-affine): what a subclass's own ``forward`` (or its constructor, after ``super().__init__``) reads
    off ``self``."""
    out: dict[str, Value] = {}
    for attr, (kinds, _) in _LAYER_SIZE_ATTRS.items():
        if layer.kind in kinds:
            v = _layer_size(layer, attr)
            if v is not UNKNOWN:
                out[attr] = v
    if layer.kind in ("Linear", "Embedding"):
        w = _layer_weight(layer)
        if isinstance(w, TensorV) and w.shape is not None:
            out["weight"] = w
    if layer.kind in ("Conv1d", "Conv2d", "Conv3d") and layer.param("keras") is None:
        cw = _conv_weight(layer, args, kwargs)
        if cw is not None:
            out["weight"] = cw
        if layer.param("lib") is None:
            # torch keeps kernel_size, stride, padding and dilation as tuples of one int per spatial axis
            # (``(self.kernel_size[0] - 1) * self.dilation[0]``, a causal conv's left context), groups as an int
            n = layer.param("n")
            for attr, key in (("kernel_size", "k"), ("stride", "s"), ("padding", "p"), ("dilation", "d")):
                t = layer.param(key)
                if isinstance(t, tuple) and isinstance(n, int) and len(t) in (1, n):
                    out[attr] = SeqV(tuple(IntV(Size.const(x)) for x in (t * n if len(t) == 1 else t)), "tuple")
            if isinstance(layer.param("groups"), int):
                out["groups"] = IntV(Size.const(layer.param("groups")))
    if layer.kind in _LAYER_PARAMS and layer.param("keras") is None:
        b = _layer_bias(layer, args, kwargs, layer.param("out"))
        if b is not None:
            out["bias"] = b
    ns = out.get("normalized_shape")
    if isinstance(ns, SeqV) and not kwargs.keys() - {"eps", "device", "dtype"}:
        shape = tuple(i.size for i in ns.items if isinstance(i, IntV))
        out["weight"] = out["bias"] = TensorV(shape, None, "torch")
    return out


_NNX_PARAMETERS = frozenset({"kernel", "embedding", "scale"})  # flax.nnx layers' parameters (Linear, Embed, norms)


_MODULE_WALKS = frozenset({"modules", "children", "named_modules", "named_children"})
# what a loop over ``X.modules()`` may wrap it in: the one-argument wrappers of objects._iteration_aliases (zip's first
# argument is not all that it iterates)
_WALK_WRAPPERS = objects._ITERATING - {"zip"}


# attributes a loop over a model's modules sets that change no shape (``m.eps = 1e-3; m.momentum = 0.03`` on every
# BatchNorm, YOLO- and EfficientNet-style): the model stays as built
_SHAPE_NEUTRAL_ATTRS = frozenset(
    {
        "eps",
        "momentum",
        "inplace",
        "p",
        "training",
        "track_running_stats",
        "requires_grad",
        "approximate",
        "negative_slope",
        "gradient_checkpointing",
        "use_checkpoint",
        "label_smoothing",
        "ignore_index",
        "drop_prob",
    }
)


@dataclass
class _WalkItem:
    """The variable of a loop over a model's module tree run module by module (Interpreter._walk_unrolled), in
    ``loop_items``: ``holder`` the variable holding the model, ``path`` the path of the module the pass is at (None:
    that module is not the model's any more, so a store on it is not tracked), ``bound`` what the loop variable
    holds for it, ``replaced`` the paths an attribute store set, ``broken`` when the model is no longer known."""

    holder: str
    path: tuple[str, ...] | None
    bound: Value
    replaced: set[tuple[str, ...]]
    broken: bool = False
    deep: bool = False  # a walk of the whole tree (``modules()``), not of the children only


def _module_at(model: Value | None, path: tuple[str, ...]) -> Value | None:
    """The module at ``path`` (attribute names, list indexes) in the tree under ``model``; None when there is none."""
    v: Value | None = model
    for name in path:
        if v is None:
            return None
        v = objects.submodule_at(v, name)
    return v


def _module_replaced(model: Value | None, path: tuple[str, ...], new: Value) -> Value | None:
    """The tree under ``model`` with ``new`` in place of the module at ``path``; None when there is none."""
    if not path:
        return new
    parent = _module_at(model, path[:-1])
    if parent is None:
        return None
    changed = objects.with_submodule(parent, path[-1], new)
    return None if changed is None else _module_replaced(model, path[:-1], changed)


def _held_once(vars_: dict[str, Value], v: Value) -> bool:
    """Is ``v`` held by exactly one variable of the scope, directly (and inside none)?"""
    return sum(1 for x in vars_.values() if x is v) == 1 and not any(
        x is not v and _holds(x, v, 3) for x in vars_.values()
    )


def _with_attr_in_place(obj: ObjV, name: str, new: Value) -> ObjV:
    """``obj`` with its attribute ``name`` set to ``new``: in its place when it had one, else added."""
    if obj.attr(name) is None:
        attrs = tuple((k, x) for k, x in obj.attrs if k != name + OPTIONAL) + ((name, new),)
    else:
        attrs = tuple((k, new if k == name else x) for k, x in obj.attrs if k != name + OPTIONAL)
    return ObjV(obj.cls_key, attrs, True, tuple((k, x) for k, x in obj.fresh if k not in (name, name + OPTIONAL)))


def _walked_modules_changed(stmt: cst.For) -> cst.BaseExpression | None:
    """The object ``X`` of ``for m in X.modules():`` (``children()``, ``named_modules()``, through ``list(...)`` or
    ``enumerate(...)``) when the body sets an attribute on the loop variable (``m.num_heads = ...``, ``setattr(m,
    ...)``, ``del m.x``), registers a module or tensor on it, or hands it to a function (``widen(m)``, a recursive
    walk): the loop changes submodules of ``X``. Else None.
    Attributes that change no shape (``m.eps = 1e-3``) and stores into an attribute's items (``m.weight[0] = w``)
    leave ``X`` as it is."""
    from .module import _KEEPING_BUILTINS  # (builtins that set no attribute of their arguments)

    it = stmt.iter
    while type(it) is cst.Call and type(it.func) is cst.Name and it.func.value in _WALK_WRAPPERS and it.args:
        it = it.args[0].value
    if not (type(it) is cst.Call and type(it.func) is cst.Attribute and it.func.attr.value in _MODULE_WALKS):
        return None
    names = {x for x in _target_names(stmt.target) if "." not in x}

    def on_target(e: cst.BaseExpression) -> bool:
        e = chain_root(e)
        return type(e) is cst.Name and e.value in names

    stack: list[cst.CSTNode] = [stmt.body]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp in (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del):
            t = n.target  # type: ignore[attr-defined]
            if type(t) is cst.Attribute and on_target(t) and t.attr.value not in _SHAPE_NEUTRAL_ATTRS:
                return it.func.value
        elif tp is cst.Call:
            f = n.func  # type: ignore[attr-defined]
            if type(f) is cst.Name and f.value in ("setattr", "delattr") and n.args and on_target(n.args[0].value):  # type: ignore[attr-defined]
                return it.func.value
            if type(f) is cst.Attribute and f.attr.value in _REGISTERS and on_target(f.value):
                return it.func.value
            if (
                type(f) is cst.Name
                and f.value not in _KEEPING_BUILTINS
                and f.value not in ("setattr", "delattr")  # (their own test above: the module they set on)
                and not f.value[:1].isupper()
                and any(type(a.value) is cst.Name and a.value.value in names for a in n.args)  # type: ignore[attr-defined]
            ):
                # widen(child), inject_lora(child, cfg): a function handed the module itself may change it (a
                # recursive walk replacing grandchildren), which the walk's own tracking does not see. A class
                # (``LoRALinear(child)``, by its capitalised name) wraps it: what the walk stores is followed
                return it.func.value
        stack.extend(children(n))
    return None


def _with_parameter(layer: LayerV, attr: str, value: Value) -> Value:
    """A layer after ``layer.<attr> = value``: an nn.Linear given a 2-d weight takes and gives that weight's sizes
    (weight tying: (out_features, in_features)); any other weight, or another layer's, leaves a layer whose sizes
    are not known. A bias (or another attribute) changes no size the analysis uses; a bias set on a Linear built
    without one is no longer None."""
    if attr in ("forward", "__call__", "__class__"):
        return UNKNOWN  # lin.forward = patched, lin.__class__ = Other: calling it runs other code
    if layer.kind == "Sequential" and objects.submodule_at(layer, attr) is not None:
        # setattr(seq, "0", LoRALinear(lin)): the link of that name replaced, in its place
        return objects.with_submodule(layer, attr, value) or UNKNOWN
    if attr == "bias" and layer.param("bias") is False:
        return replace(layer, params=tuple((k, v) for k, v in layer.params if k != "bias"))
    if attr != "weight":
        # conv.padding = 2, lin.in_features = 8, nnx lin.kernel = nnx.Param(w): what the layer's forward reads is
        # another value; other attributes (a flag, a name, the bias) change no size
        sized = (attr in objects.TORCH_LAYER_CONFIG and attr not in ("bias", "padding_idx")) or (
            attr in objects.LAYER_SHAPE_ATTRS
        )
        return UNKNOWN if sized or attr in _NNX_PARAMETERS else layer
    if layer.kind == "Linear" and isinstance(value, TensorV) and value.shape is not None and len(value.shape) == 2:
        out, inp = value.shape
        rest = tuple((k, v) for k, v in layer.params if k not in ("in", "out"))
        return replace(layer, params=(("in", inp), ("out", out)) + rest)
    if (
        layer.kind == "Embedding"
        and layer.param("lib") is None
        and isinstance(value, TensorV)
        and value.shape is not None
        and len(value.shape) == 2
    ):
        # ``self.wte.weight = self.lm_head.weight`` (nanoGPT's tying): a torch Embedding looks rows up in its weight,
        # (num_embeddings, embedding_dim)
        n, d = value.shape
        rest = tuple((k, v) for k, v in layer.params if k not in ("n", "d"))
        return replace(layer, params=(("n", n), ("d", d)) + rest)
    return UNKNOWN


_ORDER_OPS = (cst.Equal, cst.NotEqual, cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
# the comparison that holds when one does not (``if a != b: raise`` checks ``a == b``)
_OPPOSITE_OPS: dict[type, type[cst.BaseCompOp]] = {
    cst.Equal: cst.NotEqual,
    cst.NotEqual: cst.Equal,
    cst.LessThan: cst.GreaterThanEqual,
    cst.LessThanEqual: cst.GreaterThan,
    cst.GreaterThan: cst.LessThanEqual,
    cst.GreaterThanEqual: cst.LessThan,
}


def _reads_a_shape(test: cst.BaseExpression) -> bool:
    """Does the test read a shape (``x.shape``, ``x.ndim``, ``x.size(...)``, ``x.dim()``, ``len(...)``)? A check of
    another integer (``if self._count < 2: raise``, a counter a loop the analysis does not follow fills) is no
    shape check."""
    stack: list[cst.CSTNode] = [test]
    while stack:
        n = stack.pop()
        if type(n) is cst.Attribute and n.attr.value in ("shape", "ndim"):
            return True
        if type(n) is cst.Call:
            f = n.func
            if type(f) is cst.Attribute and f.attr.value in ("size", "dim"):
                return True
            if type(f) is cst.Name and f.value == "len":
                return True
        stack.extend(children(n))
    return False


def _raises_at_end(body: cst.IndentedBlock) -> cst.Raise | None:
    """The ``raise X(...)`` that ends a block of simple statements only (a message built first, a log line): the block
    raises whenever it runs. None for anything else (a block that may return, loop or branch first)."""
    last: cst.BaseSmallStatement | None = None
    for stmt in body.body:
        if type(stmt) is not cst.SimpleStatementLine:
            return None
        for small in stmt.body:
            if type(small) in (cst.Return, cst.Break, cst.Continue):
                return None
            last = small
    return last if type(last) is cst.Raise and last.exc is not None else None


def _compared_elementwise(left: Value, op: cst.BaseCompOp, right: Value) -> bool:
    """Two tensors of one framework and known shapes compared elementwise (``<``, ``<=``, ``>``, ``>=``; ``==`` and
    ``!=`` too but for numpy, whose ``==`` on shapes that do not broadcast returned False before numpy 2)."""
    if not (isinstance(left, TensorV) and isinstance(right, TensorV)) or left.shape is None or right.shape is None:
        return False
    if left.alts or right.alts or left.framework != right.framework or left.framework is None:
        return False
    if type(op) in (cst.Equal, cst.NotEqual):
        return left.framework != "numpy"
    return type(op) in (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)


def _maybe_tensor_comparison(left: Value, right: Value) -> bool:
    """An operand that may be a tensor compared with another that may be one, with a number or with a string (numpy
    compares an array of strings elementwise: ``strands == "+"`` is a bool array); None on the other side: a bool."""
    return any(isinstance(a, Unknown) and not isinstance(b, NoneV) for a, b in ((left, right), (right, left)))


def _tensor_comparison(left: Value, right: Value) -> Value | None:
    """``t == 0``, ``t % 2 == 0``, ``a < b``: a tensor compared elementwise is a bool tensor, of t's shape against a
    Python number or a tensor of the very same shape (its shape unknown otherwise); None when no tensor is compared."""
    if not isinstance(left, TensorV) and not isinstance(right, TensorV):
        return None
    t = left if isinstance(left, TensorV) else right
    other = right if t is left else left
    assert isinstance(t, TensorV)
    if t.alts:
        return TensorV(None, "bool", t.framework)
    if isinstance(other, (IntV, FloatV, BoolV)) or (
        isinstance(other, TensorV) and other.shape is not None and other.shape == t.shape and not other.alts
    ):
        return TensorV(t.shape, "bool", t.framework, t.axes, t.origin)
    if (
        isinstance(left, TensorV)
        and isinstance(right, TensorV)
        and left.shape is not None
        and right.shape is not None
        and not right.alts
        and left.framework == right.framework
    ):
        # ``arange(n)[None, :] < lengths[:, None]``: the broadcast shape, when it is certain (a mismatch: unknown)
        from ..rules.ops_common import broadcast_shapes

        shape, fails = broadcast_shapes(left.shape, right.shape)
        if shape is not None and fails is None:
            return TensorV(shape, "bool", t.framework)
    return TensorV(None, "bool", t.framework)


def _bool_bits(a: bool | None, op: cst.CSTNode, b: bool | None) -> Value:
    """``enable_time &= is_video``: &, | and ^ of two bools are a bool (``None``: not known)."""
    if type(op) in (cst.BitAnd, cst.BitAndAssign):
        return BoolV(False if False in (a, b) else (True if a is True and b is True else None))
    if type(op) in (cst.BitOr, cst.BitOrAssign):
        return BoolV(True if True in (a, b) else (False if a is False and b is False else None))
    if type(op) in (cst.BitXor, cst.BitXorAssign):
        return BoolV(None if a is None or b is None else a != b)
    return UNKNOWN


MAX_REPEAT = 64  # (None,) * n of a known n up to this many elements is a sequence of known items


def _repeat_sequence(seq: SeqV, times: Value) -> Value:
    """``(None,) * depth``, ``(1,) * 3``: a known count repeats the items; an unknown count (an int, or unknown) over
    equal items is any number of such items."""
    if seq.kind not in ("tuple", "list") or not (isinstance(times, IntV) or times is UNKNOWN):
        return UNKNOWN
    n = times.size.as_int() if isinstance(times, IntV) else None
    if n is not None:
        return SeqV(seq.items * max(n, 0), seq.kind) if n * len(seq.items) <= MAX_REPEAT else UNKNOWN
    if seq.items and all(x == seq.items[0] for x in seq.items[1:]):
        return ManyV(seq.items[0], seq.kind)
    return UNKNOWN


def _int_arith(a: IntV, op: cst.CSTNode, b: IntV) -> Value:
    out = _int_arith_of(a, op, b)
    if (a.origin is not None or b.origin is not None) and isinstance(out, IntV):
        return replace(out, origin=a.origin or b.origin)  # np.prod(shape) // 2 is a numpy integer too
    return out


def _int_arith_of(a: IntV, op: cst.CSTNode, b: IntV) -> Value:
    if type(op) in (cst.Add, cst.AddAssign):
        return IntV(a.size + b.size)
    if type(op) in (cst.Subtract, cst.SubtractAssign):
        return IntV(a.size - b.size)
    if type(op) in (cst.Multiply, cst.MultiplyAssign):  # ``shape * 2`` of a tuple is a longer tuple
        return IntV(a.size * b.size, assumed=a.assumed or b.assumed)
    if type(op) in (cst.FloorDivide, cst.FloorDivideAssign):
        x, y = a.size.as_int(), b.size.as_int()
        if x is not None and y is not None and y != 0:
            return IntV(Size.const(x // y))

        if divisible(a.size, b.size) is Truth.TRUE:
            q = a.size.exact_div(b.size)
            return IntV(q) if q is not None else UNKNOWN
        return _floor_symbol(a.size, b.size)
    if type(op) in (cst.Power,):
        x, y = a.size.as_int(), b.size.as_int()
        if x is not None and y is not None and 0 <= y <= 64:
            return IntV(Size.const(x**y))
        return UNKNOWN
    if type(op) is cst.Modulo:
        x, y = a.size.as_int(), b.size.as_int()
        if x is not None and y:
            return IntV(Size.const(x % y))
        if x is None and y is not None and y > 0 and not a.assumed:
            # ``i % n_classes`` of an int not known: an int from 0 to y - 1, written (as a loop's counter is) as a
            # size less one, so that it may be 0; one symbol per expression (the same expression is the same int)
            scope = ",".join(sorted(a.size.free_symbols()))
            return IntV(Size.sym(f"({a.size})%{y}@md:{a.size!r}:{scope}") - 1)
    bits = _INT_BITS.get(type(op))
    if bits is not None:  # ``(scale & (scale - 1)) == 0`` of a known scale (is it a power of 2?)
        x, y = a.size.as_int(), b.size.as_int()
        if x is not None and y is not None and (0 <= y <= 64 or type(op) not in (cst.LeftShift, cst.RightShift)):
            return IntV(Size.const(bits(x, y)))
    return UNKNOWN


_INT_BITS: dict[type, Callable[[int, int], int]] = {
    cst.BitAnd: int.__and__,
    cst.BitOr: int.__or__,
    cst.BitXor: int.__xor__,
    cst.LeftShift: int.__lshift__,
    cst.RightShift: int.__rshift__,
}


_SIMPLE_SPEC = re.compile(r"[<>^=]?[+ -]?0?(\d{1,3})?,?[dsxXob]?")


def _format_spec(parts: Sequence[cst.BaseFormattedStringContent]) -> str | None:
    """A replacement field's format spec written out (``:03d``, ``>8``), when it is plain text of a simple form (no
    nested field, a width of at most 999); None otherwise."""
    if not all(type(p) is cst.FormattedStringText for p in parts):
        return None
    text = "".join(cast(cst.FormattedStringText, p).value for p in parts)
    return text if _SIMPLE_SPEC.fullmatch(text) else None


def _formatted(value: int | str, spec: str) -> str | None:
    """``format(value, spec)`` as Python gives it (None where Python raises: ``d`` of a string)."""
    try:
        return format(value, spec)
    except (ValueError, TypeError):
        return None


def _any_entry(d: DictV) -> Value:
    """One of the entries of a dict of 2 to MAX_ALTS classes or functions, whichever (unknown otherwise)."""
    values = [v for k, v in d.items if k != INCOMPLETE_NAMESPACE]
    if len(values) != len(d.items) or not 2 <= len(values) <= MAX_ALTS:
        return UNKNOWN
    if not all(isinstance(v, (FuncV, RefV)) and callable_options(v) == (v,) for v in values):
        return UNKNOWN
    out = values[0]
    for v in values[1:]:
        out = join(out, v)
    return out


def _floor_symbol(a: Size, b: Size) -> Value:
    """``dim // 2`` with ``dim`` a symbol: an int whose value is unknown, one symbol per expression (the same
    expression written twice is the same size). Its name keeps the operands' symbols (``@ctor:`` for a constructor
    parameter). Only for a positive constant divisor and a symbolic dividend."""
    d = b.as_int()
    if d is None or d <= 0 or a.as_int() is not None:
        return UNKNOWN
    scope = ",".join(sorted(a.free_symbols()))
    shown = str(a) if a.is_symbol else f"({a})"
    return IntV(Size.sym(f"{shown}//{d}@fd:{a!r}:{scope}"))


_FLOAT_OPS: dict[type, Callable[[float, float], float]] = {
    cst.Add: float.__add__,
    cst.Subtract: float.__sub__,
    cst.Multiply: float.__mul__,
    cst.Divide: float.__truediv__,
    cst.Power: float.__pow__,
    cst.AddAssign: float.__add__,
    cst.SubtractAssign: float.__sub__,
    cst.MultiplyAssign: float.__mul__,
    cst.DivideAssign: float.__truediv__,
    cst.FloorDivide: float.__floordiv__,  # dim // 8. is the float 4.0 (int() of it a size)
    cst.FloorDivideAssign: float.__floordiv__,
    cst.Modulo: float.__mod__,
    cst.ModuloAssign: float.__mod__,
}


def _float_arith(a: IntV | FloatV, op: cst.CSTNode, b: IntV | FloatV) -> Value:
    """Arithmetic whose result is surely a Python float: a float operand, true division, or an int to a negative
    power (``dim_head ** -0.5``, ``1 / d ** 0.5``, ``dim / 2``); its value when both operands are known. A float
    scalar keeps a tensor's shape when it multiplies it."""
    fn = _FLOAT_OPS.get(type(op))
    if fn is None:
        return UNKNOWN
    negative_power = type(op) is cst.Power and isinstance(b, IntV) and (b.size.as_int() or 0) < 0
    if not (
        isinstance(a, FloatV) or isinstance(b, FloatV) or type(op) in (cst.Divide, cst.DivideAssign) or negative_power
    ):
        return UNKNOWN
    x, y = number_of(a), number_of(b)
    if x is None or y is None:
        return FloatV(None)
    try:
        out = fn(float(x), float(y))
    except (ZeroDivisionError, OverflowError):
        return UNKNOWN  # raises (or is not a number): nothing to claim
    return FloatV(out) if isinstance(out, float) else FloatV(None)


def _common_element(v: Value) -> Value | None:
    if isinstance(v, ManyV):
        return v.elem
    if isinstance(v, SeqV) and v.items:
        first = v.items[0]
        out: Value = first
        for it in v.items[1:]:
            out = join(out, it)
        return out
    if isinstance(v, TensorV) and v.shape:
        return row_of(v)
    return None


def row_of(t: TensorV) -> TensorV:
    """What iterating a tensor along its first axis gives: its rows (an integer tensor's element bounds kept)."""
    assert t.shape
    row = t.with_shape(t.shape[1:], t.axes[1:] if t.axes else None)
    return replace(row, bounds=t.bounds) if t.bounds is not None else row


MAX_UNROLL = 16  # a for loop over a known sequence this short runs once per element
# a loop over known strings (``for key in d.keys()`` of a dict of keyword arguments) up to this many: its body sorts
# or renames entries, which the next statements read by name
MAX_KEY_UNROLL = 64


# an outermost loop over a range this short whose body grows a tensor it carries (``idx = torch.cat((idx, nxt),
# dim=1)``: a decoding loop), or stores into a list at its index (``outputs[t] = h``), runs once per element too: each pass surely runs, and the one where the tensor outgrows
# a table (a position embedding of block_size rows) fails there, which a fixpoint's widened length cannot show
MAX_GROWTH_UNROLL = 64


def _unroll_limit(it: SeqV, stmt: cst.For, depth: int) -> int:
    n = len(it.items)
    if n <= MAX_UNROLL:
        return MAX_UNROLL
    if n <= MAX_KEY_UNROLL and all(type(x) is StrV for x in it.items):
        return MAX_KEY_UNROLL
    if (
        n <= MAX_GROWTH_UNROLL
        and not depth
        and it.kind == "range"
        and (memo("grows-by-concat", stmt, _grows_by_concat) or memo("fills-by-index", stmt, _fills_by_index))
    ):
        return MAX_GROWTH_UNROLL
    return MAX_UNROLL


def _fills_by_index(stmt: cst.CSTNode) -> bool:
    """Does the loop's body (functions nested in it left out) store into a list at the loop's index
    (``for t in range(T): outputs[t] = h``, a recurrent layer's outputs written step by step)? Run pass by pass,
    every item is known after the loop."""
    if type(stmt) is not cst.For or type(stmt.target) is not cst.Name:
        return False
    index = stmt.target.value
    for n in walk_own(stmt.body):
        if type(n) is cst.Assign:
            for t in n.targets:
                target = t.target
                if (
                    type(target) is cst.Subscript
                    and type(target.value) is cst.Name
                    and len(target.slice) == 1
                    and type(target.slice[0].slice) is cst.Index
                    and type(target.slice[0].slice.value) is cst.Name
                    and target.slice[0].slice.value.value == index
                ):
                    return True
    return False


_GROWING_CALLS = frozenset({"cat", "concat", "concatenate", "hstack", "vstack", "dstack", "column_stack", "append"})


def _grows_by_concat(stmt: cst.CSTNode) -> bool:
    """Does the loop's body (functions nested in it left out) rebind a name to a concatenation of what it held
    (``idx = torch.cat((idx, nxt), dim=1)``, ``seq = jnp.concatenate([seq, tok[:, None]], axis=1)``)?"""
    if type(stmt) is not cst.For:
        return False
    for n in walk_own(stmt.body):
        tp = type(n)
        if tp is cst.Assign and len(n.targets) == 1 and type(n.targets[0].target) is cst.Name:  # type: ignore[attr-defined]
            name = n.targets[0].target.value  # type: ignore[attr-defined]
            call = n.value  # type: ignore[attr-defined]
            if type(call) is cst.Call and call.args:
                func = call.func
                fname = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
                first = call.args[0].value
                parts = (
                    [e.value for e in cast(Any, first).elements] if type(first) in (cst.List, cst.Tuple) else [first]
                )
                if fname in _GROWING_CALLS and any(type(e) is cst.Name and e.value == name for e in parts):
                    return True
    return False


MAX_NESTED_RUNS = 64  # a loop inside two others is unrolled too when the body runs at most this often in all (and
# its elements have nothing in common)
_LEAVES_LOOP = frozenset({cst.Break, cst.Continue, cst.Return, cst.Yield, cst.Raise, cst.Global, cst.Nonlocal, cst.Del})


def _join_states(states: list[dict[str, Value]]) -> dict[str, Value]:
    """The variables after any of these paths (a name some path lacks: unknown)."""
    if len(states) == 1:
        return dict(states[0])
    out = dict(states[0])
    for other in states[1:]:
        for name in [*out, *(k for k in other if k not in out)]:
            a, b = out.get(name, UNKNOWN), other.get(name, UNKNOWN)
            if a is not b:
                out[name] = join(a, b)
    return out


_WHILE_PASSES = 8  # passes of a while loop whose test the values decide (Interpreter._while_unrolled)


_MAPS = frozenset({"map", "filter"})
_CONSUMERS = frozenset({"list", "tuple", "set", "dict", "sorted", "sum", "any", "all", "max", "min"})


def _consumed_lambdas(n: cst.CSTNode) -> list[int]:
    """The lambdas of ``n`` that Python calls before the statement ends: those given to ``map`` / ``filter`` whose
    iterator a tuple-unpacking assignment or ``list()`` / ``tuple()`` / ... runs out at once, and a ``key=`` of
    ``sorted`` / ``max`` / ``min``. Each call sees the variables as they are then (no late binding to worry about)."""
    out: list[int] = []

    def maps(v: cst.BaseExpression) -> None:
        if type(v) is cst.Call and type(v.func) is cst.Name and v.func.value in _MAPS:
            out.extend(id(a.value) for a in v.args if type(a.value) is cst.Lambda)

    if type(n) is cst.Assign and len(n.targets) == 1 and type(n.targets[0].target) in (cst.Tuple, cst.List):
        maps(n.value)
    elif type(n) is cst.Call and type(n.func) is cst.Name and n.func.value in _CONSUMERS:
        for a in n.args:
            if a.keyword is None and not a.star:
                maps(a.value)
            elif a.keyword is not None and a.keyword.value == "key" and type(a.value) is cst.Lambda:
                out.append(id(a.value))
    return out


def _stores_at_own_index(stmt: cst.For, names: set[str], cache: dict[int, set[str]]) -> bool:
    """``for i, (a, b) in enumerate(zip(xs, ys)): xs[i] = ...``: the only change the body makes to the lists it
    iterates is an item store at the index ``enumerate`` counts (no other binding, no append), and the index is not
    rebound. Python reads each item before the store at its index, so the items the loop reads are the ones it
    started with: the loop can run over the sequence as it was evaluated."""
    it, target = stmt.iter, stmt.target
    if not (
        type(it) is cst.Call
        and type(it.func) is cst.Name
        and it.func.value == "enumerate"
        and len(it.args) == 1
        and type(target) is cst.Tuple
        and len(target.elements) == 2
        and type(target.elements[0].value) is cst.Name
    ):
        return False
    inner = it.args[0].value
    if not (
        type(inner) is cst.Name
        or (
            type(inner) is cst.Call
            and type(inner.func) is cst.Name
            and inner.func.value == "zip"
            and all(type(a.value) in (cst.Name, cst.Attribute, cst.Subscript) and not a.star for a in inner.args)
        )
    ):
        return False  # (``enumerate(reversed(xs))`` reads from the end what a store at the count may have changed)
    index = target.elements[0].value.value
    key = -id(stmt) - 1
    if key not in cache:
        stored: set[str] = set()
        bad: set[str] = set()
        stack: list[cst.CSTNode] = [stmt.body]
        while stack:
            n = stack.pop()
            tp = type(n)
            if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                continue
            if tp is cst.AssignTarget or tp is cst.AugAssign or tp is cst.AnnAssign or tp is cst.For:
                t = n.target  # type: ignore[attr-defined]
                if (
                    tp is cst.AssignTarget
                    and type(t) is cst.Subscript
                    and type(t.value) is cst.Name
                    and len(t.slice) == 1
                    and type(t.slice[0].slice) is cst.Index
                    and type(t.slice[0].slice.value) is cst.Name
                    and t.slice[0].slice.value.value == index
                ):
                    stored.add(t.value.value)
                else:
                    bad |= _target_names(t)
                    if type(t) is cst.Subscript and type(t.value) is cst.Name:
                        bad.add(t.value.value)
            elif tp is cst.Call and type(n.func) is cst.Attribute and n.func.attr.value in _LIST_MUTATORS:  # type: ignore[attr-defined]
                name = _var_key(n.func.value)  # type: ignore[attr-defined]
                if name is not None:
                    bad.add(name)
            elif tp is cst.Del or tp is cst.WithItem:
                bad |= _assigned_walk(n)
            stack.extend(children(n))
        cache[key] = stored - bad if index not in bad else set()
    return names <= cache[key]


def _fixpoint_ok(
    stmt: cst.For | cst.While,
    cache: dict[int, set[str]],
    allow_continue: bool = False,
    allow_return: bool = False,
    allow_yield: bool = False,
) -> bool:
    """A loop body whose end state is every iteration's end state: no break / continue / return / yield / raise (a
    branch that leaves early takes its state with it), no del, no nested function or class. ``allow_continue``: a
    ``continue`` is fine too (the loop's fixpoint joins the state at each continue into the next iteration's).
    ``allow_return``: a ``return`` or ``raise`` is fine too (a loop unrolled into its iterations runs them as straight
    code: ``for arg in args: if exists(arg): return arg`` returns from the first iteration whose test holds).
    ``allow_yield``: a ``yield`` is fine too (a generator run to its end by the loop that iterates it)."""
    key = -id(stmt)
    if key not in cache:
        ok, continues, returns, yields = True, False, False, False
        consumed: set[int] = set()  # lambdas called up before their statement ends (_consumed_lambdas)
        stack: list[cst.CSTNode] = [stmt.body]
        while stack and ok:
            n = stack.pop()
            if type(n) is cst.Continue:
                continues = True
            elif type(n) in (cst.Return, cst.Raise):
                returns = True
            elif type(n) is cst.Yield:
                yields = True
            elif type(n) is cst.Lambda:
                # ``q, k = map(lambda t: rearrange(t, ...), (q, k))``: a lambda that reads no name the loop assigns
                # computes the same whenever it is called (a late-bound loop variable is what could differ); one
                # called up before its statement ends (``a, b = map(lambda r: {key: val} if r else {}, routes)``,
                # ``list(map(...))``, ``sorted(xs, key=lambda ...)``) sees the iteration's own values
                if id(n) in consumed:
                    stack.extend(children(n))
                    continue
                ps = n.params
                own = {p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)}
                own |= {p.name.value for p in (ps.star_arg, ps.star_kwarg) if type(p) is cst.Param}
                ok = not ((_names_in(n.body) - own) & cache.get(id(stmt), {""}))
                continue
            elif type(n) in _LEAVES_LOOP or type(n) in (cst.FunctionDef, cst.ClassDef):
                ok = False
            else:
                consumed.update(_consumed_lambdas(n))
            stack.extend(children(n))
        cache[key] = (
            ({"ok"} if ok else set())
            | ({"continue"} if continues else set())
            | ({"return"} if returns else set())
            | ({"yield"} if yields else set())
        )
    found = cache[key]
    return (
        "ok" in found
        and (allow_continue or "continue" not in found)
        and (allow_return or "return" not in found)
        and (allow_yield or "yield" not in found)
    )


def _call_roots(node: cst.CSTNode) -> frozenset[str]:
    """The names at the root of what the method calls inside ``node`` are called on (``c.tick()``, ``self.cache.
    pop(k)``: c, self), functions nested in it left out. (What a call is handed is not among them: a name only handed
    on keeps its value, as the comprehension's elements always did.)"""
    out: set[str] = set()
    for n in walk_own(node):
        if type(n) is cst.Call and type(n.func) is cst.Attribute:
            root = chain_root(n.func.value)
            if type(root) is cst.Name:
                out.add(root.value)
    return frozenset(out)


def _fills_lists(stmt: cst.CSTNode) -> bool:
    """Does the loop's body (functions nested in it left out) call ``append`` / ``extend`` / ``insert`` on a name?"""
    stack: list[cst.CSTNode] = [stmt.body] if type(stmt) is cst.For else []
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        if (
            tp is cst.Call
            and type(n.func) is cst.Attribute  # type: ignore[attr-defined]
            and n.func.attr.value in ("append", "extend", "insert")  # type: ignore[attr-defined]
            and type(n.func.value) is cst.Name  # type: ignore[attr-defined]
        ):
            return True
        stack.extend(children(n))
    return False


def _breaks_only(body: cst.BaseSuite, cache: dict[int, set[str]]) -> bool:
    """A loop body that leaves its iteration only by ``break`` / ``continue`` (at least one ``break``): no return,
    raise, yield, del, global / nonlocal, nested function or class."""
    key = -id(body) - 1
    if key not in cache:
        ok, breaks = True, False
        stack: list[cst.CSTNode] = [body]
        while stack and ok:
            n = stack.pop()
            tp = type(n)
            if tp is cst.Break:
                breaks = True
            elif tp in _LEAVES_LOOP and tp is not cst.Continue or tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                ok = False
            else:
                stack.extend(children(n))
        cache[key] = {"ok"} if ok and breaks else set()
    return "ok" in cache[key]


def _consumes_all(body: cst.BaseSuite, cache: dict[int, set[str]]) -> bool:
    """A loop body that never leaves the loop early (no break, return, raise or yield anywhere in it), so the loop
    runs its iterable to the end."""
    key = -id(body)
    if key not in cache:
        ok = True
        stack: list[cst.CSTNode] = [body]
        while stack and ok:
            n = stack.pop()
            if type(n) in (cst.Break, cst.Return, cst.Raise, cst.Yield):
                ok = False
            elif type(n) not in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                stack.extend(children(n))
        cache[key] = {"ok"} if ok else set()
    return "ok" in cache[key]


def _target_names(target: cst.CSTNode) -> set[str]:
    key = _var_key(target)
    if key is not None:
        return {key}
    if type(target) not in (cst.Tuple, cst.List, cst.StarredElement):
        return set()
    return {k for leaf in target_leaves(cast(cst.BaseExpression, target)) if (k := _var_key(leaf)) is not None}


def target_leaves(t: cst.BaseExpression) -> "Iterator[cst.BaseExpression]":
    """The targets a (possibly nested, starred) tuple or list assignment target stores into; ``t`` itself else."""
    if type(t) is cst.Tuple or type(t) is cst.List:
        for e in t.elements:
            yield from target_leaves(e.value)
    elif type(t) is cst.StarredElement:
        yield from target_leaves(t.value)
    else:
        yield t


_COMPARE_TEXT = {
    cst.Equal: "==",
    cst.NotEqual: "!=",
    cst.LessThan: "<",
    cst.LessThanEqual: "<=",
    cst.GreaterThan: ">",
    cst.GreaterThanEqual: ">=",
}
_ARITH_TEXT = {
    cst.Add: "+",
    cst.Subtract: "-",
    cst.Multiply: "*",
    cst.FloorDivide: "//",
    cst.Modulo: "%",
    cst.Power: "**",
}


def _attribute_reads(e: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The attribute chains read in ``e`` (``self.dim`` of ``(b, n, self.dim)``, ``x.shape`` of ``x.shape[1:]``)."""
    out: list[cst.BaseExpression] = []
    stack: list[cst.CSTNode] = [e]
    while stack:
        n = stack.pop()
        if type(n) is cst.Attribute:
            out.append(n)
            continue
        stack.extend(children(n))
    return out


def _axis_text(e: cst.BaseExpression, text: str, at: int) -> str:
    """How a report names axis ``at`` of a compared shape: the item of a tuple display (``h`` of ``(b, h)``), else
    the shape's text indexed (``x.shape[1]``)."""
    if type(e) in (cst.Tuple, cst.List):
        items = e.elements  # type: ignore[attr-defined]
        if at < len(items) and not any(type(x) is cst.StarredElement for x in items):
            item = items[at].value
            return " ".join(cst.Module([]).code_for_node(item).split())
    return f"{text}[{at}]"


def _known_sizes(v: Value) -> list[int] | None:
    """The sizes of a shape (``x.shape``, a slice of one) or a tuple of known integers, when all are known."""
    if not isinstance(v, SeqV) or v.kind not in ("shape", "tuple"):
        return None
    out = []
    for item in v.items:
        k = item.size.as_int() if type(item) is IntV else None
        if k is None:
            return None
        out.append(k)
    return out


def _docstring(stmt: cst.BaseStatement) -> bool:
    return (
        type(stmt) is cst.SimpleStatementLine
        and type(stmt.body[0]) is cst.Expr
        and type(stmt.body[0].value) in (cst.SimpleString, cst.ConcatenatedString)
    )


_LIST_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "add"})  # add: model.add(layer)
_MAX_STRING_LOOP = 64  # a ``for`` over a known string of at most this many characters runs once per character


# The hidden key (``self.mlp?``) of what an attribute a constructor set to "a value or None" holds when it is not None
# (``self.mlp = nn.Sequential(...) if exists(dim) else None``, or None in one branch of an ``if`` and one value in
# the others, the condition undecided): ``if exists(self.mlp):`` narrows ``self.mlp`` to it (narrowing.py)
OPTIONAL = "?"
# how many items ``next(it)`` took so far from the list ``it = iter(xs)`` names (an IntV, under the name + this)
CONSUMED = "#next"


def _optional_alternative(values: list[Value]) -> Value | None:
    """The one value besides None that the branches give an attribute (None when there is no such single value)."""
    others = [v for v in values if not isinstance(v, NoneV)]
    if len(others) == len(values) or not others or others[0] is UNKNOWN:
        return None
    return others[0] if all(v == others[0] for v in others[1:]) else None


def self_attribute(interp: "Interpreter", attr: str) -> Value:
    """``self.<attr>`` in the frame of ``interp`` (the variable first, then the object or class)."""
    key = f"self.{attr}"
    if key in interp.scope.vars:
        return interp.scope.vars[key]
    sv = interp.frame.self_value
    if interp.frame.cls_key is None:
        return UNKNOWN
    if isinstance(sv, ObjV) and (sv.concrete or sv.attr(attr) is not None or sv.cls_key != interp.frame.cls_key):
        # (an object of a subclass of the method's class: a mixin's method run for a class inheriting it reads what
        # that class's constructor sets)
        return interp.m.object_attr(sv, attr)
    found = interp.m.class_attr(interp.frame.cls_key, attr)
    if set_by_name(interp.scope.vars.get(f"self.{DYNAMIC_ATTRS}"), attr) and not isinstance(found, FuncV):
        return UNKNOWN  # setattr(self, k, v) ran with a name not known: perhaps this attribute
    return found


def _literal_of(node: cst.CSTNode) -> str | None:
    return literal_str(node) if isinstance(node, cst.BaseExpression) else None


# what forget_if_list may forget (may_forget skips a call whose arguments hold none of these, nor an object)
_LIST_LIKE = (SeqV, DictV, IntDictV, ManyV, StateDictV)


def _var_key(node: cst.CSTNode) -> str | None:
    """The scope key of what ``node`` names: ``x`` for a name, ``self.x`` for an attribute of self, else None."""
    if type(node) is cst.Name:
        return node.value
    if type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == "self":
        return f"self.{node.attr.value}"
    return None


def _is_integer_division(node: cst.BaseExpression) -> cst.BinaryOperation | None:
    """The ``a / b`` of ``(a / b).is_integer()`` (lucidrains' ``divisible_by``), else None."""
    if type(node) is not cst.Call or node.args or type(node.func) is not cst.Attribute:
        return None
    func = node.func
    if func.attr.value != "is_integer" or type(func.value) is not cst.BinaryOperation:
        return None
    div = func.value
    return div if type(div.operator) is cst.Divide else None


def _names_in(expr: cst.CSTNode) -> set[str]:
    """The scope keys (``x``, ``self.x``) an expression reads. An attribute's name is not a read of that name:
    ``zip(self.attn, self.ffs)`` reads ``self.attn``, not the loop variable ``attn``."""

    out: set[str] = set()
    stack: list[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop()
        key = _var_key(node)
        if key is not None:
            out.add(key)
        tp = type(node)
        if tp is cst.Attribute:
            stack.append(node.value)  # type: ignore[attr-defined]
        elif tp is not cst.Name:
            stack.extend(children(node))
    return out


def _pieces_hint(how: tuple[Any, ...], size: Size, n: int, starred: bool) -> list[str]:
    """The fix of ``a, b, c = x.split(3, dim)`` that meant three equal parts: ``chunk(3)``, or a split of the axis
    over 3, when the axis's known size divides evenly."""
    k = size.as_int()
    if starred or how[0] != "split" or k is None or k % n or k // n == how[1]:
        return []
    return [f"split takes the size of each piece: for {n} equal pieces use .chunk({n}) or .split({k // n})"]


def _assigned_names(suite: cst.CSTNode) -> set[str]:
    """Names (and ``self.x`` attributes) a statement list assigns or mutates as a list (``xs.append(t)``,
    ``xs[i] = t``, ``del xs[i]``), nested function and class bodies left out."""

    return set(memo("assigned", suite, _assigned_walk))


def _assigned_walk(suite: cst.CSTNode) -> frozenset[str]:

    names: set[str] = set()
    stack: list[cst.CSTNode] = [suite]
    # exact types, not isinstance: libcst's node classes are ABCs, and this walk passes every node of a body
    while stack:
        node = stack.pop()
        if _assigned_at(node, names):
            stack.extend(children(node))
    return frozenset(names)


_REGISTERS = frozenset({"register_buffer", "register_parameter", "add_module", "register_module"})


def _registered_attr(call: cst.Call) -> str | None:
    """``self.register_buffer("table", t)`` (``register_parameter``, ``add_module``, ``setattr(self, "table", t)``):
    the attribute it sets, as ``self.table``; None for any other call (or a name not written out)."""
    func = call.func
    if type(func) is cst.Attribute and func.attr.value in _REGISTERS:
        owner = func.value
        args = call.args
    elif type(func) is cst.Name and func.value == "setattr" and call.args:
        owner = call.args[0].value
        args = call.args[1:]
    else:
        return None
    if type(owner) is not cst.Name or owner.value != "self" or not args or args[0].keyword is not None:
        return None
    name = args[0].value
    if type(name) is not cst.SimpleString or name.prefix.lower() not in ("", "u"):
        return None
    text = name.evaluated_value
    return f"self.{text}" if isinstance(text, str) and text.isidentifier() else None


def _assigned_at(node: cst.CSTNode, names: set[str]) -> bool:
    """``_assigned_walk`` at one node: adds what it assigns to ``names``; False when the walk does not go below it (a
    nested function or class, a leaf)."""
    tp = type(node)
    if tp in _TARGET_HOLDERS:
        target = node.target  # type: ignore[attr-defined]
        names |= _target_names(target)
        if tp is not cst.AugAssign and type(target) is cst.Attribute and target.attr.value == "data":
            name = _var_key(target.value)  # self.weight.data = w.t(): self.weight holds another tensor
            if name is not None:
                names.add(name)
        if tp is not cst.For and type(target) is cst.Subscript:
            name = _var_key(_subscript_root(target.value))
            if name is not None:
                names.add(name)
    elif tp is cst.Del:
        target = node.target  # type: ignore[attr-defined]
        if type(target) is cst.Subscript:
            name = _var_key(target.value)
            if name is not None:
                names.add(name)
    elif tp is cst.WithItem:
        if node.asname is not None:  # type: ignore[attr-defined]
            names |= _target_names(node.asname.name)  # type: ignore[attr-defined]
    elif tp is cst.FunctionDef or tp is cst.ClassDef:
        names.add(node.name.value)  # type: ignore[attr-defined]
        return False
    elif tp is cst.Call:
        func = node.func  # type: ignore[attr-defined]
        if type(func) is cst.Attribute and func.attr.value in _LIST_MUTATORS:
            # (``data["tokens"].append(t)``: a list inside what the name holds)
            held = func.value
            name = _var_key(_subscript_root(held) if type(held) is cst.Subscript else held)
            if name is not None:
                names.add(name)
        registered = _registered_attr(node)  # type: ignore[arg-type]
        if registered is not None:
            names.add(registered)
    elif tp is cst.MatchAs or tp is cst.MatchStar:
        if node.name is not None:  # type: ignore[attr-defined]
            names.add(node.name.value)  # type: ignore[attr-defined]
    elif tp is cst.MatchMapping:
        if node.rest is not None:  # type: ignore[attr-defined]
            names.add(node.rest.value)  # type: ignore[attr-defined]
    elif tp in _NO_TARGETS:
        return False  # names, numbers and strings hold nothing assigned
    return True


@dataclass(frozen=True)
class _CaseBody:
    """A ``case`` of a ``match`` as one branch: its captures bound, its body run."""

    subject: cst.BaseExpression
    case: cst.MatchCase


@dataclass(frozen=True)
class _Cases:
    """The cases after one of a ``match`` (what runs when that one did not match), as one branch."""

    subject: cst.BaseExpression
    cases: tuple[cst.MatchCase, ...]


def _case_test(subject: cst.BaseExpression, pattern: cst.MatchPattern) -> tuple[cst.BaseExpression | None, bool]:
    """(the condition a case's pattern amounts to, None when it is not modelled; whether it always matches)."""
    tp = type(pattern)
    if tp is cst.MatchAs:
        inner = pattern.pattern  # type: ignore[attr-defined]
        return (None, True) if inner is None else _case_test(subject, inner)
    if tp is cst.MatchValue:
        return cst.Comparison(subject, [cst.ComparisonTarget(cst.Equal(), pattern.value)]), False  # type: ignore[attr-defined]
    if tp is cst.MatchSingleton:
        return cst.Comparison(subject, [cst.ComparisonTarget(cst.Is(), pattern.value)]), False  # type: ignore[attr-defined]
    if tp in (cst.MatchSequence, cst.MatchList, cst.MatchTuple):
        patterns = [p if type(p) is cst.MatchStar else p.value for p in pattern.patterns]  # type: ignore[attr-defined]
        if any(type(p) is cst.MatchStar for p in patterns):
            return None, False
        length = cst.Call(cst.Name("len"), [cst.Arg(subject)])
        test: cst.BaseExpression = cst.Comparison(
            length, [cst.ComparisonTarget(cst.Equal(), cst.Integer(str(len(patterns))))]
        )
        # ``case (1, _):`` holds only when the first item is 1 as well: each item's own pattern, on that item
        for i, p in enumerate(patterns):
            item = cst.Subscript(subject, [cst.SubscriptElement(cst.Index(cst.Integer(str(i))))])
            part, always = _case_test(item, cast(cst.MatchPattern, p))
            if always:
                continue
            if part is None:
                return None, False  # an item pattern not modelled: the case may or may not match
            test = cst.BooleanOperation(test, cst.And(), part)
        return test, False
    return None, False


def _case_captures(pattern: cst.MatchPattern, value: "Value") -> list[tuple[str, "Value"]]:
    """The names a case's pattern binds, with the parts of ``value`` they get (unknown when not followed)."""
    tp = type(pattern)
    if tp is cst.MatchAs:
        inner = pattern.pattern  # type: ignore[attr-defined]
        name = pattern.name  # type: ignore[attr-defined]
        out = _case_captures(inner, value) if inner is not None else []
        return out + ([(name.value, value)] if name is not None else [])
    if tp in (cst.MatchSequence, cst.MatchList, cst.MatchTuple):
        patterns = [p if type(p) is cst.MatchStar else p.value for p in pattern.patterns]  # type: ignore[attr-defined]
        items = value.items if isinstance(value, SeqV) and len(value.items) == len(patterns) else None
        if any(type(p) is cst.MatchStar for p in patterns):
            items = None
        out = []
        for i, p in enumerate(patterns):
            if type(p) is cst.MatchStar:
                if p.name is not None:  # ``*rest``: a list of the items it takes (not followed)
                    out.append((p.name.value, UNKNOWN))
            else:
                out.extend(_case_captures(p, items[i] if items is not None else UNKNOWN))  # type: ignore[arg-type]
        return out
    return [(n, UNKNOWN) for n in sorted(_assigned_walk(pattern))]


_TARGET_HOLDERS = frozenset({cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr})
_NO_TARGETS = frozenset(
    {
        cst.Name,
        cst.Integer,
        cst.Float,
        cst.Imaginary,
        cst.SimpleString,
        cst.Ellipsis,
        cst.Pass,
        cst.Break,
        cst.Continue,
        cst.Import,
        cst.ImportFrom,
    }
)


# what einops (EinopsError, a RuntimeError), torch (RuntimeError), numpy and jax (ValueError, TypeError) raise for
# a shape that does not fit, and the handlers that take everything
_SHAPE_ERRORS = frozenset(
    {"Exception", "BaseException", "RuntimeError", "ValueError", "TypeError", "EinopsError", "IndexError"}
)


def _catches_shape_errors(handler: cst.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = [e.value for e in handler.type.elements] if type(handler.type) is cst.Tuple else [handler.type]
    return _names_shape_error(types)


def _names_shape_error(types: Sequence[cst.BaseExpression]) -> bool:
    for t in types:
        name = t.attr.value if type(t) is cst.Attribute else t.value if type(t) is cst.Name else None
        if name in _SHAPE_ERRORS:
            return True
    return False


def _decorator_name(d: cst.Decorator) -> str:
    e = d.decorator
    return e.attr.value if type(e) is cst.Attribute else e.value if type(e) is cst.Name else ""


_SIZED_CONTAINERS = frozenset({"Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"})


def _plain_item_chain(node: cst.Subscript, slice_target: bool = False) -> bool:
    """``groups[ind][key]``, ``self.cache["k"]``: subscripts whose every index is one name or constant, on a variable
    (or ``self.x``), so evaluating the chain runs nothing. ``slice_target``: the outermost index may be a slice whose
    bounds are such (``shape[i:j + 1] = [n]``: an assignment to it changes the list; a slice anywhere else is a
    copy)."""
    current: cst.BaseExpression = node
    while type(current) is cst.Subscript:
        elements = current.slice
        if len(elements) != 1:
            return False
        sl = elements[0].slice
        if type(sl) is cst.Slice and slice_target and current is node:
            if not all(b is None or _plain_index(b) for b in (sl.lower, sl.upper, sl.step)):
                return False
        elif type(sl) is not cst.Index or sl.star is not None or not _plain_index(sl.value):
            return False
        current = current.value
    return _var_key(current) is not None


_PURE_INDEX: tuple[type[cst.CSTNode], ...] = (
    cst.Name,
    cst.Attribute,
    cst.Integer,
    cst.Float,
    cst.SimpleString,
    cst.Ellipsis,
    cst.Slice,
    cst.SubscriptElement,
    cst.Index,
    cst.UnaryOperation,
    cst.BinaryOperation,
    cst.Tuple,
    cst.Element,
    cst.Minus,
    cst.Plus,
    cst.Add,
    cst.Subtract,
    cst.Multiply,
    cst.FloorDivide,
    cst.Comma,
    cst.Dot,
    cst.Colon,
    cst.LeftParen,
    cst.RightParen,
    *WHITESPACE_CLASSES,
)


def _runs_nothing(target: cst.Subscript) -> bool:
    """``gy[1:-1, :]``, ``x[:, :n + 1]``, ``self.buf[i]``: an item target on a variable whose indexes are names,
    numbers, slices and arithmetic, so evaluating it again runs no call (its findings would repeat)."""
    if _var_key(target.value) is None:
        return False
    todo: list[cst.CSTNode] = list(target.slice)
    while todo:
        n = todo.pop()
        if type(n) not in _PURE_INDEX and not _shape_item(n) and type(n) not in _BRACKETS:
            return False
        todo.extend(n.children)
    return True


_BRACKETS = (cst.LeftSquareBracket, cst.RightSquareBracket)


def _shape_item(node: cst.CSTNode) -> bool:
    """``keys.shape[0]``: an item of a tensor's shape (reading it runs nothing)."""
    return (
        type(node) is cst.Subscript
        and type(node.value) is cst.Attribute
        and node.value.attr.value == "shape"
        and len(node.slice) == 1
    )


def _plain_value(v: Value) -> bool:
    if isinstance(v, (IntV, FloatV, BoolV, StrV, NoneV)):
        return True
    return isinstance(v, SeqV) and v.kind == "tuple" and all(_plain_value(x) for x in v.items)


def _object_key(v: Value) -> int:
    """Which object ``v`` is: its id, for an object of the analysed code the id of its attributes' tuple, which the
    copy without constructor values (``objects.stale``: an object a holder keeps) shares with it."""
    return id(v.attrs) if type(v) is ObjV and v.attrs else id(v)


def _mutable_parts(m: "Semantics", v: Value, depth: int) -> dict[int, Value]:
    """The values ``v`` holds (``depth`` levels down, through objects, lists, tuples and dicts) that code may change in
    place: objects of the analysed code (not frozen records), layers, lists and dicts; by ``_object_key``."""
    out: dict[int, Value] = {}
    todo: list[tuple[Value, int]] = [(v, 0)]
    while todo:
        x, d = todo.pop()
        if d >= depth:
            continue
        if isinstance(x, ObjV):
            items: tuple[Value, ...] = tuple(y for _, y in x.attrs) + tuple(y for _, y in x.fresh)
        elif isinstance(x, SeqV):
            items = x.items
        elif isinstance(x, ManyV):
            items = (x.elem,) if x.elem is not None else ()
        elif isinstance(x, (DictV, IntDictV)):
            items = tuple(y for _, y in x.items)
        else:
            continue
        for y in items:
            key = _object_key(y)
            if key in out:
                continue
            if (
                (isinstance(y, ObjV) and y.concrete and not _frozen_record(m, y))
                or isinstance(y, (LayerV, ManyV, DictV, IntDictV, StateDictV))
                or (isinstance(y, SeqV) and y.kind != "tuple")
            ):
                out[key] = y
            if isinstance(y, (ObjV, SeqV, ManyV, DictV, IntDictV)):
                todo.append((y, d + 1))
    return out


def _fresh_window(
    body: Sequence[cst.BaseStatement] | Sequence[cst.BaseSmallStatement], at: int
) -> tuple[str, cst.Call, cst.BaseExpression, tuple[str, ...]] | None:
    """``name = f(...)`` (one name; ``f`` a name, an attribute, or a dict read by a name or constant), then only
    stores of a name or a constant on ``name``'s attributes (``model.default_cfg = cfg``), then ``body[at]``, an
    ``if`` or an assertion: (name, the call, the test of ``body[at]``, the attributes stored between); else None."""
    stmt = body[at]
    if type(stmt) is cst.If:
        test: cst.BaseExpression = stmt.test
    elif type(stmt) is cst.SimpleStatementLine and len(stmt.body) == 1 and type(stmt.body[0]) is cst.Assert:
        test = stmt.body[0].test
    else:
        return None
    stored: list[tuple[str, str]] = []
    for prev in reversed(body[:at]):
        if type(prev) is not cst.SimpleStatementLine or len(prev.body) != 1 or type(prev.body[0]) is not cst.Assign:
            return None
        assign = prev.body[0]
        if len(assign.targets) != 1:
            return None
        target = assign.targets[0].target
        if type(target) is cst.Attribute and type(target.value) is cst.Name and _inert(assign.value):
            stored.append((target.value.value, target.attr.value))
            continue
        if type(target) is not cst.Name or type(assign.value) is not cst.Call:
            return None
        func = assign.value.func
        plain_read = (
            type(func) is cst.Subscript
            and type(func.value) is cst.Name
            and len(func.slice) == 1
            and type(func.slice[0].slice) is cst.Index
            and type(func.slice[0].slice.value) in (cst.Name, cst.SimpleString)
        )
        if type(func) not in (cst.Name, cst.Attribute) and not plain_read:
            return None
        name = target.value
        if any(owner != name for owner, _ in stored):
            return None
        return name, assign.value, test, tuple(a for _, a in stored)
    return None


def _inert(value: cst.BaseExpression) -> bool:
    """A name, a constant, or a display of them (``{"mean": 0.5}``): evaluating it runs no code."""
    stack: list[cst.CSTNode] = [value]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.BaseExpression) and type(n) not in _INERT:
            return False
        stack.extend(children(n))
    return True


_INERT = (cst.Name, cst.Integer, cst.Float, cst.SimpleString, cst.Dict, cst.List, cst.Tuple)


def _plain_test(test: cst.BaseExpression, name: str) -> bool:
    """A test made of names, constants, ``not``, ``and`` / ``or``, comparisons and ``name.attr`` reads only (no call,
    index, operator or other attribute read, which could run code on the object before the read)."""
    stack: list[cst.CSTNode] = [test]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.Attribute:
            if type(n.value) is not cst.Name or n.value.value != name:  # type: ignore[attr-defined]
                return False
            continue
        if tp in (cst.Name, cst.Integer, cst.Float, cst.SimpleString):
            continue
        if tp in (cst.Comparison, cst.ComparisonTarget, cst.BooleanOperation, cst.UnaryOperation):
            if tp is cst.UnaryOperation and type(n.operator) is not cst.Not:  # type: ignore[attr-defined]
                return False
            stack.extend(c for c in children(n) if isinstance(c, cst.BaseExpression) or type(c) is cst.ComparisonTarget)
            continue
        return False
    return True


def _returns_only_built(fi: "FunctionInfo", cls_key: str) -> bool:
    """Is every ``return`` of ``fi`` a call of the class ``cls_key`` (by its name in the function's module), the
    function a plain def (``def convmixer_64(**kwargs): return ConvMixer(dim=64, **kwargs)``)?"""
    nodes: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = [fi.node.body]
    while stack:
        n = stack.pop()
        nodes.append(n)
        stack.extend(children(n))
    returns = [n for n in nodes if type(n) is cst.Return]
    if not returns or any(type(n) in (cst.FunctionDef, cst.Lambda, cst.ClassDef) for n in nodes):
        return False
    for r in returns:
        v = r.value
        if type(v) is not cst.Call or type(v.func) is not cst.Name:
            return False
        held = fi.module.globals.get(v.func.value)
        if not (isinstance(held, RefV) and held.qualname == "class:" + cls_key):
            return False
    return True


def _frozen_record(m: "Semantics", obj: ObjV, depth: int = 0) -> bool:
    """``@dataclass(frozen=True)`` (the literal keyword) whose instance holds only ints, floats, bools, strings, None,
    tuples of them and such records: a config no code can change. A ``typing.NamedTuple`` is a tuple: no code can set
    its fields either, so it may hold arrays (whose shape no call changes) and such records as well (``post.X`` handed
    on)."""
    ci = m.find_class(obj.cls_key)
    if ci is None:
        return False

    st = class_state(ci)
    if st.named_tuple is None:
        st.named_tuple = "typing.NamedTuple" in foreign_bases(m, ci)  # type: ignore[arg-type]
    if st.named_tuple:
        return depth < 3 and all(
            _plain_value(x)
            or isinstance(x, TensorV)
            or (isinstance(x, ObjV) and x.concrete and _frozen_record(m, x, depth + 1))
            for _, x in obj.attrs
        )
    if not all(
        _plain_value(x) or (isinstance(x, ObjV) and x.concrete and depth < 3 and _frozen_record(m, x, depth + 1))
        for _, x in obj.attrs
    ):
        return False  # (a frozen config may hold frozen configs: ``grid: GridConfig = field(default_factory=...)``)
    for d in ci.node.decorators:
        call = d.decorator
        if (
            type(call) is cst.Call
            and ci.module.qualify(call.func) == "dataclasses.dataclass"
            and any(
                a.keyword is not None
                and a.keyword.value == "frozen"
                and type(a.value) is cst.Name
                and a.value.value == "True"
                for a in call.args
            )
        ):
            return True
    return False


def _frozen_module(m: "Semantics", obj: ObjV) -> bool:
    """An instance of an ``eqx.Module`` or a flax linen ``nn.Module`` subclass: setting a field once it is built
    raises (equinox's frozen dataclasses, linen's frozen modules), so code it is handed to cannot replace its layers
    (the transforms and optimisers of a JAX training step take the model and return new ones)."""
    ci = m.find_class(obj.cls_key)
    return ci is not None and any(b in _FROZEN_MODULE_BASES for b in objects.foreign_bases(ci.module, ci))


_FROZEN_MODULE_BASES = frozenset({"equinox.Module", "flax.linen.Module"})


def _counts_lengths(node: cst.BaseExpression) -> bool:
    """``len(x)``, or ``max(...)`` / ``min(...)`` of a generator or list comprehension of ``len(...)``: an int, never
    negative."""
    if type(node) is not cst.Call or type(node.func) is not cst.Name or len(node.args) != 1 or node.args[0].keyword:
        return False
    if node.args[0].star:
        return False
    if node.func.value == "len":
        return True
    arg = node.args[0].value
    if node.func.value in ("max", "min") and type(arg) in (cst.GeneratorExp, cst.ListComp):
        elt = cast(cst.GeneratorExp, arg).elt
        return type(elt) is cst.Call and type(elt.func) is cst.Name and elt.func.value == "len"
    return False


def _size_call(node: cst.BaseExpression) -> str | None:
    """The name ``x`` of ``x.size()`` (no argument: the whole shape), else None."""
    if type(node) is cst.Call and not node.args and type(node.func) is cst.Attribute:
        func = node.func
        if func.attr.value == "size" and type(func.value) is cst.Name:
            return func.value.value
    return None


def _plain_index(node: cst.BaseExpression) -> bool:
    """One name, ``self.attr`` or constant, ``i - 1`` / ``-1`` / ``i + k`` made of them (``res + self.offset``, a
    resolution key), or an f-string of names (``f"conv{i}_w"``, a key of a params dict filled in a loop): evaluating
    it runs nothing."""
    if type(node) in (cst.Name, cst.Integer, cst.SimpleString) or _self_attribute(node):
        return True
    if (
        type(node) is cst.Call
        and type(node.func) is cst.Name
        and node.func.value == "str"
        and len(node.args) == 1
        and not node.args[0].star
        and node.args[0].keyword is None
        and type(node.args[0].value) in (cst.Name, cst.Integer)
    ):
        return True  # ``self.blocks[str(res)]``: the key of an nn.ModuleDict filled in a loop
    if type(node) is cst.FormattedString:
        return all(
            type(part) is cst.FormattedStringText
            or (
                type(part) is cst.FormattedStringExpression
                and (type(part.expression) in (cst.Name, cst.Integer) or type(part.expression) is cst.BinaryOperation)
                and _plain_index(part.expression)  # (``f"c{i + 2}"``)
            )
            for part in node.parts
        )
    if type(node) is cst.UnaryOperation:
        return type(node.operator) is cst.Minus and type(node.expression) is cst.Integer
    if type(node) is cst.BinaryOperation:
        return (
            type(node.operator) in (cst.Add, cst.Subtract)
            and (type(node.left) in (cst.Name, cst.Integer) or _self_attribute(node.left))
            and (type(node.right) in (cst.Name, cst.Integer) or _self_attribute(node.right))
        )
    return False


def _self_attribute(node: cst.BaseExpression) -> bool:
    """``self.name``: an attribute the object holds (a method's ``self.offset``)."""
    return type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == "self"


def _subscript_root(node: cst.BaseExpression) -> cst.BaseExpression:
    """``groups[ind][key]`` -> ``groups``: the expression a chain of subscripts starts from."""
    while type(node) is cst.Subscript:
        node = node.value
    return node


def _with_item(container: Value, index: Value, value: Value) -> Value | None:
    """The dict with ``index`` (a known string) set to ``value``, the int-keyed dict (an empty dict too) with
    ``index`` (a known int) set, or the list with item ``index`` (a known int within it) replaced; None for anything
    else."""
    n = index.size.as_int() if isinstance(index, IntV) and not index.assumed else None
    if n is not None and (
        isinstance(container, IntDictV)
        or (isinstance(container, DictV) and container.kind == "dict" and not container.items)
    ):
        old = container.items if isinstance(container, IntDictV) else ()
        if any(k == n for k, _ in old):
            return IntDictV(tuple((k, value if k == n else v) for k, v in old))
        return IntDictV(old + ((n, value),))
    if isinstance(container, StateDictV) and isinstance(index, StrV):
        return StateDictV(tuple((k, v) for k, v in container.items if k != index.value) + ((index.value, value),))
    if isinstance(container, DictV) and isinstance(index, StrV):
        items = tuple((k, v) for k, v in container.items if k != index.value)
        if len(items) == len(container.items):
            return DictV(container.items + ((index.value, value),), container.kind)
        return DictV(tuple((k, value if k == index.value else v) for k, v in container.items), container.kind)
    if isinstance(container, SeqV) and container.kind == "list" and isinstance(index, SeqV) and index.kind == "slice":
        # xs[a:b] = ys, xs[slice(a, b)] = ys: the items of the slice replaced by those of ys, as Python does
        known = _slice_bounds(index)
        if known is None or not (isinstance(value, SeqV) and value.kind in ("tuple", "list", "shape")):
            return None
        listed = list(container.items)
        try:
            listed[slice(*known)] = list(value.items)
        except ValueError:  # an extended slice given another number of items: Python raises
            return None
        return SeqV(tuple(listed), "list")
    if isinstance(container, SeqV) and container.kind == "list" and isinstance(index, IntV):
        i = index.size.as_int()
        n = len(container.items)
        if i is None or not -n <= i < n:
            return None
        i %= n
        return SeqV(container.items[:i] + (value,) + container.items[i + 1 :], "list")
    return None


def _slice_bounds(v: SeqV) -> tuple[int | None, int | None, int | None] | None:
    """The (start, stop, step) of a ``slice(...)`` value (kind "slice") when each is a known int or None."""
    out: list[int | None] = []
    for b in v.items:
        if isinstance(b, NoneV):
            out.append(None)
        elif isinstance(b, IntV) and not b.assumed and (i := b.size.as_int()) is not None:
            out.append(i)
        else:
            return None
    if len(out) != 3 or out[2] == 0:
        return None
    return out[0], out[1], out[2]


# MONAI's layer factories (monai.networks.layers.factories: ``Conv = LayerFactory()`` filled by factory functions):
# what ``Factory[NAME, spatial_dims]`` returns, per factory and name, a torch.nn class by spatial dims or one class
_MONAI_FACTORIES = frozenset({"Conv", "Norm", "Pool", "Dropout", "Pad", "Act"})
_MONAI_FACTORY = re.compile(r"monai\.networks\.layers(?:\.factories)?\.(Conv|Norm|Pool|Dropout|Pad|Act)")
_MONAI_TABLE: dict[tuple[str, str], "str | tuple[str, ...]"] = {
    ("Conv", "CONV"): ("Conv1d", "Conv2d", "Conv3d"),
    ("Conv", "CONVTRANS"): ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"),
    ("Norm", "BATCH"): ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d"),
    ("Norm", "INSTANCE"): ("InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"),
    ("Norm", "GROUP"): "GroupNorm",
    ("Norm", "LAYER"): "LayerNorm",
    ("Norm", "LOCALRESPONSE"): "LocalResponseNorm",
    ("Norm", "SYNCBATCH"): "SyncBatchNorm",
    ("Pool", "MAX"): ("MaxPool1d", "MaxPool2d", "MaxPool3d"),
    ("Pool", "AVG"): ("AvgPool1d", "AvgPool2d", "AvgPool3d"),
    ("Pool", "ADAPTIVEMAX"): ("AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d"),
    ("Pool", "ADAPTIVEAVG"): ("AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d"),
    ("Dropout", "DROPOUT"): ("Dropout", "Dropout2d", "Dropout3d"),
    ("Dropout", "ALPHADROPOUT"): "AlphaDropout",
    ("Pad", "REPLICATIONPAD"): ("ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d"),
    ("Pad", "CONSTANTPAD"): ("ConstantPad1d", "ConstantPad2d", "ConstantPad3d"),
    **{
        ("Act", name.upper()): name
        for name in ("ELU", "ReLU", "LeakyReLU", "PReLU", "ReLU6", "SELU", "CELU", "GELU", "Sigmoid", "Tanh")
        + ("Softmax", "LogSoftmax")
    },
}


def _agreed_shape(shapes: Sequence[tuple[Size, ...]], other: Callable[[int], Size]) -> tuple[Size, ...]:
    """The shape of one rank that ``shapes`` (all of it) agree on: each axis's size where they all have it, else
    ``other(axis)`` (a size standing for whichever of them it is)."""
    first = shapes[0]
    return tuple(
        size if all(equal(size, sh[i]) is Truth.TRUE for sh in shapes[1:]) else other(i) for i, size in enumerate(first)
    )


def _list_shared_before(fn: cst.FunctionDef, loop: cst.CSTNode, name: str) -> bool:
    """Could code other than the loop's own ``append`` add to the list ``name`` while ``loop`` runs: is it named in a
    nested function or lambda of ``fn``, a global or nonlocal, or named before the loop other than as the target of
    ``name = [...]`` (handed to a call or an object, aliased: ``logger = Logger(outs)``)?"""
    key = f"list-shared:{name}:{id(loop)}"
    return memo(key, fn, lambda f: _shared_before(f, loop, name))


def _shared_before(fn: cst.CSTNode, loop: cst.CSTNode, name: str) -> bool:
    stack: list[tuple[cst.CSTNode, bool]] = [(c, False) for c in reversed(children(fn))]
    seen_loop = False
    while stack:
        n, nested = stack.pop()
        if n is loop:
            seen_loop = True
            continue
        tp = type(n)
        if tp in (cst.Global, cst.Nonlocal) and any(a.name.value == name for a in n.names):  # type: ignore[attr-defined]
            return True
        inner = nested or tp in (cst.FunctionDef, cst.Lambda, cst.ClassDef)
        if tp is cst.Name and n.value == name:  # type: ignore[attr-defined]
            if inner:
                return True
        if not seen_loop and tp is cst.Assign and not inner and len(n.targets) == 1:  # type: ignore[attr-defined]
            target, value = n.targets[0].target, n.value  # type: ignore[attr-defined]
            pairs: list[tuple[cst.BaseExpression, cst.BaseExpression]] = [(target, value)]
            if type(target) in (cst.Tuple, cst.List) and type(value) in (cst.Tuple, cst.List):
                # ``logits, alphas = [], []``
                ts, vs = target.elements, value.elements
                if len(ts) == len(vs) and not any(type(e) is cst.StarredElement for e in (*ts, *vs)):
                    pairs = [(t.value, v.value) for t, v in zip(ts, vs)]
            if any(type(t) is cst.Name and t.value == name and type(v) is cst.List for t, v in pairs):
                stack.extend((c, inner) for c in reversed(children(value)))
                continue
        if not seen_loop and tp is cst.Name and n.value == name:  # type: ignore[attr-defined]
            return True
        stack.extend((c, inner) for c in reversed(children(n)))
    return False


def _loop_iter_call(stmt: cst.CSTNode) -> cst.Call:
    """The ``iter(x)`` call a ``for`` over an object makes (running its ``__iter__``), once per loop statement."""
    return cst.Call(func=cst.Name("iter"), args=(cst.Arg(cast(cst.For, stmt).iter),))


def _appended_once(body: cst.CSTNode) -> frozenset[str]:
    """The lists a loop body appends one element to in every iteration: one ``xs.append(v)`` statement of its own,
    outside any branch, loop or ``try`` (a ``with`` block runs its body once), no other change of ``xs`` (no rebinding,
    extend, pop, item store or delete) and no ``break`` or ``continue`` of this loop."""
    once: dict[str, int] = {}
    stmts: list[cst.CSTNode] = list(getattr(body, "body", ()))
    while stmts:
        st = stmts.pop()
        if type(st) is cst.With:
            stmts.extend(st.body.body)
        elif type(st) is cst.SimpleStatementLine:
            for small in st.body:
                call = small.value if type(small) is cst.Expr else None
                if (
                    type(call) is cst.Call
                    and type(call.func) is cst.Attribute
                    and type(call.func.value) is cst.Name
                    and call.func.attr.value == "append"
                    and len(call.args) == 1
                    and not call.args[0].star
                    and call.args[0].keyword is None
                ):
                    name = call.func.value.value
                    once[name] = once.get(name, 0) + 1
    if not once:
        return frozenset()
    # every other mention of the list must only read it: ``xs[-1]``, ``len(xs)`` (handed to a function, or changed,
    # it may get other elements)
    uses: dict[str, int] = {}
    stack: list[tuple[cst.CSTNode, bool]] = [(body, True)]  # (node, whether a break / continue there is this loop's)
    while stack:
        n, own = stack.pop()
        tp = type(n)
        if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        if (tp is cst.Break or tp is cst.Continue) and own:
            return frozenset()
        kids = children(n)
        if tp is cst.Name:
            uses[n.value] = uses.get(n.value, 0) + 1  # type: ignore[attr-defined]
        elif tp is cst.Attribute and type(n.value) is cst.Name and n.attr.value == "append":  # type: ignore[attr-defined]
            kids = []  # (the append itself, counted above)
            uses[n.value.value] = uses.get(n.value.value, 0) + 100  # type: ignore[attr-defined]
        elif tp is cst.Subscript and type(n.value) is cst.Name:  # type: ignore[attr-defined]
            kids = [c for c in kids if c is not n.value]  # type: ignore[attr-defined]
        elif tp is cst.Call and type(n.func) is cst.Name and n.func.value == "len":  # type: ignore[attr-defined]
            kids = [a.value for a in n.args if type(a.value) is not cst.Name]  # type: ignore[attr-defined]
        elif tp in (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del):
            target = n.target  # type: ignore[attr-defined]
            leaves = target_leaves(target) if tp is not cst.AugAssign else [target]
            for leaf in leaves:
                root = chain_root(leaf.value if type(leaf) is cst.Subscript else leaf)
                if type(root) is cst.Name:
                    uses[root.value] = uses.get(root.value, 0) + 1  # an item stored, or the name bound again
        inner = own and tp not in (cst.For, cst.While)
        stack.extend((c, inner) for c in kids)
    return frozenset(k for k, c in once.items() if c == 1 and uses.get(k) == 100)


def _changed_in_place(body: cst.CSTNode) -> frozenset[str]:
    """The variables a loop body changes in place, not binding them again: an item stored or deleted
    (``fields[name] = v``, ``del cache[k]``), a container method called (``groups.append(x)``, ``d.update(e)``);
    nested function and class bodies left out."""
    out: set[str] = set()
    stack: list[cst.CSTNode] = [body]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        changed: list[cst.BaseExpression] = []  # the containers changed
        if tp is cst.AssignTarget or tp is cst.AugAssign:
            changed = [t.value for t in target_leaves(n.target) if type(t) is cst.Subscript]  # type: ignore[attr-defined]
        elif tp is cst.Del:
            t = n.target  # type: ignore[attr-defined]
            changed = (
                [e.value.value for e in t.elements if type(e.value) is cst.Subscript] if type(t) is cst.Tuple else []
            )
            changed += [t.value] if type(t) is cst.Subscript else []
        elif tp is cst.Call and type(n.func) is cst.Attribute and n.func.attr.value in _CLOSURE_MUTATORS:  # type: ignore[attr-defined]
            changed = [n.func.value]  # type: ignore[attr-defined]
        for c in changed:
            key = _var_key(chain_root(c))
            if key is not None:
                out.add(key)
        stack.extend(children(n))
    return frozenset(out)


def _holds(container: Value, obj: Value, depth: int) -> bool:
    """Does ``container`` (a list, tuple, dict or object) hold ``obj`` itself, ``depth`` levels down at most?"""
    if depth <= 0:
        return False
    if isinstance(container, SeqV):
        items: tuple[Value, ...] = container.items
    elif isinstance(container, ManyV):
        items = (container.elem,) if container.elem is not None else ()
    elif isinstance(container, (DictV, IntDictV)):
        items = tuple(x for _, x in container.items)
    elif isinstance(container, ObjV):
        items = tuple(x for _, x in container.attrs)
    else:
        return False
    return any(x is obj or _holds(x, obj, depth - 1) for x in items)


_CLOSURE_MUTATORS = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "add", "update", "discard", "setdefault", "popitem"}
    | {"__setitem__", "__delitem__", "__setattr__", "__delattr__"}  # (``calls.__setitem__("n", n + 1)`` in a lambda)
)


def attr_path(node: cst.BaseExpression, root: cst.BaseExpression) -> list[str] | None:
    """The attribute names from ``root`` down to ``node`` (``blk.attn.cache`` from ``blk``: ["attn", "cache"]);
    None when something else than an attribute is on the way."""
    path: list[str] = []
    while node is not root:
        if type(node) is not cst.Attribute:
            return None
        path.append(node.attr.value)
        node = node.value
    path.reverse()
    return path


def _global_names(tree: cst.CSTNode) -> frozenset[str]:
    """The names the functions of a module declare ``global``."""
    out: set[str] = set()
    stack: list[cst.CSTNode] = [tree]
    while stack:
        n = stack.pop()
        if type(n) is cst.Global:
            out.update(a.name.value for a in n.names)
        stack.extend(children(n))
    return frozenset(out)


def _nonlocal_names(fn: cst.CSTNode) -> frozenset[str]:
    """The names of the enclosing function that a function defined in it (or one nested in that) may rebind or set
    an attribute of: those it declares ``nonlocal``, and the captured names whose attributes it assigns (``c.n +=
    1``; not ``self``, a parameter or a name of its own)."""
    out: set[str] = set()
    own: set[str] = set()
    bound: set[str] = set()  # names the function binds itself (not only mutates: ``hits.append(h)``)
    if type(fn) is cst.FunctionDef:
        ps = fn.params
        own.update(p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params))
        own.update(p.name.value for p in (ps.star_arg, ps.star_kwarg) if isinstance(p, cst.Param))
        bound.update(own)
        own.update(_assigned_names(fn.body))
        for n in walk_all(fn.body):
            if type(n) in (cst.AssignTarget, cst.For, cst.CompFor, cst.AugAssign, cst.AnnAssign):
                if type(n.target) is cst.Name:  # type: ignore[attr-defined]
                    bound.add(n.target.value)  # type: ignore[attr-defined]
                elif type(n.target) in (cst.Tuple, cst.List):  # type: ignore[attr-defined]
                    bound.update(_target_names(n.target))  # type: ignore[attr-defined]
            elif type(n) is cst.WithItem and n.asname is not None:
                bound.update(_target_names(n.asname.name))
    stack: list[cst.CSTNode] = [fn]
    while stack:
        n = stack.pop()
        if type(n) is cst.Nonlocal:
            out.update(a.name.value for a in n.names)
        elif type(n) is cst.AssignTarget or type(n) is cst.AugAssign or type(n) is cst.Del:
            t: cst.BaseExpression = n.target
            if type(t) is cst.Attribute:
                root = chain_root(t)
                if type(root) is cst.Name and root.value != "self" and root.value not in own:
                    out.add(root.value)
            elif type(t) is cst.Subscript:
                # ``seen[k] = v`` of a captured list or dict: its items changed
                root = chain_root(t)
                if type(root) is cst.Name and root.value != "self" and root.value not in bound:
                    out.add(root.value)
        elif type(n) is cst.Call and type(n.func) is cst.Attribute and n.func.attr.value in _LIST_MUTATORS:
            # ``hits.append(h)`` of a captured list (a parser's ``flush()``): what it holds changed
            root = chain_root(n.func.value)
            if type(root) is cst.Name and root.value != "self" and root.value not in bound:
                out.add(root.value)
        stack.extend(children(n))
    return frozenset(out)


def _changed_by_closures(fn: cst.CSTNode) -> frozenset[str]:
    """Names of ``fn`` that a function, lambda or class nested in it may change when called by code the analysis
    does not follow (a forward hook, a callback, a property): declared ``nonlocal``/``global`` there, or mutated there
    (``calls.append(x)``, ``seen[0] += 1``, ``box.n = 1``); and the names ``fn`` assigns from them
    (``n = len(calls)``)."""
    changed: set[str] = set()
    nested: list[cst.CSTNode] = []
    todo: list[cst.CSTNode] = list(children(fn.body)) if hasattr(fn, "body") else []
    while todo:
        n = todo.pop()
        if type(n) in (cst.FunctionDef, cst.Lambda, cst.ClassDef):
            nested.append(n)
            continue
        todo.extend(children(n))
    for scope in nested:
        todo = [scope]
        while todo:
            n = todo.pop()
            tp = type(n)
            if tp is cst.Nonlocal or tp is cst.Global:
                changed.update(a.name.value for a in n.names)  # type: ignore[attr-defined]
            elif tp is cst.Call and type(n.func) is cst.Attribute and n.func.attr.value in _CLOSURE_MUTATORS:  # type: ignore[attr-defined]
                base = n.func.value  # type: ignore[attr-defined]
                while type(base) in (cst.Attribute, cst.Subscript):
                    base = base.value  # type: ignore[attr-defined]
                if type(base) is cst.Name:
                    changed.add(base.value)
            elif tp in (cst.AssignTarget, cst.AugAssign):
                target = n.target  # type: ignore[attr-defined]
                while type(target) in (cst.Attribute, cst.Subscript):
                    target = target.value
                    if type(target) is cst.Name:
                        changed.add(target.value)
            todo.extend(children(n))
    if not changed:
        return frozenset()
    assigns: list[tuple[list[str], set[str]]] = []
    todo = list(children(fn.body))  # type: ignore[attr-defined]
    while todo:
        n = todo.pop()
        if type(n) in (cst.FunctionDef, cst.Lambda, cst.ClassDef):
            continue
        if type(n) in (cst.Assign, cst.AnnAssign, cst.AugAssign) and getattr(n, "value", None) is not None:
            targets = [t.target for t in n.targets] if type(n) is cst.Assign else [n.target]  # type: ignore[attr-defined]
            names = [x for t in targets for x in _names_in(t)]
            assigns.append((names, _names_in(n.value)))  # type: ignore[attr-defined]
        todo.extend(children(n))
    for _ in range(3):
        grew = False
        for names, reads in assigns:
            if reads & changed and not changed.issuperset(names):
                changed.update(names)
                grew = True
        if not grew:
            break
    return frozenset(changed)


_GATE_OPS = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
_GATE_FLIP: dict[Any, Any] = {
    cst.LessThan: cst.GreaterThan,
    cst.LessThanEqual: cst.GreaterThanEqual,
    cst.GreaterThan: cst.LessThan,
    cst.GreaterThanEqual: cst.LessThanEqual,
}


def _is_one(node: cst.BaseExpression) -> bool:
    """``1``, ``(1,)`` or ``[1]``: the shape of a one-element draw."""
    if type(node) is cst.Integer:
        return node.value == "1"
    if type(node) in (cst.Tuple, cst.List):
        elements = cast(Any, node).elements
        return len(elements) == 1 and type(elements[0].value) is cst.Integer and elements[0].value.value == "1"
    return False


MAX_STRING = 10_000  # characters of a string an operation of the analysed code builds


# ``%`` conversions whose width or precision is written out larger than this (or given by ``*``) are not formatted
_PERCENT_SPEC = re.compile(r"%[-+ #0]*(\*|\d+)?(?:\.(\*|\d+))?")


def _string_operation(text: str, op: cst.CSTNode, right: Value) -> str | None:
    """``text + s``, ``text * n`` and ``text % values`` of known operands, as Python computes them (None: not one of
    those, or Python would raise: the operation's value is then not known)."""
    tp = type(op)
    if tp in (cst.Add, cst.AddAssign):
        return text + right.value if isinstance(right, StrV) else None
    if tp in (cst.Multiply, cst.MultiplyAssign):
        n = right.size.as_int() if type(right) is IntV and not right.assumed else None
        return text * n if n is not None and len(text) * max(n, 0) <= MAX_STRING else None
    if tp not in (cst.Modulo, cst.ModuloAssign):
        return None
    for m in _PERCENT_SPEC.finditer(text):
        for part in m.groups():
            if part is not None and (part == "*" or len(part) > 3):
                return None
    items = right.items if isinstance(right, SeqV) and right.kind == "tuple" else (right,)
    values: list[object] = []
    for v in items:
        if type(v) is BoolV and v.value is not None:
            values.append(v.value)
        elif type(v) is IntV and not v.assumed and v.size.as_int() is not None:
            values.append(v.size.as_int())
        elif type(v) is FloatV and v.value is not None:
            values.append(v.value)
        elif type(v) is StrV:
            values.append(v.value)
        else:
            return None  # (a dict of names, a list, an object: not followed)
    try:
        return text % (tuple(values) if isinstance(right, SeqV) else values[0])
    except (TypeError, ValueError, OverflowError, KeyError):
        return None


def _loop_sources(stmt: cst.For, count: int) -> list[str] | None:
    """The names a ``for x in (a, b, c):`` runs over, one per element, when the target is a plain name its body never
    binds (None: any other loop)."""
    it, target = stmt.iter, stmt.target
    if type(target) is not cst.Name or type(it) not in (cst.Tuple, cst.List):
        return None
    elements = cast("cst.Tuple | cst.List", it).elements
    names = [e.value.value for e in elements if type(e) is cst.Element and type(e.value) is cst.Name]
    if len(names) != len(elements) or len(names) != count or len(set(names)) != len(names) or target.value in names:
        return None
    if {target.value, *names} & _assigned_names(stmt.body):
        return None
    return names


def _module_file(path: str) -> Value:
    """``__file__``: the module's file, as an absolute path (what a config file beside it is found from)."""
    import os

    return StrV(os.path.abspath(path)) if os.path.isfile(path) else UNKNOWN


def _mutable_container(v: Value | None) -> bool:
    """A list or dict (or a list of any length): what another name for it can change in place."""
    return (isinstance(v, (SeqV, ManyV)) and v.kind == "list") or (isinstance(v, DictV) and v.kind == "dict")


# the node types of a comparison of names, attributes and constants (with _PURE_INDEX)
_COMPARISON_PARTS: tuple[type[cst.CSTNode], ...] = (
    cst.Comparison,
    cst.ComparisonTarget,
    cst.LessThan,
    cst.LessThanEqual,
    cst.GreaterThan,
    cst.GreaterThanEqual,
    cst.Equal,
    cst.NotEqual,
    cst.Is,
    cst.IsNot,
    cst.In,
    cst.NotIn,
    cst.BitOr,
    cst.Add,
    cst.Subtract,
    cst.Minus,
    cst.LeftParen,
    cst.RightParen,
    cst.SimpleWhitespace,
    cst.ParenthesizedWhitespace,
    cst.Newline,
    cst.EmptyLine,
    cst.TrailingWhitespace,
    cst.Comment,
    cst.Dot,
    cst.Integer,
    cst.Float,
    cst.SimpleString,
)


def _truth(v: Value) -> bool | None:
    """``bool(v)`` where the value decides it: None, known numbers and strings, sequences of known length, layers
    that have no ``__len__``. Tensors (ambiguous or data-dependent), symbolic sizes and objects of the analysed
    code's classes (they may define ``__bool__`` / ``__len__``) stay undecided."""
    if isinstance(v, BoolV):
        return v.value
    if isinstance(v, NoneV):
        return False
    if isinstance(v, IntV):
        n = v.size.as_int()
        return None if n is None else n != 0
    if isinstance(v, FloatV):
        return None if v.value is None else v.value != 0
    if isinstance(v, StrV):
        return bool(v.value)
    if isinstance(v, SeqV):
        return True if v.kind == "iter" else bool(v.items)  # (an iterator object is always true)
    if isinstance(v, DictV) and v.kind in ("match", "regex", "path"):
        return True  # a regular expression's match or compiled pattern (regex_calls), a path (path_values)
    if isinstance(v, DictV) and v.kind in ("dict", "moduledict"):
        return bool(v.items)  # every key known (``embed_args or {}``, ``deepcopy(cfg) if cfg else {}``)
    if isinstance(v, IntDictV):
        return bool(v.items)
    if isinstance(v, LayerV) and v.kind not in _SIZED_CONTAINERS:
        return True
    if isinstance(v, RefV) and v.qualname.startswith("torch.nn.") and v.qualname.rsplit(".", 1)[-1][:1].isupper():
        return True  # a torch.nn class (``if not act_layer: return None`` of ``act_layer=nn.ReLU``): a class is true
    if isinstance(v, RefV) and v.qualname.startswith("builtins.") and v.qualname[9:] in BUILTIN_EXCEPTIONS:
        return True  # a builtin exception class
    return None


# Python's builtin exception classes most used as values (``pytest.mark.parametrize("x, error", [(..., ValueError)])``)
BUILTIN_EXCEPTIONS = frozenset(
    {
        "Exception",
        "BaseException",
        "ArithmeticError",
        "AssertionError",
        "AttributeError",
        "IndexError",
        "KeyError",
        "LookupError",
        "NotImplementedError",
        "OverflowError",
        "RuntimeError",
        "StopIteration",
        "TypeError",
        "ValueError",
        "ZeroDivisionError",
    }
)


def _set_member_kind(v: Value) -> bool:
    """A member of a set the analysis holds: a class of the analysed code (by its key), a ``functools.partial``
    object or a def, none of which is a torch.nn class; a known string (``{f.name for f in fields(cls)}``)."""
    if isinstance(v, StrV):
        return True
    if isinstance(v, RefV):
        return v.qualname.startswith("class:")
    if isinstance(v, LayerV):
        return v.kind == "partial"
    return isinstance(v, FuncV) and v.bound_self is None


def _str_equal(a: Value, b: Value) -> bool | None:
    """``v == "M"`` where one side is a known string: two strings compare by value; a string never equals a
    number (``16 == "M"``, a config list mixing channel counts and pooling markers), a bool or None (``act ==
    'relu'`` with ``act=False``), a tuple, list or dict (``act == "prelu"`` with ``act=("elu", {"inplace": True})``)."""
    if isinstance(a, StrV) and isinstance(b, StrV):
        return a.value == b.value
    other = (IntV, FloatV, BoolV, NoneV, SeqV, DictV)
    if isinstance(a, StrV) and isinstance(b, other) or isinstance(b, StrV) and isinstance(a, other):
        return False
    return None


_EQUAL = cst.Equal()


def _int_equal(a: IntV, b: Value) -> bool | None:
    """``a == b`` for a known int among a sequence's items (``i in self.out_indices``): never a string or None."""
    if isinstance(b, IntV):
        return _compare(a, _EQUAL, b)
    return False if isinstance(b, (StrV, NoneV)) else None


def item_equal(a: Value, item: Value) -> bool | None:
    """``a == item`` for ``a in seq`` and ``seq.index(a)``: a known string (``_str_equal``), a known int
    (``i in self.out_indices``: ``_int_equal``) or a dtype (``x.dtype in (torch.int, torch.long)``); None when not
    known."""
    if isinstance(a, StrV):
        return _str_equal(a, item)
    if isinstance(a, IntV):
        return _int_equal(a, item)
    if isinstance(a, DtypeV):
        return a.name == item.name if isinstance(item, DtypeV) else None
    return None


_NUMBER_ORDER: dict[type, Callable[[float, float], bool]] = {
    cst.Equal: lambda x, y: x == y,
    cst.NotEqual: lambda x, y: x != y,
    cst.LessThan: lambda x, y: x < y,
    cst.LessThanEqual: lambda x, y: x <= y,
    cst.GreaterThan: lambda x, y: x > y,
    cst.GreaterThanEqual: lambda x, y: x >= y,
}


def _known_number(v: Value) -> float | None:
    """The value of a float, or of an int whose size is a known constant; None otherwise."""
    if isinstance(v, FloatV):
        return v.value
    if isinstance(v, IntV):
        n = v.size.as_int()
        return float(n) if n is not None else None
    return None


def _int_and_sequence(a: Value, b: Value) -> bool:
    """One side a Python int (not a numpy integer, which compares elementwise; not a parameter only taken for a
    size), the other a tuple or list display the analysis knows."""
    for x, y in ((a, b), (b, a)):
        if (
            isinstance(x, IntV)
            and not x.assumed
            and x.origin != NUMPY_INT
            and isinstance(y, SeqV)
            and y.kind in ("tuple", "list")
            and y.names is None
        ):
            return True
    return False


def _enum_member(m: "Semantics", cls_key: str, attr: str) -> RefV | None:
    """``Expect.RAISE`` where ``Expect`` is a plain ``enum.Enum`` (its only base) of the analysed code whose
    members its body assigns with ``auto()`` or distinct literals (no member is another's alias): the member, a value
    equal and identical only to itself. None for anything else."""
    ci = m.find_class(cls_key)
    if ci is None or objects.base_infos(ci.module, ci) != ["enum.Enum"]:
        return None  # (a str or int mixin, StrEnum, IntEnum: members equal to their values, kept as those values)
    members: dict[str, str] = {}
    for stmt in ci.node.body.body:
        if type(stmt) is not cst.SimpleStatementLine:
            continue
        for small in stmt.body:
            if type(small) is not cst.Assign:
                continue
            if len(small.targets) != 1 or type(small.targets[0].target) is not cst.Name:
                return None
            name = small.targets[0].target.value
            if name.startswith("_"):
                continue
            value = small.value
            if type(value) is cst.Call and type(value.func) in (cst.Name, cst.Attribute) and not value.args:
                func = value.func
                called = func.value if type(func) is cst.Name else func.attr.value  # type: ignore[attr-defined]
                key = f"<auto {name}>" if called == "auto" else None
            elif type(value) in (cst.Integer, cst.SimpleString):
                key = value.value  # type: ignore[attr-defined]
            else:
                key = None
            if key is None or key in members.values():
                return None  # a value not known, or an alias of an earlier member
            members[name] = key
    return RefV(f"enum:{cls_key}.{attr}") if attr in members else None


def _compare(a: Value, op: cst.CSTNode, b: Value) -> bool | None:
    if (
        isinstance(a, RefV)
        and isinstance(b, RefV)
        and a.qualname.startswith("enum:")
        and b.qualname.startswith("enum:")
        and type(op) in (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual)
    ):
        return (a.qualname == b.qualname) == (type(op) in (cst.Is, cst.Equal))  # two enum members

    if isinstance(a, IntV) and isinstance(b, IntV):
        if type(op) is cst.Equal:
            t = equal(a.size, b.size)
        elif type(op) is cst.NotEqual:
            t = equal(a.size, b.size).negate()
        elif type(op) is cst.GreaterThanEqual:
            t = greater_equal(a.size, b.size)
        elif type(op) is cst.LessThanEqual:
            t = greater_equal(b.size, a.size)
        elif type(op) is cst.GreaterThan:
            t = greater_equal(b.size, a.size).negate()
        elif type(op) is cst.LessThan:
            t = greater_equal(a.size, b.size).negate()
        else:
            return None
        return None if t is Truth.UNKNOWN else t is Truth.TRUE
    if (
        (isinstance(a, FloatV) or isinstance(b, FloatV))
        and not (isinstance(a, StrV) or isinstance(b, StrV))
        and type(op) not in (cst.Is, cst.IsNot)
    ):
        # ``if self.keep_rate < 1``: known numbers compare (a number and a string: equality below; ``se_ratio is not
        # None``: identity with None below)
        x, y = _known_number(a), _known_number(b)
        if x is None or y is None:
            return None
        return _NUMBER_ORDER[type(op)](x, y) if type(op) in _NUMBER_ORDER else None
    if type(op) in (cst.Equal, cst.NotEqual) and (isinstance(a, StrV) or isinstance(b, StrV)):
        eq = _str_equal(a, b)
        return None if eq is None else eq == (type(op) is cst.Equal)
    if type(op) in (cst.Equal, cst.NotEqual) and _int_and_sequence(a, b):
        # ``next_h_dim != dim`` of a Python int and a tuple or list: never equal (no elementwise comparison)
        return type(op) is cst.NotEqual
    if type(op) in (cst.Equal, cst.NotEqual) and _sizes_tuple(a) and _sizes_tuple(b):
        # ``sd["pos_embed"].shape != self.pos_embed.shape``: torch.Size is a tuple, compared item by item
        eq = _sizes_equal(a, b)  # type: ignore[arg-type]
        return None if eq is None else eq == (type(op) is cst.Equal)
    if type(op) in (cst.Equal, cst.NotEqual) and isinstance(a, DtypeV) and isinstance(b, DtypeV):
        # ``x.dtype == torch.long``: two known dtypes (canonical names) are equal exactly when they are the same
        return (a.name == b.name) == (type(op) is cst.Equal)
    if type(op) in (cst.In, cst.NotIn) and isinstance(a, StrV) and isinstance(b, StrV):
        return (a.value in b.value) == (type(op) is cst.In)  # a substring test (``"deep" in stem_type``)
    if type(op) in (cst.In, cst.NotIn) and isinstance(b, StateDictV) and isinstance(a, StrV):
        # a key of a state dict known to be in it; another may be too
        return (type(op) is cst.In) if any(k == a.value for k, _ in b.items) else None
    if type(op) in (cst.In, cst.NotIn) and isinstance(b, DictV) and isinstance(a, StrV):
        return any(k == a.value for k, _ in b.items) == (type(op) is cst.In)  # a key of a dict of known keys
    if type(op) in (cst.In, cst.NotIn) and (isinstance(b, IntDictV) or (isinstance(b, DictV) and b.kind == "dict")):
        # ``next_res in residuals``: a known int among the known int keys (a dict of string keys has none)
        n = a.size.as_int() if isinstance(a, IntV) and not a.assumed else None
        if n is not None:
            return any(k == n for k, _ in b.items) == (type(op) is cst.In)
        if isinstance(a, StrV) and isinstance(b, IntDictV):
            return type(op) is cst.NotIn
        return None
    if type(op) in (cst.In, cst.NotIn) and isinstance(b, SeqV) and b.kind != "shape":
        if not b.items and b.kind in ("list", "tuple"):
            return type(op) is cst.NotIn  # nothing is in an empty list or tuple
        if b.kind == "set":
            # a set of the analysed code's classes (``norm_layer in _NORM_ACT_TYPES``): a class is in it when it is
            # one of them; a torch.nn class or another of the analysed code's classes is not
            return None
        found = [item_equal(a, item) for item in b.items] or [None]
        if True in found:
            return type(op) is cst.In
        return None if None in found else type(op) is cst.NotIn
    if type(op) in (cst.Equal, cst.NotEqual) and isinstance(a, BoolV) and isinstance(b, BoolV):
        # ``if vq == True``: two known bools (a numpy bool compares equal to the Python bool of its value too)
        if a.value is None or b.value is None:
            return None
        return (a.value == b.value) == (type(op) is cst.Equal)
    if type(op) in (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual) and isinstance(a, RefV) and isinstance(b, RefV):
        same = _same_torch_nn_class(a, b)  # ``layer.__bases__[0] is torch.nn.modules.conv._ConvNd``
        if same is not None:
            return same == (type(op) in (cst.Is, cst.Equal))
    if type(op) in (cst.Is, cst.IsNot) and (isinstance(a, NoneV) or isinstance(b, NoneV)):
        other = b if isinstance(a, NoneV) else a
        if isinstance(other, NoneV):
            r = True
        elif isinstance(
            other,
            (TensorV, IntV, StrV, SeqV, LayerV, FuncV, ObjV, BoolV, FloatV, DictV, StateDictV, IntDictV, ManyV, RefV),
        ):
            r = False  # a value of a known kind (an object: ``self.downsample is not None``) is not None
        else:
            return None
        return r if type(op) is cst.Is else not r
    if type(op) in (cst.Is, cst.IsNot) and (
        _str_equal(a, b) is False or (isinstance(a, IntV) and _int_equal(a, b) is False)
    ):
        # ``fmt is Format.NLC`` of two different strings (enum members held as their values) or ints: never one object
        return type(op) is not cst.Is
    return None


def _torch_nn_bases(v: RefV) -> Value | None:
    """``C.__bases__`` of a torch.nn class the analysis knows with one direct base: a tuple of that base."""
    from ..rules.layers import torch_nn_direct_base
    from ..rules.multi_ops import _torch_nn_class

    name = _torch_nn_class(v.qualname)
    base = None if name is None else torch_nn_direct_base(name)
    return None if base is None else SeqV((RefV(f"torch.nn.{base}"),), "tuple")


def _same_torch_nn_class(a: RefV, b: RefV) -> bool | None:
    """Two references to torch.nn classes the analysis knows, however imported (``nn.Conv2d``,
    ``torch.nn.modules.conv.Conv2d``): whether they are one class; None when either is anything else."""
    from ..rules.layers import torch_nn_known_class
    from ..rules.multi_ops import _torch_nn_class

    names = [_torch_nn_class(v.qualname) for v in (a, b)]
    if not all(n is not None and torch_nn_known_class(n) for n in names):
        return None
    return names[0] == names[1]


def _bool_identity(
    left_node: cst.BaseExpression, a: Value, op: cst.CSTNode, right_node: cst.BaseExpression, b: Value
) -> bool | None:
    """``vq is True`` / ``flag is not False``: a known bool against the literal ``True`` or ``False`` written in the
    comparison (the idiom of a flag parameter called with a literal). Only with a literal on one side, so that the
    other side is the flag as it was passed; None otherwise (unknown)."""
    if not (isinstance(a, BoolV) and isinstance(b, BoolV)) or a.value is None or b.value is None:
        return None
    if not any(type(n) is cst.Name and n.value in ("True", "False") for n in (left_node, right_node)):
        return None
    return (a.value is b.value) == (type(op) is cst.Is)


# an nn.ModuleList subclass's modules among its instance's attributes (module.MODULE_LIST_ATTR)
MODULE_LIST_ATTR = "<nn.ModuleList modules>"
# an nn.ModuleDict subclass's modules, by name (objects.plain_module_dict)
MODULE_DICT_ATTR = "<nn.ModuleDict modules>"


def _sizes_tuple(v: Value) -> bool:
    """A shape or a tuple whose items are all known-kind ints (no int parameter that may be a tuple)."""
    return (
        isinstance(v, SeqV)
        and v.kind in ("shape", "tuple")
        and all(isinstance(x, IntV) and not x.assumed for x in v.items)
    )


def _sizes_equal(a: SeqV, b: SeqV) -> bool | None:
    """Are two tuples of ints equal: False for another length or a pair of items certainly different, True when every
    pair is certainly equal, else None."""
    if len(a.items) != len(b.items):
        return False
    result: bool | None = True
    for x, y in zip(a.items, b.items):
        assert isinstance(x, IntV) and isinstance(y, IntV)
        t = equal(x.size, y.size)
        if t is Truth.FALSE:
            return False
        if t is Truth.UNKNOWN:
            result = None
    return result


def held_modules(v: ObjV) -> Value | None:
    """The modules an instance of a plain ``nn.ModuleList`` subclass holds (``objects.plain_module_list``): what
    iterating, indexing or ``len`` of the instance sees. None for any other object."""
    held = v.attr(MODULE_LIST_ATTR)
    return held if isinstance(held, (SeqV, ManyV)) else None


def _chain_modules(v: ObjV) -> SeqV | None:
    """The modules of an instance of a plain ``nn.Sequential`` subclass (``objects.plain_sequential``) in order, as
    iterating it gives them; None when they are not each known to be one module."""
    chain = v.attr("<nn.Sequential layers>")
    layers = _sequential_layers(chain) if chain is not None else None
    return SeqV(layers, "list") if layers is not None else None


def _sequential_layers(v: Value) -> tuple[Value, ...] | None:
    """The modules of a torch ``nn.Sequential`` in order, when each of them is known to be one module (a link standing
    for any number of repeated blocks, or a Keras model, gives None)."""
    if not isinstance(v, LayerV) or v.kind != "Sequential" or v.param("keras"):
        return None
    layers = v.param("layers")
    if not isinstance(layers, tuple):
        return None
    if any(isinstance(x, LayerV) and x.kind == "Sequential" and x.param("repeat") is not None for x in layers):
        return None
    return layers


def _torch_layer(v: Value) -> bool:
    """A framework layer value of a module kind (not a parameter): what assigning to an attribute registers as a
    submodule."""
    from ..rules.registry import LAYER_KINDS

    return (
        isinstance(v, LayerV)
        and v.kind in LAYER_KINDS
        and v.kind not in ("Parameter", "ParameterList")
        and not v.param("keras")
    )


def _plain_data(v: Value) -> bool:
    """A value that is certainly no torch module (assigned to an attribute, it registers nothing)."""
    if isinstance(v, SeqV):
        return v.kind in ("tuple", "list", "shape") and all(_plain_data(x) for x in v.items)
    return isinstance(v, (IntV, FloatV, StrV, BoolV, NoneV, TensorV))


def _literal_bounds(sl: cst.Slice) -> tuple[int | None, int | None] | None:
    """(lower, upper) of a slice of step 1 (or none) whose given bounds are int literals (``[-2:]``, ``[1:3]``); None
    when a bound or the step is anything else."""
    if sl.step is not None and _literal_int(sl.step) != 1:
        return None
    lo, hi = (None if b is None else _literal_int(b) for b in (sl.lower, sl.upper))
    if (sl.lower is not None and lo is None) or (sl.upper is not None and hi is None):
        return None
    return lo, hi


def _literal_int(node: cst.BaseExpression) -> int | None:
    """An integer literal, possibly negated (``2``, ``-3``)."""
    if type(node) is cst.Integer:
        return int(node.evaluated_value)
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
        inner = _literal_int(node.expression)
        return None if inner is None else -inner
    return None


def _slice_length_bound(lo: int | None, hi: int | None) -> int | None:
    """The largest number of items ``seq[lo:hi]`` (step 1) has over sequences of every length, None if unbounded."""
    if hi is None:
        return -lo if lo is not None and lo < 0 else None
    if lo is None:
        lo = 0
    if (lo >= 0) == (hi >= 0):
        return max(0, hi - lo)
    return None if lo >= 0 else min(-lo, hi)  # [i:-j] is unbounded; [-k:h] is within the last k and the first h
