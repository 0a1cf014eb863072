"""Every rule option through the game screen: random games, each sampled state rendered.

Catches what a single preset would not: branches (branching_doubles), teams, swan drives,
opening chains, open hands, blanks wild, 13 players on double-18, long trains.
"""

from __future__ import annotations

import random

import pytest
from support.pilot import game_app, settle
from support.tables import table

from mexitrain.rules import RuleSet, apply, legal_actions, new_game, view
from mexitrain.text.events import event_line
from mexitrain.text.status import turn_line
from mexitrain.ui.board import build
from mexitrain.ui.local import LocalTable
from mexitrain.ui.widgets.log import log_lines

VARIANTS = [
    pytest.param(RuleSet(set=12, branching_doubles=True, rounds=2), 4, id="branching"),
    pytest.param(RuleSet(set=12, teams=True, rounds=1), 4, id="teams"),
    pytest.param(RuleSet(set=12, teams=True, team_marker="both_stuck", rounds=1), 6, id="teams-both-stuck"),
    pytest.param(RuleSet(set=12, swan_drive=True, rounds=1), 4, id="swan"),
    pytest.param(RuleSet(set=12, opening="simultaneous", rounds=1), 3, id="simultaneous"),
    pytest.param(RuleSet(set=12, opening="first_turn_chain", rounds=1), 3, id="first-turn-chain"),
    pytest.param(RuleSet(set=12, opening="delayed_first_turn", rounds=1), 3, id="delayed"),
    pytest.param(
        RuleSet(set=12, trains_start_public=True, double_follow_up="must_satisfy", blanks_wild=True,
                round_end="until_blocked", rounds=1), 4, id="common",
    ),
    pytest.param(RuleSet(set=9, open_hands=True, engine="highest_double"), 5, id="open-highest"),
    pytest.param(RuleSet(set=18, rounds=1), 13, id="double-18-13-players"),
    pytest.param(RuleSet(set=6, hand_size=3, rounds=3), 2, id="tiny"),
]


def sample_states(rules: RuleSet, players: int, seed: int, every: int = 9, limit: int = 900):
    rng = random.Random(seed)
    state = new_game(rules, players=players, seed=seed)
    out = [state]
    for step in range(limit):
        if state.over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
        if step % every == 0:
            out.append(state)
    out.append(state)
    return out


@pytest.mark.parametrize(("rules", "players"), VARIANTS)
async def test_every_variant_renders(rules, players):
    names = tuple(f"P{i + 1}" for i in range(players))
    kinds = ("human",) * players
    states = sample_states(rules, players, seed=players * 7 + rules.set)
    # the words and the board model alone, for every sampled state and seat to move
    for state in states:
        if state.over:
            continue
        v = view(state, state.turn)
        b = build(v, names, kinds)
        assert b.my_turn
        for i in range(len(v.events)):
            assert event_line(v, names, i)
        assert log_lines(b)
        assert turn_line(v, names, kinds, frozenset(a.type for a in b.legal), bool(b.plays))
        play = b.play()
        assert play is None or play in b.plays or not b.plays
    # and through the real screen at two sizes
    setup = table(rules, seed=1, kinds=("random",) * players, names=names)
    app = game_app(setup)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        await app.use(LocalTable(app))  # a source with no game: no computer moves, this test only draws
        mid = states[len(states) // 2]
        picks = [((80, 24), states[1]), ((80, 24), mid), ((120, 40), mid), ((40, 12), states[-2])]
        for size, state in picks:
            await pilot.resize_terminal(*size)
            seat = state.turn if not state.over else 0
            screen.show(view(state, seat), names, kinds)
            await pilot.pause()
            await pilot.press("right", "down", "o")
        assert screen.board is not None


async def test_a_real_round_with_branching_doubles_and_swan_by_keys():
    from support.pilot import play_until_screen_changes

    rules = RuleSet(set=6, branching_doubles=True, swan_drive=True, rounds=1)
    app = game_app(table(rules, seed=8, kinds=("human", "random", "random")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await play_until_screen_changes(pilot)
        assert app.snapshot.over
