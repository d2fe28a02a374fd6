"""An argument against its parameter's annotation, where nothing checks annotations as the code runs: the SHP205 names
the operation of the body that then fails (what it says, where it is raised), so the finding points at the crash as
well as at the contract it breaks. With a checking decorator the body never runs: no such note."""

from __future__ import annotations

from pathlib import Path

from shapecheck.core import check_source

FIXTURE = Path(__file__).parent / "fixtures" / "annotations" / "unchecked_argument_mismatch_body_runs.py"


def _findings() -> dict[int, list[str]]:
    text = FIXTURE.read_text()
    found = check_source(text, str(FIXTURE))
    return {f.line: [f.code, *f.notes] for f in found}


def test_body_failure_named_in_notes() -> None:
    by_line = _findings()
    code, *notes = by_line[27]
    assert code == "SHP205"
    body = [n for n in notes if n.startswith("nothing checks the annotations")]
    assert len(body) == 1 and "(SHP204)" in body[0] and "654 against 540" in body[0], notes
    assert any(n.startswith("raised at ") and n.split(" in ")[0].endswith("_body_runs.py:13") for n in notes), notes


def test_checked_call_has_no_body_note() -> None:
    code, *notes = _findings()[32]
    assert code == "SHP205"
    assert not any(n.startswith("nothing checks the annotations") for n in notes), notes
