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
    check.add_argument(
        "--examples",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="analyse the python blocks of README / docs Markdown files as entry points "
        "(default: on, or [tool.shapecheck] examples)",
    )
    fixing = check.add_mutually_exclusive_group()
    fixing.add_argument("--fix", action="store_true", help="apply autofixes (SHP3xx upcasts) in place")
    fixing.add_argument(
        "--diff",
        action="store_true",
        help="write the autofixes as a unified diff to standard output (nothing else), without applying them",
    )
    check.add_argument("--verify", action="store_true", help="replay each definite finding on its witness sizes")
    check.add_argument(
        "--output", "-o", help="write the report to this file instead of standard output (folders are created)"
    )
    check.add_argument("--stats", action="store_true", help="print per-run statistics to standard error")
    sub.add_parser("lsp", help="run the language server over stdio")
    rules = sub.add_parser("rules", help="list diagnostic codes")
    rules.add_argument("--markdown", action="store_true")
    return parser


def entry() -> None:
    """The ``shapecheck`` command (console script and ``python -m shapecheck``): ``main``, then the process ends
    without tearing down what the analysis built. A cold run leaves every parsed module and its analysis in memory;
    deallocating them object by object and the interpreter's final collection cost a quarter of the run's CPU on
    nerfstudio (``check -j 1``: 5.5-5.9 s -> 4.2-4.3 s without them). The output is flushed first; caches and reports are already written
    and closed, and parallel workers have been joined."""
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe (`shapecheck check . | head`): nothing more can be written
        pass
    os._exit(code)


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
    from .config import UsageError

    try:
        return run_check(args)
    except UsageError as exc:
        print(f"shapecheck: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_CLEAN
    except Exception as exc:  # a bug of ours: one line and exit 2, never a traceback, never "findings" (exit 1)
        print(f"shapecheck: internal error: {type(exc).__name__}: {exc} (please report it)", file=sys.stderr)
        return EXIT_ERROR


def run_check(args: argparse.Namespace) -> int:
    from .config import UsageError, load_config, with_cli
    from .runner import collect_files, run

    for p in args.paths:
        if not os.path.exists(p):
            kind = "a broken symbolic link" if os.path.islink(p) else "no such file or folder"
            print(f"shapecheck: error: {p}: {kind}", file=sys.stderr)
            return EXIT_ERROR
    if args.config:
        cfg = load_config(pyproject=Path(args.config))
    else:
        cfg = load_config(Path(args.paths[0]) if args.paths else None)
    cfg = with_cli(cfg, args.select, args.ignore, args.extend_ignore)
    if args.exclude:
        from dataclasses import replace

        cfg = replace(cfg, extend_exclude=cfg.extend_exclude + tuple(args.exclude))
    if args.examples is not None:
        from dataclasses import replace as _replace

        cfg = _replace(cfg, examples=args.examples)
    files = collect_files(args.paths, cfg)
    docs = None
    if cfg.examples:
        from .analysis.index.examples import collect_docs

        docs = collect_docs(args.paths, cfg)
    if not files and not docs:
        # nothing checked is not a clean result: an exclude that takes everything must not turn CI green
        raise UsageError(f"no Python files to check in {' '.join(args.paths)} (after excludes)")
    # a folder named on the command line is where its files' absolute imports may resolve too (``check before/``
    # of a tree with no project marker, whose ``vit_pytorch/distill.py`` imports ``vit_pytorch.vit``), searched last
    named = [Path(p).resolve() for p in args.paths if Path(p).is_dir()]
    findings = run(files, cfg, jobs=args.jobs, use_cache=not args.no_cache, docs=docs, roots=named)
    report = sys.stdout
    if args.fix or args.diff:
        from .fix import apply_fixes

        stats: dict[str, int] = {}
        findings = apply_fixes(
            findings, write=args.fix, diff=args.diff, out=sys.stdout, config=cfg, jobs=args.jobs, stats=stats
        )
        if args.fix:
            n, m = stats.get("findings", 0), stats.get("files", 0)
            print(
                f"shapecheck: fixed {n} finding{'s' if n != 1 else ''} in {m} file{'s' if m != 1 else ''}",
                file=sys.stderr,
            )
        else:
            report = sys.stderr  # --diff: standard output carries the patch and nothing else
    if args.verify:
        from .verify import verify_findings

        findings = verify_findings(findings)
    from .hosts.formats import render

    text = render(findings, args.format, files=[str(f) for f in files])
    if args.output:
        out = Path(args.output)
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"shapecheck: error: {out}: cannot write the report ({exc.strerror or exc})", file=sys.stderr)
            return EXIT_ERROR
    else:
        report.write(text)
    if args.stats:
        print(f"shapecheck: {len(files)} files, {len(findings)} findings", file=sys.stderr)

    return EXIT_FINDINGS if findings else EXIT_CLEAN
