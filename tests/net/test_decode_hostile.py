"""Issue 37: a host cannot harm a guest. Whatever a server sends, ``decode_server`` returns a
message the guest's screens can show (every string as a typed name would be, every count and
number one its rules could give, its fields agreeing), or raises ``ProtocolError`` with code
``bad_server_message`` whose values repeat nothing of the hostile text; its sentence is one
line. Items 1 (escapes), 2 (counts that freeze or exhaust), 3 (messages that crashed), 6
(names of nothing), on the decoding side."""

from __future__ import annotations

import copy
import json
import time

import pytest
from support.server_messages import HOSTILE, as_json, messages, real_games, sample

from mexitrain.net import protocol
from mexitrain.net.protocol import (
    BAD_SERVER_MESSAGE,
    BAD_SERVER_REASONS,
    MAX_EVENTS,
    MAX_SERVER_MESSAGE,
    Error,
    ProtocolError,
    Refused,
    check_follows,
    decode_server,
    encode,
    refusal,
)
from mexitrain.rules.errors import CODES
from mexitrain.text.names import first_unprintable
from mexitrain.text.net import error_text, refused_text


def refused(data: dict | str) -> dict:
    """The values of the ProtocolError ``data`` is refused with (it must be)."""
    text = data if isinstance(data, (str, bytes)) else json.dumps(data)
    with pytest.raises(ProtocolError) as caught:
        decode_server(text)
    exc = caught.value
    assert exc.code == BAD_SERVER_MESSAGE
    assert exc.values["reason"] in BAD_SERVER_REASONS
    assert_safe(exc.values)
    return exc.values


def assert_safe(values: dict) -> None:
    """Values and their sentence hold nothing a terminal would obey, on one line."""
    for value in values.values():
        assert value is None or isinstance(value, int) or first_unprintable(value) is None
    line = error_text(BAD_SERVER_MESSAGE, values)
    assert first_unprintable(line) is None and "\n" not in line
    for bad in ("\x1b", "\x9b", "\u202e", "\u2028", "\u200b", "pwned", "evil", "cm0g"):
        assert bad not in line and bad not in str(values)


def first_round_update():
    """A real update of seat 0 of a 4-player game in its first round, some moves in."""
    return next(
        m for m in real_games()["updates"]
        if m.view.players == 4 and m.view.seat == 0 and len(m.view.events) > 4 and not m.view.results
        and m.view.rules.set == 12
    )


def update(**view_changes) -> dict:
    """:func:`first_round_update` as JSON, with ``view_changes``."""
    data = as_json(first_round_update())
    data["view"].update(view_changes)
    return data


# -- the legitimate traffic ----------------------------------------------------------------------


def test_every_message_of_real_games_decodes_as_it_was_sent():
    pool = real_games()
    for kind, msgs in pool.items():
        for msg in msgs:
            assert decode_server(encode(msg)) == msg, kind
    assert any(m.view.phase == "game_over" for m in pool["updates"])
    assert any(m.view.results and not m.view.phase == "game_over" for m in pool["updates"])
    assert any(m.view.rules.open_hands for m in pool["updates"])
    assert any(m.away for m in pool["updates"])


# -- (a) every string field refuses what a terminal would obey ------------------------------------


def _string_paths(data, path=()):
    """Every string of a JSON object (its path), each list's first item only."""
    if isinstance(data, str):
        yield path
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _string_paths(value, (*path, key))
    elif isinstance(data, list) and data:
        yield from _string_paths(data[0], (*path, 0))


def _set(data, path, value):
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _string_fields():
    """(message, path) of each string field of each server message type, once each; the
    lobby's open seat (an empty name) and an update's away seat and finished rounds included."""
    seen = set()
    out = []
    pool = real_games()
    for msg in sample(("lobbies", "updates"), per_kind=12) + pool["welcomes"] + pool["refusals"] + pool["errors"]:
        data = as_json(msg)
        for path in _string_paths(data):
            if path == ("type",):
                continue
            shape = (data["type"], tuple(p if isinstance(p, str) else 0 for p in path))
            if shape not in seen:
                seen.add(shape)
                out.append((data, path))
    return out


STRING_FIELDS = _string_fields()


def test_the_string_fields_cover_every_message_type_and_the_names():
    shapes = {(d["type"], ".".join(map(str, p))) for d, p in STRING_FIELDS}
    for expected in [
        ("welcome", "table"), ("welcome", "token"), ("lobby", "seats.0.name"), ("lobby", "seats.0.kind"),
        ("lobby", "rules.engine"), ("update", "names.0"), ("update", "kinds.0"), ("update", "away.0.name"),
        ("update", "view.phase"), ("update", "view.events.0.type"), ("update", "view.results.0.end"),
        ("refused", "code"), ("refused", "values.why"), ("refused", "values.train"), ("error", "code"),
        ("error", "values.field"), ("error", "values.type"),
    ]:
        assert expected in shapes, expected


@pytest.mark.parametrize("payload", list(HOSTILE), ids=list(HOSTILE))
def test_every_string_field_of_every_message_refuses_escapes_and_invisible_text(payload):
    for data, path in STRING_FIELDS:
        data = copy.deepcopy(data)
        _set(data, path, HOSTILE[payload])
        values = refused(data)
        assert values["type"] == data["type"], path


@pytest.mark.parametrize("payload", ["esc", "osc52", "c1", "bidi", "line_sep"])
def test_a_control_character_is_said_by_its_code_point_and_its_field(payload):
    values = refused(update(**{}) | {"names": ["P0", HOSTILE[payload], "P2", "P3"]})
    assert values["field"] == "names.1" and values["reason"] == "unprintable"
    assert values["char"] == f"U+{ord(first_unprintable(HOSTILE[payload])):04X}"
    line = error_text(BAD_SERVER_MESSAGE, values)
    assert line.startswith("The table sent something this version cannot read: names.1 holds the control character U+")


@pytest.mark.parametrize("name", ["", "   ", "\u200b", "\u3164", "\u2800"])
def test_a_name_of_nothing_is_refused(name):
    """Item 6: a zero-width name would show as nobody."""
    values = refused(update() | {"names": ["P0", name, "P2", "P3"]})
    assert (values["field"], values["reason"]) == ("names.1", "invisible")
    data = as_json(real_games()["lobbies"][1])
    data["seats"][2]["name"] = name
    assert refused(data)["field"] == "seats.2.name"


def test_an_open_seat_has_no_name_yet_and_a_taken_one_needs_one():
    data = as_json(real_games()["lobbies"][0])
    assert data["seats"][1] == {"seat": 1, "name": "", "kind": "open", "level": None, "connected": False, "host": False}
    assert decode_server(json.dumps(data)).seats[1].name == ""
    data["seats"][1]["kind"] = "person"
    assert refused(data)["reason"] == "invisible"


def test_a_hostile_key_in_values_is_refused_without_being_repeated():
    for key in ["\x1b]52;c;cm0g\x07", "code", "self", "Tile", "", "x" * 41]:
        values = refused({"type": "error", "code": "bad_seat", "values": {key: 1}})
        assert (values["field"], values["reason"]) == ("values", "unknown_field")
        values = refused({"type": "refused", "seq": 1, "code": "not_in_hand", "values": {"tile": [1, 2], key: 1}})
        assert (values["field"], values["reason"]) == ("values", "unknown_field")


# -- refusals and errors: the values their codes have --------------------------------------------


@pytest.mark.parametrize(
    "values, field, reason",
    [
        ({}, "values.tile", "missing"),
        ({"tile": "3-4"}, "values.tile", "bad_field"),
        ({"tile": [3]}, "values.tile", "bad_field"),
        ({"tile": [4, 3]}, "values.tile", "bad_field"),  # a tile in a hand is written low half first
        ({"tile": [3, 99]}, "values.tile", "bad_field"),
        ({"tile": [True, 3]}, "values.tile", "bad_field"),
        ({"tile": {"a": 1}}, "values.tile", "bad_field"),
        ({"tile": [1, 2], "x": 10**30}, "values.x", "out_of_range"),
        ({"tile": [1, 2], "x": [[[1]]]}, "values.x", "bad_field"),
        ({"tile": [1, 2], "x": 1.5}, "values.x", "bad_field"),
    ],
)
def test_a_refusal_has_the_values_of_its_code(values, field, reason):
    """Item 3: values that miss a key, have a wrong type or use a key named code or self
    crashed the app."""
    got = refused({"type": "refused", "seq": 1, "code": "not_in_hand", "values": values})
    assert (got["field"], got["reason"]) == (field, reason)


def test_every_rules_refusal_and_the_tables_own_keep_their_values_and_drop_the_unknown():
    pool = real_games()["refusals"]
    assert {m.code for m in pool} >= {"not_in_hand", "must_play", "does_not_fit", "not_your_turn", "no_train"}
    for msg in pool:
        data = as_json(msg)
        data["values"]["later_value"] = "fine"
        back = decode_server(json.dumps(data))
        assert back == msg and "later_value" not in back.values


@pytest.mark.parametrize("code", sorted(set(CODES) | set(protocol.REFUSAL_CODES) | {"a_newer_code"}))
def test_a_refusal_of_any_code_without_its_values_is_refused_or_worded(code):
    """No KeyError, no TypeError: a refusal decodes only with what its sentence needs."""
    try:
        msg = decode_server(json.dumps({"type": "refused", "seq": 1, "code": code, "values": {}}))
    except ProtocolError as exc:
        assert exc.values["reason"] == "missing"
        return
    text = refused_text(refusal(msg), ("A", "B"), 0)
    assert text and "\n" not in text


def test_an_error_keeps_the_values_its_code_has():
    assert decode_server(json.dumps({"type": "error", "code": "bad_seat", "values": {"seat": 2, "why": "x"}})).values == {
        "seat": 2
    }
    assert decode_server(json.dumps({"type": "error", "code": "a_newer_code", "values": {"n": 1}})).values == {}
    for values, field in [
        ({"seat": -1}, "values.seat"),
        ({"seat": "1"}, "values.seat"),
        ({"resumable": 1}, None),
        ({"limit": 2**60}, "values.limit"),
    ]:
        code = "table_closed" if "resumable" in values else "too_big" if "limit" in values else "bad_seat"
        got = refused({"type": "error", "code": code, "values": values})
        assert got["field"] == (field or "values.resumable")
    assert refused({"type": "error", "code": "version", "server_version": 10**9})["field"] == "server_version"


def test_every_error_is_worded_in_one_line_with_any_values():
    """text.net never raises on an error's values, whatever their kind or absence."""
    junk = [None, True, -1, 2**70, "\x1b[2J", [1, 2], {"a": 1}, 1.5, ""]
    keys = ["type", "field", "limit", "version", "seat", "resumable", "reason", "char", "turn"]
    codes = list(protocol.ERROR_CODES) + [BAD_SERVER_MESSAGE, "lost", "unreachable", "refused_connection", "zz"]
    for code in codes:
        for value in junk:
            for server_version in (None, 3, "x"):
                line = error_text(code, dict.fromkeys(keys, value), server_version)  # type: ignore[arg-type]
                assert line and "\n" not in line and "\x1b" not in line
        assert error_text(code, None) and error_text(code, {}) and error_text(code, ["x"])  # type: ignore[arg-type]
    for reason in BAD_SERVER_REASONS:
        line = error_text(BAD_SERVER_MESSAGE, {"type": "update", "field": "view.turn", "reason": reason, "char": "U+001B", "limit": 5})
        assert line.startswith("The table sent something this version cannot read: ") and line.endswith(".")


def test_a_refused_message_never_crashes_its_sentence():
    """Values that slip past their check still give a sentence (text.net guards reason_text)."""
    from mexitrain.rules import IllegalAction

    for code in CODES:
        for values in [{}, {"tile": "x", "train": None, "example": 3, "why": 5, "end": None}]:
            text = refused_text(IllegalAction(code, **values), ("A",), 0)
            assert text and "\n" not in text


# -- (b) views the rules could not give ------------------------------------------------------------


def _over(data: dict) -> dict:
    data["view"]["phase"] = "game_over"
    return data


IMPOSSIBLE = {
    "a million players": (update(players=1_000_000), "view.players", "out_of_range"),
    "a billion players": (update(players=10**9), "view.players", "out_of_range"),
    "one player": (update(players=1), "view.players", "out_of_range"),
    "players beyond the hand table": (update(players=11), "view.players", "out_of_range"),
    "a game over with 1000 players": (_over(update(players=1000)), "view.players", "out_of_range"),
    "a turn out of range": (update(turn=4), "view.turn", "out_of_range"),
    "a negative turn": (update(turn=-1), "view.turn", "out_of_range"),
    "a seat out of range": (update(seat=9), "view.seat", "out_of_range"),
    "a first seat out of range": (update(first_seat=99), "view.first_seat", "out_of_range"),
    "fewer names than seats": (update() | {"names": ["P0", "P1", "P2"]}, "names", "inconsistent"),
    "more kinds than seats": (update() | {"kinds": ["person"] * 5}, "kinds", "inconsistent"),
    "fewer hand sizes": (update(hand_sizes=[15, 15, 15]), "view.hand_sizes", "inconsistent"),
    "a train short": (None, "view.trains", "inconsistent"),
    "a tile outside the set": (None, "view.hands.0", "out_of_range"),
    "a tile twice": (None, "view.hands.0", "inconsistent"),
    "a hand size beyond the set": (None, "view.hand_sizes.1", "out_of_range"),
    "more tiles than the set": (update(boneyard_size=200), "view.boneyard_size", "out_of_range"),
    "a tile missing": (update(boneyard_size=0), "view.boneyard_size", "inconsistent"),
    "round 14 of 2": (update(round=14), "view.round", "out_of_range"),
    "round 0": (update(round=0), "view.round", "out_of_range"),
    "a million rounds in the rules": (None, "view.rules.rounds", "out_of_range"),
    "another seat's hand shown": (None, "view.hands.1", "inconsistent"),
    "an away seat out of range": (None, "away.0.seat", "out_of_range"),
    "a score beyond the set's pips": (None, "view.results.0.scores", "out_of_range"),
    "a winner before the end": (update(winners=[0]), "view.winners", "inconsistent"),
    "a game over without a winner": (None, "view.winners", "inconsistent"),
    "an unknown round end": (None, "view.results.0.end", "bad_field"),
    "an event of a seat out of range": (None, "view.events.0.seat", "out_of_range"),
    "idle turns beyond the players": (update(idle_turns=10**6), "view.idle_turns", "out_of_range"),
    "a branch without branching": (None, "view.trains.0.lines", "out_of_range"),
}


def _impossible(name: str) -> dict:
    data, _field, _reason = IMPOSSIBLE[name]
    if data is not None:
        return data
    data = update()
    v = data["view"]
    if name == "a train short":
        v["trains"] = v["trains"][:-1]
    elif name == "a tile outside the set":
        v["hand"][0] = v["hands"][0][0] = [13, 13]
    elif name == "a tile twice":
        v["hand"][1] = v["hands"][0][1] = v["hand"][0]
    elif name == "a hand size beyond the set":
        v["hand_sizes"][1] = 10**6
    elif name == "a million rounds in the rules":
        v["rules"]["engine"], v["rules"]["rounds"] = "highest_double", 10**6
    elif name == "another seat's hand shown":
        v["hands"][1] = []
    elif name == "an away seat out of range":
        data["away"] = [{"seat": 7, "name": "Bo", "seconds": 1}]
    elif name in ("a score beyond the set's pips", "a game over without a winner", "an unknown round end"):
        data = as_json(next(m for m in real_games()["updates"] if m.view.phase == "game_over" and m.view.players == 4))
        v = data["view"]
        if name == "a score beyond the set's pips":
            v["results"][0]["scores"][1] = 10**7
        elif name == "a game over without a winner":
            v["winners"] = []
        else:
            v["results"][0]["end"] = "\u202edomino"[1:] + "!"
    elif name == "an event of a seat out of range":
        v["events"] = [{"seat": 40, "type": "pass"}]
    elif name == "a branch without branching":
        v["trains"][0]["lines"].append([])
        v["trains"][0]["starts"].append(12)
    return data


@pytest.mark.parametrize("name", list(IMPOSSIBLE))
def test_a_view_the_rules_cannot_give_is_refused(name):
    """Item 2 and 3: each of these froze, exhausted or crashed the guest."""
    _data, field, reason = IMPOSSIBLE[name]
    values = refused(_impossible(name))
    assert (values["type"], values["field"], values["reason"]) == ("update", field, reason)


HUGE = {
    "hand sizes": ("hand_sizes", [0] * 400_000),
    "events": ("events", [{"seat": 0, "type": "pass"}] * 38_000),
    "a hand": ("hand", [[1, 2]] * 130_000),
    "hands": ("hands", [None] * 200_000),
    "trains": ("trains", [{"owner": 0, "lines": [[]], "starts": [0]}] * 25_000),
    "results": ("results", [{}] * 300_000),
    "lines": ("trains", [{"owner": 0, "lines": [[]] * 200_000, "starts": [0]}]),
}


@pytest.mark.parametrize("name", list(HUGE))
def test_a_near_megabyte_of_one_list_is_refused_before_any_model_is_built(name, monkeypatch):
    """Decoding is bounded: a list longer than the rules can give is counted in the parsed
    JSON and refused before pydantic builds anything of it."""
    key, value = HUGE[name]
    text = json.dumps(update(**{key: value}), separators=(",", ":"))
    assert protocol.QUICK_SERVER_MESSAGE < len(text) <= MAX_SERVER_MESSAGE

    def never(*args, **kwargs):
        raise AssertionError("a model was built")

    monkeypatch.setattr(protocol.SERVER_ADAPTER, "validate_python", never)
    start = time.perf_counter()
    values = refused(text)
    assert values["reason"] == "out_of_range" and values["field"].startswith(f"view.{key}")
    assert time.perf_counter() - start < 5  # about 0.05 s; generous for a loaded machine


def test_the_event_bound_leaves_room_to_spare_for_real_rounds():
    most = max(len(m.view.events) for m in real_games()["updates"])
    assert most * 4 < protocol.max_events(91, 4) < MAX_EVENTS


def test_over_the_size_cap_is_refused_without_parsing():
    values = refused("[" * (MAX_SERVER_MESSAGE + 1))
    assert values == {"type": None, "field": "", "reason": "too_big", "limit": MAX_SERVER_MESSAGE}


@pytest.mark.parametrize(
    "text, reason",
    [
        ("not json", "bad_json"),
        ("[1]", "bad_json"),
        ("[" * 100_000 + "]" * 100_000, "bad_json"),
        ('{"type": "\\u001b]0;x\\u0007"}', "unknown_type"),
        ('{"type": "hello"}', "unknown_type"),
        ('{"type": "welcome", "seat": 0, "token": "abcdefgh", "host": true, "table": "ABCDEF", "version": 99}', "inconsistent"),
        ('{"type": "welcome", "seat": 0, "token": "abcdefgh", "host": true, "table": "ABCDEI"}', "bad_field"),
        ('{"type": "welcome", "seat": 0, "token": "abcdefgh", "host": true, "table": "ABCDEF", "x": 1}', "unknown_field"),
        (b'{"type": "error", "code": "\xff"}', "bad_json"),
        ('{"type": "error", "code": "x", "values": {"field": "\\ud800"}}', "unprintable"),
    ],
)
def test_broken_messages_are_refused_with_a_reason(text, reason):
    values = refused(text)
    assert values["reason"] == reason
    assert values["type"] in (None, "welcome", "error")


# -- one message after another --------------------------------------------------------------------


def test_a_second_update_of_another_table_is_refused_by_check_follows():
    """Item 3: a second update with another number of hand sizes crashed the app."""
    pool = real_games()
    first = first_round_update()
    welcome = protocol.Welcome(seat=first.view.seat, token="abcdEFGH", host=False, table="ABCDEF")
    lobby = pool["lobbies"][1]
    check_follows(first, welcome=welcome, lobby=lobby)
    later = [m for m in pool["updates"] if (m.view.rules, m.view.players, m.view.seat) == (
        first.view.rules, first.view.players, first.view.seat)]
    check_follows(later[-1], welcome=welcome, update=first, lobby=lobby)
    other = next(m for m in pool["updates"] if m.view.players != first.view.players and m.view.seat == first.view.seat)
    for kw, field in [
        (dict(welcome=welcome, update=first), "view.players"),
        (dict(welcome=welcome, lobby=lobby), "view.players"),
        (dict(welcome=None), ""),
        (dict(welcome=welcome.model_copy(update={"seat": 2})), "view.seat"),
        (dict(welcome=welcome.model_copy(update={"seat": None})), "view.seat"),
    ]:
        with pytest.raises(ProtocolError) as caught:
            check_follows(other if "update" in kw or "lobby" in kw else first, **kw)
        assert caught.value.code == BAD_SERVER_MESSAGE and caught.value.values["field"] == field
    with pytest.raises(ProtocolError) as caught:
        check_follows(first, welcome=None)
    assert caught.value.values == {"type": "update", "field": "", "reason": "out_of_order"}
    with pytest.raises(ProtocolError):
        check_follows(pool["lobbies"][-1], lobby=lobby)  # another table's seats
    with pytest.raises(ProtocolError):
        check_follows(welcome.model_copy(update={"seat": 3}), update=first)
    check_follows(Error(code="flood"), welcome=None)
    check_follows(Refused(seq=1, code="not_started"), welcome=None)


def test_messages_of_legitimate_games_follow_each_other():
    pool = real_games()
    by_game: dict = {}
    for m in pool["updates"]:
        by_game.setdefault((m.view.rules, m.view.players, m.view.seat), []).append(m)
    for (rules, players, seat), ups in by_game.items():
        welcome = protocol.Welcome(seat=seat, token="abcdEFGH", host=False, table="ABCDEF")
        lobby = next(lb for lb in pool["lobbies"] if lb.rules == rules and len(lb.seats) == players)
        before = None
        for m in ups:
            check_follows(m, welcome=welcome, lobby=lobby, update=before)
            before = m
        check_follows(lobby, lobby=lobby, update=before, welcome=welcome)


def test_decoded_messages_need_no_second_check():
    for m in messages():
        msg = decode_server(json.dumps(m))
        assert protocol.check_server_message(msg) == msg


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"revealed_seed": 2**128 + 1}, "view.revealed_seed"),  # a seed while the game runs
        ({"seal": "not a seal"}, "view.seal"),
        ({"seal": "A" * 64}, "view.seal"),  # upper-case hex is no seal of ours
    ],
)
def test_the_fair_deal_fields_are_what_the_rules_make(changes, field):
    """docs/fair-deal.md: the seal is SHA-256 in hex, the seed is only revealed at the end."""
    assert refused(update(**changes))["field"] == field
    assert decode_server(json.dumps(update(seal="0" * 64))).view.seal == "0" * 64


# -- the core's facts in a view (issue 33) --------------------------------------------------------


def _my_turn_update():
    """A real update where seat 0 is to move, with its legal moves."""
    return next(
        m for m in real_games()["updates"]
        if m.view.my_turn and len(m.view.legal) > 1 and not m.view.results
    )


def test_the_facts_of_a_view_must_agree_with_it():
    msg = _my_turn_update()
    data = as_json(msg)
    assert decode_server(json.dumps(data)).view.legal == msg.view.legal  # as sent
    # moves on another seat's turn
    waiting = next(m for m in real_games()["updates"] if not m.view.my_turn and m.view.phase != "game_over")
    other = as_json(waiting)
    other["view"]["legal"] = data["view"]["legal"]
    assert refused(other)["field"] == "view.legal"
    # a move with a tile the hand does not hold
    bad = copy.deepcopy(data)
    plays = [a for a in bad["view"]["legal"] if a["type"] == "play"]
    held = {tuple(sorted(t)) for t in bad["view"]["hand"]}
    stranger = next(t for t in ((a, b) for a in range(13) for b in range(a, 13)) if t not in held)
    plays[0]["tile"] = list(stranger)
    assert refused(bad)["field"].startswith("view.legal.")
    # a forced move that is not the only legal one
    bad = copy.deepcopy(data)
    bad["view"]["forced"] = {"type": "mark"}
    assert refused(bad)["field"] == "view.forced"
    # an open double where the line ends in no double; a knock of a seat with many tiles
    bad = copy.deepcopy(data)
    bad["view"]["doubles"] = [{"train": 0, "line": 0, "pips": 12, "satisfiable": True, "owed": False, "blocks": True}]
    assert refused(bad)["field"] == "view.doubles.0"
    bad = copy.deepcopy(data)
    bad["view"]["knock"] = next(s for s, k in enumerate(msg.view.hand_sizes) if k > 1)
    assert refused(bad)["field"] == "view.knock"
