"""A subprocess that runs generated harness snippets in one framework (tests/ops_harness.py).

TensorFlow and Paddle crash when both are imported in one process, so each runs in its own worker: one JSON line
in (``{"src": ...}``), one JSON line out (status, shape, dtype of ``out``). Only our own generated code is run.
"""

from __future__ import annotations

import json
import os
import sys
import warnings


def describe(value: object) -> dict[str, object]:
    if isinstance(value, bool) or not isinstance(value, (int, float, complex)) and not hasattr(value, "shape"):
        return {"kind": "other", "type": type(value).__name__}
    if isinstance(value, int):
        return {"kind": "int", "value": value}
    if isinstance(value, (float, complex)):
        return {"kind": "scalar"}
    try:
        shape = [int(s) for s in value.shape]  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return {"kind": "other", "type": type(value).__name__}
    dt = getattr(value, "dtype", None)
    name = getattr(dt, "name", None) if dt is not None else None
    if dt is not None and (not isinstance(name, str) or str(dt).startswith("paddle.")):
        name = str(dt).replace("paddle.", "")  # paddle's dtype.name is "FLOAT32"; str() is "paddle.float32"
    return {"kind": "tensor", "shape": shape, "dtype": name}


def main() -> None:
    reply = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # whatever the framework prints goes to stderr, not into the protocol
    for line in sys.stdin:
        src = json.loads(line)["src"]
        ns: dict[str, object] = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                exec(compile(src, "<generated case>", "exec"), ns)  # noqa: S102 - our own generated snippet
                res = {"status": "ok", **describe(ns.get("out"))}
            except Exception as exc:  # the framework rejects the call
                res = {"status": "raise", "why": f"{type(exc).__name__}: {str(exc)[:160]}"}
        reply.write(json.dumps(res) + "\n")
        reply.flush()


if __name__ == "__main__":
    main()
