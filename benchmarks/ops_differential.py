"""The large run of the op-table differential harness (issue 16): static shapes against the real frameworks.

    python benchmarks/ops_differential.py [--n N] [--frameworks numpy,torch,jax] [--ops PREFIX] [--show K] [--no-dtypes]

N cases per op generator and framework (default 40), seeds 0..N-1 (deterministic). Prints one row per op key: cases,
how many the framework rejected, how many the analyser claimed a shape for, and the disagreements by kind
(false positive, wrong shape, wrong dtype, internal error); then the first K disagreements with their source.
Exit status 1 when any disagreement was found. See tests/ops_harness.py for the rules and benchmarks/README.md
for the ops the generator cannot exercise.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from ops_harness import Tally, all_generators, frameworks, run_seed  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=40, help="cases per generator and framework")
    ap.add_argument("--frameworks", default="", help="comma-separated (default: every installed one)")
    ap.add_argument("--ops", default="", help="only generators whose key starts with this")
    ap.add_argument("--show", type=int, default=10, help="disagreements to print in full")
    ap.add_argument("--no-dtypes", action="store_true", help="compare shapes only")
    ap.add_argument("--seed0", type=int, default=0)
    args = ap.parse_args()
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    fws = frameworks()
    if args.frameworks:
        fws = {k: v for k, v in fws.items() if k in args.frameworks.split(",")}
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    shown = 0
    total = Tally()
    for fw in fws.values():
        gens = all_generators(fw)
        for key in sorted(gens):
            if args.ops and not key.startswith(args.ops):
                continue
            for seed in range(args.seed0, args.seed0 + args.n):
                o = run_seed(fw, gens, key, seed)
                if args.no_dtypes and o.verdict == "wrong-dtype":
                    o.verdict = "ok"
                for t in (tallies[(fw.name, o.case.op)], total):
                    t.cases += 1
                    t.raised += o.runtime != "ok"
                    t.claimed += o.claimed
                    if o.verdict != "ok":
                        t.bad[o.verdict] = t.bad.get(o.verdict, 0) + 1
                if o.verdict != "ok" and shown < args.show:
                    shown += 1
                    print(f"--- {o.verdict} [{fw.name} {o.case.op} seed {seed}]: {o.detail}\n{o.source}")
    kinds = ("false-positive", "wrong-shape", "wrong-dtype", "internal")
    print(f"{'framework':10} {'op':44} {'cases':>6} {'raise':>6} {'claim':>6} " + " ".join(f"{k:>14}" for k in kinds))
    for (fwn, op), t in sorted(tallies.items()):
        print(
            f"{fwn:10} {op:44} {t.cases:6} {t.raised:6} {t.claimed:6} "
            + " ".join(f"{t.bad.get(k, 0):14}" for k in kinds)
        )
    print(
        f"{'total':10} {len(tallies):<44} {total.cases:6} {total.raised:6} {total.claimed:6} "
        + " ".join(f"{total.bad.get(k, 0):14}" for k in kinds)
    )
    return 1 if total.bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
