"""``mexitrain review FILE [--budget N] [--seat N]`` (mexitrain/commands/review.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mexitrain.cli import main
from mexitrain.i18n import language, set_language

RECORDS = Path(__file__).resolve().parent.parent / "fixtures" / "records"


@pytest.fixture(autouse=True)
def _keep_language():
    before = language()
    yield
    set_language(before)


def test_a_record_prints_a_line_per_round_and_the_costliest_decisions(capsys):
    assert main(["review", str(RECORDS / "set6-2p.json"), "--budget", "4", "--seat", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Review of your decisions"
    rounds = [line for line in out if line.startswith("Round ") and ": " in line and "move" not in line]
    assert len(rounds) == 7  # a double-6 game: 7 rounds
    assert "decisions reviewed (4 deals a stage)" in "\n".join(out)
    assert "The costliest decisions:" in out
    assert any(line.startswith("1. Round ") for line in out)
    assert any(line.startswith("Better: ") for line in out)


def test_in_french(capsys):
    assert main(["review", str(RECORDS / "set6-2p.json"), "--budget", "2", "--seat", "2", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "Manche 1 :" in out and "Mieux :" in out
    assert "tuile" not in out.lower()


def test_a_data_folder_given_before_the_command_speaks_its_saved_language(tmp_path, capsys):
    (tmp_path / "settings.json").write_text('{"language": "fr"}', encoding="utf-8")
    record = str(RECORDS / "set6-2p.json")
    assert main(["--data-dir", str(tmp_path), "review", record, "--budget", "2", "--seat", "1"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("Examen de vos décisions") and captured.err == ""


@pytest.mark.parametrize(
    "content",
    [b'{"format": "mexitrain-record", "version": 1', b"\xff\xfe not text", b"[]", b'{"format": "other"}'],
    ids=["truncated", "not-utf8", "not-a-record", "other-format"],
)
def test_a_broken_file_is_one_line_without_a_traceback(tmp_path, capsys, content):
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    assert main(["review", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mexitrain: error: ") and "Traceback" not in captured.err


def test_a_record_edited_into_an_illegal_game_is_one_line(tmp_path, capsys):
    text = (RECORDS / "set6-2p.json").read_text(encoding="utf-8")
    path = tmp_path / "edited.json"
    path.write_text(text.replace('"seed": ', '"seed": 1', 1), encoding="utf-8")
    assert main(["review", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mexitrain: error: ")


def test_missing_file_bad_budget_and_seat(tmp_path, capsys):
    assert main(["review", str(tmp_path / "none.json")]) == 2
    assert "mexitrain: error:" in capsys.readouterr().err
    assert main(["review", str(RECORDS / "set6-2p.json"), "--budget", "1"]) == 2
    assert "--budget" in capsys.readouterr().err
    copy = tmp_path / "game.json"
    shutil.copy(RECORDS / "set6-2p.json", copy)
    assert main(["review", str(copy), "--seat", "3"]) == 2
    assert "2 players" in capsys.readouterr().err


def test_a_save_file_reviews_the_person_seat(tmp_path, capsys):
    """A save (not only a record) is read as the replay viewer reads it; its person is "you"."""
    from support.games import finished_game

    from mexitrain.rules import RuleSet
    from mexitrain.storage.saves import save_game

    setup, state = finished_game(RuleSet(set=6, rounds=2), seed=4)
    path = save_game(tmp_path / "saved.json", state, setup)
    assert main(["review", str(path), "--budget", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Review of your decisions"
    assert sum(1 for line in out if line.startswith("Round ") and "move" not in line) == 2
