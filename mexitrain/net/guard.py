"""What strangers may cost a table server together (docs/threat-model/flood.md): the
connections held at once (in all, and from one address), how often one address may connect
and one seat be taken back, and a log of what was refused that says each thing once per
window, not once per attempt.

The limits are per address and per seat, not per connection: a client that reconnects gets
no fresh allowance. An IPv6 address counts by its /64 (one host usually has a whole /64), an
IPv4-mapped IPv6 address as its IPv4 address. Nothing here knows WebSockets or the game.
"""

from __future__ import annotations

import contextlib
import ipaddress
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: File descriptors kept back from the open-file limit for the table's own files, the
#: listening socket, the log and the computer players' threads.
FD_RESERVE = 64
#: The open-file limit ``mexitrain host`` raises its own soft limit to (at most its hard limit).
NOFILE_TARGET = 65536


def address_key(host: str) -> str:
    """The address a connection's limits are counted under: the IPv4 address, or the /64
    of an IPv6 one ("2001:db8:1:2::/64")."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


@dataclass
class Bucket:
    """A token bucket: ``burst`` at once, then ``rate`` a second."""

    burst: float
    rate: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)
    #: when its owner was last told it is over (time.monotonic())
    told: float = float("-inf")

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = float(self.burst)

    def _refill(self, now: float) -> None:
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float | None = None) -> bool:
        """One token if there is one (True), else False (nothing taken)."""
        self._refill(time.monotonic() if now is None else now)
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def empty(self, now: float) -> bool:
        """Not a token left now."""
        self._refill(now)
        return self.tokens < 1

    def give(self) -> None:
        """A token back (a message the table acted on)."""
        self.tokens = min(float(self.burst), self.tokens + 1)

    def full(self, now: float) -> bool:
        """Back to its burst: the same as a bucket never used (it can be forgotten)."""
        self._refill(now)
        return self.tokens >= self.burst


class Buckets:
    """One :class:`Bucket` a key, at most ``size`` keys: past it, the buckets back to their
    burst are forgotten (they are as good as new), then the oldest ones."""

    def __init__(self, burst: float, rate: float, size: int) -> None:
        self.burst, self.rate, self.size = burst, rate, max(1, size)
        self._buckets: OrderedDict[Any, Bucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def get(self, key: Any) -> Bucket:
        b = self._buckets.get(key)
        if b is None:
            if len(self._buckets) >= self.size:
                self._prune()
            b = self._buckets[key] = Bucket(self.burst, self.rate)
        else:
            self._buckets.move_to_end(key)
        return b

    def take(self, key: Any) -> bool:
        return self.get(key).take()

    def peek(self, key: Any) -> Bucket | None:
        """The bucket of ``key`` if it has one (none is made)."""
        return self._buckets.get(key)

    def _prune(self) -> None:
        now = time.monotonic()
        for key in [k for k, b in self._buckets.items() if b.full(now)]:
            del self._buckets[key]
        while len(self._buckets) >= self.size:
            self._buckets.popitem(last=False)


class Refusals:
    """What was refused, said once per window: the first refusal of a kind from one address
    at once, then how many more in each window while they go on. At most ``keys`` addresses
    a window are named; the others are added up as one (``who`` None).

    ``say(why, who, count, values)`` is called for each line; ``later(delay, fn)`` schedules
    the end of a window (the event loop's ``call_later``)."""

    def __init__(self, window: float, say: Callable[..., None], later: Callable[[float, Callable[[], None]], Any],
                 keys: int = 16) -> None:
        self.window = window
        self.say = say
        self.later = later
        self.keys = keys
        self._counts: dict[tuple[str, str | None], list[Any]] = {}  # key -> [count, values]
        self._timer: Any = None

    def note(self, why: str, who: str | None, **values: Any) -> None:
        key = (why, who)
        if key not in self._counts:
            if sum(k[1] is not None for k in self._counts) >= self.keys and who is not None:
                self.note(why, None, **values)
                return
            self._counts[key] = [0, values]
            self.say(why, who, 1, values)  # the first one at once
        else:
            entry = self._counts[key]
            entry[0] += 1
            entry[1] = values
        if self._timer is None:
            self._timer = self.later(self.window, self.flush)

    def flush(self) -> None:
        """The window is over: how many more of each kind, and forget the quiet ones."""
        self._timer = None
        for key, (count, values) in list(self._counts.items()):
            if count:
                self.say(key[0], key[1], count, values)
                self._counts[key][0] = 0
            else:
                del self._counts[key]
        if self._counts:
            self._timer = self.later(self.window, self.flush)

    def cancel(self) -> None:
        if self._timer is not None:
            with contextlib.suppress(Exception):
                self._timer.cancel()
            self._timer = None


class Admission:
    """The connections a server holds: at most ``total`` at once, at most ``per_address``
    from one address. :meth:`open` counts one in (False: over a cap, not counted),
    :meth:`close` counts it out (once, whatever the number of calls)."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total, self.per_address = total, per_address
        self.held: dict[str, int] = {}
        self._open: set[object] = set()

    @property
    def count(self) -> int:
        return len(self._open)

    def open(self, conn: object, key: str) -> str | None:
        """Count ``conn`` (from address ``key``) in; None if admitted, else the cap it hits
        ("full": the total, "connections": its address's)."""
        if len(self._open) >= self.total:
            return "full"
        if self.held.get(key, 0) >= self.per_address:
            return "connections"
        self._open.add(conn)
        self.held[key] = self.held.get(key, 0) + 1
        return None

    def close(self, conn: object, key: str) -> None:
        if conn not in self._open:
            return
        self._open.discard(conn)
        n = self.held.get(key, 0) - 1
        if n > 0:
            self.held[key] = n
        else:
            self.held.pop(key, None)


def open_files_limit() -> int | None:
    """This process's soft limit of open files (None where it cannot be read)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not Unix
        return None
    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):  # pragma: no cover
        return None
    return None if soft == resource.RLIM_INFINITY else int(soft)


def raise_open_files(target: int = NOFILE_TARGET) -> int | None:
    """Raise this process's soft limit of open files toward its hard limit (at most
    ``target``), where the system lets it; quietly nothing where not. The soft limit after."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not Unix
        return None
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = target if hard == resource.RLIM_INFINITY else min(hard, target)
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    except (OSError, ValueError):
        pass
    return open_files_limit()
