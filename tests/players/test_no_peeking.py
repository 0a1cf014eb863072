"""No peeking: a computer player's choice depends only on what its seat may see.

For every level, positions from real games are changed in what the seat cannot see (the
other hands and the boneyard's order, redistributed with the same sizes and the same unseen
tiles): the seat's view is unchanged, and so is the choice. And the only thing a player is
ever handed is a ``SeatView``.
"""

from __future__ import annotations

import random

import pytest
from support.positions import planner_positions, redistribute

from mexitrain.players import LEVELS, make_player
from mexitrain.players import tournament as tour
from mexitrain.players.expert import ExpertPlayer
from mexitrain.players.hint import hint
from mexitrain.rules import RuleSet, SeatView, view

VARIANTS = [
    {},
    {"double_follow_up": "must_satisfy", "blanks_wild": True, "trains_start_public": True},
    {"teams": True, "swan_drive": True, "branching_doubles": True},
]


def _player(level: str, seed: int):
    return ExpertPlayer(seed, rollouts=8) if level == "expert" else make_player(level, seed)


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("options", VARIANTS)
def test_hidden_tiles_never_change_the_choice(level, options):
    rules = RuleSet(rounds=2, **options)
    rng = random.Random(7)
    for state in planner_positions(rules, 3, 4):
        seat = state.turn
        before = view(state, seat)
        choice = _player(level, 11).choose(before)
        for _ in range(2):
            other = redistribute(state, seat, rng)
            assert other.hands != state.hands or other.boneyard != state.boneyard
            after = view(other, seat)
            assert after == before
            assert _player(level, 11).choose(after) == choice


def test_hint_does_not_peek():
    rng = random.Random(1)
    for state in planner_positions(RuleSet(rounds=1), 5, 2):
        seat = state.turn
        action, why = hint(view(state, seat), time_limit=0)
        other = redistribute(state, seat, rng)
        assert hint(view(other, seat), time_limit=0) == (action, why)


class _Spy:
    """Wraps a player and checks what it is handed."""

    seen: list = []

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = inner.name

    def choose(self, v):
        assert type(v) is SeatView
        assert v.turn == v.seat
        assert all(h is None for i, h in enumerate(v.hands) if i != v.seat)
        _Spy.seen.append(type(v))
        return self.inner.choose(v)


def test_players_are_only_ever_handed_seat_views(monkeypatch):
    real = tour.make_seat
    monkeypatch.setattr(tour, "make_seat", lambda level, seed, budget: _Spy(real(level, seed, budget)))
    _Spy.seen = []
    rules = RuleSet(set=6, rounds=1)
    tour.play_one(rules, ("expert", "planner", "greedy", "random"), 2, 4)
    assert _Spy.seen and set(_Spy.seen) == {SeatView}
