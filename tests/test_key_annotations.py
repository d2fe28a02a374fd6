"""A raw PRNG key against a ``Key[...]`` annotation: the finding says how to fix it, and jaxtyping agrees."""

from __future__ import annotations

from pathlib import Path

import pytest

from shapecheck.core import check_source

FIXTURE = Path(__file__).parent / "fixtures" / "annotations" / "raw_key_typed_param.py"


def test_raw_key_for_typed_key_names_the_fix() -> None:
    found = [f for f in check_source(FIXTURE.read_text(), str(FIXTURE)) if f.code.startswith("SHP2")]
    assert [(f.line, f.code) for f in found] == [(24, "SHP205")]
    notes = " ".join(found[0].notes)
    assert "jax.random.PRNGKey makes a raw uint32 key" in notes
    assert "jax.random.key" in notes and "PRNGKeyArray" in notes


def test_jaxtyping_rejects_a_raw_key_for_key_and_takes_the_fixes() -> None:
    jax = pytest.importorskip("jax")
    from jaxtyping import Array, Key, UInt32

    raw, typed = jax.random.PRNGKey(0), jax.random.key(0)
    assert not isinstance(raw, Key[Array, ""])
    assert isinstance(typed, Key[Array, ""])
    assert isinstance(raw, UInt32[Array, "2"])
