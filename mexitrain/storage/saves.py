"""Saved games and the autosave (docs/saves.md).

A save file is one JSON object::

    {"format": "mexitrain-save", "version": 1,
     "app": {"setup": <GameSetup.model_dump()>, "speed": 0.6,
             "saved_at": "2026-11-30T05:38:04+00:00", "name": "Sunday game"},
     "record": <the game record of mexitrain.rules.record (docs/record-format.md)>}

so a saved game is also a replay: loading it replays every move through the rules engine,
which refuses anything illegal or inconsistent. Files are read as strict JSON and nothing
else (nothing is executed or unpickled), written atomically (:mod:`.atomic`), and every
problem with a file is one :class:`SaveError` whose message is one line naming the file::

    cannot load /x/game.json: round 2, event 14 (seat 1 play 7-3 on mexican): ...
    cannot load /x/game.json: it was written by a newer mexitrain (version 3; this one reads 1)

A file that cannot be loaded is never overwritten or deleted; a bad autosave is renamed to
``autosave.bad-N.json`` (and the message says so).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import json
import math
import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..rules import GameState, IllegalAction
from ..rules.record import FORMAT as RECORD_FORMAT
from ..rules.record import (
    RecordError,
    StrictJSONError,
    _no_constants,
    _unique_keys,
    dump_record,
    json_type,
    json_type_name,
    replay,
    strict_json,
    to_record,
)
from ..table import GameSetup
from . import atomic, locks
from .paths import AUTOSAVE, MOVED_ASIDE, autosave_path, autosaves_dir, save_path, saves_dir
from .safe import TooLarge, is_regular, open_regular, read_regular

FORMAT = "mexitrain-save"
VERSION = 1
#: Larger files are refused unread (a double-18 game for 13 players is well under 2 MB).
MAX_BYTES = 32 * 1024 * 1024

_TOP_KEYS = ("format", "version", "app", "record")
#: Range of every value read from a save (issue 21): out of range, the file is damaged (one line).
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)
MAX_NAME = 200
MAX_SPEED = 3600.0


class SaveError(Exception):
    """A save file that cannot be written or read. ``str(error)`` is one line naming the file.

    ``path`` is the file concerned (or None); ``problem`` the message without the file part.
    ``moved_to`` is where a bad autosave (or stats file) was moved aside, if it was.

    For interfaces, as data: ``action`` is what failed (``"load"``, ``"save"``, ``"remove"``
    or None), ``code`` names the problem (None when it has no code: the English message is
    then all there is) and ``values`` its particulars; ``mexitrain.text.files.save_error_text``
    turns them into a sentence in the player's language.
    """

    def __init__(
        self,
        message: str,
        path: Path | None = None,
        problem: str = "",
        moved_to: Path | None = None,
        *,
        action: str | None = None,
        code: str | None = None,
        values: dict[str, Any] | None = None,
    ) -> None:
        message = " ".join(message.split())
        super().__init__(message)
        self.path = path
        self.problem = problem or message
        self.moved_to = moved_to
        self.action = action
        self.code = code
        self.values = dict(values or {})


class Notice(str):
    """A one-line notice (English, as a ``str``) that a damaged file was moved aside, with its
    data for interfaces: ``error`` (the :class:`SaveError` that found it damaged), ``moved_to``,
    and ``new_stats`` (True when new statistics were started). ``mexitrain.text.files`` says it
    in the player's language (``notice_text``)."""

    error: SaveError
    moved_to: Path
    new_stats: bool

    def __new__(cls, text: str, error: SaveError, moved_to: Path, *, new_stats: bool = False) -> Notice:
        self = super().__new__(cls, text)
        self.error, self.moved_to, self.new_stats = error, moved_to, new_stats
        return self


class _Bad(Exception):
    """Internal: what is wrong with a file's contents (becomes a SaveError with its path).
    ``code`` and ``values`` are passed on to the SaveError."""

    def __init__(self, message: str, code: str | None = None, **values: Any) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


def _os_error(action: str, path: Path, exc: OSError) -> SaveError:
    verb = {"load": "cannot load", "save": "cannot save", "remove": "cannot remove"}[action]
    error = exc.strerror or str(exc)
    return SaveError(
        f"{verb} {path}: {error}",
        path,
        action=action,
        code="os_error",
        values={"errno": exc.errno, "error": error},
    )


@dataclass(frozen=True)
class SavedGame:
    """A loaded save: the table, the snapshot after the last recorded move, and the app data."""

    path: Path | None
    setup: GameSetup
    state: GameState
    speed: float | None
    name: str | None
    saved_at: datetime | None


@dataclass(frozen=True)
class SaveInfo:
    """What the load screen lists about a save, read without replaying it.

    ``error`` is the one-line problem when the file cannot even be read that far (the other
    fields are then None); a file listed without error can still fail :func:`load_game`.
    """

    path: Path
    name: str | None
    saved_at: datetime | None
    players: tuple[str, ...] | None
    round: int | None
    rounds: int | None
    over: bool | None
    error: str | None = None

    @property
    def title(self) -> str:
        return self.name or self.path.stem


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------
def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def _check_match(state: GameState, setup: GameSetup) -> None:
    if (
        state.players != setup.players
        or state.seed != setup.seed
        or state.rules != setup.rules
    ):
        raise SaveError(
            "cannot save: the game's setup does not match the game "
            f"({setup.players} seats, seed {setup.seed} vs {state.players} players, seed {state.seed})"
        )


def save_data(
    state: GameState,
    setup: GameSetup,
    *,
    speed: float | None = None,
    name: str | None = None,
    saved_at: datetime | None = None,
) -> dict[str, Any]:
    """The save file's contents as a JSON-able dict (see the module docstring)."""
    _check_match(state, setup)
    if speed is not None and not (isinstance(speed, int | float) and math.isfinite(speed) and speed >= 0):
        raise SaveError(f"cannot save: the speed must be a number of seconds, not {speed!r}")
    record = to_record(state, setup.seats)
    app = {
        "setup": setup.model_dump(mode="json"),
        "speed": None if speed is None else float(speed),
        "saved_at": (saved_at or _now()).isoformat(),
        "name": name,
        # what Load… lists, ahead of the record: the listing reads only the file's head (issue 21)
        "summary": {"round": len(record["rounds"]), "over": bool(record["winners"])},
    }
    return {"format": FORMAT, "version": VERSION, "app": app, "record": record}


def save_text(data: dict[str, Any]) -> str:
    """JSON text of :func:`save_data`'s dict: the record laid out one event per line."""
    def nested(text: str) -> str:
        return "\n  ".join(text.rstrip("\n").split("\n"))

    app = json.dumps(data["app"], ensure_ascii=False, allow_nan=False, indent=2)
    return (
        f"{{\n  \"format\": {json.dumps(data['format'])},\n"
        f"  \"version\": {json.dumps(data['version'])},\n"
        f"  \"app\": {nested(app)},\n"
        f"  \"record\": {nested(dump_record(data['record']))}\n}}\n"
    )


def save_game(
    path: str | os.PathLike[str],
    state: GameState,
    setup: GameSetup,
    *,
    speed: float | None = None,
    name: str | None = None,
) -> Path:
    """Write ``state`` (finished or not) with its ``setup`` to ``path``, atomically.

    Raises :class:`SaveError` ("cannot save /x/y.json: No space left on device"); the file
    that was there before is then untouched.
    """
    path = Path(path)
    text = save_text(save_data(state, setup, speed=speed, name=name))
    try:
        return atomic.write_text(path, text)
    except OSError as exc:
        raise _os_error("save", path, exc) from None


def save_named(
    root: str | os.PathLike[str],
    name: str,
    state: GameState,
    setup: GameSetup,
    *,
    speed: float | None = None,
    overwrite: bool = False,
) -> Path:
    """Save under a name: ``<data dir>/saves/<name>.json`` (the name is made file-safe).

    An existing save of that name is replaced only with ``overwrite=True``, and even then a
    file that does not load is first moved aside (``<name>.bad-N.json``), never replaced.
    """
    try:
        path = save_path(root, name)
    except ValueError as exc:
        raise SaveError(
            f"cannot save: {exc}", action="save", code="bad_name", values={"name": name}
        ) from None
    if path.exists():
        if not overwrite:
            raise SaveError(
                f"cannot save {path}: a saved game with that name exists",
                path,
                action="save",
                code="name_taken",
                values={"name": name},
            )
        try:
            load_save(path)
        except SaveError:
            atomic.move_aside(path)
    return save_game(path, state, setup, speed=speed, name=name.strip())


# -- autosave ----------------------------------------------------------------------------
# The (inode, size, mtime) of each autosave this process wrote or loaded: such a file is known
# good, so the next autosave may replace it without reading it first.
_KNOWN_GOOD: dict[Path, tuple[int, int, int]] = {}


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _remember(path: Path) -> None:
    sig = _signature(path)
    if sig is not None:
        _KNOWN_GOOD[path.absolute()] = sig


def _known_good(path: Path) -> bool:
    sig = _signature(path)
    return sig is not None and _KNOWN_GOOD.get(path.absolute()) == sig


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


def autosave(
    state: GameState,
    setup: GameSetup,
    root: str | os.PathLike[str],
    *,
    speed: float | None = None,
    path: str | os.PathLike[str] | None = None,
) -> str | None:
    """Save the game in progress to its autosave ``path`` (default: ``<data dir>/autosave.json``;
    each running game has its own, :func:`game_autosave_path`); call it after every action.

    A finished game is not kept: its autosave is cleared (record its statistics first, with
    :func:`mexitrain.storage.stats.record_finished_game`). Returns None, or a one-line notice
    when a damaged autosave found in the way was moved aside. Raises :class:`SaveError` when
    the file cannot be written (the previous autosave is then left as it was).
    """
    path = autosave_path(root) if path is None else Path(path)
    if state.over:
        return clear_autosave(root, path=path)
    data = save_data(state, setup, speed=speed, name=None)
    text = save_text(data)
    notice = _guard(path)
    try:
        atomic.write_text(path, text)
    except OSError as exc:
        raise _os_error("save", path, exc) from None
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
            raise _os_error("remove", path, exc) from None
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
    """Every unfinished game left in the data folder, newest first (issue 21).

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
    """Take the autosave ``path`` for this window before resuming it (issue 21): its lock first,
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
        raise _os_error("save", path, exc) from None
    _clear_marker(path)
    _KNOWN_GOOD.pop(path.absolute(), None)
    return dest


def _readable(path: Path) -> bool:
    """True when the file is a regular file (so a failure was about its contents); never opens
    it (a FIFO would wait for a writer)."""
    return is_regular(path)


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------
def _parse_json(data: bytes) -> Any:
    if len(data) > MAX_BYTES:
        raise _Bad(f"the file is too large to be a saved game ({len(data)} bytes)", "too_large", size=len(data))
    if not data.strip():
        raise _Bad("the file is empty", "empty")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Bad(
            f"the file is damaged: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})",
            "not_utf8",
            offset=exc.start,
        ) from None
    text = text.removeprefix("\ufeff")
    try:
        return strict_json(text)
    except StrictJSONError as exc:
        raise _Bad(f"not strict JSON: {exc}", "not_strict_json", error=exc) from None
    except json.JSONDecodeError as exc:
        cut = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")
        what = "truncated" if cut else "damaged: not valid JSON"
        raise _Bad(
            f"the file is {what} ({exc.msg}: line {exc.lineno}, column {exc.colno})",
            "truncated" if cut else "not_json",
            line=exc.lineno,
            column=exc.colno,
        ) from None
    except RecursionError:
        raise _Bad("the file is damaged: its JSON is nested too deeply", "too_deep") from None
    except ValueError as exc:  # e.g. an integer with thousands of digits
        raise _Bad(f"the file is damaged: {exc}", "not_json_value") from None


def _check_header_named(data: Any, fmt: str, version_read: int, what: str) -> None:
    """Refuse what is not a JSON object of format ``fmt`` with a version this code reads."""
    if not isinstance(data, dict):
        raise _Bad(f"not a {what}: the file holds {json_type_name(data)}, not a JSON object", "wrong_format", format=fmt)
    found = data.get("format")
    if found != fmt:
        found_text = "no \"format\"" if "format" not in data else f"format {found!r}"
        raise _Bad(f"not a {what} ({found_text}, expected {fmt!r})", "wrong_format", format=fmt)
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise _Bad(
            f"the version must be a whole number, not {version!r}", "not_whole_number", field="version",
            found=json_type(version),
        )
    if version > version_read:
        raise _Bad(
            f"it was written by a newer mexitrain (version {version}; this one reads {version_read})",
            "newer_version",
            version=version,
            reads=version_read,
        )
    if version < 1:
        raise _Bad(
            f"unknown version {version} (this mexitrain reads {version_read})", "unknown_version",
            version=version, reads=version_read,
        )


def _check_header(data: Any) -> str:
    """The file's format ("save" or "record") after checking its format name and version."""
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        return "record"  # a bare game record (mexitrain simulate --records): the record checks it
    _check_header_named(data, FORMAT, VERSION, "mexitrain saved game")
    missing = [k for k in _TOP_KEYS if k not in data]
    if missing:
        raise _Bad(f"the file lacks {', '.join(repr(k) for k in missing)}", "missing_keys", keys=tuple(missing))
    extra = [k for k in data if k not in _TOP_KEYS]
    if extra:
        raise _Bad(f"the file has unknown {', '.join(repr(k) for k in extra)}", "unknown_keys", keys=tuple(extra))
    if not isinstance(data["app"], dict):
        raise _Bad(
            f"app must be an object, not {json_type_name(data['app'])}", "not_an_object", field="app",
            found=json_type(data["app"]),
        )
    return "save"


def _setup(value: Any) -> GameSetup:
    if not isinstance(value, dict):
        raise _Bad(
            f"app.setup must be an object, not {json_type_name(value)}", "not_an_object", field="app.setup",
            found=json_type(value),
        )
    try:
        return GameSetup.model_validate_json(json.dumps(value), strict=True)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err.get("loc", ()))
        msg = str(err.get("msg", exc)).removeprefix("Value error, ")
        raise _Bad(f"app.setup{'.' + loc if loc else ''}: {msg}", "bad_setup", error=exc) from None


def _speed(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_SPEED:
        raise _Bad(f"app.speed must be a number of seconds (0 or more) or null, not {value!r}", "bad_speed")
    return float(value)


def _saved_at(value: Any, required: bool = True) -> datetime | None:
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise _Bad(f"app.saved_at must be an ISO date and time, not {json_type_name(value)}", "bad_date")
    if len(value) > 64:
        raise _Bad("app.saved_at is not an ISO date and time (too long)", "bad_date")
    try:
        when = datetime.fromisoformat(value)
        when = (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC)
    except (ValueError, OverflowError):
        raise _Bad(f"app.saved_at is not an ISO date and time: {value!r}", "bad_date") from None
    if not EARLIEST <= when < LATEST:  # any later display in local time stays in range
        raise _Bad(f"app.saved_at is out of range: {value!r}", "bad_date")
    return when


def _name(value: Any) -> str | None:
    if isinstance(value, str) and len(value) > MAX_NAME:
        raise _Bad(
            f"app.name is longer than {MAX_NAME} characters", "not_a_string", field="app.name", found="string",
        )
    if value is None or isinstance(value, str):
        return value
    raise _Bad(
        f"app.name must be a string or null, not {json_type_name(value)}", "not_a_string", field="app.name",
        found=json_type(value),
    )


def _setup_of_record(record: dict, state: GameState) -> GameSetup:
    seats = [{"name": p["name"], "kind": p["kind"]} for p in record["players"]]
    return _setup({"rules": state.rules.model_dump(mode="json"), "seed": state.seed, "seats": seats})


def _check_consistent(setup: GameSetup, record: dict, state: GameState) -> None:
    players = [{"name": s.name, "kind": s.kind} for s in setup.seats]
    if record["players"] != players:
        raise _Bad("app.setup's seats do not match the record's players", "setup_mismatch", what="seats")
    if state.seed != setup.seed:
        raise _Bad(f"app.setup's seed {setup.seed} is not the record's seed {state.seed}", "setup_mismatch", what="seed")
    if state.rules != setup.rules:
        raise _Bad("app.setup's rules are not the record's rules", "setup_mismatch", what="rules")


def _rules_of(record: dict):
    from ..rules import RuleSet

    return RuleSet.model_validate(record["rules"], strict=True)


def parse_save(data: bytes, path: Path | None = None) -> SavedGame:
    """A save file's bytes, checked and replayed. Raises :class:`SaveError` ("cannot load
    <path>: <problem>"). Also reads a bare game record (``mexitrain-record``)."""
    where = str(path) if path is not None else "the saved game"
    try:
        return _parse(data, path)
    except _Bad as exc:
        problem, code, values = str(exc), exc.code, exc.values
    except RecordError as exc:
        problem, code, values = str(exc), "bad_record", {"error": exc}
    except Exception as exc:  # a bug, not the file's fault: still one clear line, no crash
        problem = f"internal error while reading it ({type(exc).__name__}: {exc})"
        code, values = "internal", {"error": f"{type(exc).__name__}: {exc}"}
    raise SaveError(
        f"cannot load {where}: {problem}", path, problem, action="load", code=code, values=values
    )


def _parse(data: bytes, path: Path | None) -> SavedGame:
    top = _parse_json(data)
    kind = _check_header(top)
    if kind == "record":
        record = top
        app: dict[str, Any] = {}
        setup = None
    else:
        app = top["app"]
        record = top["record"]
        if "setup" not in app:
            raise _Bad("app lacks 'setup'", "missing_keys", field="app", keys=("setup",))
        if "saved_at" not in app:
            raise _Bad("app lacks 'saved_at'", "missing_keys", field="app", keys=("saved_at",))
        setup = _setup(app["setup"])
    speed = _speed(app.get("speed"))
    name = _name(app.get("name"))
    saved_at = _saved_at(app.get("saved_at"), required=kind == "save")
    if not isinstance(record, dict):
        raise _Bad(
            f"record must be an object, not {json_type_name(record)}", "not_an_object", field="record",
            found=json_type(record),
        )
    _precheck_events(record)
    try:
        state = replay(record)  # checks the record completely
    except RecordError as exc:
        raise _record_problem(exc, record) from None
    if setup is None:
        setup = _setup_of_record(record, state)
    else:
        _check_consistent(setup, record, state)
    return SavedGame(path=path, setup=setup, state=state, speed=speed, name=name, saved_at=saved_at)


def _record_problem(exc: RecordError, record: dict) -> _Bad:
    """A RecordError as a _Bad with the same message and its data (an illegal move also
    keeps the players' names)."""
    v = exc.values
    if exc.code == "illegal_move" and isinstance(v.get("reason"), IllegalAction):
        names = tuple(str(p.get("name")) for p in record["players"])
        return _Bad(
            str(exc), "illegal_move", round=v["round"], event=v["event"], seat=v["seat"], names=names,
            reason=v["reason"],
        )
    return _Bad(str(exc), "bad_record", error=exc)


def _is_tile(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def _precheck_events(record: dict) -> None:
    """Two event checks the record module does not make yet (an event type that is not a
    string, a draw whose tile is not a tile); it would fail on them with a TypeError."""
    rounds = record.get("rounds")
    for k, rd in enumerate(rounds if isinstance(rounds, list) else (), start=1):
        events = rd.get("events") if isinstance(rd, dict) else None
        for j, e in enumerate(events if isinstance(events, list) else (), start=1):
            if not isinstance(e, dict):
                continue
            kind = e.get("type")
            where = f"round {k}, event {j}"
            if not isinstance(kind, str | None):
                raise _Bad(
                    f"{where}: the event type must be one of play, draw, mark, pass, skip, "
                    f"not {kind!r}",
                    "bad_record",
                    error=RecordError(
                        "bad event type", "event_type", round=k, event=j,
                        choices=("play", "draw", "mark", "pass", "skip"), value=None,
                    ),
                )
            if kind == "draw" and "tile" in e and not _is_tile(e["tile"]):
                raise _Bad(
                    f"{where} (seat {e.get('seat')!r} draw): tile must be a tile [a, b] of two "
                    f"whole numbers, not {e['tile']!r}",
                    "bad_record",
                    error=RecordError("bad tile", "not_a_tile", round=k, event=j, field="tile"),
                )


def _read(path: Path) -> bytes:
    """The file's bytes: only a regular file (a FIFO or a device is refused unread, so it cannot
    hang the program) and at most :data:`MAX_BYTES` (:mod:`.safe`)."""
    try:
        return read_regular(path, MAX_BYTES)
    except TooLarge as exc:
        raise SaveError(
            f"cannot load {path}: the file is too large to be a saved game ({exc.size} bytes)",
            path,
            action="load",
            code="too_large",
            values={"size": exc.size},
        ) from None
    except OSError as exc:
        raise _os_error("load", path, exc) from None


def load_save(path: str | os.PathLike[str]) -> SavedGame:
    """Read and replay a save file (or a bare game record): setup, state, speed, name, date."""
    path = Path(path)
    return parse_save(_read(path), path)


def load_game(path: str | os.PathLike[str]) -> tuple[GameSetup, GameState]:
    """``(setup, state)`` of a save file; the state is the snapshot after its last move,
    equal to the one saved. Raises :class:`SaveError`; the file is never modified."""
    game = load_save(path)
    return game.setup, game.state


# -- listing -----------------------------------------------------------------------------
#: How much of a save's beginning the listing reads: the header and ``app`` (setup, name, date,
#: summary) come before the record, and are a few KB even for 13 players with long names.
HEAD_BYTES = 256 * 1024
MAX_ROUNDS = 1000

# What the listing found per file, keyed by (inode, size, mtime): reopening Load… reads nothing
# again, not even the legacy saves (no summary) that must be read whole.
_LISTED: dict[Path, tuple[tuple[int, int, int], SaveInfo]] = {}
_LISTED_MAX = 512


class _NoSummary(Exception):
    """Internal: the file's head does not give the listing what it needs (a save of an earlier
    version, a bare record, keys in another order...): the whole file is read instead."""


def _read_head(path: Path) -> bytes:
    """At most :data:`HEAD_BYTES` from the start of a regular file (:mod:`.safe`'s open)."""
    try:
        fd = open_regular(path)
    except OSError as exc:
        raise _os_error("load", path, exc) from None
    try:
        chunks: list[bytes] = []
        got = 0
        while got < HEAD_BYTES:
            chunk = os.read(fd, HEAD_BYTES - got)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise _os_error("load", path, exc) from None
    finally:
        os.close(fd)


_HEAD_DECODER = json.JSONDecoder(parse_constant=_no_constants, object_pairs_hook=_unique_keys)
_WS = re.compile(r"[ \t\n\r]*")


def _head_members(data: bytes) -> dict[str, Any]:
    """The top-level members of a save that come before ``"record"``, parsed strictly from the
    file's head alone. Raises :class:`_NoSummary` when the head does not reach ``"record"``
    cleanly (the caller then reads the whole file, which says what is wrong with it)."""
    text = codecs.getincrementaldecoder("utf-8")().decode(data, final=False)  # a cut last character waits
    text = text.removeprefix("\ufeff")
    at = _WS.match(text, 0).end()
    if text[at : at + 1] != "{":
        raise _NoSummary
    at += 1
    members: dict[str, Any] = {}
    try:
        while True:
            at = _WS.match(text, at).end()
            key, at = _HEAD_DECODER.raw_decode(text, at)
            at = _WS.match(text, at).end()
            if not isinstance(key, str) or text[at : at + 1] != ":" or key in members:
                raise _NoSummary
            if key == "record":
                return members
            value, at = _HEAD_DECODER.raw_decode(text, _WS.match(text, at + 1).end())
            members[key] = value
            at = _WS.match(text, at).end()
            if text[at : at + 1] != ",":
                raise _NoSummary  # "}" before "record", or the head ends here
            at += 1
    except (ValueError, RecursionError):  # JSONDecodeError, StrictJSONError, a huge number...
        raise _NoSummary from None


def _head_info(path: Path) -> SaveInfo:
    """What the listing shows, from the file's head: the header, ``app.setup`` (players, round
    count), name, date and ``app.summary`` (round, over). The record is not read: a file whose
    record is damaged is listed, and refused in one line when it is loaded."""
    head = _head_members(_read_head(path))
    if head.get("format") != FORMAT or not isinstance(head.get("app"), dict):
        raise _NoSummary  # a bare record, or not a save: the whole file says what it is
    _check_header_named(head, FORMAT, VERSION, "mexitrain saved game")
    unknown = [k for k in head if k not in _TOP_KEYS]
    if unknown:
        raise _NoSummary
    app = head["app"]
    summary = app.get("summary")
    if not isinstance(summary, dict) or "setup" not in app:
        raise _NoSummary  # a save of an earlier version
    number, over = summary.get("round"), summary.get("over")
    if (
        not isinstance(over, bool)
        or not isinstance(number, int)
        or isinstance(number, bool)
        or not 1 <= number <= MAX_ROUNDS
    ):
        raise _NoSummary
    setup = _setup(app["setup"])
    return SaveInfo(
        path=path,
        name=_name(app.get("name")),
        saved_at=_saved_at(app.get("saved_at"), required=False),
        players=tuple(s.name for s in setup.seats),
        round=number,
        rounds=setup.rules.round_count,
        over=over,
    )


def _info(path: Path) -> SaveInfo:
    """The listing of one file: its head when that is enough, else the whole file (cached by
    inode, size and modification time)."""
    sig = _signature(path)
    key = path.absolute()
    cached = _LISTED.get(key)
    if sig is not None and cached is not None and cached[0] == sig:
        return cached[1]
    try:
        info = _head_info(path)
    except _NoSummary:
        info = _full_info(path)
    except (SaveError, _Bad) as exc:
        info = _info_error(path, exc)
    except Exception as exc:  # a bug, not the file's fault: still one line
        info = _info_internal(path, exc)
    if sig is not None:
        if len(_LISTED) >= _LISTED_MAX:
            _LISTED.clear()
        _LISTED[key] = (sig, info)
    return info


def _info_error(path: Path, exc: SaveError | _Bad) -> SaveInfo:
    from ..text.files import save_error_text  # the listing is shown to the player

    if isinstance(exc, _Bad):
        exc = SaveError(f"cannot load {path}: {exc}", path, str(exc), action="load", code=exc.code, values=exc.values)
    return SaveInfo(path, None, None, None, None, None, None, save_error_text(exc))


def _info_internal(path: Path, exc: Exception) -> SaveInfo:
    from ..text.files import save_error_text

    error = SaveError(
        f"cannot load {path}: internal error while reading it ({type(exc).__name__}: {exc})", path,
        action="load", code="internal", values={"error": f"{type(exc).__name__}: {exc}"},
    )
    return SaveInfo(path, None, None, None, None, None, None, save_error_text(error))


def _full_info(path: Path) -> SaveInfo:
    """The listing of a file read whole (saves of earlier versions, bare records)."""
    try:
        top = _parse_json(_read(path))
        kind = _check_header(top)
        app = top.get("app", {}) if kind == "save" else {}
        record = top.get("record") if kind == "save" else top
        if not isinstance(record, dict):
            raise _Bad(
                f"record must be an object, not {json_type_name(record)}", "not_an_object", field="record",
                found=json_type(record),
            )
        players = record.get("players")
        rounds = record.get("rounds")
        rules = record.get("rules")
        names = tuple(
            str(p.get("name"))[:MAX_NAME] for p in players[:64] if isinstance(p, dict)
        ) if isinstance(players, list) else None
        count = None
        if isinstance(rules, dict):
            try:
                count = _rules_of(record).round_count
            except (ValidationError, ValueError):
                count = None
        return SaveInfo(
            path=path,
            name=_name(app.get("name")),
            saved_at=_saved_at(app.get("saved_at"), required=False),
            players=names,
            round=len(rounds) if isinstance(rounds, list) else None,
            rounds=count,
            over=bool(record.get("winners")),
        )
    except (SaveError, _Bad) as exc:
        return _info_error(path, exc)
    except Exception as exc:  # a bug, not the file's fault: still one line
        return _info_internal(path, exc)


def list_saves(root: str | os.PathLike[str]) -> list[SaveInfo]:
    """The games saved under a name, newest first (read without replaying them).

    Temporary files of interrupted writes and moved-aside bad files are not listed; a file
    that cannot be read is listed with its ``error``.
    """
    folder = saves_dir(root)
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    infos = [
        _info(p)
        for p in entries
        if p.suffix == ".json"
        and not atomic.is_temp_file(p)
        and not p.name.startswith(".")
        and not MOVED_ASIDE.search(p.stem)
        and is_regular(p)
    ]
    epoch = datetime.min.replace(tzinfo=UTC)
    infos.sort(key=lambda i: (i.saved_at or epoch, i.path.name), reverse=True)
    return infos


__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "VERSION",
    "Notice",
    "SaveError",
    "SaveInfo",
    "SavedGame",
    "Unfinished",
    "autosave",
    "begin_resume",
    "claim_autosave",
    "clear_autosave",
    "end_resume",
    "find_autosave",
    "find_autosaves",
    "game_autosave_path",
    "new_game_id",
    "set_aside",
    "list_saves",
    "load_game",
    "load_save",
    "parse_save",
    "save_data",
    "save_game",
    "save_named",
    "save_text",
]
