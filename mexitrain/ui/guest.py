"""What a table's host cannot do to a guest's screen (issue 37; docs/threat-model/guest.md).

The host's server is the authority on the game, not on this terminal. Every message it sends
passes here before the app keeps or shows any of it:

- :func:`scrub`: every string in it, wherever it sits (a name, an error's values, a field a
  later version adds), made visible (:func:`mexitrain.text.visible.visible`): a character a
  terminal could take as an order is shown as a harmless one in one cell. The decoder
  (:func:`mexitrain.net.protocol.decode_server`) refuses such strings too; this holds for a
  message that got past it.
- :func:`unreadable`: why an Update or a Lobby cannot be shown (a shape that does not hold
  together: five names for three seats, a turn at seat 40, a view of another seat...: the
  decoder's checks asked again), or None. The app leaves the table with that reason rather
  than crash on it.
- :func:`details`: an error's words cut to a few lines for its pop-up (the app shows one
  error pop-up at a time, with the count of those that came meanwhile; the client leaves a
  table that sends too many, :data:`mexitrain.net.client.ERROR_BOUND`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from ..net.protocol import (
    Lobby,
    Onlooker,
    ProtocolError,
    Update,
    Watching,
    Welcome,
    check_follows,
    check_server_message,
)
from ..text.names import shorten
from ..text.visible import visible

#: How many lines of an error's details a pop-up shows, and how many cells each.
DETAIL_LINES = 3
DETAIL_WIDTH = 100


def scrub(value: Any) -> Any:
    """``value`` (a server message, or anything inside one) with every string made visible.
    Models are rebuilt only where a string changed (without validation: the rest is kept as
    it came), tuples and lists and dicts likewise; anything else is returned as it is."""
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, BaseModel):
        changed = {}
        for name, item in _fields(value):
            new = scrub(item)
            if new is not item:
                changed[name] = new
        return value.model_copy(update=changed) if changed else value
    if isinstance(value, (tuple, list)):
        if all(isinstance(item, (int, float, bool)) or item is None for item in value):
            return value  # a tile, a score line: nothing to clean (the fast path)
        items = [scrub(item) for item in value]
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return type(value)(items)
    if isinstance(value, Mapping):
        pairs = [(scrub(k), scrub(v)) for k, v in value.items()]
        if all(nk is k and nv is v for (nk, nv), (k, v) in zip(pairs, value.items(), strict=True)):
            return value
        return dict(pairs)
    return value


def _fields(model: BaseModel):
    """The fields a model holds, also one built with ``model_construct`` (whose fields may be
    missing or of any type)."""
    data = getattr(model, "__dict__", {})
    for name in type(model).model_fields:
        if name in data:
            yield name, data[name]


def unreadable(msg: Any, welcome: Welcome | Watching | None) -> str | None:
    """Why ``msg`` (an Update or a Lobby) cannot be shown to the seat ``welcome`` gave this
    client, as the place it fails ("update.view.results.0.scores", for "the table sent
    something this version cannot read: …"), or None when it holds together. Other
    messages: None.

    The decoder's own checks (:func:`mexitrain.net.protocol.check_server_message`: counts
    and shapes the rules can produce; :func:`~mexitrain.net.protocol.check_follows`: the
    welcome's seat), asked again of what reaches the app: they hold for a message that got
    past the decoder, built in any way."""
    if not isinstance(msg, (Update, Lobby, Onlooker)):
        return None
    try:
        check_server_message(msg)
        check_follows(msg, welcome=welcome)
    except ProtocolError as exc:
        field = exc.values.get("field")
        return f"{msg.type}.{field}" if field else str(msg.type)
    except Exception as exc:  # noqa: BLE001 - a message built to break the checks is unreadable too
        return f"{type(exc).__name__}"
    return None


def details(text: str, lines: int = DETAIL_LINES, width: int = DETAIL_WIDTH) -> str:
    """An error's text cut to ``lines`` lines of at most ``width`` characters, "…" where cut."""
    rows = [visible(row) for row in text.split("\n")]
    kept = [shorten(row, width) for row in rows[:lines]]
    if len(rows) > lines:
        kept[-1] = shorten(kept[-1] + " …", width)
    return "\n".join(kept)


__all__ = ["DETAIL_LINES", "DETAIL_WIDTH", "details", "scrub", "unreadable"]
