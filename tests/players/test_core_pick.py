"""The random level's draw over a core's legal moves in one frame (``choice_of(rng).over_legal``,
what ``core_chooser`` hands ``simulate`` for it) is its ``choose_among(legal(c))``: the same
generator, the same draws, the same games (issue 22)."""

from __future__ import annotations

import random

from support.tables import random_table

from mexitrain.players.base import RandomPlayer, choice_of, core_chooser
from mexitrain.rules.core import legal, new_game, step


def test_the_random_level_is_handed_the_one_frame_draw():
    player = RandomPlayer(3)
    assert core_chooser(player) is player.choose_among.over_legal


def test_a_generator_of_its_own_keeps_the_two_step_path():
    class Loaded(random.Random):
        def choice(self, seq):
            return seq[0]

    assert not hasattr(choice_of(Loaded(1)), "over_legal")


def test_the_one_frame_draw_plays_the_same_games():  # §1-§8: the same moves, in order
    rng = random.Random(21)
    for k in range(30):
        rules, players = random_table(rng, max_players=8)
        fused = [core_chooser(RandomPlayer(100 * k + s)) for s in range(players)]
        plain = [RandomPlayer(100 * k + s).choose_among for s in range(players)]
        a = new_game(rules, players=players, seed=k)
        b = new_game(rules, players=players, seed=k)
        while not a.over:
            m = fused[a.turn](a)
            assert m == plain[b.turn](legal(b))
            step(a, m)
            step(b, m)
        assert b.over and a.round_scores == b.round_scores
