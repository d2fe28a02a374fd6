"""``x[index] = value`` and elementwise comparisons of two tensors (``a < b``), against numpy and torch.

The ops harness (tests/ops_harness.py, generators ``setitem`` and ``compare``) checks that a line the framework runs
gets no finding; here the other direction too: with every shape known, the analyser reports SHP204 exactly when the
framework raises. The store's region comes from the analyser's indexing rules, so only plain indexes (ints, slices
with constant bounds) are generated.
"""

from __future__ import annotations

import ast
import random

import pytest

from ops_harness import frameworks
from shapecheck.analysis.editor.hover import inferred_values

torch = pytest.importorskip("torch")
FRAMEWORKS = frameworks()
SEEDS = range(120)


def _runs(src: str, refusals: tuple[type[Exception], ...] = (ValueError, RuntimeError, IndexError)) -> bool:
    env: dict[str, object] = {}
    try:
        exec(src, env)  # the oracle: the framework itself (generated test code, never analysed user code)
    except refusals:
        return False
    return True


def _shape(line: str) -> tuple[int, ...]:
    """The shape of the ``np.ones(...)`` / ``torch.ones(...)`` a generated setup line makes."""
    shape = ast.literal_eval(line.split("ones(", 1)[1].rsplit(")", 1)[0])
    return shape if isinstance(shape, tuple) else (shape,)


def _codes(src: str) -> list[str]:
    _, findings = inferred_values(src, "generated_case.py")
    return [f.code for f in findings]


@pytest.mark.parametrize("name", ["numpy", "torch"])
def test_store_reported_exactly_when_the_framework_refuses(name: str) -> None:
    fw = FRAMEWORKS[name]
    gen = fw.generators()["setitem"]
    refused = 0
    for seed in SEEDS:
        case = gen(random.Random(seed))
        src = case.source(fw.header)
        runs, codes = _runs(src), _codes(src)
        assert not [c for c in codes if c[:4] in ("SHP1", "SHP9")], src
        value = _shape(case.setup[1])
        if runs:
            assert "SHP204" not in codes, src
        elif name == "numpy" and all(n == 1 for n in value):
            # one element stored as an array of 1s where the index picks a single element: numpy 2 refuses it,
            # numpy 1 converted it with a deprecation warning; not reported (it depends on the version)
            assert not codes, src
        else:
            refused += 1
            assert codes.count("SHP204") == 1, src
    assert refused >= 10  # the generator does produce values that do not fit


@pytest.mark.parametrize("name", ["numpy", "torch"])
def test_comparison_reported_exactly_when_the_framework_refuses(name: str) -> None:
    fw = FRAMEWORKS[name]
    gen = fw.generators()["compare"]
    refused = 0
    for seed in SEEDS:
        case = gen(random.Random(seed))
        case.post = None
        src = case.source(fw.header)
        runs, codes = _runs(src), _codes(src)
        numpy_equality = name == "numpy" and any(f" {op} " in case.expr for op in ("==", "!="))
        if runs:
            assert not codes, src
        elif not numpy_equality:
            # numpy's == on shapes that do not broadcast: False before numpy 2, not reported
            refused += 1
            assert codes == ["SHP204"], src
    assert refused >= 5


def test_store_messages_name_both_shapes() -> None:
    src = "import numpy as np\nimg = np.ones((32, 40))\ngy = np.zeros_like(img)\ngy[1:-1, :] = img[1:] - img[:-1]\n"
    _, findings = inferred_values(src, "hog.py")
    (f,) = findings
    assert (f.code, f.line) == ("SHP204", 4)
    assert "(31, 40) cannot be stored into a region of shape (30, 40): axis 0 has 31 against 30" in f.message
    assert f.message.startswith("SHP204 item assignment:")


def test_jax_at_update_reported_exactly_when_jax_refuses() -> None:
    """``x.at[index].set(value)``: jax broadcasts the value to the region as numpy does, except that a value with
    more axes than the region fails even when the extra leading axes are 1s; those are not reported."""
    pytest.importorskip("jax")
    fw = FRAMEWORKS["jax"]
    gen = fw.generators()["at_update"]
    refused = 0
    for seed in SEEDS:
        case = gen(random.Random(seed))
        src = case.source(fw.header)
        runs = _runs(src, (ValueError, TypeError, IndexError))  # the oracle: jax itself
        codes = _codes(src)
        assert not [c for c in codes if c[:4] in ("SHP1", "SHP9")], src
        index = case.expr.split("[", 1)[1].split("]", 1)[0]
        region_rank = len(_shape(case.setup[0])) - sum(1 for p in index.split(", ") if ":" not in p)
        value = _shape(case.expr[: -len(")")])
        if runs:
            assert "SHP204" not in codes, src
        elif len(value) > region_rank or any(n == 0 for n in value):
            assert codes in ([], ["SHP204"]), src  # jax's stricter rank rule: reported only with a size that differs
        else:
            refused += 1
            assert codes.count("SHP204") == 1, src
    assert refused >= 5  # six of the 120 generated values do not fit a non-empty region of their rank


def test_store_into_a_jax_array_is_not_a_shape_finding() -> None:
    pytest.importorskip("jax")
    src = "import jax.numpy as jnp\nx = jnp.zeros((4, 5))\nx[1:3] = jnp.ones((3, 5))\n"
    assert _codes(src) == []


@pytest.mark.parametrize("name", ["numpy", "torch"])
def test_boolean_mask_reported_exactly_when_the_framework_refuses(name: str) -> None:
    """``x[mask]`` with a mask of known shape over the leading axes of x: the sizes must be the axes' own."""
    fw = FRAMEWORKS[name]
    bool_dtype = "bool" if name == "numpy" else "torch.bool"
    refused = 0
    for seed in SEEDS:
        r = random.Random(seed)
        x = tuple(r.randint(1, 4) for _ in range(r.randint(1, 3)))
        mask = tuple(n if r.random() < 0.6 else r.randint(1, 4) for n in x[: r.randint(1, len(x))])
        setup = [f"x = {fw.tensor(x)}", f"m = {fw.tensor(mask, bool_dtype)}"]
        src = "\n".join([fw.header, *setup, "out = x[m]"]) + "\n"
        runs, codes = _runs(src), _codes(src)
        if runs:
            assert not codes, src
        else:
            refused += 1
            assert codes == ["SHP204"], src
    assert refused >= 10


@pytest.mark.parametrize("name", ["numpy", "torch", "jax"])
def test_index_tensors_reported_exactly_when_they_do_not_broadcast(name: str) -> None:
    """``x[rows, cols]``: integer index tensors broadcast together (numpy / torch: "shape mismatch: indexing arrays
    could not be broadcast together", jax: "Incompatible shapes for broadcasting"); with a slice between them too."""
    if name == "jax":
        pytest.importorskip("jax")
    fw = FRAMEWORKS[name]
    int_dtype = {"numpy": "np.int64", "torch": "torch.long", "jax": "jnp.int32"}[name]
    refused = 0
    for seed in SEEDS:
        r = random.Random(seed)
        x = tuple(r.randint(1, 4) for _ in range(3))
        a = tuple(r.choice((1, 2, 3)) for _ in range(r.randint(1, 2)))
        b = tuple(r.choice((1, 2, 3)) for _ in range(r.randint(1, 2)))
        index = r.choice(("a, b", "a, :, b", ":, a, b", "a, b, 0"))
        src = (
            f"{fw.header}\nx = {fw.tensor(x)}\na = {fw.tensor(a, int_dtype)} * 0\nb = {fw.tensor(b, int_dtype)} * 0\n"
            f"out = x[{index}]\n"
        )
        runs = _runs(src, (ValueError, IndexError))
        codes = _codes(src)
        if runs:
            assert not codes, src
        else:
            refused += 1
            assert codes == ["SHP204"], src
    assert refused >= 10
