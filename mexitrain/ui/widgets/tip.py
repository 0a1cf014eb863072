"""The tip panel: the coach's suggestion for the decision at hand (key n), shown over the
bottom right of the board like a notice, and gone as soon as the game moves on."""

from __future__ import annotations

from textual.containers import Container
from textual.content import Content

from ...i18n import _
from ..board import Board
from .base import BoardWidget


class TipRack(Container):
    """Holds the panel at the bottom right, on a layer of its own (the board keeps its room)."""


class TipPanel(BoardWidget):
    def render_key(self, board: Board) -> object:
        return board.tip

    def watch_board(self, board: Board | None) -> None:
        self.display = board is not None and board.tip is not None
        super().watch_board(board)

    def render(self) -> Content:
        board = self.board
        if board is None or board.tip is None:
            return Content("")
        return Content.assemble((_("Tip"), "bold $text-success"), "\n", board.tip)
