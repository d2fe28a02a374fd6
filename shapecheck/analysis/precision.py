"""FP16/BF16-unsafe reductions (SHP3xx). Filled in by the mixed-precision work."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Iterator

import libcst as cst

from .values import TensorV, Value

if TYPE_CHECKING:
    from .module import ModuleAnalysis


@contextlib.contextmanager
def autocast_region(m: "ModuleAnalysis", stmt: cst.With, interp: Any) -> Iterator[None]:
    """``with torch.autocast(...)``: ops inside run under autocast rules."""
    yield


def check_einops_reduction(m: "ModuleAnalysis", node: cst.CSTNode, op: str, t: TensorV, reduction: str | None, res: Any, pattern: str) -> None:
    return None


def check_framework_reduction(m: "ModuleAnalysis", node: cst.CSTNode, name: str, t: TensorV, reduced: list[int] | None, kwargs: dict[str, Value]) -> None:
    return None
