"""Hand-made positions for the rules tests, written the way a person reads a table.

>>> s = position(RuleSet(), hands=[[(5, 3)], [(1, 2)]], trains={0: [(12, 5)]}, turn=0)
>>> s.trains[0].end()
5

``hands`` is a list (seat order) or a ``{seat: tiles}`` dict; tiles may be written either way
round. ``trains`` maps a seat or ``"mexican"`` to the laid tiles of its trunk, written
``(half against the open end, new open end)``, or to a list of lines ``[trunk, (start,
[tiles]), ...]`` for branching doubles, or to a ready :class:`Train`. Everything else keeps
the values of a fresh ``new_game`` (rules, seed, chain rights), so the position obeys the
rule set it is built with.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from mexitrain.rules import (
    MEXICAN,
    Action,
    GameState,
    RuleSet,
    Train,
    apply,
    full_set,
    legal_actions,
    new_game,
    tile,
)

Tiles = Iterable[tuple[int, int]]


def _canon(tiles: Tiles) -> tuple[tuple[int, int], ...]:
    return tuple(tile(a, b) for a, b in tiles)


def _train(owner: int | None, spec, engine: int, marker: bool) -> Train:
    if isinstance(spec, Train):
        return spec
    spec = list(spec)
    if spec and isinstance(spec[0], list | tuple) and spec[0] and isinstance(spec[0][0], tuple):
        # a list of lines: [trunk, (start, [tiles]), ...]
        trunk, *branches = spec
        lines = [tuple(trunk)]
        starts = [engine]
        for start, laid in branches:
            lines.append(tuple(laid))
            starts.append(start)
        return Train(owner=owner, lines=tuple(lines), starts=tuple(starts), marker=marker)
    return Train(owner=owner, lines=(tuple(spec),), starts=(engine,), marker=marker)


def position(
    rules: RuleSet | None = None,
    *,
    hands: Sequence[Tiles] | Mapping[int, Tiles],
    boneyard: Tiles = (),
    trains: Mapping[int | str, object] | None = None,
    markers: Iterable[int] = (),
    turn: int = 0,
    first_seat: int | None = None,
    engine: int = 12,
    players: int | None = None,
    phase: str = "turn",
    drawn: tuple[int, int] | None = None,
    double_line: tuple[int | str, int] | None = None,
    mexican_starter: int | None = None,
    chain_right: Sequence[bool] | None = None,
    failed: Sequence[bool] | None = None,
    swan_pos: int | None = None,
    idle_turns: int = 0,
    opening_queue: Sequence[int] = (),
    round: int = 1,
    seed: int = 0,
    check_unique: bool = True,
) -> GameState:
    """A snapshot of ``rules`` with exactly these hands, boneyard, trains and markers."""
    rules = rules or RuleSet()
    if isinstance(hands, Mapping):
        n = players or (max(hands) + 1)
        hand_list = [_canon(hands.get(i, ())) for i in range(n)]
    else:
        hand_list = [_canon(h) for h in hands]
        n = players or len(hand_list)
    base = new_game(rules, players=n, seed=seed)
    markers = set(markers)
    public = rules.trains_start_public
    specs = dict(trains or {})
    train_list = []
    for owner in [*range(n), None]:
        ref = MEXICAN if owner is None else owner
        marker = owner is not None and (owner in markers or (public and ref not in specs))
        train_list.append(_train(owner, specs.get(ref, ()), engine, marker))
    boneyard = _canon(boneyard)
    if check_unique:
        seen = Counter(t for h in hand_list for t in h)
        seen.update(boneyard)
        seen.update(tile(a, b) for tr in train_list for a, b in tr.tiles)
        seen[(engine, engine)] += 1
        dupes = [t for t, k in seen.items() if k > 1]
        assert not dupes, f"position holds a tile twice: {dupes}"
    if double_line is not None:
        ref, line = double_line
        double_line = (n if ref == MEXICAN else ref, line)
    update = dict(
        round=round,
        engine=engine,
        engine_seat=None,
        first_seat=turn if first_seat is None else first_seat,
        turn=turn,
        phase=phase,
        hands=tuple(hand_list),
        boneyard=boneyard,
        trains=tuple(train_list),
        mexican_starter=mexican_starter,
        double_line=double_line,
        drawn=None if drawn is None else tile(*drawn),
        swan_pos=swan_pos,
        chain_right=tuple(chain_right) if chain_right is not None else base.chain_right,
        opening_queue=tuple(opening_queue),
        failed=tuple(failed) if failed is not None else (False,) * n,
        idle_turns=idle_turns,
        dealt_hands=tuple(hand_list),
        dealt_boneyard=boneyard,
        events=(),
        results=(),
        winners=(),
    )
    return base.model_copy(update=update)


def rest(n: int, *used: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Every tile of the double-``n`` set not in ``used`` (in set order)."""
    taken = {tile(a, b) for group in used for a, b in group}
    return [t for t in full_set(n) if t not in taken]


def run(state: GameState, *actions: Action) -> GameState:
    """Apply ``actions`` in turn."""
    for action in actions:
        state = apply(state, action)
    return state


def plays(state: GameState) -> set[tuple[tuple[int, int], int | str]]:
    """The legal plays as ``(laid tile, train)`` pairs."""
    return {(a.tile, a.train) for a in legal_actions(state) if a.type == "play"}


def branch_plays(state: GameState) -> set[tuple[tuple[int, int], int | str, int]]:
    """The legal plays as ``(laid tile, train, branch)``."""
    return {(a.tile, a.train, a.branch) for a in legal_actions(state) if a.type == "play"}


def kinds(state: GameState) -> set[str]:
    """The kinds of legal action: play, draw, mark, pass, skip."""
    return {a.type for a in legal_actions(state)}


def pip_count(tiles: Tiles) -> int:
    return sum(a + b for a, b in tiles)


def prepared(setup, **update) -> GameState:
    """The setup's first deal with some fields replaced (hands, boneyard, trains, turn...),
    validated as a snapshot: a tile written high half first (6-0) is refused here, not
    silently ignored by the legal moves later."""
    state = new_game(setup.rules, players=len(setup.seats), seed=setup.seed)
    return GameState.model_validate({**dict(state), **update})


def empty_trains(state, engine: int):
    n = state.players
    return tuple(Train(owner=i, lines=((),), starts=(engine,)) for i in range(n)) + (
        Train(owner=None, lines=((),), starts=(engine,)),
    )


def planner_positions(rules: RuleSet, seed: int, count: int, share: float = 0.3, choices_only: bool = True):
    """Up to ``count`` states along a 4-player game of planners (seats seeded 0..3): each
    state is kept with probability ``share`` (only where the seat to move has a real choice
    when ``choices_only``), drawn from ``random.Random(seed)``."""
    import random

    from mexitrain.players import make_player
    from mexitrain.rules import view

    state = new_game(rules, 4, seed)
    players = [make_player("planner", i) for i in range(4)]
    rng = random.Random(seed)
    out = []
    while not state.over and len(out) < count:
        if (not choices_only or len(legal_actions(state)) > 1) and rng.random() < share:
            out.append(state)
        state = apply(state, players[state.turn].choose(view(state, state.turn)))
    return out


def redistribute(state: GameState, seat: int, rng) -> GameState:
    """The same position with the tiles hidden from ``seat`` dealt again (same hand sizes,
    same tiles, the boneyard's order changed too)."""
    hidden = [i for i in range(state.players) if i != seat]
    pool = [t for i in hidden for t in state.hands[i]] + list(state.boneyard)
    rng.shuffle(pool)
    hands = list(state.hands)
    for i in hidden:
        k = len(hands[i])
        hands[i] = tuple(pool[:k])
        del pool[:k]
    return state.model_copy(update={"hands": tuple(hands), "boneyard": tuple(pool)})
