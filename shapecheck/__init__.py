"""shapecheck: static shape checking for einops patterns and jaxtyping annotations.

Importing this package is cheap: it imports none of torch, jax, numpy, einops, mypy or flake8.
"""

from __future__ import annotations

from typing import Any

from ._version import __version__

__all__ = ["__version__", "check_source", "plugin"]


def check_source(*args: Any, **kwargs: Any) -> Any:
    """See :func:`shapecheck.core.check_source`."""
    from .core import check_source as _check_source

    return _check_source(*args, **kwargs)


def plugin(version: str) -> Any:
    """mypy entry point: ``plugins = ["shapecheck"]`` in ``[tool.mypy]``."""
    from .hosts.mypy_plugin import plugin as _plugin

    return _plugin(version)
