"""jaxtyping's dtype classes, as a static table.

Transcribed from jaxtyping 0.3.x (``jaxtyping/_array_types.py``). At runtime jaxtyping turns an array's dtype
into a string -- ``obj.dtype.type.__name__`` for numpy/JAX, ``repr(obj.dtype).rsplit(".", 1)[-1]`` for
PyTorch -- and compares it by exact string equality against the class's names. ``tests/test_jaxtyping_dims.py``
checks this table against the installed jaxtyping.
"""

from __future__ import annotations

from typing import Mapping

BOOLS = ("bool", "bool_")
UINTS = ("uint2", "uint4", "uint8", "uint16", "uint32", "uint64")
INTS = ("int2", "int4", "int8", "int16", "int32", "int64")
FLOAT8 = ("float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz")
FLOATS = ("float4_e2m1fn",) + FLOAT8 + ("bfloat16", "float16", "float32", "float64")
COMPLEXES = ("complex64", "complex128")

# class name -> accepted dtype names; None means "any dtype" (Shaped).
DTYPE_CLASSES: Mapping[str, frozenset[str] | None] = {
    "UInt2": frozenset({"uint2"}),
    "UInt4": frozenset({"uint4"}),
    "UInt8": frozenset({"uint8"}),
    "UInt16": frozenset({"uint16"}),
    "UInt32": frozenset({"uint32"}),
    "UInt64": frozenset({"uint64"}),
    "Int2": frozenset({"int2"}),
    "Int4": frozenset({"int4"}),
    "Int8": frozenset({"int8"}),
    "Int16": frozenset({"int16"}),
    "Int32": frozenset({"int32"}),
    "Int64": frozenset({"int64"}),
    "Float4e2m1fn": frozenset({"float4_e2m1fn"}),
    "Float8e4m3b11fnuz": frozenset({"float8_e4m3b11fnuz"}),
    "Float8e4m3fn": frozenset({"float8_e4m3fn"}),
    "Float8e4m3fnuz": frozenset({"float8_e4m3fnuz"}),
    "Float8e5m2": frozenset({"float8_e5m2"}),
    "Float8e5m2fnuz": frozenset({"float8_e5m2fnuz"}),
    "BFloat16": frozenset({"bfloat16"}),
    "Float16": frozenset({"float16"}),
    "Float32": frozenset({"float32"}),
    "Float64": frozenset({"float64"}),
    "Complex64": frozenset({"complex64"}),
    "Complex128": frozenset({"complex128"}),
    "Bool": frozenset(BOOLS),
    "UInt": frozenset(UINTS),
    "Int": frozenset(INTS),
    "Integer": frozenset(UINTS + INTS),
    "Float": frozenset(FLOATS),
    "Complex": frozenset(COMPLEXES),
    "Inexact": frozenset(FLOATS + COMPLEXES),
    "Real": frozenset(FLOATS + UINTS + INTS),
    "Num": frozenset(UINTS + INTS + FLOATS + COMPLEXES),
    "Shaped": None,
    "Key": frozenset({"prng_key"}),
}

# Defined in jaxtyping's source but not re-exported from the ``jaxtyping`` package.
NOT_EXPORTED: frozenset[str] = frozenset({"Float4e2m1fn"})

# Low-precision float dtypes (SHP3xx precision checks).
HALF_PRECISION: frozenset[str] = frozenset({"float16", "bfloat16"} | set(FLOAT8) | {"float4_e2m1fn"})


def is_dtype_class(name: str) -> bool:
    return name in DTYPE_CLASSES


def dtype_names(cls_name: str) -> frozenset[str] | None:
    """Accepted dtype names of a jaxtyping dtype class; None for ``Shaped`` (any). KeyError if unknown."""
    return DTYPE_CLASSES[cls_name]


def accepts(cls_name: str, dtype: str) -> bool:
    """Does the jaxtyping dtype class accept an array whose dtype name is ``dtype`` (e.g. "float32")?"""
    names = DTYPE_CLASSES[cls_name]
    return names is None or dtype in names
