"""A finding of a test run once per pytest case names the case that fails, so it can be run alone."""

from __future__ import annotations

from shapecheck.config import Config
from shapecheck.core import check_source

SOURCE = """
import pytest
import torch
from torch import nn


class Head(nn.Module):
    def __init__(self, dim, groups):
        super().__init__()
        self.proj = nn.Linear(dim * groups, 10)

    def forward(self, x):
        return self.proj(x)


@pytest.mark.parametrize("dim, groups", [(16, 1), (16, 2)])
@pytest.mark.parametrize("name", ["tiny"])
def test_head(dim, groups, name):
    Head(dim, groups)(torch.randn(2, 16))
"""


def test_failing_case_is_named() -> None:
    findings = check_source(SOURCE, "test_head.py", Config())
    assert [(f.line, f.code) for f in findings] == [(19, "SHP204")]
    assert "in the test case dim=16, groups=2, name='tiny'" in findings[0].notes


def test_single_case_adds_no_note() -> None:
    one = SOURCE.replace("[(16, 1), (16, 2)]", "[(16, 2)]")
    findings = check_source(one, "test_head.py", Config())
    assert [(f.line, f.code) for f in findings] == [(19, "SHP204")]
    assert not any(n.startswith("in the test case") for n in findings[0].notes)
