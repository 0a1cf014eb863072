"""Helpers written once and called from several places (issue 24: no copied logic)."""

from __future__ import annotations

import pytest

from mexitrain.players.playout import hand_pips as seat_pips
from mexitrain.rules import RuleSet, RuleSetError
from mexitrain.rules.core import hand_pips, mask_total, new_game


def test_mask_total_sums_the_values_of_the_ids_set() -> None:
    assert mask_total(0, [5, 7]) == 0
    assert mask_total(0b101, [1, 10, 100]) == 101
    assert mask_total(1 << 9, list(range(10))) == 9


def test_hand_pips_of_the_core_and_of_the_playout_agree() -> None:
    # §7: a hand scores the pips of its tiles
    c = new_game(RuleSet(), players=4, seed=3)
    expected = tuple(sum(c.tab.tiles[i][0] + c.tab.tiles[i][1] for i in range(len(c.tab.tiles)) if h >> i & 1) for h in c.hands)
    assert tuple(hand_pips(c, h) for h in c.hands) == expected
    assert seat_pips(c) == expected


def test_too_many_players_is_one_refusal_whichever_check_finds_it() -> None:
    # §2: the hand table caps the players
    rules = RuleSet(set=9, hand_table="fast")
    with pytest.raises(RuleSetError) as checked:
        rules.check_players(rules.max_players + 1)
    with pytest.raises(RuleSetError) as sized:
        rules.hand_size_for(rules.max_players + 1)
    assert (str(sized.value), sized.value.code) == (str(checked.value), checked.value.code)
