"""Hypothesis strategies for differential tests: einops calls, valid and invalid (shared by several test files)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import random

from hypothesis import strategies as st

NAMES = ["a", "b", "c", "d", "e"]
REDUCTIONS = ["sum", "mean", "max", "min", "prod", "any", "all", "rearrange", "repeat", "avg"]
JUNK = ["-", ".", "..", "(", ")", "((", "->", "0", "_a", "a_", "_", "\u2026", "1a", "$", "a a", "00", "01", "x2"]


def _custom_sum(x: Any, axes: tuple) -> Any:
    return x.sum(axes)


@dataclass
class Case:
    op: str
    pattern: str
    shapes: list  # input shapes (one per tensor / list element / operand)
    kwargs: dict = field(default_factory=dict)
    reduction: Any = None
    as_list: bool = False
    packed_shapes: Any = None

    def __repr__(self) -> str:
        return (
            f"Case({self.op!r}, {self.pattern!r}, shapes={self.shapes}, kwargs={self.kwargs}, "
            f"reduction={getattr(self.reduction, '__name__', self.reduction)!r}, as_list={self.as_list}, "
            f"packed_shapes={self.packed_shapes})"
        )


def _side(rnd: Any, sizes: dict, allow_ellipsis: bool = True) -> tuple[list, list]:
    """One side: list of tokens (strings) and the tensor dims they stand for (None: unknown / ellipsis)."""
    n = rnd.randint(0, 4)
    tokens: list = []
    dims: list = []
    used_ellipsis = False
    for _ in range(n):
        kind = rnd.choice((["name"] * 5 + ["anon", "group", "group", "ellipsis", "unit"]))
        if kind == "name":
            nm = rnd.choice(NAMES)
            tokens.append(nm)
            dims.append(sizes[nm])
        elif kind == "anon":
            v = rnd.choice(([1, 2, 3]))
            tokens.append(str(v))
            dims.append(v)
        elif kind == "unit":
            tokens.append("()")
            dims.append(1)
        elif kind == "ellipsis" and allow_ellipsis and not used_ellipsis:
            used_ellipsis = True
            tokens.append("...")
            dims.append("...")
        else:
            k = rnd.randint(0, 3)
            atoms = [rnd.choice((NAMES + ["2", "1"])) for _ in range(k)]
            prod = 1
            for a in atoms:
                prod *= int(a) if a.isdigit() else sizes[a]
            tokens.append("(" + " ".join(atoms) + ")")
            dims.append(prod)
    return tokens, dims


def _mutate(rnd: Any, text: str) -> str:
    if rnd.randint(0, 9) == 0:
        junk = rnd.choice(JUNK)
        pos = rnd.randint(*(0, len(text)))
        text = text[:pos] + " " + junk + " " + text[pos:]
    return text


def _regroup(rnd: Any, atoms: list, allow_ellipsis_group: bool = True) -> list:
    out: list = []
    i = 0
    while i < len(atoms):
        k = rnd.choice(([1, 1, 1, 2, 2, 3]))
        chunk = atoms[i : i + k]
        i += k
        if len(chunk) > 1 and (allow_ellipsis_group or "..." not in chunk) and rnd.randint(0, 2) == 0:
            out.append("(" + " ".join(chunk) + ")")
        else:
            out.extend(chunk)
    return out


def _transform_cases(rnd: Any, ops: tuple = ("rearrange", "reduce", "repeat")) -> Case:
    op = rnd.choice(ops)
    sizes = {n: rnd.randint(1, 4) for n in NAMES}
    pool = list(_perm(rnd, (NAMES)))
    k = rnd.randint(0, 4)
    atoms = pool[:k]
    spare = pool[k:]
    has_ell = rnd.randint(0, 3) == 0
    if has_ell:
        atoms.insert(rnd.randint(*(0, len(atoms))), "...")
    left = _regroup(rnd, atoms, allow_ellipsis_group=False)
    if op != "rearrange" and rnd.randint(0, 4) == 0:
        left.insert(rnd.randint(*(0, len(left))), rnd.choice((["2", "3", "(b 2)", "1", "()"])))
    elif rnd.randint(0, 8) == 0:
        left.insert(rnd.randint(*(0, len(left))), rnd.choice((["1", "()", "(1 a)", "2"])))
    if op == "rearrange":
        right_atoms = list(_perm(rnd, (atoms))) if atoms else []
    elif op == "reduce":
        right_atoms = [a for a in atoms if rnd.randint(0, 2)]
        if (rnd.random() < 0.5) and right_atoms:
            right_atoms = list(_perm(rnd, (right_atoms)))
    else:
        new = [n for n in spare if (rnd.random() < 0.5)]
        if rnd.randint(0, 3) == 0:
            new.append(rnd.choice((["2", "3"])))
        right_atoms = list(_perm(rnd, (atoms + new))) if atoms + new else []
    right = _regroup(rnd, right_atoms)
    if rnd.randint(0, 6) == 0:
        right.insert(rnd.randint(*(0, len(right))), rnd.choice((["1", "()", "(1)"])))
    mode = rnd.randint(0, 11)
    if mode == 0:
        right = list(_side(rnd, sizes)[0])
    elif mode == 1:
        left = list(_side(rnd, sizes)[0])
    pattern = " ".join(left) + " -> " + " ".join(right)
    pattern = _mutate(rnd, pattern)
    # the input shape the left side describes
    shape: list = []
    for tok in left:
        if tok == "...":
            shape.extend([rnd.randint(1, 3) for _ in range(rnd.randint(0, 2))])
            continue
        prod = 1
        for a in tok.strip("()").split():
            prod *= int(a) if a.isdigit() else sizes.get(a, 1)
        shape.append(prod)
    if rnd.randint(0, 9) == 0 and shape:
        i = rnd.randint(*(0, len(shape) - 1))
        shape[i] = rnd.randint(1, 6)
    if rnd.randint(0, 12) == 0:
        shape = shape[:-1] if shape and (rnd.random() < 0.5) else shape + [rnd.randint(1, 3)]
    # axis lengths: all but one unknown in every group, new axes of repeat, some extra ones
    kwargs: dict = {}
    for tok in left:
        if tok.startswith("("):
            names = [a for a in tok.strip("()").split() if not a.isdigit()]
            skip = rnd.randint(*(0, max(len(names) - 1, 0))) if rnd.randint(0, 9) else -1
            for j, a in enumerate(names):
                if j != skip:
                    kwargs[a] = sizes[a]
    if op == "repeat":
        for tok in right:
            for a in tok.strip("()").split():
                if a in sizes and a not in atoms and rnd.randint(0, 9):
                    kwargs[a] = sizes[a]
    for nm in atoms:
        if nm in sizes and rnd.randint(0, 5) == 0:
            kwargs[nm] = sizes[nm] if rnd.randint(0, 5) else rnd.randint(1, 6)
    if rnd.randint(0, 12) == 0:
        kwargs[rnd.choice((["q", "_x", "axis1", "e"]))] = 2
    kwargs = dict(_perm(rnd, (list(kwargs.items())))) if kwargs else {}
    reduction = None
    if op == "reduce":
        reduction = rnd.choice((REDUCTIONS + [_custom_sum, "sum", "mean"]))
    as_list = bool(shape) and rnd.randint(0, 6) == 0
    if as_list:
        shapes = [list(shape[1:]) for _ in range(shape[0])]
        if rnd.randint(0, 5) == 0 and shapes and shapes[0]:
            shapes[-1] = [x + 1 for x in shapes[-1]]
    else:
        shapes = [shape]
    return Case(op, pattern, shapes, kwargs, reduction, as_list)


def _einsum_cases(rnd: Any) -> Case:
    sizes = {n: rnd.randint(1, 4) for n in NAMES + ["_"]}
    n_ops = rnd.randint(1, 3)
    terms, shapes = [], []
    all_names: list = []
    ell_shape = [rnd.randint(1, 3) for _ in range(rnd.randint(0, 2))]
    for _ in range(n_ops):
        k = rnd.randint(0, 3)
        toks = [rnd.choice((NAMES[:4] + ["_"])) for _ in range(k)]
        all_names += toks
        shape = [sizes[t] if rnd.randint(0, 8) else 1 for t in toks]
        if rnd.randint(0, 4) == 0:
            pos = rnd.randint(*(0, len(toks)))
            toks.insert(pos, "...")
            e = ell_shape[rnd.randint(*(0, len(ell_shape))) :] if ell_shape else []
            shape[pos:pos] = e
        if rnd.randint(0, 12) == 0:
            toks.append(rnd.choice((["1", "()", "(a b)", "2", "a_", "…"])))
            shape.append(1)
        if rnd.randint(0, 10) == 0 and shape:
            shape[rnd.randint(*(0, len(shape) - 1))] = rnd.randint(1, 5)
        terms.append(" ".join(toks))
        shapes.append(shape)
    uniq = list(dict.fromkeys(n for n in all_names))
    out = [n for n in uniq if (rnd.random() < 0.5)]
    out = list(_perm(rnd, (out))) if out else []
    if rnd.randint(0, 2) == 0:
        out.insert(rnd.randint(*(0, len(out))), "...")
    if rnd.randint(0, 12) == 0:
        out.append(rnd.choice((["e", "_", "a"])))
    pattern = ", ".join(terms) + " -> " + " ".join(out)
    if rnd.randint(0, 15) == 0:
        pattern = pattern.replace("->", rnd.choice((["", "-> ->", "- >"])))
    pattern = _mutate(rnd, pattern)
    if rnd.randint(0, 12) == 0:
        shapes = shapes[:-1] if len(shapes) > 1 else shapes + [[2]]
    return Case("einsum", pattern, shapes)


def _pack_cases(rnd: Any) -> Case:
    before = [rnd.choice(NAMES) for _ in range(rnd.randint(0, 2))]
    after = [rnd.choice(NAMES) for _ in range(rnd.randint(0, 2))]
    toks = before + ["*"] + after
    if rnd.randint(0, 8) == 0:
        toks = (
            [t for t in toks if t != "*"]
            if (rnd.random() < 0.5)
            else toks + [rnd.choice((["_a", "(b", "...", "1", "*"]))]
        )
    pattern = " ".join(toks)
    sizes = {n: rnd.randint(1, 3) for n in NAMES}
    outer_b = [sizes[n] for n in before]
    outer_a = [sizes[n] for n in after]
    if rnd.random() < 0.5:
        n = rnd.randint(1, 3)
        shapes = []
        for _ in range(n):
            mid = [rnd.randint(1, 3) for _ in range(rnd.randint(0, 2))]
            s = outer_b + mid + outer_a
            if rnd.randint(0, 8) == 0 and s:
                s[rnd.randint(*(0, len(s) - 1))] += 1
            shapes.append(s)
        return Case("pack", pattern, shapes)
    mids = [[rnd.randint(1, 3) for _ in range(rnd.randint(0, 2))] for _ in range(rnd.randint(1, 3))]
    total = sum(_prod(m) for m in mids)
    if rnd.randint(0, 5) == 0:
        total += rnd.randint(*(-2, 2))
    total = max(total, 1)
    packed = [tuple(m) for m in mids]
    for i in range(len(packed)):
        if rnd.randint(0, 4) == 0:
            m = list(packed[i]) or [1]
            m[rnd.randint(*(0, len(m) - 1))] = -1
            packed[i] = tuple(m)
    shape = outer_b + [total] + outer_a
    if rnd.randint(0, 10) == 0:
        shape = shape + [2]
    return Case("unpack", pattern, [shape], packed_shapes=packed)


def _prod(xs: Any) -> int:
    r = 1
    for x in xs:
        r *= x
    return r


def _parse_shape_cases(rnd: Any) -> Case:
    toks = [
        rnd.choice(NAMES[:3] + ["_", "_", "...", "1", "2", "()", "(a)", "(a b)", "(...)", "(1 d)", "a_", "\u2026"])
        for _ in range(rnd.randint(0, 5))
    ]
    pattern = _mutate(rnd, " ".join(toks))
    shape: list = []
    for t in toks:
        if t == "...":
            shape.extend([rnd.randint(1, 3) for _ in range(rnd.randint(0, 2))])
        elif t in ("1", "()"):
            shape.append(1 if rnd.randint(0, 5) else 2)
        elif t == "2":
            shape.append(2 if rnd.randint(0, 5) else 3)
        else:
            shape.append(rnd.randint(1, 4))
    if rnd.randint(0, 8) == 0:
        shape = [rnd.choice([1, 1, 2, 2, 3, 4]) for _ in range(rnd.randint(0, 5))]
    return Case("parse_shape", pattern, [shape])


def _perm(rnd: random.Random, xs: Any) -> list:
    xs = list(xs)
    rnd.shuffle(xs)
    return xs


# Cases are built from one drawn seed: hypothesis drives (and derandomizes) the seeds, plain `random` builds the
# case, which is an order of magnitude cheaper than drawing every choice through hypothesis.
_SEEDS = st.integers(0, 2**64 - 1)


def transform_cases(ops: tuple = ("rearrange", "reduce", "repeat")) -> Any:
    return _SEEDS.map(lambda seed: _transform_cases(random.Random(seed), ops))


def einsum_cases() -> Any:
    return _SEEDS.map(lambda seed: _einsum_cases(random.Random(seed)))


def pack_cases() -> Any:
    return _SEEDS.map(lambda seed: _pack_cases(random.Random(seed)))


def parse_shape_cases() -> Any:
    return _SEEDS.map(lambda seed: _parse_shape_cases(random.Random(seed)))


def any_case() -> Any:
    return st.one_of(transform_cases(), einsum_cases(), pack_cases(), parse_shape_cases())
