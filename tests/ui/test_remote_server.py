"""The app at a REAL table: a TableServer on 127.0.0.1 (port 0) in the test's event loop, the
app's own TableClient connecting to it; whole games played from the Pilot."""

from __future__ import annotations

import pytest
from support.pilot import wait_for

from mexitrain.game_setup import GameSetup, SeatConfig
from mexitrain.net.server import TableServer
from mexitrain.rules import RuleSet
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.network_state import TableRequest
from mexitrain.ui.screens import GameOverScreen, GameScreen, RoundOverScreen
from mexitrain.ui.screens.lobby import LobbyScreen
from mexitrain.ui.widgets.net import NetBar

ONE_ROUND = RuleSet(set=6, rounds=1)


def setup(kinds=("human", "random"), names=("Ann", "Cal")) -> GameSetup:
    return GameSetup(rules=ONE_ROUND, seed=7, seats=tuple(SeatConfig(name=n, kind=k) for n, k in zip(names, kinds, strict=True)))


@pytest.fixture
async def server(tmp_path):
    servers = []

    async def start(table: GameSetup, open_seats=(), host_seat=0) -> TableServer:
        s = TableServer(table, data_dir=tmp_path / "server", open_seats=open_seats, host_seat=host_seat)
        await s.start("127.0.0.1", 0)
        servers.append(s)
        return s

    yield start
    for s in servers:
        await s.stop()


def host_app(s: TableServer, tmp_path, name="Ann") -> MexitrainApp:
    request = TableRequest(f"127.0.0.1:{s.port}", s.code, name, host_token=s.host_token)
    return MexitrainApp(None, 0, data_dir=tmp_path / "client", table=request)


async def play_to_the_end(pilot, app, limit=400) -> int:
    """Press the obvious key whenever it is this seat's turn, Enter on a round's results,
    until the final standings show; returns the keys pressed."""
    pressed = 0
    for _ in range(limit):
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, GameOverScreen | RoundOverScreen)
            or _my_turn(app),
            "this seat's turn or a results screen",
            seconds=20,
        )
        if isinstance(app.screen, GameOverScreen):
            return pressed
        if isinstance(app.screen, RoundOverScreen):
            await pilot.press("enter")
            continue
        board = app.screen.board
        seq = app.source.state.update.seq
        key = "enter" if board.plays else ("d" if board.can("draw") else "m")
        await pilot.press(key)
        pressed += 1
        await wait_for(pilot, lambda seq=seq: app.source.state.update.seq != seq or isinstance(app.screen, GameOverScreen), "the server's answer", seconds=20)
    raise AssertionError("the game never ended")



def _my_turn(app) -> bool:
    """The game screen shows this seat's turn (its board is built a moment after the screen
    opens: until then it is None)."""
    screen = app.screen
    return isinstance(screen, GameScreen) and screen.board is not None and screen.board.my_turn


async def test_a_whole_game_at_a_real_table(server, tmp_path):
    s = await server(setup())
    app = host_app(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.source.state.lobby is not None, "the lobby", seconds=20)
        await wait_for(pilot, lambda: app.source.state.connected, "connected", seconds=20)
        assert app.source.state.host and app.source.state.seat == 0
        await pilot.press("ctrl+s")  # the host starts
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | RoundOverScreen), "the game", seconds=20)
        pressed = await play_to_the_end(pilot, app)
        assert pressed > 0
        view = app.source.state.update.view
        assert view.phase == "game_over" and len(view.results) == 1
        # the board only ever held this seat's view: never another hand
        assert all(h is None for i, h in enumerate(view.hands) if i != 0)
        # the table sent the game's record: the review is offered here as after a local game
        assert app.screen.check_action("review", ()) is True
        finished, kinds = app.source.finished_game()
        assert finished == s.state and kinds == ("human", "computer")
        from mexitrain.ui.screens.review import ReviewScreen

        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review", seconds=20)


async def test_a_guest_saves_the_finished_game_of_a_table(server, tmp_path):
    """Once the table's record came and was checked, Ctrl+S on the final standings keeps the
    game in this terminal's own saves (the replay viewer and the review open it); before
    that, and with no record, Save as is greyed, never silently ignored."""
    from mexitrain.storage import load_save
    from mexitrain.ui.screens.saves import SaveAsScreen

    s = await server(setup())
    app = host_app(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.source.state.connected and app.source.state.lobby is not None, "connected", seconds=20)
        await pilot.press("ctrl+s")  # the host starts
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | RoundOverScreen), "the game", seconds=20)
        assert app.check_action("save_as", ()) is False  # a game at a table is the host's to keep
        await play_to_the_end(pilot, app)
        record = app.source.state.record
        app.source.state.record = None
        assert app.check_action("save_as", ()) is None  # no record (an older table): greyed
        app.source.state.record = record
        assert app.check_action("save_as", ()) is True
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveAsScreen), "Save as", seconds=20)
        await pilot.press(*"table", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "the standings again", seconds=20)
    game = load_save(tmp_path / "client" / "saves" / "table.json")
    assert game.state == s.state and game.state.over
    assert [seat.name for seat in game.setup.seats] == ["Ann", "Cal"]
    assert game.setup.seats[0].kind == "human" and not game.setup.seats[1].is_human


async def test_a_refusal_from_the_real_server_is_said(server, tmp_path):
    from mexitrain.rules import Play

    s = await server(setup())
    app = host_app(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.source.state.connected and app.source.state.lobby is not None, "connected", seconds=20)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: _my_turn(app), "my turn", seconds=20)
        view = app.source.state.update.view
        missing = next(t for t in [(a, b) for a in range(7) for b in range(a, 7)] if t not in view.hand)
        app.screen.post_message(GameScreen.Act(Play(tile=missing, train=0, branch=0)))
        from mexitrain.ui.textual_compat import notices

        await wait_for(pilot, lambda: any("You do not hold" in str(n.message) for n in notices(app)), "the refusal", seconds=20)


async def test_a_seat_whose_player_left_is_shown_away_to_the_host(server, tmp_path):
    from mexitrain.net.client import TableClient

    s = await server(setup(kinds=("human", "human", "random"), names=("Ann", "Bea", "Cal")), open_seats=(1,))
    app = host_app(s, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.source.state.connected and app.source.state.lobby is not None, "connected", seconds=20)
        bea = TableClient(f"127.0.0.1:{s.port}", s.code, "Bea", data_dir=tmp_path / "bea", retry=False)
        import asyncio

        task = asyncio.create_task(bea.run(lambda msg: None))
        await wait_for(pilot, lambda: any(seat.name == "Bea" for seat in app.source.state.lobby.seats), "Bea joins", seconds=20)
        text = str(app.screen.query_one("#lobby-seats").render())
        assert "Bea" in text
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game", seconds=20)
        await bea.close()
        await task
        await wait_for(pilot, lambda: "Waiting for Bea to come back" in str(app.screen.query_one(NetBar).text), "Bea away", seconds=20)
        assert app.check_action("hand_over", ()) is True


async def test_host_a_table_from_the_new_game_screen(tmp_path):
    from mexitrain.ui.screens import NewGameScreen
    from mexitrain.ui.screens.join import HostScreen, HostSetupScreen

    app = MexitrainApp(None, 0, seed=1, data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the new-game screen")
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(app.screen, HostScreen), "the Host form")
        app.screen.query_one("#host-port").value = "0"  # any free port
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), "the table's setup")
        await pilot.press("ctrl+s")  # open the table: the server starts in a thread
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.source.state.connected and app.source.state.lobby is not None, "the host's lobby", seconds=20)
        assert app.source.state.host and app.source.state.seat == 0
        join = str(app.screen.query_one("#lobby-join").render())
        server = app.source.request.server
        port = server.port
        assert f":{port} {app.source.state.request.code}" in join and "mexitrain join " in join
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game", seconds=20)
    server.thread.join(10)
    assert not server.thread.is_alive()  # the table closed with the app
