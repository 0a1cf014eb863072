"""Information-set MCTS (mexitrain/players/ismcts.py): legal, deterministic, blind to hidden
tiles, held to its budget, and a research level only."""

from __future__ import annotations

import random

import pytest
from support.positions import planner_positions, redistribute

from mexitrain.players import LEVELS, ExpertPlayer
from mexitrain.players.ismcts import IsmctsPlayer
from mexitrain.rules import RuleSet, apply, legal_actions, new_game, view

VARIANTS = [
    {},
    {"double_follow_up": "must_satisfy", "blanks_wild": True, "trains_start_public": True},
    {"teams": True, "swan_drive": True, "branching_doubles": True},
]


@pytest.mark.parametrize("opponents", ["search", "policy"])
@pytest.mark.parametrize("options", VARIANTS)
def test_it_plays_legal_moves_to_the_end_of_a_round(options, opponents):
    """Every seat an ismcts player on a small set: each choice is a legal action, and the
    round ends (the search's walks and rollouts end too)."""
    players = 4 if options.get("teams") else 2
    state = new_game(RuleSet(set=6, rounds=1, **options), players, seed=3)
    bots = [IsmctsPlayer(i, iterations=12, opponents=opponents) for i in range(players)]
    searched = 0
    while not state.over:
        seat = state.turn
        action = bots[seat].choose(view(state, seat))
        assert action in legal_actions(state)
        searched += bots[seat].last_stats["iterations"] > 0
        state = apply(state, action)
    assert searched > 0


def test_the_same_seed_and_view_give_the_same_choice():
    rules = RuleSet(rounds=1)
    states = planner_positions(rules, 5, 3)
    assert states
    differ = 0
    for state in states:
        v = view(state, state.turn)
        a = IsmctsPlayer(7, iterations=40)
        b = IsmctsPlayer(7, iterations=40)
        assert a.choose(v) == b.choose(v)
        assert a.last_stats == b.last_stats
        c = IsmctsPlayer(8, iterations=40)
        c.choose(v)
        differ += c.last_stats["visits"] != a.last_stats["visits"]
    assert differ  # the seed matters: another seed searches other deals


@pytest.mark.parametrize("opponents", ["search", "policy"])
@pytest.mark.parametrize("options", VARIANTS[:2])
def test_hidden_tiles_never_change_the_choice(options, opponents):
    """The other hands and the boneyard dealt again (the seat's view unchanged): the same
    choice and the same search, visit for visit."""
    rules = RuleSet(rounds=1, **options)
    rng = random.Random(3)
    for state in planner_positions(rules, 9, 3):
        seat = state.turn
        before = view(state, seat)
        p = IsmctsPlayer(11, iterations=30, opponents=opponents)
        choice = p.choose(before)
        visits = p.last_stats["visits"]
        other = redistribute(state, seat, rng)
        assert other.hands != state.hands
        after = view(other, seat)
        assert after == before
        q = IsmctsPlayer(11, iterations=30, opponents=opponents)
        assert q.choose(after) == choice
        assert q.last_stats["visits"] == visits


def test_the_budget_is_counted_in_iterations():
    """Each iteration visits exactly one child of the root; the tree grows by at most one
    node an iteration."""
    for state in planner_positions(RuleSet(rounds=1), 2, 2):
        v = view(state, state.turn)
        for k in (5, 25):
            p = IsmctsPlayer(1, iterations=k)
            p.choose(v)
            st = p.last_stats
            assert st["iterations"] == k
            assert sum(st["visits"].values()) == k
            assert 1 < st["nodes"] <= k + 1
            assert set(st["visits"]) <= set(legal_actions(state))


def test_no_search_without_a_choice_or_a_budget():
    state = planner_positions(RuleSet(rounds=1), 2, 1)[0]
    v = view(state, state.turn)
    p = IsmctsPlayer(1, iterations=0)
    p.choose(v)
    assert p.last_stats == {"iterations": 0}


def test_an_unknown_opponent_model_is_refused():
    with pytest.raises(ValueError):
        IsmctsPlayer(1, opponents="peek")


def test_a_research_level_only():
    """Not offered in the game: the default levels (and the expert's kept games) are unchanged."""
    assert "ismcts" not in LEVELS
    assert LEVELS["expert"] is ExpertPlayer


def test_a_confident_root_keeps_the_planners_move_unless_surely_beaten():
    """With ``confidence`` the planner's move is a child of the root and is kept unless
    another beats it by that many standard errors: with a huge one, always kept."""
    from mexitrain.players.knowledge import lacking_values
    from mexitrain.players.planner import planner_decide

    kept = 0
    for state in planner_positions(RuleSet(rounds=1), 4, 4):
        v = view(state, state.turn)
        base = planner_decide(v, v.seat, legal_actions(state), lacking_values(v))[0]
        p = IsmctsPlayer(2, iterations=30, confidence=1e9)
        assert p.choose(v) == base
        assert base in p.last_stats["visits"]
        q = IsmctsPlayer(2, iterations=30, confidence=0.0)
        kept += q.choose(v) == base
    assert kept < 4  # at no confidence, a child with a better mean is played
