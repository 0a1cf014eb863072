"""Issue 21: small terminals, the 80-column status lines, notices out of the way, the replay
viewer that never opens a game in progress face up, and no computer player called "You"."""

from __future__ import annotations

import pytest
from support.pilot import game_app, settle, wait_for
from support.positions import empty_trains, prepared
from support.tables import table

from mexitrain.game_setup import default_seats
from mexitrain.rules import RuleSet
from mexitrain.storage import save_named
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import GameScreen, HandoffScreen, HelpScreen, NewGameScreen, RevealScreen
from mexitrain.ui.screens.replay import ReplayScreen
from mexitrain.ui.textual_compat import exiting, notices
from mexitrain.ui.widgets import StatusLine
from mexitrain.ui.widgets.layout import SizeGuard

from .test_french import screen_text


def _guard(app) -> SizeGuard:
    return app.screen.query_one(SizeGuard)


# -- small terminals -------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(40, 12), (60, 20)])
async def test_the_game_says_the_window_is_too_small_and_comes_back_when_resized(size):
    app = game_app(table(kinds=("human", "random", "random")))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert _guard(app).shown
        text = " ".join(screen_text(app).split())
        assert f"The window is {size[0]}x{size[1]}; mexitrain needs at least 80x20" in text
        before = app.snapshot
        await pilot.press("enter", "d", "m")  # no move is made blind
        await pilot.pause()
        assert app.snapshot is before
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: not _guard(app).shown, "the board back")
        assert "mexitrain needs at least" not in screen_text(app)
        assert "R1/1" in screen_text(app)


@pytest.mark.parametrize("size", [(40, 12), (60, 20)])
async def test_the_new_game_form_says_the_window_is_too_small(size):
    app = MexitrainApp(None, speed=0, seed=5)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert _guard(app).shown
        assert "mexitrain needs at least 72x16" in " ".join(screen_text(app).split())
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: not _guard(app).shown, "the form back")
        assert "Ready:" in screen_text(app)


@pytest.mark.parametrize("size", [(40, 12), (60, 20)])
async def test_every_screen_of_a_game_holds_at_small_sizes(size):
    """Hand-off, score sheet, help, quit, round over: no crash at 40x12 and 60x20."""
    app = game_app(table(RuleSet(set=6, rounds=1), kinds=("human", "human")))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HandoffScreen)
        screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        for key in ("s", "escape", "question_mark", "escape", "q", "n"):
            await pilot.press(key)
            await pilot.pause()
            screen_text(app)
        assert isinstance(app.screen, GameScreen)


# -- the two status lines at 80 columns --------------------------------------------------------
def _status_lines(app) -> list[str]:
    status = app.screen.query_one(StatusLine)
    lines = status.render().plain.split("\n")
    assert len(lines) == 2
    assert all(len(line) <= status.content_size.width for line in lines), lines
    return lines


async def test_a_long_prompt_stays_on_its_line_and_the_counts_stay_whole():
    """At 80 columns "Follow your double 3-3 with a non-double (on it or any train you may
    use)" wrapped and pushed the counts line out of the widget, then was cut; now it is
    shorter and whole."""
    setup = table(
        RuleSet(set=12), kinds=("human", "random", "random", "random"), names=("You", "Beatrice", "Caroline", "Dorothée")
    )
    from mexitrain.rules import Train

    trains = list(empty_trains(prepared(setup), 12))
    trains[0] = Train(owner=0, lines=(((12, 3),),), starts=(12,))  # your train ends in 3
    hands = (((3, 3), (3, 4), (0, 1)), ((0, 2),), ((1, 2), (0, 5)), ((4, 5), (1, 5), (2, 6)))
    state = prepared(setup, hands=hands, trains=tuple(trains), boneyard=(), turn=0)
    app = game_app(setup, state=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        board = app.screen.board
        # play the double 3-3: the turn now owes a non-double
        play = next(p for p in board.plays if tuple(sorted(p.tile)) == (3, 3))
        app.screen.post_message(GameScreen.Act(play))
        await wait_for(pilot, lambda: app.snapshot.phase == "follow_up", "the follow-up")
        await pilot.pause()
        first, second = _status_lines(app)
        assert first == "R1/13 Follow your double 3-3 with a non-double, on any train you may use"
        assert app.screen.query_one(StatusLine).tooltip is None
        await pilot.press("question_mark")  # nothing cut: the help says nothing of it
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        assert not [n for n in app.screen.query(".help-note") if "Now:" in str(n.render())]
        await pilot.press("escape")
        # the counts: every seat with its tiles, after the whole knock
        assert second.startswith(" KNOCK! Beatrice has one tile left ")
        for count in ("boneyard 0", "you 2", "Bea 1", "Car 2", "Dor 3"):
            assert count in second


@pytest.mark.parametrize(("lang", "head", "whole"), [
    ("en", "R1/13 ", "Bartholomew-Greatest's turn: pick a tile (←→) and a train (↑↓), then Enter"),
    ("fr", "M1/13 ", "Au tour de Bartholomew-Greatest : choisissez un domino (←→) et un train (↑↓), puis Entrée"),
])
async def test_a_prompt_too_long_for_its_line_is_cut_and_whole_in_its_tooltip(lang, head, whole):
    """People at one keyboard are named in the prompt, once (a French line that did not start
    "Au tour de" got the name put before it again): a long name's is cut at 80 columns. The
    whole line is the tooltip, which only a mouse reaches, and the help panel's first line (?)."""
    from mexitrain.i18n import language, set_language

    before = language()
    set_language(lang)
    try:
        setup = table(RuleSet(set=12), kinds=("human", "human"), names=("Bartholomew-Greatest", "Bea"))
        app = game_app(setup, state=prepared(setup, turn=0))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("enter")  # the hand-off
            await settle(pilot)
            first, _second = _status_lines(app)
            assert first.endswith("…") and whole.startswith(first[len(head):-1])
            assert app.screen.query_one(StatusLine).tooltip == whole
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
            note = str(app.screen.query_one(".help-note").render())
            assert note == ("Now: " + whole if lang == "en" else "Maintenant : a" + whole[1:])  # « au tour de »
    finally:
        set_language(before)


async def test_the_knock_does_not_squeeze_the_counts():
    """The knock line squeezed the counts to "bone 0 y4 B1": the counts now keep their room."""
    setup = table(kinds=("human", "random", "random", "random"))
    state = prepared(setup, hands=(((3, 4), (0, 1), (1, 1), (2, 2)), ((0, 2),), ((1, 2),), ((4, 5),)), turn=0)
    app = game_app(setup, state=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first, second = _status_lines(app)
        assert "KNOCK!" in second
        assert "boneyard" in second and "Bea 1" in second and "you 4" in second


# -- the replay viewer and a game in progress --------------------------------------------------
async def test_the_replay_viewer_refuses_an_unfinished_game_while_a_game_runs(tmp_path):
    """Ctrl+P → "Open replay…" → autosave.json showed every hand of the game in progress,
    even from the hand-off screen. Now only finished games open while a game runs."""
    from mexitrain.ui.screens.saves import FileScreen

    setup = table(kinds=("human", "human", "random"))
    app = game_app(setup)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HandoffScreen)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Open replay…" in titles and "New game" in titles
        app.saver.flush()
        autosaves = sorted((app.root / "autosaves").glob("*.json"))
        assert autosaves, "the game in progress has an autosave"
        app.action_open_replay()  # the picker, with the autosave typed as the path
        await wait_for(
            pilot, lambda: isinstance(app.screen, FileScreen) and app.screen.query("#file-path"), "the file picker"
        )
        app.screen.query_one("#file-path").value = str(autosaves[0])
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: any("A game is in progress" in n.message for n in notices(app)), "a refusal"
        )
        assert isinstance(app.screen, HandoffScreen)
        assert not any(isinstance(s, ReplayScreen) for s in app.screen_stack)
        # the same game saved under a name, opened as a path: refused
        path = save_named(app.root, "copy", app.snapshot, setup)
        from mexitrain.storage import load_save

        app.open_replay(load_save(path))
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        assert any("A game is in progress" in n.message for n in notices(app))


@pytest.mark.parametrize(("answer", "opens"), [("y", True), ("n", False)])
async def test_replay_from_the_command_line_asks_before_showing_an_unfinished_game(tmp_path, answer, opens):
    """mexitrain --replay FILE of an unfinished game: a yes/no question first (no: exit)."""
    from mexitrain.rules import new_game
    from mexitrain.storage import load_save

    setup = table()
    state = new_game(setup.rules, players=2, seed=setup.seed)
    game = load_save(save_named(tmp_path, "unfinished", state, setup))
    app = MexitrainApp(None, speed=0, data_dir=tmp_path, replay=game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RevealScreen)
        assert "hidden" in screen_text(app)
        await pilot.press(answer)
        await pilot.pause()
        if opens:
            assert isinstance(app.screen, ReplayScreen)
        else:
            await wait_for(pilot, lambda: exiting(app) or not app.is_running, "the exit")
    if not opens:
        assert not app.is_running


# -- names ----------------------------------------------------------------------------------------
def test_no_computer_player_is_called_you():
    """--humans 0 called a computer player "You" (and the replay then said "you" for it)."""
    for players in range(2, 9):
        seats = default_seats(players, 0)
        assert all(s.kind != "human" for s in seats)
        assert "You" not in [s.name for s in seats]
        assert len({s.name for s in seats}) == players
    assert default_seats(4, 1)[0].name == "You"
