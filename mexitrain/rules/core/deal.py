"""Dealing and starting a round (docs/rules.md §2, §3): from seeded generators of the game's seed
(never the global one: :mod:`mexitrain.rules.seeds` makes them, keyed for a sealed seed), in a
fixed order, so that saved games and records deal the same hands from their seed (tests/rules/test_record_fixtures.py)."""

from __future__ import annotations

import random

from ..ruleset import RuleSet
from ..seeds import first_rng, round_rng
from .compact import Core
from .lookup import CHAIN, TURN, Lookup, lookup


def shuffle(rng: random.Random, x: list) -> None:
    """``rng.shuffle(x)``: the same permutation from the same draws (``Random.shuffle`` swaps
    ``x[i]`` with ``x[_randbelow(i + 1)]`` for ``i`` from the end down to 1, and
    ``_randbelow(n)`` draws ``n.bit_length()`` bits until one is below ``n``: CPython 3.11
    to 3.13), without a Python call per tile. Where the generator draws otherwise (checked
    once, below) it is ``rng.shuffle``; tests/rules/test_core_fast_paths.py holds the two equal."""
    if not _SAME_DRAWS or type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    size = len(x)
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = [(i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1)]
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def permuted(rng: random.Random, x: list) -> list:
    """``rng.sample(x, len(x))``: a shuffled copy, the same one from the same draws
    (``Random.sample`` takes ``pool[_randbelow(n - i)]`` for each ``i`` and moves the pool's
    last item into its place: its pool method, which a whole sample always uses), without a
    Python call per item: the expert's orders of the boneyard in its rollouts. Where the
    generator draws otherwise it is ``rng.sample``, as :func:`shuffle`."""
    if not _SAME_DRAWS or type(rng) is not random.Random:
        return rng.sample(x, len(x))
    getrandbits = rng.getrandbits
    size = len(x)
    steps = _PICKS.get(size)
    if steps is None:
        steps = _PICKS[size] = [(i, size - i, (size - i).bit_length()) for i in range(size)]
    pool = x[:]
    out = x[:]
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        out[i] = pool[j]
        pool[j] = pool[n - 1]
    return out


_STEPS: dict[int, list[tuple[int, int, int]]] = {}  # per length: (i, i + 1, its bit length)
_PICKS: dict[int, list[tuple[int, int, int]]] = {}  # per length: (i, size - i, its bit length)
_SAME_DRAWS = True


def _same_draws() -> bool:
    for seed in range(20):
        a, b = list(range(190)), list(range(190))
        random.Random(seed).shuffle(a)
        shuffle(random.Random(seed), b)
        if a != b or random.Random(seed).sample(a, 190) != permuted(random.Random(seed), a):
            return False
    return True


_SAME_DRAWS = _same_draws()


def shuffled(tab: Lookup, seed: int, number: int) -> tuple[int | None, list[int]]:
    """``(engine or None, tile ids in dealt order)`` of round ``number`` (§2: a descending
    engine is removed before shuffling)."""
    ids = list(range(tab.size))
    engine = None
    if tab.descending:
        engine = tab.set - (number - 1)
        ids.remove(tab.id_of[(engine, engine)])
    shuffle(round_rng(seed, number), ids)  # keyed or classic by the seed (rules/seeds.py)
    return engine, ids


def deal(rules: RuleSet, players: int, seed: int, number: int):
    """The deal of round ``number``: ``(engine or None, hands, boneyard)`` (public as
    ``mexitrain.rules.deal``). With descending engines the engine double is removed before
    shuffling (§2); with ``engine=highest_double`` the whole set is dealt and the engine is
    found afterwards."""
    tab = lookup(rules, players)
    engine, ids = shuffled(tab, seed, number)
    each, tiles = tab.each, tab.tiles
    hands = tuple(tuple(tiles[i] for i in ids[s * each : (s + 1) * each]) for s in range(players))
    return engine, hands, tuple(tiles[i] for i in ids[players * each :])


def _heaviest_key(t: tuple[int, int]) -> tuple[int, bool, int]:
    return (t[0] + t[1], t[0] == t[1], t[1])


def first_seat(tab: Lookup, seed: int, hands) -> int:
    """Round 1's first seat (§3): chosen, holder of the heaviest tile, or drawn at random."""
    rules = tab.rules
    if rules.first_player == "chosen":
        return rules.first_seat
    if rules.first_player == "heaviest":
        best = max((t for h in hands for t in h), key=_heaviest_key)
        return next(i for i, h in enumerate(hands) if best in h)
    return first_rng(seed).randrange(tab.n)


def start_round(c: Core, number: int) -> None:
    """Deal round ``number`` into ``c`` (its starter is set, or None for round 1)."""
    tab = c.tab
    n, each, tiles = tab.n, tab.each, tab.tiles
    engine, ids = shuffled(tab, c.seed, number)
    hands_ids = [ids[s * each : (s + 1) * each] for s in range(n)]
    bone = ids[n * each :]
    tile = tiles.__getitem__
    c.dealt_hands = dealt = tuple([tuple(map(tile, h)) for h in hands_ids])
    c.dealt_boneyard = tuple(map(tile, bone))
    if c.starter is None:
        c.starter = first_seat(tab, c.seed, dealt)
    first = (c.starter + number - 1) % n
    bpos = 0
    engine_seat = None
    if engine is None:  # engine = highest_double (§3)
        held = [(tiles[i][0], s) for s, h in enumerate(hands_ids) for i in h if tiles[i][0] == tiles[i][1]]
        seat = first
        while not held:  # house default: seats draw in turn until a double appears
            i = bone[bpos]
            bpos += 1
            hands_ids[seat].append(i)
            if tiles[i][0] == tiles[i][1]:
                held.append((tiles[i][0], seat))
            seat = (seat + 1) % n
        engine, engine_seat = max(held)
        hands_ids[engine_seat].remove(tab.id_of[(engine, engine)])
        first = (engine_seat + 1) % n
    bit = tab.bit.__getitem__
    hands = [sum(map(bit, h)) for h in hands_ids]  # distinct bits: their sum is their union
    off = tab.all_bits ^ bit(tab.id_of[(engine, engine)])  # every tile but the engine
    c.round = number
    c.engine = engine
    c.engine_seat = engine_seat
    c.first_seat = first
    c.turn = first
    c.phase = TURN
    c.hands = hands
    c.order = ids  # never changed: the hands and the boneyard are copies
    c.rank = None  # worked out when a snapshot or a result needs it (scoring.ranks)
    c.bone = bone
    c.bpos = bpos
    c.off = off
    c.train_lines = tab.trunk_lines[:]  # the inner lists are replaced, never changed
    c.ends = [engine] * (n + 1)
    c.laid = [[] for _ in range(n + 1)]
    c.starts = [engine] * (n + 1)
    c.line_ti = tab.trunk_ti  # lists replaced, never changed (see Core.copy): shared
    c.line_li = tab.trunk_li
    c.base = tab.trunk_base
    c.open_dbl = []
    c.marker = [tab.public_start] * n + [False]
    c.mexican_starter = None
    c.dline = -1
    c.drawn = -1
    c.swan_pos = None
    c.chain_right = [tab.chain_opening] * n
    c.queue = []
    c.failed = [False] * n
    c.idle = 0
    c.events = []
    c.plays_cache = None
    c.mbits = (1 << n) - 1 if tab.public_start else 0
    if tab.simultaneous:
        c.phase = CHAIN
        c.queue = [(first + k) % n for k in range(1, n)]
