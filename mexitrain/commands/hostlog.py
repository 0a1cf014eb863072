"""The host's log: the lines ``mexitrain host --no-play`` writes, so that the table never
waits on its terminal.

A line is put in a bounded queue and written by a thread of its own: the event loop only
appends to a list. When nobody reads the output (a pipe left unread, a terminal paused with
Ctrl+S) the thread waits in its write, the queue fills, and past :data:`LOG_LINES` lines each
new one is dropped and counted; once the output is read again the count is written where the
lines went missing ("… 37 lines dropped: …"). A closed output (EPIPE) drops everything after
it. :meth:`HostLog.close` waits a bounded time for the queue to be written, then gives up:
the process can always exit.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TextIO

#: Lines waiting to be written at most; past it a new line is dropped and counted.
LOG_LINES = 1000
#: Seconds :meth:`HostLog.close` waits for the last lines to be written.
CLOSE_WAIT = 2.0
#: Lines written in one go at most.
_BATCH = 200


class HostLog:
    """Lines for ``stream`` (standard output or error), written by a daemon thread.

    ``dropped(n)`` is the line said in place of ``n`` lines that could not wait."""

    def __init__(self, stream: TextIO, *, capacity: int = LOG_LINES, dropped: Callable[[int], str] | None = None,
                 name: str = "host-log") -> None:
        self.capacity = capacity
        self._stream = stream
        self._dropped_line = dropped or _dropped_line
        self._fd: int | None = None
        with contextlib.suppress(Exception):
            stream.flush()
            self._fd = stream.fileno()
        self._encoding = getattr(stream, "encoding", None) or "utf-8"
        self._cond = threading.Condition()
        self._lines: deque[str] = deque()
        self._dropped = 0  # lines dropped since the last one queued
        self.dropped = 0  # lines dropped in all (tests)
        self._busy = False
        self._closed = False
        self._broken = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def say(self, line: str) -> None:
        """Queue ``line``; never waits (past the capacity it is dropped and counted)."""
        with self._cond:
            if self._closed or self._broken or len(self._lines) >= self.capacity:
                self._dropped += 1
                self.dropped += 1
                return
            if self._dropped:
                self._lines.append(self._dropped_line(self._dropped))
                self._dropped = 0
            self._lines.append(line)
            self._cond.notify()

    def close(self, timeout: float = CLOSE_WAIT) -> bool:
        """No more lines: wait at most ``timeout`` seconds for the queue to be written (the
        count of dropped lines last). True if everything was written."""
        end = time.monotonic() + timeout
        with self._cond:
            if self._dropped and not self._broken and not self._closed:
                self._lines.append(self._dropped_line(self._dropped))
                self._dropped = 0
            self._closed = True
            self._cond.notify_all()
            while (self._lines or self._busy) and not self._broken:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return not self._lines and not self._broken

    # -- the writer thread ------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._lines and not self._closed:
                    self._cond.wait()
                if not self._lines:
                    return
                batch = [self._lines.popleft() for _ in range(min(_BATCH, len(self._lines)))]
                self._busy = True
            try:
                self._write("".join(f"{line}\n" for line in batch))
            except Exception:  # the output is gone (EPIPE, closed): nothing more can be said
                with self._cond:
                    self._broken = True
                    self.dropped += len(self._lines)
                    self._lines.clear()
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _write(self, text: str) -> None:
        if self._fd is None:
            self._stream.write(text)
            self._stream.flush()
            return
        data = memoryview(text.encode(self._encoding, "backslashreplace"))
        while data:
            try:
                n = os.write(self._fd, data)
            except BlockingIOError:  # an output someone made non-blocking: try again shortly
                time.sleep(0.05)
                continue
            data = data[n:]


def _dropped_line(count: int) -> str:
    from ..text.net import dropped_lines_line

    return dropped_lines_line(count)


class LogHandler(logging.Handler):
    """A :mod:`logging` handler that hands each record to a :class:`HostLog` (never waits)."""

    def __init__(self, log: HostLog, level: int = logging.WARNING) -> None:
        super().__init__(level)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.log.say(self.format(record))
        except Exception:  # pragma: no cover
            self.handleError(record)


@contextlib.contextmanager
def logging_to(log: HostLog, *names: str) -> Any:
    """While inside: the records of the loggers ``names`` (WARNING and above) go to ``log``
    only (not to :mod:`logging`'s last-resort handler, which writes and waits)."""
    handler = LogHandler(log)
    handler.setFormatter(logging.Formatter("%(name)s: %(levelname)s: %(message)s"))
    loggers = [logging.getLogger(n) for n in names]
    before = [(lg.propagate, lg.level) for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.propagate = False
        if lg.level == logging.NOTSET or lg.level > logging.WARNING:
            lg.setLevel(logging.WARNING)
    try:
        yield handler
    finally:
        for lg, (propagate, level) in zip(loggers, before, strict=True):
            lg.removeHandler(handler)
            lg.propagate = propagate
            lg.setLevel(level)
