"""``shapecheck check --fix`` / ``--diff``: apply the autofixes findings carry (SHP3xx upcasts).

Each fix is a set of zero-width insertions computed on the libcst tree (``x`` -> ``x.float()``, the call ->
``call.to(x.dtype)``), so everything else in the file -- comments, formatting, line endings -- is kept byte for byte.
A file is re-checked after every pass: fixes whose insertion points collide (nested reductions) are applied in a
later pass, and a rewrite that does not parse is never written.
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path
from typing import Any, Iterable, TextIO

from .config import Config
from .diagnostics import Edit, Finding

MAX_PASSES = 5
_NEWLINE = re.compile(r"\r\n|\r|\n")


def fixable(f: Finding) -> bool:
    return bool(f.fix) and f.code.startswith("SHP3")


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for m in _NEWLINE.finditer(text):
        starts.append(m.end())
    return starts


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits (1-based lines and code-point columns, end exclusive). Equal positions keep their order."""
    starts = _line_starts(text)

    def offset(line: int, col: int) -> int:
        return starts[line - 1] + col - 1

    spans = [(offset(e.line, e.column), offset(e.end_line, e.end_column), i, e.text) for i, e in enumerate(edits)]
    spans.sort(key=lambda s: (s[0], s[2]))
    out: list[str] = []
    pos = 0
    for start, end, _, new in spans:
        if start < pos:
            raise ValueError("overlapping edits")
        out.append(text[pos:start])
        out.append(new)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def choose(findings: list[Finding]) -> list[Edit]:
    """The edits of the fixable findings whose insertion points do not touch another chosen finding's."""
    used: set[tuple[int, int]] = set()
    chosen: list[Edit] = []
    for f in sorted((f for f in findings if fixable(f)), key=Finding.sort_key):
        points = {(e.line, e.column) for e in f.fix} | {(e.end_line, e.end_column) for e in f.fix}
        if points & used:
            continue
        used |= points
        chosen.extend(f.fix)
    return chosen


def fix_source(text: str, path: str = "<string>", config: Config | None = None) -> tuple[str, list[Finding]]:
    """(the fixed text, the findings that remain in it). The input is returned unchanged if nothing is fixable."""
    from .core import check_source

    findings = check_source(text, path, config, prefilter=False)
    current = text
    for _ in range(MAX_PASSES):
        edits = choose(findings)
        if not edits:
            break
        try:
            candidate = apply_edits(current, edits)
        except (ValueError, IndexError):
            break
        after = check_source(candidate, path, config, prefilter=False)
        if any(f.code == "SHP901" for f in after):
            break  # never write a file that no longer parses
        current, findings = candidate, after
    return current, findings


def unified_diff(old: str, new: str, path: str) -> str:
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"a/{path.lstrip('/')}",
            tofile=f"b/{path.lstrip('/')}",
        )
    )


def apply_fixes(
    findings: list[Finding],
    *,
    write: bool,
    diff: bool,
    out: TextIO | None = None,
    config: Config | None = None,
    jobs: int = 0,
    stats: dict[str, int] | None = None,
    **_: Any,
) -> list[Finding]:
    """Fix every file with a fixable finding; return the findings that remain (those of unfixed files unchanged).

    ``stats`` (if given) receives ``findings`` (fixable findings that are gone after the fix) and ``files`` (files
    changed), counted whether the fixes are written (``write``) or only shown (``diff``).
    """
    out = out or sys.stdout
    if stats is not None:
        stats.update(findings=0, files=0)
    paths = sorted({f.path for f in findings if f.code.startswith("SHP3")})
    remaining = [f for f in findings if f.path not in paths]
    for path in paths:
        mine = [f for f in findings if f.path == path]
        p = Path(path)
        try:
            data = p.read_bytes()
            from .core import decode_source

            text = decode_source(data)
        except (OSError, UnicodeDecodeError, SyntaxError, LookupError):
            remaining.extend(mine)
            continue
        new, after = fix_source(text, path, config)
        if new == text:
            remaining.extend(mine)
            continue
        if stats is not None:
            stats["files"] += 1
            stats["findings"] += max(sum(1 for f in mine if fixable(f)) - sum(1 for f in after if fixable(f)), 0)
        if diff:
            out.write(unified_diff(text, new, path))
        if write:
            p.write_bytes(new.encode(_encoding_of(data)))
            remaining.extend(after)
        else:
            remaining.extend(mine)
    remaining.sort(key=Finding.sort_key)
    return remaining


def _encoding_of(data: bytes) -> str:
    import io
    import tokenize

    try:
        enc, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return "utf-8"
    return "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else enc
