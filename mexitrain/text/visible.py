"""Text from outside, made safe for the terminal one character for one cell (issue 37).

A table's host, a file or a person's name may hold characters that a terminal takes as
orders rather than text: ESC and the other C0 controls (a window title, a cleared screen, a
hyperlink, the clipboard: OSC 0, 8, 52), the C1 controls (U+0080–U+009F: CSI, OSC and ST in
one character), DEL, the line and paragraph separators, lone surrogates and the bidi controls
(:data:`mexitrain.text.names.BIDI_CONTROLS`). :func:`visible` puts a visible, harmless
character in the place of each: a C0 control or DEL becomes its Unicode control picture
(ESC is ``␛``, a line feed ``␊``), anything else of those U+FFFD ``�``. One character stays
one cell, so a hostile name keeps its row's width (:func:`mexitrain.text.names.printable`
writes ``\\x1b``, four cells, for the command line and the logs).

The screens pass every string from outside through it; the app also runs it over every
piece of text it draws (:func:`mexitrain.ui.textual_compat.guard_output`), so a string that
no widget cleaned still never reaches the terminal as an order.
"""

from __future__ import annotations

import re

from .names import BIDI_CONTROLS

#: Every character :func:`visible` replaces (the same set as :func:`mexitrain.text.names.unprintable`).
UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029" + "".join(sorted(BIDI_CONTROLS)) + "]"
)

#: What stands for a character that is neither a C0 control nor DEL.
REPLACEMENT = "\ufffd"


def _picture(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟
    if code == 0x7F:
        return "\u2421"  # ␡
    return REPLACEMENT


def visible(text: str) -> str:
    """``text`` with every character a terminal could take as an order replaced by a visible
    one (see the module docstring); other text, emoji and right-to-left letters included, is
    kept as it is."""
    if UNSAFE.search(text) is None:
        return text
    return UNSAFE.sub(_picture, text)


def dropped(text: str) -> str:
    """``text`` without the characters :func:`visible` replaces (a lone surrogate, which takes
    a cell, becomes U+FFFD): for text already measured and laid out, where each of them took
    no cell (:func:`mexitrain.ui.textual_compat.guard_output`)."""
    if UNSAFE.search(text) is None:
        return text
    return UNSAFE.sub(lambda m: REPLACEMENT if "\ud800" <= m.group() <= "\udfff" else "", text)


def visible_lines(text: str) -> str:
    """:func:`visible` for text whose line breaks are its own (our sentences, several lines
    of details): each line made visible, the ``\\n`` between them kept."""
    return "\n".join(visible(line) for line in text.split("\n"))


__all__ = ["REPLACEMENT", "UNSAFE", "dropped", "visible", "visible_lines"]
