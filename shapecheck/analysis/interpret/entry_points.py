"""Test functions as entry points with the values pytest gives them: ``@pytest.mark.parametrize`` cases and fixtures.

A test ``def test_attn(dim, model)`` analysed on its own sees unknown parameters. pytest calls it with concrete values:

* ``@pytest.mark.parametrize("dim", [32, 64])`` (on the function or its class; stacked decorators combine): the test
  runs once per case, each with that case's values. A ``pytest.param(...)`` with ``marks=`` (xfail, skip, ...) is
  left out: it may be expected to fail, and so is a test marked ``@pytest.mark.xfail`` / ``skip``
  (``expected_to_fail``). Values are evaluated in the module, never executed;
* a parameter named like a ``@pytest.fixture`` function of the same module (or class, or a conftest.py above it)
  whose body ``return``\\ s one value: that value. A fixture with ``params=`` (``params=sorted(BACKBONES)``) gives one
  value per entry, its body run with ``request.param`` set to it; its own parameters are fixtures found the same way
  (one that ``yield``\\ s, or whose parameters have defaults, stays unknown).

At most ``MAX_CASES`` combinations run, chosen so that each value of each parameter is in one while they fit.

Findings the cases share are reported once.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

import libcst as cst

from ..index.imports import dotted
from .values import INCOMPLETE_NAMESPACE, UNKNOWN, BoolV, DictV, IntV, NoneV, SeqV, StrV, Value
from .context import counter_mark
from .state import function_state
from .walk import children, memo as walk_memo

if TYPE_CHECKING:
    from ..index.functions import FunctionInfo
    from .module import ModuleAnalysis

MAX_CASES = 4

T = TypeVar("T")


def _qualified(m: "ModuleAnalysis", node: cst.BaseExpression) -> str:
    return m.qualify(node) or dotted(node) or ""


def _is(m: "ModuleAnalysis", node: cst.BaseExpression, name: str) -> bool:
    """``node`` names ``pytest.<name>`` (``pytest.mark.parametrize``, ``from pytest import fixture``, ...)."""
    return _qualified(m, node) == f"pytest.{name}"


def _eval(m: "ModuleAnalysis", fi: "FunctionInfo", node: cst.BaseExpression) -> Value:
    from .interpreter import FrameInfo, Interpreter, Scope

    interp = Interpreter(m, FrameInfo(fi.key + ".<params>"), Scope())
    with m.ctx.discarding():
        return interp.eval(node)


def _cases_of(m: "ModuleAnalysis", fi: "FunctionInfo", deco: cst.Decorator) -> list[dict[str, Value]] | None:
    """The cases of one ``@pytest.mark.parametrize(names, values)``; None when it cannot be read."""
    call = deco.decorator
    if type(call) is not cst.Call or not _is(m, call.func, "mark.parametrize"):
        return None
    pos = [a for a in call.args if a.keyword is None and not a.star]
    kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    names_node = pos[0].value if pos else kw.get("argnames")
    values_node = pos[1].value if len(pos) > 1 else kw.get("argvalues")
    if names_node is None or values_node is None or "indirect" in kw:
        return None  # indirect: the values go to fixtures, not to the test
    names_v = _eval(m, fi, names_node)
    if isinstance(names_v, StrV):
        names = [n.strip() for n in names_v.value.split(",") if n.strip()]
    elif isinstance(names_v, SeqV) and all(isinstance(x, StrV) for x in names_v.items):
        names = [x.value for x in names_v.items if isinstance(x, StrV)]
    else:
        return None
    if not isinstance(values_node, (cst.List, cst.Tuple)):
        return _computed_cases(m, fi, names, values_node)
    cases: list[dict[str, Value]] = []
    for el in values_node.elements:
        item = el.value
        if type(item) is cst.Call and _is(m, item.func, "param"):
            if any(a.keyword is not None and a.keyword.value == "marks" for a in item.args):
                continue  # xfail / skip: may be expected to fail
            parts = [a.value for a in item.args if a.keyword is None and not a.star]
        elif len(names) == 1:
            parts = [item]
        elif isinstance(item, (cst.Tuple, cst.List)) and not any(
            isinstance(e, cst.StarredElement) for e in item.elements
        ):
            parts = [e.value for e in item.elements]
        else:
            return None
        if len(parts) != len(names):
            return None
        cases.append({n: _eval(m, fi, p) for n, p in zip(names, parts)})
        if len(cases) >= _READ_CASES:
            break
    return _spread(cases)


def _computed_cases(
    m: "ModuleAnalysis", fi: "FunctionInfo", names: list[str], node: cst.BaseExpression
) -> list[dict[str, Value]] | None:
    """The cases of a parametrize whose values are computed (``list(MODELS)``, ``sorted(REGISTRY)``, a module-level
    list of tuples): each item of the sequence they make, when every item is known; None otherwise (an item made by
    ``pytest.param`` is not known, so no case it may mark is run)."""
    values = _eval(m, fi, node)
    if not isinstance(values, SeqV) or values.kind not in ("list", "tuple") or not values.items:
        return None
    cases: list[dict[str, Value]] = []
    for item in values.items[:_READ_CASES]:
        if item is UNKNOWN:
            return None
        if len(names) == 1:
            parts = [item]
        elif isinstance(item, SeqV) and item.kind in ("tuple", "list") and len(item.items) == len(names):
            parts = list(item.items)
        else:
            return None
        if any(p is UNKNOWN for p in parts):
            return None
        cases.append(dict(zip(names, parts)))
    return _spread(cases)


_READ_CASES = 32  # the cases of one parametrize read, of which _spread picks MAX_CASES


def _spread(cases: list[dict[str, Value]]) -> list[dict[str, Value]]:
    """At most ``MAX_CASES`` of the cases, in order: first those that give some parameter a value no case picked
    before gives it (a table of model variants crossed with resolutions runs each variant), then the rest."""
    if len(cases) <= MAX_CASES:
        return cases
    seen: set[tuple[str, object]] = set()
    picked: list[int] = []
    for i, case in enumerate(cases):
        keys = {(name, _value_key(v)) for name, v in case.items()}
        if not keys <= seen:
            picked.append(i)
            seen |= keys
            if len(picked) == MAX_CASES:
                break
    for i in range(len(cases)):
        if len(picked) == MAX_CASES:
            break
        if i not in picked:
            picked.append(i)
    return [cases[i] for i in sorted(picked)]


def _value_key(v: Value) -> object:
    try:
        hash(v)
    except TypeError:
        return id(v)
    return v


def _rebinds_arguments(fi: "FunctionInfo") -> bool:
    """Has the test a decorator other than pytest's marks that may call it with other arguments than pytest hands
    the wrapper (DiffeRT's ``@random_inputs("u")``, which makes an array of each parametrized shape)?"""
    for d in fi.node.decorators:
        text = d.decorator
        name = dotted(text.func if type(text) is cst.Call else text) or ""
        if name.startswith(("pytest.", "mark.")) or name in ("usefixtures", "parametrize"):
            continue
        if fi.unknown_decorator(d):
            return True
    return False


def _decorators(m: "ModuleAnalysis", fi: "FunctionInfo", cls_key: str | None = None) -> list[cst.Decorator]:
    out = list(fi.node.decorators)
    key = cls_key or fi.cls_key
    if key is not None:
        ci = m.classes.get(key)
        if ci is not None:
            from .objects import mro

            for c in mro(m, ci):  # pytest gathers the marks of the class and of its bases
                if c.module is m:
                    out.extend(c.node.decorators)
    return out


def _builtin_fixture(m: "ModuleAnalysis", fi: "FunctionInfo", name: str) -> tuple[Value, ...]:
    """pytest's own ``tmp_path`` (no fixture of the project takes the name): an empty directory of the test's own,
    whose files the test's run writes and reads back (path_values); () for any other name."""
    if name != "tmp_path" or _fixture_def(m, fi, name) is not None:
        return ()
    from .path_values import tmp_dir

    return (tmp_dir(fi.key),)


def _fixture(m: "ModuleAnalysis", fi: "FunctionInfo", name: str, depth: int) -> tuple[Value, ...]:
    """The values a ``@pytest.fixture`` of this module (or of the test's class, or of a conftest.py above it) named
    ``name`` returns: one, or one per ``params=`` entry (``request.param`` is that entry); () when not known."""
    fx = _fixture_def(m, fi, name)
    if fx is None or depth > 2:
        return ()
    own = [p for p in fx.params if p.name not in ("self", "cls", "request")]
    # a fixture's own parameters are fixtures too (``def model(config): return Model(config)``), found the same way
    if any(p.default is not None or p.kind not in ("pos", "posonly", "kwonly") for p in own):
        return ()
    # the values depend on the fixture and the depth only (its own fixtures are found from its module): computed once
    # per fixture, unless they hold sizes the run made up (each test then gets sizes of its own, as before)
    from .module import _minted_since

    st = function_state(fx)
    known = st.fixture.get(depth) if st.fixture is not None else None
    if known is not None:
        return known
    mark = counter_mark()
    params = _fixture_params(fx)
    if params is None:
        return ()
    takes_request = any(p.name == "request" for p in fx.params)
    # (a fixture of its own not known: the parameter is unknown, as the run of a test sees it)
    # (pytest's ``tmp_path`` asked for by the fixture itself: a directory of the fixture's own here, empty when it
    # runs -- ``def cfg(tmp_path)`` writing a config the fixture then reads back)
    own_values = [
        _fixture(fx.module, fx, p.name, depth + 1) or _builtin_fixture(fx.module, fx, p.name) or (UNKNOWN,) for p in own
    ]
    if any(p.name == "tmp_path" for p in own):
        from .path_values import empty_tmp_dirs

        empty_tmp_dirs(v for vs in own_values for v in vs)
    seen: set[str] = set()
    for p, vs in zip(own, own_values):
        deps = _parametrized_deps(fx.module, fx, p.name, depth + 1) if len(vs) > 1 else set()
        if deps & seen:
            return ()  # (two of its fixtures share a parametrized one: pytest gives both the same entry)
        seen |= deps
    values: list[Value] = []
    for param in params:
        for combo in _combos([list(vs) for vs in own_values]):
            args = {p.name: v for p, v in zip(own, combo)}
            if takes_request:
                # ``request.param``: the entry this instance of the fixture runs for (UNKNOWN without params=)
                # (pytest's request has other attributes: not every one is an entry)
                args["request"] = (
                    DictV((("param", param), (INCOMPLETE_NAMESPACE, UNKNOWN)), "namespace")
                    if param is not None
                    else UNKNOWN
                )
            with fx.module.ctx.discarding():
                scope = fx.module.run_function(fx, args, None, depth=1)
            returned = [v for _, v in scope.returns]
            if len(returned) == 1 and returned[0] is not UNKNOWN:
                values.append(returned[0])
    out = tuple(values[:MAX_CASES])
    if not any(_minted_since(v, mark, 0) for v in out):
        if st.fixture is None:
            st.fixture = {}
        st.fixture[depth] = out
    return out


def _fixture_def(m: "ModuleAnalysis", fi: "FunctionInfo", name: str) -> "FunctionInfo | None":
    """The ``@pytest.fixture`` named ``name`` a parameter of ``fi`` gets (as ``_fixture`` finds it)."""
    key = (
        f"{fi.cls_key}.{name}"
        if fi.cls_key is not None and f"{fi.cls_key}.{name}" in m.functions
        else f"{m.module_name}:{name}"
    )
    fx = m.functions.get(key)
    if fx is None or not _is_fixture(m, fx):
        fx = _conftest_fixture(m, name)  # pytest looks in the conftest.py files of the test's folder and above
    if fx is None or fx is fi or not _is_fixture(fx.module, fx):
        return None
    return fx


def _parametrized_deps(m: "ModuleAnalysis", fi: "FunctionInfo", name: str, depth: int) -> set[str]:
    """The fixtures with ``params=`` that the fixture ``name`` is or depends on (through its own parameters)."""
    fx = _fixture_def(m, fi, name)
    if fx is None or depth > 3:
        return set()
    params = _fixture_params(fx)
    out = {fx.key} if params is None or params != [None] else set()
    for p in fx.params:
        if p.name not in ("self", "cls", "request"):
            out |= _parametrized_deps(fx.module, fx, p.name, depth + 1)
    return out


def _fixture_inputs(m: "ModuleAnalysis", fi: "FunctionInfo", name: str, depth: int) -> set[str]:
    """The names of the fixtures the fixture ``name`` asks for, directly or through its own fixtures."""
    fx = _fixture_def(m, fi, name)
    if fx is None or depth > 3:
        return set()
    out: set[str] = set()
    for p in fx.params:
        if p.name not in ("self", "cls", "request"):
            out |= {p.name} | _fixture_inputs(fx.module, fx, p.name, depth + 1)
    return out


def _fixture_params(fx: "FunctionInfo") -> "list[Value | None] | None":
    """The entries of a fixture's ``params=`` (``@pytest.fixture(params=[16, 32])``, ``params=sorted(REGISTRY)``),
    each a value ``request.param`` takes; ``[None]`` for a fixture without params; None when they cannot be read. A
    ``pytest.param(..., marks=...)`` entry is left out (it may be expected to fail)."""
    m = fx.module
    for deco in fx.node.decorators:
        call = deco.decorator
        if type(call) is not cst.Call or not _is(m, call.func, "fixture"):
            continue
        node = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "params"), None)
        if node is None:
            return [None]
        if isinstance(node, (cst.List, cst.Tuple)):
            out: list[Value | None] = []
            for el in node.elements:
                if isinstance(el, cst.StarredElement):
                    return None
                item = el.value
                if type(item) is cst.Call and _is(m, item.func, "param"):
                    if any(a.keyword is not None and a.keyword.value == "marks" for a in item.args):
                        continue
                    parts = [a.value for a in item.args if a.keyword is None and not a.star]
                    if len(parts) != 1:
                        return None
                    item = parts[0]
                out.append(_eval(m, fx, item))
            return out[:MAX_CASES]
        v = _eval(m, fx, node)
        if isinstance(v, SeqV) and v.items:
            return list(v.items[:MAX_CASES])
        return None
    return [None]


def _combos(dims: list[list[T]]) -> list[tuple[T, ...]]:
    """At most ``MAX_CASES`` combinations of one value per dimension, each value of each dimension in one of them
    first (while they fit), then the rest of the product in order."""
    if not dims:
        return [()]
    if any(not d for d in dims):
        return []
    picked: list[tuple[int, ...]] = []
    for i in range(min(max(len(d) for d in dims), MAX_CASES)):
        picked.append(tuple(i % len(d) for d in dims))
    for idx in itertools.product(*(range(len(d)) for d in dims)):
        if len(picked) >= MAX_CASES:
            break
        if idx not in picked:
            picked.append(idx)
    return [tuple(d[i] for d, i in zip(dims, idx)) for idx in picked]


def _is_fixture(m: "ModuleAnalysis", fx: "FunctionInfo") -> bool:
    return any(
        _is(m, d.decorator.func if type(d.decorator) is cst.Call else d.decorator, "fixture")
        for d in fx.node.decorators
    )


_CONFTEST_LEVELS = 4  # folders searched upwards from the test's own for a conftest.py


def _conftest_fixture(m: "ModuleAnalysis", name: str) -> "FunctionInfo | None":
    """The fixture ``name`` of the nearest conftest.py (the test's folder first, then its parents) that defines it."""
    if m.project is None:
        return None
    for module in _conftests(m):
        fx = m.project.find_function(f"{module}:{name}")
        if fx is not None:
            return fx
    return None


def _conftests(m: "ModuleAnalysis") -> list[str]:
    """Module names of the conftest.py files above ``m``'s file, nearest first (read from the disk once per analysis
    of the module: every parameter of every test asks)."""
    found = m.__dict__.get("_conftests")
    if found is not None:
        return found  # type: ignore[no-any-return]
    from pathlib import Path

    from ..index.project import module_name_for

    found = []
    own = Path(m.path).resolve()
    folder = own.parent
    for _ in range(_CONFTEST_LEVELS):
        conftest = folder / "conftest.py"
        if conftest.is_file() and conftest != own:
            found.append(module_name_for(conftest)[0])
        if folder.parent == folder:
            break
        folder = folder.parent
    m.__dict__["_conftests"] = found
    return found


_EXPECTED_FAILURES = frozenset({"pytest.mark.xfail", "pytest.mark.skip", "unittest.expectedFailure", "unittest.skip"})


def expected_to_fail(m: "ModuleAnalysis", fi: "FunctionInfo") -> bool:
    """A test marked as expected to fail or never run (``@pytest.mark.xfail``, ``@pytest.mark.skip``, unittest's
    ``expectedFailure`` / ``skip``; on the function or its class), as a ``pytest.param`` with ``marks=`` is: what
    fails in it is what the mark says. A condition (``skipif``) only says where it runs."""
    if not fi.name.startswith("test"):
        return False
    for deco in _decorators(m, fi):
        d = deco.decorator
        func = d.func if type(d) is cst.Call else d
        if _qualified(m, func) in _EXPECTED_FAILURES:
            return True
    return False


def run_test(m: "ModuleAnalysis", fi: "FunctionInfo", self_value: Value | None) -> bool:
    """Run the test ``fi`` once per case (``test_cases``), each finding reported once; False when it has none."""
    cases = test_cases(m, fi)
    if not cases:
        return False
    run_cases(m, fi, self_value, cases)
    return True


def run_cases(m: "ModuleAnalysis", fi: "FunctionInfo", self_value: Value | None, cases: list[dict[str, Value]]) -> None:
    """Run ``fi`` once per case, each finding reported once (and not again when an earlier run reported it)."""
    start = len(m.ctx.pending)
    from .path_values import empty_tmp_dirs

    for case in cases:
        before = len(m.ctx.pending)
        empty_tmp_dirs(case.values())  # (each run of a test starts with its tmp_path empty, as pytest's)
        m.run_function(fi, case, self_value)
        named = _case_text(case) if len(cases) > 1 else None
        if named:
            # which of the cases fails (``gqa(heads=8, kv_heads=2)`` of four): the values to reproduce it with
            m.ctx.pending[before:] = [
                replace(p, notes=p.notes + (f"in the test case {named}",)) for p in m.ctx.pending[before:]
            ]
    seen: set[tuple[int, str]] = {(id(p.node), p.code) for p in m.ctx.pending[:start]}
    kept = []
    for p in m.ctx.pending[start:]:
        if (id(p.node), p.code) not in seen:
            seen.add((id(p.node), p.code))
            kept.append(p)
    m.ctx.pending[start:] = kept


def _case_text(case: dict[str, Value]) -> str | None:
    """``heads=8, kv_heads=2``: a case's numbers, strings, bools and None (a value of another kind is left out;
    None when none is shown)."""
    parts: list[str] = []
    for name, v in case.items():
        if isinstance(v, IntV) and v.size.as_int() is not None:
            parts.append(f"{name}={v.size.as_int()}")
        elif isinstance(v, (StrV, BoolV)):
            parts.append(f"{name}={v.value!r}")
        elif isinstance(v, NoneV):
            parts.append(f"{name}=None")
        elif (
            isinstance(v, SeqV)
            and v.kind in ("tuple", "list")
            and all(isinstance(x, IntV) and x.size.as_int() is not None for x in v.items)
        ):
            ints = [x.size.as_int() for x in v.items]  # type: ignore[union-attr]
            parts.append(f"{name}={tuple(ints) if v.kind == 'tuple' else ints}")
    return ", ".join(parts) or None


def inherited_tests(m: "ModuleAnalysis") -> list[tuple["FunctionInfo", str, list[dict[str, Value]]]]:
    """Test methods a ``Test*`` class of this module inherits from a base class of this module, with the cases pytest
    runs them with in that class (its own ``parametrize`` marks: a base ``BaseMultiplyTest`` whose
    ``test_left(self, a, b)`` runs in ``@pytest.mark.parametrize("a, b", [...]) class TestLeft(BaseMultiplyTest)``):
    (the method, the class, the cases)."""
    from .objects import mro

    out: list[tuple["FunctionInfo", str, list[dict[str, Value]]]] = []
    for ci in m.classes.values():
        if not ci.key.split(":")[-1].rsplit(".", 1)[-1].startswith("Test") or not ci.node.decorators:
            continue
        seen = set(ci.methods)
        for base in mro(m, ci)[1:]:
            if base.module is not m:
                continue
            for name, fi in base.methods.items():
                if name in seen or not name.startswith("test"):
                    continue
                seen.add(name)
                cases = test_cases(m, fi, ci.key)
                if cases:
                    out.append((fi, ci.key, cases))
    return out


def _raises_on_condition(m: "ModuleAnalysis", fi: "FunctionInfo") -> bool:
    """Does the test expect a failure under a condition on its parameters (``if case.expect is Expect.RAISE: with
    pytest.raises(...): ...; return``, ``if error_expected: with pytest.raises(error_expected)``)? A table of cases
    then says which of them fail, by values the analysis may not decide (an enum member, a flag): the test is
    analysed with unknown parameters, not once per case, so a case meant to fail is not taken down the path for the
    others."""

    params = {p.name for p in fi.params} - {"self", "cls"}

    def mentions_param(test: cst.CSTNode) -> bool:
        stack = [test]
        while stack:
            n = stack.pop()
            if type(n) is cst.Name and n.value in params:
                return True
            stack.extend(children(n))
        return False

    def find(fn: cst.CSTNode) -> bool:
        # (a condition on something else, ``if torch.cuda.is_available():``, does not tell cases apart)
        stack: list[tuple[cst.CSTNode, bool]] = [(fn, False)]
        while stack:
            n, under_if = stack.pop()
            if under_if and type(n) is cst.Call and _is(m, n.func, "raises"):
                return True
            inner = under_if or (type(n) is cst.If and mentions_param(n.test))
            if type(n) not in (cst.ClassDef, cst.Lambda) and (n is fn or type(n) is not cst.FunctionDef):
                stack.extend((c, inner) for c in children(n))
        return False

    if "raises" not in m.text:
        return False
    return walk_memo("raises-on-condition", fi.node, find)


def _indirect_names(m: "ModuleAnalysis", fi: "FunctionInfo", cls_key: str | None) -> set[str]:
    """The names an indirect ``parametrize(..., indirect=...)`` of the test hands to fixtures (whose ``request.param``
    they set, in place of the fixture's own ``params=``): those fixtures are not read."""
    out: set[str] = set()
    for deco in _decorators(m, fi, cls_key):
        call = deco.decorator
        if type(call) is not cst.Call or not _is(m, call.func, "mark.parametrize"):
            continue
        if not any(a.keyword is not None and a.keyword.value == "indirect" for a in call.args):
            continue
        first = call.args[0].value if call.args else None
        names = _eval(m, fi, first) if first is not None else UNKNOWN
        if isinstance(names, StrV):
            out.update(n.strip() for n in names.value.split(","))
        elif isinstance(names, SeqV):
            out.update(x.value for x in names.items if isinstance(x, StrV))
        else:
            out.update(p.name for p in fi.params)  # cannot tell which: none of them
    return out


def test_cases(m: "ModuleAnalysis", fi: "FunctionInfo", cls_key: str | None = None) -> list[dict[str, Value]] | None:
    """The argument values pytest would call the test ``fi`` with, one dict per case (in the class ``cls_key`` when
    it inherits the method); None when ``fi`` is not a test with parametrize cases or fixtures the analysis can read
    (it is then analysed with unknown parameters)."""
    if not fi.name.startswith("test") or _raises_on_condition(m, fi) or _rebinds_arguments(fi):
        return None
    per_decorator: list[list[dict[str, Value]]] = []
    for deco in _decorators(m, fi, cls_key):
        cases = _cases_of(m, fi, deco)
        if cases:
            per_decorator.append(cases)
    named = {n for cases in per_decorator for c in cases for n in c} | _indirect_names(m, fi, cls_key)
    shared: set[str] = set()  # the parametrized fixtures the test's fixtures depend on
    for p in fi.params:
        if p.name in ("self", "cls") or p.name in named or p.ann is not None:
            continue
        if named and _fixture_inputs(m, fi, p.name, 0) & named:
            # ``@pytest.mark.parametrize("dim", ...)`` overrides the fixture ``dim`` for every fixture of the test
            # that asks for it too (``def basis(dim)``): its value is not the one the fixture alone gives
            continue
        vs = _fixture(m, fi, p.name, 0) or _builtin_fixture(m, fi, p.name)
        if vs:
            deps = _parametrized_deps(m, fi, p.name, 0)
            if deps & shared:
                # two fixtures of one parametrized fixture (``target(nb_bins)``, ``mix(nb_bins)``): pytest gives both
                # the same entry, which the product of their values below would not
                return None
            shared |= deps
            per_decorator.append([{p.name: v} for v in vs])
    if not per_decorator:
        return None
    out: list[dict[str, Value]] = []
    for combo in _combos(per_decorator):
        case: dict[str, Value] = {}
        for part in combo:
            case.update(part)
        out.append(case)
    return out or None
