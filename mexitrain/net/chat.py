"""A table's chat, without sockets (issue #35 item 4, docs/protocol.md#chat): the last lines
said (at most :data:`~mexitrain.net.protocol.CHAT_KEEP`, the oldest forgotten first), each
seat's rate limit (at most :data:`~mexitrain.net.protocol.CHAT_LINES` lines in
:data:`~mexitrain.net.protocol.CHAT_SECONDS` seconds, a sliding window on the table's clock),
and what makes a Say a line or a refusal.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Iterable

from ..text.chat import CHAT_MAX, normalise
from ..text.names import visible
from .protocol import CHAT_KEEP, CHAT_LINES, CHAT_SECONDS, ChatLine, Refused, Say


class ChatRoom:
    """The lines of one table and each seat's window of recent lines."""

    def __init__(
        self,
        *,
        keep: int = CHAT_KEEP,
        lines: int = CHAT_LINES,
        seconds: float = CHAT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.lines: deque[ChatLine] = deque(maxlen=keep)
        self.limit = lines
        self.seconds = seconds
        self.clock = clock
        self.count = 0  # the number of the last line said (0: none yet)
        self._said: dict[int, deque[float]] = {}

    def restore(self, lines: Iterable[ChatLine]) -> None:
        """Take back the lines a table kept on disk (a resumed table numbers on after them)."""
        for line in lines:
            if line.n > self.count:
                self.lines.append(line)
                self.count = line.n

    def wait(self, seat: int) -> float:
        """Seconds until ``seat`` may say another line (0: now)."""
        times = self._said.get(seat)
        if times is None:
            return 0.0
        now = self.clock()
        while times and now - times[0] >= self.seconds:
            times.popleft()
        if len(times) < self.limit:
            return 0.0
        return max(0.0, self.seconds - (now - times[0]))

    def say(self, seat: int, name: str, msg: Say) -> ChatLine | Refused:
        """The line ``seat`` (named ``name``) says with ``msg``, kept; or why it is refused."""
        text = None
        if msg.text is not None:
            text = normalise(msg.text)
            if not any(visible(ch) for ch in text):
                return Refused(seq=msg.seq, code="chat_empty")
            if len(text) > CHAT_MAX:
                return Refused(seq=msg.seq, code="chat_too_long", values={"limit": CHAT_MAX})
        wait = self.wait(seat)
        if wait > 0:
            return Refused(
                seq=msg.seq,
                code="chat_too_fast",
                values={"lines": self.limit, "seconds": math.ceil(self.seconds), "wait": math.ceil(wait)},
            )
        self._said.setdefault(seat, deque()).append(self.clock())
        self.count += 1
        line = ChatLine(n=self.count, seat=seat, name=name, text=text, reaction=msg.reaction)
        self.lines.append(line)
        return line

    def forget(self, seat: int) -> None:
        """A seat's window starts afresh (its person was removed: the next one is someone else)."""
        self._said.pop(seat, None)
