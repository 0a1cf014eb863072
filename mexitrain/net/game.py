"""A network table's game and its seats, without sockets or files: who sits where (a person,
a computer player, an open seat), the one :class:`~mexitrain.rules.GameState` and the number of
actions applied, what each seat is sent (its own :class:`~mexitrain.net.protocol.Update`, built
from ``rules.view(state, seat)`` only), starting the game, handing a seat over to a computer
player, and checking an intent with the rules (docs/protocol.md).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..game_setup import DEFAULT_NAMES, PLAY_STRIDE, GameSetup, SeatConfig, seat_seed
from ..players import make_player
from ..rules import GameState, IllegalAction, apply, new_game, onlooker, view
from ..storage import tokens
from .protocol import (
    TURN_TIME_MAX,
    TURN_TIME_MIN,
    Away,
    Intent,
    Lobby,
    LobbySeat,
    Onlooker,
    Refused,
    Update,
    encode,
    refused_of,
)


def token_hash(token: str) -> str:
    """What a table keeps on disk of a removed person's token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


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


class ServerGame:
    """The seats and the game of one table. ``state`` is None until the game starts."""

    def __init__(
        self,
        setup: GameSetup,
        seats: list[Seat],
        host_seat: int | None,
        host_token: str,
        *,
        turn_time: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.setup = setup
        self.seats = seats
        self.host_seat = host_seat
        self.host_token = host_token
        self.state: GameState | None = None
        self.seq = 0  # actions applied
        #: the seats whose people have not seen the last round's results: the next round
        #: waits for them (docs/play-together.md); empty while a round is played
        self.waiting: set[int] = set()
        #: the turn timer in seconds (None: none); the clock it is read on (tests inject one)
        self.turn_time = turn_time
        self.clock = clock
        #: the turn the clock counts (round, seat, game) and when it began (``clock()``)
        self._turn: tuple[int, int, int] | None = None
        self._turn_since = 0.0
        #: when the round's results began to wait for people (the turn timer bounds that too)
        self._waiting_since = 0.0
        #: the seat whose move made the last action, when the turn timer played it
        self.timed: int | None = None
        #: what a rematch does with a person who left: "computer" or "wait"
        self.absent = "computer"
        #: the level the open seats got at the deal (and the seats of who left, at a rematch)
        self.level = "planner"
        #: the seats whose people accepted a rematch of the game that is over
        self.rematch: set[int] = set()
        self.games = 1  # games dealt at this table (in this process)
        #: the tokens of the people the host removed (coming back with one: ``removed``), and
        #: the SHA-256 of those removed before the table was resumed (kept on disk)
        self.removed_tokens: set[str] = set()
        self.removed_hashes: set[str] = set()
        #: the finished game's state and its record's text (:meth:`record_text`)
        self._record: tuple[GameState, str] | None = None

    @classmethod
    def new(cls, setup: GameSetup, open_seats: tuple[int, ...], host_seat: int | None, host_token: str, **kw: Any) -> ServerGame:
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
        return cls(setup, seats, host_seat, host_token, **kw)

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

    def remove(self, seat: int, level: str) -> bool:
        """The person of seat ``seat`` leaves the table for good (the host removed them): the
        seat goes to a computer player of ``level``, their token stops working. False when
        ``seat`` is not a person's, or is the host's own."""
        if not 0 <= seat < len(self.seats) or seat == self.host_seat:
            return False
        s = self.seats[seat]
        if s.kind != "person":
            return False
        if s.token is not None:
            self.removed_tokens.add(s.token)
        s.kind, s.level, s.token, s.handed, s.player = "computer", level, None, False, None
        s.conn, s.away_since = None, None
        self.waiting.discard(seat)
        self.rematch.discard(seat)
        self.note_turn()
        return True

    def is_removed(self, token: str) -> bool:
        """Whether ``token`` was the token of a person the host removed (compared in constant time)."""
        found = False
        for t in self.removed_tokens:
            found |= hmac.compare_digest(t.encode(), token.encode())
        digest = token_hash(token)
        for h in self.removed_hashes:
            found |= hmac.compare_digest(h.encode(), digest.encode())
        return found

    def start(self, level: str) -> bool:
        """Deal: the open seats become computer players of ``level``. False if started."""
        if self.started:
            return False
        self.level = level
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
        self.note_turn()
        return True

    # -- the turn timer ---------------------------------------------------------------------------
    def timed_seat(self) -> int | None:
        """The seat whose turn the timer counts now: a person's (there or away, not handed
        over) while the game runs and no round waits for its results; else None."""
        state = self.state
        if self.turn_time is None or state is None or state.over or self.waiting:
            return None
        s = self.seats[state.turn]
        return None if s.computer_plays else s.index

    def note_turn(self) -> None:
        """After any change of the game, of the seats or of the waiting: a turn the clock did
        not count yet starts now (a seat drawing, then playing, stays one turn)."""
        seat = self.timed_seat()
        if seat is None:
            self._turn = None
            return
        assert self.state is not None
        key = (self.state.round, seat, self.games)
        if key != self._turn:
            self._turn, self._turn_since = key, self.clock()

    def turn_remaining(self) -> float | None:
        """Seconds left on the timed turn (at most 0 once it ran out), or None."""
        if self._turn is None or self.turn_time is None or self.timed_seat() is None:
            return None
        return self.turn_time - (self.clock() - self._turn_since)

    def turn_left(self) -> int | None:
        """:meth:`turn_remaining` in whole seconds for the Update (rounded up, within the timer)."""
        left = self.turn_remaining()
        if left is None:
            return None
        limit = math.ceil(self.turn_time or 0)
        return max(0, min(limit, math.ceil(left)))

    # -- the rematch ------------------------------------------------------------------------------
    def accept_rematch(self, seat: int | None) -> bool:
        """Seat ``seat``'s person accepts a new game: True when that is news (once a seat a
        game; a computer's seat, no seat, or a game not over: False)."""
        state = self.state
        if seat is None or state is None or not state.over or seat in self.rematch:
            return False
        if self.seats[seat].kind != "person":
            return False
        self.rematch.add(seat)
        return True

    def rematch_waits_for(self) -> list[int]:
        """The people a rematch still waits for: every person's seat ("wait"), or only those
        of the people at the table ("computer": who left gets a computer player)."""
        return [
            s.index
            for s in self.seats
            if s.kind == "person" and s.index not in self.rematch
            and (self.absent == "wait" or (s.conn is not None and not s.handed))
        ]

    def rematch_ready(self) -> bool:
        """The game is over, someone accepted, and nobody else is waited for."""
        return bool(self.state is not None and self.state.over and self.rematch and not self.rematch_waits_for())

    def restart(self, seed: int) -> GameState:
        """Deal the new game of a rematch with ``seed``: the same seats and rules; a person
        who did not accept (they left) is played by a computer of the deal's level until they
        come back."""
        for s in self.seats:
            if s.kind == "person" and s.index not in self.rematch:
                s.handed, s.level, s.player = True, self.level, None
            elif s.kind == "computer":
                s.player = None  # a fresh player, seeded by the new seed
        self.setup = GameSetup(rules=self.setup.rules, seed=seed, seats=self.setup.seats)
        self.state = new_game(self.setup.rules, players=len(self.seats), seed=seed)
        self.seq = 0
        self.games += 1
        self.waiting.clear()
        self.rematch.clear()
        self.timed = None
        self.note_turn()
        return self.state

    # -- what is sent -----------------------------------------------------------------------------
    def lobby(self, watchers: int = 0) -> Lobby:
        """Who sits where; ``watchers``: how many watch the table."""
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
            turn_time=self._wire_turn_time(),
            absent=self.absent,  # type: ignore[arg-type]
            watchers=watchers,
        )

    def _wire_turn_time(self) -> int | None:
        """The timer as the protocol says it: whole seconds within its bounds."""
        if self.turn_time is None:
            return None
        return max(TURN_TIME_MIN, min(TURN_TIME_MAX, math.ceil(self.turn_time)))

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
        return Update(view=view(self.state, seat, self.setup.seed_chosen), **self._beside_view(away))

    def _beside_view(self, away: tuple[Away, ...] | None) -> dict:
        """The fields an Update and an Onlooker carry beside their view."""
        return dict(
            seq=self.seq,
            names=tuple(s.name for s in self.seats),
            kinds=tuple("computer" if s.computer_plays else "person" for s in self.seats),
            away=self.away() if away is None else away,
            waiting=tuple(sorted(self.waiting)),
            turn_time=self._wire_turn_time(),
            turn_left=self.turn_left(),
            timed=self.timed,
            rematch=tuple(sorted(self.rematch)),
        )

    def updates(self, seats: set[int]) -> dict[int, str]:
        """Each of ``seats``' Update, built and encoded once whatever the number of
        connections that want it."""
        if self.state is None:
            return {}
        away = self.away()
        return {seat: encode(self.update_for(seat, away)) for seat in sorted(seats)}

    def onlooker_update(self, away: tuple[Away, ...] | None = None) -> Onlooker:
        """What a watcher is sent now (:class:`Onlooker`): ``rules.onlooker(state)`` only,
        with the fields an Update has beside its view."""
        assert self.state is not None
        return Onlooker(view=onlooker(self.state, self.setup.seed_chosen), **self._beside_view(away))

    def record_text(self) -> str | None:
        """The finished game's record as JSON text (:class:`~.protocol.GameRecord`), made once
        a game; None while it runs."""
        state = self.state
        if state is None or not state.over:
            return None
        if self._record is None or self._record[0] is not state:
            from ..rules.record import dump_record, to_record

            # the seats as dealt, as the host's own save records them
            record = to_record(state, self.setup.seats, seed_chosen=self.setup.seed_chosen)
            self._record = (state, dump_record(record))
        return self._record[1]

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
            self._waiting_since = self.clock()

    def results_remaining(self) -> float | None:
        """With a turn timer, the seconds the next round still waits for people to see the
        results (at most 0 once a turn's time has gone by: the round goes on without them), or
        None (no timer, or nobody waited for)."""
        if self.turn_time is None or not self.waiting:
            return None
        return self.turn_time - (self.clock() - self._waiting_since)

    def results_timed_out(self) -> list[int]:
        """The timer ran out on the results: the seats still waited for are no longer (the next
        round goes on); the seats that were."""
        left = self.results_remaining()
        if left is None or left > 0:
            return []
        seats = sorted(self.waiting)
        self.waiting.clear()
        self.note_turn()
        return seats

    def seen(self, seat: int | None, round_number: int) -> bool:
        """Seat ``seat``'s person has seen round ``round_number``'s results: True when the
        table was waiting for it (False for a repeat, another round, or no seat)."""
        if seat is None or self.state is None or round_number != len(self.state.results) or seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        self.note_turn()  # the round's first turn is counted once nobody is waited for
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
            turn_time=self._wire_turn_time(),
            absent=self.absent,
        )
