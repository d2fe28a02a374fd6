"""Objects of the analysed code's classes: constructor calls followed into ``__init__``, attributes, methods.

``Model(dim=512)`` runs ``__init__`` (bases through ``super().__init__``, helper methods it calls on ``self``,
dataclass / NamedTuple / equinox / flax fields) with the call's arguments and yields a concrete ``ObjV`` whose
attributes are what ``__init__`` set. Calling it runs ``forward`` / ``__call__`` with that object.
A class analysed on its own gets symbolic constructor parameters: each unannotated (or ``int``) parameter without a
non-integer default is a positive integer symbol, so what fails holds for every size (defaults are not assumed).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence, cast

import libcst as cst

from ..index.functions import ClassInfo, FunctionInfo, bind_arguments, constructor_wrapper_filter, keyword_kept
from ..index.imports import dotted
from ..rules.shapes_bridge import Origin
from .state import class_state, function_state
from .values import (
    DYNAMIC_ATTRS,
    UNKNOWN,
    set_by_name,
    DictV,
    FuncV,
    IntDictV,
    IntV,
    LayerV,
    ManyV,
    NoneV,
    ObjV,
    RefV,
    SeqV,
    StrV,
    Value,
)
from .values import BoolV, FloatV, StateDictV, TensorV
from .walk import chain_root, children, contains, memo, memoised, remember, walk_all
from . import registries

if TYPE_CHECKING:
    from .context import Pending
    from .interpreter import Interpreter
    from .module import ModuleAnalysis

# transformers' model base: an nn.Module whose constructor keeps the config it is handed (``self.config``) and
# builds no layer; its other methods (post_init, init_weights, tie_weights) change no size
HF_MODEL_BASES = frozenset({"transformers.PreTrainedModel"})  # the name foreign_bases gives all of them
# transformers' config base (PretrainedConfig, PreTrainedConfig since transformers 5): followed in a subclass with
# a constructor of its own, where ``super().__init__(**kwargs)`` sets the attributes below (its own fields, the
# label maps, the generation settings of older releases, the properties of newer ones) and each keyword it is handed
HF_CONFIG_BASES = frozenset(
    {
        "transformers.PretrainedConfig",
        "transformers.PreTrainedConfig",
        "transformers.configuration_utils.PretrainedConfig",
        "transformers.configuration_utils.PreTrainedConfig",
    }
)
HF_CONFIG_OWNED = frozenset(
    {
        "return_dict",
        "output_hidden_states",
        "output_attentions",
        "_output_attentions",
        "torchscript",
        "torch_dtype",
        "dtype",
        "use_bfloat16",
        "tf_legacy_loss",
        "pruned_heads",
        "tie_word_embeddings",
        "chunk_size_feed_forward",
        "is_encoder_decoder",
        "is_decoder",
        "cross_attention_hidden_size",
        "add_cross_attention",
        "tie_encoder_decoder",
        "architectures",
        "finetuning_task",
        "id2label",
        "label2id",
        "num_labels",
        "tokenizer_class",
        "prefix",
        "bos_token_id",
        "pad_token_id",
        "eos_token_id",
        "sep_token_id",
        "decoder_start_token_id",
        "task_specific_params",
        "problem_type",
        "transformers_version",
        "name_or_path",
        "_name_or_path",
        "_commit_hash",
        "_attn_implementation",
        "_attn_implementation_internal",
        "_attn_implementation_autoset",
        "_experts_implementation",
        "_experts_implementation_internal",
        "per_layer_config",
        "base_model_tp_plan",
        "rope_parameters",
        "rope_scaling",
        "rope_theta",
        "max_length",
        "min_length",
        "do_sample",
        "early_stopping",
        "num_beams",
        "num_beam_groups",
        "diversity_penalty",
        "temperature",
        "top_k",
        "top_p",
        "typical_p",
        "repetition_penalty",
        "length_penalty",
        "no_repeat_ngram_size",
        "encoder_no_repeat_ngram_size",
        "bad_words_ids",
        "num_return_sequences",
        "output_scores",
        "return_dict_in_generate",
        "forced_bos_token_id",
        "forced_eos_token_id",
        "remove_invalid_values",
        "exponential_decay_length_penalty",
        "suppress_tokens",
        "begin_suppress_tokens",
        "use_cache",
    }
)
# bases that add no attributes the analysis needs and whose constructor takes no arguments we model
_PLAIN_BASES = frozenset(
    {
        "",
        "object",
        "torch.nn.Module",
        "torch.nn.modules.module.Module",
        # its constructor takes the layers (module.call_super keeps them when nothing else can change them)
        "torch.nn.Sequential",
        "torch.nn.modules.container.Sequential",
        "equinox.Module",
        "flax.linen.Module",
        "flax.linen.module.Module",
        "flax.nnx.Module",
        "typing.NamedTuple",
        "abc.ABC",
        # abstract bases with no constructor (``class Module(Hashable, metaclass=_ModuleMeta)``: equinox's)
        "collections.abc.Hashable",
        "collections.abc.Sized",
        "collections.abc.Iterable",
        "collections.abc.Container",
        "collections.abc.Callable",
        "collections.abc.Collection",
        "typing.Generic",
        "typing.Protocol",
        "torch.nn.ModuleList",
        "torch.nn.ModuleDict",
        # a map-style dataset's base: no state, no constructor (``__getitem__`` is the subclass's)
        "torch.utils.data.Dataset",
        "torch.utils.data.dataset.Dataset",
        "pytorch_lightning.LightningModule",
        "lightning.LightningModule",
        "lightning.pytorch.LightningModule",
        *HF_MODEL_BASES,
    }
)
# base classes that make annotated class-body names constructor fields
_FIELD_BASES = (
    "typing.NamedTuple",
    "equinox.Module",
    "flax.linen.Module",
    "flax.linen.module.Module",
    "flax.struct.PyTreeNode",
)
MAX_MRO = 12


def _named_class(ci: ClassInfo, b: str) -> ClassInfo | None:
    """The class of the analysed code that ``b`` (a base or metaclass of ``ci``, qualified as the index keeps it)
    names, else None."""
    found: ClassInfo | None = None
    if b.startswith("class:"):
        found = ci.module.find_class(b[6:])
    elif b and "." not in b:
        v = ci.module.globals.get(b)
        if isinstance(v, RefV) and v.qualname.startswith("class:"):
            found = ci.module.find_class(v.qualname[6:])
    elif b and ci.module.project is not None:
        v = ci.module.project.lookup(b)
        if isinstance(v, RefV) and v.qualname.startswith("class:"):
            found = ci.module.find_class(v.qualname[6:])
    return found if found is not None and found.key != ci.key else None


def base_infos(m: "ModuleAnalysis", ci: ClassInfo) -> list[ClassInfo | str]:
    """Each base: its ClassInfo when it is a class of the analysed code, else its qualified name (typing_extensions'
    backports under typing's names: ``typing_extensions.NamedTuple`` is ``typing.NamedTuple``)."""
    return [
        _named_class(ci, b) or (_TYPING + b[len(_TYPING_EXTENSIONS) :] if b.startswith(_TYPING_EXTENSIONS) else b)
        for b in ci.bases
    ]


_TYPING, _TYPING_EXTENSIONS = "typing.", "typing_extensions."


# what a metaclass runs when a class is made (or called): any of them may rewrite the class body's namespace
_METACLASS_HOOKS = ("__new__", "__prepare__", "__init__", "__call__")


def rewriting_metaclass(m: "ModuleAnalysis", ci: ClassInfo) -> bool:
    """A class of ``ci``'s MRO is made by a metaclass of the analysed code that defines ``__new__``, ``__prepare__``,
    ``__init__`` or ``__call__`` (``class Net(nn.Module, metaclass=Doubling)``): what its class body assigns is not
    necessarily what the class holds."""
    for c in mro(m, ci):
        for kw in c.node.keywords:
            if kw.keyword is None or kw.keyword.value != "metaclass":
                continue
            meta = _named_class(c, c.module.qualify(kw.value) or (dotted(kw.value) or ""))
            if meta is not None and any(h in mc.methods for mc in mro(m, meta) for h in _METACLASS_HOOKS):
                return True
    return False


def mro(m: "ModuleAnalysis", ci: ClassInfo) -> list[ClassInfo]:
    """The analysed classes of ``ci``'s method resolution order (C3 approximated depth-first, duplicates last)."""
    st = class_state(ci)
    if st.mro is not None:
        return st.mro
    st.mro = [ci]  # a cycle through bases ends here
    order: list[ClassInfo] = []

    def walk(c: ClassInfo, depth: int) -> None:
        if depth > MAX_MRO:
            return
        order.append(c)
        for b in base_infos(m, c):
            if isinstance(b, ClassInfo):
                walk(b, depth + 1)

    walk(ci, 0)
    seen: set[str] = set()
    out: list[ClassInfo] = []
    for c in reversed(order):
        if c.key not in seen:
            seen.add(c.key)
            out.append(c)
    out.reverse()
    st.mro = out
    return out


# for each constructor being run by ``instantiate`` (innermost last): whether a constructor called it
BUILT_FROM_CONSTRUCTOR: list[bool] = []
# and the call that runs it: (the calling module, the call node or None, the class's name)
CONSTRUCTING: list[tuple[Any, "cst.Call | None", str]] = []
# the plain functions running now (innermost last): (the calling module, the call, len(CONSTRUCTING) at the call)
HELPING: list[tuple[Any, "cst.Call", int]] = []


def construction_chain(levels: int = 2) -> tuple[object, ...]:
    """Note parts naming the constructor calls running now, innermost first (``, in the PreNorm constructed at
    f.py:83``): where the sizes of what a constructor builds were asked for. The functions called since the innermost
    constructor began come first (``, by default_conv() called at f.py:40``): a layer a helper returns was asked for
    at the helper's call, with its sizes."""
    from .context import Where

    parts: list[object] = []
    for module, node, depth in reversed(HELPING):
        if depth != len(CONSTRUCTING) or len(parts) >= 2 * levels:
            break
        parts += [f", by {module.code_for(node.func)}() called at ", Where(module, node)]
    for module, node, name in reversed(CONSTRUCTING):
        if len(parts) >= 2 * levels:
            break
        if node is not None and module is not None:
            # (a base's constructor run by the class's: ``super().__init__(dim_in, dim_out)``, named by its call)
            what = f"{name} called" if name.endswith("__init__()") else f"the {name} constructed"
            parts += [f", in {what} at ", Where(module, node)]
    return tuple(parts)


# Lightning's module base, by its package names (lightning.LightningModule, lightning.pytorch.LightningModule,
# pytorch_lightning.LightningModule, pytorch_lightning.core.module.LightningModule, ...)
_LIGHTNING_BASE = re.compile(r"(lightning|pytorch_lightning)(\.[\w.]+)?\.LightningModule")
_LIGHTNING_CLASSES: dict[str, tuple[cst.ClassDef, bool]] = {}  # class key -> (its def, the answer for it)


def lightning_module(m: "ModuleAnalysis", ci: "ClassInfo | None") -> bool:
    """Is ``ci`` a LightningModule (one of its bases outside the analysed code is Lightning's)?"""
    if ci is None:
        return False
    hit = _LIGHTNING_CLASSES.get(ci.key)
    if hit is None or hit[0] is not ci.node:  # (an edited file in the language server: its class anew)
        hit = _LIGHTNING_CLASSES[ci.key] = (ci.node, any(_LIGHTNING_BASE.fullmatch(b) for b in foreign_bases(m, ci)))
    return hit[1]


_SCRIPT_MODULES = frozenset({"torch.jit.ScriptModule", "torch.jit._script.ScriptModule"})


def foreign_bases(m: "ModuleAnalysis", ci: ClassInfo) -> set[str]:
    """Qualified names of the bases outside the analysed code, over the whole MRO (a transformers model base is named
    ``transformers.PreTrainedModel``, with ``torch.nn.Module``, its own base)."""
    out: set[str] = set()
    for c in mro(m, ci):
        for b in base_infos(m, c):
            if isinstance(b, str):
                if _hf_model_base(b):
                    # (BertPreTrainedModel and its kin add class attributes and _init_weights, not a constructor)
                    out.update(("transformers.PreTrainedModel", "torch.nn.Module"))
                elif b in _SCRIPT_MODULES:
                    # a TorchScript module (its ``@torch.jit.script_method`` methods compiled): an nn.Module whose
                    # methods have the shapes they have in Python
                    out.add("torch.nn.Module")
                else:
                    out.add(b)
    return out


def hf_config(m: "ModuleAnalysis", ci: ClassInfo) -> bool:
    """Is ``ci`` a transformers config (``class MyConfig(PretrainedConfig)``) the analysis follows: a constructor of
    the analysed code, and no ``attribute_map`` (which renames what is stored and read back)?"""
    if not foreign_bases(m, ci) & HF_CONFIG_BASES or find_method(m, ci, "__init__") is None:
        return False
    for c in mro(m, ci):
        for stmt in c.node.body.body if type(c.node.body) is cst.IndentedBlock else ():
            if type(stmt) is not cst.SimpleStatementLine:
                continue
            for small in stmt.body:
                targets = (
                    [t.target for t in small.targets]
                    if type(small) is cst.Assign
                    else [small.target]
                    if type(small) is cst.AnnAssign
                    else []
                )
                if any(type(t) is cst.Name and t.value == "attribute_map" for t in targets):
                    return False
    return True


# enums whose members are instances of their values' type (a member equals its value, as the analysis holds it)
_VALUE_ENUMS = frozenset({"enum.StrEnum", "enum.IntEnum"})


def enum_member(m: "ModuleAnalysis", ci: ClassInfo, args: list[Value], kwargs: dict[str, Value]) -> Value | None:
    """``Format(fmt)`` of a str / int enum (``class Format(str, Enum)``, ``StrEnum``, ``IntEnum``): the member whose
    value equals a known string or int, held as its value like ``Format.NCHW``; unknown for any other argument (no
    member: ValueError). None when ``ci`` is no such enum (not this rule)."""
    st = class_state(ci)
    if st.value_enum is None:
        bases = foreign_bases(m, ci)
        st.value_enum = bool(bases & _VALUE_ENUMS or ("enum.Enum" in bases and bases & {"str", "int"}))
    if not st.value_enum:
        return None
    if kwargs or len(args) != 1:
        return UNKNOWN
    v = args[0]
    if not (isinstance(v, StrV) or (isinstance(v, IntV) and not v.assumed and v.size.as_int() is not None)):
        return UNKNOWN
    for name, member in body_attrs(m, ci).items():
        if name.startswith("_"):
            continue
        if isinstance(v, StrV) and isinstance(member, StrV) and member.value == v.value:
            return member
        if isinstance(v, IntV) and isinstance(member, IntV) and member.size.as_int() == v.size.as_int():
            return member
    return UNKNOWN


def attr_dict_instance(m: "ModuleAnalysis", ci: ClassInfo, args: list[Value], kwargs: dict[str, Value]) -> Value | None:
    """``AttrDict(num_mels=80, upsample_rates=[8, 8])`` (HiFi-GAN's config): a ``dict`` subclass whose constructor
    only hands its arguments to ``dict`` and makes the instance its own ``__dict__`` (``self.__dict__ = self``), so
    its keys are its attributes. The instance is a namespace of those entries (a dict positional argument of known
    string keys, then the keywords); unknown for other arguments. None when ``ci`` is no such class."""
    st = class_state(ci)
    if st.attr_dict is None:
        st.attr_dict = _attr_dict_class(m, ci)
    if not st.attr_dict:
        return None
    items: dict[str, Value] = {}
    if len(args) > 1:
        return UNKNOWN
    if args:
        given = args[0]
        if not isinstance(given, DictV) or given.kind != "dict":
            return UNKNOWN
        items.update(given.items)
    items.update(kwargs)
    return DictV(tuple(items.items()), "namespace")


def _attr_dict_class(m: "ModuleAnalysis", ci: ClassInfo) -> bool:
    if foreign_bases(m, ci) != {"dict"} or len(mro(m, ci)) != 1:
        return False
    if "__getattr__" in ci.methods:
        return _item_getattr_class(ci)
    if set(ci.methods) != {"__init__"}:
        return False
    lines = getattr(ci.methods["__init__"].node.body, "body", ())
    if any(type(line) is not cst.SimpleStatementLine for line in lines):
        return False  # (an ``if`` or a loop in the constructor: not the two-statement idiom)
    stmts = [s for line in lines for s in line.body]
    if len(stmts) != 2:
        return False
    hands_on = made_own = False
    for s in stmts:
        if type(s) is cst.Expr and type(s.value) is cst.Call:
            f = s.value.func
            hands_on = hands_on or (type(f) is cst.Attribute and f.attr.value == "__init__" and is_super_call(f.value))
        elif type(s) is cst.Assign and len(s.targets) == 1:
            t = s.targets[0].target
            made_own = made_own or (
                type(t) is cst.Attribute
                and t.attr.value == "__dict__"
                and type(t.value) is cst.Name
                and t.value.value == "self"
                and type(s.value) is cst.Name
                and s.value.value == "self"
            )
    return hands_on and made_own


def _item_getattr_class(ci: ClassInfo) -> bool:
    """The other AttrDict idiom: a ``dict`` subclass whose ``__getattr__(self, key)`` reads ``self[key]`` and returns
    it (or the class around it when it is a dict: ``AttrDict(value) if isinstance(value, dict) else value``), whose
    ``__setattr__``, if any, only stores ``self[key] = value``, and no ``__init__`` or other method of its own: the
    keys read as attributes."""
    if not set(ci.methods) <= {"__getattr__", "__setattr__"}:
        return False
    get = ci.methods["__getattr__"].node
    params = [p.name.value for p in get.params.params]
    if get.params.star_kwarg is not None:
        return False
    if len(params) != 2 or isinstance(get.params.star_arg, cst.Param) or get.params.kwonly_params:
        return False
    key = params[1]
    cls = ci.node.name.value
    reads = 0
    stack: list[cst.CSTNode] = [get.body]
    while stack:
        n = stack.pop()
        if type(n) is cst.Subscript:
            if not (
                type(n.value) is cst.Name
                and n.value.value == params[0]
                and len(n.slice) == 1
                and type(n.slice[0].slice) is cst.Index
                and type(n.slice[0].slice.value) is cst.Name
                and n.slice[0].slice.value.value == key
            ):
                return False
            reads += 1
        elif type(n) is cst.Call and not (
            type(n.func) is cst.Name and n.func.value in (cls, "isinstance", "AttributeError", "KeyError")
        ):
            return False  # (anything but wrapping a nested dict and raising)
        elif type(n) in (cst.FunctionDef, cst.Lambda, cst.Assign) and not (
            type(n) is cst.Assign and len(n.targets) == 1 and type(n.targets[0].target) is cst.Name
        ):
            return False
        stack.extend(children(n))
    if reads == 0:
        return False
    if "__setattr__" in ci.methods:
        body = ci.methods["__setattr__"].node.body
        lines = getattr(body, "body", ())
        stmts = [x for line in lines if type(line) is cst.SimpleStatementLine for x in line.body]
        sp = [p.name.value for p in ci.methods["__setattr__"].node.params.params]
        if len(lines) != 1 or len(stmts) != 1 or len(sp) != 3:
            return False
        st = stmts[0]
        if type(st) is not cst.Assign or len(st.targets) != 1:
            return False
        t = st.targets[0].target
        if not (
            type(t) is cst.Subscript
            and type(t.value) is cst.Name
            and t.value.value == sp[0]
            and type(st.value) is cst.Name
            and st.value.value == sp[2]
        ):
            return False
    return True


def unmodelled_base(m: "ModuleAnalysis", ci: ClassInfo) -> bool:
    """A base outside the analysed code whose constructor may set attributes (``class MyLinear(nn.Linear)``)."""
    for b in foreign_bases(m, ci):
        if b not in _PLAIN_BASES and not b.startswith("typing.") and not b.endswith(("Mixin", ".Module")):
            if b in HF_CONFIG_BASES and hf_config(m, ci):
                continue
            return True
    return False


TORCH_LAYER_ATTR = "<torch layer>"  # among a torch.nn layer subclass's attributes: the layer torch's constructor built
# beside it: the size attributes torch's constructor set (``weight``, ``bias``...), to tell a constructor that put
# back a tensor of the same shape (``self.weight.data = torch.eye(3).view(3, 3, 1, 1)``) from one that changed it
TORCH_LAYER_SIZES = "<torch layer sizes>"
# what torch's forward of these layers reads off ``self``: a subclass method assigning one leaves the layer stale
TORCH_LAYER_CONFIG = frozenset(
    {
        "weight",
        "bias",
        "in_features",
        "out_features",
        "in_channels",
        "out_channels",
        "kernel_size",
        "stride",
        "padding",
        "dilation",
        "groups",
        "padding_mode",
        "output_padding",
        "_reversed_padding_repeated_twice",
        "normalized_shape",
        "num_embeddings",
        "embedding_dim",
        "padding_idx",
        "num_groups",
        "num_channels",
        "num_features",
        "embed_dim",
        "num_heads",
        "batch_first",
        "kdim",
        "vdim",
        "in_proj_weight",
        "q_proj_weight",
        "k_proj_weight",
        "v_proj_weight",
        "out_proj",
        "hidden_size",
        "input_size",
        "num_layers",
        "bidirectional",
        "proj_size",
    }
)
# what other layers' forward reads for the shape of their output (a loss's reduction, a softmax's axis, ...): set on a
# built layer (``loss_fn.reduction = "none"``), the layer gives another shape
LAYER_SHAPE_ATTRS = frozenset(
    {
        "reduction",
        "dim",
        "start_dim",
        "end_dim",
        "unflattened_size",
        "size",
        "scale_factor",
        "output_size",
        "upscale_factor",
        "downscale_factor",
        "return_indices",
        "ceil_mode",
    }
)


def torch_layer_base(m: "ModuleAnalysis", ci: ClassInfo) -> str | None:
    """The torch.nn layer (its name among the layers the analysis builds) that is the one base of ``ci`` outside the
    analysed code (``class CausalConv1d(nn.Conv1d)``), else None."""
    from ..rules.registry import LAYERS

    bases = [b for b in foreign_bases(m, ci) if b not in _PLAIN_BASES]
    if len(bases) != 1:
        return None
    parts = bases[0].split(".")
    if parts[0] == "haiku" and len(parts) == 2 and parts[1] in _HAIKU_LAYER_BASES:
        return "haiku:" + parts[1]  # class CausalSelfAttention(hk.MultiHeadAttention)
    if parts[:2] != ["torch", "nn"] or len(parts) != 3 or parts[2] not in LAYERS:
        return None
    return parts[2]


# haiku modules a class of the analysed code may derive from, their sizes set by haiku's constructor
_HAIKU_LAYER_BASES = frozenset({"MultiHeadAttention", "Linear"})


def base_layer(
    m: "ModuleAnalysis", node: cst.Call, kind: str, args: list[Value], kwargs: dict[str, Value]
) -> tuple[Value, dict[str, Value]]:
    """The layer the framework's constructor of ``kind`` (``torch_layer_base``) builds with these arguments, and the
    size attributes it sets on the object (``self.weight``, ``self.in_features``; haiku's ``self.model_size``...)."""
    from ..rules import frameworks, layers as layer_rules

    if kind.startswith("haiku:"):
        layer = frameworks.haiku_call(m.ops, node, "haiku." + kind[len("haiku:") :], args, kwargs)
        attrs: dict[str, Value] = {}
        if isinstance(layer, LayerV):
            for attr, key in (("num_heads", "heads"), ("key_size", "key"), ("value_size", "value")):
                size = layer.param(key)
                if size is not None:
                    attrs[attr] = IntV(size)
            size = layer.param("model") if layer.kind == "fw:HaikuMHA" else layer.param("units")
            if size is not None:
                attrs["model_size" if layer.kind == "fw:HaikuMHA" else "output_size"] = IntV(size)
        return layer, attrs
    layer = layer_rules.layer(m.ops, node, kind, args, kwargs)
    return layer, (_interpreter.layer_attributes(layer, args, kwargs) if isinstance(layer, LayerV) else {})


def torch_layer_of(m: "ModuleAnalysis", obj: Value | None) -> LayerV | None:
    """The torch.nn layer a subclass instance's constructor built (``super().__init__(1, 1, kernel_size=4)``), for
    torch's ``forward`` (``super().forward(x)``, or a call when the subclass defines none): None when unknown, or
    when a method of the analysed classes assigns what torch's forward reads (``self.weight = ...``,
    ``self.padding = 0``)."""
    if not isinstance(obj, ObjV) or not obj.concrete:
        return None
    layer = obj.attr(TORCH_LAYER_ATTR)
    if not isinstance(layer, LayerV):
        return None
    ci = m.find_class(obj.cls_key)
    if ci is None:
        return None
    _assigned_names = _interpreter._assigned_names

    for c in mro(m, ci):
        for name, fi in c.methods.items():
            assigned = {k[5:] for k in _assigned_names(fi.node.body) if k.startswith("self.")} & TORCH_LAYER_CONFIG
            if assigned and (name != "__init__" or not _layer_sizes_kept(obj, assigned)):
                return None
    return layer


def _layer_sizes_kept(obj: ObjV, assigned: set[str]) -> bool:
    """The attributes a constructor assigned after torch's (``self.weight.data = ...``) hold tensors of the shapes
    torch's constructor gave them: torch's forward runs as that layer's. Any other value, or one not known: not."""
    sizes = obj.attr(TORCH_LAYER_SIZES)
    if not isinstance(sizes, DictV):
        return False
    for k in assigned:
        before, now = sizes.get(k), obj.attr(k)
        if not (isinstance(before, TensorV) and isinstance(now, TensorV)):
            return False
        if before.shape is None or before.shape != now.shape:
            return False
    return True


def layer_subclass(
    m: "ModuleAnalysis", node: cst.Call | None, ci: ClassInfo, args: list[Value], kwargs: dict[str, Value]
) -> ObjV:
    """``class LayerNormFp32(nn.LayerNorm)`` with a ``forward`` of its own and torch's constructor: built with the
    arguments ``nn.LayerNorm`` takes, it holds the sizes the torch layer sets (``self.normalized_shape``,
    ``self.weight``, ``self.in_features``...: interpreter.layer_attributes) for its ``forward`` to read. Only when
    the one base outside the analysed code is a ``torch.nn`` layer the analysis builds and no analysed class of the
    MRO defines ``__init__``; any other such class is a generic object."""
    generic = ObjV(ci.key)
    if node is None or find_method(m, ci, "__init__") is not None:
        return generic
    kind = torch_layer_base(m, ci)
    if kind is None:
        return generic
    layer, attrs = base_layer(m, node, kind, args, kwargs)
    if not isinstance(layer, LayerV):
        return generic
    attrs[TORCH_LAYER_ATTR] = layer
    return ObjV(ci.key, tuple(sorted(attrs.items())), True)


def find_method(m: "ModuleAnalysis", ci: ClassInfo, name: str, after: str | None = None) -> FunctionInfo | None:
    classes = mro(m, ci)
    if after is not None:
        keys = [c.key for c in classes]
        if after not in keys:
            return None
        classes = classes[keys.index(after) + 1 :]
    for c in classes:
        if c.module.patched_class_attr(c.node.name.value, name):
            return None  # Net.forward = other_forward: what the class holds is not its def
        if name in c.methods:
            return c.methods[name]
    return None


# what every torch.nn.Module has as a class attribute or sets in its constructor (``dir(torch.nn.Module)`` without
# dunders, torch 2.x, and ``training``): hasattr of such a name is True whatever the constructor did, and a module
# stored under such a name (``self.modules = m``) is not what reading the attribute gives
NN_MODULE_NAMES = frozenset(
    "T_destination add_module apply bfloat16 buffers call_super_init children compile cpu cuda double dump_patches "
    "eval extra_repr float forward get_buffer get_extra_state get_parameter get_submodule half ipu load_state_dict "
    "modules mtia named_buffers named_children named_modules named_parameters parameters register_backward_hook "
    "register_buffer register_forward_hook register_forward_pre_hook register_full_backward_hook "
    "register_full_backward_pre_hook register_load_state_dict_post_hook register_load_state_dict_pre_hook "
    "register_module register_parameter register_state_dict_post_hook register_state_dict_pre_hook requires_grad_ "
    "set_extra_state set_submodule share_memory state_dict to to_empty train type xpu zero_grad training".split()
)


def intercepts_attr(m: "ModuleAnalysis", ci: ClassInfo, attr: str) -> bool:
    """Storing ``attr`` on an instance of ``ci`` runs code of the analysed classes, so what is stored (or read back)
    need not be the value assigned: a class of the MRO defines ``__setattr__`` or ``__getattribute__``, or holds
    ``attr`` as a property (``@dim.setter``; ``dim = property(get, set)``) or as a data descriptor (``width =
    Doubling()``, a class of the analysed code with ``__set__``)."""
    st = class_state(ci)
    if st.intercepted is None:
        st.intercepted = frozenset(_intercepted(m, ci))
    return bool(st.intercepted) and ("*" in st.intercepted or attr in st.intercepted)


def property_setter(m: "ModuleAnalysis", ci: ClassInfo, attr: str) -> FunctionInfo | None:
    """The ``@attr.setter`` method that ``self.attr = v`` runs on an instance of ``ci``: the nearest class of the MRO
    that defines ``attr`` defines it as a ``@property`` with that setter (indexed under ``<key>.<setter>``), and no
    class intercepts every store (``__setattr__``, ``__getattribute__``). None otherwise (a descriptor,
    ``property(get, set)``, a property without a setter)."""
    if "*" in (class_state(ci).intercepted or ()):
        return None
    for c in mro(m, ci):
        getter = c.methods.get(attr)
        if getter is not None:
            setter = c.module.functions.get(f"{c.key}.{attr}.<setter>")
            if (
                setter is None
                or len(setter.node.decorators) != 1
                or not any(_property_decorator(d) for d in getter.node.decorators)
            ):
                return None
            return setter
        if attr in body_attrs(m, c):
            return None
    return None


def _intercepted(m: "ModuleAnalysis", ci: ClassInfo) -> set[str]:
    out: set[str] = set()
    for c in mro(m, ci):
        if "__setattr__" in c.methods or "__getattribute__" in c.methods:
            return {"*"}
        body = c.node.body.body if type(c.node.body) is cst.IndentedBlock else ()
        for stmt in body:
            if type(stmt) is cst.FunctionDef:
                for d in stmt.decorators:
                    name = dotted(d.decorator) or ""
                    if name in ("property", "builtins.property") or name.endswith((".setter", ".deleter")):
                        out.add(stmt.name.value)
            elif type(stmt) is cst.SimpleStatementLine:
                for small in stmt.body:
                    if type(small) is not cst.Assign or type(small.value) is not cst.Call:
                        continue
                    names = [t.target.value for t in small.targets if type(t.target) is cst.Name]
                    if not names:
                        continue
                    func = dotted(small.value.func) or ""
                    made = None if func == "property" else _named_class(c, c.module.qualify(small.value.func) or func)
                    if func == "property" or (made is not None and any("__set__" in k.methods for k in mro(m, made))):
                        out.update(names)
    return out


def is_dataclass_like(m: "ModuleAnalysis", ci: ClassInfo) -> bool:
    for c in mro(m, ci):
        if any(d.endswith("dataclass") or d.endswith("struct.dataclass") for d in c.decorators):
            return True
    bases = foreign_bases(m, ci)
    return any(b in _FIELD_BASES for b in bases)


def body_attrs(m: "ModuleAnalysis", ci: ClassInfo) -> dict[str, Value]:
    """Class-body assignments, evaluated once with the module's globals (``expansion = 4``, ``dim: int = 64``)."""
    st = class_state(ci)
    if st.body_attrs is not None:
        return st.body_attrs
    st.body_attrs = {}
    FrameInfo, Interpreter, Scope = _interpreter.FrameInfo, _interpreter.Interpreter, _interpreter.Scope

    cm = ci.module
    scope = Scope()
    interp = Interpreter(cm, FrameInfo(ci.key + ".<body>"), scope)
    ctx = cm.ctx
    with ctx.discarding():
        if type(ci.node.body) is cst.IndentedBlock:
            for stmt in ci.node.body.body:
                if type(stmt) is not cst.SimpleStatementLine:
                    continue
                for small in stmt.body:
                    if type(small) is cst.Assign:
                        v = interp.eval(small.value)
                        for t in small.targets:
                            if type(t.target) is cst.Name:
                                scope.vars[t.target.value] = _field_default(cm, t.target.value, v)
                    elif type(small) is cst.AnnAssign and type(small.target) is cst.Name and small.value is not None:
                        name = small.target.value
                        scope.vars[name] = _field_default(cm, name, interp.eval(small.value))
    st.body_attrs = dict(scope.vars)
    return st.body_attrs


def _field_default(m: "ModuleAnalysis", name: str, v: Value) -> Value:
    # a mutable class attribute is shared by every instance and may be changed by any of them; a list of numbers,
    # strings and tuples of them that no code of the module changes (``cfg = [(1, 16, 1, 1), (6, 24, 2, 1)]`` only
    # iterated by ``_make_layers``) is still that list
    if isinstance(v, SeqV) and v.kind == "list":
        if all(_interpreter._plain_value(x) for x in v.items) and name not in memo(
            "changed-attributes", m.tree, _changed_attributes
        ):
            return v
        return UNKNOWN
    return v


# builtins that only read the list handed to them
_LIST_READERS = frozenset(
    {"len", "list", "tuple", "sorted", "reversed", "zip", "enumerate", "iter", "sum", "min", "max", "any", "all"}
)


def _changed_attributes(tree: cst.CSTNode) -> frozenset[str]:
    """The attribute names (``x.NAME``) the module uses other than by reading them: iterated, handed to a builtin that
    only reads (``len``, ``zip``, ...), indexed for a read, compared, an operand (``+`` makes a new list), called (a
    method: a list is not callable). Anything else (a method called on it, an item stored, the attribute assigned or
    augmented, handed to other code, bound to a name) may change a list it holds."""
    out: set[str] = set()
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None]] = [(tree, None, None)]
    while stack:
        node, parent, grand = stack.pop()
        if type(node) is cst.Attribute:
            name = node.attr.value
            up = type(parent)
            if up in (cst.For, cst.CompFor) and cast(cst.For, parent).iter is node:
                pass
            elif up in (cst.Comparison, cst.ComparisonTarget, cst.BinaryOperation):
                pass  # (``self.prepend + self.amino_acids``: a new list)
            elif up is cst.Call and cast(cst.Call, parent).func is node:
                pass  # ``maps.append(a)``: what is called is a method (a list is not callable), not a list named so
            elif (
                up is cst.Arg
                and type(grand) is cst.Call
                and type(grand.func) is cst.Name
                and grand.func.value in _LIST_READERS
            ):
                pass
            elif (
                up is cst.Subscript
                and cast(cst.Subscript, parent).value is node
                and type(grand)
                not in (
                    cst.AssignTarget,
                    cst.AugAssign,
                    cst.AnnAssign,
                    cst.Del,
                )
            ):
                pass  # ``self.cfg[-1]`` read (an item of plain values cannot change)
            else:
                out.add(name)  # ``self.cfg.append(x)``, ``self.cfg = ...``, ``f(self.cfg)``, ``xs = self.cfg``
        for child in children(node):
            stack.append((child, node, parent))
    return frozenset(out)


def class_fields(m: "ModuleAnalysis", ci: ClassInfo) -> list[tuple[str, ClassInfo, cst.BaseExpression | None]]:
    """Dataclass-style fields over the MRO, bases first: (name, defining class, default expression). Once per class
    (its MRO is, too): a config class is built many times."""
    st = class_state(ci)
    if st.fields is None:
        st.fields = _class_fields(m, ci)
    return st.fields


def _class_fields(m: "ModuleAnalysis", ci: ClassInfo) -> list[tuple[str, ClassInfo, cst.BaseExpression | None]]:
    out: dict[str, tuple[str, ClassInfo, cst.BaseExpression | None]] = {}
    for c in reversed(mro(m, ci)):
        if type(c.node.body) is not cst.IndentedBlock:
            continue
        for stmt in c.node.body.body:
            if type(stmt) is cst.SimpleStatementLine:
                for small in stmt.body:
                    if type(small) is cst.AnnAssign and type(small.target) is cst.Name:
                        if _annotation_word(small) in ("ClassVar", "KW_ONLY"):
                            continue  # a class attribute; the marker after which fields are keyword-only
                        # a field a subclass declares again keeps its first position (dataclasses' field order)
                        out[small.target.value] = (small.target.value, c, small.value)
    return list(out.values())


def _annotation_word(stmt: cst.AnnAssign) -> str:
    """The last word of an annotation's name, of its subscripted name for ``ClassVar[int]``, ``InitVar[int]``."""
    ann = stmt.annotation.annotation
    if type(ann) is cst.Subscript:
        ann = ann.value
    return (dotted(ann) or "").rpartition(".")[2]


def _pseudo_fields(c: ClassInfo) -> bool:
    """Does the class body declare a ``ClassVar`` or ``InitVar`` (which ``__dataclass_fields__`` lists too)?"""
    if type(c.node.body) is not cst.IndentedBlock:
        return False
    return any(
        type(small) is cst.AnnAssign and _annotation_word(small) in ("ClassVar", "InitVar")
        for stmt in c.node.body.body
        if type(stmt) is cst.SimpleStatementLine
        for small in stmt.body
    )


def outside_init(m: "ModuleAnalysis", ci: ClassInfo) -> set[str]:
    """``self.x`` names (as "self.x") assigned or mutated by methods other than the constructors and the helpers only
    they call: such an attribute may hold another value by the time ``forward`` reads it."""
    st = class_state(ci)
    if st.outside_init is not None:
        return st.outside_init
    _assigned_names = _interpreter._assigned_names

    ctor_names = ("__init__", "setup", "__post_init__")
    methods: dict[str, FunctionInfo] = {}
    for c in reversed(mro(m, ci)):
        methods.update(c.methods)
    called_elsewhere: set[str] = set()
    called_in_init: set[str] = set()
    for name, fi in methods.items():
        # the body of a method other than the constructors is walked below for what it assigns: both in one walk
        calls = _self_calls(fi.node) if name in ctor_names else _self_calls_and_assigned(fi.node)
        (called_in_init if name in ctor_names else called_elsewhere).update(calls)
    out: set[str] = set()
    rebound: set[str] = set()
    for name, fi in methods.items():
        if name in ctor_names or (name in called_in_init and name not in called_elsewhere):
            continue
        names = _assigned_names(fi.node.body)
        out |= names
        if any(k.startswith("self.") for k in names):
            rebound |= _rebound_names(fi.node.body)
    for k in sorted(out):
        # ``self.step_idx += 1`` in ``run``, through a property's setter: what the setter stores (``_step_idx``,
        # which the getter reads) changes too
        setter = property_setter(m, ci, k[5:]) if k.startswith("self.") else None
        if setter is not None:
            out |= _assigned_names(setter.node.body)
    st.outside_init = out
    st.items_only = frozenset(k for k in out if k.startswith("self.") and k not in rebound)
    return out


def _rebound_by_methods(m: "ModuleAnalysis", ci: ClassInfo) -> frozenset[str]:
    """The attributes of ``self`` a method other than the constructors binds again, in the class or a base,
    overridden methods too (``Detect.forward`` run by a subclass through ``self.detect = Detect.forward``)."""
    st = class_state(ci)
    if st.rebound_by_methods is None:
        out: set[str] = set()
        for c in mro(m, ci):
            for name, fi in c.methods.items():
                if name not in ("__init__", "setup", "__post_init__"):
                    out |= self_rebound(fi)
        st.rebound_by_methods = frozenset(out)
    return st.rebound_by_methods


def self_rebound(fi: FunctionInfo) -> set[str]:
    """The attributes ``self.x`` the method ``fi`` binds again (``_rebound_names``: item stores left out)."""
    return {k[5:] for k in _rebound_names(fi.node.body) if k.startswith("self.")}


def _rebound_names(suite: cst.CSTNode) -> frozenset[str]:
    """What ``_assigned_names(suite)`` holds but for the names only stored into (``self.gamma[i:j] = g``,
    ``self.buf[0] += 1``): those keep the object they name, and a tensor its shape and dtype."""
    from .walk import memo

    return memo("rebound", suite, _rebound_walk)


def _rebound_walk(suite: cst.CSTNode) -> frozenset[str]:
    _assigned_at = _interpreter._assigned_at
    from .walk import children

    names: set[str] = set()
    stack: list[cst.CSTNode] = [suite]
    while stack:
        node = stack.pop()
        if type(node) in _ITEM_STORES and type(node.target) is cst.Subscript:  # type: ignore[attr-defined]
            stack.extend(children(node))
            continue
        if _assigned_at(node, names):
            stack.extend(children(node))
    return frozenset(names)


_ITEM_STORES = frozenset({cst.AssignTarget, cst.AugAssign})


def reassigned_by_self_calls(
    m: "ModuleAnalysis", ci: ClassInfo, fi: FunctionInfo, obj: "ObjV | None" = None
) -> set[str]:
    """``self.x`` names (as "self.x") that the methods ``fi`` calls on ``self`` assign or mutate, directly or through
    the methods they call on ``self`` in turn: a lazily built layer (``forward`` runs ``self.set_input_dims(d)``,
    which rebuilds ``self.layer`` for the input's width) no longer holds what the constructor put there. What
    ``fi``'s own body assigns is followed statement by statement and is not part of this. ``obj``: the object the
    methods run on; a method whose assignments ``module.call_on_local_object`` hands back to its caller's ``self.x``
    (``sets_own_attrs``: ``self._build_cache(x)`` filling ``self.cos_cached`` for the forward that reads it next) is
    followed like ``fi``'s own body, unless another method assigns the same attribute."""
    _assigned_names = _interpreter._assigned_names

    if obj is None:
        out: set[str] = set()
        for callee in reached_methods(m, ci, fi)[1:]:
            out |= {k for k in _assigned_names(callee.node.body) if k.startswith("self.")}
        return out
    methods: dict[str, FunctionInfo] = {}
    for c in reversed(mro(m, ci)):
        methods.update(c.methods)
    # each method reached, and whether every call on the way to it hands its assignments back (a method run through
    # one that does not, ``self.prepare(x)`` calling ``self.set_input_dims(d)``, leaves them in that method's frame)
    handed: dict[str, bool] = {}
    todo = [(name, True) for name in sorted(_self_calls(fi.node))]
    while todo:
        name, back = todo.pop()
        method = methods.get(name)
        if method is None or handed.get(name) is False or (name in handed and back):
            continue
        back = back and sets_own_attrs(m, method, obj, depth=0)
        handed[name] = back
        todo.extend((n, back) for n in sorted(_self_calls(method.node)))
    out = set()
    for name, back in handed.items():
        if not back:  # (handed back: run on the caller's ``self.x``, or forgotten by call_on_local_object)
            out |= {k for k in _assigned_names(methods[name].node.body) if k.startswith("self.")}
    return out


def reached_methods(m: "ModuleAnalysis", ci: ClassInfo, fi: FunctionInfo) -> list[FunctionInfo]:
    """``fi`` and the methods it calls on ``self``, directly or through the methods they call on ``self`` in turn."""
    methods: dict[str, FunctionInfo] = {}
    for c in reversed(mro(m, ci)):
        methods.update(c.methods)
    out = [fi]
    seen: set[str] = set()
    todo = sorted(_self_calls(fi.node))
    while todo:
        name = todo.pop()
        callee = methods.get(name)
        if name in seen or callee is None:
            continue
        seen.add(name)
        out.append(callee)
        todo.extend(sorted(_self_calls(callee.node)))
    return out


def _self_calls(node: cst.CSTNode) -> set[str]:
    """Names of ``self.NAME(...)`` calls in a function body."""

    return set(memo("self_calls", node, _self_calls_walk))


def _self_calls_and_assigned(fn: cst.CSTNode) -> set[str]:
    """``_self_calls(fn)``; the walk also finds what ``_assigned_names(fn.body)`` returns, and keeps it."""
    _NO_TARGETS, _assigned_at = _interpreter._NO_TARGETS, _interpreter._assigned_at

    body = getattr(fn, "body", None)
    if body is None or memoised("self_calls", fn) or memoised("assigned", body):
        return _self_calls(fn)
    calls: set[str] = set()
    names: set[str] = set()
    stack: list[tuple[cst.CSTNode, bool]] = [(fn, False)]  # (node, under the body and no nested def or class)
    while stack:
        n, assigning = stack.pop()
        if type(n) is cst.Call:
            f = n.func
            if type(f) is cst.Attribute and type(f.value) is cst.Name and f.value.value == "self":
                calls.add(f.attr.value)
        if assigning and not _assigned_at(n, names):
            if type(n) in _NO_TARGETS:
                continue  # a leaf, an import: no call below
            assigning = False  # a nested def or class: its names are its own, its ``self.f()`` calls still count
        for c in children(n):
            stack.append((c, assigning or c is body))
    remember("assigned", body, frozenset(names))
    return set(memo("self_calls", fn, lambda _: frozenset(calls)))


def _self_calls_walk(node: cst.CSTNode) -> frozenset[str]:

    out: set[str] = set()
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        if type(n) is cst.Call:
            f = n.func
            if type(f) is cst.Attribute and type(f.value) is cst.Name and f.value.value == "self":
                out.add(f.attr.value)
        stack.extend(children(n))
    return frozenset(out)


def instance_attrs(
    m: "ModuleAnalysis",
    ci: ClassInfo,
    vars_: dict[str, Value],
    owned: bool = False,
    handed: "frozenset[int] | None" = None,
) -> tuple[tuple[str, Value], ...]:
    """The attributes of an object as its constructor left them; a list attribute is unknown (code outside the
    constructor may change it), except in a plain record built from lists nothing else holds (``owned``), and an
    empty list the class only tests (``_tested_only``) that is not one of the caller's lists (``handed``: the ids
    of the lists among the constructor's arguments; None: any may be)."""
    changed = outside_init(m, ci)
    record = owned and _plain_record(m, ci)
    items_only = class_state(ci).items_only
    # flax linen freezes what setup assigns: a list becomes a tuple, which no method can change
    frozen_lists = any(b.startswith("flax.linen") for b in foreign_bases(m, ci))
    out = []
    # (in the order the constructor set them: torch registers submodules in that order, and a walk of the module
    # tree, ``model.children()``, follows it)
    for k, v in vars_.items():
        if not k.startswith("self."):
            continue
        if frozen_lists and isinstance(v, SeqV) and v.kind == "list":
            v = SeqV(v.items, "tuple", v.names)
        mutable = (
            not record
            and (
                isinstance(v, SeqV)
                and v.kind == "list"
                and not _layer_list(v)
                and not _scalar_list(v)
                and not (_nested_layer_list(v) and _no_list_mutation(m, ci))
                and not (
                    (_dict_list(v) or _tensor_list(v))
                    and handed is not None
                    and id(v) not in handed
                    and k[5:] in _items_read_only(m, ci)
                )
            )
            or (
                isinstance(v, ManyV)
                and v.kind == "list"
                # (a list the constructor made, of any length -- a DataLoader's batches -- that the methods only
                # iterate or read items of, and no caller holds, stays as built)
                and not (handed is not None and id(v) not in handed and k[5:] in _items_read_only(m, ci))
            )
        )
        if k in items_only and kept_by_item_stores(v):
            # a torch / numpy array that other methods only store items into keeps its shape and dtype
            out.append((k[5:], v.with_shape(v.shape)))  # type: ignore[union-attr]
            continue
        if (
            isinstance(v, DictV)
            and v.kind == "dict"
            and not v.items
            and (owned or (handed is not None and id(v) not in handed))
            and k[5:] in _memo_dicts(m, ci)
        ):
            out.append((k[5:], v))  # a memo the constructor made empty: empty on a key's first call (_memo_dicts)
            continue
        if (
            mutable
            and isinstance(v, SeqV)
            and not v.items
            and (owned or (handed is not None and id(v) not in handed))
            and k not in changed
            and k[5:] in _tested_only(m, ci)
        ):
            mutable = False  # an empty list the class only tests (``if key in self.pre_keys``): stays empty
        # (``self.x?``: what x holds when not None, interpreter.OPTIONAL)
        out.append((k[5:], UNKNOWN if k.rstrip("?") in changed or mutable else stale(v)))
    return tuple(out)


def _tested_only(m: "ModuleAnalysis", ci: ClassInfo) -> frozenset[str]:
    """The attributes ``x`` every ``self.x`` of whose in the class and its analysed bases (nested functions and
    constructors included) is an assignment target, the right side of ``in`` / ``not in``, what a ``for`` iterates
    or the argument of ``len``: no code of the class changes that list or hands it to code that could (an empty
    list built by the constructor is still empty when a method tests it; code outside the class is trusted not to
    fill it, as for every other attribute)."""

    ok: set[str] = set()
    bad: set[str] = set()
    for c in mro(m, ci):
        good_c, bad_c = memo("tested-only", c.node, _tested_only_walk)
        ok |= good_c
        bad |= bad_c
    return frozenset(ok - bad)


_CTORS = frozenset({"__init__", "setup", "__post_init__"})


def _memo_dicts(m: "ModuleAnalysis", ci: ClassInfo) -> frozenset[str]:
    """The attributes ``x`` a class uses as a memo (rotary_embedding_torch's ``self.cache = dict()``, then in
    ``forward``: ``if key in self.cache: return self.cache[key]`` ... ``self.cache[key] = freqs``): every ``self.x``
    in the class and its analysed bases is a constructor's assignment target, or -- all in one other method, outside
    nested functions -- the right side of ``in`` / ``not in``, or subscripted (an item read or an item store). No
    other code of the class reads, changes or hands on that dict, so a constructor's empty dict is empty when the
    method first runs for a key: the method is analysed as that first call, which computes what a later call with
    the same key reads back (code outside the class is trusted not to fill it, as for every other attribute)."""
    users: dict[str, set[str]] = {}
    bad: set[str] = set()
    for c in mro(m, ci):
        used_c, bad_c = memo("memo-dicts", c.node, _memo_walk)
        bad |= bad_c
        for name, methods in used_c:
            users.setdefault(name, set()).update(f"{c.node.name.value}.{x}" for x in methods)
    return frozenset(k for k, ms in users.items() if k not in bad and len(ms) == 1)


def _memo_walk(cls: cst.CSTNode) -> tuple[tuple[tuple[str, frozenset[str]], ...], frozenset[str]]:
    used: dict[str, set[str]] = {}
    bad: set[str] = set()
    body = cls.body.body if isinstance(cls, cst.ClassDef) else ()
    for stmt in body:
        if not isinstance(stmt, cst.FunctionDef):
            for a in _attr_nodes(stmt):
                bad.add(a.attr.value)  # (a class-level statement naming self.x: not a method's use)
            continue
        ctor = stmt.name.value in _CTORS
        allowed: set[int] = set()
        stack: list[tuple[cst.CSTNode, bool]] = [(stmt.body, False)]
        while stack:
            n, nested = stack.pop()
            if isinstance(n, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                nested = True
            elif isinstance(n, cst.Comparison) and not ctor:
                for cmp in n.comparisons:
                    if isinstance(cmp.operator, (cst.In, cst.NotIn)) and _self_attr(cmp.comparator) is not None:
                        allowed.add(id(cmp.comparator))
            elif isinstance(n, cst.Subscript) and not ctor:
                if _self_attr(n.value) is not None:
                    allowed.add(id(n.value))  # self.x[k], read or stored
            elif isinstance(n, cst.AssignTarget) and ctor:
                if _self_attr(n.target) is not None:
                    allowed.add(id(n.target))
            elif isinstance(n, (cst.AugAssign, cst.Del)):
                t = n.target
                name = _self_attr(t.value) if isinstance(t, cst.Subscript) else _self_attr(t)
                if name is not None:
                    bad.add(name)  # self.x[k] += v, del self.x[k]
            elif isinstance(n, cst.Attribute):
                name = _self_attr(n)
                if name is not None:
                    if nested or id(n) not in allowed:
                        bad.add(name)
                    elif not ctor:
                        used.setdefault(name, set()).add(stmt.name.value)
            stack.extend((c, nested) for c in children(n))
    return tuple((k, frozenset(v)) for k, v in used.items()), frozenset(bad)


def _attr_nodes(node: cst.CSTNode) -> Iterator[cst.Attribute]:
    stack = [node]
    while stack:
        n = stack.pop()
        if type(n) is cst.Attribute and _self_attr(n) is not None:
            yield n
        stack.extend(children(n))


def _self_attr(node: cst.CSTNode) -> str | None:
    if type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == "self":
        return node.attr.value
    return None


def _tested_only_walk(cls: cst.CSTNode) -> tuple[frozenset[str], frozenset[str]]:
    allowed: set[int] = set()
    good: set[str] = set()
    bad: set[str] = set()
    stack: list[cst.CSTNode] = [cls]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.Comparison:
            for cmp in n.comparisons:  # type: ignore[attr-defined]
                if type(cmp.operator) in (cst.In, cst.NotIn) and _self_attr(cmp.comparator) is not None:
                    allowed.add(id(cmp.comparator))
        elif tp is cst.For:
            if _self_attr(n.iter) is not None:  # type: ignore[attr-defined]
                allowed.add(id(n.iter))  # type: ignore[attr-defined]
        elif tp is cst.Call:
            f, args = n.func, n.args  # type: ignore[attr-defined]
            if type(f) is cst.Name and f.value == "len" and len(args) == 1 and _self_attr(args[0].value) is not None:
                allowed.add(id(args[0].value))
        elif tp is cst.AssignTarget:
            if _self_attr(n.target) is not None:  # type: ignore[attr-defined]
                allowed.add(id(n.target))  # type: ignore[attr-defined]
        elif tp is cst.Attribute:
            name = _self_attr(n)
            if name is not None:
                (good if id(n) in allowed else bad).add(name)
        stack.extend(children(n))
    return frozenset(good), frozenset(bad)


def _lists_owned(
    interp: "Interpreter | None", node: cst.Call | None, args: list[Value], kwargs: dict[str, Value]
) -> bool:
    """Nothing but the object built by ``node`` can change the lists handed to it: the call is (in) the value of a
    ``return`` (``return x, LayerIntermediates(hiddens=hiddens)``) or of an assignment right before one, and each
    list argument is a list display or comprehension, or a local name of the returning function that is neither one
    of its parameters nor bound to what another name holds (the caller, who may still change a list it handed over,
    holds none of them; the function's own names end with the return). Anything else -- a record built and kept
    while the caller's list goes on changing (``r = Rec(xs); xs.append(t)``), an attribute, a parameter or an alias
    of one, ``*``/``**`` -- keeps the record's lists unknown."""

    if interp is None or node is None or interp.returning is None or not contains(interp.returning, node):
        return False
    fi = interp.m.functions.get(interp.frame.key) if hasattr(interp.m, "functions") else None
    if fi is None:
        return False
    params = {p.name for p in fi.params}
    handed_in: set[int] = set()  # the lists the caller handed over (a local alias holds the same value object)
    for p in params:
        _list_ids(interp.scope.vars.get(p), handed_in)
    positional = iter(args)
    for a in node.args:
        if a.star:
            return False
        v = kwargs.get(a.keyword.value) if a.keyword is not None else next(positional, None)
        e = a.value
        if type(e) is cst.Name and (
            e.value in params
            or any(interp.scope.vars.get(p) is v for p in params)
            or _aliased(fi.node, e.value)
            or _escapes(fi.module, fi.node, e.value, node)
        ):
            # a parameter, or a local name for what one holds (``hs = xs``; even when nothing is known of it here:
            # what the function returns may be read again with the caller's list in its place)
            return False
        if not _holds_list(v):
            continue
        if type(e) is not cst.Name and type(e) not in (cst.List, cst.ListComp):
            return False
        mine: set[int] = set()
        _list_ids(v, mine)
        if mine & handed_in:
            return False  # ``hs = xs`` (a parameter) or ``[xs]``: the caller's list, which it may still change
    return True


def _private_arguments(
    interp: "Interpreter | None", node: cst.Call | None, args: list[Value], kwargs: dict[str, Value]
) -> set[int]:
    """The argument values of a constructor call that are lists no name of the caller can change afterwards: a list
    display or comprehension written in the call (``Trainer(model, [torch.randn(2, 8) for _ in range(3)])``), or a
    local name the caller's scope binds once and otherwise only reads (``batches = [...]; Trainer(model, batches)``:
    no method called on it, no item stored, not handed to anything else; at a module's top level, a name no
    function, lambda or class body of the module names)."""
    out: set[int] = set()
    if node is None:
        return out
    positional = iter(args)
    for a in node.args:
        if a.star:
            return out
        v = kwargs.get(a.keyword.value) if a.keyword is not None else next(positional, None)
        if v is None:
            continue
        if type(a.value) in (cst.List, cst.ListComp):
            out.add(id(v))
        elif type(a.value) is cst.Name and interp is not None and _only_read(interp, a.value.value, a):
            out.add(id(v))
    return out


def _only_read(interp: "Interpreter", name: str, handed: cst.Arg) -> bool:
    if interp.frame.key == "<module>":
        tree = interp.m.tree  # type: ignore[attr-defined]
        from .module import _names_in_bodies

        if name in memo("body-names", tree, _names_in_bodies):
            return False
        scope: cst.CSTNode = tree
    else:
        fi = interp.m.functions.get(interp.frame.key) if hasattr(interp.m, "functions") else None
        if fi is None:
            return False
        scope = fi.node
    bound, reads = memo("name-reads", scope, _name_uses).get(name, (0, ()))
    if not (bound == 1 and all(r is handed or r in _READ_ONLY for r in reads)):
        return False
    unpacked = memo("unpacked-calls", scope, _unpacked_calls).get(name)
    # ``videos, labels = fake_videos(n)``: the callee's own new list at that place of the tuple it returns
    return unpacked is None or _returns_own_list(interp, *unpacked)


def _unpacked_calls(scope: cst.CSTNode) -> dict[str, tuple[str, int]]:
    """The names ``scope`` binds by unpacking a call of a plain name (``a, b = f(...)``): the callee's name and the
    place in the tuple (nested functions and classes left out)."""
    out: dict[str, tuple[str, int]] = {}
    stack: list[cst.CSTNode] = [scope.body if type(scope) is cst.FunctionDef else scope]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        if tp is cst.Assign and len(n.targets) == 1 and type(n.value) is cst.Call:  # type: ignore[attr-defined]
            target, func = n.targets[0].target, n.value.func  # type: ignore[attr-defined]
            if type(target) in (cst.Tuple, cst.List) and type(func) is cst.Name:
                for i, e in enumerate(target.elements):
                    if type(e) is cst.Element and type(e.value) is cst.Name:
                        out[e.value.value] = (func.value, i)
        stack.extend(children(n))
    return out


def _returns_own_list(interp: "Interpreter", func: str, place: int) -> bool:
    """Does the function of the analysed code ``func`` names return, at every ``return``, a tuple whose item at
    ``place`` is a local it binds once, to a list display or comprehension, and otherwise only reads (no other
    name, attribute or call keeps it)?"""
    if func in interp.scope.vars:
        return False
    fv = interp.m.globals.get(func) if hasattr(interp.m, "globals") else None
    fi = interp.m.find_function(fv.key) if isinstance(fv, FuncV) and fv.bound_self is None and not fv.env else None
    if fi is None or fi.node.decorators:
        return False
    returns = [n for n in walk_all(fi.node.body) if type(n) is cst.Return]
    names: set[str] = set()
    for r in returns:
        v = r.value
        if type(v) is not cst.Tuple or place >= len(v.elements):
            return False
        e = v.elements[place]
        if type(e) is not cst.Element or type(e.value) is not cst.Name:
            return False
        names.add(e.value.value)
    if len(names) != 1:
        return False
    local = names.pop()
    bound, reads = memo("name-reads", fi.node, _name_uses).get(local, (0, ()))
    # (each return's tuple reads it once: an "other" use per return, nothing else)
    return bound == 1 and sum(1 for r in reads if r not in _READ_ONLY) == len(returns) and not _in_nested(fi, local)


def _in_nested(fi: FunctionInfo, name: str) -> bool:
    """Does a function, lambda or class nested in ``fi`` name ``name`` (a closure may keep it)?"""
    for n in walk_all(fi.node.body):
        if type(n) in (cst.FunctionDef, cst.Lambda, cst.ClassDef):
            if name in {x.value for x in walk_names(n)}:
                return True
    return False


# the parent kinds under which a name is only read: ``for x in name``, ``name[i]`` (not stored into), ``len(name)``
_READ_ONLY = frozenset({"for", "subscript", "reader"})


def _name_uses(scope: cst.CSTNode) -> dict[str, tuple[int, tuple[object, ...]]]:
    """For each name in ``scope`` (its nested functions and classes left out): how many times it is bound (a binding
    to anything but a list display or comprehension counts twice), and how each load uses it -- the ``cst.Arg`` it is handed as, or "for" / "subscript" / "reader" (``len``, ``zip``,
    ``enumerate``, ``iter``, ``reversed``) for a plain read, or "other"."""
    bound: Counter[str] = Counter()
    uses: dict[str, list[object]] = {}
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None]] = [
        (c, scope, None) for c in children(scope)
    ]
    if type(scope) is cst.FunctionDef:
        stack = [(scope.body, scope, None)]
    while stack:
        n, parent, grand = stack.pop()
        tp = type(n)
        if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        if tp is cst.AssignTarget and type(n.target) is cst.Name:  # type: ignore[attr-defined]
            # (bound to a list display or comprehension: a new list; bound to anything else, it may be held elsewhere)
            fresh = type(parent) is cst.Assign and type(parent.value) in (cst.List, cst.ListComp)
            bound[n.target.value] += 1 if fresh else 2  # type: ignore[attr-defined]
            stack.append((n.target, n, parent))  # type: ignore[attr-defined]
            continue
        if tp is cst.AssignTarget and type(n.target) in (cst.Tuple, cst.List):  # type: ignore[attr-defined]
            # ``a, b = f(...)``: each name bound once, to what the call's tuple holds there (``_only_read`` asks the
            # callee: ``_unpacked_calls``); any other unpacking may hand out what is held elsewhere
            call = type(parent) is cst.Assign and type(parent.value) is cst.Call
            for e in n.target.elements:  # type: ignore[attr-defined]
                if type(e) is cst.Element and type(e.value) is cst.Name:
                    bound[e.value.value] += 1 if call else 2
                else:
                    stack.append((e, n.target, n))  # type: ignore[attr-defined]
            continue
        if tp is cst.Name:
            use: object = "other"
            if type(parent) is cst.AssignTarget:
                continue
            if type(parent) is cst.For and parent.iter is n:
                use = "for"
            elif (
                type(parent) is cst.Subscript
                and parent.value is n
                and type(grand) not in (cst.AssignTarget, cst.AugAssign, cst.Del, cst.Attribute)
            ):
                use = "subscript"
            elif type(parent) is cst.Arg and not parent.star:
                use = parent
                if type(grand) is cst.Call and type(grand.func) is cst.Name and grand.func.value in _ITEM_READERS:
                    use = "reader"
            uses.setdefault(n.value, []).append(use)  # type: ignore[attr-defined]
            continue
        for c in children(n):
            stack.append((c, n, parent))
    return {k: (bound[k], tuple(v)) for k, v in uses.items()}


def _aliased(fn: cst.CSTNode, name: str) -> bool:
    """Does ``fn`` bind ``name`` to what another name, attribute or item holds (``hs = xs``, ``hs = self.cache``)?"""
    return name in memo("aliased-names", fn, _aliased_names)


def _aliased_names(fn: cst.CSTNode) -> frozenset[str]:
    """The names ``fn`` binds to what another name, attribute or item holds (``_aliased``), in one walk."""
    out: set[str] = set()
    stack: list[cst.CSTNode] = [fn]
    while stack:
        n = stack.pop()
        if type(n) is cst.Assign and type(n.value) in (cst.Name, cst.Attribute, cst.Subscript):
            out.update(t.target.value for t in n.targets if type(t.target) is cst.Name)
        stack.extend(children(n))
    return frozenset(out)


# calls that read a list handed to them and keep nothing of it
_READING_BUILTINS = frozenset(
    {"len", "list", "tuple", "sorted", "sum", "min", "max", "any", "all", "isinstance", "print", "str", "repr", "bool"}
)
_READING_LIBRARIES = ("torch.", "numpy.", "jax.", "einops.")


def _escapes(m: "ModuleAnalysis", fn: cst.CSTNode, name: str, record: cst.Call) -> bool:
    """``_escapes_walk``, once per function, name and record call (the same record is built again at every call of
    its function that the analysis inlines)."""
    answers: dict[tuple[str, int], tuple[cst.Call, bool]] = memo("escapes", fn, lambda _: {})
    hit = answers.get((name, id(record)))
    if hit is not None and hit[0] is record:
        return hit[1]
    found = _escapes_walk(m, fn, name, record)
    answers[(name, id(record))] = (record, found)
    return found


def _escapes_walk(m: "ModuleAnalysis", fn: cst.CSTNode, name: str, record: cst.Call) -> bool:
    """Can something other than the record built by ``record`` hold the list ``name`` names when ``fn`` returns?
    Besides the record call, the name may only be read in place: a method or item of the list (``hs.append(x)``,
    ``hs[-1]``), a loop over it, a test, an argument of a builtin or a library function that keeps nothing of it
    (``len(hs)``, ``torch.stack(hs)``), or the target it is bound to. Stored in an attribute, an item or another
    name (``self.saved = hs``), put in a display, handed to any other call, returned or yielded beside the record,
    or read by a nested function or lambda: the caller may change the record's list through that. What runs only on
    a path that never builds the record (another ``return`` and the line right before it) does not count."""
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, bool]] = [(fn, None, False)]
    while stack:
        n, parent, nested = stack.pop()
        if n is record:
            continue
        if isinstance(n, cst.Name):
            if n.value == name and parent is not None and (nested or not _read_in_place(n, parent)):
                return True
            continue
        inner = nested or (n is not fn and type(n) in (cst.FunctionDef, cst.Lambda, cst.ClassDef))
        if isinstance(n, (cst.IndentedBlock, cst.Module)):
            body = n.body
            stack.extend(
                (c, n, inner)
                for i, c in enumerate(body)
                if not _other_path(body, i, record) and not (i > 0 and _rebinds_to_record(body[i - 1], name, record))
            )
            continue
        if isinstance(n, cst.Call) and not inner and _reading_call(m, n):
            # len(hs), torch.stack(hs, dim=1): the list itself is read, nothing keeps it (its other arguments may)
            stack.append((n.func, n, inner))
            stack.extend(
                (a.value, a, inner) for a in n.args if not (type(a.value) is cst.Name and a.value.value == name)
            )
            continue
        stack.extend((c, n, inner) for c in children(n))
    return False


def _read_in_place(name: cst.Name, parent: cst.CSTNode) -> bool:
    """``name`` in ``parent`` is read (or bound) where nothing can keep the list it holds (``_escapes``)."""
    if isinstance(parent, (cst.Attribute, cst.Subscript)):
        return parent.value is name  # hs.append(x), hs.copy(), hs[-1], hs[0] = x (not an attribute named like it)
    if isinstance(parent, (cst.For, cst.CompFor)):
        return parent.iter is name  # a loop over it (a loop that binds it: anything the loop runs over)
    if isinstance(parent, cst.AugAssign):
        return parent.target is name  # hs += [x] changes it in place; xs += hs keeps its items, not the list
    if isinstance(parent, cst.IfExp):
        return parent.test is name
    # bound (hs = [...]), deleted, compared, tested, negated
    return isinstance(
        parent, (cst.AssignTarget, cst.Del, cst.ComparisonTarget, cst.Comparison, cst.If, cst.While, cst.UnaryOperation)
    )


def _rebinds_to_record(stmt: cst.CSTNode, name: str, record: cst.Call) -> bool:
    """``stmt`` binds ``name`` to the record itself (``intermediates = Rec(attn_intermediates=intermediates)`` before
    ``return x, intermediates``): the return line after it reads the record, not the list."""
    if type(stmt) is not cst.SimpleStatementLine or len(stmt.body) != 1:
        return False
    small = stmt.body[0]
    return (
        isinstance(small, cst.Assign)
        and small.value is record
        and any(type(t.target) is cst.Name and t.target.value == name for t in small.targets)
    )


def _returns(stmt: cst.CSTNode) -> bool:
    return type(stmt) is cst.SimpleStatementLine and any(type(x) is cst.Return for x in stmt.body)


def _other_path(body: Sequence[cst.CSTNode], i: int, record: cst.Call) -> bool:
    """``body[i]`` is a ``return`` line, or the simple line right before one, and neither that return nor the line
    before it builds ``record``: it runs only on a path where the record is never built."""
    if _returns(body[i]):
        group = [body[i - 1], body[i]] if i > 0 and type(body[i - 1]) is cst.SimpleStatementLine else [body[i]]
    elif i + 1 < len(body) and type(body[i]) is cst.SimpleStatementLine and _returns(body[i + 1]):
        group = [body[i], body[i + 1]]
    else:
        return False
    return not any(contains(g, record) for g in group)


def _reading_call(m: "ModuleAnalysis", call: cst.Call) -> bool:
    """A call of a builtin or of a library function (not a class: ``nn.ModuleList(hs)`` keeps the list) that reads
    its arguments and keeps nothing of them."""
    func = call.func
    if type(func) is cst.Name and func.value in _READING_BUILTINS:
        return func.value not in m.globals and func.value not in m.imports.names
    head = dotted(func) if type(func) is cst.Attribute else None
    qual = m.qualify_dotted(head) if head is not None else None
    return (
        qual is not None
        and qual.startswith(_READING_LIBRARIES)
        and qual.rpartition(".")[2][:1].islower()
        and (".nn." not in qual or ".nn.functional." in qual)
    )


def _list_ids(v: Value | None, out: set[int], depth: int = 0) -> None:
    """The ids of the list values in ``v`` (itself and its items, three levels deep)."""
    if isinstance(v, SeqV):
        if v.kind == "list":
            out.add(id(v))
        if depth < 3:
            for x in v.items:
                _list_ids(x, out, depth + 1)
    elif isinstance(v, DictV):
        out.add(id(v))  # and the lists it holds (``cfg.get("keys", [])`` may be the caller's list)
        if depth < 3:
            for _, x in v.items:
                _list_ids(x, out, depth + 1)
    elif isinstance(v, ManyV):
        out.add(id(v))


def _holds_list(v: Value | None, depth: int = 0) -> bool:
    if isinstance(v, SeqV):
        return v.kind == "list" or (depth < 3 and any(_holds_list(x, depth + 1) for x in v.items))
    return isinstance(v, ManyV) or isinstance(v, DictV) or v is None


def _plain_record(m: "ModuleAnalysis", ci: ClassInfo) -> bool:
    """A dataclass-like class with no method of its own along its MRO (``LayerIntermediates``: fields only)."""
    if not is_dataclass_like(m, ci):
        return False
    return all(not c.methods for c in mro(m, ci))


def kept_by_item_stores(v: Value) -> bool:
    """A torch or numpy array of known rank: ``v[i] = x`` (of any index and value that run) keeps its shape and dtype
    (its values change: what a value range recorded is dropped)."""
    from .values import TensorV

    return isinstance(v, TensorV) and v.shape is not None and v.framework in ("torch", "numpy")


def fresh_attrs(
    m: "ModuleAnalysis", ci: ClassInfo, vars_: dict[str, Value], handed: list[Value]
) -> tuple[tuple[str, Value], ...]:
    """The constructor's values of the attributes another method may reassign (``reset_classifier`` rebuilding
    ``self.head``): true of the object as built, before any of its methods runs (ObjV.fresh). A submodule the
    constructor built that has such values of its own (a pooling head with a ``reset``) keeps them here: while the
    object is just built, nothing has run on the submodule either (one of a class handed to the constructor, which
    its caller may still hold, does not). The first method run on the object drops those of the submodules it (or a
    method it calls on ``self``) uses other than by calling them (``used_otherwise``, ModuleAnalysis.call_function)."""
    changed = outside_init(m, ci)
    subs = [
        k
        for k, v in vars_.items()
        if isinstance(v, ObjV)
        and v.fresh
        and k.startswith("self.")
        and k[-1] != "?"
        and not any(_has_instance(a, v.cls_key, 3) for a in handed)
    ]
    # an nn.ModuleList (or a list of them) of submodules the constructor built, some with constructor values of
    # their own (a rotary table grown by its first call, in each layer): kept with them, for the first method run on
    # the object, in which a call through a loop variable runs each such submodule once on them
    # (ModuleAnalysis._call_method_or_function)
    subs += [
        k
        for k, v in vars_.items()
        if isinstance(v, SeqV)
        and v.kind == "modulelist"
        and k.startswith("self.")
        and k[-1] != "?"
        and k not in changed
        and _holds_fresh(v, 2)
        and not any(_has_instance(a, x.cls_key, 3) for a in handed for x in _objects_in(v, 2))
    ]
    if not changed and not subs:
        return ()
    out: list[tuple[str, Value]] = []
    for k, v in sorted(vars_.items()):
        if k in subs and isinstance(v, SeqV):
            out.append((LISTED + k[5:], v))  # (not the attribute's value: module._promoted, fresh_after)
        elif k in subs:
            out.append((k[5:], v))
        elif k in changed and k.startswith("self.") and not (isinstance(v, (SeqV, ManyV)) and v.kind == "list"):
            # (only ``self.x``: a constructor's local that another method also binds (``mask`` here, a local ``mask``
            # in ``forward``) is no attribute, and its name cut as one made ``gate_mask`` read as ``self.mask``)
            out.append((k[5:], stale(v)))
    return tuple(out)


# the key prefix of a module list kept among an object's constructor values (ObjV.fresh) for the submodules in it
# that have constructor values of their own: no attribute's value
LISTED = "<listed>"


def _holds_fresh(v: Value, depth: int) -> bool:
    if isinstance(v, ObjV):
        return bool(v.fresh)
    return depth > 0 and isinstance(v, SeqV) and any(_holds_fresh(x, depth - 1) for x in v.items)


def _objects_in(v: Value, depth: int) -> list[ObjV]:
    if isinstance(v, ObjV):
        return [v]
    if depth > 0 and isinstance(v, SeqV):
        return [o for x in v.items for o in _objects_in(x, depth - 1)]
    return []


def jaxtyped_class(ci: ClassInfo) -> bool:
    """A class decorated with ``jaxtyped(typechecker=...)`` (directly, or through a module-level name bound to that
    call: ``typechecked = jaxtyped(typechecker=beartype)``): jaxtyping checks its dataclass fields when it is built."""
    for d in ci.node.decorators:
        expr = d.decorator
        if type(expr) is cst.Name:
            expr = _module_binding(ci.module.tree, expr.value) or expr
        if (
            type(expr) is cst.Call
            and ci.module.qualify(expr.func) == "jaxtyping.jaxtyped"
            and any(
                a.keyword is not None
                and a.keyword.value == "typechecker"
                and not (type(a.value) is cst.Name and a.value.value == "None")
                for a in expr.args
            )
        ):
            return True
    return False


def _module_binding(tree: cst.Module, name: str) -> cst.BaseExpression | None:
    """The value of the one module-level ``name = value`` statement (None when there is none, or several)."""
    found: list[cst.BaseExpression] = []
    for stmt in tree.body:
        if type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                if (
                    type(small) is cst.Assign
                    and len(small.targets) == 1
                    and type(small.targets[0].target) is cst.Name
                    and small.targets[0].target.value == name
                ):
                    found.append(small.value)
    return found[0] if len(found) == 1 else None


_SEQUENCE_HEADS = frozenset({"Sequence", "list", "List", "tuple", "Tuple"})


def _checked_fields(
    ci: ClassInfo, fields: list[tuple[str, ClassInfo, cst.BaseExpression | None]], vars_: dict[str, Value]
) -> list[tuple[str, Any, tuple[Any, ...]]]:
    """(field, jaxtyping annotation, shape) of the fields whose value a check reads: an array of known shape, or a
    list / tuple of arrays all of one known shape for ``Sequence[...]`` (the type checker looks at one element);
    ``X | None`` / ``Optional[X]`` as X when the value is not None. Unions of arrays are left out."""

    out: list[tuple[str, Any, tuple[Any, ...]]] = []
    for name, owner, _ in fields:
        node = _field_annotation(owner, name)
        v = vars_.get(f"self.{name}")
        if node is None or v is None or isinstance(v, NoneV):
            continue
        if type(node) is cst.BinaryOperation and type(node.operator) is cst.BitOr:
            sides = [x for x in (node.left, node.right) if not (type(x) is cst.Name and x.value == "None")]
            if len(sides) != 1:
                continue
            node = sides[0]
        head = dotted(node.value).rsplit(".", 1)[-1] if type(node) is cst.Subscript else ""  # type: ignore[union-attr]
        if head == "Optional" and type(node) is cst.Subscript and len(node.slice) == 1:
            node = node.slice[0].slice.value if type(node.slice[0].slice) is cst.Index else node
            head = dotted(node.value).rsplit(".", 1)[-1] if type(node) is cst.Subscript else ""  # type: ignore[union-attr]
        shape = None
        if head in _SEQUENCE_HEADS and type(node) is cst.Subscript:
            elems = [e.slice.value for e in node.slice if type(e.slice) is cst.Index]
            if head in ("tuple", "Tuple") and not (len(elems) == 2 and type(elems[1]) is cst.Ellipsis):
                continue
            if not elems or not isinstance(v, SeqV) or v.kind not in ("list", "tuple") or not v.items:
                continue
            shapes = {x.shape if isinstance(x, TensorV) else None for x in v.items}
            if len(shapes) != 1 or None in shapes:
                continue
            node, shape = elems[0], next(iter(shapes))
        elif isinstance(v, TensorV) and v.shape is not None:
            shape = v.shape
        ann = owner.module.annotation_of(node) if shape is not None else None
        if ann is not None and shape is not None:
            out.append((name, ann, shape))
    return out


def _field_statements(owner: ClassInfo, name: str) -> tuple[cst.AnnAssign, ...]:
    """The ``name: annotation [= value]`` statements of ``owner``'s body, in order."""
    return memo("field-statements", owner.node, _annotated_names).get(name, ())


def _annotated_names(node: cst.CSTNode) -> dict[str, tuple[cst.AnnAssign, ...]]:
    """The ``name: annotation [= value]`` statements of a class body, by name, each name's in order (a config class
    of a hundred fields is asked about each of them for every instance built: one walk of its body, not one per
    field)."""
    out: dict[str, list[cst.AnnAssign]] = {}
    body = node.body if isinstance(node, cst.ClassDef) else None
    for stmt in body.body if type(body) is cst.IndentedBlock else ():
        if type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                if type(small) is cst.AnnAssign and type(small.target) is cst.Name:
                    out.setdefault(small.target.value, []).append(small)
    return {k: tuple(v) for k, v in out.items()}


def _field_annotation(owner: ClassInfo, name: str) -> cst.BaseExpression | None:
    stmts = _field_statements(owner, name)
    return stmts[0].annotation.annotation if stmts else None


def _has_instance(v: Value, cls_key: str, depth: int) -> bool:
    """Is ``v`` (or something it holds, ``depth`` levels down at most) an object of the class ``cls_key``?"""
    if isinstance(v, ObjV):
        return v.cls_key == cls_key or depth > 0 and any(_has_instance(x, cls_key, depth - 1) for _, x in v.attrs)
    if depth <= 0:
        return False
    if isinstance(v, SeqV):
        return any(_has_instance(x, cls_key, depth - 1) for x in v.items)
    if isinstance(v, (DictV, IntDictV)):
        return any(_has_instance(x, cls_key, depth - 1) for _, x in v.items)
    if isinstance(v, ManyV):
        return v.elem is not None and _has_instance(v.elem, cls_key, depth - 1)
    return False


def used_otherwise(m: "ModuleAnalysis", ci: ClassInfo, fi: FunctionInfo) -> frozenset[str]:
    """Names ``x`` of the ``self.x`` that ``fi`` or a method it reaches through calls on ``self`` uses other than by
    calling it (``self.head.reset(n)``, ``f(self.head)``, ``self.head = ...``, ``self.head.fc``): run on an object just
    built, only these methods run before ``fi`` returns, so a submodule none of them touches otherwise is as built."""

    out: set[str] = set()
    for callee in reached_methods(m, ci, fi):
        out |= memo("self-attrs-not-called", callee.node, _self_attrs_not_called)
    return frozenset(out)


def fresh_after(m: "ModuleAnalysis", ci: ClassInfo, fi: FunctionInfo, obj: ObjV) -> tuple[tuple[str, Value], ...]:
    """The constructor's values (ObjV.fresh) of ``obj`` that still hold after ``fi`` ran on it (``emb(tokens)``
    before ``emb.eval()``): those of the attributes no method it reaches through calls on ``self`` assigns (nor a
    function nested in one), when none of these methods hands ``self`` on but as the first argument of a torch.nn
    method named on its class (``nn.Embedding.forward(self, x)``) or calls ``super()``. Submodules' values are
    dropped (calling one may change it)."""
    _assigned_names = _interpreter._assigned_names

    assigned: set[str] = set()
    for callee in reached_methods(m, ci, fi):
        handed = memo("self-handed", callee.node, _self_handed)
        if handed is None:
            return ()
        funcs, nested = handed
        for func in funcs:
            name = dotted(func)
            qual = callee.module.qualify_dotted(name) if name is not None else None
            if qual is None or not qual.startswith("torch.nn."):
                return ()
        assigned |= _assigned_names(callee.node.body) | nested
    if any(k.startswith("self.") and intercepts_attr(m, ci, k[5:]) for k in assigned):
        return ()  # ``self.step_idx += 1`` through a property setter stores another attribute (``_step_idx``)
    return tuple(
        (k, v)
        for k, v in obj.fresh
        if not isinstance(v, ObjV) and not k.startswith(LISTED) and "self." + k.rstrip("?") not in assigned
    )


def _self_handed(fn: cst.CSTNode) -> tuple[tuple[cst.BaseExpression, ...], frozenset[str]] | None:
    """The callees of the calls a method hands ``self`` to as its first positional argument, and the ``self.x``
    that functions nested in it assign; None when it uses ``self`` otherwise than by its attributes (stored,
    returned, another argument), calls ``super()``, or defines a class."""
    out: list[cst.BaseExpression] = []
    nested: set[str] = set()
    body = getattr(fn, "body", None)
    if body is None:
        return None
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, bool]] = [(body, None, False)]
    while stack:
        n, parent, inner = stack.pop()
        tp = type(n)
        if tp is cst.ClassDef:
            return None
        if tp is cst.Call and type(n.func) is cst.Name and n.func.value == "super":  # type: ignore[attr-defined]
            return None
        if tp is cst.Name and n.value == "self":  # type: ignore[attr-defined]
            if type(parent) is cst.Attribute and parent.value is n:
                continue
            return None
        if inner and tp in (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For):
            key = _interpreter._var_key(n.target)  # type: ignore[attr-defined]
            if key is not None and key.startswith("self."):
                nested.add(key)
            elif type(n.target) is not cst.Name:  # type: ignore[attr-defined]
                return None  # self.x.y = v, self.xs[i] = v in a nested function
        inner = inner or tp is cst.FunctionDef or tp is cst.Lambda
        if tp is cst.Call:
            call = cast(cst.Call, n)
            first = call.args[0] if call.args else None
            if (
                first is not None
                and not first.star
                and first.keyword is None
                and type(first.value) is cst.Name
                and first.value.value == "self"
                and type(call.func) is cst.Attribute
            ):
                out.append(call.func)
                stack.append((call.func, call, inner))
                stack.extend((a, call, inner) for a in call.args[1:])
                continue
        stack.extend((c, n, inner) for c in children(n))
    return tuple(out), frozenset(nested)


def _self_attrs_not_called(fn: cst.CSTNode) -> frozenset[str]:

    out: set[str] = set()
    callees: set[int] = set()  # (and the ``self.x`` only tested against None: ``if self.attn2 is not None``)
    stack: list[cst.CSTNode] = [fn]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.Call:
            callees.add(id(n.func))  # type: ignore[attr-defined]
        elif tp is cst.Comparison and all(type(c.operator) in (cst.Is, cst.IsNot) for c in n.comparisons):  # type: ignore[attr-defined]
            callees.update(id(e) for e in (n.left, *(c.comparator for c in n.comparisons)))  # type: ignore[attr-defined]
        elif tp is cst.Attribute and type(n.value) is cst.Name and n.value.value == "self":  # type: ignore[attr-defined]
            if id(n) not in callees:
                out.add(n.attr.value)  # type: ignore[attr-defined]
        stack.extend(children(n))
    return frozenset(out)


def stale(v: Value, depth: int = 3) -> Value:
    """``v`` with the constructor-time values of the objects in it dropped (ObjV.fresh): an object kept in another
    object or a container may have had methods run on it that the analysis does not see."""
    if isinstance(v, ObjV):
        return ObjV(v.cls_key, v.attrs, v.concrete) if v.fresh else v
    if depth <= 0:
        return v
    if isinstance(v, SeqV) and any(isinstance(x, (ObjV, SeqV, DictV, ManyV)) for x in v.items):
        return SeqV(tuple(stale(x, depth - 1) for x in v.items), v.kind, v.names)
    if isinstance(v, DictV) and any(isinstance(x, (ObjV, SeqV, DictV, ManyV)) for _, x in v.items):
        return DictV(tuple((k, stale(x, depth - 1)) for k, x in v.items), v.kind)
    if isinstance(v, IntDictV) and any(isinstance(x, (ObjV, SeqV, DictV, IntDictV, ManyV)) for _, x in v.items):
        return IntDictV(tuple((k, stale(x, depth - 1)) for k, x in v.items))
    if isinstance(v, ManyV) and v.elem is not None:
        return replace(v, elem=stale(v.elem, depth - 1))
    return v


def _scalar_list(v: SeqV) -> bool:
    """A list of names or numbers, or of tuples of them (``self.modalities = sorted(dims)``, ``self.dims = [64, 128]``,
    ``self.feature_pairs = list(pairs)`` of (teacher, student) indices): kept as built unless a method other than the
    constructors changes it (``outside_init``), like a list of layers."""

    def scalar(x: Value) -> bool:
        return isinstance(x, (StrV, IntV, FloatV, BoolV))

    return bool(v.items) and all(
        scalar(x) or (isinstance(x, SeqV) and x.kind == "tuple" and all(scalar(y) for y in x.items)) for x in v.items
    )


def _layer_list(v: SeqV) -> bool:
    """A plain list of layers and functions (an equinox ``self.layers = [eqx.nn.Conv2d(...), jax.nn.relu, ...]``):
    kept as built unless a method other than the constructors changes it (``outside_init``); a list of data is not."""

    return bool(v.items) and all(isinstance(x, (LayerV, ObjV, RefV, FuncV)) for x in v.items)


def plain_fresh_object(ci: ClassInfo, attrs: Sequence[str]) -> bool:
    """Is an object of ``ci`` what its ``__init__`` left, its attributes read and ``attrs`` stored plainly: no class
    of its MRO in the analysed code has a metaclass or other class keyword, defines ``__new__``, ``__setattr__`` or
    ``__getattribute__``, or names one of ``attrs`` in its body (a property, a descriptor) or as a method?"""
    m = ci.module
    special = ("__new__", "__setattr__", "__getattribute__")
    for c in mro(m, ci):
        if c.node.keywords or any(s in c.methods for s in special):
            return False
        if any(a in c.methods or a in body_attrs(m, c) for a in attrs):
            return False
    return True


def _nested_layer_list(v: SeqV) -> bool:
    """A list of lists (or tuples) of layers (equinox's ``self.self_blocks.append([Block(...) for _ in range(n)])``)."""
    return bool(v.items) and all(
        isinstance(x, SeqV) and x.kind in ("list", "tuple") and (not x.items or _layer_list(x)) for x in v.items
    )


def _dict_list(v: SeqV) -> bool:
    """A list of dicts (``self.states = [{} for _ in self.layers]``: a state per layer)."""
    return bool(v.items) and all(isinstance(x, DictV) and x.kind == "dict" for x in v.items)


def _tensor_list(v: SeqV) -> bool:
    """A list of arrays, or of tuples (or lists) of arrays and numbers or strings (``self.batches = batches``, a
    trainer's literal batches, a dataset's frame triplets, its ``(wave, label)`` pairs)."""
    return bool(v.items) and all(_array_tuple(x, 0) for x in v.items)


def _array_tuple(v: Value, depth: int) -> bool:
    if isinstance(v, TensorV):
        return True
    if depth > 0 and isinstance(v, (IntV, FloatV, BoolV, StrV, NoneV)):
        return True  # (a label beside the array: no code can change it in its tuple)
    kinds = ("tuple", "list") if depth == 0 else ("tuple",)
    return isinstance(v, SeqV) and v.kind in kinds and depth < 2 and all(_array_tuple(x, depth + 1) for x in v.items)


_ITEM_READERS = frozenset({"zip", "enumerate", "len", "reversed", "iter"})


def _items_read_only(m: "ModuleAnalysis", ci: ClassInfo) -> frozenset[str]:
    """The attributes of self that the methods of the class (its constructors aside, bases included) only read items
    of: ``self.x[i]`` not stored into or deleted, ``for s in self.x``, ``zip(self.x, ...)``, ``len(self.x)``. Such a
    list keeps its items in their places; each item (a dict) may change in place as a dict attribute may."""
    st = class_state(ci)
    if st.items_read_only is not None:
        return st.items_read_only
    seen: set[str] = set()
    bad: set[str] = set()
    for c in mro(m, ci):
        for name, fi in c.methods.items():
            if name not in _CTORS:
                ok, other = memo("self-item-reads", fi.node, _self_item_reads)
                seen |= ok
                bad |= other
    st.items_read_only = frozenset(seen - bad)
    return st.items_read_only


def items_only_read(m: "ModuleAnalysis", ci: ClassInfo, fi: FunctionInfo, listed: list[tuple[str, Value]]) -> bool:
    """Do ``fi`` and the methods it reaches through calls on ``self`` use the module lists ``listed`` names only by
    reading their items (a loop over them, ``zip``, ``len``, ``self.x[i]``)?"""
    names = {k for k, _ in listed}
    for callee in reached_methods(m, ci, fi):
        _, bad = memo("self-item-reads", callee.node, _self_item_reads)
        if names & bad:
            return False
    return True


def _self_item_reads(fn: cst.CSTNode) -> tuple[frozenset[str], frozenset[str]]:
    """(attributes of self only read item by item in ``fn``, attributes of self used any other way)."""
    ok: set[str] = set()
    bad: set[str] = set()
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None, cst.CSTNode | None]] = [
        (fn, None, None, None)
    ]
    while stack:
        n, parent, grand, above = stack.pop()
        if type(n) is cst.Attribute and type(n.value) is cst.Name and n.value.value == "self":
            a = n.attr.value
            if type(parent) is cst.Subscript and parent.value is n:
                stored = (
                    (type(grand) in (cst.AssignTarget, cst.AugAssign) and grand.target is parent)  # type: ignore
                    or type(grand) is cst.Del
                    # self.states[i].clear(), self.states[i].x = ... (not a read through the item's attributes:
                    # ``self.blocks[0].norm1.emb(t)``, ``self.blocks[0].attn.heads``)
                    or (type(grand) is cst.Attribute and type(above) is not cst.Attribute)
                    # self.states[i]["buf"] = ..., self.states[i][k].append(x), a deeper item (not a read of an
                    # item's part: ``self.records[r][start:end]``)
                    or (
                        type(grand) is cst.Subscript
                        and grand.value is parent
                        and type(above) in (cst.AssignTarget, cst.AugAssign, cst.Del, cst.Attribute, cst.Subscript)
                    )
                )
                (bad if stored else ok).add(a)
            elif (type(parent) is cst.For or type(parent) is cst.CompFor) and parent.iter is n:
                ok.add(a)  # (``for b in self.loader``, ``(step(b) for b in self.loader)``)
            elif (
                type(parent) is cst.Arg
                and type(grand) is cst.Call
                and type(grand.func) is cst.Name
                and grand.func.value in _ITEM_READERS
                and not parent.star
            ):
                ok.add(a)
            else:
                bad.add(a)
        elif type(n) in (cst.AssignTarget, cst.AugAssign, cst.Del):
            deep = _deep_item_chain(n.target)  # type: ignore[attr-defined]
            if deep is not None:
                bad.add(deep[0])  # self.blocks[0].attn.cache = c
        elif type(n) is cst.Call and type(n.func) is cst.Attribute:
            deep = _deep_item_chain(n.func)
            if deep is not None and (deep[1].startswith(_CHANGING_NAMES) or deep[1].endswith("_")):
                bad.add(deep[0])  # self.blocks[0].attn.reset_cache()
        for c in children(n):
            stack.append((c, n, parent, grand))
    return frozenset(ok), frozenset(bad)


# method names that change their object (besides in-place ones ending in "_")
_CHANGING_NAMES = (
    "reset",
    "init",
    "setup",
    "set_",
    "clear",
    "update",
    "append",
    "extend",
    "insert",
    "pop",
    "remove",
    "load",
    "register",
    "add_",
    "replace",
    "prune",
    "fuse",
    "train",
    "eval",
)


def _deep_item_chain(e: cst.BaseExpression) -> tuple[str, str] | None:
    """For ``self.x[i].a.b`` (two or more attributes past the item): ``x`` and the last attribute's name."""
    names: list[str] = []
    while type(e) is cst.Attribute:
        names.append(e.attr.value)
        e = e.value
    if len(names) < 2 or type(e) is not cst.Subscript:
        return None
    base = e.value
    if type(base) is cst.Attribute and type(base.value) is cst.Name and base.value.value == "self":
        return base.attr.value, names[0]
    return None


def _no_list_mutation(m: "ModuleAnalysis", ci: ClassInfo) -> bool:
    """An equinox module (its fields are set once, by the constructor) no method of which, the constructors aside,
    calls a list's mutating method on anything: its nested lists of layers stay as built."""
    if not any(b.startswith("equinox.") for b in foreign_bases(m, ci)):
        return False
    for c in mro(m, ci):
        for name, fi in c.methods.items():
            if name not in _CTORS and memo("list-mutation", fi.node, _mutates_a_list):
                return False
    return True


def _mutates_a_list(fn: cst.CSTNode) -> bool:
    """Does the method call a list's mutating method on anything but a list it made itself (``latents = []`` then
    ``latents.append(z)`` in Glow's ``__call__``: no list the object holds can be that one)?"""
    from .interpreter import _LIST_MUTATORS

    own = _own_lists(fn)
    stack: list[cst.CSTNode] = [fn]
    while stack:
        n = stack.pop()
        if type(n) is cst.Call and type(f := n.func) is cst.Attribute and f.attr.value in _LIST_MUTATORS:
            if not (type(f.value) is cst.Name and f.value.value in own):
                return True
        stack.extend(children(n))
    return False


def _own_lists(fn: cst.CSTNode) -> set[str]:
    """The names that ``fn`` (nested functions included) binds only to a new list it displays (``xs = []``,
    ``xs: list = [f(t) for t in ts]``), never otherwise (a parameter, a loop or ``with`` variable, a tuple target,
    any other value, ``global``)."""
    fresh: set[str] = set()
    other: set[str] = set()
    stack: list[cst.CSTNode] = [fn]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.Assign or tp is cst.AnnAssign:
            value = n.value  # type: ignore[attr-defined]
            targets = [t.target for t in n.targets] if tp is cst.Assign else [n.target]  # type: ignore[attr-defined]
            for t in targets:
                if type(t) is cst.Name and type(value) in (cst.List, cst.ListComp):
                    fresh.add(t.value)
                else:
                    other.update(x.value for x in _interpreter.target_leaves(t) if type(x) is cst.Name)
        elif tp is cst.For or tp is cst.CompFor:
            other.update(_interpreter._target_names(n.target))  # type: ignore[attr-defined]
        elif tp is cst.AsName or tp is cst.NamedExpr:
            t = n.name if tp is cst.AsName else n.target  # type: ignore[attr-defined]
            other.update(x.value for x in _interpreter.target_leaves(t) if type(x) is cst.Name)
        elif tp is cst.Param:
            other.add(n.name.value)  # type: ignore[attr-defined]
        elif tp is cst.Global or tp is cst.Nonlocal:
            other.update(x.name.value for x in n.names)  # type: ignore[attr-defined]
        stack.extend(children(n))
    return fresh - other


def symbolic_arguments(m: "ModuleAnalysis", fi: FunctionInfo) -> dict[str, Value]:
    """A class analysed on its own: a positive integer symbol per constructor parameter that may be a size."""
    passed = _passed_through(m, fi)
    return passed if passed is not None else _symbolic_parameters(m, fi)


def _symbolic_parameters(m: "ModuleAnalysis", fi: FunctionInfo) -> dict[str, Value]:
    """``symbolic_arguments`` of a constructor's own parameters."""
    out: dict[str, Value] = {}
    ints = int_only_parameters(m, fi)
    ps = fi.node.params
    plain = list(ps.posonly_params) + list(ps.params) + list(ps.kwonly_params)
    infos = {p.name: p for p in fi.params}
    for i, p in enumerate(plain):
        if i == 0 and not fi.is_static:
            continue
        name = p.name.value
        info = infos.get(name)
        if info is not None and info.ann is not None:
            out[name] = m.param_value(fi, info, m.shapes.new_memo())
            continue
        ann = dotted(p.annotation.annotation) if p.annotation is not None else None
        if p.annotation is not None and ann != "int":
            out[name] = _symbolic_config(m, fi, p.annotation.annotation)
            continue
        if p.default is not None and (type(p.default) is not cst.Integer or p.default.value in ("0", "1")):
            # a default of 0 or 1 is more often a count that may be zero or a switch than a size
            out[name] = UNKNOWN
            continue
        owner = fi.key.split(":")[-1].rsplit(".", 1)[0]
        default = f" (default {p.default.value})" if type(p.default) is cst.Integer else ""
        origin = Origin(fi.module, p, f"the constructor parameter {name} of {owner}{default}")
        out[name] = IntV(
            m.ctx.scoped(name, "ctor:" + fi.key.split(":")[-1].rsplit(".", 1)[0], origin),
            assumed=p.annotation is None and name not in ints,
        )
    return out


def _passed_through(m: "ModuleAnalysis", fi: FunctionInfo, depth: int = 0) -> dict[str, Value] | None:
    """``def __init__(self, *args, **kwargs): super().__init__(*args, **kwargs)`` analysed on its own: the base's
    constructor parameters (symbols, as its own analysis takes them) handed on by keyword, ``kwargs`` holding them
    (``self.dim = kwargs["dim"]``) and ``args`` empty. Only when the constructor takes nothing else, its ``*args``
    is read nowhere but in such spreads (or the base takes keywords only), and every parameter of the base's
    constructor may be passed by keyword; None otherwise."""
    params = fi.params[1:]
    kinds = sorted(p.kind for p in params)
    if fi.cls_key is None or fi.is_static or kinds not in (["star", "starstar"], ["starstar"]) or depth > 4:
        return None
    ci = m.find_class(fi.cls_key)
    base_init = None
    for base in mro(m, ci)[1:] if ci is not None else ():
        if "__init__" in base.methods:
            base_init = base.methods["__init__"]
            break
    if base_init is None or base_init.has_unknown_decorators:
        return None
    star = next((p.name for p in params if p.kind == "star"), None)
    starstar = next(p.name for p in params if p.kind == "starstar")
    from .module import ensure_signature

    base_init = ensure_signature(base_init)
    if any(p.kind == "posonly" for p in base_init.params[1:]):
        return None
    # (a base taking keywords only takes no positional argument: ``args`` is empty however else it is read)
    if star is not None and any(p.kind == "pos" for p in base_init.params[1:]) and not _only_spread(fi.node.body, star):
        return None
    if not _hands_all_on(fi.node.body, star, starstar):
        return None  # (``super().__init__(comp=False, **kwargs)``: the base gets more than the caller gave)
    given = _passed_through(base_init.module, base_init, depth + 1)
    if given is None:
        if any(p.kind in ("star", "starstar") for p in base_init.params[1:]):
            return None  # (a base that hands its own ``**kwargs`` on: what it takes is not its parameters alone)
        given = _symbolic_parameters(base_init.module, base_init)  # (its pass-through form was just ruled out)
    keywords = {p.name for p in base_init.params[1:] if p.kind in ("pos", "kwonly")}
    out: dict[str, Value] = {starstar: DictV(tuple((k, v) for k, v in given.items() if k in keywords))}
    if star is not None:
        out[star] = SeqV((), "tuple")
    return out


def _hands_all_on(body: cst.CSTNode, star: str | None, starstar: str) -> bool:
    """Does ``body`` call ``super().__init__`` (or ``super(C, self).__init__``) with exactly ``*star, **starstar``
    (``**starstar`` alone when there is no ``*args``), and no other arguments?"""
    want = ([("*", star)] if star is not None else []) + [("**", starstar)]
    todo: list[cst.CSTNode] = [body]
    while todo:
        n = todo.pop()
        if (
            type(n) is cst.Call
            and type(n.func) is cst.Attribute
            and n.func.attr.value == "__init__"
            and type(n.func.value) is cst.Call
            and type(n.func.value.func) is cst.Name
            and n.func.value.func.value == "super"
        ):
            got = [(a.star, a.value.value if type(a.value) is cst.Name else None) for a in n.args]
            return got == want
        todo.extend(n.children)
    return False


def _only_spread(body: cst.CSTNode, name: str) -> bool:
    """Is ``name`` read in ``body`` only as ``*name`` in a call's arguments?"""
    spread: set[int] = set()
    todo: list[cst.CSTNode] = [body]
    names: list[cst.Name] = []
    while todo:
        n = todo.pop()
        if type(n) is cst.Arg and n.star == "*" and type(n.value) is cst.Name and n.value.value == name:
            spread.add(id(n.value))
        elif type(n) is cst.Name and n.value == name:
            names.append(n)
        todo.extend(n.children)
    return all(id(n) in spread for n in names)


def annotated_class(m: "ModuleAnalysis", ann: cst.BaseExpression | None) -> ClassInfo | None:
    """The class of the analysed code a parameter annotation names (``cfg: ModelConfig``, ``teacher: models.Teacher``),
    read in module ``m``; None for anything else."""
    v: Value | None = None
    if type(ann) is cst.Name:
        v = m.globals.get(ann.value)
    elif type(ann) is cst.Attribute:
        qual = m.qualify(ann)
        v = m.project.lookup(qual) if qual is not None and m.project is not None else None
    if not isinstance(v, RefV) or not v.qualname.startswith("class:"):
        return None
    return m.find_class(v.qualname[6:])


def _symbolic_config(m: "ModuleAnalysis", fi: FunctionInfo, ann: cst.BaseExpression) -> Value:
    """A constructor parameter annotated with a config dataclass of the analysed code (``cfg: ModelConfig``), the
    class analysed on its own: an instance whose ``int`` fields are positive integer symbols (a default noted, not
    assumed; a default of 0 or 1, more often a count that may be zero or a switch, unknown), other fields unknown.
    Only a plain dataclass (every class of its MRO one, no ``__post_init__`` that may change or derive fields, not a
    module); anything else unknown."""
    ci = annotated_class(fi.module, ann)
    if ci is None or foreign_bases(m, ci) or find_method(m, ci, "__post_init__") is not None:
        return UNKNOWN
    classes = mro(m, ci)
    if not any(any(d.endswith("dataclass") for d in c.decorators) for c in classes):
        return _symbolic_plain_config(m, ci, classes)
    if not all(any(d.endswith("dataclass") for d in c.decorators) for c in classes):
        return UNKNOWN
    if any("__init__" in c.methods for c in classes):
        return UNKNOWN  # a constructor of its own
    attrs = tuple((name, _symbolic_field(m, ci, owner, name, counts=False)) for name, owner, _ in class_fields(m, ci))
    return ObjV(ci.key, attrs, True)


def _symbolic_plain_config(m: "ModuleAnalysis", ci: ClassInfo, classes: list[ClassInfo]) -> Value:
    """``config: GPTConfig`` where GPTConfig is a plain class whose ``__init__`` stores its arguments
    (``self.n_embd = n_embd``): the class analysed on its own, an instance holding each attribute that is a
    constructor parameter's own symbol (what holds for every value of it); an attribute derived in the constructor
    (``self.head_dim = n_embd // n_head``, which a caller may leave stale by setting n_embd afterwards), one of two
    storing the same parameter, one another method assigns, or one set through a property or ``__setattr__`` is
    unknown."""
    from .interpreter import OPTIONAL, _assigned_names

    init = find_method(m, ci, "__init__")
    if init is None or init.has_unknown_decorators or class_state(ci).building:
        return UNKNOWN
    ci.module.ensure_class_attrs(ci)
    attrs = class_state(ci).attrs
    if DYNAMIC_ATTRS in attrs:
        return UNKNOWN  # setattr(self, k, v) over names not known
    elsewhere: set[str] = set()
    for c in classes:
        for method in c.methods.values():
            if method is not init:
                elsewhere |= _assigned_names(method.node.body)
    # a parameter stored under two names (self.width = self.n_embd = n_embd) ties them only until a caller sets one
    times = Counter(v.size.symbol for v in attrs.values() if isinstance(v, IntV) and v.size.is_symbol)
    kept: list[tuple[str, Value]] = []
    for name, v in attrs.items():
        if name.endswith(OPTIONAL):
            continue
        plain = (
            isinstance(v, IntV)
            and v.size.is_symbol
            and times[v.size.symbol] == 1
            and f"self.{name}" not in elsewhere
            and not intercepts_attr(ci.module, ci, name)
        )
        kept.append((name, v if plain else UNKNOWN))
    return ObjV(ci.key, tuple(kept), True) if any(v is not UNKNOWN for _, v in kept) else UNKNOWN


# torch.nn constructors whose first two arguments must be ints (a tuple there raises a TypeError): in / out features,
# channels, embedding count and width
_INT_PAIR_LAYERS = frozenset(
    {
        "torch.nn.Linear",
        "torch.nn.Embedding",
        "torch.nn.Conv1d",
        "torch.nn.Conv2d",
        "torch.nn.Conv3d",
        "torch.nn.ConvTranspose1d",
        "torch.nn.ConvTranspose2d",
        "torch.nn.ConvTranspose3d",
        "torch.nn.GroupNorm",
    }
)
_INT_PAIR_KEYWORDS = frozenset(
    {"in_features", "out_features", "num_embeddings", "embedding_dim", "in_channels", "out_channels"}
)
_INT_ONLY_OPS = (cst.FloorDivide, cst.Subtract, cst.Modulo, cst.Add)  # a tuple with an int: TypeError


def int_only_parameters(m: "ModuleAnalysis", fi: FunctionInfo) -> set[str]:
    """Parameters of a constructor that must be ints for it to return: a name the body never rebinds, used where
    only an int works (``dim // 2``, ``dim + 1``, ``nn.Linear(dim, ...)``, ``nn.Embedding(n, dim)``, ``range(dim)``)
    in a statement every run of the body executes (top level, before any ``return``; not under a conditional
    expression, the right of ``and`` / ``or``, a lambda or a comprehension's body). An object of the class exists only
    if ``__init__`` returned, so such a parameter is an int, never a tuple of sizes (``torch.randn(dim)`` is 1-d)."""

    return set(memo("int-only-params", fi.node, lambda node: _int_only_walk(m, node)))


def _int_only_walk(m: "ModuleAnalysis", fn: cst.CSTNode) -> frozenset[str]:
    _assigned_names = _interpreter._assigned_names

    body = getattr(fn, "body", None)
    if type(body) is not cst.IndentedBlock:
        return frozenset()
    stack: list[cst.CSTNode] = [body]
    while stack:  # a nested function's ``nonlocal dim`` (or a ``global``) may rebind it: no proof at all
        node = stack.pop()
        if type(node) is cst.Nonlocal or type(node) is cst.Global:
            return frozenset()
        stack.extend(children(node))
    found: set[str] = set()

    def walk(e: cst.CSTNode) -> None:
        todo = [e]
        while todo:
            node = todo.pop()
            tp = type(node)
            if tp in _NOT_ALWAYS_RUN:
                if tp is cst.IfExp:
                    todo.append(node.test)  # type: ignore[attr-defined]
                continue
            if tp is cst.BooleanOperation:
                todo.append(node.left)  # type: ignore[attr-defined]
                continue
            if tp is cst.BinaryOperation and type(node.operator) in _INT_ONLY_OPS:  # type: ignore[attr-defined]
                left, right = node.left, node.right  # type: ignore[attr-defined]
                if type(left) is cst.Name and type(right) is cst.Integer:
                    found.add(left.value)
                elif type(right) is cst.Name and type(left) is cst.Integer:
                    found.add(right.value)
            elif tp is cst.Call:
                _int_only_call(m, node, found)  # type: ignore[arg-type]
            todo.extend(children(node))

    for stmt in body.body:
        if type(stmt) is not cst.SimpleStatementLine:
            if type(stmt) is cst.If:
                walk(stmt.test)  # the first test always runs
            if _may_return(stmt):
                break
            continue
        stop = False
        for small in stmt.body:
            tp = type(small)
            if tp is cst.Return or tp is cst.Raise:
                stop = True
                break
            if tp is cst.Assert:
                walk(small.test)  # type: ignore[attr-defined]
            elif tp in (cst.Assign, cst.AugAssign, cst.Expr, cst.AnnAssign) and small.value is not None:  # type: ignore[attr-defined]
                walk(small.value)  # type: ignore[attr-defined]
        if stop:
            break
    return frozenset(found - _assigned_names(body))


def _int_only_call(m: "ModuleAnalysis", call: cst.Call, found: set[str]) -> None:
    q = m.qualify(call.func) or ""
    if q in ("range", "builtins.range"):
        found.update(a.value.value for a in call.args if a.keyword is None and not a.star and type(a.value) is cst.Name)
    elif q in _INT_PAIR_LAYERS:
        positional = [a for a in call.args if a.keyword is None]
        if not any(a.star for a in positional):
            found.update(a.value.value for a in positional[:2] if type(a.value) is cst.Name)
        found.update(
            a.value.value
            for a in call.args
            if a.keyword is not None and a.keyword.value in _INT_PAIR_KEYWORDS and type(a.value) is cst.Name
        )


_NOT_ALWAYS_RUN = frozenset({cst.IfExp, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp})


def _may_return(stmt: cst.CSTNode) -> bool:
    """A compound statement that may leave the function (a ``return`` inside, nested scopes left out)."""

    stack = [stmt]
    while stack:
        node = stack.pop()
        tp = type(node)
        if tp is cst.Return:
            return True
        if tp is cst.FunctionDef or tp is cst.ClassDef or tp is cst.Lambda:
            continue
        stack.extend(children(node))
    return False


def _below_one(v: Value) -> bool:
    n = v.size.as_int() if isinstance(v, IntV) and not v.assumed else None
    return n is not None and n < 1


_NNX_VARIABLES = frozenset(
    {f"flax.nnx.{n}" for n in ("Param", "Variable", "BatchStat", "Cache", "Intermediate")}
    | {f"flax.nnx.variablelib.{n}" for n in ("Param", "Variable", "BatchStat", "Cache", "Intermediate")}
)


def nnx_variable_kind(m: "ModuleAnalysis", ci: ClassInfo) -> bool:
    """A class of the analysed code that only names a kind of flax.nnx Variable (``class PromptParam(nnx.Param):
    pass``: no method, attribute or decorator of its own in the analysed classes of its MRO)."""
    bases = foreign_bases(m, ci)
    if not bases or not bases <= _NNX_VARIABLES:
        return False
    return all(not c.methods and not c.decorators and not c.node.keywords and _empty_body(c) for c in mro(m, ci))


def _empty_body(ci: ClassInfo) -> bool:
    """Does the class body hold only ``pass``, ``...`` or a docstring?"""
    body = ci.node.body
    stmts = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for st in stmts:
        if not isinstance(st, cst.SimpleStatementLine):
            return False
        for small in st.body:
            if type(small) is cst.Pass:
                continue
            if type(small) is cst.Expr and type(small.value) in (
                cst.SimpleString,
                cst.Ellipsis,
                cst.ConcatenatedString,
            ):
                continue
            return False
    return True


def instantiate(
    m: "ModuleAnalysis",
    interp: "Interpreter | None",
    node: cst.Call | None,
    ci: ClassInfo,
    args: list[Value],
    kwargs: dict[str, Value],
    symbolic: bool = False,
) -> tuple[Value, list[Pending]]:
    """(the object, findings of its constructor) for ``ci(*args, **kwargs)``; a generic object when not followed
    (unknown when an argument is an int below 1: the generic object's sizes are positive symbols)."""
    generic: Value = ObjV(ci.key)
    if any(_below_one(a) for a in (*args, *kwargs.values())):
        generic = UNKNOWN
    st = class_state(ci)
    if st.building:
        return generic, []
    if not symbolic and find_method(m, ci, "__init__") is None and not kwargs and len(args) <= 1:
        if plain_module_list(m, ci):
            # ``class BlockChunk(nn.ModuleList)`` with no constructor of its own: ``BlockChunk(blocks)`` holds those
            # modules, as ``nn.ModuleList(blocks)`` does (iterated, indexed, sliced, ``len``: interpreter.held_modules)
            given = args[0] if args else SeqV((), "list")
            if isinstance(given, SeqV) and given.kind in ("list", "tuple", "modulelist"):
                return ObjV(ci.key, ((_interpreter.MODULE_LIST_ATTR, SeqV(given.items, "modulelist")),), True), []
            return generic, []
    if not symbolic and nnx_variable_kind(m, ci):
        # ``class PromptParam(nnx.Param): pass``: PromptParam(init) wraps its array as nnx.Param(init) does
        value = args[0] if args else kwargs.get("value")
        return (value if isinstance(value, TensorV) and value.framework == "jax" else UNKNOWN), []
    if unmodelled_base(m, ci) and (find_method(m, ci, "__init__") is None or torch_layer_base(m, ci) is None):
        # (a torch.nn layer subclass with a constructor of its own runs it: super().__init__ builds the layer)
        made = generic if symbolic else layer_subclass(m, node, ci, args, kwargs)
        return (generic if isinstance(made, ObjV) and not made.concrete else made), []
    depth = interp.frame.depth if interp is not None else 0
    from .module import MAX_INLINE_DEPTH, _sig

    if depth >= MAX_INLINE_DEPTH:
        return generic, []
    owned = not symbolic and _lists_owned(interp, node, args, kwargs)
    key: tuple[Any, ...] = (
        ("sym",)
        if symbolic
        else (tuple(_sig(a) for a in args), tuple(sorted((k, _sig(v)) for k, v in kwargs.items())), owned)
    )
    nested = interp is not None and interp.frame.building  # built by a constructor
    if not symbolic and nested and lightning_module(m, ci):
        key += ("built in a constructor",)  # its hparams are not the same there (save_hyperparameters)
    below_entry = interp is not None and interp.frame.depth > 0  # built by the code an entry point runs, not by it
    if not symbolic and below_entry and node is not None:
        # ``self.attn1 = Attention(dim)`` and ``self.attn2 = Attention(dim)``: one object each, whose layers' notes
        # name their own line (construction_chain); the same call run again (a comprehension) shares it
        key += (node,)
    if key in st.instances:
        return st.instances[key]
    init = find_method(m, ci, "__init__")
    if init is not None:
        from .module import ensure_signature

        init = ensure_signature(init)
    fields = class_fields(m, ci) if init is None and is_dataclass_like(m, ci) else None
    bound: dict[str, Value] | None = None
    self_vars: dict[str, Value] = {}
    # class Seq(nn.Sequential) with nn.Sequential's own constructor: Seq(conv, norm) is the chain of those modules
    seq_ctor = (
        init is None and fields is None and not symbolic and interp is not None and node is not None
    ) and plain_sequential(m, ci)
    if init is not None:
        if init.has_unknown_decorators:
            # ``@register_to_config`` on ``__init__``: a wrapper that runs it with the call's arguments, the
            # keywords its filter drops left out (constructor_wrapper); any other decorator: not followed
            flt = constructor_wrapper_filter(init)
            if flt is None:
                return generic, []
            kept = {k: keyword_kept(flt, k) for k in kwargs}
            if any(v is None for v in kept.values()):
                return generic, []
            kwargs = {k: v for k, v in kwargs.items() if kept[k]}
        bound = symbolic_arguments(m, init) if symbolic else bind_arguments(init.params, args, kwargs, skip_first=True)
        if bound is None:
            return generic, []
        for p in init.params[1:]:
            if p.name not in bound and p.kind in ("pos", "posonly", "kwonly") and p.default is not None:
                bound[p.name] = _default(m, init, p.default, p.name)
    elif fields is not None:
        # (a flax linen module's ``name=`` and ``parent=`` are the module system's; a plain dataclass's ``name`` is a
        # field like any other: ``ModelConfig(name="oraclefree")``)
        linen = any(b.startswith("flax.linen") for b in foreign_bases(m, ci))
        kw = {k: v for k, v in kwargs.items() if not (linen and k in ("name", "parent"))}
        # which fields the generated __init__ takes, and which of them by position: not a field(init=False), nor
        # the ``_: KW_ONLY`` sentinel; a field(kw_only=True) or one after the sentinel only by keyword
        params, positional, sentinels = init_fields(m, ci)
        if len(args) > len(positional) or any(k not in params for k in kw):
            return generic, []
        for name, owner, default in fields:
            if name not in params:
                if name not in sentinels:
                    # field(init=False): what __post_init__ (or the field's default) sets; never checked by
                    # jaxtyping, which checks the __init__ parameters
                    self_vars[f"self.{name}"] = UNKNOWN
                continue
            if symbolic:
                v: Value = _symbolic_field(m, ci, owner, name)
            elif name in positional and positional.index(name) < len(args):
                v = args[positional.index(name)]
            elif name in kw:
                v = kw[name]
            elif default is not None:
                factory = _field_factory(owner, default)
                if factory is None:
                    factory = _class_factory(m, interp, owner, default)
                v = factory if factory is not None else body_attrs(m, owner).get(name, UNKNOWN)
            else:
                return generic, []
            if default is not None and _has_converter(default):
                # eqx.field(converter=jnp.ravel), attrs' field(converter=...): the object holds what the converter
                # returns, and jaxtyping checks that (not the argument)
                v = UNKNOWN
            self_vars[f"self.{name}"] = v
        if not symbolic and node is not None and jaxtyped_class(ci):
            # in the generated __init__'s order (keyword-only fields last), as jaxtyping checks its parameters
            order = {name: i for i, name in enumerate(positional)}
            in_init = sorted((f for f in fields if f[0] in params), key=lambda f: order.get(f[0], len(order)))
            checked = _checked_fields(ci, in_init, self_vars)
            where = f"{ci.module.path}:{ci.module.line_of(ci.node)}"
            if checked and not m.shapes.check_fields(node, ci.node.name.value, where, checked):
                return generic, []  # the constructor raises: no object
    elif (args or kwargs) and not seq_ctor:
        return generic, []  # a constructor the analysis cannot see takes these arguments
    obj_self = ObjV(ci.key, (), True)
    ctx = ci.module.ctx
    st.building = True
    # a class on its own (symbolic) reports in itself; a constructor call collects its findings for the call site
    ctx.suppress_depth += not symbolic
    saved = ctx.inline_findings
    if not symbolic:
        ctx.inline_findings = []
    if seq_ctor:
        assert interp is not None and node is not None
        self_vars["self.<nn.Sequential layers>"] = (
            m.call_qualified(interp, node, "torch.nn.Sequential", list(args), dict(kwargs), False) or UNKNOWN
        )
    BUILT_FROM_CONSTRUCTOR.append(nested)
    # (a constructor call of an entry point is named by its own note, ``model was built at``: the object may be the
    # cached one of another entry point's identical call)
    CONSTRUCTING.append((interp.m if interp is not None and below_entry else None, node, ci.node.name.value))
    try:
        if init is not None:
            if symbolic:
                init.module.standalone_done.add(init.key)
            scope = init.module.run_function(init, bound, obj_self, depth=depth + 1, self_vars=self_vars, building=True)
            self_vars = dict(scope.vars)
        for extra in ("__post_init__", "setup"):
            fi = find_method(m, ci, extra)
            if fi is not None and (init is None or extra == "setup") and not fi.has_unknown_decorators:
                if symbolic:
                    fi.module.standalone_done.add(fi.key)
                scope = fi.module.run_function(fi, {}, obj_self, depth=depth + 1, self_vars=self_vars, building=True)
                self_vars = dict(scope.vars)
    finally:
        BUILT_FROM_CONSTRUCTOR.pop()
        CONSTRUCTING.pop()
        inner = ctx.inline_findings if not symbolic else []
        ctx.inline_findings = saved
        ctx.suppress_depth -= not symbolic
        st.building = False
    handed = [*args, *kwargs.values()]
    handed_lists: set[int] = set()
    private = _private_arguments(interp, node, args, kwargs)
    for a in handed:
        if id(a) not in private:
            _list_ids(a, handed_lists)
    obj = ObjV(
        ci.key,
        instance_attrs(m, ci, self_vars, owned, None if symbolic else frozenset(handed_lists)),
        True,
        () if symbolic else fresh_attrs(m, ci, self_vars, handed),
    )
    st.instances[key] = (obj, inner)
    return obj, inner


def _field_keyword(default: cst.BaseExpression | None, keyword: str) -> cst.BaseExpression | None:
    """The value of ``keyword`` in a field declaration ``x: T = field(..., keyword=value)`` (dataclasses', equinox's,
    flax's, attrs' ``field``), None when it is not one or has no such keyword."""
    if type(default) is not cst.Call or not (dotted(default.func) or "").endswith("field"):
        return None
    for a in default.args:
        if a.keyword is not None and a.keyword.value == keyword:
            return a.value
    return None


def _is_constant(node: cst.BaseExpression | None, value: str) -> bool:
    return type(node) is cst.Name and node.value == value


def _sentinels(fields: list[tuple[str, ClassInfo, cst.BaseExpression | None]]) -> set[str]:
    """The names of ``_: KW_ONLY`` pseudo-fields."""
    out: set[str] = set()
    for name, owner, _ in fields:
        ann = _field_annotation(owner, name)
        if ann is not None and (dotted(ann) or "").rsplit(".", 1)[-1] == "KW_ONLY":
            out.add(name)
    return out


def init_fields(m: "ModuleAnalysis", ci: ClassInfo) -> tuple[set[str], list[str], set[str]]:
    """What the generated ``__init__`` of ``ci`` takes of its fields (``_init_fields``), and its ``_: KW_ONLY``
    sentinels; once per class. The caller does not change the sets and list."""
    st = class_state(ci)
    if st.init_fields is None:
        fields = class_fields(m, ci)
        st.init_fields = (*_init_fields(fields), _sentinels(fields))
    return st.init_fields


def _init_fields(fields: list[tuple[str, ClassInfo, cst.BaseExpression | None]]) -> tuple[set[str], list[str]]:
    """The fields the generated ``__init__`` takes, and those of them it takes by position (in order)."""
    sentinels = _sentinels(fields)
    params: set[str] = set()
    positional: list[str] = []
    kw_only_from: set[str] = set()  # keys of the classes whose fields after a sentinel are keyword-only
    for name, owner, default in fields:
        if name in sentinels:
            kw_only_from.add(owner.key)
            continue
        if _is_constant(_field_keyword(default, "init"), "False"):
            continue
        params.add(name)
        if owner.key in kw_only_from or _is_constant(_field_keyword(default, "kw_only"), "True"):
            continue
        positional.append(name)
    return params, positional


def _has_converter(default: cst.BaseExpression) -> bool:
    """A field declared with a converter (``eqx.field(converter=jnp.asarray)``, attrs' ``field(converter=...)``)."""
    return type(default) is cst.Call and any(
        a.keyword is not None
        and a.keyword.value == "converter"
        and not (type(a.value) is cst.Name and a.value.value == "None")
        for a in default.args
    )


def _field_factory(owner: ClassInfo, default: cst.BaseExpression) -> Value | None:
    """``cache: dict = field(default_factory=dict)`` (or ``list``) of a dataclass: each instance gets a new empty
    dict (list), which the object holds until something fills it (a cache keyed by layer number). A factory
    ``lambda: {"sentiment": 3, "topic": 12}`` (``lambda: [64, 128]``) whose body is a display of literals only gives
    each instance a new such dict (list), as written."""
    if type(default) is not cst.Call or owner.module.qualify(default.func) != "dataclasses.field":
        return None
    for a in default.args:
        if a.keyword is None or a.keyword.value != "default_factory":
            continue
        if type(a.value) is cst.Lambda:
            return _literal_lambda(owner, a.value)
        if type(a.value) is not cst.Name:
            continue
        name = a.value.value
        if name in ("dict", "list") and name not in owner.module.globals:
            return DictV(()) if name == "dict" else SeqV((), "list")
    return None


def _factory_reader(owner: ClassInfo) -> "_interpreter.Interpreter":
    """An interpreter of ``owner``'s module, with an empty scope, that reads a ``default_factory``'s literals."""
    FrameInfo, Interpreter, Scope = _interpreter.FrameInfo, _interpreter.Interpreter, _interpreter.Scope
    return Interpreter(owner.module, FrameInfo(owner.key + ".<default_factory>"), Scope())


def _literal_lambda(owner: ClassInfo, fn: cst.Lambda) -> Value | None:
    """What ``lambda: <display of literals>`` returns: a new dict / list / tuple of numbers and strings (nested
    displays too) each time it runs; its items may be objects of classes of the analysed code built with such
    arguments (``lambda: [StageSpec(64, 2), StageSpec(128, 2, pool=None)]``). Anything else (a parameter, a name, a
    call of something else, a comprehension): None."""
    if not _no_params(fn) or not _literal_display(fn.body, classes_of=owner):
        return None
    interp = _factory_reader(owner)
    with owner.module.ctx.discarding():
        v = interp.eval(fn.body)
    return v if isinstance(v, (DictV, IntDictV, SeqV)) else None  # (``lambda: {1: 1, 3: 2}``: int keys)


_LITERAL_ATOMS = (cst.Integer, cst.Float, cst.SimpleString)


def _literal_display(node: cst.BaseExpression, top: bool = True, classes_of: ClassInfo | None = None) -> bool:
    """A dict, list or tuple display whose keys and items are numbers, strings (a negative number too), None, True,
    False or such displays; no spread (``**base``, ``*xs``). ``classes_of``: an item may also be a call of a class of
    that class's module (as its module's names give it) with such arguments."""
    tp = type(node)
    if not top and (
        tp in _LITERAL_ATOMS
        or (tp is cst.UnaryOperation and type(node.expression) in _LITERAL_ATOMS)  # type: ignore[attr-defined]
        or (tp is cst.Name and node.value in ("None", "True", "False"))  # type: ignore[attr-defined]
    ):
        return True
    if tp is cst.Dict:
        return all(
            type(e) is cst.DictElement
            and _literal_display(e.key, False)
            and _literal_display(e.value, False, classes_of)
            for e in node.elements  # type: ignore[attr-defined]
        )
    if tp is cst.List or tp is cst.Tuple:
        return all(type(e) is cst.Element and _literal_display(e.value, False, classes_of) for e in node.elements)  # type: ignore[attr-defined]
    if (
        tp is cst.Call
        and classes_of is not None
        and type(node.func) is cst.Name  # type: ignore[attr-defined]
        and node.func.value == "dict"  # type: ignore[attr-defined]
        and "dict" not in classes_of.module.globals
        and all(a.keyword is not None and not a.star for a in node.args)  # type: ignore[attr-defined]
    ):
        # ``lambda: dict(embed_dim=32, down_dims=(32, 64))``: a dict display written as a call
        return all(_literal_display(a.value, False, classes_of) for a in node.args)  # type: ignore[attr-defined]
    if tp is cst.Call and not top and classes_of is not None and type(node.func) is cst.Name:  # type: ignore[attr-defined]
        ref = classes_of.module.global_value(node.func.value)  # type: ignore[attr-defined]
        return (
            isinstance(ref, RefV)
            and ref.qualname.startswith("class:")
            and classes_of.module.find_class(ref.qualname[len("class:") :]) is not None
            and all(not a.star and _literal_display(a.value, False, classes_of) for a in node.args)  # type: ignore[attr-defined]
        )
    return False


def _class_factory(
    m: "ModuleAnalysis", interp: "Interpreter | None", owner: ClassInfo, default: cst.BaseExpression
) -> Value | None:
    """``vision: VisionConfig = field(default_factory=VisionConfig)``: each instance gets a new object of that class
    of the analysed code, built with no arguments (an object the analysis builds: ``instantiate``); ``lambda:
    TowerConfig(hidden=(64,), out_dim=48)``, a lambda that only calls such a class with literal arguments (numbers,
    strings, displays of them), builds it with those. Anything else (a function, a lambda reading names, a class it
    does not follow): None."""
    if type(default) is not cst.Call or owner.module.qualify(default.func) != "dataclasses.field":
        return None
    for a in default.args:
        if a.keyword is None or a.keyword.value != "default_factory":
            continue
        made, call = a.value, None
        if type(made) is cst.Lambda and _no_params(made) and type(made.body) is cst.Call:
            call = made.body
            made = call.func
        if type(made) is not cst.Name:
            return None
        ref = owner.module.global_value(made.value)
        if not (isinstance(ref, RefV) and ref.qualname.startswith("class:")):
            return None
        ci = owner.module.find_class(ref.qualname[len("class:") :])
        if ci is None:
            return None
        args: list[Value] = []
        kwargs: dict[str, Value] = {}
        if call is not None:
            if any(x.star or not _literal_display(x.value, False) for x in call.args):
                return None
            reader = _factory_reader(owner)
            with owner.module.ctx.discarding():
                for x in call.args:
                    if x.keyword is None:
                        args.append(reader.eval(x.value))
                    else:
                        kwargs[x.keyword.value] = reader.eval(x.value)
        obj, _ = instantiate(m, interp, None, ci, args, kwargs)
        return obj if isinstance(obj, ObjV) and obj.concrete else None
    return None


def _no_params(fn: cst.Lambda) -> bool:
    ps = fn.params
    return not (ps.params or ps.posonly_params or ps.kwonly_params or ps.star_kwarg is not None) and (
        ps.star_arg is cst.MaybeSentinel.DEFAULT
    )


def _symbolic_field(m: "ModuleAnalysis", ci: ClassInfo, owner: ClassInfo, name: str, counts: bool = True) -> Value:
    """An ``int`` field of a class analysed on its own (no default, or an int one): a positive integer symbol.
    ``counts`` False: a field defaulting to 0 or 1 (more often a count that may be zero, or a switch) is unknown."""
    for small in _field_statements(owner, name):
        if dotted(small.annotation.annotation) == "int" and (
            small.value is None
            or (type(small.value) is cst.Integer and (counts or small.value.value not in ("0", "1")))
        ):
            label = ci.key.split(":")[-1]
            return IntV(m.ctx.scoped(name, "ctor:" + label, f"(field {name} of {label})"))
    return UNKNOWN


# (exact types: libcst's node classes are ABCs, and these have no subclasses)
_DEFAULT_NODES = frozenset(
    {
        cst.Integer,
        cst.Float,
        cst.SimpleString,
        cst.Name,
        cst.Tuple,
        cst.UnaryOperation,
        cst.Attribute,
        cst.Call,
        cst.BinaryOperation,
        cst.Subscript,  # ``hidden=DEFAULTS["hidden"]``: an entry of a module-level table nothing changes
    }
)


def _default(m: "ModuleAnalysis", fi: FunctionInfo, node: cst.BaseExpression, name: str | None = None) -> Value:
    """A parameter default: literals, module-level names, their entries and arithmetic on them (``fetch_k_ratio = 9 /
    8``, ``hidden=DEFAULTS["hidden"]``), evaluated in the function's module. A list or dict
    display (``img_size=[224]``, ``measure_args={}``) is one shared object that every call without the argument sees:
    it still holds what it was written with when the function only reads the parameter (``img_size[0]``,
    ``f(**measure_args)``, ``measure_args.get(k)``; ``plain_read_params``), since nothing else can reach it."""
    FrameInfo, Interpreter, Scope = _interpreter.FrameInfo, _interpreter.Interpreter, _interpreter.Scope

    display = type(node) is cst.List or type(node) is cst.Dict
    if display and (name is None or name not in plain_read_params(fi)):
        return UNKNOWN
    if display or type(node) in _DEFAULT_NODES:
        interp = Interpreter(fi.module, FrameInfo(fi.key + ".<defaults>"), Scope())
        with fi.module.ctx.discarding():
            v = interp.eval(node)
        if (
            not display
            and isinstance(v, SeqV)
            and v.kind == "list"
            and not (
                # a module-level table of the function's own module that nothing changes (``cfg=SMALL_CFG``, read by
                # ``for k, mid, out in cfg``; ``stable_global`` also sees what the function does with the parameter)
                type(node) is cst.Name and node.value in fi.module.globals and fi.module.stable_global(node.value)
            )
        ):
            return UNKNOWN
        return v
    return UNKNOWN


def object_attr(m: "ModuleAnalysis", obj: ObjV, attr: str) -> Value:
    """``obj.attr`` for an object of the analysed code."""
    v = obj.attr(attr)
    if v is not None:
        if (v is UNKNOWN or (type(v) is DictV and not v.items and v.kind == "dict")) and obj.attr(
            registries.REGISTRY_MARK
        ) is not None:
            # (unknown as the constructor left it when a method other than the constructor stores into it: the
            # registering one, whose stores the contents account for)
            return _registry_dict(m, obj, attr) or v
        return v
    ci = m.find_class(obj.cls_key)
    if ci is None:
        return UNKNOWN
    dynamic = set_by_name(obj.attr(DYNAMIC_ATTRS), attr)
    if not obj.concrete:
        ci.module.ensure_class_attrs(ci)
        attrs = class_state(ci).attrs
        if attr in attrs:
            return attrs[attr]
        dynamic = dynamic or set_by_name(attrs.get(DYNAMIC_ATTRS), attr)
    if attr == "__class__" and obj.concrete and not dynamic:
        # ``self.__class__(**config)``: an object a followed constructor call built is of exactly that class (unless
        # a class of its MRO names ``__class__`` itself)

        if not any(attr in c.methods or attr in body_attrs(m, c) for c in mro(m, ci)):
            return RefV("class:" + obj.cls_key)
        return UNKNOWN
    if attr == "__dataclass_fields__" and not dynamic:
        # ``k in cls.__dataclass_fields__`` (a from_dict keeping the known keys): the fields by name, in order
        classes = mro(m, ci)
        if foreign_bases(m, ci) or not all("dataclasses.dataclass" in c.decorators for c in classes):
            return UNKNOWN
        if any(attr in c.methods or attr in body_attrs(m, c) or _pseudo_fields(c) for c in classes):
            return UNKNOWN  # set by the class itself, or with ClassVar/InitVar entries the fields leave out
        return DictV(tuple((name, UNKNOWN) for name, _, _ in class_fields(m, ci)))
    for c in mro(m, ci):
        if c.module.patched_class_attr(c.node.name.value, attr):
            return UNKNOWN  # Config.dim = args.dim, Net.forward = patched_forward: set outside the class body
        if attr in c.methods:
            fi = c.methods[attr]
            return FuncV(fi.key, bound_self=obj)
        ba = body_attrs(m, c)
        if attr in ba:
            if rewriting_metaclass(m, c):
                return UNKNOWN  # class Doubled(metaclass=Doubling): the metaclass may have changed the body's value
            if dynamic:
                return UNKNOWN  # the constructor set attributes by names not known: perhaps this one
            if not obj.concrete and attr in _annotated_fields(c):
                # ``dim: int = 256`` of a class whose constructor the analysis did not follow (pydantic, attrs, a
                # decorator it does not know): a field's default, not the value this object was built with
                return UNKNOWN
            if attr in _rebound_by_methods(m, ci):
                # ``anchors = torch.empty(0)`` in the class body, ``self.anchors = ...`` in forward: the body's value
                # is what the attribute holds only until that method runs
                return UNKNOWN
            held = ba[attr]
            if type(held) is RefV and not held.qualname.startswith("class:") and m.project is not None:
                found = m.project.lookup(held.qualname)  # ``rotate = rotate`` of a function imported from the tree
                held = found if type(found) is FuncV else held
            if type(held) is FuncV and held.bound_self is None:
                fn = m.find_function(held.key)
                if fn is not None and fn.cls_key is None:
                    # ``rotate = rotate`` in the class body: a plain function of the analysed code read through an
                    # instance is a method bound to it (``mesh.rotate(a, axis)`` passes mesh first)
                    return LayerV("partial", (("func", held), ("args", (obj,)), ("kwargs", ())), None)
            return held
    return UNKNOWN


def _annotated_fields(ci: ClassInfo) -> frozenset[str]:
    """Names a class body declares with an annotation (``dim: int = 256``): fields of dataclass-like classes."""
    out: set[str] = set()
    for stmt in ci.node.body.body if type(ci.node.body) is cst.IndentedBlock else ():
        if type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                if type(small) is cst.AnnAssign and type(small.target) is cst.Name:
                    out.add(small.target.value)
    return frozenset(out)


def super_method(
    m: "ModuleAnalysis", interp: "Interpreter", name: str, after: str | None = None
) -> FunctionInfo | None:
    """``super().name`` inside a method: the next definition after the method's class in the object's MRO
    (``after``: after that class instead, ``super(LoRALinear, self).name``)."""
    frame = interp.frame
    if frame.cls_key is None:
        return None
    self_v = frame.self_value
    start = self_v.cls_key if isinstance(self_v, ObjV) else frame.cls_key
    ci = m.find_class(start)
    if ci is None:
        return None
    return find_method(m, ci, name, after=after or frame.cls_key)


def super_class_named(m: "ModuleAnalysis", interp: "Interpreter", call: cst.Call) -> str | None:
    """The class after which ``super(Cls, self)`` looks in ``self``'s MRO: ``Cls``'s key (``""`` for ``super()``),
    or None when it is not known (another form, a class not of the analysed code)."""
    if not call.args:
        return ""
    if (
        len(call.args) != 2
        or any(a.star or a.keyword is not None for a in call.args)
        or type(call.args[1].value) is not cst.Name
        or call.args[1].value.value != "self"
    ):
        return None
    cls = interp.eval(call.args[0].value)
    if not isinstance(cls, RefV):
        return None
    key = cls.qualname[6:] if cls.qualname.startswith("class:") else None
    return key if key is not None and m.find_class(key) is not None else None


def dataclass_base_after(m: "ModuleAnalysis", interp: "Interpreter") -> ClassInfo | None:
    """The dataclass whose generated ``__init__`` ``super().__init__`` reaches from the method running on ``self``:
    no class after the method's class in the object's MRO defines ``__init__`` and one of them is a ``@dataclass``
    (the first such; its fields span its own bases)."""
    frame = interp.frame
    self_v = frame.self_value
    if frame.cls_key is None or not isinstance(self_v, ObjV):
        return None
    ci = m.find_class(self_v.cls_key)
    if ci is None:
        return None
    classes = mro(m, ci)
    keys = [c.key for c in classes]
    if frame.cls_key not in keys:
        return None
    for c in classes[keys.index(frame.cls_key) + 1 :]:
        if any(d.endswith("dataclass") for d in c.decorators):
            return c
    return None


_EXTERNAL_PREFIXES = ("torch.", "flax.", "equinox.", "jax.", "typing.", "abc.", "keras.", "tensorflow.", "collections.")


def is_instance_of(m: "ModuleAnalysis", obj: ObjV, cls_key: str) -> bool | None:
    """``isinstance(obj, C)`` for an object of a class of the analysed code and C one too: C is in the object's
    MRO; it is not when every base outside the analysed classes is a library's (no unresolved base can be C)."""
    ci = m.find_class(obj.cls_key)
    if ci is None:
        return None
    if any(c.key == cls_key for c in mro(m, ci)):
        return True
    for b in foreign_bases(m, ci):
        if b not in _PLAIN_BASES and not b.startswith(_EXTERNAL_PREFIXES):
            return None
    return False


SEQUENTIAL_BASES = frozenset({"torch.nn.Sequential", "torch.nn.modules.container.Sequential"})
MODULE_LIST_BASES = frozenset({"torch.nn.ModuleList", "torch.nn.modules.container.ModuleList"})


def plain_sequential(m: "ModuleAnalysis", ci: ClassInfo) -> bool:
    """A subclass of ``nn.Sequential`` whose instances are the layers its constructor hands to
    ``super().__init__(...)``: no method of the analysed classes sets an attribute of ``self`` (a module assigned
    to ``self.x`` joins the chain) or calls one of its methods (``self.append``, ``self.add_module``)."""
    return _plain_container(m, ci, SEQUENTIAL_BASES, frozenset({"add_module"}))


def plain_module_list(m: "ModuleAnalysis", ci: ClassInfo) -> bool:
    """A subclass of ``nn.ModuleList`` whose instances hold the modules its constructor hands to
    ``super().__init__(modules)`` (``class DenseBlock(nn.ModuleList)``, iterated by ``for layer in self``): as for
    ``plain_sequential``, no method changes ``self`` (``self.append``, ``self[i] = ...``, a module set on ``self.x``
    joins the iteration); ``__init__`` calls no method on ``self``."""
    return _plain_container(m, ci, MODULE_LIST_BASES, frozenset())


MODULE_DICT_BASES = frozenset({"torch.nn.ModuleDict", "torch.nn.modules.container.ModuleDict"})
_MODULE_DICT_READS = frozenset({"items", "values", "keys"})


def plain_module_dict(m: "ModuleAnalysis", ci: ClassInfo) -> bool:
    """A subclass of ``nn.ModuleDict`` whose instances hold the modules its constructor adds
    (``self.add_module(f"denselayer{i}", layer)``, torchvision's ``_DenseBlock``) or hands to
    ``super().__init__(modules)``, read by ``self.items()`` / ``values()`` / ``keys()``: as for ``plain_sequential``, no
    other method changes ``self`` or calls another of its methods."""
    return _plain_container(m, ci, MODULE_DICT_BASES, frozenset({"add_module"}), _MODULE_DICT_READS)


def _plain_container(
    m: "ModuleAnalysis",
    ci: ClassInfo,
    bases: frozenset[str],
    init_calls: frozenset[str],
    reads: frozenset[str] = frozenset(),
) -> bool:
    _assigned_names = _interpreter._assigned_names

    if not foreign_bases(m, ci) & bases:
        return False
    for c in mro(m, ci):
        for fi in c.methods.values():
            calls = _self_calls(fi.node) - reads
            names = _assigned_names(fi.node.body)
            assigned = "self" in names or any(n.startswith("self.") for n in names)
            if fi.name == "__init__":
                # (Sequential) add_module: its modules join the chain in order (sequential_added); an attribute
                # __init__ sets drops the chain unless it is plain data, never a module (Interpreter.assign)
                calls, assigned = calls - init_calls, "self" in names
            if calls or assigned:
                return False
    return True


def sequential_added(chain: Value, name: str, module: Value) -> Value:
    """An ``nn.Sequential`` after ``add_module(name, module)``: the module appended, or in place of the module of that
    name (torch names the constructor's modules "0", "1", ...)."""

    if not isinstance(chain, LayerV) or chain.kind != "Sequential":
        return UNKNOWN
    layers = chain.param("layers")
    if not isinstance(layers, tuple):
        return UNKNOWN
    names = chain.param("names")
    if not isinstance(names, tuple) or len(names) != len(layers):
        names = tuple(str(i) for i in range(len(layers)))
    if name in names:
        i = names.index(name)
        layers = layers[:i] + (module,) + layers[i + 1 :]
    else:
        layers, names = layers + (module,), names + (name,)
    rest = tuple((k, v) for k, v in chain.params if k not in ("layers", "names"))
    return LayerV("Sequential", (("layers", layers), ("names", names)) + rest, chain.line_node)


def is_super_call(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "super"


__all__ = ["instantiate", "object_attr", "super_method", "find_method", "mro", "NoneV"]


_ITERATING = frozenset({"enumerate", "zip", "reversed", "list", "tuple", "sorted", "iter"})


def _iteration_aliases(body: cst.CSTNode, params: set[str]) -> set[str]:
    """Names a body binds to the items of a parameter (``for m in modules``, ``for i, m in enumerate(model.modules())``,
    ``layer = layers[0]``): a change made through one (``m.n = k``) is a change of the argument's objects."""
    roots = set(params)

    def rooted(e: cst.BaseExpression, items: bool) -> bool:
        """``e`` reaches a parameter's objects: ``items`` (iterated by a ``for``) through attributes and method
        calls too (``for m in model.blocks``, ``for m in model.modules()``); assigned, only by indexing
        (``layer = layers[0]``: ``x = cfg.tensors`` is a value read, not the object)."""
        while True:
            if type(e) is cst.Call and items:
                f = e.func
                if type(f) is cst.Name and f.value in _ITERATING:
                    return any(rooted(a.value, items) for a in e.args if a.keyword is None)
                if type(f) is cst.Attribute:
                    e = f.value  # model.modules(), cfg.items()
                    continue
                return False
            if type(e) is cst.Subscript or (items and type(e) is cst.Attribute):
                e = e.value
                continue
            return type(e) is cst.Name and e.value in roots

    found: set[str] = set()
    for _ in range(3):  # aliases of aliases
        grew = False
        stack: list[cst.CSTNode] = [body]
        while stack:
            n = stack.pop()
            tp = type(n)
            if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda):
                continue
            pairs: list[tuple[cst.BaseExpression, cst.BaseExpression, bool]] = []
            if tp is cst.For:
                pairs.append((n.target, n.iter, True))  # type: ignore[attr-defined]
            elif tp is cst.Assign:
                pairs.extend((t.target, n.value, False) for t in n.targets)  # type: ignore[attr-defined]
            for target, value, items in pairs:
                if rooted(value, items):
                    names = {x for x in _interpreter._target_names(target) if "." not in x}
                    if names - roots:
                        roots |= names
                        found |= names
                        grew = True
            stack.extend(children(n))
        if not grew:
            break
    return found - params


# a dict's methods that only read it, called on an attribute of an argument (``config.task_num_labels.items()``)
_DICT_VIEWS = frozenset({"items", "keys", "values", "get"})


def keeps_arguments(fi: FunctionInfo) -> bool:
    """Does ``fi``'s body leave its arguments alone: no ``arg.x = ...`` / ``arg.x += ...`` / ``del arg.x``, no method
    called on an argument, an argument handed only to classes of the analysed code that keep theirs too, no
    ``setattr``, no nested class (nested functions are walked with the body)? ``self`` may be changed."""
    st = function_state(fi)
    if st.keeps_args is not None:
        return st.keeps_args
    st.keeps_args = True  # a cycle through constructors keeps what the rest of the walk decides

    params = {p.name for p in fi.params} - {"self"} - _framework_state_params(fi)

    def root(e: cst.BaseExpression) -> str | None:
        e = chain_root(e)
        return e.value if type(e) is cst.Name and e.value in params else None

    params |= _iteration_aliases(fi.node.body, params)
    # names bound to what an argument holds (``stages = cfg.stages``): read, unless a container method or an item
    # store changes that list or dict through them (``stages.append(64)`` changes the argument's)
    read = _read_aliases(fi.node.body, params)
    ok = True
    stack: list[cst.CSTNode] = [fi.node.body]
    # exact types (libcst's node classes are ABCs, slow under isinstance, and these have no subclasses). A nested
    # function or lambda is walked as the body is (``def tower(): ... range(cfg.head_convs)``: a read); one that
    # takes an argument under another name is a callee like any other (``_callee_keeps``: not kept)
    nested = (cst.ClassDef,)
    targets = (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del, cst.For, cst.CompFor, cst.AsName)
    while stack and ok:
        n = stack.pop()
        tp = type(n)
        if tp in nested:
            ok = False
        elif (tp is cst.FunctionDef or tp is cst.Lambda) and any(
            p.default is not None and root(p.default) is not None
            for p in (*n.params.params, *n.params.kwonly_params, *n.params.posonly_params)  # type: ignore[attr-defined]
        ):
            ok = False  # ``def inner(c=cfg)``: the argument under another name, which the walk does not follow
        elif tp in targets:
            # (each name a tuple or list target stores into: ``cfg.n_way, cfg.n_query = 3, 2``, ``for cfg.i in``,
            # ``with pair() as (cfg.a, cfg.b)``)
            target = n.name if tp is cst.AsName else n.target  # type: ignore[attr-defined]
            for t in _interpreter.target_leaves(target):
                ok = ok and not (type(t) in (cst.Attribute, cst.Subscript) and root(t) is not None)
                if ok and type(t) in (cst.Attribute, cst.Subscript) and read:
                    e = chain_root(t)
                    ok = not (type(e) is cst.Name and e.value in read)
        elif tp is cst.Call:
            call = cast(cst.Call, n)
            if (
                read
                and type(call.func) is cst.Attribute
                and call.func.attr.value in _CONTAINER_CHANGES
                and type(chain_root(call.func.value)) is cst.Name
                and chain_root(call.func.value).value in read  # type: ignore[attr-defined]
            ):
                ok = False
            elif (
                type(call.func) is cst.Attribute
                and root(call.func.value) is not None
                and not (call.func.attr.value in _DICT_VIEWS and type(call.func.value) is not cst.Name)
            ):
                # config.update(...): a method may change its object (config.task_labels.items() reads a dict)
                ok = False
            elif any(root(a.value) is not None and type(a.value) is not cst.Attribute for a in call.args):
                ok = _callee_keeps(fi, call.func)
        stack.extend(children(n))
    st.keeps_args = ok
    return ok


# framework classes whose instances hold nothing the analysis reads (a random-stream holder: ``rngs.params()``
# advances its counter)
_STATE_ANNOTATIONS = frozenset({"flax.nnx.Rngs", "flax.nnx.rnglib.Rngs", "flax.nnx.RngStream"})


def _framework_state_params(fi: FunctionInfo) -> set[str]:
    """The parameters of ``fi`` annotated with such a class (``*, rngs: nnx.Rngs``): a method called on one changes
    no argument the analysis follows."""
    out: set[str] = set()
    ps = fi.node.params
    for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params):
        ann = p.annotation.annotation if p.annotation is not None else None
        if ann is not None and type(ann) in (cst.Name, cst.Attribute) and fi.module.qualify(ann) in _STATE_ANNOTATIONS:
            out.add(p.name.value)
    return out


# list / dict / set methods that change their container (interpreter._CLOSURE_MUTATORS, and the reorderings)
_CONTAINER_CHANGES = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "add", "update", "discard", "setdefault", "popitem"}
    | {"__setitem__", "__delitem__", "sort", "reverse"}
)


def _read_aliases(body: cst.CSTNode, params: set[str]) -> set[str]:
    """Names the body binds (``x = ...``) to an attribute chain or item of a parameter (``stages = cfg.stages``)."""
    out: set[str] = set()
    stack: list[cst.CSTNode] = [body]
    while stack:
        n = stack.pop()
        if type(n) is cst.Assign and len(n.targets) == 1 and type(n.targets[0].target) is cst.Name:
            value = n.value
            if type(value) in (cst.Attribute, cst.Subscript):
                e = chain_root(value)
                if type(e) is cst.Name and e.value in params:
                    out.add(n.targets[0].target.value)
        stack.extend(children(n))
    return out


def read_only_params(fi: FunctionInfo) -> frozenset[str]:
    """The parameters of ``fi`` whose every use in its body is an argument of a call to a library that never mutates
    its arguments (einops, torch, numpy, jax, ...: ``def unpack_one(t, ps, pattern): return unpack(t, ps, pattern)[0]``)
    or of a pure builtin (``len(ps)``): a list handed to ``fi`` there is the same list after the call. Any other use
    (a method, an assignment, iteration, a subscript, a nested function, a user function) and the parameter is not."""
    st = function_state(fi)
    if st.reads_only is not None:
        return st.reads_only

    params = {p.name for p in fi.params if p.kind in ("pos", "posonly", "kwonly")} - {"self"}
    if not params:  # nothing to find: the body is not walked
        st.reads_only = frozenset()
        return st.reads_only
    st.reads_only = frozenset()  # (a method handing the list back to itself, directly or not: not read-only)
    bad: set[str] = set()
    ok_names: set[int] = set()  # id of Name nodes used as a direct argument of a pure call
    stack: list[cst.CSTNode] = [fi.node.body]
    m = fi.module
    # exact types (libcst's node classes are ABCs, slow under isinstance, and these have no subclasses)
    Call, Name, nested = cst.Call, cst.Name, (cst.FunctionDef, cst.ClassDef, cst.Lambda)
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp in nested:
            bad = set(params)
            break
        if tp is Call and _pure_callee(m, n.func):  # type: ignore[attr-defined]
            for a in n.args:  # type: ignore[attr-defined]
                if type(a.value) is Name and not a.star:
                    ok_names.add(id(a.value))
        elif tp is Call and fi.cls_key is not None:
            # self.bn_function(inputs) (torchvision's DenseLayer): a method of the class whose parameter is read-only
            ok_names.update(_read_only_method_args(m, fi, n))  # type: ignore[arg-type]
        elif tp is cst.Comparison and all(
            type(c.operator) in (cst.Is, cst.IsNot)
            for c in n.comparisons  # type: ignore[attr-defined]
        ):
            # ``val is not None`` (``def exists(val)``): an identity test reads nothing of the list
            for operand in (n.left, *(c.comparator for c in n.comparisons)):  # type: ignore[attr-defined]
                if type(operand) is Name:
                    ok_names.add(id(operand))
        elif tp is Name and n.value in params and id(n) not in ok_names:  # type: ignore[attr-defined]
            bad.add(n.value)  # type: ignore[attr-defined]
        if tp is Call and type(n.func) is Name:  # type: ignore[attr-defined]
            stack.extend(n.args)  # type: ignore[attr-defined]  # the called name itself is no use of a parameter's list
            continue
        stack.extend(children(n))
    st.reads_only = frozenset(params - bad)
    return st.reads_only


def _read_only_method_args(m: "ModuleAnalysis", fi: FunctionInfo, call: cst.Call) -> list[int]:
    """The Name arguments of ``self.method(...)`` in ``fi`` (a method) that ``method`` (of ``fi``'s class) only reads
    (``read_only_params``), as node ids."""
    func = call.func
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name or func.value.value != "self":
        return []
    ci = m.find_class(fi.cls_key) if fi.cls_key is not None else None
    callee = find_method(m, ci, func.attr.value) if ci is not None else None
    if callee is None or callee.is_static or callee.is_classmethod:
        return []
    from .module import ensure_signature

    callee = ensure_signature(callee)
    if callee.has_unknown_decorators:
        return []
    read_only = read_only_params(callee)
    if not read_only:
        return []
    positional = [p.name for p in callee.params if p.kind in ("pos", "posonly")][1:]
    out: list[int] = []
    for i, a in enumerate(call.args):
        if a.star:
            break
        name = a.keyword.value if a.keyword is not None else (positional[i] if i < len(positional) else None)
        if name in read_only and type(a.value) is cst.Name:
            out.append(id(a.value))
    return out


# what a callee may read of an item of a params dict it is handed (``params["wq"].T``) without changing it
_ITEM_READS = frozenset({"T", "shape", "ndim", "dtype"})


def dict_read_params(fi: FunctionInfo) -> frozenset[str]:
    """The parameters of ``item_read_params`` whose items are only used as values: ``x @ params["wq"]``,
    ``params["w"].T``, never the receiver of a method (``params["convs"].append(...)``, ``params["w"].unsqueeze_(0)``
    change what the dict holds). A dict of arrays handed to ``fi`` (a plain JAX / numpy model's parameters) holds
    the same entries after the call. Walked only when a dict is handed to ``fi``."""
    st = function_state(fi)
    if st.reads_dict is not None:
        return st.reads_dict

    params = item_read_params(fi)
    bad: set[str] = set()
    stack: list[cst.CSTNode] = [fi.node.body] if params else []
    while stack:
        n = stack.pop()
        if type(n) is cst.Attribute:
            inner = n.value
            while type(inner) is cst.Subscript:
                inner = inner.value
            if type(n.value) is cst.Subscript and type(inner) is cst.Name and inner.value in params:
                if n.attr.value not in _ITEM_READS:
                    bad.add(inner.value)
        stack.extend(children(n))
    st.reads_dict = frozenset(params - bad)
    return st.reads_dict


def item_read_params(fi: FunctionInfo) -> frozenset[str]:
    """The parameters of ``fi`` that its body only reads as a sequence of numbers or strings: handed to a library
    call that never mutates its arguments (as ``read_only_params``), iterated (``for l in levels``,
    ``[l == 2 for l in levels]``), indexed or sliced (``levels[:-1]``), compared or combined into a new value
    (``[1] + levels``, ``levels == x``), tested (``if levels:``), or rebound (``levels = list(levels)``). A list of
    such immutable items handed to ``fi`` is the same list after the call, and so is one handed on to a function or
    class of the analysed code whose parameter only reads it so (``_item_reading_arguments``). Any other use (a
    method, an item or augmented assignment, ``del``, the list stored or aliased, handed to other code, returned,
    captured by a nested function, ``locals()``) and the parameter is not."""
    st = function_state(fi)
    if st.reads_items is not None:
        return st.reads_items

    params = {p.name for p in fi.params if p.kind in ("pos", "posonly", "kwonly")} - {"self"}
    st.reads_items = frozenset()  # (a cycle of calls back to ``fi`` reads nothing)
    if not params:
        return st.reads_items

    def root(e: cst.BaseExpression) -> str | None:
        while type(e) in (cst.Attribute, cst.Subscript):
            e = e.value  # type: ignore[attr-defined]
        return e.value if type(e) is cst.Name and e.value in params else None

    bad: set[str] = set()
    ok: set[int] = set()  # id of Name nodes in a reading position
    m = fi.module
    stack: list[cst.CSTNode] = [fi.node.body]
    nested = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.Attribute:
            stack.append(n.value)  # type: ignore[attr-defined]  # (``self.mlp``: the attribute's name is no use of ``mlp``)
            continue
        if tp is cst.Arg:
            stack.append(n.value)  # type: ignore[attr-defined]  # (``f(mlp=...)``: nor is a keyword's)
            continue
        if tp in nested:
            bad = set(params)
            break
        if tp is cst.Call:
            call = cast(cst.Call, n)
            if type(call.func) is cst.Name and call.func.value in ("locals", "vars", "eval", "exec"):
                bad = set(params)
                break
            if _pure_callee(m, call.func):
                ok.update(id(a.value) for a in call.args if type(a.value) is cst.Name and not a.star)
            elif any(type(a.value) is cst.Name and a.value.value in params for a in call.args):
                # handed to a function or class of the analysed code whose parameter only reads it the same way
                # (``shared_mlp(in_ch, mlp)`` iterating ``mlp``)
                ok.update(_item_reading_arguments(fi, call, params))
        elif tp is cst.AssignTarget or tp is cst.AnnAssign or tp is cst.For or tp is cst.CompFor:
            target = n.target  # type: ignore[attr-defined]
            if type(target) is cst.Name:
                ok.add(id(target))  # rebinding the name leaves the list alone
            elif root(target) is not None:
                bad.add(root(target))  # type: ignore[arg-type]  # levels[0] = 1, for levels[0] in ...
            if tp is cst.For or tp is cst.CompFor:
                it = n.iter  # type: ignore[attr-defined]
                if type(it) is cst.Name:
                    ok.add(id(it))
        elif tp is cst.AugAssign or tp is cst.Del:
            target = n.target  # type: ignore[attr-defined]
            r = target.value if type(target) is cst.Name else root(target)
            if r in params:
                bad.add(r)  # levels += [3] extends the list in place
        elif tp is cst.NamedExpr or tp is cst.WithItem:
            target = n.target if tp is cst.NamedExpr else n.asname  # type: ignore[attr-defined]
            if target is not None and root(getattr(target, "name", target)) is not None:
                bad.add(root(getattr(target, "name", target)))  # type: ignore[arg-type]
        elif tp is cst.Subscript:
            if type(n.value) is cst.Name:  # type: ignore[attr-defined]
                ok.add(id(n.value))  # type: ignore[attr-defined]  # levels[i], levels[:-1] (stores: above)
        elif tp is cst.BinaryOperation:
            for side in (n.left, n.right):  # type: ignore[attr-defined]
                if type(side) is cst.Name:
                    ok.add(id(side))
        elif tp is cst.Comparison:
            sides = [n.left] + [c.comparator for c in n.comparisons]  # type: ignore[attr-defined]
            ok.update(id(side) for side in sides if type(side) is cst.Name)
        elif tp is cst.If or tp is cst.While or tp is cst.Assert:
            test = n.test  # type: ignore[attr-defined]
            if type(test) is cst.Name:
                ok.add(id(test))
        elif tp is cst.UnaryOperation and type(n.operator) is cst.Not:  # type: ignore[attr-defined]
            if type(n.expression) is cst.Name:  # type: ignore[attr-defined]
                ok.add(id(n.expression))  # type: ignore[attr-defined]
        elif tp is cst.Name and n.value in params and id(n) not in ok:  # type: ignore[attr-defined]
            bad.add(n.value)  # type: ignore[attr-defined]
        stack.extend(children(n))
    st.reads_items = frozenset(params - bad)
    return st.reads_items


def _item_reading_arguments(fi: FunctionInfo, call: cst.Call, params: set[str]) -> set[int]:
    """The ids of the bare parameter names among ``call``'s arguments that bind a parameter of the callee -- a plain
    function or a class (its ``__init__``) of the analysed code, named by a module-level name -- that only reads the
    list it gets (``item_read_params`` of the callee, a cycle reading nothing)."""
    m = fi.module
    func = call.func
    if type(func) is not cst.Name or any(p.name == func.value for p in fi.params):
        return set()
    v: Value | None = m.globals.get(func.value)
    if v is None and func.value in m.imports.names and m.project is not None:
        v = m.project.lookup(m.imports.names[func.value])
    callee: FunctionInfo | None = None
    skip = 0
    if isinstance(v, FuncV) and v.bound_self is None and not v.env:
        callee = m.find_function(v.key)
        if callee is not None and callee.cls_key is not None:
            callee = None
    elif isinstance(v, RefV) and v.qualname.startswith("class:"):
        ci = m.find_class(v.qualname[6:])
        inits = [c.methods["__init__"] for c in mro(m, ci) if "__init__" in c.methods] if ci is not None else []
        callee, skip = (inits[0], 1) if inits else (None, 0)
    if callee is None or callee.has_unknown_decorators or callee is fi:
        return set()
    reads = item_read_params(callee)
    positional = [p.name for p in callee.params if p.kind in ("pos", "posonly")][skip:]
    out: set[int] = set()
    for i, a in enumerate(call.args):
        if a.star:
            break
        if type(a.value) is not cst.Name or a.value.value not in params:
            continue
        name = a.keyword.value if a.keyword is not None else (positional[i] if i < len(positional) else None)
        if name in reads:
            out.add(id(a.value))
    return out


_DICT_READS = frozenset({"get", "keys", "values", "items", "copy"})
_COPYING = frozenset({"len", "list", "tuple", "dict", "sorted", "set", "frozenset"})


def stored_read_only_params(m: "ModuleAnalysis", ci: ClassInfo, init: FunctionInfo) -> frozenset[str]:
    """The parameters of the constructor ``init`` of ``ci`` that it stores on the object (``self.cfg = cfg``, once)
    and otherwise only reads (``cfg["dim"]``, ``cfg.get(k)``, ``k in cfg``, ``**cfg``), where no method of the class
    (its MRO's, the constructor included) uses that attribute but the same ways (``self.cfg["score_thresh"]``): a
    dict (or list) handed to the constructor keeps its entries, whatever the object's methods do afterwards
    (RetinaNet(CONFIG) then ``CONFIG["size_divisibility"]``). A class with ``__setattr__``, ``__getattr__`` or a
    property of that name is not followed."""
    st = class_state(ci)
    if st.stored_read_only is None:
        st.stored_read_only = frozenset()  # (a class handing the dict on to itself, directly or not: not kept)
        st.stored_read_only = _stored_read_only(m, ci, init)
    return st.stored_read_only


def _stored_read_only(m: "ModuleAnalysis", ci: ClassInfo, init: FunctionInfo) -> frozenset[str]:
    params = {p.name for p in init.params if p.kind in ("pos", "posonly", "kwonly")} - {"self"}
    if not params or type(init.node) is not cst.FunctionDef:
        return frozenset()
    stored: dict[str, str] = {}  # attribute -> parameter
    bad: set[str] = set()
    for st in init.node.body.body if type(init.node.body) is cst.IndentedBlock else ():
        for small in st.body if type(st) is cst.SimpleStatementLine else ():
            if (
                type(small) is cst.Assign
                and len(small.targets) == 1
                and type(t := small.targets[0].target) is cst.Attribute
                and type(t.value) is cst.Name
                and t.value.value == "self"
                and type(small.value) is cst.Name
                and small.value.value in params
            ):
                if t.attr.value in stored:
                    bad.add(t.attr.value)
                stored[t.attr.value] = small.value.value
    if not stored:
        return frozenset()
    # the parameter's own uses in the constructor: the store, and plain reads
    for name in set(stored.values()):
        is_name = _name_matcher(name)
        # (handed on to a class that keeps it the same way: ``self.front = Frontend(cfg)``)
        key = _through_aliases(init, lambda e, n=name, f=is_name: n if f(e) else None)  # type: ignore[misc]
        if _used_otherwise(init.node.body, key, 1, stores_ok=True):
            bad.update(a for a, p in stored.items() if p == name)
    classes = mro(m, ci)
    for c in classes:
        if any(x in c.methods for x in ("__setattr__", "__getattr__", "__getattribute__")):
            return frozenset()
        bad.update(attr for attr in stored if attr in c.methods)  # (a property or method of that name)
        for fi in c.methods.values():
            key_of = _self_attr_key(fi, frozenset(stored))
            if key_of is not None:
                bad |= _used_otherwise(fi.node, _through_aliases(fi, key_of), len(stored), stores_ok=fi is init)
    return frozenset(p for a, p in stored.items() if a not in bad and list(stored.values()).count(p) == 1)


def _named_callee(m: "ModuleAnalysis", name: str) -> Value | None:
    """What a module-level name of ``m`` calls: its global, a function or class imported from another module of the
    analysed code, or a class the module defines whose name its module level has not bound yet (a walk run while it
    runs)."""
    v = m.globals.get(name)
    if v is None and m.project is not None and name in m.imports.names:
        v = m.project.lookup(m.imports.names[name])
    if v is None and m.module_name and f"{m.module_name}:{name}" in m.classes and not m.rebound_global(name):
        v = RefV(f"class:{m.module_name}:{name}")
    return v


def _through_aliases(
    fi: FunctionInfo, key_of: "Callable[[cst.BaseExpression], str | None]"
) -> "Callable[[cst.BaseExpression], str | None]":
    """``key_of`` (``self.<attr>`` in ``fi``) extended to a name bound to it once (``cfg = self.cfg``, the binding
    itself no use), and blind to one handed as an argument to the constructor of a class of the analysed code that
    stores that parameter and only reads it (``ConvFrontend(cfg)``: ``stored_read_only_params``)."""
    m = fi.module
    aliases: dict[str, str] = {}
    bindings: dict[str, int] = {}
    skip: set[int] = set()
    stack: list[cst.CSTNode] = [fi.node.body]
    calls: list[cst.Call] = []
    while stack:
        n = stack.pop()
        if type(n) is cst.Assign and len(n.targets) == 1 and type(n.targets[0].target) is cst.Name:
            name = n.targets[0].target.value
            bindings[name] = bindings.get(name, 0) + 1
            attr = key_of(n.value)
            if attr is not None:
                aliases[name] = attr
                skip.update((id(n.targets[0].target), id(n.value)))
        elif type(n) is cst.Call:
            calls.append(n)
        stack.extend(children(n))
    aliases = {k: a for k, a in aliases.items() if bindings.get(k) == 1}
    if not aliases:
        skip = set()

    def key(e: cst.BaseExpression) -> str | None:
        if id(e) in skip:
            return None
        attr = key_of(e)
        if attr is None and type(e) is cst.Name and e.value in aliases:
            attr = aliases[e.value]
        return attr

    for call in calls:
        handed = [(i, a) for i, a in enumerate(call.args) if not a.star and key(a.value) is not None]
        if not handed or any(a.star for a in call.args) or type(call.func) is not cst.Name:
            continue
        v = _named_callee(m, call.func.value)
        ci = m.find_class(v.qualname[6:]) if isinstance(v, RefV) and v.qualname.startswith("class:") else None
        inits = [c.methods["__init__"] for c in mro(ci.module, ci) if "__init__" in c.methods] if ci is not None else []
        if ci is None or not inits or inits[0].has_unknown_decorators:
            continue
        kept = stored_read_only_params(ci.module, ci, inits[0])
        positional = [p.name for p in inits[0].params if p.kind in ("pos", "posonly")][1:]
        for i, a in handed:
            bound = a.keyword.value if a.keyword is not None else (positional[i] if i < len(positional) else None)
            if bound in kept:
                skip.add(id(a.value))  # (``ConvFrontend(cfg)``: kept there as here)
    return key


def _name_matcher(name: str) -> "Callable[[cst.BaseExpression], bool]":
    def is_name(e: cst.BaseExpression) -> bool:
        return type(e) is cst.Name and e.value == name

    return is_name


def _self_attr_key(fi: FunctionInfo, attrs: frozenset[str]) -> "Callable[[cst.BaseExpression], str | None] | None":
    """``self.<attr>`` in ``fi`` (its first parameter's name) for each of ``attrs``: the attribute; None for a static
    method."""
    ps = [*fi.node.params.posonly_params, *fi.node.params.params]
    if fi.is_static or not ps:
        return None
    me = ps[0].name.value

    def key_of(e: cst.BaseExpression) -> str | None:
        if type(e) is cst.Attribute and type(e.value) is cst.Name and e.value.value == me and e.attr.value in attrs:
            return e.attr.value
        return None

    return key_of


def _read_plainly(
    root: cst.CSTNode, matches: "Callable[[cst.BaseExpression], bool]", stores_ok: bool = False, runs_ok: bool = False
) -> bool:
    """Is every expression under ``root`` that ``matches`` used only as read: subscripted (not as a target, no
    method of the item called), a read-only dict method's receiver, an ``in`` operand, ``len(...)``, ``**`` unpacked,
    (``stores_ok``) the whole value of ``self.x = <it>``, or (``runs_ok``) iterated by a loop that only calls each
    item (``for layer in self.layers: x = layer(x)``)? Nested functions and lambdas: not plain."""
    return not _used_otherwise(root, lambda e: "" if matches(e) else None, 1, stores_ok, runs_ok)


def _used_otherwise(
    root: cst.CSTNode,
    key_of: "Callable[[cst.BaseExpression], str | None]",
    count: int,
    stores_ok: bool = False,
    runs_ok: bool = False,
) -> set[str]:
    """The keys (of the ``count`` that ``key_of`` tells expressions by) with an expression under ``root`` used other
    than as ``_read_plainly`` reads: one walk of ``root`` for them all (the attributes a constructor stores)."""
    bad: set[str] = set()
    stack: list[tuple[cst.CSTNode, tuple[cst.CSTNode, ...]]] = [(root, ())]
    while stack and len(bad) < count:
        n, up = stack.pop()
        if type(n) in (cst.FunctionDef, cst.Lambda, cst.ClassDef) and n is not root:
            bad.update(k for x in _expressions(n) if (k := key_of(x)) is not None)
            continue
        key = key_of(n) if isinstance(n, cst.BaseExpression) else None
        if key is not None:
            if key in bad:
                continue
            parent = up[0] if up else None
            grand = up[1] if len(up) > 1 else None
            if (type(parent) is cst.Attribute and parent.attr is n) or (
                type(parent) is cst.Arg and parent.keyword is n
            ):
                continue  # (``self.cfg``'s attribute name, ``f(cfg=...)``'s keyword: no use of the variable)
            if type(parent) is cst.Subscript and parent.value is n:
                if type(grand) in (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del):
                    bad.add(key)
                if type(grand) is cst.Attribute and grand.attr.value not in _DICT_READS | _ITEM_READS:
                    bad.add(key)  # (``cfg["dims"].append(d)``)
            elif type(parent) is cst.Attribute and parent.value is n:
                if not (parent.attr.value in _DICT_READS and type(grand) is cst.Call and grand.func is parent):
                    bad.add(key)
            elif type(parent) is cst.ComparisonTarget and type(parent.operator) in (cst.In, cst.NotIn):
                pass
            elif type(parent) is cst.Arg and parent.star == "**":
                pass
            elif (
                type(parent) is cst.Arg
                and type(grand) is cst.Call
                and type(grand.func) is cst.Name
                and grand.func.value == "len"
            ):
                pass
            elif runs_ok and type(parent) is cst.For and parent.iter is n and _items_only_called(parent):
                pass  # ``for layer in self.layers: x = layer(x)``: the list is read, each item only run
            elif stores_ok and type(parent) is cst.Assign and parent.value is n:
                pass
            elif stores_ok and type(parent) is cst.AssignTarget and type(grand) is cst.Assign:
                if not (type(grand.value) is cst.Name and len(grand.targets) == 1):
                    bad.add(key)  # (the store itself, ``self.cfg = cfg``, once)
            else:
                bad.add(key)
            continue
        stack.extend((c, (n, *up[:1])) for c in children(n))
    return bad


def _items_only_called(loop: cst.For) -> bool:
    """Is the loop's variable (one name) used in its body only as the callee of a call (``x = layer(x)``), never
    rebound, handed on, or read any other way (an attribute set, a method called)?"""
    if type(loop.target) is not cst.Name:
        return False
    name = loop.target.value
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None]] = [(loop.body, None)]
    if loop.orelse is not None:
        stack.append((loop.orelse, None))
    while stack:
        n, parent = stack.pop()
        if type(n) is cst.Name and n.value == name and not (type(parent) is cst.Call and parent.func is n):
            return False
        if type(n) in (cst.FunctionDef, cst.Lambda, cst.ClassDef):
            if any(type(x) is cst.Name and x.value == name for x in _expressions(n)):
                return False
            continue
        stack.extend((c, n) for c in children(n))
    return True


def _expressions(node: cst.CSTNode) -> "Iterator[cst.BaseExpression]":
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.BaseExpression):
            yield n
        stack.extend(children(n))


def plain_read_params(fi: FunctionInfo, records: bool = False) -> frozenset[str]:
    """The parameters of ``fi`` whose body only reads the value plainly: unpacked into a call (``Encoder(**cfg)``,
    ``f(*dims)``) or a literal (``{**cfg}``), subscripted (``cfg["dim"]``, never a target), read-only dict methods
    (``cfg.get("dim")``, ``cfg.items()``), ``in`` and other comparisons, iterated, copied by a builtin
    (``dict(cfg)``). A module-level dict handed to ``fi`` holds the same entries after the call
    (``ModuleAnalysis.stable_global``). Any other use (stored, aliased, rebound, returned, handed on, a mutating
    method, a nested function or lambda, ``locals()``) and the parameter is not."""
    st = function_state(fi)
    cached = st.reads_plain_records if records else st.reads_plain
    if cached is not None:
        return cached
    params = {p.name for p in fi.params if p.kind in ("pos", "posonly", "kwonly")} - {"self"}
    # (a cycle of callees handing the dict on reads as not kept until the walk below decides)
    if records:
        st.reads_plain_records = frozenset()
    else:
        st.reads_plain = frozenset()
    bad: set[str] = set()
    ok: set[int] = set()  # id of Name nodes in a reading position
    stores: set[int] = set()  # id of Subscript / Name nodes that are targets
    fresh: set[int] = set()  # id of AssignTargets binding a bare name to a new dict
    m = fi.module
    stack: list[cst.CSTNode] = [fi.node.body] if params else []
    nested = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
    local = _interpreter._assigned_names(fi.node.body) | params
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.FunctionDef and _plain_closure(cast(cst.FunctionDef, n), params):
            # ``def forward(x): return Model(config)(x)`` in a factory: the closure's reads of the parameter are
            # walked as the body's are (it names no parameter of the enclosing one as its own)
            stack.append(cast(cst.FunctionDef, n).body)
            continue
        if tp in nested:
            bad = set(params)
            break
        if tp is cst.Call:
            call = cast(cst.Call, n)
            f = call.func
            if type(f) is cst.Name and f.value in ("locals", "vars", "eval", "exec", "globals"):
                bad = set(params)
                break
            copying = (
                type(f) is cst.Name
                # (``zip(channels, pools)`` iterating over a list of records no code can change leaves it as it was)
                and (f.value in _COPYING or (records and f.value in _ITERATING))
                and f.value not in m.globals
                and f.value not in m.imports.names
            )
            # a function or class of this module the parameter is handed to, which keeps what it is handed
            # (``AudioSpectrogramTransformer(config)`` whose constructor reads ``{**DEFAULTS, **config}``)
            callee = _named_callee(m, f.value) if type(f) is cst.Name and f.value not in local else None
            # ``builder = EfficientNetBuilder(...)`` bound once, then ``builder(stem, arch_def)``: its class's
            # ``__call__``, which must only read the parameter as well
            method = (
                _local_instance_call(fi, f.value)
                if type(f) is cst.Name and f.value in local and f.value not in params
                else None
            )
            positional = 0
            for a in call.args:
                if a.star:
                    callee = None  # (after a ``*xs`` or ``**kw`` the parameter an argument binds is not known)
                if type(a.value) is cst.Name and (a.star or (copying and a.keyword is None)):
                    ok.add(id(a.value))
                elif type(a.value) is cst.Name and a.value.value in params and not a.star:
                    pos = positional if a.keyword is None else None
                    kw = a.keyword.value if a.keyword is not None else None
                    if (callee is not None and keeps_handed_dict(m, callee, pos, kw, records)) or (
                        method is not None and _handed_param_reads(method, 1, pos, kw, records)
                    ):
                        ok.add(id(a.value))
                if a.star:
                    method = None
                if a.keyword is None and not a.star:
                    positional += 1
                if a.keyword is not None:
                    ok.add(id(a.keyword))  # ``PatchEmbed(img_size=img_size[0])``: the keyword names no variable
            if type(f) is cst.Attribute and type(f.value) is cst.Name and f.attr.value in _DICT_READS:
                ok.add(id(f.value))
        elif tp is cst.StarredDictElement or tp is cst.StarredElement:
            if type(n.value) is cst.Name:  # type: ignore[attr-defined]
                ok.add(id(n.value))  # type: ignore[attr-defined]
        elif tp is cst.Assign and type(n.value) in (cst.Dict, cst.DictComp):  # type: ignore[attr-defined]
            # ``config_dict = {**config_dict, **kwargs}``: the name bound to a new dict (what it held was read)
            fresh.update(id(t) for t in n.targets if type(t.target) is cst.Name)  # type: ignore[attr-defined]
        elif tp is cst.AssignTarget and id(n) in fresh:
            stores.add(id(n.target))  # type: ignore[attr-defined]
            ok.add(id(n.target))  # type: ignore[attr-defined]
        elif tp is cst.AssignTarget or tp is cst.AnnAssign or tp is cst.AugAssign or tp is cst.Del:
            stores.add(id(n.target))  # type: ignore[attr-defined]
            bad.update(params & _target_roots(n.target))  # type: ignore[attr-defined]  # cfg["a"]["b"] = v
        elif tp is cst.For or tp is cst.CompFor:
            stores.add(id(n.target))  # type: ignore[attr-defined]
            bad.update(params & _target_roots(n.target))  # type: ignore[attr-defined]
            if type(n.iter) is cst.Name:  # type: ignore[attr-defined]
                ok.add(id(n.iter))  # type: ignore[attr-defined]
        elif tp is cst.Attribute and type(n.value) is cst.Subscript:  # type: ignore[attr-defined]
            # cfg["dims"].append(d): a method of an item changes what the dict holds (not when the items are
            # records no code can change: ``stages[-1].out_ch``)
            if n.attr.value not in _DICT_READS | _ITEM_READS and not records:  # type: ignore[attr-defined]
                bad.update(params & _target_roots(n.value))  # type: ignore[attr-defined]
        elif tp is cst.NamedExpr or tp is cst.WithItem:
            bad.update(params & {x.value for x in walk_names(n)})
        elif tp is cst.Subscript:
            if type(n.value) is cst.Name and id(n) not in stores:  # type: ignore[attr-defined]
                ok.add(id(n.value))  # type: ignore[attr-defined]
        elif tp is cst.Comparison:
            sides = [n.left] + [c.comparator for c in n.comparisons]  # type: ignore[attr-defined]
            ok.update(id(side) for side in sides if type(side) is cst.Name)
        elif tp is cst.Name and n.value in params and id(n) not in ok:  # type: ignore[attr-defined]
            bad.add(n.value)  # type: ignore[attr-defined]
        stack.extend(children(n))
    if bad and params:
        # ``cfg = dict(cfg)`` first: what the body does after it is done to the copy
        bad -= _copied_first(fi, params)
    got = frozenset(params - bad)
    if records:
        st.reads_plain_records = got
    else:
        st.reads_plain = got
    return got


def _plain_closure(fn: cst.FunctionDef, params: set[str]) -> bool:
    """A function nested in the body that neither takes nor binds a name of ``params``, nor declares one
    ``nonlocal`` / ``global``, and has no decorator: its reads of them are the enclosing function's."""
    if fn.decorators:
        return False
    ps = fn.params
    own = {p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)}
    own |= {p.name.value for p in (ps.star_arg, ps.star_kwarg) if type(p) is cst.Param}
    if own & params or _interpreter._assigned_names(fn.body) & params:
        return False
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if type(n) in (cst.Nonlocal, cst.Global):
            return False
        stack.extend(children(n))
    return True


def _copied_first(fi: FunctionInfo, params: set[str]) -> set[str]:
    """The parameters the body's first statement naming them rebinds to a copy of themselves (``cfg = dict(cfg)``,
    ``cfg = cfg.copy()``, ``cfg = copy.deepcopy(cfg)``, ``cfg = {**cfg}``): a top-level statement of the body, with
    no nested function, class or lambda anywhere in it (checked by the caller's walk)."""
    body = fi.node.body
    if type(body) is not cst.IndentedBlock:
        return set()
    out: set[str] = set()
    seen: set[str] = set()
    for stmt in body.body:
        names = {x.value for x in walk_names(stmt)} & params
        if type(stmt) is cst.SimpleStatementLine and len(stmt.body) == 1 and type(stmt.body[0]) is cst.Assign:
            assign = stmt.body[0]
            if len(assign.targets) == 1 and type(assign.targets[0].target) is cst.Name:
                name = assign.targets[0].target.value
                if name in params and name not in seen and _copy_of(assign.value, name):
                    deep = type(assign.value) is cst.Call and dotted(assign.value.func) in ("copy.deepcopy", "deepcopy")
                    if deep or not _items_changed(body, name):
                        out.add(name)
        seen |= names
    return out


def _items_changed(body: cst.CSTNode, name: str) -> bool:
    """Does ``body`` change an item of ``name`` in place (``name["dims"].append(d)``, ``name["a"]["b"] = v``)? A
    shallow copy shares its items with the original."""
    stack: list[cst.CSTNode] = [body]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.Attribute and type(n.value) is cst.Subscript:  # type: ignore[attr-defined]
            root = chain_root(n.value)  # type: ignore[attr-defined]
            if type(root) is cst.Name and root.value == name and n.attr.value not in _DICT_READS | _ITEM_READS:  # type: ignore[attr-defined]
                return True
        elif tp in (cst.AssignTarget, cst.AugAssign, cst.Del):
            t = n.target  # type: ignore[attr-defined]
            if type(t) in (cst.Subscript, cst.Attribute) and type(t.value) in (cst.Subscript, cst.Attribute):
                root = chain_root(t)
                if type(root) is cst.Name and root.value == name:
                    return True
        stack.extend(children(n))
    return False


def _copy_of(v: cst.BaseExpression, name: str) -> bool:
    """``dict(name)``, ``name.copy()``, ``copy.copy(name)`` / ``copy.deepcopy(name)``, ``{**name}`` (more entries
    allowed), each naming ``name`` once."""
    if type(v) is cst.Dict:
        return (
            any(
                type(e) is cst.StarredDictElement and type(e.value) is cst.Name and e.value.value == name
                for e in v.elements
            )
            and sum(1 for x in walk_names(v) if x.value == name) == 1
        )
    if type(v) is not cst.Call:
        return False
    f = v.func
    args = [a for a in v.args if not a.star and a.keyword is None]
    one = len(v.args) == 1 and len(args) == 1 and type(args[0].value) is cst.Name and args[0].value.value == name
    if type(f) is cst.Name and f.value == "dict":
        return one
    if type(f) is cst.Attribute and f.attr.value in ("copy", "deepcopy"):
        if type(f.value) is cst.Name and f.value.value == name:
            return not v.args and f.attr.value == "copy"
        return one and type(f.value) is cst.Name and f.value.value == "copy"
    return False


def _target_roots(target: cst.BaseExpression) -> set[str]:
    """The names at the root of the subscript / attribute chains of an assignment target (``cfg`` of
    ``cfg["a"]["b"]``, of ``cfg.x``); a bare name is its own root."""
    out: set[str] = set()
    todo: list[cst.BaseExpression] = [target]
    while todo:
        t = todo.pop()
        while type(t) in (cst.Subscript, cst.Attribute):
            t = t.value  # type: ignore[attr-defined]
        if type(t) is cst.Name:
            out.add(t.value)
        elif type(t) in (cst.Tuple, cst.List):
            todo.extend(e.value for e in t.elements)  # type: ignore[attr-defined]
        elif type(t) is cst.StarredElement:
            todo.append(t.value)
    return out


def walk_names(node: cst.CSTNode) -> Iterator[cst.Name]:
    stack = [node]
    while stack:
        n = stack.pop()
        if type(n) is cst.Name:
            yield n
        stack.extend(children(n))


def immutable_records(m: "ModuleAnalysis", v: Value | None) -> bool:
    """A list or tuple every item of which is a record no code can change: a tuple (a ``collections.namedtuple``
    too) of numbers, strings, None and such tuples, or a frozen dataclass / ``typing.NamedTuple`` instance holding
    only those. Reading or calling an item's attribute then changes nothing the list holds."""
    from .interpreter import _frozen_record, _plain_value

    if not isinstance(v, SeqV) or v.kind not in ("list", "tuple"):
        return False
    return all(
        _plain_value(x)
        or (isinstance(x, ObjV) and x.concrete and all(_plain_value(a) for _, a in x.attrs) and _frozen_record(m, x))
        for x in v.items
    )


def keeps_handed_dict(
    m: "ModuleAnalysis", v: Value | None, pos: int | None, kw: str | None, records: bool = False
) -> bool:
    """A dict handed to ``v`` (a function or class of the analysed code) at position ``pos`` or keyword ``kw`` holds
    the same entries after the call: the parameter it binds is one of ``plain_read_params`` (for a class, of the
    ``__init__`` its instances run; no metaclass, ``__new__`` or decorator runs other code with it). ``records``:
    the value handed is a list of ``immutable_records`` (what an item's attribute gives cannot change it)."""
    from .module import ensure_signature

    skip = 0
    if isinstance(v, FuncV):
        found = m.find_function(v.key)
        if found is None or (
            (found.cls_key is not None or v.bound_self is not None) and not (found.is_classmethod or found.is_static)
        ):
            return False
        fi = ensure_signature(found)
        if fi.is_classmethod or fi.is_static:
            # Config.from_dict(CFG): its one decorator is what makes it a classmethod (staticmethod)
            if fi.has_unknown_decorators or len(fi.node.decorators) != 1:
                return False
            return _handed_param_reads(fi, 1 if fi.is_classmethod else 0, pos, kw, records)
    elif isinstance(v, RefV) and v.qualname.startswith("class:"):
        ci = m.find_class(v.qualname[6:])
        if ci is None:
            return False
        chain = mro(m, ci)
        if any(c.node.keywords or c.decorators or "__new__" in c.methods for c in chain):
            return False
        inits = [c.methods["__init__"] for c in chain if "__init__" in c.methods]
        if not inits:
            # a dataclass-like class (a flax module's ``cfg: dict`` field): the field it binds is only read
            return not records and _field_kept(m, ci, pos, kw)
        fi, skip = ensure_signature(inits[0]), 1
        if not records and not fi.has_unknown_decorators and not fi.node.decorators:
            # ``KeywordSpotter(cfg)`` storing it as ``self.cfg``, which no method changes (stored_read_only_params)
            name = _bound_param(fi, skip, pos, kw)
            if name is not None and name in stored_read_only_params(ci.module, ci, fi):
                return True
    else:
        return False
    if fi.has_unknown_decorators or fi.node.decorators:
        return False
    return _handed_param_reads(fi, skip, pos, kw, records)


def _bound_param(fi: FunctionInfo, skip: int, pos: int | None, kw: str | None) -> str | None:
    """The parameter of ``fi`` an argument at position ``pos`` (the first ``skip`` parameters not counted) or keyword
    ``kw`` binds."""
    if kw is not None:
        return kw if any(p.name == kw and p.kind in ("pos", "kwonly") for p in fi.params) else None
    positional = [p.name for p in fi.params if p.kind in ("pos", "posonly")][skip:]
    return positional[pos] if pos is not None and pos < len(positional) else None


def _local_instance_call(fi: FunctionInfo, name: str) -> FunctionInfo | None:
    """What a call of the local ``name`` of ``fi`` runs when the body binds it once, to an instance of a class of the
    analysed code (``builder = Builder(cfg)``): the class's own ``__call__``, undecorated (None: any other binding, or
    no such method)."""
    m = fi.module
    made: list[cst.BaseExpression] = []
    for n in walk_all(fi.node.body):
        if type(n) is cst.Assign:
            for t in n.targets:
                if name in {x.value for x in walk_names(t.target)}:
                    made.append(n.value if type(t.target) is cst.Name and len(n.targets) == 1 else t.target)
        elif type(n) in (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor, cst.WithItem, cst.NamedExpr):
            target = getattr(n, "target", None) or getattr(n, "asname", None)
            if target is not None and name in {x.value for x in walk_names(target)}:
                return None
        elif type(n) in (cst.Global, cst.Nonlocal, cst.Import, cst.ImportFrom, cst.FunctionDef, cst.ClassDef):
            return None
    if len(made) != 1 or type(made[0]) is not cst.Call or type(made[0].func) is not cst.Name:
        return None
    cls = _named_callee(m, made[0].func.value)
    if not isinstance(cls, RefV) or not cls.qualname.startswith("class:"):
        return None
    ci = m.find_class(cls.qualname[6:])
    if ci is None or any(c.node.keywords or c.decorators for c in mro(m, ci)):
        return None
    call = find_method(m, ci, "__call__")
    if call is None or call.has_unknown_decorators or call.node.decorators:
        return None
    from .module import ensure_signature

    return ensure_signature(call)


def call_keeps_handed(m: "ModuleAnalysis", cls: Value | None, pos: int | None, kw: str | None, records: bool) -> bool:
    """A list or dict handed to an instance of ``cls`` (a class of the analysed code) when it is called
    (``SFTCollator(tok)(EXAMPLES)``) holds the same entries after the call: its ``__call__``, undecorated, only reads
    the parameter it binds."""
    from .module import ensure_signature

    ci = m.find_class(cls.qualname[6:]) if isinstance(cls, RefV) and cls.qualname.startswith("class:") else None
    found = find_method(m, ci, "__call__") if ci is not None else None
    if found is None:
        return False
    fi = ensure_signature(found)
    if fi.has_unknown_decorators or fi.node.decorators or fi.is_classmethod or fi.is_static:
        return False
    return _handed_param_reads(fi, 1, pos, kw, records)


def _handed_param_reads(fi: FunctionInfo, skip: int, pos: int | None, kw: str | None, records: bool) -> bool:
    name = _bound_param(fi, skip, pos, kw)
    return name is not None and name in plain_read_params(fi, records)


def _pure_callee(m: "ModuleAnalysis", func: cst.BaseExpression) -> bool:
    from .module import _PURE_BUILTINS, _PURE_PREFIXES

    if type(func) is cst.Name and func.value in _PURE_BUILTINS and func.value not in m.globals:
        return func.value not in m.imports.names
    if type(func) not in (cst.Name, cst.Attribute):
        return False
    q = m.qualify(func)
    return q is not None and q.startswith(_PURE_PREFIXES)


def _callee_keeps(fi: FunctionInfo, func: cst.BaseExpression) -> bool:
    """An argument handed on to ``func``: only a class of the analysed code whose constructors keep their arguments,
    a one-line helper that keeps its own (``default(x, d)`` calling ``exists(x)``), or a function or class of a
    framework or einops, which never change their arguments' attributes (``torch.ones(dim)``, ``nn.Linear(dim,
    dim_out)``; not ``torch.nn.utils``' parametrizations and norms, which replace a module's parameters)."""
    from .module import _KEEPING_BUILTINS, _PURE_PREFIXES

    m = fi.module
    if (
        type(func) is cst.Attribute
        and type(func.value) is cst.Name
        and fi.cls_key is not None
        and not fi.is_static
        and fi.params
        and func.value.value == fi.params[0].name
    ):
        # self.build_embeddings(cfg): the method of that name in the class's MRO, and every override a class of
        # the module deriving from it defines, keeps its arguments
        ci = m.find_class(fi.cls_key)
        if ci is None:
            return False
        name = func.attr.value
        found = [c.methods[name] for c in mro(m, ci) if name in c.methods][:1]
        found += [
            c.methods[name]
            for c in m.classes.values()
            if c is not ci and name in c.methods and any(b is ci for b in mro(m, c))
        ]
        return bool(found) and all(
            not f.is_static and not f.has_unknown_decorators and keeps_arguments(f) for f in found
        )
    if type(func) is cst.Attribute and is_super_call(func.value) and not func.value.args:  # type: ignore[attr-defined]
        # super().__init__(config) in a constructor: what the bases after the method's class do with it
        ci = m.find_class(fi.cls_key) if fi.cls_key is not None else None
        return ci is not None and super_keeps_arguments(m, ci, ci.key, func.attr.value)
    v = m.globals.get(func.value) if type(func) is cst.Name else None
    if (
        type(func) is cst.Name
        and func.value in _KEEPING_BUILTINS
        and v is None
        and func.value not in m.imports.names
        and all(p.name != func.value for p in fi.params)
        and func.value not in _interpreter._assigned_names(fi.node.body)
    ):
        return True  # min(configs.pred_len, chunk_size), int(ratio * dim): a builtin sets no attribute of its arguments
    qual = m.qualify(func) if v is None or isinstance(v, RefV) else None
    if qual is not None and qual.startswith(_PURE_PREFIXES) and not qual.startswith("torch.nn.utils."):
        return True
    if v is None and m.project is not None:
        # a class or helper imported from another module of the tree (``from .features import LogMel``)
        v = m.project.lookup(qual) if qual is not None else None
    return value_keeps_arguments(m, v)


# bases outside the analysed code whose methods set no attribute of an argument (torch.nn.Module.__init__ takes none;
# transformers' model base keeps the config, see ModuleAnalysis._keeps_arguments)
_KEEPING_FOREIGN_BASES = ("torch.", "flax.", "builtins.object", "object", "abc.ABC", "typing.Generic")


def super_keeps_arguments(m: "ModuleAnalysis", ci: ClassInfo, after: str, name: str) -> bool:
    """Does ``super().name(config)`` in a method of class ``after``, on an instance of ``ci``, leave its arguments
    alone: each ``name`` the classes after ``after`` in ``ci``'s MRO define keeps them (``keeps_arguments``, which
    follows their own ``super()`` calls), and the bases outside the analysed code are torch's (or transformers' model
    base)?"""
    classes = mro(m, ci)
    keys = [c.key for c in classes]
    if after not in keys:
        return False
    for c in classes[keys.index(after) + 1 :]:
        if name in c.methods and not keeps_arguments(c.methods[name]):
            return False
        for b in base_infos(m, c):
            if isinstance(b, str) and not b.startswith(_KEEPING_FOREIGN_BASES) and not _hf_model_base(b):
                return False
    return True


def _hf_model_base(name: str) -> bool:
    return (
        name.startswith("transformers.")
        and name.endswith("PreTrainedModel")
        and not name.rpartition(".")[2].startswith(("TF", "Flax"))
    )


def value_keeps_arguments(m: "ModuleAnalysis", v: Value | None) -> bool:
    """Does calling ``v`` leave its arguments alone: a one-line helper that keeps its own (``helper_keeps``), or a
    class of the analysed code whose every ``__init__`` along the MRO keeps them (``keeps_arguments``)?"""
    if isinstance(v, FuncV):
        return helper_keeps(m, v) or _only_reads_arguments(m, v) or _builder_keeps(m, v)
    if type(v) is ObjV:
        return _call_only_reads_arguments(m, v)
    if not isinstance(v, RefV) or not v.qualname.startswith("class:"):
        return False
    ci = m.find_class(v.qualname[6:])
    if ci is None:
        return False
    return all(keeps_arguments(c.methods["__init__"]) for c in mro(m, ci) if "__init__" in c.methods)


def _only_reads_arguments(m: "ModuleAnalysis", v: FuncV) -> bool:
    """A plain function of the analysed code (``def num_patches(cfg): ...``) that only reads attributes of its
    parameters: each is used as ``p.x`` (read, iterated or handed on), never itself handed on, rebound, returned, called
    a method of, or assigned an attribute or item (``_param_attribute_writes``): an object handed to it keeps its
    attributes."""
    from .module import _param_attribute_writes

    if v.bound_self is not None or v.env:
        return False
    fi = m.find_function(v.key)
    if fi is None or fi.cls_key is not None or fi.has_unknown_decorators or type(fi.node) is not cst.FunctionDef:
        return False
    writes = memo("attribute-writes", fi.node, _param_attribute_writes)
    only_uses = all(w is not None and all(a.startswith("use ") for a in w) for w in writes.values())
    return only_uses and keeps_arguments(fi)  # (and hands them on only to code that keeps them too)


def kept_field_args(m: "ModuleAnalysis", ci: ClassInfo, node: cst.Call) -> set[int]:
    """The arguments (by id) of ``node``, a call of the dataclass-like class ``ci`` (no ``__init__`` of its own
    along the analysed MRO), that bind a field no method of the class uses but by reading it (``_field_only_read``,
    ``setup`` and ``__post_init__`` included): a dict or list handed there keeps its entries. A class with
    ``__setattr__``, ``__getattr__`` or a method of the field's name is not followed (as
    ``stored_read_only_params``)."""
    out: set[int] = set()
    for i, a in enumerate(node.args):
        if a.star:
            break
        if _field_kept(m, ci, None if a.keyword is not None else i, a.keyword.value if a.keyword is not None else None):
            out.add(id(a))
    return out


def _field_kept(m: "ModuleAnalysis", ci: ClassInfo, pos: int | None, kw: str | None) -> bool:
    """Does the field of the dataclass-like class ``ci`` that a constructor argument at position ``pos`` (or keyword
    ``kw``) binds keep what it is given (``kept_field_args``)?"""
    classes = mro(m, ci)
    hooks = ("__setattr__", "__getattr__", "__getattribute__")
    if not is_dataclass_like(m, ci) or any(h in c.methods for c in classes for h in hooks):
        return False
    params, positional, _ = init_fields(m, ci)
    name = kw if kw is not None else (positional[pos] if pos is not None and pos < len(positional) else None)
    if name is None or name not in params or any(name in c.methods for c in classes):
        return False
    return all(_field_only_read(fi, name) for c in classes for fi in c.methods.values())


def _field_only_read(fi: FunctionInfo, field: str) -> bool:
    """Does ``fi`` only read what ``self.<field>`` holds (``_read_plainly``: items, read-only dict methods, ``in``,
    ``len``, ``**``), directly or through a name bound to it (``cfg = self.config; cfg["hidden"]``)?"""
    key_of = _self_attr_key(fi, frozenset((field,)))
    if key_of is None:
        return True  # (a static method has no object)

    def is_self(e: cst.BaseExpression) -> bool:
        return key_of(e) is not None

    skip: set[int] = set()  # the bindings ``cfg = self.config`` themselves
    aliases: set[str] = set()
    stack: list[cst.CSTNode] = [fi.node]
    while stack:
        n = stack.pop()
        if type(n) is cst.Assign and len(n.targets) == 1 and type(n.targets[0].target) is cst.Name and is_self(n.value):
            aliases.add(n.targets[0].target.value)
            skip.update((id(n.targets[0].target), id(n.value)))
        stack.extend(children(n))

    def held(e: cst.BaseExpression) -> bool:
        return id(e) not in skip and (is_self(e) or (type(e) is cst.Name and e.value in aliases))

    # (a list of layers the class runs one by one, a flax module's ``for layer in self.layers``, keeps its entries)
    return memo(f"field-read:{field}", fi.node, lambda fn: _read_plainly(fn, held, runs_ok=True))


def _builder_keeps(m: "ModuleAnalysis", v: FuncV) -> bool:
    """A plain function of the analysed code that builds from its arguments (``def conv_block(in_ch, out_ch,
    pool=None)`` making ``nn.Conv2d(in_ch, out_ch, 3)`` and ``nn.MaxPool2d(pool, pool)``): it keeps them as a
    constructor does (``keeps_arguments``: no attribute or item of one set, no method of one called, each handed only
    to code that keeps it), and no parameter leaves the function another way -- every use of one is an argument of a
    call, an attribute or item read, a comparison or an iteration, never returned, yielded or bound to another name."""
    if v.bound_self is not None or v.env:
        return False
    fi = m.find_function(v.key)
    if fi is None or fi.cls_key is not None or fi.has_unknown_decorators or type(fi.node) is not cst.FunctionDef:
        return False
    return not memo("params-escape", fi.node, _params_escape) and keeps_arguments(fi)


# expressions and statements whose operand is only read: a test, an operand of arithmetic, an index
_READING_CONTEXTS = (
    cst.If,
    cst.While,
    cst.Assert,
    cst.UnaryOperation,
    cst.BinaryOperation,
    cst.Index,
    cst.FormattedStringExpression,
)


def _params_escape(fn: cst.CSTNode) -> bool:
    """Is a parameter of ``fn`` used other than as a call's argument, the object of an attribute or item read, a side
    of a comparison or what a loop iterates (``_builder_keeps``)? A nested function (the ``forward`` a haiku
    builder hands to ``hk.transform``) is walked as the body when it binds none of those names and declares no
    ``nonlocal`` / ``global``: what it does with them, whenever it runs, is what the body would."""
    assert type(fn) is cst.FunctionDef
    names = {p.name.value for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)}
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None]] = [(fn.body, None)]
    while stack:
        node, parent = stack.pop()
        tp = type(node)
        if tp is cst.FunctionDef:
            inner = cast(cst.FunctionDef, node)
            own = {
                p.name.value for p in (*inner.params.posonly_params, *inner.params.params, *inner.params.kwonly_params)
            }
            for star in (inner.params.star_arg, inner.params.star_kwarg):
                if isinstance(star, cst.Param):
                    own.add(star.name.value)
            if inner.decorators or own & names or _interpreter._assigned_names(inner.body) & names:
                return True
            if any(type(x) is cst.Name and x.value in names for x in walk_all(inner.params)):
                return True  # ``def step(x, c=cfg)``: the argument kept as a default, where the closure hands it on
            if _holds_any(inner.body, (cst.Nonlocal, cst.Global, cst.ClassDef, cst.Lambda)):
                return True
            stack.append((inner.body, node))
            continue
        if tp in (cst.ClassDef, cst.Lambda):
            return True
        if tp is cst.Name and cast(cst.Name, node).value in names:
            up = type(parent)
            if up is cst.Arg and (cast(cst.Arg, parent).keyword is node or not cast(cst.Arg, parent).star):
                continue  # a call's argument (``nn.MaxPool2d(pool, pool)``), or a keyword's name
            if up in (cst.Attribute, cst.Subscript) and cast(cst.Attribute, parent).value is node:
                continue  # ``cfg.dim``, ``sizes[0]`` read (a store through one: keeps_arguments)
            if up in (cst.Comparison, cst.ComparisonTarget):
                continue
            if up in (cst.For, cst.CompFor) and cast(cst.For, parent).iter is node:
                continue
            if up in _READING_CONTEXTS or (up is cst.IfExp and cast(cst.IfExp, parent).test is node):
                continue  # ``if act:``, ``k // 2``, ``not flag``, ``x[k]``, ``assert p`` (``a or b`` is ``a`` itself)
            return True
        for child in children(node):
            stack.append((child, node))
    return False


def _registry_dict(m: "ModuleAnalysis", obj: ObjV, attr: str) -> Value | None:
    """The dict ``attr`` of a registry object bound to a global (registries.registry_object_contents), as the
    decorators that surely ran filled it (None: not that; UNKNOWN: entries not known)."""
    mark = obj.attr(registries.REGISTRY_MARK)
    ci = m.find_class(obj.cls_key)
    if (
        not isinstance(mark, StrV)
        or ci is None
        or attr not in memo("registry-dicts", ci.node, registries.registry_dicts)
    ):
        return None
    home_name, _, name = mark.value.partition("|")
    home = m.project.module(home_name) if m.project is not None else None
    entries = registries.registry_object_contents(home, name) if home is not None else None
    return DictV(tuple(entries.items())) if entries is not None else UNKNOWN


def _holds_any(tree: cst.CSTNode, kinds: tuple[type, ...]) -> bool:
    """Does ``tree`` hold a node of one of these types, at any depth?"""
    return any(type(n) in kinds for n in walk_all(tree))


def _call_only_reads_arguments(m: "ModuleAnalysis", obj: ObjV) -> bool:
    """Calling an object of the analysed code (a torch module: its ``forward``; else its ``__call__``) whose method
    only reads attributes of its arguments (``self.position_embedding(x)`` reading ``x.tensors`` and ``x.mask``, as
    ``_only_reads_arguments``): the objects handed to it keep their attributes."""
    from .module import _param_attribute_writes

    ci = m.find_class(obj.cls_key)
    if ci is None:
        return False
    fi = None
    for c in mro(m, ci):
        fi = c.methods.get("__call__") or c.methods.get("forward")
        if fi is not None:
            break
    if fi is None or fi.is_static or fi.has_unknown_decorators or type(fi.node) is not cst.FunctionDef:
        return False
    writes = memo("attribute-writes", fi.node, _param_attribute_writes)
    first = fi.params[0].name if fi.params else None
    only_uses = all(
        w is not None and all(a.startswith("use ") for a in w) for name, w in writes.items() if name != first
    )
    return only_uses and keeps_arguments(fi)


def helper_keeps(m: "ModuleAnalysis", v: FuncV) -> bool:
    """Is ``v`` a plain one-line function of the analysed code (``def exists(v): return v is not None``) that leaves
    its arguments alone? An object handed to it (``if exists(self.attn):``) stays known."""
    if v.bound_self is not None or v.env:
        return False
    fi = m.find_function(v.key)
    return fi is not None and fi.cls_key is None and one_line_helper(fi) and keeps_arguments(fi)


ONE_LINE_EXTRA_DEPTH = 2  # how far past MAX_INLINE_DEPTH one-line helpers (``exists``, ``default``) still run


def one_line_helper(fi: FunctionInfo) -> bool:
    """A function whose body is one ``return`` of an expression that calls nothing but names and framework functions
    or layers (``return nn.Conv2d(i, o, 1, stride=s)``), with no lambda or comprehension (``def exists(v): return v
    is not None``, ``def default(v, d): return v if exists(v) else d``, a @property computing a config's size): it
    runs past the inlining depth (by ONE_LINE_EXTRA_DEPTH), so a constructor five calls deep still knows
    ``dim_out = default(dim_out, dim)``. What it calls that is not such a helper stops at the depth as before."""
    st = function_state(fi)
    if st.one_line is None:
        st.one_line = _one_line(fi.node, fi.module)
    return st.one_line


LEAF_STATEMENTS = 6  # the most statements a leaf method (``leaf_method``) has


def _property_decorator(d: cst.Decorator) -> bool:
    e = d.decorator
    name = e.value if type(e) is cst.Name else e.attr.value if type(e) is cst.Attribute else None
    return name in ("property", "cached_property")


def leaf_method(fi: FunctionInfo) -> bool:
    """A method (or a free function: ``get_spatial_dim(fmt)`` of a pooling factory) whose body is a few straight statements (no loop, comprehension or nested function, no decorator; a
    lambda or a ``with`` is fine) that call no method or layer of ``self`` (``def forward(self, x): return F.normalize(x, dim=1) *
    self.g``): like a one-line helper it runs past the inlining depth (by ONE_LINE_EXTRA_DEPTH), so the norm at the
    bottom of a U-Net's block keeps its input's shape. What it calls stops at the depth as before, unless it is such
    a function too; a leaf calls nothing of its object, so the walk stays as short as its body."""
    st = function_state(fi)
    if st.leaf is None:
        st.leaf = _leaf(fi.node)
    return st.leaf


# what a leaf method holds none of (exact types: libcst's node classes are ABCs, and none of these has a subclass)
_NOT_IN_LEAF = frozenset(
    {
        cst.For,
        cst.While,
        cst.FunctionDef,
        cst.ClassDef,
        cst.ListComp,
        cst.SetComp,
        cst.DictComp,
        cst.GeneratorExp,
        cst.Yield,
        cst.Await,
        cst.Try,
    }
)


def _leaf(fn: cst.FunctionDef) -> bool:
    if fn.decorators or type(fn.body) is not cst.IndentedBlock or len(fn.body.body) > LEAF_STATEMENTS:
        return False

    stack: list[cst.CSTNode] = list(fn.body.body)
    while stack:
        n = stack.pop()
        if type(n) in _NOT_IN_LEAF:
            return False
        if type(n) is cst.Call:
            root = n.func
            while isinstance(root, (cst.Attribute, cst.Subscript, cst.Call)):
                root = root.value if not isinstance(root, cst.Call) else root.func
            if type(root) is cst.Name and root.value in ("self", "super"):
                return False  # self.norm(x), self.helper(x), super().forward(x): the object's own code
        stack.extend(children(n))
    return True


_NOT_IN_ONE_LINE = frozenset({cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.NamedExpr})


_LIBRARIES = ("torch.", "numpy.", "jax.", "flax.", "equinox.", "einops.")


def _library_call(func: cst.BaseExpression, module: Any) -> bool:
    """``nn.Conv2d`` / ``torch.zeros``: a framework's function or class, which runs none of the analysed code."""
    qual = module.qualify(func) if module is not None else None
    return qual is not None and qual.startswith(_LIBRARIES)


def _one_line(fn: cst.FunctionDef, module: Any = None) -> bool:
    # a @property (``head_dim = embed_dim // num_heads`` of a config) is read like an attribute, and is one too
    if not all(_property_decorator(d) for d in fn.decorators) or type(fn.body) is not cst.IndentedBlock:
        return False
    body = list(fn.body.body)
    if (
        len(body) == 2
        and type(body[0]) is cst.SimpleStatementLine
        and len(body[0].body) == 1
        and type(body[0].body[0]) is cst.Expr
        and type(body[0].body[0].value) in (cst.SimpleString, cst.ConcatenatedString)
    ):
        body = body[1:]  # a docstring
    if len(body) != 1 or type(body[0]) is not cst.SimpleStatementLine or len(body[0].body) != 1:
        return False
    ret = body[0].body[0]
    if type(ret) is not cst.Return or ret.value is None:
        return False

    # libcst's own ``children`` rebuilds every node it passes; the trivia it adds (whitespace, parentheses, commas)
    # holds none of the nodes looked for
    stack: list[cst.CSTNode] = [ret.value]
    while stack:
        n = stack.pop()
        tp = type(n)  # exact types: none of these has a subclass
        if tp in _NOT_IN_ONE_LINE:
            return False
        # a framework's layer or function may be called (a layer factory, ``return nn.Conv2d(i, o, 1)``, is one)
        if tp is cst.Call and type(n.func) is not cst.Name and not _library_call(n.func, module):  # type: ignore
            return False
        stack.extend(children(n))
    return True


def sets_own_attrs(m: "ModuleAnalysis", fi: FunctionInfo, obj: ObjV, depth: int = 3) -> bool:
    """Is ``fi`` a method of a helper object (a class of the analysed code with no base outside it) that assigns
    attributes of ``self``, and whose body is plain enough to hand them back: no ``return`` before its last
    statement, no ``yield``, no nested function or class? A method that calls a submodule of ``self``
    (``self.conv(x)``, ``self.conv.step(x)``) whose own method does (a causal convolution keeping its last frames)
    counts too, ``depth`` levels down: the submodule's state is the object's."""
    _assigned_names = _interpreter._assigned_names

    ci = m.find_class(obj.cls_key)
    if ci is None or class_state(ci).building:
        return False
    if foreign_bases(m, ci) - _PLAIN_BASES and (torch_layer_base(m, ci) is None or torch_layer_of(m, obj) is None):
        return False  # (a torch.nn layer subclass whose layer torch's forward runs: its own attributes are its own)
    body = fi.node.body
    if type(body) is not cst.IndentedBlock:
        return False
    if (
        not any(k.startswith("self.") for k in _assigned_names(body))
        and not memo("sets-through-self", body, _sets_through_self)
        and not any(_changeable(obj.attr(a)) for a in memo("self-attrs-handed", body, _self_attrs_handed))
        and not (depth > 0 and _calls_stateful_submodule(m, body, obj, depth - 1))
    ):
        return False

    return memo("plain-method-body", body, _plain_method_body)


def _calls_stateful_submodule(m: "ModuleAnalysis", body: cst.CSTNode, obj: ObjV, depth: int) -> bool:
    """Does the block call a submodule ``self`` holds (``self.conv(x)``, ``self.conv.step(x)``) whose method run
    there sets attributes of its own (``sets_own_attrs``)?"""
    for attr, method in memo("self-submodule-calls", body, _self_submodule_calls):
        if attr.endswith("[]"):  # each module of a list the block loops over (``for blk in self.blocks: blk(x)``)
            held = obj.attr(attr[:-2])
            subs = list(held.items) if isinstance(held, SeqV) else [held.elem] if isinstance(held, ManyV) else []
        else:
            subs = [obj.attr(attr)]
        for sub in subs:
            if not isinstance(sub, ObjV) or not sub.concrete:
                continue
            ci = m.find_class(sub.cls_key)
            if ci is None:
                continue
            if method is None:
                callee = find_method(m, ci, "__call__") or find_method(m, ci, "forward")
            else:
                callee = find_method(m, ci, method)
            if callee is not None and sets_own_attrs(callee.module, callee, sub, depth):
                return True
    return False


def _self_submodule_calls(body: cst.CSTNode) -> frozenset[tuple[str, str | None]]:
    """(attribute, method or None for a call of the attribute itself) of each ``self.x(...)`` / ``self.x.m(...)``
    the block makes, outside nested functions and classes; ``x[]`` for a call of the variable of a loop over
    ``self.x`` (``for blk in self.blocks: x = blk(x)``, ``blk.step(x)``)."""
    out: set[tuple[str, str | None]] = set()
    loops: dict[str, str] = {}
    stack: list[cst.CSTNode] = [body]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.FunctionDef or tp is cst.ClassDef or tp is cst.Lambda:
            continue
        if tp is cst.For:
            it, target = n.iter, n.target  # type: ignore[attr-defined]
            if (
                type(target) is cst.Name
                and type(it) is cst.Attribute
                and type(it.value) is cst.Name
                and it.value.value == "self"
            ):
                loops[target.value] = it.attr.value + "[]"
        if tp is cst.Call:
            f = n.func  # type: ignore[attr-defined]
            if type(f) is cst.Name and f.value in loops:
                out.add((loops[f.value], None))
            elif type(f) is cst.Attribute and type(f.value) is cst.Name and f.value.value in loops:
                out.add((loops[f.value.value], f.attr.value))
            elif type(f) is cst.Attribute and type(f.value) is cst.Name and f.value.value == "self":
                out.add((f.attr.value, None))
            elif (
                type(f) is cst.Attribute
                and type(f.value) is cst.Attribute
                and type(f.value.value) is cst.Name
                and f.value.value.value == "self"
            ):
                out.add((f.value.attr.value, f.attr.value))
        stack.extend(children(n))
    return frozenset(out)


def _changeable(v: Value | None) -> bool:
    return (isinstance(v, DictV) and v.kind == "dict") or (isinstance(v, SeqV) and v.kind == "list")


def _self_attrs_handed(body: cst.CSTNode) -> frozenset[str]:
    """The attributes of ``self`` the block hands to a call as a whole argument, or an item of (``conv(x,
    self.state)``, ``conv(x, self.states[i])``): a dict or list one holds may come back changed
    (module._call_carrying)."""
    out: set[str] = set()
    stack: list[cst.CSTNode] = [body]
    while stack:
        n = stack.pop()
        if type(n) is cst.Call:
            for a in n.args:
                e = a.value
                if type(e) is cst.Subscript:
                    e = e.value  # (``conv(x, self.states[i])``: an item of a list of self)
                if type(e) is cst.Attribute and type(e.value) is cst.Name and e.value.value == "self" and not a.star:
                    out.add(e.attr.value)
        stack.extend(children(n))
    return frozenset(out)


def _sets_through_self(body: cst.CSTNode) -> bool:
    """Does the block assign an attribute of an object ``self`` holds (``self.attn.cache = c``, or through the
    variable of a loop over an attribute of ``self``: ``for blk in self.blocks: blk.attn.cache = c``), or call a
    method through such a loop variable (``blk.attn.setup_cache(b, n)``, which may)?"""
    loop_vars: set[str] = set()
    stores: list[cst.Attribute] = []
    called: list[cst.Attribute] = []
    stack: list[cst.CSTNode] = [body]
    while stack:
        n = stack.pop()
        tp = type(n)
        if tp is cst.For:
            it = n.iter  # type: ignore[attr-defined]
            if (
                type(n.target) is cst.Name  # type: ignore[attr-defined]
                and type(it) is cst.Attribute
                and type(it.value) is cst.Name
                and it.value.value == "self"
            ):
                loop_vars.add(n.target.value)  # type: ignore[attr-defined]
        elif tp is cst.AssignTarget and type(n.target) is cst.Attribute:  # type: ignore[attr-defined]
            stores.append(n.target)  # type: ignore[attr-defined]
        elif tp is cst.Call and type(n.func) is cst.Attribute:  # type: ignore[attr-defined]
            called.append(n.func)  # type: ignore[attr-defined]
        stack.extend(children(n))
    for f in called:
        r: cst.BaseExpression = f.value
        while type(r) is cst.Attribute:
            r = r.value
        if type(r) is cst.Name and r.value in loop_vars:
            return True
    for t in stores:
        depth = 0
        e: cst.BaseExpression = t.value
        while type(e) is cst.Attribute:
            e = e.value
            depth += 1
        if type(e) is cst.Name and (e.value == "self" and depth >= 1 or e.value in loop_vars):
            return True
    return False


def _plain_method_body(body: cst.CSTNode) -> bool:
    """No ``yield``, no nested function, class or lambda (``sets_own_attrs``; depends on the block only). A
    ``return`` anywhere is fine: call_on_local_object joins what self's attributes hold at every exit."""

    assert type(body) is cst.IndentedBlock
    stack: list[cst.CSTNode] = list(body.body)
    while stack:
        n = stack.pop()
        tp = type(n)  # (exact types: libcst's node classes are ABCs, and these have no subclasses)
        if (tp is cst.FunctionDef or tp is cst.Lambda) and _reads_self_only(n):
            continue  # (``z = lambda: torch.zeros(b, self.cfg.hidden)``: a helper that only reads)
        if tp is cst.FunctionDef or tp is cst.ClassDef or tp is cst.Lambda or tp is cst.Yield:
            return False
        stack.extend(children(n))
    return True


def _reads_self_only(fn: cst.CSTNode) -> bool:
    """A nested function or lambda that uses ``self`` only to read attributes (never a method of it, or of what it
    holds, called; never ``self`` itself handed on), stores nothing through it, has no ``yield``, ``nonlocal``,
    ``global`` or nested def, class or lambda of its own: running it changes nothing the method's object holds."""
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None]] = [(c, fn) for c in children(fn)]
    while stack:
        n, parent = stack.pop()
        tp = type(n)
        if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Yield, cst.Nonlocal, cst.Global):
            return False
        if tp in (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del):
            return False  # (a store of any kind: a local one too, to keep the rule simple)
        if type(n) is cst.Call and type(n.func) is cst.Attribute and _is_self(chain_root(n.func.value)):
            return False
        if type(n) is cst.Name and n.value == "self" and not (type(parent) is cst.Attribute and parent.value is n):
            return False
        stack.extend((c, n) for c in children(n))
    return True


def _is_self(e: cst.BaseExpression) -> bool:
    return type(e) is cst.Name and e.value == "self"


def tree_at(where: cst.BaseExpression, tree: Value, replace: Value) -> Value:
    """``eqx.tree_at(where, tree, replace)`` with ``where`` a lambda naming leaves by attributes and int indices
    (``lambda m: m.head.weight``, ``lambda m: (m.a, m.layers[1])`` with a tuple of replacements): ``tree`` with them
    replaced. A Linear's ``weight`` gives the layer the new weight's sizes (a weight of another rank: unknown);
    anything else not followed is unknown."""
    if (
        not isinstance(where, cst.Lambda)
        or len(where.params.params) != 1
        or where.params.star_arg not in (None, cst.MaybeSentinel.DEFAULT)
        or where.params.kwonly_params
        or where.params.star_kwarg is not None
    ):
        return UNKNOWN
    param = where.params.params[0].name.value
    body = where.body
    if isinstance(body, (cst.Tuple, cst.List)):
        if not isinstance(replace, SeqV) or len(replace.items) != len(body.elements):
            return UNKNOWN
        pairs = [(e.value, r) for e, r in zip(body.elements, replace.items)]
    else:
        pairs = [(body, replace)]
    out = tree
    for expr, value in pairs:
        steps = _leaf_path(expr, param)
        if steps is None:
            return UNKNOWN
        out = _replaced(out, steps, value)
        if out is UNKNOWN:
            return UNKNOWN
    return out


def _leaf_path(expr: cst.BaseExpression, param: str) -> list[str | int] | None:
    steps: list[str | int] = []
    while not (type(expr) is cst.Name and expr.value == param):
        if type(expr) is cst.Attribute:
            steps.append(expr.attr.value)
            expr = expr.value
        elif (
            type(expr) is cst.Subscript
            and len(expr.slice) == 1
            and type(expr.slice[0].slice) is cst.Index
            and type(expr.slice[0].slice.value) is cst.Integer
        ):
            steps.append(int(expr.slice[0].slice.value.value))
            expr = expr.value
        else:
            return None
    return steps[::-1]


def _replaced(node: Value, steps: list[str | int], value: Value) -> Value:
    if not steps:
        return value
    step, rest = steps[0], steps[1:]
    if isinstance(step, str) and isinstance(node, ObjV) and node.concrete:
        sub = node.attr(step)
        if sub is None:
            return UNKNOWN
        new = _replaced(sub, rest, value)
        if new is UNKNOWN:
            return UNKNOWN
        return ObjV(node.cls_key, tuple((k, new if k == step else v) for k, v in node.attrs), True)
    if (
        isinstance(step, int)
        and isinstance(node, SeqV)
        and node.kind != "shape"
        and -len(node.items) <= step < len(node.items)
    ):
        i = step % len(node.items)
        new = _replaced(node.items[i], rest, value)
        if new is UNKNOWN:
            return UNKNOWN
        return SeqV(node.items[:i] + (new,) + node.items[i + 1 :], node.kind)

    if step == "weight" and not rest and isinstance(node, LayerV):
        _with_parameter = _interpreter._with_parameter

        return _with_parameter(node, "weight", value)
    return UNKNOWN


# at the end: interpreter imports this module at its top (a module object, read at call time, works in either import order)
from . import interpreter as _interpreter  # noqa: E402


# torch's classes whose instance assigned to a module attribute is a parameter / a persistent buffer
_PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer"})
# bases outside the analysed code that leave ``state_dict`` as ``nn.Module`` writes it
_STATE_DICT_BASES = frozenset(
    {"object", "abc.ABC", "typing.Generic", "torch.nn.Module", "torch.nn.modules.module.Module"}
)
_STATE_DICT_DEPTH = 8  # submodule levels a state_dict is followed through


def state_dict_of(m: "ModuleAnalysis", obj: ObjV) -> StateDictV | None:
    """``model.state_dict()`` of an instance a followed constructor built: each parameter and persistent buffer whose
    name and tensor are known (``self.pos_embed = nn.Parameter(...)``, ``self.register_buffer("mask", t)``, the
    weight of an ``nn.Linear`` / ``nn.Embedding`` attribute, those of submodules, ``ModuleList`` items and
    ``ModuleDict`` entries under their dotted prefixes), by name. Other keys stay unknown. None when the instance is
    no torch module, or a class of it may change what ``state_dict`` gives (its own ``state_dict`` or
    ``_save_to_state_dict``, a state-dict hook, a base outside the analysed code other than torch's)."""
    items: list[tuple[str, Value]] = []
    if not _add_state(m, obj, "", items, 0):
        return None
    return StateDictV(tuple(items))


# methods of a class that change what ``load_state_dict`` does with the entries it is given
_LOADING_METHODS = frozenset({"load_state_dict", "_load_from_state_dict"})


def state_dict_mismatch(m: "ModuleAnalysis", obj: ObjV, given: Value) -> tuple[str, TensorV, TensorV] | None:
    """``model.load_state_dict(sd)`` (strict or not): the first entry of ``sd`` whose tensor surely has another shape
    than the model's parameter or buffer of that name (torch raises "size mismatch for <key>" for it whatever
    ``strict`` says), as (key, the entry, the model's); None when none is known to. Both shapes must be known ints;
    no class of the model may load in its own way (``load_state_dict`` / ``_load_from_state_dict`` of its own, a
    load hook) or change what ``state_dict`` names."""
    if not isinstance(given, (DictV, StateDictV)) or (isinstance(given, DictV) and given.kind != "dict"):
        return None
    own = state_dict_of(m, obj)
    if own is None or not _loads_plainly(m, obj, 0):
        return None
    entries = dict(given.items)
    for key, mine in own.items:
        theirs = entries.get(key)
        if not isinstance(theirs, TensorV) or not isinstance(mine, TensorV) or theirs.alts or mine.alts:
            continue
        a, b = theirs.shape, mine.shape
        if a is None or b is None:
            continue
        sizes = [x.as_int() for x in (*a, *b)]
        if None in sizes:
            continue
        if tuple(sizes[: len(a)]) != tuple(sizes[len(a) :]):
            return key, theirs, mine
    return None


def _loads_plainly(m: "ModuleAnalysis", obj: ObjV, depth: int) -> bool:
    """Does torch's own ``load_state_dict`` load ``obj`` and each analysed submodule it holds (no class of them
    defines ``_LOADING_METHODS``; load hooks are refused by ``_attribute_kinds``)?"""
    ci = m.find_class(obj.cls_key)
    if ci is None or depth > _STATE_DICT_DEPTH:
        return False
    if any(name in c.methods for c in mro(m, ci) for name in _LOADING_METHODS):
        return False
    for _, v in obj.attrs:
        subs = v.items if isinstance(v, (SeqV, DictV)) else (v,)
        for x in subs:
            if isinstance(x, tuple):
                x = x[1]
            if isinstance(x, ObjV) and not _loads_plainly(m, x, depth + 1):
                return False
    return True


def _add_state(m: "ModuleAnalysis", obj: ObjV, prefix: str, items: list[tuple[str, Value]], depth: int) -> bool:
    ci = m.find_class(obj.cls_key)
    if ci is None or not obj.concrete or depth > _STATE_DICT_DEPTH or obj.attr(DYNAMIC_ATTRS) is not None:
        return False
    layer_base = torch_layer_base(m, ci)
    bases = foreign_bases(m, ci)
    if not bases & {"torch.nn.Module", "torch.nn.modules.module.Module"} and layer_base is None:
        return False
    if any(b not in _STATE_DICT_BASES and b != f"torch.nn.{layer_base}" for b in bases):
        return False
    kinds = _attribute_kinds(m, ci)
    if kinds is None:
        return False
    for name, v in obj.attrs:
        if name.startswith("<"):
            continue
        kind = kinds.get(name)
        if layer_base is not None and name in ("weight", "bias") and kind is None:
            kind = "parameter"  # set by torch's constructor of the layer the class subclasses
        if isinstance(v, TensorV):
            if kind == "parameter":
                items.append((prefix + name, v))
        else:
            _add_module_state(m, v, f"{prefix}{name}.", items, depth)  # a module, wherever assigned, is registered
    return True


def _add_module_state(m: "ModuleAnalysis", v: Value, prefix: str, items: list[tuple[str, Value]], depth: int) -> None:
    """The known entries of a submodule held in an attribute: an analysed instance, a torch nn.Linear / nn.Embedding
    (its weight), a ModuleList's items, a ModuleDict's entries."""
    if isinstance(v, ObjV):
        sub: list[tuple[str, Value]] = []
        if _add_state(m, v, prefix, sub, depth + 1):
            items.extend(sub)
    elif isinstance(v, LayerV) and v.kind in ("Linear", "Embedding"):
        if v.param("lib") is None and v.param("keras") is None:
            w = _interpreter._layer_weight(v)
            if isinstance(w, TensorV) and w.shape is not None:
                items.append((prefix + "weight", w))
    elif isinstance(v, SeqV) and v.kind == "modulelist" and depth < _STATE_DICT_DEPTH:
        for i, x in enumerate(v.items):
            _add_module_state(m, x, f"{prefix}{i}.", items, depth + 1)
    elif isinstance(v, DictV) and v.kind == "moduledict" and depth < _STATE_DICT_DEPTH:
        for k, x in v.items:
            _add_module_state(m, x, f"{prefix}{k}.", items, depth + 1)


def _attribute_kinds(m: "ModuleAnalysis", ci: ClassInfo) -> dict[str, str] | None:
    """What the methods of ``ci``'s analysed classes make each ``self.<name>`` they set: "parameter" when every
    assignment is ``nn.Parameter(...)`` / ``nn.Buffer(...)`` or a registration (``register_buffer`` not marked
    non-persistent, ``register_parameter``), "other" when some is anything else. None when a class defines
    ``state_dict`` / ``_save_to_state_dict`` or registers a state-dict hook."""
    out: dict[str, str] = {}
    for c in mro(m, ci):
        for fi in c.methods.values():
            if fi.name in ("state_dict", "_save_to_state_dict", "__setattr__", "__getattr__"):
                return None
            if not _classify_assignments(c, fi.node, out):
                return None
    return out


def _classify_assignments(c: ClassInfo, fn: cst.FunctionDef, out: dict[str, str]) -> bool:
    def mark(name: str, kind: str) -> None:
        out[name] = "other" if out.get(name, kind) != kind else kind

    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        node = stack.pop()
        tp = type(node)
        if tp in (cst.Assign, cst.AnnAssign, cst.AugAssign):
            targets = (
                [t.target for t in node.targets]  # type: ignore[attr-defined]
                if tp is cst.Assign
                else [node.target]  # type: ignore[attr-defined]
            )
            value = node.value  # type: ignore[attr-defined]
            for t in targets:
                for attr in _self_attrs(t):
                    is_param = (
                        tp is not cst.AugAssign
                        and type(t) is cst.Attribute
                        and type(value) is cst.Call
                        and c.module.qualify(value.func) in _PARAMETER_CLASSES
                        and not any(a.keyword is not None and a.keyword.value == "persistent" for a in value.args)
                    )
                    mark(attr, "parameter" if is_param else "other")
        elif tp is cst.Del:
            for attr in _self_attrs(node.target):  # type: ignore[attr-defined]
                mark(attr, "other")
        elif tp is cst.Call:
            func = node.func  # type: ignore[attr-defined]
            if type(func) is cst.Attribute and "state_dict" in func.attr.value and "hook" in func.attr.value:
                return False  # self._register_state_dict_hook(fn), self.register_state_dict_pre_hook(fn)
            if (
                type(func) is cst.Attribute
                and type(func.value) is cst.Name
                and func.value.value == "self"
                and func.attr.value in ("register_buffer", "register_parameter")
            ):
                args = node.args  # type: ignore[attr-defined]
                first = args[0].value if args and args[0].keyword is None else None
                if type(first) is not cst.SimpleString:
                    return False  # a name the analysis does not read
                name = first.evaluated_value
                if not isinstance(name, str):
                    return False
                persistent = (
                    all(not (a.keyword is not None and a.keyword.value == "persistent") for a in args)
                    and len(args) <= 2
                )
                mark(name, "parameter" if persistent else "other")
        if tp in (cst.FunctionDef, cst.ClassDef, cst.Lambda) and node is not fn.body:
            continue
        stack.extend(children(node))
    return True


def _self_attrs(target: cst.BaseExpression) -> list[str]:
    """The ``self.<name>`` attributes an assignment target binds (in tuples and lists too)."""
    if type(target) is cst.Attribute and type(target.value) is cst.Name and target.value.value == "self":
        return [target.attr.value]
    if type(target) in (cst.Tuple, cst.List):
        return [a for el in target.elements for a in _self_attrs(el.value)]  # type: ignore[attr-defined]
    return []


# torch layers the analysis builds whose own submodules it does not model (MultiheadAttention's out_proj, a
# Transformer layer's attention and feed-forward): walking the module tree stops at them
_LAYERS_WITH_CHILDREN = frozenset({"MultiheadAttention", "TransformerBlock", "ModuleList", "ModuleDict"})
_MODULE_BASES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})
# bases of a class whose instances are plain data (a config object held in an attribute: no submodule)
_DATA_BASES = frozenset({"", "object", "abc.ABC", "typing.Generic", "typing.NamedTuple", "typing.Protocol"})
# methods that change what a walk of the module tree finds, or how an attribute reads
_WALK_OVERRIDES = ("modules", "named_modules", "children", "named_children", "__setattr__", "__getattr__")
WALK_LIMIT = 48  # modules a walk of a model's tree (``for m in model.modules()``) is followed through


def submodules(m: "ModuleAnalysis", v: Value) -> list[tuple[str, Value]] | None:
    """The modules registered directly under the module ``v``, by name, in torch's order (``named_children()``):
    an analysed instance's module attributes in the order its constructor set them, an ``nn.Sequential``'s links,
    an ``nn.ModuleList``'s items, an ``nn.ModuleDict``'s entries; none for a torch layer without submodules. None
    when they are not all known (an attribute of unknown value may be a module; a layer whose own submodules the
    analysis does not model; a class that changes attribute access or the walk)."""
    from ..rules.registry import LAYER_KINDS

    if isinstance(v, ObjV):
        return _object_children(m, v)
    if isinstance(v, LayerV):
        if (
            v.kind not in LAYER_KINDS
            or v.kind in _LAYERS_WITH_CHILDREN
            or v.kind.startswith("fw:")
            or v.param("keras")
            or v.param("lib")
        ):
            return None
        if v.kind == "Sequential":
            layers = v.param("layers")
            if not isinstance(layers, tuple) or v.param("repeat") is not None:
                return None
            return list(zip(_link_names(v), layers))
        return []
    if isinstance(v, SeqV) and v.kind == "modulelist":
        return [(str(i), x) for i, x in enumerate(v.items)]
    if isinstance(v, DictV) and v.kind == "moduledict" and all(isinstance(k, str) for k, _ in v.items):
        return list(v.items)
    return None


def _object_children(m: "ModuleAnalysis", obj: ObjV) -> list[tuple[str, Value]] | None:
    ci = m.find_class(obj.cls_key)
    if ci is None or not obj.concrete or obj.attr(DYNAMIC_ATTRS) is not None:
        return None
    bases = foreign_bases(m, ci)
    if not bases & _MODULE_BASES or any(b not in _STATE_DICT_BASES for b in bases):
        return None
    if any(find_method(m, ci, name) is not None for name in _WALK_OVERRIDES):
        return None
    out: list[tuple[str, Value]] = []
    for name, v in obj.attrs:
        if name.startswith("<") or name.endswith("?"):
            if name.startswith("<nn."):
                return None  # (an nn.Sequential / nn.ModuleList subclass: torch's, not the attributes, decides)
            continue
        if isinstance(v, (IntV, FloatV, BoolV, StrV, NoneV, TensorV, FuncV, RefV, StateDictV, IntDictV)):
            continue  # (a class or a function held is no submodule: ``self.norm_layer = nn.LayerNorm``)
        if isinstance(v, LayerV):
            if v.kind in ("Parameter", "fw:Normal"):
                continue
            out.append((name, v))
        elif isinstance(v, ObjV):
            c = m.find_class(v.cls_key)
            if c is None:
                return None
            kinds = foreign_bases(m, c)
            if kinds & _MODULE_BASES:
                out.append((name, v))
            elif not kinds <= _DATA_BASES:
                return None  # a class of some library: a module or not
        elif isinstance(v, (SeqV, ManyV, DictV)):
            if v.kind in ("modulelist", "moduledict"):
                out.append((name, v))
            elif isinstance(v, (SeqV, DictV)) and v.kind in ("tuple", "list", "dict", "shape", "namespace"):
                continue  # a plain list or dict is no submodule (torch registers none of what it holds)
            else:
                return None
        else:
            return None
    return out


def module_walk(m: "ModuleAnalysis", root: Value) -> list[tuple[tuple[str, ...], Value]] | None:
    """``root.named_modules()``: every module of the tree under ``root`` (itself first), depth first in torch's
    order, with its path of attribute names. None when some module's submodules are not all known, or there are
    more than WALK_LIMIT."""
    out: list[tuple[tuple[str, ...], Value]] = []
    stack: list[tuple[tuple[str, ...], Value]] = [((), root)]
    while stack:
        path, v = stack.pop()
        out.append((path, v))
        kids = submodules(m, v)
        if kids is None or len(out) + len(stack) + len(kids) > WALK_LIMIT:
            return None
        stack.extend((path + (name,), x) for name, x in reversed(kids))
    return out


def _link_names(chain: LayerV) -> tuple[str, ...]:
    """The names of an ``nn.Sequential``'s links ("0", "1", ... unless an OrderedDict or ``add_module`` named them);
    none when its links are not known."""
    layers = chain.param("layers")
    if not isinstance(layers, tuple):
        return ()
    names = chain.param("names")
    return names if isinstance(names, tuple) and len(names) == len(layers) else tuple(map(str, range(len(layers))))


def submodule_at(v: Value, name: str) -> Value | None:
    """The submodule ``name`` of the module ``v`` (as ``submodules`` names it); None when there is none."""
    if isinstance(v, ObjV):
        return v.attr(name)
    if isinstance(v, LayerV) and v.kind == "Sequential":
        layers, names = v.param("layers"), _link_names(v)
        return layers[names.index(name)] if name in names else None
    if isinstance(v, SeqV) and v.kind == "modulelist":
        return v.items[int(name)] if name.isdigit() and int(name) < len(v.items) else None
    if isinstance(v, DictV) and v.kind == "moduledict":
        return next((x for k, x in v.items if k == name), None)
    return None


def module_paths(v: Value, target: LayerV, depth: int, at: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The paths (as ``submodule_at`` names each step) of the layers equal to ``target`` (the same layer, or one
    alike: built by the same call with the same sizes) in the tree under ``v``, ``depth`` levels down at most."""
    if isinstance(v, LayerV) and v == target:
        yield at
        return
    if depth <= 0:
        return
    if isinstance(v, ObjV):
        children: Iterable[tuple[str, Value]] = v.attrs
    elif isinstance(v, LayerV) and v.kind == "Sequential":
        links = v.param("layers")
        if not isinstance(links, tuple):
            return  # (a chain of any length, ``nn.Sequential(*[Block(d) for _ in range(n)])``: no link named)
        children = zip(_link_names(v), links)
    elif isinstance(v, SeqV) and v.kind == "modulelist":
        children = ((str(i), x) for i, x in enumerate(v.items))
    elif isinstance(v, DictV) and v.kind == "moduledict":
        children = v.items
    else:
        return
    for name, child in children:
        yield from module_paths(child, target, depth - 1, (*at, name))


def with_submodule(v: Value, name: str, new: Value) -> Value | None:
    """The module ``v`` with its submodule ``name`` replaced by ``new``, in its place (torch keeps a registered
    module's position when it is assigned again); None when ``v`` has no such submodule."""
    if isinstance(v, ObjV):
        if v.attr(name) is None:
            return None
        attrs = tuple((k, new if k == name else x) for k, x in v.attrs if k != name + "?")
        return ObjV(v.cls_key, attrs, v.concrete, tuple((k, x) for k, x in v.fresh if k not in (name, name + "?")))
    if isinstance(v, LayerV) and v.kind == "Sequential":
        layers, names = v.param("layers"), _link_names(v)
        if name not in names or not isinstance(layers, tuple):
            return None
        i = names.index(name)
        params = tuple((k, layers[:i] + (new,) + layers[i + 1 :] if k == "layers" else x) for k, x in v.params)
        return replace(v, params=params)
    if isinstance(v, SeqV) and v.kind == "modulelist":
        if not (name.isdigit() and int(name) < len(v.items)):
            return None
        i = int(name)
        return SeqV(v.items[:i] + (new,) + v.items[i + 1 :], v.kind, v.names)
    if isinstance(v, DictV) and v.kind == "moduledict":
        if all(k != name for k, _ in v.items):
            return None
        return DictV(tuple((k, new if k == name else x) for k, x in v.items), v.kind)
    return None
