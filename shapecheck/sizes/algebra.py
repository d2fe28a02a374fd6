"""Symbolic axis sizes.

A size is a positive integer, a named symbol, or an expression over them: products, exact quotients and sums.
Every size is kept in one canonical form, a Laurent polynomial with rational coefficients over symbols that
stand for positive integers, so ``h*w`` and ``w*h`` are the same object and ``(h*16)/16`` is ``h``.

Decisions are three-valued (:class:`Truth`): *definitely* true, *definitely* false or unknown. A definite
answer holds for every assignment of positive integers to the symbols; anything the algebra cannot prove is
UNKNOWN, and callers must stay silent on UNKNOWN.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Iterable, Mapping, Union

Mono = tuple[tuple[str, int], ...]  # sorted (symbol, non-zero exponent) pairs; () is the constant monomial
_ONE: Mono = ()


class Truth(Enum):
    TRUE = "true"
    FALSE = "false"
    UNKNOWN = "unknown"

    def __bool__(self) -> bool:  # pragma: no cover - guard against `if truth:` misuse
        raise TypeError("use `is Truth.TRUE` / `is Truth.FALSE`; UNKNOWN must not be read as a boolean")

    @staticmethod
    def of(value: bool) -> "Truth":
        return Truth.TRUE if value else Truth.FALSE

    def negate(self) -> "Truth":
        if self is Truth.TRUE:
            return Truth.FALSE
        if self is Truth.FALSE:
            return Truth.TRUE
        return Truth.UNKNOWN


def _mono_mul(a: Mono, b: Mono) -> Mono:
    if not a:
        return b
    if not b:
        return a
    exps: dict[str, int] = dict(a)
    for s, e in b:
        exps[s] = exps.get(s, 0) + e
    return tuple(sorted((s, e) for s, e in exps.items() if e != 0))


def _mono_inv(a: Mono) -> Mono:
    return tuple((s, -e) for s, e in a)


def display_name(symbol: str) -> str:
    """Symbols may carry a scope suffix after '@' to keep same-named axes of different scopes apart."""
    return symbol.split("@", 1)[0]


_CONSTS: dict[int | Fraction, "Size"] = {}  # Size.const of the numbers met so far


@dataclass(frozen=True)
class Size:
    terms: tuple[tuple[Mono, Fraction], ...]  # sorted by monomial, no zero coefficients

    # ---- construction ----
    @staticmethod
    def _from(d: Mapping[Mono, Fraction]) -> "Size":
        return Size(tuple(sorted(((m, c) for m, c in d.items() if c != 0), key=lambda t: t[0])))

    @staticmethod
    def const(n: int | Fraction) -> "Size":
        out = _CONSTS.get(n)
        if out is None:
            out = Size._from({_ONE: Fraction(n)})
            if len(_CONSTS) < 4096:
                _CONSTS[n] = out
        return out

    def __hash__(self) -> int:
        # sizes are dictionary keys and parts of cache keys all through the analysis: their coefficients are
        # Fractions, whose hash is computed in Python, so a size keeps its hash once computed (not pickled: a
        # string's hash differs between processes that are not forked from each other)
        h: int | None = self.__dict__.get("_hash")
        if h is None:
            h = hash(self.terms)
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> dict[str, object]:
        return {"terms": self.terms}

    @staticmethod
    def sym(name: str) -> "Size":
        return Size(((((name, 1),), Fraction(1)),))

    # ---- inspection ----
    @property
    def is_const(self) -> bool:
        return all(m == _ONE for m, _ in self.terms)

    @property
    def value(self) -> Fraction:
        """The constant value (only meaningful when ``is_const``)."""
        return self.terms[0][1] if self.terms else Fraction(0)

    def as_int(self) -> int | None:
        cached = self.__dict__  # the integer is kept once computed, as the hash is (read all through the analysis)
        if "_int" in cached:
            got: int | None = cached["_int"]
            return got
        got = int(self.value) if self.is_const and self.value.denominator == 1 else None
        object.__setattr__(self, "_int", got)
        return got

    @property
    def is_symbol(self) -> bool:
        return (
            len(self.terms) == 1
            and self.terms[0][1] == 1
            and len(self.terms[0][0]) == 1
            and self.terms[0][0][0][1] == 1
        )

    @property
    def symbol(self) -> str | None:
        return self.terms[0][0][0][0] if self.is_symbol else None

    @property
    def is_monomial(self) -> bool:
        return len(self.terms) == 1

    def free_symbols(self) -> frozenset[str]:
        return frozenset(s for m, _ in self.terms for s, _ in m)

    # ---- arithmetic ----
    def __add__(self, other: "SizeLike") -> "Size":
        o = other if type(other) is Size else as_size(other)
        a, b = self.terms, o.terms
        if len(a) == 1 and len(b) == 1 and not a[0][0] and not b[0][0]:
            return Size.const(a[0][1] + b[0][1])  # two numbers: most sums the analysis makes
        d: dict[Mono, Fraction] = dict(self.terms)
        for m, c in o.terms:
            d[m] = d.get(m, Fraction(0)) + c
        return Size._from(d)

    __radd__ = __add__

    def __neg__(self) -> "Size":
        return Size(tuple((m, -c) for m, c in self.terms))

    def __sub__(self, other: "SizeLike") -> "Size":
        return self + (-as_size(other))

    def __rsub__(self, other: "SizeLike") -> "Size":
        return as_size(other) - self

    def __mul__(self, other: "SizeLike") -> "Size":
        o = other if type(other) is Size else as_size(other)
        a, b = self.terms, o.terms
        if len(a) == 1 and len(b) == 1:  # monomials (numbers, symbols and their products): one term, no sorting
            (m1, c1), (m2, c2) = a[0], b[0]
            if not m1 and not m2:
                return Size.const(c1 * c2)
            return Size(((_mono_mul(m1, m2), c1 * c2),))
        d: dict[Mono, Fraction] = {}
        for m1, c1 in self.terms:
            for m2, c2 in o.terms:
                m = _mono_mul(m1, m2)
                d[m] = d.get(m, Fraction(0)) + c1 * c2
        return Size._from(d)

    __rmul__ = __mul__

    def exact_div(self, other: "SizeLike") -> "Size | None":
        """``self / other`` as a canonical size, or None when the quotient is not a Laurent polynomial."""
        o = as_size(other)
        if not o.terms:
            return None
        if o.is_monomial:
            ((m, c),) = o.terms
            return self * Size(((_mono_inv(m), 1 / c),))
        # a multi-term divisor: only when self is a constant multiple of it
        if not self.terms:
            return Size(())
        ratio = self.terms[0][1] / o.terms[0][1] if len(self.terms) == len(o.terms) else None
        if ratio is not None and self.terms[0][0] == o.terms[0][0] and self == o * ratio:
            return Size.const(ratio)
        return None

    def substitute(self, env: Mapping[str, "Size"]) -> "Size":
        if not env or not (self.free_symbols() & env.keys()):
            return self
        total = Size(())
        for m, c in self.terms:
            term = Size.const(c)
            for s, e in m:
                base = env.get(s, Size.sym(s))
                if e > 0:
                    for _ in range(e):
                        term = term * base
                else:
                    for _ in range(-e):
                        q = term.exact_div(base)
                        if q is None:
                            return self  # not representable: keep the unsubstituted form
                        term = q
            total = total + term
        return total

    def evaluate(self, env: Mapping[str, int]) -> Fraction:
        total = Fraction(0)
        for m, c in self.terms:
            v = Fraction(c)
            for s, e in m:
                v *= Fraction(env[s]) ** e
            total += v
        return total

    # ---- printing ----
    def __str__(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for m, c in self.terms[::-1]:
            sign = "-" if c < 0 else "+"
            c = abs(c)
            num = [display_name(s) if e == 1 else f"{display_name(s)}^{e}" for s, e in m if e > 0]
            den = [display_name(s) if e == -1 else f"{display_name(s)}^{-e}" for s, e in m if e < 0]
            if c.numerator != 1 or not num:
                num.insert(0, str(c.numerator))
            if c.denominator != 1:
                den.insert(0, str(c.denominator))
            text = "*".join(num)
            if den:
                text += "/" + ("*".join(den) if len(den) == 1 else "(" + "*".join(den) + ")")
            parts.append((sign, text))
        out = ("-" if parts[0][0] == "-" else "") + parts[0][1]
        for sign, text in parts[1:]:
            out += f" {sign} {text}"
        return out

    def __repr__(self) -> str:
        return f"Size({self})"


SizeLike = Union[Size, int, Fraction]


def as_size(x: SizeLike) -> Size:
    if isinstance(x, Size):
        return x
    return Size.const(x)


def product(items: Iterable[SizeLike]) -> Size:
    out = Size.const(1)
    for it in items:
        out = out * as_size(it)
    return out


# ---------------------------------------------------------------------------------------------------------------
# decisions


def _sign(s: Size) -> int:
    """+1 if every coefficient is positive, -1 if every one is negative, 0 otherwise (or empty)."""
    if not s.terms:
        return 0
    if all(c > 0 for _, c in s.terms):
        return 1
    if all(c < 0 for _, c in s.terms):
        return -1
    return 0


def equal(a: SizeLike, b: SizeLike) -> Truth:
    """Definitely equal, definitely different (for every positive assignment), or unknown."""
    a, b = as_size(a), as_size(b)
    if a is b or a.terms == b.terms:  # the same size (sizes are canonical): no subtraction
        return Truth.TRUE
    diff = a - b
    if not diff.terms:
        return Truth.TRUE
    if _sign(diff) != 0:  # all monomials are positive for positive symbols
        return Truth.FALSE
    return Truth.UNKNOWN


def greater_equal(a: SizeLike, b: SizeLike) -> Truth:
    diff = as_size(a) - as_size(b)
    if not diff.terms or _sign(diff) > 0:
        return Truth.TRUE
    if _sign(diff) < 0:
        return Truth.FALSE
    return Truth.UNKNOWN


def at_least(a: SizeLike, b: SizeLike) -> Truth:
    """``a >= b`` for every assignment of positive integers (each symbol at least 1: an axis's length), where
    greater_equal decides it for positive reals: ``t - 1 >= 0``. Each symbol is written 1 + s with s >= 0; a
    polynomial whose coefficients are then all non-negative is. TRUE or UNKNOWN."""
    if greater_equal(a, b) is Truth.TRUE:
        return Truth.TRUE
    diff = as_size(a) - as_size(b)
    if any(e <= 0 for m, _ in diff.terms for _, e in m) or len(diff.free_symbols()) > 4:
        return Truth.UNKNOWN
    shifted = diff.substitute({x: Size.sym(x) + 1 for x in diff.free_symbols()})
    return Truth.TRUE if all(c >= 0 for _, c in shifted.terms) else Truth.UNKNOWN


def _is_integer_polynomial(s: Size) -> bool:
    return all(c.denominator == 1 and all(e > 0 for _, e in m) for m, c in s.terms)


def divisible(a: SizeLike, d: SizeLike) -> Truth:
    """Is ``a`` an integer multiple of ``d`` for every positive assignment (TRUE), for none (FALSE)?"""
    a, d = as_size(a), as_size(d)
    if a.is_const and d.is_const:
        av, dv = a.value, d.value
        if dv == 0 or av.denominator != 1 or dv.denominator != 1:
            return Truth.UNKNOWN
        return Truth.of(av.numerator % dv.numerator == 0)
    q = a.exact_div(d)
    if q is not None and _is_integer_polynomial(q):
        return Truth.TRUE
    if d.is_monomial and d.terms[0][1].denominator == 1 and _is_integer_polynomial(d):
        k = abs(d.terms[0][1].numerator)
        if k > 1 and _is_integer_polynomial(a):
            # a ≡ const (mod k) whenever every non-constant coefficient is a multiple of k
            if all(c.numerator % k == 0 for m, c in a.terms if m != _ONE):
                const = next((c.numerator for m, c in a.terms if m == _ONE), 0)
                if const % k != 0:
                    return Truth.FALSE
    return Truth.UNKNOWN


def solve_for(expr: Size, target: SizeLike, symbol: str) -> Size | None:
    """Solve ``expr == target`` for ``symbol`` when ``expr`` is linear in it; None otherwise."""
    target = as_size(target)
    with_sym = [(m, c) for m, c in expr.terms if any(s == symbol for s, _ in m)]
    if len(with_sym) != 1:
        return None
    ((m, c),) = with_sym
    exps = dict(m)
    if exps[symbol] != 1:
        return None
    rest = Size(tuple((mm, cc) for mm, cc in expr.terms if (mm, cc) != (m, c)))
    del exps[symbol]
    coeff = Size(((tuple(sorted(exps.items())), c),))
    return (target - rest).exact_div(coeff)
