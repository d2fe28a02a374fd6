"""The symbolic size algebra: canonical forms and sound three-valued decisions."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck.sizes import Size, Truth, divisible, equal, greater_equal, product, solve_for

h, w, t, c, n = (Size.sym(x) for x in "hwtcn")
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)


def test_commutative_product_is_equal() -> None:
    assert equal(h * w, w * h) is Truth.TRUE
    assert h * w == w * h


def test_half_vs_double_is_false() -> None:
    assert equal(h.exact_div(2), 2 * h) is Truth.FALSE


def test_225_not_divisible_by_16() -> None:
    assert divisible(225, 16) is Truth.FALSE
    assert divisible(224, 16) is Truth.TRUE
    assert divisible(16 * h, 16) is Truth.TRUE
    assert divisible(16 * h + 1, 16) is Truth.FALSE


def test_solve() -> None:
    assert solve_for(c * 16 * 16, 768, "c") == Size.const(3)
    assert solve_for(c * h, 768, "c") == Size.const(768).exact_div(h)


def test_unknown() -> None:
    assert equal(h, t) is Truth.UNKNOWN
    assert divisible(n, 16) is Truth.UNKNOWN
    assert greater_equal(h, t) is Truth.UNKNOWN
    assert greater_equal(h * w, h) is Truth.UNKNOWN  # w >= 1, but the algebra does not claim it
    assert greater_equal(h + 1, h) is Truth.TRUE


def test_cancel_and_print() -> None:
    assert (h * 16).exact_div(16) == h
    assert str(product([h, w, 2])) in ("2*h*w", "2*w*h")


# ---- properties: a definite answer holds at every positive assignment -------------------------------------

SYMS = ["x", "y", "z"]


@st.composite
def polys(draw) -> Size:
    """Products/quotients/sums over a few symbols, positive coefficients mostly."""
    total = Size.const(0)
    for _ in range(draw(st.integers(1, 3))):
        term = Size.const(draw(st.sampled_from([1, 1, 2, 3, 4, 6, 16, -1, Fraction(1, 2)])))
        for s in SYMS:
            e = draw(st.sampled_from([0, 0, 0, 1, 1, 2, -1]))
            for _ in range(abs(e)):
                term = term * Size.sym(s) if e > 0 else term.exact_div(Size.sym(s))
        total = total + term
    return total


ASSIGNMENTS = [dict(zip(SYMS, v)) for v in itertools.product([1, 2, 3, 16], repeat=3)]


def _values(a: Size, b: Size):
    for env in ASSIGNMENTS:
        yield a.evaluate(env), b.evaluate(env)


@settings(max_examples=300, **SETTINGS)
@given(polys(), polys())
def test_equal_is_sound(a: Size, b: Size) -> None:
    t = equal(a, b)
    vals = list(_values(a, b))
    if t is Truth.FALSE:
        assert all(x != y for x, y in vals), (a, b)
    if t is Truth.TRUE:
        assert all(x == y for x, y in vals), (a, b)


@settings(max_examples=300, **SETTINGS)
@given(polys(), st.sampled_from([Size.const(2), Size.const(3), Size.const(16), Size.sym("x"), Size.sym("x") * 2]))
def test_divisible_is_sound(a: Size, d: Size) -> None:
    t = divisible(a, d)
    for env in ASSIGNMENTS:
        av, dv = a.evaluate(env), d.evaluate(env)
        ok = av.denominator == 1 and dv.denominator == 1 and dv != 0 and av.numerator % dv.numerator == 0
        if t is Truth.FALSE:
            assert not ok, (a, d, env)
        if t is Truth.TRUE:
            assert ok, (a, d, env)


@settings(max_examples=200, **SETTINGS)
@given(polys(), polys())
def test_greater_equal_is_sound(a: Size, b: Size) -> None:
    t = greater_equal(a, b)
    for x, y in _values(a, b):
        if t is Truth.TRUE:
            assert x >= y
        if t is Truth.FALSE:
            assert x < y


@settings(max_examples=300, **SETTINGS)
@given(st.integers(0, 400), st.integers(1, 40), st.integers(0, 5))
def test_divisible_agrees_with_integer_remainder(a: int, d: int, k: int) -> None:
    """Constants, and k*d*h + a (a multiple of d plus a constant), are divisible exactly when a % d == 0."""
    assert divisible(a, d) is Truth.of(a % d == 0)
    if k:
        assert divisible(k * d * h + a, d) is (Truth.of(a % d == 0) if d > 1 or a % d == 0 else Truth.TRUE)
