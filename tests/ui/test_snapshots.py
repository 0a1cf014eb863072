"""Snapshot tests of every screen at 80x24 and 120x40 (pytest-textual-snapshot).

Deterministic: fixed seeds, seeded random computer players moving at speed 0, no clock on
screen, and no text cursor in view. Update with ``pytest tests/ui --snapshot-update`` after
looking at every changed picture.
"""

from __future__ import annotations

import pytest
from support.pilot import settle
from support.tables import table

from mexitrain.rules import RuleSet
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import GameOverScreen, HelpScreen, RoundOverScreen, ScoreScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


async def _settle(pilot) -> None:
    await settle(pilot)
    quiet(pilot)


async def _until(pilot, screen_type) -> None:
    """Wait (without sleeping) until ``screen_type`` is on top and painted."""
    for _ in range(200):
        await pilot.pause()
        if isinstance(pilot.app.screen, screen_type):
            break
    await _settle(pilot)
    await pilot.pause()
    quiet(pilot)


def quiet(pilot) -> None:
    """Toasts (the knock) time out on a clock: keep them out of the pictures."""
    pilot.app.clear_notifications()


def game_app() -> MexitrainApp:
    """A human and three computer players, double-9, mid-round once the computers moved."""
    setup = table(RuleSet(set=9, rounds=3), seed=11, kinds=("human", "random", "random", "random"))
    return MexitrainApp(setup, speed=0)


def computers_app(rounds: int = 1) -> MexitrainApp:
    setup = table(
        RuleSet(set=6, rounds=rounds), seed=5, kinds=("random", "random", "random"), names=("Ann", "Bea", "Cal")
    )
    return MexitrainApp(setup, speed=0)


async def _play_a_few(pilot) -> None:
    await _settle(pilot)
    for _ in range(3):
        board = pilot.app.game_screen.board
        key = "enter" if board.plays else ("d" if board.can("draw") else "m")
        await pilot.press(key)
        await _settle(pilot)
    await pilot.press("right")
    await pilot.pause()
    quiet(pilot)


@pytest.mark.parametrize("size", SIZES)
def test_new_game_screen(snap_compare, size):
    assert snap_compare(MexitrainApp(None, speed=0, seed=12345), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_game_screen(snap_compare, size):
    assert snap_compare(game_app(), terminal_size=size, run_before=_play_a_few)


@pytest.mark.parametrize("size", SIZES)
def test_help_screen(snap_compare, size):
    async def run_before(pilot):
        await _settle(pilot)
        await pilot.press("question_mark")
        await _until(pilot, HelpScreen)

    assert snap_compare(game_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_handoff_screen(snap_compare, size):
    setup = table(RuleSet(set=6, rounds=1), seed=3, kinds=("human", "human"), names=("Ann", "Bob"))
    assert snap_compare(MexitrainApp(setup, speed=0), terminal_size=size, run_before=_settle)


@pytest.mark.parametrize("size", SIZES)
def test_round_over_screen(snap_compare, size):
    assert snap_compare(computers_app(rounds=2), terminal_size=size, run_before=_settle)


@pytest.mark.parametrize("size", SIZES)
def test_score_sheet_screen(snap_compare, size):
    async def run_before(pilot):
        await _until(pilot, RoundOverScreen)
        await pilot.press("s")
        await _until(pilot, ScoreScreen)

    assert snap_compare(computers_app(rounds=2), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_game_over_screen(snap_compare, size):
    async def run_before(pilot):
        await _settle(pilot)
        await pilot.press("enter")
        await _settle(pilot)
        await _until(pilot, RoundOverScreen)
        await pilot.press("enter")
        await _until(pilot, GameOverScreen)

    assert snap_compare(computers_app(rounds=2), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_tip_panel(snap_compare, size):
    """The tip (n) over the move log; the suggested tile selected in the hand, its train marked."""
    app = game_app()
    app.hint_time = 0  # the planner's advice, without a clock

    async def run_before(pilot):
        await _play_a_few(pilot)
        assert pilot.app.game_screen.board.plays  # a tile to suggest
        await pilot.press("n")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        quiet(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


LANGS = [pytest.param("en", id="en"), pytest.param("fr", id="fr")]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_corner_tip_moved_and_a_notice(snap_compare, size, lang):
    """The corner (issue #34): the tip at the top of the log's column, dimmed and saying what
    it was once the selection moved off it, and a refused move's notice below it on the same
    edge; the last plays underlined, whose turn marked (→)."""
    from mexitrain.i18n import set_language

    set_language(lang)
    app = game_app()
    app.hint_time = 0

    async def run_before(pilot):
        await _play_a_few(pilot)
        assert pilot.app.game_screen.board.plays
        await pilot.press("n")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        tip = pilot.app.game_screen.board.tip_play
        assert tip is not None
        for _ in range(len(pilot.app.game_screen.board.tray)):
            await pilot.press("right")
            if pilot.app.game_screen.board.play() != tip:
                break
        await pilot.press("d")  # a tile fits: not allowed, said below the tip
        for _ in range(100):
            await pilot.pause()
            if pilot.app.screen.query("Toast"):
                break
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
