"""Writes that cannot tear: the previous good file stays until the new one is complete.

:func:`write_text` writes a temporary file in the target's folder (``.<name>.<random>.tmp``),
flushes and ``fsync``s it, renames it over the target with ``os.replace`` (atomic on POSIX and
Windows) and ``fsync``s the folder so the rename itself survives a power cut. A crash, a
``kill -9``, an exception or a full disk at any moment leaves either the old file or the new
one, never a mix. Should a process die between creating the temporary file and the rename, the
temporary file stays behind: readers ignore such files and :func:`clean_stale_temps` removes them.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path

TEMP_SUFFIX = ".tmp"
#: A temporary file older than this (seconds) belongs to no write still in progress.
STALE_AFTER = 60.0


def _temp_prefix(target: Path) -> str:
    return f".{target.name}."


def is_temp_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` looks like one of our temporary files (readers skip them)."""
    name = Path(path).name
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


def fsync_dir(directory: str | os.PathLike[str]) -> None:
    """Make a rename in ``directory`` durable (a no-op where folders cannot be opened)."""
    if os.name == "nt":  # pragma: no cover - Windows cannot fsync a folder
        return
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Replace ``path`` with ``data`` atomically and durably; returns the path.

    Creates the parent folders. On any error (``OSError`` such as a full disk, or an
    interruption) the temporary file is removed, the previous file is left as it was and the
    exception propagates.
    """
    target = Path(path)
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    clean_stale_temps(folder, target.name)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=TEMP_SUFFIX, dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(folder)
    return target


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """:func:`write_bytes` of ``text`` in UTF-8 (``\\n`` line ends on every platform)."""
    return write_bytes(path, text.encode("utf-8"))


def clean_stale_temps(
    folder: str | os.PathLike[str], name: str | None = None, older_than: float = STALE_AFTER
) -> list[Path]:
    """Remove temporary files left in ``folder`` by interrupted writes; returns those removed.

    Only files named like ours (``.<target>.<random>.tmp``, for target ``name`` when given) and
    last modified more than ``older_than`` seconds ago, so a write still in progress in another
    process is left alone. Errors are ignored: this is housekeeping.
    """
    folder = Path(folder)
    prefix = f".{name}." if name is not None else "."
    removed: list[Path] = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not (entry.name.startswith(prefix) and entry.name.endswith(TEMP_SUFFIX)):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            if now - entry.stat(follow_symlinks=False).st_mtime < older_than:
                continue
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


def move_aside(path: str | os.PathLike[str], tag: str = "bad") -> Path:
    """Rename ``path`` to ``<stem>.<tag>-N<suffix>`` (the first free N from 1); returns the new path.

    Used for files that cannot be read: they are kept for the player (or a bug report),
    never overwritten or deleted.
    """
    source = Path(path)
    n = 1
    while True:
        dest = source.with_name(f"{source.stem}.{tag}-{n}{source.suffix}")
        if not dest.exists():
            try:
                if os.name == "nt":  # pragma: no cover - rename refuses an existing target
                    os.rename(source, dest)
                else:
                    os.link(source, dest)  # fails if dest appeared meanwhile: never clobber
                    os.unlink(source)
            except FileExistsError:
                pass
            except OSError:
                os.rename(source, dest)  # file systems without hard links
                break
            else:
                break
        n += 1
    fsync_dir(source.parent)
    return dest


__all__ = [
    "STALE_AFTER",
    "TEMP_SUFFIX",
    "clean_stale_temps",
    "fsync_dir",
    "is_temp_file",
    "move_aside",
    "write_bytes",
    "write_text",
]
