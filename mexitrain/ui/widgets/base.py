"""A widget that renders the board it is given and re-lays itself out only when its size changes."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widget import Widget

from ..board import Board


class BoardWidget(Widget):
    # repaint=False: a new board repaints the widget only when its render key changes (a
    # key press that moves the selection must not redraw the hub, the status line...)
    board: reactive[Board | None] = reactive(None, repaint=False)

    _measured: tuple[int, int] | None = None
    _key: object = None

    def render_key(self, board: Board) -> object:
        """What this widget's picture depends on; unchanged key, no repaint."""
        return board

    def watch_board(self, board: Board | None) -> None:
        key = None
        if board is not None:  # the table itself too: names, who plays, who is "you"
            key = (self.render_key(board), board.names, board.kinds, board.you)
        if key == self._key and self._measured is not None:
            return
        self._key = key
        # A full layout pass is costly: ask for one only when this widget's height would change.
        # The repaint comes first: it drops Textual's caches of the old picture and of its
        # height (kept by width alone), so the measure below is the new board's.
        self.refresh()
        width = self.size.width or 80
        height = self.get_content_height(self.size, self.size, width) if board is not None else 0
        size = (width, height)
        if size != self._measured:
            self._measured = size
            self.refresh(layout=True)
