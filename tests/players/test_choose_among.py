"""The narrowest fast path: a level that needs nothing but the legal moves.

The random level has ``choose_among(moves) -> move``: ``simulate`` and ``tournament`` hand it
the seat's legal moves (``legal(core)``, ints in ``legal_actions``'s order) and nothing else,
so no seat view is built. These tests hold it to the compact-view path (the same choices at
every decision of random games under random options, §1-§8), hold its inlined draw to
``random.Random.choice``, and check that what it is handed holds no hidden tile: hidden tiles
dealt again never change it.
"""

from __future__ import annotations

import random

import pytest
from support.positions import planner_positions, redistribute
from support.tables import HIDDEN_TILE_VARIANTS, random_table

from mexitrain.players import make_player
from mexitrain.players.base import RandomPlayer, choice_of, core_chooser, core_move
from mexitrain.rules import RuleSet
from mexitrain.rules.core import from_state, legal, step
from mexitrain.rules.core import new_game as core_new_game
from mexitrain.rules.core.seat import seat_view


def test_choice_of_draws_exactly_as_random_choice():
    for seed in range(20):
        mine, theirs = random.Random(seed), random.Random(seed)
        pick = choice_of(mine)
        for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 100, 1000] * 5:
            seq = list(range(n))
            assert pick(seq) == theirs.choice(seq)
        assert mine.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        choice_of(random.Random(1))([])


def test_choice_of_keeps_a_subclass_own_choice():
    class Loaded(random.Random):
        def choice(self, seq):
            return seq[0]

    assert choice_of(Loaded(3))([5, 6, 7]) == 5


def test_random_level_chooses_among_legal_moves_as_from_the_compact_view():
    # §1-§8: every option of docs/rules.md, 2 to 8 players; a twin of each seat with the same
    # seed chooses from the compact view, and the game goes on with the fast path's move
    rng = random.Random(4242)
    decisions = 0
    for k in range(40):
        rules, players = random_table(rng, max_players=8)
        rules = rules.model_copy(update={"rounds": 2})
        fast = [make_player("random", k * 16 + i) for i in range(players)]
        slow = [make_player("random", k * 16 + i) for i in range(players)]
        choose = [core_chooser(p) for p in fast]
        c = core_new_game(rules, players, seed=k)
        while not c.over:
            seat = c.turn
            expected = slow[seat].choose_move(seat_view(c, seat))
            m = choose[seat](c)
            assert m == expected, (k, decisions)
            step(c, m)
            decisions += 1
    assert decisions > 1000


class _Among:
    """Records what ``choose_among`` is handed; has a view path that must not be taken."""

    name = "spy"

    def __init__(self) -> None:
        self.handed: list = []

    def choose_among(self, moves):
        self.handed.append(moves)
        return moves[0]

    def choose_move(self, view):  # pragma: no cover - the narrower path comes first
        raise AssertionError("handed a view although choose_among exists")


def test_choose_among_is_handed_only_the_seats_legal_moves():
    rules = RuleSet(rounds=1, teams=True, swan_drive=True)
    c = core_new_game(rules, 4, seed=3)
    spy = _Among()
    while not c.over:
        before = list(seat_view(c, c.turn).legal())
        m = core_move(spy, c)
        moves = spy.handed[-1]
        assert type(moves) is list and all(type(x) is int for x in moves)
        assert moves == before  # the seat's legal moves, nothing else
        step(c, m)
    assert len(spy.handed) > 50


@pytest.mark.parametrize("options", HIDDEN_TILE_VARIANTS)
def test_hidden_tiles_never_change_what_choose_among_is_handed_nor_the_choice(options):
    rules = RuleSet(rounds=2, **options)
    rng = random.Random(9)
    for state in planner_positions(rules, 4, 5, share=0.2, choices_only=False):
        handed = _Among()
        core_move(handed, from_state(state))
        choice = core_move(RandomPlayer(11), from_state(state))
        for _ in range(2):
            other = redistribute(state, state.turn, rng)
            assert other.hands != state.hands or other.boneyard != state.boneyard
            again = _Among()
            core_move(again, from_state(other))
            assert again.handed == handed.handed
            assert core_move(RandomPlayer(11), from_state(other)) == choice
            assert legal(from_state(other)) == legal(from_state(state))
