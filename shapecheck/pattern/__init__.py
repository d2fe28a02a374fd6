"""The einops pattern engine: grammar, operation IR, shape-independent validation, recipes, shape function.

Public API used by the static analyser:

* :func:`check_call` -- shape-independent problems (SHP1xx) of a call;
* :func:`infer` -- output shapes for concrete or symbolic input shapes, or the definite :class:`Problem`;
* :class:`Problem`, :class:`Inferred`.

The runtime executor (:mod:`shapecheck.runtime`) runs the same recipes on arrays.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Mapping, Sequence

from ..diagnostics import details as D
from ..sizes.algebra import Size, SizeLike, as_size
from .grammar import Expression, parse_expression
from .ir import TRANSFORM_KINDS, operation_category
from .problems import PatternError, Problem
from .recipe import parse_transform, rank_requirement, transform_recipe
from .shapes import (
    Domain,
    Inferred,
    IntDomain,
    SymDomain,
    infer_transform,
    solve_einsum,
    solve_pack,
    solve_parse_shape,
    solve_unpack,
)
from .validate import check_call, check_reduction

__all__ = ["Problem", "Inferred", "check_call", "infer", "parse_expression", "Expression", "PatternError"]

_counter = itertools.count()


def _default_fresh(name: str) -> Size:
    return Size.sym(f"{name}@{next(_counter)}")


def _all_int(values: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _domain(values: list[SizeLike], fresh: Callable[[str], Size] | None) -> Domain:
    if _all_int(values):
        return IntDomain()
    return SymDomain(fresh or _default_fresh)


def infer(
    kind: str,
    pattern: str,
    input_shapes: Sequence[Sequence[SizeLike]],
    *,
    axes_lengths: Mapping[str, SizeLike] = {},
    reduction: Any = None,
    stacked_list: bool = False,
    packed_shapes: Sequence[Sequence[SizeLike]] | None = None,
    fresh: Callable[[str], Size] | None = None,
) -> Inferred | Problem:
    """Output shapes of one einops call, or the Problem that occurs for every positive assignment of symbols."""
    try:
        return _infer(kind, pattern, input_shapes, dict(axes_lengths), reduction, stacked_list, packed_shapes, fresh)
    except PatternError as e:
        return e.problem


def _left_names(pattern: str) -> frozenset[str] | None:
    """Names on the left side of a transform pattern (None when the pattern does not parse)."""
    if pattern.count("->") != 1:
        return None
    try:
        return parse_expression(pattern.split("->")[0]).names
    except PatternError:
        return None


def _normalize(shape: Sequence[SizeLike]) -> tuple[SizeLike, ...]:
    out: list[SizeLike] = []
    for x in shape:
        n = x.as_int() if isinstance(x, Size) else None
        if n is not None:
            out.append(n)
        else:
            out.append(x)
    return tuple(out)


def _infer(
    kind: str,
    pattern: str,
    input_shapes: Sequence[Sequence[SizeLike]],
    axes_lengths: dict[str, SizeLike],
    reduction: Any,
    stacked_list: bool,
    packed_shapes: Sequence[Sequence[SizeLike]] | None,
    fresh: Callable[[str], Size] | None,
) -> Inferred | Problem:
    shapes = [_normalize(s) for s in input_shapes]
    axes_lengths = {k: _normalize((v,))[0] for k, v in axes_lengths.items()}
    if kind in TRANSFORM_KINDS:
        return _infer_transform(kind, pattern, shapes, axes_lengths, reduction, stacked_list, fresh)
    if kind == "pack":
        dom = _domain([x for s in shapes for x in s], fresh)
        packed, _ = solve_pack(pattern, shapes, dom)
        return Inferred((tuple(as_size(x) for x in packed),), {}, tuple(getattr(dom, "assumptions", ())))
    if kind == "unpack":
        if packed_shapes is None:
            return Problem("SHP111", {"detail": D.ApiRule("unpack-no-shapes")})
        ps = [_normalize(p) for p in packed_shapes]
        dom = _domain([x for x in shapes[0]] + [x for p in ps for x in p], fresh)
        outs = solve_unpack(pattern, shapes[0], ps, dom)
        return Inferred(tuple(tuple(as_size(x) for x in o) for o in outs), {}, tuple(getattr(dom, "assumptions", ())))
    if kind == "einsum":
        dom = _domain([x for s in shapes for x in s], fresh)
        out, axes = solve_einsum(pattern, shapes, dom)
        return Inferred(
            (tuple(as_size(x) for x in out),),
            {k: as_size(v) for k, v in axes.items()},
            tuple(getattr(dom, "assumptions", ())),
        )
    if kind == "parse_shape":
        dom = _domain(list(shapes[0]), fresh)
        axes = solve_parse_shape(pattern, shapes[0], dom)
        return Inferred((), {k: as_size(v) for k, v in axes.items()}, tuple(getattr(dom, "assumptions", ())))
    raise ValueError(f"infer() does not support {kind!r}")


def _infer_transform(
    kind: str,
    pattern: str,
    shapes: list[tuple[SizeLike, ...]],
    axes_lengths: dict[str, SizeLike],
    reduction: Any,
    stacked_list: bool,
    fresh: Callable[[str], Size] | None,
) -> Inferred | Problem:
    names = tuple(axes_lengths)
    values = [x for s in shapes for x in s] + list(axes_lengths.values())
    dom = _domain(values, fresh)
    left_names = _left_names(pattern)
    for name, v in axes_lengths.items():
        # a new axis of repeat may be 0 (an empty axis) or -1 (expand keeps size 1): einops accepts both;
        # an axis of the input cannot be non-positive
        if isinstance(v, int) and v <= 0 and (left_names is None or name in left_names):
            raise PatternError(
                Problem(
                    "SHP105",
                    {"axis": name, "value": f"={v}", "detail": D.KeywordRule("non-positive"), "pattern": pattern},
                    name,
                )
            )
    if stacked_list:
        if not shapes:
            return Problem("SHP111", {"detail": D.EmptyList(kind)})
        first = shapes[0]
        for i, s in enumerate(shapes[1:], 1):
            if len(s) != len(first):
                return Problem("SHP204", {"op": kind, "detail": D.ListRanks(i, len(s), len(first))})
            for a, b in zip(first, s):
                dom.same(a, b, "", kind, "list-elements", i)
        shape: tuple[SizeLike, ...] = (len(shapes),) + tuple(first)
    else:
        shape = shapes[0]
    if kind in ("reduce", "layer_reduce") and reduction is None:
        categories = ["reduce", "rearrange", "repeat"]
    else:
        check_reduction(reduction)
        categories = [operation_category(kind, reduction)]
    problem: Problem | None = None
    for category in categories:
        try:
            parse_transform(pattern, category, names)
        except PatternError as e:
            problem = problem or e.problem
            continue
        break
    else:
        assert problem is not None
        return problem
    left, _ = parse_transform(pattern, category, names)
    if kind.startswith("layer_") and left.has_ellipsis:
        n, _ = rank_requirement(left)
        if len(shape) > n + 7:
            return Problem(
                "SHP201",
                {
                    "what": f'{kind} pattern "{pattern}"',
                    "expected": f"{n} to {n + 7}",
                    "subject": "the input",
                    "actual": len(shape),
                },
            )
    recipe = transform_recipe(pattern, category, names, len(shape))
    return infer_transform(recipe, shape, axes_lengths, dom)
