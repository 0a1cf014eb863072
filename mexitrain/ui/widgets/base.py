"""A widget that renders the board it is given and re-lays itself out only when its size changes."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widget import Widget

from ..board import Board


class BoardWidget(Widget):
    board: reactive[Board | None] = reactive(None)

    _measured: tuple[int, int] | None = None

    def watch_board(self, board: Board | None) -> None:
        # A full layout pass is costly: ask for one only when this widget's height would change.
        width = self.size.width or 80
        height = self.get_content_height(self.size, self.size, width) if board is not None else 0
        size = (width, height)
        if size != self._measured:
            self._measured = size
            self.refresh(layout=True)
        else:
            self.refresh()
