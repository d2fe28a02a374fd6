"""Folders a checked script adds to sys.path itself (index/sys_path.py): which path expressions are read."""

from __future__ import annotations

from pathlib import Path

import pytest

from shapecheck.analysis.index.sys_path import extra_roots
from shapecheck.config import Config
from shapecheck.runner import run


@pytest.mark.parametrize(
    "line,expected",
    [
        ('sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "stubs"))', "pkg/scripts/stubs"),
        ("sys.path.insert(0, os.path.dirname(__file__))", "pkg/scripts"),
        ('sys.path.append(os.path.join(os.path.dirname(__file__), "..", "vendor"))', "pkg/vendor"),
        ("sys.path.insert(0, str(Path(__file__).resolve().parents[1]))", "pkg"),
        ('sys.path.append(str(pathlib.Path(__file__).parent / "stubs"))', "pkg/scripts/stubs"),
        ("sys.path.insert(0, os.fspath(Path(__file__).absolute().parent.parent))", "pkg"),
        ('sys.path.insert(0, "stubs")', None),  # the working directory's folder
        ('sys.path.insert(0, os.environ["LIBS"])', None),
        ('sys.path.insert(0, os.path.join(os.path.dirname(__file__), "missing"))', None),  # no such folder
        ("sys.path.insert(0, os.path.join(os.path.dirname(__file__), name))", None),
        ("sys.path.remove(os.path.dirname(__file__))", None),
    ],
)
def test_folder_read_from_sys_path_statement(tmp_path: Path, line: str, expected: str | None) -> None:
    for d in ("pkg/scripts/stubs", "pkg/vendor"):
        (tmp_path / d).mkdir(parents=True)
    script = tmp_path / "pkg/scripts/run.py"
    script.write_text(f"import os\nimport pathlib\nimport sys\nfrom pathlib import Path\n\n{line}\n")
    assert extra_roots([script]) == ([] if expected is None else [(tmp_path / expected).resolve()])


def test_main_guard_and_try_are_read_functions_are_not(tmp_path: Path) -> None:
    for d in ("a", "b", "c"):
        (tmp_path / d).mkdir()
    script = tmp_path / "run.py"
    script.write_text(
        "import os, sys\n"
        "here = os.path.dirname(__file__)\n"
        "if __name__ == '__main__':\n"
        "    sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'a'))\n"
        "try:\n"
        "    sys.path.append(os.path.join(os.path.dirname(__file__), 'b'))\n"
        "except ImportError:\n"
        "    pass\n"
        "def setup():\n"
        "    sys.path.append(os.path.join(os.path.dirname(__file__), 'c'))\n"
    )
    assert extra_roots([script]) == [(tmp_path / "a").resolve(), (tmp_path / "b").resolve()]


def test_files_that_do_not_parse_or_do_not_mention_sys_path_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    bad = tmp_path / "bad.py"
    bad.write_text("sys.path.insert(0, os.path.dirname(__file__)\n")  # unclosed
    plain = tmp_path / "plain.py"
    plain.write_text("import os\nx = os.path.dirname(__file__)\n")
    assert extra_roots([bad, plain]) == []


MAIN = """import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "vendor"))

import torch
from tinylib import Block

block = Block(64)
out = block(torch.randn(2, 32))
"""

BLOCK = """from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj(x)
"""


@pytest.mark.parametrize("vendor_line", [None, 'sys.path.insert(0, "vendor")'])
def test_a_script_checked_alone_sees_the_library_it_vendors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vendor_line: str | None
) -> None:
    """flake8, the language server and ``shapecheck check main.py`` see one file: the vendored library is found
    through the script's own sys.path line (a line relative to the working directory is not followed)."""
    (tmp_path / "vendor/tinylib").mkdir(parents=True)
    (tmp_path / "vendor/tinylib/__init__.py").write_text("from tinylib.block import Block\n")
    (tmp_path / "vendor/tinylib/block.py").write_text(BLOCK)
    main = tmp_path / "main.py"
    text = MAIN if vendor_line is None else MAIN.replace(MAIN.splitlines()[3], vendor_line)
    main.write_text(text)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # not the script's folder: "vendor" relative to it is no folder
    found = [(f.line, f.code) for f in run([main], Config(), jobs=1, use_cache=False)]
    assert found == ([(10, "SHP204")] if vendor_line is None else [])
