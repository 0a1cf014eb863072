"""The core works out a person's legal moves once per decision (issue #33): the screen, the
status line, the forced move, undo and the network client read them from the view, locally
and at a network table."""

from __future__ import annotations

from collections import Counter

import pytest
from support.pilot import game_app, play_until_screen_changes
from support.tables import table

from mexitrain.rules import RuleSet, engine
from mexitrain.rules import core as core_package
from mexitrain.rules.core import moves, refusals, seat


@pytest.fixture
def generations(monkeypatch):
    """Every generation of legal moves (a core whose moves were not worked out yet), counted
    by position: (finished rounds, events, seat to move, phase)."""
    counted: Counter = Counter()
    real = moves.legal

    def counting(c):
        if c.plays_cache is None:
            counted[(len(getattr(c, "results", ())), len(c.events), c.turn, c.phase)] += 1
        return real(c)

    for module, name in ((moves, "legal"), (core_package, "legal"), (engine, "_legal"), (seat, "legal"), (refusals, "legal")):
        monkeypatch.setattr(module, name, counting)
    return counted


def _of_seat(counted: Counter, who: int) -> list[int]:
    return [n for (_r, _e, turn, _p), n in counted.items() if turn == who]


async def test_a_local_person_s_moves_are_worked_out_once_per_decision(generations):
    setup = table(RuleSet(set=6, rounds=1), kinds=("human", "random"))
    app = game_app(setup)
    async with app.run_test(size=(80, 24)) as pilot:
        keys = await play_until_screen_changes(pilot)
    assert len(keys) >= 5
    mine = _of_seat(generations, 0)
    assert len(mine) >= len(keys) and set(mine) == {1}, generations


async def test_at_a_network_table_the_guest_works_nothing_out(generations, tmp_path):
    from support.pilot import ann_at_a_network_table, play_my_turns_at_the_table

    async with ann_at_a_network_table(tmp_path) as (app, pilot):
        await pilot.press("ctrl+s")
        pressed = await play_my_turns_at_the_table(pilot)
    assert pressed >= 5
    # the server's core worked out each of Ann's positions once; Ann's app none again
    mine = _of_seat(generations, 0)
    assert len(mine) >= pressed and set(mine) == {1}, generations
