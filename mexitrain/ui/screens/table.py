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
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Label

from ...i18n import N_, _
from ...text.net import waiting_results_text
from ..board import build
from ..cells import plain
from ..widgets import StatusLine
from ..widgets.net import NetBar
from .game import GameScreen
from .help import HelpScreen
from .results import GameOverScreen, RoundOverScreen

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
        self.board = build(view, names, kinds, previous=self.board, plain=self.plain, pips=self.pips,
                           auto_events=auto_events, you=view.seat)


class TableRoundOverScreen(RoundOverScreen):
    """A round's results at a table: Enter tells the table this person has seen them (the
    app sends it on), and the screen stays, saying whom the next round still waits for,
    until everyone has (``waiting_for``, set by the app from each update)."""

    class Seen(Message):
        """This person has seen the results of round ``number``."""

        def __init__(self, number: int) -> None:
            self.number = number
            super().__init__()

    #: the names of the people the next round still waits for (not this one)
    waiting_for: reactive[tuple[str, ...]] = reactive((), init=False)
    seen: reactive[bool] = reactive(False, init=False)

    def __init__(self, *args, waiting_for: tuple[str, ...] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.set_reactive(TableRoundOverScreen.waiting_for, waiting_for)

    def action_go_on(self) -> None:
        if self.last:
            self.dismiss(None)
        elif not self.seen:
            self.seen = True
            self.post_message(self.Seen(len(self.view.results)))

    def watch_seen(self) -> None:
        self._show_waiting()

    def watch_waiting_for(self) -> None:
        self._show_waiting()

    def _show_waiting(self) -> None:
        if not self.seen:
            return
        if not self.waiting_for:
            self.dismiss(None)
            return
        self.query_one("#round-next", Label).update(plain(waiting_results_text(self.waiting_for) + "…", "dim"))


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


__all__ = ["NETWORK_NOTE", "TableHelpScreen", "TableOverScreen", "TableRoundOverScreen", "TableScreen"]
