"""Strict JSON text, as records, saves and statistics files are read and written.

Reading refuses what Python's ``json`` accepts but JSON does not allow (NaN, Infinity) and a key
given twice (:class:`StrictJSONError`); writing lays a record out one event, hand or boneyard per
line (:func:`layout`), so that a file can be read and compared line by line.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import CodedError


class StrictJSONError(CodedError, ValueError):
    """JSON that ``json`` accepts but a strict reader refuses (NaN, a key given twice), as data:
    ``code`` is ``"not_a_number"`` (``values["name"]``: NaN, Infinity...) or ``"duplicate_key"``
    (``values["key"]``); :func:`mexitrain.text.files.strict_json_text` says it to players."""


def no_constants(name: str) -> Any:
    raise StrictJSONError("not_a_number", name=name)


def unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise StrictJSONError("duplicate_key", key=key)
        out[key] = value
    return out


def strict_json(text: str) -> Any:
    """``json.loads`` refusing NaN and Infinity and duplicate keys (:class:`StrictJSONError`);
    other bad text raises what ``json.loads`` raises."""
    return json.loads(text, parse_constant=no_constants, object_pairs_hook=unique_keys)


def _inline(value: Any) -> bool:
    if not isinstance(value, list | dict):
        return True
    if isinstance(value, list) and all(isinstance(t, list) and len(t) == 2 for t in value):
        return True  # a hand or a boneyard: one line of tiles
    return len(json.dumps(value, ensure_ascii=False)) <= 72


def _lay_out(value: Any, indent: int, out: list[str]) -> None:
    if _inline(value):
        out.append(json.dumps(value, ensure_ascii=False, allow_nan=False))
        return
    pad = "  " * (indent + 1)
    close = "  " * indent
    if isinstance(value, dict):
        out.append("{\n")
        for i, (key, item) in enumerate(value.items()):
            out.append(f"{pad}{json.dumps(str(key), ensure_ascii=False)}: ")
            _lay_out(item, indent + 1, out)
            out.append(",\n" if i < len(value) - 1 else "\n")
        out.append(close + "}")
    else:
        out.append("[\n")
        for i, item in enumerate(value):
            out.append(pad)
            _lay_out(item, indent + 1, out)
            out.append(",\n" if i < len(value) - 1 else "\n")
        out.append(close + "]")


def layout(value: Any) -> str:
    """``value`` as JSON text: short values and lists of tiles on one line, the rest one item a
    line, indented by two spaces; no final newline. Raises TypeError or ValueError (NaN...)
    for what JSON cannot hold."""
    out: list[str] = []
    _lay_out(value, 0, out)
    return "".join(out)


__all__ = ["StrictJSONError", "layout", "no_constants", "strict_json", "unique_keys"]
