"""flax linen attention (``nn.SelfAttention``, ``nn.MultiHeadDotProductAttention``, ``nn.MultiHeadAttention``): the
output shape inferred for each call below is the one flax computes when the same source runs, and a call flax rejects
(qkv_features not divisible by num_heads) is the one reported."""

from __future__ import annotations

import warnings

import pytest

from shapecheck.analysis.editor.hover import inferred_values
from shapecheck.analysis.interpret.values import TensorV

jax = pytest.importorskip("jax")
pytest.importorskip("flax")

TEMPLATE = """import jax
import jax.numpy as jnp
import flax.linen as nn


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        return {expr}


x = jnp.ones({shape})
m = Block()
y = m.apply(m.init(jax.random.PRNGKey(0), x), x)
"""

CASES = [
    ("nn.SelfAttention(num_heads=4)(x)", (2, 5, 16)),
    ("nn.SelfAttention(num_heads=4, qkv_features=32, out_features=8)(x)", (2, 5, 16)),
    ("nn.SelfAttention(2, out_features=6)(x)", (3, 2, 5, 16)),
    ("nn.MultiHeadDotProductAttention(num_heads=2, out_features=6)(x, x[:, :3])", (2, 5, 16)),
    ("nn.MultiHeadDotProductAttention(num_heads=2)(x, jnp.ones((2, 7, 10)))", (2, 5, 16)),
    ("nn.MultiHeadAttention(num_heads=4, qkv_features=8)(x)", (2, 5, 12)),
    ("nn.MultiHeadDotProductAttention(num_heads=3, qkv_features=12, out_features=None)(x, x)", (4, 10)),
]


def _run(src: str):  # the oracle: flax itself
    env: dict[str, object] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(src, env)
    return env["y"]


@pytest.mark.parametrize("expr, shape", CASES)
def test_inferred_shape_is_flaxs(expr: str, shape: tuple[int, ...]) -> None:
    src = TEMPLATE.format(expr=expr, shape=shape)
    values, findings = inferred_values(src, "linen_attention_case.py")
    assert not findings, [f.message for f in findings]
    y = values.get("y")
    assert isinstance(y, TensorV) and y.shape is not None, f"no shape inferred for {expr}: {y}"
    assert tuple(s.as_int() for s in y.shape) == tuple(_run(src).shape)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "expr, shape",
    [
        ("nn.SelfAttention(num_heads=3)(x)", (2, 5, 16)),  # 16 features in 3 heads
        ("nn.SelfAttention(num_heads=4, qkv_features=30)(x)", (2, 5, 16)),
        ("nn.MultiHeadDotProductAttention(num_heads=5, out_features=16)(x, x)", (2, 5, 16)),
    ],
)
def test_heads_that_do_not_divide_qkv_features_are_reported(expr: str, shape: tuple[int, ...]) -> None:
    src = TEMPLATE.format(expr=expr, shape=shape)
    _, findings = inferred_values(src, "linen_attention_case.py")
    # reported at m.init(...) and at m.apply(...): each runs __call__
    assert findings and {f.code for f in findings} == {"SHP204"}, [f.message for f in findings]
    assert all("is not divisible by num_heads" in f.message for f in findings)
    with pytest.raises(AssertionError, match="divisible by number of heads"):
        _run(src)


def test_unknown_sizes_are_silent() -> None:
    expr = "nn.SelfAttention(num_heads=x.shape[0], qkv_features=x.shape[1] * 3)(x)"
    src = TEMPLATE.format(expr=expr, shape="(2, 5, 16)").replace("x = jnp.ones((2, 5, 16))", "x = jnp.ones(shape)")
    values, findings = inferred_values(src, "linen_attention_case.py")
    assert not findings, [f.message for f in findings]


MASK_TEMPLATE = """import jax.numpy as jnp
import flax.linen as nn

q = jnp.ones({q})
k = jnp.ones({k})
y = {expr}
"""

MASK_CASES = [
    ("nn.make_causal_mask(q)", (3, 7), (3, 7)),
    ("nn.make_causal_mask(q)", (3, 7, 16), (3, 7)),  # an activation: every axis but the last is a batch axis
    ("nn.make_causal_mask(q, extra_batch_dims=2)", (7,), (7,)),
    ("nn.make_attention_mask(q, k)", (3, 7), (3, 5)),
    ("nn.make_attention_mask(q, k, jnp.greater_equal)", (3, 1, 7), (2, 5)),
    ("nn.make_attention_mask(q > 0, k > 0, jnp.logical_and, 1)", (3, 7), (1, 5)),
    ("nn.make_attention_mask(query_input=q, key_input=k, extra_batch_dims=1)", (7,), (5,)),
]


@pytest.mark.parametrize("expr, q, k", MASK_CASES)
def test_mask_helper_shape_is_flaxs(expr: str, q: tuple[int, ...], k: tuple[int, ...]) -> None:
    src = MASK_TEMPLATE.format(expr=expr, q=q, k=k)
    values, findings = inferred_values(src, "linen_mask_case.py")
    assert not findings, [f.message for f in findings]
    y = values.get("y")
    assert isinstance(y, TensorV) and y.shape is not None, f"no shape inferred for {expr}: {y}"
    assert tuple(s.as_int() for s in y.shape) == tuple(_run(src).shape)  # type: ignore[attr-defined]
