"""Planning a personal train (RULES.md §9: "plan your own train first").

``plan_train`` finds the longest chain of tiles (then the heaviest, by pips) that can be laid
from an open end through a hand. The exact longest trail is NP-hard in general, so the search
is a depth-first branch-and-bound with a node budget: it is exact for ordinary hands and
returns the best chain found when the budget runs out. It is deterministic: the same hand,
end and budget always give the same chain, whatever order the hand is given in.

``arrange_hand`` sorts a hand for the hand tray as seed 000 describes: the planned train in
the order it will be laid, then the extras.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..rules.tiles import placements

Tile = tuple[int, int]
Laid = tuple[int, int]

#: Default node budget of the search: a few milliseconds for a 20-tile hand.
DEFAULT_BUDGET = 600


def _canon(t: Tile) -> Tile:
    return (t[0], t[1]) if t[0] <= t[1] else (t[1], t[0])


def plan_train(
    hand: Iterable[Tile],
    open_end: int,
    wild: bool = False,
    budget: int = DEFAULT_BUDGET,
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
    """
    tiles = sorted({_canon(t) for t in hand}, key=lambda t: (-(t[0] + t[1]), t))
    if not tiles:
        return ()
    start_path: tuple[Laid, ...] = ()
    target: tuple[int, int] | None = None
    if not wild:
        target, found = _graph_plan(tiles, open_end)
        if found is not None:
            if _key(found) == target:
                return found
            start_path = found
    return _search(tiles, open_end, wild, budget, start_path, target)


def _key(chain: tuple[Laid, ...]) -> tuple[int, int]:
    return len(chain), sum(a + b for a, b in chain)


_BIG = 1000  # cost of leaving a tile out, on top of its pips: fewest first, then lightest


def _graph_plan(
    tiles: list[Tile], s: int
) -> tuple[tuple[int, int], tuple[Laid, ...] | None]:
    """(upper bound on the best chain's key, a chain reaching it or a good try, or None)."""
    # the component of ``s``
    adj: dict[int, list[int]] = {}
    loops: dict[int, int] = {}
    for i, (a, b) in enumerate(tiles):
        if a == b:
            loops[a] = i
        else:
            adj.setdefault(a, []).append(i)
            adj.setdefault(b, []).append(i)
    comp_v = {s}
    stack = [s]
    edges: list[int] = []
    while stack:
        v = stack.pop()
        for i in adj.get(v, ()):
            a, b = tiles[i]
            w = b if a == v else a
            if w not in comp_v:
                comp_v.add(w)
                stack.append(w)
    edges = sorted({i for v in comp_v for i in adj.get(v, ())})
    comp_loops = [loops[v] for v in comp_v if v in loops]
    total = (len(edges) + len(comp_loops), sum(tiles[i][0] + tiles[i][1] for i in edges + comp_loops))
    if total == (0, 0):
        return (0, 0), ()
    verts = sorted(comp_v)
    deg = {v: 0 for v in verts}
    for i in edges:
        a, b = tiles[i]
        deg[a] += 1
        deg[b] += 1
    odd = {v for v in verts if deg[v] & 1}
    # shortest removal costs between values (Floyd-Warshall with next hops)
    inf = float("inf")
    dist = {u: {v: (0 if u == v else inf) for v in verts} for u in verts}
    nxt: dict[int, dict[int, int]] = {u: {} for u in verts}
    for i in edges:
        a, b = tiles[i]
        c = _BIG + a + b
        dist[a][b] = dist[b][a] = c
        nxt[a][b] = b
        nxt[b][a] = a
    for k in verts:
        dk = dist[k]
        for u in verts:
            du = dist[u]
            duk = du[k]
            if duk == inf:
                continue
            for v in verts:
                alt = duk + dk[v]
                if alt < du[v]:
                    du[v] = alt
                    nxt[u][v] = nxt[u][k]
    bit = {v: 1 << j for j, v in enumerate(verts)}
    memo: dict[int, tuple[float, tuple[tuple[int, int], ...]]] = {0: (0, ())}

    def match(mask: int) -> tuple[float, tuple[tuple[int, int], ...]]:
        got = memo.get(mask)
        if got is not None:
            return got
        us = [v for v in verts if mask & bit[v]]
        u = us[0]
        best: tuple[float, tuple[tuple[int, int], ...]] = (inf, ())
        for v in us[1:]:
            cost, pairs = match(mask & ~bit[u] & ~bit[v])
            cost += dist[u][v]
            if cost < best[0]:
                best = (cost, ((u, v),) + pairs)
        memo[mask] = best
        return best

    odd_mask = sum(bit[v] for v in odd)
    options = []
    for t in verts:  # where the trail ends (t == s: a closed trail)
        mask = odd_mask if t == s else odd_mask ^ bit[s] ^ bit[t]
        cost, pairs = match(mask)
        options.append((cost, t, pairs))
    options.sort(key=lambda o: (o[0], o[1]))
    best_cost = options[0][0]
    removed_n, removed_pips = divmod(int(best_cost), _BIG)
    bound = (total[0] - removed_n, total[1] - removed_pips)
    tile_of = {}
    for i in edges:
        a, b = tiles[i]
        tile_of[(a, b)] = tile_of[(b, a)] = i
    fallback: tuple[Laid, ...] | None = None
    for cost, _t, pairs in options:
        if cost != best_cost:
            break
        removed: set[int] = set()
        for u, v in pairs:
            while u != v:
                w = nxt[u][v]
                removed ^= {tile_of[(u, w)]}
                u = w
        chain = _euler(tiles, s, [i for i in edges if i not in removed], loops)
        if fallback is None or _key(chain) > _key(fallback):
            fallback = chain
        if _key(chain) == bound:
            return bound, chain
    return bound, fallback


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
            got = [
                (1 << i, i, lay, lay[1]) for i, t in enumerate(tiles) for lay in placements(t, end, wild)
            ]
            # doubles of this end first (they keep the end), then heavier tiles
            got.sort(key=lambda m: (m[3] != end, -weights[m[1]], m[2]))
            moves_cache[end] = got
        return got

    def bound(end: int, used: int) -> tuple[int, int]:
        """At most how many tiles (and pips) can still be laid from ``end``."""
        free = everything & ~used
        if wild:
            comp = free
        else:
            comp = 0
            frontier = by_value.get(end, 0) & free
            while frontier:
                comp |= frontier
                low = frontier & -frontier
                frontier ^= low
                a, b = tiles[low.bit_length() - 1]
                frontier |= (by_value[a] | by_value[b]) & free & ~comp
        return bin(comp).count("1"), sum(weights[i] for i in range(n) if comp >> i & 1)

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
        more, more_pips = bound(end, used)
        if (length + more, weight + more_pips) <= best_key:
            return False
        cand = [m for m in moves(end) if not used & m[0]]
        if cand and cand[0][3] == end and not wild:
            cand = cand[:1]  # a double of this end is a free extension: never worse
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
    hand_t = [_canon(t) for t in hand]
    chain = plan_train(hand_t, open_end, wild, budget)
    in_chain = {_canon(t) for t in chain}
    extras = sorted((t for t in hand_t if t not in in_chain), key=lambda t: (-(t[0] + t[1]), -t[1], -t[0]))
    return chain, tuple(extras)
