"""The parse without libcst's node validation (analysis/index/cst_parse.py) leaves validation on for every other node."""

from __future__ import annotations

import libcst as cst
import pytest

from shapecheck.analysis.index.cst_parse import parse_module

SOURCE = "import torch\n\n\ndef f(x):  # comment\n    return (x  +  1)[0], {'a': [1, *x]}\n"


def test_tree_is_libcst_tree() -> None:
    tree = parse_module(SOURCE)
    assert tree.code == SOURCE
    assert tree.deep_equals(cst.parse_module(SOURCE))


def test_validation_back_on_after_a_parse() -> None:
    parse_module(SOURCE)
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")


def test_validation_back_on_after_a_failed_parse() -> None:
    with pytest.raises(cst.ParserSyntaxError):
        parse_module("def f(:\n")
    with pytest.raises(cst.CSTValidationError):
        cst.SimpleWhitespace("x")
