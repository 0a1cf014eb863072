"""One client's connection to a table server: what it may cost, its own send queue, its token
bucket, and how it is closed (docs/protocol.md, "Errors").

Each connection has a bounded queue of encoded messages and one task that writes them to the
socket, so the table never waits on a client's socket: a client that reads too slowly fills its
queue and is dropped (``too_slow``; it may join again with its token), and the others are not
held up. A client that sends faster than the token bucket allows is cut off (``flood``).
Nothing here knows the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from .guard import Bucket
from .protocol import MAX_CLIENT_MESSAGE, PROTOCOL_VERSION, Error, encode

log = logging.getLogger(__name__)

#: Errors after which reconnecting cannot help: the client stops (TableClient.run returns).
FATAL = frozenset(
    {"version", "hello_first", "wrong_code", "bad_token", "bad_name", "table_full", "replaced", "flood", "table_closed",
     "watchers_full", "removed"}
)


@dataclass(frozen=True)
class Limits:
    """What one client may cost the server."""

    hello_timeout: float = 10.0  # seconds to send Hello after connecting
    send_queue: int = 256  # messages waiting for one client; more: dropped as too slow
    burst: int = 200  # the token bucket: messages at once...
    rate: float = 100.0  # ...and per second after that (a person sends a few; a move played is refunded)
    frame_cap: int = 4 * MAX_CLIENT_MESSAGE  # larger frames: websockets closes (1009)
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    close_timeout: float = 2.0
    write_limit: int = 64 * 1024  # bytes buffered for one client before a send waits
    sndbuf: int | None = None  # the kernel's send buffer for each connection (None: the system's)
    watchers: int = 20  # watchers of the table at once (at most protocol.MAX_WATCHERS); more: watchers_full
    # What one address, one seat and everyone together may cost (net/guard.py,
    # docs/threat-model/flood.md). Over a cap a new TCP connection is closed at once; over a
    # rate the connection gets Error("too_many") and is closed (the client retries later).
    max_connections: int = 512  # TCP connections at once, all addresses (at most the open-file limit less 64)
    per_address: int = 32  # TCP connections at once from one address (an IPv6 /64)
    attempts_burst: int = 40  # connections one address may open at once...
    attempts_rate: float = 2.0  # ...and per second after that
    hush: float = 1.0  # seconds after an address is told too_many when its next ones are closed without a word
    seat_burst: int = 10  # Hellos with one seat's token at once...
    seat_rate: float = 0.2  # ...and per second after that (one each 5 s)
    open_timeout: float = 10.0  # seconds to finish the WebSocket handshake
    wrong_code_delay: float = 1.0  # seconds before a wrong table code is answered
    coalesce: float = 0.05  # seats coming, going and coming back within this make one lobby and update each
    log_window: float = 10.0  # a limit reached is logged at once, then how many more once per window
    tracked: int = 4096  # addresses whose buckets are kept (past it, unused ones are forgotten first)


def error(code: str, *, fatal: bool | None = None, **values: Any) -> Error:
    """The :class:`Error` ``code`` (fatal when it is one of :data:`FATAL`, unless told)."""
    return Error(
        code=code, values=values, fatal=code in FATAL if fatal is None else fatal,
        server_version=PROTOCOL_VERSION if code == "version" else None,
    )


class Connection:
    """One client: its WebSocket, its seat (None: none yet, or a host without a seat), its
    host rights, its send queue and the task that empties it."""

    def __init__(self, ws: ServerConnection, limits: Limits) -> None:
        self.ws = ws
        self.limits = limits
        self.queue: asyncio.Queue[str] = asyncio.Queue(limits.send_queue)
        self.seat: int | None = None
        self.host = False
        #: the token bucket of the messages it sends: the seat's once it has one, so that
        #: reconnecting gives no fresh allowance
        self.bucket = Bucket(limits.burst, limits.rate)
        self.closing = False
        self.sender: asyncio.Task | None = None
        #: the address its limits count under (net/guard.py)
        self.address = ""
        #: the last lobby and update texts sent: the same again is not sent
        self.last_lobby: str | None = None
        self.last_update: str | None = None
        #: the finished game's record text sent last (each game's once)
        self.last_record: str | None = None
        #: a watcher (a Watch, not a Hello): no seat, sent the onlooker's view, never moves
        self.watcher = False

    def open(self) -> None:
        """Start the task that writes the queue to the socket."""
        if self.limits.sndbuf is not None:
            with contextlib.suppress(OSError, AttributeError):
                sock = self.ws.transport.get_extra_info("socket")
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.sndbuf)
        self.sender = asyncio.create_task(self._pump())

    def ended(self) -> None:
        """The session is over: nothing more is sent."""
        self.closing = True
        if self.sender is not None:
            self.sender.cancel()

    def send(self, msg: BaseModel | str) -> None:
        """Queue ``msg`` (a model, or its text already encoded); never waits. A full queue
        drops this client as too slow."""
        if self.closing:
            return
        try:
            self.queue.put_nowait(msg if isinstance(msg, str) else encode(msg))
        except asyncio.QueueFull:
            self.closing = True
            while not self.queue.empty():
                self.queue.get_nowait()
            asyncio.get_running_loop().create_task(self.kill(error("too_slow", fatal=False)))

    def allow(self) -> bool:
        """The token bucket: False when this client sends faster than allowed."""
        return self.bucket.take()

    def refund(self) -> None:
        """Give back the token of a message the table acted on (a move it played): a bot may
        play as fast as the game goes; only messages that achieve nothing count as a flood."""
        self.bucket.give()

    async def fail(self, code: str, *, fatal: bool | None = None, **values: Any) -> None:
        """Send the error ``code`` and close the connection."""
        self.closing = True
        await self.kill(error(code, fatal=fatal, **values))

    async def kill(self, err: Error) -> None:
        """Send ``err`` past the queue, then close (1008)."""
        if self.sender is not None:
            self.sender.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.send(encode(err)), self.limits.close_timeout)
        await self.close(1008, err.code)

    async def finish(self, err: Error, code: int = 1001) -> None:
        """The table closes: send what is queued, then ``err``, then close (``code``); the
        whole takes at most ``close_timeout`` before the socket is closed anyway."""
        self.closing = True
        if self.sender is not None:
            self.sender.cancel()
        texts = []
        while not self.queue.empty():
            texts.append(self.queue.get_nowait())
        texts.append(encode(err))

        async def flush() -> None:
            for text in texts:
                await self.ws.send(text)

        with contextlib.suppress(Exception):
            await asyncio.wait_for(flush(), self.limits.close_timeout)
        await self.close(code, err.code)

    async def close(self, code: int, reason: str) -> None:
        """Close the WebSocket (or abort it when the client does not answer)."""
        self.closing = True
        try:
            await asyncio.wait_for(self.ws.close(code, reason), self.limits.close_timeout + 1)
        except Exception:
            transport = getattr(self.ws, "transport", None)
            if transport is not None:
                transport.abort()

    async def _pump(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                await self.ws.send(text)
        except (ConnectionClosed, asyncio.CancelledError):
            pass
        except Exception:  # pragma: no cover - a socket error: the reader sees it too
            log.debug("sender", exc_info=True)
