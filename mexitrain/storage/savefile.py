"""The save file's format: what one save holds, written and read back (docs/saves.md).

A save file is one JSON object::

    {"format": "mexitrain-save", "version": 1,
     "app": {"setup": <GameSetup.model_dump()>, "speed": 0.6,
             "saved_at": "2026-11-30T05:38:04+00:00", "name": "Sunday game",
             "summary": {"round": 2, "over": false}},
     "record": <the game record of mexitrain.rules.record (docs/record-format.md)>}

so a saved game is also a replay: loading it replays every move through the rules engine,
which refuses anything illegal or inconsistent. Files are read as strict JSON and nothing
else (nothing is executed or unpickled), written atomically (:mod:`.atomic`), and every
problem with a file is one :class:`SaveError` whose message is one line naming the file::

    cannot load /x/game.json: round 2, event 14 (seat 1 play 7-3 on mexican): ...
    cannot load /x/game.json: it was written by a newer mexitrain (version 3; this one reads 1)

Named saves (save, list) are in :mod:`.saves`, autosaves in :mod:`.autosaves`.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..game_setup import GameSetup
from ..rules import GameState, IllegalAction
from ..rules.record import FORMAT as RECORD_FORMAT
from ..rules.record import (
    RecordError,
    dump_record,
    json_type,
    json_type_name,
    replay,
    to_record,
)
from ..rules.record_json import StrictJSONError, strict_json
from .safe import TooLarge, read_regular

FORMAT = "mexitrain-save"
VERSION = 1
#: Larger files are refused unread (a double-18 game for 13 players is well under 2 MB).
MAX_BYTES = 32 * 1024 * 1024

#: The keys of a save file's top object, all required (also checked by :mod:`.saves`' listing).
TOP_KEYS = ("format", "version", "app", "record")
#: Range of every value read from a save: out of range, the file is damaged (one line).
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


class BadContents(Exception):
    """What is wrong with a file's contents, raised by the parsers here and in :mod:`.saves` and
    :mod:`.stats` (the caller turns it into a SaveError with the file's path).
    ``code`` and ``values`` are passed on to the SaveError."""

    def __init__(self, message: str, code: str | None = None, **values: Any) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


def os_error(action: str, path: Path, exc: OSError) -> SaveError:
    """The SaveError (code ``os_error``) for an OSError while ``action`` ("load", "save",
    "remove") touched ``path``; the storage modules all report a refused file this way."""
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



def file_signature(path: Path) -> tuple[int, int, int] | None:
    """``(inode, size, mtime_ns)`` of ``path``, or None if it cannot be read: whether a file
    changed since it was last seen (the listing's and the autosaves' caches)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


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
    record = to_record(state, setup.seats, seed_chosen=setup.seed_chosen)
    app = {
        "setup": setup.model_dump(mode="json"),
        "speed": None if speed is None else float(speed),
        "saved_at": (saved_at or _now()).isoformat(),
        "name": name,
        # what Load… lists, ahead of the record: the listing reads only the file's head
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


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------
def parse_json(data: bytes) -> Any:
    """A file's bytes as strict JSON (saves, statistics); :class:`BadContents` if too large,
    empty, not UTF-8 or not strict JSON."""
    if len(data) > MAX_BYTES:
        raise BadContents(f"the file is too large to be a saved game ({len(data)} bytes)", "too_large", size=len(data))
    if not data.strip():
        raise BadContents("the file is empty", "empty")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadContents(
            f"the file is damaged: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})",
            "not_utf8",
            offset=exc.start,
        ) from None
    text = text.removeprefix("\ufeff")
    try:
        return strict_json(text)
    except StrictJSONError as exc:
        raise BadContents(f"not strict JSON: {exc}", "not_strict_json", error=exc) from None
    except json.JSONDecodeError as exc:
        cut = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")
        what = "truncated" if cut else "damaged: not valid JSON"
        raise BadContents(
            f"the file is {what} ({exc.msg}: line {exc.lineno}, column {exc.colno})",
            "truncated" if cut else "not_json",
            line=exc.lineno,
            column=exc.colno,
        ) from None
    except RecursionError:
        raise BadContents("the file is damaged: its JSON is nested too deeply", "too_deep") from None
    except ValueError as exc:  # e.g. an integer with thousands of digits
        raise BadContents(f"the file is damaged: {exc}", "not_json_value") from None


def check_header_named(data: Any, fmt: str, version_read: int, what: str) -> None:
    """Refuse what is not a JSON object of format ``fmt`` with a version this code reads."""
    if not isinstance(data, dict):
        raise BadContents(f"not a {what}: the file holds {json_type_name(data)}, not a JSON object", "wrong_format", format=fmt)
    found = data.get("format")
    if found != fmt:
        found_text = "no \"format\"" if "format" not in data else f"format {found!r}"
        raise BadContents(f"not a {what} ({found_text}, expected {fmt!r})", "wrong_format", format=fmt)
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise BadContents(
            f"the version must be a whole number, not {version!r}", "not_whole_number", field="version",
            found=json_type(version),
        )
    if version > version_read:
        raise BadContents(
            f"it was written by a newer mexitrain (version {version}; this one reads {version_read})",
            "newer_version",
            version=version,
            reads=version_read,
        )
    if version < 1:
        raise BadContents(
            f"unknown version {version} (this mexitrain reads {version_read})", "unknown_version",
            version=version, reads=version_read,
        )


def check_header(data: Any) -> str:
    """The file's format ("save" or "record") after checking its format name and version."""
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        return "record"  # a bare game record (mexitrain simulate --records): the record checks it
    check_header_named(data, FORMAT, VERSION, "mexitrain saved game")
    missing = [k for k in TOP_KEYS if k not in data]
    if missing:
        raise BadContents(f"the file lacks {', '.join(repr(k) for k in missing)}", "missing_keys", keys=tuple(missing))
    extra = [k for k in data if k not in TOP_KEYS]
    if extra:
        raise BadContents(f"the file has unknown {', '.join(repr(k) for k in extra)}", "unknown_keys", keys=tuple(extra))
    if not isinstance(data["app"], dict):
        raise BadContents(
            f"app must be an object, not {json_type_name(data['app'])}", "not_an_object", field="app",
            found=json_type(data["app"]),
        )
    return "save"


def parse_setup(value: Any) -> GameSetup:
    """A save's ``app.setup`` as a :class:`GameSetup`; :class:`BadContents` if it is not one."""
    if not isinstance(value, dict):
        raise BadContents(
            f"app.setup must be an object, not {json_type_name(value)}", "not_an_object", field="app.setup",
            found=json_type(value),
        )
    try:
        return GameSetup.model_validate_json(json.dumps(value), strict=True)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err.get("loc", ()))
        msg = str(err.get("msg", exc)).removeprefix("Value error, ")
        raise BadContents(f"app.setup{'.' + loc if loc else ''}: {msg}", "bad_setup", error=exc) from None


def _speed(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_SPEED:
        raise BadContents(f"app.speed must be a number of seconds (0 or more) or null, not {value!r}", "bad_speed")
    return float(value)


def parse_saved_at(value: Any, required: bool = True) -> datetime | None:
    """A save's ``app.saved_at`` (ISO date and time, in range); None if absent and not required."""
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise BadContents(f"app.saved_at must be an ISO date and time, not {json_type_name(value)}", "bad_date")
    if len(value) > 64:
        raise BadContents("app.saved_at is not an ISO date and time (too long)", "bad_date")
    try:
        when = datetime.fromisoformat(value)
        when = (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC)
    except (ValueError, OverflowError):
        raise BadContents(f"app.saved_at is not an ISO date and time: {value!r}", "bad_date") from None
    if not EARLIEST <= when < LATEST:  # any later display in local time stays in range
        raise BadContents(f"app.saved_at is out of range: {value!r}", "bad_date")
    return when


def parse_name(value: Any) -> str | None:
    """A save's ``app.name`` (a string of at most :data:`MAX_NAME` characters, or None)."""
    if isinstance(value, str) and len(value) > MAX_NAME:
        raise BadContents(
            f"app.name is longer than {MAX_NAME} characters", "not_a_string", field="app.name", found="string",
        )
    if value is None or isinstance(value, str):
        return value
    raise BadContents(
        f"app.name must be a string or null, not {json_type_name(value)}", "not_a_string", field="app.name",
        found=json_type(value),
    )


def _setup_of_record(record: dict, state: GameState) -> GameSetup:
    seats = [{"name": p["name"], "kind": p["kind"]} for p in record["players"]]
    return parse_setup({"rules": state.rules.model_dump(mode="json"), "seed": state.seed, "seats": seats})


def _check_consistent(setup: GameSetup, record: dict, state: GameState) -> None:
    players = [{"name": s.name, "kind": s.kind} for s in setup.seats]
    if record["players"] != players:
        raise BadContents("app.setup's seats do not match the record's players", "setup_mismatch", what="seats")
    if state.seed != setup.seed:
        raise BadContents(f"app.setup's seed {setup.seed} is not the record's seed {state.seed}", "setup_mismatch", what="seed")
    if state.rules != setup.rules:
        raise BadContents("app.setup's rules are not the record's rules", "setup_mismatch", what="rules")


def rules_of(record: dict):
    """The RuleSet a (checked) game record was played with."""
    from ..rules import RuleSet

    return RuleSet.model_validate(record["rules"], strict=True)


def parse_save(data: bytes, path: Path | None = None) -> SavedGame:
    """A save file's bytes, checked and replayed. Raises :class:`SaveError` ("cannot load
    <path>: <problem>"). Also reads a bare game record (``mexitrain-record``)."""
    where = str(path) if path is not None else "the saved game"
    try:
        return _parse(data, path)
    except BadContents as exc:
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
    top = parse_json(data)
    kind = check_header(top)
    if kind == "record":
        record = top
        app: dict[str, Any] = {}
        setup = None
    else:
        app = top["app"]
        record = top["record"]
        if "setup" not in app:
            raise BadContents("app lacks 'setup'", "missing_keys", field="app", keys=("setup",))
        if "saved_at" not in app:
            raise BadContents("app lacks 'saved_at'", "missing_keys", field="app", keys=("saved_at",))
        setup = parse_setup(app["setup"])
    speed = _speed(app.get("speed"))
    name = parse_name(app.get("name"))
    saved_at = parse_saved_at(app.get("saved_at"), required=kind == "save")
    if not isinstance(record, dict):
        raise BadContents(
            f"record must be an object, not {json_type_name(record)}", "not_an_object", field="record",
            found=json_type(record),
        )
    try:
        state = replay(record)  # checks the record completely
    except RecordError as exc:
        raise _record_problem(exc, record) from None
    if setup is None:
        setup = _setup_of_record(record, state)
    else:
        _check_consistent(setup, record, state)
    return SavedGame(path=path, setup=setup, state=state, speed=speed, name=name, saved_at=saved_at)


def _record_problem(exc: RecordError, record: dict) -> BadContents:
    """A RecordError as a BadContents with the same message and its data (an illegal move also
    keeps the players' names)."""
    v = exc.values
    if exc.code == "illegal_move" and isinstance(v.get("reason"), IllegalAction):
        names = tuple(str(p.get("name")) for p in record["players"])
        return BadContents(
            str(exc), "illegal_move", round=v["round"], event=v["event"], seat=v["seat"], names=names,
            reason=v["reason"],
        )
    return BadContents(str(exc), "bad_record", error=exc)


def read_bounded(path: Path) -> bytes:
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
        raise os_error("load", path, exc) from None


def load_save(path: str | os.PathLike[str]) -> SavedGame:
    """Read and replay a save file (or a bare game record): setup, state, speed, name, date."""
    path = Path(path)
    return parse_save(read_bounded(path), path)


def load_game(path: str | os.PathLike[str]) -> tuple[GameSetup, GameState]:
    """``(setup, state)`` of a save file; the state is the snapshot after its last move,
    equal to the one saved. Raises :class:`SaveError`; the file is never modified."""
    game = load_save(path)
    return game.setup, game.state

