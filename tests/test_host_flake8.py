"""flake8 host: the real `flake8` command on files and on standard input."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from _config_project import set_width, write_configured
from fixture_format import parse_expectations

SAMPLE = """import torch
from torch import Tensor
from einops import rearrange
from jaxtyping import Float


def patchify(img: Float[Tensor, "b 3 225 225"]):
    return rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)  # error:12: SHP203 of size 225


def bad_pattern(x):
    return rearrange(x, "b c -> b c d")  # error:12: SHP104 'd'
"""

_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]+\d+) (?P<msg>.*)$")


def flake8(*args: str, cwd: Path, stdin: str | None = None) -> list[tuple[str, int, int, str, str]]:
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode in (0, 1), proc.stderr
    out = []
    for line in proc.stdout.splitlines():
        m = _LINE.match(line)
        assert m, line
        out.append((m["path"], int(m["line"]), int(m["col"]), m["code"], m["msg"]))
    return out


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("flake8")
    (root / "sample.py").write_text(SAMPLE, encoding="utf-8")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "models.py").write_text(
        "from torch import Tensor\nfrom jaxtyping import Float\n\n\n"
        'def embed(x: Float[Tensor, "b 3 224 224"]) -> Float[Tensor, "b 196 768"]:\n    ...\n'
    )
    (root / "pkg" / "use.py").write_text(
        "from einops import rearrange\nfrom pkg.models import embed\n\n\n"
        'def f(img):\n    t = embed(img)\n    return rearrange(t, "b (h w) c -> b h w c", h=15)\n'
    )
    return root


def test_file_findings_match_the_fixture(project: Path) -> None:
    """Lines, columns, codes and message fragments as written in SAMPLE (not as the core happens to compute them)."""
    got = flake8("--select", "SHP", "sample.py", cwd=project)
    want = parse_expectations(SAMPLE)
    assert [(ln, col, code) for _, ln, col, code, _ in got] == [(e.line, e.column, e.code) for e in want]
    for (_, _, _, code, msg), e in zip(got, want):
        assert e.fragment is not None and e.fragment in msg, (e, msg)
        assert not msg.startswith(code)  # the code appears once, at the start


def test_stdin(project: Path) -> None:
    got = flake8("--select", "SHP", "-", cwd=project, stdin=SAMPLE)
    assert [(path, ln, code) for path, ln, _, code, _ in got] == [("stdin", 8, "SHP203"), ("stdin", 12, "SHP104")]


def test_noqa_and_select(project: Path) -> None:
    text = SAMPLE.replace("p2=16)", "p2=16)  # noqa: SHP203")
    (project / "noqa.py").write_text(text)
    assert [code for *_, code, _ in flake8("--select", "SHP", "noqa.py", cwd=project)] == ["SHP104"]
    assert [code for *_, code, _ in flake8("--select", "SHP2", "sample.py", cwd=project)] == ["SHP203"]
    assert [code for *_, code, _ in flake8("--select", "SHP", "--extend-ignore", "SHP1", "sample.py", cwd=project)] == [
        "SHP203"
    ]


def test_cross_module_annotation(project: Path) -> None:
    got = flake8("--select", "SHP", "pkg", cwd=project)
    assert [(Path(p).as_posix(), ln, code) for p, ln, _, code, _ in got] == [("pkg/use.py", 7, "SHP203")]


def test_pyflakes_noise_on_jaxtyping_strings(project: Path) -> None:
    """What docs/hosts.md says: pyflakes reads shape strings as forward references (F722); extend-ignore silences it."""
    codes = {code for *_, code, _ in flake8("--select", "F", "sample.py", cwd=project)}
    assert "F722" in codes
    codes = {code for *_, code, _ in flake8("--select", "F", "--extend-ignore", "F722", "sample.py", cwd=project)}
    assert "F722" not in codes


def test_pyflakes_f821_on_single_name_dims(project: Path) -> None:
    """A one-word shape string is read as a name (F821); a leading space turns it into F722."""
    (project / "dims.py").write_text(
        "from torch import Tensor\nfrom jaxtyping import Float\n\n\n"
        'def f(x: Float[Tensor, "batch"], y: Float[Tensor, " batch"]):\n    return x, y\n'
    )
    got = [(code, col) for _, _, col, code, _ in flake8("--select", "F", "dims.py", cwd=project)]
    assert [code for code, _ in got] == ["F821", "F722"]


def test_results_are_cached_by_content(tmp_path: Path) -> None:
    (tmp_path / "sample.py").write_text(SAMPLE, encoding="utf-8")
    first = flake8("--select", "SHP", "sample.py", cwd=tmp_path)
    assert first and (tmp_path / ".shapecheck_cache").is_dir()
    assert flake8("--select", "SHP", "sample.py", cwd=tmp_path) == first  # served from the cache
    (tmp_path / "sample.py").write_text(SAMPLE.replace("225 225", "224 224"), encoding="utf-8")
    after = flake8("--select", "SHP", "sample.py", cwd=tmp_path)
    assert [r[3] for r in after] == ["SHP104"]  # a changed file is analysed again


def test_cache_covers_the_config_files_the_code_reads(tmp_path: Path) -> None:
    """A YAML file the code reads is part of the host's cache key too: editing it re-checks the file."""
    write_configured(tmp_path, 8)
    assert flake8("--select", "SHP", "test_cfg.py", cwd=tmp_path) == []
    set_width(tmp_path, 6)
    assert [r[3] for r in flake8("--select", "SHP", "test_cfg.py", cwd=tmp_path)] == ["SHP204"]
