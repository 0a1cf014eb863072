"""Exact endgames for the expert: the rest of a round solved by search, not sampled.

In two players, once the boneyard is empty, the other hand is exactly the tiles the seat has
not seen: the rest of the round is a game of perfect information (a seat that cannot play
ends it, §7). :func:`solve` plays it out exactly on the rules core (:mod:`mexitrain.rules.core`,
the same ``legal`` and ``step`` as every rollout): alpha-beta over the two sides' choices, a
transposition table, and, when a few tiles are left to draw, chance nodes (each tile of the
boneyard equally likely, the expectation of their values). Its work is bounded by a budget
counted in nodes (positions visited), never in seconds, so that the same position gives the
same answer on any machine: a search that would take more stops with :class:`OutOfBudget`.

It sees only what it is given: a :class:`~mexitrain.rules.core.Core` that the expert deals
from its seat's view (:class:`.playout.Dealer` over :class:`.knowledge.Sampler`'s hands),
never the game's real state. When the view leaves one deal only (two players and an empty
boneyard, or open hands), that deal is the real one; otherwise the expert solves several
sampled deals and averages (:func:`solve_deals`), as its rollouts do.

Only tables of two sides (two players, or two teams) are solved: there the round's value to
one side is the negation of its value to the other, up to a constant (:class:`.expert.Goal`),
and a minimax is the right model of play. At three sides or more the expert keeps its rollouts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ..rules.core import M_DRAW, legal, step
from ..rules.core.compact import Core
from ..rules.core.lookup import CHAIN

#: Positions a decision's exact search may visit, at most (all candidates together).
NODE_BUDGET = 20_000
#: The sampled endgames (tiles left to draw, or hands the seat cannot see all of) are solved
#: only with at most this many tiles in the boneyard...
MAX_BONEYARD = 2
#: ...and over this many sampled deals.
DEALS = 12
#: Values this close are equal (a tie between moves, which the expert's rollouts then break).
TIE = 1e-6

_EXACT, _LOWER, _UPPER = 0, 1, 2


class OutOfBudget(Exception):
    """The search would visit more positions than its budget allows."""


def key(c: Core) -> tuple:
    """What the rest of the round depends on (the transposition table's key): the hands,
    the lines' ends, markers, open doubles, whose turn and in what phase, the tiles left to
    draw (their set: the order is the chance nodes'), and the little state of a turn."""
    return (
        c.turn, c.phase, tuple(c.hands), tuple(c.ends), c.mbits, tuple(c.open_dbl), c.dline,
        c.drawn, c.swan_pos, c.mexican_starter, c.bpos, tuple(c.chain_right), tuple(c.failed),
        c.idle, c.events[-1] if c.phase == CHAIN and c.events else -1,
        len(c.bone) - c.bpos and frozenset(c.bone[c.bpos:]),
    )


class Solver:
    """Exact values of positions of one round for the side ``mine`` (the seats that play for
    it), by ``value(scores)`` of the round's scores; the other side minimizes the same value.

    ``budget``: the positions it may visit over its life (:class:`OutOfBudget` beyond).
    The table of positions is kept between calls: the candidates of one decision share it.
    """

    def __init__(self, mine: Sequence[int], value: Callable[[Sequence[int]], float], budget: int = NODE_BUDGET) -> None:
        self.mine = frozenset(mine)
        self.value = value
        self.budget = budget
        self.nodes = 0
        self.table: dict[tuple, tuple[int, float]] = {}

    def solve(self, c: Core, alpha: float = -math.inf, beta: float = math.inf) -> float:
        """The value of ``c`` (a round under way, not changed) to the side, with optimal play
        by both sides from here to the round's end (exact when it lies within ``(alpha,
        beta)``, else a bound on the side it falls)."""
        return self._search(c, c.round, len(c.round_scores), alpha, beta)

    def after(self, c: Core, m: int, alpha: float = -math.inf, beta: float = math.inf) -> float:
        """:meth:`solve` of the position after move ``m`` of ``c`` (``c`` not changed), which
        may end the round."""
        r = c.copy()
        step(r, m)
        return self._search(r, c.round, len(c.round_scores), alpha, beta)

    def _leaf(self, c: Core, number: int, done: int) -> float | None:
        if c.over or c.round != number:
            return self.value(c.round_scores[done])
        return None

    def _search(self, c: Core, number: int, done: int, alpha: float, beta: float) -> float:
        end = self._leaf(c, number, done)
        if end is not None:
            return end
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget
        k = key(c)
        hit = self.table.get(k)
        if hit is not None:
            flag, v = hit
            if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
                return v
        ms = legal(c)
        if ms == [M_DRAW]:
            v = self._draw(c, number, done)
            self.table[k] = (_EXACT, v)
            return v
        maxing = c.turn in self.mine
        a0, b0 = alpha, beta
        best = -math.inf if maxing else math.inf
        for m in order(c, ms):
            r = c.copy()
            step(r, m)
            v = self._search(r, number, done, alpha, beta)
            if maxing:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        if best <= a0:
            flag = _UPPER
        elif best >= b0:
            flag = _LOWER
        else:
            flag = _EXACT
        self.table[k] = (flag, best)
        return best

    def _draw(self, c: Core, number: int, done: int) -> float:
        """A draw: each tile left in the boneyard equally likely (a chance node)."""
        top = c.bpos
        rest = c.bone[top:]
        total = 0.0
        for i in range(len(rest)):
            r = c.copy()
            bone = c.bone[:]
            bone[top], bone[top + i] = bone[top + i], bone[top]
            r.bone = bone
            step(r, M_DRAW)
            total += self._search(r, number, done, -math.inf, math.inf)
        return total / len(rest)


def order(c: Core, ms: list[int]) -> list[int]:
    """The moves, the heaviest tiles first (and the turn-ending ones last): the order that
    makes alpha-beta cut soonest, as shedding pips is what a round's end rewards."""
    if len(ms) < 2:
        return ms
    pips = c.tab.pips
    bit_of_lay = c.tab.bit_of_lay

    def weight(m: int) -> int:
        if m < 0:
            return 1
        return -pips[bit_of_lay[m & 511].bit_length() - 1]

    return sorted(ms, key=weight)


def best_move(c: Core, moves: Sequence[int], solver: Solver) -> tuple[int, list[float]]:
    """(the index of the best of ``moves`` from ``c``, their values): each move's exact value
    to the solver's side, whose turn it is; the first of equal best ones (put the preferred
    move first). A move worse than the best so far by more than :data:`TIE` gets an upper
    bound, not its value: every move whose value is within TIE of the best has its exact one."""
    values: list[float] = []
    best_i, best = 0, -math.inf
    for i, m in enumerate(moves):
        v = solver.after(c, m, best - TIE, math.inf) if i else solver.after(c, m)
        values.append(v)
        if v > best:
            best_i, best = i, v
    return best_i, values


def tied(values: Sequence[float]) -> list[int]:
    """The indices of the best values (within :data:`TIE` of the best)."""
    best = max(values)
    return [i for i, v in enumerate(values) if v >= best - TIE]


def solve_deals(
    deals: Sequence[Core], moves_of: Callable[[Core], Sequence[int]], k: int, solver: Solver
) -> list[float]:
    """Each of ``k`` candidates' mean exact value over the deals (``moves_of(deal)``: the
    candidates' moves there, in one order). A deal is a position of perfect information, so
    this is the value of the candidate if the seat then learnt every hand: the sampled
    endgame's usual optimism, as in any determinized search."""
    sums = [0.0] * k
    for c in deals:
        ms = moves_of(c)
        for i, m in enumerate(ms):
            sums[i] += solver.after(c, m)
    return [s / len(deals) for s in sums]
