"""Statistics of finished games, and ``mexitrain stats``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.games import finish, play, start
from support.tables import SHORT_RULES, table

from mexitrain.cli import build_parser, main
from mexitrain.game_setup import GameSetup, SeatConfig
from mexitrain.rules import RuleSet, make_rules
from mexitrain.storage import SaveError, stats_path
from mexitrain.storage.stats import (
    Stats,
    Tally,
    load_stats,
    preset_name,
    record_finished_game,
)
from mexitrain.text.stats import format_stats


def _finished(setup: GameSetup, rng: int = 0):
    return finish(start(setup), rng)


def test_one_game_counted(tmp_path: Path) -> None:
    setup = table(SHORT_RULES, seed=4)
    done = _finished(setup)
    update = record_finished_game(tmp_path, setup, done)
    assert update.counted and update.notice is None
    you = load_stats(tmp_path).players["You"]
    total = sum(r.scores[0] for r in done.results)
    expected = Tally(
        games=1,
        wins=int(0 in done.winners),
        total_sum=total,
        best_total=total,
        rounds=len(done.results),
        rounds_out=sum(1 for r in done.results if r.out_seat == 0),
    )
    assert you.overall == expected
    assert you.by_level == {"random": expected}
    assert you.by_preset == {"custom": expected}
    assert list(load_stats(tmp_path).players) == ["You"]  # computers have no statistics


def test_games_accumulate_and_are_counted_once(tmp_path: Path) -> None:
    setup = table(SHORT_RULES, seed=1)
    games = [_finished(table(SHORT_RULES, seed=s), s) for s in (1, 2, 3)]
    for s, g in zip((1, 2, 3), games, strict=True):
        assert record_finished_game(tmp_path, table(SHORT_RULES, seed=s), g).counted
    again = record_finished_game(tmp_path, setup, games[0])
    assert not again.counted
    overall = load_stats(tmp_path).players["You"].overall
    totals = [sum(r.scores[0] for r in g.results) for g in games]
    assert overall.games == 3
    assert overall.total_sum == sum(totals)
    assert overall.best_total == min(totals)
    assert overall.average == pytest.approx(sum(totals) / 3)
    assert overall.wins == sum(0 in g.winners for g in games)


def test_per_level_preset_and_people(tmp_path: Path) -> None:
    rules = make_rules("fast")
    seats = (
        SeatConfig(name="Ann", kind="human"),
        SeatConfig(name="Bob", kind="human"),
        SeatConfig(name="C", kind="random"),
    )
    setup = GameSetup(rules=rules, seed=2, seats=seats)
    done = finish(play(start(setup), 0))
    record_finished_game(tmp_path, setup, done)
    hotseat = GameSetup(rules=RuleSet(), seed=2, seats=seats[:2])
    record_finished_game(tmp_path, hotseat, finish(start(hotseat)))
    stats = load_stats(tmp_path)
    assert set(stats.players) == {"Ann", "Bob"}
    assert set(stats.players["Ann"].by_level) == {"random", "people"}
    assert set(stats.players["Ann"].by_preset) == {"fast", "standard"}
    assert preset_name(make_rules("common")) == "common"
    assert preset_name(RuleSet(blanks_wild=True)) == "custom"


def test_a_game_counts_once_for_a_name_two_seats_of_an_old_table_share(tmp_path: Path) -> None:
    """Tables are no longer made with two seats of one name, but a save of an earlier version
    can have one: its game is one game for that name (the first such seat's), not two."""
    seats = (SeatConfig(name="Ann", kind="human"), SeatConfig(name="Ann", kind="human"))
    setup = GameSetup(rules=SHORT_RULES, seed=5, seats=seats)
    done = _finished(setup)
    record_finished_game(tmp_path, setup, done)
    ann = load_stats(tmp_path).players["Ann"].overall
    assert ann.games == 1 and ann.total_sum == sum(r.scores[0] for r in done.results)
    assert ann.wins == int(0 in done.winners)


def test_team_games_count_the_team_total(tmp_path: Path) -> None:
    rules = RuleSet(set=9, teams=True, rounds=2)
    setup = table(rules, players=4, seed=7)
    done = _finished(setup, 3)
    record_finished_game(tmp_path, setup, done)
    team_total = sum(r.scores[0] + r.scores[2] for r in done.results)
    assert load_stats(tmp_path).players["You"].overall.total_sum == team_total


def test_unfinished_game_refused(tmp_path: Path) -> None:
    setup = table(SHORT_RULES)
    with pytest.raises(ValueError, match="finished"):
        record_finished_game(tmp_path, setup, start(setup))
    assert not stats_path(tmp_path).exists()


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"{\"format\": \"mexitrain-stats\", \"version\": 1, \"players\": {", "truncated"),
        (b"\xff\xfe", "not UTF-8"),
        (b"[]", "not a JSON object"),
        (b'{"format": "other"}', "not a mexitrain statistics file"),
        (b'{"format": "mexitrain-stats", "version": 7}', "newer mexitrain (version 7; this one reads 1)"),
        (
            b'{"format": "mexitrain-stats", "version": 1, "players": {"You": {"overall": {"games": -1}}}}',
            "players.You.overall.games",
        ),
        # one problem a file: which of two pydantic reports first changed with its versions
        (b'{"format": "mexitrain-stats", "version": 1, "players": []}', "players"),
        (b'{"format": "mexitrain-stats", "version": 1, "players": {}, "x": 1}', "x"),
    ],
)
def test_a_bad_stats_file_is_reported_then_moved_aside(
    tmp_path: Path, content: bytes, problem: str
) -> None:
    path = stats_path(tmp_path)
    path.write_bytes(content)
    with pytest.raises(SaveError) as info:
        load_stats(tmp_path)
    text = str(info.value)
    assert "\n" not in text and text.startswith(f"cannot load {path}: ") and problem in text
    assert "internal error" not in text
    assert path.read_bytes() == content  # loading never touches it
    setup = table(SHORT_RULES)
    update = record_finished_game(tmp_path, setup, _finished(setup))
    moved = tmp_path / "stats.bad-1.json"
    assert update.notice is not None and str(moved) in update.notice
    assert moved.read_bytes() == content
    assert load_stats(tmp_path).players["You"].overall.games == 1


def test_format_stats_table(tmp_path: Path) -> None:
    assert format_stats(Stats()) == "No finished games yet."
    setup = table(SHORT_RULES)
    record_finished_game(tmp_path, setup, _finished(setup))
    text = format_stats(load_stats(tmp_path))
    lines = text.splitlines()
    assert lines[0] == "You"
    assert lines[1].split() == ["games", "wins", "win", "%", "avg", "total", "best", "rounds", "out"]
    assert lines[2].split()[:3] == ["all", "games", "1"]
    assert any(line.split()[:2] == ["vs", "random"] for line in lines)
    assert any(line.split()[:2] == ["custom", "rules"] for line in lines)


def test_stats_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "No finished games yet."
    setup = table(SHORT_RULES)
    record_finished_game(tmp_path, setup, _finished(setup))
    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("You\n")
    stats_path(tmp_path).write_text("{oops", encoding="utf-8")
    assert main(["stats", "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"mexitrain: error: cannot load {stats_path(tmp_path)}")
    assert stats_path(tmp_path).read_text(encoding="utf-8") == "{oops"


def test_stats_command_uses_the_environment(
    capsys: pytest.CaptureFixture[str], _private_data_dir: Path
) -> None:
    setup = table(SHORT_RULES)
    record_finished_game(_private_data_dir, setup, _finished(setup))
    assert main(["stats"]) == 0
    assert "all games" in capsys.readouterr().out


def test_play_takes_a_data_dir() -> None:
    args = build_parser().parse_args(["play", "--data-dir", "/somewhere"])
    assert args.data_dir == "/somewhere"
    assert build_parser().parse_args(["play"]).data_dir is None


def test_stats_are_a_sqlite_database_and_an_old_json_file_is_migrated_once(tmp_path: Path) -> None:
    """Issue 21: statistics live in stats.sqlite3; a stats.json of an earlier version is added to
    it once, then renamed stats.json.migrated."""
    import sqlite3

    from mexitrain.storage.paths import stats_db_path

    old = table(SHORT_RULES, seed=7)
    done_old = _finished(old)
    from mexitrain.storage.stats import add_game

    legacy = add_game(Stats(), old, done_old)
    stats_path(tmp_path).write_text(
        json.dumps({"format": "mexitrain-stats", "version": 1, **legacy.model_dump(mode="json")}), encoding="utf-8"
    )
    assert load_stats(tmp_path).players["You"].overall.games == 1  # read, not migrated yet
    assert not stats_db_path(tmp_path).exists()
    setup = table(SHORT_RULES, seed=8)
    update = record_finished_game(tmp_path, setup, _finished(setup))
    assert update.counted and update.notice is None
    assert not stats_path(tmp_path).exists()
    assert (tmp_path / "stats.json.migrated").is_file()
    assert load_stats(tmp_path).players["You"].overall.games == 2
    with sqlite3.connect(stats_db_path(tmp_path)) as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    # the same old file put back (a read-only folder could not rename it) is not counted again
    (tmp_path / "stats.json.migrated").rename(stats_path(tmp_path))
    assert load_stats(tmp_path).players["You"].overall.games == 2
    setup = table(SHORT_RULES, seed=9)
    record_finished_game(tmp_path, setup, _finished(setup))
    assert load_stats(tmp_path).players["You"].overall.games == 3
