"""The compact core (mexitrain/rules/core) plays exactly the reducer's game (issue 22).

Over random games under random rule sets (every option of RULES.md §8, every set of §1,
2 to 13 players), after EVERY action: the core's legal moves are the reducer's
``legal_actions`` in the same order, the core's step gives the reducer's snapshot
(``to_state(core) == apply(state, action)``), ``from_state`` reads a snapshot back, and a
sample of illegal actions is refused with the same IllegalAction code and values. A small
sample always runs; MEXITRAIN_HEAVY=1 runs the ``slow`` heavy sample.
"""

from __future__ import annotations

import random

import pytest
from positions import position

from mexitrain.rules import (
    DRAW,
    HAND_TABLES,
    MARK,
    MEXICAN,
    PASS,
    PRESETS,
    SKIP,
    GameState,
    IllegalAction,
    Play,
    RuleSet,
    RuleSetError,
    apply,
    core,
    deal,
    full_set,
    legal_actions,
    new_game,
)


def random_table(rng: random.Random, max_players: int = 13) -> tuple[RuleSet, int]:
    """A random rule set (every §8 option) and a player count it can seat."""
    while True:
        n = rng.choice([6, 9, 12, 15, 18])
        hand_table = "fast" if n == 9 and rng.random() < 0.5 else "standard"
        top = min(HAND_TABLES[(n, hand_table)][-1][0], max_players)
        teams = top >= 4 and rng.random() < 0.3
        players = rng.choice([p for p in (4, 6, 8) if p <= top]) if teams else rng.randint(2, top)
        engine = rng.choice(["descending", "highest_double"])
        hand_size = None
        if rng.random() < 0.2:
            available = len(full_set(n)) - (engine == "descending")
            hand_size = rng.randint(1, available // players)
        try:
            rules = RuleSet(
                set=n,
                hand_table=hand_table,
                hand_size=hand_size,
                rounds=rng.randint(1, 3),
                engine=engine,
                first_player=rng.choice(["random", "chosen", "heaviest"]),
                first_seat=rng.randrange(players),
                double_follow_up=rng.choice(["any", "must_satisfy"]),
                round_end=rng.choice(["boneyard_empty", "until_blocked"]),
                trains_start_public=rng.random() < 0.5,
                teams=teams,
                team_marker=rng.choice(["together", "both_stuck"]),
                open_hands=rng.random() < 0.2,
                blanks_wild=rng.random() < 0.5,
                opening=rng.choice(
                    ["normal", "simultaneous", "first_turn_chain", "delayed_first_turn"]
                ),
                branching_doubles=rng.random() < 0.5,
                swan_drive=rng.random() < 0.5,
            )
            rules.check_players(players)
        except RuleSetError:
            continue
        return rules, players


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
    """Play on from ``state`` (reducer) and ``c`` (core) with the same random legal actions,
    checking them against each other after every action; returns the number of actions."""
    steps = 0
    while True:
        expected = legal_actions(state)
        moves = core.legal(c)
        assert core.actions(c, moves) == expected, (steps, state.phase)
        legal = set(expected)
        for action in _illegal_sample(state, rng, legal, illegal):
            want = _refusal(apply, state, action)
            assert want is not None, action
            assert _refusal(core.check, c, action) == want, (steps, action)
        if steps % roundtrip_every == 0 or state.over:
            back = core.from_state(state)
            assert core.to_state(back) == state
            assert core.legal(back) == moves
        if state.over:
            assert _refusal(core.check, c, DRAW) == ("game_over", {})
            return steps
        i = rng.randrange(len(expected))
        state = apply(state, expected[i])
        core.step(c, moves[i])
        steps += 1
        assert core.to_state(c) == state, (steps, expected[i])


def test_deal_is_the_reducers():  # §2, §3
    rng = random.Random(5)
    for _ in range(40):
        rules, players = random_table(rng)
        seed = rng.randrange(10**6)
        for number in (1, 2):
            assert core.deal(rules, players, seed, number) == deal(rules, players, seed, number)


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
