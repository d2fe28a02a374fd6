"""``text + s``, ``text * n`` and ``text % values`` of known operands (interpreter._string_operation) against Python
on generated formats and values: the analysis gives Python's text, or no value where Python raises or where the text
would be huge (a width written out larger than 999)."""

from __future__ import annotations

import libcst as cst
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck.analysis.interpret.interpreter import _string_operation
from shapecheck.analysis.interpret.values import BoolV, FloatV, IntV, SeqV, StrV, Value
from shapecheck.sizes import Size

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))

SPECS = ["%d", "%s", "%r", "%x", "%03d", "%.2f", "%5s", "%-4d", "%%", "%i", "%e", "%(a)s", "%*d", "%1234d", "%c"]
texts = st.lists(st.sampled_from(SPECS + ["layer", "_", "x"]), max_size=4).map("".join)
scalars = st.one_of(
    st.integers(-50, 5000), st.sampled_from([0.5, 1e-3, 2.0]), st.sampled_from(["a", "bc", ""]), st.booleans()
)


def _value(x: object) -> Value:
    if isinstance(x, bool):
        return BoolV(x)
    if isinstance(x, int):
        return IntV(Size.const(x))
    if isinstance(x, float):
        return FloatV(x)
    if isinstance(x, tuple):
        return SeqV(tuple(_value(y) for y in x), "tuple")
    assert isinstance(x, str)
    return StrV(x)


@settings(max_examples=500, **SETTINGS)
@given(texts, st.one_of(scalars, st.lists(scalars, max_size=3).map(tuple)))
def test_percent_formatting_agrees_with_python(text: str, values: object) -> None:
    try:
        want: str | None = text % values  # type: ignore[str-format]
    except (TypeError, ValueError, OverflowError, KeyError):
        want = None
    got = _string_operation(text, cst.Modulo(), _value(values))
    if "*" in text or "%1234d" in text:
        assert got is None  # (a width not written out, or a huge one: not formatted)
    else:
        assert got == want, (text, values)


@settings(max_examples=200, **SETTINGS)
@given(texts, texts, st.integers(-2, 5))
def test_concatenation_and_repetition_agree_with_python(a: str, b: str, n: int) -> None:
    assert _string_operation(a, cst.Add(), StrV(b)) == a + b
    assert _string_operation(a, cst.Multiply(), IntV(Size.const(n))) == a * n
    assert _string_operation(a, cst.Add(), IntV(Size.const(n))) is None  # (Python raises TypeError)
