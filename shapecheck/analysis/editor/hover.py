"""What the IDE shows: the inferred shape of the expression under the cursor (hover), and after each tensor
assignment (inlay hints).

Both read the values the analysis recorded for the nodes it evaluated (``Context.hovers``), so they show whatever
the analyser infers today: annotated parameters (also at their ``def``), einops and framework results, ``self.*``
attributes, layer and module outputs. Nothing here re-analyses: an index is built once per analysed version.
"""

from __future__ import annotations

from typing import Any, Iterable

import libcst as cst

from ..interpret.values import IntV, LayerV, ObjV, SeqV, TensorV


def shape_text(v: TensorV) -> str:
    if v.shape is None and v.vshape is not None:
        prefix, _, suffix = v.vshape
        return "(" + ", ".join([*(str(s) for s in prefix), "...", *(str(s) for s in suffix)]) + ")"
    return "(?)" if v.shape is None else "(" + ", ".join(str(s) for s in v.shape) + ")"


def _short(v: Any, depth: int = 0) -> str:
    """A layer parameter or attribute value in a few characters."""
    if isinstance(v, IntV):
        return str(v.size)
    if isinstance(v, TensorV):
        return "tensor " + shape_text(v)
    if isinstance(v, LayerV):
        if depth:
            return v.kind
        params = [(k, p) for k, p in v.params if k != "layers"][:4]
        return f"{v.kind}(" + ", ".join(f"{k}={_short(p, depth + 1)}" for k, p in params) + ")"
    if isinstance(v, ObjV):
        return v.cls_key.rpartition(":")[2]
    if isinstance(v, (list, tuple)) and depth < 2:
        inner = ", ".join(_short(x, depth + 1) for x in list(v)[:6])
        return f"({inner}{', ...' if len(v) > 6 else ''})"
    if isinstance(v, (int, float, str, bool)) or type(v).__name__ == "Size":
        return str(v)
    return "?"


def describe_value(v: Any, ctx: Any = None) -> str | None:
    if isinstance(v, TensorV):
        text = shape_text(v)
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
    if isinstance(v, SeqV) and any(isinstance(i, TensorV) for i in v.items):
        return "(" + ", ".join(shape_text(i) if isinstance(i, TensorV) else "?" for i in v.items) + ")"
    if isinstance(v, LayerV):
        params = [(k, p) for k, p in v.params if k not in ("layers", "home")]
        text = f"{v.kind}(" + ", ".join(f"{k}={_short(p)}" for k, p in params[:6]) + ")"
        layers = v.param("layers")
        if isinstance(layers, (list, tuple)):
            text += "\n\n" + "\n".join(f"- {_short(x)}" for x in list(layers)[:12])
        return text
    if isinstance(v, ObjV):
        name = v.cls_key.rpartition(":")[2]
        known = [(k, x) for k, x in v.attrs if isinstance(x, (TensorV, LayerV, IntV, ObjV)) and not k.endswith("?")]
        text = f"{name} instance"
        if known:
            text += "\n\n" + "\n".join(f"- {k}: {_short(x)}" for k, x in known[:12])
        return text
    return None


Span = tuple[int, int, int, int]  # 1-based lines, 0-based code-point columns, end exclusive


class HoverIndex:
    """Hover texts and inlay hints of one analysed version, found by position without re-analysing."""

    def __init__(
        self,
        analysis: Any,
        spans: Iterable[dict[int, tuple[int, int, int, int]]],
        targets: Iterable[tuple[cst.CSTNode, cst.BaseExpression | None]] = (),
        attributes: Iterable[tuple[cst.Attribute, cst.ClassDef]] = (),
    ) -> None:
        ctx = analysis.ctx
        self.analysis = analysis
        self.ctx = ctx
        self.values: dict[int, Any] = dict(ctx.hovers)
        self.nodes: dict[int, Any] = dict(ctx.hover_nodes)
        self.spans: dict[int, Span] = {}
        # ``self.x = value`` and single-target assignments: the target shows the value of its right-hand side
        self.targets: list[int] = []
        for target, value in targets:
            for t in _names(target):
                if (
                    id(t) not in self.values
                    and value is not None
                    and id(value) in self.values
                    and type(t) is cst.Attribute
                ):
                    self.values[id(t)] = self.values[id(value)]
                    self.nodes[id(t)] = t
                if id(t) in self.values:
                    self.targets.append(id(t))
        # ``self.x`` the analysis did not evaluate itself (a method's callee, ``self.x(...)``): the attribute's
        # value as the analyser knows it for the class (what ``__init__`` assigned, or a method)
        classes = {id(ci.node): ci.key for ci in analysis.classes.values()}
        for attr, cls in attributes:
            if id(attr) not in self.values and id(cls) in classes:
                try:
                    v = analysis.class_attr(classes[id(cls)], attr.attr.value)
                except Exception:
                    continue
                if describe_value(v) is not None:
                    self.values[id(attr)] = v
                    self.nodes[id(attr)] = attr
        self.by_line: dict[int, list[tuple[Span, int]]] = {}
        for spans_of_chunk in spans:
            for key in spans_of_chunk.keys() & self.values.keys():
                a, b, c, d = spans_of_chunk[key]
                span = (a, b - 1, c, d - 1)
                self.spans[key] = span
                for line in range(a, min(c, a + 200) + 1):
                    self.by_line.setdefault(line, []).append((span, key))

    def at(self, line: int, column: int) -> str | None:
        """Hover text for the innermost expression at 1-based ``line`` and 0-based ``column`` (code points)."""
        best: tuple[int, int] | None = None
        for (sl, sc, el, ec), key in self.by_line.get(line, ()):
            if (sl, sc) <= (line, column) <= (el, ec):
                if describe_value(self.values[key], None) is None:
                    continue
                size = (el - sl) * 10_000 + (ec - sc)
                if best is None or size < best[0]:
                    best = (size, key)
        if best is None:
            return None
        key = best[1]
        desc = describe_value(self.values[key], self.ctx) or ""
        label = self.analysis.tree.code_for_node(self.nodes[key])
        label = label if len(label) <= 60 else label[:57] + "..."
        head, _, rest = desc.partition("\n")
        return f"{label}: {head}" + (f"\n{rest}" if rest else "")

    def inlay_hints(self, first_line: int = 1, last_line: int = 1 << 30) -> list[tuple[int, int, str]]:
        """(1-based line, 0-based column, label) after each assignment target holding a tensor of known rank."""
        out = []
        for key in self.targets:
            v = self.values[key]
            span = self.spans.get(key)
            if span is None or not isinstance(v, TensorV) or (v.shape is None and v.vshape is None):
                continue
            if first_line <= span[2] <= last_line:
                out.append((span[2], span[3], ": " + shape_text(v)))
        out.sort()
        return out


def _names(target: cst.CSTNode) -> list[cst.CSTNode]:
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _names(e.value)]
    if type(target) is cst.StarredElement:
        return _names(target.value)
    if type(target) in (cst.Name, cst.Attribute):
        return [target]
    return []


def hover_at(text: str, path: str, line: int, column: int, project: Any = None) -> str | None:
    """Hover text for one position of a source text (analyses it: hosts that hover repeatedly keep an index)."""
    from .incremental import Document

    result = Document().analyse(text, path, project)
    if result is None:
        return None
    return index_of(result).at(line, column)


def index_of(result: Any) -> HoverIndex:
    """The hover index of an ``incremental.Result``."""
    return HoverIndex(
        result.analysis,
        [c.positions(off) for off, c in result.chunks],
        [t for _, c in result.chunks for t in c.walk()[1]],
        [a for _, c in result.chunks for a in c.walk()[2]],
    )


def inferred_values(text: str, path: str = "<string>.py", project: Any = None) -> tuple[dict[str, Any], list[Any]]:
    """The inferred value of every module-level variable and the findings, from one analysis of ``text`` (never executed).

    A variable's value is the one it holds after the module's last statement (a name re-bound to an unknown value
    keeps its last known one). A file that does not parse: ``({}, [its SHP901])``.
    """
    from ...diagnostics import Finding
    from ..report.checker import build, findings_of

    analysis = build(text, path, project)
    if isinstance(analysis, Finding):
        return {}, [analysis]
    return dict(analysis.globals), findings_of(analysis)
