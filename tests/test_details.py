"""Findings are data first (issue 11, Report): rules emit a code and fields whose ``detail`` is a typed value; the text
is rendered once, by diagnostics/render.py, and nothing is appended to it or read back from it."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from fixture_format import single_fixtures
from shapecheck.config import Config
from shapecheck.core import check_source
from shapecheck.diagnostics import CODES, Finding, make
from shapecheck.diagnostics import details as D
from shapecheck.diagnostics.render import message
from shapecheck.hosts.sarif import render_sarif
from shapecheck.runner import _finding_from_cache, _finding_to_cache

HEADER = "import torch\nimport torch.nn.functional as F\nfrom jaxtyping import Float\nfrom torch import Tensor\n"


def _template_fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_no_template_takes_free_text() -> None:
    """What is wrong is a typed ``detail``; open text (a parser's or the OS's own words) has a field named for it."""
    for c in CODES:
        assert "reason" not in _template_fields(c.template), c.code


def test_every_kind_fills_a_field_of_its_codes_template() -> None:
    templates = {c.code: c.template for c in CODES}
    assert D.KINDS
    for key, cls in D.KINDS.items():
        for code in (cls.code, *cls.also):
            assert cls.field in _template_fields(templates[code]), key


@pytest.mark.parametrize("path", single_fixtures(), ids=lambda p: p.name)
def test_fixture_messages_are_rendered_from_their_fields(path: Path) -> None:
    """Every message is exactly the rendering of its code and fields: no suffix or sentence added elsewhere."""
    findings = check_source(path.read_text("utf-8"), str(path), Config())
    for f in findings:
        assert f.message == message(f.code, f.fields), (f.line, f.message)
        assert f.field_value("reason") is None, (f.line, f.message)


def test_broadcast_detail_is_data() -> None:
    src = HEADER + ('def f(a: Float[Tensor, "8 5"], b: Float[Tensor, "8 6"]):\n    return a + b\n')
    (f,) = [f for f in check_source(src, "t.py", Config()) if f.code == "SHP204"]
    detail = f.field_value("detail")
    assert isinstance(detail, D.Broadcast)
    assert (tuple(map(str, detail.left)), tuple(map(str, detail.right)), detail.axis) == (("8", "5"), ("8", "6"), 1)
    assert f.message == "SHP204 +: " + detail.render()
    assert f.fields_json()["detail"] == {
        "kind": "broadcast",
        "left": [8, 5],
        "right": [8, 6],
        "axis": 1,
        "left_size": 5,
        "right_size": 6,
    }


def test_inside_is_a_field_rendered_by_the_renderer() -> None:
    src = HEADER + (
        "from einops import rearrange\n\n"
        "def split(x):\n"
        "    return rearrange(x, 'b (h d) -> b h d', h=3)\n\n"
        "y = split(torch.zeros(2, 10))\n"
    )
    (f,) = check_source(src, "t.py", Config())
    assert f.code == "SHP203" and f.field_value("inside") == "split"
    assert f.message.endswith(" (inside split() called here)")
    assert (
        message(f.code, [(k, v) for k, v in f.fields if k != "inside"]) + " (inside split() called here)" == f.message
    )


def test_sarif_and_cache_carry_the_fields() -> None:
    f = make("SHP204", "t.py", (1, 1, 1, 2), op="torch.cat", detail=D.ConcatAxis(1, (8, 5), (8, 6)))
    assert f.message == "SHP204 torch.cat: axis 1 differs between operands: 5 vs 6 ((8, 5) and (8, 6))"
    want = {"op": "torch.cat", "detail": {"kind": "concat-axis", "axis": 1, "first": [8, 5], "other": [8, 6]}}
    assert f.fields_json() == want
    (result,) = json.loads(render_sarif([f]))["runs"][0]["results"]
    assert result["properties"]["fields"] == want
    back: Finding = _finding_from_cache(json.loads(json.dumps(_finding_to_cache(f))))
    assert back.message == f.message and back.fields_json() == want


def test_notes_name_the_op_that_made_the_shape() -> None:
    """An operand's note names where its shape was made: the op that last changed it (``unsqueeze``) or the layer
    that re-created it (a norm), then, one step back, what it was made from (issue 12: heldout8 01, 08, 12)."""
    src = HEADER + (
        "import torch.nn as nn\n\n"
        "ids = torch.randint(0, 9, (3, 12))\n"
        "m = ids.unsqueeze(1)\n"
        "m.expand(3, 12, 32)\n"
        "norm, fc = nn.LayerNorm(32), nn.Linear(16, 8)\n"
        "fc(norm(torch.randn(2, 16, 32)))\n"
    )
    first, second = sorted((f for f in check_source(src, "t.py", Config()) if f.code == "SHP204"), key=lambda f: f.line)
    assert first.notes == ("operand #0: shape (3, 1, 12) from unsqueeze(...) at t.py:8, of randint(...) at t.py:7",)
    assert second.notes == (
        # the call that made the shape, and the line that built the layer (its sizes were chosen there)
        "operand #0: shape (2, 16, 32) from the LayerNorm layer at t.py:11 (built at t.py:10)",
        "the Linear was built at t.py:10",  # where its in_features were asked for
    )


def test_notes_go_one_line_back_to_what_the_shape_was_made_from() -> None:
    """``scale, shift = t[:, None].chunk(2, dim=-1)``: the note names the chunk and, skipping the subscript on the same
    line, the layer whose output was split (the line whose width is wrong: ho32's FiLM conditioning)."""
    src = HEADER + (
        "import torch.nn as nn\n\n"
        "emb = nn.Linear(4, 8)\n"
        "t = emb(torch.randn(2, 4))\n"
        "scale, shift = t[:, None].chunk(2, dim=-1)\n"
        "torch.randn(2, 3, 8) * scale\n"
    )
    (found,) = [f for f in check_source(src, "t.py", Config()) if f.code == "SHP204"]
    assert found.notes[1] == "operand #1: shape (2, 1, 4) from chunk(...) at t.py:9, of the Linear layer at t.py:8"


def test_notes_name_the_base_constructor_call_that_chose_the_sizes() -> None:
    """A layer a base class builds from the sizes its subclass hands to ``super().__init__(...)``: the note names that
    call (the line to fix: ho34's Set Transformer, whose SAB handed dim_out where the keys needed dim_in)."""
    src = HEADER + (
        "import torch.nn as nn\n\n"
        "class MAB(nn.Module):\n"
        "    def __init__(self, dim_q, dim_k, dim_v):\n"
        "        super().__init__()\n"
        "        self.fc_k = nn.Linear(dim_k, dim_v)\n\n"
        "    def forward(self, x):\n"
        "        return self.fc_k(x)\n\n"
        "class SAB(MAB):\n"
        "    def __init__(self, dim_in, dim_out):\n"
        "        super().__init__(dim_in, dim_out, dim_out)\n\n"
        "def run():\n"
        "    return SAB(2, 32)(torch.randn(3, 5, 2))\n"
    )
    (found,) = [f for f in check_source(src, "t.py", Config()) if f.code == "SHP204"]
    assert "self.fc_k was built at t.py:10, in super().__init__() called at t.py:17" in "\n".join(found.notes)


def test_notes_name_the_helper_call_that_built_the_layer() -> None:
    """A layer built by a helper function (``default_conv(cin, cout, k)``) names the helper's call as well as its own
    line: the sizes were chosen at the call (ho80's super-resolution Upsampler, ``default_conv(n_feats, 3 * n_feats,
    3)`` before a PixelShuffle(3))."""
    src = HEADER + (
        "import torch.nn as nn\n\n"
        "def default_conv(cin, cout, k):\n"
        "    return nn.Conv2d(cin, cout, k, padding=k // 2)\n\n"
        "class Up(nn.Sequential):\n"
        "    def __init__(self, n):\n"
        "        m = [default_conv(n, 3 * n, 3), nn.PixelShuffle(3)]\n"
        "        super().__init__(*m)\n\n"
        "def run():\n"
        "    return Up(4)\n"
    )
    (found,) = [f for f in check_source(src, "t.py", Config()) if f.code == "SHP204"]
    assert "the Conv2d was built at t.py:8, by default_conv() called at t.py:12" in found.notes, found.notes
