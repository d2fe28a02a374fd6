"""The analysed tree as a whole: module names, lazy analysis of imported modules, cross-module lookups."""

from __future__ import annotations

import functools
import operator
import os
import re
from dataclasses import dataclass
from dataclasses import field as _field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence


from ..interpret.values import UNKNOWN, DictV, FuncV, IntDictV, ManyV, RefV, SeqV, Value
from .module_facts import Facts, module_facts
from .sys_path import extra_roots
from .resolve import ImportRecord, Local, ast_records, bindings, loaded_modules, scan_records

if TYPE_CHECKING:
    import ast

    import libcst as cst

    from .functions import ClassInfo, FunctionInfo
    from .jaxtyping_bridge import Annotation
    from ..interpret.module import ModuleAnalysis

# characters of source whose parsed modules a project keeps between files (about 60 bytes of memory per character)
MODULE_BUDGET = 6_000_000
FULL_COLLECTION_EVERY = 3
# container objects allocated and not freed since the last collection after which trim() collects even when few
# modules were forgotten: a run over a large test folder keeps few modules but leaves the cyclic garbage of every
# file's analysis (its values, scopes and rule objects refer to each other), which the check run's disabled automatic
# collector never frees (physicsnemo's test/ at -j 1: a peak of 564 MB after 300 files, 314 MB with these collections;
# the development corpus's peak, transformer-lens's, is unchanged)
GARBAGE_OBJECTS = 1_500_000
_TEXT_OF = operator.attrgetter("text")

# libraries shapecheck models itself (pattern engine, annotations, stubs): their names never resolve into analysed
# source, even when the tree being checked contains their code (einops's own repository, a vendored jaxtyping)
MODELLED = frozenset({"einops", "jaxtyping", "torch", "numpy", "jax"})


_NO_NAMES: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Bindings:
    """A module's names as other modules see them, for following re-exports and star imports without analysing it:
    what its imports bind (resolved, ``resolve.bindings``), the names it binds itself, its top-level functions and
    classes, and the modules it star-imports."""

    imports: Mapping[str, str] = _field(default_factory=lambda: _NO_NAMES)
    defined: frozenset[str] = frozenset()
    definitions: frozenset[str] = frozenset()  # def / class
    stars: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ModuleIndex:
    """What CPython's ``ast`` tells about a module without libcst, read once per text and never changed: its import
    records and names (``bindings``), and the function bodies a libcst tree can leave out until one of them must run
    (see ``blank_bodies``)."""

    key: tuple[int, int] | None = None  # (length, hash) of the text read; None: the file could not be read
    # CPython's verdict on that text: None (it parses) or the exception ``ast.parse`` raised; SHP901's contract
    # (report.checker.parse) reads it, so a module read for the index is not parsed by CPython again when checked
    error: BaseException | None = None
    records: tuple[ImportRecord, ...] = ()
    bindings: Bindings = _field(default_factory=Bindings)
    bodies: tuple[tuple[int, int], ...] = ()  # (first, last) lines of function bodies that can be blanked
    tops: tuple[tuple[int, int], ...] = ()  # (first, last) lines of each top-level compound statement, in order
    # what the module's own analysis asks of its globals (index.module_facts), read from the same tree (None: the
    # text does not parse)
    facts: "Facts | None" = None


def text_key(text: str) -> tuple[int, int]:
    return len(text), hash(text)


def read_index(
    path: Path,
    module: str,
    is_package: bool,
    text: str | None = None,
    local: Local | None = None,
) -> ModuleIndex:
    """The index of ``text`` (the file's, read from ``path``, when None), read with CPython's ``ast``, and the module
    facts its analysis asks for (``module_facts``, from the same tree: nearly every module a run indexes is analysed
    too)."""
    import ast

    from ...core import decode_source

    try:
        if text is None:
            text = decode_source(path.read_bytes())
    except (OSError, SyntaxError, ValueError, LookupError):
        return ModuleIndex()
    key = text_key(text)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return ModuleIndex(key, exc)
    records = tuple(ast_records(tree))
    imports, stars = bindings(records, module, is_package, nested=False, local=local)
    defined: set[str] = set()
    definitions: set[str] = set()
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
            definitions.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        defined.add(n.id)
        elif isinstance(node, (ast.If, ast.Try)):
            todo.extend(node.body)
            todo.extend(getattr(node, "orelse", []))
            for h in getattr(node, "handlers", []):
                todo.extend(h.body)
    bodies = _blankable_bodies(tree, _LINE.findall(text))
    tops: list[tuple[int, int]] = []
    if bodies:
        compound = _compound_ast()
        for node in tree.body:
            if isinstance(node, compound):
                decorators = getattr(node, "decorator_list", None) or [node]
                tops.append((min(node.lineno, *(d.lineno for d in decorators)), node.end_lineno or node.lineno))
    names = Bindings(MappingProxyType(imports), frozenset(defined), frozenset(definitions), tuple(stars))
    return ModuleIndex(key, None, records, names, tuple(bodies), tuple(tops), module_facts(text, tree))


def _compound_ast() -> tuple[type, ...]:
    """The statements libcst does not hold in a ``SimpleStatementLine``."""
    import ast

    return (
        ast.FunctionDef,
        ast.AsyncFunctionDef,
        ast.ClassDef,
        ast.If,
        ast.Try,
        ast.TryStar,
        ast.With,
        ast.AsyncWith,
        ast.For,
        ast.AsyncFor,
        ast.While,
        ast.Match,
    )


# ------------------------------------------------------------------ function bodies parsed on demand
#
# A module the analysed files import is mostly read for its index: imports, definitions, signatures and their
# annotations, class bodies, module-level assignments (aliases, wrappers, constants). Its function bodies are needed
# only when one of them runs (a call inlined at a call site, a class's ``__init__`` for its attributes) or when the
# module is itself checked. Project.module parses such a module with those bodies blanked out (every line kept, so
# every remaining node has the position it has in the whole file) and ``unmask`` parses the whole text the first
# time a body is needed, pointing the module's functions and classes at the complete tree's nodes.

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")  # lines as CPython and libcst count them (not str.splitlines)
_MIN_BLANKED_LINES = 3


def _blankable_bodies(tree: object, lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) lines of the bodies of functions outside any function body that can be blanked: the body starts
    on a line of its own, spans a few lines and holds no import (imports in function bodies bind module names in
    ``imports.collect_imports``)."""
    import ast

    out: list[tuple[int, int]] = []
    todo: list[ast.AST] = list(tree.body)  # type: ignore[attr-defined]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first, last = node.body[0].lineno, node.body[-1].end_lineno or node.body[0].lineno
            if last - first + 1 < _MIN_BLANKED_LINES or last > len(lines):
                continue
            lead = lines[first - 1].encode("utf-8", "surrogatepass")[: node.body[0].col_offset]
            if lead.strip(b" \t\x0c") or any("import" in ln for ln in lines[first - 1 : last]):
                continue
            out.append((first, last))
            continue
        for field in ("body", "orelse", "handlers", "finalbody", "cases"):
            part = getattr(node, field, None)
            if isinstance(part, list):
                todo.extend(part)
    return out


def blank_bodies(text: str, bodies: Sequence[tuple[int, int]]) -> str:
    """``text`` with each body's first line replaced by ``...`` at its indentation and the rest of its lines empty."""
    lines = _LINE.findall(text)
    for first, last in bodies:
        line = lines[first - 1]
        content = line.rstrip("\r\n")
        indent = content[: len(content) - len(content.lstrip(" \t\x0c"))]
        lines[first - 1] = indent + "..." + line[len(content) :]
        for i in range(first, last):
            lines[i] = lines[i][len(lines[i].rstrip("\r\n")) :]
    return "".join(lines)


_CONTAINERS: tuple[type, ...] = ()


def _containers() -> tuple[type, ...]:
    global _CONTAINERS
    if not _CONTAINERS:
        import libcst as cst

        from ..interpret.walk import STATEMENT_CLAUSES

        _CONTAINERS = tuple(STATEMENT_CLAUSES | {cst.Module, cst.SimpleStatementSuite, cst.ClassDef, cst.FunctionDef})
    return _CONTAINERS


def _pair(masked: Any, whole: Any, mapping: dict[int, Any]) -> bool:
    """Map the defs and classes of a tree with bodies blanked to those of a tree of the same statements in full (the
    same text outside function bodies, so the same structure there). False if the structures differ."""
    import libcst as cst

    from ..interpret.walk import children

    containers = _containers()
    todo = [(masked, whole)]
    while todo:
        a, b = todo.pop()
        if type(a) is not type(b):
            return False
        if type(a) is cst.FunctionDef or type(a) is cst.ClassDef:
            mapping[id(a)] = b
            if type(a) is cst.FunctionDef:
                continue
        ca, cb = list(children(a)), list(children(b))
        if len(ca) != len(cb):
            return False
        todo.extend((x, y) for x, y in zip(ca, cb) if isinstance(x, containers))
    return True


def prepare_fragments(ma: "ModuleAnalysis", tops: Sequence[tuple[int, int]]) -> None:
    """Note, for a module parsed with bodies blanked, which top-level statement each of its defs and classes is in."""
    import libcst as cst

    from ..interpret.walk import children

    compound = [s for s in ma.tree.body if type(s) is not cst.SimpleStatementLine]
    if len(compound) != len(tops):
        return  # unmask parses the whole text instead
    containers = _containers()
    for stmt, span in zip(compound, tops):
        todo: list[cst.CSTNode] = [stmt]
        while todo:
            n = todo.pop()
            if type(n) is cst.FunctionDef or type(n) is cst.ClassDef:
                ma.fragment_of[id(n)] = (stmt, span)
                if type(n) is cst.FunctionDef:
                    continue
            todo.extend(c for c in children(n) if isinstance(c, containers))


def unmask(ma: "ModuleAnalysis", node: cst.CSTNode | None = None) -> None:
    """Give a module parsed with bodies blanked (``blank_bodies``) the complete nodes of ``node``'s top-level statement
    (a def or class; every statement when None).

    The statement is parsed from a text where every other line is empty, so its nodes have their positions in the
    whole file; its defs and classes (registered ones and those the module-level run created) move to those nodes.
    Nodes of the blanked tree stay valid (positions and parents are looked up in every tree of the module). A
    statement that does not parse whole (it parsed with its bodies blanked) keeps its blanked bodies: they run as
    ``...``, which binds nothing.
    """
    where = ma.fragment_of.get(id(node)) if node is not None else None
    if node is not None and where is None:
        if ma.fragment_of:
            return  # not in a statement with blanked bodies (most calls: no import statement runs for them)
    from .cst_parse import parse_module

    mapping: dict[int, cst.CSTNode] = {}
    if where is not None:
        stmt, (first, last) = where
        try:  # the statement alone: a top-level statement starts a line, so only line numbers shift
            tree = parse_module("".join(_LINE.findall(ma.text)[first - 1 : last]))
        except Exception:
            tree = None
        if tree is None or len(tree.body) != 1 or not _pair(stmt, tree.body[0], mapping):
            mapping = {}
        for key, (s, _) in list(ma.fragment_of.items()):
            if s is stmt:
                del ma.fragment_of[key]
        if tree is not None and mapping:
            ma.other_trees.append((tree, first - 1))
    else:
        ma.masked = False
        ma.fragment_of.clear()
        try:
            full = parse_module(ma.text)
        except Exception:
            return
        if not _pair(ma.tree, full, mapping):
            return
        # statements already given their complete nodes keep them (findings and summaries refer to those)
        mapping = {k: v for k, v in mapping.items() if k not in ma.full_nodes}
        ma.other_trees.append((ma.tree, 0))
        ma.tree = full
    if not ma.fragment_of:
        ma.masked = False
    ma.full_nodes.update(mapping)
    if mapping:  # the defs and classes of the statement, with their complete nodes, replace them in the tables
        from dataclasses import replace

        for fkey, fi in ma.functions.items():
            if id(fi.node) in mapping:
                ma.functions[fkey] = replace(fi, node=mapping[id(fi.node)])  # type: ignore[arg-type]
        for ckey, ci in ma.classes.items():
            if id(ci.node) in mapping:
                ma.classes[ckey] = replace(ci, node=mapping[id(ci.node)])  # type: ignore[arg-type]
    ma._positions = None
    ma.__dict__["_precision_parents"] = _Parents([ma.tree, *(t for t, _ in ma.other_trees)])
    ma.__dict__.pop("_statement_parents", None)  # precision.statement_parents, _call_decorated: computed again
    ma.__dict__.pop("_call_decorated", None)
    ma.__dict__.pop("_assignment_of_value", None)


class _Modules(dict[str, Any]):
    """A project's loaded modules (name -> ModuleAnalysis), with the characters of source they hold in ``chars``, kept
    up to date by every change of the dict (``Project.trim`` reads it after every file)."""

    chars = 0

    def __setitem__(self, name: str, ma: Any) -> None:
        old = dict.get(self, name)
        if old is not None:
            self.chars -= len(old.text)
        self.chars += len(ma.text)
        dict.__setitem__(self, name, ma)

    def __delitem__(self, name: str) -> None:
        self.chars -= len(dict.__getitem__(self, name).text)
        dict.__delitem__(self, name)

    def pop(self, name: str, *default: Any) -> Any:
        if name in self:
            self.chars -= len(dict.__getitem__(self, name).text)
        return dict.pop(self, name, *default)

    def popitem(self) -> tuple[str, Any]:
        name, ma = dict.popitem(self)
        self.chars -= len(ma.text)
        return name, ma

    def setdefault(self, name: str, default: Any = None) -> Any:
        if name not in self:
            self[name] = default
        return dict.__getitem__(self, name)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for name, ma in dict(*args, **kwargs).items():
            self[name] = ma

    def __ior__(self, other: Any) -> "_Modules":  # type: ignore[override,misc]
        self.update(other)
        return self

    def clear(self) -> None:
        dict.clear(self)
        self.chars = 0


class _Parents(dict[int, Any]):
    """id(node) -> parent over several trees, filled on first lookup (the shape precision's autocast lookup reads)."""

    def __init__(self, trees: list[Any]) -> None:
        super().__init__()
        self._trees: list[Any] | None = trees

    def get(self, key: Any, default: Any = None) -> Any:
        if self._trees is not None:
            from ..interpret.walk import children

            stack, self._trees = list(self._trees), None
            while stack:
                n = stack.pop()
                for c in children(n):
                    self[id(c)] = n
                    stack.append(c)
        return dict.get(self, key, default)


# what marks a project's root, as mypy and pyright find it: the nearest folder above a file holding one of these
PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")

_ROOT_CACHE: dict[Path, "Path | None"] = {}


def _packages_above(module: str) -> list[str]:
    """``a.b.c`` -> ``["a", "a.b"]``: the packages Python imports (runs) before the module."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _successors(step: "tuple[list[str], frozenset[str]] | None") -> list[str]:
    """What a module's import runs first (``Project._patch_step``): each module it imports, and the packages above it."""
    return [x for dep in (step[0] if step is not None else ()) for x in (dep, *_packages_above(dep))]


def project_root(path: Path) -> Path | None:
    """The nearest folder at or above ``path`` (a file or a folder) holding a project marker, or None."""
    start = path.resolve()
    d = start if start.is_dir() else start.parent
    walked: list[Path] = []
    found: Path | None = None
    while True:
        if d in _ROOT_CACHE:
            found = _ROOT_CACHE[d]
            break
        walked.append(d)
        if any((d / m).exists() for m in PROJECT_MARKERS):
            found = d
            break
        if d == d.parent:
            break
        d = d.parent
    for w in walked:
        _ROOT_CACHE[w] = found
    return found


def _package_top(path: Path) -> Path:
    """The folder above the top-level regular package (``__init__.py``) holding ``path`` (resolved)."""
    d = path.parent
    while (d / "__init__.py").exists() and d != d.parent:
        d = d.parent
    return d


def _namespace_base(top: Path) -> Path | None:
    """For a folder ``top`` inside a project but below its import root: that root (``src/`` of a src layout, or
    the project folder), so the folders between are namespace packages (PEP 420). None when ``top`` is a root."""
    root = project_root(top)
    if root is None or root == top:
        return None
    src = root / "src"
    base = src if src.is_dir() and (top == src or src in top.parents) else root
    return None if base == top else base


def module_name_for(path: Path) -> tuple[str, bool]:
    """Dotted module name of a file (walking up through packages), and whether it is a package ``__init__``.

    Folders without ``__init__.py`` between the file's package and its project's root (``src/`` in a src layout)
    are namespace packages: ``pkg/head.py`` of a project without ``pkg/__init__.py`` is ``pkg.head``, as mypy and
    pyright name it, so its relative imports and its importers agree on the name.
    """
    path = path.resolve()
    is_package = path.name == "__init__.py"
    parts = [] if is_package else [path.stem]
    d = path.parent
    while (d / "__init__.py").exists() and d != d.parent:
        parts.append(d.name)
        d = d.parent
    base = _namespace_base(d)
    if base is not None:
        extra = list(d.relative_to(base).parts)
        if all(p.isidentifier() for p in extra):
            parts.extend(reversed(extra))
    return ".".join(reversed(parts)), is_package


def _shown(path: Path) -> Path:
    """``path`` relative to the working directory when it lies below it (as the named files are shown)."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def import_roots(path: Path) -> list[Path]:
    """Where a file's absolute imports resolve, first match wins: the folder above its top-level package, the
    project's ``src/`` (src layout) and the project's root folder (found like mypy and pyright do: pyproject.toml,
    setup.cfg, setup.py or .git), then the working directory."""
    roots: list[Path] = []
    if path.suffix == ".py":
        resolved = path.resolve()
        top = _package_top(resolved)
        roots.append(top)
        root = project_root(resolved)
        if root is not None:
            if (root / "src").is_dir():
                roots.append(root / "src")
            roots.append(root)
        elif (top / "src").is_dir():
            # no project marker: a script beside a src/ folder (a driver of a src layout copied without its
            # packaging files) imports the packages in it, as an installed src layout would give them
            roots.append(top / "src")
    roots.append(Path.cwd())
    return list(dict.fromkeys(roots))


def files_import_roots(files: list[Path]) -> list[Path]:
    """Where the imports of ``files`` resolve (``import_roots`` of each folder, first match wins, in file order); the
    working directory when there is no file."""
    roots: list[Path] = []
    seen_dirs: set[Path] = set()
    for f in files:
        if f.parent in seen_dirs:
            continue
        seen_dirs.add(f.parent)
        roots.extend(r for r in import_roots(f) if r not in roots)
    return roots if files else [Path.cwd()]


# (root, module name) -> (the file under that root, is a package) or None: what _ModulesOnDisk found, shared by the
# projects of one CLI run (runner._run_groups: each group of a large tree -- physicsnemo's test folders, 27 groups
# -- looks up the same imports under mostly the same roots again, a few file-system calls per root). None outside
# such a run: a host's long-lived project keeps its own answers.
RUN_LOOKUPS: "dict[tuple[str, str], tuple[str, bool] | None] | None" = None


class _ModulesOnDisk(dict[str, Path]):
    """``Project.paths`` that finds an imported module's file on first lookup, for hosts that see one file."""

    def __init__(self, roots: list[Path], packages: set[str], relative: bool = True) -> None:
        super().__init__()
        self.roots, self.packages = roots, packages
        # shown relative to the working directory, as the named files are (absolute when all of those are)
        self.relative = relative
        self._missing: set[str] = set()  # names looked for and not found (a lookup costs file-system calls)
        # (root, first component) -> is that a folder: a name whose first component is no folder of a root has no
        # file below it there (``torch.nn.functional`` is looked for under every root of a whole-corpus run)
        self._top_dirs: dict[tuple[str, str], bool] = {}

    def _find(self, name: object) -> bool:
        if isinstance(name, str) and name.partition(".")[0] in MODELLED:
            return False
        if not isinstance(name, str) or not name or dict.__contains__(self, name):
            return dict.__contains__(self, name)
        if name in self._missing:
            return False
        parts = name.split(".")
        if all(p.isidentifier() for p in parts):
            # the common case, with strings (pathlib's objects cost more than the file-system calls here): the same
            # candidates as below, since identifiers are plain path components
            shared = RUN_LOOKUPS
            for root in self.roots:
                top = str(root)
                if shared is None:
                    hit = self._under(top, parts)
                elif (top, name) in shared:
                    hit = shared[(top, name)]
                else:
                    hit = shared[(top, name)] = self._under(top, parts)
                if hit is not None:
                    cand, is_pkg = hit
                    self[name] = _shown(Path(cand)) if self.relative else Path(os.path.abspath(cand))
                    if is_pkg:
                        self.packages.add(name)
                    return True
            self._missing.add(name)
            return False
        for root in self.roots:
            base = root.joinpath(*parts)
            for cand_path, is_pkg in ((base / "__init__.py", True), (base.with_suffix(".py"), False)):
                if cand_path.is_file():
                    self[name] = _shown(cand_path) if self.relative else Path(os.path.abspath(cand_path))
                    if is_pkg:
                        self.packages.add(name)
                    return True
        self._missing.add(name)
        return False

    def _under(self, top: str, parts: list[str]) -> tuple[str, bool] | None:
        """The file module ``parts`` (identifiers) has under the root ``top``: a package's ``__init__.py`` first."""
        is_dir = self._top_dirs.get((top, parts[0]))
        if is_dir is None:
            is_dir = self._top_dirs[(top, parts[0])] = os.path.isdir(os.path.join(top, parts[0]))
        prefix = os.path.join(top, *parts)
        for cand, is_pkg in ((os.path.join(prefix, "__init__.py"), True), (prefix + ".py", False)):
            if (is_pkg or len(parts) > 1) and not is_dir:
                continue  # below a folder that does not exist
            if os.path.isfile(cand):
                return cand, is_pkg
        return None

    def __contains__(self, name: object) -> bool:
        return self._find(name)

    def get(self, name: Any, default: Any = None) -> Any:
        return dict.get(self, name, default) if self._find(name) else default


_SHARED: dict[tuple[str, ...], "Project"] = {}  # Project.shared: one per package roots, per process


# how many levels of imports the pre-filter follows from a file to one that mentions einops or jaxtyping, for a file
# that builds tensors itself (a test, an example: ``from mypkg import Model`` re-exported by mypkg/__init__.py);
# documentation examples (few, and always importing the package's top) follow one level more
IMPORT_RELEVANCE_DEPTH = 1
# a text that may set an attribute of something it imports (``Head.forward = f``, ``setattr(Head, k, v)``,
# ``del Head.prep``; not through ``self`` or ``cls``): the pre-filter of Project.patched_classes_before (module_facts
# then reads what it patches)
_MAY_PATCH = re.compile(
    r"^[ \t]*(?!(?:self|cls)\.)[A-Za-z_]\w*(?:\.\w+)+[ \t]*(?:[-+*/%|&^@]|//|\*\*|<<|>>)?=(?!=)"
    r"|^[ \t]*del[ \t]+(?!(?:self|cls)\.)[A-Za-z_]\w*\.|\bsetattr\(",
    re.M,
)
_PATCH_SEARCH_LIMIT = 2_000  # modules followed from one module's imports
_MAIN_GUARD = re.compile(r"^if[ \t]+__name__[ \t]*==[ \t]*['\"]__main__['\"][ \t]*:", re.M)
_MAKES_TENSORS = re.compile(r"\b(?:randn|rand|randint|zeros|ones|empty|full|arange|tensor|array|normal|uniform)\(")


class Project:
    def __init__(self, files: list[Path] | None = None, stub_paths: tuple[str, ...] = ()) -> None:
        self.stub_paths = tuple(stub_paths)
        self.paths: dict[str, Path] = {}
        self.packages: set[str] = set()
        self.modules: dict[str, "ModuleAnalysis"] = _Modules()  # least recently used first (see trim)
        self._loading: set[str] = set()
        self._relevance: dict[str, bool] = {}
        self._relevance_deep: dict[str, bool] = {}  # through the imported file's own imports (imports_relevant)
        self._framework_deps: dict[tuple[str, int], bool] = {}  # _dep_framework's answers
        self._binding_cache: dict[str, Bindings] = {}
        self._ast_reads: dict[str, ModuleIndex] = {}
        self._file_names: dict[Path, tuple[str, bool]] = {}  # add_file's module_name_for answers
        self._script_locals: dict[str, Local | None] = {}  # script_local's answers
        # modules this process analyses in this run: parsed whole when another file imports them first (their bodies
        # run anyway); other modules are parsed with their function bodies blanked until one must run (unmask)
        self.checking: set[str] = set()
        # the checked module whose analysis runs now: its module-level imports ran before any of its functions runs
        # (a registry the decorators of an imported module filled: registries.contents)
        self.entry_module: str | None = None
        # blank imported modules' function bodies until needed (the CLI runner, which knows what each process checks,
        # turns this on; hosts that check the files they are handed one by one keep every module whole)
        self.mask_imports = False
        # qualified name -> (longer prefixes that are no module on disk, with the rest; the longest prefix that is):
        # what _split_name finds in ``paths``, which only add_file changes; ``modules`` is asked again each time
        self._split_cache: dict[str, tuple[tuple[tuple[str, str], ...], tuple[str, str] | None]] = {}
        # canonical's answers (asked for nearly every call the analysis evaluates): each step reads _split_cache and
        # _bindings, which keeps a module's bindings once read, so an answer changes only when _split_cache is
        # emptied, and is not kept when a step depended on which modules are loaded
        self._canonical_cache: dict[str, str] = {}
        self._star_cache: dict[tuple[str, str], str | None] = {}
        self._patched_before: dict[str, frozenset[str]] = {}  # patched_classes_before's answers
        self._patch_steps: dict[str, tuple[list[str], frozenset[str]] | None] = {}
        self._reach_memo: dict[str, frozenset[str]] = {}  # _reach_patches' answers
        self._forgotten = 0  # characters of source of modules trim() dropped since the last collection
        self._collections = 0  # collections trim() ran (every FULL_COLLECTION_EVERY-th one, from the first, is full)
        # ids of the analyses loaded before a parallel run forked (runner._run_parallel): the collector never walks
        # them (gc.freeze), so forgetting one frees nothing and does not count towards a collection
        self.frozen: set[int] = set()
        for f in files or []:
            self.add_file(f)

    def add_file(self, f: Path) -> str:
        named = self._file_names.get(f)
        if named is None:  # the runner adds each file 3-4 times (pre-filter, shares, preload, its analysis): 80 us each
            named = self._file_names[f] = module_name_for(f)
        name, is_pkg = named
        if name and name.partition(".")[0] not in MODELLED:
            if not dict.__contains__(self.paths, name):
                self._split_cache.clear()  # a name that was no module of the tree may be one now
                self._canonical_cache.clear()
            self.paths.setdefault(name, f)
            if is_pkg:
                self.packages.add(name)
        return name

    @staticmethod
    def roots_for(path: str) -> list[Path]:
        """Where a single file's imports resolve (see ``import_roots``)."""
        return import_roots(Path(path))

    @classmethod
    def for_file(cls, path: str, stub_paths: tuple[str, ...] = ()) -> "Project":
        """A project for hosts that see one file (flake8, the language server): modules are found on first import."""
        return cls.for_files([Path(path)], stub_paths)

    @classmethod
    def for_files(
        cls, files: list[Path], stub_paths: tuple[str, ...] = (), fallback_roots: list[Path] | None = None
    ) -> "Project":
        """The named files, plus every module they import found on disk on first import, from each file's project
        (``import_roots``): a check of one file sees the modules it imports whether or not they are named.
        ``fallback_roots``: searched after those (the runner's groups, see ``runner._groups``)."""
        project = cls(stub_paths=stub_paths)
        roots = files_import_roots(files)
        roots.extend(r for r in fallback_roots or () if r not in roots)
        # folders the checked scripts put on sys.path themselves (vendored libraries beside a script), searched after
        # the usual roots: a name that resolved there before resolves as before
        roots.extend(r for r in extra_roots(files) if r not in roots)
        cwd = Path.cwd()
        if cwd in roots:  # the working directory last, as for a single file
            roots.remove(cwd)
            roots.append(cwd)
        project.paths = _ModulesOnDisk(roots, project.packages, not files or not all(f.is_absolute() for f in files))
        project._split_cache.clear()
        project._canonical_cache.clear()
        for f in files:
            project.add_file(f)
        return project

    @classmethod
    def shared(cls, path: str) -> "Project":
        """The process's one ``for_file`` project for ``path``'s package roots, kept across files (flake8, the mypy
        worker): a module many files import is parsed once per process."""
        roots = tuple(str(r) for r in cls.roots_for(path))
        if roots not in _SHARED:
            _SHARED[roots] = cls.for_file(path)
        return _SHARED[roots]

    def register(self, name: str, analysis: "ModuleAnalysis") -> None:
        self.modules.pop(name, None)
        self.modules[name] = analysis

    def trim(self, budget: int = MODULE_BUDGET) -> None:
        """Forget the least recently used modules once their sources exceed ``budget`` characters.

        Called between files, never during an analysis: a forgotten module is parsed again if a later file needs it.
        Keeps a long run over a large tree (one process analyses many packages) within a bounded memory.
        """
        modules = self.modules
        # after every file: the running total (summing hundreds of modules' lengths was 1.5% of a -j 2 corpus run)
        total = modules.chars if type(modules) is _Modules else sum(map(len, map(_TEXT_OF, modules.values())))
        for name in list(self.modules):
            if total <= budget:
                break
            forgotten = self.modules.pop(name)
            size = len(forgotten.text)
            total -= size
            if id(forgotten) not in self.frozen:
                self._forgotten += size
        import gc

        from ..interpret import hooks
        from ..interpret.walk import forget_memo

        if self._forgotten > budget // 4:
            # a module's objects refer to each other (analysis <-> its rule objects): only the cyclic collector frees
            # them, and the check run turns its automatic passes off (runner._collector_off)
            self._forgotten = 0
            forget_memo()  # its entries keep nodes of forgotten modules alive
            hooks.reset()  # (so do the forward-hook notes: the modules they hold, the analyses they name)
            # a full collection walks every object alive (the modules kept: 2-3 s of a one-process corpus run); the
            # ones between two full ones walk only what was allocated since the last collection (the modules loaded
            # and forgotten since then), so what the older forgotten modules hold waits for the next full one
            self._collections += 1
            gc.collect(2 if self._collections % FULL_COLLECTION_EVERY == 1 else 1)
        elif gc.get_count()[0] > GARBAGE_OBJECTS:
            # the young generation's count grows with every container object allocated while the collector is off
            # (and falls with each one freed): the files analysed since the last collection left this much. A young
            # collection walks only those objects and frees their cycles; the schedule of the collections above, which
            # free forgotten modules (older objects), is left as it was. The walk table goes too: its entries keep
            # the nodes of modules forgotten since its last clearing
            forget_memo()
            gc.collect(0)

    # ------------------------------------------------------------------ loading
    def module(self, name: str) -> "ModuleAnalysis | None":
        if name in self.modules:
            # most recently used last (the same module: dict's own pop and store, the total is unchanged)
            ma = dict.pop(self.modules, name)
            dict.__setitem__(self.modules, name, ma)
            return ma
        path = self.paths.get(name)
        if path is None or name in self._loading:
            return None
        self._loading.add(name)
        try:
            from ...core import decode_source
            from ..interpret.module import ModuleAnalysis

            try:
                text = decode_source(path.read_bytes())
                from ..interpret.budget import shrink_long_functions

                text = shrink_long_functions(text)[0]  # a giant function of an imported module: not parsed
                from .cst_parse import parse_module  # deferred: a warm cache hit in a host never needs the parser
            except Exception:
                return None
            read = None
            if self.mask_imports or name in self.checking:
                # one CPython read of the text: the bodies to blank, or the verdict the module's own check needs
                read = self.ast_read(name, text)
            bodies = read.bodies if read is not None and self.mask_imports and name not in self.checking else ()
            tree = None
            if bodies:
                try:
                    tree = parse_module(blank_bodies(text, bodies))
                except Exception:
                    bodies = ()
            if tree is None:
                try:
                    tree = parse_module(text)
                except Exception:
                    return None
            ma = ModuleAnalysis(text, str(path), tree, self, name, name in self.packages)
            if bodies:
                ma.masked = True
                prepare_fragments(ma, read.tops if read is not None else ())
            self.modules[name] = ma
            ma.run_module()
            return ma
        finally:
            self._loading.discard(name)

    def _split_name(self, qualname: str) -> tuple[str, str] | None:
        """``pkg.mod.attr`` -> ("pkg.mod", "attr") for modules of the analysed tree (nothing is loaded)."""
        hit = self._split_cache.get(qualname)
        if hit is None:
            parts = qualname.split(".")
            longer: list[tuple[str, str]] = []
            found: tuple[str, str] | None = None
            if parts[0] not in MODELLED:
                for i in range(len(parts) - 1, 0, -1):
                    mod = ".".join(parts[:i])
                    if mod in self.paths:
                        found = (mod, ".".join(parts[i:]))
                        break
                    longer.append((mod, ".".join(parts[i:])))
            hit = self._split_cache[qualname] = (tuple(longer), found)
        modules = self.modules
        for mod_rest in hit[0]:  # a module analysed without a file of the tree (a single file's own module)
            if mod_rest[0] in modules:
                return mod_rest
        return hit[1]

    def split(self, qualname: str) -> tuple["ModuleAnalysis", str] | None:
        """``pkg.mod.attr`` -> (analysis of pkg.mod, "attr") for modules of the analysed tree."""
        hit = self._split_name(qualname)
        if hit is None:
            return None
        ma = self.module(hit[0])
        return (ma, hit[1]) if ma is not None else None

    def _bindings(self, module: str) -> Bindings:
        """The module's names as other modules see them (``Bindings``): from its analysis when it is loaded, else
        from its index (CPython's ``ast``).

        Following a re-export needs only a module's imports: reading them with ``ast`` costs a fraction of a libcst
        parse, so modules that are only passed through are never fully analysed.
        """
        if module in self._binding_cache:
            return self._binding_cache[module]
        ma = self.modules.get(module)
        out = Bindings()
        if ma is not None:
            defs = {
                n
                for n, v in ma.globals.items()
                if isinstance(v, FuncV) or (isinstance(v, RefV) and v.qualname.startswith("class:"))
            }
            out = Bindings(
                MappingProxyType(dict(ma.imports.module_names)),
                frozenset(ma.globals),
                frozenset(defs),
                tuple(ma.imports.stars),
            )
        elif self.paths.get(module) is not None:
            out = self._index(module).bindings
        self._binding_cache[module] = out
        return out

    def _index(self, module: str) -> ModuleIndex:
        """The module's index, once per project (its file is known to be in ``paths``)."""
        read = self._ast_reads.get(module)
        if read is None:
            read = self._ast_reads[module] = read_index(
                self.paths[module], module, module in self.packages, local=self.script_local(module)
            )
        return read

    def ast_read(self, module: str, text: str) -> ModuleIndex:
        """The index of ``text``, the module's source as it is analysed: the one made when it read the same text,
        else made now (and kept). A recursion error depends on the stack the read ran on, not only on the text: such
        a read is not kept."""
        read = self._ast_reads.get(module)
        if read is None or read.key != text_key(text):
            path = self.paths.get(module)
            read = read_index(
                path if path is not None else Path(module),
                module,
                module in self.packages,
                text,
                self.script_local(module),
            )
            if not isinstance(read.error, (RecursionError, MemoryError)):
                self._ast_reads[module] = read
        return read

    def facts_of(self, module: str, text: str) -> "Facts | None":
        """The module facts of ``text`` that ``ast_read`` read for ``module`` (None: it did not read that text)."""
        read = self._ast_reads.get(module)
        return read.facts if read is not None and read.key == text_key(text) else None

    def patched_classes_before(self, module: str) -> frozenset[str]:
        """Qualified names of the tree's classes whose attributes another module sets outside their class body
        (``Head.forward = flat_forward`` in ``pkg/patches.py``, which ``pkg/__init__.py`` imports), when that module
        has run before ``module``'s code does: one ``module`` imports, directly or not, or one a package above any of
        those imports (Python runs ``pkg/__init__.py`` before ``pkg.model``). What an instance of such a class holds
        is not what its class body says. The patches ``module`` makes itself are its analysis's
        (``ModuleAnalysis.patched_imported_classes``)."""
        got = self._patched_before.get(module)
        if got is not None:
            return got
        out: set[str] = set()
        own = self._patch_step(module)
        if own is None or not own[1]:
            # what the modules run before it patch, from each one's answer for its whole import closure (kept per
            # strongly connected group of modules, ``_reach_patches``): every module of a package asked this once
            # walked the same closure again (transformer-lens: 451 walks, 154,000 steps). A module that patches
            # classes itself takes the walk below, which leaves its own patches out even when an import cycle
            # leads back to it
            for name in (*_packages_above(module), *_successors(own)):
                out |= self._reach_patches(name)
            got = self._patched_before[module] = frozenset(out)
            return got
        seen: set[str] = set()
        todo = [module, *_packages_above(module)]
        while todo and len(seen) < _PATCH_SEARCH_LIMIT:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            step = self._patch_step(name)
            if step is None:
                continue
            deps, patched = step
            if name != module:
                out.update(patched)
            for dep in deps:
                if dep not in seen:
                    todo.append(dep)
                    todo.extend(p for p in _packages_above(dep) if p not in seen)
        got = self._patched_before[module] = frozenset(out)
        return got

    def _reach_patches(self, start: str) -> frozenset[str]:
        """The classes ``start`` and every module it imports, directly or not (and the packages above those), patch:
        one depth-first walk (Tarjan's, iterative) that keeps the answer of each strongly connected group of modules
        (an import cycle shares one answer)."""
        memo = self._reach_memo
        got = memo.get(start)
        if got is not None:
            return got
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        acc: dict[str, set[str]] = {}
        group: list[str] = []
        on_group: set[str] = set()
        work: list[tuple[str, Iterator[str]]] = []

        def enter(name: str) -> None:
            index[name] = low[name] = len(index)
            group.append(name)
            on_group.add(name)
            step = self._patch_step(name)
            acc[name] = set(step[1]) if step is not None else set()
            work.append((name, iter(_successors(step))))

        enter(start)
        while work:
            name, todo = work[-1]
            for nxt in todo:
                done = memo.get(nxt)
                if done is not None:
                    acc[name] |= done
                elif nxt not in index:
                    enter(nxt)
                    break
                elif nxt in on_group:
                    low[name] = min(low[name], index[nxt])
            else:
                work.pop()
                if low[name] == index[name]:  # the root of a group: every member reaches what any member does
                    members: list[str] = []
                    reached: set[str] = set()
                    while True:
                        x = group.pop()
                        on_group.discard(x)
                        members.append(x)
                        reached |= acc[x]
                        if x == name:
                            break
                    answer = frozenset(reached)
                    for x in members:
                        memo[x] = answer
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[name])
                    acc[parent] |= memo.get(name, acc[name])
        return memo[start]

    def _patch_step(self, module: str) -> tuple[list[str], frozenset[str]] | None:
        """(the modules of the tree ``module`` imports, the tree's classes it patches), once per project; None for a
        module with no file in the tree."""
        if module in self._patch_steps:
            return self._patch_steps[module]
        step: tuple[list[str], frozenset[str]] | None = None
        path = self.paths.get(module)
        if path is not None:
            text = self._dependency_text(self._relevance_key(path), path)
            patched: set[str] = set()
            if _MAY_PATCH.search(text):
                read = self.ast_read(module, text)
                facts = read.facts
                if facts is not None and "*" not in facts[1][0]:
                    imports = read.bindings.imports
                    for who in facts[1][1]:
                        head, _, rest = who.partition(".")
                        bound = imports.get(head)
                        if bound is None or head in read.bindings.definitions:
                            continue  # not imported, or a class or function of the module itself (its own analysis)
                        q = self.canonical(f"{bound}.{rest}" if rest else bound)
                        if self.is_definition(q):
                            patched.add(q)
            step = (self.dependency_names(text, module), frozenset(patched))
        self._patch_steps[module] = step
        return step

    def canonical(self, qualname: str, depth: int = 0) -> str:
        """Follow re-exports: ``mytypes.Float`` where mytypes did ``from jaxtyping import Float`` -> ``jaxtyping.Float``."""
        known = self._canonical_cache.get(qualname) if depth == 0 else None
        if known is not None:
            return known
        steady = True  # every step's answer came from caches that only add_file changes (see _canonical_cache)
        name = qualname
        for _ in range(depth, 9):
            hit = self._split_name(name)
            if self._split_cache[name][0]:
                steady = False  # a longer prefix may be a module analysed without a file: asked again next time
            if hit is None:
                break
            module, attr = hit
            names = self._bindings(module)
            head, _, rest = attr.partition(".")
            if head in names.imports and head not in names.defined:
                target = names.imports[head]
                name = f"{target}.{rest}" if rest else target
                continue
            if names.stars and head not in names.defined:
                # ``from pkg import net`` where ``pkg/__init__.py`` does ``from .nets import *``: the module the star
                # import reads the name from
                where = None
                for star in reversed(names.stars):  # the last star import that binds it wins, as in Python
                    where = self._star_home(star, head, 1, {module})
                    if where is not None:
                        break
                if where is not None and where != module:
                    name = f"{where}.{attr}"
                    continue
            break
        if steady and depth == 0:
            self._canonical_cache[qualname] = name
        return name

    def is_definition(self, qualname: str) -> bool:
        """A function or class defined at the top of a module of the analysed tree (found without analysing it)."""
        hit = self._split_name(self.canonical(qualname))
        if hit is None or "." in hit[1]:
            return False
        return hit[1] in self._bindings(hit[0]).definitions

    # ------------------------------------------------------------------ lookups
    def lookup(self, qualname: str) -> Value | None:
        q = self.canonical(qualname)
        hit = self.split(q)
        if hit is None:
            return None
        ma, attr = hit
        if "." in attr:
            head, _, rest = attr.partition(".")
            v = ma.globals.get(head)
            if isinstance(v, RefV) and v.qualname.startswith("class:"):
                ci = self.find_class(v.qualname[6:])
                if ci is not None and "." not in rest:
                    return _class_attribute(ma, ci, rest)
            return UNKNOWN
        if attr in ma.globals:
            v = ma.globals[attr]
            if (
                (isinstance(v, (DictV, IntDictV)) and getattr(v, "kind", "dict") == "dict")
                or (isinstance(v, (SeqV, ManyV)) and v.kind == "list")
            ) and not ma.stable_global(attr):
                # ``from plug.registry import REGISTRY`` / ``spec._probe_memo``: a list or dict its module's functions
                # may fill (a decorator at import time, a memo) is not what its literal says
                return UNKNOWN
            return v
        return None

    def qualify_star(self, module: str, name: str) -> str | None:
        """``name`` through ``from module import *``, if the module binds it: read from its imports and definitions
        (``ast``), never by analysing it. A package whose ``__init__`` star-imports hundreds of modules otherwise had
        every one of them parsed for each name the analysis could not place (``len``, ``super``, ...)."""
        head = name.split(".", 1)[0]
        where = self._star_home(module, head, 0, set())
        return f"{where}.{name}" if where is not None else None

    def _star_home(self, module: str, head: str, depth: int, seen: set[str]) -> str | None:
        """The module that binds ``head`` for ``from module import *``, following star imports 4 deep."""
        key = (module, head)
        if depth == 0 and key in self._star_cache:
            return self._star_cache[key]
        seen.add(module)
        names = self._bindings(module)
        found: str | None = module if head in names.defined or head in names.imports else None
        if found is None and depth < 4:
            for star in names.stars:
                if star not in seen:
                    found = self._star_home(star, head, depth + 1, seen)
                    if found is not None:
                        break
        if depth == 0:  # deeper answers depend on the path taken (cycles are cut): cached from the top only
            self._star_cache[key] = found
        return found

    def find_function(self, key: str) -> "FunctionInfo | None":
        mod = key.split(":", 1)[0]
        ma = self.module(mod)
        fi = ma.functions.get(key) if ma is not None else None
        return ma.complete(fi) if ma is not None and fi is not None else None

    def find_class(self, key: str) -> "ClassInfo | None":
        mod = key.split(":", 1)[0]
        ma = self.module(mod)
        if ma is None:
            return None
        ci = ma.classes.get(key)
        if ci is None:
            return ma.local_classes.get(key)  # (a class a function body defines, once that statement ran)
        return ma.complete(ci)

    def _may_be_assigned(self, qualname: str) -> bool:
        """Could ``qualname`` be a module-level assignment (an alias, a wrapper)? A top-level def/class cannot: found
        from the module's imports and definitions (``ast``), so annotations naming project classes parse nothing."""
        hit = self._split_name(qualname)
        if hit is None:
            return False
        module, attr = hit
        return "." not in attr and attr not in self._bindings(module).definitions

    def annotation_alias(self, qualname: str) -> "Annotation | None":
        q = self.canonical(qualname)
        if not self._may_be_assigned(q):
            return None
        hit = self.split(q)
        if hit is None:
            return None
        ma, attr = hit
        return ma.ann_aliases.get(attr)

    def wrapper(self, qualname: str) -> str | None:
        q = self.canonical(qualname)
        if not self._may_be_assigned(q):
            return None
        hit = self.split(q)
        if hit is None:
            return None
        ma, attr = hit
        return ma.wrappers.get(attr)

    def reexported_dtype_class(self, qualname: str) -> str | None:
        from .jaxtyping_bridge import dtype_class_of

        q = self.canonical(qualname)
        dc = dtype_class_of(q)
        if dc is not None:
            return dc
        v = self.lookup(q)
        if isinstance(v, RefV):
            return dtype_class_of(v.qualname)
        return None

    def reexported_array(self, qualname: str) -> str | None:
        """What a module-level name of the analysed tree that is neither a def nor a class holds when it is a
        reference to a library name (``T = torch.Tensor`` in a types module, imported from there): that qualified
        name, else None. Read from the module's own analysis of its top level, as ``reexported_dtype_class`` does."""
        q = self.canonical(qualname)
        if not self._may_be_assigned(q):
            return None
        v = self.lookup(q)
        if isinstance(v, RefV) and not v.qualname.startswith("class:"):
            return v.qualname
        return None

    def imports_relevant(self, text: str, path: str, depth: int = IMPORT_RELEVANCE_DEPTH) -> bool:
        """Does this source import a module of the analysed tree that mentions einops or jaxtyping?"""
        p = Path(path)
        current = module_name_for(p)[0] if p.suffix == ".py" and p.exists() else ""
        # deeper only for a file that makes tensors of its own (an entry point that can provide concrete shapes):
        # each file found this way is analysed in full (transformer-lens: 600 test files)
        depth = depth if _MAKES_TENSORS.search(text) else 0
        deps = self.dependencies(text, current)
        if any(self._dep_relevant(dep, depth) for dep in deps):
            return True
        # a script (``if __name__ == "__main__":``) that imports no framework itself but runs modules of the tree
        # that do (``from pkg import Model, make_data``; through the package's __init__ too): the arrays are made
        # and used in those modules, with the sizes the script passes
        return _MAIN_GUARD.search(text) is not None and any(
            self._dep_framework(dep, IMPORT_RELEVANCE_DEPTH) for dep in deps
        )

    def _dep_framework(self, dep: Path, depth: int) -> bool:
        """The imported file imports a framework (``core.mentions_ours``), or (``depth`` levels down) imports a file
        that does."""
        from ...core import mentions_ours

        key = self._relevance_key(dep)
        memo = self._framework_deps
        if (key, depth) not in memo:
            memo[(key, depth)] = False  # an import cycle ends here
            text = self._dependency_text(key, dep)
            memo[(key, depth)] = mentions_ours(text) or (
                depth > 0
                and any(self._dep_framework(d, depth - 1) for d in self.dependencies(text, module_name_for(dep)[0]))
            )
        return memo[(key, depth)]

    def _dep_relevant(self, dep: Path, depth: int) -> bool:
        """The imported file mentions einops/jaxtyping, or (``depth`` levels down) imports a file that does: a test
        or an example imports the model from the package's ``__init__``, which re-exports it from its module."""
        key = self._relevance_key(dep)
        if key not in self._relevance:
            dep_text = self._dependency_text(key, dep)
            self._relevance[key] = "einops" in dep_text or "jaxtyping" in dep_text
        if self._relevance[key] or depth <= 0:
            return self._relevance[key]
        deep = self._relevance_deep
        if key not in deep:
            deep[key] = False  # an import cycle ends here
            text = self._dependency_text(key, dep)
            deep[key] = any(self._dep_relevant(d, depth - 1) for d in self.dependencies(text, module_name_for(dep)[0]))
        return bool(deep[key])

    def _relevance_key(self, dep: Path) -> str:
        return str(dep)

    def _dependency_text(self, key: str, dep: Path) -> str:
        """An imported file's text for the relevance check (the language server reads unsaved buffers first)."""
        try:
            return dep.read_bytes().decode("utf-8", "replace")
        except OSError:
            return ""

    # ------------------------------------------------------------------ cache keys
    def dependencies(self, text: str, current: str) -> list[Path]:
        """Files of the analysed tree this source imports (by a cheap regex; for cache keys)."""
        return [self.paths[name] for name in self.dependency_names(text, current)]

    def dependency_names(self, text: str, current: str) -> list[str]:
        """Modules of the analysed tree this source imports (see ``dependencies``): the resolver's records of a scan
        of the text (``resolve.scan_records``: the pre-filter reads files nobody parses)."""
        return loaded_modules(
            scan_records(text), current, current in self.packages, self._on_disk, self.script_local(current)
        )

    def script_local(self, module: str) -> Local | None:
        """For a module whose file lies in a folder without ``__init__.py`` that the project names as a namespace
        package (``examples/b/train.py`` -> ``examples.b.train``): a script's folder, first on ``sys.path`` when it
        runs, so ``import model`` there is its sibling ``examples.b.model`` when that exists (``resolve.Local``).
        None for other modules (a regular package's module, a top-level file: its siblings are top-level already)."""
        if module in self._script_locals:
            return self._script_locals[module]
        local: Local | None = None
        folder, dot, _ = module.rpartition(".")
        path = dict.get(self.paths, module) if dot and module not in self.packages else None
        if path is not None and not (path.parent / "__init__.py").exists():
            found: dict[str, str | None] = {}

            def local(head: str) -> str | None:
                if head not in found:
                    name = f"{folder}.{head}"
                    found[head] = name if self.paths.get(name) is not None else None
                return found[head]

        elif dict.get(self.paths, module) is not None:
            # a regular package's module (or its __init__) importing a sibling by its bare name (``from vgg import *``
            # in kuangliu's ``models/__init__.py``, Python 2's implicit relative import): that runs only with the
            # folder on ``sys.path``, so the name is the sibling when nothing else of that name can be imported
            inside = module if module in self.packages else folder
            if inside:
                siblings: dict[str, str | None] = {}

                def local(head: str) -> str | None:
                    if head not in siblings:
                        name = f"{inside}.{head}"
                        siblings[head] = (
                            name
                            if self.paths.get(name) is not None
                            and self.paths.get(head) is None
                            and not _importable_elsewhere(head)
                            else None
                        )
                    return siblings[head]

        self._script_locals[module] = local
        return local

    def _on_disk(self, name: str) -> bool:
        return self.paths.get(name) is not None


@functools.lru_cache(maxsize=1024)
def _importable_elsewhere(name: str) -> bool:
    """A top-level module name Python finds outside the analysed tree: the standard library's, or an installed
    package's (``importlib.util.find_spec`` of a top-level name locates it without running it)."""
    import importlib.util
    import sys

    if name in sys.stdlib_module_names or name in sys.builtin_module_names:
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return True


def _class_attribute(ma: "ModuleAnalysis", ci: "ClassInfo", attr: str) -> Value:
    """``Class.attr`` of a class another module defines, as its own module reads it (``Bottleneck.expansion``, a
    dataclass field's default ``EncoderConfig.dim``, an inherited class attribute): the class object's attribute
    along the MRO. A classmethod is bound to the class (``SimpleViT.from_config(cfg)``: ``cls`` is ``SimpleViT``); a
    plain method or a staticmethod is the function, called with every argument (``Base.forward(self, x)``)."""
    from ..interpret.objects import object_attr
    from ..interpret.values import ObjV

    got = object_attr(ma, ObjV(ci.key, (), True), attr)
    if not isinstance(got, FuncV) and not ci.methods and not ci.node.bases and not ci.node.decorators:
        # a bare namespace (``class CFG: dim = 64``) is the global config scripts set from their arguments
        # (``CFG.dim = args.dim`` in a third module): its class-body values are not trusted elsewhere
        return UNKNOWN
    if isinstance(got, FuncV) and got.bound_self is not None:
        fi = ma.find_function(got.key)
        if fi is None or not fi.is_classmethod:
            return FuncV(got.key)
    return got
