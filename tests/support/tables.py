"""Tables to play: a :class:`GameSetup` from a few words, the same for every test."""

from __future__ import annotations

import random

from mexitrain.game_setup import GameSetup, SeatConfig, default_seats
from mexitrain.rules import HAND_SIZES, RuleSet, RuleSetError, full_set

#: One round of double-6: the quickest whole game.
SMALL = RuleSet(set=6, rounds=1)
#: Two rounds of double-6: a game that goes on after its first round.
SHORT_RULES = RuleSet(set=6, rounds=2)
#: Rule options under which hidden tiles must never change what a seat is handed: the plain
#: rules, the encyclopedia's must-satisfy with wild blanks and public trains, and teams with
#: the swan drive and branching doubles.
HIDDEN_TILE_VARIANTS = (
    {},
    {"double_follow_up": "must_satisfy", "blanks_wild": True, "trains_start_public": True},
    {"teams": True, "swan_drive": True, "branching_doubles": True},
)
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


def random_table(rng: random.Random, max_players: int = 13) -> tuple[RuleSet, int]:
    """A random rule set (every §8 option) and a player count it can seat."""
    while True:
        n = rng.choice([6, 9, 12, 15, 18])
        hand_table = "fast" if n == 9 and rng.random() < 0.5 else "standard"
        top = min(HAND_SIZES[(n, hand_table)][-1][0], max_players)
        teams = top >= 4 and rng.random() < 0.3
        players = rng.choice([p for p in (4, 6, 8) if p <= top]) if teams else rng.randint(2, top)
        engine = rng.choice(["descending", "highest_double"])
        hand_size = None
        if rng.random() < 0.2:
            available = len(full_set(n)) - (engine == "descending")
            hand_size = rng.randint(1, available // players)
        try:
            rules = RuleSet(
                set=n,
                hand_table=hand_table,
                hand_size=hand_size,
                rounds=rng.randint(1, 3),
                engine=engine,
                first_player=rng.choice(["random", "chosen", "heaviest"]),
                first_seat=rng.randrange(players),
                double_follow_up=rng.choice(["any", "must_satisfy"]),
                round_end=rng.choice(["boneyard_empty", "until_blocked"]),
                trains_start_public=rng.random() < 0.5,
                teams=teams,
                team_marker=rng.choice(["together", "both_stuck"]),
                open_hands=rng.random() < 0.2,
                blanks_wild=rng.random() < 0.5,
                opening=rng.choice(
                    ["normal", "simultaneous", "first_turn_chain", "delayed_first_turn"]
                ),
                branching_doubles=rng.random() < 0.5,
                swan_drive=rng.random() < 0.5,
            )
            rules.check_players(players)
        except RuleSetError:
            continue
        return rules, players
