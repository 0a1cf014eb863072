"""What just happened, read from the seat's view: each seat's last plays (no Textual here).

Each seat's last turn's plays stay marked on the board until that seat's turn comes round
again (docs/playing.md, "What just happened"): when it is your turn, every tile played since
your last turn is marked, yours are not. The seat whose turn it is has nothing marked, even
what it has laid during this turn so far (a double it must still cover): its turn is not over.

This is a fact of the game the view does not carry yet: it belongs in the core's snapshot
(mexitrain.rules.view), worked out once; till then it is computed here, once per view.
"""

from __future__ import annotations

from ..rules import SeatView, Tile
from ..rules.tiles import tile

_CACHE: dict[int, tuple[SeatView, dict[Tile, int]]] = {}


def recent_plays(view: SeatView) -> dict[Tile, int]:
    """The tiles (low half first) of each seat's last turn's plays, mapped to that seat,
    except the plays of the seat whose turn it is (none once the game is over: all stay)."""
    got = _CACHE.get(id(view))
    if got is not None and got[0] is view:
        return got[1]
    last: dict[int, list[Tile]] = {}
    previous: int | None = None
    for e in view.events:
        if e.seat != previous:  # a new turn of e.seat: its earlier turn's plays are old news
            last[e.seat] = []
            previous = e.seat
        if e.type == "play" and e.tile is not None:
            last[e.seat].append(tile(*e.tile))
    if view.phase != "game_over":
        last.pop(view.turn, None)  # its turn has come round again
    marks = {t: seat for seat, tiles in last.items() for t in tiles}
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[id(view)] = (view, marks)
    return marks


def turn_seat(view: SeatView) -> int | None:
    """The seat whose turn it is, None once the game is over."""
    return None if view.phase == "game_over" else view.turn
