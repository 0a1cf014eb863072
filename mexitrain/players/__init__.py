"""Computer players: each gets a seat's view (never the full state) and returns an action.

Levels, weakest first: ``random``, ``greedy`` (most pips), ``planner`` (plans its own train,
docs/rules.md §9) and ``expert`` (determinized Monte Carlo with the planner as rollout policy).
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Player, RandomPlayer
from .expert import ExpertPlayer
from .greedy import GreedyPlayer
from .planner import PlannerPlayer

#: Level name -> factory taking a seed.
LEVELS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "planner": PlannerPlayer,
    "expert": ExpertPlayer,
}


def make_player(level: str, seed: int = 0) -> Player:
    """A computer player of ``level`` seeded with ``seed``."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}") from None
    return factory(seed)


__all__ = [
    "LEVELS", "ExpertPlayer", "GreedyPlayer", "PlannerPlayer", "Player", "RandomPlayer",
    "make_player",
]
