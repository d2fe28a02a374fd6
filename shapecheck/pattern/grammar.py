"""One side of an einops pattern: ``"b c (h p1) ..."`` -> :class:`Expression`.

The rules are einops' (``einops.parsing.ParsedExpression``):

* dots may only appear as one ``...``; it becomes the ellipsis marker ``…``; a literal ``…`` is
  also the marker, but the expression then does *not* count as having an ellipsis (einops treats it as an
  ordinary axis in rearrange/reduce/repeat and as an ellipsis in einsum);
* parentheses are one level deep and balanced; ``()`` and ``1`` are unit axes (no elementary axis);
* an identifier is a run of ``str.isalnum`` characters, ``_`` and ``…``; separators are space and parentheses,
  every other character is an error;
* a decimal run (``str.isdecimal``) is an anonymous axis of that length, ``1`` a unit axis, ``0`` an error;
* names are python identifiers that neither start nor end with ``_`` (``_`` alone where allowed);
* duplicates are errors unless allowed (``_`` may always repeat where it is allowed).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Union

from ..diagnostics import details as D
from .problems import fail

ELLIPSIS = "\u2026"  # the one-character ellipsis marker


@dataclass(frozen=True)
class Anon:
    """An anonymous axis (``2``, ``3``...). Never equal to an axis of another expression or position."""

    value: int
    index: int  # position among the atoms of its expression; makes every anonymous axis distinct

    def __str__(self) -> str:
        return str(self.value)


Atom = Union[str, Anon]  # a name (possibly ELLIPSIS) or an anonymous axis
Group = tuple[Atom, ...]  # () is a unit axis
Element = Union[Group, str]  # a group, or the bare ELLIPSIS marker


@dataclass(frozen=True)
class Expression:
    text: str
    composition: tuple[Element, ...]
    has_ellipsis: bool  # written as "..."
    ellipsis_parenthesized: bool | None  # where the marker sat (None: no marker)
    names: frozenset[str]  # names used (ELLIPSIS included when the marker appears), no anonymous axes
    anonymous: tuple[Anon, ...]  # non-unitary anonymous axes, in order

    @property
    def has_marker(self) -> bool:
        return self.ellipsis_parenthesized is not None

    @property
    def has_composed_axes(self) -> bool:
        return any(not isinstance(e, str) and len(e) > 1 for e in self.composition)

    def atoms(self) -> list[Atom]:
        out: list[Atom] = []
        for e in self.composition:
            if isinstance(e, str):
                out.append(e)
            else:
                out.extend(e)
        return out


def axis_name_problem(name: str, allow_underscore: bool = False) -> str | None:
    """None for a valid axis name, else the rule it breaks (a key of ``details.AXIS_NAME_RULES``)."""
    if not name.isidentifier():
        return "not-identifier"
    if name[0] == "_" or name[-1] == "_":
        if name == "_" and allow_underscore:
            return None
        return "underscore"
    return None


def is_valid_axis_name(name: str, allow_underscore: bool = False) -> bool:
    return axis_name_problem(name, allow_underscore) is None


def _syntax(pattern: str, rule: str) -> Exception:
    return fail("SHP101", pattern=pattern, detail=D.PatternSyntax(rule))


@lru_cache(maxsize=4096)
def parse_expression(
    text: str, *, allow_underscore: bool = False, allow_duplicates: bool = False, pattern: str | None = None
) -> Expression:
    """Parse one side; raises :class:`PatternError` (SHP101 / SHP102). ``pattern`` is the full text for messages."""
    full = text if pattern is None else pattern
    has_ellipsis = False
    if "." in text:
        if text.count("...") != 1 or text.count(".") != 3:
            raise _syntax(full, "dots")
        text = text.replace("...", ELLIPSIS)
        has_ellipsis = True

    composition: list[Element] = []
    names: set[str] = set()
    anonymous: list[Anon] = []
    group: list[Atom] | None = None
    marker_parenthesized: bool | None = None
    n_atoms = 0

    def add(token: str) -> None:
        nonlocal marker_parenthesized, n_atoms
        if token in names and not allow_duplicates and not (allow_underscore and token == "_"):
            raise fail("SHP102", axis=token, pattern=full)
        if token == ELLIPSIS:
            names.add(ELLIPSIS)
            if group is None:
                composition.append(ELLIPSIS)
                marker_parenthesized = False
            else:
                group.append(ELLIPSIS)
                marker_parenthesized = True
            return
        if token.isdecimal():
            value = int(token)
            if value == 1:
                if group is None:
                    composition.append(())
                return
            if value == 0:
                raise _syntax(full, "zero-anonymous")
            anon = Anon(value, n_atoms)
            anonymous.append(anon)
            atom: Atom = anon
        else:
            rule = axis_name_problem(token, allow_underscore)
            if rule is not None:
                raise fail("SHP101", pattern=full, detail=D.InvalidIdentifier(token, rule))
            atom = token
            names.add(token)
        n_atoms += 1
        if group is None:
            composition.append((atom,))
        else:
            group.append(atom)

    current = ""
    for char in text:
        if char in "() ":
            if current:
                add(current)
            current = ""
            if char == "(":
                if group is not None:
                    raise _syntax(full, "nested")
                group = []
            elif char == ")":
                if group is None:
                    raise _syntax(full, "unbalanced")
                composition.append(tuple(group))
                group = None
        elif char.isalnum() or char == "_" or char == ELLIPSIS:
            current += char
        else:
            raise fail("SHP101", pattern=full, detail=D.UnknownCharacter(char))
    if group is not None:
        raise _syntax(full, "unbalanced")
    if current:
        add(current)
    return Expression(
        text=text,
        composition=tuple(composition),
        has_ellipsis=has_ellipsis,
        ellipsis_parenthesized=marker_parenthesized,
        names=frozenset(names),
        anonymous=tuple(anonymous),
    )


def split_arrow(pattern: str, what: str = "pattern") -> tuple[str, str]:
    parts = pattern.split("->")
    if len(parts) != 2:
        rule = "no-arrow" if len(parts) == 1 else "many-arrows"
        raise fail("SHP101", kind="ValueError", pattern=pattern, detail=D.PatternSyntax(rule))
    return parts[0], parts[1]
