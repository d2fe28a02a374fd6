"""SARIF 2.1.0 report (GitHub code scanning: ``shapecheck check --format sarif -o shapecheck.sarif``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import quote

from .._version import __version__
from ..diagnostics import CODES, Code, Finding
from ..diagnostics.finding import note_places

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/shapecheck/shapecheck"
_LEVEL = {"error": "error", "warning": "warning"}


def _rule(c: Code) -> dict[str, Any]:
    from .docs import render_code_markdown

    return {
        "id": c.code,
        "name": c.name,
        "shortDescription": {"text": f"{c.code} {c.name}: {c.family.title}"},
        "fullDescription": {"text": c.what},
        "help": {"text": f"{c.what}\n\nWhy: {c.why}", "markdown": render_code_markdown(c, heading="###")},
        "defaultConfiguration": {"level": _LEVEL[c.severity.value]},
        "properties": {"tags": ["shapecheck", c.family.mypy_code], "family": c.family.value},
    }


def _source_root() -> Path:
    """The repository root (nearest folder with .git from the cwd), else the cwd: URIs are relative to it."""
    cwd = Path.cwd().resolve()
    for d in (cwd, *cwd.parents):
        if (d / ".git").exists():
            return d
    return cwd


def artifact_uri(path: str, root: Path | None = None) -> tuple[str, str | None]:
    """(uri, uriBaseId): repo-relative with forward slashes under %SRCROOT%, else an absolute file URI."""
    root = root or _source_root()
    p = Path(path)
    absolute = (p if p.is_absolute() else Path.cwd() / p).resolve()
    try:
        rel = absolute.relative_to(root)
    except ValueError:
        return absolute.as_uri(), None
    return quote(rel.as_posix(), safe="/"), "%SRCROOT%"


def _related(f: Finding, root: Path) -> list[dict[str, Any]]:
    """The lines a finding's notes name (where an inlined callee raised, where an operand or a layer was made), as
    SARIF related locations: a failure reported at a test's call links to the line inside the model."""
    out: list[dict[str, Any]] = []
    for text, path, line in note_places(f):
        uri, base = artifact_uri(path, root)
        location: dict[str, Any] = {"uri": uri}
        if base:
            location["uriBaseId"] = base
        out.append(
            {
                "id": len(out),
                "message": {"text": text},
                "physicalLocation": {"artifactLocation": location, "region": {"startLine": line}},
            }
        )
    return out


def render_sarif(findings: Sequence[Finding]) -> str:
    index = {c.code: i for i, c in enumerate(CODES)}
    root = _source_root()
    results = []
    for f in findings:
        uri, base = artifact_uri(f.path, root)
        location: dict[str, Any] = {"uri": uri}
        if base:
            location["uriBaseId"] = base
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _LEVEL[f.effective_severity.value],
            "message": {"text": "\n".join([f.message, *f.notes])},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": location,
                        "region": {
                            "startLine": f.line,
                            "startColumn": f.column,
                            "endLine": max(f.end_line, f.line),
                            "endColumn": max(f.end_column, 1),
                        },
                    }
                }
            ],
        }
        related = _related(f, root)
        if related:
            result["relatedLocations"] = related
        properties: dict[str, Any] = {}
        if f.fields:
            properties["fields"] = f.fields_json()  # what the message says, as data (the detail with its kind)
        if f.witness is not None:
            properties["witness"] = f.witness.to_json()
        if properties:
            result["properties"] = properties
        results.append(result)
    root_uri = root.as_uri() + "/"
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "shapecheck",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule(c) for c in CODES],
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root_uri}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
