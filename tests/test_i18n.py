"""The game in French and in English (mexitrain/i18n.py, mexitrain/text/, settings.py, cli.py).

Every test leaves the language as it found it (English): see the ``_english_after`` fixture.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from mexitrain import i18n, i18n_tools
from mexitrain.cli import main
from mexitrain.commands.args import translate_argparse
from mexitrain.i18n import detect_language, set_language
from mexitrain.rules import (
    DRAW,
    MARK,
    MEXICAN,
    PASS,
    PRESETS,
    SKIP,
    IllegalAction,
    Play,
    RuleSet,
    RuleSetError,
    apply,
    legal_actions,
    make_rules,
    new_game,
    view,
)
from mexitrain.rules.errors import CODES, WHY_CODES
from mexitrain.storage import settings
from mexitrain.text import basics, errors, events, files, refusals, status, validation
from mexitrain.text import rules as rules_text

REPO_ROOT = Path(__file__).resolve().parent.parent
NAMES = ("Ann", "Bea", "Cal", "Dot")
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def _english_after():
    """Every test starts and ends in English, whatever it switches to."""
    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def french():
    set_language("fr")
    return "fr"


@pytest.fixture
def no_locale(monkeypatch):
    """An environment without any locale variable (tests set the one they want)."""
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


#: English words that have no business in a French sentence (checked as whole words).
ENGLISH = re.compile(
    r"\b(the|your|you|is|are|was|tiles?|must|played|plays|drew|drawn|draws|boneyard|engines?|"
    r"rounds?|seats?|markers?|cannot|only|with|first|swan|chain|branch|turn|hold|fits?|"
    r"players?|games?|not|and|of|after|default|usage|help|show|exit|mexican|knock|wins?|"
    r"passed|skipped|placed|starts?|nobody|blocked|stuck|team|owner|empty|file|folder|load|"
    r"save|error|unknown|expected|invalid|choose|from|required|unrecognized|number|whole|"
    r"least|than|per|each|enter|press|pick|satisfy|satisfied|follow|went|out|left|open|"
    r"none|can|may|there|it|this|that|no|yes|or|by|to|in)\b",
    re.IGNORECASE,
)

#: Identifiers that stay as they are in every language (commands, presets, levels, values).
IDENTIFIERS = {
    "play", "simulate", "stats", "tournament", "standard", "fast", "common", "random",
    "greedy", "planner", "expert", "mexitrain", "on", "off", "{en,fr}", "en", "fr",
}


def english_words(text: str) -> list[str]:
    """English words in ``text``, once options, KEY=VALUE pairs, paths and identifiers are
    set aside."""
    kept = []
    for token in text.split():
        bare = token.strip("()[]{},.;:«»'\"")
        if (
            bare.startswith(("-", "$"))
            or "=" in bare
            or "_" in bare
            or "/" in bare
            or bare.lower() in IDENTIFIERS
        ):
            continue
        kept.append(token)
    return ENGLISH.findall(" ".join(kept))


def test_the_english_word_check_is_not_vacuous() -> None:
    assert english_words("You do not hold 7-3.") == ["You", "not", "hold"]
    assert english_words("the Mexican Train") == ["the", "Mexican"]
    assert english_words("le Train Mexicain, votre train, le train de Bea") == []
    assert english_words("--option blanks_wild=on DOSSIER/game-0001.json play fast") == []


# ---------------------------------------------------------------------------------------
# Catalogs
# ---------------------------------------------------------------------------------------
def test_every_message_has_a_french_translation_with_the_same_placeholders() -> None:
    messages_used = i18n_tools.extract()
    assert len(messages_used) > 250
    catalogs = i18n_tools.catalogs()
    assert [p.name for p in catalogs] == ["fr.po"]
    for path in catalogs:
        assert i18n_tools.check(path, messages_used) == []
    assert i18n_tools.main(["check"]) == 0


def test_the_catalog_check_finds_missing_empty_fuzzy_and_placeholder_problems(tmp_path) -> None:
    extracted = {
        (None, "Hello {name}"): i18n_tools.Message("Hello {name}", where="x.py:1"),
        (None, "Bye"): i18n_tools.Message("Bye", where="x.py:2"),
        (None, "{n} tile"): i18n_tools.Message("{n} tile", plural="{n} tiles", where="x.py:3"),
        (None, "Gone"): i18n_tools.Message("Gone", where="x.py:4"),
        ("ctx", "Fuzzy"): i18n_tools.Message("Fuzzy", context="ctx", where="x.py:5"),
    }
    po = polib.POFile()
    po.metadata = {"Plural-Forms": "nplurals=2; plural=(n > 1);"}
    po.append(polib.POEntry(msgid="Hello {name}", msgstr="Bonjour {nom}"))
    po.append(polib.POEntry(msgid="Bye", msgstr=""))
    po.append(polib.POEntry(msgid="{n} tile", msgid_plural="{n} tiles",
                            msgstr_plural={0: "{n} domino", 1: ""}))
    po.append(polib.POEntry(msgid="Fuzzy", msgctxt="ctx", msgstr="Flou", flags=["fuzzy"]))
    po.append(polib.POEntry(msgid="Old", msgstr="Vieux"))
    path = tmp_path / "xx.po"
    po.save(str(path))
    problems = "\n".join(i18n_tools.check(path, extracted))
    assert "'Hello {name}'" in problems and "placeholders" in problems
    assert "'Bye'" in problems and "empty translation" in problems
    assert "a plural form is empty" in problems
    assert "'Gone'" in problems and "missing" in problems
    assert "marked fuzzy" in problems
    assert "'Old': no longer used" in problems


def test_french_catalog_plural_rule_and_languages() -> None:
    po = polib.pofile(str(i18n.LOCALE_DIR / "fr.po"))
    assert po.metadata["Plural-Forms"] == "nplurals=2; plural=(n > 1);"
    assert i18n.available_languages() == ("en", "fr")
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        set_language("xx")


def test_every_french_text_avoids_english_words() -> None:
    """No French translation keeps an English word (identifiers apart)."""
    po = polib.pofile(str(i18n.LOCALE_DIR / "fr.po"))
    for entry in po:
        texts = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
        for text in texts:
            assert english_words(text.format_map(_Blank())) == [], (entry.msgid, text)


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return ""


# ---------------------------------------------------------------------------------------
# Plurals, numbers, places
# ---------------------------------------------------------------------------------------
def test_tile_counts_in_english_and_french(french) -> None:
    assert [basics.tile_count(n) for n in (0, 1, 2, 15)] == ["0 domino", "1 domino", "2 dominos", "15 dominos"]
    assert basics.round_count(1) == "1 manche" and basics.round_count(13) == "13 manches"
    assert basics.point_count(2) == "2 points"
    set_language("en")
    assert [basics.tile_count(n) for n in (0, 1, 2, 15)] == ["0 tiles", "1 tile", "2 tiles", "15 tiles"]
    assert basics.round_count(1) == "1 round" and basics.round_count(13) == "13 rounds"


def test_decimal_points_singular_below_two_in_french(french) -> None:
    """« 1,1 point » (French: singular below 2), « 2,0 points »; English "1.1 points"."""
    assert [basics.decimal_points(x) for x in (0.5, 1.1, 1.96, 2.5, 12.0)] == [
        "0,5 point", "1,1 point", "2,0 points", "2,5 points", "12,0 points"
    ]
    assert basics.decimal_points(1.1, signed=True) == "+1,1 point"
    assert basics.decimal_points(-3.25, signed=True) == "-3,2 points"
    set_language("en")
    assert [basics.decimal_points(x) for x in (0.5, 1.0, 1.1, 2.5)] == ["0.5 points", "1.0 points", "1.1 points", "2.5 points"]
    assert basics.decimal_points(-1.1, signed=True) == "-1.1 points"


#: French words that would give a named person a gender ("Bea a été retiré", "absent depuis").
#: ("partie" is the game, so only "parti" counts.)
GENDERED = re.compile(r"\b(retirée?|parti|revenue?|déconnectée?|absente?|arrivée?|assise?|prête?)\b")


def test_french_lines_about_a_named_person_do_not_guess_their_gender() -> None:
    """A name is any player's: a French line that holds one never agrees a word with it."""
    po = polib.pofile(str(i18n.LOCALE_DIR / "fr.po"))
    found = [
        text
        for e in po
        if not e.obsolete
        for text in [e.msgstr, *e.msgstr_plural.values()]
        if "{name}" in text and GENDERED.search(text)
    ]
    assert found == []


def test_no_tuile_in_the_french_catalogue() -> None:
    """The French leaflet calls the pieces *dominos*, never *tuiles*."""
    po = polib.pofile(str(i18n.LOCALE_DIR / "fr.po"))
    found = [
        e.msgid
        for e in po
        if not e.obsolete and any("tuile" in s.lower() for s in [e.msgstr, *e.msgstr_plural.values()])
    ]
    assert found == []


def test_ordinals_decimals_quotes_and_lists(french) -> None:
    assert [basics.ordinal(n) for n in (1, 2, 3, 4, 11, 21)] == ["1er", "2e", "3e", "4e", "11e", "21e"]
    assert basics.decimal(2.5) == "2,5"
    assert basics.quote("ten") == "« ten »"
    assert basics.join_and(["Bea", "Cal", "Dot"]) == "Bea, Cal et Dot"
    assert basics.join_or([6, 9, 12]) == "6, 9 ou 12"
    set_language("en")
    assert [basics.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 112)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "112th"
    ]
    assert basics.decimal(2.5) == "2.5"
    assert basics.quote("ten") == "'ten'"
    assert basics.join_and(["Bea", "Cal", "Dot"]) == "Bea, Cal and Dot"


# ---------------------------------------------------------------------------------------
# Choosing the language
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "fr_CA"}, "fr"),
        ({"LC_ALL": "fr_FR.UTF-8"}, "fr"),
        ({"LC_ALL": "fr_BE.UTF-8", "LANG": "en_GB.UTF-8"}, "fr"),
        ({"LC_MESSAGES": "fr_FR", "LANG": "en_US.UTF-8"}, "fr"),
        ({"LANGUAGE": "de:fr", "LANG": "de_DE.UTF-8"}, "fr"),
        ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_detect_language(env: dict, lang: str) -> None:
    assert detect_language(env) == lang


def test_detect_language_reads_the_process_environment(no_locale) -> None:
    assert detect_language() == "en"
    no_locale.setenv("LANG", "fr_FR.UTF-8")
    assert detect_language() == "fr"


def test_settings_round_trip_and_bad_files(tmp_path: Path) -> None:
    assert settings.load(tmp_path) == {}
    assert settings.saved_language(tmp_path) is None
    assert settings.save(tmp_path, language="fr") == {"language": "fr"}
    assert settings.saved_language(tmp_path) == "fr"
    path = tmp_path / "settings.json"
    data = json.loads(path.read_text())
    data["future"] = 3  # kept, though this version does not know it
    path.write_text(json.dumps(data))
    settings.save(tmp_path, language="en")
    assert json.loads(path.read_text()) == {"future": 3, "language": "en"}
    assert settings.save(tmp_path, language=None) == {}
    with pytest.raises(ValueError):
        settings.save(tmp_path, colour="red")
    with pytest.raises(ValueError):
        settings.save(tmp_path, language=3)
    for bad in (b"{not json", b"[1, 2]", b'{"language": 7}', b"\xff\xfe", b"", b"[" * 100_000):
        path.write_bytes(bad)
        assert settings.load(tmp_path) == {}
        assert settings.choose_language(None, tmp_path, {"LANG": "fr_FR.UTF-8"}) == "fr"
    assert path.read_bytes() == b"[" * 100_000  # a bad file is left alone


def test_choose_language_order(tmp_path: Path) -> None:
    fr_env = {"LANG": "fr_FR.UTF-8"}
    assert settings.choose_language(None, tmp_path, {}) == "en"
    assert settings.choose_language(None, tmp_path, fr_env) == "fr"
    settings.save(tmp_path, language="en")
    assert settings.choose_language(None, tmp_path, fr_env) == "en"  # the saved choice first
    assert settings.choose_language("FR", tmp_path, {}) == "fr"  # then --lang over both
    settings.save(tmp_path, language="xx")
    assert settings.choose_language(None, tmp_path, fr_env) == "fr"  # an unknown one is ignored
    with pytest.raises(ValueError, match="unknown language 'de'"):
        settings.choose_language("de", tmp_path, {})


# ---------------------------------------------------------------------------------------
# Illegal-move reasons
# ---------------------------------------------------------------------------------------
#: A realistic IllegalAction per reason code, with what the sentence must say in each language.
REASON_CASES = {
    "game_over": ({}, "The game is over.", "La partie est terminée."),
    "not_in_hand": ({"tile": (3, 7)}, "You do not hold 3-7.", "Vous n'avez pas 3-7 en main."),
    "must_play_drawn": ({"drawn": (5, 9)}, "the tile you drew, 5-9", "le domino pioché, 5-9"),
    "double_follow_up": ({"tile": (6, 6)}, "6-6 is a double", "6-6 est un double"),
    "private_train": ({"train": 1}, "Only its owner may play on Bea's train", "sur le train de Bea"),
    "blocked_by_double": (
        {"double": (8, 8), "train": MEXICAN},
        "The open double 8-8 on the Mexican Train must be satisfied first.",
        "Le double ouvert 8-8 sur le Train Mexicain doit d'abord être complété.",
    ),
    "must_satisfy": (
        {"double": (4, 4), "train": 0},
        "Your double 4-4 on your train must be satisfied first.",
        "Votre double 4-4 sur votre train doit d'abord être complété.",
    ),
    "chain_own_train": ({}, "your own train only", "uniquement sur votre propre train"),
    "first_turn_own_train": ({}, "start your own train", "démarrer votre propre train"),
    "swan_next": ({"next": 2}, "goes on to Cal's train now", "continue maintenant sur le train de Cal"),
    "no_train": ({"ref": 9}, "There is no train for seat 10.", "Il n'y a pas de train pour la place 10."),
    "no_branch": (
        {"train": 3, "branch": 2},
        "There is no branch 2 on Dot's train.",
        "Il n'y a pas de branche 2 sur le train de Dot.",
    ),
    "does_not_fit": (
        {"tile": (7, 3), "train": 1, "end": 5},
        "7-3 does not fit Bea's train, whose open end is 5.",
        "7-3 ne va pas sur le train de Bea, dont l'extrémité est 5.",
    ),
    "wrong_half": (
        {"tile": (7, 3), "train": 0, "end": 3},
        "7-3 cannot be laid that way on your train",
        "7-3 ne peut pas se poser dans ce sens sur votre train",
    ),
    "must_play": (
        {"example": ((7, 3), MEXICAN)},
        "so you must play it: 7-3 on the Mexican Train, for example.",
        "vous devez donc le poser : 7-3 sur le Train Mexicain, par exemple.",
    ),
    "already_drawn": ({}, "You have already drawn this turn.", "Vous avez déjà pioché à ce tour."),
    "boneyard_empty": ({}, "The boneyard is empty.", "La pioche est vide."),
    "cannot_mark_now": ({"why": "draw_first"}, "draw a tile first", "piochez d'abord un domino"),
    "cannot_pass_now": (
        {"why": "drawn_playable", "example": ((2, 5), 0)},
        "the tile you drew can be played (2-5 on your train)",
        "le domino pioché peut être posé (2-5 sur votre train)",
    ),
    "cannot_skip_now": ({}, "Only the Mexican Train may be skipped", "seul le Train Mexicain"),
    "draw_not_allowed": ({"why": "in_chain"}, "You cannot draw now", "Vous ne pouvez pas piocher"),
    "bad_action": (
        {"field": "tile"},
        "That move names no tile: a tile is two whole numbers of pips.",
        "Ce coup ne désigne aucun domino : un domino, ce sont deux nombres entiers de points.",
    ),
}


@pytest.mark.parametrize(
    ("values", "english", "french"),
    [
        ({"field": "branch"}, "That move names no branch: a branch is a whole number, 0 for the trunk.",
         "Ce coup ne désigne aucune branche : une branche est un nombre entier, 0 pour le tronc."),
        ({"field": "type"}, "That is not a move of this game.", "Ce n'est pas un coup de ce jeu."),
    ],
)
def test_every_bad_action_field_in_both_languages(values, english, french) -> None:
    exc = IllegalAction("bad_action", **values)
    assert refusals.reason_text(exc, NAMES, viewer=0) == english
    set_language("fr")
    assert refusals.reason_text(exc, NAMES, viewer=0) == french


@pytest.mark.parametrize(
    ("action", "english", "french"),
    [
        ("draw", "7-3 fits your train: draw only when nothing fits.",
         "7-3 va sur votre train : on ne pioche que si aucun domino ne peut être posé."),
        ("mark", "7-3 fits your train: you must play; end your turn only when nothing fits.",
         "7-3 va sur votre train : vous devez jouer ; ne finissez votre tour que si aucun domino ne peut être posé."),
        ("pass", "7-3 fits your train: you must play; pass only when nothing fits.",
         "7-3 va sur votre train : vous devez jouer ; ne passez que si aucun domino ne peut être posé."),
    ],
)
def test_must_play_says_what_fits_and_answers_the_move_tried(action, english, french) -> None:
    exc = IllegalAction("must_play", example=((7, 3), 0), action=action)
    assert refusals.reason_text(exc, NAMES, viewer=0) == english
    set_language("fr")
    assert refusals.reason_text(exc, NAMES, viewer=0) == french


def test_every_reason_code_has_a_case() -> None:
    assert set(REASON_CASES) == set(CODES)


@pytest.mark.parametrize("code", sorted(REASON_CASES))
def test_reason_text_in_both_languages(code: str) -> None:
    values, english, french = REASON_CASES[code]
    exc = IllegalAction(code, **values)
    en = refusals.reason_text(exc, NAMES, viewer=0)
    assert english in en
    assert (en[0].isupper() or en[0].isdigit()) and en.endswith(".")
    assert en != "That move is not allowed."
    set_language("fr")
    fr = refusals.reason_text(exc, NAMES, viewer=0)
    assert french in fr
    assert (fr[0].isupper() or fr[0].isdigit()) and fr.endswith(".")
    assert english_words(fr) == [], fr


@pytest.mark.parametrize("why", sorted(WHY_CODES))
@pytest.mark.parametrize("code", ["cannot_mark_now", "cannot_pass_now", "draw_not_allowed"])
def test_every_why_in_both_languages(code: str, why: str) -> None:
    exc = IllegalAction(code, why=why, example=((1, 4), 2))
    en = refusals.reason_text(exc, NAMES, viewer=0)
    assert why not in en  # a sentence, not the sub-code
    if why == "drawn_playable":
        assert "1-4 on Cal's train" in en
    set_language("fr")
    fr = refusals.reason_text(exc, NAMES, viewer=0)
    assert fr.startswith("Vous ne pouvez pas")
    assert english_words(fr) == [], fr
    if why == "drawn_playable":
        assert "1-4 sur le train de Cal" in fr


def test_train_names_from_the_viewer_and_the_actor(french) -> None:
    assert basics.train_name(NAMES, 0, 4, 0) == "votre train"
    assert basics.train_name(NAMES, 0, 4, 2) == "le train de Cal"
    assert basics.train_name(NAMES, 0, 4, 2, actor=2) == "son train"
    assert basics.train_name(NAMES, 0, 4, 4) == "le Train Mexicain"
    assert basics.train_name(NAMES, None, 4, MEXICAN) == "le Train Mexicain"
    assert basics.train_name(None, None, None, 1) == "le train de la place 2"
    assert basics.train_label(NAMES, 4, 4) == "Mexicain"
    set_language("en")
    assert basics.train_name(NAMES, 0, 4, 0) == "your train"
    assert basics.train_name(NAMES, 0, 4, 2) == "Cal's train"
    assert basics.train_name(NAMES, 0, 4, 2, actor=2) == "their train"
    assert basics.train_name(NAMES, 0, 4, 4) == "the Mexican Train"


def _candidates(state) -> list:
    """Plays of every hand tile (both ways) on every train, and every other action."""
    hand = state.hands[state.turn]
    refs = [*range(state.players), MEXICAN]
    out = [DRAW, MARK, PASS, SKIP]
    for a, b in hand:
        for ref in refs:
            out.append(Play(tile=(a, b), train=ref))
            out.append(Play(tile=(b, a), train=ref, branch=1))
    out.append(Play(tile=(0, 0), train=7))
    absent = next(t for t in state.boneyard if t not in hand) if state.boneyard else None
    if absent is not None:
        out.append(Play(tile=absent, train=MEXICAN))
    return out


VARIANTS = [
    {},
    {"double_follow_up": "must_satisfy", "blanks_wild": "on", "round_end": "until_blocked"},
    {"swan_drive": "on", "trains_start_public": "on"},
    {"opening": "first_turn_chain"},
    {"opening": "simultaneous", "branching_doubles": "on"},
    {"opening": "delayed_first_turn"},
]


def test_reasons_of_real_illegal_actions_in_french() -> None:
    """Random games under several variants: every refused action reads as a French sentence
    without English words (and as an English one that is not the fallback)."""
    rng = random.Random(6)
    seen: set[str] = set()
    for k, options in enumerate(VARIANTS):
        state = new_game(make_rules("standard", {"set": "6", **options}), players=2, seed=k)
        steps = 0
        while not state.over and steps < 120:
            legal = legal_actions(state)
            candidates = _candidates(state)
            for action in rng.sample(candidates, min(12, len(candidates))):
                if action in legal:
                    continue
                try:
                    apply(state, action)
                except IllegalAction as exc:
                    seen.add(exc.code)
                    set_language("en")
                    assert refusals.reason_text(exc, NAMES[:2], state.turn) != "That move is not allowed."
                    set_language("fr")
                    fr = refusals.reason_text(exc, NAMES[:2], state.turn)
                    assert english_words(fr) == [], (exc.code, fr)
            state = apply(state, rng.choice(legal))
            steps += 1
    set_language("en")
    assert {"not_in_hand", "does_not_fit", "must_play", "no_train", "private_train"} <= seen
    assert len(seen) >= 10, seen


# ---------------------------------------------------------------------------------------
# Rule sets and saved games
# ---------------------------------------------------------------------------------------
RULESET_CASES = [
    (lambda: RuleSet().check_players(1), "2 joueurs au moins"),
    (lambda: RuleSet().check_players(11), "le jeu double-12 se joue à 10 joueurs au plus, pas 11"),
    (lambda: PRESETS["fast"].check_players(5), "le jeu double-9 rapide se joue à 4 joueurs au plus"),
    (lambda: make_rules("standard", {"teams": "on"}).check_players(3), "les équipes demandent"),
    (lambda: make_rules("standard", {"first_seat": "6"}).check_players(4), "la place 6 n'existe pas"),
    (lambda: make_rules("standard", {"hand_size": "40"}).check_players(4), "n'en a que 90 à distribuer"),
    (lambda: make_rules("standard", {"hand_table": "fast"}), "réservée au jeu double-9"),
    (lambda: make_rules("standard", {"rounds": "99"}), "au plus 13 manches, pas 99"),
    (lambda: make_rules("standard", {"blanks_wild": "maybe"}), "vaut on ou off, pas « maybe »"),
    (lambda: make_rules("nope"), "règles prédéfinies inconnues : « nope »"),
    (lambda: make_rules("standard", {"nope": "1"}), "option inconnue : « nope »"),
    (lambda: make_rules("standard", {"set": "7"}), "l'option set vaut 6, 9, 12, 15 ou 18, pas 7"),
    (lambda: make_rules("standard", {"engine": "up"}), "vaut « descending » ou « highest_double », pas « up »"),
    (lambda: make_rules("standard", {"first_seat": "0"}), "doit valoir au moins 1, pas 0"),
    (lambda: make_rules("standard", {"hand_size": "x"}), "demande un nombre entier, pas « x »"),
]


@pytest.mark.parametrize(("make", "french"), RULESET_CASES, ids=[c[1] for c in RULESET_CASES])
def test_ruleset_errors_in_both_languages(make, french: str) -> None:
    with pytest.raises(RuleSetError) as info:
        make()
    exc = info.value
    assert exc.code != "invalid"
    english = validation.ruleset_error_text(exc)
    assert english != str(exc)  # the player's sentence, never the developer line
    set_language("fr")
    text = validation.ruleset_error_text(exc)
    assert french in text
    words = text.split(" ; les options sont ")[0]  # the option names are identifiers
    words = words.replace(f"l'option {exc.values.get('option')} ", "")
    assert english_words(words) == [], text


def test_ruleset_error_str_is_the_developer_line() -> None:
    with pytest.raises(RuleSetError) as info:
        make_rules("standard", {"blanks_wild": "maybe"})
    assert str(info.value) == "not_on_off (option=blanks_wild, value=maybe)"
    assert info.value.values == {"option": "blanks_wild", "value": "maybe"}
    assert validation.ruleset_error_text(info.value) == "option blanks_wild takes on or off, not 'maybe'"
    with pytest.raises(RuleSetError) as info:
        RuleSet().check_players(11)
    assert str(info.value) == "too_many_players (set=12, fast=False, max=10, players=11)"
    assert validation.ruleset_error_text(info.value) == "the double-12 set takes at most 10 players, not 11"


def _saved_game_text() -> tuple[str, dict]:
    from mexitrain.game_setup import GameSetup, SeatConfig
    from mexitrain.storage.savefile import save_data, save_text

    rules = make_rules("standard", {"set": "6"})
    seats = (SeatConfig(name="Ann", kind="human"), SeatConfig(name="Bea", kind="random"))
    setup = GameSetup(rules=rules, seed=3, seats=seats)
    state = new_game(rules, players=2, seed=3)
    for _ in range(6):
        state = apply(state, legal_actions(state)[0])
    data = save_data(state, setup, name="partie")
    return save_text(data), data


def test_saved_games_hold_no_translated_text(french) -> None:
    text_fr, data = _saved_game_text()
    set_language("en")
    text_en, _ = _saved_game_text()
    assert text_fr.replace(data["app"]["saved_at"], "") == text_en.replace(
        json.loads(text_en)["app"]["saved_at"], ""
    )


def _load_error(tmp_path: Path, content: bytes | None):
    from mexitrain.storage.savefile import SaveError, load_save

    path = tmp_path / "game.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(SaveError) as info:
        load_save(path)
    return info.value


def test_save_errors_in_french(tmp_path: Path, french) -> None:
    text, data = _saved_game_text()
    newer = json.loads(text)
    newer["version"] = 9
    illegal = json.loads(text)
    events = illegal["record"]["rounds"][0]["events"]
    hand = illegal["record"]["rounds"][0]["hands"][events[0]["seat"]]
    absent = next(t for t in ([a, b] for a in range(7) for b in range(a, 7)) if t not in hand)
    events[0] = {"seat": events[0]["seat"], "type": "play", "tile": absent, "train": "mexican"}
    cases = [
        (None, "os_error", "ce fichier n'existe pas"),
        (b"{ not json", "not_json", "ce n'est pas du JSON valide (ligne 1, colonne 3)"),
        (text[: len(text) // 2].encode(), "truncated", "le fichier est tronqué"),
        (json.dumps(newer).encode(), "newer_version", "écrit par un mexitrain plus récent (version 9"),
        (json.dumps(illegal).encode(), "illegal_move", "manche 1, le coup 1 d'Ann n'est pas permis"),
        (b"", "empty", "le fichier est vide"),
        (b'{"format": "other"}', "wrong_format", "ce n'est pas une partie enregistrée"),
    ]
    for content, code, needle in cases:
        exc = _load_error(tmp_path, content)
        assert exc.code == code
        assert exc.action == "load"
        line = files.save_error_text(exc)
        assert line.startswith(f"impossible de charger {tmp_path / 'game.json'} : ")
        assert needle in line, line
        assert english_words(line.replace(str(tmp_path), "")) == [], line
        assert "\n" not in line
    illegal_exc = _load_error(tmp_path, json.dumps(illegal).encode())
    assert f"Vous n'avez pas {absent[0]}-{absent[1]} en main." in files.save_error_text(illegal_exc)
    set_language("en")
    assert files.save_error_text(illegal_exc).startswith(
        f"cannot load {tmp_path / 'game.json'}: round 1, move 1 by Ann is not allowed: You do not hold"
    )


def test_save_error_moved_aside_and_save_failures(tmp_path: Path, french) -> None:
    from mexitrain.storage.savefile import SaveError

    exc = SaveError("x", tmp_path / "autosave.json", action="load", code="empty",
                    moved_to=tmp_path / "autosave.bad-1.json")
    assert files.save_error_text(exc).endswith(
        f"le fichier est vide ; le fichier a été déplacé vers {tmp_path / 'autosave.bad-1.json'}"
    )
    full = SaveError("x", tmp_path / "a.json", action="save", code="os_error",
                     values={"errno": 28, "error": "No space left on device"})
    assert files.save_error_text(full) == f"impossible d'enregistrer {tmp_path / 'a.json'} : le disque est plein"
    plain = SaveError("cannot load x: something odd")
    assert files.save_error_text(plain) == "cannot load x: something odd"


# ---------------------------------------------------------------------------------------
# The game in words
# ---------------------------------------------------------------------------------------
def _game_lines(rules: RuleSet, players: int, seed: int, viewer: int = 0) -> list[str]:
    """Every log line, round header, status line and knock line a seat sees in one game."""
    names = NAMES[:players]
    kinds = ("human",) + ("random",) * (players - 1)
    rng = random.Random(seed)
    state = new_game(rules, players=players, seed=seed)
    lines: list[str] = []
    while not state.over:
        v = view(state, viewer)
        lines.append(events.round_header(v, names))
        legal = legal_actions(state)
        types = frozenset(a.type for a in legal)
        lines.append(status.turn_line(v, names, kinds, types, any(a.type == "play" for a in legal)))
        lines.append(status.knock_line(v, names))
        state = apply(state, rng.choice(legal))
        v = view(state, viewer)
        if v.events:
            lines.append(events.event_line(v, names, len(v.events) - 1, auto=rng.random() < 0.2))
    for r in state.results:
        lines.append(events.end_words(r.end, r.out_seat, names, viewer))
    return [line for line in lines if line]


@pytest.mark.parametrize("options", VARIANTS + [{"teams": "on"}], ids=str)
def test_a_whole_game_in_french_has_no_english_word(options: dict, french) -> None:
    rules = make_rules("standard", {"set": "6", "rounds": "2", **options})
    players = 4 if rules.teams else 3
    if rules.teams:
        rules = make_rules("standard", {"set": "9", "rounds": "1", **options})
    lines = _game_lines(rules, players, seed=11)
    assert any(line.startswith("Manche 1 sur") for line in lines)
    assert any(" a posé " in line or "Vous avez posé" in line for line in lines)
    for line in set(lines):
        assert english_words(line) == [], line


def test_rules_summary_and_results_in_french(french) -> None:
    every = make_rules("standard", {
        "teams": "on", "open_hands": "on", "blanks_wild": "on", "branching_doubles": "on",
        "swan_drive": "on", "trains_start_public": "on", "first_seat": "2",
    })
    for rules in [*PRESETS.values(), every]:
        for line in rules_text.rules_summary(rules, 4):
            assert english_words(line) == [], line
    assert rules_text.rules_summary(PRESETS["standard"], 4)[0] == "jeu double-12, 15 dominos chacun, 13 manches"
    assert rules_text.rules_summary(RuleSet(rounds=1), 4)[0] == "jeu double-12, 15 dominos chacun, 1 manche"
    assert events.winners_text(NAMES, [(0,)], viewer=0) == "Vous gagnez"
    assert events.winners_text(NAMES, [(1,)], viewer=0) == "Bea gagne"
    assert events.winners_text(NAMES, [(1, 3)], viewer=0) == "Bea & Dot gagnent"
    assert events.winners_text(NAMES, [(1,), (2,)]) == "Bea et Cal gagnent"
    for key in rules_text.DECIDED:
        assert english_words(rules_text.decided_text(key)) == []
    for key in PRESETS:
        assert english_words(rules_text.preset_title(key)) == []
    for field in RuleSet.model_fields:
        assert english_words(rules_text.option_help(field)) == [], field
    assert basics.level_name("planner") == "stratège"


# ---------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["--lang", "fr", "--help"],
        ["--help", "--lang", "fr"],
        ["--lang=fr", "-h"],
        ["--lang", "fr", "simulate", "--help"],
        ["simulate", "--help", "--lang", "fr"],
        ["--lang", "fr", "play", "--help"],
        ["--lang", "fr", "stats", "--help"],
        ["--lang", "fr", "tournament", "--help"],
    ],
)
def test_help_in_french(argv: list[str], capsys, no_locale) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("utilisation : mexitrain")
    assert "afficher cette aide et quitter" in out
    assert english_words(out) == [], out
    assert i18n.language() == "en"  # main() leaves the language as it found it


def test_help_in_english_is_unchanged(capsys, no_locale) -> None:
    assert main(["simulate", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: mexitrain simulate")
    assert "show this help message and exit" in out and "options:" in out
    assert "--lang {en,fr}" in out


BAD_FRENCH = [
    (["simulate", "--frob"], "arguments non reconnus : --frob"),
    (["simulate", "--games", "ten"], "argument --games : nombre entier attendu, pas « ten »"),
    (["simulate", "--games", "0"], "argument --games : doit valoir au moins 1, pas 0"),
    (["simulate", "--games"], "argument --games : un argument attendu"),
    (["frobnicate"], "argument COMMANDE : choix invalide : 'frobnicate' (choisir parmi 'play'"),
    (["simulate", "--option", "noequals"], "CLÉ=VALEUR attendu, pas « noequals »"),
    (["simulate", "--option", "set=7"], "l'option set vaut 6, 9, 12, 15 ou 18, pas 7"),
    (["simulate", "--players", "14"], "le jeu double-12 se joue à 10 joueurs au plus, pas 14"),
    (["simulate", "--players", "1"], "le Train Mexicain se joue à 2 joueurs au moins, pas 1"),
    (["simulate", "--preset", "nope"], "règles prédéfinies inconnues : « nope »"),
    (["simulate", "--ai", "zorro"], "niveau de l'ordinateur inconnu : « zorro »"),
    (["--speed", "fast"], "argument --speed : nombre de secondes attendu, pas « fast »"),
    (["--names", "A,B", "--players", "4"], "--names donne 2 noms pour 4 joueurs"),
    (["play", "--option", "teams=on", "--players", "3"], "les équipes demandent 4, 6 ou 8 joueurs"),
    (["simulate", "--lang"], "argument --lang : un argument attendu"),
    (["simulate", "--lang", "xx"], "argument --lang : langue inconnue : « xx » ; choisir parmi en, fr"),
]


@pytest.mark.parametrize(("argv", "needle"), BAD_FRENCH, ids=[" ".join(a) for a, _ in BAD_FRENCH])
def test_bad_arguments_in_french(argv: list[str], needle: str, capsys, no_locale) -> None:
    no_locale.setenv("LANG", "fr_FR.UTF-8")  # --lang xx falls back on the locale's language
    assert main([*argv, "--lang", "fr"] if "--lang" not in argv else argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("mexitrain : erreur : ")
    assert needle in lines[0]
    assert english_words(lines[0].removeprefix("mexitrain : erreur : ")) == [], lines[0]


def test_unknown_lang_is_a_one_line_error_in_english_too(capsys, no_locale) -> None:
    assert main(["--lang", "xx", "simulate"]) == 2
    err = capsys.readouterr().err
    assert err == "mexitrain: error: argument --lang: unknown language 'xx'; choose one of en, fr\n"


def test_translate_argparse_patterns(french) -> None:
    cases = {
        "unrecognized arguments: --x --y": "arguments non reconnus : --x --y",
        "the following arguments are required: N": "les arguments suivants sont obligatoires : N",
        "argument --games: expected one argument": "argument --games : un argument attendu",
        "argument --x: expected at most one argument": "argument --x : au plus un argument attendu",
        "argument --x: expected at least one argument": "argument --x : au moins un argument attendu",
        "argument --x: expected 2 arguments": "argument --x : 2 arguments attendus",
        "argument --n: invalid int value: 'x'": "argument --n : valeur int invalide : 'x'",
        "ambiguous option: --p could match --players, --preset":
            "option ambiguë : --p peut correspondre à --players, --preset",
        "argument -a: not allowed with argument -b": "argument -a : interdit avec l'argument -b",
        "one of the arguments -a -b is required": "l'un des arguments -a -b est obligatoire",
        "argument --v: ignored explicit argument 'x'": "argument --v : argument explicite ignoré : 'x'",
        "something of our own": "something of our own",
    }
    for english, french in cases.items():
        assert translate_argparse(english) == french


def test_the_saved_language_and_lang_on_the_command_line(tmp_path: Path, capsys, no_locale) -> None:
    settings.save(tmp_path, language="fr")
    no_locale.setenv("MEXITRAIN_DATA_DIR", str(tmp_path))
    assert main(["simulate", "--frob"]) == 2
    assert capsys.readouterr().err.startswith("mexitrain : erreur : ")
    assert main(["--lang", "en", "simulate", "--frob"]) == 2
    assert capsys.readouterr().err.startswith("mexitrain: error: ")
    other = tmp_path / "other"
    settings.save(other, language="en")
    no_locale.setenv("LANG", "fr_FR.UTF-8")
    assert main(["play", "--data-dir", str(other), "--frob"]) == 2  # --data-dir's settings
    assert capsys.readouterr().err.startswith("mexitrain: error: ")


def test_simulate_in_french_in_process(capsys, no_locale) -> None:
    no_locale.setenv("LANG", "fr_FR.UTF-8")
    assert main(["simulate", "--games", "2", "--players", "3", "--option", "set=6", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 parties, 3 joueurs, règles standard set=6, graines 5..6\n")
    assert "victoires par place" in out and "fins de manche : domino" in out
    assert re.search(r"^  place 1 \(hasard\) : \d+ \(\d+,\d %\)$", out, re.M)
    assert english_words(out) == [], out
    assert i18n.language() == "en"


def test_tournament_in_french(capsys, no_locale) -> None:
    assert main(["--lang", "fr", "tournament", "--players", "3", "--games", "1", "--seed", "3",
                 "--ai", "greedy,random", "--option", "set=6", "--processes", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 parties (1 donne x 3 rotations des places), 3 joueurs, règles standard set=6")
    head, columns, *rows = out.splitlines()
    assert columns.split()[:3] == ["niveau", "places", "victoires"]
    assert [r.split()[0] for r in rows] == ["glouton", "hasard"]
    assert re.search(r"\d+,\d %", rows[0]), rows[0]  # the French decimal mark and percent
    assert english_words(out) == [], out
    assert main(["--lang", "fr", "tournament", "--players", "2", "--ai", "planner,greedy,random"]) == 2
    assert "--ai nomme 3 niveaux pour 2 joueurs" in capsys.readouterr().err


def test_lang_fr_simulate_in_a_real_process() -> None:
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    env["LANG"] = "fr_FR.UTF-8"
    env["PYTHONPATH"] = str(REPO_ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "mexitrain", "simulate", "--games", "1", "--players", "2",
         "--option", "set=6", "--seed", "2"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.startswith("1 partie, 2 joueurs, règles standard set=6, graines 2..2\n")
    assert "total moyen par place :" in proc.stdout
    assert english_words(proc.stdout) == [], proc.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "mexitrain", "simulate", "--games", "x"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert bad.returncode == 2
    assert bad.stderr == "mexitrain : erreur : argument --games : nombre entier attendu, pas « x »\n"


def test_update_adds_new_ids_and_marks_unused_ones_obsolete(tmp_path: Path) -> None:
    extracted = {
        (None, "Kept"): i18n_tools.Message("Kept", where="x.py:1"),
        (None, "{n} new"): i18n_tools.Message("{n} new", plural="{n} news", where="x.py:2"),
    }
    po = polib.POFile()
    po.append(polib.POEntry(msgid="Kept", msgstr="Gardé"))
    po.append(polib.POEntry(msgid="Gone", msgstr="Parti"))
    path = tmp_path / "xx.po"
    po.save(str(path))
    assert i18n_tools.update(path, extracted) == 1
    entries = {e.msgid: e for e in polib.pofile(str(path))}
    assert entries["Gone"].obsolete and entries["Gone"].msgstr == "Parti"
    assert not entries["Kept"].obsolete
    assert entries["Kept"].occurrences == [("x.py", "1")]  # where the code has it now
    assert entries["{n} new"].msgstr_plural == {0: "", 1: ""}
    assert i18n_tools.check(path, extracted) == ["xx.po: '{n} new' (x.py:2): a plural form is empty"]


# ---------------------------------------------------------------------------------------
# pydantic's validation errors, save and record problems: in the player's language
# ---------------------------------------------------------------------------------------
def _validation_error(build) -> Exception:
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as info:
        build()
    return info.value


PYDANTIC_FRENCH = [
    (lambda: RuleSet(hand_size=0), "l'option hand_size doit valoir au moins 1, pas 0"),
    (lambda: RuleSet(hand_size="abc"), "l'option hand_size attend un nombre entier, pas « abc »"),
    (lambda: RuleSet(teams="maybe"), "l'option teams attend on ou off"),
    (lambda: RuleSet(engine="sideways"), "l'option engine accepte « descending » ou « highest_double », pas « sideways »"),
    (lambda: _setup(seats=({"name": "x" * 30},)), "le nom de la place 1 accepte au plus 20 caractères"),
    (lambda: _setup(seats=({"name": ""},)), "le nom de la place 1 ne peut pas être vide"),
    (lambda: _setup(seats=({"name": "Zoé", "kind": "wizard"},)), "le joueur de la place 1 accepte « human »,"),
    (lambda: _setup(seed=-1), "la graine doit valoir au moins 0, pas -1"),
    (lambda: _setup(colour="red"), "« colour » n'est pas un réglage connu"),
    (lambda: _setup(seats=({"name": "Zoé"},)), "le Train Mexicain se joue à 2 joueurs au moins"),  # a RuleSetError inside
]


def _setup(**kw):
    from mexitrain.game_setup import GameSetup

    seats = kw.pop("seats", ({"name": "Zoé"}, {"name": "Bea", "kind": "random"}))
    return GameSetup(seats=seats, **kw)


@pytest.mark.parametrize(("build", "needle"), PYDANTIC_FRENCH, ids=[n[:30] for _, n in PYDANTIC_FRENCH])
def test_pydantic_errors_are_said_from_their_type_never_in_pydantic_english(build, needle, french) -> None:
    exc = _validation_error(build)
    text = errors.error_text(exc)
    assert validation.validation_error_text(exc) == text
    assert needle in text, text
    assert "\n" not in text
    for pydantic_words in ("Input should", "String should", "Value error", "Field required", "Extra inputs"):
        assert pydantic_words not in text
    set_language("en")
    english = errors.error_text(exc)
    assert english != text and "Input should" not in english and "String should" not in english


def test_pydantic_error_types_we_do_not_know_still_read_in_the_language(french) -> None:
    class Fake:
        def errors(self):
            return [{"type": "some_future_type", "loc": ("rules", "set"), "msg": "Some English", "input": 3}]

    assert validation.validation_error_text(Fake()) == "l'option set n'est pas valide"
    assert validation.validation_error_text(object()) == "une valeur n'est pas valide"


def test_command_line_bad_files_in_french(tmp_path: Path, capsys, no_locale) -> None:
    """--load and --replay of a bad file: one French line whatever is wrong with it."""
    files = {
        "keys.json": '{"format": "mexitrain-save", "version": 1}',
        "record.json": '{"format": "mexitrain-record", "version": 1, "rules": {}, "players": [], "rounds": []}',
        "nan.json": '{"a": NaN}',
        "twice.json": '{"a": 1, "a": 2}',
        "rules.json": json.dumps({
            "format": "mexitrain-record", "version": 1, "seed": 1, "rules": {"set": 7}, "players": [],
            "rounds": [], "totals": [], "winners": [],
        }),
    }
    expected = {
        "keys.json": "le fichier est abîmé : le fichier n'a pas les clés « app » et « record »",
        "record.json": "l'enregistrement n'a pas les clés « seed », « totals » et « winners »",
        "nan.json": "le fichier est abîmé : NaN n'est pas un nombre admis en JSON",
        "twice.json": "le fichier est abîmé : la clé « a » apparaît deux fois",
        "rules.json": "l'option set vaut 6, 9, 12, 15 ou 18, pas 7",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        for option in ("--load", "--replay"):
            assert main([option, str(path), "--lang", "fr"]) == 2
            err = capsys.readouterr().err
            assert err == f"mexitrain : erreur : impossible de charger {path} : {expected[name]}\n", err
            assert path.read_text(encoding="utf-8") == text  # left untouched


def test_mexitrain_stats_with_a_damaged_file_in_french(tmp_path: Path, capsys, no_locale) -> None:
    from mexitrain.storage.paths import stats_path

    path = stats_path(tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"format": "mexitrain-stats", "version": 1, "players": {"Zoé": 3}}', encoding="utf-8")
    assert main(["stats", "--data-dir", str(tmp_path), "--lang", "fr"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"mexitrain : erreur : impossible de charger {path} : les statistiques ne sont pas valides : ")
    assert "Input should" not in err and "valid dictionary" not in err
    path.write_text('{"format": "mexitrain-save", "version": 1}', encoding="utf-8")
    assert main(["stats", "--data-dir", str(tmp_path), "--lang", "fr"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.endswith("ce n'est pas un fichier de statistiques de mexitrain"), err


def test_a_damaged_stats_file_moved_aside_is_said_in_french(tmp_path: Path, french) -> None:
    from mexitrain.game_setup import GameSetup, SeatConfig
    from mexitrain.storage.paths import stats_path
    from mexitrain.storage.stats import record_finished_game

    path = stats_path(tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[1, 2", encoding="utf-8")
    setup = GameSetup(rules=RuleSet(set=6, rounds=1), seed=3, seats=(SeatConfig(name="Zoé"), SeatConfig(name="Bea", kind="random")))
    state = new_game(setup.rules, players=2, seed=3)
    rng = random.Random(3)
    while not state.over:
        state = apply(state, rng.choice(legal_actions(state)))
    update = record_finished_game(tmp_path, setup, state)
    assert update.notice is not None and "new statistics were started" in update.notice  # English for logs
    text = files.notice_text(update.notice)
    moved = update.notice.moved_to
    assert text == (
        f"impossible de charger {path} : le fichier est tronqué (ligne 1, colonne 6) ; le fichier a été "
        f"déplacé vers {moved} et de nouvelles statistiques ont commencé"
    )


@pytest.mark.parametrize(
    "name, turn, train",
    [
        ("Ann", "Au tour d'Ann", "le train d'Ann"),
        ("Émile", "Au tour d'Émile", "le train d'Émile"),
        ("Yves", "Au tour d'Yves", "le train d'Yves"),
        ("Bea", "Au tour de Bea", "le train de Bea"),
        ("Hugo", "Au tour de Hugo", "le train de Hugo"),  # an h is left alone (« de Hugo » is said)
        ("李小龍", "Au tour de 李小龍", "le train de 李小龍"),
    ],
)
def test_french_elides_de_before_a_name_that_begins_with_a_vowel(french, name, turn, train) -> None:
    """« Au tour de Ann » read wrong: French says « d'Ann ». The catalog writes « de {name} »
    and the name decides, whatever the sentence."""
    assert i18n._("{name}'s turn").format(name=name) == turn
    assert basics.train_name((name, "Bea"), 1, 2, 0) == train
    set_language("en")
    assert i18n._("{name}'s turn").format(name=name) == f"{name}'s turn"


def test_french_elides_que_and_a_capital_de_too(french) -> None:
    assert i18n._French("Plus que {n}, De {name} à {other}").format(n="onze", name="Ann", other="Bea") == (
        "Plus qu'onze, D'Ann à Bea"
    )
    assert i18n._French("de {tile}").format(tile="3-3") == "de 3-3"  # a digit is no vowel
