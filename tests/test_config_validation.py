"""Bad input and bad configuration (issue 14, items 4-6), run with the real tools in subprocesses.

Exit 1 means findings. Anything shapecheck cannot use exits 2 with one line on standard error naming the file, the
key and what was expected -- never a traceback, never silence, and never a selection of nothing that turns CI green.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

BUGGY = """from einops import rearrange
from jaxtyping import Float
from torch import Tensor


def patchify(img: Float[Tensor, "b 3 225 225"]):
    return rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)


def bad_pattern(x):
    return rearrange(x, "b c -> b c d")  # noqa: SHP104
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "SHAPECHECK_NO_CACHE": "1"}


def shapecheck(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shapecheck", *args], cwd=cwd, env=_env(), capture_output=True, text=True, timeout=120
    )


@pytest.fixture()
def proj(tmp_path: Path) -> Path:
    (tmp_path / "m.py").write_text(BUGGY)
    return tmp_path


def _one_error_line(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


@pytest.mark.parametrize(
    "toml, words",
    [
        ("[tool.shapecheck]\nignore = 5\n", ["pyproject.toml", "ignore", "expected a list of codes"]),
        (
            '[tool.shapecheck]\nper-file-ignores = ["m.py"]\n',
            ["pyproject.toml", "per-file-ignores", "expected a table"],
        ),
        ("[tool]\nshapecheck = 3\n", ["pyproject.toml", "shapecheck", "expected a table"]),
        ("[tool.shapecheck\nselect = 1\n", ["pyproject.toml", "invalid TOML", "line 1"]),
        ('[tool.shapecheck]\nignroe = ["SHP2"]\n', ["pyproject.toml", "ignroe", "did you mean 'ignore'"]),
        ('[tool.shapecheck]\nselect = ["SHP999"]\n', ["pyproject.toml", "select", "unknown code 'SHP999'"]),
        (
            '[tool.shapecheck]\nexclude = "legacy"\n',
            ["pyproject.toml", "exclude", "expected a list of strings", '["legacy"]'],
        ),
        (
            '[tool.shapecheck]\nstub-paths = ["no_such_stubs"]\n',
            ["pyproject.toml", "stub-paths", "no_such_stubs", "not a folder"],
        ),
        ("[tool.shapecheck]\nselect = []\n", ["pyproject.toml", "selects no code"]),
        ('[tool.shapecheck]\nignore = ["SHP"]\n', ["pyproject.toml", "selects no code"]),
        ('[tool.shapecheck]\nexclude = ["*"]\n', ["no Python files to check"]),
    ],
)
def test_bad_configuration_exits_2_with_one_line(proj: Path, toml: str, words: list[str]) -> None:
    (proj / "pyproject.toml").write_text(toml)
    _one_error_line(shapecheck("check", ".", cwd=proj), *words)


@pytest.mark.parametrize(
    "args, words",
    [
        (["--select", "XYZ"], ["--select", "unknown code 'XYZ'"]),
        (["--ignore", "SHP2O1"], ["--ignore", "unknown code 'SHP2O1'"]),
        (["--select", ","], ["selects no code"]),
        (["--config", "missing.toml"], ["missing.toml", "not found"]),
    ],
)
def test_bad_command_line_exits_2(proj: Path, args: list[str], words: list[str]) -> None:
    _one_error_line(shapecheck("check", *args, ".", cwd=proj), *words)


def test_lower_case_codes_are_read_with_a_warning(proj: Path) -> None:
    (proj / "pyproject.toml").write_text('[tool.shapecheck]\nignore = ["shp203"]\n')
    proc = shapecheck("check", "--format", "json", ".", cwd=proj)
    assert "warning" in proc.stderr and "'shp203' read as 'SHP203'" in proc.stderr
    assert proc.returncode == 0 and json.loads(proc.stdout) == []  # SHP104 is noqa'd, SHP203 ignored
    (proj / "pyproject.toml").unlink()
    cli = shapecheck("check", "--format", "json", "--select", "shp2", ".", cwd=proj)
    assert [d["code"] for d in json.loads(cli.stdout)] == ["SHP203"] and "read as 'SHP2'" in cli.stderr


def test_symlink_loop_and_dangling_link_exit_2(proj: Path) -> None:
    (proj / "loop.py").symlink_to("loop.py")
    _one_error_line(shapecheck("check", ".", cwd=proj), "loop.py", "loops back on itself", "expected a Python file")
    (proj / "loop.py").unlink()
    (proj / "gone.py").symlink_to("nowhere.py")
    _one_error_line(shapecheck("check", ".", cwd=proj), "gone.py", "does not exist")


def test_output_into_a_new_folder_is_created(proj: Path) -> None:
    proc = shapecheck("check", "--format", "sarif", "-o", "reports/ci/shapecheck.sarif", ".", cwd=proj)
    assert proc.returncode == 1, proc.stderr
    assert json.loads((proj / "reports" / "ci" / "shapecheck.sarif").read_text())["version"] == "2.1.0"


def test_per_file_ignores_are_relative_to_the_config_folder(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(BUGGY)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "m.py").write_text(BUGGY)
    (tmp_path / "pyproject.toml").write_text('[tool.shapecheck.per-file-ignores]\n"pkg/m.py" = ["SHP203"]\n')
    for cwd, args in (
        (tmp_path, ["."]),
        (tmp_path / "pkg", [".", "../other"]),
        (
            tmp_path / "other",
            [
                "..",
            ],
        ),
    ):
        proc = shapecheck("check", "--format", "json", *args, cwd=cwd)
        got = {
            (Path(os.path.normpath(cwd / d["path"])).relative_to(tmp_path).as_posix(), d["code"])
            for d in json.loads(proc.stdout)
        }
        assert got == {("other/m.py", "SHP203")}, (cwd, proc.stdout, proc.stderr)


def flake8(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "SHP", "--format", "%(row)d:%(code)s", *args],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_flake8_applies_tool_shapecheck_and_disable_noqa(proj: Path) -> None:
    assert flake8("m.py", cwd=proj).stdout.split() == ["7:SHP203"]  # SHP104 is noqa'd
    assert flake8("--disable-noqa", "m.py", cwd=proj).stdout.split() == ["7:SHP203", "11:SHP104"]
    (proj / "pyproject.toml").write_text('[tool.shapecheck]\nignore = ["SHP203"]\n')
    assert flake8("--disable-noqa", "m.py", cwd=proj).stdout.split() == ["11:SHP104"]
    (proj / "pyproject.toml").write_text('[tool.shapecheck]\nselect = ["SHP2"]\n')
    assert flake8("--disable-noqa", "m.py", cwd=proj).stdout.split() == ["7:SHP203"]
    (proj / "pyproject.toml").write_text('[tool.shapecheck.per-file-ignores]\n"m.py" = ["SHP2"]\n')
    assert flake8("--disable-noqa", "m.py", cwd=proj).stdout.split() == ["11:SHP104"]
    (proj / "pyproject.toml").write_text('[tool.shapecheck]\nignroe = ["SHP203"]\n')
    broken = flake8("m.py", cwd=proj)
    assert broken.stdout.split() == ["7:SHP203"]  # a broken configuration never hides a finding
    assert "did you mean 'ignore'" in broken.stderr and "Traceback" not in broken.stderr


def test_mypy_parallel_says_it_reports_nothing(proj: Path) -> None:
    (proj / "pyproject.toml").write_text('[tool.mypy]\nplugins = ["shapecheck"]\nignore_missing_imports = true\n')
    serial = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "m.py"],
        cwd=proj,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "SHP203" in serial.stdout, serial.stdout + serial.stderr
    parallel = subprocess.run(
        [sys.executable, "-m", "mypy", "-n", "2", "m.py"],
        cwd=proj,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    warnings = [line for line in parallel.stderr.splitlines() if line.startswith("shapecheck: warning:")]
    assert len(warnings) == 1 and "-n/--num-workers" in warnings[0], parallel.stderr
    assert "Traceback" not in parallel.stderr


def test_undecodable_file_reported_at_its_first_bad_byte(tmp_path: Path) -> None:
    (tmp_path / "c.py").write_bytes(b"import einops\n\nx = 1\ns = 'caf\xc3\xa9 \xff'\n")
    proc = shapecheck("check", "--format", "json", "c.py", cwd=tmp_path)
    (f,) = json.loads(proc.stdout)
    assert (f["code"], f["line"], f["column"]) == ("SHP901", 4, 11) and "0xff" in f["message"]
