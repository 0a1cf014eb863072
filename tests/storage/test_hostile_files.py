"""Hostile files in the data folder and on the command line (issue 21): FIFOs, devices, symlinks,
huge files, out-of-range values, future versions, a BOM, names that are not what they seem.

None hangs (each call has 20 s), none crashes, each gives one clear line, and no file is changed
except where moving a damaged file aside is the documented behaviour (docs/saves.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from support.games import finish, play, start
from support.tables import SHORT_RULES, table

from mexitrain.storage import (
    SaveError,
    autosave,
    find_autosaves,
    list_saves,
    load_save,
    save_game,
    save_named,
    saves_dir,
    settings,
    stats_db_path,
    stats_path,
)
from mexitrain.storage.paths import save_file_name
from mexitrain.storage.stats import load_stats, record_finished_game

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and /dev/zero")

LIMIT = 20.0


def within(fn, *args, **kwargs):
    """``fn(*args)`` in a thread; fails the test if it takes more than LIMIT seconds (a hang)."""
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(LIMIT)
    assert not t.is_alive(), f"{getattr(fn, '__name__', fn)} hung on a hostile file"
    if "error" in box:
        raise box["error"]
    return box.get("value")


def snapshot(folder: Path) -> dict:
    """Every entry under ``folder``: its kind, mtime and (regular files) bytes."""
    out = {}
    for p in sorted(folder.rglob("*")):
        st = p.lstat()
        data = p.read_bytes() if p.is_file() and not p.is_symlink() and st.st_size < 10**7 else None
        out[str(p.relative_to(folder))] = (st.st_mode, st.st_mtime_ns, st.st_size, data)
    return out


def one_line(text: str) -> None:
    assert text and "\n" not in text.strip() and "Traceback" not in text, text


def _unfinished(seed: int = 3):
    setup = table(SHORT_RULES, seed=seed)
    return setup, play(start(setup), 5)


# -- FIFOs and devices: refused unread, never waited on, left in place -----------------------------
@pytest.mark.parametrize("where", ["autosave.json", "autosaves/20260101-000000-1-abcd.json"])
def test_a_fifo_autosave_is_reported_and_left_alone(tmp_path: Path, where: str) -> None:
    path = tmp_path / where
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    before = snapshot(tmp_path)
    found = within(find_autosaves, tmp_path)
    assert [u.game for u in found] == [None]
    text = str(found[0].error)
    one_line(text)
    assert "not a regular file" in text
    assert snapshot(tmp_path) == before


def test_fifos_and_devices_as_stats_settings_and_saves(tmp_path: Path) -> None:
    os.mkfifo(stats_path(tmp_path))
    os.mkfifo(tmp_path / "settings.json")
    saves_dir(tmp_path).mkdir()
    os.mkfifo(saves_dir(tmp_path) / "fifo.json")
    os.symlink("/dev/zero", saves_dir(tmp_path) / "zero.json")
    os.symlink("/dev/null", saves_dir(tmp_path) / "null.json")
    before = snapshot(tmp_path)
    with pytest.raises(SaveError) as info:
        within(load_stats, tmp_path)
    one_line(str(info.value))
    assert "not a regular file" in str(info.value)
    assert within(settings.load, tmp_path) == {}
    assert within(list_saves, tmp_path) == []  # not regular files: not saves
    for name in ("fifo.json", "zero.json", "null.json"):
        with pytest.raises(SaveError) as info:
            within(load_save, saves_dir(tmp_path) / name)
        one_line(str(info.value))
        assert "not a regular file" in str(info.value)
    assert snapshot(tmp_path) == before


def test_a_fifo_as_the_statistics_database_is_refused(tmp_path: Path) -> None:
    os.mkfifo(stats_db_path(tmp_path))
    before = snapshot(tmp_path)
    with pytest.raises(SaveError, match="not a regular file"):
        within(load_stats, tmp_path)
    setup = table(SHORT_RULES)
    with pytest.raises(SaveError, match="not a regular file"):
        within(record_finished_game, tmp_path, setup, finish(start(setup)))
    assert snapshot(tmp_path) == before


def test_a_huge_sparse_save_is_refused_unread(tmp_path: Path) -> None:
    huge = tmp_path / "saves" / "huge.json"
    huge.parent.mkdir()
    with open(huge, "wb") as f:
        f.truncate(100 * 1024**3)  # 100 GB, never written
    before = snapshot(tmp_path)
    with pytest.raises(SaveError) as info:
        within(load_save, huge)
    one_line(str(info.value))
    assert "too large" in str(info.value)
    [listed] = within(list_saves, tmp_path)
    assert listed.error and "too large" in listed.error
    assert snapshot(tmp_path) == before


def test_a_symlink_to_a_good_save_is_followed(tmp_path: Path) -> None:
    setup, state = _unfinished()
    real = save_game(tmp_path / "real.json", state, setup)
    (tmp_path / "saves").mkdir()
    os.symlink(real, tmp_path / "saves" / "link.json")
    assert load_save(tmp_path / "saves" / "link.json").state == state


# -- values out of range: the file is damaged (one line), never an exception later -------------------
def _with_app(path: Path, **app) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["app"].update(app)
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(
    "value",
    ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "0001-01-01T00:00:00", "9999-12-31T23:59:59"],
)
def test_out_of_range_dates_make_a_save_damaged(tmp_path: Path, value: str) -> None:
    setup, state = _unfinished()
    path = save_named(tmp_path, "dated", state, setup)
    _with_app(path, saved_at=value)
    [listed] = list_saves(tmp_path)
    assert listed.error and "date" in listed.error
    with pytest.raises(SaveError, match="saved_at"):
        load_save(path)
    # the same in an autosave: moved aside (documented), said in one line, never offered
    auto = tmp_path / "autosave.json"
    auto.write_bytes(path.read_bytes())
    [found] = find_autosaves(tmp_path)
    assert found.game is None and found.error is not None and found.error.moved_to is not None
    one_line(str(found.error))
    assert find_autosaves(tmp_path) == []


@pytest.mark.parametrize(
    "players",
    [
        {"You": {"overall": {"games": 10**400}}},
        {"You": {"overall": {"games": 1, "total_sum": 10**40}}},
        {"You": {"overall": {"games": 1, "best_total": -5}}},
        {"x" * 5000: {}},
    ],
    ids=["10**400", "huge-sum", "negative", "long-name"],
)
def test_out_of_range_statistics_are_damaged_not_a_crash(tmp_path: Path, players: dict) -> None:
    text = json.dumps({"format": "mexitrain-stats", "version": 1, "players": players})
    stats_path(tmp_path).write_text(text, encoding="utf-8")
    with pytest.raises(SaveError) as info:
        load_stats(tmp_path)
    one_line(str(info.value))
    assert stats_path(tmp_path).read_text(encoding="utf-8") == text


def test_out_of_range_values_in_the_database_are_damaged(tmp_path: Path) -> None:
    import sqlite3

    setup = table(SHORT_RULES)
    record_finished_game(tmp_path, setup, finish(start(setup)))
    with sqlite3.connect(stats_db_path(tmp_path)) as con:
        con.execute("UPDATE tallies SET games = ? WHERE scope = 'overall'", (2**62,))
    with pytest.raises(SaveError) as info:
        load_stats(tmp_path)
    one_line(str(info.value))


# -- versions, BOM, names --------------------------------------------------------------------------
def test_an_autosave_of_a_newer_version_is_left_in_place_with_a_message(tmp_path: Path) -> None:
    setup, state = _unfinished()
    autosave(state, setup, tmp_path)
    path = tmp_path / "autosave.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["version"] = 7
    path.write_text(json.dumps(data), encoding="utf-8")
    before = snapshot(tmp_path)
    for _ in range(2):  # the next start finds it again, still in place
        [found] = find_autosaves(tmp_path)
        assert found.game is None and found.error is not None and found.error.moved_to is None
        one_line(str(found.error))
        assert "newer mexitrain (version 7; this one reads 1)" in str(found.error)
    assert snapshot(tmp_path) == before


def test_settings_with_a_bom_are_read(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_bytes(b"\xef\xbb\xbf" + b'{"language": "fr", "theme": "nord"}')
    assert settings.load(tmp_path) == {"language": "fr", "theme": "nord"}


def test_a_save_named_like_a_moved_aside_file_is_listed(tmp_path: Path) -> None:
    setup, state = _unfinished()
    save_named(tmp_path, "x.bad-1", state, setup)
    assert [i.title for i in list_saves(tmp_path)] == ["x.bad-1"]


@pytest.mark.parametrize("name", ["con", "CON", "CON.txt", "aux", "nul", "com1", "lpt9", "LPT9.json", "prn.x"])
def test_windows_reserved_names_are_mapped(name: str) -> None:
    file = save_file_name(name)
    first = file.split(".")[0].strip().lower()
    assert first not in {"con", "prn", "aux", "nul", "com1", "lpt9"}, file


# -- the command line, in a real process ------------------------------------------------------------
def _cli(args: list[str], data: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "MEXITRAIN_DATA_DIR": str(data), "LANG": "C.UTF-8"}
    env.pop("LANGUAGE", None)
    try:
        return subprocess.run(
            [sys.executable, "-m", "mexitrain", *args], capture_output=True, text=True, env=env,
            timeout=LIMIT, stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"mexitrain {' '.join(args)} hung on a hostile file")


def test_the_command_line_never_hangs_on_fifos_and_devices(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    os.mkfifo(data / "settings.json")
    os.mkfifo(stats_path(data))
    os.mkfifo(tmp_path / "fifo.json")
    os.symlink("/dev/zero", tmp_path / "zero.json")
    os.mkfifo(tmp_path / "results.jsonl")
    before = snapshot(tmp_path)
    result = _cli(["--version"], data)
    assert result.returncode == 0 and result.stdout.startswith("mexitrain ")
    for args, code in [
        (["stats"], 1),
        (["--load", str(tmp_path / "fifo.json")], 2),
        (["--replay", str(tmp_path / "zero.json")], 2),
        (["tournament", "--results", str(tmp_path / "results.jsonl"), "--kept-only", "--games", "1"], 2),
    ]:
        result = _cli(args, data)
        assert result.returncode == code, (args, result.stderr)
        one_line(result.stderr)
        assert "not a regular file" in result.stderr, (args, result.stderr)
    assert snapshot(tmp_path) == before


def test_the_command_line_on_out_of_range_statistics(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    stats_path(data).write_text(
        '{"format": "mexitrain-stats", "version": 1, "players": {"You": {"overall": {"games": 1%s}}}}' % ("0" * 400),
        encoding="utf-8",
    )
    before = snapshot(tmp_path)
    result = _cli(["stats"], data)
    assert result.returncode == 1
    one_line(result.stderr)
    assert snapshot(tmp_path) == before
