"""Between the core and the immutable snapshots: ``to_state(core)`` is the GameState the
reducer would hold at the same point, field for field; ``from_state(state)`` the core of a
snapshot. Not for hot loops: they build and read pydantic models."""

from __future__ import annotations

from ..actions import MEXICAN
from ..state import Event, GameState, RoundResult, Train, construct, filled, pending
from .compact import Core
from .lookup import E_PLAY, EVENT_KINDS, GAME_OVER, LAY, PHASES, Lookup, lookup, move
from .scoring import game_winners, hand_tiles, rank_of, ranked_tiles, ranks

HIDDEN = 19 * 19  # the payload of a draw whose tile a seat's view hides (no lay code)
_KIND_CODE = {k: i for i, k in enumerate(EVENT_KINDS)}
_MARK = _KIND_CODE["mark"]


def event_object(tab: Lookup, e: int) -> Event:
    """The (shared) Event object of compact event ``e``."""
    event = tab._events.get(e)
    if event is None:
        seat, kind, payload = e & 15, (e >> 4) & 7, e >> 7
        values = {"seat": seat, "type": EVENT_KINDS[kind], "tile": None, "train": None, "branch": 0}
        if kind == 0:  # play
            values.update(tile=LAY[payload & 511], train=tab.ref(payload >> 15), branch=(payload >> 9) & 63)
        elif kind == 1 and payload != HIDDEN:  # draw (a seat's view hides others' tiles)
            values["tile"] = LAY[payload]
        elif kind == _MARK and payload:  # mark: the train the marker went on (seat + 1)
            values["train"] = tab.ref(payload - 1)
        event = tab._events[e] = construct(Event, values)
    return event


def event_code(tab: Lookup, event: Event) -> int:
    """The compact form of an Event."""
    kind = _KIND_CODE[event.type]
    payload = 0
    if kind == 0:
        a, b = event.tile
        ti = tab.n if event.train == MEXICAN else event.train
        payload = move(ti, event.branch, a * 19 + b)
    elif kind == _MARK:
        if event.train is not None:  # (a snapshot from before markers said their train: none)
            payload = (tab.n if event.train == MEXICAN else event.train) + 1
    elif kind == 1:
        if event.tile is None:
            payload = HIDDEN
        else:
            a, b = event.tile
            payload = a * 19 + b
    return event.seat | kind << 4 | payload << 7


def _result(tab: Lookup, r) -> RoundResult:
    if isinstance(r, RoundResult):
        return r
    number, engine, engine_seat, first, hands, boneyard, events, end, out, left, scores = r
    masks, order = left
    rank = rank_of(tab, order)
    left = tuple([ranked_tiles(tab, rank, m) for m in masks])
    return construct(
        RoundResult,
        {
            "number": number,
            "engine": engine,
            "engine_seat": engine_seat,
            "first_seat": first,
            "hands": hands,
            "boneyard": boneyard,
            "events": tuple(event_object(tab, e) for e in events),
            "end": end,
            "out_seat": out,
            "leftovers": left,
            "scores": scores,
        },
    )


def _train(c: Core, ti: int) -> Train:
    n = c.tab.n
    ids = c.train_lines[ti]
    return construct(
        Train,
        {
            "owner": None if ti == n else ti,
            "lines": tuple(tuple(LAY[x] for x in c.laid[line]) for line in ids),
            "starts": tuple(c.starts[line] for line in ids),
            "marker": c.marker[ti],
        },
    )


def _train_after(c: Core, prev: Train, ti: int) -> Train:
    """Train ``ti`` of ``c`` from ``prev``, its snapshot earlier in the same round: lines
    only grow, and new lines (branches) are only added."""
    ids = c.train_lines[ti]
    laid = c.laid
    plines = prev.lines
    old = len(plines)
    lines = []
    for li, line in enumerate(ids):
        tiles = laid[line]
        if li < old:
            p = plines[li]
            k = len(p)
            lines.append(p if k == len(tiles) else p + tuple([LAY[x] for x in tiles[k:]]))
        else:
            lines.append(tuple([LAY[x] for x in tiles]))
    return construct(
        Train,
        {
            "owner": prev.owner,
            "lines": tuple(lines),
            "starts": prev.starts if len(ids) == old else tuple([c.starts[x] for x in ids]),
            "marker": c.marker[ti],
        },
    )


def _hand(c: Core, prev: tuple, m: int, before: int) -> tuple:
    """Hand ``m`` as a tuple, from ``prev`` (the same seat's hand ``before``)."""
    if m == before:
        return prev
    gone, new = before & ~m, m & ~before
    tiles = c.tab.tiles
    if not new and not gone & (gone - 1):  # one tile played
        t = tiles[gone.bit_length() - 1]
        i = prev.index(t)
        return prev[:i] + prev[i + 1 :]
    if not gone and not new & (new - 1) and prev:  # one tile drawn: last, unless ranked lower
        tid = new.bit_length() - 1
        rank = ranks(c)
        if rank[tid] > rank[c.tab.id_of[prev[-1]]]:
            return prev + (tiles[tid],)
    return hand_tiles(c, m)


def to_state(c: Core, prev: GameState | None = None, before: Core | None = None) -> GameState:
    """The snapshot of ``c``: equal to the reducer's at the same point of the same game.

    Incremental when given ``prev``, the snapshot of core ``before`` from which ``c`` was
    stepped: what did not change (hands, trains, boneyard, events, finished rounds) is
    reused from ``prev``, not rebuilt.
    """
    return construct(GameState, _values(c, prev, before))


def _values(c: Core, prev: GameState | None, before: Core | None) -> dict:
    """Every field of ``to_state(c, prev, before)``, in the fields' order."""
    tab = c.tab
    n = tab.n
    tiles = tab.tiles
    if (
        prev is not None
        and before is not None
        and c.round == before.round
        and len(c.results) == len(before.results)
    ):
        return _after(c, prev, before)
    hands = tuple(hand_tiles(c, h) for h in c.hands)
    trains = tuple(_train(c, ti) for ti in range(n + 1))
    boneyard = tuple(tiles[i] for i in c.bone[c.bpos :])
    events = tuple(event_object(tab, e) for e in c.events)
    kept = 0
    if prev is not None and before is not None:
        kept = min(len(before.results), len(prev.results))
        results = prev.results[:kept]
    else:
        results = ()
    results += tuple(_result(tab, r) for r in c.results[kept:])
    dline = None if c.dline < 0 else (c.line_ti[c.dline], c.line_li[c.dline])
    return {
        "rules": tab.rules,
        "seed": c.seed,
        "players": n,
        "starter": c.starter,
        "round": c.round,
        "engine": c.engine,
        "engine_seat": c.engine_seat,
        "first_seat": c.first_seat,
        "turn": c.turn,
        "phase": PHASES[c.phase],
        "hands": hands,
        "boneyard": boneyard,
        "trains": trains,
        "mexican_starter": c.mexican_starter,
        "double_line": dline,
        "drawn": None if c.drawn < 0 else tiles[c.drawn],
        "swan_pos": c.swan_pos,
        "chain_right": tuple(c.chain_right),
        "opening_queue": tuple(c.queue),
        "failed": tuple(c.failed),
        "idle_turns": c.idle,
        "dealt_hands": c.dealt_hands,
        "dealt_boneyard": c.dealt_boneyard,
        "events": events,
        "results": results,
        "winners": game_winners(c),
    }


def after(c: Core, prev: GameState, before: Core) -> GameState:
    """The snapshot of ``c``, stepped from core ``before`` (snapshot ``prev``), all but its
    turn and phase left to their first read (``GameState``'s docstring): the reducer's
    ``apply``.

    When that read comes, they are built as :func:`to_state` builds them: from ``prev``'s,
    those that changed replaced, if ``prev`` was filled by then and the round is the same;
    from the core alone otherwise. Only a filled ``prev`` is kept, so that a run of
    snapshots nobody read never holds the ones before it alive."""
    values = {"turn": c.turn, "phase": PHASES[c.phase]}
    if filled(prev):  # (and stays so)
        return pending(values, c, _values, prev, before)
    return pending(values, c, _values, None, None)


def _after(c: Core, prev: GameState, before: Core) -> dict:
    """The fields of ``c``, stepped in the same round from ``before`` (snapshot ``prev``):
    ``prev``'s fields, those that changed replaced (the reducer's hot path)."""
    tab = c.tab
    d = prev.__dict__.copy()
    hands, old = c.hands, before.hands
    if hands != old:
        seats = list(prev.hands)
        for s, m in enumerate(hands):
            if m != old[s]:
                seats[s] = _hand(c, seats[s], m, old[s])
        d["hands"] = tuple(seats)
    events = c.events
    k = len(before.events)
    if len(events) > k:
        new_events = events[k:]
        d["events"] = prev.events + tuple([event_object(tab, e) for e in new_events])
        # a train changes by a play on it (its lines, a branch) or a marker put or taken
        changed = {e >> 22 for e in new_events if (e >> 4) & 7 == E_PLAY}
    else:
        changed = set()
    marker = c.marker
    if marker != before.marker:
        old_marker = before.marker
        changed.update(ti for ti in range(tab.n) if marker[ti] != old_marker[ti])
    if changed:
        trains = list(prev.trains)
        for ti in changed:
            trains[ti] = _train_after(c, trains[ti], ti)
        d["trains"] = tuple(trains)
    k = c.bpos - before.bpos
    if k:
        d["boneyard"] = prev.boneyard[k:]
    d["turn"] = c.turn
    d["phase"] = PHASES[c.phase]
    d["mexican_starter"] = c.mexican_starter
    dline = c.dline
    d["double_line"] = None if dline < 0 else (c.line_ti[dline], c.line_li[dline])
    d["drawn"] = None if c.drawn < 0 else tab.tiles[c.drawn]
    d["swan_pos"] = c.swan_pos
    d["idle_turns"] = c.idle
    if c.chain_right != before.chain_right:
        d["chain_right"] = tuple(c.chain_right)
    if c.queue != before.queue:
        d["opening_queue"] = tuple(c.queue)
    if c.failed != before.failed:
        d["failed"] = tuple(c.failed)
    d["winners"] = game_winners(c)
    return d


def from_state(state: GameState) -> Core:
    """The core of a snapshot (any snapshot the reducer could hold)."""
    tab = lookup(state.rules, state.players)
    n = tab.n
    id_of, bit = tab.id_of, tab.bit
    c = Core.__new__(Core)
    c.tab = tab
    c.seed = state.seed
    c.starter = state.starter
    c.round = state.round
    c.engine = state.engine
    c.engine_seat = state.engine_seat
    c.first_seat = state.first_seat
    c.turn = state.turn
    c.phase = PHASES.index(state.phase)
    rank = [0] * tab.size
    order = []  # the hands in their order, then the boneyard (see Core.order)
    hands = []
    for h in state.hands:
        m = 0
        for t in h:
            i = id_of[t]
            m |= bit[i]
            rank[i] = len(order)
            order.append(i)
        hands.append(m)
    bone = []
    off = 0
    for t in state.boneyard:
        i = id_of[t]
        bone.append(i)
        rank[i] = len(order)
        order.append(i)
        off |= bit[i]
    for m in hands:
        off |= m
    c.hands = hands
    c.order = order
    c.rank = rank
    c.bone = bone
    c.bpos = 0
    c.off = off
    c.train_lines = [[] for _ in range(n + 1)]
    c.ends, c.laid, c.starts, c.line_ti, c.line_li, c.base, c.open_dbl = [], [], [], [], [], [], []
    for ti, train in enumerate(state.trains):
        for li, laid in enumerate(train.lines):
            line = c.add_line(ti, train.starts[li])
            c.laid[line] = [a * 19 + b for a, b in laid]
            if laid:
                a, b = laid[-1]
                c.ends[line] = b
                if a == b:
                    c.open_dbl.append(line)
    c.marker = [t.marker for t in state.trains]
    c.mexican_starter = state.mexican_starter
    c.dline = -1
    if state.double_line is not None:
        ti, li = state.double_line
        c.dline = c.train_lines[ti][li]
    c.drawn = -1 if state.drawn is None else id_of[state.drawn]
    c.swan_pos = state.swan_pos
    c.chain_right = list(state.chain_right)
    c.queue = list(state.opening_queue)
    c.failed = list(state.failed)
    c.idle = state.idle_turns
    c.events = [event_code(tab, e) for e in state.events]
    c.results = list(state.results)
    c.round_scores = [r.scores for r in state.results]
    c.winners = state.winners
    c.dealt_hands = state.dealt_hands
    c.dealt_boneyard = state.dealt_boneyard
    c.plays_cache = None
    c.mbits = sum(1 << ti for ti in range(n) if c.marker[ti])
    c.over = c.phase == GAME_OVER
    return c
