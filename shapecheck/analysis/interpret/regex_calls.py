"""Regular expressions of the analysed code on known strings: ``re.split`` / ``findall`` / ``sub`` / ``match`` /
``fullmatch`` / ``search`` and ``re.compile(p)``'s methods (EfficientNet block strings such as
``"ir_r2_k3_s2_e6_c24_se0.25"`` decoded with ``re.split(r"(\\d.*)", op)``).

A regular expression is data, not code, but Python's engine backtracks: a crafted pattern can take exponential time
on a short string. Only patterns whose matching stays polynomial and small are run (``safe_pattern``): no nested
repetition, no alternation inside a repetition, no backreference or conditional group, at most two repetitions, a
short pattern; and only on short strings. Anything else is not known (the call's value is unknown, never a guess).

A match is a DictV of kind "match" holding its groups by number (``"0"`` the whole match) and by name; a compiled
pattern a DictV of kind "regex" holding the pattern and its flags. ``ModuleAnalysis._dict_method`` answers their
methods (``m.group(1)``, ``m.groups()``, ``pat.split(s)``).
"""

from __future__ import annotations

import re
from typing import Any

from ...sizes import Size
from .library_calls import LibraryCall, library_call
from .values import UNKNOWN, DictV, IntV, NoneV, RefV, SeqV, StrV, Value

try:  # Python 3.11+
    import re._constants as _constants  # type: ignore[import-not-found]
    import re._parser as _sre_parse  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _constants
    import sre_parse as _sre_parse

MAX_PATTERN = 200  # characters of a pattern that is run
MAX_SUBJECT = 200  # characters of a string a pattern is run on
MAX_REPEATS = 2  # repetitions (``*``, ``+``, ``{2,}``, ``{1,4}``) in a pattern that is run
MAX_PIECES = 256  # items of a result (split pieces, findall matches)

_REPEATS = {_constants.MAX_REPEAT, _constants.MIN_REPEAT}
if hasattr(_constants, "POSSESSIVE_REPEAT"):
    _REPEATS.add(_constants.POSSESSIVE_REPEAT)
_UNSAFE = {_constants.GROUPREF, _constants.GROUPREF_EXISTS}
if hasattr(_constants, "GROUPREF_IGNORE"):
    _UNSAFE.add(_constants.GROUPREF_IGNORE)

# ``re.IGNORECASE`` & co. as the analysis sees them (RefV of the qualified name): their flag
_FLAGS = {
    f"re.{name}": int(getattr(re, name))
    for name in ("I", "IGNORECASE", "M", "MULTILINE", "S", "DOTALL", "X", "VERBOSE", "A", "ASCII")
}


def _repeats(items: Any, inside: bool) -> int | None:
    """How many repetitions the parsed pattern ``items`` has; None when one is nested in another, an alternation
    sits inside one, or a backreference / conditional group appears (then matching may backtrack exponentially)."""
    count = 0
    for op, av in items:
        if op in _UNSAFE:
            return None
        repeated = False
        if op in _REPEATS:
            _, high, sub = av
            repeated = high is _constants.MAXREPEAT or high > 1
            if repeated and inside:
                return None
            parts = [sub]
        elif op is _constants.BRANCH:
            if inside:
                return None
            parts = list(av[1])
        elif op is _constants.SUBPATTERN:
            parts = [av[-1]]
        elif op in (_constants.ASSERT, _constants.ASSERT_NOT):
            parts = [av[1]]
        elif op is getattr(_constants, "ATOMIC_GROUP", None):
            parts = [av]
        else:
            continue
        for part in parts:
            n = _repeats(part, inside or repeated)
            if n is None:
                return None
            count += n
        count += repeated
    return count


def safe_pattern(pattern: str, flags: int = 0) -> re.Pattern[str] | None:
    """``pattern`` compiled, when matching it on a short string stays fast whatever the string (see the module's
    docstring); None otherwise, or when it does not compile."""
    if len(pattern) > MAX_PATTERN or flags & ~sum(set(_FLAGS.values())):
        return None
    try:
        parsed = _sre_parse.parse(pattern, flags)
        compiled = re.compile(pattern, flags)
    except (re.error, OverflowError, RecursionError, ValueError):
        return None
    n = _repeats(list(parsed), False)
    return compiled if n is not None and n <= MAX_REPEATS else None


def _flags_of(v: Value | None) -> int | None:
    if v is None:
        return 0
    if isinstance(v, IntV):
        return v.size.as_int()
    if isinstance(v, RefV):
        return _FLAGS.get(v.qualname)
    return None


def _int_arg(v: Value | None, default: int) -> int | None:
    if v is None:
        return default
    return v.size.as_int() if type(v) is IntV else None


def _str(x: str | None) -> Value:
    return NoneV() if x is None else StrV(x)


def match_value(m: re.Match[str] | None) -> Value:
    """A match of the analysed code's pattern (None: no match)."""
    if m is None:
        return NoneV()
    items: list[tuple[str, Value]] = [(str(i), _str(m.group(i))) for i in range(len(m.groups()) + 1)]
    items.extend((name, _str(text)) for name, text in m.groupdict().items())
    return DictV(tuple(items), "match")


def match_method(base: DictV, method: str, args: list[Value]) -> Value:
    """``m.group(i, ...)`` / ``m.groups()`` / ``m.groupdict()`` of a match (unknown: any other use)."""
    groups = dict(base.items)
    count = sum(1 for k in groups if k.isdigit()) - 1
    if method == "groups" and not args:
        return SeqV(tuple(groups[str(i)] for i in range(1, count + 1)), "tuple")
    if method == "group":
        keys: list[str] = []
        for a in args or [IntV(Size.const(0))]:
            n = a.size.as_int() if type(a) is IntV else None
            if n is not None and 0 <= n <= count:
                keys.append(str(n))
            elif isinstance(a, StrV) and not a.value.isdigit() and a.value in groups:
                keys.append(a.value)
            else:
                return UNKNOWN  # (Python raises IndexError)
        picked = tuple(groups[k] for k in keys)
        return picked[0] if len(picked) == 1 else SeqV(picked, "tuple")
    return UNKNOWN


def _run(compiled: re.Pattern[str], how: str, args: list[Value], kwargs: dict[str, Value]) -> Value | None:
    """``compiled``'s ``how`` (split, findall, sub, match, fullmatch, search) with the call's remaining arguments (the
    string first, for ``sub`` the replacement first): None when one is not known or not a plain one."""
    names = {"split": ("string", "maxsplit"), "sub": ("repl", "string", "count")}.get(how, ("string",))
    if len(args) > len(names) or set(kwargs) - set(names):
        return None
    given = dict(zip(names, args))
    given.update(kwargs)
    subject = given.get("string")
    if not isinstance(subject, StrV) or len(subject.value) > MAX_SUBJECT:
        return None
    text = subject.value
    if how == "split":
        maxsplit = _int_arg(given.get("maxsplit"), 0)
        if maxsplit is None:
            return None
        parts = compiled.split(text, maxsplit)
        if len(parts) > MAX_PIECES:
            return None
        return SeqV(tuple(_str(p) for p in parts), "list")
    if how == "findall":
        found = compiled.findall(text)
        if len(found) > MAX_PIECES:
            return None
        return SeqV(
            tuple(SeqV(tuple(StrV(g) for g in f), "tuple") if isinstance(f, tuple) else StrV(f) for f in found),
            "list",
        )
    if how == "sub":
        repl, count = given.get("repl"), _int_arg(given.get("count"), 0)
        if not isinstance(repl, StrV) or "\\" in repl.value or count is None:
            return None  # (a function, or group references in the replacement: not followed)
        out = compiled.sub(repl.value, text, count)
        return StrV(out) if len(out) <= 4 * MAX_SUBJECT else None
    if how in ("match", "fullmatch", "search"):
        return match_value(getattr(compiled, how)(text))
    return None


_HOWS = ("split", "findall", "sub", "match", "fullmatch", "search")


@library_call(*(f"re.{how}" for how in _HOWS))
def _re_function(c: LibraryCall) -> Value | None:
    """``re.split(pattern, string, maxsplit=0, flags=0)`` & co. of a known pattern and string."""
    if c.dynamic or not c.args or not isinstance(c.args[0], StrV):
        return None
    kwargs = dict(c.kwargs)
    flags = _flags_of(kwargs.pop("flags", None))
    how = c.qual[3:]
    rest = list(c.args[1:])
    limit = {"split": 3, "sub": 4}.get(how, 2)  # pattern, [repl,] string, [maxsplit / count,] flags
    if len(rest) > limit:
        return None
    if len(rest) == limit:  # flags given by position
        flags = _flags_of(rest.pop())
    if flags is None:
        return None
    compiled = safe_pattern(c.args[0].value, flags)
    if compiled is None:
        return None
    return _run(compiled, how, rest, kwargs)


@library_call("re.compile")
def _re_compile(c: LibraryCall) -> Value | None:
    """``re.compile(pattern, flags=0)`` of a known pattern that is safe to run: a DictV of kind "regex"."""
    if c.dynamic or len(c.args) not in (1, 2) or not isinstance(c.args[0], StrV) or set(c.kwargs) - {"flags"}:
        return None
    flags = _flags_of(c.args[1] if len(c.args) == 2 else c.kwargs.get("flags"))
    if flags is None or safe_pattern(c.args[0].value, flags) is None:
        return None
    return DictV((("pattern", c.args[0]), ("flags", IntV(Size.const(flags)))), "regex")


def regex_method(base: DictV, method: str, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """``pat.split(s)`` / ``pat.match(s)`` & co. of ``pat = re.compile(...)`` (unknown: any other use)."""
    fields = dict(base.items)
    pattern, flags = fields.get("pattern"), fields.get("flags")
    if method not in _HOWS or not isinstance(pattern, StrV) or not isinstance(flags, IntV):
        return UNKNOWN
    compiled = safe_pattern(pattern.value, flags.size.as_int() or 0)
    if compiled is None:
        return UNKNOWN
    got = _run(compiled, method, args, kwargs)
    return UNKNOWN if got is None else got
