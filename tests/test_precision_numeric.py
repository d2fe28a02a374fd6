"""Run flagged code and its autofix on small real tensors: the overflow / stall happens, and the fix cures it.

These tests also pin the per-backend facts the SHP3xx messages state (docs/precision.md).
"""

from __future__ import annotations

import textwrap
import warnings

import numpy as np
import pytest

from shapecheck.core import check_source
from shapecheck.fix import fix_source

torch = pytest.importorskip("torch")
einops = pytest.importorskip("einops")

HEADER = """\
import numpy as np
import torch
from einops import reduce
from jaxtyping import BFloat16, Float16
from torch import Tensor
"""


def flagged_and_fixed(body: str) -> tuple[dict, dict, list[str]]:
    """Namespaces of the original and the autofixed module, and the codes reported on the original."""
    src = HEADER + textwrap.dedent(body)
    codes = [f.code for f in check_source(src, "m.py") if f.code.startswith("SHP3")]
    new, remaining = fix_source(src, "m.py")
    assert not [f for f in remaining if f.code.startswith("SHP3")]
    assert new != src
    ns_old: dict = {}
    ns_new: dict = {}
    exec(compile(src, "flagged.py", "exec"), ns_old)
    exec(compile(new, "fixed.py", "exec"), ns_new)
    return ns_old, ns_new, codes


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.simplefilter("ignore", RuntimeWarning)  # numpy's "overflow encountered in reduce"


# ---------------------------------------------------------------------------------------------------------------
# the facts


def test_float16_limits() -> None:
    assert float(np.finfo(np.float16).max) == 65504
    assert float(np.float16(2049)) == 2048  # integers exact only up to 2,048
    assert float(torch.tensor(257.0, dtype=torch.bfloat16)) == 256  # bfloat16: up to 256


def test_torch_sum_accumulates_in_float32_but_stores_float16() -> None:
    assert torch.ones(4096, dtype=torch.float16).sum().item() == 4096  # no stall: float32 accumulator
    assert torch.ones(65504, dtype=torch.float16).sum().item() == 65504
    assert torch.ones(65536, dtype=torch.float16).sum().isinf()  # the stored result overflows


def test_torch_mean_is_safe() -> None:
    assert torch.ones(100_000, dtype=torch.float16).mean().item() == 1.0
    assert torch.ones(100_000, dtype=torch.bfloat16).mean().item() == 1.0


def test_torch_bfloat16_sum_is_rounded_not_overflowing() -> None:
    assert torch.ones(100_000, dtype=torch.bfloat16).sum().item() == 99840


def test_numpy_sum_accumulates_in_float16() -> None:
    assert np.ones((4096, 2), np.float16).sum(axis=0).tolist() == [2048, 2048]  # non-contiguous: stalls
    assert np.ones((2, 4096), np.float16).sum(axis=1).tolist() == [4096, 4096]  # contiguous: pairwise, exact
    assert np.isinf(np.ones(70_000, np.float16).sum())


def test_numpy_mean_accumulates_in_float32_unless_told_otherwise() -> None:
    assert np.ones((100_000, 2), np.float16).mean(axis=0).tolist() == [1.0, 1.0]
    assert np.ones((100_000, 2), np.float16).mean(axis=0, dtype=np.float16).tolist() != [1.0, 1.0]


def test_cumsum_per_backend() -> None:
    assert np.ones(5000, np.float16).cumsum()[-1] == 2048  # numpy: float16 accumulator stalls
    assert torch.ones(5000, dtype=torch.float16).cumsum(0)[-1].item() == 5000  # torch CPU: float32 accumulator
    assert torch.ones(70_000, dtype=torch.float16).cumsum(0)[-1].isinf()  # ... but every prefix is stored in float16


def test_cpu_autocast_runs_prod_but_not_sum_in_float32() -> None:
    x = torch.ones(8, dtype=torch.float16)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert x.prod().dtype == torch.float32
        assert x.sum().dtype == torch.float16
        assert x.cumsum(0).dtype == torch.float16


def test_autocast_kernels_registered_in_the_dispatcher() -> None:
    has = torch._C._dispatch_has_kernel_for_dispatch_key
    for op in ("aten::sum", "aten::sum.dim_IntList", "aten::prod", "aten::cumsum", "aten::cumprod"):
        assert has(op, "AutocastCUDA")
    assert (
        has("aten::prod", "AutocastCPU")
        and not has("aten::sum", "AutocastCPU")
        and not has("aten::cumsum", "AutocastCPU")
    )
    assert not has("aten::mean", "AutocastCUDA") and not has("aten::nansum", "AutocastCUDA")


# ---------------------------------------------------------------------------------------------------------------
# flagged vs fixed


def test_numpy_sum_stall_is_cured() -> None:
    old, new, codes = flagged_and_fixed("""
        def column_totals(a: Float16[np.ndarray, "n d"]):
            return a.sum(axis=0)
    """)
    assert codes == ["SHP301"]
    a = np.ones((4000, 3), np.float16)
    assert old["column_totals"](a).tolist() == [2048, 2048, 2048]
    assert new["column_totals"](a).tolist() == [4000, 4000, 4000]
    assert new["column_totals"](a).dtype == np.float16


def test_numpy_einops_sum_stall_is_cured() -> None:
    old, new, codes = flagged_and_fixed("""
        def totals(a: Float16[np.ndarray, "n d"]):
            return reduce(a, "n d -> d", "sum")
    """)
    assert codes == ["SHP301"]
    a = np.ones((3000, 2), np.float16)
    assert old["totals"](a).tolist() == [2048, 2048]
    assert new["totals"](a).tolist() == [3000, 3000]


def test_numpy_cumsum_stall_is_cured() -> None:
    old, new, codes = flagged_and_fixed("""
        def positions(a: Float16[np.ndarray, "n"]):
            return np.cumsum(a)
    """)
    assert codes == ["SHP303"]
    a = np.ones(3000, np.float16)
    assert old["positions"](a)[-1] == 2048
    assert new["positions"](a)[-1] == 3000


def test_numpy_mean_with_float16_dtype_is_cured() -> None:
    old, new, codes = flagged_and_fixed("""
        def avg(a: Float16[np.ndarray, "n d"]):
            return a.mean(axis=0, dtype=np.float16)
    """)
    assert codes == ["SHP303"]
    a = np.ones((100_000, 2), np.float16)
    assert old["avg"](a).tolist() != [1.0, 1.0]
    assert new["avg"](a).tolist() == [1.0, 1.0]


def test_torch_manual_mean_overflow_is_cured() -> None:
    old, new, codes = flagged_and_fixed("""
        def pooled(x: Float16[Tensor, "b c h w"]):
            return reduce(x, "b c h w -> b c", "sum") / (x.shape[2] * x.shape[3])
    """)
    assert codes == ["SHP301"]
    x = torch.full((1, 2, 224, 224), 2.0, dtype=torch.float16)  # mean magnitude 2 > 1.3: the sum overflows
    assert old["pooled"](x).isinf().all()
    out = new["pooled"](x)
    assert out.dtype == torch.float16 and out.tolist() == [[2.0, 2.0]]


def test_torch_sum_with_float16_dtype_is_cured() -> None:
    old, new, codes = flagged_and_fixed("""
        from jaxtyping import Float32
        def total(x: Float32[Tensor, "n"]):
            return x.sum(dtype=torch.float16) / x.shape[0]
    """)
    assert codes == ["SHP301"]
    x = torch.ones(70_000)
    assert old["total"](x).isinf()
    assert new["total"](x).item() == 1.0
