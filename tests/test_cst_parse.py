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


def _nodes(tree: cst.CSTNode) -> list[cst.CSTNode]:
    out, todo = [], [tree]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(n.children)
    return out


def test_whitespace_nodes_are_shared_and_real() -> None:
    """Equal blanks and line ends are one node each, of libcst's own classes; other nodes stay distinct."""
    source = "a = b\nc = d  # note\n\n\nx = f(a, b)\n"
    tree = parse_module(source)
    assert tree.code == source and tree.deep_equals(cst.parse_module(source))
    nodes = _nodes(tree)
    blanks = [n for n in nodes if type(n) is cst.SimpleWhitespace and n.value == " "]
    assert len(blanks) > 4 and len({id(n) for n in blanks}) == 1
    newlines = [n for n in nodes if type(n) is cst.Newline]
    assert len({id(n) for n in newlines}) == 1
    names = [n for n in nodes if type(n) is cst.Name and n.value == "a"]
    assert len(names) == 2 and names[0] is not names[1]
    # the comment's line end is built anew; a line end without one is shared between trees
    trailing = [n for n in nodes if type(n) is cst.TrailingWhitespace]
    assert sum(n.comment is not None for n in trailing) == 1
    plain = [n for n in trailing if n.comment is None]
    assert len({id(n) for n in plain}) == 1
    assert any(n is plain[0] for n in _nodes(parse_module("y = 1\n")))


def test_classes_back_after_a_parse() -> None:
    """The factories stand on ``libcst`` only while the parser runs, also when it raises."""
    parse_module(SOURCE)
    with pytest.raises(cst.ParserSyntaxError):
        parse_module("def f(:\n")
    for name in ("SimpleWhitespace", "Newline", "TrailingWhitespace", "EmptyLine", "ParenthesizedWhitespace"):
        assert isinstance(getattr(cst, name), type)
    assert cst.SimpleWhitespace(" ") is not cst.SimpleWhitespace(" ")


def test_positions_of_statements_unchanged() -> None:
    """Findings' positions come from a code generation over the tree: shared whitespace keeps them."""
    from shapecheck.analysis.report.positions import compute_positions

    source = "def f(x):\n    y = x  +  1\n\n    return (y,\n            x)\n"
    shared, plain = parse_module(source), cst.parse_module(source)

    def spans(tree: cst.Module) -> list[tuple[str, tuple[int, int, int, int]]]:
        pos = compute_positions(tree)
        keep = (cst.Name, cst.BinaryOperation, cst.Return, cst.Tuple, cst.SimpleStatementLine)
        return [(type(n).__name__, pos[id(n)]) for n in _nodes(tree) if isinstance(n, keep)]

    assert spans(shared) == spans(plain)
