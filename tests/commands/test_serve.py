"""``mexitrain serve``: the game in a web browser (issue 23).

Real processes: a bad argument is one line (exit 2, a port in use 1), the server prints one
line with the address, answers HTTP with the page (in the player's language, asking nothing
of other sites), starts a game for a websocket of its own page and refuses one from another
site, and Ctrl+C ends it in one line (exit 130), its games' processes closed. The browser
itself is tests/browser/test_serve_browser.py."""

from __future__ import annotations

import asyncio
import errno
import os
import re
import socket
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from support.server import REPO_ROOT, env_for, serving, stop

from mexitrain.cli import main
from mexitrain.commands import serve
from mexitrain.commands.args import CommandError, UsageError

# ---------------------------------------------------------------------------------------
# Bad arguments: one line, exit 2 (a port in use: 1)
# ---------------------------------------------------------------------------------------
BAD = {
    "port too big": (["--port", "65536"], "argument --port: must be between 0 and 65535, not '65536'"),
    "port negative": (["--port", "-1"], "argument --port: must be between 0 and 65535, not '-1'"),
    "port not a number": (["--port", "http"], "argument --port: expected a whole number, not 'http'"),
    "port huge": (["--port", "9" * 5000], "argument --port: must be between 0 and 65535, not '999"),
    "port empty": (["--port", ""], "argument --port: expected a whole number, not ''"),
    "host with a space": (["--host", "a b"], "argument --host: expected an IP address or a host name, not 'a b'"),
    "host escape": (["--host", "\x1b]2;pwned\x07"], "argument --host: expected an IP address or a host name, not '\\x1b]2;pwned\\x07'"),
    "host too long": (["--host", "a" * 300], "argument --host: expected an IP address or a host name, not 'aaa"),
    "host empty": (["--host", ""], "argument --host: expected an IP address or a host name, not ''"),
    "host url": (["--host", "http://x"], "argument --host: expected an IP address or a host name, not 'http://x'"),
    "host not here": (["--host", "192.0.2.1"], "argument --host: '192.0.2.1' is not an address of this machine"),
}


def _run(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mexitrain", "serve", "--data-dir", str(tmp_path / "data"), *args],
        cwd=REPO_ROOT, env=env_for(), capture_output=True, text=True, timeout=60,
    )


@pytest.mark.parametrize("name", BAD)
def test_bad_arguments_are_one_line(name: str, tmp_path: Path, capsys) -> None:
    args, start = BAD[name]
    assert main(["serve", "--data-dir", str(tmp_path / "data"), *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("mexitrain: error: " + start) and err.count("\n") == 1, err


#: The cases run again as real processes (each costs a Python start).
IN_PROCESSES = ["port too big", "port huge", "host escape", "host not here"]


def test_bad_arguments_are_one_line_in_real_processes(tmp_path: Path) -> None:
    with ThreadPoolExecutor(4) as pool:
        done = dict(zip(IN_PROCESSES, pool.map(lambda name: _run(BAD[name][0], tmp_path), IN_PROCESSES), strict=True))
    for name in IN_PROCESSES:
        start = BAD[name][1]
        proc = done[name]
        assert proc.returncode == 2, (name, proc.stderr)
        assert proc.stdout == "", name
        [line] = proc.stderr.splitlines()
        assert line.startswith("mexitrain: error: " + start), (name, line)
        assert "\x1b" not in line and len(line) <= 300, name


def test_a_port_in_use_is_one_line_and_status_1(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = _run(["--port", str(port)], tmp_path)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == (
        f"mexitrain: error: port {port} is already in use on 127.0.0.1; choose another with --port\n"
    )


def test_why_the_server_could_not_listen() -> None:
    """The errors of binding that a real process cannot produce at will."""
    unknown = serve._bind_error(socket.gaierror(socket.EAI_NONAME, "Name or service not known"), "nosuch.example", 8012)
    assert isinstance(unknown, UsageError)
    assert str(unknown) == "argument --host: no such host 'nosuch.example'"
    denied = serve._bind_error(PermissionError(errno.EACCES, "Permission denied"), "127.0.0.1", 80)
    assert isinstance(denied, CommandError)
    assert str(denied) == "cannot serve on 127.0.0.1 port 80: Permission denied"


@pytest.mark.parametrize("text", ["127.0.0.1", "0.0.0.0", "::1", "[::1]", "::", "localhost", "game-box.lan", "a.b.c."])
def test_good_hosts(text: str) -> None:
    assert serve.host_value(text) == text.strip("[]")


# ---------------------------------------------------------------------------------------
# Values from the network
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "expected"),
    [("100", 100), (100, 100), ("100000000", 400), ("9" * 5000, 400), (10**12, 400), ("-5", 80),
     (-5, 20), ("1", 20), ("ten", 80), ("١٠٠", 80), (None, 80), (True, 80), (3.5, 80), ([1], 80)],
)
def test_terminal_sizes_from_a_page_are_bounded(value, expected: int) -> None:
    assert serve._bounded(value, serve.COLUMNS, 80) == expected


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        (None, "127.0.0.1:8012", False),  # the page always says where it is from
        ("http://127.0.0.1:8012", "127.0.0.1:8012", True),
        ("https://game.lan:8012", "game.lan:8012", True),
        ("http://evil.example", "127.0.0.1:8012", False),
        ("http://127.0.0.1:9999", "127.0.0.1:8012", False),
        ("null", "127.0.0.1:8012", False),  # a sandboxed frame or a file: page
        ("file://127.0.0.1:8012", "127.0.0.1:8012", False),
        ("http://127.0.0.1:8012", "", False),
    ],
)
def test_only_the_server_s_own_page_opens_a_game(origin, host: str, allowed: bool) -> None:
    assert serve.same_origin(origin, host) is allowed


def test_the_address_line() -> None:
    assert serve.address_line("127.0.0.1", 8012) == (
        "Serving Mexican Train: open http://127.0.0.1:8012/ in a web browser; Ctrl+C stops"
    )
    assert "http://[::1]:8012/" in serve.address_line("::1", 8012)
    everywhere = serve.address_line("0.0.0.0", 8012)
    assert f"http://{socket.gethostname()}:8012/" in everywhere
    assert "(here: http://127.0.0.1:8012/)" in everywhere


def test_each_game_runs_mexitrain_play_in_the_served_language_and_folder(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from mexitrain import i18n

    i18n.set_language("fr")
    argv = serve.game_command(SimpleNamespace(data_dir=str(tmp_path / "my data")))
    assert argv == [
        sys.executable, "-m", "mexitrain", "play", "--lang", "fr", "--data-dir", str(tmp_path / "my data"), "--served",
    ]
    # without --data-dir: $MEXITRAIN_DATA_DIR's folder, named to the game (the fence's root)
    assert serve.game_command(SimpleNamespace(data_dir=None))[3:] == [
        "play", "--lang", "fr", "--data-dir", os.environ["MEXITRAIN_DATA_DIR"], "--served",
    ]


def test_served_is_a_hidden_argument_of_play_that_reaches_the_app(monkeypatch, capsys) -> None:
    """``play --served`` (what serve's games run) makes the app fence its files; ``--help``
    does not offer it, and without it the app is not fenced."""
    import mexitrain.ui.app as app_module

    seen: list[dict] = []
    monkeypatch.setattr(app_module, "run", lambda setup, speed, **kwargs: seen.append(kwargs) or 0)
    assert main(["play", "--served"]) == 0
    assert main(["play"]) == 0
    assert seen[0]["served"] is True and "served" not in seen[1]
    capsys.readouterr()
    assert main(["play", "--help"]) == 0
    shown = capsys.readouterr().out
    assert "--data-dir" in shown and "--served" not in shown


@pytest.mark.parametrize(
    ("cookie", "valid"),
    [("0123456789abcdef0123456789abcdef", True), (None, False), ("", False), ("../../etc", False),
     ("0123456789ABCDEF0123456789ABCDEF", False), ("0123456789abcdef0123456789abcdef/..", False),
     ("0123456789abcdef0123456789abcde", False), ("0123456789abcdef0123456789abcdef\n", False)],
)
def test_a_visitor_is_named_only_by_a_cookie_this_server_could_have_made(cookie, valid: bool) -> None:
    assert serve.visitor_id(cookie) == (cookie if valid else None)
    argv = ["python", "-m", "mexitrain", "play", "--data-dir", "/srv/data", "--served"]
    if valid:
        assert serve.visitor_command(argv, cookie) == [*argv[:5], f"/srv/data/visitors/{cookie}", "--served"]
    elif cookie is not None:
        with pytest.raises(ValueError):
            serve.visitor_command(argv, cookie)


# ---------------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------------
def _get(url: str) -> tuple[int, str, str]:
    status, kind, body = _get_bytes(url)
    return status, kind, body.decode("utf-8")


def _get_bytes(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


def _png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height (its IHDR chunk), or fails if ``data`` is not a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data[:16]
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_server_answers_with_the_page_and_ctrl_c_ends_it(tmp_path: Path) -> None:
    with serving(tmp_path / "data") as served:
        m = re.fullmatch(
            r"Serving Mexican Train: open (http://127\.0\.0\.1:\d+/) in a web browser; Ctrl\+C stops\n",
            served.first_line,
        )
        assert m and m[1] == served.url
        status, kind, page = _get(served.url)
        assert status == 200 and kind.startswith("text/html")
        assert '<html lang="en">' in page
        assert f'data-session-websocket-url="ws://{served.url[7:]}ws"' in page
        assert "js/textual.js" in page
        assert ">Session ended.<" in page
        assert "googleapis" not in page  # asks nothing of other sites
        # the page's title and icon (issue 35, item 6), and the terminal takes the keys on load
        assert page.count("<title>") == 1 and "<title>mexitrain</title>" in page.split("</head>")[0]
        assert '<link rel="icon" type="image/png" href="/favicon.png" />' in page.split("</head>")[0]
        assert ".xterm-helper-textarea" in page and "focus()" in page
        status, _kind, script = _get(served.url + "static/js/textual.js")
        assert status == 200 and "xterm" in script
        status, kind, icon = _get_bytes(served.url + "favicon.png")
        assert status == 200 and kind == "image/png"
        assert _png_size(icon) == (64, 64)
        out, err = stop(served.proc)
    assert served.proc.returncode == 130
    assert out == ""
    assert err == "stopped serving; 0 games closed (a game in progress is autosaved)\n"


def test_in_french(tmp_path: Path) -> None:
    with serving(tmp_path / "data", "--lang", "fr") as served:
        assert served.first_line.startswith("Le Train Mexicain est servi : ouvrez http://127.0.0.1:")
        _status, _kind, page = _get(served.url)
        assert '<html lang="fr">' in page
        assert ">Session terminée.<" in page and ">Recommencer<" in page
        assert "<title>mexitrain</title>" in page  # the program's name, in every language
        _out, err = stop(served.proc)
    assert served.proc.returncode == 130
    assert err == "service arrêté ; 0 partie fermée (une partie en cours est sauvegardée automatiquement)\n"


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _argv(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]


def _session(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[3])


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


async def _screen_until(ws, needle: bytes, timeout: float = 30) -> bytes:
    """The game's output over the websocket until it holds ``needle``."""
    import aiohttp

    seen = b""
    async with asyncio.timeout(timeout):
        while needle not in seen:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                seen += message.data
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                raise AssertionError(f"closed before {needle!r}: {seen[-500:]!r}")
    return seen


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes in /proc")
async def test_a_page_s_websocket_gets_a_game_that_ctrl_c_closes(tmp_path: Path) -> None:
    import aiohttp

    with serving(tmp_path / "data") as served:
        ws_url = served.url.replace("http:", "ws:") + "ws?width=100000&height=-3"
        async with aiohttp.ClientSession() as session:
            refused = await session.get(ws_url, headers={
                "Origin": "http://evil.example", "Connection": "Upgrade", "Upgrade": "websocket",
                "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            })
            assert refused.status == 403
            assert _children(served.proc.pid) == set()  # no game was started for it

            async with session.ws_connect(ws_url, origin=served.url.rstrip("/")) as ws:
                await ws.send_str("not json")  # ignored, as every malformed message
                await ws.send_json(["resize", {"width": "x" * 100, "height": None}])
                screen = await _screen_until(ws, b"New game")
                assert b"Mexican Train" in screen
                [game] = _children(served.proc.pid)
                assert _alive(game)
                # its files fenced in the served data folder (ui/fence.py)
                argv = _argv(game)
                assert argv[-3:] == ["--data-dir", str(tmp_path / "data"), "--served"]
                # a session of its own: the Ctrl+C typed at the server's terminal is not its
                assert _session(game) == game != _session(served.proc.pid)
                out, err = await asyncio.to_thread(stop, served.proc)
    assert served.proc.returncode == 130
    assert "Traceback" not in out + err
    assert err == "stopped serving; 1 game closed (a game in progress is autosaved)\n"
    assert not _alive(game)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes in /proc")
async def test_closing_the_page_ends_its_game_and_the_server_serves_on(tmp_path: Path) -> None:
    import aiohttp

    with serving(tmp_path / "data") as served:
        ws_url = served.url.replace("http:", "ws:") + "ws"
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(ws_url, origin=served.url.rstrip("/")) as ws:
                await _screen_until(ws, b"New game")
                [game] = _children(served.proc.pid)
            async with asyncio.timeout(serve.STOP_WAIT + 10):  # asked to quit, else killed
                while _alive(game):
                    await asyncio.sleep(0.05)
            async with session.ws_connect(ws_url, origin=served.url.rstrip("/")) as ws:  # the next visitor: a new game
                await _screen_until(ws, b"New game")
                [second] = _children(served.proc.pid)
                assert second != game
                out, err = await asyncio.to_thread(stop, served.proc)
    assert served.proc.returncode == 130
    assert err == "stopped serving; 1 game closed (a game in progress is autosaved)\n"
    assert not _alive(second)


#: A terminal's escape sequences (CSI, OSC), to read the text the game's output shows.
_ESCAPE = re.compile(r"\x1b\[[0-9;?$<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)")


#: The too-small message of a game in a browser (a 70x15 terminal): the zoom, and no Ctrl+Q (a
#: browser's own key).
ZOOM_OUT = {
    "en": ("browser window larger.", "The window is 70x15; mexitrain needs at least 72x16 — zoom out "
           "with Ctrl − (⌘ − on a Mac), or make the browser window larger."),
    "fr": ("fenêtre du navigateur.", "La fenêtre fait 70x15 ; mexitrain a besoin d'au moins 72x16 — "
           "réduisez le zoom avec Ctrl − (⌘ − sur Mac) ou agrandissez la fenêtre du navigateur."),
}


@pytest.mark.parametrize("lang", ZOOM_OUT)
async def test_a_window_too_small_in_the_browser_says_to_zoom_out(lang: str, tmp_path: Path) -> None:
    """The game knows it is in a browser (textual-serve's web driver): its too-small message
    says how to get more cells there (zooming out), not only the sizes."""
    import aiohttp

    end, sentence = ZOOM_OUT[lang]
    with serving(tmp_path / "data", "--lang", lang) as served:
        ws_url = served.url.replace("http:", "ws:") + "ws?width=70&height=15"
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(ws_url, origin=served.url.rstrip("/")) as ws:
                screen = await _screen_until(ws, end.encode())
        out, err = await asyncio.to_thread(stop, served.proc)
    text = " ".join(_ESCAPE.sub("", screen.decode("utf-8", "replace")).split())
    assert sentence in text
    assert "Ctrl+Q" not in text
    assert "Traceback" not in out + err


#: A stand-in for a game process: says it is a Textual app, then ends at its first input (the quit).
FAKE_GAME = [sys.executable, "-c", "import sys; print('__GANGLION__', flush=True); sys.stdin.buffer.read(1)"]


def own_page(client) -> str:
    """The ``Origin`` of the test server's own page."""
    return str(client.make_url("")).rstrip("/")


#: A websocket's opening request, by hand (to see a refusal's status and text).
def upgrade(client, **headers: str) -> dict[str, str]:
    return {
        "Origin": own_page(client), "Connection": "Upgrade", "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", **headers,
    }


async def test_one_visitor_too_many_is_turned_away(monkeypatch) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    monkeypatch.setattr(serve, "MAX_GAMES", 2)
    server = serve._make_server(FAKE_GAME, "127.0.0.1", 0)
    async with TestClient(TestServer(await server._make_app())) as client:
        first = await client.ws_connect("/ws", origin=own_page(client))
        second = await client.ws_connect("/ws", origin=own_page(client))
        turned_away = await client.get("/ws", headers=upgrade(client))
        assert turned_away.status == 503
        assert await turned_away.text() == "Too many games are running; try again later."
        await first.close()
        async with asyncio.timeout(serve.STOP_WAIT + 10):  # its place is free again
            while len(server.games) > 1:
                await asyncio.sleep(0.02)
        third = await client.ws_connect("/ws", origin=own_page(client))
        assert await server.close_all() == 2
        for ws in (second, third):
            await ws.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes in /proc")
async def test_private_saves_give_each_browser_its_own_fenced_folder(tmp_path: Path) -> None:
    """--private-saves: the page names the browser in a cookie (random, HttpOnly, SameSite),
    and its games run in ``visitors/<id>`` of the data folder, fenced there; a forged cookie or
    anything the page asks for changes neither the folder's place nor the fence."""
    import aiohttp

    data = tmp_path / "data"
    with serving(data, "--private-saves") as served:
        ws_url = served.url.replace("http:", "ws:") + "ws?served=0&data-dir=/"
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.get(served.url) as page:
                header = page.headers["Set-Cookie"]
                visitor = page.cookies[serve.VISITOR_COOKIE].value
            assert re.fullmatch(r"[0-9a-f]{32}", visitor)
            # Lax: a link opened from another site (a mail, a chat) still carries the name
            assert "HttpOnly" in header and "SameSite=Lax" in header and "Max-Age=34560000" in header
            async with session.get(served.url) as again:  # the same browser keeps its name
                assert again.cookies[serve.VISITOR_COOKIE].value == visitor
            async with session.ws_connect(ws_url, origin=served.url.rstrip("/")) as ws:
                await _screen_until(ws, b"New game")
                [game] = _children(served.proc.pid)
                assert _argv(game)[-3:] == ["--data-dir", str(data / "visitors" / visitor), "--served"]
                await ws.close()
            async with asyncio.timeout(serve.STOP_WAIT + 10):
                while _alive(game):
                    await asyncio.sleep(0.05)
        async with aiohttp.ClientSession(cookies={serve.VISITOR_COOKIE: "../../../tmp"}) as forged:
            async with forged.ws_connect(ws_url, origin=served.url.rstrip("/")) as ws:
                await _screen_until(ws, b"New game")
                [game] = _children(served.proc.pid)
                folder = Path(_argv(game)[-2])
                assert folder.parent == data / "visitors" and re.fullmatch(r"[0-9a-f]{32}", folder.name)
                assert folder.name != visitor and _argv(game)[-1] == "--served"
                out, err = await asyncio.to_thread(stop, served.proc)
    assert served.proc.returncode == 130
    assert "Traceback" not in out + err


async def test_private_saves_turn_a_new_visitor_away_when_the_folders_are_full(tmp_path, monkeypatch) -> None:
    """--private-saves: pages cannot fill the disk with visitors' folders (a browser refusing
    cookies is a new visitor each time): beyond MAX_VISITORS a new one is turned away, in one
    line, and a browser whose folder is kept plays on."""
    from aiohttp.test_utils import TestClient, TestServer

    monkeypatch.setattr(serve, "MAX_VISITORS", 2)
    kept, other = "a" * 32, "b" * 32
    for visitor in (kept, other):
        (tmp_path / serve.VISITORS / visitor).mkdir(parents=True)
    argv = [*FAKE_GAME, "--data-dir", str(tmp_path), "--served"]
    server = serve._make_server(argv, "127.0.0.1", 0, private=True)
    async with TestClient(TestServer(await server._make_app())) as client:
        turned_away = await client.get("/ws", headers=upgrade(client))
        assert turned_away.status == 503
        assert await turned_away.text() == "This server has no room for another visitor's games."
        assert not server.games  # no place taken by the refused page
        client.session.cookie_jar.update_cookies({serve.VISITOR_COOKIE: kept})
        ws = await client.ws_connect("/ws", origin=own_page(client))
        async with asyncio.timeout(10):
            while not server.games or None in server.games.values():
                await asyncio.sleep(0.02)
        [game] = server.games.values()
        assert game.argv[-2] == str(tmp_path / serve.VISITORS / kept)
        assert await server.close_all() == 1
        await ws.close()
    assert sorted(p.name for p in (tmp_path / serve.VISITORS).iterdir()) == [kept, other]


def test_visitor_room_counts_folders_only(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(serve, "MAX_VISITORS", 2)
    argv = ["mexitrain", "play", "--data-dir", str(tmp_path), "--served"]
    new, kept = serve.visitor_folder(argv, "c" * 32), serve.visitor_folder(argv, "a" * 32)
    assert new == tmp_path / serve.VISITORS / ("c" * 32)
    assert serve.visitor_room(new)  # no visitors folder yet
    visitors = tmp_path / serve.VISITORS
    (visitors / ("a" * 32)).mkdir(parents=True)
    (visitors / "stray-file").write_text("")
    assert serve.visitor_room(new)
    (visitors / ("b" * 32)).mkdir()
    assert not serve.visitor_room(new)
    assert serve.visitor_room(kept)
