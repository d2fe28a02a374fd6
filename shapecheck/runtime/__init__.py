"""The runtime executor: einops' functions run from shapecheck's own pattern engine.

Same signatures, results and failures as einops 0.8.2. Every call goes through the recipes of
:mod:`shapecheck.pattern` and the integer shape function the static checker uses; the per-call plan is cached.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, List, Sequence

from ..pattern.problems import PatternError, Problem
from ..pattern.ir import operation_category
from ..pattern.recipe import einsum_recipe, pack_recipe, transform_recipe
from ..pattern.shapes import (
    IntDomain,
    TransformPlan,
    plan_transform,
    solve_pack,
    solve_parse_shape,
    solve_unpack,
    unpack_splits,
)
from ..pattern.validate import check_reduction
from .backends import get_backend

__all__ = ["rearrange", "reduce", "repeat", "pack", "unpack", "einsum", "parse_shape", "EinopsError"]

_INT = IntDomain()


class EinopsError(RuntimeError):
    """What einops reports as ``EinopsError``."""

    problem: Problem  # set by _error


def _error(e: PatternError, where: str) -> Exception:
    err = EinopsError(f"{where}: {e.problem.message()}")
    err.problem = e.problem
    return err


def _plan_uncached(
    pattern: str, reduction: Any, axes_items: tuple[tuple[str, Any], ...], shape: tuple[int, ...]
) -> TransformPlan:
    check_reduction(reduction)
    category = operation_category("reduce", reduction)
    names = tuple(k for k, _ in axes_items)
    recipe = transform_recipe(pattern, category, names, len(shape))
    return plan_transform(recipe, shape, axes_items)


_plan = lru_cache(maxsize=1024)(_plan_uncached)


def reduce(tensor: Any, pattern: str, reduction: Any, **axes_lengths: Any) -> Any:
    if isinstance(tensor, list):
        if len(tensor) == 0:
            raise TypeError("Rearrange/Reduce/Repeat can't be applied to an empty list")
        backend = get_backend(tensor[0])
        tensor = backend.stack(tensor)
    else:
        backend = get_backend(tensor)
    shape = backend.shape(tensor)
    axes_items = tuple(axes_lengths.items())
    try:
        try:
            init, perm, reduced, added, n_axes, final = _plan(pattern, reduction, axes_items, shape)
        except TypeError:  # unhashable sizes or lengths
            init, perm, reduced, added, n_axes, final = _plan_uncached(pattern, reduction, axes_items, shape)
    except PatternError as e:
        raise _error(e, f'{reduction}-reduction pattern "{pattern}", input shape {tuple(shape)}') from None
    if init is not None:
        tensor = backend.reshape(tensor, init)
    if perm is not None:
        tensor = backend.transpose(tensor, perm)
    if reduced:
        if callable(reduction):
            tensor = reduction(tensor, reduced)
        else:
            if reduction == "mean" and not backend.is_float(tensor):
                raise NotImplementedError("reduce_mean is not available for non-floating tensors")
            tensor = backend.reduce(tensor, reduction, reduced)
    if added:
        tensor = backend.add_axes(tensor, n_axes, added)
    if final is not None:
        tensor = backend.reshape(tensor, final)
    return tensor


def rearrange(tensor: Any, pattern: str, **axes_lengths: Any) -> Any:
    return reduce(tensor, pattern, "rearrange", **axes_lengths)


def repeat(tensor: Any, pattern: str, **axes_lengths: Any) -> Any:
    return reduce(tensor, pattern, "repeat", **axes_lengths)


def parse_shape(x: Any, pattern: str) -> dict[str, Any]:
    shape = get_backend(x).shape(x)
    try:
        return solve_parse_shape(pattern, shape, _INT)
    except PatternError as e:
        raise _error(e, f"parse_shape {pattern!r}, shape {tuple(shape)}") from None


@lru_cache(maxsize=1024)
def _pack_plan(
    pattern: str, shapes: tuple[tuple[int, ...], ...]
) -> tuple[int, tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    before, after = pack_recipe(pattern, "pack")
    _, packed_shapes = solve_pack(pattern, shapes, _INT)
    reshapes = tuple((*s[:before], -1, *s[len(s) - after :]) for s in shapes)
    return before, reshapes, tuple(packed_shapes)


def pack(tensors: Sequence[Any], pattern: str) -> tuple[Any, list[tuple[int, ...]]]:
    try:
        pack_recipe(pattern, "pack")
    except PatternError as e:
        raise _error(e, "pack") from None
    backend = get_backend(tensors[0])
    shapes = tuple(backend.shape(t) for t in tensors)
    try:
        before, reshapes, packed_shapes = _pack_plan(pattern, shapes)
    except PatternError as e:
        raise _error(e, "pack") from None
    pieces = [backend.reshape(t, s) for t, s in zip(tensors, reshapes)]
    return backend.concat(pieces, axis=before), list(packed_shapes)


def unpack(tensor: Any, packed_shapes: List[Any], pattern: str) -> list[Any]:
    backend = get_backend(tensor)
    shape = backend.shape(tensor)
    try:
        outs = solve_unpack(pattern, shape, packed_shapes, _INT)
    except PatternError as e:
        raise _error(e, f"unpack {pattern!r}") from None
    before, _ = pack_recipe(pattern, "unpack")
    lengths = [-1 if -1 in p else _prod(p) for p in packed_shapes]
    splits = unpack_splits(shape[before], lengths, lengths.count(-1))
    lead = (slice(None),) * before
    return [backend.reshape(tensor[(*lead, slice(splits[i], splits[i + 1]))], o) for i, o in enumerate(outs)]


def _prod(xs: Sequence[int]) -> int:
    r = 1
    for x in xs:
        r *= x
    return r


def einsum(*tensors_and_pattern: Any) -> Any:
    if len(tensors_and_pattern) <= 1:
        raise ValueError("einsum takes the tensors (at least one) followed by the pattern")
    pattern = tensors_and_pattern[-1]
    if not isinstance(pattern, str):
        raise ValueError("the last argument of einsum must be the pattern string")
    tensors = tensors_and_pattern[:-1]
    try:
        compact = einsum_recipe(pattern).compact
    except PatternError as e:
        raise _error(e, "einsum") from None
    return get_backend(tensors[0]).einsum(compact, *tensors)
