"""The rules core's fast paths are the same rules as its general ones (issue 22, 33).

Since issue 33 each rule has one form in the core (``step`` one play and one Mark, one
blocking test of open doubles, ``moves.blocking_lines``), but for the shortcuts of the move
generator kept for their speed: each fitting tile laid one way in id order
(``Lookup.simple``, in ``moves.legal``'s one pass, against ``moves._add``), the lines a seat
may use looked up by its markers (``Core.mbits``, ``Lookup.usable``), and its own shuffle
(``deal.shuffle``). Here each is held to the general path over random games under random
rule sets (every §8 option): a twin core whose table has the shortcuts off is stepped with
the same moves, and after EVERY action both have the same legal moves in the same order and
the same fields, and the one-pass plays are those of ``moves.target_plays`` (every case
alike, by way of ``targets``). A small sample always runs; MEXITRAIN_HEAVY=1 runs the
``slow`` heavy sample.
"""

from __future__ import annotations

import copy
import random
import sys

import pytest
from support.tables import random_table

from mexitrain.rules import RuleSet, core
from mexitrain.rules.core.lookup import GAME_OVER, TURN

deal = sys.modules["mexitrain.rules.core.deal"]
moves = sys.modules["mexitrain.rules.core.moves"]

_SKIP = {"tab", "plays_cache"}


def _fields(c: core.Core) -> dict:
    return {name: getattr(c, name) for name in core.Core.__slots__ if name not in _SKIP}


def _slow_twin(c: core.Core) -> core.Core:
    """A copy of ``c`` on a table with the move generator's shortcut turned off
    (``Lookup.simple``), and a cache of lines of its own."""
    twin = c.copy()
    tab = copy.copy(c.tab)
    tab.simple = False
    tab.usable = {}  # its own
    twin.tab = tab
    return twin


def _target_plays(c: core.Core) -> list[int]:
    """The plays by way of ``targets``, every case alike (§5, §6, §8)."""
    out = moves.target_plays(c)
    if c.phase == TURN and c.tab.first_turn_chain and c.chain_right[c.turn]:
        out = [m for m in out if m >> 15 == c.turn] or out  # §8: the chain on one's own
    return out


def _mbits(c: core.Core) -> int:
    return sum(1 << ti for ti in range(c.tab.n) if c.marker[ti])


def play_twins(rules: RuleSet, players: int, seed: int, rng: random.Random) -> int:
    """One game on a core and its slow twin, with the same random legal moves; returns the
    number of actions."""
    c = core.new_game(rules, players=players, seed=seed)
    twin = _slow_twin(c)
    steps = 0
    while True:
        assert c.mbits == _mbits(c), steps
        phase = c.phase
        moves_now = core.legal(c)
        if phase != GAME_OVER:  # the one-pass plays (lines looked up) are the general ones
            assert core.plays(c) == _target_plays(c), (steps, phase)
        assert moves_now == core.legal(twin), (steps, phase)
        if phase == GAME_OVER:
            assert twin.over and c.over
            return steps
        m = moves_now[rng.randrange(len(moves_now))]
        core.step(c, m)
        core.step(twin, m)
        steps += 1
        assert _fields(c) == _fields(twin), (steps, m)


def test_fast_paths_on_the_standard_game():  # §2-§7: the game most played, whole
    rng = random.Random(3)
    for seed in range(3):
        assert play_twins(RuleSet(), 4, seed, rng) > 500


def test_fast_paths_under_random_rule_sets():  # §1-§8
    rng = random.Random(11)
    for _ in range(100):
        rules, players = random_table(rng, max_players=8)
        play_twins(rules, players, rng.randrange(10**6), rng)


@pytest.mark.slow
def test_fast_paths_heavy():  # §1-§8, thousands of games
    rng = random.Random(2022)
    for _ in range(2000):
        rules, players = random_table(rng)
        play_twins(rules, players, rng.randrange(10**6), rng)


def test_shuffle_draws_as_random_shuffle():  # §2: the deal comes from the game's seed
    rng = random.Random(5)
    for seed in range(300):
        size = rng.randrange(0, 200)
        a, b = list(range(size)), list(range(size))
        random.Random(f"mexitrain:{seed}:round:1").shuffle(a)
        deal.shuffle(random.Random(f"mexitrain:{seed}:round:1"), b)
        assert a == b


def test_permuted_draws_as_a_whole_random_sample():  # §2: the expert's draws come from its seed
    """``deal.permuted`` (the expert's orders of the boneyard in its rollouts) is
    ``Random.sample(x, len(x))``: the same order from the same bits, the generator left in the
    same state, so that the expert's kept tournament games replay (test_tournament_hint)."""
    rng = random.Random(6)
    for size in [*range(0, 12), 63, 64, 65, *(rng.randrange(12, 200) for _ in range(100))]:
        seed = rng.randrange(10**6)
        x = list(range(100, 100 + size))
        a, b = random.Random(seed), random.Random(seed)
        assert deal.permuted(a, x) == b.sample(x, size)
        assert x == list(range(100, 100 + size))  # a copy: the list itself untouched
        assert a.getstate() == b.getstate()


def test_a_generator_that_draws_otherwise_shuffles_its_own_way():  # §2
    class Other(random.Random):
        def shuffle(self, x):
            x.reverse()

        def sample(self, x, k):
            return x[::-1][:k]

    x = list(range(10))
    deal.shuffle(Other(1), x)
    assert x == list(range(9, -1, -1))
    assert deal.permuted(Other(1), x) == list(range(10))  # its own sample, not ours


def test_a_core_from_a_snapshot_knows_its_markers():  # §5: markers as bits too
    rng = random.Random(8)
    rules = RuleSet(trains_start_public=False)
    c = core.new_game(rules, players=4, seed=8)
    while c.round == 1 and not any(c.marker[:4]):
        ms = core.legal(c)
        core.step(c, ms[rng.randrange(len(ms))])
    back = core.from_state(core.to_state(c))
    assert back.mbits == c.mbits == _mbits(c) != 0
