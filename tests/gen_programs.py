"""Generated programs for the static-versus-runtime comparison (tests/test_static_vs_runtime.py).

A `Program` is one annotated function making einops calls.  The same data structure is rendered to Python source
(analysed by shapecheck, never executed) and evaluated directly, step by step, with real einops on real torch
tensors (the oracle).

Generation works on a *model* of every tensor: a list of `Size` monomials (coefficient times annotation symbols).
Every step is first generated valid for the model, then - only if none of its inputs descends from a mutated step -
possibly mutated (invalid pattern, wrong rank, non-divisible group, contradicting / unused / missing keyword, bad
reduction, einsum size mismatch, inconsistent list members, bad pack / unpack shapes).  Hence a step whose input is
unknown at runtime (an earlier call raised) is always an unmutated step: the oracle checks that it would succeed on
the model shapes, and then shapecheck must stay silent on it.

Modes:
  concrete  annotations with literal sizes only: a finding exactly when einops raises;
  bound     symbolic annotations whose names are all bound to literal sizes by a first call
            (``x = rearrange(x, "b n d -> b n d", b=2, n=6, d=4)``): exact as well after the binding;
  symbolic  named sizes shared between parameters, mixed with literals ("b n 500"): a finding only where the
            call raises at every sampled positive assignment consistent with the annotations (3 random + all-12).
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass, field
from typing import Any

# ----------------------------------------------------------------------------------------------- sizes


@dataclass(frozen=True)
class Size:
    coef: int
    syms: tuple = ()  # sorted multiset of annotation symbols

    def __mul__(self, o: "Size") -> "Size":
        return Size(self.coef * o.coef, tuple(sorted(self.syms + o.syms)))

    def divides(self, o: "Size") -> bool:
        if self.coef == 0 or o.coef % self.coef:
            return False
        rest = list(o.syms)
        for s in self.syms:
            if s not in rest:
                return False
            rest.remove(s)
        return True

    def __floordiv__(self, o: "Size") -> "Size":
        rest = list(self.syms)
        for s in o.syms:
            rest.remove(s)
        return Size(self.coef // o.coef, tuple(rest))

    @property
    def concrete(self) -> bool:
        return not self.syms

    def ev(self, assign: dict) -> int:
        v = self.coef
        for s in self.syms:
            v *= assign[s]
        return v

    def ann(self) -> str:
        parts = ([str(self.coef)] if self.coef != 1 or not self.syms else []) + list(self.syms)
        return "*".join(parts)


ONE = Size(1)


def prod(sizes: Any) -> Size:
    out = ONE
    for s in sizes:
        out = out * s
    return out


# ----------------------------------------------------------------------------------------------- expressions


class Poison(Exception):
    """A value the runtime never computed (an earlier call raised)."""


@dataclass(frozen=True)
class Poisoned:
    """The value of a call that raised (or of a call fed by one); `origins` are the lines of the raising calls."""

    origins: frozenset


def poisoned(v: Any) -> bool:
    return isinstance(v, Poisoned)


@dataclass(frozen=True)
class Expr:
    """A keyword value: literal, name from ``x.shape`` unpacking, ``x.shape[i]`` or ``s["key"]`` of parse_shape."""

    kind: str  # lit | var | shape | key
    size: Size  # the model value
    name: str = ""
    index: Any = None

    def src(self) -> str:
        if self.kind == "lit":
            return str(self.size.coef)
        if self.kind == "var":
            return self.name
        if self.kind == "shape":
            return f"{self.name}.shape[{self.index}]"
        return f'{self.name}["{self.index}"]'

    @property
    def deps(self) -> tuple:
        return (self.name,) if self.kind in ("shape", "key", "var") else ()

    def ev(self, env: dict) -> int:
        if self.kind == "lit":
            return self.size.coef
        v = env[self.name]
        if poisoned(v):
            raise Poison(v.origins)
        if self.kind == "var":
            return v
        if self.kind == "shape":
            return int(v.shape[self.index])
        return int(v[self.index])


def lit(k: int) -> Expr:
    return Expr("lit", Size(k))


# ----------------------------------------------------------------------------------------------- steps


@dataclass
class Param:
    name: str
    dims: list  # list[Size]
    ann: str = ""  # rendered annotation text (may differ from dims when mutated? no: dims are the truth)


@dataclass
class Call:
    op: str  # rearrange reduce repeat einsum pack unpack parse_shape bind
    inputs: list  # tensor variable names
    pattern: str
    outputs: list
    kwargs: list = field(default_factory=list)  # list[(name, Expr)]
    reduction: Any = None
    as_list: bool = False
    unpack_shapes: Any = None  # ("var", name) or list of tuples of Expr/int
    in_model: list = field(default_factory=list)  # model shapes of inputs
    out_model: list = field(default_factory=list)
    mutation: str = ""
    line: int = 0

    def deps(self) -> set:
        d = set(self.inputs)
        for _, e in self.kwargs:
            d.update(e.deps)
        if isinstance(self.unpack_shapes, tuple):
            d.add(self.unpack_shapes[1])
        return d

    def render(self) -> str:
        first = ("[" + ", ".join(self.inputs) + "]") if self.as_list else ", ".join(self.inputs)
        args = [first, repr_str(self.pattern)]
        if self.op == "reduce":
            args.insert(2, repr_str(self.reduction))
        if self.op == "unpack":
            shapes = self.unpack_shapes
            args.insert(1, shapes[1] if isinstance(shapes, tuple) else shapes_src(shapes))
        if self.op == "einsum":
            args = list(self.inputs) + [repr_str(self.pattern)]
        args += [f"{k}={e.src()}" for k, e in self.kwargs]
        op = "rearrange" if self.op == "bind" else self.op
        targets = ", ".join(self.outputs) + ("," if self.op == "unpack" and len(self.outputs) == 1 else "")
        return f"{targets} = {op}({', '.join(args)})"


@dataclass
class Layer:
    kind: str  # Rearrange Reduce Linear
    pattern: str = ""
    reduction: Any = None
    kwargs: list = field(default_factory=list)
    features: tuple = ()  # Linear (in, out)
    in_model: list = field(default_factory=list)
    mutation: str = ""
    line: int = 0

    def render(self) -> str:
        if self.kind == "Linear":
            return f"nn.Linear({self.features[0]}, {self.features[1]}),"
        args = [repr_str(self.pattern)] + ([repr_str(self.reduction)] if self.kind == "Reduce" else [])
        args += [f"{k}={e.src()}" for k, e in self.kwargs]
        return f"{self.kind}({', '.join(args)}),"


@dataclass
class Seq:
    net: str
    layers: list
    inp: str
    out: str
    line: int = 0  # `net = nn.Sequential(` line
    apply_line: int = 0
    in_model: list = field(default_factory=list)

    def deps(self) -> set:
        d = {self.inp}
        for la in self.layers:
            for _, e in la.kwargs:
                d.update(e.deps)
        return d

    @property
    def mutation(self) -> str:
        return ",".join(la.mutation for la in self.layers if la.mutation)


@dataclass
class Unpack:
    """``b, n, d = x.shape`` at the top of the body."""

    var: str
    names: list  # python names or "_"
    line: int = 0

    def render(self) -> str:
        return f"{', '.join(self.names)}{',' if len(self.names) == 1 else ''} = {self.var}.shape"


def repr_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def shapes_src(shapes: list) -> str:
    def one(t: tuple) -> str:
        inner = ", ".join(str(x) for x in t)
        return "(" + inner + ("," if len(t) == 1 else "") + ")"

    return "[" + ", ".join(one(t) for t in shapes) + "]"


@dataclass
class Program:
    mode: str
    params: list
    prologue: list  # bind Calls and Unpacks (run first, in order)
    steps: list  # Call | Seq
    ret: str
    fixed: dict = field(default_factory=dict)  # bound mode: the binding assignment
    seed: int = 0
    name: str = "f"
    source: str = ""

    @property
    def symbols(self) -> list:
        return sorted({s for p in self.params for d in p.dims for s in d.syms})

    def render(self) -> tuple:
        lines = [
            "import torch",
            "from torch import Tensor, nn",
            "from einops import rearrange, reduce, repeat, pack, unpack, einsum, parse_shape",
            "from einops.layers.torch import Rearrange, Reduce",
            "from jaxtyping import Float",
            "",
            "",
        ]
        sig = ", ".join(f'{p.name}: Float[Tensor, "{" ".join(d.ann() for d in p.dims)}"]' for p in self.params)
        lines.append(f"def {self.name}({sig}):")
        for st in self.prologue + self.steps:
            if isinstance(st, Seq):
                lines.append(f"    {st.net} = nn.Sequential(")
                st.line = len(lines)
                for la in st.layers:
                    lines.append("        " + la.render())
                    la.line = len(lines)
                lines.append("    )")
                lines.append(f"    {st.out} = {st.net}({st.inp})")
                st.apply_line = len(lines)
            else:
                lines.append("    " + st.render())
                st.line = len(lines)
        lines.append(f"    return {self.ret}")
        return "\n".join(lines) + "\n"

    def call_lines(self) -> dict:
        """line -> description of the call on it (every line a finding may legitimately sit on)."""
        out = {}
        for st in self.prologue + self.steps:
            if isinstance(st, Seq):
                for la in st.layers:
                    out[la.line] = la
            elif isinstance(st, Call):
                out[st.line] = st
        return out

    def categories(self) -> set:
        cats = {self.mode}
        for st in self.steps:
            if isinstance(st, Seq):
                cats.add("layers")
                cats.update("mut:" + la.mutation for la in st.layers if la.mutation)
                cats.update("layer:" + la.kind for la in st.layers)
            else:
                cats.add(st.op + ("[list]" if st.as_list and st.op != "pack" else ""))
                if st.mutation:
                    cats.add("mut:" + st.mutation)
                    cats.add(f"mut:{st.op}:{st.mutation}")
        return cats


# ----------------------------------------------------------------------------------------------- generation

AXES = list("acefghijklmopqrstuvw")
SYMBOLS = ["b", "n", "d", "k", "m"]
GOOD_REDUCTIONS = ["sum", "mean", "max", "min", "prod"]
BAD_REDUCTIONS = ["median", "avg", "norm", "Sum"]
JUNK = ["-", ".", "(", ")", "->", "0x", "_a", "1a", "$", "…", "((", "a-b", ",", "*"]


class Gen:
    def __init__(self, seed: int, mode: str, features: tuple):
        self.rnd = random.Random(seed)
        self.seed = seed
        self.mode = mode
        self.features = features
        self.params: list = []
        self.model: dict = {}  # var -> list[Size] (current binding)
        self.tensors: list = []  # tensor var names, definition order
        self.mutated: set = set()  # vars with a mutated ancestor
        self.exprs: list = []  # available (Expr) for keyword values
        self.steps: list = []
        self.prologue: list = []
        self.tcount = 0
        self.pcount = 0
        self.axis_i = 0
        self.sym_pool = list(SYMBOLS)

    # -- helpers
    def fresh_axis(self) -> str:
        a = AXES[self.axis_i % len(AXES)]
        self.axis_i += 1
        return a

    def reset_axes(self) -> None:
        self.axis_i = self.rnd.randrange(len(AXES))

    def new_var(self) -> str:
        self.tcount += 1
        return f"t{self.tcount}"

    def param_dims(self, rank: int) -> list:
        r = self.rnd
        dims = []
        for _ in range(rank):
            if self.mode != "concrete" and r.random() < 0.6:
                dims.append(Size(1, (r.choice(self.sym_pool[:4]),)))
            else:
                dims.append(Size(r.choice([1, 2, 2, 3, 4, 4, 6, 6, 8, 12] + ([500] if r.random() < 0.1 else []))))
        return dims

    def add_param(self, dims: list) -> str:
        names = ["x", "y", "z", "w", "v", "u", "p", "q", "r", "s"]
        name = names[self.pcount] if self.pcount < len(names) else f"x{self.pcount}"
        self.pcount += 1
        self.params.append(Param(name, list(dims)))
        self.model[name] = list(dims)
        self.tensors.append(name)
        for i, d in enumerate(dims):
            self.exprs.append(Expr("shape", d, name, i))
        return name

    def other_size(self, d: Size) -> Size:
        """A size differing from `d` (concrete: 1 or 2 more; symbolic: another symbol, maybe the same one)."""
        if d.concrete:
            return Size(d.coef + self.rnd.choice([1, 2]))
        return Size(1, (self.rnd.choice(self.sym_pool[:5]),))

    def eligible(self, deps: set) -> bool:
        return not (deps & self.mutated)

    def want_mutation(self, deps: set, p: float = 0.3) -> bool:
        return self.eligible(deps) and self.rnd.random() < p

    def finish(self, st: Any, outputs: list, out_models: list, mutated: bool) -> None:
        anc = bool(st.deps() & self.mutated) or mutated
        for o, m in zip(outputs, out_models):
            if m is not None:
                self.model[o] = m
                if o not in self.tensors:
                    self.tensors.append(o)
            if anc:
                self.mutated.add(o)
            else:
                self.mutated.discard(o)
        # x.shape[i] of a reassigned name now means the new binding
        self.exprs = [e for e in self.exprs if not (e.kind == "shape" and e.name in outputs)]
        for o, m in zip(outputs, out_models):
            if m is not None and self.rnd.random() < 0.5:
                for i, d in enumerate(m):
                    self.exprs.append(Expr("shape", d, o, i))
        self.steps.append(st)

    def size_expr(self, size: Size, allow_lit: bool = True) -> Any:
        """An expression whose model value is `size`, or None."""
        opts = [e for e in self.exprs if e.size == size]
        if size.concrete and allow_lit:
            opts += [lit(size.coef)] * 2
        return self.rnd.choice(opts) if opts else None

    def divisors(self, size: Size) -> list:
        """(Expr, Size) pairs whose size divides `size`."""
        out = []
        if size.coef > 0:
            for k in range(1, size.coef + 1):
                if size.coef % k == 0 and k <= 12:
                    out.append((lit(k), Size(k)))
        for e in self.exprs:
            if e.size.divides(size):
                out.append((e, e.size))
        return out

    def pick_input(self) -> str:
        if self.steps and self.rnd.random() < 0.7:
            last = self.steps[-1]
            outs = [last.out] if isinstance(last, Seq) else [o for o in last.outputs if o in self.model]
            if outs:
                return self.rnd.choice(outs)
        return self.rnd.choice(self.tensors)

    # -- einops transforms
    def transform(self, op: str, shape: list, list_len: int = 0, layer: bool = False) -> tuple:
        """Valid (left tokens, right tokens, kwargs, out shape, new-axis kwargs names, split kwargs names)."""
        r = self.rnd
        self.reset_axes()
        dims = ([Size(list_len)] if list_len else []) + list(shape)
        ell = None
        if dims and r.random() < 0.25:
            i = r.randrange(len(dims) + 1)
            j = r.randrange(i, len(dims) + 1)
            ell = (i, j)
        units: list = []  # (token name, Size) ; ("...", [Sizes])
        left: list = []
        kwargs: list = []
        splits: list = []
        if ell:
            slots = (
                [("dim", d) for d in dims[: ell[0]]]
                + [("ell", dims[ell[0] : ell[1]])]
                + [("dim", d) for d in dims[ell[1] :]]
            )
        else:
            slots = [("dim", d) for d in dims]
        for kind, d in slots:
            if kind == "ell":
                units.append(("...", d))
                left.append("...")
                continue
            x = r.random()
            if d == ONE and x < 0.15:
                left.append(r.choice(["1", "()"]))
                continue
            if x < 0.35 and not (layer and not d.concrete):
                divs = self.divisors(d)
                if layer:
                    divs = [t for t in divs if t[0].kind == "lit"]
                if divs:
                    e, h = r.choice(divs)
                    p, q = self.fresh_axis(), self.fresh_axis()
                    rest = d // h
                    if r.random() < 0.5:
                        left.append(f"({p} {q})")
                        units += [(p, h), (q, rest)]
                    else:
                        left.append(f"({q} {p})")
                        units += [(q, rest), (p, h)]
                    kwargs.append((p, e))
                    splits.append(p)
                    if r.random() < 0.2:
                        e2 = self.size_expr(rest, allow_lit=True)
                        if e2 is not None and not (layer and e2.kind != "lit"):
                            kwargs.append((q, e2))
                    continue
            a = self.fresh_axis()
            left.append(a)
            units.append((a, d))
        new_axes: list = []
        if op == "rearrange":
            out_units = r.sample(units, len(units)) if r.random() < 0.7 else list(units)
        elif op == "reduce":
            out_units = [u for u in units if r.random() < 0.5]
            if r.random() < 0.4:
                out_units = r.sample(out_units, len(out_units))
        else:  # repeat
            out_units = list(units)
            for _ in range(r.randint(1, 2)):
                if r.random() < 0.3:
                    k = r.choice([2, 3])
                    out_units.append((str(k), Size(k)))
                else:
                    a = self.fresh_axis()
                    sz = Size(r.choice([1, 2, 3]))
                    e = self.size_expr(sz) if not layer else lit(sz.coef)
                    if not layer and r.random() < 0.3:
                        cand = [x for x in self.exprs if x.size.coef * max(1, len(x.size.syms)) <= 12]
                        if cand:
                            e = r.choice(cand)
                            sz = e.size
                    out_units.append((a, sz))
                    kwargs.append((a, e))
                    new_axes.append(a)
            out_units = r.sample(out_units, len(out_units))
        right: list = []
        out_shape: list = []
        i = 0
        while i < len(out_units):
            k = r.choice([1, 1, 1, 2, 2, 3])
            chunk = out_units[i : i + k]
            i += k
            if len(chunk) > 1 and r.random() < 0.5:
                right.append("(" + " ".join(u[0] for u in chunk) + ")")
                out_shape.append(prod(s for u in chunk for s in (u[1] if u[0] == "..." else [u[1]])))
            else:
                for u in chunk:
                    right.append(u[0])
                    if u[0] == "...":
                        out_shape.extend(u[1])
                    else:
                        out_shape.append(u[1])
            if r.random() < 0.08:
                right.append(r.choice(["1", "()"]))
                out_shape.append(ONE)
        kwargs = r.sample(kwargs, len(kwargs))
        return left, right, kwargs, out_shape, new_axes, splits

    def mutate_transform(
        self, op: str, left: list, right: list, kwargs: list, new_axes: list, splits: list, reduction: Any
    ) -> tuple:
        r = self.rnd
        kinds = ["rank_extra", "rank_drop", "nondiv", "contradict", "unused", "syntax", "missing_kw", "zero"]
        if op == "reduce":
            kinds += ["reduction"]
        if op == "repeat" and new_axes:
            kinds += ["repeat_nokw"]
        if op == "rearrange":
            kinds += ["drop_right", "extra_right"]
        kind = r.choice(kinds)
        left, right, kwargs = list(left), list(right), list(kwargs)
        atoms = [t for t in left if t.isidentifier()]
        if kind == "rank_extra":
            a = self.fresh_axis()
            left.insert(r.randint(0, len(left)), a)
            if op != "reduce":
                right.insert(r.randint(0, len(right)), a)
        elif kind == "rank_drop" and atoms:
            a = r.choice(atoms)
            left.remove(a)
            right = [t for t in right if t != a]
            right = [
                ("(" + " ".join(x for x in t.strip("()").split() if x != a) + ")") if t.startswith("(") else t
                for t in right
            ]
        elif kind == "nondiv" and splits:
            p = r.choice(splits)
            kwargs = [(k, lit(r.choice([3, 5, 7, 4])) if k == p else e) for k, e in kwargs]
        elif kind == "contradict" and atoms:
            a = r.choice(atoms)
            kwargs = [(k, e) for k, e in kwargs if k != a] + [(a, lit(r.choice([2, 3, 5, 7, 500])))]
        elif kind == "unused":
            kwargs.append((self.fresh_axis() if r.random() < 0.5 else "zz", lit(r.choice([1, 2, 3]))))
        elif kind == "missing_kw" and kwargs:
            kwargs.pop(r.randrange(len(kwargs)))
        elif kind == "zero" and kwargs:
            i = r.randrange(len(kwargs))
            kwargs[i] = (kwargs[i][0], lit(r.choice([0, -1, 0])))
        elif kind == "reduction":
            reduction = r.choice(BAD_REDUCTIONS)
        elif kind == "repeat_nokw":
            a = r.choice(new_axes)
            kwargs = [(k, e) for k, e in kwargs if k != a]
        elif kind == "drop_right" and right:
            right.pop(r.randrange(len(right)))
        elif kind == "extra_right":
            right.insert(r.randint(0, len(right)), self.fresh_axis())
        else:
            kind = "syntax"
            sub = r.randrange(6)
            if sub == 0 and atoms:
                left.insert(r.randint(0, len(left)), r.choice(atoms))
            elif sub == 1:
                left.insert(r.randint(0, len(left)), "...")
                left.insert(r.randint(0, len(left)), "...")
            elif sub == 2:
                return left, right, kwargs, reduction, kind, "->"
            elif sub == 3 and atoms:
                a = r.choice(atoms)
                left[left.index(a)] = "((" + a + "))"
            else:
                side = left if r.random() < 0.5 else right
                side.insert(r.randint(0, len(side)), r.choice(JUNK))
        return left, right, kwargs, reduction, kind, ""

    def step_transform(self, op: str) -> None:
        r = self.rnd
        as_list = "lists" in self.features and r.random() < 0.25
        x = self.pick_input()
        shape = self.model[x]
        inputs = [x]
        in_model = [shape]
        mut_members = False
        if as_list:
            k = r.randint(1, 3)
            for _ in range(k - 1):
                if r.random() < 0.4:
                    inputs.append(x)
                    in_model.append(shape)
                else:
                    dims = list(shape)
                    if dims and self.want_mutation({x}, 0.2):
                        i = r.randrange(len(dims))
                        dims[i] = self.other_size(dims[i])
                        mut_members = mut_members or dims != list(shape)
                    y = self.add_param(dims)
                    inputs.append(y)
                    in_model.append(dims)
        list_len = len(inputs) if as_list else 0
        left, right, kwargs, out_shape, new_axes, splits = self.transform(op, shape, list_len=list_len)
        reduction = r.choice(GOOD_REDUCTIONS) if op == "reduce" else None
        deps = set(inputs) | {d for _, e in kwargs for d in e.deps}
        mutation = "list_member" if mut_members else ""
        sep = "->"
        if not mut_members and self.want_mutation(deps):
            left, right, kwargs, reduction, mutation, sep = self.mutate_transform(
                op, left, right, kwargs, new_axes, splits, reduction
            )
            sep = "" if sep == "->" else "->"
        pattern = " ".join(left) + (f" {sep} " if sep else " ") + " ".join(right)
        pattern = pattern.strip() if not sep else pattern
        out = x if (r.random() < 0.25 and x not in [p.name for p in self.params[:1]]) else self.new_var()
        st = Call(
            op,
            inputs,
            pattern,
            [out],
            kwargs,
            reduction,
            as_list,
            in_model=in_model,
            out_model=[out_shape],
            mutation=mutation,
        )
        self.finish(st, [out], [out_shape], bool(mutation))

    # -- einsum
    def step_einsum(self) -> None:
        r = self.rnd
        self.reset_axes()
        x = self.pick_input()
        a_shape = self.model[x]
        names = [self.fresh_axis() for _ in a_shape]
        ell = None
        if a_shape and r.random() < 0.15:
            ell = r.randint(1, len(a_shape))  # leading dims covered by "..."
        a_terms = (["..."] if ell else []) + names[ell or 0 :]
        sizes = dict(zip(names, a_shape))
        others = [t for t in self.tensors if t != x]
        if others and r.random() < 0.4:
            y = r.choice(others)
            b_shape = self.model[y]
            b_terms = []
            free = {n: s for n, s in sizes.items() if n in a_terms}
            for d in b_shape:
                match = [n for n, s in free.items() if s == d and n not in b_terms]
                if match and r.random() < 0.8:
                    b_terms.append(r.choice(match))
                else:
                    n = self.fresh_axis()
                    sizes[n] = d
                    b_terms.append(n)
            created = False
        else:
            shared = [n for n in a_terms if n != "..." and r.random() < 0.5]
            b_terms, b_shape = [], []
            for n in shared:
                b_terms.append(n)
                b_shape.append(sizes[n])
            for _ in range(r.randint(0, 2)):
                n = self.fresh_axis()
                d = self.param_dims(1)[0]
                sizes[n] = d
                b_terms.append(n)
                b_shape.append(d)
            order = list(range(len(b_terms)))
            r.shuffle(order)
            b_terms = [b_terms[i] for i in order]
            b_shape = [b_shape[i] for i in order]
            y = None
            created = True
        deps = {x} | ({y} if y else set())
        mutation = ""
        if self.want_mutation(deps):
            kind = r.choice(["size", "size", "out_unknown", "out_dup", "no_arrow", "group", "rank", "operands"])
            mutation = kind
        if mutation == "size" and not created:
            mutation = "out_unknown"
        if created:
            if mutation == "size" and b_shape:
                shared_i = [i for i, n in enumerate(b_terms) if n in a_terms]
                i = r.choice(shared_i) if shared_i and r.random() < 0.85 else r.randrange(len(b_shape))
                old = b_shape[i]
                b_shape[i] = self.other_size(old)
                if b_shape[i] == old:
                    b_shape[i] = Size(old.coef + 1, old.syms)
            y = self.add_param(b_shape)
        union = [n for n in dict.fromkeys(a_terms + b_terms) if n != "..."]
        out_terms = [n for n in union if r.random() < 0.5]
        out_terms = r.sample(out_terms, len(out_terms))
        if ell:
            out_terms.insert(r.randint(0, len(out_terms)), "...")
        a_t, b_t = list(a_terms), list(b_terms)
        operands = [x, y]
        if mutation == "out_unknown":
            out_terms.append("zz")
        elif mutation == "out_dup" and union:
            out_terms += [union[0], union[0]] if union[0] not in out_terms else [union[0]]
        elif mutation == "group" and len(a_t) >= 2 and "..." not in a_t[:2]:
            a_t = ["(" + a_t[0] + " " + a_t[1] + ")"] + a_t[2:]
        elif mutation == "rank" and a_t:
            a_t.pop(r.randrange(len(a_t)))
        elif mutation == "operands":
            operands = [x] if r.random() < 0.5 else [x, y, x]
        out_shape: list = []
        for n in out_terms:
            if n == "...":
                out_shape.extend(a_shape[:ell])
            elif n in sizes:
                out_shape.append(sizes[n])
        sep = " " if mutation == "no_arrow" else " -> "
        pattern = " ".join(a_t) + ", " + " ".join(b_t) + sep + " ".join(out_terms)
        out = self.new_var()
        st = Call(
            "einsum",
            operands,
            pattern,
            [out],
            in_model=[self.model[o] for o in operands],
            out_model=[out_shape],
            mutation=mutation,
        )
        self.finish(st, [out], [out_shape], bool(mutation))

    # -- pack / unpack
    def step_pack(self) -> None:
        r = self.rnd
        x = self.pick_input()
        shape = self.model[x]
        rank = len(shape)
        self.reset_axes()
        nb = r.randint(0, rank)
        na = r.randint(0, rank - nb)
        mid = shape[nb : rank - na]
        if not all(d.concrete for d in mid):
            nb, na, mid = nb + len(mid), na, []
            na = rank - nb
        outer_b, outer_a = shape[:nb], shape[rank - na :]
        pat_names = [self.fresh_axis() for _ in range(nb)] + ["*"] + [self.fresh_axis() for _ in range(na)]
        inputs, in_model, mids = [x], [shape], [tuple(d.coef for d in mid)]
        mutation = ""
        mut = self.want_mutation({x})
        kind = r.choice(["outer", "no_star", "two_star", "rank", "junk"]) if mut else ""
        for _ in range(r.randint(1 if kind == "outer" and (outer_b or outer_a) else 0, 2)):
            m = [r.choice([1, 2, 3]) for _ in range(r.randint(0, 2))]
            ob, oa = list(outer_b), list(outer_a)
            if kind == "outer" and not mutation and (ob or oa):
                side = ob if ob and (not oa or r.random() < 0.5) else oa
                i = r.randrange(len(side))
                side[i] = Size(side[i].coef + 1, side[i].syms)
                mutation = "outer"
            dims = ob + [Size(v) for v in m] + oa
            y = self.add_param(dims)
            inputs.append(y)
            in_model.append(dims)
            mids.append(tuple(m))
        if kind == "no_star":
            pat_names = [t for t in pat_names if t != "*"]
            mutation = kind
        elif kind == "two_star":
            pat_names.insert(r.randint(0, len(pat_names)), "*")
            mutation = kind
        elif kind == "rank":
            pat_names.insert(0, self.fresh_axis())
            mutation = kind
        elif kind == "junk":
            pat_names.insert(r.randint(0, len(pat_names)), r.choice(["(a b)", "...", "1", "_x"]))
            mutation = kind
        pattern = " ".join(pat_names)
        total = sum(_iprod(m) for m in mids)
        p_shape = outer_b + [Size(total)] + outer_a
        p, ps = self.new_var(), f"ps{self.tcount}"
        st = Call(
            "pack",
            inputs,
            pattern,
            [p, ps],
            as_list=True,
            in_model=in_model,
            out_model=[p_shape, None],
            mutation=mutation,
        )
        self.finish(st, [p, ps], [p_shape, None], bool(mutation))
        if r.random() < 0.7:
            self.step_unpack(p, p_shape, nb, na, mids, ps)

    def step_unpack(self, p: str, p_shape: list, nb: int, na: int, mids: list, ps: Any) -> None:
        r = self.rnd
        self.reset_axes()
        mutation = ""
        deps = {p, ps}
        if r.random() < 0.5:
            shapes: Any = ("var", ps)
        else:
            shapes = [tuple(m) for m in mids]
            if self.want_mutation(deps, 0.5) and shapes:
                i = r.randrange(len(shapes))
                m = list(shapes[i]) or [1]
                if r.random() < 0.5:
                    m[r.randrange(len(m))] += 1
                    mutation = "unpack_sizes"
                else:
                    m[r.randrange(len(m))] = -1
                    mutation = "unpack_minus_one"
                    if r.random() < 0.3:
                        m = m + [-1]
                        mutation = "two_minus_one"
                if not shapes[i]:
                    mutation = "unpack_rank"
                shapes[i] = tuple(m)
            elif shapes and r.random() < 0.4:
                i = r.randrange(len(shapes))
                if shapes[i]:
                    m = list(shapes[i])
                    m[r.randrange(len(m))] = -1
                    shapes[i] = tuple(m)
        names = [self.fresh_axis() for _ in range(nb)] + ["*"] + [self.fresh_axis() for _ in range(na)]
        if not mutation and self.want_mutation(deps, 0.2):
            names.insert(0, self.fresh_axis())
            mutation = "rank"
        outs = [self.new_var() for _ in mids]
        ob, oa = p_shape[:nb], p_shape[len(p_shape) - na :]
        out_models = [ob + [Size(v) for v in m] + oa for m in mids]
        st = Call(
            "unpack",
            [p],
            " ".join(names),
            outs,
            unpack_shapes=shapes,
            in_model=[p_shape],
            out_model=out_models,
            mutation=mutation,
        )
        self.finish(st, outs, out_models, bool(mutation))

    # -- parse_shape
    def step_parse_shape(self) -> None:
        r = self.rnd
        x = self.pick_input()
        shape = self.model[x]
        self.reset_axes()
        toks, keys = [], []
        for d in shape:
            if r.random() < 0.3:
                toks.append("_")
            else:
                a = self.fresh_axis()
                toks.append(a)
                keys.append((a, d))
        mutation = ""
        if self.want_mutation({x}, 0.4):
            mutation = r.choice(["rank_extra", "rank_drop", "group"])
            if mutation == "rank_extra":
                toks.append("zz")
            elif mutation == "rank_drop" and toks:
                toks.pop(r.randrange(len(toks)))
            else:
                toks.insert(0, "(zz yy)")
        s = f"s{self.tcount}"
        self.tcount += 1
        st = Call("parse_shape", [x], " ".join(toks), [s], in_model=[shape], out_model=[None], mutation=mutation)
        self.finish(st, [s], [None], bool(mutation))
        if not mutation:
            for a, d in keys:
                self.exprs.append(Expr("key", d, s, a))
        else:
            self.mutated.add(s)
            for a, d in keys:
                self.exprs.append(Expr("key", d, s, a))

    # -- layers
    def step_layers(self) -> None:
        r = self.rnd
        x = self.pick_input()
        shape = self.model[x]
        layers = []
        cur = shape
        mutated_one = False
        can_mutate = self.eligible({x})
        for _ in range(r.randint(1, 3)):
            if cur and cur[-1].concrete and r.random() < 0.25:
                fin = cur[-1].coef
                fo = r.choice([2, 3, 4])
                la = Layer("Linear", features=(fin, fo), in_model=cur)
                if can_mutate and not mutated_one and r.random() < 0.3:
                    la.features = (fin + r.choice([1, 2]), fo)
                    la.mutation = "linear_in"
                    mutated_one = True
                layers.append(la)
                cur = cur[:-1] + [Size(fo)]
                continue
            kind = r.choice(["Rearrange", "Reduce"])
            op = kind.lower()
            left, right, kwargs, out_shape, new_axes, splits = self.transform(op, cur, layer=True)
            reduction = r.choice(GOOD_REDUCTIONS) if op == "reduce" else None
            mutation, sep = "", "->"
            if can_mutate and not mutated_one and r.random() < 0.35:
                left, right, kwargs, reduction, mutation, sep = self.mutate_transform(
                    op, left, right, kwargs, new_axes, splits, reduction
                )
                sep = "" if sep == "->" else "->"
                mutated_one = True
            pattern = " ".join(left) + (f" {sep} " if sep else " ") + " ".join(right)
            layers.append(Layer(kind, pattern, reduction, kwargs, in_model=cur, mutation=mutation))
            cur = out_shape
        net = f"net{self.tcount}"
        out = self.new_var()
        st = Seq(net, layers, x, out, in_model=shape)
        self.finish(st, [out], [cur], mutated_one)

    # -- program
    def program(self, n_steps: int) -> Program:
        r = self.rnd
        for _ in range(r.randint(1, 2)):
            self.add_param(self.param_dims(r.randint(1, 4)))
        fixed: dict = {}
        if self.mode == "bound":
            fixed = {s: r.choice([1, 2, 3, 4, 6]) for s in SYMBOLS}
        ops = ["rearrange", "rearrange", "reduce", "repeat", "einsum"]
        if "pack" in self.features:
            ops += ["pack", "pack"]
        if "parse_shape" in self.features:
            ops += ["parse_shape"]
        if "layers" in self.features:
            ops += ["layers", "layers"]
        # x.shape unpacking before the body (bound mode: after the binding lines, see below)
        unpacks = []
        if "unpack_shape" in self.features:
            used: set = set()
            for p in list(self.params):
                if r.random() < 0.6:
                    names = []
                    for i, d in enumerate(p.dims):
                        nm = d.syms[0] if (d.syms and len(d.syms) == 1 and d.coef == 1) else f"{p.name}{i}"
                        if r.random() < 0.3 or nm in used:
                            names.append("_")
                        else:
                            names.append(nm)
                            used.add(nm)
                            self.exprs.append(Expr("var", d, nm))
                    if any(n != "_" for n in names) and names:
                        unpacks.append(Unpack(p.name, names))
        for _ in range(n_steps):
            op = r.choice(ops)
            if op in ("rearrange", "reduce", "repeat"):
                self.step_transform(op)
            elif op == "einsum":
                self.step_einsum()
            elif op == "pack":
                self.step_pack()
            elif op == "parse_shape":
                self.step_parse_shape()
            else:
                self.step_layers()
        prologue: list = []
        if self.mode == "bound":
            for p in self.params:
                if any(d.syms for d in p.dims):
                    self.reset_axes()
                    toks, kw = [], []
                    for d in p.dims:
                        a = self.fresh_axis()
                        toks.append(a)
                        kw.append((a, lit(d.ev(fixed))))
                    pat = " ".join(toks) + " -> " + " ".join(toks)
                    prologue.append(Call("bind", [p.name], pat, [p.name], kw, in_model=[p.dims], out_model=[p.dims]))
        prologue += unpacks
        last = self.steps[-1]
        ret = last.out if isinstance(last, Seq) else last.outputs[0]
        return Program(self.mode, self.params, prologue, self.steps, ret, fixed, self.seed)


def _iprod(xs: Any) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


FEATURES = ("lists", "pack", "parse_shape", "layers", "unpack_shape")


def generate(seed: int, mode: str, features: tuple = FEATURES, n_steps: Any = None) -> Program:
    g = Gen(seed, mode, features)
    n = n_steps if n_steps is not None else g.rnd.randint(1, 5)
    prog = g.program(n)
    prog.source = prog.render()  # also numbers the lines of every call
    return prog


# ----------------------------------------------------------------------------------------------- oracle


def assignments(prog: Program, seed: int) -> list:
    """Positive assignments of the annotation symbols the oracle runs the program at."""
    syms = prog.symbols
    if prog.mode == "concrete" or not syms:
        return [{}]
    if prog.mode == "bound":
        return [dict(prog.fixed)]
    rnd = random.Random(seed ^ 0x5EED)
    out = [{s: rnd.randint(1, 8) for s in syms} for _ in range(3)]
    out.append({s: 12 for s in syms})
    return out


def _zeros(shape: Any) -> Any:
    import torch

    return torch.zeros(tuple(shape))


def _run_call(st: Call, env: dict, intended: bool, assign: dict) -> list:
    """Run one call (on the model shapes when `intended`); returns its outputs or raises."""
    import einops

    # intended: the values an earlier raising call left unknown are replaced by the model's (every other one is
    # the real value), so success here means some completion of the unknowns lets the call succeed
    vals = []
    for n, m in zip(st.inputs, st.in_model):
        v = env[n]
        if poisoned(v):
            if not intended:
                raise Poison(v.origins)
            v = _zeros(tuple(d.ev(assign) for d in m))
        vals.append(v)
    kw = {}
    for k, e in st.kwargs:
        try:
            kw[k] = e.ev(env)
        except Poison:
            if not intended:
                raise
            kw[k] = e.size.ev(assign)
    op = st.op
    if op in ("rearrange", "bind", "repeat"):
        fn = einops.rearrange if op != "repeat" else einops.repeat
        return [fn(vals if st.as_list else vals[0], st.pattern, **kw)]
    if op == "reduce":
        return [einops.reduce(vals if st.as_list else vals[0], st.pattern, st.reduction, **kw)]
    if op == "einsum":
        return [einops.einsum(*vals, st.pattern)]
    if op == "pack":
        p, ps = einops.pack(vals, st.pattern)
        return [p, ps]
    if op == "unpack":
        if isinstance(st.unpack_shapes, tuple):
            shapes = env[st.unpack_shapes[1]]
            if poisoned(shapes):
                if not intended:
                    raise Poison(shapes.origins)
                shapes = [tuple(s) for s in _mids_from_model(st)]
        else:
            shapes = st.unpack_shapes
        outs = einops.unpack(vals[0], shapes, st.pattern)
        if len(outs) != len(st.outputs):  # would be a Python unpacking error, never generated
            raise AssertionError("generator: unpack target count")
        return list(outs)
    if op == "parse_shape":
        return [einops.parse_shape(vals[0], st.pattern)]
    raise AssertionError(op)


def _mids_from_model(st: Call) -> list:
    out = []
    for m in st.out_model:
        names = st.pattern.split()
        nb = names.index("*") if "*" in names else 0
        na = len(names) - nb - 1
        out.append(tuple(d.coef for d in m[nb : len(m) - na]))
    return out


def _build_layer(la: Layer, env: dict, intended: bool, assign: dict) -> Any:
    from einops.layers.torch import Rearrange, Reduce
    from torch import nn

    if la.kind == "Linear":
        return nn.Linear(*la.features)
    kw = {k: (e.size.ev(assign) if intended else e.ev(env)) for k, e in la.kwargs}
    if la.kind == "Rearrange":
        return Rearrange(la.pattern, **kw)
    return Reduce(la.pattern, la.reduction, **kw)


def _origins(st: Call, env: dict) -> frozenset:
    out: set = set()
    names = set(st.inputs) | {d for _, e in st.kwargs for d in e.deps}
    if isinstance(st.unpack_shapes, tuple):
        names.add(st.unpack_shapes[1])
    for n in names:
        v = env.get(n)
        if poisoned(v):
            out |= v.origins
    return frozenset(out)


def run(prog: Program, assign: dict) -> dict:
    """line -> (outcome, detail); outcome: ok | raise | poison | undef.

    poison: an input is unknown because an earlier call raised (detail: the lines of those calls) and the call
    succeeds when the unknowns take their model values - so the analyser cannot know it fails;
    undef: an input is unknown and the call fails even at the model values (no expectation).
    """
    import torch

    res: dict = {}
    env: dict = {}
    for p in prog.params:
        env[p.name] = _zeros(tuple(d.ev(assign) for d in p.dims))
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        for st in prog.prologue + prog.steps:
            if isinstance(st, Unpack):
                v = env[st.var]
                for n, s in zip(st.names, v.shape):
                    if n != "_":
                        env[n] = int(s)
                continue
            if isinstance(st, Seq):
                _run_seq(st, env, assign, res)
                continue
            try:
                outs = _run_call(st, env, False, assign)
                res[st.line] = ("ok", "")
            except Poison:
                origins = _origins(st, env)
                try:
                    _run_call(st, env, True, assign)
                    res[st.line] = ("poison", origins)
                except Exception as e:  # noqa: BLE001
                    res[st.line] = ("undef", f"{type(e).__name__}: {e}")
                outs = [Poisoned(origins)] * len(st.outputs)
            except Exception as e:  # noqa: BLE001 - any exception counts as "raises"
                res[st.line] = ("raise", f"{type(e).__name__}: {e}")
                outs = [Poisoned(frozenset({st.line}))] * len(st.outputs)
            for n, v in zip(st.outputs, outs):
                env[n] = v
    return res


def _run_seq(st: Seq, env: dict, assign: dict, res: dict) -> None:
    """Layers are all constructed first (a constructor error breaks the whole Sequential), then applied in order.

    Lines a failure upstream keeps from running are evaluated on the real value where it is known and the model
    value where it is not: success there makes them `poison` (silent), failure `undef`.
    """
    built: list = []
    broken: set = set()
    for la in st.layers:
        try:
            built.append(_build_layer(la, env, False, assign))
            res[la.line] = ("ok", "")
        except Poison as p:
            built.append(None)
            res[la.line] = ("poison", p.args[0])
            broken |= p.args[0]
        except Exception as e:  # noqa: BLE001
            built.append(None)
            res[la.line] = ("raise", f"{type(e).__name__}: {e}")
            broken.add(la.line)
    x = env[st.inp]
    origins = frozenset(broken) | (x.origins if poisoned(x) else frozenset())
    unknown = bool(broken) or poisoned(x)  # from here on, nothing runs at runtime
    for la, m in zip(st.layers, built):
        if m is None:  # constructor raised (or its keyword is unknown): whatever follows sees the model value
            x = Poisoned(origins)
            continue
        if unknown:
            val = _zeros(tuple(d.ev(assign) for d in la.in_model)) if poisoned(x) else x
            try:
                x = m(val)
                res[la.line] = ("poison", origins)
            except Exception as e:  # noqa: BLE001
                res[la.line] = ("undef", f"{type(e).__name__}: {e}")
                x = Poisoned(origins)
            continue
        try:
            x = m(x)
        except Exception as e:  # noqa: BLE001
            res[la.line] = ("raise", f"{type(e).__name__}: {e}")
            origins = frozenset({la.line})
            x = Poisoned(origins)
            unknown = True
    env[st.net] = Poisoned(origins) if broken else None
    env[st.out] = Poisoned(origins) if unknown else x
