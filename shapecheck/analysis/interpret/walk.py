"""Child iteration over libcst trees without libcst's visitor machinery.

``CSTNode.visit`` and ``CSTNode.children`` rebuild and re-validate every node they pass (libcst implements both on
``_visit_and_replace_children``), which made whole-subtree walks a third of the analyser's time on large packages.
Nodes are frozen dataclasses; reading their fields is enough to walk them.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import typing
from typing import Callable, TypeVar
import libcst as cst

T = TypeVar("T")

_FIELDS: dict[type, tuple[str, ...]] = {}

# fields that only ever hold whitespace, parentheses, commas and the like: never a statement or expression
_TRIVIA = frozenset(
    {
        "whitespace",
        "whitespace_before",
        "whitespace_after",
        "whitespace_before_colon",
        "whitespace_after_colon",
        "whitespace_after_def",
        "whitespace_after_class",
        "whitespace_before_params",
        "whitespace_after_name",
        "whitespace_after_star",
        "whitespace_after_arg",
        "whitespace_before_arg",
        "whitespace_before_indicator",
        "whitespace_after_indicator",
        "whitespace_after_await",
        "whitespace_after_cases",
        "whitespace_after_as",
        "whitespace_before_as",
        "whitespace_after_if",
        "whitespace_before_if",
        "whitespace_before_in",
        "whitespace_after_in",
        "whitespace_after_for",
        "whitespace_before_for",
        "whitespace_after_async",
        "whitespace_after_import",
        "whitespace_after_from",
        "whitespace_before_import",
        "whitespace_after_lambda",
        "whitespace_before_value",
        "whitespace_after_except",
        "whitespace_before_from",
        "whitespace_after_return",
        "whitespace_after_del",
        "whitespace_after_global",
        "whitespace_after_nonlocal",
        "whitespace_after_assert",
        "whitespace_after_raise",
        "whitespace_after_yield",
        "whitespace_after_with",
        "whitespace_before_with",
        "whitespace_after_while",
        "whitespace_after_elif",
        "whitespace_after_else",
        "whitespace_after_try",
        "whitespace_after_finally",
        "whitespace_after_match",
        "whitespace_after_case",
        "whitespace_after_type",
        "whitespace_after_expression",
        "lpar",
        "rpar",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "comma",
        "semicolon",
        "colon",
        "equal",
        "star",
        "leading_lines",
        "lines_after_decorators",
        "trailing_whitespace",
        "header",
        "footer",
        "newline",
    }
)


def _fields(tp: type) -> tuple[str, ...]:
    names = _FIELDS.get(tp)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(tp) if f.name not in _TRIVIA)
        _FIELDS[tp] = names
    return names


# type -> 1 for a libcst node, 2 for a tuple or list (of nodes, possibly), 0 for anything else. Exact-type lookups:
# libcst's node classes are ABCs, and ``isinstance`` against an ABC was a tenth of a cold run's CPU.
_KIND: dict[type, int] = {}


def _kind(tp: type) -> int:
    k = _KIND[tp] = 1 if issubclass(tp, cst.CSTNode) else 2 if issubclass(tp, (tuple, list)) else 0
    return k


def _children_generic(node: cst.CSTNode) -> list[cst.CSTNode]:
    kinds = _KIND
    out: list[cst.CSTNode] = []
    for name in _fields(type(node)):
        v = getattr(node, name)
        k = kinds.get(type(v))
        if k is None:
            k = _kind(type(v))
        if k == 1:
            out.append(v)
        elif k == 2:
            for x in v:
                kx = kinds.get(type(x))
                if kx is None:
                    kx = _kind(type(x))
                if kx == 1:
                    out.append(x)
    return out


def _is_node_type(hint: object) -> bool:
    return isinstance(hint, type) and issubclass(hint, cst.CSTNode)


def _field_shape(hint: object) -> str:
    """How a field's type hint can hold children: "never" (str, bool, a Literal, None, MaybeSentinel only), "node"
    (always one node), "optional" (a node or None), "nodes" (a sequence of nodes), "any" (read at run time)."""
    leaf = (str, bool, int, float, type(None), cst.MaybeSentinel)
    origin = typing.get_origin(hint)
    if origin is typing.Literal or (isinstance(hint, type) and issubclass(hint, leaf)):
        return "never"
    if _is_node_type(hint):
        return "node"
    if origin is typing.Union:
        parts = typing.get_args(hint)
        shapes = [_field_shape(a) for a in parts]
        if all(s == "never" for s in shapes):
            return "never"
        if len(parts) == 2 and type(None) in parts and "node" in shapes:
            return "optional"
        return "any"
    if origin is collections.abc.Sequence:
        (elem,) = typing.get_args(hint)
        if _is_node_type(elem) or (
            typing.get_origin(elem) is typing.Union and all(_is_node_type(a) for a in typing.get_args(elem))
        ):
            return "nodes"
    return "any"


def _make_children(tp: type) -> Callable[[cst.CSTNode], list[cst.CSTNode]]:
    """A function returning what ``_children_generic`` returns for nodes of type ``tp``, written from the fields' type
    hints: fields that can never hold a node are not read, fields that always hold a node (or a sequence of nodes)
    are taken without looking at each value's type."""
    try:
        hints = typing.get_type_hints(tp)
        shapes = [(name, _field_shape(hints[name])) for name in _fields(tp)]
    except Exception:  # an unresolvable hint: look at each value
        return _children_generic
    lines = ["def _children(node):", "    out = []"]
    for name, shape in shapes:
        if shape == "never":
            continue
        if shape == "node":
            lines.append(f"    out.append(node.{name})")
        elif shape == "optional":
            lines += [f"    v = node.{name}", "    if v is not None:", "        out.append(v)"]
        elif shape == "nodes":
            lines.append(f"    out.extend(node.{name})")
        else:
            lines.append(f"    _any(node.{name}, out)")
    lines.append("    return out")
    namespace: dict[str, object] = {"_any": _add_any}
    exec("\n".join(lines), namespace)
    return namespace["_children"]  # type: ignore[return-value]


def _add_any(v: object, out: list[cst.CSTNode]) -> None:
    kinds = _KIND
    k = kinds.get(type(v))
    if k is None:
        k = _kind(type(v))
    if k == 1:
        out.append(v)  # type: ignore[arg-type]
    elif k == 2:
        for x in v:  # type: ignore[attr-defined]
            kx = kinds.get(type(x))
            if kx is None:
                kx = _kind(type(x))
            if kx == 1:
                out.append(x)


# compound statements, their clauses and their blocks: what a statement block lies in (or is), walked into by the walks
# that look for statements only (an expression holds no block, no import, no def)
STATEMENT_CLAUSES = frozenset(
    {
        cst.IndentedBlock,
        cst.If,
        cst.Else,
        cst.For,
        cst.While,
        cst.With,
        cst.Try,
        cst.TryStar,
        cst.ExceptHandler,
        cst.ExceptStarHandler,
        cst.Finally,
        cst.Match,
        cst.MatchCase,
    }
)


# node type -> its children function (``_make_children``)
_CHILDREN: dict[type, Callable[[cst.CSTNode], list[cst.CSTNode]]] = {}


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The statement and expression children of ``node`` in source order (trivia left out)."""
    f = _CHILDREN.get(type(node))
    if f is None:
        f = _CHILDREN[type(node)] = _make_children(type(node))
    return f(node)


def walk_all(tree: cst.CSTNode) -> "typing.Iterator[cst.CSTNode]":
    """``tree`` and every node under it (nested functions, classes and lambdas included)."""
    stack = [tree]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(children(n))


def walk_own(tree: cst.CSTNode) -> "typing.Iterator[cst.CSTNode]":
    """``tree`` and every node under it outside the functions, classes and lambdas nested in it (those left out whole,
    and ``tree`` itself when it is one), in the order a stack walk of ``children`` meets them."""
    stack = [tree]
    while stack:
        n = stack.pop()
        if type(n) in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        yield n
        stack.extend(children(n))


def contains(tree: cst.CSTNode, node: cst.CSTNode) -> bool:
    """Is ``node`` (the very object) ``tree`` or one of its descendants?"""
    stack = [tree]
    while stack:
        n = stack.pop()
        if n is node:
            return True
        stack.extend(children(n))
    return False


def has_own(tree: cst.CSTNode, kind: type) -> bool:
    """Does ``tree`` hold a node of type ``kind`` outside the functions, classes and lambdas nested in it (a
    ``return`` of a loop body, a ``yield`` of a function's own body)?"""
    stack = [tree]
    while stack:
        n = stack.pop()
        if type(n) is kind:
            return True
        if type(n) not in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            stack.extend(children(n))
    return False


# Results of whole-subtree walks (names a body assigns, ``self.f()`` calls of a method), per node: the same bodies are
# walked again for every subclass, every narrowed test and every inlined call. Each entry keeps its node, so an id is
# never reused while its entry lives; Project.trim empties the table when it forgets modules.
_MEMO: dict[tuple[str, int], tuple[cst.CSTNode, object]] = {}
_MEMO_LIMIT = 200_000


def memo(kind: str, node: cst.CSTNode, compute: "Callable[[cst.CSTNode], T]") -> T:
    """``compute(node)``, once per node and ``kind`` (``compute`` must depend on the subtree only)."""
    key = (kind, id(node))
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is node:
        return hit[1]  # type: ignore[return-value]
    value = compute(node)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = (node, value)
    return value


def memoised(kind: str, node: cst.CSTNode) -> bool:
    """Is ``memo(kind, node, ...)`` known already?"""
    hit = _MEMO.get((kind, id(node)))
    return hit is not None and hit[0] is node


def remember(kind: str, node: cst.CSTNode, value: object) -> None:
    """What ``memo(kind, node, compute)`` is to return, found by a walk made for something else."""
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[(kind, id(node))] = (node, value)


def forget_memo() -> None:
    _MEMO.clear()


def plain_read(node: cst.BaseExpression) -> bool:
    """A name, or attributes and constant indexes of one (``x``, ``self.pair``, ``out[0]``, ``x.shape[-1]``,
    ``cfg["dim"]``): no call in it, so read twice it gives the same value."""
    while True:
        if type(node) is cst.Name:
            return True
        if type(node) is cst.Attribute:
            node = node.value
        elif type(node) is cst.Subscript and all(
            type(e.slice) is cst.Index and _constant_index(e.slice.value) for e in node.slice
        ):
            node = node.value
        else:
            return False


def _constant_index(v: cst.BaseExpression) -> bool:
    if type(v) is cst.UnaryOperation and type(v.operator) is cst.Minus:
        v = v.expression
    return type(v) in (cst.Integer, cst.SimpleString)


def chain_root(node: cst.BaseExpression) -> cst.BaseExpression:
    """``m.blocks[0].attn.scale`` -> ``m``: the expression a chain of attributes and subscripts starts from."""
    while type(node) is cst.Attribute or type(node) is cst.Subscript:
        node = node.value
    return node
