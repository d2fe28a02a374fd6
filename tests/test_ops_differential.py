"""Every framework op the analyser models, run side by side with the real framework (issue 16).

Generated calls (tests/ops_harness.py) are analysed statically and executed for real; for each one:

* the call succeeds -> no SHP1xx/SHP2xx may be reported (a false positive otherwise);
* the analyser claims a shape (rank and concrete sizes), an int, a ``.shape`` tuple or a dtype -> it equals the
  runtime one;
* never an SHP9xx.

One hypothesis test per op generator (``reduce:sum``, ``stub:torch.nn.functional.linear``, ...), derandomized, a
few examples each; the large run is ``python benchmarks/ops_differential.py --n N``. The coverage tests check that
every op registered in rules/registry.py and every stub signature has a generator, or a reason in `UNEXERCISED`.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ops_harness import STUBS, all_generators, frameworks, run_seed
from shapecheck.analysis.rules import registry

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
SEEDS = st.integers(0, 2**32 - 1)
FRAMEWORKS = frameworks()
# examples per generator: jax compiles every op on first use (~0.2 s a call), so it gets fewer
EXAMPLES = {"numpy": 3, "torch": 3, "jax": 1, "tensorflow": 2, "paddle": 2}

# ops of the analyser's tables that no generator exercises, and why
UNEXERCISED: dict[str, str] = {
    **{
        k: "compared with torch case by case in tests/test_model_layers.py (model-code layers)"
        for k in ("Pool", "AdaptivePool", "RNN", "RNNCell", "Upsample", "interpolate", "upsample", "GLU")
        + tuple(f"{k}_pool{n}d" for k in ("max", "avg") for n in (1, 2, 3))
        + ("Pad",)
    },
    "cuda": "needs a GPU",
    "PRNGKey": "jax.random keys: compared with jax in tests/test_vmap.py",
    "key": "jax.random keys: compared with jax in tests/test_vmap.py",
    "pin_memory": "needs an accelerator",
    "cpu": "a device move (exercised as an identity by `to('cpu')`)",
    "layer_norm_like": "internal name, no framework function",
    "group_norm_like": "internal name, no framework function",
    "instance_norm_like": "internal name, no framework function",
    "view_as_real_like": "internal name, no framework function",
    "gelu_new": "not a numpy/torch/jax function (transformers' activation)",
    "stop_gradient": "jax.lax.stop_gradient: jax.lax is not generated",
    "device": "not a shape (an attribute giving a device)",
    "tolist": "returns Python lists: the analyser gives no shape",
    "item": "returns a Python scalar: the analyser gives no shape",
    "nonzero": "data-dependent shape: unknown",
    "unique": "data-dependent shape: unknown",
    "masked_select": "data-dependent shape: unknown",
    "scatter": "unknown shape",
    "float_": "numpy.float_ was removed in numpy 2",
    "MultiheadAttention": "its output is unknown (only its construction is read)",
    "Parameter": "nn.Parameter(t) is t itself",
    "ModuleList": "a container of layers, never applied itself",
    "ModuleDict": "a container of layers, never applied itself",
}


def _keys(name: str) -> list[str]:
    fw = FRAMEWORKS.get(name)
    return sorted(all_generators(fw)) if fw is not None else []


def _check(name: str, key: str, seed: int) -> None:
    fw = FRAMEWORKS[name]
    o = run_seed(fw, all_generators(fw), key, seed)
    assert o.verdict == "ok", f"{o.verdict}: {o.detail} (runtime {o.runtime})\n{o.source}"


def _test_for(name: str):  # type: ignore[no-untyped-def]
    @pytest.mark.skipif(name not in FRAMEWORKS, reason=f"{name} is not installed")
    @pytest.mark.parametrize("key", _keys(name) or ["-"])
    @settings(max_examples=EXAMPLES[name], **SETTINGS)
    @given(seed=SEEDS)
    def test(key: str, seed: int) -> None:
        _check(name, key, seed)

    return test


test_numpy_ops = _test_for("numpy")
test_torch_ops = _test_for("torch")
test_jax_ops = _test_for("jax")
# TensorFlow and Paddle run in one worker subprocess each (importing both in one process segfaults)
test_tensorflow_ops = _test_for("tensorflow")
test_paddle_ops = _test_for("paddle")


@pytest.mark.parametrize("seed", [5, 6])
def test_issue_16_examples_agree(seed: int) -> None:
    """The two reported false positives, through the harness: randn/rand varargs and np.outer of 2-d arrays."""
    fw = FRAMEWORKS["numpy"]
    gens = all_generators(fw)
    for key in ("construct:random.randn", "construct:random.rand", "matmul"):
        assert run_seed(fw, gens, key, seed).verdict == "ok"


def _labels(fw_names: list[str], per_key: int = 60) -> set[str]:
    """The op names the generators produce (``reduce:sum`` -> ``sum``), from generation only (nothing runs)."""
    out: set[str] = set()
    for name in fw_names:
        fw = FRAMEWORKS[name]
        for gen in all_generators(fw).values():
            for seed in range(per_key):
                op = gen(random.Random(seed)).op
                out.add(op.split(":", 1)[-1].rsplit(".", 1)[-1])
    return out


def test_every_registered_op_is_generated() -> None:
    """Every op a rule is registered for (rules/registry.py) has a generator, or a reason in UNEXERCISED."""
    have = _labels([n for n in ("numpy", "torch") if n in FRAMEWORKS])
    tables = {
        "registry": registry.op_names(),
        # semantics outside the call tables: attributes and operators (ops.tensor_attribute / tensor_binary),
        # indexing (shape_ops.index_tensor, constructors' boolean masks), len()
        "attributes, operators, indexing": {
            "shape",
            "ndim",
            "T",
            "mT",
            "mH",
            "H",
            "real",
            "imag",
            "data",
            "grad",
            "@",
            "len",
            "index",
            "mask_index",
        },
    }
    missing = {t: sorted(n for n in names if n not in have and n not in UNEXERCISED) for t, names in tables.items()}
    missing = {t: v for t, v in missing.items() if v}
    assert not missing, (
        f"ops with no generator (add one to tests/ops_harness.py, or a reason to UNEXERCISED): {missing}"
    )


def test_every_stub_module_is_exercised() -> None:
    """A stub file no framework plug-in claims would escape the harness."""
    claimed = {m for fw in FRAMEWORKS.values() for m in fw.stub_modules()}
    present = set()
    for path in STUBS.rglob("*.pyi"):
        rel = path.relative_to(STUBS).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        present.add(".".join(parts))
    installed_roots = {m.split(".")[0] for m in claimed}
    unclaimed = sorted(
        m for m in present if m not in claimed and m.split(".")[0] in installed_roots | {"numpy", "torch"}
    )
    assert not unclaimed, f"stub modules no framework plug-in exercises: {unclaimed}"
    assert (Path(__file__).parent / "ops_harness.py").is_file()


# what frameworks.py models for TensorFlow / Paddle by hand (besides the reduction tables), as generated labels
TF_RULES = {
    "zeros",
    "ones",
    "fill",
    "normal",
    "uniform",
    "truncated_normal",
    "constant",
    "convert_to_tensor",
    "cast",
    "reshape",
    "transpose",
    "concat",
    "stack",
    "expand_dims",
    "squeeze",
    "tile",
    "matmul",
    "@",
    "einsum",
    "zeros_like",
    "ones_like",
    "cumsum",
    "cumprod",
}
PADDLE_RULES = {
    "zeros",
    "ones",
    "full",
    "randn",
    "rand",
    "to_tensor",
    "cast",
    "astype",
    "reshape",
    "transpose",
    "concat",
    "stack",
    "unsqueeze",
    "squeeze",
    "tile",
    "matmul",
    "@",
    "mm",
    "bmm",
    "t",
    "flatten",
    "einsum",
    "zeros_like",
    "ones_like",
    "cumsum",
    "cumprod",
    "clone",
    "detach",
}


@pytest.mark.parametrize("name", ["tensorflow", "paddle"])
def test_every_tf_paddle_rule_is_generated(name: str) -> None:
    if name not in FRAMEWORKS:
        pytest.skip(f"{name} is not installed")
    from shapecheck.analysis.rules import frameworks as rules

    have = _labels([name])
    have |= (
        {"@"}
        if any("@" in all_generators(FRAMEWORKS[name])["matmul"](random.Random(s)).expr for s in range(60))
        else set()
    )
    wanted = (
        (set(rules._TF_REDUCTIONS) | TF_RULES)
        if name == "tensorflow"
        else (set(rules._PADDLE_REDUCTIONS) | PADDLE_RULES)
    )
    assert not sorted(wanted - have), f"{name} ops with no generator: {sorted(wanted - have)}"


def test_tf_and_paddle_run_outside_this_process() -> None:
    """Their calls go to a worker subprocess: neither is ever imported here (both in one process segfault)."""
    import sys

    ran = 0
    for name in ("tensorflow", "paddle"):
        if name in FRAMEWORKS:
            fw = FRAMEWORKS[name]
            assert run_seed(fw, all_generators(fw), "matmul", 1).runtime in ("ok", "raise")
            ran += 1
    if not ran:
        pytest.skip("neither TensorFlow nor Paddle is installed")
    assert "tensorflow" not in sys.modules and "paddle" not in sys.modules


@pytest.mark.parametrize(
    "setup,expr",
    [
        (["x = paddle.ones([5, 2, 4, 0])"], "x.reshape([1, 0])"),  # no elements: paddle keeps a 0 as a literal 0
        (
            ["x = paddle.ones([3, 1])", "w = paddle.ones([1, 1, 2])"],
            "PF.linear(x, w)",
        ),  # weight not 2-d: matmul broadcast
        (["x = paddle.ones([3])", "w = paddle.ones([3])"], "PF.linear(x, w)"),
        (["x = paddle.ones([2, 3])", "w = paddle.ones([3, 4])"], "PF.linear(x, weight=w)"),
    ],
)
def test_paddle_disagreements_found_by_the_harness(setup: list[str], expr: str) -> None:
    """The false SHP204s the harness found in paddle.reshape / paddle.nn.functional.linear, against real paddle."""
    from ops_harness import Case, run_case

    if "paddle" not in FRAMEWORKS:
        pytest.skip("paddle is not installed")
    o = run_case(FRAMEWORKS["paddle"], Case("regression", "paddle", setup, expr))
    assert o.runtime == "ok" and o.verdict == "ok", f"{o.verdict}: {o.detail}\n{o.source}"
