"""What the events tell about hidden hands, and sampling consistent with it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from support.positions import position

from mexitrain.players import make_player
from mexitrain.players.knowledge import Sampler, consistent, constraints, lacking_values
from mexitrain.rules import MEXICAN, Draw, Mark, Play, RuleSet, apply, new_game, view

VARIANTS = [
    {},
    {"double_follow_up": "must_satisfy"},
    {"blanks_wild": True},
    {"branching_doubles": True, "swan_drive": True},
    {"teams": True, "team_marker": "both_stuck"},
    {"opening": "first_turn_chain"},
    {"opening": "simultaneous", "engine": "highest_double"},
    {"opening": "delayed_first_turn", "round_end": "until_blocked", "trains_start_public": True},
]


def _walk(rules: RuleSet, seed: int, players: int = 4):
    state = new_game(rules, players, seed)
    seats = [make_player("planner" if i % 2 else "greedy", i) for i in range(players)]
    while not state.over:
        yield state
        state = apply(state, seats[state.turn].choose(view(state, state.turn)))


@pytest.mark.parametrize("options", VARIANTS)
def test_the_true_hands_always_satisfy_the_inferences(options):
    rules = RuleSet(set=9, rounds=3, **options)
    for k, state in enumerate(_walk(rules, 4)):
        if k % 3:
            continue
        for seat in range(state.players):
            v = view(state, seat)
            hidden = {i: state.hands[i] for i in range(state.players) if v.hands[i] is None}
            assert consistent(v, hidden)


@pytest.mark.parametrize("options", VARIANTS[:4])
def test_samples_are_consistent_and_deal_exactly_the_unseen_tiles(options):
    rules = RuleSet(set=9, rounds=2, **options)
    rng = random.Random(0)
    for k, state in enumerate(_walk(rules, 9)):
        if k % 7:
            continue
        v = view(state, state.turn)
        sampler = Sampler(v)
        for _ in range(3):
            det = sampler.state(rng)
            assert det.hand_sizes == state.hand_sizes
            assert len(det.boneyard) == len(state.boneyard)
            assert det.hands[v.seat] == v.hand
            dealt = Counter(t for i, h in enumerate(det.hands) if i != v.seat for t in h)
            dealt.update(det.boneyard)
            assert dealt == Counter(v.unseen())
            hidden = {i: det.hands[i] for i in range(state.players) if i != v.seat}
            assert consistent(v, hidden)
        assert sampler.violations == 0


def test_a_marker_means_no_tile_for_the_open_ends():
    # seat 1 cannot play on 12 (own train, Mexican Train): it draws 0-0 and marks
    s = position(
        hands=[[(12, 1), (1, 1)], [(2, 3), (4, 5)]],
        boneyard=[(0, 0), (6, 7), (8, 9)],
        turn=1,
        first_seat=1,
    )
    s = apply(s, Draw())
    s = apply(s, Mark())
    v = view(s, 0)
    drew, marked = constraints(v)
    assert (drew.seat, drew.ends, drew.draws_after) == (1, {12}, 1)  # before its draw
    assert (marked.seat, marked.ends, marked.draws_after) == (1, {12}, 0)  # with the drawn tile
    assert lacking_values(v) == {1: frozenset({12})}
    rng = random.Random(3)
    sampler = Sampler(v)
    for _ in range(50):
        hands = sampler.hands(rng)
        assert not any(12 in t for t in hands[1])


def test_a_later_draw_loosens_the_inference():
    s = position(
        hands=[[(12, 1), (1, 1), (3, 3)], [(2, 3), (4, 5)]],
        boneyard=[(0, 0), (6, 7), (8, 9), (12, 11)],
        turn=1,
        first_seat=1,
    )
    s = apply(apply(s, Draw()), Mark())  # seat 1 holds no 12
    s = apply(s, Play(tile=(12, 1), train=MEXICAN))  # seat 0
    s = apply(s, Draw())  # seat 1 cannot play on 1 or 12 either: one more tile
    v = view(s, 0)
    rng = random.Random(5)
    sampler = Sampler(v)
    counts = Counter(sum(12 in t for t in sampler.hands(rng)[1]) for _ in range(200))
    assert max(counts) <= 1 and counts[1] > 0


def test_an_impossible_inference_still_deals_every_tile_once():
    from mexitrain.players.knowledge import Constraint

    state = new_game(RuleSet(), 4, 1)
    v = view(state, state.turn)
    sampler = Sampler(v)
    for seat in sampler.hidden:  # "held no tile at all": cannot be met, so it is dropped
        sampler.by_seat[seat] = [Constraint(seat, 0, frozenset(range(13)), False, 0)]
        sampler.used0[seat] = [0]
    rng = random.Random(2)
    det = sampler.state(rng)
    assert sampler.violations > 0
    dealt = Counter(t for i, h in enumerate(det.hands) if i != v.seat for t in h)
    dealt.update(det.boneyard)
    assert dealt == Counter(v.unseen())
    assert det.hand_sizes == state.hand_sizes
