"""Symbolic sizes and their three-valued decisions."""

from .algebra import (
    Size,
    SizeLike,
    Truth,
    as_size,
    at_least,
    display_name,
    divisible,
    equal,
    greater_equal,
    product,
    solve_for,
)

__all__ = [
    "Size",
    "SizeLike",
    "Truth",
    "as_size",
    "at_least",
    "display_name",
    "divisible",
    "equal",
    "greater_equal",
    "product",
    "solve_for",
]
