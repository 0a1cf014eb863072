"""The computer-player protocol: a seat's view in, an action out."""

from __future__ import annotations

import random
from typing import Protocol

from ..rules import Action, SeatView, view_legal_actions


class Player(Protocol):
    """A computer player. It sees only ``SeatView`` and must be deterministic for its seed."""

    name: str

    def choose(self, view: SeatView) -> Action: ...


class RandomPlayer:
    """Level 1: a uniformly random legal action (the baseline)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"random-player:{seed}")

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view_legal_actions(view))
