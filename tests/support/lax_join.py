"""``mexitrain`` with a decoder that lets hostile strings through (issue 37): the guest's
screens and terminal must hold even for a string the decoder should have refused.

Run as ``python3 tests/support/lax_join.py join HOST:PORT CODE ...`` (the arguments of
``mexitrain``). Each server message is decoded as :func:`decode_server` would decode it with
every string made harmless, and then the strings the host sent are put back in the models,
unchecked (``model_copy``), wherever they were.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pydantic import BaseModel  # noqa: E402

import mexitrain.net.client as client  # noqa: E402
from mexitrain.net.protocol import (  # noqa: E402
    Error,
    Lobby,
    ProtocolError,
    Refused,
    Welcome,
    decode_server,
)
from mexitrain.text.visible import visible  # noqa: E402


def _harmless(data: Any) -> Any:
    if isinstance(data, str):
        return visible(data)
    if isinstance(data, list):
        return [_harmless(d) for d in data]
    if isinstance(data, dict):
        return {k: _harmless(v) for k, v in data.items()}
    return data


def _restore(value: Any, raw: Any) -> Any:
    """``value`` (decoded from the harmless copy) with the strings of ``raw`` put back."""
    if isinstance(raw, str) and isinstance(value, str):
        return raw
    if isinstance(value, BaseModel) and isinstance(raw, dict):
        changed = {}
        for name in type(value).model_fields:
            if name in raw:
                old = getattr(value, name)
                new = _restore(old, raw[name])
                if new is not old:
                    changed[name] = new
        return value.model_copy(update=changed) if changed else value
    if isinstance(value, tuple) and isinstance(raw, list) and len(raw) == len(value):
        items = tuple(_restore(v, r) for v, r in zip(value, raw, strict=True))
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    if isinstance(value, dict) and isinstance(raw, dict):
        return {k: _restore(v, raw.get(k)) for k, v in value.items()}
    return value


def lax_decode(text: str | bytes):
    try:
        raw = json.loads(text)
    except ValueError:
        return decode_server(text)
    harmless = _harmless(raw)
    try:
        msg = decode_server(json.dumps(harmless))
    except ProtocolError:
        # a field the strict decoder refuses whatever its characters (a welcome's table that
        # is no table code, a value of the wrong kind): built unchecked, as a lax decoder would
        kinds = {"welcome": Welcome, "error": Error, "refused": Refused, "lobby": Lobby}
        if not isinstance(harmless, dict) or harmless.get("type") not in kinds:
            raise
        msg = kinds[harmless["type"]].model_construct(**harmless)
    return _restore(msg, raw)


client.decode_server = lax_decode

if __name__ == "__main__":
    from mexitrain.cli import main

    sys.exit(main(sys.argv[1:]))
