"""The language server, driven over stdio by a small JSON-RPC client (``python -m shapecheck lsp``)."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

BUGGY = """import torch
from torch import Tensor
from einops import rearrange
from jaxtyping import Float


def patchify(img: Float[Tensor, "b 3 225 225"]):
    tokens = rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)
    return tokens
"""
FIXED = BUGGY.replace("225 225", "224 224")


class Client:
    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "shapecheck", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=cwd,
        )
        self.inbox: "queue.Queue[dict[str, Any]]" = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                k, _, v = line.decode().partition(":")
                headers[k.strip().lower()] = v.strip()
            self.inbox.put(json.loads(out.read(int(headers["content-length"]))))

    def send(self, msg: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        rid = self.next_id
        self.send({"id": rid, "method": method, "params": params})
        msg = self.wait(lambda m: m.get("id") == rid and "method" not in m)
        assert "error" not in msg, msg
        return msg["result"]

    def wait(self, pred: Any, timeout: float = 30.0) -> dict[str, Any]:
        while True:
            msg = self.inbox.get(timeout=timeout)
            if msg.get("method") in ("window/logMessage", "window/showMessage") and not pred(msg):
                continue
            if "method" in msg and "id" in msg and not pred(msg):  # a request from the server: answer it
                self.send({"id": msg["id"], "result": None})
                continue
            if pred(msg):
                return msg

    def diagnostics(self, uri: str) -> list[dict[str, Any]]:
        msg = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        return msg["params"]["diagnostics"]  # type: ignore[no-any-return]

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("lsp")
    c = Client(root)
    c.request("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}})
    c.notify("initialized", {})
    c.root = root  # type: ignore[attr-defined]
    yield c
    c.close()


def _open(client: Client, name: str, text: str) -> str:
    path = client.root / name  # type: ignore[attr-defined]
    path.write_text("# on disk: stale\n", encoding="utf-8")  # the server must use the unsaved text
    uri = path.as_uri()
    client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}
    )
    return uri


def test_diagnostics_published_then_cleared(client: Client) -> None:
    uri = _open(client, "patch.py", BUGGY)
    diags = client.diagnostics(uri)
    assert [(d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in diags] == [
        ("SHP203", 7, 13)
    ]
    d = diags[0]
    assert d["source"] == "shapecheck" and d["severity"] == 1 and d["message"].startswith("SHP203 ")
    client.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": FIXED}],
        },
    )
    assert client.diagnostics(uri) == []


def test_hover_shows_shape(client: Client) -> None:
    uri = _open(client, "hover.py", FIXED)
    client.diagnostics(uri)
    line = FIXED.splitlines().index("    return tokens")
    result = client.request(
        "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": 12}}
    )
    assert result is not None
    assert "(b, 196, 768)" in result["contents"]["value"]


def test_non_ascii_before_the_error_keeps_utf16_columns(client: Client) -> None:
    # "é" is one UTF-16 unit, "😋" two: the error's character offset counts UTF-16 units, not code points
    text = BUGGY.replace("    tokens = rearrange(img,", '    ré = "😋"; tokens = rearrange(img,')
    uri = _open(client, "emoji.py", text)
    diags = client.diagnostics(uri)
    assert [d["code"] for d in diags] == ["SHP203"]
    line = text.splitlines()[7]
    expected = len(line[: line.index("rearrange")].encode("utf-16-le")) // 2
    assert diags[0]["range"]["start"] == {"line": 7, "character": expected}
    assert expected == line.index("rearrange") + 1  # the emoji counts twice
    # hover on the tensor after the emoji (UTF-16 position in, code points to the core)
    col16 = len(line[: line.index("img,")].encode("utf-16-le")) // 2
    result = client.request(
        "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 7, "character": col16 + 1}}
    )
    assert result is not None and "(b, 3, 225, 225)" in result["contents"]["value"]


def test_code_action_from_fix_edits() -> None:
    # the conversion used by the server, on a finding that carries an autofix after a non-ASCII character
    from lsprotocol import types as T
    from pygls.workspace import TextDocument

    from shapecheck.diagnostics import Edit, Finding
    from shapecheck.hosts.lsp import to_code_actions

    doc = TextDocument("file:///t.py", 's = "😋"; y = x.sum()\n')
    f = Finding("t.py", 1, 14, 1, 21, "SHP301", "SHP301 sum over float16", fix=(Edit(1, 15, 1, 15, ".float()"),))
    actions = to_code_actions(doc.uri, doc.lines, doc.position_codec, [f], T.Range(T.Position(0, 0), T.Position(0, 5)))
    assert len(actions) == 1 and actions[0].kind == T.CodeActionKind.QuickFix
    (edit,) = actions[0].edit.changes[doc.uri]  # type: ignore[union-attr,index]
    assert edit.new_text == ".float()"
    assert edit.range.start == T.Position(0, 15)  # code point 14 (0-based) + 1 for the surrogate pair


HALF = """from torch import Tensor
from einops import reduce
from jaxtyping import Float16


def pool(x: Float16[Tensor, "b c h w"]):
    s = "é😋"; y = reduce(x, "b c h w -> b c", "sum")
    return y
"""


def test_quick_fix_over_the_server(client: Client) -> None:
    uri = _open(client, "half.py", HALF)
    diags = client.diagnostics(uri)
    fixable = [d for d in diags if d["code"].startswith("SHP3")]
    assert fixable, diags  # the sample's float16 sum carries an autofix: no finding is a failure, not a skip
    d = fixable[0]
    assert d["severity"] == 2  # warning
    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": d["range"],
            "context": {"diagnostics": [d]},
        },
    )
    quick = [a for a in actions if a.get("kind") == "quickfix"]
    assert quick, actions
    edits = quick[0]["edit"]["changes"][uri]
    line = HALF.splitlines()[6]
    # apply the edits (UTF-16 columns) to the line and check the upcast lands right after `x`
    units = line.encode("utf-16-le")
    for e in sorted(edits, key=lambda e: e["range"]["start"]["character"], reverse=True):
        assert e["range"]["start"]["line"] == 6
        a, b = e["range"]["start"]["character"] * 2, e["range"]["end"]["character"] * 2
        units = units[:a] + e["newText"].encode("utf-16-le") + units[b:]
    assert "reduce(x.float(), " in units.decode("utf-16-le")


# ---------------------------------------------------------------------------------------------- issue 14, item 7
ATTENTION = """from torch import Tensor
from jaxtyping import Float


def attend(x: Float[Tensor, "b n 256"]) -> Float[Tensor, "b n 256"]:
    return x
"""
HEAD = """import torch
from attention import attend


def head():
    x = torch.randn(2, 10, 512)
    return attend(x)
"""


def _change(client: Client, uri: str, version: int, text: str) -> None:
    client.notify(
        "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}
    )


def _diagnostics_of(client: Client, uri: str, version: int) -> list[dict[str, Any]]:
    """The diagnostics published for ``uri`` at ``version`` (earlier publications are skipped)."""
    while True:
        msg = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        if msg["params"].get("version") == version:
            return msg["params"]["diagnostics"]  # type: ignore[no-any-return]


def test_importers_follow_unsaved_edits(client: Client) -> None:
    # both files hold something else on disk: only the buffers' unsaved text can give these results
    callee = _open(client, "attention.py", ATTENTION)
    client.diagnostics(callee)
    caller = _open(client, "head.py", HEAD)
    assert [d["code"] for d in _diagnostics_of(client, caller, 1)] == ["SHP205"]
    # the callee is edited (not saved): the caller, not edited itself, is analysed again with the new text
    _change(client, callee, 2, ATTENTION.replace("256", "512"))
    assert _diagnostics_of(client, caller, 1) == []
    _change(client, callee, 3, ATTENTION)
    assert [d["code"] for d in _diagnostics_of(client, caller, 1)] == ["SHP205"]
    # saving triggers the same (the disk now holds the buffer's text)
    (client.root / "attention.py").write_text(ATTENTION.replace("256", "512"), encoding="utf-8")  # type: ignore[attr-defined]
    _change(client, callee, 4, ATTENTION.replace("256", "512"))
    client.notify("textDocument/didSave", {"textDocument": {"uri": callee}})
    assert _diagnostics_of(client, caller, 1) == []
    for uri in (caller, callee):
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_importers_in_a_package_follow_unsaved_edits(client: Client) -> None:
    """The issue's layout: ``pkg/head.py`` imports ``pkg/attention.py`` relatively; neither buffer is saved."""
    pkg = client.root / "pkg"  # type: ignore[attr-defined]
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    callee = _open(client, "pkg/attention.py", ATTENTION)
    caller = _open(client, "pkg/head.py", HEAD.replace("from attention import", "from .attention import"))
    assert [d["code"] for d in _diagnostics_of(client, caller, 1)] == ["SHP205"]
    _change(client, callee, 2, ATTENTION.replace("256", "512"))
    assert _diagnostics_of(client, caller, 1) == []
    client.notify("textDocument/didClose", {"textDocument": {"uri": callee}})  # the disk's stale text is back
    assert _diagnostics_of(client, caller, 1) == []  # "# on disk: stale" has no annotation: nothing to report
    client.notify("textDocument/didClose", {"textDocument": {"uri": caller}})


def _hover(client: Client, uri: str, line: int, character: int) -> str | None:
    result = client.request(
        "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}
    )
    return None if result is None else result["contents"]["value"]  # type: ignore[no-any-return]


def test_hover_on_a_parameter_at_its_def(client: Client) -> None:
    uri = _open(client, "param.py", FIXED)
    client.diagnostics(uri)
    line = FIXED.splitlines().index('def patchify(img: Float[Tensor, "b 3 224 224"]):')
    value = _hover(client, uri, line, len("def patchify(im"))
    assert value is not None and "img: (b, 3, 224, 224)" in value


MODULE = """import torch
from torch import Tensor, nn
from jaxtyping import Float


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(64, 128)

    def forward(self, x: Float[Tensor, "b n 64"]):
        y = self.proj(x)
        return y
"""


def test_hover_on_attributes_and_module_outputs(client: Client) -> None:
    uri = _open(client, "block.py", MODULE)
    client.diagnostics(uri)
    lines = MODULE.splitlines()
    at = lines.index("        y = self.proj(x)")
    attr = _hover(client, uri, at, lines[at].index("proj") + 1)
    assert attr is not None and "self.proj: Linear(in=64, out=128)" in attr
    out = _hover(client, uri, at, lines[at].index("(x)") + 3)  # the closing parenthesis: only the call ends there
    assert out is not None and "self.proj(x): (b, n, 128)" in out
    init = lines.index("        self.proj = nn.Linear(64, 128)")
    target = _hover(client, uri, init, lines[init].index("proj") + 1)
    assert target is not None and "Linear(in=64, out=128)" in target


def _hints(client: Client, uri: str, text: str) -> list[tuple[int, int, str]]:
    end = len(text.splitlines())
    hints = client.request(
        "textDocument/inlayHint",
        {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": end, "character": 0}},
        },
    )
    return [(h["position"]["line"], h["position"]["character"], h["label"]) for h in hints]


def test_inlay_hints_and_the_setting_that_turns_them_off(client: Client) -> None:
    uri = _open(client, "hints.py", MODULE)
    client.diagnostics(uri)
    at = MODULE.splitlines().index("        y = self.proj(x)")
    assert _hints(client, uri, MODULE) == [(at, len("        y"), ": (b, n, 128)")]
    client.notify("workspace/didChangeConfiguration", {"settings": {"shapecheck": {"inlayHints": False}}})
    assert _hints(client, uri, MODULE) == []
    client.notify("workspace/didChangeConfiguration", {"settings": {"shapecheck": {"inlayHints": True}}})
    assert _hints(client, uri, MODULE) == [(at, len("        y"), ": (b, n, 128)")]


def test_inlay_hints_off_from_initialization_options(tmp_path: Path) -> None:
    c = Client(tmp_path)
    try:
        c.request(
            "initialize",
            {
                "processId": None,
                "rootUri": tmp_path.as_uri(),
                "capabilities": {},
                "initializationOptions": {"shapecheck": {"inlayHints": False}},
            },
        )
        c.notify("initialized", {})
        c.root = tmp_path  # type: ignore[attr-defined]
        uri = _open(c, "m.py", MODULE)
        c.diagnostics(uri)
        assert _hints(c, uri, MODULE) == []
        assert _hover(c, uri, MODULE.splitlines().index("        y = self.proj(x)"), 8) is not None  # hovers stay
    finally:
        c.close()


def test_versions_are_published_in_order_and_the_newest_last(client: Client) -> None:
    uri = _open(client, "typing.py", FIXED)
    client.diagnostics(uri)
    texts = [BUGGY if i % 3 == 0 else FIXED.replace("tokens", "tokens" + "s" * i) for i in range(2, 41)]
    for version, text in enumerate(texts, start=2):
        _change(client, uri, version, text)
    last = len(texts) + 1
    seen = []
    while not seen or seen[-1][0] != last:
        msg = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        seen.append((msg["params"]["version"], [d["code"] for d in msg["params"]["diagnostics"]]))
    versions = [v for v, _ in seen]
    assert versions == sorted(versions), versions  # never an older version after a newer one
    assert seen[-1][1] == (["SHP203"] if texts[-1] is BUGGY else [])
    # and every published version carries the diagnostics of its own text
    for v, codes in seen:
        assert codes == (["SHP203"] if texts[v - 2] is BUGGY else []), (v, codes)


def test_missing_lsp_extra_says_what_to_install() -> None:
    code = "import sys; sys.modules['pygls'] = None; from shapecheck.cli import main; sys.exit(main(['lsp']))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "[lsp]" in proc.stderr and "pip install" in proc.stderr and "not published on PyPI" in proc.stderr


# ---------------------------------------------------------------------------------------------- incremental = batch
FIXTURES = sorted((Path(__file__).parent / "fixtures").rglob("*.py"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_incremental_analysis_gives_the_batch_findings(path: Path) -> None:
    """The server's re-analysis (pieces parsed apart, functions reused) reports what ``shapecheck check`` does,
    before and after an edit to one function."""
    from shapecheck.analysis.report.checker import analyse_module
    from shapecheck.analysis.editor.incremental import Document
    from shapecheck.analysis.index.project import Project

    def key(fs: list[Any]) -> list[Any]:
        return sorted((f.line, f.column, f.end_line, f.end_column, f.code, f.message, f.notes) for f in fs)

    text = path.read_text(encoding="utf-8")
    doc = Document()
    first = doc.analyse(text, str(path), Project.for_file(str(path)))
    assert first is not None
    batch = analyse_module(text, str(path), Project.for_file(str(path)))
    assert key(first.findings) == key(batch)
    lines = text.splitlines(keepends=True)
    at = next((i for i, ln in enumerate(lines) if ln.startswith("def ")), len(lines) // 2)
    edited = "".join(lines[:at] + ["\n", "# an edit above one function\n"] + lines[at:])
    second = doc.analyse(edited, str(path), Project.for_file(str(path)))
    assert second is not None
    assert key(second.findings) == key(analyse_module(edited, str(path), Project.for_file(str(path))))


GLOBAL_OBJECT = """import torch
from torch import nn
from einops import rearrange


class Model(nn.Module):
    def forward(self, x):
        return rearrange(x, "b (h w) -> b h w", h=4)


model = Model()


def run():
    y = model(torch.randn(2, 16))
    return rearrange(y, "b h w -> b (h w)")
"""


BASE_RESETS = """import torch
from torch import nn
from einops import rearrange


class Base(nn.Module):
    def reset(self):
        pass


class M(Base):
    def __init__(self):
        super().__init__()
        self.w = torch.randn(3, 4)

    def forward(self):
        return rearrange(self.w, "(a b) c -> a b c", a=2)
"""


@pytest.mark.parametrize(
    "edits",
    [
        # a callee reached only through module-level code (``model = Model()``) changes: its caller must be redone
        [GLOBAL_OBJECT, GLOBAL_OBJECT.replace("h=4", "h=5"), GLOBAL_OBJECT],
        # a base class's method starts assigning the attribute forward reads: M's chunk is unchanged, its answer is not
        [BASE_RESETS, BASE_RESETS.replace("        pass\n", "        self.w = torch.randn(4, 4)\n"), BASE_RESETS],
        # an annotation alias defined after a def that module-level code calls in between
        [HALF, HALF.replace('"sum")', '"mean")'), HALF.replace("Float16", "Float32").replace("float16", "float32")],
        [BUGGY, BUGGY + "\n\ndef other(img: Float[Tensor, 'b 3 225 225']):\n    return patchify(img)\n", FIXED, BUGGY],
    ],
    ids=["through-module-level-object", "base-class-assigns", "float16-sum", "callee-and-caller"],
)
def test_incremental_edit_sequences_give_the_batch_findings(tmp_path: Path, edits: list[str]) -> None:
    from shapecheck.analysis.report.checker import analyse_module
    from shapecheck.analysis.editor.incremental import Document
    from shapecheck.analysis.index.project import Project

    path = tmp_path / "m.py"
    path.write_text(edits[0], encoding="utf-8")
    doc = Document()
    for text in edits:
        result = doc.analyse(text, str(path), Project.for_file(str(path)))
        assert result is not None
        got = sorted((f.line, f.column, f.code, f.message) for f in result.findings)
        want = sorted(
            (f.line, f.column, f.code, f.message) for f in analyse_module(text, str(path), Project.for_file(str(path)))
        )
        assert got == want


CALLED = """import torch
from torch import Tensor
from einops import rearrange
from jaxtyping import Float


def embed(x: Float[Tensor, "b n 64"]):
    y = rearrange(x, "b n (h d) -> b h n d", h=4)
    return y


def helper(x):
    z = rearrange(x, "b (h d) -> b h d", h=2)
    return z


def main():
    out = embed(torch.randn(2, 16, 64))
    w = helper(torch.randn(3, 8))
    return out, w
"""


def test_a_body_shows_its_own_shapes_not_one_callers(tmp_path: Path) -> None:
    """``embed`` and ``helper`` are analysed on their own (symbolic sizes: annotated, or read from the pattern) and
    inlined for ``main``'s calls (concrete sizes): hover and hints in their bodies show their own analysis, not the
    sizes of one caller's arguments."""
    from shapecheck.analysis.editor.hover import index_of
    from shapecheck.analysis.editor.incremental import Document

    path = tmp_path / "called.py"
    path.write_text(CALLED, encoding="utf-8")
    result = Document().analyse(CALLED, str(path), None)
    assert result is not None
    index = index_of(result)
    lines = CALLED.splitlines()
    hints = {lines[line - 1].split("=")[0].strip(): label for line, _, label in index.inlay_hints()}
    assert hints["y"] == ": (b, 4, n, 16)"
    assert hints["z"] == ": (b, 2, d)"
    assert hints["out"] == ": (2, 4, 16, 16)"
    at = lines.index('    y = rearrange(x, "b n (h d) -> b h n d", h=4)') + 1
    assert (index.at(at, 4) or "").startswith("y: (b, 4, n, 16)")


MODEL = """import torch
from torch import nn


class FF(nn.Module):
    def __init__(self, dim, mult=4):
        super().__init__()
        self.up = nn.Linear(dim, dim * mult)
        self.down = nn.Linear(dim * mult, dim)

    def forward(self, x):
        return self.down(self.up(x))


class Model(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.ff = FF(dim)
        self.pos = nn.Parameter(torch.randn(1, 16, dim))

    def forward(self, x):
        return self.ff(x + self.pos)


def test_model():
    m = Model(dim=32)
    out = m(torch.randn(2, 16, 32))
    return out
"""


def test_hover_follows_module_objects(client: Client) -> None:
    """Issue 12, item 8: what the analyser infers for module objects shows on hover (constructor arguments,
    parameters, submodules, the output of calling the instance)."""
    uri = _open(client, "model.py", MODEL)
    client.diagnostics(uri)
    lines = MODEL.splitlines()
    at = lines.index("        self.pos = nn.Parameter(torch.randn(1, 16, dim))")
    pos = _hover(client, uri, at, lines[at].index("pos") + 1)
    assert pos is not None and "self.pos: (1, 16, dim)" in pos
    at = lines.index("        self.ff = FF(dim)")
    ff = _hover(client, uri, at, lines[at].index("ff") + 1)
    assert ff is not None and "FF instance" in ff and "up: Linear(in=dim, out=4*dim)" in ff
    at = lines.index("    m = Model(dim=32)")
    m = _hover(client, uri, at, 4)
    assert m is not None and "pos: tensor (1, 16, 32)" in m
    at = lines.index("    out = m(torch.randn(2, 16, 32))")
    out = _hover(client, uri, at, 5)
    assert out is not None and "out: (2, 16, 32)" in out


INLINED = (
    "import torch\n"
    "\n"
    "\n"
    "def head(x):\n"
    "    proj = torch.nn.Linear(64, 10)\n"
    "    return proj(x)\n"
    "\n"
    "\n"
    "head(torch.randn(2, 32))\n"
)


def test_related_information_leads_to_the_inner_line(client: Client) -> None:
    """A failure inside a called function is published at the call, with the line where it was raised (and where
    its operands were made) as related information the editor links to."""
    uri = _open(client, "inlined.py", INLINED)
    diags = client.diagnostics(uri)
    assert [(d["code"], d["range"]["start"]["line"]) for d in diags] == [("SHP204", 8)]
    related = diags[0]["relatedInformation"]
    raised = [r for r in related if r["message"].startswith("raised at ")]
    assert raised and raised[0]["location"]["uri"] == uri, related
    assert raised[0]["location"]["range"]["start"] == {"line": 5, "character": 0}
    assert all(r["location"]["range"]["start"]["line"] != 8 for r in related)
