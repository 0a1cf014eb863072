"""Tiles as pips (issue #34 item 3): a preference, numbers by default; halves 0 to 6 shown as
their faces on the hand, the trains and the station, higher ones still as numbers."""

from __future__ import annotations

from support.pilot import game_app, settle
from support.tables import table

from mexitrain.rules import RuleSet
from mexitrain.storage import settings
from mexitrain.ui.widgets import HandTray, TrainRows
from mexitrain.ui.widgets.domino import PIPS, shown


def _text(app, widget) -> str:
    return str(app.game_screen.query_one(widget).render())


def test_a_half_has_a_face_up_to_six():
    assert [shown(v, True) for v in range(8)] == [*PIPS, "7"]
    assert shown(5) == "5"


async def test_the_palette_switches_tiles_to_pips_and_back_and_keeps_it(tmp_path):
    setup = table(RuleSet(set=6, rounds=1))
    app = game_app(setup, data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Tiles as pips" in titles
        hand = _text(app, HandTray)
        assert not set(PIPS) & set(hand)  # numbers by default
        app.action_toggle_pips()
        await pilot.pause()
        hand = _text(app, HandTray)
        assert set(PIPS) & set(hand) and not any(c.isdigit() for c in hand.split("\n")[1])
        assert set(PIPS) & set(_text(app, TrainRows))  # the open ends too
        assert settings.load(tmp_path).get("tiles") == "pips"
        assert "Tiles as numbers" in [c.title for c in app.get_system_commands(app.screen)]
        app.action_toggle_pips()
        await pilot.pause()
        assert not set(PIPS) & set(_text(app, HandTray))
    # a new game starts with the preference
    settings.save(tmp_path, tiles="pips")
    app = game_app(setup, data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.game_screen.board.pips and set(PIPS) & set(_text(app, HandTray))
