"""Undo (mexitrain/rules/undo.py): back to the snapshot before the seat's last decision."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.games import VARIANTS, history
from support.tables import SHORT_RULES

from mexitrain.rules import RuleSet, apply, legal_actions, new_game
from mexitrain.rules.undo import (
    NOT_REPLAYABLE,
    UNDO_CODES,
    UndoRefused,
    round_start,
    undo,
    undo_answer,
    undo_plan,
)
from mexitrain.text.refusals import undo_refused_text, undo_text

HUMAN = 0


def _decision_points(states, seat):
    """Indices i such that states[i] -> states[i+1] was a decision of ``seat`` (a choice)."""
    return [
        i
        for i in range(len(states) - 1)
        if states[i].turn == seat
        and states[i + 1].events[-1:]  # the action added an event in the same round...
        and len(states[i + 1].events) == len(states[i].events) + 1
        and states[i + 1].events[-1].seat == seat
        and len(legal_actions(states[i])) > 1
    ]


def _game(rules=SHORT_RULES, players=3, seed=1, steps=60, rng=0):
    return history(new_game(rules, players=players, seed=seed), steps, rng)


def _play_until(state, seat, rng):
    """The other seats play at random until it is ``seat``'s turn."""
    while state.turn != seat and not state.over:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_undo_after_a_play_gives_the_snapshot_before_it() -> None:
    state = new_game(RuleSet(), players=4, seed=11)
    rng = random.Random(0)
    state = _play_until(state, HUMAN, rng)
    assert len(legal_actions(state)) > 1
    before = state
    after = apply(state, legal_actions(state)[-1])
    assert undo(after, HUMAN) == before
    ok, what = undo_text(undo_answer(after, HUMAN))
    assert ok and what.startswith("undo your play ")


def test_undo_takes_back_every_computer_move_after_it() -> None:
    rng = random.Random(4)
    state = _play_until(new_game(RuleSet(), players=4, seed=5), HUMAN, rng)
    before = state
    state = apply(state, rng.choice([a for a in legal_actions(state) if a.type == "play"]))
    state = _play_until(state, HUMAN, rng)  # three computer turns
    assert len(state.events) > len(before.events) + 3
    assert undo(state, HUMAN) == before
    ok, what = undo_text(undo_answer(state, HUMAN))
    assert ok and "moves after it" in what


def test_repeated_undo_walks_back_one_decision_at_a_time() -> None:
    states = _game(players=2, steps=40, rng=3)
    points = [i for i in _decision_points(states, HUMAN) if states[i].round == states[-1].round]
    state = states[-1]
    for i in reversed(points):
        try:
            state = undo(state, HUMAN)
        except UndoRefused as exc:
            assert exc.code == "drew"
            break
        assert state == states[i]


def test_refused_past_a_draw_the_seat_has_seen() -> None:
    # find a game where the seat made a choice, then drew, within one round
    for seed in range(200):
        states = _game(RuleSet(), players=2, seed=seed, steps=80, rng=seed)
        for k, s in enumerate(states):
            ev = s.events
            if ev and ev[-1].seat == HUMAN and ev[-1].type == "draw":
                if any(i for i in _decision_points(states[:k], HUMAN) if states[i].round == s.round):
                    break
        else:
            continue
        break
    else:  # pragma: no cover
        pytest.fail("no game with a choice then a draw")
    drawn = s.events[-1].tile
    with pytest.raises(UndoRefused) as info:
        undo(s, HUMAN)
    assert info.value.code == "drew"
    assert info.value.values == {"tile": drawn}
    assert undo_refused_text(info.value) == (
        f"you drew {drawn[0]}-{drawn[1]} since then: undoing would reveal a hidden tile"
    )
    assert undo_text(undo_answer(s, HUMAN)) == (False, undo_refused_text(info.value))


def test_refused_at_a_round_start_and_before_any_move() -> None:
    state = new_game(RuleSet(set=6, rounds=2), players=2, seed=3)
    with pytest.raises(UndoRefused) as info:
        undo(state, HUMAN)
    assert info.value.code == "nothing_yet"
    rng = random.Random(1)
    while state.round == 1:
        state = apply(state, rng.choice(legal_actions(state)))
    assert state.events == () and any(e.seat == HUMAN for e in state.results[0].events)
    with pytest.raises(UndoRefused) as info:
        undo(state, HUMAN)
    assert info.value.code == "round_start"
    assert "never goes back into an earlier round" in undo_refused_text(info.value)
    assert undo_text(undo_answer(state, HUMAN)) == (False, undo_refused_text(info.value))


def test_never_takes_back_another_persons_move() -> None:
    rng = random.Random(2)
    state = new_game(RuleSet(), players=3, seed=8)
    while not (state.turn == HUMAN and len(legal_actions(state)) > 1):
        state = apply(state, rng.choice(legal_actions(state)))
    mark = len(state.events)
    state = apply(state, legal_actions(state)[0])
    while not any(e.seat == 1 for e in state.events[mark:]) or state.turn == 1:
        state = apply(state, rng.choice(legal_actions(state)))
    with pytest.raises(UndoRefused) as info:
        undo(state, HUMAN, humans={1})
    assert info.value.code == "other_player"
    assert info.value.values == {"seats": (1,)}
    assert "the player in seat 2 has moved since then" in undo_refused_text(info.value)
    assert undo(state, HUMAN) is not None  # when seat 1 is a computer, its move goes too


def test_refused_when_the_game_is_over() -> None:
    states = _game(players=2, steps=10**5, rng=1)
    assert states[-1].over
    with pytest.raises(UndoRefused) as info:
        undo(states[-1], HUMAN)
    assert info.value.code == "game_over"


def test_a_position_that_does_not_replay_is_refused() -> None:
    states = _game(players=2, steps=8, rng=5)
    forged = states[-1].model_copy(update={"hands": states[-1].hands[::-1]})
    with pytest.raises(UndoRefused) as info:
        undo(forged, states[-1].events[-1].seat)
    assert info.value.code == "not_replayable"
    assert info.value.values["why"] in NOT_REPLAYABLE
    # the player reads their own sentence, never the developer's detail
    ok, message = undo_text(undo_answer(forged, states[-1].events[-1].seat))
    assert not ok and message == "this game cannot be rebuilt from its moves, so nothing can be undone"


def test_an_event_the_rules_refuse_is_named_as_data() -> None:
    states = _game(players=2, steps=8, rng=5)
    state = states[-1]
    seat = state.events[-1].seat
    # the last event made illegal: a tile its seat never held
    held = {t for h in state.hands for t in h} | set(state.boneyard)
    stranger = next(t for t in ((a, b) for a in range(13) for b in range(a, 13)) if t not in held)
    bad = state.events[-1].model_copy(update={"type": "play", "tile": stranger, "train": "mexican"})
    forged = state.model_copy(update={"events": state.events[:-1] + (bad,)})
    with pytest.raises(UndoRefused) as info:
        undo(forged, seat)
    assert info.value.code == "not_replayable"
    assert info.value.values["why"] == "illegal_move" and info.value.values["event"] == len(state.events)
    assert info.value.values["reason"].code == "not_in_hand"


def test_round_start_is_the_snapshot_the_round_began_with() -> None:
    states = _game(players=2, steps=10**5, rng=6)
    firsts = [s for prev, s in zip(states, states[1:], strict=False) if s.round != prev.round]
    assert firsts and all(round_start(s) == s for s in firsts)
    assert round_start(states[5]) == states[0]


def test_reason_codes_are_documented() -> None:
    assert set(UNDO_CODES) == {
        "game_over", "nothing_yet", "round_start", "drew", "other_player", "not_replayable",
    }


@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 10**6),
    steps=st.integers(1, 150),
)
def test_undo_is_the_earlier_snapshot_or_a_clear_refusal(variant: str, seed: int, steps: int) -> None:
    rules = VARIANTS[variant]
    states = history(new_game(rules, players=4, seed=seed), steps, seed)
    state = states[-1]
    for seat in range(4):
        points = [
            i for i in _decision_points(states, seat) if states[i].round == state.round
        ]
        ok, message = undo_text(undo_answer(state, seat))
        if state.over or not points:
            with pytest.raises(UndoRefused):
                undo(state, seat)
            assert not ok
            continue
        last = points[-1]
        drew = any(
            e.seat == seat and e.type == "draw" for e in state.events[len(states[last].events):]
        )
        if drew:
            with pytest.raises(UndoRefused) as info:
                undo(state, seat)
            assert info.value.code == "drew" and not ok and message == undo_refused_text(info.value)
        else:
            assert undo(state, seat) == states[last]
            plan = undo_plan(state, seat)
            assert plan.before == states[last] and plan.event == state.events[plan.index]
            assert plan.later == len(state.events) - plan.index - 1
            assert ok and message.startswith("undo your ")


# -- the history: a stack of this round's snapshots (issue 33) -------------------------------------


def _answer(history, seat, humans=()):
    try:
        return history.plan(seat, humans)
    except UndoRefused as exc:
        return exc


def _same(a, b) -> bool:
    if isinstance(a, UndoRefused) or isinstance(b, UndoRefused):
        return type(a) is type(b) and a.code == b.code and a.values == b.values
    return (a.index, a.event, a.later) == (b.index, b.event, b.later) and a.before == b.before


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_history_answers_as_the_replay_does(variant):
    from mexitrain.rules import undo as undo_module

    rules = VARIANTS[variant]
    rng = random.Random(variant)
    state = new_game(rules, players=4 if rules.teams else 3, seed=len(variant))
    stack = undo_module.History(state)
    checked = 0
    while not state.over and checked < 150:
        after = apply(state, rng.choice(legal_actions(state)))
        stack.push(state, after)
        state = after
        for seat, humans in ((0, ()), (1, (0, 1)), (2, (2,))):
            assert _same(_answer(stack, seat, humans), undo_answer(state, seat, humans))
        # the stack rebuilt from the snapshot alone says the same
        assert _same(_answer(undo_module.History.rebuild(state), 0), undo_answer(state, 0))
        checked += 1
    assert checked > 20


def test_the_history_never_replays_the_round(monkeypatch):
    """Pushing and asking are read off the stack: the replay is never run (it raises here)."""
    from mexitrain.rules import undo as undo_module

    state = new_game(RuleSet(set=6, rounds=1), players=2, seed=3)
    stack = undo_module.History(state)

    def no_replay(*args, **kwargs):
        raise AssertionError("the round was replayed")

    monkeypatch.setattr(undo_module, "round_start", no_replay)
    monkeypatch.setattr(undo_module, "replay", no_replay)
    rng = random.Random(1)
    plans = 0
    while not state.over:
        after = apply(state, rng.choice(legal_actions(state)))
        stack.push(state, after)
        state = after
        answer = _answer(stack, 0)
        if not isinstance(answer, UndoRefused):
            plans += 1
            if rng.random() < 0.3 and state.turn == 0:
                state = stack.pop(answer)
                assert stack.top is state and len(stack.entries) == len(state.events)
    assert plans > 0
