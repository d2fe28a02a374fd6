"""pre-commit hooks (.pre-commit-hooks.yaml), run for real with ``pre-commit try-repo``.

try-repo installs the hook repository at a commit. The working tree under test may be dirty or hold untracked
files, so the test snapshots the files a hook install needs into a temporary git repository and commits them.
One try-repo run (both hooks, one environment install) keeps the test to ~20 s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

SAMPLE = """from torch import Tensor
from einops import rearrange
from jaxtyping import Float


def patchify(img: Float[Tensor, "b 3 225 225"]):
    return rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)
"""
HALF = """from torch import Tensor
from einops import reduce
from jaxtyping import Float16


def pool(x: Float16[Tensor, "b c h w"]):
    return reduce(x, "b c h w -> b c", "sum")
"""
CLEAN = "import os\n\nprint(os.sep)\n"


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def snapshot_repo(dest: Path) -> Path:
    """A committed copy of the package as it is in the working tree (tracked and untracked, minus ignored)."""
    listed = (
        subprocess.run(
            [
                "git",
                "ls-files",
                "-co",
                "--exclude-standard",
                "-z",
                "--",
                "shapecheck",
                "stubs",
                "pyproject.toml",
                "README.md",
                ".pre-commit-hooks.yaml",
                "LICENSE",
            ],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    # pyproject force-includes stubs/: an empty folder is not in git, so keep one in the snapshot
    (dest / "stubs").mkdir(exist_ok=True)
    if not any((dest / "stubs").iterdir()):
        (dest / "stubs" / ".keep").write_text("")
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "snapshot")
    return dest


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    hookrepo = snapshot_repo(tmp_path_factory.mktemp("hookrepo"))
    work = tmp_path_factory.mktemp("work")
    git(work, "init", "-q")
    for name, text in {"sample.py": SAMPLE, "half.py": HALF, "clean.py": CLEAN}.items():
        (work / name).write_text(text)
    git(work, "add", ".")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pre-commit-home")),
        "PRE_COMMIT_COLOR": "never",
    }
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "try-repo",
            str(hookrepo),
            "--files",
            "sample.py",
            "half.py",
            "clean.py",
            "--verbose",
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return proc, work


def _section(out: str, hook: str) -> str:
    start = out.index(f"- hook id: {hook}\n")
    end = out.find("- hook id:", start + 1)
    return out[start : end if end != -1 else None]


def test_shapecheck_hook_reports_findings(run: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    proc, _ = run
    assert "An unexpected error" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = _section(proc.stdout, "shapecheck")
    assert "sample.py:7:12: SHP203" in out, proc.stdout
    assert "half.py:7:" in out and "SHP301" in out
    assert "clean.py" not in out


def test_shapecheck_fix_hook_rewrites_files(run: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    proc, work = run
    out = _section(proc.stdout, "shapecheck-fix")
    assert "files were modified by this hook" in out, proc.stdout
    assert "reduce(x.float()" in (work / "half.py").read_text()
    assert (work / "sample.py").read_text() == SAMPLE  # nothing to fix there
