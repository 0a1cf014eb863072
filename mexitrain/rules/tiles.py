"""Tiles (docs/rules.md §1): a tile is a plain ``(low, high)`` tuple of ints.

Tiles are hashable, immutable and cheap, so the snapshots can hold thousands of them.
A tile *laid on a train* is written ``(half against the open end, new open end)``.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

from . import cache


def _check_tile(value: tuple[int, int]) -> tuple[int, int]:
    a, b = value
    if a < 0 or b < 0 or a > 18 or b > 18:
        raise ValueError(f"tile halves must be between 0 and 18, not {a}-{b}")
    return value


def _check_canonical(value: tuple[int, int]) -> tuple[int, int]:
    a, b = _check_tile(value)
    if a > b:
        raise ValueError(f"a tile in a hand or the boneyard is written low half first: {b}-{a}, not {a}-{b}")
    return value


#: An unordered tile as stored in hands and the boneyard: ``(low, high)``.
Tile = Annotated[tuple[int, int], AfterValidator(_check_canonical)]
#: A tile as laid on a train: ``(half against the open end, new open end)``.
Laid = Annotated[tuple[int, int], AfterValidator(_check_tile)]


def tile(a: int, b: int) -> tuple[int, int]:
    """The canonical form of the tile with halves ``a`` and ``b``."""
    return (a, b) if a <= b else (b, a)


_FULL_SETS = cache.new("tiles.full_set", typed=True)


def full_set(n: int) -> tuple[tuple[int, int], ...]:
    """Every tile of a double-``n`` set, one per unordered pair (docs/rules.md §1)."""
    tiles = _FULL_SETS.get(n)
    if tiles is None:
        tiles = _FULL_SETS.put(n, tuple((a, b) for a in range(n + 1) for b in range(a, n + 1)))
    return tiles


def pips(t: tuple[int, int]) -> int:
    """A tile's worth: the sum of its halves (docs/rules.md §1: 5-7 = 12)."""
    return t[0] + t[1]


def is_double(t: tuple[int, int]) -> bool:
    return t[0] == t[1]


def fmt(t: tuple[int, int]) -> str:
    """``(7, 3)`` -> ``"7-3"``."""
    return f"{t[0]}-{t[1]}"


def placements(t: tuple[int, int], end: int, wild: bool) -> tuple[tuple[int, int], ...]:
    """Every way tile ``t`` can be laid on an open end ``end`` (docs/rules.md §4, §8 blanks_wild).

    Each result is ``(half against the end, new open end)``.
    """
    a, b = t
    out: list[tuple[int, int]] = []
    if wild and end == 0:
        out.append((a, b))
        if a != b:
            out.append((b, a))
        return tuple(out)
    if a == end or (wild and a == 0):
        out.append((a, b))
    if a != b and (b == end or (wild and b == 0)):
        out.append((b, a))
    return tuple(out)


_PLACEMENTS = cache.new("tiles.placement_lookup", typed=True)


def placement_lookup(end: int, wild: bool) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
    """Memoised ``placements`` for one open end: tile -> its placements (absent if none)."""
    key = (wild, end)
    table = _PLACEMENTS.get(key)
    if table is None:
        table = {}
        for t in full_set(18):
            p = placements(t, end, wild)
            if p:
                table[t] = p
        _PLACEMENTS.put(key, table)
    return table
