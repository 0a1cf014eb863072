"""The expert's rollouts on the rules core: the planner's rollout policy, read off a Core.

The expert values a move by playing the round out many times, the planner choosing for every
seat. The rules of those rollouts are the rules core's (:mod:`mexitrain.rules.core`, the
same rules as the reducer, proven in lockstep by tests/rules/test_core_lockstep.py): a
rollout copies a :class:`~mexitrain.rules.core.Core` (``Core.copy``) and changes it in place
with the core's ``legal`` and ``step``, as python-chess pushes moves on a board. What this
module adds is policy only:

- :func:`decide`: the planner's rollout choice (:func:`.planner.planner_decide` with a
  :class:`.planner.PlanBook`: the quick scores, no reasons, no knowledge of lacking values)
  read off the core's fields: hands as bitmasks, lines as lay codes, per end the mask of the
  tiles that fit. The same scores as :func:`.planner.score_plays`, term for term and in the
  same order (so that equal floats tie alike); tests/players/test_playout.py plays rollouts
  both ways (this on the core, the planner on the reducer's snapshots) and demands the same
  outcome and the same number of actions;
- :func:`draw_from_queue`: the expert's draw order, where each seat draws the first tile of
  its own order of the boneyard still in it (the tile is put on top of the rollout's private
  boneyard, then the core draws it);
- :func:`run`: the loop, and :func:`playout` (a GameState in, the round's scores out).

Everything here is pure: a core given to :func:`start` or :func:`playout` is copied, never
changed, and the randomness is in the draw queues the caller passes.
"""

from __future__ import annotations

from ..rules import GameState, cache
from ..rules.core import M_DRAW, M_PASS, M_SKIP, from_state, legal, plays, step
from ..rules.core import hand_pips as core_hand_pips
from ..rules.core.compact import Core
from ..rules.core.deal import shuffle
from ..rules.core.lookup import (
    CHAIN,
    DRAWN,
    FOLLOW_UP,
    FOLLOW_UP_DRAWN,
    LAY,
    LAY_DOUBLE,
    SWAN,
    TURN,
)
from ..rules.tiles import placement_lookup
from .planner import DEFAULT_WEIGHTS, Weights
from .plans import plan_train

Tile = tuple[int, int]

# plans of a hand (as a tile mask) from an end: (lay codes, tile id -> index, tiles' mask);
# without wild blanks the hand is only the tiles a chain from the end can reach (the search
# never looks at the others), so hands that differ elsewhere share a plan
#: Plan budget of the planner inside rollouts (cheaper than the planner level's own).
ROLLOUT_PLAN_BUDGET = 30

_PLANS = cache.new("playout.plans", limit=200_000)  # keys of ints and a bool, always alike
# per (tile set, wild blanks): the search's tables (see _plan_moves)
_MOVES = cache.new("playout.moves")


def start(state: GameState) -> Core:
    """The core a rollout copies: ``state``'s (a one-round game, see ``expert.one_round``, so
    that the round's end ends the game), without what a rollout never reads: the finished
    rounds, the round's earlier events (a chain opening looks at the last one only)."""
    if state.results or len(state.events) > 1:  # left out of the conversion
        state = state.model_copy(update={"events": state.events[-1:], "results": ()})
    return from_state(state)


class Dealer:
    """The cores of a view's sampled deals, without a snapshot each: what
    ``start(one_round(determinize(view, rng, hands)))`` gives, built from one template core
    of the view by setting the fields a deal changes (the hands, the boneyard, the deal
    order and the dealt tiles). ``deal`` draws from ``rng`` exactly as ``determinize`` does
    (the boneyard's tiles, in the view's set order, shuffled), so the same generator gives
    the same deals (tests/players/test_playout.py holds the two together)."""

    def __init__(self, v, one_round) -> None:
        from ..rules import determinize

        self.template = start(one_round(determinize(v)))
        self.known = {i: h for i, h in enumerate(v.hands) if h is not None}
        self.unseen = list(v.unseen())
        self.n = v.players

    def deal(self, rng, hidden: dict[int, tuple[Tile, ...]]) -> tuple[Core, list[int]]:
        """``(the core, its boneyard as tile ids)`` with ``hidden`` the hands the view does
        not show (every one of them), the boneyard the other unseen tiles at random."""
        held = {t for h in hidden.values() for t in h}
        pool = [t for t in self.unseen if t not in held]
        shuffle(rng, pool)  # rng.shuffle, compiled with the rules core
        c = self.template.copy()
        tab = c.tab
        id_of, bit = tab.id_of, tab.bit
        known = self.known
        full = [known[i] if i in known else hidden[i] for i in range(self.n)]
        order: list[int] = []
        hands = []
        for h in full:
            m = 0
            for t in h:
                i = id_of[t]
                m |= bit[i]
                order.append(i)
            hands.append(m)
        bone = [id_of[t] for t in pool]
        order += bone
        c.hands = hands
        c.order = order
        c.rank = None  # worked out when asked (scoring.ranks)
        c.bone = bone
        c.bpos = 0
        c.dealt_hands = tuple(full)
        c.dealt_boneyard = tuple(pool)
        return c, bone


def draw_from_queue(c: Core, queue: list[int], p: int, where: list[int]) -> int:
    """Put the first tile of ``queue`` (tile ids) from position ``p`` that is still in the
    boneyard on top of it, so that the core's draw takes it; returns the next position.
    ``c.bone`` must be private to ``c`` and ``where`` its positions (:func:`positions`), kept
    up to date here: the boneyard is ``bone[bpos:]``, as the core draws from the top."""
    bone, top = c.bone, c.bpos
    while where[queue[p]] < top:  # drawn already, or never in the boneyard
        p += 1
    t = queue[p]
    i = where[t]
    if i != top:
        u = bone[top]
        bone[i] = u
        where[u] = i
        bone[top] = t
        where[t] = top
    return p + 1


def positions(c: Core) -> list[int]:
    """Per tile id, its position in ``c.bone`` (-1 for a tile never in it)."""
    where = [-1] * c.tab.size
    for i, t in enumerate(c.bone):
        where[t] = i
    return where


def hand_pips(c: Core) -> tuple[int, ...]:
    """Each seat's pips in hand."""
    return tuple(core_hand_pips(c, h) for h in c.hands)


def run(
    c: Core,
    queues: list[list[int]] | None,
    budget: int,
    max_steps: int = 5000,
    weights: list[Weights] | tuple[Weights, ...] | None = None,
) -> tuple[tuple[int, ...], int]:
    """Play the round of ``c`` (changed in place: pass a copy) to its end with the planner's
    rollout policy for every seat: ``(scores, actions)``, the round's scores (§7) and the
    actions played (forced ones included, as the reducer counts them).

    With ``queues`` (tile ids, one order of the boneyard per seat) a seat that draws takes
    the first tile of its own queue still in the boneyard; without, the boneyard's top one.
    ``budget`` is the planner's plan budget; ``weights`` each seat's (by default the planner
    level's). A core already at the game's end, or a round cut short after ``max_steps``
    actions (never in practice), scores the pips left in hand.
    """
    if weights is None:
        weights = [DEFAULT_WEIGHTS] * c.tab.n
    if queues is not None:
        c.bone = c.bone[:]  # the draws below reorder it
        where = positions(c)
        pointers = [0] * c.tab.n
    book: dict[int, tuple] = {}
    done = len(c.round_scores)
    number = c.round  # the round ends when the next is dealt or the game is over
    steps = 0
    while not c.over and c.round == number and steps < max_steps:
        ms = legal(c)
        if len(ms) == 1:
            m = ms[0]
        elif ms[0] < 0:  # no play: draw if it may, else the first (planner_decide)
            m = M_DRAW if M_DRAW in ms else ms[0]
        else:
            m = decide(c, ms, book, budget, weights[c.turn])
        if m == M_DRAW and queues is not None:
            seat = c.turn
            pointers[seat] = draw_from_queue(c, queues[seat], pointers[seat], where)
        step(c, m)
        steps += 1
    if len(c.round_scores) > done:
        return c.round_scores[done], steps
    return hand_pips(c), steps


def playout(
    state: GameState,
    queues: list[list[Tile]] | None,
    budget: int,
    max_steps: int = 5000,
    weights: list[Weights] | tuple[Weights, ...] | None = None,
) -> tuple[tuple[int, ...], int]:
    """:func:`run` from a snapshot (a one-round game), with queues of tiles."""
    c = start(state)
    if queues is not None:
        id_of = c.tab.id_of
        queues = [[id_of[t] for t in q] for q in queues]
    return run(c, queues, budget, max_steps, weights)


def decide(c: Core, ms: list[int], book: dict, budget: int, w: Weights) -> int:
    """The planner's rollout choice among the legal moves ``ms`` (more than one) of the seat
    to move: :func:`.planner.planner_decide` with a PlanBook, on the core."""
    if ms[0] < 0:  # no play: draw if it may, else the first
        return M_DRAW if M_DRAW in ms else ms[0]
    ps = ms if c.phase == TURN else plays(c)  # on a turn with plays, legal() is plays()
    pick, score = best_play(c, ps, book, budget, w)
    if len(ms) > len(ps):
        phase = c.phase
        if phase == SWAN and score < 14:
            if M_SKIP in ms:
                return M_SKIP  # skip the Mexican Train, look at the next public train
            if M_PASS in ms:
                return M_PASS  # nothing worth playing on the next train: end the drive
        if phase == DRAWN and ms[len(ps)] == M_PASS and score < 0:
            return M_PASS  # keep the drawn tile (§8 delayed_first_turn)
    return pick


def own_plan(c: Core, seat: int, book: dict, budget: int) -> tuple:
    """``(plan, plan line, tile bit -> index in the plan, the plan's tiles' mask)``: the
    seat's kept plan while it holds (PlanBook.get), else the best over its own train's lines.
    A plan is in lay codes."""
    hand = c.hands[seat]
    size = hand.bit_count()
    own_lines = c.train_lines[seat]
    laid = c.laid
    entry = book.get(seat)
    if entry is not None:
        plan_line, laid_count, plan, hand_size, index, mask = entry
        own = laid[own_lines[plan_line]]
        k = len(own) - laid_count
        if k == 0:
            if (plan or size <= hand_size) and not mask & ~hand:
                if size != hand_size:
                    book[seat] = (plan_line, laid_count, plan, size, index, mask)
                return plan, plan_line, index, mask
        elif tuple(own[laid_count:]) == plan[:k]:
            plan = plan[k:]
            index = {t: i - k for t, i in index.items() if i >= k}
            bit_of_lay = c.tab.bit_of_lay
            for code in own[laid_count:]:
                mask &= ~bit_of_lay[code]
            if len(index) == len(plan) and not mask & ~hand:
                book[seat] = (plan_line, len(own), plan, size, index, mask)
                return plan, plan_line, index, mask
    tab = c.tab
    wild = tab.wild
    ends = c.ends
    plan, index, mask, plan_line, best = (), {}, 0, 0, (0, 0)
    for li, x in enumerate(own_lines):
        end = ends[x]
        tiles = reach(tab, hand, end)
        key = (tab.set, tiles, end, wild, budget)
        got = _PLANS.get(key)
        if got is None:
            got = _PLANS.put(key, _plan(c, tiles, end, wild, budget))
        here = got[3]
        if here > best:
            plan, index, mask, best = got
            plan_line = li
    book[seat] = (plan_line, len(laid[own_lines[plan_line]]), plan, size, index, mask)
    return plan, plan_line, index, mask


def _plan_moves(tab) -> tuple:
    """Per tile set (and wild blanks): ``(halves, moves, pips, near)``, ``halves[v]`` the
    mask of the tiles with a half ``v``, ``near[i]`` of the tiles sharing a half with tile
    ``i``, ``moves[end]`` every lay of every tile at ``end`` as ``(tile id, lay code, new
    end, pips)`` in :func:`.plans._search`'s order (doubles of the end first, then heavier,
    then by lay): the search's own list once filtered by the hand."""
    key = (tab.set, tab.wild)
    got = _MOVES.get(key)
    if got is None:  # built once per tile set
        tiles, pips, bit = tab.tiles, tab.pips, tab.bit
        halves = [0] * 19
        for i, (a, b) in enumerate(tiles):
            halves[a] |= bit[i]
            halves[b] |= bit[i]
        near = [halves[a] | halves[b] for a, b in tiles]
        moves = []
        for end in range(19):
            table = placement_lookup(end, tab.wild)
            here = [
                (i, lay, lay[1], pips[i]) for i, t in enumerate(tiles) for lay in table.get(t, ())
            ]
            here.sort(key=lambda m: (m[2] != end, -m[3], m[1]))
            moves.append(tuple((i, a * 19 + z, ne, w) for i, (a, z), ne, w in here))
        got = _MOVES.put(key, (halves, moves, pips, near))
    return got


def reach(tab, hand: int, end: int) -> int:
    """The tiles of ``hand`` a chain from ``end`` can reach: with wild blanks all of them,
    else the end's component in the hand (what the plan search looks at)."""
    if tab.wild:
        return hand
    halves, _, _, near = _plan_moves(tab)
    return _component(halves, near, hand, end)


def _component(halves, near, hand: int, end: int) -> int:
    """The tiles of ``hand`` joined to ``end`` by chains of matching halves (no wild blanks):
    from the tiles with a half ``end``, add each one's neighbours in the hand."""
    comp = 0
    frontier = halves[end] & hand
    while frontier:
        comp |= frontier
        low = frontier & -frontier
        frontier ^= low
        frontier |= near[low.bit_length() - 1] & hand & ~comp
    return comp


#: The plan search numbers the hand's tiles 0, 1, 2...: its masks (and the positions it has
#: searched, ``free << 5 | end``) are then small ints, C integers in the compiled build. A
#: hand of more tiles than this (never in practice) is planned by ``plans.plan_train``.
LOCAL_TILES = 58


def _bit_indices() -> list[int]:
    """The index of a single bit ``b`` (up to ``2**65``) at ``b % 67`` (2 is a primitive
    root mod 67): a C integer's bit index without a call in the compiled build."""
    out = [0] * 67
    for j in range(66):
        out[(1 << j) % 67] = j
    return out


_BIT_INDEX = _bit_indices()


def _plan(c: Core, hand: int, end: int, wild: bool, budget: int):
    """plan_train of the hand's tiles (as ``cached_plan(..., exact=False)``), in lay codes:
    ``(plan, tile bit -> index, the plan's mask, (length, pips))``.

    The same search as :func:`.plans._search` (its node budget, order and pruning), run on
    masks of the hand's tiles (:class:`PlanSearch`) instead of its sorted tiles, which changes
    no choice (every ordering key is the lay, never a tile's place in the hand)."""
    tab = c.tab
    ids = []
    rest = hand
    while rest:
        low = rest & -rest
        ids.append(low.bit_length() - 1)
        rest ^= low
    if len(ids) > LOCAL_TILES:
        laid = plan_train([tab.tiles[i] for i in ids], end, wild, budget, False)
        plan = tuple(a * 19 + z for a, z in laid)
        key = (len(laid), sum(a + z for a, z in laid))
    else:
        s = PlanSearch(tab, ids, wild, budget)
        s.search(end, (1 << len(ids)) - 1, 0, 0)
        plan = tuple(s.best_path)
        key = (s.best_len, s.best_pips)
    bit_of_lay = tab.bit_of_lay
    index = {bit_of_lay[code]: i for i, code in enumerate(plan)}
    mask = 0
    for b in index:
        mask |= b
    return plan, index, mask, key


class PlanSearch:
    """One plan search (:func:`_plan`) over ``ids``, the hand's tiles, numbered in that order:
    tile ``ids[j]`` is bit ``j`` of every mask here. It keeps the best chain so far, the chain
    being tried, the positions searched and the nodes counted; the search's recursion is
    :meth:`search`. A class rather than a closure, so that the compiled build keeps its
    counters and masks as C integers and no search leaves a reference cycle behind."""

    def __init__(self, tab, ids: list[int], wild: bool, budget: int) -> None:
        tiles, pips = tab.tiles, tab.pips
        halves = [0] * 19  # per value, the hand's tiles with a half of it
        local = [0] * tab.size  # per tile id, its bit here (0: not in the hand)
        weights = []
        for j, i in enumerate(ids):
            a, b = tiles[i]
            halves[a] |= 1 << j
            halves[b] |= 1 << j
            local[i] = 1 << j
            weights.append(pips[i])
        self.halves = halves
        self.near = [halves[tiles[i][0]] | halves[tiles[i][1]] for i in ids]
        self.weights = weights
        self.local = local
        self.all_moves = _plan_moves(tab)[1]
        self.moves = [None] * 19  # per end, the hand's lays there (moves_at)
        self.wild = wild
        self.budget = budget
        self.nodes = 0
        self.best_len = 0
        self.best_pips = 0
        self.best_path: list[int] = []
        self.path: list[int] = []
        self.seen: set[int] = set()  # (end, free tiles) searched, as free << 5 | end
        self.most = 0  # see bound
        self.most_pips = 0

    def moves_at(self, end: int) -> list:
        """The hand's lays at ``end`` as ``(bit, lay code, new end, pips)``, in the search's
        order (the tile set's list, filtered once per end)."""
        got = self.moves[end]
        if got is None:
            local = self.local
            got = self.moves[end] = [
                (local[i], code, ne, w) for i, code, ne, w in self.all_moves[end] if local[i]
            ]
        return got

    def bound(self, free: int, end: int) -> None:
        """How many tiles of ``free`` a chain from ``end`` could still lay at most, and their
        pips (``most``, ``most_pips``): all of them with wild blanks, else those joined to
        ``end`` by matching halves (as :func:`_component`)."""
        weights = self.weights
        count = total = 0
        if self.wild:
            rest = free
            while rest:
                low = rest & -rest
                rest ^= low
                count += 1
                total += weights[_BIT_INDEX[low % 67]]
        else:
            near = self.near
            comp = 0
            frontier = self.halves[end] & free
            while frontier:  # each tile of the component passes here once
                comp |= frontier
                low = frontier & -frontier
                frontier ^= low
                j = _BIT_INDEX[low % 67]
                frontier |= near[j] & free & ~comp
                count += 1
                total += weights[j]
        self.most = count
        self.most_pips = total

    def search(self, end: int, free: int, length: int, weight: int) -> bool:
        """Search the chains from ``end`` with the ``free`` tiles; True: stop (budget spent)."""
        self.nodes += 1
        if length > self.best_len or (length == self.best_len and weight > self.best_pips):
            self.best_len, self.best_pips = length, weight
            self.best_path = self.path[:]
        self.bound(free, end)
        most = length + self.most
        if most < self.best_len or (most == self.best_len and weight + self.most_pips <= self.best_pips):
            return False
        cand = []
        for m in self.moves_at(end):
            b = m[0]
            if free & b:
                cand.append(m)
        if cand and cand[0][2] == end and not self.wild:
            cand = cand[:1]  # a double of this end is a free extension: never worse
        elif len(cand) > 1:  # most follow-ups first, then heavier, then by lay (a stable sort)
            halves = self.halves
            order = []
            for i, m in enumerate(cand):
                b = m[0]
                h = halves[m[2]]
                order.append((-(h & free & ~b).bit_count(), -m[3], m[1], i))
            order.sort()
            cand = [cand[k[3]] for k in order]
        seen = self.seen
        path = self.path
        for m in cand:
            b = m[0]
            new_end = m[2]
            nf = free & ~b
            key = nf << 5 | new_end
            if key in seen:
                continue
            seen.add(key)
            path.append(m[1])
            stop = self.search(new_end, nf, length + 1, weight + m[3])
            path.pop()
            if stop or self.nodes >= self.budget:
                return True
        return False


def best_play(c: Core, ps: list[int], book: dict, budget: int, w: Weights) -> tuple[int, float]:
    """The first of the best-scored plays of ``ps`` and its score (``score_plays`` quick)."""
    tab = c.tab
    seat = c.turn
    mate = tab.partner[seat]  # the seat itself without teams
    hands = c.hands
    hand = hands[seat]
    marker = c.marker
    plan, plan_line, index, planmask = own_plan(c, seat, book, budget)
    own_marked = marker[seat] or marker[mate]
    pip_weight = w[0]  # Weights: pips, or pips_danger when an opponent is near out
    for i, h in enumerate(hands):
        if i != seat and i != mate and h.bit_count() <= 2:
            pip_weight = w[1]
            break
    phase = c.phase
    after_double = phase == FOLLOW_UP or phase == FOLLOW_UP_DRAWN or phase == CHAIN
    chain_start = (phase == TURN or phase == DRAWN) and tab.chain_opening and c.chain_right[seat]
    must_satisfy = tab.must_satisfy
    n = tab.n
    plan_len = len(plan)
    first = plan[0] if plan else -1
    first_double = plan and LAY_DOUBLE[first]
    fit = tab.fit
    singles = hand & ~tab.double_mask
    off_plan = hand & ~planmask
    bit_of_lay = tab.bit_of_lay
    best = -1
    best_score = 0.0
    for m in ps:
        ti, li, lay = m >> 15, (m >> 9) & 63, m & 511
        x, y = LAY[lay]
        b = bit_of_lay[lay]  # the tile played (in the hand)
        idx = index.get(b)
        score = (x + y) * pip_weight
        if ti == seat:
            if li == plan_line and plan and lay == first:
                score += 20
                if chain_start:
                    score += 4 * plan_len
            elif idx is None and li != plan_line:
                score += 16
            else:
                after = 1 if (hand ^ b) & fit[y] else 0
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
            mine = (off_plan & ~b & fit[y]).bit_count()
            score += mine if mine < 2 else 2
        if x == y and not after_double:
            if (singles & fit[y]) or (  # a tile to follow it up, or a plan to play elsewhere
                not must_satisfy and plan and not (ti == seat and li == plan_line) and not first_double
            ):
                score += 10
            elif must_satisfy and (ti == n or marker[ti]) and ti != seat and ti != mate:
                score += 3
            else:
                score -= 14
        if best < 0 or score > best_score:
            best, best_score = m, score
    return best, best_score
