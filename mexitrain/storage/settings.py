"""The player's preferences: ``<data dir>/settings.json`` (docs/saves.md), e.g.
``{"language": "fr", "theme": "nord"}``.

Reading never fails nor waits: a missing, unreadable or damaged file (not JSON, not an object, a
value of the wrong type or too long, a FIFO or a device instead of a file) gives the defaults, and only the bad entries are ignored. Writing is atomic
(:mod:`mexitrain.storage.atomic`) and keeps the entries this version does not know.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from . import atomic
from .paths import data_dir, settings_path
from .safe import MAX_SETTINGS, read_regular

#: The longest setting value kept (a language or theme name is a few letters).
MAX_VALUE = 100

#: Every known setting and the type its value must have (None is always allowed: unset).
KNOWN: dict[str, type] = {"language": str, "theme": str, "tiles": str}


def load(root: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The saved settings (known keys only, each well typed); ``{}`` when there are none.

    ``root`` is the data directory (default: :func:`~mexitrain.storage.paths.data_dir`).
    """
    raw = _read(root)
    return {k: v for k, v in raw.items() if k in KNOWN and isinstance(v, KNOWN[k])}


def save(root: str | os.PathLike[str] | None = None, **changes: Any) -> dict[str, Any]:
    """Set (or, with None, remove) settings and write the file atomically; the new settings.

    Raises ``ValueError`` for an unknown key or a value of the wrong type, ``OSError`` when
    the file cannot be written (the previous one is then left as it was).
    """
    for key, value in changes.items():
        if key not in KNOWN:
            raise ValueError(f"unknown setting {key!r}")
        if value is not None and not isinstance(value, KNOWN[key]):
            raise ValueError(f"setting {key!r} takes a {KNOWN[key].__name__}, not {value!r}")
    data = _read(root)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    atomic.write_text(settings_path(_root(root)), text)
    return {k: v for k, v in data.items() if k in KNOWN and isinstance(v, KNOWN[k])}


def saved_language(root: str | os.PathLike[str] | None = None) -> str | None:
    """The language saved in the preferences, if any (not checked against the catalogs)."""
    lang = load(root).get("language")
    if not isinstance(lang, str) or not lang.strip():
        return None
    return lang.strip().lower()


def choose_language(
    explicit: str | None = None,
    root: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """The language to use: ``explicit`` (``--lang``), else the saved preference if it is
    available, else the environment's locale (:func:`mexitrain.i18n.detect_language`).

    An unknown ``explicit`` language raises ``ValueError``; an unknown saved one is ignored.
    """
    from ..i18n import available_languages, detect_language

    have = available_languages()
    if explicit is not None:
        lang = explicit.strip().lower()
        if lang not in have:
            raise ValueError(f"unknown language {explicit!r}; choose one of {', '.join(have)}")
        return lang
    saved = saved_language(root)
    if saved in have:
        return saved
    return detect_language(environ)


def _root(root: str | os.PathLike[str] | None):
    return data_dir(root)


def _read(root: str | os.PathLike[str] | None) -> dict[str, Any]:
    """The file's object: only a regular file of at most 1 MiB is read (a FIFO or a device there
    cannot hang the start, even of ``--version``), a UTF-8 BOM is allowed, and a string value
    longer than :data:`MAX_VALUE` is dropped."""
    try:
        raw = read_regular(settings_path(_root(root)), MAX_SETTINGS)
        data = json.loads(raw.decode("utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if not (isinstance(v, str) and len(v) > MAX_VALUE)}


__all__ = ["KNOWN", "choose_language", "load", "save", "saved_language"]
