"""The research level ``expert-v``: rollouts cut short and valued by a fitted score model
(mexitrain/players/value.py, docs/expert-search.md "A learned value of positions")."""

from __future__ import annotations

import random

import pytest

from mexitrain.players import playout as fast
from mexitrain.players.expert import CUT, ExpertPlayer, FullExpertPlayer, ValueExpertPlayer
from mexitrain.players.value import (
    FEATURES,
    HORIZON,
    MODELS,
    VALUE_COST,
    ScoreModel,
    features,
    fit,
    model_for,
)
from mexitrain.rules import (
    RuleSet,
    apply,
    legal_actions,
    make_rules,
    new_game,
    view,
    view_legal_actions,
)
from mexitrain.rules.core import hand_pips
from mexitrain.rules.core import new_game as core_game

from .test_expert_search import _round_two


def test_features_read_the_position():
    c = core_game(make_rules("standard"), 2, seed=4)
    rows = features(c)
    assert len(rows) == 2 and all(len(r) == len(FEATURES) for r in rows)
    bone = len(c.bone) - c.bpos
    for seat, row in enumerate(rows):
        named = dict(zip(FEATURES, row, strict=True))
        assert named["1"] == 1.0
        assert named["pips"] == hand_pips(c, c.hands[seat])
        assert named["tiles"] == c.hands[seat].bit_count()
        assert named["boneyard"] == bone
        assert named["turns until it plays"] == (seat - c.turn) % 2
        assert named["fewest tiles of the others"] == c.hands[1 - seat].bit_count()
        assert named["tiles of its plan"] <= named["tiles"] and named["pips of its plan"] <= named["pips"]
    before = (c.hands[:], c.bpos, c.ends[:], c.turn)
    features(c)
    assert (c.hands, c.bpos, c.ends, c.turn) == before  # reads, never changes


def test_fit_finds_the_weights_of_a_linear_rule():
    rng = random.Random(1)
    true = [rng.uniform(-2, 2) for _ in range(5)]
    rows = [[1.0] + [rng.uniform(0, 50) for _ in range(4)] for _ in range(400)]
    ys = [sum(a * b for a, b in zip(true, r, strict=True)) for r in rows]
    got = fit(rows, ys, ridge=0.0)
    assert got == pytest.approx(true, abs=1e-6)


def test_fit_survives_a_repeated_feature():
    """At two players two features are the same number; the ridge keeps the equations solvable."""
    rng = random.Random(2)
    rows = []
    for _ in range(200):
        x = rng.uniform(0, 10)
        rows.append([1.0, x, x])
    ys = [3 + 2 * r[1] for r in rows]
    w = fit(rows, ys)
    assert w[1] + w[2] == pytest.approx(2, abs=1e-3) and w[0] == pytest.approx(3, abs=1e-2)


def test_a_model_takes_one_weight_a_feature_and_never_predicts_below_zero():
    with pytest.raises(ValueError):
        ScoreModel((1.0, 2.0))
    c = core_game(make_rules("standard"), 3, seed=1)
    assert ScoreModel([-1.0] + [0.0] * (len(FEATURES) - 1)).scores(c) == (0.0, 0.0, 0.0)
    pips = ScoreModel([0.0, 1.0] + [0.0] * (len(FEATURES) - 2)).scores(c)
    assert pips == tuple(float(hand_pips(c, h)) for h in c.hands)


def test_every_fitted_model_has_its_weights_and_a_table_takes_the_nearest():
    assert MODELS and all(len(w) == len(FEATURES) for w in MODELS.values())
    for players in range(2, 9):
        m = model_for(players)
        size = min(MODELS, key=lambda p: (abs(p - players), p))
        assert m.weights == MODELS[size]


def _mid_round(players: int = 2, seed: int = 7, moves: int = 6):
    state = new_game(RuleSet(rounds=3), players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_a_cut_rollout_plays_its_horizon_then_asks_the_model():
    state = _mid_round()
    v = view(state, state.turn)
    player = ValueExpertPlayer(horizon=3)
    goal = player.goal(v)
    c = fast.start(state.model_copy(update={"rules": state.rules.model_copy(update={"rounds": 1})}))
    seen = []

    class Spy(ScoreModel):
        def scores(self, core, book=None):
            seen.append(core)
            return super().scores(core, book)

    player.model = Spy(model_for(2).weights)
    value, steps = player.rollout(c, None, None, goal)
    assert steps == 3 + VALUE_COST and seen == [c]
    assert value == goal.value(player.model.scores(c))


def _a_choice(state):
    """The view of the first seat from ``state`` on that has two moves or more."""
    while len(view_legal_actions(view(state, state.turn))) < 2:
        state = apply(state, legal_actions(state)[0])
    return view(state, state.turn)


def test_in_the_last_round_it_searches_as_the_expert():
    """A win is at stake there: no cut, the same rollouts, the same choice and values."""
    state = _round_two(2, (30, 10), rounds=2)
    v = _a_choice(state)
    a, b = ValueExpertPlayer(seed=3, rollouts=30), FullExpertPlayer(seed=3, rollouts=30)
    assert a.decide(v) == b.decide(v)
    assert a.last_stats == b.last_stats and a.last_stats["rollouts"] > 0


def test_it_plays_a_legal_move_the_same_way_twice():
    state = _mid_round(4, seed=11, moves=9)
    v = _a_choice(state)
    first = ValueExpertPlayer(seed=5, rollouts=20).decide(v)
    assert first == ValueExpertPlayer(seed=5, rollouts=20).decide(v)
    assert first[0] in view_legal_actions(v)


def test_the_default_expert_cuts_its_rollouts_at_two_players_only():
    """Issue #36: at two players the default expert is expert-v (horizon 24); at three and more
    it plays every rollout to the end, as expert-full does at every table."""
    assert CUT == {2: HORIZON}
    assert ExpertPlayer().cut(2) == HORIZON == ValueExpertPlayer().cut(4)
    assert ExpertPlayer().cut(3) == ExpertPlayer().cut(4) == 0
    assert FullExpertPlayer().cut(2) == 0


@pytest.mark.parametrize(("players", "same_as"), [(2, ValueExpertPlayer), (4, FullExpertPlayer)])
def test_the_default_expert_decides_as_the_level_its_table_takes(players, same_as):
    """At two players the default expert's decision is expert-v's (the same move, values and
    rollouts); at four, the full expert's; and each differs from the other where it counts."""
    state = _mid_round(players, seed=21, moves=7)
    v = _a_choice(state)
    a, b = ExpertPlayer(seed=4, rollouts=40), same_as(seed=4, rollouts=40)
    assert a.decide(v) == b.decide(v)
    assert a.last_stats == b.last_stats and a.last_stats["rollouts"] > 0
    other = (FullExpertPlayer if same_as is ValueExpertPlayer else ValueExpertPlayer)(seed=4, rollouts=40)
    other.decide(v)
    assert other.last_stats["rollouts"] != a.last_stats["rollouts"]  # cut rollouts are more
