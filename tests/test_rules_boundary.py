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
