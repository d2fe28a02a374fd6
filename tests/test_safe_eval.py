"""The safe evaluator for symbolic jaxtyping axes: whitelist only, never runs code."""

from __future__ import annotations

import ast
import builtins
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shapecheck.annotations import evaluate_expr
from shapecheck.annotations import safe_eval
from shapecheck.sizes import Size, equal, Truth

n, m = Size.sym("n"), Size.sym("m")


@pytest.mark.parametrize(
    "text,env,expected",
    [
        ("n-1", {"n": 5}, 4),
        ("h*w", {"h": 3, "w": 4}, 12),
        ("2*d", {"d": 7}, 14),
        ("n//2", {"n": 7}, 3),
        ("n%3", {"n": 7}, 1),
        ("-n%3", {"n": 7}, 2),  # Python's modulo sign rule
        ("-7//2", {}, -4),  # floor division rounds down
        ("n**2", {"n": 3}, 9),
        ("min(a,b)", {"a": 3, "b": 2}, 2),
        ("max(a,b,4)", {"a": 3, "b": 2}, 4),
        ("abs(1-a)", {"a": 3}, 2),
        ("(n)", {"n": 3}, 3),
        ("+n", {"n": 3}, 3),
        ("n/2", {"n": 4}, 2),
    ],
)
def test_int_values(text, env, expected) -> None:
    assert evaluate_expr(text, env) == expected
    assert type(evaluate_expr(text, env)) is int


def test_true_division_is_exact() -> None:
    v = evaluate_expr("n/2", {"n": 5})
    assert isinstance(v, Size) and v.is_const and v.value == Fraction(5, 2)
    assert equal(v, 2) is Truth.FALSE and equal(v, 3) is Truth.FALSE


def test_symbolic_values() -> None:
    assert evaluate_expr("n-1", {"n": n}) == n - 1
    assert evaluate_expr("h*w", {"h": n, "w": m}) == n * m
    assert evaluate_expr("n//2", {"n": n * 2}) == n
    assert evaluate_expr("n//2", {"n": n}) is None  # not exact -> unknown
    assert evaluate_expr("n%2", {"n": n * 4}) == 0
    assert evaluate_expr("n%2", {"n": n}) is None
    assert evaluate_expr("n/2", {"n": n}) == n * Fraction(1, 2)
    assert evaluate_expr("n/m", {"n": n * m, "m": m}) == n
    assert evaluate_expr("min(n, n+1)", {"n": n}) == n
    assert evaluate_expr("max(n, m)", {"n": n, "m": m}) is None
    assert evaluate_expr("n**2", {"n": n}) == n * n
    assert evaluate_expr("n-n+3", {"n": n}) == 3  # constant result -> int


def test_unbound_and_zero() -> None:
    assert evaluate_expr("n-1", {}) is None
    assert safe_eval.unbound_names("n*m+k", {"n": 1}) == {"m", "k"}
    assert evaluate_expr("n//0", {"n": 3}) is None
    assert evaluate_expr("n%(n-n)", {"n": n}) is None


@pytest.mark.parametrize(
    "text",
    [
        "n.real",  # attribute access
        "__import__('os')",
        "__import__('os').system('echo hacked')",
        "print(1)",
        "len(n)",
        "n[0]",
        "(lambda: 1)()",
        "lambda: 1",
        "[n for n in range(3)]",
        "{n}",
        "n if n else 1",
        "n < 3",
        "'abc'",
        "1.5*n",
        "True+1",
        "n**1000000",
        "2**10**10",
        "n**m",
        "n**-1",
        "min(n, key=abs)",
        "min(*ns)",
        "abs(n, m)",
        "max(n)",
        "n := 3",
        "open('/etc/passwd')",
        "getattr(n, 'x')",
        "()",
        "",
        "n +",
        "(" * 500 + "n" + ")" * 500,
        "1+" * 300 + "1",
    ],
)
def test_rejects_unsafe_or_unsupported(text) -> None:
    assert evaluate_expr(text, {"n": 3, "m": 2, "ns": 1}) is None
    assert evaluate_expr(text, {"n": n, "m": m}) is None


def test_huge_integers_bounded() -> None:
    assert evaluate_expr("9**64", {}) == 9**64
    assert evaluate_expr("n**64*n**64*n**64", {"n": 2**40}) is None  # past MAX_BITS
    assert evaluate_expr("n**9", {"n": n}) is None  # symbolic powers are capped too


def test_never_calls_eval(monkeypatch) -> None:
    def boom(*a, **k):  # pragma: no cover - must not be reached
        raise AssertionError("eval/exec/compile called")

    real_compile = builtins.compile

    def parse_only_compile(source, filename, mode, flags=0, *a, **k):
        # ast.parse goes through compile() with PyCF_ONLY_AST: that builds a tree and runs nothing
        if not flags & ast.PyCF_ONLY_AST:  # pragma: no cover - must not be reached
            raise AssertionError("compile() to code object called")
        return real_compile(source, filename, mode, flags, *a, **k)

    monkeypatch.setattr(builtins, "eval", boom)
    monkeypatch.setattr(builtins, "exec", boom)
    monkeypatch.setattr(builtins, "compile", parse_only_compile)
    assert evaluate_expr("n*2-1", {"n": 4}) == 7
    assert evaluate_expr("__import__('os').system('true')", {}) is None


def test_source_has_no_eval() -> None:
    import inspect

    tree = ast.parse(inspect.getsource(safe_eval))
    called = {
        node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
    }
    assert not called & {"eval", "exec", "compile", "__import__", "getattr", "import_module"}


ops = st.sampled_from(["+", "-", "*", "//", "%"])


@st.composite
def int_exprs(draw, depth=0):
    if depth > 3 or draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from(["a", "b", "c", "1", "2", "3", "7"]))
    kind = draw(st.integers(0, 3))
    if kind == 3:
        f = draw(st.sampled_from(["min", "max"]))
        return f"{f}({draw(int_exprs(depth + 1))}, {draw(int_exprs(depth + 1))})"
    if kind == 2:
        return f"-({draw(int_exprs(depth + 1))})"
    return f"({draw(int_exprs(depth + 1))}){draw(ops)}({draw(int_exprs(depth + 1))})"


@settings(max_examples=400, derandomize=True, deadline=None, database=None)
@given(int_exprs(), st.integers(1, 9), st.integers(1, 9), st.integers(1, 9))
def test_agrees_with_python_on_ints(text, a, b, c) -> None:
    env = {"a": a, "b": b, "c": c}
    try:
        expected = builtins.eval(text, {"__builtins__": {"min": min, "max": max}}, dict(env))  # test oracle only
    except ZeroDivisionError:
        assert evaluate_expr(text, env) is None
        return
    assert evaluate_expr(text, env) == expected


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(int_exprs(), st.integers(1, 9), st.integers(1, 9), st.integers(1, 9))
def test_symbolic_then_substitute(text, a, b, c) -> None:
    """Whatever the evaluator answers symbolically must agree with every concrete substitution it covers."""
    sym = evaluate_expr(text, {"a": Size.sym("a"), "b": Size.sym("b"), "c": Size.sym("c")})
    if sym is None:
        return
    concrete = evaluate_expr(text, {"a": a, "b": b, "c": c})
    value = sym if isinstance(sym, int) else sym.evaluate({"a": a, "b": b, "c": c})
    assert concrete == value
