"""The tip panel: the coach's suggestion for the decision at hand (key n), at the top of the
move log's column (the corner, docs/playing.md), and gone as soon as the game moves on.

A tip that is a play belongs to that play as well as to the decision: while the selection is
on it the panel says Enter plays it; once the player moves the selection to another tile or
train, the panel says what the tip was instead, so that it never tells Enter to do what Enter
no longer does."""

from __future__ import annotations

from textual.content import Content
from textual.message import Message

from ...i18n import _
from ...text.basics import tile_text, train_where
from ..board import Board
from ..cells import plain
from .base import BoardWidget


def tip_play_words(board: Board) -> str:
    """The play the tip names, in words: "2-5 on the Mexican Train" ("" when it names none)."""
    play = board.tip_play
    if play is None:
        return ""
    v = board.view
    where = train_where(board.names, board.viewer, v.players, play.train, play.branch, actor=v.seat)
    return _("{tile} on {train}").format(tile=tile_text(play.tile), train=where)


class TipPanel(BoardWidget):
    class Resized(Message):
        """The panel's height changed: what is laid below it (the notices) moves with it."""

    def on_resize(self) -> None:
        self.post_message(self.Resized())

    def render_key(self, board: Board) -> object:
        return (board.tip, board.tip_play, board.tip_selected)

    def watch_board(self, board: Board | None) -> None:
        self.display = board is not None and board.tip is not None
        super().watch_board(board)

    def render(self) -> Content:
        board = self.board
        if board is None or board.tip is None:
            return Content("")
        title = plain(_("Tip"), "bold $text-success")
        if board.tip_play is None:  # not a play (its key is in the words), or still thinking
            return Content.assemble(title, "\n", plain(board.tip))
        if board.tip_selected:
            return Content.assemble(title, "\n", plain(board.tip + _(" — press Enter to play it")))
        # the selection moved off the tip: the tip steps aside (dimmed) and says what it was
        moved = _("Not selected now: the tip was {play}").format(play=tip_play_words(board))
        return Content.assemble(title, "\n", plain(board.tip, "dim"), "\n", plain(moved, "italic"))
