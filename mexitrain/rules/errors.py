"""The one exception an illegal action raises, with a reason code and its values.

The values are data, not words: tiles are ``(a, b)`` tuples, trains are named as actions
name them (the owner's seat, 0-based, or ``"mexican"``), ``why`` is a sub-code. Interfaces
turn ``code`` and ``values`` into a sentence in the player's language; ``str(exc)`` is a plain
English sentence for developers, logs and game-record errors.
"""

from __future__ import annotations

from typing import Any

#: English sentences for each reason code, for developers. The values are filled in by name.
REASONS: dict[str, str] = {
    "game_over": "the game is over",
    "not_in_hand": "you do not hold {tile}",
    "must_play_drawn": "you must play the tile you drew, {drawn}, or end your turn",
    "double_follow_up": "after a double you must follow with a non-double (§6); {tile} is a double",
    "private_train": "{train} is private: only its owner may play on it until it carries a marker (§4)",
    "blocked_by_double": "the open double {double} on {train} must be satisfied first (§6)",
    "must_satisfy": "your double {double} on {train} must be satisfied first (§6, must_satisfy)",
    "chain_own_train": "your opening chain goes on your own train only (§8)",
    "first_turn_own_train": "on your first turn you must start your own train, which you can (§8)",
    "swan_next": "the swan drive goes on to {next} now (§8)",
    "no_train": "there is no train {ref!r}",
    "no_branch": "{train} has no branch {branch}",
    "does_not_fit": "{tile} does not fit {train}, whose open end is {end}",
    "wrong_half": "{tile} cannot be laid that way on {train}: its first half must match the open end {end}",
    "must_play": "you hold a tile that can be played, so you must play it (§5): {example}",
    "already_drawn": "you have already drawn this turn",
    "boneyard_empty": "the boneyard is empty",
    "cannot_mark_now": "you cannot end your turn now: {why}",
    "cannot_pass_now": "you cannot pass now: {why}",
    "cannot_skip_now": "only the Mexican Train may be skipped in a swan drive (§8)",
    "draw_not_allowed": "you cannot draw now: {why}",
}

#: English for the ``why`` sub-codes.
WHY: dict[str, str] = {
    "in_chain": "you are in the middle of a chain",
    "in_swan": "you are in the middle of a swan",
    "chain_goes_on": "your opening chain goes on while a tile fits your train",
    "draw_first": "draw a tile first",
    "pass_instead": "no marker is placed here; pass instead",
    "drawn_playable": "the tile you drew can be played: {example}",
    "marker_here": "the rules place your marker here",
}


def _train(ref: Any) -> str:
    if ref is None:
        return "the end"
    if ref == "mexican":
        return "the Mexican Train"
    if isinstance(ref, int):
        return f"seat {ref + 1}'s train"
    return f"train {ref!r}"


def english(code: str, values: dict[str, Any]) -> str:
    """The developer's English sentence for a reason."""
    shown: dict[str, Any] = dict(values)
    for key in ("tile", "double", "drawn"):
        if key in values:
            a, b = values[key]
            shown[key] = f"{a}-{b}"
    for key in ("train", "next"):
        if key in values:
            shown[key] = _train(values[key])
    if "example" in values:
        (a, b), ref = values["example"]
        shown["example"] = f"{a}-{b} on {_train(ref)}"
    if "why" in values:
        shown["why"] = WHY[values["why"]].format(**shown)
    return REASONS[code].format(**shown)


class IllegalAction(ValueError):
    """An action the rules refuse. ``code`` names the rule, ``values`` its particulars."""

    def __init__(self, code: str, **values: Any) -> None:
        self.code = code
        self.values = values
        super().__init__(english(code, values))
