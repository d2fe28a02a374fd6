"""TensorFlow / Keras, PaddlePaddle and jmp (issue 15): the autofix with each framework's own cast, and the
per-framework float16 facts the SHP3xx messages and docs/precision.md state, measured on the installed frameworks.

TensorFlow and Paddle crash (SIGSEGV) when both are imported into one process in that order, so every measurement
runs in its own interpreter; a framework that is not installed skips its tests, saying so.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shapecheck.fix import fix_source

TF = """\
import tensorflow as tf
from einops import reduce
"""
PADDLE = """\
import paddle
from einops import reduce
"""


def _needs(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install tensorflow-cpu paddlepaddle jmp to run these)")


def fixed(header: str, body: str) -> str:
    text = header + textwrap.dedent(body)
    new, remaining = fix_source(text, "m.py")
    assert [f for f in remaining if f.code.startswith("SHP3")] == [], remaining
    again, _ = fix_source(new, "m.py")
    assert again == new  # idempotent
    return new[len(header) :]


@pytest.mark.parametrize(
    "before,after",
    [
        ("y = tf.reduce_sum(x)", "y = tf.cast(tf.reduce_sum(tf.cast(x, tf.float32)), tf.float16)"),
        ("y = tf.reduce_mean(x, axis=-1)", "y = tf.cast(tf.reduce_mean(tf.cast(x, tf.float32), axis=-1), tf.float16)"),
    ],
)
def test_tensorflow_fix_uses_tf_cast(before: str, after: str) -> None:
    body = "x = tf.ones((256, 256), dtype=tf.float16)\n" + before + "\n"
    assert fixed(TF, body) == "x = tf.ones((256, 256), dtype=tf.float16)\n" + after + "\n"


@pytest.mark.parametrize(
    "before,after",
    [
        ("y = paddle.sum(x)", 'y = paddle.sum(x.astype("float32")).astype("float16")'),
        ("y = x.sum(axis=-1)", 'y = x.astype("float32").sum(axis=-1).astype("float16")'),
    ],
)
def test_paddle_fix_uses_astype(before: str, after: str) -> None:
    body = 'x = paddle.ones([256, 256], dtype="float16")\n' + before + "\n"
    assert fixed(PADDLE, body) == 'x = paddle.ones([256, 256], dtype="float16")\n' + after + "\n"


def _measure(script: str) -> dict:
    env_script = (
        "import os\nos.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'\nimport json\n"
        + textwrap.dedent(script)
        + "\nprint(json.dumps(out))\n"
    )
    proc = subprocess.run([sys.executable, "-c", env_script], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result: dict = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def test_tensorflow_float16_facts() -> None:
    _needs("tensorflow")
    out = _measure("""
        import tensorflow as tf
        h = tf.float16
        out = {
            "sum_4096": float(tf.reduce_sum(tf.ones([4096], h))),
            "sum_65536": float(tf.reduce_sum(tf.ones([65536], h))),
            "mean_65536_ones": float(tf.reduce_mean(tf.ones([65536], h))),
            "mean_65536_halves": float(tf.reduce_mean(tf.ones([65536], h) * 0.5)),
            "mean_4096_twenties": float(tf.reduce_mean(tf.fill([4096], tf.constant(20.0, h)))),
            "mean_4096_ones": float(tf.reduce_mean(tf.ones([4096], h))),
            "cumsum_4096_last": float(tf.math.cumsum(tf.ones([4096], h))[-1]),
            "result_dtype": tf.reduce_sum(tf.ones([4], h)).dtype.name,
        }
    """)
    assert out["sum_4096"] == 4096 and out["sum_65536"] == float("inf")  # float32 accumulator, float16 result
    assert out["mean_65536_ones"] != out["mean_65536_ones"]  # NaN: inf / inf
    assert out["mean_65536_halves"] == 0.0  # 32,768 / inf
    assert out["mean_4096_twenties"] == float("inf") and out["mean_4096_ones"] == 1.0
    assert out["cumsum_4096_last"] == 2048  # the running sum is float16
    assert out["result_dtype"] == "float16"


def test_keras_mixed_policy_and_ops_mean() -> None:
    _needs("keras")
    _needs("tensorflow")
    out = _measure("""
        import keras, numpy as np, tensorflow as tf
        from einops.layers.keras import Reduce
        keras.mixed_precision.set_global_policy("mixed_float16")
        conv = keras.layers.Conv2D(4, 3)
        y = conv(np.ones((1, 8, 8, 3), "float32"))
        head = keras.layers.Dense(2, dtype="float32")
        pooled = keras.Sequential([keras.Input(shape=(512, 512, 3)), Reduce("b h w c -> b c", "sum")])(np.ones((1, 512, 512, 3), "float32"))
        out = {"conv": y.dtype.name if hasattr(y.dtype, "name") else str(y.dtype), "kernel": conv.kernel.dtype,
               "head": str(head(np.ones((1, 3), "float32")).dtype), "pooled": float(pooled[0, 0]),
               "ops_mean": float(keras.ops.mean(tf.ones([65536], tf.float16)))}
    """)
    assert "float16" in out["conv"] and out["kernel"] == "float32" and "float32" in out["head"]
    assert out["pooled"] == float("inf")
    assert out["ops_mean"] == 1.0  # keras.ops.mean upcasts: not flagged


def test_paddle_float16_facts() -> None:
    _needs("paddle")
    out = _measure("""
        import paddle
        out = {"sum_4096": float(paddle.sum(paddle.ones([4096], dtype="float16"))),
               "sum_65536": float(paddle.sum(paddle.ones([65536], dtype="float16"))),
               "dtype": str(paddle.sum(paddle.ones([4], dtype="float16")).dtype)}
        try:
            paddle.mean(paddle.ones([4], dtype="float16"))
            out["cpu_mean"] = "ran"
        except RuntimeError as e:
            out["cpu_mean"] = type(e).__name__
        out["device"] = paddle.device.get_device()
    """)
    assert out["sum_4096"] == 4096 and out["sum_65536"] == float("inf") and "float16" in out["dtype"]
    if out["device"] == "cpu":
        assert out["cpu_mean"] == "RuntimeError"  # no float16 mean kernel on CPU


@pytest.mark.parametrize("framework", ["tensorflow", "paddle"])
def test_runtime_executor_matches_einops_on_the_framework(framework: str) -> None:
    """shapecheck.runtime's TensorFlow / Paddle backends against einops on the same tensors (own interpreter each)."""
    _needs(framework)
    script = Path(__file__).resolve().parent / "_framework_differential.py"
    env = dict(os.environ, PYTHONPATH=str(script.parent.parent) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(
        [sys.executable, str(script), framework, "600"], capture_output=True, text=True, timeout=900, env=env
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["counts"]["ok"] > 100 and result["counts"]["raise"] > 100, result["counts"]  # both outcomes exercised
    assert result["n_mismatches"] == 0, "\n".join(result["mismatches"])


@pytest.mark.parametrize("framework,fixture", [("tensorflow", "tensorflow_ops.py"), ("paddle", "paddle_ops.py")])
def test_verify_replays_einops_findings_on_the_framework(framework: str, fixture: str) -> None:
    _needs(framework)
    root = Path(__file__).resolve().parent.parent
    script = textwrap.dedent(f"""
        import json, os
        os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
        from shapecheck.core import check_source
        from shapecheck.verify import verify_witness
        path = {str(root / "tests/fixtures/frameworks" / fixture)!r}
        out = []
        for f in check_source(open(path).read(), path):
            if f.code.startswith("SHP2") and f.witness is not None:
                r = verify_witness(f.witness, f)
                out.append([f.line, r.confirmed, r.engines])
        print(json.dumps(out))
    """)
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    assert results and all(confirmed for _, confirmed, _ in results), results
    on_framework = [e for _, _, engines in results for e in engines if e[0].endswith(f"on {framework}")]
    assert on_framework and all(rejected is True for _, rejected, _ in on_framework), on_framework


# how a fixture file shows it uses each namespace of FRAMEWORK_LAYERS
_NAMESPACE_MARKS = {
    "keras.layers": "keras",
    "flax.linen": "flax.linen",
    "flax.nnx": "nnx",
    "paddle.nn": "paddle",
    "haiku": "haiku",
}


def test_every_registered_keras_flax_layer_rule_is_exercised() -> None:
    """Every rule registered for Keras / Flax / Paddle layers (rules/registry.py FRAMEWORK_LAYERS) is called, under
    one of the names it is registered for, by a fixture file that uses that namespace (whose expectations then check
    it)."""
    import re

    from shapecheck.analysis.rules import registry

    registry.load()
    fixtures = [p.read_text() for p in (Path(__file__).parent / "fixtures").rglob("*") if p.is_file()]
    assert set(registry.FRAMEWORK_LAYERS) == set(_NAMESPACE_MARKS)
    missing = []
    for api, table in registry.FRAMEWORK_LAYERS.items():
        assert table, f"no rule registered for {api}"
        names_of: dict[object, list[str]] = {}
        for name, rule in table.items():
            names_of.setdefault(rule, []).append(name)
        texts = [t for t in fixtures if _NAMESPACE_MARKS[api] in t]
        for rule, names in names_of.items():
            if not any(re.search(rf"\b{re.escape(n)}\(", t) for n in names for t in texts):
                missing.append(f"{api}: {getattr(rule, '__name__', rule)} ({', '.join(sorted(names)[:4])} ...)")
    assert not missing, f"Keras / Flax layer rules no fixture under tests/fixtures/ calls: {missing}"
    kinds = {k for k in registry.LAYER_KINDS if k.startswith("fw:")}
    assert {"fw:Dense", "fw:Conv", "fw:FlaxConv", "fw:MHA"} <= kinds, kinds


def test_every_registered_keras_function_rule_is_exercised() -> None:
    """Every rule registered with @keras_function (rules/registry.py KERAS_FUNCTIONS: keras.Input, keras.Sequential,
    the mixed-precision policy) is called, under one of its names, by a fixture file that uses Keras."""
    import re

    from shapecheck.analysis.rules import registry

    registry.load()
    texts = [p.read_text() for p in (Path(__file__).parent / "fixtures").rglob("*.py") if "keras" in p.read_text()]
    names_of: dict[object, list[str]] = {}
    for name in registry.KERAS_FUNCTIONS.names():
        for rule in registry.KERAS_FUNCTIONS.get(name):
            names_of.setdefault(rule, []).append(name.rsplit(".", 1)[-1])
    assert names_of, "no rule registered with @keras_function"
    missing = [
        f"{getattr(rule, '__name__', rule)} ({', '.join(sorted(names))})"
        for rule, names in names_of.items()
        if not any(re.search(rf"\b{re.escape(n)}\(", t) for n in names for t in texts)
    ]
    assert not missing, f"@keras_function rules no fixture under tests/fixtures/ calls: {missing}"
