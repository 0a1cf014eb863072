"""The compact seat view (issue 22): computer players on the rules core.

``simulate`` and ``tournament`` play one core per game in place, and the random, greedy and
planner levels choose from the seat's ``CompactView`` (``choose_move``). These tests hold
that path to today's: the same legal actions and the same choices as from a ``SeatView`` at
every decision of random games under random options (§1-§8), no hidden tile in the view,
the kept record fixtures (written by the reducer path) written again byte for byte, and the
same printed ``simulate`` figures as the commit before the change.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from support.positions import planner_positions, redistribute
from support.tables import HIDDEN_TILE_VARIANTS, random_table

from mexitrain.cli import main
from mexitrain.commands.simulate import play_core
from mexitrain.players import LEVELS, make_player
from mexitrain.players import tournament as tour
from mexitrain.rules import RuleSet, SeatView, view, view_legal_actions
from mexitrain.rules.core import from_state, step, to_state
from mexitrain.rules.core import new_game as core_new_game
from mexitrain.rules.core.compact import Position
from mexitrain.rules.core.lookup import E_DRAW
from mexitrain.rules.core.seat import CompactView, seat_view
from mexitrain.rules.record import dump_record, to_record

FAST = [level for level in LEVELS if level != "expert"]  # the levels with choose_move


def _seen_equals_view(cv: CompactView, sv: SeatView) -> None:
    """What the players read from ``cv.seen`` is what ``sv`` holds (hands as sets)."""
    seen = cv.seen
    for name in ("seat", "rules", "players", "round", "engine", "engine_seat", "first_seat",
                 "turn", "phase", "hand_sizes", "boneyard_size", "trains", "mexican_starter",
                 "double_line", "drawn", "swan_pos", "chain_right", "failed", "events", "my_turn"):
        assert getattr(seen, name) == getattr(sv, name), name
    assert sorted(seen.hand) == sorted(sv.hand)
    assert [None if h is None else sorted(h) for h in seen.hands] == [
        None if h is None else sorted(h) for h in sv.hands
    ]


def _lockstep_game(rules: RuleSet, players: int, seed: int, levels: tuple[str, ...]) -> int:
    """Play a game on the core; at every decision the level of the seat to move chooses from
    the SeatView (one instance) and from the compact view (a twin with the same seed): the
    same legal actions, the same choice. Returns the number of decisions."""
    seats = [levels[i % len(levels)] for i in range(players)]
    slow = [make_player(level, seed * 16 + i) for i, level in enumerate(seats)]
    fast = [make_player(level, seed * 16 + i) for i, level in enumerate(seats)]
    c = core_new_game(rules, players, seed)
    decisions = 0
    while not c.over:
        seat = c.turn
        sv = view(to_state(c), seat)
        cv = seat_view(c, seat)
        assert cv.legal_actions() == view_legal_actions(sv)
        _seen_equals_view(cv, sv)
        a = slow[seat].choose(sv)
        m = fast[seat].choose_move(cv)
        assert cv.action(m) == a, (seats[seat], decisions)
        step(c, m)
        decisions += 1
    return decisions


def test_every_level_chooses_the_same_from_the_compact_view_under_random_options():
    # §1-§8: every option of docs/rules.md, 2 to 8 players, the three levels that have a fast path
    rng = random.Random(2209)
    total = 0
    for k in range(40):
        rules, players = random_table(rng, max_players=8)
        rules = rules.model_copy(update={"rounds": 1})
        levels = tuple(rng.sample(FAST, len(FAST)))
        total += _lockstep_game(rules, players, seed=k, levels=levels)
    assert total > 1000


def test_random_players_choose_the_same_over_many_random_games():
    # §1-§8: the random level draws from its generator over the legal moves in their order
    rng = random.Random(77)
    for k in range(40):
        rules, players = random_table(rng, max_players=8)
        _lockstep_game(rules, players, seed=100 + k, levels=("random",))


# ---------------------------------------------------------------------------------------
# No hidden tile in the compact view
# ---------------------------------------------------------------------------------------
def _fields(cv: CompactView) -> tuple:
    """Every field of the view (its caches aside), lists made comparable."""
    out = [("legal", tuple(cv.legal()))]
    for name in Position.__slots__ + CompactView.__slots__:
        if name in ("_seen", "plays_cache"):
            continue
        value = getattr(cv, name)
        if isinstance(value, list):
            value = repr(value)
        out.append((name, value))
    return tuple(out)


def _holds_nothing_hidden(cv: CompactView) -> None:
    assert set(cv.hands) == {cv.seat}  # no other hand, not even empty ones
    assert isinstance(cv.bone, range) and cv.bpos == 0  # the boneyard's size, no tile
    for e in cv.events:
        if (e >> 4) & 7 == E_DRAW and e & 15 != cv.seat:
            assert e >> 7 == 0  # another seat's draw without its tile


@pytest.mark.parametrize("options", HIDDEN_TILE_VARIANTS)
def test_hidden_tiles_never_change_the_compact_view_nor_the_choice(options):
    rules = RuleSet(rounds=2, **options)
    rng = random.Random(5)
    for state in planner_positions(rules, 3, 5, share=0.2, choices_only=False):
        seat = state.turn
        before = seat_view(from_state(state), seat)
        _holds_nothing_hidden(before)
        choices = {level: make_player(level, 11).choose_move(before) for level in FAST}
        for _ in range(2):
            other = redistribute(state, seat, rng)
            assert other.hands != state.hands or other.boneyard != state.boneyard
            after = seat_view(from_state(other), seat)
            assert _fields(after) == _fields(before)
            for level in FAST:
                assert make_player(level, 11).choose_move(after) == choices[level]


class _Spy:
    """Wraps a player and checks what it is handed on either path."""

    seen: list = []

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = inner.name
        if hasattr(inner, "choose_move"):
            self.choose_move = self._choose_move

    def choose(self, v):
        assert type(v) is SeatView and v.turn == v.seat
        assert all(h is None for i, h in enumerate(v.hands) if i != v.seat)
        _Spy.seen.append(type(v))
        return self.inner.choose(v)

    def _choose_move(self, v):
        assert type(v) is CompactView and v.turn == v.seat
        _holds_nothing_hidden(v)
        _Spy.seen.append(type(v))
        return self.inner.choose_move(v)


def test_tournament_hands_compact_views_to_fast_levels_and_seat_views_to_the_expert(monkeypatch):
    real = tour.make_seat
    monkeypatch.setattr(tour, "make_seat", lambda level, seed, budget: _Spy(real(level, seed, budget)))
    _Spy.seen = []
    tour.play_one(RuleSet(set=6, rounds=1), ("expert", "planner", "greedy", "random"), 2, 4)
    assert set(_Spy.seen) == {SeatView, CompactView}


# ---------------------------------------------------------------------------------------
# Same games, same records, same figures
# ---------------------------------------------------------------------------------------
FIXTURES = Path(__file__).parent.parent / "fixtures" / "records"


def _fixture_cases():
    spec = importlib.util.spec_from_file_location("record_fixtures_make_h9", FIXTURES / "make.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CASES


@pytest.mark.parametrize("k,case", list(enumerate(_fixture_cases(), start=1)), ids=lambda x: str(x)[:24])
def test_the_core_path_writes_the_kept_records_byte_for_byte(k, case):
    """The fixtures were written by the reducer path (apply + view + choose) with the
    seeds and names simulate uses; the core path with compact views writes the same bytes."""
    from mexitrain.rules import make_rules

    stem, preset, options, players, levels = case
    rules = make_rules(preset, options)
    seats = [levels[i % len(levels)] for i in range(players)]
    state = to_state(play_core(rules, seats, 1000 + k))
    names = [(f"{level.capitalize()} {i + 1}", level) for i, level in enumerate(seats)]
    record = to_record(state, names, meta={"fixture": stem, "preset": preset, "options": options})
    assert dump_record(record) == (FIXTURES / f"{stem}.json").read_text(encoding="utf-8")


# printed by `mexitrain simulate` at commit 5cba544 (the reducer path), speed line aside
SIMULATE_BEFORE = {
    "--games 6 --players 3 --seed 5 --ai random,greedy,planner --option rounds=3 --option swan_drive=on": """\
6 games, 3 players, preset standard rounds=3 swan_drive=on, seeds 5..10
wins by seat (a shared win counts for each winner; seats from 1):
  seat 1 (random): 2 (33.3%)
  seat 2 (greedy): 1 (16.7%)
  seat 3 (planner): 3 (50.0%)
mean total per seat:
  seat 1: 99.7
  seat 2: 95.2
  seat 3: 77.0
round ends: domino 14, stuck 4, blocked 0 (18 rounds)
""",
    "--games 8 --players 4 --seed 3 --ai random,greedy --option rounds=2 --option round_end=until_blocked "
    "--option set=9 --option branching_doubles=on": """\
8 games, 4 players, preset standard rounds=2 round_end=until_blocked set=9 branching_doubles=on, seeds 3..10
wins by seat (a shared win counts for each winner; seats from 1):
  seat 1 (random): 0 (0.0%)
  seat 2 (greedy): 5 (62.5%)
  seat 3 (random): 0 (0.0%)
  seat 4 (greedy): 4 (50.0%)
  shared wins: 1 game
mean total per seat:
  seat 1: 31.8
  seat 2: 10.4
  seat 3: 33.4
  seat 4: 19.2
round ends: domino 16, stuck 0, blocked 0 (16 rounds)
""",
    "--games 5 --players 2 --seed 40 --option rounds=4 --option open_hands=on --option opening=first_turn_chain": """\
5 games, 2 players, preset standard rounds=4 open_hands=on opening=first_turn_chain, seeds 40..44
wins by seat (a shared win counts for each winner; seats from 1):
  seat 1 (random): 3 (60.0%)
  seat 2 (random): 2 (40.0%)
mean total per seat:
  seat 1: 95.2
  seat 2: 133.8
round ends: domino 9, stuck 11, blocked 0 (20 rounds)
""",
}


@pytest.mark.parametrize("argv", list(SIMULATE_BEFORE))
def test_simulate_prints_the_same_figures_as_before(argv, capsys):
    assert main(["simulate", *argv.split()]) == 0
    out = capsys.readouterr().out
    kept = [line for line in out.splitlines(keepends=True)  # not the machine's: speed, form
            if not line.startswith(("speed:", "rules core:"))]
    assert "".join(kept) == (
        SIMULATE_BEFORE[argv]
    )
