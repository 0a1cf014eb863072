"""Issue #35: an onlooker's view (a spectator at a table) holds no hidden tile, and is what
every seat sees alike."""

from __future__ import annotations

import json
import random

import pytest
from support.leaks import tile_pairs
from support.positions import position, run

from mexitrain.rules import (
    Draw,
    Mark,
    OnlookerView,
    RuleSet,
    SeatView,
    apply,
    legal_actions,
    make_rules,
    new_game,
    onlooker,
    public_part,
    view,
    watched,
)
from mexitrain.rules.tiles import tile

PRESETS = ("standard", "fast", "common")


def _game(rules: RuleSet, players: int, seed: int):
    """Every snapshot of a whole random game (rounds included)."""
    rng = random.Random(seed)
    s = new_game(rules, players=players, seed=seed)
    out = [s]
    while not s.over:
        s = apply(s, rng.choice(legal_actions(s)))
        out.append(s)
    return out


def test_the_type_has_no_hidden_field() -> None:
    fields = set(OnlookerView.model_fields)
    assert not fields & {"seat", "hand", "hands", "drawn", "legal", "forced", "boneyard", "seed", "dealt_hands"}
    assert fields < set(SeatView.model_fields)


@pytest.mark.parametrize("seed", range(12))
def test_no_hidden_tile_in_an_onlooker_view(seed: int) -> None:
    """Over whole random games: no tile of a hand or of the boneyard in any form of the view,
    no draw's tile, no seed until the end; the leftovers only once a round is scored."""
    preset = PRESETS[seed % 3]
    rules = make_rules(preset, {"rounds": "2", **({"open_hands": "true"} if seed % 4 == 3 else {})})
    players = 2 + seed % 3
    for s in _game(rules, players, 1000 + seed)[:: 3]:
        o = onlooker(s)
        data = json.loads(o.model_dump_json())
        hidden = set(s.boneyard) | {t for h in s.hands for t in h}
        if not s.over:  # a finished game's hands are its last round's leftovers: public
            # finished rounds are told with the tiles of their own deal (public once scored)
            data.pop("results"), data.pop("last_round_events")
            assert not [p for p in tile_pairs(data) if tile(*p) in hidden], (seed, s.round)
            assert o.revealed_seed is None
        assert all(e.tile is None for e in o.events + o.last_round_events if e.type == "draw")
        assert str(s.seed) not in o.model_dump_json() or s.over
        assert o.hand_sizes == s.hand_sizes and o.boneyard_size == len(s.boneyard)


@pytest.mark.parametrize("seed", range(8))
def test_it_is_the_public_part_of_every_seats_view(seed: int) -> None:
    rules = make_rules(PRESETS[seed % 3], {"rounds": "2", **({"open_hands": "true"} if seed % 2 else {})})
    players = 2 + seed % 3
    for s in _game(rules, players, 2000 + seed)[::5]:
        o = onlooker(s, chosen=bool(seed % 3))
        for seat in range(players):
            assert public_part(view(s, seat, bool(seed % 3))) == o


def test_draws_are_hidden_even_from_the_seat_that_drew() -> None:
    s = position(RuleSet(), hands=[[(1, 2)], [(3, 4)], [(5, 6)]], boneyard=[(7, 8), (9, 10), (0, 0)])
    s = run(s, Draw())
    o = onlooker(s)
    assert o.phase == "drawn" and "7" not in o.model_dump_json().replace('"boneyard_size":', "")
    s = run(s, Mark())
    o = onlooker(s)
    assert o.events[0].type == "draw" and o.events[0].seat == 0 and o.events[0].tile is None
    assert o.hand_sizes == (2, 1, 1)


def test_watched_is_a_board_view_with_no_hand_and_no_move() -> None:
    s = _game(make_rules("standard", {"rounds": "1"}), 3, 7)[20]
    v = watched(onlooker(s))
    assert v.hand == () and v.hands == (None, None, None) and v.legal == () and v.drawn is None
    assert v.seat != v.turn and not v.my_turn
    assert v.trains == s.trains and v.hand_sizes == s.hand_sizes
