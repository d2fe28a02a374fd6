"""``jax.vmap(f)(x)`` and ``eqx.filter_vmap(f)(x)``: ``f`` runs on one slice of axis 0 and its results get the axis
back. The shape inferred for each call below is the shape jax computes when the same source runs."""

from __future__ import annotations

import pytest

from shapecheck.analysis.editor.hover import inferred_values
from shapecheck.analysis.interpret.values import TensorV

from _shape_oracle import assert_inferred_shape_is_the_frameworks

jax = pytest.importorskip("jax")
eqx = pytest.importorskip("equinox")

HEADER = """import jax
import jax.numpy as jnp
import equinox as eqx

lin = eqx.nn.Linear(8, 4, key=jax.random.PRNGKey(0))


def matvec(a, b):
    return a @ b


def pair(a):
    return a * 2, a.sum(axis=-1)


def scale(a, s):
    return a * s


cell = eqx.nn.GRUCell(8, 6, key=jax.random.PRNGKey(1))
mha = eqx.nn.MultiheadAttention(2, 8, key_size=6, value_size=5, output_size=3, key=jax.random.PRNGKey(2))
self_mha = eqx.nn.MultiheadAttention(2, 8, key=jax.random.PRNGKey(3))
k1, *rest = jax.random.split(jax.random.PRNGKey(4), 4)


def step(h, x):
    h = cell(x, h)
    return h, (h, x.sum())


def cumulative(c, xs):
    a, b = xs
    return c + a @ b, a


def loss(w, x):
    return jnp.sum((x @ w) ** 2)


def loss_aux(w, x):
    y = x @ w
    return jnp.sum(y), y
"""

CASES = [
    "jax.vmap(lin)(jnp.ones((5, 8)))",
    "eqx.filter_vmap(lin)(jnp.ones((5, 8)))",
    "jax.vmap(matvec)(jnp.ones((3, 4, 5)), jnp.ones((3, 5, 6)))",
    "jax.vmap(scale)(jnp.ones((3, 4)), s=jnp.ones((3, 1)))",  # a keyword argument: mapped over axis 0
    "jax.vmap(scale, in_axes=(None,))(jnp.ones((4,)), s=jnp.ones((3, 4)))",
    "jax.vmap(matvec, in_axes=0, out_axes=0)(jnp.ones((3, 4, 5)), jnp.ones((3, 5)))",
    "jax.vmap(pair)(jnp.ones((3, 4, 5)))[0]",
    "jax.vmap(pair)(jnp.ones((3, 4, 5)))[1]",
    "jax.vmap(jax.vmap(matvec))(jnp.ones((2, 3, 4, 5)), jnp.ones((2, 3, 5)))",
    "jax.vmap(matvec, in_axes=(0, None))(jnp.ones((3, 4, 5)), jnp.ones((5, 6)))",
    "jax.vmap(matvec, (None, 0))(jnp.ones((4, 5)), jnp.ones((3, 5, 6)))",
    "jax.vmap(matvec, in_axes=[1, None])(jnp.ones((4, 3, 5)), jnp.ones((5, 6)))",
    "jax.vmap(matvec, in_axes=1)(jnp.ones((4, 3, 5)), jnp.ones((5, 3, 6)))",
    "jax.vmap(matvec, in_axes=-1)(jnp.ones((4, 5, 3)), jnp.ones((5, 6, 3)))",
    "jax.vmap(matvec, in_axes=(0, None))(jnp.ones((3, 4, 5)), jnp.ones((3, 5, 6)))",  # the batch stays inside
    "jax.vmap(scale, in_axes=(0, None))(jnp.ones((3, 4)), 2.0)",
    "eqx.filter_vmap(scale)(jnp.ones((3, 4)), 2.0)",
    "eqx.filter_vmap(matvec, in_axes=(0, None))(jnp.ones((3, 4, 5)), jnp.ones((5, 6)))",
    "eqx.filter_vmap(matvec, in_axes=1)(jnp.ones((4, 3, 5)), jnp.ones((5, 3, 6)))",
    "jax.vmap(lin)(jax.random.normal(jax.random.PRNGKey(0), (5, 8)))",
    "jax.random.uniform(jax.random.PRNGKey(0), shape=(3, 2))",
    "jax.random.randint(jax.random.PRNGKey(0), (4,), 0, 9)",
    "jax.random.normal(jax.random.PRNGKey(0), 3)",
    "jax.random.split(jax.random.key(0), 3)",
    "jax.random.split(jax.random.key(0), (2, 3))",
    "jnp.stack([jnp.ones(c) * k[0] for c, k in zip((3, 3, 3), jax.random.split(jax.random.PRNGKey(0)))])",
    "cell(jnp.ones(8), jnp.zeros(6))",
    "jax.lax.scan(step, jnp.zeros(6), jnp.ones((10, 8)))[0]",
    "jax.lax.scan(step, jnp.zeros(6), jnp.ones((10, 8)))[1][0]",
    "jax.lax.scan(step, jnp.zeros(6), jnp.ones((10, 8)), reverse=True)[1][1]",
    "jax.lax.scan(cumulative, jnp.zeros((4,)), (jnp.ones((7, 4, 3)), jnp.ones((7, 3))))[1]",
    # transforms: jit runs f as it is; grad / value_and_grad run f and give the gradient the argument's shape
    "jax.jit(matvec)(jnp.ones((4, 5)), jnp.ones((5, 6)))",
    "eqx.filter_jit(matvec)(jnp.ones((4, 5)), jnp.ones((5, 6)))",
    "jax.grad(loss)(jnp.ones((5, 3)), jnp.ones((4, 5)))",
    "jax.grad(loss, argnums=1)(jnp.ones((5, 3)), jnp.ones((4, 5)))",
    "jax.value_and_grad(loss)(jnp.ones((5, 3)), jnp.ones((4, 5)))[0]",
    "jax.value_and_grad(loss)(jnp.ones((5, 3)), jnp.ones((4, 5)))[1]",
    "jax.value_and_grad(loss_aux, has_aux=True)(jnp.ones((5, 3)), jnp.ones((4, 5)))[0][1]",
    "jax.grad(loss_aux, has_aux=True)(jnp.ones((5, 3)), jnp.ones((4, 5)))[1]",
    "jax.grad(loss_aux, has_aux=True)(jnp.ones((5, 3)), jnp.ones((4, 5)))[0]",
    "jax.grad(loss)({'w': jnp.ones((5, 3))}['w'], jnp.ones((4, 5)))",
    # integer-array indexing (a gather), a broadcast comparison, math of a Python number
    "jnp.ones((10, 3))[jnp.zeros((2, 4), dtype=jnp.int32)]",
    "jnp.ones((3, 10, 2))[:, jax.random.randint(jax.random.PRNGKey(0), (4,), 0, 9)]",
    "jnp.ones((3, 10, 2))[None, ..., jnp.zeros((5,), dtype=jnp.int32)]",
    # an int next to an integer array index: advanced indexes separated by a slice go first (numpy's rule)
    "jnp.ones((3, 10, 2))[0, :, jnp.zeros((5,), dtype=jnp.int32)]",
    "jnp.arange(6)[None, :] < jnp.ones((4,))[:, None]",
    "jnp.ones((2, 3)) / jnp.sqrt(3)",
    # equinox attention: key / value / output sizes default to query_size
    "mha(jnp.ones((4, 8)), jnp.ones((7, 6)), jnp.ones((7, 5)))",
    "self_mha(jnp.ones((4, 8)), jnp.ones((7, 8)), jnp.ones((7, 8)))",
    "jax.vmap(self_mha)(jnp.ones((2, 4, 8)), jnp.ones((2, 7, 8)), jnp.ones((2, 7, 8)))",
    # a starred unpacking of the rows of an array of known length
    "jnp.ones((len(rest), 2))",
    "jnp.ones((len([k1, *rest]), 1))",
    "jnp.ones((len([k for k in jax.random.split(jax.random.PRNGKey(0), 3)]), 2))",
    "jnp.stack([jnp.ones(2) for k in jax.random.split(jax.random.PRNGKey(0), 5)])",
    # out_axes as one int, eqx.if_array in filter_vmap's in_axes
    "jax.vmap(matvec, in_axes=(0, None), out_axes=1)(jnp.ones((3, 4, 5)), jnp.ones((5, 6)))",
    "eqx.filter_vmap(matvec, in_axes=(eqx.if_array(0), None))(jnp.ones((3, 4, 5)), jnp.ones((5, 6)))",
]


@pytest.mark.parametrize("expr", CASES)
def test_inferred_shape_is_jaxs(expr: str) -> None:
    assert_inferred_shape_is_the_frameworks(HEADER, expr, "vmap_case.py")


@pytest.mark.parametrize(
    "expr",
    [
        "jax.vmap(matvec, in_axes=(0,))(jnp.ones((3, 4, 5)), jnp.ones((3, 5, 6)))",  # one entry short: jax raises
        "jax.vmap(matvec, in_axes=(None, None))(jnp.ones((4, 5)), jnp.ones((5, 6)))",  # nothing mapped: jax raises
        "jax.vmap(scale, in_axes=0)(jnp.ones((3, 4)), 2.0)",  # a float mapped: jax raises
        "jax.vmap(matvec, in_axes=({'a': 0}, None))(jnp.ones((3, 4, 5)), jnp.ones((5, 6)))",  # a pytree spec
    ],
)
def test_other_mappings_are_unknown(expr: str) -> None:
    values, findings = inferred_values(HEADER + f"y = {expr}\n", "vmap_case.py")
    assert not findings
    y = values.get("y")
    assert not (isinstance(y, TensorV) and y.shape is not None)


@pytest.mark.parametrize(
    "expr",
    [
        "jax.vmap(matvec)(jnp.ones((3, 4, 5)), jnp.ones((2, 5, 6)))",
        "jax.vmap(matvec, in_axes=(0, 2))(jnp.ones((3, 4, 5)), jnp.ones((5, 6, 1)))",  # a size of 1 is not broadcast
        "eqx.filter_vmap(matvec)(jnp.ones((3, 4, 5)), jnp.ones((2, 5, 6)))",
    ],
)
def test_mapped_sizes_that_differ_are_reported(expr: str) -> None:
    """jax raises "vmap got inconsistent sizes for array axes to be mapped": an SHP204 at the call."""
    src = HEADER + f"y = {expr}\n"
    _, findings = inferred_values(src, "vmap_case.py")
    assert [f.code for f in findings] == ["SHP204"] and "mapped axes differ" in findings[0].message
    with pytest.raises(ValueError, match="inconsistent sizes"):
        exec(src, {})
