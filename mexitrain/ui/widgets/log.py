"""The move log: the round just finished (dimmed), then this round's moves, newest at the bottom."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from ...i18n import _
from ...rules import SeatView
from ...text.basics import who
from ...text.events import VIEW_SEAT, end_words, event_line, round_header
from ..board import Board, finished_round_view
from ..cells import plain


class LogLine(str):
    """A line of the log: plain text (it holds names: never markup) and its style."""

    style: str

    def __new__(cls, text: str, style: str = "") -> LogLine:
        line = super().__new__(cls, text)
        line.style = style
        return line

    def content(self) -> Content:
        return plain(str(self), self.style)


def log_lines(board: Board) -> list[LogLine]:
    """The round just finished (dimmed, down to how it ended), then this round's moves."""
    v = board.view
    lines: list[LogLine] = []
    before = finished_round_view(v) if v.phase != "game_over" else None
    if before is not None:
        done = v.results[-1]
        lines.append(LogLine(round_header(before, board.names, board.viewer), "dim b"))
        lines += [LogLine(text, ("dim " + text.style).strip()) for text in _event_lines(before, board, frozenset())]
        how = end_words(done.end, done.out_seat, board.names, board.viewer, after_colon=True)
        over = _("Round {number} over: {how}").format(number=done.number, how=how)
        lines.append(LogLine(over, "dim b"))
        lines.append(LogLine(""))
    lines.append(LogLine(round_header(v, board.names, board.viewer), "b"))
    lines += _event_lines(v, board, board.auto_events)
    return lines


def _bold_seat(board: Board) -> int | None:
    """Whose moves the log shows in bold: the one person's ("you"), or with several people
    at one keyboard the person whose screen it is (named like everyone else)."""
    if board.viewer is not None or board.you != VIEW_SEAT:
        return board.viewer
    return board.seat if board.kinds[board.seat] == "human" else None


def _event_lines(v: SeatView, board: Board, auto: frozenset[int]) -> list[LogLine]:
    lines = []
    bold = _bold_seat(board)
    i = 0
    while i < len(v.events):
        e = v.events[i]
        text = event_line(v, board.names, i, auto=i in auto, viewer=board.viewer)
        nxt = v.events[i + 1] if i + 1 < len(v.events) else None
        if e.type == "draw" and nxt is not None and nxt.seat == e.seat and nxt.type in ("mark", "play"):
            # "Cal drew a tile and placed a marker on their train": one line per turn
            rest = event_line(v, board.names, i + 1, auto=i + 1 in auto, viewer=board.viewer)
            subject = who(board.names, board.viewer, nxt.seat) + " "
            rest = rest.removeprefix(subject)  # drop the repeated subject
            text = _("{drew} and {rest}").format(drew=text, rest=rest)
            i += 1
        lines.append(LogLine(text, "b" if e.seat == bold else ""))
        i += 1
    return lines


class MoveLog(VerticalScroll, can_focus=False):
    """Scrollable with the mouse; follows the newest move."""

    board: reactive[Board | None] = reactive(None)
    _lines: list[tuple[str, str]] = []

    def compose(self):
        yield Static(id="log-text")

    _key: tuple = ()

    def on_resize(self) -> None:
        """Shorter (a tip came above it in the corner) or taller: the newest move stays in sight."""
        self.call_after_refresh(self.scroll_end, animate=False)

    def watch_board(self, board: Board | None) -> None:
        if board is None:
            return
        v = board.view
        key = (v.events, v.last_round_events, v.round, v.phase == "game_over", board.names, board.auto_events, board.viewer, _bold_seat(board))
        if key == self._key:
            return  # a new selection, not a new move: nothing to redo
        self._key = key
        lines = log_lines(board)
        shown = [(str(line), line.style) for line in lines]
        if shown == self._lines:
            return  # a new selection, not a new move: nothing to redo
        self._lines = shown
        self.query_one("#log-text", Static).update(Content("\n").join(line.content() for line in lines))
        self.call_after_refresh(self.scroll_end, animate=False)
