"""float16 / bfloat16 reductions without an upcast (SHP301-SHP303), autocast regions, and their autofix.

What each backend really does (verified on torch 2.13 CPU and numpy; see docs/precision.md for the commands):

* float16's largest finite value is 65,504; it holds every integer only up to 2,048 (11 significant bits).
  bfloat16 has float32's range (no overflow where float16 overflows) but 8 significant bits: integers are exact
  only up to 256.
* torch ``sum`` / ``prod`` / ``cumsum`` / ``cumprod`` accumulate float16 and bfloat16 in float32 (CPU, verified) but
  store the result (every prefix, for the cumulative ops) in the input dtype: a float16 sum is inf once the total
  passes 65,504; a bfloat16 sum is rounded to 8 significant bits (100,000 ones -> 99,840).
* torch ``mean`` of float16 / bfloat16 divides in float32 before storing: 100,000 float16 ones average to 1.0.
  Safe -- no finding.
* numpy ``sum`` / ``prod`` / ``cumsum`` / ``cumprod`` of float16 accumulate in float16 itself: a running sum of ones
  stalls at 2,048 (along a non-contiguous axis, and always for ``cumsum``); along the contiguous axis pairwise
  summation keeps the sum exact but it still overflows past 65,504.
* numpy ``mean`` of float16 accumulates in float32 (``numpy/_core/_methods.py``: ``dtype = 'f4'`` for float16)
  -- safe, unless ``dtype=np.float16`` is passed explicitly, which accumulates in float16 (SHP303).
* ``torch.autocast``: on CUDA (and XPU / MPS) ``sum``, ``prod``, ``cumsum`` and ``cumprod`` are autocast ops that
  run in float32 (``fp32_set_opt_dtype`` policy); on CPU only ``prod`` is (``sum``, ``cumsum``, ``cumprod`` keep
  the input dtype). ``mean`` is not an autocast op anywhere (it needs none).

TensorFlow 2.21 and PaddlePaddle 3.3.1 (CPU builds, measured; GPU from their kernel sources; docs/precision.md):

* ``tf.reduce_sum`` of float16 on CPU: 4,096 ones sum to 4,096 and 65,536 ones to inf -- the result is stored in
  float16. ``tf.math.cumsum`` adds in float16 (4,096 ones: the last prefix is 2,048).
* ``tf.reduce_mean`` of float16 on CPU (Eigen's MeanReducer<half>) stores the sum in float16 and divides by the
  count converted to float16: 4,096 values of 20 average to inf, and from 65,520 values on the count itself is
  inf, so the mean is 0 or NaN on any data (65,536 ones -> NaN, 65,536 halves -> 0). On GPU TensorFlow's
  MeanReducer<half> sums in float32 and divides by a float32 count. A float16 mean is flagged for TensorFlow only;
  ``keras.ops.mean`` casts float16 to float32 first (65,536 ones -> 1.0) and is not.
* ``paddle.sum`` of float16 accumulates in float32 (CPU measured, GPU kernels through MPTypeTrait) and stores a
  float16 result: inf past 65,504. Paddle's CPU build has no float16 ``mean`` kernel at all (it raises); on GPU the
  mean divides in float32 -- never flagged. ``paddle.amp.auto_cast`` O1 (the default) and OD run ``sum``, ``mean``,
  ``prod``, ``cumsum`` in float32 (``paddle/amp/amp_lists.py``: FP16_BLACK_LIST); O2 does not (only
  EXTRA_BLACK_LIST stays in float32). On CPU ``auto_cast`` has no effect at all (Paddle warns).
* Keras ``mixed_float16`` / ``mixed_bfloat16`` policies: layers compute (and return) float16 / bfloat16 while their
  variables stay float32; a layer built with ``dtype="float32"`` returns float32.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

import libcst as cst

from ...diagnostics import details as D
from ...sizes import Size, product
from ..index.imports import dotted, literal_str
from ..interpret.context import LazyNote, note
from ..interpret.values import BoolV, DtypeV, NoneV, StrV, TensorV, Value
from .ops_common import constant

if TYPE_CHECKING:
    from ...pattern import Inferred, Problem
    from ..interpret.interpreter import Interpreter
    from .registry import RuleModule

# evaluates an expression of the analysed code (the interpreter's eval, or a static one for decorators)
_Evaluate = Callable[[cst.BaseExpression], "Value | None"]

# framework op name -> the kind of reduction
_KINDS = {
    "sum": "sum",
    "nansum": "sum",
    "prod": "prod",
    "nanprod": "prod",
    "cumsum": "cumsum",
    "nancumsum": "cumsum",
    "cumprod": "cumprod",
    "nancumprod": "cumprod",
    "mean": "mean",
    "nanmean": "mean",
}

# Ops that torch.autocast runs in float32, by device type, among the reductions checked here.
# CUDA: torch/testing/_internal/autocast_test_lists.py (AutocastTestLists.torch_fp32 lists sum, prod, cumsum, cumprod)
#       and the dispatcher: torch._C._dispatch_has_kernel_for_dispatch_key("aten::sum", "AutocastCUDA") is True.
# CPU:  AutocastCPU has a kernel for aten::prod only (not sum / cumsum / cumprod / mean); run under
#       torch.autocast("cpu"), float16 .prod() returns float32 while .sum() / .cumsum() keep float16.
# XPU / MPS: the dispatcher has Autocast kernels for sum, prod, cumsum, cumprod (same registration list as CUDA).
# aten::nansum and aten::mean have no Autocast kernel on any device.
AUTOCAST_FP32: dict[str, frozenset[str]] = {
    "cuda": frozenset({"sum", "prod", "cumsum", "cumprod"}),
    "xpu": frozenset({"sum", "prod", "cumsum", "cumprod"}),
    "mps": frozenset({"sum", "prod", "cumsum", "cumprod"}),
    "cpu": frozenset({"prod"}),
}
_NO_AUTOCAST_KERNEL = frozenset({"nansum", "nanmean", "nancumsum", "nancumprod", "nanprod"})

_AUTOCAST_ANY_DEVICE = {
    "torch.autocast",
    "torch.amp.autocast",
    "torch.amp.autocast_mode.autocast",
    "torch.autocast_mode.autocast",
}
_AUTOCAST_FIXED_DEVICE = {
    "torch.cuda.amp.autocast": "cuda",
    "torch.cuda.amp.autocast_mode.autocast": "cuda",
    "torch.cuda.autocast": "cuda",
    "torch.cpu.amp.autocast": "cpu",
    "torch.cpu.amp.autocast_mode.autocast": "cpu",
    "torch.cpu.autocast": "cpu",
}

# callables passed to einops.reduce(x, pattern, f) that we can resolve
_PADDLE_AUTOCAST = {
    "paddle.amp.auto_cast",
    "paddle.amp.amp_guard",
    "paddle.amp.auto_cast.auto_cast",
    "paddle.amp.auto_cast.amp_guard",
    "paddle.fluid.dygraph.amp.amp_guard",
}
# paddle.amp levels that run these reductions in float32 (FP16_BLACK_LIST holds reduce_sum, mean, reduce_prod, cumsum,
# cumprod at O1; OD keeps every op outside the white list in float32; O2 keeps only EXTRA_BLACK_LIST)
_PADDLE_FP32_LEVELS = frozenset({"O1", "OD"})

_CALLABLE_REDUCTIONS = {"sum": "sum", "nansum": "sum", "prod": "prod", "nanprod": "prod"}


@dataclass(frozen=True)
class AutocastState:
    device: str | None  # "cuda", "cpu", ... ; None: not a literal
    enabled: bool | None  # None: not a literal (treated as enabled)
    text: str


# ---------------------------------------------------------------------------------------------------------------
# autocast regions


@contextlib.contextmanager
def autocast_region(m: "RuleModule", stmt: cst.With, interp: "Interpreter") -> Iterator[None]:
    """``with torch.autocast(...)``: ops inside run under autocast rules."""
    states = []
    for item in stmt.items:
        st = _autocast_state(m, item.item, interp.eval)
        if st is not None:
            states.append(st)
    stack: list[AutocastState] = m.__dict__.setdefault("autocast_stack", [])
    stack.extend(states)
    try:
        yield
    finally:
        if states:
            del stack[len(stack) - len(states) :]


def _autocast_state(m: "RuleModule", expr: cst.BaseExpression, evaluate: _Evaluate) -> AutocastState | None:
    if type(expr) is not cst.Call:
        return None
    qual = m.qualify(expr.func) or ""
    if qual in _AUTOCAST_FIXED_DEVICE:
        device: str | None = _AUTOCAST_FIXED_DEVICE[qual]
        device_arg = None
        enabled_arg = _arg(expr, 0, "enabled")
    elif qual in _AUTOCAST_ANY_DEVICE:
        device_arg = _arg(expr, 0, "device_type")
        enabled_arg = _arg(expr, 2, "enabled")
        device = None
        if device_arg is not None:
            v = evaluate(device_arg)
            if isinstance(v, StrV):
                device = v.value.split(":", 1)[0]
    elif qual in _PADDLE_AUTOCAST:
        # paddle.amp.auto_cast(enable=True, custom_white_list=None, custom_black_list=None, level='O1', dtype='float16')
        level_arg = _arg(expr, 3, "level")
        level = "O1"
        if level_arg is not None:
            v = evaluate(level_arg)
            level = v.value.upper() if isinstance(v, StrV) else "?"
        device = f"paddle:{level}"
        enabled_arg = _arg(expr, 0, "enable")
    else:
        return None
    enabled: bool | None = True
    if enabled_arg is not None:
        v = evaluate(enabled_arg)
        enabled = v.value if isinstance(v, BoolV) else None
    return AutocastState(device, enabled, m.code_for(expr))


def _arg(call: cst.Call, index: int, keyword: str) -> cst.BaseExpression | None:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    for a in call.args:
        if a.keyword is not None and a.keyword.value == keyword:
            return a.value
    return positional[index].value if index < len(positional) else None


def _static_eval(m: "RuleModule") -> _Evaluate:
    """A tiny evaluator for decorator arguments (no interpreter frame there): strings, booleans, dtypes."""

    def ev(node: cst.BaseExpression) -> Value | None:
        if type(node) is cst.SimpleString:
            v = literal_str(node)
            return StrV(v) if v is not None else None
        if type(node) is cst.Name and node.value in ("True", "False"):
            return BoolV(node.value == "True")
        q = m.qualify(node) if type(node) in (cst.Name, cst.Attribute) else None
        return constant(q) if q else None

    return ev


def _parents(m: "RuleModule") -> dict[int, cst.CSTNode]:
    from ..interpret.walk import children

    parents = m.__dict__.get("_precision_parents")
    if parents is None:
        parents = {}
        stack: list[cst.CSTNode] = [m.tree]
        while stack:
            n = stack.pop()
            for c in children(n):
                parents[id(c)] = n
                stack.append(c)
        m.__dict__["_precision_parents"] = parents
    return parents


# nodes that are, or may hold, statements: a function or class definition, and the statement a node belongs to, are
# found among these without walking any expression
_STATEMENT_LEVEL = (
    cst.BaseStatement,
    cst.BaseSmallStatement,
    cst.BaseSuite,
    cst.Else,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.Finally,
    cst.MatchCase,
)


# node type -> 0: not statement-level, 1: a small statement (a leaf of these walks), 2: statement-level, walked into
_LEVEL: dict[type, int] = {}


def _level(tp: type) -> int:
    found = _LEVEL.get(tp)
    if found is None:
        found = _LEVEL[tp] = (
            (1 if issubclass(tp, cst.BaseSmallStatement) else 2) if issubclass(tp, _STATEMENT_LEVEL) else 0
        )
    return found


def _trees(m: "RuleModule") -> list[cst.CSTNode]:
    """The module's tree and, for a module parsed with bodies blanked, the trees of the statements parsed whole later
    (``project.unmask``, which forgets what is computed from them here)."""
    return [m.tree, *(t for t, _ in getattr(m, "other_trees", ()))]


def statement_parents(m: "RuleModule") -> dict[int, cst.CSTNode]:
    """``_parents`` restricted to statement-level nodes (statements, small statements, suites, ``else`` / ``except``
    / ``finally`` / ``case`` clauses): each one's parent, without walking the expressions."""
    from ..interpret.walk import children

    parents = m.__dict__.get("_statement_parents")
    if parents is None:
        parents = {}
        assigns: dict[int, cst.Assign | cst.AnnAssign] = {}
        stack: list[cst.CSTNode] = _trees(m)
        while stack:
            n = stack.pop()
            for c in children(n):
                level = _LEVEL.get(type(c))
                if level is None:
                    level = _level(type(c))
                if level:
                    parents[id(c)] = n
                    if level == 2:
                        stack.append(c)
                    elif type(c) is cst.Assign or (type(c) is cst.AnnAssign and c.value is not None):
                        assigns[id(c.value)] = c
        m.__dict__["_statement_parents"] = parents
        m.__dict__["_assignment_of_value"] = assigns
    return parents


def assignment_of(m: "RuleModule", value: cst.CSTNode) -> cst.Assign | cst.AnnAssign | None:
    """The assignment statement whose value ``value`` is (``x = value``, ``x: T = value``), if any."""
    statement_parents(m)
    found: cst.Assign | cst.AnnAssign | None = m.__dict__["_assignment_of_value"].get(id(value))
    return found


def _call_decorated(m: "RuleModule") -> list[tuple[cst.FunctionDef, frozenset[int]]]:
    """The functions of the module with a call among their decorators (only a call can open an autocast region),
    each with the ids of the nodes under it (itself excluded)."""
    from ..interpret.walk import children

    found = m.__dict__.get("_call_decorated")
    if found is None:
        found = []
        for fn in _statement_nodes(m):
            if type(fn) is cst.FunctionDef and any(type(d.decorator) is cst.Call for d in fn.decorators):
                ids: set[int] = set()
                stack: list[cst.CSTNode] = [fn]
                while stack:
                    for c in children(stack.pop()):
                        ids.add(id(c))
                        stack.append(c)
                found.append((fn, frozenset(ids)))
        m.__dict__["_call_decorated"] = found
    return found


def _statement_nodes(m: "RuleModule") -> Iterator[cst.CSTNode]:
    from ..interpret.walk import children

    stack: list[cst.CSTNode] = _trees(m)
    while stack:
        n = stack.pop()
        yield n
        stack.extend(c for c in children(n) if _level(type(c)) == 2)


def _active_states(m: "RuleModule", node: cst.CSTNode) -> list[AutocastState]:
    """Autocast states in force at ``node``, outermost first: decorators of enclosing functions, then ``with``."""
    decorated: list[AutocastState] = []
    candidates = _call_decorated(m)
    if candidates:
        nid = id(node)
        # the enclosing functions with a call decorator, innermost first (an enclosing function holds every node of
        # an inner one, and more)
        enclosing = sorted(((fn, ids) for fn, ids in candidates if nid in ids), key=lambda pair: len(pair[1]))
        ev = _static_eval(m)
        for fn, _ in enclosing:
            for d in reversed(fn.decorators):
                st = _autocast_state(m, d.decorator, ev)
                if st is not None:
                    decorated.insert(0, st)
    return decorated + list(m.__dict__.get("autocast_stack", []))


def autocast_fp32(m: "RuleModule", node: cst.CSTNode, op: str, kind: str) -> AutocastState | None:
    """The autocast region that runs this torch op in float32, if any."""
    if op in _NO_AUTOCAST_KERNEL:
        return None
    per_device: dict[str | None, AutocastState] = {}
    for st in _active_states(m, node):
        if st.device is not None and st.device.startswith("paddle:"):
            continue
        per_device[st.device] = st
    for device, st in per_device.items():
        if st.enabled is False:
            continue
        ops = AUTOCAST_FP32.get(device) if device is not None else AUTOCAST_FP32["cuda"]  # unknown device: assume CUDA
        if ops is not None and kind in ops:
            return st
    return None


def paddle_amp_fp32(m: "RuleModule", node: cst.CSTNode) -> AutocastState | None:
    """The innermost ``paddle.amp.auto_cast`` region at ``node`` if it runs reductions in float32 (O1 / OD)."""
    states = [st for st in _active_states(m, node) if st.device is not None and st.device.startswith("paddle:")]
    if not states or states[-1].enabled is False:
        return None
    return states[-1] if states[-1].device[len("paddle:") :] in _PADDLE_FP32_LEVELS else None  # type: ignore[index]


# ---------------------------------------------------------------------------------------------------------------
# counts and messages


def _count_text(count: Size | None) -> tuple[str, int | None]:
    """(count for the message, the integer count if known)."""
    if count is None:
        return "an unknown number of", None
    n = count.as_int()
    return (str(count), None) if n is None else (f"{n:,}", n)


_ACCUMULATION: dict[str, type[D.Accumulation]] = {
    "SHP301": D.Float16Accumulation,
    "SHP302": D.Bfloat16Accumulation,
    "SHP303": D.Float16RunningAccumulation,
}
_VERBS = {
    "sum": "sums",
    "prod": "multiplies",
    "cumsum": "takes a running sum over",
    "cumprod": "takes a running product over",
    "mean": "averages",
}


def _code_for(kind: str, dtype: str) -> str:
    if dtype == "bfloat16":
        return "SHP302"
    return "SHP303" if kind in ("cumsum", "cumprod", "mean") else "SHP301"


# ---------------------------------------------------------------------------------------------------------------
# autofix: upcast the input, cast the result back


def _is_atom(node: cst.BaseExpression) -> bool:
    if getattr(node, "lpar", None):
        return True
    return type(node) in (cst.Name, cst.Attribute, cst.Call, cst.Subscript)


def _numpy_alias(m: "RuleModule") -> str | None:
    names: dict[str, str] = getattr(m.imports, "names", {})
    for local, qual in names.items():
        if qual == "numpy" and "." not in local:
            return local
    return None


def _module_alias(m: "RuleModule", module: str) -> str | None:
    names: dict[str, str] = getattr(m.imports, "names", {})
    for local, qual in names.items():
        if qual == module and "." not in local:
            return local
    return None


def _casts(m: "RuleModule", fw: str | None, dtype: str, input_node: cst.BaseExpression) -> tuple[str, str] | None:
    if fw == "paddle":
        return '.astype("float32")', f'.astype("{dtype}")'
    if fw == "torch":
        src = dotted(input_node)
        down = f".to({src}.dtype)" if src else (".half()" if dtype == "float16" else ".bfloat16()")
        return ".float()", down
    if fw in ("numpy", "jax") and dtype == "float16":
        np_name = _numpy_alias(m) if fw == "numpy" else None
        if np_name:
            return f".astype({np_name}.float32)", f".astype({np_name}.float16)"
        return '.astype("float32")', '.astype("float16")'
    return None


def _make_fix(
    m: "RuleModule", call: cst.CSTNode, input_node: cst.BaseExpression | None, fw: str | None, dtype: str
) -> tuple[tuple[cst.CSTNode, str, str], ...]:
    if input_node is None or type(call) is not cst.Call:
        return ()
    if fw == "tensorflow":
        tf = _module_alias(m, "tensorflow")
        if tf is None:
            return ()
        # tf.cast(x, tf.float32) in, tf.cast(..., tf.float16) out (a TensorFlow tensor has no .astype)
        return (
            (input_node, "before", f"{tf}.cast("),
            (input_node, "after", f", {tf}.float32)"),
            (_outer(call, "before"), "before", f"{tf}.cast("),
            (_outer(call, "after"), "after", f", {tf}.{dtype})"),
        )
    casts = _casts(m, fw, dtype, input_node)
    if casts is None:
        return ()
    up, down = casts
    edits: list[tuple[cst.CSTNode, str, str]] = []
    if _is_atom(input_node):
        edits.append((_outer(input_node, "after"), "after", up))
    else:
        edits.append((input_node, "before", "("))
        edits.append((input_node, "after", ")" + up))
    return _with_cast_back(m, call, down, edits)


def _with_cast_back(
    m: "RuleModule", call: cst.Call, down: str, inner: list[tuple[cst.CSTNode, str, str]]
) -> tuple[tuple[cst.CSTNode, str, str], ...]:
    """Cast the result back after the call -- or, for a manual mean (``x.sum(-1) / n``), after the division, so the
    float32 sum never has to fit in float16."""
    anchor: cst.CSTNode = call
    parent = _parents(m).get(id(call))
    if (
        type(parent) is cst.BinaryOperation
        and type(parent.operator) is cst.Divide
        and parent.left is call
        and not call.lpar
    ):
        anchor = parent
    edits: list[tuple[cst.CSTNode, str, str]] = []
    if anchor is not call and not getattr(anchor, "lpar", None):
        edits.append((anchor, "before", "("))
        down = ")" + down
    return tuple(edits + inner + [(_outer(anchor, "after"), "after", down)])


def _outer(node: cst.CSTNode, side: str) -> cst.CSTNode:
    """Positions exclude a node's own parentheses: anchor on the outermost one instead."""
    attr = "rpar" if side == "after" else "lpar"
    parens: Sequence[cst.LeftParen | cst.RightParen] | None = getattr(node, attr, None)
    if parens:
        return parens[-1] if side == "after" else parens[0]
    return node


def _explicit_dtype_fix(
    m: "RuleModule", call: cst.CSTNode, fw: str | None, dtype: str
) -> tuple[tuple[cst.CSTNode, str, str], ...]:
    """``x.sum(dtype=torch.float16)`` / ``np.mean(a, dtype=np.float16)``: accumulate in float32, cast back after."""
    if type(call) is not cst.Call or dtype != "float16":
        return ()
    dt = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "dtype"), None)
    if dt is None:
        return ()
    if fw == "torch":
        head = dotted(dt)
        up = (head.rsplit(".", 1)[0] + ".float32") if head and "." in head else "torch.float32"
        return _with_cast_back(m, call, ".half()", [(dt, "replace", up)])
    if fw == "numpy":
        np_name = _numpy_alias(m)
        up, down = (
            (f"{np_name}.float32", f".astype({np_name}.float16)") if np_name else ('"float32"', '.astype("float16")')
        )
        return _with_cast_back(m, call, down, [(dt, "replace", up)])
    return ()


def _method_input(m: "RuleModule", call: cst.CSTNode, keywords: tuple[str, ...]) -> cst.BaseExpression | None:
    """The tensor expression of ``x.sum(...)`` or ``torch.sum(x, ...)`` / ``np.sum(a, ...)``."""
    if type(call) is not cst.Call:
        return None
    func = call.func
    qual = m.qualify(func) if type(func) in (cst.Name, cst.Attribute) else None
    if qual and qual.split(".", 1)[0] in (
        "torch",
        "numpy",
        "jax",
        "tensorflow",
        "paddle",
        "keras",
        "tf_keras",
        "flax",
        "jmp",
    ):
        return (
            _arg(call, 0, keywords[0])
            if not any(a.keyword is not None and a.keyword.value in keywords[1:] for a in call.args)
            else None
        )
    if type(func) is cst.Attribute:
        return func.value
    return None


# ---------------------------------------------------------------------------------------------------------------
# the hooks


def _origin_notes(t: TensorV) -> "list[str | LazyNote]":
    return [note(f"input {t.dtype} tensor ", t.origin)] if t.origin is not None else []


def _report(
    m: "RuleModule",
    node: cst.CSTNode,
    code: str,
    op: str,
    kind: str,
    dtype: str,
    fw: str | None,
    count: Size | None,
    factors: list[tuple[str | None, Size]],
    t: TensorV,
    fix: tuple[tuple[cst.CSTNode, str, str], ...],
    explicit_dtype: bool = False,
) -> None:
    count_s, n = _count_text(count)
    if n is not None and n <= 2:
        return  # one or two values: a single rounding (or overflow) of a + b, no accumulation to warn about
    if kind in ("sum", "mean") and _seeds_backward_only(m, node):
        return  # (o * do).sum().backward(): the gradient of a sum or mean does not depend on its rounded value
    detail = _ACCUMULATION[code](kind, fw, n, count, tuple(factors))
    notes = _origin_notes(t)
    if fix:
        notes.append("fix: upcast before the reduction and cast the result back (shapecheck check --fix)")
    if code == "SHP301" and kind == "sum":
        notes.append(
            "casting back to float16 keeps the dtype but cannot hold a total above 65,504: keep the float32 result "
            "where the total itself can be that large"
        )
    if fw in ("torch", None) and kind in ("sum", "cumsum", "cumprod"):
        notes.append(f'inside torch.autocast(device_type="cuda") torch runs {kind} in float32 (not under CPU autocast)')
    m.ctx.report(node, code, {"op": op, "verb": _VERBS[kind], "count": count_s, "detail": detail}, notes, fix=fix)


def _seeds_backward_only(m: "RuleModule", node: cst.CSTNode) -> bool:
    """Is the reduction ``node`` used only as the seed of a backward pass: ``x.sum().backward()``, ``((o * do).sum() +
    (h * dh).sum()).backward()``, ``torch.autograd.grad(y.sum(), x)``? Its gradient (ones, or 1/n for a mean) does
    not depend on the value computed, so an overflowed or rounded total changes nothing."""
    parents = _parents(m)
    at = node
    parent = parents.get(id(at))
    while type(parent) is cst.BinaryOperation and type(parent.operator) in (cst.Add, cst.Subtract):
        at, parent = parent, parents.get(id(parent))
    if type(parent) is cst.Attribute and parent.value is at and parent.attr.value == "backward":
        call = parents.get(id(parent))
        return type(call) is cst.Call and call.func is parent
    if type(parent) is cst.Arg and parent.value is at and not parent.star:
        call = parents.get(id(parent))
        if type(call) is not cst.Call or type(call.func) not in (cst.Name, cst.Attribute):
            return False
        if m.qualify(call.func) not in ("torch.autograd.grad", "torch.autograd.backward"):
            return False
        first = call.args[0] if call.args else None
        return parent is first if parent.keyword is None else parent.keyword.value in ("outputs", "tensors")
    return False


def check_einops_reduction(
    m: "RuleModule",
    node: cst.CSTNode,
    op: str,
    t: TensorV,
    reduction: str | None,
    res: "Inferred | Problem",
    pattern: str,
) -> None:
    dtype = t.dtype
    if dtype not in ("float16", "bfloat16"):
        return None
    kind: str | None = None
    if reduction in ("sum", "prod"):
        kind = reduction
    elif reduction == "mean" and t.framework == "tensorflow" and dtype == "float16":
        kind = "mean"  # einops calls tf.reduce_mean: the float16 count and sum of TensorFlow's CPU kernel
    elif reduction in (None, "callable"):
        kind = _resolve_callable(m, node)
    if kind is None:
        return None
    fw = t.framework
    if fw in ("torch", None) and autocast_fp32(m, node, kind, kind) is not None:
        return None
    count, factors = _einops_count(t, res, pattern)
    # the fix: einops.reduce(x, ...) -> input is the first argument; a Reduce layer applied as layer(x) likewise
    input_node: cst.BaseExpression | None = None
    if type(node) is cst.Call:
        qual = m.qualify(node.func) if type(node.func) in (cst.Name, cst.Attribute) else None
        is_layer_ctor = bool(qual and qual.startswith("einops") and qual.rsplit(".", 1)[-1] == "Reduce")
        if not is_layer_ctor:
            input_node = _arg(node, 0, "tensor")
    text = f"einops.reduce(..., {pattern!r}, {kind!r})" if op == "einops.reduce" else f"{op} ({pattern!r}, {kind!r})"
    _report(
        m,
        node,
        _code_for(kind, dtype),
        text,
        kind,
        dtype,
        fw,
        count,
        factors,
        t,
        _make_fix(m, node, input_node, fw, dtype),
    )
    return None


def _resolve_callable(m: "RuleModule", node: cst.CSTNode) -> str | None:
    if type(node) is not cst.Call:
        return None
    red = _arg(node, 2, "reduction")
    if red is None:
        return None
    if type(red) in (cst.Name, cst.Attribute):
        q = m.qualify(red) or ""
        if q.split(".", 1)[0] in ("torch", "numpy", "jax"):
            return _CALLABLE_REDUCTIONS.get(q.rsplit(".", 1)[-1])
        return None
    if type(red) is cst.Lambda:
        body = m.code_for(red.body)
        if any(s in body for s in (".float()", "float32", ".double()", "float64", "dtype=")):
            return None
        for n, kind in _CALLABLE_REDUCTIONS.items():
            if f".{n}(" in body:
                return kind
    return None


def _einops_count(
    t: TensorV, res: "Inferred | Problem", pattern: str
) -> tuple[Size | None, list[tuple[str | None, Size]]]:
    outputs = getattr(res, "outputs", None)
    if t.shape is None or not outputs:
        return None, []
    count = product(t.shape).exact_div(product(outputs[0]))
    if "->" not in pattern:
        return count, []
    left, right = pattern.split("->", 1)
    import re

    ident = re.compile(r"[^\W\d]\w*")
    right_names = set(ident.findall(right))
    reduced = [a for a in dict.fromkeys(ident.findall(left)) if a not in right_names]
    axes = getattr(res, "axes", {}) or {}
    factors: list[tuple[str | None, Size]] = []
    for a in reduced:
        if a not in axes:
            return count, []
        factors.append((a, axes[a]))
    if factors and count is not None and product(s for _, s in factors) != count:
        return count, []
    return count, factors


def check_framework_reduction(
    m: "RuleModule", node: cst.CSTNode, name: str, t: TensorV, reduced: list[int] | None, kwargs: dict[str, Value]
) -> None:
    kind = _KINDS.get(name)
    if kind is None or "out" in kwargs:
        return None
    explicit = False
    dtype = t.dtype
    if "dtype" in kwargs:
        dt = kwargs["dtype"]
        if isinstance(dt, DtypeV):
            dtype, explicit = dt.name, True
        elif isinstance(dt, StrV):
            from .ops_common import DTYPE_NAMES

            dtype, explicit = DTYPE_NAMES.get(dt.value), True
        elif not isinstance(dt, NoneV):
            return None
    if dtype not in ("float16", "bfloat16"):
        return None
    fw = t.framework
    if kind == "mean":
        # torch and jax divide in float32 before storing, numpy's mean of float16 accumulates in float32 --
        # only an explicit dtype=float16 makes numpy accumulate in float16; TensorFlow's CPU kernel stores the sum
        # and the count in float16 (see the module docstring); Paddle's mean divides in float32
        if not (fw == "numpy" and explicit and dtype == "float16") and not (fw == "tensorflow" and dtype == "float16"):
            return None
    if fw in ("torch", None) and autocast_fp32(m, node, name, kind) is not None:
        return None
    if fw == "paddle" and paddle_amp_fp32(m, node) is not None:
        return None
    count: Size | None = None
    factors: list[tuple[str | None, Size]] = []
    if reduced is not None and t.shape is not None:
        factors = [((t.axes[i] if t.axes and i < len(t.axes) else None), t.shape[i]) for i in reduced]
        count = product(s for _, s in factors)
    op = _op_text(m, node, name)
    if explicit:
        fix = _explicit_dtype_fix(m, node, fw, dtype)
    else:
        input_node = _method_input(
            m,
            node,
            {"numpy": ("a", "input"), "tensorflow": ("input_tensor", "x", "input"), "paddle": ("x", "input")}.get(
                fw or "", ("input", "a", "x")
            ),
        )
        fix = _make_fix(m, node, input_node, fw, dtype)
    _report(m, node, _code_for(kind, dtype), op, kind, dtype, fw, count, factors, t, fix, explicit)
    return None


def _op_text(m: "RuleModule", node: cst.CSTNode, name: str) -> str:
    if type(node) is cst.Call:
        text = m.code_for(node)
        if len(text) <= 60 and "\n" not in text:
            return text
        func = dotted(node.func) if type(node.func) in (cst.Name, cst.Attribute) else None
        if func:
            return f"{func}(...)"
    return name
