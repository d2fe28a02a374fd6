"""One run on the whole development corpus: shapecheck's wall time against baselines measured in the same run.

    python benchmarks/speed.py [--corpus DIR] [-j N] [--repeat R]

* ``shapecheck check --no-cache`` over every package folder at once;
* flake8 with its default plugins (SHP plugin unloaded) on the same files: target shapecheck <= 0.5x;
* a bare libcst parse (decode + ``parse_module``) of the files shapecheck analyses (those passing its
  pre-filter), with the same number of processes: target shapecheck <= 2x.

Ratios, never absolute times, are what to compare across machines. With ``--repeat R`` each tool runs R times,
interleaved, and the best time of each is used (less noise on a shared machine).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import corpus as C  # noqa: E402


def analysed_files(roots: list[Path]) -> tuple[list[Path], list[Path]]:
    from shapecheck.analysis.project import Project
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, help="an unpacked corpus src/ folder (default: fetch into .cache/corpus)")
    ap.add_argument("--cache", type=Path, default=C.DEFAULT_CACHE)
    ap.add_argument("--packages", help="comma-separated substrings of package folder names (default: all)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=1800)
    args = ap.parse_args(argv)
    src = args.corpus if args.corpus else C.ensure_corpus(args.cache)
    pkgs = C.package_dirs(src, [p.strip() for p in args.packages.split(",")] if args.packages else None)
    files, analysed = analysed_files(pkgs)
    print(f"machine: {C.machine()}")
    print(f"corpus: {src}: {len(pkgs)} packages, {len(files)} files ({C.count_lines(files)} lines), "
          f"{len(analysed)} analysed by shapecheck ({C.count_lines(analysed)} lines); -j {args.jobs}")
    best: dict[str, float] = {}
    tmp = Path(tempfile.mkdtemp(prefix="shapecheck-speed-"))
    sc_rss = 0.0
    for i in range(args.repeat):
        # shapecheck over all packages in one invocation
        cmd = [sys.executable, "-m", "shapecheck", "check", "--no-cache", "-j", str(args.jobs), "--format", "json"]
        r = C.measure(cmd + [str(p) for p in pkgs], cwd=C.ROOT, timeout=args.timeout, stdout_path=tmp / "out.json", env=C._env())
        sc_rss = max(sc_rss, r["rss_mb"])
        runs = {"shapecheck": r,
                "flake8": C.run_flake8(files, args.jobs, with_shp=False, timeout=args.timeout),
                "libcst": C.run_libcst_parse(analysed, args.jobs)}
        for k, v in runs.items():
            best[k] = min(best.get(k, float("inf")), v["wall"])
        print(f"run {i + 1}: " + ", ".join(f"{k} {v['wall']:.2f}s" for k, v in runs.items()), flush=True)
    print(f"shapecheck {best['shapecheck']:.2f}s (peak {sc_rss:.0f} MB), flake8 {best['flake8']:.2f}s, "
          f"libcst parse {best['libcst']:.2f}s")
    print(f"shapecheck / flake8 (default plugins): {C.fmt_ratio(best['shapecheck'] / best['flake8'], C.TARGETS['flake8'])}")
    print(f"shapecheck / bare libcst parse:        {C.fmt_ratio(best['shapecheck'] / best['libcst'], C.TARGETS['libcst'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
