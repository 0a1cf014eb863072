"""Text from people and files: which names are allowed, how any such string is printed, and
how it is measured and cut in terminal cells.

One place for all of it: the seat names' validation (:class:`mexitrain.game_setup.SeatConfig`,
used by the command line, the new-game form and every save that is loaded), the sanitizer
the command line and the screens pass every string read from a file through, and the cell
arithmetic the board uses to pad and cut names (an emoji or a CJK character is two cells
wide, a combining accent none).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from rich.cells import cell_len, split_graphemes

#: The longest name a seat may have, in characters (the form, ``--names`` and saves).
NAME_MAX = 20

#: Invisible characters that reorder the text around them in a terminal that does bidi
#: (embeddings, overrides, isolates and the marks): a name could turn the board around.
#: Right-to-left letters themselves (Arabic, Hebrew) are welcome.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unprintable(ch: str) -> bool:
    """A character a name may not hold and the terminal must never receive: C0 and C1
    controls and DEL (category Cc), lone surrogates (Cs), the line and paragraph separators
    and the bidi controls. Joiners and variation selectors (emoji sequences) are fine."""
    return ch in BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp")


def first_unprintable(text: str) -> str | None:
    """The first character of ``text`` a name may not hold, or None."""
    return next((ch for ch in text if unprintable(ch)), None)


#: Letters and symbols that show as blank space (the Hangul fillers, the braille blank): a
#: name of these alone would show as nobody.
BLANK_LOOKALIKES = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def visible(ch: str) -> bool:
    """Whether ``ch`` shows as something on screen: a letter, digit, punctuation mark or symbol
    that takes a cell (not a space, a zero-width or format character, a combining mark alone,
    a private-use or unassigned code point, nor a blank look-alike)."""
    return (
        unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_LOOKALIKES and cell_len(ch) > 0
    )


#: What can keep a string from being a seat's name (:func:`name_fault`).
NAME_FAULTS: tuple[str, ...] = ("unprintable", "invisible", "too_long")


def name_fault(name: str) -> tuple[str, dict[str, object]] | None:
    """What keeps ``name`` from being a seat's name, as data, or None: ``("unprintable",
    {"char": "U+001B"})`` (a character :func:`unprintable` refuses, as its code point),
    ``("invisible", {})`` (no :func:`visible` character: empty, spaces or zero-width
    characters only) or ``("too_long", {"max": NAME_MAX})``. The one check of every name:
    typed on a form, given to ``--names``, read from a save, or come from the network."""
    bad = first_unprintable(name)
    if bad is not None:
        return "unprintable", {"char": codepoint(bad)}
    if len(name) > NAME_MAX:
        return "too_long", {"max": NAME_MAX}
    if not any(visible(ch) for ch in name):
        return "invisible", {}
    return None


def codepoint(ch: str) -> str:
    """A character as its code point, "U+001B"."""
    return f"U+{ord(ch):04X}"


def printable(text: str) -> str:
    """``text`` safe to show or print: each character :func:`unprintable` says is unsafe is
    written as its Python escape (ESC as ``\\x1b``, an override as ``\\u202e``), visible and
    harmless; everything else is kept as it is."""
    if not any(unprintable(ch) for ch in text):
        return text
    return "".join(ascii(ch)[1:-1] if unprintable(ch) else ch for ch in text)


def cells(text: str) -> int:
    """How many terminal cells ``text`` takes."""
    return cell_len(text)


def cut(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` cells, never inside a character (a wide character
    or an emoji sequence that would straddle the edge is left out whole)."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return text
    spans, _total = split_graphemes(text)
    used = 0
    end = 0
    for _start, stop, w in spans:
        if used + w > width:
            break
        used += w
        end = stop
    return text[:end]


def fit(text: str, width: int) -> str:
    """``text`` cut (:func:`cut`) and padded with spaces to exactly ``width`` cells."""
    shown = cut(text, width)
    return shown + " " * max(0, width - cell_len(shown))


#: What marks a name cut short on screen.
ELLIPSIS = "…"


def shorten(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells: whole when it fits, else cut (:func:`cut`) with
    "…" in the last cell ("Planner 1" in 7 cells: "Planne…"); in one cell its first
    character alone (no room for both)."""
    if cell_len(text) <= width:
        return text
    if width <= 1:
        return cut(text, width)
    return cut(text, width - 1) + ELLIPSIS


def name_key(name: str) -> str:
    """What tells two seats' names apart: two names with the same key are the same name to
    the players and in the statistics ("Bea", "bea" and "BEA " are one name)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def repeated_name(names: Iterable[str]) -> str | None:
    """The first of ``names`` that an earlier one already is (:func:`name_key`), or None: a
    table's seats each have a name of their own."""
    seen: set[str] = set()
    for name in names:
        key = name_key(name)
        if key in seen:
            return name
        seen.add(key)
    return None


def unused_name(name: str, taken: Iterable[str]) -> str:
    """``name`` if no name in ``taken`` is the same (:func:`name_key`), else the first of
    "name 2", "name 3"… that is free, the name cut (never inside a character) so that it
    stays within :data:`NAME_MAX` characters."""
    keys = {name_key(t) for t in taken}
    if name_key(name) not in keys:
        return name
    spans, _total = split_graphemes(name)
    for n in range(2, len(keys) + 3):
        suffix = f" {n}"
        room = NAME_MAX - len(suffix)
        stem = name[: max((stop for _s, stop, _w in spans if stop <= room), default=0)].rstrip()
        candidate = f"{stem}{suffix}" if stem else suffix.strip()
        if name_key(candidate) not in keys:
            return candidate
    raise AssertionError("unreachable: more numbers were tried than names are taken")
