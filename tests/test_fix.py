"""The SHP3xx autofix: exact rewritten text, comments and formatting kept, idempotent, --fix / --diff on the CLI."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from shapecheck.cli import main
from shapecheck.core import check_source
from shapecheck.diagnostics import Edit
from shapecheck.fix import apply_edits, fix_source

TORCH = """\
import torch
from einops import reduce
from jaxtyping import Float16, BFloat16
from torch import Tensor
"""
NUMPY = """\
import numpy as np
from einops import reduce
from jaxtyping import Float16
"""


def fixed(header: str, body: str) -> str:
    text = header + textwrap.dedent(body)
    new, remaining = fix_source(text, "m.py")
    assert [f for f in remaining if f.code.startswith("SHP3")] == [], remaining
    assert new.startswith(header)
    again, _ = fix_source(new, "m.py")
    assert again == new  # idempotent
    return new[len(header) :]


@pytest.mark.parametrize(
    "before,after",
    [
        ('y = reduce(x, "b c h w -> b c", "sum")', 'y = reduce(x.float(), "b c h w -> b c", "sum").to(x.dtype)'),
        ("y = x.sum(dim=(2, 3))", "y = x.float().sum(dim=(2, 3)).to(x.dtype)"),
        ("y = torch.sum(x, dim=1)", "y = torch.sum(x.float(), dim=1).to(x.dtype)"),
        ("y = x.cumsum(1)", "y = x.float().cumsum(1).to(x.dtype)"),
        ("y = (x * 2).sum(1)", "y = (x * 2).float().sum(1).half()"),
        ("y = torch.sum(x * 2, 1)", "y = torch.sum((x * 2).float(), 1).half()"),
        ("y = x.sum(-1) / 10", "y = (x.float().sum(-1) / 10).to(x.dtype)"),
        ("y = b.sum(1)", "y = b.float().sum(1).to(b.dtype)"),
        ("y = self_x.prod(1)", "y = self_x.float().prod(1).to(self_x.dtype)"),
    ],
)
def test_torch_rewrites(before: str, after: str) -> None:
    out = fixed(
        TORCH,
        f"""
        def f(x: Float16[Tensor, "b c h w"], b: BFloat16[Tensor, "b n"], self_x: Float16[Tensor, "b n"]):
            {before}
            return y
    """,
    )
    assert f"    {after}\n" in out, out


@pytest.mark.parametrize(
    "before,after",
    [
        ("y = a.sum(axis=0)", "y = a.astype(np.float32).sum(axis=0).astype(np.float16)"),
        ("y = np.cumsum(a, axis=0)", "y = np.cumsum(a.astype(np.float32), axis=0).astype(np.float16)"),
        ('y = reduce(a, "n d -> d", "sum")', 'y = reduce(a.astype(np.float32), "n d -> d", "sum").astype(np.float16)'),
        ("y = a.mean(axis=0, dtype=np.float16)", "y = a.mean(axis=0, dtype=np.float32).astype(np.float16)"),
    ],
)
def test_numpy_rewrites(before: str, after: str) -> None:
    out = fixed(
        NUMPY,
        f"""
        def f(a: Float16[np.ndarray, "n d"]):
            {before}
            return y
    """,
    )
    assert f"    {after}\n" in out, out


def test_numpy_without_module_alias_uses_strings() -> None:
    header = "from numpy import ndarray\nfrom jaxtyping import Float16\n"
    out = fixed(
        header,
        """
        def f(a: Float16[ndarray, "n"]):
            return a.sum()  # total
    """,
    )
    assert 'return a.astype("float32").sum().astype("float16")  # total' in out


def test_comments_and_formatting_are_kept() -> None:
    out = fixed(
        TORCH,
        """
        def f(x: Float16[Tensor, "b n"]):
            # the total per row
            y = reduce(
                x,  # input, float16
                "b n -> b",
                "sum",   # keep this comment
            )
            return y
    """,
    )
    assert out == textwrap.dedent("""
        def f(x: Float16[Tensor, "b n"]):
            # the total per row
            y = reduce(
                x.float(),  # input, float16
                "b n -> b",
                "sum",   # keep this comment
            ).to(x.dtype)
            return y
    """)


def test_nested_reductions_fix_in_passes() -> None:
    out = fixed(
        TORCH,
        """
        def f(x: Float16[Tensor, "b c n"]):
            return x.sum(-1).sum(-1)
    """,
    )
    assert "x.float().sum(-1).to(x.dtype).float().sum(-1).half()" in out


def test_safe_code_is_untouched() -> None:
    text = TORCH + textwrap.dedent("""
        def f(x: Float16[Tensor, "b n"]):
            return x.float().sum(1).to(x.dtype), x.mean(1), x.amax(1)
    """)
    assert fix_source(text, "m.py")[0] == text


def test_unfixable_finding_stays_reported() -> None:
    text = TORCH + textwrap.dedent("""
        from einops.layers.torch import Reduce
        import torch.nn as nn
        def f(x: Float16[Tensor, "b n"]):
            net = nn.Sequential(Reduce("b n -> b", "sum"))
            return net(x)
    """)
    new, remaining = fix_source(text, "m.py")
    assert new == text
    assert [f.code for f in remaining if f.code.startswith("SHP3")] == ["SHP301"]


def test_apply_edits_positions_are_code_points_and_crlf_safe() -> None:
    text = "é = 1\r\nx.sum()\r\n"
    assert (
        apply_edits(text, [Edit(2, 2, 2, 2, ".float()"), Edit(2, 8, 2, 8, ".half()")])
        == "é = 1\r\nx.float().sum().half()\r\n"
    )
    with pytest.raises(ValueError):
        apply_edits("abcdef", [Edit(1, 1, 1, 4, "x"), Edit(1, 2, 1, 3, "y")])


def test_crlf_file_keeps_line_endings(tmp_path: Path) -> None:
    src = (TORCH + 'def f(x: Float16[Tensor, "b n"]):\n    return x.sum(1)  # note\n').replace("\n", "\r\n")
    p = tmp_path / "m.py"
    p.write_bytes(src.encode())
    assert main(["check", "--no-cache", "--fix", str(p)]) == 0
    assert p.read_bytes() == src.replace("x.sum(1)", "x.float().sum(1).to(x.dtype)").encode()


def test_cli_diff_does_not_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = TORCH + 'def f(x: Float16[Tensor, "b n"]):\n    return x.sum(1)\n'
    p = tmp_path / "m.py"
    p.write_text(src)
    assert main(["check", "--no-cache", "--diff", str(p)]) == 1
    captured = capsys.readouterr()
    out = captured.out
    assert "-    return x.sum(1)\n+    return x.float().sum(1).to(x.dtype)\n" in out
    # standard output is the patch and nothing else; the finding (still there: nothing was written) goes to stderr
    assert out.startswith("--- a/") and all(line[:1] in ("-", "+", " ", "@") for line in out.splitlines())
    assert "SHP301" not in out and "SHP301" in captured.err
    assert p.read_text() == src


def test_cli_fix_reports_count_and_fix_with_diff_is_rejected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = TORCH + 'def f(x: Float16[Tensor, "b n"], y: Float16[Tensor, "b n"]):\n    return x.sum(1), y.sum(1)\n'
    p = tmp_path / "m.py"
    p.write_text(src)
    assert main(["check", "--no-cache", "--fix", "--diff", str(p)]) == 2
    assert "not allowed with argument" in capsys.readouterr().err
    assert p.read_text() == src
    assert main(["check", "--no-cache", "--fix", str(p)]) == 0
    assert "shapecheck: fixed 2 findings in 1 file\n" in capsys.readouterr().err


def test_cli_fix_writes_and_second_run_is_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = NUMPY + 'def f(a: Float16[np.ndarray, "n d"]):\n    return np.cumsum(a, axis=0), a.sum(axis=1)\n'
    p = tmp_path / "m.py"
    p.write_text(src)
    assert main(["check", "--no-cache", "--fix", str(p)]) == 0
    assert (
        "np.cumsum(a.astype(np.float32), axis=0).astype(np.float16), a.astype(np.float32).sum(axis=1).astype(np.float16)"
        in p.read_text()
    )
    capsys.readouterr()
    assert main(["check", "--no-cache", str(p)]) == 0
    assert main(["check", "--no-cache", "--fix", str(p)]) == 0
    assert check_source(p.read_text(), str(p)) == []
