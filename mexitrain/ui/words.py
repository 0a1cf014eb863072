"""The game in words for the screens: a thin alias of :mod:`mexitrain.messages`.

Every sentence comes from :mod:`mexitrain.messages`, in the player's language
(:mod:`mexitrain.i18n`). Plain strings, no markup, no Textual.
"""

from __future__ import annotations

from ..messages import (
    DECIDED,
    decided_text,
    end_words,
    event_line,
    knock_line,
    open_doubles,
    option_words,
    ordinal,
    round_header,
    rules_summary,
    short_names,
    side_name,
    train_name,
    turn_line,
    who,
)

__all__ = [
    "DECIDED",
    "decided_text",
    "end_words",
    "event_line",
    "knock_line",
    "open_doubles",
    "option_words",
    "ordinal",
    "round_header",
    "rules_summary",
    "short_names",
    "side_name",
    "train_name",
    "turn_line",
    "who",
]
