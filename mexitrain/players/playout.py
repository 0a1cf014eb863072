"""A fast playout of the rest of a round for the expert's rollouts.

The expert values a move by playing the round out many times, the planner choosing for every
seat. Through the reducer each of those actions builds a frozen snapshot, finds its legal
actions anew and asks the planner through the action objects: some 40 µs an action. A rollout
needs none of that. It only needs the outcome, so :func:`playout` plays the same round on plain
mutable lists, private to one call: the open end of each train, its marker, the hands, the
boneyard, and per pip value the number of tiles not yet on the table (which is what "could
this open double still be satisfied" asks, §6).

It is not a second rule book to be kept apart from the first: it plays *exactly* the game the
reducer plays, action for action, with the planner's rollout policy (:func:`planner_decide`
with a :class:`PlanBook`) choosing exactly as it does on snapshots. The tests play thousands of
rollouts both ways, under every preset and random options, and demand the same outcome and the
same number of actions. It covers what happens inside a round under every option but two:
``branching_doubles`` (several lines per train) and ``swan_drive`` (turns over several trains),
and openings still under way (a chain right unused, the simultaneous opening). For those,
:func:`supports` says no and the expert plays the round out through the reducer.

Everything here is pure: the state given is only read, and the randomness is in the draw
queues the caller passes.
"""

from __future__ import annotations

from ..rules import GameState, RuleSet
from ..rules.tiles import placement_table
from .planner import cached_plan

Tile = tuple[int, int]

_PHASES = ("turn", "drawn", "follow_up", "follow_up_drawn")
_VALUES = 19  # pip values 0..18: the largest set is double-18


def playout_rules(rules: RuleSet) -> bool:
    """Does the playout cover these rules, once any opening is over?"""
    return not rules.branching_doubles and not rules.swan_drive


def supports(state: GameState) -> bool:
    """Can :func:`playout` play this state's round out (see the module's docstring)?"""
    return (
        playout_rules(state.rules)
        and state.phase in _PHASES
        and state.swan_pos is None
        and not state.opening_queue
        and not any(state.chain_right)
    )


def playout(
    state: GameState,
    seat: int,
    queues: list[list[Tile]],
    budget: int,
    max_steps: int = 5000,
) -> tuple[tuple[int, ...], int]:
    """Play the round of ``state`` out with the planner's rollout policy for every seat.

    Returns ``(scores, actions)``: the round's scores (§7) and the number of actions played
    (forced ones included, as the reducer counts them). A seat that draws takes the first tile
    of its own queue (``queues[seat]``) still in the boneyard, as the expert's rollouts do.
    ``budget`` is the planner's plan budget; ``seat`` is unused by the rules and kept for the
    caller's symmetry. After ``max_steps`` actions (never in practice) the scores are the pips
    left in hand.
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
    laid: list[list[Tile]] = []
    ends: list[int] = []
    dbl: list[bool] = []
    for tr in state.trains:
        line = tr.lines[0]
        laid.append(list(line))
        if line:
            last = line[-1]
            ends.append(last[1])
            dbl.append(last[0] == last[1])
        else:
            ends.append(tr.starts[0])
            dbl.append(False)
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
    owed = state.double_line[0] if state.double_line is not None else -1
    idle = state.idle_turns
    pointers = [0] * n
    book: dict[int, tuple] = {}
    steps = 0
    out_seat = -1

    def satisfiable(v: int) -> bool:
        if wild:
            return left > 0 if v == 0 else avail[0] > 0 or avail[v] > 0
        return avail[v] > 0

    while steps < max_steps:
        hand = hands[turn]
        # -- the legal plays, in the reducer's order: by train, then by laid tile --------
        if phase == "turn":
            tiles = hand
        elif phase == "follow_up":
            tiles = [t for t in hand if t[0] != t[1]]
        elif phase == "drawn":
            tiles = (drawn,)
        else:  # follow_up_drawn
            tiles = () if drawn[0] == drawn[1] else (drawn,)
        if owed >= 0 and must_satisfy:
            lines = [owed]
        else:
            lines = []
            if True in dbl:
                lines = [
                    ti for ti in range(n + 1) if dbl[ti] and ti != owed and satisfiable(ends[ti])
                ]
            if lines:
                if owed >= 0:
                    lines.append(owed)
                    lines.sort()
            else:
                mate = partner[turn]
                lines = [
                    ti
                    for ti in range(n + 1)
                    if ti == n or marker[ti] or ti == turn or ti == mate or ti == owed
                ]
        plays: list[tuple[int, Tile]] = []  # (train, laid tile)
        if not tiles:
            pass
        elif wild:
            for ti in lines:
                table = placement_table(ends[ti], True)
                hits = [lay for t in tiles if t in table for lay in table[t]]
                if len(hits) > 1:
                    hits.sort()
                for lay in hits:
                    plays.append((ti, lay))
        else:
            at: dict[int, list[int]] = {}
            for ti in lines:
                e = ends[ti]
                if e in at:
                    at[e].append(ti)
                else:
                    at[e] = [ti]
            for t in tiles:
                a, b = t
                got = at.get(a)
                if got is not None:
                    for ti in got:
                        plays.append((ti, t))
                if a != b:
                    got = at.get(b)
                    if got is not None:
                        lay = (b, a)
                        for ti in got:
                            plays.append((ti, lay))
            if len(plays) > 1:
                plays.sort()
        # -- no play: draw, end the turn, or the round is stuck ---------------------------
        if not plays:
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
                owner = owed if owed < n else None
                if owner is None or marker[owed]:
                    mark = False
                else:
                    target = owner
            elif both_stuck and not failed[partner[turn]]:
                mark = False
            if mark:
                marker[target] = True
                marker[partner[target]] = True
            steps += 1
        else:
            # -- the planner's choice (planner_decide with a PlanBook, quick) -------------
            if len(plays) == 1:
                ti, lay = plays[0]
            else:
                ti, lay = _choose(
                    plays, turn, hand, laid, ends, marker, hands, partner, n, wild,
                    must_satisfy, phase, book, budget,
                )
            # -- play it ------------------------------------------------------------------
            a, b = lay
            t = lay if a <= b else (b, a)
            hand.remove(t)
            avail[a] -= 1
            if a != b:
                avail[b] -= 1
            left -= 1
            laid[ti].append(lay)
            ends[ti] = b
            dbl[ti] = a == b
            if ti < n and (ti == turn or ti == partner[turn]):
                marker[ti] = False
                marker[turn] = False
                marker[partner[turn]] = False
            failed[turn] = False
            steps += 1
            if not hand:
                out_seat = turn
                break
            if a == b:
                phase = "follow_up"
                owed = ti
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
    scores = [sum(a + b for a, b in h) for h in hands]
    if out_seat >= 0:
        scores[out_seat] = 0
        scores[partner[out_seat]] = 0
    return tuple(scores), steps


def _choose(plays, seat, hand, laid, ends, marker, hands, partner, n, wild, must_satisfy, phase, book, budget):
    """The planner's rollout choice among ``plays`` (``score_plays`` with ``quick`` and no
    reasons): the first of the best scores, in the order of the plays."""
    # the plan of the seat's own train, kept from one decision to the next (PlanBook.get)
    own = laid[seat]
    entry = book.get(seat)
    plan = index = None
    if entry is not None:
        laid_count, plan, hand_size, index = entry
        k = len(own) - laid_count
        if tuple(own[laid_count:]) == plan[:k] and (plan or len(hand) <= hand_size):
            if k:
                plan = plan[k:]
                index = {t: i - k for t, i in index.items() if i >= k}
            if len(index) == len(plan) and set(index).issubset(hand):
                book[seat] = (len(own), plan, len(hand), index)
            else:
                plan = None
        else:
            plan = None
    if plan is None:
        plan = cached_plan(tuple(hand), ends[seat], wild, budget, False)
        index = {(x, y) if x <= y else (y, x): i for i, (x, y) in enumerate(plan)}
        book[seat] = (len(own), plan, len(hand), index)

    mate = partner[seat]
    own_marked = marker[seat] or marker[mate]
    danger = any(len(hands[i]) <= 2 for i in range(n) if i != seat and i != mate)
    pip_weight = 2.0 if danger else 0.3
    after_double = phase != "turn" and phase != "drawn"
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
        ti, lay = play
        x, y = lay
        t = lay if x <= y else (y, x)
        idx = index.get(t)
        score = (x + y) * pip_weight
        if ti == seat:
            if plan and lay == first:
                score += 20
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
                score += 28
            elif idx == plan_len - 1:
                score += 18
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
            elsewhere = not must_satisfy and plan and ti != seat and first[0] != first[1]
            if satisfy or elsewhere:
                score += 10
            elif must_satisfy and (ti == n or marker[ti]) and ti != seat and ti != mate:
                score += 3
            else:
                score -= 14
        if best is None or score > best_score:
            best, best_score = play, score
    return best
