"""Recognise jaxtyping annotations in libcst nodes (however the dtype classes were imported)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import libcst as cst

from .imports import dotted, literal_str

# dtype class -> the single concrete dtype it pins (None: a family such as Float or Shaped)
_PINNED = {
    "Float16": "float16",
    "BFloat16": "bfloat16",
    "Float32": "float32",
    "Float64": "float64",
    "Int8": "int8",
    "Int16": "int16",
    "Int32": "int32",
    "Int64": "int64",
    "UInt8": "uint8",
    "UInt16": "uint16",
    "UInt32": "uint32",
    "UInt64": "uint64",
    "Bool": "bool",
    "Complex64": "complex64",
    "Complex128": "complex128",
}
DTYPE_CLASSES = frozenset(
    set(_PINNED)
    | {
        "Float",
        "Shaped",
        "Int",
        "UInt",
        "Integer",
        "Num",
        "Real",
        "Inexact",
        "Complex",
        "Key",
        "Float8e4m3b11fnuz",
        "Float8e4m3fn",
        "Float8e4m3fnuz",
        "Float8e5m2",
        "Float8e5m2fnuz",
        "Int2",
        "Int4",
        "UInt2",
        "UInt4",
        "Bool",
    }
)

_FRAMEWORK_OF_ARRAY = {
    "torch.Tensor": "torch",
    "torch.FloatTensor": "torch",
    "numpy.ndarray": "numpy",
    "jax.Array": "jax",
    "jax.numpy.ndarray": "jax",
    "jaxtyping.Array": "jax",
    "jax.numpy.DeviceArray": "jax",
    "tensorflow.Tensor": "tensorflow",
    "tensorflow.Variable": "tensorflow",
    "paddle.Tensor": "paddle",
}


@dataclass(frozen=True)
class Annotation:
    dtype_class: str
    dims: str  # the shape string
    framework: str | None
    text: str  # source text of the annotation, for messages

    @property
    def dtype(self) -> str | None:
        return _PINNED.get(self.dtype_class)


# jaxtyping's array types that are unions of arrays of different ranks (``Key[Array, ""] | UInt32[Array, "2"]``)
_KEY_UNIONS = frozenset({"jaxtyping.PRNGKeyArray"})


def dtype_class_of(qualname: str | None) -> str | None:
    if qualname and qualname.startswith("jaxtyping.") and qualname.count(".") == 1:
        name = qualname.split(".", 1)[1]
        if name in DTYPE_CLASSES:
            return name
    return None


def parse_annotation(
    node: cst.BaseExpression,
    qualify: Callable[[cst.BaseExpression], str | None],
    wrappers: dict[str, str],
    aliases: dict[str, Annotation],
    code_for: Callable[[cst.CSTNode], str],
    array_alias: Callable[[str], str | None] | None = None,
) -> Annotation | None:
    """``Float[Tensor, "b c"]`` (or a wrapper ``Float["b c"]``, or a module-level alias) -> Annotation.
    ``array_alias``: the array class a qualified name that is none stands for (a module-level ``T = torch.Tensor``
    of another module, imported from there), or None."""
    if type(node) in (cst.Name, cst.Attribute):
        name = dotted(node)
        return aliases.get(name) if name else None
    if type(node) is not cst.Subscript:
        return None
    head = dotted(node.value)
    if head is None:
        return None
    elems = [e.slice.value for e in node.slice if type(e.slice) is cst.Index]
    if len(elems) != len(node.slice):
        return None
    dtype_class = dtype_class_of(qualify(node.value))
    framework: str | None = None
    if dtype_class is not None and len(elems) == 2:
        array_q = qualify(elems[0]) or dotted(elems[0]) or ""
        if array_q in _KEY_UNIONS:
            # jaxtyping.PRNGKeyArray = Key[Array, ""] | UInt32[Array, "2"]: ``Shaped[PRNGKeyArray, "n"]`` is
            # (n,) of typed keys or (n, 2) of legacy uint32 keys, two ranks one annotation cannot stand for
            return None
        framework = _FRAMEWORK_OF_ARRAY.get(array_q)
        if framework is None and array_q and array_alias is not None:
            real = array_alias(array_q)
            framework = _FRAMEWORK_OF_ARRAY.get(real) if real is not None else None
        dims = literal_str(elems[1])
    elif head in wrappers and len(elems) == 1:
        dtype_class = wrappers[head]
        dims = literal_str(elems[0])
        framework = "torch"
    else:
        return None
    if dims is None:
        return None
    return Annotation(dtype_class, dims, framework, code_for(node))
