"""Very long input (issue 14, item 8): each function has a line budget (checked before parsing), a step budget and a
time budget; what is over it gets one SHP903 note, never minutes of analysis or gigabytes. The budgets are made
tiny here through the environment variables, so no test depends on how fast the machine is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shapecheck.analysis.interpret.budget import long_functions, shrink_long_functions

ROOT = Path(__file__).resolve().parents[1]


def generated(n: int, bug_at_end: bool = False) -> str:
    """One function of ``n`` steps: rearranges, arithmetic and branches over a growing set of variables."""
    lines = ["import torch", "from einops import rearrange", "", "", "def f(x):", "    y0 = torch.zeros(2, 8, 16)"]
    for i in range(1, n):
        k = i % 4
        if k == 0:
            lines.append(f"    y{i} = rearrange(y{i - 1}, 'b n d -> b d n')")
        elif k == 1:
            lines.append(f"    y{i} = y{i - 1} + 1")
        elif k == 2:
            lines.append(
                f"    if y{i - 1}.shape[0] > {i}:\n        y{i} = y{i - 1} * 2\n    else:\n        y{i} = y{i - 1}"
            )
        else:
            lines.append(f"    y{i} = rearrange(y{i - 1}, 'b d n -> b n d')")
    if bug_at_end:
        lines.append(f"    bad = rearrange(y{n - 1}, '(a b) n d -> a b n d', a=3)")
    lines.append(f"    return y{n - 1}")
    lines += ["", "", "def g(x: 'int'):", "    return rearrange(torch.zeros(2, 3), 'a b -> a b c')", ""]
    return "\n".join(lines)


def check(tmp_path: Path, text: str, **env: str) -> tuple[int, list[dict[str, object]], str]:
    (tmp_path / "gen.py").write_text(text)
    proc = subprocess.run(
        [sys.executable, "-m", "shapecheck", "check", "--no-cache", "--format", "json", "gen.py"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=600,
    )
    return proc.returncode, json.loads(proc.stdout or "[]"), proc.stderr


def test_within_budget_the_function_is_analysed(tmp_path: Path) -> None:
    rc, found, err = check(tmp_path, generated(200, bug_at_end=True))
    assert [f["code"] for f in found] == ["SHP203", "SHP104"], (found, err)


def test_step_budget_stops_the_function_with_one_note(tmp_path: Path) -> None:
    rc, found, err = check(tmp_path, generated(200, bug_at_end=True), SHAPECHECK_FUNCTION_STEPS="300")
    assert rc == 1, err
    codes = [(f["code"], f["line"], f["column"]) for f in found]
    # f() stops before its last line (its SHP203 is not guessed); g(), a function of its own, is still checked
    assert codes[0] == ("SHP903", 5, 5) and [c for c, _, _ in codes] == ["SHP903", "SHP104"], codes
    note = found[0]
    assert note["severity"] == "warning" and str(note["message"]).startswith("SHP903 analysis budget exceeded in f(): ")
    assert "300 analysis steps" in str(note["message"])


def test_line_budget_skips_the_parse_of_a_long_function(tmp_path: Path) -> None:
    text = generated(300, bug_at_end=True)
    rc, found, err = check(tmp_path, text, SHAPECHECK_FUNCTION_LINES="100")
    codes = [(f["code"], f["line"]) for f in found]
    body = len(text.split("def g")[0].splitlines()) - 5 - 2  # the lines below ``def f(x):`` up to the blank lines
    assert codes[0] == ("SHP903", 5) and f"its body has {body:,} lines" in str(found[0]["message"]), found
    assert [c for c, _ in codes] == ["SHP903", "SHP104"]  # g() keeps its line (and its finding)
    assert found[1]["line"] == text.splitlines().index("    return rearrange(torch.zeros(2, 3), 'a b -> a b c')") + 1


def test_shrunk_text_keeps_every_other_line_and_column(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (
        "import einops\r\n\r\nclass C:\r\n    def m(self):\r\n"
        + "".join(f"        x{i} = {i}\r\n" for i in range(50))
        + "        return (\r\n            x1)\r\n\r\n    def small(self):\r\n        return 1\r\n"
    )
    assert long_functions(text, 10) == [(4, 8, "m", 5, 56)]
    monkeypatch.setenv("SHAPECHECK_FUNCTION_LINES", "10")
    shrunk, notes = shrink_long_functions(text)
    assert notes == [(4, 8, "m", 52)]
    old, new = text.splitlines(keepends=True), shrunk.splitlines(keepends=True)
    assert len(old) == len(new) and new[4] == "        return __shapecheck_not_analysed__\r\n"
    assert all(n == "\r\n" for n in new[5:56])
    assert old[:4] == new[:4] and old[56:] == new[56:]
    compile(shrunk, "m.py", "exec")
