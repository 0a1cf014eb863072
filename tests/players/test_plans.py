"""plan_train / arrange_hand: the longest, then heaviest, chain through a hand (docs/rules.md §9)."""

from __future__ import annotations

import itertools
import random

import pytest

from mexitrain.players.plans import arrange_hand, plan_train
from mexitrain.rules.tiles import full_set, placements


def _canon(t):
    return (t[0], t[1]) if t[0] <= t[1] else (t[1], t[0])


def _check_chain(hand, end, wild, chain):
    """The chain is layable in order from ``end`` with tiles of ``hand``, each once."""
    left = {_canon(t) for t in hand}
    for lay in chain:
        t = _canon(lay)
        assert t in left, f"{lay} not in hand or used twice"
        left.remove(t)
        assert lay in placements(t, end, wild), f"{lay} does not fit end {end}"
        end = lay[1]


def _brute(hand, end, wild):
    """Exhaustive best (length, pips) for tiny hands."""
    best = (0, 0)
    tiles = [_canon(t) for t in hand]

    def go(end, left, length, weight):
        nonlocal best
        best = max(best, (length, weight))
        for t in left:
            for lay in placements(t, end, wild):
                go(lay[1], left - {t}, length + 1, weight + t[0] + t[1])

    go(end, frozenset(tiles), 0, 0)
    return best


def _key(chain):
    return len(chain), sum(a + b for a, b in chain)


def test_empty_hand_and_nothing_fits():
    assert plan_train([], 12) == ()
    assert plan_train([(1, 2), (3, 4)], 12) == ()


def test_simple_chain_in_laying_order():
    hand = [(1, 2), (5, 12), (3, 5), (3, 9)]
    assert plan_train(hand, 12) == ((12, 5), (5, 3), (3, 9))


def test_double_is_followed_by_the_next_tile():
    hand = [(3, 3), (5, 12), (3, 5), (3, 9), (9, 9)]
    chain = plan_train(hand, 12)
    assert chain == ((12, 5), (5, 3), (3, 3), (3, 9), (9, 9))


def test_longest_beats_heaviest():
    # from 12: 12-11 alone (23 pips) or 12-1, 1-2, 2-3 (21 pips, three tiles)
    hand = [(11, 12), (1, 12), (1, 2), (2, 3)]
    assert plan_train(hand, 12) == ((12, 1), (1, 2), (2, 3))


def test_heaviest_breaks_length_ties():
    hand = [(4, 12), (4, 5), (6, 12), (6, 10)]
    assert plan_train(hand, 12) == ((12, 6), (6, 10))


def test_loop_back_through_the_start():
    # 12-3, 3-4, 4-12 returns to 12, then 12-7 goes on
    hand = [(3, 12), (3, 4), (4, 12), (7, 12)]
    assert len(plan_train(hand, 12)) == 4


def test_blanks_wild():
    hand = [(0, 5), (7, 8), (0, 3)]
    # a blank goes against any end: 0-5 on 12, then 0-3 on 5; 7-8 never fits
    chain = plan_train(hand, 12, wild=True)
    _check_chain(hand, 12, True, chain)
    assert chain == ((0, 5), (0, 3))
    assert plan_train(hand, 12, wild=False) == ()


def test_blank_end_accepts_anything_when_wild():
    hand = [(9, 11), (2, 4)]
    chain = plan_train(hand, 0, wild=True)
    assert len(chain) == 1 and _canon(chain[0]) in {(9, 11), (2, 4)}
    assert chain == ((9, 11),) or chain == ((11, 9),)  # the heavier one


def test_order_of_the_hand_does_not_matter():
    rng = random.Random(3)
    tiles = list(full_set(12))
    for _ in range(20):
        rng.shuffle(tiles)
        hand = tiles[:15]
        end = rng.randrange(13)
        shuffled = hand[:]
        rng.shuffle(shuffled)
        flipped = [(b, a) for a, b in shuffled]
        assert plan_train(hand, end) == plan_train(shuffled, end) == plan_train(flipped, end)


@pytest.mark.parametrize("wild", [False, True])
def test_optimal_on_small_hands(wild):
    rng = random.Random(11 + wild)
    tiles = list(full_set(6))
    for _ in range(150):
        rng.shuffle(tiles)
        hand = tiles[: rng.randrange(1, 9)]
        end = rng.randrange(7)
        chain = plan_train(hand, end, wild)
        _check_chain(hand, end, wild, chain)
        assert _key(chain) == _brute(hand, end, wild), (hand, end, chain)


@pytest.mark.parametrize("size,wild", [(15, False), (20, False), (30, False), (20, True)])
def test_valid_chains_on_big_hands(size, wild):
    rng = random.Random(size)
    tiles = list(full_set(12))
    for _ in range(15):
        rng.shuffle(tiles)
        hand = tiles[:size]
        end = rng.randrange(13)
        chain = plan_train(hand, end, wild)
        _check_chain(hand, end, wild, chain)
        if any(placements(t, end, wild) for t in hand):
            assert chain


def test_small_budget_still_gives_a_chain():
    hand = [(12, 1), (1, 2), (2, 3), (3, 4), (4, 12), (12, 6)]
    chain = plan_train(hand, 12, wild=True, budget=1)
    _check_chain(hand, 12, True, chain)
    assert chain


def test_perfect_chain_found_exactly():
    # every tile of a double-6 set minus some, as a known Euler trail
    hand = [(6, 5), (5, 4), (4, 3), (3, 2), (2, 1), (1, 0), (0, 6), (6, 6), (3, 3)]
    chain = plan_train(hand, 6)
    assert len(chain) == len(hand)


def test_arrange_hand_partitions_the_hand():
    hand = [(12, 5), (5, 3), (1, 2), (11, 11), (0, 4), (3, 9)]
    chain, extras = arrange_hand(hand, 12, False)
    assert chain == ((12, 5), (5, 3), (3, 9))
    assert extras == ((11, 11), (0, 4), (1, 2))  # heaviest first
    assert sorted(map(_canon, itertools.chain(chain, extras))) == sorted(map(_canon, hand))


def test_arrange_hand_nothing_fits():
    chain, extras = arrange_hand([(1, 2), (0, 0)], 12)
    assert chain == ()
    assert extras == ((1, 2), (0, 0))
