"""Parse a jaxtyping shape string (``"batch *rest #c h=3 n-1"``) into a :class:`DimSpec`.

The rules are jaxtyping 0.3's (``_make_array_cached`` in ``jaxtyping/_array_types.py``); the differential test
``tests/test_jaxtyping_differential.py`` checks them against the installed jaxtyping. Summary:

* the string is ``strip()``-ped and split on whitespace; ``""`` is a scalar (no dims);
* a token with ``,`` (and no ``(``) or ending in ``#`` is an error; a token containing ``...`` must be exactly
  ``...``;
* otherwise leading modifiers are peeled off in any order, each at most once: ``#`` broadcastable, ``*``
  variadic, ``_`` anonymous, ``?`` tree-path dependent; and ``label=rest`` (exactly one ``=``) simply *drops*
  ``label=`` -- ``rows=3`` is the fixed size 3, ``a=b`` is the axis ``b``, the label binds nothing;
* what remains is a name if it is empty or ``str.isidentifier()``, else a fixed size if ``int()`` accepts it
  (so ``-3``, ``+3``, ``1_0`` and non-ASCII digits are fixed sizes), else a symbolic expression;
* invalid combinations: two variadics, ``*4``, ``_4``, ``?4``, ``#_``, ``_n-1``, ``*n-1``, ``?n-1``.

Symbolic tokens are *not* validated by jaxtyping when the annotation is created: ``"b (h w) c"`` is accepted as
the expressions ``(h`` and ``w)``, and fails with a SyntaxError each time an array is checked. ``parse_dims``
rejects those by default (``strict=True``); ``strict=False`` reproduces jaxtyping's creation-time verdict
exactly.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from . import safe_eval

KINDS = ("named", "fixed", "expr", "anonymous", "variadic", "ellipsis")


@dataclass(frozen=True)
class Dim:
    """One whitespace-separated token of a shape string.

    kind:
      ``named``     a single axis that binds ``name`` (``n``, ``#n``, ``a=n``; ``a=`` binds the empty name)
      ``fixed``     a literal size ``value`` (``3``, ``#3``, ``rows=3`` -- ``rows`` is only a ``label``)
      ``expr``      a symbolic size; ``name`` is the expression text with modifiers removed (``#n-1`` -> ``n-1``)
      ``anonymous`` ``_`` / ``_name``: any single size, binds nothing
      ``variadic``  ``*name`` / ``#*name``: zero or more axes bound as a tuple to ``name``
      ``ellipsis``  ``...`` and the equivalent anonymous variadics ``*_`` / ``*_name`` / ``_*``: zero or more
                    axes, binds nothing (jaxtyping uses one sentinel for all of them)
    """

    kind: str
    name: str | None
    value: int | None
    broadcast: bool
    text: str
    label: str | None = None  # the dropped `label=` prefix of `label=3` / `label=n`
    treepath: bool = False  # `?name`: only meaningful inside a PyTree[...] annotation

    @property
    def is_variadic(self) -> bool:
        return self.kind in ("variadic", "ellipsis")


@dataclass(frozen=True)
class DimSpec:
    dims: tuple[Dim, ...]
    text: str

    @property
    def variadic_index(self) -> int | None:
        for i, d in enumerate(self.dims):
            if d.is_variadic:
                return i
        return None

    @property
    def min_rank(self) -> int:
        return len(self.dims) - (1 if self.variadic_index is not None else 0)

    def check_order(self) -> tuple[Dim, ...]:
        """The single dims in the order jaxtyping checks them: prefix then suffix (the variadic comes last)."""
        i = self.variadic_index
        if i is None:
            return self.dims
        return self.dims[:i] + self.dims[i + 1 :]

    def __str__(self) -> str:
        return self.text


def _parse_token(token: str) -> Dim | str:
    elem = token
    if "," in elem and "(" not in elem:
        return "Axes should be separated with spaces, not commas"
    if elem.endswith("#"):
        return "broadcastable axes are denoted with a # at the start, rather than at the end"
    if "..." in elem:
        if elem != "...":
            return f"Anonymous multiple axes '...' must be used on its own; got {elem}"
        return Dim("ellipsis", None, None, False, token)
    broadcast = variadic = anonymous = treepath = False
    label: str | None = None
    while elem:
        first = elem[0]
        if first == "#":
            if broadcast:
                return "Do not use # twice to denote broadcastability, e.g. `##foo` is not allowed"
            broadcast, elem = True, elem[1:]
        elif first == "*":
            if variadic:
                return "Do not use * twice to denote accepting multiple axes, e.g. `**foo` is not allowed"
            variadic, elem = True, elem[1:]
        elif first == "_":
            if anonymous:
                return "Do not use _ twice to denote anonymity, e.g. `__foo` is not allowed"
            anonymous, elem = True, elem[1:]
        elif first == "?":
            if treepath:
                return (
                    "Do not use ? twice to denote dependence on location within a PyTree, e.g. `??foo` is not allowed"
                )
            treepath, elem = True, elem[1:]
        elif elem.count("=") == 1:
            lab, elem = elem.split("=")
            label = lab if label is None else label + "=" + lab
        else:
            break
    fixed: int | None = None
    if len(elem) == 0 or elem.isidentifier():
        dim_type = "named"
    else:
        try:
            fixed = int(elem)
        except ValueError:
            dim_type = "expr"
        else:
            dim_type = "fixed"
    if dim_type == "fixed":
        if variadic:
            return "Cannot have a fixed axis bind to multiple axes, e.g. `*4` is not allowed."
        if anonymous:
            return "Cannot have a fixed axis be anonymous, e.g. `_4` is not allowed."
        if treepath:
            return "Cannot have a fixed axis have tree-path dependence, e.g. `?4` is not allowed."
        return Dim("fixed", None, fixed, broadcast, token, label)
    if dim_type == "named":
        if anonymous:
            if broadcast:
                return "Cannot have an axis be both anonymous and broadcastable, e.g. `#_` is not allowed."
            if variadic:
                return Dim("ellipsis", None, None, False, token, label)
            return Dim("anonymous", None, None, False, token, label)
        return Dim("variadic" if variadic else "named", elem, None, broadcast, token, label, treepath)
    if anonymous:
        return "Cannot have a symbolic axis be anonymous, e.g. `_foo+bar` is not allowed"
    if variadic:
        return "Cannot have symbolic multiple-axes, e.g. `*foo+bar` is not allowed"
    if treepath:
        return "Cannot have a symbolic axis with tree-path dependence, e.g. `?foo+bar` is not allowed"
    return Dim("expr", elem, None, broadcast, token, label)


def expr_runtime_problem(expr: str) -> str | None:
    """Why jaxtyping will certainly fail to evaluate the symbolic axis ``expr`` (None if it may work).

    jaxtyping evaluates ``eval(f"f'{expr}'", arguments)`` and then ``eval(result, axis_bindings)``; both
    parse steps are reproduced here (parse only, nothing is run).
    """
    try:
        ast.parse("f'" + expr + "'", mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return f"symbolic axis {expr!r} is not a valid f-string body"
    if "{" in expr or "}" in expr or "\\" in expr:
        return None  # the text is rewritten by the f-string step with argument values: cannot tell statically
    try:
        ast.parse(expr, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        hint = " (einops-style groups like '(h w)' are not jaxtyping syntax)" if "(" in expr or ")" in expr else ""
        return f"symbolic axis {expr!r} is not a valid Python expression{hint}"
    return None


def parse_dims(text: str, *, strict: bool = True) -> DimSpec | str:
    """Parse a shape string; a :class:`DimSpec`, or the reason it is invalid.

    With ``strict=False`` a string is rejected exactly when ``jaxtyping.Float[np.ndarray, text]`` raises. With
    ``strict=True`` (default) symbolic axes that can never evaluate (``"b (h w) c"``) are rejected too; jaxtyping
    accepts those when the annotation is created but raises when it checks an array of the right rank.
    """
    if not isinstance(text, str):
        return "Shape specification must be a string. Axes should be separated with spaces."
    dims: list[Dim] = []
    variadic_at: int | None = None
    for index, token in enumerate(text.strip().split()):
        dim = _parse_token(token)
        if isinstance(dim, str):
            return dim
        if dim.is_variadic:
            if variadic_at is not None:
                return "Cannot use variadic specifiers (`*name` or `...`) more than once."
            variadic_at = index
        dims.append(dim)
    if strict:
        for dim in dims:
            if dim.kind == "expr":
                assert dim.name is not None
                problem = expr_runtime_problem(dim.name)
                if problem is not None:
                    return problem
    return DimSpec(tuple(dims), text)


def bound_names(spec: DimSpec) -> set[str]:
    """Names the spec binds: single named axes and named variadics (tree-path ones included)."""
    return {d.name for d in spec.dims if d.kind in ("named", "variadic") and d.name is not None}


def expr_names(dim: Dim) -> set[str]:
    """Axis names a symbolic dimension reads (empty for non-expressions and for unparsable text)."""
    if dim.kind != "expr" or dim.name is None:
        return set()
    return safe_eval.names_in(dim.name)


def names_used(spec: DimSpec) -> set[str]:
    """Every axis name the spec mentions: bound names plus names read by expressions."""
    out = bound_names(spec)
    for d in spec.dims:
        out |= expr_names(d)
    return out
