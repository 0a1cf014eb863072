"""The rules in words: preset titles, what each option does, the rules in force in short
lines, and what the game does where the sources are silent (docs/rules.md).
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_, _, ngettext
from ..rules import PRESETS, RuleSet
from .basics import round_count

_PRESET_TITLES = {
    "standard": N_("Standard (French leaflet, double-12)"),
    "fast": N_("Fast double-9 (2-4 players)"),
    "common": N_("Common (encyclopedia rules + play until blocked)"),
}


def preset_title(key: str) -> str:
    """The title of a rule preset (a key of ``mexitrain.rules.PRESETS``), as players see it."""
    title = _PRESET_TITLES.get(key)
    return _(title) if title else key


_OPTION_HELP = {
    "set": N_("double-N set (§1)"),
    "hand_table": N_("hand-size table: standard (§2) or the fast double-9 one"),
    "hand_size": N_("tiles each, overriding the table (§2)"),
    "rounds": N_("rounds in the game; default N+1 (one with highest_double) (§3)"),
    "engine": N_("engine of each round: N, N-1, ... or the highest double held (§3)"),
    "first_player": N_("who starts round 1 (§3, §8)"),
    "first_seat": N_("the seat that starts when first_player=chosen"),
    "double_follow_up": N_(
        "after a double: any non-double anywhere, or it must satisfy the double (§6)"
    ),
    "round_end": N_("when a round without a domino ends (§7)"),
    "trains_start_public": N_("personal trains public until first played (§4)"),
    "teams": N_("partners opposite share trains and scores (§8)"),
    "team_marker": N_("when partners' trains become public (§8)"),
    "open_hands": N_("every hand visible to every player (§8)"),
    "blanks_wild": N_("a blank matches any value (§8)"),
    "opening": N_("how each round opens (§8)"),
    "branching_doubles": N_("a satisfied double grows two branches (§8)"),
    "swan_drive": N_("play on following public trains too (§8)"),
}


def option_help(field: str) -> str:
    """What a rules option (a field of :class:`~mexitrain.rules.RuleSet`) does, in a few words.
    The option's name itself (``blanks_wild``) is an identifier and is never translated."""
    text = _OPTION_HELP.get(field)
    return _(text) if text is not None else field



def option_words(key: str, value: Any) -> str:
    """One rules option's value in words, as :func:`rules_summary` says it."""
    table = {
        ("engine", "descending"): N_("engines count down from the highest double"),
        ("engine", "highest_double"): N_("each round's engine is the highest double held"),
        ("first_player", "random"): N_("the first player is drawn at random"),
        ("first_player", "chosen"): N_("the first player was chosen"),
        ("first_player", "heaviest"): N_("the holder of the heaviest tile starts"),
        ("double_follow_up", "any"): N_("after a double, play a non-double anywhere you may"),
        ("double_follow_up", "must_satisfy"): N_("after a double, the next tile must go on that double"),
        ("round_end", "boneyard_empty"): N_("a round ends when someone must draw from an empty boneyard"),
        ("round_end", "until_blocked"): N_("with the boneyard empty, play on until nobody can move"),
        ("opening", "normal"): N_("one tile a turn from the start"),
        ("opening", "simultaneous"): N_("each round opens with everyone laying a chain on their own train"),
        ("opening", "first_turn_chain"): N_("on your first turn you lay a whole chain on your own train"),
        ("opening", "delayed_first_turn"): N_("the turn you start your train, you may lay a whole chain"),
        ("team_marker", "together"): N_("partners' trains become public and private together"),
        ("team_marker", "both_stuck"): N_("partners' trains become public only when both are stuck"),
        ("trains_start_public", True): N_("personal trains are public until their owner plays on them"),
        ("teams", True): N_("partners sitting opposite share trains and scores"),
        ("open_hands", True): N_("every hand is played face up"),
        ("blanks_wild", True): N_("blanks are wild: a blank matches any value"),
        ("branching_doubles", True): N_("a satisfied double grows two more branches"),
        ("swan_drive", True): N_("after playing on your own train you may go on along the public trains"),
    }
    text = table.get((key, value))
    return _(text) if text else f"{key}={value}"



DECIDED = {
    "total": N_("on the lowest total"),
    "zero_rounds": N_("on the tie-break: most rounds scored 0"),
    "lowest_nonzero": N_("on the tie-break: the lowest non-zero round"),
    "shared": N_("a shared win: still tied after both tie-breaks"),
}


def decided_text(key: str) -> str:
    """What decided the winner (``mexitrain.rules.decided_by``), in words."""
    text = DECIDED.get(key)
    return _(text) if text else key



_SUMMARY_OPTIONS = ("engine", "first_player", "double_follow_up", "round_end", "opening", "team_marker")
_SUMMARY_FLAGS = (
    "trains_start_public", "teams", "open_hands", "blanks_wild", "branching_doubles", "swan_drive",
)


def rules_summary(rules: RuleSet, players: int) -> list[str]:
    """The active rules, one short line each (help screen, new-game screen)."""
    try:
        rules.check_players(players)
        tiles = ngettext("{n} tile each", "{n} tiles each", rules.tiles_each(players)).format(
            n=rules.tiles_each(players)
        )
    except ValueError:
        tiles = _("? tiles each")
    lines = [
        _("double-{set} set, {tiles}, {rounds}").format(
            set=rules.set, tiles=tiles, rounds=round_count(rules.round_count)
        )
    ]
    lines += [_option_line(rules, key) for key in _SUMMARY_OPTIONS if key != "team_marker" or rules.teams]
    lines += [option_words(key, True) for key in _SUMMARY_FLAGS if getattr(rules, key)]
    return lines


def rules_differences(rules: RuleSet) -> list[str]:
    """The rules in force that differ from the standard game's, one short line each, as
    :func:`rules_summary` says them (the lobby of a table on the network)."""
    standard = PRESETS["standard"]
    return [
        _option_line(rules, key)
        for key in _SUMMARY_OPTIONS + _SUMMARY_FLAGS
        if getattr(rules, key) != getattr(standard, key) and (key != "team_marker" or rules.teams)
    ]


def _option_line(rules: RuleSet, key: str) -> str:
    value = getattr(rules, key)
    if key == "first_player" and value == "chosen":
        return _("the first player was chosen (seat {seat})").format(seat=rules.first_seat + 1)
    return option_words(key, value)


def rules_choices(rules: RuleSet, players: int) -> list[str]:
    """What the game does where the sources are silent, for the options in force, one line
    each (help screen; docs/rules.md §10 "Choices where the sources are silent")."""
    lines = []
    if rules.set == 9 and players == 8 and rules.hand_size is None and rules.hand_table == "standard":
        lines.append(_("With 8 players on a double-9 set, each gets 6 tiles (7 each cannot be dealt)."))
    if rules.first_player == "heaviest":
        lines.append(_("Heaviest tile first: on equal pips a double wins, then the tile with the higher half."))
    if rules.engine == "highest_double":
        lines.append(_("If nobody holds a double, players draw in turn from the boneyard until one is drawn."))
    if rules.opening == "simultaneous":
        lines.append(
            _("Everyone lays their opening chain before the round can end; each player left with no tile scores 0.")
        )
    if rules.opening == "first_turn_chain":
        lines.append(
            _("On your first turn, if your own train cannot be started you must still play elsewhere if a tile "
              "fits; you draw only when nothing fits.")
        )
    if rules.opening != "normal" and rules.branching_doubles:
        lines.append(_("An opening chain follows one line; the branches of its doubles wait for normal turns."))
    if rules.blanks_wild:
        lines.append(_("A double may be laid on an open 0-0: it satisfies it and opens a new double."))
    if rules.teams and rules.team_marker == "both_stuck":
        if rules.double_follow_up == "must_satisfy":
            lines.append(
                _("A double you cannot satisfy marks the train it is on (with its partner train), whatever your "
                  "partner did.")
            )
        else:
            lines.append(_("Laying a double and failing its follow-up counts as a play: no marker."))
    if rules.swan_drive:
        lines.append(
            _("Swan drive: the Mexican Train is a stop only once started, just after the seat of its starter.")
        )
        if rules.teams:
            lines.append(_("Swan drive: your partner's train is not a stop."))
    lines.append(_("A game still tied after both tie-breaks is a shared win."))
    return lines

