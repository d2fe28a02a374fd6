"""The one message renderer: a finding's text from its code and fields.

Rules and the interpreter never write messages; they emit a code and fields (the registry template's fields, whose
``detail`` is a typed value from :mod:`shapecheck.diagnostics.details`). The text is made here, once, for the hosts,
the JSON and SARIF reports. Structured extras render here too: ``inside`` (a finding of an inlined callee reported at
the outer call) adds "(inside f() called here)".
"""

from __future__ import annotations

from typing import Any, Iterable

from .registry import get


def message(code: str, fields: Iterable[tuple[str, Any]]) -> str:
    """``"SHPxxx "`` + the template filled with ``fields`` (+ where an inlined finding was raised)."""
    values: dict[str, Any] = {}
    for k, v in fields:
        values.setdefault(k, v)  # a repeated key (an inside re-reported further out): the innermost wins
    text = get(code).format(**values)
    inside = values.get("inside")
    if inside:
        text += f" (inside {inside}() called here)"
    return text
