"""Where mexitrain keeps its files (docs/saves.md).

The data directory is, in order of precedence:

1. the ``--data-dir DIR`` given on the command line (passed in as ``explicit``);
2. the environment variable ``MEXITRAIN_DATA_DIR``;
3. ``platformdirs.user_data_dir("mexitrain")`` (``~/.local/share/mexitrain`` on Linux,
   ``~/Library/Application Support/mexitrain`` on macOS, ``%LOCALAPPDATA%\\mexitrain`` on Windows).

Inside it::

    autosaves/<id>.json  each game in progress, one file per started game (rewritten after
                         every action; <id>.lock is held by the window playing it)
    autosave.json        the game in progress of earlier versions (still offered for resuming)
    saves/<name>.json    games saved under a name
    stats.sqlite3        statistics of finished games (SQLite: safe with several windows)
    stats.json           statistics of earlier versions (moved into stats.sqlite3 once, then
                         renamed stats.json.migrated)
    settings.json        preferences (owned by the app)

Nothing here creates anything: the writers create the folders they need.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

ENV_VAR = "MEXITRAIN_DATA_DIR"
APP_NAME = "mexitrain"

AUTOSAVE = "autosave.json"
SAVES = "saves"
STATS = "stats.json"
STATS_DB = "stats.sqlite3"
AUTOSAVES = "autosaves"
SETTINGS = "settings.json"
SAVE_SUFFIX = ".json"


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: ``explicit`` (``--data-dir``), else ``$MEXITRAIN_DATA_DIR``, else the
    platform's user data directory. ``~`` is expanded; the folder is not created."""
    if explicit is not None and str(explicit).strip():
        return Path(explicit).expanduser()
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def autosave_path(root: str | os.PathLike[str]) -> Path:
    return Path(root) / AUTOSAVE


def autosaves_dir(root: str | os.PathLike[str]) -> Path:
    """``<data dir>/autosaves``: one autosave per running game."""
    return Path(root) / AUTOSAVES


def saves_dir(root: str | os.PathLike[str]) -> Path:
    return Path(root) / SAVES


def stats_path(root: str | os.PathLike[str]) -> Path:
    return Path(root) / STATS


def stats_db_path(root: str | os.PathLike[str]) -> Path:
    """The statistics database (SQLite); ``stats.json`` is the file of earlier versions."""
    return Path(root) / STATS_DB


def settings_path(root: str | os.PathLike[str]) -> Path:
    return Path(root) / SETTINGS


_UNSAFE = re.compile(r"[^\w\- .]+")
# Windows device names, reserved whatever follows the first dot ("CON.txt" too), with digits
# 0-9 and the superscripts Windows also treats as digits.
_RESERVED = {
    "con", "prn", "aux", "nul", "conin", "conout",
    *(f"{dev}{d}" for dev in ("com", "lpt") for d in "0123456789\u00b9\u00b2\u00b3"),
}
#: How a file moved aside is named (``<stem>.bad-N.json``): no save's file name looks like one.
MOVED_ASIDE = re.compile(r"\.bad-\d+(?=\.|$)", re.IGNORECASE)


def save_file_name(name: str) -> str:
    """The file name (``<stem>.json``) for a save called ``name``.

    Keeps letters, digits, spaces, ``-``, ``_`` and ``.``; anything else (``/``, ``\\``, ``:``...)
    becomes ``-``, so a name can never leave the ``saves`` folder. Raises ``ValueError`` for a
    name with nothing usable in it.
    """
    text = unicodedata.normalize("NFC", str(name)).strip()
    stem = _UNSAFE.sub("-", text).strip(" .-")[:60].strip(" .-")
    if not stem:
        raise ValueError(f"{name!r} cannot be used as a save name: use letters or digits")
    if stem.lower().endswith(SAVE_SUFFIX):
        stem = stem[: -len(SAVE_SUFFIX)].rstrip(" .-") or "game"
    first, dot, rest = stem.partition(".")
    if first.rstrip(" ").lower() in _RESERVED:  # "con", "CON.txt", "lpt9 ": a device on Windows
        stem = f"{first.rstrip(' ')}-game{dot}{rest}"
    stem = MOVED_ASIDE.sub(lambda m: "_" + m.group(0)[1:], stem)  # "x.bad-1" would look moved aside
    return stem + SAVE_SUFFIX


def save_path(root: str | os.PathLike[str], name: str) -> Path:
    """``<data dir>/saves/<name>.json`` (see :func:`save_file_name`)."""
    return saves_dir(root) / save_file_name(name)


__all__ = [
    "AUTOSAVE",
    "AUTOSAVES",
    "STATS_DB",
    "ENV_VAR",
    "SAVES",
    "SETTINGS",
    "STATS",
    "autosave_path",
    "autosaves_dir",
    "data_dir",
    "save_file_name",
    "save_path",
    "saves_dir",
    "settings_path",
    "stats_db_path",
    "stats_path",
]
