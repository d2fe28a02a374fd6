"""Source -> findings: extract einops calls and jaxtyping annotations, infer shapes, check."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..diagnostics import Finding

if TYPE_CHECKING:
    from .index.project import Project


def analyse_text(text: str, path: str, project: "Project | None" = None) -> list[Finding]:
    from .report.checker import analyse_module

    return analyse_module(text, path, project)
