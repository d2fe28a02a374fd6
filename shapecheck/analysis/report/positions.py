"""Line/column positions for the few nodes that carry findings, at about the cost of one code generation.

libcst's PositionProvider records a CodeRange for every node of the module; we only need the nodes that findings
(and hovers) point at, so this state tracks line/column cheaply and keeps tuples. Semantics are PositionProvider's:
syntactic positions (``record_syntactic_position``) where libcst defines them, whitespace-inclusive otherwise.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import libcst as cst
from libcst._nodes.internal import CodegenState

Span = tuple[int, int, int, int]  # start line (1-based), start column (0-based), end line, end column


class _State(CodegenState):
    def __init__(self, module: cst.Module, targets: set[int] | None) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.line = 1
        self.column = 0
        self.targets = targets
        self.syntactic: dict[int, Span] = {}
        self.inclusive: dict[int, Span] = {}
        self._stack: list[tuple[int, int] | None] = []

    def _advance(self, value: str) -> None:
        if "\n" not in value and "\r" not in value:
            self.column += len(value)
            return
        text = value.replace("\r\n", "\n").replace("\r", "\n")
        self.line += text.count("\n")
        self.column = len(text) - text.rfind("\n") - 1

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)
        for token in self.indent_tokens:
            self._advance(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self._advance(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if self.targets is None or id(node) in self.targets:
            self._stack.append((self.line, self.column))
        else:
            self._stack.append(None)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self._stack.pop()
        if start is not None and id(node) not in self.inclusive:
            self.inclusive[id(node)] = (start[0], start[1], self.line, self.column)

    @contextmanager
    def record_syntactic_position(
        self, node: cst.CSTNode, *, start_node: Any = None, end_node: Any = None
    ) -> Iterator[None]:
        start = (self.line, self.column)
        try:
            yield
        finally:
            end = (self.line, self.column)
            if start_node is not None and id(start_node) in self.syntactic:
                s = self.syntactic[id(start_node)]
                start = (s[0], s[1])
            if end_node is not None and id(end_node) in self.syntactic:
                e = self.syntactic[id(end_node)]
                end = (e[2], e[3])
            self.syntactic[id(node)] = (start[0], start[1], end[0], end[1])


def compute_positions(module: cst.Module, targets: set[int] | None = None) -> dict[int, Span]:
    """id(node) -> span for ``targets`` (every node when None)."""
    state = _State(module, targets)
    module._codegen(state)
    out = dict(state.inclusive)
    out.update(state.syntactic)
    if targets is not None:
        out = {k: v for k, v in out.items() if k in targets}
    return out
