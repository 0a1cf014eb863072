"""The computer levels: registration, what greedy and the planner choose, determinism."""

from __future__ import annotations

import pytest
from support.positions import position

from mexitrain.game_setup import AI_LEVELS, DEFAULT_AI
from mexitrain.players import LEVELS, make_player
from mexitrain.players.expert import ExpertPlayer
from mexitrain.rules import MEXICAN, Draw, Play, RuleSet, apply, new_game, view


def _choose(level: str, state, seat: int | None = None, **kw):
    seat = state.turn if seat is None else seat
    player = ExpertPlayer(0, **kw) if level == "expert" else make_player(level, 0)
    return player.choose(view(state, seat))


def test_every_setup_level_is_registered():
    assert set(AI_LEVELS) <= set(LEVELS)
    assert DEFAULT_AI in LEVELS
    for level in LEVELS:
        assert make_player(level, 3).name == level
    with pytest.raises(ValueError, match="unknown computer level"):
        make_player("grandmaster")


def test_the_kept_levels_are_made_but_never_offered_at_a_table():
    """expert-full (the expert before issue #36 cut its rollouts at two players) plays the
    games kept of it; the new-game form and a network table offer LEVELS and AI_LEVELS only."""
    from mexitrain.players import KEPT_LEVELS
    from mexitrain.players.expert import FullExpertPlayer

    assert set(KEPT_LEVELS) == {"expert-full"} and not set(KEPT_LEVELS) & set(LEVELS)
    assert not set(KEPT_LEVELS) & set(AI_LEVELS)
    player = make_player("expert-full", 3)
    assert isinstance(player, FullExpertPlayer) and player.name == "expert-full" and player.cut(2) == 0


# -- greedy ---------------------------------------------------------------------------------
def test_greedy_plays_the_heaviest_tile():
    s = position(hands=[[(12, 3), (12, 11), (5, 6)], [(1, 2)]], boneyard=[(0, 0)])
    a = _choose("greedy", s)
    assert isinstance(a, Play) and sorted(a.tile) == [11, 12]


def test_greedy_keeps_the_tiles_that_fit_its_own_train():
    # 12-3 (own train) and 11-4 (Mexican Train) weigh 15 each. After 12-3 more tiles fit some
    # end (the Mexican Train's 4 takes 4-5, 4-6, 4-11), but after 11-4 more fit its own
    # train's 12 (12-3, 12-0), which the opponent cannot change: greedy plays 11-4.
    s = position(
        hands=[[(12, 3), (4, 11), (3, 1), (4, 5), (4, 6), (12, 0)], [(1, 2)]],
        trains={MEXICAN: [(12, 7), (7, 4)]},
        boneyard=[(0, 0)],
    )
    assert _choose("greedy", s) == Play(tile=(4, 11), train=MEXICAN)


def test_greedy_then_counts_the_tiles_that_fit_any_end():
    # 12-4 (own train) and 11-5 (Mexican Train) weigh 16 each and each leaves one tile on the
    # own train's end (4-2 after 12-4; 12-4 itself after 11-5). Then the tiles fitting any
    # end decide: after 11-5 the Mexican Train's 5 also takes 5-0 and 5-1, so 11-5 it is.
    s = position(
        hands=[[(12, 4), (11, 5), (4, 2), (5, 0), (5, 1)], [(1, 2)]],
        trains={MEXICAN: [(12, 11)]},
        boneyard=[(0, 0)],
    )
    assert _choose("greedy", s) == Play(tile=(11, 5), train=MEXICAN)


def test_greedy_prefers_a_double_it_can_follow():
    # 11-11 on its train's 11 and 12-10 on the empty Mexican Train weigh 22 each; 12-10 can
    # follow the double, so greedy plays the double.
    s = position(
        hands=[[(12, 10), (11, 11), (3, 1)], [(1, 2)]],
        trains={0: [(12, 11)]},
        boneyard=[(0, 0)],
    )
    assert _choose("greedy", s) == Play(tile=(11, 11), train=0)


def test_greedy_lifts_its_marker_before_keeping_tiles_for_its_train():
    # 5-6 fits its marked train (5) and the Mexican Train (6): on its own train it lifts the
    # marker, although on the Mexican Train it would keep 5-1 and 5-2 fitting its train.
    s = position(
        hands=[[(5, 6), (5, 1), (5, 2)], [(1, 2)]],
        trains={0: [(12, 5)], MEXICAN: [(12, 6)]},
        markers=[0],
        boneyard=[(0, 0)],
    )
    assert _choose("greedy", s) == Play(tile=(5, 6), train=0)


def test_greedy_leaves_an_opponents_marked_train_alone():
    # 7-11 fits the Mexican Train's 7 and the opponent's marked train's 7 (a value the
    # opponent could not match when it marked the train), and either way the same ends stay
    # open: greedy plays on the Mexican Train, not on the opponent's train.
    s = position(
        hands=[[(7, 11), (1, 3)], [(1, 2)]],
        trains={1: [(12, 7)], MEXICAN: [(12, 4), (4, 7)]},
        markers=[1],
        boneyard=[(0, 0)],
    )
    assert _choose("greedy", s) == Play(tile=(7, 11), train=MEXICAN)


def test_greedy_draws_when_forced():
    s = position(hands=[[(1, 3)], [(1, 2)]], boneyard=[(0, 0)])
    assert _choose("greedy", s) == Draw()


# -- planner --------------------------------------------------------------------------------
def test_planner_sheds_an_extra_on_the_mexican_train_and_keeps_its_plan():
    # plan from 12: 12-5, 5-3; the extra 11-10 fits the Mexican Train's 11
    s = position(
        hands=[[(12, 5), (5, 3), (10, 11)], [(1, 2)]],
        trains={MEXICAN: [(12, 11)]},
        boneyard=[(0, 0)],
    )
    a = _choose("planner", s)
    assert a == Play(tile=(11, 10), train=MEXICAN)


def test_planner_follows_its_plan_when_no_extra_fits():
    s = position(hands=[[(12, 5), (5, 3), (1, 10)], [(1, 2)]], boneyard=[(0, 0)])
    a = _choose("planner", s)
    assert a == Play(tile=(12, 5), train=0)


def test_planner_does_not_break_its_plan_on_a_public_train():
    # 5-3 also fits the Mexican Train's 5, but it is the middle of the plan 12-5, 5-3, 3-9
    s = position(
        hands=[[(12, 5), (5, 3), (3, 9)], [(1, 2)]],
        trains={MEXICAN: [(12, 4), (4, 5)]},
        boneyard=[(0, 0)],
    )
    assert _choose("planner", s) == Play(tile=(12, 5), train=0)


def test_planner_dumps_heavy_tiles_when_an_opponent_is_nearly_out():
    hands = [[(12, 10), (10, 9), (1, 6)], [(1, 2)]]
    mex = {MEXICAN: [(12, 6)]}
    calm = position(hands=[hands[0], [(1, 2), (2, 2), (3, 4)]], trains=mex, boneyard=[(0, 0)])
    assert _choose("planner", calm) == Play(tile=(6, 1), train=MEXICAN)  # the extra
    danger = position(hands=hands, trains=mex, boneyard=[(0, 0)])
    assert _choose("planner", danger) == Play(tile=(12, 10), train=0)  # the heaviest


def test_planner_makes_its_marked_train_private_again():
    s = position(
        hands=[[(12, 5), (5, 3), (1, 10)], [(1, 2)]],
        trains={MEXICAN: [(12, 1)]},
        markers=[0],
        boneyard=[(0, 0)],
    )
    # 1-10 fits the Mexican Train, but the marker on its own train goes first
    assert _choose("planner", s) == Play(tile=(12, 5), train=0)


def test_planner_under_must_satisfy_puts_an_unfollowable_double_on_a_public_train():
    rules = RuleSet(double_follow_up="must_satisfy")
    s = position(
        rules,
        hands=[[(6, 6), (1, 2)], [(3, 4)]],
        trains={0: [(12, 6)], MEXICAN: [(12, 7), (7, 6)]},
        boneyard=[(0, 0)],
    )
    assert _choose("planner", s) == Play(tile=(6, 6), train=MEXICAN)


def test_planner_leaves_its_partners_train_alone():
    rules = RuleSet(teams=True)
    # seat 0's partner is seat 2; 3-8 fits both the partner's train (3) and the Mexican (3)
    s = position(
        rules,
        hands=[[(3, 8), (12, 1), (1, 4)], [(0, 1)], [(0, 2)], [(0, 3)]],
        trains={2: [(12, 3)], MEXICAN: [(12, 9), (9, 3)]},
        boneyard=[(0, 0)],
    )
    a = _choose("planner", s)
    assert a == Play(tile=(3, 8), train=MEXICAN)


def test_planner_lays_its_longest_chain_in_a_chain_opening():
    rules = RuleSet(opening="first_turn_chain")
    s = position(
        rules,
        hands=[[(12, 1), (12, 2), (2, 3), (3, 4), (9, 9)], [(0, 5)]],
        boneyard=[(0, 0)],
        chain_right=[True, True],
    )
    assert _choose("planner", s) == Play(tile=(12, 2), train=0)


# -- every level ----------------------------------------------------------------------------
def _game_actions(level: str, seed: int, rules: RuleSet, players: int = 2) -> list:
    seats = [
        (ExpertPlayer(seed + i, rollouts=6) if level == "expert" else make_player(level, seed + i))
        for i in range(players)
    ]
    state = new_game(rules, players, seed)
    actions = []
    while not state.over:
        a = seats[state.turn].choose(view(state, state.turn))
        actions.append(a)
        state = apply(state, a)
    return actions


@pytest.mark.parametrize("level", list(LEVELS))
def test_each_level_is_deterministic_for_its_seed(level):
    rules = RuleSet(set=6, rounds=1)
    first = _game_actions(level, 5, rules)
    assert first == _game_actions(level, 5, rules)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"double_follow_up": "must_satisfy", "blanks_wild": True, "trains_start_public": True},
        {"branching_doubles": True, "swan_drive": True},
        {"opening": "delayed_first_turn", "round_end": "until_blocked"},
        {"opening": "simultaneous", "engine": "highest_double"},
        {"teams": True, "team_marker": "both_stuck"},
    ],
)
@pytest.mark.parametrize("level", ["greedy", "planner"])
def test_levels_finish_games_in_every_variant(level, options):
    rules = RuleSet(set=9, rounds=2, **options)
    players = 4
    actions = _game_actions(level, 1, rules, players)
    assert actions


# -- expert ---------------------------------------------------------------------------------
def _choice_points(rules: RuleSet, seed: int, count: int):
    from mexitrain.rules import legal_actions

    state = new_game(rules, 4, seed)
    planner = make_player("planner", 0)
    out = []
    while not state.over and len(out) < count:
        if len(legal_actions(state)) > 2:
            out.append(state)
        state = apply(state, planner.choose(view(state, state.turn)))
    return out


def test_expert_without_budget_is_the_planner():
    """Without rollouts the expert plays the planner's policy with its own weights: the
    planner level's by default, others when given."""
    from mexitrain.players.knowledge import lacking_values
    from mexitrain.players.planner import TUNED_WEIGHTS, planner_decide
    from mexitrain.rules import view_legal_actions

    for state in _choice_points(RuleSet(set=9, rounds=1), 2, 4):
        v = view(state, state.turn)
        assert ExpertPlayer(0, rollouts=0).choose(v) == make_player("planner").choose(v)
        tuned = planner_decide(v, v.seat, view_legal_actions(v), lacking_values(v), weights=TUNED_WEIGHTS)[0]
        assert ExpertPlayer(0, rollouts=0, weights=TUNED_WEIGHTS).choose(v) == tuned


def test_the_expert_plays_the_planners_weights():
    """The tuned weights won no more for the expert (docs/tuned-weights.md)."""
    from mexitrain.players.planner import DEFAULT_WEIGHTS, TUNED_WEIGHTS

    assert TUNED_WEIGHTS != DEFAULT_WEIGHTS
    assert ExpertPlayer().weights == DEFAULT_WEIGHTS


def test_the_weights_change_the_planners_choice_somewhere():
    """The tuned weights are not a no-op: over a few 4-player games some choice differs."""
    from mexitrain.players.knowledge import lacking_values
    from mexitrain.players.planner import DEFAULT_WEIGHTS, TUNED_WEIGHTS, planner_decide
    from mexitrain.rules import view_legal_actions

    differ = 0
    for seed in range(6):
        for state in _choice_points(RuleSet(rounds=1), seed, 40):
            v = view(state, state.turn)
            legal = view_legal_actions(v)
            picks = {
                planner_decide(v, v.seat, legal, lacking_values(v), weights=w)[0]
                for w in (DEFAULT_WEIGHTS, TUNED_WEIGHTS)
            }
            differ += len(picks) > 1
    assert differ > 0


def test_expert_searches_within_its_budget():
    from mexitrain.players.expert import MAX_ROLLOUT_FACTOR
    from mexitrain.rules import legal_actions

    for state in _choice_points(RuleSet(set=9, rounds=1), 3, 3):
        v = view(state, state.turn)
        expert = ExpertPlayer(1, rollouts=6)
        action, why = expert.decide(v)
        assert action in legal_actions(state) and why
        stats = expert.last_stats
        assert 0 < stats["rollouts"] <= 6 * MAX_ROLLOUT_FACTOR + stats["candidates"]
        assert len(stats["values"]) == stats["candidates"]


def test_expert_rollout_plays_the_round_out():
    from mexitrain.players.expert import one_round, rollout

    state = one_round(new_game(RuleSet(set=9, rounds=3), 2, 4))
    value, steps = rollout(state, 0)
    assert steps > 0 and isinstance(value, float)
