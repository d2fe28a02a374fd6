"""The one registry of diagnostic codes.

Every SHP code is declared here exactly once: its family, severity, message template and documentation
(what it catches, why it matters, a bad and a good example). Hosts, docs (``docs/codes.md``) and the
example tests are generated from this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Family(str, Enum):
    PATTERN = "SHP1"  # invalid einops pattern, jaxtyping annotation or API use
    SHAPE = "SHP2"  # definite shape error
    PRECISION = "SHP3"  # float16 / bfloat16 numerics
    SUSPICIOUS = "SHP4"  # suspicious but legal
    INTERNAL = "SHP9"  # analysis failure reported as a diagnostic

    # deliberately shadows str.title with the family's title (public API, used by the hosts); a str-mixin enum
    # cannot rename it without breaking callers, so the override is accepted
    @property
    def title(self) -> str:  # type: ignore[override]
        return _FAMILY_TITLES[self]

    @property
    def mypy_code(self) -> str:
        return _FAMILY_MYPY[self]


_FAMILY_TITLES = {
    Family.PATTERN: "invalid pattern, annotation or API use",
    Family.SHAPE: "definite shape error",
    Family.PRECISION: "float16/bfloat16 precision",
    Family.SUSPICIOUS: "suspicious but legal",
    Family.INTERNAL: "internal analysis failure",
}
_FAMILY_MYPY = {
    Family.PATTERN: "shape-pattern",
    Family.SHAPE: "shape-mismatch",
    Family.PRECISION: "shape-precision",
    Family.SUSPICIOUS: "shape-suspicious",
    Family.INTERNAL: "shape-internal",
}


# Every family is reported by default. SHP4xx (suspicious but legal) is on too, unlike flake8-bugbear's opinionated
# B9xx codes: it fires only where both operands carry the same named axes in a different order, which is a silent
# wrong value wherever the sizes coincide. Opt out with `ignore = ["SHP4"]` (docs/configuration.md).
_FAMILY_DEFAULT_ON = {f: True for f in Family}


def default_on(family: Family) -> bool:
    """Whether a family is reported without any select/ignore configuration."""
    return _FAMILY_DEFAULT_ON[family]


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    severity: Severity
    template: str
    what: str
    why: str
    bad: str
    good: str

    @property
    def family(self) -> Family:
        return Family(self.code[:4])

    def format(self, **fields: object) -> str:
        return f"{self.code} " + self.template.format(**fields)


def _c(code: str, name: str, severity: Severity, template: str, what: str, why: str, bad: str, good: str) -> Code:
    return Code(code, name, severity, template, what, why, bad.strip("\n"), good.strip("\n"))


E, W = Severity.ERROR, Severity.WARNING

# The examples below are module snippets that assume these imports. Each bad example is reported on its last line,
# with its code and nothing else; each good example is clean (tests/test_registry_examples.py, in every host).
EXAMPLE_PRELUDE = """import torch
import torch.nn.functional as F
from einops import einsum, pack, rearrange, reduce, repeat, unpack
from einops.layers.torch import EinMix
from jaxtyping import BFloat16, Float, Float16
from torch import Tensor, nn
"""

CODES: tuple[Code, ...] = (
    # ---- SHP1xx: invalid pattern / annotation / API use (no shapes needed) ----
    _c(
        "SHP101",
        "pattern-syntax",
        E,
        "invalid einops pattern {pattern!r}: {detail}",
        "An einops pattern that einops cannot parse: unbalanced or nested parentheses, a missing or repeated "
        "`->`, dots outside one `...`, characters that are not axis names, names that start or end with `_`, "
        "or an anonymous axis of length 0.",
        "einops raises `EinopsError` on the first call; the training job dies where the pattern is used.",
        'y = rearrange(x, "b (c (h w)) -> b c h w")',
        'y = rearrange(x, "b (c h w) -> b c h w", c=3, h=16)',
    ),
    _c(
        "SHP102",
        "pattern-duplicate-axis",
        E,
        "axis {axis!r} appears twice in {pattern!r}",
        "The same axis name used twice on one side of a pattern.",
        "einops rejects duplicate dimensions; a diagonal needs `einsum` instead.",
        'y = rearrange(x, "b t t -> b t")',
        'y = einsum(x, "b t t -> b t")',
    ),
    _c(
        "SHP103",
        "pattern-ellipsis",
        E,
        "misplaced ellipsis in {pattern!r}: {detail}",
        "An ellipsis on the right but not the left side, or parenthesised on the left side.",
        "einops cannot know which dimensions `...` stands for.",
        'y = rearrange(x, "b c -> b ... c")',
        'y = rearrange(x, "b ... c -> b c ...")',
    ),
    _c(
        "SHP104",
        "pattern-identifiers",
        E,
        "{detail} in {pattern!r}",
        "Axis names that do not fit the operation: rearrange needs the same set on both sides and no anonymous "
        "axis but 1; reduce may only drop axes; repeat may only add axes and needs a length for each new named "
        "axis; an axis that cannot be inferred because a group has two unknown axes.",
        "einops raises before touching the tensor; the mistake is in the pattern, not the data.",
        'y = rearrange(x, "b c h w -> b (h w)")',
        'y = reduce(x, "b c h w -> b (h w)", "mean")',
    ),
    _c(
        "SHP105",
        "axis-length-keyword",
        E,
        "axis length keyword {axis}{value} {detail} in {pattern!r}",
        "An axis length keyword (`p1=16`) for an axis the pattern does not use, with an invalid axis name, or "
        "with a non-positive length.",
        "einops raises `Axis ... is not used in transform`; a typo in a keyword is otherwise silent.",
        'y = rearrange(x, "b (h p) -> b h p", q=4)',
        'y = rearrange(x, "b (h p) -> b h p", p=4)',
    ),
    _c(
        "SHP106",
        "unknown-reduction",
        E,
        "unknown reduction {reduction!r}; einops accepts {choices}",
        "A reduction name einops does not know (it accepts min, max, sum, mean, prod, any, all or a callable).",
        "einops raises at the first call.",
        'y = reduce(x, "b c h w -> b c", "avg")',
        'y = reduce(x, "b c h w -> b c", "mean")',
    ),
    _c(
        "SHP107",
        "pack-pattern",
        E,
        "invalid {op} pattern {pattern!r}: {detail}",
        "A pack/unpack pattern without exactly one `*`, with duplicate or invalid axis names.",
        "einops raises before packing anything.",
        'packed, ps = pack([a, b], "b n")',
        'packed, ps = pack([a, b], "b * d")',
    ),
    _c(
        "SHP108",
        "einsum-pattern",
        E,
        "invalid einsum pattern {pattern!r}: {detail}",
        "An `einops.einsum` pattern that einops rejects: no `->`, composed or anonymous axes, an output axis "
        "not present in any input, a pattern not in last position, or a number of operands that does not "
        "match the pattern.",
        "einops raises (or the backend einsum raises) at the first call.",
        'z = einsum(a, b, "b i d, b j d -> b i k")',
        'z = einsum(a, b, "b i d, b j d -> b i j")',
    ),
    _c(
        "SHP109",
        "einmix-pattern",
        E,
        "invalid EinMix {pattern!r}: {detail}",
        "An `EinMix` layer whose pattern, weight shape, bias shape or axis lengths einops rejects.",
        "The layer raises when the model is built.",
        'mix = EinMix("b t c -> b t d", weight_shape="c d", c=64)',
        'mix = EinMix("b t c -> b t d", weight_shape="c d", c=64, d=128)',
    ),
    _c(
        "SHP110",
        "jaxtyping-annotation",
        E,
        "invalid jaxtyping annotation {annotation!r}: {detail}",
        "A jaxtyping shape string that jaxtyping rejects: einops-style groups, several variadic dimensions, "
        "unknown modifiers, or a symbolic expression over names not bound by an earlier parameter.",
        "jaxtyping raises when the annotated function is called (or silently misreads the string).",
        'def f(x: Float[Tensor, "b (h w) c"]): ...',
        'def f(x: Float[Tensor, "b hw c"]): ...',
    ),
    _c(
        "SHP111",
        "api-use",
        E,
        "{detail}",
        "An einops function called in a way that always raises: einsum with the pattern first, reduce without "
        "a reduction, unpack without packed shapes, an empty list of tensors.",
        "The call fails whatever the tensor shapes are.",
        'z = einsum("b i d, b j d -> b i j", q, k)',
        'z = einsum(q, k, "b i d, b j d -> b i j")',
    ),
    # ---- SHP2xx: definite shape errors ----
    _c(
        "SHP201",
        "rank-mismatch",
        E,
        "{what} expects {expected} dimensions but {subject} has {actual}",
        "An input whose number of dimensions cannot fit the pattern or annotation (exactly, or at least, with `...`).",
        "einops raises `Wrong shape: expected N dims`; jaxtyping raises a type-check error.",
        'x: Float[Tensor, "b c h w"]\ny = rearrange(x, "b c h -> b (c h)")',
        'x: Float[Tensor, "b c h w"]\ny = rearrange(x, "b c h w -> b (c h w)")',
    ),
    _c(
        "SHP202",
        "axis-length-mismatch",
        E,
        "axis {axis!r} has {actual} but {requirement} {expected}",
        "An axis whose size is known to differ from what the pattern, a keyword, another operand or an "
        "annotation requires.",
        "einops raises `Shape mismatch`; with annotations the code is wrong for every input.",
        'x: Float[Tensor, "b 3 224 224"]\ny = rearrange(x, "b (c p) h w -> b c p h w", c=4, p=2)',
        'x: Float[Tensor, "b 3 224 224"]\ny = rearrange(x, "b (c p) h w -> b c p h w", c=3, p=1)',
    ),
    _c(
        "SHP203",
        "not-divisible",
        E,
        "axis {axis!r} of size {size} cannot be split into chunks of {chunk} in {pattern!r}",
        "A composed axis `(h p)` whose input size is not divisible by the known part.",
        "einops raises `can't divide axis of length 225 in chunks of 16`; a ViT patch size that does not "
        "divide the image size is the classic case.",
        'img: Float[Tensor, "b 3 225 225"]\np = rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)',
        'img: Float[Tensor, "b 3 224 224"]\np = rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)',
    ),
    _c(
        "SHP204",
        "incompatible-operands",
        E,
        "{op}: {detail}",
        "Operands whose shapes cannot combine: einsum axes of different sizes, matmul inner dimensions, "
        "broadcasting of unequal non-1 sizes, concatenation and stacking of mismatched shapes, losses that "
        "need equal shapes, a layer that cannot take its input.",
        "The framework raises at run time (or, for mse/l1/smooth_l1/huber losses, broadcasts into a wrong value with only a "
        "warning).",
        'q: Float[Tensor, "b n 64"]\nk: Float[Tensor, "b n 32"]\ns = q @ k.transpose(-1, -2)',
        'q: Float[Tensor, "b n 64"]\nk: Float[Tensor, "b n 64"]\ns = q @ k.transpose(-1, -2)',
    ),
    _c(
        "SHP205",
        "argument-shape",
        E,
        "argument {param!r} of {func}(): {detail}",
        "A call whose argument shape contradicts the callee's jaxtyping annotation.",
        "jaxtyping with a runtime checker (`jaxtyped` + beartype, or the import hook) raises at the call. Without one, "
        "either the function gets a shape it was not written for, or its annotation is wrong and misleads every "
        "reader and tool that trusts it: fix whichever side is wrong.",
        'def f(x: Float[Tensor, "b 768"]): ...\nf(torch.zeros(2, 512))',
        'def f(x: Float[Tensor, "b 768"]): ...\nf(torch.zeros(2, 768))',
    ),
    _c(
        "SHP206",
        "return-shape",
        E,
        "returned value does not match the return annotation of {func}(): {detail}",
        "A `return` whose shape contradicts the function's return annotation (for a `tuple[...]` of array "
        "annotations, each returned array against its element, with the sizes the arguments bound).",
        "Every caller trusts the annotation; a wrong return shape propagates silently.",
        'def f(x: Float[Tensor, "b n d"]) -> Float[Tensor, "b d"]:\n    return x',
        'def f(x: Float[Tensor, "b n d"]) -> Float[Tensor, "b d"]:\n    return x.mean(1)',
    ),
    _c(
        "SHP207",
        "assertion-fails",
        E,
        "assertion fails: {detail}",
        "An `assert` of the analysed code that compares sizes (`x.shape[-1] % patch_size == 0`, "
        "`assert divisible_by(h, window)`, `len(dims) == depth`) or whole shapes (`s.shape == t.shape`, "
        "`x.shape == (b, n, d)`: reported on the first axis they differ on, or their ranks) and is false for the "
        "sizes known there: the "
        "code's own check rejects them. So does a check written `if x.shape[-1] != self.dim: raise ValueError(...)` "
        "(one comparison that reads a shape: `.shape`, `.ndim`, `.size()`, `.dim()`, `len()`; a block that ends "
        "in raising ValueError, RuntimeError, TypeError or IndexError) whose test is true. Reported only on a path every enclosing condition decides (an `assert` in "
        "a branch the analysis cannot decide, a deliberate `assert False`, or one under `pytest.raises` is silent).",
        "The run stops with an AssertionError, usually in a constructor or the first forward call, and the "
        "sizes that caused it were chosen far away (a config, a test, an example).",
        'x = torch.zeros(2, 3, 30, 30)\nassert x.shape[-1] % 16 == 0, "image size must be divisible by the patch size"',
        'x = torch.zeros(2, 3, 32, 32)\nassert x.shape[-1] % 16 == 0, "image size must be divisible by the patch size"',
    ),
    # ---- SHP3xx: precision ----
    _c(
        "SHP301",
        "fp16-sum-overflow",
        W,
        "{op} {verb} {count} float16 values{detail}",
        'A sum or product (torch/numpy `sum`, `nansum`, `prod`; einops `reduce`/`Reduce` with "sum", "prod" or '
        "`torch.sum`-like callables) whose input is float16 and is not upcast first. float16's largest finite value "
        "is 65,504 and it holds integers exactly only up to 2,048. torch accumulates float16 in float32 but stores "
        "the result in float16, so the sum is inf once the total passes 65,504 (65,536 ones already are). numpy "
        "accumulates in float16 itself: along a non-contiguous axis a running sum of ones stalls at 2,048, along the "
        "contiguous axis pairwise summation stays exact but still overflows. Not reported: `mean` (torch divides "
        "in float32 before storing, numpy's float16 mean accumulates in float32), `min`/`max`/`any`/`all`, "
        "reductions CUDA autocast runs in float32 (sum, prod; on CPU autocast only prod). Severity: a warning, not "
        "an error -- whether the total passes 65,504 depends on the data (the message gives the mean magnitude "
        "at which it does when the count is known).",
        "Mixed-precision training turns these into inf/NaN losses hours into a run.",
        'x: Float16[Tensor, "b c h w"]\ny = reduce(x, "b c h w -> b c", "sum")',
        'x: Float16[Tensor, "b c h w"]\ny = reduce(x.float(), "b c h w -> b c", "sum").to(x.dtype)',
    ),
    _c(
        "SHP302",
        "bf16-reduction-precision",
        W,
        "{op} {verb} {count} bfloat16 values{detail}",
        "A sum, product or cumulative sum/product over bfloat16 without an upcast. bfloat16 has float32's range, "
        "so it does not overflow where float16 does, but it keeps 8 significant bits: integers are exact only up "
        "to 256. torch accumulates in float32 and rounds the result (every prefix, for cumsum) to bfloat16: "
        "100,000 ones sum to 99,840; an accumulation in bfloat16 itself (numpy with ml_dtypes) stalls at 256. "
        "`mean` is not reported (torch computes it in float32). Severity: a warning -- the error is a relative "
        "0.4% per rounding, harmless for activations, harmful for statistics that are subtracted or compared later.",
        "Statistics (norms, losses, running means) computed in bfloat16 drift silently.",
        'x: BFloat16[Tensor, "b n d"]\ns = x.sum(dim=1)',
        'x: BFloat16[Tensor, "b n d"]\ns = x.float().sum(dim=1).to(x.dtype)',
    ),
    _c(
        "SHP303",
        "fp16-mean-accumulation",
        W,
        "{op} {verb} {count} float16 values{detail}",
        "A float16 accumulation that is not a plain sum: `cumsum`/`cumprod` (every prefix is stored in float16, "
        "so the running value is inf once it passes 65,504; numpy also accumulates in float16, where a running "
        "sum of ones stalls at 2,048), and numpy `mean` with an explicit `dtype=np.float16` (which makes numpy "
        "accumulate the sum in float16 instead of float32). A plain float16 `mean` is NOT reported: torch "
        "divides in float32 before storing and numpy's float16 mean accumulates in float32. CUDA autocast runs "
        "cumsum and cumprod in float32 (CPU autocast does not). Severity: a warning, data-dependent like SHP301.",
        "A running sum over a long float16 sequence (positions, cumulative attention) is inf or frozen at 2,048.",
        'x: Float16[Tensor, "n d"]\nc = x.cumsum(0)',
        'x: Float16[Tensor, "n d"]\nc = x.float().cumsum(0).to(x.dtype)',
    ),
    # ---- SHP4xx: suspicious but legal ----
    _c(
        "SHP401",
        "misaligned-axes",
        W,
        "{op}: operands carry axes {left} and {right} in different orders",
        "Operands of an elementwise operation, a loss or a stack whose named axes are the same but in a "
        "different order (a teacher map `b t1 t2 h` against a student map `b h t1 t2`), or a shape unpacked into "
        "the tensor's own axis names in another order (`b, k, h, w = maps.shape` of a `b k w h` map). Names come "
        "from annotations, einops patterns and a convolution's layout (`N C H W` after `nn.Conv2d`, `N C (H W)` "
        "after `.flatten(2)`, against tokens `N (H W) C`).",
        "Wherever the sizes happen to coincide the code runs and computes a silently wrong value.",
        'student: Float[Tensor, "b h t1 t2"]\nteacher: Float[Tensor, "b t1 t2 h"]\nloss = F.mse_loss(student, teacher)',
        'student: Float[Tensor, "b h t1 t2"]\nteacher: Float[Tensor, "b t1 t2 h"]\n'
        'loss = F.mse_loss(student, rearrange(teacher, "b t1 t2 h -> b h t1 t2"))',
    ),
    _c(
        "SHP402",
        "reshape-reorders-axes",
        W,
        "{op}({target}) asks for its own axes ({source}) in another order: a reshape does not move the data",
        "A tensor reshaped to its own axis sizes in another order, by the names the sizes were read into: "
        "`b, f, t = x.shape` then `x.reshape(b, t, f)` (or `x.view(b, t, -1)`). A reshape keeps the elements in memory order, so the result reinterprets the data "
        "instead of transposing it. Names read by `x.shape`, `x.size()`, `x.shape[i]` or `x.size(i)` from the "
        "same, unchanged x. Only a permutation of x's own axes is reported: not merges and splits, even out of "
        "order (`x.view(b, h * w, c)` of a `b c h w` x is right where c is 1, and code relies on it), not axes of "
        "size 1, when the result's shape is provably x's own, nor when "
        "the result is reshaped again (the relative-shift trick of Transformer-XL reinterprets memory on purpose).",
        "The code runs whenever the element counts agree and trains on scrambled features: a frame tagger sees "
        "frequency bins of several frames mixed in each frame.",
        'mel: Float[Tensor, "b f t"]\nb, f, t = mel.shape\nframes = mel.reshape(b, t, f)',
        'mel: Float[Tensor, "b f t"]\nb, f, t = mel.shape\nframes = mel.transpose(1, 2)',
    ),
    _c(
        "SHP403",
        "rnn-batch-axis",
        W,
        "{layer} without batch_first=True returns (seq, batch, features), and its output's {use} takes the batch "
        "axis for time",
        "A recurrent layer (`nn.RNN`, `nn.LSTM`, `nn.GRU`) built without `batch_first=True` reads a 3-d input as "
        "(seq, batch, features), and its output, used as it was returned, is pooled over axis 1 "
        "(`out.mean(dim=1)`, `sum`, `max`, ...) or has its last or first step picked as `out[:, -1]` / `out[:, 0]`: "
        "the idioms of a batch-first output. With the layer's layout that pools over (or picks from) the batch, so "
        "the code runs and mixes the examples of a batch; where the input really was batch-first, the recurrence "
        "ran across the batch. Reported at the layer call; not when axis 1 has size 1, nor for a packed sequence.",
        "Nothing fails: a classifier trains on batch-averaged features and only batch-size-dependent predictions "
        "give it away.",
        'rnn = nn.GRU(16, 32)\nx: Float[Tensor, "b t 16"]\nlast = rnn(x)[0][:, -1]',
        'rnn = nn.GRU(16, 32, batch_first=True)\nx: Float[Tensor, "b t 16"]\nlast = rnn(x)[0][:, -1]',
    ),
    _c(
        "SHP404",
        "loss-broadcast",
        W,
        "{op}: input {input_shape} and target {target_shape} differ on axis {axis} ({left} vs {right}); the loss broadcasts "
        "the size-1 axis instead of comparing element by element",
        "A regression loss (`mse_loss`, `l1_loss`, `smooth_l1_loss`, `huber_loss`, or their `nn` modules) whose "
        "input and target have the same rank and differ on an axis where one of them has size 1. torch broadcasts "
        "them with a UserWarning and averages over the broadcast shape: right for an ensemble scored against one "
        "target on purpose, silently wrong for a `(b, 1)` prediction against a `(b, k)` target. Sizes that cannot "
        "broadcast are the definite SHP204 (`loss-target`), and so is any difference for the binary cross-entropies, "
        "which raise.",
        "Wherever the broadcast was not meant, the loss trains towards the mean of the other axis without an error.",
        'pred: Float[Tensor, "b 1"]\ntarget: Float[Tensor, "b 3"]\nloss = F.mse_loss(pred, target)',
        'pred: Float[Tensor, "b 3"]\ntarget: Float[Tensor, "b 3"]\nloss = F.mse_loss(pred, target)',
    ),
    # ---- SHP9xx: analysis failures ----
    _c(
        "SHP901",
        "syntax-error",
        E,
        "could not parse file: {detail}",
        "A file that is not valid Python (or not decodable): shapecheck skips it and says so.",
        "Silence on an unparsable file would look like a clean result.",
        "def f(:",
        "def f(x): ...",
    ),
    _c(
        "SHP902",
        "internal-error",
        E,
        "internal analysis failure ({error_type}: {error_message}); this file was not fully checked",
        "A bug in shapecheck itself. The rest of the run goes on; please report it.",
        "A crash must never take the host (mypy, flake8, an editor) down with it.",
        "",
        "",
    ),
    _c(
        "SHP903",
        "analysis-budget",
        W,
        "analysis budget exceeded in {what}: {detail}",
        "A function (or a module's top-level code) too long to analyse within its budget. A function whose body "
        "has more than 5,000 lines is not parsed at all; otherwise the analysis stops after 1,000,000 steps (one "
        "per statement run, including inlined callees, plus one per variable copied into the branches of an `if`) "
        "or 20 seconds of CPU time. The environment variables `SHAPECHECK_FUNCTION_LINES`, "
        "`SHAPECHECK_FUNCTION_STEPS` and `SHAPECHECK_FUNCTION_SECONDS` change the limits. What was found before "
        "the limit is reported; nothing is guessed about the rest.",
        "Generated code with tens of thousands of statements in one function must not take minutes and gigabytes, "
        "and a function that was only partly checked must not look clean.",
        "",
        "",
    ),
)

REGISTRY: dict[str, Code] = {c.code: c for c in CODES}


def get(code: str) -> Code:
    return REGISTRY[code]
