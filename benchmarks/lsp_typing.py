"""The language server while someone types (issue 14, item 7): diagnostics latency after the last edit, hover
latency while edits arrive.

    python benchmarks/lsp_typing.py [--lines 2000] [--edits 200] [--interval 0.01] [--rounds 3]

A real LSP client (this script) starts ``python -m shapecheck lsp`` in a subprocess, opens a generated module of
``--lines`` lines (annotated einops functions and nn.Module classes), and sends ``--edits`` full-document
``didChange`` notifications, ``--interval`` seconds apart: one character typed at a time into a function in the
middle of the file, the last edit making that function wrong (an SHP203). Every 10th edit a hover request asks for
the shape of a variable elsewhere in the file. Measured:

* diagnostics: time from sending the last edit to the ``publishDiagnostics`` carrying its version (checked to
  hold the SHP203 the last edit introduced);
* hover: request-to-response time of each hover sent while the edits were arriving (and whether it had a value);
* how many versions were published (coalescing: far fewer than the edits).

Goal at 2,000 lines: diagnostics within 0.5 s of the last edit, hover within 50 ms. Absolute times depend on the
machine and its load: the run prints the machine and a cold full analysis for scale.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def generate(lines: int) -> str:
    out = [
        "import torch\nfrom torch import Tensor, nn\nfrom einops import rearrange, reduce\nfrom jaxtyping import Float\n\n\n"
    ]
    i = 0
    while sum(s.count("\n") for s in out) < lines:
        out.append(f"""def block_{i}(x: Float[Tensor, "b n d"], w: Float[Tensor, "d e"]) -> Float[Tensor, "b n e"]:
    h = rearrange(x, "b n (g k) -> b n g k", g=2)
    h = rearrange(h, "b n g k -> b n (g k)")
    y = x @ w
    s = reduce(y, "b n e -> b e", "mean")
    z = y + s[:, None, :]
    return z


class Layer{i}(nn.Module):
    def __init__(self, dim: int = 64):
        super().__init__()
        self.proj = nn.Linear(dim, dim * 2)
        self.scale = torch.randn(dim)

    def forward(self, x: Float[Tensor, "b n 64"]):
        q = self.proj(x)
        q = rearrange(q, "b n (two d) -> two b n d", two=2)
        return q


""")
        i += 1
    return "".join(out)


class Client:
    """A minimal JSON-RPC client over the server's stdio (what an editor is)."""

    def __init__(self, cwd: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "shapecheck", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=cwd,
            env=env,
        )
        self.inbox: "queue.Queue[tuple[float, dict[str, Any]]]" = queue.Queue()
        self.lock = threading.Lock()
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
            msg = json.loads(out.read(int(headers["content-length"])))
            self.inbox.put((time.perf_counter(), msg))

    def send(self, msg: dict[str, Any]) -> float:
        body = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        assert self.proc.stdin is not None
        with self.lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()
        return time.perf_counter()

    def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method: str, params: Any) -> float:
        return self.send({"method": method, "params": params})

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.kill()


def one_round(lines: int, edits: int, interval: float) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="shapecheck-lsp-bench-"))
    path = tmp / "big.py"
    text = generate(lines)
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    src = text.splitlines()
    target = len(src) // 2
    while not src[target].startswith("def block_"):
        target += 1
    typed_line = target + 3  # "    y = x @ w" of the function in the middle
    hover_line = next(i for i, ln in enumerate(src) if ln == "    return z")  # block_0, far from the typing
    c = Client(tmp)
    pending: dict[int, float] = {}  # hover request id -> sent at
    hovers: list[tuple[float, bool]] = []
    published: list[tuple[float, int | None, list[str]]] = []

    def drain(until: Any = None, timeout: float = 120.0) -> Any:
        end = time.perf_counter() + timeout
        while True:
            try:
                at, msg = c.inbox.get(timeout=max(end - time.perf_counter(), 0.01))
            except queue.Empty:
                raise TimeoutError("no answer from the server") from None
            if msg.get("method") == "textDocument/publishDiagnostics":
                p = msg["params"]
                published.append((at, p.get("version"), [d["code"] for d in p["diagnostics"]]))
            elif "id" in msg and msg.get("id") in pending and "method" not in msg:
                hovers.append((at - pending.pop(msg["id"]), msg.get("result") is not None))
            elif "method" in msg and "id" in msg:
                c.send({"id": msg["id"], "result": None})
            if until is not None and until(msg):
                return msg

    try:
        init = c.request("initialize", {"processId": None, "rootUri": tmp.as_uri(), "capabilities": {}})
        drain(lambda m: m.get("id") == init)
        c.notify("initialized", {})
        t0 = c.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}
        )
        drain(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 1)
        cold = published[-1][0] - t0
        typed = list(src)
        sent_last = 0.0
        burst_start = time.perf_counter()
        for v in range(2, edits + 2):
            if v < edits + 1:
                typed[typed_line] = typed[typed_line] + ("  #" if v == 2 else "x")
            else:  # the last edit makes the function wrong: 7 is not a multiple of g=2
                typed[target] = typed[target].replace('"b n d"', '"b n 7"', 1)
            sent_last = c.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": v}, "contentChanges": [{"text": "\n".join(typed) + "\n"}]},
            )
            if v % 10 == 0:
                rid = c.request(
                    "textDocument/hover",
                    {"textDocument": {"uri": uri}, "position": {"line": hover_line, "character": 12}},
                )
                pending[rid] = time.perf_counter()
            if interval:
                time.sleep(interval)
            while not c.inbox.empty():  # keep reading while typing (hover answers are timed on arrival)
                drain(lambda m: True, timeout=0.01)
        burst = time.perf_counter() - burst_start
        final = drain(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == edits + 1
        )
        latency = published[-1][0] - sent_last
        codes = [d["code"] for d in final["params"]["diagnostics"]]
        while pending:
            drain(lambda m: not pending)
        versions = [v for _, v, _ in published]
    finally:
        c.close()
    return {
        "cold": cold,
        "latency": latency,
        "codes": codes,
        "hovers": hovers,
        "published": len(published) - 1,
        "ordered": versions == sorted(versions),
        "burst": burst,
        "lines": len(src),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--interval", type=float, default=0.01, help="seconds between edits (0: as fast as possible)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    lat, hov = [], []
    for r in range(args.rounds):
        res = one_round(args.lines, args.edits, args.interval)
        times = sorted(t for t, _ in res["hovers"])
        answered = sum(ok for _, ok in res["hovers"])
        lat.append(res["latency"])
        hov.extend(times)
        print(
            f"round {r + 1}: {res['lines']} lines, {args.edits} edits in {res['burst']:.2f} s; cold first analysis "
            f"{res['cold']:.2f} s; diagnostics {res['latency'] * 1000:.0f} ms after the last edit ({res['codes']}); "
            f"{res['published']} versions published, in order: {res['ordered']}; hover during edits: "
            f"{len(times)} requests, {answered} with a value, median {statistics.median(times) * 1000:.1f} ms, "
            f"max {max(times) * 1000:.1f} ms",
            flush=True,
        )
    hov.sort()
    p95 = hov[min(len(hov) - 1, int(len(hov) * 0.95))]
    print(
        f"diagnostics after the last edit: best {min(lat) * 1000:.0f} ms, median {statistics.median(lat) * 1000:.0f} ms, "
        f"worst {max(lat) * 1000:.0f} ms (goal 500 ms)"
    )
    print(
        f"hover while editing: median {statistics.median(hov) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
        f"max {max(hov) * 1000:.1f} ms (goal 50 ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
