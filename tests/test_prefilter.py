"""The pre-filter: which files are analysed at all (every host shares it)."""

from __future__ import annotations

from shapecheck import check_source
from shapecheck.core import relevant

PLAIN_TORCH = """\
import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, 16)

    def forward(self, x):
        return self.fc(x)


def test_policy():
    p = Policy(width=32)
    return p(torch.randn(4, 64))
"""


def test_plain_model_code_is_analysed() -> None:
    """No einops, no jaxtyping: a file that imports torch still has layer sizes to check."""
    assert relevant(PLAIN_TORCH)
    findings = check_source(PLAIN_TORCH, "policy.py")
    assert [(f.code, f.line) for f in findings] == [("SHP204", 16)]


def test_framework_import_forms() -> None:
    for head in (
        "import jax.numpy as jnp",
        "from flax import linen as nn",
        "import equinox as eqx",
        "    from tensorflow import keras",
        "import paddle",
        "from keras import layers",
        "import numpy as np",
        "from numpy.linalg import svd",
    ):
        assert relevant(head + "\n"), head


PLAIN_NUMPY = """\
import numpy as np


class PCA:
    def fit(self, X):
        self.mean_ = X.mean(axis=1)
        return X - self.mean_


def test_pca():
    rng = np.random.default_rng(0)
    PCA().fit(rng.normal(size=(300, 64)))
"""


def test_plain_numpy_code_is_analysed() -> None:
    """An array library's code without einops: the means, products and broadcasts of its arrays are checked."""
    assert relevant(PLAIN_NUMPY)
    findings = check_source(PLAIN_NUMPY, "pca.py")
    assert [(f.code, f.line) for f in findings] == [("SHP204", 12)]


def test_files_without_our_libraries_are_skipped() -> None:
    text = "import os\nimport torchvision_helpers_like_name\nx = (\n"  # a syntax error nobody asked us about
    assert not relevant(text)
    assert check_source(text, "tool.py") == []
    assert not relevant("# we use torch elsewhere\nimport os\n")
    assert not relevant("import numpyro_like_helpers\nimport os\n")
