"""The help lists the choices made where the sources are silent, for the options in force
(docs/rules.md §10, "Choices where the sources are silent")."""

from __future__ import annotations

from mexitrain.i18n import _, set_language
from mexitrain.rules import RuleSet
from mexitrain.ui.screens.help import help_rows


def _choices(rules: RuleSet, players: int) -> list[str]:
    rows = help_rows(rules, players)
    start = rows.index(("heading", "", _("Where the rules are silent")))
    return [text for _kind, _left, text in rows[start + 1 :]]


def test_the_help_says_the_choices_for_the_options_in_force() -> None:
    """§8 blanks_wild, teams + both_stuck, swan_drive, opening + branching: each has its line."""
    set_language("en")
    rules = RuleSet(blanks_wild=True, teams=True, team_marker="both_stuck", swan_drive=True,
                    opening="simultaneous", branching_doubles=True, first_player="heaviest")
    text = "\n".join(_choices(rules, 4))
    for words in ("open 0-0", "counts as a play: no marker", "partner's train is not a stop",
                  "Mexican Train is a stop only once started", "before the round can end",
                  "follows one line", "a double wins", "shared win"):
        assert words in text, words
    plain = "\n".join(_choices(RuleSet(), 4))
    assert "0-0" not in plain and "Swan" not in plain and "shared win" in plain
    must = "\n".join(_choices(RuleSet(teams=True, team_marker="both_stuck",
                                      double_follow_up="must_satisfy"), 4))
    assert "marks the train it is on" in must
    assert "6 tiles" in "\n".join(_choices(RuleSet(set=9), 8))


def test_the_choices_in_french() -> None:
    """The choices are translated (the catalogue's typography: a space before the colon)."""
    set_language("fr")
    try:
        text = "\n".join(_choices(RuleSet(blanks_wild=True, swan_drive=True, teams=True), 4))
        assert "Un double peut se poser sur un 0-0 ouvert : il le satisfait" in text
        assert "Tournée du cygne : le train de votre partenaire" in text
    finally:
        set_language("en")
