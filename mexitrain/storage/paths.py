"""Where mexitrain keeps its files (docs/saves.md).

The data directory is, in order of precedence:

1. the ``--data-dir DIR`` given on the command line (passed in as ``explicit``);
2. the environment variable ``MEXITRAIN_DATA_DIR``;
3. ``platformdirs.user_data_dir("mexitrain")`` (``~/.local/share/mexitrain`` on Linux,
   ``~/Library/Application Support/mexitrain`` on macOS, ``%LOCALAPPDATA%\\mexitrain`` on Windows).

Inside it::

    autosave.json        the game in progress (rewritten after every action)
    saves/<name>.json    games saved under a name
    stats.json           statistics of finished games
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


def saves_dir(root: str | os.PathLike[str]) -> Path:
    return Path(root) / SAVES


def stats_path(root: str | os.PathLike[str]) -> Path:
    return Path(root) / STATS


def settings_path(root: str | os.PathLike[str]) -> Path:
    return Path(root) / SETTINGS


_UNSAFE = re.compile(r"[^\w\- .]+")
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


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
    if stem.lower() in _RESERVED:
        stem = f"{stem}-game"
    if stem.lower().endswith(SAVE_SUFFIX):
        stem = stem[: -len(SAVE_SUFFIX)].rstrip(" .-") or "game"
    return stem + SAVE_SUFFIX


def save_path(root: str | os.PathLike[str], name: str) -> Path:
    """``<data dir>/saves/<name>.json`` (see :func:`save_file_name`)."""
    return saves_dir(root) / save_file_name(name)


__all__ = [
    "AUTOSAVE",
    "ENV_VAR",
    "SAVES",
    "SETTINGS",
    "STATS",
    "autosave_path",
    "data_dir",
    "save_file_name",
    "save_path",
    "saves_dir",
    "settings_path",
    "stats_path",
]
