"""The new-game screen: defaults, keyboard, impossible tables explained, presets, start."""

from __future__ import annotations

from support.pilot import settle
from textual.widgets import Button, Checkbox, Input, Select, Static

from mexitrain.rules import PRESETS
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import GameScreen, NewGameScreen
from mexitrain.ui.textual_compat import select_options


def form_app() -> MexitrainApp:
    return MexitrainApp(None, speed=0, seed=4242)


def verdict(app) -> str:
    return str(app.screen.query_one("#verdict", Static).render())


async def test_defaults_you_and_three_computers_then_start():
    app = form_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert screen.query_one("#seed", Input).value == "4242"
        assert screen.query_one("#players", Select).value == 4
        assert screen.query_one("#name-0", Input).value == "You"
        assert screen.query_one("#kind-0", Select).value == "human"
        kinds = {screen.query_one(f"#kind-{i}", Select).value for i in (1, 2, 3)}
        assert len(kinds) == 1 and "human" not in kinds
        assert "Ready" in verdict(app)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        state = app.snapshot
        assert state.players == 4 and state.seed == 4242 and state.rules == PRESETS["standard"]


async def test_keyboard_only_changes_the_number_of_players():
    app = form_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.focused.id == "start"  # Enter alone starts the default table
        await pilot.press("tab")
        assert app.focused.id == "preset"
        await pilot.press("tab", "tab")
        assert app.focused.id == "players"
        await pilot.press("enter", "down", "enter")  # open the list, one down: 5
        await pilot.pause()
        assert app.screen.query_one("#players", Select).value == 5
        assert len(app.screen.query(".seat-row")) == 5
        await pilot.press("shift+tab")
        assert app.focused.id == "set"


async def test_impossible_table_is_explained_and_start_disabled():
    app = form_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#players", Select).value = 3
        await pilot.pause()
        screen.query_one("#teams", Checkbox).value = True
        await pilot.pause()
        assert "teams need 4, 6 or 8 players, not 3" in verdict(app)
        assert screen.query_one("#start", Button).disabled
        assert screen.check_action("start", ()) is False
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, NewGameScreen) and app.snapshot is None
        screen.query_one("#teams", Checkbox).value = False
        screen.query_one("#hand_size", Input).value = "40"
        await pilot.pause()
        assert "3 hands of 40 tiles need 120 tiles" in verdict(app)
        screen.query_one("#hand_size", Input).value = ""
        screen.query_one("#rounds", Input).value = "20"
        await pilot.pause()
        assert "at most 13 rounds" in verdict(app)
        screen.query_one("#rounds", Input).value = "2"
        await pilot.pause()
        assert "Ready" in verdict(app) and not screen.query_one("#start", Button).disabled


async def test_two_seats_of_one_name_are_refused_until_one_is_renamed():
    """One name, one player: on the board, in the log and in the statistics (which count a
    person by name), so two seats may not share one, whatever its case."""
    app = form_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        bea = screen.query_one("#name-1", Input).value
        screen.query_one("#name-2", Input).value = f" {bea.upper()} "
        await pilot.pause()
        assert f"two seats are named {bea.upper()}: each needs a name of its own" in verdict(app)
        assert screen.query_one("#start", Button).disabled
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, NewGameScreen) and app.snapshot is None
        screen.query_one("#name-2", Input).value = f"{bea} too"
        await pilot.pause()
        assert "Ready" in verdict(app) and not screen.query_one("#start", Button).disabled


async def test_choosing_a_preset_resets_the_options():
    app = form_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#swan_drive", Checkbox).value = True
        screen.query_one("#preset", Select).value = "common"
        await pilot.pause()
        await pilot.pause()
        values = screen.rule_values()
        common = PRESETS["common"]
        for key, value in values.items():
            assert getattr(common, key) == value, key
        screen.query_one("#preset", Select).value = "fast"
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one("#set", Select).value == 9
        assert screen.query_one("#hand_table", Select).value == "fast"
        assert [v for _, v in select_options(screen.query_one("#players", Select))] == [2, 3, 4]
        assert "Ready" in verdict(app)


async def test_first_seat_row_only_when_the_first_player_is_chosen():
    app = form_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert not screen.query_one("#row-first_seat").display
        screen.query_one("#first_player", Select).value = "chosen"
        await pilot.pause()
        assert screen.query_one("#row-first_seat").display
        screen.query_one("#first_seat", Select).value = 2
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.snapshot.rules.first_seat == 2 and app.snapshot.first_seat == 2


async def test_form_scrolls_and_survives_small_terminals():
    app = form_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*["tab"] * 14)
        assert app.focused is not None
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)


async def test_new_seed_says_what_it_did():
    """^R emptied the seed's field, below the fold at 80x24, and said nothing: with an empty
    seed it seemed to do nothing at all. A notice says what it did, either way."""
    from mexitrain.ui.textual_compat import notices

    app = form_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.screen.query_one("#seed", Input).value == ""
        assert [n.message for n in notices(app)] == ["Seed 4242 emptied: the game draws a fresh one, sealed."]
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert notices(app)[-1].message == "The seed is empty: the game draws a fresh one, sealed."
