"""Hand-off between people, round over, game over (play again / new game / quit), all-computer games."""

from __future__ import annotations

import pytest
from support.games import finish
from support.pilot import board, game_app, human_move, play_until_screen_changes, settle
from support.tables import table

from mexitrain.rules import RuleSet
from mexitrain.ui.screens import (
    GameOverScreen,
    GameScreen,
    HandoffScreen,
    NewGameScreen,
    RoundOverScreen,
    ScoreScreen,
)
from mexitrain.ui.textual_compat import notices
from mexitrain.ui.widgets import HandTray, ScoreSheet, StationHub
from mexitrain.ui.widgets.scores import sheet_markup


async def test_handoff_hides_the_hand_between_two_people():
    app = game_app(table(kinds=("human", "human")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HandoffScreen)  # two people: even the first turn is handed over
        assert not app.screen.query(HandTray)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and board(app).seat == 0
        await human_move(pilot)
        if app.snapshot.turn == 1:
            assert isinstance(app.screen, HandoffScreen)
            assert "Bea" in str(app.screen.query_one("#handoff-text").render())
            await pilot.press("enter")
            await settle(pilot)
            assert board(app).seat == 1 and board(app).view.hand == app.snapshot.hands[1]


async def test_no_handoff_with_open_hands_and_every_hand_shown():
    rules = RuleSet(set=6, rounds=1, open_hands=True)
    app = game_app(table(rules, kinds=("human", "human")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.screen.query_one("#open-hands").display
        await human_move(pilot)
        assert isinstance(app.screen, GameScreen)


async def test_round_over_shows_leftovers_and_scores_then_next_round():
    app = game_app(table(RuleSet(set=6, rounds=2), kinds=("human", "random", "random")))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until_screen_changes(pilot)
        assert isinstance(app.screen, RoundOverScreen)
        result = app.snapshot.results[0]
        text = str(app.screen.query_one("#leftovers").render())
        for seat, name in enumerate(("You", "Bea", "Cal")):
            points = sum(a + b for a, b in result.leftovers[seat])
            assert name in text and f"{points} pts" in text
        assert not notices(app)  # the round's passing notices do not cover it
        # how the round ended, move and all (docs/rules.md §7)
        final = result.events[-1]
        last = str(app.screen.query_one("#round-last").render())
        assert last.startswith("Last move: ")
        assert f"{final.tile[0]}-{final.tile[1]}" in last if final.type == "play" else final.type[:4] in last.lower()
        assert app.screen.query_one(ScoreSheet)
        # the score sheet any time, also from here
        await pilot.press("s")
        assert isinstance(app.screen, ScoreScreen)
        await pilot.press("escape", "enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.snapshot.round == 2
        sheet = sheet_markup(board(app).view, app.session.names)
        assert "★" in sheet or "0" in sheet
        assert "Total" in sheet and "Rounds at 0" in sheet and "Lowest ≠ 0" in sheet


async def test_a_long_round_over_title_wraps_at_80_columns():
    """"Manche 1 terminée · moteur 6-6 · la pioche est vide et …" is wider than 80 columns:
    it wraps, none of it cut off at the screen's edge (it was cut, without even an ellipsis)."""
    from mexitrain.i18n import set_language

    set_language("fr")  # conftest puts English back
    four = ("random",) * 4
    app = game_app(table(RuleSet(set=6, rounds=1), seed=1, kinds=four))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, RoundOverScreen) and app.snapshot.results[0].end == "stuck"
        title = app.screen.query_one("#round-title")
        text = str(title.render())
        room = app.screen.query_one("#round-over").scrollable_content_region.width
        assert len(text) > room  # too long for one line
        assert title.size.height >= 2 and title.region.right <= 80  # two lines, within the screen


async def test_all_computer_game_runs_to_game_over_and_play_again():
    app = game_app(table(RuleSet(set=6, rounds=2), kinds=("random", "random")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, RoundOverScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RoundOverScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert app.snapshot.over and len(app.snapshot.results) == 2
        text = str(app.screen.query_one("#winner").render())
        assert "on the" in text or "shared" in text
        old_seed = app.snapshot.seed
        await pilot.press("a")
        await settle(pilot)
        assert app.snapshot.round in (1, 2) and app.snapshot.seed != old_seed


async def test_game_over_new_game_goes_back_to_the_form():
    app = game_app(table(RuleSet(set=6, rounds=1), kinds=("random", "random")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("n")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)


def _finished_game(players: int = 3):
    from mexitrain.rules import new_game, winners

    state = finish(new_game(RuleSet(set=6, rounds=1), players=players, seed=8), 8)
    return state, winners(state)


async def test_game_over_says_you_win_to_the_one_person_at_the_table():
    """"You win", never "You wins": the person's seat is "you", and so is the default name."""
    from mexitrain.rules import view

    state, won = _finished_game()
    assert len(won) == 1
    seat = won[0]
    named = tuple("You" if i == seat else f"Bot{i}" for i in range(3))
    app = game_app(table(RuleSet(set=6, rounds=1), kinds=("human", "random", "random")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for names, viewer in ((named, None), (("Ann", "Bea", "Cal"), seat)):
            await app.push_screen(GameOverScreen(view(state, seat), names, viewer))
            await pilot.pause()
            text = str(app.screen.query_one("#winner").render())
            assert text.startswith("You win ") and "wins" not in text, text
            app.pop_screen()
            await pilot.pause()
        await app.push_screen(GameOverScreen(view(state, seat), ("Ann", "Bea", "Cal"), None))
        await pilot.pause()
        text = str(app.screen.query_one("#winner").render())
        assert text.startswith(f"{('Ann', 'Bea', 'Cal')[seat]} wins "), text


async def test_the_hub_shows_every_train_with_eight_players_at_80x24():
    # docs/rules.md §4: every player's train and the Mexican Train; short of height the station
    # box gives up its borders rather than hide the Mexican Train's slot
    names = ("You", "Bea", "Cal", "Dot", "Eli", "Fay", "Gus", "Hal")
    app = game_app(table(RuleSet(), seed=5, kinds=("human",) + ("random",) * 7, names=names))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        hub = app.screen.query_one(StationHub)
        text = str(hub.render())
        lines = text.splitlines()
        assert len(lines) <= hub.size.height, text
        assert "0 Mexican" in text and all(name in text for name in names), text
        assert "┏" not in text  # the compact form
    app = game_app(table(RuleSet(), seed=5, kinds=("human",) + ("random",) * 7, names=names))
    async with app.run_test(size=(100, 34)) as pilot:
        await settle(pilot)
        text = str(app.screen.query_one(StationHub).render())
        assert "┏" in text and "0 Mexican" in text  # room enough: the whole station


async def test_the_hub_tells_apart_names_it_must_cut():
    names = ("Random player 1", "Random player 2", "Random player 3")
    app = game_app(table(RuleSet(), seed=5, kinds=("human", "random", "random"), names=names))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = str(app.screen.query_one(StationHub).render())
        # cut with "…", never glued to the number: "Rand… 1", not "Random1"
        assert all(f"Rand… {i}" in text for i in (1, 2, 3)) and "Random1" not in text, text


async def test_the_hub_makes_room_for_long_names_at_80_columns():
    """At 80 columns the move log gives the hub room for 7 cells of a long name (6 letters and
    "…"); short names leave the layout as it was."""
    long_names = ("Alexandra", "Bartholomew", "Christina", "Dominique")
    widths = []
    for names, shown in ((long_names, "Alexan…"), (("You", "Bea", "Cal", "Dot"), "Dot")):
        app = game_app(table(RuleSet(), seed=5, kinds=("human",) + ("random",) * 3, names=names))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            hub = app.screen.query_one(StationHub)
            assert shown in str(hub.render())
            widths.append(hub.size.width)
    assert widths[0] == widths[1] + 6  # 3 more letters a side


def _cut_labels(app) -> list[str]:
    """The labels on screen wider than the box that holds them: Textual does not wrap a label
    of auto width, it cuts what passes the box's edge."""
    from textual.widgets import Label

    cut = []
    for label in app.screen.query(Label):
        box, region = label.parent.content_region, label.region
        if region.width and (region.right > box.right or region.width > box.width):
            cut.append(f"{type(app.screen).__name__}: {str(label.render())!r}")
    return cut


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_no_label_is_cut_at_80_columns(language):
    """Every screen of a game, in both languages, with long names: the quit question's
    second line was cut in its 44-column box (a label keeps one line unless it is given
    the box's width)."""
    from mexitrain import i18n
    from mexitrain.ui.app import MexitrainApp
    from mexitrain.ui.screens import HelpScreen, QuitScreen

    i18n.set_language(language)  # conftest puts the language back
    names = ("Maximiliana", "Bartholomew", "Cunegonde")
    app = game_app(table(RuleSet(set=6, rounds=2), seed=5, kinds=("human", "random", "random"), names=names))
    cut, seen = [], set()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        cut += _cut_labels(app)
        for key, screen in (("s", ScoreScreen), ("question_mark", HelpScreen), ("q", QuitScreen)):
            await pilot.press(key)
            assert isinstance(app.screen, screen)
            await pilot.pause()
            cut += _cut_labels(app)
            await pilot.press("escape")
        for _ in range(400):
            if isinstance(app.screen, GameScreen):
                await human_move(pilot)
                continue
            await pilot.pause()
            seen.add(type(app.screen))
            cut += _cut_labels(app)
            if isinstance(app.screen, GameOverScreen):
                break
            await pilot.press("enter")
            await settle(pilot)
    assert seen == {RoundOverScreen, GameOverScreen}
    form = MexitrainApp(None, speed=0, seed=12345)
    async with form.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(form.screen, NewGameScreen)
        cut += _cut_labels(form)
    assert cut == []
