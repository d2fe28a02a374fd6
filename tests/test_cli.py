"""The `shapecheck check` command as users run it: formats, selection, configuration, suppression, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from _config_project import set_width, write_configured

BUGGY = """import torch
from einops import rearrange
from jaxtyping import Float
from torch import Tensor


def patchify(img: Float[Tensor, "b 3 225 225"]):
    return rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)


def bad_pattern(x):
    return rearrange(x, "b c -> b c d")
"""


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shapecheck", *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(BUGGY)
    (tmp_path / "pkg" / "clean.py").write_text("import einops\n\nx = 1\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "generated.py").write_text(BUGGY)
    return tmp_path


def test_version_and_help(tmp_path: Path) -> None:
    assert run(["--version"], tmp_path).stdout.startswith("shapecheck ")
    out = run(["--help"], tmp_path)
    assert out.returncode == 0 and "check" in out.stdout


def test_text_output_and_exit_code(project: Path) -> None:
    proc = run(["check", "--no-cache"], project)
    assert proc.returncode == 1
    lines = [ln for ln in proc.stdout.splitlines() if not ln.startswith(" ")]
    assert lines[0].startswith("pkg/model.py:8:12: SHP203 ")
    assert lines[1].startswith("pkg/model.py:12:12: SHP104 ")
    assert "build/generated.py" not in proc.stdout  # excluded by default
    assert "    note: input shape (b, 3, 225, 225)" in proc.stdout


def test_json_keys(project: Path) -> None:
    proc = run(["check", "--no-cache", "--format", "json", "pkg"], project)
    data = json.loads(proc.stdout)
    assert [d["code"] for d in data] == ["SHP203", "SHP104"]
    first = data[0]
    assert set(first) >= {"path", "line", "column", "end_line", "end_column", "code", "severity", "message", "notes"}
    assert first["path"] == "pkg/model.py" and first["line"] == 8 and first["column"] == 12
    assert first["severity"] == "error" and first["message"].startswith("SHP203 ")
    assert isinstance(first["notes"], list) and first["end_line"] >= first["line"]


def test_select_and_ignore(project: Path) -> None:
    assert [
        d["code"]
        for d in json.loads(run(["check", "--no-cache", "--format", "json", "--select", "SHP2", "pkg"], project).stdout)
    ] == ["SHP203"]
    assert [
        d["code"]
        for d in json.loads(
            run(["check", "--no-cache", "--format", "json", "--ignore", "SHP203", "pkg"], project).stdout
        )
    ] == ["SHP104"]
    proc = run(["check", "--no-cache", "--ignore", "SHP1,SHP2", "pkg"], project)
    assert proc.returncode == 0 and proc.stdout == ""


def test_pyproject_configuration(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.shapecheck]\nignore = ["SHP104"]\nextend-exclude = ["pkg/clean.py"]\n'
        '[tool.shapecheck.per-file-ignores]\n"pkg/model.py" = ["SHP203"]\n'
    )
    proc = run(["check", "--no-cache", "."], project)
    assert proc.returncode == 0, proc.stdout


def test_suppression_comments(tmp_path: Path) -> None:
    src = BUGGY.replace("p2=16)", "p2=16)  # shapecheck: ignore[SHP203]").replace(
        '"b c -> b c d")', '"b c -> b c d")  # noqa: SHP104'
    )
    (tmp_path / "m.py").write_text(src)
    assert run(["check", "--no-cache", "m.py"], tmp_path).returncode == 0
    (tmp_path / "m.py").write_text(BUGGY.replace("p2=16)", "p2=16)  # shapecheck: ignore"))
    proc = run(["check", "--no-cache", "--format", "json", "m.py"], tmp_path)
    assert [d["code"] for d in json.loads(proc.stdout)] == ["SHP104"]
    (tmp_path / "m.py").write_text(BUGGY.replace("p2=16)", "p2=16)  # shapecheck: ignore[SHP201]"))
    assert [
        d["code"] for d in json.loads(run(["check", "--no-cache", "--format", "json", "m.py"], tmp_path).stdout)
    ] == ["SHP203", "SHP104"]


def test_usage_errors(tmp_path: Path) -> None:
    assert run(["check", "does-not-exist"], tmp_path).returncode == 2
    assert run(["check", "--format", "xml", "."], tmp_path).returncode == 2


def test_cache_reused_and_invalidated(project: Path) -> None:
    first = run(["check", "--format", "json", "pkg"], project).stdout
    assert (project / ".shapecheck_cache").is_dir()
    assert run(["check", "--format", "json", "pkg"], project).stdout == first
    (project / "pkg" / "model.py").write_text(BUGGY.replace("225 225", "224 224"))
    assert [d["code"] for d in json.loads(run(["check", "--format", "json", "pkg"], project).stdout)] == ["SHP104"]


def test_cache_key_covers_the_config_files_the_code_reads(tmp_path: Path) -> None:
    """A YAML file the code reads by a literal name (beside it or a folder down) is part of the cache key: editing it
    re-checks."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    write_configured(tmp_path, 8)
    assert json.loads(run(["check", "--format", "json", "test_cfg.py"], tmp_path).stdout) == []
    set_width(tmp_path, 6)
    found = json.loads(run(["check", "--format", "json", "test_cfg.py"], tmp_path).stdout)
    assert [d["code"] for d in found] == ["SHP204"] and "in_features=6" in found[0]["message"]


def test_syntax_error_and_bad_encoding_reported_and_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import einops\ndef f(:\n")
    (tmp_path / "b.py").write_bytes(b"# -*- coding: latin-1 -*-\nimport einops\ns = '\xe9'\n")
    (tmp_path / "c.py").write_bytes(b"import einops\nx = '\xff\xfe'\n")
    (tmp_path / "d.py").write_text(BUGGY)
    proc = run(["check", "--no-cache", "--format", "json", "."], tmp_path)
    data = json.loads(proc.stdout)
    by_file = {}
    for d in data:
        by_file.setdefault(d["path"], []).append(d["code"])
    assert by_file["a.py"] == ["SHP901"] and "line 2" in data[0]["message"]
    assert "b.py" not in by_file
    assert by_file["c.py"] == ["SHP901"]
    assert by_file["d.py"] == ["SHP203", "SHP104"]


def test_cross_module_through_cli(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "heads.py").write_text(
        'from einops import rearrange\n\n\ndef split_heads(x, h):\n    return rearrange(x, "b n (h d) -> b h n d", h=h)\n'
    )
    (tmp_path / "pkg" / "model.py").write_text(
        "from jaxtyping import Float\nfrom torch import Tensor\n\nfrom .heads import split_heads\n\n\n"
        'def f(x: Float[Tensor, "b n 500"]):\n    return split_heads(x, 8)\n'
    )
    proc = run(["check", "--no-cache", "--format", "json", "-j", "2", "pkg"], tmp_path)
    data = json.loads(proc.stdout)
    assert [(d["path"], d["line"], d["code"]) for d in data] == [("pkg/model.py", 8, "SHP203")]


def test_notes_name_other_modules_as_the_named_files_are_named(tmp_path: Path) -> None:
    """A note about another module's line (where a layer was built) shows its path in the style of the checked file's:
    relative to the working directory for a relative argument, absolute for an absolute one."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "layers.py").write_text(
        "from torch import nn\n\n\nclass Head(nn.Module):\n    def __init__(self, dim):\n        super().__init__()\n"
        "        self.proj = nn.Linear(dim, 10)\n\n    def forward(self, x):\n        return self.proj(x)\n"
    )
    (tmp_path / "run_head.py").write_text(
        "import torch\n\nfrom pkg.layers import Head\n\n\ndef main():\n    Head(64)(torch.randn(2, 32))\n"
    )
    for arg, built in (
        ("run_head.py", "pkg/layers.py:7"),
        (str(tmp_path / "run_head.py"), f"{tmp_path / 'pkg' / 'layers.py'}:7"),
    ):
        proc = run(["check", "--no-cache", "-j", "1", "--select", "SHP2", arg], tmp_path)
        assert f"{arg}:7:5: SHP204" in proc.stdout, proc.stdout
        assert f"self.proj was built at {built}" in proc.stdout, proc.stdout


def test_a_named_folder_is_where_its_namespace_packages_import_from(tmp_path: Path) -> None:
    """``shapecheck check tree`` from elsewhere, of a tree with no project marker whose ``models/distill.py`` (no
    ``__init__.py``) imports ``models.vit``: the folder named is searched for imports, as it would be from inside it."""
    (tmp_path / "tree" / "models").mkdir(parents=True)
    (tmp_path / "tree" / "models" / "vit.py").write_text(
        "import torch\nfrom torch import nn\n\n\nclass ViT(nn.Module):\n    def __init__(self, dim):\n"
        "        super().__init__()\n        self.cls_token = nn.Parameter(torch.randn(1, dim))\n"
    )
    (tmp_path / "tree" / "models" / "distill.py").write_text(
        "from einops import repeat\nfrom models.vit import ViT\n\n\nclass Distillable(ViT):\n"
        "    def forward(self, x):\n        return repeat(self.cls_token, '1 n d -> b n d', b=x.shape[0])\n"
    )
    (tmp_path / "elsewhere").mkdir()
    out = run(["check", str(tmp_path / "tree"), "--no-cache", "--format", "json"], tmp_path / "elsewhere")
    found = [(Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(out.stdout)]
    assert found == [("distill.py", 7, "SHP201")]


def test_main_alias_blocks_do_not_run_when_the_module_is_imported(tmp_path: Path) -> None:
    """ARENA's layout (hunt56's one false finding): solutions guard their demo calls with ``MAIN = __name__ ==
    "__main__"`` / ``if MAIN:``, and the tests they call import the solutions module again from inside their bodies,
    where it runs under its package name and MAIN is False. A test that never calls ``loss`` is not blamed for the
    call another test makes; the true argument error stays reported where it is."""
    pkg = tmp_path / "tree" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "sol.py").write_text(
        "from jaxtyping import Float\nfrom torch import Tensor\n\nimport pkg.tests as tests\n\n"
        'MAIN = __name__ == "__main__"\n\n\ndef helper():\n    return 1\n\n\n'
        'def loss(values: Float[Tensor, "n"]) -> Float[Tensor, ""]:\n    return values.pow(2).mean()\n\n\n'
        "if MAIN:\n    tests.test_helper(helper)\n    tests.test_loss(loss)\n"
    )
    (pkg / "tests.py").write_text(
        "import torch as t\n\n\ndef test_helper(fn):\n    import pkg.sol as sol\n\n    return sol.helper()\n\n\n"
        "def test_loss(fn):\n    import pkg.sol as sol\n\n    return sol.loss(t.randn(5, 4))\n"
    )
    out = run(["check", ".", "--no-cache", "--format", "json"], tmp_path / "tree")
    found = [(Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(out.stdout)]
    assert found == [("tests.py", 13, "SHP205")]


def test_script_beside_a_src_folder_imports_its_packages(tmp_path: Path) -> None:
    """A tree with no project marker: a script beside ``src/`` imports the packages in it (a src layout copied
    without its packaging files); a sibling folder's files are not affected (no crash naming their modules)."""
    (tmp_path / "case" / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "case" / "src" / "pkg" / "layers.py").write_text(
        "import torch.nn as nn\n\ndef make():\n    return nn.Linear(4, 8)\n"
    )
    (tmp_path / "case" / "driver.py").write_text(
        "import torch\nfrom pkg.layers import make\n\nmake()(torch.randn(2, 5))\n"
    )
    (tmp_path / "other" / "sub").mkdir(parents=True)
    (tmp_path / "other" / "sub" / "m.py").write_text("import torch\n\nx = torch.randn(2, 3)\n")
    proc = run(["check", "--no-cache", "--format", "json", str(tmp_path)], tmp_path)
    assert "internal error" not in proc.stderr, proc.stderr
    found = json.loads(proc.stdout)
    assert [(Path(f["path"]).name, f["code"]) for f in found] == [("driver.py", "SHP204")], found
