"""Domino faces as Textual markup: one colour per value on an ivory face."""

from __future__ import annotations

from functools import lru_cache

from textual.content import Content

from ..colours import FACE_BG, FACE_RULE, value_colour

DIM_BG = "#c4bdae"  # a face that cannot be played now


def half(v: int, bg: str = FACE_BG, width: int = 0, left: bool = True) -> str:
    text = str(v)
    if width:
        text = text.rjust(width) if left else text.ljust(width)
    return f"[b {value_colour(v)} on {bg}]{text}[/]"


def face(a: int, b: int, *, dim: bool = False) -> str:
    """A hand tile, 7 cells wide: `` 12│7  ``."""
    bg = DIM_BG if dim else FACE_BG
    sep = "║" if a == b else "│"
    return (
        f"[on {bg}] [/]{half(a, bg, 2, True)}[{FACE_RULE} on {bg}]{sep}[/]"
        f"{half(b, bg, 2, False)}[on {bg}] [/]"
    )


FACE_WIDTH = 7


def laid(a: int, b: int, recent: bool = False) -> str:
    """A tile on a train, as narrow as it gets: ``12│7``; ``recent`` (played in its seat's
    last turn): underlined, which reads without colour too."""
    sep = "║" if a == b else "│"
    markup = f"{half(a)}[{FACE_RULE} on {FACE_BG}]{sep}[/]{half(b)}"
    return f"[u]{markup}[/u]" if recent else markup


def laid_width(a: int, b: int) -> int:
    return len(str(a)) + len(str(b)) + 1


def engine_face(v: int) -> str:
    return f"[on {FACE_BG}] [/]{half(v)}[{FACE_RULE} on {FACE_BG}]║[/]{half(v)}[on {FACE_BG}] [/]"


def value(v: int) -> str:
    """An open end's value, coloured like its pips."""
    return f"[b {value_colour(v)} on {FACE_BG}]{v}[/]"


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


def big_face(a: int, b: int, *, dim: bool = False) -> tuple[str, str, str]:
    """A hand tile three rows high: half-block rims above and below the face."""
    return _rim(FACE_WIDTH, dim, True), face(a, b, dim=dim), _rim(FACE_WIDTH, dim, False)


def big_laid(a: int, b: int, recent: bool = False) -> tuple[str, str, str]:
    """A tile on a train, three rows high: `` 12│7 `` with rims."""
    w = laid_width(a, b) + 2
    mid = f"[on {FACE_BG}] [/]{laid(a, b, recent)}[on {FACE_BG}] [/]"
    return _rim(w, False, True), mid, _rim(w, False, False)


def tall(screen_height: int) -> bool:
    """Is there room for three-row tiles?"""
    return screen_height >= 34


def cell_width(markup: str) -> int:
    return _line(markup).cell_length
