"""linspace / eye / meshgrid / tril_indices / F.pad / tile / gather / index_select / x[mask]: the analyser against torch and numpy.

Each generated expression runs on real arrays; the rendered program annotates the result (or each result of
meshgrid) with the shape the library gave, so a wrong inferred shape is a finding. Nothing may be reported when the
library accepts the call.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck.core import check_source

torch = pytest.importorskip("torch")
F = torch.nn.functional

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


def generate(seed: int) -> tuple[str, tuple[int, ...], str]:
    r = random.Random(seed)
    lib = r.choice(["torch", "np"])
    shape = tuple(r.randint(1, 4) for _ in range(r.randint(1, 3)))
    rank = len(shape)
    ops = ["linspace", "eye", "meshgrid", "tile", "mask"] + (
        ["pad", "gather", "index_select", "mtile", "triangle"] if lib == "torch" else []
    )
    op = r.choice(ops)
    if op == "linspace":
        n = r.randint(0, 6)
        expr = f"{lib}.linspace(0.0, 1.0, {n})" if lib == "torch" or r.random() < 0.5 else f"np.linspace(0, 1, num={n})"
        if lib == "np" and r.random() < 0.3:
            expr = "np.linspace(0, 1)"
    elif op == "eye":
        n, m = r.randint(1, 4), r.randint(1, 4)
        expr = r.choice([f"{lib}.eye({n})", f"{lib}.eye({n}, {m})"])
    elif op == "meshgrid":
        sizes = [r.randint(1, 4) for _ in range(r.randint(1, 3))]
        parts = ", ".join(f"{lib}.arange({s})" for s in sizes)
        indexing = r.choice(["", ", indexing='ij'", ", indexing='xy'"])
        if lib == "torch" and not indexing:
            indexing = ", indexing='ij'"
        expr = f"{lib}.meshgrid({parts}{indexing})"
    elif op in ("tile", "mtile"):
        reps = tuple(r.randint(1, 3) for _ in range(r.randint(1, 4)))
        expr = f"x.tile({reps!r})" if op == "mtile" else f"{lib}.tile(x, {reps!r})"
    elif op == "pad":
        k = r.randint(1, rank)
        pads = tuple(r.randint(0, 2) for _ in range(2 * k))
        expr = f"F.pad(x, {pads!r})"
    elif op == "gather":
        dim = r.randint(-rank, rank - 1)
        idx = tuple(r.randint(1, s) for s in shape)
        expr = f"x.gather({dim}, torch.zeros({idx!r}, dtype=torch.long))"
    elif op == "triangle":
        which = r.choice(["tril_indices", "triu_indices"])
        n, m, k = r.randint(0, 6), r.randint(0, 6), r.randint(-7, 7)
        expr = r.choice(
            [f"torch.{which}({n}, {m}, {k})", f"torch.{which}({n}, {m})", f"torch.{which}({n}, {m}, offset={k})"]
        )
    elif op == "index_select":
        dim = r.randint(-rank, rank - 1)
        expr = f"x.index_select({dim}, torch.zeros({r.randint(1, 5)}, dtype=torch.long))"
    else:
        expr = "x[x > 0]" if r.random() < 0.5 else "x[x <= 0.5]"
    return lib, shape, expr


def make(lib: str, shape: tuple[int, ...]) -> str:
    return f"torch.rand({shape!r})" if lib == "torch" else f"np.random.rand(*{shape!r})"


def render(lib: str, shape: tuple[int, ...], expr: str, shapes: list[tuple[int, ...]]) -> str:
    array = "torch.Tensor" if lib == "torch" else "np.ndarray"
    lines = [
        "import numpy as np",
        "import torch",
        "import torch.nn.functional as F",
        "from jaxtyping import Shaped",
        "",
        "",
        "def f():",
        f"    x = {make(lib, shape)}",
        f"    r = {expr}",
    ]
    if "meshgrid" in expr:
        for i, s in enumerate(shapes):
            lines.append(f"    p{i}: Shaped[{array}, {' '.join(map(str, s))!r}] = r[{i}]")
    elif "[x" not in expr:  # a mask's selected length is data-dependent: only the rank is checked below
        lines.append(f"    p: Shaped[{array}, {' '.join(map(str, shapes[0]))!r}] = r")
    else:
        lines.append(f"    p: Shaped[{array}, {' '.join(['n'] + [str(s) for s in shapes[0][1:]])!r}] = r")
    lines.append("    return r")
    return "\n".join(lines) + "\n"


@settings(max_examples=300, **SETTINGS)
@given(st.integers(0, 2**32 - 1))
def test_shapes_agree_with_the_library(seed: int) -> None:
    lib, shape, expr = generate(seed)
    x = torch.rand(shape) if lib == "torch" else np.random.rand(*shape)
    out = eval(expr, {"torch": torch, "np": np, "F": F, "x": x})  # the generator's own expression on a real array
    shapes = [tuple(t.shape) for t in out] if "meshgrid" in expr else [tuple(out.shape)]
    src = render(lib, shape, expr, shapes)
    found = [(f.line, f.code, f.message) for f in check_source(src, "gen.py") if f.code[:4] in ("SHP1", "SHP2", "SHP9")]
    assert not found, (src, shapes, found)


def test_a_wrong_annotation_is_caught() -> None:
    """The rendered annotation is checked: a deliberately wrong shape is reported (so the test above is not vacuous)."""
    src = render("torch", (2, 3), "torch.eye(4, 5)", [(5, 4)])
    assert any(f.code.startswith("SHP2") for f in check_source(src, "gen.py"))
