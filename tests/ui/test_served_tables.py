"""A served game's tables (issue #35 items 1 and 7; docs/play-together.md): the new-game form
offers New table… (on the serve process's tables, a link for friends) instead of Host a
table… / Join a table…, none with ``serve --no-tables``; New table… opens a table and sits
its creator in the lobby with the link; a ``/t/CODE`` page's game asks a name and sits at
that table; a second tab of the same browser is told it has a seat already. The tables run
on a real serve web server (aiohttp's test server on 127.0.0.1) in the test's event loop."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from support.pilot import wait_for

from mexitrain.commands import serve
from mexitrain.net import service as service_module
from mexitrain.net.served import ServedTables
from mexitrain.net.service import TableService
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import NewGameScreen
from mexitrain.ui.screens.join import HostSetupScreen, SeatScreen
from mexitrain.ui.screens.lobby import LobbyScreen

NETWORK = {"Host a table…", "Join a table…"}
FAKE_GAME = [sys.executable, "-c", "pass", "--data-dir", "/nowhere"]
BROWSER = "0123456789abcdef0123456789abcdef"


def titles(app: MexitrainApp) -> set[str]:
    return {c.title for c in app.get_system_commands(app.screen)}


def enabled(app: MexitrainApp, key: str) -> bool:
    active = app.screen.active_bindings.get(key)
    return active is not None and active.enabled


def told(app: MexitrainApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


@contextlib.asynccontextmanager
async def serving(root: Path):
    from aiohttp.test_utils import TestClient, TestServer

    tables = TableService(root, pace=0)
    server = serve._make_server(FAKE_GAME, "127.0.0.1", 0, tables=tables)
    async with TestClient(TestServer(await server._make_app())) as client:
        server.service_url = str(client.make_url("")).rstrip("/")
        try:
            yield server
        finally:
            await tables.stop()


def game(server, root: Path, browser: str = BROWSER, table: str | None = None) -> MexitrainApp:
    """A page's game as serve starts it: served, with its tables (net/served.py)."""
    import hashlib

    key = server.tables.visitor(browser, "127.0.0.1")
    digest = hashlib.sha256(browser.encode()).hexdigest()[:32]
    served = ServedTables(server.service_url, key, "https://friends.example:8443", table, digest)
    return MexitrainApp(None, 0, seed=1, data_dir=root, served=True, served_tables=served)


async def form(pilot, app) -> NewGameScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.query("#start"), "the form")
    return app.screen


async def to_the_table_setup(pilot, app) -> None:
    """New table… from the new-game screen: its setup form."""
    await form(pilot, app)
    await pilot.press("ctrl+n")
    await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), "the table's setup")


async def open_a_table(pilot, app) -> None:
    """New table…, the creator's name (the form waits for it in the first seat), Open ▶."""
    await to_the_table_setup(pilot, app)
    await pilot.press(*"Ann")
    await pilot.press("ctrl+s")


async def test_a_served_game_offers_new_table_instead_of_host_and_join(tmp_path: Path) -> None:
    served = ServedTables("http://127.0.0.1:9", "key", "http://127.0.0.1:9")
    app = MexitrainApp(None, 0, seed=1, data_dir=tmp_path, served=True, served_tables=served)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await form(pilot, app)
        assert screen.query("#new-table") and not screen.query("#host") and not screen.query("#join")
        assert "New table…" in titles(app) and not titles(app) & NETWORK
        assert enabled(app, "ctrl+n") and not enabled(app, "ctrl+g")
        app.action_join_table()  # by no way at all
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), "the table's setup")
        title = str(app.screen.query_one("#form-title").render())
        assert title.startswith("New table") and "Host" not in title  # the form says what it opens


async def test_with_no_tables_a_served_game_has_neither(tmp_path: Path) -> None:
    served = ServedTables("http://127.0.0.1:9", "key", "http://127.0.0.1:9")
    app = MexitrainApp(None, 0, seed=1, data_dir=tmp_path, served=True, tables=False, served_tables=served)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await form(pilot, app)
        assert app.served_tables is None
        assert not screen.query("#row-net") and not screen.query("#new-table") and not screen.query("#host")
        assert not titles(app) & (NETWORK | {"New table…"})
        assert not enabled(app, "ctrl+n") and not enabled(app, "ctrl+g")


async def test_new_table_asks_the_creator_s_name_never_a_default(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        app = game(server, tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await to_the_table_setup(pilot, app)
            first = app.screen.query_one("#name-0")
            assert first.value == "" and app.focused is first  # "Player 1" would be nobody's name
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, HostSetupScreen) and not server.tables.tables  # not opened
            assert "seat 1 needs a name" in app.screen.verdict_text
            await pilot.press(*"Ann", "ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            [code] = server.tables.tables
            assert server.tables.tables[code].server.seats[0].name == "Ann"


async def test_new_table_sits_its_creator_in_the_lobby_with_the_link(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        app = game(server, tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await open_a_table(pilot, app)
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            [code] = server.tables.tables
            # every seat but the creator's waits for a friend (computers for those left at Start)
            assert [s.kind for s in server.tables.tables[code].server.seats] == ["person", "open", "open", "open"]
            lobby = app.screen
            assert lobby.join_line == (
                f"Friends open https://friends.example:8443/t/{code} · "
                f"at a terminal: mexitrain join friends.example:8443 {code}"
            )
            await wait_for(pilot, lambda: app.source.state.welcome is not None, "the Welcome", seconds=20)
            assert app.source.state.host and app.source.state.seat == 0
            assert not app.source.request.runs_server  # leaving does not close a served table


async def test_a_table_link_asks_a_name_and_sits_there_and_a_second_tab_watches(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        from mexitrain.game_setup import GameSetup, SeatConfig

        creator = server.tables.visitor("f" * 32, "10.0.0.1")
        setup = GameSetup(seats=(SeatConfig(name="Ann", kind="human"), SeatConfig(name="P2", kind="human"),
                                 SeatConfig(name="P3", kind="human")))
        code, _token = await server.tables.create(creator, setup)
        app = game(server, tmp_path, table=code.lower())  # a link's code in any case
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, SeatScreen), "the seat form")
            name = app.screen.query_one("#seat-name")
            assert name.value == ""  # never the server's user name
            await pilot.press("enter")
            await wait_for(pilot, lambda: "Type your name." in str(app.screen.query_one("#seat-problem").render()), "the problem")
            await pilot.press(*"Ben", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await wait_for(pilot, lambda: app.source.state.welcome is not None, "the Welcome", seconds=20)
            assert app.source.state.seat == 1 and not app.source.state.host
            # the same browser in a second tab: told, no seat taken, the tab watches the table
            second = game(server, tmp_path / "second", table=code)
            async with second.run_test(size=(100, 30)) as pilot2:
                line = "This browser already has a seat at this table: this tab watches it."
                await wait_for(pilot2, lambda: line in told(second), "the line", seconds=20)
                await wait_for(pilot2, lambda: isinstance(second.screen, LobbyScreen), "the lobby, watching")
                await wait_for(pilot2, lambda: second.source.state.welcome is not None, "the Watching", seconds=20)
                assert second.source.watching and not isinstance(second.screen, SeatScreen)
                table = server.tables.tables[code].server
                await wait_for(pilot2, lambda: table.lobby().watchers == 1, "one watcher", seconds=20)
            assert sum(s.kind == "person" for s in server.tables.tables[code].server.seats) == 2


async def test_a_table_link_s_watch_button_watches_without_a_name(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        from mexitrain.game_setup import GameSetup, SeatConfig

        creator = server.tables.visitor("f" * 32, "10.0.0.1")
        setup = GameSetup(seats=(SeatConfig(name="Ann", kind="human"), SeatConfig(name="P2", kind="human")))
        code, _token = await server.tables.create(creator, setup)
        app = game(server, tmp_path, table=code)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, SeatScreen), "the seat form")
            app.screen.query_one("#seat-watch").press()
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby, watching")
            await wait_for(pilot, lambda: app.source.state.welcome is not None, "the Watching", seconds=20)
            assert app.source.watching
            table = server.tables.tables[code].server
            await wait_for(pilot, lambda: table.lobby().watchers == 1, "one watcher", seconds=20)
            assert sum(s.kind == "person" and s.conn is not None for s in table.seats) == 0


async def test_a_closed_table_s_link_and_the_bound_are_one_line(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(service_module, "MAX_TABLES", 0)
    async with serving(tmp_path) as server:
        app = game(server, tmp_path, table="ZZZZZZ")
        async with app.run_test(size=(100, 30)) as pilot:
            gone = "There is no table ZZZZZZ here: it has closed, or the link is mistyped."
            await wait_for(pilot, lambda: gone in told(app), "the line", seconds=20)
            # said before any name is asked: the page is the new-game screen, not the seat form
            assert isinstance(app.screen, NewGameScreen)
            await open_a_table(pilot, app)
            full = "This server has 0 tables open, as many as it holds; try again later."
            await wait_for(pilot, lambda: full in told(app), "the line", seconds=20)


async def test_the_creator_back_from_the_link_takes_their_seat_and_host_rights_back(tmp_path: Path) -> None:
    async with serving(tmp_path) as server:
        app = game(server, tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await open_a_table(pilot, app)
            await wait_for(pilot, lambda: app.source.state.welcome is not None, "the Welcome", seconds=20)
            [code] = server.tables.tables
            name = app.source.request.name
        server.tables.gone(app.served_tables.key)  # its page closed (serve says so)
        back = game(server, tmp_path, table=code)  # the same browser, the same data folder
        async with back.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: isinstance(back.screen, SeatScreen), "the seat form")
            await pilot.press(*name, "enter")
            await wait_for(pilot, lambda: back.source.state.welcome is not None, "the Welcome", seconds=20)
            assert back.source.state.seat == 0 and back.source.state.host
        assert code in server.tables.tables  # the table stayed open meanwhile


async def test_another_browser_typing_the_creator_s_name_does_not_get_their_seat(tmp_path: Path) -> None:
    """The visitors share one data folder by default: a seat's token is kept under the
    browser too, so a name is not a key to someone else's seat."""
    async with serving(tmp_path) as server:
        app = game(server, tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await open_a_table(pilot, app)
            await wait_for(pilot, lambda: app.source.state.welcome is not None, "the Welcome", seconds=20)
            [code] = server.tables.tables
            name = app.source.request.name
            other = game(server, tmp_path, browser="ab" * 16, table=code)  # the same shared folder
            async with other.run_test(size=(100, 30)) as pilot2:
                await wait_for(pilot2, lambda: isinstance(other.screen, SeatScreen), "the seat form")
                await pilot2.press(*name, "enter")
                await wait_for(pilot2, lambda: other.source.state.welcome is not None, "the Welcome", seconds=20)
                assert other.source.state.seat == 1 and not other.source.state.host
            assert app.source.state.seat == 0 and app.source.state.host


def test_connecting_to_a_served_table_does_not_show_the_serve_process_inner_address():
    from types import SimpleNamespace

    from mexitrain.ui.network_state import NetworkState, TableRequest

    inner = "ws://127.0.0.1:40123/?b=0123456789abcdef"
    link = SimpleNamespace(state="connecting", attempt=1, retry_in=None, error=None)
    served = NetworkState(TableRequest(inner, "ABCDEF", "Ann", served=True), link=link)
    assert served.bar_text(0.0) and "127.0.0.1" not in served.bar_text(0.0)
    terminal = NetworkState(TableRequest("192.168.1.5:8765", "ABCDEF", "Ann"), link=link)
    assert "192.168.1.5:8765" in terminal.bar_text(0.0)  # a terminal's join shows where it goes
