"""A fresh game's seed cannot be worked out from a hand, and the seal proves the deal
(issue #32 item 1; docs/fair-deal.md)."""

from __future__ import annotations

import math
import os
import random
from collections import Counter

import pytest

from mexitrain.game_setup import PLAY_STRIDE, random_seed, seat_seed
from mexitrain.rules import RuleSet, apply, legal_actions, new_game, view
from mexitrain.rules.core.deal import shuffled
from mexitrain.rules.core.lookup import lookup
from mexitrain.rules.seeds import (
    KEYED_FROM,
    SEED_MAX,
    KeyedRandom,
    check_seal,
    derived_seed,
    keyed,
    parse_seed,
    round_rng,
    seal,
    seed_text,
)

HEAVY = bool(os.environ.get("MEXITRAIN_HEAVY"))


def _search_classic(hand: frozenset, seeds: range, players: int = 4) -> int | None:
    """The attack of issue #32: try every classic seed against one's own first hand."""
    tab = lookup(RuleSet(), players)
    each = tab.each
    for s in seeds:
        _, ids = shuffled(tab, s, 1)
        if frozenset(ids[:each]) == hand:
            return s
    return None


def _first_hand_ids(seed: int, players: int = 4) -> frozenset:
    tab = lookup(RuleSet(), players)
    _, ids = shuffled(tab, seed, 1)
    return frozenset(ids[: tab.each])


def test_a_fresh_seed_has_128_random_bits_and_deals_keyed() -> None:
    seeds = {random_seed() for _ in range(200)}
    assert len(seeds) == 200
    assert all(2**128 <= s <= SEED_MAX and keyed(s) for s in seeds)
    # the low 128 bits vary (not a counter, not a small range): each bit is set in some seeds
    # and clear in others
    for bit in range(128):
        ones = sum(s >> bit & 1 for s in seeds)
        assert 0 < ones < 200, bit


def test_the_search_over_small_seeds_finds_a_classic_seed_but_never_a_fresh_one() -> None:
    top = 1_000_000 if HEAVY else 4_000
    # the attack works on a classic seed (the search is real)...
    assert _search_classic(_first_hand_ids(1234), range(1, top)) == 1234
    # ...and finds nothing for a fresh game's hand
    fresh = random_seed()
    assert _search_classic(_first_hand_ids(fresh), range(1, top)) is None


def test_classic_seeds_deal_as_before() -> None:
    """Old saves, records and the kept tournaments replay: the classic deal is unchanged."""
    tab = lookup(RuleSet(), 4)
    ids = [i for i in range(tab.size) if tab.tiles[i] != (12, 12)]  # round 1's engine is out
    random.Random("mexitrain:7:round:1").shuffle(ids)
    assert shuffled(tab, 7, 1) == (12, ids)
    assert not keyed(KEYED_FROM - 1)


def test_the_keyed_deal_is_fixed_by_the_seed() -> None:
    """A sealed seed gives the same game on every run and platform (pinned: a change of the
    keyed function would make every revealed seed replay another game)."""
    s = new_game(RuleSet(), players=4, seed=2**128 + 1)
    assert s.dealt_hands[0] == (
        (5, 6), (4, 5), (0, 3), (3, 5), (3, 6), (10, 11), (6, 12), (6, 6), (8, 8), (2, 12),
        (8, 9), (0, 11), (9, 12), (2, 9), (1, 3),
    )
    assert new_game(RuleSet(), players=4, seed=2**128 + 1) == s
    assert new_game(RuleSet(), players=4, seed=2**128 + 2).dealt_hands != s.dealt_hands


def test_rounds_and_seats_draw_from_independent_streams() -> None:
    seed = 2**128 + 99
    a = round_rng(seed, 1).getrandbits(64)
    b = round_rng(seed, 2).getrandbits(64)
    assert a != b
    assert len({seat_seed(seed, i, PLAY_STRIDE) for i in range(8)}) == 8
    # not the classic linear formula: one computer seat's seed tells nothing of another's
    assert seat_seed(seed, 1, PLAY_STRIDE) - seat_seed(seed, 0, PLAY_STRIDE) != 1
    assert seat_seed(5, 1, PLAY_STRIDE) == 5 * PLAY_STRIDE + 1  # classic: as before
    assert derived_seed(seed, "x") < 2**128


def test_keyed_random_draws_as_random_does() -> None:
    r = KeyedRandom(2**128, "t")
    assert r.getrandbits(0) == 0
    assert 0 <= r.random() < 1
    with pytest.raises(ValueError):
        r.getrandbits(-1)
    # a draw of k bits is the next k bits of the stream, whatever the sizes asked
    whole = KeyedRandom(2**128, "t").getrandbits(300)
    parts = KeyedRandom(2**128, "t")
    assert (parts.getrandbits(100) << 200 | parts.getrandbits(200)) == whole


def _chi2(counts: Counter, cells: list[int], total: int) -> float:
    expected = total / len(cells)
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in cells)


def test_keyed_and_classic_hands_have_the_same_statistics() -> None:
    """A hand of the new deal function looks like a hand of the old one: each tile is as
    likely in seat 0's hand (chi-square against uniform), and the hands' pip totals have
    the same mean and spread."""
    games = 3000 if HEAVY else 600
    tab = lookup(RuleSet(), 4)

    def stats(seeds):
        tiles: Counter = Counter()
        pips = []
        for s in seeds:
            _, ids = shuffled(tab, s, 1)
            hand = ids[: tab.each]
            tiles.update(hand)
            pips.append(sum(sum(tab.tiles[i]) for i in hand))
        mean = sum(pips) / len(pips)
        sd = math.sqrt(sum((p - mean) ** 2 for p in pips) / (len(pips) - 1))
        return tiles, mean, sd

    classic = stats(range(1, games + 1))
    fresh = stats(range(2**128, 2**128 + games))
    draws = games * tab.each
    cells = [i for i in range(tab.size) if tab.tiles[i] != (12, 12)]  # the engine is never dealt
    assert set(classic[0]) == set(fresh[0]) == set(cells)
    # 89 degrees of freedom: the 99.9th percentile of chi-square is about 136
    assert _chi2(classic[0], cells, draws) < 136
    assert _chi2(fresh[0], cells, draws) < 136
    # the same mean pips (within 4 standard errors) and a spread within 15 %
    se = math.sqrt(classic[2] ** 2 / games + fresh[2] ** 2 / games)
    assert abs(classic[1] - fresh[1]) < 4 * se
    assert abs(classic[2] - fresh[2]) < 0.15 * classic[2]


def _play_out(seed: int, players: int = 2):
    rules = RuleSet(rounds=1) if "rounds" in RuleSet.model_fields else RuleSet()
    state = new_game(rules, players=players, seed=seed)
    while not state.over:
        state = apply(state, legal_actions(state)[0])
    return state


def test_the_view_carries_the_seal_and_reveals_the_seed_only_at_the_end() -> None:
    seed = random_seed()
    state = new_game(RuleSet(), players=2, seed=seed)
    v = view(state, 0)
    assert v.seal == seal(seed) and v.revealed_seed is None and not v.seed_chosen
    dumped = v.model_dump_json()
    for form in (str(seed), hex(seed), hex(seed)[2:], str(seed)[:12]):
        assert form not in dumped
    assert view(state, 1, chosen=True).seed_chosen
    over = _play_out(seed)
    end = view(over, 0)
    assert end.revealed_seed == seed and check_seal(end.revealed_seed, v.seal)
    assert not check_seal(seed + 1, v.seal)


def test_a_classic_seed_has_no_seal() -> None:
    assert view(new_game(RuleSet(), players=2, seed=5), 0).seal == ""


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0), ("5", 5), ("0x10", 16), (seed_text(2**128 + 7), 2**128 + 7), (str(SEED_MAX), SEED_MAX),
     ("1_000", 1000), ("", None), ("-1", None), ("0x", None), ("0xg1", None), ("1e5", None),
     (str(SEED_MAX + 1), None), ("9" * 5000, None), ("５", None)],
)
def test_parse_seed(text: str, value: int | None) -> None:
    assert parse_seed(text) == value
