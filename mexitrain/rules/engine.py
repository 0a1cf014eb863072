"""The public reducer: ``new_game``, ``legal_actions`` and ``apply`` (docs/rules.md §2-§8).

A thin layer over the compact core (:mod:`mexitrain.rules.core`), where the rules live once:
dealing, legal moves, refusals, the step, round end and scoring. Each snapshot the reducer
returns keeps privately the core it was built from (see :func:`core_of`), so the next
``apply`` starts from the core, not from the pydantic form: it checks the action, copies
that core, steps the copy and returns the new snapshot, whose fields but its turn and phase
(hands, trains, events, results, ...) are built on their first read, reusing what did not change from the previous
snapshot (see :class:`~mexitrain.rules.state.GameState`).

Everything here is a pure function of its arguments: the deal's randomness comes from the
game's seed through a private ``random.Random``, never from the global generator.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from . import core as _core
from .actions import Action, Draw, Mark, Pass, Play, Skip, event_action
from .core.lookup import GAME_OVER, lookup
from .core.snapshot import after, to_state
from .ruleset import RuleSet
from .state import Event, GameState, attach_core, attached_core

deal = _core.deal  # (rules, players, seed, number) -> (engine or None, hands, boneyard)

_ACTIONS = (Play, Draw, Mark, Pass, Skip)
_actions, _legal, _check, _step = _core.actions, _core.legal, _core.check, _core.step


def core_of(state: GameState) -> _core.Core:
    """The core of ``state``: the one it was built from, or (for a snapshot made another way:
    validated, copied, unpickled, ``model_copy``) read back from it once and kept. Shared:
    never change it in place (``copy()`` it)."""
    c = attached_core(state)
    if c is None:
        c = _core.from_state(state)
        attach_core(state, c)
    return c


def _snapshot(c: _core.Core, prev: GameState | None = None, before=None) -> GameState:
    state = to_state(c, prev, before)
    attach_core(state, c)
    return state


def new_game(rules: RuleSet | None = None, players: int = 4, seed: int = 0) -> GameState:
    """The snapshot at the start of round 1. Refuses impossible tables (RuleSetError)."""
    return _snapshot(_core.new_game(rules, players=players, seed=seed))


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the seat to move may take now, in a stable order."""
    c = attached_core(state)
    if c is None:
        c = core_of(state)
    return _actions(c, _legal(c))


def apply(state: GameState, action: Action) -> GameState:
    """The snapshot after ``action``; raises :class:`IllegalAction` (state untouched) if illegal."""
    before = attached_core(state)
    if before is None:
        before = core_of(state)
    if (
        before.phase != GAME_OVER
        and action.__class__ not in _ACTIONS
        and not isinstance(action, _ACTIONS)
    ):
        raise TypeError(f"not an action: {action!r}")
    m = _check(before, action)
    c = before.copy()
    _step(c, m)
    return after(c, state, before)


def swan_order(state: GameState, seat: int) -> list[int]:
    """Train indices in clockwise order after ``seat``'s own (§8 swan_drive).

    The Mexican Train sits just after the seat of the player who started it; before it is
    started it is not in the order.
    """
    return list(lookup(state.rules, state.players).swan_order(seat, state.mexican_starter))


def replay(state: GameState, events: Iterable[Event]) -> Iterator[tuple[Event, GameState]]:
    """Each event played in turn from ``state``: (the event, the snapshot after it).
    Raises :class:`IllegalAction` at the first event the rules refuse."""
    for event in events:
        state = apply(state, event_action(event))
        yield event, state
