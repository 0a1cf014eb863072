"""``mexitrain serve`` answers only to its own names (issue 32, item 3: DNS rebinding), opens a
game only for its own page, and keeps its visitors' folders within their cap under a burst
(item 5).

A page of another site whose name the attacker points at 127.0.0.1 (DNS rebinding) is, for
the browser, of the same origin as that name: its requests carry ``Host`` and ``Origin`` of
that name, equal to each other. The server refuses them by the name."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from support.server import REPO_ROOT, env_for, serving, stop

from mexitrain.cli import build_parser, main
from mexitrain.commands import serve

from .test_serve import FAKE_GAME, _children, own_page, upgrade


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("127.0.0.1:8012", True),
        ("127.0.0.1", True),  # the port may be left out
        ("localhost:8012", True),
        ("LOCALHOST.:8012", True),  # names are not case-sensitive; the root's dot
        ("[::1]:8012", True),
        ("[::1]", True),
        ("192.168.1.20:8012", True),  # an address is the page's own
        ("game.lan:8012", True),  # --allow-host game.lan
        ("Game.Lan", True),
        ("rebind.example:8012", False),  # a name of someone else's that leads here
        ("127.0.0.1.rebind.example:8012", False),
        ("localhost.rebind.example", False),
        ("game.lan.example", False),
        ("[rebind.example]:8012", False),
        ("[127.0.0.1]:8012", False),  # not how an IPv4 address is written
        ("::1", False),  # an IPv6 address goes in brackets
        ("127.0.0.1:80:80", False),
        ("127.0.0.1:123456", False),
        ("", False),
        (None, False),  # no Host at all
        ("a b", False),
        ("x" * 300, False),
    ],
)
def test_only_the_server_s_own_names_are_answered(host, allowed: bool) -> None:
    assert serve.allowed_host(host, serve.served_names("127.0.0.1", ["game.lan"])) is allowed


def test_the_names_served() -> None:
    assert serve.served_names("127.0.0.1") == {"localhost", "127.0.0.1"}
    assert serve.served_names("Game-Box.lan.", ["a.example", "B.example."]) == {
        "localhost", "game-box.lan", "a.example", "b.example",
    }
    # serving the network: the machine's name, which the address line prints, is answered to
    everywhere = serve.served_names("0.0.0.0")
    assert socket.gethostname().lower() in everywhere and "0.0.0.0" not in everywhere


# ---------------------------------------------------------------------------------------
# --allow-host
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "start"),
    [
        ("", "argument --allow-host: expected host names separated by commas, not ''"),
        ("a,,b", "argument --allow-host: expected host names separated by commas, not 'a,,b'"),
        ("a b", "argument --allow-host: expected host names separated by commas, not 'a b'"),
        ("*.example", "argument --allow-host: expected host names separated by commas, not '*.example'"),
        ("http://x", "argument --allow-host: expected host names separated by commas, not 'http://x'"),
        ("\x1b]2;x\x07", "argument --allow-host: expected host names separated by commas, not '\\x1b]2;x\\x07'"),
    ],
)
def test_a_bad_allow_host_is_one_line(value: str, start: str, tmp_path: Path, capsys) -> None:
    assert main(["serve", "--data-dir", str(tmp_path), "--allow-host", value]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("mexitrain: error: " + start) and err.count("\n") == 1, err


def test_allow_host_is_repeated_or_a_list_and_reaches_the_server(monkeypatch, tmp_path: Path, capsys) -> None:
    made: list[dict] = []

    class Served(Exception):
        pass

    def fake_make_server(argv, host, port, **kwargs):
        made.append(kwargs)
        raise Served

    monkeypatch.setattr(serve, "_make_server", fake_make_server)
    with pytest.raises(Served):
        serve.run(build_parser().parse_args(
            ["serve", "--data-dir", str(tmp_path), "--allow-host", "Game.lan,box.", "--allow-host", "other.example"]
        ))
    assert made[0]["allowed"] == ["game.lan", "box", "other.example"]
    assert main(["serve", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "--allow-host NAME" in shown and "separate names with commas" in shown


# ---------------------------------------------------------------------------------------
# The server (a stand-in game)
# ---------------------------------------------------------------------------------------
async def test_a_rebinding_page_reads_nothing_and_starts_no_game() -> None:
    """Its name leads to the server, but the server does not answer to it: the page, the
    scripts, the websocket (with an Origin equal to its Host, as the browser sends it) are
    all refused, and no game process is started."""
    from aiohttp.test_utils import TestClient, TestServer

    server = serve._make_server(FAKE_GAME, "127.0.0.1", 0)
    async with TestClient(TestServer(await server._make_app())) as client:
        port = client.port
        evil = f"rebind.example:{port}"
        for path in ("/", "/static/js/textual.js", "/favicon.png", "/download/x"):
            response = await client.get(path, headers={"Host": evil})
            assert response.status == 421, path
            assert await response.text() == (
                "This server does not answer to that name (its owner may add it with --allow-host)."
            )
        refused = await client.get("/ws", headers=upgrade(client, Host=evil, Origin=f"http://{evil}"))
        assert refused.status == 421
        assert not server.games
        # the same page at the server's own address is served, never in another site's frame
        assert (await client.get("/", headers={"Host": f"localhost:{port}"})).status == 200
        for path in ("/", "/static/js/textual.js", "/favicon.png"):
            page = await client.get(path)
            assert page.status == 200
            assert page.headers["X-Frame-Options"] == "DENY"
            assert page.headers["Content-Security-Policy"] == "frame-ancestors 'none'"


async def test_a_websocket_without_origin_or_from_another_page_is_refused() -> None:
    from aiohttp.test_utils import TestClient, TestServer

    server = serve._make_server(FAKE_GAME, "127.0.0.1", 0)
    async with TestClient(TestServer(await server._make_app())) as client:
        headers = upgrade(client)
        del headers["Origin"]
        for asked in (headers, upgrade(client, Origin="http://evil.example")):
            refused = await client.get("/ws", headers=asked)
            assert refused.status == 403
            assert await refused.text() == "This game is played from its own page only."
        assert not server.games
        ws = await client.ws_connect("/ws", origin=own_page(client))  # its own page
        assert await server.close_all() == 1
        await ws.close()


async def test_an_allowed_name_is_served() -> None:
    from aiohttp.test_utils import TestClient, TestServer

    server = serve._make_server(FAKE_GAME, "127.0.0.1", 0, allowed=["game.lan"])
    async with TestClient(TestServer(await server._make_app())) as client:
        name = f"game.lan:{client.port}"
        page = await client.get("/", headers={"Host": name})
        assert page.status == 200
        assert f'data-session-websocket-url="ws://{name}/ws"' in await page.text()
        ws = await client.ws_connect("/ws", headers={"Host": name}, origin=f"http://{name}")
        assert await server.close_all() == 1
        await ws.close()


async def test_a_burst_of_newcomers_never_passes_the_visitors_cap(tmp_path: Path, monkeypatch) -> None:
    """--private-saves: newcomers arriving together (no cookie: each is new) are counted one
    after the other: exactly the cap's room is given, the others are turned away."""
    from aiohttp.test_utils import TestClient, TestServer

    monkeypatch.setattr(serve, "MAX_VISITORS", 4)
    (tmp_path / serve.VISITORS / ("a" * 32)).mkdir(parents=True)  # one kept already
    argv = [*FAKE_GAME, "--data-dir", str(tmp_path), "--served"]
    server = serve._make_server(argv, "127.0.0.1", 0, private=True)
    async with TestClient(TestServer(await server._make_app())) as client:

        async def newcomer():
            async with aiohttp.ClientSession() as session:  # no cookie jar shared
                try:
                    return await session.ws_connect(client.make_url("/ws"), origin=own_page(client))
                except aiohttp.WSServerHandshakeError as exc:
                    return exc.status

        results = await asyncio.gather(*(newcomer() for _ in range(12)))
        try:
            refused = [r for r in results if r == 503]
            assert len(refused) == 9, results
            folders = sorted((tmp_path / serve.VISITORS).iterdir())
            assert len(folders) == 4
            assert sorted(game.argv[-2] for game in server.games.values() if game is not None) == sorted(
                str(f) for f in folders if f.name != "a" * 32
            )
        finally:
            await server.close_all()
            for r in results:
                if not isinstance(r, int):
                    await r.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes in /proc")
async def test_a_rebinding_page_gets_nothing_from_a_real_server(tmp_path: Path) -> None:
    """The case of the issue, on a real ``mexitrain serve``: a page at a name leading to
    127.0.0.1 asks for the page and a websocket (with its own Origin): 421 both, no game;
    started with ``--allow-host`` that name, the page is served."""
    with serving(tmp_path / "data") as served:
        port = served.url.rsplit(":", 1)[1].strip("/")
        evil = f"rebind.example:{port}"
        async with aiohttp.ClientSession() as session:
            page = await session.get(served.url, headers={"Host": evil})
            assert page.status == 421
            ws = await session.get(served.url + "ws", headers={
                "Host": evil, "Origin": f"http://{evil}", "Connection": "Upgrade", "Upgrade": "websocket",
                "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            })
            assert ws.status == 421
            assert _children(served.proc.pid) == set()
        out, err = stop(served.proc)
    assert "Traceback" not in out + err
    with serving(tmp_path / "data", "--allow-host", "rebind.example") as served:
        port = served.url.rsplit(":", 1)[1].strip("/")
        async with aiohttp.ClientSession() as session:
            page = await session.get(served.url, headers={"Host": f"rebind.example:{port}"})
            assert page.status == 200
        stop(served.proc)


def test_allow_host_is_checked_in_a_real_process(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mexitrain", "serve", "--data-dir", str(tmp_path), "--allow-host", "a,,b"],
        cwd=REPO_ROOT, env=env_for(), capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        "mexitrain: error: argument --allow-host: expected host names separated by commas, not 'a,,b'\n"
    )
