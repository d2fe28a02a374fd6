"""Robustness under mutated and hostile input (issue 7, item 5).

Seeds are real modules (the development corpus when it is unpacked, plus the test fixtures and a few built-in
einops/jaxtyping modules). Each generated file applies one to three mutations: deleted, duplicated and swapped
tokens, truncation, random bytes, deep nesting, very long lines, non-UTF-8 bytes, encoding cookies, BOMs, NUL
bytes, other line endings. For every file:

* ``check_source`` never raises; an internal failure (SHP902) on a file CPython accepts is a crash;
* a file CPython rejects gets exactly one clear SHP901 (with a line inside the file), a file it accepts none;
* the result is the same when analysed twice, and the CLI gives byte-identical JSON with ``-j1`` and ``-j2``.

CI runs a small sample (``SHAPECHECK_FUZZ_N``, default 300). The dedicated run::

    SHAPECHECK_FUZZ_N=10000 SHAPECHECK_FUZZ_REPORT=/tmp/fuzz.json python -m pytest -n 2 tests/test_fuzz_robustness.py

Pathological nesting that is known to kill or stall the parser (libcst's native parser overflows its stack,
CPython itself rejects it) is covered by the separate tests at the end, each in a subprocess.

No test here measures time: the per-file budget (2 s per 1,000 lines) and the long-chain timings are reported by
``benchmarks/robustness_timing.py``.
"""

from __future__ import annotations

import ast
import io
import json
import os
import random
import subprocess
import sys
import tokenize
from collections import Counter
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck.core import check_source

ROOT = Path(__file__).resolve().parents[1]
N = int(os.environ.get("SHAPECHECK_FUZZ_N", "300"))
SEED = int(os.environ.get("SHAPECHECK_FUZZ_SEED", "20240607"))
SHARD = 50  # files per test case: xdist spreads the shards over workers
MAX_SEED_LINES = int(os.environ.get("SHAPECHECK_FUZZ_MAX_SEED_LINES", "250" if N <= 1000 else "400"))

BUILTIN_SEEDS = {
    "vit.py": """
import torch
import einops
from einops import rearrange, reduce, repeat
from einops.layers.torch import Rearrange
from jaxtyping import Float, Int
from torch import Tensor, nn


def patchify(img: Float[Tensor, "b c h w"], p: int = 16) -> Float[Tensor, "b n d"]:
    return rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=p, p2=p)


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int = 8):
        super().__init__()
        self.heads = heads
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.proj = nn.Sequential(Rearrange("b h n d -> b n (h d)"), nn.Linear(dim, dim))

    def forward(self, x: Float[Tensor, "b n d"]) -> Float[Tensor, "b n d"]:
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in self.to_qkv(x).chunk(3, dim=-1))
        attn = torch.einsum("b h i d, b h j d -> b h i j", q, k).softmax(dim=-1)
        out = einops.einsum(attn, v, "b h i j, b h j d -> b h i d")
        return self.proj(out)


def pool(x: Float[Tensor, "b n d"], mask: Int[Tensor, "b n"]) -> Float[Tensor, "b d"]:
    cls = repeat(torch.zeros(x.shape[-1]), "d -> b 1 d", b=x.shape[0])
    x = torch.cat((cls, x), dim=1)
    return reduce(x, "b n d -> b d", "mean")
""",
    "unet.py": """
import torch.nn.functional as F
from einops import rearrange, pack, unpack
from jaxtyping import Float, Shaped
from torch import Tensor


def up(x: Float[Tensor, "b c h w"]) -> Float[Tensor, "b c h2 w2"]:
    return F.interpolate(x, scale_factor=2)


def skip(x: Float[Tensor, "b c h w"], y: Float[Tensor, "b c h w"]) -> Float[Tensor, "b (2 c) h w"]:
    packed, ps = pack([x, y], "b * h w")
    a, b = unpack(packed, ps, "b * h w")
    return rearrange([a, b], "t b c h w -> b (t c) h w")


def var(x: Shaped[Tensor, "*batch n"], *rest: int) -> Shaped[Tensor, "*batch"]:
    b, n = x.shape[0], x.shape[-1]
    if n > 3:
        x = x[..., :3]
    else:
        x = x + 1
    for _ in range(n):
        x = x * 2
    return x.sum(-1)
""",
    "jax_mod.py": """
import jax.numpy as jnp
import equinox as eqx
from jaxtyping import Array, Float, PRNGKeyArray
import einops as E


class MLP(eqx.Module):
    w: Float[Array, "out in"]

    def __call__(self, x: Float[Array, "in"]) -> Float[Array, "out"]:
        return self.w @ x


def heads(x: Float[Array, "n (h d)"], h: int) -> Float[Array, "h n d"]:
    return E.rearrange(x, "n (h d) -> h n d", h=h)


def f(x: Float[Array, "n 3"], key: PRNGKeyArray) -> Float[Array, "3 n"]:
    y = jnp.transpose(x)
    return E.reduce(jnp.stack([y, y]), "s a b -> a b", "max")
""",
}


# ---------------------------------------------------------------------------------------------- seeds


def _corpus_dir() -> Path | None:
    for cand in (os.environ.get("SHAPECHECK_CORPUS"), ROOT / ".cache/corpus/src", ROOT.parent / "corpus/src"):
        if cand and Path(cand).is_dir():
            return Path(cand)
    return None


def _seeds() -> list[tuple[str, bytes]]:
    seeds = [(name, text.lstrip("\n").encode()) for name, text in BUILTIN_SEEDS.items()]
    for p in sorted((ROOT / "tests/fixtures").rglob("*.py")):
        seeds.append((str(p.relative_to(ROOT)), p.read_bytes()))
    corpus = _corpus_dir()
    if corpus is not None:
        for p in sorted(corpus.rglob("*.py")):
            data = p.read_bytes()
            if 5 <= data.count(b"\n") <= MAX_SEED_LINES and (
                b"einops" in data or b"jaxtyping" in data or b"torch" in data
            ):
                seeds.append((str(p.relative_to(corpus)), data))
    return seeds


# ---------------------------------------------------------------------------------------------- mutations


def _tokens(text: str) -> list[tuple[int, int]]:
    """Character spans of the tokens of ``text`` (tokenize when possible, a crude split otherwise)."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans: list[tuple[int, int]] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT, tokenize.INDENT) or tok.start == tok.end:
                continue
            s = starts[tok.start[0] - 1] + tok.start[1] if tok.start[0] - 1 < len(starts) else len(text)
            e = starts[tok.end[0] - 1] + tok.end[1] if tok.end[0] - 1 < len(starts) else len(text)
            if 0 <= s < e <= len(text):
                spans.append((s, e))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    if not spans:
        import re

        spans = [m.span() for m in re.finditer(r"\w+|[^\w\s]", text)]
    return spans


def _nested(rng: random.Random, depth: int) -> str:
    kind = rng.choice(
        [
            "parens",
            "lists",
            "calls",
            "dicts",
            "subscript",
            "attr",
            "binop",
            "lambda",
            "einops",
            "tuple",
            "comprehension",
            "ifs",
            "defs",
            "with",
            "unary",
        ]
    )
    if kind == "parens":
        return "_z = " + "(" * depth + "x" + ")" * depth + "\n"
    if kind == "lists":
        return "_z = " + "[" * depth + "x" + "]" * depth + "\n"
    if kind == "calls":
        return "_z = " + "f(" * depth + "x" + ")" * depth + "\n"
    if kind == "dicts":
        return "_z = " + "{'k': " * depth + "x" + "}" * depth + "\n"
    if kind == "subscript":
        return "_z = x" + "[0]" * depth + "\n"
    if kind == "attr":
        return "_z = x" + ".shape" * depth + "\n"
    if kind == "binop":
        return "_z = x" + " + x" * depth + "\n"
    if kind == "unary":
        return "_z = " + "-" * depth + "x\n"
    if kind == "lambda":
        return "_z = " + "lambda: " * depth + "x\n"
    if kind == "tuple":
        return "_z = " + "(x, " * depth + "x" + ")" * depth + "\n"
    if kind == "comprehension":
        d = min(depth, 60)
        return "_z = " + "[" * d + "x" + "".join(f" for _{i} in x]" for i in range(d)) + "\n"
    if kind == "einops":
        return "_z = " + "einops.rearrange(" * depth + "x" + ", 'a b -> b a')" * depth + "\n"
    d = min(depth, 110)  # CPython allows 100 indentation levels
    out, ind = [], ""
    for i in range(d):
        out.append(ind + {"ifs": "if x:", "defs": f"def g{i}(x):", "with": "with x:"}[kind])
        ind += " "
    out.append(ind + "y = einops.rearrange(x, 'b n -> n b')")
    return "\n".join(out) + "\n"


def _long_line(rng: random.Random) -> str:
    kind = rng.choice(["string", "comment", "list", "pattern", "call", "names"])
    n = rng.choice([1_000, 10_000, 100_000]) if kind in ("string", "comment") else rng.choice([100, 1_000, 5_000])
    if kind == "string":
        return "_s = '" + "a" * n + "'\n"
    if kind == "comment":
        return "# " + "x" * n + "\n"
    if kind == "list":
        return "_l = [" + ", ".join(["x"] * n) + "]\n"
    if kind == "names":
        return "_l = " + ", ".join(f"a{i}" for i in range(n)) + " = x\n"
    if kind == "call":
        return "_c = f(" + ", ".join(f"k{i}=x" for i in range(n)) + ")\n"
    m = min(n, 400)
    axes = " ".join(f"a{i}" for i in range(m))
    return f"_p = einops.rearrange(x, '{axes} -> {' '.join(reversed(axes.split()))}')\n"


COOKIES = ["latin-1", "utf-8", "utf-16", "ascii", "cp1252", "bogus-enc", "utf-8-sig", "euc-jp", "iso-8859-15", "UTF8"]


def _mutate(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    kind = rng.choice(
        [
            "delete",
            "duplicate",
            "swap",
            "delete",
            "duplicate",
            "swap",
            "truncate",
            "random-bytes",
            "nesting",
            "long-line",
            "non-utf8",
            "cookie",
            "bom",
            "nul",
            "line-endings",
            "indent",
        ]
    )
    if kind in ("delete", "duplicate", "swap"):
        text = data.decode("utf-8", "surrogateescape")
        spans = _tokens(text)
        if len(spans) < 2:
            return kind, data
        count = rng.choice([1, 1, 1, 2, 3])
        for _ in range(count):
            spans = _tokens(text) if kind != "delete" else spans
            if len(spans) < 2:
                break
            i = rng.randrange(len(spans))
            s, e = spans[i]
            if kind == "delete":
                text = text[:s] + text[e:]
                spans = [
                    (a, b) if b <= s else (a - (e - s), b - (e - s))
                    for a, b in spans[:i] + spans[i + 1 :]
                    if a >= e or b <= s
                ]
            elif kind == "duplicate":
                text = text[:e] + rng.choice(["", " "]) + text[s:e] + text[e:]
            else:
                j = rng.randrange(len(spans))
                (s1, e1), (s2, e2) = sorted([spans[i], spans[j]])
                if e1 <= s2:
                    text = text[:s1] + text[s2:e2] + text[e1:s2] + text[s1:e1] + text[e2:]
        return kind, text.encode("utf-8", "surrogateescape")
    if kind == "truncate":
        return kind, data[: rng.randrange(len(data) + 1)]
    if kind == "random-bytes":
        pos = rng.randrange(len(data) + 1)
        blob = bytes(rng.randrange(256) for _ in range(rng.choice([1, 4, 16, 64])))
        if rng.random() < 0.5:
            return kind, data[:pos] + blob + data[pos:]
        return kind, data[:pos] + blob + data[pos + len(blob) :]
    if kind == "nesting":
        depth = rng.choice([5, 20, 50, 99, 150, 199, 201, 250, 300])
        return f"{kind}", data + b"\n" + _nested(rng, depth).encode()
    if kind == "long-line":
        return kind, data + b"\n" + _long_line(rng).encode()
    if kind == "non-utf8":
        pos = rng.randrange(len(data) + 1)
        blob = bytes(rng.randrange(0x80, 0x100) for _ in range(rng.choice([1, 2, 3])))
        if rng.random() < 0.5:  # inside a comment: invalid only because of the encoding
            nl = data.find(b"\n", pos)
            nl = len(data) if nl < 0 else nl
            return kind, data[:nl] + b"  # " + blob + data[nl:]
        return kind, data[:pos] + blob + data[pos:]
    if kind == "cookie":
        enc = rng.choice(COOKIES)
        cookie = rng.choice(
            [f"# -*- coding: {enc} -*-\n", f"# vim: set fileencoding={enc} :\n", f"#coding={enc}\n"]
        ).encode()
        body = data
        if rng.random() < 0.5:
            body = b"#!/usr/bin/env python\n" + cookie + body
        else:
            body = cookie + body
        if rng.random() < 0.3:
            body = body + b"\n_s = '\xe9\xff'\n"
        if rng.random() < 0.2:
            body = b"\xef\xbb\xbf" + body
        return kind, body
    if kind == "bom":
        return kind, rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf\xef\xbb\xbf"]) + data
    if kind == "nul":
        pos = rng.randrange(len(data) + 1)
        return kind, data[:pos] + b"\x00" * rng.choice([1, 2, 8]) + data[pos:]
    if kind == "line-endings":
        return kind, data.replace(b"\n", rng.choice([b"\r\n", b"\r", b"\x0c\n", b"\n\n"]))
    # indent: retab or add indentation to one line
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    lines[i] = rng.choice([b"\t", b"  ", b" \t"]) + lines[i]
    return kind, b"\n".join(lines)


def generate(n: int, seed: int = SEED) -> Iterator[tuple[str, str, bytes]]:
    """``n`` deterministic mutants: (name, mutation kinds, bytes)."""
    seeds = _seeds()
    rng = random.Random(seed)
    for i in range(n):
        src_name, data = seeds[rng.randrange(len(seeds))]
        kinds = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            k, data = _mutate(rng, data)
            kinds.append(k)
        yield f"m{i:05d}", f"{'+'.join(kinds)} of {src_name}", data


# ---------------------------------------------------------------------------------------------- oracle


def python_accepts(data: bytes) -> bool:
    """CPython's verdict on the file, as ``python file.py`` reads it: PEP 263 decoding (strict, as the interpreter
    does for files; ``compile(bytes)`` alone lets invalid UTF-8 through in comments), then the parser."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
        compile(text, "<fuzz>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        return True
    except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, RecursionError, MemoryError, OverflowError):
        return False


def line_count(data: bytes) -> int:
    """Lines as Python counts them (``\\n``, ``\\r\\n`` and a lone ``\\r`` all end a line)."""
    return max(1, len(data.splitlines()))


def analyse(name: str, data: bytes) -> dict:
    """Analyse one mutant; record what a robustness property needs."""
    error = None
    try:
        findings = check_source(data, f"fuzz/{name}.py", prefilter=False)
    except BaseException as exc:  # anything escaping check_source is a crash
        findings, error = [], f"{type(exc).__name__}: {exc}"
    return {
        "name": name,
        "lines": line_count(data),
        "error": error,
        "valid": python_accepts(data),
        "findings": [(f.code, f.line, f.column, f.message) for f in findings],
    }


CPYTHON_MAXLEVEL = 200  # CPython's tokenizer: "too many nested parentheses" beyond this depth


def problems(res: dict) -> list[str]:
    """The robustness properties a result breaks (empty: all hold)."""
    out = []
    codes = Counter(f[0] for f in res["findings"])
    if res["error"]:
        out.append("raised")
    if codes["SHP902"]:
        out.append("SHP902-on-valid" if res["valid"] else "SHP902-on-invalid")
    if res["error"] is None:
        if res["valid"] and codes["SHP901"]:
            out.append("SHP901-on-valid")
        if not res["valid"] and codes["SHP901"] != 1 and not codes["SHP902"]:
            if codes["SHP901"] > 1:
                out.append("several-SHP901")
            else:
                out.append("missed-syntax-error")
        for code, line, _col, message in res["findings"]:
            if code == "SHP901" and not (1 <= line <= res["lines"] + 1 and message.startswith("SHP901")):
                out.append("unclear-SHP901")
    return out


# ---------------------------------------------------------------------------------------------- the run

_MUTANTS: list[tuple[str, str, bytes]] | None = None


def mutants() -> list[tuple[str, str, bytes]]:
    global _MUTANTS
    if _MUTANTS is None:
        _MUTANTS = list(generate(N))
    return _MUTANTS


def _report(results: list[dict], shard: int) -> None:
    path = os.environ.get("SHAPECHECK_FUZZ_REPORT")
    if path:
        with open(f"{path}.{shard:04d}", "w", encoding="utf-8") as fh:
            json.dump(results, fh)


@pytest.mark.parametrize("shard", range((N + SHARD - 1) // SHARD))
def test_mutants(shard: int, tmp_path: Path) -> None:
    batch = mutants()[shard * SHARD : (shard + 1) * SHARD]
    results, broken = [], []
    for name, how, data in batch:
        res = analyse(name, data)
        res["how"] = how
        if name.endswith(("0", "5")) or N <= 1000:  # determinism: a second analysis gives the same findings
            again = analyse(name, data)
            if again["findings"] != res["findings"] and not again["error"] and not res["error"]:
                res.setdefault("extra", []).append("nondeterministic")
        res["problems"] = problems(res) + res.get("extra", [])
        results.append(res)
        if res["problems"]:
            keep = tmp_path / f"{name}.py"
            keep.write_bytes(data)
            broken.append(
                f"{name} ({how}, {res['lines']} lines): {res['problems']} "
                f"{res['error'] or [f[:2] + (f[3][:160],) for f in res['findings'] if f[0].startswith('SHP90')]} "
                f"-> {keep}"
            )
    _report([{k: v for k, v in r.items()} for r in results], shard)
    assert not broken, "\n".join(broken)


def test_cli_deterministic_across_jobs(tmp_path: Path) -> None:
    """The CLI over a tree of mutants: identical JSON with -j1, -j2 and on a second -j2 run."""
    batch = mutants()[: min(len(mutants()), 120 if N <= 1000 else 600)]
    tree = tmp_path / "tree"
    for name, _how, data in batch:
        sub = tree / f"p{int(name[1:]) % 4}"  # a few packages, so relative imports between mutants can resolve
        sub.mkdir(parents=True, exist_ok=True)
        (sub / "__init__.py").touch()
        (sub / f"{name}.py").write_bytes(data)
    outs = []
    for jobs in ("1", "2", "2"):
        proc = subprocess.run(
            [sys.executable, "-m", "shapecheck", "check", "--no-cache", "-j", jobs, "--format", "json", "."],
            cwd=tree,
            capture_output=True,
            timeout=600,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert proc.returncode in (0, 1), proc.stderr.decode(errors="replace")[-2000:]
        outs.append(proc.stdout)
    first = json.loads(outs[0])
    assert outs[0] == outs[1] == outs[2], _diff(first, json.loads(outs[1]))
    crashed = [f for f in first if f["code"] == "SHP902"]
    assert not crashed, crashed


def _diff(a: list[dict], b: list[dict]) -> str:
    sa = {json.dumps(x, sort_keys=True) for x in a}
    sb = {json.dumps(x, sort_keys=True) for x in b}
    return f"only -j1: {sorted(sa - sb)[:5]}\nonly -j2: {sorted(sb - sa)[:5]}"


# ---------------------------------------------------------------------------------------------- hypothesis


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_random_bytes_never_raise(data: bytes) -> None:
    res = analyse("hyp", b"import einops\n" + data)
    assert res["error"] is None
    assert not problems(res), (data, res)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.text(
        alphabet=st.sampled_from(list("()[]{}:,.=+-*/'\"\\#\n\t @xbnhd->0123456789aeinopsrt\x00\u00e9\u200b")),
        max_size=400,
    )
)
def test_python_like_text_never_raises(text: str) -> None:
    data = ("import einops\nfrom jaxtyping import Float\n" + text).encode("utf-8", "surrogatepass")
    res = analyse("hyp", data)
    assert res["error"] is None
    assert "SHP902-on-valid" not in problems(res) and "SHP901-on-valid" not in problems(res), (text, res)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(BUILTIN_SEEDS)), st.integers(0, 2**32 - 1))
def test_mutated_builtin_seeds(seed_name: str, rs: int) -> None:
    rng = random.Random(rs)
    data = BUILTIN_SEEDS[seed_name].encode()
    for _ in range(rng.choice([1, 2, 3])):
        _, data = _mutate(rng, data)
    res = analyse("hyp", data)
    assert not problems(res), (data[:3000], res)


# ---------------------------------------------------------------------------------------------- pathological nesting


def _subprocess_check(source: str) -> tuple[int, str]:
    code = (
        "import sys\nfrom shapecheck.core import check_source\n"
        "fs = check_source(sys.stdin.buffer.read(), 'deep.py', prefilter=False)\n"
        "print([(f.code, f.message[:120]) for f in fs])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], input=source.encode(), capture_output=True, cwd=ROOT)
    return proc.returncode, (proc.stdout + proc.stderr).decode(errors="replace")[-500:]


@pytest.mark.parametrize("opener,closer,n", [("(", ")", 3000), ("[", "]", 3000), ("f(", ")", 3000), ("-", "", 10000)])
def test_deep_nesting_does_not_kill_the_process(opener: str, closer: str, n: int) -> None:
    src = "import einops\nx = " + opener * n + "1" + closer * n + "\n"
    rc, out = _subprocess_check(src)
    assert rc == 0, f"exit {rc}: {out}"
    assert "SHP901" in out, out


@pytest.mark.parametrize("src", [b"import einops\n# \x00\n", b"import einops\ns = '\x00'\n"])
def test_nul_byte_is_a_syntax_error(src: bytes) -> None:
    assert not python_accepts(src)
    codes = [f.code for f in check_source(src, "nul.py", prefilter=False)]
    assert codes == ["SHP901"], codes


def test_tab_indentation_cpython_accepts() -> None:
    src = "import einops\nif x:\n    if y:\n\t        z = 1\n    w = 2\n"
    assert python_accepts(src.encode())
    assert [f.code for f in check_source(src, "tabs.py", prefilter=False)] == []


def test_tokenizer_errors_point_at_their_line() -> None:
    src = "import einops\nx = 1\nif x:\n\t z = 1\n        w = 2\n"
    assert not python_accepts(src.encode())
    [f] = check_source(src, "indent.py", prefilter=False)
    assert (f.code, f.line) == ("SHP901", 5)


def test_second_bom_is_a_syntax_error() -> None:
    src = b"\xef\xbb\xbf\xef\xbb\xbfimport einops\n"
    assert not python_accepts(src)
    codes = [f.code for f in check_source(src, "bom.py", prefilter=False)]
    assert codes == ["SHP901"], codes


@pytest.mark.parametrize("opener,closer,n", [("(", ")", 201), ("[", "]", 400)])
def test_nesting_beyond_cpython_limit_is_a_syntax_error(opener: str, closer: str, n: int) -> None:
    src = "import einops\nx = " + opener * n + "1" + closer * n + "\n"
    rc, out = _subprocess_check(src)
    assert rc == 0, out
    assert "SHP901" in out, out


# Long one-line chains CPython accepts: analysed on a deep-stack thread (shapecheck/core.py) instead of refused.
# Their timings are in benchmarks/robustness_timing.py (libcst's parse time grows quadratically along `a[0][0]...`).
LONG_CHAINS = {
    "plus-chain": "x = 1" + " + 1" * 1500,
    "attribute-chain": "x = a" + ".b" * 1500,
    "subscript-chain": "x = a" + "[0]" * 1500,
}


@pytest.mark.parametrize("name", sorted(LONG_CHAINS))
def test_long_chains_are_analysed(name: str) -> None:
    full = "import einops\n" + LONG_CHAINS[name] + "\n"
    assert python_accepts(full.encode())
    rc, out = _subprocess_check(full)
    assert rc == 0, out
    assert "SHP901" not in out and "SHP902" not in out, out


def test_python_312_f_string_is_analysed() -> None:
    """PEP 701's f-strings (quotes of the same kind inside the braces, valid from Python 3.12) are analysed, not
    refused as a syntax error by an older interpreter's parser (maxtext's examples)."""
    src = 'import einops\nbatch = {"answer": [1]}\nprint(f"Target: {batch["answer"][0]}")\n'
    assert [f.code for f in check_source(src, "fstr.py", prefilter=False)] == []


def test_f_string_error_on_every_version_is_reported() -> None:
    src = 'import einops\nx = f"{1 +"\n'
    assert [f.code for f in check_source(src, "fstr_bad.py", prefilter=False)] == ["SHP901"]
