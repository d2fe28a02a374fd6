"""mypy host: shapecheck findings as mypy errors (``[tool.mypy] plugins = ["shapecheck"]``).

mypy has no plugin hook that runs once per module while it is type-checked, so ``get_additional_deps``
(called for every parsed module) adds one synthetic statement, ``globals()``, to each module that mentions
einops/jaxtyping. Its function hook runs while that module is checked and reports the module's findings
through ``api.fail``, so mypy's own machinery applies: ``# type: ignore[shape-mismatch]``,
``--disable-error-code``, error caching (a fresh module replays its cached errors on a warm run).

mypy checks modules on one core. Each relevant module's analysis is submitted, as soon as mypy has parsed the
module, to one background worker process (forked, so it starts with everything already imported); the hook then
only collects the result, and the analysis runs beside mypy's own work instead of after it. Without a worker
(none could start, or it failed) the analysis runs in mypy's process, as before.

``report_config_data`` puts a hash of shapecheck's version and of the project files a module imports
(transitively) into the module's cache entry: a change to a shape annotation in an imported module, which
mypy does not see as an interface change, still re-checks its importers.
"""

from __future__ import annotations

import ast
import hashlib
import os
import sys
from pathlib import Path
from typing import Any, Callable

from mypy.errorcodes import ErrorCode
from mypy.nodes import CallExpr, Context, ExpressionStmt, ImportFrom, MypyFile, NameExpr, Statement, StrExpr
from mypy.plugin import FunctionContext, Plugin, ReportConfigContext
from mypy.types import Type

from .._version import __version__
from ..diagnostics import Family, Finding, make
from ..diagnostics.details import Unreadable

ERROR_CODES: dict[Family, ErrorCode] = {
    fam: ErrorCode(fam.mypy_code, f"shapecheck: {fam.title}", "shapecheck") for fam in Family
}
_ANCHOR = "builtins.globals"


_LIBRARY_DIRS = {"site-packages", "dist-packages", "typeshed"}


def _is_project_file(path: str | None) -> bool:
    """The user's own modules: not stubs, not installed libraries, not typeshed."""
    return path is not None and path.endswith(".py") and not _LIBRARY_DIRS.intersection(Path(path).parts)


def _prologue(stmt: Statement, first: bool) -> bool:
    """A ``from __future__`` import, or the module docstring (the first statement)."""
    return (isinstance(stmt, ImportFrom) and stmt.id == "__future__") or (
        first and isinstance(stmt, ExpressionStmt) and isinstance(stmt.expr, StrExpr)
    )


def _read(path: str) -> str | None:
    try:
        from ..core import decode_source

        return decode_source(Path(path).read_bytes())
    except Exception:
        return None


def _worker_start(parent: int) -> None:
    """The worker holds none of mypy's output pipes and ends with mypy, which may leave through ``os._exit``."""
    import threading
    import time

    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _background_findings(path: str, text: str, config: Any) -> list[Finding]:
    """Runs in the worker process: one project per package root, kept across the modules it analyses."""
    from ..analysis.index.project import Project
    from ..core import check_source

    project = Project.shared(path)
    try:
        return check_source(text, path, config, project=project)
    except Exception as exc:  # reported like the in-process path reports it
        return [make("SHP902", path, (1, 1, 1, 1), error_type=type(exc).__name__, error_message=str(exc))]
    finally:
        project.trim()


class ShapecheckPlugin(Plugin):
    def __init__(self, options: Any) -> None:
        super().__init__(options)
        self._pool: Any = None
        self._pool_failed = os.environ.get("SHAPECHECK_MYPY_WORKER", "1") == "0"
        self._futures: dict[str, Any] = {}
        self._anchors: dict[int, str] = {}  # id(injected CallExpr) -> module path
        self._project: Any = None
        self._dep_hashes: dict[str, str] = {}
        self._configs: dict[Any, Any] = {}
        self._imports: dict[str, set[str]] = {}
        self._modules_seen: dict[str, MypyFile] = {}
        # mypy -n N / --num-workers N: the worker processes re-parse each module without calling
        # get_additional_deps, so the reporting statement is never injected there. Say so once (in the
        # coordinating process), and report nothing rather than a part that depends on mypy's scheduling.
        self._parallel = int(getattr(options, "num_workers", 0) or 0) > 0
        if self._parallel and "mypy.build_worker.worker" not in sys.modules:
            print(
                "shapecheck: warning: the mypy plugin reports nothing when mypy checks in parallel "
                "(-n/--num-workers); run mypy without -n, or run `shapecheck check` for the shape findings",
                file=sys.stderr,
            )

    # ---------------------------------------------------------------- emission
    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        try:
            self._inject(file)
        except Exception:  # never crash mypy; the module then goes unchecked by shapecheck
            pass
        return []

    def _inject(self, file: MypyFile) -> None:
        if self._parallel:
            return
        path = file.path
        if not _is_project_file(path) or file.is_stub:
            return
        text = _read(path)
        from ..analysis.index.project import Project
        from ..core import relevant

        # a module that only imports an einops/jaxtyping module of the project is relevant too (as in every host)
        if text is None or not relevant(text, Project.shared(path), path):
            return
        call = CallExpr(NameExpr("globals"), [], [], [])
        stmt = ExpressionStmt(call)
        for node in (call, call.callee, stmt):
            node.set_line(1, 0)
        # after a module docstring and ``from __future__`` imports, before anything that could end the module early
        i = 0
        while i < len(file.defs) and _prologue(file.defs[i], i == 0):
            i += 1
        file.defs.insert(i, stmt)
        self._anchors[id(call)] = path
        self._submit(path, text)

    def _submit(self, path: str, text: str) -> None:
        """Start the module's analysis in the background worker (see the module docstring)."""
        if self._pool is None and not self._pool_failed:
            try:
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                if "fork" not in multiprocessing.get_all_start_methods():
                    raise OSError("no fork on this platform")  # a spawned worker would re-import mypy: not worth it
                self._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("fork"),
                    initializer=_worker_start,
                    initargs=(os.getpid(),),
                )
            except Exception:
                self._pool_failed = True
        if self._pool is not None and path not in self._futures:
            try:
                self._futures[path] = self._pool.submit(_background_findings, path, text, self._config(path))
            except Exception:
                self._pool, self._pool_failed = None, True

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return self._report if fullname == _ANCHOR else None

    def _report(self, ctx: FunctionContext) -> Type:
        path = self._anchors.pop(id(ctx.context), None)
        if path is not None:
            for f in self._findings(path):
                where = Context(f.line, max(f.column - 1, 0))
                where.end_line, where.end_column = max(f.end_line, f.line), max(f.end_column - 1, 0)
                code = ERROR_CODES.get(Family(f.code[:4])) if f.code[:4] in Family._value2member_map_ else None
                ctx.api.fail(f.message, where, code=code or ERROR_CODES[Family.INTERNAL])
                msg = getattr(ctx.api, "msg", None)  # the checker's MessageBuilder: notes like mypy's own
                if msg is not None:
                    for note in f.notes:
                        msg.note(note, where, code=code or ERROR_CODES[Family.INTERNAL])
        return ctx.default_return_type

    def _findings(self, path: str) -> list[Finding]:
        future = self._futures.pop(path, None)
        if future is not None:
            try:
                found: list[Finding] = future.result()
                return found
            except Exception:  # a dead worker: analyse here instead
                self._pool, self._pool_failed = None, True
        try:
            from ..core import check_source

            text = _read(path)
            if text is None:
                return [make("SHP901", path, (1, 1, 1, 1), detail=Unreadable())]
            return check_source(text, path, self._config(path), project=self._get_project())
        except Exception as exc:  # never crash mypy
            return [make("SHP902", path, (1, 1, 1, 1), error_type=type(exc).__name__, error_message=str(exc))]

    def _config(self, path: str) -> Any:
        from ..config import Config, ConfigError, find_pyproject, load_config

        where = find_pyproject(Path(path))
        if where not in self._configs:
            try:
                self._configs[where] = load_config(pyproject=where) if where else load_config(Path(path))
            except ConfigError as exc:  # one warning per configuration file; every code stays on
                print(f"shapecheck: warning: {exc}; using the default configuration", file=sys.stderr)
                self._configs[where] = Config(root=str(where.parent) if where else ".")
        return self._configs[where]

    def set_modules(self, modules: dict[str, MypyFile]) -> None:
        super().set_modules(modules)
        self._project = None
        self._modules_seen = modules

    def _get_project(self) -> Any:
        if self._project is None:
            from ..analysis.index.project import Project

            files = [Path(m.path) for m in self._modules_seen.values() if _is_project_file(m.path)]
            self._project = Project.for_files(files)
        return self._project

    # ---------------------------------------------------------------- invalidation
    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        if not _is_project_file(ctx.path):
            return None
        try:
            return {
                "shapecheck": __version__,
                "config": repr(self._config(ctx.path)),
                "deps": self._deps_hash(ctx.path),
            }
        except Exception:
            return {"shapecheck": __version__}

    def _deps_hash(self, path: str) -> str:
        """Hash of the project files ``path`` imports, transitively (its own text mypy tracks itself)."""
        key = os.path.normpath(path)
        if key in self._dep_hashes:
            return self._dep_hashes[key]
        h = hashlib.sha256()
        seen = {key}
        todo = [key]
        texts: dict[str, str] = {}  # (read once: the imports walked, then the config files they name)
        while todo:
            cur = todo.pop()
            text = _read(cur)
            if text is None:
                continue
            texts[cur] = text
            for dep in sorted(self._imported_files(cur, text)):
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        for dep in sorted(seen - {key}):
            h.update(dep.encode())
            try:
                h.update(hashlib.sha256(Path(dep).read_bytes()).digest())
            except OSError:
                pass
        from ..runner import data_files

        # the config files the code may read (``open(os.path.join(HERE, "cfg.yaml"))``), as the CLI's cache key
        for data_file in data_files([(Path(p), texts[p]) for p in sorted(texts)]):
            h.update(str(data_file).encode())
            try:
                h.update(hashlib.sha256(data_file.read_bytes()).digest())
            except OSError:
                pass
        self._dep_hashes[key] = h.hexdigest()
        return self._dep_hashes[key]

    def _imported_files(self, path: str, text: str) -> set[str]:
        if path not in self._imports:
            self._imports[path] = self._find_imports(path, text)
        return self._imports[path]

    def _find_imports(self, path: str, text: str) -> set[str]:
        """Files of the project that ``path`` imports: the shared resolver's records (``analysis/index/resolve.py``)
        located on mypy's search path, relative imports from the file's own package."""
        from ..analysis.index.resolve import ast_records, imported_modules, locate

        roots = {"."} | {str(p) for p in self.options.mypy_path}
        file = Path(path)
        d = file.parent  # the folder above the file's top-level package
        package: list[str] = []
        while (d / "__init__.py").exists() and d != d.parent:
            package.append(d.name)
            d = d.parent
        roots.add(str(d))
        is_package = file.name == "__init__.py"
        current = ".".join([*reversed(package), *([] if is_package else [file.stem])])
        out: set[str] = set()
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError):
            return out
        found: dict[tuple[bool, str], str | None] = {}
        for record in ast_records(tree):
            search = {str(d)} if record.level else roots  # a relative import resolves inside the file's package

            def exists(name: str, relative: bool = bool(record.level), search: set[str] = search) -> bool:
                key = (relative, name)
                if key not in found:
                    found[key] = self._locate(search, name.split("."))
                return found[key] is not None

            for name in imported_modules(record, current, is_package):
                hit = locate(name, exists)
                if hit is not None:
                    out.add(found[(bool(record.level), hit)])  # type: ignore[arg-type]
        return out

    @staticmethod
    def _locate(roots: set[str], parts: list[str]) -> str | None:
        for root in sorted(roots):
            base = Path(root, *parts)
            for cand in (base.with_suffix(".py"), base / "__init__.py"):
                if cand.is_file():
                    return os.path.normpath(str(cand))
        return None


def plugin(version: str) -> type[Plugin]:
    return ShapecheckPlugin
