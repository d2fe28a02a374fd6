"""shapecheck on the development corpus: coverage, findings, speed and memory, with baselines in the same run.

    python benchmarks/corpus.py                      # fetch into .cache/corpus (reused when present), measure all
    python benchmarks/corpus.py --corpus /work/corpus/src --packages einops,performer
    python benchmarks/corpus.py --json out.json --mypy-package performer-pytorch

Per package it prints: files, lines, files analysed (pre-filter), einops call sites, call sites with a fully
inferred output shape (coverage = inferred / literal-pattern sites, the rest by cause), jaxtyping annotations
understood, findings by code, wall time and peak memory of ``shapecheck check``. Baselines, measured in the same
run with the same ``-j``, each in its own subprocess (peak memory = largest process, from ``wait4``):

* flake8 with its default plugins (pyflakes, pycodestyle, mccabe) on the same files, the SHP plugin unloaded:
  target shapecheck <= 0.5x;
* the SHP plugin's added cost inside flake8: flake8 with the plugin loaded over flake8 with it unloaded, same
  files, same options. (``--extend-ignore SHP`` is not a baseline: flake8 runs every loaded plugin and filters
  afterwards, so that run pays the plugin's cost too.) Target <= 1.3x;
* a bare libcst parse of the analysed files (decode + ``libcst.parse_module``, same number of processes):
  target shapecheck <= 2x;
* mypy with and without ``plugins = ["shapecheck"]`` on one package, cold cache (fresh cache dir each run,
  ``follow_imports = skip`` so third-party libraries are not analysed; ``--mypy-repeat`` interleaved runs, the
  best of each kept): target <= 1.2x.

Coverage comes from the analyser's counters (``analysis.ctx.stats``) on modules built with
``shapecheck.analysis.report.checker.build``; jaxtyping annotations understood are the ``Annotation`` objects on the
modules' function parameters and returns.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CACHE = ROOT / ".cache" / "corpus"
FETCH_SCRIPTS = [ROOT.parent / "shared" / "corpus" / "fetch.sh", ROOT / ".." / ".." / "shared" / "corpus" / "fetch.sh"]
EINOPS_KEYS = ("einops:inferred", "einops:problem", "einops:unknown-input", "einops:dynamic-axes")
ALL_KEYS = EINOPS_KEYS + ("einops:dynamic-pattern",)

TARGETS = {"flake8": 0.5, "plugin": 1.3, "libcst": 2.0, "mypy": 1.2}

# flake8 with the SHP plugin unloaded: the same flake8, minus one entry point.
FLAKE8_WITHOUT_SHP = (
    "import sys\n"
    "import flake8.plugins.finder as finder\n"
    "_orig = finder._find_importlib_plugins\n"
    "finder._find_importlib_plugins = lambda: (p for p in _orig() if not p.entry_point.value.startswith('shapecheck.'))\n"
    "from flake8.main.cli import main\n"
    "sys.exit(main())\n"
)


# ---------------------------------------------------------------------------------------------- corpus


def find_fetch_script() -> Path | None:
    env = os.environ.get("SHAPECHECK_CORPUS_FETCH")
    for cand in ([Path(env)] if env else []) + FETCH_SCRIPTS:
        if cand.is_file():
            return cand.resolve()
    return None


# the development corpus: pinned source distributions from PyPI (the same list as ../shared/corpus/packages.txt)
CORPUS_PACKAGES = (
    "vector-quantize-pytorch==1.32.0",
    "denoising-diffusion-pytorch==2.3.4",
    "imagen-pytorch==2.1.0",
    "audiolm-pytorch==2.4.0",
    "performer-pytorch==1.1.4",
    "equinox==0.13.8",
    "transformer-lens==4.3.0",
    "einops==0.8.2",
)


def ensure_corpus(cache: Path) -> Path:
    """The unpacked sources (``cache/src``): reused when present, else fetched from PyPI (pinned sdists, unpacked).

    A shared fetch script (SHAPECHECK_CORPUS_FETCH, ../shared/corpus/fetch.sh) is used when there is one; otherwise
    ``pip download --no-deps --no-binary :all:`` of CORPUS_PACKAGES, then each archive is unpacked into ``src/``.
    """
    src = cache / "src"
    print(
        f"corpus: {len(CORPUS_PACKAGES)} pinned source distributions from PyPI ({', '.join(CORPUS_PACKAGES)}), "
        f"unpacked in {src}",
        file=sys.stderr,
    )
    if src.is_dir() and any(src.iterdir()):
        return src
    script = find_fetch_script()
    if script is not None:
        print(f"fetching the corpus into {cache} with {script} ...", file=sys.stderr)
        subprocess.run(["bash", str(script), str(cache)], check=True)
        return src
    import tarfile
    import zipfile

    print(
        f"fetching the corpus into {cache} with pip download (network access to PyPI needed; "
        "or pass --corpus DIR for an unpacked copy) ...",
        file=sys.stderr,
    )
    dl = cache / "dl"
    dl.mkdir(parents=True, exist_ok=True)
    src.mkdir(parents=True, exist_ok=True)
    for spec in CORPUS_PACKAGES:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--ignore-requires-python",
                "-d",
                str(dl),
                spec,
            ],
            check=True,
        )
    for archive in sorted(dl.iterdir()):
        if archive.name.endswith((".tar.gz", ".tgz")):
            with tarfile.open(archive) as tf:
                tf.extractall(src, filter="data") if sys.version_info >= (3, 12) else tf.extractall(src)
        elif archive.suffix == ".zip":
            with zipfile.ZipFile(archive) as zf:
                zf.extractall(src)
    return src


def package_dirs(src: Path, only: list[str] | None) -> list[Path]:
    dirs = sorted(p for p in src.iterdir() if p.is_dir())
    if only:
        dirs = [d for d in dirs if any(o.lower().replace("-", "_") in d.name.lower().replace("-", "_") for o in only)]
    return dirs


def python_files(root: Path) -> list[Path]:
    from shapecheck.config import Config
    from shapecheck.runner import collect_files

    return collect_files([str(root)], Config())


# ---------------------------------------------------------------------------------------------- measuring


def measure(
    cmd: list[str],
    cwd: Path | None = None,
    timeout: float | None = None,
    stdout_path: Path | None = None,
    env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run ``cmd``; wall time, CPU time (user + system of the process and the children it waited for) and the peak RSS
    of the largest process of its tree (``wait4``, in MB)."""
    out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.PIPE, env=env)
    timed_out = False
    try:
        if timeout is not None:
            deadline = t0 + timeout
            while True:
                pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    break
                if time.perf_counter() > deadline:
                    timed_out = True
                    proc.kill()  # flake8/shapecheck workers see their parent die and exit
                    pid, status, ru = os.wait4(proc.pid, 0)
                    break
                time.sleep(0.02)
        else:
            _, status, ru = os.wait4(proc.pid, 0)
    finally:
        if stdout_path:
            out.close()  # type: ignore[union-attr]
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    return {
        "wall": wall,
        "cpu": ru.ru_utime + ru.ru_stime,
        "rss_mb": ru.ru_maxrss / 1024,
        "rc": proc.returncode,
        "timeout": timed_out,
        "stderr": err[-2000:],
    }


def run_shapecheck(
    files_root: Path, jobs: int, out_json: Path, timeout: float | None, warm: bool = False
) -> dict[str, Any]:
    """Cold by default; ``warm``: the default command (result cache on) after one run over the same tree filled it."""
    cmd = [sys.executable, "-m", "shapecheck", "check", "-j", str(jobs), "--format", "json", str(files_root)]
    env = _env()
    if warm:
        env.pop("SHAPECHECK_NO_CACHE", None)
        measure(cmd, cwd=ROOT, timeout=timeout, stdout_path=out_json, env=env)
    else:
        cmd.insert(4, "--no-cache")
    r = measure(cmd, cwd=ROOT, timeout=timeout, stdout_path=out_json, env=env)
    try:
        r["findings"] = json.loads(out_json.read_text("utf-8"))
    except (OSError, ValueError):
        r["findings"] = []
    return r


def run_flake8(
    files: list[Path], jobs: int, with_shp: bool, timeout: float | None, cache_dir: Path | None = None
) -> dict[str, Any]:
    """Cold (the result cache off) unless ``cache_dir`` is given: then the SHP plugin's cache lives there."""
    head = [sys.executable, "-m", "flake8"] if with_shp else [sys.executable, "-c", FLAKE8_WITHOUT_SHP]
    # --isolated: the packages' own flake8 configs would change what runs; the file list is given explicitly
    cmd = head + ["--isolated", "--exit-zero", "-j", str(jobs)] + [str(f.resolve()) for f in files]
    env = _env()
    if cache_dir is not None:
        env.pop("SHAPECHECK_NO_CACHE", None)
    return measure(cmd, cwd=cache_dir or ROOT, timeout=timeout, env=env)


def run_libcst_parse(files: list[Path], jobs: int) -> dict[str, Any]:
    """A bare libcst parse of the given files in ``jobs`` processes: the floor under any libcst-based checker."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join(str(f) for f in files))
    try:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--_parse", fh.name, "-j", str(jobs)]
        return measure(cmd, cwd=ROOT, env=_env())
    finally:
        os.unlink(fh.name)


def _parse_files(listing: str, jobs: int) -> None:
    paths = [p for p in Path(listing).read_text().splitlines() if p]
    if jobs > 1 and len(paths) >= 8:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as ex:
            list(ex.map(_parse_one, paths, chunksize=4))
    else:
        for p in paths:
            _parse_one(p)


def _parse_one(path: str) -> None:
    import libcst as cst

    from shapecheck.core import decode_source

    try:
        cst.parse_module(decode_source(Path(path).read_bytes()))
    except Exception:
        pass


def run_mypy(files: list[Path], with_plugin: bool, timeout: float | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "mypy.ini"
        lines = [
            "[mypy]",
            "ignore_missing_imports = True",
            "follow_imports = skip",
            "no_error_summary = True",
            f"cache_dir = {Path(tmp) / 'cache'}",
        ]
        if with_plugin:
            lines.append("plugins = shapecheck")
        cfg.write_text("\n".join(lines) + "\n")
        cmd = [sys.executable, "-m", "mypy", "--config-file", str(cfg), "--no-pretty"] + [str(f) for f in files]
        out = Path(tmp) / "out.txt"
        r = measure(cmd, cwd=ROOT, timeout=timeout, stdout_path=out, env=_env())
        text = out.read_text(errors="replace")
        r["errors"] = sum(1 for ln in text.splitlines() if ": error:" in ln)
        r["shapecheck_errors"] = sum(1 for ln in text.splitlines() if ": error:" in ln and "shape" in ln.split("[")[-1])
        return r


def ensure_bytecode() -> None:
    """Compile shapecheck's modules to bytecode, as installing the package does. Without it a checkout run with
    ``PYTHONDONTWRITEBYTECODE`` set compiles ~50 modules from source in every measured run (about 0.3 s a process
    start), which the installed baselines (flake8, libcst) never pay."""
    import compileall

    compileall.compile_dir(str(ROOT / "shapecheck"), quiet=1)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("PYTHONHASHSEED", "0")
    env["SHAPECHECK_NO_CACHE"] = "1"  # every measurement is cold unless it says otherwise
    return env


# ---------------------------------------------------------------------------------------------- coverage


def coverage(root: Path) -> dict[str, Any]:
    """Build every analysed module of one package and read the analyser's counters (in a child process), then again
    with no input shape made up from an einops pattern: a site whose input rank comes from a made-up shape handed on
    by later ops (``x = rearrange(x, '... (d j) -> ... d j', j=2)`` on an unknown x, then unbind, stack and a second
    rearrange) has evidence only in the first run. The second run's rank and size counts are the strict ones."""
    out: dict[str, Any] = {}
    for strict in (False, True):
        r = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--_coverage", str(root)]
            + (["--_strict"] if strict else []),
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=_env(),
        )
        if r.returncode != 0:
            return {"error": r.stderr[-2000:]}
        got = json.loads(r.stdout.strip().splitlines()[-1])
        if not strict:
            out = got
            continue
        for kind in ("einops", "layer"):
            for level in ("rank", "size", "made-up-rank-known-size"):
                key = f"evidence:{kind}:{level}"
                out["stats"][f"strict-{key}"] = got["stats"].get(key, 0)
    return out


def _coverage(root: Path) -> dict[str, Any]:
    from shapecheck.analysis.report.checker import build
    from shapecheck.analysis.index.project import Project
    from shapecheck.core import decode_source, relevant
    from shapecheck.diagnostics import Finding

    files = python_files(root)
    project = Project(files)
    stats: Counter[str] = Counter()
    anns = Counter()
    analysed, analysed_lines, syntax = [], 0, 0
    errors: list[str] = []
    built: list[Any] = []
    for f in files:
        try:
            text = decode_source(f.read_bytes())
        except Exception:
            continue
        try:
            project.add_file(f)
        except Exception:
            pass
        if not relevant(text, project, str(f)):
            continue
        analysed.append(str(f))
        analysed_lines += text.count("\n") + 1
        try:
            a = build(text, str(f), project)
        except RecursionError:
            errors.append(f"{f}: RecursionError")
            continue
        except Exception as exc:  # an analyser bug: report it, keep counting
            errors.append(f"{f}: {type(exc).__name__}: {exc}")
            continue
        if isinstance(a, Finding):
            syntax += 1
            continue
        stats.update(getattr(a.ctx, "stats", {}) or {})
        built.append(a)
        for fn in getattr(a, "functions", {}).values():
            if getattr(fn, "module", a) is not a:
                continue
            for p in fn.params:
                if p.ann is not None:
                    anns["params"] += 1
                    anns["dtype:" + p.ann.dtype_class] += 1
            if fn.return_ann is not None:
                anns["returns"] += 1
                anns["dtype:" + fn.return_ann.dtype_class] += 1
    # documentation examples (README / docs Markdown python blocks) are entry points too; their own sites are not counted
    from shapecheck.analysis.index.examples import build_doc, collect_docs, relevant_doc
    from shapecheck.config import Config

    docs = collect_docs([str(root)], Config()) if os.environ.get("SHAPECHECK_COVERAGE_EXAMPLES", "1") != "0" else []
    for d in docs:
        try:
            if relevant_doc(d, project) and build_doc(d, str(d), project):
                stats["doc-files"] += 1
        except RecursionError:
            errors.append(f"{d}: RecursionError")
        except Exception as exc:
            errors.append(f"{d}: {type(exc).__name__}: {exc}")
    for a in built:  # read last: analysing a later file (an entry point) may add evidence to an earlier one's sites
        evidence_of = getattr(a.ctx, "evidence_stats", None)
        if evidence_of is not None:
            stats.update(evidence_of())
    return {
        "files": len(files),
        "analysed": analysed,
        "analysed_lines": analysed_lines,
        "stats": dict(stats),
        "annotations": dict(anns),
        "syntax_errors": syntax,
        "errors": errors,
    }


# ---------------------------------------------------------------------------------------------- report


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def fmt_ratio(r: float | None, target: float) -> str:
    if r is None:
        return "n/a"
    return f"{r:.2f}x ({'ok' if r <= target else 'MISSED'}, target <= {target}x)"


def count_lines(files: list[Path]) -> int:
    n = 0
    for f in files:
        try:
            n += f.read_bytes().count(b"\n")
        except OSError:
            pass
    return n


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem = next(
            int(ln.split()[1]) for ln in Path("/proc/meminfo").read_text().splitlines() if ln.startswith("MemTotal")
        )
        mem_s = f", {mem / 1024 / 1024:.0f} GB RAM"
    except (OSError, StopIteration):
        mem_s = ""
    return f"{cpu}, {os.cpu_count()} cores{mem_s}, Python {platform.python_version()}, {platform.system()}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--corpus", type=Path, help="an existing unpacked corpus (the src/ folder with one folder per package)"
    )
    ap.add_argument(
        "--cache", type=Path, default=DEFAULT_CACHE, help="where to fetch the corpus (default .cache/corpus)"
    )
    ap.add_argument("--packages", help="comma-separated substrings of package folder names (default: all)")
    ap.add_argument(
        "-j", "--jobs", type=int, default=os.cpu_count() or 1, help="processes for every tool (default: cores)"
    )
    ap.add_argument("--mypy-package", default="performer", help="package for the mypy comparison ('' to skip)")
    ap.add_argument("--mypy-repeat", type=int, default=3, help="interleaved mypy runs; the best of each is kept")
    ap.add_argument("--no-flake8", action="store_true", help="skip the flake8 baselines")
    ap.add_argument("--no-plugin", action="store_true", help="skip flake8 with the SHP plugin (can be slow)")
    ap.add_argument("--timeout", type=float, default=900, help="per tool run, seconds (a timed-out run is reported)")
    ap.add_argument("--json", type=Path, help="also write every number to this file")
    ap.add_argument("--_coverage", help=argparse.SUPPRESS)
    ap.add_argument("--_strict", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--_parse", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    ensure_bytecode()
    sys.path.insert(0, str(ROOT))
    if args._coverage:
        if args._strict:
            from shapecheck.analysis.rules import einops_calls

            einops_calls.MAKE_UP_INPUTS = False
        print(json.dumps(_coverage(Path(args._coverage))))
        return 0
    if args._parse:
        _parse_files(args._parse, args.jobs)
        return 0

    src = args.corpus if args.corpus else ensure_corpus(args.cache)
    only = [p.strip() for p in args.packages.split(",")] if args.packages else None
    pkgs = package_dirs(src, only)
    print(f"machine: {machine()}")
    print(f"corpus: {src} ({len(pkgs)} packages), -j {args.jobs}\n")
    rows: list[dict[str, Any]] = []
    tmp = Path(tempfile.mkdtemp(prefix="shapecheck-corpus-"))
    for pkg in pkgs:
        files = python_files(pkg)
        cov = coverage(pkg)
        sc = run_shapecheck(pkg, args.jobs, tmp / f"{pkg.name}.json", args.timeout)
        sc_warm = run_shapecheck(pkg, args.jobs, tmp / f"{pkg.name}-warm.json", args.timeout, warm=True)
        row: dict[str, Any] = {
            "package": pkg.name,
            "files": len(files),
            "lines": count_lines(files),
            "coverage": cov,
            "shapecheck": {k: v for k, v in sc.items() if k != "findings"},
            "findings": dict(Counter(f["code"] for f in sc["findings"])),
        }
        row["shapecheck_warm"] = sc_warm
        analysed = [Path(p) for p in cov.get("analysed", [])]
        row["libcst"] = run_libcst_parse(analysed, args.jobs)
        if not args.no_flake8:
            row["flake8"] = run_flake8(files, args.jobs, with_shp=False, timeout=args.timeout)
            if not args.no_plugin:
                row["flake8_shp"] = run_flake8(files, args.jobs, with_shp=True, timeout=args.timeout)
                # warm: the same files again after one run filled the result cache (flake8 on an unchanged tree)
                with tempfile.TemporaryDirectory() as cache_dir:
                    run_flake8(files, args.jobs, with_shp=True, timeout=args.timeout, cache_dir=Path(cache_dir))
                    row["flake8_shp_warm"] = run_flake8(
                        files, args.jobs, with_shp=True, timeout=args.timeout, cache_dir=Path(cache_dir)
                    )
        rows.append(row)
        print_row(row)
    mypy_row = None
    if args.mypy_package:
        target = package_dirs(src, [args.mypy_package])
        if target:
            files = python_files(target[0])
            # a few seconds each, so one run is at the mercy of the machine: interleave and keep each one's best
            runs = [
                (run_mypy(files, False, args.timeout), run_mypy(files, True, args.timeout))
                for _ in range(max(1, args.mypy_repeat))
            ]
            without = min((r[0] for r in runs), key=lambda r: r["wall"])
            with_ = min((r[1] for r in runs), key=lambda r: r["wall"])
            mypy_row = {"package": target[0].name, "files": len(files), "without": without, "with": with_}
    print_summary(rows, mypy_row)
    if args.json:
        args.json.write_text(
            json.dumps(
                {"machine": machine(), "jobs": args.jobs, "packages": rows, "mypy": mypy_row}, indent=1, default=str
            )
        )
    return 0


def _t(r: dict[str, Any] | None) -> str:
    if not r:
        return "-"
    return f">{r['wall']:.0f}s (timeout)" if r.get("timeout") else f"{r['wall']:.2f}s"


def evidence_lines(st: Counter[str]) -> list[str]:
    """Call sites by what their input shape rests on: evidence (an annotation, a literal, a constructor argument, a
    layer, a parameter, an entry point) for the rank and for at least one size, or a shape made up from the pattern."""
    out = []
    for kind, label in (("einops", "einops call sites"), ("layer", "framework layer calls")):
        n = st[f"evidence:{kind}:sites"]
        if not n:
            continue
        rank = st[f"evidence:{kind}:rank"] + st[f"evidence:{kind}:size"]
        size = st[f"evidence:{kind}:size"] + st[f"evidence:{kind}:made-up-rank-known-size"]
        made_up, unknown = st[f"evidence:{kind}:made-up"], st[f"evidence:{kind}:unknown"]
        strict_rank = st[f"strict-evidence:{kind}:rank"] + st[f"strict-evidence:{kind}:size"]
        strict_size = st[f"strict-evidence:{kind}:size"] + st[f"strict-evidence:{kind}:made-up-rank-known-size"]
        out.append(
            f"{label} by evidence ({n}): input rank from evidence {rank} ({100 * rank / n:.1f}%), "
            f">= 1 size from evidence {size} ({100 * size / n:.1f}%); shape only made up from the "
            f"pattern {made_up} ({100 * made_up / n:.1f}%); unknown {unknown} ({100 * unknown / n:.1f}%); "
            f"strict (no shape made up anywhere): rank {strict_rank} ({100 * strict_rank / n:.1f}%), "
            f">= 1 size {strict_size} ({100 * strict_size / n:.1f}%)"
        )
    return out


def print_row(row: dict[str, Any]) -> None:
    cov = row["coverage"]
    st = Counter(cov.get("stats", {}))
    literal = sum(st[k] for k in EINOPS_KEYS)
    sites = literal + st["einops:dynamic-pattern"]
    inferred = st["einops:inferred"]
    pct = f"{100 * inferred / literal:.1f}%" if literal else "n/a"
    anns = cov.get("annotations", {})
    sc = row["shapecheck"]
    print(f"== {row['package']}")
    print(
        f"   files {row['files']}, lines {row['lines']}, analysed {len(cov.get('analysed', []))} files "
        f"({cov.get('analysed_lines', 0)} lines)"
    )
    print(
        f"   einops call sites {sites}: literal pattern {literal}, fully inferred {inferred} (coverage {pct}); "
        f"not inferred: unknown input {st['einops:unknown-input']}, dynamic axes {st['einops:dynamic-axes']}, "
        f"pattern problem {st['einops:problem']}; dynamic pattern {st['einops:dynamic-pattern']}"
    )
    for line in evidence_lines(st):
        print(f"   {line}")
    if st["doc-files"]:
        print(f"   documentation files whose python examples were analysed as entry points: {st['doc-files']}")
    print(
        f"   jaxtyping annotations understood: {anns.get('params', 0)} parameters, {anns.get('returns', 0)} returns "
        f"({', '.join(f'{k[6:]} {v}' for k, v in sorted(anns.items()) if k.startswith('dtype:')) or 'none'})"
    )
    if cov.get("errors") or cov.get("error"):
        print(f"   ANALYSER ERRORS: {cov.get('errors') or cov.get('error')}")
    print(f"   findings: {dict(sorted(row['findings'].items())) or 'none'}")
    print(
        f"   shapecheck {_t(sc)}, peak {sc['rss_mb']:.0f} MB (rc {sc['rc']}); flake8 {_t(row.get('flake8'))}; "
        f"flake8+SHP {_t(row.get('flake8_shp'))}; libcst parse {_t(row.get('libcst'))}"
    )
    fl, fs, lc = row.get("flake8"), row.get("flake8_shp"), row.get("libcst")
    print(
        f"   ratios: vs flake8 {fmt_ratio(ratio(sc['wall'], fl and fl['wall']), TARGETS['flake8'])}; "
        f"plugin {fmt_ratio(ratio(fs and fs['wall'], fl and fl['wall']), TARGETS['plugin'])}; "
        f"vs libcst {fmt_ratio(ratio(sc['wall'], lc and lc['wall']), TARGETS['libcst'])}; "
        f"plugin warm (result cache filled) {fmt_ratio(ratio(row.get('flake8_shp_warm', {}).get('wall'), fl and fl['wall']), TARGETS['plugin'])}; "
        f"shapecheck warm vs flake8 {fmt_ratio(ratio(row.get('shapecheck_warm', {}).get('wall'), fl and fl['wall']), TARGETS['flake8'])}\n",
        flush=True,
    )


def print_summary(rows: list[dict[str, Any]], mypy_row: dict[str, Any] | None) -> None:
    tot: Counter[str] = Counter()
    findings: Counter[str] = Counter()
    walls: Counter[str] = Counter()
    timeouts = set()
    for r in rows:
        st = Counter(r["coverage"].get("stats", {}))
        tot.update(st)
        tot["files"] += r["files"]
        tot["lines"] += r["lines"]
        tot["params"] += r["coverage"].get("annotations", {}).get("params", 0)
        tot["returns"] += r["coverage"].get("annotations", {}).get("returns", 0)
        findings.update(r["findings"])
        for k in ("shapecheck", "shapecheck_warm", "flake8", "flake8_shp", "flake8_shp_warm", "libcst"):
            if r.get(k):
                walls[k] += r[k]["wall"]
                if r[k].get("timeout"):
                    timeouts.add(k)
    literal = sum(tot[k] for k in EINOPS_KEYS)
    print("== total")
    print(f"   {len(rows)} packages, {tot['files']} files, {tot['lines']} lines")
    if literal:
        print(
            f"   einops: {literal} literal-pattern call sites, {tot['einops:inferred']} fully inferred "
            f"({100 * tot['einops:inferred'] / literal:.1f}%); rest by cause: unknown input {tot['einops:unknown-input']}, "
            f"dynamic axes {tot['einops:dynamic-axes']}, pattern problem {tot['einops:problem']}; "
            f"dynamic pattern (not counted) {tot['einops:dynamic-pattern']}"
        )
    for line in evidence_lines(tot):
        print(f"   {line}")
    print(f"   jaxtyping annotations understood: {tot['params']} parameters, {tot['returns']} returns")
    print(f"   findings: {dict(sorted(findings.items())) or 'none'}")
    t = " (a run timed out: ratio is a lower bound)"
    print(
        f"   wall: shapecheck {walls['shapecheck']:.1f}s, flake8 {walls['flake8']:.1f}s, flake8+SHP "
        f"{walls['flake8_shp']:.1f}s, libcst parse {walls['libcst']:.1f}s"
    )
    print(f"   shapecheck / flake8:        {fmt_ratio(ratio(walls['shapecheck'], walls['flake8']), TARGETS['flake8'])}")
    print(
        f"   flake8+SHP / flake8:        {fmt_ratio(ratio(walls['flake8_shp'], walls['flake8']), TARGETS['plugin'])}"
        + (t if "flake8_shp" in timeouts else "")
    )
    print(f"   shapecheck / libcst parse:  {fmt_ratio(ratio(walls['shapecheck'], walls['libcst']), TARGETS['libcst'])}")
    if walls["shapecheck_warm"]:
        print(
            f"   shapecheck warm / flake8:   {fmt_ratio(ratio(walls['shapecheck_warm'], walls['flake8']), TARGETS['flake8'])}"
            " (the default command, second run over unchanged files: results come from the content-keyed cache)"
        )
    if walls["flake8_shp_warm"]:
        print(
            f"   flake8+SHP warm / flake8:   {fmt_ratio(ratio(walls['flake8_shp_warm'], walls['flake8']), TARGETS['plugin'])}"
            " (second run over unchanged files: the SHP plugin's results come from its content-keyed cache)"
        )
    big = max(rows, key=lambda r: r["shapecheck"]["rss_mb"], default=None)
    if big:
        print(f"   peak memory: {big['shapecheck']['rss_mb']:.0f} MB ({big['package']})")
    if mypy_row:
        w, wo = mypy_row["with"], mypy_row["without"]
        print(
            f"   mypy on {mypy_row['package']} ({mypy_row['files']} files, cold cache): without plugin {_t(wo)}, "
            f"with {_t(w)} ({w.get('shapecheck_errors', 0)} shape errors); "
            f"{fmt_ratio(ratio(w['wall'], wo['wall']), TARGETS['mypy'])}"
        )


if __name__ == "__main__":
    sys.exit(main())
