"""Seat tokens and network tables on disk (docs/protocol.md).

A client keeps the token of the seat it was given, one small file per table address, table
code and name (``tokens/<key>.json``), so that ``mexitrain join`` run again takes the same seat
back (two people joining the same table from one computer under two names keep two files).

A table server keeps its table in ``tables/<CODE>/``: ``table.json`` (the code, the host's
token, each seat's name, kind, level and token, the port), ``game.json``, the game's full
save (:func:`mexitrain.storage.autosaves.autosave`), and ``moves.jsonl``, the moves since. Both are written atomically; a
damaged file is refused with :class:`~mexitrain.storage.savefile.SaveError`, never guessed at.
Finished tables keep their ``table.json`` (the game is kept in ``saves/``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..text.names import NAME_MAX
from . import atomic
from .safe import read_regular
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
    "Journal", "TableFile", "TableSeat", "forget_token", "read_journal", "game_path", "load_table", "load_token", "save_table",
    "save_token", "table_dir", "tables", "token_path",
]


# -- the moves since the last autosave ----------------------------------------------------------
JOURNAL_FILE = "moves.jsonl"


def journal_path(root: str | os.PathLike[str], code: str) -> Path:
    return table_dir(root, code) / JOURNAL_FILE


class Journal:
    """``tables/<CODE>/moves.jsonl``: one line a move (``{"seq": n, "action": {...}}``), written
    before the move is announced. The full save (``game.json``) is written only at the deal, at
    each round's end and when the table closes (:mod:`mexitrain.net.files`); a process killed at
    any moment loses none of the moves since: ``--resume`` replays the journal's moves past it. One ``write`` a move (the system keeps it even if the
    process dies; not fsynced, so a power cut may cost the last moves, as it may the autosave)."""

    def __init__(self, root: str | os.PathLike[str], code: str, *, fresh: bool = False) -> None:
        self.path = journal_path(root, code)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | (os.O_TRUNC if fresh else 0), 0o644)

    def append(self, seq: int, action: dict[str, Any]) -> None:
        line = json.dumps({"seq": seq, "action": action}, separators=(",", ":")) + "\n"
        os.write(self._fd, line.encode())

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


def read_journal(root: str | os.PathLike[str], code: str) -> list[tuple[int, dict[str, Any]]]:
    """The journal's moves in order; a line cut short by a crash (the last) is left out."""
    try:
        data = read_regular(journal_path(root, code))
    except OSError:
        return []
    moves = []
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            entry = json.loads(line)
            seq, action = entry["seq"], entry["action"]
        except (ValueError, KeyError, TypeError):
            break
        if not isinstance(seq, int) or not isinstance(action, dict):
            break
        moves.append((seq, action))
    return moves
