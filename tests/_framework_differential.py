"""Run in its own interpreter by tests/test_frameworks.py: shapecheck.runtime against einops on TensorFlow or
Paddle tensors, over the random cases of _einops_cases.py. Prints one JSON line: counts and the mismatches.

Usage: python tests/_framework_differential.py tensorflow|paddle N_CASES
"""

from __future__ import annotations

import json
import os
import random
import sys
import warnings
from pathlib import Path
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from _einops_cases import Case, _einsum_cases, _pack_cases, _parse_shape_cases, _transform_cases  # noqa: E402


def main() -> None:
    framework, n = sys.argv[1], int(sys.argv[2])
    if framework == "tensorflow":
        import tensorflow as tf

        def convert(a: np.ndarray) -> Any:
            return tf.constant(a)
    else:
        import paddle

        def convert(a: np.ndarray) -> Any:
            return paddle.to_tensor(a)

    import einops

    import shapecheck.runtime as R

    def run(lib: Any, case: Case) -> tuple[str, Any]:
        rng = np.random.default_rng(0)
        arrays = [convert(rng.integers(-3, 4, size=tuple(s)).astype(np.float32)) for s in case.shapes]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if case.op in ("rearrange", "repeat"):
                    out = [getattr(lib, case.op)(arrays if case.as_list else arrays[0], case.pattern, **case.kwargs)]
                elif case.op == "reduce":
                    out = [
                        lib.reduce(arrays if case.as_list else arrays[0], case.pattern, case.reduction, **case.kwargs)
                    ]
                elif case.op == "einsum":
                    out = [lib.einsum(*arrays, case.pattern)]
                elif case.op == "pack":
                    packed, ps = lib.pack(arrays, case.pattern)
                    out = [packed, [tuple(int(d) for d in p) for p in ps]]
                elif case.op == "unpack":
                    out = list(lib.unpack(arrays[0], case.packed_shapes, case.pattern))
                else:
                    out = [{k: int(v) for k, v in lib.parse_shape(arrays[0], case.pattern).items()}]
        except Exception as e:  # noqa: BLE001 - any exception counts as "raises"
            return "raise", type(e).__name__
        return "ok", out

    makers = [
        lambda r: _transform_cases(r, ("rearrange", "repeat")),
        lambda r: _transform_cases(r, ("reduce",)),
        _einsum_cases,
        _pack_cases,
        _parse_shape_cases,
    ]
    counts = {"ok": 0, "raise": 0}
    mismatches: list[str] = []
    for seed in range(n):
        case = makers[seed % len(makers)](random.Random(seed))
        if callable(case.reduction) and not isinstance(case.reduction, str):
            continue  # the cases' custom reduction is written for numpy/torch tensors
        if framework == "paddle" and case.op == "einsum" and "->" in case.pattern:
            right = case.pattern.split("->")[1].split()
            if len(right) != len(set(right)):
                # paddle.einsum accepts an output letter twice ("ij->jii"), which torch, numpy, TensorFlow and
                # shapecheck reject; einops passes the letters on, so on Paddle only it returns
                counts["skipped_paddle_repeated_output"] = counts.get("skipped_paddle_repeated_output", 0) + 1
                continue
        want, got = run(einops, case), run(R, case)
        counts[want[0]] += 1
        if want[0] != got[0]:
            mismatches.append(f"{case}: einops {want} vs shapecheck.runtime {got}")
            continue
        if want[0] == "ok":
            for x, y in zip(want[1], got[1]):
                if isinstance(x, (dict, list)):
                    if x != y:
                        mismatches.append(f"{case}: {x} vs {y}")
                    continue
                a, b = np.asarray(x), np.asarray(y)
                if a.shape != b.shape or a.dtype != b.dtype or not np.allclose(a, b, equal_nan=True):
                    mismatches.append(f"{case}: outputs differ ({a.shape} {a.dtype} vs {b.shape} {b.dtype})")
    print(json.dumps({"counts": counts, "mismatches": mismatches[:20], "n_mismatches": len(mismatches)}))


if __name__ == "__main__":
    main()
