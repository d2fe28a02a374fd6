"""Shape-independent rules per operation: everything einops checks before it looks at sizes.

Each function raises :class:`PatternError` carrying the :class:`Problem`; :func:`check_call` returns it.
A Problem here means einops raises for *every* input of the call (whatever the number of dimensions).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..diagnostics import details as D
from .grammar import ELLIPSIS, Expression, parse_expression, split_arrow
from .ir import operation_category
from .problems import REDUCTION_CHOICES, REDUCTIONS, PatternError, Problem, fail
from .recipe import einsum_recipe, minimal_ndim, pack_recipe, transform_recipe


def check_reduction(reduction: Any, reduction_is_callable: bool = False) -> None:
    if reduction_is_callable or callable(reduction) or reduction is None:
        return
    if reduction in REDUCTIONS or reduction in ("rearrange", "repeat"):
        return
    raise fail("SHP106", reduction=reduction, choices=REDUCTION_CHOICES)


def validate_transform(pattern: str, category: str, axes_names: tuple[str, ...]) -> None:
    """All of einops' recipe checks, at the smallest number of dimensions the pattern accepts (every error
    besides the rank check is independent of it)."""
    ndim = minimal_ndim(pattern, category, axes_names)
    transform_recipe(pattern, category, axes_names, ndim)


@lru_cache(maxsize=512)
def parse_shape_expression(pattern: str) -> Expression:
    expr = parse_expression(pattern, allow_underscore=True, pattern=pattern)
    if expr.has_composed_axes:
        raise fail("SHP104", kind="RuntimeError", pattern=pattern, detail=D.IdentifierRule("parse-shape-composed"))
    if expr.has_ellipsis and ELLIPSIS not in expr.composition:
        raise fail("SHP103", kind="ValueError", pattern=pattern, detail=D.EllipsisPlacement("parenthesized"))
    return expr


def _einmix_fail(pattern: str, detail: D.Detail, at: str | None = None) -> PatternError:
    return fail("SHP109", at=at, pattern=pattern, detail=detail)


def validate_einmix(pattern: str, weight_shape: str | None, bias_shape: Any, axes_names: tuple[str, ...]) -> None:
    """The checks of ``einops.layers._einmix._EinmixMixin.initialize_einmix`` (sizes aside).
    ``weight_shape`` None means unknown: the checks that need it are skipped."""
    left_text, right_text = split_arrow(pattern)
    left = parse_expression(left_text, pattern=pattern)
    right = parse_expression(right_text, pattern=pattern)
    if weight_shape is None:
        return
    weight = parse_expression(weight_shape, pattern=weight_shape)
    extra = (right.names - left.names - weight.names) or (right.anonymous and {str(right.anonymous[0])})
    if extra:
        raise _einmix_fail(pattern, D.EinMixAxes("output-unknown", tuple(sorted(map(str, extra)))))
    if weight.has_ellipsis:
        raise _einmix_fail(pattern, D.EinMixRule("weight-ellipsis"))
    if left.has_ellipsis or right.has_ellipsis:
        if not (left.has_ellipsis and right.has_ellipsis):
            raise _einmix_fail(pattern, D.EinMixRule("one-sided-ellipsis"))
        if left.ellipsis_parenthesized:
            raise _einmix_fail(pattern, D.EinMixRule("parenthesized-ellipsis"))
    if left.anonymous or right.anonymous or weight.anonymous:
        raise _einmix_fail(pattern, D.EinMixRule("anonymous"))
    if "(" in weight_shape or ")" in weight_shape:
        raise _einmix_fail(pattern, D.EinMixShape("weight-parentheses", weight_shape))
    names = set(axes_names)
    # the pre/post Rearrange layers einops builds
    if any(isinstance(g, tuple) and len(g) != 1 for g in left.composition):
        flat = [a for g in left.composition for a in (g if isinstance(g, tuple) else (g,))]
        flat_text = " ".join("..." if a == ELLIPSIS else str(a) for a in flat)  # no anonymous axes here
        lengths = tuple(n for n in axes_names if n in flat)
        _layer_check(f"{left_text}-> {flat_text}", lengths, pattern)
    if any(isinstance(g, tuple) and len(g) != 1 for g in right.composition) or right.ellipsis_parenthesized:
        flat = [a for g in right.composition for a in (g if isinstance(g, tuple) else (g,))]
        flat_text = " ".join("..." if a == ELLIPSIS else str(a) for a in flat)  # no anonymous axes here
        _layer_check(f"{flat_text} ->{right_text}", (), pattern)
    for axis in sorted(weight.names):
        if axis not in names:
            raise _einmix_fail(pattern, D.EinMixAxes("weight-length", (axis,)), at=axis)
    unused = names - left.names - weight.names
    if unused:
        raise _einmix_fail(pattern, D.EinMixAxes("unused-lengths", tuple(sorted(unused))), at=sorted(unused)[0])
    redundant = weight.names - left.names - right.names
    if redundant:
        raise _einmix_fail(pattern, D.EinMixAxes("weight-redundant", tuple(sorted(redundant))), at=sorted(redundant)[0])
    if any(not isinstance(g, str) and len(g) != 1 for g in weight.composition):
        raise _einmix_fail(pattern, D.EinMixShape("weight-unit-axes", weight_shape))
    if bias_shape is not None:
        if not isinstance(bias_shape, str):
            raise _einmix_fail(pattern, D.EinMixRule("bias-not-str"))
        bias = parse_expression(bias_shape, pattern=bias_shape)
        if (bias.names - right.names) or bias.anonymous:
            raise _einmix_fail(pattern, D.EinMixShape("bias-not-in-output", bias_shape))
        if bias.names - names:
            raise _einmix_fail(pattern, D.EinMixAxes("bias-lengths", tuple(sorted(bias.names - names))))
        used = False
        for group in right.composition:
            for atom in (group,) if isinstance(group, str) else group:
                if atom == ELLIPSIS:
                    if used:
                        raise _einmix_fail(pattern, D.EinMixRule("bias-before-ellipsis"))
                elif atom in bias.names:
                    used = True
    mapped = (left.names | right.names | weight.names) - {ELLIPSIS}
    if len(mapped) > 26:
        raise _einmix_fail(pattern, D.EinMixRule("too-many-axes"))


def _layer_check(layer_pattern: str, names: tuple[str, ...], pattern: str) -> None:
    try:
        validate_transform(layer_pattern, "rearrange", names)
    except PatternError as e:
        raise _einmix_fail(
            pattern, D.EinMixInner(e.problem.code, tuple(e.problem.fields.items()), layer_pattern)
        ) from e


def _transform_problem(pattern: str, category: str, axes_names: tuple[str, ...]) -> Problem | None:
    try:
        validate_transform(pattern, category, axes_names)
    except PatternError as e:
        return e.problem
    return None


def check_call(
    kind: str,
    pattern: str,
    *,
    reduction: str | None = None,
    reduction_is_callable: bool = False,
    axes_names: tuple[str, ...] = (),
    n_operands: int | None = None,
    weight_shape: str | None = None,
    bias_shape: str | None = None,
) -> Problem | None:
    """Shape-independent validation (SHP1xx) of one einops call or layer; None when nothing definite."""
    axes_names = tuple(axes_names)
    try:
        if kind in ("rearrange", "repeat", "layer_rearrange"):
            category = operation_category(kind)
            return _transform_problem(pattern, category, axes_names)
        if kind in ("reduce", "layer_reduce"):
            if reduction is None and not reduction_is_callable:
                # unknown reduction: report only what fails whatever it is
                found = [_transform_problem(pattern, c, axes_names) for c in ("reduce", "rearrange", "repeat")]
                return found[0] if all(p is not None for p in found) else None
            category = "reduce" if reduction_is_callable else operation_category(kind, reduction)
            problem = _transform_problem(pattern, category, axes_names)
            if problem is not None and problem.code in ("SHP101", "SHP102", "SHP103"):
                return problem
            check_reduction(reduction, reduction_is_callable)
            return problem
        if kind in ("pack", "unpack"):
            pack_recipe(pattern, kind)
            return None
        if kind == "einsum":
            if n_operands is not None and n_operands == 0:
                return Problem("SHP111", {"detail": D.ApiRule("einsum-pattern-first")})
            r = einsum_recipe(pattern)
            if n_operands is not None and n_operands != len(r.operands):
                return Problem("SHP108", {"pattern": pattern, "detail": D.OperandCount(len(r.operands), n_operands)})
            return None
        if kind == "parse_shape":
            parse_shape_expression(pattern)
            return None
        if kind == "einmix":
            validate_einmix(pattern, weight_shape, bias_shape, axes_names)
            return None
    except PatternError as e:
        if kind == "einmix" and e.problem.code != "SHP109":
            return Problem(
                "SHP109",
                {"pattern": pattern, "detail": D.EinMixInner(e.problem.code, tuple(e.problem.fields.items()))},
                e.problem.axis,
            )
        return e.problem
    raise ValueError(f"unknown einops operation kind {kind!r}")
