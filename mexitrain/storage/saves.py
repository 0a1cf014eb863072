"""Games saved under a name: save, load, list (docs/saves.md).

The file's format and its checks are in :mod:`.savefile`; a file that cannot be loaded is
never overwritten or deleted (saving over it moves it aside to ``<name>.bad-N.json`` first).
"""

from __future__ import annotations

import codecs
import json
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..game_setup import GameSetup
from ..rules import GameState
from ..rules.record import json_type, json_type_name
from ..rules.record_json import no_constants, unique_keys
from . import atomic
from .paths import MOVED_ASIDE, save_path, saves_dir
from .safe import is_regular, open_regular
from .savefile import (
    FORMAT,
    MAX_NAME,
    TOP_KEYS,
    VERSION,
    BadContents,
    SaveError,
    check_header,
    check_header_named,
    file_signature,
    load_save,
    os_error,
    parse_json,
    parse_name,
    parse_saved_at,
    parse_setup,
    read_bounded,
    rules_of,
    save_data,
    save_text,
)


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
    return _write(Path(path), save_text(save_data(state, setup, speed=speed, name=name)))


def _write(path: Path, text: str) -> Path:
    try:
        return atomic.write_text(path, text)
    except OSError as exc:
        raise os_error("save", path, exc) from None


#: A game served to a web page (``mexitrain serve``): its ``saves/`` folder holds at most this
#: many files, of at most this many bytes in all (a full game's save is 100-300 KB). A new
#: name beyond either is refused in one line (``code`` "saves_full"); a save over an old name
#: is still written if the folder stays within the bytes.
SERVED_SAVES = 50
SERVED_SAVES_BYTES = 20 * 1024 * 1024


def _folder_use(folder: Path) -> tuple[int, int, dict[str, int]]:
    """(files, bytes, each file's size by name) of the folder ``folder`` (links not followed)."""
    sizes: dict[str, int] = {}
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    sizes[entry.name] = entry.stat(follow_symlinks=False).st_size
                except OSError:
                    sizes[entry.name] = 0
    except OSError:
        pass
    return len(sizes), sum(sizes.values()), sizes


def _check_room(path: Path, text: str, bound: tuple[int, int]) -> None:
    """Raise the "saves_full" :class:`SaveError` when writing ``text`` to ``path`` would take
    its folder past ``bound`` (files, bytes)."""
    most_files, most_bytes = bound
    files, used, sizes = _folder_use(path.parent)
    old = sizes.get(path.name)
    new_file = old is None
    if (new_file and files >= most_files) or used - (old or 0) + len(text.encode("utf-8")) > most_bytes:
        raise SaveError(
            f"cannot save {path}: the saves folder is full ({most_files} files or {most_bytes} bytes at most)",
            path, action="save", code="saves_full",
            values={"files": most_files, "megabytes": most_bytes // (1024 * 1024)},
        )


def save_named(
    root: str | os.PathLike[str],
    name: str,
    state: GameState,
    setup: GameSetup,
    *,
    speed: float | None = None,
    overwrite: bool = False,
    bound: tuple[int, int] | None = None,
) -> Path:
    """Save under a name: ``<data dir>/saves/<name>.json`` (the name is made file-safe).

    An existing save of that name is replaced only with ``overwrite=True``, and even then a
    file that does not load is first moved aside (``<name>.bad-N.json``), never replaced.
    ``bound`` (files, bytes; a served game's: :data:`SERVED_SAVES`,
    :data:`SERVED_SAVES_BYTES`): the ``saves/`` folder never goes past it, a save that would
    is refused (``code`` "saves_full") and nothing is written.
    """
    try:
        path = save_path(root, name)
    except ValueError as exc:
        raise SaveError(
            f"cannot save: {exc}", action="save", code="bad_name", values={"name": name}
        ) from None
    text = save_text(save_data(state, setup, speed=speed, name=name.strip()))
    if bound is not None:
        _check_room(path, text, bound)
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
    return _write(path, text)


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
        raise os_error("load", path, exc) from None
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
        raise os_error("load", path, exc) from None
    finally:
        os.close(fd)


_HEAD_DECODER = json.JSONDecoder(parse_constant=no_constants, object_pairs_hook=unique_keys)
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
    check_header_named(head, FORMAT, VERSION, "mexitrain saved game")
    unknown = [k for k in head if k not in TOP_KEYS]
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
    setup = parse_setup(app["setup"])
    return SaveInfo(
        path=path,
        name=parse_name(app.get("name")),
        saved_at=parse_saved_at(app.get("saved_at"), required=False),
        players=tuple(s.name for s in setup.seats),
        round=number,
        rounds=setup.rules.round_count,
        over=over,
    )


def _info(path: Path) -> SaveInfo:
    """The listing of one file: its head when that is enough, else the whole file (cached by
    inode, size and modification time)."""
    sig = file_signature(path)
    key = path.absolute()
    cached = _LISTED.get(key)
    if sig is not None and cached is not None and cached[0] == sig:
        return cached[1]
    try:
        info = _head_info(path)
    except _NoSummary:
        info = _full_info(path)
    except (SaveError, BadContents) as exc:
        info = _info_error(path, exc)
    except Exception as exc:  # a bug, not the file's fault: still one line
        info = _info_internal(path, exc)
    if sig is not None:
        if len(_LISTED) >= _LISTED_MAX:
            _LISTED.clear()
        _LISTED[key] = (sig, info)
    return info


def _info_error(path: Path, exc: SaveError | BadContents) -> SaveInfo:
    from ..text.files import save_error_text  # the listing is shown to the player

    if isinstance(exc, BadContents):
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
        top = parse_json(read_bounded(path))
        kind = check_header(top)
        app = top.get("app", {}) if kind == "save" else {}
        record = top.get("record") if kind == "save" else top
        if not isinstance(record, dict):
            raise BadContents(
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
                count = rules_of(record).round_count
            except (ValidationError, ValueError):
                count = None
        return SaveInfo(
            path=path,
            name=parse_name(app.get("name")),
            saved_at=parse_saved_at(app.get("saved_at"), required=False),
            players=names,
            round=len(rounds) if isinstance(rounds, list) else None,
            rounds=count,
            over=bool(record.get("winners")),
        )
    except (SaveError, BadContents) as exc:
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


__all__ = ["SERVED_SAVES", "SERVED_SAVES_BYTES", "SaveInfo", "list_saves", "save_game", "save_named"]
