"""``x[idx]`` with one integer array index (an embedding lookup, a gather): the index's shape in place of the axis it
indexes. Each inferred shape is compared with the framework running the same line; what is not modelled stays
unknown."""

from __future__ import annotations

import pytest

from shapecheck.analysis.editor.hover import inferred_values
from shapecheck.analysis.interpret.values import TensorV

torch = pytest.importorskip("torch")

KNOWN = [
    "import torch\ny = torch.ones(10, 3)[torch.zeros(2, 4, dtype=torch.long)]",
    "import torch\ny = torch.ones(5, 10, 3)[:, torch.randint(0, 9, (4,))]",
    "import torch\ny = torch.ones(5, 10, 3)[..., torch.zeros(2, dtype=torch.int32), None]",
    "import numpy as np\ny = np.ones((5, 10, 3))[:, np.zeros((2, 2), dtype=np.int64)]",
    "import numpy as np\ny = np.ones((5, 10, 3))[np.random.randint(0, 4, size=(7,))]",
    "import numpy as np\ny = np.ones((5, 10, 3))[None, np.zeros((3,), dtype=np.int32), 1:]",
    # several index arrays broadcast together; in place when adjacent, first otherwise (numpy: an int counts as one)
    "import numpy as np\ny = np.ones((5, 10, 3))[0, :, np.zeros((2,), dtype=np.int64)]",
    "import numpy as np\ny = np.ones((5, 10, 3))[np.zeros((2,), dtype=np.int64), np.zeros((2,), dtype=np.int64)]",
    "import torch\ny = torch.ones(5, 10, 3)[0, :, torch.zeros(2, dtype=torch.long)]",  # torch: the int selects first
    "import torch\ny = torch.ones(5, 10, 3)[torch.arange(5), torch.zeros(5, 1, dtype=torch.long)]",
    "import torch\ny = torch.ones(5, 10, 3)[torch.zeros(2, dtype=torch.long), :, torch.zeros(3, 1, dtype=torch.long)]",
]

UNKNOWN_SHAPE = [
    "import torch\ny = torch.ones(5, 10)[torch.zeros(2, dtype=torch.uint8)]",  # uint8: a mask in torch
]


@pytest.mark.parametrize("src", KNOWN)
def test_gather_shape_is_the_frameworks(src: str) -> None:
    values, findings = inferred_values(src, "index_case.py")
    assert not findings
    y = values.get("y")
    assert isinstance(y, TensorV) and y.shape is not None, src
    env: dict[str, object] = {}
    exec(src, env)  # the oracle: the framework itself
    assert tuple(s.as_int() for s in y.shape) == tuple(env["y"].shape)  # type: ignore[attr-defined]


@pytest.mark.parametrize("src", UNKNOWN_SHAPE)
def test_other_array_indexing_is_unknown(src: str) -> None:
    values, findings = inferred_values(src, "index_case.py")
    assert not findings
    y = values.get("y")
    assert not (isinstance(y, TensorV) and y.shape is not None)


def test_index_arrays_that_do_not_broadcast_are_reported() -> None:
    src = "import torch\ny = torch.ones(5, 10)[torch.zeros(2, dtype=torch.long), torch.zeros(3, dtype=torch.long)]"
    with pytest.raises(IndexError):
        exec(src, {})  # the oracle: torch refuses index tensors of shapes (2,) and (3,)
    values, findings = inferred_values(src, "index_case.py")
    assert [f.code for f in findings] == ["SHP204"]
    assert "shapes (2) and (3) cannot broadcast" in findings[0].message
    y = values.get("y")
    assert not (isinstance(y, TensorV) and y.shape is not None)
