"""Where the app's game comes from: a source (issue #33, docs/architecture.md).

The one app (:class:`~mexitrain.ui.app.MexitrainApp`) shows a game and sends a person's
intents; a *source* holds that game and says what there is to show. Two sources exist:

- :class:`~mexitrain.ui.local.LocalTable`: a game held in this process (the session, its
  computer players in a worker, undo from its history, the autosave); one person or several
  sharing the keyboard.
- :class:`~mexitrain.ui.network.NetworkTable`: a seat at a table another process holds (a
  table server): the server's last view of this seat, the link, the lobby.

The app subscribes: when its game moves on, a source calls :meth:`MexitrainApp.source_moved
<mexitrain.ui.app.MexitrainApp.source_moved>` with the notices to show, and the app reads the
facts below and hands them to the screens (attributes down). The screens' intents come back
up as messages, which the app passes to :meth:`Source.act` (a move), :meth:`Source.seen` (a
round's results were read), :meth:`Source.receive` (whatever the source's own workers and
screens post) and the rest. Every fact a source gives is read off a seat's
:class:`~mexitrain.rules.SeatView`, worked out by the rules core; no source or screen decides a
rule.

A spectator is the network table in its watching mode (:attr:`Source.watching`): it shows an
onlooker's view (:func:`mexitrain.rules.watched`), has no legal moves to act on, no undo, and
its own commands; the game, score sheet, round-over and game-over screens show it unchanged.
A replay driven like a game would be a third source on the same pattern. See the design page.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.screen import Screen

from ..game_setup import GameSetup, SeatConfig
from ..rules import Action, GameState, RuleSet, SeatView
from ..session import Notice, Step
from ..text.events import VIEW_SEAT

if TYPE_CHECKING:
    from .app import MexitrainApp


class Source(ABC):
    """A game's source for the one app (see the module docstring). Owns its game's state;
    the app holds exactly one source at a time (:attr:`MexitrainApp.source
    <mexitrain.ui.app.MexitrainApp.source>`) and reads it, never writes it. A source must say
    its view, names and kinds; every other fact and intent has a default here."""

    #: the game screen shows the link's line (who is away, the link's state) under the status
    link: bool = False
    #: the game is watched, not played: an onlooker's view (no hand, no move); the game screen
    #: says "Watching" where a hand would be
    watching: bool = False
    #: a note the help screen shows first (what this kind of game does not do), or None
    help_note: str | None = None

    def __init__(self, app: MexitrainApp) -> None:
        self.app = app

    # -- facts, read by the app for the screens ---------------------------------------------------
    @abstractmethod
    def view(self) -> SeatView | None:
        """The view of the seat on screen (None: no game yet)."""

    @property
    @abstractmethod
    def names(self) -> tuple[str, ...]:
        """Each seat's name, as the table knows it."""

    @property
    @abstractmethod
    def kinds(self) -> tuple[str, ...]:
        """Each seat as the board knows seats: "human", or a computer player's level."""

    def auto_events(self) -> frozenset[int]:
        """The indexes of this round's events that were made for a person (forced moves)."""
        return frozenset()

    def you(self) -> int | None:
        """The one person at this screen, whom the results address as "you" (None: several)."""
        return None

    def board_you(self) -> int | None:
        """The seat the board's texts call "you" (VIEW_SEAT: the view's seat when exactly
        one person plays here, as a local table says)."""
        return VIEW_SEAT

    def rules_in_force(self) -> tuple[RuleSet, int] | None:
        """The rules and number of seats for the help screen (None: none chosen yet)."""
        view = self.view()
        return None if view is None else (view.rules, view.players)

    def seal(self) -> str | None:
        """The deal's seal this screen showed first (the seed revealed at the end is checked
        against it); None: the view's own."""
        return None

    def finished_game(self) -> tuple[Any, tuple[str, ...]] | None:
        """(the full final snapshot, kinds) when this source holds every hand of a finished
        game (the review needs them), else None."""
        return None

    def game_to_keep(self) -> tuple[GameState, GameSetup] | None:
        """The game a person may save under a name now (Save as…, Ctrl+S), with its setup;
        None: nothing to save here. By default the finished game this source holds whole
        (:meth:`finished_game`), its seats as the table named them."""
        finished, view = self.finished_game(), self.view()
        if finished is None or view is None:
            return None
        state = finished[0]
        try:
            seats = tuple(SeatConfig(name=n, kind=k) for n, k in zip(self.names, self.kinds, strict=True))
            setup = GameSetup(rules=state.rules, seed=state.seed, seed_chosen=view.seed_chosen, seats=seats)
        except ValueError:  # a name or level this terminal would not seat (pydantic's errors are ValueErrors)
            return None
        return state, setup

    def waiting_for(self) -> tuple[str, ...]:
        """The names of the other people the next round still waits for (results unseen)."""
        return ()

    def can_play_again(self) -> bool:
        """Whether the game-over screen offers "Play again" here."""
        return True

    def rematch_line(self) -> str:
        """Who accepted playing again and whom it waits for ("": nobody asked, or no table)."""
        return ""

    # -- what comes next -------------------------------------------------------------------------
    def next_step(self) -> Step | None:
        """What comes next once the game screen is shown (each due screen returned once)."""
        return None

    def check(self, action: str, screen: Screen) -> bool | None:
        """Whether the app's ``action`` is possible now (None: shown dimmed), for this source."""
        return True

    def commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The command palette's commands of this source."""
        return ()

    def undo_state(self) -> tuple[bool, str]:
        """``(possible, what it takes back / why not)`` for the seat on screen."""
        return False, ""

    @property
    def undo_known(self) -> tuple[bool, str] | None:
        """The last :meth:`undo_state` answer of this position, if it was asked."""
        return None

    # -- intents, from the app ----------------------------------------------------------------------
    async def start(self) -> None:
        """Begin: show the first screen of this source (a game, a lobby)."""
        return None  # nothing to do unless the source says otherwise

    async def stop(self) -> None:
        """End: workers, links and servers of this source are stopped."""
        return None  # nothing to do unless the source says otherwise

    async def act(self, action: Action, auto: bool = False) -> None:
        """The person on screen's move (``auto``: a forced move made for them)."""
        return None  # nothing to do unless the source says otherwise

    async def seen(self, number: int) -> None:
        """The person read round ``number``'s results."""
        return None  # nothing to do unless the source says otherwise

    def undo(self) -> Notice | None:
        """Take back the last decision of the seat on screen; what to say."""
        return None

    def request_quit(self) -> None:
        """The person asked to quit (q, Ctrl+Q): ask if needed, then do it."""
        self.app.exit()

    def again(self) -> None:
        """Play again from the game-over screen."""
        return None  # nothing to do unless the source says otherwise

    async def receive(self, message: Any) -> None:
        """A message of this source's own workers or screens (server said, computer chose…)."""
        return None  # nothing to do unless the source says otherwise


__all__ = ["Source"]
