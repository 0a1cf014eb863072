"""What a seat can infer from the public events of the round, and sampling consistent with it.

Every draw tells the table that the drawing seat could not play: no tile in its hand fitted
the ends it could play on at that moment; a marker placed after a draw adds the drawn tile.
The seat's current hand is what it held then, less what it played since, plus what it drew
since. So a tile that fitted those ends and is still in its hand (or was played later) must
have been drawn afterwards: with ``d`` draws since, at most ``d`` such tiles.

The ends are replayed from the events. Only lines the seat could certainly play on are used
(its own and its partner's train and the Mexican Train; the open doubles when one blocked;
the double owed a follow-up), which keeps every inference true (at worst weaker than it
could be). A blocking double that no tile could satisfy does not block, but then no tile in
any hand fits it either, so "had no tile for it" still holds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules import MEXICAN, GameState, RuleSet, SeatView, determinize
from ..rules.core.deal import shuffle
from ..rules.tiles import placement_lookup, tile

Tile = tuple[int, int]


@dataclass(frozen=True)
class Constraint:
    """Seat ``seat`` held no tile fitting ``ends`` at event ``index`` (non-doubles only when
    ``nondouble``, a double follow-up); ``draws_after`` tiles came to its hand since."""

    seat: int
    index: int
    ends: frozenset[int]
    nondouble: bool
    draws_after: int

    def hits(self, t: Tile, wild: bool) -> bool:
        """Would ``t`` have fitted (so it cannot have been held then)?"""
        if self.nondouble and t[0] == t[1]:
            return False
        return any(t in placement_lookup(e, wild) for e in self.ends)


def constraints(v: SeatView) -> list[Constraint]:
    """Every inference of this round's events about other seats' hands, in event order."""
    n = v.players
    branching = v.rules.branching_doubles
    # per train: list of [open end, last tile is a double]
    lines: list[list[list]] = [[[v.engine, False]] for _ in range(n + 1)]
    raw: list[tuple[int, int, frozenset[int], bool, bool]] = []  # seat, index, ends, nondouble, is_draw
    prev = None
    for k, e in enumerate(v.events):
        if e.type == "play":
            ti = n if e.train == MEXICAN else e.train
            line = lines[ti][e.branch]
            was_double, old_end = line[1], line[0]
            a, b = e.tile
            line[0] = b
            line[1] = a == b
            if branching and was_double:  # a satisfied double grows two branches (§8)
                lines[ti].append([old_end, False])
                lines[ti].append([old_end, False])
        elif e.type in ("draw", "mark"):
            seat = e.seat
            if e.type == "mark" and not (prev is not None and prev.seat == seat and prev.type == "draw"):
                # a marker without a draw: the boneyard was empty (until_blocked)
                ctx = _context(lines, n, seat, v.rules, prev)
                if ctx is not None:
                    raw.append((seat, k, ctx[0], ctx[1], False))
            elif e.type == "draw":
                ctx = _context(lines, n, seat, v.rules, prev)
                if ctx is not None:
                    raw.append((seat, k, ctx[0], ctx[1], True))
            else:  # mark after own draw: the drawn tile did not fit either
                ctx = _context(lines, n, seat, v.rules, _before_draw(v.events, k))
                if ctx is not None:
                    raw.append((seat, k, ctx[0], ctx[1], False))
        prev = e
    out = []
    for seat, k, ends, nondouble, is_draw in raw:
        start = k if is_draw else k + 1
        d = sum(1 for e in v.events[start:] if e.seat == seat and e.type == "draw")
        out.append(Constraint(seat, k, ends, nondouble, d))
    return out


def _before_draw(events, k: int):
    """The event before the draw that precedes event ``k``."""
    return events[k - 2] if k >= 2 else None


def _context(lines, n: int, seat: int, rules: RuleSet, prev) -> tuple[frozenset[int], bool] | None:
    """(ends the seat could certainly play on, follow-up?) just before it drew or marked: its
    own train, the Mexican Train and, with teams, its partner's (:meth:`RuleSet.partner`)."""
    if prev is not None and prev.seat == seat and prev.type == "play" and prev.tile[0] == prev.tile[1]:
        ti = n if prev.train == MEXICAN else prev.train
        return frozenset((lines[ti][prev.branch][0],)), True  # the double it owed a follow-up
    blocking = {line[0] for train in lines for line in train if line[1]}
    if blocking:
        return frozenset(blocking), False
    trains = [seat, n]
    partner = rules.partner(seat, n)
    if partner is not None:
        trains.append(partner)
    return frozenset(line[0] for ti in trains for line in lines[ti]), False


def lacking_values(v: SeatView) -> dict[int, frozenset[int]]:
    """Per other seat: the ends it could not play on at its latest draw or marker, when it
    has drawn nothing since that it could not have held (a hint for blocking it)."""
    out: dict[int, frozenset[int]] = {}
    for c in constraints(v):
        if c.seat != v.seat and not c.nondouble and c.draws_after <= 1:
            out[c.seat] = c.ends
    return out


def _played_after(v: SeatView) -> dict[int, list[tuple[int, Tile]]]:
    out: dict[int, list[tuple[int, Tile]]] = {}
    for k, e in enumerate(v.events):
        if e.type == "play":
            a, b = e.tile
            out.setdefault(e.seat, []).append((k, tile(a, b)))
    return out


class Sampler:
    """Deals the hidden tiles of a view at random, consistently with its constraints."""

    def __init__(self, v: SeatView) -> None:
        self.view = v
        self.wild = v.rules.blanks_wild
        self.hidden = [i for i, h in enumerate(v.hands) if h is None]
        cons = constraints(v)
        played = _played_after(v)
        self.by_seat: dict[int, list[Constraint]] = {}
        self.used0: dict[int, list[int]] = {}
        for seat in self.hidden:
            mine = [c for c in cons if c.seat == seat]
            self.by_seat[seat] = mine
            # tiles it played after a constraint, and that fitted then, used a later draw
            used = [0] * len(mine)
            for k, t in played.get(seat, ()):
                m = -1
                for j, c in enumerate(mine):
                    if c.index < k and c.hits(t, self.wild):
                        m = j
                for j in range(m + 1):
                    used[j] += 1
            self.used0[seat] = used
        # most constrained seats are dealt first
        self.order = sorted(self.hidden, key=lambda s: (-len(self.by_seat[s]), s))
        self.pool = list(v.unseen())
        # per seat and unseen tile: the last of its constraints the tile hits (-1: none),
        # worked out at the first deal, as every deal asks it of every tile
        self.last_hit: dict[int, dict[Tile, int]] = {}
        self.violations = 0  # samples where a constraint had to be dropped

    def hands(self, rng: random.Random, tries: int = 4) -> dict[int, tuple[Tile, ...]]:
        """Hidden hands at random; dealt again (up to ``tries`` times) when the greedy deal
        gets stuck, then as consistent as it could be."""
        for _ in range(tries - 1):
            before = self.violations
            out = self._deal(rng)
            if self.violations == before:
                return out
            self.violations = before
        return self._deal(rng)

    def _deal(self, rng: random.Random) -> dict[int, tuple[Tile, ...]]:
        pool = self.pool[:]
        shuffle(rng, pool)  # rng.shuffle, compiled with the rules core
        out: dict[int, tuple[Tile, ...]] = {}
        sizes = self.view.hand_sizes
        for seat in self.order:
            k = sizes[seat]
            mine = self.by_seat[seat]
            if not mine:
                out[seat] = tuple(pool[:k])
                del pool[:k]
                continue
            used = self.used0[seat][:]
            caps = [c.draws_after for c in mine]
            last_hit = self.last_hit.get(seat)
            if last_hit is None:
                last_hit = self.last_hit[seat] = {t: _last_hit(mine, t, self.wild) for t in self.pool}
            hand: list[Tile] = []
            rest: list[Tile] = []
            for i, t in enumerate(pool):
                if len(hand) == k:
                    rest += pool[i:]
                    break
                m = last_hit[t]
                if m < 0 or all(used[j] < caps[j] for j in range(m + 1)):
                    for j in range(m + 1):
                        used[j] += 1
                    hand.append(t)
                else:
                    rest.append(t)
            if len(hand) < k:  # inconsistent (should not happen): fill anyway
                self.violations += 1
                need = k - len(hand)
                hand += rest[:need]
                rest = rest[need:]
            out[seat] = tuple(hand)
            pool = rest
        return out

    def state(self, rng: random.Random) -> GameState:
        """A full snapshot consistent with the view and everything the events tell."""
        return determinize(self.view, rng, hands=self.hands(rng))


def _last_hit(mine: list[Constraint], t: Tile, wild: bool) -> int:
    """The index of the last of ``mine`` that ``t`` would have fitted, or -1."""
    m = -1
    for j, c in enumerate(mine):
        if c.hits(t, wild):
            m = j
    return m


def consistent(v: SeatView, hands: dict[int, tuple[Tile, ...]]) -> bool:
    """Do these hidden hands agree with every constraint of the view? (for tests)"""
    wild = v.rules.blanks_wild
    played = _played_after(v)
    cons = constraints(v)
    for seat, hand in hands.items():
        mine = [c for c in cons if c.seat == seat]
        for i, c in enumerate(mine):
            count = 0
            for t in hand:
                count += _last_hit(mine, t, wild) >= i
            for k, t in played.get(seat, ()):
                m = max((j for j, cj in enumerate(mine) if cj.index < k and cj.hits(t, wild)), default=-1)
                count += m >= i
            if count > c.draws_after:
                return False
    return True
