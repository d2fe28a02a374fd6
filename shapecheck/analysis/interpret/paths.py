"""Operations on a value that differs between paths (a join of branches): run once per path, report only what fails
on every path.

After ``if t.ndim == 1: t = rearrange(t, "n -> 1 n")`` the tensor ``t`` is (1, n) on one path and "not 1-d" on the
other; ``rearrange(t, "n -> n 1")`` fails on both, so it is a definite error. An operation that fails on one path
only is silent (the other path may be the one taken). The result is the join of the per-path results.
"""

from __future__ import annotations

import contextlib
from typing import Callable, Iterator

from .context import RAISING, Context, Pending
from .values import UNKNOWN, TensorV, Value, join


@contextlib.contextmanager
def capture(ctx: Context) -> Iterator[list[Pending]]:
    """Findings made inside are collected (not reported) into the yielded list."""
    saved_depth, saved = ctx.suppress_depth, ctx.inline_findings
    box: list[Pending] = []
    ctx.suppress_depth, ctx.inline_findings = saved_depth + 1, box
    try:
        yield box
    finally:
        ctx.suppress_depth, ctx.inline_findings = saved_depth, saved


def branching(values: list[Value]) -> int | None:
    """The position of the first value with per-path shapes, or None."""
    for i, v in enumerate(values):
        if isinstance(v, TensorV) and v.alts:
            return i
    return None


def each_path(ctx: Context, values: list[Value], run: Callable[[list[Value]], Value | None]) -> Value | None:
    """``run(values)`` once per alternative of the first branching value; what fails on every path is reported once
    (preferring a path whose finding can be replayed), and the results are joined."""
    i = branching(values)
    assert i is not None
    branched = values[i]
    assert isinstance(branched, TensorV) and branched.alts
    results: list[Value | None] = []
    failures: list[list[Pending]] = []
    for alt in branched.alts:
        with capture(ctx) as found:
            results.append(run(values[:i] + [alt] + values[i + 1 :]))
        failures.append([p for p in found if p.code.startswith(("SHP1", "SHP2"))])
    if all(failures):
        chosen = next(
            (f for f in failures if all(p.spec is not None for p in f if p.code.startswith("SHP2"))), failures[0]
        )
        n = len(branched.alts)
        for p in chosen:
            ctx.add(
                Pending(
                    p.node,
                    p.code,
                    p.fields,
                    p.notes
                    + (
                        f"it fails on each of the {n} shapes the value may have here (one per branch, or input rank, that made it)",
                    ),
                    p.witness,
                    p.span,
                    p.path,
                    p.fix,
                    p.spec,
                )
            )
    raised = [any(p.code in RAISING for p in f) for f in failures]
    if any(raised) and not all(raised):
        # a path on which the operation surely raises ends there: what follows sees only the others
        results = [r for r, up in zip(results, raised) if not up]
    if any(r is None for r in results):
        return None if all(r is None for r in results) else UNKNOWN
    out: Value = results[0]  # type: ignore[assignment]
    for r in results[1:]:
        assert r is not None
        out = join(out, r)
    return out
