"""Level 2, greedy: the legal tile with the most pips (RULES.md §1 pips)."""

from __future__ import annotations

from ..rules import Action, SeatView, view_legal_actions


def greedy_action(legal) -> Action:
    """The heaviest play (ties: the first in the engine's stable order, a double first);
    with no play, the forced draw, marker or pass."""
    best = None
    best_key = None
    for a in legal:
        if a.type != "play":
            continue
        x, y = a.tile
        key = (x + y, x == y)
        if best_key is None or key > best_key:
            best, best_key = a, key
    if best is not None:
        return best
    for kind in ("draw", "mark", "pass", "skip"):
        for a in legal:
            if a.type == kind:
                return a
    return legal[0]


class GreedyPlayer:
    """Level 2: plays the legal tile with the most pips; draws or marks when forced."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # deterministic: the seed is unused

    def choose(self, view: SeatView) -> Action:
        return greedy_action(view_legal_actions(view))
