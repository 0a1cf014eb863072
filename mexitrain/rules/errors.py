"""The one exception an illegal action raises, with a reason code and its values.

The values are data, not words: tiles are ``(a, b)`` tuples, trains are named as actions
name them (the owner's seat, 0-based, or ``"mexican"``), ``why`` is a sub-code. Interfaces
turn ``code`` and ``values`` into a sentence in the player's language
(:func:`mexitrain.text.refusals.reason_text`, the only place the reasons are worded);
``str(exc)`` is a short developer line, the code and its values: ``not_in_hand (tile=3-7)``.
"""

from __future__ import annotations

from typing import Any

#: Every reason code an :class:`IllegalAction` may carry.
CODES: tuple[str, ...] = (
    "game_over", "not_in_hand", "must_play_drawn", "double_follow_up", "private_train",
    "blocked_by_double", "must_satisfy", "chain_own_train", "first_turn_own_train", "swan_next",
    "no_train", "no_branch", "does_not_fit", "wrong_half", "must_play", "already_drawn",
    "boneyard_empty", "cannot_mark_now", "cannot_pass_now", "cannot_skip_now", "draw_not_allowed",
)

#: The ``why`` sub-codes of ``cannot_mark_now``, ``cannot_pass_now`` and ``draw_not_allowed``.
WHY_CODES: tuple[str, ...] = (
    "in_chain", "in_swan", "chain_goes_on", "draw_first", "pass_instead", "drawn_playable", "marker_here",
)


def _value(value: Any) -> str:
    """A value as the developer line shows it: a tile ``3-7``, an ``(tile, train)`` example
    ``1-4@2``, anything else as ``repr`` (trains stay as actions name them: ``0``, ``'mexican'``)."""
    if isinstance(value, tuple) and len(value) == 2:
        a, b = value
        if isinstance(a, int) and isinstance(b, int):
            return f"{a}-{b}"
        if isinstance(a, tuple):
            return f"{_value(a)}@{_value(b)}"
    if isinstance(value, str):
        return value
    return repr(value)


def developer_line(code: str, values: dict[str, Any]) -> str:
    """``code (key=value, ...)``: the code and its values on one line, for developers and logs."""
    if not values:
        return code
    return f"{code} ({', '.join(f'{k}={_value(v)}' for k, v in values.items())})"


class IllegalAction(ValueError):
    """An action the rules refuse. ``code`` names the rule, ``values`` its particulars."""

    def __init__(self, code: str, **values: Any) -> None:
        self.code = code
        self.values = values
        super().__init__(developer_line(code, values))
