"""README.md as a new user reads it (issue 14, items 1 and 9): the sample output is the real output, the test
command is the one .ci/run runs, and .ci/run runs it in a new virtual environment (pytest's exit 5 fails)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_sample_output_is_the_real_output() -> None:
    block = re.search(r"```\n\$ (shapecheck check [^\n]+)\n(.*?)```", README, re.DOTALL)
    assert block, "no sample run in README.md"
    args = block.group(1).split()[1:]
    proc = subprocess.run(
        [sys.executable, "-m", "shapecheck", *args, "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == block.group(2)


def test_readme_mentions_the_extras_and_project_setup() -> None:
    for needle in ("[lsp]", "[mypy]", "[flake8]", ".pre-commit-config.yaml", 'plugins = ["shapecheck"]', "action.yml"):
        assert needle in README, needle


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed")
def test_ci_run_uses_a_new_environment_and_fails_on_no_tests(tmp_path: Path) -> None:
    """.ci/run on a copy whose README test line exits 5 inside a virtual environment (and 3 outside one)."""
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    line = (
        'pip install -e ".[test]" >/dev/null 2>&1 || true; '
        "python -c 'import sys; sys.exit(5 if sys.prefix != sys.base_prefix else 3)'"
    )
    (tmp_path / "README.md").write_text(f"# x\n\n```bash\n{line}\n```\n")
    proc = subprocess.run(["bash", str(tmp_path / ".ci" / "run")], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"+ {line}" in proc.stdout and "collected no tests" in proc.stderr
    # the real README holds the line .ci/run looks for, verbatim
    assert re.search(r'^pip install -e "\.\[test\]" && python -m pytest -n 2 tests$', README, re.MULTILINE)
