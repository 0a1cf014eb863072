"""What one seat may know (hidden information as a type).

``view(state, seat)`` keeps that seat's own hand, every train and marker, each hand's size,
the boneyard's size, the public history and the score sheet. Other hands appear only with
``open_hands``; the boneyard's order never does, nor tiles other seats drew.
"""

from __future__ import annotations

import random

from pydantic import BaseModel, ConfigDict

from .actions import Action
from .ruleset import RuleSet
from .state import Event, GameState, Phase, RoundResult, Train, construct, evolve
from .tiles import Tile, full_set


class PublicRound(BaseModel):
    """A finished round as every player saw it at its end: engine, result, leftover hands."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int
    engine: int
    engine_seat: int | None
    first_seat: int
    end: str
    out_seat: int | None
    leftovers: tuple[tuple[Tile, ...], ...]  # shown when the round is scored
    scores: tuple[int, ...]


class SeatView(BaseModel):
    """The game as seat ``seat`` sees it. Computer players and a seat's screen get only this."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    rules: RuleSet
    players: int
    round: int
    engine: int
    engine_seat: int | None
    first_seat: int
    turn: int
    phase: Phase
    hand: tuple[Tile, ...]
    hands: tuple[tuple[Tile, ...] | None, ...]  # own hand; every hand with open_hands
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    trains: tuple[Train, ...]
    mexican_starter: int | None
    double_line: tuple[int, int] | None
    drawn: Tile | None  # only the seat's own drawn tile
    swan_pos: int | None
    chain_right: tuple[bool, ...]
    opening_queue: tuple[int, ...]
    failed: tuple[bool, ...]
    idle_turns: int
    events: tuple[Event, ...]  # this round; others' draws without their tile
    results: tuple[PublicRound, ...]
    winners: tuple[int, ...]

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and self.phase != "game_over"

    def unseen(self) -> tuple[Tile, ...]:
        """Tiles this seat cannot see: in hidden hands or the boneyard, in set order."""
        seen = {(self.engine, self.engine)}
        for train in self.trains:
            for a, b in train.tiles:
                seen.add((a, b) if a <= b else (b, a))
        for h in self.hands:
            if h:
                seen.update(h)
        return tuple(t for t in full_set(self.rules.set) if t not in seen)


def _hide(events: tuple[Event, ...], seat: int, open_hands: bool) -> tuple[Event, ...]:
    if open_hands:  # a drawn tile joins a hand everyone can see
        return events
    return tuple(
        evolve(e, {"tile": None}) if e.type == "draw" and e.seat != seat else e for e in events
    )


def _public_round(r: RoundResult) -> PublicRound:
    return construct(
        PublicRound,
        dict(
            number=r.number,
            engine=r.engine,
            engine_seat=r.engine_seat,
            first_seat=r.first_seat,
            end=r.end,
            out_seat=r.out_seat,
            leftovers=r.leftovers,
            scores=r.scores,
        ),
    )


def _hidden_result(p: PublicRound) -> RoundResult:
    """A finished round rebuilt from its public part (deal and events unknown)."""
    values = p.model_dump()
    values.update(hands=(), boneyard=(), events=())
    return construct(RoundResult, values)


def view(state: GameState, seat: int) -> SeatView:
    """What ``seat`` may know of ``state``."""
    open_hands = state.rules.open_hands
    hands = tuple(h if (open_hands or i == seat) else None for i, h in enumerate(state.hands))
    # Every value comes from a valid snapshot, so the view is built without re-validation.
    return construct(
        SeatView,
        dict(
            seat=seat,
            rules=state.rules,
            players=state.players,
            round=state.round,
            engine=state.engine,
            engine_seat=state.engine_seat,
            first_seat=state.first_seat,
            turn=state.turn,
            phase=state.phase,
            hand=state.hands[seat],
            hands=hands,
            hand_sizes=state.hand_sizes,
            boneyard_size=len(state.boneyard),
            trains=state.trains,
            mexican_starter=state.mexican_starter,
            double_line=state.double_line,
            drawn=state.drawn if state.turn == seat else None,
            swan_pos=state.swan_pos,
            chain_right=state.chain_right,
            opening_queue=state.opening_queue,
            failed=state.failed,
            idle_turns=state.idle_turns,
            events=_hide(state.events, seat, open_hands),
            results=tuple(_public_round(r) for r in state.results),
            winners=state.winners,
        ),
    )


def determinize(
    v: SeatView,
    rng: random.Random | None = None,
    hands: dict[int, tuple[Tile, ...]] | None = None,
) -> GameState:
    """A full snapshot consistent with the view: hidden tiles dealt at random by ``rng``
    (in set order without one), or as given in ``hands`` for some seats.

    Search players sample with it; ``legal_actions(determinize(v))`` is the same for every
    sample, since legality depends only on what the seat can see.
    """
    pool = list(v.unseen())
    fixed = dict(hands or {})
    for t in (t for h in fixed.values() for t in h):
        pool.remove(t)
    if rng is not None:
        rng.shuffle(pool)
    full_hands = []
    for i, h in enumerate(v.hands):
        if h is not None:
            full_hands.append(h)
        elif i in fixed:
            full_hands.append(fixed[i])
        else:
            k = v.hand_sizes[i]
            full_hands.append(tuple(pool[:k]))
            del pool[:k]
    return construct(
        GameState,
        dict(
            rules=v.rules,
            seed=0,
            players=v.players,
            starter=(v.first_seat - (v.round - 1)) % v.players,
            round=v.round,
            engine=v.engine,
            engine_seat=v.engine_seat,
            first_seat=v.first_seat,
            turn=v.turn,
            phase=v.phase,
            hands=tuple(full_hands),
            boneyard=tuple(pool),
            trains=v.trains,
            mexican_starter=v.mexican_starter,
            double_line=v.double_line,
            drawn=v.drawn,
            swan_pos=v.swan_pos,
            chain_right=v.chain_right,
            opening_queue=v.opening_queue,
            failed=v.failed,
            idle_turns=v.idle_turns,
            dealt_hands=tuple(full_hands),
            dealt_boneyard=tuple(pool),
            events=v.events,
            results=tuple(_hidden_result(r) for r in v.results),  # the game knows its round
            winners=v.winners,
        ),
    )


def view_legal_actions(v: SeatView) -> tuple[Action, ...]:
    """The legal actions of the seat to move, computed from a view alone."""
    from .engine import legal_actions

    return legal_actions(determinize(v))
