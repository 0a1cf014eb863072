"""The game's own colours: one per domino value and one per seat.

These are content colours (like the printed pips of a real set), so they are fixed and do not
follow the Textual theme; everything else in the interface uses the theme's ``$variables``.
"""

from __future__ import annotations

#: Colour of each value 0..18, dark enough to read on the ivory domino face.
VALUE_COLOURS: tuple[str, ...] = (
    "#616161",  # 0 blank: grey
    "#1565c0",  # 1 blue
    "#2e7d32",  # 2 green
    "#c62828",  # 3 red
    "#6a1b9a",  # 4 purple
    "#e65100",  # 5 orange
    "#00838f",  # 6 cyan
    "#ad1457",  # 7 magenta
    "#4e342e",  # 8 brown
    "#283593",  # 9 indigo
    "#558b2f",  # 10 olive
    "#bf360c",  # 11 rust
    "#00695c",  # 12 teal
    "#8e24aa",  # 13 violet
    "#9a6b00",  # 14 ochre
    "#0277bd",  # 15 sky
    "#827717",  # 16 lime
    "#6d4c41",  # 17 umber
    "#37474f",  # 18 slate
)

#: The face of a domino (ivory) and the line between its halves.
FACE_BG = "#f3eedf"
FACE_RULE = "#9e9688"

#: Each seat's colour (mid tones that read on dark and light themes).
SEAT_COLOURS: tuple[str, ...] = (
    "#42a5f5",
    "#ef5350",
    "#66bb6a",
    "#ffa726",
    "#ab47bc",
    "#26c6da",
    "#ec407a",
    "#c0ca33",
    "#8d6e63",
    "#78909c",
    "#ffca28",
    "#5c6bc0",
    "#26a69a",
)
#: The Mexican Train's colour.
MEXICAN_COLOUR = "#d4a017"


def value_colour(v: int) -> str:
    return VALUE_COLOURS[v % len(VALUE_COLOURS)]


def seat_colour(seat: int | None) -> str:
    if seat is None:
        return MEXICAN_COLOUR
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]
