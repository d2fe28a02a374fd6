"""Folders a script puts on ``sys.path`` itself, read without running it.

A script or test that vendors libraries next to itself, or runs from a folder below its package, often starts with

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "third_party"))
    sys.path.append(str(Path(__file__).resolve().parents[1]))

and its imports (and those of every module it imports, once it has run) resolve there. ``extra_roots`` reads such
statements at the top level of the checked files (also inside ``if __name__ == "__main__":`` and ``try:``), and
evaluates the path when it is built from ``__file__`` alone: ``os.path.abspath`` / ``realpath`` / ``normpath`` /
``dirname`` / ``join`` (of string literals), ``pathlib.Path(...)`` with ``.parent``, ``.parents[i]``, ``.resolve()``,
``.absolute()``, ``/ "name"``, ``str()`` and ``os.fspath()``. Anything else (the working directory, an environment
variable, a computed name) is left out, and so is a path that is no folder. Nothing is imported or run: the file is
read with CPython's ``ast`` parser, and only when its text mentions ``sys.path``.

The project searches these folders after its usual roots, so a name that resolved before resolves as before.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Callable, Iterable

_OS_PATH_UNARY: dict[str, Callable[[str], str]] = {
    "abspath": os.path.abspath,
    "realpath": os.path.realpath,
    "normpath": os.path.normpath,
    "dirname": os.path.dirname,
}


def extra_roots(files: Iterable[Path]) -> list[Path]:
    """The folders the module-level code of ``files`` adds to ``sys.path`` (see the module's docstring), in order."""
    out: list[Path] = []
    for f in files:
        if f.suffix != ".py":
            continue
        try:
            data = f.read_bytes()
        except OSError:
            continue
        if b"sys.path" not in data:
            continue
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError):
            continue
        for root in _roots_in(tree.body, str(f.resolve())):
            if root not in out:
                out.append(root)
    return out


def _roots_in(body: list[ast.stmt], file: str) -> list[Path]:
    out: list[Path] = []
    for stmt in body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            target = _sys_path_argument(stmt.value)
            if target is not None:
                value = _path_value(target, file)
                if isinstance(value, (str, Path)) and os.path.isdir(value):
                    out.append(Path(os.path.normpath(str(value))))
        elif isinstance(stmt, ast.If) and _is_main_guard(stmt.test):
            out.extend(_roots_in(stmt.body, file))
        elif isinstance(stmt, ast.Try):
            out.extend(_roots_in(stmt.body, file))
    return out


def _sys_path_argument(call: ast.Call) -> ast.expr | None:
    """The folder of ``sys.path.insert(i, folder)`` / ``sys.path.append(folder)``, else None."""
    func = call.func
    if not (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Attribute)
        and func.value.attr == "path"
        and isinstance(func.value.value, ast.Name)
        and func.value.value.id == "sys"
        and not call.keywords
    ):
        return None
    if func.attr == "insert" and len(call.args) == 2:
        return call.args[1]
    if func.attr == "append" and len(call.args) == 1:
        return call.args[0]
    return None


def _is_main_guard(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _path_value(node: ast.expr, file: str) -> str | Path | None:
    """The value of a path expression built from ``__file__`` (a str or a Path), or None when it is anything else."""
    if isinstance(node, ast.Name):
        return file if node.id == "__file__" else None
    if isinstance(node, ast.Constant):
        return None  # a literal alone is relative to the working directory (or absolute: another machine's)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left = _path_value(node.left, file)
        right = node.right
        if isinstance(left, Path) and isinstance(right, ast.Constant) and isinstance(right.value, str):
            return left / right.value
        return None
    if isinstance(node, ast.Subscript):
        # Path(__file__).parents[1]
        base = node.value
        if (
            isinstance(base, ast.Attribute)
            and base.attr == "parents"
            and isinstance(node.slice, ast.Constant)
            and type(node.slice.value) is int
        ):
            owner = _path_value(base.value, file)
            if isinstance(owner, Path) and 0 <= node.slice.value < len(owner.parents):
                return owner.parents[node.slice.value]
        return None
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        owner = _path_value(node.value, file)
        return owner.parent if isinstance(owner, Path) else None
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    func = node.func
    name = _dotted(func)
    args = node.args
    if name in ("os.path.join", "path.join") and args:
        first = _path_value(args[0], file)
        rest = [a.value for a in args[1:] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if first is None or len(rest) != len(args) - 1:
            return None
        return os.path.join(str(first), *rest)
    if name is not None and len(args) == 1:
        short = name.rsplit(".", 1)[-1]
        if name in (f"os.path.{short}", f"path.{short}") and short in _OS_PATH_UNARY:
            inner = _path_value(args[0], file)
            return _OS_PATH_UNARY[short](str(inner)) if inner is not None else None
        if name in ("Path", "pathlib.Path"):
            inner = _path_value(args[0], file)
            return Path(inner) if inner is not None else None
        if name in ("str", "os.fspath"):
            inner = _path_value(args[0], file)
            return str(inner) if inner is not None else None
    if isinstance(func, ast.Attribute) and func.attr in ("resolve", "absolute") and not args:
        owner = _path_value(func.value, file)
        return Path(os.path.abspath(owner)) if isinstance(owner, Path) else None
    return None
