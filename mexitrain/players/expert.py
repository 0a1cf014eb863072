"""Level 4, the expert: determinized Monte Carlo search with the planner as rollout policy.

For each decision with a real choice, the expert deals the tiles it cannot see at random,
consistently with everything its seat has seen (hand sizes, the tiles on the table, and what
every draw and marker tells about the hands, see :mod:`.knowledge`), plays each of the
planner's best few moves on that deal and lets the planner play every seat to the end of the
round (at two players, :data:`CUT`: only 24 actions, the learned value of :mod:`.value`
standing for the rest, except in the game's last round). A move's value is the seat's
(team's) round score difference: the mean score of the other sides less its own; in the
game's last round a win of the game is worth ``WIN_POINTS`` more (:class:`Goal`), so that it
plays to win rather than for points.

Round outcomes swing by dozens of points, so the search works hard at comparing like with
like: every candidate is played on the same deals (common random numbers), and in a rollout
each seat draws from its own order of the boneyard, so that a candidate which makes someone
draw one tile more does not reshuffle every later draw; weak candidates are dropped early
(successive halving, never the planner's own move); and the planner's move is replaced only
when another beats it on the same deals by ``CONFIDENCE`` standard errors (by
``CONFIDENCE_MANY`` at a table of three sides or more); a rival that
looks better but not surely gets more deals (up to ``EXTRA`` times the budget), on the two
alone.

The rollouts run on the rules core (:mod:`mexitrain.rules.core`): a deal becomes one Core,
copied for each candidate and changed in place by the core's own ``legal`` and ``step``, the
planner's rollout policy reading the core's fields (:mod:`.playout`). :func:`reducer_rollout`
plays the same rollout snapshot by snapshot through the reducer and the planner's own
``planner_decide``: the tests hold the two together.

Thinking is bounded by a budget counted in actions played in rollouts (``rollouts`` full
rounds' worth): machine-independent, the default strength of tests and tournaments, and
cheaper rollouts late in a round buy more of them. The UI may add a wall-clock cap
(``time_limit``), which makes the choice depend on the machine's speed.
"""

from __future__ import annotations

import gc
import math
import random
import time
from contextlib import contextmanager

from ..i18n import N_
from ..i18n import _ as tr
from ..rules import Action, GameState, SeatView, apply, legal_actions, view_legal_actions
from ..rules.core import check, step
from ..rules.core.deal import permuted
from ..rules.scoring import first_places
from ..rules.state import evolve
from ..text.basics import decimal_points
from . import playout as fast
from .knowledge import Sampler, lacking_values
from .planner import (
    DEFAULT_WEIGHTS,
    PlanBook,
    PlannerPlayer,
    Weights,
    planner_decide,
    score_plays,
)
from .playout import ROLLOUT_PLAN_BUDGET
from .value import HORIZON, MAX_CUT_FACTOR, VALUE_COST, ScoreModel, model_for

Tile = tuple[int, int]

#: Rollouts per decision at the default strength, at a table of three players or more...
DEFAULT_ROLLOUTS = 270
#: ...and of two, where a rollout costs less. They were 200 and 240, the budgets that kept the
#: expert's median thinking time per decision within 0.3 s on the slower of the 2-core machines
#: measured; the rules core of issue 22 made a decision about 1.36x faster (docs/performance.md), and
#: the same time now buys these (the full-game rows measured at 200/240 keep their --budget).
DEFAULT_ROLLOUTS_TWO = 330
#: Actions a rollout from the start of a round plays, about (4 players, double-12): the
#: budget of a decision is ``rollouts * STEPS_PER_ROLLOUT`` actions.
STEPS_PER_ROLLOUT = 70
#: ...but never more than this many times ``rollouts`` rollouts.
MAX_ROLLOUT_FACTOR = 6
#: At most this many candidate actions (the planner's best ones) are searched.
MAX_CANDIDATES = 4
#: Standard errors by which a candidate must beat the planner's choice to replace it, at a
#: table of two sides (two players, or two teams)...
CONFIDENCE = 1.0
#: ...and of three sides or more, where the planner's move is more often the best one and a
#: change of it needs surer evidence (docs/expert-search.md: "How the search's settings were chosen").
CONFIDENCE_MANY = 1.5
#: A contested decision (a rival of the planner's move better on the deals so far, but by
#: less than the standard errors asked of a change) gets up to this many times the budget more,
#: spent on those two alone.
EXTRA = 2.0
#: In the game's last round, what winning the game is worth, in points of round score
#: difference: the expert then plays to win the game, the points breaking ties.
WIN_POINTS = 100
#: Where the expert cuts its rollouts short (issue #36): table size -> actions a rollout plays
#: past the move before the learned value (:mod:`.value`) stands for the rest of the round.
#: At two players this won 75.6 % of 2000 full games against the planner where full rollouts
#: won 67.5 % (docs/expert-search.md); at three and four players no gain was shown, and the
#: rollouts go to the end as before.
CUT: dict[int, int] = {2: HORIZON}


def default_rollouts(players: int) -> int:
    """The expert's rollouts a decision at its default strength at a table of ``players``."""
    return DEFAULT_ROLLOUTS_TWO if players == 2 else DEFAULT_ROLLOUTS


def _sides(state, seat: int) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    sides = state.rules.sides(state.players)
    mine = next(side for side in sides if seat in side)
    return mine, [side for side in sides if side != mine]


def last_round(state: GameState | SeatView) -> bool:
    """Is this the game's last round (where its win, not its points, is at stake)?"""
    return state.round >= state.rules.round_count


class Goal:
    """What a round's scores are worth to ``seat``: its side's score difference (the other
    sides' mean less its own), and in the game's last round also ``win_points`` times its
    share of the game's win (§7: the totals with this round, then the tie-breaks).

    Before the last round the points are what counts; in the last round a few points more
    or less matter only when they change who wins the game.
    """

    def __init__(self, state: GameState | SeatView, seat: int, win_points: float = WIN_POINTS) -> None:
        self.mine, self.others = _sides(state, seat)
        self.sides = [self.mine, *self.others]  # the seat's side first
        self.win_points = win_points
        self.prior: list[list[int]] | None = None  # each side's round scores so far
        if win_points and last_round(state):
            self.prior = [[sum(r.scores[i] for i in side) for r in state.results] for side in self.sides]

    def parts(self, scores) -> tuple[float, float]:
        """(the side's score difference, its share of the game's win: 0 before the last round)."""
        own = sum(scores[i] for i in self.mine)
        others = self.others
        diff = sum(sum(scores[i] for i in side) for side in others) / len(others) - own
        if self.prior is None:
            return diff, 0.0
        firsts = first_places(
            [rounds + [sum(scores[i] for i in side)] for rounds, side in zip(self.prior, self.sides, strict=True)]
        )
        return diff, (1 / len(firsts) if 0 in firsts else 0.0)

    def value(self, scores) -> float:
        diff, win = self.parts(scores)
        return diff + self.win_points * win


#: Match equity (the research level ``expert-me``): a seat's round score's standard deviation
#: by table size, in a double-12 game between the expert and planners (measured on the kept
#: full games of benchmarks/results/expert-planner-2p.jsonl and -4p.jsonl: the spread of the
#: game's final difference between two seats over the square root of its 13 rounds, halved in
#: variance); tables of 3 are in between, other sets scale with their top value.
EQUITY_SPREAD = {2: 45.0, 3: 34.0, 4: 27.0}
#: ...and what the round's points add to the equity, so that a game already won or lost
#: still plays for points.
EQUITY_POINTS = 0.1
#: Midpoint rule for a normal variable: the nodes and weights of the integral over the seat's
#: own future total at three sides or more.
_NODES = [(-4.0 + (k + 0.5) * 0.25) for k in range(32)]
_WEIGHTS = [math.exp(-z * z / 2) * 0.25 / math.sqrt(2 * math.pi) for z in _NODES]


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class EquityGoal(Goal):
    """:class:`Goal` before the last round valued by the game's win, not the round's points:
    the chance that the seat's side ends the game with the lowest total, when each side's
    rounds still to come add a normal amount with the same mean to its total (the seat's side
    with this round's scores, ``after`` rounds after it), scaled to a point a round at even
    totals, plus ``EQUITY_POINTS`` times the round's score difference. Early in a game this is
    the points (a straight line near even); late, far ahead it pays to play safe and far
    behind to take chances. In the last round it is :class:`Goal`."""

    def __init__(self, state: GameState | SeatView, seat: int, win_points: float = WIN_POINTS) -> None:
        super().__init__(state, seat, win_points)
        self.after = state.rules.round_count - state.round  # rounds after this one
        self.totals: list[int] | None = None
        if self.prior is not None or self.after <= 0:
            return
        self.totals = [sum(sum(r.scores[i] for i in side) for r in state.results) for side in self.sides]
        spread = EQUITY_SPREAD.get(state.players, 27.0 * 4 / max(state.players, 4)) * state.rules.set / 12
        self.spreads = [spread * math.sqrt(len(side) * self.after) for side in self.sides]
        even = [0.0] * len(self.sides)
        lo, hi = self.chance([-1.0, *even[1:]]), self.chance([1.0, *even[1:]])
        self.scale = 2.0 / max(lo - hi, 1e-12)  # a point at even totals is worth a point

    def chance(self, totals) -> float:
        """The chance that side 0 (the seat's) ends with the lowest of ``totals``."""
        mine, s0 = totals[0], self.spreads[0]
        rest = list(zip(totals[1:], self.spreads[1:], strict=True))
        if len(rest) == 1:
            t, s = rest[0]
            return _phi((t - mine) / math.sqrt(s0 * s0 + s * s))
        p = 0.0
        for z, w in zip(_NODES, _WEIGHTS, strict=True):
            at = mine + s0 * z
            q = w
            for t, s in rest:
                q *= _phi((t - at) / s)
            p += q
        return p

    def value(self, scores) -> float:
        if self.totals is None:
            return super().value(scores)
        diff, _ = self.parts(scores)
        totals = [t + sum(scores[i] for i in side) for t, side in zip(self.totals, self.sides, strict=True)]
        return self.scale * self.chance(totals) + EQUITY_POINTS * diff


def rollout(
    state: GameState,
    seat: int,
    queues: list[list[Tile]] | None = None,
    max_steps: int = 5000,
    goal: Goal | None = None,
    weights: list[Weights] | None = None,
) -> tuple[float, int]:
    """Play the round out with the planner for every seat: (what the round's scores are worth
    to the seat, see :class:`Goal` (by default its score difference), the actions played).
    ``weights``: the planner's weights of each seat (by default the planner level's).

    With ``queues`` (one order of the boneyard per seat), a seat that draws takes the first
    tile of its own queue still in the boneyard. Each draw is still a uniformly random tile
    of the boneyard, but a seat draws the same tiles whether the others drew more or less
    before it: the rollouts of different candidates on one deal stay alike, so comparing
    them needs far fewer deals.
    """
    if goal is None:
        goal = Goal(state, seat, 0)
    scores, steps = fast.playout(state, queues, ROLLOUT_PLAN_BUDGET, max_steps, weights)
    return goal.value(scores), steps


def reducer_rollout(
    state: GameState,
    seat: int,
    queues: list[list[Tile]] | None = None,
    max_steps: int = 5000,
    goal: Goal | None = None,
    weights: list[Weights] | None = None,
) -> tuple[float, int]:
    """:func:`rollout` through the reducer, snapshot by snapshot, with the planner's own
    ``planner_decide``: what :mod:`.playout` plays on the rules core (the tests and
    ``benchmarks/rollout_speed.py`` compare the two)."""
    steps = 0
    done = len(state.results)
    book = PlanBook(state.rules.blanks_wild, ROLLOUT_PLAN_BUDGET)
    pointers = [0] * state.players
    if weights is None:
        weights = [DEFAULT_WEIGHTS] * state.players
    while state.phase != "game_over" and len(state.results) == done and steps < max_steps:
        legal = legal_actions(state)
        if len(legal) == 1:
            action = legal[0]
        else:
            action = planner_decide(
                state, state.turn, legal, None, ROLLOUT_PLAN_BUDGET, book, weights[state.turn]
            )[0]
        if queues is not None and action.type == "draw":
            state = _draw_from_queue(state, queues[state.turn], pointers)
        state = apply(state, action)
        steps += 1
    if len(state.results) > done:
        scores = state.results[done].scores
    else:  # cut short (never in practice): the pips in hand
        scores = tuple(sum(a + b for a, b in h) for h in state.hands)
    return (goal or Goal(state, seat, 0)).value(scores), steps


def _draw_from_queue(state: GameState, queue: list[Tile], pointers: list[int]) -> GameState:
    """The state with the seat's next queued tile on top of the boneyard."""
    seat = state.turn
    left = set(state.boneyard)
    i = pointers[seat]
    while queue[i] not in left:
        i += 1
    pointers[seat] = i + 1
    t = queue[i]
    if state.boneyard[0] == t:
        return state
    rest = tuple(x for x in state.boneyard if x != t)
    return evolve(state, {"boneyard": (t, *rest)})


def one_round(state: GameState) -> GameState:
    """The same snapshot with a one-round game, so a rollout ends with the round."""
    rules = state.rules.model_copy(update={"rounds": 1})
    return state.model_copy(update={"rules": rules})


_OTHER_REASONS = {
    ("swan", "pass"): N_("end your drive here"),
    ("swan", "skip"): N_("skip the Mexican Train and go on to the next public train"),
    ("drawn", "pass"): N_("keep the drawn tile and pass without a marker"),
}
# Any other turn-ending choice, in any phase: the words for the action itself.
_ACTION_REASONS = {
    "draw": N_("draw from the boneyard"),
    "mark": N_("place your marker and pass"),
    "pass": N_("pass"),
    "skip": N_("skip this train"),
}


@contextmanager
def _collector_paused():
    """Python's cycle collector paused for a search. A search allocates a great deal and
    frees all of it by reference counting (it makes no reference cycles), and the collector's
    passes, set off by those allocations, walked the memos of plans again and again: about a
    twentieth of a decision's time. Whatever cycles there are wait for its next pass."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class ExpertPlayer:
    """Level 4: determinized Monte Carlo over the planner's best candidates."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        rollouts: int | None = None,
        max_candidates: int = MAX_CANDIDATES,
        time_limit: float | None = None,
        win_points: float = WIN_POINTS,
        confidence: float | None = None,
        extra: float = EXTRA,
        weights: Weights = DEFAULT_WEIGHTS,
        endgame: int = 0,
        horizon: int | None = None,
        model: ScoreModel | None = None,
    ) -> None:
        self.seed = seed
        # actions a rollout plays past the move before the learned value (.value) stands for
        # the rest of the round; None: CUT by the table, 0: every rollout to the round's end
        self.horizon = horizon
        self.model = model  # None: value.model_for the table
        # positions the exact endgame search may visit a decision (endgame.py); 0: none
        self.endgame = endgame
        self.weights = weights  # of its own moves, see planner.Weights
        self.win_points = win_points
        self.confidence = confidence  # None: CONFIDENCE or CONFIDENCE_MANY by the table
        self.extra = extra
        self.rollouts = rollouts  # None: default_rollouts(players) by the table
        self.max_candidates = max_candidates
        self.time_limit = time_limit
        self.last_stats: dict = {}

    def choose(self, view: SeatView) -> Action:
        return self.decide(view)[0]

    def budget(self, players: int) -> int:
        """Rollouts a decision at a table of ``players``."""
        return default_rollouts(players) if self.rollouts is None else self.rollouts

    def goal(self, view: SeatView) -> Goal:
        """What the rollouts' scores are worth to the seat (:class:`Goal`)."""
        return Goal(view, view.seat, self.win_points)

    def cut(self, players: int) -> int:
        """Actions a rollout plays past the move at a table of ``players`` before the learned
        value takes over (0: to the end of the round)."""
        return CUT.get(players, 0) if self.horizon is None else self.horizon

    def rollout(self, r, queues, weights, goal: Goal) -> tuple[float, int]:
        """(what a rollout from the core ``r``, changed in place, is worth to the seat; the
        actions it played, counted against the budget): the round played to its end, or, at a
        table where rollouts are :meth:`cut` (never in the game's last round), played that
        many actions and valued by the learned score model, which costs :data:`VALUE_COST`
        actions more."""
        horizon = self.cut(r.tab.n)
        model = (self.model or model_for(r.tab.n)) if horizon else None
        if model is None or goal.prior is not None:
            scores, n = fast.run(r, queues, ROLLOUT_PLAN_BUDGET, weights=weights)
            return goal.value(scores), n
        scores, n = fast.run(r, queues, ROLLOUT_PLAN_BUDGET, max_steps=horizon, weights=weights)
        if r.over:
            return goal.value(scores), n
        return goal.value(model.scores(r)), n + VALUE_COST

    def rollout_cap(self, rollouts: int, players: int) -> int:
        """The most rollouts a decision at a table of ``players`` may play at a budget of
        ``rollouts`` (cut rollouts are short: more of them)."""
        return rollouts * (MAX_CUT_FACTOR if self.cut(players) else MAX_ROLLOUT_FACTOR)

    def evidence(self, sides: int) -> float:
        """Standard errors by which another move must beat the planner's, at ``sides`` sides."""
        if self.confidence is not None:
            return self.confidence
        return CONFIDENCE if sides == 2 else CONFIDENCE_MANY

    def _rng(self, view: SeatView) -> random.Random:
        # depends only on the seed and what the seat sees: the same view, the same choice
        key = (self.seed, view.round, view.seat, view.phase, len(view.events), view.hand, view.drawn)
        return random.Random(f"expert:{key}")

    def decide(self, view: SeatView, names=None) -> tuple[Action, str]:
        """(action, reason): ``names``, the table's, name the other seats in the reason."""
        legal = view_legal_actions(view)
        lacking = lacking_values(view)
        w = self.weights
        base, reason, _ = planner_decide(view, view.seat, legal, lacking, weights=w, names=names)
        self.last_stats = {"rollouts": 0, "candidates": 1}
        if len(legal) == 1 or view.phase == "chain" or self.budget(view.players) <= 0:
            return base, reason
        if self.endgame > 0:
            solved = self._endgame(view, legal, lacking, base, reason, w, names)
            if solved is not None:
                return solved
        cands = self.candidates(view, legal, lacking, base, reason, w, names)
        if len(cands) == 1:
            return base, reason
        actions = [c[0] for c in cands]
        base_i = actions.index(base)
        with _collector_paused():
            i, values, used = self._search(view, actions, base_i)
        self.last_stats = {"rollouts": used, "candidates": len(cands), "values": values}
        why = cands[i][1]
        if i != base_i and self.win_points and last_round(view):
            why += tr(N_(" (looking ahead, it gives a better chance to win the game)"))
        elif i != base_i:
            gain = values[i] - values[base_i]
            why += tr(N_(" (looking ahead it gains {points} a round)")).format(points=decimal_points(gain, signed=True))
        return actions[i], why

    def _endgame(self, view: SeatView, legal, lacking, base, reason: str, w: Weights, names=None):
        """(action, reason) from the exact endgame search (:mod:`.endgame`), or None when it
        does not apply here or would go over its budget (the rollouts then decide).

        At a table of two sides only: with one deal left by the view (the hidden hand is all
        the unseen tiles, or every hand is open) every legal move is solved on it; with at
        most ``endgame.MAX_BONEYARD`` tiles left to draw, each is solved on ``endgame.DEALS``
        sampled deals and the best mean wins. Moves equal under best play are compared by the
        rollouts, as without the search (the planner's move first among them)."""
        from . import endgame as eg

        goal = Goal(view, view.seat, self.win_points)
        if len(goal.sides) != 2:
            return None
        hidden = [i for i, h in enumerate(view.hands) if h is None]
        exact = not hidden or (len(hidden) == 1 and view.boneyard_size == 0)
        if not exact and view.boneyard_size > eg.MAX_BONEYARD:
            return None
        rng = self._rng(view)
        sampler = Sampler(view)
        dealer = fast.Dealer(view, one_round)
        actions = [base, *(a for a in legal if a != base)]
        solver = eg.Solver(goal.mine, goal.value, self.endgame)
        deals = [dealer.deal(rng, sampler.hands(rng))[0] for _ in range(1 if exact else eg.DEALS)]
        with _collector_paused():
            try:
                if exact:
                    _, values = eg.best_move(deals[0], [check(deals[0], a) for a in actions], solver)
                else:
                    values = eg.solve_deals(deals, lambda c: [check(c, a) for a in actions], len(actions), solver)
            except eg.OutOfBudget:
                self.last_stats = {"rollouts": 0, "candidates": len(actions), "endgame": "over budget", "nodes": solver.nodes}
                return None
            best = eg.tied(values)
            kind = "exact" if exact else "sampled"
            self.last_stats = {
                "rollouts": 0, "candidates": len(actions), "values": values, "nodes": solver.nodes, "endgame": kind,
                "moves": actions,  # in the order of the values: the planner's first
            }
            told = self.candidates(view, legal, lacking, base, reason, w, names, limit=len(legal))
            why_of = dict(told)
            if len(best) == 1:
                i = best[0]
                if i == 0:
                    return base, reason
                chosen = actions[i]
                gain = values[i] - values[0]
            else:
                # Equal under best play (often so: many moves lose or win alike): the rollouts,
                # where the other side plays as the planner, choose among them, as without the
                # search, among the best few of them in the planner's order
                ranked = [a for a, _ in told if actions.index(a) in best]
                ranked += [actions[j] for j in best if actions[j] not in ranked]
                if base in ranked:
                    ranked.remove(base)
                    ranked.insert(0, base)
                ranked = ranked[: max(2, self.max_candidates)]
                k, means, used = self._search(view, ranked, 0)
                self.last_stats.update(rollouts=used, tied=len(best), rollout_values=means)
                chosen = ranked[k]
                if chosen == base:
                    return base, reason
                gain = means[k] - means[0]
        why = why_of.get(chosen, reason)
        if self.win_points and last_round(view):
            why += tr(N_(" (looking ahead, it gives a better chance to win the game)"))
        else:
            why += tr(N_(" (looking ahead it gains {points} a round)")).format(points=decimal_points(gain, signed=True))
        return chosen, why

    def candidates(
        self, view, legal, lacking, base, reason: str, w: Weights, names=None, limit: int | None = None
    ) -> list[tuple[Action, str]]:
        """The planner's best plays (and the turn-ending choices), best first, each with the
        reason said for it: the moves the rollouts compare."""
        from .planner import Context

        plays = [a for a in legal if a.type == "play"]
        others = [a for a in legal if a.type != "play"]
        scored = []
        if plays:
            ctx = Context(view, view.seat, view.hand, lacking, weights=w, names=names)
            scored = score_plays(view, ctx, plays)
        order = {a: i for i, a in enumerate(legal)}
        scored.sort(key=lambda x: (-x[0], order[x[2]]))
        out = [(a, r) for _, r, a in scored[: self.max_candidates if limit is None else limit]]
        for a in others:
            out.append((a, tr(_OTHER_REASONS.get((view.phase, a.type)) or _ACTION_REASONS[a.type])))
        if base not in [a for a, _ in out]:
            out.insert(0, (base, reason))
        return out

    def _search(self, view: SeatView, cands: list, base: int) -> tuple[int, list[float], int]:
        """(index of the chosen candidate, mean values, rollouts used).

        Every live candidate is played on the same deals (common random numbers). Halving
        rounds drop the weaker half, never the planner's choice ``base``; at the end another
        candidate replaces it only when its mean gain over ``base`` on the same deals clears
        ``confidence`` standard errors: round outcomes swing by dozens of points, and a
        noisy search must not undo a sound heuristic. When the best rival looks better but
        not surely, the two alone get up to ``extra`` times the budget more, until it is sure
        or no longer looks better.
        """
        rng = self._rng(view)
        sampler = Sampler(view)
        dealer = fast.Dealer(view, one_round)
        players = view.players
        goal = self.goal(view)
        confidence = self.evidence(len(goal.sides))
        # in the rollouts its side plays with its own weights, the others as planners
        own = self.weights
        weights = [own if i in goal.mine else DEFAULT_WEIGHTS for i in range(view.players)]
        k = len(cands)
        phases = max(1, math.ceil(math.log2(k)))
        alive = list(range(k))
        values: list[list[float]] = [[] for _ in range(k)]
        used = steps = 0
        # The budget is counted in actions played, ``rollouts`` full rounds' worth: late in a
        # round, when rollouts are short, the same thinking buys more of them.
        rollouts = self.budget(view.players)
        budget = rollouts * STEPS_PER_ROLLOUT
        cap = self.rollout_cap(rollouts, players)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit

        def play_a_deal(live: list[int]) -> None:
            nonlocal steps, used
            # the deal as a core (as fast.start(one_round(sampler.state(rng)))), copied for
            # each candidate; each seat's order of the boneyard, as tile ids
            core, bone = dealer.deal(rng, sampler.hands(rng))
            queues = [permuted(rng, bone) for _ in range(players)]
            for c in live:
                r = core.copy()
                step(r, check(r, cands[c]))
                value, n = self.rollout(r, queues, weights, goal)
                values[c].append(value)
                steps += n
                used += 1

        def late() -> bool:
            return deadline is not None and time.perf_counter() > deadline

        for phase in range(phases):
            target = steps + (budget - steps) / (phases - phase)
            samples = 0
            while samples < 2 or (steps < target and used + len(alive) <= cap):
                play_a_deal(alive)
                samples += 1
                if late():
                    break
            if late():
                break
            if len(alive) > 2 and phase < phases - 1:
                def mean_of(c: int) -> float:
                    return sum(values[c]) / len(values[c])

                ranked = sorted(alive, key=lambda c: (-mean_of(c), c))
                keep = set(ranked[: max(2, (len(alive) + 1) // 2)]) | {base}
                alive = sorted(keep)

        def gain(c: int) -> tuple[float, float]:
            """The mean gain of ``c`` over ``base`` on the same deals, and its standard error."""
            m = len(values[c])  # its deals are the base's latest ones
            diffs = [a - b for a, b in zip(values[c], values[base][-m:], strict=True)]
            if m < 2:
                return 0.0, math.inf
            mean = sum(diffs) / m
            var = sum((d - mean) ** 2 for d in diffs) / (m - 1)
            return mean, math.sqrt(var / m)

        chosen, best_lcb, rival, rival_gain = base, 0.0, None, 0.0
        for c in alive:
            if c == base:
                continue
            mean, se = gain(c)
            if mean - confidence * se > best_lcb:
                chosen, best_lcb = c, mean - confidence * se
            if mean > rival_gain:
                rival, rival_gain = c, mean
        if chosen == base and rival is not None and self.extra > 0 and not late():
            # Contested: a rival looks better than the planner's move, but not surely. Play
            # more deals of those two only, up to ``extra`` times the budget, until it is sure.
            stop = steps + self.extra * budget
            cap_extra = used + self.extra * cap
            while steps < stop and used + 2 <= cap_extra and not late():
                play_a_deal([base, rival])
                mean, se = gain(rival)
                if mean <= 0 or mean - confidence * se > 0:
                    break
            mean, se = gain(rival)
            if mean - confidence * se > 0:
                chosen = rival
        means = [sum(v) / len(v) if v else -math.inf for v in values]
        return chosen, means, used


class FullExpertPlayer(ExpertPlayer):
    """The expert as it was before issue #36: every rollout played to the end of the round at
    every table size (the level ``expert-full``, in :data:`mexitrain.players.KEPT_LEVELS`,
    not offered at a table): the 2-player games kept before the change replay with it. The
    research levels measured against it (expert-2, expert-me) are full experts too."""

    name = "expert-full"

    def __init__(self, seed: int = 0, **kw) -> None:
        kw.setdefault("horizon", 0)
        super().__init__(seed, **kw)


class EndgameExpertPlayer(FullExpertPlayer):
    """The expert with the exact endgame search (:mod:`.endgame`) at its node budget: a
    research level, not in :data:`mexitrain.players.LEVELS` (the default ``expert`` plays as
    before, so that its kept tournament games replay); ``benchmarks/expert_endgame.py``
    registers it as ``expert-2`` for its tournaments."""

    name = "expert-2"

    def __init__(self, seed: int = 0, **kw) -> None:
        from .endgame import NODE_BUDGET

        kw.setdefault("endgame", NODE_BUDGET)
        super().__init__(seed, **kw)


class EquityExpertPlayer(FullExpertPlayer):
    """The expert valuing its rollouts by the game's win before the last round
    (:class:`EquityGoal`): a research level, not in :data:`mexitrain.players.LEVELS`;
    ``benchmarks/expert_equity.py`` registers it as ``expert-me`` for its tournaments."""

    name = "expert-me"

    def goal(self, view: SeatView) -> Goal:
        return EquityGoal(view, view.seat, self.win_points)


class ValueExpertPlayer(ExpertPlayer):
    """The expert whose rollouts are cut at :data:`~.value.HORIZON` actions at every table
    size (the default expert cuts them at two players only): the research level ``expert-v``,
    registered by ``benchmarks/expert_value.py``."""

    name = "expert-v"

    def __init__(self, seed: int = 0, horizon: int = HORIZON, **kw) -> None:
        super().__init__(seed, horizon=horizon, **kw)


__all__ = [
    "CUT", "DEFAULT_ROLLOUTS", "DEFAULT_ROLLOUTS_TWO", "EndgameExpertPlayer", "EquityExpertPlayer", "EquityGoal", "ExpertPlayer",
    "FullExpertPlayer", "Goal", "PlannerPlayer", "ValueExpertPlayer", "default_rollouts", "rollout",
]
