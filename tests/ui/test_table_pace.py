"""At a table with a turn timer and after its game: the countdown on the link's line, the
move played by the timer told, and Play again asking for a rematch (issue #35 items 3 and 5,
the client's side; the server's is tests/net/test_pace.py and test_rematch.py)."""

from __future__ import annotations

from support.fake_table import FakeClient, factory, lobby, my_turn_game, update, welcome
from support.pilot import ann_at_a_network_table, play_my_turns_at_the_table, wait_for

from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.network_state import TableRequest
from mexitrain.ui.screens import GameOverScreen, GameScreen
from mexitrain.ui.textual_compat import notices
from mexitrain.ui.widgets.net import NetBar


def bar(app) -> str:
    return str(app.screen.query_one(NetBar).text)


async def test_the_turn_clock_counts_down_and_a_timed_move_is_told():
    client = FakeClient()
    now = [1000.0]
    request = TableRequest("127.0.0.1:8765", "KXMPTR", "Ann")
    app = MexitrainApp(None, 0, table=request, client_factory=factory(client), clock=lambda: now[0])
    game = my_turn_game(0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
        client.link("connected")
        client.say(welcome())
        client.say(lobby(started=True, open_seat=False))
        client.say(update(game).model_copy(update={"turn_time": 30, "turn_left": 30}))
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        await wait_for(pilot, lambda: "Turn: 0:30 left" in bar(app), "the clock")
        now[0] += 7  # the clock's tick reads the app's clock every second
        await wait_for(pilot, lambda: "Turn: 0:23 left" in bar(app), "the clock counting down", seconds=5)
        timed = update(game, seq=2).model_copy(update={"turn_time": 30, "turn_left": 30, "timed": 0})
        client.say(timed)
        said = "Time ran out: the expert's tip was played for Ann"
        await wait_for(pilot, lambda: any(said in str(n.message) for n in notices(app)), "the timed move told")
        client.say(timed)  # the same update again: told once
        await pilot.pause()
        assert sum(said in str(n.message) for n in notices(app)) == 1


async def test_play_again_at_a_table_asks_for_a_rematch_and_the_new_game_follows(tmp_path):
    async with ann_at_a_network_table(tmp_path) as (app, pilot):
        await pilot.press("ctrl+s")
        await play_my_turns_at_the_table(pilot, through_rounds=True)
        assert isinstance(app.screen, GameOverScreen) and app.screen.again  # Play again offered at a table
        old_seal = app.source.state.first_seal
        await pilot.press("a")
        # Ann is the only person: her rematch starts the new game, a new deal with a new seal
        await wait_for(
            pilot,
            lambda: app.source.state.first_seal not in (None, old_seal) and isinstance(app.screen, GameScreen),
            "the new game", seconds=20,
        )
        view = app.game_screen.board.view
        assert view.results == () and view.phase != "game_over"
        assert view.seal == app.source.state.first_seal
