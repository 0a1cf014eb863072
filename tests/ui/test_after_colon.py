"""After a label and its colon the sentence goes on in French lower case, in English with its
capital: the move log's "Round 1 over: …" and the round's "Last move: …" (ui/widgets/log.py,
ui/screens/results.py; the rule itself: tests/text/test_after_colon.py). §7: the round ends
on the domino; the seat that went out is on screen."""

from __future__ import annotations

import pytest

from mexitrain import i18n
from mexitrain.rules import RuleSet, apply, legal_actions, new_game, view
from mexitrain.ui.board import build
from mexitrain.ui.screens.results import last_move
from mexitrain.ui.widgets.log import log_lines

NAMES = ("Ann", "Bea", "Cal")


def _round_two():
    state = new_game(RuleSet(set=6), players=3, seed=0)
    while state.round == 1:
        state = apply(state, legal_actions(state)[0])
    done = state.results[-1]
    assert done.end == "domino" and done.out_seat == done.events[-1].seat
    return state, done.out_seat


@pytest.mark.parametrize(
    ("lang", "over", "last"),
    [
        ("en", "Round 1 over: You went out (domino)", "You played "),
        ("fr", "Manche 1 terminée : vous avez fait domino", "vous avez posé "),
    ],
)
def test_the_sentence_after_the_colon(lang: str, over: str, last: str) -> None:
    before = i18n.language()
    i18n.set_language(lang)
    try:
        state, out = _round_two()
        v = view(state, out)
        kinds = tuple("human" if seat == out else "random" for seat in range(3))  # the one person
        assert over in log_lines(build(v, NAMES, kinds))
        assert last_move(v, NAMES, out).startswith(last)
        other = (out + 1) % 3
        assert last_move(view(state, other), NAMES, other).startswith(NAMES[out] + " ")  # a name keeps its capital
    finally:
        i18n.set_language(before)


@pytest.mark.parametrize(("lang", "reason"), [("en", "Tiles each must be"), ("fr", "dominos chacun : un nombre entier")])
async def test_why_the_form_cannot_start(lang: str, reason: str, tmp_path) -> None:
    """"Cannot start: …" on the new-game form: the reason goes on after the colon."""
    from mexitrain.ui.app import MexitrainApp
    from mexitrain.ui.screens import NewGameScreen

    before = i18n.language()
    i18n.set_language(lang)
    try:
        app = MexitrainApp(None, speed=0, seed=1, data_dir=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            form = app.screen
            assert isinstance(form, NewGameScreen)
            form.query_one("#hand_size").value = "0"
            await pilot.pause()
            assert form.setup is None and form.verdict_text.startswith(reason), form.verdict_text
    finally:
        i18n.set_language(before)
