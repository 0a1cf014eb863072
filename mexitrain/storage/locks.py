"""Which process owns an autosave: an advisory lock on ``<autosave>.lock``.

A running game holds the lock of its autosave from its first write (or from the moment it is
resumed) until it ends, so two windows on one data folder never write, resume or delete the same
autosave. The lock is ``fcntl.flock`` where it exists (Linux, macOS), ``msvcrt.locking`` on
Windows, and nothing elsewhere (then every autosave counts as free). The operating system
releases it when the process dies, however it dies, so a crash never leaves a game locked.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

try:  # pragma: no cover - the branch taken depends on the platform
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]
try:  # pragma: no cover
    import msvcrt
except ImportError:  # pragma: no cover
    msvcrt = None  # type: ignore[assignment]

LOCK_SUFFIX = ".lock"

# The locks this process holds: lock path -> descriptor (a second flock of the same file in the
# same process would conflict with the first one, so the process asks itself first).
_HELD: dict[Path, int] = {}
_MUTEX = threading.Lock()


def lock_path(path: str | os.PathLike[str]) -> Path:
    """``<data dir>/autosaves/<id>.json`` -> ``<data dir>/autosaves/<id>.lock``."""
    p = Path(path)
    return p.with_name(p.stem + LOCK_SUFFIX)


def _try_lock(fd: int) -> bool:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True
    if msvcrt is not None:  # pragma: no cover - Windows
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    return True  # pragma: no cover - no locking on this platform


def acquire(path: str | os.PathLike[str]) -> bool:
    """Take the lock of the autosave ``path`` for this process; False when another process holds
    it. Taking a lock this process holds already is True. Raises ``OSError`` when the lock file
    cannot be created (a read-only folder): the caller decides (the autosave cannot be written
    there anyway)."""
    key = lock_path(path).absolute()
    with _MUTEX:
        if key in _HELD:
            return True
        key.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(key, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o644)
        if not _try_lock(fd):
            os.close(fd)
            return False
        _HELD[key] = fd
        return True


def release(path: str | os.PathLike[str], *, remove: bool = False) -> None:
    """Let go of the lock of ``path`` (if held); ``remove`` also deletes the lock file (when the
    game is over and its autosave gone)."""
    key = lock_path(path).absolute()
    with _MUTEX:
        fd = _HELD.pop(key, None)
        if fd is None:
            return
        if remove:
            with contextlib.suppress(OSError):
                os.unlink(key)
        os.close(fd)  # closing the descriptor releases the lock


def held_here(path: str | os.PathLike[str]) -> bool:
    return lock_path(path).absolute() in _HELD


def held_elsewhere(path: str | os.PathLike[str]) -> bool:
    """Whether another process holds the lock of ``path`` (False when the lock file is missing or
    cannot be opened: nobody can hold it then)."""
    key = lock_path(path).absolute()
    with _MUTEX:
        if key in _HELD:
            return False
        try:
            fd = os.open(key, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return False
        try:
            return not _try_lock(fd)
        finally:
            os.close(fd)


__all__ = ["LOCK_SUFFIX", "acquire", "held_elsewhere", "held_here", "lock_path", "release"]
