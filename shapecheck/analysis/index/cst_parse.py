"""libcst's parser, without the per-node validation of the trees it builds, and with its whitespace nodes shared.

Validation. libcst's native parser builds each node through the node's dataclass constructor, whose ``__post_init__``
runs the node's ``_validate`` (whitespace holds only blanks, parentheses pair up, a name is not empty, ...). Those
checks guard trees built by hand; a tree the parser built from source text passes them by construction. They were
13-16% of the parse of transformer-lens's files, and the parse is most of a cold run. Every one of the 1,755 files of
the development and extra corpora parses the same way with and without them (same result, same exceptions).

Shared whitespace. The parser builds a new ``SimpleWhitespace(" ")`` for every blank between two tokens, a
``Newline`` and a ``TrailingWhitespace`` for every line end, an ``EmptyLine`` for every blank line: 1.6 M of the 2.9 M
libcst nodes alive when ``Project.trim`` collected garbage in a whole-corpus run (1.2 M ``SimpleWhitespace`` alone).
Nodes are immutable, so equal whitespace nodes can be one object: while ``parse_module`` runs, libcst's
``SimpleWhitespace``, ``Newline``, ``TrailingWhitespace``, ``EmptyLine`` and ``ParenthesizedWhitespace`` (the native
parser looks the classes up on the ``libcst`` module as it builds) are factories that hand out one node per distinct
value. The tree's text is unchanged (``module.code``), and each node is a real instance of its class. What is lost is
only the identity of a whitespace node's position in one tree, which nothing asks for: findings, hovers and fixes are
about statements and expressions, never whitespace. Fewer objects to build, to keep and for the garbage collector to
walk. A comment, a parenthesized line break with a comment, and any node whose parts are not shared are built as
before; each kind keeps at most ``_MAX_SHARED`` distinct nodes.

Nodes built outside ``parse_module`` (autofixes, ``with_changes``) are validated as before and never shared: both
switches are undone when the parser returns or raises. Another thread meanwhile may build a node unvalidated, or find
a factory function in place of one of those five classes on ``libcst``: the analysis reads them from
``WHITESPACE_CLASSES``.
"""

from __future__ import annotations

from typing import Any, Callable

import libcst as cst

_VALIDATE = cst.CSTNode.__post_init__
_MAX_SHARED = 4096  # distinct nodes kept per class (blank runs, line endings: a few dozen in real code)


def _unchecked(self: cst.CSTNode) -> None:
    return None


_shared_ids: set[int] = set()  # every node a factory handed out: kept alive by its table, so the ids stay unique


def _share(table: dict[Any, cst.CSTNode], key: Any, node: cst.CSTNode) -> cst.CSTNode:
    if len(table) < _MAX_SHARED:
        table[key] = node
        _shared_ids.add(id(node))
    return node


def _leaf(cls: Callable[..., cst.CSTNode]) -> Callable[..., cst.CSTNode]:
    """SimpleWhitespace(value=...), Newline(value=...): one node per value."""
    table: dict[Any, cst.CSTNode] = {}

    def make(**fields: Any) -> cst.CSTNode:
        value = fields.get("value")
        node = table.get(value)
        if node is None:
            node = _share(table, value, cls(**fields))
        return node

    return make


def _line_end(cls: type[cst.CSTNode], has_indent: bool) -> Callable[..., cst.CSTNode]:
    """TrailingWhitespace / EmptyLine without a comment, of shared parts: one node per parts."""
    table: dict[Any, cst.CSTNode] = {}
    shared = _shared_ids

    def make(**fields: Any) -> cst.CSTNode:
        ws, nl = fields.get("whitespace"), fields.get("newline")
        if fields.get("comment") is not None or id(ws) not in shared or id(nl) not in shared:
            return cls(**fields)
        key = (id(ws), id(nl), fields.get("indent")) if has_indent else (id(ws), id(nl))
        node = table.get(key)
        if node is None:
            node = _share(table, key, cls(**fields))
        return node

    return make


def _parenthesized(cls: type[cst.CSTNode]) -> Callable[..., cst.CSTNode]:
    """ParenthesizedWhitespace of shared parts (a line break inside brackets, no comment): one node per parts."""
    table: dict[Any, cst.CSTNode] = {}
    shared = _shared_ids

    def make(**fields: Any) -> cst.CSTNode:
        first, last, empty = fields.get("first_line"), fields.get("last_line"), fields.get("empty_lines", ())
        if id(first) not in shared or id(last) not in shared or any(id(e) not in shared for e in empty):
            return cls(**fields)
        key = (id(first), id(last), fields.get("indent"), tuple(map(id, empty)))
        node = table.get(key)
        if node is None:
            node = _share(table, key, cls(**fields))
        return node

    return make


_CLASSES: dict[str, type[cst.CSTNode]] = {
    name: getattr(cst, name)
    for name in ("SimpleWhitespace", "Newline", "TrailingWhitespace", "EmptyLine", "ParenthesizedWhitespace")
}
# the real classes, for code that must not meet a factory (another thread may parse while it reads ``libcst``)
WHITESPACE_CLASSES: tuple[type[cst.CSTNode], ...] = tuple(_CLASSES.values())
_FACTORIES: dict[str, Callable[..., cst.CSTNode]] = {
    "SimpleWhitespace": _leaf(_CLASSES["SimpleWhitespace"]),
    "Newline": _leaf(_CLASSES["Newline"]),
    "TrailingWhitespace": _line_end(_CLASSES["TrailingWhitespace"], False),
    "EmptyLine": _line_end(_CLASSES["EmptyLine"], True),
    "ParenthesizedWhitespace": _parenthesized(_CLASSES["ParenthesizedWhitespace"]),
}


def parse_module(text: str) -> cst.Module:
    """``libcst.parse_module(text)``, the nodes left unvalidated and the whitespace shared (see the docstring)."""
    cst.CSTNode.__post_init__ = _unchecked  # type: ignore[method-assign]
    for name, factory in _FACTORIES.items():
        setattr(cst, name, factory)
    try:
        return cst.parse_module(text)
    finally:
        cst.CSTNode.__post_init__ = _VALIDATE  # type: ignore[method-assign]
        for name, cls in _CLASSES.items():
            setattr(cst, name, cls)
