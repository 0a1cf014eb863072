"""Undo: take back a seat's last decision, and every move made after it (pure, no I/O).

The rule (docs/saves.md, "Undo"):

- ``undo(state, seat)`` returns the snapshot from just before ``seat``'s last *decision* in
  the current round: the last action it chose when it had more than one legal action. Every
  move after it (computer players' moves, and forced moves of ``seat`` such as a draw's
  follow-up) is taken back with it. Undo again to go further back.
- It never goes back past a tile ``seat`` drew: if ``seat`` drew since that point, undoing
  would let it choose again knowing a hidden tile, so undo is refused.
- It never goes back into a previous round (the round's deal and score are settled).
- With ``humans`` (the other people at the table), it never takes back another person's move.

The earlier snapshot is rebuilt by replaying the round's events from its start through the
rules engine, so it is equal (``==``) to the snapshot the game had at that point. A refusal
raises :class:`UndoRefused` with a reason code and its values (data, no sentence);
:func:`undo_plan` also says which move undo takes back. The words are in
:mod:`mexitrain.text.refusals` (``undo_text``, ``undo_refused_text``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from . import cache
from .actions import event_action
from .engine import apply, legal_actions, new_game, replay
from .errors import CodedError, IllegalAction
from .state import Event, GameState

#: Reason codes of :class:`UndoRefused`: the game is over, nothing to undo yet, nothing in this
#: round (never back into an earlier one), the seat drew since (``tile``), another person moved
#: since (``seats``), the position does not replay (``why``, one of :data:`NOT_REPLAYABLE`).
UNDO_CODES = ("game_over", "nothing_yet", "round_start", "drew", "other_player", "not_replayable")

#: Why a position does not replay (the ``why`` of ``not_replayable``): the finished rounds
#: replay to other results; event ``event`` (from 1) is out of turn, or refused by the rules
#: (``reason``, the IllegalAction); the round's events replay to another position.
NOT_REPLAYABLE = ("finished_rounds", "out_of_turn", "illegal_move", "other_position")


class UndoRefused(CodedError):
    """Undo is not possible now. ``code`` is one of :data:`UNDO_CODES`, ``values`` its data;
    ``str()`` is the developer line (``drew (tile=3-4)``)."""


def _refuse(code: str, **values: object) -> UndoRefused:
    return UndoRefused(code, **values)


# The start of the last round rebuilt, keyed by what it is rebuilt from.
_ROUND_START = cache.recent("undo.round_start", 1, typed=True)


def round_start(state: GameState) -> GameState:
    """The snapshot at the start of ``state``'s current round (after the deal and anything
    the rules do without a choice), rebuilt by replaying the finished rounds."""
    if not state.results:
        return new_game(state.rules, players=state.players, seed=state.seed)
    key = (state.results, state.seed, state.rules, state.players)
    cached = _ROUND_START.get(key)
    if cached is not None:
        return cached
    start = new_game(state.rules, players=state.players, seed=state.seed)
    for _event, after in replay(start, [e for r in state.results for e in r.events]):
        start = after
    if start.results != state.results or start.round != state.round:
        raise _refuse("not_replayable", why="finished_rounds")
    return _ROUND_START.put(key, start)


@dataclass(frozen=True)
class UndoPlan:
    """What undo takes back: the event at ``index`` with every later one (``later`` of them),
    and the snapshot ``before`` it."""

    index: int
    event: Event
    later: int
    before: GameState


def undo_plan(state: GameState, seat: int, humans: Collection[int] = ()) -> UndoPlan:
    """What :func:`undo` would take back, or :class:`UndoRefused` (see the module docstring):
    the round's history rebuilt from ``state`` (a replay), then read as the game reads it."""
    if state.over:
        raise _refuse("game_over")
    if not any(e.seat == seat for e in state.events):
        raise _refuse("round_start" if state.round > 1 else "nothing_yet")
    return History.rebuild(state).plan(seat, humans)


@dataclass(frozen=True)
class Entry:
    """One action of the round in the history: the snapshot before it, and whether it was a
    choice of its seat (more than one legal action)."""

    before: GameState
    choice: bool


class History:
    """This round's snapshots as a stack, the way python-chess keeps its moves: each action
    applied pushes the snapshot before it (:meth:`push`), undo pops back to one of them
    (:meth:`pop`), and what undo would take back is read off the stack (:meth:`plan`),
    without replaying the round. ``top`` is the snapshot the stack leads to: the game's
    source keeps it equal to its own (a game loaded from a file, or anything the stack did
    not see, is rebuilt once with :meth:`rebuild`)."""

    __slots__ = ("entries", "top")

    def __init__(self, top: GameState, entries: list[Entry] | None = None) -> None:
        self.top = top
        self.entries: list[Entry] = [] if entries is None else entries

    @classmethod
    def rebuild(cls, state: GameState) -> History:
        """The history of ``state``'s round, replayed once from the round's start; refuses
        (:class:`UndoRefused` ``not_replayable``) a position that does not replay to itself."""
        if state.over:
            return cls(state)
        try:
            current = round_start(state)
        except IllegalAction as exc:
            raise _refuse("not_replayable", why="finished_rounds", reason=exc) from None
        entries: list[Entry] = []
        for i, event in enumerate(state.events):
            if event.seat != current.turn:
                raise _refuse("not_replayable", why="out_of_turn", event=i + 1)
            try:
                after = apply(current, event_action(event))
            except IllegalAction as exc:
                raise _refuse("not_replayable", why="illegal_move", event=i + 1, reason=exc) from None
            entries.append(Entry(current, len(legal_actions(current)) > 1))
            current = after
        if current != state:
            raise _refuse("not_replayable", why="other_position")
        return cls(state, entries)

    def push(self, before: GameState, after: GameState) -> None:
        """``after`` followed ``before`` by one action: a new entry, or a new round's empty
        stack (never back into an earlier round)."""
        if after.round != before.round or len(after.results) != len(before.results):
            self.entries = []
        else:
            # legal_actions of ``before`` were worked out for its view: the core keeps them
            self.entries.append(Entry(before, len(legal_actions(before)) > 1))
        self.top = after

    def plan(self, seat: int, humans: Collection[int] = ()) -> UndoPlan:
        """What undo of ``seat``'s last decision would take back, or :class:`UndoRefused`
        (the rules of the module docstring), read off the stack."""
        state = self.top
        if state.over:
            raise _refuse("game_over")
        events = state.events
        choices = [i for i, e in enumerate(self.entries) if e.choice and events[i].seat == seat]
        if not choices:
            raise _refuse("round_start" if state.round > 1 else "nothing_yet")
        index = choices[-1]
        drawn = [e for e in events[index:] if e.seat == seat and e.type == "draw"]
        if drawn:
            raise _refuse("drew", tile=drawn[0].tile)
        others = sorted({e.seat for e in events[index:] if e.seat != seat and e.seat in humans})
        if others:
            raise _refuse("other_player", seats=tuple(others))
        return UndoPlan(index, events[index], len(events) - index - 1, self.entries[index].before)

    def pop(self, plan: UndoPlan) -> GameState:
        """Take the stack back to ``plan``'s snapshot and return it."""
        del self.entries[plan.index :]
        self.top = plan.before
        return plan.before


def undo_answer(state: GameState, seat: int, humans: Collection[int] = ()) -> UndoPlan | UndoRefused:
    """:func:`undo_plan`'s plan, or its refusal returned rather than raised (for words:
    :func:`mexitrain.text.refusals.undo_text`)."""
    try:
        return undo_plan(state, seat, humans)
    except UndoRefused as exc:
        return exc


def undo(state: GameState, seat: int, humans: Collection[int] = ()) -> GameState:
    """The snapshot before ``seat``'s last decision this round (see the module docstring).

    ``humans``: the other seats played by people, whose moves undo must not take back.
    Raises :class:`UndoRefused` (a code and its values) when it cannot.
    """
    return undo_plan(state, seat, humans).before


__all__ = [
    "NOT_REPLAYABLE", "UNDO_CODES", "Entry", "History", "UndoPlan", "UndoRefused", "round_start", "undo", "undo_answer", "undo_plan",
]
