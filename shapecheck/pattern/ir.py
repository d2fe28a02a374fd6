"""The operation IR: one frozen record per einops call site or layer, independent of tensor sizes.

Static analysis builds these from source; the runtime builds them from its arguments. Both hand them to
:mod:`.validate` (shape-independent rules), :mod:`.recipe` (size-independent recipe) and :mod:`.shapes`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TRANSFORM_KINDS = ("rearrange", "reduce", "repeat", "layer_rearrange", "layer_reduce")


def operation_category(kind: str, reduction: Any = None) -> str:
    """'rearrange', 'repeat' or 'reduce': which identifier rules apply (einops' reduce accepts the strings
    'rearrange' and 'repeat' as reductions and then behaves exactly like those functions)."""
    if kind in ("rearrange", "layer_rearrange"):
        return "rearrange"
    if kind == "repeat":
        return "repeat"
    if isinstance(reduction, str) and reduction in ("rearrange", "repeat"):
        return reduction
    return "reduce"


@dataclass(frozen=True)
class Transform:
    """rearrange / reduce / repeat (and the Rearrange / Reduce layers)."""

    kind: str  # one of TRANSFORM_KINDS
    pattern: str
    reduction: Any = None  # reduce only: a name, a callable, or None when unknown
    axes_names: tuple[str, ...] = ()
    stacked_list: bool = False  # the tensor argument is a list: stacked along a new leading axis

    @property
    def category(self) -> str:
        return operation_category(self.kind, self.reduction)


@dataclass(frozen=True)
class Pack:
    pattern: str  # e.g. "b * d"
    n_inputs: int | None = None


@dataclass(frozen=True)
class Unpack:
    pattern: str


@dataclass(frozen=True)
class Einsum:
    pattern: str  # einops puts it last: einsum(a, b, "i j, j k -> i k")
    n_operands: int | None = None


@dataclass(frozen=True)
class ParseShape:
    pattern: str


@dataclass(frozen=True)
class EinMix:
    pattern: str
    weight_shape: str | None
    bias_shape: str | None = None
    axes_names: tuple[str, ...] = ()
