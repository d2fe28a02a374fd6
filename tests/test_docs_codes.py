"""docs/codes.md is generated from the registry: regenerate with `shapecheck rules --markdown > docs/codes.md`."""

from __future__ import annotations

from pathlib import Path

from shapecheck.diagnostics import CODES
from shapecheck.hosts.docs import render_codes_markdown

DOC = Path(__file__).resolve().parents[1] / "docs" / "codes.md"


def test_codes_md_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == render_codes_markdown(), (
        "docs/codes.md is stale: run `shapecheck rules --markdown > docs/codes.md`"
    )


def test_every_code_has_a_section() -> None:
    text = render_codes_markdown()
    for c in CODES:
        assert f"### {c.code} `{c.name}`" in text
        assert c.what in text and c.why in text
        if c.bad:
            assert c.bad in text and c.good in text
