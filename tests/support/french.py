"""Helpers: an error said in French must hold no English word and come from a code.

Used by the record, save and fuzz tests: every file problem they provoke is also said in
French (``mexitrain.text``) and checked here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from mexitrain import i18n

#: English words a French error line must not contain (outside « quoted » file keys and paths).
ENGLISH = re.compile(
    r"\b(the|must|cannot|lacks|unknown|not|is|are|file|record|round|event|seat|seats|damaged|"
    r"object|list|number|whole|has|of|and|or|entries|tile|game|load|saved|string|engine|deal|"
    r"turn|move|replay|boneyard|truncated|valid|written|newer|older|setup|speed|internal|error|"
    r"while|reading|moved|statistics|key|appears|twice|allows|field|input|should|value|"
    r"characters?|least|most|greater|less|than|expected)\b",
    re.I,
)


def english_in(text: str, *paths: Any) -> list[str]:
    """The English words of ``text``, ignoring « quoted » file keys and the given paths."""
    for path in paths:
        text = text.replace(str(path), " ")
    text = re.sub(r"«[^»]*»", " ", text)
    text = re.sub(r"l'option \w+", " ", text)  # rule option names are the same in every language
    return ENGLISH.findall(text)


def in_french(say: Callable[[Any], str], exc: Any, *paths: Any) -> str:
    """``say(exc)`` in French, checked: one line, no English word. Restores the language."""
    before = i18n.language()
    i18n.set_language("fr")
    try:
        text = say(exc)
    finally:
        i18n.set_language(before)
    assert "\n" not in text, text
    assert not english_in(text, *paths), (english_in(text, *paths), text, str(exc))
    return text
