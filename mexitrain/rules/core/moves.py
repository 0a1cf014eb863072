"""What may be played (docs/rules.md §4-§6, §8): the legal moves of the seat to move, in exactly
the reducer's order (plays by train, line and laid tile, then the other actions).

Each function reads a :class:`~.compact.Position`: a whole :class:`~.compact.Core`, or a
seat's ``CompactView`` (seat.py), which holds only what the seat may know and from which the
same generator gives that seat's moves."""

from __future__ import annotations

from .compact import Position
from .lookup import (
    CHAIN,
    DRAWN,
    E_PLAY,
    FOLLOW_UP,
    FOLLOW_UP_DRAWN,
    GAME_OVER,
    M_DRAW,
    M_MARK,
    M_PASS,
    M_SKIP,
    SWAN,
    TURN,
)


def blocking_lines(c: Position, exclude: int = -1) -> list[int]:
    """The open doubles that block (§6), but line ``exclude``, in order (a new list, empty if
    none): those that a tile out of the seat's sight (``off``) could still satisfy."""
    sat = c.tab.satmask
    off = c.off
    ends = c.ends
    blocking = []
    for x in c.open_dbl:
        if x != exclude and off & sat[ends[x]]:
            blocking.append(x)
    if len(blocking) > 1:
        blocking.sort(key=c.base.__getitem__)
    return blocking


def default_lines(c: Position, seat: int, exclude: int = -1) -> tuple[list[int], bool]:
    """``(lines, blocked)``: the open doubles that block (§6), if any, else every line of the
    trains ``seat`` may play on (own or team's, public ones, the Mexican Train), in order."""
    if c.open_dbl:
        blocking = blocking_lines(c, exclude)
        if blocking:
            return blocking, True
    return usable_lines(c, seat), False


def usable_lines(c: Position, seat: int) -> list[int]:
    """Every line of the trains ``seat`` may play on when no double blocks (own or team's,
    public ones, the Mexican Train), in order (a new list)."""
    n = c.tab.n
    partner = c.tab.partner[seat]
    marker = c.marker
    tl = c.train_lines
    lines: list[int] = []
    for ti in range(n):
        if marker[ti] or ti == seat or ti == partner:
            lines.extend(tl[ti])
    lines.extend(tl[n])
    return lines


def chain_lines(c: Position) -> list[int]:
    """The line an opening chain may go on (§8): the one its last tile went on, so that with
    ``branching_doubles`` the chain follows one line and the branches wait for normal turns;
    before its first tile, the lines of the seat's own train."""
    seat = c.turn
    if c.events:
        e = c.events[-1]
        if e & 15 == seat and (e >> 4) & 7 == E_PLAY and e >> 22 == seat:
            return [c.train_lines[seat][(e >> 16) & 63]]
    return c.train_lines[seat]


def swan_next(c: Position) -> int | None:
    """Position in the swan order of the next public train, or None at the end (§8)."""
    tab = c.tab
    n = tab.n
    order = tab.swan_order(c.turn, c.mexican_starter)
    marker = c.marker
    pos = -1 if c.swan_pos is None else c.swan_pos
    for i in range(pos + 1, len(order)):
        ti = order[i]
        if ti == n or marker[ti]:
            return i
    return None


def targets(c: Position) -> tuple[list[int], str | None]:
    """The lines the seat to move may play on now, and why it is restricted (a reason
    code). Not sorted in one case (a follow-up while blocked: blocking lines, then the
    owed one), as the refusals name the first."""
    seat, phase = c.turn, c.phase
    if phase == CHAIN:
        return chain_lines(c), "chain_own_train"
    if phase == SWAN:
        nxt = swan_next(c)
        if nxt is None:
            return [], "swan_next"
        lines = c.train_lines[c.tab.swan_order(seat, c.mexican_starter)[nxt]]
        blocking, blocked = default_lines(c, seat)
        if blocked:  # §6: an open double (left by a chain opening) blocks the drive too
            return [line for line in lines if line in blocking], "blocked_by_double"
        return lines, "swan_next"
    if phase == FOLLOW_UP or phase == FOLLOW_UP_DRAWN:
        owed = c.dline
        if c.tab.must_satisfy or c.swan_pos is not None:
            return [owed], "must_satisfy"
        lines, blocked = default_lines(c, seat, owed)
        if blocked:
            return lines + [owed], "blocked_by_double"
        if owed not in lines:
            lines.append(owed)
            base = c.base
            lines.sort(key=lambda x: base[x])
        return lines, "private_train"
    lines, blocked = default_lines(c, seat)
    return lines, ("blocked_by_double" if blocked else "private_train")


def tile_mask(c: Position) -> int:
    """The tiles the seat to move may lay now."""
    phase = c.phase
    tab = c.tab
    if phase == DRAWN:
        return tab.bit[c.drawn]
    if phase == FOLLOW_UP_DRAWN:
        return 0 if tab.bit[c.drawn] & tab.double_mask else tab.bit[c.drawn]
    hand = c.hands[c.turn]
    if phase == FOLLOW_UP:
        return hand & ~tab.double_mask
    return hand


def gen(c: Position, mask: int, lines) -> list[int]:
    """The plays of the tiles of ``mask`` on ``lines`` (in order), in order."""
    tab = c.tab
    fit = tab.fit
    ends = c.ends
    base = c.base
    out: list[int] = []
    for line in lines:
        end = ends[line]
        h = mask & fit[end]
        if h:
            _add(out, h, base[line], end, tab)
    return out


def _add(out: list[int], h: int, b: int, end: int, tab) -> None:
    """Add the plays of the tiles of ``h`` (all fit) on a line of move bits ``b``."""
    if h & (h - 1) == 0:  # one tile
        code = tab.one_lay[end][h.bit_length()]
        if code >= 0:
            out.append(b | code)
        else:
            out.extend([b | x for x in tab.lays[end][h.bit_length() - 1]])
        return
    table = tab.lays[end]
    codes = []
    while h:
        low = h & -h
        codes.extend(table[low.bit_length() - 1])
        h ^= low
    codes.sort()
    out.extend([b | x for x in codes])


def plays(c: Position) -> list[int]:
    """Every legal play of the seat to move (§5, §6, §8), in order. Do not mutate."""
    ps = c.plays_cache
    if ps is None:
        if c.phase == GAME_OVER:
            return []
        legal(c)
        ps = c.plays_cache
    return ps


def target_plays(c: Position) -> list[int]:
    """The plays of the tiles the seat may lay now on the lines it may play on now
    (:func:`targets`): every case, as :func:`legal` does the usual ones in one pass."""
    lines, why = targets(c)
    if why == "blocked_by_double" and c.phase != SWAN and len(lines) > 1:
        base = c.base
        lines = sorted(lines, key=lambda x: base[x])
    return gen(c, tile_mask(c), lines)


def can_start_own(c: Position, tid: int) -> bool:
    """Could tile ``tid`` start the seat's own train now (§8 delayed_first_turn)? Only if
    the train may be played on now (an open double elsewhere blocks it, §6)."""
    seat = c.turn
    trunk = c.train_lines[seat][0]
    return (
        bool(c.tab.fit[c.ends[trunk]] & c.tab.bit[tid])
        and not c.laid[trunk]
        and trunk in targets(c)[0]
    )


def passes_by_choice(c: Position) -> bool:
    """§8 delayed_first_turn: the drawn tile could start the seat's train, and it may pass
    instead (the one pass allowed while a drawn tile fits, §5)."""
    return (
        c.phase == DRAWN
        and c.tab.delayed
        and c.chain_right[c.turn]
        and can_start_own(c, c.drawn)
    )


def end_without_play(c: Position) -> int:
    """Mark or Pass: what ending the turn without a (further) play does now."""
    tab = c.tab
    if passes_by_choice(c):
        return M_PASS  # §8: passing by choice places no marker
    if (c.phase == FOLLOW_UP or c.phase == FOLLOW_UP_DRAWN) and tab.must_satisfy:
        ti = c.line_ti[c.dline]
        if ti == tab.n or c.marker[ti]:
            return M_PASS  # §6: a double on a public train marks nothing
        return M_MARK
    if tab.both_stuck and (
        c.phase == FOLLOW_UP or c.phase == FOLLOW_UP_DRAWN or not c.failed[tab.partner[c.turn]]
    ):
        # §8 both_stuck: public only when both partners failed; a turn that laid a double
        # and failed its follow-up is a turn with a play (docs/rules.md §10)
        return M_PASS
    return M_MARK


def legal(c: Position) -> list[int]:
    """Every move the seat to move may make now, in the reducer's order. Do not mutate.

    The plays (kept in ``c.plays_cache`` until the next step) come in one pass in the usual
    case of a turn, a drawn tile or a double's follow-up: no open double blocks (§6), and
    the lines are those of every train the seat may use (own or team's, public ones, the
    Mexican Train), the owed double's among them; else from :func:`target_plays`.
    tests/rules/test_core_fast_paths.py holds the two ways equal."""
    phase = c.phase
    ps = c.plays_cache
    if ps is None:
        if phase >= CHAIN:
            if phase == GAME_OVER:
                return []
            ps = target_plays(c)
        else:
            seat = c.turn
            tab = c.tab
            ends = c.ends
            lines = None
            if phase < FOLLOW_UP:  # a turn, a drawn tile
                mask = c.hands[seat] if phase == TURN else tab.bit[c.drawn]
                owed = -1
            else:  # a double's follow-up (§6): not a double
                mask = (c.hands[seat] if phase == FOLLOW_UP else tab.bit[c.drawn]) & ~tab.double_mask
                owed = c.dline
                if tab.must_satisfy or c.swan_pos is not None:
                    lines = [owed]  # §6 must_satisfy, or a follow-up within a swan drive (§8)
            if lines is None and c.open_dbl:  # the doubles that block (§6), and the owed one
                lines = blocking_lines(c, owed)
                if not lines:
                    lines = None
                elif owed >= 0:
                    lines.append(owed)
                    lines.sort(key=c.base.__getitem__)
            if lines is None:  # every line of the trains the seat may use
                if tab.branching:
                    lines = usable_lines(c, seat)
                else:  # one line a train: the lines follow from the markers alone
                    key = c.mbits << 5 | seat
                    try:
                        lines = tab.usable[key]
                    except KeyError:
                        lines = tab.usable[key] = usable_lines(c, seat)
                if owed >= 0 and owed not in lines:
                    lines = sorted([*lines, owed], key=c.base.__getitem__)
            fit = tab.fit
            base = c.base
            ps = []
            if tab.simple:  # one lay a tile, in the order of the tile ids (see Lookup)
                one_lay = tab.one_lay
                for line in lines:
                    end = ends[line]
                    h = mask & fit[end]
                    if h:
                        b = base[line]
                        codes = one_lay[end]
                        if h & (h - 1):
                            while h:
                                low = h & -h
                                ps.append(b | codes[low.bit_length()])
                                h ^= low
                        else:
                            ps.append(b | codes[h.bit_length()])
            else:
                for line in lines:
                    end = ends[line]
                    h = mask & fit[end]
                    if h:
                        _add(ps, h, base[line], end, tab)
            if tab.first_turn_chain and phase == TURN and ps and c.chain_right[seat]:
                own = [m for m in ps if m >> 15 == seat]  # §8: the chain starts on one's own
                if own:
                    ps = own
        c.plays_cache = ps
    if ps and phase != SWAN and (phase == TURN or not c.tab.delayed):
        return ps  # nothing is added to the plays (passes_by_choice needs delayed_first_turn)
    out = list(ps)
    if phase == SWAN:
        nxt = swan_next(c)
        if nxt is not None and c.tab.swan_order(c.turn, c.mexican_starter)[nxt] == c.tab.n:
            out.append(M_SKIP)
        out.append(M_PASS)
    elif phase == DRAWN or phase == FOLLOW_UP_DRAWN:
        if not ps:
            out.append(end_without_play(c))
        elif passes_by_choice(c):
            out.append(M_PASS)
    elif not ps and (phase == TURN or phase == FOLLOW_UP):
        if c.bpos < len(c.bone):
            out.append(M_DRAW)
        elif c.tab.until_blocked:
            out.append(end_without_play(c))
    return out
