"""Issue 37, item 6: a name with no visible character would show as nobody (on the board, in
the log, in the lobby of every guest). One check (:func:`mexitrain.text.names.name_fault`)
refuses it wherever a name comes from: the new-game form and saves (SeatConfig), ``--names``
and ``--name``, the Join form, a Hello from the network and a server's message."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest
from pydantic import ValidationError

from mexitrain.commands.args import name_value, names_value
from mexitrain.game_setup import SeatConfig
from mexitrain.net.protocol import ProtocolError, decode_client
from mexitrain.text.errors import error_text
from mexitrain.text.names import NAME_MAX, name_fault, visible
from mexitrain.ui.screens.join import name_problem

#: Names that show as nobody: empty, spaces, zero-width and format characters, a combining
#: accent alone, the Hangul fillers and the braille blank, a private-use character.
INVISIBLE = [
    "",
    "   ",
    "\u200b",
    "\u200b\u200c\u200d",
    "\ufeff",
    "\u00a0\u3000",
    "\u0301",
    "\u3164",
    "\u115f\u1160",
    "\uffa0",
    "\u2800\u2800",
    "\U000e0041\U000e0042",
    "\ue000",
]
#: Names with something to see, even beside invisible characters.
VISIBLE = ["Bo", "e\u0301", "A\u200bB", "🚂", "👨\u200d👩\u200d👧", "東京", "١٢", "-", "\u3164x", "Zoë 🚂"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_with_no_visible_character_is_refused_by_the_shared_check(name):
    assert name_fault(name) == ("invisible", {})
    assert not any(visible(ch) for ch in name)


@pytest.mark.parametrize("name", VISIBLE)
def test_a_name_with_a_visible_character_passes(name):
    assert name_fault(name) is None
    assert SeatConfig(name=name).name == name


def test_the_shared_check_says_the_first_control_character_and_the_length():
    assert name_fault("a\x1b[31m") == ("unprintable", {"char": "U+001B"})
    assert name_fault("\u200b\u202e") == ("unprintable", {"char": "U+202E"})
    assert name_fault("x" * (NAME_MAX + 1)) == ("too_long", {"max": NAME_MAX})


@pytest.mark.parametrize("name", [n for n in INVISIBLE if n])
def test_a_seat_named_with_invisible_characters_is_refused_in_one_line(name):
    """The new-game form and every loaded save build SeatConfig."""
    with pytest.raises(ValidationError) as info:
        SeatConfig(name=name)
    line = error_text(info.value)
    assert "visible character" in line and "\n" not in line


@pytest.mark.parametrize("name", ["\u200b", "\u3164", "\u2800"])
def test_names_on_the_command_line_need_a_visible_character(name):
    with pytest.raises(argparse.ArgumentTypeError) as info:
        names_value(f"Ann,{name}")
    assert "no visible character" in str(info.value)
    assert name not in str(info.value)  # said escaped: the invisible character itself shows nothing
    with pytest.raises(argparse.ArgumentTypeError):
        name_value(name)


def test_names_on_the_command_line_give_one_line_and_status_2(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mexitrain", "--names", "Ann,\u200b\u200b", "--data-dir", str(tmp_path)],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 2
    err = done.stderr.decode()
    assert err.count("\n") == 1 and "no visible character" in err and "\\u200b" in err


@pytest.mark.parametrize("name", ["\u200b", "\u3164\u3164"])
def test_the_join_form_asks_for_a_visible_character(name):
    assert name_problem(name) == "A name needs a visible character."
    assert name_problem("Bo") is None


@pytest.mark.parametrize("name", ["\u200b", "\u3164", "\u0301"])
def test_a_hello_with_an_invisible_name_is_a_bad_message(name):
    with pytest.raises(ProtocolError) as caught:
        decode_client(json.dumps({"type": "hello", "code": "ABCDEF", "name": name}))
    assert caught.value.code == "bad_message" and caught.value.values["field"] == "name"
