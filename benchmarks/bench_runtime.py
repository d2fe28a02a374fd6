"""Runtime executor vs einops on the same calls (cached recipes), plus pattern compile time.

    python benchmarks/bench_runtime.py [--repeat N]

Prints per-call times and the ratio shapecheck/einops for numpy and torch (small tensors, where per-call
overhead dominates), then the uncached compile time of the pattern engine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import einops  # noqa: E402
import numpy as np  # noqa: E402

import shapecheck.runtime as R  # noqa: E402
from shapecheck.pattern.grammar import parse_expression  # noqa: E402
from shapecheck.pattern.recipe import einsum_recipe, pack_recipe, parse_transform, transform_recipe  # noqa: E402

CALLS = [
    ("rearrange", "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", (2, 3, 8, 8), {"p1": 4, "p2": 4}),
    ("rearrange", "b c h w -> b h w c", (2, 3, 4, 4), {}),
    ("reduce", "b c (h 2) (w 2) -> b c h w", (2, 3, 4, 4), {"reduction": "max"}),
    ("reduce", "b c h w -> b c", (2, 3, 4, 4), {"reduction": "mean"}),
    ("repeat", "h w -> h w c", (4, 4), {"c": 3}),
    ("einsum", "b i d, b j d -> b i j", (2, 4, 8), {}),
    ("pack", "b * d", (2, 4, 8), {}),
]


def _call(lib, op, pattern, x, kw):
    if op == "reduce":
        kw = dict(kw)
        red = kw.pop("reduction")
        return lib.reduce(x, pattern, red, **kw)
    if op == "einsum":
        return lib.einsum(x, x, pattern)
    if op == "pack":
        return lib.pack([x, x], pattern)
    return getattr(lib, op)(x, pattern, **kw)


def _time(fn, repeat):
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter() - t) / repeat)
    return best


def bench(xp_name, make, repeat):
    total_e = total_s = 0.0
    print(f"\n{xp_name}: per call (best of 5 x {repeat}), microseconds")
    for op, pattern, shape, kw in CALLS:
        x = make(shape)
        _call(einops, op, pattern, x, kw)
        _call(R, op, pattern, x, kw)
        te = _time(lambda op=op, pattern=pattern, x=x, kw=kw: _call(einops, op, pattern, x, kw), repeat)
        ts = _time(lambda op=op, pattern=pattern, x=x, kw=kw: _call(R, op, pattern, x, kw), repeat)
        total_e += te
        total_s += ts
        print(f"  {op:9s} {pattern:42s} einops {te * 1e6:7.2f}  shapecheck {ts * 1e6:7.2f}  ratio {ts / te:5.2f}")
    print(f"  TOTAL ratio shapecheck/einops ({xp_name}): {total_s / total_e:.3f}")
    return total_s / total_e


def compile_time(repeat):
    calls = [c for c in CALLS if c[0] in ("rearrange", "reduce", "repeat")]
    caches = [parse_expression, parse_transform, transform_recipe, einsum_recipe, pack_recipe]
    t = time.perf_counter()
    for _ in range(repeat):
        for c in caches:
            c.cache_clear()
        for op, p, shape, kw in calls:
            names = tuple(k for k in kw if k != "reduction")
            transform_recipe(p, "reduce" if op == "reduce" else op, names, len(shape))
    per = (time.perf_counter() - t) / (repeat * len(calls))
    print(f"\npattern compile (parse + validate + recipe, uncached): {per * 1e6:.1f} us per pattern")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=2000)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    bench("numpy", lambda s: rng.random(s), args.repeat)
    try:
        import torch
    except ImportError:  # pragma: no cover
        print("torch not installed: skipped")
    else:
        bench("torch", lambda s: torch.rand(s), args.repeat)
    compile_time(200)


if __name__ == "__main__":
    main()
