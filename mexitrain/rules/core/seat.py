"""What one seat may know, on the compact core: the computer players' fast seat view.

``seat_view(core, seat)`` is the compact counterpart of :func:`mexitrain.rules.view.view`:
the seat's own hand (a bitmask), every train (open ends, laid tiles, markers, lines), the
hand sizes, the boneyard's *size*, the open doubles, the phase and the round's public events
(another seat's draw without its tile, as in ``SeatView``). It holds no other seat's hand
and none of the boneyard's tiles: :class:`CompactView` has no field for them (``hands``
maps the seat to its own mask only, every seat with ``open_hands``; ``bone`` is a ``range``
of the boneyard's length), and the round's events are copied with other seats' drawn tiles
removed.

Its legal moves come from the core's own move generator (``moves.legal``), run on the view
itself: it carries the Core's field names for everything the generator reads, and legality
depends on nothing else than public facts and the seat's own hand (docs/rules.md §4-§8), so
there is one rule book and no full state is rebuilt. tests/players/test_compact_view.py
plays thousands of decisions in lockstep with ``view_legal_actions``.

A :class:`CompactView` shares the core's public lists (trains, markers, open doubles): it is
a window on the position, valid until the core's next ``step``, which is how ``simulate``
and ``tournament`` use it (python-chess's board is the model). ``view.seen`` gives the same
position under the names of ``SeatView`` that the players read, built lazily (``trains``,
``hand``, ``events``, ``phase`` by name ...), so the greedy and planner levels choose from it
exactly as from a ``SeatView``.
"""

from __future__ import annotations

from ..state import Train, construct
from ..view import _hidden_draw
from .compact import Core, Position
from .lookup import E_DRAW, GAME_OVER, LAY, PHASES
from .moves import legal
from .snapshot import event_object

_DRAW = E_DRAW << 4  # an event's kind bits, for a draw


class CompactView(Position):
    """What seat ``seat`` may know, compact (see the module doc): the Core's field names for
    what the move generator reads (:class:`~.compact.Position`), and no field for another
    hand or the boneyard's tiles. ``legal()`` gives its moves as the core's ints, in the
    reducer's order; ``action(m)`` the Action of one; ``seen`` the same position under
    ``SeatView``'s names."""

    __slots__ = ("seat", "hand_sizes", "open_hands", "_seen")

    seat: int
    hands: dict[int, int]  # the seat's own hand only (every hand with open_hands)
    bone: range  # the boneyard's size, as a range (no tile)
    events: list[int]  # the round's events, other seats' drawn tiles removed

    def legal(self) -> list[int]:
        """The seat's legal moves (empty when it is not to move). Do not mutate."""
        if self.turn != self.seat or self.phase == GAME_OVER:
            return []
        return legal(self)

    def action(self, m: int):
        """The (shared, immutable) Action object of move ``m``."""
        return self.tab.action(m)

    def legal_actions(self) -> tuple:
        """The legal moves as Action objects (equal to ``view_legal_actions``'s)."""
        action = self.tab.action
        return tuple([action(m) for m in self.legal()])

    def move_of(self, action) -> int:
        """The move of one of :meth:`legal_actions`'s actions."""
        action_of = self.tab.action
        for m in self.legal():
            if action_of(m) is action:
                return m
        for m in self.legal():  # an equal action built elsewhere
            if action_of(m) == action:
                return m
        raise ValueError(f"not a legal action now: {action!r}")

    @property
    def own(self) -> int:
        """The seat's own hand, as a tile mask."""
        return self.hands[self.seat]

    @property
    def boneyard_size(self) -> int:
        return len(self.bone)

    @property
    def seen(self) -> SeatFacts:
        """This position under ``SeatView``'s names (for the players written against it)."""
        facts = self._seen
        if facts is None:
            facts = self._seen = SeatFacts(self)
        return facts


class SeatFacts:
    """A :class:`CompactView` under the names of ``SeatView`` that the players read (built
    lazily: trains as Train objects, events as Event objects, the phase by name ...)."""

    __slots__ = ("v", "_trains", "_events", "_hand", "_legal")

    def __init__(self, v: CompactView) -> None:
        self.v = v
        self._trains = self._events = self._hand = self._legal = None

    def legal_actions(self) -> tuple:
        legal = self._legal
        if legal is None:
            legal = self._legal = self.v.legal_actions()
        return legal

    def move_of(self, action) -> int:
        return self.v.move_of(action)

    @property
    def seat(self) -> int:
        return self.v.seat

    @property
    def rules(self):
        return self.v.tab.rules

    @property
    def players(self) -> int:
        return self.v.tab.n

    @property
    def round(self) -> int:
        return self.v.round

    @property
    def engine(self) -> int:
        return self.v.engine

    @property
    def engine_seat(self):
        return self.v.engine_seat

    @property
    def first_seat(self) -> int:
        return self.v.first_seat

    @property
    def turn(self) -> int:
        return self.v.turn

    @property
    def my_turn(self) -> bool:
        return self.v.turn == self.v.seat and self.v.phase != GAME_OVER

    @property
    def phase(self) -> str:
        return PHASES[self.v.phase]

    @property
    def hand(self) -> tuple[tuple[int, int], ...]:
        """The seat's own tiles, in set order."""
        hand = self._hand
        if hand is None:
            hand = self._hand = _tiles(self.v.tab, self.v.own)
        return hand

    @property
    def hands(self) -> tuple:
        """Per seat, its tiles when this seat may see them (its own; all with open_hands)."""
        v = self.v
        return tuple(
            (self.hand if i == v.seat else _tiles(v.tab, v.hands[i])) if i in v.hands else None
            for i in range(v.tab.n)
        )

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return self.v.hand_sizes

    @property
    def boneyard_size(self) -> int:
        return len(self.v.bone)

    @property
    def trains(self) -> tuple[Train, ...]:
        trains = self._trains
        if trains is None:
            trains = self._trains = _trains(self.v)
        return trains

    @property
    def mexican_starter(self):
        return self.v.mexican_starter

    @property
    def double_line(self):
        v = self.v
        return None if v.dline < 0 else (v.line_ti[v.dline], v.line_li[v.dline])

    @property
    def drawn(self):
        v = self.v
        return None if v.drawn < 0 else v.tab.tiles[v.drawn]

    @property
    def swan_pos(self):
        return self.v.swan_pos

    @property
    def chain_right(self) -> tuple[bool, ...]:
        return tuple(self.v.chain_right)

    @property
    def failed(self) -> tuple[bool, ...]:
        return tuple(self.v.failed)

    @property
    def events(self) -> tuple:
        """The round's events as ``SeatView.events`` holds them (Event objects)."""
        events = self._events
        if events is None:
            v = self.v
            events = self._events = _event_objects(v.tab, v.events, v.seat, v.open_hands)
        return events


def _tiles(tab, mask: int) -> tuple[tuple[int, int], ...]:
    tiles = tab.tiles
    out = []
    while mask:
        low = mask & -mask
        out.append(tiles[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def _trains(p: CompactView) -> tuple[Train, ...]:
    n = p.tab.n
    out = []
    for ti in range(n + 1):
        ids = p.train_lines[ti]
        out.append(
            construct(
                Train,
                {
                    "owner": None if ti == n else ti,
                    "lines": tuple(tuple([LAY[x] for x in p.laid[line]]) for line in ids),
                    "starts": tuple([p.starts[line] for line in ids]),
                    "marker": p.marker[ti],
                },
            )
        )
    return tuple(out)


def _event_objects(tab, codes, seat: int, open_hands: bool) -> tuple:
    out = []
    for e in codes:
        if not open_hands and (e >> 4) & 7 == E_DRAW and e & 15 != seat:
            out.append(_hidden_draw(event_object(tab, e)))
        else:
            out.append(event_object(tab, e))
    return tuple(out)


# Per seat: the last round's event list seen (the core's own, kept here and never handed
# out) and its public form, so that the next view of the same round hides only new events.
_HIDDEN: list = [None] * 32


def _public_events(events: list[int], seat: int) -> list[int]:
    """``events`` without other seats' drawn tiles (their payload cleared), incrementally."""
    hit = _HIDDEN[seat]
    if hit is not None and hit[0] is events and len(hit[1]) <= len(events):
        out = hit[1]
    else:
        out = []
        _HIDDEN[seat] = (events, out)
    k = len(out)
    if k < len(events):
        for e in events[k:]:
            if e & 0x70 == _DRAW and e & 15 != seat:
                e &= 0x7F  # another seat's draw: its seat and kind only
            out.append(e)
    return out


def seat_view(c: Core, seat: int) -> CompactView:
    """What ``seat`` may know of ``c`` now (valid until ``c``'s next step)."""
    v = CompactView.__new__(CompactView)
    v.seat = seat
    v.tab = tab = c.tab
    v.turn = turn = c.turn
    v.phase = c.phase
    hands = c.hands
    open_hands = v.open_hands = tab.rules.open_hands
    v.hands = dict(enumerate(hands)) if open_hands else {seat: hands[seat]}
    v.hand_sizes = tuple([h.bit_count() for h in hands])
    v.off = c.off
    v.train_lines = c.train_lines
    v.ends = c.ends
    v.laid = c.laid
    v.starts = c.starts
    v.line_ti = c.line_ti
    v.line_li = c.line_li
    v.base = c.base
    v.open_dbl = c.open_dbl
    v.marker = c.marker
    v.mexican_starter = c.mexican_starter
    v.dline = c.dline
    v.drawn = c.drawn if turn == seat else -1  # only the seat's own drawn tile
    v.swan_pos = c.swan_pos
    v.chain_right = c.chain_right
    v.failed = c.failed
    v.bone = range(len(c.bone) - c.bpos)
    v.bpos = 0
    v.events = c.events[:] if open_hands else _public_events(c.events, seat)
    v.plays_cache = c.plays_cache if turn == seat else None
    v.mbits = c.mbits
    v.round = c.round
    v.engine = c.engine
    v.engine_seat = c.engine_seat
    v.first_seat = c.first_seat
    v._seen = None
    return v


__all__ = ["CompactView", "SeatFacts", "seat_view"]
