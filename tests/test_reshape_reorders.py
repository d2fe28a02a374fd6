"""SHP402 replayed: each reshape the fixture reports runs and reorders the data unlike a permute of the same axes;
each clean look-alike computes what a permute (or nothing) would."""

from __future__ import annotations

import pytest
from fixture_format import load_fixture

torch = pytest.importorskip("torch")


def test_reported_reshapes_run_and_scramble_the_data() -> None:
    m = load_fixture("shapes/reshape_reorders_axes.py")
    torch.manual_seed(0)
    mel = torch.randn(3, 40, 32)
    b, f, t = mel.shape
    assert not torch.equal(mel.reshape(b, t, f), mel.transpose(1, 2))  # FrameTagger.forward's reshape
    assert m.FrameTagger()(mel).shape == (3, 32, 64)  # it runs
    assert not torch.equal(m.frames_of(mel), mel.transpose(1, 2))
    got = m.frames_by_index()
    assert got.shape == (2, 32, 40)


def test_clean_look_alikes_keep_the_data_in_order() -> None:
    m = load_fixture("shapes/reshape_reorders_axes.py")
    torch.manual_seed(0)
    mel = torch.randn(3, 40, 32)
    assert torch.equal(m.transposed(mel), mel.transpose(1, 2))
    assert torch.equal(m.rebound(mel), mel.transpose(1, 2))
    assert torch.equal(m.in_place(mel.clone()), mel.transpose(1, 2))
    x = torch.zeros(4, 1, 7).normal_()
    assert torch.equal(x.reshape(4, 7, 1), x.permute(0, 2, 1))  # unit_axis: a size-1 axis moved is no reorder
    assert m.unit_axis().shape == (4, 7, 1) and m.square().shape == (2, 8, 8)
    x = torch.randn(2, 1, 4, 5)  # tokens_of: the merge is a transpose where the moved axis has size 1
    assert all(torch.equal(got, x.flatten(2).transpose(1, 2)) for got in m.tokens_of(x))
