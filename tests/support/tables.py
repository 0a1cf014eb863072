"""Tables to play: a :class:`GameSetup` from a few words, the same for every test."""

from __future__ import annotations

from mexitrain.rules import RuleSet
from mexitrain.table import GameSetup, SeatConfig, default_seats

#: One round of double-6: the quickest whole game.
SMALL = RuleSet(set=6, rounds=1)
#: Two rounds of double-6: a game that goes on after its first round.
SHORT_RULES = RuleSet(set=6, rounds=2)
#: The names seats get in ``table(kinds=...)``, seat by seat.
NAMES = ("You", "Bea", "Cal", "Dot", "Eli", "Fay")


def table(
    rules: RuleSet = SMALL,
    seed: int = 3,
    kinds: tuple[str, ...] = ("human", "random"),
    names: tuple[str, ...] = NAMES,
    *,
    players: int | None = None,
    humans: int = 1,
    ai: tuple[str, ...] = ("random",),
    **extra,
) -> GameSetup:
    """A table of one seat a kind in ``kinds``, named from ``names``; with ``players``, the
    command line's default seats instead (``humans`` people, then computers cycling through
    ``ai``). ``extra`` goes to :class:`GameSetup` (``allow_undo``...)."""
    if players is not None:
        seats = default_seats(players, humans, ai)
    else:
        seats = tuple(SeatConfig(name=names[i], kind=k) for i, k in enumerate(kinds))  # type: ignore[arg-type]
    return GameSetup(rules=rules, seed=seed, seats=seats, **extra)
