"""Chat at a network table in words (issue #35 item 4, docs/play-together.md#chat).

A line someone says is data from outside: :func:`normalise` makes it one line of plain
text (every control character, line break, bidi control and lone surrogate gone, runs of
white space made one space, the ends trimmed) before its length is measured against
:data:`CHAT_MAX`; the table's server runs it on every line it is sent, and each client shows
the result as plain text only. A quick reaction travels as a code (:data:`REACTIONS`), so that
each person reads it in their own language (:func:`reaction_text`).
"""

from __future__ import annotations

import re
import unicodedata

from ..i18n import N_, _
from .names import BIDI_CONTROLS, printable

#: The longest line a person may say, in characters, after :func:`normalise`.
CHAT_MAX = 200

#: The quick reactions' codes and their words (each shown in the reader's language).
REACTIONS: dict[str, str] = {
    "nice": N_("nice!"),
    "oops": N_("oops"),
    "knock": N_("knock knock"),
    "thanks": N_("thanks"),
    "good_game": N_("good game!"),
}

_SPACES = re.compile(r"\s+")


def _dropped(ch: str) -> bool:
    """A character no chat line keeps: controls (C0, C1, DEL), format characters that reorder
    or hide text (bidi controls), lone surrogates, private-use and unassigned code points."""
    if ch in BIDI_CONTROLS:
        return True
    return unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn")


def normalise(text: str) -> str:
    """``text`` as one line of plain text: line breaks, tabs and the line and paragraph
    separators become a space, other control characters are dropped, runs of white space
    become one space, the ends are trimmed.

    >>> normalise("  hi\\n\\tthere \\x1b[2J ")
    'hi there [2J'
    """
    text = "".join(" " if ch in "\t\n\r\v\f\u2028\u2029\x85" else ch for ch in text)
    text = "".join(ch for ch in text if not _dropped(ch))
    return _SPACES.sub(" ", text).strip()


def reaction_text(code: str) -> str:
    """A quick reaction's words in this language (an unknown code: the code itself, plain)."""
    words = REACTIONS.get(code)
    return _(words) if words is not None else printable(str(code))[:40]


def chat_line_text(name: str, text: str | None, reaction: str | None) -> str:
    """One chat line as the screens show it: "Ann: hello", "Ann ✦ nice!"."""
    if reaction is not None:
        return _("{name} ✦ {reaction}").format(name=name, reaction=reaction_text(reaction))
    return _("{name}: {text}").format(name=name, text=text or "")


def chat_separator(reaction: bool) -> str:
    """What stands between the speaker's name and their words in this language (": ", or
    " : " in French), for a screen that styles the two apart."""
    return chat_line_text("", "", "nice").replace(reaction_text("nice"), "") if reaction else chat_line_text("", "", None)


def removed_line(name: str, seat: int) -> str:
    """The host's log: the host removed a person."""
    return _("{name} was removed from seat {seat}: a computer player takes it.").format(
        name=printable(name), seat=seat + 1
    )


def too_long_text(limit: int) -> str:
    return _("That line is too long: at most {limit} characters.").format(limit=limit)


def empty_text() -> str:
    return _("There is nothing to say in that line.")


def too_fast_text(lines: int, seconds: int, wait: int | None) -> str:
    """The chat's rate limit, reached."""
    if wait is not None and wait > 0:
        return _("Too many lines too fast: at most {lines} in {seconds} seconds. Wait {wait} s.").format(
            lines=lines, seconds=seconds, wait=wait
        )
    return _("Too many lines too fast: at most {lines} in {seconds} seconds.").format(lines=lines, seconds=seconds)


def muted_text() -> str:
    return _("Chat muted: the others' lines are hidden here. Press v again to show them.")


def unmuted_text() -> str:
    return _("Chat shown again.")


def removed_text() -> str:
    return _("The host removed you from the table.")


def cannot_remove_text(seat: int | None) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
        return _("Seat {seat} cannot be removed: it is not another person's seat.").format(seat=seat + 1)
    return _("That seat cannot be removed.")


def removed_notice_text(name: str, level: str) -> str:
    return _("{name} was removed from the table: a computer player ({level}) takes the seat.").format(
        name=name, level=level
    )
