"""``linalg.solve(a, b)`` of numpy, torch and JAX against the frameworks themselves, in both directions.

A grid of shapes (square and non-square a, batches, 1-d b, a batch of vectors, stacks of matrices, broadcasting
batches, one wrong size) is analysed (never executed) and run for real, with a never singular a (ones + identity):

* the call raises  <=>  the analyser reports SHP204 on it (its kind "solve");
* the call runs    ->   the analyser's shape, when it gives one, is the result's.

numpy >= 2 and JAX >= 0.5 read only a 1-d b as a vector; torch also reads a b of a's shape without its last axis
as a batch of vectors (dynamax issue #389: a solve written for the old reading fails under JAX 0.5).
"""

from __future__ import annotations

import itertools

import pytest

from shapecheck.analysis.editor.hover import inferred_values
from shapecheck.analysis.interpret.values import TensorV

LIBS = {
    "numpy": ("import numpy as np", "np"),
    "torch": ("import torch", "torch"),
    "jax": ("import jax.numpy as jnp", "jnp"),
}


def _shapes() -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    out = []
    for n, batch in itertools.product((2, 3), ((), (4,), (3, 1))):
        for a in (batch + (n, n), batch + (n, n + 1)):
            for b in (
                (n,),
                (n + 1,),
                batch + (n,),
                batch + (n + 1,),
                (n, 2),
                (n + 1, 2),
                batch + (n, 1),
                (5,) + batch + (n, 2),
                (2,) * len(batch) + (n, 1),
            ):
                out.append((a, b))
    return out


def _source(fw: str, a: tuple[int, ...], b: tuple[int, ...]) -> str:
    imp, m = LIBS[fw]
    eye = f" + {m}.eye({a[-1]})" if a[-1] == a[-2] else ""
    return f"{imp}\n\na = {m}.ones({a}){eye}\nb = {m}.ones({b})\nout = {m}.linalg.solve(a, b)\n"


@pytest.mark.parametrize("fw", sorted(LIBS))
def test_solve_agrees_with_the_framework(fw: str) -> None:
    pytest.importorskip({"numpy": "numpy", "torch": "torch", "jax": "jax"}[fw])
    disagreements = []
    raised = ran = 0
    for a, b in _shapes():
        src = _source(fw, a, b)
        ns: dict = {}
        try:
            exec(compile(src, "<solve case>", "exec"), ns)  # noqa: S102 - our own generated snippet
            real = tuple(ns["out"].shape)
        except Exception as exc:  # the framework rejects the shapes (a is never singular)
            real, why = None, f"{type(exc).__name__}: {str(exc)[:100]}"
        values, findings = inferred_values(src, "solve_case.py")
        flagged = [f for f in findings if f.code == "SHP204" and f.field_value("detail").kind == "solve"]
        assert not [f for f in findings if f.code[:4] in ("SHP1", "SHP9")], (src, findings)
        if real is None:
            raised += 1
            if not flagged:
                disagreements.append(f"{fw} solve{a, b}: raises ({why}), no SHP204")
            continue
        ran += 1
        if flagged:
            disagreements.append(f"{fw} solve{a, b}: runs -> {real}, but {flagged[0].message}")
        out = values.get("out")
        if isinstance(out, TensorV) and out.shape is not None:
            claimed = tuple(s.as_int() for s in out.shape)
            if claimed != real:
                disagreements.append(f"{fw} solve{a, b}: analyser {claimed}, runtime {real}")
    assert not disagreements, "\n".join(disagreements)
    assert raised > 20 and ran > 20  # both directions exercised


def test_the_stacked_reading_is_named_in_the_message() -> None:
    """The JAX >= 0.5 / numpy >= 2 reading (a 2-d b is a matrix) is what the message explains, with the fix."""
    _, findings = inferred_values(_source("jax", (5, 2, 2), (5, 2)), "solve_case.py")
    (f,) = [f for f in findings if f.code == "SHP204"]
    assert "(5, 2, 2) has 2 columns but the right-hand side (5, 2) has 5 rows" in f.message
    assert "stack of matrices since numpy 2.0 and JAX 0.5" in f.message and "b[..., None]" in f.message
    _, findings = inferred_values(_source("torch", (5, 2, 2), (5, 2)), "solve_case.py")
    assert not findings  # torch: a batch of vectors
