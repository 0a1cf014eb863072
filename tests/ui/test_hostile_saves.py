"""Issue 21, "Text is text", the last Pilot cases: the new-game form refuses a name with a control
character in one line with Start disabled; and names from a save file holding action markup
(``[ @click=...]``, which Textual's ``escape()`` misses) are shown literally in Load…, the resume
dialog and the replay viewer, where clicking on them runs nothing: the app keeps running and no
screenshot file appears."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.pilot import settle, wait_for
from textual.widget import Widget
from textual.widgets import Button, Input, OptionList, Static

from mexitrain.game_setup import GameSetup, SeatConfig
from mexitrain.rules import RuleSet, apply, legal_actions, new_game
from mexitrain.storage import game_autosave_path, load_save, save_game
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import GameScreen, NewGameScreen
from mexitrain.ui.screens.replay import ReplayScreen
from mexitrain.ui.screens.saves import LoadScreen, ResumeScreen
from mexitrain.ui.textual_compat import exiting
from mexitrain.ui.widgets import StationHub, TrainRows

QUIT = "[ @click=app.quit]Bo"


def screenshot_name(shots: Path) -> str:
    return f"[ @click=app.screenshot('x.svg','{shots}')]Sunday"


def hostile_setup() -> GameSetup:
    seats = (SeatConfig(name=QUIT, kind="human"), SeatConfig(name="Ann", kind="random"))
    return GameSetup(rules=RuleSet(set=6, rounds=1), seed=5, seats=seats)


def steps(setup: GameSetup, count: int | None):
    state = new_game(setup.rules, players=setup.players, seed=setup.seed)
    while not state.over and (count is None or count > 0):
        state = apply(state, legal_actions(state)[0])
        count = None if count is None else count - 1
    return state


def rendered_lines(widget: Widget) -> list[str]:
    """The widget's text as shown, one string a line (its region's width)."""
    strips = widget.render_lines(widget.content_region.reset_offset)
    return ["".join(seg.text for seg in strip) for strip in strips]


async def click_on(pilot, widget: Widget, text: str) -> None:
    """Click on the middle of ``text`` where ``widget`` shows it (asserts it is shown)."""
    for y, line in enumerate(rendered_lines(widget)):
        x = line.find(text)
        if x >= 0:
            gutter = widget.content_region.x - widget.region.x, widget.content_region.y - widget.region.y
            await pilot.click(widget, offset=(gutter[0] + x + len(text) // 2, gutter[1] + y))
            await pilot.pause()
            return
    raise AssertionError(f"{text!r} is not shown: {rendered_lines(widget)}")


def assert_nothing_ran(app: MexitrainApp, shots: Path) -> None:
    assert not exiting(app), "a name quit the app"
    assert list(shots.iterdir()) == [], "a name wrote a file"


# -- (a) the new-game form --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "shown"),
    [("Bo\x1b]2;pwned", "U+001B"), ("Bo\x07", "U+0007"), ("Bo\u202etxt", "U+202E")],
    ids=["esc", "bel", "rlo"],
)
async def test_the_form_refuses_a_name_with_a_control_character_in_one_line(name: str, shown: str) -> None:
    app = MexitrainApp(None, speed=0, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#name-0", Input).value = name
        await pilot.pause()
        verdict = str(screen.query_one("#verdict", Static).render())
        assert "Cannot start:" in verdict and "the name of seat 1 cannot hold the control character" in verdict
        assert shown in verdict and "\n" not in verdict.strip()
        assert not any(ch in verdict for ch in "\x1b\x07\u202e")  # said, never printed raw
        assert screen.query_one("#start", Button).disabled
        await pilot.press("ctrl+s")  # the start key: refused too
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and app.snapshot is None


# -- (b) names from a save file ---------------------------------------------------------------------
async def test_load_list_shows_action_markup_literally_and_a_click_runs_nothing(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    setup = hostile_setup()
    title = screenshot_name(shots)
    save_game(tmp_path / "data" / "saves" / "sunday.json", steps(setup, 3), setup, name=title)
    app = MexitrainApp(None, speed=0, data_dir=tmp_path / "data")
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, LoadScreen) and not app.screen.reading, "the saves listed")
        listing = app.screen.query_one("#load-list", OptionList)
        prompt = str(listing.get_option_at_index(0).prompt)
        assert title in prompt and QUIT in prompt  # literally
        await click_on(pilot, listing, "@click=app.screenshot")  # the title: loads the game
        await settle(pilot)
        assert_nothing_ran(app, shots)
        assert isinstance(app.screen, GameScreen)
        for widget in (app.screen.query_one(StationHub), app.screen.query_one(TrainRows)):
            await click_on(pilot, widget, "@click=")  # names cut to fit ("…"): their start
            assert_nothing_ran(app, shots)


async def test_resume_dialog_shows_action_markup_literally_and_a_click_runs_nothing(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    setup = hostile_setup()
    root = tmp_path / "data"
    save_game(game_autosave_path(root, "hostile"), steps(setup, 3), setup)  # as an autosave
    app = MexitrainApp(None, speed=0, data_dir=root)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ResumeScreen)
        label = next(w for w in screen.query("Label.note") if QUIT in str(w.render()))
        assert f"Players: {QUIT}, Ann" in str(label.render())
        await click_on(pilot, label, "@click=app.quit")
        assert_nothing_ran(app, shots)
        assert app.screen is screen


async def test_replay_viewer_shows_action_markup_literally_and_a_click_runs_nothing(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    setup = hostile_setup()
    title = screenshot_name(shots)
    path = save_game(tmp_path / "sunday.json", steps(setup, None), setup, name=title)
    app = MexitrainApp(replay=load_save(path), speed=0, data_dir=tmp_path / "data")
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        status = screen.query_one("#replay-status", Static)
        assert title in str(status.render())
        await click_on(pilot, status, "@click=app.screenshot")
        assert_nothing_ran(app, shots)
        for _ in range(6):  # step into the game: the names in the moves and on the board
            await pilot.press("right")
        await pilot.pause()
        for widget in (screen.query_one(StationHub), screen.query_one(TrainRows)):
            await click_on(pilot, widget, "@click=")
            assert_nothing_ran(app, shots)
        assert app.screen is screen
