"""Report formats: SARIF 2.1.0 (sarif-pydantic model + a schema subset, offline), GitHub annotations, JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from shapecheck.core import check_source
from shapecheck.diagnostics import CODES, Finding
from shapecheck.hosts.formats import render
from shapecheck.hosts.github import escape_data, escape_property, render_github
from shapecheck.hosts.sarif import render_sarif

SAMPLE = """import torch
from torch import Tensor
from einops import rearrange
from jaxtyping import Float, Float16


def patchify(img: Float[Tensor, "b 3 225 225"]):
    return rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)


def bad_pattern(x):
    return rearrange(x, "b c -> b c d")
"""

# The parts of the SARIF 2.1.0 schema (sarif-schema-2.1.0.json) that a code-scanning upload relies on.
_MESSAGE = {
    "type": "object",
    "required": ["text"],
    "properties": {"text": {"type": "string"}, "markdown": {"type": "string"}},
}
SARIF_SUBSET = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string"},
        "runs": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["tool", "results"],
                "properties": {
                    "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name", "version", "informationUri", "rules"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "version": {"type": "string"},
                                    "informationUri": {"type": "string", "format": "uri"},
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": [
                                                "id",
                                                "name",
                                                "shortDescription",
                                                "fullDescription",
                                                "help",
                                                "defaultConfiguration",
                                            ],
                                            "properties": {
                                                "id": {"type": "string"},
                                                "name": {"type": "string"},
                                                "shortDescription": _MESSAGE,
                                                "fullDescription": _MESSAGE,
                                                "help": {"type": "object", "required": ["text", "markdown"]},
                                                "defaultConfiguration": {
                                                    "type": "object",
                                                    "required": ["level"],
                                                    "properties": {
                                                        "level": {"enum": ["none", "note", "warning", "error"]}
                                                    },
                                                },
                                            },
                                        },
                                    },
                                },
                            }
                        },
                    },
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["ruleId", "ruleIndex", "level", "message", "locations"],
                            "properties": {
                                "ruleId": {"type": "string"},
                                "ruleIndex": {"type": "integer", "minimum": 0},
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": _MESSAGE,
                                "locations": {
                                    "type": "array",
                                    "minItems": 1,
                                    "items": {
                                        "type": "object",
                                        "required": ["physicalLocation"],
                                        "properties": {
                                            "physicalLocation": {
                                                "type": "object",
                                                "required": ["artifactLocation", "region"],
                                                "properties": {
                                                    "artifactLocation": {
                                                        "type": "object",
                                                        "required": ["uri"],
                                                        "properties": {
                                                            "uri": {"type": "string"},
                                                            "uriBaseId": {"type": "string"},
                                                        },
                                                    },
                                                    "region": {
                                                        "type": "object",
                                                        "required": [
                                                            "startLine",
                                                            "startColumn",
                                                            "endLine",
                                                            "endColumn",
                                                        ],
                                                        "properties": {
                                                            k: {"type": "integer", "minimum": 1}
                                                            for k in (
                                                                "startLine",
                                                                "startColumn",
                                                                "endLine",
                                                                "endColumn",
                                                            )
                                                        },
                                                    },
                                                },
                                            }
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


@pytest.fixture()
def in_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "src" / "my dir").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "src")
    return tmp_path


def _findings(path: str = "my dir/model.py") -> list[Finding]:
    found = check_source(SAMPLE, path)
    assert [f.code for f in found] == ["SHP203", "SHP104"]
    return found


def test_sarif_validates(in_repo: Path) -> None:
    from sarif_pydantic import Sarif

    text = render_sarif(_findings())
    data = json.loads(text)
    jsonschema.validate(data, SARIF_SUBSET)
    log = Sarif.model_validate(data)
    assert log.version == "2.1.0"
    driver = data["runs"][0]["tool"]["driver"]
    assert driver["name"] == "shapecheck" and driver["version"]
    assert [r["id"] for r in driver["rules"]] == [c.code for c in CODES]
    for r, c in zip(driver["rules"], CODES):
        assert r["name"] == c.name and r["defaultConfiguration"]["level"] == c.severity.value
    results = data["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["SHP203", "SHP104"]
    for r in results:
        assert driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"] == {"uri": "src/my%20dir/model.py", "uriBaseId": "%SRCROOT%"}
        assert r["level"] == "error" and r["message"]["text"].startswith(r["ruleId"] + " ")
    assert results[0]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 8,
        "startColumn": 12,
        "endLine": 8,
        "endColumn": 82,
    }


def test_sarif_warning_level_and_empty(in_repo: Path) -> None:
    f = Finding("a.py", 1, 1, 1, 2, "SHP301", "SHP301 sum over float16")
    data = json.loads(render_sarif([f]))
    assert data["runs"][0]["results"][0]["level"] == "warning"
    empty = json.loads(render_sarif([]))
    jsonschema.validate(empty, SARIF_SUBSET)
    assert empty["runs"][0]["results"] == []


def test_sarif_outside_the_repo_uses_an_absolute_uri(in_repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    other = tmp_path_factory.mktemp("elsewhere") / "x.py"
    data = json.loads(render_sarif([Finding(str(other), 1, 1, 1, 2, "SHP104", "SHP104 x")]))
    loc = data["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert loc["uri"].startswith("file:///") and "uriBaseId" not in loc


def test_github_escaping() -> None:
    assert escape_data("100% a\r\nb") == "100%25 a%0D%0Ab"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    f = Finding("dir,1/we:ird.py", 3, 5, 3, 9, "SHP201", "SHP201 rank 2, expected 3: 50% off", notes=("line two",))
    assert render_github([f]) == (
        "::error file=dir%2C1/we%3Aird.py,line=3,col=5,endLine=3,endColumn=8,title=SHP201::"
        "SHP201 rank 2, expected 3: 50%25 off%0Aline two\n"
    )
    w = Finding("a.py", 1, 2, 4, 1, "SHP301", "SHP301 x")
    assert render_github([w]) == "::warning file=a.py,line=1,col=2,endLine=4,title=SHP301::SHP301 x\n"


def test_github_from_core() -> None:
    lines = render_github(_findings("pkg/model.py")).splitlines()
    assert lines[0].startswith("::error file=pkg/model.py,line=8,col=12,endLine=8,endColumn=81,title=SHP203::SHP203 ")
    assert lines[1].startswith("::error file=pkg/model.py,line=12,col=12,")


def test_json_keys() -> None:
    data = json.loads(render(_findings("m.py"), "json"))
    assert set(data[0]) >= {"path", "line", "column", "end_line", "end_column", "code", "severity", "message", "notes"}
    assert data[0]["code"] == "SHP203" and data[0]["severity"] == "error"


def test_cli_formats(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / ".git").mkdir()
    (tmp_path / "m.py").write_text(SAMPLE)
    out = tmp_path / "out.sarif"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-m", "shapecheck", "check", "--no-cache", "--format", "sarif", "-o", str(out), "m.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    data = json.loads(out.read_text())
    jsonschema.validate(data, SARIF_SUBSET)
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in data["runs"][0]["results"]] == [
        "m.py",
        "m.py",
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "shapecheck", "check", "--no-cache", "--format", "github", "m.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.stdout.startswith("::error file=m.py,line=8,col=12,")


def test_sarif_related_locations_name_the_inner_lines(in_repo: Path) -> None:
    """A failure inside a called function is reported at the call, and its notes' places (where it was raised, where
    the operands were made) are the result's related locations."""
    from sarif_pydantic import Sarif

    source = (
        "import torch\n"
        "\n"
        "\n"
        "def head(x):\n"
        "    proj = torch.nn.Linear(64, 10)\n"
        "    return proj(x)\n"
        "\n"
        "\n"
        "head(torch.randn(2, 32))\n"
    )
    found = [f for f in check_source(source, "my dir/model.py") if f.code == "SHP204"]
    assert [f.line for f in found] == [9]
    data = json.loads(render_sarif(found))
    Sarif.model_validate(data)
    related = data["runs"][0]["results"][0]["relatedLocations"]
    lines = {r["physicalLocation"]["region"]["startLine"] for r in related}
    assert 6 in lines and 9 not in lines, related
    raised = [r for r in related if r["physicalLocation"]["region"]["startLine"] == 6]
    assert raised[0]["message"]["text"].startswith("raised at my dir/model.py:6")
    assert raised[0]["physicalLocation"]["artifactLocation"] == {
        "uri": "src/my%20dir/model.py",
        "uriBaseId": "%SRCROOT%",
    }
    assert [r["id"] for r in related] == list(range(len(related)))
