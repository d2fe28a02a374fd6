"""Per-operation rules of check_call: exact codes for typical mistakes, and never a Problem einops accepts."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import einops
from shapecheck.pattern import Problem, check_call


def code(*args, **kwargs) -> str | None:
    p = check_call(*args, **kwargs)
    if p is not None:
        assert isinstance(p, Problem)
        p.message()
        return p.code
    return None


@pytest.mark.parametrize(
    "kind, pattern, kw, expected",
    [
        ("rearrange", "b (c (h w)) -> b c h w", {}, "SHP101"),
        ("rearrange", "b c h w", {}, "SHP101"),
        ("rearrange", "b c -> b -> c", {}, "SHP101"),
        ("rearrange", "b t t -> b t", {}, "SHP102"),
        ("rearrange", "b c -> b ... c", {}, "SHP103"),
        ("rearrange", "(b ...) c -> b c ...", {}, "SHP103"),
        ("rearrange", "b c h w -> b (h w)", {}, "SHP104"),
        ("rearrange", "b c 2 -> b c", {}, "SHP104"),
        ("rearrange", "b (h p) -> b h p", {"axes_names": ("q",)}, "SHP105"),
        ("rearrange", "b (h p) -> b h p", {"axes_names": ("p",)}, None),
        ("rearrange", "b (h p) -> b h p", {}, "SHP104"),
        ("reduce", "b c h w -> b c", {"reduction": "avg"}, "SHP106"),
        ("reduce", "b c h w -> b c", {"reduction": "mean"}, None),
        ("reduce", "b c h w -> b c", {"reduction": None}, None),
        ("reduce", "b c h w -> b c", {"reduction_is_callable": True}, None),
        ("reduce", "b c -> b c d", {"reduction": "sum"}, "SHP104"),
        ("reduce", "b c -> c b", {"reduction": "rearrange"}, None),
        ("repeat", "b c -> b c d", {}, "SHP104"),
        ("repeat", "b c -> b c d", {"axes_names": ("d",)}, None),
        ("repeat", "b c -> b", {}, "SHP104"),
        ("pack", "b n", {}, "SHP107"),
        ("pack", "b * * d", {}, "SHP107"),
        ("unpack", "b * _d", {}, "SHP107"),
        ("pack", "b * d", {}, None),
        ("einsum", "b i d, b j d -> b i k", {}, "SHP108"),
        ("einsum", "b i d, b j d", {}, "SHP108"),
        ("einsum", "b (i d) -> b i", {}, "SHP108"),
        ("einsum", "b i d, b j d -> b i j", {"n_operands": 1}, "SHP108"),
        ("einsum", "b i d, b j d -> b i j", {"n_operands": 0}, "SHP111"),
        ("einsum", "b i d, b j d -> b i j", {"n_operands": 2}, None),
        ("parse_shape", "b (h w)", {}, "SHP104"),
        ("parse_shape", "b _ _ ...", {}, None),
        ("layer_rearrange", "b c -> c b", {}, None),
        ("layer_reduce", "b c -> b", {"reduction": "max"}, None),
        ("einmix", "b t c -> b t d", {"weight_shape": "c d", "axes_names": ("c",)}, "SHP109"),
        ("einmix", "b t c -> b t d", {"weight_shape": "c d", "axes_names": ("c", "d")}, None),
        ("einmix", "b t c -> b t d", {"weight_shape": "c d", "bias_shape": "d", "axes_names": ("c", "d")}, None),
        ("einmix", "b t c -> b t d", {"weight_shape": "c d", "bias_shape": "e", "axes_names": ("c", "d")}, "SHP109"),
        ("einmix", "b t c -> b t d", {"weight_shape": "c d e", "axes_names": ("c", "d", "e")}, "SHP109"),
        ("einmix", "b (t c) -> b t d", {"weight_shape": "c d", "axes_names": ("d",)}, "SHP109"),
        ("einmix", "b (t c) -> b t d", {"weight_shape": "c d", "axes_names": ("c", "d")}, None),
    ],
)
def test_codes(kind: str, pattern: str, kw: dict, expected: str | None) -> None:
    assert code(kind, pattern, **kw) == expected


def _einmix_raises(pattern: str, weight: str, bias: str | None, lengths: dict) -> bool:
    from einops.layers.torch import EinMix

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            EinMix(pattern, weight_shape=weight, bias_shape=bias, **lengths)
    except Exception:  # noqa: BLE001
        return True
    return False


EINMIX_SIDES = ["b t c", "b (t c)", "b ... c", "... c", "b c ...", "(b ...) c", "b t 2", "b 1 c", "b c c"]
EINMIX_OUT = ["b t d", "b (t d)", "b ... d", "... d", "b d ...", "(b ...) d", "b e", "b t c", "b t (c d)"]
WEIGHTS = ["c d", "c", "d", "c d e", "(c d)", "c 1", "... c", "t c d", "c d d", ""]
BIASES = [None, "d", "c", "e", "t d", "d 1"]


@settings(max_examples=250, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
@given(
    st.sampled_from(EINMIX_SIDES),
    st.sampled_from(EINMIX_OUT),
    st.sampled_from(WEIGHTS),
    st.sampled_from(BIASES),
    st.sets(st.sampled_from(["b", "t", "c", "d", "e"])),
)
def test_einmix_matches_einops(left: str, right: str, weight: str, bias: str | None, names: set) -> None:
    pytest.importorskip("torch")
    pattern = f"{left} -> {right}"
    lengths = {n: 2 for n in sorted(names)}
    problem = check_call("einmix", pattern, weight_shape=weight, bias_shape=bias, axes_names=tuple(lengths))
    assert (problem is not None) == _einmix_raises(pattern, weight, bias, lengths), (pattern, weight, bias, lengths)


def test_layers_agree_with_functions() -> None:
    pytest.importorskip("torch")
    from einops.layers.torch import Rearrange, Reduce

    for pattern in ["b c -> c b", "b c -> b", "b ... -> ... b", "(b c) -> b c", "b c -> b c d"]:
        for cls, kind, extra in [(Rearrange, "layer_rearrange", ()), (Reduce, "layer_reduce", ("sum",))]:
            try:
                cls(pattern, *extra)
                raised = False
            except Exception:  # noqa: BLE001
                raised = True
            p = check_call(kind, pattern, reduction=extra[0] if extra else None)
            assert (p is not None) == raised, (pattern, kind)


def test_reduce_string_rearrange_is_legal() -> None:
    # einops quirk: reduce() accepts "rearrange" and "repeat" as reductions
    x = np.zeros((2, 3))
    assert einops.reduce(x, "a b -> b a", "rearrange").shape == (3, 2)
    assert check_call("reduce", "a b -> b a", reduction="rearrange") is None
