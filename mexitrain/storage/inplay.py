"""Files of a game in progress elsewhere: never listed nor opened by another game.

A game being played holds locks (:mod:`.locks`): a window holds its autosave's
(``autosaves/<id>.lock``), a network table's server holds its table's (``tables/<CODE>/table.lock``,
from the moment it listens or is reopened until it closes, lobby included) and its game's
(``tables/<CODE>/game.lock``). The file dialogs (Open replay…, Load…) ask :func:`in_play`
before listing or opening a file, so that nobody (another window on the same data folder,
another visitor of ``mexitrain serve`` sharing it) opens in the replay viewer the hands of a
game someone is playing:

- a file or folder of a table's folder ``tables/<CODE>/`` (``game.json``, ``moves.jsonl``,
  ``table.json`` with the seats' tokens) is in play while its table's or its game's lock is
  held, by another process or by this one (a window hosting a table is one of its players);
- any other file is in play while its own lock (``<stem>.lock`` beside it) is held by another
  process: the autosave of a game another window plays. This window's own autosaves are its
  own games (the app refuses its running game in the replay viewer by itself).

The path is resolved first (every link followed), so a link elsewhere leads to the same answer.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from . import locks
from .tokens import GAME_FILE, TABLE_FILE, TABLES_DIR, table_dir

#: A table's code (:func:`.tokens.table_dir`'s).
_CODE = re.compile(r"[A-Z]{4,12}")


def table_file(root: str | os.PathLike[str], code: str) -> Path:
    """``tables/<CODE>/table.json``, whose lock (``table.lock``) the table's server holds."""
    return table_dir(root, code) / TABLE_FILE


def hold_table(root: str | os.PathLike[str], code: str) -> bool:
    """Take table ``code``'s lock for this process (a server listening for it, or reopening it);
    False when another process holds it. Raises ``OSError`` when the lock file cannot be made
    (a read-only folder: no other server can write the table there either)."""
    return locks.acquire(table_file(root, code))


def release_table(root: str | os.PathLike[str], code: str) -> None:
    """Let go of table ``code``'s lock (its server closed)."""
    locks.release(table_file(root, code))


def table_held_here(root: str | os.PathLike[str], code: str) -> bool:
    return locks.held_here(table_file(root, code))


def _table_folder(real: Path) -> Path | None:
    """The table folder ``tables/<CODE>`` that ``real`` is, or is in (None: neither)."""
    for folder in (real, real.parent):
        if _CODE.fullmatch(folder.name) and folder.parent.name == TABLES_DIR:
            return folder
    return None


def _held(path: Path) -> bool:
    return locks.held_here(path) or locks.held_elsewhere(path)


def in_play(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` belongs to a game in progress elsewhere (see the module's text)."""
    try:
        real = Path(path).resolve()
    except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL: nothing opens it
        return False
    table = _table_folder(real)
    if table is not None:
        return _held(table / TABLE_FILE) or _held(table / GAME_FILE)
    return locks.held_elsewhere(real)


__all__ = ["hold_table", "in_play", "release_table", "table_file", "table_held_here"]
