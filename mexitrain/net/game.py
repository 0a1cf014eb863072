"""A network table's game and its seats, without sockets or files: who sits where (a person,
a computer player, an open seat), the one :class:`~mexitrain.rules.GameState` and the number of
actions applied, what each seat is sent (its own :class:`~mexitrain.net.protocol.Update`, built
from ``rules.view(state, seat)`` only), starting the game, handing a seat over to a computer
player, and checking an intent with the rules (docs/protocol.md).
"""

from __future__ import annotations

import hmac
import time
from dataclasses import dataclass
from typing import Any

from ..game_setup import DEFAULT_NAMES, PLAY_STRIDE, GameSetup, SeatConfig, seat_seed
from ..players import make_player
from ..rules import GameState, IllegalAction, apply, new_game, view
from ..storage import tokens
from .protocol import Away, Intent, Lobby, LobbySeat, Refused, Update, encode, refused_of


@dataclass(eq=False)
class Seat:
    index: int
    name: str
    kind: str  # "person" | "computer" | "open"
    level: str | None = None
    token: str | None = None
    handed: bool = False  # a person's seat played by a computer of ``level`` while they are away
    conn: Any = None  # the person's Connection while connected
    away_since: float | None = None  # time.monotonic() of the drop
    player: Any = None

    @property
    def computer_plays(self) -> bool:
        return self.kind == "computer" or (self.kind == "person" and self.handed)


class TableGame:
    """The seats and the game of one table. ``state`` is None until the game starts."""

    def __init__(self, setup: GameSetup, seats: list[Seat], host_seat: int | None, host_token: str) -> None:
        self.setup = setup
        self.seats = seats
        self.host_seat = host_seat
        self.host_token = host_token
        self.state: GameState | None = None
        self.seq = 0  # actions applied
        #: the seats whose people have not seen the last round's results: the next round
        #: waits for them (docs/play-together.md); empty while a round is played
        self.waiting: set[int] = set()

    @classmethod
    def new(cls, setup: GameSetup, open_seats: tuple[int, ...], host_seat: int | None, host_token: str) -> TableGame:
        """``open_seats`` (and the setup's other person seats) wait for people, ``host_seat`` is
        the host's, the other seats are computer players of their setup's level."""
        seats = []
        for i, cfg in enumerate(setup.seats):
            if i == host_seat:
                seats.append(Seat(i, cfg.name, "person", token=host_token))
            elif i in open_seats or cfg.is_human:
                seats.append(Seat(i, "", "open"))
            else:
                seats.append(Seat(i, cfg.name, "computer", level=cfg.kind))
        return cls(setup, seats, host_seat, host_token)

    @property
    def started(self) -> bool:
        return self.state is not None

    # -- seats ----------------------------------------------------------------------------------
    def seat_of_token(self, token: str) -> int | None:
        found = None
        for s in self.seats:  # every seat compared, in constant time
            if s.token is not None and hmac.compare_digest(s.token.encode(), token.encode()):
                found = s.index
        return found

    def open_seat(self) -> Seat | None:
        return next((s for s in self.seats if s.kind == "open"), None)

    def player(self, s: Seat) -> Any:
        """The computer player of seat ``s`` (made once, seeded by the table's seed)."""
        if s.player is None:
            s.player = make_player(s.level or "planner", seed=seat_seed(self.setup.seed, s.index, PLAY_STRIDE))
        return s.player

    def hand_over(self, seat: int, level: str) -> bool:
        """Seat ``seat``, a person's who is away, is played by a computer of ``level`` until they
        come back. False when it is not a person's seat whose person is away."""
        if not 0 <= seat < len(self.seats):
            return False
        s = self.seats[seat]
        if s.kind != "person" or s.conn is not None:
            return False
        s.handed, s.level, s.player = True, level, None
        return True

    def start(self, level: str) -> bool:
        """Deal: the open seats become computer players of ``level``. False if started."""
        if self.started:
            return False
        used = {s.name for s in self.seats}
        names = iter(n for n in DEFAULT_NAMES[1:] if n not in used)
        for s in self.seats:
            if s.kind == "open":
                s.kind, s.level = "computer", level
                s.name = next(names, f"CPU {s.index + 1}")
        self.setup = GameSetup(
            rules=self.setup.rules,
            seed=self.setup.seed,
            seats=tuple(
                SeatConfig(name=s.name, kind="human" if s.kind == "person" else s.level) for s in self.seats
            ),
        )
        self.state = new_game(self.setup.rules, players=len(self.seats), seed=self.setup.seed)
        self.seq = 0
        return True

    # -- what is sent -----------------------------------------------------------------------------
    def lobby(self) -> Lobby:
        return Lobby(
            seats=tuple(
                LobbySeat(
                    seat=s.index,
                    name=s.name,
                    kind=s.kind,  # type: ignore[arg-type]
                    level=s.level if s.computer_plays else None,
                    connected=s.conn is not None,
                    host=s.index == self.host_seat,
                )
                for s in self.seats
            ),
            rules=self.setup.rules,
            started=self.started,
        )

    def away(self) -> tuple[Away, ...]:
        """The people whose connection dropped, with the seconds since."""
        now = time.monotonic()
        return tuple(
            Away(seat=s.index, name=s.name, seconds=int(now - s.away_since))
            for s in self.seats
            if s.kind == "person" and s.conn is None and s.away_since is not None
        )

    def update_for(self, seat: int, away: tuple[Away, ...] | None = None) -> Update:
        """Seat ``seat``'s :class:`Update` now: its own view only."""
        assert self.state is not None
        return Update(
            seq=self.seq,
            view=view(self.state, seat, self.setup.seed_chosen),
            names=tuple(s.name for s in self.seats),
            kinds=tuple("computer" if s.computer_plays else "person" for s in self.seats),
            away=self.away() if away is None else away,
            waiting=tuple(sorted(self.waiting)),
        )

    def updates(self, seats: set[int]) -> dict[int, str]:
        """Each of ``seats``' Update, built and encoded once whatever the number of
        connections that want it."""
        if self.state is None:
            return {}
        away = self.away()
        return {seat: encode(self.update_for(seat, away)) for seat in sorted(seats)}

    # -- the game -------------------------------------------------------------------------------
    def seat_view(self, seat: int):
        """What seat ``seat`` sees of the game now (a computer player chooses on it)."""
        assert self.state is not None
        return view(self.state, seat, self.setup.seed_chosen)

    def apply(self, action: Any) -> GameState:
        """The state after ``action`` (raises :class:`IllegalAction`)."""
        assert self.state is not None
        return apply(self.state, action)

    def check(self, seat: int | None, msg: Intent) -> GameState | Refused:
        """The state after ``msg``'s action by ``seat``, or why it is refused."""
        state = self.state
        if seat is None:
            return Refused(seq=msg.seq, code="no_seat")
        if state is None:
            return Refused(seq=msg.seq, code="not_started")
        if self.waiting and not state.over:
            return Refused(seq=msg.seq, code="results_unseen", values={"seats": sorted(self.waiting)})
        if state.turn != seat and not state.over:
            return Refused(seq=msg.seq, code="not_your_turn", values={"turn": state.turn})
        try:
            return apply(state, msg.action)
        except IllegalAction as exc:
            return refused_of(msg.seq, exc)

    def round_ended(self, before: GameState, after: GameState) -> None:
        """After ``before`` -> ``after``: when a round ended and the game goes on, the next
        round waits for each person at the table (connected, playing their seat) to see the
        results."""
        if len(after.results) > len(before.results) and not after.over:
            self.waiting = {s.index for s in self.seats if s.kind == "person" and not s.handed and s.conn is not None}

    def seen(self, seat: int | None, round_number: int) -> bool:
        """Seat ``seat``'s person has seen round ``round_number``'s results: True when the
        table was waiting for it (False for a repeat, another round, or no seat)."""
        if seat is None or self.state is None or round_number != len(self.state.results) or seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        return True

    def table_file(self, code: str, port: int | None) -> tokens.TableFile:
        """Everything but the game, as ``tables/<CODE>/table.json`` keeps it."""
        return tokens.TableFile(
            code=code,
            host_token=self.host_token,
            host_seat=self.host_seat,
            seats=tuple(
                tokens.TableSeat(name=s.name, kind=s.kind, level=s.level, token=s.token, handed=s.handed)
                for s in self.seats
            ),
            started=self.state is not None,
            over=self.state is not None and self.state.over,
            port=port,
            setup=self.setup.model_dump(mode="json"),
        )
