"""Size-independent recipes.

:func:`transform_recipe` turns (pattern, operation category, keyword names, ndim) into a
:class:`TransformRecipe`: which elementary axes exist, how each input dimension splits into them, the
permutation, the reduced and the added axes and how outputs group them. It is cached; sizes come in later, in
:mod:`.shapes`, which the static analyser (ints or symbols) and the runtime executor (ints) both use.
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from functools import lru_cache
from typing import Union

from .grammar import ELLIPSIS, Anon, Atom, Element, Expression, is_valid_axis_name, parse_expression, split_arrow
from ..diagnostics import details as D
from .problems import fail

ELLIPSIS_AXIS = "...{}"  # names of the dimensions an ellipsis stands for: "...0", "...1", ...

# an elementary axis: a name (or ELLIPSIS_AXIS / ELLIPSIS), or (side, index, value) for an anonymous axis
AxisKey = Union[str, tuple[str, int, int]]


@dataclass(frozen=True)
class TransformRecipe:
    pattern: str
    category: str  # rearrange | reduce | repeat
    ndim: int
    names: tuple[str, ...]  # display name of each elementary axis
    known: tuple[int | None, ...]  # int length (anonymous axis) or None, per elementary axis
    keyword_axes: tuple[tuple[str, int], ...]  # (keyword, elementary index) per axis-length keyword, in call order
    # per input dim: (tuple of known elementary indices, unknown index or -1, group text)
    input_groups: tuple[tuple[tuple[int, ...], int, str], ...]
    need_init_reshape: bool
    permutation: tuple[int, ...] | None  # None when identity
    reduced_axes: tuple[int, ...]  # positions after the permutation
    added_axes: tuple[tuple[int, int], ...]  # (output position before final reshape, elementary index)
    output_groups: tuple[tuple[int, ...], ...]  # per output dim: tuple of elementary indices
    need_final_reshape: bool
    n_axes_with_added: int


def _key(atom: Atom, side: str) -> AxisKey:
    """A hashable identity for an atom: names are themselves, anonymous axes are unique per side/position."""
    if isinstance(atom, Anon):
        return (side, atom.index, atom.value)
    return atom


def _describe(atom: AxisKey) -> str:
    if isinstance(atom, tuple):
        return str(atom[2])
    return str(atom)


_UNIT_AXIS = re.compile(r"(?<![\w(])1(?![\w)])")


def _group_text(group: tuple[AxisKey, ...]) -> str:
    if len(group) == 1:
        return _describe(group[0])
    return "(" + " ".join(_describe(a) for a in group) + ")"


@lru_cache(maxsize=1024)
def parse_transform(pattern: str, category: str, axes_names: tuple[str, ...]) -> tuple[Expression, Expression]:
    """Every rule einops checks before it looks at the number of dimensions."""
    left_text, right_text = split_arrow(pattern)
    left = parse_expression(left_text, pattern=pattern)
    right = parse_expression(right_text, pattern=pattern)
    if not left.has_ellipsis and right.has_ellipsis:
        raise fail("SHP103", pattern=pattern, detail=D.EllipsisPlacement("right-only"))
    if left.has_ellipsis and left.ellipsis_parenthesized:
        raise fail("SHP103", pattern=pattern, detail=D.EllipsisPlacement("parenthesized-left"))
    if category == "rearrange":
        if left.anonymous or right.anonymous:
            raise fail("SHP104", pattern=pattern, detail=D.IdentifierRule("rearrange-anonymous"))
        only = sorted(left.names ^ right.names)
        if only:
            raise fail("SHP104", at=only[0], pattern=pattern, detail=D.AxesMisused("one-side", tuple(only)))
    elif category == "repeat":
        extra = sorted(left.names - right.names) + [str(a) for a in left.anonymous]
        if extra:
            raise fail("SHP104", at=extra[0], pattern=pattern, detail=D.AxesMisused("repeat-drops", tuple(extra)))
        missing = sorted(right.names - left.names - set(axes_names))
        if missing:
            raise fail("SHP104", at=missing[0], pattern=pattern, detail=D.AxesMisused("repeat-length", tuple(missing)))
    else:
        extra = sorted(right.names - left.names) + [str(a) for a in right.anonymous]
        if extra:
            raise fail("SHP104", at=extra[0], pattern=pattern, detail=D.AxesMisused("reduce-introduces", tuple(extra)))
    return left, right


def rank_requirement(left: Expression) -> tuple[int, bool]:
    """(n, exact): the input needs exactly n dims, or at least n when ``exact`` is False."""
    if left.has_ellipsis:
        return len(left.composition) - 1, False
    return len(left.composition), True


@lru_cache(maxsize=2048)
def transform_recipe(pattern: str, category: str, axes_names: tuple[str, ...], ndim: int) -> TransformRecipe:
    left, right = parse_transform(pattern, category, axes_names)
    n, exact = rank_requirement(left)
    if (exact and ndim != n) or (not exact and ndim < n):
        raise fail(
            "SHP201",
            what=f'{category} pattern "{pattern}"',
            expected=str(n) if exact else f">= {n}",
            subject="the input",
            actual=ndim,
        )

    # expand the ellipsis (or treat a literal marker as an ordinary axis called '…')
    if left.has_ellipsis:
        ell = tuple(ELLIPSIS_AXIS.format(i) for i in range(ndim - n))
    else:
        ell = (ELLIPSIS,)

    def expand(expr: Expression, side: str) -> list[tuple[AxisKey, ...]]:
        out: list[tuple[AxisKey, ...]] = []
        for element in expr.composition:
            if isinstance(element, str):  # the bare marker
                out.extend((a,) for a in ell)
            else:
                group: list[AxisKey] = []
                for atom in element:
                    if atom == ELLIPSIS:
                        group.extend(ell)
                    else:
                        group.append(_key(atom, side))
                out.append(tuple(group))
        return out

    left_groups = expand(left, "L")
    right_groups = expand(right, "R")
    left_set = {a for g in left_groups for a in g}
    right_set = set(right.names) | {_key(a, "R") for a in right.anonymous}
    if right.has_ellipsis:
        right_set = (right_set - {ELLIPSIS}) | set(ell)

    order: dict[AxisKey, int] = {}
    known: list[int | None] = []
    for g in left_groups:
        for a in g:
            order[a] = len(order)
            known.append(a[2] if isinstance(a, tuple) else None)
    for a in sorted(right_set - set(order), key=str):
        order[a] = len(order)
        known.append(a[2] if isinstance(a, tuple) else None)

    keyword_axes: list[tuple[str, int]] = []
    for name in axes_names:
        if not is_valid_axis_name(name):
            raise fail("SHP105", axis=name, value="", pattern=pattern, detail=D.KeywordRule("invalid-name"))
        if name not in order:
            raise fail("SHP105", axis=name, value="", pattern=pattern, detail=D.KeywordRule("unused"))
        keyword_axes.append((name, order[name]))
    with_keyword = {idx for _, idx in keyword_axes}

    input_groups: list[tuple[tuple[int, ...], int, str]] = []
    need_init_reshape = False
    for g in left_groups:
        k = tuple(order[a] for a in g if known[order[a]] is not None or order[a] in with_keyword)
        u = [a for a in g if not (known[order[a]] is not None or order[a] in with_keyword)]
        if len(u) > 1:
            raise fail(
                "SHP104", at=str(u[0]), pattern=pattern, detail=D.AxesMisused("cannot-infer", tuple(str(a) for a in u))
            )
        text = _group_text(g)
        if not g and _UNIT_AXIS.search(pattern.split("->")[0]) and "()" not in pattern.split("->")[0].replace(" ", ""):
            text = "1"  # (einops reads a written 1 as an empty group: the message names it as the pattern writes it)
        input_groups.append((k, order[u[0]] if u else -1, text))
        if len(g) != 1:
            need_init_reshape = True

    flat_left = [a for g in left_groups for a in g]
    flat_right = [a for g in right_groups for a in g]
    reduced = [a for a in flat_left if a not in right_set]
    after = [a for a in flat_right if a in left_set] + reduced
    permutation = tuple(flat_left.index(a) for a in after)
    if len(set(permutation)) != len(permutation):
        # einops builds the same non-permutation and the backend's transpose fails
        raise fail("SHP103", pattern=pattern, detail=D.EllipsisPlacement("literal-marker"))
    added = tuple((i, order[a]) for i, a in enumerate(flat_right) if a not in left_set)
    output_groups = tuple(tuple(order[a] for a in g) for g in right_groups)
    first_reduced = len(after) - len(reduced)
    names = tuple(_describe(a) for a in order)
    return TransformRecipe(
        pattern=pattern,
        category=category,
        ndim=ndim,
        names=names,
        known=tuple(known),
        keyword_axes=tuple(keyword_axes),
        input_groups=tuple(input_groups),
        need_init_reshape=need_init_reshape,
        permutation=None if permutation == tuple(range(len(permutation))) else permutation,
        reduced_axes=tuple(range(first_reduced, len(permutation))),
        added_axes=added,
        output_groups=output_groups,
        need_final_reshape=any(len(g) != 1 for g in output_groups),
        n_axes_with_added=len(added) + len(permutation),
    )


def minimal_ndim(pattern: str, category: str, axes_names: tuple[str, ...]) -> int:
    left, _ = parse_transform(pattern, category, axes_names)
    return rank_requirement(left)[0]


# ---------------------------------------------------------------------------------------------------------------
# pack / unpack


@lru_cache(maxsize=512)
def pack_recipe(pattern: str, op: str) -> tuple[int, int]:
    """(axes before '*', axes after '*') for a pack/unpack pattern; raises SHP107."""
    axes = pattern.split()
    if len(axes) != len(set(axes)):
        dup = next(a for a in axes if axes.count(a) > 1)
        raise fail("SHP107", at=dup, op=op, pattern=pattern, detail=D.PackAxis("twice", dup))
    if "*" not in axes:
        raise fail("SHP107", op=op, pattern=pattern, detail=D.PackRule("no-star"))
    for a in axes:
        if a != "*" and not is_valid_axis_name(a):
            raise fail("SHP107", at=a, op=op, pattern=pattern, detail=D.PackAxis("invalid", a))
    before = axes.index("*")
    return before, len(axes) - before - 1


# ---------------------------------------------------------------------------------------------------------------
# einsum

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class EinsumRecipe:
    pattern: str
    compact: str  # the backend einsum string, e.g. "ab,bc->ac"
    operands: tuple[tuple[str, ...], ...]  # per operand: tuple of letters, "..." for the ellipsis
    output: tuple[str, ...]
    letter_names: tuple[tuple[str, str], ...]  # (letter, axis name)


def _einsum_atom(element: Element, pattern: str) -> str:
    if isinstance(element, str):
        return "..."
    if len(element) == 0:
        raise fail("SHP108", kind="NotImplementedError", pattern=pattern, detail=D.EinsumRule("unit-axes"))
    if len(element) > 1:
        raise fail("SHP108", kind="NotImplementedError", pattern=pattern, detail=D.EinsumRule("composed-axes"))
    atom = element[0]
    if isinstance(atom, Anon):
        raise fail("SHP108", kind="NotImplementedError", pattern=pattern, detail=D.EinsumRule("anonymous-axes"))
    return atom


@lru_cache(maxsize=512)
def einsum_recipe(pattern: str) -> EinsumRecipe:
    if "->" not in pattern:
        raise fail("SHP108", kind="ValueError", pattern=pattern, detail=D.EinsumRule("no-arrow"))
    parts = pattern.split("->")
    if len(parts) != 2:
        raise fail("SHP108", kind="ValueError", pattern=pattern, detail=D.EinsumRule("many-arrows"))
    lefts = [
        parse_expression(t, allow_underscore=True, allow_duplicates=True, pattern=pattern) for t in parts[0].split(",")
    ]
    right = parse_expression(parts[1], allow_underscore=True, pattern=pattern)
    mapping: dict[str, str] = {}
    operands: list[tuple[str, ...]] = []
    for expr in lefts:
        letters: list[str] = []
        for element in expr.composition:
            name = _einsum_atom(element, pattern)
            if name == "...":
                letters.append("...")
                continue
            if name not in mapping:
                if len(mapping) >= len(_LETTERS):
                    raise fail("SHP108", kind="RuntimeError", pattern=pattern, detail=D.EinsumRule("too-many-axes"))
                mapping[name] = _LETTERS[len(mapping)]
            letters.append(mapping[name])
        operands.append(tuple(letters))
    output: list[str] = []
    for element in right.composition:
        name = _einsum_atom(element, pattern)
        if name == "...":
            output.append("...")
            continue
        if name not in mapping:
            raise fail("SHP108", at=name, pattern=pattern, detail=D.OutputNotInInput(name))
        output.append(mapping[name])
    letters_out = [x for x in output if x != "..."]
    if len(letters_out) != len(set(letters_out)):
        raise fail("SHP108", kind="ValueError", pattern=pattern, detail=D.EinsumRule("output-twice"))
    if output.count("...") > 1 or any(op.count("...") > 1 for op in operands):
        raise fail("SHP108", kind="ValueError", pattern=pattern, detail=D.EinsumRule("many-ellipses"))
    compact = ",".join("".join(op) for op in operands) + "->" + "".join(output)
    return EinsumRecipe(pattern, compact, tuple(operands), tuple(output), tuple((v, k) for k, v in mapping.items()))
