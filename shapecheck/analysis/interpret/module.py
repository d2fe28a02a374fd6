"""One analysed module: its definitions, its annotations, and the calls between them."""

from __future__ import annotations

import ast
import contextlib
import math
import re
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping, TypeVar, cast

import libcst as cst

from ...diagnostics import details as D
from ...annotations.dtypes import accepts
from ...sizes import Size, Truth, at_least, equal
from .budget import BudgetExceeded, budgeted
from .context import Context, LazyNote, MadeUp, OpSpec, Pending, Where, counter_mark, note
from ..index.functions import (
    OPEN_KEYWORDS,
    ClassInfo,
    FunctionInfo,
    MethodTable,
    Param,
    bind_arguments,
    signature_params,
)
from ..index.imports import collect_imports, dotted, literal_str
from .interpreter import (
    EVAL_MODE,
    MAX_UNROLL,
    MODULE_READS,
    TRAIN_MODE,
    MODULE_DICT_ATTR,
    MODULE_LIST_ATTR,
    CONSUMED,
    OPTIONAL,
    TRAINING_SUFFIX,
    attr_path,
    mode_key,
    FrameInfo,
    Interpreter,
    Scope,
    _plain_value,
    held_modules,
    int_of,
    item_equal,
)
from ..index.jaxtyping_bridge import Annotation, dtype_class_of, parse_annotation
from ..index.module_facts import ITEM_ATTRIBUTE, WRITER, Escape, Rebinds, module_facts
from ..index.project import MODELLED, unmask
from . import argparse_defaults, entry_points, hooks, library_calls, objects, path_values, regex_calls, registries
from .library_calls import (
    GRADS,
    MAX_RANGE,
    NO_AXES,
    IfArray,
    PLAIN_DATA,
    RANDOM_STATES,
    TRACES,
    TraceSpec,
    grad_transform,
    static_literal,
    tensor_items,
    trace_spec,
)
from .state import ClassState, FunctionState, class_state, function_state
from .walk import STATEMENT_CLAUSES, contains
from ..rules import einops_calls as einops_rules, layers as layer_rules, ops as op_rules, shape_ops as shape_rules
from ..rules.ops_common import constant, surely_differ
from ..rules.shapes_bridge import shape_note
from .values import (
    DYNAMIC_ATTRS,
    UNKNOWN,
    BoolV,
    DictV,
    DtypeV,
    FloatV,
    FuncV,
    IntDictV,
    IntV,
    LayerV,
    ManyV,
    NoneV,
    ObjV,
    RefV,
    SeqV,
    StateDictV,
    StrV,
    TensorV,
    Value,
    callable_options,
    elements_of,
    join,
    number_of,
)
from ..index.imports import _module_name
from ..index.stubs import stub_index
from .interpreter import (
    _CLOSURE_MUTATORS,
    _frozen_record,
    _REGISTERS,
    _assigned_names,
    _global_names,
    _holds,
    _object_key,
    _plain_item_chain,
    _subscript_root,
    _target_names,
    _truth,
    _var_key,
    self_attribute,
)
from .narrowing import _guard_tests, default_call, guard_refinement, optional_annotation
from .values import (
    FLAX_INIT_RECORDS,
    FLAX_PARAM_RUNS,
    FLAX_TOKENS,
    INCOMPLETE_NAMESPACE,
    exact_values,
    join_elem,
    mark_stale,
)
from .walk import chain_root, children, has_own, memo, memo as walk_memo, walk_all

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ...annotations import Memo
    from ..index.project import Project
    from ..index.stubs import StubIndex
    from ..rules.shapes_bridge import Origin

# calls followed into analysed code, one inside the other: wrapper stacks (a reversible sequence's autograd function, its
# block, a Deterministic wrapper, PreNorm, the attention) go ten deep from a test
MAX_INLINE_DEPTH = 10
_LAMBDA = "<lambda>"  # in the key of a lambda's function (never analysed on its own)
_TYPE_ALIAS = frozenset({"typing.TypeAlias", "typing_extensions.TypeAlias"})  # PEP 613 explicit alias annotations

_Info = TypeVar("_Info", FunctionInfo, ClassInfo)

# tensor methods whose result holds every element of the tensor and no other value (an index tensor's largest value
# stays in it), whatever their arguments (``to`` / ``view`` / ``type`` only without a dtype that is not an integer)
_ELEMENT_KEEPING = frozenset(
    {
        "unsqueeze",
        "squeeze",
        "view",
        "reshape",
        "flatten",
        "contiguous",
        "clone",
        "detach",
        "to",
        "long",
        "int",
        "cuda",
        "cpu",
        "type",
        "view_as",
        "reshape_as",
    }
)
# ... and those that repeat the elements: the result holds them all when none of its axes can be empty
_ELEMENT_REPEATING = frozenset({"expand", "expand_as", "repeat", "tile"})


def _keeps_elements(method: str, base: TensorV, out: TensorV, args: list[Value], kwargs: dict[str, Value]) -> bool:
    """Does ``base.<method>(...)`` giving ``out`` hold each element of ``base`` (its largest index among them)?"""
    dtypes = [v for v in (*args, *kwargs.values()) if isinstance(v, DtypeV)]
    if any(not d.name.startswith(("int", "uint")) for d in dtypes):
        return False  # x.view(torch.float32) reinterprets the bits; x.to(torch.float16) rounds large values
    if method in _ELEMENT_KEEPING:
        return True
    if method not in _ELEMENT_REPEATING or out.shape is None:
        return False
    own = set(base.shape or ())
    return all(s in own or (s.as_int() or 0) >= 1 for s in out.shape)


# in-place tensor methods that keep the tensor's shape (any other ``x.name_(...)`` makes x unknown): the element-wise
# ones whose arguments the op rules check (``ops.INPLACE_ELEMENTWISE``), and these
_SHAPE_KEEPING_INPLACE = op_rules.INPLACE_ELEMENTWISE | frozenset(
    {
        "neg_",
        "abs_",
        "exp_",
        "log_",
        "sqrt_",
        "rsqrt_",
        "sin_",
        "cos_",
        "tanh_",
        "sigmoid_",
        "relu_",
        "zero_",
        "fill_",
        "normal_",
        "uniform_",
        "bernoulli_",
        "random_",
        "exponential_",
        "copy_",
        "masked_fill_",
        "masked_scatter_",
        "index_fill_",
        "index_add_",
        "index_copy_",
        "scatter_",
        "scatter_add_",
        "scatter_reduce_",
        "round_",
        "floor_",
        "ceil_",
        "trunc_",
        "sign_",
        "erf_",
        "reciprocal_",
        "requires_grad_",
        "detach_",
        "share_memory_",
        "fill_diagonal_",
        "nan_to_num_",
        "logical_not_",
        "bitwise_not_",
        "addmm_",
        "baddbmm_",
        "addbmm_",
        "add_relu_",
        "log_softmax_",
        "softmax_",
        "gelu_",
        "silu_",
        "elu_",
        "leaky_relu_",
        "hardtanh_",
        "dropout_",
        "where_",
        "float_power_",
        "log1p_",
        "expm1_",
        "exp2_",
        "log2_",
        "log10_",
        "square_",
        "frac_",
        "digamma_",
        "lgamma_",
        "polygamma_",
        "cauchy_",
        "geometric_",
        "log_normal_",
        "trunc_normal_",
        "orthogonal_",
        "kaiming_normal_",
        "kaiming_uniform_",
        "xavier_normal_",
        "xavier_uniform_",
        "eq_",
        "ne_",
        "lt_",
        "le_",
        "gt_",
        "ge_",
        "logical_and_",
        "logical_or_",
        "bitwise_and_",
        "bitwise_or_",
        "bitwise_xor_",
        "deg2rad_",
        "rad2deg_",
        "sinh_",
        "cosh_",
        "asin_",
        "acos_",
        "atan_",
        "tan_",
        "asinh_",
        "acosh_",
        "atanh_",
        "sgn_",
        "heaviside_",
        "nextafter_",
        "copysign_",
        "tril_",
        "triu_",
        "renorm_",
        "index_put_",
        "put_",
        "map_",
        "apply_",
    }
)

# callees that never mutate a list argument
# (``copy.deepcopy(model)``: a target network copied from the online one leaves the online one as built)
# framework functions whose rule reads a ``"**"`` keyword (the call spreads a value not known to be a dict of known
# entries): it gives the shape the known arguments decide whatever those keywords are, or stays unknown
UNKNOWN_KEYWORDS_OK = frozenset({"torch.nn.functional.interpolate", "torch.nn.functional.upsample"})

# a module-level name bound to an empty dict (``MODELS: dict[str, type] = {}``): a registry a factory's decorator
# may fill under the factory's argument (registries.registry_forms)
_EMPTY_GLOBAL_DICT = re.compile(r"^[A-Za-z_]\w*\s*(?::[^=\n]*)?=\s*(?:\{\}|dict\(\))\s*$", re.M)

_PURE_PREFIXES = (
    "einops.",
    "torch.",
    "numpy.",
    "jax.",
    "math.",
    "tensorflow.",
    "keras.",
    "paddle.",
    "flax.",
    "equinox.nn.",  # equinox's layers (``eqx.nn.Conv1d(..., padding=pad)``) read their arguments
    "copy.copy",
    "copy.deepcopy",
    "dataclasses.asdict",
    "dataclasses.astuple",
    "dataclasses.fields",
    "dataclasses.replace",  # a new instance built from the fields (the one handed on is left as it was)
    "dataclasses.is_dataclass",
    "json.loads",
)
# methods of a string that read their arguments and keep none (``str.format`` calls ``__format__`` of each, which for
# lists, dicts and the analysed code's objects without one is ``str()``)
_STR_READING_METHODS = frozenset({"format", "join", "startswith", "endswith", "split", "replace", "strip", "count"})

_PURE_BUILTINS = frozenset(
    {
        "len",
        "slice",
        "tuple",
        "list",
        "sum",
        "zip",
        "enumerate",
        "sorted",
        "reversed",
        "print",
        "isinstance",
        "range",
        "max",
        "min",
        "map",
        "filter",
        "any",
        "all",
        "iter",
        "next",
        "set",
        "dict",
        "str",
        "repr",
        "int",
        "float",
        "bool",
        "type",
        "id",
        "hash",
        "getattr",
        "hasattr",
    }
)


# builtins that set no attribute of their arguments (a constructor handing a parameter to one still keeps its
# arguments, ``objects._callee_keeps``): the pure ones but those that call what they are handed, and a few more
_KEEPING_BUILTINS = (_PURE_BUILTINS - {"map", "filter", "iter", "next"}) | {
    "abs",
    "round",
    "divmod",
    "pow",
    "issubclass",
    "callable",
}


# writes into sys.modules: ``sys.modules[name] = stub``, its update / setdefault, monkeypatch.setitem(sys.modules, ..),
# mock.patch.dict(sys.modules, ..)
_REPLACES_MODULES = re.compile(
    r"sys\.modules\s*\[[^\]\n]*\]\s*=(?!=)"
    r"|sys\.modules\.(?:update|setdefault|__setitem__)\s*\("
    r"|setitem\(\s*sys\.modules\b"
    r"|patch\.dict\(\s*(?:sys\.modules\b|['\"]sys\.modules['\"])"
)
# ``sys.modules["transformers"] = None`` (the import of that name fails, nothing is put in its place), or a stand-in
# under a name written out (``sys.modules["torch_geometric"] = pyg``)
_NAMED_ITEM = re.compile(r"sys\.modules\s*\[\s*(['\"])([\w.]+)\1\s*\]\s*=")
# ``sys.modules.update({"a": x, "b.c": y})``, ``sys.modules.setdefault("a", x)``, ``patch.dict(sys.modules, {...})``,
# ``monkeypatch.setitem(sys.modules, "a", x)``: the text from the call's opening parenthesis
_CALL_ARGS = re.compile(r"[^(]*\(\s*(?:['\"]?sys\.modules['\"]?\s*,\s*)?")
_DICT_LITERAL = re.compile(r"\{([^{}]*)\}")
_LITERAL_KEY = re.compile(r"\s*(['\"])([\w.]+)\1\s*:[^,]*(?:,|$)")
_LITERAL_NAME = re.compile(r"(['\"])([\w.]+)\1\s*,")
# ``sys.modules[name] = ...`` and the ``for name in ("a", "b.c"):`` over string literals on the line above it
_VARIABLE_ITEM = re.compile(r"sys\.modules\s*\[\s*([A-Za-z_]\w*)\s*\]\s*=")
# ``sys.modules["PIL." + name] = ...``: a name computed from a literal package prefix (group 2, the package)
_SUBMODULE_ITEM = re.compile(r"sys\.modules\s*\[\s*(['\"])([\w.]*\w)\.\1\s*\+[^\]\n]*\]\s*=")
_STRING = re.compile(r"(['\"])([\w.]+)\1")
# ``sys.modules["pkg"] = stub`` of a ``stub = types.ModuleType("pkg")`` given a ``stub.__path__``: the package is
# registered (its submodules are imported from that folder), not replaced by other code
_REGISTERED = re.compile(r"sys\.modules\s*\[[^\]\n]*\]\s*=\s*([A-Za-z_]\w*)\s*(?:#[^\n]*)?$", re.M)
# frameworks whose calls the analysis models: blocking one changes what it follows (``transformers`` is not one: only
# its base classes are read, and code importing them where the import is blocked fails before any shape matters)
_MODELLED_TOPS = MODELLED | frozenset(
    ("flax", "equinox", "keras", "tensorflow", "paddle", "lightning", "pytorch_lightning", "einx", "haiku", "optax")
    + ("torchvision", "timm", "beartype", "typeguard")
)


def _noted_modules(p: Pending) -> list["ModuleAnalysis"]:
    """The modules a finding's notes name lines of (the calls it was raised through, where its operands were made)."""
    out: list[ModuleAnalysis] = []
    for n in p.notes:
        for part in n.parts if isinstance(n, LazyNote) else ():
            m = getattr(part, "module", None)  # (a Where, an operand's Origin)
            if isinstance(m, ModuleAnalysis) and m not in out:
                out.append(m)
    return out


# libraries around the frameworks whose stand-ins (a module object put in ``sys.modules``, not None) change nothing
# the analysis follows but the names listed: it does not model torchvision, and of timm's layers it models with sizes
# only ``Mlp`` (``DropPath`` keeps its input's shape and ``trunc_normal_`` fills in place: any stand-in a driver writes
# for them, because timm cannot be installed beside its torch, does the same)
_STAND_IN_SIZED: Mapping[str, frozenset[str]] = MappingProxyType(
    {"timm": frozenset({"Mlp"}), "torchvision": frozenset()}
)
_FROM_IMPORT = re.compile(r"^[ \t]*from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n]*)", re.M)


def _imports_sized(m: "ModuleAnalysis", top: str) -> bool:
    """Does ``m`` import, from the library ``top`` a driver stands in for, a name whose sizes the analysis models
    (``_STAND_IN_SIZED``), or reach the library in a way not read here (``importlib.import_module``)?"""
    sized = _STAND_IN_SIZED[top]
    if re.search(rf"import_module\(\s*['\"]{re.escape(top)}\b", m.text):
        return True
    for f in _FROM_IMPORT.finditer(m.text):
        if f.group(1) == top or f.group(1).startswith(top + "."):
            names = {w.split()[0] for w in f.group(2).strip("()").replace("\\", " ").split(",") if w.strip()}
            if names & sized or "*" in names:
                return True
    return any(re.search(rf"\b{re.escape(top)}(?:\.\w+)*\.{name}\b", m.text) for name in sized)


def _imports_none_of(m: "ModuleAnalysis", names: frozenset[str] | None, neutral: frozenset[str] = frozenset()) -> bool:
    """Does ``m``'s text import none of the modules ``names`` (False when they are not known)? The stand-ins a driver
    puts in their place then change nothing ``m``'s own code runs. A submodule (``jax.experimental.optimizers``) is
    imported by ``from jax.experimental import optimizers`` too, and reached by code naming it
    (``jax.experimental.optimizers.l2_norm``); a module importing only its package does not see it otherwise. Of the
    ``neutral`` names (stand-in modules of a library in ``_STAND_IN_SIZED``), only the names whose sizes the analysis
    models count."""
    if names is None:
        return False
    for t in names:
        if t in neutral:
            if _imports_sized(m, t.partition(".")[0]):
                return False
            continue
        if re.search(rf"^\s*(?:from\s+{re.escape(t)}\b|import\s[^\n]*\b{re.escape(t)}\b)", m.text, re.M):
            return False
        if re.search(rf"import_module\(\s*['\"]{re.escape(t)}\b", m.text):
            return False
        parent, _, last = t.rpartition(".")
        if parent and (
            re.search(rf"^\s*from\s+{re.escape(parent)}\s+import\s[^\n]*\b{re.escape(last)}\b", m.text, re.M)
            or re.search(rf"\b{re.escape(t)}\b", m.text)
        ):
            return False
    return True


# a write into ``sys.modules`` of another module read off a package (``= jax.example_libraries.optimizers``)
_RELOCATED = re.compile(
    r"sys\.modules\[\s*['\"]([\w.]+)['\"]\s*\]\s*=\s*([A-Za-z_]\w*(?:\.\w+)+)\s*(?:#[^\n]*)?$", re.M
)

# a write into ``sys.modules`` of a new empty module (``sys.modules["h5py"] = types.ModuleType("h5py")``)
_EMPTY_STAND_IN = re.compile(
    r"sys\.modules\[\s*['\"][\w.]+['\"]\s*\]\s*=\s*(?:types\.)?ModuleType\(\s*['\"][\w.]+['\"]\s*\)\s*(?:#[^\n]*)?$",
    re.M,
)
# something put into a module read off ``sys.modules`` (``sys.modules["x"].Cls = ...``, ``setattr(sys.modules[...]``)
_FILLED_STAND_IN = re.compile(r"sys\.modules\[[^\]\n]+\]\s*\.\s*\w+\s*=(?!=)|setattr\(\s*sys\.modules\b")


_DEF_LINE = re.compile(r"^([ \t]*)def\s+([A-Za-z_]\w*)\s*\(([^)]*)\)", re.M)


def _helper_parameter_names(text: str, line_start: int, var: str) -> list[str] | None:
    """``sys.modules[name] = mod`` in a helper ``def stub(name, **attrs)`` of the module, called only as
    ``stub("torchaudio", ...)``, a string literal for that parameter each time (and never handed on): those names.
    None when the write is not in such a function, the parameter is not positional, or a call passes something
    else."""
    indent = len(text[line_start:]) - len(text[line_start:].lstrip(" \t"))
    helper = None
    for m in _DEF_LINE.finditer(text, 0, line_start):
        if len(m.group(1)) < indent:
            helper = m  # the last def before the write, less indented than it (its body runs to the write unless a
            # later def at its level or above starts first: then that later def is taken)
    if helper is None:
        return None
    body = text[helper.end() : line_start]
    if re.search(rf"^[ \t]{{0,{len(helper.group(1))}}}\S", body[body.find("\n") + 1 :], re.M):
        return None  # the def's body ended before the write (a statement at its indentation or less in between)
    params = [q.strip().split(":")[0].split("=")[0].strip() for q in helper.group(3).split(",")]
    if var not in params or any(q.startswith("*") for q in params[: params.index(var) + 1]):
        return None
    k = params.index(var)
    name = helper.group(2)
    uses = [u.start() for u in re.finditer(rf"\b{re.escape(name)}\b", text) if u.start() != helper.start(2)]
    names: list[str] = []
    literal_args = re.compile(r"\(\s*" + r"[^,()]*,\s*" * k + r"(['\"])([\w.]+)\1\s*[,)]")
    for u in uses:
        call = literal_args.match(text, u + len(name))
        if call is None:
            return None  # handed on, or called with a name not written out
        names.append(call.group(2))
    return names or None


_PASS_THROUGH_HEADER = re.compile(r"\s*(?:if|elif|else|try|with)\b")


def _binding_header(text: str, line_start: int) -> str | None:
    """The first line above the one at ``line_start`` that encloses it and may bind its names: a ``for`` or a
    ``def`` (an ``if``, ``else``, ``try`` or ``with`` between is passed through). None at module level, or when the
    enclosing line is anything else (a continued expression, a class)."""
    line = text[line_start : text.find("\n", line_start) if "\n" in text[line_start:] else len(text)]
    indent = len(line) - len(line.lstrip(" \t"))
    end = line_start
    while end > 0 and indent > 0:
        start = text.rfind("\n", 0, end - 1) + 1
        above = text[start : end - 1]
        end = start
        stripped = above.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        level = len(above) - len(stripped)
        if level >= indent:
            continue
        if _PASS_THROUGH_HEADER.match(stripped):
            indent = level
            continue
        return above if stripped.startswith(("for ", "def ")) else None
    return None


def _literal_loop_names(header: str, var: str) -> list[str] | None:
    """The names ``var`` takes in a loop over a literal: ``for name in ("a", "b"):`` or ``for name, attr in (("a",
    "A"), ("b", "B")):`` (Python's own parser reads the header; None for anything else)."""
    try:
        tree = ast.parse(header.strip() + "\n    pass\n")
    except SyntaxError:
        return None
    loop = tree.body[0] if tree.body else None
    if not isinstance(loop, ast.For):
        return None
    try:
        items = ast.literal_eval(loop.iter)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return None
    if not isinstance(items, (tuple, list)) or not items:
        return None
    target = loop.target
    if isinstance(target, ast.Name) and target.id == var:
        picked = list(items)
    elif isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
        position = [e.id for e in target.elts if isinstance(e, ast.Name)]
        if var not in position:
            return None
        k = position.index(var)
        if not all(isinstance(i, (tuple, list)) and len(i) == len(position) for i in items):
            return None
        picked = [i[k] for i in items]
    else:
        return None
    if not all(isinstance(n, str) and re.fullmatch(r"[\w.]+", n) for n in picked):
        return None
    return picked


def _writes_none(text: str, at: int, name: str) -> bool:
    """Is ``name`` blocked (None) rather than stood in for, by the write at ``at`` or by any literal write of the
    module (``sys.modules["timm"] = None``, ``{"timm": None}``, ``setitem(sys.modules, "timm", None)``)?"""
    if re.match(r"sys\.modules\s*\[[^\]\n]*\]\s*=\s*None\b", text[at:]):
        return True
    quoted = rf"['\"]{re.escape(name)}['\"]"
    return re.search(rf"{quoted}\s*(?:\]\s*=|:|,)\s*None\b", text) is not None


def _written_module_names(text: str, at: int) -> list[str] | None:
    """The module names the write into ``sys.modules`` starting at ``at`` (a ``_REPLACES_MODULES`` match) puts in it,
    when each is a string literal (None: a name computed, a dict not written out)."""
    m = _NAMED_ITEM.match(text, at)
    if m is not None:
        return [m.group(2)]
    m = _SUBMODULE_ITEM.match(text, at)
    if m is not None:
        # ``sys.modules["PIL." + sub] = ...``: some submodule of that package, which its importers may see
        return [m.group(2)]
    head = text[at : at + 40]
    if "[" in head.split("(", 1)[0]:
        # ``sys.modules[name] = stub`` inside ``for name in ("a", "b.c"):`` (or ``for name, attr in (("a", "A"),
        # ...)``, an ``if name not in sys.modules:`` between), or inside a helper called with literal names
        var = _VARIABLE_ITEM.match(text, at)
        if var is None:
            return None
        line_start = text.rfind("\n", 0, at) + 1
        header = _binding_header(text, line_start)
        if header is None:
            return None
        if header.lstrip().startswith("def "):
            return _helper_parameter_names(text, line_start, var.group(1))
        return _literal_loop_names(header, var.group(1))
    args = _CALL_ARGS.match(text, at)
    if args is None:
        return None
    rest = text[args.end() :]
    if rest.startswith("{"):
        d = _DICT_LITERAL.match(rest)
        if d is None:
            return None
        body = d.group(1).strip().rstrip(",")
        names: list[str] = []
        pos = 0
        while pos < len(body):
            k = _LITERAL_KEY.match(body, pos)
            if k is None:
                return None  # a key not a literal, ``**stubs``, a nested call
            names.append(k.group(2))
            pos = k.end()
        return names or None
    k = _LITERAL_NAME.match(rest)
    return [k.group(2)] if k is not None else None


# how many names functions read from a module level still running (``ModuleAnalysis.global_value``): a call whose run
# read one keeps no summary, since the running statement may bind the name again before the next call
RUNNING_READS: list[int] = [0]
# >0 while a callee runs to see what its body alone makes of arguments of unknown shape (``_body_rank``): such an
# argument then stays unknown instead of taking its parameter's annotation
RAW_UNKNOWN: list[int] = [0]


class ModuleAnalysis:
    def __init__(
        self,
        text: str,
        path: str,
        tree: cst.Module,
        project: "Project | None" = None,
        module_name: str = "",
        is_package: bool = False,
    ) -> None:
        from ..rules.registry import OpContext
        from ..rules.shapes_bridge import ShapeChecks

        self.text = text
        self.path = path
        self.tree = tree
        self.project = project
        self.module_name = module_name
        self.imports = collect_imports(
            tree, module_name, is_package, project.script_local(module_name) if project is not None else None
        )
        self.is_package = is_package
        self.undecorated: set[str] = set()  # functions a grad decorator is running undecorated right now
        self.ctx = Context(path)
        self.globals: dict[str, Value] = {}
        self.functions: dict[str, FunctionInfo] = {}  # key -> the function as last signed (index/functions.py)
        self.lambda_defs: dict[int, tuple[cst.Lambda, cst.FunctionDef]] = {}  # id(lambda) -> its function
        self.classes: dict[str, ClassInfo] = {}
        # classes a function body defines (``class Net(nn.Module):`` in a test), made when the statement runs
        # (local_class): apart, so that walks over the module's classes never see the table grow under them
        self.local_classes: dict[str, ClassInfo] = {}
        self.function_states: dict[str, FunctionState] = {}  # what running them learnt (state.py)
        self.class_states: dict[str, ClassState] = {}
        self.wrappers: dict[str, str] = {}  # Float = TorchTyping(jaxtyping.Float)
        self.ann_aliases: dict[str, Annotation] = {}  # Image = Float[Tensor, "b c h w"]
        self.ops = OpContext(self)
        self.shapes = ShapeChecks(self)
        self._lines: list[int] | None = None
        self.module_ran = False
        self.module_ran_fully = False
        # the module level's scope while its statements run: a function they call reads a name that the statement
        # running now bound (the ``if __name__ == "__main__":`` block) from it (``global_value``)
        self.running_scope: Scope | None = None
        # functions already run with their findings reported here (a class's constructor and the helpers it calls on
        # self, run with symbolic sizes): the module's own pass does not run them again
        self.standalone_done: set[str] = set()
        self.deferred_main: list[cst.CSTNode] = []  # ``if __name__ == "__main__":`` blocks not run on import
        self.own_runs: dict[str, Value] = {}  # what the functions the module's top level ran on their own returned
        # argparse options' other choices a function analysed on its own offers, and the one a run of it takes
        # (argparse_defaults._choices_of)
        self.argparse_alternatives: dict[str, list[tuple[int, str, str, Value]]] = {}
        self.argparse_choice: tuple[int, str, str, Value] | None = None
        self.analysed = False
        self.tab_shift: dict[int, tuple[int, int]] = {}  # lines whose indentation tabs were expanded for libcst
        self.assigned_cache: dict[int, set[str]] = {}
        # a dependency parsed with its function bodies blanked (Project.module): project.unmask parses a def's
        # top-level statement in full before its body runs (the whole text before the module is analysed itself)
        self.masked = False
        # id(def or class of the blanked tree) -> (its top-level statement, that statement's first and last line)
        self.fragment_of: dict[int, tuple[cst.CSTNode, tuple[int, int]]] = {}
        self.full_nodes: dict[int, cst.CSTNode] = {}  # id(def or class of the blanked tree) -> complete node
        self.line_offset = 0  # lines before the tree's first line (a documentation example parsed without them)
        self._unstable: frozenset[str] | None = None  # stable_global's answer, read once
        self._handed: dict[str, tuple[Escape, ...]] = {}  # of those, names only handed to calls (module_facts)
        self._kept: dict[str, bool] = {}  # stable_global's answer for those
        self._registries: dict[str, registries.Form] | None = None  # registries()' answer, read once
        # registries.lookup's and registries.contents' answers, by (dict, key or "", the entry module)
        self.registry_cache: dict[tuple[str, str, str | None], object] = {}
        self._param_registries: dict[str, registries.ParamFactory] | None = None  # (param_registry_contents)
        self._rebinds: Rebinds | None = None  # rebound_global's and patched_class_attr's answer, read once
        self._patched_quals: frozenset[str] | None = None  # patched_library's answer, read once
        self._patched_imported: frozenset[str] | None = None  # patched_imported_classes' answer, read once
        self.other_trees: list[tuple[cst.Module, int]] = []  # (tree, its first line - 1): the blanked tree, pieces

    @property
    def replaces_modules(self) -> bool:
        """The module puts its own objects in ``sys.modules`` (a test that stubs a heavy dependency before importing
        the code under test): what the project's imports resolve to when its code runs is not what the analysis
        follows, so what fails inside project code of other modules called from here is not definite."""
        cached = self.__dict__.get("_replaces_modules")
        if cached is None:
            cached = self.__dict__["_replaces_modules"] = any(not self._only_blocks(at) for at in self._module_writes())
        return cached

    def _module_writes(self) -> list[int]:
        """Where the module's code writes into ``sys.modules`` (``_REPLACES_MODULES``): the offsets of those writes,
        none of them in a comment's text."""
        cached: list[int] | None = self.__dict__.get("_writes")
        if cached is None:
            text = self.text
            cached = self.__dict__["_writes"] = (
                [
                    m.start()
                    for m in _REPLACES_MODULES.finditer(text)
                    if "#" not in text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
                ]
                if "sys.modules" in text
                else []
            )
        return cached

    def _only_blocks(self, at: int) -> bool:
        """The write into ``sys.modules`` at ``at`` names, in literals, only modules that are neither of the analysed
        tree nor frameworks the analysis models: ``sys.modules["xformers"] = None`` (that import fails, the code takes
        its fallback: an example hiding an incompatible optional dependency), or a stand-in for a dependency that is
        not installed (``sys.modules.update({"torch_geometric": pyg, ...})`` before importing a model whose other
        classes use it). What the analysis follows is the same either way: such a module's names are unknown to it."""
        if at in self._registrations():
            return True
        names = _written_module_names(self.text, at)
        if not names:
            return False
        paths = self.project.paths if self.project is not None else {}
        return all(
            name.partition(".")[0] not in _MODELLED_TOPS and name.partition(".")[0] not in paths and name not in paths
            for name in names
        )

    def _registrations(self) -> frozenset[int]:
        """Where the module registers packages of its own files (the offsets of those writes into sys.modules):
        ``sys.modules[name] = stub`` after ``stub = types.ModuleType(name)`` and ``stub.__path__ = [...]`` (a driver
        importing a package without running its heavy ``__init__``): the analysis resolves ``pkg.sub`` to the same
        files."""
        cached: frozenset[int] | None = self.__dict__.get("_registered")
        if cached is not None:
            return cached
        out: set[int] = set()
        for m in _REGISTERED.finditer(self.text):
            stub = re.escape(m.group(1))
            # (each a statement of its own line, or after a ``;``: ``m = ModuleType(n); m.__path__ = [p]``)
            if re.search(rf"(?:^|;)\s*{stub}\s*=\s*(?:types\.)?ModuleType\(", self.text, re.M) and re.search(
                rf"(?:^|;)\s*{stub}\.__path__\s*=", self.text, re.M
            ):
                out.add(m.start())
        found = self.__dict__["_registered"] = frozenset(out)
        return found

    def blocked_modules(self) -> tuple[frozenset[str] | None, frozenset[str]]:
        """The top-level names of the modules outside the analysed tree that this module's writes into
        ``sys.modules`` replace (None: a name not written out, or a module of the tree replaced, whose importers may
        name it relatively; a package it registers is not replaced), and of those the ones replaced by stand-in
        modules (not None) of a library whose names the analysis mostly does not model (``_STAND_IN_SIZED``): a
        module importing from these only other names still runs as analysed."""
        out: set[str] = set()
        held: set[str] = set()  # (blocked however the importer uses them: ``_STAND_IN_SIZED``)
        registered = self._registrations()
        paths = self.project.paths if self.project is not None else {}
        for at in self._module_writes():
            if at in registered:
                continue
            names = _written_module_names(self.text, at)
            if names is None:
                return None, frozenset()
            moved = _RELOCATED.match(self.text, at)
            if moved is not None and moved.group(1).rpartition(".")[2] == moved.group(2).rpartition(".")[2]:
                # ``sys.modules["jax.experimental.optimizers"] = jax.example_libraries.optimizers``: the library's own
                # module under the name it had before it moved (the same code)
                if moved.group(1) not in paths and moved.group(1).partition(".")[0] not in paths:
                    continue
            if _EMPTY_STAND_IN.match(self.text, at) and not _FILLED_STAND_IN.search(self.text):
                # ``sys.modules["h5py"] = types.ModuleType("h5py")``: an empty module, whose every attribute read
                # raises; no value the analysis follows comes from it (it knows nothing of a module not installed)
                if all(n not in paths and n.partition(".")[0] not in paths for n in names):
                    continue
            for n in names:
                if n in paths or n.partition(".")[0] in paths:
                    return None, frozenset()
                if n.partition(".")[0] not in _MODELLED_TOPS:
                    # a stand-in for a dependency the analysis knows nothing of anyway (``_only_blocks``): its names
                    # are unknown to the analysis whether the real module or the stand-in is imported
                    continue
                out.add(n)  # (a submodule replaced: only its importers, and code naming it, see the stand-in)
                if n.partition(".")[0] not in _STAND_IN_SIZED or _writes_none(self.text, at, n):
                    held.add(n)
        return frozenset(out), frozenset(out - held)

    @property
    def stubs(self) -> StubIndex:

        return stub_index(self.project.stub_paths if self.project is not None else ())

    # ------------------------------------------------------------------ set-up
    def code_for(self, node: cst.CSTNode) -> str:
        return self.tree.code_for_node(node)

    def qualify(self, node: cst.BaseExpression) -> str | None:
        name = dotted(node)
        if name is None:
            return None
        return self.qualify_dotted(name)

    def qualify_dotted(self, name: str) -> str | None:
        """``qualify`` of the Name/Attribute expression whose ``dotted`` text is ``name``."""
        head = name.split(".", 1)[0]
        q = self.imports.qualify_dotted(name) if head not in self._shadowed_imports() else None
        if q is not None and self.project is not None:
            # ``from .utils import *`` below ``from einops import rearrange``: the star import binds the name again
            # when the module it reads binds it
            for star in reversed(self._late_stars().get(head, ())):
                q2 = self.project.qualify_star(star, name)
                if q2:
                    return q2
        if q is not None:
            return self.project.canonical(q) if self.project is not None else q
        if head in self.globals and isinstance(self.globals[head], RefV):
            ref = self.globals[head]
            assert isinstance(ref, RefV)
            rest = name[len(head) :]
            return ref.qualname + rest
        if self.project is not None and head not in self.globals:
            for star in self.imports.star_modules():
                q2 = self.project.qualify_star(star, name)
                if q2:
                    return q2
        return None

    def _shadowed_imports(self) -> frozenset[str]:
        """Names a module-level import binds that a later module-level statement binds again (``def rearrange``,
        ``class Linear``, ``repeat = ...`` below ``from einops import rearrange, repeat``): the name holds that value,
        not the import's (names an import inside a function also binds are left to the import)."""
        cached: frozenset[str] | None = self.__dict__.get("_shadowed_import_names")
        if cached is None:
            cached = self.__dict__["_shadowed_import_names"] = _names_shadowing_imports(self.tree, self.imports.records)
        return cached

    def _late_stars(self) -> dict[str, tuple[str, ...]]:
        """For a name a module-level import binds: the modules of the star imports that come after its last such
        import (in order). Names an import inside a function also binds are left out."""
        cached: dict[str, tuple[str, ...]] | None = self.__dict__.get("_late_star_modules")
        if cached is None:
            from ..index.resolve import ImportRecord, star_module

            local = self.project.script_local(self.module_name) if self.project is not None else None
            nested = {
                r.asname or (r.name if r.name else r.module.split(".", 1)[0]) for r in self.imports.records if r.nested
            }
            last: dict[str, int] = {}
            stars: list[tuple[int, str]] = []
            for i, stmt in enumerate(self.tree.body):
                for n in _import_names(stmt):
                    last[n] = i
                for level, module in _star_imports(stmt):
                    star = star_module(ImportRecord(level, module, "*", None), self.module_name, self.is_package, local)
                    if star:
                        stars.append((i, star))
            cached = {}
            if stars:
                for n, i in last.items():
                    after = tuple(m for j, m in stars if j > i)
                    if after and n not in nested:
                        cached[n] = after
            self.__dict__["_late_star_modules"] = cached
        return cached

    def annotation_of(self, node: cst.BaseExpression) -> Annotation | None:
        if type(node) in (cst.Name, cst.Attribute):
            name = dotted(node)
            if name in self.ann_aliases:
                return self.ann_aliases[name]
            q = self.qualify(node)
            if q and self.project is not None:
                alias = self.project.annotation_alias(q)
                if alias is not None:
                    return alias
            return None
        wrappers = dict(self.wrappers)
        if self.project is not None and type(node) is cst.Subscript:
            head = node.value
            q = self.qualify(head)
            if q:
                w = self.project.wrapper(q)
                hd = dotted(head)
                if w and hd:
                    wrappers[hd] = w
                if dtype_class_of(q) is None and hd and not w:
                    real = self.project.reexported_dtype_class(q)
                    if real is not None:
                        return self._with_dtype_class(node, real, wrappers)
        return parse_annotation(node, self.qualify, wrappers, self.ann_aliases, self.code_for, self._array_alias)

    def _with_dtype_class(self, node: cst.Subscript, dtype_class: str, wrappers: dict[str, str]) -> Annotation | None:
        hd = dotted(node.value) or ""
        return parse_annotation(
            node,
            lambda n: f"jaxtyping.{dtype_class}" if dotted(n) == hd else self.qualify(n),
            wrappers,
            self.ann_aliases,
            self.code_for,
            self._array_alias,
        )

    def _array_alias(self, qualname: str) -> str | None:
        """The array class an imported name stands for when another module of the tree binds it to one
        (``T = torch.Tensor`` in ``proteus/types``, ``from proteus.types import T``): ``torch.Tensor``."""
        return self.project.reexported_array(qualname) if self.project is not None else None

    def collect_definitions(self) -> None:
        for stmt in self.tree.body:
            self._collect(stmt, prefix="")

    def _decorator_name(self, d: cst.BaseExpression) -> str:
        """A class decorator's qualified name; ``@dataclass(frozen=True)`` is ``dataclasses.dataclass`` (its fields
        are still the constructor's parameters), unless it passes ``init`` (a class writing its own constructor)."""
        if type(d) is cst.Call:
            if any(a.keyword is not None and a.keyword.value == "init" for a in d.args) or any(a.star for a in d.args):
                return ""
            d = d.func
        return self.qualify(d) or dotted(d) or ""

    def _collect(
        self,
        stmt: cst.CSTNode,
        prefix: str,
        cls: ClassInfo | None = None,
        rebound: frozenset[int] = frozenset(),
        local: bool = False,
    ) -> None:
        """Index ``stmt``'s defs and classes; ``rebound``: ids of the methods their class body assigns again;
        ``local``: a class a function body defines (into ``local_classes``, no module name bound)."""
        if type(stmt) is cst.FunctionDef:
            key = f"{self.module_name}:{prefix}{stmt.name.value}"
            decorators = [dotted(d.decorator) or "" for d in stmt.decorators]
            if cls is not None and key in self.functions and _accessor_of(stmt, decorators):
                # ``@codebook.setter`` after ``@property def codebook``: reading the attribute still runs the getter;
                # the setter keeps a key of its own (analysed on its own like any method, never looked up by name)
                key += ".<setter>"
            self.functions[key] = FunctionInfo(
                key,
                stmt,
                self,
                (),  # signed when the module level reaches the def (_sign_defined), and after it (finish_signatures)
                None,
                cls.key if cls else None,
                is_static=any(n.endswith("staticmethod") for n in decorators),
                is_classmethod=any(n.endswith("classmethod") for n in decorators),
                rebound=id(stmt) in rebound,
            )
            if cls is None:
                self.globals[stmt.name.value] = FuncV(key)
        elif type(stmt) is cst.ClassDef:
            key = f"{self.module_name}:{prefix}{stmt.name.value}"
            body = stmt.body.body if type(stmt.body) is cst.IndentedBlock else ()
            methods = {s.name.value: f"{key}.{s.name.value}" for s in body if type(s) is cst.FunctionDef}
            ci = ClassInfo(
                key,
                stmt,
                self,
                MethodTable(methods, self.functions),
                tuple(self.qualify(b.value) or (dotted(b.value) or "") for b in stmt.bases if b.keyword is None),
                tuple(self._decorator_name(d.decorator) for d in stmt.decorators),
            )
            (self.local_classes if local else self.classes)[key] = ci
            if cls is None and not local:
                self.globals[stmt.name.value] = RefV("class:" + key)
            rebound = _rebound_methods(body)
            for inner in body:
                self._collect(inner, prefix=f"{prefix}{stmt.name.value}.", cls=ci, rebound=rebound, local=local)
        elif isinstance(stmt, (cst.If, cst.Try)) and cls is None:
            if isinstance(stmt.body, cst.IndentedBlock):
                # a def or class the other branches may bind too (``if cuda: def f(...) else: def f(...)``, a
                # fallback in ``except ImportError:``, a try's ``else:``): which one the name holds is not known
                elsewhere = _bound_in_other_branches(stmt)
                for inner in stmt.body.body:
                    if isinstance(inner, (cst.FunctionDef, cst.ClassDef)) and inner.name.value in elsewhere:
                        continue
                    self._collect(inner, prefix)

    def finish_signatures(self) -> None:
        for fi in list(self.functions.values()):
            self._sign(fi)

    def _sign(self, fi: FunctionInfo) -> None:
        """Read ``fi``'s annotations with the aliases known now: the signed function replaces it in the table."""
        params = signature_params(fi.node, self.annotation_of)
        ret = fi.node.returns
        return_ann = self.annotation_of(ret.annotation) if ret is not None else None
        self.functions[fi.key] = replace(fi, params=params, return_ann=return_ann)

    def _sign_defined(self, stmt: cst.FunctionDef | cst.ClassDef) -> None:
        """The signatures a module-level ``def``/``class`` statement creates, with the aliases known at that point (as
        Python evaluates annotations when the ``def`` runs): module-level code below it calls them with these."""
        key = f"{self.module_name}:{stmt.name.value}"
        if type(stmt) is cst.FunctionDef:  # a lookup, not a scan: this runs for every def of the module
            fi = self.functions.get(key)
            # its complete node if its body ran already (project.unmask)
            if fi is not None and fi.node is self.full_nodes.get(id(stmt), stmt):
                self._sign(fi)
            return
        for ck, ci in self.classes.items():
            if ck == key or ck.startswith(key + "."):  # the class and the classes nested in it
                for fi in ci.methods.values():
                    self._sign(fi)

    # ------------------------------------------------------------------ module-level run
    def run_module(self) -> None:
        if self.module_ran:
            return
        self.module_ran = True
        self.collect_definitions()
        hooks.new_run()
        scope = Scope()
        if not self.analysed and self.module_name:
            # run for an import: ``__name__`` is the module's name, so ``MAIN = __name__ == "__main__"`` is False
            # and an ``if MAIN:`` block does not run (ARENA's solutions re-imported by their tests)
            scope.vars["__name__"] = StrV(self.module_name)
        interp = Interpreter(self, FrameInfo("<module>"), scope)
        self.running_scope = scope
        with budgeted() as budget:
            try:
                self._run_module_body(interp, scope)
            except BudgetExceeded as exc:
                if exc.budget is not budget:
                    raise
                first = self.tree.body[0] if self.tree.body else self.tree
                self.ctx.report(first, "SHP903", {"what": "the module's top-level code", "detail": exc.detail})
            finally:
                self.running_scope = None
                self.globals.pop("__name__", None)  # (the deferred ``__main__`` blocks read their own)
        self.finish_signatures()
        self.module_ran_fully = True

    def _run_module_body(self, interp: Interpreter, scope: Scope, stmts: "Sequence[cst.CSTNode] | None" = None) -> None:
        body = self.tree.body if stmts is None else stmts
        for at, stmt in enumerate(body):
            if (
                stmts is None
                and not self.analysed
                and _main_guard(stmt)
                and all(_main_guard(s) for s in body[at + 1 :])
            ):
                # ``if __name__ == "__main__":`` ending a module imported by another: Python does not run it there,
                # and it runs when the module itself is checked (``analyse``), not in every process that imports it
                # (the -j 2 preload ran three scripts' main() of transformer-lens, 1.9 s of its 4.9 s)
                self.deferred_main = list(body[at:])
                break
            if stmts is None and self.analysed and _main_guard(stmt) and all(_main_guard(s) for s in body[at + 1 :]):
                # the module checked, run as the script: its ``__main__`` blocks run last, and what they bind is the
                # script's, not the module's another module imports (its globals are put back as they were)
                self._run_main_blocks(interp, scope, body[at:])
                break
            if type(stmt) is cst.SimpleStatementLine:
                for small in stmt.body:
                    if (
                        type(small) is cst.Assign
                        and len(small.targets) == 1
                        and type(small.targets[0].target) is cst.Name
                    ):
                        self._maybe_alias(small.targets[0].target.value, small.value)
                    elif (
                        type(small) is cst.AnnAssign
                        and small.value is not None
                        and type(small.target) is cst.Name
                        and self.qualify(small.annotation.annotation) in _TYPE_ALIAS
                    ):
                        # PEP 613: ``Image: TypeAlias = Float[Tensor, "b c h w"]`` is the same alias as the plain
                        # assignment (jaxtyping and the type checkers read it so)
                        self._maybe_alias(small.target.value, small.value)
            if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                self._sign_defined(stmt)
                continue
            if type(stmt) is cst.If:
                # ``if version_ok: LayerNorm = partial(nn.LayerNorm, bias=False)`` rebinding a def or class: the path
                # that does not run the branch keeps the definition (values.join of two callables)
                for k in _rebound_names(stmt):
                    got = self.globals.get(k)
                    if k not in scope.vars and isinstance(got, (FuncV, RefV)):
                        scope.vars[k] = got
            interp.run_stmt(stmt)
            rebound: set[str] | None = None
            for k, v in scope.vars.items():
                if v is UNKNOWN and k in self.globals:
                    # an unknown value leaves a def/class's binding alone, unless this statement assigns the name:
                    # ``shift = torch.vmap(torch.vmap(shift), in_dims=(0, None))`` is no longer the def
                    if rebound is None:
                        rebound = _rebound_names(stmt)
                    if k not in rebound:
                        continue
                self.globals[k] = v

    def _run_deferred_main(self) -> None:
        """The ``if __name__ == "__main__":`` blocks left out when the module's top level ran for an import: run now,
        after the rest of the top level, as Python runs them when the module is the script."""
        stmts, self.deferred_main = self.deferred_main, []
        scope = Scope()
        interp = Interpreter(self, FrameInfo("<module>"), scope)
        self.running_scope = scope
        with budgeted() as budget:
            try:
                self._run_main_blocks(interp, scope, stmts)
            except BudgetExceeded as exc:
                if exc.budget is not budget:
                    raise
                self.ctx.report(stmts[0], "SHP903", {"what": "the module's top-level code", "detail": exc.detail})
            finally:
                self.running_scope = None

    def _run_main_blocks(self, interp: Interpreter, scope: Scope, stmts: "Sequence[cst.CSTNode]") -> None:
        """The ``if __name__ == "__main__":`` blocks ending the module checked, run last. What they bind is left out
        of the module's globals afterwards: another module importing this one does not run them. (``__name__`` is
        left unknown: taken as ``"__main__"``, the blocks' own checks -- jukebox's ``check_sample()`` asserting a
        sample count a method stored as an attribute advanced -- rested on object state the analysis does not
        follow through every call, and false SHP207 followed.)"""
        saved = dict(self.globals)
        try:
            self._run_module_body(interp, scope, stmts)
        finally:
            self.globals.clear()
            self.globals.update(saved)

    def _maybe_alias(self, name: str, value: cst.BaseExpression) -> None:
        # Float = TorchTyping(jaxtyping.Float)  -> single-argument wrapper
        if type(value) is cst.Call and len(value.args) >= 1:
            arg = value.args[0].value
            q = self.qualify(arg)
            if (
                q is None
                and type(arg) is cst.Name
                and arg.value in self._shadowed_imports()
                and arg.value not in self.globals
                and arg.value not in self.wrappers
            ):
                # ``from jaxtyping import Float`` then ``Float = TorchTyping(Float)`` (alphafold3-pytorch): the
                # argument is read before the name is bound again, so it is still the import's
                q = self.imports.qualify_dotted(arg.value)
            dc = dtype_class_of(q)
            if dc is not None:
                first = value.args[0]
                if first.keyword is None and not first.star and self._shape_wrapper_class(value.func):
                    self.wrappers[name] = dc
                return
        # Image = Float[Tensor, "b c h w"]  -> annotation alias
        if type(value) is cst.Subscript:
            ann = self.annotation_of(value)
            if ann is not None:
                self.ann_aliases[name] = ann
                return
        # F16 = jaxtyping.Float16 -> re-export of a dtype class
        if type(value) in (cst.Name, cst.Attribute):
            dc = dtype_class_of(self.qualify(value))
            if dc is not None:
                self.globals[name] = RefV(f"jaxtyping.{dc}")

    def _shape_wrapper_class(self, func: cst.BaseExpression) -> bool:
        """Is ``func`` in ``Float = func(jaxtyping.Float)`` lucidrains' ``TorchTyping``: a class of the analysed code
        whose ``__init__`` keeps its first argument (``self.abstract_dtype = abstract_dtype``) and whose
        ``__getitem__(self, shapes)`` is ``return self.abstract_dtype[Tensor, shapes]``? Only then is ``Float["b n"]``
        jaxtyping's ``Float[Tensor, "b n"]``. Any other callee (a ``__getitem__`` that returns ``Tensor``, prefixes
        the shape, or code we cannot see) makes such annotations unknown."""
        node: cst.ClassDef | None = None
        if type(func) is cst.Name:
            node = _top_class(self.tree, func.value)
        if node is None and self.project is not None and type(func) in (cst.Name, cst.Attribute):
            q = self.qualify(func)
            hit = self.project.split(q) if q else None
            if hit is not None and hit[0] is not self:
                node = _top_class(hit[0].tree, hit[1])
        return node is not None and _is_shape_wrapper(node)

    def global_value(self, name: str) -> Value:
        if name in self.globals:
            return self.globals[name]
        if self.running_scope is not None and name in self.running_scope.vars:
            # a name bound by the module-level statement running now (``teacher`` in the ``__main__`` block, read by
            # ``teacher_fn = lambda x: teacher.apply(params, x)`` that a function it calls runs): ``globals`` gets
            # it once the statement is done, Python's globals hold it already. The statement may bind it again
            # before the next call: a run that read one keeps no summary (RUNNING_READS)
            RUNNING_READS[0] += 1
            return self.running_scope.vars[name]
        if name in self.imports.names:
            q = self.imports.names[name]
            return self.qualified_value(q)
        if self.project is not None and self.imports.star_modules():
            # a name a ``from .evo_norm import *`` binds (the module it reads binds it)
            for star in self.imports.star_modules():
                found = self.project.qualify_star(star, name)
                if found:
                    return self.qualified_value(found)
        return UNKNOWN

    def stable_global(self, name: str) -> bool:
        """A module-level list or dict that no code of the module can change once the module level has run
        (``CONFIGS = {"tiny": dict(dim=100, ...)}`` read by ``build_model(name)``): its name is only read -- by
        subscription, ``in``, iteration, read-only methods (``get``, ``items``, ...) or copying builtins -- outside
        the module-level statements that bind it. Anything else (an item or attribute assignment, a mutating method,
        ``global``, an alias, an argument to a call that may keep it) makes it unknown in functions, as before."""
        if self._unstable is None:
            self._read_module_text()
        assert self._unstable is not None
        if "*" in self._unstable:
            return False
        if name not in self._unstable:
            return True
        handed = self._handed.get(name)
        if handed is None:
            return False
        known = self._kept.get(name)
        if known is None:
            # handed only to calls (``AutoencoderKL(DDCONFIG)``): stable when each callee only reads the parameter
            # it binds (objects.keeps_handed_dict); an item's attribute read (``STAGES[-1].out_ch``, in the module
            # or by the callee) changes nothing when every item is a record of numbers and strings
            records = objects.immutable_records(self, self.globals.get(name))
            known = self._kept[name] = all(
                records
                if e == ITEM_ATTRIBUTE
                else self._writer_kept(e[2])
                if e[0] == WRITER
                else self._keeps_handed(*e, records=records)
                for e in handed
            )
        return known

    def writer_store(self, frame_key: str, name: str, index: Value, value: Value) -> bool:
        """``D[name] = v`` in a writer function of this module (``_writer_kept``) while a top-level statement of the
        module runs it: the module-level dict gets the entry, as Python's does (False: not such a store; the caller
        forgets as before). A run that stored keeps no summary: another call must store again."""
        scope = self.running_scope
        if scope is None or ":" not in frame_key or name not in scope.vars and name not in self.globals:
            return False
        writer = frame_key.rpartition(":")[2]
        if (WRITER, None, writer) not in self._handed.get(name, ()) or not self.stable_global(name):
            return False
        from .interpreter import _with_item

        new = _with_item(scope.vars[name] if name in scope.vars else self.globals[name], index, value)
        if new is None:
            new = UNKNOWN  # a key not known: no entry of the dict is known
        scope.vars[name] = new
        RUNNING_READS[0] += 1
        return True

    def _writer_kept(self, writer: str | None) -> bool:
        """A function of this module that fills a module-level dict and that only the module's own top-level
        statements call (``module_facts._module_writers``): the dict is stable once the module level has run when
        no other module that may run names the function (it might call it again: a store under a key already there)."""
        if writer is None:
            return False
        if self.project is None:
            return True
        return not registries.named_elsewhere(self.project, self, writer)

    def _keeps_handed(self, callee: str, pos: int | None, kw: str | None, records: bool = False) -> bool:
        if callee.endswith("()"):
            # ``SFTCollator(tok)(EXAMPLES)``: the class's instance called with it
            made = callee[:-2]
            if made in self.globals:
                cls: Value | None = self.globals[made]
            else:
                qual = self.qualify_dotted(made) if self.project is not None else None
                cls = self.project.lookup(qual) if qual is not None and self.project is not None else None
            return objects.call_keeps_handed(self, cls, pos, kw, records)
        first, _, rest = callee.partition(".")
        if first in self.globals and rest == "":
            v: Value | None = self.globals[first]
        elif first in self.globals and "." not in rest and isinstance(cls := self.globals[first], RefV):
            # Config.from_dict(CFG): a classmethod (staticmethod) of a class of the analysed code
            ci = self.find_class(cls.qualname[6:]) if cls.qualname.startswith("class:") else None
            fi = objects.find_method(self, ci, rest) if ci is not None else None
            return fi is not None and objects.keeps_handed_dict(self, FuncV(fi.key), pos, kw, records)
        elif first in self.globals or self.project is None:
            return False
        else:
            qual = self.qualify_dotted(callee)
            if qual in ("pytest.mark.parametrize", "pytest.fixture"):
                return True  # @pytest.mark.parametrize("cfg", CONFIGS): pytest reads the list when it collects
            v = self.project.lookup(qual) if qual is not None else None
            if v is None and rest and "." not in rest and (owner := self.qualify_dotted(first)) is not None:
                # Config.from_dict(CFG) of a class imported from the tree: its classmethod (staticmethod)
                held = self.project.lookup(owner)
                ci = (
                    self.find_class(held.qualname[6:])
                    if type(held) is RefV and held.qualname.startswith("class:")
                    else None
                )
                fi = objects.find_method(self, ci, rest) if ci is not None else None
                return fi is not None and objects.keeps_handed_dict(self, FuncV(fi.key), pos, kw, records)
        return objects.keeps_handed_dict(self, v, pos, kw, records)

    def registries(self) -> dict[str, registries.Form]:
        """The module-level dicts of this module filled by a registering decorator (dict name -> decorator name and
        keyed writers; ``registries.registry_forms``), read once, only for a module whose text reads ``.__name__``."""
        if self._registries is None:
            text = self.text
            wanted = ".__name__" in text or (_EMPTY_GLOBAL_DICT.search(text) is not None and "return " in text)
            self._registries = registries.registry_forms(text) if wanted else {}
        return self._registries

    def registry_contents(self, name: str) -> DictV | None:
        """``name`` read whole in a function, when it is a registry of this module (see ``registries``) whose every
        entry is known (``registries.contents``): the registered functions by name, in the order of their names (the
        order the modules ran in is not known); None otherwise."""
        if name not in self.globals or not isinstance(self.globals[name], DictV) or name not in self.registries():
            return None
        entries = registries.contents(self, name)
        return DictV(tuple(sorted(entries.items()))) if entries is not None else None

    def _home_of(self, name: str) -> "tuple[ModuleAnalysis, str] | None":
        """The module of the analysed code ``name`` is imported from (another than this one), and the name it has
        there (a module-level one); None otherwise."""
        if self.project is None or name not in self.imports.names:
            return None
        home = self.project.split(self.project.canonical(self.imports.names[name]))
        return home if home is not None and home[0] is not self and "." not in home[1] else None

    def imported_param_registry(self, name: str) -> DictV | None:
        """``name`` imported from another module of the analysed code where it is a registry a decorator factory
        fills (``param_registry_contents`` there); None otherwise."""
        home = self._home_of(name)
        return home[0].param_registry_contents(home[1]) if home is not None else None

    def param_registry_contents(self, name: str) -> DictV | None:
        """``name`` read in a function, an empty module-level dict of this module that ``@factory(name)`` fills in
        other modules (``registries.param_registries``) and that this module only reads: the registered classes
        and functions by name (``registries.param_contents``); None otherwise."""
        if self._param_registries is None:
            text = self.text
            self._param_registries = (
                registries.param_registries(text) if "def " in text and ("{}" in text or "dict()" in text) else {}
            )
        factory = self._param_registries.get(name)
        if factory is None:
            return None
        if not self.stable_global(name):
            # handed to the factory, as its registry: the registrations of this module, which param_contents reads
            # as those of the others; handed to anything else, only to callees that keep it
            mine = (factory[0], factory[1], None)
            handed = self._handed.get(name)
            if not handed or mine not in handed:
                return None
            for e in handed:
                if e != mine and (e == ITEM_ATTRIBUTE or e[0] == WRITER or not self._keeps_handed(*e, records=False)):
                    return None
        entries = registries.param_contents(self, name, factory)
        return DictV(tuple(sorted(entries.items()))) if entries else None

    def registry_entry(self, name: str, key: Value | None) -> Value | None:
        """``name[key]`` in a function when ``name`` is a registry of this module (see ``registries``): the function
        registered under a known string ``key`` (unknown when that is not certain); None: ``name`` is no registry.
        A registry imported from another module of the analysed code (``from .registry import MODELS`` in a builder) is
        read as its own module reads it."""
        if name not in self.globals and self.project is not None and name in self.imports.names:
            home = self._home_of(name)
            return home[0].registry_entry(home[1], key) if home is not None else None
        if name not in self.globals or not isinstance(self.globals[name], DictV) or name not in self.registries():
            return None
        if key is None:
            return UNKNOWN  # (asked whether ``name`` is a registry)
        hit = registries.lookup(self, name, key.value) if isinstance(key, StrV) else None
        return hit if hit is not None else UNKNOWN

    def never_returns(self, interp: Interpreter, node: cst.Call) -> bool:
        """A call that always raises or ends the process (``pytest.skip(...)``, ``pytest.fail(...)``, ``sys.exit()``,
        ``exit()``), or ``self.skipTest(...)`` in a class whose analysed code defines no ``skipTest`` (unittest's
        raises SkipTest; without one the attribute lookup raises)."""
        func = node.func
        if type(func) is cst.Name and func.value in ("exit", "quit"):
            return not (
                func.value in interp.scope.vars or func.value in self.globals or func.value in self.imports.names
            )
        if type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == "self":
            if func.attr.value != "skipTest" or interp.frame.cls_key is None:
                return False
            ci = self.find_class(interp.frame.cls_key)
            return ci is not None and objects.find_method(self, ci, "skipTest") is None
        return type(func) in (cst.Name, cst.Attribute) and self.qualify(func) in _NEVER_RETURNS

    def _rebound(self) -> "Rebinds":
        if self._rebinds is None:
            self._read_module_text()
        assert self._rebinds is not None
        return self._rebinds

    def _read_module_text(self) -> None:
        """stable_global's and rebound_global's answers (``index.module_facts``): read by the project's index with the
        text (``Project.ast_read``), else from a CPython parse of the text now. Unreadable: nothing is stable,
        everything may be rebound."""
        facts = self.project.facts_of(self.module_name, self.text) if self.project is not None else None
        if facts is None:
            try:
                facts = module_facts(self.text, ast.parse(self.text))
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                facts = None
        self._unstable = facts[0] if facts is not None else frozenset({"*"})
        self._handed = facts[2] if facts is not None else {}
        self._rebinds = facts[1] if facts is not None else (frozenset({"*"}), {})

    def rebound_global(self, name: str) -> bool:
        """A module-level name some function rebinds (``global DIM; DIM = d``): once that function may have run, a
        function reading the name does not see its module-level value."""
        names = self._rebound()[0]
        return "*" in names or name in names

    def patched_instance(self, name: str, value: ObjV, in_function: bool = True) -> Value:
        """A module-level instance ``name`` read here (in a function: ``in_function``), its attributes that code outside
        a class body sets through the name unknown, as that code may have run since: ``info.world_size = size`` in
        ``init_parallel()``. For a name imported from a module of the tree (``from pkg.state import info``), what
        that module sets through its own name too (wherever this module reads it: the init function may have run)."""
        if name in self.globals:
            return self._patched_through(name, value) if in_function else value
        q = self.imports.names.get(name)
        if q is None or self.project is None:
            return value
        hit = self.project.split(q)
        out: Value = value
        if hit is not None and hit[0] is not self:
            out = hit[0]._patched_through(hit[1], value)
        if in_function and isinstance(out, ObjV):
            out = self._patched_through(name, out)
        return out

    def _patched_through(self, name: str, value: ObjV) -> Value:
        attrs = self._rebound()[1].get(name)
        if not attrs:
            return value
        if "*" in attrs:
            return UNKNOWN
        kept = tuple((k, v) for k, v in value.attrs if k not in attrs)
        return replace(
            value,
            attrs=kept + tuple((a, UNKNOWN) for a in sorted(attrs)),
            fresh=tuple((k, v) for k, v in value.fresh if k not in attrs),
        )

    def patched_class_attr(self, cls_name: str, attr: str) -> bool:
        """An attribute of the class named ``cls_name`` (of this module) that code outside its class body sets
        (``Config.dim = args.dim``, ``setattr(Config, k, v)``, ``cls.dim = d`` in a classmethod): once that code
        may have run, the class body's value (or method) is not what the attribute holds."""
        names, patched = self._rebound()
        if "*" in names:
            return True
        attrs = patched.get(cls_name)
        return attrs is not None and ("*" in attrs or attr in attrs)

    def patched_library(self, qual: str) -> bool:
        """``qual`` (a name outside the analysed code: ``torch.nn.functional.linear``, ``torch.nn.Linear.forward``)
        is assigned in this module (``F.linear = flat_linear``, ``nn.Linear.forward = patched``, ``setattr(F, k, f)``
        for every name of ``F``): once that code may have run, the name is not the library's."""
        quals = self._patched_quals
        if quals is None:
            quals = self._patched_quals = self._read_patched_quals()
        return bool(quals) and (qual in quals or qual.rsplit(".", 1)[0] + ".*" in quals)

    def patched_imported_classes(self) -> frozenset[str]:
        """Qualified names of the project's classes, imported here, whose attributes this module sets outside their
        class body (``from pkg.base import Encoder; Encoder.dim = 32``, ``setattr(Encoder, k, v)``,
        ``Head.forward = flat_forward``), or a module run before this one's code does (``Project.
        patched_classes_before``): what an instance of one (or of a subclass) holds is not known here."""
        got = self._patched_imported
        if got is None:
            names, patched = self._rebound()
            out: set[str] = set()
            if "*" not in names and self.project is not None:
                for who in patched:
                    head = who.split(".", 1)[0]
                    if head not in self.imports.names or head in self.globals:
                        continue
                    q = self.qualify_dotted(who)
                    if q is not None and self.project.is_definition(q):
                        out.add(q)
            if self.project is not None and self.module_name:
                # and those a module that has run before this one's code patches (``pkg/patches.py``, imported by
                # ``pkg/__init__.py``, sets ``Head.forward``; this module imports pkg.model)
                out.update(self.project.patched_classes_before(self.module_name))
            got = self._patched_imported = frozenset(out)
        return got

    def _read_patched_quals(self) -> frozenset[str]:
        names, patched = self._rebound()
        if "*" in names:
            return frozenset()  # the text did not parse: nothing known to be patched
        out: set[str] = set()
        for who, attrs in patched.items():
            if who.split(".", 1)[0] not in self.imports.names or who.split(".", 1)[0] in self.globals:
                continue  # not an import (a class of this module: patched_class_attr), or rebound here
            q = self.qualify_dotted(who)
            if q is not None and not (self.project is not None and self.project.is_definition(q)):
                out.update(f"{q}.{a}" for a in attrs)
        return frozenset(out)

    def qualified_value(self, qualname: str) -> Value:
        if self.project is not None and self.project.is_definition(qualname):
            return RefV(qualname)  # resolved (and its module analysed) only if it is called
        if self.project is not None:
            v = self.project.lookup(qualname)
            if v is not None:
                return v
        return constant(qualname) or RefV(qualname)

    def top_level_definition(self, qualname: str) -> bool:
        """``pkg.mod.f``: a function or class defined at the top of a module of the analysed tree."""
        return self.project is not None and self.project.is_definition(qualname)

    # ------------------------------------------------------------------ classes
    def find_class(self, key: str) -> ClassInfo | None:
        if key in self.classes:
            return self.complete(self.classes[key])
        if key in self.local_classes:
            return self.local_classes[key]
        if self.project is not None:
            return self.project.find_class(key)
        return None

    def find_function(self, key: str) -> FunctionInfo | None:
        if key in self.functions:
            return self.complete(self.functions[key])
        if self.project is not None:
            return self.project.find_function(key)
        return None

    def complete(self, info: _Info) -> _Info:
        """``info`` (a function or class of this module) with its complete nodes: a module imported with its function
        bodies blanked parses the statement holding it now, before anything reads its bodies (project.unmask)."""
        if self.masked:
            unmask(self, info.node)
            return self.refreshed(info)
        return info

    def refreshed(self, info: _Info) -> _Info:
        """``info`` with the complete node ``project.unmask`` gave its statement (the one in this module's table)."""
        node = self.full_nodes.get(id(info.node))
        if node is None or node is info.node:
            return info
        current = (self.functions if isinstance(info, FunctionInfo) else self.classes).get(info.key)
        return current if current is not None and current.node is node else replace(info, node=node)  # type: ignore[arg-type]

    def class_attr(self, cls_key: str, attr: str) -> Value:
        return objects.object_attr(self, ObjV(cls_key), attr)

    def dataclass_dict(self, v: Value) -> DictV | None:
        """``dataclasses.asdict(cfg)`` of an instance the analysis built of a ``@dataclass`` of the analysed code:
        its fields by name, in order, a field holding such an instance in turn as its own dict (asdict recurses
        into dataclasses; a list, tuple or dict of numbers, strings and None is copied as it is; one holding anything
        else is unknown). None otherwise."""
        if not isinstance(v, ObjV) or not v.concrete or v.attr(DYNAMIC_ATTRS) is not None:
            return None
        ci = self.find_class(v.cls_key)
        if (
            ci is None
            or objects.foreign_bases(self, ci)
            or not all("dataclasses.dataclass" in c.decorators for c in objects.mro(self, ci))
        ):
            return None  # (every class of its MRO a dataclass: the fields class_fields reads)
        items: list[tuple[str, Value]] = []
        for name, _, _ in objects.class_fields(self, ci):
            got = v.attr(name)
            if got is None:
                return None
            if isinstance(got, ObjV):
                got = self.dataclass_dict(got) or UNKNOWN
            elif isinstance(got, (SeqV, ManyV, DictV)):
                got = _plain_copy(got)
            items.append((name, got))
        return DictV(tuple(items))

    def object_attr(self, obj: ObjV, attr: str) -> Value:
        return objects.object_attr(self, obj, attr)

    def ensure_class_attrs(self, ci: ClassInfo) -> None:
        st = class_state(ci)
        if st.attrs_ready:
            return
        st.attrs_ready = True
        # the class on its own: its constructor runs with a positive integer symbol per size-like parameter, and what
        # fails there is reported in the class itself (never at whichever call happened to ask for an attribute)
        ctx = ci.module.ctx
        saved = (ctx.suppress_depth, ctx.inline_findings, ctx.uncertain, ctx.caught)
        ctx.suppress_depth, ctx.inline_findings, ctx.uncertain, ctx.caught = 0, [], 0, 0
        try:
            obj, _ = objects.instantiate(self, None, None, ci, [], {}, symbolic=True)
        finally:
            ctx.suppress_depth, ctx.inline_findings, ctx.uncertain, ctx.caught = saved
        if isinstance(obj, ObjV) and obj.concrete:
            st.attrs = dict(obj.attrs)
            return
        init = ci.methods.get("__init__") or ci.methods.get("setup")
        if init is None:
            return
        with self.ctx.discarding():  # what fails in __init__ is reported once, by the module's own run of it (analyse)
            scope = self.run_function(init, None, ObjV(ci.key))
        # an attribute another method assigns too may hold either value when a third method reads it: unknown

        elsewhere: set[str] = set()
        for fi in ci.methods.values():
            if fi is not init:
                elsewhere |= _assigned_names(fi.node.body)
        for k, v in scope.vars.items():
            if k.startswith("self."):
                # a list attribute is a container other methods fill (self.cache.append(x)): unknown outside __init__
                mutable = isinstance(v, SeqV) and v.kind == "list"
                st.attrs[k[5:]] = UNKNOWN if k.rstrip("?") in elsewhere or mutable else v  # ``self.x?``: OPTIONAL

    # ------------------------------------------------------------------ functions
    def param_value(self, fi: FunctionInfo, p: Param, memo: Memo) -> Value:
        if p.ann is None:
            return self._instance_param(fi, p)
        return self.shapes.from_annotation(p.ann, memo, scope=fi.key, where=f"{p.name}: {p.ann.text}", node=fi.node)

    def _instance_param(self, fi: FunctionInfo, p: Param) -> Value:
        """A parameter annotated with a module class of the analysed code (``def step(teacher: Teacher, x)``): any
        instance of it, whose call runs its ``forward`` / ``__call__`` as the class's own analysis does (sizes its
        constructor sets stay unknown; what the method's annotations say holds)."""
        params = fi.node.params
        for cp in (*params.posonly_params, *params.params, *params.kwonly_params):
            if cp.name.value == p.name:
                break
        else:
            return UNKNOWN
        ci = objects.annotated_class(self, cp.annotation.annotation if cp.annotation is not None else None)
        if ci is None or not any(b.startswith(_MODULE_BASES) for b in objects.foreign_bases(self, ci)):
            return UNKNOWN  # a Protocol, an ABC, a config class: what its calls give is not this class's body
        fwd = objects.find_method(self, ci, "forward") or objects.find_method(self, ci, "__call__")
        if fwd is None or _stub_body(fwd.node):
            return UNKNOWN
        return ObjV(ci.key)

    def run_function(
        self,
        fi: FunctionInfo,
        args: dict[str, Value] | None,
        self_value: Value | None,
        depth: int = 0,
        self_vars: dict[str, Value] | None = None,
        building: bool = False,
        closure: tuple[tuple[str, Value], ...] = (),
        method_of: str | None = None,
        watch: frozenset[str] = frozenset(),
    ) -> Scope:
        """Run ``fi``'s body. ``self_vars``: the ``self.x`` values of an object under construction, shared with the
        caller (``super().__init__(...)``, helpers ``__init__`` calls on ``self``); the returned scope holds them.
        ``method_of``: the class whose method ``fi`` is nested in (a closure over ``self`` called while building)."""
        if self.masked:
            unmask(self, fi.node)
        if depth == 0:
            hooks.new_run()
        fi = self.refreshed(fi)
        memo = self.shapes.new_memo()
        scope = Scope({k: v for k, v in self_vars.items() if k.startswith("self.")} if self_vars else None)
        scope.vars.update(closure)  # a nested function's captured names (its parameters and assignments win)
        first_is_self = fi.cls_key is not None and not fi.is_static
        for i, p in enumerate(fi.params):
            if i == 0 and first_is_self:
                if fi.is_classmethod:  # cls: the class itself (of the object the method was reached through)
                    cls_of = self_value.cls_key if isinstance(self_value, ObjV) else fi.cls_key
                    scope.vars[p.name] = RefV("class:" + cls_of) if cls_of else UNKNOWN
                else:
                    scope.vars[p.name] = self_value if self_value is not None else UNKNOWN
                continue
            if args is not None and p.name in args:
                scope.vars[p.name] = args[p.name]
            elif args is not None and p.default is not None:
                scope.vars[p.name] = UNKNOWN
            elif p.ann is None and type(p.default) is cst.Integer and p.default.value not in ("0", "1"):
                # the function analysed on its own: a parameter whose default is an int (``batch_size=2``) is a size,
                # one positive symbol for every read (as a constructor's are), the default not assumed
                scope.vars[p.name] = IntV(
                    self.ctx.scoped(p.name, "param:" + fi.key, f"(parameter {p.name}, default {p.default.value})"),
                    assumed=True,
                )
            else:
                scope.vars[p.name] = self.param_value(fi, p, memo)
        other_ranks = args is not None and fi.annotated and self.shapes.takes_other_ranks(fi, args)
        frame = FrameInfo(
            fi.key,
            fi.return_ann,
            None if other_ranks else memo,  # (no memo: the return is not checked against its annotation)
            self_value if first_is_self or method_of else None,
            fi.cls_key or method_of,
            depth,
            building,
        )
        interp = Interpreter(self, frame, scope)
        scope.watch = watch
        if args is not None and (fi.annotated or _any_param_annotation(fi.node)):
            # arguments were already checked against the annotations at the call site
            for p in fi.params:
                arg = args.get(p.name)
                if p.ann is not None and isinstance(arg, TensorV):
                    self.shapes.bind_param(memo, p.ann, arg, fi.key)
            # an array argument of unknown shape is taken at its parameter's annotation, as the function's run on its
            # own takes it (sizes the known arguments bound are shared): the callee's callees' return annotations
            # are trusted here, so its own are too (exponax: plot_state_3d(state: "1 N N N") called with an unknown
            # state passed state[0:1] to wrap_bc(u: "C N") -> "C N+1" and rendered a (C, N+1) array, where its run
            # on its own sees the wrap_bc call reject the argument)
            # A parameter annotated ``Optional[T]`` (``T | None``) handed an array, which is not None, holds a T: its
            # own run takes it so under ``if frequencies is not None:`` (narrowing), and so does this one. Left
            # unknown, it would reach a deeper callee whose own annotation of it the run then trusts instead
            # (easydel's llama4: ``_apply_rotary(frequencies: "seq_len head_dim" | None)`` handed the model's
            # unknown rotary table passed it on to ``apply_complex_rotary(freqs_cis: "batch seq 1 dim_2")``, whose
            # body then built a 5-d product no input consistent with both annotations makes)
            for p in fi.params:
                arg = args.get(p.name)
                if RAW_UNKNOWN[0] or not _plain_unknown_array(arg):
                    continue
                ann: Annotation | None
                if p.ann is not None:
                    ann = p.ann
                elif isinstance(arg, TensorV):
                    ann = optional_annotation(interp, fi.node, p.name)
                else:
                    continue
                if ann is not None and self.shapes.spec(ann) is not None:
                    declared = (
                        self.param_value(fi, p, memo)
                        if p.ann is not None
                        else self.shapes.from_annotation(
                            ann, memo, scope=fi.key, where=f"{p.name}: {ann.text}", node=fi.node
                        )
                    )
                    if isinstance(declared, TensorV) and declared.shape is not None:
                        known = arg if isinstance(arg, TensorV) else declared
                        scope.vars[p.name] = TensorV(
                            declared.shape,
                            known.dtype or declared.dtype,
                            known.framework or declared.framework,
                            declared.axes,
                            declared.origin,
                        )
        if depth == 0:  # analysed on its own: within a time and size budget (budget.py)
            with budgeted() as budget:
                try:
                    interp.run_suite(fi.node.body)
                except BudgetExceeded as exc:
                    if exc.budget is not budget:
                        raise
                    self.ctx.report(fi.node.name, "SHP903", {"what": f"{fi.name}()", "detail": exc.detail})
        else:
            try:
                interp.run_suite(fi.node.body)
            finally:
                interp.ctx.uncertain -= interp.narrowed  # (what came after an undecided early return: Interpreter)
        if watch and not interp.dead:
            scope.exits.append({k: scope.vars.get(k, UNKNOWN) for k in watch})
        scope.dead_end = interp.dead
        return scope

    def local_lambda(self, node: cst.Lambda, frame: FrameInfo, env: dict[str, Value], live: bool = False) -> Value:
        """A lambda is a nested function whose body returns one expression (``default(t, lambda: torch.randn(b))``).
        ``live``: it is an argument of a call whose callee runs it before returning (``ModuleAnalysis.call``), so
        it reads the names of ``frame`` as they are now, also those the function binds again later."""
        fn = self.lambda_defs.get(id(node))
        if fn is None or fn[0] is not node:
            body = cst.IndentedBlock([cst.SimpleStatementLine([cst.Return(node.body)])])
            fn = self.lambda_defs[id(node)] = (node, cst.FunctionDef(cst.Name("_lambda"), node.params, body))
        key = f"{self._local_prefix(frame)}.<locals>.{_LAMBDA}{id(node)}"
        return self.local_function(fn[1], frame, env, key=key, live=live)

    def _local_prefix(self, frame: FrameInfo) -> str:
        """The key prefix of a function or lambda made in ``frame``: a module-level one is named with its module,
        so another module that is handed it (``Compose([lambda im: crop(im, 32), ...])``) finds it."""
        return f"{self.module_name}:<module>" if frame.key == "<module>" else frame.key

    def local_class(self, node: cst.ClassDef, frame: FrameInfo, env: dict[str, Value]) -> Value:
        """A ``class`` statement in a function body (``class Net(nn.Module):`` in a test, a factory's class): a class
        of its own, as a module-level one is, when it reads no name of the enclosing function (its methods run later,
        and would read those names as they are then) and that function is not itself nested. Else not known."""
        outer = self.functions.get(frame.key)
        if outer is None or "<locals>" in frame.key or frame.key.partition(":")[0] != self.module_name:
            return UNKNOWN
        fn = outer.node
        ps = fn.params
        outer_names = set(env) | _assigned_names(fn.body)
        outer_names |= {p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)}
        outer_names |= {p.name.value for p in (ps.star_arg, ps.star_kwarg) if type(p) is cst.Param}
        if walk_memo("class-free-reads", node, _class_free_reads) & outer_names:
            return UNKNOWN
        prefix = f"{frame.key.partition(':')[2]}.<locals>."
        key = f"{self.module_name}:{prefix}{node.name.value}"
        known = self.local_classes.get(key)
        if known is None:
            self._collect(node, prefix, local=True)
            for ck, ci in list(self.local_classes.items()):
                if ck == key or ck.startswith(key + "."):
                    for fi in ci.methods.values():
                        self._sign(fi)
        elif known.node is not node:
            return UNKNOWN  # another class statement of that name in the function (``if cuda: class A ... else:``)
        return RefV("class:" + key)

    def local_function(
        self,
        node: cst.FunctionDef,
        frame: FrameInfo,
        env: dict[str, Value] | None = None,
        key: str | None = None,
        live: bool = False,
    ) -> Value:
        if key is None:
            key = f"{self._local_prefix(frame)}.<locals>.{node.name.value}"
            n = 1
            full = self.full_nodes.get(id(node), node)
            while (
                key in self.functions
                and self.full_nodes.get(id(self.functions[key].node), self.functions[key].node) is not full
            ):
                # another def of the same name in this frame (``if cuda: def f(...) else: def f(...)``): a function
                # of its own, so a join of the two is either of them, not the first
                n += 1
                key = f"{self._local_prefix(frame)}.<locals>.{node.name.value}<{n}>"
        if key not in self.functions:
            params = signature_params(node, self.annotation_of)
            ret = node.returns
            return_ann = self.annotation_of(ret.annotation) if ret is not None else None
            self.functions[key] = FunctionInfo(key, node, self, params, return_ann)
        outer = self.functions.get(frame.key) if env else None
        if outer is None or env is None:
            return FuncV(key)
        # a closure (``unpack_one`` returned by ``pack_one``) reads its enclosing function's names when it runs: a
        # name that function binds exactly once, outside any loop, holds the same value then as now. A list or dict
        # may change in between: kept only when the enclosing function never hands it to a call nor changes it

        # (the enclosing function's walks only when the closure reads one of its names: most closures read none)
        candidates = [name for name in sorted(walk_memo("free-reads", node, _free_reads)) if name in env]
        once: frozenset[str] = walk_memo("bound-once", outer.node, _bound_once) if candidates else frozenset()
        settled: frozenset[str] | None = None
        touched: frozenset[str] | None = None
        captured: list[tuple[str, Value]] = []
        unsafe: frozenset[str] | None = None
        for name in candidates:
            if name not in once and live:
                # run by the call it is handed to, while this frame waits: the name holds what it holds now (unless
                # a comprehension of the frame binds it or a ``nonlocal`` lets another closure rebind it)
                if unsafe is None:
                    unsafe = walk_memo("closure-unsafe", outer.node, _closure_unsafe)
                if name in unsafe:
                    continue
            elif name not in once:
                # a name the enclosing function binds only in statements before this def (``key_chunk_size =
                # min(...)``) holds the same value when the closure runs; so does one it does not bind at all, which
                # it read from its own closure (``def step(p): return grad(lambda q: loss(model, q))(p)`` in a test)
                if settled is None:
                    settled = walk_memo("settled-at-defs", outer.node, _settled_at_defs).get(id(node), frozenset())
                if name not in settled and name in walk_memo("binds", outer.node, _binds):
                    continue
            v = env[name]
            if isinstance(v, (DictV, IntDictV, ManyV)) or _is_list(v):
                if touched is None:
                    touched = walk_memo("handed-on", outer.node, _handed_on)
                if name in touched:
                    continue
            captured.append((name, v))
        return FuncV(key, env=tuple(captured))

    def call_function(
        self, interp: Interpreter, node: cst.Call, fv: FuncV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        unbound = self._unbound_method_call(interp, node, fv, args)
        if unbound is not None:
            # ``Base.forward(self, x)``, ``eqx.filter_jit(Model.step)(model, x)``: the method run on its first
            # argument, as ``obj.forward(x)`` runs it
            fv, args = unbound
        # a method of a module called after ``self.eval()`` (here or in a caller): its body and the bodies it calls
        # read ``training`` as False (torch's eval() sets it on every submodule)
        eval_mode = interp.in_eval_mode() and isinstance(fv.bound_self, (ObjV, LayerV))
        train_mode = not eval_mode and interp.in_train_mode() and isinstance(fv.bound_self, (ObjV, LayerV))
        EVAL_MODE[0] += eval_mode
        TRAIN_MODE[0] += train_mode
        # a plain function: the layers it builds name its call in their notes (objects.construction_chain)
        helping = fv.bound_self is None and type(node) is cst.Call
        if helping:
            objects.HELPING.append((interp.m, node, len(objects.CONSTRUCTING)))
        try:
            return self._call_method_or_function(interp, node, fv, args, kwargs)
        finally:
            EVAL_MODE[0] -= eval_mode
            TRAIN_MODE[0] -= train_mode
            if helping:
                objects.HELPING.pop()

    def _unbound_method_call(
        self, interp: Interpreter, node: cst.Call, fv: FuncV, args: list[Value]
    ) -> tuple[FuncV, list[Value]] | None:
        """A plain method of a class of the analysed code reached through its class (``Base.forward(self, x)``: the
        class named, or ``eqx.filter_jit(Model.step)`` with no object bound), called with an object of that class or a
        subclass first: the method bound to that object, and the other arguments."""
        if fv.env or not args or type(args[0]) is not ObjV or type(node) is not cst.Call:
            return None
        if fv.bound_self is not None and self._named_class(interp, node.func) is None:
            return None
        if not node.args or node.args[0].star or node.args[0].keyword is not None:
            return None
        fi = self.find_function(fv.key)
        if fi is None or fi.cls_key is None or fi.is_static or fi.is_classmethod or fi.has_unknown_decorators:
            return None
        if "<locals>" in fv.key or not fi.params or fi.params[0].kind not in ("pos", "posonly"):
            return None
        ci = self.find_class(args[0].cls_key)
        if ci is None or not any(c.key == fi.cls_key for c in objects.mro(self, ci)):
            return None
        return replace(fv, bound_self=args[0]), args[1:]

    def _named_class(self, interp: Interpreter, func: cst.BaseExpression) -> ClassInfo | None:
        """The class of the analysed code ``Cls`` names when ``func`` is ``Cls.attr`` (``Cls`` a name, not a
        variable; imported from another module of the tree too)."""
        if type(func) is not cst.Attribute or type(func.value) is not cst.Name or func.value.value in interp.scope.vars:
            return None
        cls: Value | None = self.global_value(func.value.value)
        if isinstance(cls, RefV) and not cls.qualname.startswith("class:") and self.project is not None:
            cls = self.project.lookup(cls.qualname)  # a class imported from another module of the analysed code
        return (
            self.find_class(cls.qualname[6:]) if isinstance(cls, RefV) and cls.qualname.startswith("class:") else None
        )

    def _call_method_or_function(
        self, interp: Interpreter, node: cst.Call, fv: FuncV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        held = fv.bound_self
        listed = _fresh_through_loop_variable(interp, node, held) if isinstance(held, ObjV) and _CONSUMED else None
        if isinstance(held, ObjV) and _CONSUMED:
            # (a method run on it: its constructor values no longer hold; through a loop over a module list, the
            # module at that place: ``[Block(dim) for _ in range(depth)]`` holds one value for distinct modules)
            _CONSUMED[-1][0].add(_listed_place(interp, node, held) or _object_key(held))
        if listed is not None:
            # ``for norm, attn, ff in self.layers: x = attn(norm(x))`` in the first method run on an object just
            # built: each layer's first call runs on its constructor's values (a rotary table it grows on demand);
            # a layer a method already ran on (this value, or a copy of it) does not. Nothing is written back: the
            # layer, run on, is not run on those values again (_CONSUMED)
            loop_name = _called_name(node)
            assert loop_name is not None
            promoted = self._promoted(interp, loop_name, fv, listed)
            return self._call_function(interp, node, replace(fv, bound_self=promoted), args, kwargs, listed)
        if not isinstance(held, ObjV) or not held.fresh:
            out = self._call_function(interp, node, fv, args, kwargs, None)
            if held is None and not interp.dead:
                self._after_guard(interp, node, fv, args, kwargs)
            return out
        # a method (or forward) run on an object just built, that one local variable alone holds: the constructor's
        # values stand for the attributes other methods may reassign (``model = Net(); model.reset_classifier(10)``)
        key = _local_object_key(interp, node, held)
        if key is None:
            try:
                return self._call_function(
                    interp, node, replace(fv, bound_self=replace(held, fresh=())), args, kwargs, None, original=held
                )
            finally:
                # the method ran on the object through another name (``fn = model.reset; fn(3)``,
                # ``getattr(model, "reset")(3)``): the variables holding it no longer hold the constructor's values
                stale = None
                for k, v in list(interp.scope.vars.items()):
                    if v is held:
                        stale = stale or replace(held, fresh=())
                        interp.scope.vars[k] = stale
        fi = self.find_function(fv.key)
        ci = self.find_class(held.cls_key)
        outermost = not _CONSUMED
        if outermost:
            _CONSUMED.append((set(), {}))
        promoted = self._promoted(interp, key, fv, held)
        try:
            return self._call_function(interp, node, replace(fv, bound_self=promoted), args, kwargs, held)
        finally:
            if outermost:
                _CONSUMED.pop()
            if _held_at(interp, key) is held:  # what the method may have changed is no longer known
                kept = objects.fresh_after(self, ci, fi, held) if fi is not None and ci is not None else ()
                interp.scope.vars[key] = replace(held, fresh=kept)

    def _promoted(self, interp: Interpreter, key: str, fv: FuncV, held: ObjV) -> ObjV:
        """``held`` with its constructor's values (ObjV.fresh) as its attributes, for the method ``fv`` run on it
        through ``key``."""
        attrs = dict(held.attrs)
        fi = self.find_function(fv.key)
        ci = self.find_class(held.cls_key)
        # an attribute a method it calls on ``self`` reassigns is not the constructor's when the method reads it
        # (``self.set_input_dims(x.shape[-1])`` rebuilding ``self.hidden_layer`` before using it): left unknown
        redone = objects.reassigned_by_self_calls(self, ci, fi, held) if fi is not None and ci is not None else set()
        # a submodule the method (or one it calls on ``self``) uses other than by calling it (``self.blocks.prune()``,
        # ``f(self.blocks)``) may have changed before it is called: its constructor values are not kept
        touched = objects.used_otherwise(self, ci, fi) if fi is not None and ci is not None else None
        listed = [(k[len(objects.LISTED) :], v) for k, v in held.fresh if k.startswith(objects.LISTED)]
        if listed and _CONSUMED and fi is not None and ci is not None and objects.items_only_read(self, ci, fi, listed):
            # a module list's submodules with constructor values of their own: the list stays the one without them
            # (the attributes'); a call through a loop variable finds them here (_fresh_through_loop_variable)
            for _, v in listed:
                for o in objects._objects_in(v, 2):
                    if o.fresh:
                        _CONSUMED[-1][1][_object_key(o)] = o
        attrs.update(
            (
                k,
                _unshared(interp, key, v)
                if not isinstance(v, ObjV) or touched is not None and k not in touched
                else objects.stale(v),
            )
            for k, v in held.fresh
            if "self." + k.rstrip("?") not in redone and not k.startswith(objects.LISTED)
        )
        return ObjV(held.cls_key, tuple(attrs.items()), True)

    def _autograd_forward(self, interp: Interpreter, owner: cst.BaseExpression) -> tuple[FuncV, bool] | None:
        """For ``owner.apply(...)`` with ``owner`` a class of the analysed code deriving from ``torch.autograd.Function``
        (a custom op: reversible blocks, straight-through estimators, fused kernels): its static ``forward`` and whether
        that takes the ``ctx`` first (it does not when the class has a ``setup_context``, torch 2's other style)."""
        if type(owner) is not cst.Name and type(owner) is not cst.Attribute:
            return None
        with self.ctx.discarding():
            held = interp.eval(owner)
        if not isinstance(held, RefV) or not held.qualname.startswith("class:"):
            return None
        ci = self.find_class(held.qualname[6:])
        if ci is None or not (objects.foreign_bases(self, ci) & _AUTOGRAD_FUNCTIONS):
            return None
        fi = objects.find_method(self, ci, "forward")
        if fi is None or not fi.is_static or fi.has_unknown_decorators:
            return None
        takes_ctx = objects.find_method(self, ci, "setup_context") is None
        return FuncV(fi.key), takes_ctx

    def _after_guard(
        self, interp: Interpreter, node: cst.Call, fv: FuncV, args: list[Value], kwargs: dict[str, Value]
    ) -> None:
        """A plain function whose body only raises under conditions (``if tuple(t.shape) != expected: raise``) has
        returned: the caller's variables handed to it satisfy what those conditions' failing branches say."""
        fi = self.find_function(fv.key)
        if fi is None or fi.cls_key is not None or fi.has_unknown_decorators or fv.env:
            return

        if not memo("guard-tests", fi.node, _guard_tests):
            return
        fi = ensure_signature(fi)
        bound = bind_arguments(fi.params, args, kwargs, skip_first=False)
        if bound is None:
            return
        interp.scope.vars.update(guard_refinement(interp, node, fi, bound))

    def _call_function(
        self,
        interp: Interpreter,
        node: cst.Call,
        fv: FuncV,
        args: list[Value],
        kwargs: dict[str, Value],
        held: ObjV | None,
        original: ObjV | None = None,
    ) -> Value:
        """``held``: the object the variable holds when ``fv.bound_self`` is it with its constructor's values;
        ``original``: the object the receiver's variable holds when ``fv.bound_self`` is it without them.

        A method called by name on an object a variable holds (``task.prepare()``), which may change what the object
        holds (``_method_changes``), leaves the object (and any other name for what it holds: ``model`` after
        ``task = Task(model)``) unknown, unless its run here gave the variable the object as the method left it
        (``call_on_local_object``)."""
        out = self._call_function_body(interp, node, fv, args, kwargs, held)
        func = node.func if type(node) is cst.Call else None
        obj = fv.bound_self
        if (
            type(func) is cst.Attribute
            and isinstance(obj, ObjV)
            and obj.concrete
            and func.attr.value not in ("forward", "__call__")
            and not (type(func.value) is cst.Name and func.value.value == "self")
            and (key := _var_key_of(func.value)) is not None
            and (now := _held_at(interp, key)) is not None
            and (now is obj or now is held or now is original)
            and self._method_changes(fv, obj)
        ):
            changed = self._changed_attrs(fv, obj)
            if changed is None or not isinstance(now, ObjV):
                interp.forget_object(func.value)
            else:
                # ``self.t_hooks.register(name, block)``: only what the method may change of its object is unknown
                # (the hook list it appends to, the dict its hook stores into), as any other name holding it sees
                after = ObjV(
                    now.cls_key,
                    tuple((k, UNKNOWN if k in changed else v) for k, v in now.attrs),
                    now.concrete,
                    tuple((k, v) for k, v in now.fresh if k not in changed),
                )
                interp.scope.vars[key] = after
                interp.forget_inner(now, after, frozenset((key,)))
        return out

    def _changed_attrs(self, fv: FuncV, obj: ObjV) -> frozenset[str] | None:
        """The attributes of ``obj`` the method ``fv`` and the methods it reaches on ``self`` may change
        (``_changed_self_attrs``); None when they may change more, or reach a class the analysis does not know."""
        fi = self.find_function(fv.key)
        ci = self.find_class(obj.cls_key)
        if fi is None or ci is None or objects.foreign_bases(self, ci) - objects._PLAIN_BASES:
            return None
        out: set[str] = set()
        for callee in objects.reached_methods(self, ci, fi):
            some = walk_memo("changed-self-attrs", callee.node, _changed_self_attrs)
            if some is None:
                return None
            out |= some
        if any(objects.intercepts_attr(self, ci, name) for name in out):
            return None  # (a property setter, a descriptor, ``__setattr__``: the store runs code)
        return frozenset(out)

    def iterate_object(self, interp: Interpreter, node: cst.CSTNode, obj: Value) -> Value | None:
        """``iter(tasks)`` of an object of the analysed code whose class's ``__iter__`` is a generator (``while True:
        yield self.sample()``): what each step yields, any number of them (its body run once, its findings dropped:
        how far it is iterated is not known); None otherwise. A ``for`` loop straight over such an object comes here
        too, with the ``iter(x)`` call run_loop makes for it."""
        if type(obj) is not ObjV or not obj.concrete or type(node) is not cst.Call:
            return None
        ci = self.find_class(obj.cls_key)
        fi = objects.find_method(self, ci, "__iter__") if ci is not None else None
        if fi is None or fi.is_static or fi.is_classmethod or fi.node.decorators or not is_generator(fi):
            return None
        return self._generator_elements(interp, node, FuncV(fi.key, bound_self=obj), fi, [], {}, None)

    def item_of_object(self, interp: Interpreter, node: cst.Subscript, obj: Value, index: Value) -> Value | None:
        """``ds[0]`` of an object of the analysed code whose class defines ``__getitem__``, a plain method that
        changes nothing the object holds (``_reading_method``): what it returns for that index, its body run as a
        method call's (None: not such an object)."""
        if type(obj) is not ObjV or not self._reading_method(obj, "__getitem__"):
            return None
        ci = self.find_class(obj.cls_key)
        fi = objects.find_method(self, ci, "__getitem__") if ci is not None else None
        if fi is None:
            return None
        return self.call_function(interp, cast(cst.Call, node), FuncV(fi.key, bound_self=obj), [index], {})

    def _generator_elements(
        self,
        interp: Interpreter,
        node: cst.Call,
        fv: FuncV,
        fi: FunctionInfo,
        args: list[Value],
        kwargs: dict[str, Value],
        held: ObjV | None,
    ) -> ManyV | None:
        """The generator ``fv`` run once as a loop over it would run it: any number of elements each like what it
        yields (None: not known); what would fail in its body is not a finding here (it may never run so far)."""
        saved = interp.iterating
        interp.iterating = node
        try:
            with interp.ctx.discarding(), fi.module.ctx.discarding():
                out = self._call_function_body(interp, node, fv, args, kwargs, held)
        finally:
            interp.iterating = saved
        if isinstance(out, SeqV):
            # (its elements one by one, _generated: a generator object is no list, whose length code could read)
            out = _any_number_of(out.items)
        return out if isinstance(out, ManyV) else None

    def _arithmetic_property(self, obj: Value, name: str) -> bool:
        """Is ``obj.name`` a ``@property`` of the class of ``obj`` (an object of the analysed code that holds no
        attribute of that name) whose getter is one ``return`` of arithmetic over numbers and attributes of ``self``
        that hold numbers (``return self.n_embd // self.n_head``), or of ``len(self.vocab)``, ``int(...)``: reading it
        hands out nothing the object holds?"""
        if type(obj) is not ObjV or not obj.concrete or obj.attr(name) is not None:
            return False
        ci = self.find_class(obj.cls_key)
        fi = objects.find_method(self, ci, name) if ci is not None else None
        if (
            fi is None
            or len(fi.node.decorators) != 1
            or dotted(fi.node.decorators[0].decorator) != "property"
            or any(n in c.methods for c in objects.mro(self, ci) for n in ("__getattribute__", "__getattr__"))  # type: ignore[arg-type]
        ):
            return False
        body = fi.node.body.body if type(fi.node.body) is cst.IndentedBlock else ()
        stmts = [s for s in body if not (type(s) is cst.SimpleStatementLine and type(s.body[0]) is cst.Expr)]
        if len(stmts) != 1 or type(stmts[0]) is not cst.SimpleStatementLine or type(stmts[0].body[0]) is not cst.Return:
            return False
        value = stmts[0].body[0].value
        todo: list[cst.CSTNode] = [value] if value is not None else []
        while todo:
            n = todo.pop()
            if type(n) is cst.BinaryOperation:
                todo += [n.left, n.right]
            elif type(n) is cst.UnaryOperation:
                todo.append(n.expression)
            elif type(n) is cst.Attribute and type(n.value) is cst.Name and n.value.value == "self":
                if not isinstance(obj.attr(n.attr.value), (IntV, FloatV, BoolV)):
                    return False
            elif (
                type(n) is cst.Call
                and type(n.func) is cst.Name
                and n.func.value in _NUMBER_BUILTINS
                and n.func.value not in ci.module.globals  # type: ignore[union-attr]
                and len(n.args) == 1
                and n.args[0].keyword is None
                and not n.args[0].star
            ):
                arg = n.args[0].value
                if n.func.value == "len" and type(arg) is cst.Attribute and type(arg.value) is cst.Name:
                    if arg.value.value != "self":
                        return False
                    continue  # ``len(self.vocab)``: a number; the list is only read
                todo.append(arg)
            elif type(n) not in (cst.Integer, cst.Float):
                return False
        return bool(value is not None)

    def _reading_method(self, obj: Value, name: str) -> bool:
        """Is ``obj.name`` a plain method of the class of ``obj`` (an object of the analysed code, no attribute of that
        name, no property or other decorator) that changes nothing the object holds (``_method_changes``)?"""
        if type(obj) is not ObjV or not obj.concrete:
            return False
        ci = self.find_class(obj.cls_key)
        if ci is None:
            return False
        fi = objects.find_method(self, ci, name)
        if (
            fi is None
            or fi.is_static
            or fi.is_classmethod
            or fi.node.decorators
            or objects.intercepts_attr(self, ci, name)
        ):
            return False
        return not self._method_changes(FuncV(fi.key, bound_self=obj), obj)

    def _method_changes(self, fv: FuncV, obj: ObjV) -> bool:
        """May the method ``fv`` (or one it reaches through calls on ``self``) change what its object holds
        (``_changes_through_self``; a callee handed ``self.x`` that is not a library function or a reading builtin:
        it may)?"""
        fi = self.find_function(fv.key)
        ci = self.find_class(obj.cls_key)
        if fi is None or ci is None or fi.cls_key is None or fi.is_static or fi.is_classmethod:
            return False
        for callee in objects.reached_methods(self, ci, fi):
            handed = walk_memo("changes-through-self", callee.node, _changes_through_self)
            if handed is None:
                return True
            for call, arg in handed:
                held = _read_through(obj, arg.value)
                if held is not None and (_immutable(held) or isinstance(held, TensorV)):
                    continue  # conv_block(prev, ch, self.cfg.norm): a string (a tensor's shape no call changes)
                f = call.func
                if type(f) is cst.Name and f.value in _PURE_BUILTINS:
                    continue
                name = dotted(f)
                qual = callee.module.qualify_dotted(name) if name is not None else None
                if qual is not None and qual.startswith(_PURE_LIBRARIES):
                    continue
                if not callee.module._reads_argument(f, call, arg, held):
                    return True
        return False

    def _reads_argument(self, func: cst.BaseExpression, call: cst.Call, arg: cst.Arg, held: Value | None) -> bool:
        """Is ``func`` a plain function of this module that binds ``arg`` to a parameter whose object it never
        changes (``_param_attribute_writes``: it only tests it, or reads from it attributes that are numbers or
        strings in ``held``, the object handed)?"""
        v = self.globals.get(func.value) if type(func) is cst.Name else None
        if not isinstance(v, FuncV) or v.bound_self is not None or v.env:
            return False
        fi = self.find_function(v.key)
        if fi is None or fi.cls_key is not None or fi.has_unknown_decorators or arg.star:
            return False
        name: str | None = None
        if arg.keyword is not None:
            name = arg.keyword.value
        else:
            plain = [a for a in call.args if a.keyword is None]
            at = next(i for i, a in enumerate(plain) if a is arg)
            positional = [p.name for p in fi.params if p.kind in ("pos", "posonly")]
            if at < len(positional) and not any(a.star for a in plain[:at]):
                name = positional[at]
        writes = walk_memo("attribute-writes", fi.node, _param_attribute_writes)
        attrs = writes.get(name) if name is not None else None
        if attrs is None or not all(a.startswith("use ") for a in attrs):
            return False
        # (``lst = m.layers; lst.append(b)``: an attribute read out may be changed in place unless it is a number)
        return not attrs or (isinstance(held, ObjV) and all(_immutable(held.attr(a[4:]) or UNKNOWN) for a in attrs))

    def _call_function_body(
        self,
        interp: Interpreter,
        node: cst.Call,
        fv: FuncV,
        args: list[Value],
        kwargs: dict[str, Value],
        held: ObjV | None,
    ) -> Value:
        fi = self.find_function(fv.key)
        if fi is not None and fi.has_unknown_decorators and fv.key not in self.undecorated:
            grad = _grad_decorator(fi)
            if grad is not None and fv.bound_self is None:
                # @eqx.filter_value_and_grad / @jax.grad on a def: the transform of the undecorated function
                self.undecorated.add(fv.key)
                try:
                    transform = grad_transform(grad[0], [fv], grad[1], node)
                    return (
                        self.call_grad(interp, node, transform, args, kwargs)
                        if isinstance(transform, LayerV)
                        else UNKNOWN
                    )
                finally:
                    self.undecorated.discard(fv.key)
        if fi is None or (fi.has_unknown_decorators and fv.key not in self.undecorated):
            return UNKNOWN
        if interp.iterating is not node and not _enumerated(interp, node) and is_generator(fi):
            if type(node) is not cst.Call or fv.bound_self is not None:
                return UNKNOWN
            # a generator's body runs only as far as something iterates it: handed on or kept
            # (``trainer.fit(fake_batches(...))``), it is what a loop over it would see
            return self._generator_elements(interp, node, fv, fi, args, kwargs, held) or UNKNOWN
        self.undecorated.discard(fv.key)  # only the transform's own call of the function runs it undecorated
        fi = ensure_signature(fi)
        bound_self = fv.bound_self
        skip_first = fi.cls_key is not None and not fi.is_static and bound_self is not None
        spec = _trace_decorator(fi) if fi.node.decorators else None
        if spec is not None:
            # @jax.jit: the body sees the arguments that are not static as arrays (the static positions count a
            # method's self)
            positional = [p.name for p in fi.params if p.kind in ("pos", "posonly")]
            args, kwargs = _trace_arguments(spec, positional, 1 if skip_first else 0, args, kwargs)
        bound = bind_arguments(fi.params, args, kwargs, skip_first)
        if bound is None:
            return UNKNOWN
        given = frozenset(bound)
        for p in fi.params[1 if skip_first else 0 :]:
            # a parameter the call leaves out takes its default, as Python does (literals and module-level names:
            # ``def FeedForward(dim, mult=4, dense=nn.Linear)``); other defaults stay unknown
            if p.name not in bound and p.kind in ("pos", "posonly", "kwonly") and p.default is not None:
                bound[p.name] = objects._default(self, fi, p.default, p.name)
        ret_memo = None
        verified = True
        if fi.annotated:
            # a default the call leaves in place is not checked against its annotation (jaxtyping checks the
            # arguments a call passes: nerfstudio's ``true_color: '*bs rgb=3' = colors.WHITE``, (3,), broadcasts)
            ok, ret_memo, verified = self.shapes.check_call_arguments(
                node, fi, {k: v for k, v in bound.items() if k in given}
            )
            if not ok:
                if (
                    not _annotations_checked(fi)
                    and not function_state(fi).analysing
                    and interp.frame.depth < MAX_INLINE_DEPTH
                    and all(
                        v.shape is not None and all(x.as_int() is not None for x in v.shape)
                        for v in bound.values()
                        if isinstance(v, TensorV)
                    )
                ):
                    # nothing checks the annotations when the code runs: the body runs with these arguments, and
                    # an operation that cannot take them fails there (anchors of 540 rows against deltas of 654).
                    # Only for arrays whose every size is known (a run of a test, a script): sizes that are symbols
                    # come from annotations, which this call has just shown not to agree
                    self._body_failure_note(interp, node, fi, bound, bound_self, _live_closure(interp, fi, fv))
                return UNKNOWN
        depth = interp.frame.depth
        if isinstance(bound_self, ObjV) and bound_self.concrete and fi.return_ann is None:
            key = _local_object_key(interp, node, held or bound_self)
            if (key is not None or _on_new_object(node, bound_self)) and objects.sets_own_attrs(self, fi, bound_self):
                return self.call_on_local_object(interp, node, fi, bound, bound_self, key, held)
            if key is None and _on_own_self(interp, node, bound_self) and objects.sets_own_attrs(self, fi, bound_self):
                return self.call_on_local_object(interp, node, fi, bound, bound_self, None, held, own_self=True)
            through = _through_loop_variable(interp, node, held or bound_self) if key is None else None
            if through is not None and objects.sets_own_attrs(self, fi, bound_self):
                # ``for layer in self.layers: layer.attention.setup_cache(b, n)``: the object, as the method left
                # it, in its place in the list (Interpreter.store_through); else the caller forgets what it changed
                left: list[ObjV] = []
                out = self.call_on_local_object(interp, node, fi, bound, bound_self, None, held, left=left)
                if left:
                    recv, root = through
                    holder = interp.scope.vars[root.value]
                    assert isinstance(holder, ObjV)
                    interp.store_through(recv, root, root.value, holder, None, left[0])
                return out
            if key is None and _on_own_self(interp, node, bound_self):
                # ``self.transform(x)`` after ``self.fit(x)`` in a method run for a concrete object: the callee reads
                # the attributes as the caller's ``self.x`` hold them now
                bound_self = _with_own_attrs(interp, bound_self)
        elif isinstance(bound_self, ObjV) and bound_self.concrete and _on_own_self(interp, node, bound_self):
            # (so does a method with a return annotation: ``self.push(chunk) -> Float[...]`` after ``self.reset(b)``
            # filled ``self.states``)
            bound_self = _with_own_attrs(interp, bound_self)
        if fi.return_ann is not None:
            if not verified and not function_state(fi).analysing and depth < MAX_INLINE_DEPTH:
                # the annotation is taken when the body, run with what is unknown left unknown, makes an array of
                # the rank it declares (``torch.zeros(fovy.shape[0], 4, 4)`` for ``-> "B 4 4"``): that rank does not
                # rest on the annotation
                rank = _declared_rank(fi)
                verified = rank is not None and self._body_rank(node, fi, bound, bound_self, depth) == rank
            mark = counter_mark()
            declared = self.shapes.declared_return(fi, ret_memo, verified)
            unbound = isinstance(declared, TensorV) and _minted_since(declared, mark, 0)
            # a function (not a method of an object) given tensors with known sizes runs for them as well: its body
            # may contradict its own annotations for these sizes (`-> "b d"` returning `x.sum(-1)`, (b, n)), which
            # its analysis on its own, with symbols, cannot decide (n may equal d there)
            sized = bound_self is None and any(
                isinstance(v, TensorV) and v.shape is not None and any(s.as_int() is not None for s in v.shape)
                for v in bound.values()
            )
            analysing = function_state(fi).analysing
            if (isinstance(bound_self, ObjV) or unbound or sized) and not analysing and depth < MAX_INLINE_DEPTH:
                # a method of an object built with known sizes: its annotation gives the result, and its body runs
                # with those sizes for what fails inside (`reshape(b, p, cfg.d_model)` when heads * d_head differs).
                # Only operations that fail count: the body against its own annotations was checked on its own,
                # and a subclass may legitimately change what an inherited method returns.
                # So does a function whose return annotation names sizes its parameters do not bind
                # (`split_heads(t: "b n hd", heads) -> "b h n d"`): what its body returns gives those sizes
                body = self._inline(
                    node,
                    fi,
                    bound,
                    bound_self,
                    depth,
                    operations_only=isinstance(bound_self, ObjV),
                    # (a nested def reads what it closes over as the code that made it left it: ``hk.Linear(
                    # cfg.horizon)`` in a haiku ``forward`` annotated ``-> "b h"``)
                    closure=_live_closure(interp, fi, fv),
                    extra=_built_by_entry_point(self, interp, node, bound_self),
                )
                if (
                    isinstance(body, TensorV)
                    and isinstance(declared, TensorV)
                    and body.shape is not None
                    and declared.shape is not None
                    and (
                        len(body.shape) != len(declared.shape)
                        or any(equal(a, b) is Truth.FALSE for a, b in zip(body.shape, declared.shape))
                    )
                ):
                    # the body returns for these arguments an array of another rank (or another size on some axis)
                    # than the annotation says (a ``-> "B L L"`` returning its ``"BLL"`` argument, a ``channels`` the
                    # body's convolution changed): the annotation is wrong here, and the callee's own return reports
                    # it. Where nothing checks annotations when the code runs (no jaxtyped or beartype decorator, no
                    # import hook in the module) the call gives what the body returns (a downsampling encoder
                    # annotated ``"b c h w" -> "b h w c"``: its half-size map); else what it gives is not known
                    return body if not _annotations_checked(fi) else declared.with_shape(None)
                if (
                    not (
                        isinstance(body, TensorV)
                        and (body.shape is not None or body.vshape is not None)
                        and not isinstance(body.origin, MadeUp)  # (an einops pattern's sizes over an unknown input)
                    )
                    and isinstance(declared, TensorV)
                    and declared.shape is not None
                    and not _annotations_checked(fi)
                    # (a stub, ``raise NotImplementedError`` or ``...``: its annotation is all there is, the contract)
                    and not (type(fi.node) is cst.FunctionDef and _stub_body(fi.node))
                ):
                    # the body, run for these arguments, leaves its result unknown (a block whose norm comes from a
                    # registry the analysis cannot read) and nothing checks the annotation when the code runs: its
                    # shape is only a claim (an annotation keeping ``channels`` where the block's convolution
                    # changes them, a ``features()`` annotated 1-d returning the feature map; Equimo). The call
                    # gives an array of the declared rank whose sizes are new symbols, and a definite finding that
                    # rests on that rank is not reported (UnverifiedOrigin; a layer applied to it still gives its
                    # own output size: a hash encoding's features into an MLP)
                    from ..rules.shapes_bridge import UnverifiedOrigin

                    assert fi.return_ann is not None
                    claim = UnverifiedOrigin(
                        fi.module, fi.node, f"the return annotation {fi.return_ann.text} of {fi.name}() (not checked)"
                    )
                    sizes = tuple(self.ctx.fresh("d", claim) for _ in declared.shape)
                    return TensorV(sizes, declared.dtype, declared.framework, None, claim)
                if (
                    isinstance(body, TensorV)
                    and isinstance(declared, TensorV)
                    and body.shape is not None
                    and declared.shape is None
                    and not declared.alts
                    and len(body.shape) not in declared.not_ranks
                    and _fits_variadic(body.shape, declared.vshape)
                ):
                    # an annotation of no fixed rank (``-> Float[Tensor, "... d//2"]``: its ``...`` binds nothing):
                    # what the body returns for these arguments, which agrees with the axes it does fix
                    return TensorV(body.shape, declared.dtype or body.dtype, body.framework, None, body.origin)
                if unbound:
                    from ..rules.shapes_bridge import Origin, UnverifiedOrigin

                    text = f"{fi.name}() (its body: its return annotation {fi.return_ann.text} leaves sizes unbound)"
                    made = (Origin if verified else UnverifiedOrigin)(self, node, text)
                    declared = _fill_unbound(declared, body, mark, made)  # type: ignore[arg-type]
                if (
                    isinstance(declared, TensorV)
                    and declared.dtype is None
                    and isinstance(body, TensorV)
                    and body.dtype is not None
                    and body.framework == declared.framework
                    and fi.return_ann is not None
                    and accepts(fi.return_ann.dtype_class, body.dtype)
                ):
                    # ``-> Int[Tensor, "b s"]`` (any of several dtypes) returning a long tensor: the call gives that
                    # dtype (an index then gathers: ``points[batch_idx, idx]``)
                    declared = replace(declared, dtype=body.dtype)
            if (
                isinstance(bound_self, ObjV)
                and fi.cls_key is not None
                and bound_self.cls_key != fi.cls_key
                and isinstance(declared, TensorV)
            ):
                # a base class's method on a subclass object: what it returns may come from methods the subclass
                # overrides (a loss whose reduce_loss keeps the batch axis), so its annotation's shape is not trusted
                return declared.with_shape(None)
            return declared
        if _recursion_stops(fi, bound) or depth >= MAX_INLINE_DEPTH + (
            objects.ONE_LINE_EXTRA_DEPTH
            if objects.one_line_helper(fi)
            or (
                objects.leaf_method(fi)
                # a free function past the depth only computes settings from settings (``get_spatial_dim(fmt)``):
                # every argument a known number, string, None or tuple of them
                and (fi.cls_key is not None or all(_plain_value(v) for v in bound.values()))
            )
            else 0
        ):
            return UNKNOWN
        if (
            interp.frame.building
            and interp.frame.cls_key is not None
            and fi.cls_key is None
            and fi.key.startswith(interp.frame.key + ".<locals>.")
            and any(k == "self" for k, _ in fv.env)
        ):
            # a closure over ``self`` called by the constructor that defines it
            # (``register_buffer = lambda name, val: self.register_buffer(name, val.to(torch.float32))``): it sets
            # attributes of the object being built, as a helper method would
            return self.call_on_building_self(interp, node, fi, args, kwargs, closure=fv.env)
        closure = _live_closure(interp, fi, fv)
        if not bound and not closure and self._own_run_here(interp, fi, bound_self):
            return self._own_run(fi)
        ret = self._inline(
            node,
            fi,
            bound,
            bound_self,
            depth,
            closure=closure,
            extra=_built_by_entry_point(self, interp, node, bound_self),
        )
        if (
            fi.annotated
            and _unread_array_return(fi)
            and any(
                p.ann is not None and _plain_unknown_array(bound.get(p.name)) and self.shapes.spec(p.ann) is not None
                for p in fi.params
            )
        ):
            # the body ran with an argument of unknown shape taken at its parameter's annotation, and the function
            # declares what it returns in a form read here only in part (``-> Float['b'] | tuple[Int['b'],
            # Float['b']]``): what the body returns then rests on the parameter annotation alone, which the
            # function's own return annotation may contradict (an actor annotated ``state: 'b c h w'`` that is
            # handed (b, d) features and returns ``Int['b']`` actions); which of the two is right is not known
            return UNKNOWN
        return ret

    def _own_run_here(self, interp: Interpreter, fi: FunctionInfo, bound_self: Value | None) -> bool:
        """Is this call (``main()`` under ``if __name__ == "__main__":``) made by the top-level code of the module being
        checked, of one of its module-level functions that takes no parameter? Its run here is then its run on its
        own: the function's findings are reported where they are made, once, and ``analyse`` does not run it again
        (run a second time on its own, the same failure was reported twice: inside, and at the call)."""
        return (
            self.analysed
            and fi.module is self
            and fi.cls_key is None
            and bound_self is None
            and not fi.params
            and "<locals>" not in fi.key
            and interp.frame.key == "<module>"
            and interp.m is self
            and not self.ctx.suppress_depth
            and not self.ctx.uncertain
            and not self.ctx.caught
            and not fi.node.asynchronous
        )

    def _own_run(self, fi: FunctionInfo) -> Value:
        """``fi`` run on its own (as ``analyse`` runs each function), once: what it returns."""
        ret = self.own_runs.get(fi.key)
        if ret is None:
            self.standalone_done.add(fi.key)
            scope = self.run_function(fi, None, None)
            rets = [v for _, v in scope.returns]
            ret = rets[0] if rets else UNKNOWN
            for v in rets[1:]:
                ret = join(ret, v)
            self.own_runs[fi.key] = ret
        return ret

    def _body_rank(
        self, node: cst.Call, fi: FunctionInfo, bound: dict[str, Value], bound_self: Value | None, depth: int
    ) -> int | None:
        """The rank of what ``fi``'s body returns for these arguments, those of unknown shape left unknown (its
        findings dropped): None when the body does not decide it."""
        RAW_UNKNOWN[0] += 1
        try:
            with self.ctx.discarding():
                body = self._inline(node, fi, bound, bound_self, depth, operations_only=True)
        finally:
            RAW_UNKNOWN[0] -= 1
        return len(body.shape) if isinstance(body, TensorV) and body.shape is not None else None

    def _body_failure_note(
        self,
        interp: Interpreter,
        node: cst.Call,
        fi: FunctionInfo,
        bound: dict[str, Value],
        bound_self: Value | None,
        closure: tuple[tuple[str, Value], ...],
    ) -> None:
        """The SHP205 just reported at ``node`` (an argument against its parameter's annotation), for a callee whose
        annotations nothing checks as the code runs: its body runs with these arguments, and the first operation
        that fails there is added to that finding's notes (what it says, where it is raised), not reported apart."""
        from ...diagnostics.render import message

        # (inside an inlined call the findings wait in inline_findings, else in pending)
        which = 1 if self.ctx.suppress_depth else 0
        pending = self.ctx.inline_findings if which else self.ctx.pending
        at = next((i for i in range(len(pending) - 1, -1, -1) if pending[i].node is node), None)
        if at is None or pending[at].code != "SHP205":
            return
        before = self.ctx.mark()
        self._inline(node, fi, bound, bound_self, interp.frame.depth, operations_only=True, closure=closure)
        failed = next(
            (
                p
                for p in pending[before[1] if which else before[0] :]
                if p.code.startswith("SHP2") and p.code not in _ANNOTATION_CHECKS
            ),
            None,
        )
        self.ctx.rollback(before)
        if failed is None:
            return
        chain = tuple(n for n in failed.notes if str(n).startswith("raised at "))
        said = re.sub(r" \(inside \S+ called here\)$", "", message(failed.code, failed.fields).split(" ", 1)[-1])
        head = f"nothing checks the annotations as the code runs: the body runs on, and fails ({failed.code}): {said}"
        pending[at] = replace(pending[at], notes=pending[at].notes + (head,) + chain)

    def _inline(
        self,
        node: cst.Call,
        fi: FunctionInfo,
        bound: dict[str, Value],
        bound_self: Value | None,
        depth: int,
        operations_only: bool = False,
        closure: tuple[tuple[str, Value], ...] = (),
        extra: "tuple[str | LazyNote, ...]" = (),
    ) -> Value:
        """Run a callee's body with these argument values (a summary per argument signature); its definite
        findings are reported at this call (with the ``extra`` notes)."""
        # an unannotated (or return-unannotated) function: analyse its body with these argument values
        sig: tuple[Any, ...] = (tuple(sorted((k, _sig(v)) for k, v in bound.items())), _sig(bound_self))
        if EVAL_MODE[0]:
            sig += ("eval mode",)  # ``self.training`` reads False in this run
        if TRAIN_MODE[0]:
            sig += ("train mode",)  # ``self.training`` may read True in this run
        if RAW_UNKNOWN[0]:
            sig += ("raw unknown",)  # arguments of unknown shape not taken at their annotations (_body_rank)
        if closure:
            sig += (tuple((k, _sig(v)) for k, v in closure),)
        if EVAL_MODE[0]:
            sig += ("eval",)  # run after ``self.eval()`` in a caller: ``training`` reads False (not reused otherwise)
        ret: Value
        inner: list[Pending]
        state = function_state(fi)
        watch = self._carry_watch(node, fi, bound, bound_self, closure)
        summary = state.summaries.get(sig)
        # a summary with findings is not reused: their notes name this caller's argument origins, so another caller
        # with the same shapes (in this file or one analysed earlier in the process) runs the body again
        exits: dict[str, Value] | None = None
        generation = hooks.STATE.generation
        seen_hooks = state.hooked.get(sig) if generation else None
        if generation and summary is not None and (seen_hooks is None or seen_hooks[0] != generation):
            summary = None  # (made before a forward hook it may run was registered: run again)
        if summary is not None and not any(p.code.startswith("SHP2") for p in summary[1]):
            ret, inner = summary
            exits = state.exits.get(sig) if watch else None
            if seen_hooks is not None:
                hooks.replay(seen_hooks[1])
        else:
            hook_mark = hooks.mark()
            state.analysing += 1
            outer_ctx = fi.module.ctx
            outer_ctx.suppress_depth += 1
            saved = outer_ctx.inline_findings
            outer_ctx.inline_findings = []
            # the body's own findings are all collected, whether this call sits in a branch not known to run or in
            # a ``try``: report_inner drops them there, at this call; the summary kept for a later call with the
            # same arguments keeps them (else a call after the branch would reuse a summary with none)
            saved_doubt = outer_ctx.uncertain, outer_ctx.caught
            outer_ctx.uncertain = outer_ctx.caught = 0
            mark = counter_mark()
            reads = RUNNING_READS[0]
            try:
                scope = fi.module.run_function(fi, bound, bound_self, depth=depth + 1, closure=closure, watch=watch)
            finally:
                inner = outer_ctx.inline_findings
                outer_ctx.inline_findings = saved
                outer_ctx.suppress_depth -= 1
                outer_ctx.uncertain, outer_ctx.caught = saved_doubt
                state.analysing -= 1
            rets = [v for _, v in scope.returns]
            ret = rets[0] if rets else UNKNOWN

            for v in rets[1:]:
                ret = join(ret, v)
            if is_generator(fi):
                ret = _generated(fi, scope)
            if not _minted_since(ret, mark, 0) and RUNNING_READS[0] == reads:
                # a result holding sizes the run made up (an einops pattern's axes over an unknown input) is not
                # reused: another call with arguments as unknown would get the same symbols, and two unknown sizes
                # would be taken for one (titans-pytorch: a second segmentation's window read as the first one's)
                state.summaries[sig] = (ret, inner)
                if hooks.STATE.generation:
                    state.hooked[sig] = (hooks.STATE.generation, hooks.since(hook_mark))
            if watch:
                exits = _exit_values(scope, watch)
                if not any(_minted_since(v, mark, 0) for v in exits.values()) and RUNNING_READS[0] == reads:
                    state.exits[sig] = exits
        self._record_carried(node, fi, bound, exits, watch)
        if operations_only:
            # a method of an object run for its sizes. When the method is the object's own class's, its annotation
            # checks stay: with the object's sizes the method fails them as jaxtyping would (a forward returning
            # heads * dim_head = 512 wide for ``-> "b d"`` with d = 256), which its own analysis, with the sizes
            # symbolic, cannot see; what that analysis does report, report_inner drops as a repeat. An inherited
            # method's annotations describe the base class: a subclass may legitimately change what it returns (an
            # overridden `reduce` keeping an axis), so only an argument of the wrong rank handed by a transform's
            # call stays (`jax.vmap(self.block)(x)`, a per-example block annotated for the whole sequence)
            own = isinstance(bound_self, ObjV) and bound_self.cls_key == fi.cls_key
            inner = [
                p
                for p in inner
                if p.code not in _ANNOTATION_CHECKS
                or own
                or (
                    _annotation_cause(p) == "SHP201"
                    and p.code == "SHP205"
                    and type(p.node) is cst.Call
                    and type(p.node.func) is cst.Call
                )
            ]
        self.report_inner(node, fi.module, f"{fi.name}()", inner, extra)
        if type(ret) is TensorV and ret.values is not None:
            # the tensor the body returned, its exact elements with it (a making changed in place since is stale
            # all the same): ``frames = feature_frames(lengths, ...)`` hands them on (Interpreter.eval)
            ret = replace(ret, values=(ret.values[0], node, ret.values[2]))
        return ret

    def _record_carried(
        self,
        node: cst.Call,
        fi: FunctionInfo,
        bound: dict[str, Value],
        exits: dict[str, Value] | None,
        watch: frozenset[str],
    ) -> None:
        """The callee's changes to a dict or list argument, carried back to the caller's variable (call()); a call
        that runs more than one body (the options of an "either") carries nothing."""
        if id(node) not in _WANTED:
            return
        uses = walk_memo("carry-params", fi.node, _carry_params)
        _CARRIED[id(node)] = (
            # (an object whose modules the body walked: not among the in-place parameters, nothing to seal)
            {id(bound[k]): _sealed(v, uses[k][1]) if k in uses else v for k, v in exits.items() if k in watch}
            if exits and id(node) not in _CARRIED
            else {}
        )

    def _carry_watch(
        self,
        node: cst.Call,
        fi: FunctionInfo,
        bound: dict[str, Value],
        bound_self: Value | None,
        closure: tuple[tuple[str, Value], ...],
    ) -> frozenset[str]:
        """The parameters of ``fi`` whose value at its exits ``_inline`` records for ``call`` to carry back: bound to
        a local dict or list of the caller (``_carry_candidates`` saw it in an argument), held by no other parameter,
        closure name or attribute of ``self``, changed by the body only in place and never rebound, aliased, stored
        or returned (``_carry_params``), and handed only to functions of the analysed code or to builtins that
        keep no reference."""
        if not _WANTED or id(node) not in _WANTED or is_generator(fi):
            return frozenset()
        wanted = _WANTED[id(node)]
        uses = walk_memo("carry-params", fi.node, _carry_params)
        walkers = walk_memo("walked-params", fi.node, _walked_params)
        out: set[str] = set()
        for name, v in bound.items():
            if id(v) not in wanted:
                continue
            if type(v) is ObjV or type(v) is LayerV:
                # an object: only a parameter the body walks the modules of, or runs a method of its class for its
                # effect (one of the analysed code, which the interpreter runs on the local object); a framework's
                # layer (a leaf of a recursive walk: ``inject_lora(child)`` on an nn.Linear): only walked
                ci = self.find_class(v.cls_key) if type(v) is ObjV else None
                if (
                    name in walkers
                    and (ci is not None or (type(v) is LayerV and not any(walkers[name])))
                    and all(ci is not None and objects.find_method(self, ci, x) is not None for x in walkers[name] if x)
                    and sum(1 for x in bound.values() if x is v or _holds(x, v, 4)) == 1
                ):
                    if not any(_holds(x, v, 4) for _, x in closure) and not (
                        isinstance(bound_self, ObjV) and _holds(bound_self, v, 4)
                    ):
                        out.add(name)
                continue
            if name not in uses:
                continue
            if sum(1 for x in bound.values() if x is v) != 1 or any(x is v or _holds(x, v, 4) for _, x in closure):
                continue
            if isinstance(bound_self, ObjV) and _holds(bound_self, v, 4):
                continue
            if all(self._keeps_no_reference(fi, callee) for callee in uses[name][0]):
                out.add(name)
        return frozenset(out)

    def _keeps_no_reference(self, fi: FunctionInfo, callee: str) -> bool:
        """A name a callee's body hands a carried parameter to (``_carry_params``): a function of the analysed code
        (its own run forgets or carries the argument) or a builtin that keeps no reference to its argument."""
        mod = fi.module
        v = mod.globals.get(callee)
        if isinstance(v, FuncV) and v.bound_self is None and not v.env:
            return True
        if callee.startswith("self.") or (callee in _assigned_names(fi.node.body) and callee not in mod.globals):
            # a submodule (``self.attn(x, cache=cache)``) or a local (``for block in self.blocks: block(x, c)``): the
            # call carries back what its run leaves in the argument, or forgets it (_call_carrying)
            return True
        return callee in _NO_REFERENCE_BUILTINS and callee not in mod.globals and callee not in mod.imports.names

    def report_inner(
        self,
        node: cst.CSTNode,
        callee: "ModuleAnalysis",
        what: str,
        inner: list[Pending],
        extra: "tuple[str | LazyNote, ...]" = (),
    ) -> None:
        """Definite findings of an inlined callee, reported at this call with a note naming the inner line (and the
        ``extra`` notes). A failure the callee's module reports on its own (where it is, for any arguments) is not
        repeated here."""
        blocked: frozenset[str] | None = frozenset()
        neutral: frozenset[str] = frozenset()
        if callee is not self and self.replaces_modules:
            blocked, neutral = self.blocked_modules()
            if not _imports_none_of(callee, blocked, neutral):
                return  # the callee may run with this module's stand-ins for what it imports
        if callee is not self and not callee.analysed and any(p.code.startswith(("SHP2", "SHP3")) for p in inner):
            # what the callee's module reports on its own must be known whichever files this process happened to
            # analyse before (with -j 2 the callee's file may be another worker's): a finding must not depend on -j
            callee.analyse()
        standalone = {(p.node, p.code) for p in callee.ctx.pending}  # reported in the callee itself already
        # a layer chain that cannot fit, found where it is built, is not repeated when the same call also raises a
        # failure of that code (running the chain: reported at this call too, where the code stops)
        raising = {p.code for p in inner if p.code.startswith("SHP2") and not _built_chain(p)}
        for p in inner:
            if p.code in raising and _built_chain(p):
                continue
            if blocked and not all(_imports_none_of(w, blocked, neutral) for w in _noted_modules(p)):
                continue  # a module the failure went through runs with this module's stand-ins
            if p.inner is not None and (p.inner, p.code) in standalone:
                continue  # the operation a deeper call reached, reported where it is by its module's own analysis
            # a definite failure, or a misaligned-axes warning seen only with this call's values (the names its
            # arguments carry: a teacher map from one helper and a student map from another, compared inside a third),
            # or a float16 / bfloat16 reduction whose dtype comes from this call's arguments (a model made ``.half()``
            # and called on a half input)
            raised = p.code.startswith("SHP2") or p.code in ("SHP401", "SHP403", "SHP404")
            if not (raised or p.code in _PRECISION_CODES) or (p.node, p.code) in standalone:
                continue
            if not raised and callee is self and p.inner is None:
                # a reduction of this module: reported where it is, where its fix goes
                self.ctx.add(
                    replace(p, notes=p.notes + (note("seen with the arguments of the call at ", Where(self, node)),))
                )
                continue
            # the innermost callee names the finding ("inside f() called here", rendered from the field)
            inside = (
                p.fields if any(k == "inside" for k, _ in p.fields) else p.fields + (("inside", what.rstrip("()")),)
            )
            self.ctx.add(
                Pending(
                    node,
                    p.code,
                    inside,
                    p.notes
                    + (
                        note(
                            "raised at " if raised and not _built_chain(p) else "at ",
                            Where(callee, (_chain_call(p, callee) if p.inner is None else None) or p.node),
                            f" in {what} for the arguments of this call",
                        ),
                    )
                    + (extra if raised else ()),
                    p.witness,
                    spec=p.spec,
                    inner=p.inner or p.node,
                    calls=p.calls + 1,
                )
            )
            if p.code.startswith("SHP2") and p.code not in _ANNOTATION_CHECKS and not _built_chain(p):
                # the first failure raises: what the callee would do after it never runs (a value against its
                # annotation raises only where jaxtyping checks it, an nn.Sequential whose layers cannot follow each
                # other only when it is called: the code runs on, and what fails next fails)
                break

    def _saved_hyperparameters(self, interp: Interpreter, args: list[Value], kwargs: dict[str, Value]) -> Value:
        """``self.save_hyperparameters()`` in a LightningModule's ``__init__``: ``self.hparams`` holds the constructor's
        parameters (all of them but ``self``, or the names given; less ``ignore``) at their values when it is called,
        read by attribute or by key (Lightning reads them from the calling frame's locals). Unknown when the
        constructor takes ``*args`` / ``**kwargs`` (their contents join the parameters), or for a dict or namespace
        argument, ``frame=``, or a call outside ``__init__``. Lightning also merges in the arguments of the
        constructors whose frames enclose this one (a subclass's ``__init__`` that called this one through
        ``super()``, or another LightningModule's ``__init__`` building this object), and starts from the first frame
        with a ``__class__`` cell: unknown unless this ``__init__`` is the object's own, has that cell (it names
        ``super`` or ``__class__``), and the object is not built inside a constructor."""
        fi = self.find_function(interp.frame.key) if interp.frame.key.endswith(".__init__") else None
        built = interp.frame.self_value
        ci = self.find_class(built.cls_key) if isinstance(built, ObjV) else None
        own = objects.find_method(self, ci, "__init__") if ci is not None else None
        if (
            fi is None
            or own is None
            or own.key != fi.key
            or (objects.BUILT_FROM_CONSTRUCTOR and objects.BUILT_FROM_CONSTRUCTOR[-1])
            or not walk_memo("class-cell", fi.node, _has_class_cell)
            or any(p.kind in ("star", "starstar") for p in fi.params)
            or set(kwargs) - {"ignore", "logger"}
        ):
            return UNKNOWN
        names = [p.name for p in fi.params if p.name != "self"]
        if args:
            if not all(isinstance(a, StrV) and a.value in names for a in args):
                return UNKNOWN
            names = [a.value for a in args if isinstance(a, StrV)]
        ignore = kwargs.get("ignore")
        if ignore is not None:
            items = (ignore,) if isinstance(ignore, StrV) else ignore.items if isinstance(ignore, SeqV) else None
            if items is None or not all(isinstance(i, StrV) for i in items):
                return UNKNOWN
            names = [n for n in names if n not in {i.value for i in items if isinstance(i, StrV)}]
        return DictV(tuple((n, interp.scope.vars.get(n, UNKNOWN)) for n in names), "namespace")

    def instantiate(
        self, interp: Interpreter, node: cst.Call, cls_key: str, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        ci = self.find_class(cls_key)
        if ci is None:
            return UNKNOWN
        patched = self.patched_imported_classes()
        if patched and any(c.key.replace(":", ".", 1) in patched for c in objects.mro(self, ci)):
            return UNKNOWN  # Encoder.dim = 32 here on a class another module defines: its instances are not as written
        member = objects.enum_member(self, ci, args, kwargs)
        if member is not None:
            return member
        attrs = objects.attr_dict_instance(self, ci, args, kwargs)
        if attrs is not None:
            return attrs
        obj, inner = objects.instantiate(self, interp, node, ci, args, kwargs)
        if inner:
            self.report_inner(node, ci.module, f"{ci.node.name.value}.__init__()", inner)
        return obj

    def _hooked(self, interp: Interpreter, target: cst.BaseExpression, base: Value) -> None:
        """``target.register_forward_pre_hook(fn)`` / ``register_forward_hook(fn)``: the hook may replace what the
        module is given or what it returns, so a call of it is no longer its own forward's. The module named
        (``self.proj``, ``m``) or the container it was reached through (``m[0]``, ``self.layers[0]``) is unknown from
        here; in a constructor, a hook on the instance itself or on a module it cannot name (``for m in
        self.modules(): m.register_forward_pre_hook(fn)``) leaves every call of the instance unknown."""

        key = _var_key_of(target)
        if interp.frame.building and interp.frame.cls_key is not None and (key is None or not key.startswith("self.")):
            interp.scope.vars["self." + HOOKED_ATTR] = BoolV(True)
        if key is None or key == "self":
            root = target
            while type(root) is cst.Subscript or (type(root) is cst.Attribute and _var_key_of(root) is None):
                root = _subscript_root(root) if type(root) is cst.Subscript else root.value
            key = _var_key_of(root) if root is not target else None
            base = interp.eval(root) if key is not None else base
        if key is not None and key != "self" and isinstance(base, (LayerV, ObjV, SeqV, ManyV)):
            interp.forget_aliases(key, base)
            interp.scope.vars[key] = UNKNOWN
        elif key is not None and "." not in key:
            # ``for m in self.body: m.register_forward_hook(f)``: the element is not known, the containers the loop
            # reads (hooked_containers of this function) are unknown from here
            from ..rules.layers import hooked_containers

            fi = self.functions.get(interp.frame.key)
            for k in sorted(hooked_containers(fi.node)) if fi is not None else ():
                held = interp.scope.vars.get(k)
                if k != key and isinstance(held, (LayerV, ObjV, SeqV, ManyV)):
                    interp.forget_aliases(k, held)
                    interp.scope.vars[k] = UNKNOWN

    def call_object(
        self, interp: Interpreter, node: cst.Call, obj: ObjV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        out = self._call_object(interp, node, obj, args, kwargs)
        if hooks.STATE.watched:
            hooks.returned(obj, out)  # (a forward hook that captures what it returns: hooks.py)
        if (
            obj.concrete
            and type(node) is cst.Call
            and (key := _var_key_of(node.func)) is not None
            and _held_at(interp, key) is obj
        ):
            # ``l(x)`` whose forward counts (``self.sample_t += n`` in a method it calls, or in a bound method an
            # attribute holds) and whose run did not hand its attributes back (objects.sets_own_attrs): what the
            # name (or the list it came from) holds no longer has the values stored before
            for path, attr in self._run_rebinds(obj):
                target: cst.BaseExpression = node.func
                for name in path:
                    target = cst.Attribute(target, cst.Name(name))
                with interp.ctx.discarding():  # (``target`` is no node of the module: nothing is reported on it)
                    interp.forget_object(target, attr, UNKNOWN)
        return out

    def _run_rebinds(self, obj: ObjV, depth: int = 2) -> list[tuple[tuple[str, ...], str]]:
        """(path, attribute) of what ``obj(...)`` binds again that ``obj`` holds: ``self.x = ...`` / ``self.x += ...``
        in its ``forward`` (or ``__call__``) and the methods that calls on ``self``, in the bound methods of the object
        that attributes hold (``self.qkv = {0: self.factored_qkv, ...}[attn_func]``), and, ``depth`` levels down, in
        the objects it holds and runs (``self.attn(x)``: ``("attn",), "sample_t"``)."""
        ci = self.find_class(obj.cls_key)
        if ci is None:
            return []
        st = class_state(ci)
        if st.run_rebinds is None:
            fwd = objects.find_method(self, ci, "__call__") or objects.find_method(self, ci, "forward")
            bound: set[str] = set()
            calls: set[str] = set()
            for callee in objects.reached_methods(self, ci, fwd) if fwd is not None else ():
                bound |= objects.self_rebound(callee)
                calls |= objects._self_calls(callee.node)
            st.run_rebinds = (frozenset(bound), frozenset(calls))
        names, called = set(st.run_rebinds[0]), st.run_rebinds[1]
        out: list[tuple[tuple[str, ...], str]] = []
        for k, v in obj.attrs:
            if type(v) is FuncV and v.bound_self is not None and k in called:
                held = self.find_function(v.key)
                if held is not None and held.cls_key is not None:
                    names |= objects.self_rebound(held)
            elif type(v) is ObjV and v.concrete and depth > 0 and k in called:
                out.extend(((k, *path), attr) for path, attr in self._run_rebinds(v, depth - 1))
        out.extend(((), attr) for attr in sorted(names) if obj.attr(attr) is not None)
        return out

    def _call_object(
        self, interp: Interpreter, node: cst.Call, obj: ObjV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        ci = self.find_class(obj.cls_key)
        if ci is None or obj.attr(HOOKED_ATTR) is not None:
            return UNKNOWN  # (a forward hook on the instance: what its call gives is the hook's)
        # m(x) runs type(m).__call__: one the analysed code defines wraps torch's (which runs forward) if it has both
        fwd = objects.find_method(self, ci, "__call__") or objects.find_method(self, ci, "forward")
        if fwd is None and any(
            b.split(".", 1)[0] in ("keras", "tensorflow", "tf_keras") for b in objects.foreign_bases(self, ci)
        ):
            fwd = objects.find_method(self, ci, "call")  # a subclassed keras.Layer / keras.Model: layer(x) runs call(x)
            build = objects.find_method(self, ci, "build")
            if fwd is not None and build is not None:
                obj = self._keras_build(interp, build, obj, args)
        if fwd is None and (
            any(
                c.module.patched_class_attr(c.node.name.value, name)
                for c in objects.mro(self, ci)
                for name in ("__call__", "forward")
            )
            or any(
                self.patched_library(f"{b}.{name}")
                for b in objects.foreign_bases(self, ci)
                for name in ("__call__", "forward")
            )
        ):
            # Lin.forward = forward_flat (or nn.Linear.forward = patched) on a class without a forward of its own:
            # calling an instance does not run torch's forward
            return UNKNOWN
        if fwd is None:
            layer = objects.torch_layer_of(self, obj)
            if layer is not None:
                return layer_rules.apply_layer(self.ops, interp, node, layer, args, kwargs)  # class MyConv(nn.Conv1d)
            chain = obj.attr(SEQUENTIAL_ATTR)
            if isinstance(chain, LayerV) and not kwargs:
                return layer_rules.apply_layer(self.ops, interp, node, chain, args, {})
            return UNKNOWN
        return self.call_function(interp, node, FuncV(fwd.key, bound_self=obj), args, kwargs)

    def _keras_build(self, interp: Interpreter, build: FunctionInfo, obj: ObjV, args: list[Value]) -> ObjV:
        """Keras builds a layer on its first call: ``build(input_shape)`` runs with the input's shape (batch included)
        before ``call``, so what build assigns (``self.w = self.add_weight(shape=...)``) has sizes. An input of
        unknown shape leaves them unknown."""
        x = args[0] if args else None
        if not isinstance(x, TensorV) or x.shape is None:
            return obj
        build = ensure_signature(build)
        shape = SeqV(tuple(IntV(s) for s in x.shape), "tuple")
        bound = bind_arguments(build.params, [shape], {}, skip_first=True)
        state = function_state(build)
        if bound is None or state.analysing or interp.frame.depth >= MAX_INLINE_DEPTH or build.has_unknown_decorators:
            return obj
        state.analysing += 1
        try:
            with self.ctx.discarding():  # what fails in build is not followed here: its attributes only
                scope = build.module.run_function(
                    build, bound, obj, depth=interp.frame.depth + 1, self_vars={}, building=True
                )
        finally:
            state.analysing -= 1
        attrs = dict(obj.attrs)
        for k, v in scope.vars.items():
            if k.startswith("self."):
                attrs[k[5:]] = v
                if not k.endswith("?") and k + "?" not in scope.vars:
                    attrs.pop(k[5:] + "?", None)  # reassigned: what the constructor's "value or None" was is stale
        return ObjV(obj.cls_key, tuple(attrs.items()), obj.concrete)

    def call_on_building_self(
        self,
        interp: Interpreter,
        node: cst.Call,
        fi: FunctionInfo,
        args: list[Value],
        kwargs: dict[str, Value],
        closure: tuple[tuple[str, Value], ...] | None = None,
    ) -> Value:
        """``super().__init__(...)`` or ``self.build(...)`` while an object is constructed: the callee sets attributes
        of the same object, so it runs with the caller's ``self.x`` values and hands them back. ``closure``: a
        function nested in the constructor that reads ``self`` from it (it has no ``self`` parameter)."""
        fi = ensure_signature(fi)
        bound = bind_arguments(fi.params, args, kwargs, skip_first=closure is None)
        depth = interp.frame.depth
        state = function_state(fi)
        if bound is None or state.analysing or depth >= MAX_INLINE_DEPTH or fi.has_unknown_decorators:
            self._forget_self_attrs(interp, fi)
            return UNKNOWN
        for p in fi.params[1 if closure is None else 0 :]:
            if p.name not in bound and p.kind in ("pos", "posonly", "kwonly") and p.default is not None:
                bound[p.name] = objects._default(self, fi, p.default, p.name)
        top = fi.module is self and not self.ctx.suppress_depth and not self.ctx.uncertain
        if top:
            self.standalone_done.add(fi.key)  # a class's own constructor run: its findings are reported here
        callee_ctx = fi.module.ctx
        if not top:  # collected, and reported at this call (as an inlined function's)
            callee_ctx.suppress_depth += 1
            saved = callee_ctx.inline_findings
            callee_ctx.inline_findings = []
        state.analysing += 1
        # a base's constructor given sizes (``super().__init__(dim_in, dim_out)``): the layers it builds name this call
        # in their notes (construction_chain), the line where those sizes were chosen
        named = closure is None and fi.name == "__init__" and bool(node.args)
        if named:
            objects.CONSTRUCTING.append((interp.m, node, f"{self.code_for(node.func)}()"))
        # a local dict handed on (``blocks.append(self._make_block(ba))`` of a builder whose method pops from it): what
        # the body leaves in it is carried back as for a plain function (_inline)
        watch = self._carry_watch(node, fi, bound, interp.frame.self_value, closure or ())
        try:
            scope = fi.module.run_function(
                fi,
                bound,
                interp.frame.self_value,
                depth=depth + 1,
                self_vars=interp.scope.vars,
                building=True,
                closure=closure or (),
                method_of=interp.frame.cls_key if closure is not None else None,
                watch=watch,
            )
        finally:
            state.analysing -= 1
            if named:
                objects.CONSTRUCTING.pop()
            if not top:
                inner = callee_ctx.inline_findings
                callee_ctx.inline_findings = saved
                callee_ctx.suppress_depth -= 1
        if not top:
            self.report_inner(node, fi.module, f"{fi.name}()", inner)
        for k, v in scope.vars.items():
            if k.startswith("self."):
                interp.scope.vars[k] = v
        self._record_carried(node, fi, bound, _exit_values(scope, watch) if watch else None, watch)
        rets = [v for _, v in scope.returns]
        return rets[0] if len(rets) == 1 else UNKNOWN

    def call_on_local_object(
        self,
        interp: Interpreter,
        node: cst.CSTNode,
        fi: FunctionInfo,
        bound: dict[str, Value],
        obj: ObjV,
        key: str | None,
        held: ObjV | None = None,
        own_self: bool = False,
        left: list[ObjV] | None = None,
    ) -> Value:
        """``builder(stem, block_args)`` / ``builder.build(...)`` on a helper object (a plain class) a local variable
        holds: the method runs with the object's attributes as ``self.x`` and what it assigns to them is the
        object's afterwards (``builder.in_chs`` after the call is the last stage's width). ``key`` None: the object
        was just built by the call's own receiver (``KMeans(k).fit(x)``), no variable holds it. A method that
        returns ``self`` returns the object with what it assigned. ``held``: the object the variable holds when
        ``obj`` is it with its constructor's values (ObjV.fresh); those the method does not assign stay constructor
        values. ``own_self``: ``self.method(...)`` inside a method run for a concrete object (``fit`` calling
        ``self._init_params()`` then ``self._m_step()``): the callee starts from the caller's ``self.x`` values and
        what it assigns is the caller's ``self.x`` afterwards. ``left`` gets the object as the method left it (not
        for ``own_self``)."""
        depth = interp.frame.depth
        state = function_state(fi)
        if state.analysing or depth >= MAX_INLINE_DEPTH or fi.has_unknown_decorators:
            if key is not None:
                self._forget_local_object(interp, key, held or obj)
            if own_self:  # what the method would assign to self is no longer known
                self._forget_self_attrs(interp, fi)
            return UNKNOWN
        callee_ctx = fi.module.ctx
        callee_ctx.suppress_depth += 1
        saved = callee_ctx.inline_findings
        callee_ctx.inline_findings = []
        state.analysing += 1
        self_vars = {f"self.{k}": v for k, v in obj.attrs}
        if own_self:
            self_vars.update((k, v) for k, v in interp.scope.vars.items() if k.startswith("self."))
        # what self's attributes hold at each exit of the body, joined (a ``return`` in a branch leaves them as they
        # were there)
        watch = frozenset(self_vars) | frozenset(k for k in _assigned_names(fi.node.body) if k.startswith("self."))
        try:
            scope = fi.module.run_function(
                fi, bound, obj, depth=depth + 1, self_vars=self_vars, building=True, watch=watch
            )
        finally:
            state.analysing -= 1
            inner = callee_ctx.inline_findings
            callee_ctx.inline_findings = saved
            callee_ctx.suppress_depth -= 1
        extra = _built_by_entry_point(self, interp, node, obj) if type(node) is cst.Call else ()
        self.report_inner(node, fi.module, f"{fi.name}()", inner, extra)
        if scope.exits:
            scope.vars.update(_exit_values(scope, watch))
        if own_self:
            for k, v in scope.vars.items():
                if k.startswith("self.") and self_vars.get(k) is not v:
                    interp.scope.vars[k] = v
                    before = self_vars.get(k)
                    if before is not None:
                        interp.forget_inner(before, v, frozenset((k, "self")))
                        if isinstance(before, (SeqV, DictV, IntDictV, ManyV)):
                            # ``s = self.stats`` before the call: the same dict, which the method may have changed
                            # in place (or not: it may have bound a new one)
                            for other, held_v in list(interp.scope.vars.items()):
                                if held_v is before and other != k:
                                    interp.scope.vars[other] = UNKNOWN
            rets = [v for _, v in scope.returns]
            if len(rets) != 1:
                return UNKNOWN
            # ``return self``: the object with what the method assigned (``self.fit(x).transform(x)``)
            return _with_own_attrs(interp, obj) if _returns_self(fi) and rets[0] is obj else rets[0]
        base = held or obj
        attrs = dict(base.attrs)
        # (a module list's submodules with constructor values of their own: the method may have run on them)
        fresh = {k: v for k, v in base.fresh if not k.startswith(objects.LISTED)}
        for k, v in scope.vars.items():
            if k.startswith("self."):
                attrs[k[5:]] = v
                fresh.pop(k[5:], None)
        after = ObjV(obj.cls_key, tuple(attrs.items()), True, tuple(fresh.items()))
        if left is not None:
            left.append(after)
        if key is not None and interp.scope.vars.get(key) is base:
            interp.scope.vars[key] = after
            # what the method changed inside the object (``self.model.scale = ...``) is changed for any other name
            # holding it (``task = Task(model); task.prepare()``: ``model`` itself)
            interp.forget_inner(base, after, frozenset((key,)))
        rets = [v for _, v in scope.returns]
        if len(rets) != 1:
            return UNKNOWN
        return after if _returns_self(fi) else rets[0]

    def _forget_local_object(self, interp: Interpreter, key: str, obj: ObjV) -> None:
        if interp.scope.vars.get(key) is obj:
            interp.scope.vars[key] = UNKNOWN
            interp.forget_inner(obj, None, frozenset((key,)))

    def _forget_self_attrs(self, interp: Interpreter, fi: FunctionInfo) -> None:

        for k in _assigned_names(fi.node.body):
            if k.startswith("self."):
                interp.scope.vars[k] = UNKNOWN

    # ------------------------------------------------------------------ calls
    def call(self, interp: Interpreter, node: cst.Call) -> Value:
        """A call (``default(noise, lambda: torch.randn_like(x))``: a lambda handed to a plain function of the
        analysed code that is no generator runs, if at all, before that function returns -- unless the function keeps
        it: a result that holds the lambda is unknown)."""
        for a in node.args:
            if a.keyword is not None and a.keyword.value == "out" and type(a.value) is cst.Name:
                # ``np.add(w, 3, out=w)``: its elements are written: what was known of them (a range, a largest
                # one, exact values) no longer holds
                held = interp.scope.vars.get(a.value.value)
                if isinstance(held, TensorV):
                    mark_stale(held)
                    interp.scope.vars[a.value.value] = replace(held, bounds=None, top=None)
        carried = _carry_candidates(interp, node, self.tree)
        if carried:
            return self._call_carrying(interp, node, carried)
        if id(node) in _WANTED or id(node) in _CARRIED:
            # the same call running in a caller's frame (a recursion: ``inject_lora(child)`` inside
            # ``inject_lora``): its entries are the caller's, which this run neither reads nor writes
            wanted, saved = _WANTED.pop(id(node), None), _CARRIED.pop(id(node), None)
            try:
                return self.call_without_carry(interp, node)
            finally:
                if wanted is not None:
                    _WANTED[id(node)] = wanted
                if saved is not None:
                    _CARRIED[id(node)] = saved
        return self.call_without_carry(interp, node)

    def _call_carrying(
        self, interp: Interpreter, node: cst.Call, carried: list[tuple[str, Value, int | None]]
    ) -> Value:
        """A call handing local dicts or lists (``_update_default_kwargs(cfg, kwargs, None)``) to a function whose body
        is run here: each such variable, forgotten by the call, holds what the callee's parameter held when it
        returned (``_inline``, which records it only for a parameter the body changes in place alone, never rebinds,
        aliases or lets escape). A callee that was not run, or one whose effect is unknown, leaves it unknown."""
        saved = _CARRIED.pop(id(node), None)
        wanted = _WANTED.get(id(node))
        _WANTED[id(node)] = frozenset(id(v) for _, v, _ in carried)
        # (what the callee is, taken before the call: a call of ``self.convs[0]`` may leave the list unknown)
        plain = self._plain_callee(interp, node.func)
        # lists holding a carried dict as an item (``for conv, st in zip(self.convs, self.states): conv(x, st)``),
        # before the call forgets them with the dict
        holders = {id(v): _list_holders(interp, name, v) for name, v, k in carried if k is None}
        walking = frozenset(n for n, v, k in carried if k is None and interp.walked_model(n, v) is not None)
        outer_walking = interp.carrying_walk
        interp.carrying_walk = outer_walking | walking
        try:
            out = self.call_without_carry(interp, node)
            exits = _CARRIED.pop(id(node), None)
        finally:
            interp.carrying_walk = outer_walking
            if saved is not None:
                _CARRIED[id(node)] = saved
            if wanted is None:
                del _WANTED[id(node)]
            else:
                _WANTED[id(node)] = wanted
        plain = plain and not interp.dead
        for name, v, k in carried:
            got = exits.get(id(v)) if exits and plain else None
            if k is None:
                if got is not None and type(v) in (ObjV, LayerV) and not _holds(out, v, 4):
                    # a model whose modules the callee walked (or ran a method of): what it left there, whatever
                    # the call's own rules kept or forgot of it; a child module of a walk over a model
                    # (``for name, child in module.named_children(): inject_lora(child)``) changed in the model too
                    interp.scope.vars[name] = got
                    interp.walked_replaced(name, v, got)
                    if type(out) in (ObjV, LayerV) and out == got:
                        out = got  # (``return module``: the one object under both names)
                    continue
                if name in walking:
                    interp.walked_changed(name)  # (what the callee did to the walk's module is not known)
                    interp.forget_object(cst.Name(name))
                if got is not None and interp.scope.vars.get(name) is UNKNOWN and not _holds(out, v, 4):
                    interp.scope.vars[name] = got
                    _replace_in_lists(interp, holders[id(v)], v, got)
                continue
            # an item handed on (``block(x, cache=caches[i])``): the list gets what the callee left in it, in its
            # place; a callee that did not say (its run may keep the item, or store into it what is not followed)
            # leaves the list unknown, unless it is a framework's or a pure builtin (``torch.cat(feats[i])``)
            xs = interp.scope.vars.get(name)
            if not isinstance(xs, SeqV) or k >= len(xs.items) or xs.items[k] is not v:
                continue
            if got is not None and not _holds(out, v, 4):
                interp.scope.vars[name] = replace(xs, items=(*xs.items[:k], got, *xs.items[k + 1 :]))
            elif plain or not self._pure_callee(interp, node.func):
                interp.scope.vars[name] = UNKNOWN
        return out

    def _pure_callee(self, interp: Interpreter, func: cst.BaseExpression) -> bool:
        """Is ``func`` a function of einops, a framework or the standard library's pure modules, a framework's layer,
        or a builtin that neither changes nor keeps its arguments?"""
        if type(func) is cst.Name and func.value in _PURE_BUILTINS and func.value not in interp.scope.vars:
            return func.value not in self.globals and func.value not in self.imports.names
        name = dotted(func)
        qual = self.qualify_dotted(name) if name is not None else None
        if qual is not None and qual.startswith(_PURE_PREFIXES):
            return True
        if type(func) is cst.Name or type(func) is cst.Attribute:
            with self.ctx.discarding():
                v = interp.eval(func)
            return isinstance(v, LayerV) or (isinstance(v, RefV) and v.qualname.startswith(_PURE_PREFIXES))
        return False

    def _plain_callee(self, interp: Interpreter, func: cst.BaseExpression) -> bool:
        """Is ``func`` one function or one object of the analysed code (``self.matcher(outputs, targets)`` runs its
        class's ``__call__`` / ``forward``), not an "either" of callables, one of which may run a body not followed?"""
        if type(func) is cst.Name:
            v = interp.scope.vars.get(func.value) if func.value in interp.scope.vars else self.globals.get(func.value)
        elif type(func) is cst.Attribute or (type(func) is cst.Subscript and _var_key(chain_root(func)) is not None):
            with self.ctx.discarding():  # (``self.convs[0](x, state)``: an item of a module list)
                v = interp.eval(func)
        else:
            return False
        if v is None or isinstance(v, RefV):
            # a function of another module of the analysed code, imported (``from .model import build``) or read
            # off the module (``lfads.lfads_params``)
            qual = self.qualify(func) if type(func) in (cst.Name, cst.Attribute) else None
            found = self.project.lookup(qual) if qual is not None and self.project is not None else None
            return isinstance(found, FuncV) and found.bound_self is None
        return isinstance(v, (FuncV, ObjV))

    def call_without_carry(self, interp: Interpreter, node: cst.Call) -> Value:
        lambdas = [a.value for a in node.args if type(a.value) is cst.Lambda]
        if not lambdas or not self._runs_now(interp, node.func):
            return self._call(interp, node)
        saved = interp.live_lambdas, interp.live_made
        interp.live_lambdas, interp.live_made = frozenset(id(n) for n in lambdas), []
        try:
            out = self._call(interp, node)
            made = interp.live_made
        finally:
            interp.live_lambdas, interp.live_made = saved

        if any(out is v or out == v or _holds(out, v, 4) for v in made):
            return UNKNOWN
        return out

    def _runs_now(self, interp: Interpreter, func: cst.BaseExpression) -> bool:
        """Is ``func`` a name for a plain function of the analysed code (no method, no class, no generator)?"""
        if type(func) is not cst.Name:
            return False
        v = interp.scope.vars.get(func.value) if func.value in interp.scope.vars else self.globals.get(func.value)
        if not isinstance(v, FuncV) or v.bound_self is not None:
            return False
        fi = self.find_function(v.key)
        if fi is None or fi.cls_key is not None or fi.node.asynchronous is not None:
            return False

        return not walk_memo("yields", fi.node, _yields)

    def _call(self, interp: Interpreter, node: cst.Call) -> Value:
        func = node.func
        qual = None
        if type(func) is cst.Attribute and func.attr.value in ("parse_args", "parse_known_args"):
            ns = argparse_defaults.namespace(self, interp, node)  # a script's options in its default run
            if ns is not None:
                return ns
        # exact node types here and below: libcst's node classes are ABCs (``isinstance`` on them costs several
        # times more), and this runs for every call the analysis meets
        if type(func) is cst.Name or type(func) is cst.Attribute:
            head = dotted(func)
            if head is not None and head.partition(".")[0] not in interp.scope.vars:
                qual = self.qualify_dotted(head)
            elif type(func) is cst.Attribute:
                key = _var_key_of(func.value)
                base = interp.scope.vars.get(key) if key is not None else None
                if isinstance(base, RefV) and base.qualname in RANDOM_STATES:
                    # rng = np.random.default_rng(0); rng.normal(size=(2, 3)), self.rng.integers(...): the sampler
                    qual = f"{base.qualname}.{func.attr.value}"
        # a callee that is neither a name nor an attribute (``ENCODERS[cfg.pop("type")](**cfg)``,
        # ``getattr(litgpt.model, name)(config)``) is evaluated before the arguments, as Python does, and so is a
        # property of an object that gives the callee (``config.mlp_class(config)``): what it is decides whether the
        # arguments handed to it stay known
        early: Value | None = (
            interp.eval(func)
            if type(func) is cst.Subscript or type(func) is cst.Call
            else _property_callee(interp, func)
            if type(func) is cst.Attribute and type(func.value) is cst.Name
            else None
        )
        args: list[Value] = []
        kwargs: dict[str, Value] = {}
        dynamic = False
        unknown_keywords = False  # a ``**`` of a value not known to be a dict of known entries
        unknown_positional = False  # a ``*`` of a value not known to be a sequence of known items
        repeated: ManyV | None = None
        # arguments whose value is an int, float, bool, string or None (or a tuple of them), or a tensor handed to
        # a callee the call names by a variable or ``self.`` attribute (a layer of the analysed code, a local
        # function) or to a framework's function: the callee gets that value, through which it cannot change the
        # object it was read from (``layer(h, self.r_w_bias)`` leaves ``self`` and its ``self.layers`` as built). A
        # tensor handed to another module's function may be resized in place there (``p.data = ...``): as before
        tensors_kept = qual is None or qual.startswith(_PURE_PREFIXES)
        scalars: set[int] = set()
        arg_values: list[Value] = []  # each argument's value, in order
        for a in node.args:
            v = interp.eval(a.value)
            arg_values.append(v)
            if (
                _immutable(v)
                or (tensors_kept and type(v) is TensorV)
                or (type(a.value) is cst.Attribute and a.value.attr.value in ("dtype", "device"))
            ):
                scalars.add(id(a))  # (``.to(x.tensors.dtype)``: a dtype or a device, whether or not it is known)
            if a.star == "*":
                if isinstance(v, SeqV):
                    args.extend(v.items)
                elif (
                    isinstance(v, ManyV)
                    and v.elem is not None
                    and len(node.args) > 1
                    and (qual or "").endswith("torch.nn.Sequential")
                ):
                    # nn.Sequential(stem, *[Block(dim) for _ in range(depth)], head): the blocks are one link of the
                    # chain that repeats any number of times
                    args.append(LayerV("Sequential", (("repeat", v.elem),), node))
                else:
                    dynamic = unknown_positional = True
                    if isinstance(v, ManyV) and len(node.args) == 1:
                        repeated = v
            elif a.star == "**":
                if isinstance(v, DictV):
                    kwargs.update(v.items)  # **kwargs handed on: the named arguments the caller gave
                else:
                    dynamic = True
                    unknown_keywords = True
            elif a.keyword is not None:
                kwargs[a.keyword.value] = v
            else:
                args.append(v)
        if (
            qual is not None
            and type(func) is cst.Attribute
            and func.attr.value == "__init__"
            and qual[: -len(".__init__")] in objects.HF_CONFIG_BASES
            and _self_handed(interp, node, args) is not None
        ):
            # PretrainedConfig.__init__(self, **kwargs), the base named: what super().__init__(**kwargs) does
            _hf_config_super_init(interp, args[1:], kwargs, dynamic)
            return NoneV()
        if qual is not None and type(func) is cst.Attribute and func.attr.value == "__init__" and not dynamic:
            explicit = self._explicit_torch_layer_init(interp, node, qual[: -len(".__init__")], args, kwargs)
            if explicit is not None:
                return explicit
        if (
            type(func) is cst.Name
            and func.value == "setattr"
            and not dynamic
            and not kwargs
            and len(args) == 3
            and isinstance(args[1], StrV)
            and type(node.args[0].value) is cst.Name
            and node.args[0].value.value != "self"
            and func.value not in interp.scope.vars
            and func.value not in self.globals
        ):
            # setattr(module, name, LoRALinear(child)) with the name known: ``module.<name> = ...`` (a name such as
            # "0", an nn.Sequential's link, too)
            interp.set_attribute(node.args[0].value, args[1].value, args[2])
            return NoneV()
        if type(func) is cst.Name and not dynamic and not kwargs and args:
            done = self._list_helper(interp, node, func, args)
            if done is not None:
                return done
        for v in arg_values:
            if type(v) is FuncV and "<locals>" in v.key and (inner := self.find_function(v.key)) is not None:
                # a function defined here that fills a list of this scope (``def pack(t): saved.append(t)``),
                # handed to code that may call it at any later time (torch's saved_tensors_hooks, a hook
                # registry): that list is not known from here
                for mutated in sorted(_assigned_names(inner.node.body)):
                    if mutated in interp.scope.vars and "." not in mutated:
                        interp.forget_if_list(cst.Name(mutated))
        if qual in _SHUFFLES and len(node.args) == 1 and not node.args[0].star and not kwargs:
            # np.random.shuffle(index), random.shuffle(xs), rng.shuffle(x): the same items (rows) in an order not
            # known, in place
            key = _var_key_of(node.args[0].value)
            shuffled = arg_values[0]
            if isinstance(shuffled, SeqV) and shuffled.kind == "list" and key is not None and key in interp.scope.vars:
                interp.forget_aliases(key, shuffled)
                interp.scope.vars[key] = SeqV(_reordered(shuffled.items, "sort", UNKNOWN, self.ctx), "list")
            elif isinstance(shuffled, (SeqV, ManyV)) and key is not None:
                interp.forget_if_list(node.args[0].value)
            mark_stale(shuffled)
        if qual is not None and _writes_tensor_arguments(qual, kwargs):
            # dist.broadcast(n, 0), nn.init.constant_(t, 1), a library's function: the tensors handed to it may be
            # written in place, so the exact elements they were made with no longer hold
            for v in arg_values:
                mark_stale(v)
        # a list handed to code that may fill it is unknown after the call (the call itself gets the values just
        # read); einops, the frameworks and pure builtins never mutate their arguments
        held = interp.scope.vars.get(func.value) if qual is None and type(func) is cst.Name else None
        if (
            not (qual or (held.qualname if isinstance(held, RefV) else "")).startswith(_PURE_PREFIXES)
            # (a framework's class held in a variable: ``conv_trans = CONV_TRANS[dims]; conv_trans(c, k, kernel_size=ks)``)
            and not (type(func) is cst.Name and func.value in _PURE_BUILTINS)
            and not _list_method_call(interp, func)
            # (``"index={}".format(self.index)``, ``", ".join(names)``: a string literal's method reads its arguments)
            and not (
                type(func) is cst.Attribute
                and type(func.value) in (cst.SimpleString, cst.ConcatenatedString)
                and func.attr.value in _STR_READING_METHODS
            )
            and any(interp.may_forget(a.value) for a in node.args)
            # self.apply(self._init_weights): the bound method only fills weights in place (_initialiser)
            and not (type(func) is cst.Attribute and func.attr.value == "apply" and self._initialiser(args, kwargs))
        ):
            keeps = self._keeps_arguments(interp, func, qual, early) or self._factory_keeps(
                interp, node, func, arg_values
            )
            kept_lists = self._kept_list_args(interp, node, arg_values, qual, early)
            untouched = self._unmutated_args(interp, node)
            partly = self._attribute_writes(interp, node, qual) if not keeps else {}
            for a, a_value in zip(node.args, arg_values):
                if a.star == "**" and id(a) in kept_lists and _var_key_of(a.value) is not None:
                    continue  # Model(**cfg) whose parameters only read the lists it hands them: cfg as it was
                if a.star == "**" and _unpacked_dict(interp, a.value):
                    continue  # f(**cfg) hands on a new dict: cfg keeps its entries (its own lists may change)
                if (
                    a.star == "**"
                    and isinstance(a_value, DictV)
                    and a_value.kind == "dict"
                    and all(_immutable(x) for _, x in a_value.items)
                ):
                    continue  # f(**cfg.unet): a new dict of numbers, strings and tuples: nothing it holds can change
                if a.star == "*" and _unpacked_scalars(interp, a.value):
                    continue  # x.view(*shape, -1) hands on a new tuple of numbers: shape itself cannot change
                if not a.star and not keeps and interp.forget_handed_container(a.value, a_value):
                    continue  # conv(x, self.state): that dict, not all of self
                if (
                    id(a) not in kept_lists
                    and not (keeps and _namespace_arg(interp, a.value))
                    # (the module a walk over a model is at, handed to a constructor that sets no attribute of it:
                    # ``LoRALinear(child)``; the walk goes on)
                    and not (
                        keeps
                        and type(a.value) is cst.Name
                        and isinstance(a_value, (ObjV, LayerV))
                        and interp.walked_model(a.value.value, a_value) is not None
                    )
                ):
                    # (a config namespace handed to a class whose constructors set no attribute of their arguments
                    # is read, not changed: ``Model(configs)``)
                    interp.forget_if_list(a.value, modules=id(a) not in untouched)
                if id(a) in partly and id(a) not in scalars:
                    # an object whose callee changes only some of its attributes (``params.cache[k] = v``): those
                    for attr in sorted(partly[id(a)]):
                        if attr.startswith(METHOD_PREFIX):
                            held_name = attr[len(METHOD_PREFIX) :]
                            held = a_value.attr(held_name) if isinstance(a_value, ObjV) else None
                            if held is None and self._reading_method(a_value, held_name):
                                continue  # head.bin_targets(dist): a method of its class that changes nothing
                            if held is None and isinstance(a_value, ObjV):
                                interp.forget_object(a.value)  # (a property's method: as above)
                            elif held is None or not _immutable(held) or held_name in partly[id(a)]:
                                interp.forget_object(a.value, held_name, UNKNOWN)
                            continue
                        if attr.startswith(ITEM_PREFIX):
                            item = attr[len(ITEM_PREFIX) :]
                            held = a_value.attr(item) if isinstance(a_value, ObjV) else None
                            if held is not None and item not in partly[id(a)] and objects.kept_by_item_stores(held):
                                # (RolloutBuffer's arrays filled step by step by collect_rollout(agent, env, buf))
                                interp.forget_object(a.value, item, held.with_shape(held.shape))  # type: ignore[union-attr]
                            else:
                                interp.forget_object(a.value, item, UNKNOWN)
                            continue
                        if attr.startswith("use "):
                            # only read or handed on (``for h in cfg.hidden``, ``nn.Linear(d, cfg.out_dim)``,
                            # ``cfg.env.num_envs``): the attribute is not rebound, and numbers or strings (a tuple of
                            # them) cannot change
                            first = attr[4:].split(".", 1)[0]
                            held = self._read_path(a_value, attr[4:])
                            if held is None and self._arithmetic_property(a_value, first):
                                continue  # cfg.head_dim, a property returning n_embd // n_head: a number, read
                            if held is None and isinstance(a_value, ObjV) and a_value.attr(first) is None:
                                # a name the object does not hold (a property, whose getter may hand out any
                                # attribute: ``return self.dims``): the whole object may change through it
                                interp.forget_object(a.value)
                            elif first in partly[id(a)] or held is None or not _immutable(held):
                                interp.forget_object(a.value, first, UNKNOWN)
                            continue
                        if attr == "training" and type(a.value) is cst.Name:
                            # train_step(model): model.train() there, so not the mode a model.eval() here set
                            interp.scope.vars.pop(a.value.value + TRAINING_SUFFIX, None)
                        interp.forget_object(a.value, attr, UNKNOWN)
                elif (
                    not keeps
                    and id(a) not in scalars
                    and id(a) not in kept_lists
                    and (
                        _plain_list_attribute(interp, a.value, a_value) or _unknown_attribute(interp, a.value, a_value)
                    )
                ):
                    # ``CNNEncoder(args.in_ch, args.channels, pools)``: a list (dict) of numbers and strings the
                    # object holds, handed to code that may fill it: that attribute only (no item of it holds
                    # anything else of the object); ``self.optimizer.init(self.params)``: what the attribute holds is
                    # not known, and the callee gets that, not the object: no other attribute changes
                    interp.forget_object(a.value.value, a.value.attr.value, UNKNOWN)  # type: ignore[attr-defined]
                    for other, held in list(interp.scope.vars.items()):
                        if held is a_value and a_value is not UNKNOWN:
                            interp.scope.vars[other] = UNKNOWN  # (``chs = args.channels``: the same list)
                elif not keeps and id(a) not in scalars and id(a) not in kept_lists:
                    # a model handed to code that may replace its layers; `Norm(cfg.hidden)` hands on an int, which
                    # cannot change cfg (nor ``Tokenizer(cfg.cardinalities)`` a list of ints it only reads)
                    interp.forget_object(a.value)
                    if type(a.value) in (cst.List, cst.Tuple, cst.Set) and not (
                        isinstance(a_value, SeqV) and all(_immutable(x) for x in a_value.items)
                    ):
                        # seed_all([model], 3): the objects of a list display are the callee's to change as well
                        # (``mlp([cfg.num_dense, *cfg.hidden, cfg.dim])``, numbers only: nothing to change)
                        for e in a.value.elements:  # type: ignore[attr-defined]
                            if type(e) is not cst.StarredElement and type(e.value) in (cst.Name, cst.Attribute):
                                interp.forget_object(e.value)
        if repeated is not None and repeated.elem is not None and (qual or "").endswith("torch.nn.Sequential"):
            # nn.Sequential(*[Block(dim) for _ in range(depth)]): any number of such blocks
            return LayerV("Sequential", (("repeat", repeated.elem),), node)
        if type(func) is cst.Attribute and func.attr.value == "apply" and not dynamic and not kwargs:
            forward = self._autograd_forward(interp, func.value)
            if forward is not None:
                # MyFunction.apply(x, blocks): a torch.autograd.Function runs its static forward(ctx, x, blocks)
                fv, takes_ctx = forward
                return self.call_function(interp, node, fv, [UNKNOWN, *args] if takes_ctx else args, {})
        if (
            dynamic
            and unknown_keywords
            and qual in UNKNOWN_KEYWORDS_OK
            and not any(a.star == "*" for a in node.args)
            and OPEN_KEYWORDS not in kwargs
        ):
            # F.interpolate(x, scale_factor=2, **self.up_kwargs): the rule reads the shape from what is known, the
            # unknown keywords marked (see UNKNOWN_KEYWORDS_OK)
            dynamic = False
            kwargs = {**kwargs, OPEN_KEYWORDS: UNKNOWN}
        if qual is not None:
            handled = self.call_qualified(interp, node, qual, args, kwargs, dynamic)
            if handled is not None:
                return handled
        if (
            type(func) is cst.Name
            and func.value == "setattr"
            and func.value not in interp.scope.vars
            and func.value not in self.globals
            and len(node.args) == 3
            and _names_self(node.args[0].value)
            and _building_instance(interp)
        ):
            # setattr(self, k, v) in a constructor: the attribute named, or (a name not known) any of them
            interp.set_attributes_by_name(
                [(args[1], args[2])] if len(args) == 3 and not dynamic else None, _literal_start(node.args[1].value)
            )
            return NoneV()
        if type(func) is cst.Attribute and func.attr.value == "__setattr__" and _building_instance(interp):
            # object.__setattr__(self, k, v) (a frozen dataclass's __post_init__), self.__setattr__(k, v),
            # super().__setattr__(k, v) in a constructor: setattr(self, k, v)
            named: tuple[Value, Value, cst.BaseExpression] | None = None
            if (
                type(func.value) is cst.Name
                and func.value.value == "object"
                and "object" not in interp.scope.vars
                and "object" not in self.globals
                and len(node.args) == 3
                and _names_self(node.args[0].value)
            ):
                named = (
                    (args[1], args[2], node.args[1].value) if len(args) == 3 else (UNKNOWN, UNKNOWN, node.args[1].value)
                )
            elif (_names_self(func.value) or objects.is_super_call(func.value)) and len(node.args) == 2:
                named = (
                    (args[0], args[1], node.args[0].value) if len(args) == 2 else (UNKNOWN, UNKNOWN, node.args[0].value)
                )
            if named is not None:
                interp.set_attributes_by_name(
                    [(named[0], named[1])] if not dynamic and isinstance(named[0], StrV) else None,
                    _literal_start(named[2]),
                )
                return NoneV()
        if (
            type(func) is cst.Attribute
            and func.attr.value in ("__setattr__", "__delattr__")
            and type(func.value) is cst.Name
            and func.value.value == "object"
            and "object" not in interp.scope.vars
            and "object" not in self.globals
            and len(node.args) >= 2
            and not node.args[0].star
        ):
            # object.__setattr__(cfg, "dim", 6) on an object built elsewhere (a frozen dataclass changed in place):
            # setattr(cfg, "dim", 6); the attribute named by a literal is forgotten, else the whole object
            name = node.args[1].value
            literal = name.evaluated_value if type(name) is cst.SimpleString else None
            interp.forget_object(node.args[0].value, literal if isinstance(literal, str) else None, frozen_too=True)
            return NoneV()
        if type(func) is cst.Name and func.value in _BUILTINS and not dynamic:
            rule, shadowed_by_imports = _BUILTINS[func.value]
            if (
                func.value not in interp.scope.vars
                and func.value not in self.globals
                and not (shadowed_by_imports and func.value in self.imports.names)
            ):
                built = rule(self, interp, node, func.value, args, kwargs)
                if built is not None:
                    return built
        # method call on a tensor: x.view(...)
        callee: Value
        if early is not None:
            callee = early
        elif type(func) is cst.Attribute:
            if objects.is_super_call(func.value):
                return self.call_super(interp, node, func.attr.value, args, kwargs, dynamic)
            method = func.attr.value
            at_array = _at_array(func.value, self._jax_array_maker) if method in _AT_UPDATES else None
            if (
                at_array is None
                and method in _AT_UPDATES
                and type(func.value) is cst.Subscript
                and type(func.value.value) is cst.Attribute
                and func.value.value.attr.value == "at"
                and type(func.value.value.value) is cst.Call
                and (self.qualify(func.value.value.value.func) or "").startswith(("jax.numpy.", "jax.random."))
            ):
                # jnp.ones((2, 10)).at[1, 7:].set(0.): an array a jax function makes (evaluating it again, for the
                # region, runs no code of the analysed program)
                at_array = func.value.value.value
            if at_array is not None and type(func.value) is cst.Subscript:
                # x.at[idx].set(v) / .add(v) / ...: a jax array of x's shape and dtype (x a variable: read again);
                # the value must broadcast to the region x[idx] (whose index is evaluated here, once)
                arr = interp.eval(at_array)
                if isinstance(arr, TensorV) and arr.framework == "jax":
                    region = self.index_tensor(interp, func.value.with_changes(value=at_array), arr, func.value)
                    value = args[0] if len(args) == 1 and method != "apply" else None
                    if isinstance(region, TensorV) and isinstance(value, TensorV):
                        op_rules.tensor_store(self.ops, node, region, value, f".at[...].{method}")
                    return arr
                if type(at_array) is cst.Call:
                    return UNKNOWN  # (an update chain on what is no jax array: evaluated once, not again below)
            base = interp.eval(func.value)
            if (
                method in ("get", "pop")
                and hooks.STATE.registered
                and 1 <= len(args) <= 2
                and isinstance(args[0], StrV)
                and not kwargs
                and not dynamic
                and (
                    base is UNKNOWN
                    or (
                        isinstance(base, DictV)
                        and base.kind == "dict"
                        and all(k != args[0].value for k, _ in base.items)
                    )
                )
            ):
                # self._cache.pop("teacher"): what a forward hook stored there, when known (hooks.py)
                found = interp.hook_captured(func.value, args[0].value)
                if found is not UNKNOWN:
                    if method == "pop" and _var_key_of(func.value) is not None:
                        interp.forget(func.value)
                    return found
            if method in _CHILD_WALKS and not args and not kwargs and not dynamic:
                # model.named_children(): the submodules, when all are known (a loop over them runs per module)
                kids = objects.submodules(self, base)
                if kids is not None:
                    pairs = method == "named_children"
                    return SeqV(tuple(SeqV((StrV(k), x)) if pairs else x for k, x in kids), "list")
            if type(base) is ObjV and method in ("items", "values", "keys"):
                held_dict = base.attr(MODULE_DICT_ATTR)  # ``self.items()`` in an nn.ModuleDict subclass: its modules
                if isinstance(held_dict, DictV):
                    base = held_dict
            on_container = _CONTAINER_METHODS.get(type(base))
            if on_container is not None:
                done = on_container(self, interp, node, func, base, method, args, kwargs, dynamic)
                if done is not None:
                    return done
            if (
                method == "update"
                and _instance_dict_of_self(func.value)
                and _building_instance(interp)
                and not node.args[1:]
            ):
                # self.__dict__.update(kwargs), vars(self).update(cfg) in a constructor: the attributes of that
                # dict's keys (a dict whose keys are not all known: any attribute)
                given = args[0] if len(args) == 1 and not kwargs and not dynamic else None
                items: list[tuple[Value, Value]] | None = None
                if isinstance(given, DictV) and given.kind == "dict":
                    items = [(StrV(str(k)), v) for k, v in given.items]
                interp.set_attributes_by_name(items)
                return NoneV()
            if (
                type(func.value) is cst.Attribute
                and func.value.attr.value == "__dict__"
                and method not in ("values", "items", "keys", "get", "copy")
            ):
                # args.__dict__.update(cfg), self.__dict__.update(state): the attributes of the object set through
                # its dict (what that dict holds is not tracked)
                interp.forget_object(func.value.value)
            if method in _FORWARD_HOOKS:
                if (
                    method == "register_forward_hook"
                    and len(args) == 1
                    and kwargs.keys() <= {"prepend", "always_call"}
                    and not dynamic
                    and hooks.register(self, node, args[0], base)
                ):
                    return UNKNOWN  # (a hook that only stores what the module returned: its calls stay its own)
                self._hooked(interp, func.value, base)
            if (
                method == "apply"
                and (base is UNKNOWN or type(base) is ObjV)  # (the object being built, as far as it is known)
                and type(func.value) is cst.Name
                and func.value.value == "self"
                and _building_instance(interp)
                and any(isinstance(a, FuncV) for a in [*args, *kwargs.values()])
                and not self._initialiser(args, kwargs)
                and (ci := self.find_class(interp.frame.cls_key or "")) is not None
                and _torch_module_class(self, ci)
                and objects.find_method(self, ci, method) is None
            ):
                # self.apply(self._swap) in a constructor: torch runs a function of the analysed code on each
                # submodule and on the object, which may replace any of their attributes (``m.decoder = ...``)
                interp.set_attributes_by_name(None)
            on_model = _MODEL_METHODS.get(type(base))
            if on_model is not None:
                done = on_model(self, interp, node, func, base, method, args, kwargs, dynamic)
                if done is not None:
                    return done
            callee = interp.attribute(func, base)
            if callee is UNKNOWN and type(func.value) is cst.Name and func.value.value == "self":
                # ``self.mlp(t)`` where the constructor set ``self.mlp`` to one layer or None: calling None raises,
                # so when the code goes on, the layer ran

                alt = self_attribute(interp, func.attr.value + OPTIONAL)
                if isinstance(alt, (LayerV, ObjV, FuncV)):
                    callee = alt
        else:
            callee = interp.eval(func)
        if dynamic:
            if unknown_keywords and not unknown_positional and self._takes_open_keywords(callee):
                # self.net(*args, **kwargs) with kwargs not known: the positional arguments are known, every other
                # parameter may come from the dict (unknown, not its default; functions.bind_arguments)
                return self.call_callee(interp, node, callee, args, {**kwargs, OPEN_KEYWORDS: UNKNOWN})
            return UNKNOWN
        mode = _called_mode(interp, func)
        if mode is not None:
            # ``model.eval()`` / ``model.train()`` ran on the variable (or ``self.`` attribute) this call goes through
            counter = TRAIN_MODE if mode else EVAL_MODE
            counter[0] += 1
            try:
                return self.call_callee(interp, node, callee, args, kwargs)
            finally:
                counter[0] -= 1
        return self.call_callee(interp, node, callee, args, kwargs)

    def _takes_open_keywords(self, callee: Value) -> bool:
        """Is ``callee`` a plain def of the analysed code (no decorator), or an instance whose class defines the
        ``forward`` / ``__call__`` its call runs: code a call with keywords not known (OPEN_KEYWORDS) can run?"""
        if isinstance(callee, FuncV):
            fi = self.find_function(callee.key)
            return fi is not None and not fi.node.decorators
        if isinstance(callee, ObjV) and callee.concrete and callee.attr(HOOKED_ATTR) is None:
            ci = self.find_class(callee.cls_key)
            if ci is None:
                return False
            fwd = objects.find_method(self, ci, "__call__") or objects.find_method(self, ci, "forward")
            return fwd is not None and not fwd.node.decorators
        return False

    # ------------------------------------------------------------- method calls, by the receiver's kind
    # ``_call`` evaluates ``obj.method(...)``'s receiver once and hands the call to the handler of its value's kind:
    # containers (lists, dicts, strings) first, then, after what any receiver's method does (``__dict__`` updates,
    # forward hooks), models (objects, layers, tensors). A handler answers the call or returns None, and the call
    # goes on to the method the receiver's attribute names (``call_callee``).

    def _list_method(
        self,
        interp: Interpreter,
        node: cst.Call,
        func: cst.Attribute,
        base: Value,
        method: str,
        args: list[Value],
        kwargs: dict[str, Value],
        dynamic: bool,
    ) -> Value | None:
        """``xs.append(x)``, ``hs.pop()``, ``stages.insert(0, x)`` on a list (or ModuleList) value: the list grown or
        shrunk in place under its one name, or forgotten (``_call``; None: not answered here). ``names.index("z500")``
        of known strings or ints: where it first stands. A flax ``TrainState`` record's ``apply_gradients(grads=g)`` /
        ``replace(...)``: the record, its step not known / those fields replaced."""
        if isinstance(base, SeqV) and base.names is not None and base.names[:5] == _TRAIN_STATE_FIELDS and not dynamic:
            if method == "apply_gradients" and not args and set(kwargs) <= {"grads"}:
                # the optimizer's updates have the parameters' shapes: the parameters keep theirs
                return SeqV((UNKNOWN, *base.items[1:4], UNKNOWN, *base.items[5:]), base.kind, base.names)
            if method == "replace" and not args and set(kwargs) <= set(base.names):
                return SeqV(tuple(kwargs.get(n, v) for n, v in zip(base.names, base.items)), base.kind, base.names)
        if (
            method == "index"
            and isinstance(base, SeqV)
            and base.kind in ("list", "tuple")
            and len(args) == 1
            and not kwargs
            and not dynamic
        ):
            for i, item in enumerate(base.items):
                same = item_equal(args[0], item)
                if same is None:
                    break  # (an item not known may be the one asked for)
                if same:
                    return IntV(Size.const(i))
        if (
            isinstance(base, (SeqV, ManyV))
            and base.kind in ("list", "modulelist")
            and method in ("append", "extend")
            and len(args) == 1
            and not kwargs
            and not dynamic
            and _var_key_of(func.value) is not None
        ):
            grown = _grown(base, method, args[0])
            key = _var_key_of(func.value)
            if (
                grown is not None
                and key is not None
                and (key in interp.scope.vars if not key.startswith("self.") else interp.frame.building)
            ):
                interp.forget_aliases(key, base)
                interp.scope.vars[key] = grown
                return NoneV()
        if (
            isinstance(base, SeqV)
            and base.kind == "list"
            and method in ("sort", "reverse")
            and not args
            and set(kwargs) <= ({"reverse"} if method == "sort" else set())
            and not dynamic
        ):
            key = _var_key_of(func.value)
            if key is not None and key in interp.scope.vars and not key.startswith("self."):
                # index.sort(), xs.reverse(): the same items, in another order (ints known exactly: sorted)
                interp.forget_aliases(key, base)
                interp.scope.vars[key] = SeqV(_reordered(base.items, method, kwargs.get("reverse"), self.ctx), "list")
                return NoneV()
        if (
            isinstance(base, (SeqV, ManyV))
            and base.kind == "list"
            and method == "insert"
            and len(args) == 2
            and int_of(args[0]) is not None
            and not kwargs
            and not dynamic
        ):
            key = _var_key_of(func.value)
            if key is not None and key in interp.scope.vars and not key.startswith("self."):
                # stages.insert(0, x): the list with x at that place (coarsest first), one name for it
                interp.forget_aliases(key, base)
                if isinstance(base, ManyV):
                    interp.scope.vars[key] = ManyV(join_elem(base.elem, args[1]), base.kind)
                else:
                    seq = list(base.items)
                    seq.insert(int_of(args[0]), args[1])  # type: ignore[arg-type]
                    interp.scope.vars[key] = SeqV(tuple(seq), "list")
                return NoneV()
        if (
            isinstance(base, SeqV)
            and base.kind == "list"
            and method == "pop"
            and base.items
            and not kwargs
            and not dynamic
            and (not args or int_of(args[0]) in (0, -1))
        ):
            key = _var_key_of(func.value)
            if key is not None and key in interp.scope.vars and not key.startswith("self."):
                # hs.pop(): the last element (a UNet's skip connections), and the list without it
                last = not args or int_of(args[0]) == -1
                interp.forget_aliases(key, base)
                interp.scope.vars[key] = SeqV(base.items[:-1] if last else base.items[1:], "list")
                return base.items[-1] if last else base.items[0]
        if isinstance(base, (SeqV, ManyV)) and base.kind == "list" and type(func.value) is cst.Subscript:
            # params["layers"].append(p): the list is an item of a container variable, set there grown (or the
            # container forgotten: it no longer holds what it was built with)

            if method in ("append", "extend") and len(args) == 1 and not kwargs and not dynamic:
                grown = _grown(base, method, args[0])
                if grown is not None and _plain_item_chain(func.value) and interp.store_item(func.value, grown, []):
                    return NoneV()
            if method not in ("index", "count", "copy"):
                interp.forget_if_list(_subscript_root(func.value))
                return UNKNOWN
        if (
            isinstance(base, (SeqV, ManyV))
            and base.kind in ("list", "modulelist")
            and method not in ("index", "count", "copy")
            and not (base.kind == "modulelist" and method in _MODULE_READS)
            and not (base.kind == "modulelist" and method == "apply" and self._initialiser(args, kwargs))
        ):
            interp.forget(func.value) if isinstance(
                base, ManyV
            ) or base.kind == "modulelist" else interp.forget_if_list(func.value)
            key = _var_key_of(func.value)
            if base.kind == "modulelist" and type(func.value) is cst.Attribute and not (key or "").startswith("self."):
                interp.forget_object(func.value)  # g.blocks.apply(fix): the object the list belongs to has changed
            return UNKNOWN
        if isinstance(base, SeqV) and base.kind == "list" and method == "copy" and not args and not kwargs:
            return SeqV(base.items, "list", base.names)  # xs.copy(): a new list of the same items
        return None

    def _dict_method(
        self,
        interp: Interpreter,
        node: cst.Call,
        func: cst.Attribute,
        base: Value,
        method: str,
        args: list[Value],
        kwargs: dict[str, Value],
        dynamic: bool,
    ) -> Value | None:
        """``cfg.get("dim", 64)``, ``kwargs.update(...)``, ``d.items()``, a ModuleDict's entry called
        (``self.heads.cls(x)``) on a dict value; a dict changed some other way is forgotten (``_call``; None: not
        answered here)."""
        if isinstance(base, DictV) and base.kind == "file":
            # ``f.read()`` of ``f = open(path)``: the text of a config file of the project (else not known)
            if method == "read" and not args and not kwargs and not dynamic:
                from .library_calls import read_config_file

                text = read_config_file(self, base)
                return StrV(text) if text is not None else UNKNOWN
            return UNKNOWN
        if isinstance(base, DictV) and base.kind == "match":
            return regex_calls.match_method(base, method, args) if not kwargs and not dynamic else UNKNOWN
        if isinstance(base, DictV) and base.kind == "regex":
            return regex_calls.regex_method(base, method, args, kwargs) if not dynamic else UNKNOWN
        if isinstance(base, DictV) and base.kind == "path":
            return path_values.method(self, base, method, args, kwargs) if not dynamic else UNKNOWN
        if isinstance(base, DictV) and base.kind in ("dict", "namespace") and method == "update" and not dynamic:
            key = _var_key_of(func.value)
            extra = args[0] if len(args) == 1 else DictV(()) if not args else None
            names = [k for k, v in interp.scope.vars.items() if v is base]
            if (
                isinstance(extra, DictV)
                and extra.kind == "dict"
                and key is not None
                and not key.startswith("self.")
                and names == [key]
            ):
                # kwargs.update(context=...): the dict with those entries replaced or added (one name for it; an
                # AttrDict config's keys stay its attributes)
                entries = dict(base.items)
                entries.update(extra.items)
                entries.update(kwargs)
                interp.scope.vars[key] = DictV(tuple(entries.items()), base.kind)
                return NoneV()
            for k in names:  # several names for the dict (``extra = kwargs``), or an update not read: forget them
                interp.scope.vars[k] = UNKNOWN
        if isinstance(base, DictV) and method in ("values", "items", "keys") and not args:
            if method == "values":
                return SeqV(tuple(v for _, v in base.items), "tuple")
            if method == "keys":
                return SeqV(tuple(StrV(k) for k, _ in base.items), "tuple")
            return SeqV(tuple(SeqV((StrV(k), v)) for k, v in base.items), "tuple")
        if (
            isinstance(base, DictV)
            and base.kind == "dict"
            and method in ("get", "pop", "setdefault")
            and 1 <= len(args) <= 2
            and isinstance(args[0], StrV)
            and not kwargs
            and not dynamic
        ):
            # cfg.get("hidden_dim", 128), enc_cfg.pop("type"): a dict value holds every entry it has (one whose
            # keys are not all known strings is unknown), so a key it lacks is absent
            popped = _dict_get_or_pop(interp, func.value, base, method, args)
            if popped is not None:
                return popped
        if isinstance(base, DictV) and base.kind == "moduledict" and any(k == method for k, _ in base.items):
            callee_entry = base.get(method)  # self.transformer.wte(idx): the ModuleDict's entry called
            if isinstance(callee_entry, LayerV):
                return (
                    layer_rules.apply_layer(self.ops, interp, node, callee_entry, args, kwargs)
                    if not dynamic
                    else UNKNOWN
                )
            if isinstance(callee_entry, ObjV):
                return self.call_object(interp, node, callee_entry, args, kwargs) if not dynamic else UNKNOWN
            return UNKNOWN
        if isinstance(base, IntDictV) and method in ("values", "items", "keys", "get", "copy") and not kwargs:
            read = _int_dict_read(base, method, args)
            if read is not None:
                return read
        if isinstance(base, (DictV, IntDictV)) and method not in ("values", "items", "keys", "get", "copy"):
            if (key := _var_key_of(func.value)) is not None:  # d.update(...), d.pop(k), s.clear()
                interp.forget_holders(key, base)  # (``for s in self.states: s.clear()``: the list too)
                interp.forget(func.value)
        return None

    def _scalar_method(
        self,
        interp: Interpreter,
        node: cst.Call,
        func: cst.Attribute,
        base: Value,
        method: str,
        args: list[Value],
        kwargs: dict[str, Value],
        dynamic: bool,
    ) -> Value | None:
        """``name.split(".")``, ``math.log2(n).is_integer()``: methods of a known string or float (``_call``; None: not
        answered here)."""
        if isinstance(base, StrV) and not kwargs and not dynamic:
            text = _str_method(base.value, method, args)
            if text is None and method in ("split", "rsplit"):
                text = _str_split_max(base.value, method, args)
            if text is not None:
                return text
        if isinstance(base, FloatV) and method == "is_integer" and not args and base.value is not None:
            return BoolV(float(base.value).is_integer())  # math.log2(heads).is_integer()
        return None

    def _object_method(
        self,
        interp: Interpreter,
        node: cst.Call,
        func: cst.Attribute,
        base: Value,
        method: str,
        args: list[Value],
        kwargs: dict[str, Value],
        dynamic: bool,
    ) -> Value | None:
        """Methods of an object the analysis built: ``model.state_dict()``, ``model.eval()``/``.to(device)`` (the same
        object), ``model.apply(fn)``, flax ``model.init``/``apply``, and ``self.register_buffer``/``add_module``/
        ``self.helper()`` in a constructor (``_call``; None: not answered here)."""
        if isinstance(base, ObjV) and base.concrete and method == "load_state_dict" and args and not dynamic:
            self._state_dict_sizes(node, base, args[0])  # (what the call does to the object: as before)
        if isinstance(base, ObjV) and base.concrete and method == "state_dict" and not args and not kwargs:
            ci = self.find_class(base.cls_key)
            if ci is not None and not dynamic and objects.find_method(self, ci, method) is None:
                # model.state_dict(): the names and tensors of the parameters and buffers known
                return objects.state_dict_of(self, base) or UNKNOWN
        if (
            isinstance(base, ObjV)
            and base.concrete
            and method == "_replace"
            and not args
            and not dynamic
            and (ci := self.find_class(base.cls_key)) is not None
            and "typing.NamedTuple" in objects.foreign_bases(self, ci)
            and objects.find_method(self, ci, method) is None
        ):
            # graph._replace(nodes=h): a new tuple of the same class, those fields replaced (a name that is no field
            # raises ValueError)
            fields = {k for k, _ in base.attrs}
            if not set(kwargs) <= fields:
                return UNKNOWN
            return ObjV(base.cls_key, tuple((k, kwargs.get(k, v)) for k, v in base.attrs), True, base.fresh)
        if isinstance(base, ObjV) and base.concrete and method in _RETURNS_SELF:
            ci = self.find_class(base.cls_key)
            if ci is not None and objects.find_method(self, ci, method) is None:
                if method == "eval" and not dynamic:
                    switched = self._eval_through_train(interp, node, base, ci, args, kwargs)
                    if switched is not None:
                        return switched
                if method in ("eval", "train") and not dynamic and not kwargs and len(args) <= 1:
                    key = _local_object_key(interp, node, base)
                    if key is not None and _torch_module_class(self, ci):
                        # torch's Module.train(mode) runs train(mode) on each submodule: those whose classes
                        # override it (a LoRA layer the model built) run it with the object's fresh values
                        mode = BoolV(method == "train") if not args or method == "eval" else args[0]
                        interp.scope.vars[key] = self._train_children(interp, node, base, mode, 0)
                        return interp.scope.vars[key]
                return base  # model.to(device), model.eval(): the same object
        if (
            isinstance(base, ObjV)
            and base.concrete
            and any(isinstance(a, FuncV) for a in [*args, *kwargs.values()])
            and not (method == "apply" and self._initialiser(args, kwargs))
            and (ci := self.find_class(base.cls_key)) is not None
            and objects.find_method(self, ci, method) is None
        ):
            # model.apply(fix): a method of a library base class runs a function of the analysed code on the
            # object (and its submodules), which may replace its attributes
            interp.forget_object(func.value)
        if (
            isinstance(base, ObjV)
            and method not in _HF_KEEPS
            and (ci := self.find_class(base.cls_key)) is not None
            and objects.foreign_bases(self, ci) & _HF_BASES
            and objects.find_method(self, ci, method) is None
        ):
            # config.update({"hidden_size": 5}), self.update(overrides), model.resize_token_embeddings(n): a method of
            # transformers' base class that may set any attribute
            if type(func.value) is cst.Name and func.value.value == "self" and interp.frame.building:
                for k in [k for k in interp.scope.vars if k.startswith("self.")]:
                    interp.scope.vars[k] = UNKNOWN
            interp.forget_object(func.value)
        if (
            type(func.value) is cst.Name
            and func.value.value == "self"
            and isinstance(base, ObjV)
            and interp.frame.cls_key is not None
        ):
            if (
                method in _REGISTERS
                and args
                and isinstance(args[0], StrV)
                and (method != "register_module" or _library_method(self, base, method))
            ):
                added = (
                    args[1]
                    if len(args) > 1
                    else kwargs.get("tensor", kwargs.get("param", kwargs.get("module", UNKNOWN)))
                )
                interp.scope.vars[f"self.{args[0].value}"] = added
                held = interp.scope.vars.get("self." + MODULE_DICT_ATTR)
                if method in ("add_module", "register_module") and interp.frame.building and isinstance(held, DictV):
                    # class DenseBlock(nn.ModuleDict): self.add_module(f"layer{i}", layer) -- the entry of that name
                    entries = dict(held.items)
                    entries[args[0].value] = added
                    interp.scope.vars["self." + MODULE_DICT_ATTR] = DictV(tuple(entries.items()), "moduledict")
                chain_key = "self." + SEQUENTIAL_ATTR
                if (
                    method in ("add_module", "register_module")
                    and interp.frame.building
                    and chain_key in interp.scope.vars
                ):
                    # class ConvBN(nn.Sequential): super().__init__(); self.add_module("c", conv): the chain grows
                    interp.scope.vars[chain_key] = objects.sequential_added(
                        interp.scope.vars[chain_key], args[0].value, added
                    )
                return NoneV()
            if (
                method in ("add_module", "register_module")
                and interp.frame.building
                and (method != "register_module" or _library_method(self, base, method))
            ):
                # a name not known (``self.add_module("denselayer%d" % (i + 1), layer)`` of a text not computed):
                # the module joins the chain, or the module dict, under a name not known -- what they hold is not
                # known any more (hunt60: an nn.Sequential subclass taken for an empty one, the identity)
                for key in ("self." + SEQUENTIAL_ATTR, "self." + MODULE_DICT_ATTR):
                    if key in interp.scope.vars:
                        interp.scope.vars[key] = UNKNOWN
            if (
                method in ("save_hyperparameters", "add_weight")
                and interp.frame.building
                and not dynamic
                and f"self.{method}" not in interp.scope.vars
            ):
                # a method of the library base class, called in the constructor: Lightning's hyperparameters,
                # Keras' weights
                ci = self.find_class(base.cls_key)
                own = ci is None or objects.find_method(self, ci, method) is not None
                bases = () if own or ci is None else objects.foreign_bases(self, ci)
                if method == "save_hyperparameters" and bases and objects.lightning_module(self, ci):
                    interp.scope.vars["self.hparams"] = self._saved_hyperparameters(interp, args, kwargs)
                    return NoneV()
                if method == "add_weight" and any(
                    b.split(".", 1)[0] in ("keras", "tensorflow", "tf_keras") for b in bases
                ):
                    from ..rules.frameworks import keras_add_weight

                    return keras_add_weight(self.ops, node, args, kwargs)
            if (
                interp.frame.building
                and f"self.{method}" not in interp.scope.vars
                and not dynamic
                and not interp.frame.key.endswith(f".{method}")
            ):
                ci = self.find_class(base.cls_key)
                fi = objects.find_method(self, ci, method) if ci is not None else None
                if fi is not None and not fi.is_static and not fi.is_classmethod:
                    return self.call_on_building_self(interp, node, fi, args, kwargs)
        if isinstance(base, ObjV) and func.attr.value in ("apply", "init", "init_with_output") and args and not dynamic:
            if self.flax_bound_method(base, func.attr.value) is not None:
                return self.call_flax_method(interp, node, base, func.attr.value, args, kwargs)
        if isinstance(base, ObjV) and func.attr.value == "param" and len(args) >= 3 and not dynamic:
            param = self._linen_param(node, base, args[2])
            if param is not None:
                return param
        if isinstance(base, ObjV) and func.attr.value == "has_variable" and len(args) == 2 and not dynamic:
            if self._linen_own_method(base, "has_variable") and self._linen_fresh_collection(node.args[0].value):
                return BoolV(False)
        if isinstance(base, ObjV) and func.attr.value == "variable" and len(args) >= 3 and not dynamic and not kwargs:
            variable = self._linen_variable(interp, node, base, args[2], args[3:])
            if variable is not None:
                return variable
        return None

    def flax_bound_method(self, obj: ObjV, method: str) -> LayerV | None:
        """``model.apply`` / ``model.init`` of a flax linen module whose class defines ``__call__`` and not that
        method: the bound method as a value (``jax.jit(model.apply)(variables, x)``; see ``call_flax_method``)."""
        ci = self.find_class(obj.cls_key)
        if ci is None:
            return None
        chain = objects.mro(self, ci)  # (``class Child(Base)`` of a linen ``Base``: its __call__, inherited or not)
        if (
            objects.find_method(self, ci, "__call__") is None
            or any(method in c.methods for c in chain)
            or not any(b.startswith("flax.") for b in objects.foreign_bases(self, ci))
        ):
            return None
        return LayerV("flax_method", (("obj", obj), ("method", method)))

    def call_flax_method(
        self,
        interp: Interpreter,
        node: cst.Call,
        obj: ObjV | LayerV,
        method: str,
        args: list[Value],
        kwargs: dict[str, Value],
    ) -> Value:
        """flax: model.apply(variables, x, ...) / model.init(rngs, x, ...) run __call__(x, ...), or the method
        ``method=`` names (``method=Head.loss``, ``method="loss"``) on the module (``flax_bound_method``). An
        instance of an ``nn.vmap``-lifted class (``linen_vmapped``) runs it on each slice of its inputs."""
        lifted = obj if isinstance(obj, LayerV) else None
        if lifted is not None:
            inner = lifted.param("obj")
            if lifted.kind != "linen_vmapped" or not isinstance(inner, ObjV) or "method" in kwargs:
                return UNKNOWN
            obj = inner
        assert isinstance(obj, ObjV)
        ci = self.find_class(obj.cls_key)
        if ci is None or not args:
            return UNKNOWN
        fn = (
            objects.find_method(self, ci, "__call__")
            if "method" not in kwargs
            else self._flax_method(ci, kwargs["method"])
        )
        if fn is None:
            return UNKNOWN
        rest = {k: v for k, v in kwargs.items() if k not in ("rngs", "mutable", "capture_intermediates", "method")}
        bound = FuncV(fn.key, bound_self=obj)
        FLAX_COLLECTIONS.append(_passed_collections(method, args[0]))
        run = _flax_param_run(method, args[0], fn.key) if lifted is None and "method" not in kwargs else None
        if run is not None:
            run["at"] = Where(self, node)  # (where init made the params: the note of an apply's failure)
        FLAX_PARAM_RUNS.append(run)
        try:
            if lifted is not None:
                if rest:
                    return UNKNOWN
                out = self._call_lifted(interp, node, lifted, bound, args[1:])
            else:
                out = self.call_function(interp, node, bound, args[1:], rest)
        finally:
            FLAX_COLLECTIONS.pop()
            FLAX_PARAM_RUNS.pop()
        if run is not None and method == "init":
            # the variables init made: their params carry what its Dense layers were built for (an apply checks it)
            FLAX_INIT_RECORDS[run["token"]] = run["record"]
            return LayerV("flax_variables", (("token", run["token"]),), node)
        if method == "init_with_output":
            return SeqV((out, UNKNOWN), "tuple")  # (what __call__ returned, the variables)
        if method != "apply":
            return UNKNOWN
        # apply(..., mutable=...): the output and the mutated variables when ``mutable`` is anything but False (a
        # list of collections, even empty, a name, True), the output alone when it is False
        mutable = kwargs.get("mutable")
        if mutable is None or (isinstance(mutable, BoolV) and mutable.value is False):
            return out
        if isinstance(mutable, (SeqV, StrV)) or (isinstance(mutable, BoolV) and mutable.value is True):
            return SeqV((out, UNKNOWN), "tuple")
        return UNKNOWN

    def namedtuple_items(self, obj: ObjV) -> tuple[Value, ...] | None:
        """The items of an instance of a ``typing.NamedTuple`` class of the analysed code, in field order (what
        unpacking it gives: ``nodes, edges, *rest = graph``); None for any other object, or a field not known."""
        ci = self.find_class(obj.cls_key) if obj.concrete else None
        if ci is None or "typing.NamedTuple" not in objects.foreign_bases(self, ci):
            return None
        items = [obj.attr(name) for name, _, _ in objects.class_fields(self, ci)]
        return tuple(v if v is not None else UNKNOWN for v in items) if items else None

    def multi_transform_applies(self, t: LayerV) -> int | None:
        """How many apply functions ``hk.multi_transform(f)`` has: the entries of the tuple (or list) display that
        ``f``'s ``return init, (fn_a, fn_b)`` gives second, read off its text (None: not written so)."""
        fn = t.param("fn")
        fi = self.find_function(fn.key) if isinstance(fn, FuncV) else None
        body = fi.node.body if fi is not None else None
        last = body.body[-1] if isinstance(body, cst.IndentedBlock) and body.body else None
        ret = last.body[0] if isinstance(last, cst.SimpleStatementLine) and type(last.body[0]) is cst.Return else None
        value = ret.value if isinstance(ret, cst.Return) else None
        if not isinstance(value, cst.Tuple) or len(value.elements) != 2:
            return None
        applies = value.elements[1].value
        if not isinstance(applies, (cst.Tuple, cst.List)) or any(
            isinstance(e, cst.StarredElement) for e in applies.elements
        ):
            return None
        return len(applies.elements)

    def haiku_apply(
        self, interp: Interpreter, node: cst.Call, t: LayerV, method: str, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """``f.init(rng, *a)`` / ``f.apply(params, rng, *a)`` of ``f = hk.transform(fn)`` (``haiku_transformed``):
        ``fn(*a)`` runs; ``apply`` returns what it returns (with the state after it, ``(out, state)``, for
        ``transform_with_state``), ``init`` the parameters (not known). ``apply`` takes ``params``, then ``state``
        (with state), then ``rng`` (unless ``without_apply_rng``), by position."""
        fn = t.param("fn")
        if not isinstance(fn, FuncV) or {"params", "state", "rng"} & set(kwargs):
            return UNKNOWN
        skip = 1 if method == "init" else 1 + bool(t.param("state")) + bool(t.param("rng"))
        if len(args) < skip:
            return UNKNOWN
        if t.param("multi"):
            # hk.multi_transform(f): f() gives (init_fn, apply_fns); ``apply#i`` is the i-th of apply_fns
            made = self.call_function(interp, node, fn, [], {})
            fns = made.items if isinstance(made, SeqV) and len(made.items) == 2 else None
            applies = fns[1] if fns is not None else None
            if method == "init" and fns is not None:
                picked: Value = fns[0]
            elif method.startswith("apply#") and isinstance(applies, SeqV):
                i = int(method[len("apply#") :])
                picked = applies.items[i] if i < len(applies.items) else UNKNOWN
            else:
                return UNKNOWN
            if not isinstance(picked, FuncV):
                return UNKNOWN
            fn = picked
        elif method != "init" and method != "apply":
            return UNKNOWN
        out = self.call_function(interp, node, fn, args[skip:], kwargs)
        if method == "init":
            return UNKNOWN
        return SeqV((out, UNKNOWN), "tuple") if t.param("state") else out

    def _call_lifted(
        self, interp: Interpreter, node: cst.Call, lifted: LayerV, bound: FuncV, args: list[Value]
    ) -> Value:
        """The bound ``__call__`` of an ``nn.vmap``-lifted instance run on each slice of ``args`` (``in_axes``), the
        results stacked along ``out_axes``."""
        mapped = LayerV(
            "vmap",
            (
                ("func", bound),
                ("filter", False),
                ("in_axes", lifted.param("in_axes")),
                ("out_axes", lifted.param("out_axes")),
                ("torch", False),
            ),
            node,
        )
        return self.call_vmap(interp, node, mapped, args, {})

    def _call_scanned(
        self, interp: Interpreter, node: cst.Call, lifted: LayerV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """``Stack(cfg)(x, pad_mask)``, an instance of an ``nn.scan``-lifted class: its ``__call__(carry, *xs)`` run
        on the carry and one slice of each scanned argument (along its ``in_axes``; a broadcast one whole), giving
        ``(carry, y)``: the carry, and ``y`` with the steps stacked along ``out_axes`` (as many as ``length``, or the
        scanned axis). One step stands for all: flax requires the carry to keep its shape."""
        inner = lifted.param("obj")
        ci = self.find_class(inner.cls_key) if isinstance(inner, ObjV) else None
        fn = ci.methods.get("__call__") if ci is not None else None
        if fn is None or kwargs or not args or not isinstance(inner, ObjV):
            return UNKNOWN
        spec = lifted.param("in_axes")
        xs = args[1:]
        axes = list(spec) if isinstance(spec, tuple) else [spec] * len(xs)
        if len(axes) != len(xs):
            return UNKNOWN  # flax raises: one entry per scanned argument
        length: Size | None = lifted.param("length")
        step: list[Value] = [args[0]]

        def sliced(x: Value, ax: object, depth: int = 0) -> Value | None:
            # one step's slice of a scanned argument: an array without its scanned axis; a tuple or list of them
            # (``(embed, actions, is_first)``) leaf by leaf, every leaf scanned along the same axis, of one length
            nonlocal length
            if isinstance(x, NoneV):
                return x
            if isinstance(x, SeqV) and x.kind in ("tuple", "list") and depth < 3:
                items = [sliced(v, ax, depth + 1) for v in x.items]
                return None if any(v is None for v in items) else SeqV(tuple(cast(Value, v) for v in items), x.kind)
            if (
                not isinstance(x, TensorV)
                or x.shape is None
                or not isinstance(ax, int)
                or not -len(x.shape) <= ax < len(x.shape)
            ):
                return None
            k = ax % len(x.shape)
            if length is not None and equal(x.shape[k], length) is not Truth.TRUE:
                return None
            length = x.shape[k]
            return x.with_shape(
                x.shape[:k] + x.shape[k + 1 :], x.axes[:k] + x.axes[k + 1 :] if x.axes is not None else None
            )

        for x, ax in zip(xs, axes):
            if ax == "broadcast" or isinstance(x, NoneV):
                step.append(x)  # (``ScanBlock(...)(x, None)``: None is an empty tree, handed to each step as is)
                continue
            one = sliced(x, ax)
            if one is None:
                return UNKNOWN
            step.append(one)
        before = self.ctx.mark()
        out = self.call_callee(interp, node, FuncV(fn.key, bound_self=inner), step, {})
        if not (isinstance(out, SeqV) and out.kind == "tuple" and len(out.items) == 2):
            return UNKNOWN
        carry, ys = out.items
        # (flax runs the step through jax.lax.scan, which requires the carry to keep its shape)
        if (
            not interp.dead
            and self.ctx.mark()[:2] == before[:2]
            and self._carry_changed(node, "nn.scan", args[0], carry)
        ):
            return UNKNOWN
        out_axis = lifted.param("out_axes")

        def stacked(r: Value) -> Value:
            if isinstance(r, NoneV):
                return r
            if isinstance(r, TensorV) and r.shape is not None and length is not None:
                n = len(r.shape) + 1
                if not -n <= out_axis < n:
                    return UNKNOWN
                k = out_axis % n
                return r.with_shape(r.shape[:k] + (length,) + r.shape[k:])
            if isinstance(r, SeqV) and r.kind == "tuple":
                return SeqV(tuple(stacked(x) for x in r.items), r.kind)
            return UNKNOWN

        return SeqV((carry, stacked(ys)), "tuple")

    def _jax_array_maker(self, call: cst.Call) -> bool:
        """A call of ``jax.numpy`` or ``jax.random`` (evaluating it again runs no code of the analysed program)."""
        return (self.qualify(call.func) or "").startswith(("jax.numpy.", "jax.random."))

    def _initialiser(self, args: list[Value], kwargs: dict[str, Value]) -> bool:
        """``module.apply(init_weights)``: is the one argument a function of the analysed code that only fills the
        weights it is handed in place (``_initialises_only``)?"""
        if len(args) != 1 or kwargs or not isinstance(args[0], FuncV):
            return False
        fi = self.find_function(args[0].key)
        # (``@staticmethod def _init_weights(m)``, read off ``self``: the same function)
        plain = all(dotted(d.decorator) == "staticmethod" for d in fi.node.decorators) if fi is not None else False
        return fi is not None and plain and walk_memo("initialises-only", fi.node, _initialises_only)

    def _flax_method(self, ci: ClassInfo, method: Value) -> FunctionInfo | None:
        """The method of a flax module's class ``apply(..., method=...)`` runs: a method name (``"loss"``) or the
        class's function (``Head.loss``, a method of ``ci`` or of one of its bases); anything else (a lambda taking
        the module) None."""
        if isinstance(method, StrV):
            fi = objects.find_method(self, ci, method.value)
        elif isinstance(method, FuncV) and not method.env:  # ``Head.loss`` (read off the class, whatever it binds)
            name = method.key.rsplit(".", 1)[-1]
            fi = objects.find_method(self, ci, name)
            if fi is None or fi.key != method.key:
                return None  # a function of another class, or one the module's class overrides
        else:
            return None
        return fi if fi is not None and not fi.is_static and not fi.is_classmethod else None

    def _state_dict_method(
        self,
        interp: Interpreter,
        node: cst.Call,
        func: cst.Attribute,
        base: Value,
        method: str,
        args: list[Value],
        kwargs: dict[str, Value],
        dynamic: bool,
    ) -> Value | None:
        """``sd.get(k)``, ``sd.copy()`` on a ``state_dict()`` value; one changed in place is forgotten (``_call``; None:
        not answered here)."""
        if isinstance(base, StateDictV) and not dynamic and not kwargs:
            if method == "copy" and not args:
                return base  # sd.copy(): the same entries
            if method == "get" and 1 <= len(args) <= 2 and isinstance(args[0], StrV):
                return base.get(args[0].value)  # (a key not known: the value or the default)
        if isinstance(base, StateDictV) and method not in ("values", "items", "keys", "get", "copy"):
            interp.forget(func.value) if _var_key_of(func.value) is not None else None  # sd.pop(k), sd.update(d)
        return None

    def _layer_method(
        self,
        interp: Interpreter,
        node: cst.Call,
        func: cst.Attribute,
        base: Value,
        method: str,
        args: list[Value],
        kwargs: dict[str, Value],
        dynamic: bool,
    ) -> Value | None:
        """Methods of a framework layer value: ``.to(device)`` (the same layer), ``layer.forward(x)``, a keras
        ``Sequential.add``, a flax cell's ``initialize_carry``, a jmp policy's casts (``_call``; None: not answered
        here)."""
        if isinstance(base, LayerV) and base.kind == "fw:Normal":
            return _normal_method(base, method, args, kwargs) if not dynamic else UNKNOWN
        if isinstance(base, LayerV) and base.kind == "fw:RotaryEmbedding":
            # rotary-embedding-torch: ``rotate_queries_or_keys(t)`` rotates t along its sequence axis by frequencies
            # made for its length: t's shape whenever it runs (the dtype: as the version casts back or not);
            # ``rotate_queries_with_cached_keys(q, k)`` each's; anything else unknown
            tensors = [a for a in args[:2] if isinstance(a, TensorV) and a.shape is not None]
            if dynamic or not args or len(tensors) != min(len(args), 2):
                return UNKNOWN
            if method == "rotate_queries_or_keys" and len(args) == 1:
                return TensorV(tensors[0].shape, None, tensors[0].framework, tensors[0].axes)
            if method == "rotate_queries_with_cached_keys" and len(args) == 2:
                return SeqV(tuple(TensorV(t.shape, None, t.framework, t.axes) for t in tensors), "tuple")
            return UNKNOWN
        if isinstance(base, LayerV) and base.kind == "linen_vmapped" and method in ("apply", "init"):
            # an instance of an nn.vmap-lifted flax class: model.apply(variables, x) maps __call__ over x
            return self.call_flax_method(interp, node, base, method, args, kwargs) if not dynamic else UNKNOWN
        if isinstance(base, LayerV) and base.kind == "haiku_transformed" and method in ("apply", "init"):
            return self.haiku_apply(interp, node, base, method, args, kwargs) if not dynamic else UNKNOWN
        if isinstance(base, LayerV) and method in _RETURNS_SELF and not base.param("keras"):
            return base  # nn.Linear(64, 32).to(device): the same layer, its sizes unchanged
        if (
            isinstance(base, LayerV)
            and base.kind == "Sequential"
            and base.param("keras")
            and method == "add"
            and len(args) == 1
            and not kwargs
            and not dynamic
            and _var_key_of(func.value) is not None
        ):
            key = _var_key_of(func.value)
            if key is not None and (key in interp.scope.vars or key.startswith("self.") and interp.frame.building):
                from ..rules.frameworks import keras_sequential_add

                interp.scope.vars[key] = keras_sequential_add(self.ops, interp, node, base, args[0])
                return NoneV()
        if (
            isinstance(base, LayerV)
            and base.kind == "Sequential"
            and not base.param("keras")
            and method in ("add_module", "register_module")
            and len(args) == 2
            and isinstance(args[0], StrV)
            and not kwargs
            and not dynamic
        ):
            # self.features.add_module(f"block{i}", block) on an nn.Sequential: the chain grows (or the module of
            # that name is replaced), under its one name
            key = _var_key_of(func.value)
            if key is not None and (key in interp.scope.vars if not key.startswith("self.") else interp.frame.building):
                interp.forget_aliases(key, base)
                interp.scope.vars[key] = objects.sequential_added(base, args[0].value, args[1])
                return NoneV()
        if isinstance(base, LayerV) and func.attr.value in (
            "add",
            "append",
            "extend",
            "insert",
            "pop",
            "add_module",
            "register_module",
            "add_sublayer",
        ):
            interp.forget(func.value)  # model.add(Dense(10)): the chain recorded at construction is no longer the model
            return UNKNOWN
        if isinstance(base, LayerV) and base.kind == "fw:HaikuCore" and func.attr.value == "initial_state":
            from ..rules.frameworks import haiku_initial_state

            return haiku_initial_state(self.ops, node, base, args, kwargs) if not dynamic else UNKNOWN
        if isinstance(base, LayerV) and base.kind == "fw:LinenCell" and func.attr.value == "initialize_carry":
            from ..rules.frameworks import linen_initialize_carry

            return linen_initialize_carry(self.ops, node, base, args, kwargs) if not dynamic else UNKNOWN
        if isinstance(base, LayerV) and base.kind == "fw:jmp":  # a jmp policy's cast_to_compute / _param / _output
            from ..rules.frameworks import jmp_method

            return jmp_method(base, func.attr.value, args) if not kwargs and not dynamic else UNKNOWN
        if isinstance(base, LayerV) and func.attr.value == "forward":
            return layer_rules.apply_layer(self.ops, interp, node, base, args, kwargs)
        return None

    def _tensor_method(
        self,
        interp: Interpreter,
        node: cst.Call,
        func: cst.Attribute,
        base: Value,
        method: str,
        args: list[Value],
        kwargs: dict[str, Value],
        dynamic: bool,
    ) -> Value | None:
        """``x.view(...)``, ``x.add_(y)``: a tensor method (``op_rules.tensor_method``); an in-place method that changes
        the shape forgets the variable (``_call``; None: not answered here)."""
        if isinstance(base, TensorV):
            method = func.attr.value
            if method.endswith("_") and not method.startswith("_"):
                mark_stale(base)  # x.add_(1), x.zero_(): the elements changed in place
            elif base.values is not None and method in _ALIASING_METHODS:
                # v = n.view(1); v[0] = 12 (n.numpy()[...] = 12): a view shares the elements, and a write through it
                # is not followed back to n
                mark_stale(base)
            if method.endswith("_") and not method.startswith("_") and method not in _SHAPE_KEEPING_INPLACE:
                interp.forget(func.value)  # x.unsqueeze_(1), x.t_(), x.resize_(...): x changed shape in place
                return UNKNOWN
            if method == "resize" and base.framework in ("numpy", None):
                # numpy's ``a.resize(new_shape, refcheck=False)``: the array itself takes the new shape, in place
                # (hunt56, universal_manipulation_interface: episode ends grown one by one, then ``ends[-1] = n``)
                mark_stale(base)
                interp.forget(func.value)
                return NoneV()
            key = _var_key_of(func.value)
            if (
                (base.bounds is not None or base.top is not None)
                and method.endswith("_")
                and key is not None
                and key in interp.scope.vars
            ):
                # ix.add_(offset): the values moved, the range randint gave them (arange's largest) no longer holds
                base = interp.scope.vars[key] = replace(base, bounds=None, top=None)
            out = op_rules.tensor_method(self.ops, interp, node, base, method, args, kwargs, dynamic)
            if base.top is not None and isinstance(out, TensorV) and _keeps_elements(method, base, out, args, kwargs):
                # torch.arange(t).unsqueeze(0).expand(b, -1): still holds t - 1 (an embedding lookup of it is checked)
                out = replace(out, top=(base.top[0], node))
            return out
        return None

    def _class_method(
        self,
        interp: Interpreter,
        node: cst.Call,
        func: cst.Attribute,
        base: Value,
        method: str,
        args: list[Value],
        kwargs: dict[str, Value],
        dynamic: bool,
    ) -> Value | None:
        """``Base.method(self, ...)`` on a class the analysis knows only by name (a library base class) (``_call``;
        None: not answered here)."""
        if isinstance(base, RefV) and base.qualname.startswith("class:") and not dynamic:
            explicit = self._explicit_base_method(interp, node, base.qualname[6:], method, args, kwargs)
            if explicit is not None:
                return explicit
        return None

    def call_callee(
        self, interp: Interpreter, node: cst.Call, callee: Value, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """Call a value with these arguments (no ``*`` / ``**`` spread left): a function, a partial, a layer, an
        object, a class."""
        if isinstance(callee, LayerV) and callee.kind == "either":
            return self.call_either(interp, node, callee, args, kwargs)
        if isinstance(callee, LayerV) and callee.kind == "jax_initializer":
            # ``init(key, (max_len, dim))`` of ``nnx.initializers.normal(0.02)``: an array of that shape
            shape = args[1] if len(args) > 1 else kwargs.get("shape")
            sizes = shape.items if isinstance(shape, SeqV) and shape.kind in ("tuple", "list", "shape") else None
            if sizes is None or not all(isinstance(d, IntV) and not d.assumed for d in sizes) or len(args) > 3:
                return UNKNOWN
            return TensorV(
                tuple(cast(IntV, d).size for d in sizes), None, "jax", None, self.ops.origin(node, "init(...)")
            )
        if isinstance(callee, FuncV):
            defaulted = default_call(interp, node, callee, args, kwargs)
            return defaulted if defaulted is not None else self.call_function(interp, node, callee, args, kwargs)
        if isinstance(callee, LayerV) and callee.kind == "partial":
            return self.call_partial(interp, node, callee, args, kwargs)
        if isinstance(callee, LayerV) and callee.kind == "traced":
            return self.call_traced(interp, node, callee, args, kwargs)
        if isinstance(callee, LayerV) and callee.kind == "vmap":
            return self.call_vmap(interp, node, callee, args, kwargs)
        if isinstance(callee, LayerV) and callee.kind == EINOPS_TO_AND_FROM:
            return self.call_einops_to_and_from(interp, node, callee, args, kwargs)
        if isinstance(callee, LayerV) and callee.kind == "namedtuple":
            return _namedtuple_instance(callee, args, kwargs)
        if isinstance(callee, LayerV) and callee.kind == "grad":
            return self.call_grad(interp, node, callee, args, kwargs)
        if isinstance(callee, LayerV) and callee.kind == "flax_method":
            # jax.jit(model.apply)(variables, x): the bound method as called directly
            obj, method = callee.param("obj"), callee.param("method")
            if isinstance(obj, LayerV) and obj.kind == "haiku_transformed" and isinstance(method, str):
                return self.haiku_apply(interp, node, obj, method, args, kwargs)
            if isinstance(obj, (ObjV, LayerV)) and isinstance(method, str):
                return self.call_flax_method(interp, node, obj, method, args, kwargs)
            return UNKNOWN
        if isinstance(callee, LayerV) and callee.kind in ("linen_vmap", "linen_scan"):
            # BatchedLRU(d_model=32, ...), Stack(cfg, name="layers"): an instance of the lifted class, run slice by
            # slice (call_flax_method) or step by step (_call_scanned)
            cls = callee.param("cls")
            obj = self.instantiate(interp, node, cls.qualname[6:], args, kwargs) if isinstance(cls, RefV) else UNKNOWN
            if not isinstance(obj, ObjV):
                return UNKNOWN
            kind = "linen_vmapped" if callee.kind == "linen_vmap" else "linen_scanned"
            return LayerV(kind, (("obj", obj),) + tuple(p for p in callee.params if p[0] != "cls"), node)
        if isinstance(callee, LayerV) and callee.kind == "linen_scanned":
            return self._call_scanned(interp, node, callee, args, kwargs)
        if isinstance(callee, LayerV) and callee.kind == "linen_vmapped":
            # self.attn(x, mask) in a parent module, the attribute an nn.vmap-lifted class's instance (setup() or
            # @nn.compact): its __call__ on each slice, as model.apply runs it
            inner = callee.param("obj")
            ci = self.find_class(inner.cls_key) if isinstance(inner, ObjV) else None
            fn = ci.methods.get("__call__") if ci is not None else None
            if fn is None or kwargs or not isinstance(inner, ObjV):
                return UNKNOWN
            return self._call_lifted(interp, node, callee, FuncV(fn.key, bound_self=inner), args)
        if isinstance(callee, LayerV):
            return layer_rules.apply_layer(self.ops, interp, node, callee, args, kwargs)
        if isinstance(callee, ObjV):
            return self.call_object(interp, node, callee, args, kwargs)
        if isinstance(callee, RefV):
            if callee.qualname.startswith("class:"):
                return self.instantiate(interp, node, callee.qualname[6:], args, kwargs)
            handled = self.call_qualified(interp, node, callee.qualname, args, kwargs, False)
            if handled is not None:
                return handled
        return UNKNOWN

    def call_either(
        self, interp: Interpreter, node: cst.Call, callee: LayerV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """A callable that is one of several (``values.join`` of two callables): each option runs, the results
        joined (equal shapes survive, different ones are paths). What an option reports is dropped: it may not be
        the one the code runs."""
        mark = self.ctx.mark()
        out: Value | None = None
        for option in callable_options(callee):
            got = self.call_callee(interp, node, option, list(args), dict(kwargs))
            out = got if out is None else join(out, got)
        self.ctx.rollback(mark)
        return UNKNOWN if out is None else out

    def _filter(self, interp: Interpreter, node: cst.Call, fn: Value, seq: SeqV) -> Value:
        """``filter(exists, modules)`` / ``filter(None, xs)`` over known items, when the test decides each one."""
        from ..rules.multi_ops import _apply_lambda

        test = node.args[0].value
        kept: list[Value] = []
        for item in seq.items:
            if isinstance(fn, NoneV):
                truth = _truth(item)
            elif type(test) is cst.Lambda:
                truth = _truth(_apply_lambda(interp, test, [item]))
            elif isinstance(fn, FuncV):
                truth = _truth(self.call_function(interp, node, fn, [item], {}))
            elif isinstance(fn, ObjV) and fn.concrete:
                # filter(equals("a"), layer_types): an instance of the analysed code called on each item
                truth = _truth(self.call_object(interp, node, fn, [item], {}))
            else:
                truth = None
            if truth is None:
                return UNKNOWN
            if truth:
                kept.append(item)
        return SeqV(tuple(kept), "tuple")

    def _keeps_arguments(
        self, interp: Interpreter, func: cst.BaseExpression, qual: str | None, early: Value | None = None
    ) -> bool:
        """Is ``func`` a class of the analysed code whose constructors never set an attribute of an argument
        (``Block(config)``: the config object stays as it was)? ``early``: the callee's value when the call evaluated
        it first (``getattr(model, name)(config)``, ``config.mlp_class(config)``)."""
        if (
            early is None
            and type(func) is cst.Attribute
            and func.attr.value == "__init__"
            and objects.is_super_call(func.value)
            and interp.frame.building
            and isinstance(interp.frame.self_value, ObjV)
            and objects.super_method(self, interp, "__init__") is None
        ):
            # transformers' PreTrainedModel.__init__(config) keeps the config and sets only its attention
            # implementation (no size)
            ci = self.find_class(interp.frame.self_value.cls_key)
            return ci is not None and bool(objects.foreign_bases(self, ci) & objects.HF_MODEL_BASES)
        if (
            early is None
            and type(func) is cst.Attribute
            and objects.is_super_call(func.value)
            and isinstance(interp.frame.self_value, ObjV)
            and interp.frame.cls_key is not None
            and (after := objects.super_class_named(self, interp, func.value)) is not None  # type: ignore[arg-type]
            and (ci := self.find_class(interp.frame.self_value.cls_key)) is not None
        ):
            # super().__init__(config) reaching a base of the analysed code: config stays as it was when each
            # constructor along the rest of the object's MRO keeps its arguments
            return objects.super_keeps_arguments(self, ci, after or interp.frame.cls_key, func.attr.value)
        if (
            early is None
            and type(func) is cst.Attribute
            and type(func.value) is cst.Name
            and func.value.value == "self"
            and interp.frame.cls_key is not None
            and (me := self.find_function(interp.frame.key)) is not None
            and me.cls_key is not None
            and me.params
            and me.params[0].name == "self"
            and (my_class := self.find_class(me.cls_key)) is not None
            and any(func.attr.value in c.methods for c in objects.mro(self, my_class))
        ):
            # self.build_embeddings(cfg) in a constructor: the method (and every override of it the module's
            # subclasses define) leaves its arguments alone
            return objects._callee_keeps(me, func)
        if early is None and type(func) is cst.Attribute and func.attr.value in ("add_module", "register_module"):
            # seq.add_module("backbone", backbone) on a torch container or module whose class leaves the method as
            # torch's: the module is kept under that name, as it is
            with self.ctx.discarding():
                owner = interp.eval(func.value)
            if isinstance(owner, LayerV) and owner.kind == "Sequential" and owner.param("keras") is None:
                return True
            if isinstance(owner, (SeqV, DictV)) and owner.kind in ("modulelist", "moduledict"):
                return True
            oci = self.find_class(owner.cls_key) if isinstance(owner, ObjV) else None
            if oci is not None and _torch_module_class(self, oci):
                return objects.find_method(self, oci, func.attr.value) is None
        v: Value | None = early  # (a callee evaluated first is no name: the name lookups below do not apply)
        if type(func) is cst.Name and func.value not in interp.scope.vars:
            v = self.globals.get(func.value)
        if v is None and qual is not None and self.project is not None:
            v = self.project.lookup(qual)
        if type(func) is cst.Name and isinstance(interp.scope.vars.get(func.value), FuncV):
            v = interp.scope.vars[func.value]
        if type(func) is cst.Name and func.value in interp.scope.vars:
            held = interp.scope.vars[func.value]
            if isinstance(held, LayerV) and held.kind == "partial":
                # block = partial(PreNormResidual, dim); block(attn): the partial calls its function with the bound
                # arguments first, so it keeps the arguments exactly when that function (class) does
                v = held.param("func")
            elif isinstance(held, RefV) and held.qualname.startswith("class:"):
                v = held  # cfg_cls, model_cls = MODELS[name]; model_cls(cfg): that class
        elif isinstance(v, LayerV) and v.kind == "partial":
            v = v.param("func")
        if (
            early is not None
            and isinstance(v, RefV)
            and not v.qualname.startswith("class:")
            and self.project is not None
        ):
            v = self.project.lookup(v.qualname)  # getattr(litgpt.model, "GptNeoxMLP"): that class
        # exists(block): a one-line helper that leaves its arguments alone; Block(config): a class whose constructors do
        return objects.value_keeps_arguments(self, v)

    def _factory_keeps(
        self, interp: Interpreter, node: cst.Call, func: cst.BaseExpression, arg_values: list[Value]
    ) -> bool:
        """``build_model("deepfm", cfg)`` of a function of this module whose body is one ``return REGISTRY[name](...)``
        (a registry of its module, ``name`` a parameter, every other argument a parameter handed on as it is, no
        parameter used any other way): the arguments stay as they were when what is registered under the string
        handed for ``name`` keeps its own (a class whose constructors keep them)."""
        if type(func) is not cst.Name or func.value in interp.scope.vars or any(a.star for a in node.args):
            return False
        v = self.globals.get(func.value)
        fi = self.find_function(v.key) if isinstance(v, FuncV) and v.bound_self is None and not v.env else None
        if fi is None or fi.cls_key is not None or fi.has_unknown_decorators or type(fi.node) is not cst.FunctionDef:
            return False
        body = fi.node.body.body
        ret = body[0].body[0] if len(body) == 1 and type(body[0]) is cst.SimpleStatementLine else None
        call = ret.value if type(ret) is cst.Return else None
        if type(call) is not cst.Call or type(call.func) is not cst.Subscript or len(call.func.slice) != 1:
            return False
        reg, index = call.func.value, call.func.slice[0].slice
        if type(reg) is not cst.Name or type(index) is not cst.Index or type(index.value) is not cst.Name:
            return False
        params = [p.name for p in fi.params]
        if index.value.value not in params or any(
            a.star or type(a.value) is not cst.Name or a.value.value not in params for a in call.args
        ):
            return False
        if walk_memo("params-escape", fi.node, objects._params_escape):
            return False
        pairs = list(zip(node.args, arg_values))
        positional = [x for a, x in pairs if a.keyword is None]
        keywords = {a.keyword.value: x for a, x in pairs if a.keyword is not None}
        bound = bind_arguments(fi.params, positional, keywords, skip_first=False)
        key = bound.get(index.value.value) if bound is not None else None
        entry = fi.module.registry_entry(reg.value, key) if isinstance(key, StrV) else None
        return entry is not None and entry is not UNKNOWN and objects.value_keeps_arguments(fi.module, entry)

    def _attribute_writes(
        self, interp: Interpreter, node: cst.Call, qual: str | None = None
    ) -> dict[int, frozenset[str]]:
        """The arguments (by id) of a call to a function of the analysed code, or to a method on ``self`` of a
        concrete object, that binds a parameter whose object the callee never hands on, rebinds or calls a method of:
        only the attributes it may change (``_param_attribute_writes``) are to be forgotten, not the whole object
        (``self._get_states_from_cache(inference_params, batch)`` fills ``inference_params.key_value_memory_dict``
        and leaves its other fields as they were)."""
        func = node.func
        fi: FunctionInfo | None = None
        skip = 0
        if type(func) is cst.Name:
            v = interp.scope.vars.get(func.value) if func.value in interp.scope.vars else self.globals.get(func.value)
            if v is None and qual is not None and self.project is not None and func.value in self.imports.names:
                v = self.project.lookup(qual)  # ``from heads import distogram_loss``: another module's function
            if isinstance(v, FuncV) and v.bound_self is None and not v.env:
                fi = self.find_function(v.key)
                if fi is not None and fi.cls_key is not None:
                    fi = None
        elif (
            type(func) is cst.Attribute
            and qual is not None
            and self.project is not None
            and (held := self.project.lookup(qual)) is not None
            and isinstance(held, FuncV)
            and held.bound_self is None
            and not held.env
        ):
            # lora.mark_only_lora_as_trainable(model): a function of another module of the analysed code
            fi = self.find_function(held.key)
            if fi is not None and fi.cls_key is not None:
                fi = None
        elif (
            type(func) is cst.Attribute
            and type(func.value) is cst.Name
            and func.value.value == "self"
            and isinstance(interp.frame.self_value, ObjV)
            and interp.frame.self_value.concrete
        ):
            ci = self.find_class(interp.frame.self_value.cls_key)
            fi = objects.find_method(self, ci, func.attr.value) if ci is not None else None
            if fi is not None and (fi.is_static or fi.is_classmethod):
                fi = None
            skip = 1
        elif type(func) is cst.Attribute and (method := self._class_level_method(interp, func)) is not None:
            # KVCache.allocate(model.cfg, ...): a classmethod (staticmethod) of a class of the analysed code
            fi, skip = method, 1 if method.is_classmethod else 0
        if fi is None or fi.has_unknown_decorators:
            return {}
        if type(func) is cst.Attribute and f"self.{func.attr.value}" in interp.scope.vars:
            return {}  # an attribute set on the object, not the method

        writes = walk_memo("attribute-writes", fi.node, _param_attribute_writes)
        frozen = walk_memo("freezes-only", fi.node, _freezes_only)
        if frozen:
            # mark_only_lora_as_trainable(model): a loop over model.named_parameters() setting requires_grad
            writes = {
                k: (frozenset() if k in frozen and (v is None or v <= {CALLED}) else v) for k, v in writes.items()
            }
        positional = [p.name for p in fi.params if p.kind in ("pos", "posonly")][skip:]
        out: dict[int, frozenset[str]] = {}
        for i, a in enumerate(node.args):
            if a.star:
                break
            name = a.keyword.value if a.keyword is not None else (positional[i] if i < len(positional) else None)
            attrs = writes.get(name) if name is not None else None
            bound = self._bound_methods(interp, a.value, attrs) if attrs is not None else {}
            if attrs is not None and (CALLED in attrs or bound):
                # the parameter is run (``model(x)``) or asked for its parameters, or a method of its class is read
                # or called (``fn = partial(model.sample, cfg_scale=4)``, ``model.generate(x)``): the object keeps
                # its attributes when no method those run, on it or on an object it holds, changes an attribute
                arg = interp.eval(a.value) if type(a.value) is cst.Name else None
                if not isinstance(arg, ObjV) or not self._running_keeps(arg, frozenset(bound.values())):
                    continue
                attrs = attrs - {CALLED} - bound.keys()
            if attrs is not None and any(x.startswith(CALL_PREFIX) for x in attrs):
                attrs = self._held_calls(interp, a.value, attrs)
            if attrs is not None and any(x.startswith("use ") for x in attrs) and type(a.value) is cst.Name:
                # ``for n in cfg.cardinalities`` over a list of numbers: iterating changes nothing
                looped = walk_memo("iterated-only", fi.node, _iterated_only).get(name or "", frozenset())
                arg = interp.scope.vars.get(a.value.value)
                attrs = frozenset(
                    x
                    for x in attrs
                    if not (
                        x.startswith("use ")
                        and x[4:] in looped
                        and isinstance(arg, ObjV)
                        and isinstance(held := arg.attr(x[4:]), SeqV)
                        and held.kind in ("list", "tuple")
                        and all(_immutable(y) for y in held.items)
                    )
                )
            if (
                attrs is not None
                and type(a.value) is cst.Name
                and isinstance(interp.scope.vars.get(a.value.value), LayerV)
            ):
                # a framework layer (``init(lin)``): its parameters filled in place keep their shapes; only an
                # attribute the callee binds anew (``linear.weight = nn.Parameter(w[:4])``) is not the one built
                rebound = walk_memo("rebound-attrs", fi.node, _param_rebound_attrs).get(name or "", frozenset())
                attrs = frozenset(x for x in attrs if x in rebound)
            if attrs is not None:
                out[id(a)] = attrs
        return out

    def _bound_methods(self, interp: Interpreter, arg: cst.BaseExpression, attrs: frozenset[str]) -> dict[str, str]:
        """The entries of ``attrs`` (``"use sample"``, ``CALL_PREFIX + "sample"``) that name a method of the class of
        the object ``arg`` holds, not an attribute of the object nor a property, with the method's name."""
        held = interp.scope.vars.get(arg.value) if type(arg) is cst.Name else None
        if not isinstance(held, ObjV) or not held.concrete:
            return {}
        ci = self.find_class(held.cls_key)
        if ci is None:
            return {}
        out: dict[str, str] = {}
        for x in attrs:
            name = x[4:] if x.startswith("use ") else x[len(CALL_PREFIX) :] if x.startswith(CALL_PREFIX) else ""
            if not name or "." in name or held.attr(name) is not None:
                continue
            fi = objects.find_method(self, ci, name)
            if fi is not None and not any("property" in (dotted(d.decorator) or "?") for d in fi.node.decorators):
                out[x] = name
        return out

    def _held_calls(self, interp: Interpreter, arg: cst.BaseExpression, attrs: frozenset[str]) -> frozenset[str] | None:
        """``attrs`` of a parameter with its ``model.x(...)`` calls (CALL_PREFIX) resolved against the object handed
        (``arg``, a name holding an object the analysis built): a framework layer held there, or an object none of
        whose methods changes an attribute, changes nothing by running; another object held (a sampler with state),
        or a value not known, may change, so that attribute is forgotten; a method of the object's class may change
        anything (None)."""
        held: Value | None = interp.scope.vars.get(arg.value) if type(arg) is cst.Name else None
        if type(arg) is cst.Attribute and dotted(arg) is not None:
            with self.ctx.discarding():
                held = interp.eval(arg)  # ``model.distogram``: the submodule handed (a chain of attributes, read)
        if not isinstance(held, ObjV) or not held.concrete:
            return None
        ci = self.find_class(held.cls_key)
        out: set[str] = set()
        for x in attrs:
            if not x.startswith(CALL_PREFIX):
                out.add(x)
                continue
            name = x[len(CALL_PREFIX) :]
            inner = held.attr(name)
            if inner is None and self._reading_method(held, name):
                continue  # ``head.bin_targets(dist)``: a method of its class that changes nothing the object holds
            if ci is None or objects.find_method(self, ci, name) is not None or inner is None:
                return None
            if (
                isinstance(inner, LayerV)
                and inner.kind != "either"
                or (isinstance(inner, ObjV) and self._running_keeps(inner))
            ):
                continue
            if not isinstance(inner, ObjV) and inner is not UNKNOWN:
                return None
            # another object held (a sampler with state), or one not known (``self.sampler``, which a setter method
            # may replace): it may change, so that attribute is forgotten
            out.add(name)
        return frozenset(out)

    def _read_path(self, v: Value, path: str) -> Value | None:
        """What ``v.a.b`` (``path`` "a.b") holds, through objects; a last name that the object's class body binds
        to a number, string or tuple of them reads as that; one that is a property of the class whose getter changes
        nothing (``cfg.env.frame_shape``) reads as a number. None when unknown."""
        *steps, leaf = path.split(".")
        for name in steps:
            v = v.attr(name) if isinstance(v, ObjV) else None  # type: ignore[assignment]
            if v is None:
                return None
        if not isinstance(v, ObjV):
            return None
        held = v.attr(leaf)
        if held is not None:
            return held
        body = objects.object_attr(self, v, leaf) if v.concrete else UNKNOWN
        if _immutable(body):
            return body  # ``mask_token_id = 3`` in the class body: read by the callee, the same number after it
        ci = self.find_class(v.cls_key)
        getter = objects.find_method(self, ci, leaf) if ci is not None else None
        if (
            getter is not None
            and any(dotted(d.decorator) == "property" for d in getter.node.decorators)
            and walk_memo("changed-self-attrs", getter.node, _changed_self_attrs) == frozenset()
            and (steps or walk_memo("computed-returns", getter.node, _computed_returns))
        ):
            # (a value computed afresh: it stands for something immutable; a property of the object handed itself
            # only when each return computes a value, ``len(self.alphabet) + 1``, never hands out what the object
            # holds, ``return self._layers``)
            return IntV(Size.const(0))
        return None

    def _running_keeps(self, obj: ObjV, methods: frozenset[str] = frozenset()) -> bool:
        """Can no method of ``obj``'s class, or of the analysed objects it holds (submodules, lists of blocks), change
        an attribute (``_self_writes``)? Then running the object leaves every size it holds as it was. A class not of
        the analysed code, a name its methods call that is neither a method nor a held object (``self.register_buffer``),
        or attributes set by names not known: it may. ``methods``: methods of ``obj``'s class run besides its forward
        (``partial(model.sample, ...)`` called)."""
        seen: set[int] = set()
        # per class: the names its methods call on ``self`` that are not its methods (None: a method changes it)
        foreign: dict[str, frozenset[str] | None] = {}
        # the attribute paths to dicts and lists of numbers and strings the objects hold (``config.task_num_labels``)
        plain_paths: list[tuple[str, ...]] = []
        todo: list[tuple[tuple[str, ...], Value]] = [((), obj)]
        walked: set[str] = set()  # the classes of the objects walked (``foreign`` holds the others)
        while todo:
            path, v = todo.pop()
            if id(v) in seen:
                continue
            seen.add(id(v))
            if len(seen) > 400:
                return False
            if isinstance(v, ObjV):
                if v is obj:  # the object run: what its forward reaches (the objects it holds: any method)
                    names = self._foreign_self_calls(v.cls_key, entry=True, starts=methods)
                    walked.add(v.cls_key)
                else:
                    if v.cls_key not in foreign:
                        foreign[v.cls_key] = self._foreign_self_calls(v.cls_key)
                    names = foreign[v.cls_key]
                if names is None or any(k == DYNAMIC_ATTRS for k, _ in v.attrs):
                    return False
                if names - {k for k, _ in v.attrs}:
                    return False  # (``self.register_buffer(...)``: neither a method nor an object it holds)
                for k, x in v.attrs:
                    if _frozen_container(x):
                        # a dict of label counts, a list of task names (the model's, or a config's it holds): changed
                        # only through a name that aliases it, which no method of the classes walked may make (checked
                        # below; the step itself reading one into a variable forgets it, _param_attribute_writes)
                        plain_paths.append((*path, k))
                    else:
                        todo.append(((*path, k), x))
            elif isinstance(v, (SeqV, ManyV)):
                # a list of blocks (``nn.ModuleList``); a list of anything else (a cache of tensors) may be filled
                # through a name the walk does not follow (``cache = self.cache; cache.append(t)``)
                items = v.items if isinstance(v, SeqV) else (() if v.elem is None else (v.elem,))
                if not all(isinstance(x, (ObjV, LayerV, SeqV, ManyV)) for x in items):
                    return False
                todo.extend((path, x) for x in items)
            elif isinstance(v, DictV) and v.kind == "moduledict":
                # an ``nn.ModuleDict`` of blocks (a plain dict: filled by name, as a list may be)
                if not all(isinstance(x, (ObjV, LayerV, SeqV, ManyV)) for _, x in v.items):
                    return False
                todo.extend((path, x) for _, x in v.items)
            elif isinstance(v, (DictV, IntDictV)):
                return False
        if plain_paths:
            escaping: set[str] = set()
            for key in walked | set(foreign):
                ci = self.find_class(key)
                for c in objects.mro(self, ci) if ci is not None else ():
                    for fi in c.methods.values():
                        if fi.name != "__init__":
                            escaping |= walk_memo("escaping-attributes", fi.node, _escaping_attributes)
            if any(name in escaping for p in plain_paths for name in p):
                return False
        return True

    def _foreign_self_calls(
        self, cls_key: str, entry: bool = False, starts: frozenset[str] = frozenset()
    ) -> frozenset[str] | None:
        """The names the methods of the class (but ``__init__``) call on ``self`` that are none of its methods
        (``self.proj(x)``, a submodule; ``self.register_buffer``); None when a method may change an attribute, or the
        class is not of the analysed code (``_self_writes``). ``entry``: only the methods running the object runs
        (``forward`` / ``__call__`` and the methods they call on ``self``, by name in every class of the MRO), when
        none of them hands ``self`` itself on: a ``set_sampler`` nothing calls there changes nothing; ``starts``:
        methods run besides those."""
        ci = self.find_class(cls_key)
        if ci is None:
            return None
        classes = objects.mro(self, ci)
        methods = {n for c in classes for n in c.methods}
        out: set[str] = set()
        taken: set[str] = set()
        for c in classes if entry else ():
            taken |= walk_memo("methods-taken", c.node, _methods_taken)
        if entry and "*" not in taken and not taken & methods:
            # (``register_forward_hook(self._save)``: a method any call may run; then every method counts)
            todo: list[str] = [n for n in ("forward", "__call__", *sorted(starts)) if n in methods]
            reached: set[str] = set()
            while todo:
                name = todo.pop()
                if name in reached:
                    continue
                reached.add(name)
                for c in classes:
                    fi = c.methods.get(name)
                    if fi is None:
                        continue
                    writes, called = walk_memo("self-writes", fi.node, _self_writes)
                    if writes or walk_memo("self-escapes", fi.node, _self_escapes):
                        return self._foreign_self_calls(cls_key)
                    todo.extend(called & methods)
                    out.update(called - methods)
            return frozenset(out) if reached else None
        for c in classes:
            for fi in c.methods.values():
                if fi.name == "__init__":
                    continue
                writes, called = walk_memo("self-writes", fi.node, _self_writes)
                if writes:
                    return None
                out.update(called - methods)
        return frozenset(out)

    def _list_helper(self, interp: Interpreter, node: cst.Call, func: cst.Name, args: list[Value]) -> Value | None:
        """A call of a function of the analysed code whose body is one list method on a parameter
        (``def append(arr, el): arr.append(el)``, ``def prepend(arr, el): arr.insert(0, el)``): the list the caller
        passed, grown as the method grows it (None: no such helper, or a list or argument the analysis does not know)."""
        v = interp.scope.vars.get(func.value) if func.value in interp.scope.vars else self.globals.get(func.value)
        if not isinstance(v, FuncV) or v.bound_self is not None or v.env:
            return None
        fi = self.find_function(v.key)
        if fi is None or fi.cls_key is not None or fi.has_unknown_decorators or fi.node.asynchronous is not None:
            return None

        shape = walk_memo("list-helper", fi.node, _list_helper_shape)
        if shape is None:
            return None
        target, method, inner = shape
        names = [p.name for p in fi.params]
        if any(p.kind not in ("pos", "posonly") for p in fi.params) or len(args) != len(names):
            return None
        if any(a.keyword is not None or a.star for a in node.args):
            return None
        values = dict(zip(names, args))
        arg_node = node.args[names.index(target)].value
        key = _var_key_of(arg_node)
        base = values[target]
        if key is None or not isinstance(base, (SeqV, ManyV)) or base.kind not in ("list", "modulelist"):
            return None
        if interp.scope.vars.get(key) is not base or (key.startswith("self.") and not interp.frame.building):
            return None
        items = [values[x] if isinstance(x, str) else IntV(Size.const(x)) for x in inner]
        if method == "insert":
            if len(items) != 2 or int_of(items[0]) is None:
                return None
            at, el = int_of(items[0]), items[1]
            if isinstance(base, ManyV):
                grown: Value | None = ManyV(join_elem(base.elem, el), base.kind)
            else:
                seq = list(base.items)
                seq.insert(at, el)  # type: ignore[arg-type]
                grown = SeqV(tuple(seq), base.kind)
        elif len(items) == 1:
            grown = _grown(base, method, items[0])
        else:
            return None
        if grown is None:
            return None
        interp.forget_aliases(key, base)
        interp.scope.vars[key] = grown
        return NoneV()

    def _unmutated_args(self, interp: Interpreter, node: cst.Call) -> set[int]:
        """The positional arguments of a call to a plain function of the analysed code whose body neither rebinds the
        parameter they bind nor calls, hands on or changes it by item (``first(self.layers)``: ``return it[0]``): an
        ``nn.ModuleList`` passed there is unchanged by the call."""
        func = node.func
        if type(func) is not cst.Name:
            return set()
        v = interp.scope.vars.get(func.value) if func.value in interp.scope.vars else self.globals.get(func.value)
        if not isinstance(v, FuncV) or v.bound_self is not None:
            return set()
        fi = self.find_function(v.key)
        if fi is None or fi.cls_key is not None or fi.has_unknown_decorators:
            return set()

        touched = _assigned_names(fi.node.body) | walk_memo("handed-on", fi.node, _handed_on)
        positional = [p.name for p in fi.params if p.kind in ("pos", "posonly")]
        out: set[int] = set()
        for i, a in enumerate(node.args):
            if a.star or a.keyword is not None:
                break
            if i < len(positional) and positional[i] not in touched:
                out.add(id(a))
        return out

    def _kept_list_args(
        self, interp: Interpreter, node: cst.Call, values: list[Value], qual: str | None, early: Value | None = None
    ) -> set[int]:
        """The arguments of a call to a function of the analysed code that only hands that parameter to library calls
        (``unpack_one(x, ps, 'b * d')``): a list passed there is unchanged by the call (``objects.read_only_params``).
        A list of numbers or strings is also unchanged when the parameter is only read (``objects.item_read_params``:
        iterated, indexed, sliced, ``levels = list(levels)``), and so is one handed to a class of the analysed code
        whose ``__init__`` (the first of its classes that defines one) only reads it that way (``FSQ(levels=levels)``
        in a loop that builds one layer per pass). ``values``: the arguments' values, in order."""
        func = node.func
        if type(func) is cst.Attribute:
            # Config.from_dict(cfg): a classmethod (or staticmethod) of a class of the analysed code
            method = self._class_level_method(interp, func)
            return self._kept_args_of(node, values, method, 1 if method.is_classmethod else 0) if method else set()
        v: Value | None
        if type(func) is cst.Subscript and isinstance(early, RefV):
            v = early  # ``BACKBONES[name](**cfg)``: the class a registry holds under that key (evaluated first)
        elif type(func) is not cst.Name:
            return set()
        else:
            v = interp.scope.vars.get(func.value) if func.value in interp.scope.vars else self.globals.get(func.value)
            if v is None and qual is not None and self.project is not None:
                v = self.project.lookup(qual)  # a class imported from another module of the analysed code
        skip = 0
        if isinstance(v, LayerV) and v.kind == "traced":
            v = v.param("func")  # step = jax.jit(f): step(params, ...) hands params to f
        if isinstance(v, LayerV) and v.kind == "vmap":
            v = v.param("func")  # step = jax.vmap(f, in_axes=...): step(params, ...) hands params to f
        read_only: frozenset[str] = frozenset()
        if isinstance(v, FuncV) and v.bound_self is None:
            fi = self.find_function(v.key)
            if fi is None or fi.cls_key is not None:
                return set()
        elif isinstance(v, ObjV):
            # layer(features) with a module instance: its __call__ / forward (what call_instance runs) only hands
            # the list to library calls (DenseNet's ``torch.cat(features, 1)``), and no hook sees the arguments
            ci = self.find_class(v.cls_key)
            fwd = (
                (objects.find_method(self, ci, "__call__") or objects.find_method(self, ci, "forward")) if ci else None
            )
            if fwd is None or fwd.is_static or fwd.is_classmethod or v.attr(HOOKED_ATTR) is not None:
                return set()
            fi, skip = ensure_signature(fwd), 1
            read_only = objects.read_only_params(fi)
        elif isinstance(v, RefV) and v.qualname.startswith("class:"):
            ci = self.find_class(v.qualname[6:])
            inits = [c.methods["__init__"] for c in objects.mro(self, ci) if "__init__" in c.methods] if ci else []
            if not inits:
                # a dataclass (a flax module): each argument is a field; a dict or list no method changes through
                # the field (``cfg = self.config; cfg["hidden"]``) stays as it was
                return objects.kept_field_args(self, ci, node) if ci is not None else set()
            fi, skip = ensure_signature(inits[0]), 1
            if ci is not None and not fi.has_unknown_decorators:
                # RetinaNet(CONFIG) storing the dict as ``self.cfg`` that no method changes: CONFIG keeps its entries
                read_only = objects.stored_read_only_params(self, ci, fi)
        else:
            return set()
        if fi.has_unknown_decorators:
            return set()
        if not skip:
            read_only = objects.read_only_params(fi)
        return self._kept_args_of(node, values, fi, skip, read_only)

    def _class_level_method(self, interp: Interpreter, func: cst.Attribute) -> FunctionInfo | None:
        """``Cls.method`` naming a classmethod or staticmethod of a class of the analysed code (no other decorator)."""
        ci = self._named_class(interp, func)
        fi = objects.find_method(self, ci, func.attr.value) if ci is not None else None
        if fi is None or not (fi.is_classmethod or fi.is_static):
            return None
        fi = ensure_signature(fi)
        return None if fi.has_unknown_decorators or len(fi.node.decorators) != 1 else fi

    def _kept_args_of(
        self,
        node: cst.Call,
        values: list[Value],
        fi: FunctionInfo,
        skip: int,
        read_only: frozenset[str] = frozenset(),
    ) -> set[int]:
        """The arguments of ``node`` (a call of ``fi``, whose first ``skip`` parameters the call does not bind) that
        ``fi`` leaves as they are (``_kept_list_args``)."""
        items_read = objects.item_read_params(fi)
        plain = objects.plain_read_params(fi) if any(isinstance(v, DictV) and v.kind == "dict" for v in values) else ()
        if not read_only and not items_read and not plain:
            return set()
        out: set[int] = set()
        positional = [p.name for p in fi.params if p.kind in ("pos", "posonly")][skip:]
        for i, (a, val) in enumerate(zip(node.args, values)):
            if a.star == "**" and isinstance(val, DictV) and val.kind == "dict":
                # ``Model(**cfg)``: each list entry binds the parameter of its key, which only reads it
                names = {p.name for p in fi.params if p.kind in ("pos", "kwonly")}
                if all(
                    _immutable(x) or isinstance(x, TensorV) or (k in names and k in items_read and _scalar_list(x))
                    for k, x in val.items
                ):  # (an object, a dict or another list among them may be changed: cfg forgets them, as before)
                    out.add(id(a))
                continue
            if a.star:
                break  # later positions are unknown
            if a.keyword is not None:
                name: str | None = a.keyword.value
            else:
                name = positional[i] if i < len(positional) else None
            if name in read_only or (name in items_read and _scalar_list(val)):
                out.add(id(a))
            elif isinstance(val, DictV) and val.kind == "dict" and name in plain:
                out.add(id(a))  # cls(**cfg_dict), cfg["dim"], cfg.get("depth"): its entries stay as they are
            elif name in items_read and isinstance(val, DictV) and val.kind == "dict":
                if name in objects.dict_read_params(fi):  # params["wq"] read, never changed
                    out.add(id(a))
        return out

    def _linen_param(self, node: cst.Call, obj: ObjV, shape: Value) -> TensorV | None:
        """``self.param(name, init_fn, shape)`` in a ``flax.linen`` module: an array of that shape (the initializer
        receives the shape; a shape that is not a tuple of ints gives None, as does a class defining ``param``)."""
        if not self._linen_own_method(obj, "param"):
            return None
        if not isinstance(shape, SeqV) or not all(isinstance(i, IntV) for i in shape.items):
            return None
        from ..rules.shapes_bridge import Origin

        sizes = tuple(i.size for i in shape.items)  # type: ignore[union-attr]
        return TensorV(sizes, None, "jax", None, Origin(self, node, "self.param(...)"))

    def _linen_own_method(self, obj: ObjV, method: str) -> bool:
        """Is ``obj.<method>`` flax linen's own (``self.param``, ``self.variable``): a ``flax.linen`` module whose
        classes do not define it."""
        ci = self.find_class(obj.cls_key)
        if ci is None or any(method in c.methods for c in objects.mro(self, ci)):
            return False
        return any(b.startswith("flax.linen.") for b in objects.foreign_bases(self, ci))

    @staticmethod
    def _linen_fresh_collection(col: cst.BaseExpression) -> bool:
        """Is ``col`` (a literal collection name) empty in the ``model.init`` / ``model.apply`` being run: any
        collection in init, one the variables handed to apply do not hold. Then ``self.has_variable(col, name)`` is
        False and ``self.variable(col, name, init_fn, *args)`` holds ``init_fn(*args)``. False when not run from
        either, or when the variables are not known."""
        passed = FLAX_COLLECTIONS[-1] if FLAX_COLLECTIONS else None
        return passed is not None and type(col) is cst.SimpleString and literal_str(col) not in passed

    def _linen_variable(
        self, interp: Interpreter, node: cst.Call, obj: ObjV, init_fn: Value, init_args: list[Value]
    ) -> TensorV | None:
        """``self.variable(col, name, init_fn, *init_args)`` in a ``flax.linen`` module (a decoding cache:
        ``self.variable("cache", "cached_key", jnp.zeros, (b, max_len, h, d), k.dtype)``): a Variable whose
        ``.value`` is ``init_fn(*init_args)``, held as that array (``var.value = x`` stores a new one: interpreter
        ``assign``). A variable the collection already holds keeps its value, made by the same call on the first
        run (the init). None: not such a call, or a value that is not a jax array."""
        if not self._linen_own_method(obj, "variable"):
            return None
        if not node.args or not self._linen_fresh_collection(node.args[0].value):
            # run outside model.init / model.apply, or in an apply handed that collection (or variables not known):
            # the variable holds what the collection holds, made by an earlier run for its own inputs
            return None
        value = self.call_value(interp, node, init_fn, init_args)
        if not isinstance(value, TensorV) or value.framework != "jax" or value.shape is None:
            return None
        return value

    def call_partial(
        self, interp: Interpreter, node: cst.Call, p: LayerV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """``norm_layer(dim)`` where ``norm_layer = partial(nn.LayerNorm, eps=1e-6)``: the function or class with the
        arguments partial bound first (a keyword given again at the call wins, as in functools)."""
        func = p.param("func")
        full_args = [*p.param("args", ()), *args]
        full_kwargs = {**dict(p.param("kwargs", ())), **kwargs}
        if (
            isinstance(func, RefV)
            and not func.qualname.startswith(("class:", *_PARTIAL_FRAMEWORKS))
            and self.project is not None
        ):
            # a class or function imported from another module of the analysed tree (partial(ResnetBlock, ...) after
            # ``from .layers import ResnetBlock``): what the name reaches there, as a call of it would
            found = self.project.lookup(func.qualname)
            if isinstance(found, FuncV) or (isinstance(found, RefV) and found.qualname.startswith("class:")):
                func = found
        if isinstance(func, FuncV):
            return self.call_function(interp, node, func, full_args, full_kwargs)
        if isinstance(func, RefV) and func.qualname.startswith("class:"):
            return self.instantiate(interp, node, func.qualname[6:], full_args, full_kwargs)
        if isinstance(func, LayerV) and func.kind == "either":  # partial(norm_class, dim) of one of several classes
            return self.call_either(interp, node, func, full_args, full_kwargs)
        if isinstance(func, ObjV):  # partial(block, **kwargs) of a module object: its forward with them
            return self.call_object(interp, node, func, full_args, full_kwargs)

        if isinstance(func, RefV) and func.qualname.startswith(_PARTIAL_FRAMEWORKS):
            # a layer class (partial(nn.LayerNorm, eps=1e-6), partial(flax.linen.Conv, use_bias=False)) or a function
            # (partial(F.softmax, dtype=torch.float32)): the framework's rule
            return self.call_qualified(interp, node, func.qualname, full_args, full_kwargs, False) or UNKNOWN
        return UNKNOWN

    def call_traced(
        self, interp: Interpreter, node: cst.Call, v: LayerV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """``jax.jit(f, static_argnums=...)(x, n)``: ``f`` called with what is not static traced (``_traced``)."""
        func = v.param("func")
        positional: list[str] | None = None
        if isinstance(func, FuncV):
            fi = self.find_function(func.key)
            if fi is not None:
                fi = ensure_signature(fi)
                skip = fi.cls_key is not None and not fi.is_static and func.bound_self is not None
                positional = [p.name for p in fi.params if p.kind in ("pos", "posonly")][1 if skip else 0 :]
        args, kwargs = _trace_arguments(v.param("spec"), positional, 0, args, kwargs)
        return self.call_value(interp, node, func, args, kwargs)

    def call_vmap(
        self, interp: Interpreter, node: cst.Call, v: LayerV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """``jax.vmap(f, in_axes, out_axes)(x, y)`` (out_axes one int): ``f`` called on each array without its mapped axis (``in_axes``
        an int for every argument, or a tuple with an int or None per positional argument; default 0), an argument
        whose axis is None as it is (it keeps its batch axis inside ``f``), ``f``'s array results given the mapped
        axis back in front (at ``out_axes``). The mapped axes must have one size (jax raises otherwise: the result is then unknown),
        and at least one argument is mapped. ``eqx.filter_vmap`` passes what is not an array through unmapped by
        default. ``jax.vmap``'s keyword arguments are mapped over their axis 0 whatever ``in_axes`` says (jax's rule:
        ``jax.vmap(model)(x, key=keys)``); equinox's are not followed; torch's ``vmap(f, in_dims, out_dims)`` passes
        them as they are."""
        if kwargs and v.param("filter"):
            return UNKNOWN
        spec = v.param("in_axes", NO_AXES)
        filt = bool(v.param("filter"))
        if isinstance(spec, tuple) and spec and spec[0] == "all":
            axes: list[Any] = [spec[1]] * len(args)
        elif isinstance(spec, tuple):
            if len(spec) != len(args):
                return UNKNOWN  # jax raises: one entry per positional argument
            axes = list(spec)
        else:
            axes = [NO_AXES] * len(args)
        batch: Size | None = None
        unknown_mapped = False
        first: tuple[int, int, TensorV] | None = None  # the first mapped argument: its position, axis, value
        inner: list[Value] = []
        modules: dict[int, Value] = {}  # the arguments that are stacked modules: the module one slice of each is
        for i, (a, ax) in enumerate(zip(args, axes)):
            if ax is NO_AXES or isinstance(ax, IfArray):
                ax = ax.axis if isinstance(ax, IfArray) else 0
                if isinstance(a, LayerV) and a.kind == "stacked" and filt:
                    # a module filter_vmap returned: each of its arrays has the stacked axis in front (and it has
                    # one at least), here mapped over it; the function sees the module it was built as
                    if ax != 0:
                        return UNKNOWN
                    modules[i] = a.param("module")
                    a = TensorV((a.param("size"),), origin=a.param("origin"))
                elif not isinstance(a, TensorV) and filt and a is not UNKNOWN:
                    inner.append(a)  # if_array(0): not an array, not mapped
                    continue
            if ax is None or isinstance(a, NoneV):  # None is an empty pytree: nothing to map
                inner.append(a)
                continue
            if type(a) is SeqV and a.kind in ("list", "tuple") and a.items and type(ax) is int:
                # ``jax.vmap(head)(feats)`` over a list of arrays (a pytree): each one mapped over that axis
                leaves: list[Value] = []
                for t in a.items:
                    if not isinstance(t, TensorV) or t.shape is None or not -len(t.shape) <= ax < len(t.shape):
                        return UNKNOWN
                    k = ax % len(t.shape)
                    if batch is not None and equal(t.shape[k], batch) is not Truth.TRUE:
                        return UNKNOWN  # (jax raises on another size)
                    batch = t.shape[k]
                    axes_k = t.axes[:k] + t.axes[k + 1 :] if t.axes is not None else None
                    leaves.append(t.with_shape(t.shape[:k] + t.shape[k + 1 :], axes_k))
                inner.append(SeqV(tuple(leaves), a.kind))
                continue
            if (a is UNKNOWN or (type(a) is TensorV and a.shape is None)) and i not in modules:
                # a mapped argument whose shape is not known (``batch_dropout(x_t, keys, rate)`` with keys from a
                # generator): its slice is not known either; the others are still mapped (a size it does not share
                # makes jax raise at this call all the same)
                inner.append(a.with_shape(None) if isinstance(a, TensorV) else UNKNOWN)
                unknown_mapped = True
                continue
            if not isinstance(a, TensorV) or a.shape is None or not -len(a.shape) <= ax < len(a.shape):
                return UNKNOWN
            k = ax % len(a.shape)
            if batch is not None and a.shape[k] != batch:
                if first is not None and equal(a.shape[k], batch) is Truth.FALSE and not a.alts and not first[2].alts:
                    # jax raises "vmap got inconsistent sizes for array axes to be mapped" (no broadcasting of 1)
                    j, kj, b = first
                    detail = D.VmapAxes(j, kj, b.shape or (), i, k, a.shape)
                    origins = [
                        shape_note(
                            f"argument #{n}: {'a module stacked over' if n in modules else 'shape'}",
                            t.shape,
                            t.origin,
                        )
                        for n, t in ((j, b), (i, a))
                    ]
                    self.ctx.report(
                        node,
                        "SHP204",
                        {"op": "vmap", "detail": detail},
                        origins,
                        spec=OpSpec("vmap", None, (b.shape or (), a.shape), (), (("axes", (kj, k)),)),
                    )
                return UNKNOWN
            if first is None:
                first = (i, k, a)
            batch = a.shape[k]
            rest = a.shape[:k] + a.shape[k + 1 :]
            inner.append(
                modules[i]
                if i in modules
                else a.with_shape(rest, a.axes[:k] + a.axes[k + 1 :] if a.axes is not None else None)
            )
        inner_kw: dict[str, Value] = {}
        for name, a in kwargs.items():
            if v.param("torch"):
                inner_kw[name] = a  # torch.vmap passes keyword arguments as they are
            elif isinstance(a, NoneV):
                inner_kw[name] = a
            elif isinstance(a, TensorV) and a.shape is not None:
                if not a.shape or (batch is not None and equal(a.shape[0], batch) is not Truth.TRUE):
                    return UNKNOWN  # a scalar cannot be mapped; another size: jax raises
                batch = a.shape[0] if batch is None else batch
                inner_kw[name] = a.with_shape(a.shape[1:], a.axes[1:] if a.axes is not None else None)
            else:
                inner_kw[name] = UNKNOWN  # mapped too: what one slice is stays unknown
        if batch is None:
            return UNKNOWN
        if unknown_mapped and any(
            isinstance(a, TensorV) and _declared_param_shape(a) for a, ax in zip(args, axes) if ax is not None
        ):
            # another mapped argument's shape is only its parameter's annotation (``x: Float[Array, "D"]`` mapped
            # under ``if other.batch_size:``, where x is a batch the annotation does not describe): not followed
            return UNKNOWN
        out = self.call_value(interp, node, v.param("func"), inner, inner_kw)  # vmap(vmap(f)): two leading axes

        out_axis = v.param("out_axes", 0)

        def stacked(r: Value) -> Value:
            if isinstance(r, TensorV):
                if r.shape is None:
                    return r
                if out_axis != 0:  # out_axes=k: the mapped axis goes to position k of the result (jax: a negative
                    n = len(r.shape) + 1  # k counts from its end; out of range raises)
                    if not -n <= out_axis < n:
                        return UNKNOWN
                    k = out_axis % n
                    return r.with_shape(r.shape[:k] + (batch,) + r.shape[k:])
                return r.with_shape((batch,) + r.shape, (None,) + r.axes if r.axes is not None else None)
            if isinstance(r, SeqV) and r.kind == "tuple":
                return SeqV(tuple(stacked(x) for x in r.items), r.kind)
            if filt and out_axis == 0 and isinstance(r, ObjV) and self.has_array(r):
                from ..rules.shapes_bridge import Origin

                # eqx.filter_vmap(make_model)(keys): an equinox module whose arrays all have the mapped axis in front
                # (out_axes if_array(0)); its other fields are as the function made them
                return LayerV(
                    "stacked",
                    (("module", r), ("size", batch), ("origin", Origin(self, node, "filter_vmap(...)"))),
                    node,
                )
            return UNKNOWN

        return stacked(out)

    def has_array(self, v: Value, depth: int = 0) -> bool:
        """A pytree that surely holds an array leaf: an array, a layer of equinox's with weights (``Linear`` /
        ``MLP``, ``Embedding``, a recurrent cell), an equinox module the analysed code built with such a field, a
        tuple or list holding one. False: not known to."""
        if isinstance(v, TensorV):
            return True
        if isinstance(v, LayerV):
            return v.kind in ("Linear", "Embedding", "GRUCell", "LSTMCell") and v.param("lib") == "equinox"
        if depth < 4 and isinstance(v, SeqV) and v.kind in ("tuple", "list"):
            return any(self.has_array(x, depth + 1) for x in v.items)
        if depth < 4 and isinstance(v, ObjV) and v.concrete:
            ci = self.find_class(v.cls_key)
            if ci is not None and "equinox.Module" in objects.foreign_bases(self, ci):
                return any(self.has_array(x, depth + 1) for _, x in v.attrs)
        return False

    def call_grad(
        self, interp: Interpreter, node: cst.Call, v: LayerV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """``jax.grad(f)(*args)`` / ``jax.value_and_grad(f)(*args)`` (and equinox's filter_ forms): ``f`` runs on the
        arguments as given (its findings are the call's); the gradient has the shape of the differentiated argument
        (``argnums``, default 0) when that is an array or a dict of arrays, else it is unknown. ``has_aux=True``:
        ``f`` returns (value, aux); grad gives (gradient, aux), value_and_grad ((value, aux), gradient)."""
        if kwargs:
            return UNKNOWN
        out = self.call_value(interp, node, v.param("func"), list(args))
        argnums, has_aux = v.param("argnums"), v.param("has_aux")
        arg = args[argnums] if isinstance(argnums, int) and -len(args) <= argnums < len(args) else UNKNOWN
        grad: Value = UNKNOWN
        if isinstance(arg, TensorV) and (arg.dtype is None or arg.dtype.startswith(("float", "bfloat"))):
            grad = arg if not v.param("filter") else UNKNOWN
        elif (
            isinstance(arg, DictV)
            and arg.kind == "dict"
            and arg.items
            and all(
                isinstance(t, TensorV) and t.dtype is not None and t.dtype.startswith(("float", "bfloat"))
                for _, t in arg.items
            )
        ):
            grad = arg
        if has_aux is None:
            return UNKNOWN
        if v.param("value"):
            return SeqV((out, grad), "tuple")
        if has_aux:
            aux = out.items[1] if isinstance(out, SeqV) and out.kind == "tuple" and len(out.items) == 2 else UNKNOWN
            return SeqV((grad, aux), "tuple")
        return grad

    def call_value(
        self,
        interp: Interpreter,
        node: cst.Call,
        func: Value,
        args: list[Value],
        kwargs: dict[str, Value] | None = None,
    ) -> Value:
        """Call a function value of the analysed code (a function, an object, a partial, a vmap, a layer); keyword
        arguments only for a function or an object."""
        if isinstance(func, FuncV):
            return self.call_function(interp, node, func, args, kwargs or {})
        if isinstance(func, ObjV):
            return self.call_object(interp, node, func, args, kwargs or {})
        if isinstance(func, LayerV) and func.kind in ("traced", "flax_method"):
            return self.call_callee(interp, node, func, args, kwargs or {})
        if kwargs:
            return UNKNOWN
        if isinstance(func, LayerV) and func.kind == "partial":
            return self.call_partial(interp, node, func, args, {})
        if isinstance(func, LayerV) and func.kind == "vmap":
            return self.call_vmap(interp, node, func, args, {})
        if isinstance(func, LayerV) and func.kind == "grad":
            return self.call_grad(interp, node, func, args, {})
        if isinstance(func, LayerV):
            return layer_rules.apply_layer(self.ops, interp, node, func, args, {})
        if isinstance(func, RefV) and func.qualname.startswith(("torch.", "numpy.", "jax.")):
            out = self.call_qualified(interp, node, func.qualname, args, {}, False)  # map(jnp.asarray, batch)
            return UNKNOWN if out is None else out
        return UNKNOWN

    def call_scan(self, interp: Interpreter, node: cst.Call, args: list[Value], kwargs: dict[str, Value]) -> Value:
        """``jax.lax.scan(f, init, xs)``: ``f(carry, x)`` runs once on a slice of ``xs`` (its leading axis of length n
        removed; ``xs`` an array or a tuple of arrays with one n), returning ``(carry, y)``; the result is the final
        carry (it must keep the shape of ``init``, else unknown) and ``y`` stacked along a new leading axis n.
        ``reverse=`` and ``unroll=`` change no shape; ``xs=None`` with a known ``length=n`` runs ``f(carry, None)``."""
        names = ("f", "init", "xs")
        vals = [args[i] if len(args) > i else kwargs.get(n, UNKNOWN) for i, n in enumerate(names)]
        if set(kwargs) - {"f", "init", "xs", "length", "reverse", "unroll"} or len(args) > 3:
            return UNKNOWN
        f, init, xs = vals
        length = kwargs.get("length")
        x: Value
        if (
            isinstance(xs, NoneV)
            and isinstance(length, IntV)
            and not length.assumed
            and (length.size.as_int() or 1) >= 1
        ):
            # xs=None, length=n: f(carry, None) n times
            n, x = length.size, NoneV()
        else:
            one = _one_slice(xs)
            if one is None:
                self._scan_lengths(node, xs)
                return UNKNOWN
            n, x = one
        before = self.ctx.mark()
        out = self.call_value(interp, node, f, [_traced(init), x])  # the carry is traced: a Python int an array
        if not isinstance(out, SeqV) or len(out.items) != 2:
            return UNKNOWN
        carry, y = out.items
        if not interp.dead and self.ctx.mark()[:2] == before[:2] and self._carry_changed(node, "lax.scan", init, carry):
            return UNKNOWN
        return SeqV((_final_carry(init, carry), _stacked(y, n)), "tuple")

    def call_unroll(
        self, interp: Interpreter, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """``hk.dynamic_unroll(core, input_sequence, initial_state, time_major=True)`` (``static_unroll``):
        ``core(x_t, state)`` on one time step of the inputs (their leading axis, the second with
        ``time_major=False``), returning ``(output_sequence, final_state)``: the outputs stacked along that axis. The
        dynamic unroll is a ``lax.scan`` (its state must keep its shape, SHP204 otherwise); a static one whose state
        changes shape is unknown. ``return_all_states`` is not read."""
        names = ("core", "input_sequence", "initial_state", "time_major")
        if len(args) > 4 or set(kwargs) - set(names) - {"reverse", "unroll"}:
            return UNKNOWN
        core, xs, init, major = (args[i] if len(args) > i else kwargs.get(n) for i, n in enumerate(names))
        time_major = True if major is None else major.value if isinstance(major, BoolV) else None
        if core is None or xs is None or init is None or time_major is None:
            return UNKNOWN
        if not time_major:
            xs = _swap_leading(xs)
        one = _one_slice(xs)
        if one is None:
            return UNKNOWN
        n, x = one
        before = self.ctx.mark()
        dynamic = qual == "haiku.dynamic_unroll"
        out = self.call_value(interp, node, core, [x, _traced(init) if dynamic else init])
        if not isinstance(out, SeqV) or len(out.items) != 2:
            return UNKNOWN
        y, state = out.items
        if _changed_carry(init, state, "state") is not None:
            if dynamic and not interp.dead and self.ctx.mark()[:2] == before[:2]:
                self._carry_changed(node, "hk.dynamic_unroll", init, state)
            return UNKNOWN
        ys = _stacked(y, n)
        return SeqV((ys if time_major else _swap_leading(ys), _final_carry(init, state)), "tuple")

    def _carry_changed(self, node: cst.Call, op: str, init: Value, carry: Value) -> bool:
        """A scan body (``jax.lax.scan``'s, an ``nn.scan`` step's) whose returned carry has a component of another
        shape than the one it was given: SHP204 at ``node`` (jax: "scan body function carry input and carry output
        must have equal types"), True; else False."""
        changed = _changed_carry(init, carry, "carry")
        if changed is None:
            return False
        name, given, returned = changed
        self.ctx.report(
            node,
            "SHP204",
            {"op": op, "detail": D.ScanCarry(name, given.shape or (), returned.shape or ())},
            [
                shape_note(f"{name} given: shape", given.shape or (), given.origin),
                shape_note(f"{name} returned: shape", returned.shape or (), returned.origin),
            ],
            spec=OpSpec("scan.carry", None, (given.shape or (), returned.shape or ())),
        )
        return True

    def _state_dict_sizes(self, node: cst.Call, model: ObjV, given: Value) -> None:
        """``model.load_state_dict(sd)``: SHP204 when an entry of ``sd`` surely has another shape than the model's
        parameter of that name (objects.state_dict_mismatch)."""
        found = objects.state_dict_mismatch(self, model, given)
        if found is None:
            return
        key, theirs, mine = found
        a, b = theirs.shape or (), mine.shape or ()
        self.ctx.report(
            node,
            "SHP204",
            {"op": "load_state_dict", "detail": D.StateDictSize(key, a, b)},
            [
                shape_note(f"the state dict's {key!r}: shape", a, theirs.origin),
                shape_note(f"the model's {key!r}: shape", b, mine.origin),
            ],
            spec=OpSpec("state_dict.copy", None, (a, b), extra=(("key", key),)),
        )

    def _scan_lengths(self, node: cst.Call, xs: Value) -> None:
        """``jax.lax.scan(f, init, (a, b, c))`` whose arrays have leading axes of surely different lengths (jax: "scan
        got values with different leading axis sizes"): SHP204 on the first two that differ. Items not known (a
        module's partition) are left out."""
        items = list(xs.items) if isinstance(xs, SeqV) and xs.kind in ("tuple", "list") else []
        known = [(i, t) for i, t in enumerate(items) if isinstance(t, TensorV) and t.shape and not t.alts]
        for (i, a), (j, b) in zip(known, known[1:]):
            assert a.shape is not None and b.shape is not None
            if equal(a.shape[0], b.shape[0]) is Truth.FALSE:
                self.ctx.report(
                    node,
                    "SHP204",
                    {"op": "lax.scan", "detail": D.VmapAxes(i, 0, a.shape, j, 0, b.shape, scanned=True)},
                    [shape_note(f"xs[{n}]: shape", t.shape, t.origin) for n, t in ((i, a), (j, b))],
                    spec=OpSpec("vmap", None, (a.shape, b.shape), (), (("axes", (0, 0)),)),
                )
                return

    def call_einops_exts(
        self, interp: Interpreter, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """The helpers of ``einops_exts`` (0.0.4): ``rearrange_many`` / ``repeat_many`` / ``reduce_many(tensors,
        pattern, **lengths)`` apply the einops function to each tensor (a generator: unpacked or iterated);
        ``check_shape(t, pattern, **lengths)`` is ``rearrange(t, f"{pattern} -> {pattern}", **lengths)``;
        ``einops_exts.torch.EinopsToAndFrom(from_einops, to_einops, fn)`` is a module whose ``forward(x, **kw)``
        rearranges ``x`` from one pattern to the other, calls ``fn`` on it with ``kw``, and rearranges the result back
        with the lengths of ``x``'s named axes. Anything else of the package is unknown."""
        name = qual.rsplit(".", 1)[-1]
        pattern = args[1] if len(args) > 1 else kwargs.get("pattern")
        lengths = {k: v for k, v in kwargs.items() if k not in ("pattern", "tensor", "tensors")}
        if name in ("rearrange_many", "repeat_many", "reduce_many") and len(args) == 2 and isinstance(pattern, StrV):
            tensors = args[0]
            if not isinstance(tensors, SeqV) or tensors.kind not in ("tuple", "list"):
                return UNKNOWN
            op = "einops." + name[: -len("_many")]
            outs = []
            for t in tensors.items:
                out = einops_rules.call(self.ops, interp, node, op, [t, pattern], lengths, False)
                outs.append(UNKNOWN if out is None else out)
            return SeqV(tuple(outs), "tuple")
        if name == "check_shape" and len(args) == 2 and isinstance(pattern, StrV) and "->" not in pattern.value:
            arrow = StrV(f"{pattern.value} -> {pattern.value}")
            out = einops_rules.call(self.ops, interp, node, "einops.rearrange", [args[0], arrow], lengths, False)
            return UNKNOWN if out is None else out
        if qual.endswith("torch.EinopsToAndFrom") and len(args) + len(kwargs) == 3:
            names = ("from_einops", "to_einops", "fn")
            vals = [args[i] if i < len(args) else kwargs.get(n, UNKNOWN) for i, n in enumerate(names)]
            src, dst, fn = vals
            if isinstance(src, StrV) and isinstance(dst, StrV) and isinstance(fn, (ObjV, LayerV, FuncV)):
                return LayerV(EINOPS_TO_AND_FROM, (("from", src.value), ("to", dst.value), ("fn", fn)), node)
        return UNKNOWN

    def call_einops_to_and_from(
        self, interp: Interpreter, node: cst.Call, layer: LayerV, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """``EinopsToAndFrom(from_einops, to_einops, fn)(x, **kw)`` (see ``call_einops_exts``)."""
        x = args[0] if len(args) == 1 else UNKNOWN
        src, dst = layer.param("from"), layer.param("to")
        if not isinstance(x, TensorV) or x.shape is None:
            return UNKNOWN
        if "..." in src:
            parts = src.split("...")
            if len(parts) != 2:
                return UNKNOWN
            before, after = parts[0].split(), parts[1].split()
            keys = list(zip(before, range(len(before)))) + list(zip(after, range(-len(after), 0)))
        else:
            split = src.split()
            keys = list(zip(split, range(len(split))))
        if not all(k.isidentifier() for k, _ in keys) or any(not -len(x.shape) <= i < len(x.shape) for _, i in keys):
            return UNKNOWN
        lengths: dict[str, Value] = {k: IntV(x.shape[i]) for k, i in keys}
        there = einops_rules.call(self.ops, interp, node, "einops.rearrange", [x, StrV(f"{src} -> {dst}")], {}, False)
        if not isinstance(there, TensorV) or interp.dead:
            return UNKNOWN
        before = self.ctx.mark()
        out = self.call_callee(interp, node, layer.param("fn"), [there], kwargs)
        after = self.ctx.mark()
        if interp.dead or after[:2] != before[:2]:
            return UNKNOWN  # fn failed (its finding is the call's): the code stops there
        back = einops_rules.call(
            self.ops, interp, node, "einops.rearrange", [out, StrV(f"{dst} -> {src}")], lengths, False
        )
        return UNKNOWN if back is None else back

    def call_lax_map(self, interp: Interpreter, node: cst.Call, args: list[Value], kwargs: dict[str, Value]) -> Value:
        """``jax.lax.map(f, xs)``: ``f`` on one slice of ``xs`` (its leading axis of length n removed; a tuple of
        arrays with one n), its array results stacked along a new leading axis n."""
        if set(kwargs) - {"f", "xs", "batch_size"} or len(args) > 2:
            return UNKNOWN
        f = args[0] if args else kwargs.get("f", UNKNOWN)
        xs = args[1] if len(args) > 1 else kwargs.get("xs", UNKNOWN)
        one = _one_slice(xs)
        if one is None:
            return UNKNOWN
        n, x = one
        return _stacked(self.call_value(interp, node, f, [x]), n)

    def _train_children(self, interp: Interpreter, node: cst.Call, obj: ObjV, mode: Value, depth: int) -> ObjV:
        """``model.eval()`` / ``model.train(mode)`` on a torch module whose classes do not override ``train``:
        torch runs ``train(mode)`` on each submodule. A submodule the constructor built whose class overrides it runs
        that override on its constructor's values (ObjV.fresh); one that does not passes it on to its own. The
        object comes back without the constructor values of the submodules that ran an override (unknown from
        then on)."""
        before = self.ctx.mark()
        if not obj.fresh or depth > 3:
            return obj
        dropped: set[str] = set()
        for k, child in obj.fresh:
            if self.ctx.mark()[:2] != before[:2]:
                break  # a submodule's train raised: torch goes no further
            if not isinstance(child, ObjV) or not child.concrete or k.endswith("?"):
                continue
            cci = self.find_class(child.cls_key)
            if cci is None or not _torch_module_class(self, cci):
                continue
            fi = objects.find_method(self, cci, "train")
            if fi is None:
                inner = self._train_children(interp, node, child, mode, depth + 1)
                if inner is not child:
                    dropped.add(k)
                continue
            dropped.add(k)
            if fi.is_static or fi.is_classmethod or fi.has_unknown_decorators:
                continue
            attrs = dict(child.attrs)
            attrs.update((a, v) for a, v in child.fresh if not isinstance(v, ObjV) and not a.startswith(objects.LISTED))
            promoted = ObjV(child.cls_key, tuple(attrs.items()), True)
            self._call_function(interp, node, FuncV(fi.key, bound_self=promoted), [mode], {}, None)
        if not dropped:
            return obj
        return replace(obj, fresh=tuple((k, v) for k, v in obj.fresh if k not in dropped))

    def _eval_through_train(
        self,
        interp: Interpreter,
        node: cst.Call,
        obj: ObjV,
        ci: ClassInfo,
        args: list[Value],
        kwargs: dict[str, Value],
    ) -> Value | None:
        """``model.eval()`` on a torch module whose class (or a base of the analysed code) overrides ``train``:
        torch's ``Module.eval`` is ``return self.train(False)``, so the override runs with ``mode`` False (a LoRA
        layer merging its low-rank update into ``self.weight``), and its result is what ``eval()`` returns. None:
        not such a call (no override, another signature, a class that is no torch module)."""
        if args or kwargs or not _torch_module_class(self, ci):
            return None
        fi = objects.find_method(self, ci, "train")
        if fi is None or fi.is_static or fi.is_classmethod or fi.has_unknown_decorators:
            return None
        callee = self.object_attr(obj, "train")
        if not isinstance(callee, FuncV):
            return None
        return self.call_callee(interp, node, callee, [BoolV(False)], {})

    def _explicit_base_method(
        self,
        interp: Interpreter,
        node: cst.Call,
        cls_key: str,
        name: str,
        args: list[Value],
        kwargs: dict[str, Value],
    ) -> Value | None:
        """``LoRALayer.__init__(self, r=r)`` in a constructor, the class named one of the object's own classes: its
        method runs on the object being built, as ``super().__init__(r=r)`` would run it. None: not such a call."""
        built = _self_handed(interp, node, args)
        if built is None:
            return None
        owner = self.find_class(built.cls_key)
        named = self.find_class(cls_key)
        if owner is None or named is None or all(c.key != cls_key for c in objects.mro(self, owner)):
            return None
        fi = objects.find_method(self, named, name)
        if fi is None or fi.is_static or fi.is_classmethod:
            return None
        return self.call_on_building_self(interp, node, fi, args[1:], kwargs)

    def _torch_layer_init(
        self, interp: Interpreter, node: cst.Call, kind: str, args: list[Value], kwargs: dict[str, Value]
    ) -> Value:
        """torch's constructor of the layer ``kind`` run on the object being built: the sizes it sets are the
        object's (``self.weight``, ``self.in_channels``...), the layer what torch's forward runs."""
        layer, sizes = objects.base_layer(self, node, kind, args, kwargs)
        if isinstance(layer, LayerV):
            for k, v in sizes.items():
                interp.scope.vars[f"self.{k}"] = v
            interp.scope.vars[f"self.{objects.TORCH_LAYER_ATTR}"] = layer
            interp.scope.vars[f"self.{objects.TORCH_LAYER_SIZES}"] = DictV(tuple(sizes.items()))
        return NoneV()

    def _explicit_torch_layer_init(
        self, interp: Interpreter, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value]
    ) -> Value | None:
        """``nn.Embedding.__init__(self, n, d)`` in the constructor of ``class Embedding(nn.Embedding, LoRALayer)``
        (the base named, not reached through ``super()``): what ``super().__init__(n, d)`` does when that torch.nn
        layer is the class's one base outside the analysed code. None: not such a call."""
        built = _self_handed(interp, node, args)
        ci = self.find_class(built.cls_key) if built is not None else None
        kind = objects.torch_layer_base(self, ci) if ci is not None else None
        if kind is None or qual != f"torch.nn.{kind}":
            return None
        return self._torch_layer_init(interp, node, kind, args[1:], kwargs)

    def call_super(
        self, interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value], dynamic: bool
    ) -> Value:
        after = objects.super_class_named(self, interp, node.func.value)  # type: ignore[attr-defined]
        if after and after != interp.frame.cls_key:
            # super(LoRALinear, self).__init__(...) in LoRALinear's subclass: the method after that class, whose
            # own classes' rules (a torch layer base, a dataclass) are not looked for here (another form of super's
            # arguments is taken as super(), as before)
            fi = objects.super_method(self, interp, name, after)
            if fi is None or dynamic:
                if fi is not None and interp.frame.building:
                    self._forget_self_attrs(interp, fi)
                return UNKNOWN
            if interp.frame.building:
                return self.call_on_building_self(interp, node, fi, args, kwargs)
            return self.call_function(interp, node, FuncV(fi.key, bound_self=interp.frame.self_value), args, kwargs)
        fi = objects.super_method(self, interp, name)
        if fi is None and name == "__init__" and not dynamic and interp.frame.building:
            built = interp.frame.self_value
            ci = self.find_class(built.cls_key) if isinstance(built, ObjV) else None
            if ci is not None and objects.plain_sequential(self, ci):
                # class ConvBNReLU(nn.Sequential): super().__init__(conv, norm, act) -- the instance is that chain
                interp.scope.vars["self." + SEQUENTIAL_ATTR] = (
                    self.call_qualified(interp, node, "torch.nn.Sequential", args, kwargs, dynamic) or UNKNOWN
                )
            elif ci is not None and objects.plain_module_list(self, ci):
                # class DenseBlock(nn.ModuleList): super().__init__([layer, ...]) -- the instance holds those modules
                interp.scope.vars["self." + MODULE_LIST_ATTR] = (
                    self.call_qualified(interp, node, "torch.nn.ModuleList", args, kwargs, dynamic) or UNKNOWN
                )
            elif ci is not None and objects.plain_module_dict(self, ci):
                # class DenseBlock(nn.ModuleDict): super().__init__() -- the instance holds the modules add_module
                # adds (a dict handed to super().__init__ first)
                given = args[0] if len(args) == 1 and not kwargs else None
                interp.scope.vars["self." + MODULE_DICT_ATTR] = (
                    DictV((), "moduledict")
                    if not args and not kwargs
                    else DictV(given.items, "moduledict")
                    if isinstance(given, DictV) and given.kind == "dict"
                    else UNKNOWN
                )
        if fi is None and name == "__init__" and not dynamic and interp.frame.building:
            built = interp.frame.self_value
            ci = self.find_class(built.cls_key) if isinstance(built, ObjV) else None
            kind = objects.torch_layer_base(self, ci) if ci is not None else None
            if kind is not None:
                # class CausalConv1d(nn.Conv1d): super().__init__(c_in, c_out, kernel_size=k, padding=p) -- torch
                # builds that layer: its sizes are the object's (self.weight, self.in_channels...), and its forward
                # is what super().forward(x) runs
                return self._torch_layer_init(interp, node, kind, args, kwargs)
        if fi is None and name == "__init__" and interp.frame.building:
            base = objects.dataclass_base_after(self, interp)
            if base is not None:
                # class Cfg(BaseCfg): def __init__(self, d, **kw): super().__init__(d=d, **kw) -- the base's generated
                # __init__ sets its fields (then runs __post_init__), so a field's class-body default is not its value
                return self._dataclass_super_init(interp, node, base, args, kwargs, dynamic)
        if fi is None and name == "forward" and not dynamic and not _in_constructor(interp):
            torch_layer = objects.torch_layer_of(self, interp.frame.self_value)
            if torch_layer is not None:
                # super().forward(x) in a torch.nn layer subclass: torch's forward of the layer its constructor built
                return layer_rules.apply_layer(self.ops, interp, node, torch_layer, args, kwargs)
        if fi is None and name == "__call__" and not dynamic and not interp.frame.building:
            held = interp.frame.self_value
            ci = self.find_class(held.cls_key) if isinstance(held, ObjV) else None
            base_kind = objects.torch_layer_base(self, ci) if ci is not None else None
            haiku_layer = objects.torch_layer_of(self, held) if (base_kind or "").startswith("haiku:") else None
            if haiku_layer is not None:
                # super().__call__(q, k, v, mask) in class CausalSelfAttention(hk.MultiHeadAttention): haiku's
                return layer_rules.apply_layer(self.ops, interp, node, haiku_layer, args, kwargs)
        if fi is None and name == "__call__" and not dynamic and not interp.frame.building:
            # super().__call__(x) in a torch module's own __call__: nn.Module.__call__ runs the object's forward
            held = interp.frame.self_value
            ci = self.find_class(held.cls_key) if isinstance(held, ObjV) else None
            if ci is not None and any(b.startswith("torch.nn.") for b in objects.foreign_bases(self, ci)):
                fwd = objects.find_method(self, ci, "forward")
                if fwd is not None:
                    return self.call_function(interp, node, FuncV(fwd.key, bound_self=held), args, kwargs)
        if fi is None and name == "__init__" and interp.frame.building:
            built = interp.frame.self_value
            ci = self.find_class(built.cls_key) if isinstance(built, ObjV) else None
            bases = objects.foreign_bases(self, ci) if ci is not None else set()
            if bases & objects.HF_CONFIG_BASES:
                _hf_config_super_init(interp, args, kwargs, dynamic)
            elif bases & objects.HF_MODEL_BASES:
                # transformers' PreTrainedModel.__init__(config): the model keeps its config, whose attention
                # implementation it sets (a flag code may branch on)
                given = kwargs.get("config") if not args else args[0]
                interp.scope.vars["self.config"] = given if given is not None and not dynamic else UNKNOWN
                for a in node.args:
                    if not a.star and (a.keyword is None or a.keyword.value == "config"):
                        for attr in _HF_MODEL_SETS:
                            interp.forget_object(a.value, attr, UNKNOWN)
                        break
        if fi is None or dynamic:
            return NoneV() if name == "__init__" and fi is None else UNKNOWN
        if interp.frame.building:
            return self.call_on_building_self(interp, node, fi, args, kwargs)
        return self.call_function(interp, node, FuncV(fi.key, bound_self=interp.frame.self_value), args, kwargs)

    def _dataclass_super_init(
        self,
        interp: Interpreter,
        node: cst.Call,
        base: ClassInfo,
        args: list[Value],
        kwargs: dict[str, Value],
        dynamic: bool,
    ) -> Value:
        """``super().__init__(...)`` reaching the ``__init__`` a dataclass base generates: each field of the base is
        set from the arguments (or its class-body default), then ``__post_init__`` runs as the generated ``__init__``
        runs it (the object's own, found from its class). Arguments the analysis cannot bind (``**kwargs`` of unknown
        content, a name no field has) leave every field unknown: what the base's body says is not what was passed."""
        fields = objects.class_fields(self, base)
        names = [f[0] for f in fields]
        values: dict[str, Value] | None = None
        if not dynamic and len(args) <= len(fields) and all(k in names for k in kwargs):
            values = {}
            for i, (fname, owner, default) in enumerate(fields):
                if i < len(args):
                    values[fname] = args[i]
                elif fname in kwargs:
                    values[fname] = kwargs[fname]
                elif default is not None:
                    values[fname] = objects.body_attrs(self, owner).get(fname, UNKNOWN)
                else:
                    values = None  # a required field not given: the call raises
                    break
        for fname in names:
            interp.scope.vars["self." + fname] = UNKNOWN if values is None else values[fname]
            interp.scope.vars.pop("self." + fname + OPTIONAL, None)
        if values is None:
            return UNKNOWN
        built = interp.frame.self_value
        ci = self.find_class(built.cls_key) if isinstance(built, ObjV) else None
        post = objects.find_method(self, ci, "__post_init__") if ci is not None else None
        if post is not None:
            self.call_on_building_self(interp, node, post, [], {})
        return NoneV()

    def call_qualified(
        self, interp: Interpreter, node: cst.Call, qual: str, args: list[Value], kwargs: dict[str, Value], dynamic: bool
    ) -> Value | None:
        if (
            self.patched_library(qual)
            or self.patched_library(qual + ".forward")
            or self.patched_library(qual + ".__call__")
        ):
            return UNKNOWN  # F.linear = flat_linear; nn.Linear.forward = patched: a layer built now runs that
        if qual.startswith("einops_exts."):
            return UNKNOWN if dynamic else self.call_einops_exts(interp, node, qual, args, kwargs)
        if qual.startswith("einops"):
            return einops_rules.call(self.ops, interp, node, qual, args, kwargs, dynamic)
        if qual == "einx.get_at":
            from ..rules.einx_calls import get_at

            return get_at(self.ops, node, args, kwargs, dynamic)
        if qual.startswith("einx.") and not dynamic:
            from ..rules.einx_calls import as_einops, elementwise, keeps_shape

            same = keeps_shape(qual, args, kwargs)
            if same is None:
                same = elementwise(self.ops, node, qual, args, kwargs)
            if same is not None:
                return same
            translated = as_einops(qual, args, kwargs)
            if translated is not None:
                return einops_rules.call(self.ops, interp, node, translated[0], translated[1], translated[2], False)
        known = library_calls.call_library(self, interp, node, qual, args, kwargs, dynamic)
        if known is not None:
            return known
        if qual.startswith("math."):
            from ..rules.multi_ops import math_call

            return math_call(qual, args, kwargs, dynamic)
        if qual == "fractions.gcd":
            return _fractions_gcd(args, kwargs, dynamic)
        if (
            qual in _NUMPY_SCALAR_MATH
            and len(args) == 1
            and isinstance(args[0], (IntV, FloatV))
            and not kwargs
            and not dynamic
        ):
            # ``int(np.ceil(channels / 2))``: numpy's function of a Python number is a float64 scalar of the same
            # value math's gives
            from ..rules.multi_ops import math_call

            got = math_call("math." + qual[len("numpy.") :], args, kwargs, dynamic)
            if isinstance(got, IntV):
                n = got.size.as_int()
                return FloatV(float(n)) if n is not None else FloatV(None)
            return got if isinstance(got, FloatV) else FloatV(None)
        if qual.startswith("equinox.nn.") and qual.rsplit(".", 1)[-1][:1].isupper():
            hit = self.project.lookup(qual) if self.project is not None else None
            if hit is None:  # the library itself is not part of the analysed tree
                return UNKNOWN if dynamic else layer_rules.jax_layer(self.ops, node, qual, args, kwargs)
        if self.project is not None:
            v = self.project.lookup(qual)
            if v is not None and not isinstance(v, RefV):
                if isinstance(v, FuncV):
                    return UNKNOWN if dynamic else self.call_function(interp, node, v, args, kwargs)
            if isinstance(v, RefV) and v.qualname.startswith("class:"):
                # (``Model(**cfg)`` with cfg unknown: the constructor's defaults are not the arguments, as for a class
                # of the same module)
                return UNKNOWN if dynamic else self.instantiate(interp, node, v.qualname[6:], args, kwargs)
        return op_rules.call(self.ops, interp, node, qual, args, kwargs, dynamic)

    def expects_exception(self, node: cst.BaseExpression) -> bool:
        """``pytest.raises(...)``, ``self.assertRaises(...)``, ``np.testing.assert_raises(...)``."""
        if type(node) is not cst.Call:
            return False
        q = self.qualify(node.func) or dotted(node.func) or ""
        return q.endswith(
            ("pytest.raises", "assertRaises", "assertRaisesRegex", "assert_raises", "assert_raises_regex")
        )

    # ------------------------------------------------------------------ tensor attributes, indexing, operators
    def tensor_attribute(self, interp: Interpreter, node: cst.Attribute, t: TensorV, attr: str) -> Value:
        return op_rules.tensor_attribute(interp, node, t, attr)

    def index_tensor(
        self, interp: Interpreter, node: cst.Subscript, t: TensorV, at: cst.CSTNode | None = None
    ) -> Value:
        return shape_rules.index_tensor(interp, node, t, at, self.ops)

    def made_by_subscript(self, node: cst.Subscript, base: TensorV, out: Value) -> Value:
        """``self.bias[:, :, :T, :T]`` is not the buffer the constructor made: a result whose shape the subscript
        changed was made here (a finding on it names this line, then the base's origin one step back)."""
        if (
            type(out) is not TensorV
            or out.shape is None
            or out.shape == base.shape
            or (out.origin is not None and out.origin is not base.origin)
            or getattr(base.origin, "unverified", False)  # (a callee's return annotation nothing checked: kept)
        ):
            return out
        text = " ".join(self.code_for(node).split())
        if len(text) > 40:
            text = " ".join(self.code_for(node.value).split())[:30] + "[...]"
        return replace(out, origin=self.ops.origin(node, text).made_from(base.origin))

    def column_concat(self, interp: Interpreter, node: cst.Subscript, items: list[Value]) -> Value:
        """``np.c_[a, b]`` of 1-d and 2-d arrays: their columns side by side, as ``np.column_stack([a, b])`` (a 1-d
        array a column); anything else (a scalar, a slice, a deeper array) is unknown."""
        if not items or any(not isinstance(t, TensorV) or t.rank not in (1, 2) for t in items):
            return UNKNOWN
        return op_rules.column_stack(self.ops, node, "np.c_", "numpy", items)

    def tensor_binary(
        self, interp: Interpreter, node: cst.CSTNode, left: Value, op: cst.CSTNode, right: Value
    ) -> Value:
        return op_rules.tensor_binary(self.ops, interp, node, left, op, right)

    def tensor_store(self, interp: Interpreter, node: cst.CSTNode, region: TensorV, value: TensorV) -> None:
        op_rules.tensor_store(self.ops, node, region, value)

    def tensor_in_place(self, node: cst.AugAssign, left: Value, right: Value, result: Value) -> None:
        op_rules.in_place(self.ops, node, node.operator, left, right, result)

    # ------------------------------------------------------------------ annotations in statements
    def check_declared(self, stmt: cst.AnnAssign, ann: Annotation, value: Value, frame: FrameInfo) -> Value:
        return self.shapes.check_declared(stmt, ann, value, frame)

    def check_return(self, stmt: cst.Return, value: Value, frame: FrameInfo) -> None:
        self.shapes.check_return(stmt, value, frame)

    def autocast_region(self, stmt: cst.With, interp: Interpreter) -> "contextlib.AbstractContextManager[None]":
        from ..rules.precision import autocast_region

        return autocast_region(self, stmt, interp)

    # ------------------------------------------------------------------ whole-module analysis
    def analyse(self) -> None:
        # each file's analysis starts with no forward-hook notes: what it reports does not depend on the files
        # analysed before it in the process (nor on a document's earlier versions)
        hooks.reset()
        if self.project is None:
            self._analyse()
            return
        saved = self.project.entry_module
        self.project.entry_module = self.module_name
        try:
            self._analyse()
        finally:
            self.project.entry_module = saved

    def _analyse(self) -> None:
        if self.masked:
            unmask(self)
        self.analysed = True
        self.run_module()
        if self.deferred_main:
            self._run_deferred_main()
        self.shapes.check_annotation_strings()
        for ci in self.classes.values():
            self.ensure_class_attrs(ci)
        start = len(self.ctx.pending)
        for fi in list(self.functions.values()):
            if "<locals>" in fi.key:
                continue
            if fi.key in self.standalone_done:
                if fi.key in self.own_runs and self.argparse_alternatives and fi.cls_key is None:
                    self._choice_runs(fi)  # (``main()`` run by the module's top level)
                continue
            self_value = ObjV(fi.cls_key) if fi.cls_key is not None else None
            if entry_points.expected_to_fail(self, fi):
                with self.ctx.discarding():  # @pytest.mark.xfail: what fails there is what the mark says
                    self.run_function(fi, None, self_value)
            elif not entry_points.run_test(self, fi, self_value):  # pytest's parametrize cases and fixtures
                self.run_function(fi, None, self_value)
                if self.argparse_alternatives and fi.cls_key is None:
                    self._choice_runs(fi)
        for fi, cls_key, cases in entry_points.inherited_tests(self):  # a base's tests in a parametrized subclass
            entry_points.run_cases(self, fi, ObjV(cls_key), cases)
        # (a failure the mixin's method meets for several of the classes is one finding, naming them all)
        seen_mixin: dict[tuple[int, str], tuple[int, str, list[str]]] = {}
        for fi, cls_key in _mixin_methods(self):  # a mixin's method, run with the self of a module that inherits it
            before = len(self.ctx.pending)
            self.run_function(fi, None, ObjV(cls_key))
            name = cls_key.rsplit(".", 1)[-1].split(":")[-1]
            kept: list[Pending] = []
            for p in self.ctx.pending[before:]:
                at = seen_mixin.get((id(p.node), p.code))
                if at is not None:
                    if name not in at[2]:
                        at[2].append(name)  # (the same line failing for another class: named in the first's note)
                    continue
                seen_mixin[(id(p.node), p.code)] = (before + len(kept), fi.name, [name])
                kept.append(p)
            self.ctx.pending[before:] = kept
        for index, method, names in seen_mixin.values():
            verb = "inherits" if len(names) == 2 else "inherit"
            also = f" (and of {', '.join(names[1:])}, which {verb} it too)" if len(names) > 1 else ""
            note = f"in {method}() of {names[0]}, which inherits it{also}"
            self.ctx.pending[index] = replace(self.ctx.pending[index], notes=(*self.ctx.pending[index].notes, note))
        _drop_repeats(self.ctx.pending, start)
        # local functions discovered while running (closures): analyse them standalone too
        done: set[str] = set()
        while True:
            todo = [
                fi
                for fi in self.functions.values()
                if "<locals>" in fi.key and fi.key not in done and _LAMBDA not in fi.key
            ]
            if not todo:
                break
            for fi in todo:
                done.add(fi.key)
                # (a method of a class a function defines runs on its own as a module-level class's does)
                self.run_function(fi, None, ObjV(fi.cls_key) if fi.cls_key is not None else None)
        _drop_repeats(self.ctx.pending, start)

    def _choice_runs(self, fi: FunctionInfo) -> None:
        """``fi`` (a script's ``main()``) run again once per choice of an argparse option that is not its default
        (``--arch resnet10``): each is a command line the script offers. What fails in such a run is reported with a
        note naming the choice, unless the default run reported it already."""
        alternatives = self.argparse_alternatives.pop(fi.key, None)
        for choice in alternatives or ():
            before = self.ctx.mark()
            self.argparse_choice = choice
            try:
                self.run_function(fi, None, None)
            finally:
                self.argparse_choice = None
            seen = {(id(p.node), p.code) for p in self.ctx.pending[: before[0]]}
            note = f"when the script runs with {choice[2]} {_choice_text(choice[3])} (one of the option's choices)"
            self.ctx.pending[before[0] :] = [
                replace(p, notes=(*p.notes, note))
                for p in self.ctx.pending[before[0] :]
                if (id(p.node), p.code) not in seen
            ]
            self.ctx.stats = dict(before[2])

    def line_of(self, node: cst.CSTNode) -> int:
        return self.positions_for([node]).get(id(node), (1, 1, 1, 1))[0]

    _positions: dict[int, tuple[int, int, int, int]] | None = None

    def positions_for(self, nodes: list[cst.CSTNode]) -> dict[int, tuple[int, int, int, int]]:
        if self._positions is None:
            from ..report.positions import compute_positions

            trees = [(self.tree, self.line_offset), *self.other_trees]
            self._positions = {
                k: (a + n, b + 1, c + n, d + 1) for t, n in trees for k, (a, b, c, d) in compute_positions(t).items()
            }
        return self._positions


# numpy's functions of one number that math has too (a Python number in, a float64 scalar out)
_NUMPY_SCALAR_MATH = frozenset(
    f"numpy.{n}" for n in ("ceil", "floor", "sqrt", "exp", "log", "log2", "log10", "sin", "cos")
)


# the libraries whose classes and functions a ``functools.partial`` of them runs through their own rules
_PARTIAL_FRAMEWORKS = ("torch.", "numpy.", "jax.", "flax.", "equinox.", "keras.", "tf_keras.", "tensorflow.", "paddle.")


# the fields of flax's ``TrainState.create(...)`` record (library_calls._train_state), in order
_TRAIN_STATE_FIELDS = ("step", "apply_fn", "params", "tx", "opt_state")

# ``_call``'s method handlers by the receiver value's kind (exact types: the value classes have no subclasses)
_CONTAINER_METHODS: dict[type, Callable[..., "Value | None"]] = {
    SeqV: ModuleAnalysis._list_method,
    ManyV: ModuleAnalysis._list_method,
    DictV: ModuleAnalysis._dict_method,
    IntDictV: ModuleAnalysis._dict_method,
    StrV: ModuleAnalysis._scalar_method,
    FloatV: ModuleAnalysis._scalar_method,
}
_MODEL_METHODS: dict[type, Callable[..., "Value | None"]] = {
    ObjV: ModuleAnalysis._object_method,
    StateDictV: ModuleAnalysis._state_dict_method,
    LayerV: ModuleAnalysis._layer_method,
    TensorV: ModuleAnalysis._tensor_method,
    RefV: ModuleAnalysis._class_method,
}


def _main_guard(stmt: cst.CSTNode) -> bool:
    """``if __name__ == "__main__":`` (or ``"__main__" == __name__``) with no ``else``."""
    if type(stmt) is not cst.If or stmt.orelse is not None:
        return False
    test = stmt.test
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return False
    cmp = test.comparisons[0]
    if type(cmp.operator) is not cst.Equal:
        return False
    sides = (test.left, cmp.comparator)
    names = [x for x in sides if type(x) is cst.Name and x.value == "__name__"]
    texts = [x for x in sides if type(x) is cst.SimpleString and x.value in ('"__main__"', "'__main__'")]
    return len(names) == 1 and len(texts) == 1


def _immutable(v: Value, depth: int = 3) -> bool:
    """An int, float, bool, string or None, or a tuple of them (``cfg.ch_mult`` = ``(1, 2, 2)``): nothing the callee
    does with it can change the object it was read from."""
    if isinstance(v, (IntV, FloatV, BoolV, StrV, NoneV, DtypeV)):
        return True  # (a dtype: ``.to(x.tensors.dtype)`` leaves x alone)
    return isinstance(v, SeqV) and v.kind == "tuple" and depth > 0 and all(_immutable(x, depth - 1) for x in v.items)


def _plain_list_attribute(interp: Interpreter, node: cst.BaseExpression, v: Value) -> bool:
    """``args.channels`` (``cfg.widths``): an attribute of a name, whose value is a list or dict of numbers, strings
    and tuples of them, on an object or an argparse namespace the scope holds. A callee filling it changes that
    attribute's items, nothing else the object holds."""
    if type(node) is not cst.Attribute or type(node.value) is not cst.Name:
        return False
    if not (
        (isinstance(v, SeqV) and v.kind == "list" and all(_immutable(x) for x in v.items))
        or (isinstance(v, DictV) and v.kind == "dict" and all(_immutable(x) for _, x in v.items))
    ):
        return False
    holder = interp.scope.vars.get(node.value.value)
    return (isinstance(holder, DictV) and holder.kind == "namespace") or (
        type(holder) is ObjV and holder.concrete and not _frozen_record(interp.m, holder)
    )


def _unknown_attribute(interp: Interpreter, node: cst.BaseExpression, v: Value) -> bool:
    """``self.params`` (``state.opt``): an attribute of a name holding an object the analysis built, whose value is not
    known. Handed to code, it may change what it holds, nothing else of the object (``_plain_list_attribute``)."""
    if v is not UNKNOWN or type(node) is not cst.Attribute or type(node.value) is not cst.Name:
        return False
    holder = interp.scope.vars.get(node.value.value)
    return type(holder) is ObjV and holder.concrete and not _frozen_record(interp.m, holder)


def _self_handed(interp: Interpreter, node: cst.Call, args: list[Value]) -> ObjV | None:
    """The object a constructor is building, when ``node`` hands it on as its first argument, by the name ``self``
    (``Base.__init__(self, ...)``, ``nn.Embedding.__init__(self, n, d)``); None otherwise."""
    first = node.args[0] if node.args else None
    if (
        not interp.frame.building
        or first is None
        or first.star
        or first.keyword is not None
        or type(first.value) is not cst.Name
        or first.value.value != "self"
        or not args
    ):
        return None
    built = interp.frame.self_value
    return built if isinstance(built, ObjV) and args[0] is built else None


_ANNOTATION_CHECKS = frozenset({"SHP205", "SHP206"})  # a value against a jaxtyping annotation (arguments, returns)
_PRECISION_CODES = frozenset({"SHP301", "SHP302", "SHP303"})  # float16 / bfloat16 reductions (report_inner)


def _built_chain(p: Pending) -> bool:
    """A finding on an nn.Sequential's layer chain made where the chain is built (``rules.layers._check_chain``):
    building it raises nothing."""
    detail = next((v for k, v in p.fields if k == "detail"), None)
    return isinstance(detail, D.LayerInput) and detail.sequential


def _has_class_cell(node: cst.CSTNode) -> bool:
    """Does the def give its frame the ``__class__`` cell (in its ``locals()``)? CPython does when the name
    ``super`` or ``__class__`` appears anywhere in it, nested functions and lambdas included."""
    todo: list[cst.CSTNode] = [node]
    while todo:
        n = todo.pop()
        if type(n) is cst.Name and n.value in ("super", "__class__"):
            return True
        todo.extend(children(n))
    return False


# Python's builtins called by name: name -> (rule, whether an import of that name shadows it). The rule runs when no
# local variable or module global (nor, unless the flag is False, an import) binds the name and no ``*args`` /
# ``**kwargs`` spread hides the arguments; it returns the call's value, or None when the call is not its case.
BuiltinRule = Callable[["ModuleAnalysis", Interpreter, cst.Call, str, list[Value], dict[str, Value]], "Value | None"]
_BUILTINS: dict[str, tuple[BuiltinRule, bool]] = {}


def _builtin(*names: str, shadowed_by_imports: bool = True) -> Callable[[BuiltinRule], BuiltinRule]:
    def add(rule: BuiltinRule) -> BuiltinRule:
        for n in names:
            assert n not in _BUILTINS, f"builtin {n} registered twice"
            _BUILTINS[n] = (rule, shadowed_by_imports)
        return rule

    return add


def _called_mode(interp: Interpreter, func: cst.BaseExpression) -> bool | None:
    """``model(x)`` / ``model.generate(x)`` / ``self.model(x)`` with ``model`` a variable (``self.model`` an attribute)
    that ``model.eval()`` put in eval mode (False) or ``model.train()`` in train mode (True); None otherwise."""
    made = func.value if type(func) is cst.Attribute and type(func.value) is cst.Call else func
    if type(made) is cst.Call and type(made.func) in (cst.Name, cst.Attribute):
        # ``World().maybe_eval(x)``, ``Model(cfg)(x)``: a torch module just built is in train mode (torch's default)
        with interp.ctx.discarding():
            cls = interp.eval(made.func)
        if not (isinstance(cls, RefV) and cls.qualname.startswith("class:")):
            return None
        known = interp.keeps_torch_train(cls.qualname[6:]) and interp.built_in_train_mode(cls.qualname[6:])
        return True if known else None
    if type(func) is cst.Name:
        owner = func.value
    elif type(func) is cst.Attribute and (key := _var_key_of(func)) is not None and key.startswith("self."):
        owner = key  # self.model(x)
    elif type(func) is cst.Attribute and type(func.value) in (cst.Name, cst.Attribute):
        owner = _var_key_of(func.value) or ""  # model.generate(x), self.model.generate(x)
    else:
        return None
    if not owner or owner == "self":
        return None
    mode = interp.scope.vars.get(mode_key(owner))
    return mode.value if isinstance(mode, BoolV) else None


def _property_callee(interp: Interpreter, func: cst.Attribute) -> Value | None:
    """What ``obj.prop`` gives when ``obj`` is a variable holding an object of the analysed code and ``prop`` a
    property of its class (``config.mlp_class``: the class the config names), else None (nothing is evaluated)."""
    base = interp.scope.vars.get(func.value.value)  # type: ignore[attr-defined]
    if not isinstance(base, ObjV):
        return None
    raw = interp._attribute(func, base)
    if not isinstance(raw, FuncV) or raw.bound_self is None:
        return None
    fi = interp.m.find_function(raw.key)
    if fi is None or not any(objects._property_decorator(d) for d in fi.node.decorators):
        return None
    return interp.attribute(func, base)


@_builtin("getattr", shadowed_by_imports=False)
def _call_getattr(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``getattr(nn, act)()``: the class that name reaches (a module's or a class's attribute).
    ``getattr(self.net, "forward")``: that attribute of an object of the analysed code, as ``self.net.forward``.
    ``getattr(config, "head_dim", dim // heads)``: the attribute when the object has it, else the default, decided
    for an object whose every attribute is known (``_attribute_known_absent``)."""
    if len(args) == 3 and isinstance(args[1], StrV) and not kwargs and isinstance(args[0], ObjV):
        attr = args[1].value
        if args[0].attr(attr) is not None and attr.isidentifier():
            return m.object_attr(args[0], attr)
        return args[2] if _attribute_known_absent(m, args[0], attr) else None
    if (
        len(args) == 3
        and isinstance(args[1], StrV)
        and not kwargs
        and isinstance(args[0], DictV)
        and args[0].kind == "namespace"
        and args[1].value.isidentifier()
        and not args[1].value.startswith("_")
        and not any(k == INCOMPLETE_NAMESPACE for k, _ in args[0].items)
    ):
        # getattr(args, "n_mfcc", 40) of argparse options (a SimpleNamespace, a config made its own __dict__):
        # every attribute it has is an entry, so an option the parser does not define takes the default
        got = [v for k, v in args[0].items if k == args[1].value]
        return got[-1] if got else args[2]
    if len(args) != 2 or not isinstance(args[1], StrV) or kwargs:
        return None
    if isinstance(args[0], RefV) and not args[0].qualname.startswith("class:"):
        return m.qualified_value(f"{args[0].qualname}.{args[1].value}")
    if isinstance(args[0], ObjV) and args[1].value.isidentifier():
        return m.object_attr(args[0], args[1].value)
    return UNKNOWN


def _attribute_known_absent(m: "ModuleAnalysis", obj: ObjV, attr: str) -> bool:
    """Has ``obj`` surely no attribute ``attr``: built by a constructor the analysis followed (every attribute it set
    known), nothing set by a name not known, no ``__getattr__``, no base outside the analysed code but
    ``torch.nn.Module`` (a dataclass or plain class: none), and neither a method nor a class attribute of that name?"""
    if not obj.concrete or not attr.isidentifier() or attr.startswith("_") or attr in objects.NN_MODULE_NAMES:
        return False
    if any(k == DYNAMIC_ATTRS for k, _ in obj.attrs) or obj.attr(attr) is not None:
        return False
    ci = m.find_class(obj.cls_key)
    if ci is None:
        return False
    classes = objects.mro(m, ci)
    if any(
        attr in c.methods
        or attr in objects.body_attrs(m, c)
        or "__getattr__" in c.methods
        or "__getattribute__" in c.methods
        for c in classes
    ):
        return False
    return objects.foreign_bases(m, ci) <= {"torch.nn.Module", "torch.nn.modules.module.Module", "object"}


@_builtin("hasattr")
def _call_hasattr(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``hasattr(self, "cos")`` in a constructor (or a setter or helper it runs) of a class of the analysed code
    whose only outside base is ``torch.nn.Module`` (or none): True when the object has the attribute by now (set on
    ``self``, or a method or class attribute of its MRO), False when nothing gave it one (no ``__getattr__`` of the
    analysed classes, no attribute set by a name not known). Elsewhere True only when the object or its class has it:
    another method may have set it since. Else not known."""
    if len(args) != 2 or kwargs or not isinstance(args[1], StrV) or not isinstance(args[0], ObjV):
        return None
    attr, obj = args[1].value, args[0]
    if not attr.isidentifier() or attr.startswith("_") or attr in objects.NN_MODULE_NAMES:
        return None
    ci = m.find_class(obj.cls_key)
    if ci is None:
        return None
    classes = objects.mro(m, ci)
    if any(attr in c.methods or attr in objects.body_attrs(m, c) for c in classes):
        return BoolV(True)
    building = interp.frame.building and interp.frame.self_value is obj
    if building and f"self.{attr}" in interp.scope.vars:
        return BoolV(True)
    if not building and obj.attr(attr) is not None:
        return BoolV(True)
    if (
        not building
        or "self." + DYNAMIC_ATTRS in interp.scope.vars
        or any("__getattr__" in c.methods or "__getattribute__" in c.methods for c in classes)
        or not objects.foreign_bases(m, ci) <= {"torch.nn.Module", "torch.nn.modules.module.Module", "object"}
    ):
        return None
    return BoolV(False)


@_builtin("iter", "next")
def _call_iter_next(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``iter(xs)`` of a known list or tuple: the very value (an iterator over it sees what a change of the list
    does, and changing the list forgets every name holding it), for ``next`` to read. ``next(it[, default])`` of
    one: with no items, the default (``cache = next(iter(cache_layers or []), None)``); with items that are all one
    value (``[None] * depth``), that value when it cannot be told from the outcome (no default: an exhausted
    iterator raises; a default equal to the items); which items earlier calls consumed is not tracked."""
    if kwargs or not args:
        return None
    seq = args[0]
    if name == "iter" and len(args) == 1 and type(seq) is ObjV:
        return m.iterate_object(interp, node, seq)  # iter(tasks): what its generator ``__iter__`` yields
    if isinstance(seq, ManyV) and seq.kind == "list" and seq.elem is not None and seq.elem is not UNKNOWN:
        # ``next(iter(loader))`` of a list of any length (a DataLoader's batches): an element, if it returns
        if name == "iter":
            return seq if len(args) == 1 else None
        return seq.elem if len(args) == 1 else None
    if not isinstance(seq, SeqV) or seq.kind not in ("tuple", "list", "iter"):  # ("iter": itertools.repeat)
        return None
    if name == "iter":
        return seq if len(args) == 1 else None
    if len(args) > 2:
        return None
    first = node.args[0].value
    if (
        type(first) is cst.Call
        and type(first.func) is cst.Name
        and first.func.value == "iter"
        and "iter" not in interp.scope.vars
        and "iter" not in m.globals
        and "iter" not in m.imports.names
    ):
        # ``next(iter(loader))``: a fresh iterator's first item (the default when there is none)
        return seq.items[0] if seq.items else args[1] if len(args) == 2 else None
    consumed = _next_item(m, interp, node, seq, args)
    if consumed is not None:
        return consumed
    if not seq.items:
        return args[1] if len(args) == 2 else None
    if any(item != seq.items[0] for item in seq.items[1:]):
        return None
    options = [seq.items[0], *args[1:]]
    return options[0] if all(o == options[0] for o in options[1:]) else None


def _next_item(m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, seq: SeqV, args: list[Value]) -> Value | None:
    """``next(it, default)`` of ``it = iter(xs)``, a local the function uses for nothing else: the item after those
    earlier calls took, in order (``cache = next(cache_iter, None)`` once per layer of a loop run layer by layer),
    then the default. Inside a loop analysed for any iteration the position is no longer known (None)."""
    arg = node.args[0].value
    if not isinstance(arg, cst.Name) or seq.kind == "iter":
        return None
    fi = m.functions.get(interp.frame.key)
    if fi is None or arg.value not in memo("only-nexted", fi.node, _only_nexted):
        return None
    key = arg.value + CONSUMED
    pos = interp.scope.vars.get(key, IntV(Size.const(0)))
    k = pos.size.as_int() if isinstance(pos, IntV) else None
    if interp.rolling or k is None:
        interp.scope.vars[key] = UNKNOWN
        return None
    interp.scope.vars[key] = IntV(Size.const(k + 1))
    if k < len(seq.items):
        return seq.items[k]
    return args[1] if len(args) == 2 else None


def _only_nexted(fn: cst.CSTNode) -> frozenset[str]:
    """The names a function binds once, to ``iter(...)``, and otherwise only hands to ``next`` as its iterator."""
    made: dict[str, int] = {}
    nexted: set[int] = set()
    uses: dict[str, int] = {}
    stack: list[tuple[cst.CSTNode, bool]] = [(fn, False)]  # (node, inside a nested function: every name a use)
    while stack:
        n, nested = stack.pop()
        tp = type(n)
        inner = nested or (n is not fn and tp in (cst.FunctionDef, cst.Lambda, cst.ClassDef))
        stack.extend((c, inner) for c in children(n))
        if inner:
            if tp is cst.Name:
                uses[n.value] = uses.get(n.value, 0) + 1  # type: ignore[attr-defined]
        elif tp is cst.Assign and len(n.targets) == 1 and type(n.targets[0].target) is cst.Name:  # type: ignore[attr-defined]
            v = n.value  # type: ignore[attr-defined]
            if type(v) is cst.Call and type(v.func) is cst.Name and v.func.value == "iter":
                name = n.targets[0].target.value  # type: ignore[attr-defined]
                made[name] = made.get(name, 0) + 1
                nexted.add(id(n.targets[0].target))  # type: ignore[attr-defined]
        elif tp is cst.Call and type(n.func) is cst.Name and n.func.value == "next" and n.args:  # type: ignore[attr-defined]
            if type(n.args[0].value) is cst.Name:  # type: ignore[attr-defined]
                nexted.add(id(n.args[0].value))  # type: ignore[attr-defined]
        elif tp is cst.Name:
            if id(n) not in nexted:
                uses[n.value] = uses.get(n.value, 0) + 1  # type: ignore[attr-defined]
    return frozenset(k for k, c in made.items() if c == 1 and not uses.get(k))


@_builtin("locals")
def _call_locals(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``kwargs = dict(locals())`` at the start of a function: its parameters (and the names the statements before
    it bound) by name, in Python's order, plus ``__class__`` in a method that uses ``super``. Only when every
    statement before the call is a plain one at the top of the body (a call, an assignment to names, an assert):
    after a branch or a loop which names are bound is not known."""
    fi = m.functions.get(interp.frame.key)
    if args or kwargs or fi is None or "<locals>" in fi.key or fi.node.asynchronous is not None:
        return None
    body = fi.node.body
    if type(body) is not cst.IndentedBlock:
        return None
    bound: list[str] = []
    for stmt in body.body:
        if type(stmt) is not cst.SimpleStatementLine:
            if contains(stmt, node) or _binds_names(stmt):
                return None
            continue
        if contains(stmt, node):
            break
        for small in stmt.body:
            names = _simple_bound_names(small)
            if names is None or _has_walrus(small):
                return None
            bound.extend(n for n in names if n not in bound)
    else:
        return None

    params = [p.name for p in fi.params]
    keys = params + [n for n in bound if n not in params]
    uses_super = fi.cls_key is not None and walk_memo("class-cell", fi.node, _has_class_cell)
    items: list[tuple[str, Value]] = []
    for k in keys:
        if k in interp.scope.vars:
            items.append((k, interp.scope.vars[k]))
        elif params and k == params[0] and interp.frame.self_value is not None and not fi.is_static:
            items.append((k, interp.frame.self_value))
        else:
            return None
    if uses_super:
        items.append(("__class__", UNKNOWN))
    return DictV(tuple(items))


_BINDING_NODES = (
    cst.Assign,
    cst.AnnAssign,
    cst.AugAssign,
    cst.For,
    cst.AsName,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.Import,
    cst.ImportFrom,
    cst.FunctionDef,
    cst.ClassDef,
    cst.NamedExpr,
    cst.Global,
    cst.Nonlocal,
    cst.Del,
    cst.Match,
)


def _binds_names(tree: cst.CSTNode) -> bool:
    """Can ``tree`` (a compound statement) bind or unbind a local name? An ``if dim < 128: print(...)`` or an
    ``assert`` inside a ``try`` cannot, so the names ``locals()`` sees after it do not depend on the path taken."""

    stack = [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, _BINDING_NODES):
            return True
        stack.extend(children(n))
    return False


def _has_walrus(tree: cst.CSTNode) -> bool:
    """An assignment expression (``(n := len(x))``) in ``tree``: it binds a local name."""

    stack = [tree]
    while stack:
        n = stack.pop()
        if type(n) is cst.NamedExpr:
            return True
        stack.extend(children(n))
    return False


def _simple_bound_names(small: cst.BaseSmallStatement) -> list[str] | None:
    """The local names a plain small statement binds (an assignment to names, a call, an assert, ``pass``); None for
    any other (an import, ``del``, ``global``, an assignment to a starred or nested target)."""
    tp = type(small)
    if tp in (cst.Expr, cst.Assert, cst.Pass):
        return []
    targets: list[cst.BaseExpression] = []
    if tp is cst.Assign:
        targets = [t.target for t in small.targets]  # type: ignore[attr-defined]
    elif tp in (cst.AnnAssign, cst.AugAssign):
        if tp is cst.AnnAssign and small.value is None:  # type: ignore[attr-defined]
            return None
        targets = [small.target]  # type: ignore[attr-defined]
    else:
        return None
    out: list[str] = []
    for t in targets:
        if type(t) is cst.Name:
            out.append(t.value)
        elif type(t) in (cst.Tuple, cst.List) and all(
            type(e) is cst.Element and type(e.value) is cst.Name
            for e in t.elements  # type: ignore[attr-defined]
        ):
            out.extend(e.value.value for e in t.elements)  # type: ignore[attr-defined]
        elif type(t) not in (cst.Attribute, cst.Subscript):
            return None
    return out


@_builtin("slice")
def _call_slice(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``slice(stop)``, ``slice(start, stop[, step])`` of known ints or None: a SeqV of kind "slice" holding
    (start, stop, step), which indexing a tensor reads as ``t[start:stop:step]`` (``x[:, self.freq_slice]``)."""
    if kwargs or not 1 <= len(args) <= 3:
        return None
    bounds = [NoneV(), args[0], NoneV()] if len(args) == 1 else [*args, *([NoneV()] * (3 - len(args)))]
    if not all(
        isinstance(b, NoneV) or (isinstance(b, IntV) and not b.assumed and b.size.as_int() is not None) for b in bounds
    ):
        return None
    return SeqV(tuple(bounds), "slice")


@_builtin("range")
def _call_range(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    if kwargs:
        return None
    out = _range(args)
    if out is UNKNOWN and 1 <= len(args) <= 2 and all(type(a) is IntV for a in args):
        # ``for t in range(emb.shape[1])``: not unrolled, but its length is known (Interpreter._iterations)
        sizes = [cast(IntV, a).size for a in args]
        interp.range_length = (node, sizes[-1] - sizes[0] if len(sizes) == 2 else sizes[0])
    return out


def _named_modules_walk(m: "ModuleAnalysis", interp: Interpreter, node: cst.Call) -> DictV | None:
    """``dict(model.named_modules())`` of a model whose module tree is known (objects.module_walk): each module by
    its dotted path ("" for the model), a module reached twice by its first path (torch's walk skips it after)."""
    arg = node.args[0] if len(node.args) == 1 else None
    inner = arg.value if arg is not None and not arg.star and arg.keyword is None else None
    if not (
        type(inner) is cst.Call
        and not inner.args
        and type(inner.func) is cst.Attribute
        and inner.func.attr.value == "named_modules"
    ):
        return None
    root = interp.eval(inner.func.value)
    walked = objects.module_walk(m, root) if isinstance(root, ObjV) else None
    if walked is None:
        return None
    out: dict[str, Value] = {}
    for path, v in walked:
        if not any(v is seen for seen in out.values()):
            out[".".join(path)] = v
    return DictV(tuple(out.items()))


@_builtin("dict")
def _call_dict(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    if not args:
        return DictV(tuple(kwargs.items()))  # dict(wte=..., wpe=...)
    walked = _named_modules_walk(m, interp, node) if len(args) == 1 and not kwargs else None
    if walked is not None:
        return walked
    if len(args) == 1 and isinstance(args[0], StateDictV):
        return StateDictV(tuple({**dict(args[0].items), **kwargs}.items()))  # a copy of a state dict
    if len(args) == 1 and isinstance(args[0], DictV) and args[0].kind == "dict":
        merged = dict(args[0].items)  # dict(model_args, **kwargs): a copy, the named arguments replacing its keys
        merged.update(kwargs)
        return DictV(tuple(merged.items()))
    if len(args) == 1 and isinstance(args[0], SeqV) and args[0].kind != "shape":
        # dict(zip(keys, values)), dict(map(lambda kv: (kv[0][n:], kv[1]), d.items())): known (name, value) pairs,
        # a later pair replacing an earlier one's value; the named arguments last
        pairs: dict[str, Value] = {}
        numbered: dict[int, Value] = {}
        for item in args[0].items:
            if not (isinstance(item, SeqV) and len(item.items) == 2):
                return None
            key = item.items[0]
            n = key.size.as_int() if isinstance(key, IntV) and not key.assumed else None
            if isinstance(key, StrV) and not numbered:
                pairs[key.value] = item.items[1]
            elif n is not None and not pairs and not kwargs:
                # dict(zip(self.res_layers, in_out_features)): known int keys (resolutions, stage numbers)
                numbered[n] = item.items[1]
            else:
                return None
        if numbered:
            return IntDictV(tuple(numbered.items()))
        pairs.update(kwargs)
        return DictV(tuple(pairs.items()))
    if len(args) == 1 and isinstance(args[0], IntDictV) and not kwargs:
        return IntDictV(args[0].items)  # a copy
    return None


@_builtin("__import__")
def _call_dunder_import(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``__import__("torch")``: the top-level package of the name, as ``import torch`` binds it, when it is a module of
    the analysed tree or a modelled framework (``__import__("a.b")`` returns ``a``; with a ``fromlist``: unknown)."""
    if kwargs or len(args) != 1 or not isinstance(args[0], StrV):
        return None
    top = args[0].value.partition(".")[0]
    if not top.isidentifier():
        return None
    paths = m.project.paths if m.project is not None else {}
    return RefV(top) if top in MODELLED or top in paths else None


@_builtin("callable")
def _call_callable(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    return _callable(args[0]) if len(args) == 1 and not kwargs else None


@_builtin("sum")
def _call_sum(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``sum(categories)`` of a tuple or list of ints (known or symbolic): their total, an int (floats: a float whose
    value is known when every term is; a known bool counts as 0 or 1, ``sum(enable_lora)``). ``sum(embs)`` of a
    known number of tensors (and numbers): ``0 + embs[0] + embs[1] + ...``, each addition checked as ``+`` is.
    Anything else (a list of unknown length, which may be empty): not this rule."""
    if not 1 <= len(args) <= 2 or len(node.args) != len(args) or kwargs or not isinstance(args[0], SeqV):
        return None
    terms = [
        IntV(Size.const(int(t.value))) if isinstance(t, BoolV) and t.value is not None else t
        for t in list(args[0].items) + ([args[1]] if len(args) == 2 else [])
    ]
    if (
        args[0].kind in ("tuple", "list")
        and any(isinstance(t, TensorV) for t in terms)
        and all(isinstance(t, (IntV, FloatV, TensorV)) for t in terms)
    ):
        # Python adds the start (0, or the second argument) first, then each item in order
        order = ([terms[-1]] + terms[:-1]) if len(args) == 2 else [IntV(Size.const(0))] + terms
        acc: Value = order[0]
        for t in order[1:]:
            acc = interp.binary(node, acc, cst.Add(), t)
            if acc is UNKNOWN:
                return None
        return acc
    if (
        args[0].kind in ("tuple", "list")
        and len(args) == 1
        and any(isinstance(t, BoolV) for t in terms)
        and all(isinstance(t, BoolV) or (isinstance(t, IntV) and not t.assumed and _at_least_zero(t)) for t in terms)
    ):
        # ``sum(ch in AROMATIC for ch in smiles)``: a count of the true ones (bools not known, beside ints at least
        # 0): an int at least 0, one symbol per call, written as a size less one (it may be 0)
        return IntV(interp.ctx.fresh("count", "(a sum of bools or counts not known)") - 1)
    if args[0].kind not in ("tuple", "list") or not all(isinstance(t, (IntV, FloatV)) for t in terms):
        return None
    if all(isinstance(t, IntV) for t in terms):
        total = Size.const(0)
        for t in terms:
            assert isinstance(t, IntV)
            total = total + t.size
        return IntV(total, assumed=any(isinstance(t, IntV) and t.assumed for t in terms))
    numbers = [number_of(t) for t in terms]
    return FloatV(None if any(n is None for n in numbers) else float(sum(n for n in numbers if n is not None)))


def _at_least_zero(t: IntV) -> bool:
    """Is the int at least 0 for every value of its symbols (each at least 1)?"""
    from ...sizes.algebra import at_least

    return at_least(t.size, 0) is Truth.TRUE


@_builtin("any", "all")
def _call_any_all(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``any([qk_norm, scale_heads])`` / ``all(flags)`` of a known tuple or list: decided when the items' truths
    decide it (``any``: one true item, or every item false; ``all`` the other way round), unknown otherwise."""

    if len(args) != 1 or kwargs or len(node.args) != 1 or not isinstance(args[0], SeqV):
        return None
    if args[0].kind not in ("tuple", "list"):
        return None
    truths = [_truth(item) for item in args[0].items]
    decisive = name == "any"  # the truth that ends the scan
    if decisive in truths:
        return BoolV(decisive)
    if None in truths:
        return None
    return BoolV(not decisive)


@_builtin("ord")
def _call_ord(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``ord(ch)`` of a known character (``[ord(ch) - 96 for ch in text]``): its code point."""
    if len(args) != 1 or kwargs or len(node.args) != 1 or not isinstance(args[0], StrV) or len(args[0].value) != 1:
        return None
    return IntV(Size.const(ord(args[0].value)))


@_builtin("open")
def _call_open(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``open(path)`` / ``open(path, "r", encoding=...)`` of a known path: a file to read (DictV kind "file"), which
    ``json.load`` / ``yaml.safe_load`` / ``f.read()`` read when it is a small file of the project
    (library_calls.read_config_file). Any other mode or argument: not followed."""
    path = path_values.path_text(args[0]) if args else None  # (a string, or a ``pathlib`` path)
    return path_values.opened_for_reading(path, args[1:], kwargs) if path is not None else None


@_builtin("str")
def _call_str(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``str(res)`` of a known int (``self.blocks[str(res)] = ...``, the keys of an nn.ModuleDict) or string."""
    if len(args) != 1 or kwargs or len(node.args) != 1 or node.args[0].star:
        return None
    v = args[0]
    if isinstance(v, StrV):
        return v
    if isinstance(v, DictV) and v.kind == "path":
        text = path_values.path_text(v)
        return StrV(text) if text is not None else None
    n = v.size.as_int() if type(v) is IntV and not v.assumed else None
    return StrV(str(n)) if n is not None else None


@_builtin("bool")
def _call_bool(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """``bool(cond(key))``: the truth of a value that decides it (a known bool, number, string, None, sequence)."""

    if len(args) != 1 or kwargs or len(node.args) != 1:
        return None
    truth = _truth(args[0])
    return BoolV(truth) if truth is not None else None


@_builtin("filter")
def _call_filter(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    if len(args) != 2 or kwargs or not isinstance(args[1], SeqV) or args[1].kind not in ("tuple", "list"):
        return None
    return m._filter(interp, node, args[0], args[1])


@_builtin("len", "enumerate", "zip", "reversed")
def _call_iter(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    start = 0
    if name == "enumerate" and (len(args) == 2 or set(kwargs) == {"start"}):
        # enumerate(channels[1:], start=1): the counts begin there
        first = kwargs.get("start", args[-1] if len(args) == 2 else None)
        n = first.size.as_int() if isinstance(first, IntV) and not first.assumed else None
        if n is None or len(args) + len(kwargs) != 2:
            return None
        start, args, kwargs = n, args[:1], {}
    if kwargs:
        return None
    if any(type(a) is ObjV for a in args):
        args = [held_modules(a) or a if type(a) is ObjV else a for a in args]  # an nn.ModuleList subclass's instance
    if name == "len" and len(args) == 1:
        if type(args[0]) is ObjV and args[0].concrete and node.args and not node.args[0].star:
            # len(alphabet): its class's ``__len__`` run on the object (an int it returns, else unknown)
            ci = m.find_class(args[0].cls_key)
            fi = objects.find_method(m, ci, "__len__") if ci is not None else None
            if fi is None or fi.is_static or fi.is_classmethod:
                return _length(args[0])
            got = m.call_function(interp, node, FuncV(fi.key, bound_self=args[0]), [], {})
            return got if isinstance(got, IntV) else UNKNOWN
        return _length(args[0])
    return _iter_builtin(name, args, start)


@_builtin("map", "tuple", "list", "isinstance", "abs", "max", "min", "int", "float", "round", "sorted")
def _call_multi(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, name: str, args: list[Value], kwargs: dict[str, Value]
) -> Value | None:
    """Known sequences through ``map`` / ``tuple`` / ``list``, decided ``isinstance``, numbers (rules/multi_ops.py)."""
    from ..rules.multi_ops import builtin_call

    return builtin_call(m.ops, interp, node, name, args) if not kwargs else None


def _enumerated(interp: Interpreter, node: cst.Call) -> bool:
    """``for i, batch in enumerate(batches(...))`` / ``list(batches(...))`` / ``tuple(...)``: the loop (the
    builtin) iterates the generator call ``node`` to its end as ``for batch in batches(...)`` does (the builtin
    Python's own, not a name of the code)."""
    it = interp.iterating
    if type(it) is not cst.Call or type(it.func) is not cst.Name:
        return False
    name = it.func.value
    return (
        name in ("enumerate", "list", "tuple")
        and len(it.args) == 1
        and it.args[0].value is node
        and it.args[0].keyword is None
        and not it.args[0].star
        and name not in interp.scope.vars
        and name not in interp.m.globals
        and name not in interp.m.imports.names
    )


def _generated(fi: FunctionInfo, scope: Scope) -> Value:
    """What a loop over a call of the generator ``fi``, whose body ran in ``scope``, sees: its yields one by one (a
    list of them) when the body yields only from straight code and ``for`` loops that were each run once per element
    (``for i in range(0, n - t + 1, t): yield x[i:i + t]`` with n known: the segments of a Transformer-XL stream);
    else any number of elements, each like what it yields."""
    loops = walk_memo("exact-yields", fi.node, _exact_yield_loops)
    if loops is not None and not scope.dead_end and not (loops & scope.rolled) and len(scope.yields) <= MAX_UNROLL:
        return SeqV(tuple(scope.yields), "list")
    return _any_number_of(scope.yields)


def _any_number_of(items: "Sequence[Value]") -> Value:
    """A list of any length whose every element is like one of ``items`` (unknown when they are none)."""
    elem: Value | None = None
    for v in items:
        elem = join_elem(elem, v)
    return ManyV(elem, "list") if elem is not None and elem is not UNKNOWN else UNKNOWN


def _exact_yield_loops(fn: cst.CSTNode) -> frozenset[int] | None:
    """The ``for`` statements a generator's ``yield v`` statements lie in, when every yield is a statement of its own
    in the body or in ``for`` loops (no ``if``, ``while``, ``with``, ``try`` around it, no ``break`` or ``continue`` in
    those loops, no ``else`` clause) and the body has no ``return`` and no ``yield from``; else None."""
    if type(fn) is not cst.FunctionDef or fn.asynchronous is not None or has_own(fn.body, cst.Return):
        return None
    loops: set[int] = set()
    todo: list[tuple[cst.BaseSuite, tuple[int, ...]]] = [(fn.body, ())]
    while todo:
        suite, outer = todo.pop()
        for stmt in suite.body if isinstance(suite, cst.IndentedBlock) else [suite]:
            if type(stmt) is cst.SimpleStatementLine or type(stmt) is cst.SimpleStatementSuite:
                for small in stmt.body:
                    if type(small) is cst.Expr and type(small.value) is cst.Yield:
                        if type(small.value.value) is cst.From:
                            return None
                        loops.update(outer)
                    elif has_own(small, cst.Yield):
                        return None  # (``x = yield v``, a yield inside an expression)
            elif type(stmt) is cst.For and has_own(stmt.body, cst.Yield):
                if stmt.orelse is not None or stmt.asynchronous is not None:
                    return None
                if has_own(stmt.body, cst.Break) or has_own(stmt.body, cst.Continue):
                    return None
                todo.append((stmt.body, (*outer, id(stmt))))
            elif type(stmt) not in (cst.FunctionDef, cst.ClassDef) and has_own(stmt, cst.Yield):
                return None
    return frozenset(loops)


def is_generator(fi: FunctionInfo) -> bool:
    """A function whose body yields (outside any function, lambda or class nested in it)."""

    def find(fn: cst.CSTNode) -> bool:
        if "yield" not in fi.module.text:
            return False  # every tree of the module comes from its text (or from it with bodies blanked): no yield
        return type(fn) is cst.FunctionDef and has_own(fn.body, cst.Yield)

    return walk_memo("generator", fi.node, find)


def ensure_signature(fi: FunctionInfo) -> FunctionInfo:
    """Module-level code runs before the module's signatures are read (they may use aliases it defines): a function
    it calls gets its parameters now (read again, with every alias, once the module level has run)."""
    if not fi.params and not fi.module.module_ran_fully:
        params = signature_params(fi.node, fi.module.annotation_of)
        if params:
            table = fi.module.functions
            old, fi = fi, replace(fi, params=params)
            if table.get(fi.key) is old:
                table[fi.key] = fi
    return fi


_HF_BASES = objects.HF_CONFIG_BASES | objects.HF_MODEL_BASES
# methods of transformers' model and config bases that set no size of the object: weight initialisation and tying
# (same shapes), gradient checkpointing, masks made from their arguments, reads of the config
_HF_KEEPS = frozenset(
    {
        "post_init",
        "init_weights",
        "tie_weights",
        "_backward_compatibility_gradient_checkpointing",
        "gradient_checkpointing_enable",
        "gradient_checkpointing_disable",
        "get_extended_attention_mask",
        "invert_attention_mask",
        "get_head_mask",
        "warn_if_padding_and_no_attention_mask",
        "num_parameters",
        "to_dict",
        "to_diff_dict",
        "to_json_string",
        "get_text_config",
    }
)
# what transformers' PreTrainedModel.__init__ sets on the config it is handed
_HF_MODEL_SETS = (
    "_attn_implementation",
    "_attn_implementation_internal",
    "_attn_implementation_autoset",
    "_experts_implementation",
    "_experts_implementation_internal",
)


def _hf_config_super_init(interp: Interpreter, args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> None:
    """``super().__init__(**kwargs)`` reaching transformers' config base: it sets its own attributes
    (objects.HF_CONFIG_OWNED: ``num_labels`` back to 2, the token ids...) and stores each other keyword it is handed,
    so what the subclass assigned before under those names is not what the object holds; its other attributes are
    kept. Arguments of unknown content (or positional ones, which it refuses) leave every attribute unknown."""
    known = not dynamic and not args
    held = interp.scope.vars
    for k in [k for k in held if k.startswith("self.")]:
        attr = k[5:].rstrip("?")
        if not known or attr in objects.HF_CONFIG_OWNED or attr in kwargs:
            held[k] = UNKNOWN
    if known:
        for attr, v in kwargs.items():
            held["self." + attr] = UNKNOWN if attr in objects.HF_CONFIG_OWNED else v


def _torch_module_class(m: ModuleAnalysis, ci: ClassInfo) -> bool:
    """Is ``ci`` a torch module: a class of its MRO has ``torch.nn.Module`` or a torch.nn layer as a base?"""
    return any(b.startswith("torch.nn.") for b in objects.foreign_bases(m, ci))


def _length(v: Value) -> Value:
    """``len(v)``: a tuple's or shape's item count, a tensor's first dimension, a string's length, a dict's (or an
    ``nn.ModuleDict``'s) number of keys."""
    if isinstance(v, SeqV):
        return IntV(Size.const(len(v.items)))
    if (isinstance(v, DictV) and v.kind in ("dict", "moduledict")) or isinstance(v, IntDictV):
        keys = [k for k, _ in v.items]
        return IntV(Size.const(len(keys))) if len(set(keys)) == len(keys) else UNKNOWN
    if isinstance(v, TensorV) and v.shape:
        return IntV(v.shape[0])
    if isinstance(v, StrV):
        return IntV(Size.const(len(v.value)))
    return UNKNOWN


# torch.nn.Module methods that return the module itself, its sizes unchanged
# torch.nn.Module methods installing a hook that may change a call's input (pre-hook) or output (forward hook)
_FORWARD_HOOKS = frozenset({"register_forward_pre_hook", "register_forward_hook"})
_RETURNS_SELF = frozenset(
    {
        "eval",
        "train",
        "cuda",
        "cpu",
        "requires_grad_",
        "share_memory",
        "to",
        "half",
        "float",
        "double",
        "bfloat16",
        "to_empty",
    }
)
# torch.autograd.Function and the names torch also exports it under
_AUTOGRAD_FUNCTIONS = frozenset(
    {"torch.autograd.Function", "torch.autograd.function.Function", "torch.autograd.function.InplaceFunction"}
)
# jax's functional index updates: x.at[idx].set(v) has x's shape and dtype
_AT_UPDATES = frozenset({"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"})


def _at_array(node: cst.BaseExpression, maker: "Callable[[cst.Call], bool] | None" = None) -> cst.BaseExpression | None:
    """``x`` of ``x.at[idx]`` when ``x`` is a variable or ``self.x`` (reading it again runs nothing), or an update
    itself (``x.at[2, 18:].set(0).at[3, 10:].set(0)``: the chain's first update is evaluated once, as the array), the
    chain starting at a variable or at a call ``maker`` accepts (a jax array maker:
    ``jnp.zeros((8, 64)).at[:, 3].set(1.0).at[:, 32].set(1.0)``)."""
    if type(node) is cst.Subscript and type(node.value) is cst.Attribute and node.value.attr.value == "at":
        arr = node.value.value
        if _var_key_of(arr) is not None:
            return arr
        if type(arr) is cst.Call and type(arr.func) is cst.Attribute and arr.func.attr.value in _AT_UPDATES:
            return arr if _at_array(arr.func.value, maker) is not None else None
        if type(arr) is cst.Call and maker is not None and maker(arr):
            return arr
    return None


# the LayerV kind of an ``einops_exts.torch.EinopsToAndFrom`` module
EINOPS_TO_AND_FROM = "EinopsToAndFrom"


# calls that always raise or end the process
_NEVER_RETURNS = frozenset(
    {
        "sys.exit",
        "os._exit",
        "os.abort",
        "pytest.skip",
        "pytest.fail",
        "pytest.exit",
        "pytest.xfail",
        "typing.assert_never",
        "typing_extensions.assert_never",
    }
)


def _trace_decorator(fi: FunctionInfo) -> TraceSpec | None:
    """``@jax.jit`` / ``@partial(jax.jit, static_argnums=1)`` / ``@jax.jit(static_argnames="n")`` /
    ``@jax.checkpoint`` on a def: its static arguments (None: no such decorator, or its options not known)."""
    for d in fi.node.decorators:
        text = d.decorator
        if type(text) in (cst.Name, cst.Attribute):
            if fi.module.qualify(text) in TRACES:
                return frozenset(), frozenset()
            continue
        if type(text) is not cst.Call or type(text.func) not in (cst.Name, cst.Attribute):
            continue
        q = fi.module.qualify(text.func)
        opts: Sequence[cst.Arg] | None = None
        if q in TRACES:
            opts = text.args
        elif q == "functools.partial" and text.args and text.args[0].keyword is None:
            inner = text.args[0].value
            if type(inner) in (cst.Name, cst.Attribute) and fi.module.qualify(inner) in TRACES:
                opts = text.args[1:]
        if opts is None:
            continue
        if any(a.keyword is None or a.star for a in opts):
            return None
        return trace_spec({a.keyword.value: static_literal(a.value) for a in opts if a.keyword is not None})
    return None


def _traced(v: Value, depth: int = 0) -> Value:
    """What a traced function sees for an argument value: a Python number or bool is a 0-d array of unknown value
    (its dtype left unknown: a weakly typed scalar takes the other operand's), inside tuples, lists and dicts too."""
    if isinstance(v, (IntV, FloatV, BoolV)):
        return TensorV((), None, "jax")
    if depth > 8:
        return UNKNOWN
    if isinstance(v, SeqV) and v.kind in ("tuple", "list", "shape"):
        return SeqV(tuple(_traced(x, depth + 1) for x in v.items), "tuple" if v.kind == "shape" else v.kind, v.names)
    if isinstance(v, DictV) and v.kind == "dict":
        return DictV(tuple((k, _traced(x, depth + 1)) for k, x in v.items))
    if isinstance(v, ManyV) and v.kind == "list":
        return ManyV(None if v.elem is None else _traced(v.elem, depth + 1), v.kind)
    return v


def _trace_arguments(
    spec: TraceSpec, positional: Sequence[str] | None, offset: int, args: list[Value], kwargs: dict[str, Value]
) -> tuple[list[Value], dict[str, Value]]:
    """The arguments a traced function receives: those not static traced (``_traced``). ``positional``: the names of
    its positional parameters (None: not known; a name then matches only by keyword, a position only by position),
    ``offset``: how many of them the call does not pass (a method's ``self``), counted in the static positions."""
    nums, names = spec
    params = list(positional or ())

    def static(pos: int | None, name: str | None) -> bool:
        if pos is None and name is not None and name in params:
            pos = params.index(name)
        if name is None and pos is not None and pos < len(params):
            name = params[pos]
        return (pos is not None and pos in nums) or (name is not None and name in names)

    out_args = [a if static(i + offset, None) else _traced(a) for i, a in enumerate(args)]
    out_kwargs = {k: a if static(None, k) else _traced(a) for k, a in kwargs.items()}
    return out_args, out_kwargs


def _grad_decorator(fi: FunctionInfo) -> tuple[str, dict[str, Value]] | None:
    """``@jax.grad`` / ``@jax.value_and_grad`` / ``@eqx.filter_grad`` / ``@eqx.filter_value_and_grad`` on a plain
    function, bare or as ``@partial(eqx.filter_value_and_grad, has_aux=True)`` with literal options, its other
    decorators keeping the shapes (``@eqx.filter_jit``): the transform's qualified name and its options."""
    if fi.rebound or fi.cls_key is not None:
        return None
    found: tuple[str, dict[str, Value]] | None = None
    for dec in fi.node.decorators:
        d = dec.decorator
        options: dict[str, Value] = {}
        if (
            type(d) is cst.Call
            and type(d.func) in (cst.Name, cst.Attribute)
            and fi.module.qualify(d.func) == "functools.partial"
            and d.args
            and not d.args[0].keyword
            and not d.args[0].star
        ):
            for a in d.args[1:]:
                literal = _literal_option(a.value)
                if a.keyword is None or a.star or literal is None:
                    return None
                options[a.keyword.value] = literal
            d = d.args[0].value
        q = fi.module.qualify(d) if type(d) in (cst.Name, cst.Attribute) else None
        if q in GRADS and found is None:
            found = (q, options)
        elif fi.unknown_decorator(dec):
            return None
    return found


def _annotations_checked(fi: FunctionInfo) -> bool:
    """May a call of ``fi`` be checked against its annotations when it runs: a decorator that checks them
    (``@jaxtyped(typechecker=beartype)``, ``@beartype``, ``@typechecked``) or is not known, or jaxtyping's /
    beartype's import hook named in its module?"""
    for d in fi.node.decorators:
        if fi.unknown_decorator(d) or any(w in fi.module.code_for(d) for w in _CHECKING_DECORATORS):
            return True
    return any(w in fi.module.text for w in _CHECKING_HOOKS)


_CHECKING_DECORATORS = ("jaxtyped", "typecheck", "beartype")
_CHECKING_HOOKS = ("install_import_hook", "beartype_this_package", "beartype.claw")


def _literal_option(e: cst.BaseExpression) -> Value | None:
    """``True`` / ``False`` / an int literal of a transform's option (``has_aux=True``, ``argnums=1``)."""
    if type(e) is cst.Name and e.value in ("True", "False"):
        return BoolV(e.value == "True")
    if type(e) is cst.Integer:
        return IntV(Size.const(int(e.value)))
    return None


def _iter_builtin(name: str, args: list[Value], start: int = 0) -> Value:
    """``enumerate`` (counting from ``start``) / ``zip`` / ``reversed`` over tuples and lists the analysis knows
    (element values kept)."""
    if name == "enumerate" and len(args) == 1:
        a = tensor_items(args[0])  # an array enumerates its slices along axis 0; a shape its sizes
        if isinstance(a, SeqV):
            return SeqV(tuple(SeqV((IntV(Size.const(i)), v)) for i, v in enumerate(a.items, start)), "tuple")
        if isinstance(a, ManyV) and a.elem is not None:
            return ManyV(SeqV((UNKNOWN, a.elem)), "tuple")
        return UNKNOWN
    if name == "reversed" and len(args) == 1:
        a = args[0]
        if isinstance(a, SeqV):
            return SeqV(tuple(reversed(a.items)), "tuple")
        return ManyV(a.elem, "tuple") if isinstance(a, ManyV) else UNKNOWN
    if name == "zip" and args:
        args = [tensor_items(a) for a in args]
        seqs = [a for a in args if isinstance(a, SeqV)]
        if len(seqs) == len(args):
            n = min(len(a.items) for a in seqs)
            return SeqV(tuple(SeqV(tuple(a.items[i] for a in seqs)) for i in range(n)), "tuple")
        elems = [elements_of(a) for a in args]
        if all(e is not None for e in elems):
            return ManyV(SeqV(tuple(elems)), "tuple")  # type: ignore[arg-type]
    return UNKNOWN


MAX_RECURSION = 4  # frames of one function running at once, for a recursion over settings (_recursion_stops)


def _recursion_stops(fi: FunctionInfo, bound: dict[str, Value]) -> bool:
    """Is a call of ``fi`` not followed because it is running already? A free function given settings only (known
    numbers, strings, None, and tuples, lists and dicts of them: ``merge(base, override)`` calling itself on the
    nested dicts) recurses as Python does, while the settings get smaller, up to MAX_RECURSION frames; any other
    recursive call is not followed."""
    running = function_state(fi).analysing
    if not running:
        return False
    return (
        fi.cls_key is not None
        or running >= MAX_RECURSION
        or not all(_setting(v, 3) or _module_object(v) for v in bound.values())
    )


def _module_object(v: Value) -> bool:
    """A module object the analysis built (``inject_lora(child, ...)`` recursing into a model's children: the tree
    is finite, and each call gets a part of the one before)."""
    return (isinstance(v, ObjV) and v.concrete) or (isinstance(v, LayerV) and v.kind != "either")


def _setting(v: Value, depth: int) -> bool:
    if isinstance(v, IntV):
        return v.size.as_int() is not None
    if isinstance(v, (FloatV, BoolV, StrV, NoneV)):
        return True
    if isinstance(v, RefV) and v.qualname.startswith("class:"):
        return True  # a class (``from_dict(field.default_factory, d)`` building a nested config)
    if depth and isinstance(v, SeqV):
        return all(_setting(x, depth - 1) for x in v.items)
    if depth and isinstance(v, DictV) and v.kind == "dict":
        return all(_setting(x, depth - 1) for _, x in v.items)
    return False


def _range(args: list[Value]) -> Value:
    """``range(depth)``, ``range(1, n, 2)`` of known ints: its elements (a loop over it runs once per element)."""
    bounds = [a.size.as_int() if isinstance(a, IntV) else None for a in args]
    if not 1 <= len(bounds) <= 3 or any(b is None for b in bounds):
        return UNKNOWN
    ints = [b for b in bounds if b is not None]
    if len(ints) == 3 and ints[2] == 0:
        return UNKNOWN
    r = range(*ints)
    if len(r) > MAX_RANGE:
        return UNKNOWN
    return SeqV(tuple(IntV(Size.const(i)) for i in r), "range")


def _held_at(interp: Interpreter, key: str) -> Value | None:
    """What the variable ``key`` holds; for ``self.x`` not assigned in the method, the attribute of ``self``."""
    v = interp.scope.vars.get(key)
    if v is None and key.startswith("self."):
        own = interp.scope.vars.get("self")
        v = own.attr(key[5:]) if isinstance(own, ObjV) else None
    return v


# during the first method run on an object just built: the objects a method ran on (by _object_key, which a copy
# without constructor values shares), and the submodules of its module lists that have constructor values of their
# own, by the same key; one already run on is not run on its constructor values again (_fresh_through_loop_variable)
_CONSUMED: list[tuple[set[int | tuple[int, str, int]], dict[int, ObjV]]] = []


def _in_constructor(interp: Interpreter) -> bool:
    """Does ``interp`` run a constructor (or a helper it calls on the object being built), not a method run on an
    object whose attributes it keeps (call_on_local_object's frames are building ones too)?"""
    return interp.frame.building and interp.frame.key.rsplit(".", 1)[-1] in ("__init__", "setup", "__post_init__")


def _called_name(node: cst.CSTNode) -> str | None:
    """``attn`` of ``attn(x)`` / ``attn.forward(x)``."""
    if type(node) is not cst.Call:
        return None
    func = node.func
    if type(func) is cst.Attribute and func.attr.value == "forward":
        func = func.value
    return func.value if type(func) is cst.Name and func.value != "self" else None


def _fresh_through_loop_variable(interp: Interpreter, node: cst.CSTNode, obj: ObjV) -> ObjV | None:
    """``attn(x)`` (or ``attn.forward(x)``) with ``attn`` a local name holding ``obj``, a submodule of a module list of
    the object whose first method run is under way (``_CONSUMED`` open), when no method has run on it yet and no
    other name holds it but ``self`` (through the module list the loop reads): that submodule with its constructor
    values (ObjV.fresh)."""
    name = _called_name(node)
    if not _CONSUMED or name is None or interp.scope.vars.get(name) is not obj:
        return None
    consumed, listed = _CONSUMED[-1]
    ident = _object_key(obj)
    if ident in consumed or ident not in listed or _listed_place(interp, node, obj) in consumed:
        return None
    # (``self`` holds it through the module list, and so do the ``self.x`` names of a method run on an object whose
    # attributes it keeps: call_on_local_object)
    if any(
        k != name and k != "self" and not k.startswith("self.") and (v is obj or _holds(v, obj, 3))
        for k, v in interp.scope.vars.items()
    ):
        return None
    return listed[ident]


def _listed_place(interp: Interpreter, node: cst.CSTNode, obj: ObjV) -> tuple[int, str, int] | None:
    """For ``blk(x)`` with ``blk`` the variable of a loop over a module list (Interpreter.loop_items): the object and
    its place in the list (the list's name and the index)."""
    name = _called_name(node)
    if name is None or not interp.loop_items:
        return None
    rec = interp.loop_items.get(name)
    if type(rec) is not list or rec[2] is None or interp.scope.vars.get(name) is not obj:
        return None
    return (_object_key(obj), rec[0], rec[2])


def _unshared(interp: Interpreter, key: str, v: Value) -> Value:
    """A submodule's constructor values (ObjV.fresh) kept while no variable but ``key``'s object holds it (one handed
    to the constructor by a caller that kept it may have had methods run on it since)."""
    if not isinstance(v, ObjV) or not v.fresh:
        return v

    if any(k != key and (x is v or _holds(x, v, 3)) for k, x in interp.scope.vars.items()):
        return objects.stale(v)
    return v


def _built_by_entry_point(
    m: "ModuleAnalysis", interp: Interpreter, node: cst.Call, bound_self: Value | None
) -> "tuple[str | LazyNote, ...]":
    """``model(x)`` or ``model.forward(x)`` in an entry point (a test, a main block) on an object it built: a note
    naming where ``model`` got the sizes a finding of the call fails with."""
    if interp.frame.depth or not isinstance(bound_self, ObjV) or type(node) is not cst.Call:
        return ()  # (a property read reaches its getter with the attribute node)
    func = node.func.value if type(node.func) is cst.Attribute else node.func
    if type(func) is not cst.Name:
        return ()
    site = m.ctx.obj_sites.get((interp.frame.key, func.value))
    return (note(f"{func.value} was built at ", Where(m, site)),) if site is not None else ()


def _local_object_key(interp: Interpreter, node: cst.CSTNode, obj: ObjV) -> str | None:
    """The local variable (not ``self``) the call ``v(...)`` / ``v.method(...)`` is made on, when it holds ``obj``
    and no other variable holds the same object."""
    if type(node) is not cst.Call:
        return None  # a property read, a decorator: no variable the call is made on
    func = node.func
    base = func.value if type(func) is cst.Attribute else func
    if type(func) is cst.Attribute and type(base) is cst.Name and base.value == "self":
        # ``self.head(x)`` in a method run for an object just built: its submodule kept its constructor's values
        # (objects.fresh_attrs), read from ``self.head`` alone
        key = "self." + func.attr.value
    elif type(base) is cst.Name and base.value != "self":
        key = base.value
    else:
        return None
    if _held_at(interp, key) is not obj:
        return None

    # (``self`` itself holds its submodule: what matters is that no other variable or attribute does)
    skip = "self" if key.startswith("self.") else key
    if any(k != key and k != skip and (v is obj or _holds(v, obj, 3)) for k, v in interp.scope.vars.items()):
        return None
    return key


def _one_slice(xs: Value) -> tuple[Size, Value] | None:
    """What ``jax.lax.scan`` / ``jax.lax.map`` hand ``f`` of ``xs`` (an array, or a tuple of arrays with one leading
    length n): n, and one slice (the leading axis removed; a tuple of slices for a tuple). None when unknown."""
    seqs = list(xs.items) if isinstance(xs, SeqV) and xs.kind == "tuple" else [xs]
    arrays = [t for t in seqs if isinstance(t, TensorV) and t.shape]
    if not seqs or len(arrays) != len(seqs):
        return None
    n = arrays[0].shape[0]  # type: ignore[index]
    if any(t.shape[0] != n for t in arrays):  # type: ignore[index]
        return None
    sliced = [t.with_shape(t.shape[1:]) for t in arrays]  # type: ignore[index]
    return n, SeqV(tuple(sliced), "tuple") if isinstance(xs, SeqV) else sliced[0]


def _changed_carry(given: Value, returned: Value, name: str, depth: int = 4) -> tuple[str, TensorV, TensorV] | None:
    """The first component of a scan carry whose shape the body definitely changed: its name (``carry[1]``), the
    array given (``init``'s, a Python number being a 0-d array) and the one returned. Tuples and lists are followed
    item by item when both sides have as many, records of one class (a NamedTuple ``State(deter, stoch)``) field by
    field; unknown shapes, shapes with alternatives and sizes that may be equal give None."""
    if isinstance(given, (IntV, FloatV, BoolV)):
        given = TensorV((), None, "jax")
    if isinstance(given, TensorV) and isinstance(returned, TensorV):
        a, b = given.shape, returned.shape
        if a is None or b is None or given.alts or returned.alts:
            return None
        if surely_differ(a, b):
            return name, given, returned
        return None
    if (
        depth > 0
        and isinstance(given, SeqV)
        and isinstance(returned, SeqV)
        and given.kind in ("tuple", "list")
        and returned.kind == given.kind
        and len(given.items) == len(returned.items)
    ):
        for i, (g, r) in enumerate(zip(given.items, returned.items)):
            got = _changed_carry(g, r, f"{name}[{i}]", depth - 1)
            if got is not None:
                return got
    if (
        depth > 0
        and isinstance(given, ObjV)
        and isinstance(returned, ObjV)
        and given.concrete
        and returned.concrete
        and given.cls_key == returned.cls_key
    ):
        # a NamedTuple (or another record) of arrays: field by field
        held = dict(returned.attrs)
        for k, g in given.attrs:
            if k in held:
                got = _changed_carry(g, held[k], f"{name}.{k}", depth - 1)
                if got is not None:
                    return got
    return None


def _final_carry(init: Value, carry: Value, depth: int = 4) -> Value:
    """The carry ``jax.lax.scan`` returns: jax requires the body's carry to have the structure, shapes and dtypes of
    ``init`` (it raises otherwise), so each array of ``init`` whose shape is known gives its shape (the body's value
    when it agrees); a tuple or list of them is followed item by item. Anything else (a Python number, unknown
    shapes) is unknown."""
    if isinstance(init, TensorV):
        if init.shape is None:
            return UNKNOWN
        if isinstance(carry, TensorV) and carry.shape == init.shape:
            return carry
        return init.with_shape(init.shape)
    if depth > 0 and isinstance(init, SeqV) and init.kind in ("tuple", "list"):
        same = isinstance(carry, SeqV) and carry.kind == init.kind and len(carry.items) == len(init.items)
        items = carry.items if isinstance(carry, SeqV) and same else (UNKNOWN,) * len(init.items)
        return SeqV(tuple(_final_carry(i, c, depth - 1) for i, c in zip(init.items, items)), init.kind)
    return UNKNOWN


def _swap_leading(v: Value) -> Value:
    """``jnp.swapaxes(x, 0, 1)`` of each array of ``v`` (haiku's batch-major unrolls: ``_swap_batch_time``)."""
    if isinstance(v, TensorV):
        return v.with_shape((v.shape[1], v.shape[0]) + v.shape[2:]) if v.shape and len(v.shape) >= 2 else UNKNOWN
    if isinstance(v, SeqV) and v.kind == "tuple":
        return SeqV(tuple(_swap_leading(i) for i in v.items), "tuple", v.names)
    return UNKNOWN


def _stacked(r: Value, n: Size) -> Value:
    """What ``jax.lax.scan`` / ``jax.lax.map`` make of one step's result: each array with a leading axis n."""
    if isinstance(r, TensorV) and r.shape is not None:
        return r.with_shape((n,) + r.shape)
    if isinstance(r, SeqV) and r.kind == "tuple":
        return SeqV(tuple(_stacked(i, n) for i in r.items), "tuple")
    return UNKNOWN


def _on_own_self(interp: Interpreter, node: cst.CSTNode, obj: ObjV) -> bool:
    """Is ``node`` ``self.method(...)`` (or ``self(...)``, its forward) in a method (not a constructor) run for the
    concrete object ``obj``? (A method run for an object already built runs with ``building`` set too, so that
    it hands back what it assigns: its own ``self.method(...)`` calls are such calls; a constructor's are not.)"""
    if interp.frame.cls_key is None or type(node) is not cst.Call:
        return False
    held = interp.scope.vars.get("self")
    if interp.frame.building:
        ci = interp.m.find_class(obj.cls_key)
        if ci is None or class_state(ci).building:
            return False
        held = interp.frame.self_value  # (the frame's ``self`` variable stands for the object being changed)
    func = node.func
    if type(func) is cst.Attribute:
        func = func.value
    return type(func) is cst.Name and func.value == "self" and held is obj


def _with_own_attrs(interp: Interpreter, obj: ObjV) -> ObjV:
    """``obj`` (the ``self`` of the method ``interp`` runs) with the attributes as the method's ``self.x`` hold them
    now, for a method called on it next (``self.fit(x)`` assigned them, the caller's body may have too)."""
    own = {k[5:]: v for k, v in interp.scope.vars.items() if k.startswith("self.") and not k.startswith("self.<")}
    attrs = dict(obj.attrs)
    if all(attrs.get(k) is v for k, v in own.items()):
        return obj
    attrs.update(own)
    return replace(obj, attrs=tuple(attrs.items()))


def _through_loop_variable(
    interp: Interpreter, node: cst.CSTNode, obj: ObjV
) -> tuple[cst.BaseExpression, cst.Name] | None:
    """For ``blk.method(...)`` / ``blk.attn.method(...)`` / ``blk(...)`` on ``obj``, with ``blk`` the variable of a
    loop over a list (Interpreter.loop_items): the receiver and ``blk``."""
    if type(node) is not cst.Call:
        return None
    if type(node.func) is cst.Attribute:
        recv = node.func.value
    elif type(node.func) is cst.Name:
        recv = node.func
    else:
        return None
    root = recv
    while type(root) is cst.Attribute:
        root = root.value
    if type(root) is not cst.Name or root.value not in interp.loop_items:
        return None
    held = interp.scope.vars.get(root.value)
    if not isinstance(held, ObjV) or not held.concrete:
        return None
    at: Value | None = held
    for name in attr_path(recv, root) or ():
        at = at.attr(name) if isinstance(at, ObjV) else None
    # (or that object with its constructor's values: the first call of a listed module, _fresh_through_loop_variable)
    return (recv, root) if at is obj or (type(at) is ObjV and _object_key(at) == _object_key(obj)) else None


def _on_new_object(node: cst.CSTNode, obj: ObjV) -> bool:
    """Is ``node`` a method call on the object its receiver's constructor call just built (``KMeans(k).fit(x)``)?
    No variable holds that object, so what the method assigns to ``self`` is only seen through what it returns."""
    if type(node) is not cst.Call or type(node.func) is not cst.Attribute:
        return False
    base = node.func.value
    if type(base) is not cst.Call:
        return False
    name = (dotted(base.func) or "").rsplit(".", 1)[-1]
    return bool(name) and obj.cls_key.replace(":", ".").rsplit(".", 1)[-1] == name


def _returns_self(fi: FunctionInfo) -> bool:
    """Does the method end with ``return self`` (its first parameter)? (An equal value is not enough: instances
    built with the same arguments share one value, ``return Scaler()`` would look the same.)"""
    body = fi.node.body
    if type(body) is not cst.IndentedBlock or not body.body or not fi.params:
        return False
    last = body.body[-1]
    if type(last) is not cst.SimpleStatementLine or len(last.body) != 1:
        return False
    ret = last.body[0]
    return type(ret) is cst.Return and type(ret.value) is cst.Name and ret.value.value == fi.params[0].name


def _int_dict_read(base: IntDictV, method: str, args: list[Value]) -> Value | None:
    """``d.keys()`` / ``values()`` / ``items()`` / ``copy()`` / ``get(k[, default])`` of an int-keyed dict with known
    keys (a key it lacks is absent); None when the key is not a known int."""
    if method == "get":
        key = args[0] if 1 <= len(args) <= 2 else None
        n = key.size.as_int() if isinstance(key, IntV) and not key.assumed else None
        if n is None:
            return None
        present = any(k == n for k, _ in base.items)
        return base.get(n) if present else (args[1] if len(args) == 2 else NoneV())
    if args:
        return None
    if method == "copy":
        return IntDictV(base.items)
    if method == "values":
        return SeqV(tuple(v for _, v in base.items), "tuple")
    if method == "keys":
        return SeqV(tuple(IntV(Size.const(k)) for k, _ in base.items), "tuple")
    return SeqV(tuple(SeqV((IntV(Size.const(k)), v)) for k, v in base.items), "tuple")


def _dict_get_or_pop(
    interp: Interpreter, receiver: cst.BaseExpression, base: DictV, method: str, args: list[Value]
) -> Value | None:
    """``d.get(k[, default])``, ``d.pop(k[, default])`` and ``d.setdefault(k[, default])`` of a dict value with the
    known key ``k``. A pop changes the dict in place: the variable that names it holds it without ``k`` from here (a
    receiver that is not a plain variable: None, the call is not modelled), and any other name that holds it, or
    holds it inside (``cfg`` after ``enc_cfg = cfg["encoder"]``), is forgotten, as an item assignment does. A key
    that is absent with no default: None (``get``: None; ``pop`` raises KeyError). ``setdefault`` of a key the dict
    has reads it; of one it lacks, adds it with the default (None without one), changing the dict as a pop does
    (``kwargs.setdefault("patch_size", 1)`` in a model factory)."""
    first = args[0]
    assert isinstance(first, StrV)
    key = first.value
    present = any(k == key for k, _ in base.items)
    if method == "get" or (method == "setdefault" and present):
        return base.get(key) if present else (args[1] if len(args) == 2 else NoneV())
    var = _var_key_of(receiver)
    if var is None or (var.startswith("self.") and not interp.frame.building) or interp.scope.vars.get(var) is not base:
        return None
    if not present and len(args) == 1 and method == "pop":
        return None
    if method == "setdefault":
        default = args[1] if len(args) == 2 else NoneV()
        for other, held in list(interp.scope.vars.items()):
            if other != var and (held is base or _holds(held, base, 3)):
                interp.scope.vars[other] = UNKNOWN
        interp.scope.vars[var] = DictV((*base.items, (key, default)), base.kind)
        return default

    for other, held in list(interp.scope.vars.items()):
        if other != var and (held is base or _holds(held, base, 3)):
            interp.scope.vars[other] = UNKNOWN
    if not present:
        return args[1]
    interp.scope.vars[var] = DictV(tuple((k, v) for k, v in base.items if k != key), base.kind)
    return base.get(key)


def _unpacked_scalars(interp: Interpreter, node: cst.BaseExpression) -> bool:
    """``f(*xs)`` of a variable holding a list of numbers, strings, booleans or None (``*_, i, j = x.shape`` then
    ``x.view(*_, -1)``): the callee gets a new tuple of those immutable items, so the list is unchanged."""
    key = _var_key_of(node)
    v = interp.scope.vars.get(key) if key is not None else None
    return isinstance(v, SeqV) and all(isinstance(x, (IntV, FloatV, BoolV, StrV, NoneV)) for x in v.items)


def _unpacked_dict(interp: Interpreter, node: cst.BaseExpression) -> bool:
    """``f(**cfg)`` of a variable holding a dict value: the callee gets a new dict of its entries, so ``cfg`` keeps
    them, but the lists, dicts and objects among them are the very ones the callee gets (and may change): those
    entries are unknown from here. False: not such a variable."""
    key = _var_key_of(node)
    # (``Conformer(**self.config)`` in the constructor, where ``self.config`` is a variable of the constructor's)
    own = key is not None and (not key.startswith("self.") or interp.frame.building)
    v = interp.scope.vars.get(key) if key is not None and own else None
    if not isinstance(v, DictV) or v.kind != "dict" or key is None:
        return False
    immutable = (IntV, FloatV, BoolV, StrV, NoneV, TensorV)
    interp.scope.vars[key] = DictV(
        tuple(
            (k, x if isinstance(x, immutable) or (isinstance(x, SeqV) and x.kind == "tuple") else UNKNOWN)
            for k, x in v.items
        ),
        v.kind,
    )
    return True


def _literal_start(node: cst.BaseExpression) -> str:
    """The literal text an f-string or a concatenation starts with (``f"optim{i}"``, ``"layer_" + str(i)``)."""
    if type(node) is cst.FormattedString and node.parts and type(node.parts[0]) is cst.FormattedStringText:
        return node.parts[0].value
    if type(node) is cst.BinaryOperation and type(node.operator) is cst.Add and type(node.left) is cst.SimpleString:
        text = node.left.evaluated_value
        return text if isinstance(text, str) else ""
    return ""


def _library_method(m: "ModuleAnalysis", obj: ObjV, method: str) -> bool:
    """No class of the analysed code on ``obj``'s MRO defines ``method``: it is torch's (``register_module``)."""
    ci = m.find_class(obj.cls_key)
    return ci is not None and objects.find_method(m, ci, method) is None


def _names_self(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Name and node.value == "self"


def _instance_dict_of_self(node: cst.BaseExpression) -> bool:
    """``self.__dict__`` or ``vars(self)``."""
    if type(node) is cst.Attribute:
        return node.attr.value == "__dict__" and _names_self(node.value)
    return (
        type(node) is cst.Call
        and type(node.func) is cst.Name
        and node.func.value == "vars"
        and len(node.args) == 1
        and _names_self(node.args[0].value)
    )


def _import_names(stmt: cst.CSTNode) -> set[str]:
    """The names the import statements in ``stmt`` bind (not those inside a def, class or lambda)."""
    out: set[str] = set()
    for node in _imports_in(stmt):
        if not isinstance(node.names, cst.ImportStar):
            for alias in node.names:
                bound = alias.asname.name if alias.asname is not None else alias.name
                name = dotted(bound)
                if name:
                    out.add(name.split(".", 1)[0])
    return out


def _imports_in(stmt: cst.CSTNode) -> "list[cst.Import | cst.ImportFrom]":
    """The import statements in ``stmt``, not those inside a def, class or lambda, in the order of a depth-first walk
    from the last child: only statements and their clauses are entered (an expression holds no import)."""

    holders = _IMPORT_HOLDERS
    out: list[cst.Import | cst.ImportFrom] = []
    stack: list[cst.CSTNode] = [stmt]
    while stack:
        node = stack.pop()
        tp = type(node)
        if tp is cst.Import or tp is cst.ImportFrom:
            out.append(node)  # type: ignore[arg-type]
        elif tp is not cst.FunctionDef and tp is not cst.ClassDef and tp is not cst.Lambda:
            stack.extend(c for c in children(node) if type(c) in holders)
    return out


# what an import statement can lie in (or be): compound statements, their clauses and blocks, statement lines
_IMPORT_HOLDERS = STATEMENT_CLAUSES | {cst.SimpleStatementLine, cst.SimpleStatementSuite, cst.Import, cst.ImportFrom}


def _star_imports(stmt: cst.CSTNode) -> list[tuple[int, str]]:
    """(level, module) of the ``from m import *`` statements in ``stmt`` (not inside a def, class or lambda)."""

    out: list[tuple[int, str]] = []
    for node in _imports_in(stmt):
        if type(node) is cst.ImportFrom and type(node.names) is cst.ImportStar:
            out.append((len(node.relative), _module_name(node.module)))
    return out


def _names_shadowing_imports(tree: cst.Module, records: Sequence[Any]) -> frozenset[str]:
    """See ``ModuleAnalysis._shadowed_imports``: module-level statements in order, the last import of each name
    against the last def, class or assignment binding it."""
    nested = {r.asname or (r.name if r.name else r.module.split(".", 1)[0]) for r in records if r.nested}
    last_import: dict[str, int] = {}
    last_local: dict[str, int] = {}
    for i, stmt in enumerate(tree.body):
        for name in _import_names(stmt):
            last_import[name] = i
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            local = {stmt.name.value}
        else:
            local = _rebound_names(stmt)
            if type(stmt) is not cst.SimpleStatementLine:
                local |= _nested_def_names(stmt)
        for name in local:
            last_local[name] = i
    return frozenset(n for n, i in last_local.items() if n in last_import and i > last_import[n] and n not in nested)


def _building_instance(interp: "Interpreter") -> bool:
    """Is ``interp`` running a constructor (or a helper it calls) on the instance being built?"""
    return interp.frame.building and interp.frame.cls_key is not None


def _chain_call(p: Pending, callee: "ModuleAnalysis") -> cst.CSTNode | None:
    """For a finding of an nn.Sequential link reported on the line that built the link (layers._name_call), the call
    that gave the chain its input (``s1 = self.enc1(x)`` in forward): where the callee raised it."""
    from ..rules.shapes_bridge import Origin

    for n in p.notes:
        if isinstance(n, LazyNote):
            for part in n.parts:
                if type(part) is Origin and part.prefix == layer_rules.CHAIN_INPUT and part.module is callee:
                    return part.node
    return None


def _var_key_of(node: cst.BaseExpression) -> str | None:

    return _var_key(node)


# nn.Module methods that only read the module tree: a ModuleList they are called on keeps its modules
_MODULE_READS = MODULE_READS

_CHILD_WALKS = frozenset({"children", "named_children"})

_ARG_KEEPING_LIST_METHODS = frozenset({"append", "extend", "insert", "index", "count", "remove"})


def _scalar_list(v: Value) -> bool:
    """A list whose items are all numbers, strings, booleans or None, or tuples of them (``list(zip(dims[:-1],
    dims[1:]))``): no item can be changed in place."""
    return isinstance(v, SeqV) and v.kind == "list" and all(_frozen_item(x) for x in v.items)


def _frozen_item(v: Value, depth: int = 0) -> bool:
    if isinstance(v, (IntV, FloatV, BoolV, StrV, NoneV)):
        return True
    return isinstance(v, SeqV) and v.kind == "tuple" and depth < 3 and all(_frozen_item(x, depth + 1) for x in v.items)


def _list_method_call(interp: Interpreter, func: cst.BaseExpression) -> bool:
    """``xs.append(block)`` on a variable (or ``self.x``) known to hold a list or an ``nn.ModuleList``: the list's own
    methods never change their arguments, so ``block`` (and what else holds it: the list itself, when the same
    instance was appended before) stays as it was. The list is grown, or forgotten, by the method call itself."""
    if type(func) is not cst.Attribute or func.attr.value not in _ARG_KEEPING_LIST_METHODS:
        return False
    key = _var_key_of(func.value)
    base = interp.scope.vars.get(key) if key is not None else None
    return isinstance(base, (SeqV, ManyV)) and base.kind in ("list", "modulelist")


def _list_helper_shape(fn: cst.CSTNode) -> tuple[str, str, tuple[str | int, ...]] | None:
    """``def f(arr, el): arr.append(el)`` / ``f = lambda arr, el: arr.insert(0, el)`` (a lambda's function returns the
    call's None): (the list parameter, the method, its arguments: parameter names or int literals) when the body (a
    docstring aside) is that one call, with nothing but parameters and ints in it."""
    assert type(fn) is cst.FunctionDef
    body = fn.body
    stmts = list(body.body) if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)) else []
    lines = [s for s in stmts if not (type(s) is cst.SimpleStatementLine and _is_docstring(s))]
    if len(lines) != 1:
        return None
    line = lines[0]
    small = line.body if type(line) is cst.SimpleStatementLine else [line] if type(line) is cst.Expr else []
    if len(small) != 1 or not isinstance(small[0], (cst.Expr, cst.Return)) or type(small[0].value) is not cst.Call:
        return None
    call = small[0].value
    f = call.func
    if not (type(f) is cst.Attribute and type(f.value) is cst.Name and f.attr.value in ("append", "insert", "extend")):
        return None
    params = {p.name.value for p in (*fn.params.posonly_params, *fn.params.params)}
    if f.value.value not in params:
        return None
    inner: list[str | int] = []
    for a in call.args:
        if a.keyword is not None or a.star:
            return None
        if type(a.value) is cst.Name and a.value.value in params and a.value.value != f.value.value:
            inner.append(a.value.value)
        elif type(a.value) is cst.Integer:
            inner.append(int(a.value.value, 0))
        else:
            return None
    return f.value.value, f.attr.value, tuple(inner)


def _is_docstring(line: cst.SimpleStatementLine) -> bool:
    return (
        len(line.body) == 1
        and type(line.body[0]) is cst.Expr
        and type(line.body[0].value) in (cst.SimpleString, cst.ConcatenatedString)
    )


def _grown(base: Value, method: str, arg: Value) -> Value | None:
    """The list after ``xs.append(arg)`` / ``xs.extend(arg)``."""
    if method == "append":
        if isinstance(base, SeqV):
            return SeqV(base.items + (arg,), base.kind)
        if isinstance(base, ManyV):
            return ManyV(join_elem(base.elem, arg), base.kind)
        return None
    if isinstance(base, SeqV) and isinstance(arg, SeqV) and arg.kind != "shape":
        return SeqV(base.items + arg.items, base.kind)
    e = elements_of(arg)
    if e is None:
        return None

    return ManyV(join_elem(elements_of(base), e), base.kind)  # type: ignore[union-attr]


def _annotation_cause(p: Pending) -> str | None:
    """The annotation matcher's own code behind an SHP205/SHP206 finding (SHP201: a rank, SHP202: a size)."""
    detail = dict(p.fields).get("detail")
    return getattr(detail, "cause", None)


def _plain_copy(v: Value, depth: int = 0) -> Value:
    """What ``dataclasses.asdict`` makes of a list, tuple or dict field: a new one of the same items when they are all
    numbers, strings, booleans or None (or such lists, tuples and dicts); anything else unknown."""
    if depth > 3:
        return UNKNOWN
    if isinstance(v, SeqV) and v.kind in ("list", "tuple"):
        items = [x if _plain_value(x) else _plain_copy(x, depth + 1) for x in v.items]
        return UNKNOWN if any(x is UNKNOWN for x in items) else SeqV(tuple(items), v.kind)
    if isinstance(v, DictV) and v.kind == "dict":
        entries = [(k, x if _plain_value(x) else _plain_copy(x, depth + 1)) for k, x in v.items]
        return UNKNOWN if any(x is UNKNOWN for _, x in entries) else DictV(tuple(entries), "dict")
    return UNKNOWN


def _fill_unbound(declared: TensorV, body: Value, mark: int, origin: Origin) -> TensorV:
    """``declared`` (a return annotation's shape, its unbound sizes made up after ``mark``) with those sizes taken
    from what the body returned, when the body's result has the same rank. Bound sizes stay the annotation's."""
    if not isinstance(body, TensorV) or body.shape is None or declared.shape is None:
        return declared
    if len(body.shape) != len(declared.shape) or body.alts:
        return declared
    shape = tuple(b if _fresh_after(d, mark) else d for d, b in zip(declared.shape, body.shape))
    return declared.with_shape(shape, declared.axes, origin)


def _str_method(text: str, method: str, args: list[Value]) -> Value | None:
    """``s.startswith(p)`` / ``endswith`` / ``lower()`` / ``upper()`` / ``strip()`` / ``replace(a, b)`` of known
    strings (a prefix split of keyword arguments: ``k.startswith("attn_")``, ``k[len("attn_"):]``)."""
    if method == "format" and re.fullmatch(r"(?:[^{}]|\{\{|\}\}|\{\d*\})*", text):
        # ``"block{}".format(i)``: plain fields (``{}``, ``{0}``) filled with known strings and ints
        values: list[str | int] = []
        for a in args:
            n = a.size.as_int() if isinstance(a, IntV) else None
            if isinstance(a, StrV):
                values.append(a.value)
            elif n is not None and not isinstance(a, BoolV):
                values.append(n)
            else:
                return None
        try:
            return StrV(text.format(*values))
        except (IndexError, ValueError):
            return None
    strs = [a.value for a in args if isinstance(a, StrV)]
    if len(strs) != len(args):
        return None
    if method in ("startswith", "endswith") and len(strs) == 1:
        return BoolV(text.startswith(strs[0]) if method == "startswith" else text.endswith(strs[0]))
    if method in ("lower", "upper", "strip") and not strs:
        return StrV(getattr(text, method)())
    if method in _STR_PREDICATES and not strs:
        return BoolV(getattr(text, method)())  # ``ch.isdigit()`` of each character of a known text
    if method == "replace" and len(strs) == 2:
        return StrV(text.replace(strs[0], strs[1]))
    if method in ("find", "rfind", "count") and len(strs) == 1:
        # ``alphabet.find(c) + 1`` for each character of a known text: the ids a one-hot encoding reads
        return IntV(Size.const(getattr(text, method)(strs[0])))
    if method in ("index", "rindex") and len(strs) == 1 and strs[0] in text:
        return IntV(Size.const(getattr(text, method)(strs[0])))
    if method in ("split", "rsplit") and len(strs) <= 1 and (not strs or strs[0]):
        # ``"2,2,4".split(",")``: the pieces of a known string (a command-line or config list of sizes)
        parts = getattr(text, method)(*strs)
        return SeqV(tuple(StrV(p) for p in parts), "list") if len(parts) <= MAX_RANGE else None
    return None


_STR_PREDICATES = frozenset(
    {"isdigit", "isalpha", "isalnum", "isspace", "islower", "isupper", "isdecimal", "isnumeric", "isidentifier"}
)
_SHUFFLES = frozenset({"numpy.random.shuffle", "random.shuffle"})


def _declared_param_shape(t: TensorV) -> bool:
    """Does ``t``'s shape come from a parameter's annotation alone (the function's run on its own: ``x: "D"``)?"""
    node = getattr(t.origin, "node", None)
    return type(node) is cst.FunctionDef


def _reordered(
    items: tuple[Value, ...], method: str, descending: Value | None, ctx: "Any | None" = None
) -> tuple[Value, ...]:
    """``items`` as ``xs.reverse()`` / ``xs.sort(reverse=...)`` leaves them: reversed; sorted when each is an int
    known exactly and the order is known; otherwise each place may hold any of them (their join). Ints that are not
    all one (``np.random.shuffle(index)`` of ``list(range(n))``, sorted again) are each some int at least 0 when every
    one is (a new symbol less one, per place, with ``ctx``): the list stays a list of numbers."""
    if method == "reverse":
        return tuple(reversed(items))
    exact = [x.size.as_int() if type(x) is IntV else None for x in items]
    order = descending.value if isinstance(descending, BoolV) else False if descending is None else None
    if all(n is not None for n in exact) and order is not None:
        ranked = sorted(zip(exact, range(len(items))), reverse=order)
        return tuple(items[i] for _, i in ranked)
    any_of: Value | None = None
    for x in items:
        any_of = join_elem(any_of, x)
    if (
        (any_of is None or any_of is UNKNOWN)
        and ctx is not None
        and items
        and all(type(x) is IntV and not x.assumed and at_least(x.size, 0) is Truth.TRUE for x in items)
    ):
        note = "(an item of a list of ints at least 0, reordered: not known)"
        return tuple(IntV(ctx.fresh("i", note) - 1) for _ in items)
    return tuple(any_of if any_of is not None else UNKNOWN for _ in items)


def _str_split_max(text: str, method: str, args: list[Value]) -> Value | None:
    """``name.split(".", 1)``: a known string split at most that many times."""
    if len(args) != 2 or not isinstance(args[0], StrV) or not args[0].value:
        return None
    limit = int_of(args[1])
    if limit is None or isinstance(args[1], BoolV):
        return None
    parts = getattr(text, method)(args[0].value, limit)
    return SeqV(tuple(StrV(p) for p in parts), "list") if len(parts) <= MAX_RANGE else None


HOOKED_ATTR = "<forward hooks>"  # set on an instance whose constructor installs a forward hook it cannot place
SEQUENTIAL_ATTR = "<nn.Sequential layers>"  # an nn.Sequential subclass's chain, among its instance's attributes


def _unread_array_return(fi: FunctionInfo) -> bool:
    """``fi`` has a return annotation that is not one array annotation but holds some (a union or a tuple of them:
    ``-> Float['b'] | tuple[Int['b'], Float['b']]``)."""
    ret = fi.node.returns
    if ret is None or fi.return_ann is not None:
        return False
    todo: list[cst.CSTNode] = [ret.annotation]
    while todo:
        n = todo.pop()
        if type(n) is cst.Subscript and fi.module.annotation_of(n) is not None:
            return True
        todo.extend(n.children)
    return False


def _any_param_annotation(fn: cst.FunctionDef) -> bool:
    """Does a parameter of ``fn`` carry an annotation (one the index does not read as an array's included:
    ``Optional[Float[Array, "b n"]]``)?"""
    ps = fn.params
    return any(p.annotation is not None for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params))


def _plain_unknown_array(v: Any) -> bool:
    """An unknown value, or an array of which nothing about the shape is known (no rank, no einops prefix, no
    alternatives)."""
    if v is UNKNOWN:
        return True
    return isinstance(v, TensorV) and v.shape is None and v.vshape is None and not v.alts and not v.not_ranks


def _minted_since(v: Any, mark: int, depth: int) -> bool:
    """Does ``v`` hold a size symbol made by ``Context.fresh`` at or after ``mark`` (see ``counter_mark``)?"""
    if depth > 8:
        return True  # deeper than values are built: assume so (the summary is not kept)
    if isinstance(v, TensorV):
        sizes = list(v.shape or ())
        if v.vshape is not None:
            sizes += [*v.vshape[0], v.vshape[1], *v.vshape[2]]
        return any(_fresh_after(s, mark) for s in sizes) or any(_minted_since(a, mark, depth + 1) for a in v.alts or ())
    if isinstance(v, IntV):
        return _fresh_after(v.size, mark)
    if isinstance(v, SeqV):
        return any(_minted_since(x, mark, depth + 1) for x in v.items)
    if isinstance(v, (DictV, IntDictV)):
        return any(_minted_since(x, mark, depth + 1) for _, x in v.items)
    if isinstance(v, ObjV):
        return any(_minted_since(x, mark, depth + 1) for _, x in v.attrs)
    if isinstance(v, ManyV):
        return v.elem is not None and _minted_since(v.elem, mark, depth + 1)
    if isinstance(v, LayerV):
        return any(
            _fresh_after(x, mark) if isinstance(x, Size) else _minted_since(x, mark, depth + 1) for _, x in v.params
        )
    if isinstance(v, FuncV):
        return any(_minted_since(x, mark, depth + 1) for _, x in v.env) or (
            v.bound_self is not None and _minted_since(v.bound_self, mark, depth + 1)
        )
    return False


def _fresh_after(size: Size, mark: int) -> bool:
    for sym in size.free_symbols():
        tail = sym.rsplit("@", 1)[-1]
        if tail.isdigit() and int(tail) >= mark:
            return True
    return False


def _namedtuple_instance(t: LayerV, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """An instance of a namedtuple type: a tuple of the arguments bound to the fields (defaults for the last ones), whose
    items are also read by field name. A call Python rejects (too many, missing or unknown fields): unknown."""
    fields: tuple[str, ...] = t.param("fields", ())
    defaults: tuple[Value, ...] = t.param("defaults", ())
    if len(args) > len(fields):
        return UNKNOWN
    values: dict[str, Value] = dict(zip(fields, args))
    for k, v in kwargs.items():
        if k not in fields or k in values:
            return UNKNOWN
        values[k] = v
    first_default = len(fields) - len(defaults)
    items: list[Value] = []
    for i, f in enumerate(fields):
        if f in values:
            items.append(values[f])
        elif i >= first_default:
            items.append(defaults[i - first_default])
        else:
            return UNKNOWN
    return SeqV(tuple(items), "tuple", fields)


def _sig(v: Any) -> Any:
    if isinstance(v, TensorV):
        # everything a callee's result may depend on: a tensor of unknown rank whose last axis a layer fixed (vshape)
        # is not one whose last axis is unknown (a summary keyed without it handed a hook's earlier result, last axis
        # 6, to a later call on a last axis of 4: a false SHP204 that depended on the order files were analysed in)
        return (
            "T",
            v.shape,
            v.dtype,
            v.framework,
            v.axes,
            v.vshape,
            tuple(_sig(a) for a in v.alts) if v.alts else None,
            v.not_ranks,
            v.strides,  # (a transposed input's view fails where a contiguous one's does not)
            # what is known of its elements (lengths of [8000, 6400] and of [8001, 6400] give different masks)
            v.bounds,
            v.top[0] if v.top is not None else None,
            exact_values(v),
        )
    if isinstance(v, SeqV):
        return ("S", tuple(_sig(x) for x in v.items)) + ((v.names,) if v.names else ())
    if isinstance(v, ObjV):
        # an object is immutable, and the same one (a model's ``self``) keys the summaries of every method called on
        # it: its signature is computed once and kept on it (outside its fields: equality and hashing ignore it)
        found = v.__dict__.get("_sig")
        if found is None:
            found = v.__dict__["_sig"] = ("O", v.cls_key, v.concrete, tuple((k, _sig(x)) for k, x in v.attrs)) + (
                (tuple((k, _sig(x)) for k, x in v.fresh),) if v.fresh else ()
            )
        return found
    if isinstance(v, ManyV):
        return ("M", v.kind, _sig(v.elem))
    if isinstance(v, (LayerV,)):
        try:
            hash(v.params)
        except TypeError:  # a parameter held in a list: this layer only
            return ("L", v.kind, id(v))
        return ("L", v.kind, v.params)
    try:
        hash(v)
        return v
    except TypeError:
        return id(v)


def _is_list(v: Value) -> bool:
    return isinstance(v, SeqV) and v.kind == "list"


_SCOPES = (cst.FunctionDef, cst.ClassDef)


def _bound_once(fn: cst.CSTNode) -> frozenset[str]:
    """The names a function binds exactly once: a parameter never reassigned, or one assignment outside any loop
    (``global`` / ``nonlocal`` / ``del`` / ``except ... as`` / imports count as more than one)."""

    assert type(fn) is cst.FunctionDef
    counts: dict[str, int] = {}

    def add(names: set[str] | list[str], n: int) -> None:
        for name in names:
            counts[name] = counts.get(name, 0) + n

    ps = fn.params
    params = [*ps.posonly_params, *ps.params, *ps.kwonly_params]
    for star in (ps.star_arg, ps.star_kwarg):
        if type(star) is cst.Param:
            params.append(star)
    add([p.name.value for p in params], 1)
    stack: list[tuple[cst.CSTNode, bool]] = [(fn.body, False)]
    while stack:
        node, looped = stack.pop()
        tp = type(node)
        n = 2 if looped else 1
        if tp in _SCOPES:
            add([node.name.value], n)  # type: ignore[attr-defined]
            continue  # a nested function's or class's own names are its own
        if tp is cst.Lambda:
            continue
        if tp in (cst.AssignTarget, cst.AnnAssign, cst.NamedExpr):
            add(_target_names(node.target), n)  # type: ignore[attr-defined]
        elif tp in (cst.AugAssign, cst.For, cst.Del):
            add(_target_names(node.target), 2)  # type: ignore[attr-defined]
        elif tp is cst.WithItem and node.asname is not None:  # type: ignore[attr-defined]
            add(_target_names(node.asname.name), n)  # type: ignore[attr-defined]
        elif tp is cst.ExceptHandler and node.name is not None:  # type: ignore[attr-defined]
            add(_target_names(node.name.name), 2)  # type: ignore[attr-defined]
        elif tp in (cst.Global, cst.Nonlocal):
            add([x.name.value for x in node.names], 2)  # type: ignore[attr-defined]
        elif tp in (cst.Import, cst.ImportFrom) and type(node.names) is not cst.ImportStar:  # type: ignore[attr-defined]
            for alias in node.names:  # type: ignore[attr-defined]
                target = alias.asname.name if alias.asname is not None else alias.name
                while type(target) is cst.Attribute:  # import a.b binds a
                    target = target.value
                if type(target) is cst.Name:
                    add([target.value], 2)
        inner = looped or tp in (cst.For, cst.While)
        stack.extend((c, inner) for c in children(node))
    return frozenset(k for k, v in counts.items() if v == 1)


def _binds(fn: cst.CSTNode) -> frozenset[str]:
    """Every name a function binds in its own scope: its parameters, what its statements bind (``_bound_in``), and
    its comprehensions' targets (a closure made inside one reads the name late)."""
    assert type(fn) is cst.FunctionDef
    ps = fn.params
    params = [*ps.posonly_params, *ps.params, *ps.kwonly_params]
    out = {p.name.value for p in params}
    out.update(p.name.value for p in (ps.star_arg, ps.star_kwarg) if type(p) is cst.Param)
    out |= _bound_in(fn.body)
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if type(n) in _SCOPES:
            continue
        if type(n) is cst.CompFor:
            out.update(_target_names(n.target))
        stack.extend(children(n))
    return frozenset(out)


def _bound_in(node: cst.CSTNode) -> set[str]:
    """Every name a statement binds (assignments, loop and ``with`` targets, ``except ... as``, imports, nested
    ``def`` / ``class`` names), nested scopes' own names left out; ``global`` / ``nonlocal`` names included."""

    out: set[str] = set()
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp in _SCOPES:
            out.add(n.name.value)  # type: ignore[attr-defined]
            continue
        if tp is cst.Lambda:
            continue
        if tp in (cst.AssignTarget, cst.AnnAssign, cst.NamedExpr, cst.AugAssign, cst.For, cst.Del):
            out.update(_target_names(n.target))  # type: ignore[attr-defined]
        elif tp is cst.WithItem and n.asname is not None:  # type: ignore[attr-defined]
            out.update(_target_names(n.asname.name))  # type: ignore[attr-defined]
        elif tp is cst.ExceptHandler and n.name is not None:  # type: ignore[attr-defined]
            out.update(_target_names(n.name.name))  # type: ignore[attr-defined]
        elif tp in (cst.Global, cst.Nonlocal):
            out.update(x.name.value for x in n.names)  # type: ignore[attr-defined]
        elif tp in (cst.Import, cst.ImportFrom) and type(n.names) is not cst.ImportStar:  # type: ignore[attr-defined]
            for alias in n.names:  # type: ignore[attr-defined]
                target = alias.asname.name if alias.asname is not None else alias.name
                while type(target) is cst.Attribute:
                    target = target.value
                if type(target) is cst.Name:
                    out.add(target.value)
        stack.extend(children(n))
    return out


def _settled_at_defs(fn: cst.CSTNode) -> dict[int, frozenset[str]]:
    """For each ``def`` among a function's top-level statements (by id): the names the function binds only as
    parameters or in top-level statements before it, and that no nested function declares ``nonlocal``: what the
    closure reads when it runs is what they hold at the ``def``."""
    assert type(fn) is cst.FunctionDef
    body = fn.body.body if type(fn.body) is cst.IndentedBlock else ()
    if not any(type(stmt) is cst.FunctionDef for stmt in body):
        return {}
    bound = [_bound_in(stmt) for stmt in body]
    later: list[set[str]] = [set() for _ in range(len(body) + 1)]  # names bound in statements i.. onwards
    for i in range(len(body) - 1, -1, -1):
        later[i] = later[i + 1] | bound[i]
    shared: set[str] = set()  # nonlocal anywhere: another closure may rebind it

    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if type(n) in (cst.Global, cst.Nonlocal):
            shared.update(x.name.value for x in n.names)  # type: ignore[attr-defined]
        stack.extend(children(n))
    out: dict[int, frozenset[str]] = {}
    ps = fn.params
    before = {p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)}
    for i, stmt in enumerate(body):
        if type(stmt) is cst.FunctionDef:
            out[id(stmt)] = frozenset(before - later[i + 1] - shared - {stmt.name.value})
        before |= bound[i]
    return out


def _accessor_of(fn: cst.FunctionDef, decorators: list[str]) -> bool:
    """A property's setter or deleter (``@name.setter`` / ``@name.deleter`` on a def of the same name)."""
    name = fn.name.value
    return any(d in (f"{name}.setter", f"{name}.deleter") for d in decorators)


def _rebound_methods(body: Sequence[cst.BaseStatement | cst.BaseSmallStatement]) -> frozenset[int]:
    """ids of the ``def``s of a class body that a later statement of it assigns again (``rel = torch.vmap(rel)``)."""
    latest: dict[str, cst.FunctionDef] = {}
    out: set[int] = set()
    for inner in body:
        if type(inner) is cst.FunctionDef:
            latest[inner.name.value] = inner
        elif type(inner) is not cst.ClassDef and latest:
            names = _rebound_names(inner)
            if type(inner) is not cst.SimpleStatementLine:
                names |= _nested_def_names(inner)  # ``if not FAST: def forward(...)``: may replace the def above
            out.update(id(latest[name]) for name in names & latest.keys())
    return frozenset(out)


def _nested_def_names(stmt: cst.CSTNode) -> set[str]:
    """The names the ``def``s and ``class``es inside a compound statement bind (not those nested in them)."""
    out: set[str] = set()
    stack: list[cst.CSTNode] = list(stmt.children)
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            out.add(node.name.value)
        elif type(node) is not cst.Lambda:
            stack.extend(node.children)
    return out


def _top_class(tree: cst.Module, name: str) -> cst.ClassDef | None:
    """The class statement named ``name`` at the top level of ``tree`` (the last one, as Python binds it)."""
    found = None
    for stmt in tree.body:
        if type(stmt) is cst.ClassDef and stmt.name.value == name:
            found = stmt
    return found


def _method_params(fn: cst.FunctionDef) -> list[str] | None:
    """The plain positional parameters' names, or None when the signature has more than plain parameters."""
    ps = fn.params
    if ps.posonly_params or ps.kwonly_params or type(ps.star_arg) is cst.Param or ps.star_kwarg is not None:
        return None
    return [p.name.value for p in ps.params]


def _body_statements(fn: cst.FunctionDef) -> list[cst.BaseSmallStatement] | None:
    """A method's statements when each is a simple one (a docstring dropped); None for compound statements."""
    out: list[cst.BaseSmallStatement] = []
    body = fn.body
    if type(body) is cst.SimpleStatementSuite:
        return list(body.body)
    for stmt in body.body:
        if type(stmt) is not cst.SimpleStatementLine:
            return None
        out.extend(stmt.body)
    if out and type(out[0]) is cst.Expr and type(out[0].value) in (cst.SimpleString, cst.ConcatenatedString):
        out = out[1:]
    return out


def _is_shape_wrapper(node: cst.ClassDef) -> bool:
    """lucidrains' ``TorchTyping``: ``__init__(self, abstract_dtype)`` stores its argument on ``self`` and
    ``__getitem__(self, shapes)`` is one ``return self.<that attribute>[<array type>, shapes]``."""
    if type(node.body) is not cst.IndentedBlock:
        return False
    methods: dict[str, cst.FunctionDef] = {}
    for stmt in node.body.body:
        if type(stmt) is cst.FunctionDef:
            if stmt.decorators:
                return False
            methods[stmt.name.value] = stmt
        elif type(stmt) is cst.SimpleStatementLine:
            continue
        else:
            return False
    init, getitem = methods.get("__init__"), methods.get("__getitem__")
    if init is None or getitem is None or "__class_getitem__" in methods:
        return False
    ip, gp = _method_params(init), _method_params(getitem)
    if ip is None or gp is None or len(ip) < 2 or len(gp) != 2:
        return False
    stmts = _body_statements(getitem)
    if stmts is None or len(stmts) != 1 or type(stmts[0]) is not cst.Return:
        return False
    ret = stmts[0].value
    if type(ret) is not cst.Subscript or len(ret.slice) != 2:
        return False
    holder = ret.value
    if not (type(holder) is cst.Attribute and type(holder.value) is cst.Name and holder.value.value == gp[0]):
        return False
    last = ret.slice[1].slice
    if not (type(last) is cst.Index and type(last.value) is cst.Name and last.value.value == gp[1]):
        return False
    attr = holder.attr.value
    init_stmts = _body_statements(init)
    if init_stmts is None:
        return False
    stored = [
        s
        for s in init_stmts
        if isinstance(s, (cst.Assign, cst.AnnAssign, cst.AugAssign))
        and any(
            type(t) is cst.Attribute and type(t.value) is cst.Name and t.value.value == ip[0] and t.attr.value == attr
            for t in ([x.target for x in s.targets] if isinstance(s, cst.Assign) else [s.target])
        )
    ]
    if len(stored) != 1 or type(stored[0]) is not cst.Assign or len(stored[0].targets) != 1:
        return False
    src = stored[0].value
    return isinstance(src, cst.Name) and src.value == ip[1]


def _bound_in_other_branches(stmt: cst.If | cst.Try) -> set[str]:
    """The names that a module-level ``if``'s ``elif``/``else`` or a ``try``'s handlers, ``else`` and ``finally``
    bind: by a ``def`` or ``class``, an import or an assignment."""
    parts: list[cst.CSTNode] = []
    if isinstance(stmt, cst.If):
        if stmt.orelse is not None:
            parts.append(stmt.orelse)
    else:
        parts.extend(stmt.handlers)
        parts.extend(p for p in (stmt.orelse, stmt.finalbody) if p is not None)
    out: set[str] = set()
    for part in parts:
        out |= _rebound_names(part)
        stack: list[cst.CSTNode] = [part]
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                out.add(node.name.value)
                continue
            if isinstance(node, (cst.Import, cst.ImportFrom)) and not isinstance(node.names, cst.ImportStar):
                for alias in node.names:
                    bound = alias.asname.name if alias.asname is not None else alias.name
                    name = dotted(bound)
                    if name:
                        out.add(name.split(".", 1)[0])
                continue
            if type(node) is cst.Lambda:
                continue
            stack.extend(node.children)
    return out


def _rebound_names(stmt: cst.CSTNode) -> set[str]:
    """The names a module-level statement binds by assignment (``=``, ``+=``, ``x: T = ...``, ``:=``, a ``for``
    target, ``with ... as``), nested functions, classes and lambdas left out; a ``def`` or ``class`` is no assignment."""

    out: set[str] = set()
    stack: list[cst.CSTNode] = [stmt]
    while stack:
        node = stack.pop()
        tp = type(node)
        if tp in _SCOPES or tp is cst.Lambda:
            continue
        if tp in (cst.AssignTarget, cst.AugAssign, cst.NamedExpr, cst.For) or (
            tp is cst.AnnAssign and node.value is not None  # type: ignore[attr-defined]
        ):
            out |= _target_names(node.target)  # type: ignore[attr-defined]
        elif tp is cst.WithItem and node.asname is not None:  # type: ignore[attr-defined]
            out |= _target_names(node.asname.name)  # type: ignore[attr-defined]
        stack.extend(children(node))
    return out


def _live_closure(interp: Interpreter, fi: FunctionInfo, fv: FuncV) -> tuple[tuple[str, Value], ...]:
    """The names a nested function reads of its enclosing function, for a call made in the very frame that defines it
    (``lax.scan(chunk_scanner, ...)`` after ``q, k, v = map(...)`` rebinds ``q``): Python's closure cells hold the
    names' current bindings, so besides what ``fv.env`` kept from the ``def`` (names that cannot change), a name the
    frame holds now is read as it holds it. Not for names a comprehension of that function binds (the scope holds the
    comprehension's variable while it runs), that a ``global`` / ``nonlocal`` declares (another function may rebind
    them) or that a parameter default reads (evaluated at the ``def``)."""
    frame = interp.frame
    prefix = frame.key + ".<locals>."
    if not fi.key.startswith(prefix) or ".<locals>." in fi.key[len(prefix) :] or frame.key == "<module>":
        return fv.env
    held = interp.scope.vars.get(fi.name)
    if held is not fv and held != fv:
        return fv.env  # not the def this frame's name holds (another frame's, or the name rebound since)
    outer = fi.module.functions.get(frame.key)
    if outer is None:
        return fv.env

    free = walk_memo("free-reads", fi.node, _free_reads)
    have = {k for k, _ in fv.env}
    names = [n for n in free if n not in have and n in interp.scope.vars]
    if not names:
        return fv.env
    excluded = walk_memo("closure-unsafe", outer.node, _closure_unsafe) | walk_memo(
        "default-reads", fi.node, _default_reads
    )
    extra = [(n, interp.scope.vars[n]) for n in sorted(names) if n not in excluded]
    return fv.env + tuple(extra) if extra else fv.env


def _yields(fn: cst.CSTNode) -> bool:
    """Does a function's own body (nested functions and lambdas left out) ``yield``: a generator, whose body runs
    only when it is iterated?"""

    stack: list[cst.CSTNode] = [fn.body] if isinstance(fn, cst.FunctionDef) else [fn]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp in (cst.Yield, cst.Await):
            return True
        if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        stack.extend(children(n))
    return False


def _closure_unsafe(fn: cst.CSTNode) -> frozenset[str]:
    """Names a function's scope may hold for something else than its own binding while a call runs: comprehension
    targets (the analysis binds them in the function's scope) and names declared ``global`` / ``nonlocal`` anywhere
    in it."""

    out: set[str] = set()
    stack: list[cst.CSTNode] = [fn]
    while stack:
        n = stack.pop()
        if type(n) is cst.CompFor:
            out.update(_target_names(n.target))
        elif type(n) in (cst.Global, cst.Nonlocal):
            out.update(x.name.value for x in n.names)  # type: ignore[attr-defined]
        stack.extend(children(n))
    return frozenset(out)


def _default_reads(fn: cst.CSTNode) -> frozenset[str]:
    """The names a function's parameter defaults read (evaluated once, at the ``def``)."""

    assert type(fn) is cst.FunctionDef
    ps = fn.params
    stack: list[cst.CSTNode] = [p.default for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params) if p.default]
    out: set[str] = set()
    while stack:
        n = stack.pop()
        if type(n) is cst.Name:
            out.add(n.value)
        stack.extend(children(n))
    return frozenset(out)


def _class_free_reads(cls: cst.CSTNode) -> frozenset[str]:
    """The names a class statement reads from outside itself: in its bases, keywords and decorators, its body's
    statements (less the names the body binds before), and its methods' free names. Attribute names (``self.dim``)
    and keyword names (``f(dim=...)``) are not reads."""

    assert type(cls) is cst.ClassDef

    def reads(node: cst.CSTNode) -> set[str]:
        out: set[str] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            tp = type(n)
            if tp is cst.Name:
                out.add(n.value)  # type: ignore[attr-defined]
            elif tp is cst.Attribute:
                stack.append(n.value)  # type: ignore[attr-defined]
            elif tp is cst.Arg:
                stack.append(n.value)  # type: ignore[attr-defined]
            else:
                stack.extend(children(n))
        return out

    def method_reads(fn: cst.FunctionDef) -> set[str]:
        ps = fn.params
        own = _assigned_names(fn.body)
        own |= {p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)}
        own |= {p.name.value for p in (ps.star_arg, ps.star_kwarg) if type(p) is cst.Param}
        for n in walk_all(fn.body):
            if isinstance(n, (cst.Nonlocal, cst.Global)):
                return {"<nonlocal>"} | {x.name.value for x in n.names}
        body_reads = reads(fn.body)
        for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params, ps.star_arg, ps.star_kwarg):
            if type(p) is not cst.Param:
                continue
            if p.default is not None:
                body_reads |= reads(p.default)
            if p.annotation is not None:
                body_reads |= reads(p.annotation.annotation)
        if fn.returns is not None:
            body_reads |= reads(fn.returns.annotation)
        for d in fn.decorators:
            body_reads |= reads(d.decorator)
        return body_reads - own

    out: set[str] = set()
    for b in (*cls.bases, *cls.keywords):
        out |= reads(b.value)
    for d in cls.decorators:
        out |= reads(d.decorator)
    bound: set[str] = set()
    body = cls.body.body if type(cls.body) is cst.IndentedBlock else ()
    for stmt in body:
        if type(stmt) is cst.FunctionDef:
            out |= method_reads(stmt)
        elif type(stmt) is cst.ClassDef:
            out |= _class_free_reads(stmt)
        else:
            out |= reads(stmt) - bound
            bound |= _assigned_names(stmt)
    return frozenset(out)


def _free_reads(fn: cst.CSTNode) -> frozenset[str]:
    """The names a nested function reads and neither takes as a parameter nor assigns: its free variables."""

    assert type(fn) is cst.FunctionDef
    own = _assigned_names(fn.body)
    ps = fn.params
    own |= {p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)}
    own |= {s.name.value for s in (ps.star_arg, ps.star_kwarg) if type(s) is cst.Param}
    reads: set[str] = set()
    stack: list[cst.CSTNode] = [fn.body, *(p.default for p in (*ps.params, *ps.kwonly_params) if p.default)]
    while stack:
        node = stack.pop()
        if type(node) is cst.Name:
            reads.add(node.value)
        elif isinstance(node, (cst.Nonlocal, cst.Global)):
            own |= {x.name.value for x in node.names}
        stack.extend(children(node))
    return frozenset(reads - own)


# where ``p.attr`` only reads the attribute's value (a test, a comparison, arithmetic): nothing of it can change there
_READING_PARENTS = (
    cst.Comparison,
    cst.ComparisonTarget,
    cst.BinaryOperation,
    cst.UnaryOperation,
    cst.BooleanOperation,
    cst.If,
    cst.While,
    cst.Assert,
)


# tensor methods whose result may share the tensor's elements (a write through it changes the tensor)
_ALIASING_METHODS = frozenset(
    {
        "view",
        "view_as",
        "reshape",
        "reshape_as",
        "numpy",
        "squeeze",
        "unsqueeze",
        "flatten",
        "unflatten",
        "transpose",
        "permute",
        "t",
        "expand",
        "expand_as",
        "detach",
        "narrow",
        "select",
        "as_strided",
        "movedim",
        "swapaxes",
        "unbind",
        "split",
        "chunk",
        "diagonal",
        "__array__",
    }
)


def _writes_tensor_arguments(qual: str, kwargs: dict[str, Value]) -> bool:
    """May the library function ``qual`` write into the tensors it is handed: torch.distributed's collectives
    (``broadcast``, ``all_reduce``, ``recv``), ``torch.nn.init``, an in-place function (``torch.clamp_``), one given
    ``out=``, or a function of a library that is no framework's (einops, numpy, jax and torch's others do not)?"""
    if qual.startswith(("torch.distributed.", "torch.nn.init.")) or "out" in kwargs:
        return True
    last = qual.rsplit(".", 1)[-1]
    if last.endswith("_") and not last.startswith("_"):
        return True
    return not qual.startswith(_PURE_PREFIXES) and not qual.startswith(_PURE_LIBRARIES) and "." in qual


def _param_rebound_attrs(fn: cst.CSTNode) -> dict[str, frozenset[str]]:
    """Per parameter of ``fn``: the attributes its body binds anew, ``p.x = v`` or ``p.x.data = v`` (not filled in
    place: ``p.x.data.normal_()``)."""
    if type(fn) is not cst.FunctionDef:
        return {}
    out: dict[str, set[str]] = {}
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        node = stack.pop()
        if type(node) is cst.AssignTarget or type(node) is cst.AugAssign or type(node) is cst.AnnAssign:
            t = node.target
            if type(t) is cst.Attribute and t.attr.value == "data" and type(t.value) is cst.Attribute:
                t = t.value
            if type(t) is cst.Attribute and type(t.value) is cst.Name:
                out.setdefault(t.value.value, set()).add(t.attr.value)
        stack.extend(children(node))
    return {k: frozenset(v) for k, v in out.items()}


def _display_target(parent_of: dict[int, cst.CSTNode], element: cst.CSTNode) -> bool:
    """Is the tuple or list display ``element`` is an item of (nested in others, maybe) an assignment target (``p.a,
    p.b = ...``, a ``for`` target, ``del p.a, p.b``, a ``with ... as`` target), rather than a value? True when it cannot
    be told."""
    prev: cst.CSTNode = element
    node = parent_of.get(id(element))
    while type(node) in (cst.Element, cst.StarredElement, cst.Tuple, cst.List):
        prev, node = node, parent_of.get(id(node))  # type: ignore[assignment]
    if node is None:
        return True
    if type(node) is cst.For or type(node) is cst.CompFor or type(node) is cst.Del:
        return cast(Any, node).target is prev
    if type(node) is cst.AsName:
        return node.name is prev  # ``with pair() as (p.a, p.b)``
    return type(node) is cst.AssignTarget  # (an AugAssign / AnnAssign target is never a tuple or list)


def _writes_attribute(grand: "cst.CSTNode | None", attribute: cst.Attribute) -> bool:
    """``attribute`` (``p.x``) is assigned, deleted, changed by item or through its own attributes, or may be a
    target inside a tuple or list (``p.a, p.b = ...``)."""
    tp = type(grand)
    if tp in (cst.AssignTarget, cst.Subscript, cst.Del, cst.WithItem, cst.Element, cst.StarredElement, cst.Attribute):
        return True
    if tp in (cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor):
        return grand.target is attribute  # type: ignore[union-attr]
    return grand is None


# _param_attribute_writes' mark for a parameter that is called (``model(x)``) or asked for its parameters
# (``model.parameters()``): the object changes only if running it may change it (_attribute_writes)
CALLED = "call ()"
# torch.nn.Module methods that hand out its parameters, buffers or submodules and change nothing
_READ_ONLY_MODULE_METHODS = _MODULE_READS | {"state_dict"}
# _param_attribute_writes' mark for ``p.x(...)``: a method of p, or an object p holds, called (_held_calls)
CALL_PREFIX = "call "
# ... and for ``p.x.m(...)``: a method of what the attribute x holds (a string's or a number's changes nothing)
METHOD_PREFIX = "method "
# ... and for ``p.x[k]`` (stored into or read): a torch or numpy array keeps its shape (objects.kept_by_item_stores)
ITEM_PREFIX = "item "

# methods that change the list, dict or object they are called on: the ones a closure may call (_CLOSURE_MUTATORS)
# and the rest of list's and dict's, and the item and attribute dunders
_CONTAINER_MUTATORS = _CLOSURE_MUTATORS | {
    "sort",
    "reverse",
    "__setitem__",
    "__delitem__",
    "__setattr__",
    "__delattr__",
}
# ... and torch's in-place ones that keep shapes
_MUTATING_METHODS = _CONTAINER_MUTATORS | {"copy_", "fill_", "zero_"}


_CHANGING_PREFIXES = ("reset", "init", "prepare", "setup", "set_", "replace", "convert", "fuse", "prune", "resize")


# libraries whose functions change no attribute of an object handed to them (``nn.init.normal_(self.proj.weight)``,
# ``copy.deepcopy(self.model)``)
_PURE_LIBRARIES = ("torch.", "numpy.", "jax.", "einops.", "math.", "copy.", "functools.", "itertools.", "operator.")


def _read_through(obj: ObjV, e: cst.BaseExpression) -> Value | None:
    """What ``self.a.b`` (``e``) reads from the object ``obj`` that ``self`` is, when each step is an attribute it
    holds (None otherwise, or for ``self`` itself)."""
    path: list[str | int] = []
    while True:
        if type(e) is cst.Attribute:
            path.append(e.attr.value)
            e = e.value
        elif type(e) is cst.Subscript:
            index = _literal_index(e)
            if index is None:
                return None
            path.append(index)  # (``self.enc_channels[-1]``)
            e = e.value
        else:
            break
    if type(e) is not cst.Name or not path:
        return None
    v: Value | None = obj
    for step in reversed(path):
        if isinstance(step, int):
            if not isinstance(v, SeqV) or not -len(v.items) <= step < len(v.items):
                return None
            v = v.items[step]
        elif isinstance(v, ObjV):
            v = v.attr(step)
        else:
            return None
    return v


def _literal_index(e: cst.Subscript) -> int | None:
    """The integer ``xs[2]`` / ``xs[-1]`` indexes with, written as a literal."""
    if len(e.slice) != 1 or type(e.slice[0].slice) is not cst.Index:
        return None
    n = e.slice[0].slice.value
    negative = type(n) is cst.UnaryOperation and type(n.operator) is cst.Minus
    if negative:
        n = n.expression  # type: ignore[attr-defined]
    if type(n) is not cst.Integer:
        return None
    return -int(n.value) if negative else int(n.value)


_STORES = (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)


def _stores_through(n: cst.CSTNode, me: str) -> bool:
    """Does the store ``n`` (one of ``_STORES``) write through the name ``me`` (``me.x = ...``, ``me.cache[k] += 1``,
    ``a, me.b = ...``, ``del me.x``), not bind the name itself?"""
    t = n.target  # type: ignore[attr-defined]
    targets = [e.value for e in t.elements] if type(t) in (cst.Tuple, cst.List) else [t]
    for e in targets:
        if type(e) is not cst.Name:
            root = chain_root(e)
            if type(root) is cst.Name and root.value == me:
                return True
    return False


def _changes_through_self(fn: cst.CSTNode) -> tuple[tuple[cst.Call, cst.Arg], ...] | None:
    """What a method (not a forward) may do to the objects its ``self`` holds, read from its body: None when it may
    change one (an attribute stored through ``self``, ``setattr(self.model, ...)``, ``self.model.apply(fn)``, a
    method named to change its object: ``_CHANGING_METHODS``, ``_CHANGING_PREFIXES``); otherwise the calls that hand
    ``self`` or an attribute of it on (``reshape_params(self.model)``), with that argument: the caller decides."""
    me = _self_name(fn)
    if me is None:
        return None

    def rooted(e: cst.BaseExpression) -> bool:
        e = chain_root(e)
        return type(e) is cst.Name and e.value == me

    handed: list[tuple[cst.Call, cst.Arg]] = []
    # the variables of loops over what ``self`` holds (``for m in self.modules()``, ``for blk in self.blocks``,
    # ``for name, m in self.named_modules()``): a method called on one, or a store through one, may change it
    walked: set[str] = set()
    stack: list[cst.CSTNode] = [cast(cst.FunctionDef, fn).body]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.For:
            it = n.iter  # type: ignore[attr-defined]
            if rooted(it.func if type(it) is cst.Call else it):
                walked.update(_target_names(n.target))  # type: ignore[attr-defined]
        if tp in _STORES:
            if _stores_through(n, me) or any(_stores_through(n, w) for w in walked):
                return None  # (``self.__dict__[k] = v`` too; ``self.__dict__.update(d)`` is a changing method)
        elif tp is cst.Call:
            f = n.func  # type: ignore[attr-defined]
            root = chain_root(f.value) if type(f) is cst.Attribute else None
            if type(root) is cst.Name and root.value in walked:
                return None  # m.reset() on each module of the walk
            if type(f) is cst.Attribute and rooted(f.value) and type(f.value) is not cst.Name:
                name = f.attr.value
                if name in _CHANGING_METHODS or name.startswith(_CHANGING_PREFIXES):
                    return None  # self.model.apply(fix), self.head.reset_parameters()
            if not (type(f) is cst.Attribute and type(f.value) is cst.Name and f.value.value == me):
                # (``self.helper(self.x)``, ``self.norm(self.x)``: a method reached on its own, or a submodule run)
                handed.extend((cast(cst.Call, n), a) for a in n.args if rooted(a.value))  # type: ignore[attr-defined]
        stack.extend(children(n))
    return tuple(handed)


def _self_name(fn: cst.CSTNode) -> str | None:
    """The name of a method's first positional parameter (its ``self``); None for no def or no such parameter."""
    if type(fn) is not cst.FunctionDef:
        return None
    params = [*fn.params.posonly_params, *fn.params.params]
    return params[0].name.value if params else None


def _changed_self_attrs(fn: cst.CSTNode) -> frozenset[str] | None:
    """The attributes of ``self`` whose values a method may change, read from its body and its nested functions
    (which may run later: a forward hook storing into ``self.features``): one stored through (``self.x = v``,
    ``self.x[k] = v``, ``self.x.y = v``, ``del self.x``), used other than by reading (_read_position: a mutating
    method called, ``self.handles.append(h)``; handed to a call other than a copying builtin; aliased; returned),
    a method called on what it holds (``self.pool.reset()``), or iterated (its items may change through the loop
    variable). None when ``self`` itself is used other than for its attributes (handed on, aliased, returned),
    ``self.__dict__`` is reached, or a nested function or class binds the name again."""
    me = _self_name(fn)
    if me is None:
        return None
    out: set[str] = set()
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None]] = [
        (cast(cst.FunctionDef, fn).body, None, None)
    ]
    while stack:
        n, parent, grand = stack.pop()
        tp = type(n)
        if tp is cst.ClassDef:
            return None
        if tp is cst.FunctionDef or tp is cst.Lambda:
            ps = n.params  # type: ignore[attr-defined]
            named = [*ps.posonly_params, *ps.params, *ps.kwonly_params, ps.star_arg, ps.star_kwarg]
            if any(type(p) is cst.Param and p.name.value == me for p in named):
                return None
        elif tp is cst.Name and n.value == me:  # type: ignore[attr-defined]
            if not (type(parent) is cst.Attribute and parent.value is n):
                return None
        elif tp is cst.Name and n.value == "super":  # type: ignore[attr-defined]
            return None  # (a base's method, which ``reached_methods`` does not follow)
        elif tp is cst.Attribute or tp is cst.Subscript:
            root = chain_root(n)  # type: ignore[arg-type]
            if type(root) is cst.Name and root.value == me:
                first = n
                while type(first.value) is not cst.Name:  # type: ignore[attr-defined]
                    first = first.value  # type: ignore[attr-defined]
                if type(first) is not cst.Attribute:
                    return None  # self[k]
                name = first.attr.value
                if name == "__dict__":
                    return None
                if (
                    name in _MODULE_WALKS
                    and type(parent) is cst.Call
                    and type(grand) is cst.For
                    and grand.iter is parent
                    and _walk_body_changes(grand)
                ):
                    return None  # for m in self.modules(): m.reset(): any submodule, at any depth
                # (``self.pool.reset()``; ``self.net(x)`` too: running what an attribute holds may change it)
                called_on = (type(parent) is cst.Attribute and type(grand) is cst.Call and grand.func is parent) or (
                    type(parent) is cst.Call and parent.func is n
                )
                iterated = type(parent) in (cst.For, cst.CompFor) and parent.iter is n  # type: ignore[union-attr]
                if called_on or iterated or not _read_position(n, parent, grand):  # type: ignore[arg-type]
                    out.add(name)
        stack.extend((c, n, parent) for c in children(n))
    return frozenset(out)


# the methods of torch.nn.Module that walk its submodules (or their parameters) at any depth
_MODULE_WALKS = frozenset(
    {"modules", "children", "named_modules", "named_children", "parameters", "named_parameters", "buffers"}
)


def _walk_body_changes(loop: cst.For) -> bool:
    """Does the body of ``for m in self.modules():`` call a method on its variable (``m.reset()``) or store through
    it (``m.cache = None``)?"""
    names = _target_names(loop.target)
    stack: list[cst.CSTNode] = [loop.body]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp in _STORES and any(_stores_through(n, w) for w in names):
            return True
        if tp is cst.Call:
            f = n.func  # type: ignore[attr-defined]
            root = chain_root(f.value) if type(f) is cst.Attribute else None
            if type(root) is cst.Name and root.value in names:
                return True
        stack.extend(children(n))
    return False


def _frozen_container(v: Value) -> bool:
    """A plain dict or list (tuple) whose items are numbers, strings, or tuples of them, or dicts of such."""
    if isinstance(v, DictV) and v.kind == "dict":
        return all(_frozen_item(x) or _frozen_container(x) for _, x in v.items)
    if isinstance(v, IntDictV):
        return all(_frozen_item(x) for _, x in v.items)
    return isinstance(v, SeqV) and v.kind in ("list", "tuple") and all(_frozen_item(x) for x in v.items)


# builtins that only read what they are handed (``len(self.tasks)``, ``zip(self.a, self.b)``)
# builtins whose result is a number made from their one argument, which they only read
_NUMBER_BUILTINS = frozenset({"len", "int", "float", "abs", "round"})
_COPYING_BUILTINS = frozenset({"len", "list", "tuple", "dict", "sorted", "set", "frozenset", "enumerate", "zip"})


def _escaping_attributes(fn: cst.CSTNode) -> frozenset[str]:
    """The attribute names that a method reaches through its ``self`` (``self.config.task_num_labels``) and uses
    other than by reading: stored, aliased (``labels = self.config.task_num_labels``), handed to a call, returned,
    an item assigned, a mutating method called (``.update``, ``.append``). A chain's earlier names (``config``) are
    read on the way; calling what an attribute holds (``self.fc(x)``, ``self.config.summary()``) is read too (the
    methods of the objects walked are checked by ``_self_writes``)."""
    if type(fn) is not cst.FunctionDef:
        return frozenset({"*"})
    params = [*fn.params.posonly_params, *fn.params.params]
    if not params:
        return frozenset()
    me = params[0].name.value
    out: set[str] = set()
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None]] = [(fn.body, None, None)]
    while stack:
        n, parent, grand = stack.pop()
        if type(n) is cst.Attribute:
            root = chain_root(n)
            if type(root) is cst.Name and root.value == me and not _read_position(n, parent, grand):
                out.add(n.attr.value)
        stack.extend((c, n, parent) for c in children(n))
    return frozenset(out)


def _read_position(n: cst.Attribute, parent: cst.CSTNode | None, grand: cst.CSTNode | None) -> bool:
    """Is ``n`` (an attribute chain from ``self``) only read where it stands under ``parent`` (and ``grand``)?"""
    tp = type(parent)
    if isinstance(parent, cst.Attribute):
        if isinstance(grand, cst.Call) and grand.func is parent:
            return parent.attr.value not in _MUTATING_METHODS
        return True  # self.config.dim: the chain goes on
    if tp is cst.Call:
        return parent.func is n  # type: ignore[union-attr]  # self.fc(x): what it holds, run
    if tp is cst.Subscript:
        if type(grand) in (cst.AssignTarget, cst.AugAssign, cst.Del) and grand.target is parent:  # type: ignore[union-attr]
            return False  # self.cfg.labels[k] = v
        return parent.value is n  # type: ignore[union-attr]
    if tp in (cst.Comparison, cst.ComparisonTarget, cst.If, cst.While, cst.Assert, cst.UnaryOperation):
        return True
    if tp is cst.BinaryOperation:
        return True  # (self.image_size // self.patch_size) ** 2: operands of arithmetic, a new value made of them
    if tp in (cst.BooleanOperation, cst.FormattedStringExpression, cst.IfExp):
        return tp is not cst.IfExp or parent.test is n  # type: ignore[union-attr]
    if tp in (cst.For, cst.CompFor):
        return parent.iter is n  # type: ignore[union-attr]
    if tp is cst.Arg and isinstance(grand, cst.Call):
        func = grand.func
        return type(func) is cst.Name and func.value in _COPYING_BUILTINS
    return False


def _self_writes(fn: cst.CSTNode) -> tuple[bool, frozenset[str]]:
    """(may ``fn``, a method, change an attribute of its ``self``: ``self.x = ...``, ``self.x[k] = v``, ``del self.x``,
    ``self.cache.append(t)``, ``setattr(self, ...)``, ``self.__dict__``; the names ``self.<name>(...)`` calls, which
    are methods or submodules the caller looks up)."""
    if type(fn) is not cst.FunctionDef:
        return True, frozenset()
    params = [*fn.params.posonly_params, *fn.params.params]
    if not params:
        return True, frozenset()
    me = params[0].name.value
    called: set[str] = set()

    def rooted(e: cst.BaseExpression) -> bool:
        e = chain_root(e)
        return type(e) is cst.Name and e.value == me

    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp in _STORES:
            if _stores_through(n, me):
                return True, frozenset()
        elif tp is cst.Attribute and cast(cst.Attribute, n).attr.value == "__dict__" and rooted(cast(cst.Attribute, n)):
            return True, frozenset()
        elif tp is cst.Call:
            f = n.func  # type: ignore[attr-defined]
            if type(f) is cst.Name and f.value in ("setattr", "delattr", "vars") and n.args and rooted(n.args[0].value):  # type: ignore[attr-defined]
                return True, frozenset()
            if type(f) is cst.Attribute and rooted(f.value):
                if type(f.value) is cst.Name:
                    called.add(f.attr.value)  # self.name(...): a method, or a submodule run
                elif f.attr.value in _MUTATING_METHODS:
                    return True, frozenset()
        stack.extend(children(n))
    return False, frozenset(called)


def _methods_taken(cls: cst.CSTNode) -> frozenset[str]:
    """The names ``self.NAME`` reads anywhere in a class's body without calling it (a bound method handed on:
    ``register_forward_hook(self._save)``, ``fn = self.step``), and every name ``getattr`` may read (any, "*")."""
    out: set[str] = set()
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None]] = [(cls, None)]
    while stack:
        n, parent = stack.pop()
        if type(n) is cst.Attribute and type(n.value) is cst.Name and n.value.value == "self":
            if not (type(parent) is cst.Call and parent.func is n):
                out.add(n.attr.value)
        elif type(n) is cst.Call and type(n.func) is cst.Name and n.func.value == "getattr":
            return frozenset({"*"})
        stack.extend((c, n) for c in children(n))
    return frozenset(out)


def _self_escapes(fn: cst.CSTNode) -> bool:
    """Does ``fn``, a method, use its ``self`` other than by reading an attribute of it (``helper(self)``,
    ``x = self``, a nested function reading it, ``super(Cls, self)``)?"""
    if type(fn) is not cst.FunctionDef:
        return True
    params = [*fn.params.posonly_params, *fn.params.params]
    if not params:
        return True
    me = params[0].name.value
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None]] = [(fn.body, None)]
    while stack:
        n, parent = stack.pop()
        if type(n) is cst.Name and n.value == me:
            if not (type(parent) is cst.Attribute and parent.value is n):
                return True
            continue
        stack.extend((c, n) for c in children(n))
    return False


def _parent_map(root: cst.CSTNode) -> dict[int, cst.CSTNode]:
    out: dict[int, cst.CSTNode] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        for c in children(n):
            out[id(c)] = n
            stack.append(c)
    return out


def _computed_returns(fn: cst.CSTNode) -> bool:
    """Does every ``return`` of ``fn`` (and there is one) give an arithmetic or comparison result, a number or a
    string literal: a value made afresh, not something an object holds?"""
    returns: list[cst.Return] = []
    stack: list[cst.CSTNode] = [fn]
    while stack:
        n = stack.pop()
        if type(n) is cst.Return:
            returns.append(n)
        elif n is not fn and type(n) in (cst.FunctionDef, cst.Lambda, cst.ClassDef):
            continue
        stack.extend(children(n))
    fresh = (cst.BinaryOperation, cst.Comparison, cst.UnaryOperation, cst.Integer, cst.Float, cst.SimpleString)
    return bool(returns) and all(type(r.value) in fresh for r in returns)


def _method_of_attribute(parent_of: dict[int, cst.CSTNode] | None, node: cst.CSTNode | None) -> bool:
    """``p.x.m(...)`` (``node`` ``p.x.m``, called)?"""
    if parent_of is None or type(node) is not cst.Attribute:
        return False
    up = parent_of.get(id(node))
    return type(up) is cst.Call and up.func is node


def _read_chain(parent_of: dict[int, cst.CSTNode], node: cst.Attribute) -> str | None:
    """``p.x.y`` (``node``, reached from ``p.x``) and the attributes after it, when the chain is only read where it
    ends (an operand, an argument, an assigned value): their dotted names after ``x`` ("y", "y.z"); None when the
    chain is stored into, deleted, subscripted, a method of it called, or a target."""
    path = [node.attr.value]
    cur: cst.CSTNode = node
    while True:
        up = parent_of.get(id(cur))
        if type(up) is cst.Attribute and up.value is cur:
            path.append(up.attr.value)
            cur = up
            continue
        break
    ctx = parent_of.get(id(cur))
    if type(ctx) is cst.Element:
        # ``(cfg.env.stack, cfg.env.size)``: a display read as a value, not a target (``a.x, a.y = ...``)
        display = parent_of.get(id(ctx))
        outer = parent_of.get(id(display)) if display is not None else None
        if type(display) in (cst.Tuple, cst.List) and not (
            type(outer) in (cst.AssignTarget, cst.Del, cst.WithItem, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor)
            or type(outer) in (cst.Element, cst.StarredElement, cst.Tuple, cst.List)
        ):
            return ".".join(path)
        return None
    if ctx is None or type(ctx) in (cst.AssignTarget, cst.Del, cst.WithItem, cst.StarredElement):
        return None
    if type(ctx) in (cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor) and ctx.target is cur:  # type: ignore[attr-defined]
        return None
    if type(ctx) is cst.Subscript and ctx.value is cur:
        return None
    if type(ctx) is cst.Call and ctx.func is cur:
        return None
    return ".".join(path)


def _iterated_only(fn: cst.CSTNode) -> dict[str, frozenset[str]]:
    """Per parameter ``p``: the attributes ``p.x`` that the function only iterates (``for n in p.x``, a
    comprehension's ``for n in p.x``), read nowhere else."""
    if type(fn) is not cst.FunctionDef:
        return {}
    ps = fn.params
    names = {p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)}
    looped: dict[str, set[str]] = {}
    other: dict[str, set[str]] = {}
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None]] = [(fn.body, None, None)]
    while stack:
        n, parent, grand = stack.pop()
        if type(n) is cst.Name and n.value in names:
            if type(parent) is cst.Attribute and parent.value is n:
                iterated = type(grand) in (cst.For, cst.CompFor) and grand.iter is parent  # type: ignore[union-attr]
                (looped if iterated else other).setdefault(n.value, set()).add(parent.attr.value)
            continue
        stack.extend((c, n, parent) for c in children(n))
    return {k: frozenset(v - other.get(k, set())) for k, v in looped.items()}


def _param_attribute_writes(fn: cst.CSTNode) -> dict[str, frozenset[str] | None]:
    """Per parameter of ``fn``: the attributes of the object it binds that the body may change (None: the object
    itself may change: the parameter is rebound, handed on, returned, a method of it called, or it is read by a nested
    function). An attribute that is only tested or compared (``if params.seqlen_offset > 0``, ``k in params.cache``)
    stays; one assigned or changed by item may change (``params.cache[k] = v``); one handed on, iterated or read into
    a variable is named ``"use cache"``: what it holds may change in place, a number or string may not."""

    if type(fn) is not cst.FunctionDef:
        return {}
    names = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)]
    out: dict[str, set[str] | None] = {n: set() for n in names}
    counted: set[int] = set()  # (the arguments of ``len`` calls: a call is entered before its arguments)
    parent_of: dict[int, cst.CSTNode] | None = None
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None, bool]] = [(fn.body, None, None, False)]
    while stack:
        node, parent, grand, nested = stack.pop()
        tp = type(node)
        if tp is cst.Name and node.value in out:  # type: ignore[attr-defined]
            name = node.value  # type: ignore[attr-defined]
            attrs = out[name]
            if attrs is None or (type(parent) is cst.Attribute and parent.attr is node):
                continue  # (``obj.p``: another object's attribute of that name)
            if type(parent) is cst.Arg and parent.keyword is node:
                continue  # (``f(p=...)``: a keyword)
            if not nested and type(parent) in (cst.Comparison, cst.ComparisonTarget):
                continue  # ``p is not None``: the object is only compared
            if not nested and type(parent) is cst.Call and parent.func is node:
                attrs.add(CALLED)  # ``model(x)``: its own forward runs (_attribute_writes decides what that changes)
                continue
            if type(parent) is not cst.Attribute or parent.value is not node:
                out[name] = None  # the object itself used: handed on, rebound, returned, seen by a nested function
            elif nested:
                # a nested function (a closure handed to ``hk.transform``) reading ``cfg.d_model``: as a read here,
                # whenever it runs; anything more (a write, a method, a deeper or item access) may change the object
                if _writes_attribute(grand, parent) or (type(grand) is cst.Call and grand.func is parent):
                    out[name] = None
                else:
                    attrs.add("use " + parent.attr.value)
            elif type(grand) is cst.Call and grand.func is parent:
                if parent.attr.value in _READ_ONLY_MODULE_METHODS:
                    attrs.add(CALLED)  # ``model.parameters()``: handed to an optimizer, nothing of it changed
                elif parent.attr.value in ("train", "eval"):
                    attrs.update((CALLED, "training"))  # ``model.train()``: its mode (and its modules') changes
                elif not nested:
                    # ``model.sampler(logits)``: a method of it, or an object it holds, called (_attribute_writes
                    # tells which from the object handed: the whole object may change, or that one attribute)
                    attrs.add(CALL_PREFIX + parent.attr.value)
                else:
                    out[name] = None  # a method of it called
            elif (
                (type(grand) is cst.Element or type(grand) is cst.StarredElement)
                and not nested
                and not _display_target(parent_of := parent_of or _parent_map(fn.body), cast(cst.CSTNode, grand))
            ):
                attrs.add("use " + parent.attr.value)  # ``shape = (cfg.n_way, n)``: read into a tuple or list
            elif type(grand) is cst.Subscript and grand.value is parent and not nested:
                # ``buf.values[step] = v`` (or an item read): an array the attribute holds keeps its shape (the call
                # site looks: ITEM_PREFIX); anything else it holds may change by item
                attrs.add(ITEM_PREFIX + parent.attr.value)
            elif _writes_attribute(grand, parent):
                deep = None
                if type(grand) is cst.Attribute and grand.value is parent and not nested:
                    if parent_of is None:
                        parent_of = _parent_map(fn.body)
                    deep = _read_chain(parent_of, grand)
                # ``cfg.env.num_envs`` read: "use env.num_envs" (the caller checks what it holds); else changed
                if deep is None and _method_of_attribute(parent_of, grand):
                    # ``cfg.alphabet.find(c)``: a method of what the attribute holds (the call site looks: a string
                    # or a number cannot change)
                    attrs.add(METHOD_PREFIX + parent.attr.value)
                else:
                    attrs.add(f"use {parent.attr.value}.{deep}" if deep is not None else parent.attr.value)
            elif not isinstance(grand, _READING_PARENTS) and id(grand) not in counted:
                attrs.add("use " + parent.attr.value)  # read into a variable, handed on, iterated
            continue
        if tp is cst.Call and type(node.func) is cst.Name and node.func.value == "len":  # type: ignore[attr-defined]
            counted.update(id(a) for a in node.args)  # type: ignore[attr-defined]  # len(p.stages): only read
        inner = nested or tp in _SCOPES or tp is cst.Lambda
        for child in children(node):
            stack.append((child, node, parent, inner))
    return {k: (frozenset(v) if v is not None else None) for k, v in out.items()}


# torch.nn.Module methods iterating over its parameters or submodules
_MODULE_ITERATORS = frozenset(
    {"parameters", "named_parameters", "modules", "named_modules", "children", "named_children"}
)


def _freezes_only(fn: cst.CSTNode) -> frozenset[str]:
    """Parameters of ``fn`` used only as ``for n, p in model.named_parameters():`` (``parameters``, ``modules``,
    ``children`` and their named forms, no arguments) whose loop variable is only tested (``isinstance(m, Lora)``,
    ``hasattr(m, "bias")``, ``m.bias is not None``) or has ``requires_grad`` read or set (``p.requires_grad =
    False``, ``m.bias.requires_grad_(True)``): freezing parameters changes no attribute of the object."""
    if type(fn) is not cst.FunctionDef:
        return frozenset()
    names = {p.name.value for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)}
    loops: dict[str, int] = {}
    uses: dict[str, int] = {}
    bad: set[str] = set()
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None]] = [(fn.body, None)]
    while stack:
        node, parent = stack.pop()
        tp = type(node)
        if tp is cst.Name and node.value in names:  # type: ignore[attr-defined]
            if not (type(parent) is cst.Attribute and parent.attr is node) and not (
                type(parent) is cst.Arg and parent.keyword is node
            ):
                uses[node.value] = uses.get(node.value, 0) + 1  # type: ignore[attr-defined]
            continue
        if tp is cst.For:
            loop = cast(cst.For, node)
            it = loop.iter
            if (
                type(it) is cst.Call
                and not it.args
                and type(it.func) is cst.Attribute
                and type(it.func.value) is cst.Name
                and it.func.value.value in names
                and it.func.attr.value in _MODULE_ITERATORS
            ):
                name = it.func.value.value
                target = loop.target
                held: cst.BaseExpression | None = target
                if it.func.attr.value.startswith("named_"):
                    items = target.elements if type(target) is cst.Tuple else ()
                    held = items[1].value if len(items) == 2 and not isinstance(items[1], cst.StarredElement) else None
                if type(held) is not cst.Name or not _only_tested_or_frozen(loop.body, held.value):
                    bad.add(name)
                loops[name] = loops.get(name, 0) + 1
        elif tp in (cst.ListComp, cst.SetComp, cst.GeneratorExp):
            # an optimizer's parameter groups: ``[p for p in model.parameters() if not hasattr(p, "_optim")]``
            comp = cast("cst.ListComp", node)
            it = comp.for_in.iter
            if (
                comp.for_in.inner_for_in is None
                and type(it) is cst.Call
                and not it.args
                and type(it.func) is cst.Attribute
                and type(it.func.value) is cst.Name
                and it.func.value.value in names
                and it.func.attr.value in ("parameters", "named_parameters")
            ):
                name = it.func.value.value
                target = comp.for_in.target
                held = target
                if it.func.attr.value == "named_parameters":
                    items = target.elements if type(target) is cst.Tuple else ()
                    held = items[1].value if len(items) == 2 and not isinstance(items[1], cst.StarredElement) else None
                parts = (comp.elt, *(c.test for c in comp.for_in.ifs))
                if type(held) is not cst.Name or not all(_only_collected_or_read(x, held.value) for x in parts):
                    bad.add(name)
                loops[name] = loops.get(name, 0) + 1
        stack.extend((c, node) for c in children(node))
    return frozenset(n for n in loops if n not in bad and uses.get(n, 0) == loops[n])


_PARAMETER_READS = frozenset({"numel", "dim", "size", "is_floating_point", "is_complex"})


def _only_collected_or_read(expr: cst.BaseExpression, name: str) -> bool:
    """Is every use of the parameter ``name`` in a comprehension's element or condition the parameter itself (the
    element, or an item of a tuple element), an argument of ``hasattr`` / ``getattr`` / ``isinstance`` / ``id``, or
    an attribute read (``p._optim.items()``, ``p.requires_grad``, ``p.numel()``): nothing there changes the module
    the parameter belongs to (``_freezes_only``)."""
    stack: list[tuple[cst.CSTNode, tuple[cst.CSTNode, ...]]] = [(expr, ())]
    while stack:
        node, up = stack.pop()
        tp = type(node)
        if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.NamedExpr):
            return False
        if tp is cst.Name and node.value == name:  # type: ignore[attr-defined]
            parent = up[-1] if up else None
            if parent is None or (type(parent) is cst.Element and len(up) == 2 and type(up[0]) is cst.Tuple):
                continue  # the element itself, or an item of the tuple that is the element
            if type(parent) is cst.Attribute and parent.attr is node:
                continue
            if type(parent) is cst.Attribute:
                grand = up[-2] if len(up) > 1 else None
                if type(grand) is cst.Call and grand.func is parent and parent.attr.value not in _PARAMETER_READS:
                    return False  # p.resize_(...), p.mul_(...): a method of the parameter itself
                continue
            if (
                type(parent) is cst.Arg
                and len(up) > 1
                and type(up[-2]) is cst.Call
                and type(up[-2].func) is cst.Name
                and up[-2].func.value in ("hasattr", "getattr", "isinstance", "id")
                and up[-2].args[0] is parent
            ):
                continue
            return False
        stack.extend((c, up + (node,)) for c in children(node))
    return True


def _normal_method(dist: LayerV, method: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``dist.rsample()``, ``dist.sample((n,))``, ``dist.log_prob(x)``, ``dist.entropy()`` of a
    ``torch.distributions.Normal`` of batch shape ``shape`` (``library_calls._normal_distribution``)."""
    from ..rules.ops_common import broadcast_shapes

    shape = dist.param("shape")
    if not isinstance(shape, tuple):
        return UNKNOWN
    if method in ("rsample", "sample") and not kwargs:
        if not args:
            return TensorV(shape, None, "torch")
        given = args[0]
        sizes = given.items if isinstance(given, SeqV) else None
        if len(args) == 1 and sizes is not None and all(isinstance(x, IntV) for x in sizes):
            return TensorV(tuple(x.size for x in sizes) + shape, None, "torch")  # type: ignore[union-attr]
        return UNKNOWN
    if method in ("log_prob", "cdf") and len(args) == 1 and not kwargs:
        x = args[0]
        if isinstance(x, TensorV) and x.shape is not None and not x.alts:
            out, fails = broadcast_shapes(x.shape, shape)
            return TensorV(out, None, "torch") if out is not None and fails is None else UNKNOWN
        return UNKNOWN
    if method == "entropy" and not args and not kwargs:
        return TensorV(shape, None, "torch")
    return UNKNOWN


# nn.init's in-place initialisers (and timm's), called on a module's weight or bias: values change, shapes do not
_INITIALISERS = frozenset(
    {
        "normal_",
        "uniform_",
        "constant_",
        "zeros_",
        "ones_",
        "eye_",
        "dirac_",
        "xavier_uniform_",
        "xavier_normal_",
        "kaiming_uniform_",
        "kaiming_normal_",
        "trunc_normal_",
        "orthogonal_",
        "sparse_",
        "lecun_normal_",
        "variance_scaling_",
        # torch.nn.init's old names, deprecated wrappers that fill in place as well (``nn.init.orthogonal(w)``)
        "normal",
        "uniform",
        "constant",
        "xavier_uniform",
        "xavier_normal",
        "kaiming_uniform",
        "kaiming_normal",
        "orthogonal",
        "sparse",
    }
)


# in-place methods that change a tensor's shape (not a fill: ``m.weight.data.resize_(...)``)
_RESHAPES = frozenset(
    {
        "resize_",
        "resize_as_",
        "unsqueeze_",
        "squeeze_",
        "transpose_",
        "t_",
        "swapdims_",
        "swapaxes_",
        "set_",
        "as_strided_",
    }
)


# methods that change the object they are called on in a way sizes see (``self.model.apply(fix)``,
# ``self.head.reset_classifier(n)``, ``self.scale.data.unsqueeze_(0)``); other in-place tensor methods (``fill_``,
# ``normal_``) keep every shape
_CHANGING_METHODS = (
    _CONTAINER_MUTATORS
    | _RESHAPES
    | {
        "apply",
        "load_state_dict",
        "register_buffer",
        "register_parameter",
        "register_module",
        "add_module",
    }
)


def _initialises_only(fn: cst.CSTNode) -> bool:
    """Is ``fn`` a weight-initialisation callback (``def init_weights(m)``, ``model.apply(init_weights)``): its
    first parameter (after ``self``) only tested (``isinstance(m, nn.Conv1d)``, ``m.bias is not None``) and its
    weights and biases only filled in place (``m.weight.data.normal_(0, 0.02)``, ``nn.init.zeros_(m.bias)``)? Such a
    function changes values, never a shape or an attribute of the module."""
    if type(fn) is not cst.FunctionDef:
        return False
    params = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
    if params[:1] == ["self"]:
        params = params[1:]
    return bool(params) and _only_tested_or_frozen(fn.body, params[0], initialising=True)


def _only_tested_or_frozen(body: cst.CSTNode, name: str, initialising: bool = False) -> bool:
    """Is every use of ``name`` in ``body`` a test, a ``requires_grad`` read or set, or the value returned
    (``_freezes_only``)? With
    ``initialising``, an attribute of it (``m.weight``, ``m.bias.data``) may also be filled in place (a method ending
    in ``_``, or handed first to an initialiser: ``_initialises_only``)."""
    stack: list[tuple[cst.CSTNode, tuple[cst.CSTNode, ...]]] = [(body, ())]
    while stack:
        node, up = stack.pop()
        tp = type(node)
        if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            return False
        if tp is cst.Name and node.value == name:  # type: ignore[attr-defined]
            parent = up[-1] if up else None
            if type(parent) is cst.Attribute and parent.attr is node:
                continue
            if type(parent) in (cst.AssignTarget, cst.For, cst.AugAssign, cst.AnnAssign, cst.NamedExpr):
                return False  # the name rebound
            i = len(up)
            cur: cst.CSTNode = node
            chain: list[str] = []
            while i > 0 and type(up[i - 1]) is cst.Attribute and up[i - 1].value is cur:  # type: ignore[attr-defined]
                cur = up[i - 1]
                chain.append(cur.attr.value)  # type: ignore[attr-defined]
                i -= 1
            outer = up[i - 1] if i > 0 else None
            called = type(outer) is cst.Call and outer.func is cur
            if chain and chain[-1] == "requires_grad" and not called:
                continue
            if chain and chain[-1] == "requires_grad_" and called:
                continue
            if type(outer) in (cst.Comparison, cst.ComparisonTarget):
                continue
            if not chain and type(outer) is cst.Return:
                continue  # ``find_module``: the first module of a class returned (its caller's store on it is seen)
            if initialising and len(chain) >= 2 and called and chain[-1].endswith("_") and chain[-1] not in _RESHAPES:
                continue  # m.weight.data.normal_(0.0, 0.02), m.bias.zero_()
            if (
                initialising
                and chain
                and type(outer) is cst.Arg
                and outer.keyword is None
                and i > 1
                and type(up[i - 2]) is cst.Call
                and up[i - 2].args[0] is outer  # type: ignore[attr-defined]
                and (dotted(up[i - 2].func) or "").rsplit(".", 1)[-1] in _INITIALISERS  # type: ignore[attr-defined]
            ):
                continue  # nn.init.kaiming_normal_(m.weight), trunc_normal_(m.weight, std=0.02)
            if (
                not chain
                and type(outer) is cst.Arg
                and i > 1
                and type(up[i - 2]) is cst.Call
                and type(up[i - 2].func) is cst.Name  # type: ignore[attr-defined]
                and up[i - 2].func.value in ("isinstance", "hasattr", "type")  # type: ignore[attr-defined]
            ):
                continue  # (``type(module) in {nn.Linear}``)
            if chain and chain[0] == "__class__" and not called and type(outer) not in _STORES:
                continue  # ``classname = m.__class__.__name__`` (DCGAN's ``weights_init``): its class read
            return False
        stack.extend((c, up + (node,)) for c in children(node))
    return True


_STORES = (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)


def _handed_on(fn: cst.CSTNode) -> frozenset[str]:
    """Names a function (its nested functions left out) passes to a call, calls a method of, or changes by item
    (``f(xs)``, ``xs.append(t)``, ``xs[i] = t``, ``del xs[i]``): a list or dict there may change."""

    out: set[str] = set()
    stack: list[cst.CSTNode] = [fn.body] if type(fn) is cst.FunctionDef else []
    while stack:
        node = stack.pop()
        tp = type(node)
        if tp in _SCOPES or tp is cst.Lambda:
            continue
        if tp is cst.Arg and type(node.value) is cst.Name:  # type: ignore[attr-defined]
            out.add(node.value.value)  # type: ignore[attr-defined]
        elif tp is cst.Attribute and type(node.value) is cst.Name:  # type: ignore[attr-defined]
            out.add(node.value.value)  # type: ignore[attr-defined]
        elif tp in (cst.AssignTarget, cst.AugAssign, cst.Del) and type(node.target) is cst.Subscript:  # type: ignore[attr-defined]
            base = node.target.value  # type: ignore[attr-defined]
            if type(base) is cst.Name:
                out.add(base.value)
        stack.extend(children(node))
    return frozenset(out)


def _callable(v: Value) -> Value:
    """``callable(d)`` where the kind of value decides it: a function or a lambda, a class, a partial are; a tensor,
    a number, a string, None, a sequence are not. Objects (``__call__``?) and anything else: unknown."""
    if isinstance(v, FuncV) or (isinstance(v, RefV) and v.qualname.startswith("class:")):
        return BoolV(True)
    if isinstance(v, LayerV) and v.kind == "partial":
        return BoolV(True)
    if isinstance(v, PLAIN_DATA):
        return BoolV(False)
    return UNKNOWN


# the frameworks' module base classes: a parameter annotated with a subclass is a layer whose call runs its body
_MODULE_BASES = ("torch.nn.", "equinox.", "flax.linen.", "flax.nnx.", "keras.", "tensorflow.keras.", "haiku.")


def _stub_body(node: cst.FunctionDef) -> bool:
    """A method whose body only documents it (a docstring, ``...``, ``pass``, ``raise NotImplementedError``)."""
    smalls: list[cst.CSTNode] = []
    for stmt in node.body.body:
        smalls.extend(stmt.body if type(stmt) is cst.SimpleStatementLine else [stmt])
    for small in smalls:
        if type(small) in (cst.Pass, cst.Raise):
            continue
        if type(small) is cst.Expr and type(small.value) in (cst.Ellipsis, cst.SimpleString):
            continue
        return False
    return True


MIXIN_RUNS = 4  # module classes a mixin's method is run for (the first ones of the module)


def _mixin_methods(m: "ModuleAnalysis") -> list[tuple[FunctionInfo, str]]:
    """The methods a module class of ``m`` inherits, unchanged, from a plain class of ``m`` (no base outside the
    analysed code: a mixin, ``class DistillMixin:`` whose ``forward`` reads ``self.cls_token``), each with the module
    class it runs for. The mixin's own run knows nothing of ``self``; this run reads the attributes that class's
    constructor (run on its own, with symbolic sizes) sets. At most MIXIN_RUNS classes per method."""
    out: list[tuple[FunctionInfo, str]] = []
    runs: dict[str, int] = {}
    for ci in m.classes.values():
        if not any(b.startswith(_MODULE_BASES) for b in objects.foreign_bases(m, ci)):
            continue
        seen = set(ci.methods)
        for base in objects.mro(m, ci)[1:]:
            plain = base.module is m and not objects.foreign_bases(m, base)
            for name, fi in base.methods.items():
                if name in seen:
                    continue
                seen.add(name)
                if not plain or name.startswith("__") or fi.is_static or fi.is_classmethod or "<locals>" in fi.key:
                    continue
                if runs.get(fi.key, 0) < MIXIN_RUNS:
                    runs[fi.key] = runs.get(fi.key, 0) + 1
                    out.append((fi, ci.key))
    return out


def _fractions_gcd(args: list[Value], kwargs: dict[str, Value], dynamic: bool) -> Value:
    """``fractions.gcd(a, b)`` (Python 3.8 and older; a script of that time, or a driver putting it back): of two
    ints math.gcd's value, negative when ``b`` (or ``a``, ``b`` being 0) is; of floats Euclid's loop, a float
    (``lcm = reduce(lambda x, y: (x * y) / gcd(x, y), numbers, 1)`` hands it the float of the step before)."""
    if dynamic or kwargs or len(args) != 2 or not all(isinstance(a, (IntV, FloatV)) for a in args):
        return UNKNOWN
    if any(isinstance(v, IntV) and v.assumed for v in args):
        return UNKNOWN
    a, b = (number_of(v) for v in args)
    if a is None or b is None:
        return UNKNOWN
    if isinstance(a, int) and isinstance(b, int):
        g = math.gcd(a, b)
        return IntV(Size.const(-g if (b or a) < 0 else g))
    x, y = float(a), float(b)
    for _ in range(64):
        if not y:
            return FloatV(x)
        x, y = y, x % y
    return UNKNOWN


def _choice_text(v: Value) -> str:
    return v.value if isinstance(v, StrV) else "?"


# call() <-> _inline: the caller's dict and list values a call hands on (by id), and what the callee's run left in them
_WANTED: dict[int, frozenset[int]] = {}
_CARRIED: dict[int, dict[int, Value]] = {}

# builtins that read an argument without keeping a reference to it (a carried parameter may be handed to them)
_NO_REFERENCE_BUILTINS = frozenset(
    {"len", "dict", "list", "tuple", "sorted", "set", "frozenset", "isinstance", "print", "str", "repr", "bool"}
    | {"any", "all", "sum", "min", "max", "hasattr", "type"}
)


def _carry_candidates(interp: Interpreter, node: cst.Call, tree: cst.Module) -> list[tuple[str, Value, int | None]]:
    """The arguments of a call that are local variables holding a dict or a list no other name holds: what a callee
    changes in them in place may be carried back (``ModuleAnalysis._call_carrying``). So are the items of such a
    list handed on (``caches[i]``, ``None if caches is None else caches[i]``: a layer's cache dict), with their index:
    a dict or list no other item is. At module level (``state = {}`` then ``conv(x, state)`` in a ``__main__``
    block) a variable is a global: only one no function, lambda or class body of the module names."""
    out: list[tuple[str, Value, int | None]] = []
    at_module = interp.frame.key == "<module>"
    inner: frozenset[str] | None = None  # (at module level: the names bodies of the module use, walked when needed)
    for a in node.args:
        if a.star:
            continue
        item = _handed_item(a.value)
        key = _var_key(a.value) if item is None else None
        if item is None and key is None:
            continue
        if at_module and inner is None:
            inner = walk_memo("body-names", tree, _names_in_bodies)
        if item is not None and inner is not None and item[0] in inner:
            continue
        if item is not None:
            found = _carried_item(interp, *item)
            if found is not None:
                out.append(found)
            continue
        if key is None or (inner is not None and key in inner):
            continue
        if key in interp.scope.vars or type(a.value) is cst.Name:
            v = interp.scope.vars.get(key)
            if type(v) is ObjV or (
                type(v) is LayerV and v.kind != "either" and interp.walked_model(key, v) is not None
            ):
                # a model handed to a function that walks its modules (``inject_lora(model, cfg)``): carried back
                # when no other name holds it, nor anything another name holds (_carry_watch checks the callee)
                # (a module of a walk over a model, ``for name, child in module.named_children():
                # inject_lora(child)``: the model holds it, and gets what the callee left there, walked_replaced)
                model = interp.walked_model(key, v)
                if (
                    (isinstance(v, LayerV) or v.concrete)
                    and type(a.value) is cst.Name
                    and interp.frame.key != "<module>"
                    and _plain_function_callee(interp, node.func)
                    and not any(
                        x is v or _holds(x, v, 4)
                        for k, x in interp.scope.vars.items()
                        if k != key and (model is None or x is not model) and interp.loop_aliases.get(key) != k
                    )
                ):
                    out.append((key, v, None))
                continue
            if v is None or not _carriable(v):
                continue
            if any(x is v for k, x in interp.scope.vars.items() if k != key):
                continue
            out.append((key, v, None))
            continue
        # ``self.conv(x, self.state)``: an attribute of self not set in this method, a dict or list no other
        # attribute of self and no other name holds
        me = interp.scope.vars.get("self")
        v = me.attr(key[5:]) if isinstance(me, ObjV) else None
        if v is None or not _carriable(v) or me is None:
            continue
        if not _held_elsewhere(interp, key, v):
            out.append((key, v, None))
    return out


def _names_in_bodies(tree: cst.CSTNode) -> frozenset[str]:
    """The names a function, lambda or class body of a module may read or change as globals: every name written in
    one (not as an attribute or a keyword), less the function's own parameters and the names it assigns (unless it
    declares them ``global``)."""
    out: set[str] = set()
    stack: list[cst.CSTNode] = [tree]
    while stack:
        n = stack.pop()
        if type(n) in (cst.FunctionDef, cst.Lambda, cst.ClassDef):
            used = _written_names(n)
            own: set[str] = set()
            if type(n) is not cst.ClassDef:
                ps = n.params  # type: ignore[attr-defined]
                own.update(p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params))
                own.update(p.name.value for p in (ps.star_arg, ps.star_kwarg) if isinstance(p, cst.Param))
            if type(n) is cst.FunctionDef:
                own.update(_assigned_names(n.body))
                own -= _global_names(n)
            out.update(used - own)
        stack.extend(children(n))
    return frozenset(out)


def _written_names(node: cst.CSTNode) -> set[str]:
    """The names written in a def, lambda or class, not counting what is nested in it (each its own) nor
    parameter, attribute and keyword names."""
    out: set[str] = set()
    stack: list[cst.CSTNode] = list(children(node)) if type(node) is not cst.Lambda else [node.body]
    if type(node) is cst.FunctionDef:
        stack = [node.body]
    elif type(node) is cst.ClassDef:
        stack = [node.body, *node.bases, *node.keywords]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp in (cst.FunctionDef, cst.ClassDef):
            stack.extend(n.decorators)  # type: ignore[attr-defined]
            continue
        if tp is cst.Lambda:
            continue
        if tp is cst.Name:
            out.add(n.value)  # type: ignore[attr-defined]
        elif tp is cst.Attribute:
            stack.append(n.value)  # type: ignore[attr-defined]
            continue  # (``self.state``: the attribute's name is no variable)
        elif tp is cst.Arg:
            stack.append(n.value)  # type: ignore[attr-defined]
            continue  # (``f(state=s)``)
        elif tp is cst.Global:
            out.update(a.name.value for a in n.names)  # type: ignore[attr-defined]
        stack.extend(children(n))
    return out


def _carriable(v: Value | None) -> bool:
    return (isinstance(v, DictV) and v.kind == "dict") or (isinstance(v, SeqV) and v.kind == "list")


def _handed_item(e: cst.BaseExpression) -> tuple[str, cst.BaseExpression] | None:
    """``xs[i]`` (or ``None if ... else xs[i]``, either way round) with ``xs`` a name or an attribute of self (a
    list of per-layer states): its scope key and the index."""
    if type(e) is cst.IfExp:
        none_body = type(e.body) is cst.Name and e.body.value == "None"
        none_orelse = type(e.orelse) is cst.Name and e.orelse.value == "None"
        if none_body == none_orelse:
            return None
        e = e.orelse if none_body else e.body
    if type(e) is not cst.Subscript or len(e.slice) != 1:
        return None
    key = _var_key(e.value)
    index = e.slice[0].slice
    if key is None or type(index) is not cst.Index:
        return None
    return key, index.value


def _carried_item(interp: Interpreter, name: str, index: cst.BaseExpression) -> tuple[str, Value, int | None] | None:
    """The item ``name[index]`` as a carry candidate: a dict or list in a local list no other name holds, at a
    known index, no other item of which is the same value."""
    xs = interp.scope.vars.get(name)
    if xs is None and name.startswith("self.") and isinstance(me := interp.scope.vars.get("self"), ObjV):
        xs = me.attr(name[5:])  # (a list of self the method has not set: ``conv(x, self.states[i])``)
    if not (isinstance(xs, SeqV) and xs.kind == "list") or any(
        x is xs for k, x in interp.scope.vars.items() if k != name
    ):
        return None
    if type(index) is not cst.Name and type(index) is not cst.Integer:
        return None  # (evaluated again here: nothing that can fail or change anything)
    with interp.ctx.discarding():
        i = interp.eval(index)
    k = i.size.as_int() if isinstance(i, IntV) and not i.assumed else None
    if k is None or not -len(xs.items) <= k < len(xs.items):
        return None
    k %= len(xs.items)
    v = xs.items[k]
    if not _carriable(v) or sum(1 for x in xs.items if x is v) != 1 or _held_elsewhere(interp, name, v):
        return None
    return name, v, k


def _list_holders(interp: Interpreter, name: str, v: Value) -> list[tuple[str, SeqV]]:
    """The other names holding a list that has the dict or list ``v`` as one of its items (once)."""
    return [
        (other, x)
        for other, x in interp.scope.vars.items()
        if other != name and isinstance(x, SeqV) and x.kind == "list" and sum(1 for y in x.items if y is v) == 1
    ]


def _replace_in_lists(interp: Interpreter, holders: list[tuple[str, SeqV]], old: Value, new: Value) -> None:
    """``for conv, st in zip(self.convs, self.states): x = conv(x, st)``: the dict carried back was an item of lists
    other names held before the call (the call forgot them with it); each holds what the callee left in it, in its
    place, unless the name was bound to something else meanwhile."""
    for other, x in holders:
        now = interp.scope.vars.get(other)
        if now is x or now is UNKNOWN:
            interp.scope.vars[other] = replace(x, items=tuple(new if y is old else y for y in x.items))


def _held_elsewhere(interp: Interpreter, name: str, v: Value) -> bool:
    """Does a name other than ``name`` hold ``v``, or (for ``self.x``) an attribute of self other than ``x``?"""
    for other, x in interp.scope.vars.items():
        if other == name:
            continue
        if other == "self" and name.startswith("self.") and isinstance(x, ObjV):
            if any(y is v or _holds(y, v, 3) for a, y in x.attrs if a != name[5:]):
                return True
        elif x is v or _holds(x, v, 3):
            return True
    return False


def _exit_values(scope: Scope, watch: frozenset[str]) -> dict[str, Value]:
    """What each watched parameter held at every exit of a run, joined (none: the body always raised)."""
    out: dict[str, Value] = {}
    if not scope.exits:
        return out
    for k in watch:
        v = scope.exits[0].get(k, UNKNOWN)
        for e in scope.exits[1:]:
            other = e.get(k, UNKNOWN)
            if other is not v:
                v = join(v, other)
        out[k] = v
    return out


_TESTS = (cst.If, cst.While, cst.Assert, cst.IfExp)


def _carry_params(fn: cst.CSTNode) -> dict[str, tuple[frozenset[str], bool]]:
    """The parameters of a function (``*args`` / ``**kwargs`` left out) that its body only reads or changes in place:
    every use is a method call on it (``kwargs.setdefault(k, v)``, ``kwargs.pop(k)``), an item read, store or
    deletion, a comparison, a test (``if not kwargs``), iteration, ``f(**kwargs)``, or an argument of a call of a
    plain name; never rebound, aliased (``x = kwargs``, ``kwargs or {}``), stored, returned, yielded, read by a nested
    function or a bound method taken without a call. Each with the names of the functions it is handed to, and
    whether a name may get hold of a value inside it (then a list, dict or object in it is not carried back: a
    change through that name is not seen in the parameter's value)."""
    if type(fn) is not cst.FunctionDef:
        return {}
    ps = fn.params
    names = {p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)}
    if not names:
        return {}
    bad: set[str] = set()
    handed: dict[str, set[str]] = {n: set() for n in names}
    leaks: dict[str, list[bool]] = {n: [False] for n in names}
    # (node, ancestors nearest first, up to 3)
    stack: list[tuple[cst.CSTNode, tuple[cst.CSTNode, ...]]] = [(fn.body, ())]
    while stack:
        node, up = stack.pop()
        tp = type(node)
        if tp in _SCOPES or tp is cst.Lambda:
            for n in _names_in(node):
                bad.add(n)
            continue
        if isinstance(node, cst.Name) and node.value in names:
            if not _carry_use(node, up, handed[node.value], leaks[node.value]):
                bad.add(node.value)
            continue
        ups = (node, *up[:3])
        stack.extend((c, ups) for c in children(node))
    return {n: (frozenset(h), leaks[n][0]) for n, h in handed.items() if n not in bad}


def _names_in(node: cst.CSTNode) -> set[str]:
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if type(n) is cst.Name:
            out.add(n.value)
        stack.extend(children(n))
    return out


_QUIET = (cst.Expr, cst.Comparison, cst.ComparisonTarget, cst.UnaryOperation)
_NO_ITEM_BUILTINS = frozenset({"len", "isinstance", "hasattr", "type", "bool", "print", "str", "repr"})


def _quiet(expr: cst.CSTNode, up: tuple[cst.CSTNode, ...]) -> bool:
    """Is the value of ``expr`` (an item of a parameter, a method's result) dropped or only tested, so no name gets
    hold of a list or dict inside the parameter?"""
    if not up:
        return False
    parent = up[0]
    return type(parent) in _QUIET or (type(parent) in _TESTS and parent.test is expr)  # type: ignore[attr-defined]


def _carry_use(node: cst.Name, up: tuple[cst.CSTNode, ...], handed: set[str], leaks: list[bool]) -> bool:
    """Is this read of a parameter one ``_carry_params`` allows? ``handed`` collects the callees it is passed to;
    ``leaks[0]`` is set when the read may give a name hold of a value inside it (an item read, iteration, a method's
    result kept, an argument)."""
    if not up:
        return False
    parent = up[0]
    tp = type(parent)
    if tp is cst.Attribute:
        # a method called on it: kwargs.setdefault(...) (not the bound method kept: f = kwargs.setdefault)
        if not (parent.value is node and len(up) > 1 and type(up[1]) is cst.Call and up[1].func is parent):  # type: ignore[attr-defined]
            return False
        if not _quiet(up[1], up[2:]):
            leaks[0] = True
        return True
    if tp is cst.Subscript:
        if parent.value is not node:  # type: ignore[attr-defined]
            return False
        stored = len(up) > 1 and type(up[1]) in (cst.AssignTarget, cst.Del) and up[1].target is parent  # type: ignore[attr-defined]
        if _item_handed_to(parent, up[1:]) is None and not stored and not _quiet(parent, up[1:]):
            # (``block(x, cache=caches[i])`` hands on an item, not the list: that call carries back what the callee
            # leaves in the item, or forgets the list -- ModuleAnalysis._call_carrying)
            leaks[0] = True
        return True
    if tp in (cst.Comparison, cst.ComparisonTarget, cst.UnaryOperation, cst.Expr, cst.FormattedStringExpression):
        return True
    if tp in (cst.For, cst.CompFor):
        leaks[0] = True
        return parent.iter is node  # type: ignore[attr-defined]
    if tp in _TESTS:
        return parent.test is node  # type: ignore[attr-defined]
    if tp is cst.BooleanOperation:
        # a test's operand (``if not kwargs or not names``); ``kwargs or {}`` elsewhere is the dict itself
        for i, anc in enumerate(up[1:], 1):
            if type(anc) is cst.BooleanOperation:
                continue
            if type(anc) is cst.UnaryOperation:
                return True
            return type(anc) in _TESTS and anc.test is up[i - 1]  # type: ignore[attr-defined]
        return False
    if tp is cst.Arg:
        call = up[1] if len(up) > 1 else None
        callee = _var_key_of(call.func) if type(call) is cst.Call and not parent.star else None  # type: ignore[attr-defined]
        if callee is None:
            leaks[0] = True
            return bool(parent.star)  # type: ignore[attr-defined]  # f(**kwargs) / f(*xs): a new dict or tuple
        handed.add(callee)
        if callee not in _NO_ITEM_BUILTINS:
            leaks[0] = True
        return True
    return False


def _item_handed_to(sub: cst.CSTNode, up: tuple[cst.CSTNode, ...]) -> str | None:
    """The callee an item ``xs[i]`` is handed to as an argument, directly or as the branch of ``None if ... else
    xs[i]`` (the carry candidates of ModuleAnalysis._call_carrying); None otherwise."""
    if type(sub) is not cst.Subscript or len(sub.slice) != 1 or type(sub.slice[0].slice) is not cst.Index:
        return None
    if up and type(up[0]) is cst.IfExp:
        ifexp = up[0]
        other = ifexp.orelse if ifexp.body is sub else ifexp.body if ifexp.orelse is sub else None
        if not (type(other) is cst.Name and other.value == "None"):
            return None
        sub, up = ifexp, up[1:]
    if len(up) < 2 or type(up[0]) is not cst.Arg or up[0].value is not sub or up[0].star:
        return None
    return _var_key_of(up[1].func) if type(up[1]) is cst.Call else None


def _plain_function_callee(interp: Interpreter, func: cst.BaseExpression) -> bool:
    """``func`` a name of a function of the analysed code (not a class, not a method)."""
    if type(func) is not cst.Name:
        return False
    v = interp.scope.vars.get(func.value) if func.value in interp.scope.vars else interp.m.globals.get(func.value)
    if v is None and func.value in interp.m.imports.names and interp.m.project is not None:
        v = interp.m.project.lookup(interp.m.imports.names[func.value])  # (``from .lora import inject_lora``)
    return type(v) is FuncV and v.bound_self is None and "." not in v.key.partition(":")[2]


def _fits_variadic(shape: tuple[Size, ...], vshape: tuple[tuple[Size, ...], Size, tuple[Size, ...]] | None) -> bool:
    """Does ``shape`` have the known leading and trailing axes of ``vshape`` (a TensorV's), each surely equal
    (no ``vshape``: nothing to agree with)?"""
    if vshape is None:
        return True
    prefix, _, suffix = vshape
    if len(shape) < len(prefix) + len(suffix):
        return False
    tail = shape[len(shape) - len(suffix) :] if suffix else ()
    return all(equal(a, b) is Truth.TRUE for a, b in zip((*shape[: len(prefix)], *tail), (*prefix, *suffix)))


def _walked_params(fn: cst.CSTNode) -> dict[str, frozenset[str]]:
    """The parameters of a function its body uses only to walk their modules (``for name, m in
    model.named_modules():``, also through ``list(...)``), which the interpreter follows module by module, or to run
    a method of for its effect alone (``model.widen(64)`` as a statement): what such a body leaves in the object is
    what the parameter holds when it returns (``_carry_watch``, which checks that each method so run is one of the
    object's class: ``model.half()`` is torch's, not followed). Never rebound, stored, handed on or read otherwise.
    Each with the names of the methods run for their effect."""
    if type(fn) is not cst.FunctionDef:
        return {}
    ps = fn.params
    names = {p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)}
    bad: set[str] = set()
    seen: dict[str, set[str]] = {}
    stack: list[tuple[cst.CSTNode, tuple[cst.CSTNode, ...]]] = [(fn.body, ())]
    while stack:
        node, up = stack.pop()
        tp = type(node)
        if tp in _SCOPES or tp is cst.Lambda:
            bad.update(n for n in _names_in(node))
            continue
        if tp is cst.Name and node.value in names:  # type: ignore[attr-defined]
            use = _walk_or_effect(node, up)
            seen.setdefault(node.value, set())  # type: ignore[attr-defined]
            if use is None:
                bad.add(node.value)  # type: ignore[attr-defined]
            elif use:
                seen[node.value].add(use)  # type: ignore[attr-defined]
            continue
        ups = (node, *up[:4])
        stack.extend((c, ups) for c in children(node))
    return {k: frozenset(v) for k, v in seen.items() if k not in bad}


def _walk_or_effect(node: cst.CSTNode, up: tuple[cst.CSTNode, ...]) -> str | None:
    """``for ... in p.named_modules():`` / ``in list(p.modules()):`` (a walk: ""), or ``p.method(...)`` as a whole
    statement (the method's name); None for any other use."""
    if up and type(up[0]) is cst.Return:
        return ""  # ``return module`` after walking it (the caller gets the object the walk left, _call_carrying)
    if (
        len(up) >= 2
        and type(up[0]) is cst.Arg
        and type(up[1]) is cst.Call
        and type(up[1].func) is cst.Name
        and up[1].func.value == "setattr"
        and up[1].args
        and up[1].args[0] is up[0]
        and not up[0].star
        and up[0].keyword is None
    ):
        return ""  # ``setattr(module, name, LoRALinear(child))``: the interpreter sets that attribute of the object
    if len(up) < 3 or type(up[0]) is not cst.Attribute:
        return None
    attr = up[0]
    call = up[1]
    if attr.value is not node or type(call) is not cst.Call or call.func is not attr:
        return None
    if type(up[2]) is cst.Expr:
        return attr.attr.value  # (a method run for its effect: the interpreter runs it on the local object)
    if attr.attr.value not in _TREE_WALKS or call.args:
        return None
    loop = up[2]
    if type(loop) is cst.Arg and len(up) > 4 and type(up[3]) is cst.Call:
        # (``for ... in list(p.named_modules()):``: the walk taken first)
        wrapper = up[3]
        walked = dotted(wrapper.func) == "list" and type(up[4]) is cst.For and up[4].iter is wrapper
        return "" if walked else None
    return "" if type(loop) is cst.For and loop.iter is call else None


_TREE_WALKS = frozenset({"modules", "children", "named_modules", "named_children"})


def _sealed(v: Value, leaks: bool) -> Value:
    """A carried dict or list whose body may have let a name get hold of its items: those that may change through
    such a name (lists, dicts, objects) are unknown."""
    if not leaks:
        return v
    if isinstance(v, DictV):
        return DictV(tuple((k, UNKNOWN if _changeable(x, 4) else x) for k, x in v.items), v.kind)
    if isinstance(v, SeqV):
        return SeqV(tuple(UNKNOWN if _changeable(x, 4) else x for x in v.items), v.kind, v.names)
    return v


def _changeable(v: Value, depth: int) -> bool:
    """A list, dict or object, or a tuple holding one (what a change through another name may change)."""
    if isinstance(v, (DictV, IntDictV, StateDictV, ObjV, ManyV)) or _is_list(v):
        return True
    if isinstance(v, SeqV):
        return depth <= 0 or any(_changeable(x, depth - 1) for x in v.items)
    return False


def _drop_repeats(pending: list[Pending], start: int) -> None:
    """A failure an inlined callee of this module raises, reported by a function's own run at its call of the
    callee (``inner``), is dropped when the callee's own run reports it where it is: ``report_inner`` drops it when
    that run came first, and whether it did depends only on the order of the defs (a callee defined after its
    caller). Findings of the module-level code (before ``start``) stay: that code runs first, and a failing entry
    point (``main()`` under ``if __name__ == "__main__":``) is reported where the script is run."""
    direct = {(id(p.node), p.code) for p in pending[start:] if p.inner is None}
    if any(p.inner is not None and (id(p.inner), p.code) in direct for p in pending[start:]):
        pending[start:] = [p for p in pending[start:] if p.inner is None or (id(p.inner), p.code) not in direct]


def _declared_rank(fi: FunctionInfo) -> int | None:
    """The rank ``fi``'s return annotation gives (None: not one array annotation, or a variadic one)."""
    from ..rules.shapes_bridge import annotation_spec

    spec = annotation_spec(fi.return_ann) if fi.return_ann is not None else None
    if spec is None or spec.variadic_index is not None:
        return None
    return len(spec.dims)


def _namespace_arg(interp: Interpreter, node: cst.BaseExpression) -> bool:
    """Is ``node`` a variable holding an attribute namespace (``argparse.Namespace(...)``, parsed arguments), whose
    entries change only by attribute writes (which ``keeps_arguments`` sees)?"""
    key = _var_key_of(node)
    v = interp.scope.vars.get(key) if key is not None else None
    return isinstance(v, DictV) and v.kind == "namespace"


# the variable collections handed to each flax ``model.init`` / ``model.apply`` being run (innermost last): an empty
# set for init, the variables dict's keys for apply, None when they are not known (ModuleAnalysis._linen_variable)
FLAX_COLLECTIONS: list[frozenset[str] | None] = []


def _flax_param_run(method: str, variables: Value, frame: str) -> dict[str, Any] | None:
    """The record an ``init`` run fills, or the one an ``apply`` run checks against (its variables, or their
    ``"params"``, those an init of this analysis made: ``flax_variables`` / ``flax_params``); None otherwise."""
    if method == "init":
        token = next(FLAX_TOKENS)
        return {"mode": "init", "token": token, "record": {}, "frame": frame, "seen": set()}
    if method != "apply":
        return None
    params = variables
    if isinstance(variables, DictV) and variables.kind == "dict":
        params = variables.get("params")
    if not (isinstance(params, LayerV) and params.kind in ("flax_variables", "flax_params")):
        return None
    record = FLAX_INIT_RECORDS.get(params.param("token"))
    return {"mode": "apply", "record": record, "frame": frame, "seen": set()} if record is not None else None


def _passed_collections(method: str, variables: Value) -> frozenset[str] | None:
    if method in ("init", "init_with_output"):
        return frozenset()
    if isinstance(variables, DictV) and all(isinstance(k, str) for k, _ in variables.items):
        return frozenset(str(k) for k, _ in variables.items)
    return None
