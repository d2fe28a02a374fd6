"""Hypothesis strategies for differential tests: einops calls, valid and invalid (shared by several test files)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
        return (f"Case({self.op!r}, {self.pattern!r}, shapes={self.shapes}, kwargs={self.kwargs}, "
                f"reduction={getattr(self.reduction, '__name__', self.reduction)!r}, as_list={self.as_list}, "
                f"packed_shapes={self.packed_shapes})")


@st.composite
def _side(draw: Any, sizes: dict, allow_ellipsis: bool = True) -> tuple[list, list]:
    """One side: list of tokens (strings) and the tensor dims they stand for (None: unknown / ellipsis)."""
    n = draw(st.integers(0, 4))
    tokens: list = []
    dims: list = []
    used_ellipsis = False
    for _ in range(n):
        kind = draw(st.sampled_from(["name"] * 5 + ["anon", "group", "group", "ellipsis", "unit"]))
        if kind == "name":
            nm = draw(st.sampled_from(NAMES))
            tokens.append(nm)
            dims.append(sizes[nm])
        elif kind == "anon":
            v = draw(st.sampled_from([1, 2, 3]))
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
            k = draw(st.integers(0, 3))
            atoms = [draw(st.sampled_from(NAMES + ["2", "1"])) for _ in range(k)]
            prod = 1
            for a in atoms:
                prod *= int(a) if a.isdigit() else sizes[a]
            tokens.append("(" + " ".join(atoms) + ")")
            dims.append(prod)
    return tokens, dims


def _mutate(draw: Any, text: str) -> str:
    if draw(st.integers(0, 9)) == 0:
        junk = draw(st.sampled_from(JUNK))
        pos = draw(st.integers(0, len(text)))
        text = text[:pos] + " " + junk + " " + text[pos:]
    return text


def _regroup(draw: Any, atoms: list, allow_ellipsis_group: bool = True) -> list:
    out: list = []
    i = 0
    while i < len(atoms):
        k = draw(st.sampled_from([1, 1, 1, 2, 2, 3]))
        chunk = atoms[i: i + k]
        i += k
        if len(chunk) > 1 and (allow_ellipsis_group or "..." not in chunk) and draw(st.integers(0, 2)) == 0:
            out.append("(" + " ".join(chunk) + ")")
        else:
            out.extend(chunk)
    return out


@st.composite
def transform_cases(draw: Any) -> Case:
    op = draw(st.sampled_from(["rearrange", "reduce", "repeat"]))
    sizes = {n: draw(st.integers(1, 4)) for n in NAMES}
    pool = list(draw(st.permutations(NAMES)))
    k = draw(st.integers(0, 4))
    atoms = pool[:k]
    spare = pool[k:]
    has_ell = draw(st.integers(0, 3)) == 0
    if has_ell:
        atoms.insert(draw(st.integers(0, len(atoms))), "...")
    left = _regroup(draw, atoms, allow_ellipsis_group=False)
    if op != "rearrange" and draw(st.integers(0, 4)) == 0:
        left.insert(draw(st.integers(0, len(left))), draw(st.sampled_from(["2", "3", "(b 2)", "1", "()"])))
    elif draw(st.integers(0, 8)) == 0:
        left.insert(draw(st.integers(0, len(left))), draw(st.sampled_from(["1", "()", "(1 a)", "2"])))
    if op == "rearrange":
        right_atoms = list(draw(st.permutations(atoms))) if atoms else []
    elif op == "reduce":
        right_atoms = [a for a in atoms if draw(st.integers(0, 2))]
        if draw(st.booleans()) and right_atoms:
            right_atoms = list(draw(st.permutations(right_atoms)))
    else:
        new = [n for n in spare if draw(st.booleans())]
        if draw(st.integers(0, 3)) == 0:
            new.append(draw(st.sampled_from(["2", "3"])))
        right_atoms = list(draw(st.permutations(atoms + new))) if atoms + new else []
    right = _regroup(draw, right_atoms)
    if draw(st.integers(0, 6)) == 0:
        right.insert(draw(st.integers(0, len(right))), draw(st.sampled_from(["1", "()", "(1)"])))
    mode = draw(st.integers(0, 11))
    if mode == 0:
        right = list(draw(_side(sizes))[0])
    elif mode == 1:
        left = list(draw(_side(sizes))[0])
    pattern = " ".join(left) + " -> " + " ".join(right)
    pattern = _mutate(draw, pattern)
    # the input shape the left side describes
    shape: list = []
    for tok in left:
        if tok == "...":
            shape.extend(draw(st.lists(st.integers(1, 3), max_size=2)))
            continue
        prod = 1
        for a in tok.strip("()").split():
            prod *= int(a) if a.isdigit() else sizes.get(a, 1)
        shape.append(prod)
    if draw(st.integers(0, 9)) == 0 and shape:
        i = draw(st.integers(0, len(shape) - 1))
        shape[i] = draw(st.integers(1, 6))
    if draw(st.integers(0, 12)) == 0:
        shape = shape[:-1] if shape and draw(st.booleans()) else shape + [draw(st.integers(1, 3))]
    # axis lengths: all but one unknown in every group, new axes of repeat, some extra ones
    kwargs: dict = {}
    for tok in left:
        if tok.startswith("("):
            names = [a for a in tok.strip("()").split() if not a.isdigit()]
            skip = draw(st.integers(0, max(len(names) - 1, 0))) if draw(st.integers(0, 9)) else -1
            for j, a in enumerate(names):
                if j != skip:
                    kwargs[a] = sizes[a]
    if op == "repeat":
        for tok in right:
            for a in tok.strip("()").split():
                if a in sizes and a not in atoms and draw(st.integers(0, 9)):
                    kwargs[a] = sizes[a]
    for nm in atoms:
        if nm in sizes and draw(st.integers(0, 5)) == 0:
            kwargs[nm] = sizes[nm] if draw(st.integers(0, 5)) else draw(st.integers(1, 6))
    if draw(st.integers(0, 12)) == 0:
        kwargs[draw(st.sampled_from(["q", "_x", "axis1", "e"]))] = 2
    kwargs = dict(draw(st.permutations(list(kwargs.items())))) if kwargs else {}
    reduction = None
    if op == "reduce":
        reduction = draw(st.sampled_from(REDUCTIONS + [_custom_sum, "sum", "mean"]))
    as_list = bool(shape) and draw(st.integers(0, 6)) == 0
    if as_list:
        shapes = [list(shape[1:]) for _ in range(shape[0])]
        if draw(st.integers(0, 5)) == 0 and shapes and shapes[0]:
            shapes[-1] = [x + 1 for x in shapes[-1]]
    else:
        shapes = [shape]
    return Case(op, pattern, shapes, kwargs, reduction, as_list)


@st.composite
def einsum_cases(draw: Any) -> Case:
    sizes = {n: draw(st.integers(1, 4)) for n in NAMES + ["_"]}
    n_ops = draw(st.integers(1, 3))
    terms, shapes = [], []
    all_names: list = []
    ell_shape = draw(st.lists(st.integers(1, 3), max_size=2))
    for _ in range(n_ops):
        k = draw(st.integers(0, 3))
        toks = [draw(st.sampled_from(NAMES[:4] + ["_"])) for _ in range(k)]
        all_names += toks
        shape = [sizes[t] if draw(st.integers(0, 8)) else 1 for t in toks]
        if draw(st.integers(0, 4)) == 0:
            pos = draw(st.integers(0, len(toks)))
            toks.insert(pos, "...")
            e = ell_shape[draw(st.integers(0, len(ell_shape))):] if ell_shape else []
            shape[pos:pos] = e
        if draw(st.integers(0, 12)) == 0:
            toks.append(draw(st.sampled_from(["1", "()", "(a b)", "2", "a_", "…"])))
            shape.append(1)
        if draw(st.integers(0, 10)) == 0 and shape:
            shape[draw(st.integers(0, len(shape) - 1))] = draw(st.integers(1, 5))
        terms.append(" ".join(toks))
        shapes.append(shape)
    uniq = list(dict.fromkeys(n for n in all_names))
    out = [n for n in uniq if draw(st.booleans())]
    out = list(draw(st.permutations(out))) if out else []
    if draw(st.integers(0, 2)) == 0:
        out.insert(draw(st.integers(0, len(out))), "...")
    if draw(st.integers(0, 12)) == 0:
        out.append(draw(st.sampled_from(["e", "_", "a"])))
    pattern = ", ".join(terms) + " -> " + " ".join(out)
    if draw(st.integers(0, 15)) == 0:
        pattern = pattern.replace("->", draw(st.sampled_from(["", "-> ->", "- >"])))
    pattern = _mutate(draw, pattern)
    if draw(st.integers(0, 12)) == 0:
        shapes = shapes[:-1] if len(shapes) > 1 else shapes + [[2]]
    return Case("einsum", pattern, shapes)


@st.composite
def pack_cases(draw: Any) -> Case:
    before = draw(st.lists(st.sampled_from(NAMES), max_size=2))
    after = draw(st.lists(st.sampled_from(NAMES), max_size=2))
    toks = before + ["*"] + after
    if draw(st.integers(0, 8)) == 0:
        toks = [t for t in toks if t != "*"] if draw(st.booleans()) else toks + [draw(st.sampled_from(["_a", "(b", "...", "1", "*"]))]
    pattern = " ".join(toks)
    sizes = {n: draw(st.integers(1, 3)) for n in NAMES}
    outer_b = [sizes[n] for n in before]
    outer_a = [sizes[n] for n in after]
    if draw(st.booleans()):
        n = draw(st.integers(1, 3))
        shapes = []
        for _ in range(n):
            mid = draw(st.lists(st.integers(1, 3), max_size=2))
            s = outer_b + mid + outer_a
            if draw(st.integers(0, 8)) == 0 and s:
                s[draw(st.integers(0, len(s) - 1))] += 1
            shapes.append(s)
        return Case("pack", pattern, shapes)
    mids = draw(st.lists(st.lists(st.integers(1, 3), max_size=2), min_size=1, max_size=3))
    total = sum(_prod(m) for m in mids)
    if draw(st.integers(0, 5)) == 0:
        total += draw(st.integers(-2, 2))
    total = max(total, 1)
    packed = [tuple(m) for m in mids]
    for i in range(len(packed)):
        if draw(st.integers(0, 4)) == 0:
            m = list(packed[i]) or [1]
            m[draw(st.integers(0, len(m) - 1))] = -1
            packed[i] = tuple(m)
    shape = outer_b + [total] + outer_a
    if draw(st.integers(0, 10)) == 0:
        shape = shape + [2]
    return Case("unpack", pattern, [shape], packed_shapes=packed)


def _prod(xs: Any) -> int:
    r = 1
    for x in xs:
        r *= x
    return r


@st.composite
def parse_shape_cases(draw: Any) -> Case:
    toks = draw(st.lists(st.sampled_from(NAMES[:3] + ["_", "_", "...", "1", "2", "()", "(a)", "(a b)", "(...)",
                                                      "(1 d)", "a_", "\u2026"]), max_size=5))
    pattern = _mutate(draw, " ".join(toks))
    shape: list = []
    for t in toks:
        if t == "...":
            shape.extend(draw(st.lists(st.integers(1, 3), max_size=2)))
        elif t in ("1", "()"):
            shape.append(1 if draw(st.integers(0, 5)) else 2)
        elif t == "2":
            shape.append(2 if draw(st.integers(0, 5)) else 3)
        else:
            shape.append(draw(st.integers(1, 4)))
    if draw(st.integers(0, 8)) == 0:
        shape = draw(st.lists(st.sampled_from([1, 1, 2, 2, 3, 4]), max_size=5))
    return Case("parse_shape", pattern, [shape])


def any_case() -> Any:
    return st.one_of(transform_cases(), einsum_cases(), pack_cases(), parse_shape_cases())
