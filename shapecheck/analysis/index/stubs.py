"""Shape stubs: ``.pyi`` files in jaxtyping notation (``stubs/`` and user folders), read with libcst, never imported."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING


if TYPE_CHECKING:
    from .functions import FunctionInfo
    from ..interpret.module import ModuleAnalysis


def bundled_stub_dir() -> Path | None:
    here = Path(__file__).resolve().parents[2]  # the shapecheck package
    for candidate in (here / "_stubs", here.parent / "stubs"):
        if candidate.is_dir():
            return candidate
    return None


class StubIndex:
    """Functions declared in stub folders, by qualified name; user folders take precedence over bundled stubs."""

    def __init__(self, folders: tuple[str, ...] = ()) -> None:
        dirs = [Path(f) for f in folders]
        bundled = bundled_stub_dir()
        if bundled is not None:
            dirs.append(bundled)
        self.dirs = dirs
        self._modules: dict[str, "ModuleAnalysis | None"] = {}

    def _file_for(self, module: str) -> Path | None:
        rel = Path(*module.split("."))
        for d in self.dirs:
            for candidate in (d / rel.with_suffix(".pyi"), d / rel / "__init__.pyi"):
                if candidate.is_file():
                    return candidate
        return None

    def _module(self, module: str) -> "ModuleAnalysis | None":
        if module in self._modules:
            return self._modules[module]
        self._modules[module] = None
        path = self._file_for(module)
        if path is None:
            return None
        import libcst as cst

        from ..interpret.module import ModuleAnalysis

        try:
            text = path.read_text("utf-8")
            tree = cst.parse_module(text)
        except (OSError, UnicodeDecodeError, cst.ParserSyntaxError):
            return None
        ma = ModuleAnalysis(text, str(path), tree, None, module, path.name == "__init__.pyi")
        ma.collect_definitions()
        ma.finish_signatures()
        self._modules[module] = ma
        return ma

    def function(self, qualname: str) -> "FunctionInfo | None":
        module, _, name = qualname.rpartition(".")
        if not module:
            return None
        ma = self._module(module)
        if ma is None:
            return None
        return ma.functions.get(f"{module}:{name}")


@lru_cache(maxsize=16)
def stub_index(folders: tuple[str, ...] = ()) -> StubIndex:
    return StubIndex(folders)
