"""Seat tokens and network tables on disk (docs/protocol.md).

A client keeps the token of the seat it was given, one small file per table address, table
code and name (``tokens/<key>.json``), so that ``mexitrain join`` run again takes the same seat
back (two people joining the same table from one computer under two names keep two files).

A table server keeps its table in ``tables/<CODE>/``: ``table.json`` (the code, the host's
token, each seat's name, kind, level and token, the port), ``game.json``, the game's full
save (:func:`mexitrain.storage.autosaves.autosave`), and ``moves.jsonl``, the moves since. The
first two are written atomically, the journal a whole line at a time (:class:`Journal`); a
damaged file is refused with :class:`~mexitrain.storage.savefile.SaveError`, never guessed at.
Finished tables keep their ``table.json`` (the game is kept in ``saves/``).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..text.names import NAME_MAX
from . import atomic
from .safe import NotRegularFile, read_regular
from .savefile import SaveError, os_error

TOKENS_DIR = "tokens"
TABLES_DIR = "tables"
TABLE_FILE = "table.json"
GAME_FILE = "game.json"
#: A token file or a table file is a few KB at most.
MAX_TOKEN_FILE = 64 * 1024
MAX_TABLE_FILE = 1024 * 1024
_CODE = re.compile(r"[A-Z]{4,12}")
_TOKEN = r"^[A-Za-z0-9_-]{8,64}$"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _TokenFile(_Model):
    format: Literal["mexitrain-seat-token"] = "mexitrain-seat-token"
    token: str = Field(pattern=_TOKEN)


def _key(address: str, code: str, name: str) -> str:
    return hashlib.sha256("\n".join((address, code, name)).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def token_path(root: str | os.PathLike[str], address: str, code: str, name: str) -> Path:
    return Path(root) / TOKENS_DIR / f"{_key(address, code, name)}.json"


def load_token(root: str | os.PathLike[str], address: str, code: str, name: str) -> str | None:
    """The token kept for this table and name, or None (none kept, or a file that is not one:
    a bad token file only costs the seat, so it is ignored)."""
    try:
        data = read_regular(token_path(root, address, code, name), MAX_TOKEN_FILE)
        return _TokenFile.model_validate_json(data).token
    except (OSError, ValidationError, ValueError):
        return None


def save_token(root: str | os.PathLike[str], address: str, code: str, name: str, token: str) -> None:
    """Keep ``token`` for this table and name (atomically). Raises :class:`SaveError`."""
    path = token_path(root, address, code, name)
    try:
        atomic.write_text(path, _TokenFile(token=token).model_dump_json() + "\n")
    except OSError as exc:
        raise os_error("save", path, exc) from None


def forget_token(root: str | os.PathLike[str], address: str, code: str, name: str) -> None:
    """Forget the token for this table and name (the table no longer knows it)."""
    try:
        token_path(root, address, code, name).unlink()
    except OSError:
        pass


# -- the server's tables ----------------------------------------------------------------------


class TableSeat(_Model):
    """One seat of a network table: ``kind`` "person" (with its token once taken), "computer"
    (with its level) or "open" (nobody yet); ``handed`` a person's seat played by a computer of
    ``level`` while they are away."""

    name: str = Field(max_length=NAME_MAX)
    kind: Literal["person", "computer", "open"]
    level: Literal["random", "greedy", "planner", "expert"] | None = None
    token: str | None = Field(None, pattern=_TOKEN)
    handed: bool = False


class TableFile(_Model):
    """``tables/<CODE>/table.json``: everything but the game itself."""

    format: Literal["mexitrain-table"] = "mexitrain-table"
    version: Literal[1] = 1
    code: str = Field(pattern=r"^[A-Z]{4,12}$")
    host_token: str = Field(pattern=_TOKEN)
    host_seat: int | None = Field(None, ge=0, lt=99)
    seats: tuple[TableSeat, ...] = Field(min_length=2, max_length=99)
    started: bool = False
    over: bool = False
    port: int | None = Field(None, ge=0, le=65535)
    setup: dict[str, Any]  # the GameSetup as JSON (the game's, once started)
    #: the turn timer in seconds (None: none; the bounds are mexitrain.net.protocol's
    #: TURN_TIME_MIN and MAX) and what a rematch does with a person who left: kept so that a
    #: table reopened with ``host --resume`` keeps them (absent from older files: none, "computer")
    turn_time: int | None = Field(None, ge=10, le=600)
    absent: Literal["computer", "wait"] = "computer"


def table_dir(root: str | os.PathLike[str], code: str) -> Path:
    if not _CODE.fullmatch(code):
        raise ValueError(f"not a table code: {code!r}")
    return Path(root) / TABLES_DIR / code


def save_table(root: str | os.PathLike[str], table: TableFile) -> Path:
    """Write ``tables/<CODE>/table.json`` atomically. Raises :class:`SaveError`."""
    path = table_dir(root, table.code) / TABLE_FILE
    try:
        return atomic.write_text(path, json.dumps(table.model_dump(mode="json"), indent=2) + "\n")
    except OSError as exc:
        raise os_error("save", path, exc) from None


def load_table(root: str | os.PathLike[str], code: str) -> TableFile:
    """The table ``code`` kept in the data folder. Raises :class:`SaveError`."""
    path = table_dir(root, code) / TABLE_FILE
    try:
        data = read_regular(path, MAX_TABLE_FILE)
    except OSError as exc:
        raise os_error("load", path, exc) from None
    try:
        return TableFile.model_validate_json(data)
    except (ValidationError, ValueError) as exc:
        raise SaveError(
            f"cannot load {path}: not a table file ({str(exc).splitlines()[0]})", path, action="load", code="damaged"
        ) from None


def game_path(root: str | os.PathLike[str], code: str) -> Path:
    """The autosave of table ``code``'s game."""
    return table_dir(root, code) / GAME_FILE


def tables(root: str | os.PathLike[str]) -> list[str]:
    """The codes of the tables kept in the data folder, most recently changed first."""
    folder = Path(root) / TABLES_DIR
    try:
        entries = [p for p in folder.iterdir() if _CODE.fullmatch(p.name) and (p / TABLE_FILE).is_file()]
    except OSError:
        return []

    def changed(p: Path) -> float:
        try:
            return max(q.stat().st_mtime for q in (p / TABLE_FILE, p / GAME_FILE) if q.exists())
        except OSError:
            return 0.0

    return [p.name for p in sorted(entries, key=changed, reverse=True)]


__all__ = [
    "Journal", "TableFile", "TableSeat", "forget_token", "journal_damaged", "read_journal", "game_path", "load_table",
    "load_token", "save_table", "save_token", "table_dir", "tables", "token_path",
]


# -- the moves since the last autosave ----------------------------------------------------------
JOURNAL_FILE = "moves.jsonl"
#: The journal holds one game's moves, a line of at most about 100 bytes each (a 13-round game
#: has one to two thousand, some 100 KB): a larger file is refused unread, and --resume with it
#: (reading one this size takes a few seconds and about 200 MB).
MAX_JOURNAL = 16 * 1024 * 1024
_CHUNK = 64 * 1024  # how much of the end is read at a time to find the last whole line
_OPEN = (
    os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
)


def journal_path(root: str | os.PathLike[str], code: str) -> Path:
    return table_dir(root, code) / JOURNAL_FILE


class Journal:
    """``tables/<CODE>/moves.jsonl``: one line a move (``{"seq": n, "action": {...}}``), written
    before the move is announced. The full save (``game.json``) is written only at the deal, at
    each round's end and when the table closes (:mod:`mexitrain.net.files`); a process killed at
    any moment loses none of the moves since: ``--resume`` replays the journal's moves past it.

    Each line is written whole, with its newline last, before :meth:`append` returns (a short
    write is carried on; a failed one is cut off again), so a move is announced only once its
    line is complete, and a line without its newline is a write a crash cut short: opening the
    journal to append (``fresh=False``, on resume) first cuts that torn tail off (``trimmed``
    says how many bytes), so that no move is ever glued to it. Not fsynced: a power cut may cost
    the last moves, as it may the autosave."""

    def __init__(self, root: str | os.PathLike[str], code: str, *, fresh: bool = False) -> None:
        self.path = journal_path(root, code)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, _OPEN | (os.O_TRUNC if fresh else 0), 0o600)  # like the full save
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):  # a FIFO, a device: never written to, never waited on
                raise NotRegularFile(self.path)
            end = _whole_lines_end(fd, info.st_size)
            if end < info.st_size:
                os.ftruncate(fd, end)
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        self._fd: int | None = fd
        #: the bytes of the torn last line cut off on opening (0: none)
        self.trimmed = info.st_size - end
        self._size = end  # the journal's whole lines
        self._torn = False  # part of a line was written and could not be cut off yet

    def append(self, seq: int, action: dict[str, Any]) -> None:
        """Write move ``seq``'s line, whole, or raise ``OSError`` with nothing of it left in the
        file (if even cutting the part written fails, every later append tries that cut again
        first, and raises while it fails: nothing is ever written after half a line)."""
        if self._fd is None:
            raise OSError(errno.EBADF, "the journal is closed", str(self.path))
        if self._torn:
            self._cut()
        data = (json.dumps({"seq": seq, "action": action}, separators=(",", ":")) + "\n").encode("ascii")
        done = 0
        try:
            while done < len(data):
                n = os.write(self._fd, data[done:])
                if n <= 0:
                    raise OSError(errno.EIO, "the system wrote nothing", str(self.path))
                done += n
        except BaseException:
            if done:
                self._torn = True
                with contextlib.suppress(OSError):
                    self._cut()
            raise
        self._size += done

    def _cut(self) -> None:
        assert self._fd is not None
        os.ftruncate(self._fd, self._size)
        self._torn = False

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


def _whole_lines_end(fd: int, size: int) -> int:
    """Where the file's last whole line ends (just past its newline; 0 without one), read from
    the end a chunk at a time."""
    end = size
    while end > 0:
        start = max(0, end - _CHUNK)
        os.lseek(fd, start, os.SEEK_SET)
        chunk = b""
        while len(chunk) < end - start:
            more = os.read(fd, end - start - len(chunk))
            if not more:
                raise OSError(errno.EIO, "the file shrank while it was read")
            chunk += more
        newline = chunk.rfind(b"\n")
        if newline >= 0:
            return start + newline + 1
        end = start
    return 0


def read_journal(root: str | os.PathLike[str], code: str) -> list[tuple[int, dict[str, Any]]]:
    """The journal's moves in order, one a line (none without a journal). The last line without
    its newline is a write cut short by a crash, whose move was never announced: it is left out
    (:class:`Journal` cuts it off before appending). Anything else that is not a move, or a move
    not numbered after the one before, is damage the journal cannot have written: raises
    :class:`SaveError` ``journal_damaged`` with the line's number (see :func:`journal_damaged`),
    never stops there quietly; an unreadable file (or one over :data:`MAX_JOURNAL`) raises its
    ``os_error``."""
    path = journal_path(root, code)
    try:
        data = read_regular(path, MAX_JOURNAL)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise os_error("load", path, exc) from None
    moves: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(data.split(b"\n")[:-1], 1):  # the last piece: b"" or a torn line
        move = _move(raw)
        if move is None:
            raise journal_damaged(root, code, number, "not_a_move")
        if moves and move[0] <= moves[-1][0]:
            raise journal_damaged(root, code, number, "order", seq=move[0], previous=moves[-1][0])
        moves.append(move)
    return moves


def _move(raw: bytes) -> tuple[int, dict[str, Any]] | None:
    try:
        entry = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deep, a huge number
        return None
    if not isinstance(entry, dict) or set(entry) != {"seq", "action"}:
        return None
    seq, action = entry["seq"], entry["action"]
    if type(seq) is not int or not isinstance(action, dict):
        return None
    return seq, action


#: What :func:`journal_damaged` says of a line (``problem``), with its values.
JOURNAL_PROBLEMS = {
    "not_a_move": "not a move",
    "order": "move {seq} after move {previous}",
    "missing": "move {seq}, but move {expected} is missing",
    "illegal": "move {seq} cannot be played",
}


def journal_damaged(root: str | os.PathLike[str], code: str, line: int, problem: str, **values: int) -> SaveError:
    """The error for line ``line`` (from 1) of table ``code``'s journal: ``problem`` is one of
    :data:`JOURNAL_PROBLEMS` (``missing`` and ``illegal`` are found by replaying it). The table
    is not resumed: the moves on that line and after it were announced, and resuming before them
    would append the game's next moves after lines no resume can read."""
    path = journal_path(root, code)
    what = JOURNAL_PROBLEMS[problem].format(**values)
    return SaveError(
        f"cannot resume from {path}: line {line} is damaged ({what})", path, action="load", code="journal_damaged",
        values={"line": line, "problem": problem, **values},
    )
