"""What an ``if`` condition says about a variable inside each branch.

* ``x is None`` / ``x is not None`` and helpers like ``exists(x)`` (a function whose body is ``return x is not None``);
* ``x.ndim == k``, ``len(x.shape) == k``, ``x.dim() == k`` (and ``!=``): the branch where it holds sees a rank-k
  tensor (its sizes unknown: every other rank ruled out), the other branch knows the rank is not k;
* ``not``, ``and`` (both hold in the true branch), ``or`` (both fail in the false branch);
* a name the statement just before bound to such a rank test (``only_one = x.ndim == 2`` then ``if only_one:``), when
  nothing between them mentions the name or the variable.

A condition the analysis cannot read narrows nothing. Narrowing never invents a failure by itself: a variable keeps
every shape it may have on the path that reaches the branch.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Sequence

import libcst as cst

from .values import UNKNOWN, BoolV, FuncV, IntV, NoneV, SeqV, StrV, TensorV, Value
from .values import join
from .walk import STATEMENT_CLAUSES, children, memo

if TYPE_CHECKING:
    from ..index.functions import FunctionInfo
    from ..index.jaxtyping_bridge import Annotation
    from .interpreter import Interpreter

Refinement = dict[str, Value]
MAX_RANK = 16


def narrow(interp: "Interpreter", test: cst.BaseExpression) -> tuple[Refinement, Refinement]:
    """(variables in the branch where ``test`` holds, variables in the branch where it fails)."""
    try:
        return _narrow(interp, test, 0)
    except RecursionError:  # pragma: no cover - absurdly nested conditions
        return {}, {}


def _narrow(interp: "Interpreter", test: cst.BaseExpression, depth: int) -> tuple[Refinement, Refinement]:
    if depth > 8:
        return {}, {}
    # (exact types: libcst's node classes are ABCs, and these have no subclasses)
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        t, f = _narrow(interp, test.expression, depth + 1)
        return f, t
    if type(test) is cst.BooleanOperation:
        lt, lf = _narrow(interp, test.left, depth + 1)
        rt, rf = _narrow(interp, test.right, depth + 1)
        if type(test.operator) is cst.And:
            return _merge(lt, rt), {}
        return {}, _merge(lf, rf)
    if type(test) is cst.Comparison and len(test.comparisons) == 1:
        c = test.comparisons[0]
        left, right, op = test.left, c.comparator, c.operator
        if type(op) is cst.Is or type(op) is cst.IsNot:
            target = left if _is_none(right) else right if _is_none(left) else None
            if target is not None:
                t, f = _none_check(interp, target)
                return (t, f) if type(op) is cst.Is else (f, t)
            return {}, {}
        if type(op) is cst.Equal or type(op) is cst.NotEqual:
            for a, b in ((left, right), (right, left)):
                key = rank_subject(a) or _aliased_rank_subject(interp, a)
                k = _int_literal(interp, b) if key is not None else None
                if key is not None and k is not None:
                    t, f = _rank_check(interp, key, k)
                    return (t, f) if type(op) is cst.Equal else (f, t)
            for a, b in ((left, right), (right, left)):
                key = _shape_subject(a)
                seq = _shape_value(interp, b) if key is not None else None
                if key is not None and seq is not None:
                    t = _shape_check(interp, key, seq)
                    return (t, {}) if type(op) is cst.Equal else ({}, t)
            held = _string_equality(interp, left, right)
            if held is not None:
                # ``engine == "flash"``: in the branch where it holds the name is that string (an ``assert engine ==
                # "flash"`` before ``if engine == "flash": ... else: ...`` leaves the else dead)
                return (held, {}) if type(op) is cst.Equal else ({}, held)
        if type(op) in _ORDERINGS:
            return _length_check(interp, left, op, right)
        return {}, {}
    if type(test) is cst.Name:
        fi = interp.m.find_function(interp.frame.key)
        if fi is not None:
            cond = memo("rank-flags", fi.node, _rank_flags).get(id(test))
            if cond is not None:
                return _narrow(interp, cond, depth + 1)
        held_flag = interp.scope.vars.get(test.value)
        if isinstance(held_flag, BoolV) and held_flag.value is None:
            # a bool not known (``flag: bool``): True where it holds (``assert flag`` before ``if flag:``)
            return {test.value: BoolV(True)}, {test.value: BoolV(False)}
        return {}, {}
    if type(test) is cst.Call and len(test.args) == 1 and test.args[0].keyword is None and not test.args[0].star:
        kind = _none_helper(interp, test.func)
        if kind is not None:
            t, f = _none_check(interp, test.args[0].value)
            return (t, f) if kind == "is_none" else (f, t)
    return {}, {}


def _string_equality(interp: "Interpreter", left: cst.BaseExpression, right: cst.BaseExpression) -> Refinement | None:
    """``name == "literal"`` (either side) with the name bound to no known string: the name bound to that string."""
    for a, b in ((left, right), (right, left)):
        if type(a) is cst.Name and type(b) is cst.SimpleString:
            held = interp.scope.vars.get(a.value)
            if held is None or isinstance(held, StrV):
                return None  # (a global, or a string known already: the comparison is decided)
            literal = b.evaluated_value
            return {a.value: StrV(literal)} if isinstance(literal, str) else None
    return None


def _rank_flags(fn: cst.CSTNode) -> dict[int, cst.Comparison]:
    """The ``if flag:`` / ``if not flag:`` tests of ``fn`` whose flag the same block bound to a rank test before
    (``flag = x.ndim == 2``) with nothing in between binding ``flag`` or ``x`` again, deleting them or changing x in
    place (``x.unsqueeze_(0)``): id(the test's name) -> the test. Statements that only read them (``b = x.shape[0]``,
    ``ignore_time &= is_video``) leave the test standing."""

    out: dict[int, cst.Comparison] = {}

    def block(stmts: "Sequence[cst.CSTNode]") -> None:
        pending: dict[str, tuple[cst.Comparison, str]] = {}  # flag -> (its rank test, the tested variable)
        for stmt in stmts:
            test = stmt.test if type(stmt) is cst.If else None  # (exact types: libcst's isinstance goes through ABCs)
            if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
                test = test.expression
            if type(test) is cst.Name and test.value in pending:
                out[id(test)] = pending[test.value][0]
            bound = None
            if (
                type(stmt) is cst.SimpleStatementLine
                and len(stmt.body) == 1
                and type(stmt.body[0]) is cst.Assign
                and len(stmt.body[0].targets) == 1
                and type(stmt.body[0].targets[0].target) is cst.Name
                and type(stmt.body[0].value) is cst.Comparison
                and len(stmt.body[0].value.comparisons) == 1
                and type(stmt.body[0].value.comparisons[0].operator) in (cst.Equal, cst.NotEqual)
            ):
                cmp = stmt.body[0].value
                subject = rank_subject(cmp.left) or rank_subject(cmp.comparisons[0].comparator)
                if subject is not None and "." not in subject:
                    bound = (stmt.body[0].targets[0].target.value, cmp, subject)
            if pending:  # (a statement's names are read only while a flag waits for its if: rare)
                changed = _changed_names(stmt)
                pending = {f: v for f, v in pending.items() if f not in changed and v[1] not in changed}
            if bound is not None:
                pending[bound[0]] = (bound[1], bound[2])

    _each_block(fn, block)
    return out


def _each_block(fn: cst.CSTNode, block: "Callable[[Sequence[cst.CSTNode]], None]") -> None:
    """``block(statements)`` for every statement block of ``fn``'s own body (nested functions, classes and lambdas
    are their own: not entered)."""

    # only statements hold blocks: expressions (a test, an iterable, a with item) are not entered, nor are simple
    # statement lines (their lambdas are their own); the blocks are met in the same order
    holders = STATEMENT_CLAUSES
    stack: list[cst.CSTNode] = [fn]
    while stack:
        n = stack.pop()
        kind = type(n)
        if kind is cst.IndentedBlock or kind is cst.Module:
            block(n.body)  # type: ignore[attr-defined]
        if n is not fn and (kind is cst.FunctionDef or kind is cst.ClassDef or kind is cst.Lambda):
            continue
        stack.extend(c for c in children(n) if type(c) in holders)


def _aliased_rank_subject(interp: "Interpreter", node: cst.BaseExpression) -> str | None:
    """The variable x of ``len(s)`` where the same block bound ``s = x.shape`` before, with nothing in between binding
    s or x again, deleting them or changing x in place (``original_shape = t.shape`` ... ``if len(original_shape) ==
    4:``)."""
    if not (
        type(node) is cst.Call
        and type(node.func) is cst.Name
        and node.func.value == "len"
        and len(node.args) == 1
        and type(node.args[0].value) is cst.Name
    ):
        return None
    fi = interp.m.find_function(interp.frame.key)
    if fi is None:
        return None

    return memo("shape-aliases", fi.node, _shape_aliases).get(id(node.args[0].value))


def _shape_aliases(fn: cst.CSTNode) -> dict[int, str]:
    """id(the name in ``len(s)``) -> x, for the ``if`` / ``assert`` tests of ``fn`` reading ``len(s)`` of an alias
    ``s = x.shape`` the same block bound before (see _aliased_rank_subject)."""

    out: dict[int, str] = {}

    def lens(node: cst.CSTNode, alias: str) -> list[cst.Name]:
        found: list[cst.Name] = []
        stack = [node]
        while stack:
            n = stack.pop()
            if type(n) is cst.Call and type(n.func) is cst.Name and n.func.value == "len" and len(n.args) == 1:
                arg = n.args[0].value
                if type(arg) is cst.Name and arg.value == alias:
                    found.append(arg)
            stack.extend(children(n))
        return found

    def block(stmts: "Sequence[cst.CSTNode]") -> None:
        pending: dict[str, str] = {}  # alias -> the tensor variable
        for stmt in stmts:
            test = stmt.test if type(stmt) is cst.If else None
            if type(stmt) is cst.SimpleStatementLine and len(stmt.body) == 1 and type(stmt.body[0]) is cst.Assert:
                test = stmt.body[0].test
            if test is not None:
                for alias, var in pending.items():
                    for name in lens(test, alias):
                        out[id(name)] = var
            if pending:
                changed = _changed_names(stmt)
                pending = {a: v for a, v in pending.items() if a not in changed and v not in changed}
            if (
                type(stmt) is cst.SimpleStatementLine
                and len(stmt.body) == 1
                and type(stmt.body[0]) is cst.Assign
                and len(stmt.body[0].targets) == 1
                and type(stmt.body[0].targets[0].target) is cst.Name
            ):
                value = stmt.body[0].value
                if type(value) is cst.Attribute and value.attr.value == "shape" and type(value.value) is cst.Name:
                    pending[stmt.body[0].targets[0].target.value] = value.value.value

    _each_block(fn, block)
    return out


def _changed_names(stmt: cst.CSTNode) -> set[str]:
    """The names ``stmt`` binds (anywhere in it but nested scopes), deletes, or calls an in-place method on (a method
    whose name ends with ``_``: ``x.unsqueeze_(0)`` may change x's rank); a name in a nested function or lambda
    counts too (the closure may rebind or change it when called)."""
    from .module import _rebound_names

    out = _rebound_names(stmt)
    stack: list[cst.CSTNode] = [stmt]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.Del:
            out |= {x.value for x in _names_in(n.target)}  # type: ignore[attr-defined]
        elif tp is cst.Call and type(n.func) is cst.Attribute:  # type: ignore[attr-defined]
            f = n.func  # type: ignore[attr-defined]
            if f.attr.value.endswith("_") and type(f.value) is cst.Name:
                out.add(f.value.value)
        elif tp is cst.FunctionDef or tp is cst.Lambda or tp is cst.ClassDef or tp is cst.Global or tp is cst.Nonlocal:
            out |= {x.value for x in _names_in(n)}
            continue
        stack.extend(children(n))
    return out


def _names_in(node: cst.CSTNode) -> list[cst.Name]:

    found: list[cst.Name] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if type(n) is cst.Name:
            found.append(n)
        stack.extend(children(n))
    return found


def _merge(a: Refinement, b: Refinement) -> Refinement:
    out = dict(a)
    out.update(b)
    return out


def _is_none(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Name and node.value == "None"


def _key(node: cst.BaseExpression) -> str | None:
    _var_key = _interpreter._var_key

    return _var_key(node)


def _none_check(interp: "Interpreter", target: cst.BaseExpression) -> tuple[Refinement, Refinement]:
    """(target is None, target is not None)."""
    key = _key(target)
    if key is None:
        return {}, {}
    not_none: Refinement = {}
    OPTIONAL = _interpreter.OPTIONAL
    if interp.scope.vars.get(key, UNKNOWN) is UNKNOWN and type(target) is cst.Name:
        # a variable one branch set to a value and another left None (interpreter._join_all), else a parameter
        # annotated Optional[T]
        alternative = interp.scope.vars.get(key + OPTIONAL, UNKNOWN)
        declared = alternative if alternative is not UNKNOWN else _optional_parameter(interp, target.value, target)
        if declared is not None:
            not_none[key] = declared
    elif type(target) is cst.Attribute:
        # an attribute the constructor set to one value or None (``self.mlp = nn.Sequential(...) if c else None``)
        self_attribute = _interpreter.self_attribute

        attr = target.attr.value
        if self_attribute(interp, attr) is UNKNOWN:
            alt = self_attribute(interp, attr + OPTIONAL)
            if alt is not UNKNOWN and not isinstance(alt, NoneV):
                not_none[key] = alt
    return {key: NoneV()}, not_none


def _optional_parameter(interp: "Interpreter", name: str, at: cst.CSTNode) -> Value | None:
    """The tensor a parameter ``name: Optional[Float[Tensor, "b n"]] = None`` holds when it is not None -- if the
    function never rebinds ``name`` outside the branch being narrowed."""
    fi = interp.m.find_function(interp.frame.key)
    if fi is None or interp.frame.memo is None:
        return None
    ann = optional_annotation(interp, fi.node, name)
    if ann is None or _rebound(fi.node.body, name, at):
        return None
    return interp.m.shapes.from_annotation(
        ann, interp.frame.memo, scope=fi.key, where=f"{name}: {ann.text}", node=fi.node
    )


def optional_annotation(interp: "Interpreter", fn: cst.FunctionDef, name: str) -> Annotation | None:
    """The jaxtyping annotation ``T`` of ``fn``'s parameter ``name: Optional[T]`` (``T | None``, ``Union[T, None]``):
    what the parameter holds when it is not None."""
    params = fn.params
    param = next(
        (
            p
            for p in list(params.params) + list(params.kwonly_params) + list(params.posonly_params)
            if p.name.value == name
        ),
        None,
    )
    if param is None or param.annotation is None:
        return None
    inner = _unwrap_optional(interp, param.annotation.annotation)
    return interp.m.annotation_of(inner) if inner is not None else None


def _unwrap_optional(interp: "Interpreter", node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``T`` of ``Optional[T]``, ``Union[T, None]``, ``T | None``, ``None | T``."""
    if type(node) is cst.BinaryOperation and type(node.operator) is cst.BitOr:
        if _is_none(node.right):
            return node.left
        if _is_none(node.left):
            return node.right
        return None
    if type(node) is cst.Subscript:
        head = interp.m.qualify(node.value) or ""
        elems = [e.slice.value for e in node.slice if type(e.slice) is cst.Index]
        if head in ("typing.Optional", "typing_extensions.Optional") and len(elems) == 1:
            return elems[0]
        if head in ("typing.Union", "typing_extensions.Union") and len(elems) == 2:
            if _is_none(elems[1]):
                return elems[0]
            if _is_none(elems[0]):
                return elems[1]
    return None


def _rebound(body: cst.CSTNode, name: str, at: cst.CSTNode) -> bool:
    """Whether ``name`` may hold something else than the parameter's value when ``at`` runs: an assignment before it
    in source order, or anywhere in a loop around it (a later iteration sees it). The branches of an ``if`` whose
    test is ``at`` come after it."""
    _assigned_names = _interpreter._assigned_names

    around = _path_to(body, at)  # ids of the nodes holding ``at`` (one walk, not one per node visited)

    def visit(node: cst.CSTNode) -> bool | None:  # True: rebound; False: reached ``at`` cleanly; None: go on
        if node is at:
            return False
        if type(node) in (cst.FunctionDef, cst.ClassDef, cst.Lambda) and node is not body:
            return None
        holds = id(node) in around
        if type(node) in (cst.For, cst.While) and holds and name in _assigned_names(node):
            return True
        if not holds:
            if type(node) in (
                cst.Assign,
                cst.AnnAssign,
                cst.AugAssign,
                cst.For,
                cst.NamedExpr,
                cst.With,
                cst.If,
                cst.Try,
                cst.While,
                cst.IndentedBlock,
                cst.SimpleStatementLine,
            ) and name in _assigned_names(node):
                return True
            return None
        for child in children(node):
            r = visit(child)
            if r is not None:
                return r
        return False

    return visit(body) is True


def _path_to(tree: cst.CSTNode, node: cst.CSTNode) -> set[int]:
    """ids of ``node`` and of every node of ``tree`` that holds it (empty when ``tree`` does not hold it)."""

    parent: dict[int, cst.CSTNode] = {}
    stack = [tree]
    while stack:
        n = stack.pop()
        if n is node:
            out = {id(n)}
            while id(n) in parent:
                n = parent[id(n)]
                out.add(id(n))
            return out
        for c in children(n):
            parent[id(c)] = n
            stack.append(c)
    return set()


def _returned(fn: cst.FunctionDef) -> cst.BaseExpression | None:
    """The expression of a helper whose body (a docstring aside) is one ``return EXPR``, else None."""
    body = fn.body
    stmts: list[cst.CSTNode] = list(body.body) if type(body) in (cst.IndentedBlock, cst.SimpleStatementSuite) else []
    stmts = [
        s
        for s in stmts
        if not (
            type(s) is cst.SimpleStatementLine
            and len(s.body) == 1
            and type(s.body[0]) is cst.Expr
            and type(s.body[0].value) is cst.SimpleString
        )
    ]  # a docstring
    if len(stmts) != 1:
        return None
    stmt = stmts[0]
    small = stmt.body[0] if type(stmt) is cst.SimpleStatementLine and len(stmt.body) == 1 else stmt
    return small.value if type(small) is cst.Return else None


def _none_helper(interp: "Interpreter", func: cst.BaseExpression) -> str | None:
    """ "is_not_none" for ``def exists(x): return x is not None``, "is_none" for ``return x is None``."""
    if type(func) is not cst.Name:
        return None
    v = interp.lookup(func.value)
    if not isinstance(v, FuncV) or v.bound_self is not None:
        return None
    fi = interp.m.find_function(v.key)
    if fi is None or len(fi.params) < 1:
        return None
    cmp = _returned(fi.node)
    if type(cmp) is not cst.Comparison:
        return None
    if len(cmp.comparisons) != 1 or type(cmp.left) is not cst.Name or cmp.left.value != fi.params[0].name:
        return None
    c = cmp.comparisons[0]
    if not _is_none(c.comparator):
        return None
    if type(c.operator) is cst.IsNot:
        return "is_not_none"
    if type(c.operator) is cst.Is:
        return "is_none"
    return None


def rank_subject(node: cst.BaseExpression) -> str | None:
    """The variable of ``x.ndim``, ``len(x.shape)``, ``x.dim()``, ``x.ndimension()``."""
    if type(node) is cst.Attribute and node.attr.value == "ndim":
        return _key(node.value)
    if (
        type(node) is cst.Call
        and not node.args
        and type(node.func) is cst.Attribute
        and node.func.attr.value in ("dim", "ndimension")
    ):
        return _key(node.func.value)
    if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "len" and len(node.args) == 1:
        arg = node.args[0].value
        if type(arg) is cst.Attribute and arg.attr.value == "shape":
            return _key(arg.value)
    return None


def _shape_subject(node: cst.BaseExpression) -> str | None:
    """The variable of ``x.shape``, ``tuple(x.shape)``, ``x.size()``."""
    if type(node) is cst.Attribute and node.attr.value == "shape":
        return _key(node.value)
    if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "tuple":
        if len(node.args) == 1 and not node.args[0].star and node.args[0].keyword is None:
            arg = node.args[0].value
            if type(arg) is cst.Attribute and arg.attr.value == "shape":
                return _key(arg.value)
        return None
    if type(node) is cst.Call and not node.args and type(node.func) is cst.Attribute:
        if node.func.attr.value == "size":
            return _key(node.func.value)
    return None


def _shape_value(interp: "Interpreter", node: cst.BaseExpression) -> SeqV | None:
    """What ``x.shape`` is compared with: a tuple (a literal, a name, another array's shape) whose items are ints or
    unknown. A list never equals a shape; a call is not evaluated here."""
    if type(node) not in (cst.Tuple, cst.Name, cst.Attribute) or not _plain(node):
        return None
    v = interp.eval(node)
    if not isinstance(v, SeqV) or v.kind not in ("tuple", "shape"):
        return None
    if not all(isinstance(i, IntV) or i is UNKNOWN for i in v.items):
        return None
    return v


def _plain(node: cst.BaseExpression) -> bool:
    """Names, attributes of names, numbers and tuples of them: evaluating it again calls nothing."""
    if type(node) in (cst.Name, cst.Integer):
        return True
    if type(node) is cst.Attribute:
        return _plain(node.value)
    if type(node) is cst.UnaryOperation:
        return _plain(node.expression)
    if type(node) is cst.Tuple:
        return all(type(e) is not cst.StarredElement and _plain(e.value) for e in node.elements)
    return False


def _shape_check(interp: "Interpreter", key: str, seq: SeqV) -> Refinement:
    """x where ``x.shape == seq`` holds: that shape when every size is known, else that rank (sizes unknown)."""
    if key not in interp.scope.vars or len(seq.items) > MAX_RANK:
        return {}
    v = interp.scope.vars[key]
    if v is UNKNOWN:
        v = TensorV(None, assumed=True)
    if not isinstance(v, TensorV) or v.shape is not None or v.alts:
        return {}
    if len(seq.items) in v.not_ranks:
        return {}  # ruled out already: that branch does not run (left to the comparison's own value)
    if all(isinstance(i, IntV) for i in seq.items):
        shape = tuple(i.size for i in seq.items if isinstance(i, IntV))
        return {key: TensorV(shape, v.dtype, v.framework, None, v.origin, assumed=v.assumed)}
    return {key: _of_rank(interp, v, len(seq.items))}


def guard_refinement(interp: "Interpreter", node: cst.Call, fi: "FunctionInfo", bound: dict[str, Value]) -> Refinement:
    """After a call of a guard helper returns (``def _validate_shape(t, expected, key):`` whose body is only
    ``if tuple(t.shape) != expected: raise ...``), what its conditions' failing branches say about its parameters
    holds for the caller's variables passed to them (``_validate_shape(w, (h, d, m), key)``: w has that shape)."""

    tests = memo("guard-tests", fi.node, _guard_tests)
    if not tests:
        return {}
    FrameInfo, Interpreter, Scope = _interpreter.FrameInfo, _interpreter.Interpreter, _interpreter.Scope

    names = [p.name for p in fi.params]
    passed: dict[str, str] = {}  # parameter -> the caller's variable handed to it
    for i, a in enumerate(node.args):
        if a.star:
            break
        name = a.keyword.value if a.keyword is not None else (names[i] if i < len(names) else None)
        key = _key(a.value) if name is not None else None
        if key is not None and name in bound:
            passed[name] = key
    if not passed:
        return {}
    inner = Interpreter(fi.module, FrameInfo(fi.key), Scope(bound))
    out: Refinement = {}
    with fi.module.ctx.discarding():
        for test in tests:
            _, failed = narrow(inner, test)
            inner.scope.vars.update(failed)
            for name, v in failed.items():
                if name in passed:
                    out[passed[name]] = v
    return out


def _guard_tests(fn: cst.CSTNode) -> list[cst.BaseExpression]:
    """The conditions of a body made only of ``if cond: raise ...`` statements (a docstring and ``pass`` aside)."""
    if type(fn) is not cst.FunctionDef or type(fn.body) is not cst.IndentedBlock:
        return []
    tests: list[cst.BaseExpression] = []
    for stmt in fn.body.body:
        if type(stmt) is cst.SimpleStatementLine:
            if all(
                type(s) is cst.Pass or (type(s) is cst.Expr and type(s.value) is cst.SimpleString) for s in stmt.body
            ):
                continue
            return []
        if (
            type(stmt) is cst.If
            and stmt.orelse is None
            and type(stmt.body) is cst.IndentedBlock
            and len(stmt.body.body) == 1
            and type(stmt.body.body[0]) is cst.SimpleStatementLine
            and len(stmt.body.body[0].body) == 1
            and type(stmt.body.body[0].body[0]) is cst.Raise
        ):
            tests.append(stmt.test)
            continue
        return []
    return tests


# ``s >= k`` / ``s > k`` / ``s < k`` / ``s <= k``: the least ``s`` may be where the comparison holds and where it
# fails, as an offset from ``k`` (None: no lower bound)
_ORDERINGS: dict[type, tuple[int | None, int | None]] = {
    cst.GreaterThanEqual: (0, None),
    cst.GreaterThan: (1, None),
    cst.LessThan: (None, 0),
    cst.LessThanEqual: (None, 1),
}
# the same with the sides swapped (``k <= s`` is ``s >= k``)
_SWAPPED = {
    cst.GreaterThanEqual: cst.LessThanEqual,
    cst.GreaterThan: cst.LessThan,
    cst.LessThan: cst.GreaterThan,
    cst.LessThanEqual: cst.GreaterThanEqual,
}


def _length_check(
    interp: "Interpreter", left: cst.BaseExpression, op: cst.BaseCompOp, right: cst.BaseExpression
) -> tuple[Refinement, Refinement]:
    """``if wav.shape[0] >= n:`` (``x.size(d)``, ``len(x)``; either side) with ``n`` a known int and that axis of
    ``x`` a size not known: in the branch where it is at least ``n``, the axis is ``n - 1 + t`` for a new size ``t``
    (every size is at least 1), so ``wav[:n]`` there is ``n`` long. An upper bound narrows nothing."""
    kind = type(op)
    for a, b, tp in ((left, right, kind), (right, left, _SWAPPED[kind])):
        subject = _length_subject(a)
        k = _int_literal(interp, b) if subject is not None else None
        if subject is None or k is None:
            continue
        key, d = subject
        yes, no = _ORDERINGS[tp]
        return (
            _at_least(interp, key, d, k + yes) if yes is not None else {},
            _at_least(interp, key, d, k + no) if no is not None else {},
        )
    return {}, {}


def _length_subject(node: cst.BaseExpression) -> tuple[str, int] | None:
    """The variable and axis of ``x.shape[d]``, ``x.size(d)``, ``len(x)`` (``d`` a literal int)."""
    if type(node) is cst.Subscript and len(node.slice) == 1 and type(node.slice[0].slice) is cst.Index:
        base, idx = node.value, node.slice[0].slice.value
        if type(base) is cst.Attribute and base.attr.value == "shape" and type(idx) is cst.Integer:
            key = _key(base.value)
            return (key, int(idx.value)) if key is not None else None
        return None
    if type(node) is cst.Call and len(node.args) == 1 and not node.args[0].star and node.args[0].keyword is None:
        f, arg = node.func, node.args[0].value
        if type(f) is cst.Attribute and f.attr.value == "size" and type(arg) is cst.Integer:
            key = _key(f.value)
            return (key, int(arg.value)) if key is not None else None
        if type(f) is cst.Name and f.value == "len":
            key = _key(arg)
            return (key, 0) if key is not None else None
    return None


def _at_least(interp: "Interpreter", key: str, d: int, lo: int) -> Refinement:
    v = interp.scope.vars.get(key)
    if lo <= 1 or not isinstance(v, TensorV) or v.shape is None or v.alts or not -len(v.shape) <= d < len(v.shape):
        return {}
    size = v.shape[d]
    if size.as_int() is not None:
        return {}  # (a known length: the comparison itself is known)
    fresh = interp.ctx.fresh("n", f"(the length of axis {d} where it is at least {lo})")
    shape = list(v.shape)
    shape[d] = fresh + (lo - 1)
    return {key: replace(v, shape=tuple(shape), values=None, top=None, strides=None)}


def _int_literal(interp: "Interpreter", node: cst.BaseExpression) -> int | None:
    if type(node) not in (cst.Integer, cst.Name, cst.Attribute, cst.UnaryOperation):
        return None
    v = interp.eval(node)
    if isinstance(v, IntV):
        return v.size.as_int()
    return None


def _rank_check(interp: "Interpreter", key: str, k: int) -> tuple[Refinement, Refinement]:
    """(x has rank k, x has not rank k)."""
    if k < 0 or k > MAX_RANK:
        return {}, {}
    v = interp.scope.vars.get(key, UNKNOWN)
    if key not in interp.scope.vars:
        return {}, {}
    if v is UNKNOWN:
        v = TensorV(None)
    if not isinstance(v, TensorV):
        return {}, {}
    if v.shape is not None:
        return {}, {}  # the condition is known; its branch alone runs
    if v.alts:
        yes = [a for a in v.alts if (a.rank == k if a.rank is not None else k not in a.not_ranks)]
        no = [a for a in v.alts if (a.rank != k if a.rank is not None else True)]
        return {key: _one_of(interp, yes, k)}, {key: _one_of(interp, [_exclude(a, k) for a in no], None)}
    return {key: _of_rank(interp, v, k)}, {key: _exclude(v, k)}


RANKS = frozenset(range(MAX_RANK + 1))


def _of_rank(interp: "Interpreter", v: TensorV, k: int) -> TensorV:
    """A tensor known to be k-dimensional. Its sizes stay unknown (not fresh positive symbols): guarded code often
    handles empty tensors (``if x.ndim == 2: x = x.reshape(*x.shape, 3)`` runs only on 0-element inputs)."""
    if v.shape is not None:
        return v
    return TensorV(None, v.dtype, v.framework, None, v.origin, None, None, RANKS - {k}, assumed=v.assumed)


def _exclude(v: TensorV, k: int) -> TensorV:
    if v.shape is not None:
        return v
    return TensorV(None, v.dtype, v.framework, None, v.origin, v.vshape, None, v.not_ranks | {k})


def _one_of(interp: "Interpreter", options: list[TensorV], k: int | None) -> Value:

    if not options:
        return UNKNOWN
    opts = [_of_rank(interp, o, k) if k is not None else o for o in options]
    out: Value = opts[0]
    for o in opts[1:]:
        out = join(out, o)
    return out


def default_call(
    interp: "Interpreter", node: cst.Call, fv: FuncV, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``default(x, d)`` for a helper whose body is ``return x if exists(x) else d`` (or ``x if x is not None else d``):
    ``x`` when it is a tensor, ``d`` when it is None, and for an ``Optional[...]`` parameter either one (two paths)."""
    if (
        kwargs
        or len(args) != 2
        or len(node.args) != 2
        or fv.bound_self is not None
        or not _is_default_helper(interp, fv)
    ):
        return None
    first, fallback = args
    if isinstance(first, NoneV):
        return fallback
    if isinstance(first, TensorV):
        return first
    arg = node.args[0].value
    if first is UNKNOWN and type(arg) is cst.Name and isinstance(fallback, TensorV):
        declared = _optional_parameter(interp, arg.value, node)
        if isinstance(declared, TensorV):
            return join(declared, fallback)
    return None


def _is_default_helper(interp: "Interpreter", fv: FuncV) -> bool:
    fi = interp.m.find_function(fv.key)
    if fi is None or len(fi.params) != 2:
        return False
    e = _returned(fi.node)
    if type(e) is not cst.IfExp:
        return False
    x, d = fi.params[0].name, fi.params[1].name
    if not (type(e.body) is cst.Name and e.body.value == x and type(e.orelse) is cst.Name and e.orelse.value == d):
        return False
    test = e.test
    if (
        type(test) is cst.Comparison
        and len(test.comparisons) == 1
        and type(test.left) is cst.Name
        and test.left.value == x
        and type(test.comparisons[0].operator) is cst.IsNot
        and _is_none(test.comparisons[0].comparator)
    ):
        return True
    if (
        type(test) is cst.Call
        and len(test.args) == 1
        and type(test.args[0].value) is cst.Name
        and test.args[0].value.value == x
    ):
        return _none_helper(interp, test.func) == "is_not_none"
    return False


# at the end: interpreter imports this module at its top (a module object, read at call time, works in either import order)
from . import interpreter as _interpreter  # noqa: E402
