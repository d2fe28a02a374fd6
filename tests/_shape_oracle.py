"""The shape a framework computes for one expression, against the one the analyser infers for the same source (the
framework is the oracle; the analyser never imports or runs the source): for the differential pool and vmap
tests."""

from __future__ import annotations

from shapecheck.analysis.editor.hover import inferred_values
from shapecheck.analysis.interpret.values import TensorV


def assert_inferred_shape_is_the_frameworks(before: str, expr: str, filename: str = "case.py") -> None:
    """``y = expr`` after the source ``before``: no finding, and ``y``'s inferred shape is the one running gives."""
    src = before + f"y = {expr}\n"
    values, findings = inferred_values(src, filename)
    assert not findings, [f.message for f in findings]
    y = values.get("y")
    assert isinstance(y, TensorV) and y.shape is not None, f"no shape inferred for {expr}: {y}"
    env: dict[str, object] = {}
    exec(src, env)  # the oracle: the framework itself
    assert tuple(s.as_int() for s in y.shape) == tuple(env["y"].shape)  # type: ignore[attr-defined]
