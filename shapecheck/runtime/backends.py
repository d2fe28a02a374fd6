"""Array backends for the runtime executor. numpy always; torch, jax, TensorFlow and Paddle only when already
imported and the array is theirs (this module never imports a framework itself)."""

from __future__ import annotations

import sys
from typing import Any, Callable, Protocol, Sequence


class Backend(Protocol):
    """The array operations the executor needs."""

    name: str

    def accepts(self, x: Any) -> bool: ...

    def shape(self, x: Any) -> tuple[int, ...]: ...

    def reshape(self, x: Any, shape: Any) -> Any: ...

    def transpose(self, x: Any, axes: Any) -> Any: ...

    def reduce(self, x: Any, op: str, axes: tuple[int, ...]) -> Any: ...

    def is_float(self, x: Any) -> bool: ...

    def stack(self, xs: Sequence[Any]) -> Any: ...

    def add_axes(self, x: Any, n_axes: int, pos2len: dict[int, int]) -> Any: ...

    def concat(self, xs: Sequence[Any], axis: int) -> Any: ...

    def einsum(self, pattern: str, *xs: Any) -> Any: ...


class NumpyBackend:
    name = "numpy"

    def __init__(self, xp: Any = None) -> None:
        import numpy

        self.np = numpy
        self.xp = xp if xp is not None else numpy

    def accepts(self, x: Any) -> bool:
        return isinstance(x, self.np.ndarray)

    def shape(self, x: Any) -> tuple[int, ...]:
        shape: tuple[int, ...] = x.shape  # numpy and jax: already a tuple of ints
        return shape

    def reshape(self, x: Any, shape: Any) -> Any:
        return x.reshape(shape)

    def transpose(self, x: Any, axes: Any) -> Any:
        return x.transpose(axes)

    def reduce(self, x: Any, op: str, axes: tuple[int, ...]) -> Any:
        return getattr(x, op)(axis=axes)

    def is_float(self, x: Any) -> bool:
        return x.dtype.kind == "f" or str(x.dtype) == "bfloat16"

    def stack(self, xs: Sequence[Any]) -> Any:
        return self.xp.stack(xs)

    def add_axes(self, x: Any, n_axes: int, pos2len: dict[int, int]) -> Any:
        repeats = [1] * n_axes
        for pos, length in pos2len.items():
            x = self.xp.expand_dims(x, pos)
            repeats[pos] = length
        return self.xp.tile(x, tuple(repeats))

    def concat(self, xs: Sequence[Any], axis: int) -> Any:
        return self.xp.concatenate(xs, axis=axis)

    def einsum(self, pattern: str, *xs: Any) -> Any:
        return self.xp.einsum(pattern, *xs)


class JaxBackend(NumpyBackend):
    name = "jax"

    def __init__(self) -> None:
        jnp = sys.modules["jax"].numpy
        super().__init__(jnp)
        self.jax = sys.modules["jax"]

    def accepts(self, x: Any) -> bool:
        return isinstance(x, self.jax.Array)


class TorchBackend:
    name = "torch"

    def __init__(self) -> None:
        self.torch = sys.modules["torch"]

    def accepts(self, x: Any) -> bool:
        return isinstance(x, self.torch.Tensor)

    def shape(self, x: Any) -> tuple[int, ...]:
        return tuple(x.shape)

    def reshape(self, x: Any, shape: Any) -> Any:
        return x.reshape(shape)

    def transpose(self, x: Any, axes: Any) -> Any:
        return x.permute(axes)

    def reduce(self, x: Any, op: str, axes: tuple[int, ...]) -> Any:
        if op == "min":
            return x.amin(dim=axes)
        if op == "max":
            return x.amax(dim=axes)
        if op == "sum":
            return x.sum(dim=axes)
        if op == "mean":
            return x.mean(dim=axes)
        for i in sorted(axes, reverse=True):  # any / all / prod take one dimension at a time
            x = getattr(x, op)(dim=i)
        return x

    def is_float(self, x: Any) -> bool:
        t = self.torch
        return x.dtype in (t.float16, t.float32, t.float64, t.bfloat16)

    def stack(self, xs: Sequence[Any]) -> Any:
        return self.torch.stack(xs)

    def add_axes(self, x: Any, n_axes: int, pos2len: dict[int, int]) -> Any:
        repeats = [-1] * n_axes
        for pos, length in pos2len.items():
            x = self.torch.unsqueeze(x, pos)
            repeats[pos] = length
        return x.expand(repeats)

    def concat(self, xs: Sequence[Any], axis: int) -> Any:
        return self.torch.cat(xs, dim=axis)

    def einsum(self, pattern: str, *xs: Any) -> Any:
        return self.torch.einsum(pattern, *xs)


class TensorFlowBackend:
    """``tf.Tensor`` / ``tf.Variable`` (eager: the static shape is the shape)."""

    name = "tensorflow"

    def __init__(self) -> None:
        self.tf = sys.modules["tensorflow"]

    def accepts(self, x: Any) -> bool:
        return isinstance(x, (self.tf.Tensor, self.tf.Variable))

    def shape(self, x: Any) -> tuple[int, ...]:
        return tuple(int(d) for d in x.shape)

    def reshape(self, x: Any, shape: Any) -> Any:
        return self.tf.reshape(x, tuple(shape))

    def transpose(self, x: Any, axes: Any) -> Any:
        return self.tf.transpose(x, tuple(axes))

    def reduce(self, x: Any, op: str, axes: tuple[int, ...]) -> Any:
        return getattr(self.tf, f"reduce_{op}")(x, axis=list(axes))

    def is_float(self, x: Any) -> bool:
        return bool(x.dtype.is_floating)

    def stack(self, xs: Sequence[Any]) -> Any:
        return self.tf.stack(list(xs))

    def add_axes(self, x: Any, n_axes: int, pos2len: dict[int, int]) -> Any:
        repeats = [1] * n_axes
        for pos, length in pos2len.items():
            x = self.tf.expand_dims(x, pos)
            repeats[pos] = length
        return self.tf.tile(x, repeats)

    def concat(self, xs: Sequence[Any], axis: int) -> Any:
        return self.tf.concat(list(xs), axis=axis)

    def einsum(self, pattern: str, *xs: Any) -> Any:
        return self.tf.einsum(pattern, *xs)


class PaddleBackend:
    """``paddle.Tensor``. Paddle's reshape reads a 0 in the target as "keep this axis", so an empty result is
    built instead of reshaped."""

    name = "paddle"

    def __init__(self) -> None:
        self.paddle = sys.modules["paddle"]

    def accepts(self, x: Any) -> bool:
        return isinstance(x, self.paddle.Tensor)

    def shape(self, x: Any) -> tuple[int, ...]:
        return tuple(int(d) for d in x.shape)

    def reshape(self, x: Any, shape: Any) -> Any:
        shape = [int(d) for d in shape]
        if 0 in shape:
            if int(x.size) != 0:
                raise ValueError(f"cannot reshape {tuple(x.shape)} into {tuple(shape)}")
            return self.paddle.zeros(shape, dtype=x.dtype)
        return self.paddle.reshape(x, shape)

    def transpose(self, x: Any, axes: Any) -> Any:
        return self.paddle.transpose(x, list(axes))

    def reduce(self, x: Any, op: str, axes: tuple[int, ...]) -> Any:
        return getattr(self.paddle, op)(x, axis=list(axes))

    def is_float(self, x: Any) -> bool:
        return bool(self.paddle.is_floating_point(x))

    def stack(self, xs: Sequence[Any]) -> Any:
        return self.paddle.stack(list(xs))

    def add_axes(self, x: Any, n_axes: int, pos2len: dict[int, int]) -> Any:
        repeats = [1] * n_axes
        for pos, length in pos2len.items():
            x = self.paddle.unsqueeze(x, pos)
            repeats[pos] = length
        return self.paddle.tile(x, repeats)

    def concat(self, xs: Sequence[Any], axis: int) -> Any:
        return self.paddle.concat(list(xs), axis=axis)

    def einsum(self, pattern: str, *xs: Any) -> Any:
        return self.paddle.einsum(pattern, *xs)


_by_type: dict[type, Backend] = {}
_loaded: dict[str, Backend] = {}


def get_backend(x: Any) -> Backend:
    t = type(x)
    b = _by_type.get(t)
    if b is not None:
        return b
    candidates: list[tuple[str, Callable[[], Backend]]] = [("numpy", NumpyBackend)]
    if "torch" in sys.modules:
        candidates.append(("torch", TorchBackend))
    if "jax" in sys.modules:
        candidates.append(("jax", JaxBackend))
    if "tensorflow" in sys.modules:
        candidates.append(("tensorflow", TensorFlowBackend))
    if "paddle" in sys.modules:
        candidates.append(("paddle", PaddleBackend))
    for name, cls in candidates:
        backend = _loaded.get(name)
        if backend is None:
            backend = _loaded[name] = cls()
        if backend.accepts(x):
            _by_type[t] = backend
            return backend
    raise RuntimeError(f"Tensor type unknown to shapecheck.runtime: {t}")
