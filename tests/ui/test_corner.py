"""The corner over the move log (issue #34 item 1): the tip belongs to the move it names, and
notices sit below the tip, on the log's edge."""

from __future__ import annotations

import pytest
from support.pilot import board, game_app, settle, wait_for
from support.tables import table
from textual.widgets._toast import Toast

from mexitrain.i18n import set_language
from mexitrain.rules import RuleSet
from mexitrain.ui.board import canon
from mexitrain.ui.screens import GameScreen
from mexitrain.ui.widgets import MoveLog, TipPanel


async def ask_tip(pilot) -> None:
    await pilot.press("n")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def move(pilot) -> None:
    b = board(pilot.app)
    await pilot.press("enter" if b.plays else ("d" if b.can("draw") else "m"))
    await settle(pilot)


async def to_a_play_tip(pilot) -> None:
    """Play on until the coach's tip is a play (and the others have moved since)."""
    await settle(pilot)
    await move(pilot)
    for _ in range(20):
        await ask_tip(pilot)
        if board(pilot.app).tip_play is not None:
            return
        await move(pilot)
    raise AssertionError("no tip to play a tile")


def panel_text(app) -> str:
    return app.screen.query_one(TipPanel).render().plain


def four_seats():
    return game_app(table(RuleSet(set=9, rounds=3), seed=11, kinds=("human", "random", "random", "random")))


# -- the tip and the selection ---------------------------------------------------------------
async def test_the_tip_says_enter_only_while_enter_plays_it():
    """n, then the selection moved to another tile: the panel no longer says Enter plays the
    tip, it says what the tip was; Enter plays the selection; back on the tip, Enter again."""
    app = four_seats()
    app.hint_time = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await to_a_play_tip(pilot)
        b = board(app)
        assert b.tip_play is not None and b.play() == b.tip_play
        assert "press Enter to play it" in panel_text(app)
        for _ in range(len(b.tray)):  # to a tile the tip does not name
            await pilot.press("right")
            if board(app).play() != b.tip_play:
                break
        moved = board(app)
        assert moved.play() != b.tip_play and moved.tip is not None
        text = panel_text(app)
        assert "Enter" not in text
        assert f"the tip was {b.tip_play.tile[0]}-{b.tip_play.tile[1]}" in text.replace("\n", " ")
        # back on the tip: Enter plays it again, and says so
        while board(app).selected != canon(b.tip_play.tile):
            await pilot.press("right")
        assert board(app).play() == b.tip_play
        assert "press Enter to play it" in panel_text(app)


async def test_enter_plays_what_the_panel_names_after_the_selection_moved():
    app = four_seats()
    app.hint_time = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await to_a_play_tip(pilot)
        tip = board(app).tip_play
        for _ in range(len(board(app).tray)):
            await pilot.press("right")
            if board(app).play() != tip:  # legal or not: Enter sends it (a refusal says why)
                break
        chosen = board(app).play()
        assert chosen != tip and "Enter" not in panel_text(app)
        seen: list = []
        screen = app.screen  # the screen's Act goes up to the app: record it
        original = screen.post_message

        def record(message):
            if isinstance(message, GameScreen.Act):
                seen.append(message.action)
            return original(message)

        screen.post_message = record  # type: ignore[method-assign]
        await pilot.press("enter")
        await pilot.pause()
        assert seen == [chosen]


# -- the corner: tip, notices and log share one column ---------------------------------------
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_notice_sits_below_the_tip_on_the_logs_edge(size):
    """A refused move (d while a tile fits) says why below the tip, never over it, with the
    same left edge as the tip and the log."""
    app = four_seats()
    app.hint_time = 0
    async with app.run_test(size=size, notifications=True) as pilot:
        await to_a_play_tip(pilot)
        await pilot.press("d")  # a tile fits: not allowed
        await wait_for(pilot, lambda: bool(app.screen.query(Toast)), "a notice")
        await pilot.pause()
        await pilot.pause()
        tip = app.screen.query_one(TipPanel)
        log = app.screen.query_one(MoveLog)
        toasts = list(app.screen.query(Toast))
        assert tip.display and tip.region.height >= 2
        for toast in toasts:
            assert toast.region.x == tip.region.x == log.region.x
            assert toast.region.right == tip.region.right
            assert toast.region.y >= tip.region.bottom  # below the tip: no row of it covered
        rack = app.screen.query_one("#textual-toastrack")
        assert toasts[0].region.y == tip.region.bottom, (tip.region, [t.region for t in toasts], rack.region, rack.styles.margin, [h.region for h in rack.children], [t.styles.margin for t in toasts])  # right below


async def test_notices_without_a_tip_line_up_with_the_log():
    """The notices' bar was one column left of the log's (the rack's scrollbar gutter)."""
    app = four_seats()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        app.screen.post_message(GameScreen.Notice("Bea has one tile left", title="Knock!"))
        await wait_for(pilot, lambda: bool(app.screen.query(Toast)), "a notice")
        await pilot.pause()
        toast = app.screen.query_one(Toast)
        log = app.screen.query_one(MoveLog)
        assert toast.region.x == log.region.x and toast.region.right == log.region.right
        assert toast.region.y == log.region.y


async def test_a_knock_below_a_tip_that_grows_when_the_selection_moves():
    """The knock stays clear of the tip when the tip gets a line longer (selection moved)."""
    set_language("fr")
    app = four_seats()
    app.hint_time = 0
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await to_a_play_tip(pilot)
        app.screen.post_message(GameScreen.Notice("Il reste un domino à Cal", title="Toc !"))
        await wait_for(pilot, lambda: bool(app.screen.query(Toast)), "a notice")
        await pilot.press("right", "right")
        await pilot.pause()
        await pilot.pause()
        tip = app.screen.query_one(TipPanel)
        toast = app.screen.query_one(Toast)
        assert toast.region.y >= tip.region.bottom and toast.region.x == tip.region.x


async def test_the_log_keeps_its_newest_move_in_sight_below_the_tip():
    """The tip takes the top of the log's column: the log, shorter, still ends on the newest move."""
    app = four_seats()
    app.hint_time = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await to_a_play_tip(pilot)
        await pilot.pause()
        await pilot.pause()
        log = app.screen.query_one(MoveLog)
        tip = app.screen.query_one(TipPanel)
        assert log.region.y == tip.region.bottom
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
