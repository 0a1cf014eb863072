"""What a table's host cannot do to a guest's screen (issue 37; docs/threat-model/guest.md).

The host's server is the authority on the game, not on this terminal. Every message it sends
passes here before the app keeps or shows any of it:

- :func:`scrub`: every string in it, wherever it sits (a name, an error's values, a field a
  later version adds), made visible (:func:`mexitrain.text.visible.visible`): a character a
  terminal could take as an order is shown as a harmless one in one cell. The decoder
  (:func:`mexitrain.net.protocol.decode_server`) refuses such strings too; this holds for a
  message that got past it.
- :func:`unreadable`: why an Update or a Lobby cannot be shown (a shape that does not hold
  together: five names for three seats, a turn at seat 40, a view of another seat...), or
  None. The app leaves the table with that reason rather than crash on it.
- :func:`details`: an error's words cut to a few lines for its pop-up (the app shows one
  error pop-up at a time, with the count of those that came meanwhile; the client leaves a
  table that sends too many, :data:`mexitrain.net.client.ERROR_BOUND`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from ..net.protocol import MAX_SEATS, Away, Lobby, LobbySeat, Update, Welcome
from ..rules import SeatView
from ..rules.view import PublicRound
from ..text.names import shorten
from ..text.visible import visible

#: The largest round score a guest takes (a round of double-18 holds 3,420 pips in all):
#: a larger one is a host's, and would push the standings' columns off the screen.
MAX_SCORE = 99_999
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


def _int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value < high


def _tiles(tiles: Any, top: int) -> bool:
    return isinstance(tiles, tuple) and all(
        isinstance(t, tuple) and len(t) == 2 and _int(t[0], 0, top + 1) and _int(t[1], 0, top + 1) for t in tiles
    )


def unreadable(msg: Any, welcome: Welcome | None) -> str | None:
    """Why ``msg`` (an Update or a Lobby) cannot be shown to the seat ``welcome`` gave this
    client, in a few words (for "the table sent something this version cannot read: …"), or
    None when it holds together. Other messages: None."""
    try:
        if isinstance(msg, Update):
            return _update_problem(msg, welcome)
        if isinstance(msg, Lobby):
            return _lobby_problem(msg)
    except Exception as exc:  # noqa: BLE001 - a message built to break this check is unreadable too
        return f"{type(exc).__name__}"
    return None


def _lobby_problem(msg: Lobby) -> str | None:
    seats = msg.seats
    if not isinstance(seats, tuple) or len(seats) > MAX_SEATS:
        return "lobby.seats"
    for i, seat in enumerate(seats):
        if not isinstance(seat, LobbySeat) or not isinstance(seat.name, str) or not _int(seat.seat, 0, MAX_SEATS):
            return f"lobby.seats.{i}"
        if seat.kind not in ("person", "computer", "open"):
            return f"lobby.seats.{i}.kind"
    return None


def _update_problem(msg: Update, welcome: Welcome | None) -> str | None:
    v = msg.view
    if not isinstance(v, SeatView):
        return "update.view"
    n = v.players
    if not _int(n, 1, MAX_SEATS + 1):
        return "update.view.players"
    top = v.rules.set
    if welcome is not None and welcome.seat is not None and v.seat != welcome.seat:
        return "update.view.seat (another seat's view)"
    checks: list[tuple[str, bool]] = [
        ("update.names", isinstance(msg.names, tuple) and len(msg.names) == n and all(isinstance(x, str) for x in msg.names)),
        ("update.kinds", isinstance(msg.kinds, tuple) and len(msg.kinds) == n and all(k in ("person", "computer") for k in msg.kinds)),
        ("update.view.seat", _int(v.seat, 0, n)),
        ("update.view.turn", _int(v.turn, 0, n)),
        ("update.view.first_seat", _int(v.first_seat, 0, n)),
        ("update.view.engine", _int(v.engine, 0, top + 1)),
        ("update.view.engine_seat", v.engine_seat is None or _int(v.engine_seat, 0, n)),
        ("update.view.mexican_starter", v.mexican_starter is None or _int(v.mexican_starter, 0, n)),
        ("update.view.hand_sizes", len(v.hand_sizes) == n and all(_int(k, 0, 10**4) for k in v.hand_sizes)),
        ("update.view.hands", len(v.hands) == n and all(h is None or _tiles(h, top) for h in v.hands)),
        ("update.view.hand", _tiles(v.hand, top)),
        ("update.view.drawn", v.drawn is None or _tiles((v.drawn,), top)),
        ("update.view.chain_right", len(v.chain_right) == n),
        ("update.view.failed", len(v.failed) == n),
        ("update.view.opening_queue", all(_int(s, 0, n) for s in v.opening_queue)),
        ("update.view.winners", all(_int(s, 0, n) for s in v.winners)),
        ("update.view.boneyard_size", _int(v.boneyard_size, 0, 10**4)),
        ("update.view.round", _int(v.round, 1, 10**4)),
        ("update.view.swan_pos", v.swan_pos is None or _int(v.swan_pos, 0, n + 1)),
        ("update.away", all(isinstance(a, Away) and _int(a.seat, 0, n) and isinstance(a.name, str) for a in msg.away)),
    ]
    for where, ok in checks:
        if not ok:
            return where
    trains = v.trains
    owners = [t.owner for t in trains]
    if len(trains) != n + 1 or owners[:n] != list(range(n)) or owners[n] is not None:
        return "update.view.trains"
    for ti, train in enumerate(trains):
        if not train.lines or len(train.starts) != len(train.lines):
            return f"update.view.trains.{ti}"
        if not all(_int(s, 0, top + 1) for s in train.starts):
            return f"update.view.trains.{ti}.starts"
        if not all(_tiles(line, top) for line in train.lines):
            return f"update.view.trains.{ti}.lines"
    if v.double_line is not None:
        ti, li = v.double_line
        if not (_int(ti, 0, n + 1) and _int(li, 0, len(trains[ti].lines)) and trains[ti].lines[li]):
            return "update.view.double_line"
    for i, event in enumerate((*v.events, *v.last_round_events)):
        if not _int(event.seat, 0, n):
            return f"update.view.events.{i}.seat"
        if event.train is not None and not (event.train == "mexican" or _int(event.train, 0, n + 1)):
            return f"update.view.events.{i}.train"
        if event.tile is not None and not _tiles((event.tile,), top):
            return f"update.view.events.{i}.tile"
    for i, result in enumerate(v.results):
        if not isinstance(result, PublicRound):
            return f"update.view.results.{i}"
        if len(result.scores) != n or len(result.leftovers) != n:
            return f"update.view.results.{i}"
        if not all(_int(s, -MAX_SCORE, MAX_SCORE + 1) for s in result.scores):
            return f"update.view.results.{i}.scores"
        if not all(_tiles(h, top) for h in result.leftovers):
            return f"update.view.results.{i}.leftovers"
        if not (_int(result.first_seat, 0, n) and (result.out_seat is None or _int(result.out_seat, 0, n))):
            return f"update.view.results.{i}"
        if result.engine_seat is not None and not _int(result.engine_seat, 0, n):
            return f"update.view.results.{i}.engine_seat"
    if len(v.results) > v.rules.round_count:
        return "update.view.results"
    return None


def details(text: str, lines: int = DETAIL_LINES, width: int = DETAIL_WIDTH) -> str:
    """An error's text cut to ``lines`` lines of at most ``width`` characters, "…" where cut."""
    rows = [visible(row) for row in text.split("\n")]
    kept = [shorten(row, width) for row in rows[:lines]]
    if len(rows) > lines:
        kept[-1] = shorten(kept[-1] + " …", width)
    return "\n".join(kept)


__all__ = ["DETAIL_LINES", "DETAIL_WIDTH", "MAX_SCORE", "details", "scrub", "unreadable"]
