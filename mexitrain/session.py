"""The game being played at this terminal, as plain Python (no Textual here).

The session holds the snapshot and the seats (names, kinds, the computer players), knows which
seat is on screen, whether a hand-off or the round's results are due, who knocked, which move
is forced, whether undo is possible and why, and which notices speak to one seat about its own
hidden tiles. Its methods return what the interface should do (data: notices, steps, states);
the Textual app (:mod:`mexitrain.ui.app`) shows it, runs the computer players in a worker and
hands every new snapshot back through :meth:`Session.moved`.

A key press becomes a move like this: the game screen posts an action, the app asks
:meth:`Session.apply` for the next snapshot, sets it, passes it to :meth:`Session.moved` (knock
notices, the next seat shown) and then asks :meth:`Session.next_step` what comes next (a
result screen, a hand-off, a forced move, a computer's turn, or the person's move).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal

from .game_setup import PLAY_STRIDE, GameSetup, seat_seed
from .i18n import _
from .players import LEVELS, make_player
from .rules import Action, GameState, IllegalAction, SeatView, apply, new_game, view
from .rules.undo import History, UndoPlan, UndoRefused
from .text.basics import level_name
from .text.names import printable
from .text.refusals import reason_text, undo_text

Severity = Literal["information", "warning", "error"]


@dataclass(frozen=True)
class Notice:
    """A passing notice about the play (a knock, a turn that ended by itself, a refused move,
    an undo). ``seat``: it speaks to that seat about its own hand ("You drew 4-7…") and must
    go as soon as another seat is on screen (:meth:`Session.withdraw`)."""

    text: str
    title: str = ""
    severity: Severity = "information"
    timeout: float = 5
    seat: int | None = None


def forced_notice(drawn: tuple[int, int] | None, action: Action, seat: int | None = None) -> Notice:
    """What a move made by itself for a person says: the marker or pass after ``drawn`` (the
    tile drawn this turn, which did not fit) or after nothing was left to play or draw."""
    if drawn:
        if action.type == "mark":
            text = _("You drew {tile}, which cannot be played: your turn ends with a marker.")
        else:
            text = _("You drew {tile}, which cannot be played: your turn ends (pass).")
        text = text.format(tile=f"{drawn[0]}-{drawn[1]}")
    elif action.type == "mark":
        text = _("Nothing can be played and the boneyard is empty: your turn ends with a marker.")
    else:
        text = _("Nothing can be played and the boneyard is empty: your turn ends (pass).")
    return Notice(text, _("No move left"), timeout=5, seat=seat)


@dataclass(frozen=True)
class Step:
    """What comes next, from :meth:`Session.next_step`.

    ``kind``: "round_over" (show the round's results), "game_over" (the final results),
    "handoff" (pass the keyboard to ``seat``; ``text`` says the round), "forced" (``action``,
    the only move left, a marker or a pass, to apply by itself) or "computer" (``seat``'s
    computer player is to move)."""

    kind: Literal["round_over", "game_over", "handoff", "forced", "computer"]
    seat: int = 0
    action: Action | None = None
    text: str = ""


@dataclass(frozen=True)
class Applied:
    """The outcome of :meth:`Session.apply`: the next snapshot (None: refused) and what to say."""

    state: GameState | None
    notice: Notice | None = None


@dataclass(frozen=True)
class Moved:
    """The outcome of :meth:`Session.moved`: the private notices to withdraw (the objects
    given to :meth:`Session.note_private`), then the notices to show."""

    withdrawn: list[object]
    notices: list[Notice]


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


class Session:
    """One game at one terminal: the snapshot, the seats and what the interface shows next."""

    def __init__(self, setup: GameSetup | None = None) -> None:
        self.setup = setup
        #: the full snapshot of the game being played (None: no game)
        self.state: GameState | None = None
        self.names: tuple[str, ...] = ()
        self.kinds: tuple[str, ...] = ()
        #: the computer players by seat (``choose(view) -> Action``)
        self.players: dict[int, object] = {}
        #: the seat whose hand is on screen (the person to play, or the last one who did)
        self.shown_seat = 0
        #: indexes of the round's events that were applied by themselves (forced moves)
        self.auto_events: set[int] = set()
        self.handoff_pending = False
        self.round_over_pending = False
        self.game_over_shown = False
        self._undo: tuple[bool, str] | None = None
        self._plan: UndoPlan | UndoRefused | None = None
        #: this round's snapshots, a stack (each action pushes, undo pops: rules.undo.History);
        #: None when it must be rebuilt from the snapshot (a loaded game), once, when asked
        self.history: History | None = None
        self._private: dict[Hashable, tuple[object, int]] = {}
        self._views: dict[tuple[int, int], tuple[GameState, SeatView]] = {}

    # -- start -------------------------------------------------------------------------------------
    def start(self, setup: GameSetup, state: GameState | None = None) -> tuple[GameState, list[str]]:
        """Seat ``setup``'s table: the first snapshot (``state``, or round 1 freshly dealt) and
        one warning per computer player whose level is not available (it plays another).
        The snapshot is not taken yet: hand it to :meth:`moved` once it is shown (the last
        game's snapshot is forgotten: a table of another size follows it, even in round 1)."""
        self.setup = setup
        self.names = tuple(s.name for s in setup.seats)
        self.kinds = tuple(s.kind for s in setup.seats)
        self.players = {}
        warnings = []
        for seat, cfg in enumerate(setup.seats):
            if cfg.is_human:
                continue
            level = cfg.kind if cfg.kind in LEVELS else next(iter(LEVELS))
            if level != cfg.kind:
                warnings.append(
                    _("{name}: level {level} is not available, playing {instead}").format(
                        name=printable(cfg.name), level=level_name(cfg.kind), instead=level_name(level)
                    )
                )
            self.players[seat] = make_player(level, seed=seat_seed(setup.seed, seat, PLAY_STRIDE))
        humans = setup.humans
        self.state = None
        self.shown_seat = humans[0] if humans else 0
        self.auto_events = set()
        self.handoff_pending = len(humans) > 1 and not setup.rules.open_hands
        self.round_over_pending = False
        self.game_over_shown = False
        self._undo = self._plan = None
        first = state if state is not None else new_game(setup.rules, players=len(setup.seats), seed=setup.seed)
        # a fresh deal's history is empty; a game taken up from a file is rebuilt when asked
        self.history = History(first) if state is None else None
        return first, warnings

    def view(self, state: GameState, seat: int | None = None) -> SeatView:
        """What ``seat`` (the seat shown, by default) sees of ``state``, saying whether the
        seed was chosen (the setup's), with the facts the core worked out for it (made once
        per snapshot and seat: the screen, the forced move and undo read the same view)."""
        seat = self.shown_seat if seat is None else seat
        key = (id(state), seat)
        kept = self._views.get(key)
        if kept is not None and kept[0] is state:
            return kept[1]
        chosen = self.setup.seed_chosen if self.setup is not None else False
        made = view(state, seat, chosen)
        if len(self._views) > 8:
            self._views.clear()
        self._views[key] = (state, made)
        return made

    # -- the snapshot moves on ----------------------------------------------------------------------
    def moved(self, new: GameState) -> Moved:
        """Take ``new`` (after the snapshot taken last, none after :meth:`start`): the seat to
        show, the hand-off and results due; what to withdraw (the last person's private notices
        end with their turn) and the knock notices (a seat down to one tile) to show."""
        old, self.state = self.state, new
        withdrawn: list[object] = []
        self._undo = self._plan = None
        if self.history is not None and self.history.top is not new:
            self.history = None  # a snapshot the stack did not see: rebuilt when asked
        if old is None or new.round != old.round or len(new.results) != len(old.results):
            self.auto_events = set()
        if old is not None and len(new.results) > len(old.results):
            self.round_over_pending = True
        if not new.over and self.kinds[new.turn] == "human":
            if new.turn != self.shown_seat:
                assert self.setup is not None
                self.handoff_pending = len(self.setup.humans) > 1 and not new.rules.open_hands
                withdrawn = self.withdraw(keep=new.turn)
            self.shown_seat = new.turn
        return Moved(withdrawn, [self._knock(seat) for seat in knocked(old, self.view(new))])

    def _knock(self, seat: int) -> Notice:
        you = seat == self.shown_seat and self.kinds[seat] == "human"
        return knock_notice(self.names[seat], you, seat)

    def next_step(self) -> Step | None:
        """What comes next, once the game is on screen; None: wait for the person's move.
        A result screen or a hand-off is returned once (it is then no longer due)."""
        state = self.state
        if state is None:
            return None
        if self.round_over_pending:
            self.round_over_pending = False
            return Step("round_over")
        if state.over:
            if self.game_over_shown:
                return None
            self.game_over_shown = True
            return Step("game_over")
        seat = state.turn
        if self.kinds[seat] != "human":
            return Step("computer", seat)
        if self.handoff_pending:
            self.handoff_pending = False
            text = _("Round {number} of {total}").format(number=state.round, total=state.rules.round_count)
            return Step("handoff", seat, text=text)
        action = self.view(state, seat).forced  # the core's fact
        if action is not None:
            return Step("forced", seat, action)
        return None

    def person_to_move(self) -> bool:
        """The seat on screen is a person's and it is their turn (their moves count)."""
        state = self.state
        return (
            state is not None
            and not state.over
            and self.kinds[state.turn] == "human"
            and state.turn == self.shown_seat
        )

    def computer_to_move(self) -> bool:
        """A computer player is to move and no result screen is due first."""
        state = self.state
        return (
            state is not None
            and not state.over
            and bool(self.kinds)
            and self.kinds[state.turn] != "human"
            and not self.round_over_pending
        )

    def you(self) -> int | None:
        """The one person at the table, whom the results address as "you"; None when
        several share the keyboard (the results then name everyone)."""
        return self.shown_seat if list(self.kinds).count("human") == 1 else None

    # -- moves ------------------------------------------------------------------------------------
    def apply(self, action: Action, auto: bool = False) -> Applied:
        """The snapshot after ``action``, or a refusal said to the seat shown. ``auto``: a
        forced move applied by itself, remembered in :attr:`auto_events` and explained to the
        seat whose turn it ended. The snapshot is not taken: hand it to :meth:`moved`."""
        state = self.state
        if state is None:
            return Applied(None)
        try:
            new = apply(state, action)
        except IllegalAction as exc:
            text = reason_text(exc, self.names, self.shown_seat)
            return Applied(None, Notice(text, _("Not allowed"), "warning", seat=self.shown_seat))
        if self.history is not None and self.history.top is state:
            self.history.push(state, new)
        else:
            self.history = None
        if not auto:
            return Applied(new)
        self.auto_events.add(len(state.events))
        return Applied(new, forced_notice(state.drawn, action, seat=state.turn))

    # -- undo -------------------------------------------------------------------------------------
    def undo_state(self) -> tuple[bool, str]:
        """``(possible, what it takes back / why not)`` for the seat shown (cached per snapshot)."""
        if self._undo is None:
            self._undo = self._compute_undo()
        return self._undo

    @property
    def undo_known(self) -> tuple[bool, str] | None:
        """The last :meth:`undo_state` of this snapshot, if it was asked (nothing computed)."""
        return self._undo

    def _compute_undo(self) -> tuple[bool, str]:
        state, setup = self.state, self.setup
        if state is None or setup is None:
            return False, _("no game in progress")
        seat = self.shown_seat
        if not self.kinds or self.kinds[seat] != "human":
            return False, _("no person plays at this terminal")
        if len(setup.humans) > 1 and not setup.undo_with_several:
            return False, _("several people share this terminal: undo was not allowed on the new-game form")
        try:
            if self.history is None or self.history.top is not state:
                self.history = History.rebuild(state)  # once, for a game taken up from a file
            self._plan = self.history.plan(seat, setup.humans)
        except UndoRefused as exc:
            self._plan = exc
        return undo_text(self._plan)

    def undo(self) -> Applied:
        """The snapshot before the seat shown's last decision and what it took back, or why
        not (a warning). The snapshot is not taken: hand it to :meth:`moved`."""
        state, setup = self.state, self.setup
        if state is None or setup is None:
            return Applied(None)
        _ok, why = self.undo_state()
        plan = self._plan  # an UndoPlan exactly when ok (undo_state's answer rebuilt the history)
        if not isinstance(plan, UndoPlan) or self.history is None:
            return Applied(None, Notice(capitalised(why), _("Cannot undo"), "warning", seat=self.shown_seat))
        before = self.history.pop(plan)  # the stack's snapshot: nothing replayed
        self.auto_events = {i for i in self.auto_events if i < len(before.events)}
        done = undo_text(plan, done=True)[1]  # "Undone: …"
        return Applied(before, Notice(done, _("Undone"), timeout=3, seat=self.shown_seat))

    # -- notices about one seat's hidden tiles ------------------------------------------------------
    def note_private(self, key: Hashable, notice: object, seat: int) -> None:
        """``notice`` (the interface's own object, under ``key``) speaks to ``seat`` about its tiles."""
        self._private[key] = (notice, seat)

    def forget_private(self, key: Hashable) -> None:
        self._private.pop(key, None)

    def withdraw(self, keep: int | None = None) -> list[object]:
        """The private notices to take off the screen now: all but those of seat ``keep``."""
        gone = [key for key, (_notice, seat) in self._private.items() if seat != keep]
        return [self._private.pop(key)[0] for key in gone]


def knocked(old: GameState | SeatView | None, new: SeatView) -> list[int]:
    """The seats that went down to one tile from ``old`` (a snapshot or a view) to the view
    ``new`` (a knock, within a round): one move apart, the core's ``knock`` fact; further apart
    (a guest that missed updates), the hand sizes of the two."""
    if old is None or old.round != new.round or new.phase == "game_over":
        return []
    if len(new.events) == len(old.events) + 1:
        return [] if new.knock is None else [new.knock]
    return [
        seat
        for seat, (a, b) in enumerate(zip(old.hand_sizes, new.hand_sizes, strict=True))
        if b == 1 and a > 1
    ]


def knock_notice(name: str, you: bool, seat: int | None = None) -> Notice:
    """A knock: ``you`` for the person on screen (a notice for ``seat`` only), else named."""
    if you:
        return Notice(_("Knock! You have one tile left"), _("Knock"), "warning", 4, seat=seat)
    return Notice(_("Knock! {name} has one tile left").format(name=name), _("Knock"), "warning", 4)

