"""Running a real host over a tree of files and reading its SHP findings back (shared by the host tests)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

_MYPY = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?:\d+:)? (?:error|warning|note): (?P<code>SHP\d{3})\b")


def run_mypy(tree: Path, files: list[str]) -> tuple[subprocess.CompletedProcess[str], dict[str, set[tuple[int, str]]]]:
    """mypy (with the plugin the tree's config loads) over ``files``: the process and {file name: {(line, code)}}."""
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--show-column-numbers", "--no-error-summary", *files],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=600,
    )
    got: dict[str, set[tuple[int, str]]] = {}
    for line in proc.stdout.splitlines():
        m = _MYPY.match(line)
        if m:
            got.setdefault(Path(m.group("path")).name, set()).add((int(m.group("line")), m.group("code")))
    return proc, got
