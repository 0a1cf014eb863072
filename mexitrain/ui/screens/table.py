"""The screens of a table on the network that differ from a local game's (issue 23).

:class:`TableScreen` is the game screen with one more line (the link, who is away: a
:class:`~mexitrain.ui.widgets.net.NetBar`) and, for the host, ``c`` to hand an away seat to a
computer player (shown dimmed while nobody is away: possible, not now); :class:`TableOverScreen`
the final standings without "Play again"; :class:`TableHelpScreen` the help, saying what a table
does not do. The app (:mod:`mexitrain.ui.remote`) feeds them; like every screen, they post
messages or name app actions, never call the app.
"""

from __future__ import annotations

from textual.binding import Binding

from ...i18n import N_, _
from ..board import build
from ..widgets import StatusLine
from ..widgets.net import NetBar
from .game import GameScreen
from .help import HelpScreen
from .results import GameOverScreen

#: The key descriptions and tooltips of the table's game screen, for the catalog (:mod:`..lang`).
KEY_WORDS = (N_("Hand over"), N_("Hand the seat of a player who is away to a computer player"))


class TableScreen(GameScreen):
    """The game screen at a table on the network: the same board, fed by the server's views;
    one more line (the link, who is away) and, for the host, ``c`` to hand an away seat to a
    computer player."""

    BINDINGS = [
        Binding("c", "app.hand_over", "Hand over", tooltip="Hand the seat of a player who is away to a computer player", id="hand-over"),
    ]

    def compose(self):
        for widget in super().compose():
            yield widget
            if isinstance(widget, StatusLine):
                yield NetBar(id="net-bar")

    def show(self, view, names, kinds, auto_events=frozenset()) -> None:  # type: ignore[override]
        # one person at this terminal: the texts call this seat "you", whoever else plays
        self.board = build(view, names, kinds, previous=self.board, plain=self.plain, auto_events=auto_events, you=view.seat)

    def action_sort(self) -> None:
        super().action_sort()
        board = self.board
        if board is not None and board.you != board.view.seat:
            self.board = build(board.view, board.names, board.kinds, previous=board, plain=self.plain,
                               auto_events=board.auto_events, you=board.view.seat)


class TableOverScreen(GameOverScreen, inherit_bindings=False):
    """The final standings at a table: no "Play again" (the table's game is over); New game
    leaves the table for the new-game screen, Quit ends the app."""

    BINDINGS = [b for b in GameOverScreen.BINDINGS if b.id != "over-again"]

    def on_mount(self) -> None:
        self.query_one("#again").remove()


class TableHelpScreen(HelpScreen):
    """The help at a table: the keys, the rules in force, and what a table on the network
    does not do (undo, save, load, replay are local-only)."""

    def on_mount(self) -> None:
        from textual.widgets import Static

        scroll = self.query_one("#help-scroll")
        scroll.mount(
            Static(_(NETWORK_NOTE), classes="help-note", markup=False),
            before=0,
        )


NETWORK_NOTE = N_(
    "At a table on the network the host's server holds the game and saves it after every move: "
    "undo, save, load and replay are not available here (they work in a local game). "
    "c Hand over, for the host while a player is away (dimmed in the bar otherwise): that "
    "player's seat goes to a computer player until they come back."
)


__all__ = ["NETWORK_NOTE", "TableHelpScreen", "TableOverScreen", "TableScreen"]
