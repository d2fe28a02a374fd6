"""A project whose test reads its layer width from a YAML file one folder down, for the tests that edit the YAML alone
and expect each host's cache to check the file again (the CLI's, flake8's, mypy's)."""

from __future__ import annotations

from pathlib import Path

CONFIGURED = """import os

import torch
import yaml
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))


def test_model() -> None:
    with open(os.path.join(HERE, "configs", "cfg.yaml")) as f:
        cfg = yaml.safe_load(f)
    nn.Linear(cfg["width"], 2)(torch.randn(3, 8))
"""


def write_configured(root: Path, width: int) -> None:
    """``test_cfg.py`` (``CONFIGURED``) and ``configs/cfg.yaml`` giving the Linear ``width`` inputs (8 fits)."""
    (root / "test_cfg.py").write_text(CONFIGURED, encoding="utf-8")
    set_width(root, width)


def set_width(root: Path, width: int) -> None:
    """Edit the YAML alone."""
    (root / "configs").mkdir(exist_ok=True)
    (root / "configs" / "cfg.yaml").write_text(f"width: {width}\n", encoding="utf-8")
