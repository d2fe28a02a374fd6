"""Regular expressions of the analysed code on known strings (analysis/interpret/regex_calls.py), against Python's
``re`` on generated patterns and strings.

Each generated program computes an int from the call's result (a piece count, a piece's length, whether a match was
found) and multiplies ``torch.zeros(that int)`` with a vector of the length Python's ``re`` gives: silent when the
analysis got the same int. A second probe with a length one more must be a definite finding whenever the pattern is
one the analysis runs (so a silent analysis does not pass for a right one). Patterns that could backtrack for long
are never run: their calls stay unknown.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck.analysis.interpret.regex_calls import safe_pattern
from shapecheck.core import check_source

pytest.importorskip("torch")

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))

PIECES = [r"\d", r"\d+", r"[a-z]", r"[a-z]*", "_", r"(\d.*)", r"([a-z]+)", "x", r"\.", r"(\d+)", "r", "c", r"(_)?"]
ALPHABET = "ab_rc0129x."


def _probes(how: str, pattern: str, text: str) -> list[tuple[str, int]]:
    """(expression, Python's value) pairs for the result ``r`` of ``re.<how>(pattern, text)``."""
    if how == "split":
        parts = re.split(pattern, text)
        return [("len(r)", len(parts))] + [(f'len(r[{i}] or "")', len(p or "")) for i, p in enumerate(parts[:4])]
    if how == "findall":
        return [("len(r)", len(re.findall(pattern, text)))]
    if how == "sub":
        return [("len(r)", len(re.sub(pattern, "--", text)))]
    m = getattr(re, how)(pattern, text)
    probes = [("int(r is None)", int(m is None))]
    if m is not None:
        probes.append(("len(r.group(0))", len(m.group(0))))
        probes.extend((f'len(r.group({i}) or "")', len(g or "")) for i, g in enumerate(m.groups()[:2], 1))
    return probes


def _call(how: str, pattern: str, text: str) -> str:
    if how == "sub":
        return f're.sub({pattern!r}, "--", {text!r})'
    return f"re.{how}({pattern!r}, {text!r})"


def render(how: str, pattern: str, text: str, probes: list[tuple[str, int]], extra: int) -> str:
    lines = ["import re", "", "import torch", "", "", "def f():", f"    r = {_call(how, pattern, text)}"]
    for expr, value in probes:
        lines.append(f"    torch.zeros({expr}) @ torch.zeros({value + extra})")
    return "\n".join(lines) + "\n"


def generate(seed: int) -> tuple[str, str, str]:
    rnd = random.Random(seed)
    pattern = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(1, 3)))
    text = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 12)))
    how = rnd.choice(["split", "findall", "sub", "match", "fullmatch", "search"])
    return how, pattern, text


def _definite(src: str) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in check_source(src, "gen.py") if f.code[:4] in ("SHP1", "SHP2", "SHP9")]


@settings(max_examples=250, **SETTINGS)
@given(st.integers(0, 2**32 - 1))
def test_results_agree_with_python(seed: int) -> None:
    how, pattern, text = generate(seed)
    probes = _probes(how, pattern, text)
    same = render(how, pattern, text, probes, 0)
    assert _definite(same) == [], same
    if safe_pattern(pattern) is None:
        return
    off = render(how, pattern, text, probes, 1)
    found = {line for line, _ in _definite(off)}
    assert found == set(range(8, 8 + len(probes))), off


def test_block_string_decoding() -> None:
    # timm's EfficientNet block strings: "ir_r2_k3_s2_e6_c24_se0.25" (float of a known string too)
    src = """import re

import torch


def decode(block_str):
    opts = {}
    for op in block_str.split("_")[1:]:
        key, value = re.split(r"(\\d.*)", op)[:2]
        opts[key] = value
    return int(opts["c"]), float(opts["se"])


def f():
    out, se = decode("ir_r2_k3_s2_e6_c24_se0.25")
    torch.zeros(out) @ torch.zeros(16)
    torch.zeros(int(out * se)) @ torch.zeros(6)
"""
    assert [line for line, _ in _definite(src)] == [16]


@pytest.mark.parametrize(
    "pattern",
    [
        r"(a+)+b",  # nested repetition: exponential backtracking on "aaaa...c"
        r"(a|aa)*c",  # alternation under a repetition
        r"(a*)*",
        r"(\w+)\1",  # backreference
        r"(a)?(?(1)b|c)",  # conditional group
        r"\d+_\d+_\d+",  # three repetitions
        "a" * 300,  # too long
        r"([a-z",  # does not compile
    ],
)
def test_patterns_that_are_not_run(pattern: str) -> None:
    assert safe_pattern(pattern) is None
    src = f"import re\n\nimport torch\n\n\ndef f():\n    r = re.split({pattern!r}, 'aaaaaaaaaaaaaaaaaaaaaaaa_1_2')\n"
    src += "    torch.zeros(len(r)) @ torch.zeros(100)\n"
    assert _definite(src) == []  # the call's value is not known: silence


def test_compiled_pattern_and_match_methods() -> None:
    src = """import re

import torch

LAYER = re.compile(r"blocks\\.(\\d+)\\.(attn|mlp)")


def f():
    m = LAYER.match("blocks.12.attn.qkv")
    index, kind = m.groups()
    torch.zeros(int(index)) @ torch.zeros(12)
    torch.zeros(len(kind)) @ torch.zeros(5)
    torch.zeros(len(m.group(0))) @ torch.zeros(14)
"""
    assert [line for line, _ in _definite(src)] == [12]


def test_long_subject_is_not_run() -> None:
    text = "a_" * 200
    src = f"import re\n\nimport torch\n\n\ndef f():\n    r = re.split('_', {text!r})\n"
    src += "    torch.zeros(len(r)) @ torch.zeros(3)\n"
    assert _definite(src) == []
