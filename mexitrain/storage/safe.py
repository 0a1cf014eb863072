"""Reading a file that may be anything: only regular files, never more than a cap.

Every reader of a file named by the player or found in the data folder (saves, the autosave,
statistics, settings, game records, ``--results``) goes through :func:`read_regular`, so a FIFO,
a device (``/dev/zero``), a socket or a huge file can neither hang the program nor eat its
memory:

* the file is opened with ``O_NONBLOCK`` (opening a FIFO with no writer returns at once instead
  of waiting for one) and ``O_NOCTTY``;
* a symbolic link is followed, but what it leads to must be a regular file too: the check is an
  ``fstat`` of the opened descriptor, so there is no window between a check and the open;
* anything that is not a regular file is refused with :class:`NotRegularFile` ("not a regular
  file"); a file larger than ``limit`` bytes with :class:`TooLarge`, before reading it (and a
  file that grows while it is read stops being read at ``limit + 1`` bytes).

Both are ``OSError`` subclasses, so the callers' existing handling of unreadable files applies.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ..i18n import N_

#: Saved games, game records, statistics and tournament results.
MAX_DATA = 64 * 1024 * 1024
#: Settings (a few lines).
MAX_SETTINGS = 1024 * 1024

NOT_REGULAR = N_("not a regular file")
TOO_LARGE = N_("the file is too large")


class NotRegularFile(OSError):
    """The path is a FIFO, a device, a socket or a folder: refused unread."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(errno.EINVAL, NOT_REGULAR, str(path))


class TooLarge(OSError):
    """The file is larger than the reader accepts; ``size`` is what was found."""

    def __init__(self, path: str | os.PathLike[str], size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, TOO_LARGE, str(path))
        self.size = size
        self.limit = limit


_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


def open_regular(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor of ``path`` if it is (or links to) a regular file; else raises
    :class:`NotRegularFile` (or the ``OSError`` of the open). The caller closes it."""
    fd = os.open(path, _FLAGS | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):  # said as "it is a folder, not a file"
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: str | os.PathLike[str], limit: int = MAX_DATA) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``); raises :class:`NotRegularFile`,
    :class:`TooLarge`, or the ``OSError`` of opening or reading it (``FileNotFoundError``...)."""
    fd = open_regular(path)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise TooLarge(path, size, limit)
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise TooLarge(path, got, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def is_regular(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is (or links to) a regular file, without opening it."""
    try:
        return stat.S_ISREG(Path(path).stat().st_mode)
    except (OSError, ValueError):
        return False


__all__ = [
    "MAX_DATA",
    "MAX_SETTINGS",
    "NOT_REGULAR",
    "TOO_LARGE",
    "NotRegularFile",
    "TooLarge",
    "is_regular",
    "open_regular",
    "read_regular",
]
