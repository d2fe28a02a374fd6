"""Match a :class:`DimSpec` against a (symbolic) shape, the way jaxtyping checks an array at runtime.

jaxtyping keeps one memo per ``@jaxtyped`` call: ``single`` (axis name -> int) and ``variadic`` (name ->
(broadcastable, shape)). Parameters are checked left to right, then the return value, all against the same
memo. Within one annotation the single dims before the variadic are checked left to right, then the ones after
it, then the variadic itself. A failing check restores the memo it started with.

Per dimension (``_check_dims``):

* ``_``/anonymous: anything;
* broadcastable (``#``) and the size is 1: accepted *without binding or evaluating anything*;
* fixed: sizes must be equal;
* symbolic: evaluated against the single-axis bindings made so far (earlier parameters, and earlier dims of
  the same annotation); an unbound name raises ``AnnotationError`` (not a type-check failure);
* named: bind on first use, equal afterwards.

Variadics (``*name``) bind a tuple; a later use must equal it, and ``#*name`` uses broadcast instead (numpy's
``broadcast_shapes`` rules, with the stored value becoming the broadcast shape).

Here sizes are :class:`~shapecheck.sizes.Size` and every decision is three-valued: ``ok`` is False only when
jaxtyping would reject for every positive assignment of the symbols.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..diagnostics import details as D
from ..sizes.algebra import Size, SizeLike, Truth, as_size, equal
from . import safe_eval
from .dims import Dim, DimSpec, expr_names

_counter = itertools.count()


def _default_fresh(name: str) -> Size:
    return Size.sym(f"{name or '_'}@jt{next(_counter)}")


@dataclass
class Memo:
    """jaxtyping's per-call memo, symbolically."""

    single: dict[str, Size] = field(default_factory=dict)
    variadic: dict[str, tuple[Size, ...]] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)  # name (or "*name") -> where it was bound, free text
    variadic_broadcast: dict[str, bool] = field(default_factory=dict)  # the stored broadcastable flag

    def copy(self) -> "Memo":
        return Memo(dict(self.single), dict(self.variadic), dict(self.origin), dict(self.variadic_broadcast))

    def restore(self, other: "Memo") -> None:
        self.single, self.variadic = dict(other.single), dict(other.variadic)
        self.origin, self.variadic_broadcast = dict(other.origin), dict(other.variadic_broadcast)


@dataclass(frozen=True)
class MatchResult:
    ok: bool | None  # True definitely matches, False definitely fails, None unknown
    problem: tuple[str, dict[str, Any]] | None  # ("SHP201"|"SHP202", template fields) when ok is False
    bindings: dict[str, Size]  # single names newly bound by this match
    variadic_bindings: dict[str, tuple[Size, ...]] = field(default_factory=dict)
    unbound: frozenset[str] = frozenset()  # expression names jaxtyping would find unbound (-> AnnotationError)


def _and(a: bool | None, b: bool | None) -> bool | None:
    if a is False or b is False:
        return False
    if a is None or b is None:
        return None
    return True


def _truth(t: Truth) -> bool | None:
    if t is Truth.TRUE:
        return True
    if t is Truth.FALSE:
        return False
    return None


def _fmt(s: SizeLike) -> str:
    return str(as_size(s))


def _fmt_shape(shape: Sequence[Size]) -> str:
    return "(" + ", ".join(_fmt(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


class _Stop(Exception):
    def __init__(
        self, ok: bool | None, problem: tuple[str, dict[str, Any]] | None = None, unbound: frozenset[str] = frozenset()
    ):
        self.ok, self.problem, self.unbound = ok, problem, unbound


def _axis_problem(
    spec: DimSpec, dim: Dim, actual: Size, requirement: D.Detail, expected: str, origin: str
) -> tuple[str, dict[str, Any]]:
    return (
        "SHP202",
        {
            "axis": dim.text,
            "actual": _fmt(actual),
            "requirement": requirement,
            "expected": expected,
            "annotation": spec.text,
            "subject": origin or "the array",
        },
    )


def _check_single(spec: DimSpec, dim: Dim, size: Size, memo: Memo, origin: str, new: dict[str, Size]) -> bool | None:
    """Check one single dim, binding into ``memo``; raises _Stop on a definite failure / AnnotationError."""
    if dim.kind == "anonymous":
        return True
    is_one: bool | None = _truth(equal(size, 1)) if dim.broadcast else False
    if is_one is True:
        return True
    bind = is_one is False  # with an undecided "is it 1?", binding could be wrong: do not bind
    if dim.kind == "fixed":
        assert dim.value is not None
        r = _truth(equal(size, dim.value))
        if r is False and is_one is False:
            raise _Stop(False, _axis_problem(spec, dim, size, D.Requirement("annotation"), str(dim.value), origin))
        return True if r is True else None
    if dim.kind == "expr":
        assert dim.name is not None
        if "{" in dim.name or "}" in dim.name:
            return None  # f-string over the function's arguments: not known statically
        missing = {n for n in expr_names(dim) if n not in memo.single}
        if missing and is_one is False:
            raise _Stop(None, None, frozenset(missing))
        if missing:
            return None
        value = safe_eval.evaluate_expr(dim.name, memo.single)
        if value is None:
            return None
        r = _truth(equal(size, value))
        if r is False and is_one is False:
            raise _Stop(False, _axis_problem(spec, dim, size, D.ExpressionValue(dim.name), _fmt(value), origin))
        return True if r is True else None
    assert dim.kind == "named" and dim.name is not None
    if dim.treepath:
        return None  # depends on the position inside a PyTree annotation
    name = dim.name
    if name in memo.single:
        bound = memo.single[name]
        r = _truth(equal(size, bound))
        if r is False and is_one is False:
            where = memo.origin.get(name)
            raise _Stop(False, _axis_problem(spec, dim, size, D.AlreadyBound(name, where or ""), _fmt(bound), origin))
        return True if r is True else None
    if bind:
        memo.single[name] = size
        memo.origin[name] = origin
        new[name] = size
    return True


def _broadcast(a: Sequence[Size], b: Sequence[Size]) -> tuple[bool | None, tuple[Size, ...] | None]:
    """numpy.broadcast_shapes, three-valued: (ok, shape or None when unknown)."""
    n = max(len(a), len(b))
    one = Size.const(1)
    pa = [one] * (n - len(a)) + list(a)
    pb = [one] * (n - len(b)) + list(b)
    ok: bool | None = True
    out: list[Size] = []
    for x, y in zip(pa, pb):
        if equal(x, y) is Truth.TRUE:
            out.append(x)
        elif equal(x, 1) is Truth.TRUE:
            out.append(y)
        elif equal(y, 1) is Truth.TRUE:
            out.append(x)
        elif all(t is Truth.FALSE for t in (equal(x, y), equal(x, 1), equal(y, 1))):
            return False, None
        else:
            ok = None
    return ok, (tuple(out) if ok else None)


def _shapes_equal(a: Sequence[Size], b: Sequence[Size]) -> bool | None:
    if len(a) != len(b):
        return False
    r: bool | None = True
    for x, y in zip(a, b):
        r = _and(r, _truth(equal(x, y)))
    return r


def _check_variadic(
    spec: DimSpec, dim: Dim, part: tuple[Size, ...], memo: Memo, origin: str, newv: dict[str, tuple[Size, ...]]
) -> bool | None:
    if dim.kind == "ellipsis":
        return True
    assert dim.name is not None
    if dim.treepath:
        return None
    name, b = dim.name, dim.broadcast
    if name not in memo.variadic:
        memo.variadic[name] = part
        memo.variadic_broadcast[name] = b
        memo.origin["*" + name] = origin
        newv[name] = part
        return True
    prev, prev_b = memo.variadic[name], memo.variadic_broadcast.get(name, False)

    def fail(rule: str) -> _Stop:
        where = memo.origin.get("*" + name)
        return _Stop(
            False,
            (
                "SHP202",
                {
                    "axis": dim.text,
                    "actual": _fmt_shape(part),
                    "requirement": D.VariadicBound(rule, name, where or ""),
                    "expected": _fmt_shape(prev),
                    "annotation": spec.text,
                    "subject": origin or "the array",
                },
            ),
        )

    if prev_b or b:
        ok, shape = _broadcast(part, prev)
        if ok is False:
            raise fail("no-broadcast")
        target = part if prev_b else prev  # prev_b: result must equal new unless new is broadcastable
        must_equal = (prev_b and not b) or (not prev_b)
        r: bool | None = ok
        if must_equal:
            if shape is None:
                r = None
            else:
                eq = _shapes_equal(shape, target)
                if eq is False:
                    raise fail("not-broadcast-to" if not prev_b else "smaller")
                r = _and(r, eq)
        if prev_b:
            if shape is not None:
                memo.variadic[name] = shape
                memo.variadic_broadcast[name] = b
            else:
                # the broadcast is not known: neither shape stands for it (a later ``*name`` is bound afresh)
                del memo.variadic[name]
                memo.variadic_broadcast.pop(name, None)
        return r
    eq = _shapes_equal(part, prev)
    if eq is False:
        raise fail("bound")
    return eq


def _as_shape(shape: Sequence[SizeLike | None], fresh: Callable[[str], Size], origin: str) -> tuple[Size, ...]:
    return tuple(fresh(f"{origin or 'dim'}[{i}]") if s is None else as_size(s) for i, s in enumerate(shape))


def match_shape(
    spec: DimSpec,
    shape: Sequence[SizeLike] | None,
    memo: Memo,
    *,
    origin: str = "",
    fresh: Callable[[str], Size] | None = None,
) -> MatchResult:
    """Check ``shape`` against ``spec`` under ``memo``, updating ``memo`` like jaxtyping does.

    On ``ok`` True or None the new bindings stay in ``memo`` (code after a runtime check only runs when it
    passed); on False the memo is restored. ``shape=None`` (unknown) gives ``ok`` None; with ``fresh`` the single
    names the spec binds are then bound to fresh symbols so that later annotations stay consistent. Elements of
    ``shape`` may be None (unknown axis) and become fresh symbols.
    """
    fr = fresh or _default_fresh
    if shape is None:
        new: dict[str, Size] = {}
        if fresh is not None:
            for d in spec.check_order():
                if (
                    d.kind == "named"
                    and d.name is not None
                    and not d.broadcast
                    and not d.treepath
                    and d.name not in memo.single
                ):
                    memo.single[d.name] = new[d.name] = fresh(d.name)
                    memo.origin[d.name] = origin
        return MatchResult(None, None, new)
    sizes = _as_shape(shape, fr, origin)
    backup = memo.copy()
    new = {}
    newv: dict[str, tuple[Size, ...]] = {}
    i = spec.variadic_index
    n = len(spec.dims)
    try:
        if i is None:
            if len(sizes) != n:
                raise _Stop(False, ("SHP201", _rank_fields(spec, str(n), len(sizes), origin)))
            pairs = list(zip(spec.dims, sizes))
        else:
            if len(sizes) < n - 1:
                raise _Stop(False, ("SHP201", _rank_fields(spec, f"at least {n - 1}", len(sizes), origin)))
            after = n - i - 1
            pairs = list(zip(spec.dims[:i], sizes[:i])) + list(zip(spec.dims[i + 1 :], sizes[len(sizes) - after :]))
        ok: bool | None = True
        for dim, size in pairs:
            ok = _and(ok, _check_single(spec, dim, size, memo, origin, new))
        if i is not None:
            part = tuple(sizes[i : len(sizes) - (n - i - 1)])
            ok = _and(ok, _check_variadic(spec, spec.dims[i], part, memo, origin, newv))
    except _Stop as stop:
        if stop.ok is False:
            memo.restore(backup)
            return MatchResult(False, stop.problem, {}, {}, stop.unbound)
        return MatchResult(None, None, new, newv, stop.unbound)
    return MatchResult(ok, None, new, newv)


def _rank_fields(spec: DimSpec, expected: str, actual: int, origin: str) -> dict[str, Any]:
    return {
        "what": f"annotation {spec.text!r}",
        "expected": expected,
        "subject": origin or "the array",
        "actual": actual,
        "annotation": spec.text,
    }


def unbound_expr_names(spec: DimSpec, memo: Memo | Mapping[str, object]) -> set[str]:
    """Names read by symbolic dims that are bound neither in ``memo`` nor by an earlier single dim of ``spec``
    (in jaxtyping's check order). jaxtyping raises AnnotationError for these (-> SHP110). Variadic names do not
    count: expressions only see single-axis bindings."""
    bound = set(memo.single if isinstance(memo, Memo) else memo)
    out: set[str] = set()
    for d in spec.check_order():
        if d.kind == "expr":
            out |= {n for n in expr_names(d) if n not in bound}
        elif d.kind == "named" and d.name is not None and not d.treepath:
            bound.add(d.name)
    return out


def instantiate(spec: DimSpec, memo: Memo, fresh: Callable[[str], Size] | None = None) -> tuple[Size, ...] | None:
    """The shape ``spec`` denotes under ``memo``: bound names take their value, unbound single names get a fresh
    symbol (recorded in ``memo``, so ``"n n"`` repeats it), anonymous and broadcastable axes get fresh symbols,
    symbolic axes are evaluated (fresh when unknown). None when it contains ``...`` or an unbound ``*name``."""
    fr = fresh or _default_fresh
    out: list[Size] = []
    for d in spec.dims:
        if d.kind == "ellipsis":
            return None
        if d.kind == "variadic":
            if d.name in memo.variadic and not d.broadcast and not d.treepath:
                out.extend(memo.variadic[d.name])
                continue
            return None
        if d.kind == "fixed":
            assert d.value is not None
            out.append(fr(d.text) if d.broadcast else Size.const(d.value))
        elif d.kind == "anonymous" or d.broadcast or d.treepath:
            out.append(fr(d.name or "_"))
        elif d.kind == "named":
            assert d.name is not None
            if d.name not in memo.single:
                memo.single[d.name] = fr(d.name)
                memo.origin.setdefault(d.name, "instantiate")
            out.append(memo.single[d.name])
        else:
            assert d.name is not None
            v = None if ("{" in d.name or "}" in d.name) else safe_eval.evaluate_expr(d.name, memo.single)
            out.append(fr(d.name) if v is None else as_size(v))
    return tuple(out)


def evaluate_expr(text: str, env: Mapping[str, SizeLike]) -> Size | int | None:
    return safe_eval.evaluate_expr(text, env)
