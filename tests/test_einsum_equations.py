"""torch.einsum / np.einsum / jnp.einsum equation strings: static verdicts against the real libraries (issue 13,
item 2).

Generated equations (implicit and explicit outputs, ellipses, repeated letters, size-1 broadcasting, wrong ranks,
bad subscripts) on concrete shapes.  For each, torch, numpy and jax run the call (the solver's verdict; the rendered
programs use torch and numpy); shapecheck must report an error exactly
when the library raises, and otherwise give the library's result shape -- both from the equation solver and from the
whole analyser on a rendered program (a finding on the call line iff the call raises, and a wrong inferred result
shape would be reported on an annotated assignment of the real result shape).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck import pattern as P
from shapecheck.analysis.rules.einsum_eq import solve
from shapecheck.core import check_source

torch = pytest.importorskip("torch")
jnp = pytest.importorskip("jax.numpy")

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
LETTERS = "abcdAB"


def generate(seed: int) -> tuple[str, list[tuple[int, ...]]]:
    r = random.Random(seed)
    sizes = {c: r.choice([1, 2, 3, 4]) for c in LETTERS}
    n_ops = r.choice([1, 2, 2, 3])
    ell_sizes = [r.choice([1, 2, 3]) for _ in range(r.choice([0, 1, 2]))]
    terms, shapes = [], []
    for _ in range(n_ops):
        k = r.choice([0, 1, 2, 3])
        term = [r.choice(LETTERS) for _ in range(k)]
        shape = [sizes[c] for c in term]
        if r.random() < 0.1 and term:  # the diagonal of a repeated letter
            term.append(term[0])
            shape.append(sizes[term[0]] if r.random() < 0.7 else sizes[term[0]] + 1)
        if r.random() < 0.35:
            pos = r.randint(0, len(term))
            e = ell_sizes[r.randint(0, len(ell_sizes)) :] if ell_sizes else []
            if e and r.random() < 0.3:
                e = [1] * len(e)
            term.insert(pos, "...")
            shape[pos:pos] = e
        if r.random() < 0.15 and shape:  # a mismatched size
            i = r.randrange(len(shape))
            shape[i] = r.choice([1, 2, 3, 5])
        if r.random() < 0.08:  # a wrong rank
            shape = shape + [2] if r.random() < 0.5 else shape[:-1]
        terms.append("".join(term))
        shapes.append(tuple(shape))
    eq = ",".join(terms)
    if r.random() < 0.6:
        used = sorted({c for t in terms for c in t if c != "."})
        out = [c for c in used if r.random() < 0.6]
        r.shuffle(out)
        if any("..." in t for t in terms) and r.random() < 0.8:
            out.insert(r.randint(0, len(out)), "...")
        if r.random() < 0.08:
            out.append(r.choice(LETTERS))  # maybe absent, maybe repeated
        eq += "->" + "".join(out)
    if r.random() < 0.05:
        eq = eq.replace(",", ", ", 1) if r.random() < 0.5 else eq + "1"
    if r.random() < 0.05:
        shapes = shapes[:-1] or shapes + [(2,)]
    return eq, shapes


def run(lib: str, eq: str, shapes: list[tuple[int, ...]]) -> tuple[str, tuple[int, ...] | str]:
    try:
        if lib == "torch":
            out = torch.einsum(eq, *[torch.zeros(s) for s in shapes])
        elif lib == "jax":
            out = jnp.einsum(eq, *[jnp.zeros(s) for s in shapes])
        else:
            out = np.einsum(eq, *[np.zeros(s) for s in shapes])
    except Exception as e:  # noqa: BLE001 - the library's verdict
        return "raise", f"{type(e).__name__}: {str(e)[:120]}"
    return "ok", tuple(out.shape)


def static(lib: str, eq: str, shapes: list[tuple[int, ...]]) -> tuple[str, tuple[int, ...] | str]:
    res = solve(eq, shapes, lib)
    if res is None:
        return "unknown", ""
    if isinstance(res, P.Problem):
        return "raise", res.message()
    return "ok", tuple(int(x.as_int()) for x in res)  # type: ignore[arg-type]


@settings(max_examples=1500, **SETTINGS)
@given(st.integers(0, 2**32 - 1))
def test_solver_agrees_with_torch_numpy_and_jax(seed: int) -> None:
    eq, shapes = generate(seed)
    for lib in ("torch", "numpy", "jax"):
        want = run(lib, eq, shapes)
        got = static(lib, eq, shapes)
        if got[0] == "unknown":  # not decided (jax's repeated letters of size 1, its non-letter subscripts): silence
            assert lib == "jax", (lib, eq, shapes, want)
            continue
        assert got[0] == want[0] and (got[0] == "raise" or got[1] == want[1]), (lib, eq, shapes, want, got)


def render(lib: str, eq: str, shapes: list[tuple[int, ...]], result: tuple[int, ...] | None) -> str:
    mod = "torch" if lib == "torch" else "np"
    make = (lambda s: f"torch.zeros({s!r})") if lib == "torch" else (lambda s: f"np.zeros({s!r})")
    lines = ["import numpy as np", "import torch", "from jaxtyping import Float", "", "", "def f():"]
    for i, s in enumerate(shapes):
        lines.append(f"    x{i} = {make(s)}")
    operands = ", ".join(f"x{i}" for i in range(len(shapes)))
    lines.append(f"    y = {mod}.einsum({eq!r}, {operands})")
    if result is not None:
        dims = " ".join(map(str, result))
        array = "torch.Tensor" if lib == "torch" else "np.ndarray"
        lines.append(f"    z: Float[{array}, {dims!r}] = y")
    lines.append("    return y")
    return "\n".join(lines) + "\n"


@settings(max_examples=300, **SETTINGS)
@given(st.integers(0, 2**32 - 1))
def test_analyser_agrees_on_rendered_programs(seed: int) -> None:
    eq, shapes = generate(seed)
    for lib in ("torch", "numpy"):
        kind, out = run(lib, eq, shapes)
        src = render(lib, eq, shapes, out if kind == "ok" else None)  # type: ignore[arg-type]
        call_line = 7 + len(shapes)
        found = [f for f in check_source(src, "gen.py") if f.code[:4] in ("SHP1", "SHP2", "SHP9")]
        on_call = [f for f in found if f.line == call_line]
        elsewhere = [f for f in found if f.line != call_line]
        assert not elsewhere, (lib, src, [(f.line, f.code, f.message) for f in elsewhere])
        assert bool(on_call) == (kind == "raise"), (lib, src, out, [(f.code, f.message) for f in on_call])


@pytest.mark.parametrize(
    "eq, shapes, torch_shape, numpy_shape",
    [
        ("ij,jk", [(2, 3), (3, 4)], (2, 4), (2, 4)),
        ("bA", [(2, 3)], (3, 2), (3, 2)),
        ("ii", [(3, 3)], (), ()),
        ("...ij->ij", [(5, 2, 3)], (2, 3), None),
        ("...ij,...jk", [(5, 2, 3), (1, 3, 4)], (5, 2, 4), (5, 2, 4)),
        ("ij,jk->ik", [(2, 1), (3, 4)], (2, 4), (2, 4)),
    ],
)
def test_known_equations(eq: str, shapes: list, torch_shape: tuple | None, numpy_shape: tuple | None) -> None:
    for lib, want in (("torch", torch_shape), ("numpy", numpy_shape)):
        for verdict in (run(lib, eq, shapes), static(lib, eq, shapes)):
            if want is None:
                assert verdict[0] == "raise"
            else:
                assert verdict == ("ok", want)
