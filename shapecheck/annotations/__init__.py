"""jaxtyping annotations, statically: shape-string parsing, a safe evaluator for symbolic axes, matching of
specs against symbolic shapes with jaxtyping's memo semantics, and the dtype-class table."""

from .dims import Dim, DimSpec, bound_names, expr_names, expr_runtime_problem, names_used, parse_dims
from .dtypes import DTYPE_CLASSES, accepts, dtype_names, is_dtype_class
from .match import MatchResult, Memo, evaluate_expr, instantiate, match_shape, unbound_expr_names

__all__ = [
    "DTYPE_CLASSES",
    "Dim",
    "DimSpec",
    "MatchResult",
    "Memo",
    "accepts",
    "bound_names",
    "dtype_names",
    "evaluate_expr",
    "expr_names",
    "expr_runtime_problem",
    "instantiate",
    "is_dtype_class",
    "match_shape",
    "names_used",
    "parse_dims",
    "unbound_expr_names",
]
