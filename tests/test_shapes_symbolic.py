"""The shape function on symbolic sizes: examples, and soundness against einops at concrete assignments."""

from __future__ import annotations

import random
from fractions import Fraction

import einops
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck.pattern import Inferred, Problem, infer
from shapecheck.sizes import Size

from _einops_cases import Case, einsum_cases, pack_cases, parse_shape_cases, transform_cases
from test_runtime_differential import execute, output_shapes

B, H, W, N = (Size.sym(x) for x in "BHWN")
VIT = "b c (h p1) (w p2) -> b (h w) (p1 p2 c)"


def test_vit_patches_concrete_and_symbolic_batch() -> None:
    r = infer("rearrange", VIT, [(B, 3, 224, 224)], axes_lengths={"p1": 16, "p2": 16})
    assert isinstance(r, Inferred)
    assert r.outputs == ((B, Size.const(196), Size.const(768)),)
    assert r.axes["h"] == Size.const(14) and r.axes["b"] == B


def test_vit_not_divisible() -> None:
    r = infer("rearrange", VIT, [(B, 3, 225, 224)], axes_lengths={"p1": 16, "p2": 16})
    assert isinstance(r, Problem) and r.code == "SHP203"
    assert "225" in r.message() and "16" in r.message()
    assert set(r.fields) == {"axis", "size", "chunk", "pattern"}


def test_vit_symbolic_image() -> None:
    r = infer("rearrange", VIT, [(B, 3, H, W)], axes_lengths={"p1": 16, "p2": 16})
    assert isinstance(r, Inferred)
    ((b, hw, d),) = r.outputs
    assert b == B and d == Size.const(768)
    assert hw == H.exact_div(16) * W.exact_div(16)
    assert any("divisible by 16" in a for a in r.assumptions)


def test_symbolic_divisibility_is_definite() -> None:
    r = infer("rearrange", "(h p) -> h p", [(16 * H + 1,)], axes_lengths={"p": 16})
    assert isinstance(r, Problem) and r.code == "SHP203"
    r = infer("rearrange", "(h p) -> h p", [(16 * H,)], axes_lengths={"p": 16})
    assert isinstance(r, Inferred) and r.outputs == ((H, Size.const(16)),) and r.assumptions == ()


def test_rank_and_length_problems() -> None:
    r = infer("rearrange", "b c h w -> b (c h w)", [(B, 3, H)])
    assert isinstance(r, Problem) and r.code == "SHP201"
    assert r.fields == {
        "what": 'rearrange pattern "b c h w -> b (c h w)"',
        "expected": "4",
        "subject": "the input",
        "actual": 3,
    }
    r = infer("rearrange", "b ... c -> b c ...", [(B,)])
    assert isinstance(r, Problem) and r.fields["expected"] == ">= 2"
    r = infer("rearrange", "b (c p) -> b c p", [(B, 6)], axes_lengths={"c": 4, "p": 2})
    assert isinstance(r, Problem) and r.code == "SHP202"
    r = infer("rearrange", "b (c p) -> b c p", [(B, N)], axes_lengths={"c": 4, "p": 2})
    assert isinstance(r, Inferred) and r.assumptions == ("N == 8",)


def test_einsum_symbolic() -> None:
    r = infer("einsum", "b i d, b j d -> b i j", [(B, N, 64), (B, N, 32)])
    assert isinstance(r, Problem) and r.code == "SHP204" and r.axis == "d"
    r = infer("einsum", "b i d, b j d -> b i j", [(B, N, 64), (B, H, 64)])
    assert isinstance(r, Inferred) and r.outputs == ((B, N, H),)
    r = infer("einsum", "b i d, b j d -> b i j", [(B, N, 64), (1, H, 64)])  # size 1 broadcasts
    assert isinstance(r, Inferred) and r.outputs == ((B, N, H),)


def test_pack_unpack_parse_shape_symbolic() -> None:
    r = infer("pack", "b * d", [(B, H, 8), (B, 8)])
    assert isinstance(r, Inferred) and r.outputs == ((B, H + 1, Size.const(8)),)
    r = infer("pack", "b * d", [(B, H, 8), (B, 4)])
    assert isinstance(r, Problem) and r.code == "SHP204"
    r = infer("unpack", "b * d", [(B, N + 1, 8)], packed_shapes=[(1,), (-1,)])
    assert isinstance(r, Inferred) and r.outputs[1] == (B, N, Size.const(8))
    r = infer("parse_shape", "b _ h", [(B, 3, H)])
    assert isinstance(r, Inferred) and r.axes == {"b": B, "h": H} and r.outputs == ()
    r = infer("parse_shape", "b 1", [(B, 3)])
    assert isinstance(r, Problem) and r.code == "SHP202"


def test_repeat_list_and_layers() -> None:
    r = infer("repeat", "h w -> h w c", [(H, W)], axes_lengths={"c": 3})
    assert isinstance(r, Inferred) and r.outputs == ((H, W, Size.const(3)),)
    r = infer("rearrange", "n h w -> h (n w)", [(H, W), (H, W)], stacked_list=True)
    assert isinstance(r, Inferred) and r.outputs == ((H, 2 * W),)
    r = infer("rearrange", "n h w -> h (n w)", [(H, W), (H, 2 * W)], stacked_list=True)
    assert isinstance(r, Problem) and r.code == "SHP204"
    r = infer("layer_rearrange", "b ... -> ... b", [(1,) * 9])
    assert isinstance(r, Problem) and r.code == "SHP201"  # einops layers precompute 8 ellipsis ranks
    assert isinstance(infer("reduce", "b c -> b", [(B, 3)], reduction=None), Inferred)


def test_fresh_symbol_for_unrepresentable_quotient() -> None:
    made = []

    def fresh(name: str) -> Size:
        made.append(name)
        return Size.sym("fresh_" + name)

    r = infer("rearrange", "(h p) -> h p", [(W,)], axes_lengths={"p": H + 1}, fresh=fresh)
    assert isinstance(r, Inferred) and made == ["h"] and r.outputs == ((Size.sym("fresh_h"), H + 1),)


# ---- property: symbolic results are sound at concrete assignments --------------------------------------


def _symbolize(case: Case, rng: random.Random) -> tuple[list, dict, list]:
    """Replace some dims by symbols; returns (symbolic shapes, symbolic kwargs, list of (symbol, original))."""
    env = []
    shapes = []
    for i, s in enumerate(case.shapes):
        new = []
        for j, d in enumerate(s):
            if rng.random() < 0.4:
                name = f"s{i}_{j}"
                env.append((name, d))
                new.append(Size.sym(name))
            else:
                new.append(d)
        shapes.append(new)
    kwargs = {}
    for k, v in case.kwargs.items():
        if rng.random() < 0.3:
            env.append((f"k_{k}", v))
            kwargs[k] = Size.sym(f"k_{k}")
        else:
            kwargs[k] = v
    return shapes, kwargs, env


def _concretize(case: Case, shapes: list, kwargs: dict, env: dict) -> Case:
    ev = lambda x: int(x.evaluate(env)) if isinstance(x, Size) else x  # noqa: E731
    return Case(
        case.op,
        case.pattern,
        [[ev(x) for x in s] for s in shapes],
        {k: ev(v) for k, v in kwargs.items()},
        case.reduction,
        case.as_list,
        case.packed_shapes,
    )


def check_symbolic(case: Case) -> None:
    rng = random.Random(repr(case))
    shapes, kwargs, env_pairs = _symbolize(case, rng)
    reduction = case.reduction if isinstance(case.reduction, str) or case.reduction is None else "sum"
    result = infer(
        case.op,
        case.pattern,
        shapes,
        axes_lengths=kwargs,
        reduction=reduction,
        stacked_list=case.as_list,
        packed_shapes=case.packed_shapes,
    )
    if isinstance(result, Problem):
        result.message()
    envs = [dict(env_pairs), {k: rng.randint(1, 6) for k, _ in env_pairs}]
    for env in envs:
        concrete = _concretize(case, shapes, kwargs, env)
        outcome = execute(einops, concrete)
        if isinstance(result, Problem):
            assert outcome[0] == "raise", f"{concrete}: infer says {result.message()} but einops returns"
            continue
        if outcome[0] != "ok" or case.op == "parse_shape":
            continue
        if case.op == "einsum" and any("or one of them is 1" in a for a in result.assumptions):
            continue
        want = output_shapes(concrete, outcome)
        got = []
        for shape in result.outputs:
            if any(not s.free_symbols() <= env.keys() for s in shape):
                break
            got.append(tuple(s.evaluate(env) for s in shape))
        else:
            if any(x < 0 or x.denominator != 1 for shape in got for x in shape):
                continue  # an assumption (sizes are positive, quotients exact) does not hold here

            assert [tuple(Fraction(x) for x in s) for s in want] == got, (concrete, result)


SET = dict(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)


@settings(max_examples=600, **SET)
@given(transform_cases())
def test_symbolic_transform_sound(case: Case) -> None:
    check_symbolic(case)


@settings(max_examples=500, **SET)
@given(st.one_of(einsum_cases(), pack_cases(), parse_shape_cases()))
def test_symbolic_other_sound(case: Case) -> None:
    check_symbolic(case)
