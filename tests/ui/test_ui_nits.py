"""Three things a player notices: several people at one keyboard are named, never "you"; the
game-over screen does not start a new game on a stray Enter; a name cut short ends with "…"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.pilot import board, game_app, human_move, settle
from support.tables import table

from mexitrain.i18n import set_language
from mexitrain.players import make_player
from mexitrain.rules import RuleSet, apply, new_game, view
from mexitrain.storage import load_save, save_game
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import GameOverScreen, GameScreen, HandoffScreen
from mexitrain.ui.screens.replay import ReplayScreen
from mexitrain.ui.widgets import StationHub, StatusLine
from mexitrain.ui.widgets.log import log_lines

HOT_SEAT = ("Ann", "Bea", "Cal")


def _counts(app) -> str:
    """The status line's second line: the boneyard and every seat's tile count."""
    return str(app.screen.query_one(StatusLine).render()).splitlines()[1]


async def _play_hot_seat(pilot, turns: int = 4) -> None:
    """Two people and a computer player: hand-offs passed, a few moves made by keys."""
    app = pilot.app
    for _ in range(40):
        await settle(pilot)
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
            continue
        if not isinstance(app.screen, GameScreen):
            return
        if turns == 0 and any(e.seat == board(app).seat for e in board(app).view.events):
            return
        await human_move(pilot)
        turns = max(0, turns - 1)


@pytest.mark.parametrize(
    ("language", "you", "played"),
    [("en", r"\byou\b", r"\bAnn (played|drew)\b"), ("fr", r"\bvous\b", r"\bAnn (a posé|a pioché)")],
)
async def test_several_people_at_one_keyboard_are_named_never_you(language, you, played):
    set_language(language)  # conftest puts the language back
    app = game_app(table(RuleSet(set=6, rounds=1), seed=3, kinds=("human", "human", "random"), names=HOT_SEAT))
    async with app.run_test(size=(100, 30)) as pilot:
        await _play_hot_seat(pilot)
        assert isinstance(app.screen, GameScreen)
        b = board(app)
        assert b.kinds[b.seat] == "human"
        counts = _counts(app)
        assert all(name in counts for name in HOT_SEAT) and not re.search(you, counts, re.I), counts
        log = "\n".join(log_lines(b))
        assert re.search(played, log), log
        first_words = [line.split(" ", 1)[0] for line in log.splitlines()[1:] if line]
        assert "You" not in first_words and "Vous" not in first_words, log


async def test_one_person_at_the_table_stays_you():
    app = game_app(table(RuleSet(set=6, rounds=1), seed=3, kinds=("human", "random", "random"), names=HOT_SEAT))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for _ in range(3):
            if isinstance(app.screen, GameScreen):
                await human_move(pilot)
        assert isinstance(app.screen, GameScreen)
        counts = _counts(app)
        assert re.search(r"\byou \d", counts) and "Ann" not in counts, counts
        log = "\n".join(log_lines(board(app)))
        assert re.search(r"^You (played|drew|placed|passed)", log, re.M) and "Ann " not in log, log


def _over_state():
    from support.games import finish

    return finish(new_game(RuleSet(set=6, rounds=1), players=3, seed=8), 8)


async def test_enter_on_the_game_over_screen_does_not_start_a_new_game():
    """The score sheet has the focus: Enter (the one that played the last tile, or one too
    many) leaves the screen as it is; `a` plays again, and so does Tab to the button, Enter."""
    state = _over_state()
    app = game_app(table(RuleSet(set=6, rounds=1), kinds=("human", "random", "random")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        chosen: list[str | None] = []
        await app.push_screen(GameOverScreen(view(state, 0), HOT_SEAT, 0), chosen.append)
        await pilot.pause()
        over = app.screen
        assert isinstance(over, GameOverScreen)
        assert app.focused is not None and app.focused.id == "final-sheet"
        await pilot.press("enter", "enter", "space")
        await pilot.pause()
        assert app.screen is over and chosen == []
        # every key of the screen is in the footer, with what it does
        shown = {ab.binding.description for ab in over.active_bindings.values() if ab.binding.show}
        assert {"Play again", "New game", "Quit"} <= shown
        # a Tab reaches the button; then Enter presses it
        for _ in range(4):
            if app.focused is not None and app.focused.id == "again":
                break
            await pilot.press("tab")
        assert app.focused is not None and app.focused.id == "again"
        await pilot.press("enter")
        await pilot.pause()
        assert chosen == ["again"]


async def test_the_game_over_key_plays_again():
    state = _over_state()
    app = game_app(table(RuleSet(set=6, rounds=1), kinds=("human", "random", "random")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        chosen: list[str | None] = []
        await app.push_screen(GameOverScreen(view(state, 0), HOT_SEAT, 0), chosen.append)
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert chosen == ["again"]


async def test_the_replay_hub_cuts_long_names_with_an_ellipsis(tmp_path: Path):
    """A record of `simulate --ai planner` names its seats "Planner 1"…: at 80 columns the hub
    cut them to "Planne1", the number glued to the cut name; now "Plan… 1"."""
    names = ("Planner 1", "Planner 2", "Planner 3", "Planner 4")
    rules = RuleSet(set=6, rounds=1)
    setup = table(rules, seed=4, kinds=("random",) * 4, names=names)
    players = [make_player("random", seed=s) for s in range(4)]
    final = new_game(rules, players=4, seed=4)
    while not final.over:
        final = apply(final, players[final.turn].choose(view(final, final.turn)))
    app = MexitrainApp(None, speed=0, replay=load_save(save_game(tmp_path / "planners.json", final, setup)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        text = str(app.screen.query_one(StationHub).render())
        assert all(f"Plan… {i}" in text for i in (1, 2, 3, 4)), text
        assert not re.search(r"Plan\w*\d", text), text  # never a cut name glued to a number
