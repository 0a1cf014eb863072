"""End of a round and scoring (docs/rules.md §7; teams §8): the round's result, the next round
or the end of the game and its winners."""

from __future__ import annotations

from ..scoring import first_places
from .compact import Core
from .deal import start_round
from .lookup import GAME_OVER


def mask_total(mask: int, values) -> int:
    """The sum of ``values[i]`` over the tile ids ``i`` set in ``mask`` (a hand, a component)."""
    total = 0
    while mask:
        low = mask & -mask
        total += values[low.bit_length() - 1]
        mask ^= low
    return total


def hand_pips(c: Core, mask: int) -> int:
    """The pips of the tiles in ``mask`` (what a hand scores, §7)."""
    return mask_total(mask, c.tab.pips)


def hand_tiles(c: Core, mask: int) -> tuple[tuple[int, int], ...]:
    """A hand's tiles in the snapshot's order (dealt order, then drawn order)."""
    return ranked_tiles(c.tab, ranks(c), mask)


def ranks(c: Core) -> list[int]:
    """Each tile's position in the round's deal order (``Core.order``), worked out once."""
    rank = c.rank
    if rank is None:
        rank = c.rank = rank_of(c.tab, c.order)
    return rank


def rank_of(tab, order: list[int]) -> list[int]:
    """Per tile id, its position in ``order`` (0 for a tile not in it)."""
    rank = [0] * tab.size
    for pos, i in enumerate(order):
        rank[i] = pos
    return rank


def ranked_tiles(tab, rank: list[int], mask: int) -> tuple[tuple[int, int], ...]:
    """The tiles of ``mask`` in the order of ``rank`` (a round's deal order, see Core)."""
    ids = []
    while mask:
        low = mask & -mask
        ids.append(low.bit_length() - 1)
        mask ^= low
    ids.sort(key=rank.__getitem__)
    return tuple(map(tab.tiles.__getitem__, ids))


def winners(c: Core) -> tuple[int, ...]:
    """Seats of every side in first place (§7, shared when still tied)."""
    tab = c.tab
    sides = tab.sides
    per_side = [[sum(r[s] for s in side) for r in c.round_scores] for side in sides]
    return tuple(sorted(s for i in first_places(per_side) for s in sides[i]))


def game_winners(c: Core) -> tuple[int, ...]:
    """The seats that won the game (:func:`winners`, worked out once, when first asked at
    its end), or ``()`` while it goes on."""
    w = c.winners
    if w is None:
        w = c.winners = winners(c)
    return w


def end_round(c: Core, end: str, out_seat: int | None) -> None:
    """Score the round (§7), then deal the next one or end the game (not settled). The
    round's result is a compact tuple: its leftovers are the hands' masks with the round's
    deal order (``Core.order``) (``snapshot._result`` makes them tiles, only when a snapshot needs them)."""
    tab = c.tab
    hands = tuple(c.hands)
    scores = [hand_pips(c, h) for h in hands]
    if out_seat is not None:  # the seat out, and any other with no tile left (§8 simultaneous)
        for out in range(tab.n):
            if out == out_seat or not c.hands[out]:
                for s in tab.team[out]:
                    scores[s] = 0
    scores_t = tuple(scores)
    # copy on write (like the other lists a copy of the core shares, see Core.copy)
    c.results = c.results + [
        (
            c.round, c.engine, c.engine_seat, c.first_seat, c.dealt_hands, c.dealt_boneyard,
            tuple(c.events), end, out_seat, (hands, c.order), scores_t,  # leftovers: masks
        )
    ]
    c.round_scores = c.round_scores + [scores_t]
    c.plays_cache = None
    if len(c.results) >= tab.round_count:
        c.phase = GAME_OVER
        c.over = True
        c.drawn = -1
        c.winners = None  # worked out when asked (game_winners): a rollout never asks
        return
    start_round(c, c.round + 1)
