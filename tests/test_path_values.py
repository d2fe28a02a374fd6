"""pathlib paths of known text (analysis/interpret/path_values.py) against ``pathlib.PurePosixPath`` on generated
paths: the text a path keeps, ``/``, ``parent``, ``name``, ``stem``, ``suffix``, ``with_suffix``, ``with_name``,
``joinpath``. Where pathlib raises (an invalid suffix, an empty name), the analysis does not know the value."""

from __future__ import annotations

from pathlib import PurePosixPath

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck.analysis.interpret import path_values
from shapecheck.analysis.interpret.values import UNKNOWN, StrV

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))

PARTS = ["a", "b.c", "..", ".", "", "x.tar.gz", ".hidden", "cfg.yaml", "d."]
texts = st.builds(
    lambda lead, parts, trail: lead + "/".join(parts) + trail,
    st.sampled_from(["", "/", "//", "///"]),
    st.lists(st.sampled_from(PARTS), max_size=4),
    st.sampled_from(["", "/"]),
)
suffixes = st.sampled_from(["", ".json", ".yaml", "json", ".", "a/b", ".x.y"])
names = st.sampled_from(["", "model.py", ".", "a/b", "cfg"])


def _text(v: object) -> str | None:
    return path_values.path_text(v) if v is not UNKNOWN else None  # type: ignore[arg-type]


@settings(max_examples=400, **SETTINGS)
@given(texts, texts)
def test_text_join_and_parts_agree_with_pathlib(a: str, b: str) -> None:
    p, q = PurePosixPath(a), PurePosixPath(b)
    va, vb = path_values.path_value(a), path_values.path_value(b)
    assert _text(va) == str(p)
    assert _text(path_values.join(va, vb)) == str(p / q)
    assert _text(path_values.join(va, StrV(b))) == str(p / b)
    assert _text(path_values.join(StrV(a), vb)) == str(a / q)
    for attr in ("name", "stem", "suffix"):
        got = path_values.attribute(va, attr)  # type: ignore[arg-type]
        assert isinstance(got, StrV) and got.value == getattr(p, attr), (a, attr)
    parent = path_values.attribute(va, "parent")  # type: ignore[arg-type]
    if parent is not UNKNOWN:
        assert _text(parent) == str(p.parent), a


@settings(max_examples=300, **SETTINGS)
@given(texts, suffixes, names)
def test_with_suffix_and_name_agree_with_pathlib(a: str, suffix: str, name: str) -> None:
    p, v = PurePosixPath(a), path_values.path_value(a)
    for method, arg in (("with_suffix", suffix), ("with_name", name)):
        try:
            want: str | None = str(getattr(p, method)(arg))
        except ValueError:
            want = None
        got = path_values.method(None, v, method, [StrV(arg)], {})  # type: ignore[arg-type]
        if got is UNKNOWN:
            continue  # (not known: allowed, never wrong)
        assert want is not None and _text(got) == want, (a, method, arg)


def test_windows_text_is_not_followed() -> None:
    assert path_values.path_value("C:\\configs\\tiny.yaml") is UNKNOWN
