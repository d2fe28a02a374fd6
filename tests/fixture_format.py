"""The fixture format: expected findings written on the offending line, in the style of mypy's test data.

    y = rearrange(x, "b c -> b c d")  # error: SHP104
    loss = F.mse_loss(s, t)           # warning: SHP401
    p = rearrange(img, ...)           # error: SHP203 cannot be split
    p = rearrange(img, ...)           # error:9: SHP203 of size 225

``error`` / ``warning`` is the severity the finding must have (the registry's, see shapecheck/diagnostics/registry.py).
``:9`` after it, optional, is the 1-based column the finding must start at. Text after a single code, optional, is a
fragment its message, or one of its notes, must contain (up to the end of the line or the next ``# error``/``# warning``:
``# error: SHP204 /audio.py:12`` checks that a note names that line, where an operand was made). Several codes:
``# error: SHP201, SHP202`` (no column, no fragment); several comments on one line are allowed too. A line with no
such comment must stay silent, and no finding may be reported twice. Multi-file cases live in ``*.test`` files made
of ``[file path/to/mod.py]`` blocks; each block is one file of a temporary tree.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

EXPECT = re.compile(
    r"#\s*(?P<severity>error|warning)(?::(?P<column>\d+))?:\s*(?P<codes>SHP\d{3}(?:\s*,\s*SHP\d{3})*)"
    r"(?P<fragment>(?:(?!#\s*(?:error|warning)\b).)*)"
)
FIXTURES = Path(__file__).parent / "fixtures"


@dataclass(frozen=True)
class Expect:
    line: int
    code: str
    severity: str  # "error" | "warning"
    column: int | None = None
    fragment: str | None = None


def parse_expectations(text: str) -> list[Expect]:
    out: list[Expect] = []
    for i, line in enumerate(text.splitlines(), 1):
        for m in EXPECT.finditer(line):
            codes = re.split(r"\s*,\s*", m.group("codes"))
            fragment = m.group("fragment").strip() or None
            if fragment is not None and len(codes) > 1:
                raise ValueError(f"line {i}: a message fragment needs a single code: {line.strip()}")
            column = int(m.group("column")) if m.group("column") else None
            for code in codes:
                out.append(Expect(i, code, m.group("severity"), column, fragment))
    return out


def expectations(text: str) -> set[tuple[int, str]]:
    """The (line, code) set written in the source (what every host must report)."""
    return {(e.line, e.code) for e in parse_expectations(text)}


def mismatches(text: str, findings: Iterable[Any]) -> list[str]:
    """Everything in which ``findings`` (Finding objects of one file) differ from the expectations in ``text``:
    missing and unexpected (line, code) pairs, wrong severities, columns and messages, duplicates."""
    findings = list(findings)
    lines = text.splitlines()

    def src(ln: int) -> str:
        return lines[ln - 1].strip() if 1 <= ln <= len(lines) else ""

    want = parse_expectations(text)
    problems: list[str] = []
    for key, n in Counter((f.line, f.column, f.code, f.message) for f in findings).items():
        if n > 1:
            problems.append(f"reported {n} times at line {key[0]}, column {key[1]}: {key[3]}")
    got_pairs = {(f.line, f.code) for f in findings}
    want_pairs = {(e.line, e.code) for e in want}
    for ln, code in sorted(got_pairs - want_pairs):
        problems.append(f"unexpected {code} at line {ln}: {src(ln)}")
    for ln, code in sorted(want_pairs - got_pairs):
        problems.append(f"missing {code} at line {ln}: {src(ln)}")
    for e in want:
        same = [f for f in findings if (f.line, f.code) == (e.line, e.code)]
        for f in same:
            if f.effective_severity.value != e.severity:
                problems.append(
                    f"{e.code} at line {e.line} is a {f.effective_severity.value}, the fixture says {e.severity}"
                )
        if not same:
            continue
        if e.column is not None and not any(f.column == e.column for f in same):
            problems.append(f"{e.code} at line {e.line}: column {[f.column for f in same]}, expected {e.column}")
        if e.fragment is not None and not any(
            e.fragment in f.message or any(e.fragment in n for n in getattr(f, "notes", ())) for f in same
        ):
            problems.append(
                f"{e.code} at line {e.line}: no message or note contains {e.fragment!r}: {[f.message for f in same]}"
            )
    return problems


def split_multi(text: str) -> dict[str, str]:
    files: dict[str, str] = {}
    current: str | None = None
    buf: list[str] = []
    for line in text.splitlines(keepends=True):
        m = re.match(r"^\[file ([^\]]+)\]\s*$", line)
        if m:
            if current is not None:
                files[current] = "".join(buf)
            current, buf = m.group(1), []
        elif current is not None:
            buf.append(line)
    if current is not None:
        files[current] = "".join(buf)
    return files


def single_fixtures() -> list[Path]:
    return sorted(FIXTURES.rglob("*.py"))


def multi_fixtures() -> list[Path]:
    return sorted(FIXTURES.rglob("*.test"))


def load_fixture(relative: str) -> Any:
    """The fixture ``tests/fixtures/<relative>`` imported as a module, for the tests that run what it defines."""
    import importlib.util

    path = FIXTURES / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
