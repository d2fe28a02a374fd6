"""Documentation examples as entry points: the ```python blocks of a project's README and docs Markdown files.

Library packages rarely ship tests in their sdists, but their README shows how a model is built and called
(``Model(dim=512)`` then ``model(torch.randn(1, 2048, 512))``): the concrete sizes an entry point provides
(docs/configuration.md, "examples"). A Markdown file becomes synthetic modules, one per example, never executed:

* lines outside ```python / ```py / ```python3 blocks become blank lines, so every line keeps its number;
* a block is the body of a function (the opening fence's line holds ``def``) in a module of its own, indented by 4
  columns; the columns of findings are mapped back (as for expanded tabs, ``ModuleAnalysis.tab_shift``);
* consecutive blocks are independent, unless a block clearly continues the ones before it: it reads a name that it
  does not bind itself and that an earlier block of the same chain binds (``model`` built in one block, called in the
  next). It then joins that chain's function and module (the lines between stay blank lines of the body);
* a block that does not parse as Python on its own (pseudo-code, ``...`` placeholders inside calls, doctest or
  IPython prompts, top-level ``await``) is left out, as is a block with no statement.

A definite failure inside a call made by an example is reported at the README line of the outermost call, with a
note naming the inner line, as for an example file. Sites of the examples themselves are not counted as einops call
sites by ``benchmarks/corpus.py`` (they only provide evidence to the package's sites).
"""

from __future__ import annotations

import ast
import builtins
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

import libcst as cst

if TYPE_CHECKING:
    from ...config import Config
    from ...diagnostics import Finding
    from ...runner import Cache
    from ..interpret.module import ModuleAnalysis
    from .project import Project

_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\s`]*)")
_PYTHON = frozenset({"python", "py", "python3"})
_DOC_DIRS = frozenset({"docs", "doc"})
_BUILTINS = frozenset(dir(builtins))
INDENT = 4


@dataclass
class ExampleModule:
    """The synthetic module of one Markdown file."""

    text: str
    shift: dict[int, tuple[int, int]] = field(default_factory=dict)  # line -> (columns added, indentation width)
    blocks: int = 0  # python blocks kept
    functions: int = 0  # chains (one function each; one per module)


def is_doc(path: Path) -> bool:
    """A Markdown file whose python blocks are examples: any README*.md, and *.md files below a docs/ or doc/ folder."""
    if path.suffix.lower() != ".md":
        return False
    return path.name.lower().startswith("readme") or any(p.lower() in _DOC_DIRS for p in path.parts[:-1])


def collect_docs(paths: Iterable[str], config: "Config") -> list[Path]:
    """The documentation files under the checked paths (a Markdown file named on the command line is taken as is),
    with the same excludes as Python files."""
    from ...runner import _rel

    out: list[Path] = []
    seen: set[Path] = set()
    for given in paths:
        root = Path(given)
        if root.is_file():
            found = [root] if root.suffix.lower() == ".md" else []
        else:
            found = []
            for dirpath, dirnames, filenames in os.walk(root):
                d = Path(dirpath)
                dirnames[:] = sorted(n for n in dirnames if not config.is_excluded(_rel(d / n, root), True))
                found.extend(d / f for f in sorted(filenames) if is_doc(_rel(d / f, root)) or is_doc(d / f))
        for f in found:
            if f in seen or (f != root and config.is_excluded(_rel(f, root), True)) or not f.is_file():
                continue
            seen.add(f)
            out.append(f)
    return out


def _blocks(lines: list[str]) -> list[tuple[int, int, int]]:
    """(fence line index, first code line index, end index (the closing fence or the end)) of each python block."""
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        fence, info = m.group("fence"), m.group("info").lower().strip("{}.")
        j = i + 1
        while j < len(lines):
            close = _FENCE.match(lines[j])
            if (
                close is not None
                and close.group("fence")[0] == fence[0]
                and len(close.group("fence")) >= len(fence)
                and not lines[j].strip().lstrip(fence[0])
            ):
                break
            j += 1
        if info in _PYTHON:
            out.append((i, i + 1, j))
        i = j + 1
    return out


def _names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(names the code reads, names it binds), at any depth (parameters of its functions count as bound)."""
    loads: set[str] = set()
    stores: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else stores).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stores.add(node.name)
        elif isinstance(node, ast.alias):
            stores.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.arg):
            stores.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            stores.add(node.name)
    return loads, stores


def _function_only(tree: ast.Module) -> bool:
    """``return``, ``yield`` or ``await`` outside any function: Python refuses the block as a program."""
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.AsyncFor, ast.AsyncWith)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def example_modules(md: str) -> list[ExampleModule]:
    """The synthetic modules of a Markdown text, one per chain of blocks (see the module docstring): each keeps the
    file's line numbers, and its imports are its own (two examples importing two different ``ViT`` classes)."""
    lines = md.splitlines()
    chains: list[ExampleModule] = []
    outs: list[list[str]] = []
    chain_bound: set[str] | None = None  # names bound by the current chain's blocks
    for fence, start, end in _blocks(lines):
        indent = len(lines[fence]) - len(lines[fence].lstrip(" "))
        body = []
        for ln in lines[start:end]:
            lead = len(ln) - len(ln.lstrip(" "))
            body.append(ln[min(lead, indent) :] if ln.strip() else "")
        code = "\n".join(body) + "\n"
        if any(b.lstrip().startswith((">>>", "In [", "%", "!")) for b in body):
            continue  # doctest / IPython sessions: prompts and outputs, not a program
        try:
            tree = ast.parse(code)
            ast.parse("def f():\n" + "".join(" " * INDENT + b + "\n" for b in body))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if not tree.body or _function_only(tree):
            continue
        loads, stores = _names(tree)
        free = loads - stores - _BUILTINS
        if chain_bound is not None and free & chain_bound:
            chain_bound |= stores  # a continuation: the fence line stays a blank line of the chain's body
        else:
            chain_bound = set(stores)
            chains.append(ExampleModule("", functions=1))
            outs.append([""] * len(lines))
            outs[-1][fence] = f"def _shapecheck_example_line_{fence + 1}():"
        for k, b in enumerate(body):
            if b:
                outs[-1][start + k] = " " * INDENT + b
                chains[-1].shift[start + k + 1] = (INDENT - indent, INDENT)
        chains[-1].blocks += 1
    for ex, out in zip(chains, outs):
        ex.text = "\n".join(out) + "\n"
    return chains


def build_doc(path: Path, display: str, project: "Project", part: int | None = None) -> "list[ModuleAnalysis]":
    """The analysed synthetic modules of one Markdown file (none when it holds no usable python block); with ``part``,
    only its ``part``-th chain (the runner schedules a file's chains as separate work items)."""
    from ..interpret.module import ModuleAnalysis
    from ..report.checker import parse

    try:
        md = path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return []
    out = []
    for k, ex in enumerate(_fenced_examples(md)):
        if part is not None and k != part:
            continue
        # the blank lines that keep the file's line numbers are left out of the parse (a README of 2,900 lines with
        # 55 examples made libcst read 160,000 blank lines): the tree starts at the example's first line
        body = ex.text.lstrip("\n")
        lead = len(ex.text) - len(body)
        body = body.rstrip("\n") + "\n"
        tree = parse(body, display)
        if type(tree) is not cst.Module:
            continue  # cannot happen (every block was parsed alone), but a doc must never yield SHP901
        analysis = ModuleAnalysis(body, display, tree, project)
        analysis.line_offset = lead
        analysis.tab_shift = ex.shift
        analysis.analyse()
        out.append(analysis)
    return out


def relevant_doc(path: Path, project: "Project") -> bool:
    """The pre-filter for a documentation file: its examples use einops/jaxtyping or a module that does."""
    try:
        md = path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return False
    return _relevant_examples(path, _fenced_examples(md), project)


_EXAMPLES: dict[str, list[ExampleModule]] = {}  # a Markdown text's examples: its chains are work items of their own


def _fenced_examples(md: str) -> list[ExampleModule]:
    """``example_modules``, without reading a text that has no fenced block at all; kept per text for the run (the
    pre-filter, the cache key and each chain's work item read the same file; a -j worker inherits the parent's)."""
    if "```" not in md and "~~~" not in md:
        return []
    got = _EXAMPLES.get(md)
    if got is None:
        if len(_EXAMPLES) >= 64:
            _EXAMPLES.clear()
        got = _EXAMPLES[md] = example_modules(md)
    return got


def _relevant_examples(path: Path, examples: list[ExampleModule], project: "Project") -> bool:
    from ...core import mentions_ours
    from .project import IMPORT_RELEVANCE_DEPTH

    # as for a source file (core.relevant): a marker, an import of a framework (an example building a plain torch
    # model from the package and calling it), or an import of the package's einops/jaxtyping modules
    return any(
        mentions_ours(ex.text) or project.imports_relevant(ex.text, str(path), IMPORT_RELEVANCE_DEPTH + 1)
        for ex in examples
    )


def check_doc(path: Path, display: str, project: "Project", part: int | None = None) -> "list[Finding]":
    """Findings of one documentation file's examples, or of its ``part``-th chain (unfiltered: the caller applies
    the configuration). An analyser error in a documentation example is dropped, never reported: the file is not
    the user's code."""
    from ..report.checker import findings_of

    try:
        analyses = build_doc(path, display, project, part)
    except Exception:
        return []
    return [f for a in analyses for f in findings_of(a) if not f.code.startswith("SHP9")]


def doc_jobs(docs: list[Path], project: "Project", cache: "Cache") -> "list[tuple[Path, str, int]]":
    """The documentation files of a run that hold relevant examples, each with its result-cache key (its text and the
    texts of the project files its examples import) and its number of example chains. The runner schedules each
    chain as a work item with the Python files (any worker may take one: a README whose examples build and run
    models costs as much as many source files, 17-30% of the work on vit-pytorch, x-transformers or
    vector-quantize; one worker running it alone at the end left the other idle) and filters a file's findings by
    the configuration as it does a Python file's."""
    out: list[tuple[Path, str, int]] = []
    # (project.mask_imports stays as the runner sets it: turned on here, before the -j 2 preload, it made the
    # preloaded modules load with blanked bodies, and every worker parsed them whole again)
    roots = getattr(project.paths, "roots", None)
    if isinstance(roots, list):  # a README named alone: its imports resolve from its own project, as a file's do
        from .project import import_roots

        for d in docs:  # the Markdown file's folder first: a README sits at its project's root
            roots.extend(r for r in [d.resolve().parent, *import_roots(d.with_suffix(".py"))] if r not in roots)
    for d in docs:
        try:
            data = d.read_bytes()
        except OSError:
            continue
        examples = _fenced_examples(data.decode("utf-8", "replace"))  # read once for the relevance and the key
        if not _relevant_examples(d, examples, project):
            continue
        if not cache.enabled:
            out.append((d, "", len(examples)))
            continue
        deps: list[bytes] = []
        for dep in sorted({path for ex in examples for path in project.dependencies(ex.text, "")}):
            try:
                deps.append(dep.read_bytes())
            except OSError:
                pass
        out.append((d, cache.key(data, deps, str(d) + "#examples"), len(examples)))
    return out
