"""One import resolver (analysis/index/resolve.py): the same import statements resolve the same way through every
reader -- the analysis's import table (libcst), the project's ``ast`` read of modules it does not analyse, the
dependency scan of the pre-filter and the cache keys, and the mypy host's dependency hash."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import libcst as cst
import pytest
from mypy.options import Options

from shapecheck.analysis.index.imports import collect_imports, cst_records
from shapecheck.analysis.index.project import Bindings, ModuleIndex, Project, module_name_for
from shapecheck.analysis.index.resolve import (
    ImportRecord,
    ast_records,
    bindings,
    imported_modules,
    loaded_modules,
    resolve_relative,
    scan_records,
)
from shapecheck.hosts.mypy_plugin import ShapecheckPlugin

# a package whose modules import each other in every form the resolver handles
TREE = {
    "rsvpkg/__init__.py": (
        "from .core import Model\n"
        "from . import layers\n"
        "import rsvpkg.util as u\n"
        "from .util import *\n"
        "__all__ = ['Model', 'layers', 'u']\n"
    ),
    "rsvpkg/core.py": (
        "import einops\n"
        "import torch.nn.functional as F, os.path\n"
        "from .layers import attn as a, norm\n"
        "from .layers.attn import (  # a comment (with parentheses\n"
        "    Attention,  # the class\n"
        "    helper as h,\n"
        ")\n"
        "from rsvpkg.util import \\\n"
        "    scale, shift as sh\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING: from .util import Hint\n"
        "try:\n"
        "    from .fast import kernel\n"
        "except ImportError:\n"
        "    from .slow import kernel\n"
        "else:\n"
        "    import rsvpkg.fast\n"
        "finally:\n"
        "    import rsvpkg.util\n"
        "if einops:\n"
        "    pass\n"
        "elif os:\n"
        "    from . import slow\n"
        "else:\n"
        "    from .util import scale as scale2\n"
        "with open(__file__):\n"
        "    from .layers import norm as n2\n"
        "class Model:\n"
        "    def forward(self, x):\n"
        "        from .layers.norm import Norm\n"
        "        return Norm(x)\n"
    ),
    "rsvpkg/util.py": "from . import core\nscale = shift = Hint = 1\n",
    "rsvpkg/fast.py": "kernel = 1\n",
    "rsvpkg/slow.py": "from .. import rsvpkg\nkernel = 2\n",
    "rsvpkg/layers/__init__.py": "from .attn import *\nfrom .norm import Norm as Norm\n",
    "rsvpkg/layers/attn.py": (
        "from .. import core\nfrom ..util import scale\nfrom . import norm\nclass Attention: ...\ndef helper(): ...\n"
    ),
    "rsvpkg/layers/norm.py": "from ...rsvpkg import util\nclass Norm: ...\n",
}


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for rel, text in TREE.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        out[module_name_for(p)[0]] = p
    return out


def _modules(tree: dict[str, Path]) -> list[tuple[str, bool, str]]:
    return [(name, p.name == "__init__.py", p.read_text()) for name, p in sorted(tree.items())]


def test_records_are_the_same_from_libcst_ast_and_the_scan(tree: dict[str, Path]) -> None:
    for name, _, text in _modules(tree):
        from_cst = cst_records(cst.parse_module(text))
        from_ast = ast_records(ast.parse(text))
        assert from_cst == from_ast, name
        # the scan cannot tell nested imports; the fixture has no import text inside strings
        assert scan_records(text) == [ImportRecord(r.level, r.module, r.name, r.asname) for r in from_ast], name


def test_record_forms() -> None:
    text = "import a.b\nimport a.b as c\nfrom ..m import x as y\nfrom . import z\nfrom m import *\n"
    expected = [
        ImportRecord(0, "a.b", None, None),
        ImportRecord(0, "a.b", None, "c"),
        ImportRecord(2, "m", "x", "y"),
        ImportRecord(1, "", "z", None),
        ImportRecord(0, "m", "*", None),
    ]
    assert ast_records(ast.parse(text)) == cst_records(cst.parse_module(text)) == scan_records(text) == expected
    names, stars = bindings(expected, "pkg.sub.mod", False)
    assert names == {"a": "a", "c": "a.b", "y": "pkg.m.x", "z": "pkg.sub.z"}
    assert stars == ["m"]
    # in a package's __init__ the package itself is the base of a relative import
    assert bindings(expected, "pkg.sub", True)[0]["z"] == "pkg.sub.z"
    assert bindings(expected, "pkg.sub", True)[0]["y"] == "pkg.m.x"
    assert imported_modules(expected[2], "pkg.sub.mod", False) == ("pkg.m.x", "pkg.m")
    assert imported_modules(expected[0], "pkg.sub.mod", False) == ("a.b",)
    assert resolve_relative("pkg.mod", 3, "x", False) == "x"  # above the top package: from the top (best effort)


def test_nested_imports_bind_in_the_table_but_are_not_module_names() -> None:
    text = "import os\ndef f():\n    import numpy as np\n    return np\nclass C:\n    from math import pi\n"
    table = collect_imports(cst.parse_module(text), "m", False)
    assert table.names == {"os": "os", "np": "numpy", "pi": "math.pi"}
    assert table.module_names == {"os": "os"}


def test_scan_skips_what_is_not_an_import_statement() -> None:
    text = "x = 1; import skipped\n# import commented\nimport data from somewhere\nfrom m import (a, b.c, d as e)\n"
    assert scan_records(text) == [ImportRecord(0, "m", "a", None), ImportRecord(0, "m", "d", "e")]


def test_module_bindings_are_the_same_before_and_after_the_module_is_analysed(tree: dict[str, Path]) -> None:
    unread = Project(list(tree.values()))
    loaded = Project(list(tree.values()))
    for name in tree:
        before = unread._bindings(name)
        assert loaded.module(name) is not None
        after = loaded._bindings(name)
        assert before.imports == after.imports, name  # imported name -> qualified name
        assert before.stars == after.stars, name
        ma = loaded.modules[name]
        is_pkg = tree[name].name == "__init__.py"
        assert ma.imports.module_names == bindings(ast_records(ast.parse(ma.text)), name, is_pkg, nested=False)[0]
    core = loaded.modules["rsvpkg.core"].imports
    assert core.names["a"] == "rsvpkg.layers.attn"
    assert core.names["h"] == "rsvpkg.layers.attn.helper"
    assert core.names["sh"] == "rsvpkg.util.shift"
    assert core.names["kernel"] == "rsvpkg.slow.kernel"  # the later binding wins
    assert core.names["scale2"] == "rsvpkg.util.scale"  # under an elif's else
    assert core.names["Norm"] == "rsvpkg.layers.norm.Norm"  # in a method body: a name for the analysis
    assert "Norm" not in core.module_names
    assert loaded.canonical("rsvpkg.Model") == "rsvpkg.core.Model"
    assert loaded.canonical("rsvpkg.layers.Norm") == "rsvpkg.layers.norm.Norm"
    assert loaded.qualify_star("rsvpkg.layers", "Attention") == "rsvpkg.layers.attn.Attention"


def test_dependencies_are_the_same_for_the_project_the_cache_keys_and_the_mypy_host(
    tree: dict[str, Path], tmp_path: Path
) -> None:
    project = Project(list(tree.values()))
    plugin = ShapecheckPlugin(Options())
    by_path = {os.path.normpath(str(p)): name for name, p in tree.items()}
    for name, is_pkg, text in _modules(tree):
        expected = loaded_modules(
            cst_records(cst.parse_module(text)), name, is_pkg, lambda n: n in tree
        )  # what the analysis's own records load
        assert project.dependency_names(text, name) == expected, name
        assert [p for p in project.dependencies(text, name)] == [tree[n] for n in expected], name
        mypy_deps = {by_path[p] for p in plugin._find_imports(str(tree[name]), text)}
        assert mypy_deps == set(expected), name
    # ``from . import layers`` loads the subpackage, ``from .layers import attn as a`` the submodule
    assert "rsvpkg.layers" in project.dependency_names(TREE["rsvpkg/__init__.py"], "rsvpkg")
    core = project.dependency_names(TREE["rsvpkg/core.py"], "rsvpkg.core")
    assert {"rsvpkg.layers.attn", "rsvpkg.layers.norm", "rsvpkg.util", "rsvpkg.fast", "rsvpkg.slow"} <= set(core)


def test_the_index_of_a_module_is_immutable_and_agrees_with_its_analysis(tree: dict[str, Path]) -> None:
    import dataclasses

    project = Project(list(tree.values()))
    index = project._index("rsvpkg.core")
    assert isinstance(index, ModuleIndex)
    assert index.error is None and index.key is not None
    assert list(index.records) == cst_records(cst.parse_module(TREE["rsvpkg/core.py"]))
    assert index.bindings.definitions == {"Model"}
    assert "Model" in index.bindings.defined and "kernel" not in index.bindings.defined  # imports are not its own
    with pytest.raises(dataclasses.FrozenInstanceError):
        index.records = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        index.bindings.imports["x"] = "y"  # type: ignore[index]
    assert project._bindings("rsvpkg.core") is index.bindings  # read once, shared
    broken = tree["rsvpkg.fast"]
    broken.write_text("def f(:\n")
    fresh = Project(list(tree.values()))
    assert isinstance(fresh._index("rsvpkg.fast").error, SyntaxError)
    assert fresh._bindings("rsvpkg.fast") == Bindings()
