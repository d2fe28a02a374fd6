"""Operation kinds: which einops operations exist and which identifier rules each one follows.

Static analysis and the runtime both name an operation by its kind (``"rearrange"``, ``"reduce"``, ...) and hand
it to :mod:`.validate` (shape-independent rules), :mod:`.recipe` (size-independent recipe) and :mod:`.shapes`.
"""

from __future__ import annotations

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
