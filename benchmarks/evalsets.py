"""Score the checker on an evaluation set: held-out projects written blind, or real bugs with their upstream fixes.

A set is a folder of cases. Each case folder holds either

- ``case.json`` (a held-out case): ``{"kind": "buggy" | "clean", "bug_lines": [{"file", "line"}], ...}`` with the
  project in ``buggy/`` and ``fixed/`` (a buggy case) or ``clean/`` (a clean case); or
- ``meta.json`` (a real bug): ``{"repo", "fix_commit", "driver": [files], "bug_lines": [...]}`` with ``buggy/``
  and ``fixed/``; the driver files are the ones written to run the repository's code with concrete sizes.

A buggy case is *found* when a definite finding (SHP1xx or SHP2xx) lies on one of its ``bug_lines``, and *traced*
(TRACE) when one is reported at a call whose "raised at" notes name a bug line (a failure inside an inlined callee is
reported at the outermost analysed call: a test's or driver's line, when the set lists only inner lines); every definite
finding (SHP1, SHP2, SHP9) on a fixed or clean tree is counted against the checker. ``--no-driver`` scores the
buggy trees with their driver files left out (what the checker finds from the repository's own code alone).

    python benchmarks/evalsets.py /path/to/SET [--tree SNAPSHOT] [--no-driver] [--json OUT] [-j 2]

``--tree`` puts a snapshot of the checker (a folder holding ``shapecheck/`` and ``stubs/``, e.g. from
``git archive HEAD shapecheck stubs``) first on ``PYTHONPATH``, so two versions are scored on the same set in one run.
The sets themselves live outside the repository (they are written blind, and real code is not copied in).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

DEFINITE = ("SHP1", "SHP2")
COUNTED_ON_CLEAN = ("SHP1", "SHP2", "SHP9")


def run_checker(project: Path, tree: Path | None, timeout: int) -> tuple[list[dict[str, Any]], str]:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-m", "shapecheck", "check", "--no-cache", "-j", "1", "--format", "json", "."]
    try:
        proc = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], f"timeout after {timeout} s"
    try:
        findings = json.loads(proc.stdout or "[]")
    except json.JSONDecodeError:
        return [], f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}"
    problem = proc.stderr.strip()[-300:] if proc.returncode not in (0, 1) else ""
    return findings, problem


def _norm(path: str) -> str:
    return os.path.normpath(path).replace(os.sep, "/")


def on_lines(findings: list[dict[str, Any]], bug_lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    wanted = {(_norm(b["file"]), int(b["line"])) for b in bug_lines}
    return [f for f in findings if f["code"].startswith(DEFINITE) and (_norm(f["path"]), int(f["line"])) in wanted]


_RAISED_AT = re.compile(r"^raised at (.+?):(\d+) ")


def traced_to(findings: list[dict[str, Any]], bug_lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The definite findings reported at a call whose notes name a bug line as where the failure was raised
    (``raised at pkg/model.py:33 in forward() for the arguments of this call``): a failure inside an inlined callee
    is reported at the outermost analysed call (a test's, a driver's), its inner lines in the notes."""
    wanted = {(_norm(b["file"]), int(b["line"])) for b in bug_lines}
    out = []
    for f in findings:
        raised = [_RAISED_AT.match(n) for n in f.get("notes", [])]
        if f["code"].startswith(DEFINITE) and any(m and (_norm(m[1]), int(m[2])) in wanted for m in raised):
            out.append(f)
    return out


def without_drivers(buggy: Path, drivers: list[str], scratch: Path) -> Path:
    copy = scratch / "buggy"
    shutil.copytree(buggy, copy)
    for name in drivers:
        target = copy / name
        if target.is_file():
            target.unlink()
    return copy


def score_case(case: Path, tree: Path | None, no_driver: bool, timeout: int) -> dict[str, Any]:
    meta_file = case / "case.json" if (case / "case.json").exists() else case / "meta.json"
    meta = json.loads(meta_file.read_text())
    kind = meta.get("kind", "buggy")
    result: dict[str, Any] = {"case": case.name, "kind": kind, "problems": []}
    if kind == "clean":
        findings, problem = run_checker(case / "clean", tree, timeout)
        result["clean_findings"] = [f for f in findings if f["code"].startswith(COUNTED_ON_CLEAN)]
        if problem:
            result["problems"].append(f"clean: {problem}")
        return result
    with tempfile.TemporaryDirectory() as scratch:
        buggy = case / "buggy"
        if no_driver:
            buggy = without_drivers(buggy, list(meta.get("driver", [])), Path(scratch))
        findings, problem = run_checker(buggy, tree, timeout)
    if problem:
        result["problems"].append(f"buggy: {problem}")
    result["hits"] = on_lines(findings, meta.get("bug_lines", []))
    result["found"] = bool(result["hits"])
    result["traced"] = bool(result["hits"] or traced_to(findings, meta.get("bug_lines", [])))
    result["other"] = [f for f in findings if f["code"].startswith(DEFINITE) and f not in result["hits"]]
    if (case / "fixed").is_dir():
        fixed, problem = run_checker(case / "fixed", tree, timeout)
        result["clean_findings"] = [f for f in fixed if f["code"].startswith(COUNTED_ON_CLEAN)]
        if problem:
            result["problems"].append(f"fixed: {problem}")
    return result


def _short(f: dict[str, Any]) -> str:
    return f"{f['path']}:{f['line']} {f['message'][:150]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path)
    parser.add_argument("--tree", type=Path, help="checker snapshot put first on PYTHONPATH")
    parser.add_argument("--no-driver", action="store_true", help="leave out the driver files of real-bug cases")
    parser.add_argument("--json", type=Path, help="write the per-case results here")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=600)
    args = parser.parse_args(argv)
    cases = sorted(p for p in args.set.iterdir() if (p / "case.json").exists() or (p / "meta.json").exists())
    tree = args.tree.resolve() if args.tree else None
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda c: score_case(c, tree, args.no_driver, args.timeout), cases))
    buggy = [r for r in results if r["kind"] != "clean"]
    found = [r for r in buggy if r["found"]]
    clean_total = sum(len(r.get("clean_findings", [])) for r in results)
    for r in results:
        mark = "clean" if r["kind"] == "clean" else ("FOUND" if r["found"] else "TRACE" if r["traced"] else "miss ")
        print(f"{mark}  {r['case']}")
        for f in r.get("hits", []):
            print(f"         hit   {_short(f)}")
        for f in r.get("other", []):
            print(f"         other {_short(f)}")
        for f in r.get("clean_findings", []):
            print(f"         CLEAN-TREE FINDING {_short(f)}")
        for p in r["problems"]:
            print(f"         problem {p}")
    traced = [r for r in buggy if r["traced"]]
    print(
        f"{args.set.name}: found {len(found)}/{len(buggy)} on a bug line, {len(traced)}/{len(buggy)} on a bug line or "
        f"raised there (a note of a finding at the call); findings on fixed/clean trees: {clean_total}"
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
