"""``shapecheck check --verify``: replay each definite finding's failing operation on its witness sizes.

Only the failing operation runs -- never the analysed code. The arrays are free: torch ``device="meta"`` tensors
(shapes without storage) when torch is installed, otherwise numpy ``broadcast_to`` views of one zero (no memory
per element). Engines, each of which must reject the witness (see docs/verification.md):

* ``shapecheck``: the integer shape function of :mod:`shapecheck.witness` (the pattern engine with ``int`` sizes,
  the jaxtyping matcher, broadcasting / matmul / concat rules);
* einops operations: ``shapecheck.runtime`` (our executor) and, when installed, ``einops`` itself;
* framework operations (``@``, broadcasting, ``cat``, ``reshape``, ``nn.Linear``, losses, ...): the torch op;
* annotation findings (SHP205, SHP206, declared variables, stub signatures): real ``jaxtyping`` with ``beartype``
  over a function object built here (no ``exec``/``eval``), and for stub-based findings of torch functions the
  torch function itself.

A finding is *confirmed* (``verified: true``) when at least one engine ran and every engine that ran rejected the
witness. An unconfirmed definite finding is a shapecheck bug: it is downgraded to a warning with a note, and the
summary line on standard error counts it.
"""

from __future__ import annotations

import operator
import re
import sys
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, TextIO

from .diagnostics import Finding, Severity, Witness
from .witness import EINOPS_OPS, concrete_failure, witness_get

__all__ = ["verify_findings", "verify_witness", "Replay"]

# what counts as "the operation rejected these shapes" (a TypeError from calling it wrongly does not)
_SHAPE_ERRORS: tuple[type[BaseException], ...] = (RuntimeError, ValueError, IndexError, AssertionError)


@dataclass
class Replay:
    """Per engine: (name, rejected?, detail); ``rejected`` None when the engine could not run."""

    engines: list[tuple[str, bool | None, str]] = field(default_factory=list)

    def add(self, name: str, rejected: bool | None, detail: str = "") -> None:
        self.engines.append((name, rejected, detail))

    @property
    def confirmed(self) -> bool:
        ran = [r for _, r, _ in self.engines if r is not None]
        return bool(ran) and all(ran)

    def summary(self) -> str:
        parts = []
        for name, r, detail in self.engines:
            state = "rejected it" if r else ("accepted it" if r is False else "could not run")
            parts.append(f"{name} {state}" + (f" ({detail})" if detail and r is not True else ""))
        return "; ".join(parts)


# ---------------------------------------------------------------------------------------------------------------
# zero-cost arrays


def _torch() -> Any:
    try:
        import torch
    except Exception:  # pragma: no cover - torch is optional
        return None
    return torch


def _numpy_view(shape: Sequence[Any]) -> Any:
    """A numpy array of ``shape`` that holds no memory: a read-only view of one zero."""
    import numpy as np

    return np.broadcast_to(np.zeros((), np.float32), tuple(int(x) for x in shape))


def _maker() -> tuple[Callable[[Sequence[int]], Any], str]:
    torch = _torch()
    if torch is not None:
        return (lambda shape: torch.empty(tuple(int(x) for x in shape), device="meta")), "torch"
    return _numpy_view, "numpy"


def _run(fn: Callable[[], Any]) -> tuple[bool | None, str]:
    """(True, why) if it raised a shape error, (False, "") if it ran, (None, why) if it could not be called."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn()
    except _SHAPE_ERRORS as e:
        return True, f"{type(e).__name__}: {_first_line(e)}"
    except Exception as e:
        tf = sys.modules.get("tensorflow")
        if tf is not None and isinstance(e, tf.errors.InvalidArgumentError):  # TensorFlow's shape errors
            return True, f"{type(e).__name__}: {_first_line(e)}"
        return None, f"{type(e).__name__}: {_first_line(e)}"
    return False, ""


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0][:200] if text else ""


# ---------------------------------------------------------------------------------------------------------------
# engines


def _replay_einops(w: Witness, replay: Replay) -> None:
    make, backend = _maker()
    if backend == "numpy" and not _small(w):
        replay.add("shapecheck.runtime", None, "no torch: numpy arrays would be materialised for large shapes")
        return
    from . import runtime

    shapes = [tuple(s) for s in w.input_shapes]
    lengths = dict(w.axes_lengths)
    red = witness_get(w, "reduction")
    if red == "callable":

        def red(t: Any, axes: Any) -> Any:  # stands for the analysed code's reduction; shape failures come first
            return t.sum(axes) if hasattr(t, "sum") else t
    elif red is None and w.op == "reduce":
        red = "sum"

    def call(
        mod: Any, err: tuple[type[BaseException], ...], make: Callable[[Sequence[int]], Any] = make
    ) -> Callable[[], Any]:
        def go() -> Any:
            op = w.op
            if op in ("rearrange", "repeat"):
                x = [make(s) for s in shapes] if witness_get(w, "stacked") else make(shapes[0])
                return getattr(mod, op)(x, w.pattern, **lengths)
            if op == "reduce":
                x = [make(s) for s in shapes] if witness_get(w, "stacked") else make(shapes[0])
                return mod.reduce(x, w.pattern, red, **lengths)
            if op == "pack":
                return mod.pack([make(s) for s in shapes], w.pattern)
            if op == "unpack":
                return mod.unpack(make(shapes[0]), [list(p) for p in witness_get(w, "packed_shapes", ())], w.pattern)
            if op == "einsum":
                return mod.einsum(*[make(s) for s in shapes], w.pattern)
            if op == "parse_shape":
                return mod.parse_shape(make(shapes[0]), w.pattern)
            raise NotImplementedError(op)

        return go

    replay.add("shapecheck.runtime", *_run(call(runtime, ())))
    try:
        import einops
    except Exception:  # pragma: no cover - einops is optional
        return
    replay.add(f"einops {getattr(einops, '__version__', '')}".strip(), *_run(call(einops, ())))
    framework = witness_get(w, "framework")
    if framework in ("tensorflow", "paddle"):
        fmake, why = _framework_maker(str(framework), w)
        if fmake is None:
            replay.add(f"{framework}", None, why)
            return
        replay.add(f"shapecheck.runtime on {framework}", *_run(call(runtime, (), fmake)))
        replay.add(f"einops on {framework}", *_run(call(einops, (), fmake)))


def _framework_maker(framework: str, w: Witness) -> tuple[Callable[[Sequence[int]], Any] | None, str]:
    """Zero tensors of the analysed code's own framework (TensorFlow / Paddle), when installed and small."""
    import importlib
    import importlib.util

    if importlib.util.find_spec(framework) is None:
        return None, f"{framework} is not installed"
    if not _small(w, 1 << 22):
        return None, f"{framework} tensors would be materialised for large shapes"
    if framework == "paddle" and "tensorflow" in sys.modules:
        return None, "Paddle cannot be imported after TensorFlow in one process (it crashes)"
    mod: Any = importlib.import_module(framework)
    if framework == "tensorflow":
        return (lambda shape: mod.zeros(tuple(int(x) for x in shape))), ""
    return (lambda shape: mod.zeros([int(x) for x in shape])), ""


def _small(w: Witness, limit: int = 1 << 16) -> bool:
    for s in w.input_shapes:
        n = 1
        for x in s:
            n *= int(x)
        if n > limit:
            return False
    return True


_OPERATORS = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "**": operator.pow,
    "%": operator.mod,
    "+=": operator.add,
    "-=": operator.sub,
    "*=": operator.mul,
    "/=": operator.truediv,
    "@": operator.matmul,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


def _equinox_for(replay: Any, w: Any) -> tuple[Any, Any] | None:
    """(equinox, jax) for replaying an equinox layer on the witness ``w``; None (the replay told why) when equinox is
    not installed or the arrays are too large to make."""
    import importlib

    try:  # (through importlib: equinox is optional, and not a test dependency)
        eqx = importlib.import_module("equinox")
        jaxlib = importlib.import_module("jax")
    except ImportError:
        replay.add("equinox", None, "equinox is not installed")
        return None
    if not _small(w):
        replay.add("equinox", None, "arrays this large are not materialised")
        return None
    return eqx, jaxlib


def _replay_framework(w: Witness, replay: Replay) -> None:
    torch = _torch()
    if torch is None:  # pragma: no cover - torch is installed in CI
        replay.add("torch", None, "torch is not installed")
        return
    import torch.nn.functional as F

    def t(shape: Sequence[int]) -> Any:
        return torch.empty(tuple(int(x) for x in shape), device="meta")

    xs = [t(s) for s in w.input_shapes]
    op = w.op
    if op == "equation_einsum" and witness_get(w, "framework") != "torch":
        import numpy as np

        if not _small(w):
            replay.add("numpy", None, "arrays this large are not materialised")
            return
        replay.add(
            "numpy",
            *_run(
                lambda: np.einsum(
                    str(witness_get(w, "equation")), *[np.zeros(tuple(int(x) for x in s)) for s in w.input_shapes]
                )
            ),
        )
        return

    if op == "class_loss.index":  # one row of logits over the classes, its target the index the labels hold
        n, i = (int(witness_get(w, k)) for k in ("classes", "index"))
        replay.add(
            "torch",
            *_run(lambda: torch.nn.functional.cross_entropy(torch.zeros(1, n), torch.full((1,), i, dtype=torch.long))),
        )
        return
    if op == "nn.Embedding.index":  # a table of num_embeddings rows looked up at the index the tensor holds
        n, i = (int(witness_get(w, k)) for k in ("num_embeddings", "index"))
        table = torch.nn.Embedding(n, 1)
        replay.add("torch", *_run(lambda: table(torch.full((1,), i, dtype=torch.long))))
        return
    if op == "eqx.nn.LayerNorm":
        import importlib

        try:  # (through importlib: equinox is optional, and not a test dependency)
            eqx: Any = importlib.import_module("equinox")
            jnp: Any = importlib.import_module("jax.numpy")
        except ImportError:
            replay.add("equinox", None, "equinox is not installed")
            return
        layer = getattr(eqx.nn, str(witness_get(w, "name", "LayerNorm")))(
            tuple(int(x) for x in witness_get(w, "shape", ()))
        )
        replay.add("equinox", *_run(lambda: layer(jnp.zeros(tuple(int(x) for x in w.input_shapes[0])))))
        return
    if op in ("lax.conv", "lax.dynamic_update_slice"):
        _replay_lax(w, op, replay)
        return
    if op == "scan.carry":
        import importlib

        try:  # (through importlib: jax is optional)
            jax_: Any = importlib.import_module("jax")
        except ImportError:
            replay.add("jax", None, "jax is not installed")
            return
        given, returned = (tuple(int(x) for x in s) for s in w.input_shapes)

        def scan() -> Any:  # traced only (jax.eval_shape): nothing is materialised
            body = lambda c, _: (jax_.numpy.zeros(returned, c.dtype), None)  # noqa: E731
            spec = jax_.ShapeDtypeStruct(given, jax_.numpy.float32)
            return jax_.eval_shape(lambda c: jax_.lax.scan(body, c, None, length=1), spec)

        rejected, why = _run(scan)
        if rejected is None and why.startswith("TypeError") and "carry input and carry output" in why:
            rejected = True  # jax's error for a carry whose type changed is a TypeError
        replay.add("jax", rejected, why)
        return
    if op == "pad.arguments" and witness_get(w, "op") in ("np.pad", "jnp.pad"):
        replay.add(*_replay_np_pad(w))
        return
    if op == "pad.arguments" and witness_get(w, "op") != "F.pad":
        replay.add(*_replay_lax_padding(w))
        return
    if op == "unpack.pieces":
        replay.add(*_replay_pieces(torch, w))
        return
    if op == "squeeze":  # numpy's rule (JAX's is the same): a view of one zero, nothing materialised
        import numpy as np

        view = _numpy_view(w.input_shapes[0])
        replay.add("numpy", *_run(lambda: np.squeeze(view, axis=int(witness_get(w, "axis", 0)))))
        return
    if op == "dim.range" and witness_get(w, "framework") in ("numpy", "jax"):
        # numpy's axis rule (JAX's is the same for arrays of one or more dimensions): a view of one zero, reduced
        # along the axis, or expanded at it where the axis may name a new one (expand_dims, stack)
        import numpy as np

        view = _numpy_view(w.input_shapes[0])
        axis = int(witness_get(w, "dim"))
        if int(witness_get(w, "extra", 0)):
            replay.add("numpy", *_run(lambda: np.expand_dims(view, axis)))
        else:
            replay.add("numpy", *_run(lambda: np.sum(view, axis=axis)))
        return
    if op == "solve" and witness_get(w, "framework") != "torch":
        import numpy as np

        if not _small(w):
            replay.add("numpy", None, "arrays this large are not materialised")
            return
        a_shape, b_shape = (tuple(int(x) for x in s) for s in w.input_shapes)
        # identity matrices (not singular) where a is square; numpy >= 2 reads b as JAX >= 0.5 does
        a = np.broadcast_to(np.eye(a_shape[-1]), a_shape).copy() if a_shape[-1] == a_shape[-2] else np.zeros(a_shape)
        replay.add("numpy", *_run(lambda: np.linalg.solve(a, np.zeros(b_shape))))
        return

    if op == "nn.MultiheadAttention":  # real (small) zeros, one head: the batch check does not depend on them
        if not _small(w):
            replay.add("torch", None, "tensors this large are not materialised")
            return
        q, k, v = (tuple(int(x) for x in s) for s in w.input_shapes)
        layer = torch.nn.MultiheadAttention(
            q[-1], 1, kdim=k[-1], vdim=v[-1], batch_first=bool(witness_get(w, "batch_first"))
        )
        replay.add("torch", *_run(lambda: layer(torch.zeros(q), torch.zeros(k), torch.zeros(v))))
        return
    if op == "index.count":  # torch, numpy and JAX count the indices the same way: slices of a shape-only array
        count = int(witness_get(w, "count"))
        if witness_get(w, "framework") in ("numpy", "jax"):
            view = _numpy_view(w.input_shapes[0])
            replay.add("numpy", *_run(lambda: view[(slice(None),) * count]))
        else:
            meta = torch.empty(tuple(int(x) for x in w.input_shapes[0]), device="meta")
            replay.add("torch", *_run(lambda: meta[(slice(None),) * count]))
        return
    if op == "index.int":  # real (small) zeros: indexing a meta tensor checks no bounds
        if not _small(w):
            replay.add("torch", None, "tensors this large are not materialised")
            return
        axis, i = int(witness_get(w, "axis")), int(witness_get(w, "index"))
        x = torch.zeros(tuple(int(s) for s in w.input_shapes[0]))
        replay.add("torch", *_run(lambda: x[(slice(None),) * axis + (i,)]))
        return
    if op == "view.strided":  # a meta tensor with the strides the analysis found, viewed as the target
        shape = tuple(int(x) for x in w.input_shapes[0])
        strides = tuple(int(x) for x in witness_get(w, "strides", ()))
        target = tuple(int(x) for x in witness_get(w, "target", ()))
        replay.add("torch", *_run(lambda: torch.empty_strided(shape, strides, device="meta").view(target)))
        return
    if op == "item":  # real (small) zeros: a meta tensor has no value to convert
        if not _small(w):
            replay.add("torch", None, "tensors this large are not materialised")
            return
        replay.add("torch", *_run(lambda: torch.zeros(tuple(int(x) for x in w.input_shapes[0])).item()))
        return

    if op in ("eqx.nn.Linear", "eqx.nn.Embedding"):
        libs = _equinox_for(replay, w)
        if libs is None:
            return
        eqx, jaxlib = libs
        key = jaxlib.random.PRNGKey(0)
        shape = tuple(int(x) for x in w.input_shapes[0])
        if op == "eqx.nn.Embedding":
            n, d = (int(witness_get(w, k) or 1) for k in ("num_embeddings", "embedding_size"))
            table = eqx.nn.Embedding(n, d, key=key)
            replay.add("equinox", *_run(lambda: table(jaxlib.numpy.zeros(shape, dtype=jaxlib.numpy.int32))))
            return
        fin, fout = (int(witness_get(w, k) or 1) for k in ("in_features", "out_features"))
        if witness_get(w, "mlp"):
            made = eqx.nn.MLP(fin, fout, fin, 1, key=key)
        else:
            made = eqx.nn.Linear(fin, fout, use_bias=bool(witness_get(w, "use_bias")), key=key)
        replay.add("equinox", *_run(lambda: made(jaxlib.numpy.zeros(shape))))
        return

    def go() -> Any:
        if op == "dim.range":  # torch wraps every dim argument the same way: size(d), or unsqueeze(d) for one more
            d = int(witness_get(w, "dim"))
            return xs[0].unsqueeze(d) if int(witness_get(w, "extra", 0)) else xs[0].size(d)
        if op == "array.new":  # torch refuses a negative size in every constructor (numpy and jax do as well)
            return torch.empty(tuple(int(x) for x in witness_get(w, "shape", ())), device="meta")
        if op == "matmul":
            return torch.matmul(xs[0], xs[1])
        if op == "nn.MultiheadAttention.mask":  # real (small) inputs: the checks run before any product
            q, k, mask = (tuple(int(x) for x in s) for s in w.input_shapes)
            layer = torch.nn.MultiheadAttention(
                int(witness_get(w, "embed_dim")),
                int(witness_get(w, "num_heads")),
                batch_first=bool(witness_get(w, "batch_first")),
            )
            return layer(
                torch.zeros(q), torch.zeros(k), torch.zeros(k), key_padding_mask=torch.zeros(mask, dtype=torch.bool)
            )
        if op == "nn.MultiheadAttention.attn_mask":  # real (small) inputs: the mask is checked before any product
            q, k, mask = (tuple(int(x) for x in s) for s in w.input_shapes)
            layer = torch.nn.MultiheadAttention(
                int(witness_get(w, "embed_dim")),
                int(witness_get(w, "num_heads")),
                batch_first=bool(witness_get(w, "batch_first")),
            )
            return layer(torch.zeros(q), torch.zeros(k), torch.zeros(k), attn_mask=torch.zeros(mask))
        if op == "ctc_loss.lengths":  # real (small) tensors: full lengths, one-label targets
            lp, lengths = (tuple(int(i) for i in s) for s in w.input_shapes)
            steps, n = lp[0], lp[1]
            which = witness_get(w, "which")
            ins = torch.full(lengths if which == "input_lengths" else (n,), steps, dtype=torch.long)
            outs = torch.full(lengths if which == "target_lengths" else (n,), 1, dtype=torch.long)
            return F.ctc_loss(torch.zeros(lp).log_softmax(-1), torch.ones((n, 1), dtype=torch.long), ins, outs)
        if op == "class_loss.target":  # real (small) tensors: class-index targets of zeros
            inp, tgt = (tuple(int(i) for i in s) for s in w.input_shapes)
            name = str(witness_get(w, "name", "cross_entropy"))
            return getattr(F, name)(torch.zeros(inp), torch.zeros(tgt, dtype=torch.long))
        if op == "class_loss.weight":  # real (small) tensors: class-index targets of zeros, a weight of ones
            x, wt = (tuple(int(i) for i in s) for s in w.input_shapes)
            target = torch.zeros(x[:1] + x[2:] if len(x) >= 2 else (), dtype=torch.long)
            return getattr(F, str(witness_get(w, "name", "cross_entropy")))(
                torch.zeros(x), target, weight=torch.ones(wt)
            )
        if op == "solve":  # real (small) identity matrices: meta tensors skip linalg's checks
            a_shape = tuple(int(x) for x in w.input_shapes[0])
            a = torch.eye(a_shape[-1]).expand(a_shape) if a_shape[-1] == a_shape[-2] else torch.zeros(a_shape)
            return torch.linalg.solve(a, torch.zeros(tuple(int(x) for x in w.input_shapes[1])))
        if op == "elementwise":
            name = witness_get(w, "name", "+")
            if name in _OPERATORS:
                return _OPERATORS[name](xs[0], xs[1])
            if name == "lerp":
                return torch.lerp(xs[0], xs[1], 0.5)
            if name == "where":
                return torch.where(torch.empty(xs[0].shape, dtype=torch.bool, device="meta"), xs[0], xs[1])
            if name == "masked_fill":
                return xs[0].masked_fill(torch.empty(xs[1].shape, dtype=torch.bool, device="meta"), 0.0)
            fn = getattr(torch, name, None)
            return fn(xs[0], xs[1]) if callable(fn) else xs[0] + xs[1]
        if op in ("cat", "stack"):
            return getattr(torch, op)(xs, dim=int(witness_get(w, "dim", 0)))
        if op == "reshape":
            return xs[0].reshape(tuple(int(x) for x in witness_get(w, "target", ())))
        if op == "expand":
            return xs[0].expand(*[int(x) for x in witness_get(w, "target", ())])
        if op == "mask_index":  # real (small) tensors: a boolean mask's selection depends on its values
            shape, mask = (tuple(int(x) for x in s) for s in w.input_shapes)
            return torch.zeros(shape)[torch.zeros(mask, dtype=torch.bool)]
        if op == "vmap":  # torch's vmap refuses mapped axes of different sizes, as jax's does
            ka, kb = (int(x) for x in witness_get(w, "axes", (0, 0)))
            return torch.vmap(lambda a, b: a, in_dims=(ka, kb))(xs[0], xs[1])
        if op == "state_dict.copy":  # xs: the state dict's entry, the model's parameter of that name
            holder = torch.nn.Module()
            holder.register_parameter("w", torch.nn.Parameter(torch.empty(xs[1].shape, device="meta")))
            return holder.load_state_dict({"w": xs[0]})
        if op == "inplace":  # x += y on x itself
            return torch.empty(xs[0].shape, device="meta").add_(xs[1])
        if op == "setitem":  # xs: the value, the region it is stored into
            region = torch.empty(xs[1].shape, device="meta")
            region[...] = xs[0]
            return region
        if op == "linear":
            return F.linear(xs[0], xs[1])
        if op == "attention":
            return F.scaled_dot_product_attention(xs[0], xs[1], xs[2], attn_mask=xs[3] if len(xs) > 3 else None)
        if op == "equation_einsum":
            return torch.einsum(str(witness_get(w, "equation")), *xs)
        if op == "split":
            return torch.split(xs[0], [int(x) for x in witness_get(w, "sizes", ())], int(witness_get(w, "dim", 0)))
        if op == "topk":
            return torch.topk(xs[0], int(witness_get(w, "k")), int(witness_get(w, "dim", -1)))
        if op == "nn.RNN.state":  # real (small) tensors: the recurrent kernels do not run on meta tensors
            name, which = str(witness_get(w, "name")), str(witness_get(w, "state"))
            proj = int(witness_get(w, "proj_size") or 0)
            rnn = getattr(torch.nn, name)(
                int(witness_get(w, "input_size")),
                int(witness_get(w, "hidden_size")),
                num_layers=int(witness_get(w, "num_layers")),
                batch_first=bool(witness_get(w, "batch_first")),
                bidirectional=int(witness_get(w, "dirs")) == 2,
                **({"proj_size": proj} if proj else {}),
            )
            x, h = torch.zeros(xs[0].shape), torch.zeros(xs[1].shape)
            if name != "LSTM":
                return rnn(x, h)
            lead = rnn.num_layers * (2 if rnn.bidirectional else 1)
            batch = () if x.dim() == 2 else (x.shape[0] if rnn.batch_first else x.shape[1],)
            other = torch.zeros((lead, *batch, rnn.hidden_size if which == "h_0" else proj or rnn.hidden_size))
            return rnn(x, (h, other) if which == "h_0" else (other, h))
        if op == "nn.Linear":
            fin = witness_get(w, "in_features")
            fout = witness_get(w, "out_features") or 1
            return torch.nn.Linear(int(fin), int(fout), device="meta")(xs[0])
        if op == "nn.LayerNorm":
            return torch.nn.LayerNorm(tuple(int(x) for x in witness_get(w, "normalized_shape", ())), device="meta")(
                xs[0]
            )
        if op == "nn.ChannelNorm":  # affine: the weight reads num_features (the finding is made only when it is read)
            layer = getattr(torch.nn, str(witness_get(w, "name")))(
                int(witness_get(w, "num_features")), affine=True, device="meta"
            )
            return layer(xs[0])
        if op == "nn.TransformerBlock":  # one head, a tiny feed-forward: only d_model matters for the shape
            layer = torch.nn.TransformerEncoderLayer(
                int(witness_get(w, "d_model")), 1, dim_feedforward=4, batch_first=True, device="meta"
            )
            return layer(xs[0])
        if op == "nn.Conv":
            return _conv(torch, w, xs[0])
        if op == "nn.PixelShuffle":
            return getattr(torch.nn, str(witness_get(w, "name")))(int(witness_get(w, "r")))(xs[0])
        if op == "interpolate.count":  # only how many entries there are matters
            count = int(witness_get(w, "count", 0))
            if witness_get(w, "arg") == "size":
                return F.interpolate(xs[0], size=(1,) * count)
            return F.interpolate(xs[0], scale_factor=(1.0,) * count)
        if op == "pad.arguments":  # F.pad: the values do not matter, only how many there are
            return F.pad(xs[0], (0,) * int(witness_get(w, "count", 0)))
        if op == "nn.GroupNorm":
            return torch.nn.GroupNorm(1, int(witness_get(w, "num_channels")), device="meta")(xs[0])
        if op == "nn.ConvTranspose":
            n = int(witness_get(w, "n", 2))
            layer = getattr(torch.nn, f"ConvTranspose{n}d")(
                int(witness_get(w, "in_channels")), int(witness_get(w, "out_channels") or 1), 1
            )
            # meta tensors skip the transposed convolution's channel check: a real (small) input, weights of size 1
            return layer(
                torch.zeros(tuple(int(d) if i < len(xs[0].shape) - n else 1 for i, d in enumerate(xs[0].shape)))
            )
        raise NotImplementedError(op)

    if op == "loss":
        replay.add("torch", *_replay_loss(F, w, xs))
        return
    if op == "keras.layer":
        replay.add("keras", *_replay_keras(w))
        return
    if op == "haiku.mha.mask":
        replay.add("haiku", *_replay_haiku_mask(w))
        return
    if op == "haiku.core":
        replay.add("haiku", *_replay_haiku_core(w))
        return
    replay.add("torch", *_run(go))


def _replay_pieces(torch: Any, w: Witness) -> tuple[str, bool | None, str]:
    """``a, b, c = x.split(3, dim)``: the pieces the library itself cuts (torch on a meta tensor, numpy on a view of
    one zero), unpacked into the names as Python's assignment does (exactly n, or at least n - 1 beside a starred
    name)."""
    how, dim = tuple(witness_get(w, "how")), int(witness_get(w, "dim", 0))
    n, starred = int(witness_get(w, "names")), bool(witness_get(w, "starred"))
    kind = how[0]
    arg: Any = how[1] if len(how) > 1 else 0
    engine = "numpy" if witness_get(w, "framework") in ("numpy", "jax") else "torch"

    def cut() -> Any:
        if engine == "numpy":
            import numpy as np

            view = _numpy_view(w.input_shapes[0])
            spec = [int(i) for i in arg] if kind == "indices" else int(arg)
            return np.array_split(view, spec, dim)  # n sections, or the pieces between indices, as np.split
        x = torch.empty(tuple(int(s) for s in w.input_shapes[0]), device="meta")
        if kind == "unbind":
            return torch.unbind(x, dim)
        if kind == "chunk":
            return torch.chunk(x, int(arg), dim)
        return torch.split(x, [int(s) for s in arg] if kind == "sizes" else int(arg), dim)

    def unpack() -> None:
        got = len(list(cut()))
        if starred and got < n - 1:
            raise ValueError(f"not enough values to unpack (expected at least {n - 1}, got {got})")
        if not starred and got != n:
            raise ValueError(
                f"too many values to unpack (expected {n})"
                if got > n
                else f"not enough values to unpack (expected {n}, got {got})"
            )

    return (engine, *_run(unpack))


def _replay_np_pad(w: Witness) -> tuple[str, bool | None, str]:
    """``np.pad`` / ``jnp.pad`` of a zero array of the witness shape with a zero ``pad_width`` of the witness's
    shape (only that shape is read: numpy broadcasts it to (ndim, 2))."""
    import importlib

    import numpy as np

    if not _small(w, 1 << 20):
        return "numpy", None, "arrays this large are not materialised"
    shape = tuple(int(x) for x in w.input_shapes[0])
    width = np.zeros(tuple(int(x) for x in witness_get(w, "width", ())), dtype=np.int64)
    if witness_get(w, "op") == "jnp.pad":
        try:  # (through importlib: jax is optional)
            jnp: Any = importlib.import_module("jax.numpy")
        except ImportError:
            return "jax", None, "jax is not installed"
        rejected, why = _run(lambda: jnp.pad(jnp.zeros(shape), width.tolist()))
        return "jax", rejected, why
    rejected, why = _run(lambda: np.pad(np.zeros(shape), width))
    return "numpy", rejected, why


def _replay_lax_padding(w: Witness) -> tuple[str, bool | None, str]:
    """``lax.reduce_window`` / ``lax.conv_general_dilated`` on zero arrays of the witness shapes, unit windows and
    strides, and padding entries of the witness lengths (all zeros). jax raises a TypeError for a wrong number of
    pairs in some versions and paths: that one, about the pads or the window, counts as rejecting them too."""
    import importlib

    try:  # (through importlib: jax is optional)
        lax: Any = importlib.import_module("jax.lax")
        jnp: Any = importlib.import_module("jax.numpy")
    except ImportError:
        return "jax", None, "jax is not installed"
    if not _small(w, 1 << 20):
        return "jax", None, "arrays this large are not materialised"
    shapes = [tuple(int(x) for x in s) for s in w.input_shapes]
    pad = tuple((0,) * int(k) for k in witness_get(w, "pairs", ()))
    axes = int(witness_get(w, "axes", 0))

    def go() -> Any:
        if witness_get(w, "op") == "lax.reduce_window":
            return lax.reduce_window(jnp.zeros(shapes[0]), 0.0, lax.add, (1,) * axes, (1,) * axes, pad)
        fn = getattr(lax, str(witness_get(w, "op")).rsplit(".", 1)[-1])
        return fn(jnp.zeros(shapes[0]), jnp.zeros(shapes[1]), (1,) * axes, pad)

    rejected, why = _run(go)
    if rejected is None and why.startswith("TypeError") and ("pads" in why or "window" in why):
        rejected = True
    return f"jax {getattr(importlib.import_module('jax'), '__version__', '')}".strip(), rejected, why


def _replay_haiku_mask(w: Witness) -> tuple[bool | None, str]:
    """haiku's ``MultiHeadAttention`` (one head of width 1) initialised on zero query / key / value of the witness's
    query shape, with a mask of the witness's mask shape: haiku checks the mask's rank against its logits'."""
    import importlib.util

    if importlib.util.find_spec("haiku") is None:
        return None, "dm-haiku is not installed"
    hk: Any = importlib.import_module("haiku")
    jax: Any = importlib.import_module("jax")
    jnp: Any = importlib.import_module("jax.numpy")
    q_shape = tuple(int(x) for x in w.input_shapes[0])
    m_shape = tuple(int(x) for x in w.input_shapes[1])

    def forward(q: Any, m: Any) -> Any:
        mha = hk.MultiHeadAttention(num_heads=1, key_size=1, w_init=hk.initializers.Constant(0.0))
        return mha(q, q, q, mask=m)

    f = hk.transform(forward)
    return _run(lambda: f.init(jax.random.PRNGKey(0), jnp.zeros(q_shape), jnp.ones(m_shape)))


def _replay_haiku_core(w: Witness) -> tuple[bool | None, str]:
    """haiku's own ``LSTM`` / ``GRU`` / ``VanillaRNN`` of the witness's hidden size, initialised on zero inputs and
    state of the witness's shapes (an LSTM's state as ``LSTMState(hidden, cell)``)."""
    import importlib.util

    if importlib.util.find_spec("haiku") is None:
        return None, "dm-haiku is not installed"
    hk: Any = importlib.import_module("haiku")
    jax: Any = importlib.import_module("jax")
    jnp: Any = importlib.import_module("jax.numpy")
    name, hidden = str(witness_get(w, "core")), int(witness_get(w, "hidden"))
    x_shape, *state_shapes = (tuple(int(s) for s in shape) for shape in w.input_shapes)

    def forward(x: Any, *state: Any) -> Any:
        core = getattr(hk, name)(hidden)
        return core(x, hk.LSTMState(*state) if name == "LSTM" else state[0])

    f = hk.transform(forward)
    return _run(lambda: f.init(jax.random.PRNGKey(0), jnp.zeros(x_shape), *(jnp.zeros(s) for s in state_shapes)))


def _replay_keras(w: Witness) -> tuple[bool | None, str]:
    """A Keras layer called on a symbolic input of the witness shape (no data): Keras checks the rank on the call."""
    import importlib.util

    if importlib.util.find_spec("keras") is None:
        return None, "keras is not installed"
    keras: Any = importlib.import_module("keras")

    cls = str(witness_get(w, "cls", "")).rsplit(".", 1)[-1]
    layer_type = getattr(keras.layers, cls, None)
    if layer_type is None:
        return None, f"keras.layers has no {cls}"
    layer = layer_type(1, 1) if cls.startswith("Conv") else layer_type()
    return _run(lambda: layer(keras.Input(batch_shape=tuple(int(x) for x in w.input_shapes[0]))))


def _replay_loss(F: Any, w: Witness, xs: list[Any]) -> tuple[bool | None, str]:
    """A loss is confirmed when torch rejects the pair, or accepts it only by broadcasting: with
    ``reduction="none"`` the result's shape differs from the input's or the target's (mse_loss and friends then
    merely warn). kl_div, soft_margin_loss and poisson_nll_loss broadcast by design: they get a finding only when the
    broadcast itself fails."""
    name = witness_get(w, "name", "mse_loss")
    fn = getattr(F, name, None)
    if not callable(fn):
        return None, f"torch.nn.functional has no {name}"
    a, b = xs
    if name == "binary_cross_entropy":
        pass  # meta tensors carry no values: the range check of the real kernel does not apply
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(a, b, reduction="none")
    except _SHAPE_ERRORS as e:
        return True, f"{type(e).__name__}: {_first_line(e)}"
    except Exception as e:
        return None, f"{type(e).__name__}: {_first_line(e)}"
    if tuple(out.shape) != tuple(a.shape) or tuple(out.shape) != tuple(b.shape):
        return True, f"broadcast to {tuple(out.shape)}"
    return False, "same shapes, compared element by element"


def _conv(torch: Any, w: Witness, x: Any) -> Any:
    n = int(witness_get(w, "n", 2))
    shape = tuple(x.shape)
    cin = witness_get(w, "in_channels")
    if cin is None:
        cin = shape[-n - 1] if len(shape) >= n + 1 else 1
    cout = witness_get(w, "out_channels") or 1

    def tup(key: str, default: int) -> Any:
        v = witness_get(w, key)
        if v is None:
            return default
        v = tuple(int(i) for i in v)
        return v[0] if len(v) == 1 else v

    layer = getattr(torch.nn, f"Conv{n}d")(
        int(cin), int(cout), tup("k", 1), stride=tup("s", 1), padding=tup("p", 0), dilation=tup("d", 1), device="meta"
    )
    return layer(x)


# ---------------------------------------------------------------------------------------------------------------
# annotations: real jaxtyping over a function object built here


def _function(n_params: int, result: Any) -> Callable[..., Any]:
    """A fresh function of ``n_params`` positional parameters p0.. returning ``result`` (annotations set later)."""
    if n_params > 16:
        raise ValueError("too many parameters")

    def f(
        p0: Any = None,
        p1: Any = None,
        p2: Any = None,
        p3: Any = None,
        p4: Any = None,
        p5: Any = None,
        p6: Any = None,
        p7: Any = None,
        p8: Any = None,
        p9: Any = None,
        p10: Any = None,
        p11: Any = None,
        p12: Any = None,
        p13: Any = None,
        p14: Any = None,
        p15: Any = None,
    ) -> Any:
        return result

    f.__annotations__ = {}
    return f


def _replay_annotation(w: Witness, replay: Replay, finding: Finding | None) -> None:
    try:
        import jaxtyping
        from beartype import beartype
    except Exception:  # pragma: no cover - jaxtyping is optional
        replay.add("jaxtyping", None, "jaxtyping or beartype is not installed")
        return
    make, backend = _maker()
    array_type: Any = _torch().Tensor if backend == "torch" else __import__("numpy").ndarray
    shapes = [tuple(int(x) for x in s) for s in w.input_shapes]
    params = [tuple(p) for p in (witness_get(w, "params") or ())]
    errors: tuple[type[BaseException], ...] = (jaxtyping.TypeCheckError,)
    try:
        from beartype.roar import BeartypeCallHintViolation

        errors += (BeartypeCallHintViolation,)
    except Exception:  # pragma: no cover
        pass

    if params:  # SHP205 and stub signatures: the annotated parameters in order, the failing one last
        f = _function(len(shapes), None)
        f.__annotations__ = {f"p{i}": jaxtyping.Shaped[array_type, dims] for i, (_, dims) in enumerate(params)}
        args = [make(s) for s in shapes]
    else:  # SHP206 / declared variables: bind the function's dims, then check the value as the return value
        memo = [(k, int(v)) for k, v in (witness_get(w, "memo") or ()) if re.fullmatch(r"[A-Za-z_]\w*", str(k))]
        value = make(shapes[0])
        f = _function(len(memo), value)
        f.__annotations__ = {f"p{i}": jaxtyping.Shaped[array_type, k] for i, (k, _) in enumerate(memo)}
        f.__annotations__["return"] = jaxtyping.Shaped[array_type, witness_get(w, "dims")]
        args = [make((v,)) for _, v in memo]
    checked = jaxtyping.jaxtyped(typechecker=beartype)(f)
    try:
        checked(*args)
    except errors as e:
        replay.add(f"jaxtyping {getattr(jaxtyping, '__version__', '')}".strip(), True, _first_line(e))
    except Exception as e:
        replay.add("jaxtyping", None, f"{type(e).__name__}: {_first_line(e)}")
    else:
        replay.add("jaxtyping", False, "the call type-checked")
    stub = _stub_of(w, finding)
    if stub is not None and params:
        _replay_stub_function(stub, w, params, shapes, replay)


def _stub_of(w: Witness, finding: Finding | None) -> str | None:
    """The stub function a finding's witness names (findings against stub signatures carry it)."""
    q = witness_get(w, "stub")
    return q if isinstance(q, str) else None


def _replay_stub_function(
    qual: str, w: Witness, params: list[tuple[str, str]], shapes: list[tuple[int, ...]], replay: Replay
) -> None:
    """The real framework function of a stub-based finding (torch only: meta tensors cost nothing). Required
    tensor parameters after the failing one are filled from the stub's own annotations."""
    if not qual.startswith("torch."):
        return
    torch = _torch()
    if torch is None:  # pragma: no cover
        return
    import importlib

    module_name, _, attr = qual.rpartition(".")
    try:
        fn = getattr(importlib.import_module(module_name), attr)
    except Exception as e:
        replay.add(qual, None, f"cannot import: {e}")
        return
    kwargs = {name: torch.empty(s, device="meta") for (name, _), s in zip(params, shapes)}
    for name, shape in _missing_arguments(qual, params, shapes):
        kwargs[name] = torch.empty(shape, device="meta")
    replay.add(qual, *_run(lambda: fn(**kwargs)))


def _missing_arguments(
    qual: str, params: list[tuple[str, str]], shapes: list[tuple[int, ...]]
) -> list[tuple[str, tuple[int, ...]]]:
    """Required annotated parameters the finding did not record (they come after the failing one): shapes
    instantiated from the stub's annotation with the bindings of the recorded arguments, fresh dims from the
    failing argument (or new sizes)."""
    try:
        from .analysis.index.stubs import stub_index
        from .annotations import Memo, instantiate, match_shape, parse_dims
        from .sizes import Size

        fi = stub_index(()).function(qual)
    except Exception:
        return []
    if fi is None:
        return []
    given = {name for name, _ in params}
    memo = Memo()
    for (_, dims), shape in zip(params[:-1], shapes[:-1]):
        spec = parse_dims(dims)
        if not isinstance(spec, str):
            match_shape(spec, tuple(Size.const(x) for x in shape), memo)
    out = []
    fresh_values = iter(range(1000, 2000))
    for p in fi.params:
        if p.name in given or p.ann is None or p.default is not None or p.kind in ("kwonly", "star", "starstar"):
            continue
        spec = parse_dims(p.ann.dims)
        shape_s = (
            instantiate(spec, memo, lambda n: Size.const(next(fresh_values))) if not isinstance(spec, str) else None
        )
        sizes = [x.as_int() for x in shape_s] if shape_s is not None else None
        known = [x for x in sizes if x is not None and x >= 1] if sizes is not None else None
        if sizes is not None and known is not None and len(known) == len(sizes):
            concrete = tuple(known)
        else:
            concrete = shapes[-1]  # unknown rank or sizes: the failing argument's shape
        out.append((p.name, tuple(int(x) for x in concrete)))
    return out


# ---------------------------------------------------------------------------------------------------------------
# the entry points


def verify_witness(w: Witness, finding: Finding | None = None) -> Replay:
    """Replay the failing operation of ``w`` on every available engine."""
    replay = Replay()
    if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for s in w.input_shapes for x in s):
        replay.add("witness", False, f"input shapes {w.input_shapes} are not concrete sizes")
        return replay
    why = concrete_failure(w)
    replay.add("shapecheck", why is not None, why or "the integer shape function accepts these shapes")
    try:
        if w.op in EINOPS_OPS:
            _replay_einops(w, replay)
        elif w.op == "annotation":
            _replay_annotation(w, replay, finding)
        elif w.op == "assert":
            _replay_assert(w, replay)
        else:
            _replay_framework(w, replay)
    except Exception as e:  # an engine that cannot even be set up is not evidence either way
        replay.add("replay", None, f"{type(e).__name__}: {_first_line(e)}")
    return replay


def _replay_assert(w: Witness, replay: Replay) -> None:
    """SHP207: the assertion's required comparison on its values with Python's own integer operators, walked
    over the parsed condition (placeholders and literals only; nothing of the analysed code is run)."""
    import ast
    import operator as op

    binary = {ast.Add: op.add, ast.Sub: op.sub, ast.Mult: op.mul, ast.FloorDiv: op.floordiv, ast.Mod: op.mod}
    compare = {ast.Eq: op.eq, ast.NotEq: op.ne, ast.Lt: op.lt, ast.LtE: op.le, ast.Gt: op.gt, ast.GtE: op.ge}
    env = dict(witness_get(w, "values", ()))

    def value(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            return int(env[node.id])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            e = value(node.right)
            if not 0 <= e <= 64:
                raise ValueError("exponent out of range")
            return int(value(node.left) ** e)
        if isinstance(node, ast.BinOp) and type(node.op) in binary:
            return int(binary[type(node.op)](value(node.left), value(node.right)))
        raise ValueError(f"not integer arithmetic: {type(node).__name__}")

    def run() -> None:
        tree = ast.parse(str(witness_get(w, "condition")), mode="eval").body
        if not isinstance(tree, ast.Compare):
            raise ValueError("not a comparison")
        vals = [value(x) for x in (tree.left, *tree.comparators)]
        if all(compare[type(c)](a, b) for c, a, b in zip(tree.ops, vals, vals[1:])):
            return
        raise AssertionError(f"{ast.unparse(tree)} is false for {env}")

    try:
        run()
    except AssertionError as e:
        replay.add("python", True, str(e))
    except (ValueError, KeyError, ZeroDivisionError, SyntaxError) as e:
        replay.add("python", None, f"{type(e).__name__}: {e}")
    else:
        replay.add("python", False, "the comparison holds")


def _rewitness(findings: Sequence[Finding]) -> dict[tuple[str, int, int, str, str], Witness]:
    """Witnesses for findings that arrived without one (e.g. from a result cache written by an older version):
    the files are analysed again (the analysis never runs them)."""
    from pathlib import Path

    from .analysis.index.project import Project
    from .config import Config
    from .core import check_source

    paths = sorted({f.path for f in findings})
    out: dict[tuple[str, int, int, str, str], Witness] = {}
    try:
        project = Project([Path(p) for p in paths])
    except Exception:
        project = None
    for p in paths:
        try:
            data = Path(p).read_bytes()
        except OSError:
            continue
        for g in check_source(data, p, Config(), project=project):
            if g.witness is not None:
                out[(g.path, g.line, g.column, g.code, g.message)] = g.witness
    return out


def verify_findings(findings: Sequence[Finding], stream: TextIO | None = None) -> list[Finding]:
    """Replay every definite (SHP2xx) finding; confirmed ones get ``verified=True``, the others ``verified=False``,
    a warning severity and a note. A summary line goes to ``stream`` (standard error)."""
    stream = stream if stream is not None else sys.stderr
    missing = [f for f in findings if f.code.startswith("SHP2") and f.witness is None]
    recovered = _rewitness(missing) if missing else {}
    out: list[Finding] = []
    total = confirmed = 0
    for f in findings:
        if not f.code.startswith("SHP2"):
            out.append(f)
            continue
        total += 1
        w = f.witness or recovered.get((f.path, f.line, f.column, f.code, f.message))
        if w is None:
            out.append(
                f.with_(
                    verified=False,
                    severity=Severity.WARNING,
                    notes=f.notes
                    + (
                        "not confirmed: shapecheck found no witness for this finding, a shapecheck "
                        "bug; downgraded to a warning",
                    ),
                )
            )
            continue
        replay = verify_witness(w, f)
        if replay.confirmed:
            confirmed += 1
            out.append(f.with_(witness=w, verified=True))
        else:
            note = (
                f"not confirmed: replaying {w.op} on the witness sizes did not fail ({replay.summary()}); "
                "this is a shapecheck bug, downgraded to a warning"
            )
            out.append(f.with_(witness=w, verified=False, severity=Severity.WARNING, notes=f.notes + (note,)))
    failed = total - confirmed
    print(
        f"shapecheck: verify: {total} definite finding{'s' if total != 1 else ''} replayed, {confirmed} confirmed, "
        f"{failed} not confirmed{' (downgraded to warnings: shapecheck bugs)' if failed else ''}",
        file=stream,
    )
    return out


def _replay_lax(w: Witness, op: str, replay: Any) -> None:
    """A jax.lax operation of a witness run on zeros of its sizes: ``lax.conv`` (the input features against the
    kernel's under the layouts given) and ``lax.dynamic_update_slice`` (an update written at the origin)."""
    import importlib

    try:  # (through importlib: jax is optional)
        lax: Any = importlib.import_module("jax.lax")
        jnp: Any = importlib.import_module("jax.numpy")
    except ImportError:
        replay.add("jax", None, "jax is not installed")
        return
    if not _small(w, 1 << 20):
        replay.add("jax", None, "arrays this large are not materialised")
        return
    first, second = (tuple(int(x) for x in s) for s in w.input_shapes)
    if op == "lax.dynamic_update_slice":  # the update, then the operand
        replay.add(
            "jax", *_run(lambda: lax.dynamic_update_slice(jnp.zeros(second), jnp.zeros(first), (0,) * len(second)))
        )
        return
    specs = tuple(str(x) for x in witness_get(w, "specs", ()))
    replay.add(
        "jax",
        *_run(
            lambda: lax.conv_general_dilated(
                jnp.zeros(first), jnp.zeros(second), (1,) * (len(first) - 2), "SAME", dimension_numbers=specs
            )
        ),
    )
