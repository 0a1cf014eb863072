"""Line breaking that follows French typography.

French puts a space before ``: ; ! ? »`` and after ``«``, and a line must not break there:
a wrapped line never starts with ``:`` nor ends with ``«``. Rich (Textual's ``Content``) and
Textual (its text areas) find where a line may break with word patterns in which any space
will do, a no-break space (U+00A0) included (Python's ``\\s`` matches it). :func:`install`
gives both patterns that glue such a space to its neighbours: a space before one of those
signs or after ``«``, and every no-break space (U+00A0, U+202F). Every other break stays
where it was. So the catalogs keep ordinary spaces, which translators type, and the screen
still breaks right; English text, which has no space before those signs, wraps as before.

Textual is pinned exactly (``pyproject.toml``); the patterns are set through
:func:`.textual_compat.set_wrap_patterns`, and ``tests/ui/test_typography.py`` fails if either
pattern moves or stops being used.
"""

from __future__ import annotations

import re

from .textual_compat import set_wrap_patterns

#: A space a line may not break at.
_GLUE = r"(?:[\u00a0\u202f]| (?=[:;!?»])|(?<=«) )"
_WORD = rf"(?:\S|{_GLUE})"  # part of a word
_SPACE = rf"(?:(?!{_GLUE})\s)"  # a space a line may break at

#: Rich's ``\s*\S+\s*`` (a word and the spaces around it) and Textual's ``\S+\s*|\s+``.
RICH_WORD = re.compile(rf"{_SPACE}*{_WORD}+{_SPACE}*")
TEXTUAL_CHUNK = re.compile(rf"{_WORD}+{_SPACE}*|{_SPACE}+")


def install() -> None:
    """Make every later wrap follow French typography (idempotent)."""
    set_wrap_patterns(RICH_WORD, TEXTUAL_CHUNK)
