"""The one core call every host adapts: source text + configuration -> findings."""

from __future__ import annotations

import functools
import re
import sys
import threading
from typing import TYPE_CHECKING, Callable, TypeVar

from .config import Config
from .diagnostics import Finding, make
from .diagnostics import details as D

if TYPE_CHECKING:
    from .analysis.index.project import Project

T = TypeVar("T")

_SUPPRESS = re.compile(r"#\s*shapecheck:\s*ignore(?:\[(?P<codes>[A-Z0-9_,\s]*)\])?", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)

# Files that mention none of these are skipped before parsing: einops and jaxtyping carry the shapes, the dtype
# words carry the float16/bfloat16 checks. A file that imports an analysed module mentioning einops/jaxtyping
# (a project-local re-export of jaxtyping types, say) is relevant too (see Project.imports_relevant).
_MARKERS = ("einops", "jaxtyping", "float16", "bfloat16", "half", "autocast", "auto_cast", "einsum")
# model code without einops or jaxtyping: its layers, parameters and buffers have sizes too, and numpy code (a PCA,
# k-means on patches, an attention written with arrays) its arrays
_FRAMEWORK_IMPORT = re.compile(
    r"^[ \t]*(?:import|from)[ \t]+(?:torch|jax|flax|equinox|tensorflow|keras|paddle|numpy)\b", re.M
)


def decode_source(data: bytes | str) -> str:
    """Decode Python source bytes as Python does (PEP 263 cookie, BOM); raises UnicodeDecodeError/SyntaxError."""
    if isinstance(data, str):
        return data
    import io
    import tokenize

    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding)  # "utf-8-sig" drops the one BOM Python allows; a second one stays (and is an error)


def mentions_ours(text: str) -> bool:
    """Does the source mention einops/jaxtyping/half precision, or import a framework (torch, jax, numpy, ...)?"""
    return any(m in text for m in _MARKERS) or _FRAMEWORK_IMPORT.search(text) is not None


def relevant(text: str, project: "object | None" = None, path: str | None = None) -> bool:
    """Cheap pre-filter: files that mention none of our libraries are skipped before parsing."""
    if mentions_ours(text):
        return True
    if path is not None and _fixture_test(text, path):
        return True
    check = getattr(project, "imports_relevant", None)
    return bool(check is not None and path is not None and check(text, path))


def _fixture_test(text: str, path: str) -> bool:
    """A pytest file (``test_*.py`` / ``*_test.py``) whose test functions take a fixture that a conftest.py above it
    defines, a conftest.py that builds tensors or models: its tests get them without importing anything
    (entry_points._conftest_fixture)."""
    import os

    name = os.path.basename(path)
    if not (name.startswith("test_") or name.endswith("_test.py")) or "def test" not in text:
        return False
    wanted = {p.strip().split(":")[0].split("=")[0].strip() for ps in _TEST_PARAMS.findall(text) for p in ps.split(",")}
    wanted -= {"", "self", "cls", "request"}
    if not wanted:
        return False
    folder = os.path.dirname(os.path.abspath(path))
    for _ in range(4):
        conftest = os.path.join(folder, "conftest.py")
        try:
            stamp = os.stat(conftest).st_mtime_ns  # an edited conftest.py (the language server) is read again
        except OSError:
            stamp = None
        if stamp is not None and wanted & _relevant_conftest(conftest, stamp):
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return False


_TEST_PARAMS = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+test\w*\(([^)]*)\)", re.M)
_FIXTURE_DEFS = re.compile(r"^[ \t]*@(?:pytest\.)?fixture\b[^\n]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*def[ \t]+(\w+)", re.M)


@functools.lru_cache(maxsize=256)
def _relevant_conftest(path: str, stamp: int) -> frozenset[str]:
    """The fixtures a conftest.py defines, when it builds tensors or models (else none)."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return frozenset()
    if not mentions_ours(text):
        return frozenset()
    return frozenset(_FIXTURE_DEFS.findall(text))


def suppressed(finding: Finding, lines: list[str], noqa: bool = True) -> bool:
    """``# shapecheck: ignore[SHP201]``, bare ``# shapecheck: ignore`` and (``noqa``) flake8's ``# noqa[: SHP201]``."""
    for ln in {finding.line, finding.end_line}:
        if not 1 <= ln <= len(lines):
            continue
        line = lines[ln - 1]
        if "#" not in line:
            continue
        for rx in (_SUPPRESS, _NOQA) if noqa else (_SUPPRESS,):
            for m in rx.finditer(line):
                codes = m.group("codes")
                if codes is None:
                    return True
                wanted = [c.strip().upper() for c in re.split(r"[,\s]+", codes) if c.strip()]
                if any(finding.code.startswith(c) for c in wanted):
                    return True
    return False


def check_source(
    source: str | bytes,
    path: str = "<string>",
    config: Config | None = None,
    *,
    project: "Project | None" = None,
    prefilter: bool = True,
    noqa: bool = True,
) -> list[Finding]:
    """Analyse one module's source. Never raises for bad input: problems become SHP9xx findings.

    ``noqa=False`` leaves ``# noqa`` comments to the host (flake8 applies them itself, or not: ``--disable-noqa``);
    ``# shapecheck: ignore`` comments always apply.
    """
    config = config or Config()
    try:
        text = decode_source(source)
    except (UnicodeDecodeError, SyntaxError, LookupError) as exc:
        return _filter([_undecodable(source, path, exc)], [], config, path)
    if prefilter and not relevant(text, project, path):
        return []
    from .analysis import analyse_text  # deferred: keeps `import shapecheck` light
    from .analysis.interpret.budget import shrink_long_functions

    original = text
    text, too_long = shrink_long_functions(text)  # functions over the line budget: bounded time and memory
    try:
        try:
            findings = with_roomy_frames(analyse_text, text, path, project)
        except RecursionError:
            # long expression chains that CPython accepts: once more on a thread with a deep stack
            findings = _with_deep_stack(lambda: analyse_text(text, path, project=project))
    except RecursionError:
        findings = [make("SHP901", path, (1, 1, 1, 1), detail=D.TooDeep("analyse"))]
    except Exception as exc:  # a bug of ours must never take the host down
        findings = [make("SHP902", path, (1, 1, 1, 1), error_type=type(exc).__name__, error_message=str(exc))]
    for line, col, name, n in too_long:
        findings.append(
            make(
                "SHP903",
                path,
                (line, col + 1, line, col + 1 + len(name)),
                what=f"{name}()",
                detail=D.BudgetLimit("lines", _line_budget(), lines=n),
            )
        )
    return _filter(findings, original.splitlines(), config, path, noqa)


def _line_budget() -> int:
    from .analysis.interpret.budget import _max_lines

    return _max_lines()


def _undecodable(source: "str | bytes", path: str, exc: Exception) -> Finding:
    """SHP901 at the first byte that cannot be decoded (or the line of a bad coding cookie)."""
    line, col = 1, 1
    if isinstance(exc, UnicodeDecodeError) and isinstance(source, bytes):
        data = source
        bom = b"\xef\xbb\xbf"
        start = exc.start + (len(bom) if data.startswith(bom) else 0)  # utf-8-sig counts after its BOM
        head = data[:start]
        line = head.count(b"\n") + 1
        before = head[head.rfind(b"\n") + 1 :].decode(exc.encoding, "replace")  # valid up to the bad byte
        col = len(before.removeprefix("\ufeff")) + 1
        detail = D.Undecodable(exc.encoding, data[start], line)
    elif isinstance(exc, SyntaxError):
        line = exc.lineno or 1
        detail = D.Undecodable(decoder_message=str(exc.msg))
    else:
        detail = D.Undecodable(decoder_message=str(exc))
    return make("SHP901", path, (line, col, line, col + 1), detail=detail)


_roomy = threading.local()  # .active: a _roomy_call frame is on this thread's stack (each thread has its own frames)


def with_roomy_frames(fn: "Callable[..., T]", *args: object) -> "T":
    """``fn(*args)`` with room for its Python frames reserved in advance (see ``_roomy_call``); a call made inside
    another one on the same thread just calls ``fn``."""
    if not _RESERVES or getattr(_roomy, "active", False):
        return fn(*args)
    _roomy.active = True
    try:
        return _roomy_call(fn, *args)
    finally:
        _roomy.active = False


def _roomy_call(fn: "Callable[..., T]", *args: object) -> "T":
    """CPython 3.11 to 3.13 keep the frames of Python calls in 16 KB chunks, mapped when a call needs one and unmapped
    as soon as it returns. The analysis recurses deeply (an inlined call interprets the callee, which evaluates its
    calls...), and a loop running where a chunk ends mapped and unmapped one on every call: 445 k mmap/munmap pairs
    in a ``-j 1`` corpus run, most of its 4.5 s of system time (CPython keeps one chunk since gh-142183). This
    function's own frame is declared large (its code's ``co_stacksize``, set below): calling it maps one chunk of
    twice that size, whose second half holds every frame pushed above it, so calls that stay within it map nothing.
    Only the pages the frames touch are ever backed by memory."""
    return fn(*args)


# 3.10 allocates each frame on its own and zeroes all of it; 3.15 may replace the chunks (gh-142183)
_RESERVES = (3, 11) <= sys.version_info[:2] < (3, 15)
if _RESERVES:
    _roomy_call.__code__ = _roomy_call.__code__.replace(co_stacksize=1 << 19)  # slots: 4 MB, in an 8 MB chunk


_DEEP_STACK = 512 * 1024 * 1024  # bytes of (virtual) thread stack
_DEEP_RECURSION = 50_000


def _with_deep_stack(fn: "Callable[[], list[Finding]]") -> list[Finding]:
    """Run ``fn`` on a thread whose C stack is large enough for a raised recursion limit (re-raises its exception)."""
    import sys
    import threading

    box: dict[str, object] = {}

    def run() -> None:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, _DEEP_RECURSION))
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed back to the caller's thread
            box["error"] = exc
        finally:
            sys.setrecursionlimit(old)

    previous = threading.stack_size(_DEEP_STACK)
    try:
        worker = threading.Thread(target=run, name="shapecheck-deep")
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join()
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


def _filter(findings: list[Finding], lines: list[str], config: Config, path: str, noqa: bool = True) -> list[Finding]:
    out = [f for f in findings if config.enabled(f.code, path) and not suppressed(f, lines, noqa)]
    out.sort(key=Finding.sort_key)
    return out
