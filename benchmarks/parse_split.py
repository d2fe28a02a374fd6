"""Where a ``check -j 1`` run's CPU goes between the modules it checks and the modules it only imports.

    python benchmarks/parse_split.py DIR [DIR ...]

For each folder, one in-process ``shapecheck check -j 1 --no-cache`` with libcst's ``parse_module``, the project's
module loading, ``unmask`` and the module-level run wrapped: CPU time (``time.process_time``) exclusive of nested
work, split into

* ``parse:check``: the libcst parse of a checked file by its own check;
* ``parse:chk`` / ``parse:imp``: the libcst parse of a module loaded because another file imports it, which this run
  also checks / only imports (an imported-only module is parsed with its function bodies blanked);
* ``parse:unmask``: top-level statements of imported-only modules parsed whole when one of their bodies must run;
* ``run:chk`` / ``run:imp``: module-level code (aliases, wrappers, class bodies, decorators) of those modules;
* everything else (the analysis of the checked files, start-up).

Issue 11 item 6 asks whether an index built from CPython's ``ast`` for imported-only modules (libcst only when a
body must run) pays: it can save at most ``parse:imp`` + ``parse:unmask`` + part of ``run:imp``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def measure(folder: str) -> tuple[float, dict[str, float], dict[str, int], dict[str, int]]:
    import libcst

    from shapecheck.analysis.index import project as P
    from shapecheck.analysis.interpret import module as M
    from shapecheck.cli import main

    spent: dict[str, float] = {}
    count: dict[str, int] = {}
    lines: dict[str, int] = {}
    stack: list[list[Any]] = []  # [category, start, time spent in nested entries]
    loading: list[str] = []

    def push(cat: str) -> None:
        stack.append([cat, time.process_time(), 0.0])

    def pop() -> None:
        cat, start, nested = stack.pop()
        dt = time.process_time() - start
        spent[cat] = spent.get(cat, 0.0) + dt - nested
        count[cat] = count.get(cat, 0) + 1
        if stack:
            stack[-1][2] += dt

    originals = (libcst.parse_module, P.Project.module, M.ModuleAnalysis.run_module, P.unmask)
    parse_module, project_module, run_module, unmask = originals

    def parse(text: str, *a: Any, **k: Any) -> Any:
        cat = "parse:" + (loading[-1] if loading else "check")
        lines[cat] = lines.get(cat, 0) + text.count("\n")
        push(cat)
        try:
            return parse_module(text, *a, **k)
        finally:
            pop()

    def module(self: Any, name: str) -> Any:
        if name in self.modules or self.paths.get(name) is None:
            return project_module(self, name)
        loading.append("chk" if name in self.checking else "imp")
        push("load:" + loading[-1])
        try:
            return project_module(self, name)
        finally:
            pop()
            loading.pop()

    def run(self: Any) -> Any:
        checked = self.project is not None and self.module_name in getattr(self.project, "checking", ())
        loading.append("chk" if checked else "imp")
        push("run:" + loading[-1])
        try:
            return run_module(self)
        finally:
            pop()
            loading.pop()

    def unmask_(ma: Any, node: Any = None) -> Any:
        loading.append("unmask")
        push("load:unmask")
        try:
            return unmask(ma, node)
        finally:
            pop()
            loading.pop()

    targets = ((libcst, "parse_module"), (P.Project, "module"), (M.ModuleAnalysis, "run_module"), (P, "unmask"))
    for (owner, name), wrapper in zip(targets, (parse, module, run, unmask_)):
        setattr(owner, name, wrapper)
    start = time.process_time()
    try:
        main(["check", "-j", "1", "--no-cache", "--format", "json", "--output", "/dev/null", folder])
    except SystemExit:
        pass
    finally:
        for (owner, name), original in zip(targets, originals):
            setattr(owner, name, original)
    return time.process_time() - start, spent, count, lines


def main(argv: list[str]) -> int:
    for folder in argv:
        total, spent, count, lines = measure(folder)
        print(f"{Path(folder).name}: {total:.2f} s CPU")
        for cat in sorted(spent):
            if cat.startswith("load:"):
                continue  # file reading, the ast read and bookkeeping: small
            share = 100 * spent[cat] / total if total else 0.0
            extra = f", {lines[cat]} lines" if cat in lines else ""
            print(f"  {cat:13s} {spent[cat]:6.2f} s  {share:5.1f}%  ({count[cat]} calls{extra})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
