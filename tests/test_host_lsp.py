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

BUGGY = '''import torch
from torch import Tensor
from einops import rearrange
from jaxtyping import Float


def patchify(img: Float[Tensor, "b 3 225 225"]):
    tokens = rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)
    return tokens
'''
FIXED = BUGGY.replace("225 225", "224 224")


class Client:
    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "shapecheck", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=cwd,
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
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
    return uri


def test_diagnostics_published_then_cleared(client: Client) -> None:
    uri = _open(client, "patch.py", BUGGY)
    diags = client.diagnostics(uri)
    assert [(d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in diags] == [("SHP203", 7, 13)]
    d = diags[0]
    assert d["source"] == "shapecheck" and d["severity"] == 1 and d["message"].startswith("SHP203 ")
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": FIXED}],
    })
    assert client.diagnostics(uri) == []


def test_hover_shows_shape(client: Client) -> None:
    uri = _open(client, "hover.py", FIXED)
    client.diagnostics(uri)
    line = FIXED.splitlines().index("    return tokens")
    result = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": 12}})
    assert result is not None
    assert "(b, 196, 768)" in result["contents"]["value"]


def test_non_ascii_before_the_error_keeps_utf16_columns(client: Client) -> None:
    # "é" is one UTF-16 unit, "😋" two: the error's character offset counts UTF-16 units, not code points
    text = BUGGY.replace(
        '    tokens = rearrange(img,', '    ré = "😋"; tokens = rearrange(img,'
    )
    uri = _open(client, "emoji.py", text)
    diags = client.diagnostics(uri)
    assert [d["code"] for d in diags] == ["SHP203"]
    line = text.splitlines()[7]
    expected = len(line[: line.index("rearrange")].encode("utf-16-le")) // 2
    assert diags[0]["range"]["start"] == {"line": 7, "character": expected}
    assert expected == line.index("rearrange") + 1  # the emoji counts twice
    # hover on the tensor after the emoji (UTF-16 position in, code points to the core)
    col16 = len(line[: line.index("img,")].encode("utf-16-le")) // 2
    result = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 7, "character": col16 + 1}})
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


HALF = '''from torch import Tensor
from einops import reduce
from jaxtyping import Float16


def pool(x: Float16[Tensor, "b c h w"]):
    s = "é😋"; y = reduce(x, "b c h w -> b c", "sum")
    return y
'''


def test_quick_fix_over_the_server(client: Client) -> None:
    uri = _open(client, "half.py", HALF)
    diags = client.diagnostics(uri)
    fixable = [d for d in diags if d["code"].startswith("SHP3")]
    assert fixable, diags  # the sample's float16 sum carries an autofix: no finding is a failure, not a skip
    d = fixable[0]
    assert d["severity"] == 2  # warning
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": [d]},
    })
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
