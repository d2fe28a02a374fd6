"""Documentation examples as entry points (shapecheck/analysis/index/examples.py): the python blocks of a README are
analysed like a test body, with the package they import; the fixture is tests/fixtures/multi/readme_examples.test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fixture_format import FIXTURES, split_multi
from shapecheck.analysis.index.examples import collect_docs, example_modules, is_doc
from shapecheck.config import Config, ConfigError, config_from_mapping

ROOT = Path(__file__).resolve().parents[1]


def _write_fixture(tmp_path: Path) -> Path:
    for name, content in split_multi((FIXTURES / "multi" / "readme_examples.test").read_text("utf-8")).items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, "utf-8")
    return tmp_path


def _check(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return _shapecheck_check("--no-cache", "-j", "1", *args, cwd=cwd)


def _shapecheck_check(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shapecheck", "check", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


def test_line_numbers_kept_and_blocks_independent_unless_continued() -> None:
    md = (
        "text\n```python\nimport torch\nm = torch.nn.Linear(2, 3)\n```\nmore\n```python\nm(torch.randn(1, 2))\n```\n"
        "```python\nimport torch\nm = 1\n```\n```bash\nls\n```\n"
    )
    first, second = example_modules(md)
    lines = first.text.splitlines()
    assert len(lines) == len(md.splitlines())
    assert lines[1].startswith("def ") and lines[2] == "    import torch"
    assert lines[6] == "" and lines[7] == "    m(torch.randn(1, 2))"  # continues the first block: no def of its own
    assert first.blocks == 2 and first.shift[8] == (4, 4)
    assert second.text.splitlines()[9].startswith("def ") and second.blocks == 1  # binds what it reads: a new example
    assert second.text.splitlines()[1] == ""


def test_blocks_that_are_not_programs_are_left_out() -> None:
    md = "```python\nf(x, ...)  !\n```\n```python\n>>> 1 + 1\n2\n```\n```python\n# only a comment\n```\n```python\nreturn 1\n```\n"
    assert example_modules(md) == []


def test_which_markdown_files_are_docs(tmp_path: Path) -> None:
    assert is_doc(Path("README.md")) and is_doc(Path("pkg/readme.MD")) and is_doc(Path("docs/guide/usage.md"))
    assert not is_doc(Path("CHANGELOG.md")) and not is_doc(Path("README.rst"))
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("x")
    (tmp_path / "README.md").write_text("x")
    (tmp_path / "NOTES.md").write_text("x")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "README.md").write_text("x")  # excluded folders stay excluded
    assert collect_docs([str(tmp_path)], Config()) == [tmp_path / "README.md", tmp_path / "docs" / "a.md"]


def test_cli_reports_in_the_readme_and_can_be_turned_off(tmp_path: Path) -> None:
    root = _write_fixture(tmp_path)
    on = _check(".", cwd=root)
    assert on.returncode == 1, on.stderr
    assert "README.md:24:1: SHP204" in on.stdout and "README.md:42:3: SHP204" in on.stdout
    assert "attnpkg/attention.py:15 in forward()" in on.stdout  # the inner line, as a note
    assert "tests/test_attention.py:8:5: SHP204" in on.stdout  # a test importing the model through __init__
    off = _check(".", "--no-examples", cwd=root)
    assert "README.md" not in off.stdout and "test_attention.py:8:5: SHP204" in off.stdout, off.stderr
    (root / "pyproject.toml").write_text("[tool.shapecheck]\nexamples = false\n")
    assert "README.md" not in _check(".", cwd=root).stdout
    assert "README.md:24:1" in _check(".", "--examples", cwd=root).stdout  # the command line wins
    alone = _check("README.md", "--examples", cwd=root)  # named alone: read as documentation, not as Python
    assert alone.returncode == 1 and "README.md:24:1: SHP204" in alone.stdout and "SHP901" not in alone.stdout


def test_config_key_is_validated() -> None:
    assert config_from_mapping({"examples": False}).examples is False
    assert Config().examples is True
    with pytest.raises(ConfigError, match="examples: expected true or false"):
        config_from_mapping({"examples": "no"})


def test_documentation_is_scheduled_with_the_files_in_parallel_runs(tmp_path: Path) -> None:
    """With ``-j 2`` a README is a work item like a source file (any worker may take it): the findings, their order
    and the cached second run are those of ``-j 1``."""
    root = _write_fixture(tmp_path)
    for k in range(8):  # enough files for the runner to fork a worker (runner._run: 8 or more to analyse)
        (root / "attnpkg" / f"extra_{k}.py").write_text(
            f"import torch\nfrom einops import rearrange\n\n\ndef f{k}(x):\n    return rearrange(x, 'b n d -> b d n')\n"
        )
    one = _check(".", cwd=root)
    two = _shapecheck_check("--no-cache", "-j", "2", ".", cwd=root)
    assert "README.md:24:1: SHP204" in one.stdout and "README.md:42:3: SHP204" in one.stdout, one.stderr
    assert two.stdout == one.stdout and two.returncode == one.returncode == 1, two.stderr
    cached = [_shapecheck_check("-j", "2", ".", cwd=root).stdout for _ in range(2)]
    assert cached == [one.stdout, one.stdout]


def test_documentation_runs_right_after_its_projects_files(tmp_path: Path) -> None:
    """Over several projects in one run, a README's examples are scheduled after the last file of their own project
    (whose modules they import, still loaded), not after every file of the run; a Markdown file whose project has no
    Python file to check comes last."""
    from shapecheck.runner import DocPart, Item, _after_their_files

    files = []
    for name in ("alpha", "beta"):
        (tmp_path / name / name).mkdir(parents=True)
        (tmp_path / name / "pyproject.toml").write_text("")
        (tmp_path / name / "README.md").write_text("")
        for mod in ("a.py", "b.py"):
            (tmp_path / name / name / mod).write_text("")
            files.append(tmp_path / name / name / mod)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "README.md").write_text("")
    todo: list[Item] = [(i, f, str(f)) for i, f in enumerate(files)]
    docs = [
        (10, DocPart(tmp_path / "beta" / "README.md", 0), "beta"),
        (11, DocPart(tmp_path / "alpha" / "README.md", 0), "alpha"),
        (12, DocPart(tmp_path / "notes" / "README.md", 0), "notes"),
        (13, DocPart(tmp_path / "alpha" / "README.md", 1), "alpha"),
    ]
    assert [i for i, _, _ in _after_their_files(todo, docs)] == [0, 1, 11, 13, 2, 3, 10, 12]
