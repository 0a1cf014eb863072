"""A fake hostile host for the guest's tests (issue 37): a WebSocket server on 127.0.0.1 that
reads a guest's Hello and answers with whatever JSON it is given, valid for the protocol or
not, never through :func:`mexitrain.net.protocol.encode` (which would refuse much of it).

In a test::

    async with HostileHost(script) as host:       # script(hello) -> texts to send
        ... join f"127.0.0.1:{host.port}" ...

By hand, to look at a guest under attack in a terminal (tmux)::

    python3 tests/support/hostile_host.py --port 8799 inject    # from the repository's root
    python3 -m mexitrain join 127.0.0.1:8799 KXMPTR --name Ann --data-dir /tmp/guest

Scenarios: ``inject`` (every string field of every message carries escape sequences: a
title, OSC 8 and 52, C1, bidi), ``flood`` (1,000 non-fatal errors at once, then 1,000 a
second), ``silent`` (accepts the WebSocket and never answers), ``garbage`` (a message the
client cannot read), ``early`` (an update before any welcome), ``scores`` (huge scores).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run by hand: this worktree's mexitrain, not an installed one
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from websockets.asyncio.server import ServerConnection, serve

from mexitrain.net.protocol import Lobby, LobbySeat, Update, Welcome
from mexitrain.rules import RuleSet, new_game, view

CODE = "KXMPTR"
RULES = RuleSet(set=6, rounds=1)

#: What a hostile string carries, after its marker: a window title (OSC 0), a hyperlink
#: (OSC 8), the clipboard (OSC 52: "rm -rf ~"), a screen clear, a CSI in its 8-bit C1 form,
#: a right-to-left override, a string terminator and a line separator.
PAYLOADS = (
    "\x1b]0;PWNED\x07",
    "\x1b]8;;http://evil/\x1b\\",
    "\x1b]52;c;cm0gLXJmIH4=\x07",
    "\x1b[2J\x1b[H",
    "\x9b31m\x9d0;T\x9c",
    "\u202eevil\u2066",
    "\x1bP+q\x1b\\\u2028",
)


def hostile(marker: int, room: int = 20, shift: int = 0) -> str:
    """A hostile string: ``Q<marker>`` (two digits) then payloads, at most ``room``
    characters (a name's limit is 20). The marker tells where the string lands in the
    terminal's bytes."""
    head = f"Q{marker:02d}"
    payload = PAYLOADS[(marker + shift) % len(PAYLOADS)]
    return (head + payload)[:room] if room < len(head + payload) else head + payload


class Markers:
    """Hands out hostile strings, each with its own marker, and remembers them; ``shift``
    moves which payload goes with which marker."""

    def __init__(self, shift: int = 0) -> None:
        self.made: list[str] = []
        self.shift = shift

    def __call__(self, room: int = 20) -> str:
        text = hostile(len(self.made) + 1, room, self.shift)
        self.made.append(text)
        return text


# -- messages as JSON dicts (never validated: a host can send anything) ------------------------


def welcome(seat: int = 0, host: bool = False, table: str = CODE, token: str = "t" * 32) -> dict:
    return json.loads(Welcome(seat=seat, token="t" * 32, host=host, table=CODE).model_dump_json()) | {
        "table": table, "token": token,
    }


def lobby(names: Iterable[str], started: bool = False) -> dict:
    names = list(names)
    seats = tuple(
        LobbySeat(seat=i, name=f"P{i}", kind="person" if i < 2 else "computer", connected=True,
                  level=None if i < 2 else "random")
        for i in range(len(names))
    )
    data = json.loads(Lobby(seats=seats, rules=RULES, started=started).model_dump_json())
    for seat, name in zip(data["seats"], names, strict=True):
        seat["name"] = name
    return data


def game(seat: int = 0, seed: int = 3):
    """A fresh game of three whose first turn is ``seat``'s."""
    for s in range(seed, seed + 200):
        state = new_game(RULES, players=3, seed=s)
        if state.turn == seat:
            return state
    raise AssertionError("no seed gives that seat the first turn")


def update(names: Iterable[str], seat: int = 0, seq: int = 1, away: Iterable[tuple[int, str]] = (),
           state: Any = None, scores: int | None = None) -> dict:
    """An update for ``seat`` of a three-seat game; ``scores``: every finished round's score
    made that large (a round is finished first)."""
    names = tuple(names)
    state = state if state is not None else game(seat)
    data = json.loads(Update(seq=seq, view=view(state, seat), names=("a", "b", "c"),
                             kinds=("person", "person", "computer")).model_dump_json())
    data["names"] = list(names)
    data["away"] = [{"seat": s, "name": n, "seconds": 5} for s, n in away]
    if scores is not None:
        data["view"]["results"] = [{
            "number": 1, "engine": 6, "engine_seat": None, "first_seat": 0, "end": "domino",
            "out_seat": 0, "leftovers": [[] for _ in names], "scores": [scores] * len(names),
        }]
    return data


def error(code: str = "internal", fatal: bool = False, **values: Any) -> dict:
    return {"type": "error", "code": code, "values": values, "fatal": fatal, "server_version": None}


def refused(seq: int = 1, code: str = "not_your_turn", **values: Any) -> dict:
    return {"type": "refused", "seq": seq, "code": code, "values": values}


def injection(markers: Markers, seat: int = 0) -> list[dict]:
    """Every string field of every message type, each with its own hostile string: the
    welcome's table, the lobby's names, the update's names and away names, a refusal's and
    an error's values (a name in a refusal, a field, a code of a newer server)."""
    names = [markers() for _ in range(3)]
    return [
        welcome(seat, table=markers(32)),
        lobby([markers() for _ in range(3)]),
        update(names, seat, away=[(1, markers())]),
        refused(code="not_your_turn", turn=1, name=markers(60)),
        refused(code="no_seat", tile=markers(60)),
        error("bad_message", field=markers(60), type=markers(60)),
        error("internal", detail=markers(60)),
        error("table_closed", resumable=markers(60), fatal=False),
    ]


# -- the server ------------------------------------------------------------------------------

Script = Callable[[dict], Awaitable[None] | None]


class HostileHost:
    """A WebSocket server on 127.0.0.1 (a free port) that reads each Hello and then runs
    ``script(hello, send)``: ``send(obj)`` sends a dict as JSON, or a str as it is. Without
    a script it sends ``messages`` after the Hello (dicts or raw texts), then ``then``:
    "stay" (keeps the connection open), "close", or "silent" (never answers the Hello)."""

    def __init__(self, messages: Iterable[dict | str] = (), *, then: str = "stay",
                 script: Callable[[dict, Callable[[Any], Awaitable[None]]], Awaitable[None]] | None = None,
                 port: int = 0) -> None:
        self.messages = list(messages)
        self.then = then
        self.script = script
        self.port = port
        self.hellos: list[dict] = []
        self.connections = 0
        self.received: list[str] = []
        self._server: Any = None
        self._tasks: set[asyncio.Task] = set()

    async def _handle(self, ws: ServerConnection) -> None:
        self.connections += 1
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            first = await ws.recv()
            with contextlib.suppress(ValueError):
                self.hellos.append(json.loads(first))
            if self.then == "silent":
                await ws.wait_closed()
                return

            async def send(obj: Any) -> None:
                await ws.send(obj if isinstance(obj, str) else json.dumps(obj))

            if self.script is not None:
                await self.script(self.hellos[-1] if self.hellos else {}, send)
            for msg in self.messages:
                await send(msg)
            if self.then == "close":
                await ws.close()
                return
            async for text in ws:  # stay: read what the guest says until it leaves
                self.received.append(text if isinstance(text, str) else text.decode("utf-8", "replace"))
        except Exception:  # noqa: BLE001 - a guest that leaves mid-script is fine
            pass
        finally:
            if task is not None:
                self._tasks.discard(task)

    async def __aenter__(self) -> HostileHost:
        self._server = await serve(self._handle, "127.0.0.1", self.port, max_size=None, compression=None)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 5)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


# -- scenarios, for the tests and for a person at a terminal -----------------------------------


async def flood_script(hello: dict, send: Callable[[Any], Awaitable[None]], *, burst: int = 1000,
                       seconds: int = 10, rate: int = 1000) -> None:
    """A welcome and an update, 1,000 non-fatal errors at once, then ``rate`` a second."""
    await send(welcome(0))
    await send(update(["Ann", "Bea", "Cal"]))
    for i in range(burst):
        await send(error("internal", detail=f"flood {i}"))
    loop = asyncio.get_running_loop()
    for _second in range(seconds):
        start = loop.time()
        for i in range(rate):
            await send(error("internal", detail=f"flood {i}"))
        await asyncio.sleep(max(0.0, 1.0 - (loop.time() - start)))


def scenario(name: str) -> HostileHost:
    """The scenarios of the module docstring."""
    if name == "inject":
        return HostileHost(injection(Markers()))
    if name == "flood":
        return HostileHost(script=flood_script)
    if name == "silent":
        return HostileHost(then="silent")
    if name == "garbage":
        return HostileHost([welcome(0), lobby(["Ann", "Bea", "Cal"]), {"type": "update", "seq": "x"}])
    if name == "early":
        return HostileHost([update(["Ann", "Bea", "Cal"])])
    if name == "scores":
        return HostileHost([welcome(0), update(["Ann", "Bea", "Cal"], scores=10**15)])
    raise SystemExit(f"unknown scenario {name!r}")


async def _main(name: str, port: int) -> None:
    host = scenario(name)
    host.port = port
    async with host:
        print(f"hostile host ({name}) on {host.address}; join with code {CODE}", flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8799)
    parser.add_argument("scenario", choices=("inject", "flood", "silent", "garbage", "early", "scores"))
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main(args.scenario, args.port))
