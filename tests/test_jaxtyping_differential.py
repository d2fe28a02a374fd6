"""Differential tests: shapecheck.annotations against the real jaxtyping (+ beartype) as the oracle.

1. Parsing: for generated shape strings (valid and invalid tokens, fuzz), ``parse_dims(s, strict=False)`` rejects
   exactly when ``jaxtyping.Float[np.ndarray, s]`` raises, and the parsed dims equal jaxtyping's own ``dims``.
   Strings that only ``strict=True`` rejects never pass a runtime check.
2. Matching: for valid specs, a ``@jaxtyped(typechecker=beartype)`` function with 1-3 annotated parameters (and
   sometimes an annotated return) is called with concrete arrays; the verdict (pass / TypeCheckError /
   AnnotationError) must equal the one obtained by running ``match_shape`` over the parameters with one memo.
"""

from __future__ import annotations

import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

jaxtyping = pytest.importorskip("jaxtyping")
beartype = pytest.importorskip("beartype").beartype
from jaxtyping import AnnotationError, Float, TypeCheckError, jaxtyped  # noqa: E402
from jaxtyping._array_types import (  # noqa: E402  (oracle internals, read only)
    _anonymous_dim,
    _anonymous_variadic_dim,
    _FixedDim,
    _NamedDim,
    _NamedVariadicDim,
    _SymbolicDim,
)

from shapecheck.annotations import Memo, evaluate_expr, match_shape, parse_dims  # noqa: E402


VALID_TOKENS = [
    "a",
    "b",
    "n",
    "a",
    "b",
    "n",
    "_",
    "_a",
    "1",
    "2",
    "3",
    "#a",
    "#n",
    "#2",
    "#1",
    "*r",
    "*s",
    "#*r",
    "*r",
    "...",
    "*_",
    "a=2",
    "x=b",
    "rows=a",
    "=3",
    "a=_",
    "a-1",
    "n+1",
    "a*b",
    "2*a",
    "a//2",
    "a/2",
    "a%2",
    "min(a,b)",
    "max(a,2)",
    "abs(1-a)",
    "a**2",
    "(n)",
    "b-a",
    "#a+1",
    "x=n-1",
    "a+b",
    "n*n",
    "-2",
    "+2",
    "0",
    "1_0",
]
INVALID_TOKENS = [
    "(a",
    "b)",
    "(a*b)",
    "a,b",
    "a#",
    "##a",
    "**r",
    "__a",
    "#_",
    "_3",
    "*3",
    "?3",
    "a...",
    ".....",
    "*a+1",
    "_a+1",
    "?a+1",
    "a=b=c",
    "n'",
    "{}",
    "*#_",
    "#*_",
    "_#a",
    "a==b",
    "3.0",
    "a.b",
    "a[0]",
    "f(a)",
    "(a w)",
    "?a",
    "?",
    "*",
    "a=",
    "_*",
    "*_x",
    "_?a",
    "#*a=2",
]
FUZZ_ALPHABET = "ab_*#?=.,()+-12"


def _token(draw_valid: bool) -> st.SearchStrategy[str]:
    return (
        st.sampled_from(VALID_TOKENS)
        if draw_valid
        else st.one_of(
            st.sampled_from(INVALID_TOKENS),
            st.sampled_from(VALID_TOKENS),
            st.text(FUZZ_ALPHABET, min_size=1, max_size=4),
        )
    )


shape_strings = st.lists(st.one_of(_token(True), _token(False)), max_size=5).map(" ".join)
valid_strings = st.lists(_token(True), max_size=4).map(" ".join).filter(lambda s: not isinstance(parse_dims(s), str))


def _oracle_dims(s: str):
    try:
        t = Float[np.ndarray, s]
    except Exception as e:  # noqa: BLE001 - jaxtyping raises ValueError; anything counts as rejection
        return str(e)
    return t


def _same_dim(ours, theirs) -> bool:
    if theirs is _anonymous_dim:
        return ours.kind == "anonymous"
    if theirs is _anonymous_variadic_dim:
        return ours.kind == "ellipsis"
    if type(theirs) is _FixedDim:
        return ours.kind == "fixed" and ours.value == theirs.size and ours.broadcast == theirs.broadcastable
    if type(theirs) is _SymbolicDim:
        return ours.kind == "expr" and ours.name == theirs.elem and ours.broadcast == theirs.broadcastable
    if type(theirs) is _NamedVariadicDim:
        return (ours.kind, ours.name, ours.broadcast, ours.treepath) == (
            "variadic",
            theirs.name,
            theirs.broadcastable,
            theirs.treepath,
        )
    assert type(theirs) is _NamedDim
    return (ours.kind, ours.name, ours.broadcast, ours.treepath) == (
        "named",
        theirs.name,
        theirs.broadcastable,
        theirs.treepath,
    )


def _call_verdict(specs: list[str], shapes: list[tuple[int, ...]], ret: tuple[str, tuple[int, ...]] | None) -> str:
    arrays = [np.broadcast_to(np.float32(0), sh) for sh in shapes]
    names = ["x", "y", "z"][: len(specs)]
    out = np.broadcast_to(np.float32(0), ret[1]) if ret else None

    def make():
        src = f"def f({', '.join(names)}):\n    return OUT\n"
        ns = {"OUT": out}
        exec(src, ns)  # builds the test function only; the code under test never execs
        return ns["f"]

    f = make()
    f.__annotations__ = {n: Float[np.ndarray, s] for n, s in zip(names, specs)}
    if ret:
        f.__annotations__["return"] = Float[np.ndarray, ret[0]]
    g = jaxtyped(typechecker=beartype)(f)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            g(*arrays)
        except AnnotationError:
            return "annotation"
        except TypeCheckError:
            return "fail"
        except Exception as e:  # noqa: BLE001
            return f"error:{type(e).__name__}"
    return "pass"


def _our_verdict(specs: list[str], shapes: list[tuple[int, ...]], ret: tuple[str, tuple[int, ...]] | None) -> str:
    memo = Memo()
    seq = list(zip(specs, shapes))
    if ret:  # jaxtyping re-checks the parameters together with the return value, in the same memo
        seq = seq + seq + [ret]
    for i, (s, sh) in enumerate(seq):
        spec = parse_dims(s)
        assert not isinstance(spec, str)
        r = match_shape(spec, sh, memo, origin=f"arg{i}")
        if r.ok is True:
            continue
        if r.ok is False:
            assert r.problem is not None and r.problem[0] in ("SHP201", "SHP202")
            return "fail"
        return "annotation" if r.unbound else "unknown"
    return "pass"


SETTINGS = dict(derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@settings(max_examples=1500, **SETTINGS)
@given(shape_strings)
def test_parse_agrees_with_jaxtyping(s: str) -> None:
    ours = parse_dims(s, strict=False)
    theirs = _oracle_dims(s)
    if isinstance(theirs, str):
        assert isinstance(ours, str), f"jaxtyping rejects {s!r} ({theirs}) but parse_dims accepts"
        return
    assert not isinstance(ours, str), f"jaxtyping accepts {s!r} but parse_dims says {ours}"
    assert len(ours.dims) == len(theirs.dims)
    assert ours.variadic_index == theirs.index_variadic
    for a, b in zip(ours.dims, theirs.dims):
        assert _same_dim(a, b), (s, a, b)
    strict = parse_dims(s)
    if isinstance(strict, str):
        # jaxtyping accepted it, but it can never pass a check: try a few shapes of every admissible rank
        lo = ours.min_rank
        for rank in range(lo, lo + 2 if ours.variadic_index is not None else lo + 1):
            for fill in (2, 3):  # (a broken `#expr` axis of size 1 is accepted unevaluated)
                shape = tuple(
                    d.value if d.kind == "fixed" and d.value and d.value > 0 else fill for d in ours.check_order()
                )
                shape = shape + (fill,) * (rank - len(shape))
                assert _call_verdict([s], [shape], None) != "pass", (s, shape)


def _concrete_shape(draw, spec, env, venv) -> tuple[int, ...]:
    i = spec.variadic_index
    out: list[int] = []
    for k, d in enumerate(spec.dims):
        if d.kind == "named":
            out.append(env.setdefault(d.name, draw(st.integers(1, 4))))
        elif d.kind == "fixed":
            out.append(d.value if d.value is not None and d.value >= 0 else 1)
        elif d.kind == "anonymous":
            out.append(draw(st.integers(1, 4)))
        elif d.kind == "expr":
            v = evaluate_expr(d.name, env)
            out.append(v if isinstance(v, int) and v >= 0 else draw(st.integers(1, 4)))
        elif d.kind == "ellipsis":
            out.extend(draw(st.lists(st.integers(1, 3), max_size=2)))
        else:
            out.extend(venv.setdefault(d.name, tuple(draw(st.lists(st.integers(1, 3), max_size=2)))))
        if d.broadcast and draw(st.integers(0, 3)) == 0 and k != i and out:
            out[-1] = 1
    mode = draw(st.integers(0, 9))
    if mode == 0 and out:
        out[draw(st.integers(0, len(out) - 1))] = draw(st.integers(1, 4))
    elif mode == 1:
        out.insert(draw(st.integers(0, len(out))), draw(st.integers(1, 3)))
    elif mode == 2 and out:
        out.pop(draw(st.integers(0, len(out) - 1)))
    return tuple(out)


def _draw_call(data) -> tuple[list[str], list[tuple[int, ...]], tuple[str, tuple[int, ...]] | None]:
    """Annotated parameters (and maybe a return annotation) with argument shapes that mostly fit them."""
    nparams = data.draw(st.integers(1, 3))
    specs = [data.draw(valid_strings) for _ in range(nparams)]
    with_ret = data.draw(st.booleans())
    ret_spec = data.draw(valid_strings) if with_ret else None
    env: dict[str, int] = {}
    venv: dict[str, tuple[int, ...]] = {}
    for s in specs + ([ret_spec] if ret_spec is not None else []):
        assert not isinstance(parse_dims(s), str), s
    shapes = [_concrete_shape(data.draw, parse_dims(s), env, venv) for s in specs]
    ret = (ret_spec, _concrete_shape(data.draw, parse_dims(ret_spec), env, venv)) if ret_spec is not None else None
    return specs, shapes, ret


@settings(max_examples=1200, **SETTINGS)
@given(st.data())
def test_match_agrees_with_jaxtyping(data) -> None:
    specs, shapes, ret = _draw_call(data)
    theirs = _call_verdict(specs, shapes, ret)
    ours = _our_verdict(specs, shapes, ret)
    assert ours == theirs, (specs, shapes, ret, theirs, ours)


def test_generated_cases_cover_every_verdict() -> None:
    """The strategies make every kind of case in quantity: strings jaxtyping accepts and rejects, and calls that
    pass, fail a check and hit an annotation error (a generator that only made passing calls would test nothing)."""
    parsed: Counter[str] = Counter()
    verdicts: Counter[str] = Counter()

    @settings(max_examples=300, **SETTINGS)
    @given(shape_strings)
    def strings(s: str) -> None:
        parsed["rejected" if isinstance(_oracle_dims(s), str) else "accepted"] += 1

    @settings(max_examples=300, **SETTINGS)
    @given(st.data())
    def calls(data) -> None:
        verdicts[_call_verdict(*_draw_call(data))] += 1

    strings()
    calls()
    assert parsed["accepted"] >= 60 and parsed["rejected"] >= 30, parsed
    assert verdicts["pass"] >= 60 and verdicts["fail"] >= 60 and verdicts["annotation"] >= 3, verdicts


# ---- hand-picked regressions for quirks found while differential-testing ----


@pytest.mark.parametrize(
    "specs,shapes,expected",
    [
        (["rows=3 rows"], [(3, 5)], "pass"),  # the label of `rows=3` binds nothing
        (["a=n n"], [(2, 2)], "pass"),  # `a=n` is the axis `n`
        (["a=n n"], [(2, 3)], "fail"),
        (["n n-1"], [(4, 3)], "pass"),  # an expression may use a name bound earlier in the same annotation
        (["n-1 n"], [(3, 4)], "annotation"),  # ...but not a later one
        (["*n n-1"], [(4, 3)], "annotation"),  # variadic names are invisible to expressions
        (["#n n+1"], [(1, 2)], "annotation"),  # a broadcast size-1 axis binds nothing
        (["#n", "n"], [(1,), (5,)], "pass"),
        (["n/2"], [(2,)], "annotation"),
        (["n", "n/2"], [(5,), (2,)], "fail"),  # true division: 2.5 never equals an axis length
        (["n", "n//2"], [(5,), (2,)], "pass"),
        (["#*r", "*r"], [(1, 3), (4, 3)], "pass"),
        (["*r", "#*r"], [(4, 3), (1, 3)], "pass"),
        (["*r", "#*r"], [(1, 3), (4, 3)], "fail"),
        (["-1"], [(1,)], "fail"),
    ],
)
def test_quirks(specs, shapes, expected) -> None:
    assert _call_verdict(specs, shapes, None) == expected
    assert _our_verdict(specs, shapes, None) == expected
