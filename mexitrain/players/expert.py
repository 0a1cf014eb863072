"""Level 4, the expert: determinized Monte Carlo search with the planner as rollout policy.

For each decision with a real choice, the expert deals the tiles it cannot see at random,
consistently with everything its seat has seen (hand sizes, the tiles on the table, and what
every draw and marker tells about the hands, see :mod:`.knowledge`), plays each candidate
action on that deal and lets the planner play every seat to the end of the ROUND. A
candidate's value is the seat's (team's) round score difference: the mean score of the
other sides less its own. The same deals are used for every candidate (common random
numbers) and weak candidates are dropped early (successive halving), so the rollout budget
goes to the close calls.

Thinking is bounded by a rollout count (``rollouts``: machine-independent, the default
strength of tests and tournaments); the UI may add a wall-clock cap (``time_limit``), which
makes the choice depend on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time

from ..rules import Action, GameState, SeatView, apply, legal_actions, view_legal_actions
from .knowledge import Sampler, lacking_values
from .planner import PlanBook, PlannerPlayer, planner_decide, score_plays

#: Rollouts per decision at the default strength.
DEFAULT_ROLLOUTS = 96
#: At most this many candidate actions (the planner's best ones) are searched.
MAX_CANDIDATES = 6
#: Plan budget of the planner inside rollouts (cheaper than the planner level's own).
ROLLOUT_PLAN_BUDGET = 30


def _sides(state, seat: int) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    n = state.players
    if state.rules.teams:
        mine = tuple(sorted((seat, (seat + n // 2) % n)))
        others = [tuple(sorted((i, i + n // 2))) for i in range(n // 2) if i not in mine]
    else:
        mine = (seat,)
        others = [(i,) for i in range(n) if i != seat]
    return mine, others


def rollout(state: GameState, seat: int, max_steps: int = 5000) -> float:
    """Play the round out with the planner for every seat; the seat's score difference."""
    steps = 0
    done = len(state.results)
    book = PlanBook(state.rules.blanks_wild, ROLLOUT_PLAN_BUDGET)
    while state.phase != "game_over" and len(state.results) == done and steps < max_steps:
        legal = legal_actions(state)
        if len(legal) == 1:
            action = legal[0]
        else:
            action = planner_decide(state, state.turn, legal, None, ROLLOUT_PLAN_BUDGET, book)[0]
        state = apply(state, action)
        steps += 1
    if len(state.results) > done:
        scores = state.results[done].scores
    else:  # cut short (never in practice): the pips in hand
        scores = tuple(sum(a + b for a, b in h) for h in state.hands)
    mine, others = _sides(state, seat)
    own = sum(scores[i] for i in mine)
    return sum(sum(scores[i] for i in side) for side in others) / len(others) - own


def _one_round(state: GameState) -> GameState:
    """The same snapshot with a one-round game, so a rollout ends with the round."""
    rules = state.rules.model_copy(update={"rounds": 1})
    return state.model_copy(update={"rules": rules})


_OTHER_REASONS = {
    ("swan", "pass"): "ends your drive here",
    ("swan", "skip"): "skips the Mexican Train to go on to the next public train",
    ("drawn", "pass"): "keeps the drawn tile and passes without a marker",
}


class ExpertPlayer:
    """Level 4: determinized Monte Carlo over the planner's best candidates."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        rollouts: int = DEFAULT_ROLLOUTS,
        max_candidates: int = MAX_CANDIDATES,
        time_limit: float | None = None,
    ) -> None:
        self.seed = seed
        self.rollouts = rollouts
        self.max_candidates = max_candidates
        self.time_limit = time_limit
        self.last_stats: dict = {}

    def choose(self, view: SeatView) -> Action:
        return self.decide(view)[0]

    def _rng(self, view: SeatView) -> random.Random:
        # depends only on the seed and what the seat sees: the same view, the same choice
        key = (self.seed, view.round, view.seat, view.phase, len(view.events), view.hand, view.drawn)
        return random.Random(f"expert:{key}")

    def decide(self, view: SeatView) -> tuple[Action, str]:
        legal = view_legal_actions(view)
        lacking = lacking_values(view)
        base, reason, _ = planner_decide(view, view.seat, legal, lacking)
        self.last_stats = {"rollouts": 0, "candidates": 1}
        if len(legal) == 1 or view.phase == "chain" or self.rollouts <= 0:
            return base, reason
        cands = self._candidates(view, legal, lacking, base)
        if len(cands) == 1:
            return base, reason
        actions = [c[0] for c in cands]
        best, values, used = self._search(view, actions)
        self.last_stats = {"rollouts": used, "candidates": len(cands), "values": values}
        i = actions.index(best)
        why = cands[i][1]
        rest = [v for j, v in enumerate(values) if j != i and v > float("-inf")]
        if rest:
            why += f" (looked ahead: {values[i] - max(rest):+.1f} points a round over the next best)"
        return best, why

    def _candidates(self, view, legal, lacking, base) -> list[tuple[Action, str]]:
        """The planner's best plays (and the turn-ending choices), best first."""
        from .planner import Context

        plays = [a for a in legal if a.type == "play"]
        others = [a for a in legal if a.type != "play"]
        scored = []
        if plays:
            ctx = Context(view, view.seat, view.hand, lacking)
            scored = score_plays(view, ctx, plays)
        order = {a: i for i, a in enumerate(legal)}
        scored.sort(key=lambda x: (-x[0], order[x[2]]))
        out = [(a, r) for _, r, a in scored[: self.max_candidates]]
        for a in others:
            out.append((a, _OTHER_REASONS.get((view.phase, a.type), f"chooses to {a.type}")))
        if base not in [a for a, _ in out]:
            out.insert(0, (base, "planner's choice"))
        return out

    def _search(self, view: SeatView, cands: list) -> tuple[Action, list[float], int]:
        rng = self._rng(view)
        sampler = Sampler(view)
        k = len(cands)
        phases = max(1, math.ceil(math.log2(k)))
        alive = list(range(k))
        totals = [0.0] * k
        counts = [0] * k
        used = 0
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + self.time_limit
        for phase in range(phases):
            per = max(1, self.rollouts // (phases * len(alive)))
            if phase == phases - 1:  # the last phase spends what is left
                per = max(per, (self.rollouts - used) // len(alive))
            for _ in range(per):
                det = _one_round(sampler.state(rng))
                for c in alive:
                    totals[c] += rollout(apply(det, cands[c]), view.seat)
                    counts[c] += 1
                    used += 1
                if deadline is not None and time.perf_counter() > deadline:
                    break
            if deadline is not None and time.perf_counter() > deadline:
                break
            if len(alive) > 2 and phase < phases - 1:
                alive.sort(key=lambda c: (-totals[c] / counts[c], c))
                alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
        means = [totals[c] / counts[c] if counts[c] else -math.inf for c in range(k)]
        best = max(range(k), key=lambda c: (means[c], -c))
        return cands[best], means, used


__all__ = ["DEFAULT_ROLLOUTS", "ExpertPlayer", "PlannerPlayer", "rollout"]
