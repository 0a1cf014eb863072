"""The line ``mexitrain host --no-play`` says when its table closes after the game's end
(mexitrain.text.net.closed_over_line): where the game is kept, the command that replays it
quoted for the shell, no control character, in French too."""

from __future__ import annotations

from support.french import in_french

from mexitrain.text import net


def test_the_kept_game_and_the_command_that_replays_it():
    assert net.closed_over_line("/d/saves/table-KXMPTR-1.json") == (
        "Table closed: the game is over and kept in /d/saves/table-KXMPTR-1.json; "
        "mexitrain --replay /d/saves/table-KXMPTR-1.json replays it."
    )
    spaced = net.closed_over_line("/my data/saves/t.json")
    assert spaced.endswith("mexitrain --replay '/my data/saves/t.json' replays it.")
    hostile = net.closed_over_line("/d/\x1b]2;x\x07/t.json")
    assert "\x1b" not in hostile and "\x07" not in hostile
    assert net.closed_over_line(None) == "Table closed: the game is over."
    assert "--resume" not in net.closed_over_line("/d/t.json") + net.closed_over_line(None)


def test_in_french():
    path = "/d/saves/t.json"
    said = in_french(net.closed_over_line, path, f"mexitrain --replay {path}")  # the command stays as typed
    assert said == f"Table fermée : la partie est finie et gardée dans {path} ; mexitrain --replay {path} la rejoue."
    assert in_french(net.closed_over_line, None) == "Table fermée : la partie est finie."
