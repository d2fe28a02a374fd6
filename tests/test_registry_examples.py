"""The registry's examples are tests (issue 11, item 3): generated from shapecheck/diagnostics/registry.py, so
docs/codes.md (rendered from the same table) cannot drift from behaviour.

Every code's bad example, after the registry's EXAMPLE_PRELUDE of imports, is reported on its last line with its
code and nothing else; every good example is clean. Each host runs for real, once, over one project holding every
example: the core, the command line, flake8 and mypy in subprocesses, the language server through pytest-lsp.

Where a host cannot run on a file at all the expectation says so: a file Python cannot parse (SHP901's bad example)
is flake8's own E999 (flake8 runs no AST plugin on it) and is left out of the mypy run (mypy stops at a syntax error
in any file).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from host_runs import run_mypy
from shapecheck.config import Config
from shapecheck.core import check_source
from shapecheck.diagnostics import CODES, Family
from shapecheck.diagnostics.registry import EXAMPLE_PRELUDE, default_on

PRELUDE_LINES = len(EXAMPLE_PRELUDE.splitlines())


def _examples() -> dict[str, tuple[str, set[tuple[int, str]]]]:
    """file name -> (source, expected (line, code) set)."""
    out: dict[str, tuple[str, set[tuple[int, str]]]] = {}
    for c in CODES:
        if not c.bad:
            assert c.family is Family.INTERNAL, f"{c.code} has no bad example"
            continue
        assert c.good, f"{c.code} has no good example"
        out[f"bad_{c.code.lower()}.py"] = (
            EXAMPLE_PRELUDE + c.bad + "\n",
            {(PRELUDE_LINES + len(c.bad.splitlines()), c.code)},
        )
        out[f"good_{c.code.lower()}.py"] = (EXAMPLE_PRELUDE + c.good + "\n", set())
    return out


EXAMPLES = _examples()


def _parses(text: str) -> bool:
    try:
        ast.parse(text)  # parsing only: nothing is compiled or run
        return True
    except SyntaxError:
        return False


UNPARSABLE = {name for name, (text, _) in EXAMPLES.items() if not _parses(text)}

MYPY_CONFIG = """[tool.mypy]
plugins = ["shapecheck"]
ignore_missing_imports = true

[[tool.mypy.overrides]]
module = ["torch", "torch.*", "numpy", "numpy.*", "einops", "einops.*", "jaxtyping", "jaxtyping.*"]
follow_imports = "skip"
follow_imports_for_stubs = true
"""


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("examples")
    for name, (text, _) in EXAMPLES.items():
        (root / name).write_text(text, encoding="utf-8")
    (root / "pyproject.toml").write_text(MYPY_CONFIG, encoding="utf-8")
    return root


def _check(got: dict[str, set[tuple[int, str]]], host: str, names: set[str] | None = None) -> None:
    wrong = []
    for name, (_, want) in sorted(EXAMPLES.items()):
        if names is not None and name not in names:
            continue
        if got.get(name, set()) != want:
            wrong.append(f"{name}: {host} reports {sorted(got.get(name, set()))}, the registry says {sorted(want)}")
    assert not wrong, "\n".join(wrong)


def test_the_examples_cover_every_code() -> None:
    bad = {code for _, want in EXAMPLES.values() for _, code in want}
    assert bad == {c.code for c in CODES if c.family is not Family.INTERNAL or c.bad}
    assert UNPARSABLE == {"bad_shp901.py"}


def test_every_family_is_on_by_default() -> None:
    """docs/codes.md and docs/configuration.md say so; the default configuration does it."""
    for c in CODES:
        assert default_on(c.family) and Config().enabled(c.code), c.code


def test_core() -> None:
    got = {name: {(f.line, f.code) for f in check_source(text, name, Config())} for name, (text, _) in EXAMPLES.items()}
    _check(got, "check_source")


def test_cli(tree: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "shapecheck", "check", "--no-cache", "--format", "json", "."],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1, proc.stderr
    got: dict[str, set[tuple[int, str]]] = {}
    for f in json.loads(proc.stdout):
        got.setdefault(Path(f["path"]).name, set()).add((f["line"], f["code"]))
    _check(got, "shapecheck check")


def test_flake8(tree: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "flake8",
            "--isolated",
            "--select",
            "SHP,E999",
            "--format",
            "%(path)s|%(row)d|%(code)s",
            ".",
        ],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1, proc.stderr
    got: dict[str, set[tuple[int, str]]] = {}
    for line in proc.stdout.splitlines():
        path, row, code = line.split("|")
        got.setdefault(Path(path).name, set()).add((int(row), code))
    for name in UNPARSABLE:
        assert {code for _, code in got.pop(name, set())} == {"E999"}, name
    _check(got, "flake8", set(EXAMPLES) - UNPARSABLE)


def test_mypy(tree: Path) -> None:
    files = sorted(set(EXAMPLES) - UNPARSABLE)
    proc, got = run_mypy(tree, files)
    assert got, proc.stdout + proc.stderr
    _check(got, "mypy", set(files))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "shapecheck", "lsp"]))
async def lsp(lsp_client: LanguageClient, tmp_path: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=tmp_path.as_uri())
    )
    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_language_server(lsp: LanguageClient) -> None:
    import asyncio

    root: Path = lsp.root  # type: ignore[attr-defined]
    uris = {}
    for name, (text, _) in EXAMPLES.items():
        path = root / name
        path.write_text(text, encoding="utf-8")
        uris[path.as_uri()] = name
        lsp.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="python", version=1, text=text)
            )
        )
    while not set(uris) <= set(lsp.diagnostics):
        await asyncio.wait_for(lsp.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 120)
    got = {
        uris[uri]: {(d.range.start.line + 1, str(d.code)) for d in diags}
        for uri, diags in lsp.diagnostics.items()
        if uri in uris
    }
    _check(got, "the language server")
