"""Fuzzing the loader: whatever the bytes, a SaveError with one clear line, or a game.

Mutations of valid save files (byte flips, truncations, deleted or replaced keys and values)
and random JSON or bytes. Never an unhandled exception, never an "internal error".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from support.french import in_french
from support.games import finish, play, start
from support.tables import table

from mexitrain.rules import RuleSet
from mexitrain.storage.savefile import SavedGame, SaveError, parse_save, save_data, save_text
from mexitrain.text.files import save_error_text

PATH = Path("/nowhere/fuzz.json")
_SETUP = table(RuleSet(set=6, rounds=2, blanks_wild=True), players=3)
_MID = play(start(_SETUP), 30, rng=1)
VALID = {
    "mid": save_text(save_data(_MID, _SETUP, speed=0.5, name="fuzz")).encode(),
    "done": save_text(save_data(finish(_MID, 2), _SETUP)).encode(),
}


def check(data: bytes) -> SavedGame | None:
    try:
        return parse_save(data, PATH)
    except SaveError as exc:
        text = str(exc)
        assert "\n" not in text and "\r" not in text
        assert text.startswith(f"cannot load {PATH}: "), text
        assert len(text) > len(f"cannot load {PATH}: ") + 5
        assert "internal error" not in text, text
        assert exc.path == PATH
        assert exc.code is not None, text
        french = in_french(save_error_text, exc, PATH)
        assert french.startswith(f"impossible de charger {PATH} : "), french
        return None


def test_the_valid_files_load() -> None:
    assert check(VALID["mid"]).state == _MID
    assert check(VALID["done"]).state.over


@given(which=st.sampled_from(sorted(VALID)), flips=st.lists(
    st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=6,
))
def test_byte_flips(which: str, flips: list[tuple[int, int]]) -> None:
    data = bytearray(VALID[which])
    for pos, value in flips:
        data[pos % len(data)] = value
    check(bytes(data))


@given(which=st.sampled_from(sorted(VALID)), cut=st.integers(0, 10**6))
def test_truncations(which: str, cut: int) -> None:
    data = VALID[which]
    got = check(data[: cut % len(data)])
    assert got is None  # any strict prefix of a save is refused


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@given(
    which=st.sampled_from(sorted(VALID)),
    data=st.data(),
    edits=st.integers(1, 3),
)
def test_deleted_and_replaced_keys_and_values(which: str, data: st.DataObject, edits: int) -> None:
    doc = json.loads(VALID[which])
    for _ in range(edits):
        paths = [p for p in _paths(doc) if p]
        path = data.draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        action = data.draw(st.sampled_from(["delete", "replace", "nudge", "rename"]))
        if action == "delete":
            del parent[key]
        elif action == "replace":
            parent[key] = data.draw(JSON)
        elif action == "nudge" and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] += data.draw(st.sampled_from([-1, 1, 7, -100]))
        elif action == "rename" and isinstance(parent, dict):
            parent[data.draw(st.text(max_size=6))] = parent.pop(key)
    check(json.dumps(doc).encode())


@given(doc=JSON)
def test_random_json(doc: Any) -> None:
    assert check(json.dumps(doc).encode()) is None


@given(app=JSON, record=JSON, version=st.sampled_from([1, 1, 2, 0, -1, "1", None]))
def test_random_json_in_a_save_shape(app: Any, record: Any, version: Any) -> None:
    doc = {"format": "mexitrain-save", "version": version, "app": app, "record": record}
    assert check(json.dumps(doc).encode()) is None


@given(record=JSON)
def test_random_record_under_a_valid_app(record: Any) -> None:
    doc = json.loads(VALID["mid"])
    doc["record"] = record
    assert check(json.dumps(doc).encode()) is None


@given(raw=st.binary(max_size=200))
def test_random_bytes(raw: bytes) -> None:
    assert check(raw) is None
