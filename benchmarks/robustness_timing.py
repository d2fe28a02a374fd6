"""Time per file on the robustness mutants and on pathological one-liners (timing kept out of the test suite).

    python benchmarks/robustness_timing.py [-n 300]

The budget is 2 s per 1,000 lines (at least 2 s) per file; printed: the slowest files as a ratio to their budget,
and the time of the long-chain / deep-nesting one-liners of tests/test_fuzz_robustness.py, each in a subprocess.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def budget(lines: int) -> float:
    return 2.0 * max(1.0, lines / 1000)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=300, help="number of mutants (SHAPECHECK_FUZZ_N)")
    args = ap.parse_args()
    os.environ["SHAPECHECK_FUZZ_N"] = str(args.n)
    import test_fuzz_robustness as fuzz

    from shapecheck.core import check_source

    rows = []
    for name, how, data in fuzz.mutants():
        t0 = time.perf_counter()
        check_source(data, f"fuzz/{name}.py", prefilter=False)
        elapsed = time.perf_counter() - t0
        lines = fuzz.line_count(data)
        rows.append((elapsed / budget(lines), elapsed, lines, name, how))
    rows.sort(reverse=True)
    over = sum(1 for r in rows if r[0] > 1)
    print(f"{len(rows)} mutants, {over} over budget (2 s per 1,000 lines); slowest as a fraction of their budget:")
    for ratio, elapsed, lines, name, how in rows[:10]:
        print(f"  {ratio:5.2f}  {elapsed:6.2f}s  {lines:6d} lines  {name} ({how})")
    print("one-liners (subprocess, whole interpreter start included):")
    cases = dict(fuzz.LONG_CHAINS)
    cases.update(
        {
            "nesting-201-parens": "x = " + "(" * 201 + "1" + ")" * 201,
            "nesting-400-brackets": "x = " + "[" * 400 + "1" + "]" * 400,
        }
    )
    for name, src in cases.items():
        t0 = time.perf_counter()
        fuzz._subprocess_check("import einops\n" + src + "\n")
        print(f"  {time.perf_counter() - t0:6.2f}s  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
