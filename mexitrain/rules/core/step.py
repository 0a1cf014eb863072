"""One step of the game, in place (docs/rules.md §5-§8): a move, then what the rules force
without a choice (chain ends, swan ends, stuck rounds), as the reducer does it."""

from __future__ import annotations

from .compact import Core
from .lookup import (
    BLOCKED,
    CHAIN,
    DOMINO,
    DRAWN,
    E_DRAW,
    FOLLOW_UP,
    FOLLOW_UP_DRAWN,
    GAME_OVER,
    M_DRAW,
    M_MARK,
    M_SKIP,
    MOVE_EVENT,
    STUCK,
    SWAN,
    TURN,
)
from .moves import chain_lines, plays, swan_next
from .scoring import end_round

_DRAW_EVENT = E_DRAW << 4


def step(c: Core, m: int) -> None:
    """Make legal move ``m`` (unchecked: see :func:`.refusals.check`) and settle."""
    c.plays_cache = None
    if m >= 0:  # a play (§5, §6, §8): the one form, for every phase and rule set
        tab = c.tab
        seat = c.turn
        phase = c.phase
        # a swan drive's next train, on the position before the play
        nxt = swan_next(c) if phase == SWAN else None
        ti = m >> 15
        lay = m & 511
        bit, end, double = tab.lay_info[lay]
        hands = c.hands
        hand = hands[seat] ^ bit
        hands[seat] = hand
        c.off ^= bit
        line = c.train_lines[ti][(m >> 9) & 63] if tab.branching else ti  # one line a train
        laid = c.laid
        laid[line] = laid[line] + [lay]  # copy on write: copies of the core share lines
        open_dbl = c.open_dbl
        if open_dbl and line in open_dbl:  # this play satisfies a double
            open_dbl.remove(line)
            if tab.branching:  # two more branches grow from it (§8), from the double's value
                old_end = c.ends[line]
                c.add_line(ti, old_end)
                c.add_line(ti, old_end)
        c.ends[line] = end
        if double:
            open_dbl.append(line)
        if (ti == seat or ti == tab.partner[seat]) and c.mbits & tab.team_bits[seat]:
            marker = c.marker  # the owner (or a partner) removes the marker (§5)
            for s in tab.team[seat]:
                marker[s] = False
            c.mbits &= ~tab.team_bits[seat]
        c.failed[seat] = False
        c.events.append(seat | m << 7)  # E_PLAY (0) in bits 4-6
        c.drawn = -1
        if ti == tab.n and c.mexican_starter is None:
            c.mexican_starter = seat
        if not hand and (phase != CHAIN or not tab.simultaneous):
            # domino: the round ends at once, even on a double (§6, §7); in a simultaneous
            # opening every seat lays its chain first (§8, settle)
            end_round(c, DOMINO, seat)
        elif (
            tab.chain_opening
            and ti == seat
            and c.chain_right[seat]
            and (
                (phase == TURN and tab.first_turn_chain)
                or ((phase == TURN or phase == DRAWN) and tab.delayed)
            )
        ):  # the seat's first play on its own train opens its chain (§8)
            c.chain_right = c.chain_right[:]  # copy on write (see Core.copy)
            c.chain_right[seat] = False
            c.phase = CHAIN
        elif phase != CHAIN:  # a chain goes on while a tile fits (settle)
            if phase == SWAN:
                c.swan_pos = nxt
            if double:  # the double asks for its follow-up (§6)
                c.phase = FOLLOW_UP
                c.dline = line
            elif tab.swan and (phase == SWAN or c.swan_pos is not None or ti == seat):
                swan_context = phase == SWAN or c.swan_pos is not None  # a drive under way
                c.phase = SWAN  # §8: the swan drive goes on, or starts on one's own train
                c.dline = -1
                if not swan_context:
                    c.swan_pos = -1
            else:
                end_turn(c, True)
    elif m == M_DRAW:
        tab = c.tab
        seat = c.turn
        t = c.bone[c.bpos]
        c.bpos += 1
        c.hands[seat] |= tab.bit[t]
        c.drawn = t
        c.phase = FOLLOW_UP_DRAWN if c.phase == FOLLOW_UP else DRAWN
        c.events.append(seat | _DRAW_EVENT | tab.code[t] << 7)
        return  # nothing is forced after a draw
    elif m == M_SKIP:
        c.swan_pos = swan_next(c)
        c.events.append(c.turn | MOVE_EVENT[m] << 4)
    else:  # mark or pass (§5, §6, §8): the one form
        seat = c.turn
        phase = c.phase
        played = phase == FOLLOW_UP or phase == FOLLOW_UP_DRAWN or phase == SWAN
        if m == M_MARK:
            tab = c.tab
            target = seat
            if (phase == FOLLOW_UP or phase == FOLLOW_UP_DRAWN) and tab.must_satisfy:
                target = c.line_ti[c.dline]
            # the event says whose train the marker went on (its payload: that seat + 1)
            c.events.append(seat | MOVE_EVENT[m] << 4 | (target + 1) << 7)
            marker = c.marker
            for s in tab.team[target]:
                marker[s] = True
            c.mbits |= tab.team_bits[target]
        else:
            c.events.append(seat | MOVE_EVENT[m] << 4)
        end_turn(c, played)
    phase = c.phase
    if phase == DRAWN or phase == FOLLOW_UP_DRAWN:
        return  # nothing is forced
    if (phase == TURN or phase == FOLLOW_UP) and (c.bpos < len(c.bone) or c.tab.until_blocked):
        return
    settle(c)


def end_turn(c: Core, played: bool) -> None:
    """The next seat's turn (or the end of a blocked round, §7 until_blocked)."""
    tab = c.tab
    seat = c.turn
    c.plays_cache = None
    if tab.until_blocked:  # §7: the seats that could do nothing in a row
        idle = 0 if played or c.bpos < len(c.bone) else c.idle + 1
        if idle >= tab.n:
            end_round(c, BLOCKED, None)
            return
        c.idle = idle
    c.turn = tab.next_seat[seat]
    c.phase = TURN
    c.drawn = -1
    c.dline = -1
    c.swan_pos = None
    c.failed[seat] = not played
    if tab.first_turn_chain and c.chain_right[seat]:
        c.chain_right = c.chain_right[:]  # copy on write (see Core.copy)
        c.chain_right[seat] = False


def settle(c: Core) -> None:
    """Carry out what the rules force without a choice (chain ends, stuck rounds, swan ends)."""
    tab = c.tab
    while True:
        phase = c.phase
        if phase == GAME_OVER:
            return
        if phase == CHAIN:
            seat = c.turn
            hand = c.hands[seat]
            fit = tab.fit
            ends = c.ends
            if any(hand & fit[ends[line]] for line in chain_lines(c)):
                return
            c.plays_cache = None
            if tab.simultaneous:
                if c.queue:
                    c.turn = c.queue[0]
                    c.queue = c.queue[1:]  # copy on write (see Core.copy)
                else:
                    # §8: once every seat has laid its chain, a seat with no tile left ends
                    # the round; the record names the first of them in the opening order
                    n = tab.n
                    out = None
                    for k in range(n):
                        s = (c.first_seat + k) % n
                        if not c.hands[s]:
                            out = s
                            break
                    if out is not None:
                        end_round(c, DOMINO, out)
                        continue
                    c.turn = c.first_seat
                    c.phase = TURN
            else:
                end_turn(c, True)
            continue
        if phase == SWAN:
            nxt = swan_next(c)
            if nxt is None:
                end_turn(c, True)
                continue
            if plays(c):
                return
            if tab.swan_order(c.turn, c.mexican_starter)[nxt] == tab.n:  # nothing fits: skip it
                c.swan_pos = nxt
                c.plays_cache = None
                continue
            end_turn(c, True)
            continue
        if phase == TURN or phase == FOLLOW_UP:
            if c.bpos >= len(c.bone) and not tab.until_blocked and not plays(c):
                end_round(c, STUCK, None)  # §7: would draw from an empty boneyard
                continue
        return
