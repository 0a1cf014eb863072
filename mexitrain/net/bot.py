"""A scripted client: a computer player plays one seat over the network (tests, the load
benchmark, and anyone who wants an example client)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..players import make_player
from .client import BACKOFF, LinkStatus, TableClient
from .protocol import Error, Intent, Refused, Rematch, Seen, Update, Welcome


class BotResult:
    """What a bot saw: every message, the last Update, the refusals, the link statuses."""

    def __init__(self) -> None:
        self.messages: list[Any] = []
        self.last: Update | None = None
        self.refused: list[Refused] = []
        self.statuses: list[LinkStatus] = []
        self.error: Error | None = None
        self.client: TableClient | None = None


async def play_bot(
    address: str,
    code: str,
    name: str,
    level: str = "random",
    seed: int = 0,
    *,
    data_dir: Path | None = None,
    token: str | None = None,
    backoff: tuple[float, float] = BACKOFF,
    until_over: bool = True,
    on_message: Callable[[Any, TableClient], Any] | None = None,
    result: BotResult | None = None,
    rematches: int = 0,
) -> BotResult:
    """Join the table and play the seat with a computer player of ``level`` on each Update
    whose view says it is this seat's turn; return when the game is over (``until_over``),
    when the client stops (a fatal Error), or when cancelled. ``rematches``: at the end of a
    game, accept a new one (Rematch) this many times, then end at the next game's end.
    ``on_message(msg, client)`` sees every message first (tests use it to misbehave at a
    chosen moment)."""
    player = make_player(level, seed)
    result = result if result is not None else BotResult()
    client = TableClient(address, code, name, data_dir=data_dir, token=token, backoff=backoff)
    result.client = client
    acted: set[int] = set()
    intent = 0
    accepted: set[str] = set()  # the seals of the games a rematch was accepted at
    seal: str | None = None

    async def handle(msg: Any) -> None:
        nonlocal intent, seal
        result.messages.append(msg)
        if on_message is not None:
            r = on_message(msg, client)
            if asyncio.iscoroutine(r):
                await r
        if isinstance(msg, Welcome):
            acted.clear()  # a new connection: the game may have gone back a move (a server resumed)
        elif isinstance(msg, Refused):
            result.refused.append(msg)
        elif isinstance(msg, Error):
            result.error = msg
        elif isinstance(msg, Update):
            result.last = msg
            v = msg.view
            if v.seal != seal:  # a new game at the table (a rematch): its seq counts from 0 again
                seal = v.seal
                acted.clear()
            if v.phase == "game_over":
                if v.seal in accepted:
                    return  # the new game starts once everyone accepts
                if len(accepted) < rematches:
                    accepted.add(v.seal)
                    await client.send(Rematch())
                    return
                if until_over:
                    asyncio.get_running_loop().create_task(client.close())
                return
            if v.seat in msg.waiting:
                # a round just ended: the bot has "seen" its results; the next round waits for it
                await client.send(Seen(round=len(v.results)))
                return
            if v.my_turn and msg.seq not in acted:
                acted.add(msg.seq)
                action = player.choose(v) if level == "random" else await asyncio.to_thread(player.choose, v)
                intent += 1
                await client.send(Intent(seq=intent, action=action))

    await client.run(handle, result.statuses.append)
    return result
