"""Computer players: each gets a seat's view (never the full state) and returns an action."""

from __future__ import annotations

from collections.abc import Callable

from .base import Player, RandomPlayer

#: Level name -> factory taking a seed. Later levels register here.
LEVELS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
}


def make_player(level: str, seed: int = 0) -> Player:
    """A computer player of ``level`` seeded with ``seed``."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}") from None
    return factory(seed)


__all__ = ["LEVELS", "Player", "RandomPlayer", "make_player"]
