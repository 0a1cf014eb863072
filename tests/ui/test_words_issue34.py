"""Issue #34, item 4 "Words": the station's labels, the quit dialog, the line after quitting,
the new-game form's look and summary."""

from __future__ import annotations

import re

import pytest
from support.pilot import game_app, settle
from support.tables import table

from mexitrain.rules import RuleSet
from mexitrain.ui.widgets import StationHub


async def test_the_station_puts_seat_name_and_count_in_one_order_on_both_sides():
    """At 120 columns the right side read "Cal 13 3" (name, tiles, seat) while the left read
    "1 You 15" (seat, name, tiles): both sides now say seat, name, tiles."""
    names = ("You", "Bea", "Cal", "Dot")
    app = game_app(table(RuleSet(), seed=5, kinds=("human",) + ("random",) * 3, names=names))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        view = app.game_screen.board.view
        text = str(app.screen.query_one(StationHub).render())
        for seat, name in enumerate(names):
            count = view.hand_sizes[seat]
            assert re.search(rf"\b{seat + 1}[ →]{name} +{count}\b", text), (name, text)  # (→: whose turn)
            assert not re.search(rf"{name} +{count} {seat + 1}\b", text), (name, text)


# -- quitting a local game: the dialog says it is autosaved, the terminal how to resume ---------
async def test_the_quit_dialog_of_a_local_game_says_it_is_autosaved_and_it_is():
    from support.pilot import human_move

    from mexitrain.storage import load_game
    from mexitrain.ui.screens import QuitScreen

    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await human_move(pilot)
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        assert "autosaved" in str(app.screen.query_one("#quit-autosaved").render())
        snapshot = app.snapshot
        await pilot.press("y")
    assert app.quit_autosaved
    assert load_game(app.saver.path)[1] == snapshot  # what the dialog said is on disk


async def test_the_quit_dialog_says_nothing_of_an_autosave_that_fails():
    from mexitrain.ui.screens import QuitScreen

    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.saver.failing = "the disk is full"  # as the autosaver keeps a failure
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        assert not app.screen.query("#quit-autosaved")
        await pilot.press("y")
    assert not app.quit_autosaved


async def test_a_finished_game_quits_with_nothing_to_resume():
    from support.games import finish

    from mexitrain.rules import new_game

    setup = table()
    state = finish(new_game(setup.rules, players=2, seed=setup.seed))
    app = game_app(setup, state=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.quit_autosaved


class _Ended:
    """What the play command reads of an app that has ended."""

    def __init__(self, quit_autosaved: bool, failing: str | None = None) -> None:
        self.quit_autosaved = quit_autosaved
        self.saver = type("Saver", (), {"failing": failing})()


def _play(monkeypatch, capsys, app, argv: list[str]) -> str:
    from mexitrain import cli
    from mexitrain.ui import app as ui_app

    def fake_run(setup, speed, then=None, **kwargs):
        then(app)
        return 0

    monkeypatch.setattr(ui_app, "run", fake_run)
    assert cli.main(argv) == 0
    return capsys.readouterr().out


def test_after_quitting_a_game_in_progress_the_terminal_says_how_to_resume(monkeypatch, capsys):
    out = _play(monkeypatch, capsys, _Ended(True), ["--players", "2"])
    assert out == "Your game is autosaved: run mexitrain to resume it.\n"
    out = _play(monkeypatch, capsys, _Ended(True), ["--data-dir", "/tmp/my games", "--players", "2"])
    assert out == "Your game is autosaved: run mexitrain --data-dir '/tmp/my games' to resume it.\n"


def test_no_resume_line_after_a_finished_game_or_a_failing_autosave(monkeypatch, capsys):
    assert _play(monkeypatch, capsys, _Ended(False), ["--players", "2"]) == ""
    assert _play(monkeypatch, capsys, _Ended(True, "the disk is full"), ["--players", "2"]) == ""


# -- the new-game form at 80 columns ----------------------------------------------------------
def _form_app():
    from mexitrain.ui.app import MexitrainApp

    return MexitrainApp(None, speed=0, seed=4242)


async def test_an_unticked_box_shows_no_x_and_a_ticked_one_does():
    """Textual draws an unticked box's X dim, which reads as ticked: on the form the X of an
    unticked box has the colour of its background (unseen), a ticked one stands out."""
    from textual.widgets import Checkbox

    app = _form_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        box = app.screen.query_one("#undo_with_several", Checkbox)
        for ticked in (False, True):
            box.value = ticked
            await pilot.pause()
            x = next(seg for seg in box.render_line(0) if seg.text == "X")
            assert (x.style.color == x.style.bgcolor) is not ticked, (ticked, x.style)


async def test_every_list_of_the_form_has_one_width():
    """The lists ended at three places (Preset wider, the seats' kinds narrower): now they end
    at one column, the seats' kinds included."""
    from textual.widgets import Select

    app = _form_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lists = [s for s in app.screen.query(Select) if s.outer_size.width]  # rows shown
        assert len(lists) >= 12
        assert len({s.outer_size.width for s in lists if "seat-kind" not in s.classes}) == 1
        assert len({s.region.right for s in lists}) == 1, {s.id: s.region.right for s in lists}


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_ready_summary_fits_one_line_at_80_columns(lang):
    from textual.widgets import Select, Static

    from mexitrain.i18n import set_language

    set_language(lang)
    app = _form_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        for players in (4, 8, 2):
            screen.query_one("#players", Select).value = players
            await pilot.pause()
            await pilot.pause()
            verdict = screen.query_one("#verdict", Static)
            text = verdict.render().plain
            assert text.startswith(("Ready:", "Prêt :")), text
            assert verdict.size.height == 1 and len(text) <= verdict.size.width, text


# -- pictures: the new-game form and the quit dialog at 80x24, in both languages ---------------
LANGS = [pytest.param("en", id="en"), pytest.param("fr", id="fr")]


@pytest.mark.parametrize("lang", LANGS)
def test_new_game_form_picture(snap_compare, lang):
    """Lists of one width, the unticked box empty, the verdict on one line above the buttons."""
    from mexitrain.i18n import set_language

    set_language(lang)
    assert snap_compare(_form_app(), terminal_size=(80, 24))


@pytest.mark.parametrize("lang", LANGS)
def test_quit_dialog_picture(snap_compare, lang):
    """The quit dialog of a local game: the game is autosaved, and it says so."""
    from mexitrain.i18n import set_language
    from mexitrain.ui.screens import QuitScreen

    set_language(lang)
    app = game_app(table(RuleSet(set=6, rounds=1), seed=3, kinds=("human", "random")))

    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("q")
        for _ in range(50):
            if isinstance(pilot.app.screen, QuitScreen):
                break
            await pilot.pause()
        await pilot.pause()
        pilot.app.clear_notifications()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
