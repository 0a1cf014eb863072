"""The expert's rollouts on the rules core choose exactly as the planner on the reducer.

:func:`mexitrain.players.expert.rollout` plays the rest of a round on a copy of the rules core
(its ``legal`` and ``step``) with the planner's rollout policy read off the core's fields
(:mod:`mexitrain.players.playout`); :func:`~mexitrain.players.expert.reducer_rollout` plays it
through ``apply`` and ``legal_actions`` with the planner's own ``planner_decide``. The rules
are the same code (the core, proven equal to the reducer by tests/rules/test_core_lockstep.py);
what these tests hold together is the policy: same choices, so the same outcome and the same
number of actions, from states of random games under every preset and random options (teams,
both team markers, blanks wild, must-satisfy doubles, play until blocked, every opening and
engine), stopped at random points, openings under way included. A large sample runs with
MEXITRAIN_HEAVY=1.
"""

from __future__ import annotations

import random

import pytest

from mexitrain.players.expert import one_round, reducer_rollout, rollout
from mexitrain.players.planner import DEFAULT_WEIGHTS, TUNED_WEIGHTS, Weights
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
        state = one_round(new_game(rules, players, rng.randrange(10**6)))
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
    """docs/rules.md §4-§8: same outcome, same number of actions, state by state."""
    _compare(seed, 120)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 23))
def test_playout_plays_the_reducers_round_heavy(seed: int) -> None:
    """docs/rules.md §4-§8, the large sample (MEXITRAIN_HEAVY=1)."""
    _compare(seed, 300)


#: The planner's weights a seat may play with in rollouts: the planner level's, the expert's
#: tuned ones, and far-off ones so that the weights surely change some choices.
WEIGHTS = (DEFAULT_WEIGHTS, TUNED_WEIGHTS, Weights(pips=1.5, pips_danger=0.1, shed=40, shed_last=5))


def test_a_drive_blocked_by_a_double_left_by_a_chain_opening() -> None:
    """docs/rules.md §6 + §8 swan_drive: the drive stops at a train an open double blocks, in the
    core rollout as in the reducer (the Mexican Train's 5-5, left open by a chain opening)."""
    from support.positions import position

    from mexitrain.rules import MEXICAN

    rules = RuleSet(swan_drive=True, opening="first_turn_chain", rounds=1)
    trains = {0: [(12, 1), (1, 1)], 1: [(12, 2)], 2: [(12, 3)], MEXICAN: [(12, 5), (5, 5)]}
    state = position(rules, hands=[[(1, 7), (2, 8), (4, 10)], [(9, 9), (3, 6)], [(10, 10), (5, 6)]],
                     trains=trains, markers={1}, mexican_starter=2, chain_right=[False] * 3,
                     boneyard=[(0, 0), (6, 6), (0, 1), (0, 2), (0, 3)])
    queues = [list(state.boneyard)] * 3
    for steps in range(1, 30):  # cut short after each action: the same hands all the way
        assert rollout(state, 0, queues, steps) == reducer_rollout(state, 0, queues, steps), steps


def test_playout_with_swan_drives_after_chain_openings() -> None:
    """docs/rules.md §6 + §8: chain openings can leave several doubles open during swan drives."""
    forced = {"swan_drive": ["1"], "opening": ["first_turn_chain", "delayed_first_turn", "simultaneous"]}
    _compare(41, 60, forced, checks=False)


def _compare(seed: int, count: int, forced: dict | None = None, checks: bool = True) -> None:
    openings = branched = swans = 0
    pick = random.Random(f"weights {seed}")
    for state, seat, queues in random_states(count, seed, forced):
        weights = [pick.choice(WEIGHTS) for _ in range(state.players)]
        fast = rollout(state, seat, queues, weights=weights)
        slow = reducer_rollout(state, seat, queues, weights=weights)
        assert fast == slow, (state.rules.model_dump(exclude_defaults=True), state.players, state.phase)
        openings += state.phase == "chain" or any(state.chain_right)
        branched += any(len(t.lines) > 1 for t in state.trains)
        swans += state.rules.swan_drive
    if not checks:
        return
    assert openings >= 3  # some rollouts start with an opening under way (§8)
    assert branched >= 3  # some of them have branches (§8 branching_doubles)
    assert swans >= 10  # and some are played with the swan drive (§8 swan_drive)


def test_openings_under_way_on_the_core() -> None:
    """docs/rules.md §8 openings: rollouts from a chain right unused or a simultaneous opening under
    way (which the old list playout left to the reducer) choose as the planner does there:
    the chain-start bonus, the pass of a drawn tile by choice (delayed_first_turn)."""
    for opening in ("first_turn_chain", "delayed_first_turn", "simultaneous"):
        rules = RuleSet(opening=opening, rounds=1)
        for players in (2, 4):
            for seed in range(6):
                state = new_game(rules, players, seed)
                rng = random.Random(seed)
                queues = [rng.sample(state.boneyard, len(state.boneyard)) for _ in range(players)]
                for steps in (1, 3, 8, 5000):
                    fast = rollout(state, 0, queues, steps)
                    assert fast == reducer_rollout(state, 0, queues, steps), (opening, players, seed, steps)


def test_playout_leaves_the_state_alone_and_ends_the_round() -> None:
    """A rollout only reads the snapshot; the round ends by docs/rules.md §7 (a domino scores 0)."""
    state = one_round(new_game(RuleSet(), 2, 8))
    before = state.model_dump()
    rng = random.Random(4)
    queues = [rng.sample(state.boneyard, len(state.boneyard)) for _ in range(2)]
    value, steps = rollout(state, 0, queues)
    assert state.model_dump() == before
    assert steps > 20 and value == reducer_rollout(state, 0, queues)[0]


def test_a_drawn_tile_kept_by_choice_on_the_core() -> None:
    """docs/rules.md §8 delayed_first_turn: the drawn 12-0 could start the seat's own train, but its
    planned chain 12-1 ... 6-7 starts elsewhere: the planner passes by choice, and so does the
    rollout policy on the core (then the whole rollout agrees, action for action)."""
    from support.positions import position

    from mexitrain.players.planner import PlanBook, planner_decide
    from mexitrain.players.playout import decide, start
    from mexitrain.rules.core import M_PASS, legal

    rules = RuleSet(opening="delayed_first_turn", rounds=1)
    chain = [(1, 12), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)]
    state = position(rules, phase="drawn", drawn=(0, 12), chain_right=[True, True],
                     hands=[[*chain, (0, 12)], [(8, 9), (9, 10), (10, 11)]],
                     trains={"mexican": [(12, 5)]}, mexican_starter=1,
                     boneyard=[(0, 0), (0, 1), (0, 2), (0, 3), (8, 8)])
    legal_now = legal_actions(state)
    assert [a.type for a in legal_now] == ["play", "pass"]
    assert planner_decide(state, 0, legal_now, None, 30, PlanBook(False, 30))[0].type == "pass"
    core = start(state)
    assert decide(core, legal(core), {}, 30, DEFAULT_WEIGHTS) == M_PASS
    queues = [list(state.boneyard)] * 2
    for steps in range(1, 40):
        assert rollout(state, 0, queues, steps) == reducer_rollout(state, 0, queues, steps), steps


@pytest.mark.parametrize("wild, sizes", [(False, (0, 20)), (True, (0, 20)), (False, (50, 70)), (True, (50, 70))])
def test_the_plan_search_on_masks_is_plan_train(wild: bool, sizes: tuple[int, int]) -> None:
    """§9 (plan your own train): the rollouts' plan search on the core's tile masks, and its
    cache keyed by the tiles a chain can reach, give plan_train's chain (exact=False) for the
    whole hand, on random hands of every size and every end, at small and large budgets;
    hands of more than playout.LOCAL_TILES tiles (planned by plan_train itself) and of just
    fewer (the highest bits of the search's small masks) included."""
    from mexitrain.players import playout
    from mexitrain.players.plans import plan_train
    from mexitrain.rules import make_rules
    from mexitrain.rules.core import new_game

    rules = make_rules("standard", {"blanks_wild": "yes" if wild else "no"})
    c = new_game(rules, players=2, seed=1)
    tab = c.tab
    rng = random.Random(5)
    paths = set()  # planned by plan_train itself (True), by the search on small masks (False)
    for _ in range(300 if sizes[1] <= 20 else 40):
        ids = rng.sample(range(tab.size), rng.randint(*sizes))
        hand = 0
        for i in ids:
            hand |= tab.bit[i]
        end = rng.randint(0, 12)
        budget = rng.choice([5, 30, 200])
        want = plan_train([tab.tiles[i] for i in ids], end, wild, budget, False)
        reach = playout.reach(tab, hand, end)
        paths.add(reach.bit_count() > playout.LOCAL_TILES)
        plan, index, mask, key = playout._plan(c, reach, end, wild, budget)
        assert plan == tuple(a * 19 + b for a, b in want)
        assert key == (len(want), sum(a + b for a, b in want))
        assert sorted(index.values()) == list(range(len(plan))) and mask.bit_count() == len(plan)
    assert paths == ({False} if sizes[1] <= playout.LOCAL_TILES else {False, True})


def test_a_dealer_deals_the_cores_of_determinize() -> None:
    """§3 (the deal): the expert's deals as cores (playout.Dealer) are the cores of the
    snapshots determinize deals (field by field, the deal order included), and take the same
    numbers from the generator, on random tables and positions of every seat."""
    from mexitrain.players.knowledge import Sampler
    from mexitrain.players.playout import Dealer, start
    from mexitrain.rules import determinize, view
    from mexitrain.rules.core.compact import Core
    from mexitrain.rules.core.scoring import ranks

    for state, seat, _ in random_states(60, 11):
        v = view(state, seat)
        sampler = Sampler(v)
        dealer = Dealer(v, one_round)
        for k in range(3):
            a, b = random.Random(k), random.Random(k)
            hidden = sampler.hands(a)
            assert sampler.hands(b) == hidden
            got, bone = dealer.deal(a, hidden)
            want = start(one_round(determinize(v, b, hands=hidden)))
            assert a.random() == b.random()  # the same draws from the generator
            assert bone == want.bone
            ranks(got)
            for field in Core.__slots__:
                assert getattr(got, field) == getattr(want, field), field


def test_a_plan_search_leaves_no_reference_cycle() -> None:
    """The plan search (playout.PlanSearch) frees everything it made by reference counting:
    the expert pauses Python's cycle collector while it searches, so a cycle per plan (as the
    recursive closure it once was made) would pile up until the search ends."""
    import gc

    from mexitrain.players import playout
    from mexitrain.rules import make_rules
    from mexitrain.rules.core import new_game as core_game

    c = core_game(make_rules("standard", {}), 4, seed=3)
    tab = c.tab
    gc.collect()
    gc.disable()
    try:
        for seat in range(4):
            hand = c.hands[seat]
            for end in range(13):
                plan, _, _, (length, _) = playout._plan(c, playout.reach(tab, hand, end), end, False, 200)
                assert len(plan) == length
        assert gc.collect() == 0
    finally:
        gc.enable()
