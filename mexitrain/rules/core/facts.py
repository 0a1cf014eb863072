"""Facts a seat's screen reads from the core, worked out once when a view is made (issue 33).

Each function reads a :class:`~.compact.Core` and returns plain values; the view
(:func:`mexitrain.rules.view.view`) turns them into its fields, so that no screen, text or
network client has to work a rule out again."""

from __future__ import annotations

from .compact import Position
from .lookup import FOLLOW_UP, FOLLOW_UP_DRAWN


def open_doubles(c: Position) -> list[tuple[int, int, int, bool, bool]]:
    """``(train index, line, pips, satisfiable, owed)`` of every line that ends in a double,
    in line order. ``satisfiable``: a tile that fits it is not on the table yet, so it blocks
    the other lines (§6; with every tile of its suit laid it never can be satisfied, and the
    game goes on elsewhere); ``owed``: the double the seat to move has just laid and follows
    now (§6 follow-up), which does not block its own follow-up."""
    if not c.open_dbl:
        return []
    tab = c.tab
    sat, off, ends = tab.satmask, c.off, c.ends
    owed = c.dline if c.phase == FOLLOW_UP or c.phase == FOLLOW_UP_DRAWN else -1
    out = []
    for x in sorted(c.open_dbl, key=c.base.__getitem__):
        end = ends[x]
        out.append((c.line_ti[x], c.line_li[x], end, bool(off & sat[end]), x == owed))
    return out
