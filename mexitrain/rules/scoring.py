"""Scores, totals, standings and tie-breaks (docs/rules.md §7; teams §8)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from .state import GameState

_NO_NONZERO = 10**9


class Standing(BaseModel):
    """One side (a player, or a team of two) in the game's order of merit."""

    model_config = ConfigDict(frozen=True)

    seats: tuple[int, ...]
    total: int
    zero_rounds: int
    lowest_nonzero: int | None
    place: int  # 1 = winner; tied sides share a place


def sides(state: GameState) -> tuple[tuple[int, ...], ...]:
    """Players, or teams of partners sitting opposite (seat i with i + n/2)."""
    return state.rules.sides(state.players)


def side_round_scores(state: GameState, side: tuple[int, ...]) -> tuple[int, ...]:
    """The side's score in each finished round (team score = both hands)."""
    return tuple(sum(r.scores[s] for s in side) for r in state.results)


def rank_key(per_round: Sequence[int]) -> tuple[int, int, int]:
    """A side's order of merit from its round scores, lower is better (§7): the total, then
    the most zero rounds, then the lowest non-zero round."""
    nonzero = [x for x in per_round if x]
    return (sum(per_round), len(nonzero) - len(per_round), min(nonzero) if nonzero else _NO_NONZERO)


def first_places(per_side: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Indices of the sides in first place, given each side's round scores (§7)."""
    keys = [rank_key(rounds) for rounds in per_side]
    best = min(keys)
    return tuple(i for i, k in enumerate(keys) if k == best)


def standings(state: GameState) -> tuple[Standing, ...]:
    """Lowest total first; ties: most zero rounds, then lowest non-zero round (§7)."""
    rows = []
    for side in sides(state):
        per_round = side_round_scores(state, side)
        nonzero = [x for x in per_round if x]
        row = Standing(
            seats=side,
            total=sum(per_round),
            zero_rounds=len(per_round) - len(nonzero),
            lowest_nonzero=min(nonzero) if nonzero else None,
            place=0,
        )
        rows.append((rank_key(per_round), row))
    rows.sort(key=lambda kr: kr[0])
    out: list[Standing] = []
    for i, (key, row) in enumerate(rows):
        place = out[-1].place if out and rows[i - 1][0] == key else i + 1
        out.append(row.model_copy(update={"place": place}))
    return tuple(out)


def winners(state: GameState) -> tuple[int, ...]:
    """Seats of every side in first place: a shared win when still tied (§7 house default)."""
    return tuple(sorted(s for st in standings(state) if st.place == 1 for s in st.seats))


def decided_by(state: GameState) -> str:
    """What separated first place from second: total, zero_rounds, lowest_nonzero or shared."""
    rows = standings(state)
    if len(rows) < 2:
        return "total"
    a, b = rows[0], rows[1]
    if a.place == b.place:
        return "shared"
    if a.total != b.total:
        return "total"
    if a.zero_rounds != b.zero_rounds:
        return "zero_rounds"
    return "lowest_nonzero"
