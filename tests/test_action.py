"""The composite GitHub Action (action.yml) and the install paths the docs give (issue 14, item 3).

No GitHub runner here: the action's steps are run as a runner runs them -- each ``run`` script with bash, its
``env`` with the ``${{ ... }}`` expressions substituted, ``GITHUB_OUTPUT`` a file -- in a fresh virtual environment
(with the system's packages for shapecheck's dependencies, so the install from the action's checkout is the only
one that happens).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import venv
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml")  # PyYAML comes with pre-commit ([test])

ROOT = Path(__file__).resolve().parents[1]

BUGGY = """from einops import rearrange
from jaxtyping import Float
from torch import Tensor


def patchify(img: Float[Tensor, "b 3 225 225"]):
    return rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)
"""


def _expand(value: str, inputs: dict[str, str], action_path: Path) -> str:
    def sub(m: re.Match[str]) -> str:
        expr = m.group(1).strip()
        if expr == "github.action_path":
            return str(action_path)
        if expr.startswith("inputs."):
            return inputs[expr[len("inputs.") :]]
        raise AssertionError(f"unexpected expression {expr}")

    return re.sub(r"\$\{\{(.*?)\}\}", sub, value)


def run_action(
    action: dict[str, Any], inputs: dict[str, str], cwd: Path, env: dict[str, str], skip: int = 0
) -> tuple[int, dict[str, str]]:
    values = {k: str(v.get("default", "")) for k, v in action["inputs"].items()} | inputs
    outputs: dict[str, str] = {}
    out_file = cwd / "github_output"
    for step in action["runs"]["steps"][skip:]:
        assert step["shell"] == "bash"
        out_file.write_text("")
        step_env = {**env, "GITHUB_OUTPUT": str(out_file)}
        step_env.update({k: _expand(str(v), values, ROOT) for k, v in step.get("env", {}).items()})
        script = _expand(step["run"], values, ROOT)
        assert "${{" not in script
        proc = subprocess.run(
            ["bash", "-e", "-c", script], cwd=cwd, env=step_env, capture_output=True, text=True, timeout=600
        )
        for line in out_file.read_text().splitlines():
            k, _, v = line.partition("=")
            outputs[k] = v
        if proc.returncode != 0:
            return proc.returncode, outputs
    return 0, outputs


@pytest.fixture(scope="module")
def action_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A fresh environment where the action's install step has run (the first step, for real)."""
    env_dir = tmp_path_factory.mktemp("action-venv")
    venv.create(env_dir, with_pip=True, system_site_packages=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env['PATH']}"
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    install = {**action, "runs": {"steps": action["runs"]["steps"][:1]}}
    rc, _ = run_action(install, {}, tmp_path_factory.mktemp("install"), env)
    assert rc == 0
    where = subprocess.run(
        [str(env_dir / "bin" / "python"), "-c", "import shapecheck; print(shapecheck.__file__)"],
        env=env,
        cwd=env_dir,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(env_dir)), where  # installed into the environment, not the checkout's editable copy
    return env


def test_action_metadata_is_a_composite_that_installs_from_its_checkout() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    first = action["runs"]["steps"][0]
    assert "pip install" in first["run"] and first["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    assert "shapecheck-tensors" not in (ROOT / "action.yml").read_text().split("runs:")[1]


def test_action_writes_sarif_and_fails_on_findings(tmp_path: Path, action_env: dict[str, str]) -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    (tmp_path / "model.py").write_text(BUGGY)
    rc, out = run_action(action, {"output": "reports/shapecheck.sarif"}, tmp_path, action_env, skip=1)
    assert rc == 1 and out["exit-code"] == "1"
    sarif = json.loads((tmp_path / "reports" / "shapecheck.sarif").read_text())
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["SHP203"]
    rc, out = run_action(action, {"fail-on-findings": "false", "args": "--select SHP1"}, tmp_path, action_env, skip=1)
    assert rc == 0 and out["exit-code"] == "0"
    (tmp_path / "pyproject.toml").write_text("[tool.shapecheck]\nignroe = []\n")
    rc, out = run_action(action, {}, tmp_path, action_env, skip=1)
    assert rc == 2 and out["exit-code"] == "2"


def test_workflow_example_uses_the_action_and_uploads_sarif() -> None:
    flow = yaml.safe_load((ROOT / "plugins" / "github-actions" / "shapecheck.yml").read_text())
    steps = flow["jobs"]["shapecheck"]["steps"]
    uses = [s.get("uses", "") for s in steps]
    assert any(u.startswith("actions/setup-python") for u in uses)
    mine = [s for s in steps if s.get("id") == "shapecheck"]
    assert mine and mine[0]["uses"].endswith(tuple(["/shapecheck@" + _pinned_rev()]))
    upload = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif")]
    assert upload and "always()" in upload[0]["if"] and upload[0]["with"]["sarif_file"] == "shapecheck.sarif"


def _pinned_rev() -> str:
    """The commit the docs pin (pre-commit ``rev:``, the action's ``@``): one sha everywhere."""
    text = (ROOT / "docs" / "hosts.md").read_text()
    revs = set(re.findall(r"^\s*rev: ([0-9a-f]{40})\b", text, re.MULTILINE))
    assert len(revs) == 1, revs
    return revs.pop()


def test_docs_pin_a_commit_that_exists_with_the_hooks() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    rev = _pinned_rev()
    for doc in ("README.md", "docs/hosts.md", "plugins/github-actions/shapecheck.yml"):
        for found in re.findall(r"(?:rev: |shapecheck@)([0-9a-f]{7,40})\b", (ROOT / doc).read_text()):
            assert found == rev, (doc, found)
    shown = subprocess.run(["git", "show", f"{rev}:.pre-commit-hooks.yaml"], cwd=ROOT, capture_output=True, text=True)
    if shown.returncode != 0:
        shallow = subprocess.run(
            ["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT, capture_output=True, text=True
        )
        if shallow.stdout.strip() == "true":
            pytest.skip("shallow clone: the pinned commit may be outside it")
    assert shown.returncode == 0, shown.stderr
    hooks = {h["id"] for h in yaml.safe_load(shown.stdout)}
    assert {"shapecheck", "shapecheck-fix"} <= hooks


def test_docs_never_install_the_unpublished_name() -> None:
    for path in [ROOT / "README.md", ROOT / "action.yml", *ROOT.glob("docs/*.md"), *ROOT.glob("plugins/**/*")]:
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            for m in re.finditer(r"pip install\s+['\"]?shapecheck-tensors(?:\[[^\]]*\])?(\s*@)?", text):
                assert m.group(1), (path, m.group(0))  # only "name @ git+URL" / a path, never the bare name
