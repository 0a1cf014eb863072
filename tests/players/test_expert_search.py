"""The expert's search: points before the last round, the game's win in it (docs/rules.md §7), and
more rollouts for a contested decision."""

from __future__ import annotations

import random

import pytest

from mexitrain.players.expert import ExpertPlayer, Goal
from mexitrain.rules import RuleSet, apply, legal_actions, new_game, view


def _round_two(players: int, prior: tuple[int, ...], rounds: int = 2, teams: bool = False):
    """A state at the start of round 2 whose round 1 scored ``prior``."""
    state = new_game(RuleSet(set=9, rounds=rounds, teams=teams), players, seed=3)
    rng = random.Random(3)
    while state.round == 1:
        state = apply(state, rng.choice(legal_actions(state)))
    first = state.results[0].model_copy(update={"scores": prior})
    return state.model_copy(update={"results": (first,)})


def test_before_the_last_round_only_points_count():
    v = view(_round_two(2, (10, 30), rounds=3), 0)
    goal = Goal(v, 0)
    assert goal.value((5, 20)) == 15
    assert goal.value((40, 0)) == -40  # losing the round is not losing the game yet


def test_in_the_last_round_winning_the_game_counts():
    """§7: the lowest total wins; the seat's points still break ties between moves."""
    v = view(_round_two(2, (10, 30)), 0)
    goal = Goal(v, 0, win_points=100)
    assert goal.value((15, 0)) == -15 + 100  # 25 against 30: the game is won
    assert goal.parts((15, 0)) == (-15, 1.0) and goal.parts((25, 0)) == (-25, 0.0)
    assert goal.value((25, 0)) == -25  # 35 against 30: lost
    assert Goal(v, 1, win_points=100).value((25, 0)) == 25 + 100


def test_equal_totals_go_by_the_tie_breaks():
    """§7: equal totals: most zero rounds, then the lowest non-zero round; else shared."""
    assert Goal(view(_round_two(2, (10, 30)), 0), 0).value((20, 0)) == -20  # 30-30, they have a 0
    assert Goal(view(_round_two(2, (30, 10)), 0), 0).value((0, 20)) == 20 + 100  # we have a 0
    assert Goal(view(_round_two(2, (12, 10)), 0), 0).value((5, 7)) == 2 + 100  # lowest round 5
    assert Goal(view(_round_two(2, (10, 10)), 0), 0).value((5, 5)) == 50  # shared win


def test_three_players_and_teams():
    v = view(_round_two(3, (10, 20, 30)), 1)
    assert Goal(v, 1, win_points=60).value((15, 0, 3)) == (15 + 3) / 2 + 60  # 25, 20, 33
    assert Goal(v, 1, win_points=60).value((9, 10, 3)) == (9 + 3) / 2 - 10  # 19, 30, 33
    t = view(_round_two(4, (5, 10, 5, 10), teams=True), 0)  # teams 0+2 (10) and 1+3 (20)
    assert Goal(t, 2).value((0, 0, 12, 0)) == -12  # 22 against 20
    assert Goal(t, 2, win_points=100).value((4, 0, 5, 0)) == -9 + 100  # 19 against 20


@pytest.mark.parametrize("rounds, last", [(2, True), (3, False)])
def test_the_expert_weighs_the_win_only_in_the_last_round(rounds, last):
    """Same seed, same deals: in the last round each candidate's value grows by the win
    points times its share of wins; earlier, the win points change nothing."""
    state = _round_two(2, (10, 12), rounds=rounds)
    seen = 0
    while state.round == 2 and seen < 4:
        v = view(state, state.turn)
        if len(legal_actions(state)) > 1 and v.phase != "chain":
            stats = []
            for w in (0, 1000):
                expert = ExpertPlayer(5, rollouts=8, max_candidates=2, win_points=w)
                expert.decide(v)
                stats.append(expert.last_stats)
            if stats[0]["candidates"] == 2:  # no halving: both searches play the same deals
                seen += 1
                for a, b in zip(stats[0]["values"], stats[1]["values"], strict=True):
                    if last:
                        assert 0 <= b - a <= 1000
                    else:
                        assert b == a
                if last:
                    assert stats[0]["values"] != stats[1]["values"]
        state = apply(state, legal_actions(state)[0])
    assert seen


def test_a_contested_decision_gets_more_rollouts():
    """A rival that looks better than the planner's move, but not surely, gets up to ``extra``
    times the budget more, on the two alone; other decisions cost and choose the same."""
    from mexitrain.players.expert import MAX_ROLLOUT_FACTOR
    from mexitrain.players.planner import PlannerPlayer

    state = new_game(RuleSet(set=9, rounds=1), 2, seed=11)
    contested = plain = 0
    while not state.over and (contested < 2 or plain < 2):
        v = view(state, state.turn)
        if len(legal_actions(state)) > 1 and v.phase != "chain":
            runs = []
            for extra in (0, 2):
                expert = ExpertPlayer(7, rollouts=8, extra=extra)
                runs.append((expert.decide(v)[0], expert.last_stats["rollouts"]))
            (a0, used0), (a2, used2) = runs
            if used2 > used0:
                contested += 1
                assert a0 == PlannerPlayer().choose(v)  # without more rollouts it kept the planner's
                assert used2 - used0 <= 2 * 8 * MAX_ROLLOUT_FACTOR
            else:
                plain += 1
                assert (a2, used2) == (a0, used0)
        state = apply(state, PlannerPlayer().choose(view(state, state.turn)))
    assert contested and plain


@pytest.mark.parametrize("rounds, said", [(1, "a better chance to win the game"), (2, "points a round")])
def test_the_reason_for_overriding_the_planner_names_what_is_at_stake(rounds, said):
    """In the last round a move that beats the planner's is said to do better for the win of
    the game (its value mixes points and wins); before it, by how many points."""
    from mexitrain.players.planner import PlannerPlayer

    for seed in range(20):
        state = new_game(RuleSet(set=9, rounds=rounds), 3, seed=seed)
        while not state.over and state.round == 1:
            v = view(state, state.turn)
            if len(legal_actions(state)) > 1 and v.phase != "chain":
                action, why = ExpertPlayer(seed, rollouts=12).decide(v)
                if action != PlannerPlayer().choose(v):
                    assert said in why, why
                    return
            state = apply(state, PlannerPlayer().choose(v))
    pytest.fail("the expert never overrode the planner")


@pytest.mark.parametrize(
    "players, teams, expected",
    [(2, False, 1.0), (3, False, 1.5), (4, False, 1.5), (4, True, 1.0)],
)
def test_the_evidence_asked_of_a_change_depends_on_the_sides(players, teams, expected):
    """Another move replaces the planner's when it is better by 1 standard error at a table of
    two sides, by 1.5 at three sides or more (docs/expert-search.md: how the search's settings were chosen).
    The default plays exactly as that setting, and at some decision unlike the other one."""
    from mexitrain.players.expert import CONFIDENCE, CONFIDENCE_MANY
    from mexitrain.players.planner import PlannerPlayer

    assert (CONFIDENCE, CONFIDENCE_MANY) == (1.0, 1.5)
    other = 2.5 - expected
    differs = checked = 0
    for seed in range(40):
        state = new_game(RuleSet(set=9, rounds=1, teams=teams), players, seed=seed)
        while not state.over and differs == 0:
            v = view(state, state.turn)
            if len(legal_actions(state)) > 1 and v.phase != "chain":
                runs = []
                for c in (None, expected, other):
                    expert = ExpertPlayer(seed, rollouts=6, confidence=c)
                    runs.append((expert.decide(v)[0], expert.last_stats.get("rollouts")))
                assert runs[0] == runs[1]
                checked += 1
                differs += runs[0] != runs[2]
            state = apply(state, PlannerPlayer().choose(view(state, state.turn)))
        if differs:
            break
    assert checked and differs


@pytest.mark.parametrize("players, expected", [(2, 330), (3, 270), (4, 270)])
def test_the_default_budget_depends_on_the_table(players, expected):
    """At its default strength the expert thinks 330 rollouts a decision at two players, whose
    rollouts cost less, and 270 at three or more, so that it thinks about as long at every table
    (docs/performance.md). The default searches exactly as that budget, and unlike the other one."""
    from mexitrain.players.expert import DEFAULT_ROLLOUTS, DEFAULT_ROLLOUTS_TWO, default_rollouts

    assert (DEFAULT_ROLLOUTS_TWO, DEFAULT_ROLLOUTS) == (330, 270)
    assert default_rollouts(players) == expected
    other = 600 - expected
    state = new_game(RuleSet(set=9, rounds=1), players, seed=players)
    rng = random.Random(players)
    while True:
        v = view(state, state.turn)
        if len(legal_actions(state)) > 1 and v.phase != "chain":
            break
        state = apply(state, rng.choice(legal_actions(state)))
    runs = []
    for budget in (None, expected, other):
        expert = ExpertPlayer(11, rollouts=budget)
        runs.append((expert.decide(v), expert.last_stats))
    assert runs[0] == runs[1]
    assert runs[0][1]["rollouts"] > 0
    assert runs[0][1]["rollouts"] != runs[2][1]["rollouts"]


@pytest.mark.parametrize("collecting", [True, False])
def test_a_search_leaves_the_cycle_collector_as_it_found_it(collecting: bool):
    """The expert pauses Python's cycle collector while it searches (a search makes no
    reference cycles, and the collector's passes over the memos cost it time), and gives it
    back as it was: on where it was on, off where the program had turned it off."""
    import gc

    state = new_game(RuleSet(set=9, rounds=1), 2, seed=11)
    searched = 0
    (gc.enable if collecting else gc.disable)()
    try:
        while searched < 2:
            v = view(state, state.turn)
            expert = ExpertPlayer(7, rollouts=4)
            action = expert.decide(v)[0]
            searched += bool(expert.last_stats["rollouts"])
            assert gc.isenabled() is collecting
            state = apply(state, action)
    finally:
        gc.enable()
