"""``shapecheck`` command line: ``check`` (the main job) and ``lsp`` (the language server)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Sequence

from ._version import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
FORMATS = ("text", "json", "sarif", "github")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="shapecheck", description="Static shape checking for einops and jaxtyping.")
    parser.add_argument("--version", action="version", version=f"shapecheck {__version__}")
    sub = parser.add_subparsers(dest="command")
    check = sub.add_parser("check", help="check Python files and folders")
    check.add_argument("paths", nargs="*", default=["."], help="files or folders (default: .)")
    check.add_argument("--format", choices=FORMATS, default="text")
    check.add_argument("--select", help="comma-separated codes or prefixes to report (default: all)")
    check.add_argument("--ignore", help="comma-separated codes or prefixes to skip")
    check.add_argument("--extend-ignore", help="codes or prefixes to skip in addition to the configured ones")
    check.add_argument("--exclude", action="append", default=[], help="glob of paths to skip (repeatable)")
    check.add_argument("--config", help="pyproject.toml to read [tool.shapecheck] from")
    check.add_argument("-j", "--jobs", type=int, default=0, help="parallel processes (default: CPU count; 1 = serial)")
    check.add_argument("--no-cache", action="store_true", help="do not read or write the result cache")
    check.add_argument("--fix", action="store_true", help="apply autofixes (SHP3xx upcasts) in place")
    check.add_argument("--diff", action="store_true", help="show autofixes as a unified diff without writing")
    check.add_argument("--verify", action="store_true", help="replay each definite finding on its witness sizes")
    check.add_argument("--output", "-o", help="write the report to this file instead of standard output")
    check.add_argument("--stats", action="store_true", help="print per-run statistics to standard error")
    sub.add_parser("lsp", help="run the language server over stdio")
    rules = sub.add_parser("rules", help="list diagnostic codes")
    rules.add_argument("--markdown", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if exc.code in (0, None) else EXIT_ERROR
    if args.command is None:
        parser.print_help()
        return EXIT_CLEAN
    if args.command == "lsp":
        from .hosts.lsp import serve

        serve()
        return EXIT_CLEAN
    if args.command == "rules":
        from .hosts.docs import render_codes_markdown

        from .diagnostics import CODES

        if args.markdown:
            sys.stdout.write(render_codes_markdown())
        else:
            for c in CODES:
                print(f"{c.code}  {c.severity.value:7}  {c.name}")
        return EXIT_CLEAN
    try:
        return run_check(args)
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_CLEAN


def run_check(args: argparse.Namespace) -> int:
    from .config import load_config, with_cli
    from .runner import collect_files, run

    for p in args.paths:
        if not os.path.exists(p):
            print(f"shapecheck: error: no such file or folder: {p}", file=sys.stderr)
            return EXIT_ERROR
    cfg = load_config(pyproject=Path(args.config)) if args.config else load_config(Path(args.paths[0]) if args.paths else None)
    cfg = with_cli(cfg, args.select, args.ignore, args.extend_ignore)
    if args.exclude:
        from dataclasses import replace

        cfg = replace(cfg, extend_exclude=cfg.extend_exclude + tuple(args.exclude))
    files = collect_files(args.paths, cfg)
    findings = run(files, cfg, jobs=args.jobs, use_cache=not args.no_cache)
    if args.fix or args.diff:
        from .fix import apply_fixes

        findings = apply_fixes(findings, write=args.fix, diff=args.diff, out=sys.stdout, config=cfg, jobs=args.jobs)
    if args.verify:
        from .verify import verify_findings

        findings = verify_findings(findings)
    from .hosts.formats import render

    text = render(findings, args.format, files=[str(f) for f in files])
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    if args.stats:
        print(f"shapecheck: {len(files)} files, {len(findings)} findings", file=sys.stderr)

    return EXIT_FINDINGS if findings else EXIT_CLEAN
