"""Cold speed against flake8 and a bare libcst parse, on the whole corpus at once or per package.

    python benchmarks/speed.py [--corpus DIR ...] [-j N] [--repeat R]                 # one invocation over all packages
    python benchmarks/speed.py --per-package --corpus DIR ... [-j N] [--repeat R]     # the table of issue 11

* ``shapecheck check --no-cache`` (cold: no result cache);
* flake8 with its default plugins (SHP plugin unloaded) on the same files, same ``-j``;
* a bare libcst parse (decode + ``parse_module``) of the files shapecheck analyses (those passing its pre-filter),
  with the same number of processes.

Ratios, never absolute times, are what to compare across machines. With ``--repeat R`` every tool runs R times,
interleaved (shapecheck, flake8, parse, shapecheck, ...), and the best wall time of each is kept (less noise on a
shared machine); CPU time (user + system, workers included) is reported for the same best runs.

Per package (issue 11, items 6-7): shapecheck -j N / flake8 -j N (target <= 0.8x for every package, <= 0.6x in
total), and everything after parsing over the bare parse, ``(shapecheck - parse) / parse`` (target <= 0.5x).
``--corpus`` takes several folders, each holding one folder per package (the development corpus, extra packages).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import corpus as C  # noqa: E402

TARGETS = {"flake8": 0.8, "total": 0.6, "post_parse": 0.5}


def analysed_files(roots: list[Path]) -> tuple[list[Path], list[Path]]:
    from shapecheck.analysis.index.project import Project
    from shapecheck.core import decode_source, relevant

    files = [f for r in roots for f in C.python_files(r)]
    project = Project(files)
    for f in files:
        try:
            project.add_file(f)
        except Exception:
            pass
    out = []
    for f in files:
        try:
            text = decode_source(f.read_bytes())
        except Exception:
            continue
        if relevant(text, project, str(f)):
            out.append(f)
    return files, out


def measure_all(roots: list[Path], jobs: int, repeat: int, timeout: float, tmp: Path) -> dict[str, Any]:
    """Best-of-``repeat`` interleaved runs of shapecheck, flake8 and the bare parse on ``roots``."""
    files, analysed = analysed_files(roots)
    best: dict[str, dict[str, Any]] = {}
    cmd = [sys.executable, "-m", "shapecheck", "check", "--no-cache", "-j", str(jobs), "--format", "json"]
    for _ in range(repeat):
        runs = {
            "shapecheck": C.measure(
                cmd + [str(p) for p in roots], cwd=C.ROOT, timeout=timeout, stdout_path=tmp / "out.json", env=C._env()
            ),
            "flake8": C.run_flake8(files, jobs, with_shp=False, timeout=timeout),
            "parse": C.run_libcst_parse(analysed, jobs),
        }
        for k, v in runs.items():
            if k not in best or v["wall"] < best[k]["wall"]:
                best[k] = v
    return {
        "files": len(files),
        "lines": C.count_lines(files),
        "analysed": len(analysed),
        "analysed_lines": C.count_lines(analysed),
        **best,
    }


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("inf")


def _mark(r: float, target: float) -> str:
    return f"{r:.2f}x" + ("" if r <= target else " (missed)")


def per_package(pkgs: list[Path], jobs: int, repeat: int, timeout: float) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="shapecheck-speed-"))
    print(
        f"| package | files | analysed (lines) | shapecheck -j{jobs} | flake8 -j{jobs} | shapecheck / flake8 "
        f"(CPU) | libcst parse alone / flake8 (CPU) | post-parse / parse (CPU) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    tot = {"shapecheck": 0.0, "flake8": 0.0, "parse": 0.0, "sc_cpu": 0.0, "f8_cpu": 0.0, "parse_cpu": 0.0}
    missed = floor_over = 0
    for pkg in pkgs:
        r = measure_all([pkg], jobs, repeat, timeout, tmp)
        sc, f8, ps = r["shapecheck"], r["flake8"], r["parse"]
        ratio = _ratio(sc["wall"], f8["wall"])
        post = _ratio(sc["wall"] - ps["wall"], ps["wall"])
        post_cpu = _ratio(sc["cpu"] - ps["cpu"], ps["cpu"])
        floor = _ratio(ps["wall"], f8["wall"])  # the bare parse alone: no libcst-based run can be faster
        missed += ratio > TARGETS["flake8"]
        floor_over += floor > TARGETS["flake8"]
        for k, v in (
            ("shapecheck", sc["wall"]),
            ("flake8", f8["wall"]),
            ("parse", ps["wall"]),
            ("sc_cpu", sc["cpu"]),
            ("f8_cpu", f8["cpu"]),
            ("parse_cpu", ps["cpu"]),
        ):
            tot[k] += v
        print(
            f"| {pkg.name} | {r['files']} | {r['analysed']} ({r['analysed_lines']}) | {sc['wall']:.2f} s | "
            f"{f8['wall']:.2f} s | {_mark(ratio, TARGETS['flake8'])} ({_ratio(sc['cpu'], f8['cpu']):.2f}x) | "
            f"{floor:.2f}x ({_ratio(ps['cpu'], f8['cpu']):.2f}x) | "
            f"{_mark(post, TARGETS['post_parse'])} ({post_cpu:.2f}x) |",
            flush=True,
        )
    total = _ratio(tot["shapecheck"], tot["flake8"])
    print(
        f"| **total** ({len(pkgs)} packages) | | | {tot['shapecheck']:.2f} s | {tot['flake8']:.2f} s | "
        f"**{_mark(total, TARGETS['total'])}** ({_ratio(tot['sc_cpu'], tot['f8_cpu']):.2f}x) | "
        f"{_ratio(tot['parse'], tot['flake8']):.2f}x ({_ratio(tot['parse_cpu'], tot['f8_cpu']):.2f}x) | "
        f"{_mark(_ratio(tot['shapecheck'] - tot['parse'], tot['parse']), TARGETS['post_parse'])} "
        f"({_ratio(tot['sc_cpu'] - tot['parse_cpu'], tot['parse_cpu']):.2f}x) |"
    )
    print(
        f"\ntargets: shapecheck / flake8 <= {TARGETS['flake8']}x per package ({missed} of {len(pkgs)} missed), "
        f"<= {TARGETS['total']}x in total; the bare libcst parse of the analysed files (decode + parse_module, same "
        f"number of processes, interpreter start included) alone is over {TARGETS['flake8']}x on {floor_over} of "
        f"{len(pkgs)}; post-parse / parse <= {TARGETS['post_parse']}x. Wall times are the best "
        f"of {repeat} interleaved runs; CPU (user + system, workers included) of those runs in parentheses."
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--corpus",
        type=Path,
        nargs="+",
        help="unpacked src/ folders, one folder per package inside "
        "(default: the development corpus, fetched into .cache/corpus)",
    )
    ap.add_argument("--cache", type=Path, default=C.DEFAULT_CACHE)
    ap.add_argument("--packages", help="comma-separated substrings of package folder names (default: all)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--per-package", action="store_true", help="one row per package (issue 11's table)")
    args = ap.parse_args(argv)
    srcs = args.corpus if args.corpus else [C.ensure_corpus(args.cache)]
    only = [p.strip() for p in args.packages.split(",")] if args.packages else None
    pkgs = [p for src in srcs for p in C.package_dirs(src, only)]
    C.ensure_bytecode()
    print(f"machine: {C.machine()}; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.per_package:
        return per_package(pkgs, args.jobs, args.repeat, args.timeout)
    tmp = Path(tempfile.mkdtemp(prefix="shapecheck-speed-"))
    r = measure_all(pkgs, args.jobs, args.repeat, args.timeout, tmp)
    print(
        f"corpus: {', '.join(map(str, srcs))}: {len(pkgs)} packages, {r['files']} files ({r['lines']} lines), "
        f"{r['analysed']} analysed by shapecheck ({r['analysed_lines']} lines); -j {args.jobs}"
    )
    sc, f8, ps = r["shapecheck"], r["flake8"], r["parse"]
    print(
        f"shapecheck {sc['wall']:.2f}s ({sc['cpu']:.2f}s CPU, peak {sc['rss_mb']:.0f} MB), flake8 {f8['wall']:.2f}s "
        f"({f8['cpu']:.2f}s CPU), libcst parse {ps['wall']:.2f}s ({ps['cpu']:.2f}s CPU)"
    )
    print(f"shapecheck / flake8 (default plugins): {C.fmt_ratio(sc['wall'] / f8['wall'], TARGETS['total'])}")
    post = (sc["wall"] - ps["wall"]) / ps["wall"]
    print(f"(shapecheck - parse) / parse:          {C.fmt_ratio(post, TARGETS['post_parse'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
