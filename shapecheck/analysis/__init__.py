"""Source -> findings: extract einops calls and jaxtyping annotations, infer shapes, check."""

from __future__ import annotations

from ..diagnostics import Finding


def analyse_text(text: str, path: str, project: object | None = None) -> list[Finding]:
    from .checker import analyse_module

    return analyse_module(text, path, project)
