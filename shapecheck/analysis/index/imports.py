"""One cheap pass over a module's imports: local name -> fully qualified name.

libcst's QualifiedNameProvider costs about seven bare parses; this walks only the statements that can bind an
import (module level, and imports nested in functions, classes, ``if``/``try`` blocks) and never builds scopes.
"""

from __future__ import annotations

import libcst as cst


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` as a string, or None for anything else."""
    parts: list[str] = []
    while type(node) is cst.Attribute:  # exact types (no subclasses): isinstance on libcst's ABCs is slow
        parts.append(node.attr.value)
        node = node.value
    if type(node) is cst.Name:
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def string_literal(node: cst.SimpleString) -> str | bytes:
    """A string literal's value; raises what ``evaluated_value`` raises.

    ``SimpleString.evaluated_value`` runs ``ast.literal_eval`` (a compile per string); a literal with no escapes,
    no carriage return and no bytes/format prefix is its raw text, read here without one.
    """
    raw = node.raw_value
    prefix = node.prefix.lower()
    if prefix == "r" or (prefix in ("", "u") and "\\" not in raw):
        if "\r" not in raw:
            return raw
    return node.evaluated_value


def literal_str(node: cst.BaseExpression) -> str | None:
    """The value of a (possibly implicitly concatenated) ``str`` literal; None for bytes, f-strings and the rest."""
    if isinstance(node, cst.SimpleString):
        try:
            v = string_literal(node)
        except Exception:  # libcst refuses odd prefixes
            return None
        return v if isinstance(v, str) else None
    if isinstance(node, cst.ConcatenatedString):
        left, right = literal_str(node.left), literal_str(node.right)
        return None if left is None or right is None else left + right
    return None


def _module_name(node: cst.BaseExpression | None) -> str:
    return dotted(node) or "" if node is not None else ""


def resolve_relative(current_module: str, level: int, module: str, is_package: bool) -> str:
    """``from ..x import y`` inside ``current_module`` -> absolute module name (best effort)."""
    if level == 0:
        return module
    parts = current_module.split(".") if current_module else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    base = ".".join(parts)
    return f"{base}.{module}" if module and base else (module or base)


class ImportTable:
    """Maps names bound by imports to the qualified names they stand for."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def add_import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = dotted(alias.name) or ""
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.names[alias.asname.name.value] = full
            else:
                top = full.split(".", 1)[0]
                self.names[top] = top

    def add_import_from(self, node: cst.ImportFrom, current_module: str = "", is_package: bool = False) -> None:
        level = len(node.relative)
        module = resolve_relative(current_module, level, _module_name(node.module), is_package)
        if isinstance(node.names, cst.ImportStar):
            self.names.setdefault("*" + module, module)
            return
        for alias in node.names:
            name = dotted(alias.name) or ""
            local = (
                alias.asname.name.value
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name)
                else name
            )
            self.names[local] = f"{module}.{name}" if module else name

    def qualify(self, node: cst.BaseExpression) -> str | None:
        """Qualified name of a Name/Attribute expression through the import table (None when not imported)."""
        text = dotted(node)
        if text is None:
            return None
        head, _, rest = text.partition(".")
        if head in self.names:
            base = self.names[head]
            return f"{base}.{rest}" if rest else base
        return None

    def star_modules(self) -> list[str]:
        return [v for k, v in self.names.items() if k.startswith("*")]


def collect_imports(module: cst.Module, current_module: str = "", is_package: bool = False) -> ImportTable:
    table = ImportTable()

    def walk(body: object) -> None:
        for stmt in body:  # type: ignore[attr-defined]
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Import):
                        table.add_import(small)
                    elif isinstance(small, cst.ImportFrom):
                        table.add_import_from(small, current_module, is_package)
            elif isinstance(stmt, (cst.If, cst.Try, cst.With, cst.FunctionDef, cst.ClassDef, cst.For, cst.While)):
                inner = getattr(stmt, "body", None)
                if isinstance(inner, cst.IndentedBlock):
                    walk(inner.body)
                for extra in ("orelse", "handlers", "finalbody"):
                    part = getattr(stmt, extra, None)
                    if part is None:
                        continue
                    for p in part if isinstance(part, (list, tuple)) else [part]:
                        b = getattr(p, "body", None)
                        if isinstance(b, cst.IndentedBlock):
                            walk(b.body)
                        elif isinstance(b, (cst.If,)):
                            walk([b])

    walk(module.body)
    return table
