"""``pathlib`` paths of known text: where a config file beside the code lies (``Path(__file__).parent / "configs" /
"tiny.yaml"``), read by ``path.read_text()``, ``path.open()`` or ``open(path)`` (library_calls.read_config_file: only
small files inside the analysed project, read as data).

A path is a DictV of kind "path" holding its text (POSIX rules; a text with a backslash or a colon is not followed,
Windows reads those as separators and drives). What it names is never looked at here (``exists()``, ``is_file()``,
``glob``: not known); reading it is ``read_config_file``'s decision.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Any, Iterable, cast

from .library_calls import LibraryCall, library_call, read_config_file
from ...sizes import Size
from .values import UNKNOWN, BoolV, DictV, FloatV, IntV, NoneV, StateDictV, StrV, TensorV, Value

if TYPE_CHECKING:
    from .module import ModuleAnalysis

MAX_PATH = 4096  # characters of a path followed

# pytest's ``tmp_path`` for a test run here: a directory of its own per test, empty when the test starts, that no file
# on disk is (``tmp_dir``). What the run writes there (``write_text``, ``json.dump`` into ``open(p, "w")``) is read
# back by the same run: ``written`` holds each file's text, None for one written twice (or in a way not followed).
TMP_ROOT = "/__shapecheck_tmp_path__"
MAX_WRITTEN = 100_000  # characters of a file written that are kept
written: dict[str, str | None] = {}


def in_tmp_dir(text: str) -> bool:
    """Is ``text`` a path inside a test's ``tmp_path`` (``tmp_dir``)?"""
    return text.startswith(TMP_ROOT + "/")


def tmp_dir(test_key: str) -> Value:
    """The ``tmp_path`` of the test ``test_key`` (module:qualname)."""
    return path_value(TMP_ROOT + "/" + "".join(ch if ch.isalnum() else "_" for ch in test_key))


# the arrays the run saved there (``np.save``), by file: a copy of each one's shape and dtype (None: not known)
saved_arrays: dict[str, Value | None] = {}


def _record(store: "dict[str, Any]", text: str, value: Any) -> bool:
    """Put ``value`` in ``store`` for the file ``text`` of a test's ``tmp_path`` (written twice -- or on a path an
    undecided branch may have chosen -- it may hold either: None); False: not such a file, nothing recorded."""
    if not in_tmp_dir(text):
        return False
    key = posixpath.normpath(text)
    store[key] = None if key in store else value
    return True


def _recorded(store: "dict[str, Any]", text: str) -> Any:
    """What ``store`` holds for the file ``text`` of a test's ``tmp_path`` (None: nothing, or not known)."""
    return store.get(posixpath.normpath(text)) if in_tmp_dir(text) else None


# what the run saved there with ``torch.save`` (a state dict, a tensor, a dict of them and of plain numbers), by file
saved_objects: dict[str, Value | None] = {}


def save_object(text: str, obj: Value) -> bool:
    """``torch.save(obj, path)`` of a file of a test's ``tmp_path``."""
    return _record(saved_objects, text, obj)


def saved_object(text: str) -> Value | None:
    """What the run saved with ``torch.save`` to the file ``text`` of a test's ``tmp_path`` (None: not known)."""
    return cast("Value | None", _recorded(saved_objects, text))


def save_array(text: str, array: Value) -> bool:
    """``np.save(path, a)`` of a file of a test's ``tmp_path`` (numpy adds ``.npy`` to a name without it)."""
    return _record(saved_arrays, text if text.endswith(".npy") else text + ".npy", array)


def saved_array(text: str) -> Value | None:
    """The array the run saved to the file ``text`` of a test's ``tmp_path`` (None: not saved there, or not known)."""
    return cast("Value | None", _recorded(saved_arrays, text))


def empty_tmp_dirs(values: "Iterable[Value]") -> None:
    """Forget what was written in the ``tmp_path`` directories among ``values`` (a test about to run)."""
    for v in values:
        text = path_text(v) if is_path(v) else None
        if text is not None and in_tmp_dir(text):
            for store in (written, saved_arrays, saved_objects):
                for key in [k for k in store if k.startswith(text + "/")]:
                    del store[key]


def write_file(text: str, content: str | None) -> bool:
    """Record that the run wrote ``content`` (None: something not known) to the file ``text``; False: not a file of
    a test's ``tmp_path``, nothing recorded."""
    return _record(written, text, content if content is None or len(content) <= MAX_WRITTEN else None)


def written_text(text: str) -> str | None:
    """The text the run wrote to the file ``text`` of a test's ``tmp_path`` (None: not written, or not known)."""
    return cast("str | None", _recorded(written, text))


PATH_CLASSES = frozenset({"pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.PurePosixPath"})


def path_value(text: str) -> Value:
    """The path ``text`` names (unknown: one not followed)."""
    if "\\" in text or ":" in text or len(text) > MAX_PATH or "\x00" in text:
        return UNKNOWN
    return DictV((("path", StrV(_clean(text))),), "path")


def _clean(text: str) -> str:
    """What ``PurePosixPath(text)`` keeps: repeated and trailing slashes and ``.`` parts dropped (``..`` kept)."""
    if not text:
        return "."
    lead = "//" if text.startswith("//") and not text.startswith("///") else "/" if text.startswith("/") else ""
    parts = [p for p in text.split("/") if p and p != "."]
    return (lead + "/".join(parts)) or "."


def path_text(v: Value) -> str | None:
    """The text of a path value, or of a string (what ``os.fspath`` gives)."""
    if isinstance(v, StrV):
        return v.value
    if isinstance(v, DictV) and v.kind == "path":
        text = v.get("path")
        return text.value if isinstance(text, StrV) else None
    return None


def is_path(v: Value) -> bool:
    return isinstance(v, DictV) and v.kind == "path"


def join(left: Value, right: Value) -> Value | None:
    """``left / right`` with a path on either side and a path or string on the other (None: not that)."""
    if not (is_path(left) or is_path(right)):
        return None
    a, b = path_text(left), path_text(right)
    if a is None or b is None:
        return UNKNOWN
    return path_value(posixpath.join(a, b))


def attribute(base: DictV, attr: str) -> Value:
    """``p.parent`` / ``name`` / ``stem`` / ``suffix`` / ``parts`` of a path (unknown: any other attribute)."""
    text = path_text(base)
    if text is None:
        return UNKNOWN
    if attr == "parent":
        if text in ("/", ".", "//"):
            return base  # (the root, and ".", are their own parent)
        if text == ".." or text.endswith("/.."):
            return UNKNOWN  # (pathlib drops the "..": a path that may name another folder)
        return path_value(posixpath.dirname(text) or ".")
    name = "" if text in ("/", ".", "//") else posixpath.basename(text)
    if attr == "name":
        return StrV(name)
    stem, suffix = _split_suffix(name)
    if attr == "stem":
        return StrV(stem)
    if attr == "suffix":
        return StrV(suffix)
    return UNKNOWN


def _split_suffix(name: str) -> tuple[str, str]:
    """pathlib's stem and suffix: the last dot not at the start nor at the end splits them."""
    i = name.rfind(".")
    if 0 < i < len(name) - 1:
        return name[:i], name[i:]
    return name, ""


def method(m: "ModuleAnalysis", base: DictV, name: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``p.resolve()`` / ``absolute()`` of an absolute path, ``joinpath(...)``, ``with_name`` / ``with_suffix``,
    ``read_text()`` (a small config file of the project, else unknown), ``open()`` for reading (a file value, as
    ``open(p)`` gives). Anything else: unknown."""
    text = path_text(base)
    if text is None:
        return UNKNOWN
    if name in ("resolve", "absolute", "expanduser") and not args and not kwargs:
        if not text.startswith("/"):
            return UNKNOWN  # (relative to the running program's working directory, or a user's home)
        return path_value(posixpath.normpath(text)) if name == "resolve" else base
    if name == "joinpath" and not kwargs:
        out: Value = base
        for a in args:
            got = join(out, a)
            if got is None or got is UNKNOWN:
                return UNKNOWN
            out = got
        return out
    if name in ("with_name", "with_suffix") and len(args) == 1 and not kwargs and isinstance(args[0], StrV):
        current = posixpath.basename(text)
        if not current or text in ("/", "."):
            return UNKNOWN  # (Python raises: a path with an empty name)
        new = args[0].value
        if name == "with_suffix":
            if new and (not new.startswith(".") or new == "." or "/" in new):
                return UNKNOWN  # (Python raises: an invalid suffix)
            new = _split_suffix(current)[0] + new
        elif not new or "/" in new or new == ".":
            return UNKNOWN
        return path_value(posixpath.join(posixpath.dirname(text), new))
    if name == "write_text" and len(args) == 1 and set(kwargs) <= {"encoding"}:
        content = args[0].value if isinstance(args[0], StrV) else None
        return IntV(Size.const(len(content))) if write_file(text, content) and content is not None else UNKNOWN
    if name == "read_text" and not args and set(kwargs) <= {"encoding"}:
        read = read_config_file(m, opened_for_reading(text, [], {}) or UNKNOWN)
        return StrV(read) if read is not None else UNKNOWN
    if name == "open":
        return opened_for_reading(text, args, kwargs) or UNKNOWN
    return UNKNOWN


def opened_for_reading(text: str, rest: list[Value], kwargs: dict[str, Value]) -> Value | None:
    """``open(path[, mode])`` / ``path.open([mode])`` (``mode``, ``encoding`` keywords): a file to read, DictV kind
    "file" holding the path, when the mode reads text; a file of a test's ``tmp_path`` opened to write text, kind
    "written" (None: any other mode or argument)."""
    if len(rest) > 1 or set(kwargs) - {"mode", "encoding"}:
        return None
    mode = rest[0] if rest else kwargs.get("mode", StrV("r"))
    if isinstance(mode, StrV) and mode.value in ("w", "wt") and in_tmp_dir(text):
        return DictV((("path", StrV(text)),), "written")
    if not (isinstance(mode, StrV) and mode.value in ("r", "rt")):
        return None
    return DictV((("path", StrV(text)),), "file")


@library_call(*sorted(PATH_CLASSES))
def _path_call(c: LibraryCall) -> Value | None:
    """``Path(__file__)``, ``Path(HERE, "configs", "tiny.yaml")``: a path of known parts (``Path()`` is ``.``)."""
    if c.dynamic or c.kwargs:
        return None
    texts = [path_text(a) for a in c.args]
    if any(t is None for t in texts):
        return None
    return path_value(posixpath.join(*texts) if texts else ".")  # type: ignore[arg-type]


@library_call("numpy.save")
def _np_save(c: LibraryCall) -> Value | None:
    """``np.save(tmp_path / name, a)``: the file holds an array of ``a``'s shape and dtype for the rest of the test's
    run (np.load reads it back); a file elsewhere is not followed."""
    if c.dynamic or len(c.args) != 2 or set(c.kwargs) - {"allow_pickle"}:
        return None
    text = path_text(c.args[0])
    a = c.args[1]
    if text is None:
        return None
    known = isinstance(a, TensorV) and a.framework in ("numpy", "jax", "torch") and a.shape is not None and not a.alts
    held = TensorV(a.shape, a.dtype, "numpy") if known and isinstance(a, TensorV) else None
    return NoneV() if save_array(text, held if held is not None else UNKNOWN) else None


@library_call("numpy.load")
def _np_load(c: LibraryCall) -> Value | None:
    """``np.load(tmp_path / name)`` of a file the test's run saved: an array of that shape and dtype."""
    if c.dynamic or len(c.args) != 1 or set(c.kwargs) - {"allow_pickle", "mmap_mode"}:
        return None
    text = path_text(c.args[0])
    got = saved_array(text) if text is not None else None
    return got if isinstance(got, TensorV) else None


def _kept(v: Value, depth: int = 0) -> Value | None:
    """What a file ``torch.save`` wrote holds of ``v``, loaded back: a torch tensor of known shape (its values and
    bounds not kept), a state dict, a dict of such values by name, a plain number or string; None: anything else."""
    if isinstance(v, TensorV):
        known = v.framework == "torch" and v.shape is not None and not v.alts
        return TensorV(v.shape, v.dtype, "torch") if known else None
    if isinstance(v, StateDictV):
        kept = [(k, _kept(x, depth + 1)) for k, x in v.items]
        return StateDictV(tuple((k, x if x is not None else UNKNOWN) for k, x in kept))
    if isinstance(v, DictV) and v.kind == "dict" and depth < 3:
        items = [(k, _kept(x, depth + 1)) for k, x in v.items]
        return None if any(x is None for _, x in items) else DictV(tuple(cast(Any, items)), "dict")
    if isinstance(v, (IntV, FloatV, BoolV, StrV, NoneV)):
        return v
    return None


@library_call("torch.save")
def _torch_save(c: LibraryCall) -> Value | None:
    """``torch.save(obj, tmp_path / name)``: the file holds what ``_kept`` keeps of ``obj`` for the rest of the test's
    run (torch.load reads it back); a file elsewhere is not followed."""
    if c.dynamic or len(c.args) != 2 or set(c.kwargs) - {"pickle_protocol", "_use_new_zipfile_serialization"}:
        return None
    text = path_text(c.args[1])
    if text is None:
        return None
    kept = _kept(c.args[0])
    return NoneV() if save_object(text, kept if kept is not None else UNKNOWN) else None


@library_call("torch.load")
def _torch_load(c: LibraryCall) -> Value | None:
    """``torch.load(tmp_path / name, map_location=..., weights_only=...)`` of a file the test's run saved."""
    if c.dynamic or not 1 <= len(c.args) <= 2 or set(c.kwargs) - {"map_location", "weights_only", "mmap"}:
        return None
    text = path_text(c.args[0])
    got = saved_object(text) if text is not None else None
    return got if got is not None and got is not UNKNOWN else None


@library_call("os.fspath")
def _fspath(c: LibraryCall) -> Value | None:
    if c.dynamic or c.kwargs or len(c.args) != 1:
        return None
    text = path_text(c.args[0])
    return StrV(text) if text is not None else None
