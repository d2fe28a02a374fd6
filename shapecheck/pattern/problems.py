"""Findings-to-be (:class:`Problem`) and the exception that carries one through the pattern engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

REDUCTIONS: tuple[str, ...] = ("min", "max", "sum", "mean", "prod", "any", "all")
REDUCTION_CHOICES = "min, max, sum, mean, prod, any, all or a callable"


@dataclass(frozen=True)
class Problem:
    """A diagnostic without a position: a registry code and exactly the fields of its template."""

    code: str
    fields: dict[str, Any] = field(hash=False)
    axis: str | None = None

    def message(self) -> str:
        """The text the hosts would show (rendered by the one renderer, for the runtime's EinopsError and tests)."""
        from ..diagnostics.render import message

        return message(self.code, self.fields.items())

    def __str__(self) -> str:  # pragma: no cover - convenience
        return self.message()


class PatternError(Exception):
    """Raised inside the engine; the runtime turns it into ``EinopsError``, ``infer`` returns ``.problem``.

    ``kind`` names the exception type einops itself raises for the same condition (informational only).
    """

    def __init__(self, problem: Problem, kind: str = "EinopsError") -> None:
        super().__init__(problem.message())
        self.problem = problem
        self.kind = kind


def fail(code: str, *, at: str | None = None, kind: str = "EinopsError", **fields: Any) -> PatternError:
    """``at`` is the axis involved (defaults to the ``axis`` field); ``fields`` are the template fields (``detail``:
    a typed value from :mod:`shapecheck.diagnostics.details`)."""
    axis = at if at is not None else fields.get("axis")
    return PatternError(Problem(code, dict(fields), None if axis is None else str(axis)), kind)
