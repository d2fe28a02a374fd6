"""einx's plain forms against einx itself: ``rearrange`` / ``id`` with names and parenthesised compositions, the
reductions over bracketed names, ``softmax`` / ``log_softmax`` (rules/einx_calls.py).

Generated patterns on concrete shapes (wrong ranks, compositions that do not divide, sizes given as keywords that
disagree). For each, einx runs the call; the analyser, on a rendered program, must report on the call line exactly
when einx raises (softmax and log_softmax never: they only keep a known shape), and a wrong inferred result shape
would be reported on an annotated assignment of einx's result shape.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck.core import check_source

einx = pytest.importorskip("einx")

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
NAMES = ["b", "n", "h", "d", "c"]
REDUCTIONS = ["sum", "mean", "max", "min", "prod"]


def generate(seed: int) -> tuple[str, str, tuple[int, ...], dict[str, int]]:
    r = random.Random(seed)
    k = r.randint(1, 4)
    names = r.sample(NAMES, k)
    sizes = {n: r.choice([1, 2, 3, 4]) for n in names}
    op = r.choice(["rearrange", "rearrange", "id", "reduce", "softmax"])
    kwargs: dict[str, int] = {}
    if op in ("rearrange", "id"):
        # the left side: names, some grouped; the right side: the same names, regrouped and reordered
        def grouped(order: list[str]) -> tuple[list[str], list[tuple[int, ...]]]:
            out, shape, i = [], [], 0
            while i < len(order):
                g = r.choice([1, 1, 2]) if i + 1 < len(order) else 1
                part = order[i : i + g]
                out.append(part[0] if g == 1 else f"({' '.join(part)})")
                shape.append(tuple(sizes[n] for n in part))
                i += g
            return out, shape

        left, parts = grouped(names)
        order = names[:]
        r.shuffle(order)
        right, _ = grouped(order)
        pattern = f"{' '.join(left)} -> {' '.join(right)}"
        shape = [int(np.prod(p)) for p in parts]
        for p, name_group in zip(parts, left):
            if len(p) > 1 and r.random() < 0.8:
                for name in name_group.strip("()").split()[:-1]:  # all but one: einops infers the last
                    kwargs[name] = sizes[name] if r.random() < 0.85 else sizes[name] + 1
    elif op == "reduce":
        op = r.choice(REDUCTIONS)
        reduced = set(r.sample(names, r.randint(1, k)))
        elements, i = [], 0
        while i < k:
            if names[i] in reduced:
                j = i
                while j < k and names[j] in reduced and r.random() < 0.7:
                    j += 1
                j = max(j, i + 1)
                elements.append(f"[{' '.join(names[i:j])}]")
                i = j
            else:
                elements.append(names[i])
                i += 1
        pattern = " ".join(elements)
        shape = [sizes[n] for n in names]
    else:
        op = r.choice(["softmax", "log_softmax"])
        axis = r.randrange(k)
        pattern = " ".join(f"[{n}]" if i == axis else n for i, n in enumerate(names))
        shape = [sizes[n] for n in names]
    if r.random() < 0.15:
        shape = shape + [2] if r.random() < 0.5 else shape[:-1]  # a wrong rank
    elif r.random() < 0.1 and shape:
        shape[r.randrange(len(shape))] += 1  # a composition that may not divide
    return op, pattern, tuple(shape), kwargs


def run(op: str, pattern: str, shape: tuple[int, ...], kwargs: dict[str, int]) -> tuple[str, object]:
    try:
        out = getattr(einx, op)(pattern, np.zeros(shape), **kwargs)
    except Exception as e:  # noqa: BLE001 - einx's verdict
        return "raise", f"{type(e).__name__}: {str(e)[:120]}"
    return "ok", tuple(np.shape(out))


def render(op: str, pattern: str, shape: tuple[int, ...], kwargs: dict[str, int], result: object) -> str:
    keywords = "".join(f", {k}={v}" for k, v in kwargs.items())
    lines = ["import einx", "import numpy as np", "from jaxtyping import Float", "", "", "def f():"]
    lines.append(f"    x = np.zeros({shape!r})")
    lines.append(f"    y = einx.{op}({pattern!r}, x{keywords})")
    if isinstance(result, tuple):
        lines.append(f"    z: Float[np.ndarray, {' '.join(map(str, result))!r}] = y")
    lines.append("    return y")
    return "\n".join(lines) + "\n"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@settings(max_examples=400, **SETTINGS)
@given(st.integers(0, 2**32 - 1))
def test_analyser_agrees_with_einx(seed: int) -> None:
    op, pattern, shape, kwargs = generate(seed)
    kind, out = run(op, pattern, shape, kwargs)
    src = render(op, pattern, shape, kwargs, out if kind == "ok" else None)
    found = [f for f in check_source(src, "gen.py") if f.code[:4] in ("SHP1", "SHP2", "SHP9")]
    on_call = [f for f in found if f.line == 8]
    elsewhere = [f for f in found if f.line != 8]
    assert not elsewhere, (src, [(f.line, f.code, f.message) for f in elsewhere])
    # a composition on the left with two names not given is einx's own reading (it may take the composition whole):
    # not read, as any form einops does not share
    left = pattern.split("->")[0]
    unread = any(len(set(g.split()) - set(kwargs)) > 1 for g in re.findall(r"\(([^()]*)\)", left))
    expected = kind == "raise" and op not in ("softmax", "log_softmax") and not unread
    assert bool(on_call) == expected, (src, out, [(f.code, f.message) for f in on_call])
    if kind == "ok" and not unread:
        # the result is known, not merely unreported: an annotation of one axis more is reported
        wrong = src.replace("z: Float[np.ndarray, '", "z: Float[np.ndarray, '7 ")
        assert [f.line for f in check_source(wrong, "gen.py") if f.code.startswith("SHP2")] == [9], wrong


def test_a_rank_error_after_attention_that_drops_the_heads() -> None:
    src = (
        "import einx\nimport torch\n\n\ndef f():\n"
        "    q = torch.zeros(1, 64, 4, 8)\n"
        "    sim = torch.einsum('b i h d, b j h d -> b h i j', q, q)\n"
        "    attn = einx.softmax('b h i [j]', sim)\n"
        "    out = torch.einsum('b h i j, b j h d -> b i d', attn, q)\n"
        "    return einx.rearrange('b n h d -> b n (h d)', out)\n"
    )
    found = [f for f in check_source(src, "ring.py") if f.code.startswith("SHP2")]
    assert [(f.line, f.code) for f in found] == [(10, "SHP201")], found
    assert "expects 4 dimensions but the input has 3" in found[0].message


@pytest.mark.parametrize(
    "call",
    [
        "einx.rearrange('b ... d -> b d ...', x)",  # an ellipsis: einx's own reading
        "einx.rearrange('b n d -> b n d 1', x)",  # a new axis
        "einx.rearrange('b n d, b n d -> b n (d + d)', x, x)",  # two inputs, a concatenation
        "einx.sum('b [n] d', x, keepdims=True)",
        "einx.rearrange('b n d -> b d n', x, q=3)",  # an unused size: einx ignores it, einops would raise
        "einx.mean('b n d -> b d', x)",
    ],
)
def test_other_forms_are_not_read(call: str) -> None:
    src = f"import einx\nimport numpy as np\n\n\ndef f():\n    x = np.zeros((2, 3, 4, 5))\n    y = {call}\n    return y.reshape(7)\n"
    assert not [f for f in check_source(src, "other.py") if f.code[:4] in ("SHP1", "SHP2")], call


ELEMENTWISE = ["add", "multiply", "where", "less", "maximum"]


def generate_elementwise(seed: int) -> tuple[str, str, list[tuple[int, ...] | None]]:
    r = random.Random(seed)
    names = r.sample(NAMES, r.randint(1, 4))
    sizes = {n: r.choice([1, 2, 3, 4]) for n in names}
    op = r.choice(ELEMENTWISE)
    n_inputs = 3 if op == "where" else 2
    exprs, shapes = [], []
    for i in range(n_inputs):
        if i == n_inputs - 1 and r.random() < 0.2:
            exprs.append("")  # a scalar
            shapes.append(None)
            continue
        part = [n for n in names if r.random() < 0.7] or names[:1]
        exprs.append(" ".join(part))
        shape = [sizes[n] for n in part]
        if r.random() < 0.1:
            shape = shape + [2]  # a wrong rank
        elif r.random() < 0.1:
            shape[r.randrange(len(shape))] = r.choice([1, 5])  # another size (a 1 does not broadcast)
        shapes.append(tuple(shape))
    out = sorted({n for e in exprs for n in e.split()}, key=names.index)
    if r.random() < 0.1 and len(out) > 1:
        out = out[1:]  # an input's name missing from the output
    return op, f"{', '.join(exprs)} -> {' '.join(out)}", shapes


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@settings(max_examples=300, **SETTINGS)
@given(st.integers(0, 2**32 - 1))
def test_elementwise_result_shapes_agree_with_einx(seed: int) -> None:
    op, pattern, shapes = generate_elementwise(seed)
    values = [np.zeros(s) if s is not None else 0.5 for s in shapes]
    try:
        want: tuple[int, ...] | None = tuple(getattr(einx, op)(pattern, *values).shape)
    except Exception:  # noqa: BLE001 - einx raises: nothing is said of the result
        want = None
    lines = ["import einx", "import numpy as np", "from jaxtyping import Shaped", "", "", "def f():"]
    for i, s in enumerate(shapes):
        lines.append(f"    x{i} = np.zeros({s!r})" if s is not None else f"    x{i} = 0.5")
    operands = ", ".join(f"x{i}" for i in range(len(shapes)))
    lines.append(f"    y = einx.{op}({pattern!r}, {operands})")
    # the result's shape as einx gives it, or a shape no call gives: a wrong inferred result would be reported
    dims = " ".join(map(str, want)) if want is not None else "97 89"
    lines.append(f"    z: Shaped[np.ndarray, {dims!r}] = y")
    src = "\n".join(lines) + "\n"
    found = [f for f in check_source(src, "gen.py") if f.code[:4] in ("SHP1", "SHP2", "SHP9")]
    ins, out = pattern.split("->")
    if want is not None:
        assert not found, (src, want, [(f.line, f.code, f.message) for f in found])
    if want is not None and set(ins.replace(",", " ").split()) == set(out.split()):
        # (einx also drops an input's axis of size 1 the output does not name: that form is not read)
        # the result is known, not merely unreported: an annotation of one axis more is reported
        wrong = src.replace(f"Shaped[np.ndarray, {dims!r}]", f"Shaped[np.ndarray, {(dims + ' 7').strip()!r}]")
        assert [f.line for f in check_source(wrong, "gen.py") if f.code.startswith("SHP2")] == [len(lines)], wrong
    else:
        assert not [f for f in found if f.line != len(lines)], src  # an unknown result: at most the annotation


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(
    "pattern, shapes",
    [
        ("b [h w] c, b p [2] -> b p c", [(2, 5, 6, 3), (2, 7, 2)]),
        ("b [h] [w] c, b p [2] -> b p c", [(2, 5, 6, 3), (2, 7, 2)]),
        ("[h w] c, p [2] -> p c", [(5, 6, 3), (4, 2)]),
        ("b [h w d] c, b p q [3] -> b p q c", [(1, 2, 3, 4, 5), (1, 6, 7, 3)]),
        ("b [h w] c, b p [2] -> b p c", [(2, 5, 6, 3), (2, 7, 3)]),  # 3 coordinates for 2 axes
        ("b [h w] c, b p [2] -> b p c", [(2, 5, 6), (2, 7, 2)]),  # a rank short
        ("b [h w] c, b p [2] -> b p c", [(2, 5, 6, 3), (3, 7, 2)]),  # b of two sizes
    ],
)
def test_get_at_over_several_axes(pattern: str, shapes: list[tuple[int, ...]]) -> None:
    x, idx = np.zeros(shapes[0]), np.zeros(shapes[1], dtype=np.int32)
    try:
        want: tuple[int, ...] | None = tuple(einx.get_at(pattern, x, idx).shape)
    except Exception:  # noqa: BLE001 - einx raises: nothing is said of the result
        want = None
    dims = " ".join(map(str, want)) if want is not None else "97 89"
    src = (
        "import einx\nimport numpy as np\nfrom jaxtyping import Shaped\n\n\ndef f():\n"
        f"    x = np.zeros({shapes[0]!r})\n    i = np.zeros({shapes[1]!r}, dtype=np.int32)\n"
        f"    y = einx.get_at({pattern!r}, x, i)\n    z: Shaped[np.ndarray, {dims!r}] = y\n"
    )
    assert not [f for f in check_source(src, "gen.py") if f.code[:4] in ("SHP1", "SHP2")], (src, want)
    if want is not None:  # the result is known: an annotation of one axis more is reported
        wrong = src.replace(f"Shaped[np.ndarray, {dims!r}]", f"Shaped[np.ndarray, {dims + ' 7'!r}]")
        assert [f.line for f in check_source(wrong, "gen.py") if f.code.startswith("SHP2")] == [10], wrong
