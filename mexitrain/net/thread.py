"""A :class:`~mexitrain.net.server.TableServer` on its own event loop in a daemon thread, so that
a Textual app in the same process (``mexitrain host``, Host a table…) connects to it like any
client, and calls into it (start, hand over) on its loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import TableServer


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
