"""Computer players: each gets a seat's view (never the full state) and returns an action.

Levels, weakest first: ``random``, ``greedy`` (most pips), ``planner`` (plans its own train,
docs/rules.md §9) and ``expert`` (determinized Monte Carlo with the planner as rollout policy,
its rollouts cut short by a learned value at two players).

:data:`COMPILED` is True when the expert's rollout policy (``HOT``: ``playout``) runs compiled
(setup.py, ``MEXITRAIN_COMPILE=1``, beside the rules core): the same choices either way.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules.core import compiled
from .base import Player, RandomPlayer
from .expert import ExpertPlayer, FullExpertPlayer
from .greedy import GreedyPlayer
from .planner import PlannerPlayer

# the modules setup.py compiles when asked (MEXITRAIN_COMPILE=1), beside the rules core's
HOT = ("playout",)
COMPILED: bool = compiled(__name__, HOT)

#: Level name -> factory taking a seed.
LEVELS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "planner": PlannerPlayer,
    "expert": ExpertPlayer,
}


#: Levels a tournament or a simulation may also seat, never offered at a table: a level as it
#: played before a change of its play, so that the games kept of it replay (``expert-full``:
#: the expert before its rollouts were cut at two players, issue #36).
KEPT_LEVELS: dict[str, Callable[[int], Player]] = {
    "expert-full": FullExpertPlayer,
}


def make_player(level: str, seed: int = 0) -> Player:
    """A computer player of ``level`` (of :data:`LEVELS` or :data:`KEPT_LEVELS`) seeded with ``seed``."""
    factory = LEVELS.get(level) or KEPT_LEVELS.get(level)
    if factory is None:
        raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")
    return factory(seed)


__all__ = [
    "COMPILED", "HOT", "KEPT_LEVELS", "LEVELS", "ExpertPlayer", "FullExpertPlayer", "GreedyPlayer", "PlannerPlayer",
    "Player", "RandomPlayer",
    "make_player",
]
