"""``mexitrain serve``'s tables (issue #35 items 1 and 7; docs/play-together.md, "Tables in
mexitrain serve"): a table opened through the serve process's table service is the table a
terminal joins with ``mexitrain join HOST:PORT CODE`` at the same port; ``/t/CODE`` is that
table's page; the tables are bounded; one browser holds one seat at a table. Real sockets on
127.0.0.1 (aiohttp's test server)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from pathlib import Path

import pytest
import websockets
from support.net import FAST, table

from mexitrain.commands import serve
from mexitrain.net import service as service_module
from mexitrain.net.bot import play_bot
from mexitrain.net.client import TableClient
from mexitrain.net.protocol import Error, Hello, Lobby, StartGame, Welcome, decode_server, encode
from mexitrain.net.service import TableService

FAKE_GAME = [sys.executable, "-c", "import sys; sys.stdin.buffer.read(1)", "--data-dir", "/nowhere"]
BROWSER = "0123456789abcdef0123456789abcdef"
OTHER = "fedcba9876543210fedcba9876543210"


@contextlib.asynccontextmanager
async def serving(tmp_path, **kw):
    """The serve process's web server with its table service, on a port of 127.0.0.1."""
    from aiohttp.test_utils import TestClient, TestServer

    tables = TableService(tmp_path, pace=0)
    server = serve._make_server(FAKE_GAME, "127.0.0.1", 0, tables=tables, **kw)
    async with TestClient(TestServer(await server._make_app())) as client:
        server.service_url = str(client.make_url("")).rstrip("/")
        try:
            yield server, client
        finally:
            await server.close_all()
            await tables.stop()


async def new_table(client, key: str | None, setup) -> tuple[int, dict]:
    answer = await client.post(
        serve.SERVICE_TABLES, data=json.dumps({"setup": setup.model_dump(mode="json")}),
        headers={serve.SERVICE_KEY_HEADER: key or ""},
    )
    return answer.status, await answer.json()


async def test_a_served_table_is_joined_from_a_terminal_at_the_serve_port_and_played(tmp_path) -> None:
    async with serving(tmp_path) as (server, client):
        key = server.tables.visitor(BROWSER, "127.0.0.1")
        status, made = await new_table(client, key, table(3, 2, seed=3, hand_size="5"))
        assert status == 200, made
        code, token = made["code"], made["host_token"]
        assert (tmp_path / "tables" / code).is_dir()  # its own folder in the served one
        address = f"127.0.0.1:{client.port}"  # the page's own port: mexitrain join HOST:PORT CODE
        started: list[bool] = []

        async def host_starts(msg, bot_client):
            # the creator (its host token) starts once the friend from the terminal sits
            if isinstance(msg, Lobby) and not msg.started and not started:
                if all(s.kind != "open" for s in msg.seats):
                    started.append(True)
                    await bot_client.send(StartGame(level="random"))

        host, friend = await asyncio.wait_for(
            asyncio.gather(
                play_bot(address, code, "Ann", token=token, backoff=FAST, on_message=host_starts),
                play_bot(address, code, "Ben", seed=1, backoff=FAST),
            ),
            60,
        )
        assert started
        for bot in (host, friend):
            assert bot.error is None and bot.last is not None and bot.last.view.phase == "game_over"
        assert host.last.view.seat == 0 and friend.last.view.seat == 1
        names = host.last.names
        assert names[0] == "Ann" and names[1] == "Ben"


async def test_an_unknown_code_at_the_serve_port_is_a_wrong_code(tmp_path, monkeypatch) -> None:
    async with serving(tmp_path) as (server, client):
        server.tables.limits = server.tables.limits.__class__(wrong_code_delay=0.01)
        async with websockets.connect(f"ws://127.0.0.1:{client.port}/") as ws:
            await ws.send(encode(Hello(code="ABCDEF", name="Eve")))
            said = decode_server(await ws.recv())
        assert isinstance(said, Error) and said.code == "wrong_code" and said.fatal


async def test_a_page_of_another_site_cannot_reach_the_tables(tmp_path) -> None:
    async with serving(tmp_path) as (_server, client):
        refused = await client.get("/", headers={
            "Origin": "http://evil.example", "Connection": "Upgrade", "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        })
        assert refused.status == 403
        page = await client.get("/")  # the page itself is served as ever
        assert page.status == 200 and "<html" in await page.text()


async def test_the_tables_are_bounded_and_the_one_too_many_is_one_line(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(service_module, "MAX_TABLES", 3)
    async with serving(tmp_path) as (server, client):
        tables = server.tables
        mine = tables.visitor(BROWSER, "10.0.0.1")
        setup = table(2, 1)
        assert (await new_table(client, mine, setup))[0] == 200
        assert (await new_table(client, mine, setup))[0] == 200
        status, said = await new_table(client, mine, setup)  # one browser: two tables
        assert status == 429
        assert said["error"] == "This browser already has 2 tables open; leave one (it closes when nobody is at it)."
        other = tables.visitor(OTHER, "10.0.0.2")
        assert (await new_table(client, other, setup))[0] == 200
        third = tables.visitor("ab" * 16, "10.0.0.3")
        status, said = await new_table(client, third, setup)  # the server: three
        assert status == 503
        assert said["error"] == "This server has 3 tables open, as many as it holds; try again later."
        assert len(tables.tables) == 3
        # no key, or a key the server did not give: nothing
        assert (await new_table(client, None, setup))[0] == 403
        assert (await new_table(client, "forged", setup))[0] == 403


async def test_one_address_opens_at_most_so_many_tables(tmp_path) -> None:
    async with serving(tmp_path) as (server, client):
        tables = server.tables
        setup = table(2, 1)
        for i in range(service_module.TABLES_PER_ADDRESS):
            key = tables.visitor(f"{i:032x}", "192.168.1.9")
            assert (await new_table(client, key, setup))[0] == 200
        key = tables.visitor("e" * 32, "192.168.1.9")
        status, said = await new_table(client, key, setup)
        assert status == 429 and said["error"].startswith("Your network already has 4 tables open here")


async def test_idle_and_finished_tables_are_closed(tmp_path) -> None:
    now = [0.0]
    tables = TableService(tmp_path, pace=0, clock=lambda: now[0])
    key = tables.visitor(BROWSER, "127.0.0.1")
    code, _token = await tables.create(key, table(2, 1))
    now[0] = service_module.TABLE_IDLE - 1
    assert await tables.reap() == []
    now[0] = service_module.TABLE_IDLE
    assert await tables.reap() == [code]
    assert not tables.has(code)
    await tables.stop()


async def test_table_page_opens_a_known_table_and_says_one_line_for_an_unknown_one(tmp_path) -> None:
    async with serving(tmp_path) as (server, client):
        key = server.tables.visitor(BROWSER, "127.0.0.1")
        _status, made = await new_table(client, key, table(2, 1))
        code = made["code"]
        page = await client.get(f"/t/{code.lower()}")  # any case, as a code is typed
        text = await page.text()
        assert page.status == 200 and f'/ws/t/{code}"' in text  # its terminal goes to that table
        assert serve.VISITOR_COOKIE in page.headers.get("Set-Cookie", "")  # the browser is named
        gone = await client.get("/t/ZZZZZZ")
        assert gone.status == 404
        assert await gone.text() == "There is no table ZZZZZZ here: it has closed, or the link is mistyped."
        bad = await client.get("/t/%3Cb%3E")
        assert bad.status == 404 and bad.content_type == "text/plain"  # never a page: data, not markup


async def test_table_pages_are_rate_limited_per_address(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(service_module, "LOOKUP_BURST", 3)
    async with serving(tmp_path) as (_server, client):
        statuses = [(await client.get("/t/ZZZZZZ")).status for _ in range(4)]
        assert statuses == [404, 404, 404, 429]


@pytest.mark.parametrize("behind_proxy", [False, True])
async def test_behind_a_proxy_each_visitor_is_counted_for_their_own_address(tmp_path, monkeypatch, behind_proxy) -> None:
    """``serve --behind-proxy``: requests through a proxy on this machine are counted for the
    address the proxy names last in X-Forwarded-For (what a visitor writes before it is not
    believed); without it they all count for the proxy's own address, together."""
    monkeypatch.setattr(service_module, "LOOKUP_BURST", 3)
    async with serving(tmp_path, behind_proxy=behind_proxy) as (_server, client):

        async def pages(forwarded: str) -> list[int]:
            return [(await client.get("/t/ZZZZZZ", headers={"X-Forwarded-For": forwarded})).status for _ in range(3)]

        assert await pages("203.0.113.7") == [404, 404, 404]
        other = await pages("6.6.6.6, 198.51.100.2")  # another visitor, who wrote an address of their own first
        assert other == ([404, 404, 404] if behind_proxy else [429, 429, 429])
        assert (await client.get("/t/ZZZZZZ", headers={"X-Forwarded-For": "203.0.113.7"})).status == 429


@pytest.mark.parametrize(
    ("remote", "forwarded", "behind_proxy", "counted"),
    [
        ("127.0.0.1", "203.0.113.7", True, "203.0.113.7"),
        ("127.0.0.1", "6.6.6.6, 203.0.113.7", True, "203.0.113.7"),  # only the proxy's own entry
        ("::1", "[2001:db8::1]", True, "2001:db8::1"),
        ("127.0.0.1", "203.0.113.7", False, "127.0.0.1"),  # no proxy said: the header is a visitor's
        ("198.51.100.9", "203.0.113.7", True, "198.51.100.9"),  # not through the proxy on this machine
        ("127.0.0.1", "a name, not an address", True, "127.0.0.1"),
        ("127.0.0.1", "", True, "127.0.0.1"),
        (None, None, True, "?"),
    ],
)
def test_the_address_a_request_is_counted_for(remote, forwarded, behind_proxy, counted) -> None:
    assert serve.client_address(remote, forwarded, behind_proxy) == counted


async def test_one_browser_holds_one_seat_at_a_table(tmp_path) -> None:
    async with serving(tmp_path) as (server, client):
        tables = server.tables
        creator = tables.visitor(BROWSER, "127.0.0.1")
        _status, made = await new_table(client, creator, table(3, 3))
        code = made["code"]

        async def claim(key):
            answer = await client.post(
                serve.SERVICE_CLAIM, data=json.dumps({"code": code}), headers={serve.SERVICE_KEY_HEADER: key}
            )
            return answer.status, await answer.json()

        second_tab = tables.visitor(BROWSER, "127.0.0.1")
        status, said = await claim(second_tab)
        assert status == 409
        assert said["error"] == (
            "This browser already has a seat at this table; close the other tab, or open the link in another browser."
        )
        friend = tables.visitor(OTHER, "10.0.0.7")
        assert await claim(friend) == (200, {})
        assert await claim(friend) == (200, {})  # the same game again: still its seat
        tables.gone(creator)  # the creator's tab closed: this browser may sit again
        assert await claim(second_tab) == (200, {})


@pytest.mark.parametrize("host, expected", [("0.0.0.0", "127.0.0.1"), ("::", "::1"), ("192.168.1.5", "192.168.1.5")])
def test_the_games_reach_the_tables_at_this_machine_s_own_address(host: str, expected: str) -> None:
    assert serve.service_host(host) == expected


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes in /proc")
async def test_a_real_served_page_opens_a_table_that_a_terminal_joins(tmp_path) -> None:
    """The whole way: a real ``mexitrain serve``, a page's game (its tables named in its
    environment by serve), New table… (Ctrl+N, then Open ▶ with Ctrl+S), the link on its
    screen; a terminal's client sits at that code on the page's own port."""
    import re

    import aiohttp
    from support.server import serving as real_serving

    from commands.test_serve import _screen_until

    with real_serving(tmp_path / "data") as served:
        ws_url = served.url.replace("http:", "ws:") + "ws?width=120&height=40"
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(ws_url, origin=served.url.rstrip("/")) as ws:
                screen = await _screen_until(ws, b"New table")
                assert b"Host a table" not in screen and b"Join a table" not in screen
                await ws.send_json(["stdin", "\x0e"])  # Ctrl+N: the table's setup
                await _screen_until(ws, b"your name")  # the first seat asks the creator's name
                await ws.send_json(["stdin", "Ann"])
                await ws.send_json(["stdin", "\x13"])  # Ctrl+S: Open ▶
                screen = await _screen_until(ws, b"/t/")
                screen += await _screen_until(ws, b"mexitrain join")
                code = re.search(rb"/t/([A-Z]{6})", screen)[1].decode()
                port = served.url.rstrip("/").rpartition(":")[2]
                welcomed: list = []
                client = TableClient(f"127.0.0.1:{port}", code, "Ben", data_dir=None, backoff=FAST)

                async def on_message(msg):
                    if isinstance(msg, Welcome):
                        welcomed.append(msg)
                        await client.close()

                statuses: list = []
                await asyncio.wait_for(client.run(on_message, statuses.append), 30)
                assert welcomed and welcomed[0].seat == 1 and welcomed[0].table == code
                # the link's page: its game goes straight to that table's seat form
                link_url = served.url.replace("http:", "ws:") + f"ws/t/{code}?width=120&height=40"
                async with session.ws_connect(link_url, origin=served.url.rstrip("/")) as friend:
                    await _screen_until(friend, b"Type your name")
                    await friend.send_json(["stdin", "\x1b"])  # Esc: the new-game screen
                    await _screen_until(friend, b"New table")
                await ws.send_json(["stdin", "\x11"])  # Ctrl+Q
        from support.server import stop

        out, err = await asyncio.to_thread(stop, served.proc)
    assert "Traceback" not in out + err


async def test_guessing_codes_at_the_serve_port_is_as_slow_as_at_a_table(tmp_path) -> None:
    from mexitrain.net.links import Limits

    async with serving(tmp_path) as (server, client):
        server.tables.limits = Limits(wrong_code_delay=0.0, attempts_burst=3, attempts_rate=0.01)
        server.tables.attempts = service_module.Buckets(3, 0.01, 16)
        said = []
        for _ in range(4):
            async with websockets.connect(f"ws://127.0.0.1:{client.port}/") as ws:
                await ws.send(encode(Hello(code="ABCDEF", name="Eve")))
                said.append(decode_server(await ws.recv()).code)
        assert said == ["wrong_code"] * 3 + ["too_many"]


def test_a_served_game_reads_its_tables_from_the_environment_serve_gives_it(monkeypatch) -> None:
    import mexitrain.ui.app as app_module
    from mexitrain.cli import main
    from mexitrain.net.served import ENV, ServedTables

    assert serve.SERVED_TABLES_ENV == ENV  # one name on both sides
    seen: list[dict] = []
    monkeypatch.setattr(app_module, "run", lambda setup, speed, **kwargs: seen.append(kwargs) or 0)
    told = {"service": "http://127.0.0.1:8012", "key": "k", "link": "https://d.example", "table": "kxm-ptr"}
    monkeypatch.setenv(ENV, json.dumps(told))
    assert main(["play", "--served"]) == 0
    assert seen[-1]["served_tables"] == ServedTables("http://127.0.0.1:8012", "k", "https://d.example", "KXMPTR")
    assert "tables" not in seen[-1]
    assert seen[-1]["served_tables"].address == "ws://127.0.0.1:8012/"
    assert seen[-1]["served_tables"].table_link("KXMPTR") == "https://d.example/t/KXMPTR"
    assert main(["play", "--served", "--no-tables"]) == 0  # --no-tables wins
    assert seen[-1]["tables"] is False and "served_tables" not in seen[-1]
    for bad in ("not json", "[]", json.dumps({**told, "service": "file:///etc"}), json.dumps({**told, "key": 3})):
        monkeypatch.setenv(ENV, bad)
        assert main(["play", "--served"]) == 0
        assert seen[-1]["tables"] is False  # no tables rather than Host a table… / Join a table…
    # a link that is not a page's address: the service's own, never text from elsewhere
    odd = ServedTables.from_environment({ENV: json.dumps({**told, "link": "javascript:alert(1)"})})
    assert odd is not None and odd.link == "http://127.0.0.1:8012"


async def test_a_restarted_serve_process_reopens_its_recent_tables(tmp_path) -> None:
    """``mexitrain serve`` stopped and started again: the tables it held come back with their
    codes and tokens (their links work again); one whose folder has not been written to for
    longer than a table waits for nobody stays closed."""
    import os

    from mexitrain.storage.tokens import table_dir

    first = TableService(tmp_path, pace=0)
    key = first.visitor(BROWSER, "127.0.0.1")
    code, token = await first.create(key, table(3, 2))
    await first.stop()
    again = TableService(tmp_path, pace=0)
    try:
        assert await again.reopen() == [code]
        assert again.has(code)
        server = again.tables[code].server
        # the same code and the same host's token: the creator's link takes the seat back
        assert server.code == code and server.host_token == token and not server.started
    finally:
        await again.stop()
    old = os.path.getmtime(table_dir(tmp_path, code) / "table.json") - service_module.TABLE_IDLE - 60
    for path in table_dir(tmp_path, code).iterdir():
        os.utime(path, (old, old))
    os.utime(table_dir(tmp_path, code), (old, old))
    later = TableService(tmp_path, pace=0)
    try:
        assert await later.reopen() == [] and not later.tables  # long idle: not reopened
    finally:
        await later.stop()


async def test_a_served_table_carries_chat_and_watchers(tmp_path) -> None:
    """A table opened from a page is a table like any (docs/browser.md): a line said by a friend
    at a terminal reaches the creator, and a watcher at the serve port reads it too."""
    from mexitrain.net.protocol import Chat, Say, Watch, Watching

    async with serving(tmp_path) as (server, client):
        key = server.tables.visitor(BROWSER, "127.0.0.1")
        status, made = await new_table(client, key, table(3, 2, seed=3, hand_size="5"))
        assert status == 200, made
        code, token = made["code"], made["host_token"]
        url = f"ws://127.0.0.1:{client.port}/"

        async def until_a(ws, kind):
            while True:
                msg = decode_server(await asyncio.wait_for(ws.recv(), 10))
                if isinstance(msg, kind):
                    return msg

        async with websockets.connect(url) as ann, websockets.connect(url) as ben, websockets.connect(url) as eve:
            await ann.send(encode(Hello(code=code, name="Ann", token=token)))
            await until_a(ann, Welcome)
            await ben.send(encode(Hello(code=code, name="Ben")))
            await until_a(ben, Welcome)
            await eve.send(encode(Watch(code=code)))
            await until_a(eve, Watching)
            await ben.send(encode(Say(seq=1, text="hello from a terminal")))
            for ws in (ann, eve):
                line = (await until_a(ws, Chat)).lines[-1]
                assert (line.name, line.text) == ("Ben", "hello from a terminal")
