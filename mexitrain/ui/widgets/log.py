"""The move log: this round's moves in words, newest at the bottom."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.content import Content
from textual.markup import escape
from textual.reactive import reactive
from textual.widgets import Static

from ...i18n import _
from .. import words
from ..board import Board


def log_lines(board: Board) -> list[str]:
    v = board.view
    lines = [f"[b]{escape(words.round_header(v, board.names))}[/]"]
    i = 0
    while i < len(v.events):
        e = v.events[i]
        text = words.event_line(v, board.names, i, auto=i in board.auto_events)
        nxt = v.events[i + 1] if i + 1 < len(v.events) else None
        if e.type == "draw" and nxt is not None and nxt.seat == e.seat and nxt.type in ("mark", "play"):
            # "Cal drew a tile and placed a marker on their train": one line per turn
            rest = words.event_line(v, board.names, i + 1, auto=i + 1 in board.auto_events)
            subject = words.who(board.names, v.seat, nxt.seat) + " "
            rest = rest.removeprefix(subject)  # drop the repeated subject
            text = _("{drew} and {rest}").format(drew=text, rest=rest)
            i += 1
        text = escape(text)
        if e.seat == v.seat:
            text = f"[b]{text}[/]"
        lines.append(text)
        i += 1
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
