"""einops calls and layers: validate the pattern (SHP1xx) and apply it to the inferred shapes (SHP2xx)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from ... import pattern as P
from ...diagnostics import details as D
from ...sizes import Size
from ..interpret.context import MadeUp, OpSpec
from .precision import check_einops_reduction
from .shapes_bridge import Origin, shape_text
from ..interpret.values import UNKNOWN, DictV, FuncV, IntV, LayerV, RefV, SeqV, StrV, TensorV, Value

if TYPE_CHECKING:
    from ..interpret.interpreter import Interpreter
    from ..interpret.module import ModuleAnalysis

FUNCTIONS = {"rearrange", "reduce", "repeat", "pack", "unpack", "einsum", "parse_shape"}
LAYERS = {"Rearrange", "Reduce", "EinMix"}
_IDENT = re.compile(r"[^\W\d]\w*")


def _operation(qual: str) -> str | None:
    parts = qual.split(".")
    if parts[0] != "einops":
        return None
    name = parts[-1]
    if name in FUNCTIONS and (len(parts) == 2 or parts[1] in ("einops", "packing", "array_api")):
        return name
    if name in LAYERS and len(parts) >= 3 and parts[1] in ("layers", "experimental"):
        return name
    return None


def _opaque_reduction(tensor: Any, axes: Any) -> Any:
    """Stands for a reduction callable of the analysed code (never called)."""
    raise AssertionError("never called")


def _reduction(value: Value) -> tuple[str | None, bool]:
    """(the reduction's name, whether it is a callable of the analysed code); (None, False) when unknown."""
    if isinstance(value, StrV):
        return value.value, False
    return None, isinstance(value, (FuncV, RefV))


def _identifiers(pattern: str) -> tuple[str, ...]:
    return tuple(sorted(set(_IDENT.findall(pattern))))


def output_axes(pattern: str) -> tuple[str | None, ...] | None:
    """Axis names of the output, when each output group is a single named axis."""
    if "->" not in pattern or pattern.count("->") != 1:
        return None
    right = pattern.split("->")[1]
    if "(" in right or "..." in right or "…" in right:
        return None
    toks = right.split()
    if not all(_IDENT.fullmatch(t) for t in toks):
        return None
    return tuple(toks)


class EinopsCalls:
    def __init__(self, module: "ModuleAnalysis") -> None:
        self.m = module
        self.ctx = module.ctx

    # ------------------------------------------------------------------ entry
    def call(
        self,
        interp: "Interpreter",
        node: cst.Call,
        qual: str,
        args: list[Value],
        kwargs: dict[str, Value],
        dynamic: bool,
    ) -> Value | None:
        op = _operation(qual)
        if op is None:
            return None
        from ..interpret.paths import branching, each_path

        if branching(args) is not None:
            return each_path(self.ctx, args, lambda a: self.call(interp, node, qual, a, kwargs, dynamic))
        if op in LAYERS:
            if qual.split(".")[2:3] == ["flax"]:
                return self._flax_layer(interp, node, op, args, kwargs, dynamic)
            layer = self.layer(node, op, args, kwargs, dynamic)
            if qual.split(".")[2:3] in (["keras"], ["tensorflow"]):  # a Keras layer: the dtype policy applies
                from .frameworks import keras_compute_dtype, with_compute_dtype

                return with_compute_dtype(layer, keras_compute_dtype(self.m.ops, {}))
            return layer
        handler = getattr(self, f"_{op}")
        result: Value = handler(node, args, kwargs, dynamic)
        return result

    # ------------------------------------------------------------------ helpers
    def _report(
        self, node: cst.CSTNode, problem: P.Problem, notes: list[str] | tuple[str, ...] = (), spec: OpSpec | None = None
    ) -> None:
        self.ctx.report(
            node,
            problem.code,
            dict(problem.fields),
            tuple(notes),
            spec=spec if problem.code.startswith("SHP2") else None,
        )

    def _lengths(self, kwargs: dict[str, Value], exclude: tuple[str, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in kwargs.items():
            if k in exclude:
                continue
            if isinstance(v, IntV):
                out[k] = v.size
            else:
                out[k] = self.ctx.fresh(k, f"from the keyword {k}=... (value unknown)")
        return out

    def _input(self, v: Value) -> tuple[list[tuple[Size, ...]] | None, bool, TensorV | None]:
        """(input shapes or None if unknown, is a stacked list, a representative tensor)"""
        if isinstance(v, TensorV):
            return ([v.shape] if v.shape is not None else None), False, v
        if isinstance(v, SeqV) and v.items and all(isinstance(t, TensorV) for t in v.items):
            ts = [t for t in v.items if isinstance(t, TensorV)]
            if all(t.shape is not None for t in ts):
                return [t.shape for t in ts if t.shape is not None], True, ts[0]
            return None, True, ts[0]
        return None, isinstance(v, SeqV), None

    def _notes(self, tensors: list[TensorV], pattern: str) -> list[str]:
        notes = []
        for i, t in enumerate(tensors):
            label = "input" if len(tensors) == 1 else f"input #{i}"
            note = f"{label} shape {shape_text(t.shape)}"
            if t.origin is not None:
                note += f" {t.origin}"
            notes.append(note)
        return notes

    def _result(
        self,
        node: cst.CSTNode,
        res: Any,
        template: TensorV | None,
        pattern: str,
        tensors: list[TensorV],
        axes: tuple[str | None, ...] | None = None,
        spec: OpSpec | None = None,
    ) -> Value:
        if isinstance(res, P.Problem):
            fw = next((t.framework for t in tensors if t.framework in ("tensorflow", "paddle")), None)
            if spec is not None and fw is not None:  # --verify also replays it on that framework's tensors
                spec = OpSpec(spec.op, spec.pattern, spec.inputs, spec.axes_lengths, spec.extra + (("framework", fw),))
            self._report(node, res, self._notes(tensors, pattern), spec)
            self.ctx.count("einops:problem")
            return UNKNOWN
        self.ctx.count("einops:inferred")
        outs = res.outputs
        if not outs:
            return UNKNOWN
        base = template or TensorV(None)
        origin = f"from the einops pattern {pattern!r}"
        return base.with_shape(tuple(outs[0]), axes if axes and len(axes) == len(outs[0]) else None, origin)

    def _shape_from_pattern(
        self,
        side: str,
        lengths: dict[str, Any],
        names: dict[str, Size],
        node: cst.CSTNode,
        ellipsis: Size | None = None,
    ) -> tuple[Size, ...] | None:
        """The input shape an unknown tensor must have for ``side`` to apply (no ellipsis): the call fails otherwise.

        Named axes get fresh symbols (shared through ``names`` between the operands of one call), so the output of
        the call -- and what follows it -- is known symbolically even for code without annotations.
        """
        try:
            expr = P.parse_expression(side, allow_underscore=False, allow_duplicates=True)
        except P.PatternError:
            return None
        if expr.has_marker and (ellipsis is None or expr.ellipsis_parenthesized):
            return None
        out: list[Size] = []
        origin = Origin(self.m, node, f"the pattern {side.strip()!r}")
        for group in expr.composition:
            if isinstance(group, str):  # the ellipsis marker: one placeholder axis standing for all of them
                assert ellipsis is not None
                out.append(ellipsis)
                continue
            size = Size.const(1)
            for atom in group:
                if isinstance(atom, str):
                    if atom in lengths:
                        size = size * lengths[atom]
                    else:
                        if atom not in names:
                            names[atom] = self.ctx.fresh(atom, origin)
                        size = size * names[atom]
                else:
                    size = size * atom.value
            out.append(size)
        return tuple(out)

    def _checked_pattern(self, node: cst.CSTNode, kind: str, v: Value) -> str | None:
        """The literal pattern of a pack/unpack/parse_shape call, or None (dynamic, or invalid and reported)."""
        pattern = self._pattern(v)
        if pattern is None:
            return None
        problem = P.check_call(kind, pattern)
        if problem is not None:
            self._report(node, problem)
            return None
        return pattern

    def _pattern(self, v: Value) -> str | None:
        return v.value if isinstance(v, StrV) else None

    # ------------------------------------------------------------------ rearrange / reduce / repeat
    def _transform(
        self, kind: str, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool
    ) -> Value:
        tensor = args[0] if args else kwargs.get("tensor", UNKNOWN)
        pat_v = args[1] if len(args) > 1 else kwargs.get("pattern", UNKNOWN)
        pattern = self._pattern(pat_v)
        if isinstance(tensor, SeqV) and tensor.kind == "pack" and pattern is not None:
            self.ctx.report(node, "SHP111", {"detail": D.PackTupleUsed(f"the input of einops.{kind}")})
            return UNKNOWN
        if isinstance(tensor, SeqV) and tensor.kind == "tuple" and pattern is not None:
            self.ctx.report(node, "SHP111", {"detail": D.TupleInput(kind)})
            return UNKNOWN
        if isinstance(tensor, SeqV) and tensor.kind == "list" and not tensor.items and pattern is not None:
            self.ctx.report(node, "SHP111", {"detail": D.EmptyList(kind, call=True)})
            return UNKNOWN
        shapes, stacked, template = self._input(tensor)
        fallback: Value = (
            template.with_shape(None)
            if template is not None and not stacked
            else (TensorV(None, template.dtype, template.framework) if template else UNKNOWN)
        )
        if pattern is None:
            self.ctx.count("einops:dynamic-pattern")
            return fallback
        reduction: str | None = None
        is_callable = False
        if kind == "reduce":
            reduction, is_callable = _reduction(args[2] if len(args) > 2 else kwargs.get("reduction", UNKNOWN))
            if reduction is None and not is_callable and len(args) <= 2 and "reduction" not in kwargs and not dynamic:
                self.ctx.report(node, "SHP111", {"detail": D.NoReduction(pattern)})
                return fallback
        extra = len(args) - (3 if kind == "reduce" else 2)
        if extra > 0:
            return fallback  # positional axis lengths are not accepted by einops; let the type checker say so
        lengths = self._lengths(kwargs, ("tensor", "pattern", "reduction"))
        axes_names = _identifiers(pattern) if dynamic else tuple(lengths)
        problem = P.check_call(
            kind, pattern, reduction=reduction, reduction_is_callable=is_callable, axes_names=axes_names
        )
        if problem is not None:
            self._report(node, problem)
            return fallback
        if (
            isinstance(tensor, TensorV)
            and tensor.shape is None
            and tensor.not_ranks
            and self._excluded_rank(node, kind, pattern, tensor, lengths, reduction if not is_callable else "callable")
        ):
            return fallback
        ellipsis: Size | None = None
        made_up = False
        if (
            not dynamic
            and shapes is None
            and not stacked
            and (tensor is UNKNOWN or (isinstance(tensor, TensorV) and tensor.shape is None))
        ):
            synthetic, ellipsis = self._partial_input(tensor, pattern, lengths, node)
            if synthetic is not None:
                shapes = [synthetic]
                template = tensor if isinstance(tensor, TensorV) else TensorV(None)
                self.ctx.count("einops:from-pattern")
                made_up = True
        self.ctx.note_evidence(node, "einops", template if shapes is not None else None, made_up)
        if dynamic or shapes is None:
            self.ctx.count("einops:dynamic-axes" if dynamic else "einops:unknown-input")
            return fallback
        res = P.infer(
            kind,
            pattern,
            shapes,
            axes_lengths=lengths,
            reduction=reduction if not is_callable else _opaque_reduction,
            stacked_list=stacked,
            fresh=self._fresher(node),
        )
        tensors = [t for t in (tensor.items if isinstance(tensor, SeqV) else [tensor]) if isinstance(t, TensorV)]
        spec = OpSpec(
            kind,
            pattern,
            tuple(shapes),
            tuple(lengths.items()),
            (("reduction", reduction if not is_callable else "callable"), ("stacked", stacked)),
        )
        out = self._result(
            node,
            res,
            template if not stacked else (TensorV(None, template.dtype, template.framework) if template else None),
            pattern,
            tensors,
            output_axes(pattern),
            spec,
        )
        if made_up and isinstance(out, TensorV):
            out = out.with_shape(out.shape, out.axes, MadeUp(str(out.origin)))
        if ellipsis is not None and isinstance(out, TensorV) and out.shape is not None:
            out = self._variadic_output(out, pattern, ellipsis)
        if kind == "reduce" and isinstance(out, TensorV) and template is not None:
            check_einops_reduction(self.m, node, "einops.reduce", template, reduction, res, pattern)
        return out

    def _excluded_rank(
        self, node: cst.CSTNode, kind: str, pattern: str, tensor: TensorV, lengths: dict[str, Any], reduction: Any
    ) -> bool:
        """A pattern that needs exactly k dimensions, on a tensor a condition proved is not k-dimensional."""
        try:
            expr = P.parse_expression(pattern.split("->")[0], allow_underscore=False, allow_duplicates=True)
        except P.PatternError:
            return False
        if expr.has_marker:
            return False
        k = len(expr.composition)
        if k not in tensor.not_ranks:
            return False
        possible = sorted(set(range(18)) - tensor.not_ranks)
        actual = (
            str(possible[0])
            if len(possible) == 1 or (len(possible) == 2 and possible[1] == 17)
            else f"a number of dimensions other than {k} here"
        )
        self.ctx.report(
            node,
            "SHP201",
            {"what": f'{kind} pattern "{pattern}"', "expected": str(k), "subject": "the input", "actual": actual},
            ["a condition on the path that reaches the call (x.ndim, len(x.shape), x.dim()) fixed the rank"],
            spec=OpSpec(
                kind,
                pattern,
                (tuple(self.ctx.fresh("n") for _ in range(next(r for r in possible if r >= 1))),),
                tuple(lengths.items()),
                (("reduction", reduction), ("stacked", False)),
            ),
        )
        return True

    def _partial_input(
        self, tensor: Value, pattern: str, lengths: dict[str, Any], node: cst.CSTNode
    ) -> tuple[tuple[Size, ...] | None, Size | None]:
        """The input shape of a call on a tensor of unknown rank, from its pattern (and its known leading/trailing axes).

        An einops ``...`` is modelled as one placeholder axis V (the product of the axes it stands for): einops never
        splits or checks the axes under ``...`` on the left, so no finding can depend on V.
        """
        left = pattern.split("->")[0]
        try:
            expr = P.parse_expression(left, allow_underscore=False, allow_duplicates=True)
        except P.PatternError:
            return None, None
        if not expr.has_marker:
            return self._shape_from_pattern(left, lengths, {}, node), None
        if expr.ellipsis_parenthesized:
            return None, None
        if isinstance(tensor, TensorV) and tensor.vshape is not None:
            prefix, v, suffix = tensor.vshape
            k = next(i for i, g in enumerate(expr.composition) if isinstance(g, str))
            m = len(expr.composition) - k - 1
            if len(prefix) > k or len(suffix) > m:
                return None, None  # the pattern may take known axes into its `...`: not modelled
            if len(prefix) < k or len(suffix) < m:
                # the pattern names axes that are still inside the unknown run: take them out as fresh sizes
                # (and a fresh run for the rest); only the product relation to V is forgotten
                origin = Origin(self.m, node, f"the axes of {left.strip()!r}")
                prefix = prefix + tuple(self.ctx.fresh("n", origin) for _ in range(k - len(prefix)))
                suffix = tuple(self.ctx.fresh("n", origin) for _ in range(m - len(suffix))) + suffix
                v = self.ctx.fresh("…", origin)
            return prefix + (v,) + suffix, v
        v = self.ctx.fresh("…", Origin(self.m, node, f"the axes under '...' in {left.strip()!r}"))
        return self._shape_from_pattern(left, lengths, {}, node, ellipsis=v), v

    def _variadic_output(self, out: TensorV, pattern: str, v: Size) -> TensorV:
        """Turn the placeholder axis back into an unknown number of axes where the output keeps ``...`` standalone."""
        right = pattern.split("->")[1]
        try:
            expr = P.parse_expression(right, allow_underscore=False, allow_duplicates=True)
        except P.PatternError:
            return out.with_shape(None)
        positions = [i for i, g in enumerate(expr.composition) if isinstance(g, str)]
        if not positions:
            return out  # reduced away, or inside a group: the rank is known
        i = positions[0]
        assert out.shape is not None
        if i >= len(out.shape) or out.shape[i] != v:
            return out.with_shape(None)
        self.ctx.count("einops:variadic-output")
        return TensorV(None, out.dtype, out.framework, None, out.origin, (out.shape[:i], v, out.shape[i + 1 :]))

    def _fresher(self, node: cst.CSTNode) -> Any:
        def fresh(name: str) -> Size:
            return self.ctx.fresh(name, Origin(self.m, node, "the einops call", prefix="inferred by"))

        return fresh

    def _rearrange(self, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
        return self._transform("rearrange", node, args, kwargs, dynamic)

    def _reduce(self, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
        return self._transform("reduce", node, args, kwargs, dynamic)

    def _repeat(self, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
        return self._transform("repeat", node, args, kwargs, dynamic)

    # ------------------------------------------------------------------ pack / unpack
    def _pack(self, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
        tensors = args[0] if args else kwargs.get("tensors", UNKNOWN)
        pattern = self._checked_pattern(node, "pack", args[1] if len(args) > 1 else kwargs.get("pattern", UNKNOWN))
        if pattern is None:
            return UNKNOWN
        if (
            not isinstance(tensors, SeqV)
            or not tensors.items
            or not all(isinstance(t, TensorV) and t.shape is not None for t in tensors.items)
        ):
            return SeqV((UNKNOWN, UNKNOWN), "pack")
        ts = [t for t in tensors.items if isinstance(t, TensorV)]
        res = P.infer("pack", pattern, [t.shape for t in ts if t.shape is not None], fresh=self._fresher(node))
        if isinstance(res, P.Problem):
            self._report(
                node,
                res,
                self._notes(ts, pattern),
                OpSpec("pack", pattern, tuple(t.shape for t in ts if t.shape is not None)),
            )
            return SeqV((UNKNOWN, UNKNOWN), "pack")
        packed = ts[0].with_shape(tuple(res.outputs[0]), None, f"from the einops pack pattern {pattern!r}")
        star = pattern.split().index("*") if "*" in pattern.split() else 0
        n_after = len(pattern.split()) - star - 1
        ps_items: list[Value] = []
        for t in ts:
            assert t.shape is not None
            inner = t.shape[star : len(t.shape) - n_after]
            ps_items.append(SeqV(tuple(IntV(s) for s in inner), "shape"))
        return SeqV((packed, SeqV(tuple(ps_items), "list")), "pack")

    def _unpack(self, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
        tensor = args[0] if args else kwargs.get("tensor", UNKNOWN)
        ps = args[1] if len(args) > 1 else kwargs.get("packed_shapes", UNKNOWN)
        if len(args) == 2 and isinstance(ps, StrV) and "pattern" not in kwargs and not dynamic:
            self.ctx.report(node, "SHP111", {"detail": D.ApiRule("unpack-no-shapes-call")})
            return UNKNOWN
        pattern = self._checked_pattern(node, "unpack", args[2] if len(args) > 2 else kwargs.get("pattern", UNKNOWN))
        if pattern is None:
            return UNKNOWN
        if isinstance(tensor, SeqV) and tensor.kind == "pack":
            self.ctx.report(node, "SHP111", {"detail": D.PackTupleUsed("the tensor einops.unpack splits")})
            return UNKNOWN
        if isinstance(ps, SeqV) and ps.kind == "pack":
            self.ctx.report(node, "SHP111", {"detail": D.PackTupleUsed("the packed shapes of einops.unpack")})
            return UNKNOWN
        bare = [i for i, item in enumerate(ps.items) if isinstance(item, IntV)] if isinstance(ps, SeqV) else []
        if bare:
            self.ctx.report(node, "SHP111", {"detail": D.BarePackedShape(bare[0])})
            return UNKNOWN
        if not isinstance(tensor, TensorV) or tensor.shape is None or not isinstance(ps, SeqV):
            return UNKNOWN
        packed_shapes = []
        for item in ps.items:
            if not isinstance(item, SeqV) or not all(isinstance(x, IntV) for x in item.items):
                return SeqV(tuple(tensor.with_shape(None) for _ in ps.items), "list")
            packed_shapes.append([x.size for x in item.items if isinstance(x, IntV)])
        res = P.infer("unpack", pattern, [tensor.shape], packed_shapes=packed_shapes, fresh=self._fresher(node))
        if isinstance(res, P.Problem):
            self._report(
                node,
                res,
                self._notes([tensor], pattern),
                OpSpec(
                    "unpack", pattern, (tensor.shape,), (), (("packed_shapes", tuple(tuple(p) for p in packed_shapes)),)
                ),
            )
            return UNKNOWN
        return SeqV(
            tuple(
                tensor.with_shape(tuple(o), None, f"from the einops unpack pattern {pattern!r}") for o in res.outputs
            ),
            "list",
        )

    # ------------------------------------------------------------------ einsum / parse_shape
    def _einsum(self, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
        if dynamic or kwargs or not args:
            return UNKNOWN
        if isinstance(args[0], StrV) and len(args) > 1 and not isinstance(args[-1], StrV):
            self.ctx.report(node, "SHP111", {"detail": D.EinsumPatternFirst(args[0].value)})
            return UNKNOWN
        pattern = self._pattern(args[-1])
        if pattern is None:
            return UNKNOWN
        operands = args[:-1]
        problem = P.check_call("einsum", pattern, n_operands=len(operands))
        if problem is not None:
            self._report(node, problem)
            return UNKNOWN
        if not operands:
            return UNKNOWN
        if not all(isinstance(t, TensorV) and t.shape is not None for t in operands):
            t0 = next((t for t in operands if isinstance(t, TensorV)), None)
            lefts = pattern.split("->")[0].split(",")
            names: dict[str, Size] = {}
            filled: list[Value] = []
            for t, side in zip(operands, lefts):
                if isinstance(t, TensorV) and t.shape is not None:
                    filled.append(t)
                    continue
                if t is not UNKNOWN and not isinstance(t, TensorV):
                    filled = []
                    break
                synthetic = self._shape_from_pattern(side, {}, names, node)
                if synthetic is None:
                    filled = []
                    break
                filled.append(
                    TensorV(
                        synthetic,
                        t.dtype if isinstance(t, TensorV) else None,
                        t.framework if isinstance(t, TensorV) else None,
                    )
                )
            if len(filled) != len(operands) or len(lefts) != len(operands):
                self.ctx.count("einops:unknown-input")
                return TensorV(None, t0.dtype if t0 else None, t0.framework if t0 else None)
            self.ctx.count("einops:from-pattern")
            operands = filled
        ts = [t for t in operands if isinstance(t, TensorV)]
        res = P.infer("einsum", pattern, [t.shape for t in ts if t.shape is not None], fresh=self._fresher(node))
        return self._result(
            node,
            res,
            ts[0],
            pattern,
            ts,
            output_axes(pattern),
            OpSpec("einsum", pattern, tuple(t.shape for t in ts if t.shape is not None)),
        )

    def _parse_shape(self, node: cst.Call, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
        x = args[0] if args else kwargs.get("x", UNKNOWN)
        pattern = self._checked_pattern(
            node, "parse_shape", args[1] if len(args) > 1 else kwargs.get("pattern", UNKNOWN)
        )
        if pattern is None:
            return UNKNOWN
        if not isinstance(x, TensorV) or x.shape is None:
            return UNKNOWN
        res = P.infer("parse_shape", pattern, [x.shape], fresh=self._fresher(node))
        if isinstance(res, P.Problem):
            self._report(node, res, self._notes([x], pattern), OpSpec("parse_shape", pattern, (x.shape,)))
            return UNKNOWN
        names = [t for t in pattern.split() if t not in ("_", "...", "…") and _IDENT.fullmatch(t)]
        return DictV(tuple((n, IntV(res.axes[n])) for n in names if n in res.axes))

    # ------------------------------------------------------------------ layers
    def _flax_layer(
        self, interp: "Interpreter", node: cst.Call, op: str, args: list[Value], kwargs: dict[str, Value], dynamic: bool
    ) -> Value:
        """``einops.layers.flax``: dataclass modules whose axis lengths are one ``sizes`` dict, not keywords.

        ``Rearrange(pattern, sizes)``, ``Reduce(pattern, reduction, sizes)``, ``EinMix(pattern, weight_shape,
        bias_shape, sizes)``; ``name`` and ``parent`` are flax's own fields. Lengths a dict literal or ``dict(...)``
        does not spell out make the layer's axis names unknown (as ``**lengths`` does for the other frameworks).
        """
        fields = {
            "Rearrange": ("pattern", "sizes"),
            "Reduce": ("pattern", "reduction", "sizes"),
            "EinMix": ("pattern", "weight_shape", "bias_shape", "sizes"),
        }[op]
        if len(args) > len(fields) or any(k not in fields and k not in ("name", "parent") for k in kwargs):
            return UNKNOWN  # not a signature flax accepts (or a *args/**kwargs spread we cannot place): unknown
        sizes_at = fields.index("sizes")
        sizes_node: cst.BaseExpression | None = None
        positional = [a for a in node.args if a.keyword is None]
        if len(positional) > sizes_at:
            sizes_node = positional[sizes_at].value
        for a in node.args:
            if a.keyword is not None and a.keyword.value == "sizes":
                sizes_node = a.value
        lengths = {} if sizes_node is None else self._literal_dict(interp, sizes_node)
        plain_args = list(args[:sizes_at])
        plain_kwargs = {k: v for k, v in kwargs.items() if k in fields[:sizes_at]}
        if lengths is None or dynamic:
            return self.layer(node, op, plain_args, plain_kwargs, True)
        return self.layer(node, op, plain_args, {**plain_kwargs, **lengths}, False)

    @staticmethod
    def _literal_dict(interp: "Interpreter", expr: cst.BaseExpression) -> dict[str, Value] | None:
        """``{"p1": 16}`` or ``dict(p1=16)`` as str keys -> values; None for anything else (a name, ``**extra``...)."""
        from ..index.imports import literal_str

        out: dict[str, Value] = {}
        if isinstance(expr, cst.Dict):
            for el in expr.elements:
                key = literal_str(el.key) if isinstance(el, cst.DictElement) else None
                if key is None:
                    return None
                out[key] = interp.eval(el.value)
            return out
        if (
            isinstance(expr, cst.Call)
            and isinstance(expr.func, cst.Name)
            and expr.func.value == "dict"
            and "dict" not in interp.scope.vars
            and "dict" not in interp.m.globals
            and "dict" not in interp.m.imports.names
        ):
            for a in expr.args:
                if a.keyword is None or a.star:
                    return None
                out[a.keyword.value] = interp.eval(a.value)
            return out
        return None

    def layer(self, node: cst.Call, op: str, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
        pattern = self._pattern(args[0] if args else kwargs.get("pattern", UNKNOWN))
        if pattern is None:
            return UNKNOWN
        if op == "EinMix":
            weight = self._pattern(args[1] if len(args) > 1 else kwargs.get("weight_shape", UNKNOWN))
            bias_v = args[2] if len(args) > 2 else kwargs.get("bias_shape", None)
            bias = self._pattern(bias_v) if bias_v is not None else None
            if weight is None or (bias_v is not None and bias is None and not isinstance(bias_v, type(None))):
                return LayerV("EinMix", (("pattern", pattern),), node)
            lengths = self._lengths(kwargs, ("pattern", "weight_shape", "bias_shape"))
            if not dynamic:
                problem = P.check_call(
                    "einmix", pattern, weight_shape=weight, bias_shape=bias, axes_names=tuple(lengths)
                )
                if problem is not None:
                    self._report(node, problem)
                    return UNKNOWN
            return LayerV(
                "EinMix",
                (
                    ("pattern", pattern),
                    ("weight_shape", weight),
                    ("lengths", tuple(lengths.items())),
                    ("dynamic", dynamic),
                ),
                node,
            )
        kind = "layer_rearrange" if op == "Rearrange" else "layer_reduce"
        reduction, is_callable = (None, False)
        if op == "Reduce":
            reduction, is_callable = _reduction(args[1] if len(args) > 1 else kwargs.get("reduction", UNKNOWN))
        lengths = self._lengths(kwargs, ("pattern", "reduction"))
        axes_names = _identifiers(pattern) if dynamic else tuple(lengths)
        problem = P.check_call(
            kind, pattern, reduction=reduction, reduction_is_callable=is_callable, axes_names=axes_names
        )
        if problem is not None:
            self._report(node, problem)
            return UNKNOWN
        return LayerV(
            op,
            (
                ("pattern", pattern),
                ("reduction", reduction if not is_callable else _opaque_reduction),
                ("lengths", tuple(lengths.items())),
                ("dynamic", dynamic),
            ),
            node,
        )

    def apply_layer(self, report_node: cst.CSTNode, layer: LayerV, x: Value) -> Value:
        if layer.param("dynamic") or not isinstance(x, TensorV):
            return TensorV(None, x.dtype, x.framework) if isinstance(x, TensorV) else UNKNOWN
        pattern = layer.param("pattern")
        if x.shape is None or pattern is None:
            return x.with_shape(None)
        lengths = dict(layer.param("lengths", ()))
        if layer.kind == "EinMix":
            return x.with_shape(None)  # the mixing weight is validated at construction; output shape not modelled yet
        kind = "rearrange" if layer.kind == "Rearrange" else "reduce"
        res = P.infer(
            kind,
            pattern,
            [x.shape],
            axes_lengths=lengths,
            reduction=layer.param("reduction"),
            fresh=self._fresher(report_node),
        )
        red = layer.param("reduction")
        spec = OpSpec(
            kind,
            pattern,
            (x.shape,),
            tuple(lengths.items()),
            (("reduction", red if isinstance(red, str) or red is None else "callable"), ("stacked", False)),
        )
        out = self._result(report_node, res, x, pattern, [x], output_axes(pattern), spec)
        if kind == "reduce" and isinstance(out, TensorV):
            check_einops_reduction(
                self.m, report_node, "einops Reduce layer", x, layer.param("reduction"), res, pattern
            )
        return out
