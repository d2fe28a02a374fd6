"""flax's pooling functions (``nn.max_pool`` / ``avg_pool`` / ``min_pool``, linen and nnx): the output shape inferred
for each generated call is the one flax computes when the same source runs (flax is the oracle; the analyser never
imports or runs the source)."""

from __future__ import annotations

import itertools
import random

import pytest

from shapecheck.analysis.editor.hover import inferred_values

from _shape_oracle import assert_inferred_shape_is_the_frameworks

jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("flax")


def _cases() -> list[tuple[str, tuple[int, ...]]]:
    rng = random.Random(20261203)
    out = []
    for ns, fn, n, batch in itertools.product(("nn", "nnx"), ("max_pool", "avg_pool", "min_pool"), (1, 2), (0, 1, 2)):
        if (ns, fn) == ("nn", "min_pool"):
            continue  # linen exports it only as flax.linen.pooling.min_pool
        for _ in range(3):
            spatial = tuple(rng.randint(3, 17) for _ in range(n))
            shape = (2,) * batch + spatial + (rng.choice((1, 5)),)
            window = tuple(rng.randint(1, 3) for _ in range(n))
            args = [f"x, {window!r}"]
            stride = rng.choice((None, tuple(rng.randint(1, 3) for _ in range(n))))
            if stride is not None:
                args.append(f"strides={stride!r}")
            pad = rng.choice(('"SAME"', '"VALID"', None, "explicit"))
            if pad == "explicit":
                if batch != 1:
                    continue  # flax pads one leading axis: other batch ranks fail there
                pad = repr(tuple((rng.randint(0, 2), rng.randint(0, 2)) for _ in range(n)))
            if pad is not None:
                args.append(f"padding={pad}")
            out.append((f"{ns}.{fn}({', '.join(args)})", shape))
    return out


HEADER = "import jax.numpy as jnp\nimport flax.linen as nn\nfrom flax import nnx\n"


@pytest.mark.parametrize("expr, shape", _cases())
def test_inferred_pool_shape_is_flaxs(expr: str, shape: tuple[int, ...]) -> None:
    assert_inferred_shape_is_the_frameworks(HEADER + f"x = jnp.ones({shape!r})\n", expr, "pool_case.py")


def test_hybrid_vit_position_table_ignoring_the_pool_is_reported() -> None:
    """A stride-2 SAME max pool between the stem and the patchify conv: the token count is the pooled one."""
    src = HEADER + (
        "x = jnp.ones((4, 32, 32, 8))\n"
        'y = nn.max_pool(x, (3, 3), strides=(2, 2), padding="SAME")\n'
        "z = y.reshape(4, 16 * 16, 8) + jnp.ones((1, 32 * 32, 8))\n"
    )
    _, findings = inferred_values(src, "pool_case.py")
    assert [f.code for f in findings] == ["SHP204"] and "256 against 1024" in findings[0].message
