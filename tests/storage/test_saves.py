"""Saved games and the autosave: round trips, refusals with one clear line, bad files kept."""

from __future__ import annotations

import json
import os
import pickle
import re
from datetime import datetime
from pathlib import Path

import pytest
from support.french import in_french
from support.games import VARIANTS, finish, history, play, start
from support.tables import SHORT_RULES, table

from mexitrain.rules.record import replay, to_record
from mexitrain.storage import (
    SaveError,
    autosave,
    autosave_path,
    autosaves,
    clear_autosave,
    data_dir,
    find_autosave,
    list_saves,
    load_game,
    load_save,
    save_game,
    save_named,
    savefile,
    saves_dir,
)
from mexitrain.storage.records import write_record
from mexitrain.text.files import save_error_text


def _one_line_naming(exc: SaveError, path: Path) -> str:
    text = str(exc)
    assert "\n" not in text
    assert text.startswith(f"cannot load {path}: "), text
    # and for the player: in French, from the error's code, no English detail
    assert exc.code is not None, text
    french = in_french(save_error_text, exc, path)
    assert french.startswith(f"impossible de charger {path} : "), french
    return text


# ---------------------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_save_and_load_reach_the_identical_snapshot(variant: str, tmp_path: Path) -> None:
    setup = table(VARIANTS[variant], players=4, ai=("random",))
    for steps in (0, 17, 120):
        state = play(start(setup), steps, rng=steps)
        path = save_game(tmp_path / f"{variant}-{steps}.json", state, setup, speed=0.25, name="x")
        got_setup, got_state = load_game(path)
        assert got_setup == setup
        assert got_state == state
    done = finish(start(setup), rng=5)
    path = save_game(tmp_path / f"{variant}-done.json", done, setup)
    assert load_game(path) == (setup, done)


def test_save_file_shape_is_a_replayable_record(tmp_path: Path) -> None:
    setup = table(SHORT_RULES)
    state = play(start(setup), 9)
    path = save_game(tmp_path / "g.json", state, setup, speed=0.6, name="Sunday")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(data) == ["format", "version", "app", "record"]
    assert data["format"] == "mexitrain-save" and data["version"] == 1
    assert set(data["app"]) == {"setup", "speed", "saved_at", "name", "summary"}
    assert data["app"]["summary"] == {"round": len(data["record"]["rounds"]), "over": False}  # for Load…
    assert data["app"]["speed"] == 0.6 and data["app"]["name"] == "Sunday"
    assert datetime.fromisoformat(data["app"]["saved_at"]).tzinfo is not None
    assert data["app"]["setup"] == setup.model_dump(mode="json")
    assert replay(data["record"]) == state  # a saved game is also a replay
    game = load_save(path)
    assert (game.speed, game.name, game.path) == (0.6, "Sunday", path)


def test_a_bare_game_record_loads_too(tmp_path: Path) -> None:
    setup = table(SHORT_RULES)
    state = play(start(setup), 30)
    path = write_record(tmp_path / "rec.json", to_record(state, setup.seats))
    assert load_game(path) == (setup, state)


def test_save_refuses_a_setup_that_is_not_the_game(tmp_path: Path) -> None:
    setup = table(SHORT_RULES, seed=3)
    state = start(table(SHORT_RULES, seed=4))
    with pytest.raises(SaveError, match="does not match"):
        save_game(tmp_path / "x.json", state, setup)
    assert not (tmp_path / "x.json").exists()


# ---------------------------------------------------------------------------------------
# Bad files: one SaveError, one line naming the file, the file untouched
# ---------------------------------------------------------------------------------------
@pytest.fixture
def good(tmp_path: Path) -> tuple[Path, bytes]:
    setup = table(SHORT_RULES)
    state = play(start(setup), 25, rng=2)
    path = save_game(tmp_path / "game.json", state, setup)
    return path, path.read_bytes()


def _edit(data: bytes, change) -> bytes:
    obj = json.loads(data)
    change(obj)
    return json.dumps(obj).encode()


def _illegal_move(obj: dict) -> None:
    events = obj["record"]["rounds"][0]["events"]
    play_event = next(e for e in events if e["type"] == "play")
    play_event["tile"] = [play_event["tile"][1] + 1 if play_event["tile"][1] < 6 else 0, 6]


BAD = {
    "truncated": (lambda d: d[: len(d) // 2], "truncated"),
    "not utf-8": (lambda d: d[:40] + b"\xff\xfe" + d[42:], "not UTF-8"),
    "not json": (lambda d: b"this is not json at all", "not valid JSON"),
    "empty": (lambda d: b"", "empty"),
    "a list": (lambda d: b"[1, 2, 3]", "a list, not a JSON object"),
    "pickle": (lambda d: pickle.dumps({"format": "mexitrain-save"}), "not"),
    "wrong format": (lambda d: _edit(d, lambda o: o.update(format="chess-save")), "not a mexitrain saved game"),
    "no format": (lambda d: _edit(d, lambda o: o.pop("format")), 'no "format"'),
    "newer": (
        lambda d: _edit(d, lambda o: o.update(version=3)),
        "was written by a newer mexitrain (version 3; this one reads 1)",
    ),
    "version string": (lambda d: _edit(d, lambda o: o.update(version="1")), "whole number"),
    "no record": (lambda d: _edit(d, lambda o: o.pop("record")), "lacks 'record'"),
    "extra key": (lambda d: _edit(d, lambda o: o.update(evil=1)), "unknown 'evil'"),
    "app not object": (lambda d: _edit(d, lambda o: o.update(app=[])), "app must be an object"),
    "no setup": (lambda d: _edit(d, lambda o: o["app"].pop("setup")), "lacks 'setup'"),
    "bad setup": (
        lambda d: _edit(d, lambda o: o["app"]["setup"]["seats"][0].update(kind="wizard")),
        "app.setup.seats.0.kind",
    ),
    "bad speed": (lambda d: _edit(d, lambda o: o["app"].update(speed="fast")), "app.speed"),
    "bad date": (lambda d: _edit(d, lambda o: o["app"].update(saved_at="yesterday")), "saved_at"),
    "setup not the record": (
        lambda d: _edit(d, lambda o: o["app"]["setup"]["seats"][0].update(name="Zed")),
        "do not match the record",
    ),
    "setup seed": (lambda d: _edit(d, lambda o: o["app"]["setup"].update(seed=99)), "seed"),
    # a record's refusal is data: the developer line gives its code and values
    "illegal move": (lambda d: _edit(d, _illegal_move), "illegal_move (round=1, event="),
    "deal edited": (
        lambda d: _edit(d, lambda o: o["record"]["rounds"][0]["hands"][0].reverse()),
        "wrong_deal (round=1, field=hands[0], seed=3,",
    ),
    "NaN": (lambda d: d.replace(b'"speed": null', b'"speed": NaN'), "not strict JSON"),
    "duplicate key": (lambda d: d.replace(b'"name": null', b'"name": null, "name": "x"'), "duplicate_key (key=name)"),
    "deep nesting": (lambda d: b"[" * 100_000, "nested too deeply"),
    "huge number": (lambda d: b"1" * 5000, "damaged"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_file_raises_one_clear_line_and_is_left_alone(case: str, good) -> None:
    path, data = good
    mutate, expected = BAD[case]
    bad = mutate(data)
    path.write_bytes(bad)
    with pytest.raises(SaveError) as info:
        load_game(path)
    text = _one_line_naming(info.value, path)
    assert expected in text
    assert "internal error" not in text
    assert info.value.path == path
    assert path.read_bytes() == bad  # never overwritten or deleted
    assert sorted(p.name for p in path.parent.iterdir()) == ["game.json"]


def test_illegal_move_message_names_round_event_and_move(good) -> None:
    path, data = good
    path.write_bytes(_edit(data, _illegal_move))
    with pytest.raises(SaveError) as info:
        load_game(path)
    exc = info.value
    assert exc.code == "illegal_move" and exc.values["round"] == 1 and exc.values["reason"].code
    text = save_error_text(exc)  # what the player reads
    assert re.fullmatch(
        rf"cannot load {re.escape(str(path))}: round 1, move \d+ by \w+ is not allowed: .+",
        text,
    ), text


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="No such file"):
        load_game(tmp_path / "nope.json")
    with pytest.raises(SaveError, match="cannot load"):
        load_game(tmp_path)  # a folder


def test_too_large_file_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(savefile, "MAX_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 200)
    with pytest.raises(SaveError, match="too large"):
        load_game(path)


# ---------------------------------------------------------------------------------------
# The autosave
# ---------------------------------------------------------------------------------------
def test_data_dir_is_the_test_one() -> None:
    assert "data" in data_dir().name  # the autouse fixture's folder, never the real one
    assert os.environ["MEXITRAIN_DATA_DIR"] == str(data_dir())


def test_autosave_then_find_offers_the_game(tmp_path: Path) -> None:
    setup = table(SHORT_RULES)
    assert find_autosave(tmp_path) is None
    for state in history(start(setup), 12)[1:]:
        assert autosave(state, setup, tmp_path, speed=0.3) is None
    game = find_autosave(tmp_path)
    assert game is not None
    assert (game.setup, game.state, game.speed, game.name) == (setup, state, 0.3, None)
    assert game.path == autosave_path(tmp_path)


def test_a_finished_game_is_not_offered_and_its_autosave_is_cleared(tmp_path: Path) -> None:
    setup = table(SHORT_RULES)
    state = play(start(setup), 5)
    autosave(state, setup, tmp_path)
    done = finish(state)
    assert autosave(done, setup, tmp_path) is None
    assert not autosave_path(tmp_path).exists()
    assert find_autosave(tmp_path) is None
    # a finished game written there some other way (say, a crash before the clear)
    save_game(autosave_path(tmp_path), done, setup)
    autosaves.forget_known_good()
    assert find_autosave(tmp_path) is None
    assert not autosave_path(tmp_path).exists()


def test_a_bad_autosave_is_moved_aside_and_said_so(tmp_path: Path) -> None:
    path = autosave_path(tmp_path)
    for n in (1, 2):
        path.write_bytes(b'{"format": "mexitrain-save", "version": 1, "app": {')
        with pytest.raises(SaveError) as info:
            find_autosave(tmp_path)
        moved = tmp_path / f"autosave.bad-{n}.json"
        text = str(info.value)
        assert text.startswith(f"cannot load {path}: the file is truncated")
        assert text.endswith(f"it was moved to {moved}")
        french = in_french(save_error_text, info.value, path, moved)
        assert french.startswith(f"impossible de charger {path} : le fichier est tronqué"), french
        assert french.endswith(f"le fichier a été déplacé vers {moved}"), french
        assert info.value.moved_to == moved
        assert moved.read_bytes().startswith(b'{"format"')
        assert not path.exists()
        assert find_autosave(tmp_path) is None  # next time: nothing to resume


def test_autosave_never_overwrites_a_bad_file_it_did_not_write(tmp_path: Path) -> None:
    setup = table(SHORT_RULES)
    path = autosave_path(tmp_path)
    path.write_text("garbage", encoding="utf-8")
    notice = autosave(start(setup), setup, tmp_path)
    assert notice is not None and "autosave.bad-1.json" in notice
    assert (tmp_path / "autosave.bad-1.json").read_text(encoding="utf-8") == "garbage"
    assert load_game(path)[1] == start(setup)
    # the same for clearing it
    path.write_text("garbage 2", encoding="utf-8")
    notice = clear_autosave(tmp_path)
    assert notice is not None and "autosave.bad-2.json" in notice
    assert (tmp_path / "autosave.bad-2.json").read_text(encoding="utf-8") == "garbage 2"


def test_autosave_replaces_its_own_file_without_reading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = table(SHORT_RULES)
    states = history(start(setup), 6)
    autosave(states[1], setup, tmp_path)
    calls = []
    monkeypatch.setattr(autosaves, "load_save", lambda p: calls.append(p))
    for state in states[2:]:
        autosave(state, setup, tmp_path)
    assert calls == []


def test_an_unreadable_autosave_is_reported_not_moved(tmp_path: Path) -> None:
    autosave_path(tmp_path).mkdir()
    with pytest.raises(SaveError, match="cannot load"):
        find_autosave(tmp_path)
    assert autosave_path(tmp_path).is_dir()


def test_a_full_disk_keeps_the_last_good_autosave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    setup = table(SHORT_RULES)
    first, second = history(start(setup), 2)[1:]
    autosave(first, setup, tmp_path)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(SaveError, match=r"cannot save .*autosave.json: No space left on device"):
        autosave(second, setup, tmp_path)
    monkeypatch.undo()
    assert find_autosave(tmp_path).state == first
    assert [p.name for p in tmp_path.iterdir()] == ["autosave.json"]


# ---------------------------------------------------------------------------------------
# Named saves and the list
# ---------------------------------------------------------------------------------------
def test_save_named_list_and_load(tmp_path: Path) -> None:
    setup = table(SHORT_RULES)
    a = play(start(setup), 4)
    b = finish(a)
    pa = save_named(tmp_path, "Before lunch", a, setup, speed=0.5)
    pb = save_named(tmp_path, "../../escape: attempt?", b, setup)
    assert pa == saves_dir(tmp_path) / "Before lunch.json"
    assert pb.parent == saves_dir(tmp_path)
    os.utime(pa, (1, 1))
    data = json.loads(pa.read_text(encoding="utf-8"))
    data["app"]["saved_at"] = "2020-01-01T00:00:00+00:00"
    pa.write_text(json.dumps(data), encoding="utf-8")
    (saves_dir(tmp_path) / ".Before lunch.json.abc123.tmp").write_text("half", encoding="utf-8")
    (saves_dir(tmp_path) / "broken.json").write_text("{", encoding="utf-8")
    listed = list_saves(tmp_path)
    assert [i.path.name for i in listed] == [pb.name, "Before lunch.json", "broken.json"]
    first, second, broken = listed
    assert (first.name, first.over, first.players, first.rounds) == (
        "../../escape: attempt?", True, ("You", "Bea"), 2,
    )
    assert (second.title, second.over, second.round) == ("Before lunch", False, 1)
    assert broken.error is not None and broken.error.startswith("cannot load ")
    assert load_game(pa) == (setup, a)


def test_save_named_refuses_to_replace_unless_asked(tmp_path: Path) -> None:
    setup = table(SHORT_RULES)
    a, b = history(start(setup), 1)
    path = save_named(tmp_path, "g", a, setup)
    with pytest.raises(SaveError, match="exists"):
        save_named(tmp_path, "g", b, setup)
    assert load_game(path)[1] == a
    save_named(tmp_path, "g", b, setup, overwrite=True)
    assert load_game(path)[1] == b
    path.write_text("damaged", encoding="utf-8")
    save_named(tmp_path, "g", a, setup, overwrite=True)
    assert (path.parent / "g.bad-1.json").read_text(encoding="utf-8") == "damaged"
    with pytest.raises(SaveError, match="cannot be used as a save name"):
        save_named(tmp_path, " / ", a, setup)


def test_list_saves_without_a_folder(tmp_path: Path) -> None:
    assert list_saves(tmp_path / "none") == []


def test_replay_is_equal_to_saved_snapshot_for_a_long_game(tmp_path: Path) -> None:
    from mexitrain.rules import RuleSet

    setup = table(RuleSet(), players=4, ai=("random",))
    state = play(start(setup), 400, rng=9)
    path = save_game(tmp_path / "long.json", state, setup)
    assert load_game(path)[1] == state
    assert replay(json.loads(path.read_text(encoding="utf-8"))["record"]) == state
