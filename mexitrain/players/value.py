"""A learned value of a position, on which the expert's rollouts stop early (issue #36).

A rollout played to the end of the round buys few deals for a decision's budget, and the
outcome of the rest of the round, luck mostly, swamps the few points that tell two moves
apart. The expert at two players (:class:`~mexitrain.players.expert.ExpertPlayer`, its
``cut``; the research level ``expert-v`` at every table size) plays each rollout
:data:`HORIZON` actions past the move and values the position reached with
:class:`ScoreModel`: each seat's expected round score, a linear function of what the
position shows (:func:`features`), fitted by least squares on positions of planner games
(``benchmarks/expert_value.py fit``). The same budget, counted in actions, then buys several
times the deals; in the game's last round, where a win is at stake, rollouts go to the end
as before.

Everything here is pure: a model is a tuple of weights, :func:`features` reads a
:class:`~mexitrain.rules.core.Core` and changes nothing, and fitting is plain arithmetic
(no numpy: the normal equations with a small ridge, solved by elimination)."""

from __future__ import annotations

from functools import cache

from ..rules.core import hand_pips
from ..rules.core.compact import Core
from . import playout as fast
from .playout import ROLLOUT_PLAN_BUDGET

#: The names of :func:`features`' values, in order (the first is the constant).
FEATURES = (
    "1", "pips", "tiles", "doubles", "marked", "turns until it plays", "boneyard",
    "fewest tiles of the others", "the others' mean tiles", "tiles that fit its own train",
    "tiles that fit a train it may play on", "tiles of its plan", "pips of its plan",
    "pips x fewest", "tiles x fewest", "off-plan pips x fewest", "pips a tile",
    "pips, boneyard empty", "pips x turns until it plays", "pips, marked", "fewest squared",
    "fewest, at most 3", "pips, another at 1 tile", "pips, another at 2 tiles or fewer",
    "off-plan pips, another at 1 tile",
)


def features(c: Core, book: dict | None = None) -> list[list[float]]:
    """Per seat, the values of :data:`FEATURES` at ``c`` (``book``: the plans already found,
    :func:`.playout.own_plan`'s memo, shared between calls on the same rollout)."""
    tab = c.tab
    n = tab.n
    book = {} if book is None else book
    bone = len(c.bone) - c.bpos
    hands = c.hands
    counts = [h.bit_count() for h in hands]
    ends = c.ends
    fit = tab.fit
    public = 0  # the tiles that fit a public train's end: the Mexican Train and marked trains
    for ti in range(n + 1):
        if ti == n or c.marker[ti]:
            for x in c.train_lines[ti]:
                public |= fit[ends[x]]
    rows = []
    for i in range(n):
        h = hands[i]
        p = hand_pips(c, h)
        k = counts[i]
        own = 0
        for x in c.train_lines[i]:
            own |= fit[ends[x]]
        plan, _, _, mask = fast.own_plan(c, i, book, ROLLOUT_PLAN_BUDGET)
        pp = hand_pips(c, mask)  # the plan's tiles' pips
        others = [counts[j] for j in range(n) if j != i]
        fewest = min(others)
        marked = 1.0 if c.marker[i] else 0.0
        turns = (i - c.turn) % n
        off = p - pp
        rows.append([
            1.0, p, k, (h & tab.double_mask).bit_count(), marked, turns, bone, fewest,
            sum(others) / len(others), (h & own).bit_count(), (h & (own | public)).bit_count(),
            len(plan), pp, p * fewest, k * fewest, off * fewest, p / max(k, 1),
            p if bone == 0 else 0.0, p * turns, p * marked, fewest * fewest, min(fewest, 3),
            p if fewest <= 1 else 0.0, p if fewest <= 2 else 0.0, off if fewest <= 1 else 0.0,
        ])
    return rows


class ScoreModel:
    """Each seat's expected round score at a position: ``weights`` times :func:`features`."""

    def __init__(self, weights) -> None:
        self.weights = tuple(weights)
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"a score model has {len(FEATURES)} weights, not {len(self.weights)}")

    def predict(self, row) -> float:
        """The expected score of one seat's :func:`features` row (never below 0)."""
        return max(0.0, sum(a * b for a, b in zip(self.weights, row, strict=True)))

    def scores(self, c: Core, book: dict | None = None) -> tuple[float, ...]:
        return tuple(self.predict(row) for row in features(c, book))


def fit(rows, targets, ridge: float = 1e-3) -> tuple[float, ...]:
    """Least squares weights of ``rows`` (feature lists) for ``targets``: the normal
    equations with ``ridge`` times each column's mean square added to its diagonal (which
    keeps them solvable when features repeat each other), solved by Gauss-Jordan elimination
    with partial pivoting."""
    k = len(rows[0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for row, y in zip(rows, targets, strict=True):
        for i in range(k):
            ri = row[i]
            if ri:
                ai = a[i]
                for j in range(i, k):
                    ai[j] += ri * row[j]
                b[i] += ri * y
    for i in range(k):
        for j in range(i):
            a[i][j] = a[j][i]
        a[i][i] += ridge * a[i][i] / max(len(rows), 1) + 1e-9
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        d = a[col][col]
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col] / d
                ar, ac = a[r], a[col]
                for j in range(col, k):
                    ar[j] -= f * ac[j]
                b[r] -= f * b[col]
    return tuple(b[i] / a[i][i] for i in range(k))


#: Actions a rollout plays past the candidate move before the model values it (the regret
#: screen's best, docs/expert-search.md: 0.67 points a decision at 2 players, against 0.73 at
#: 16 and 0.96 at 8).
HORIZON = 24
#: What a cut rollout costs beyond its actions, counted in actions (the budget's unit): the
#: deal, the draw orders, each seat's plan at its start and the model's features of every
#: seat. Measured so that at the same budget a searched decision of expert-v takes the
#: expert's time: 2026-12-06, pure build, ``python benchmarks/ai_speed.py --players 2 --levels
#: expert,expert-v --games 2``: median 0.158 s against the expert's 0.157 s (4 it was first:
#: 0.305 s); at 4 players 0.208 s against 0.262 s.
VALUE_COST = 20
#: A decision's rollouts may number up to this many times its budget (full rounds' worth).
MAX_CUT_FACTOR = 24

#: The fitted models by table size (``benchmarks/expert_value.py fit``); a table of another
#: size takes the nearest.
MODELS: dict[int, tuple[float, ...]] = {
    2: (12.7683, 0.246186, 0.472447, 1.19029, 2.9483, -0.643979, -0.0778229, 0.151899, 0.151899, 1.06112, -1.20025, -0.576425, -0.22878, -0.00233578, 0.00524745, -0.0139861, 0.0962356, 0.225362, 0.00917058, -0.0417518, 0.0214891, 1.99491, 0.116425, 0.0664965, -0.00972679),
    3: (8.03996, 0.437317, 0.642087, 1.56171, 0.27997, 0.0881005, -0.0357921, -0.205759, -0.537695, 0.668796, -1.14831, -0.234503, -0.322745, -0.0077113, -0.0870986, -0.0161208, -0.11891, 0.230013, 0.00181235, -0.00634166, 0.13391, 1.99304, 0.197051, 0.05453, -0.113459),
    4: (7.41813, 0.594244, 0.816034, 1.11148, -2.16903, 0.406958, -0.0745287, -0.649048, -1.19568, 0.525221, -0.950769, -0.491173, -0.380941, -0.0128185, -0.0553139, -0.0205446, -0.24764, 0.131197, 0.00136749, 0.0346376, 0.165811, 2.28128, 0.216787, 0.0687663, -0.161108),
}


@cache
def model_for(players: int) -> ScoreModel | None:
    """The model of the table size in :data:`MODELS` nearest ``players`` (made once)."""
    if not MODELS:
        return None
    size = min(MODELS, key=lambda p: (abs(p - players), p))
    return ScoreModel(MODELS[size])


__all__ = ["FEATURES", "HORIZON", "MAX_CUT_FACTOR", "MODELS", "VALUE_COST", "ScoreModel", "features", "fit", "model_for"]
