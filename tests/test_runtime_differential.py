"""Differential tests: shapecheck.runtime and shapecheck.pattern.infer/check_call against einops 0.8.2."""

from __future__ import annotations

import warnings
from typing import Any

import einops
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import shapecheck.runtime as R
from shapecheck.pattern import Inferred, Problem, check_call, infer

from _einops_cases import Case, einsum_cases, pack_cases, parse_shape_cases, transform_cases
from _einops_errors import disagreement, einops_kind

SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)


def make_arrays(case: Case, xp: str = "numpy") -> list:
    rng = np.random.default_rng(0)
    arrays = [rng.integers(-3, 4, size=tuple(s)).astype(np.float64) for s in case.shapes]
    if xp == "torch":
        import torch

        arrays = [torch.from_numpy(a) for a in arrays]
    return arrays


def execute(lib: Any, case: Case, xp: str = "numpy") -> tuple[str, Any]:
    arrays = make_arrays(case, xp)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if case.op in ("rearrange", "repeat"):
                x = arrays if case.as_list else arrays[0]
                out = [getattr(lib, case.op)(x, case.pattern, **case.kwargs)]
            elif case.op == "reduce":
                x = arrays if case.as_list else arrays[0]
                out = [lib.reduce(x, case.pattern, case.reduction, **case.kwargs)]
            elif case.op == "einsum":
                out = [lib.einsum(*arrays, case.pattern)]
            elif case.op == "pack":
                packed, ps = lib.pack(arrays, case.pattern)
                out = [packed, [tuple(p) for p in ps]]
            elif case.op == "unpack":
                out = list(lib.unpack(arrays[0], case.packed_shapes, case.pattern))
            elif case.op == "parse_shape":
                out = [lib.parse_shape(arrays[0], case.pattern)]
            else:  # pragma: no cover
                raise AssertionError(case.op)
    except Exception as e:  # noqa: BLE001 - any exception counts as "raises"
        return "raise", f"{type(e).__name__}: {e}", getattr(e, "problem", None)
    return "ok", out


def assert_same(case: Case, a: tuple, b: tuple) -> None:
    assert a[0] == b[0], f"{case}: einops {a} vs shapecheck {b}"
    if a[0] != "ok":
        # the same kind of problem on the same sizes (the exception types differ where einops leaks a ValueError)
        problem = b[2]
        if problem is not None:
            assert_same_problem(case, problem, a[1])
        else:  # the backend (numpy, torch) raised under the runtime
            assert einops_kind(a[1]) == einops_kind(b[1]), f"{case}: einops raises {a[1]}, the runtime {b[1]}"
        return
    assert len(a[1]) == len(b[1])
    for x, y in zip(a[1], b[1]):
        if isinstance(x, (dict, list)):
            assert x == y, case
            continue
        x, y = np.asarray(x), np.asarray(y)
        assert x.shape == y.shape, case
        assert x.dtype == y.dtype, case
        assert np.allclose(x, y, equal_nan=True), case


def output_shapes(case: Case, outcome: tuple) -> list:
    if case.op == "pack":
        return [tuple(np.asarray(outcome[1][0]).shape)]
    if case.op == "parse_shape":
        return []
    return [tuple(np.asarray(o).shape) for o in outcome[1]]


def check_infer(case: Case, outcome: tuple) -> None:
    result = infer(
        case.op,
        case.pattern,
        case.shapes,
        axes_lengths=case.kwargs,
        reduction=case.reduction if isinstance(case.reduction, str) or case.reduction is None else "sum",
        stacked_list=case.as_list,
        packed_shapes=case.packed_shapes,
    )
    if outcome[0] == "raise":
        assert isinstance(result, Problem), f"{case}: einops raises {outcome[1]}, infer gives {result}"
        result.message()  # the template fields fit
        assert_same_problem(case, result, outcome[1])
        return
    assert isinstance(result, Inferred), f"{case}: einops returns, infer gives {result.message()}"
    got = [tuple(s.as_int() for s in shape) for shape in result.outputs]
    assert got == output_shapes(case, outcome), case
    assert result.assumptions == ()
    if case.op == "parse_shape":
        assert {k: v.as_int() for k, v in result.axes.items()} == outcome[1][0]


def assert_same_problem(case: Case, problem: Problem, einops_error: str) -> None:
    """shapecheck's problem is the kind einops raised, on the same sizes (both directions: see _einops_errors)."""
    if problem.code.startswith("SHP1") and _shape_free(case) == problem.code:
        return  # a pattern that fails for every shape may meet one of einops' shape checks first
    why = disagreement(problem.code, problem.fields, einops_error)
    assert why is None, f"{case}: {why}"


def _shape_free(case: Case) -> str | None:
    """The code of the problem check_call finds without any shape (a pattern or API error), if any."""
    problem = check_call(
        case.op,
        case.pattern,
        reduction=case.reduction if isinstance(case.reduction, str) else None,
        reduction_is_callable=callable(case.reduction),
        axes_names=tuple(case.kwargs),
        n_operands=len(case.shapes) if case.op == "einsum" else None,
    )
    return None if problem is None else problem.code


def check_static_call(case: Case, outcome: tuple) -> None:
    kind = case.op
    problem = check_call(
        kind,
        case.pattern,
        reduction=case.reduction if isinstance(case.reduction, str) else None,
        reduction_is_callable=callable(case.reduction),
        axes_names=tuple(case.kwargs),
        n_operands=len(case.shapes) if kind == "einsum" else None,
    )
    if problem is not None:
        assert outcome[0] == "raise", f"{case}: check_call says {problem.message()} but einops returns"
        problem.message()


def differential(case: Case) -> None:
    expected = execute(einops, case)
    got = execute(R, case)
    assert_same(case, expected, got)
    check_infer(case, expected)
    check_static_call(case, expected)


@settings(max_examples=1400, **SETTINGS)
@given(transform_cases(("rearrange", "repeat")))
def test_rearrange_repeat_differential(case: Case) -> None:
    differential(case)


@settings(max_examples=1100, **SETTINGS)
@given(transform_cases(("reduce",)))
def test_reduce_differential(case: Case) -> None:
    differential(case)


@settings(max_examples=900, **SETTINGS)
@given(einsum_cases())
def test_einsum_differential(case: Case) -> None:
    differential(case)


@settings(max_examples=900, **SETTINGS)
@given(pack_cases())
def test_pack_unpack_differential(case: Case) -> None:
    differential(case)


@settings(max_examples=700, **SETTINGS)
@given(parse_shape_cases())
def test_parse_shape_differential(case: Case) -> None:
    differential(case)


@settings(max_examples=500, **SETTINGS)
@given(transform_cases() | pack_cases() | einsum_cases())
def test_torch_subset(case: Case) -> None:
    pytest.importorskip("torch")
    expected = execute(einops, case, "torch")
    got = execute(R, case, "torch")
    assert expected[0] == got[0], f"{case}: einops {expected} vs shapecheck {got}"
    if expected[0] == "ok":
        for x, y in zip(expected[1], got[1]):
            if isinstance(x, list):
                assert x == y
                continue
            assert tuple(x.shape) == tuple(y.shape) and x.dtype == y.dtype
            assert np.allclose(x.numpy(), y.numpy(), equal_nan=True)


def test_runtime_does_not_import_torch() -> None:
    import subprocess
    import sys

    code = (
        "import sys, numpy as np, shapecheck.runtime as R; R.rearrange(np.zeros((2, 3)), 'a b -> b a');"
        "assert 'torch' not in sys.modules and 'jax' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_list_and_error_types() -> None:
    with pytest.raises(R.EinopsError):
        R.rearrange(np.zeros((2, 3)), "a b c -> a b c")
    with pytest.raises(TypeError):
        R.rearrange([], "a -> a")
    assert R.rearrange([np.zeros(3), np.ones(3)], "n a -> a n").shape == (3, 2)
