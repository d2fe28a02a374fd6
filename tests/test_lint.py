"""The linters are part of the suite: ruff check and ruff format (pyproject.toml's [tool.ruff]) and strict mypy ([tool.mypy]).

They come with the ``[test]`` extra; a missing tool is a failure, not a skip.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_check() -> None:
    proc = _run("ruff", "check", "--no-cache", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format() -> None:
    """The code is in ``ruff format``'s style (line length from [tool.ruff]); run ``ruff format .`` to fix."""
    proc = _run("ruff", "format", "--check", "--no-cache", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict() -> None:
    proc = _run("mypy")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success: no issues found" in proc.stdout


def test_readme_layout_lists_every_top_level_module() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = text[text.index("## Layout") :]
    layout = layout[: layout.find("\n## ", 1)] if "\n## " in layout[1:] else layout
    package = ROOT / "shapecheck"
    names = [p.name for p in package.iterdir() if (p.suffix == ".py" or (p / "__init__.py").is_file())]
    missing = [n for n in sorted(names) if f"`shapecheck/{n}" not in layout and f"`{n}`" not in layout]
    assert not missing, f"README.md's Layout section does not mention {missing}"
