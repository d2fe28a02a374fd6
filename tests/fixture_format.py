"""The fixture format: expected findings written on the offending line.

    y = rearrange(x, "b c -> b c d")  # error: SHP104
    loss = F.mse_loss(s, t)           # warning: SHP401

Several codes: ``# error: SHP201, SHP202``. A line with no such comment must stay silent. Multi-file cases live in
``*.test`` files made of ``[file path/to/mod.py]`` blocks; each block is one file of a temporary tree.
"""

from __future__ import annotations

import re
from pathlib import Path

EXPECT = re.compile(r"#\s*(?:error|warning):\s*(SHP\d{3}(?:\s*,\s*SHP\d{3})*)")
FIXTURES = Path(__file__).parent / "fixtures"


def expectations(text: str) -> set[tuple[int, str]]:
    out: set[tuple[int, str]] = set()
    for i, line in enumerate(text.splitlines(), 1):
        for m in EXPECT.finditer(line):
            for code in re.split(r"\s*,\s*", m.group(1)):
                out.add((i, code))
    return out


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
