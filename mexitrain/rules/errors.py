"""The one exception an illegal action raises, with a reason code and its values."""

from __future__ import annotations

from typing import Any

#: English sentences for each reason code. The values are filled in by name.
REASONS: dict[str, str] = {
    "game_over": "the game is over",
    "not_a_play_now": "you cannot play a tile now: {why}",
    "not_in_hand": "you do not hold {tile}",
    "must_play_drawn": "you must play the tile you drew, {drawn}, or end your turn",
    "double_follow_up": "after a double you must follow with a non-double (§6); {tile} is a double",
    "private_train": "{train} is private: only its owner may play on it until it carries a marker (§4)",
    "blocked_by_double": "the open double {double} on {train} must be satisfied first (§6)",
    "must_satisfy": "your double {double} on {train} must be satisfied first (§6, must_satisfy)",
    "chain_own_train": "your opening chain goes on your own train only (§8)",
    "first_turn_own_train": "on your first turn you must start your own train, which you can (§8)",
    "swan_next": "the swan drive goes on to {next} now (§8)",
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


class IllegalAction(ValueError):
    """An action the rules refuse. ``code`` names the rule, ``values`` its particulars."""

    def __init__(self, code: str, **values: Any) -> None:
        self.code = code
        self.values = values
        super().__init__(REASONS[code].format(**values))
