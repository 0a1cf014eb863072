"""Every pair of numbers a message or a view holds that could be a tile: what the leak tests
look through for a tile that should not be there."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# Fields of a view or a message that hold numbers in pairs that are not tiles.
NOT_TILES = {"double_line", "hand_sizes", "chain_right", "failed", "opening_queue", "winners", "starts", "rules", "waiting"}


def tile_pairs(node: Any, key: str | None = None) -> Iterator[tuple[int, int]]:
    """The ``[a, b]`` pairs of ints in ``node`` (JSON as parsed), outside :data:`NOT_TILES`."""
    if key in NOT_TILES:
        return
    if isinstance(node, list):
        if len(node) == 2 and all(type(x) is int for x in node):
            yield (node[0], node[1])
            return
        for x in node:
            yield from tile_pairs(x)
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from tile_pairs(v, k)
