"""Game review: each decision of a person's seat valued with the expert's search (issue #36).

For every decision of a reviewed seat in a game (a finished or unfinished one, as a record
or a save holds it), the review rebuilds what that seat saw then (``view(state, seat)``),
takes the moves the expert would compare there (the planner's best plays and the
turn-ending choices, :meth:`ExpertPlayer.candidates`) plus the move actually chosen, and
values each one with the expert's rollouts: deals of the unseen tiles consistent with the
view (:class:`~.knowledge.Sampler`), every move played on the same deals (common random
numbers), then the planner plays every seat to the end of the round. A move's value is the
seat's round score difference (the other sides' mean less its own, :class:`~.expert.Goal`
without the game's win): in points.

A decision is valued in two stages, so that its cost is not the luck of the deals the best
move was picked on (the best of several noisy means is too high on those deals:
``benchmarks/review_bias.py``). First every move on ``budget`` deals, which names the best;
when that is the move chosen, the decision cost nothing. Otherwise the best and the move
chosen are valued again on ``budget`` other deals (on :data:`SETTLE` times as many when the
difference is worth telling but not clear yet): their difference there is the decision's
**cost** (clipped at 0), and their difference on its first ``budget`` deals its **gap** (an
unbiased estimate, which may be below 0, whether the stage went on or not). A
decision is **costly** when its cost is at least :data:`COSTLY` points and twice its
standard error (the loss is clear); the highlights are the costliest of those. A round's
points lost are the costs of its costly decisions, summed: clear losses only, so that a
round line never says fewer points than the decisions it counts as costly (a sum of every
decision's gap, noisy, could say 0 beside a costly decision of 10).

Everything is pure and deterministic: the deals of decision ``i`` come from generators
seeded with the game's seed and ``i``. ``budget`` is the number of deals per stage (each
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
#: A decision costing at least this many points, and twice its standard error, is costly:
#: counted so in a round's summary, and one of those the review may highlight.
COSTLY = 2.0
#: How many standard errors a costly decision's cost is at least (its loss is clear).
CLEAR = 2.0
#: A second stage whose gap is at least COSTLY but not clear yet grows to this many times
#: the budget's deals, once, to settle it (a real mistake of 10 points is often not clear on
#: 48 deals, and is on 192).
SETTLE = 4
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
    #: more turns of the table (:func:`turns_after`)
    end: str | None = None
    out_seat: int | None = None
    score: int | None = None
    turns_left: int = 0


class Decision(_Frozen):
    """One decision of a reviewed seat."""

    number: int  # counted from 1 over the reviewed decisions of the game
    step: int  # the event's index over the whole game, from 0 (the replay viewer's step - 1)
    round: int
    move: int  # the event's index in its round, from 1
    seat: int
    chosen: Action
    best: Action
    moves: tuple[Valued, ...]  # best first (the first stage's values)
    #: the best less the chosen on the second stage's first ``budget`` deals, in points (0
    #: when the chosen move was the best): may be below 0, where the best was picked by the
    #: deals' luck. Unbiased whether or not the stage went on (going on depends on it):
    #: ``benchmarks/review_bias.py`` reads it.
    gap: float
    cost: float  # the best less the chosen over all the second stage's deals, clipped at 0: points
    error: float  # standard error of that over the second stage's deals (0: no second stage)
    deals: int  # deals of the second stage (the first's, when there was none)

    @property
    def costly(self) -> bool:
        """The decision clearly cost points: at least COSTLY, and CLEAR standard errors."""
        return self.cost >= COSTLY and self.cost >= CLEAR * self.error


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
    cost: float  # the points lost: the costs of its costly decisions, summed
    score: int | None  # the seat's score of the round (None: unfinished)
    worst: int | None  # number of its costliest costly decision (None: none was costly)


class Review(_Frozen):
    seed: int
    budget: int
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]
    rounds: tuple[RoundSummary, ...]
    highlights: tuple[Highlight, ...]

    @property
    def total(self) -> float:
        """The points lost in all: the rounds' points lost, summed."""
        return round(sum(r.cost for r in self.rounds), 3)


class Cancelled(Exception):
    """The review was cancelled (``cancelled()`` answered True)."""


# ---------------------------------------------------------------------------------------
# The one place that calls the expert's machinery
# ---------------------------------------------------------------------------------------
def value_moves(
    position: SeatView, chosen: Action, deals: int, rng: random.Random, only: Sequence[Action] | None = None
) -> tuple[list[Action], list[list[float]]]:
    """(the moves valued, each one's values on the same ``deals`` deals): the expert's
    candidates at ``position`` (the planner's best plays, the turn-ending choices) and
    ``chosen`` (or the moves ``only``), each played on every deal of the unseen tiles, then
    the round played out by the planner for every seat (the expert's rollouts). Values are
    the seat's round score difference, in points."""
    from ..rules.core import check, step
    from ..rules.core.deal import permuted
    from . import playout as fast
    from .expert import ROLLOUT_PLAN_BUDGET, ExpertPlayer, Goal, one_round
    from .knowledge import Sampler, lacking_values
    from .planner import DEFAULT_WEIGHTS, planner_decide

    if only is None:
        legal = view_legal_actions(position)
        lacking = lacking_values(position)
        base, reason, _score = planner_decide(position, position.seat, legal, lacking)
        expert = ExpertPlayer(max_candidates=MAX_PLAYS)
        moves = [a for a, _why in expert.candidates(position, legal, lacking, base, reason, DEFAULT_WEIGHTS)]
    else:
        moves = list(only)
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
    """One decision valued in two stages of ``budget`` deals each (the module's docstring;
    deterministic: ``seed`` and the step)."""
    position = view(point.state, point.seat)
    deals = max(2, budget)
    moves, values = value_moves(position, point.chosen, deals, random.Random(f"review:{seed}:{point.step}"))
    means = [sum(v) / len(v) for v in values]
    order = sorted(range(len(moves)), key=lambda i: (-means[i], i))
    best = order[0]
    mean = var = gap = 0.0
    m = deals
    if moves[best] != point.chosen:  # the best and the chosen again, on other deals
        rng = random.Random(f"review-gap:{seed}:{point.step}")
        diffs: list[float] = []
        for more in (deals, (SETTLE - 1) * deals):
            _moves, (better, mine) = value_moves(position, point.chosen, more, rng, only=(moves[best],))
            diffs += [a - b for a, b in zip(better, mine, strict=True)]
            m = len(diffs)
            mean = sum(diffs) / m
            var = sum((d - mean) ** 2 for d in diffs) / (m - 1)
            if m == deals:
                gap = mean  # the first ``deals`` only, whatever follows: what sums may add up
            if mean < COSTLY or mean >= CLEAR * math.sqrt(var / m):
                break  # no cost worth telling, or a clear one: settled
    return Decision(
        number=number,
        step=point.step,
        round=point.round,
        move=point.move,
        seat=point.seat,
        chosen=point.chosen,
        best=moves[best],
        moves=tuple(Valued(action=moves[i], value=round(means[i], 3)) for i in order),
        gap=round(gap, 3),
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
        turns_left=turns_after(rest, d.seat),
    )


def turns_after(rest: Sequence[Event], seat: int) -> int:
    """How many turns of the table began in ``rest``, the events after one of ``seat``'s: the
    seat's own turn goes on while its events follow one another (a double's cover, a draw then
    a play), and each change of seat begins a turn: after seat 0's play, the events 0 play,
    1 draw, 1 pass, 0 play are 2 turns.
    """
    turns, last = 0, seat
    for e in rest:
        if e.seat != last:
            turns, last = turns + 1, e.seat
    return turns


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
    worst = sorted((d for d in decisions if d.costly), key=lambda d: (-d.cost, d.step))[:HIGHLIGHTS]
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
            top = max((d for d in mine if d.costly), key=lambda d: (d.cost, -d.step), default=None)
            rounds.append(
                RoundSummary(
                    round=number,
                    seat=seat,
                    decisions=len(mine),
                    costly=sum(1 for d in mine if d.costly),
                    cost=round(sum(d.cost for d in mine if d.costly), 3),
                    score=score,
                    worst=None if top is None else top.number,
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
    "CLEAR", "COSTLY", "DEFAULT_BUDGET", "HIGHLIGHTS", "SETTLE", "Cancelled", "Decision", "Facts", "Highlight",
    "Review", "RoundSummary", "Valued", "decision_points", "person_seats", "review_game", "value_decision", "value_moves",
]
