"""The statement-only walks reach every compound statement's clauses, ``try*`` / ``except*`` (Python 3.11) too."""

from __future__ import annotations

import sys

import pytest

from fixture_format import mismatches
from shapecheck.config import Config
from shapecheck.core import check_source

TRY_STAR = """from jaxtyping import Float
from torch import Tensor


def outer(x: Float[Tensor, "b n"]):
    try:
        def inner(y: Float[Tensor, "b n+m"]):  # error: SHP110 n+m
            return y

        def inner_ok(y: Float[Tensor, "b n"]) -> Float[Tensor, "b n"]:
            return y
    except* ValueError:
        def fallback(y: Float[Tensor, "b *n *h"]):  # error: SHP110
            return y

        return fallback(x)
    return inner(x), inner_ok(x)
"""


@pytest.mark.skipif(sys.version_info < (3, 11), reason="try* / except* are Python 3.11 syntax")
def test_nested_functions_in_try_star_are_checked() -> None:
    problems = mismatches(TRY_STAR, check_source(TRY_STAR, "try_star.py", Config()))
    assert not problems, "\n".join(problems)
