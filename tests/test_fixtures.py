"""One runner for every fixture: the (line, code) set reported must equal the one written in the source."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixture_format import FIXTURES, expectations, multi_fixtures, single_fixtures, split_multi
from shapecheck.config import Config
from shapecheck.core import check_source
from shapecheck.runner import run


@pytest.mark.parametrize("path", single_fixtures(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_single_file_fixture(path: Path) -> None:
    text = path.read_text("utf-8")
    got = {(f.line, f.code) for f in check_source(text, str(path), Config())}
    assert got == expectations(text), _explain(text, got, expectations(text))


@pytest.mark.parametrize("path", multi_fixtures(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_multi_file_fixture(path: Path, tmp_path: Path) -> None:
    files = split_multi(path.read_text("utf-8"))
    for name, content in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, "utf-8")
    written = sorted(tmp_path / n for n in files if n.endswith(".py"))
    findings = run(written, Config(root=str(tmp_path)), jobs=1, use_cache=False)
    for name, content in files.items():
        got = {(f.line, f.code) for f in findings if Path(f.path) == tmp_path / name}
        assert got == expectations(content), f"[{name}] " + _explain(content, got, expectations(content))


def _explain(text: str, got: set[tuple[int, str]], want: set[tuple[int, str]]) -> str:
    lines = text.splitlines()
    parts = []
    for ln, code in sorted(got - want):
        parts.append(f"unexpected {code} at line {ln}: {lines[ln - 1].strip() if ln <= len(lines) else ''}")
    for ln, code in sorted(want - got):
        parts.append(f"missing {code} at line {ln}: {lines[ln - 1].strip() if ln <= len(lines) else ''}")
    return "\n".join(parts)
