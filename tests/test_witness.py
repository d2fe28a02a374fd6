"""Witnesses satisfy every constraint the checker recorded, are small and distinct where free, and fail."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck import pattern as P
from shapecheck.analysis.interpret.context import OpSpec
from shapecheck.sizes import Size
from shapecheck.sizes.algebra import product
from shapecheck.witness import _constraints, build_witness, concrete_failure, solve_assignment

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["b", "n", "h", "w", "c", "m"]


def sym(name: str, scope: str = "t") -> Size:
    return Size.sym(f"{name}@{scope}")


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % p for p in range(2, int(n**0.5) + 1))


def _values(w, spec: OpSpec) -> dict[str, int]:
    """symbol -> value, from the witness' shown names (the tests use distinct display names)."""
    shown = dict(w.sizes)
    out = {}
    for s in {x for shape in spec.inputs for size in shape for x in size.free_symbols()} | {
        x for _, v in spec.axes_lengths for x in v.free_symbols()
    }:
        out[s] = shown[s.split("@")[0]]
    return out


def _check_common(spec: OpSpec, w) -> dict[str, int]:
    assert w is not None
    env = _values(w, spec)
    # every input size is the concrete evaluation of its symbolic size, a positive integer
    for shape, concrete in zip(spec.inputs, w.input_shapes):
        assert len(shape) == len(concrete)
        for s, c in zip(shape, concrete):
            v = s.evaluate(env)
            assert v.denominator == 1 and v >= 1 and int(v) == c
    for (k, s), (k2, c) in zip(spec.axes_lengths, w.axes_lengths):
        assert k == k2 and s.evaluate(env) == c >= 1
    # every assumption the engine made on the way to the failure holds
    cons = _constraints(spec)
    for a, b in cons.equal:
        assert a.evaluate(env) == b.evaluate(env), (a, b, env)
    for length, chunk in cons.divides:
        assert (length.evaluate(env) / chunk.evaluate(env)).denominator == 1, (length, chunk, env)
    return env


# ------------------------------------------------------------------------------------------------ einops


@st.composite
def split_not_divisible(draw):
    """'... (h p) ...' with p = k and an axis k*X + r (0 < r < k): definitely not divisible (SHP203)."""
    k = draw(st.integers(2, 9))
    r = draw(st.integers(1, k - 1))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True))
    den = draw(st.sampled_from([1, 1, 2, 4, 16]))
    axis = sum((sym(n) * k for n in names), Size.const(r))
    lead = sym("b") if "b" not in names else Size.const(draw(st.integers(2, 40)))
    if den > 1:  # an input size that is a quotient of an earlier split: (q / den)
        lead = sym("q") * Fraction(1, den)
    return OpSpec(
        "rearrange",
        "b (h p) -> b h p",
        ((lead, axis),),
        (("p", Size.const(k)),),
        (("reduction", None), ("stacked", False)),
    ), "SHP203"


@st.composite
def assumed_equal_then_fail(draw):
    """'b c (h t) -> b c h t' with t=2, c=k (symbolic keyword, unknown against the input's c) and an odd axis: the
    engine assumes c == k, then fails on the odd axis. The witness must keep c == k."""
    odd = sym("h") * 2 + 1
    c_in = draw(st.sampled_from([sym("c"), sym("c") * sym("m"), sym("w") * 3]))
    return OpSpec(
        "rearrange",
        "b c (h t) -> b c h t",
        ((sym("b"), c_in, odd),),
        (("c", sym("n")), ("t", Size.const(2))),
        (("reduction", None), ("stacked", False)),
    ), "SHP203"


@st.composite
def assumed_divisible_then_fail(draw):
    """'b (h t) (w s) -> b h w' (t=s=2) with the first axis h*w (unknown parity: assumed even) and the second 2*m+1."""
    first = draw(st.sampled_from([sym("h") * sym("w"), sym("n"), sym("n") * Fraction(1, 4) * sym("c")]))
    return OpSpec(
        "reduce",
        "b (h t) (w s) -> b h w",
        ((sym("b"), first, sym("m") * 2 + 1),),
        (("t", Size.const(2)), ("s", Size.const(2))),
        (("reduction", "max"), ("stacked", False)),
    ), "SHP203"


@st.composite
def rank_mismatch(draw):
    rank = draw(st.integers(1, 5))
    shape = tuple(
        draw(st.sampled_from([sym(n) for n in NAMES] + [Size.const(3), sym("n") * sym("m")])) for _ in range(rank)
    )
    want = draw(st.integers(1, 5).filter(lambda r: r != rank))
    left = " ".join(f"a{i}" for i in range(want))
    return OpSpec("rearrange", f"{left} -> {left}", (shape,), (), (("reduction", None), ("stacked", False))), "SHP201"


@st.composite
def einsum_mismatch(draw):
    d1 = draw(st.integers(2, 64))
    d2 = draw(st.integers(2, 64).filter(lambda d: d != d1))
    return OpSpec(
        "einsum", "b n d, b m d -> b n m", ((sym("b"), sym("n"), Size.const(d1)), (sym("b"), sym("m"), Size.const(d2)))
    ), "SHP204"


@pytest.mark.parametrize(
    "strategy",
    [split_not_divisible, assumed_equal_then_fail, assumed_divisible_then_fail, rank_mismatch, einsum_mismatch],
)
@SETTINGS
@given(data=st.data())
def test_einops_witness_satisfies_constraints_and_fails(strategy, data) -> None:
    spec, code = data.draw(strategy())
    # the claim is definite symbolically ...
    res = P.infer(
        spec.op, spec.pattern, spec.inputs, axes_lengths=dict(spec.axes_lengths), reduction=spec.get("reduction")
    )
    assert isinstance(res, P.Problem) and res.code == code
    w = build_witness(spec)
    env = _check_common(spec, w)
    # ... and the witness fails the same way with concrete ints
    concrete = P.infer(
        spec.op,
        spec.pattern,
        [list(s) for s in w.input_shapes],
        axes_lengths=dict(w.axes_lengths),
        reduction=spec.get("reduction"),
    )
    assert isinstance(concrete, P.Problem) and concrete.code == code, (w, concrete)
    assert concrete_failure(w) is not None
    # free symbols (not tied by an assumption) get distinct values
    cons = _constraints(spec)
    tied = {s for a, b in cons.equal for s in (a - b).free_symbols()}
    free = [s for s in env if s not in tied]
    assert len({env[s] for s in free}) == len(free)


def test_free_symbols_get_distinct_small_primes_skipping_constants() -> None:
    spec = OpSpec("matmul", None, ((sym("b"), sym("n"), Size.const(2)), (sym("b"), Size.const(3), sym("m"))))
    w = build_witness(spec)
    values = dict(w.sizes)
    assert set(values) == {"b", "n", "m"}
    assert all(_is_prime(v) for v in values.values())
    assert len(set(values.values())) == 3
    assert not {2, 3} & set(values.values())  # constants of the operation are skipped
    assert max(values.values()) <= 11
    assert w.input_shapes == ((values["b"], values["n"], 2), (values["b"], 3, values["m"]))


def test_quotients_become_integers_and_keep_the_divided_symbol_divisible() -> None:
    n, b = sym("n"), sym("b")
    spec = OpSpec(
        "rearrange",
        "m (k q) -> m k q",
        ((b * n * Fraction(1, 4), Size.const(4)),),
        (("q", Size.const(3)),),
        (("reduction", None), ("stacked", False)),
    )
    w = build_witness(spec)
    v = dict(w.sizes)
    assert v["n"] % 4 == 0 and v["b"] % 4 == 0  # which one was split is not recorded: both stay divisible
    assert w.input_shapes[0][0] == v["b"] * v["n"] // 4


def test_symbolic_denominator_and_differences() -> None:
    n, h, k = sym("n"), sym("h"), sym("k")
    q = n.exact_div(h)
    assert q is not None
    spec = OpSpec("elementwise", None, ((q, k - 6), (Size.const(1), Size.const(7))), (), (("name", "+"),))
    values, ok = solve_assignment([q, k - 6, Size.const(7)])
    assert ok and values["n@t"] % values["h@t"] == 0 and values["k@t"] > 6
    w = build_witness(spec)
    a, c = w.input_shapes[0]
    assert a >= 1 and c >= 1


@SETTINGS
@given(k1=st.integers(1, 100), k2=st.integers(1, 100), extra=st.sampled_from(NAMES))
def test_matmul_witness_fails(k1: int, k2: int, extra: str) -> None:
    if k1 == k2:
        return
    spec = OpSpec("matmul", None, ((sym("b"), sym(extra), Size.const(k1)), (sym("b"), Size.const(k2), sym("z"))))
    w = build_witness(spec)
    _check_common(spec, w)
    assert concrete_failure(w) is not None


@SETTINGS
@given(total=st.lists(st.sampled_from([2, 3, 5, 7]), min_size=1, max_size=3), div=st.sampled_from([4, 9, 11, 25]))
def test_reshape_witness(total: list[int], div: int) -> None:
    shape = tuple(Size.const(t) for t in total) + (sym("n") * div + 1,)
    spec = OpSpec("reshape", None, (shape,), (), (("target", (Size.const(-1), Size.const(div))),))
    if div and product(shape).evaluate({"n@t": 1}) % div == 0:
        return
    w = build_witness(spec)
    _check_common(spec, w)
    assert dict(w.extra)["target"] == (-1, div)


# ------------------------------------------------------------------------------------------------ annotations


def test_annotation_witness_keeps_memo_and_earlier_parameters() -> None:
    p, q, r = sym("p"), sym("q"), sym("r")
    # x: "n n" gets (p, q): jaxtyping accepts it only when p == q; y: "n 3" gets (r, 4) and fails
    spec = OpSpec(
        "annotation",
        None,
        ((p, q), (r, Size.const(4))),
        (),
        (("dims", "n 3"), ("params", (("x", "n n"), ("y", "n 3")))),
    )
    w = build_witness(spec)
    v = dict(w.sizes)
    assert v["p"] == v["q"]
    assert "does not match 'n 3'" in (concrete_failure(w) or "")
    n = sym("n")
    spec = OpSpec("annotation", None, ((n * 2,),), (), (("dims", "n"), ("memo", (("n", n),))))
    w = build_witness(spec)
    assert dict(w.extra)["memo"] == (("n", dict(w.sizes)["n"]),)
    assert w.input_shapes == ((2 * dict(w.sizes)["n"],),)
    assert concrete_failure(w) is not None


def test_witness_is_json_serialisable() -> None:
    import json

    spec = OpSpec(
        "unpack", "b *", ((sym("b"), Size.const(10)),), (), (("packed_shapes", ((Size.const(3),), (Size.const(4),))),)
    )
    w = build_witness(spec)
    data = json.loads(json.dumps(w.to_json()))
    assert data["packed_shapes"] == [[3], [4]] and data["input_shapes"] == [[dict(w.sizes)["b"], 10]]
