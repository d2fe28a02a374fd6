"""libcst's parser, without the per-node validation of the trees it builds.

libcst's native parser builds each node through the node's dataclass constructor, whose ``__post_init__`` runs the
node's ``_validate`` (whitespace holds only blanks, parentheses pair up, a name is not empty, ...). Those checks guard
trees built by hand; a tree the parser built from source text passes them by construction. They were 13-16% of the
parse of transformer-lens's files, and the parse is most of a cold run. Every one of the 1,755 files of the development
and extra corpora parses the same way with and without them (same result, same exceptions).

Nodes built outside ``parse_module`` (autofixes, ``with_changes``) are validated as before: validation is switched off
only while the parser runs and switched on again in any case. A node another thread builds meanwhile may skip it.
"""

from __future__ import annotations

import libcst as cst

_VALIDATE = cst.CSTNode.__post_init__


def _unchecked(self: cst.CSTNode) -> None:
    return None


def parse_module(text: str) -> cst.Module:
    """``libcst.parse_module(text)``, the nodes left unvalidated (see the module's docstring)."""
    cst.CSTNode.__post_init__ = _unchecked  # type: ignore[method-assign]
    try:
        return cst.parse_module(text)
    finally:
        cst.CSTNode.__post_init__ = _VALIDATE  # type: ignore[method-assign]
