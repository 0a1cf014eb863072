"""The small words every sentence is built from, in the player's language: tiles, counts,
numbers, places, quotes, lists, levels, seats, people and trains.

The person whose screen it is reads "you"; everyone else is named. A train is named by its
owner's seat (0-based) or ``"mexican"``, as actions and refusals name it, or by a train index
(``players`` for the Mexican Train) where the board does. Plain strings, no markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import _, ngettext, pgettext
from .names import ELLIPSIS, cells, printable, shorten
from .names import cut as cut_to

MEXICAN = "mexican"


# ---------------------------------------------------------------------------------------
# Numbers and things
# ---------------------------------------------------------------------------------------
def tile_text(tile: Sequence[int]) -> str:
    """``(7, 3)`` -> ``"7-3"`` (the same in every language)."""
    a, b = tile
    return f"{a}-{b}"


def tile_count(n: int) -> str:
    """"1 tile", "2 tiles" (« 1 domino », « 2 dominos »)."""
    return ngettext("{n} tile", "{n} tiles", n).format(n=n)


def point_count(n: int) -> str:
    """"1 point", "12 points"."""
    return ngettext("{n} point", "{n} points", n).format(n=n)


def round_count(n: int) -> str:
    """"1 round", "13 rounds" (« 1 manche », « 13 manches »)."""
    return ngettext("{n} round", "{n} rounds", n).format(n=n)


def player_count(n: int) -> str:
    """"1 player", "4 players"."""
    return ngettext("{n} player", "{n} players", n).format(n=n)


def decimal(x: float, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals and the language's decimal mark: "2.5" (« 2,5 »)."""
    return f"{x:.{digits}f}".replace(".", pgettext("decimal mark", "."))


def decimal_points(x: float, digits: int = 1, signed: bool = False) -> str:
    """A number of points with decimals: "1.1 points", "+2.5 points" (« 1,1 point »,
    « +2,5 points »). English says "points" for any decimal; French puts the singular below
    2, so the form follows the whole part of the number as written (both English forms are
    plural). ``signed`` writes "+" or "-" in front."""
    text = decimal(abs(x), digits)
    whole = int(float(f"{abs(x):.{digits}f}"))
    if signed:
        text = ("+" if x >= 0 else "-") + text
    return ngettext("{n} points", "{n} points", whole).format(n=text)


def ordinal(n: int) -> str:
    """A place: "1st", "2nd", "3rd", "4th", "21st" (« 1er », « 2e »...)."""
    if n == 1:
        return pgettext("ordinal", "1st")
    if n % 10 == 1 and n % 100 != 11:
        return pgettext("ordinal", "{n}st").format(n=n)
    if n % 10 == 2 and n % 100 != 12:
        return pgettext("ordinal", "{n}nd").format(n=n)
    if n % 10 == 3 and n % 100 != 13:
        return pgettext("ordinal", "{n}rd").format(n=n)
    return pgettext("ordinal", "{n}th").format(n=n)


def quote(text: Any) -> str:
    """A value the player typed, quoted: 'maybe' (« maybe »)."""
    return pgettext("quoted value", "'{text}'").format(text=text)


def continued(sentence: str) -> str:
    """``sentence`` where it goes on after a label and its colon ("Last move: …"), as the
    language writes it: English keeps the sentence's capital ("Last move: You played 4-6…"),
    French goes on in lower case (« Dernier coup : vous avez posé 4-6… »). The catalogue says
    which: "capital" (context "first letter after a colon") translated as "lower" lowers it.
    Only for a sentence that starts with one of the game's own words, never with a name,
    which keeps its capital in every language (« Dernier coup : Bea a posé… »)."""
    if pgettext("first letter after a colon", "capital") != "lower":
        return sentence
    return sentence[:1].lower() + sentence[1:]


def join_and(items: Sequence[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    items = [str(i) for i in items]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def join_or(items: Sequence[Any]) -> str:
    """"A", "A or B", "A, B or C"."""
    items = [str(i) for i in items]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("{first} or {last}").format(first=", ".join(items[:-1]), last=items[-1])


#: The seat kinds :func:`level_name` names: a person, then the computer levels, weakest first
#: (the values :class:`mexitrain.game_setup.SeatConfig`'s ``kind`` takes; a test keeps them equal).
LEVELS = ("human", "random", "greedy", "planner", "expert")


def level_name(kind: str) -> str:
    """A seat kind for display: "human" or a computer level ("random", "planner"...)."""
    if kind == "human":
        return pgettext("player kind", "human")
    if kind == "random":
        return pgettext("computer level", "random")
    if kind == "greedy":
        return pgettext("computer level", "greedy")
    if kind == "planner":
        return pgettext("computer level", "planner")
    if kind == "expert":
        return pgettext("computer level", "expert")
    return kind


def seat_label(seat: int) -> str:
    """Seat ``seat`` (0-based) as people count: "seat 1"."""
    return _("seat {seat}").format(seat=seat + 1)



def seat_name(names: Sequence[str] | None, seat: int) -> str | None:
    """Seat ``seat``'s name, when the table's names are known and hold it."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return None


def seat_called(names: Sequence[str] | None, seat: int) -> str:
    """Seat ``seat``'s name, else "seat N"."""
    return seat_name(names, seat) or seat_label(seat)


def who(names: Sequence[str], viewer: int | None, seat: int) -> str:
    """"You" for the viewer, else the seat's name (at the start of a label)."""
    if seat == viewer:
        return _("You")
    return seat_called(names, seat)


def _is_mexican(index: Any, players: int | None) -> bool:
    return index == MEXICAN or (players is not None and index == players)


def train_name(
    names: Sequence[str] | None,
    viewer: int | None,
    players: int | None,
    index: Any,
    actor: int | None = None,
) -> str:
    """A train inside a sentence: "the Mexican Train", "your train", "their train" (the
    actor's own), "Bea's train" (« le Train Mexicain », « votre train », « son train »,
    « le train de Bea »). ``index``: a seat, ``"mexican"``, or ``players`` for the Mexican Train."""
    if _is_mexican(index, players):
        return _("the Mexican Train")
    if index == viewer:
        return _("your train")
    if actor is not None and index == actor:
        return _("their train")
    if isinstance(index, int):
        name = seat_name(names, index)
        if name is not None:
            return _("{name}'s train").format(name=name)
        return _("the train of seat {seat}").format(seat=index + 1)
    return _("train {ref}").format(ref=quote(index))


def is_you_name(name: str) -> bool:
    """Whether ``name`` is the default name of the one person at the table ("You", in
    English or in the player's language)."""
    return name in ("You", pgettext("player name", "You"))


def _tail(name: str) -> str:
    """What tells ``name`` apart from names that begin alike: its last word with the space
    before it ("Planner 1": " 1"), else the digits it ends with ("Bot12": "12"), else ""."""
    name = name.rstrip()
    head, space, last = name.rpartition(" ")
    if space and head.strip() and last:
        return " " + last
    digits = len(name) - len(name.rstrip("0123456789"))
    return name[-digits:] if 0 < digits < len(name) else ""


def short_names(names: Sequence[str], width: int) -> list[str]:
    """Names in at most ``width`` terminal cells for the board: a name too long is cut with
    "…" (:func:`~mexitrain.text.names.shorten`), never glued to a number. Names whose cut
    forms would be the same ("Planne…" twice) keep their last word after the "…" when there
    is room ("Plan… 1", "Plan… 2"); else the seat's number and colour tell them apart. In 3
    cells or fewer a name is shortened to its first letters ("Bea", "B"), as the status line
    does when room is short: a "…" would leave it two letters or none."""
    if width <= 3:
        return [cut_to(n, width) for n in names]
    short = [shorten(n, width) for n in names]
    told = []
    for n, s in zip(names, short, strict=True):
        tail = _tail(n) if s != n and short.count(s) > 1 else ""
        body = cut_to(n, width - 1 - cells(tail)).rstrip() if tail else ""
        told.append(body + ELLIPSIS + tail if cells(body) >= 2 else s)
    return [t if told.count(t) == 1 else s for t, s in zip(told, short, strict=True)]


def train_label(names: Sequence[str], players: int, index: Any) -> str:
    """A train's short label on the board: its owner's name, or "Mexican"."""
    if _is_mexican(index, players):
        return pgettext("short train label", "Mexican")
    return seat_called(names, index)


def side_name(names: Sequence[str], side: Sequence[int]) -> str:
    """A seat, or a team of two partners: "Bea", "Bea & Dot"."""
    if len(side) == 2:
        return _("{first} & {second}").format(first=names[side[0]], second=names[side[1]])
    return " & ".join(names[s] for s in side)


def train_where(names, viewer, players, ref, branch: int = 0, actor: int | None = None) -> str:
    """A train inside a sentence (:func:`train_name`), with its branch when it has one."""
    where = train_name(names, viewer, players, ref, actor)
    if branch:
        where = _("{train} (branch {branch})").format(train=where, branch=branch)
    return where



def value_text(value: Any) -> str:
    """A value read from a file or typed, for a sentence: text quoted and made printable."""
    return quote(printable(value)) if isinstance(value, str) else str(value)
