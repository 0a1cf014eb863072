"""Issue 21, "Text is text": which characters a name may hold (one place: mexitrain.text, used
by SeatConfig, so by --names, the new-game form and every loaded save), the sanitizer every
string from a file is printed through, and cutting by terminal cells."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from pydantic import ValidationError
from support.tables import table

from mexitrain.game_setup import SeatConfig
from mexitrain.rules import RuleSet, new_game
from mexitrain.storage import load_game, save_game
from mexitrain.storage.stats import PlayerStats, Stats
from mexitrain.text.basics import short_names
from mexitrain.text.errors import error_text
from mexitrain.text.names import (
    NAME_MAX,
    cells,
    cut,
    fit,
    name_key,
    printable,
    repeated_name,
    unused_name,
)
from mexitrain.text.stats import format_stats

ESC_TITLE = "Bo\x1b]2;pwned\x07"
REFUSED = [ESC_TITLE, "a\x00b", "del\x7f", "c1\x9b", "\u202eabc", "l\u2028m"]
ACCEPTED = ["[link=x]C[/]", "[AFK] Bo", "[ @click=app.quit]Bo", "🚂🚂", "👨\u200d👩\u200d👧\u200d👦", "東京太郎", "שלום", "مرحبا", "e\u0301te\u0301"]


@pytest.mark.parametrize("name", REFUSED)
def test_a_name_with_a_control_character_is_refused_in_one_line(name):
    with pytest.raises(ValidationError) as info:
        SeatConfig(name=name)
    line = error_text(info.value)
    assert "control character U+" in line and "\n" not in line
    assert not any(ch in line for ch in "\x1b\x07\x00\x7f\x9b\u202e\u2028")


@pytest.mark.parametrize("name", ACCEPTED)
def test_markup_rtl_emoji_and_wide_names_are_accepted(name):
    assert SeatConfig(name=name).name == name


def test_a_lone_surrogate_is_refused_as_not_text():
    with pytest.raises(ValidationError) as info:
        SeatConfig(name="x\ud800")
    assert "must be text" in error_text(info.value)


def test_a_name_is_at_most_20_characters():
    with pytest.raises(ValidationError):
        SeatConfig(name="x" * 10_000)


def test_names_are_cut_and_padded_in_cells_never_inside_a_character():
    assert cells("東京太郎") == 8 and cut("東京太郎", 3) == "東" and fit("東京太郎", 3) == "東 "
    assert fit("🚂🚂", 3) == "🚂 " and cells(fit("🚂🚂", 3)) == 3
    assert cut("e\u0301te\u0301", 2) == "e\u0301t"  # the accent stays with its letter
    family = "👨\u200d👩\u200d👧\u200d👦"
    assert cut(family + "x", 2) == family and cut(family, 1) == ""
    assert short_names(["東京太郎", "🚂🚂🚂🚂", "Bo"], 4) == ["東…", "🚂…", "Bo"]  # 3 cells: no half 京


def test_one_name_whatever_its_case_width_or_spaces_and_a_free_one_beside_it():
    assert name_key(" Bea  Z ") == name_key("bea z") == name_key("ＢＥＡ Z")  # full-width letters too
    assert repeated_name(["You", "Bea", "Cal"]) is None
    assert repeated_name(["You", "Bea", "YOU", "bea"]) == "YOU"
    assert unused_name("Bea", ["You", "Cal"]) == "Bea"
    assert unused_name("Bea", ["bea", "Bea 2"]) == "Bea 3"
    long = "Ж" * NAME_MAX
    assert unused_name(long, [long]) == "Ж" * (NAME_MAX - 2) + " 2"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one character on screen, five code points
    name = "a" * 14 + family
    assert unused_name(name, [name]) == "a" * 14 + " 2"  # the emoji left out whole, not cut inside
    for name in ("Bea", long, "a" * 14 + family, "x"):
        taken = [name]
        for _ in range(12):
            taken.append(unused_name(name, taken))
            assert len(taken[-1]) <= NAME_MAX and SeatConfig(name=taken[-1])
        assert repeated_name(taken) is None


def test_printable_shows_control_characters_escaped():
    assert printable(ESC_TITLE) == "Bo\\x1b]2;pwned\\x07"
    assert printable("\u202eabc") == "\\u202eabc" and printable("東京 🚂") == "東京 🚂"


def _run(*args: str, data: str | None = None) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "mexitrain", *args] + (["--data-dir", data] if data else [])
    return subprocess.run(cmd, capture_output=True, timeout=120)


def test_names_on_the_command_line_with_a_control_character_give_one_line_and_status_2(tmp_path):
    done = _run("--names", f"Ann,{ESC_TITLE}", data=str(tmp_path))
    assert done.returncode == 2
    err = done.stderr.decode()
    assert err.count("\n") == 1 and "U+001B" in err and "\\x1b" in err
    assert b"\x1b" not in done.stderr + done.stdout and b"\x07" not in done.stderr + done.stdout


def test_a_save_with_a_control_character_in_a_name_is_refused_in_one_line(tmp_path):
    setup = table(RuleSet(set=6, rounds=1), kinds=("human", "random"), names=("Ann", "Bea"))
    path = save_game(tmp_path / "g.json", new_game(setup.rules, players=2, seed=setup.seed), setup)
    data = json.loads(path.read_text())
    data["app"]["setup"]["seats"][1]["name"] = ESC_TITLE
    data["record"]["players"][1]["name"] = ESC_TITLE
    path.write_text(json.dumps(data))
    with pytest.raises(Exception) as info:
        load_game(path)
    line = error_text(info.value)
    assert "\n" not in line and "\x1b" not in line and "U+001B" in line, line


def test_stats_print_no_escape_sequence_from_the_file():
    stats = Stats(players={ESC_TITLE: PlayerStats()})
    text = format_stats(stats)
    assert "\x1b" not in text and "\x07" not in text and "Bo\\x1b]2;pwned\\x07" in text
