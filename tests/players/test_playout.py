"""The expert's fast playout plays exactly the round the reducer plays (RULES.md §4-§8).

:func:`mexitrain.players.playout.playout` replays the rest of a round on plain lists with the
planner's rollout policy. It is only an optimisation: for every state it supports, the
outcome and the number of actions must be those of the rollout through ``apply`` and
``legal_actions``. The states come from random games under every preset and random options
(teams, both team markers, blanks wild, must-satisfy doubles, play until blocked, every
opening and engine), stopped at random points. A large sample runs with MEXITRAIN_HEAVY=1.
"""

from __future__ import annotations

import random

import pytest

from mexitrain.players.expert import _one_round, reducer_rollout, rollout
from mexitrain.players.planner import DEFAULT_WEIGHTS, TUNED_WEIGHTS, Weights
from mexitrain.players.playout import supports
from mexitrain.rules import (
    PRESETS,
    RuleSet,
    RuleSetError,
    apply,
    legal_actions,
    make_rules,
    new_game,
)

OPTIONS = {
    "set": ["6", "9", "12", "15"],
    "double_follow_up": ["any", "must_satisfy"],
    "round_end": ["boneyard_empty", "until_blocked"],
    "trains_start_public": ["0", "1"],
    "teams": ["0", "1"],
    "team_marker": ["together", "both_stuck"],
    "blanks_wild": ["0", "1"],
    "opening": ["normal", "first_turn_chain", "delayed_first_turn", "simultaneous"],
    "engine": ["descending", "highest_double"],
    "branching_doubles": ["0", "1"],
    "swan_drive": ["0", "1"],
}


def random_states(count: int, seed: int, forced: dict | None = None):
    """``count`` one-round states in the middle of random games, each with draw queues
    (``forced``: options every game has)."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        preset = rng.choice(sorted(PRESETS))
        options = {k: rng.choice(v) for k, v in OPTIONS.items() if rng.random() < 0.35}
        for k, v in (forced or {}).items():
            options[k] = rng.choice(v)
        if preset == "fast":
            options.pop("set", None)
        try:
            rules = make_rules(preset, options)
            players = 4 if rules.teams else rng.choice([2, 3, 4, 5, 6])
            rules.check_players(players)
        except RuleSetError:
            continue
        state = _one_round(new_game(rules, players, rng.randrange(10**6)))
        for _ in range(rng.randrange(0, 80)):
            if state.over:
                break
            state = apply(state, rng.choice(legal_actions(state)))
        if state.over:
            continue
        queues = [rng.sample(state.boneyard, len(state.boneyard)) for _ in range(players)]
        found += 1
        yield state, rng.randrange(players), queues


@pytest.mark.parametrize("seed", [1, 2])
def test_playout_plays_the_reducers_round(seed: int) -> None:
    """RULES.md §4-§8: same outcome, same number of actions, state by state."""
    _compare(seed, 120)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 23))
def test_playout_plays_the_reducers_round_heavy(seed: int) -> None:
    """RULES.md §4-§8, the large sample (MEXITRAIN_HEAVY=1)."""
    _compare(seed, 300)


#: The planner's weights a seat may play with in rollouts: the planner level's, the expert's
#: tuned ones, and far-off ones so that the weights surely change some choices.
WEIGHTS = (DEFAULT_WEIGHTS, TUNED_WEIGHTS, Weights(pips=1.5, pips_danger=0.1, shed=40, shed_last=5))


def test_a_drive_blocked_by_a_double_left_by_a_chain_opening() -> None:
    """RULES.md §6 + §8 swan_drive: the drive stops at a train an open double blocks, in the
    playout as in the reducer (the Mexican Train's 5-5, left open by a chain opening)."""
    from mexitrain.rules import MEXICAN
    from tests.positions import position

    rules = RuleSet(swan_drive=True, opening="first_turn_chain", rounds=1)
    trains = {0: [(12, 1), (1, 1)], 1: [(12, 2)], 2: [(12, 3)], MEXICAN: [(12, 5), (5, 5)]}
    state = position(rules, hands=[[(1, 7), (2, 8), (4, 10)], [(9, 9), (3, 6)], [(10, 10), (5, 6)]],
                     trains=trains, markers={1}, mexican_starter=2, chain_right=[False] * 3,
                     boneyard=[(0, 0), (6, 6), (0, 1), (0, 2), (0, 3)])
    assert supports(state)
    queues = [list(state.boneyard)] * 3
    for steps in range(1, 30):  # cut short after each action: the same hands all the way
        assert rollout(state, 0, queues, steps) == reducer_rollout(state, 0, queues, steps), steps


def test_playout_with_swan_drives_after_chain_openings() -> None:
    """RULES.md §6 + §8: chain openings can leave several doubles open during swan drives."""
    forced = {"swan_drive": ["1"], "opening": ["first_turn_chain", "delayed_first_turn", "simultaneous"]}
    _compare(41, 60, forced, checks=False)


def _compare(seed: int, count: int, forced: dict | None = None, checks: bool = True) -> None:
    supported = branched = swans = 0
    pick = random.Random(f"weights {seed}")
    for state, seat, queues in random_states(count, seed, forced):
        weights = [pick.choice(WEIGHTS) for _ in range(state.players)]
        fast = rollout(state, seat, queues, weights=weights)
        slow = reducer_rollout(state, seat, queues, weights=weights)
        assert fast == slow, (state.rules.model_dump(exclude_defaults=True), state.players, state.phase)
        supported += supports(state)
        branched += supports(state) and any(len(t.lines) > 1 for t in state.trains)
        swans += supports(state) and state.rules.swan_drive
    assert supported >= count // 2  # most states take the fast path: the comparison means something
    if not checks:
        return
    assert branched >= 3  # some of them have branches (§8 branching_doubles)
    assert swans >= 10  # and some are played with the swan drive (§8 swan_drive)


def test_supports_every_option_once_the_opening_is_over() -> None:
    """The playout covers the presets, RULES.md §8 branching_doubles and swan_drive; an
    opening still under way goes through the reducer."""
    for name, rules in PRESETS.items():
        assert supports(new_game(rules, 4, 3)), name
    assert supports(new_game(RuleSet(branching_doubles=True), 4, 3))
    assert supports(new_game(RuleSet(swan_drive=True), 4, 3))
    assert not supports(new_game(RuleSet(opening="first_turn_chain"), 4, 3))  # chain rights
    assert not supports(new_game(RuleSet(opening="simultaneous"), 4, 3))  # the opening phase


def test_playout_leaves_the_state_alone_and_ends_the_round() -> None:
    """The playout only reads the snapshot; the round ends by RULES.md §7 (a domino scores 0)."""
    state = _one_round(new_game(RuleSet(), 2, 8))
    before = state.model_dump()
    rng = random.Random(4)
    queues = [rng.sample(state.boneyard, len(state.boneyard)) for _ in range(2)]
    value, steps = rollout(state, 0, queues)
    assert state.model_dump() == before
    assert steps > 20 and value == reducer_rollout(state, 0, queues)[0]
