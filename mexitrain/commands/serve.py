"""``mexitrain serve [--port P] [--host H]``: the game in a web browser.

A small web server (`textual-serve`_, on aiohttp) sends a page holding a terminal (xterm.js);
each visitor's page opens a websocket, and the server starts a game process of its own for it,
``mexitrain play --served`` with the language and the data folder this command runs with, whose
screen and keys travel over that websocket. ``--served`` fences the game's file dialogs in its
data folder (:mod:`mexitrain.ui.fence`): a visitor neither lists nor opens the server's other
files. With ``--private-saves`` each visitor's browser has a data folder of its own,
``visitors/<id>/`` in the served one, ``id`` a random cookie the page sets. Closing the page ends its process (the game is autosaved
after every move, as at a terminal, and offered for resuming next time).

What this module adds to textual-serve's :class:`~textual_serve.server.Server`:

- one line in the player's language with the address to open, printed once the port is bound,
  and one line when Ctrl+C stops the server (exit status 130; SIGTERM stops it the same way,
  143), every game process asked to quit first and killed after :data:`STOP_WAIT` seconds;
- a port in use, a host that is not this machine's: one line (exit status 1 or 2), as every
  other command's errors;
- every value from the network is bounded: the terminal's size (:data:`COLUMNS`,
  :data:`ROWS`), the font size, a websocket message (:data:`MAX_MESSAGE`), the games running
  at once (:data:`MAX_GAMES`), with ``--private-saves`` the visitors' folders
  (:data:`MAX_VISITORS`); a malformed message is ignored, never a traceback;
- every request must name this server in its ``Host`` (:func:`allowed_host`: an IP address, or
  one of the names it serves: ``localhost``, the ``--host`` given, the machine's name when
  serving the network, each ``--allow-host``); another name is refused (HTTP 421), so a page
  whose own name leads to this machine (DNS rebinding) reads nothing and starts no game;
- a websocket must come from this server's own page: a browser's ``Origin`` equal to its
  ``Host``; one from another web site, or without ``Origin``, is refused (HTTP 403), so a page
  elsewhere cannot start games on this server behind the visitor's back; nor may a page
  elsewhere show this one in a frame (``X-Frame-Options``, ``frame-ancestors``);
- the game processes are started without a shell (no quoting of the data folder's name) and in
  a session of their own, so the Ctrl+C typed at the server's terminal reaches only the
  server, which then closes them;
- the page is in the player's language ("Session ended.", "Restart") and asks nothing from
  other sites (textual-serve's page loads a font from Google's servers: that line goes; the
  terminal's font is served here);
- tables (unless ``--no-tables``): a :class:`~mexitrain.net.service.TableService` in this
  process runs the tables the visitors open (New table…), reached on this same port: the
  table protocol as a WebSocket at ``/`` (``mexitrain join HOST:PORT CODE``, and the games),
  a table's page at ``/t/CODE``; each game is told where they are, with a key of its own, in
  its environment (:data:`SERVED_TABLES_ENV`), and a cookie names each browser, which holds
  one seat at a table;
- the page is titled ``mexitrain`` (:data:`PAGE_TITLE`), has an icon (a domino,
  :data:`FAVICON`, at ``/favicon.png``), and its terminal takes the keyboard as soon as the
  page has loaded (:data:`FOCUS_SCRIPT`): Enter starts the game without a click first.

.. _textual-serve: https://github.com/Textualize/textual-serve
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import html
import ipaddress
import json
import os
import re
import secrets
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import i18n
from ..i18n import _, ngettext
from .args import CommandError, UsageError, shown

if TYPE_CHECKING:  # aiohttp and textual-serve are imported only when the command runs
    from aiohttp import web

#: The port served when ``--port`` is not given.
DEFAULT_PORT = 8012
#: The address served when ``--host`` is not given: this machine only.
DEFAULT_HOST = "127.0.0.1"
MAX_PORT = 65535
#: The longest host name (RFC 1035).
MAX_HOST = 253
#: Games (visitors' processes) running at once; one more visitor is turned away (HTTP 503).
MAX_GAMES = 16
#: The terminal sizes a visitor's page may ask for, in cells (a page asking for more gets the
#: largest, for less the smallest): a million columns would cost the game process its memory.
COLUMNS = (20, 400)
ROWS = (8, 200)
#: The font sizes the page may be asked for (``?fontsize=``), in pixels.
FONT_SIZES = (6, 64)
#: The largest websocket message taken from a page (a key, a paste, a resize).
MAX_MESSAGE = 64 * 1024
#: Seconds a game process gets to close when its page goes or the server stops; then killed.
STOP_WAIT = 5.0
#: ``--private-saves``: the cookie naming a visitor's browser (a random 128-bit number in hex),
#: kept this many days, and the folder of the served data folder holding each one's folder.
VISITOR_COOKIE = "mexitrain_visitor"
VISITOR_DAYS = 400
VISITORS = "visitors"
#: ``--private-saves``: the visitors' folders kept at most. A browser whose folder is there
#: plays on; a new one (or one refusing cookies, which is new at every visit) is turned away
#: (HTTP 503) once there are this many, so that pages cannot fill the server's disk.
MAX_VISITORS = 1000
_VISITOR = re.compile(r"[0-9a-f]{32}\Z")
#: The page's title (the browser's tab, bookmarks, history): the program's name, in every
#: language.
PAGE_TITLE = "mexitrain"
#: The page's icon, in the package (``mexitrain/web/``), and the address it is served at.
FAVICON = "favicon.png"
FAVICON_PATH = "/favicon.png"
#: Put in the page: once textual.js has made the terminal (its ``onload`` handler, set before
#: this listener), the terminal takes the keyboard, as a click on it would: xterm.js reads
#: keys from its hidden textarea, which has no focus until then.
FOCUS_SCRIPT = """<script>
      window.addEventListener("load", () => {
        const keys = document.querySelector(".textual-terminal .xterm-helper-textarea");
        if (keys) { keys.focus(); }
      });
    </script>"""

#: Tables (``serve`` without ``--no-tables``, :mod:`mexitrain.net.service`): a table's page
#: is ``/t/CODE`` (its terminal's websocket ``/ws/t/CODE``); the table protocol is a WebSocket
#: at ``/``; the visitors' games open tables and take seats with a POST to
#: :data:`SERVICE_TABLES` and :data:`SERVICE_CLAIM`, showing the key (header
#: :data:`SERVICE_KEY_HEADER`) the server gave each in its environment
#: (:data:`SERVED_TABLES_ENV`), never seen by a page; a body is at most :data:`SERVICE_BODY`.
TABLE_PAGE = "/t/"
SERVICE_TABLES = "/served/tables"
SERVICE_CLAIM = "/served/claim"
SERVICE_KEY_HEADER = "X-Mexitrain-Game"
SERVICE_BODY = 64 * 1024
SERVED_TABLES_ENV = "MEXITRAIN_SERVED_TABLES"

_HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?\Z")
_HOST_HEADER = re.compile(r"([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(:[0-9]{1,5})?\Z")
#: The names every server answers to, whatever its ``--host``: this machine's own.
LOCAL_NAMES = ("localhost",)


# ---------------------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------------------
def port_value(text: str) -> int:
    """``--port P``: 0 to 65535 (0: any free port, the one taken is printed)."""
    from .args import int_between

    return int_between(0, MAX_PORT)(text)


def host_value(text: str) -> str:
    """``--host H``: an IP address (``127.0.0.1``, ``0.0.0.0``, ``::1``) or a host name."""
    host = text.strip()
    if host.startswith("[") and host.endswith("]"):  # [::1], as in an address
        host = host[1:-1]
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if not (0 < len(host) <= MAX_HOST and host.isascii() and _HOST_NAME.match(host)):
            raise argparse.ArgumentTypeError(
                _("expected an IP address or a host name, not {value}").format(value=shown(text))
            ) from None
    return host


def allow_host_value(text: str) -> list[str]:
    """``--allow-host NAME[,NAME...]``: host names the server also answers to (each as
    :func:`host_value` takes it), in lower case."""
    names = []
    for part in text.split(","):
        try:
            names.append(host_value(part).lower().rstrip("."))
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(
                _("expected host names separated by commas, not {value}").format(value=shown(text))
            ) from None
    return names


def add_arguments(p: argparse.ArgumentParser) -> None:
    from .args import add_data_dir_argument

    p.add_argument(
        "--port", type=port_value, default=DEFAULT_PORT, metavar="P",
        help=_("port to serve on (default {port}; 0: any free port)").format(port=DEFAULT_PORT),
    )
    p.add_argument(
        "--host", type=host_value, default=DEFAULT_HOST, metavar="H",
        help=_(
            "address to serve on (default {host}: this machine only; 0.0.0.0 opens the game "
            "to the network)"
        ).format(host=DEFAULT_HOST),
    )
    p.add_argument(
        "--allow-host", type=allow_host_value, action="append", metavar="NAME",
        help=_(
            "another name the page may be opened at (repeat it, or separate names with commas); "
            "the server answers to IP addresses, localhost and --host only, so that a web page "
            "cannot reach it through a name of its own"
        ),
    )
    add_data_dir_argument(p)
    p.add_argument(
        "--private-saves", action="store_true",
        help=_(
            "give each visitor's browser a data folder of its own (saved games, statistics), "
            "in the visitors folder of the data folder; by default every visitor shares it"
        ),
    )
    p.add_argument(
        "--behind-proxy", action="store_true",
        help=_(
            "a reverse proxy on this machine passes the visitors on: count a request from "
            "127.0.0.1 or ::1 for the address its X-Forwarded-For names last (the bounds per address)"
        ),
    )
    p.add_argument(
        "--no-tables", action="store_true",
        help=_(
            "run no tables: the visitors' games offer no New table…, and no table page "
            "(/t/CODE) nor table connection is answered"
        ),
    )


def game_command(args: argparse.Namespace) -> list[str]:
    """The command each visitor's game runs: ``mexitrain play --served`` in this command's
    language and data folder (``--data-dir``, else ``$MEXITRAIN_DATA_DIR``, else the user's; made
    absolute: the server could be started elsewhere). ``--served`` is in the process's own
    arguments, which nothing on the web page reaches; so is ``--no-tables`` (``serve
    --no-tables``): no Host a table… nor Join a table… in the visitors' games."""
    from ..storage import data_dir

    root = data_dir(getattr(args, "data_dir", None)).absolute()
    argv = [sys.executable, "-m", "mexitrain", "play", "--lang", i18n.language(), "--data-dir", str(root), "--served"]
    if getattr(args, "no_tables", False):
        argv.append("--no-tables")
    return argv


def visitor_id(cookie: str | None) -> str | None:
    """The visitor a page's cookie names, if it is one this server could have made."""
    return cookie if cookie is not None and _VISITOR.match(cookie) else None


def visitor_folder(argv: list[str], visitor: str) -> Path:
    """The visitor's own data folder: ``<data folder of argv>/visitors/<visitor>``."""
    if visitor_id(visitor) is None:  # never a path from anywhere else
        raise ValueError(f"not a visitor id: {visitor!r}")
    return Path(argv[argv.index("--data-dir") + 1]) / VISITORS / visitor


def visitor_room(folder: Path) -> bool:
    """Whether a game may start in the visitor's ``folder`` (:data:`MAX_VISITORS`): it is
    there, or fewer than that many visitors' folders are."""
    if folder.is_dir():
        return True
    count = 0
    with contextlib.suppress(FileNotFoundError), os.scandir(folder.parent) as entries:
        for entry in entries:
            count += entry.is_dir(follow_symlinks=False)
            if count >= MAX_VISITORS:
                return False
    return True


def make_visitor_folder(folder: Path) -> bool:
    """Make the visitor's ``folder`` if there is room (:func:`visitor_room`); whether the
    game may start in it. Called on the server's event loop with nothing awaited between the
    count and the ``mkdir``, so newcomers arriving together are counted one after the other
    and never make more than :data:`MAX_VISITORS` folders. A folder that cannot be made is
    no room either (the game could keep nothing there)."""
    if not visitor_room(folder):
        return False
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        folder.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return False
    return folder.is_dir()


def visitor_command(argv: list[str], visitor: str) -> list[str]:
    """``argv`` (:func:`game_command`) with the data folder the visitor's own
    (:func:`visitor_folder`)."""
    folder = visitor_folder(argv, visitor)
    argv = list(argv)
    argv[argv.index("--data-dir") + 1] = str(folder)
    return argv


# ---------------------------------------------------------------------------------------
# Addresses
# ---------------------------------------------------------------------------------------
def _in_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def served_names(host: str, allowed: list[str] | tuple[str, ...] = ()) -> frozenset[str]:
    """The host names the server answers to (lower case, no final dot): ``localhost``, the
    ``--host`` given (when it is a name), the machine's name when serving the network (the
    address line prints it), and each ``--allow-host``. IP addresses are answered to anyway
    (:func:`allowed_host`)."""
    names = {*LOCAL_NAMES, *allowed}
    if _wildcard(host):
        names.add(socket.gethostname())
    else:
        names.add(host)
    return frozenset(n.lower().rstrip(".") for n in names if n)


def client_address(remote: str | None, forwarded_for: str | None, behind_proxy: bool) -> str:
    """The address a request is counted for (the bounds per address): the connection's own
    (``remote``); with ``behind_proxy`` (``serve --behind-proxy``: a reverse proxy on this
    machine), a connection from this machine (127.0.0.1, ::1) that carries ``X-Forwarded-For``
    is counted for the last address there, the one the proxy itself saw (the ones before it
    are the client's to write, and not believed). Anything that is not an IP address there
    counts as the connection's own address.

    >>> client_address("127.0.0.1", "6.6.6.6, 203.0.113.7", True)
    '203.0.113.7'
    >>> client_address("127.0.0.1", "203.0.113.7", False), client_address("198.51.100.2", "203.0.113.7", True)
    ('127.0.0.1', '198.51.100.2')
    >>> client_address("::1", "not an address", True)
    '::1'
    """
    own = remote or "?"
    if not behind_proxy or not forwarded_for:
        return own
    try:
        if not ipaddress.ip_address(own).is_loopback:
            return own
        last = forwarded_for[-64:].rsplit(",", 1)[-1].strip()
        return str(ipaddress.ip_address(last.strip("[]")))
    except ValueError:
        return own


def allowed_host(header: str | None, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` names this server: an IP address (a page at an address is
    this server's own: a browser sends a page's requests to the address it came from), or one
    of ``names`` (:func:`served_names`), with or without a port. A name that is not one of
    them is how a page of another site reaches this server through DNS (a name of the
    attacker's that leads to 127.0.0.1): refused, as a request without ``Host``."""
    m = _HOST_HEADER.match(header or "")
    if not m:
        return False
    name = m[1]
    if name.startswith("["):  # [::1]: only an IPv6 address is written so
        try:
            return ipaddress.ip_address(name[1:-1]).version == 6
        except ValueError:
            return False
    try:
        ipaddress.IPv4Address(name)
        return True
    except ValueError:
        return name.lower().rstrip(".") in names


def address_line(host: str, port: int) -> str:
    """The line printed once the server listens: the address to open."""
    if _wildcard(host):
        local = "[::1]" if ":" in host else "127.0.0.1"
        return _(
            "Serving Mexican Train to the network: open http://{host}:{port}/ in a web browser "
            "(here: http://{local}:{port}/); Ctrl+C stops"
        ).format(host=_in_url(socket.gethostname()), local=local, port=port)
    return _("Serving Mexican Train: open http://{host}:{port}/ in a web browser; Ctrl+C stops").format(
        host=_in_url(host), port=port
    )


def _bind_error(exc: OSError, host: str, port: int) -> Exception:
    """Why the server could not listen, as the command's one-line error."""
    if isinstance(exc, socket.gaierror):
        return UsageError(
            _("argument {argument}: {message}").format(
                argument="--host", message=_("no such host {host}").format(host=shown(host))
            )
        )
    if exc.errno == errno.EADDRINUSE:
        return CommandError(
            _("port {port} is already in use on {host}; choose another with --port").format(
                port=port, host=host
            )
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return UsageError(
            _("argument {argument}: {message}").format(
                argument="--host",
                message=_("{host} is not an address of this machine").format(host=shown(host)),
            )
        )
    return CommandError(
        _("cannot serve on {host} port {port}: {reason}").format(
            host=host, port=port, reason=exc.strerror or type(exc).__name__
        )
    )


def _bounded(value: Any, bounds: tuple[int, int], default: int) -> int:
    """A whole number from the network, brought within ``bounds`` (``default`` if none)."""
    if isinstance(value, str):
        value = value.strip()
        if not value.isascii() or not value.isdigit():
            return default
        value = int(value) if len(value) <= 9 else bounds[1]  # never int() of 5000 digits
    if not isinstance(value, int) or isinstance(value, bool):
        return default
    low, high = bounds
    return max(low, min(high, value))


# ---------------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------------
def _make_server(
    argv: list[str], host: str, port: int, *, private: bool = False, allowed: list[str] | tuple[str, ...] = (),
    tables: Any = None, behind_proxy: bool = False,
):
    """The web server, its classes defined here so that aiohttp and textual-serve are imported
    only by this command. ``private``: each visitor's game in the visitor's own data folder
    (:func:`visitor_command`), the visitor named by a cookie the page sets. ``allowed``: the
    ``--allow-host`` names, answered to besides :func:`served_names`' own. ``tables``: the
    :class:`~mexitrain.net.service.TableService` whose tables the visitors' games open and
    join (None: ``--no-tables``). ``behind_proxy``: the bounds per address count a request
    from this machine for the address its proxy names (:func:`client_address`)."""
    from aiohttp import WSCloseCode, WSMsgType, web

    def remote(request: web.Request) -> str:
        return client_address(request.remote, request.headers.get("X-Forwarded-For"), behind_proxy)

    names = served_names(host, allowed)
    icon = favicon()  # read once (a file of the package: a broken install fails here, at once)

    @web.middleware
    async def check_host(request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        """Every request (the page, its scripts, the websocket, a download) names this server
        in its ``Host`` (:func:`allowed_host`), else HTTP 421 and nothing more."""
        if not allowed_host(request.headers.get("Host"), names):
            raise web.HTTPMisdirectedRequest(
                text=_("This server does not answer to that name (its owner may add it with --allow-host).")
            )
        return await handler(request)

    async def not_framed(request: web.Request, response: web.StreamResponse) -> None:
        """No page of another site may show this one in a frame (where a visitor could be
        led to type into a game they do not see): every response says so."""
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Content-Security-Policy"] = "frame-ancestors 'none'"
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    class GameProcess(AppService):
        """One visitor's game: ``argv`` started without a shell, in a session of its own."""

        def __init__(
            self, argv: list[str], on_closed: Callable[[], object], env: dict[str, str] | None = None, **kwargs: Any
        ) -> None:
            super().__init__(" ".join(argv), **kwargs)
            self.argv = argv
            self.env = env or {}
            self._on_closed = on_closed
            self._closing: asyncio.Future[None] | None = None

        async def _open_app_process(self, width: int = 80, height: int = 24):
            environment = {**self._build_environment(width=width, height=height), **self.env}
            self._process = process = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=environment,
                start_new_session=True,
            )
            self._stdin = process.stdin
            return process

        def close(self) -> asyncio.Future[None]:
            """Ask the game to quit; kill it if it has not within :data:`STOP_WAIT` s; then
            ``on_closed()``. Every caller awaits the same closing, which goes on even if a
            caller is cancelled (aiohttp cancels the handler of a page that went)."""
            if self._closing is None:
                self._closing = asyncio.ensure_future(self._close())
            return asyncio.shield(self._closing)

        async def _close(self) -> None:
            process = self._process
            try:
                try:
                    async with asyncio.timeout(STOP_WAIT):
                        await self.stop()
                        if process is not None:
                            # its end is seen by asyncio's child watcher before the process
                            # object goes (else asyncio's clean-up may reap it first, and
                            # the watcher warn of an "Unknown child process")
                            await process.wait()
                except TimeoutError:
                    pass
                if process is not None and process.returncode is None:
                    process.kill()
                    await process.wait()
            finally:
                self._on_closed()

    class GameServer(Server):
        def __init__(self) -> None:
            super().__init__(" ".join(argv), host=host, port=port, title=_("Mexican Train"))
            self.argv = argv
            self.games: dict[web.WebSocketResponse, GameProcess | None] = {}
            #: the table service (None: --no-tables) and its address for the game processes
            #: (set once the port is bound: :func:`_serve`)
            self.tables = tables
            self.service_url: str | None = None

        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            app.router.add_get(FAVICON_PATH, self.handle_favicon)
            if self.tables is not None:
                app.router.add_get(TABLE_PAGE + "{code}", self.handle_table_page)
                app.router.add_get("/ws" + TABLE_PAGE + "{code}", self.handle_websocket)
                app.router.add_post(SERVICE_TABLES, self.handle_new_table)
                app.router.add_post(SERVICE_CLAIM, self.handle_claim)
            app.middlewares.append(check_host)
            app.on_response_prepare.append(not_framed)
            return app

        async def on_startup(self, app: web.Application) -> None:
            """textual-serve's banner is not printed: :func:`run` prints the address."""

        async def close_all(self) -> int:
            """Close every page's websocket and its game; how many there were."""
            open_now = list(self.games.items())
            await asyncio.gather(
                *(ws.close(code=WSCloseCode.GOING_AWAY) for ws, _game in open_now),
                *(game.close() for _ws, game in open_now if game is not None),
                return_exceptions=True,
            )
            return len(open_now)

        async def handle_favicon(self, request: web.Request) -> web.Response:
            """The page's icon (:func:`favicon`)."""
            return web.Response(
                body=icon, content_type="image/png",
                headers={"Cache-Control": "max-age=86400"},
            )

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            """The page, in the player's language, its websocket's address the one the page
            was asked at (so that it works through any of the machine's names). A WebSocket
            asked at ``/`` speaks the table protocol (:meth:`handle_table_link`)."""
            if self.tables is not None and request.headers.get("Upgrade", "").lower() == "websocket":
                return await self.handle_table_link(request)
            return self.page(request, "/ws")

        def page(self, request: web.Request, websocket_path: str) -> web.Response:
            import aiohttp_jinja2

            origin = self.public_url
            if _HOST_HEADER.match(request.host or ""):
                origin = f"{request.scheme}://{request.host}"
            font_size = _bounded(request.query.get("fontsize", "16"), FONT_SIZES, 16)
            context = {
                "font_size": font_size,
                "app_websocket_url": ("wss:" if origin.startswith("https:") else "ws:")
                + origin.partition(":")[2] + websocket_path,
                "config": {"static": {"url": origin + "/static/"}},
                "application": {"name": self.title},
            }
            page = aiohttp_jinja2.render_string("app_index.html", request, context)
            response = web.Response(text=translate_page(page), content_type="text/html")
            if private or self.tables is not None:  # the visitor's browser is named (again: kept another VISITOR_DAYS)
                # Lax, not Strict: a table's link opened from a mail or a chat is a navigation
                # from another site, where a Strict cookie is not sent; the page would name the
                # browser anew (another seat, another folder). Lax still keeps it from other
                # sites' requests in the background, and the websocket must come from this page.
                visitor = visitor_id(request.cookies.get(VISITOR_COOKIE)) or secrets.token_hex(16)
                response.set_cookie(
                    VISITOR_COOKIE, visitor, max_age=VISITOR_DAYS * 86400, path="/",
                    httponly=True, samesite="Lax",
                )
            return response

        def command_for(self, request: web.Request) -> list[str]:
            """The game command for this page: with ``private``, in its visitor's folder (a
            page without the cookie, a browser refusing cookies, gets a new one each time),
            its folder made here, before anything is awaited (so that a burst of newcomers is
            counted one by one); HTTP 503 when a new visitor's folder would be one too many
            (:data:`MAX_VISITORS`)."""
            if not private:
                return self.argv
            visitor = visitor_id(request.cookies.get(VISITOR_COOKIE)) or secrets.token_hex(16)
            if not make_visitor_folder(visitor_folder(self.argv, visitor)):
                raise web.HTTPServiceUnavailable(
                    text=_("This server has no room for another visitor's games.")
                )
            return visitor_command(self.argv, visitor)

        async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
            if not same_origin(request.headers.get("Origin"), request.host):
                raise web.HTTPForbidden(text=_("This game is played from its own page only."))
            if len(self.games) >= MAX_GAMES:
                raise web.HTTPServiceUnavailable(
                    text=_("Too many games are running; try again later.")
                )
            command = self.command_for(request)
            env, key = self.table_env(request)
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE, timeout=2.0)
            self.games[websocket] = None  # the place is taken before anything is awaited
            width = _bounded(request.query.get("width"), COLUMNS, 80)
            height = _bounded(request.query.get("height"), ROWS, 24)
            game: GameProcess | None = None
            try:
                await websocket.prepare(request)
                game = GameProcess(
                    command,
                    on_closed=lambda: self._closed(websocket, key),  # its place is free
                    env=env,
                    write_bytes=websocket.send_bytes,
                    write_str=websocket.send_str,
                    close=websocket.close,
                    download_manager=self.download_manager,
                )
                self.games[websocket] = game
                await game.start(width, height)
                await self._process_messages(websocket, game)
            except asyncio.CancelledError:
                pass
            except (ConnectionError, OSError):  # the page went while its game started
                pass
            finally:
                if game is None:
                    self._closed(websocket, key)
                else:
                    await game.close()
                if not websocket.closed:
                    await websocket.close()
            return websocket

        def _closed(self, websocket: web.WebSocketResponse, key: str | None) -> None:
            self.games.pop(websocket, None)
            if self.tables is not None:
                self.tables.gone(key)

        def table_env(self, request: web.Request) -> tuple[dict[str, str], str | None]:
            """What a page's game is told of the table service (:data:`SERVED_TABLES_ENV`): its
            address, the game's own key (what it shows the service to act for this page's
            browser), the address the visitor used (for the links it shows: the page's
            ``Origin``, which :func:`same_origin` checked), the table of a ``/t/CODE`` page."""
            if self.tables is None or self.service_url is None:
                return {}, None
            browser = visitor_id(request.cookies.get(VISITOR_COOKIE)) or secrets.token_hex(16)
            key = self.tables.visitor(browser, remote(request))
            if key is None:
                return {}, None
            from ..net.protocol import normalise_code

            code = normalise_code(request.match_info.get("code", "")) if "code" in request.match_info else None
            import hashlib

            told = {
                "service": self.service_url, "key": key, "link": request.headers.get("Origin", ""), "table": code,
                "browser": hashlib.sha256(browser.encode("ascii")).hexdigest()[:32],
            }
            return {SERVED_TABLES_ENV: json.dumps(told)}, key

        async def handle_table_page(self, request: web.Request) -> web.Response:
            """``/t/CODE``: the page, whose game goes straight to that table's lobby; an
            unknown or closed code is one line (HTTP 404); an address asking for too many
            pages is told to wait (HTTP 429: pages must not be a fast way to guess codes)."""
            from ..net.protocol import normalise_code
            from ..net.service import no_table_text

            if not self.tables.lookup(remote(request)):
                raise web.HTTPTooManyRequests(text=_("Too many table pages asked for; try again in a minute."))
            code = normalise_code(request.match_info["code"])
            if code is None or not self.tables.has(code):
                raise web.HTTPNotFound(text=no_table_text(code or shown(request.match_info["code"][:32])))
            return self.page(request, "/ws" + TABLE_PAGE + code)

        async def _service_call(self, request: web.Request) -> tuple[str | None, Any]:
            key = request.headers.get(SERVICE_KEY_HEADER)
            try:
                body = await request.content.read(SERVICE_BODY + 1)
                data = json.loads(body) if len(body) <= SERVICE_BODY else None
            except ValueError:
                data = None
            if not isinstance(data, dict):
                raise web.HTTPBadRequest(text="?")
            return key, data

        async def handle_new_table(self, request: web.Request) -> web.Response:
            """A game opens a table (its key says for which page): ``{"setup": ...}`` ->
            ``{"code", "host_token"}``, or the refusal's line and status."""
            from pydantic import ValidationError

            from ..game_setup import GameSetup
            from ..net.service import ServiceRefusal

            key, data = await self._service_call(request)
            try:
                setup = GameSetup.model_validate(data.get("setup"))
                code, token = await self.tables.create(key, setup)
            except ValidationError:
                return web.json_response({"error": "setup"}, status=400)
            except ServiceRefusal as refusal:
                return web.json_response({"error": refusal.text}, status=refusal.status)
            return web.json_response({"code": code, "host_token": token})

        async def handle_claim(self, request: web.Request) -> web.Response:
            """A game is to take a seat at ``{"code"}``: ``{}``, or the refusal's line."""
            from ..net.service import ServiceRefusal

            key, data = await self._service_call(request)
            try:
                self.tables.claim(key, str(data.get("code", ""))[:32])
            except ServiceRefusal as refusal:
                return web.json_response({"error": refusal.text}, status=refusal.status)
            return web.json_response({})

        async def handle_table_link(self, request: web.Request) -> web.StreamResponse:
            """The table protocol at ``/`` (``mexitrain join HOST:PORT CODE``, and the
            visitors' games): a terminal's client sends no ``Origin``, a page of this server
            its own; a page of another site is refused (HTTP 403). The connections held are
            bounded (:data:`~mexitrain.net.service.LINK_CONNECTIONS`, per address
            :data:`~mexitrain.net.service.LINK_PER_ADDRESS`: HTTP 503); then the service
            reads the Hello and hands it to its table."""
            origin = request.headers.get("Origin")
            if origin is not None and not same_origin(origin, request.host):
                raise web.HTTPForbidden(text=_("This game is played from its own page only."))
            from ..net.guard import address_key

            address = remote(request)
            ws = web.WebSocketResponse(
                heartbeat=self.tables.limits.ping_interval, max_msg_size=self.tables.limits.frame_cap,
                timeout=self.tables.limits.close_timeout,
            )
            link = TableLink(ws)
            if self.tables.links.open(link, address_key(address)) is not None:
                raise web.HTTPServiceUnavailable(text=_("Too many connections to the tables; try again later."))
            try:
                await ws.prepare(request)
                await self.tables.route(link, address)
            except (asyncio.CancelledError, ConnectionError, OSError):
                pass
            finally:
                self.tables.links.close(link, address_key(address))
                if not ws.closed:
                    with contextlib.suppress(Exception):
                        await ws.close()
            return ws

        async def _process_messages(self, websocket: web.WebSocketResponse, app_service: Any) -> None:
            """The page's messages to its game: keys, size, focus; anything else ignored."""
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    envelope = json.loads(message.data)
                except ValueError:
                    continue
                if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                    continue
                kind, data = envelope[0], (envelope[1] if len(envelope) > 1 else None)
                if kind == "stdin" and isinstance(data, str):
                    await app_service.send_bytes(data.encode("utf-8", "replace"))
                elif kind == "resize" and isinstance(data, dict):
                    await app_service.set_terminal_size(
                        _bounded(data.get("width"), COLUMNS, 80), _bounded(data.get("height"), ROWS, 24)
                    )
                elif kind == "ping":
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    await app_service.blur()
                elif kind == "focus":
                    await app_service.focus()

    return GameServer()


class TableLink:
    """An aiohttp WebSocket as the table server reads one (websockets' ``recv``, ``send``,
    ``close``, async iteration, :class:`~websockets.exceptions.ConnectionClosed` at the end),
    with the Hello the service read put back (:meth:`unread`)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.address = ""
        self._unread: list[str] = []

    @property
    def transport(self) -> Any:
        request = getattr(self.ws, "_req", None)
        return None if request is None else request.transport

    def unread(self, text: str) -> None:
        self._unread.append(text)

    async def recv(self) -> str | bytes:
        from aiohttp import WSMsgType
        from websockets.exceptions import ConnectionClosed

        if self._unread:
            return self._unread.pop()
        message = await self.ws.receive()
        if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
            return message.data
        raise ConnectionClosed(None, None)

    def __aiter__(self) -> TableLink:
        return self

    async def __anext__(self) -> str | bytes:
        from websockets.exceptions import ConnectionClosed

        try:
            return await self.recv()
        except ConnectionClosed:
            raise StopAsyncIteration from None

    async def send(self, text: str) -> None:
        from websockets.exceptions import ConnectionClosed

        if self.ws.closed:
            raise ConnectionClosed(None, None)
        try:
            await self.ws.send_str(text)
        except (ConnectionError, RuntimeError) as exc:
            raise ConnectionClosed(None, None) from exc

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self.ws.close(code=code, message=reason.encode("utf-8")[:120])


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a websocket may open: a browser always says which page opens it (``Origin``),
    and it must be a page of this server (the same host and port as the request's ``Host``,
    which :func:`allowed_host` checked). A request without ``Origin`` is refused too: the
    page always sends one, and a program that is not a browser can send the right one."""
    if origin is None:
        return False
    scheme, sep, rest = origin.partition("://")
    return bool(sep) and scheme in ("http", "https") and bool(host) and rest == host


#: textual-serve's page's own words, and the font it loads from Google's servers.
_PAGE_WORDS: dict[str, Callable[[], str]] = {
    ">Session ended.<": lambda: ">" + html.escape(_("Session ended.")) + "<",
    '">Restart<': lambda: '">' + html.escape(_("Restart")) + "<",
    '">Start<': lambda: '">' + html.escape(_("Start")) + "<",
}
_GOOGLE_FONT = re.compile(r'\s*<link\s+rel="stylesheet"\s+href="https://fonts\.googleapis\.com[^>]*/>')


def translate_page(page: str) -> str:
    """textual-serve's page in the player's language, with ``lang`` set, without the font
    from Google's servers, with its title, its icon and :data:`FOCUS_SCRIPT`."""
    page = _GOOGLE_FONT.sub("", page)
    for english, translated in _PAGE_WORDS.items():
        page = page.replace(english, translated())
    head = (
        f"<title>{html.escape(PAGE_TITLE)}</title>\n"
        f'    <link rel="icon" type="image/png" href="{FAVICON_PATH}" />\n'
        f"    {FOCUS_SCRIPT}\n  </head>"
    )
    page = page.replace("</head>", head, 1)
    return page.replace("<html>", f'<html lang="{i18n.language()}">', 1)


def favicon() -> bytes:
    """The page's icon (:data:`FAVICON`), read from the package."""
    from importlib.resources import files

    return (files("mexitrain") / "web" / FAVICON).read_bytes()


async def _serve(server, host: str, port: int, announce: Callable[[int], None]) -> tuple[int, int]:
    """Listen until SIGINT or SIGTERM; (the signal, the games that were open then)."""
    from aiohttp import web

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    received: list[int] = []

    def on_signal(signum: int) -> None:
        received.append(signum)
        stop.set()

    app = await server._make_app()
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=STOP_WAIT + 1)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            raise _bind_error(exc, host, port) from None
        bound = runner.addresses[0][1] if runner.addresses else port  # --port 0: the one taken
        server.public_url = f"http://{_in_url(host)}:{bound}"  # the page's fallback address
        if getattr(server, "tables", None) is not None:  # the games reach the tables here
            server.service_url = f"http://{_in_url(service_host(host))}:{bound}"
            await server.tables.reopen()  # the tables of the last run: their links work again
            server.tables.start()
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(signum, on_signal, signum)
            except (NotImplementedError, RuntimeError):  # Windows: Ctrl+C is KeyboardInterrupt
                pass
        announce(bound)
        try:
            await stop.wait()
        finally:
            for signum in (signal.SIGINT, signal.SIGTERM):
                try:
                    loop.remove_signal_handler(signum)
                except (NotImplementedError, RuntimeError):
                    pass
        games = await server.close_all()
    finally:
        if getattr(server, "tables", None) is not None:
            await server.tables.stop()
        await runner.cleanup()
    return received[0], games


def service_host(host: str) -> str:
    """Where the visitors' games reach the tables: this machine's own address when serving
    the network (``0.0.0.0``, ``::``), else the address served."""
    if _wildcard(host):
        return "::1" if ":" in host else "127.0.0.1"
    return host


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl+C: one line with the address, one line when stopped (status 130)."""
    host, port = args.host, args.port
    allowed = [name for names in (getattr(args, "allow_host", None) or ()) for name in names]
    argv = game_command(args)
    tables = None
    if not getattr(args, "no_tables", False):
        from ..net.service import TableService

        tables = TableService(argv[argv.index("--data-dir") + 1])
    server = _make_server(
        argv, host, port, private=getattr(args, "private_saves", False), allowed=allowed, tables=tables,
        behind_proxy=getattr(args, "behind_proxy", False),
    )

    def announce(bound: int) -> None:
        print(address_line(host, bound), flush=True)

    signum, games = asyncio.run(_serve(server, host, port, announce))
    print(
        ngettext(
            "stopped serving; {n} game closed (a game in progress is autosaved)",
            "stopped serving; {n} games closed (a game in progress is autosaved)",
            games,
        ).format(n=games),
        file=sys.stderr,
        flush=True,
    )
    return 128 + signum
