"""SHP301-SHP303: what is reported, the quantified messages, and the safe forms that stay silent."""

from __future__ import annotations

import textwrap

import pytest

from shapecheck.core import check_source
from shapecheck.diagnostics import get

HEADER = """\
import numpy as np
import torch
from einops import reduce
from jaxtyping import BFloat16, Float16, Float32
from torch import Tensor
"""


def run(body: str) -> list:
    return [f for f in check_source(HEADER + textwrap.dedent(body), "m.py") if f.code.startswith("SHP3")]


def codes(body: str) -> list[str]:
    return [f.code for f in run(body)]


def test_issue_example_message_is_quantified() -> None:
    (f,) = run("""
        def f(x: Float16[Tensor, "b c 224 224"]):
            return reduce(x, "b c h w -> b c", "sum")
    """)
    assert f.code == "SHP301"
    assert "sums 50,176 float16 values (h*w = 224*224)" in f.message
    assert "the result is inf once their mean magnitude exceeds 1.3" in f.message
    assert "float16 holds integers exactly only up to 2,048" in f.message


def test_single_axis_count_and_threshold() -> None:
    (f,) = run("""
        def f(x: Float16[Tensor, "b 4096"]):
            return x.sum(-1)
    """)
    assert "sums 4,096 float16 values" in f.message
    assert "exceeds 16;" in f.message  # 65504 / 4096 = 15.99


def test_symbolic_count() -> None:
    (f,) = run("""
        def f(x: Float16[Tensor, "b n"]):
            return x.sum(1)
    """)
    assert "sums n float16 values" in f.message and "65,504/(n)" in f.message


def test_numpy_message_mentions_float16_accumulation() -> None:
    (f,) = run("""
        def f(a: Float16[np.ndarray, "n d"]):
            return a.sum(axis=0)
    """)
    assert "numpy adds in float16" in f.message and "stalls at 2,048" in f.message


def test_torch_message_mentions_float32_accumulation() -> None:
    (f,) = run("""
        def f(a: Float16[Tensor, "n d"]):
            return a.sum(0)
    """)
    assert "torch accumulates in float32 but stores the sum in float16" in f.message


def test_jax_messages_name_jax() -> None:
    """jax.numpy's sums of float16 / bfloat16 accumulate in float32 and round the result, as torch's do (checked:
    ``jnp.ones(100000, jnp.bfloat16).sum()`` is 99,840, ``jnp.ones(70000, jnp.float16).sum()`` inf)."""
    half, brain = run("""
        import jax.numpy as jnp
        from jax import Array

        def f(a: Float16[Array, "n d"], b: BFloat16[Array, "n d"]):
            return a.sum(0), jnp.sum(b, axis=0)
    """)
    assert half.code == "SHP301" and "(jax accumulates in float32 but stores the sum in float16)" in half.message
    assert brain.code == "SHP302" and "jax accumulates in float32 but rounds" in brain.message
    assert "torch" not in half.message + brain.message


def test_bf16_message_is_about_precision_not_overflow() -> None:
    (f,) = run("""
        def f(x: BFloat16[Tensor, "b 1000"]):
            return x.sum(-1)
    """)
    assert f.code == "SHP302"
    assert "8 significant bits" in f.message and "up to 256" in f.message and "does not overflow" in f.message


def test_prod_threshold_is_geometric_mean() -> None:
    (f,) = run("""
        def f(x: Float16[Tensor, "b 16"]):
            return x.prod(-1)
    """)
    assert f.code == "SHP301" and "multiplies 16 float16 values" in f.message
    assert "geometric-mean magnitude exceeds 1.99" in f.message  # 65504 ** (1/16)


@pytest.mark.parametrize(
    "expr",
    [
        "x.mean(1)",
        "torch.mean(x, dim=1)",
        'reduce(x, "b n -> b", "mean")',
        "x.amax(1)",
        "x.amin(1)",
        'reduce(x, "b n -> b", "max")',
        'reduce(x, "b n -> b", "min")',
        "x.any()",
        "x.all()",
        "x.float().sum(1)",
        "x.to(torch.float32).sum(1)",
        "x.to(dtype=torch.float32).sum(1)",
        "x.double().sum(1)",
        "x.sum(1, dtype=torch.float32)",
        "torch.sum(x.float(), 1)",
        'reduce(x.float(), "b n -> b", "sum")',
        "x.type(torch.float32).cumsum(1)",
        "x.type(torch.FloatTensor).sum()",
        "y.sum(1)",
        "y.cumsum(1)",
    ],
)
def test_safe_torch_forms_are_silent(expr: str) -> None:
    assert (
        codes(f"""
        def f(x: Float16[Tensor, "b n"], y: Float32[Tensor, "b n"]):
            return {expr}
    """)
        == []
    )


@pytest.mark.parametrize(
    "expr",
    [
        "a.mean(axis=0)",
        "np.mean(a, axis=0)",
        'reduce(a, "n d -> d", "mean")',
        "a.astype(np.float32).sum(axis=0)",
        'a.astype("float32").sum(axis=0)',
        "np.sum(a, axis=0, dtype=np.float32)",
        "a.max(axis=0)",
        "np.cumsum(a.astype(np.float64))",
    ],
)
def test_safe_numpy_forms_are_silent(expr: str) -> None:
    assert (
        codes(f"""
        def f(a: Float16[np.ndarray, "n d"]):
            return {expr}
    """)
        == []
    )


@pytest.mark.parametrize(
    "expr,code",
    [
        ("x.sum(1)", "SHP301"),
        ("x.nansum()", "SHP301"),
        ("torch.prod(x, 1)", "SHP301"),
        ("x.cumsum(1)", "SHP303"),
        ("x.cumprod(0)", "SHP303"),
        ('reduce(x, "b n -> b", "sum")', "SHP301"),
        ('reduce(x, "b n -> n", "prod")', "SHP301"),
        ('reduce(x, "b n -> b", torch.sum)', "SHP301"),
        ('reduce(x, "b n -> b", lambda t, d: t.sum(d))', "SHP301"),
        ("x.half().sum()", "SHP301"),
        ("y.half().sum()", "SHP301"),
        ("y.bfloat16().sum()", "SHP302"),
        ("y.to(torch.bfloat16).cumsum(0)", "SHP302"),
        ("y.sum(dtype=torch.float16)", "SHP301"),
    ],
)
def test_reported_torch_forms(expr: str, code: str) -> None:
    assert codes(f"""
        def f(x: Float16[Tensor, "b n"], y: Float32[Tensor, "b n"]):
            return {expr}
    """) == [code]


@pytest.mark.parametrize(
    "expr,code",
    [
        ("a.sum()", "SHP301"),
        ("np.sum(a, axis=1)", "SHP301"),
        ("a.prod(axis=0)", "SHP301"),
        ("np.cumsum(a)", "SHP303"),
        ("a.mean(axis=0, dtype=np.float16)", "SHP303"),
        ('reduce(a, "n d -> d", "sum")', "SHP301"),
        ("b.astype(np.float16).sum()", "SHP301"),
        ('b.astype("float16").cumprod(0)', "SHP303"),
    ],
)
def test_reported_numpy_forms(expr: str, code: str) -> None:
    assert codes(f"""
        def f(a: Float16[np.ndarray, "n d"], b: Float32[np.ndarray, "n d"]):
            return {expr}
    """) == [code]


@pytest.mark.parametrize(
    "ctx,expr,reported",
    [
        ('torch.autocast(device_type="cuda")', "x.sum(1)", False),
        ('torch.autocast("cuda", dtype=torch.bfloat16)', "x.cumsum(1)", False),
        ("torch.cuda.amp.autocast()", 'reduce(x, "b n -> b", "sum")', False),
        ('torch.amp.autocast("cuda")', "x.cumprod(1)", False),
        ('torch.autocast("cuda:0")', "x.prod(1)", False),
        ('torch.autocast("cuda")', "x.nansum(1)", True),  # aten::nansum has no AutocastCUDA kernel
        ('torch.autocast("cpu")', "x.sum(1)", True),
        ('torch.autocast("cpu")', "x.cumsum(1)", True),
        ('torch.autocast("cpu")', "x.prod(1)", False),
        ("torch.cpu.amp.autocast()", "x.prod(1)", False),
        ('torch.autocast("cuda", enabled=False)', "x.sum(1)", True),
        ("contextlib.nullcontext()", "x.sum(1)", True),
    ],
)
def test_autocast_regions(ctx: str, expr: str, reported: bool) -> None:
    found = codes(f"""
        import contextlib
        def f(x: Float16[Tensor, "b n"]):
            with {ctx}:
                y = {expr}
            return y
    """)
    assert bool(found) is reported, found


def test_autocast_does_not_cover_numpy() -> None:
    assert codes("""
        def f(a: Float16[np.ndarray, "n d"]):
            with torch.autocast("cuda"):
                return a.sum(axis=0)
    """) == ["SHP301"]


def test_autocast_region_ends_with_the_block() -> None:
    found = run("""
        def f(x: Float16[Tensor, "b n"]):
            with torch.autocast("cuda"):
                a = x.sum(1)
            return x.sum(1)
    """)
    assert [f.line for f in found] == [HEADER.count("\n") + 5]


def test_autocast_decorator() -> None:
    assert (
        codes("""
        @torch.autocast(device_type="cuda")
        def f(x: Float16[Tensor, "b n"]):
            return x.sum(1)
    """)
        == []
    )


def test_fixable_findings_carry_edits() -> None:
    (f,) = run("""
        def f(x: Float16[Tensor, "b n"]):
            return x.sum(1)
    """)
    assert [e.text for e in f.fix] == [".float()", ".to(x.dtype)"]


def test_registry_entries_are_warnings_with_docs() -> None:
    for code in ("SHP301", "SHP302", "SHP303"):
        c = get(code)
        assert c.severity.value == "warning"
        assert "{op}" in c.template and "{count}" in c.template and "{detail}" in c.template
    assert "numpy" in get("SHP301").what and "65,504" in get("SHP301").what
    assert "NOT reported" in get("SHP303").what
