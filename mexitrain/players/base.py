"""The computer-player protocol: a seat's view in, an action out.

Three entry points: ``choose(SeatView) -> Action`` (the UI, hints, every level), and, for the
levels that have it, ``choose_move(CompactView) -> int``: the same choice from the compact
seat view of the rules core (:mod:`mexitrain.rules.core.seat`), as a move of
``view.legal()``; a level that needs nothing but the legal moves (the random level) has
``choose_among(moves) -> int``: it is handed the list of the seat's legal moves (the core's
ints, in ``legal_actions``'s order), nothing else, and picks one. ``simulate`` and
``tournament`` play the core in place and use the narrowest one a player has
(:func:`core_chooser`, :func:`core_move`); a player with neither fast path is handed a
``SeatView``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..rules import Action, SeatView, view, view_legal_actions
from ..rules.core import Core, check, legal, to_state
from ..rules.core.seat import CompactView, seat_view


class Player(Protocol):
    """A computer player. It sees only ``SeatView`` and must be deterministic for its seed."""

    name: str

    def choose(self, view: SeatView) -> Action: ...


def core_chooser(player) -> Callable[[Core], int]:
    """How ``player`` makes the move of the seat to move in a core (``c`` is not changed),
    the path resolved once: ``choose_among(legal(c))`` when the player has it (the legal
    moves alone: no other fact of the position, so no hidden tile), else ``choose_move`` on
    the seat's compact view, else ``choose`` on the ``SeatView`` of the position's snapshot
    (the action checked against the rules)."""
    among = getattr(player, "choose_among", None)
    if among is not None:
        fused = getattr(among, "over_legal", None)  # choice_of's draw over legal(c) itself
        if fused is not None:
            return fused
        return lambda c: among(legal(c))
    fast = getattr(player, "choose_move", None)
    if fast is not None:
        return lambda c: fast(seat_view(c, c.turn))
    return lambda c: check(c, player.choose(view(to_state(c), c.turn)))


def core_move(player, c: Core) -> int:
    """The move ``player`` makes for the seat to move in ``c`` (see :func:`core_chooser`;
    a loop over many moves resolves the chooser once per player instead)."""
    return core_chooser(player)(c)


def choice_of(rng: random.Random) -> Callable[[list], object]:
    """``rng.choice``, the same draws from the same generator (``Random.choice`` is
    ``seq[_randbelow(len(seq))]`` by ``getrandbits`` of ``len(seq).bit_length()`` bits until
    one is below ``len(seq)``: CPython 3.9 to 3.13), without its two Python frames; a test
    holds it to ``rng.choice``. A subclass of Random with another ``choice`` keeps its own."""
    if type(rng).choice is not random.Random.choice or type(rng)._randbelow is not (
        random.Random._randbelow_with_getrandbits
    ):
        return rng.choice
    getrandbits = rng.getrandbits

    def choice(seq):
        n = len(seq)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return seq[r]

    def over_legal(c: Core) -> int:
        """``choice(legal(c))`` in one frame: the same draw over the seat's legal moves
        (what :func:`core_chooser` hands a player of ``choose_among``, nothing more)."""
        seq = legal(c)
        n = len(seq)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return seq[r]

    choice.over_legal = over_legal  # type: ignore[attr-defined]
    return choice


class RandomPlayer:
    """Level 1: a uniformly random legal action (the baseline)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"random-player:{seed}")
        # choose_among(moves): the generator's draw over the legal moves, bound once (the
        # fastest path of simulate: no view is built for a player that reads nothing else)
        self.choose_among = choice_of(self.rng)

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view_legal_actions(view))

    choose_among: Callable[[list[int]], int]

    def choose_move(self, view: CompactView) -> int:
        """The same draw of the generator over the same legal moves, from the compact view."""
        return self.rng.choice(view.legal())
