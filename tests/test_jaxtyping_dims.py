"""Unit tests for jaxtyping shape-string parsing, matching over symbolic sizes, and the dtype table."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shapecheck.annotations import (
    DTYPE_CLASSES,
    Dim,
    DimSpec,
    Memo,
    accepts,
    expr_names,
    instantiate,
    match_shape,
    names_used,
    parse_dims,
    unbound_expr_names,
)
from shapecheck.diagnostics.details import DimsSyntax
from shapecheck.diagnostics.registry import CODES
from shapecheck.sizes import Size

n, m, k = Size.sym("n"), Size.sym("m"), Size.sym("k")


def spec(text: str) -> DimSpec:
    out = parse_dims(text)
    assert isinstance(out, DimSpec), out
    return out


def kinds(text: str) -> list[tuple]:
    return [(d.kind, d.name, d.value, d.broadcast) for d in spec(text).dims]


def test_token_kinds() -> None:
    assert kinds("b c") == [("named", "b", None, False), ("named", "c", None, False)]
    assert kinds("3 #4") == [("fixed", None, 3, False), ("fixed", None, 4, True)]
    assert kinds("n-1 #h*w") == [("expr", "n-1", None, False), ("expr", "h*w", None, True)]
    assert kinds("_ _x") == [("anonymous", None, None, False)] * 2
    assert kinds("*batch") == [("variadic", "batch", None, False)]
    assert kinds("#*batch") == [("variadic", "batch", None, True)]
    assert kinds("*#batch") == [("variadic", "batch", None, True)]
    for t in ("...", "*_", "_*", "*_x"):
        assert kinds(t) == [("ellipsis", None, None, False)]
    assert spec("").dims == () and spec("   ").dims == ()
    assert spec("a *b c").variadic_index == 1
    assert spec("a b").variadic_index is None


def test_label_equals_syntax() -> None:
    d = spec("rows=3").dims[0]
    assert (d.kind, d.value, d.name, d.label) == ("fixed", 3, None, "rows")
    d = spec("a=n").dims[0]
    assert (d.kind, d.name, d.label) == ("named", "n", "a")
    d = spec("#c=3").dims[0]
    assert (d.kind, d.value, d.broadcast, d.label) == ("fixed", 3, True, "c")
    assert kinds("a=_") == [("anonymous", None, None, False)]
    assert kinds("a=") == [("named", "", None, False)]
    loose = parse_dims("a=b=c", strict=False)  # two `=`: not a label, an (unevaluable) expression
    assert isinstance(loose, DimSpec) and loose.dims[0].kind == "expr" and isinstance(parse_dims("a=b=c"), str)
    # the label binds nothing: `rows=3 rows` binds `rows` only through the second token
    assert names_used(spec("rows=3")) == set()


def test_int_literals_follow_python_int() -> None:
    assert kinds("-3 +2 1_0 0") == [("fixed", None, v, False) for v in (-3, 2, 10, 0)]


@pytest.mark.parametrize(
    "text",
    ["a,b", "a#", "##a", "**a", "__a", "#_", "_3", "*3", "?3", "a...", "*a *b", "... *a", "... ...", "*n+1", "_n+1"],
)
def test_rejected_by_jaxtyping(text: str) -> None:
    assert isinstance(parse_dims(text, strict=False), str)
    assert isinstance(parse_dims(text), str)


@pytest.mark.parametrize("text", ["b (h w) c", "(a", "n'", "a==b==", "{}"])
def test_strict_rejects_never_evaluable(text: str) -> None:
    assert not isinstance(parse_dims(text, strict=False), str)
    reason = parse_dims(text)
    assert isinstance(reason, str)


def test_group_reason_mentions_einops() -> None:
    reason = parse_dims("b (h w) c")
    assert isinstance(reason, str) and "einops" in reason
    code = next(c for c in CODES if c.code == "SHP110")
    assert code.format(annotation="b (h w) c", detail=DimsSyntax(reason)).startswith(
        "SHP110 invalid jaxtyping annotation"
    )


def test_names() -> None:
    s = spec("b *rest n-1 min(h,w) #c")
    assert names_used(s) == {"b", "rest", "n", "h", "w", "c"}
    assert expr_names(s.dims[2]) == {"n"}
    assert expr_names(s.dims[3]) == {"h", "w"}  # `min` is a function, not an axis
    assert expr_names(s.dims[0]) == set()


def test_unbound_expr_names_follow_check_order() -> None:
    assert unbound_expr_names(spec("n n-1"), Memo()) == set()
    assert unbound_expr_names(spec("n-1 n"), Memo()) == {"n"}
    assert unbound_expr_names(spec("n-1 *r n"), Memo()) == {"n"}
    assert unbound_expr_names(spec("*r n n+1"), Memo()) == set()
    assert unbound_expr_names(spec("*n n-1"), Memo()) == {"n"}  # variadic names are invisible
    assert unbound_expr_names(spec("h*w"), Memo(single={"h": n})) == {"w"}
    assert unbound_expr_names(spec("h*w"), {"h": 1, "w": 2}) == set()


# ---- matching ----------------------------------------------------------------------------------------------


def test_match_binds_and_checks() -> None:
    memo = Memo()
    r = match_shape(spec("b c"), (n, 3), memo, origin="x")
    assert r.ok is True and r.bindings == {"b": n, "c": Size.const(3)}
    assert memo.origin["b"] == "x"
    r = match_shape(spec("b c"), (n, 4), memo, origin="y")
    assert r.ok is False
    code, fields = r.problem
    assert code == "SHP202" and fields["axis"] == "c" and fields["expected"] == "3" and fields["actual"] == "4"
    assert fields["requirement"].name == "c" and fields["requirement"].where == "x"
    assert memo.single == {"b": n, "c": Size.const(3)}  # restored on failure
    # every template field is present
    tmpl = next(c for c in CODES if c.code == code)
    tmpl.format(**fields)


def test_rank_problem() -> None:
    r = match_shape(spec("a b c"), (1, 2), Memo())
    assert r.ok is False and r.problem[0] == "SHP201"
    next(c for c in CODES if c.code == "SHP201").format(**r.problem[1])
    r = match_shape(spec("a *r c d"), (1, 2), Memo())
    assert r.ok is False and r.problem[1]["expected"] == "at least 3"


def test_symbolic_unknown_vs_false() -> None:
    memo = Memo(single={"b": n})
    assert match_shape(spec("b"), (m,), memo).ok is None  # n vs m: undecided
    assert match_shape(spec("b"), (n + 1,), Memo(single={"b": n})).ok is False
    assert match_shape(spec("3"), (n,), Memo()).ok is None
    assert match_shape(spec("3"), (n + 3,), Memo()).ok is False
    assert match_shape(spec("h w h*w"), (n, m, n * m), Memo()).ok is True
    assert match_shape(spec("h w h*w"), (n, m, n * m + 1), Memo()).ok is False
    assert match_shape(spec("#3"), (n,), Memo()).ok is None  # n could be 1 or 3
    assert match_shape(spec("#3"), (n + 3,), Memo()).ok is False


def test_broadcast_size_one_binds_nothing() -> None:
    memo = Memo()
    r = match_shape(spec("#b"), (1,), memo)
    assert r.ok is True and memo.single == {}
    r = match_shape(spec("#b"), (n,), memo)  # n may be 1: do not bind
    assert r.ok is True and memo.single == {}
    r = match_shape(spec("#b"), (n + 1,), memo)  # definitely not 1: binds
    assert r.ok is True and memo.single == {"b": n + 1}


def test_unbound_expr_gives_unknown() -> None:
    r = match_shape(spec("n-1"), (3,), Memo())
    assert r.ok is None and r.unbound == {"n"}
    r = match_shape(spec("n-1"), (3,), Memo(single={"n": Size.const(4)}))
    assert r.ok is True
    r = match_shape(spec("n-1"), (k,), Memo(single={"n": k + 1}))
    assert r.ok is True


def test_variadics() -> None:
    memo = Memo()
    assert match_shape(spec("*b c"), (n, m, 3), memo).ok is True
    assert memo.variadic["b"] == (n, m)
    assert match_shape(spec("*b"), (n, m), memo).ok is True
    assert match_shape(spec("*b"), (n,), memo).ok is False
    assert match_shape(spec("*b"), (n, k), memo).ok is None
    assert match_shape(spec("#*b"), (1, m), memo).ok is True
    assert match_shape(spec("#*b"), (m + 1, m), memo).ok is None  # could broadcast if n == m + 1
    memo = Memo()
    assert match_shape(spec("... c"), (n, m, 3), memo).ok is True and memo.variadic == {}


def test_unknown_shape_and_fresh() -> None:
    memo = Memo()
    r = match_shape(spec("b c"), None, memo)
    assert r.ok is None and memo.single == {}
    r = match_shape(spec("b c"), None, memo, fresh=lambda name: Size.sym(name + "'"))
    assert r.ok is None and memo.single == {"b": Size.sym("b'"), "c": Size.sym("c'")}
    r = match_shape(spec("b 3"), (None, 3), Memo())
    assert r.ok is True


def test_instantiate() -> None:
    counter = itertools.count()

    def fresh(name: str) -> Size:
        return Size.sym(f"{name}#{next(counter)}")

    memo = Memo(single={"b": n})
    shape = instantiate(spec("b t t 3 t-1"), memo, fresh)
    assert shape is not None
    b, t1, t2, three, tm1 = shape
    assert b == n and t1 == t2 and three == Size.const(3) and tm1 == t1 - 1
    assert "t" in memo.single
    assert instantiate(spec("b ..."), Memo(), fresh) is None
    assert instantiate(spec("*r"), Memo(), fresh) is None
    assert instantiate(spec("*r c"), Memo(variadic={"r": (n, m)}), fresh) == (
        n,
        m,
        Size.sym("c#" + str(next(counter) - 1)),
    )


# ---- symbolic soundness: a symbolic verdict must hold for every concrete instance ----------------------------

TOKENS = ["a", "b", "a", "2", "#a", "#2", "_", "a-1", "a*b", "a+b", "*r", "#*r", "..."]


@st.composite
def sym_case(draw):
    texts = [" ".join(draw(st.lists(st.sampled_from(TOKENS), max_size=3))) for _ in range(draw(st.integers(1, 2)))]
    texts = [t for t in texts if not isinstance(parse_dims(t), str)]
    atoms = ["p", "q", "1", "2", "p+1", "p*q", "2*p"]
    shapes = [tuple(draw(st.lists(st.sampled_from(atoms), max_size=4))) for _ in texts]
    return texts, shapes


def _size(atom: str) -> Size:
    from shapecheck.annotations import evaluate_expr

    v = evaluate_expr(atom, {"p": Size.sym("p"), "q": Size.sym("q")})
    return v if isinstance(v, Size) else Size.const(v)


def _run(texts, shapes) -> bool | None:
    memo = Memo()
    verdict: bool | None = True
    for t, sh in zip(texts, shapes):
        r = match_shape(spec(t), sh, memo)
        if r.ok is False:
            return False
        if r.ok is None:
            if r.unbound:
                return None
            verdict = None
    return verdict


@settings(max_examples=400, derandomize=True, deadline=None, database=None)
@given(sym_case())
def test_symbolic_verdicts_are_sound(case) -> None:
    texts, shapes = case
    sym = _run(texts, [tuple(_size(a) for a in sh) for sh in shapes])
    if sym is None:
        return
    for p, q in itertools.product(range(1, 4), repeat=2):
        env = {"p": p, "q": q}
        conc = [tuple(int(_size(a).evaluate(env)) for a in sh) for sh in shapes]
        assert _run(texts, conc) is sym, (texts, shapes, env)


# ---- dtype table -----------------------------------------------------------------------------------------------


def test_dtype_table_matches_jaxtyping() -> None:
    import jaxtyping
    from jaxtyping import _array_types

    for name, names in DTYPE_CLASSES.items():
        cls = getattr(jaxtyping, name, None) or getattr(_array_types, name)
        if names is None:
            assert cls.dtypes is _array_types._any_dtype
        else:
            assert set(cls.dtypes) == names, name
    exported = {
        n
        for n in dir(jaxtyping)
        if isinstance(getattr(jaxtyping, n), type) and issubclass(getattr(jaxtyping, n), jaxtyping.AbstractDtype)
    }
    assert exported - {"AbstractDtype"} <= set(DTYPE_CLASSES)


def test_accepts() -> None:
    assert accepts("Float", "bfloat16") and accepts("Float", "float16") and not accepts("Float", "int32")
    assert accepts("Shaped", "anything") and accepts("Bool", "bool_") and accepts("Key", "prng_key")
    assert accepts("Real", "uint8") and not accepts("Real", "complex64")


def test_dim_is_frozen() -> None:
    d = Dim("named", "a", None, False, "a")
    with pytest.raises(Exception):
        d.name = "b"  # type: ignore[misc]
