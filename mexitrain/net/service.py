"""A table service: many tables in one process, reached at one address (``mexitrain serve``).

``mexitrain serve`` runs the tables its visitors open (issue #35): a :class:`TableService` on
the serve process's own event loop holds one :class:`~mexitrain.net.server.TableServer` per
table, each with its folder ``tables/<CODE>/`` in the served data folder, none with a port of
its own. Connections reach them through the serve port: a WebSocket at ``/`` speaks the table
protocol (docs/protocol.md), and :meth:`TableService.route` reads its Hello and hands it to
the table its code names (an unknown code is answered ``wrong_code``, late, as a table does).
So ``mexitrain join HOST:PORT CODE`` at a terminal and the visitors' game processes sit at the
same tables.

In-process rather than beside it: one port to open and to put behind a proxy, the route is a
dictionary look-up with no copy of each message, and the computer players already think in
threads (``asyncio.to_thread``), so the pages' event loop never waits on a search.

Every table a stranger can make the server keep is bounded (docs/play-together.md, "Bounds"):
:data:`MAX_TABLES` at once, :data:`TABLES_PER_BROWSER` per browser and
:data:`TABLES_PER_ADDRESS` per address, :data:`MAX_TABLE_FOLDERS` folders on disk; a table
nobody is connected to for :data:`TABLE_IDLE` seconds (:data:`FINISHED_IDLE` once its game is
over) is closed. One browser holds one seat at a table (:meth:`TableService.claim`).

Plain asyncio: the web server (aiohttp) is ``mexitrain serve``'s business
(:mod:`mexitrain.commands.serve`), which gives :meth:`TableService.route` a connection with
a websockets connection's ``recv``/``send``/``close``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..game_setup import GameSetup
from ..i18n import _
from .guard import Admission, Buckets, address_key
from .links import Limits, error
from .protocol import Hello, ProtocolError, Watch, decode_client, encode, normalise_code

log = logging.getLogger(__name__)

#: Tables open at once in one serve process; one more is refused with one line.
MAX_TABLES = 32
#: Tables open at once that one browser (its cookie) created...
TABLES_PER_BROWSER = 2
#: ...and one address (an IPv6 /64: a household behind one router counts once).
TABLES_PER_ADDRESS = 4
#: Table folders kept in ``tables/`` of the served data folder (closed tables' journals
#: included); past it no table is opened, until the operator clears some.
MAX_TABLE_FOLDERS = 1000
#: Seconds a table may have nobody connected before it is closed (its game saved, as a host
#: closing it), and the same once its game is over.
TABLE_IDLE = 1800.0
FINISHED_IDLE = 300.0
#: How often idle tables are looked for, in seconds.
REAP_EVERY = 30.0
#: Table-protocol connections held at once through the serve port, all tables together, and
#: from one address; one more is refused (HTTP 503) before it is a WebSocket.
LINK_CONNECTIONS = 256
LINK_PER_ADDRESS = 32
#: Table pages (``/t/CODE``) one address may ask for at once, and per second after that: a
#: page says whether a code is open, so guessing codes through it is as slow as at a table.
LOOKUP_BURST = 20
LOOKUP_RATE = 0.5
#: Game processes known at once (one per page: ``mexitrain serve`` holds at most its
#: ``MAX_GAMES`` pages; this only bounds the dictionary).
MAX_GAME_KEYS = 1024


class ServiceRefusal(Exception):
    """What the service refuses, in one line for the visitor, with an HTTP status."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


@dataclass
class Visitor:
    """A game process of the serve process: the browser (cookie) and address of its page."""

    browser: str
    address: str


@dataclass
class Table:
    server: Any  # TableServer
    browser: str
    address: str
    idle_since: float
    claims: dict[str, str] = field(default_factory=dict)  # browser -> the key of its game


def seated_text() -> str:
    return _(
        "This browser already has a seat at this table; close the other tab, "
        "or open the link in another browser."
    )


def no_table_text(code: str) -> str:
    return _("There is no table {code} here: it has closed, or the link is mistyped.").format(code=code)


class TableService:
    """The tables of one serve process (see the module docstring). ``root``: the served data
    folder (tables in ``root/tables/<CODE>/``); ``pace``: seconds between two computer moves;
    ``make_table(setup, root, host_seat, open_seats, pace)``: the TableServer (tests)."""

    def __init__(
        self,
        root: str | Path,
        *,
        pace: float = 0.6,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.root = Path(root)
        self.pace = pace
        self.limits = limits or Limits()
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.visitors: dict[str, Visitor] = {}
        self.links = Admission(LINK_CONNECTIONS, LINK_PER_ADDRESS)
        self.lookups = Buckets(LOOKUP_BURST, LOOKUP_RATE, self.limits.tracked)
        #: connections each address opened lately (a table's own bucket, for all tables:
        #: guessing codes costs as much as at one table)
        self.attempts = Buckets(self.limits.attempts_burst, self.limits.attempts_rate, self.limits.tracked)
        self._reaper: asyncio.Task | None = None

    # -- the game processes ------------------------------------------------------------------
    def visitor(self, browser: str, address: str) -> str | None:
        """A new game process's key (None: too many known): what it shows the service to act
        for its page's browser and address."""
        if len(self.visitors) >= MAX_GAME_KEYS:
            return None
        key = secrets.token_urlsafe(24)
        self.visitors[key] = Visitor(browser, address_key(address))
        return key

    def gone(self, key: str | None) -> None:
        """The game process ``key`` ended: its key and its seats' claims go."""
        if key is None or self.visitors.pop(key, None) is None:
            return
        for table in self.tables.values():
            for browser, holder in list(table.claims.items()):
                if holder == key:
                    del table.claims[browser]

    def _who(self, key: str | None) -> Visitor:
        visitor = self.visitors.get(key or "")
        if visitor is None:
            raise ServiceRefusal(403, _("This game is played from its own page only."))
        return visitor

    # -- tables ------------------------------------------------------------------------------
    def _room(self) -> bool:
        count = 0
        with contextlib.suppress(FileNotFoundError), os.scandir(self.root / "tables") as entries:
            for entry in entries:
                count += entry.is_dir(follow_symlinks=False)
                if count >= MAX_TABLE_FOLDERS:
                    return False
        return True

    async def create(self, key: str | None, setup: GameSetup) -> tuple[str, str]:
        """Open a table for ``setup`` for the game ``key``: its first person seat is the
        creator's (the host), the others wait for friends; (code, host token). Refused
        (:class:`ServiceRefusal`) past a bound."""
        from .server import TableServer

        who = self._who(key)
        humans = setup.humans
        if not humans:
            raise ServiceRefusal(400, _("A table needs a person's seat for you."))
        if len(self.tables) >= MAX_TABLES:
            raise ServiceRefusal(
                503, _("This server has {n} tables open, as many as it holds; try again later.").format(n=MAX_TABLES)
            )
        mine = [t for t in self.tables.values() if t.browser == who.browser]
        if len(mine) >= TABLES_PER_BROWSER:
            raise ServiceRefusal(
                429, _("This browser already has {n} tables open; leave one (it closes when nobody is at it).").format(
                    n=TABLES_PER_BROWSER
                ),
            )
        if sum(t.address == who.address for t in self.tables.values()) >= TABLES_PER_ADDRESS:
            raise ServiceRefusal(
                429, _("Your network already has {n} tables open here; try again later.").format(n=TABLES_PER_ADDRESS)
            )
        if not self._room():
            raise ServiceRefusal(507, _("This server has no room for another table."))
        server = TableServer(
            setup, data_dir=self.root, open_seats=tuple(humans[1:]), host_seat=humans[0],
            pace=self.pace, limits=self.limits,
        )
        while server.code in self.tables:  # never two tables with one code (2^27 codes)
            server = TableServer(
                setup, data_dir=self.root, open_seats=tuple(humans[1:]), host_seat=humans[0],
                pace=self.pace, limits=self.limits,
            )
        table = Table(server, who.browser, who.address, self.clock())
        self.tables[server.code] = table  # the place is taken before anything is awaited
        try:
            await server.open_unlistened()
        except BaseException:
            self.tables.pop(server.code, None)
            raise
        table.claims[who.browser] = key or ""
        return server.code, server.host_token

    def claim(self, key: str | None, code: str) -> None:
        """The game ``key`` is to take a seat at ``code``: refused when there is no such table,
        or when another game of the same browser already sits there (one browser, one seat)."""
        who = self._who(key)
        norm = normalise_code(code)
        table = self.tables.get(norm or "")
        if norm is None or table is None:
            raise ServiceRefusal(404, no_table_text(norm or "?"))
        holder = table.claims.get(who.browser)
        if holder is not None and holder != key and holder in self.visitors:
            raise ServiceRefusal(409, seated_text())
        table.claims[who.browser] = key or ""

    def lookup(self, address: str) -> bool:
        """Whether ``address`` may ask for another table page now (:data:`LOOKUP_RATE`)."""
        return self.lookups.take(address_key(address))

    def has(self, code: str) -> bool:
        norm = normalise_code(code)
        return norm is not None and norm in self.tables

    # -- the table protocol --------------------------------------------------------------------
    async def route(self, ws: Any, address: str) -> None:
        """One table-protocol connection (``ws``, admitted by the caller in :attr:`links`):
        read its Hello (or a watcher's Watch), hand it to the table its code names; answer an unreadable Hello, a
        first message that is not one, or an unknown code (after
        :attr:`Limits.wrong_code_delay`, as a table does) with the table's own errors. An
        address opening connections faster than a table allows (:attr:`Limits.attempts_burst`
        at once, :attr:`Limits.attempts_rate` a second) is told ``too_many``."""
        lim = self.limits
        if not self.attempts.take(address_key(address)):  # this address connects too often
            await _fail(ws, error("too_many"))
            return
        try:
            first = await asyncio.wait_for(ws.recv(), lim.hello_timeout)
        except TimeoutError:
            await _fail(ws, error("hello_first"))
            return
        except Exception:  # closed before a word
            return
        try:
            hello = decode_client(first)
        except ProtocolError as exc:
            await _fail(ws, error(exc.code, fatal=True, **exc.values))
            return
        if not isinstance(hello, Hello | Watch):  # a seat's Hello, or a watcher's Watch
            await _fail(ws, error("hello_first"))
            return
        table = self.tables.get(normalise_code(hello.code) or "")
        if table is None:
            await asyncio.sleep(lim.wrong_code_delay)
            await _fail(ws, error("wrong_code"))
            return
        ws.unread(first)
        await table.server.take(ws, address)

    # -- lifetime ------------------------------------------------------------------------------
    async def reopen(self) -> list[str]:
        """At the serve process's start: the tables it held when it last stopped (a game not
        over, a folder written to within :data:`TABLE_IDLE`), newest first, at most
        :data:`MAX_TABLES`, reopened with their codes, seats and tokens, so that their links
        work again and each person takes their seat back; the codes reopened. A table that
        cannot be reopened (its files damaged, another process holding it) stays closed (logged)."""
        from ..storage.savefile import SaveError
        from . import files
        from .server import TableServer

        now = time.time()
        recent: list[tuple[float, str]] = []
        with contextlib.suppress(FileNotFoundError, NotADirectoryError), os.scandir(self.root / "tables") as entries:
            for i, entry in enumerate(entries):
                if i >= MAX_TABLE_FOLDERS:
                    break
                if entry.is_dir(follow_symlinks=False) and normalise_code(entry.name) == entry.name:
                    written = _last_written(entry.path)
                    if now - written <= TABLE_IDLE:
                        recent.append((written, entry.name))
        reopened = []
        for _written, code in sorted(recent, reverse=True):
            if len(self.tables) >= MAX_TABLES:
                break
            if code in self.tables or not files.reopenable(self.root, code):
                continue
            try:
                server = TableServer.resume(self.root, code, pace=self.pace, limits=self.limits)
                await server.open_unlistened()
            except (SaveError, OSError, ValueError) as exc:
                log.warning("table %s not reopened: %s", code, exc)
                continue
            # nobody's yet: the bounds per browser and address count it for no one
            self.tables[code] = Table(server, "", "", self.clock())
            reopened.append(code)
        return reopened

    def start(self) -> None:
        """Start looking for idle tables every :data:`REAP_EVERY` seconds."""
        self._reaper = asyncio.get_running_loop().create_task(self._reap_forever())

    async def _reap_forever(self) -> None:
        while True:
            await asyncio.sleep(REAP_EVERY)
            try:
                await self.reap()
            except Exception:  # pragma: no cover - a bug: the tables go on
                log.exception("reap")

    async def reap(self) -> list[str]:
        """Close the tables nobody has been connected to for :data:`TABLE_IDLE` seconds
        (:data:`FINISHED_IDLE` once the game is over); the codes closed."""
        now = self.clock()
        closed = []
        for code, table in list(self.tables.items()):
            server = table.server
            if server.connections:
                table.idle_since = now
                continue
            state = server.state
            wait = FINISHED_IDLE if state is not None and state.over else TABLE_IDLE
            if now - table.idle_since >= wait:
                closed.append(code)
                await self.close(code)
        return closed

    async def close(self, code: str) -> None:
        table = self.tables.pop(code, None)
        if table is not None:
            with contextlib.suppress(Exception):
                await table.server.stop()

    async def stop(self) -> None:
        """Close every table (each client told ``table_closed``, each game saved)."""
        if self._reaper is not None:
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
        await asyncio.gather(*(self.close(code) for code in list(self.tables)), return_exceptions=True)


def _last_written(folder: str, most: int = 64) -> float:
    """When a table's folder was last written to: its newest file's time (of its first
    ``most`` entries), else the folder's own."""
    newest = 0.0
    with contextlib.suppress(OSError):
        newest = os.stat(folder).st_mtime
        with os.scandir(folder) as entries:
            for i, entry in enumerate(entries):
                if i >= most:
                    break
                with contextlib.suppress(OSError):
                    if entry.is_file(follow_symlinks=False):
                        newest = max(newest, entry.stat(follow_symlinks=False).st_mtime)
    return newest


async def _fail(ws: Any, err: Any) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.send(encode(err)), 2)
    with contextlib.suppress(Exception):
        await ws.close(1008, err.code)


__all__ = [
    "FINISHED_IDLE", "LINK_CONNECTIONS", "LINK_PER_ADDRESS", "MAX_TABLES", "MAX_TABLE_FOLDERS",
    "TABLES_PER_ADDRESS", "TABLES_PER_BROWSER", "TABLE_IDLE", "ServiceRefusal", "TableService",
]
