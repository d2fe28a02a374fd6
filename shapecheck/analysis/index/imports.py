"""One cheap pass over a module's imports: local name -> fully qualified name.

libcst's QualifiedNameProvider costs about seven bare parses; this reads only the import statements of the tree
(module level, and imports nested in functions, classes, ``if``/``try``/``with`` blocks) into the resolver's records
(``resolve.py``, shared with the project's ``ast`` read, the dependency scan and the mypy host) and never builds
scopes.
"""

from __future__ import annotations

import libcst as cst

from .resolve import ImportRecord, Local, binding, bindings


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
    if type(node) is cst.SimpleString:
        try:
            v = string_literal(node)
        except Exception:  # libcst refuses odd prefixes
            return None
        return v if isinstance(v, str) else None
    if type(node) is cst.ConcatenatedString:
        left, right = literal_str(node.left), literal_str(node.right)
        return None if left is None or right is None else left + right
    return None


def _module_name(node: cst.BaseExpression | None) -> str:
    return dotted(node) or "" if node is not None else ""


class ImportTable:
    """Maps names bound by imports to the qualified names they stand for (resolved by ``resolve.bindings``)."""

    def __init__(
        self,
        records: list[ImportRecord] | None = None,
        current_module: str = "",
        is_package: bool = False,
        local: Local | None = None,
    ):
        self.records: tuple[ImportRecord, ...] = tuple(records or ())
        self._where = (current_module, is_package, local)
        # every name an import binds, in a function body too (the analysis qualifies names inside functions)
        self.names, self.stars = bindings(self.records, current_module, is_package, local=local)
        # the module's own names (what another module can import from it: ``Project._bindings``)
        self.module_names = bindings(self.records, current_module, is_package, nested=False, local=local)[0]
        # names that imports in function bodies bind to different things (two tests each importing their own
        # ``Wrap``): each such import binds the name in its function only (``local_bindings``), and elsewhere the
        # name is what the module level binds, if anything
        targets: dict[str, set[str]] = {}
        for r in self.records:
            b = binding(r, current_module, is_package, local)
            if b is not None:
                targets.setdefault(b[0], set()).add(b[1])
        nested = {b[0] for r in self.records if r.nested and (b := binding(r, current_module, is_package, local))}
        self.conflicts = frozenset(n for n in nested if len(targets[n]) > 1)
        for n in self.conflicts:
            if n in self.module_names:
                self.names[n] = self.module_names[n]
            else:
                self.names.pop(n, None)

    def local_bindings(self, stmt: cst.BaseSmallStatement) -> list[tuple[str, str]]:
        """(name, qualified name) an import statement in a function body binds there, for the names whose imports
        disagree across the module (``conflicts``); other names keep the module-wide table."""
        if not self.conflicts:
            return []
        current, is_package, local = self._where
        out = []
        for r in small_records(stmt, True):
            b = binding(r, current, is_package, local)
            if b is not None and b[0] in self.conflicts:
                out.append(b)
        return out

    def qualify(self, node: cst.BaseExpression) -> str | None:
        """Qualified name of a Name/Attribute expression through the import table (None when not imported)."""
        text = dotted(node)
        if text is None:
            return None
        return self.qualify_dotted(text)

    def qualify_dotted(self, text: str) -> str | None:
        """``qualify`` of the expression whose ``dotted`` text is ``text``."""
        head, _, rest = text.partition(".")
        if head in self.names:
            base = self.names[head]
            return f"{base}.{rest}" if rest else base
        return None

    def star_modules(self) -> list[str]:
        return list(self.stars)


def small_records(stmt: cst.BaseSmallStatement, nested: bool) -> list[ImportRecord]:
    """The import records of one statement (none for a statement that is no import)."""
    out: list[ImportRecord] = []
    if type(stmt) is cst.Import:
        for alias in stmt.names:
            asname = alias.asname.name if alias.asname is not None else None
            out.append(
                ImportRecord(
                    0, dotted(alias.name) or "", None, asname.value if type(asname) is cst.Name else None, nested
                )
            )
    elif type(stmt) is cst.ImportFrom:
        level, module = len(stmt.relative), _module_name(stmt.module)
        if isinstance(stmt.names, cst.ImportStar):
            return [ImportRecord(level, module, "*", None, nested)]
        for alias in stmt.names:
            asname = alias.asname.name if alias.asname is not None else None
            out.append(
                ImportRecord(
                    level, module, dotted(alias.name) or "", asname.value if type(asname) is cst.Name else None, nested
                )
            )
    return out


def cst_records(module: cst.Module) -> list[ImportRecord]:
    """The import records of a libcst tree, in source order, as ``resolve.ast_records`` reads CPython's tree: every
    import statement of the module, those in function and class bodies marked ``nested``."""
    out: list[ImportRecord] = []

    def small(stmt: cst.BaseSmallStatement, nested: bool) -> None:
        out.extend(small_records(stmt, nested))

    def visit(node: cst.CSTNode, nested: bool) -> None:
        kind = type(node)
        if kind is cst.SimpleStatementLine or kind is cst.SimpleStatementSuite:
            for s in node.body:  # type: ignore[attr-defined]
                small(s, nested)
            return
        inner = nested or kind is cst.FunctionDef or kind is cst.ClassDef
        for field in _BLOCK_FIELDS:
            part = getattr(node, field, None)
            if part is None:
                continue
            if type(part) is cst.IndentedBlock:
                for s in part.body:
                    visit(s, inner)
            elif isinstance(part, (list, tuple)):
                for p in part:
                    visit(p, inner)
            else:
                visit(part, inner)  # a one-line suite, else / elif / finally

    for stmt in module.body:
        visit(stmt, False)
    return out


# the fields of libcst's compound statements that hold statements, in source order (``Try``: body, handlers, orelse,
# finalbody; ``If``: body, orelse -- an ``Else`` or the next ``elif``; ``Match``: cases)
_BLOCK_FIELDS = ("body", "handlers", "cases", "orelse", "finalbody")


def collect_imports(
    module: cst.Module, current_module: str = "", is_package: bool = False, local: Local | None = None
) -> ImportTable:
    return ImportTable(cst_records(module), current_module, is_package, local)
