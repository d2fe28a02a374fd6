"""Cold cost of two versions of the checker, package by package, measured in the same run.

    python benchmarks/trees.py --corpus DIR A B [-j 1] [--rounds 2] [--packages a,b] [--json OUT]

A and B are snapshots of the checker (folders holding ``shapecheck/`` and ``stubs/``, e.g. made with
``git archive <rev> shapecheck stubs | tar -x -C A``). Every package folder of ``--corpus`` is checked cold
(``shapecheck check --no-cache``) by each snapshot, in rounds whose order alternates (A then B, then B then A) so
that a change in the machine's load falls on both. Per package the CPU time (user + system of the checker and its
workers) is summed over the rounds; the table gives both sums and their ratio B / A, and the totals. CPU time, not
wall time, is compared: on a shared machine it moves least with the load. Issue 12's cost limit reads this ratio
between the architecture issue's final code and the current code.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def run_once(tree: Path, package: Path, jobs: int, timeout: float) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-m", "shapecheck", "check", "--no-cache", "-j", str(jobs), "--format", "json", str(package)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        subprocess.run(cmd, env=env, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"wall": float("nan"), "cpu": float("nan")}
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True, help="folder holding one folder per package")
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--packages", help="comma-separated substrings of package folder names (default: all)")
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    packages = sorted(p for p in args.corpus.iterdir() if p.is_dir())
    if args.packages:
        wanted = args.packages.split(",")
        packages = [p for p in packages if any(w in p.name for w in wanted)]
    trees = {"A": args.a.resolve(), "B": args.b.resolve()}
    totals: dict[str, dict[str, dict[str, float]]] = {p.name: {"A": {}, "B": {}} for p in packages}
    for r in range(args.rounds):
        order = ("A", "B") if r % 2 == 0 else ("B", "A")
        for package in packages:
            for key in order:
                got = run_once(trees[key], package, args.jobs, args.timeout)
                slot = totals[package.name][key]
                for measure, value in got.items():
                    slot[measure] = slot.get(measure, 0.0) + value
    print(f"{'package':40} {'A cpu s':>9} {'B cpu s':>9} {'B/A':>6}")
    sums = {"A": 0.0, "B": 0.0}
    for name, slot in totals.items():
        a, b = slot["A"]["cpu"], slot["B"]["cpu"]
        sums["A"] += a
        sums["B"] += b
        print(f"{name[:40]:40} {a:9.1f} {b:9.1f} {b / a if a else float('nan'):6.2f}")
    ratio = sums["B"] / sums["A"] if sums["A"] else float("nan")
    print(f"{'total':40} {sums['A']:9.1f} {sums['B']:9.1f} {ratio:6.2f}")
    if args.json:
        out: dict[str, Any] = {"rounds": args.rounds, "jobs": args.jobs, "packages": totals, "total": sums}
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
