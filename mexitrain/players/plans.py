"""Planning a personal train (docs/rules.md §9: "plan your own train first").

``plan_train`` finds the longest chain of tiles (then the heaviest, by pips) that can be laid
from an open end through a hand. The exact longest trail is NP-hard in general, so the search
is a depth-first branch-and-bound with a node budget: it is exact for ordinary hands and
returns the best chain found when the budget runs out. It is deterministic: the same hand,
end and budget always give the same chain, whatever order the hand is given in.

``arrange_hand`` sorts a hand for the hand tray as the French leaflet describes: the planned train in
the order it will be laid, then the extras.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..rules.core import mask_total
from ..rules.tiles import placement_lookup, tile

Tile = tuple[int, int]
Laid = tuple[int, int]

#: Default node budget of the search: a few milliseconds for a 20-tile hand.
DEFAULT_BUDGET = 200


def plan_train(
    hand: Iterable[Tile],
    open_end: int,
    wild: bool = False,
    budget: int = DEFAULT_BUDGET,
    exact: bool = True,
) -> tuple[Laid, ...]:
    """The longest, then heaviest, chain laid from ``open_end`` through ``hand``.

    Each element is a laid tile ``(half against the open end, new open end)``, in the order
    they would be played. A double in the chain is followed by the next tile (it is satisfied
    inside the chain). ``wild`` is ``blanks_wild`` (a blank matches anything, a blank end
    accepts anything). ``budget`` bounds the number of search nodes of the fallback search
    (its first descent always completes, so the result is never empty when a tile fits).

    Without wild blanks the hand is a graph (values are vertices, tiles are edges, doubles
    are loops) and a chain is a trail from the open end. The best trail is an Euler trail of
    the open end's component less a minimum set of tiles fixing the degree parities (a
    T-join, found by matching odd values through shortest paths): when what is left stays
    connected that trail is provably best and is returned at once. Otherwise, and with wild
    blanks, a branch-and-bound search runs, stopping early when it reaches the bound.
    ``exact=False`` skips the graph step (cheaper, for rollouts: the search alone).
    """
    tiles = sorted({tile(*t) for t in hand}, key=lambda t: (-(t[0] + t[1]), t))
    if not tiles:
        return ()
    start_path: tuple[Laid, ...] = ()
    target: tuple[int, int] | None = None
    if exact and not wild:
        target, found = _graph_plan(tiles, open_end)
        if found is not None:
            if _key(found) == target:
                return found
            start_path = found
    return _search(tiles, open_end, wild, budget, start_path, target)


def _key(chain: tuple[Laid, ...]) -> tuple[int, int]:
    return len(chain), sum(a + b for a, b in chain)


_MATCH_LIMIT = 9  # at most this many odd values are matched exactly
_BIG = 1000  # cost of leaving a tile out, on top of its pips: fewest first, then lightest


def _graph_plan(
    tiles: list[Tile], s: int
) -> tuple[tuple[int, int], tuple[Laid, ...] | None]:
    """(upper bound on the best chain's key, a chain reaching it or a good try, or None)."""
    adj: dict[int, list[int]] = {}
    loops: dict[int, int] = {}
    for i, (a, b) in enumerate(tiles):
        if a == b:
            loops[a] = i
        else:
            adj.setdefault(a, []).append(i)
            adj.setdefault(b, []).append(i)
    # the component of ``s``
    comp_v = {s}
    stack = [s]
    while stack:
        v = stack.pop()
        for i in adj.get(v, ()):
            a, b = tiles[i]
            w = b if a == v else a
            if w not in comp_v:
                comp_v.add(w)
                stack.append(w)
    verts = sorted(comp_v)
    edges = sorted({i for v in verts for i in adj.get(v, ())})
    comp_loops = [loops[v] for v in verts if v in loops]
    total_n = len(edges) + len(comp_loops)
    if total_n == 0:
        return (0, 0), ()
    total_p = sum(tiles[i][0] + tiles[i][1] for i in edges) + sum(2 * v for v in verts if v in loops)
    nv = len(verts)
    pos = {v: j for j, v in enumerate(verts)}
    inf = 1 << 60
    dist = [[inf] * nv for _ in range(nv)]
    nxt = [[-1] * nv for _ in range(nv)]
    tile_at: dict[tuple[int, int], int] = {}
    odd = 0
    deg = [0] * nv
    for i in edges:
        a, b = tiles[i]
        ja, jb = pos[a], pos[b]
        deg[ja] += 1
        deg[jb] += 1
        dist[ja][jb] = dist[jb][ja] = _BIG + a + b
        nxt[ja][jb] = jb
        nxt[jb][ja] = ja
        tile_at[(ja, jb)] = tile_at[(jb, ja)] = i
    for j in range(nv):
        dist[j][j] = 0
        nxt[j][j] = j
        if deg[j] & 1:
            odd |= 1 << j
    rng_v = range(nv)
    for k in rng_v:  # Floyd-Warshall with next hops
        dk = dist[k]
        for u in rng_v:
            du = dist[u]
            duk = du[k]
            if duk >= inf:
                continue
            nu = nxt[u]
            nuk = nu[k]
            for v in rng_v:
                alt = duk + dk[v]
                if alt < du[v]:
                    du[v] = alt
                    nu[v] = nuk
    # The trail starts at s and ends at some t: the values of odd degree in what is kept must
    # be exactly {s, t} (none when t == s). So the tiles left out must pair up the values of
    # ``need`` = odd ^ {s}, all but one (t), at the least cost: a near-perfect matching by
    # shortest paths, by dynamic programming over subsets.
    need = odd ^ (1 << pos[s])
    if bin(need).count("1") > _MATCH_LIMIT:
        return (total_n, total_p), None  # too many odd values to match exactly: search
    memo: dict[int, int] = {0: 0, 1: 0}

    def match(mask: int, skip: int) -> int:
        """Cheapest pairing of the values in ``mask``; one left unpaired when ``skip``."""
        key = mask << 1 | skip
        got = memo.get(key)
        if got is not None:
            return got
        low = mask & -mask
        u = low.bit_length() - 1
        rest = mask ^ low
        best = match(rest, 0) if skip else inf
        du = dist[u]
        m = rest
        while m:
            b = m & -m
            m ^= b
            c = du[b.bit_length() - 1] + match(rest ^ b, skip)
            if c < best:
                best = c
        memo[key] = best
        return best

    best_cost = match(need, 1)
    removed_n, removed_pips = divmod(best_cost, _BIG)
    bound = (total_n - removed_n, total_p - removed_pips)
    if best_cost >= inf:
        return bound, None
    removed: set[int] = set()
    mask, skip = need, 1
    while mask:  # replay the matching's choices, then remove the paths' tiles
        low = mask & -mask
        u = low.bit_length() - 1
        rest = mask ^ low
        target = memo[mask << 1 | skip]
        if skip and memo[rest << 1] == target:
            mask, skip = rest, 0
            continue
        m = rest
        while m:
            b = m & -m
            m ^= b
            w = b.bit_length() - 1
            if dist[u][w] + memo[(rest ^ b) << 1 | skip] == target:
                x = u
                while x != w:
                    y = nxt[x][w]
                    removed ^= {tile_at[(x, y)]}
                    x = y
                mask = rest ^ b
                break
    chain = _euler(tiles, s, [i for i in edges if i not in removed], loops)
    return bound, chain


def _euler(tiles: list[Tile], s: int, kept: list[int], loops: dict[int, int]) -> tuple[Laid, ...]:
    """Hierholzer's trail from ``s`` over the kept tiles (those reachable from ``s``), with
    each reached value's double laid on arrival."""
    adj: dict[int, list[tuple[int, int]]] = {}
    for i in kept:
        a, b = tiles[i]
        adj.setdefault(a, []).append((i, b))
        adj.setdefault(b, []).append((i, a))
    for lst in adj.values():  # deterministic: lighter tiles deeper (laid later) is arbitrary
        lst.sort(key=lambda e: (-(tiles[e[0]][0] + tiles[e[0]][1]), e[1]), reverse=True)
    used: set[int] = set()
    stack: list[tuple[int, int | None]] = [(s, None)]
    out: list[tuple[int, int | None]] = []
    while stack:
        v, _ = stack[-1]
        lst = adj.get(v)
        while lst and lst[-1][0] in used:
            lst.pop()
        if lst:
            i, w = lst.pop()
            used.add(i)
            stack.append((w, i))
        else:
            out.append(stack.pop())
    out.reverse()
    chain: list[Laid] = []
    visited_loop: set[int] = set()
    prev = s
    for v, i in out:
        if i is not None:
            chain.append((prev, v))
        if v in loops and v not in visited_loop:
            visited_loop.add(v)
            chain.append((v, v))
        prev = v
    return tuple(chain)


def _search(
    tiles: list[Tile],
    open_end: int,
    wild: bool,
    budget: int,
    start_path: tuple[Laid, ...],
    target: tuple[int, int] | None,
) -> tuple[Laid, ...]:
    """Depth-first branch-and-bound over chains, within ``budget`` nodes."""
    n = len(tiles)
    weights = [t[0] + t[1] for t in tiles]
    by_value: dict[int, int] = {}
    for i, (a, b) in enumerate(tiles):
        by_value[a] = by_value.get(a, 0) | (1 << i)
        by_value[b] = by_value.get(b, 0) | (1 << i)
    moves_cache: dict[int, list[tuple[int, int, Laid, int]]] = {}
    everything = (1 << n) - 1

    def moves(end: int) -> list[tuple[int, int, Laid, int]]:
        """(bit, tile index, laid, new end) for every tile that fits ``end``."""
        got = moves_cache.get(end)
        if got is None:
            table = placement_lookup(end, wild)
            got = [
                (1 << i, i, lay, lay[1]) for i, t in enumerate(tiles) for lay in table.get(t, ())
            ]
            # doubles of this end first (they keep the end), then heavier tiles
            got.sort(key=lambda m: (m[3] != end, -weights[m[1]], m[2]))
            moves_cache[end] = got
        return got

    def reach(end: int, used: int) -> int:
        """The tiles that can still be reached from ``end`` (a bit mask)."""
        free = everything & ~used
        if wild:
            return free
        comp = 0
        frontier = by_value.get(end, 0) & free
        while frontier:
            comp |= frontier
            low = frontier & -frontier
            frontier ^= low
            a, b = tiles[low.bit_length() - 1]
            frontier |= (by_value[a] | by_value[b]) & free & ~comp
        return comp

    def pips_of(mask: int) -> int:
        return mask_total(mask, weights)

    best_path: list[Laid] = list(start_path)
    best_key = _key(start_path)
    path: list[Laid] = []
    seen: set[tuple[int, int]] = set()
    nodes = 0

    def search(end: int, used: int, length: int, weight: int) -> bool:
        """Extend the chain; True stops the whole search (budget spent or bound reached)."""
        nonlocal best_key, best_path, nodes
        nodes += 1
        if (length, weight) > best_key:
            best_key = (length, weight)
            best_path = path.copy()
            if best_key == target:
                return True
        comp = reach(end, used)
        most = length + comp.bit_count()
        if most < best_key[0] or (most == best_key[0] and weight + pips_of(comp) <= best_key[1]):
            return False
        cand = [m for m in moves(end) if not used & m[0]]
        if cand and cand[0][3] == end and not wild:
            cand = cand[:1]  # a double of this end is a free extension: never worse
        elif len(cand) > 1:
            # go where the most tiles are left (a dead end last), then heavier tiles first
            free = everything & ~used
            cand.sort(
                key=lambda m: (
                    -(by_value.get(m[3], 0) & free & ~m[0]).bit_count(),
                    -weights[m[1]],
                    m[2],
                )
            )
        for bit, i, lay, new_end in cand:
            nu = used | bit
            if (new_end, nu) in seen:
                continue
            seen.add((new_end, nu))
            path.append(lay)
            stop = search(new_end, nu, length + 1, weight + weights[i])
            path.pop()
            if stop or nodes >= budget:
                return True
        return False

    search(open_end, 0, 0, 0)
    return tuple(best_path)


def arrange_hand(
    hand: Iterable[Tile], open_end: int, wild: bool = False, budget: int = DEFAULT_BUDGET
) -> tuple[tuple[Laid, ...], tuple[Tile, ...]]:
    """The hand as the tray shows it: ``(planned chain, extras)``.

    The chain is ``plan_train``'s, laid tiles in playing order. The extras are the other
    tiles, canonical ``(low, high)``, heaviest first (ties: higher tile first) — the order
    in which the planner would rather get rid of them.
    """
    hand_t = [tile(*t) for t in hand]
    chain = plan_train(hand_t, open_end, wild, budget)
    in_chain = {tile(*t) for t in chain}
    extras = sorted((t for t in hand_t if t not in in_chain), key=lambda t: (-(t[0] + t[1]), -t[1], -t[0]))
    return chain, tuple(extras)
