"""The replay viewer: a saved game or record, move by move, every hand face up.

The record's events are replayed through the rules engine once, giving one snapshot per step
(step 0 = the first deal, step i = after event i); the game screen's widgets show each step
read-only. ←/→ one move, Home/End the first/last, PageUp/PageDown a round, s the score sheet.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from ...i18n import _
from ...rules import GameState, IllegalAction, new_game, replay, view
from ...rules.state import Event
from ...storage import SavedGame
from ...text.basics import is_you_name
from ...text.events import event_line
from ..board import Board, build
from ..cells import markup
from ..widgets.footer import FittingFooter
from ..widgets.layout import GAME_SIZE, SizeGuard, board_widgets
from .dialogs import ScoreScreen


def snapshots(game: SavedGame) -> tuple[list[GameState], list[Event | None]]:
    """Every snapshot of the game, and the event that led to each (None for the first deal)."""
    final = game.state
    state = new_game(final.rules, players=final.players, seed=final.seed)
    states: list[GameState] = [state]
    events: list[Event | None] = [None]
    try:
        for event, after in replay(state, [e for r in final.results for e in r.events] + list(final.events)):
            states.append(after)
            events.append(event)
    except IllegalAction:  # load_save already refused such a file; stop rather than fail
        pass
    return states, events


def step_line(states: list[GameState], events: list[Event | None], step: int, names: tuple[str, ...],
              viewer: int | None) -> str:
    """Step ``step`` of the replay in words, in the player's language: "the deal", or its event
    as the move log says it (:func:`mexitrain.text.events.event_line`), told to ``viewer`` (the
    seat that is "you", or None: nobody)."""
    event = events[step]
    if event is None:
        return _("the deal")
    after = states[step]
    if len(after.results) == len(states[step - 1].results):
        round_events = after.events
    else:  # the event ended a round: it is the last of that round's events
        round_events = after.results[-1].events
    seat = after.turn if after.turn < after.players else 0
    told = view(after, seat).model_copy(update={"hands": after.hands, "events": round_events})
    return event_line(told, names, len(round_events) - 1, viewer=viewer)


class ReplayScreen(Screen[None]):
    AUTO_FOCUS = None

    BINDINGS = [
        Binding("left,h", "step(-1)", "Step", key_display="←→", tooltip="One move back (→ forward)", id="replay-prev"),
        Binding("right,l", "step(1)", "Forward", show=False, id="replay-next"),
        Binding("home", "goto(0)", "First", key_display="Home/End", tooltip="The first deal / the last move", id="replay-first"),
        Binding("end", "goto(-1)", "Last", show=False, id="replay-last"),
        Binding("pageup", "round(-1)", "Round", key_display="PgUp/Dn", tooltip="The previous / next round", id="replay-round-prev"),
        Binding("pagedown", "round(1)", "Next round", show=False, id="replay-round-next"),
        Binding("s", "scores", "Scores", tooltip="The score sheet at this step", id="replay-scores"),
        Binding("r", "review", "Review", tooltip="Value the people's decisions with the expert's search", id="replay-review"),
        Binding("q,escape", "close", "Close", id="replay-close"),
        # a finished table's game: the chat said at the table (hidden when it has none)
        Binding("c", "chat", "Chat", tooltip="The chat said at the table", id="replay-chat"),
    ]

    board: reactive[Board | None] = reactive(None, repaint=False)
    step: reactive[int] = reactive(0, init=False)

    def __init__(self, game: SavedGame) -> None:
        super().__init__()
        self.game = game
        self.names = tuple(s.name for s in game.setup.seats)
        self.kinds = tuple(s.kind for s in game.setup.seats)
        self.states, self.events = snapshots(game)
        #: the chat kept beside a finished table's game (``<save>.chat.jsonl``), if any
        self.chat = chat_rows(game)
        # "you" is the person who played as "You" (the one human's default name), if anyone
        # did, as in step_line(); never simply the seat to move
        self.you = next((i for i, name in enumerate(self.names) if is_you_name(name)), None)

    def compose(self) -> ComposeResult:
        yield Static("", id="replay-status")
        yield from board_widgets(ReplayScreen.board)
        yield FittingFooter(id="footer", compact=True)
        yield SizeGuard(*GAME_SIZE)

    def on_mount(self) -> None:
        self._show()
        self.query_one(SizeGuard).check()

    def on_resize(self) -> None:
        self.query_one(SizeGuard).check()

    def on_screen_resume(self) -> None:
        self.query_one(SizeGuard).check()

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
        self.board = build(self.seat_view(), self.names, self.kinds, you=self.you)
        state = self.state
        last = len(self.states) - 1
        what = step_line(self.states, self.events, self.step, self.names, self.you)
        end = " · " + _("game over") if state.over else ""
        self.query_one("#replay-status", Static).update(
            markup(  # the game's name and the move (names) as plain text: $variables, never markup
                "[b]" + _("Replay") + "[/] $title · "
                + _("round {number} of {total} · step {step} of {last}").format(
                    number=state.round, total=state.rules.round_count, step=self.step, last=last
                )
                + f"{end}\n$what",
                title=self.game.name or (self.game.path.name if self.game.path else ""),
                what=what,
            )
        )

    def watch_step(self, step: int) -> None:
        self._show()

    # -- keys -----------------------------------------------------------------------------------
    def _go(self, step: int) -> None:
        """Show ``step``; a key that would go past either end says so (never a silent key)."""
        if step == self.step:
            self.notify(_("This is the deal: nothing comes before it.") if step == 0
                        else _("This is the last move: nothing comes after it."), timeout=3)
        self.step = step

    def action_step(self, delta: int) -> None:
        self._go(max(0, min(len(self.states) - 1, self.step + delta)))

    def action_goto(self, index: int) -> None:
        self._go(index % len(self.states))

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
            self._go(earlier[-1] if earlier else 0)
        else:
            later = [k for k in starts if k > i and self._round_of(k) != here]
            self._go(later[0] if later else len(self.states) - 1)

    def action_scores(self) -> None:
        self.app.push_screen(ScoreScreen(self.seat_view(), self.names))

    def action_review(self) -> None:
        from .review import ReviewScreen

        title = self.game.name or (self.game.path.name if self.game.path else "")
        self.app.push_screen(ReviewScreen(self.game.state, self.names, self.kinds, title=title))

    def action_close(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "chat":
            return bool(self.chat)
        return True

    def action_chat(self) -> None:
        from .chat import ChatLogScreen

        if self.chat:
            self.app.push_screen(ChatLogScreen(self.chat, self.game.name or ""))


def chat_rows(game: SavedGame) -> list[tuple[int, str, str, bool]]:
    """The chat kept beside ``game``'s file (a finished table's game in ``saves/``), as
    ``(seat, name, words, reaction)``, reactions in this language; none when there is none."""
    from ...net.files import chat_beside, read_chat
    from ...text.chat import reaction_text

    if game.path is None:
        return []
    return [
        (line.seat, line.name, reaction_text(line.reaction) if line.reaction else line.text or "", line.reaction is not None)
        for line in read_chat(chat_beside(game.path))
    ]
