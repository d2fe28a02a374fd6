"""Functions and classes of the analysed code: signatures with their jaxtyping annotations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import libcst as cst

from .jaxtyping_bridge import Annotation

if TYPE_CHECKING:
    from ..interpret.module import ModuleAnalysis
    from ..interpret.values import Value


@dataclass
class Param:
    name: str
    ann: Annotation | None
    default: cst.BaseExpression | None
    kind: str  # "pos" | "posonly" | "kwonly" | "star" | "starstar"


@dataclass
class FunctionInfo:
    key: str
    node: cst.FunctionDef
    module: "ModuleAnalysis"
    params: list[Param]
    return_ann: Annotation | None
    cls_key: str | None = None
    is_static: bool = False
    is_classmethod: bool = False
    summaries: dict[Any, Any] = field(default_factory=dict)  # call signature -> (return value, findings)
    analysing: bool = False
    keeps_args: bool | None = None  # its body leaves its arguments' attributes alone (objects.keeps_arguments)
    rebound: bool = False  # a method its class body assigns again after the def (``rel = torch.vmap(rel)``)
    one_line: bool | None = None  # its body is one ``return`` of calls by name only (module.one_line_helper)

    @property
    def name(self) -> str:
        return self.node.name.value

    @property
    def annotated(self) -> bool:
        return any(p.ann is not None for p in self.params) or self.return_ann is not None

    @property
    def has_unknown_decorators(self) -> bool:
        if self.rebound:
            return True  # what the class binds under the name is not this def
        for d in self.node.decorators:
            text = d.decorator
            name = text.func if isinstance(text, cst.Call) else text
            n = name.attr.value if isinstance(name, cst.Attribute) else name.value if isinstance(name, cst.Name) else ""
            if n in _JIT_MARKS and isinstance(name, cst.Attribute) and _last_name(name.value) == "jit":
                continue  # ``@torch.jit.ignore`` / ``unused`` / ``export`` / ``script``: the same shapes as the function itself
            if n not in (
                "staticmethod",
                "classmethod",
                "jaxtyped",
                "typechecked",
                "beartype",
                "jit",
                "filter_jit",
                "wraps",
                "torch_compile",
                "compile",
                "no_grad",
                "enable_grad",
                "inference_mode",
                "property",
                "cache",
                "lru_cache",
                "checkpoint",
                "typecheck",
                "autocast",
                "overload",
                "compact",
                "nowrap",
            ):
                return True
        return False


_JIT_MARKS = frozenset({"ignore", "unused", "export", "script"})


def _last_name(node: cst.BaseExpression) -> str:
    return node.attr.value if isinstance(node, cst.Attribute) else node.value if isinstance(node, cst.Name) else ""


@dataclass
class ClassInfo:
    key: str
    node: cst.ClassDef
    module: "ModuleAnalysis"
    methods: dict[str, FunctionInfo] = field(default_factory=dict)
    attrs: dict[str, "Value"] = field(default_factory=dict)  # from __init__: self.x = ...
    bases: list[str] = field(default_factory=list)
    attrs_ready: bool = False
    decorators: list[str] = field(default_factory=list)
    body_attrs: "dict[str, Value] | None" = None  # class-body assignments (``expansion = 4``, ``dim: int = 64``)
    fields: list[tuple[str, "cst.BaseExpression | None"]] = field(default_factory=list)  # annotated class-body names
    instances: dict[Any, Any] = field(default_factory=dict)  # (argument values) -> (the object, its findings)
    building: bool = False
    mro_cache: "list[ClassInfo] | None" = None
    outside_init: "set[str] | None" = None  # self attributes a method not run by __init__ assigns


def signature_params(
    node: cst.FunctionDef, annotation_of: Callable[[cst.BaseExpression], Annotation | None]
) -> list[Param]:
    ps = node.params
    out: list[Param] = []

    def add(p: cst.Param, kind: str) -> None:
        ann = annotation_of(p.annotation.annotation) if p.annotation is not None else None
        out.append(Param(p.name.value, ann, p.default, kind))

    for p in ps.posonly_params:
        add(p, "posonly")
    for p in ps.params:
        add(p, "pos")
    if isinstance(ps.star_arg, cst.Param):
        add(ps.star_arg, "star")
    for p in ps.kwonly_params:
        add(p, "kwonly")
    if ps.star_kwarg is not None:
        add(ps.star_kwarg, "starstar")
    return out


def bind_arguments(
    params: list[Param], args: list["Value"], kwargs: dict[str, "Value"], skip_first: bool
) -> dict[str, "Value"] | None:
    """Map call arguments to parameter names (None when the call does not fit or uses *args/**kwargs)."""
    plist = params[1:] if skip_first else params
    out: dict[str, Value] = {}
    positional = [p for p in plist if p.kind in ("pos", "posonly")]
    star = next((p for p in plist if p.kind == "star"), None)
    starstar = next((p for p in plist if p.kind == "starstar"), None)
    if len(args) > len(positional) and star is None:
        return None
    for p, a in zip(positional, args):
        out[p.name] = a
    by_name = {p.name: p for p in plist if p.kind in ("pos", "kwonly")}
    extra: dict[str, Any] = {}
    for k, v in kwargs.items():
        if k in by_name and k not in out:
            out[k] = v
        elif starstar is None:
            return None
        else:
            extra[k] = v
    if starstar is not None:
        from ..interpret.values import DictV

        out[starstar.name] = DictV(tuple(extra.items()))  # **kwargs: the named arguments no parameter took
    if star is not None and len(args) >= len(positional):
        from ..interpret.values import SeqV

        out[star.name] = SeqV(tuple(args[len(positional) :]), "tuple")
    for p in plist:
        if p.name not in out and p.kind in ("pos", "posonly", "kwonly") and p.default is None:
            return None  # a required argument is missing: the call is not understood
    return out
