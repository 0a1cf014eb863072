"""A game held in this process: the local table, one source of the app (issue #33).

:class:`LocalTable` owns the game: its :class:`~mexitrain.session.Session` (the snapshot, the
seats, the hand-off, the knocks, undo from the round's history) and its computer players,
which choose in a worker thread. One person plays, or several share the keyboard (hot seat).
Each new snapshot goes to the autosave and to the app (:meth:`MexitrainApp.source_moved
<mexitrain.ui.app.MexitrainApp.source_moved>`), which redraws the screens from this table's
facts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.message import Message
from textual.screen import Screen
from textual.worker import get_current_worker

from ..game_setup import GameSetup, random_seed
from ..i18n import _
from ..rules import Action, GameState, SeatView
from ..session import Notice, Session, Step
from .screens import GameOverScreen, HandoffScreen, NewGameScreen, QuitScreen, ScoreScreen
from .screens.game import GameScreen
from .source import Source

if TYPE_CHECKING:
    from .app import MexitrainApp


class AiChose(Message):
    """A computer player's move, chosen in a worker thread for ``state``."""

    def __init__(self, state: GameState, action: Action) -> None:
        self.state = state
        self.action = action
        super().__init__()


class LocalTable(Source):
    """A game held here (see the module docstring). Owns the :class:`Session`, hence the
    snapshot (:attr:`state`); the app and screens only read it."""

    def __init__(self, app: MexitrainApp, setup: GameSetup | None = None) -> None:
        super().__init__(app)
        #: the game being played: snapshot, seats, turn order, undo (no Textual: mexitrain.session)
        self.session = Session(setup)
        self._ai_state: GameState | None = None
        self._wake = threading.Event()

    # -- facts -------------------------------------------------------------------------------------
    @property
    def state(self) -> GameState | None:
        """The full snapshot of the game (None: no game); owned by the session."""
        return self.session.state

    def view(self) -> SeatView | None:
        state = self.session.state
        return None if state is None else self.session.view(state)

    @property
    def names(self) -> tuple[str, ...]:
        return self.session.names

    @property
    def kinds(self) -> tuple[str, ...]:
        return self.session.kinds

    def auto_events(self) -> frozenset[int]:
        return frozenset(self.session.auto_events)

    def you(self) -> int | None:
        return self.session.you()

    def finished_game(self) -> tuple[Any, tuple[str, ...]] | None:
        state = self.session.state
        if state is None or not state.over:
            return None
        return state, self.session.kinds

    def game_to_keep(self) -> tuple[GameState, GameSetup] | None:
        state, setup = self.session.state, self.session.setup
        return None if state is None or setup is None else (state, setup)

    @property
    def running(self) -> bool:
        """A game is in progress (not over)."""
        state = self.session.state
        return state is not None and not state.over

    # -- start and the snapshot moving on --------------------------------------------------------
    async def begin(self, setup: GameSetup, state: GameState | None = None) -> None:
        """Seat ``setup``'s table and deal round 1 (or take up ``state``); the game screen."""
        app = self.app
        first, warnings = self.session.start(setup, state)
        for text in warnings:
            app.notify(text, severity="warning", markup=False)
        self._ai_state = None
        app.workers.cancel_group(app, "ai")
        await app.open_game()
        self.take(first)

    def take(self, new: GameState) -> None:
        """``new`` is the game's snapshot now: autosaved, told to the app, and whatever comes
        next (a screen, a forced move, a computer's turn) follows."""
        setup = self.session.setup
        if setup is not None and new is not self.session.state:
            self.app.saver.submit(new, setup, self.app.speed)
        moved = self.session.moved(new)
        self.app.source_moved(moved.notices, moved.withdrawn)

    def next_step(self) -> Step | None:
        step = self.session.next_step()
        if step is not None and step.kind == "computer":
            state = self.session.state
            if self._ai_state is not state:
                self._ai_state = state
                self._ai_turn(state, step.seat)
            return None
        return step

    # -- moves -------------------------------------------------------------------------------------
    async def act(self, action: Action, auto: bool = False) -> None:
        if auto or self.session.person_to_move():
            self._apply(action, auto)

    def _apply(self, action: Action, auto: bool = False) -> bool:
        done = self.session.apply(action, auto)
        if done.notice is not None:
            self.app.show_notice(done.notice)
        if done.state is None:
            return False
        self.take(done.state)
        return True

    # -- computer turns --------------------------------------------------------------------------------
    @property
    def ai_pending(self) -> bool:
        """A computer player is to move and nothing else (a screen) is in the way."""
        return self.session.computer_to_move() and self.app.screen is self.app.game_screen

    def _ai_turn(self, state: GameState, seat: int) -> None:
        self.app.run_worker(lambda: self._choose(state, seat), thread=True, exclusive=True, group="ai")

    def _choose(self, state: GameState, seat: int) -> None:
        """In the worker thread: the computer player of ``seat`` chooses, at the game's pace."""
        app = self.app
        worker = get_current_worker()
        started = time.monotonic()
        player, name = self.session.players[seat], self.session.names[seat]
        try:
            action = player.choose(self.session.view(state, seat))  # type: ignore[attr-defined]
        except Exception as exc:  # a computer player's bug must not stop the game
            app.log.error(f"{name}'s computer player failed: {exc!r}")  # the details, for developers
            app.call_from_thread(
                app.notify,
                _("{name}'s computer player failed; it plays the first legal move instead").format(name=name),
                title=_("Computer player error"),
                severity="error",
            )
            action = self.session.view(state, seat).legal[0]
        rest = app.speed - (time.monotonic() - started)
        if rest > 0:
            self._wake.wait(rest)
        if not worker.is_cancelled:
            app.post_message(AiChose(state, action))

    async def receive(self, message: Any) -> None:
        if not isinstance(message, AiChose) or message.state is not self.session.state:
            return  # stale: the game moved on (new game, or a replaced snapshot)
        if not self._apply(message.action):
            legal = self.session.view(message.state, message.state.turn).legal
            if legal:
                self._apply(legal[0])

    def halt(self) -> None:
        """Stop the computer players (the game stays as it is)."""
        self.app.workers.cancel_group(self.app, "ai")
        self._ai_state = None

    async def stop(self) -> None:
        self._wake.set()
        self.halt()

    # -- undo --------------------------------------------------------------------------------------
    def undo_state(self) -> tuple[bool, str]:
        return self.session.undo_state()

    @property
    def undo_known(self) -> tuple[bool, str] | None:
        return self.session.undo_known

    def undo(self) -> Notice | None:
        done = self.session.undo()
        if done.state is not None:
            self.halt()
            self.take(done.state)
        return done.notice

    # -- the app's keys and commands -----------------------------------------------------------------
    def check(self, action: str, screen: Screen) -> bool | None:
        state = self.session.state
        if action in LOCAL_ONLY and on_the_way(screen):
            return False  # the host's setup: Load… ^O, Stats ^T... lead away from the table
        if action in ("host_table", "join_table"):
            # a local game in progress stays in its autosave; not again from a form on the way
            if action == "join_table" and self.app.served_tables is not None:
                return False  # a served game: the server's own tables only (New table…, links)
            return self.app.tables and not on_the_way(screen)
        if action == "save_as":  # in the game, and once it is over (to replay or review it later)
            return isinstance(screen, GameScreen | GameOverScreen) and state is not None
        if action == "scores":
            return state is not None and not isinstance(screen, NewGameScreen | ScoreScreen | HandoffScreen)
        if action == "hand_over":
            return False
        if action in ("chat_say", "chat_react", "chat_mute", "remove_player"):
            return False  # chat and removing a person: at a network table only
        return True

    def commands(self, screen: Screen) -> Iterable[SystemCommand]:
        app = self.app
        way = on_the_way(screen)
        if not way:
            yield SystemCommand(_("New game"), _("Set up a new table"), app.action_new_game)
        if self.session.state is not None:
            yield SystemCommand(_("Score sheet"), _("Scores of every round so far"), app.action_scores)
            if app.game_screen is not None and not way:
                yield SystemCommand(_("Save game as…"), _("Save this game under a name (Ctrl+S)"), app.action_save_as)
        if not way:
            yield SystemCommand(_("Load a saved game…"), _("Continue a game saved under a name"), app.action_load_game)
            yield SystemCommand(
                _("Open replay…"), _("Step through a saved game or record move by move"), app.action_open_replay
            )
            yield SystemCommand(_("Statistics"), _("Games played and won, totals, rounds gone out"), app.action_stats)
            if app.served_tables is not None:
                yield SystemCommand(_("New table…"), _("Open a table on this server and get a link for your friends (Ctrl+N)"), app.action_host_table)
            elif app.tables:
                yield SystemCommand(_("Host a table…"), _("Open a table on this computer for players on the network (Ctrl+N)"), app.action_host_table)
                yield SystemCommand(_("Join a table…"), _("Sit at a table on the network: its address and code (Ctrl+G)"), app.action_join_table)

    def request_quit(self) -> None:
        app = self.app
        if isinstance(app.screen, QuitScreen):
            return
        if not self.running:
            app.exit()
            return
        autosaved = app.saver.path is not None and app.saver.failing is None
        app.push_screen(QuitScreen(autosaved=autosaved), lambda yes: self._quit_running(autosaved) if yes else None)

    def _quit_running(self, autosaved: bool) -> None:
        """Quit a game in progress; ``quit_autosaved``: there is one to resume (the command says how)."""
        self.app.quit_autosaved = autosaved
        self.app.exit()

    def again(self) -> None:
        setup = self.session.setup
        if setup is not None:
            self.app.call_later(self.begin, setup.model_copy(update={"seed": random_seed(), "seed_chosen": False}))


#: The local app's commands that lead away from a table being set up (to a local game, a
#: file, the statistics): not on the forms on the way to a table (:func:`on_the_way`).
LOCAL_ONLY = ("load_game", "open_replay", "stats", "new_game", "save_as")


def on_the_way(screen: Screen) -> bool:
    """``screen`` is one of the forms that lead to a table: Host a table… (its port, then
    its setup) or Join a table…."""
    from .screens.join import HostScreen, HostSetupScreen, JoinScreen, SeatScreen

    return isinstance(screen, HostScreen | HostSetupScreen | JoinScreen | SeatScreen)


__all__ = ["LOCAL_ONLY", "AiChose", "LocalTable", "on_the_way"]
