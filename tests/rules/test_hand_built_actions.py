"""docs/rules.md §5: the core's check answers every action with a move or a coded refusal.

An action built without validation (``model_construct``: a negative branch, a tile of three
halves, no tile at all, an unknown type) is refused with a reason code (``bad_action``, naming
the field, or the rule it breaks), never a bare ``ValueError``, ``TypeError``,
``AttributeError`` or ``KeyError``, and never a wrong reason (issue #34 item 6)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from support.positions import position

from mexitrain.rules import (
    MEXICAN,
    Draw,
    IllegalAction,
    Mark,
    Pass,
    Play,
    RuleSet,
    Skip,
    apply,
    legal_actions,
    new_game,
)
from mexitrain.rules.core import check, legal
from mexitrain.rules.engine import core_of
from mexitrain.rules.errors import CODES, FIELD_CODES
from mexitrain.text.refusals import reason_text

RULES = RuleSet()
# seat 0 holds 12-3 (fits its own train and the Mexican Train) and 4-5 (fits nothing)
STATE = position(RULES, hands=[[(12, 3), (4, 5)], [(1, 1)]], boneyard=[(2, 2)])
CORE = core_of(STATE)


def _positions() -> list:
    """Positions in every phase some variant reaches (turn, drawn, follow-up, swan, chain,
    game over), from seeded games played by picking legal actions at random."""
    found = {STATE.phase: STATE}
    variants = ((RuleSet(set=6, rounds=1), 3), (RuleSet(set=6, rounds=1, swan_drive=True, branching_doubles=True), 2),
                (RuleSet(set=6, rounds=1, opening="first_turn_chain", blanks_wild=True), 3))
    for rules, players in variants:
        for seed in range(3):
            rng = random.Random(seed)
            s = new_game(rules, players=players, seed=seed)
            while True:
                found.setdefault(s.phase, s)
                if s.phase == "game_over":
                    break
                s = apply(s, rng.choice(legal_actions(s)))
    return list(found.values())


POSITIONS = _positions()


def refused(action) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        check(CORE, action)
    return err.value


@pytest.mark.parametrize(
    ("fields", "code", "values"),
    [
        # a negative branch is no branch, not the trunk counted from the end
        ({"tile": (12, 3), "train": 0, "branch": -1}, "no_branch", {"train": 0, "branch": -1}),
        ({"tile": (12, 3), "train": MEXICAN, "branch": -3}, "no_branch", {"train": MEXICAN, "branch": -3}),
        ({"tile": (12, 3, 4), "train": 0, "branch": 0}, "bad_action", {"field": "tile"}),
        ({"tile": (12,), "train": 0, "branch": 0}, "bad_action", {"field": "tile"}),
        ({"tile": None, "train": 0, "branch": 0}, "bad_action", {"field": "tile"}),
        ({"tile": "12", "train": 0, "branch": 0}, "bad_action", {"field": "tile"}),
        ({"tile": ("12", "3"), "train": 0, "branch": 0}, "bad_action", {"field": "tile"}),
        ({"tile": (12, -3), "train": 0, "branch": 0}, "bad_action", {"field": "tile"}),
        ({"tile": (12.5, 3), "train": 0, "branch": 0}, "bad_action", {"field": "tile"}),
        ({"tile": (float("nan"), 3), "train": 0, "branch": 0}, "bad_action", {"field": "tile"}),
        ({"tile": (12, 3), "train": 0, "branch": None}, "bad_action", {"field": "branch"}),
        ({"tile": (12, 3), "train": 0, "branch": "0"}, "bad_action", {"field": "branch"}),
        ({"tile": (12, 3), "train": 0, "branch": 0.5}, "bad_action", {"field": "branch"}),
        ({"tile": (12, 3), "train": None, "branch": 0}, "no_train", {"ref": None}),
        ({"tile": (12, 3)}, "no_train", {"ref": None}),  # no train given at all
        ({"train": 0, "branch": 0}, "bad_action", {"field": "tile"}),
    ],
)
def test_a_hand_built_play_is_refused_with_a_code(fields, code, values):
    err = refused(Play.model_construct(**fields))
    assert (err.code, dict(err.values)) == (code, values)
    assert reason_text(err, ("Ann", "Bea"), 0) != "That move is not allowed."


@pytest.mark.parametrize("kind", ["bogus", None, 3, ["draw"], "Draw"])
def test_an_unknown_type_is_refused_with_a_code(kind):
    err = refused(Draw.model_construct(type=kind))
    assert (err.code, dict(err.values)) == ("bad_action", {"field": "type"})
    assert reason_text(err) == "That is not a move of this game."


@pytest.mark.parametrize("thing", [None, object(), 3, "draw", {"type": "draw"}])
def test_not_an_action_at_all_is_refused_with_a_code(thing):
    assert refused(thing).code == "bad_action"


def test_values_equal_to_ints_still_name_the_same_play():
    # a half 3.0, a branch True (== 1) or 0.0: the same play as the ints, as before
    move = check(CORE, Play(tile=(12, 3), train=0))
    assert check(CORE, Play.model_construct(tile=(12.0, 3), train=0, branch=0.0)) == move
    assert check(CORE, Play.model_construct(tile=[12, 3], train=0, branch=False)) == move


_ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=20),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.binary(max_size=2),
    st.just(MEXICAN),
)
_TILES = st.one_of(_ANY, st.lists(_ANY, max_size=4), st.lists(_ANY, max_size=4).map(tuple),
                   st.tuples(st.integers(0, 13), st.integers(0, 13)))


@given(
    tile=_TILES,
    train=st.one_of(_ANY, st.integers(-1, 3), st.lists(_ANY, max_size=2)),
    branch=st.one_of(_ANY, st.integers(-2, 2)),
    kind=st.one_of(st.just("play"), st.sampled_from(["draw", "mark", "pass", "skip", "plays"]), _ANY),
    state=st.sampled_from(POSITIONS),
)
def test_any_hand_built_action_gets_a_move_or_a_coded_refusal(tile, train, branch, kind, state):
    core = core_of(state)
    action = Play.model_construct(type=kind, tile=tile, train=train, branch=branch)
    try:
        m = check(core, action)
    except IllegalAction as exc:
        assert exc.code in CODES
        if exc.code == "bad_action":
            assert exc.values["field"] in FIELD_CODES
        assert reason_text(exc, ("Ann", "Bea"), 0) != "That move is not allowed."
        outcome = (exc.code, dict(exc.values))
    else:
        assert m in legal(core)
        outcome = m
    # never a wrong reason: the same action, validated, gets the same answer (only an
    # action validation would turn into another, "3" into 3, may differ, as bad_action)
    try:
        valid = {"play": Play, "draw": Draw, "mark": Mark, "pass": Pass, "skip": Skip}[kind].model_validate(
            {"tile": tile, "train": train, "branch": branch} if kind == "play" else {}
        )
    except (KeyError, TypeError, ValidationError):
        return
    try:
        expected = check(core, valid)
    except IllegalAction as exc:
        expected = (exc.code, dict(exc.values))
    if outcome != expected:
        assert outcome[0] == "bad_action", (action, outcome, expected)
