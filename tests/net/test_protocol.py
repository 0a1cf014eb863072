"""The wire protocol (docs/protocol.md): every message round-trips, bad input is a code."""

from __future__ import annotations

import json
import random

import pytest

from mexitrain.net.protocol import (
    CODE_ALPHABET,
    ERROR_CODES,
    MAX_CLIENT_MESSAGE,
    MAX_SERVER_MESSAGE,
    PROTOCOL_VERSION,
    Away,
    Bye,
    Error,
    HandOver,
    Hello,
    Intent,
    Lobby,
    LobbySeat,
    ProtocolError,
    Refused,
    StartGame,
    Update,
    Welcome,
    decode_client,
    decode_server,
    encode,
    new_code,
    normalise_code,
    refusal,
    refused_of,
)
from mexitrain.rules import (
    DRAW,
    MARK,
    PASS,
    SKIP,
    IllegalAction,
    Play,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    view,
)
from mexitrain.rules.errors import CODES

TOKEN = "abcdEFGH1234_-xyz"

CLIENT_MESSAGES = [
    Hello(code="ABCDEF", name="Ann", token=None, lang="fr"),
    Hello(code="abc-def", name="Zoë 🚂", token=TOKEN, lang="en"),
    Intent(seq=0, action=DRAW),
    Intent(seq=7, action=MARK),
    Intent(seq=8, action=PASS),
    Intent(seq=9, action=SKIP),
    Intent(seq=10, action=Play(tile=(12, 3), train="mexican")),
    Intent(seq=11, action=Play(tile=(3, 4), train=2, branch=1)),
    StartGame(level="greedy"),
    HandOver(seat=3, level="random"),
    Bye(),
]


def _played(n: int):
    state = new_game(RuleSet(), players=4, seed=3)
    for _ in range(n):
        state = apply(state, legal_actions(state)[0])
    return state


def server_messages():
    state = _played(30)
    return [
        Welcome(seat=1, token=TOKEN, host=False, table="ABCDEF"),
        Welcome(seat=None, token=TOKEN, host=True, table="ABCDEF"),
        Lobby(
            seats=(
                LobbySeat(seat=0, name="Ann", kind="person", connected=True),
                LobbySeat(seat=1, name="", kind="open"),
                LobbySeat(seat=2, name="Cal", kind="computer", level="expert"),
            ),
            rules=RuleSet(set=9, hand_table="fast"),
            started=False,
        ),
        Update(
            seq=30,
            view=view(state, 2),
            names=("Ann", "Bea", "Cal", "Dot"),
            kinds=("person", "person", "computer", "person"),
            away=(Away(seat=1, name="Bea", seconds=42),),
        ),
        Refused(seq=4, code="does_not_fit", values={"tile": [3, 4], "train": "mexican", "end": 5}),
        Error(code="version", values={"version": 2}, fatal=True, server_version=PROTOCOL_VERSION),
    ]


@pytest.mark.parametrize("msg", CLIENT_MESSAGES, ids=lambda m: m.type)
def test_client_messages_round_trip(msg):
    assert decode_client(encode(msg)) == msg
    assert decode_client(encode(msg).encode()) == msg


def test_server_messages_round_trip():
    for msg in server_messages():
        assert decode_server(encode(msg)) == msg, msg.type


def test_an_update_carries_exactly_the_seats_view():
    state = _played(30)
    msg = decode_server(encode(Update(seq=1, view=view(state, 2), names=("a",) * 4, kinds=("person",) * 4)))
    assert msg.view == view(state, 2)
    assert msg.view.hands[0] is None and msg.view.hands[2] == state.hands[2]
    assert "boneyard" not in json.loads(encode(msg))["view"]


@pytest.mark.parametrize(
    "text, code",
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('"hello"', "bad_json"),
        ("[" * 100_000 + "]" * 100_000, "too_big"),
        ("[" * 5000 + "]" * 5000, "bad_json"),
        ("{}", "unknown_type"),
        ('{"type": "launch"}', "unknown_type"),
        ('{"type": 3}', "unknown_type"),
        ('{"type": "welcome", "seat": 0, "token": "abcdefgh", "host": true, "table": "A"}', "unknown_type"),
        ('{"type": "intent", "seq": 1}', "bad_message"),
        ('{"type": "intent", "seq": -1, "action": {"type": "draw"}}', "bad_message"),
        ('{"type": "intent", "seq": 1, "action": {"type": "fly"}}', "bad_message"),
        ('{"type": "intent", "seq": 1, "action": {"type": "play", "tile": [3, 99], "train": 0}}', "bad_message"),
        ('{"type": "bye", "extra": 1}', "bad_message"),
        ('{"type": "start", "level": "god"}', "bad_message"),
        ('{"type": "hand_over", "seat": 100, "level": "random"}', "bad_message"),
        ('{"type": "hello", "code": "A", "name": "\\u001b[31mX"}', "bad_message"),
        ('{"type": "hello", "code": "A", "name": "Bo\\u202e"}', "bad_message"),
        ('{"type": "hello", "code": "A", "name": "   "}', "bad_message"),
        ('{"type": "hello", "code": "A", "name": "' + "x" * 21 + '"}', "bad_message"),
        ('{"type": "hello", "code": "A", "name": "Ann", "token": "short"}', "bad_message"),
        ('{"type": "hello", "code": "A", "name": "Ann", "token": "' + "a" * 65 + '"}', "bad_message"),
        ('{"type": "hello", "code": "A", "name": "Ann", "lang": "../../etc"}', "bad_message"),
        ('{"type": "hello", "code": "' + "A" * 33 + '", "name": "Ann"}', "bad_message"),
        ('{"type": "hello", "version": 99, "code": "A", "name": "Ann", "new": 1}', "version"),
        ('{"type": "hello", "version": 0, "code": "A", "name": "Ann"}', "version"),
    ],
)
def test_bad_client_messages_are_codes(text, code):
    with pytest.raises(ProtocolError) as caught:
        decode_client(text)
    assert caught.value.code == code
    assert caught.value.code in ERROR_CODES


def test_a_bad_message_names_its_type_and_field():
    with pytest.raises(ProtocolError) as caught:
        decode_client('{"type": "intent", "seq": "x", "action": {"type": "draw"}}')
    assert caught.value.values == {"type": "intent", "field": "seq"}


def test_another_version_is_reported_with_the_version():
    with pytest.raises(ProtocolError) as caught:
        decode_client(json.dumps({"type": "hello", "version": 99, "code": "ABCDEF", "name": "A"}))
    assert caught.value.values == {"version": 99}


def test_the_client_message_cap_counts_bytes():
    name_pad = "é" * (MAX_CLIENT_MESSAGE // 2)  # under the cap in characters, over it in bytes
    text = json.dumps({"type": "bye", "pad": name_pad}, ensure_ascii=False)
    assert len(text) < MAX_CLIENT_MESSAGE < len(text.encode())
    with pytest.raises(ProtocolError) as caught:
        decode_client(text)
    assert caught.value.code == "too_big" and caught.value.values == {"limit": MAX_CLIENT_MESSAGE}


def test_server_messages_have_a_larger_cap():
    with pytest.raises(ProtocolError) as caught:
        decode_server(" " * (MAX_SERVER_MESSAGE + 1))
    assert caught.value.code == "bad_server_message"
    assert caught.value.values == {"type": None, "field": "", "reason": "too_big", "limit": MAX_SERVER_MESSAGE}
    with pytest.raises(ProtocolError) as caught:
        decode_server('{"type": "update", "seq": 0}')
    assert caught.value.values == {"type": "update", "field": "names", "reason": "missing"}  # the first missing one


def test_a_refusal_round_trips_to_the_same_illegal_action():
    """Every refusal of the rules (§5-§8) comes back with its code and values as the rules
    raise them: tiles and examples as tuples again."""
    state = new_game(RuleSet(), players=4, seed=3)
    seen = set()
    rng = random.Random(1)
    for _ in range(300):
        legal = legal_actions(state)
        for action in [DRAW, MARK, PASS, SKIP, Play(tile=(12, 5), train=0), Play(tile=(0, 0), train="mexican")]:
            if action in legal:
                continue
            try:
                apply(state, action)
            except IllegalAction as exc:
                back = refusal(decode_server(encode(refused_of(5, exc))))
                assert (back.code, back.values) == (exc.code, exc.values)
                assert str(back) == str(exc)
                seen.add(exc.code)
        state = apply(state, rng.choice(legal))
        if state.over:
            break
    assert len(seen) >= 5 and seen <= set(CODES)


def test_table_codes():
    rng = random.Random(4)
    codes = {new_code(rng) for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
        assert normalise_code(code.lower()) == code
        assert normalise_code(f" {code[:3]}-{code[3:].lower()} ") == code
    assert not set("IO01") & set(CODE_ALPHABET)
    for bad in ("", "ABCDE", "ABCDEFG", "ABCDE0", "ABCDEI", "ÄBCDEF", "A" * 1000, None):
        assert normalise_code(bad) is None
