"""Domino faces as Textual markup: one colour per value on an ivory face."""

from __future__ import annotations

from functools import lru_cache

from textual.content import Content

from ..colours import FACE_BG, FACE_RULE, value_colour

DIM_BG = "#c4bdae"  # a face that cannot be played now


#: A half's pips as one cell, where Unicode has a face for it (0 to 6: a blank ring, then the
#: die faces); higher values stay numbers (the "tiles as pips" preference, docs/playing.md).
PIPS = "○⚀⚁⚂⚃⚄⚅"


def shown(v: int, pips: bool = False) -> str:
    """A half as the player chose to see it: its number, or its pips when it has a face."""
    return PIPS[v] if pips and 0 <= v < len(PIPS) else str(v)


def half(v: int, bg: str = FACE_BG, width: int = 0, left: bool = True, pips: bool = False) -> str:
    text = shown(v, pips)
    if width:
        text = text.rjust(width) if left else text.ljust(width)
    return f"[b {value_colour(v)} on {bg}]{text}[/]"


def face(a: int, b: int, *, dim: bool = False, pips: bool = False) -> str:
    """A hand tile, 7 cells wide: `` 12│7  ``."""
    bg = DIM_BG if dim else FACE_BG
    sep = "║" if a == b else "│"
    return (
        f"[on {bg}] [/]{half(a, bg, 2, True, pips)}[{FACE_RULE} on {bg}]{sep}[/]"
        f"{half(b, bg, 2, False, pips)}[on {bg}] [/]"
    )


FACE_WIDTH = 7


def laid(a: int, b: int, recent: bool = False, pips: bool = False) -> str:
    """A tile on a train, as narrow as it gets: ``12│7``; ``recent`` (played in its seat's
    last turn): underlined, which reads without colour too."""
    sep = "║" if a == b else "│"
    markup = f"{half(a, pips=pips)}[{FACE_RULE} on {FACE_BG}]{sep}[/]{half(b, pips=pips)}"
    return f"[u]{markup}[/u]" if recent else markup


def laid_width(a: int, b: int, pips: bool = False) -> int:
    return len(shown(a, pips)) + len(shown(b, pips)) + 1


def engine_face(v: int) -> str:
    return f"[on {FACE_BG}] [/]{half(v)}[{FACE_RULE} on {FACE_BG}]║[/]{half(v)}[on {FACE_BG}] [/]"


def value(v: int, pips: bool = False) -> str:
    """An open end's value, coloured like its pips."""
    return f"[b {value_colour(v)} on {FACE_BG}]{shown(v, pips)}[/]"


@lru_cache(maxsize=4096)
def _line(markup: str) -> Content:
    return Content.from_markup(markup)


def line_content(markup: str) -> Content:
    """One line of our own markup (tiles, rims, borders: never a name) as Content, cached."""
    return _line(markup)


def lines_content(lines: list[str]) -> Content:
    """Markup lines as one Content; each distinct line is parsed once (renders repeat them)."""
    return Content("\n").join(_line(line) for line in lines)


def _rim(width: int, dim: bool, top: bool) -> str:
    bg = DIM_BG if dim else FACE_BG
    return f"[{bg}]{('▄' if top else '▀') * width}[/]"


def big_face(a: int, b: int, *, dim: bool = False, pips: bool = False) -> tuple[str, str, str]:
    """A hand tile three rows high: half-block rims above and below the face."""
    return _rim(FACE_WIDTH, dim, True), face(a, b, dim=dim, pips=pips), _rim(FACE_WIDTH, dim, False)


def big_laid(a: int, b: int, recent: bool = False, pips: bool = False) -> tuple[str, str, str]:
    """A tile on a train, three rows high: `` 12│7 `` with rims."""
    w = laid_width(a, b, pips) + 2
    mid = f"[on {FACE_BG}] [/]{laid(a, b, recent, pips)}[on {FACE_BG}] [/]"
    return _rim(w, False, True), mid, _rim(w, False, False)


def tall(screen_height: int) -> bool:
    """Is there room for three-row tiles?"""
    return screen_height >= 34


def cell_width(markup: str) -> int:
    return _line(markup).cell_length
