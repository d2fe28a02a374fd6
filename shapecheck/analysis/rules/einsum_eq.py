"""``torch.einsum`` / ``np.einsum`` / ``jnp.einsum`` equation strings ("ij,jk->ik", "...ij,...jk", "ii").

The equation is validated on its own (SHP108), then rewritten as the equivalent einops-style pattern (one axis per
letter, explicit output) and solved by the einops einsum engine (ranks SHP201, sizes SHP204, size-1 axes broadcast).
Framework facts (checked against torch 2.x and numpy 2.x, see tests/test_einsum_equations.py):

* subscripts are single ASCII letters; spaces are ignored; ``...`` is the only other token;
* without ``->`` the output is every letter seen exactly once, in ASCII order (upper case first), after the
  ellipsis dimensions when any operand has ``...``;
* a repeated letter in one operand takes the diagonal (the sizes must be equal);
* torch and jax sum the ellipsis dimensions when the output has no ``...``; numpy raises.
"""

from __future__ import annotations

from dataclasses import is_dataclass, replace
from typing import Callable, Sequence

import libcst as cst

from ... import pattern as P
from ...diagnostics import details as D
from ...sizes import Size
from ..interpret.context import OpSpec
from ..interpret.values import UNKNOWN, SeqV, StrV, TensorV, Value

from .registry import FUNCTIONS, OpContext

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class EquationError(Exception):
    def __init__(self, rule: str, where: str = "", subscript: str = "") -> None:
        self.detail = D.EquationSyntax(rule, where, subscript)
        super().__init__(self.detail.render())


def parse_equation(eq: str, framework: str = "") -> tuple[list[list[str]], list[str] | None]:
    """(per operand: letters and "..." in order, explicit output or None). Raises EquationError.
    jax.numpy.einsum parses through opt_einsum, which takes any character but ``,`` ``.`` ``-`` ``>`` as a
    subscript (jaxsim: ``"l6g,l6->g"``); numpy and torch take letters only. Such a subscript is named ``sub<code>``
    here (an identifier, as the einops form of the equation needs)."""
    text = "".join(eq.split())
    if text.count("->") > 1:
        raise EquationError("many-arrows")
    if "->" in text:
        left, right = text.split("->")
    else:
        left, right = text, None
    if "-" in left or ">" in left or (right is not None and ("-" in right or ">" in right)):
        raise EquationError("stray-arrow")

    def term(s: str, what: str) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(s):
            c = s[i]
            if c == ".":
                if s[i : i + 3] != "...":
                    raise EquationError("stray-dot", what)
                out.append("...")
                i += 3
                continue
            if c not in _LETTERS:
                if framework != "jax":
                    raise EquationError("invalid-subscript", what, c)
                c = f"sub{ord(c)}"
            out.append(c)
            i += 1
        if out.count("...") > 1:
            raise EquationError("many-ellipses", what)
        return out

    operands = [term(s, f"operand #{i}") for i, s in enumerate(left.split(","))]
    output = None
    if right is not None:
        if "," in right:
            raise EquationError("output-comma")
        output = term(right, "the output")
        seen = {c for op in operands for c in op}
        for c in output:
            if c != "..." and c not in seen:
                raise EquationError("output-unknown", subscript=c)
        letters = [c for c in output if c != "..."]
        if len(letters) != len(set(letters)):
            raise EquationError("output-twice")
    return operands, output


def implicit_output(operands: list[list[str]]) -> list[str]:
    counts: dict[str, int] = {}
    for op in operands:
        for c in op:
            if c != "...":
                counts[c] = counts.get(c, 0) + 1
    out = sorted(c for c, n in counts.items() if n == 1)
    if any("..." in op for op in operands):
        out = ["..."] + out
    return out


def solve(
    eq: str, shapes: Sequence[tuple[Size | int, ...]], framework: str, fresh: Callable[[str], Size] | None = None
) -> tuple[Size, ...] | P.Problem | None:
    """The output shape of the einsum, or the Problem that occurs for every size consistent with ``shapes``; None
    when neither is known (jax taking a repeated letter whose sizes differ, one of them 1; jax's implicit output of
    non-letter subscripts)."""
    try:
        operands, output = parse_equation(eq, framework)
    except EquationError as e:
        return P.Problem("SHP108", {"pattern": eq, "detail": e.detail})
    if len(operands) != len(shapes):
        return P.Problem("SHP108", {"pattern": eq, "detail": D.OperandCount(len(operands), len(shapes), "equation")})
    if output is None:
        if framework == "jax" and any(c.startswith("sub") for op in operands for c in op):
            return None  # jax orders an implicit output of non-letter subscripts its own way
        output = implicit_output(operands)
    has_ell = any("..." in op for op in operands)
    summed_ellipsis = has_ell and "..." not in output
    if summed_ellipsis:  # solved with the ellipsis kept in front, then summed (torch) or rejected (numpy, jax)
        output = ["..."] + output
    pattern = ", ".join(" ".join(op) for op in operands) + " -> " + " ".join(output)
    res = P.infer("einsum", pattern, shapes, fresh=fresh)
    if isinstance(res, P.Problem) and framework == "jax" and _jax_takes_repeat(res):
        return None
    if isinstance(res, P.Problem):
        fields = {
            k: (
                v.replace(f'einsum "{pattern}"', f'{framework_name(framework)}.einsum "{eq}"')
                if isinstance(v, str)
                else v
            )
            for k, v in res.fields.items()
        }
        if "pattern" in fields:
            fields["pattern"] = eq
        for k, v in fields.items():
            # a jax subscript that is no letter, named sub<code> for the solver: shown as written
            axis = getattr(v, "axis", None)
            if is_dataclass(v) and isinstance(axis, str) and axis.startswith("sub") and axis[3:].isdigit():
                fields[k] = replace(v, axis=chr(int(axis[3:])))  # type: ignore[type-var]
        return P.Problem(res.code, fields, res.axis)
    out = tuple(res.outputs[0])
    if summed_ellipsis:
        n_letters = len(output) - 1
        n_ell = len(out) - n_letters
        if n_ell and framework not in ("torch", "jax"):
            return P.Problem(
                "SHP204",
                {"op": f'{framework_name(framework)}.einsum "{eq}"', "detail": D.SummedEllipsis(n_ell, framework)},
            )
        out = out[n_ell:]
    return out


def _jax_takes_repeat(problem: P.Problem) -> bool:
    """jax's einsum takes a letter repeated in one operand whose sizes differ when one of them is 1 (``"ii->i"`` on
    (1, 2) gives (2,); numpy and torch raise): only sizes both known and neither 1 fail there."""
    detail = problem.fields.get("detail")
    if not isinstance(detail, D.AxisSizes) or detail.rule != "repeated":
        return False
    sizes = [x.as_int() if isinstance(x, Size) else x for x in (detail.left, detail.right)]
    return not all(isinstance(x, int) and x != 1 for x in sizes)


def _rank_witness(
    cx: OpContext, eq: str, fw: str, operands: list[Value], parsed: list[list[str]], i: int, rank: int
) -> OpSpec | None:
    """Operand shapes for replaying a rank failure: known shapes, the equation's letters elsewhere, ``rank`` axes at i."""
    if any("..." in term for term in parsed):
        return None
    shapes = []
    letters: dict[str, Size] = {}
    for j, (t, term) in enumerate(zip(operands, parsed)):
        if j == i:
            shapes.append(tuple(cx.ctx.fresh("n") for _ in range(rank)))
        elif isinstance(t, TensorV) and t.shape is not None:
            shapes.append(tuple(t.shape))
        else:
            shapes.append(tuple(letters.setdefault(c, cx.ctx.fresh(c)) for c in term))
    return OpSpec("equation_einsum", einops_pattern(eq, fw), tuple(shapes), (), (("equation", eq), ("framework", fw)))


def einops_pattern(eq: str, framework: str = "") -> str:
    """The einops-style rewrite of a valid equation (explicit output, the ellipsis kept), for witnesses."""
    operands, output = parse_equation(eq, framework)
    if output is None:
        output = implicit_output(operands)
    if any("..." in op for op in operands) and "..." not in output:
        output = ["..."] + output
    return ", ".join(" ".join(op) for op in operands) + " -> " + " ".join(output)


def framework_name(fw: str) -> str:
    return {"numpy": "np", "jax": "jnp"}.get(fw, fw)


@FUNCTIONS.register("einsum")
def call(cx: OpContext, node: cst.Call, qual: str, fw: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``torch.einsum(eq, a, b)``, ``torch.einsum(eq, [a, b])``, ``np.einsum(eq, a, b, optimize=...)``."""
    if not args or not isinstance(args[0], StrV):
        return UNKNOWN  # numpy's sublist form einsum(a, [0, 1], b, [1, 2]), or a dynamic equation
    eq = args[0].value
    operands = list(args[1:])
    if fw == "torch" and len(operands) == 1 and isinstance(operands[0], SeqV) and operands[0].kind in ("list", "tuple"):
        operands = list(operands[0].items)
    if any(
        k not in ("optimize", "precision", "preferred_element_type", "out", "dtype", "casting", "order", "_dot_general")
        for k in kwargs
    ):
        return UNKNOWN
    tensors = [t for t in operands if isinstance(t, TensorV)]
    t0 = tensors[0] if tensors else None
    dtype = t0.dtype if t0 is not None and all(t.dtype == t0.dtype for t in tensors) else None
    fallback = TensorV(None, dtype, fw)
    if any(not isinstance(t, TensorV) for t in operands):
        if any(isinstance(t, SeqV) for t in operands):
            return fallback  # a list converted to an array (numpy), or a shape tuple: not modelled
    try:
        parsed, _ = parse_equation(eq, fw)
    except EquationError:
        parsed = None
    placeholder: Size | None = None
    if (
        parsed is not None
        and len(parsed) == len(operands)
        and any(not isinstance(t, TensorV) or t.shape is None for t in operands)
    ):
        # operands of unknown shape: their shape from the equation (fresh letters shared by the call), so the output
        # is known symbolically; an ellipsis over an unknown number of axes is one placeholder axis, and only when
        # no other operand has an ellipsis (broadcasting aligns the ellipsis axes from the right)
        shapes: list[tuple[Size, ...]] = []
        names: dict[str, Size] = {}
        n_ell_terms = sum(1 for term in parsed if "..." in term)
        for i, (t, term) in enumerate(zip(operands, parsed)):
            if isinstance(t, TensorV) and t.shape is not None:
                shapes.append(t.shape)
                continue
            if isinstance(t, TensorV) and "..." not in term and len(term) in t.not_ranks:
                possible = sorted(set(range(18)) - t.not_ranks)
                cx.ctx.report(
                    node,
                    "SHP201",
                    {
                        "what": f'{framework_name(fw)}.einsum "{eq}"',
                        "expected": str(len(term)),
                        "subject": f"operand #{i}",
                        "actual": str(possible[0]) if len(possible) <= 2 else f"a number other than {len(term)} here",
                    },
                    [
                        "a check on the path that reaches the call (x.ndim, len(x.shape), x.dim(), unpacking x.shape) fixed the rank"
                    ],
                    spec=_rank_witness(cx, eq, fw, operands, parsed, i, next(r for r in possible if r >= 1)),
                )
                return fallback
            if "..." in term:
                if n_ell_terms > 1 or not isinstance(t, TensorV) or t.vshape is None:
                    return fallback
                prefix, _, suffix = t.vshape
                k = term.index("...")
                m = len(term) - k - 1
                if len(prefix) > k or len(suffix) > m:
                    return fallback
                placeholder = cx.ctx.fresh("…")
                shapes.append(
                    tuple(prefix)
                    + tuple(cx.ctx.fresh(c) for c in term[len(prefix) : k])
                    + (placeholder,)
                    + tuple(cx.ctx.fresh(c) for c in term[k + 1 : len(term) - len(suffix)])
                    + tuple(suffix)
                )
                continue
            shape = []
            for c in term:
                if c not in names:
                    names[c] = cx.ctx.fresh(c)
                shape.append(names[c])
            shapes.append(tuple(shape))
    else:
        shapes = [t.shape for t in operands if isinstance(t, TensorV) and t.shape is not None]
        if len(shapes) != len(operands):
            shapes = [(cx.ctx.fresh("n"),)] * len(operands)  # only the operand count can be checked
            known = False
        else:
            known = True
        if not known:
            res = solve(eq, shapes, fw)
            if isinstance(res, P.Problem) and res.code == "SHP108":
                cx.ctx.report(node, res.code, dict(res.fields))
            return fallback
    res = solve(eq, shapes, fw, fresh=lambda n: cx.ctx.fresh(n))
    if res is None:
        return fallback
    if isinstance(res, P.Problem):
        if placeholder is not None and isinstance(res.fields.get("detail"), D.SummedEllipsis):
            return fallback  # the unknown run may be empty
        spec = None
        if res.code.startswith("SHP2") and placeholder is None and parsed is not None:
            spec = OpSpec(
                "equation_einsum",
                einops_pattern(eq, fw),
                tuple(tuple(s) for s in shapes),
                (),
                (("equation", eq), ("framework", fw)),
            )
        cx.ctx.report(node, res.code, dict(res.fields), cx.origins(tensors), spec=spec)
        return fallback
    if placeholder is not None:
        if placeholder not in res:
            return fallback if fw != "torch" else TensorV(tuple(res), dtype, fw)
        i = res.index(placeholder)
        return TensorV(None, dtype, fw, None, None, (tuple(res[:i]), placeholder, tuple(res[i + 1 :])))
    return TensorV(tuple(res), dtype, fw)
