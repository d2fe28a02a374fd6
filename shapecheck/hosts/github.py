"""GitHub Actions workflow commands: ``::error file=...,line=...::message`` annotations on the pull request."""

from __future__ import annotations

from typing import Sequence

from ..diagnostics import Finding


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(findings: Sequence[Finding]) -> str:
    out = []
    for f in findings:
        level = "error" if f.effective_severity.value == "error" else "warning"
        props = [
            ("file", f.path.replace("\\", "/")),
            ("line", str(f.line)),
            ("col", str(f.column)),
            ("endLine", str(max(f.end_line, f.line))),
        ]
        if f.end_line == f.line and f.end_column > f.column:  # GitHub: endColumn is inclusive, same line only
            props.append(("endColumn", str(f.end_column - 1)))
        props.append(("title", f.code))
        head = ",".join(f"{k}={escape_property(v)}" for k, v in props)
        out.append(f"::{level} {head}::{escape_data(chr(10).join([f.message, *f.notes]))}")
    return "".join(line + "\n" for line in out)
