"""Game review: each decision of a person's seat valued with the expert's search (issue #36).

For every decision of a reviewed seat in a game (a finished or unfinished one, as a record
or a save holds it), the review rebuilds what that seat saw then (``view(state, seat)``),
takes the moves the expert would compare there (the planner's best plays and the
turn-ending choices, :meth:`ExpertPlayer.candidates`) plus the move actually chosen, and
values each one with the expert's rollouts: deals of the unseen tiles consistent with the
view (:class:`~.knowledge.Sampler`), every move played on the same deals (common random
numbers), then the planner plays every seat to the end of the round. A move's value is the
seat's round score difference (the other sides' mean less its own, :class:`~.expert.Goal`
without the game's win): in points. A decision's **cost** is the value of the best move
less the value of the move chosen, clipped at 0.

Everything is pure and deterministic: the deals of decision ``i`` come from a generator
seeded with the game's seed and ``i``. ``budget`` is the number of deals per decision (each
move is rolled out once on each deal). Slow callers pass ``progress`` and ``cancelled``.

The expert's search internals are being changed; this module uses them in one place,
:func:`value_moves`, and nothing else of the expert's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict

from ..rules import Action, Event, GameState, SeatView, apply, new_game, view, view_legal_actions
from ..rules.actions import event_action
from ..rules.tiles import Tile, tile

#: Deals per decision of the reduced default budget (``mexitrain review --budget N``):
#: a 13-round game of 4 players is reviewed in well under a minute on 2 cores
#: (benchmarks/review_speed.py, docs/review.md).
DEFAULT_BUDGET = 48
#: At most this many of the planner's plays are valued, besides the move chosen and the
#: turn-ending choices (the expert's own number, ``expert.MAX_CANDIDATES``).
MAX_PLAYS = 4
#: How many of the costliest decisions a review highlights.
HIGHLIGHTS = 3
#: A decision costing at least this many points is counted as costly in a round's summary.
COSTLY = 2.0
#: Events of other seats told as "what followed" a highlighted decision, at most.
FOLLOWED = 3


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Valued(_Frozen):
    """One move at a decision and its mean value (points of round score difference)."""

    action: Action
    value: float


class Facts(_Frozen):
    """What the game shows about a decision afterwards, for the words that explain it."""

    #: the tile of the better move, when the seat still held it at the round's end, and its pips
    kept: Tile | None = None
    kept_pips: int = 0
    #: the other seats' events after the decision, until the seat's next turn (at most FOLLOWED)
    followed: tuple[Event, ...] = ()
    #: the round's end: how, who went out (if anyone), the seat's score, and after how many
    #: more events of the round
    end: str | None = None
    out_seat: int | None = None
    score: int | None = None
    moves_left: int = 0


class Decision(_Frozen):
    """One decision of a reviewed seat."""

    number: int  # counted from 1 over the reviewed decisions of the game
    step: int  # the event's index over the whole game, from 0 (the replay viewer's step - 1)
    round: int
    move: int  # the event's index in its round, from 1
    seat: int
    chosen: Action
    best: Action
    moves: tuple[Valued, ...]  # best first
    cost: float  # points, >= 0
    error: float  # standard error of best less chosen over the deals (0 when they are the same)
    deals: int


class Highlight(_Frozen):
    """One of the costliest decisions: the position as the seat saw it, and the facts."""

    decision: Decision
    position: SeatView
    facts: Facts


class RoundSummary(_Frozen):
    """One reviewed seat's round: its decisions, how many were costly, the points they cost."""

    round: int
    seat: int
    decisions: int
    costly: int
    cost: float
    score: int | None  # the seat's score of the round (None: unfinished)
    worst: int | None  # number of its costliest decision (None: no cost at all)


class Review(_Frozen):
    seed: int
    budget: int
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]
    rounds: tuple[RoundSummary, ...]
    highlights: tuple[Highlight, ...]

    @property
    def total(self) -> float:
        return sum(d.cost for d in self.decisions)


class Cancelled(Exception):
    """The review was cancelled (``cancelled()`` answered True)."""


# ---------------------------------------------------------------------------------------
# The one place that calls the expert's machinery
# ---------------------------------------------------------------------------------------
def value_moves(
    position: SeatView, chosen: Action, deals: int, rng: random.Random
) -> tuple[list[Action], list[list[float]]]:
    """(the moves valued, each one's values on the same ``deals`` deals): the expert's
    candidates at ``position`` (the planner's best plays, the turn-ending choices) and
    ``chosen``, each played on every deal of the unseen tiles, then the round played out by
    the planner for every seat (the expert's rollouts). Values are the seat's round score
    difference, in points."""
    from ..rules.core import check, step
    from ..rules.core.deal import permuted
    from . import playout as fast
    from .expert import ROLLOUT_PLAN_BUDGET, ExpertPlayer, Goal, one_round
    from .knowledge import Sampler, lacking_values
    from .planner import DEFAULT_WEIGHTS, planner_decide

    legal = view_legal_actions(position)
    lacking = lacking_values(position)
    base, reason, _score = planner_decide(position, position.seat, legal, lacking)
    expert = ExpertPlayer(max_candidates=MAX_PLAYS)
    moves = [a for a, _why in expert.candidates(position, legal, lacking, base, reason, DEFAULT_WEIGHTS)]
    if chosen not in moves:
        moves.append(chosen)
    sampler = Sampler(position)
    dealer = fast.Dealer(position, one_round)
    goal = Goal(position, position.seat, 0)
    values: list[list[float]] = [[] for _ in moves]
    checked = None
    for _ in range(deals):
        core, bone = dealer.deal(rng, sampler.hands(rng))
        queues = [permuted(rng, bone) for _ in range(position.players)]
        if checked is None:
            checked = [check(core, m) for m in moves]
        for i, m in enumerate(checked):
            r = core.copy()
            step(r, m)
            scores, _n = fast.run(r, queues, ROLLOUT_PLAN_BUDGET)
            values[i].append(goal.value(scores))
    return moves, values


# ---------------------------------------------------------------------------------------
# The review
# ---------------------------------------------------------------------------------------
class _Point(BaseModel):
    """A decision to value: where it is in the game, the state before it, the action taken."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    step: int
    round: int
    move: int
    seat: int
    state: GameState
    chosen: Action


def game_events(state: GameState) -> list[Event]:
    """Every event of the game of ``state``, in order (its finished rounds, then the current
    one; at the game's end ``state.events`` is the last round's again, counted once)."""
    done = [e for r in state.results for e in r.events]
    return done if state.over else done + list(state.events)


def decision_points(final: GameState, seats: Sequence[int]) -> list[_Point]:
    """The decisions of ``seats`` in the game that led to ``final``: each event of theirs
    taken when more than one move was legal (an opening chain's tiles aside, as the expert
    leaves them to the planner)."""
    state = new_game(final.rules, players=final.players, seed=final.seed)
    points = []
    for k, event in enumerate(game_events(final)):
        before = state
        action = event_action(event)
        state = apply(before, action)
        if event.seat in seats and before.phase != "chain":
            legal = view_legal_actions(view(before, event.seat))
            if len(legal) > 1:
                move = len(before.events) + 1  # the round's events so far, and this one
                points.append(
                    _Point(step=k, round=before.round, move=move, seat=event.seat, state=before, chosen=action)
                )
    return points


def value_decision(point: _Point, number: int, budget: int, seed: int) -> Decision:
    """One decision valued on ``budget`` deals (deterministic: ``seed`` and the step)."""
    position = view(point.state, point.seat)
    rng = random.Random(f"review:{seed}:{point.step}")
    moves, values = value_moves(position, point.chosen, max(2, budget), rng)
    means = [sum(v) / len(v) for v in values]
    order = sorted(range(len(moves)), key=lambda i: (-means[i], i))
    best = order[0]
    chosen = moves.index(point.chosen)
    diffs = [a - b for a, b in zip(values[best], values[chosen], strict=True)]
    m = len(diffs)
    mean = sum(diffs) / m
    var = sum((d - mean) ** 2 for d in diffs) / (m - 1) if m > 1 else 0.0
    return Decision(
        number=number,
        step=point.step,
        round=point.round,
        move=point.move,
        seat=point.seat,
        chosen=point.chosen,
        best=moves[best],
        moves=tuple(Valued(action=moves[i], value=round(means[i], 3)) for i in order),
        cost=round(max(0.0, mean), 3),
        error=round(math.sqrt(var / m), 3),
        deals=m,
    )


def facts(final: GameState, d: Decision) -> Facts:
    """What followed decision ``d`` in the game (:class:`Facts`)."""
    if d.round <= len(final.results):
        result = final.results[d.round - 1]
        events = result.events
        end, out_seat, score = result.end, result.out_seat, result.scores[d.seat]
        leftovers = result.leftovers[d.seat]
    else:  # the round still in play
        events, end, out_seat, score, leftovers = final.events, None, None, None, ()
    rest = events[d.move :]  # after the decision's own event (d.move counts from 1)
    followed: list[Event] = []
    for e in rest:
        if e.seat == d.seat or len(followed) == FOLLOWED:
            break
        followed.append(e)
    kept, kept_pips = None, 0
    if d.best.type == "play" and end is not None:
        t = tile(*d.best.tile)
        if not (d.chosen.type == "play" and tile(*d.chosen.tile) == t) and t in leftovers:
            kept, kept_pips = t, t[0] + t[1]
    return Facts(
        kept=kept, kept_pips=kept_pips, followed=tuple(followed), end=end, out_seat=out_seat, score=score,
        moves_left=len(rest),
    )


def review_game(
    final: GameState,
    seats: Sequence[int],
    budget: int = DEFAULT_BUDGET,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Review:
    """Review the decisions of ``seats`` in the game that led to ``final`` (see the module's
    docstring). ``progress(done, total)`` is called before the first decision and after each;
    ``cancelled()`` is asked before each decision, and True raises :class:`Cancelled`."""
    seats = tuple(sorted(set(seats)))
    points = decision_points(final, seats)
    total = len(points)
    decisions: list[Decision] = []
    if progress is not None:
        progress(0, total)
    for i, point in enumerate(points):
        if cancelled is not None and cancelled():
            raise Cancelled
        decisions.append(value_decision(point, i + 1, budget, final.seed))
        if progress is not None:
            progress(i + 1, total)
    worst = sorted((d for d in decisions if d.cost > 0), key=lambda d: (-d.cost, d.step))[:HIGHLIGHTS]
    by_step = {p.step: p for p in points}
    highlights = tuple(
        Highlight(
            decision=d,
            position=view(by_step[d.step].state, d.seat),
            facts=facts(final, d),
        )
        for d in worst
    )
    rounds = []
    for number in range(1, final.round + 1 if not final.over else len(final.results) + 1):
        for seat in seats:
            mine = [d for d in decisions if d.round == number and d.seat == seat]
            score = final.results[number - 1].scores[seat] if number <= len(final.results) else None
            top = max(mine, key=lambda d: (d.cost, -d.step), default=None)
            rounds.append(
                RoundSummary(
                    round=number,
                    seat=seat,
                    decisions=len(mine),
                    costly=sum(1 for d in mine if d.cost >= COSTLY),
                    cost=round(sum(d.cost for d in mine), 3),
                    score=score,
                    worst=top.number if top is not None and top.cost > 0 else None,
                )
            )
    return Review(
        seed=final.seed, budget=budget, seats=seats, decisions=tuple(decisions), rounds=tuple(rounds),
        highlights=highlights,
    )


def person_seats(kinds: Sequence[str]) -> tuple[int, ...]:
    """The seats a review looks at by default: the people's ("human"); every seat when no
    person played (a game of computers only)."""
    people = tuple(i for i, k in enumerate(kinds) if k == "human")
    return people or tuple(range(len(kinds)))


__all__ = [
    "COSTLY", "DEFAULT_BUDGET", "HIGHLIGHTS", "Cancelled", "Decision", "Facts", "Highlight", "Review",
    "RoundSummary", "Valued", "decision_points", "person_seats", "review_game", "value_decision", "value_moves",
]
