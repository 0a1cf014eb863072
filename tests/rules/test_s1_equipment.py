"""docs/rules.md §1: equipment (sets, pips, the station, markers)."""

from __future__ import annotations

from collections import Counter

import pytest
from support.positions import position

from mexitrain.rules import RuleSet, fmt, full_set, is_double, new_game, pips, tile
from mexitrain.rules.tiles import placements


@pytest.mark.parametrize(("n", "count"), [(6, 28), (9, 55), (12, 91), (15, 136), (18, 190)])
def test_set_sizes(n: int, count: int) -> None:
    """docs/rules.md §1: a double-N set holds one tile per unordered pair: 28/55/91/136/190."""
    tiles = full_set(n)
    assert len(tiles) == count
    assert len(set(tiles)) == count
    assert all(0 <= a <= b <= n for a, b in tiles)


@pytest.mark.parametrize("n", [6, 9, 12, 15, 18])
def test_each_value_on_n_plus_one_tiles(n: int) -> None:
    """docs/rules.md §1: each value appears on N+1 tiles (13 on double-12)."""
    for v in range(n + 1):
        assert sum(1 for t in full_set(n) if v in t) == n + 1


def test_pips() -> None:
    """docs/rules.md §1: a tile is worth a + b (5-7 = 12, 9-9 = 18)."""
    assert pips((5, 7)) == 12
    assert pips((9, 9)) == 18
    assert pips((0, 0)) == 0


def test_tile_helpers() -> None:
    """docs/rules.md §1: tiles are unordered pairs, written low-high."""
    assert tile(7, 3) == (3, 7) == tile(3, 7)
    assert fmt((7, 3)) == "7-3"
    assert is_double((4, 4)) and not is_double((4, 5))


def test_a_snapshot_refuses_a_hand_tile_written_high_half_first() -> None:
    """docs/rules.md §1: tiles are unordered pairs, stored low-high; a 6-0 in a hand would be a
    tile the legal moves never see, so the snapshot refuses it (a laid 6-0 is fine: the
    half against the open end comes first)."""
    from pydantic import ValidationError

    from mexitrain.rules import GameState

    state = new_game(RuleSet(), players=2, seed=1)
    hand = tuple(sorted(state.hands[0]))
    assert GameState.model_validate({**dict(state), "hands": (hand, state.hands[1])}).hands[0] == hand
    with pytest.raises(ValidationError, match="low half first: 0-6, not 6-0"):
        GameState.model_validate({**dict(state), "hands": (((6, 0),) + hand[1:], state.hands[1])})
    with pytest.raises(ValidationError, match="between 0 and 18"):
        GameState.model_validate({**dict(state), "boneyard": ((3, 19),)})


def test_fitting_lays_the_matching_half_against_the_end() -> None:
    """docs/rules.md §4: a tile fits when one half equals the open end; the other half is the new end."""
    assert placements((3, 7), 7, wild=False) == ((7, 3),)
    assert placements((3, 7), 3, wild=False) == ((3, 7),)
    assert placements((3, 7), 5, wild=False) == ()
    assert placements((5, 5), 5, wild=False) == ((5, 5),)


@pytest.mark.parametrize("n", [6, 9, 12, 15, 18])
def test_station_every_train_starts_from_the_engine(n: int) -> None:
    """docs/rules.md §1: the engine sits in the station; every train starts from it."""
    state = new_game(RuleSet(set=n), players=2, seed=3)
    assert state.engine == n
    assert len(state.trains) == 3  # two personal trains and the Mexican Train
    assert [t.owner for t in state.trains] == [0, 1, None]
    assert all(t.end() == n and not t.started for t in state.trains)
    # the engine is out of play: not in any hand nor in the boneyard
    everything = Counter(t for h in state.hands for t in h) + Counter(state.boneyard)
    assert (n, n) not in everything
    assert sorted(everything.elements()) == sorted(t for t in full_set(n) if t != (n, n))


def test_markers_make_a_train_public() -> None:
    """docs/rules.md §1, §4: a train with its owner's marker is public; the Mexican Train always is."""
    state = position(RuleSet(), hands=[[(1, 2)], [(3, 4)], [(5, 6)]], markers={1})
    assert [t.public for t in state.trains] == [False, True, False, True]
    assert [t.marker for t in state.trains] == [False, True, False, False]
