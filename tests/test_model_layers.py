"""The layers model code adds (pools, upsampling, recurrent layers, transformer encoders, MultiheadAttention): the
shape the analyser infers for each call below is the shape torch computes when the same source runs.

Each case is one module-level statement ``y = <expr>`` over ``torch`` / ``nn`` / ``F``; the analyser never imports
or runs it, the test does (torch is the oracle)."""

from __future__ import annotations

import pytest

from shapecheck.analysis.editor.hover import inferred_values
from shapecheck.analysis.interpret.values import SeqV, TensorV

torch = pytest.importorskip("torch")

CASES = [
    "nn.MaxPool2d(2)(torch.randn(2, 3, 28, 28))",
    "nn.MaxPool2d(3, stride=2, padding=1)(torch.randn(2, 3, 15, 15))",
    "nn.MaxPool2d((2, 3), dilation=2)(torch.randn(2, 3, 28, 28))",
    "nn.MaxPool1d(2)(torch.randn(2, 3, 9))",
    "nn.MaxPool2d(3, stride=2, ceil_mode=True)(torch.randn(2, 3, 48, 47))",
    "nn.MaxPool2d(3, stride=1, padding=1, ceil_mode=True)(torch.randn(2, 3, 12, 12))",
    "nn.AvgPool2d(2, ceil_mode=True)(torch.randn(2, 3, 7, 8))",
    "F.max_pool2d(torch.randn(2, 3, 15, 15), 3, 2, 1, ceil_mode=True)",
    "nn.AvgPool2d(kernel_size=3, stride=1)(torch.randn(2, 3, 28, 28))",
    "nn.AvgPool3d(2)(torch.randn(1, 2, 8, 9, 10))",
    "F.max_pool2d(torch.randn(2, 3, 16, 16), kernel_size=4, stride=1, padding=2)",
    "F.max_pool2d(torch.randn(2, 3, 15, 15), 3, 2, 1)",
    "F.max_pool1d(torch.randn(2, 3, 9), 2)",
    "F.max_pool2d(torch.randn(3, 16, 16), (2, 3), dilation=2)",
    "F.avg_pool2d(torch.randn(2, 3, 28, 28), kernel_size=3, stride=1, count_include_pad=False)",
    "F.avg_pool3d(torch.randn(1, 2, 8, 9, 10), 2)",
    "F.avg_pool1d(input=torch.randn(2, 3, 10), kernel_size=3, padding=1)",
    "nn.ReplicationPad1d((0, 4))(torch.randn(2, 3, 10))",
    "nn.ReflectionPad2d(2)(torch.randn(3, 8, 9))",
    "nn.ZeroPad2d((1, 2, 3, 4))(torch.randn(2, 3, 8, 9))",
    "nn.ConstantPad3d(1, 0.5)(torch.randn(1, 2, 3, 4, 5))",
    "nn.ConstantPad1d((-1, 2), 0.0)(torch.randn(2, 6))",
    "nn.CircularPad2d(padding=(1, 1, 2, 0))(torch.randn(1, 2, 5, 5))",
    "nn.ReplicationPad3d((1, 0, 0, 1, 2, 2))(torch.randn(2, 2, 3, 4, 5))",
    "nn.AdaptiveAvgPool2d((1, 1))(torch.randn(2, 3, 28, 28))",
    "nn.AdaptiveAvgPool2d(7)(torch.randn(3, 28, 28))",
    "nn.AdaptiveMaxPool2d((None, 5))(torch.randn(2, 3, 28, 28))",
    "nn.Upsample(scale_factor=2, mode='nearest')(torch.randn(1, 4, 8, 8))",
    "nn.Upsample(size=(7, 9))(torch.randn(1, 4, 8, 8))",
    "F.interpolate(torch.randn(1, 4, 16, 16), size=(32, 32), mode='bilinear', align_corners=False)",
    "F.interpolate(torch.randn(1, 4, 16, 16), scale_factor=0.5)",
    "F.interpolate(torch.randn(2, 3, 10), size=4)",
    "F.interpolate(torch.randn(1, 4, 14, 14), scale_factor=(14 / 14.0, 61 / 14.0), mode='bicubic')",
    "F.interpolate(torch.randn(1, 4, 14, 14), scale_factor=(1.5, 61 / 14.0))",
    "1j * torch.randn(2, 3) + torch.randn(3)",
    "torch.randn(2, 3) * -2.5j",
    "nn.LSTM(8, 16, 2, batch_first=True, bidirectional=True)(torch.randn(4, 5, 8))[0]",
    "nn.LSTM(8, 16, 2, batch_first=True, bidirectional=True)(torch.randn(4, 5, 8))[1][0]",
    "nn.GRU(8, 16)(torch.randn(5, 4, 8))[1]",
    "nn.RNN(8, 16, num_layers=3)(torch.randn(5, 8))[1]",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 4, 32, batch_first=True), 2)(torch.randn(2, 7, 16))",
    "nn.MultiheadAttention(16, 4, batch_first=True)(torch.randn(2, 5, 16), torch.randn(2, 9, 16), torch.randn(2, 9, 16))[0]",
    "nn.MultiheadAttention(16, 4, kdim=8, vdim=8)(torch.randn(5, 2, 16), torch.randn(9, 2, 8), torch.randn(9, 2, 8))[0]",
    "nn.MultiheadAttention(16, 4, batch_first=True)(torch.randn(2, 5, 16), torch.randn(2, 9, 16), torch.randn(2, 9, 16))[1]",
    "nn.MultiheadAttention(16, 4)(torch.randn(5, 2, 16), torch.randn(9, 2, 16), torch.randn(9, 2, 16))[1]",
    "nn.MultiheadAttention(16, 4)(torch.randn(5, 16), torch.randn(9, 16), torch.randn(9, 16), average_attn_weights=False)[1]",
    "nn.MultiheadAttention(16, 4, batch_first=True)(torch.randn(2, 5, 16), torch.randn(2, 9, 16), torch.randn(2, 9, 16), None, True, None, False)[1]",
    "nn.LSTM(8, 16, 2, batch_first=True, proj_size=4)(torch.randn(3, 5, 8))[0]",
    "nn.LSTM(8, 16, 2, bidirectional=True, proj_size=4)(torch.randn(5, 3, 8))[1][0]",
    "nn.LSTM(8, 16, 2, bidirectional=True, proj_size=4)(torch.randn(5, 3, 8))[1][1]",
    "nn.LSTM(8, 16, proj_size=0)(torch.randn(5, 8))[0]",
    "nn.PixelShuffle(2)(torch.randn(1, 12, 5, 7))",
    "nn.PixelShuffle(upscale_factor=3)(torch.randn(2, 3, 18, 4, 4))",
    "nn.PixelUnshuffle(2)(torch.randn(1, 3, 8, 6))",
    "nn.GRUCell(8, 16)(torch.randn(3, 8))",
    "nn.LSTMCell(8, 16)(torch.randn(8))[1]",
    "nn.RNNCell(8, 4)(torch.randn(2, 8), torch.randn(2, 4))",
    "F.one_hot(torch.tensor([0, 2, 1]), 5)",
    "F.one_hot(torch.tensor([[0, 2], [1, 1]]), num_classes=3)",
    "torch.tensor([[1, 2], [3, 4], [5, 6]])",
    "nn.ConvTranspose2d(8, 4, kernel_size=4, stride=2, padding=1)(torch.randn(2, 8, 7, 9))",
    "nn.ConvTranspose2d(8, 4, kernel_size=2, stride=2, padding=1)(torch.randn(2, 8, 8, 8))",
    "nn.ConvTranspose1d(8, 4, 3, 2, 1, 1)(torch.randn(2, 8, 5))",
    "nn.ConvTranspose3d(2, 2, (1, 2, 3), stride=(1, 2, 3), dilation=2)(torch.randn(1, 2, 3, 4, 5))",
    "nn.Linear(8, 4).to(torch.float64)(torch.randn(3, 8, dtype=torch.float64))",
    "nn.Conv1d(8, 4, 3).float().eval()(torch.randn(2, 8, 10))",
    "torch.randn(2, 3, 8).pow(2).mean(-1, keepdim=True)",
    "torch.pow(torch.randn(2, 3, 8), 2) * torch.randn(2, 3, 8).mul(0.5)",
    "torch.randn(2, 4, 5, 5).masked_fill(torch.ones(2, 1, 1, 5, dtype=torch.bool), 0.0)",
    "nn.GLU()(torch.randn(2, 5, 8))",
    "nn.GLU(dim=1)(torch.randn(2, 6, 5))",
    "nn.GLU(-2)(torch.randn(2, 6, 4, 3))",
    "nn.Sequential(nn.Conv1d(4, 16, 1), nn.GLU(dim=1), nn.Conv1d(8, 8, 3, groups=8))(torch.randn(2, 4, 9))",
    "nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8))(torch.randn(2, 3, 9, 9))",
    "nn.BatchNorm1d(8)(torch.randn(4, 8, 5))",
    "nn.Linear(4, int(round(4 * 1.5)))(torch.randn(2, 4))",
    "nn.Linear(4, round(2.5))(torch.randn(2, 4))",
    "nn.Linear(4, round(3.5))(torch.randn(2, 4))",
    "nn.EmbeddingBag(10, 4)(torch.tensor([[1, 2], [3, 4], [5, 6]]))",
    "nn.EmbeddingBag(10, 4, mode='sum')(torch.tensor([1, 2, 3, 4, 5]), torch.tensor([0, 2]))",
    "nn.EmbeddingBag(10, 4, include_last_offset=True)(torch.tensor([1, 2, 3, 4]), offsets=torch.tensor([0, 1, 4]))",
    "torch.tril_indices(6, 6, -1)",
    "torch.triu_indices(3, 5, offset=1)",
]

HEADER = "import torch\nimport torch.nn.functional as F\nfrom torch import nn\n"


def test_ceil_mode_pools_are_torchs() -> None:
    """``ceil_mode=True`` rounds the window count up, but a last window starting past the input and its left padding
    is dropped: every (size, kernel, stride, padding, dilation) below against torch, in one analysed source."""
    exprs = []
    for size in range(3, 14):
        x = f"(torch.randn(1, 2, {size}))"
        for k in (2, 3, 4):
            for stride in (1, 2, 3):
                for pad in range(k // 2 + 1):
                    if k <= size + 2 * pad:
                        exprs.append(f"nn.AvgPool1d({k}, stride={stride}, padding={pad}, ceil_mode=True){x}")
                    for dil in (1, 2):
                        if (k - 1) * dil + 1 <= size + 2 * pad:
                            max_pool = (
                                f"nn.MaxPool1d({k}, stride={stride}, padding={pad}, dilation={dil}, ceil_mode=True)"
                            )
                            exprs.append(max_pool + x)
    assert len(exprs) > 400
    src = HEADER + "".join(f"y{i} = {e}\n" for i, e in enumerate(exprs))
    values, findings = inferred_values(src, "ceil_cases.py")
    assert not findings, [f.message for f in findings]
    env: dict[str, object] = {}
    exec(src, env)  # the oracle: torch itself
    for i, e in enumerate(exprs):
        y = values.get(f"y{i}")
        assert isinstance(y, TensorV) and y.shape is not None, e
        assert tuple(s.as_int() for s in y.shape) == tuple(env[f"y{i}"].shape), e  # type: ignore[attr-defined]


@pytest.mark.parametrize("expr", CASES)
def test_inferred_shape_is_torchs(expr: str) -> None:
    src = HEADER + f"y = {expr}\n"
    values, findings = inferred_values(src, "layer_case.py")
    assert not findings, [f.message for f in findings]
    y = values.get("y")
    assert isinstance(y, TensorV) and y.shape is not None, f"no shape inferred for {expr}: {y}"
    inferred = tuple(s.as_int() for s in y.shape)
    env: dict[str, object] = {}
    exec(src, env)  # the oracle: torch itself
    assert inferred == tuple(env["y"].shape)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "expr, fragment",
    [
        ("nn.LSTM(8, 16)(torch.randn(5, 4, 6))", "input_size=8"),
        ("nn.TransformerEncoderLayer(16, 4)(torch.randn(5, 2, 12))", "d_model=16"),
        (
            "nn.MultiheadAttention(16, 4, batch_first=True)(torch.randn(2, 5, 16), torch.randn(2, 9, 8), torch.randn(2, 9, 8))",
            "MultiheadAttention(embed_dim=16)",
        ),
        ("nn.GroupNorm(8, 12)(torch.randn(2, 12, 4, 4))", "num_channels=12 is not divisible by num_groups=8"),
        ("nn.GRUCell(8, 16)(torch.randn(3, 9))", "GRUCell(input_size=8)"),
        ("nn.MultiheadAttention(10, 3)", "embed_dim=10 is not divisible by num_heads=3"),
    ],
)
def test_reported_calls_fail_in_torch(expr: str, fragment: str) -> None:
    src = HEADER + f"y = {expr}\n"
    _, findings = inferred_values(src, "layer_case.py")
    assert [f.code for f in findings] == ["SHP204"] and fragment in findings[0].message
    with pytest.raises((RuntimeError, AssertionError, ValueError)):
        exec(src, {})


def test_lstm_returns_output_and_state_pair() -> None:
    values, _ = inferred_values(HEADER + "y = nn.LSTM(8, 16)(torch.randn(5, 4, 8))\n", "layer_case.py")
    y = values["y"]
    assert isinstance(y, SeqV) and len(y.items) == 2 and isinstance(y.items[1], SeqV)


def test_mha_weights_not_asked_for_are_none() -> None:
    src = (
        HEADER
        + "y = nn.MultiheadAttention(16, 4)(torch.randn(5, 2, 16), torch.randn(9, 2, 16), torch.randn(9, 2, 16), need_weights=False)[1]\n"
    )
    values, _ = inferred_values(src, "layer_case.py")
    env: dict[str, object] = {}
    exec(src, env)
    assert env["y"] is None and type(values["y"]).__name__ == "NoneV"


def test_tied_linear_takes_the_embedding_weights_sizes() -> None:
    src = HEADER + (
        "class LM(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.emb = nn.Embedding(50, 8)\n"
        "        self.out = nn.Linear(16, 50)\n"
        "        self.out.weight = self.emb.weight\n"
        "y = LM().out(torch.randn(3, 8))\n"
    )
    values, findings = inferred_values(src, "layer_case.py")
    env: dict[str, object] = {}
    exec(src, env)
    y = values["y"]
    assert not findings and isinstance(y, TensorV) and y.shape is not None
    assert tuple(s.as_int() for s in y.shape) == tuple(env["y"].shape)  # type: ignore[attr-defined]


def test_sequential_subclass_is_the_chain_its_constructor_hands_on() -> None:
    """``class ConvBNReLU(nn.Sequential)`` calling ``super().__init__(conv, norm, act)``: calling an instance runs
    that chain (torch's Sequential.forward); a layer the constructor then sets as an attribute joins the chain last,
    as torch registers it; anything else set on self (an instance of the analysed code) leaves it unknown."""
    cls = (
        "class ConvBNReLU(nn.Sequential):\n"
        "    def __init__(self, cin, cout, k=3, stride=1):\n"
        "        super().__init__(nn.Conv2d(cin, cout, k, stride, (k - 1) // 2), nn.BatchNorm2d(cout), nn.ReLU6())\n"
    )
    src = HEADER + cls + "y = ConvBNReLU(3, 8, stride=2)(torch.randn(2, 3, 15, 15))\n"
    values, findings = inferred_values(src, "layer_case.py")
    env: dict[str, object] = {}
    exec(src, env)
    y = values["y"]
    assert not findings and isinstance(y, TensorV) and y.shape is not None
    assert tuple(s.as_int() for s in y.shape) == tuple(env["y"].shape)  # type: ignore[attr-defined]
    bad = HEADER + cls + "y = ConvBNReLU(3, 8)(torch.randn(2, 4, 15, 15))\n"
    _, findings = inferred_values(bad, "layer_case.py")
    assert [f.code for f in findings] == ["SHP204"] and "in_channels=3" in findings[0].message
    with pytest.raises(RuntimeError):
        exec(bad, {})
    grown = cls + "        self.extra = nn.Conv2d(cout, 5, 1)\n"  # joins the chain: torch runs it last
    src = HEADER + grown + "y = ConvBNReLU(3, 8)(torch.randn(2, 3, 15, 15))\n"
    values, findings = inferred_values(src, "layer_case.py")
    env = {}
    exec(src, env)
    y = values["y"]
    assert not findings and isinstance(y, TensorV) and y.shape is not None
    assert tuple(s.as_int() for s in y.shape) == tuple(env["y"].shape) == (2, 5, 15, 15)  # type: ignore[attr-defined]
    helper = "class Extra(nn.Module):\n    def forward(self, x):\n        return x[:, :2]\n"
    other = cls + "        self.extra = Extra()\n"  # a module of the analysed code: the chain is not followed
    src = HEADER + helper + other + "y = ConvBNReLU(3, 8)(torch.randn(2, 3, 15, 15))\n"
    values, findings = inferred_values(src, "layer_case.py")
    assert not findings and not (isinstance(values["y"], TensorV) and values["y"].shape is not None)


@pytest.mark.parametrize("batch_first", [False, True])
def test_mha_key_padding_mask_against_torch(batch_first: bool) -> None:
    """``key_padding_mask`` is (batch, source length) -- (source length,) unbatched: a finding exactly where torch
    rejects the mask (query and key agreeing on their batch), and the output's shape where it runs."""
    cases = [
        ((4, 10, 8), (4, 10, 8), (4, 10)),
        ((4, 10, 8), (4, 10, 8), (10, 4)),
        ((4, 10, 8), (6, 10, 8), (10, 6)),
        ((4, 10, 8), (4, 6, 8), (4, 6)),
        ((4, 10, 8), (4, 10, 8), (1, 4)),
        ((4, 10, 8), (4, 10, 8), (10, 1)),
        ((4, 10, 8), (4, 10, 8), (10, 4, 1)),
        ((4, 8), (6, 8), (6,)),
        ((4, 8), (6, 8), (1, 6)),
        ((4, 8), (6, 8), (4,)),
    ]
    checked = 0
    for q, k, m in cases:
        src = HEADER + (
            f"attn = nn.MultiheadAttention(8, 2, batch_first={batch_first})\n"
            f"q, k = torch.randn{q}, torch.randn{k}\n"
            f"y = attn(q, k, k, key_padding_mask=torch.zeros({m}, dtype=torch.bool), need_weights=False)[0]\n"
        )
        values, findings = inferred_values(src, "layer_case.py")
        try:
            exec(src, {})
            raised = None
        except (AssertionError, RuntimeError) as exc:
            raised = str(exc)
        if findings:
            # (a query and a key of different batches fail first on the batch: torch's reshape of the keys)
            msg = findings[0].message
            assert [f.code for f in findings] == ["SHP204"] and ("key_padding_mask" in msg or "batches of" in msg), src
            assert raised is not None, f"reported but torch runs: {src}"
            checked += 1
        elif raised is not None:
            assert "key_padd" not in raised, f"torch rejects the mask, no finding: {src}\n{raised}"
        else:
            y = values["y"]
            assert isinstance(y, TensorV) and y.shape is not None and tuple(s.as_int() for s in y.shape) == q
    assert checked >= 4


@pytest.mark.parametrize(
    "body, expected",
    [
        ("if isinstance(m, nn.Conv1d):\n        m.weight.data.normal_(0.0, 0.02)", True),
        (
            "if isinstance(m, nn.Linear):\n        nn.init.zeros_(m.bias)\n        trunc_normal_(m.weight, std=0.02)",
            True,
        ),
        ("if m.bias is not None:\n        m.bias.data.zero_()", True),
        ("m.weight.data.resize_(4, 4)", False),  # in place, but the shape changes
        ("m.bias = None", False),
        ("m.reset_parameters()", False),
        ("m.weight = nn.Parameter(torch.zeros(3))", False),
    ],
)
def test_weight_initialisation_callbacks(body: str, expected: bool) -> None:
    """``module.apply(fn)`` keeps the module's layers only for a callback that tests the module and fills its weights
    in place."""
    import libcst as cst

    from shapecheck.analysis.interpret.module import _initialises_only

    fn = cst.parse_module(f"def init_weights(m):\n    {body}\n").body[0]
    assert _initialises_only(fn) is expected
