"""The pattern grammar agrees with einops.parsing.ParsedExpression (accept vs reject) and parses structure."""

from __future__ import annotations

import warnings

import pytest
from einops.parsing import ParsedExpression
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck.pattern import PatternError, parse_expression
from shapecheck.pattern.grammar import ELLIPSIS, Anon

TOKENS = [
    "a",
    "b",
    "hw",
    "x1",
    "_",
    "_a",
    "a_",
    "1",
    "2",
    "10",
    "0",
    "00",
    "01",
    "(",
    ")",
    " ",
    " ",
    "...",
    ".",
    "\u2026",
    "-",
    "é",
    "٣",
    "²",
    "a.b",
    "for",
]


def einops_accepts(text: str, **kw: bool) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ParsedExpression(text, **kw)
    except Exception:  # noqa: BLE001
        return False
    return True


def ours_accepts(text: str, **kw: bool) -> bool:
    try:
        parse_expression(text, **kw)
    except PatternError:
        return False
    return True


@settings(max_examples=1200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=8), st.booleans(), st.booleans())
def test_accepts_exactly_what_einops_accepts(tokens: list, underscore: bool, duplicates: bool) -> None:
    text = "".join(tokens)
    kw = dict(allow_underscore=underscore, allow_duplicates=duplicates)
    assert ours_accepts(text, **kw) == einops_accepts(text, **kw), text
    if ours_accepts(text, **kw):
        ours = parse_expression(text, **kw)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = ParsedExpression(text, **kw)
        assert ours.has_ellipsis == theirs.has_ellipsis
        assert len(ours.composition) == len(theirs.composition)
        assert ours.has_composed_axes == theirs.has_composed_axes()
        assert bool(ours.anonymous) == theirs.has_non_unitary_anonymous_axes
        assert ours.names == {x for x in theirs.identifiers if isinstance(x, str)}


def test_structure() -> None:
    e = parse_expression("b c (h p1) (w 2) ... ()")
    assert e.has_ellipsis and e.ellipsis_parenthesized is False
    assert e.composition[0] == ("b",)
    assert e.composition[2] == ("h", "p1")
    assert e.composition[3][0] == "w" and isinstance(e.composition[3][1], Anon) and e.composition[3][1].value == 2
    assert e.composition[4] == ELLIPSIS
    assert e.composition[5] == ()
    assert e.names == {"b", "c", "h", "p1", "w", ELLIPSIS}


@pytest.mark.parametrize(
    "text, code",
    [
        ("a (b (c))", "SHP101"),
        ("a (b", "SHP101"),
        ("a b)", "SHP101"),
        ("a .. b", "SHP101"),
        ("... ...", "SHP101"),
        ("a 0", "SHP101"),
        ("_a", "SHP101"),
        ("a-b", "SHP101"),
        ("a a", "SHP102"),
    ],
)
def test_rejections(text: str, code: str) -> None:
    with pytest.raises(PatternError) as info:
        parse_expression(text)
    assert info.value.problem.code == code
    info.value.problem.message()


def test_unicode_ellipsis_and_units() -> None:
    assert parse_expression("a \u2026").has_ellipsis is False  # literal marker: not an ellipsis for einops
    assert parse_expression("a ...").has_ellipsis is True
    assert parse_expression("1 01 ()").composition == ((), (), ())
    assert ours_accepts("_ _", allow_underscore=True)
    assert not ours_accepts("_ _")
