"""Why an action is refused (docs/rules.md §4-§8): the same IllegalAction, code and values, as
the reducer raises; and the checked way from an Action object to a legal move."""

from __future__ import annotations

from ..actions import MEXICAN
from ..errors import IllegalAction
from ..tiles import placements, tile
from .compact import Core
from .lookup import (
    CHAIN,
    DRAWN,
    FOLLOW_UP,
    FOLLOW_UP_DRAWN,
    GAME_OVER,
    LAY,
    PHASES,
    SPECIAL_MOVES,
    SWAN,
    TURN,
    move,
)
from .moves import default_lines, legal, plays, swan_next, targets


def _resolve_train(c: Core, ref) -> int:
    if ref == MEXICAN:
        return c.tab.n
    if isinstance(ref, int) and 0 <= ref < c.tab.n:
        return ref
    raise IllegalAction("no_train", ref=ref)


def _whole(value) -> int | None:
    """``value`` as an int if it is a whole number (an int, or a value equal to one: a half
    3.0, a branch True name the same play), else None; never raises."""
    if value.__class__ is int:
        return value
    if isinstance(value, str | bytes):
        return None  # int("3") is 3, but a string is not a number of pips
    try:
        whole = int(value)
        return whole if whole == value else None
    except Exception:  # anything at all may come in an action built without validation
        return None


def _play_parts(t, li) -> tuple[int, int, int]:
    """The halves of tile ``t`` and the branch ``li`` of a play as ints; in an action built
    without validation (``model_construct``) that has no such values, refused ``bad_action``,
    naming the field."""
    if not isinstance(t, tuple | list) or len(t) != 2:
        raise IllegalAction("bad_action", field="tile")
    a, b = _whole(t[0]), _whole(t[1])
    if a is None or b is None or a < 0 or b < 0:
        raise IllegalAction("bad_action", field="tile")
    li = _whole(li)
    if li is None:
        raise IllegalAction("bad_action", field="branch")
    return a, b, li


def check(c: Core, action) -> int:
    """The move of ``action`` if it is legal now; else raise the reducer's IllegalAction.

    Any object is answered with an IllegalAction, never another exception: an action built
    without validation (``Play.model_construct(...)``) whose type, tile or branch is not one
    an action can have is refused ``bad_action`` (``field``: which)."""
    if c.phase == GAME_OVER:
        raise IllegalAction("game_over")
    kind = getattr(action, "type", None)
    if kind == "play" and isinstance(kind, str):
        ti = _resolve_train(c, getattr(action, "train", None))
        t, li = getattr(action, "tile", None), getattr(action, "branch", None)
        if t.__class__ is tuple and len(t) == 2 and t[0].__class__ is int and t[1].__class__ is int and li.__class__ is int:
            a, b = t  # a validated action
            if a < 0 or b < 0:
                raise IllegalAction("bad_action", field="tile")
        else:
            a, b, li = _play_parts(t, li)
        if 0 <= li < 64 and 0 <= a < 19 and 0 <= b < 19:
            m = move(ti, li, a * 19 + b)
            ps = plays(c)
            if m in ps:
                return ps[ps.index(m)]  # the core's own int
        raise _diagnose_play(c, action, a, b, li)
    if not isinstance(kind, str) or kind not in SPECIAL_MOVES:
        raise IllegalAction("bad_action", field="type")
    m = SPECIAL_MOVES[kind]
    if m in legal(c):
        return m
    raise _diagnose_other(c, kind, plays(c))


def refusal(c: Core, action) -> IllegalAction | None:
    """Why ``action`` is refused now, or None if it is legal."""
    try:
        check(c, action)
    except IllegalAction as exc:
        return exc
    return None


def _diagnose_play(c: Core, action, a: int, b: int, li: int) -> IllegalAction:
    tab = c.tab
    seat, phase = c.turn, c.phase
    t = tile(a, b)
    if (phase == DRAWN or phase == FOLLOW_UP_DRAWN) and t != tab.tiles[c.drawn]:
        return IllegalAction("must_play_drawn", drawn=tab.tiles[c.drawn])
    tid = tab.id_of.get(t)
    if tid is None or not c.hands[seat] & tab.bit[tid]:
        return IllegalAction("not_in_hand", tile=t)
    if (phase == FOLLOW_UP or phase == FOLLOW_UP_DRAWN) and a == b:
        return IllegalAction("double_follow_up", tile=t)
    ti = _resolve_train(c, action.train)
    name = action.train
    if not 0 <= li < len(c.train_lines[ti]):
        return IllegalAction("no_branch", train=name, branch=li)
    line = c.train_lines[ti][li]
    lines, why = targets(c)
    if line not in lines:
        if why == "blocked_by_double" and not lines:  # a swan drive's next train, blocked
            lines = default_lines(c, seat)[0]
        if why in ("blocked_by_double", "must_satisfy") and lines:
            dl = lines[0] if why == "blocked_by_double" else c.dline
            dbl = LAY[c.laid[dl][-1]]
            return IllegalAction(why, double=dbl, train=tab.ref(c.line_ti[dl]))
        if why == "swan_next":
            nxt = swan_next(c)
            nxt_ref = None if nxt is None else tab.ref(tab.swan_order(seat, c.mexican_starter)[nxt])
            return IllegalAction(why, next=nxt_ref)
        return IllegalAction(why, train=name)
    end = c.ends[line]
    options = placements(t, end, tab.wild)
    if not options:
        return IllegalAction("does_not_fit", tile=(a, b), train=name, end=end)
    if (a, b) not in options:
        return IllegalAction("wrong_half", tile=(a, b), train=name, end=end)
    return IllegalAction("first_turn_own_train")


def _some_play(c: Core, ps: list[int]) -> tuple:
    m = ps[0]
    return (LAY[m & 511], c.tab.ref(m >> 15))


def _diagnose_other(c: Core, kind: str, ps: list[int]) -> IllegalAction:
    phase = c.phase
    if ps and (kind in ("draw", "mark") and phase not in (SWAN, CHAIN) or kind == "pass" and phase in (TURN, FOLLOW_UP)):
        # §5.1: a tile fits, so the turn is a play (after a draw, a pass is answered below)
        return IllegalAction("must_play", example=_some_play(c, ps), action=kind)
    if kind == "draw":
        if phase in (DRAWN, FOLLOW_UP_DRAWN):
            return IllegalAction("already_drawn")
        if phase in (SWAN, CHAIN):
            return IllegalAction("draw_not_allowed", why=f"in_{PHASES[phase]}")
        return IllegalAction("boneyard_empty")
    if kind == "skip":
        return IllegalAction("cannot_skip_now")
    if phase == CHAIN:
        why = "chain_goes_on"
    elif phase in (TURN, FOLLOW_UP) and c.bpos < len(c.bone):
        why = "draw_first"
    elif kind == "mark":
        why = "pass_instead"
    elif phase in (DRAWN, FOLLOW_UP_DRAWN) and ps:
        code = "cannot_mark_now" if kind == "mark" else "cannot_pass_now"
        return IllegalAction(code, why="drawn_playable", example=_some_play(c, ps))
    else:
        why = "marker_here"
    code = "cannot_mark_now" if kind == "mark" else "cannot_pass_now"
    return IllegalAction(code, why=why)
