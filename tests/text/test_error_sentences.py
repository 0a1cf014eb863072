"""mexitrain/text/: every code of the rules' errors has its own sentence for the player, in English
and in French, that names the error's values (never the developer line, never the catch-all).

One case per code of RuleSetError (docs/rules.md §2, §3, §8: the tables and options refused),
RecordError (docs/record-format.md, "Error codes") and UndoRefused (docs/saves.md, "Undo").
"""

from __future__ import annotations

from typing import Any

import pytest
from support.french import in_french

from mexitrain import i18n
from mexitrain.rules.errors import IllegalAction
from mexitrain.rules.record import RECORD_CODES, RecordError
from mexitrain.rules.record_json import StrictJSONError
from mexitrain.rules.ruleset import RULESET_CODES, RuleSetError
from mexitrain.rules.undo import NOT_REPLAYABLE, UNDO_CODES, UndoRefused
from mexitrain.text.errors import error_text
from mexitrain.text.files import record_error_text
from mexitrain.text.refusals import undo_refused_text
from mexitrain.text.validation import ruleset_error_text

# code: (values, what the sentence must name, in both languages)
RULESET_CASES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "too_few_players": ({"min": 2, "players": 1}, ("2",)),
    "too_many_players": ({"set": 12, "fast": False, "max": 10, "players": 11}, ("12", "10", "11")),
    "teams_players": ({"players": 5}, ("5",)),
    "no_first_seat": ({"seat": 6, "players": 4}, ("6", "4")),
    "not_enough_tiles": (
        {"players": 4, "each": 40, "need": 160, "set": 12, "available": 90}, ("4", "40", "160", "12", "90")
    ),
    "fast_table": ({"set": 12}, ("9",)),
    "too_many_rounds": ({"set": 12, "max": 13, "rounds": 99}, ("12", "13", "99")),
    "unknown_preset": ({"preset": "quick", "choices": ("standard", "fast", "common")}, ("quick", "standard", "common")),
    "unknown_option": ({"option": "hand_sise", "choices": ("set", "hand_size")}, ("hand_sise", "hand_size")),
    "not_on_off": ({"option": "open_hands", "value": "maybe"}, ("open_hands", "maybe")),
    "bad_choice": ({"option": "set", "choices": (6, 9, 12, 15, 18), "value": 7}, ("set", "6", "18", "7")),
    "too_small": ({"option": "hand_size", "min": 1, "value": 0}, ("hand_size", "1", "0")),
    "not_whole_number": ({"option": "rounds", "value": "ten"}, ("rounds", "ten")),
    "invalid": ({"option": "rounds", "kind": "some_new_check"}, ("rounds",)),
}

_REASON = IllegalAction("not_in_hand", tile=(3, 4))
RECORD_CASES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "not_json": ({"line": 3, "column": 14}, ("3", "14")),
    "truncated": ({"line": 9, "column": 2}, ("9", "2")),
    "not_utf8": ({"offset": 40}, ("40",)),
    "not_strict_json": ({"error": StrictJSONError("duplicate_key", key="seed")}, ("seed",)),
    "too_deep": ({}, ()),
    "not_writable": ({"found": "TypeError"}, ()),
    "not_a_record": ({"format": "chess-pgn"}, ("chess-pgn",)),
    "other_version": ({"version": 7, "reads": 1}, ("7", "1")),
    "not_an_object": ({"field": "players[1]", "found": "list"}, ("players[1]",)),
    "event_not_an_object": ({"round": 2, "event": 5, "found": "list"}, ("2", "5")),
    "not_a_list": ({"field": "winners", "found": "number"}, ("winners",)),
    "wrong_length": ({"field": "totals", "length": 3, "count": 2}, ("totals", "3", "2")),
    "missing_keys": ({"keys": ("seed", "rules")}, ("seed", "rules")),
    "unknown_keys": ({"round": 2, "keys": ("note",)}, ("2", "note")),
    "empty_string": ({"field": "players[0].name", "found": "string"}, ("players[0].name",)),
    "bad_player": ({"found": "int"}, ()),
    "player_count": ({"players": 2, "given": 3}, ("2", "3")),
    "not_whole_number": ({"round": 1, "field": "engine", "found": "number"}, ("1", "engine")),
    "out_of_range": ({"field": "winners[0]", "min": 0, "max": 2, "value": 7}, ("winners[0]", "0", "2", "7")),
    "not_a_tile": ({"round": 1, "field": "hands[0][0]", "found": "list"}, ("1", "hands[0][0]")),
    "not_in_set": ({"round": 1, "field": "hands[0][0]", "tile": (13, 1), "set": 12}, ("1", "13", "12")),
    "tile_order": ({"round": 1, "field": "hands[0][0]", "tile": (2, 5)}, ("1", "[2, 5]")),
    "bad_rules": (
        {"field": "players", "error": RuleSetError("too_many_players", set=12, fast=False, max=10, players=11)},
        ("12", "10", "11"),
    ),
    "no_rounds": ({"field": "rounds"}, ()),
    "too_many_rounds": ({"field": "rounds", "count": 4, "max": 3}, ("4", "3")),
    "unfinished_round": ({"round": 1}, ("1",)),
    "end_and_scores": ({"round": 3}, ("3",)),
    "bad_end": ({"round": 1, "field": "end", "choices": ("domino", "stuck", "blocked"), "value": "won"},
                ("1", "domino", "blocked", "won")),
    "event_type": ({"round": 1, "event": 4, "choices": ("play", "draw"), "value": "resign"}, ("1", "4", "play", "resign")),
    "bad_train": ({"round": 2, "event": 3, "field": "train", "found": "string"}, ("2", "3", "mexican")),
    "wrong_engine": ({"round": 2, "field": "engine", "engine": 11, "found": 12}, ("2", "11", "12")),
    "wrong_seat": ({"round": 1, "field": "first_seat", "seat": 0, "found": 1}, ("1", "2")),
    "wrong_deal": ({"round": 3, "field": "hands[1]", "seed": 5, "expected": ((0, 0),), "found": ((1, 1),)},
                   ("3", "hands[1]", "5")),
    "wrong_turn": ({"round": 2, "event": 1, "turn": 0, "seat": 2}, ("2", "1", "3")),
    "wrong_seal": ({"field": "seal", "seed": 2**128 + 1}, (hex(2**128 + 1),)),
    "wrong_draw": ({"round": 1, "event": 7, "tile": (3, 4), "found": (3, 5)}, ("1", "7", "3-4", "3-5")),
    "illegal_move": ({"round": 2, "event": 5, "seat": 1, "reason": _REASON}, ("2", "5", "3-4")),
    "round_over": ({"round": 1, "event": 40, "end": "domino"}, ("1", "40")),
    "round_not_over": ({"round": 2, "events": 17, "end": "domino"}, ("2", "17")),
    "round_over_unsaid": ({"round": 3, "end": "stuck"}, ("3",)),
    "wrong_result": (
        {"round": 2, "end": "domino", "scores": (0, 12), "replay_end": "domino", "replay_scores": (0, 13)},
        ("2", "12", "13"),
    ),
    "game_ended": ({"round": 4, "after": 3}, ("3",)),
    "game_truncated": ({"missing": 3}, ("3",)),
    "wrong_totals": ({"field": "totals", "recorded": (10, 20), "replayed": (10, 25)}, ("20", "25")),
    "wrong_winners": ({"field": "winners", "recorded": (1,), "replayed": (0,)}, ("1", "2")),
}

UNDO_CASES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "game_over": ({}, ()),
    "nothing_yet": ({}, ()),
    "round_start": ({}, ()),
    "drew": ({"tile": (3, 4)}, ("3-4",)),
    "other_player": ({"seats": (1, 3)}, ("2", "4")),
    "not_replayable": ({"why": "illegal_move", "event": 3, "reason": _REASON}, ()),
}


def _both(say, exc) -> tuple[str, str]:
    """``say(exc)`` in English, then in French (checked: one line, no English word)."""
    before = i18n.language()
    i18n.set_language("en")
    try:
        english = say(exc)
    finally:
        i18n.set_language(before)
    return english, in_french(say, exc)


def _check(say, exc, names: tuple[str, ...], fallback: str) -> None:
    english, french = _both(say, exc)
    assert english != fallback and english != str(exc), english
    assert french != english, french
    for name in names:
        assert name in english, (name, english)
        assert name in french, (name, french)
    assert _both(error_text, exc) == (english, french)  # the one dispatcher says the same


def test_every_code_has_a_case() -> None:
    assert set(RULESET_CASES) == set(RULESET_CODES)
    assert set(RECORD_CASES) == set(RECORD_CODES)
    assert set(UNDO_CASES) == set(UNDO_CODES)


@pytest.mark.parametrize("code", RULESET_CODES)
def test_each_rule_set_refusal_has_its_sentence(code: str) -> None:
    # §2, §3, §8: the tables and options a rule set refuses
    values, names = RULESET_CASES[code]
    fallback = _both(ruleset_error_text, RuleSetError("no_such_code"))[0]
    _check(ruleset_error_text, RuleSetError(code, **values), names, fallback)


@pytest.mark.parametrize("code", RECORD_CODES)
def test_each_record_refusal_has_its_sentence(code: str) -> None:
    values, names = RECORD_CASES[code]
    fallback = _both(record_error_text, RecordError("no_such_code"))[0]
    _check(record_error_text, RecordError(code, **values), names, fallback)


@pytest.mark.parametrize("code", UNDO_CODES)
def test_each_undo_refusal_has_its_sentence(code: str) -> None:
    values, names = UNDO_CASES[code]
    fallback = _both(undo_refused_text, UndoRefused("no_such_code"))[0]
    _check(undo_refused_text, UndoRefused(code, **values), names, fallback)


@pytest.mark.parametrize("why", NOT_REPLAYABLE)
def test_an_undo_that_cannot_replay_says_so_in_the_players_words(why: str) -> None:
    """The developer's detail (which move does not replay, the engine's refusal) never reaches
    the player: every ``why`` reads the same sentence."""
    exc = UndoRefused("not_replayable", why=why, event=3, reason=_REASON)
    english, french = _both(undo_refused_text, exc)
    assert english == "this game cannot be rebuilt from its moves, so nothing can be undone"
    assert french == (
        "cette partie ne peut pas être reconstruite à partir de ses coups : rien ne peut donc être annulé"
    )
    assert why not in english and "not_in_hand" not in english and "3-4" not in english


def test_a_code_without_its_values_falls_back_to_a_sentence_never_the_developer_line() -> None:
    for exc, say in [
        (RuleSetError("too_many_players"), ruleset_error_text),
        (RecordError("wrong_engine", round=2), record_error_text),
        (UndoRefused("drew"), undo_refused_text),
    ]:
        english, french = _both(say, exc)
        assert english != str(exc) and "_" not in english, english
        assert french != english


def test_the_errors_are_immutable_data_that_pickle() -> None:
    import pickle

    for exc in (
        RuleSetError("too_many_players", set=12, fast=False, max=10, players=11),
        RecordError("illegal_move", round=2, event=5, seat=1, reason=_REASON),
        UndoRefused("drew", tile=(3, 4)),
        StrictJSONError("duplicate_key", key="seed"),
    ):
        with pytest.raises(AttributeError):
            exc.code = "other"  # type: ignore[misc]
        with pytest.raises(TypeError):
            exc.values["extra"] = 1  # type: ignore[index]
        again = pickle.loads(pickle.dumps(exc))
        assert type(again) is type(exc) and again.code == exc.code and set(again.values) == set(exc.values)
        assert str(again) == str(exc) and "\n" not in str(exc)


def test_other_players_moves_agree_with_how_many_moved() -> None:
    one = UndoRefused("other_player", seats=(1,))
    two = UndoRefused("other_player", seats=(1, 3))
    assert _both(undo_refused_text, one) == (
        "the player in seat 2 has moved since then: undoing would take back their move too",
        "le joueur de la place 2 a joué depuis : annuler reprendrait aussi son coup",
    )
    assert _both(undo_refused_text, two) == (
        "the player in seat 2 and the player in seat 4 have moved since then: "
        "undoing would take back their moves too",
        "le joueur de la place 2 et le joueur de la place 4 ont joué depuis : "
        "annuler reprendrait aussi leurs coups",
    )
