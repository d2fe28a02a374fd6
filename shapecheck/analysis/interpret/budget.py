"""A time and size budget for the analysis of one function (or one module body): generated code with tens of
thousands of statements is analysed up to the budget, then reported with SHP903 instead of taking minutes and
gigabytes.

The size budget counts the statements the interpreter runs for the function, including those of the callees it
inlines; the time budget counts CPU time of the analysing thread (a busy machine changes it little; the analysis of a
module imported on the way is not counted) and is checked every few statements. When either is spent, the rest
of the function is not analysed: what was found before stays (each finding was made with everything known at that point), nothing is
guessed about the rest, and the function's def line carries the SHP903 note.

The size budget is counted in steps: one per statement run, plus one per variable copied into the branches of an
``if`` (a function with thousands of live names and hundreds of branches costs that much). Before parsing, a
function longer than ``SHAPECHECK_FUNCTION_LINES`` lines is not analysed at all (its body is replaced, line for
line, by one ``return`` of an unknown value): the parse of a 50,000-line function alone takes most of a gigabyte.

The limits can be set with environment variables, for every host: ``SHAPECHECK_FUNCTION_STEPS`` (default
1,000,000), ``SHAPECHECK_FUNCTION_SECONDS`` (default 20) and ``SHAPECHECK_FUNCTION_LINES`` (default 5,000).
"""

from __future__ import annotations

import os
import threading
import time

from ...diagnostics.details import BudgetLimit

DEFAULT_STEPS = 1_000_000
DEFAULT_SECONDS = 20.0
DEFAULT_LINES = 5_000
_CHECK_EVERY = 64  # statements between two reads of the clock
# the CPU time of the analysing thread: read at every inlined call, and several times cheaper than the process's
# (5.3 against 0.7 microseconds a read on a Linux VM); the analysis of one function runs on one thread
_cpu_clock = getattr(time, "thread_time", time.process_time)


class BudgetExceeded(Exception):
    def __init__(self, budget: "Budget", detail: BudgetLimit) -> None:
        super().__init__(detail.render())
        self.budget, self.detail = budget, detail


def _limit(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        return default
    return value if value > 0 else default


class Budget:
    def __init__(self, steps: int | None = None, seconds: float | None = None, now: float | None = None) -> None:
        self.steps = int(steps if steps is not None else _limit("SHAPECHECK_FUNCTION_STEPS", DEFAULT_STEPS))
        self.seconds = seconds if seconds is not None else _limit("SHAPECHECK_FUNCTION_SECONDS", DEFAULT_SECONDS)
        self.used = 0
        self.checks = 0
        self.deadline = (_cpu_clock() if now is None else now) + self.seconds

    def tick(self, steps: int = 1) -> None:
        self.used += steps
        if self.used > self.steps:
            raise BudgetExceeded(self, BudgetLimit("steps", self.steps))
        self.checks += 1
        if self.checks % _CHECK_EVERY == 0 and _cpu_clock() > self.deadline:
            raise BudgetExceeded(self, BudgetLimit("seconds", self.seconds))


_LOCAL = threading.local()


def _stack() -> list[Budget]:
    stack: list[Budget] | None = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    return stack


def tick(steps: int = 1) -> None:
    """Steps spent (a statement run, variables copied): counted against the innermost budget, if any."""
    stack = getattr(_LOCAL, "stack", None)
    if stack:
        stack[-1].tick(steps)


class budgeted:
    """``with budgeted() as budget:`` a fresh budget for the analysis inside (a function analysed on its own, a module
    body). BudgetExceeded raised inside is the caller's to catch; nested budgets (a module imported while a function
    runs) are separate. A class rather than a generator context manager: one is entered per inlined call."""

    __slots__ = ("_stack", "_outer", "_started")

    def __enter__(self) -> Budget:
        self._stack = stack = _stack()
        self._outer = outer = stack[-1] if stack else None
        self._started = started = _cpu_clock()
        # a nested budget (an inlined call's, an imported module's) has the outermost one's limits: the environment is
        # read once per analysis, not once per call
        budget = Budget(outer.steps, outer.seconds, started) if outer is not None else Budget(now=started)
        stack.append(budget)
        return budget

    def __exit__(self, *exc: object) -> None:
        self._stack.pop()
        if self._outer is not None:  # the time spent in the nested analysis is not the outer function's
            self._outer.deadline += _cpu_clock() - self._started


def _max_lines() -> int:
    return int(_limit("SHAPECHECK_FUNCTION_LINES", DEFAULT_LINES))


def long_functions(text: str, max_lines: int) -> list[tuple[int, int, str, int, int]]:
    """(def line, column of the name, name, first body line, last body line) of the outermost functions whose body spans more
    than ``max_lines`` lines, from the token stream (no parse: constant memory). [] if the text does not tokenize."""
    import io
    import tokenize

    out: list[tuple[int, int, str, int, int]] = []
    depth = 0
    open_defs: list[tuple[int, int, int, str, int]] = []  # (body depth, def line, column, name, body start)
    pending: tuple[int, int, str] | None = None  # a def header seen, waiting for the INDENT of its body
    after_newline = False
    last_newline = 0
    prev = ""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            kind = tok.type
            if kind == tokenize.INDENT:
                depth += 1
                if pending is not None and after_newline:
                    open_defs.append((depth, pending[0], pending[1], pending[2], tok.start[0]))
                pending = None
            elif kind == tokenize.DEDENT:
                while open_defs and open_defs[-1][0] == depth:
                    body_depth, line, col, name, start = open_defs.pop()
                    if last_newline - start + 1 > max_lines and not any(s <= line <= e for _, _, _, s, e in out):
                        out.append((line, col, name, start, last_newline))
                depth -= 1
            elif kind == tokenize.NEWLINE:
                last_newline = tok.start[0]
                after_newline = True
                prev = ""
                continue
            elif kind in (tokenize.NL, tokenize.COMMENT):
                continue
            elif kind == tokenize.NAME and prev == "def":
                pending = (tok.start[0], tok.start[1], tok.string)
            elif after_newline and pending is not None:
                pending = None  # a one-line def (``def f(): return 1``): no body block
            if kind not in (tokenize.INDENT, tokenize.DEDENT):
                after_newline = False
            prev = tok.string if kind == tokenize.NAME else ""
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    # outermost first: a long function inside a long function is covered by the outer one
    out.sort()
    kept: list[tuple[int, int, str, int, int]] = []
    for item in out:
        if not any(k[3] <= item[0] <= k[4] for k in kept):
            kept.append(item)
    return kept


def shrink_long_functions(text: str) -> tuple[str, list[tuple[int, int, str, int]]]:
    """The text with the body of each function longer than the line budget replaced, line for line, by one
    ``return`` of an unknown value (every other line and column unchanged), and (def line, column, name, body
    lines) of each. The text itself when no function is that long."""
    limit = _max_lines()
    if text.count("\n") + 1 <= limit:
        return text, []
    found = long_functions(text, limit)
    if not found:
        return text, []
    lines = text.splitlines(keepends=True)
    notes = []
    for line, col, name, start, end in found:
        first = lines[start - 1]
        indent = first[: len(first) - len(first.lstrip(" \t"))]
        ending = first[len(first.rstrip("\r\n")) :]
        lines[start - 1] = f"{indent}return __shapecheck_not_analysed__{ending or chr(10)}"
        for i in range(start, end):
            ln = lines[i]
            lines[i] = ln[len(ln.rstrip("\r\n")) :] or "\n"
        notes.append((line, col, name, end - start + 1))
    return "".join(lines), notes
