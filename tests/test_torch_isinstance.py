"""``isinstance(m, nn.Y)`` of a torch layer built as ``nn.X(...)``: the analyser's answer against torch's.

Walks over a model's modules (LoRA injection, weight initialisation, ``find_module``) pick modules by
``isinstance``; the analyser decides it from the class that built the layer and torch.nn's class hierarchy
(``layers.TORCH_NN_ANCESTORS``). Each generated program asks a few such questions; an answer is read back from the
size of a tensor built on it (2 when the analyser decides it true, 5 when false), and must be torch's.
"""

from __future__ import annotations

import random
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shapecheck.analysis.rules.layers import TORCH_NN_ANCESTORS
from shapecheck.core import check_source

torch = pytest.importorskip("torch")
nn = torch.nn

SETTINGS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))

# a constructor call for each layer class tried (arguments torch accepts)
BUILT = {
    "Linear": "nn.Linear(3, 4)",
    "Conv1d": "nn.Conv1d(3, 4, 3)",
    "Conv2d": "nn.Conv2d(3, 4, 3)",
    "ConvTranspose2d": "nn.ConvTranspose2d(3, 4, 3)",
    "BatchNorm1d": "nn.BatchNorm1d(4)",
    "BatchNorm2d": "nn.BatchNorm2d(4)",
    "SyncBatchNorm": "nn.SyncBatchNorm(4)",
    "InstanceNorm2d": "nn.InstanceNorm2d(4)",
    "LayerNorm": "nn.LayerNorm(4)",
    "GroupNorm": "nn.GroupNorm(2, 4)",
    "Embedding": "nn.Embedding(10, 4)",
    "Dropout": "nn.Dropout(0.1)",
    "Dropout2d": "nn.Dropout2d(0.1)",
    "ReLU": "nn.ReLU()",
    "ReLU6": "nn.ReLU6()",
    "Hardtanh": "nn.Hardtanh()",
    "GELU": "nn.GELU()",
    "SiLU": "nn.SiLU()",
    "MaxPool2d": "nn.MaxPool2d(2)",
    "AvgPool2d": "nn.AvgPool2d(2)",
    "AdaptiveAvgPool2d": "nn.AdaptiveAvgPool2d(1)",
    "LSTM": "nn.LSTM(4, 4)",
    "GRUCell": "nn.GRUCell(4, 4)",
    "ZeroPad2d": "nn.ZeroPad2d(1)",
    "ConstantPad2d": "nn.ConstantPad2d(1, 0.0)",
    "ReflectionPad2d": "nn.ReflectionPad2d(1)",
    "Upsample": "nn.Upsample(scale_factor=2)",
    "UpsamplingNearest2d": "nn.UpsamplingNearest2d(scale_factor=2)",
    "Identity": "nn.Identity()",
    "Flatten": "nn.Flatten()",
    "MSELoss": "nn.MSELoss()",
    "CrossEntropyLoss": "nn.CrossEntropyLoss()",
    "PixelShuffle": "nn.PixelShuffle(2)",
}

# every class asked about: the layers tried, and each torch.nn base of the layers the analysis builds (private ones
# imported from their torch.nn.modules module)
ASKED = sorted({*BUILT, *(b for bases in TORCH_NN_ANCESTORS.values() for b in bases), "Module"})


def _class_ref(name: str) -> tuple[str, str | None]:
    """How the program names the class, and the import it needs (None: ``nn.<name>``)."""
    cls = getattr(nn, name, None)
    if cls is not None:
        return f"nn.{name}", None
    for mod in ("batchnorm", "conv", "pooling", "dropout", "loss", "padding", "rnn", "instancenorm", "upsampling"):
        owner = getattr(nn.modules, mod)
        if hasattr(owner, name):
            return name, f"from torch.nn.modules.{mod} import {name}"
    raise LookupError(name)


def generate(seed: int) -> list[tuple[str, str]]:
    r = random.Random(seed)
    return [(r.choice(sorted(BUILT)), r.choice(ASKED)) for _ in range(6)]


def _check_questions(pairs: list[tuple[str, str]], ask: Callable[[int, str, str, object], tuple[str, bool]]) -> None:
    """One generated program asking each question of ``pairs`` (a layer class, a class asked about): ``ask`` gives
    the two lines binding ``n<i>`` and torch's answer; the analyser's answer is read back from the SHP204 on the
    ``torch.zeros(n<i>) + torch.zeros(3)`` after them (2: true, 5: false), and must be torch's."""
    imports = {"import torch", "from torch import nn"}
    body: list[str] = []
    expected: dict[int, bool] = {}
    for i, (built, asked) in enumerate(pairs):
        ref, imp = _class_ref(asked)
        if imp is not None:
            imports.add(imp)
        cls = getattr(nn, asked, None) or _privates()[asked]
        lines, expected[i] = ask(i, built, ref, cls)
        body += [lines, f"    torch.zeros(n{i}) + torch.zeros(3)"]
    head = sorted(imports)
    src = "\n".join([*head, "", "", "def test_case():", *body, ""])
    first = len(head) + 6  # the line of the first ``torch.zeros`` sum
    found = {f.line: f.message for f in check_source(src, "gen.py") if f.code == "SHP204"}
    for i, want in expected.items():
        line = first + 3 * i
        assert line in found, (src, i, "undecided")
        assert f"({2 if want else 5})" in found[line], (src, pairs[i], want, found[line])


@settings(max_examples=40, **SETTINGS)  # type: ignore[arg-type]
@given(st.integers(0, 2**32 - 1))
def test_isinstance_of_torch_layers_is_torchs(seed: int) -> None:
    def ask(i: int, built: str, ref: str, cls: object) -> tuple[str, bool]:
        module = eval(BUILT[built], {"nn": nn})  # the generator's own constructor text, on real torch
        lines = f"    m{i} = {BUILT[built]}\n    n{i} = 2 if isinstance(m{i}, {ref}) else 5"
        return lines, isinstance(module, cls)  # type: ignore[arg-type]

    _check_questions(generate(seed), ask)


def _privates() -> dict[str, object]:
    out: dict[str, object] = {}
    for mod in ("batchnorm", "conv", "pooling", "dropout", "loss", "padding", "rnn", "instancenorm", "upsampling"):
        out.update(vars(getattr(nn.modules, mod)))
    return out


def test_every_ancestor_is_torchs() -> None:
    """The table itself: each class's torch.nn bases are those of torch's MRO."""
    for name, bases in TORCH_NN_ANCESTORS.items():
        cls = getattr(nn, name)
        mro = tuple(b.__name__ for b in cls.__mro__[1:] if b.__module__.startswith("torch.nn") and b is not nn.Module)
        assert mro == bases, (name, mro, bases)


@settings(max_examples=30, **SETTINGS)  # type: ignore[arg-type]
@given(st.integers(0, 2**32 - 1))
def test_first_base_identity_is_torchs(seed: int) -> None:
    """``layer.__bases__[0] is C`` of a torch.nn class passed as a value (physicsnemo's HEALPixLayer pads only
    around a ``_ConvNd``): decided as torch decides it, however C is imported."""

    def ask(i: int, built: str, ref: str, cls: object) -> tuple[str, bool]:
        lines = f"    layer{i} = nn.{built}\n    n{i} = 2 if layer{i}.__bases__[0] is {ref} else 5"
        return lines, getattr(nn, built).__bases__[0] is cls

    r = random.Random(seed)
    _check_questions([(r.choice(sorted(BUILT)), r.choice(ASKED)) for _ in range(6)], ask)


def test_first_base_of_an_unknown_class_is_undecided() -> None:
    src = "\n".join(
        [
            "import torch",
            "from torch import nn",
            "",
            "",
            "def test_case(layer):",
            "    n = 2 if layer.__bases__[0] is nn.modules.conv._ConvNd else 5",
            "    torch.zeros(n) + torch.zeros(3)",
            "    m = 2 if nn.LazyBatchNorm2d.__bases__[0] is nn.Module else 5",
            "    torch.zeros(m) + torch.zeros(3)",
            "",
        ]
    )
    assert [f for f in check_source(src, "gen.py") if f.code.startswith(("SHP1", "SHP2"))] == []


def test_every_direct_base_is_torchs() -> None:
    """``C.__bases__`` as the analysis gives it, for every class of the table it answers for: torch's, exactly."""
    from shapecheck.analysis.rules.layers import torch_nn_direct_base

    answered = 0
    for name in TORCH_NN_ANCESTORS:
        base = torch_nn_direct_base(name)
        bases = getattr(nn, name).__bases__
        if base is None:
            assert len(bases) > 1, (name, bases)  # left undecided only where torch has several direct bases
            continue
        answered += 1
        assert [b.__name__ for b in bases] == [base], (name, bases, base)
    assert answered == len(TORCH_NN_ANCESTORS) - 1  # all but LazyBatchNorm2d
