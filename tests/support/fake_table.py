"""A stand-in for :class:`mexitrain.net.client.TableClient` (the same interface: ``run``,
``send``, ``close``): the test says what the server says, and reads what the app sent."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from mexitrain.net.protocol import Lobby, LobbySeat, Update, Welcome
from mexitrain.rules import RuleSet, new_game, view


@dataclass(frozen=True)
class Link:
    """A LinkStatus as the client reports it."""

    state: str
    attempt: int = 0
    retry_in: float | None = None
    error: str | None = None


class FakeClient:
    def __init__(self) -> None:
        self.sent: list = []
        self.closed = asyncio.Event()
        self.on_message = None
        self.on_status = None
        self.running = asyncio.Event()

    async def run(self, on_message, on_status) -> None:
        self.on_message, self.on_status = on_message, on_status
        on_status(Link("connecting"))
        self.running.set()
        await self.closed.wait()

    def say(self, msg) -> None:
        assert self.on_message is not None, "the app never ran the client"
        self.on_message(msg)

    def link(self, state: str, **values) -> None:
        assert self.on_status is not None
        self.on_status(Link(state, **values))

    async def send(self, msg) -> None:
        self.sent.append(msg)

    async def close(self) -> None:
        self.closed.set()


def factory(client: FakeClient):
    return lambda request, root: client


RULES = RuleSet(set=6, rounds=1)
NAMES = ("Ann", "Bea", "Cal")


def lobby(started: bool = False, open_seat: bool = True) -> Lobby:
    return Lobby(
        seats=(
            LobbySeat(seat=0, name="Ann", kind="person", connected=True),
            LobbySeat(seat=1, name="" if open_seat else "Bea", kind="open" if open_seat else "person", connected=not open_seat),
            LobbySeat(seat=2, name="Cal", kind="computer", level="random"),
        ),
        rules=RULES,
        started=started,
    )


def welcome(seat: int = 0, host: bool = True) -> Welcome:
    return Welcome(seat=seat, token="t" * 32, host=host, table="KXMPTR")


def state(seed: int = 3):
    return new_game(RULES, players=3, seed=seed)


def update(game, seat: int = 0, seq: int = 1, away=()) -> Update:
    return Update(seq=seq, view=view(game, seat), names=NAMES, kinds=("person", "person", "computer"), away=away)


def my_turn_game(seat: int = 0):
    """A fresh game whose first turn is ``seat``'s (a person's)."""
    for seed in range(1, 200):
        game = state(seed)
        if game.turn == seat:
            return game
    raise AssertionError("no seed gives that seat the first turn")
