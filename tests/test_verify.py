"""`shapecheck check --verify`: every definite finding of the fixture suite is confirmed by replaying its failing
operation; a wrong symbolic claim is caught, downgraded to a warning and counted."""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from fixture_format import FIXTURES, multi_fixtures, split_multi
from shapecheck.analysis.interpret.context import OpSpec
from shapecheck.diagnostics import Finding, Severity, Witness
from shapecheck.hosts.formats import render_text
from shapecheck.sizes import Size
from shapecheck.verify import verify_findings, verify_witness
from shapecheck.witness import build_witness

ROOT = Path(__file__).resolve().parent.parent


def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(
        [sys.executable, "-m", "shapecheck", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def _materialise_fixtures(tmp: Path) -> Path:
    """The whole fixture suite in one tree: single files copied, multi-file cases unpacked each in its folder."""
    tree = tmp / "fixtures"
    for p in FIXTURES.rglob("*.py"):
        target = tree / p.relative_to(FIXTURES)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(p.read_bytes())
    for p in multi_fixtures():
        base = tree / (p.relative_to(FIXTURES).with_suffix(""))
        for name, content in split_multi(p.read_text("utf-8")).items():
            target = base / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, "utf-8")
    return tree


def test_every_fixture_finding_is_confirmed(tmp_path: Path) -> None:
    tree = _materialise_fixtures(tmp_path)
    proc = _cli(["check", "--verify", "--no-cache", "--format", "json", str(tree)], tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    findings = json.loads(proc.stdout)
    definite = [f for f in findings if f["code"].startswith("SHP2")]
    assert len(definite) >= 20
    problems = []
    for f in definite:
        where = f"{f['path']}:{f['line']} {f['code']}"
        if "witness" not in f:
            problems.append(f"{where}: no witness")
            continue
        w = f["witness"]
        # a constructor that rejects its own sizes (nn.GroupNorm(8, 12)) fails before any input exists
        # (and so does an array constructor given a negative size, and an assertion on integers, SHP207)
        has_input = w["input_shapes"] or w["op"] in ("layer.arguments", "array.new", "assert")
        # sizes are whole numbers; a 0 comes only from the code itself (an empty slice), never from a chosen size
        assert has_input and all(isinstance(x, int) and x >= 0 for s in w["input_shapes"] for x in s), where
        if f.get("verified") is not True:
            problems.append(f"{where}: not confirmed: {f['notes'][-1]}")
        assert f["severity"] == "error", where
    assert not problems, "\n".join(problems)
    # findings of other families carry no verdict
    assert all("verified" not in f for f in findings if not f["code"].startswith("SHP2"))
    assert f"{len(definite)} definite findings replayed, {len(definite)} confirmed, 0 not confirmed" in proc.stderr


def test_text_output_says_confirmed(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text(
        "from einops import rearrange\nfrom jaxtyping import Float\nfrom torch import Tensor\n\n\n"
        'def f(x: Float[Tensor, "b n 500"]):\n    return rearrange(x, "b n (h d) -> b h n d", h=8)\n',
        "utf-8",
    )
    proc = _cli(["check", "--verify", "--no-cache", str(src)], tmp_path)
    assert "SHP203" in proc.stdout
    assert "note: with b=2, n=3" in proc.stdout
    assert "confirmed by replaying the operation" in proc.stdout
    assert "1 definite finding replayed, 1 confirmed, 0 not confirmed" in proc.stderr


def _finding(w: Witness | None, code: str = "SHP203", message: str = "SHP203 hand-made claim") -> Finding:
    return Finding("hand.py", 3, 5, 3, 20, code, message, ("a note",), witness=w)


def test_wrong_symbolic_claim_is_caught_downgraded_and_counted() -> None:
    # a claim "b (h d) with h=4 cannot be split" over an axis 4*n: the split always works
    n = Size.sym("n@hand")
    spec = OpSpec(
        "rearrange",
        "b (h d) -> b h d",
        ((Size.sym("b@hand"), n * 4),),
        (("h", Size.const(4)),),
        (("reduction", None), ("stacked", False)),
    )
    wrong = build_witness(spec)
    assert wrong is not None and wrong.input_shapes[0][1] % 4 == 0
    right = build_witness(
        OpSpec(
            "rearrange",
            "b (h d) -> b h d",
            ((Size.sym("b@hand"), n * 4 + 1),),
            (("h", Size.const(4)),),
            (("reduction", None), ("stacked", False)),
        )
    )
    other = Finding("hand.py", 9, 1, 9, 2, "SHP401", "SHP401 not definite")
    err = io.StringIO()
    out = verify_findings([_finding(wrong), _finding(right), other], stream=err)
    bad, good, untouched = out
    assert bad.verified is False and bad.effective_severity is Severity.WARNING
    assert "shapecheck bug" in bad.notes[-1] and "downgraded to a warning" in bad.notes[-1]
    assert "einops" in bad.notes[-1] and "accepted it" in bad.notes[-1]
    assert good.verified is True and good.effective_severity is Severity.ERROR
    assert untouched.verified is None and untouched == other
    assert "2 definite findings replayed, 1 confirmed, 1 not confirmed" in err.getvalue()
    assert json.loads(json.dumps(bad.to_json()))["verified"] is False
    text = render_text(out)
    assert text.count("confirmed by replaying") == 1
    assert "warning" in bad.to_json()["severity"]


@pytest.mark.parametrize(
    "witness",
    [
        Witness((("b", 2),), "matmul", None, ((2, 3, 4), (2, 4, 5))),  # inner dims agree
        Witness((("b", 2),), "elementwise", None, ((2, 1, 4), (2, 5, 4)), (), (("name", "*"),)),  # broadcasts
        Witness((), "cat", None, ((2, 3), (2, 4)), (), (("dim", 1),)),  # differs only on dim
        Witness((), "reshape", None, ((2, 3, 5),), (), (("target", (-1, 5)),)),
        Witness((), "loss", None, ((2, 3), (2, 3)), (), (("name", "mse_loss"),)),
        Witness((), "nn.Linear", None, ((2, 7),), (), (("in_features", 7), ("out_features", 3))),
        Witness((("b", 2),), "annotation", None, ((2, 3),), (), (("dims", "b 3"), ("memo", (("b", 2),)))),
        Witness((), "annotation", None, ((3, 3),), (), (("dims", "n n"), ("params", (("x", "n n"),)))),
        Witness((), "einsum", "b n d, b m d -> b n m", ((2, 3, 4), (2, 5, 4))),
        Witness((), "unpack", "b *", ((2, 7),), (), (("packed_shapes", ((3,), (4,))),)),
        Witness((), "array.new", None, (), (), (("shape", (2, 0, 3)), ("name", "zeros"))),  # an empty axis is a size
        Witness((), "eqx.nn.Embedding", None, ((),), (), (("num_embeddings", 4), ("embedding_size", 2))),  # a scalar
        Witness((), "pad.arguments", None, ((2, 3, 5),), (), (("op", "F.pad"), ("count", 6))),
        Witness((), "dim.range", None, ((4, 16),), (), (("dim", -2), ("extra", 0), ("framework", "numpy"))),
        Witness((), "index.count", None, ((4, 16),), (), (("count", 2), ("framework", "torch"))),
        Witness((), "index.count", None, ((4, 16, 2),), (), (("count", 3), ("framework", "numpy"))),
        Witness((), "dim.range", None, ((4, 16),), (), (("dim", 2), ("extra", 1), ("framework", "jax"))),
        Witness((), "pad.arguments", None, ((4, 5, 3),), (), (("op", "np.pad"), ("width", (3, 2)))),
        Witness((), "pad.arguments", None, ((4, 5, 3),), (), (("op", "np.pad"), ("width", (1, 2)))),
        Witness((), "pad.arguments", None, ((4, 5, 3),), (), (("op", "np.pad"), ("width", (2,)))),
        Witness((), "pad.arguments", None, ((4, 5),), (), (("op", "jnp.pad"), ("width", (2, 2)))),
        Witness(
            (),
            "pad.arguments",
            None,
            ((2, 5, 5, 3),),
            (),
            (("op", "lax.reduce_window"), ("pairs", (2,) * 4), ("axes", 4)),
        ),
        Witness(
            (),
            "pad.arguments",
            None,
            ((2, 3, 5, 5), (4, 3, 2, 2)),
            (),
            (("op", "lax.conv_general_dilated"), ("pairs", (2, 2)), ("axes", 2)),
        ),
        # the pieces a chunk / split / unbind cuts, as many as the names (5 in chunks of 2: 3 pieces)
        Witness((), "unpack.pieces", None, ((5,),), (), (("how", ("chunk", 4)), ("dim", 0), ("names", 3))),
        Witness((), "unpack.pieces", None, ((4, 8, 16),), (), (("how", ("split", 6)), ("dim", 2), ("names", 3))),
        Witness((), "unpack.pieces", None, ((4, 8),), (), (("how", ("unbind",)), ("names", 2), ("starred", True))),
        Witness(
            (),
            "unpack.pieces",
            None,
            ((12, 5),),
            (),
            (("how", ("indices", (4, 8))), ("dim", 0), ("names", 3), ("framework", "numpy")),
        ),
    ],
)
def test_operations_that_succeed_are_not_confirmed(witness: Witness) -> None:
    replay = verify_witness(witness)
    assert not replay.confirmed, replay.summary()
    assert any(r is False for _, r, _ in replay.engines)


@pytest.mark.parametrize(
    "extra, shapes, engine",
    [
        ((("op", "F.pad"), ("count", 5)), ((2, 3, 5),), "torch"),  # odd
        ((("op", "np.pad"), ("width", (2, 2))), ((4, 5, 3),), "numpy"),  # a pair per axis of a 2-d input
        ((("op", "np.pad"), ("width", (3,))), ((4, 5, 3),), "numpy"),
        ((("op", "jnp.pad"), ("width", (2, 2))), ((4, 5, 3),), "jax"),
        ((("op", "F.pad"), ("count", 8)), ((2, 3, 5),), "torch"),  # four pairs for three axes
        ((("op", "lax.reduce_window"), ("pairs", (2, 2)), ("axes", 4)), ((2, 5, 5, 3),), "jax"),
        ((("op", "lax.reduce_window"), ("pairs", (2, 3, 2, 2)), ("axes", 4)), ((2, 5, 5, 3),), "jax"),
        ((("op", "lax.conv_general_dilated"), ("pairs", (3, 3)), ("axes", 2)), ((2, 3, 5, 5), (4, 3, 2, 2)), "jax"),
        ((("op", "lax.conv_general_dilated"), ("pairs", (2,)), ("axes", 2)), ((2, 3, 5, 5), (4, 3, 2, 2)), "jax"),
    ],
)
def test_padding_arguments_are_rejected_by_the_framework(extra: tuple, shapes: tuple, engine: str) -> None:
    if engine == "jax":
        pytest.importorskip("jax")
    replay = verify_witness(Witness((), "pad.arguments", None, shapes, (), extra))
    assert replay.confirmed, replay.summary()
    assert any(name.startswith(engine) and r is True for name, r, _ in replay.engines), replay.summary()


@pytest.mark.parametrize("dim, extra", [(2, 0), (-3, 0), (3, 1), (-4, 1)])
def test_axis_outside_an_array_is_rejected_by_numpy(dim: int, extra: int) -> None:
    replay = verify_witness(
        Witness((), "dim.range", None, ((4, 16),), (), (("dim", dim), ("extra", extra), ("framework", "numpy")))
    )
    assert replay.confirmed, replay.summary()
    assert any(name == "numpy" and r is True for name, r, _ in replay.engines), replay.summary()


@pytest.mark.parametrize("framework, engine", [("torch", "torch"), ("numpy", "numpy"), ("jax", "numpy")])
def test_too_many_indices_are_rejected(framework: str, engine: str) -> None:
    replay = verify_witness(Witness((), "index.count", None, ((4, 16),), (), (("count", 3), ("framework", framework))))
    assert replay.confirmed, replay.summary()
    assert any(name == engine and r is True for name, r, _ in replay.engines), replay.summary()


def test_replays_are_free_for_huge_shapes() -> None:
    # shapes of 10**15 elements: a replay that allocated them would fail; it runs on shapes only (meta tensors), so
    # the process's peak memory barely moves (memory, not time: a wall-clock bound fails at random on a busy machine)
    w = Witness((), "matmul", None, ((100_000, 100_000, 100_000), (100_000, 7, 100_000)))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    replay = verify_witness(w)
    assert replay.confirmed, replay.summary()
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 512 * (2**20 if sys.platform == "darwin" else 2**10)  # bytes on macOS, KiB on Linux
    w = Witness(
        (),
        "rearrange",
        "b (h d) -> b h d",
        ((1_000_000, 10**9 + 1),),
        (("h", 8),),
        (("reduction", None), ("stacked", False)),
    )
    assert verify_witness(w).confirmed


def test_finding_from_an_old_cache_gets_its_witness_back(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text(
        "import torch\nfrom jaxtyping import Float\nfrom torch import Tensor\n\n\n"
        'def f(x: Float[Tensor, "b n 64"], y: Float[Tensor, "b 32 n"]):\n    return x @ y\n',
        "utf-8",
    )
    from shapecheck.config import Config
    from shapecheck.runner import run

    (found,) = [f for f in run([src], Config(root=str(tmp_path)), jobs=1, use_cache=False) if f.code.startswith("SHP2")]
    assert found.witness is not None and found.witness.op == "matmul"
    stale = found.with_(witness=None)
    (out,) = verify_findings([stale], stream=io.StringIO())
    assert out.verified is True and out.witness == found.witness
