"""Test functions as entry points with the values pytest gives them: ``@pytest.mark.parametrize`` cases and fixtures.

A test ``def test_attn(dim, model)`` analysed on its own sees unknown parameters. pytest calls it with concrete values:

* ``@pytest.mark.parametrize("dim", [32, 64])`` (on the function or its class; stacked decorators combine): the test
  runs once per case, each with that case's values (the first ``MAX_CASES`` combinations). A ``pytest.param(...)``
  with ``marks=`` (xfail, skip, ...) is left out: it may be expected to fail, and so is a test marked
  ``@pytest.mark.xfail`` / ``skip`` (``expected_to_fail``). Values are evaluated in the module, never executed;
* a parameter named like a ``@pytest.fixture`` function of the same module (or class) whose body ``return``\\ s one
  value: that value (a fixture with parameters of its own or that ``yield``\\ s stays unknown).

Findings the cases share are reported once.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import libcst as cst

from ..index.imports import dotted
from .values import UNKNOWN, SeqV, StrV, Value
from .context import counter_mark
from .state import function_state

if TYPE_CHECKING:
    from ..index.functions import FunctionInfo
    from .module import ModuleAnalysis

MAX_CASES = 4


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
    if names_node is None or not isinstance(values_node, (cst.List, cst.Tuple)) or "indirect" in kw:
        return None  # indirect: the values go to fixtures, not to the test
    names_v = _eval(m, fi, names_node)
    if isinstance(names_v, StrV):
        names = [n.strip() for n in names_v.value.split(",") if n.strip()]
    elif isinstance(names_v, SeqV) and all(isinstance(x, StrV) for x in names_v.items):
        names = [x.value for x in names_v.items if isinstance(x, StrV)]
    else:
        return None
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
        if len(cases) >= MAX_CASES:
            break
    return cases


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


def _fixture(m: "ModuleAnalysis", fi: "FunctionInfo", name: str, depth: int) -> Value:
    """The value a ``@pytest.fixture`` of this module (or of the test's class) named ``name`` returns."""
    key = (
        f"{fi.cls_key}.{name}"
        if fi.cls_key is not None and f"{fi.cls_key}.{name}" in m.functions
        else f"{m.module_name}:{name}"
    )
    fx = m.functions.get(key)
    if fx is None or not _is_fixture(m, fx):
        fx = _conftest_fixture(m, name)  # pytest looks in the conftest.py files of the test's folder and above
    if fx is None or fx is fi or not _is_fixture(fx.module, fx) or depth > 2:
        return UNKNOWN
    own = [p for p in fx.params if p.name not in ("self", "cls", "request")]
    # a fixture's own parameters are fixtures too (``def model(config): return Model(config)``), found the same way
    if any(p.default is not None or p.kind not in ("pos", "posonly", "kwonly") for p in own):
        return UNKNOWN
    # the value depends on the fixture and the depth only (its own fixtures are found from its module): computed once
    # per fixture, unless it holds sizes the run made up (each test then gets sizes of its own, as before)
    from .module import _minted_since

    st = function_state(fx)
    known = st.fixture.get(depth) if st.fixture is not None else None
    if known is not None:
        return known
    mark = counter_mark()
    args = {p.name: _fixture(fx.module, fx, p.name, depth + 1) for p in own}
    with fx.module.ctx.discarding():
        scope = fx.module.run_function(fx, args, None, depth=1)
    values = [v for _, v in scope.returns]
    value = values[0] if len(values) == 1 else UNKNOWN
    if not _minted_since(value, mark, 0):
        if st.fixture is None:
            st.fixture = {}
        st.fixture[depth] = value
    return value


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
    for case in cases:
        m.run_function(fi, case, self_value)
    seen: set[tuple[int, str]] = {(id(p.node), p.code) for p in m.ctx.pending[:start]}
    kept = []
    for p in m.ctx.pending[start:]:
        if (id(p.node), p.code) not in seen:
            seen.add((id(p.node), p.code))
            kept.append(p)
    m.ctx.pending[start:] = kept


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


def test_cases(m: "ModuleAnalysis", fi: "FunctionInfo", cls_key: str | None = None) -> list[dict[str, Value]] | None:
    """The argument values pytest would call the test ``fi`` with, one dict per case (in the class ``cls_key`` when
    it inherits the method); None when ``fi`` is not a test with parametrize cases or fixtures the analysis can read
    (it is then analysed with unknown parameters)."""
    if not fi.name.startswith("test"):
        return None
    per_decorator: list[list[dict[str, Value]]] = []
    for deco in _decorators(m, fi, cls_key):
        cases = _cases_of(m, fi, deco)
        if cases:
            per_decorator.append(cases)
    fixtures: dict[str, Value] = {}
    named = {n for cases in per_decorator for c in cases for n in c}
    for p in fi.params:
        if p.name in ("self", "cls") or p.name in named or p.ann is not None:
            continue
        v = _fixture(m, fi, p.name, 0)
        if v is not UNKNOWN:
            fixtures[p.name] = v
    if not per_decorator and not fixtures:
        return None
    out: list[dict[str, Value]] = []
    for combo in itertools.islice(itertools.product(*per_decorator), MAX_CASES):
        case = dict(fixtures)
        for part in combo:
            case.update(part)
        out.append(case)
    return out or None
