"""The table server: the only authority on one game played over the network (docs/protocol.md).

It holds the one :class:`~mexitrain.rules.GameState`, checks every intent with the rules
(:func:`mexitrain.rules.apply`), plays the computer seats on their own view (in a thread, so the
event loop never waits on a search), sends each client its own seat's view after every action
and autosaves the game after every action (:class:`mexitrain.storage.autosaver.Autosaver`,
into ``tables/<CODE>/game.json``; the code, tokens and seats beside it in ``table.json``,
:mod:`mexitrain.storage.tokens`). A finished game is counted in the statistics and kept in
``saves/`` like a game saved under a name.

Nothing a client sends can stop the table or reach another seat: every message is decoded
strictly (a bad one is an :class:`Error`, the connection stays open unless it is fatal), a
client that sends too much is cut off (a token bucket), and each client has its own bounded
send queue, so a slow reader never holds the others up (it is dropped when too far behind,
and may join again with its token).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import random
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from ..players import make_player
from ..rules import ACTION_ADAPTER, GameState, IllegalAction, apply, new_game, view
from ..storage import locks, tokens
from ..storage.autosaver import Autosaver
from ..storage.paths import saves_dir
from ..storage.savefile import SaveError, load_save
from ..storage.saves import save_game
from ..table import DEFAULT_NAMES, PLAY_STRIDE, GameSetup, SeatConfig, seat_seed
from .protocol import (
    MAX_CLIENT_MESSAGE,
    PROTOCOL_VERSION,
    Away,
    Bye,
    Error,
    HandOver,
    Hello,
    Intent,
    Lobby,
    LobbySeat,
    ProtocolError,
    Refused,
    StartGame,
    Update,
    Welcome,
    decode_client,
    encode,
    new_code,
    normalise_code,
    refused_of,
)

log = logging.getLogger(__name__)

#: Errors after which reconnecting cannot help: the client stops (TableClient.run returns).
FATAL = frozenset({"version", "hello_first", "wrong_code", "bad_token", "bad_name", "table_full", "replaced", "flood"})


@dataclass(frozen=True)
class Limits:
    """What one client may cost the server."""

    hello_timeout: float = 10.0  # seconds to send Hello after connecting
    send_queue: int = 256  # messages waiting for one client; more: dropped as too slow
    burst: int = 200  # the token bucket: messages at once...
    rate: float = 100.0  # ...and per second after that (a person sends a few; a bot may play fast)
    frame_cap: int = 4 * MAX_CLIENT_MESSAGE  # larger frames: websockets closes (1009)
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    close_timeout: float = 2.0
    write_limit: int = 64 * 1024  # bytes buffered for one client before a send waits
    sndbuf: int | None = None  # the kernel's send buffer for each connection (None: the system's)


@dataclass(eq=False)
class _Seat:
    index: int
    name: str
    kind: str  # "person" | "computer" | "open"
    level: str | None = None
    token: str | None = None
    handed: bool = False  # a person's seat played by a computer of ``level`` while they are away
    conn: _Conn | None = None
    away_since: float | None = None  # time.monotonic() of the drop
    player: Any = None

    @property
    def computer_plays(self) -> bool:
        return self.kind == "computer" or (self.kind == "person" and self.handed)


@dataclass(eq=False)
class _Conn:
    ws: ServerConnection
    queue: asyncio.Queue[str]
    seat: int | None = None
    host: bool = False
    tokens: float = 0.0
    stamp: float = field(default_factory=time.monotonic)
    closing: bool = False
    sender: asyncio.Task | None = None


Event = Callable[..., None]  # on_event(kind, **values): "joined", "back", "left", "started", "over"


class TableServer:
    """One table. ``setup`` gives the rules, the seed and each seat's name and kind; seats in
    ``open_seats`` wait for people to join, ``host_seat`` is the host's (its token is
    :attr:`host_token`), the other seats are computer players of their setup's level.
    ``pace``: seconds between two computer moves (0 in tests)."""

    def __init__(
        self,
        setup: GameSetup,
        *,
        data_dir: str | Path,
        open_seats: tuple[int, ...],
        host_seat: int | None,
        code: str | None = None,
        pace: float = 0.0,
        limits: Limits | None = None,
        rng: random.Random | None = None,
        on_event: Event | None = None,
        start_when_full: str | None = None,
    ) -> None:
        self.setup = setup
        self.root = Path(data_dir)
        self.pace = pace
        self.limits = limits or Limits()
        self.on_event = on_event
        #: the level the open seats get when the last open seat is taken (None: wait for StartGame)
        self.start_when_full = start_when_full
        rng = rng or random.SystemRandom()
        self.code = normalise_code(code) if code else new_code(rng)
        if self.code is None:
            raise ValueError(f"not a table code: {code!r}")
        self.host_seat = host_seat
        self.host_token = secrets.token_urlsafe(24)
        self.seats: list[_Seat] = []
        for i, cfg in enumerate(setup.seats):
            if i == host_seat:
                self.seats.append(_Seat(i, cfg.name, "person", token=self.host_token))
            elif i in open_seats or cfg.is_human:
                self.seats.append(_Seat(i, "", "open"))
            else:
                self.seats.append(_Seat(i, cfg.name, "computer", level=cfg.kind))
        self.state: GameState | None = None
        self.seq = 0  # actions applied
        self.port: int | None = None
        self._server: Server | None = None
        self._conns: set[_Conn] = set()
        self._kick = asyncio.Event()
        self._driver: asyncio.Task | None = None
        self._saver = Autosaver(self.root)
        self._kept = False  # the finished game was saved in saves/
        self._journal: tokens.Journal | None = None
        self.errors = 0  # internal errors (tests)

    # -- files ----------------------------------------------------------------------------------
    @property
    def game_path(self) -> Path:
        return tokens.game_path(self.root, self.code)

    def _table_file(self) -> tokens.TableFile:
        return tokens.TableFile(
            code=self.code,
            host_token=self.host_token,
            host_seat=self.host_seat,
            seats=tuple(
                tokens.TableSeat(name=s.name, kind=s.kind, level=s.level, token=s.token, handed=s.handed)
                for s in self.seats
            ),
            started=self.state is not None,
            over=self.state is not None and self.state.over,
            port=self.port,
            setup=self.setup.model_dump(mode="json"),
        )

    def _write_table(self) -> None:
        try:
            tokens.save_table(self.root, self._table_file())
        except SaveError as exc:  # the game goes on; a resume would miss the latest seat change
            log.warning("table file: %s", exc)

    @classmethod
    def resume(cls, data_dir: str | Path, code: str | None = None, **kwargs: Any) -> TableServer:
        """Reopen a table from ``tables/<CODE>/`` (the newest one without ``code``): the same
        code, tokens and seats, the game where its autosave left it. Raises :class:`SaveError`
        (``code`` "no_table" when there is none, "busy" when another server holds it)."""
        root = Path(data_dir)
        if code:
            codes = [c for c in [normalise_code(code)] if c]
        else:
            codes = [c for c in tokens.tables(root) if _reopenable(root, c)]
        if not codes:
            raise SaveError("no table to reopen", action="load", code="no_table")
        meta = tokens.load_table(root, codes[0])
        setup = GameSetup.model_validate(meta.setup)
        state = None
        path = tokens.game_path(root, meta.code)
        if meta.started:
            if locks.held_elsewhere(path):
                raise SaveError(f"cannot resume {path}: it is open in another process", path, action="resume", code="busy")
            if path.exists():
                game = load_save(path)
                setup, state = game.setup, game.state
            else:  # killed before the first autosave: the deal, and the journal below
                state = new_game(setup.rules, players=setup.players, seed=setup.seed)
            state = _replay_journal(root, meta.code, state)
        server = cls(
            setup, data_dir=root, open_seats=(), host_seat=meta.host_seat, code=meta.code, **kwargs
        )
        server.host_token = meta.host_token
        server.seats = [
            _Seat(i, s.name, s.kind, level=s.level, token=s.token, handed=s.handed) for i, s in enumerate(meta.seats)
        ]
        for s in server.seats:
            if s.kind == "person":
                s.away_since = time.monotonic()
        server.port = meta.port
        if state is not None:
            server.state = state
            server.seq = _count_actions(state)
            server._saver.adopt(path, setup)
            server._saver.submit(state, setup, None)
            server._journal = tokens.Journal(root, meta.code)
        return server

    # -- lifetime -------------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``host``:``port`` (0: a free port); returns the port bound."""
        lim = self.limits
        self._server = await serve(
            self._handle,
            host,
            port,
            max_size=lim.frame_cap,
            max_queue=8,
            ping_interval=lim.ping_interval,
            ping_timeout=lim.ping_timeout,
            close_timeout=lim.close_timeout,
            compression=None,
            write_limit=lim.write_limit,
        )
        sock = next(iter(self._server.sockets))
        self.port = sock.getsockname()[1]
        self._write_table()
        self._driver = asyncio.create_task(self._drive())
        if self.state is not None:
            self._kick.set()
        return self.port

    async def stop(self) -> None:
        """Close every connection (each client is told ``server_closing``: it will retry) and
        stop listening; the autosave is written out."""
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver
        for conn in list(self._conns):
            self._send(conn, Error(code="server_closing"))
        for conn in list(self._conns):
            await self._close(conn, 1001, "server closing")
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)
        await asyncio.to_thread(self._saver.close)
        if self._journal is not None:
            self._journal.close()

    # -- the lobby ------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.state is not None

    def lobby(self) -> Lobby:
        return Lobby(
            seats=tuple(
                LobbySeat(
                    seat=s.index,
                    name=s.name,
                    kind=s.kind,  # type: ignore[arg-type]
                    level=s.level if s.computer_plays else None,
                    connected=s.conn is not None,
                )
                for s in self.seats
            ),
            rules=self.setup.rules,
            started=self.started,
        )

    def start_game(self, level: str = "planner") -> bool:
        """Start now: the open seats become computer players of ``level``. False if started."""
        if self.started:
            return False
        used = {s.name for s in self.seats}
        names = iter(n for n in DEFAULT_NAMES[1:] if n not in used)
        for s in self.seats:
            if s.kind == "open":
                s.kind, s.level = "computer", level
                s.name = next(names, f"CPU {s.index + 1}")
        self.setup = GameSetup(
            rules=self.setup.rules,
            seed=self.setup.seed,
            seats=tuple(
                SeatConfig(name=s.name, kind="human" if s.kind == "person" else s.level) for s in self.seats
            ),
        )
        self.state = new_game(self.setup.rules, players=len(self.seats), seed=self.setup.seed)
        self.seq = 0
        self._journal = tokens.Journal(self.root, self.code, fresh=True)
        self._write_table()
        self._saver.adopt(self.game_path, self.setup)
        self._saver.submit(self.state, self.setup, None)
        self._event("started", level=level)
        self._broadcast_lobby()
        self._broadcast_updates()
        self._kick.set()
        return True

    def hand_over(self, seat: int, level: str = "planner") -> bool:
        """A person's seat whose person is away is played by a computer of ``level`` until they
        come back. False when the seat is not a person's who is away."""
        if not 0 <= seat < len(self.seats):
            return False
        s = self.seats[seat]
        if s.kind != "person" or s.conn is not None:
            return False
        s.handed, s.level, s.player = True, level, None
        self._write_table()
        self._broadcast_lobby()
        self._broadcast_updates()
        self._kick.set()
        return True

    # -- sending ----------------------------------------------------------------------------------
    def _send(self, conn: _Conn, msg: Any) -> None:
        if conn.closing:
            return
        try:
            conn.queue.put_nowait(msg if isinstance(msg, str) else encode(msg))
        except asyncio.QueueFull:
            self._drop_slow(conn)

    def _drop_slow(self, conn: _Conn) -> None:
        conn.closing = True
        while not conn.queue.empty():
            conn.queue.get_nowait()
        asyncio.get_running_loop().create_task(self._kill(conn, Error(code="too_slow", fatal=False)))

    async def _kill(self, conn: _Conn, error: Error) -> None:
        if conn.sender is not None:
            conn.sender.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.ws.send(encode(error)), self.limits.close_timeout)
        await self._close(conn, 1008, error.code)

    async def _close(self, conn: _Conn, code: int, reason: str) -> None:
        conn.closing = True
        try:
            await asyncio.wait_for(conn.ws.close(code, reason), self.limits.close_timeout + 1)
        except Exception:
            transport = getattr(conn.ws, "transport", None)
            if transport is not None:
                transport.abort()

    async def _sender(self, conn: _Conn) -> None:
        try:
            while True:
                text = await conn.queue.get()
                await conn.ws.send(text)
        except (ConnectionClosed, asyncio.CancelledError):
            pass
        except Exception:  # pragma: no cover - a socket error: the reader sees it too
            log.debug("sender", exc_info=True)

    def _away(self) -> tuple[Away, ...]:
        now = time.monotonic()
        return tuple(
            Away(seat=s.index, name=s.name, seconds=int(now - s.away_since))
            for s in self.seats
            if s.kind == "person" and s.conn is None and s.away_since is not None
        )

    def _update_for(self, seat: int, away: tuple[Away, ...]) -> Update:
        assert self.state is not None
        return Update(
            seq=self.seq,
            view=view(self.state, seat),
            names=tuple(s.name for s in self.seats),
            kinds=tuple("computer" if s.computer_plays else "person" for s in self.seats),
            away=away,
        )

    def _broadcast_updates(self) -> None:
        if self.state is None:
            return
        away = self._away()
        for conn in list(self._conns):
            if conn.seat is not None:
                self._send(conn, self._update_for(conn.seat, away))

    def _broadcast_lobby(self) -> None:
        text = encode(self.lobby())
        for conn in list(self._conns):
            if conn.seat is not None or conn.host:
                self._send(conn, text)

    def _event(self, kind: str, **values: Any) -> None:
        if self.on_event is not None:
            try:
                self.on_event(kind, **values)
            except Exception:  # pragma: no cover
                log.exception("on_event")

    # -- the game -------------------------------------------------------------------------------
    def _moved(self, new: GameState, action: Any) -> None:
        """Take ``new`` (after ``action``): journal and autosave it, tell every seat, let the
        computers play on."""
        self.state = new
        self.seq += 1
        if self._journal is not None:
            try:
                self._journal.append(self.seq, action.model_dump(mode="json"))
            except OSError as exc:  # the autosave still has it, a little later
                log.warning("journal: %s", exc)
        self._saver.submit(new, self.setup, None)
        self._broadcast_updates()
        if new.over and not self._kept:
            self._kept = True
            self._write_table()
            self._event("over")
            asyncio.get_running_loop().create_task(asyncio.to_thread(self._keep, new))
        self._kick.set()

    def _keep(self, state: GameState) -> None:
        """The finished game in ``saves/``, like a game saved under a name (for Load… and the
        replay viewer); the statistics count it through the autosaver."""
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        path = saves_dir(self.root) / f"table-{self.code}-{stamp}.json"
        try:
            save_game(path, state, self.setup, name=f"table {self.code} {stamp}")
        except SaveError as exc:
            log.warning("keeping the finished game: %s", exc)
        self._saver.flush()

    def _player(self, s: _Seat):
        if s.player is None:
            level = s.level or "planner"
            s.player = make_player(level, seed=seat_seed(self.setup.seed, s.index, PLAY_STRIDE))
        return s.player

    async def _drive(self) -> None:
        """Play the computer seats, one action at a time, off the event loop."""
        while True:
            await self._kick.wait()
            self._kick.clear()
            while True:
                state = self.state
                if state is None or state.over:
                    break
                s = self.seats[state.turn]
                if not s.computer_plays:
                    break
                seq = self.seq
                player = self._player(s)
                seat_view = view(state, state.turn)
                try:
                    action = await asyncio.to_thread(player.choose, seat_view)
                    if self.pace:
                        await asyncio.sleep(self.pace)
                    if self.seq != seq or not s.computer_plays:
                        continue  # the game moved on meanwhile (a person came back)
                    new = apply(state, action)
                except asyncio.CancelledError:
                    raise
                except Exception:  # a computer player's bug must not stop the table
                    self.errors += 1
                    log.exception("computer player in seat %d", s.index)
                    await asyncio.sleep(1)
                    continue
                self._moved(new, action)

    # -- a connection -------------------------------------------------------------------------
    async def _handle(self, ws: ServerConnection) -> None:
        conn = _Conn(ws, asyncio.Queue(self.limits.send_queue), tokens=float(self.limits.burst))
        if self.limits.sndbuf is not None:
            with contextlib.suppress(OSError, AttributeError):
                ws.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.sndbuf)
        self._conns.add(conn)
        conn.sender = asyncio.create_task(self._sender(conn))
        try:
            await self._session(conn)
        except ConnectionClosed:
            pass
        except Exception:  # a bug: this connection ends, the table goes on
            self.errors += 1
            log.exception("connection")
        finally:
            self._conns.discard(conn)
            conn.closing = True
            if conn.sender is not None:
                conn.sender.cancel()
            self._left(conn)

    async def _fatal(self, conn: _Conn, code: str, *, fatal: bool | None = None, **values: Any) -> None:
        """Send the error ``code`` and close the connection."""
        server_version = PROTOCOL_VERSION if code == "version" else None
        fatal = code in FATAL if fatal is None else fatal
        err = Error(code=code, values=values, fatal=fatal, server_version=server_version)
        conn.closing = True
        await self._kill(conn, err)

    def _allow(self, conn: _Conn) -> bool:
        """The token bucket: False when this client sends faster than allowed."""
        now = time.monotonic()
        lim = self.limits
        conn.tokens = min(float(lim.burst), conn.tokens + (now - conn.stamp) * lim.rate)
        conn.stamp = now
        if conn.tokens < 1:
            return False
        conn.tokens -= 1
        return True

    async def _session(self, conn: _Conn) -> None:
        try:
            first = await asyncio.wait_for(conn.ws.recv(), self.limits.hello_timeout)
        except TimeoutError:
            await self._fatal(conn, "hello_first")
            return
        try:
            hello = decode_client(first)
        except ProtocolError as exc:
            await self._fatal(conn, exc.code, fatal=True, **exc.values)  # a broken Hello: retrying cannot help
            return
        if not isinstance(hello, Hello):
            await self._fatal(conn, "hello_first")
            return
        if not await self._join(conn, hello):
            return
        async for text in conn.ws:
            if not self._allow(conn):
                await self._fatal(conn, "flood")
                return
            try:
                msg = decode_client(text)
            except ProtocolError as exc:
                self._send(conn, Error(code=exc.code, values=exc.values, server_version=PROTOCOL_VERSION if exc.code == "version" else None))
                continue
            if isinstance(msg, Bye):
                await self._close(conn, 1000, "bye")
                return
            try:
                self._on_message(conn, msg)
            except Exception:
                self.errors += 1
                log.exception("message %s", type(msg).__name__)
                self._send(conn, Error(code="internal"))

    async def _join(self, conn: _Conn, hello: Hello) -> bool:
        code = normalise_code(hello.code) or ""
        if not hmac.compare_digest(code.encode(), self.code.encode()):
            await self._fatal(conn, "wrong_code")
            return False
        if hello.token is not None:
            seat = self._seat_of_token(hello.token)
            if seat is None and hmac.compare_digest(hello.token.encode(), self.host_token.encode()):
                conn.host = True  # the host of a table where the host has no seat
            elif seat is None:
                await self._fatal(conn, "bad_token")
                return False
            else:
                s = self.seats[seat]
                old = s.conn
                if old is not None and old is not conn:
                    old.seat = None
                    old.host = False
                    asyncio.get_running_loop().create_task(self._kill(old, Error(code="replaced", fatal=True)))
                was_away = s.away_since is not None
                s.conn, s.away_since = conn, None
                if s.handed:
                    s.handed, s.player = False, None
                    s.level = None
                    self._write_table()
                conn.seat = seat
                conn.host = seat == self.host_seat
                if not self.started and hello.name and s.name != hello.name and seat != self.host_seat:
                    s.name = hello.name
                if seat == self.host_seat and not self.started:
                    s.name = hello.name
                self._event("back" if was_away else "joined", name=s.name, seat=seat)
        else:
            if self.started:
                await self._fatal(conn, "table_full")
                return False
            s = next((s for s in self.seats if s.kind == "open"), None)
            if s is None:
                await self._fatal(conn, "table_full")
                return False
            s.kind, s.name, s.token, s.conn = "person", hello.name, secrets.token_urlsafe(24), conn
            conn.seat = s.index
            self._write_table()
            self._event("joined", name=s.name, seat=s.index)
        token = self.host_token if conn.seat is None else self.seats[conn.seat].token
        assert token is not None
        self._send(conn, Welcome(seat=conn.seat, token=token, host=conn.host, table=self.code))
        self._broadcast_lobby()
        if self.started:
            self._broadcast_updates()  # the others see the seat is back; this one gets its view
        elif self.start_when_full and not any(s.kind == "open" for s in self.seats):
            self.start_game(self.start_when_full)
        self._kick.set()
        return True

    def _seat_of_token(self, token: str) -> int | None:
        found = None
        for s in self.seats:  # every seat compared, in constant time
            if s.token is not None and hmac.compare_digest(s.token.encode(), token.encode()):
                found = s.index
        return found

    def _left(self, conn: _Conn) -> None:
        if conn.seat is None:
            return
        s = self.seats[conn.seat]
        if s.conn is not conn:
            return
        s.conn, s.away_since = None, time.monotonic()
        conn.seat = None
        self._event("left", name=s.name, seat=s.index)
        self._broadcast_lobby()
        self._broadcast_updates()

    def _on_message(self, conn: _Conn, msg: Any) -> None:
        if isinstance(msg, Hello):
            self._send(conn, Error(code="hello_first"))
        elif isinstance(msg, Intent):
            self._intent(conn, msg)
        elif isinstance(msg, StartGame):
            if not conn.host:
                self._send(conn, Error(code="not_host"))
            elif not self.start_game(msg.level):
                self._send(conn, Error(code="started"))
        elif isinstance(msg, HandOver):
            if not conn.host:
                self._send(conn, Error(code="not_host"))
            elif not self.hand_over(msg.seat, msg.level):
                self._send(conn, Error(code="bad_seat", values={"seat": msg.seat}))

    def _intent(self, conn: _Conn, msg: Intent) -> None:
        state = self.state
        if conn.seat is None:
            self._send(conn, Refused(seq=msg.seq, code="no_seat"))
            return
        if state is None:
            self._send(conn, Refused(seq=msg.seq, code="not_started"))
            return
        if state.turn != conn.seat and not state.over:
            self._send(conn, Refused(seq=msg.seq, code="not_your_turn", values={"turn": state.turn}))
            return
        try:
            new = apply(state, msg.action)
        except IllegalAction as exc:
            self._send(conn, refused_of(msg.seq, exc))
            return
        self._moved(new, msg.action)


def _reopenable(root: Path, code: str) -> bool:
    try:
        meta = tokens.load_table(root, code)
    except SaveError:
        return False
    return not meta.over


def _replay_journal(root: Path, code: str, state: GameState) -> GameState:
    """``state`` (the autosave's) with the journal's later moves played again."""
    done = _count_actions(state)
    for seq, data in tokens.read_journal(root, code):
        if seq <= done:
            continue
        if seq != done + 1:
            break  # a gap: the journal of another start of the table
        try:
            state = apply(state, ACTION_ADAPTER.validate_python(data))
        except (IllegalAction, ValueError):
            break
        done = seq
    return state


def _count_actions(state: GameState) -> int:
    return sum(len(r.events) for r in state.results) + len(state.events)


class ServerThread:
    """A :class:`TableServer` on its own event loop in a daemon thread (a Textual app in the
    same process connects to it like any client)."""

    def __init__(self, server: TableServer, host: str, port: int) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self.port: int | None = None
        self._stopped: asyncio.Event | None = None
        self.thread = threading.Thread(target=self._run, args=(host, port), daemon=True, name="table-server")

    def _run(self, host: str, port: int) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main(host, port))
        finally:
            self.loop.close()

    async def _main(self, host: str, port: int) -> None:
        self._stopped = asyncio.Event()
        try:
            self.port = await self.server.start(host, port)
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        await self._stopped.wait()
        await self.server.stop()

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the server's loop and return its result (start_game, hand_over...)."""
        async def run():
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def stop(self) -> None:
        if self.thread.is_alive() and self._stopped is not None:
            self.loop.call_soon_threadsafe(self._stopped.set)
            self.thread.join(15)


def run_in_thread(server: TableServer, host: str = "127.0.0.1", port: int = 0) -> ServerThread:
    """Start ``server`` in a daemon thread; returns once it listens (``.port``), or raises
    the error that stopped it (an ``OSError`` for a port in use)."""
    st = ServerThread(server, host, port)
    st.thread.start()
    st._ready.wait(30)
    if st._error is not None:
        raise st._error
    return st
