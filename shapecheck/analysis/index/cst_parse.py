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
a factory in place of one of those five classes on ``libcst`` (``isinstance`` against it still answers as the class's).
"""

from __future__ import annotations

from typing import Any, Callable

import libcst as cst

_VALIDATE = cst.CSTNode.__post_init__
_MAX_SHARED = 4096  # distinct nodes kept per class (blank runs, line endings: a few hundred in real code)


def _unchecked(self: cst.CSTNode) -> None:
    return None


_shared_ids: set[int] = set()  # every node a factory handed out: kept alive by its table, so the ids stay unique


def _key_part(value: object) -> object:
    """What a field contributes to a node's key: a plain value, a shared node's id, or a tuple of shared nodes' ids;
    ``_UNSHARED`` for anything else (a comment, a node built anew)."""
    if value is None or type(value) in (str, bool):
        return value
    if id(value) in _shared_ids:
        return ("node", id(value))
    if type(value) in (list, tuple):
        ids = tuple(id(v) for v in value)  # type: ignore[attr-defined]
        if all(i in _shared_ids for i in ids):
            return ("nodes", ids)
    return _UNSHARED


_UNSHARED = object()


class _Factory:
    """Stands for a node class on ``libcst`` while the parser runs: equal keyword arguments, one node."""

    def __init__(self, cls: type[cst.CSTNode]) -> None:
        self.cls = cls
        self.table: dict[tuple[object, ...], cst.CSTNode] = {}

    def __call__(self, **fields: Any) -> cst.CSTNode:
        key = tuple((k, _key_part(v)) for k, v in sorted(fields.items()))
        node = self.table.get(key)
        if node is not None:
            return node
        node = self.cls(**fields)
        if len(self.table) < _MAX_SHARED and all(part is not _UNSHARED for _, part in key):
            self.table[key] = node
            _shared_ids.add(id(node))
        return node

    def __instancecheck__(self, obj: object) -> bool:
        return isinstance(obj, self.cls)

    def __subclasscheck__(self, sub: type) -> bool:
        return issubclass(sub, self.cls)


_SHARED_CLASSES = ("SimpleWhitespace", "Newline", "TrailingWhitespace", "EmptyLine", "ParenthesizedWhitespace")
_CLASSES: dict[str, type[cst.CSTNode]] = {name: getattr(cst, name) for name in _SHARED_CLASSES}
_FACTORIES: dict[str, Callable[..., cst.CSTNode]] = {name: _Factory(cls) for name, cls in _CLASSES.items()}


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
