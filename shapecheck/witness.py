"""Witnesses: concrete sizes under which a definite (SHP2xx) finding fails.

A definite finding is a claim about *every* positive assignment of its symbols. A witness makes one such
assignment concrete, so that the claim can be shown to a user ("with b=2, h=7") and replayed on real
operations (:mod:`shapecheck.verify`). It is built from the finding's :class:`~shapecheck.analysis.interpret.context.OpSpec`
(the failing operation with its symbolic input shapes) and is:

* **consistent** with every constraint the checker knows about the operation: every input size, keyword length,
  target, packed shape and annotation binding evaluates to a positive integer (quotients such as ``n/16`` make
  ``n`` a multiple of 16; ``n - 1`` makes ``n`` at least 2); the conditions the pattern engine (or the jaxtyping
  matcher) *assumed* on the way to the failure -- ``a == b`` it could not decide, ``n divisible by h`` -- hold
  (equalities are solved by substitution, divisibility by scaling);
* **small and distinct where free**: free symbols get distinct primes (2, 3, 5, ...), skipping every constant of
  the operation, so that an accidental equality can neither hide nor fake the failure; a symbol is multiplied
  only by what its quotients need.

Nothing here imports an array library: witnesses are built inside the checker. :func:`concrete_failure` is the
integer shape function of each operation (the pattern engine with ``int`` sizes for einops, the jaxtyping matcher
for annotations, plain broadcasting / matmul / concat rules for framework ops) -- a first, cheap check that the
witness does fail, used by tests and by ``--verify`` next to the real libraries.
"""

from __future__ import annotations

import random
from math import lcm
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from .diagnostics import Witness
from .sizes import Size
from .sizes.algebra import SizeLike, Truth, as_size, divisible, display_name, equal, solve_for

if TYPE_CHECKING:  # the pattern engine is imported lazily at run time
    from .pattern.shapes import Domain

__all__ = ["build_witness", "concrete_failure", "solve_assignment", "EINOPS_OPS", "FRAMEWORK_OPS"]

EINOPS_OPS = frozenset({"rearrange", "reduce", "repeat", "pack", "unpack", "einsum", "parse_shape"})
FRAMEWORK_OPS = frozenset(
    {
        "matmul",
        "solve",
        "nn.MultiheadAttention.mask",
        "nn.MultiheadAttention.attn_mask",
        "eqx.nn.LayerNorm",
        "elementwise",
        "loss",
        "class_loss.weight",
        "class_loss.target",
        "ctc_loss.lengths",
        "cat",
        "stack",
        "reshape",
        "expand",
        "squeeze",
        "setitem",
        "inplace",
        "mask_index",
        "linear",
        "attention",
        "nn.Linear",
        "nn.LayerNorm",
        "nn.Conv",
        "nn.GroupNorm",
        "nn.ConvTranspose",
        "equation_einsum",
        "split",
        "unpack.pieces",
        "topk",
        "nn.TransformerBlock",
        "nn.ChannelNorm",
        "nn.PixelShuffle",
        "gather",
        "index_add",
        "vmap",
        "scan.carry",
        "state_dict.copy",
        "array.new",
        "eqx.nn.Embedding",
        "eqx.nn.Linear",
        "nn.Embedding.index",
        "class_loss.index",
        "index.int",
        "index.count",
        "dim.range",
        "pad.arguments",
        "interpolate.count",
        "lax.conv",
        "lax.dynamic_update_slice",
        "item",
        "view.strided",
        "nn.MultiheadAttention",
        "nn.RNN.state",
    }
)

_INTERNAL = "~"  # prefix of symbols made while re-deriving assumptions (never shown)


def piece_count(how: tuple[Any, ...], size: int) -> int:
    """How many pieces cutting an axis of ``size`` makes: torch's ``split(s)`` (ceil(size / s), at least one),
    ``chunk(n)`` (pieces of ceil(size / n): n or fewer), ``split([sizes])``, ``unbind``; numpy's ``split`` into n
    sections or at indices."""
    kind = how[0]
    if kind == "split":
        return max(1, -(-size // int(how[1])))
    if kind == "chunk":
        c = -(-size // int(how[1]))
        return -(-size // c) if c else int(how[1])
    if kind == "unbind":
        return size
    if kind == "indices":
        return len(how[1]) + 1
    if kind == "sizes":
        return len(how[1])
    return int(how[1])  # sections


# ---------------------------------------------------------------------------------------------------------------
# collecting the sizes of a spec


def _walk_sizes(v: Any, out: list[Size]) -> None:
    if isinstance(v, Size):
        out.append(v)
    elif isinstance(v, (tuple, list)):
        for x in v:
            _walk_sizes(x, out)


def _spec_sizes(spec: Any) -> list[Size]:
    """Every size of the operation, in order of appearance (inputs first)."""
    out: list[Size] = []
    for shape in spec.inputs:
        _walk_sizes(shape, out)
    for _, v in spec.axes_lengths:
        _walk_sizes(v, out)
    for _, v in spec.extra:
        _walk_sizes(v, out)
    return out


def _required_sizes(spec: Any) -> list[Size]:
    """The sizes that must be positive integers (-1 in a reshape target or packed shape is einops'/torch's "infer")."""
    return [s for s in _spec_sizes(spec) if s.as_int() != -1]


def _constants(spec: Any) -> set[int]:
    out: set[int] = set()
    for s in _spec_sizes(spec):
        v = s.as_int()
        if v is not None:
            out.add(abs(v))
    for _, v in spec.extra:
        for x in v if isinstance(v, (tuple, list)) else (v,):
            if isinstance(x, int) and not isinstance(x, bool):
                out.add(abs(x))
    return out


def _ordered_symbols(sizes: Iterable[Size]) -> list[str]:
    seen: dict[str, None] = {}
    for s in sizes:
        for m, _ in s.terms:
            for sym, _ in m:
                seen.setdefault(sym, None)
    return list(seen)


# ---------------------------------------------------------------------------------------------------------------
# assumptions made on the way to the failure


class _Constraints:
    def __init__(self) -> None:
        self.equal: list[tuple[Size, Size]] = []
        self.divides: list[tuple[Size, Size]] = []  # (length, chunk): length must be a multiple of chunk


def _einops_constraints(spec: Any) -> _Constraints:
    """Re-run the failing einops operation symbolically, recording what the engine assumed before it failed."""
    from .pattern.problems import PatternError
    from .pattern.shapes import SymDomain, not_one, solve_einsum, solve_pack, solve_parse_shape, solve_unpack

    cons = _Constraints()
    counter = iter(range(1 << 30))

    class Recording(SymDomain):
        def check_equal(self, actual: Any, expected: Any, axis: str, requirement: Any) -> None:
            if equal(actual, expected) is Truth.UNKNOWN:
                cons.equal.append((as_size(actual), as_size(expected)))
            super().check_equal(actual, expected, axis, requirement)

        def divide(self, length: Any, chunk: Any, axis: str, group: str, pattern: str) -> Size:
            if divisible(as_size(length), as_size(chunk)) is Truth.UNKNOWN:
                cons.divides.append((as_size(length), as_size(chunk)))
            return super().divide(length, chunk, axis, group, pattern)

        def operand_dim(self, a: Any, b: Any, axis: str, op: str) -> Size:
            a2, b2 = as_size(a), as_size(b)
            t = equal(a2, b2)
            if not (
                t is Truth.TRUE
                or b2.as_int() == 1
                or a2.as_int() == 1
                or (t is Truth.FALSE and not_one(a2) and not_one(b2))
            ):
                cons.equal.append((a2, b2))
            return super().operand_dim(a, b, axis, op)

        def same(self, a: Any, b: Any, axis: str, op: str, rule: str, index: int = 0) -> None:
            if equal(a, b) is Truth.UNKNOWN:
                cons.equal.append((as_size(a), as_size(b)))
            super().same(a, b, axis, op, rule, index)

    dom = Recording(lambda name: Size.sym(f"{_INTERNAL}{name}@{next(counter)}"))
    shapes = [tuple(s) for s in spec.inputs]
    try:
        if spec.op in ("rearrange", "reduce", "repeat"):
            _transform_symbolic(spec, shapes, dom)
        elif spec.op == "pack":
            solve_pack(spec.pattern, shapes, dom)
        elif spec.op == "unpack":
            solve_unpack(spec.pattern, shapes[0], [list(p) for p in spec.get("packed_shapes", ())], dom)
        elif spec.op == "einsum":
            solve_einsum(spec.pattern, shapes, dom)
        elif spec.op == "parse_shape":
            solve_parse_shape(spec.pattern, shapes[0], dom)
    except PatternError:
        pass
    except Exception:  # a recipe the engine cannot build: no assumptions to keep
        pass
    return cons


def _transform_symbolic(spec: Any, shapes: list[tuple[SizeLike, ...]], dom: Domain) -> None:
    from .pattern.ir import operation_category
    from .pattern.problems import PatternError
    from .pattern.recipe import parse_transform, transform_recipe
    from .pattern.shapes import infer_transform

    kind = spec.op
    lengths = {k: v for k, v in spec.axes_lengths}
    names = tuple(lengths)
    if spec.get("stacked"):
        first = shapes[0]
        for s in shapes[1:]:
            if len(s) != len(first):
                return
            for a, b in zip(first, s):
                dom.same(a, b, "", kind, "list-elements")
        shape = (Size.const(len(shapes)),) + tuple(first)
    else:
        shape = shapes[0]
    reduction = spec.get("reduction")
    if kind == "reduce" and reduction in (None, "callable"):
        categories = ["reduce", "rearrange", "repeat"] if reduction is None else ["reduce"]
    else:
        categories = [operation_category(kind, reduction)]
    for category in categories:
        try:
            parse_transform(spec.pattern, category, names)
        except PatternError:
            continue
        recipe = transform_recipe(spec.pattern, category, names, len(shape))
        infer_transform(recipe, shape, lengths, dom)
        return


def _annotation_constraints(spec: Any) -> _Constraints:
    """The jaxtyping checks that passed only under an assumption (``n`` bound to ``a`` meets ``b``) before the
    failing one: they must hold in the witness, or the replay would fail earlier, for another reason."""
    from .annotations import parse_dims
    from .annotations.match import evaluate_expr

    cons = _Constraints()
    memo: dict[str, Size] = {k: v for k, v in (spec.get("memo") or ())}
    params = list(spec.get("params") or ())
    dims_list = [d for _, d in params] if params else [spec.get("dims")]
    for shape, dims in zip(spec.inputs, dims_list):
        parsed = parse_dims(dims) if isinstance(dims, str) else None
        if parsed is None or isinstance(parsed, str):
            continue
        i = parsed.variadic_index
        n = len(parsed.dims)
        if i is None:
            if len(shape) != n:
                continue
            pairs = list(zip(parsed.dims, shape))
        else:
            if len(shape) < n - 1:
                continue
            after = n - i - 1
            pairs = list(zip(parsed.dims[:i], shape[:i])) + list(zip(parsed.dims[i + 1 :], shape[len(shape) - after :]))
        for d, size in pairs:
            if d.broadcast and size.as_int() == 1:
                continue
            expected: Size | None = None
            if d.kind == "fixed" and d.value is not None:
                expected = Size.const(d.value)
            elif d.kind == "named" and d.name is not None:
                if d.name in memo:
                    expected = memo[d.name]
                else:
                    memo[d.name] = size
            elif d.kind == "expr" and d.name:
                try:
                    v = evaluate_expr(d.name, memo)
                except Exception:
                    v = None
                if v is not None:
                    expected = as_size(v)
            if expected is not None and equal(size, expected) is Truth.UNKNOWN:
                cons.equal.append((size, expected))
    return cons


def _constraints(spec: Any) -> _Constraints:
    if spec.op in EINOPS_OPS:
        return _einops_constraints(spec)
    if spec.op == "annotation":
        return _annotation_constraints(spec)
    if spec.op == "equation_einsum":  # torch/numpy einsum: the einops engine solved its einops-style rewrite
        from dataclasses import replace

        return _einops_constraints(replace(spec, op="einsum"))
    return _Constraints()


# ---------------------------------------------------------------------------------------------------------------
# solving


def _primes() -> Iterable[int]:
    n = 2
    while True:
        if all(n % p for p in range(2, int(n**0.5) + 1)):
            yield n
        n += 1


def _unify(equalities: Sequence[tuple[Size, Size]]) -> dict[str, Size]:
    """Solve assumed equalities by substitution; one that cannot be solved is dropped (never faked)."""
    sub: dict[str, Size] = {}
    for a, b in equalities:
        a2, b2 = a.substitute(sub), b.substitute(sub)
        diff = a2 - b2
        if not diff.terms:
            continue
        if diff.is_const:
            continue  # contradiction: already definite, nothing to keep
        choice: tuple[str, Size] | None = None
        for side, other in ((a2, b2), (b2, a2)):
            s = side.symbol
            if s is not None and s not in other.free_symbols():
                choice = (s, other)
                break
        if choice is None:
            syms = sorted(diff.free_symbols(), key=lambda s: (not s.startswith(_INTERNAL), s))
            for s in syms:
                sol = solve_for(diff, 0, s)
                if sol is not None and s not in sol.free_symbols():
                    choice = (s, sol)
                    break
        if choice is None:
            continue
        s, val = choice
        sub = {k: v.substitute({s: val}) for k, v in sub.items()}
        sub[s] = val
    return sub


def _valid(
    values: dict[str, int], required: Sequence[Size], checks: Sequence[Callable[[dict[str, int]], bool]]
) -> bool:
    for s in required:
        try:
            v = s.evaluate(values)
        except (KeyError, ZeroDivisionError):
            return False
        if v.denominator != 1 or v < 1:
            return False
    return all(c(values) for c in checks)


def _structured(order: list[str], required: Sequence[Size], avoid: set[int], skip: int) -> dict[str, int]:
    """Distinct primes (skipping ``avoid`` and the first ``skip`` usable ones); symbols in numerators are scaled
    by what their monomials' denominators need."""
    den: list[str] = []
    for s in order:
        if any(dict(m).get(s, 0) < 0 for size in required for m, _ in size.terms):
            den.append(s)
    others = [s for s in order if s not in den]
    gen = (p for p in _primes() if p not in avoid)
    for _ in range(skip):
        next(gen)
    values: dict[str, int] = {}
    for s in den:
        values[s] = next(gen)
    scale = {s: 1 for s in others}
    for size in required:
        for m, c in size.terms:
            need = c.denominator
            for t, e in m:
                if e < 0 and t in values:
                    need *= values[t] ** (-e)
            if need == 1:
                continue
            # which factor was divided is not recorded (b*n/4 may be b * (n/4)): every numerator symbol carries
            # the denominator, so that the divisibility an earlier operation assumed holds whichever it was
            for t, e in m:
                if e > 0 and t in scale:
                    scale[t] = lcm(scale[t], need)
    for s in others:
        values[s] = next(gen) * scale[s]
    return values


def solve_assignment(
    sizes: Sequence[Size],
    equalities: Sequence[tuple[Size, Size]] = (),
    divides: Sequence[tuple[Size, Size]] = (),
    avoid: Iterable[int] = (),
) -> tuple[dict[str, int], bool]:
    """Positive integers for the symbols of ``sizes``: every size (and every ``length / chunk`` of ``divides``)
    a positive integer, every equality kept. Returns (symbol -> value, whether every constraint holds)."""
    sub = _unify(equalities)
    required = [s.substitute(sub) for s in sizes]
    required += [v for v in sub.values()]
    checks: list[Callable[[dict[str, int]], bool]] = []
    for length, chunk in divides:
        length, chunk = length.substitute(sub), chunk.substitute(sub)
        q = length.exact_div(chunk)
        if q is not None:
            required.append(q)
        else:

            def ok(values: dict[str, int], length: Size = length, chunk: Size = chunk) -> bool:
                a, b = length.evaluate(values), chunk.evaluate(values)
                return b != 0 and (a / b).denominator == 1

            checks.append(ok)
    order = _ordered_symbols(required)
    avoid_set = set(avoid) | {0, 1}

    def complete(values: dict[str, int]) -> dict[str, int]:
        full = dict(values)
        for s, expr in sub.items():
            v = expr.evaluate(values) if expr.free_symbols() <= values.keys() else None
            if v is not None and v.denominator == 1:
                full[s] = int(v)
        return full

    first: dict[str, int] | None = None
    for skip in range(0, 12):
        values = _structured(order, required, avoid_set, skip)
        if first is None:
            first = values
        if _valid(values, required, checks):
            return complete(values), True
    rng = random.Random(len(order) * 7919 + len(required))
    for attempt in range(4000):
        top = 8 + attempt // 20
        values = {s: rng.randint(2, top) for s in order}
        if _valid(values, required, checks):
            return complete(values), True
    return complete(first or {}), False


# ---------------------------------------------------------------------------------------------------------------
# the witness


def _concrete(v: Any, values: dict[str, int]) -> Any:
    """JSON-friendly concrete form of an OpSpec value: sizes become ints, tuples lists-of-ints."""
    if isinstance(v, Size):
        try:
            x = v.evaluate(values)
        except KeyError:
            return str(v)
        return int(x) if x.denominator == 1 else float(x)
    if isinstance(v, (tuple, list)):
        return tuple(_concrete(x, values) for x in v)
    return v


def _names(symbols: Sequence[str]) -> dict[str, str]:
    """symbol -> shown name: the display name, primed when two symbols of different scopes share it."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for s in symbols:
        name = display_name(s)
        while name in used:
            name += "'"
        used.add(name)
        out[s] = name
    return out


def build_witness(spec: Any, ctx: Any = None) -> Witness | None:
    """The witness of a definite finding's failing operation, or None when there is no operation spec."""
    if spec is None:
        return None
    cons = _constraints(spec)
    required = _required_sizes(spec)
    values, _ = solve_assignment(required, cons.equal, cons.divides, _constants(spec))
    shown = [s for s in _ordered_symbols(_spec_sizes(spec)) if not s.startswith(_INTERNAL) and s in values]
    names = _names(shown)
    sizes = tuple((names[s], values[s]) for s in shown)
    inputs = tuple(tuple(_concrete(x, values) for x in shape) for shape in spec.inputs)
    lengths = tuple((k, _concrete(v, values)) for k, v in spec.axes_lengths)
    extra = tuple((k, _concrete(v, values)) for k, v in spec.extra)
    return Witness(sizes, spec.op, spec.pattern, inputs, lengths, extra)


# ---------------------------------------------------------------------------------------------------------------
# the integer shape function of each operation


_COMPARISONS = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def assertion_holds(condition: str, values: "dict[str, int] | Sequence[tuple[str, int]]") -> bool | None:
    """An assertion's condition (SHP207's witness: a comparison of integer arithmetic over placeholders, ``(v0 %
    v1) == 0``) on these values, by the safe evaluator (nothing is run); None when it cannot be decided."""
    import ast

    from .annotations.safe_eval import evaluate_expr

    env = dict(values)
    try:
        tree = ast.parse(condition, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(tree, ast.Compare):
        return None
    operands = [tree.left, *tree.comparators]
    got = [evaluate_expr(ast.unparse(o), env) for o in operands]
    if any(not isinstance(g, int) for g in got):
        return None
    texts = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
    for op, a, b in zip(tree.ops, got, got[1:]):
        name = texts.get(type(op))
        if name is None:
            return None
        if not _COMPARISONS[name](a, b):
            return False
    return True


def witness_get(w: Witness, key: str, default: Any = None) -> Any:
    for k, v in w.extra:
        if k == key:
            return v
    return default


def _broadcast(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...] | None:
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and x != 1 and y != 1:
            return None
        out.append(y if x == 1 else x)
    return tuple(reversed(out))


def _solve_failure(a: Sequence[int], b: Sequence[int], framework: str) -> str | None:
    """``linalg.solve(a, b)`` on concrete shapes: numpy >= 2 / JAX >= 0.5 read only a 1-d b as a vector, torch also
    a b of a's shape without its last axis."""
    if len(a) < 2 or not b:
        return "solve needs a matrix and a right-hand side"
    if a[-1] != a[-2]:
        return f"{tuple(a)} is not square"
    vector = len(b) == 1 or (framework == "torch" and tuple(b) == tuple(a[:-1]))
    if (b[-1] if vector else b[-2]) != a[-1]:
        return f"{tuple(a)} and {tuple(b)}: columns and right-hand-side rows differ"
    if len(b) > 1 and _broadcast(a[:-2], b[:-1] if vector else b[:-2]) is None:
        return "batch dimensions do not broadcast"
    return None


def _numel(shape: Sequence[int]) -> int:
    n = 1
    for x in shape:
        n *= x
    return n


def _conv_ok(w: Witness) -> str | None:
    (shape,) = [tuple(s) for s in w.input_shapes]
    n = witness_get(w, "n")
    if len(shape) not in (n + 1, n + 2):
        return f"Conv{n}d takes {n + 1} or {n + 2} dimensions, the input has {len(shape)}"
    cin = witness_get(w, "in_channels")
    if cin is not None and shape[-n - 1] != cin:
        return f"in_channels={cin} but the input has {shape[-n - 1]} channels"
    k, d, p, pt = (witness_get(w, key) for key in ("k", "d", "p", "pt"))
    if pt is None and p is not None:
        pt = tuple(2 * x for x in p)  # the padding added to an axis in all: both sides
    if k is None or d is None or pt is None:
        return None
    for i, size in enumerate(shape[-n:]):
        ki, di, pi = (v[0] if len(v) == 1 else v[i] for v in (k, d, pt))
        if size + pi < di * (ki - 1) + 1:
            return f"the kernel spans {di * (ki - 1) + 1} positions, the input's spatial axis {i} has {size + pi}"
    return None


def concrete_failure(w: Witness) -> str | None:
    """Why the operation of ``w`` fails on its concrete shapes (None: it does not fail), by shapecheck's own
    integer shape functions -- no array library involved."""
    shapes = [tuple(int(x) for x in s) for s in w.input_shapes]
    op = w.op
    if op in EINOPS_OPS:
        from . import pattern as P

        red = witness_get(w, "reduction")
        if red == "callable":
            red = lambda t, axes: t  # noqa: E731 - stands for the user's callable (shape-independent)
        kw: dict[str, Any] = {"axes_lengths": dict(w.axes_lengths)}
        if op in ("rearrange", "reduce", "repeat"):
            kw.update(reduction=red, stacked_list=bool(witness_get(w, "stacked")))
        if op == "unpack":
            kw["packed_shapes"] = [list(p) for p in witness_get(w, "packed_shapes", ())]
        res = P.infer(op, w.pattern or "", shapes, **kw)
        return res.message() if isinstance(res, P.Problem) else None
    if op == "annotation":
        return _annotation_failure(w, shapes)
    if op == "assert":  # SHP207: the comparison the assertion requires, on the values the analysis found
        cond = str(witness_get(w, "condition"))
        held = assertion_holds(cond, witness_get(w, "values", ()))
        return f"{cond} is false for {dict(witness_get(w, 'values', ()))}" if held is False else None
    if op == "equation_einsum":
        from . import pattern as P
        from .analysis.rules.einsum_eq import solve

        solved = solve(str(witness_get(w, "equation")), shapes, str(witness_get(w, "framework")))
        return solved.message() if isinstance(solved, P.Problem) else None
    if op == "vmap":  # two mapped arguments and the axes they are mapped over: the sizes there must be equal
        ka, kb = (int(x) for x in witness_get(w, "axes", (0, 0)))
        na, nb = shapes[0][ka], shapes[1][kb]
        return None if na == nb else f"the mapped axes have {na} and {nb}"
    if op == "scan.carry":  # the carry given to a scan body and the one it returns: the shapes must be equal
        return None if shapes[0] == shapes[1] else f"the carry has {shapes[0]} in and {shapes[1]} out"
    if op == "state_dict.copy":  # load_state_dict: the entry's shape must be the parameter's
        return None if shapes[0] == shapes[1] else f"a tensor of shape {shapes[0]} loaded into {shapes[1]}"
    if op == "array.new":  # an array constructor given its shape (no input): every size must be non-negative
        made = [int(x) for x in witness_get(w, "shape", ())]
        bad = [i for i, x in enumerate(made) if x < 0]
        return f"axis {bad[0]} has the negative size {made[bad[0]]}" if bad else None
    if op == "eqx.nn.Embedding":  # equinox looks up one scalar index
        return f"an array of shape {shapes[0]} is not a scalar index" if shapes and shapes[0] else None
    if op == "eqx.nn.Linear":  # weight @ x contracts in_features with axis -2 of a matrix, then adds the bias
        given = tuple(shapes[0])
        fin, fout = int(witness_get(w, "in_features")), int(witness_get(w, "out_features"))
        contracted = given[0] if len(given) == 1 else given[-2]
        if contracted != fin:
            return f"in_features {fin} is contracted with {contracted}"
        last = given[-1]
        if len(given) >= 2 and witness_get(w, "use_bias") and not witness_get(w, "mlp") and last not in (fout, 1):
            return None if fout == 1 else f"the bias ({fout},) does not broadcast against the last axis {last}"
        return None
    if op == "topk":
        top_k, top_dim = int(witness_get(w, "k", 0)), int(witness_get(w, "dim", -1))
        have = shapes[0][top_dim]
        return None if top_k <= have else f"k = {top_k} is more than the {have} elements of axis {top_dim}"
    if op == "split":
        sizes = [int(x) for x in witness_get(w, "sizes", ())]
        dim = int(witness_get(w, "dim", 0))
        return None if sum(sizes) == shapes[0][dim] else f"the sizes sum to {sum(sizes)}, the axis has {shapes[0][dim]}"
    if op == "matmul":
        a, b = shapes
        if not a or not b:
            return "matmul of a 0-d tensor"
        k2 = b[-2] if len(b) >= 2 else b[0]
        if a[-1] != k2:
            return f"inner dimensions {a[-1]} and {k2} differ"
        if len(a) >= 2 and len(b) >= 2 and _broadcast(a[:-2], b[:-2]) is None:
            return "batch dimensions do not broadcast"
        return None
    if op == "solve":
        return _solve_failure(shapes[0], shapes[1], str(witness_get(w, "framework", "numpy")))
    if op == "eqx.nn.LayerNorm":
        layer_shape = tuple(int(x) for x in witness_get(w, "shape", ()))
        return None if tuple(shapes[0]) == layer_shape else f"{tuple(shapes[0])} is not the layer's shape {layer_shape}"
    if op == "nn.MultiheadAttention.mask":
        q, k, mask = shapes
        if len(q) == 2:
            want: tuple[int, ...] = (k[0],)
        else:
            want = (q[0], k[1]) if witness_get(w, "batch_first") else (q[1], k[0])
        return None if tuple(mask) == want else f"key_padding_mask {tuple(mask)} is not {want}"
    if op == "nn.MultiheadAttention.attn_mask":
        q, k, mask = shapes
        heads = int(witness_get(w, "num_heads"))
        if len(q) == 2:
            want = (q[0], k[0]) if len(mask) == 2 else (heads, q[0], k[0])
        else:
            n, ln, kn = (q[0], q[1], k[1]) if witness_get(w, "batch_first") else (q[1], q[0], k[0])
            want = (ln, kn) if len(mask) == 2 else (n * heads, ln, kn)
        return None if tuple(mask) == want else f"attn_mask {tuple(mask)} is not {want}"
    if op == "elementwise":
        return None if _broadcast(shapes[0], shapes[1]) is not None else f"{shapes[0]} and {shapes[1]} do not broadcast"
    if op == "attention":
        q, k, v = shapes[:3]
        if q[-1] != k[-1]:
            return f"query and key last axes {q[-1]} and {k[-1]} differ"
        if k[-2] != v[-2]:
            return f"key and value sequence axes {k[-2]} and {v[-2]} differ"
        qk = _broadcast(q[:-2], k[:-2])
        batch = _broadcast(qk, v[:-2]) if qk is not None else None
        if len(shapes) > 3 and batch is not None:
            weights = (*batch, q[-2], k[-2])
            if _broadcast(shapes[3], weights) is None:
                return f"attn_mask {tuple(shapes[3])} does not broadcast with the weights {weights}"
        return None
    if op == "ctc_loss.lengths":  # time-major (T, N, C) log-probs: one length per batch entry
        x, lengths = shapes
        return f"{lengths[0]} lengths for batch {x[1]}" if len(x) == 3 and lengths and lengths[0] != x[1] else None
    if op == "class_loss.target":  # a batched input's first axis against the target's; an index target's shape
        inp, tgt = shapes
        if len(inp) >= 2 and tgt and inp[0] != tgt[0]:
            return f"batch {inp[0]} vs target batch {tgt[0]}"
        if len(inp) < 2:
            return None
        want = (inp[0], *inp[2:])
        probabilities = witness_get(w, "name") != "nll_loss" and tuple(tgt) == tuple(inp)
        return f"target {tuple(tgt)}, not {want}" if tuple(tgt) != want and not probabilities else None
    if op == "class_loss.weight":  # a 1-d weight needs one entry per class: input's axis 1 (0 when unbatched)
        x, wt = shapes
        classes = x[1] if len(x) >= 2 else x[0]
        return None if tuple(wt) == (classes,) else f"weight {tuple(wt)} for {classes} classes"
    if op == "loss":
        a, b = shapes
        if a != b:
            return f"input {a} and target {b} differ" + (
                "" if _broadcast(a, b) is not None else " and do not broadcast"
            )
        return None
    if op in ("cat", "stack"):
        dim = witness_get(w, "dim", 0)
        rank = len(shapes[0])
        if any(len(s) != rank for s in shapes):
            return "operands have different ranks"
        if op == "stack":
            return None if all(s == shapes[0] for s in shapes) else "operands differ"
        d = dim % rank if -rank <= dim < rank else None
        if d is None:
            return f"dim {dim} out of range"
        for s in shapes[1:]:
            if any(x != y for i, (x, y) in enumerate(zip(shapes[0], s)) if i != d):
                return "operands differ outside the concatenated axis"
        return None
    if op == "reshape":
        target = [int(x) for x in witness_get(w, "target", ())]
        total = _numel(shapes[0])
        if target.count(-1) == 1:
            known = _numel([x for x in target if x != -1])
            return None if known and total % known == 0 else f"{total} elements are not divisible by {known}"
        return None if _numel(target) == total else f"{total} elements cannot become {_numel(target)}"
    if op == "mask_index":
        indexed, mask = shapes[0], shapes[1]
        if len(mask) > len(indexed):
            return "the mask has more axes than the array"
        for axis, (m, n) in enumerate(zip(mask, indexed)):
            if m != n:
                return f"mask axis {axis} has {m} against {n}"
        return None
    if op == "inplace":  # x op= y: the broadcast must be x's own shape
        out = _broadcast(shapes[0], shapes[1])
        if out is None:
            return f"{shapes[0]} and {shapes[1]} do not broadcast"
        return (
            None
            if tuple(out) == tuple(shapes[0])
            else f"the operands broadcast to {tuple(out)}, not {tuple(shapes[0])}"
        )
    if op == "setitem":
        stored, region = [int(x) for x in shapes[0]], [int(x) for x in shapes[1]]
        while len(stored) > len(region) and stored[0] == 1:
            stored = stored[1:]
        if len(stored) > len(region):
            return "the value has more axes than the region"
        for have, fill in zip(stored, region[len(region) - len(stored) :]):
            if have != 1 and have != fill:
                return f"a value axis of {have} cannot fill a region axis of {fill}"
        return None
    if op == "nn.MultiheadAttention":  # batched query, key, value: one batch (axis 0 batch-first, else 1)
        bi = 0 if witness_get(w, "batch_first") else 1
        q, k, v = shapes
        if k[bi] != v[bi]:
            return f"the key's batch {k[bi]} is not the value's {v[bi]}"
        return None if q[bi] == k[bi] else f"the query's batch {q[bi]} is not the key's {k[bi]}"
    if op == "view.strided":  # torch's view of a tensor with these strides: each result axis evenly strided
        from .analysis.interpret.values import view_strides

        target = [int(x) for x in witness_get(w, "target", ())]
        strides = [int(x) for x in witness_get(w, "strides", ())]
        viewed = view_strides([int(x) for x in shapes[0]], strides, target)
        return f"no strides for {tuple(target)} over strides {tuple(strides)}" if viewed is None else None
    if op == "item":  # a Python number from exactly one element
        n = _numel(shapes[0])
        return None if n == 1 else f"the tensor has {n} elements, not 1"
    if op == "squeeze":  # numpy / JAX: the axis squeezed must have size 1
        axis = int(witness_get(w, "axis", 0))
        size = shapes[0][axis]
        return None if size == 1 else f"axis {axis} has {size}, which is not 1"
    if op == "expand":
        target = [int(x) for x in witness_get(w, "target", ())]
        shape = shapes[0]
        if len(target) < len(shape):
            return "fewer target dimensions"
        for i, size in enumerate(shape):
            t = target[len(target) - len(shape) + i]
            if t != -1 and size != t and size != 1:
                return f"axis {i} has {size}, which is not 1"
        return None
    if op == "linear":
        x, wt = shapes
        return (
            None
            if x and len(wt) in (1, 2) and x[-1] == wt[-1]
            else f"input features {x[-1] if x else None} vs weight {wt}"
        )
    if op == "nn.RNN.state":  # an nn.LSTM / GRU / RNN's input and one initial state: torch checks its whole shape
        x, h = shapes
        width = witness_get(w, "hidden_size")
        if witness_get(w, "state") == "h_0" and witness_get(w, "proj_size"):
            width = witness_get(w, "proj_size")
        lead = int(witness_get(w, "num_layers")) * int(witness_get(w, "dirs"))
        batch = () if len(x) == 2 else ((x[0] if witness_get(w, "batch_first") else x[1]),)
        want = (lead, *batch, int(width))
        return None if h == want else f"initial state {h} vs expected {want}"
    if op == "nn.Linear":
        fin = witness_get(w, "in_features")
        return (
            None
            if shapes[0] and (fin is None or shapes[0][-1] == fin)
            else f"in_features={fin} vs last axis {shapes[0][-1] if shapes[0] else None}"
        )
    if op == "nn.LayerNorm":
        ns = tuple(witness_get(w, "normalized_shape", ()))
        x = shapes[0]
        return (
            None if len(ns) <= len(x) and tuple(x[len(x) - len(ns) :]) == ns else f"normalized_shape {ns} vs input {x}"
        )
    if op == "gather":  # torch: a non-empty index of the input's rank, no larger than it off dim
        x, idx = shapes
        d = witness_get(w, "dim")
        if not x or not idx or 0 in idx:
            return None
        if len(x) != len(idx):
            return f"the index has {len(idx)} dimensions, the input {len(x)}"
        bad = [i for i, (a, b) in enumerate(zip(idx, x)) if i != d and a > b]
        return f"the index is larger than the input on axis {bad[0]}" if bad else None
    if op == "index_add":  # torch: a vector index, a source like the input off dim, index length = source[dim]
        x, idx, src = shapes
        d = witness_get(w, "dim")
        if len(idx) > 1:
            return "the index is not a vector"
        if not x or not src:
            return None
        if len(x) != len(src):
            return f"the source has {len(src)} dimensions, the input {len(x)}"
        bad = [i for i, (a, b) in enumerate(zip(src, x)) if i != d and a != b]
        if bad:
            return f"the source differs from the input on axis {bad[0]}"
        n = idx[0] if idx else 1
        return None if d is None or n == src[d] else f"{n} indices for {src[d]} source rows"
    if op == "nn.ChannelNorm" and witness_get(w, "ranks") is not None:
        ranks = tuple(witness_get(w, "ranks"))
        return None if len(shapes[0]) in ranks else f"{witness_get(w, 'name')} takes {ranks} dimensions"
    if op == "nn.ChannelNorm":
        c, x = witness_get(w, "num_features"), shapes[0]
        return None if len(x) < 2 or x[1] == c else f"num_features={c} vs {x[1]} channels"
    if op == "nn.TransformerBlock":
        d, x = witness_get(w, "d_model"), shapes[0]
        return None if not x or x[-1] == d else f"d_model={d} vs last axis {x[-1]}"
    if op == "nn.Conv":
        return _conv_ok(w)
    if op == "lax.conv":  # jax: the lhs layout's C against the rhs layout's I (one feature group)
        lhs_spec, rhs_spec, _ = witness_get(w, "specs", ("NC", "OI", "NC"))
        c, i = shapes[0][lhs_spec.index("C")], shapes[1][rhs_spec.index("I")]
        return f"{c} input features vs the kernel's {i}" if c != i else None
    if op == "lax.dynamic_update_slice":  # jax: the update has the operand's rank and fits inside it
        update, operand = shapes
        if len(update) != len(operand):
            return f"an update of rank {len(update)} into an operand of rank {len(operand)}"
        for u, o in zip(update, operand):
            if u > o:
                return f"an update axis of {u} is larger than the operand's {o}"
        return None
    if op == "pad.arguments":
        return _pad_arguments_failure(w, shapes[0])
    if op == "interpolate.count":  # F.interpolate: one size / scale_factor entry per spatial axis after (N, C)
        n, count = len(shapes[0]) - 2, int(witness_get(w, "count", 0))
        return None if n == count else f"{count} {witness_get(w, 'arg')} entries for {n} spatial axes"
    if op == "haiku.mha.mask":  # haiku's MultiHeadAttention: a mask of its logits' rank (the query's + 1)
        q, mask = shapes[0], shapes[1]
        rank = len(q) + 1
        return None if len(mask) == rank else f"Mask dimensionality {len(mask)} must match logits dimensionality {rank}"
    if op == "haiku.core":  # one step of haiku's LSTM / GRU / VanillaRNN (recurrent.py)
        return _haiku_core_failure(str(witness_get(w, "core")), int(witness_get(w, "hidden")), shapes)
    if op == "keras.layer":  # a Keras layer's input-rank check (InputSpec ndim)
        ndim = witness_get(w, "ndim")
        return (
            f"{witness_get(w, 'cls')} takes {ndim} dimensions, the input has {len(shapes[0])}"
            if len(shapes[0]) != ndim
            else None
        )
    if op == "dim.range":  # a torch dim argument within the axes (one more for unsqueeze / stack; 0-d takes 0, -1)
        d, extra = int(witness_get(w, "dim")), int(witness_get(w, "extra", 0))
        r = max(len(shapes[0]) + extra, 1)
        return None if -r <= d < r else f"dimension {d} is out of range for {len(shapes[0])} dimensions"
    if op == "index.count":  # x[i, :, j]: each integer or slice takes one axis of its own
        count = int(witness_get(w, "count"))
        return None if count <= len(shapes[0]) else f"{count} indices for {len(shapes[0])} dimensions"
    if op == "index.int":  # x[..., i, ...]: an integer index within its axis (from the end when negative)
        axis, i = int(witness_get(w, "axis")), int(witness_get(w, "index"))
        n = shapes[0][axis]
        return None if -n <= i < n else f"index {i} is out of bounds for size {n}"
    if op == "unpack.pieces":  # a, b, c = x.split(3, dim): the pieces against the names
        count = piece_count(tuple(witness_get(w, "how")), shapes[0][int(witness_get(w, "dim", 0))])
        n, starred = int(witness_get(w, "names")), bool(witness_get(w, "starred"))
        if count == n or (starred and count >= n - 1):
            return None
        return f"{count} pieces unpacked into {'at least ' + str(n - 1) if starred else n} names"
    if op == "unpack.shape":  # b, c, h, w = x.shape
        n = witness_get(w, "names")
        return None if len(shapes[0]) == n else f"{len(shapes[0])} sizes unpacked into {n} names"
    if op == "class_loss.index":  # a class index the target surely holds, against the number of classes
        i, n = witness_get(w, "index"), witness_get(w, "classes")
        return None if i is None or n is None or int(i) < int(n) else f"class index {i} is not below {n}"
    if op == "nn.Embedding.index":  # an index the tensor surely holds, against the table's length
        i, n = witness_get(w, "index"), witness_get(w, "num_embeddings")
        return None if i is None or n is None or int(i) < int(n) else f"index {i} is not below {n}"
    if op == "layer.arguments":  # a constructor's divisibility check (nn.GroupNorm, nn.MultiheadAttention)
        v, d = witness_get(w, "value"), witness_get(w, "by")
        return None if v is None or not d or v % d == 0 else f"{v} is not divisible by {d}"
    if op == "nn.PixelShuffle":  # (*, C, H, W): r * r divides C (PixelShuffle), r divides H and W (PixelUnshuffle)
        x, r = shapes[0], int(witness_get(w, "r"))
        if len(x) < 3:
            return f"{len(x)} dimensions, not at least 3"
        if witness_get(w, "name") == "PixelShuffle":
            return None if x[-3] % (r * r) == 0 else f"{x[-3]} channels are not divisible by {r * r}"
        return None if x[-2] % r == 0 and x[-1] % r == 0 else f"{x[-2]} x {x[-1]} is not divisible by {r}"
    if op in ("nn.GroupNorm", "nn.ConvTranspose"):  # the channel axis (1, or -n-1 unbatched) against the layer's
        x, c = shapes[0], witness_get(w, "num_channels", witness_get(w, "in_channels"))
        n = witness_get(w, "n", len(x) - 2)
        axis = len(x) - n - 1
        return None if c is None or not x or 0 > axis or x[axis] == c else f"{c} channels vs input {x}"
    return None


def _haiku_core_failure(core: str, hidden: int, shapes: list[tuple[int, ...]]) -> str | None:
    """Why ``core(x, state)`` raises for an input and state of these shapes, step by step as haiku computes it."""
    x, state = shapes[0], shapes[1:]
    if core in ("LSTM", "GRU") and len(x) not in (1, 2):
        return f"{core} input must be rank-1 or rank-2"
    if not x or not all(state):
        return "a 0-d array"
    gates = x[:-1] + (hidden,)
    if core == "LSTM":
        h, c = state
        if len(h) != len(x) or h[:-1] != x[:-1]:
            return f"the input {x} and the hidden state {h} cannot be concatenated"
        return None if _broadcast(gates, c) is not None else f"the cell {c} against the gates {gates}"
    s = state[0]
    if core == "VanillaRNN":
        return None if _broadcast(gates, s[:-1] + (hidden,)) is not None else f"the state {s} against {gates}"
    if s[-1] != hidden:
        return f"a state {s} against hidden_size {hidden}"
    zr = _broadcast(x[:-1] + (hidden,), s[:-1] + (hidden,))
    rs = _broadcast(zr[:-1] + (hidden,), s) if zr is not None else None
    a = _broadcast(gates, rs[:-1] + (hidden,)) if rs is not None else None
    return None if a is not None and _broadcast(rs, a) is not None else f"the state {s} against the input {x}"  # type: ignore[arg-type]


def _pad_arguments_failure(w: Witness, shape: tuple[int, ...]) -> str | None:
    """F.pad's flat tuple (``count`` values: even, at most two per axis); lax.reduce_window's / conv's padding:
    one (low, high) pair (``pairs``: the length of each entry) per window axis (``axes``)."""
    if witness_get(w, "op") in ("np.pad", "jnp.pad"):  # pad_width broadcast to (ndim, 2)
        width = tuple(int(x) for x in witness_get(w, "width", ()))
        fits = len(width) <= 2 and all(d in (1, want) for d, want in zip(reversed(width), (2, len(shape))))
        return None if fits else f"pad_width of shape {width} for {len(shape)} axes"
    if witness_get(w, "op") == "F.pad":
        n = int(witness_get(w, "count", 0))
        if n % 2:
            return f"{n} padding values is an odd number"
        return f"{n} padding values for {len(shape)} axes" if n // 2 > len(shape) else None
    pairs = [int(x) for x in witness_get(w, "pairs", ())]
    bad = [i for i, k in enumerate(pairs) if k != 2]
    if bad:
        return f"padding entry {bad[0]} has {pairs[bad[0]]} values"
    axes = int(witness_get(w, "axes", -1))
    return f"{len(pairs)} padding pairs for {axes} axes" if len(pairs) != axes else None


def _annotation_failure(w: Witness, shapes: list[tuple[int, ...]]) -> str | None:
    from .annotations import parse_dims
    from .annotations.match import Memo, match_shape

    memo = Memo()
    for k, v in witness_get(w, "memo", ()) or ():
        memo.single[k] = Size.const(int(v))
    params = list(witness_get(w, "params", ()) or ())
    dims_list = [d for _, d in params] if params else [witness_get(w, "dims")]
    for i, (shape, dims) in enumerate(zip(shapes, dims_list)):
        spec = parse_dims(dims)
        if isinstance(spec, str):
            return None
        res = match_shape(spec, tuple(Size.const(x) for x in shape), memo)
        if res.ok is False:
            where = f"parameter {params[i][0]!r}" if params else "the value"
            return f"{where} of shape {shape} does not match {dims!r}" + (
                "" if i == len(shapes) - 1 else " (before the failing one)"
            )
    return None
