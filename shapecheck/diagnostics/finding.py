"""Findings are data: a checker returns them, hosts render them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from .details import jsonable
from .registry import Severity, get
from .render import message


@dataclass(frozen=True)
class Witness:
    """Concrete sizes under which a definite finding fails (see docs/verification.md)."""

    sizes: tuple[tuple[str, int], ...]
    op: str  # "rearrange" | "reduce" | ... | "annotation" | stub op name
    pattern: str | None
    input_shapes: tuple[tuple[int, ...], ...]
    axes_lengths: tuple[tuple[str, int], ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sizes": dict(self.sizes),
            "op": self.op,
            "input_shapes": [list(s) for s in self.input_shapes],
        }
        if self.pattern is not None:
            out["pattern"] = self.pattern
        if self.axes_lengths:
            out["axes_lengths"] = dict(self.axes_lengths)
        for k, v in self.extra:
            out[k] = v
        return out


# a place a note names: ``raised at pkg/model.py:33 in forward()``, ``from the Linear layer at pkg/model.py:20`` (a
# path may hold spaces: the shortest run of text after " at " that ends in .py / .pyi and a line number)
_NOTE_PLACE = re.compile(r"\bat ([^:,()\n]+?\.pyi?):(\d+)\b")


def note_places(f: "Finding") -> list[tuple[str, str, int]]:
    """(note, path, line) for each place a finding's notes name (where an inlined callee raised, where an operand or
    a layer was made), each place once and not the finding's own line: what hosts show as related locations."""
    out: list[tuple[str, str, int]] = []
    seen: set[tuple[str, int]] = set()
    for text in f.notes:
        for m in _NOTE_PLACE.finditer(text):
            place = (m.group(1), int(m.group(2)))
            if place not in seen and place != (f.path, f.line):
                seen.add(place)
                out.append((text, *place))
    return out


@dataclass(frozen=True)
class Edit:
    """A text replacement for an autofix, in 1-based line / column coordinates (end exclusive)."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@dataclass(frozen=True)
class Finding:
    path: str
    line: int  # 1-based
    column: int  # 1-based
    end_line: int
    end_column: int
    code: str
    message: str  # starts with the code
    notes: tuple[str, ...] = ()
    severity: Severity | None = None  # None: the registry's severity
    witness: Witness | None = None
    verified: bool | None = None
    fix: tuple[Edit, ...] = ()
    # the registry template's fields (axis, sizes, pattern, the typed ``detail``, ``inside``): what the message was
    # rendered from and what programs read instead of its text. In SARIF results (properties.fields) and the result
    # cache as JSON data (see fields_json); not in the JSON report, whose format is fixed.
    fields: tuple[tuple[str, Any], ...] = field(default=(), compare=False)

    def field_value(self, key: str, default: Any = None) -> Any:
        for k, v in self.fields:
            if k == key:
                return v
        return default

    def fields_json(self) -> dict[str, Any]:
        """The fields as JSON data (a detail as its ``kind`` and fields); the first of a repeated key."""
        out: dict[str, Any] = {}
        for k, v in self.fields:
            out.setdefault(k, jsonable(v))
        return out

    @property
    def effective_severity(self) -> Severity:
        return self.severity if self.severity is not None else get(self.code).severity

    def with_(self, **changes: Any) -> "Finding":
        return replace(self, **changes)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.code)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "severity": self.effective_severity.value,
            "message": self.message,
            "notes": list(self.notes),
        }
        if self.witness is not None:
            out["witness"] = self.witness.to_json()
        if self.verified is not None:
            out["verified"] = self.verified
        return out


def make(
    code: str, path: str, span: tuple[int, int, int, int], notes: tuple[str, ...] | list[str] = (), **fields: Any
) -> Finding:
    """Build a finding from its code and template fields; the message is rendered by :func:`render.message`."""
    line, col, end_line, end_col = span
    items = tuple(fields.items())
    return Finding(path, line, col, end_line, end_col, code, message(code, items), tuple(notes), fields=items)
