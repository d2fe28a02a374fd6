"""haiku's pooling functions (``hk.max_pool`` / ``hk.avg_pool``): the output shape inferred for each generated call is
the one haiku computes when the same source runs (haiku is the oracle; the analyser never imports or runs the
source). Window and strides as an int (every axis but the first and the channel axis), a shorter sequence (padded
with 1s in front) or one per axis; SAME and VALID padding; another channel axis."""

from __future__ import annotations

import random

import pytest

from _shape_oracle import assert_inferred_shape_is_the_frameworks

pytest.importorskip("jax.numpy")
pytest.importorskip("haiku")


def _spec(rng: random.Random, rank: int) -> str:
    form = rng.choice(("int", "short", "full"))
    if form == "int":
        return str(rng.randint(1, 3))
    n = rank - 1 if form == "short" else rank
    sizes = [rng.randint(1, 3) for _ in range(n)]
    if form == "full":
        sizes[0] = 1
    return repr(tuple(sizes))


def _cases() -> list[tuple[str, tuple[int, ...]]]:
    rng = random.Random(20261207)
    out = []
    for fn in ("max_pool", "avg_pool"):
        for rank in (3, 4):
            for _ in range(8):
                shape = (2,) + tuple(rng.randint(4, 13) for _ in range(rank - 2)) + (rng.choice((1, 3)),)
                pad = rng.choice(('"SAME"', '"VALID"'))
                args = f"x, {_spec(rng, rank)}, {_spec(rng, rank)}, {pad}"
                if rng.random() < 0.25:
                    args += ", channel_axis=1"
                out.append((f"hk.{fn}({args})", shape))
    return out


HEADER = "import jax.numpy as jnp\nimport haiku as hk\n"


@pytest.mark.parametrize("expr, shape", _cases())
def test_inferred_pool_shape_is_haikus(expr: str, shape: tuple[int, ...]) -> None:
    assert_inferred_shape_is_the_frameworks(HEADER + f"x = jnp.ones({shape!r})\n", expr, "pool_case.py")
