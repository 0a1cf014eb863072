"""The replay viewer: a saved game or record, move by move, every hand face up (issue 5).

The record's events are replayed through the rules engine once, giving one snapshot per step
(step 0 = the first deal, step i = after event i); the game screen's widgets show each step
read-only. ←/→ one move, Home/End the first/last, PageUp/PageDown a round, s the score sheet.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.markup import escape
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...rules import GameState, IllegalAction, apply, new_game, view
from ...rules.state import Event
from ...rules.tiles import fmt
from ...rules.undo import event_action
from ...storage import SavedGame
from .. import board as B
from ..board import Board
from ..widgets import HandTray, MoveLog, OpenHands, StationHub, TrainRows
from .dialogs import ScoreScreen


def snapshots(game: SavedGame) -> tuple[list[GameState], list[Event | None]]:
    """Every snapshot of the game, and the event that led to each (None for the first deal)."""
    final = game.state
    state = new_game(final.rules, players=final.players, seed=final.seed)
    states: list[GameState] = [state]
    events: list[Event | None] = [None]
    for event in [e for r in final.results for e in r.events] + list(final.events):
        try:
            state = apply(state, event_action(event))
        except IllegalAction:  # load_save already refused such a file; stop rather than fail
            break
        states.append(state)
        events.append(event)
    return states, events


def describe(event: Event | None, names: tuple[str, ...]) -> str:
    if event is None:
        return "the deal"
    who = names[event.seat] if event.seat < len(names) else f"seat {event.seat + 1}"
    s = "" if who == "You" else "s"
    if event.type == "play":
        if event.train == "mexican":
            where = "the Mexican Train"
        elif event.train == event.seat:
            where = "your train" if who == "You" else "their train"
        else:
            where = "your train" if names[event.train] == "You" else f"{names[event.train]}'s train"
        return f"{who} play{s} {fmt(event.tile)} on {where}"
    if event.type == "draw" and event.tile is not None:
        return f"{who} draw{s} {fmt(event.tile)}"
    verb = {"mark": "place{s} a marker", "pass": "pass{es}", "skip": "skip{s} the Mexican Train"}
    text = verb.get(event.type, event.type).format(s=s, es="" if who == "You" else "es")
    return f"{who} {text}"


class ReplayBox(VerticalScroll, can_focus=False):
    """Scrolls the train rows."""


class ReplayScreen(Screen[None]):
    AUTO_FOCUS = None
    DEFAULT_CSS = """
    ReplayScreen #replay-status {
        height: 2;
        padding: 0 1;
        background: $boost;
    }
    ReplayScreen #open-hands {
        display: block;
    }
    """

    BINDINGS = [
        Binding("left,h", "step(-1)", "Back", key_display="←→", tooltip="One move back (→ forward)", id="replay-prev"),
        Binding("right,l", "step(1)", "Forward", show=False, id="replay-next"),
        Binding("home", "goto(0)", "First", key_display="Home/End", tooltip="The first deal / the last move", id="replay-first"),
        Binding("end", "goto(-1)", "Last", show=False, id="replay-last"),
        Binding("pageup", "round(-1)", "Round", key_display="PgUp/Dn", tooltip="The previous / next round", id="replay-round-prev"),
        Binding("pagedown", "round(1)", "Next round", show=False, id="replay-round-next"),
        Binding("s", "scores", "Scores", tooltip="The score sheet at this step", id="replay-scores"),
        Binding("q,escape", "close", "Close", id="replay-close"),
    ]

    board: reactive[Board | None] = reactive(None, repaint=False)
    step: reactive[int] = reactive(0, init=False)

    def __init__(self, game: SavedGame) -> None:
        super().__init__()
        self.game = game
        self.names = tuple(s.name for s in game.setup.seats)
        self.kinds = tuple(s.kind for s in game.setup.seats)
        self.states, self.events = snapshots(game)

    def compose(self) -> ComposeResult:
        yield Static("", id="replay-status")
        with Horizontal(id="top"):
            yield StationHub(id="hub").data_bind(ReplayScreen.board)
            yield MoveLog(id="log").data_bind(ReplayScreen.board)
        with ReplayBox(id="trains-box"):
            yield TrainRows(id="trains").data_bind(ReplayScreen.board)
        yield OpenHands(id="open-hands").data_bind(ReplayScreen.board)
        yield HandTray(id="tray").data_bind(ReplayScreen.board)
        yield Footer(id="footer", compact=True)

    def on_mount(self) -> None:
        self._show()

    @property
    def state(self) -> GameState:
        return self.states[self.step]

    def seat_view(self):
        """The view of the seat to move, with every hand and every drawn tile revealed."""
        state = self.state
        seat = state.turn if state.turn < state.players else 0
        v = view(state, seat)
        return v.model_copy(update={"hands": state.hands, "events": state.events})

    def _show(self) -> None:
        self.board = B.build(self.seat_view(), self.names, self.kinds)
        state = self.state
        last = len(self.states) - 1
        what = describe(self.events[self.step], self.names)
        end = " · game over" if state.over else ""
        self.query_one("#replay-status", Static).update(
            f"[b]Replay[/] {escape(self.game.name or (self.game.path.name if self.game.path else ''))}"
            f" · round {state.round} of {state.rules.round_count} · step {self.step} of {last}{end}\n"
            f"{escape(what)}"
        )

    def watch_step(self, step: int) -> None:
        self._show()

    # -- keys -----------------------------------------------------------------------------------
    def action_step(self, delta: int) -> None:
        self.step = max(0, min(len(self.states) - 1, self.step + delta))

    def action_goto(self, index: int) -> None:
        self.step = index % len(self.states)

    def _round_of(self, i: int) -> int:
        return len(self.states[i].results)

    def action_round(self, delta: int) -> None:
        """PageUp: the start of this round (or of the previous one, if there already);
        PageDown: the start of the next round (or the end)."""
        i = self.step
        here = self._round_of(i)
        starts = [k for k in range(len(self.states)) if k == 0 or self._round_of(k) != self._round_of(k - 1)]
        if delta < 0:
            earlier = [k for k in starts if k < i]
            self.step = earlier[-1] if earlier else 0
        else:
            later = [k for k in starts if k > i and self._round_of(k) != here]
            self.step = later[0] if later else len(self.states) - 1

    def action_scores(self) -> None:
        self.app.push_screen(ScoreScreen(self.seat_view(), self.names))

    def action_close(self) -> None:
        self.dismiss(None)
