"""Which module-level tables stay stable once the module level has run (``index.module_facts``), and which
registering decorators only forward the call (``index.functions.transparent_wrapper``)."""

import textwrap

import libcst as cst

from shapecheck.analysis.index.functions import transparent_wrapper
from shapecheck.analysis.index.module_facts import unstable_globals


def _unstable(text: str) -> frozenset[str]:
    found = unstable_globals(textwrap.dedent(text))
    assert found is not None
    return found


def test_a_table_filled_before_any_code_runs_is_stable() -> None:
    text = """
        import torch

        class Model:
            pass

        def build(name):
            return Model(**CFGS[name])

        CFGS = {}
        CFGS["tiny"] = dict(dim=32)
        CFGS[1] = {"dim": 64}
        """
    assert "CFGS" not in _unstable(text)


def test_a_fill_after_code_of_the_tree_may_have_run_is_not() -> None:
    after_call = """
        CFGS = {}
        setup()
        CFGS["tiny"] = dict(dim=32)
        """
    after_decorator = """
        CFGS = {}

        @register
        def tiny():
            return CFGS["tiny"]

        CFGS["tiny"] = dict(dim=32)
        """
    computed = """
        CFGS = {}
        CFGS["tiny"] = make_cfg()
        """
    in_function = """
        CFGS = {"tiny": dict(dim=32)}

        def override(**kw):
            CFGS["tiny"] = kw
        """
    for text in (after_call, after_decorator, computed, in_function):
        assert "CFGS" in _unstable(text), text


def test_a_dataclass_before_the_fill_runs_no_code_of_the_tree() -> None:
    text = """
        from dataclasses import dataclass

        @dataclass
        class Cfg:
            dim: int = 8

        CFGS = {}
        CFGS["tiny"] = dict(dim=32)
        """
    assert "CFGS" not in _unstable(text)


def _deco(text: str) -> cst.FunctionDef:
    node = cst.parse_module(textwrap.dedent(text)).body[0]
    assert type(node) is cst.FunctionDef
    return node


def test_a_registering_wrapper_that_only_forwards_is_transparent() -> None:
    stored = """
        def register_model(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                return fn(*args, **kwargs)

            name = fn.__name__
            _entrypoints[name] = wrapper
            return wrapper
        """
    assert transparent_wrapper(_deco(stored))


def test_a_wrapper_stored_or_changed_otherwise_is_not() -> None:
    rebinds = """
        def register_model(fn):
            def wrapper(**kwargs):
                return fn(**kwargs)

            fn = other
            _entrypoints[fn.__name__] = wrapper
            return wrapper
        """
    stores_fn = """
        def register_model(fn):
            def wrapper(**kwargs):
                return fn(**kwargs)

            _entrypoints[fn.__name__] = fn
            wrapper.__dict__["x"] = 1
            return wrapper
        """
    sets_keyword = """
        def register_model(fn):
            def wrapper(**kwargs):
                kwargs.setdefault("dim", 8)
                return fn(**kwargs)

            _entrypoints[fn.__name__] = wrapper
            return wrapper
        """
    for text in (rebinds, stores_fn, sets_keyword):
        assert not transparent_wrapper(_deco(text)), text
