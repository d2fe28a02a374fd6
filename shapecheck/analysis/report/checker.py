"""Entry point of the analysis: source text -> positioned findings."""

from __future__ import annotations

import ast
import sys
import re
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from ...diagnostics import Edit, Finding, Witness, make
from ...diagnostics import details as D
from ...diagnostics.render import message
from ..index.cst_parse import parse_module
from ..interpret.context import Context, OpSpec, Pending

if TYPE_CHECKING:
    from ..interpret.module import ModuleAnalysis
    from ..index.project import Project


# CPython errors no newer Python would accept either (the rest may be syntax newer than this interpreter)
_NOT_A_VERSION_MATTER = (
    "too many nested",
    "too complex",
    "null bytes",
    "non-printable",
    "indent",
    "tab",
    "EOF",
    "unterminated",
    "unmatched",
    "was never closed",
    "does not match",
)


def parse(text: str, path: str, project: "Project | None" = None, name: str = "") -> cst.Module | Finding:
    """libcst's tree, or one SHP901 finding.

    CPython's own parser (``ast.parse``: parsing only, nothing is compiled or run) looks first. Its verdict gives exact
    error positions, and input it refuses for nesting depth is never handed to libcst's native parser, which
    overflows its stack on it. Syntax newer than this interpreter (a SyntaxError libcst does not share) is analysed.
    """
    refused = cpython_refusal(text, path, project, name)
    if isinstance(refused, Finding):
        return refused
    cpython_error = refused
    try:
        return parse_module(text)
    except cst.ParserSyntaxError as exc:
        if cpython_error is not None:
            line, col = cpython_error.lineno or 1, cpython_error.offset or 1
            detail = D.ParseFailed("cpython", line, str(cpython_error.msg))
        else:
            line, col = max(exc.raw_line, 1), max(exc.raw_column, 0) + 1
            first = str(exc.message).splitlines()[0] if exc.message else "invalid syntax"
            detail = D.ParseFailed("libcst", line, first)
        return make("SHP901", path, (line, col, line, col), detail=detail)
    except RecursionError:
        return make("SHP901", path, (1, 1, 1, 1), detail=D.TooDeep("parse"))


def cpython_refusal(
    text: str, path: str, project: "Project | None" = None, name: str = ""
) -> Finding | SyntaxError | None:
    """CPython's verdict on ``text``: an SHP901 finding when it refuses the text for good, the SyntaxError when the
    syntax may only be newer than this interpreter (libcst decides), None when it parses. With a project and the
    module's name, the verdict is the index's ``ast`` read of the same text (one CPython parse per module and run)."""
    error: BaseException | None = None
    if project is not None and name:
        error = project.ast_read(name, text).error
    else:
        try:
            ast.parse(text)
        except (RecursionError, MemoryError, ValueError, SyntaxError) as exc:
            error = exc
    if error is None:
        return None
    if isinstance(error, (RecursionError, MemoryError)):
        return make("SHP901", path, (1, 1, 1, 1), detail=D.TooDeep("parse"))
    if isinstance(error, SyntaxError):
        msg = str(error.msg)
        if any(fragment in msg for fragment in _NOT_A_VERSION_MATTER) and not (
            # Python 3.12 (PEP 701) reads f-strings anew: f"{batch["key"]}" is valid there, and a 3.11 reading it
            # reports "f-string: unmatched '['" (libcst decides)
            sys.version_info < (3, 12) and msg.startswith("f-string")
        ):
            line, col = error.lineno or 1, error.offset or 1
            return make("SHP901", path, (line, col, line, col), detail=D.ParseFailed("cpython", line, str(error.msg)))
        return error
    return make("SHP901", path, (1, 1, 1, 1), detail=D.ParseFailed("cpython", 0, str(error)))  # ValueError: NUL bytes


def analyse_module(
    text: str, path: str, project: "Project | None" = None, *, record_hovers: bool = False
) -> list[Finding]:
    analysis = build(text, path, project, record_hovers=record_hovers)
    if isinstance(analysis, Finding):
        return [analysis]
    return findings_of(analysis)


def build(
    text: str, path: str, project: "Project | None" = None, *, record_hovers: bool = False
) -> "ModuleAnalysis | Finding":
    from ..interpret.module import ModuleAnalysis
    from ..index.project import Project, module_name_for

    name, is_pkg = ("", False)
    p = Path(path)
    if project is None:
        project = Project()
    if p.suffix == ".py" and p.exists():
        name, is_pkg = module_name_for(p)
    loaded = project.modules.get(name) if name else None
    if loaded is not None and loaded.text == text and not loaded.analysed:
        # already parsed (and its module level run) because another analysed module imports it: reuse the tree, once
        # CPython's verdict on the text is known (SHP901's contract holds whichever file was read first)
        refused = cpython_refusal(text, path, project, name)
        if isinstance(refused, Finding):
            return refused
        loaded.path = loaded.ctx.path = path
        loaded.ctx.record_hovers = record_hovers
        loaded.analyse()
        return loaded
    tree = parse(text, path, project, name)
    tab_shift: dict[int, tuple[int, int]] = {}
    if isinstance(tree, Finding) and _libcst_only(tree) and "\t" in text:
        # libcst's tokenizer and CPython's disagree on some tab stops in indentation: analyse the text with its
        # indentation tabs expanded as CPython reads them (columns are mapped back; no autofix for such files)
        expanded, tab_shift = _expand_indentation_tabs(text)
        retried = parse(expanded, path)
        if isinstance(retried, Finding):
            return tree
        tree, text = retried, expanded
    if isinstance(tree, Finding):
        return tree
    analysis = ModuleAnalysis(text, path, tree, project, name, is_pkg)
    analysis.tab_shift = tab_shift
    analysis.ctx.record_hovers = record_hovers
    if name:
        project.register(name, analysis)
    analysis.analyse()
    return analysis


def _libcst_only(failure: Finding) -> bool:
    """A file CPython parses and libcst does not."""
    detail = failure.field_value("detail")
    return isinstance(detail, D.ParseFailed) and detail.parser == "libcst"


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")


def _expand_indentation_tabs(text: str) -> tuple[str, dict[int, tuple[int, int]]]:
    """Tabs in indentation expanded to CPython's tab stops (8); line -> (columns added, expanded indent width)."""
    out: list[str] = []
    shift: dict[int, tuple[int, int]] = {}
    for number, line in enumerate(_LINE.findall(text), 1):
        body = line.lstrip(" \t")
        indent = line[: len(line) - len(body)]
        if "\t" in indent:
            wide = indent.expandtabs(8)
            shift[number] = (len(wide) - len(indent), len(wide))
            line = wide + body
        out.append(line)
    return "".join(out), shift


def _unshift(line: int, column: int, shift: dict[int, tuple[int, int]]) -> int:
    if line in shift:
        added, width = shift[line]
        return column - added if column > width else 1  # a column inside the indentation: its start
    return column


def findings_of(analysis: "ModuleAnalysis") -> list[Finding]:
    pend: list[Pending] = analysis.ctx.pending
    if not pend:
        return []
    positions = analysis.positions_for([p.node for p in pend])
    pend = _one_misalignment_each(pend)
    out: list[Finding] = []
    direct: set[tuple[int, str]] = set()
    for p in pend:
        if p.inner is None:
            if (id(p.node), p.code) in direct:
                # the same operation failing in two of its analyses (an nn.Sequential's chain checked when it is
                # built and again when its forward runs): one finding, the first
                continue
            direct.add((id(p.node), p.code))
        span = p.span or positions.get(id(p.node), (1, 1, 1, 1))
        witness = p.witness
        if witness is None and p.spec is not None and p.code.startswith("SHP2"):
            witness = _witness(p.spec, analysis.ctx)
        shift = getattr(analysis, "tab_shift", {})
        if shift:
            span = (span[0], _unshift(span[0], span[1], shift), span[2], _unshift(span[2], span[3], shift))
        out.append(
            Finding(
                analysis.path,
                span[0],
                span[1],
                span[2],
                span[3],
                p.code,
                message(p.code, p.fields),
                tuple(n if type(n) is str else str(n) for n in p.notes),
                witness=witness,
                fix=() if shift else _edits(p, positions),
                fields=p.fields,
            )
        )
    return out


def _one_misalignment_each(pend: list[Pending]) -> list[Pending]:
    """One SHP401 per misaligned operation (one SHP402 per reshape, whichever pass of a loop reported it): an
    operation inside a function seen from several calls (the function's own analysis, a ``main()`` that calls it,
    the ``__main__`` block that calls ``main()``) is one warning, at the call
    nearest to it (the operation itself when its own analysis saw the axes). Definite findings are not merged: a
    module-level call's failure is reported at the call with its sizes even where the function's own analysis
    reports the operation too."""
    best: dict[tuple[object, ...], tuple[int, int]] = {}
    for i, p in enumerate(pend):
        if p.code in _ONCE_EACH:
            key = (p.code, id(p.inner or p.node), tuple(v for k, v in p.fields if k in _AXES_FIELDS))
            if key not in best or p.calls < best[key][1]:
                best[key] = (i, p.calls)
    keep = {i for i, _ in best.values()}
    return [p for i, p in enumerate(pend) if p.code not in _ONCE_EACH or i in keep]


# warnings about one operation's axes, the same whichever analysis of the function (or pass of a loop) saw them
_ONCE_EACH = frozenset({"SHP401", "SHP402", "SHP403", "SHP404"})
_AXES_FIELDS = ("left", "right", "source", "target", "axis")


def _witness(spec: OpSpec, ctx: Context) -> Witness | None:
    """Concrete sizes for a definite finding (docs/verification.md); a failure here never costs the finding."""
    from ...witness import build_witness

    try:
        return build_witness(spec, ctx)
    except Exception:
        return None


def _edits(p: Pending, positions: dict[int, tuple[int, int, int, int]]) -> tuple[Edit, ...]:
    """Node-anchored insertions -> zero-width text edits (1-based, end exclusive)."""
    edits = []
    for node, where, text in p.fix:
        pos = positions.get(id(node))
        if pos is None:
            return ()
        if where == "replace":
            edits.append(Edit(pos[0], pos[1], pos[2], pos[3], text))
            continue
        line, col = (pos[0], pos[1]) if where == "before" else (pos[2], pos[3])
        edits.append(Edit(line, col, line, col, text))
    return tuple(edits)
