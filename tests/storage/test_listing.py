"""Issue 21: Load… lists saves from their head (``app.summary`` written before the record), never
parsing whole games: 5 saves of 29 MB took 6 s and 349 MB. Saves of earlier versions (no
summary) are still listed, read whole, and every save still loads."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from support.games import finish, play, start
from support.tables import SHORT_RULES, table

from mexitrain.storage import SaveError, list_saves, load_game, save_named
from mexitrain.storage import saves as saves_mod
from mexitrain.storage.savefile import save_text


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache = getattr(saves_mod, "_LISTED", {})
    cache.clear()
    yield
    cache.clear()


def _saved(root: Path, name: str, steps: int = 12, seed: int = 3) -> tuple[Path, object]:
    setup = table(SHORT_RULES, seed=seed)
    state = play(start(setup), steps)
    return save_named(root, name, state, setup, speed=0.5), state


def test_a_save_whose_record_is_damaged_is_listed_from_its_head_and_refused_when_loaded(tmp_path: Path) -> None:
    path, state = _saved(tmp_path, "sunday")
    text = path.read_text(encoding="utf-8")
    cut = text.index('"rounds"', text.index('"record"'))
    path.write_text(text[:cut] + '"rounds": [ this is not JSON', encoding="utf-8")
    [info] = list_saves(tmp_path)
    assert info.error is None  # the listing did not read the record
    assert (info.title, info.round, info.rounds, info.over) == ("sunday", state.round, state.rules.round_count, False)
    assert info.players == tuple(s.name for s in table(SHORT_RULES, seed=3).seats)
    with pytest.raises(SaveError, match="cannot load .*sunday.json"):
        load_game(path)


def test_listing_big_saves_reads_only_their_heads(tmp_path: Path) -> None:
    path, _ = _saved(tmp_path, "big")
    body = path.read_text(encoding="utf-8").rstrip()
    size = 12 * 2**20
    for i in range(3):  # padded with JSON whitespace: still valid saves, 12 MB each
        (path.parent / f"big-{i}.json").write_text(body[:-1] + " " * size + "}\n", encoding="utf-8")
    tracemalloc.start()
    infos = list_saves(tmp_path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(infos) == 4 and all(i.error is None and i.round == infos[0].round for i in infos)
    assert peak < 4 * 2**20, f"the listing held {peak / 2**20:.1f} MB"
    assert load_game(path.parent / "big-0.json")[1] == load_game(path)[1]  # and the padded file loads


def test_a_save_of_an_earlier_version_without_summary_is_listed_read_whole_and_loads(tmp_path: Path) -> None:
    path, state = _saved(tmp_path, "old")
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["app"]["summary"]
    path.write_text(save_text(data), encoding="utf-8")
    [info] = list_saves(tmp_path)
    assert (info.error, info.round, info.over) == (None, state.round, False)
    assert load_game(path)[1] == state


def test_a_malformed_summary_falls_back_to_the_record(tmp_path: Path) -> None:
    path, state = _saved(tmp_path, "odd")
    data = json.loads(path.read_text(encoding="utf-8"))
    for bad in ({"round": True, "over": False}, {"round": 10**9, "over": False}, {"round": 1, "over": "no"}, [1]):
        data["app"]["summary"] = bad
        path.write_text(save_text(data), encoding="utf-8")
        getattr(saves_mod, "_LISTED", {}).clear()
        [info] = list_saves(tmp_path)
        assert (info.error, info.round, info.over) == (None, state.round, False), bad
        assert load_game(path)[1] == state  # unknown or odd keys inside app are ignored by the load


def test_a_finished_game_is_listed_finished_from_its_summary(tmp_path: Path) -> None:
    setup = table(SHORT_RULES, seed=4)
    done = finish(start(setup))
    save_named(tmp_path, "done", done, setup)
    [info] = list_saves(tmp_path)
    assert info.over is True and info.error is None


def test_a_newer_version_is_listed_with_its_problem_from_the_head(tmp_path: Path) -> None:
    path, _ = _saved(tmp_path, "future")
    text = path.read_text(encoding="utf-8").replace('"version": 1', '"version": 7', 1)
    cut = text.index('"record"')
    path.write_text(text[:cut] + '"record": {', encoding="utf-8")  # and truncated after the head
    [info] = list_saves(tmp_path)
    assert info.error is not None and "newer" in info.error


def test_a_rewritten_file_is_listed_anew(tmp_path: Path) -> None:
    path, _ = _saved(tmp_path, "again", steps=2)
    [first] = list_saves(tmp_path)
    setup = table(SHORT_RULES, seed=3)
    save_named(tmp_path, "again", finish(start(setup)), setup, overwrite=True)
    [second] = list_saves(tmp_path)
    assert (first.over, second.over) == (False, True)
