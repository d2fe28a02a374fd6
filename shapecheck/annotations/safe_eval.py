"""A safe evaluator for jaxtyping's symbolic dimensions (``n-1``, ``h*w``, ``2*d``, ``n//2``, ``min(a,b)``).

jaxtyping itself runs ``eval(elem, single_memo)`` -- any Python expression, with builtins, over the single-axis
bindings made so far. We never run code: the text is parsed with :mod:`ast` and only a whitelist of nodes is
walked:

* integer literals, axis names;
* binary ``+ - * / // % **`` (``**`` only with a small non-negative literal-int exponent) and unary ``+ -``;
* calls of the pure builtins ``min``, ``max`` (two or more positional args) and ``abs`` (one).

Anything else (attributes, subscripts, other calls, lambdas, comprehensions, comparisons, strings, floats,
f-string braces ...) is *unsupported*: the evaluator answers ``None`` (unknown), it never raises on user
input. Values are kept exact: ints become :class:`fractions.Fraction` internally (``/`` is jaxtyping's true
division, so ``n/2`` with ``n=5`` is 2.5 and can never equal an integer axis), symbolic values are
:class:`~shapecheck.sizes.Size`.
"""

from __future__ import annotations

import ast
from fractions import Fraction
from math import floor
from typing import Mapping, Union

from ..sizes.algebra import Size, SizeLike, Truth, as_size, divisible, greater_equal

MAX_TEXT = 200  # longer expressions are not evaluated
MAX_EXPONENT = 64  # `n**e` only for literal 0 <= e <= MAX_EXPONENT
MAX_SYMBOLIC_EXPONENT = 8
MAX_BITS = 4096  # intermediate integers larger than this are "unknown"
SAFE_FUNCS = frozenset({"min", "max", "abs"})

Value = Union[Fraction, Size]


class Unsupported(Exception):
    """The expression uses syntax outside the whitelist (or is too large)."""


class Unbound(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def parse_expr(text: str) -> ast.Expression | str:
    """Parse and validate ``text``; the parsed tree, or the reason it is rejected."""
    if not isinstance(text, str):
        return "not a string"
    if len(text) > MAX_TEXT:
        return f"expression longer than {MAX_TEXT} characters"
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        return f"not a valid Python expression ({type(e).__name__})"
    reason = _validate(tree.body)
    if reason is not None:
        return reason
    return tree


def _validate(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant):
        if type(node.value) is int:
            return None
        return f"constant {node.value!r} is not an integer"
    if isinstance(node, ast.Name):
        return None
    if isinstance(node, ast.BinOp):
        if not isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)):
            return f"operator {type(node.op).__name__} is not supported"
        if isinstance(node.op, ast.Pow):
            e = node.right
            if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.UAdd):
                e = e.operand
            if not (isinstance(e, ast.Constant) and type(e.value) is int and 0 <= e.value <= MAX_EXPONENT):
                return f"exponent must be an integer literal between 0 and {MAX_EXPONENT}"
        return _validate(node.left) or _validate(node.right)
    if isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, (ast.UAdd, ast.USub)):
            return f"operator {type(node.op).__name__} is not supported"
        return _validate(node.operand)
    if isinstance(node, ast.Call):
        if not (isinstance(node.func, ast.Name) and node.func.id in SAFE_FUNCS):
            return "calls are not supported (only min, max and abs)"
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            return "keyword or starred arguments are not supported"
        n = len(node.args)
        if (node.func.id == "abs" and n != 1) or (node.func.id != "abs" and n < 2):
            return f"wrong number of arguments to {node.func.id}"
        for a in node.args:
            r = _validate(a)
            if r is not None:
                return r
        return None
    return f"{type(node).__name__} is not supported"


def names_in(text: str) -> set[str]:
    """Axis names an expression reads (builtins used as call targets are not names). Empty if unparsable."""
    tree = parse_expr(text)
    if isinstance(tree, str):
        return set()
    out: set[str] = set()
    _collect(tree.body, out)
    return out


def _collect(node: ast.AST, out: set[str]) -> None:
    if isinstance(node, ast.Name):
        out.add(node.id)
    elif isinstance(node, ast.BinOp):
        _collect(node.left, out)
        _collect(node.right, out)
    elif isinstance(node, ast.UnaryOp):
        _collect(node.operand, out)
    elif isinstance(node, ast.Call):
        for a in node.args:
            _collect(a, out)


# ---------------------------------------------------------------------------------------------------------------
# evaluation


def _norm(v: Value) -> Value:
    if isinstance(v, Size):
        if v.is_const:
            return v.value
        return v
    return v


def _check_big(v: Value) -> Value:
    if isinstance(v, Fraction):
        if v.numerator.bit_length() > MAX_BITS or v.denominator.bit_length() > MAX_BITS:
            raise Unsupported("value too large")
    return v


def _binop(op: ast.operator, a: Value, b: Value) -> Value:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if b == 0 and isinstance(op, (ast.Div, ast.FloorDiv, ast.Mod)):
            raise Unsupported("division by zero")
        if isinstance(op, ast.Div):
            return a / b
        if isinstance(op, ast.FloorDiv):
            return Fraction(floor(a / b))
        if isinstance(op, ast.Mod):
            return a - b * floor(a / b)
        raise Unsupported(type(op).__name__)  # pragma: no cover - Pow is handled by the caller
    sa, sb = as_size(a), as_size(b)
    if isinstance(op, ast.Add):
        return _norm(sa + sb)
    if isinstance(op, ast.Sub):
        return _norm(sa - sb)
    if isinstance(op, ast.Mult):
        return _norm(sa * sb)
    if isinstance(op, ast.Div):
        q = sa.exact_div(sb)
        if q is None:
            raise Unsupported("quotient not representable")
        return _norm(q)
    if isinstance(op, ast.FloorDiv):
        if divisible(sa, sb) is Truth.TRUE:
            q = sa.exact_div(sb)
            if q is not None:
                return _norm(q)
        raise Unsupported("floor division not exact")
    if isinstance(op, ast.Mod):
        if divisible(sa, sb) is Truth.TRUE:
            return Fraction(0)
        raise Unsupported("remainder unknown")
    raise Unsupported(type(op).__name__)  # pragma: no cover


def _pow(a: Value, e: int) -> Value:
    if isinstance(a, Fraction):
        if a.numerator.bit_length() * e > MAX_BITS or a.denominator.bit_length() * e > MAX_BITS:
            raise Unsupported("power too large")
        return a**e
    if e > MAX_SYMBOLIC_EXPONENT:
        raise Unsupported("symbolic power too large")
    out = Size.const(1)
    for _ in range(e):
        out = out * a
    return _norm(out)


def _ge(a: Value, b: Value) -> bool:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a >= b
    t = greater_equal(as_size(a), as_size(b))
    if t is Truth.UNKNOWN:
        raise Unsupported("order unknown")
    return t is Truth.TRUE


def _eval(node: ast.AST, env: Mapping[str, Value]) -> Value:
    if isinstance(node, ast.Constant):
        assert type(node.value) is int
        return Fraction(node.value)
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise Unbound(node.id)
        return env[node.id]
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, env)
        if isinstance(node.op, ast.USub):
            return -v if isinstance(v, Fraction) else _norm(-v)
        return v
    if isinstance(node, ast.BinOp):
        left = _eval(node.left, env)
        if isinstance(node.op, ast.Pow):
            e = node.right.operand if isinstance(node.right, ast.UnaryOp) else node.right
            assert isinstance(e, ast.Constant) and type(e.value) is int
            return _check_big(_pow(left, int(e.value)))
        right = _eval(node.right, env)
        return _check_big(_binop(node.op, left, right))
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        args = [_eval(a, env) for a in node.args]
        if node.func.id == "abs":
            (v,) = args
            if _ge(v, Fraction(0)):
                return v
            return -v if isinstance(v, Fraction) else _norm(-v)
        best = args[0]
        for v in args[1:]:
            if node.func.id == "max":
                best = best if _ge(best, v) else v
            else:
                best = best if _ge(v, best) else v
        return best
    raise Unsupported(type(node).__name__)  # pragma: no cover - _validate rejects everything else


def _prepare_env(env: Mapping[str, SizeLike]) -> dict[str, Value]:
    out: dict[str, Value] = {}
    for k, v in env.items():
        if isinstance(v, bool):
            v = int(v)
        if isinstance(v, int):
            out[k] = Fraction(v)
        elif isinstance(v, Fraction):
            out[k] = v
        elif isinstance(v, Size):
            out[k] = _norm(v)
    return out


def _result(v: Value) -> Size | int:
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else Size.const(v)
    return v


def evaluate_expr(text: str, env: Mapping[str, SizeLike]) -> Size | int | None:
    """Evaluate a symbolic dimension.

    Returns an ``int`` when the value is an integer constant, a :class:`Size` when it is symbolic (or a
    non-integer constant such as ``5/2``), and ``None`` when it is unknown: unsupported syntax, an unbound
    name (see :func:`unbound_names`), division by zero, a non-exact symbolic ``//``, an undecidable
    ``min``/``max``, or a value too large.
    """
    tree = parse_expr(text)
    if isinstance(tree, str):
        return None
    try:
        return _result(_eval(tree.body, _prepare_env(env)))
    except (Unsupported, Unbound, ZeroDivisionError, OverflowError, RecursionError):
        return None


def unbound_names(text: str, env: Mapping[str, object]) -> set[str]:
    """Names read by ``text`` that ``env`` does not bind."""
    return {n for n in names_in(text) if n not in env}
