"""Report renderers: text and JSON here; SARIF and GitHub workflow commands in their own modules."""

from __future__ import annotations

import json
from typing import Sequence

from ..diagnostics import Finding


def render_text(findings: Sequence[Finding]) -> str:
    out = []
    for f in findings:
        out.append(f"{f.path}:{f.line}:{f.column}: {f.message}")
        for note in f.notes:
            out.append(f"    note: {note}")
        if f.witness is not None:
            sizes = ", ".join(f"{k}={v}" for k, v in f.witness.sizes)
            if sizes:
                out.append(f"    note: with {sizes}")
        if f.verified is True:
            out.append("    note: confirmed by replaying the operation on these sizes")
    if findings:
        errors = sum(1 for f in findings if f.effective_severity.value == "error")
        out.append(
            f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} ({errors} error{'s' if errors != 1 else ''})."
        )
    return "\n".join(out) + ("\n" if out else "")


def render_json(findings: Sequence[Finding]) -> str:
    return json.dumps([f.to_json() for f in findings], indent=2) + "\n"


def render(findings: Sequence[Finding], fmt: str, files: Sequence[str] = ()) -> str:
    if fmt == "json":
        return render_json(findings)
    if fmt == "sarif":
        from .sarif import render_sarif

        return render_sarif(findings)
    if fmt == "github":
        from .github import render_github

        return render_github(findings)
    return render_text(findings)
