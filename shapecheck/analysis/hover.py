"""What the IDE shows on hover: the inferred shape and dtype of the expression under the cursor."""

from __future__ import annotations

from typing import Any


from .values import IntV, SeqV, TensorV


def describe_value(v: Any, ctx: Any = None) -> str | None:
    if isinstance(v, TensorV):
        if v.shape is None and v.vshape is not None:
            prefix, _, suffix = v.vshape
            shape = "(" + ", ".join([*(str(s) for s in prefix), "...", *(str(s) for s in suffix)]) + ")"
        else:
            shape = "(?)" if v.shape is None else "(" + ", ".join(str(s) for s in v.shape) + ")"
        text = shape
        if v.dtype:
            text += f" {v.dtype}"
        if v.framework:
            text += f" [{v.framework}]"
        origins = []
        if ctx is not None and v.shape is not None:
            for s in v.shape:
                d = ctx.describe(s)
                if d and d not in origins:
                    origins.append(d)
        if v.origin is not None:
            origins.append(str(v.origin))
        if origins:
            text += "\n\n" + "\n".join(f"- {o}" for o in origins)
        return text
    if isinstance(v, IntV):
        return f"int = {v.size}"
    if isinstance(v, SeqV) and v.kind == "shape":
        return "shape (" + ", ".join(str(i.size) if isinstance(i, IntV) else "?" for i in v.items) + ")"
    return None


def hover_at(text: str, path: str, line: int, column: int, project: Any = None) -> str | None:
    """Hover text for the innermost expression at 1-based ``line`` and 0-based ``column`` (code points)."""
    from .checker import build

    analysis = build(text, path, project, record_hovers=True)
    if not hasattr(analysis, "ctx"):
        return None
    hovers = analysis.ctx.hovers
    if not hovers:
        return None
    from .positions import compute_positions

    positions = compute_positions(analysis.tree, set(hovers))
    nodes = analysis.ctx.hover_nodes
    best: tuple[int, str, str] | None = None
    for key, (sl, sc, el, ec) in positions.items():
        if (sl, sc) <= (line, column) <= (el, ec):
            desc = describe_value(hovers[key], analysis.ctx)
            if desc is None:
                continue
            span = (el - sl) * 10_000 + (ec - sc)
            label = analysis.tree.code_for_node(nodes[key])
            if best is None or span < best[0]:
                best = (span, label, desc)
    if best is None:
        return None
    _, label, desc = best
    label = label if len(label) <= 60 else label[:57] + "..."
    head, _, rest = desc.partition("\n")
    return f"{label}: {head}" + (f"\n{rest}" if rest else "")
