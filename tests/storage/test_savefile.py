"""The save file's checks: a save's record is checked by the record module alone, once."""

from __future__ import annotations

import copy
import json

import pytest

from mexitrain.game_setup import GameSetup, SeatConfig
from mexitrain.rules import RuleSet, apply, legal_actions, new_game
from mexitrain.rules.record import RecordError, replay
from mexitrain.storage.savefile import SaveError, parse_save, save_data


@pytest.mark.parametrize(
    ("where", "value"),
    [("type", 5), ("type", [1]), ("tile", "x")],
)
def test_a_bad_event_in_a_save_is_the_record_modules_own_refusal(where: str, value: object) -> None:
    setup = GameSetup(rules=RuleSet(), seed=1, seats=[SeatConfig(name="A"), SeatConfig(name="B", kind="random")])
    state = new_game(setup.rules, players=2, seed=1)
    for _ in range(6):  # the first legal action each time: a draw comes early (§5)
        state = apply(state, legal_actions(state)[0])
    data = save_data(state, setup)
    events = data["record"]["rounds"][0]["events"]
    draw = next(e for e in events if e["type"] == "draw")
    draw[where] = value
    with pytest.raises(RecordError) as direct:
        replay(copy.deepcopy(data["record"]))
    with pytest.raises(SaveError) as loaded:
        parse_save(json.dumps(data).encode("utf-8"))
    error = loaded.value.values["error"]
    assert (error.code, error.values, str(error)) == (direct.value.code, direct.value.values, str(direct.value))
    assert loaded.value.problem == str(direct.value)
