"""A program under a pseudo-terminal, for tests that look at the raw bytes a terminal would
receive (issue 37): started with its own pty of a given size, read until what it wrote holds
a condition, sent keys, and never left behind."""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Sequence
from pathlib import Path


class PtyProgram:
    """``argv`` run with a pty as its terminal (``rows`` x ``cols``), its bytes kept in ``out``."""

    def __init__(self, argv: Sequence[str], *, env: dict[str, str], cwd: Path, rows: int = 30, cols: int = 100) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(env, TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows))
        self.proc = subprocess.Popen(
            list(argv), stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
            start_new_session=True, close_fds=True,
        )
        os.close(slave)
        self.master = master
        os.set_blocking(master, False)
        self.out = bytearray()
        self._eof = False

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except BlockingIOError:
                return
            except OSError:  # EIO: the program closed its terminal
                self._eof = True
                return
            if not chunk:
                self._eof = True
                return
            self.out += chunk

    @property
    def text(self) -> str:
        return self.out.decode("utf-8", "replace")

    async def until(self, condition: Callable[[str], bool], timeout: float, what: str) -> None:
        """Read until ``condition(text so far)`` holds; fail naming ``what`` after ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + timeout
        while True:
            self._drain()
            if condition(self.text):
                return
            if self._eof or self.proc.poll() is not None:
                if self.proc.poll() is None:  # the terminal closed: the program is ending
                    await asyncio.to_thread(self.proc.wait, 20)
                self._drain()
                if condition(self.text):
                    return
                raise AssertionError(f"the program ended before {what}: {self.text[-2000:]!r}")
            if time.monotonic() > deadline:
                raise AssertionError(f"never happened in {timeout:g} s: {what}: {self.text[-2000:]!r}")
            ready = loop.create_future()
            loop.add_reader(self.master, lambda f=ready: f.done() or f.set_result(None))
            try:
                await asyncio.wait_for(ready, min(0.5, max(0.01, deadline - time.monotonic())))
            except TimeoutError:
                pass
            finally:
                loop.remove_reader(self.master)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    async def ended(self, timeout: float) -> int:
        """Wait for the program to end (reading what it writes meanwhile); its exit status."""
        await self.until(lambda _t: self._eof or self.proc.poll() is not None, timeout, "the end")
        status = await asyncio.to_thread(self.proc.wait, timeout)
        self._drain()
        return status

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(10)
        try:
            os.close(self.master)
        except OSError:
            pass
