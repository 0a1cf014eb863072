"""The table client: one seat's connection to a table server, kept up by itself
(docs/protocol.md).

:meth:`TableClient.run` connects, joins with Hello (with the seat's token if one is kept for
this table, :mod:`mexitrain.storage.tokens`), hands every server message to ``on_message``
and, when the connection is lost, connects again after 1, 2, 4 … 30 seconds (with jitter),
taking its seat back with its token. It returns when closed or after a fatal Error.

A table its host closed on purpose says so (``table_closed``, fatal): the client stops, and
keeps a mark beside the seat's token (``tokens/<key>.closed``). Joining that table again
later makes one attempt: a table that answers (reopened by ``mexitrain host --resume``) is
joined as ever and the mark goes; one that does not answer ends the run with the same
``table_closed`` at once, rather than retrying for ever a table that is known to be closed.

What a host cannot do to a guest here (issue 37, docs/threat-model/guest.md): keep it waiting
for ever (a table that does not welcome the Hello within :data:`HELLO_TIMEOUT` seconds is a
broken connection: ``no_answer``, tried again as any other), slip in a game before welcoming
it (an Update, Lobby or Refused before the Welcome is dropped), feed it a message it cannot
read (the connection ends, fatal ``bad_server_message`` with the decoder's reason in its
values), or flood it with errors (more than :data:`ERROR_BOUND` non-fatal errors in
:data:`ERROR_WINDOW` seconds end the connection: fatal ``error_flood``).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import random
import ssl
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..storage import atomic, tokens
from ..storage.safe import read_regular
from ..storage.savefile import SaveError
from .protocol import (
    MAX_SERVER_MESSAGE,
    PROTOCOL_VERSION,
    Bye,
    Error,
    Hello,
    ProtocolError,
    Watch,
    Watching,
    Welcome,
    decode_server,
    encode,
    normalise_code,
)

#: The first and the longest wait between two attempts, in seconds.
BACKOFF = (1.0, 30.0)
#: How long a table may take to welcome the Hello, in seconds; then the connection counts
#: as broken (``no_answer``) and is tried again.
HELLO_TIMEOUT = 10.0
#: The most non-fatal errors a table may send in :data:`ERROR_WINDOW` seconds; one more ends
#: the connection (``error_flood``, fatal): a real table sends a handful in a whole game.
ERROR_BOUND = 20
ERROR_WINDOW = 10.0
#: The codes of the problems the client finds itself (beside an Error's codes).
NO_ANSWER = "no_answer"
BAD_SERVER_MESSAGE = "bad_server_message"
ERROR_FLOOD = "error_flood"


@dataclass(frozen=True)
class LinkStatus:
    """The link to the table: ``state``, the attempt number (0: the first connection),
    the seconds until the next attempt while retrying, and the last problem as a code
    (an Error's code, or "refused_connection", "unreachable", "untrusted_certificate", "lost", "no_answer",
    "bad_server_message", "error_flood")."""

    state: Literal["connecting", "connected", "retrying", "closed"]
    attempt: int = 0
    retry_in: float | None = None
    error: str | None = None


def ws_uri(address: str) -> str:
    """``HOST:PORT`` (or a ``ws://`` URI) as the WebSocket URI."""
    address = address.strip()
    if address.startswith(("ws://", "wss://")):
        return address
    return f"ws://{address}/"


#: The Error code of a table closed on purpose by its host (docs/protocol.md).
TABLE_CLOSED = "table_closed"


def closed_path(root: Path, address: str, code: str, name: str) -> Path:
    """The mark of a table that said it closed, beside this seat's token file."""
    path = tokens.token_path(root, address, code, name)
    return path.with_name(path.stem + ".closed")


def load_closed(root: Path, address: str, code: str, name: str) -> bool | None:
    """None when this table never said it closed; else whether it said it can be reopened."""
    try:
        text = read_regular(closed_path(root, address, code, name), 64).decode("ascii").strip()
    except (OSError, ValueError):
        return None
    return {"resumable": True, "over": False}.get(text)


def _problem(exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "refused_connection"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return "untrusted_certificate"  # a wss:// table whose certificate this machine does not trust
    if isinstance(exc, (ConnectionClosed, ConnectionResetError, EOFError)):
        return "lost"
    return "unreachable"


def _reason(exc: ProtocolError) -> str:
    """What the decoder said of a message it refused, in a few words (a code and its values:
    "bad_message type=update field=view.seat"), for the line the guest sees."""
    values = exc.values
    if exc.code == BAD_SERVER_MESSAGE and isinstance(values.get("reason"), str):
        # the decoder's reason, field and character in words
        from ..text.net import bad_server_reason

        return bad_server_reason(values)[:200]
    words = [exc.code] + [f"{k}={v}" for k, v in values.items() if v is not None]
    return " ".join(words)[:200]


class TableClient:
    """One seat at the table at ``address`` (``HOST:PORT``) with code ``code``.

    ``token``: the seat's token to send (the host's, from the server); otherwise the one kept
    in ``data_dir`` for this address, code and name, if any (``data_dir`` None: kept in memory
    only). ``backoff``: the first and longest wait between attempts; ``retry=False`` stops at
    the first lost connection. ``hello_timeout``: how long the table may take to welcome the
    Hello; ``error_bound`` and ``error_window``: how many non-fatal errors it may send in how
    many seconds (``clock``'s). ``watch``: watch the table rather than sit at it (a
    :class:`Watch`, no seat and no token kept; the table answers :class:`Watching`, then sends
    the onlooker's view).
    """

    def __init__(
        self,
        address: str,
        code: str,
        name: str,
        *,
        data_dir: Path | None,
        lang: str = "en",
        token: str | None = None,
        backoff: tuple[float, float] = BACKOFF,
        rng: random.Random | None = None,
        retry: bool = True,
        open_timeout: float = 10.0,
        hello_timeout: float = HELLO_TIMEOUT,
        error_bound: int = ERROR_BOUND,
        error_window: float = ERROR_WINDOW,
        clock: Callable[[], float] = time.monotonic,
        watch: bool = False,
    ) -> None:
        self.watch = watch
        if watch:
            data_dir = None  # a watcher keeps nothing: no token, no mark of a closed table
        self.address = address
        self.code = normalise_code(code) or code
        self.name = name
        self.data_dir = Path(data_dir) if data_dir is not None else None
        self.lang = lang
        self.token = token
        if self.token is None and self.data_dir is not None:
            self.token = tokens.load_token(self.data_dir, address, self.code, name)
        self.backoff = backoff
        self.rng = rng or random.Random()
        self.retry = retry
        self.open_timeout = open_timeout
        self.hello_timeout = hello_timeout
        self.error_bound = error_bound
        self.error_window = error_window
        self.clock = clock
        self._errors: deque[float] = deque()
        self.welcome: Welcome | Watching | None = None
        self.fatal: Error | None = None
        self._ws: ClientConnection | None = None
        self._closing = False
        self._wake = asyncio.Event()
        self._welcomed_now = False  # this connection was welcomed (the waits start again after it)

    @property
    def connected(self) -> bool:
        return self._ws is not None

    async def send(self, msg: Any) -> bool:
        """Send a client message; False when not connected (it is not kept: an intent sent
        while the link is down is lost, and the next Update shows the game as it is)."""
        ws = self._ws
        if ws is None:
            return False
        try:
            await ws.send(encode(msg))
        except ConnectionClosed:
            return False
        return True

    async def close(self) -> None:
        """Leave: say Bye, close the connection, stop retrying (run returns)."""
        self._closing = True
        self._wake.set()
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.send(encode(Bye()))
            with contextlib.suppress(Exception):
                await ws.close()

    def delay(self, attempt: int) -> float:
        """The wait before attempt ``attempt`` (1, 2, 4 … the longest), ±20 % jitter."""
        first, longest = self.backoff
        base = min(longest, first * 2 ** max(0, attempt - 1))
        return base * self.rng.uniform(0.8, 1.2)

    async def run(
        self,
        on_message: Callable[[Any], Any],
        on_status: Callable[[LinkStatus], Any] | None = None,
    ) -> Error | None:
        """Connect and deliver every server message until closed; returns the fatal Error
        that ended it, or None."""

        async def status(st: LinkStatus) -> None:
            if on_status is not None:
                r = on_status(st)
                if inspect.isawaitable(r):
                    await r

        attempt = 0
        problem: str | None = None
        closed = None if self.data_dir is None else load_closed(self.data_dir, self.address, self.code, self.name)
        while not self._closing:
            await status(LinkStatus("connecting", attempt, None, problem))
            self._welcomed_now = False
            try:
                problem = await self._connection(on_message, status)
            except (OSError, TimeoutError, InvalidHandshake, InvalidURI, ConnectionClosed) as exc:
                problem = _problem(exc)
            if self.fatal is not None or self._closing:
                break
            if closed is not None and self.welcome is None:
                # the table said it closed, and it still does not answer: say so, once
                self.fatal = Error(code=TABLE_CLOSED, values={"resumable": closed}, fatal=True)
                r = on_message(self.fatal)
                if inspect.isawaitable(r):
                    await r
                break
            if not self.retry:
                break
            if self.welcome is not None and problem is None:
                problem = "lost"
            if self._welcomed_now:
                attempt = 0  # a link that was up: its loss starts the waits from the first again
            attempt += 1
            wait = self.delay(attempt)
            await status(LinkStatus("retrying", attempt, wait, problem))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
        await status(LinkStatus("closed", attempt, None, self.fatal.code if self.fatal else problem))
        return self.fatal

    async def _connection(self, on_message, status) -> str | None:
        async with connect(
            ws_uri(self.address),
            max_size=MAX_SERVER_MESSAGE,
            open_timeout=self.open_timeout,
            compression=None,
            proxy=None,
        ) as ws:
            hello: Hello | Watch
            if self.watch:
                hello = Watch(version=PROTOCOL_VERSION, code=self.code, name=self.name or None, lang=self.lang)
            else:
                hello = Hello(version=PROTOCOL_VERSION, code=self.code, name=self.name, token=self.token, lang=self.lang)
            await ws.send(encode(hello))
            self._ws = ws
            try:
                welcomed = False
                loop = asyncio.get_running_loop()
                deadline = loop.time() + self.hello_timeout
                messages = aiter(ws)
                while True:
                    try:
                        if welcomed:
                            text = await anext(messages)
                        else:  # the table has until the deadline to welcome us
                            text = await asyncio.wait_for(anext(messages), max(0.0, deadline - loop.time()))
                    except StopAsyncIteration:
                        return None
                    except TimeoutError:
                        await ws.close()
                        return NO_ANSWER
                    try:
                        msg = decode_server(text)
                    except ProtocolError as exc:
                        return await self._end(ws, on_message, BAD_SERVER_MESSAGE, reason=_reason(exc))
                    if isinstance(msg, Welcome | Watching):
                        welcomed = True
                        self._welcomed(msg)
                        await status(LinkStatus("connected", 0, None, None))
                    elif not welcomed and not isinstance(msg, Error):
                        continue  # a game, a lobby, a refusal before the welcome: not ours yet
                    if isinstance(msg, Error) and (msg.fatal or msg.code == TABLE_CLOSED):
                        self.fatal = msg
                        if msg.code in ("bad_token", "removed"):  # the token will never work again
                            self._forget()
                        elif msg.code == TABLE_CLOSED:
                            self._mark_closed(msg.values.get("resumable") is not False)
                    elif isinstance(msg, Error) and not self._error_allowed():
                        return await self._end(ws, on_message, ERROR_FLOOD, limit=self.error_bound,
                                               seconds=self.error_window)
                    r = on_message(msg)
                    if inspect.isawaitable(r):
                        await r
                    if self.fatal is not None:
                        return msg.code
            finally:
                self._ws = None

    def _error_allowed(self) -> bool:
        """One more non-fatal error came now: whether it is within the bound."""
        now = self.clock()
        times = self._errors
        times.append(now)
        while times and now - times[0] > self.error_window:
            times.popleft()
        return len(times) <= self.error_bound

    async def _end(self, ws, on_message, code: str, **values: Any) -> str:
        """Leave the table because of ``code`` (a problem of this client with the table):
        say it as a fatal Error, close the connection."""
        self.fatal = Error(code=code, values=values, fatal=True)
        with contextlib.suppress(Exception):
            await ws.close()
        r = on_message(self.fatal)
        if inspect.isawaitable(r):
            await r
        return code

    def _welcomed(self, msg: Welcome | Watching) -> None:
        self.welcome = msg
        self._welcomed_now = True
        if isinstance(msg, Watching):
            return  # a watcher has no token to keep
        self._unmark_closed()  # the table is open again
        if msg.token != self.token:
            self.token = msg.token
            if self.data_dir is not None:
                with contextlib.suppress(SaveError):
                    tokens.save_token(self.data_dir, self.address, self.code, self.name, msg.token)

    def _mark_closed(self, resumable: bool) -> None:
        if self.data_dir is not None:
            with contextlib.suppress(OSError):
                path = closed_path(self.data_dir, self.address, self.code, self.name)
                atomic.write_text(path, ("resumable" if resumable else "over") + "\n")

    def _unmark_closed(self) -> None:
        if self.data_dir is not None:
            with contextlib.suppress(OSError):
                closed_path(self.data_dir, self.address, self.code, self.name).unlink(missing_ok=True)

    def _forget(self) -> None:
        self.token = None
        if self.data_dir is not None:
            tokens.forget_token(self.data_dir, self.address, self.code, self.name)
