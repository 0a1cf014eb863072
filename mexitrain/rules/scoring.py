"""Scores, totals, standings and tie-breaks (RULES.md §7; teams §8)."""

from __future__ import annotations

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
    n = state.players
    if state.rules.teams:
        return tuple((i, i + n // 2) for i in range(n // 2))
    return tuple((i,) for i in range(n))


def side_round_scores(state: GameState, side: tuple[int, ...]) -> tuple[int, ...]:
    """The side's score in each finished round (team score = both hands)."""
    return tuple(sum(r.scores[s] for s in side) for r in state.results)


def _key(st: Standing) -> tuple[int, int, int]:
    low = _NO_NONZERO if st.lowest_nonzero is None else st.lowest_nonzero
    return (st.total, -st.zero_rounds, low)


def standings(state: GameState) -> tuple[Standing, ...]:
    """Lowest total first; ties: most zero rounds, then lowest non-zero round (§7)."""
    rows = []
    for side in sides(state):
        per_round = side_round_scores(state, side)
        nonzero = [x for x in per_round if x]
        rows.append(
            Standing(
                seats=side,
                total=sum(per_round),
                zero_rounds=sum(1 for x in per_round if x == 0),
                lowest_nonzero=min(nonzero) if nonzero else None,
                place=0,
            )
        )
    rows.sort(key=_key)
    out = []
    for i, row in enumerate(rows):
        place = out[-1].place if out and _key(out[-1]) == _key(row) else i + 1
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
