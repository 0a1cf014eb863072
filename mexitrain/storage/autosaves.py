"""Autosaves: one per running game, found at start, claimed before resuming, with a marker
that flags a resume that crashed, and set aside when the player chooses not to resume (docs/saves.md).

A bad autosave is never overwritten or deleted: it is renamed to ``<name>.bad-N.json`` (and
the message says so).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..game_setup import GameSetup
from ..rules import GameState
from . import atomic, locks
from .paths import AUTOSAVE, MOVED_ASIDE, autosave_path, autosaves_dir
from .safe import is_regular
from .savefile import (
    Notice,
    SavedGame,
    SaveError,
    file_signature,
    load_save,
    os_error,
    save_data,
    save_text,
)

# The (inode, size, mtime) of each autosave this process wrote or loaded: such a file is known
# good, so the next autosave may replace it without reading it first.
_KNOWN_GOOD: dict[Path, tuple[int, int, int]] = {}


def _remember(path: Path) -> None:
    sig = file_signature(path)
    if sig is not None:
        _KNOWN_GOOD[path.absolute()] = sig


def _known_good(path: Path) -> bool:
    sig = file_signature(path)
    return sig is not None and _KNOWN_GOOD.get(path.absolute()) == sig


def forget_known_good() -> None:
    """Forget which autosaves this process wrote or loaded: the next autosave reads a file
    before replacing it, as a new process would (tests that edit an autosave in place)."""
    _KNOWN_GOOD.clear()


def _guard(path: Path) -> str | None:
    """Before replacing or removing ``path``: move it aside unless it is a good save."""
    if not path.exists() or _known_good(path):
        return None
    try:
        load_save(path)
    except SaveError as exc:
        dest = atomic.move_aside(path)
        return Notice(f"{exc}; it was moved to {dest}", exc, dest)
    return None


_GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")


def new_game_id() -> str:
    """A name for a newly started game's autosave, unique across processes and time."""
    return f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{os.getpid()}-{secrets.token_hex(4)}"


def game_autosave_path(root: str | os.PathLike[str], game_id: str | None = None) -> Path:
    """``<data dir>/autosaves/<game_id>.json`` (``game_id`` None: the ``autosave.json`` of
    earlier versions, still read and resumed)."""
    if game_id is None:
        return autosave_path(root)
    if not _GAME_ID.fullmatch(game_id):
        raise ValueError(f"not a game id: {game_id!r}")
    return autosaves_dir(root) / f"{game_id}.json"


#: A game served to a web page (``mexitrain serve``): its ``autosaves/`` folder holds at most
#: this many autosaves (each unfinished game keeps one until it is resumed and ended). A new
#: game's first autosave beyond it is not written ("autosaves_full": the game goes on, the
#: status line says it is not saved); the games already there are autosaved as ever.
SERVED_AUTOSAVES = 100


def check_autosave_room(path: Path, bound: int) -> None:
    """Raise the "autosaves_full" :class:`SaveError` when ``path`` is a new file and its
    folder holds ``bound`` autosaves already."""
    if path.exists() or path.is_symlink():
        return
    count = 0
    try:
        with os.scandir(path.parent) as entries:
            for entry in entries:
                count += entry.name.endswith(".json") and not atomic.is_temp_file(entry.name)
    except OSError:
        return  # no folder yet: room; a folder that cannot be read: the write says why
    if count >= bound:
        raise SaveError(
            f"cannot save {path}: the autosaves folder is full ({bound} unfinished games at most)",
            path, action="save", code="autosaves_full", values={"games": bound},
        )


def autosave(
    state: GameState,
    setup: GameSetup,
    root: str | os.PathLike[str],
    *,
    speed: float | None = None,
    path: str | os.PathLike[str] | None = None,
    bound: int | None = None,
) -> str | None:
    """Save the game in progress to its autosave ``path`` (default: ``<data dir>/autosave.json``;
    each running game has its own, :func:`game_autosave_path`); call it after every action.

    A finished game is not kept: its autosave is cleared (record its statistics first, with
    :func:`mexitrain.storage.stats.record_finished_game`). Returns None, or a one-line notice
    when a damaged autosave found in the way was moved aside. Raises :class:`SaveError` when
    the file cannot be written (the previous autosave is then left as it was), or when it
    would be a new file in a folder of ``bound`` autosaves (a served game's:
    :data:`SERVED_AUTOSAVES`).
    """
    path = autosave_path(root) if path is None else Path(path)
    if state.over:
        return clear_autosave(root, path=path)
    if bound is not None:
        check_autosave_room(path, bound)
    data = save_data(state, setup, speed=speed, name=None)
    text = save_text(data)
    notice = _guard(path)
    try:
        atomic.write_text(path, text)
    except OSError as exc:
        raise os_error("save", path, exc) from None
    _remember(path)
    return notice


def clear_autosave(root: str | os.PathLike[str], *, path: str | os.PathLike[str] | None = None) -> str | None:
    """Remove the autosave ``path`` (default ``autosave.json``: a finished or abandoned game).
    A damaged one is moved aside instead, and the returned notice says where; otherwise returns
    None. Only the game that owns an autosave clears it."""
    path = autosave_path(root) if path is None else Path(path)
    notice = _guard(path)
    if notice is None:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise os_error("remove", path, exc) from None
        atomic.fsync_dir(path.parent)
    _KNOWN_GOOD.pop(path.absolute(), None)
    _clear_marker(path)
    return notice


@dataclass(frozen=True)
class Unfinished:
    """An autosave found at start: ``game`` to offer (None when it cannot be), ``error`` the
    one-line problem (:class:`SaveError`) when it cannot be read, ``busy`` when another window
    has it open, ``crashed`` when the last attempt to resume it did not get as far as the game
    (it is then offered to be moved aside rather than resumed blindly)."""

    path: Path
    game: SavedGame | None = None
    error: SaveError | None = None
    busy: bool = False
    crashed: bool = False

    @property
    def saved_at(self) -> datetime | None:
        return self.game.saved_at if self.game is not None else None


def _autosave_files(root: Path) -> list[Path]:
    found = [autosave_path(root)]
    try:
        entries = sorted(autosaves_dir(root).iterdir())
    except OSError:
        entries = []
    found += [
        p for p in entries
        if p.suffix == ".json" and not p.name.startswith(".") and not MOVED_ASIDE.search(p.stem)
        and _GAME_ID.fullmatch(p.stem)
    ]
    return [p for p in found if p.is_symlink() or p.exists()]


def find_autosaves(root: str | os.PathLike[str]) -> list[Unfinished]:
    """Every unfinished game left in the data folder, newest first.

    The autosave of a game open in another window is listed ``busy`` and not read further; a
    finished game's autosave (left by a game that stopped before clearing it) is cleared; a
    damaged one is moved aside to ``<name>.bad-N.json`` (its ``error`` says so); one made by a
    newer mexitrain, or that is not a regular file, is left where it is with its ``error``.
    """
    root = Path(root)
    atomic.clean_stale_temps(root, AUTOSAVE)
    atomic.clean_stale_temps(autosaves_dir(root))
    found: list[Unfinished] = []
    for path in _autosave_files(root):
        if locks.held_elsewhere(path):
            found.append(Unfinished(path, busy=True))
            continue
        crashed = _marker(path).exists()
        try:
            game = load_save(path)
        except SaveError as exc:
            if exc.code not in ("newer_version", "os_error") and _readable(path):
                dest = atomic.move_aside(path)
                _clear_marker(path)
                exc = SaveError(
                    f"{exc}; it was moved to {dest}", path, exc.problem, dest,
                    action=exc.action, code=exc.code, values=exc.values,
                )
            found.append(Unfinished(path, error=exc))
            continue
        _remember(path)
        if game.state.over:
            with contextlib.suppress(SaveError):
                clear_autosave(root, path=path)
            continue
        found.append(Unfinished(path, game=game, crashed=crashed))
    epoch = datetime.min.replace(tzinfo=UTC)
    found.sort(key=lambda u: (u.saved_at or epoch, u.path.name), reverse=True)
    return found


def find_autosave(root: str | os.PathLike[str]) -> SavedGame | None:
    """The newest unfinished game to offer for resuming, or None (see :func:`find_autosaves`).

    When none can be offered and an autosave was damaged, :class:`SaveError` is raised, its
    message naming the file and where it was moved; the next call returns None.
    """
    found = find_autosaves(root)
    for u in found:
        if u.game is not None and not u.busy:
            return u.game
    for u in found:
        if u.error is not None:
            raise u.error
    return None


def claim_autosave(path: str | os.PathLike[str]) -> SavedGame:
    """Take the autosave ``path`` for this window before resuming it: its lock first,
    without waiting, then the file read again under the lock, since another window may have
    resumed, played or finished it since it was listed.

    Returns the game as the file holds it now; the lock stays held (the autosaver continues
    the file). Raises :class:`SaveError` with ``code`` ``"busy"`` when another window holds
    the lock, ``"gone"`` when the file is no longer there or holds a finished game, or the
    file's own problem; the lock is then not kept.
    """
    path = Path(path)
    try:
        if not locks.acquire(path):
            raise SaveError(
                f"cannot resume {path}: it is open in another window", path, action="resume", code="busy"
            )
    except OSError:
        pass  # a read-only folder: no other window can write there either
    gone = SaveError(
        f"cannot resume {path}: it is no longer there (another window resumed or finished it)",
        path, action="resume", code="gone",
    )
    try:
        game = load_save(path)
    except SaveError as exc:
        locks.release(path)
        if exc.code == "os_error" and exc.values.get("errno") == errno.ENOENT:
            raise gone from None
        raise
    if game.state.over:  # finished elsewhere, its autosave not cleared yet: not ours to clear
        locks.release(path)
        raise gone
    _remember(path)
    return game


# -- resuming: a start that crashed while resuming does not crash again ------------------------
MARKER_SUFFIX = ".resuming"


def _marker(path: Path) -> Path:
    return path.with_name(path.stem + MARKER_SUFFIX)


def begin_resume(path: str | os.PathLike[str]) -> None:
    """Write the "resume in progress" marker next to the autosave ``path``, before resuming it;
    :func:`end_resume` removes it once the game is on screen. Found at the next start, the
    marker makes :func:`find_autosaves` flag the game ``crashed``. Errors are ignored (a
    read-only folder)."""
    with contextlib.suppress(OSError):
        atomic.write_text(_marker(Path(path)), datetime.now(UTC).isoformat() + "\n")


def end_resume(path: str | os.PathLike[str]) -> None:
    _clear_marker(Path(path))


def _clear_marker(path: Path) -> None:
    with contextlib.suppress(OSError):
        _marker(path).unlink()


def set_aside(path: str | os.PathLike[str]) -> Path:
    """Move an autosave the player chose not to resume (it crashed last time) to
    ``<name>.bad-N.json``, kept for a bug report; returns where. Raises :class:`SaveError`."""
    path = Path(path)
    try:
        dest = atomic.move_aside(path)
    except OSError as exc:
        raise os_error("save", path, exc) from None
    _clear_marker(path)
    _KNOWN_GOOD.pop(path.absolute(), None)
    return dest


def _readable(path: Path) -> bool:
    """True when the file is a regular file (so a failure was about its contents); never opens
    it (a FIFO would wait for a writer)."""
    return is_regular(path)
