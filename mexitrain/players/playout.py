"""A fast playout of the rest of a round for the expert's rollouts.

The expert values a move by playing the round out many times, the planner choosing for every
seat. Through the reducer each of those actions builds a frozen snapshot, finds its legal
actions anew and asks the planner through the action objects: some 40 µs an action. A rollout
needs none of that. It only needs the outcome, so :func:`playout` plays the same round on plain
mutable lists, private to one call: the open end of each line of each train, the markers, the
hands, the boneyard, and per pip value the number of tiles not yet on the table (which is what
"could this open double still be satisfied" asks, §6).

It is not a second rule book to be kept apart from the first: it plays *exactly* the game the
reducer plays, action for action, with the planner's rollout policy (:func:`planner_decide`
with a :class:`PlanBook`) choosing exactly as it does on snapshots. The tests play thousands of
rollouts both ways, under every preset and random options, and demand the same outcome and the
same number of actions. It covers a round under every option (branching doubles: a train is
a list of lines; the swan drive: a turn goes on over the next public trains) once the opening
is over: while a chain right is unused or a simultaneous opening under way, :func:`supports`
says no and the expert plays that round out through the reducer.

Everything here is pure: the state given is only read, and the randomness is in the draw
queues the caller passes.
"""

from __future__ import annotations

from ..rules import GameState
from ..rules.tiles import placement_table
from .planner import DEFAULT_WEIGHTS, Weights, cached_plan

Tile = tuple[int, int]

_PHASES = ("turn", "drawn", "follow_up", "follow_up_drawn", "swan")
_VALUES = 19  # pip values 0..18: the largest set is double-18


def supports(state: GameState) -> bool:
    """Can :func:`playout` play this state's round out: is the opening over?"""
    return state.phase in _PHASES and not state.opening_queue and not any(state.chain_right)


def playout(
    state: GameState,
    queues: list[list[Tile]],
    budget: int,
    max_steps: int = 5000,
    weights: list[Weights] | tuple[Weights, ...] | None = None,
) -> tuple[tuple[int, ...], int]:
    """Play the round of ``state`` out with the planner's rollout policy for every seat.

    Returns ``(scores, actions)``: the round's scores (§7) and the number of actions played
    (forced ones included, as the reducer counts them). A seat that draws takes the first tile
    of its own queue (``queues[seat]``) still in the boneyard, as the expert's rollouts do.
    ``budget`` is the planner's plan budget; ``weights`` the planner's weights of each seat
    (by default the planner level's, :data:`.planner.DEFAULT_WEIGHTS`). After ``max_steps``
    actions (never in practice) the scores are the pips left in hand.
    """
    rules = state.rules
    n = state.players
    wild = rules.blanks_wild
    must_satisfy = rules.double_follow_up == "must_satisfy"
    until_blocked = rules.round_end == "until_blocked"
    teams = rules.teams
    both_stuck = teams and rules.team_marker == "both_stuck"
    half = n // 2
    partner = [(s + half) % n if teams else s for s in range(n)]

    hands = [list(h) for h in state.hands]
    bone = set(state.boneyard)
    branching = rules.branching_doubles
    # the lines of every train, by a line number: its train, its index in the train (a
    # branch, §8 branching_doubles), the tiles laid on it, its open end, "ends in a double"
    line_train: list[int] = []
    line_index: list[int] = []
    laid: list[list[Tile]] = []
    ends: list[int] = []
    dbl: list[bool] = []
    train_lines: list[list[int]] = []
    for ti, tr in enumerate(state.trains):
        ids = []
        for li, line in enumerate(tr.lines):
            ids.append(len(laid))
            line_train.append(ti)
            line_index.append(li)
            laid.append(list(line))
            if line:
                last = line[-1]
                ends.append(last[1])
                dbl.append(last[0] == last[1])
            else:
                ends.append(tr.starts[li])
                dbl.append(False)
        train_lines.append(ids)
    marker = [tr.marker for tr in state.trains]
    # tiles not on the table (hands and boneyard) holding each value: "satisfiable" (§6)
    avail = [0] * (rules.set + 1)
    left = 0
    for group in (*hands, bone):
        for a, b in group:
            avail[a] += 1
            if a != b:
                avail[b] += 1
            left += 1
    failed = list(state.failed)
    phase = state.phase
    turn = state.turn
    drawn = state.drawn
    owed = -1  # the line owed a follow-up
    if state.double_line is not None:
        owed = train_lines[state.double_line[0]][state.double_line[1]]
    idle = state.idle_turns
    swan_drive = rules.swan_drive
    swan_pos = state.swan_pos  # §8 swan drive: where in the seat's swan order it has got to
    mex_starter = state.mexican_starter
    pointers = [0] * n
    if weights is None:
        weights = [DEFAULT_WEIGHTS] * n
    book: dict[int, tuple] = {}
    steps = 0
    out_seat = -1

    def satisfiable(v: int) -> bool:
        if wild:
            return left > 0 if v == 0 else avail[0] > 0 or avail[v] > 0
        return avail[v] > 0

    def swan_next() -> tuple[int, int]:
        """(position, train) of the next public train in the swan order of the seat to move
        (``swan_order``), or (-1, -1) at the end."""
        order = []
        if mex_starter == turn:
            order.append(n)
        for k in range(1, n):
            other = (turn + k) % n
            order.append(other)
            if mex_starter == other:
                order.append(n)
        for i in range(swan_pos + 1, len(order)):
            ti = order[i]
            if ti == n or marker[ti]:
                return i, ti
        return -1, -1

    while steps < max_steps:
        hand = hands[turn]
        nxt = -1
        # -- the legal plays, in the reducer's order: by train, line, then laid tile ------
        if phase == "turn":
            tiles = hand
        elif phase == "swan":
            tiles = hand
            nxt, nxt_train = swan_next()
        elif phase == "follow_up":
            tiles = [t for t in hand if t[0] != t[1]]
        elif phase == "drawn":
            tiles = (drawn,)
        else:  # follow_up_drawn
            tiles = () if drawn[0] == drawn[1] else (drawn,)
        if phase == "swan":
            lines = train_lines[nxt_train] if nxt >= 0 else []
            if lines and True in dbl:  # open doubles that can be satisfied block the drive (§6)
                blocking = [x for x in range(len(dbl)) if dbl[x] and satisfiable(ends[x])]
                if blocking:
                    lines = [x for x in lines if x in blocking]
        elif owed >= 0 and (must_satisfy or swan_pos is not None):
            lines = [owed]
        else:
            lines = []
            if True in dbl:  # open doubles that can be satisfied block (§6)
                lines = [
                    x for x in range(len(dbl)) if dbl[x] and x != owed and satisfiable(ends[x])
                ]
            if lines:
                if owed >= 0:
                    lines.append(owed)
            else:
                mate = partner[turn]
                for ti in range(n + 1):
                    if ti == n or marker[ti] or ti == turn or ti == mate:
                        lines += train_lines[ti]
                    elif owed >= 0 and line_train[owed] == ti:
                        lines.append(owed)
        plays: list[tuple[int, int, Tile, int]] = []  # (train, line index, laid tile, line)
        if not tiles:
            pass
        elif wild:
            for x in lines:
                table = placement_table(ends[x], True)
                ti, li = line_train[x], line_index[x]
                for t in tiles:
                    for lay in table.get(t, ()):
                        plays.append((ti, li, lay, x))
        else:
            at: dict[int, list[int]] = {}
            for x in lines:
                e = ends[x]
                if e in at:
                    at[e].append(x)
                else:
                    at[e] = [x]
            for t in tiles:
                a, b = t
                got = at.get(a)
                if got is not None:
                    for x in got:
                        plays.append((line_train[x], line_index[x], t, x))
                if a != b:
                    got = at.get(b)
                    if got is not None:
                        lay = (b, a)
                        for x in got:
                            plays.append((line_train[x], line_index[x], lay, x))
        if len(plays) > 1:
            plays.sort()
        # -- no play: draw, end the turn, or the round is stuck ---------------------------
        if not plays and phase == "swan":  # the drive ends, or goes past the Mexican Train
            if nxt >= 0 and nxt_train == n:
                swan_pos = nxt
                continue
            played = True
        elif not plays:
            if phase in ("turn", "follow_up") and bone:
                queue = queues[turn]
                i = pointers[turn]
                while queue[i] not in bone:
                    i += 1
                pointers[turn] = i + 1
                t = queue[i]
                bone.discard(t)
                hand.append(t)
                drawn = t
                phase = "follow_up_drawn" if phase == "follow_up" else "drawn"
                steps += 1
                continue
            if phase in ("turn", "follow_up") and not until_blocked:
                break  # §7: it would draw from an empty boneyard
            # mark or pass (§4, §6, §8), then the next seat
            played = phase != "turn" and phase != "drawn"
            target = turn
            mark = True
            if played and must_satisfy:
                owner = line_train[owed]
                if owner == n or marker[owner]:
                    mark = False
                else:
                    target = owner
            elif both_stuck and (played or not failed[partner[turn]]):
                mark = False
            if mark:
                marker[target] = True
                marker[partner[target]] = True
            steps += 1
        else:
            # -- the planner's choice (planner_decide with a PlanBook, quick) -------------
            if len(plays) == 1 and phase != "swan":
                pick = plays[0]
            else:
                pick, score = _choose(
                    plays, turn, hand, laid, ends, train_lines, marker, hands, partner, n,
                    wild, must_satisfy, phase, book, budget, weights[turn],
                )
                if phase == "swan" and score < 14:
                    pick = None  # not worth it: skip the Mexican Train, or end the drive
            steps += 1
            if pick is None:
                if nxt_train == n:
                    swan_pos = nxt
                    continue
                played = True
            else:
                # -- play it --------------------------------------------------------------
                ti, _, lay, x = pick
                a, b = lay
                t = lay if a <= b else (b, a)
                hand.remove(t)
                avail[a] -= 1
                if a != b:
                    avail[b] -= 1
                left -= 1
                if branching and dbl[x]:  # it satisfies a double: two branches grow from it
                    v = ends[x]
                    ids = train_lines[ti]
                    for _ in range(2):
                        ids.append(len(laid))
                        line_train.append(ti)
                        line_index.append(len(ids) - 1)
                        laid.append([])
                        ends.append(v)
                        dbl.append(False)
                laid[x].append(lay)
                ends[x] = b
                dbl[x] = a == b
                if ti < n and (ti == turn or ti == partner[turn]):
                    marker[ti] = False
                    marker[turn] = False
                    marker[partner[turn]] = False
                if ti == n and mex_starter is None:
                    mex_starter = turn
                failed[turn] = False
                if not hand:
                    out_seat = turn
                    break
                swan_context = phase == "swan" or swan_pos is not None
                if phase == "swan":
                    swan_pos = nxt
                if a == b:
                    phase = "follow_up"
                    owed = x
                    continue
                if swan_drive and (swan_context or ti == turn):  # the drive goes on (§8)
                    phase = "swan"
                    owed = -1
                    if not swan_context:
                        swan_pos = -1
                    continue
                played = True
        # -- the next seat's turn (_end_turn) ---------------------------------------------
        if until_blocked:
            idle = 0 if played or bone else idle + 1
            if idle >= n:
                break
        failed[turn] = not played
        turn = (turn + 1) % n
        phase = "turn"
        drawn = None
        owed = -1
        swan_pos = None
    scores = [sum(a + b for a, b in h) for h in hands]
    if out_seat >= 0:
        scores[out_seat] = 0
        scores[partner[out_seat]] = 0
    return tuple(scores), steps


def _choose(
    plays, seat, hand, laid, ends, train_lines, marker, hands, partner, n, wild, must_satisfy,
    phase, book, budget, w,
):
    """The planner's rollout choice among ``plays`` (``score_plays`` with ``quick`` and no
    reasons): the first of the best scores, in the order of the plays. The same scores as
    :func:`.planner.score_plays`, term for term and in the same order (so that equal floats
    tie alike), from counts per value where the planner scans the hand."""
    # the plan of the seat's own train, kept from one decision to the next (PlanBook.get)
    own_lines = train_lines[seat]
    entry = book.get(seat)
    plan = index = None
    if entry is not None:
        plan_line, laid_count, plan, hand_size, index = entry
        own = laid[own_lines[plan_line]]
        k = len(own) - laid_count
        if tuple(own[laid_count:]) == plan[:k] and (plan or len(hand) <= hand_size):
            if k:
                plan = plan[k:]
                index = {t: i - k for t, i in index.items() if i >= k}
            if len(index) == len(plan) and set(index).issubset(hand):
                book[seat] = (plan_line, len(own), plan, len(hand), index)
            else:
                plan = None
        else:
            plan = None
    if plan is None:  # the best plan over the lines of its own train (best_own_plan)
        key = tuple(hand)
        plan, plan_line, best = (), 0, (0, 0)
        for li, x in enumerate(own_lines):
            p = cached_plan(key, ends[x], wild, budget, False)
            here = (len(p), sum(a + b for a, b in p))
            if here > best:
                plan, plan_line, best = p, li, here
        index = {(x, y) if x <= y else (y, x): i for i, (x, y) in enumerate(plan)}
        book[seat] = (plan_line, len(laid[own_lines[plan_line]]), plan, len(hand), index)

    mate = partner[seat]
    own_marked = marker[seat] or marker[mate]
    danger = any(len(hands[i]) <= 2 for i in range(n) if i != seat and i != mate)
    pip_weight = w[1] if danger else w[0]  # Weights: pips_danger, pips
    after_double = phase == "follow_up" or phase == "follow_up_drawn"
    plan_len = len(plan)
    first = plan[0] if plan else None
    if not wild:
        # per value: the hand's tiles holding it, its non-doubles, its tiles off the plan
        cnt = [0] * _VALUES
        nondouble = [0] * _VALUES
        extra = [0] * _VALUES
        for u in hand:
            a, b = u
            cnt[a] += 1
            if a != b:
                cnt[b] += 1
                nondouble[a] += 1
                nondouble[b] += 1
            if u not in index:
                extra[a] += 1
                if a != b:
                    extra[b] += 1
    best = None
    best_score = 0.0
    for play in plays:
        ti, li, lay, _ = play
        x, y = lay
        t = lay if x <= y else (y, x)
        idx = index.get(t)
        score = (x + y) * pip_weight
        if ti == seat:
            if li == plan_line and plan and lay == first:
                score += 20
            elif idx is None and li != plan_line:
                score += 16
            else:
                if wild:
                    table = placement_table(y, True)
                    after = 0
                    for u in hand:
                        if u != t and u in table:
                            after = 1
                            break
                else:  # t holds y itself
                    after = 1 if cnt[y] > 1 else 0
                loss = plan_len - 1 - after
                score += 20 - 5 * max(loss, 0) + min(after, 3)
            if own_marked:
                score += 8
        elif ti == mate:
            score += 12 if own_marked else 4
        else:
            if idx is None:
                score += w[2]  # shed
            elif idx == plan_len - 1:
                score += w[3]  # shed_last
            else:
                score += 22 - 5 * (plan_len - idx - 1)
            if wild:
                follow = placement_table(y, True)
                mine = 0
                for u in hand:
                    if u != t and u in follow and u not in index:
                        mine += 1
                        if mine == 2:
                            break
            else:
                mine = extra[y] - (1 if idx is None else 0)
                if mine > 2:
                    mine = 2
            score += mine
        if x == y and not after_double:
            if wild:
                table = placement_table(y, True)
                satisfy = False
                for u in hand:
                    if u != t and u[0] != u[1] and u in table:
                        satisfy = True
                        break
            else:
                satisfy = nondouble[y] > 0
            elsewhere = (
                not must_satisfy
                and plan
                and not (ti == seat and li == plan_line)
                and first[0] != first[1]
            )
            if satisfy or elsewhere:
                score += 10
            elif must_satisfy and (ti == n or marker[ti]) and ti != seat and ti != mate:
                score += 3
            else:
                score -= 14
        if best is None or score > best_score:
            best, best_score = play, score
    return best, best_score
