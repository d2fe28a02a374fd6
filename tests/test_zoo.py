import torch

from zoo import build_model


def test_linear():
    model = build_model({"name": "linear", "dim": 16})
    assert model(torch.randn(2, 16)).shape == (2, 10)


def test_mlp():
    model = build_model({"name": "mlp", "dim": 16})
    model(torch.randn(2, 16))
