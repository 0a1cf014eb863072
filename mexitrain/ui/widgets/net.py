"""One line about the table on the network: the link while it is down or coming back, and
the seats whose person is away (with a clock that counts). Hidden when all is well."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

from ..cells import plain


class NetBar(Static):
    """The lobby's and the game screen's line about the table's link (``text``, set by the
    app every second while something counts; empty: hidden)."""

    text: reactive[str] = reactive("", init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, classes="net-bar", markup=False)
        self.display = False

    def watch_text(self, text: str) -> None:
        self.display = bool(text)
        self.update(plain(text))  # names of players inside: plain text, never markup
