"""jaxtyping annotations meet inferred values: parameters, arguments, returns and declared variables."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Protocol

import libcst as cst

from ...annotations import DimSpec, Memo, instantiate, match_shape, parse_dims
from ...annotations.dims import expr_names
from ...diagnostics.details import AnnotationMismatch, DimsSyntax, UnboundExpression
from ...sizes import Size
from ..interpret.context import LazyNote, OpSpec, Where, note
from ..index.jaxtyping_bridge import Annotation
from ..interpret.values import UNKNOWN, SeqV, TensorV, Value
from ..interpret.walk import STATEMENT_CLAUSES, children
from ..interpret.walk import memo as memo_walk

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..index.functions import FunctionInfo, Param
    from ..interpret.context import Context
    from ..interpret.interpreter import FrameInfo


class SourceLines(Protocol):
    """A module as a place in the source: its path and a node's line."""

    @property
    def path(self) -> str: ...

    def line_of(self, node: cst.CSTNode) -> int: ...


class AnnotatedModule(SourceLines, Protocol):
    """The analysed module as the annotation checks see it (``ModuleAnalysis`` implements it): its findings
    (``ctx``), tree and functions, a node's source text, how an annotation reads there, a function by key."""

    @property
    def ctx(self) -> "Context": ...

    @property
    def tree(self) -> cst.Module: ...

    @property
    def functions(self) -> "Mapping[str, FunctionInfo]": ...

    def code_for(self, node: cst.CSTNode) -> str: ...

    def annotation_of(self, node: cst.BaseExpression) -> Annotation | None: ...

    def find_function(self, key: str) -> "FunctionInfo | None": ...


@dataclass(frozen=True)
class Origin:
    """Where a size was bound; rendered lazily (line numbers cost a positions pass)."""

    module: SourceLines
    node: cst.CSTNode
    text: str
    prefix: str = "from"
    # what the value was made from, when it is where the input came from (``split(...)`` of a Dense layer's output):
    # named after it, one step back, so the note reaches the line that sized the input
    of: "Origin | None" = None
    # the layer whose call made the value was built elsewhere (``self.proj = nn.Linear(d, d * 3)``): that line, where
    # its sizes were chosen (a ``Where`` of its constructor call)
    built: Any = None

    def where(self) -> tuple[str, int]:
        return self.module.path, self.module.line_of(self.node)

    def made_from(self, earlier: object) -> "Origin":
        """This origin, made from ``earlier`` (an Origin: kept with at most one step of its own, so a long chain of
        ops holds no long chain of origins, nor the nodes of the modules they name)."""
        if type(earlier) is not Origin:
            return self
        back = earlier.of
        if back is not None and back.of is not None:
            earlier = replace(earlier, of=replace(back, of=None))
        return replace(self, of=earlier)

    def __str__(self) -> str:
        path, line = self.where()
        here = f"{self.prefix} {self.text} at {path}:{line}"
        built, layer = self.built, ""
        of, steps = self.of, 3
        # one step back to another line (``split(temb[:, None], 2)``: the subscript on the same line is skipped)
        while of is not None and steps and of.where() == (path, line):
            if built is None and of.built is not None:  # (``self.proj(x)[:, 1:]``: the layer's line)
                built, layer = of.built, of.text
            of, steps = of.of, steps - 1
        if built is not None:
            made = str(built)  # (a Where: ``path:line``)
            if made != f"{path}:{line}":
                here += f", of {layer} built at {made}" if layer else f" (built at {made})"
        if of is None or not steps:
            return here
        of_path, of_line = of.where()
        return f"{here}, of {of.text} at {of_path}:{of_line}"


class UnverifiedOrigin(Origin):
    """A callee's return annotation taken for a call that handed a scalar array parameter or a callable parameter
    (``_loose_params``) a value of unknown shape: the annotation is all that says what comes back, and nothing
    checked that call against it (an elementwise helper annotated ``"" -> ""`` applied to a vector, a ``-> "n p"``
    whose body returns (n,) for the callable passed). A definite finding that rests on such a shape may be the
    callee's annotation's fault rather than the caller's, so none is reported (``Context.add``)."""

    unverified = True


def shape_text(shape: tuple[Size, ...] | None) -> str:
    if shape is None:
        return "(?)"
    return "(" + ", ".join(str(s) for s in shape) + ")"


def shape_note(lead: str, shape: tuple[Size, ...] | None, origin: object = None) -> "str | LazyNote":
    """``{lead} (2, 64)``, and where that shape was made when it is known: one operand's note of a finding."""
    return note(f"{lead} {shape_text(shape)}", *((" ", origin) if origin is not None else ()))


_SPECS: dict[str, DimSpec | str] = {}


def annotation_spec(ann: Annotation) -> DimSpec | None:
    """The parsed dims of a jaxtyping annotation (None when they do not parse), parsed once per process."""
    s = _SPECS.get(ann.dims)
    if s is None:
        s = _SPECS[ann.dims] = parse_dims(ann.dims)
    return s if isinstance(s, DimSpec) else None


def _loose_params(fi: "FunctionInfo") -> frozenset[str]:
    """The parameters of ``fi`` whose annotation does not pin what an argument of unknown shape makes of the return
    annotation: an array of rank 0 or a plain scalar (``x: Shaped[Array, ""] | float``, which jax code applies
    elementwise to arrays of any rank) and a callable (``target_map: Callable[["n p"], "n p"]``, or an unannotated
    ``target_map=lambda x: x``, handed a function that returns another rank). An array parameter of rank >= 1
    handed an unknown array is the annotation's contract with its callers, and the return annotation stands for
    it."""
    out = []
    nodes = {
        q.name.value: q for q in (*fi.node.params.posonly_params, *fi.node.params.params, *fi.node.params.kwonly_params)
    }
    for p in fi.params:
        spec = annotation_spec(p.ann) if p.ann is not None else None
        node = nodes.get(p.name)
        if (
            (spec is not None and not spec.dims and spec.variadic_index is None)
            or (node is not None and node.annotation is not None and _loose_annotation(node.annotation.annotation))
            or (node is not None and node.annotation is None and isinstance(node.default, cst.Lambda))
        ):
            out.append(p.name)
    return frozenset(out)


def _loose_annotation(ann: cst.BaseExpression, in_union: bool = False) -> bool:
    """``Callable[...]``, ``Optional[Callable]``, or a union with a plain scalar (``Union[Shaped[Array, ""], float]``,
    ``Array | float``); a plain ``eps: float`` alone is a setting, not an array of unknown rank."""
    if isinstance(ann, cst.BinaryOperation) and isinstance(ann.operator, cst.BitOr):
        return _loose_annotation(ann.left, True) or _loose_annotation(ann.right, True)
    if isinstance(ann, cst.Subscript):
        head = ann.value
        name = head.attr.value if isinstance(head, cst.Attribute) else head.value if isinstance(head, cst.Name) else ""
        if name in ("Optional", "Union"):
            return any(
                isinstance(e.slice, cst.Index) and _loose_annotation(e.slice.value, name == "Union") for e in ann.slice
            )
        return name == "Callable"
    name = ann.attr.value if isinstance(ann, cst.Attribute) else ann.value if isinstance(ann, cst.Name) else ""
    return name == "Callable" or (in_union and name in ("float", "int", "complex", "bool"))


def _tuple_return_annotations(source: AnnotatedModule, fi: "FunctionInfo") -> "tuple[Annotation | None, ...] | None":
    """The element annotations of a ``-> tuple[A, B]`` / ``Tuple[A, B]`` return annotation (None for an element that
    is no array annotation); None for any other return annotation (``tuple[T, ...]`` included). Read once per
    function (its state)."""
    from ..interpret.state import function_state

    returns = fi.node.returns
    if returns is None or fi.return_ann is not None:
        return None
    state = function_state(fi)
    if state.tuple_returns is None:
        ann = returns.annotation
        out: tuple[Annotation | None, ...] = ()
        head = ann.value if type(ann) is cst.Subscript else None
        name = head.value if type(head) is cst.Name else head.attr.value if type(head) is cst.Attribute else ""
        if name in ("tuple", "Tuple") and type(ann) is cst.Subscript:
            elems = [e.slice for e in ann.slice]
            if all(type(e) is cst.Index and type(e.value) is not cst.Ellipsis for e in elems):
                out = tuple(source.annotation_of(e.value) for e in elems)  # type: ignore[attr-defined]
                if all(a is None for a in out):
                    out = ()
        state.tuple_returns = out
    return state.tuple_returns or None


class _Signed(NamedTuple):
    """A nested function's signature, read for the annotation-string check."""

    node: cst.FunctionDef
    params: "tuple[Param, ...]"
    return_ann: Annotation | None


# jaxtyping's integer classes of no fixed width, as the array an annotation of them declares holds it
_INTEGER_CLASS_DTYPES = {
    ("Int", "jax"): "int32",
    ("Integer", "jax"): "int32",
    ("Int", "numpy"): "int64",
    ("Integer", "numpy"): "int64",
    ("Int", "torch"): "int64",
}


class ShapeChecks:
    """jaxtyping annotations of one module checked against values: parameters, call arguments, returns, declared
    variables, and the annotation strings themselves. It sees the module only as an :class:`AnnotatedModule`."""

    def __init__(self, source: AnnotatedModule) -> None:
        self.source = source
        self.ctx = source.ctx

    def spec(self, ann: Annotation) -> DimSpec | None:
        return annotation_spec(ann)

    def new_memo(self) -> Memo:
        return Memo()

    def _fresh(self, scope: str, origin: Origin | None) -> Callable[[str], Size]:
        def fresh(name: str) -> Size:
            return self.ctx.scoped(name, scope, origin) if scope else self.ctx.fresh(name, origin)

        return fresh

    def from_annotation(self, ann: Annotation, memo: Memo, scope: str, where: str, node: cst.CSTNode) -> Value:
        spec = self.spec(ann)
        # ``Int[Array, " e"]``: signed integers of the framework's default width, so such an array indexes as a
        # gather (``h[senders]``), never as a mask (torch reads uint8 as one: its ``UInt`` stays unknown)
        dtype = ann.dtype or _INTEGER_CLASS_DTYPES.get((ann.dtype_class, ann.framework or ""))
        if spec is None:
            return TensorV(None, dtype, ann.framework)
        origin = Origin(self.source, node, where)
        shape = instantiate(spec, memo, self._fresh(scope, origin))
        if shape is None:
            return TensorV(None, dtype, ann.framework, origin=origin)
        return TensorV(tuple(shape), dtype, ann.framework, axes_of(spec), origin)

    def bind_param(self, memo: Memo, ann: Annotation, value: TensorV, scope: str) -> None:
        spec = self.spec(ann)
        if spec is not None and value.shape is not None:
            match_shape(spec, value.shape, memo, fresh=self._fresh(scope, None))

    # -------------------------------------------------------------- calls to annotated functions
    def check_call_arguments(
        self, node: cst.Call, fi: "FunctionInfo", bound: dict[str, Value]
    ) -> tuple[bool, Memo, bool]:
        """The arguments of a call checked against the parameters' annotations: whether they pass, the sizes they
        bind, and whether the return annotation stands for this call: not when a scalar array or callable parameter
        (``_loose_params``) was handed a value of unknown shape (the declared return is then ``UnverifiedOrigin``)."""
        memo = Memo()
        verified = True
        loose: frozenset[str] | None = None
        open_names: set[str] = set()
        for p in fi.params:
            if p.name not in bound:
                continue
            arg = bound[p.name]
            if verified and (arg is UNKNOWN or (isinstance(arg, TensorV) and arg.shape is None)):
                loose = _loose_params(fi) if loose is None else loose
                # unverified: a scalar parameter handed an array that may have any rank, a callable parameter
                # handed a function nothing is known of
                verified = p.name not in loose
            if p.ann is None:
                continue
            spec = annotation_spec(p.ann)
            if spec is None:
                continue
            if not isinstance(arg, TensorV) or arg.shape is None:
                # a broadcast variadic (``*#batch``) is the broadcast of every array it matches, this one's shape
                # included: not known (``safe_divide(num, den) -> "*batch"`` with den unknown is not num's shape)
                open_names.update(d.name for d in spec.dims if d.kind == "variadic" and d.broadcast and d.name)
                continue
            if _other_rank_taken(fi, p.name, spec, arg.shape):
                # ``if img.ndim == 2: img = img[None]`` under ``img: Float[Array, "c h w"]``: the body takes other
                # ranks itself, so the annotation's rank is no contract (jaxtyping would raise; the code runs), nor
                # is the return annotation's for this call
                verified = False
                continue
            res = match_shape(spec, arg.shape, memo, origin=f"argument {p.name!r}", fresh=self._fresh("", None))
            if res.ok is False and res.problem is not None:
                code, fields = res.problem
                notes = [shape_note("the argument has shape", arg.shape, arg.origin)]
                notes.append(note(f"parameter {p.name}: {p.ann.text} of {fi.name}() at ", Where(fi.module, fi.node)))
                if p.ann.dtype_class == "Key" and arg.dtype == "uint32":
                    notes.append(_RAW_KEY_FIX)
                # the cause is the matcher's own code and fields, quoted by the detail's renderer
                self.ctx.report(
                    node,
                    "SHP205",
                    {"param": p.name, "func": fi.name, "detail": AnnotationMismatch(code, tuple(fields.items()))},
                    notes,
                    spec=OpSpec(
                        "annotation",
                        None,
                        _bound_shapes(fi, bound, p.name) + (arg.shape,),
                        (),
                        (("dims", p.ann.dims), ("params", _param_dims(fi, bound, p.name))),
                    ),
                )
                return False, memo, verified
        for name in open_names:
            memo.variadic.pop(name, None)
            memo.variadic_broadcast.pop(name, None)
        return True, memo, verified

    def takes_other_ranks(self, fi: "FunctionInfo", args: dict[str, Value]) -> bool:
        """Is an argument of another rank than its parameter's annotation handed to a body that reads that
        parameter's rank (``check_call_arguments`` does not check it)? The annotations then are no contract for this
        call: its return is not checked against the return annotation either."""
        for p in fi.params:
            arg = args.get(p.name)
            if p.ann is None or not isinstance(arg, TensorV) or arg.shape is None:
                continue
            spec = annotation_spec(p.ann)
            if spec is not None and _other_rank_taken(fi, p.name, spec, arg.shape):
                return True
        return False

    def check_fields(
        self, node: cst.Call, cls_name: str, where: str, fields: list[tuple[str, Annotation, tuple[Size, ...]]]
    ) -> bool:
        """A ``jaxtyped(typechecker=...)`` dataclass built: its fields' annotations checked in order against one
        memo, as jaxtyping checks the constructor's arguments (an axis name of two fields is one size)."""
        memo = Memo()
        done: list[tuple[str, Annotation, tuple[Size, ...]]] = []
        for name, ann, shape in fields:
            spec = annotation_spec(ann)
            if spec is None:
                continue
            res = match_shape(spec, shape, memo, origin=f"argument {name!r}", fresh=self._fresh("", None))
            if res.ok is False and res.problem is not None:
                code, detail = res.problem
                self.ctx.report(
                    node,
                    "SHP205",
                    {"param": name, "func": cls_name, "detail": AnnotationMismatch(code, tuple(detail.items()))},
                    [
                        f"the argument has shape {shape_text(shape)}",
                        f"field {name}: {ann.text} of {cls_name} at {where}",
                    ],
                    spec=OpSpec(
                        "annotation",
                        None,
                        tuple(s for _, _, s in done) + (shape,),
                        (),
                        (("dims", ann.dims), ("params", tuple((n, a.dims) for n, a, _ in done) + ((name, ann.dims),))),
                    ),
                )
                return False
            done.append((name, ann, shape))
        return True

    def declared_return(self, fi: "FunctionInfo", memo: Memo | None, verified: bool = True) -> Value:
        ann = fi.return_ann
        if ann is None:
            return TensorV(None)
        spec = annotation_spec(ann)
        if spec is None:
            return TensorV(None, ann.dtype, ann.framework)
        origin = (Origin if verified else UnverifiedOrigin)(
            fi.module, fi.node, f"the return annotation {ann.text} of {fi.name}()"
        )
        shape = instantiate(spec, memo or Memo(), self._fresh("", origin))
        if shape is None:
            return TensorV(None, ann.dtype, ann.framework)
        return TensorV(tuple(shape), ann.dtype, ann.framework, axes_of(spec), origin)

    # -------------------------------------------------------------- returns and declared variables
    def check_return(self, stmt: cst.Return, value: Value, frame: "FrameInfo") -> None:
        ann = frame.return_ann
        if ann is None and frame.memo is not None and isinstance(value, SeqV) and value.kind == "tuple":
            self._check_tuple_return(stmt, value, frame)
            return
        if ann is None or not isinstance(value, TensorV) or value.shape is None or frame.memo is None:
            return
        spec = self.spec(ann)
        if spec is None:
            return
        memo = frame.memo.copy()
        res = match_shape(spec, value.shape, memo, fresh=self._fresh(frame.key, None))
        if res.ok is False and res.problem is not None:
            code, fields = res.problem
            fi = self.source.find_function(frame.key)
            name = fi.name if fi is not None else frame.key
            notes = [shape_note("the returned value has shape", value.shape, value.origin)]
            if fi is not None:
                notes.append(note(f"return annotation {ann.text} at ", Where(self.source, fi.node)))
            self.ctx.report(
                stmt,
                "SHP206",
                {"func": name, "detail": AnnotationMismatch(code, tuple(fields.items()))},
                notes,
                spec=OpSpec(
                    "annotation", None, (value.shape,), (), (("dims", ann.dims), ("memo", _memo_items(frame.memo)))
                ),
            )

    def _check_tuple_return(self, stmt: cst.Return, value: SeqV, frame: "FrameInfo") -> None:
        """``-> tuple[Float[Tensor, "b n c"], Float[Tensor, "b n 1"]]``: each returned array against its element's
        annotation, in order, with the dimensions the arguments bound and those earlier elements bind (jaxtyping checks
        the whole return value in one context). Elements that are not array annotations, and a tuple of another
        length, are not checked."""
        fi = self.source.find_function(frame.key)
        items = _tuple_return_annotations(self.source, fi) if fi is not None else None
        if items is None or len(items) != len(value.items) or frame.memo is None:
            return
        memo = frame.memo.copy()
        for i, (ann, v) in enumerate(zip(items, value.items)):
            spec = self.spec(ann) if ann is not None else None
            if spec is None or not isinstance(v, TensorV) or v.shape is None:
                continue
            res = match_shape(spec, v.shape, memo, fresh=self._fresh(frame.key, None))
            if res.ok is False and res.problem is not None:
                code, fields = res.problem
                notes = [
                    shape_note(f"element #{i} of the returned tuple has shape", v.shape, v.origin),
                    note(f"its annotation {ann.text} at ", Where(self.source, fi.node.returns or fi.node)),  # type: ignore[union-attr]
                ]
                self.ctx.report(
                    stmt,
                    "SHP206",
                    {"func": fi.name, "detail": AnnotationMismatch(code, tuple(fields.items()))},  # type: ignore[union-attr]
                    notes,
                    spec=OpSpec(
                        "annotation",
                        None,
                        (v.shape,),
                        (),
                        (("dims", ann.dims), ("memo", _memo_items(frame.memo))),  # type: ignore[union-attr]
                    ),
                )
                return

    def check_declared(self, stmt: cst.AnnAssign, ann: Annotation, value: Value, frame: "FrameInfo") -> Value:
        spec = self.spec(ann)
        if spec is None:
            return TensorV(None, ann.dtype, ann.framework)
        memo = frame.memo if frame.memo is not None else Memo()
        if isinstance(value, TensorV) and value.shape is not None:
            res = match_shape(spec, value.shape, memo, fresh=self._fresh(frame.key, None))
            if res.ok is False and res.problem is not None:
                code, fields = res.problem
                notes = [
                    f"declared as {ann.text}",
                    shape_note("the value has shape", value.shape, value.origin),
                ]
                self.ctx.report(
                    stmt,
                    code,
                    fields,
                    notes,
                    spec=OpSpec(
                        "annotation", None, (value.shape,), (), (("dims", ann.dims), ("memo", _memo_items(memo)))
                    ),
                )
                return TensorV(None, ann.dtype, ann.framework)
            return value
        origin = Origin(self.source, stmt, f"{self.source.code_for(stmt.target)}: {ann.text}")
        shape = instantiate(spec, memo, self._fresh(frame.key, origin))
        return TensorV(
            tuple(shape) if shape is not None else None,
            ann.dtype,
            ann.framework,
            axes_of(spec) if shape is not None else None,
            origin,
        )

    # -------------------------------------------------------------- annotation strings themselves (SHP110)
    def check_annotation_strings(self) -> None:
        seen: set[int] = set()
        signed: list[FunctionInfo | _Signed] = [*self.source.functions.values(), *self._nested_functions()]
        for fi in signed:
            bound: set[str] = set()
            anns: list[tuple[Annotation, cst.CSTNode]] = []
            for p in fi.params:
                if p.ann is not None:
                    anns.append((p.ann, self._param_node(fi, p.name) or fi.node))
            if fi.return_ann is not None and fi.node.returns is not None:
                anns.append((fi.return_ann, fi.node.returns))
            for ann, node in anns:
                seen.add(id(node))
                spec_or_reason = parse_dims(ann.dims)
                if isinstance(spec_or_reason, str):
                    self.ctx.report(node, "SHP110", {"annotation": ann.dims, "detail": DimsSyntax(spec_or_reason)})
                    continue
                spec = spec_or_reason
                reported = False
                for d in spec.check_order():
                    missing = expr_names(d) - bound
                    if d.kind == "expr" and missing:
                        # jaxtyping raises here; one report per annotation. Its later names still count as bound
                        # for the later parameters: they are written there, and fixing this expression binds them
                        # (no second report for the same root cause: `n+1 m` then `2*m`).
                        if not reported:
                            self.ctx.report(
                                node,
                                "SHP110",
                                {
                                    "annotation": ann.dims,
                                    "detail": UnboundExpression(str(d.name), tuple(sorted(missing))),
                                },
                            )
                        reported = True
                        continue
                    if d.kind == "named" and d.name:
                        bound.add(d.name)

    def _nested_functions(self) -> list[_Signed]:
        """Functions defined inside functions (closures, local helpers, methods of local classes): the module's
        function table holds them only once their ``def`` runs, after this check."""
        from ..index.functions import signature_params
        from ..interpret.walk import children

        src = self.source
        known = {id(fi.node) for fi in src.functions.values()}
        out: list[_Signed] = []
        stack: list[cst.CSTNode] = [src.tree]
        while stack:
            node = stack.pop()
            if type(node) is cst.FunctionDef and id(node) not in known:
                ret = node.returns
                params = signature_params(node, src.annotation_of)
                out.append(_Signed(node, params, src.annotation_of(ret.annotation) if ret is not None else None))
            if type(node) in _STATEMENT_CONTAINERS:  # exact types: libcst's classes are ABCs (slow isinstance)
                stack.extend(children(node))
        return out

    def _param_node(self, fi: "FunctionInfo | _Signed", name: str) -> cst.CSTNode | None:
        ps = fi.node.params
        for p in [*ps.posonly_params, *ps.params, *ps.kwonly_params]:
            if p.name.value == name and p.annotation is not None:
                return p.annotation
        if type(ps.star_arg) is cst.Param and ps.star_arg.name.value == name:
            return ps.star_arg.annotation
        return None


def axes_of(spec: DimSpec) -> tuple[str | None, ...] | None:
    if spec.variadic_index is not None:
        return None
    return tuple(d.name if d.kind == "named" else None for d in spec.dims)


def _param_dims(fi: "FunctionInfo", bound: dict[str, Value], upto: str) -> tuple[tuple[str, str], ...]:
    """(param name, dims string) of the annotated tensor parameters checked before (and including) ``upto``."""
    out = []
    for p in fi.params:
        if (
            p.ann is not None
            and p.name in bound
            and isinstance(bound[p.name], TensorV)
            and bound[p.name].shape is not None  # type: ignore[union-attr]
        ):
            out.append((p.name, p.ann.dims))
        if p.name == upto:
            break
    return tuple(out)


# a raw key (``jax.random.PRNGKey``: uint32, one axis) handed to a ``Key[...]`` parameter: jaxtyping's ``Key`` describes
# the typed keys of ``jax.random.key`` (scalars of a key dtype), and rejects a raw key whatever the dims say
_RAW_KEY_FIX = (
    "jax.random.PRNGKey makes a raw uint32 key (shape (2,) with the default PRNG); Key[...] describes the typed keys of "
    'jax.random.key(seed): make the key with jax.random.key, or annotate the parameter PRNGKeyArray (or UInt32[Array, "2"])'
)


def _bound_shapes(fi: "FunctionInfo", bound: dict[str, Value], upto: str) -> tuple[tuple[Size, ...], ...]:
    """Shapes of the annotated parameters checked before ``upto`` (they bind the memo the failing one meets)."""
    out = []
    for p in fi.params:
        if p.name == upto:
            break
        v = bound.get(p.name)
        if p.ann is not None and isinstance(v, TensorV) and v.shape is not None:
            out.append(v.shape)
    return tuple(out)


def _memo_items(memo: Memo | None) -> tuple[tuple[str, Size], ...]:
    return tuple(sorted(memo.single.items())) if memo is not None else ()


# where a nested ``def`` may stand: a module, a function or class body, and every compound statement's clauses
_STATEMENT_CONTAINERS = STATEMENT_CLAUSES | {cst.Module, cst.FunctionDef, cst.ClassDef}


def _other_rank_taken(fi: "FunctionInfo", name: str, spec: DimSpec, shape: tuple[Size, ...]) -> bool:
    """Is ``shape`` of another rank than parameter ``name``'s fixed-rank annotation ``spec``, in a function whose body
    reads that parameter's rank (it takes other ranks itself)?"""
    return (
        spec.variadic_index is None
        and len(spec.dims) != len(shape)
        and name in memo_walk("rank-tested-params", fi.node, _rank_tested_params)
    )


def _rank_tested_params(fn: cst.CSTNode) -> frozenset[str]:
    """The names whose rank the function's body reads (``x.ndim``, ``x.dim()``, ``x.ndimension()``,
    ``len(x.shape)``: narrowing's rank tests): a parameter the code handles at several ranks."""
    from ..interpret.narrowing import rank_subject

    out: set[str] = set()
    stack: list[cst.CSTNode] = [fn]
    while stack:
        n = stack.pop()
        if type(n) is cst.Attribute or type(n) is cst.Call:
            subject = rank_subject(n)
            if subject is not None:
                out.add(subject)
        stack.extend(children(n))
    return frozenset(out)
