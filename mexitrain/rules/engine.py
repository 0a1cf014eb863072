"""The reducer: ``new_game``, ``legal_actions`` and ``apply`` (RULES.md §2-§8).

Everything here is a pure function of its arguments: the deal's randomness comes from the
game's seed through a private ``random.Random``, never from the global generator.

Inside the engine a train is named by its index in ``GameState.trains`` (seats ``0..n-1``,
then the Mexican Train at ``n``); actions name it by seat or ``"mexican"``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .actions import DRAW, MARK, MEXICAN, PASS, SKIP, Action, Draw, Mark, Pass, Play, Skip
from .errors import IllegalAction
from .ruleset import RuleSet
from .state import Event, GameState, RoundResult, Train, construct, evolve
from .tiles import full_set, is_double, pips, placement_table

# A candidate play inside the engine: (laid tile, train index, line).
_Cand = tuple[tuple[int, int], int, int]


# Events are immutable values: one shared object per distinct event. Keyed by value and by
# the train's type: ``True == 1`` and they hash alike, so a key by value alone would hand a
# later play on train 1 an event naming train ``True`` (and its record would not replay).
_EVENTS: dict[tuple, Event] = {}


def _event(seat: int, kind: str, tile=None, train=None, branch: int = 0) -> Event:
    key = (seat, kind, tile, train, train.__class__, branch)
    event = _EVENTS.get(key)
    if event is None:
        event = construct(
            Event, {"seat": seat, "type": kind, "tile": tile, "train": train, "branch": branch}
        )
        _EVENTS[key] = event
    return event


# ---------------------------------------------------------------------------------------
# Dealing (RULES.md §2, §3)
# ---------------------------------------------------------------------------------------
def _round_rng(seed: int, number: int) -> random.Random:
    return random.Random(f"mexitrain:{seed}:round:{number}")


def _heaviest_key(t: tuple[int, int]) -> tuple[int, bool, int]:
    return (pips(t), t[0] == t[1], t[1])


def deal(rules: RuleSet, players: int, seed: int, number: int):
    """The deal of round ``number``: ``(engine or None, hands, boneyard)``.

    With descending engines the engine double is removed before shuffling (§2); with
    ``engine=highest_double`` the whole set is dealt and the engine is found afterwards.
    """
    each = rules.tiles_each(players)
    tiles = list(full_set(rules.set))
    engine = None
    if rules.engine == "descending":
        engine = rules.set - (number - 1)
        tiles.remove((engine, engine))
    _round_rng(seed, number).shuffle(tiles)
    hands = tuple(tuple(tiles[i * each : (i + 1) * each]) for i in range(players))
    return engine, hands, tuple(tiles[players * each :])


def _first_seat(rules: RuleSet, players: int, seed: int, hands) -> int:
    if rules.first_player == "chosen":
        return rules.first_seat
    if rules.first_player == "heaviest":
        best = max((t for h in hands for t in h), key=_heaviest_key)
        return next(i for i, h in enumerate(hands) if best in h)
    return random.Random(f"mexitrain:{seed}:first").randrange(players)


def _start_round(rules: RuleSet, players: int, seed: int, starter: int | None, number: int) -> dict:
    engine, hands, boneyard = deal(rules, players, seed, number)
    if starter is None:
        starter = _first_seat(rules, players, seed, hands)
    first = (starter + number - 1) % players
    dealt_hands, dealt_boneyard = hands, boneyard
    engine_seat = None
    if engine is None:  # engine = highest_double (§3)
        held = [(t[0], i) for i, h in enumerate(hands) for t in h if t[0] == t[1]]
        hands_l = [list(h) for h in hands]
        bone = list(boneyard)
        seat = first
        while not held:  # house default: seats draw in turn until a double appears
            t = bone.pop(0)
            hands_l[seat].append(t)
            if t[0] == t[1]:
                held.append((t[0], seat))
            seat = (seat + 1) % players
        engine, engine_seat = max(held)
        hands_l[engine_seat].remove((engine, engine))
        hands = tuple(tuple(h) for h in hands_l)
        boneyard = tuple(bone)
        first = (engine_seat + 1) % players
    public = rules.trains_start_public
    trains = tuple(
        construct(Train, {"owner": i, "lines": ((),), "starts": (engine,), "marker": public})
        for i in range(players)
    ) + (construct(Train, {"owner": None, "lines": ((),), "starts": (engine,), "marker": False}),)
    chain = rules.opening in ("first_turn_chain", "delayed_first_turn")
    fields = dict(
        starter=starter,
        round=number,
        engine=engine,
        engine_seat=engine_seat,
        first_seat=first,
        turn=first,
        phase="turn",
        hands=hands,
        boneyard=boneyard,
        trains=trains,
        mexican_starter=None,
        double_line=None,
        drawn=None,
        swan_pos=None,
        chain_right=(chain,) * players,
        opening_queue=(),
        failed=(False,) * players,
        idle_turns=0,
        dealt_hands=dealt_hands,
        dealt_boneyard=dealt_boneyard,
        events=(),
    )
    if rules.opening == "simultaneous":
        order = tuple((first + k) % players for k in range(players))
        fields.update(phase="chain", turn=order[0], opening_queue=order[1:])
    return fields


def new_game(rules: RuleSet | None = None, players: int = 4, seed: int = 0) -> GameState:
    """The snapshot at the start of round 1. Refuses impossible tables (RuleSetError)."""
    rules = rules or RuleSet()
    rules.check_players(players)
    fields = _start_round(rules, players, seed, None, 1)
    state = GameState(rules=rules, seed=seed, players=players, **fields)
    return _settle(state)


# ---------------------------------------------------------------------------------------
# What may be played
# ---------------------------------------------------------------------------------------
def _team(state: GameState, seat: int) -> tuple[int, ...]:
    if state.rules.teams:
        return (seat, (seat + state.players // 2) % state.players)
    return (seat,)


def _satisfiable(state: GameState, value: int) -> bool:
    """Could any tile still in a hand or the boneyard satisfy a double of ``value``? (§6)"""
    wild = state.rules.blanks_wild
    for group in (*state.hands, state.boneyard):
        for t in group:
            if wild and (value == 0 or t[0] == 0):
                return True
            if t[0] == value or t[1] == value:
                return True
    return False


def _default_lines(
    state: GameState, seat: int, exclude: tuple[int, int] | None = None
) -> tuple[list[tuple[int, int]], bool]:
    """``(lines, blocked)``: the open doubles that block (§6) if any, else every line of the
    trains ``seat`` may play on (its own or its team's, public ones, the Mexican Train), in
    order. One pass over the trains: this runs for nearly every decision of every game."""
    lines: list[tuple[int, int]] = []
    blocking: list[tuple[int, int]] | None = None
    partner = (seat + state.players // 2) % state.players if state.rules.teams else seat
    ti = -1
    for train in state.trains:
        ti += 1
        tl = train.lines
        owner = train.owner
        allowed = owner is None or train.marker or owner == seat or owner == partner
        li = -1
        for line in tl:
            li += 1
            if line:
                last = line[-1]
                if last[0] == last[1]:
                    here = (ti, li)
                    if here != exclude and _satisfiable(state, last[1]):
                        if blocking is None:
                            blocking = []
                        blocking.append(here)
            if allowed:
                lines.append((ti, li))
    if blocking is not None:
        return blocking, True
    return lines, False


def _lines(state: GameState, trains: Iterable[int]) -> list[tuple[int, int]]:
    return [(ti, li) for ti in trains for li in range(len(state.trains[ti].lines))]


def swan_order(state: GameState, seat: int) -> list[int]:
    """Train indices in clockwise order after ``seat``'s own (§8 swan_drive).

    The Mexican Train sits just after the seat of the player who started it; before it is
    started it is not in the order.
    """
    n = state.players
    order: list[int] = []
    if state.mexican_starter == seat:
        order.append(n)
    for k in range(1, n):
        s = (seat + k) % n
        order.append(s)
        if state.mexican_starter == s:
            order.append(n)
    return order


def _chain_lines(state: GameState) -> list[tuple[int, int]]:
    """The line an opening chain may go on (§8): the one its last tile went on, so that with
    ``branching_doubles`` the chain follows one line and the branches wait for normal turns;
    before its first tile, the lines of the seat's own train."""
    seat = state.turn
    if state.events:
        last = state.events[-1]
        if last.type == "play" and last.seat == seat and last.train == seat:
            return [(seat, last.branch)]
    return _lines(state, (seat,))


def _swan_next(state: GameState) -> int | None:
    """Position in the swan order of the next public train, or None at the end."""
    order = swan_order(state, state.turn)
    pos = -1 if state.swan_pos is None else state.swan_pos
    for i in range(pos + 1, len(order)):
        if state.trains[order[i]].public:
            return i
    return None


def _targets(state: GameState) -> tuple[list[tuple[int, int]], str | None]:
    """The lines the current seat may play on now, and why it is restricted (a reason code)."""
    seat, phase = state.turn, state.phase
    if phase == "chain":
        return _chain_lines(state), "chain_own_train"
    if phase == "swan":
        nxt = _swan_next(state)
        if nxt is None:
            return [], "swan_next"
        lines = _lines(state, (swan_order(state, seat)[nxt],))
        blocking, blocked = _default_lines(state, seat)
        if blocked:  # §6: an open double (left by a chain opening) blocks the drive too
            return [line for line in lines if line in blocking], "blocked_by_double"
        return lines, "swan_next"
    if phase in ("follow_up", "follow_up_drawn"):
        owed = state.double_line
        if state.rules.double_follow_up == "must_satisfy" or state.swan_pos is not None:
            return [owed], "must_satisfy"
        lines, blocked = _default_lines(state, seat, exclude=owed)
        if blocked:
            return lines + [owed], "blocked_by_double"
        if owed not in lines:
            lines.append(owed)
            lines.sort()
        return lines, "private_train"
    lines, blocked = _default_lines(state, seat)
    return lines, ("blocked_by_double" if blocked else "private_train")


def _tiles(state: GameState) -> tuple[tuple[int, int], ...]:
    phase = state.phase
    if phase == "drawn":
        return (state.drawn,)
    if phase == "follow_up_drawn":
        return () if is_double(state.drawn) else (state.drawn,)
    hand = state.hands[state.turn]
    if phase == "follow_up":
        return tuple(t for t in hand if t[0] != t[1])
    return hand


# Per open line: tile -> its candidate plays, each ``(cand, Play action)``, in laid order.
# Keyed by (open end, blanks wild, train index, line, players); filled on first use.
_LINE_PLAYS: dict[tuple, dict[tuple[int, int], tuple[tuple[_Cand, Play], ...]]] = {}

# Play actions are immutable values: one shared object per (laid tile, train index, line) and
# player count (the Mexican Train's index is the player count).
_PLAY_ACTIONS: dict[tuple, Play] = {}


# The candidate of each shared Play action, by identity (the actions live for good in
# _PLAY_ACTIONS, so their ids are never reused): apply() skips decoding them.
_CAND_OF: dict[int, tuple[Play, int, _Cand]] = {}


def _play_action(cand: _Cand, n: int) -> Play:
    key = (cand, n)
    action = _PLAY_ACTIONS.get(key)
    if action is None:
        lay, ti, li = cand
        ref = MEXICAN if ti == n else ti
        action = construct(Play, {"type": "play", "tile": lay, "train": ref, "branch": li})
        _PLAY_ACTIONS[key] = action
        _CAND_OF[id(action)] = (action, n, cand)
    return action


def _line_plays(end: int, wild: bool, ti: int, li: int, n: int) -> dict:
    key = (end, wild, ti, li, n)
    table = _LINE_PLAYS.get(key)
    if table is None:
        table = {}
        for t, lays in placement_table(end, wild).items():
            table[t] = tuple(
                ((lay, ti, li), _play_action((lay, ti, li), n)) for lay in sorted(lays)
            )
        _LINE_PLAYS[key] = table
    return table


def _candidates(state: GameState, tiles, lines, ordered: bool = False) -> dict[_Cand, Play]:
    """The plays of ``tiles`` on ``lines``: candidate -> its Play action, ordered by
    (train index, line, laid tile). ``ordered``: ``lines`` are sorted already."""
    wild = state.rules.blanks_wild
    trains = state.trains
    n = state.players
    out: dict[_Cand, Play] = {}
    if not ordered and len(lines) > 1:
        lines = sorted(lines)
    get = _LINE_PLAYS.get
    for ti, li in lines:
        train = trains[ti]
        laid = train.lines[li]
        end = laid[-1][1] if laid else train.starts[li]
        table = get((end, wild, ti, li, n))
        _add_plays(out, tiles, table if table is not None else _line_plays(end, wild, ti, li, n))
    return out


def _add_plays(out: dict[_Cand, Play], tiles, table: dict) -> None:
    """Add to ``out`` the plays of ``tiles`` on one line (its ``_line_plays`` table), in
    laid order."""
    hits = [table[t] for t in tiles if t in table]
    if not hits:
        return
    if len(hits) == 1:
        for cand, action in hits[0]:
            out[cand] = action
    else:
        for cand, action in sorted([e for h in hits for e in h]):
            out[cand] = action


# The last state whose plays were computed, and those plays: ``legal_actions(s)`` followed by
# ``apply(s, a)`` computes them once. An identity check, so it is safe under threads.
_LAST_PLAYS: tuple[object, dict[_Cand, Play]] = (None, {})


def _plays(state: GameState) -> dict[_Cand, Play]:
    """Every legal play for the seat to move (RULES.md §5, §6, §8): candidate -> action."""
    global _LAST_PLAYS
    cached = _LAST_PLAYS
    if cached[0] is state:
        return cached[1]
    plays = _compute_plays(state)
    _LAST_PLAYS = (state, plays)
    return plays


def _turn_plays(state: GameState, seat: int, tiles) -> dict[_Cand, Play] | None:
    """The plays of ``tiles`` on every line ``seat`` may play on, in one pass over the
    trains; None if an open double blocks (§6), which the general path then handles."""
    rules = state.rules
    wild = rules.blanks_wild
    n = state.players
    partner = (seat + n // 2) % n if rules.teams else seat
    get = _LINE_PLAYS.get
    out: dict[_Cand, Play] = {}
    ti = -1
    for train in state.trains:
        ti += 1
        owner = train.owner
        allowed = owner is None or train.marker or owner == seat or owner == partner
        li = -1
        starts = train.starts
        for line in train.lines:
            li += 1
            if line:
                last = line[-1]
                end = last[1]
                if last[0] == end and _satisfiable(state, end):
                    return None
            else:
                end = starts[li]
            if not allowed:
                continue
            table = get((end, wild, ti, li, n))
            _add_plays(out, tiles, table if table is not None else _line_plays(end, wild, ti, li, n))
    return out


def _compute_plays(state: GameState) -> dict[_Cand, Play]:
    phase = state.phase
    if phase == "turn":  # the common case first: every tile in hand, the default lines
        seat = state.turn
        cands = _turn_plays(state, seat, state.hands[seat])
        if cands is None:
            lines, blocked = _default_lines(state, seat)
            cands = _candidates(state, state.hands[seat], lines, not blocked)
        if state.rules.opening == "first_turn_chain" and state.chain_right[seat]:
            own = {c: a for c, a in cands.items() if c[1] == seat}
            if own:
                return own
        return cands
    if phase == "game_over":
        return {}
    lines, why = _targets(state)
    cands = _candidates(state, _tiles(state), lines, why == "private_train")
    seat = state.turn
    if (
        state.phase == "turn"
        and state.rules.opening == "first_turn_chain"
        and state.chain_right[seat]
    ):
        own = {c: a for c, a in cands.items() if c[1] == seat}
        if own:
            return own
    return cands


def _can_start_own(state: GameState, t: tuple[int, int]) -> bool:
    seat = state.turn
    train = state.trains[seat]
    table = placement_table(train.end(0), state.rules.blanks_wild)
    # a drawn tile "can start" the train only if the train may be played on now (an open
    # double elsewhere blocks it, §6): otherwise passing would dodge the marker
    return t in table and not train.started and (seat, 0) in _targets(state)[0]


def _passes_by_choice(state: GameState) -> bool:
    """§8 delayed_first_turn: the drawn tile could start the seat's train, and it may pass
    instead (the one pass allowed while a drawn tile fits, §5)."""
    return (
        state.phase == "drawn"
        and state.rules.opening == "delayed_first_turn"
        and state.chain_right[state.turn]
        and _can_start_own(state, state.drawn)
    )


def _end_without_play(state: GameState) -> Action:
    """Mark or Pass: what ending the turn without a (further) play does now."""
    rules, seat = state.rules, state.turn
    if _passes_by_choice(state):
        return PASS  # §8: passing by choice places no marker
    if state.phase in ("follow_up", "follow_up_drawn") and rules.double_follow_up == "must_satisfy":
        ti = state.double_line[0]
        train = state.trains[ti]
        if train.owner is None or train.marker:
            return PASS  # §6: a double on a public train marks nothing
        return MARK
    if rules.teams and rules.team_marker == "both_stuck":
        partner = _team(state, seat)[1]
        if state.phase in ("follow_up", "follow_up_drawn") or not state.failed[partner]:
            # §8 both_stuck: public only when both partners failed; a turn that laid a
            # double and failed its follow-up is a turn with a play (RULES.md §10)
            return PASS
    return MARK


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the seat to move may take now, in a stable order."""
    if state.phase == "game_over":
        return ()
    plays = _plays(state)
    phase = state.phase
    if plays and phase == "turn":
        return tuple(plays.values())
    n = state.players
    out: list[Action] = list(plays.values())
    if phase == "swan":
        nxt = _swan_next(state)
        if nxt is not None and swan_order(state, state.turn)[nxt] == n:
            out.append(SKIP)
        out.append(PASS)
    elif phase in ("drawn", "follow_up_drawn"):
        if not plays:
            out.append(_end_without_play(state))
        elif _passes_by_choice(state):
            out.append(PASS)
    elif not plays and phase in ("turn", "follow_up"):
        if state.boneyard:
            out.append(DRAW)
        elif state.rules.round_end == "until_blocked":
            out.append(_end_without_play(state))
    return tuple(out)


# ---------------------------------------------------------------------------------------
# The reducer
# ---------------------------------------------------------------------------------------
def _ref(state: GameState, ti: int):
    """A train index as actions and reasons name it: the owner's seat or ``"mexican"``."""
    return MEXICAN if ti == state.players else ti


def _resolve_train(state: GameState, ref) -> int:
    if ref == MEXICAN:
        return state.players
    if isinstance(ref, int) and 0 <= ref < state.players:
        return ref
    raise IllegalAction("no_train", ref=ref)


def _diagnose_play(state: GameState, action: Play) -> IllegalAction:
    """Why ``action`` is not legal now (only called once it is known not to be)."""
    seat, phase = state.turn, state.phase
    a, b = action.tile
    t = (a, b) if a <= b else (b, a)
    if phase in ("drawn", "follow_up_drawn") and t != state.drawn:
        return IllegalAction("must_play_drawn", drawn=state.drawn)
    if t not in state.hands[seat]:
        return IllegalAction("not_in_hand", tile=t)
    if phase in ("follow_up", "follow_up_drawn") and a == b:
        return IllegalAction("double_follow_up", tile=t)
    ti = _resolve_train(state, action.train)
    train = state.trains[ti]
    name = action.train
    if action.branch >= len(train.lines):
        return IllegalAction("no_branch", train=name, branch=action.branch)
    lines, why = _targets(state)
    if (ti, action.branch) not in lines:
        if why == "blocked_by_double" and not lines:  # a swan drive's next train, blocked
            lines = _default_lines(state, seat)[0]
        if why in ("blocked_by_double", "must_satisfy") and lines:
            dti, dli = lines[0] if why == "blocked_by_double" else state.double_line
            dbl = state.trains[dti].lines[dli][-1]
            return IllegalAction(why, double=dbl, train=_ref(state, dti))
        if why == "swan_next":
            nxt = _swan_next(state)
            nxt_ref = None if nxt is None else _ref(state, swan_order(state, seat)[nxt])
            return IllegalAction(why, next=nxt_ref)
        return IllegalAction(why, train=name)
    end = train.end(action.branch)
    options = placement_table(end, state.rules.blanks_wild).get(t, ())
    if not options:
        return IllegalAction("does_not_fit", tile=(a, b), train=name, end=end)
    if (a, b) not in options:
        return IllegalAction("wrong_half", tile=(a, b), train=name, end=end)
    return IllegalAction("first_turn_own_train")


def _some_play(state: GameState, plays: dict[_Cand, Play]) -> tuple:
    lay, ti, _ = next(iter(plays))
    return (lay, _ref(state, ti))


def _diagnose_other(state: GameState, action: Action, plays: dict[_Cand, Play]) -> IllegalAction:
    phase = state.phase
    kind = action.type
    if plays and kind in ("draw", "mark") and phase not in ("swan", "chain"):
        return IllegalAction("must_play", example=_some_play(state, plays))
    if kind == "draw":
        if phase in ("drawn", "follow_up_drawn"):
            return IllegalAction("already_drawn")
        if phase in ("swan", "chain"):
            return IllegalAction("draw_not_allowed", why=f"in_{phase}")
        return IllegalAction("boneyard_empty")
    if kind == "skip":
        return IllegalAction("cannot_skip_now")
    if phase == "chain":
        why = "chain_goes_on"
    elif phase in ("turn", "follow_up") and state.boneyard:
        why = "draw_first"
    elif kind == "mark":
        why = "pass_instead"
    elif phase in ("drawn", "follow_up_drawn") and plays:
        code = "cannot_mark_now" if kind == "mark" else "cannot_pass_now"
        return IllegalAction(code, why="drawn_playable", example=_some_play(state, plays))
    else:
        why = "marker_here"
    code = "cannot_mark_now" if kind == "mark" else "cannot_pass_now"
    return IllegalAction(code, why=why)


_OTHER_ACTIONS = (Draw, Mark, Pass, Skip)


def apply(state: GameState, action: Action) -> GameState:
    """The snapshot after ``action``; raises :class:`IllegalAction` (state untouched) if illegal."""
    if state.phase == "game_over":
        raise IllegalAction("game_over")
    shared = _CAND_OF.get(id(action))
    if shared is not None and shared[0] is action and shared[1] == state.players:
        cand = shared[2]
        if cand not in _plays(state):
            raise _diagnose_play(state, action)
        return _settle(_play(state, cand))
    cls = action.__class__
    if cls is Play or (cls not in _OTHER_ACTIONS and isinstance(action, Play)):
        a, b = action.tile
        ti = _resolve_train(state, action.train)
        shared = _plays(state).get(((a, b), ti, action.branch))
        if shared is None:
            raise _diagnose_play(state, action)
        # the engine's own candidate, never the action's values: a train ``True`` or a half
        # ``1.0`` equals 1 but must not reach the trains, the events or the caches
        return _settle(_play(state, _CAND_OF[id(shared)][2]))
    if cls not in _OTHER_ACTIONS and not isinstance(action, _OTHER_ACTIONS):
        raise TypeError(f"not an action: {action!r}")
    kind = action.type
    for x in legal_actions(state):
        if x.type == kind:
            break
    else:
        raise _diagnose_other(state, action, _plays(state))
    seat = state.turn
    if kind == "draw":
        t = state.boneyard[0]
        hands = _replace(state.hands, seat, state.hands[seat] + (t,))
        phase = "follow_up_drawn" if state.phase == "follow_up" else "drawn"
        new = evolve(
            state,
            {
                "hands": hands,
                "boneyard": state.boneyard[1:],
                "drawn": t,
                "phase": phase,
                "events": state.events + (_event(seat, "draw", t),),
            },
        )
        return _settle(new)
    if kind == "skip":
        nxt = _swan_next(state)
        new = evolve(state, {"swan_pos": nxt, "events": state.events + (_event(seat, "skip"),)})
        return _settle(new)
    played = state.phase in ("follow_up", "follow_up_drawn", "swan")
    update = {"events": state.events + (_event(seat, kind),)}
    if kind == "mark":
        trains = _marked_trains(state, seat)
        if trains is not None:
            update["trains"] = trains
    return _settle(_end_turn(state, played, update))


def _replace(seq: tuple, i: int, value) -> tuple:
    return seq[:i] + (value,) + seq[i + 1 :]


def _marked_trains(state: GameState, seat: int) -> tuple[Train, ...] | None:
    """The trains once the marker goes on the seat's own train (team: both), or on the
    double's train (§6); None if they all carry it already."""
    target = seat
    if (
        state.phase in ("follow_up", "follow_up_drawn")
        and state.rules.double_follow_up == "must_satisfy"
    ):
        target = state.trains[state.double_line[0]].owner
    trains = None
    for s in _team(state, target):
        if not state.trains[s].marker:
            if trains is None:
                trains = list(state.trains)
            trains[s] = evolve(trains[s], {"marker": True})
    return None if trains is None else tuple(trains)


def _play(state: GameState, cand: _Cand) -> GameState:
    lay, ti, li = cand
    seat, rules = state.turn, state.rules
    t = lay if lay[0] <= lay[1] else (lay[1], lay[0])
    hand = list(state.hands[seat])
    hand.remove(t)
    hand_t = tuple(hand)
    train = state.trains[ti]
    lines = train.lines
    line = lines[li]
    if len(lines) == 1:
        new_lines = (line + (lay,),)
    else:
        new_lines = lines[:li] + (line + (lay,),) + lines[li + 1 :]
    starts = train.starts
    if rules.branching_doubles and line and line[-1][0] == line[-1][1]:
        v = line[-1][1]  # this play satisfies a double: two more branches grow from it
        new_lines += ((), ())
        starts += (v, v)
    trains = list(state.trains)
    owner = train.owner
    n = state.players
    if owner is None or not (owner == seat or rules.teams and owner in _team(state, seat)):
        trains[ti] = construct(
            Train, {"owner": owner, "lines": new_lines, "starts": starts, "marker": train.marker}
        )
    else:  # the owner (or a partner) removes the marker by playing here
        trains[ti] = construct(
            Train, {"owner": owner, "lines": new_lines, "starts": starts, "marker": False}
        )
        for s in _team(state, seat):
            if s != ti and trains[s].marker:
                trains[s] = evolve(trains[s], {"marker": False})
    failed = state.failed
    update = {
        "hands": _replace(state.hands, seat, hand_t),
        "trains": tuple(trains),
        "failed": _replace(failed, seat, False) if failed[seat] else failed,
        "events": state.events + (_event(seat, "play", lay, MEXICAN if ti == n else ti, li),),
        "drawn": None,
    }
    if ti == n and state.mexican_starter is None:
        update["mexican_starter"] = seat
    phase = state.phase
    if not hand_t:  # domino: the round ends at once, even on a double (§6, §7)
        if phase == "chain" and rules.opening == "simultaneous":
            return evolve(state, update)  # §8: every seat lays its chain first (_settle)
        return _end_round(evolve(state, update), "domino", seat)
    chain_start = (
        ti == seat
        and state.chain_right[seat]
        and (
            (phase == "turn" and rules.opening == "first_turn_chain")
            or (phase in ("turn", "drawn") and rules.opening == "delayed_first_turn")
        )
    )
    if chain_start:
        update["chain_right"] = _replace(state.chain_right, seat, False)
        update["phase"] = "chain"
        return evolve(state, update)
    if phase == "chain":
        return evolve(state, update)  # the chain goes on while a tile fits
    if phase == "swan":
        update["swan_pos"] = _swan_next(state)
    if lay[0] == lay[1]:
        update["phase"] = "follow_up"
        update["double_line"] = (ti, li)
        return evolve(state, update)
    if rules.swan_drive:
        swan_context = phase == "swan" or state.swan_pos is not None
        if swan_context or ti == seat:
            update["phase"] = "swan"
            update["double_line"] = None
            if not swan_context:
                update["swan_pos"] = -1
            return evolve(state, update)
    return _end_turn(state, True, update)


def _end_turn(state: GameState, played: bool, update: dict | None = None) -> GameState:
    """The next seat's turn; ``update`` holds what this turn changed besides (not the turn,
    the boneyard, the chain rights or ``failed``)."""
    seat, rules, n = state.turn, state.rules, state.players
    update = {} if update is None else update
    idle = state.idle_turns
    if rules.round_end == "until_blocked":
        idle = 0 if played or state.boneyard else idle + 1
        if idle >= n:
            return _end_round(evolve(state, update) if update else state, "blocked", None)
    failed = state.failed
    update["turn"] = (seat + 1) % n
    update["phase"] = "turn"
    update["drawn"] = None
    update["double_line"] = None
    update["swan_pos"] = None
    update["idle_turns"] = idle
    if failed[seat] == played:
        update["failed"] = _replace(failed, seat, not played)
    if rules.opening == "first_turn_chain" and state.chain_right[seat]:
        update["chain_right"] = _replace(state.chain_right, seat, False)
    return evolve(state, update)


def _settle(state: GameState) -> GameState:
    """Carry out what the rules force without a choice (chain ends, stuck rounds, swan ends)."""
    while True:
        phase = state.phase
        if phase == "game_over":
            return state
        if phase == "chain":
            if _candidates(state, state.hands[state.turn], _chain_lines(state)):
                return state
            if state.rules.opening == "simultaneous":
                if state.opening_queue:
                    state = evolve(
                        state,
                        dict(turn=state.opening_queue[0], opening_queue=state.opening_queue[1:]),
                    )
                else:
                    # §8: once every seat has laid its chain, a seat with no tile left ends
                    # the round; the record names the first of them in the opening order
                    n = state.players
                    for k in range(n):
                        out = (state.first_seat + k) % n
                        if not state.hands[out]:
                            return _end_round(state, "domino", out)
                    state = evolve(state, dict(turn=state.first_seat, phase="turn"))
            else:
                state = _end_turn(state, True)
            continue
        if phase == "swan":
            nxt = _swan_next(state)
            if nxt is None:
                state = _end_turn(state, True)
                continue
            if _plays(state):
                return state
            if swan_order(state, state.turn)[nxt] == state.players:  # nothing fits: skip it
                state = evolve(state, dict(swan_pos=nxt))
                continue
            state = _end_turn(state, True)
            continue
        if phase in ("turn", "follow_up"):
            if (
                not state.boneyard
                and state.rules.round_end == "boneyard_empty"
                and not _plays(state)
            ):
                return _end_round(state, "stuck", None)  # §7: would draw from an empty boneyard
        return state


def _end_round(state: GameState, end: str, out_seat: int | None) -> GameState:
    """Score the round (§7), then deal the next one or end the game."""
    n = state.players
    scores = [sum(t[0] + t[1] for t in h) for h in state.hands]
    if out_seat is not None:  # the seat out, and any other with no tile left (§8 simultaneous)
        for out in range(n):
            if out == out_seat or not state.hands[out]:
                for s in _team(state, out):
                    scores[s] = 0
    result = construct(
        RoundResult,
        {
            "number": state.round,
            "engine": state.engine,
            "engine_seat": state.engine_seat,
            "first_seat": state.first_seat,
            "hands": state.dealt_hands,
            "boneyard": state.dealt_boneyard,
            "events": state.events,
            "end": end,
            "out_seat": out_seat,
            "leftovers": state.hands,
            "scores": tuple(scores),
        },
    )
    results = state.results + (result,)
    if len(results) >= state.rules.round_count:
        from .scoring import winners

        done = evolve(state, dict(results=results, phase="game_over", drawn=None))
        return evolve(done, dict(winners=winners(done)))
    fields = _start_round(state.rules, n, state.seed, state.starter, state.round + 1)
    return _settle(evolve(state, dict(results=results, **fields)))
