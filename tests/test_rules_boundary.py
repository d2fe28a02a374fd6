"""The rules reach the analysed module only through ``OpContext`` (issue 11: the rules depend on a narrow
call-semantics interface, not on the module object)."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "shapecheck" / "analysis" / "rules"


def test_rules_reach_the_module_only_through_opcontext() -> None:
    """No rule reads the interpreter's module (``interp.m``): what a rule needs of the module is a member of
    ``OpContext`` (rules/registry.py), so the module's other state stays out of the rules' reach."""
    files = sorted(RULES.glob("*.py"))
    assert len(files) > 5, files
    found = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Attribute) and node.attr == "m" and isinstance(node.value, ast.Name):
                if node.value.id in ("interp", "interpreter"):
                    found.append(f"{path.name}:{node.lineno}")
    assert not found, f"rules reading the interpreter's module: {found}"


def test_only_opcontext_holds_the_module() -> None:
    """``OpContext`` (registry.py) is the one rule-side object built on the analysed module; the annotation checks
    (``ShapeChecks``) see it as an ``AnnotatedModule`` protocol. No other rule module names ``ModuleAnalysis``, and no
    rule reaches the module through a function of the index (``fi.module.shapes``, ``fi.module.path``)."""
    named = []
    reached = []
    for path in sorted(RULES.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if path.name != "registry.py" and (
                (isinstance(node, ast.Name) and node.id == "ModuleAnalysis")
                or (isinstance(node, ast.alias) and node.name == "ModuleAnalysis")
                or (isinstance(node, ast.Constant) and node.value == "ModuleAnalysis")
            ):
                named.append(f"{path.name}:{node.lineno}")
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "module"
                and not (isinstance(node.value.value, ast.Name) and node.value.value.id == "self")
            ):
                reached.append(f"{path.name}:{node.lineno}")
    assert not named, f"rules naming the module class: {named}"
    assert not reached, f"rules reaching a module through an index object: {reached}"


def test_shape_checks_take_the_protocol() -> None:
    """``ShapeChecks`` is built on the ``AnnotatedModule`` protocol, which ``ModuleAnalysis`` satisfies."""
    import typing

    from shapecheck.analysis.rules.shapes_bridge import AnnotatedModule, ShapeChecks

    hints = typing.get_type_hints(ShapeChecks.__init__)
    assert hints["source"] is AnnotatedModule
