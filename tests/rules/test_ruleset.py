"""RuleSetError is data (docs/rules.md §2, §3, §8): each refusal of a rule set or a table is a code
and its values, raised by the rules themselves; ``str()`` is the developer line, and the player's
sentence comes from mexitrain.text (tests/text/test_error_sentences.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from mexitrain.rules import PRESETS, RuleSet, RuleSetError, make_rules
from mexitrain.rules.ruleset import RULESET_CODES, rule_set_error
from mexitrain.text.validation import ruleset_error_text, validation_error_text

# code: (what raises it, the values it carries)
RAISED: dict[str, tuple[Callable[[], Any], dict[str, Any]]] = {
    # §2: the table
    "too_few_players": (lambda: RuleSet().check_players(1), {"min": 2, "players": 1}),
    "too_many_players": (
        lambda: PRESETS["fast"].check_players(5), {"set": 9, "fast": True, "max": 4, "players": 5}
    ),
    "teams_players": (lambda: RuleSet(teams=True).check_players(3), {"players": 3}),
    "no_first_seat": (lambda: make_rules("standard", {"first_seat": "6"}).check_players(4), {"seat": 6, "players": 4}),
    "not_enough_tiles": (
        lambda: RuleSet(hand_size=40).check_players(4),
        {"players": 4, "each": 40, "need": 160, "set": 12, "available": 90},
    ),
    # §2, §3: options that do not go together
    "fast_table": (lambda: make_rules("standard", {"hand_table": "fast"}), {"set": 12}),
    "too_many_rounds": (lambda: make_rules("standard", {"rounds": "14"}), {"set": 12, "max": 13, "rounds": 14}),
    # §8: what the command line's --preset and --option refuse
    "unknown_preset": (lambda: make_rules("quick"), {"preset": "quick", "choices": tuple(PRESETS)}),
    "unknown_option": (
        lambda: make_rules("standard", {"hand-sise": "3"}), {"option": "hand-sise", "choices": tuple(RuleSet.model_fields)}
    ),
    "not_on_off": (lambda: make_rules("standard", {"swan_drive": "maybe"}), {"option": "swan_drive", "value": "maybe"}),
    "bad_choice": (
        lambda: make_rules("standard", {"engine": "up"}),
        {"option": "engine", "choices": ("descending", "highest_double"), "value": "up"},
    ),
    "too_small": (lambda: make_rules("standard", {"first_seat": "0"}), {"option": "first_seat", "min": 1, "value": 0}),
    "not_whole_number": (lambda: make_rules("standard", {"rounds": "ten"}), {"option": "rounds", "value": "ten"}),
    "invalid": (
        lambda: (_ for _ in ()).throw(rule_set_error({"loc": ("rounds",), "type": "some_new_check", "msg": "odd"})),
        {"option": "rounds", "kind": "some_new_check"},
    ),
}


def test_every_code_is_raised_somewhere() -> None:
    assert set(RAISED) == set(RULESET_CODES)


@pytest.mark.parametrize("code", RULESET_CODES)
def test_each_refusal_is_a_code_and_its_values(code: str) -> None:
    raise_it, values = RAISED[code]
    with pytest.raises(RuleSetError) as info:
        raise_it()
    exc = info.value
    assert (exc.code, dict(exc.values)) == (code, values)
    assert str(exc).startswith(code) and "\n" not in str(exc)  # the developer line
    assert ruleset_error_text(exc) != str(exc)  # the player's sentence is text's


def test_a_validator_refusal_reaches_the_player_whole_through_pydantic() -> None:
    # §2: the fast table is for the double-9 set; pydantic keeps the RuleSetError itself
    with pytest.raises(ValidationError) as info:
        RuleSet(set=12, hand_table="fast")
    inner = info.value.errors()[0]["ctx"]["error"]
    assert isinstance(inner, RuleSetError) and (inner.code, dict(inner.values)) == ("fast_table", {"set": 12})
    assert validation_error_text(info.value) == ruleset_error_text(inner) == (
        "the fast hand-size table is for the double-9 set only"
    )


def test_the_developer_line_names_the_code_and_values() -> None:
    with pytest.raises(RuleSetError) as info:
        RuleSet().check_players(11)
    assert str(info.value) == "too_many_players (set=12, fast=False, max=10, players=11)"
