"""The research level ``expert-me``: rollouts valued by the game's win (match equity) before
the last round, by the round's points and the win in it (docs/expert-search.md)."""

from __future__ import annotations

import pytest

from mexitrain.players.expert import EquityExpertPlayer, EquityGoal, ExpertPlayer, Goal
from mexitrain.rules import view

from .test_expert_search import _round_two  # a state in round 2 whose round 1 scored so


def test_in_the_last_round_it_is_the_goal():
    v = view(_round_two(2, (10, 30), rounds=2), 0)
    for scores in [(15, 0), (25, 0), (0, 40), (20, 0)]:
        assert EquityGoal(v, 0).value(scores) == Goal(v, 0).value(scores)


def test_at_even_totals_early_a_point_is_worth_about_a_point():
    v = view(_round_two(2, (20, 20), rounds=10), 0)
    goal = EquityGoal(v, 0)
    step = goal.value((10, 11)) - goal.value((11, 11))
    assert 0.95 < step < 1.2
    assert goal.value((0, 0)) == pytest.approx(goal.scale * 0.5)  # even: half the game's win


def test_more_points_for_the_seat_are_worth_less_every_time():
    v = view(_round_two(2, (30, 10), rounds=6), 0)
    goal = EquityGoal(v, 0)
    values = [goal.value((own, 5)) for own in range(0, 200, 10)]
    assert all(a > b for a, b in zip(values, values[1:], strict=False))


def test_far_ahead_points_matter_less_than_at_even_far_behind_too():
    """The bend that makes it play safe far ahead and take chances far behind."""
    rounds = 4
    even = EquityGoal(view(_round_two(2, (50, 50), rounds), 0), 0)
    ahead = EquityGoal(view(_round_two(2, (0, 400), rounds), 0), 0)
    behind = EquityGoal(view(_round_two(2, (400, 0), rounds), 0), 0)

    def cost(goal):  # what ten points more for the seat cost it
        return goal.value((0, 0)) - goal.value((10, 0))

    assert cost(ahead) < cost(even) / 3 and cost(behind) < cost(even) / 3
    assert cost(ahead) >= 1.0 - 1e-9  # the round's points still count a little (EQUITY_POINTS)


def test_three_sides_and_teams():
    v = view(_round_two(3, (10, 20, 30), rounds=8), 1)
    goal = EquityGoal(v, 1)
    assert goal.value((0, 0, 0)) > goal.value((0, 10, 0))
    assert goal.value((0, 0, 0)) < goal.value((20, 0, 0))  # a rival's points help the seat
    t = view(_round_two(4, (5, 10, 5, 10), rounds=8, teams=True), 0)
    team = EquityGoal(t, 2)
    assert len(team.sides) == 2 and team.value((0, 0, 0, 0)) > team.value((0, 0, 12, 0))


def test_the_equity_level_chooses_the_same_way_twice():
    state = _round_two(2, (40, 10), rounds=5)
    v = view(state, state.turn)
    a = EquityExpertPlayer(seed=5, rollouts=40).decide(v)
    b = EquityExpertPlayer(seed=5, rollouts=40).decide(v)
    assert a == b
    assert isinstance(EquityExpertPlayer().goal(v), EquityGoal)
    assert type(ExpertPlayer().goal(v)) is Goal  # the default expert is unchanged
