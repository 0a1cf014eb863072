"""The compact core (mexitrain/rules/core) and the public reducer are one rule book.

The reducer (``apply``, ``legal_actions``, ``new_game``) now runs on the core, so this is no
longer a comparison of two implementations: the proof that the rules did not change is the
record fixtures written by the old reducer (tests/rules/test_record_fixtures.py: same final
snapshots, same bytes) and the § tests. What is checked here is that the public API stays
the core's game over random games under random rule sets (every option of docs/rules.md §8,
every set of §1, 2 to 13 players), after EVERY action:

- the reducer's snapshots, built incrementally from the core each snapshot keeps, equal a
  full ``to_state`` of a core stepped in place with the same moves;
- ``legal_actions`` is ``core.legal`` in the same order, and the same on a copy of the
  snapshot that keeps no core (``model_copy``: its core is read back with ``from_state``);
- illegal actions are refused with the same IllegalAction, code and values, by ``apply``
  on the snapshot, by ``apply`` on a copy without a core, and by ``core.check``; a refusal
  leaves the snapshot (and the core it keeps) as it was.

A small sample always runs; MEXITRAIN_HEAVY=1 runs the ``slow`` heavy sample.
"""

from __future__ import annotations

import random

import pytest
from support.positions import position
from support.tables import random_table

from mexitrain.rules import (
    DRAW,
    MARK,
    MEXICAN,
    PASS,
    PRESETS,
    SKIP,
    GameState,
    IllegalAction,
    Play,
    RuleSet,
    apply,
    core,
    deal,
    full_set,
    legal_actions,
    new_game,
)
from mexitrain.rules.engine import core_of
from mexitrain.rules.state import attached_core


def _refusal(fn, *args) -> tuple[str, dict] | None:
    try:
        fn(*args)
    except IllegalAction as exc:
        return exc.code, exc.values
    return None


def _illegal_sample(state: GameState, rng: random.Random, legal: set, k: int) -> list:
    """Up to ``k`` illegal actions: hand and drawn tiles, both ways round, on every train
    and a few branches, tiles of no hand, and the four other actions."""
    n = state.players
    tiles = set(state.hands[state.turn]) | {rng.choice(full_set(18)) for _ in range(2)}
    pool = [DRAW, MARK, PASS, SKIP]
    refs = [*range(n), MEXICAN]
    for a, b in tiles:
        for lay in ((a, b), (b, a)):
            for ref in refs:
                pool.append(Play(tile=lay, train=ref, branch=rng.choice((0, 0, 1, 2))))
    pool.append(Play(tile=(0, 1), train=n, branch=0))  # no such train
    bad = [a for a in pool if a not in legal]
    return rng.sample(bad, min(k, len(bad)))


def lockstep(
    rules: RuleSet,
    players: int,
    seed: int,
    rng: random.Random,
    illegal: int = 3,
    roundtrip_every: int = 7,
) -> int:
    """Play one game both ways with random legal actions; returns the number of actions."""
    state = new_game(rules, players=players, seed=seed)
    c = core.new_game(rules, players=players, seed=seed)
    assert core.to_state(c) == state
    return play_both(state, c, rng, illegal, roundtrip_every)


def play_both(
    state: GameState, c: core.Core, rng: random.Random, illegal: int = 3, roundtrip_every: int = 7
) -> int:
    """Play on from ``state`` (the public reducer) and ``c`` (the core, stepped in place)
    with the same random legal actions, checking them against each other after every
    action; returns the number of actions."""
    steps = 0
    while True:
        expected = legal_actions(state)
        moves = core.legal(c)
        assert core.actions(c, moves) == expected, (steps, state.phase)
        legal = set(expected)
        bare = state.model_copy()  # keeps no core: the reducer reads it back from the fields
        if steps % roundtrip_every == 0 or state.over:
            assert attached_core(bare) is None
            assert legal_actions(bare) == expected
            back = core.from_state(state)
            assert core.to_state(back) == state
            assert core.legal(back) == moves
        for action in _illegal_sample(state, rng, legal, illegal):
            want = _refusal(apply, state, action)
            assert want is not None, action
            assert _refusal(core.check, c, action) == want, (steps, action)
            assert _refusal(apply, bare, action) == want, (steps, action)
        if state.over:
            assert _refusal(core.check, c, DRAW) == ("game_over", {})
            return steps
        i = rng.randrange(len(expected))
        kept = core.to_state(core_of(state)) if steps % roundtrip_every == 0 else None
        after = apply(state, expected[i])
        if kept is not None:
            assert core.to_state(core_of(state)) == kept == state  # not stepped in place
        if steps % roundtrip_every == 0:
            assert apply(bare, expected[i]) == after
        state = after
        core.step(c, moves[i])
        steps += 1
        assert core.to_state(c) == state, (steps, expected[i])


def test_deal_is_what_a_game_deals():  # §2, §3
    """``deal`` (the core's, exported as ``mexitrain.rules.deal``) is what ``new_game`` and
    the next rounds deal: hands and boneyard as dealt, the engine double out of them."""
    rng = random.Random(5)
    for _ in range(40):
        rules, players = random_table(rng)
        seed = rng.randrange(10**6)
        assert deal is core.deal
        engine, hands, boneyard = deal(rules, players, seed, 1)
        state = new_game(rules, players=players, seed=seed)
        assert (hands, boneyard) == (state.dealt_hands, state.dealt_boneyard)
        if engine is not None:  # descending (§2); highest_double is found afterwards (§3)
            assert state.engine == engine
            assert (engine, engine) not in {t for h in hands for t in h} | set(boneyard)


def test_lockstep_random_tables():  # §1-§8
    rng = random.Random(2024)
    total = 0
    for _ in range(60):
        rules, players = random_table(rng, max_players=8)
        total += lockstep(rules, players, rng.randrange(10**6), rng)
    assert total > 2000  # the sample really plays


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_lockstep_whole_games(preset):  # §3: every round of a whole game (13 on double-12)
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for seed in (1, 2):
        lockstep(rules, players=4 if seed == 1 else 3, seed=seed, rng=rng, illegal=1,
                 roundtrip_every=29)


def test_lockstep_option_corners():  # §6, §8: options that interact
    rng = random.Random(8)
    corners = [
        dict(opening="simultaneous", branching_doubles=True, swan_drive=True),
        dict(opening="first_turn_chain", branching_doubles=True, blanks_wild=True),
        dict(opening="delayed_first_turn", swan_drive=True, double_follow_up="must_satisfy"),
        dict(teams=True, team_marker="both_stuck", round_end="until_blocked"),
        dict(teams=True, swan_drive=True, trains_start_public=True, blanks_wild=True),
        dict(engine="highest_double", rounds=3, first_player="heaviest"),
    ]
    for options in corners:
        for s in range(4):
            rules = RuleSet(set=rng.choice([6, 9, 12]), rounds=options.get("rounds", 2),
                            **{k: v for k, v in options.items() if k != "rounds"})
            lockstep(rules, players=4, seed=s, rng=rng)


def test_copy_is_independent():
    c = core.new_game(RuleSet(), players=4, seed=3)
    before = core.to_state(c)
    d = c.copy()
    rng = random.Random(1)
    for _ in range(200):
        core.step(d, rng.choice(core.legal(d)))
    assert core.to_state(c) == before
    assert core.to_state(d) != before


def test_lockstep_from_a_position_with_two_open_doubles():  # §6: several open at once
    rules = RuleSet(opening="first_turn_chain", rounds=1)
    state = position(
        rules,
        hands={0: [(1, 2), (2, 9)], 1: [(3, 4), (4, 11)], 2: [(5, 6), (7, 8), (9, 10)]},
        boneyard=[(0, 0), (0, 1), (6, 6), (8, 8)],
        trains={0: [(12, 5), (5, 5)], 1: [(12, 7), (7, 7)]},
        turn=2,
        chain_right=(False, False, False),
    )
    c = core.from_state(state)
    assert core.to_state(c) == state
    assert core.actions(c, core.legal(c)) == legal_actions(state)
    assert [(a.tile, a.train) for a in legal_actions(state)] == [((5, 6), 0), ((7, 8), 1)]
    for seed in range(6):
        play_both(state, core.from_state(state), random.Random(seed), roundtrip_every=1)


def test_refused_action_leaves_the_core_as_it_was():  # §5: a refusal changes nothing
    c = core.new_game(RuleSet(), players=4, seed=3)
    before = core.to_state(c)
    with pytest.raises(IllegalAction) as info:
        core.apply_action(c, DRAW)
    assert info.value.code == "must_play"
    assert core.to_state(c) == before
    core.apply_action(c, legal_actions(before)[0])
    assert core.to_state(c) == apply(before, legal_actions(before)[0])


@pytest.mark.slow
def test_lockstep_heavy():  # §1-§8, thousands of games
    rng = random.Random(77)
    for _ in range(1500):
        rules, players = random_table(rng)
        lockstep(rules, players, rng.randrange(10**6), rng, illegal=2, roundtrip_every=5)


# -- the snapshot and the core it keeps --------------------------------------------------------
def _played(rules: RuleSet, players: int, seed: int, actions: int) -> GameState:
    state = new_game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_the_reducer_steps_from_the_core_a_snapshot_keeps(monkeypatch):  # §5
    """A snapshot from new_game/apply keeps its core: the next apply and legal_actions do
    not read the pydantic form back (from_state), and never change that core in place."""
    state = _played(RuleSet(), 4, 11, 30)
    kept = attached_core(state)
    assert kept is not None and core.to_state(kept) == state

    def refuse(_state):
        raise AssertionError("from_state called on a snapshot that keeps its core")

    monkeypatch.setattr(core, "from_state", refuse)
    rng = random.Random(3)
    before = core.to_state(kept)
    for _ in range(40):
        if state.over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    assert core.to_state(kept) == before


def test_copies_of_a_snapshot_never_reuse_a_stale_core():  # §2, §5
    """model_copy(update=...), model_validate of a dump, deepcopy and pickle: none carries
    the private core, so a copy with other fields is played from its own fields."""
    import copy
    import pickle

    state = new_game(RuleSet(), players=2, seed=4)
    seat = state.turn
    # give the seat to move a hand with no play at all: it must draw
    dud = tuple(t for t in full_set(12) if 12 not in t and t not in state.boneyard)
    dud = tuple(t for t in dud if t not in state.hands[1 - seat])[: len(state.hands[seat])]
    hands = tuple(dud if s == seat else h for s, h in enumerate(state.hands))
    changed = state.model_copy(update={"hands": hands})
    assert attached_core(changed) is None
    assert legal_actions(changed) == (DRAW,)
    assert legal_actions(state) != (DRAW,)
    for twin in (
        copy.copy(state),
        copy.deepcopy(state),
        pickle.loads(pickle.dumps(state)),
        GameState.model_validate(state.model_dump()),
        GameState.model_validate_json(state.model_dump_json()),
    ):
        assert attached_core(twin) is None
        assert twin == state and hash(twin) == hash(state)
        assert twin.model_dump() == state.model_dump()
        assert legal_actions(twin) == legal_actions(state)
        assert apply(twin, legal_actions(twin)[0]) == apply(state, legal_actions(state)[0])


def test_a_snapshot_reuses_what_did_not_change():  # §5: a play changes one hand, one train
    state = _played(RuleSet(), 4, 5, 12)
    while state.phase != "turn" or legal_actions(state)[0].type != "play":
        state = apply(state, legal_actions(state)[0])
    action = legal_actions(state)[0]
    assert state.hands  # read, as a screen reads it: the next snapshot is built from it
    after = apply(state, action)
    seat, ti = state.turn, (4 if action.train == MEXICAN else action.train)
    assert after.hands[seat] != state.hands[seat]
    assert all(after.hands[s] is state.hands[s] for s in range(4) if s != seat)
    assert all(after.trains[t] is state.trains[t] for t in range(5) if t != ti)
    assert after.boneyard is state.boneyard and after.results is state.results
    assert after.events[:-1] == state.events


def test_a_seat_views_state_reads_into_the_core():  # §5: others' draws without their tile
    """determinize() gives a state whose other seats' draws have no tile: its core reads
    them and writes them back the same."""
    from mexitrain.rules import determinize, view, view_legal_actions

    state = _played(RuleSet(rounds=1), 3, 8, 60)
    assert any(e.type == "draw" for e in state.events)
    for seat in range(3):
        seen = determinize(view(state, seat))
        assert any(e.type == "draw" and e.tile is None for e in seen.events) or seat == 0
        assert core.to_state(core.from_state(seen)) == seen
        if seat == state.turn:
            assert view_legal_actions(view(state, seat)) == legal_actions(state)


def test_a_play_named_with_out_of_range_halves_is_refused():  # §4: tiles of the set only
    """Halves are 0..18: (0, 20) must not alias the lay code of (1, 1), and a half 1.0 names
    the same play as 1."""
    rules = RuleSet(rounds=1)
    state = position(rules, hands=[[(1, 1), (2, 5)], [(3, 4)]], trains={0: [(12, 1)]},
                     boneyard=[(6, 6)])
    assert Play(tile=(1, 1), train=0) in legal_actions(state)
    odd = Play.model_construct(tile=(0, 20), train=0, branch=0)
    assert _refusal(apply, state, odd)[0] == "not_in_hand"
    assert _refusal(core.check, core.from_state(state), odd)[0] == "not_in_hand"
    same = Play.model_construct(tile=(1.0, 1), train=0, branch=False)
    assert apply(state, same) == apply(state, Play(tile=(1, 1), train=0))
