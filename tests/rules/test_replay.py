"""rules.replay: a game's events played again from its deal give the same snapshots (§5-§7),
and the first event the rules refuse stops it with IllegalAction."""

from __future__ import annotations

import random

import pytest

from mexitrain.rules import IllegalAction, RuleSet, apply, legal_actions, new_game, replay
from mexitrain.rules.actions import event_action


def test_replay_gives_every_snapshot_again() -> None:
    rules = RuleSet(set=6)
    state = new_game(rules, players=3, seed=5)
    rng = random.Random(5)
    seen = [state]
    while len(state.results) < 2 and not state.over:
        state = apply(state, rng.choice(legal_actions(state)))
        seen.append(state)
    events = [e for r in state.results for e in r.events] + list(state.events)
    again = list(replay(new_game(rules, players=3, seed=5), events))
    assert [e for e, _ in again] == events
    assert [s for _, s in again] == seen[1:]
    assert all(apply(a, event_action(e)) == b for (e, b), a in zip(again, seen[:-1], strict=True))


def test_replay_stops_at_a_refused_event() -> None:
    start = new_game(RuleSet(set=6), players=2, seed=1)
    state = apply(start, legal_actions(start)[0])
    event = state.events[-1]
    steps = replay(start, [event, event])
    assert next(steps)[1] == state
    with pytest.raises(IllegalAction):
        next(steps)
