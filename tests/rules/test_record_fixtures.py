"""Kept records replay to the same final snapshots and export again byte for byte.

The files under ``tests/fixtures/records/`` were written by the reducer (``make.py`` there):
every preset, every set, each opening, teams, branching doubles, the swan drive, blanks wild,
until-blocked, the highest-double engine, 2 to 8 players. Whatever the rules core becomes,
these games must stay the same games (docs/rules.md §1-§8).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from mexitrain.rules.record import dump_record, load_record, replay, to_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "records"
DIGESTS = json.loads((FIXTURES / "SNAPSHOTS.json").read_text(encoding="utf-8"))


def _make():
    spec = importlib.util.spec_from_file_location("record_fixtures_make", FIXTURES / "make.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_case_has_its_file_and_digest():
    stems = [case[0] for case in _make().CASES]
    assert sorted(stems) == sorted(DIGESTS)
    assert sorted(p.stem for p in FIXTURES.glob("*.json") if p.name != "SNAPSHOTS.json") == sorted(stems)


def test_the_fixtures_cover_every_set_and_two_to_eight_players():
    sets, counts = set(), set()
    for stem in DIGESTS:
        record = load_record((FIXTURES / f"{stem}.json").read_bytes())
        sets.add(record["rules"]["set"])
        counts.add(len(record["players"]))
    assert sets == {6, 9, 12, 15, 18}
    assert {2, 3, 4, 5, 6, 7, 8} <= counts


@pytest.mark.parametrize("stem", sorted(DIGESTS))
def test_a_kept_record_replays_to_its_snapshot_and_exports_byte_for_byte(stem):
    text = (FIXTURES / f"{stem}.json").read_text(encoding="utf-8")
    record = load_record(text)
    state = replay(record)
    assert state.over
    # the kept digests were taken before a mark event said whose train the marker went on:
    # that fact aside, the snapshot is the same, field for field
    assert _make().snapshot_digest(_without_marker_trains(state)) == DIGESTS[stem]
    marks = [e for r in state.results for e in r.events if e.type == "mark"]
    assert all(isinstance(e.train, int) for e in marks)
    again = to_record(state, record["players"], meta=record.get("meta"))
    assert dump_record(again) == text


def _without_marker_trains(state):
    """``state`` as the snapshots were before mark events named their train (2026-12-04)."""

    def strip(events):
        return tuple(e.model_copy(update={"train": None}) if e.type == "mark" else e for e in events)

    results = tuple(r.model_copy(update={"events": strip(r.events)}) for r in state.results)
    return state.model_copy(update={"events": strip(state.events), "results": results})


def _option_flags(rules) -> list[str]:
    """``--option`` flags that make ``rules`` on the command line (over the standard preset)."""
    flags = []
    for key, value in rules.model_dump().items():
        if value is None or key in ("first_seat", "first_player"):
            continue
        if isinstance(value, bool):
            value = "on" if value else "off"
        flags += ["--option", f"{key}={value}"]
    if rules.first_player == "chosen":
        flags += ["--option", f"first_seat={rules.first_seat + 1}"]
    else:
        flags += ["--option", f"first_player={rules.first_player}"]
    return flags


def test_simulate_records_under_random_options_all_replay(tmp_path, capsys):
    """`mexitrain simulate --records` under random option combinations (§1-§8): every file
    written replays to a finished game with the record's own results."""
    import random

    from support.tables import random_table

    from mexitrain.cli import main
    from mexitrain.storage.records import read_record

    rng = random.Random(2112)
    for k in range(12):
        rules, players = random_table(rng, max_players=8)
        if rules.first_player != "chosen":  # the seat is only a choice when chosen
            rules = rules.model_copy(update={"first_seat": 0})
        out = tmp_path / f"run-{k}"
        argv = ["simulate", "--games", "2", "--players", str(players), "--seed", str(k * 10),
                "--records", str(out), *_option_flags(rules)]
        assert main(argv) == 0, argv
        capsys.readouterr()
        files = sorted(out.iterdir())
        assert len(files) == 2
        for path in files:
            record = read_record(path)
            assert record["rules"] == rules.model_dump()
            state = replay(record)
            assert state.over and list(state.winners) == record["winners"]
