"""chunk / split / unbind / topk / sort / max(dim) / min(dim): the analyser against torch on generated calls (issue 13).

Each generated call runs on a real tensor; the rendered program annotates every piece the call returns with the
shape torch gave it, so a wrong inferred piece shape (or a wrong piece count, through the last piece) is a finding.
A finding on the call line must appear exactly when torch raises.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck.core import check_source

torch = pytest.importorskip("torch")

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


def generate(seed: int) -> tuple[tuple[int, ...], str]:
    r = random.Random(seed)
    shape = tuple(r.choice([1, 2, 3, 4, 5, 6, 8]) for _ in range(r.randint(1, 3)))
    rank = len(shape)
    dim = r.randint(-rank, rank - 1)
    op = r.choice(["chunk", "split", "splits", "unbind", "topk", "sort", "max", "min", "tchunk", "tsplit"])
    size = shape[dim]
    if op == "chunk":
        call = f"x.chunk({r.randint(1, 5)}, dim={dim})"
    elif op == "tchunk":
        call = f"torch.chunk(x, {r.randint(1, 5)}, {dim})"
    elif op == "split":
        call = f"x.split({r.randint(1, 5)}, dim={dim})"
    elif op in ("splits", "tsplit"):
        parts = []
        left = size
        while left > 0:
            p = r.randint(1, left)
            parts.append(p)
            left -= p
        if r.random() < 0.4:
            parts[r.randrange(len(parts))] += r.choice([-1, 1])
        call = f"x.split({parts}, dim={dim})" if op == "splits" else f"torch.split(x, {parts}, {dim})"
    elif op == "unbind":
        call = f"x.unbind({dim})"
    elif op == "topk":
        call = f"x.topk({r.randint(1, size)}, dim={dim})"
    elif op == "sort":
        call = f"x.sort(dim={dim})"
    else:
        keep = r.choice(["", ", keepdim=True", ", keepdim=False"])
        call = f"x.{op}(dim={dim}{keep})" if r.random() < 0.5 else f"torch.{op}(x, {dim}{keep})"
    return shape, call


def render(shape: tuple[int, ...], call: str, pieces: list[tuple[int, ...]] | None) -> str:
    lines = [
        "import torch",
        "from jaxtyping import Float",
        "",
        "",
        "def f():",
        f"    x = torch.zeros({shape!r})",
        f"    r = {call}",
    ]
    for i, p in enumerate(pieces or []):
        lines.append(f"    p{i}: Float[torch.Tensor, {' '.join(map(str, p))!r}] = r[{i}]")
    if pieces:
        lines.append("    *_, last = r")
        lines.append(f"    q: Float[torch.Tensor, {' '.join(map(str, pieces[-1]))!r}] = last")
    lines.append("    return r")
    return "\n".join(lines) + "\n"


@settings(max_examples=400, **SETTINGS)
@given(st.integers(0, 2**32 - 1))
def test_pieces_agree_with_torch(seed: int) -> None:
    shape, call = generate(seed)
    x = torch.zeros(shape)
    try:
        out = eval(call, {"torch": torch, "x": x})  # the generator's own call text, on a real tensor
        pieces = [tuple(t.shape) for t in out]
    except RuntimeError:
        pieces = None
    src = render(shape, call, pieces)
    found = [f for f in check_source(src, "gen.py") if f.code[:4] in ("SHP1", "SHP2", "SHP9")]
    on_call = [f for f in found if f.line == 7]
    elsewhere = [(f.line, f.code, f.message) for f in found if f.line != 7]
    assert not elsewhere, (src, elsewhere)
    assert bool(on_call) == (pieces is None), (src, [(f.code, f.message) for f in on_call])
