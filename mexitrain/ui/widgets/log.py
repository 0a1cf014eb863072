"""The move log: this round's moves in words, newest at the bottom."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.content import Content
from textual.markup import escape
from textual.reactive import reactive
from textual.widgets import Static

from .. import words
from ..board import Board


def log_lines(board: Board) -> list[str]:
    v = board.view
    lines = [f"[b]{escape(words.round_header(v, board.names))}[/]"]
    for i, e in enumerate(v.events):
        text = escape(words.event_line(v, board.names, i, auto=i in board.auto_events))
        if e.seat == v.seat:
            text = f"[b]{text}[/]"
        lines.append(text)
    return lines


class MoveLog(VerticalScroll, can_focus=False):
    """Scrollable with the mouse; follows the newest move."""

    board: reactive[Board | None] = reactive(None)
    _lines: list[str] = []

    def compose(self):
        yield Static(id="log-text")

    def watch_board(self, board: Board | None) -> None:
        if board is None:
            return
        lines = log_lines(board)
        if lines == self._lines:
            return  # a new selection, not a new move: nothing to redo
        self._lines = lines
        self.query_one("#log-text", Static).update(Content.from_markup("\n".join(lines)))
        self.call_after_refresh(self.scroll_end, animate=False)
