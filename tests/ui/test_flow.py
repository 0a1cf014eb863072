"""A whole game by key presses: deal, play a round, round over, score sheet, game over."""

from __future__ import annotations

from support.pilot import game_app, play_until_screen_changes, settle

from mexitrain.ui.screens import GameOverScreen, GameScreen, RoundOverScreen


async def test_play_a_whole_round_by_keys_then_game_over():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        start = app.snapshot
        assert start.round == 1 and not start.results
        keys = await play_until_screen_changes(pilot)
        assert keys, "the human moved"
        assert isinstance(app.screen, RoundOverScreen)
        state = app.snapshot
        assert state.over and len(state.results) == 1
        # every human move went through apply(): the human's events are in the round record
        human_events = [e for e in state.results[0].events if e.seat == 0]
        assert len(human_events) >= len(keys)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 or app.return_code is None
