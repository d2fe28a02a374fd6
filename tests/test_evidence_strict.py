"""The strict evidence count of benchmarks/corpus.py (no input shape made up from an einops pattern): what each einops
call site's input rests on, line by line. A rank the code's own check fixed (``b, c, h, w = x.shape``, ``assert
x.ndim == 4``, ``flag = x.ndim == 5`` then ``if flag:``, a guard helper) is evidence for the rank even with the made-up
shapes turned off, and is handed on by the calls that follow (as a rank, not as sizes); a shape made up from a pattern
on an input of unknown rank is not."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from shapecheck.analysis.index.project import Project
from shapecheck.analysis.interpret.context import EVIDENCE_NONE, EVIDENCE_RANK, EVIDENCE_SIZE
from shapecheck.analysis.report.checker import build
from shapecheck.analysis.report.positions import compute_positions
from shapecheck.analysis.rules import einops_calls

SOURCE = """
import torch
from einops import rearrange, reduce
from torch import nn


def unpacked(x):
    b, c, h, w = x.shape
    y = rearrange(x, "b c h w -> b (h w) c")  # evidence: rank
    return reduce(y, "b n c -> b c", "mean")  # evidence: rank


def asserted_ellipsis(x):
    assert x.ndim == 4
    y = rearrange(x, "b c ... -> b ... c")  # evidence: rank
    return rearrange(y, "b h w c -> b (h w) c")  # evidence: rank


def flagged(x, ignore_time=False):
    is_video = x.ndim == 5
    b = x.shape[0]
    ignore_time &= is_video
    if is_video:
        x = rearrange(x, "b c f h w -> (b f) c h w")  # evidence: rank
    return x, b


def unknown(x):
    y = rearrange(x, "b c h w -> b (h w) c")  # evidence: none
    return reduce(y, "b n c -> b c", "mean")  # evidence: none


def axes_lengths(x, lengths):
    if x.ndim == 3:
        return rearrange(x, "n d h -> (n h) d", **lengths)  # evidence: rank
    return x


def pattern_sizes_are_not_evidence(x):
    assert x.ndim == 3
    y = rearrange(x, "b 1 d -> b d")  # evidence: rank
    return rearrange(y, "b d -> d b")  # evidence: rank


class Heads(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.to_q = nn.Linear(dim, 64)

    def forward(self, x):
        b, n, _ = x.shape
        q = self.to_q(x)
        return rearrange(q, "b n (h d) -> b h n d", h=8)  # evidence: size


def literal():
    return rearrange(torch.zeros(2, 3), "a b -> b a")  # evidence: size


class Book(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Parameter(torch.randn(2, 16, 8))

    @property
    def codebook(self):
        return self.embed

    @codebook.setter
    def codebook(self, codes):
        self.embed.data.copy_(codes)

    def lookup(self):
        return rearrange(self.codebook, "h n d -> n (h d)")  # evidence: size
"""

LEVELS = {"none": EVIDENCE_NONE, "rank": EVIDENCE_RANK, "size": EVIDENCE_SIZE}


@pytest.fixture
def strict() -> Iterator[None]:
    saved = einops_calls.MAKE_UP_INPUTS
    einops_calls.MAKE_UP_INPUTS = False
    try:
        yield
    finally:
        einops_calls.MAKE_UP_INPUTS = saved


def test_strict_evidence_by_line(strict: None, tmp_path: Path) -> None:
    path = tmp_path / "mod.py"
    path.write_text(SOURCE, "utf-8")
    a = build(SOURCE, str(path), Project([path]))
    evidence = {k: lvl for k, (kind, lvl) in a.ctx.evidence.items() if kind == "einops"}
    spans = compute_positions(a.tree, set(evidence))
    got = {spans[k][0]: lvl for k, lvl in evidence.items() if k in spans}
    expected = {
        i: LEVELS[m.group(1)]
        for i, line in enumerate(SOURCE.splitlines(), 1)
        if (m := re.search(r"# evidence: (\w+)", line))
    }
    assert got == expected
