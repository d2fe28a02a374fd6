"""FP16/BF16-unsafe reductions (SHP3xx). Filled in by the mixed-precision work."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from .values import TensorV, Value

if TYPE_CHECKING:
    from .module import ModuleAnalysis


def check_einops_reduction(m: "ModuleAnalysis", node: cst.CSTNode, op: str, t: TensorV, reduction: str | None, res: Any, pattern: str) -> None:
    return None


def check_framework_reduction(m: "ModuleAnalysis", node: cst.CSTNode, name: str, t: TensorV, reduced: list[int] | None, kwargs: dict[str, Value]) -> None:
    return None
