"""Which module-level tables stay stable once the module level has run (``index.module_facts``), which
registering decorators only forward the call (``index.functions.transparent_wrapper``), and values read from text
and library calls the code writes in plain sight (a TOML config, ``torch.where``'s dtype)."""

import sys
import textwrap

import libcst as cst
import pytest

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


def _codes(text: str) -> list[tuple[int, str]]:
    from shapecheck.analysis import analyse_text

    return sorted((f.line, f.code) for f in analyse_text(textwrap.dedent(text), "snippet.py"))


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib is Python 3.11's")
def test_a_toml_config_written_in_the_code_is_read() -> None:
    text = """
        import tomllib
        import torch
        from torch import nn

        CONFIG = '''
        hidden = 32
        [head]
        classes = 4
        '''

        cfg = tomllib.loads(CONFIG)
        layer = nn.Linear(16, cfg["head"]["classes"])
        layer(torch.randn(2, cfg["hidden"]))
        """
    assert _codes(text) == [(14, "SHP204")]
    assert _codes(text.replace("hidden = 32", "hidden = 16")) == []
    assert _codes(text.replace("hidden = 32", "hidden = [")) == []  # (tomllib raises: nothing known)


def test_where_keeps_the_dtype_its_values_share() -> None:
    text = """
        import torch

        points = torch.randn(4, 10, 3)
        idx = torch.zeros(4, 6, dtype=torch.long)
        idx = torch.where(idx > 5, idx[:, :1].expand_as(idx), idx)
        batch = torch.arange(4).view(4, 1)
        picked = points[batch, idx]
        picked + torch.randn(4, 6, 2)
        """
    assert _codes(text) == [(9, "SHP204")]  # (4, 6, 3) against (4, 6, 2): an index array, not a mask


def test_a_registering_decorator_may_label_what_it_returns() -> None:
    from shapecheck.analysis.index.functions import returns_its_argument

    labels = """
        def deco(cls):
            MODELS[name] = cls
            cls.registry_name = name
            return cls
        """
    patches = """
        def deco(cls):
            MODELS[name] = cls
            cls.forward = traced
            return cls
        """
    private = """
        def deco(cls):
            cls._impl = name
            return cls
        """
    assert returns_its_argument(_deco(labels))
    assert not returns_its_argument(_deco(patches))
    assert not returns_its_argument(_deco(private))
