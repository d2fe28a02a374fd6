"""Static versus runtime (issue 3, item 9): generated annotated functions making random einops calls.

shapecheck analyses the rendered source (never executed); the oracle runs the same calls, from the generator's data
structures, with einops 0.8.2 on torch tensors of the annotated shapes.  For every call line:

* concrete annotations, and symbolic ones bound to literal sizes by a first call: an SHP1xx/SHP2xx finding on the
  line exactly when the call raises; a call whose input is unknown because an earlier call raised must be silent;
* symbolic annotations ("b n 500"): a finding only where the call raises at every sampled positive assignment
  (3 random + all sizes 12) at which it is reached - never where any of them succeeds.

No SHP1xx/SHP2xx finding may sit on any other line, and no SHP9xx at all.  See tests/gen_programs.py.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _einops_errors import disagreement, einops_kind
from gen_programs import FEATURES, Program, assignments, generate, run
from shapecheck.core import check_source

torch = pytest.importorskip("torch")
torch.set_num_threads(1)  # tiny tensors: the thread pool only costs time, twice over under xdist

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
SEEDS = st.integers(0, 2**32 - 1)


def compare(prog: Program) -> dict:
    src = prog.source or prog.render()
    findings = [f for f in check_source(src, "gen.py") if f.code[:4] in ("SHP1", "SHP2", "SHP9")]
    runs = [run(prog, a) for a in assignments(prog, prog.seed)]
    calls = prog.call_lines()
    exact = prog.mode in ("concrete", "bound")
    problems = []
    flagged: dict = {}
    seen = set()
    for f in findings:
        key = (f.line, f.column, f.code, f.message)
        if key in seen:
            problems.append(f"reported twice: line {f.line}: {f.message}")
        seen.add(key)
        flagged.setdefault(f.line, []).append(f"{f.code} {f.message}")
        if f.code.startswith("SHP9"):
            problems.append(f"internal error: line {f.line}: {f.message}")
        elif f.line not in calls:
            problems.append(f"finding on a line without a call: line {f.line}: {f.message}")
    for line in calls:
        outs = [r[line] for r in runs]
        kinds = {o for o, _ in outs}
        has = line in flagged
        if has and "ok" in kinds:
            problems.append(f"false positive, line {line}: {flagged[line]}; einops succeeds ({[o for o, _ in outs]})")
        elif has and kinds == {"poison"} and (exact or any(o in flagged for _, origins in outs for o in origins)):
            problems.append(
                f"finding on a call whose input is unknown (an earlier call raised), line {line}: {flagged[line]}"
            )
        elif exact and not has and kinds == {"raise"}:
            problems.append(f"missed, line {line}: einops raises {outs[0][1]}")
        elif not has and kinds == {"raise"} and _same_sizes_everywhere([d for _, d in outs]):
            # symbolic: einops fails the same way, on the same sizes, at every sampled assignment -- the failure does
            # not depend on the unknown sizes, and the analysis must see it
            problems.append(f"missed, line {line}: einops raises {outs[0][1]} at every assignment")
        elif has and kinds == {"raise"}:
            # the kind of problem, and its sizes, are einops' own (a finding is not right just because the line fails)
            for f in findings:
                if f.line == line and not f.code.startswith("SHP1"):
                    why = disagreement(f.code, dict(f.fields) or None, outs[0][1])
                    if why is not None:
                        problems.append(f"line {line}: {why}")
    if problems:
        detail = "\n".join(problems)
        raise AssertionError(f"{detail}\n--- seed {prog.seed} mode {prog.mode} ---\n{src}")
    return {"lines": len(calls), "raise": sum(1 for line in calls if runs[0][line][0] == "raise")}


def _same_sizes_everywhere(errors: list[str]) -> bool:
    kinds = {einops_kind(e) for e in errors}
    return len(kinds) == 1 and next(iter(kinds)).numbers != ()


def check_seed(seed: int, mode: str, features: tuple = FEATURES) -> None:
    prog = generate(seed, mode, features)
    compare(prog)


@settings(max_examples=300, **SETTINGS)
@given(SEEDS)
def test_concrete(seed: int) -> None:
    check_seed(seed, "concrete")


@settings(max_examples=120, **SETTINGS)
@given(SEEDS)
def test_bound_by_first_call(seed: int) -> None:
    check_seed(seed, "bound")


@settings(max_examples=220, **SETTINGS)
@given(SEEDS)
def test_symbolic(seed: int) -> None:
    check_seed(seed, "symbolic")


@settings(max_examples=120, **SETTINGS)
@given(SEEDS)
def test_layers_and_pack(seed: int) -> None:
    check_seed(seed, "concrete", ("layers", "pack", "lists"))


def test_generator_is_meaningful() -> None:
    """The generated cases exercise every operation and mutation family, and both outcomes, in quantity."""
    outcomes: dict = {}
    cats: set = set()
    for seed in range(150):
        for mode in ("concrete", "symbolic"):
            prog = generate(seed, mode)
            cats |= prog.categories()
            for o, _ in run(prog, assignments(prog, seed)[0]).values():
                outcomes[o] = outcomes.get(o, 0) + 1
    assert outcomes.get("ok", 0) > 300 and outcomes.get("raise", 0) > 150, outcomes
    for op in (
        "rearrange",
        "reduce",
        "repeat",
        "einsum",
        "pack",
        "unpack",
        "parse_shape",
        "layers",
        "rearrange[list]",
        "layer:Linear",
    ):
        assert op in cats, op
    for mut in (
        "syntax",
        "rank_extra",
        "rank_drop",
        "nondiv",
        "contradict",
        "unused",
        "missing_kw",
        "reduction",
        "size",
        "list_member",
        "outer",
        "unpack_sizes",
        "linear_in",
    ):
        assert "mut:" + mut in cats, mut


# the einops rules registered in rules/registry.py that the generator does not produce, each with the reason
EINOPS_UNEXERCISED = {
    "layer:EinMix": "a layer with a learned weight whose output shape is not modelled: its construction check is "
    "compared with einops' own in tests/test_pattern_rules.py, its backends in tests/fixtures/frameworks/",
}


def test_every_registered_einops_op_is_generated() -> None:
    """Every einops function and layer class a rule is registered for is generated, or has a reason above."""
    from shapecheck.analysis.rules.registry import EINOPS_FUNCTIONS, EINOPS_LAYERS

    cats: set = set()
    for seed in range(150):
        for mode in ("concrete", "symbolic"):
            cats |= generate(seed, mode).categories()
    registered = EINOPS_FUNCTIONS.names() | {f"layer:{name}" for name in EINOPS_LAYERS}
    assert {"rearrange", "pack", "layer:Rearrange", "layer:EinMix"} <= registered, registered
    missing = sorted(registered - cats - set(EINOPS_UNEXERCISED))
    assert not missing, (
        f"einops rules no generated program exercises (extend gen_programs.py, or give a reason): {missing}"
    )
    assert not set(EINOPS_UNEXERCISED) - registered, "a reason for an op that is no longer registered"


# ------------------------------------------------------------------------------------ former disagreements
# Minimal reproducers of disagreements found by the generator and by probes, kept as regression tests.

REPEAT_ZERO = """import torch
from torch import Tensor
from einops import repeat
from jaxtyping import Float


def f(x: Float[Tensor, "2"]):
    a = repeat(x, "i -> i e", e=0)
    b = repeat(x, "i -> i e", e=-1)
    return a, b
"""


def test_repeat_nonpositive_new_axis_is_legal() -> None:
    """einops 0.8.2 accepts a new repeat axis of length 0 or -1 (shapes (2, 0) and (2, 1)): no finding."""
    import einops
    import torch

    x = torch.zeros(2)
    assert einops.repeat(x, "i -> i e", e=0).shape == (2, 0)  # shapecheck: ignore[SHP105]
    assert einops.repeat(x, "i -> i e", e=-1).shape == (2, 1)  # shapecheck: ignore[SHP105]
    lines = {f.line for f in check_source(REPEAT_ZERO, "gen.py") if f.code[:4] in ("SHP1", "SHP2")}
    assert not lines, lines


# Found by hand-written probes next to the generator (the generator itself makes neither tuples of tensors, empty
# lists nor float lengths). A float length stays silent on purpose: einops accepts it where no reshape needs it
# (`rearrange(x, "b c -> c b", c=2.0)` succeeds), so only some float lengths fail.
PROBES = {
    "tuple-of-tensors": ('rearrange((x, x), "l a b -> a (l b)")', "RuntimeError: Tensor type unknown to einops"),
    "empty-list": ('rearrange([], "l a b -> a (l b)")', "TypeError: can't be applied to an empty list"),
    "float-axis-length": ('repeat(x, "a b -> a b c", c=2.0)', "TypeError: expand(): argument 'size' failed"),
}
SILENT_BY_DESIGN = {"float-axis-length"}


@pytest.mark.parametrize("name", sorted(PROBES))
def test_probe(name: str) -> None:
    import einops

    call, _ = PROBES[name]
    src = (
        "import torch\nfrom torch import Tensor\nfrom einops import rearrange, repeat\n"
        "from jaxtyping import Float\n\n\n"
        f'def f(x: Float[Tensor, "2 1"]):\n    r = {call}\n    return r\n'
    )
    with pytest.raises(Exception):
        eval(call, {"x": torch.zeros(2, 1), "rearrange": einops.rearrange, "repeat": einops.repeat})
    lines = {f.line for f in check_source(src, "gen.py") if f.code[:4] in ("SHP1", "SHP2")}
    if name in SILENT_BY_DESIGN:
        assert not lines, (name, lines)
    else:
        assert 8 in lines, (name, lines)
