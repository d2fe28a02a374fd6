"""SHP403 replayed: each layer the fixture reports runs, and its result for one example of the batch depends on the
other examples (the recurrence or the pooling crosses the batch); the batch-first look-alike keeps them apart."""

from __future__ import annotations

import pytest
from fixture_format import load_fixture

torch = pytest.importorskip("torch")


def _mixes(f, x) -> bool:  # type: ignore[no-untyped-def]
    """Whether changing example 0 of x changes the result for example 1."""
    with torch.no_grad():
        a = f(x)
        y = x.clone()
        y[0] = y[0] + 1 if y.is_floating_point() else (y[0] + 1) % 100
        return not torch.allclose(a[1], f(y)[1])


def test_reported_layers_run_and_mix_the_batch() -> None:
    m = load_fixture("models/rnn_batch_axis.py")
    torch.manual_seed(0)
    model = m.Classifier().eval()
    tokens = torch.randint(0, 100, (8, 12))
    assert model(tokens).shape == (8, 3)  # it runs, with the shape a batch-first classifier would give
    assert _mixes(model, tokens)
    lstm = torch.nn.LSTM(16, 32)
    assert _mixes(lambda x: lstm(x)[0][:, -1], torch.randn(4, 10, 16))  # last_step
    rnn = torch.nn.RNN(16, 32, num_layers=2)
    assert _mixes(lambda x: rnn(x)[0][:, -1, :], torch.randn(4, 10, 16))  # last_step_indexed
    assert m.last_step().shape == (4, 32) and m.last_step_indexed().shape == (4, 32)


def test_batch_first_look_alike_keeps_examples_apart() -> None:
    torch.manual_seed(0)
    rnn = torch.nn.GRU(16, 32, batch_first=True)
    assert not _mixes(lambda x: rnn(x)[0][:, -1], torch.randn(4, 10, 16))
    assert not _mixes(lambda x: rnn(x)[0].mean(dim=1), torch.randn(4, 10, 16))
