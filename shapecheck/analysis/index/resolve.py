"""The one import resolver: a module's import statements, its name and whether it is a package -> the names they
bind and the modules they load.

Every reader of imports goes through here, fed by whatever cheap read its caller has:

- the analysis's import table (``imports.collect_imports``: the libcst tree of a module being analysed),
- the project's ``ast`` read of a module no one analyses (re-exports, star imports: ``project.read_index``) and the
  mypy host's dependency hash (``ast_records``),
- the pre-filter, the cache keys and the ``-j 2`` preload (``Project.dependency_names``), which read files nobody
  parses: ``scan_records``, a regular expression over the text. An ``ast.parse`` of every file of the tree would
  cost more than the pre-filter saves (it runs on every file, most of which are then skipped), so that read stays a
  scan; it yields the same records as the parsed reads for the usual statement forms (see ``scan_records``).

A record is one imported name as written; resolving it needs only the importing module's name and whether it is a
package (``from . import x`` in ``pkg/__init__.py`` is ``pkg.x``, in ``pkg/mod.py`` it is ``pkg.x`` too, in
``pkg/sub/mod.py`` it is ``pkg.sub.x``) -- and, for a script's folder, which of its siblings exist (``Local``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

if TYPE_CHECKING:
    import ast


@dataclass(frozen=True, slots=True)
class ImportRecord:
    """One name an import statement imports.

    ``import a.b`` -> (0, "a.b", None, None); ``import a.b as c`` -> (0, "a.b", None, "c");
    ``from ..m import x as y`` -> (2, "m", "x", "y"); ``from . import x`` -> (1, "", "x", None);
    ``from m import *`` -> (0, "m", "*", None). ``nested``: the statement is inside a function or class body (it
    binds a name there, not an attribute of the module).
    """

    level: int
    module: str
    name: str | None
    asname: str | None
    nested: bool = False


# A script's folder comes first on ``sys.path`` when it runs, so ``import model`` in ``examples/b/train.py`` is
# ``examples/b/model.py``, which the project names ``examples.b.model`` (see ``project.module_name_for``): ``Local``
# maps the first component of an absolute import to the sibling module's name (None: no such sibling). Without it,
# two example folders with their own ``model.py`` would share the first one found.
Local = Callable[[str], "str | None"]


def resolve_relative(current_module: str, level: int, module: str, is_package: bool, local: Local | None = None) -> str:
    """``from ..x import y`` inside ``current_module`` -> absolute module name (best effort: a level above the top
    package resolves from the top). ``local``: the siblings of a script's folder (see ``Local``)."""
    if level == 0:
        if local is not None and module:
            head, dot, rest = module.partition(".")
            sibling = local(head)
            if sibling is not None:
                return sibling + dot + rest
        return module
    parts = current_module.split(".") if current_module else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    base = ".".join(parts)
    return f"{base}.{module}" if module and base else (module or base)


def base_module(record: ImportRecord, current: str, is_package: bool, local: Local | None = None) -> str:
    """The absolute name of the module a record's statement names (``m`` of ``from m import x``, ``a.b`` of
    ``import a.b``)."""
    return resolve_relative(current, record.level, record.module, is_package, local)


def binding(record: ImportRecord, current: str, is_package: bool, local: Local | None = None) -> tuple[str, str] | None:
    """(local name, qualified name) the record binds; None for a star import (see ``star_module``)."""
    base = base_module(record, current, is_package, local)
    if record.name is None:  # import a.b [as c]
        if record.asname:
            return record.asname, base
        top = record.module.split(".", 1)[0]
        return top, (local(top) if local is not None else None) or top
    if record.name == "*":
        return None
    return record.asname or record.name, f"{base}.{record.name}" if base else record.name


def star_module(record: ImportRecord, current: str, is_package: bool, local: Local | None = None) -> str | None:
    """The module ``from m import *`` reads its names from; None for any other record."""
    return base_module(record, current, is_package, local) if record.name == "*" else None


def bindings(
    records: Iterable[ImportRecord], current: str, is_package: bool, nested: bool = True, local: Local | None = None
) -> tuple[dict[str, str], list[str]]:
    """(local name -> qualified name, star-imported modules in order) of ``records``, later bindings winning.
    ``nested=False``: only the module's own names (what other modules can import from it)."""
    names: dict[str, str] = {}
    stars: list[str] = []
    for r in records:
        if r.nested and not nested:
            continue
        b = binding(r, current, is_package, local)
        if b is not None:
            names[b[0]] = b[1]
        else:
            star = star_module(r, current, is_package, local)
            if star is not None and star not in stars:
                stars.append(star)
    return names, stars


def imported_modules(
    record: ImportRecord, current: str, is_package: bool, local: Local | None = None
) -> tuple[str, ...]:
    """The modules a record may load, most specific first: ``import a.b`` -> ("a.b",); ``from m import x`` ->
    ("m.x", "m") (``x`` is a submodule or a name ``m`` defines); ``from m import *`` -> ("m",)."""
    base = base_module(record, current, is_package, local)
    if record.name is None or record.name == "*":
        return (base,) if base else ()
    sub = f"{base}.{record.name}" if base else record.name
    return (sub, base) if base else (sub,)


def locate(name: str, exists: Callable[[str], bool]) -> str | None:
    """The longest prefix of the dotted ``name`` that ``exists`` accepts (``pkg.mod.Class`` -> ``pkg.mod``)."""
    parts = [p for p in name.split(".") if p]
    for i in range(len(parts), 0, -1):
        candidate = ".".join(parts[:i])
        if exists(candidate):
            return candidate
    return None


def loaded_modules(
    records: Iterable[ImportRecord],
    current: str,
    is_package: bool,
    exists: Callable[[str], bool],
    local: Local | None = None,
) -> list[str]:
    """Modules (accepted by ``exists``) that ``records`` load, in order of first appearance, each once."""
    out: dict[str, None] = {}
    for r in records:
        for name in imported_modules(r, current, is_package, local):
            hit = locate(name, exists)
            if hit is not None:
                out.setdefault(hit, None)
    return list(out)


# ------------------------------------------------------------------ readers


def ast_records(tree: "ast.Module") -> list[ImportRecord]:
    """The import records of a CPython ``ast`` tree, in source order: every import statement of the module, those in
    function and class bodies marked ``nested``."""
    import ast

    out: list[ImportRecord] = []

    def visit(node: ast.AST, nested: bool) -> None:
        if isinstance(node, ast.Import):
            out.extend(ImportRecord(0, a.name, None, a.asname, nested) for a in node.names)
            return
        if isinstance(node, ast.ImportFrom):
            out.extend(ImportRecord(node.level, node.module or "", a.name, a.asname, nested) for a in node.names)
            return
        inner = nested or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)):
                visit(child, inner)

    for stmt in tree.body:
        visit(stmt, False)
    return out


# ``from X import`` / ``import names`` at the start of a line (indented or not, or after the colon of a one-line
# ``if``/``else``/``try``...: ``if TYPE_CHECKING: from m import T``); a ``from`` statement's names are read after the
# match (``_from_names``). ``[ \t]*``, not ``\s*``: on a run of blank lines ``\s*`` backtracks quadratically.
_IMPORT_RE = re.compile(
    r"^[ \t]*(?:(?:if|elif|else|try|with|for|while)\b[^\n:#]*:[ \t]*)?"
    r"(?:from[ \t]+(\.*[\w.]*)[ \t]+import\b|import[ \t]+([\w., \t]+))",
    re.MULTILINE,
)


# the names after ``from m import`` in the usual forms: a parenthesised list without comments, or the rest of the line
# without a continuation (the rest is read character by character)
_FROM_TAIL = re.compile(r"[ \t]*(?:\(([^)#]*)\)|([^\n#;\\(]*)(?=[\n#;]|\Z))")


def _from_names(text: str, i: int) -> str:
    """The text of the names after ``from m import`` at ``i``: a parenthesised list (which may span lines and hold
    comments), or the rest of the line with backslash continuations, comments left out."""
    quick = _FROM_TAIL.match(text, i)
    if quick is not None:
        return quick.group(1) if quick.group(1) is not None else quick.group(2)
    n = len(text)
    while i < n and text[i] in " \t":
        i += 1
    out: list[str] = []
    paren = i < n and text[i] == "("
    if paren:
        i += 1
    while i < n:
        c = text[i]
        if c == "#":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if paren and c == ")":
            break
        if not paren:
            if c == "\\" and text.startswith("\n", i + 1):
                i += 2
                out.append(" ")
                continue
            if c in "\n;":
                break
        out.append(c)
        i += 1
    return "".join(out)


def _item(item: str) -> tuple[str, str | None] | None:
    """``name`` or ``name as alias`` (a dotted name for ``import``); None for anything else."""
    words = item.split()
    if len(words) == 1 or (len(words) == 3 and words[1] == "as" and words[2].isidentifier()):
        if all(p.isidentifier() for p in words[0].split(".")):
            return words[0], words[2] if len(words) == 3 else None
    return None


def scan_records(text: str) -> list[ImportRecord]:
    """The import records of ``text`` found by a scan, for files nobody parses (see the module docstring): the same
    records as ``ast_records`` for ``import a.b as c, d``, ``from .m import x as y, z``, ``from m import (x,\\n y)``,
    ``from m import *`` and backslash continuations, on any line. Being a scan it also reads import lines inside
    strings, misses statements after a ``;``, and cannot tell nested imports (none is marked ``nested``)."""
    out: list[ImportRecord] = []
    for m in _IMPORT_RE.finditer(text):
        source, plain = m.groups()
        if source is not None:
            level = len(source) - len(source.lstrip("."))
            module = source[level:]
            for item in _from_names(text, m.end()).split(","):
                if item.strip() == "*":
                    out.append(ImportRecord(level, module, "*", None))
                    continue
                hit = _item(item)
                if hit is not None and "." not in hit[0]:
                    out.append(ImportRecord(level, module, hit[0], hit[1]))
        else:
            for item in plain.split(","):
                hit = _item(item)
                if hit is not None:
                    out.append(ImportRecord(0, hit[0], None, hit[1]))
    return out
