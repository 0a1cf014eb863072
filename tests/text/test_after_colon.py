"""A sentence that goes on after a label and its colon (mexitrain.text.basics.continued):
English keeps its capital ("Last move: You played 4-6…"), French goes on in lower case
(« Dernier coup : vous avez posé 4-6… »), and a name keeps its capital in both."""

from __future__ import annotations

import pytest
from support.games import play_first, start
from support.tables import table

from mexitrain import i18n
from mexitrain.rules import view
from mexitrain.text.basics import continued
from mexitrain.text.events import end_words, event_line
from mexitrain.text.status import turn_line

NAMES = ("You", "bea", "Cal")


@pytest.fixture
def french():
    before = i18n.language()
    i18n.set_language("fr")
    yield
    i18n.set_language(before)


def _events_by(seat: int):
    """A seat view after a few moves, and the index of an event by ``seat``."""
    state = play_first(start(table(players=3)), 12)
    v = view(state, 0)
    return v, next(i for i, e in enumerate(v.events) if e.seat == seat)


def test_english_keeps_the_capital() -> None:
    assert continued("You played 4-6") == "You played 4-6"
    v, mine = _events_by(0)
    assert event_line(v, NAMES, mine, after_colon=True) == event_line(v, NAMES, mine)
    assert event_line(v, NAMES, mine).startswith("You ")
    assert end_words("domino", 0, NAMES, 0, after_colon=True) == "You went out (domino)"


def test_french_goes_on_in_lower_case(french) -> None:
    assert continued("Vous avez posé 4-6") == "vous avez posé 4-6"
    v, mine = _events_by(0)
    assert event_line(v, NAMES, mine).startswith("Vous ")  # on a line of its own: a capital
    assert event_line(v, NAMES, mine, after_colon=True).startswith("vous ")
    assert end_words("domino", 0, NAMES, 0) == "Vous avez fait domino"
    assert end_words("domino", 0, NAMES, 0, after_colon=True) == "vous avez fait domino"


@pytest.mark.parametrize("seat", [1, 2])
def test_a_name_keeps_its_capital_and_its_case(french, seat: int) -> None:
    """"bea" as typed, "Cal" as typed: after the colon as anywhere else."""
    v, theirs = _events_by(seat)
    said = event_line(v, NAMES, theirs, after_colon=True)
    assert said == event_line(v, NAMES, theirs) and said.startswith(NAMES[seat])
    assert end_words("domino", seat, NAMES, 0, after_colon=True).startswith(NAMES[seat])


def test_several_people_s_turn_line_goes_on_after_the_name(french) -> None:
    """With several people at one terminal the status line names whose turn it is, « Ann :
    vous avez pioché… »: what follows the name is one of the game's sentences."""
    from mexitrain.rules import Draw, apply, legal_actions

    state = start(table(players=2, humans=2))
    while "draw" not in {a.type for a in legal_actions(state)}:
        state = apply(state, legal_actions(state)[0])
    state = apply(state, Draw())
    v = view(state, state.turn)
    legal = frozenset(a.type for a in legal_actions(state))
    line = turn_line(v, ("Ann", "Bob"), ("human", "human"), legal, any(a.type == "play" for a in legal_actions(state)), person="Ann")
    assert line.startswith("Ann : vous avez pioché "), line
