"""What kind of shape problem an exception raised by einops (or the backend under it) reports, and on which sizes.

The differential tests compare it with shapecheck's own verdict in both directions: einops' kind must be the one
shapecheck reports, and shapecheck's kind must be the one einops raises -- "something fails" is not enough (a
divisibility check that accepted a remainder of 1 would still see the call fail further down, in a reshape).

Kinds: ``divide`` (SHP203), ``rank`` (SHP201), ``mismatch`` (SHP202), ``other`` (anything else: pattern and API
errors, operand errors). ``numbers`` are the sizes the message names, in the order of the registry's fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DIVIDE = re.compile(r"can't divide axis of length (\d+) in chunks of (\d+)")
_MISMATCH = re.compile(r"Shape mismatch, (-?\d+) != (-?\d+)")
_RANK = re.compile(r"Wrong shape: expected (>=)?(\d+) dims\. Received (\d+)-dim tensor")
_RANK_OTHER = (
    "received input of wrong dim",
    "number of dimensions",
    "assumes at least",
    "does not match the number of dimensions",
    "too many subscripts for operand",
)
_MISMATCH_OTHER = ("Length of anonymous axis does not match", "Length of axis is not 1", "could not split axis")

KIND_OF_CODE = {"SHP201": "rank", "SHP202": "mismatch", "SHP203": "divide"}


@dataclass(frozen=True)
class Kind:
    kind: str  # divide | rank | mismatch | other
    numbers: tuple[int, ...] = ()


def einops_kind(message: str) -> Kind:
    """The kind of the problem in an exception's text (``Type: message`` or the message alone)."""
    m = _DIVIDE.search(message)
    if m:
        return Kind("divide", (int(m.group(1)), int(m.group(2))))
    m = _MISMATCH.search(message)
    if m:
        return Kind("mismatch", (int(m.group(1)), int(m.group(2))))
    m = _RANK.search(message)
    if m:
        return Kind("rank", (int(m.group(2)), int(m.group(3))))
    if any(s in message for s in _RANK_OTHER):
        return Kind("rank")
    if re.fullmatch(r"KeyError: \d+", message.strip()):
        return Kind("rank")  # einops' torch layers look their recipe up by the input's number of dimensions
    if any(s in message for s in _MISMATCH_OTHER):
        return Kind("mismatch")
    return Kind("other")


def code_kind(code: str) -> str:
    return KIND_OF_CODE.get(code, "other")


def disagreement(code: str, fields: dict | None, message: str) -> str | None:
    """Why shapecheck's ``code`` (with its template ``fields`` when known) is not the problem einops raised with
    ``message``; None when they agree.

    SHP105 (an axis length keyword that is zero or negative) agrees with anything: einops does not check the
    keyword itself, the call fails wherever the value is first used (a modulo by zero, a shape mismatch, a reshape).
    """
    theirs = einops_kind(message)
    ours = code_kind(code)
    if code == "SHP105":
        return None
    if ours != theirs.kind:
        return f"shapecheck reports {code} ({ours}), einops raises a {theirs.kind} error: {message[-300:]}"
    if fields is not None and theirs.numbers:
        if theirs.kind == "divide":
            mine = (fields.get("size"), fields.get("chunk"))
        elif theirs.kind == "mismatch":
            mine = (fields.get("actual"), fields.get("expected"))
        else:
            expected = str(fields.get("expected", "")).replace(">= ", "")
            mine = (int(expected) if expected.isdigit() else None, fields.get("actual"))
        if tuple(str(x) for x in mine) != tuple(str(x) for x in theirs.numbers):
            return f"{code} names sizes {mine}, einops names {theirs.numbers}: {message[-300:]}"
    return None
