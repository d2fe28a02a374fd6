"""Language server (``shapecheck lsp``, stdio): diagnostics on unsaved text, shape hovers, autofix quick fixes.

Positions: shapecheck counts 1-based lines and code points; LSP counts 0-based lines and, unless the client
negotiated otherwise, UTF-16 code units. pygls's position codec converts with the document's own lines.
"""

from __future__ import annotations

from typing import Any, Sequence

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .._version import __version__
from ..diagnostics import Edit, Finding, Severity

server = LanguageServer("shapecheck", __version__)
_findings: dict[str, list[Finding]] = {}  # uri -> findings of the last published text


def _path(uri: str) -> str:
    return to_fs_path(uri) or uri


def to_range(lines: Sequence[str], codec: Any, line: int, col: int, end_line: int, end_col: int) -> T.Range:
    """1-based code-point span -> LSP range in the client's units."""
    rng = T.Range(T.Position(max(line - 1, 0), max(col - 1, 0)), T.Position(max(end_line - 1, 0), max(end_col - 1, 0)))
    converted: T.Range = codec.range_to_client_units(list(lines), rng)  # pygls position codec (untyped here)
    return converted


def to_diagnostic(lines: Sequence[str], codec: Any, f: Finding) -> T.Diagnostic:
    error = f.effective_severity is Severity.ERROR
    return T.Diagnostic(
        range=to_range(lines, codec, f.line, f.column, f.end_line, f.end_column),
        message="\n".join([f.message, *f.notes]),
        severity=T.DiagnosticSeverity.Error if error else T.DiagnosticSeverity.Warning,
        code=f.code,
        source="shapecheck",
    )


def to_code_actions(uri: str, lines: Sequence[str], codec: Any, findings: Sequence[Finding], want: T.Range) -> list[T.CodeAction]:
    actions = []
    for f in findings:
        if not f.fix:
            continue
        diag = to_diagnostic(lines, codec, f)
        if diag.range.end.line < want.start.line or diag.range.start.line > want.end.line:
            continue
        edits = [T.TextEdit(to_range(lines, codec, e.line, e.column, e.end_line, e.end_column), e.text) for e in f.fix]
        actions.append(T.CodeAction(
            title=f"Fix {f.code}: {_describe(f.fix)}", kind=T.CodeActionKind.QuickFix, diagnostics=[diag],
            edit=T.WorkspaceEdit(changes={uri: edits}), is_preferred=True,
        ))
    return actions


def _describe(edits: Sequence[Edit]) -> str:
    inserted = [e.text for e in edits if e.text]
    return "insert " + " and ".join(repr(t) for t in inserted) if inserted else "apply shapecheck fix"


def check_document(ls: LanguageServer, uri: str) -> None:
    from ..config import load_config
    from ..core import check_source
    from ..analysis.project import Project

    doc = ls.workspace.get_text_document(uri)
    path = _path(uri)
    try:
        from pathlib import Path

        findings = check_source(doc.source, path, load_config(Path(path)), project=Project.for_file(path))
    except Exception:  # check_source never raises; configuration or project discovery might
        findings = check_source(doc.source, path)
    _findings[uri] = findings
    lines = doc.lines
    diags = [to_diagnostic(lines, doc.position_codec, f) for f in findings]
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=diags, version=doc.version))


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: T.DidOpenTextDocumentParams) -> None:
    check_document(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: T.DidChangeTextDocumentParams) -> None:
    check_document(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: LanguageServer, params: T.DidSaveTextDocumentParams) -> None:
    check_document(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: LanguageServer, params: T.DidCloseTextDocumentParams) -> None:
    _findings.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: T.HoverParams) -> T.Hover | None:
    from ..analysis.hover import hover_at

    doc = ls.workspace.get_text_document(params.text_document.uri)
    pos = doc.position_from_client_units(params.position)
    try:
        text = hover_at(doc.source, _path(doc.uri), pos.line + 1, pos.character)
    except Exception:
        return None
    if not text:
        return None
    head, _, rest = text.partition("\n")
    value = f"```text\n{head}\n```" + (f"\n{rest.strip()}" if rest.strip() else "")
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=value))


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
def code_action(ls: LanguageServer, params: T.CodeActionParams) -> list[T.CodeAction]:
    uri = params.text_document.uri
    doc = ls.workspace.get_text_document(uri)
    return to_code_actions(uri, doc.lines, doc.position_codec, _findings.get(uri, []), params.range)


def serve() -> None:
    server.start_io()
