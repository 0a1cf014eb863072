"""Issue 37, item 3: the protocol's schema fuzzed. Real server messages (every type, from whole
games of several rule sets: tests/support/server_messages.py) with one field changed (another
type, a huge or negative number, a hostile string, a key missing or added, a list grown or
cut); ``decode_server`` either returns a message that passes its own checks and that the
guest's board and sentences take without an exception, or raises ``ProtocolError``, never
anything else.

A small sample always runs (hypothesis's default profile); MEXITRAIN_HEAVY=1 runs many more
(the heavy profile, tests/conftest.py)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.heavy import HEAVY
from support.server_messages import HOSTILE, messages

from mexitrain.net.protocol import (
    BAD_SERVER_MESSAGE,
    BAD_SERVER_REASONS,
    Error,
    Lobby,
    ProtocolError,
    Refused,
    Update,
    Welcome,
    check_follows,
    check_server_message,
    decode_server,
    encode,
    refusal,
)
from mexitrain.rules import RuleSet, apply, legal_actions, new_game, view, view_legal_actions
from mexitrain.rules.ruleset import RuleSetError
from mexitrain.session import knocked
from mexitrain.text.events import event_line, round_header
from mexitrain.text.names import first_unprintable
from mexitrain.text.net import away_text, error_text, refused_text
from mexitrain.text.status import knock_line, turn_line
from mexitrain.ui.board import build, finished_round_view

POOL = messages()

#: Numbers at and beyond every bound: seats, sets, counts, JSON's safe integers, 64 bits.
NUMBERS = [-(2**64), -(10**9), -2, -1, 0, 1, 2, 3, 12, 13, 18, 19, 99, 190, 191, 1000, 10**6, 10**9, 2**53 + 1, 2**64, 10**30]


#: Words of the protocol, in places that may not take them: phases, event types, kinds...
WORDS = [
    "mexican", "turn", "drawn", "follow_up", "follow_up_drawn", "chain", "swan", "game_over", "person",
    "computer", "open", "expert", "play", "draw", "mark", "pass", "skip", "domino", "stuck", "blocked", "",
    "ABCDEF", "drawn_playable", "in_chain",
]


def _paths(data: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON value: each key of each object, each item of each list."""
    out = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _paths(value, (*path, i))
    return out


def _at(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


values = st.deferred(
    lambda: st.one_of(
        st.none(),
        st.booleans(),
        st.sampled_from(NUMBERS),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from(list(HOSTILE.values())),
        st.text(max_size=30),
        st.sampled_from(WORDS),
        st.lists(st.integers(-3, 20), max_size=3),
        st.lists(values, max_size=3),
        st.dictionaries(st.sampled_from(["code", "self", "seat", "x", "\x1b"]), values, max_size=2),
    )
)


def _change(draw, data: dict) -> dict:
    """``data`` with one change somewhere (a new object: ``data`` is left as it is)."""
    data = json.loads(json.dumps(data))
    path = draw(st.sampled_from(_paths(data)))
    op = draw(st.sampled_from(["swap", "number", "hostile", "delete", "add", "grow", "shrink", "copy"]))
    if not path:  # the message itself
        if op == "delete":
            return {}
        data[draw(st.sampled_from(["x", "type", "seq", "code"]))] = draw(values)
        return data
    parent, key = _at(data, path[:-1]), path[-1]
    here = parent[key]
    if op == "swap":
        parent[key] = draw(values)
    elif op == "number":
        parent[key] = draw(st.sampled_from(NUMBERS))
    elif op == "hostile":
        parent[key] = draw(st.sampled_from(list(HOSTILE.values())))
    elif op == "delete":
        del parent[key]
    elif op == "add" and isinstance(here, dict):
        here[draw(st.sampled_from(["x", "code", "self", "values", "\x1b[2J", "seat"]))] = draw(values)
    elif op == "grow" and isinstance(here, list):
        times = draw(st.sampled_from([1, 2, 13, 1000]))
        here.extend((here or [0]) * times)
    elif op == "shrink" and isinstance(here, list) and here:
        del here[draw(st.integers(0, len(here) - 1))]
    elif op == "copy":  # a value of a sibling: the right type, maybe the wrong place
        siblings = list(parent.values()) if isinstance(parent, dict) else list(parent)
        parent[key] = json.loads(json.dumps(draw(st.sampled_from(siblings))))
    else:
        parent[key] = draw(values)
    return data


@st.composite
def mutated(draw, changes: int = 1) -> str:
    """A real server message with ``changes`` changes (one field each), as JSON text."""
    data = draw(st.sampled_from(POOL))
    for _ in range(changes):
        data = _change(draw, data)
        if not isinstance(data, dict) or not data:
            break
    return json.dumps(data)


def _strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _screens(msg: Any) -> None:
    """What the guest's screens make of an accepted message, without Textual: the board, the
    legal moves, the log, the status lines, the sentences."""
    if isinstance(msg, Update):
        view, names = msg.view, msg.names
        kinds = tuple("human" if k == "person" else "random" for k in msg.kinds)
        board = build(view, names, kinds)
        assert board.view is view
        if view.my_turn:
            legal = view_legal_actions(view)
            turn_line(view, names, kinds, frozenset(a.type for a in legal), any(a.type == "play" for a in legal))
        for i in range(len(view.events)):
            event_line(view, names, i)
        round_header(view, names)
        knock_line(view, names)
        knocked(view, view)
        done = finished_round_view(view)
        if done is not None:
            for i in range(len(done.events)):
                event_line(done, names, i)
        for a in msg.away:
            away_text(a)
    elif isinstance(msg, Refused):
        line = refused_text(refusal(msg), ("A", "B", "C"), 0)
        assert first_unprintable(line) is None
    elif isinstance(msg, Error):
        line = error_text(msg.code, msg.values, msg.server_version)
        assert first_unprintable(line) is None
    elif isinstance(msg, Lobby):
        assert len(msg.seats) >= 2


def _decoded_or_refused(text: str) -> None:
    try:
        msg = decode_server(text)
    except ProtocolError as exc:
        assert exc.code == BAD_SERVER_MESSAGE
        assert exc.values["reason"] in BAD_SERVER_REASONS
        assert all(first_unprintable(s) is None for s in _strings(exc.values))
        line = error_text(exc.code, exc.values)
        assert first_unprintable(line) is None and "\n" not in line
        return
    assert check_server_message(msg) == msg
    assert all(first_unprintable(s) is None for s in _strings(msg.model_dump()))
    _screens(msg)


@given(mutated())
def test_one_changed_field_is_decoded_and_shown_or_refused(text):
    _decoded_or_refused(text)


@given(st.integers(2, 4).flatmap(lambda n: mutated(n)))
def test_several_changed_fields_are_decoded_and_shown_or_refused(text):
    _decoded_or_refused(text)


@given(mutated(), st.sampled_from([m for m in POOL if m["type"] == "update"]))
def test_a_changed_message_after_a_real_update_follows_it_or_is_refused(text, first):
    """What :func:`check_follows` says of a message after a real update: nothing, or that it
    does not follow; never another exception."""
    before = decode_server(json.dumps(first))
    welcome = Welcome(seat=before.view.seat, token="abcdEFGH", host=False, table="ABCDEF")
    try:
        msg = decode_server(text)
    except ProtocolError:
        return
    try:
        check_follows(msg, welcome=welcome, update=before)
    except ProtocolError as exc:
        assert exc.code == BAD_SERVER_MESSAGE and exc.values["reason"] == "inconsistent"


def test_every_pool_message_is_shown_unchanged():
    """The pool itself: every message decodes and is shown (MEXITRAIN_HEAVY: all of it)."""
    for data in POOL if HEAVY else POOL[::10]:
        msg = decode_server(json.dumps(data))
        _screens(msg)


#: Rule sets of the heavy sample of real games: every variant, and every set.
HEAVY_RULES = [
    RuleSet(rounds=2),
    RuleSet(set=18, rounds=1),
    RuleSet(set=15, rounds=1, branching_doubles=True, open_hands=True),
    RuleSet(set=9, hand_table="fast", trains_start_public=True, round_end="until_blocked", rounds=3),
    RuleSet(set=6, engine="highest_double", rounds=3, opening="first_turn_chain", swan_drive=True,
            double_follow_up="must_satisfy"),
    RuleSet(set=9, opening="delayed_first_turn", branching_doubles=True, double_follow_up="must_satisfy", rounds=3,
            teams=True),
    RuleSet(set=9, opening="simultaneous", blanks_wild=True, rounds=2),
    RuleSet(set=12, teams=True, team_marker="both_stuck", rounds=2),
]


@pytest.mark.slow
@pytest.mark.parametrize("k", range(len(HEAVY_RULES)))
def test_every_seats_view_of_whole_games_decodes(k):
    """MEXITRAIN_HEAVY: every view of every seat of whole games, every player count the rules
    allow, decodes as it was sent: the checks refuse nothing the rules give."""
    rules = HEAVY_RULES[k]
    rng = random.Random(k)
    for n in range(2, rules.max_players + 1):
        try:
            rules.check_players(n)
        except RuleSetError:
            continue
        state = new_game(rules, players=n, seed=k * 100 + n)
        names = tuple(f"P{i}" for i in range(n))
        while True:
            for seat in range(n):
                msg = Update(seq=1, view=view(state, seat), names=names, kinds=("person",) * n)
                assert decode_server(encode(msg)) == msg
            if state.over:
                break
            state = apply(state, rng.choice(legal_actions(state)))
