"""The computer-player protocol: a seat's view in, an action out.

Two entry points: ``choose(SeatView) -> Action`` (the UI, hints, every level), and, for the
levels that have it, ``choose_move(CompactView) -> int``: the same choice from the compact
seat view of the rules core (:mod:`mexitrain.rules.core.seat`), as a move of
``view.legal()``. ``simulate`` and ``tournament`` play the core in place and use it when a
player has it (:func:`core_move`); a player without it is handed a ``SeatView``.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..rules import Action, SeatView, view, view_legal_actions
from ..rules.core import Core, check, to_state
from ..rules.core.seat import CompactView, seat_view


class Player(Protocol):
    """A computer player. It sees only ``SeatView`` and must be deterministic for its seed."""

    name: str

    def choose(self, view: SeatView) -> Action: ...


def core_move(player, c: Core) -> int:
    """The move ``player`` makes for the seat to move in ``c`` (``c`` is not changed): from
    its compact view when the player has ``choose_move``, else from the ``SeatView`` of the
    position's snapshot (the action checked against the rules)."""
    seat = c.turn
    fast = getattr(player, "choose_move", None)
    if fast is not None:
        return fast(seat_view(c, seat))
    return check(c, player.choose(view(to_state(c), seat)))


class RandomPlayer:
    """Level 1: a uniformly random legal action (the baseline)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"random-player:{seed}")

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view_legal_actions(view))

    def choose_move(self, view: CompactView) -> int:
        """The same draw of the generator over the same legal moves, from the compact view."""
        return self.rng.choice(view.legal())
