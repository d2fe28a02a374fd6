"""Comparisons of known strings and numbers decide branches as Python does (``if v == "M"`` in a config loop that
mixes channel counts and pooling markers): the inferred bool is the one Python computes; undecidable stays unknown."""

from __future__ import annotations

import pytest

from shapecheck.analysis.editor.hover import inferred_values
from shapecheck.analysis.interpret.values import UNKNOWN, BoolV

DECIDED = [
    '16 == "M"',
    '"M" == "M"',
    '"M" != "M"',
    '"M" != 16',
    '2.5 == "x"',
    '"cls" == "mean"',
    '"M" in ("M", "A")',
    '"B" in ["M", "A"]',
    '"B" not in ("M", "A")',
    '"M" in (16, "M")',
    '"M" in (16, 32)',
]


@pytest.mark.parametrize("expr", DECIDED)
def test_decided_as_python_does(expr: str) -> None:
    values, findings = inferred_values(f"y = {expr}\n", "cmp_case.py")
    assert not findings
    assert values.get("y") == BoolV(eval(expr))  # the oracle: Python itself


@pytest.mark.parametrize(
    "src",
    [
        "import os\ny = os.environ['MODE'] == 'M'\n",  # a string the analysis does not know
        "import os\ny = os.environ['MODE'] in ('M', 'A')\n",
        "import os\ny = 'M' in os.environ['MODES']\n",
    ],
)
def test_undecided_stays_unknown(src: str) -> None:
    values, _ = inferred_values(src, "cmp_case.py")
    if "==" in src:
        # a value not known compared with a string may be a numpy array of strings, compared elementwise (a bool
        # array, not a bool): nothing is known of the result
        assert values.get("y") is UNKNOWN
    else:
        assert values.get("y") == BoolV(None)


def test_string_compared_with_an_array_is_elementwise() -> None:
    """``strands == "+"`` of an array of strings (alphagenome): numpy's elementwise comparison, so stacking two such
    masks keeps their length (no finding on ``[:, None, :]``)."""
    src = (
        "import jax.numpy as jnp\n"
        "def mask(strands):\n"
        "    pos = (strands == '+') | (strands == '.')\n"
        "    return jnp.stack([jnp.array(pos), jnp.array(pos)])[:, None, :]\n"
    )
    _, findings = inferred_values(src, "cmp_case.py")
    assert not findings
