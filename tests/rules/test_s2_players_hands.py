"""docs/rules.md §2: players and hands (the hand-size table, the override, impossible tables)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mexitrain.rules import RuleSet, RuleSetError, full_set, make_rules, new_game

# docs/rules.md §2, written out row by row: (set, table) -> {players: tiles each}.
EXPECTED = {
    (12, "standard"): {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8},
    (9, "standard"): {2: 10, 3: 10, 4: 10, 5: 9, 6: 9, 7: 7, 8: 6},
    (9, "fast"): {2: 15, 3: 13, 4: 10},
    (6, "standard"): {2: 7, 3: 5, 4: 5},
    (15, "standard"): {2: 15, 3: 15, 4: 15, 5: 13, 6: 13, 7: 12, 8: 12, 9: 11, 10: 11, 11: 10, 12: 10},
    (18, "standard"): {
        2: 15, 3: 15, 4: 15, 5: 13, 6: 13, 7: 12, 8: 12, 9: 11, 10: 11, 11: 11, 12: 11, 13: 11,
    },
}
CASES = [(n, table, p, each) for (n, table), row in EXPECTED.items() for p, each in row.items()]


@pytest.mark.parametrize(("n", "table", "players", "each"), CASES)
def test_hand_size_table(n: int, table: str, players: int, each: int) -> None:
    """docs/rules.md §2: tiles each, for every set and player count; the engine is removed first."""
    rules = RuleSet(set=n, hand_table=table)
    assert rules.tiles_each(players) == each
    state = new_game(rules, players=players, seed=11)
    assert state.hand_sizes == (each,) * players
    assert len(state.boneyard) == len(full_set(n)) - 1 - players * each


@pytest.mark.parametrize(
    ("n", "table", "too_many"),
    [(12, "standard", 11), (9, "standard", 9), (9, "fast", 5), (6, "standard", 5),
     (15, "standard", 13), (18, "standard", 14)],
)
def test_too_many_players_refused(n: int, table: str, too_many: int) -> None:
    """docs/rules.md §2: a table the set cannot seat is refused with a clear message."""
    rules = RuleSet(set=n, hand_table=table)
    with pytest.raises(RuleSetError) as err:
        new_game(rules, players=too_many, seed=0)
    assert err.value.code == "too_many_players"
    assert {k: err.value.values[k] for k in ("set", "max", "players")} == {"set": n, "max": too_many - 1, "players": too_many}


def test_one_player_refused() -> None:
    """docs/rules.md §2: the table starts at 2 players."""
    with pytest.raises(RuleSetError) as err:
        new_game(RuleSet(), players=1, seed=0)
    assert (err.value.code, dict(err.value.values)) == ("too_few_players", {"min": 2, "players": 1})


def test_fast_table_is_for_double_nine_only() -> None:
    """docs/rules.md §2: the fast hand-size table belongs to the double-9 preset."""
    with pytest.raises(ValidationError) as err:
        RuleSet(set=12, hand_table="fast")
    error = err.value.errors()[0]["ctx"]["error"]
    assert (error.code, dict(error.values)) == ("fast_table", {"set": 12})


def test_hand_size_override() -> None:
    """docs/rules.md §2: a hand-size override exists and is dealt."""
    state = new_game(RuleSet(hand_size=4), players=3, seed=5)
    assert state.hand_sizes == (4, 4, 4)
    assert len(state.boneyard) == 90 - 12


def test_impossible_override_refused_with_clear_message() -> None:
    """docs/rules.md §2: a deal asking more tiles than the set holds is refused, never a crash."""
    with pytest.raises(RuleSetError) as err:
        new_game(RuleSet(set=6, hand_size=14), players=2, seed=0)
    assert err.value.code == "not_enough_tiles"
    assert dict(err.value.values) == {"players": 2, "each": 14, "need": 28, "set": 6, "available": 27}


def test_override_exactly_the_set_is_dealt() -> None:
    """docs/rules.md §2: the largest possible override deals every tile but the engine."""
    state = new_game(RuleSet(set=6, hand_size=9), players=3, seed=0)
    assert state.hand_sizes == (9, 9, 9) and state.boneyard == ()


def test_highest_double_deals_the_whole_set() -> None:
    """docs/rules.md §2, §3: with engine=highest_double nothing is removed before the deal."""
    RuleSet(set=6, hand_size=14, engine="highest_double").check_players(2)
    with pytest.raises(RuleSetError) as err:
        RuleSet(set=6, hand_size=15, engine="highest_double").check_players(2)
    assert (err.value.code, err.value.values["need"], err.value.values["available"]) == ("not_enough_tiles", 30, 28)


def test_impossible_tables_through_make_rules() -> None:
    """docs/rules.md §2: bad options from the command line are refused with a one-line message."""
    for make, code, values in [
        (lambda: make_rules("standard", {"hand_size": "0"}), "too_small", {"option": "hand_size", "min": 1, "value": 0}),
        (lambda: make_rules("standard", {"hand_sise": "3"}), "unknown_option", {"option": "hand_sise"}),
        (lambda: make_rules("quick"), "unknown_preset", {"preset": "quick"}),
        (lambda: make_rules("standard", {"open_hands": "maybe"}), "not_on_off", {"option": "open_hands", "value": "maybe"}),
    ]:
        with pytest.raises(RuleSetError) as err:
            make()
        assert err.value.code == code and {k: err.value.values[k] for k in values} == values
