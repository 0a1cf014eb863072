"""mexitrain/text/: the seat kinds it names are the table's, and error_text tells each error."""

from __future__ import annotations

from typing import get_args

from mexitrain.game_setup import PlayerKind
from mexitrain.rules.undo import UndoRefused
from mexitrain.storage.savefile import SaveError
from mexitrain.text.basics import LEVELS
from mexitrain.text.errors import error_text


def test_the_levels_text_names_are_the_seat_kinds_a_table_takes() -> None:
    assert LEVELS == get_args(PlayerKind)


def test_error_text_tells_a_save_error_and_an_undo_refusal() -> None:
    save = SaveError("cannot save x", action="save", code="name_taken")
    assert error_text(save) == "cannot save the saved game: a saved game with that name exists"
    assert error_text(UndoRefused("drew", tile=(3, 4))) == (
        "you drew 3-4 since then: undoing would reveal a hidden tile"
    )
