"""The player's language: English or French, from gettext-style ``.po`` catalogs.

Message ids are the English texts. Each language is one file,
``mexitrain/locale/<lang>.po``; a translator adds a language by copying ``fr.po``,
translating its ``msgstr`` lines and setting its ``Plural-Forms`` header: no code changes.
``python -m mexitrain.i18n`` checks every catalog against the ids used in the code.

The language is chosen by ``--lang``, else the saved preference, else the environment's
locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``fr_FR.UTF-8`` gives French),
else English.
"""

from __future__ import annotations

import gettext
import io
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT_LANGUAGE = "en"


def available_languages() -> tuple[str, ...]:
    """English (the message ids) and every language with a catalog."""
    found = sorted(p.stem for p in LOCALE_DIR.glob("*.po"))
    return (DEFAULT_LANGUAGE, *(lang for lang in found if lang != DEFAULT_LANGUAGE))


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment's locale asks for, if we have it; English otherwise."""
    env = os.environ if environ is None else environ
    have = available_languages()
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        for part in value.split(":"):
            code = part.split(".")[0].split("_")[0].split("-")[0].lower()
            if code in ("c", "posix"):
                code = DEFAULT_LANGUAGE
            if code in have:
                return code
        if value:
            break  # the first variable that is set decides, as in gettext
    return DEFAULT_LANGUAGE


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    if lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    path = LOCALE_DIR / f"{lang}.po"
    po = polib.pofile(str(path))
    return gettext.GNUTranslations(io.BytesIO(po.to_binary()))


_current: list = [DEFAULT_LANGUAGE, gettext.NullTranslations()]


def set_language(lang: str) -> str:
    """Switch every later message to ``lang``; unknown languages are refused (ValueError)."""
    lang = lang.lower()
    if lang not in available_languages():
        raise ValueError(
            f"unknown language {lang!r}; choose one of {', '.join(available_languages())}"
        )
    _current[:] = [lang, _catalog(lang)]
    return lang


def language() -> str:
    return _current[0]


#: French elides "de" and "que" before a vowel: "Au tour d'Ann", "Au tour de Bea". The
#: catalog writes "de {name}"; which it becomes is known only once the name is (a player's
#: name may be anything), so the message's ``format`` chooses.
_ELIDED = re.compile(r"\b([Dd]e|[Qq]ue) \{(\w+)\}")
_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüÿœæ")


class _French(str):
    """A French message: its ``format`` elides "de {x}" to "d'{x}" where ``x`` is a word
    that begins with a vowel ("d'Ann", "d'Émile", "d'Yves"; "de Hugo": an h is left alone)."""

    __slots__ = ()

    def format(self, *args: object, **values: object) -> str:
        def elide(m: re.Match[str]) -> str:
            value = values.get(m.group(2))
            if isinstance(value, str) and value[:1].lower() in _VOWELS:
                return f"{m.group(1)[:-1]}'{{{m.group(2)}}}"
            return m.group(0)

        return str.format(_ELIDED.sub(elide, self), *args, **values)


def _language_text(text: str) -> str:
    return _French(text) if _current[0] == "fr" else text


def _(message: str) -> str:
    """The message in the current language."""
    return _language_text(_current[1].gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural message for ``n`` under the language's plural rule."""
    return _language_text(_current[1].ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """A message whose translation depends on ``context`` (a word with two senses)."""
    return _language_text(_current[1].pgettext(context, message))


def N_(message: str) -> str:
    """Mark a message for extraction without translating it now."""
    return message
