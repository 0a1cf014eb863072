"""The game review screen (mexitrain/ui/screens/review.py): its worker shows progress and
Esc cancels it; the costliest decisions with their positions; the hooks from the game-over
screen and the replay viewer; its looks at 80x24 in English and French."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.pilot import to_the_final_standings, wait_for
from support.tables import table
from textual.app import App
from textual.widgets import ProgressBar, Static

from mexitrain.i18n import language, set_language
from mexitrain.players.review import review_game
from mexitrain.rules import RuleSet
from mexitrain.rules.record import load_record, replay
from mexitrain.storage import load_save
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.lang import translate_bindings
from mexitrain.ui.resources import stylesheet_path
from mexitrain.ui.screens import GameOverScreen
from mexitrain.ui.screens.replay import ReplayScreen
from mexitrain.ui.screens.review import PositionScreen, ReviewScreen

RECORDS = Path(__file__).resolve().parent.parent / "fixtures" / "records"
NAMES = ("Ann", "Bea")
KINDS = ("human", "random")


def _final():
    return replay(load_record((RECORDS / "set6-2p.json").read_text(encoding="utf-8")))


class ReviewApp(App[None]):
    """The review screen alone, on the game's stylesheet, its keys in the player's language
    (as the game's app pushes every screen)."""

    CSS_PATH = str(stylesheet_path())

    def __init__(self, screen_factory) -> None:
        super().__init__()
        self.factory = screen_factory

    def on_mount(self) -> None:
        screen = self.factory()
        translate_bindings(screen)
        self.push_screen(screen)


@pytest.fixture(autouse=True)
def _keep_language():
    before = language()
    yield
    set_language(before)


def _text(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_the_worker_shows_progress_and_escape_cancels_it():
    final = _final()
    app = ReviewApp(lambda: ReviewScreen(final, NAMES, KINDS, budget=3000))  # slow on purpose
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await wait_for(pilot, lambda: screen.done >= 1, "a decision valued", seconds=60)
        assert screen.running and screen.query_one(ProgressBar).progress >= 1
        assert "Esc" in _text(screen, "#review-status")
        await pilot.press("escape")
        assert not screen.running
        await app.workers.wait_for_complete()
        worker = next(iter(screen.workers), None)
        assert worker is None or worker.is_cancelled
        await pilot.pause()
        assert screen.review is None  # no review shown: it was stopped
        assert "cancelled" in _text(screen, "#review-status")
        assert app.screen is screen  # the first Esc stops the review, the next closes the screen
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen


async def test_a_finished_review_shows_rounds_and_positions():
    final = _final()
    app = ReviewApp(lambda: ReviewScreen(final, NAMES, KINDS, budget=2))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await wait_for(pilot, lambda: screen.review is not None, "the review", seconds=60)
        body = _text(screen, "#review-text")
        assert "Round 7:" in body and "The costliest decisions:" in body
        assert screen.check_action("cancel", ()) is False  # nothing to cancel any more
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, PositionScreen)
        assert app.screen.board.view == screen.review.highlights[0].position
        assert not app.screen.query_one("#open-hands").display  # no empty panel (a second rule)
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is screen


async def test_the_game_over_screen_opens_the_review():
    setup = table(RuleSet(set=6, rounds=1), seed=5, kinds=("random", "random", "random"), names=("Ann", "Bea", "Cal"))
    app = MexitrainApp(setup, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_final_standings(pilot)
        await pilot.press("r")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert review.seats == (0, 1, 2)  # no person played: every seat
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


async def test_the_replay_viewer_opens_the_review():
    game = load_save(RECORDS / "set6-2p.json")
    app = ReviewApp(lambda: ReplayScreen(game))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert app.screen.state == game.state
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)


async def test_the_keys_line_names_only_the_positions_there_are():
    """One costly decision: "1: the position…" (it said "1, 2, 3" whatever the count)."""
    final = _final()
    review = review_game(final, [0], 8)
    assert len(review.highlights) >= 2
    one = review.model_copy(update={"highlights": review.highlights[:1]})
    app = ReviewApp(lambda: ReviewScreen(final, NAMES, KINDS, review=one))
    async with app.run_test(size=(80, 24)):
        assert _text(app.screen, "#review-status") == "1: the position of a costly decision · q closes"
        assert "1" in _footer(app.screen) and "1 2 3" not in _footer(app.screen)  # nor in the footer


async def test_no_costly_decision_no_position_key():
    """No decision was clearly costly: the footer said "1 Position" (dimmed) for a position
    there will never be; once the review is done with none, the key is gone."""
    final = _final()
    review = review_game(final, [0], 8)
    none = review.model_copy(update={"highlights": ()})
    app = ReviewApp(lambda: ReviewScreen(final, NAMES, KINDS, review=none))
    async with app.run_test(size=(80, 24)):
        assert "No decision was clearly costly" in _text(app.screen, "#review-text")
        assert _text(app.screen, "#review-status") == ""
        assert "1" not in _footer(app.screen) and "Position" not in _footer(app.screen).values()


def _footer(screen) -> dict[str, str]:
    return {ab.binding.key_display or key: ab.binding.description
            for key, ab in screen.active_bindings.items() if ab.binding.show}


async def test_the_french_keys_of_the_replay_and_of_a_position_say_what_they_do():
    """The replay's ←→ step both ways (its footer said "←→ Reculer", back); a position's q
    goes back to the review (it said "Reculer" too, a step back)."""
    set_language("fr")
    app = ReviewApp(lambda: ReplayScreen(load_save(RECORDS / "set6-2p.json")))
    async with app.run_test(size=(80, 24)):
        assert _footer(app.screen)["←→"] == "Coup"
    final = _final()
    review = review_game(final, [0], 2)
    app = ReviewApp(lambda: PositionScreen(review, 0, NAMES, KINDS, final.players))
    async with app.run_test(size=(80, 24)):
        assert _footer(app.screen)["q"] == "Retour"


def _shown_app():
    final = _final()
    review = review_game(final, [0], 8)
    return ReviewApp(lambda: ReviewScreen(final, NAMES, KINDS, title="set6-2p.json", review=review))


def test_review_screen_in_english(snap_compare):
    set_language("en")
    assert snap_compare(_shown_app(), terminal_size=(80, 24))


def test_review_screen_in_french(snap_compare):
    set_language("fr")
    assert snap_compare(_shown_app(), terminal_size=(80, 24))


def test_position_screen_in_english(snap_compare):
    set_language("en")

    async def run_before(pilot):
        await pilot.press("1")
        await pilot.pause()

    assert snap_compare(_shown_app(), terminal_size=(80, 24), run_before=run_before)
