"""Network tables for tests/net: a table server on 127.0.0.1 (a port from the OS) and bots."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from mexitrain.game_setup import GameSetup, SeatConfig
from mexitrain.net.bot import BotResult, play_bot
from mexitrain.net.server import Limits, TableServer
from mexitrain.rules import make_rules

FAST = (0.02, 0.2)  # the bots' backoff in tests: first and longest wait


def table(players: int, persons: int, *, preset: str = "standard", rounds: int | None = 1, seed: int = 1,
          level: str = "random", **options: str) -> GameSetup:
    """``persons`` seats open for people (seats 0..persons-1), the rest computer players."""
    opts = dict(options)
    if rounds is not None:
        opts["rounds"] = str(rounds)
    rules = make_rules(preset, opts)
    seats = tuple(
        SeatConfig(name=f"P{i}", kind="human" if i < persons else level) for i in range(players)
    )
    return GameSetup(rules=rules, seed=seed, seats=seats)


@contextlib.asynccontextmanager
async def served(setup: GameSetup, data_dir: Path, *, start_when_full: str | None = "random",
                 limits: Limits | None = None, host_seat: int | None = None,
                 on_event=None, **kw) -> AsyncIterator[TableServer]:
    """A table of ``setup`` on 127.0.0.1, every person's seat but the host's open; ``kw`` go
    to the TableServer (turn_time, clock, absent…)."""
    persons = tuple(i for i, s in enumerate(setup.seats) if s.is_human and i != host_seat)
    server = TableServer(setup, data_dir=data_dir, open_seats=persons, host_seat=host_seat,
                         start_when_full=start_when_full, limits=limits, on_event=on_event, **kw)
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.stop()


def address(server: TableServer) -> str:
    return f"127.0.0.1:{server.port}"


async def bots(server: TableServer, n: int, *, timeout: float = 60, **kw) -> list[BotResult]:
    """``n`` bots join ``server`` and play until the game is over."""
    tasks = [play_bot(address(server), server.code, f"Bot{i}", seed=i, backoff=FAST, **kw) for i in range(n)]
    return await asyncio.wait_for(asyncio.gather(*tasks), timeout)


async def until(condition, timeout: float = 20.0, step: float = 0.005) -> None:
    """Wait until ``condition()`` holds (polling the event loop), or fail."""
    async def wait():
        while not condition():
            await asyncio.sleep(step)
    await asyncio.wait_for(wait(), timeout)
