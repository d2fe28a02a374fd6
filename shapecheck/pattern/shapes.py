"""The shape function: sizes in, sizes (or a :class:`Problem`) out.

Every check is written once, over a *domain*: :class:`IntDomain` does exactly einops' integer arithmetic (the
runtime executor and ``infer`` with concrete sizes use it), :class:`SymDomain` decides the same conditions on
symbolic :class:`~shapecheck.sizes.Size` values with three-valued logic and raises only on a definite failure,
recording UNKNOWN conditions as assumptions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Protocol, Sequence, cast

from ..diagnostics import details as D
from ..sizes.algebra import Size, Truth, as_size, divisible, equal, greater_equal, product
from .problems import fail
from .recipe import TransformRecipe, einsum_recipe, pack_recipe

# ---------------------------------------------------------------------------------------------------------------
# domains


class Domain(Protocol):
    """What the shape function needs of its arithmetic: :class:`IntDomain` or :class:`SymDomain`."""

    symbolic: bool

    def mul(self, a: Any, b: Any) -> Any: ...

    def check_equal(self, actual: Any, expected: Any, axis: str, requirement: D.Detail) -> None:
        """A size that must be ``expected``; a definite difference is SHP202 (``requirement``: what requires it)."""

    def divide(self, length: Any, chunk: Any, axis: str, group: str, pattern: str) -> Any: ...

    def operand_dim(self, a: Any, b: Any, axis: str, op: str) -> Any: ...

    def same(self, a: Any, b: Any, axis: str, op: str, rule: str, index: int = 0) -> None:
        """Sizes that must be equal; a definite difference is SHP204 ``details.AxisSizes(rule, axis, a, b, index)``."""


class IntDomain:
    """einops' own arithmetic on python ints (checks are skipped for non-int values, as einops does)."""

    symbolic = False

    def mul(self, a: Any, b: Any) -> Any:
        return a * b

    def check_equal(self, actual: Any, expected: Any, axis: str, requirement: D.Detail) -> None:
        if isinstance(actual, int) and isinstance(expected, int) and actual != expected:
            raise fail("SHP202", axis=axis, actual=actual, requirement=requirement, expected=expected)

    def divide(self, length: Any, chunk: Any, axis: str, group: str, pattern: str) -> Any:
        if isinstance(length, int) and isinstance(chunk, int):
            if chunk == 0:
                raise fail(
                    "SHP105",
                    kind="ZeroDivisionError",
                    axis=axis,
                    value="=0",
                    pattern=pattern,
                    detail=D.KeywordRule("non-positive"),
                )
            if length % chunk != 0:
                raise fail("SHP203", at=axis, axis=group, size=length, chunk=chunk, pattern=pattern)
        return length // chunk

    def operand_dim(self, a: Any, b: Any, axis: str, op: str) -> Any:
        """numpy/torch einsum and broadcasting: equal sizes, or one of them is 1."""
        if a == b or b == 1:
            return a
        if a == 1:
            return b
        raise fail("SHP204", at=axis, op=op, detail=D.AxisSizes("operands", axis, a, b))

    def same(self, a: Any, b: Any, axis: str, op: str, rule: str, index: int = 0) -> None:
        if a != b:
            raise fail("SHP204", at=axis, op=op, detail=D.AxisSizes(rule, axis, a, b, index))


class SymDomain:
    """The same checks on symbolic sizes: a definite failure raises, an unknown one becomes an assumption."""

    symbolic = True

    def __init__(self, fresh: Callable[[str], Size]) -> None:
        self.fresh = fresh
        self.assumptions: list[str] = []

    def _assume(self, text: str) -> None:
        if text not in self.assumptions:
            self.assumptions.append(text)

    def mul(self, a: Any, b: Any) -> Size:
        return as_size(a) * as_size(b)

    def check_equal(self, actual: Any, expected: Any, axis: str, requirement: D.Detail) -> None:
        t = equal(actual, expected)
        if t is Truth.FALSE:
            raise fail("SHP202", axis=axis, actual=str(actual), requirement=requirement, expected=str(expected))
        if t is Truth.UNKNOWN:
            self._assume(f"{actual} == {expected}")

    def divide(self, length: Any, chunk: Any, axis: str, group: str, pattern: str) -> Size:
        length, chunk = as_size(length), as_size(chunk)
        t = divisible(length, chunk)
        if t is Truth.FALSE:
            raise fail("SHP203", at=axis, axis=group, size=str(length), chunk=str(chunk), pattern=pattern)
        if t is Truth.UNKNOWN:
            self._assume(f"{length} divisible by {chunk}")
        q = length.exact_div(chunk)
        return q if q is not None else self.fresh(axis)

    def operand_dim(self, a: Any, b: Any, axis: str, op: str) -> Size:
        sa, sb = as_size(a), as_size(b)
        t = equal(sa, sb)
        if t is Truth.TRUE or sb.as_int() == 1:
            return sa
        if sa.as_int() == 1:
            return sb
        if t is Truth.FALSE and not_one(sa) and not_one(sb):
            raise fail("SHP204", at=axis, op=op, detail=D.AxisSizes("operands", axis, sa, sb))
        self._assume(f"{sa} == {sb} (or one of them is 1)")
        return sa if sb.is_const else sb if sa.is_const else sa

    def same(self, a: Any, b: Any, axis: str, op: str, rule: str, index: int = 0) -> None:
        t = equal(a, b)
        if t is Truth.FALSE:
            raise fail("SHP204", at=axis, op=op, detail=D.AxisSizes(rule, axis, a, b, index))
        if t is Truth.UNKNOWN:
            self._assume(f"{a} == {b}")


def not_one(x: Size) -> bool:
    """Definitely not 1 for every positive assignment."""
    if x.is_const:
        return x.value != 1
    if greater_equal(x, 2) is Truth.TRUE:
        return True
    # a polynomial with positive integer coefficients and positive exponents is smallest at all-ones
    if all(c > 0 and c.denominator == 1 and all(e > 0 for _, e in m) for m, c in x.terms):
        return sum(c for _, c in x.terms) >= 2
    return False


# ---------------------------------------------------------------------------------------------------------------
# rearrange / reduce / repeat


def solve_transform(
    recipe: TransformRecipe, shape: Sequence[Any], axes_lengths: Mapping[str, Any], dom: Domain
) -> list[Any]:
    """Length of every elementary axis; checks every input dimension against the pattern (einops' order)."""
    lengths: list[Any] = list(recipe.known)
    for name, idx in recipe.keyword_axes:
        lengths[idx] = axes_lengths[name]
    for dim, (known, unknown, text) in enumerate(recipe.input_groups):
        length = shape[dim]
        if not known and unknown >= 0:
            lengths[unknown] = length
            continue
        chunk: Any = 1
        for k in known:
            chunk = dom.mul(chunk, lengths[k])
        if unknown < 0:
            dom.check_equal(length, chunk, text, D.PatternRequires(recipe.pattern))
        else:
            lengths[unknown] = dom.divide(length, chunk, recipe.names[unknown], text, recipe.pattern)
    return lengths


def output_shape(recipe: TransformRecipe, lengths: Sequence[Any], dom: Domain) -> list[Any]:
    out: list[Any] = []
    for group in recipe.output_groups:
        size: Any = 1
        for i in group:
            size = dom.mul(size, lengths[i])
        out.append(size)
    return out


_INT = IntDomain()

# (init_shapes, permutation, reduced_axes, added {pos: len}, n_axes_with_added, final_shapes)
TransformPlan = tuple[
    Optional[tuple[int, ...]],
    Optional[tuple[int, ...]],
    tuple[int, ...],
    dict[int, int],
    int,
    Optional[tuple[int, ...]],
]


def plan_transform(
    recipe: TransformRecipe, shape: tuple[int, ...], axes_items: tuple[tuple[str, Any], ...]
) -> TransformPlan:
    """The executor's plan for concrete sizes: (init_shapes, permutation, reduced_axes, added {pos: len},
    n_axes_with_added, final_shapes) -- None for steps that are not needed."""
    lengths = solve_transform(recipe, shape, dict(axes_items), _INT)
    init = tuple(lengths[: recipe.n_axes_with_added - len(recipe.added_axes)]) if recipe.need_init_reshape else None
    added = {pos: lengths[e] for pos, e in recipe.added_axes}
    final = tuple(output_shape(recipe, lengths, _INT)) if recipe.need_final_reshape else None
    return init, recipe.permutation, recipe.reduced_axes, added, recipe.n_axes_with_added, final


@dataclass(frozen=True)
class Inferred:
    outputs: tuple[tuple[Size, ...], ...]
    axes: dict[str, Size]
    assumptions: tuple[str, ...] = ()


def _sizes(xs: Sequence[Any]) -> tuple[Size, ...]:
    return tuple(as_size(x) for x in xs)


def infer_transform(
    recipe: TransformRecipe, shape: Sequence[Any], axes_lengths: Mapping[str, Any], dom: Domain
) -> Inferred:
    lengths = solve_transform(recipe, shape, axes_lengths, dom)
    out = output_shape(recipe, lengths, dom)
    axes: dict[str, Size] = {}
    for name, known, length in zip(recipe.names, recipe.known, lengths):
        if known is None and length is not None:
            axes[name] = as_size(length)
    return Inferred((_sizes(out),), axes, tuple(getattr(dom, "assumptions", ())))


# ---------------------------------------------------------------------------------------------------------------
# pack / unpack


def solve_pack(
    pattern: str, shapes: Sequence[Sequence[Any]], dom: Domain
) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """(packed shape, packed shapes) or PatternError."""
    before, after = pack_recipe(pattern, "pack")
    if len(shapes) == 0:
        raise fail("SHP111", kind="IndexError", detail=D.ApiRule("pack-empty"))
    first: list[Any] | None = None
    total: Any = 0
    packed_shapes: list[tuple[Any, ...]] = []
    # einops reshapes every tensor (a rank check, then -1 inferred) before the backend concatenates them
    for i, shape in enumerate(shapes):
        if len(shape) < before + after:
            raise fail(
                "SHP201",
                what=f'pack pattern "{pattern}"',
                expected=f">= {before + after}",
                subject=f"tensor #{i}",
                actual=len(shape),
            )
        if not dom.symbolic:
            k = 1
            for x in list(shape[:before]) + list(shape[len(shape) - after :]):
                k *= x
            if k == 0:
                raise fail("SHP204", op="pack", detail=D.PackZeroElements(i))
    for shape in shapes:
        outer = list(shape[:before]) + list(shape[len(shape) - after :])
        middle = list(shape[before : len(shape) - after])
        if first is None:
            first = outer
        else:
            for j, (a, b) in enumerate(zip(first, outer)):
                dom.same(a, b, f"#{j}", "pack", "pack-outer")
        m: Any = 1
        for x in middle:
            m = dom.mul(m, x)
        total = total + m
        packed_shapes.append(tuple(middle))
    assert first is not None
    return tuple(first[:before]) + (total,) + tuple(first[before:]), packed_shapes


def _reshape_ok(numel: int, target: Sequence[int]) -> tuple[int, ...] | None:
    """numpy/torch reshape rules: the resolved shape, or None when the reshape raises."""
    if any(x < -1 for x in target) or list(target).count(-1) > 1:
        return None
    if -1 in target:
        known = 1
        for x in target:
            if x != -1:
                known *= x
        if known == 0 or numel % known != 0:
            return None
        return tuple(numel // known if x == -1 else x for x in target)
    p = 1
    for x in target:
        p *= x
    return tuple(target) if p == numel else None


def solve_unpack(
    pattern: str, shape: Sequence[Any], packed_shapes: Sequence[Sequence[Any]], dom: Domain
) -> list[tuple[Any, ...]]:
    """Output shapes of unpack, and the split positions (ints only) -> (shapes, splits)."""
    before, after = pack_recipe(pattern, "unpack")
    if len(shape) != before + 1 + after:
        raise fail(
            "SHP201",
            what=f'unpack pattern "{pattern}"',
            expected=str(before + 1 + after),
            subject="the input",
            actual=len(shape),
        )
    lengths: list[Any] = []
    for p in packed_shapes:
        if any(isinstance(x, int) and not isinstance(x, bool) and x == -1 for x in p):
            lengths.append(-1)
        else:
            m: Any = 1
            for x in p:
                m = dom.mul(m, x)
            lengths.append(m)
    n_unknown = sum(1 for x in lengths if isinstance(x, int) and x == -1)
    if n_unknown > 1:
        raise fail("SHP111", detail=D.UnpackShapes("many-unknown", str(list(packed_shapes))))
    start, size, end = list(shape[:before]), shape[before], list(shape[before + 1 :])
    if not dom.symbolic:
        return _unpack_ints(pattern, start, size, end, packed_shapes, lengths, n_unknown)
    outs: list[tuple[Any, ...]] = []
    if n_unknown == 0:
        total: Any = 0
        for m in lengths:
            total = total + m
        dom.check_equal(size, total, "*", D.PackedShapesTotal(tuple(tuple(p) for p in packed_shapes)))
        return [tuple(start) + tuple(p) + tuple(end) for p in packed_shapes]
    k = next(i for i, x in enumerate(lengths) if isinstance(x, int) and x == -1)
    rest: Any = 0
    for i, m in enumerate(lengths):
        if i != k:
            rest = rest + m
    remaining = as_size(size) - as_size(rest)
    p = packed_shapes[k]
    if sum(1 for x in p if isinstance(x, int) and x == -1) > 1 or any(isinstance(x, int) and x < -1 for x in p):
        raise fail("SHP111", detail=D.UnpackShapes("cannot-reshape", str(list(p))))
    chunk = product(x for x in p if not (isinstance(x, int) and x == -1))
    if greater_equal(remaining, 0) is Truth.TRUE:
        resolved = dom.divide(remaining, chunk, "*", "*", pattern)
    else:
        # einops slices with negative split positions when the other pieces do not fit; such overlapping
        # slices can even succeed, so nothing is definite here
        sym = cast(SymDomain, dom)  # dom.symbolic: the symbolic domain
        sym._assume(f"{size} >= {rest}")
        q = remaining.exact_div(chunk)
        resolved = q if q is not None else sym.fresh("*")
    for i, pp in enumerate(packed_shapes):
        if i == k:
            pp = tuple(resolved if (isinstance(x, int) and x == -1) else x for x in pp)
        outs.append(tuple(start) + tuple(pp) + tuple(end))
    return outs


def unpack_splits(size: int, lengths: Sequence[int], n_unknown: int) -> list[int]:
    split = [0] * len(lengths) + [size]
    if n_unknown == 0:
        for i, x in enumerate(lengths[:-1]):
            split[i + 1] = split[i] + x
    else:
        k = list(lengths).index(-1)
        for i in range(k):
            split[i + 1] = split[i] + lengths[i]
        for j in range(len(lengths) - 1, k, -1):
            split[j] = split[j + 1] - lengths[j]
    return split


def _unpack_ints(
    pattern: str,
    start: list[int],
    size: int,
    end: list[int],
    packed_shapes: Sequence[Sequence[int]],
    lengths: list[int],
    n_unknown: int,
) -> list[tuple[int, ...]]:
    split = unpack_splits(size, lengths, n_unknown)
    outer = 1
    for x in start + end:
        outer *= x
    outs: list[tuple[int, ...]] = []
    for i, p in enumerate(packed_shapes):
        piece = len(range(size)[split[i] : split[i + 1]])
        target = tuple(start) + tuple(p) + tuple(end)
        resolved = _reshape_ok(outer * piece, target)
        if resolved is None:
            raise fail(
                "SHP202",
                axis="*",
                actual=size,
                requirement=D.Requirement("unpack-split"),
                expected=[list(x) for x in packed_shapes],
            )
        outs.append(resolved)
    return outs


# ---------------------------------------------------------------------------------------------------------------
# einsum


def solve_einsum(pattern: str, shapes: Sequence[Sequence[Any]], dom: Domain) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Output shape of einops.einsum as numpy computes it (size-1 axes broadcast; ellipsis dimensions must
    appear in the output)."""
    r = einsum_recipe(pattern)
    if len(shapes) != len(r.operands):
        raise fail("SHP108", kind="ValueError", pattern=pattern, detail=D.OperandCount(len(r.operands), len(shapes)))
    sizes: dict[str, Any] = {}
    names = dict(r.letter_names)
    ell: list[Any] = []
    op = f'einsum "{pattern}"'
    # numpy checks every operand's rank before it compares any sizes
    for i, (letters, shape) in enumerate(zip(r.operands, shapes)):
        n = sum(1 for x in letters if x != "...")
        has_ell = "..." in letters
        if (not has_ell and len(shape) != n) or (has_ell and len(shape) < n):
            raise fail(
                "SHP201",
                what=op,
                expected=str(n) if not has_ell else f">= {n}",
                subject=f"operand #{i}",
                actual=len(shape),
            )
    for i, (letters, shape) in enumerate(zip(r.operands, shapes)):
        n = sum(1 for x in letters if x != "...")
        has_ell = "..." in letters
        if has_ell:
            pos = letters.index("...")
            n_ell = len(shape) - n
            dims = list(shape[:pos]) + list(shape[pos + n_ell :])
            e = list(shape[pos : pos + n_ell])
            # broadcast ellipsis dimensions, right-aligned
            if len(e) > len(ell):
                ell, e = e, ell
            off = len(ell) - len(e)
            for j, x in enumerate(e):
                ell[off + j] = dom.operand_dim(ell[off + j], x, f"...{off + j}", op)
            letters = tuple(x for x in letters if x != "...")
        else:
            dims = list(shape)
        local: dict[str, Any] = {}
        for letter, size in zip(letters, dims):
            if letter in local:
                dom.same(local[letter], size, names[letter], op, "repeated", i)
                continue
            local[letter] = size
            sizes[letter] = size if letter not in sizes else dom.operand_dim(sizes[letter], size, names[letter], op)
    if "..." not in r.output and ell:
        raise fail("SHP204", op=op, detail=D.SummedEllipsis(len(ell)))
    out: list[Any] = []
    for x in r.output:
        if x == "...":
            out.extend(ell)
        else:
            out.append(sizes[x])
    axes = {names[k]: v for k, v in sizes.items()}
    for j, x in enumerate(ell):
        axes[f"...{j}"] = x
    return tuple(out), axes


# ---------------------------------------------------------------------------------------------------------------
# parse_shape


def solve_parse_shape(pattern: str, shape: Sequence[Any], dom: Domain) -> dict[str, Any]:
    from .validate import parse_shape_expression

    expr = parse_shape_expression(pattern)
    comp = list(expr.composition)
    what = f'parse_shape pattern "{pattern}"'
    if expr.has_ellipsis:
        if len(shape) < len(comp) - 1:
            raise fail("SHP201", what=what, expected=f">= {len(comp) - 1}", subject="the input", actual=len(shape))
        i = comp.index("\u2026")
        n_ell = len(shape) - len(comp) + 1
        comp = comp[:i] + [("_",)] * n_ell + comp[i + 1 :]
    elif len(shape) != len(comp):
        raise fail("SHP201", what=what, expected=str(len(comp)), subject="the input", actual=len(shape))
    result: dict[str, Any] = {}
    for group, length in zip(comp, shape):
        if isinstance(group, str):
            group = (group,)
        if len(group) == 0:
            dom.check_equal(length, 1, "1", D.Requirement("unit-axis"))
            continue
        (atom,) = group
        if isinstance(atom, str):
            if atom != "_":
                result[atom] = length
        else:
            dom.check_equal(length, atom.value, str(atom.value), D.Requirement("anonymous-axis"))
    return result
