"""The chat lines at a network table (issue #35 item 4): under the move log on the game screen
(the last :data:`STRIP_LINES`), under the seats in the lobby. Every name and line is plain
text (:func:`~mexitrain.ui.cells.plain`), cut to the widget's width in terminal cells, one
line each: a wide line, a CJK one or a hostile one never takes more than its row."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from ...text.chat import chat_separator
from ...text.names import cells, shorten
from ..cells import plain
from ..colours import seat_colour

#: The chat lines the game screen shows under the move log (80x24 keeps the trains in sight).
STRIP_LINES = 3


class ChatLines(Static):
    """The last ``rows`` chat lines: ``lines`` is ``(seat, name, words, reaction)`` each,
    oldest first (``reaction``: the words are a quick reaction's, shown "Ann ✦ nice!");
    ``note`` (e.g. "chat muted") stands alone when there is no line to show."""

    lines: reactive[tuple[tuple[int, str, str, bool], ...]] = reactive((), layout=True)
    note: reactive[str] = reactive("")

    def __init__(self, *, rows: int = STRIP_LINES, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes, markup=False)
        self.rows = rows
        self.display = False

    def render(self) -> Content:
        width = max(8, self.size.width or 36)
        shown = self.lines[-self.rows:]
        rows = []
        for seat, name, words, reaction in shown:
            who = shorten(name, min(20, width // 3))
            sep = chat_separator(reaction)
            rest = shorten(words, max(1, width - cells(who) - cells(sep)))
            rows.append(plain(who, f"b {seat_colour(seat)}") + plain(sep + rest))
        if self.note:
            rows.append(plain(shorten(self.note, width), "dim"))
        return Content("\n").join(rows)

    def watch_lines(self) -> None:
        self.display = bool(self.lines or self.note)
        self.refresh(layout=True)

    def watch_note(self) -> None:
        self.display = bool(self.lines or self.note)
        self.refresh(layout=True)
