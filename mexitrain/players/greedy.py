"""Level 2, greedy: the legal tile with the most pips (docs/rules.md §1 pips)."""

from __future__ import annotations

from ..rules import MEXICAN, Action, SeatView, view_legal_actions
from ..rules.tiles import placement_lookup, tile


def greedy_action(legal, view: SeatView | None = None) -> Action:
    """The heaviest play. Ties (the same tile on several trains, or tiles of equal pips) go,
    in order, to a double the seat can follow up, to a play on the seat's own train when it
    carries a marker (which that play removes), to the play after which most tiles left in
    the hand fit the end of the seat's own train (its private end: the opponents rarely
    change it, unlike the Mexican Train's), then to the play after which most tiles left fit
    any end the seat may play on, then to a play off an opponent's marked train (its end is
    one its owner could not match when marking it, docs/rules.md §9: leave it there), then to the
    first in the engine's stable order. With no play: the forced draw, marker or pass."""
    best = None
    best_key = None
    plays = [a for a in legal if a.type == "play"]
    ends: dict = {}
    own: set = set()
    if view is not None and len(plays) > 1:
        n, seat = view.players, view.seat
        team = {seat, view.rules.partner(seat, n)} - {None}
        for ti, train in enumerate(view.trains):
            if train.owner is None or train.marker or train.owner in team:
                for li in range(len(train.lines)):
                    ends[(ti, li)] = train.end(li)
                    if train.owner in team:
                        own.add((ti, li))
    for a in plays:
        x, y = a.tile
        key: tuple = (x + y, x == y)
        if ends:
            t = tile(x, y)
            ti = view.players if a.train == MEXICAN else a.train
            unmark = ti == view.seat and view.trains[ti].marker
            after = dict(ends)
            after[(ti, a.branch)] = y
            wild = view.rules.blanks_wild
            tables = [placement_lookup(e, wild) for e in set(after.values())]
            own_tables = [placement_lookup(e, wild) for e in {after[k] for k in own}]
            fits = [u for u in view.hand if u != t and any(u in tb for tb in tables)]
            own_fits = sum(1 for u in fits if any(u in tb for tb in own_tables))
            followable = x != y or any(u[0] != u[1] for u in fits)
            owner = view.trains[ti].owner
            theirs = owner is not None and owner not in team and view.trains[ti].marker
            key = (x + y, x == y and followable, unmark, own_fits, len(fits), not theirs)
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
        return greedy_action(view_legal_actions(view), view)

    def choose_move(self, view) -> int:
        """The same choice from the compact view (a ``CompactView``), as its move."""
        seen = view.seen
        return seen.move_of(greedy_action(seen.legal_actions(), seen))
