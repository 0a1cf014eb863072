"""A new table started from the form while a game runs (the app hands the session a new game)."""

from __future__ import annotations

from support.pilot import game_app, settle
from support.tables import table

from mexitrain.ui.screens import GameScreen, NewGameScreen


async def test_a_three_player_table_after_a_two_player_game_in_its_first_round():
    """Round 1 of a two-player game, then Start on the form with three players: the knock check
    compared the old game's two hands with the new game's three and the app crashed."""
    app = game_app(table(kinds=("human", "random")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.snapshot is not None and app.snapshot.round == 1 and app.snapshot.players == 2
        app.post_message(NewGameScreen.Start(table(kinds=("human", "random", "random"))))
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, GameScreen)
        assert app.snapshot is not None and app.snapshot.players == 3
