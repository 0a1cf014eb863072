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
raises :class:`UndoRefused` with a reason code and a one-line message;
:func:`can_undo` answers the same question without raising, for a footer or a key hint.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .actions import DRAW, MARK, PASS, SKIP, Action, Play
from .engine import apply, legal_actions, new_game
from .errors import IllegalAction
from .state import Event, GameState
from .tiles import fmt

#: Reason codes of :class:`UndoRefused`, with their message templates.
UNDO_REASONS: dict[str, str] = {
    "game_over": "the game is over",
    "nothing_yet": "nothing to undo yet",
    "round_start": "nothing to undo in this round: undo never goes back into an earlier round",
    "drew": "you drew {tile} since then: undoing would reveal a hidden tile",
    "other_player": "{who} has moved since then: undoing would take back their move too",
    "not_replayable": "this game cannot be rebuilt from its moves ({why})",
}


class UndoRefused(Exception):
    """Undo is not possible now. ``code`` is a key of :data:`UNDO_REASONS`; ``str()`` the reason."""

    def __init__(self, code: str, message: str, values: dict | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.values = dict(values or {})  # data for a message in the player's language


def _refuse(code: str, **values: object) -> UndoRefused:
    return UndoRefused(code, UNDO_REASONS[code].format(**values), values)


_SIMPLE: dict[str, Action] = {"draw": DRAW, "mark": MARK, "pass": PASS, "skip": SKIP}


def event_action(event: Event) -> Action:
    """The action that produced ``event``."""
    if event.type == "play":
        return Play(tile=event.tile, train=event.train, branch=event.branch)
    return _SIMPLE[event.type]


# The start of the last round rebuilt, keyed by the identity of the finished rounds' tuple,
# which every snapshot of a round shares (the cache holds it, so the identity stays valid).
_ROUND_START: tuple[object, GameState | None] = (None, None)


def round_start(state: GameState) -> GameState:
    """The snapshot at the start of ``state``'s current round (after the deal and anything
    the rules do without a choice), rebuilt by replaying the finished rounds."""
    global _ROUND_START
    if not state.results:
        return new_game(state.rules, players=state.players, seed=state.seed)
    key, cached = _ROUND_START
    if (
        key is state.results
        and cached is not None
        and cached.seed == state.seed
        and cached.rules == state.rules
        and cached.players == state.players
    ):
        return cached
    start = new_game(state.rules, players=state.players, seed=state.seed)
    for result in state.results:
        for event in result.events:
            start = apply(start, event_action(event))
    if start.results != state.results or start.round != state.round:
        raise _refuse("not_replayable", why="the finished rounds do not replay")
    _ROUND_START = (state.results, start)
    return start


@dataclass(frozen=True)
class _Plan:
    index: int  # the event to take back, with every later one
    before: GameState  # the snapshot before it


def _plan(state: GameState, seat: int, humans: Collection[int]) -> _Plan:
    if state.over:
        raise _refuse("game_over")
    events = state.events
    mine = [i for i, e in enumerate(events) if e.seat == seat]
    if not mine:
        raise _refuse("round_start" if state.round > 1 else "nothing_yet")
    try:
        current = round_start(state)
    except IllegalAction as exc:
        raise _refuse("not_replayable", why=str(exc)) from None
    choices: list[tuple[int, GameState]] = []  # (event index, snapshot before it)
    try:
        for i, event in enumerate(events):
            if event.seat != current.turn:
                raise _refuse("not_replayable", why=f"event {i + 1} is out of turn")
            if event.seat == seat and len(legal_actions(current)) > 1:
                choices.append((i, current))
            current = apply(current, event_action(event))
    except IllegalAction as exc:
        raise _refuse("not_replayable", why=str(exc)) from None
    if current != state:
        raise _refuse("not_replayable", why="replaying the round gives another position")
    if not choices:
        raise _refuse("round_start" if state.round > 1 else "nothing_yet")
    index, before = choices[-1]
    drawn = [e for e in events[index:] if e.seat == seat and e.type == "draw"]
    if drawn:
        raise _refuse("drew", tile=fmt(drawn[0].tile))
    others = sorted({e.seat for e in events[index:] if e.seat != seat and e.seat in humans})
    if others:
        who = " and ".join(f"the player in seat {s + 1}" for s in others)
        exc = _refuse("other_player", who=who)
        exc.values["seats"] = tuple(others)
        raise exc
    return _Plan(index, before)


def undo(state: GameState, seat: int, humans: Collection[int] = ()) -> GameState:
    """The snapshot before ``seat``'s last decision this round (see the module docstring).

    ``humans``: the other seats played by people, whose moves undo must not take back.
    Raises :class:`UndoRefused` (with ``code`` and a one-line message) when it cannot.
    """
    return _plan(state, seat, humans).before


def can_undo(state: GameState, seat: int, humans: Collection[int] = ()) -> tuple[bool, str]:
    """``(True, what undo would take back)`` or ``(False, why not)``: one line each."""
    try:
        plan = _plan(state, seat, humans)
    except UndoRefused as exc:
        return False, exc.message
    event = state.events[plan.index]
    others = len(state.events) - plan.index - 1
    what = _describe(event)
    if others:
        what += f" and {others} move{'s' if others != 1 else ''} after it"
    return True, f"undo {what}"


def _describe(event: Event) -> str:
    if event.type == "play":
        where = "the Mexican Train" if event.train == "mexican" else (
            "your train" if event.train == event.seat else f"seat {event.train + 1}'s train"
        )
        return f"your play {fmt(event.tile)} on {where}"
    return {"pass": "your pass", "skip": "your skip", "mark": "your marker", "draw": "your draw"}[
        event.type
    ]


__all__ = ["UNDO_REASONS", "UndoRefused", "can_undo", "event_action", "round_start", "undo"]
