"""One runner for every fixture: what is reported must be what the source says, line by line (see fixture_format):
the (line, code) set, each finding's severity, and the column and message fragment where one is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixture_format import FIXTURES, mismatches, multi_fixtures, parse_expectations, single_fixtures, split_multi
from shapecheck.config import Config
from shapecheck.core import check_source
from shapecheck.diagnostics import Finding, Severity
from shapecheck.runner import run


@pytest.mark.parametrize("path", single_fixtures(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_single_file_fixture(path: Path) -> None:
    text = path.read_text("utf-8")
    problems = mismatches(text, check_source(text, str(path), Config()))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", multi_fixtures(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_multi_file_fixture(path: Path, tmp_path: Path) -> None:
    files = split_multi(path.read_text("utf-8"))
    for name, content in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, "utf-8")
    written = sorted(tmp_path / n for n in files if n.endswith(".py"))
    docs = sorted(tmp_path / n for n in files if n.endswith(".md"))  # README examples are entry points
    findings = run(written, Config(root=str(tmp_path)), jobs=1, use_cache=False, docs=docs)
    for name, content in files.items():
        problems = mismatches(content, [f for f in findings if Path(f.path) == tmp_path / name])
        assert not problems, f"[{name}] " + "\n".join(problems)


# ---- the runner itself: each kind of difference a user would see is caught ----

SOURCE = "y = f(x)  # error:5: SHP203 cannot be split\nz = g(x)  # warning: SHP301, SHP302\nw = 1\n"


def _finding(line: int, col: int, code: str, message: str, severity: Severity | None = None) -> Finding:
    return Finding("t.py", line, col, line, col + 1, code, f"{code} {message}", severity=severity)


def _good() -> list[Finding]:
    return [
        _finding(1, 5, "SHP203", "axis 'h' of size 5 cannot be split into chunks of 2"),
        _finding(2, 5, "SHP301", "sum adds 10 float16 values"),
        _finding(2, 5, "SHP302", "sum adds 10 bfloat16 values"),
    ]


def test_parse_expectations() -> None:
    got = parse_expectations(SOURCE + "a = 1  # error: SHP101 bad # warning:3: SHP401\n")
    assert [(e.line, e.code, e.severity, e.column, e.fragment) for e in got] == [
        (1, "SHP203", "error", 5, "cannot be split"),
        (2, "SHP301", "warning", None, None),
        (2, "SHP302", "warning", None, None),
        (4, "SHP101", "error", None, "bad"),
        (4, "SHP401", "warning", 3, None),
    ]


@pytest.mark.parametrize(
    "change,expected",
    [
        (lambda fs: fs, None),
        (lambda fs: [fs[0].with_(column=6)] + fs[1:], "column [6], expected 5"),
        (
            lambda fs: [fs[0].with_(message="SHP203 axis 'h' does not fit")] + fs[1:],
            "no message or note contains 'cannot be split'",
        ),
        (  # a fragment a note holds (where an operand was made) is found there
            lambda fs: [fs[0].with_(message="SHP203 axis 'h' does not fit", notes=("h cannot be split",))] + fs[1:],
            None,
        ),
        (lambda fs: [fs[0].with_(severity=Severity.WARNING)] + fs[1:], "is a warning, the fixture says error"),
        (lambda fs: fs[:2] + [fs[2].with_(severity=Severity.ERROR)], "SHP302 at line 2 is a error"),
        (lambda fs: fs + [fs[0]], "reported 2 times"),
        (lambda fs: fs[1:], "missing SHP203 at line 1"),
        (lambda fs: fs + [_finding(3, 1, "SHP204", "x")], "unexpected SHP204 at line 3"),
    ],
)
def test_runner_catches(change, expected) -> None:
    problems = mismatches(SOURCE, change(_good()))
    if expected is None:
        assert problems == []
    else:
        assert any(expected in p for p in problems), problems


def test_findings_carry_their_fields() -> None:
    """Programs read a finding's fields, never its message: the template's fields, and for an argument or a return
    that contradicts an annotation, the detail quoting the matcher's own code and fields."""
    src = (
        "from torch import Tensor\nfrom einops import rearrange\nfrom jaxtyping import Float\nimport torch\n\n"
        'def f(x: Float[Tensor, "b 768"]): ...\n\n'
        "f(torch.zeros(2, 512))\n"
        'y = rearrange(torch.zeros(2, 10), "b (h p) -> b h p", p=3)\n'
    )
    got = {f.code: f for f in check_source(src, "t.py", Config())}
    assert str(got["SHP203"].field_value("size")) == "10" and str(got["SHP203"].field_value("chunk")) == "3"
    arg = got["SHP205"]
    detail = arg.field_value("detail")
    assert (arg.field_value("param"), arg.field_value("func"), detail.cause) == ("x", "f", "SHP202")
    assert str(dict(detail.cause_fields)["actual"]) == "512"
    assert arg.fields_json()["detail"]["kind"] == "annotation" and arg.fields_json()["detail"]["cause"] == "SHP202"
