"""docs/rules.md §3: rounds and turn order."""

from __future__ import annotations

import random

import pytest
from support.games import finish
from support.positions import position, run

from mexitrain.rules import Play, RuleSet, deal, full_set, new_game


def test_n_plus_one_rounds_with_descending_engines() -> None:
    """docs/rules.md §3: a double-N game has N+1 rounds with engines N, N-1, ..., 0."""
    final = finish(new_game(RuleSet(set=6), players=3, seed=4), random.Random(1))
    assert [r.engine for r in final.results] == [6, 5, 4, 3, 2, 1, 0]
    assert [r.number for r in final.results] == [1, 2, 3, 4, 5, 6, 7]
    assert RuleSet().round_count == 13


def test_first_player_moves_one_seat_clockwise_each_round() -> None:
    """docs/rules.md §3: each later round the first player moves one seat clockwise."""
    final = finish(new_game(RuleSet(set=6), players=3, seed=9), random.Random(2))
    start = final.results[0].first_seat
    assert [r.first_seat for r in final.results] == [(start + k) % 3 for k in range(7)]
    # the first event of each round is by its first seat
    assert all(r.events[0].seat == r.first_seat for r in final.results if r.events)


def test_shorter_game() -> None:
    """docs/rules.md §3: fewer rounds is an option; the engines still descend from N."""
    final = finish(new_game(RuleSet(rounds=2), players=2, seed=1), random.Random(3))
    assert [r.engine for r in final.results] == [12, 11]
    assert final.over and len(final.results) == 2


def test_more_rounds_than_engines_refused() -> None:
    """docs/rules.md §3: with descending engines a double-N game has at most N+1 rounds."""
    with pytest.raises(ValueError) as err:
        RuleSet(set=6, rounds=8)
    error = err.value.errors()[0]["ctx"]["error"]
    assert (error.code, dict(error.values)) == ("too_many_rounds", {"set": 6, "max": 7, "rounds": 8})


def test_domino_deals_the_next_round() -> None:
    """docs/rules.md §3: after round 1 (engine 12) comes round 2 with engine 11, dealt afresh."""
    rules = RuleSet()
    s = position(rules, hands=[[(12, 4)], [(1, 2)], [(3, 5)]], turn=0)
    after = run(s, Play(tile=(12, 4), train=0))
    assert after.round == 2 and after.engine == 11
    assert after.first_seat == (after.starter + 1) % 3 == after.turn
    assert after.hand_sizes == (15, 15, 15)
    assert all(not t.started and t.end() == 11 and not t.marker for t in after.trains)
    assert (11, 11) not in after.boneyard and all((11, 11) not in h for h in after.hands)


def test_play_passes_clockwise() -> None:
    """docs/rules.md §3: play passes clockwise, seat i to i+1, and from the last seat to seat 0."""
    s = position(RuleSet(), hands=[[(12, 1), (2, 3)], [(12, 4), (5, 6)], [(12, 7), (8, 9)]], turn=1)
    s = run(s, Play(tile=(12, 4), train=1))
    assert s.turn == 2
    s = run(s, Play(tile=(12, 7), train=2))
    assert s.turn == 0


def test_seeded_deal_is_repeatable_in_every_round() -> None:
    """docs/rules.md §3: the deal comes from the seed: same seed, same hands and boneyard each round."""
    rules = RuleSet()
    for number in (1, 2, 7, 13):
        assert deal(rules, 4, 42, number) == deal(rules, 4, 42, number)
        engine, hands, boneyard = deal(rules, 4, 42, number)
        assert engine == 13 - number
        dealt = sorted([t for h in hands for t in h] + list(boneyard))
        assert dealt == sorted(t for t in full_set(12) if t != (engine, engine))
    assert new_game(rules, 4, 42) == new_game(rules, 4, 42)


def test_different_seeds_and_rounds_deal_differently() -> None:
    """docs/rules.md §3: different seeds deal differently; so do the rounds of one game."""
    rules = RuleSet()
    assert deal(rules, 4, 1, 1)[1] != deal(rules, 4, 2, 1)[1]
    assert deal(rules, 4, 1, 1)[2] != deal(rules, 4, 2, 1)[2]
    assert deal(rules, 4, 1, 1)[1] != deal(rules, 4, 1, 2)[1]


def test_recorded_deals_match_the_seed() -> None:
    """docs/rules.md §3: each finished round records the deal its seed gives."""
    rules = RuleSet(set=6)
    final = finish(new_game(rules, players=2, seed=77), random.Random(5))
    for r in final.results:
        engine, hands, boneyard = deal(rules, 2, 77, r.number)
        assert (r.engine, r.hands, r.boneyard) == (engine, hands, boneyard)
    again = finish(new_game(rules, players=2, seed=77), random.Random(5))
    assert again.results == final.results
