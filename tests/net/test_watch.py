"""Watchers over real WebSockets on 127.0.0.1 (issue #35 item 2, docs/protocol.md "Watching"):
a watcher gets the lobby and the onlooker's view at every move, from the start or from the
middle of a game; any intent it sends is refused; a table takes at most Limits.watchers; the
game never waits for a watcher, and one leaving changes nothing at the table."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from support.net import FAST, address, bots, served, table, until
from websockets.asyncio.client import connect

from mexitrain.net.client import TableClient
from mexitrain.net.protocol import (
    Error,
    Intent,
    Lobby,
    Onlooker,
    Refused,
    StartGame,
    Update,
    Watch,
    Watching,
    decode_server,
    encode,
)
from mexitrain.net.server import Limits
from mexitrain.rules import Draw, onlooker


class Watcher:
    """The table client in watching mode, keeping every message."""

    def __init__(self, server, name: str | None = "Zoé") -> None:
        self.client = TableClient(address(server), server.code, name or "", data_dir=None, backoff=FAST, watch=True)
        self.messages: list[Any] = []
        self.task = asyncio.get_running_loop().create_task(self.client.run(self.messages.append))

    def of(self, kind):
        return [m for m in self.messages if isinstance(m, kind)]

    @property
    def last(self) -> Onlooker | None:
        seen = self.of(Onlooker)
        return seen[-1] if seen else None

    async def close(self) -> None:
        await self.client.close()
        await asyncio.wait_for(self.task, 5)


async def test_a_watcher_from_the_start_sees_the_whole_game_as_an_onlooker(tmp_path):
    setup = table(3, 2, rounds=2, seed=11)
    async with served(setup, tmp_path) as server:
        w = Watcher(server)
        await until(lambda: w.of(Watching) and w.of(Lobby))
        assert w.of(Lobby)[-1].watchers == 1 and not w.of(Lobby)[-1].started
        results = await bots(server, 2)  # they never wait for the watcher: two rounds, to the end
        assert all(r.last is not None and r.last.view.phase == "game_over" for r in results)
        await until(lambda: w.last is not None and w.last.view.phase == "game_over")
        assert not w.of(Update) and not w.of(Error)
        assert w.client.welcome == Watching(table=server.code)
        final = w.last
        assert final.view == onlooker(server.state, server.setup.seed_chosen)
        assert final.seq == server.seq and len(final.view.results) == 2
        assert len(w.of(Onlooker)) > 20
        assert server.game.waiting == set() and server.watchers() == 1
        await w.close()


async def test_a_watcher_joining_mid_game_is_sent_the_game_as_it_stands(tmp_path):
    setup = table(2, 2, rounds=1, seed=5)
    async with served(setup, tmp_path) as server:
        game = asyncio.ensure_future(bots(server, 2))
        await until(lambda: server.seq >= 8)
        w = Watcher(server, name=None)
        await until(lambda: w.last is not None)
        first = w.last
        assert first.seq >= 8 and first.names == tuple(s.name for s in server.seats)
        assert first.kinds == ("person", "person")
        await game
        await until(lambda: w.last.view.phase == "game_over")
        assert w.last.view == onlooker(server.state)
        await w.close()


async def test_intents_from_a_watcher_are_refused(tmp_path):
    setup = table(2, 1, rounds=1, seed=3)  # one person, one computer: the person holds the game
    async with served(setup, tmp_path, start_when_full=None, host_seat=None) as server:
        async with connect(f"ws://{address(server)}/") as ws:
            await ws.send(encode(Watch(code=server.code)))
            assert isinstance(decode_server(await ws.recv()), Watching)
            await ws.send(encode(StartGame()))
            await ws.send(encode(Intent(seq=7, action=Draw())))
            got = []
            while len([m for m in got if isinstance(m, Error | Refused)]) < 2:
                got.append(decode_server(await asyncio.wait_for(ws.recv(), 5)))
            errors = [m for m in got if isinstance(m, Error | Refused)]
            assert [(type(m).__name__, m.code) for m in errors] == [("Error", "not_host"), ("Refused", "watching")]
            assert not server.started
            server.start_game("random")
            await until(lambda: server._live)
            await ws.send(encode(Intent(seq=8, action=Draw())))
            while True:
                msg = decode_server(await asyncio.wait_for(ws.recv(), 5))
                if isinstance(msg, Refused):
                    break
            assert msg.code == "watching" and msg.seq == 8


async def test_at_most_limits_watchers_watch_one_table(tmp_path):
    setup = table(2, 2, rounds=1)
    async with served(setup, tmp_path, limits=Limits(watchers=2)) as server:
        first, second = Watcher(server), Watcher(server)
        await until(lambda: server.watchers() == 2)
        async with connect(f"ws://{address(server)}/") as ws:
            await ws.send(encode(Watch(code=server.code)))
            refusal = decode_server(await asyncio.wait_for(ws.recv(), 5))
        assert isinstance(refusal, Error) and refusal.code == "watchers_full" and refusal.fatal
        assert refusal.values == {"limit": 2}
        await first.close()
        await until(lambda: server.watchers() == 1)
        third = Watcher(server)
        await until(lambda: third.of(Watching))
        await second.close()
        await third.close()


async def test_a_wrong_code_is_refused_to_a_watcher_too(tmp_path):
    setup = table(2, 2, rounds=1)
    async with served(setup, tmp_path, limits=Limits(wrong_code_delay=0.0)) as server:
        async with connect(f"ws://{address(server)}/") as ws:
            await ws.send(encode(Watch(code="ZZZZZZ" if server.code != "ZZZZZZ" else "YYYYYY")))
            err = decode_server(await asyncio.wait_for(ws.recv(), 5))
        assert isinstance(err, Error) and err.code == "wrong_code"


async def test_a_watcher_leaving_changes_nothing_at_the_table(tmp_path):
    events: list[tuple[str, dict]] = []
    setup = table(2, 2, rounds=2, seed=9)
    async with served(setup, tmp_path, on_event=lambda kind, **v: events.append((kind, v))) as server:
        w = Watcher(server)
        game = asyncio.ensure_future(bots(server, 2))
        await until(lambda: server.seq >= 5)
        seats = [(s.name, s.kind, s.token) for s in server.seats]
        await w.close()
        await until(lambda: server.watchers() == 0)
        results = await game
        assert all(r.last is not None and r.last.view.phase == "game_over" for r in results)
        assert [(s.name, s.kind, s.token) for s in server.seats] == seats
        assert server.lobby().watchers == 0 and server.game.away() == ()
        assert not [e for e in events if e[0] == "left"]
        assert ("watching", {"count": 1}) in events


async def test_an_old_watch_gets_the_version_line(tmp_path):
    setup = table(2, 2, rounds=1)
    async with served(setup, tmp_path) as server:
        async with connect(f"ws://{address(server)}/") as ws:
            await ws.send(json.dumps({"type": "watch", "version": 4, "code": server.code}))
            err = decode_server(await asyncio.wait_for(ws.recv(), 5))
        assert err.code == "version" and err.server_version == 6 and err.fatal


def test_a_watcher_refuses_what_no_onlooker_may_be_sent():
    """The decoder bounds an Onlooker as strictly as an Update: no hand, no draw's tile, a
    view its rules could give; and a seat's Update is never taken by a watcher."""
    from mexitrain.net.protocol import ProtocolError, check_follows
    from mexitrain.rules import RuleSet, new_game, view

    state = new_game(RuleSet(), players=3, seed=2)
    good = Onlooker(seq=0, view=onlooker(state), names=("A", "B", "C"), kinds=("person",) * 3)
    assert decode_server(encode(good)) == good

    def refused(data) -> dict:
        try:
            decode_server(json.dumps(data))
        except ProtocolError as exc:
            return exc.values
        raise AssertionError("taken")

    data = json.loads(encode(good))
    assert refused({**data, "view": {**data["view"], "hand": [[1, 2]]}})["reason"] == "unknown_field"
    draw = {"type": "draw", "seat": 0, "tile": [1, 2], "train": None, "branch": 0}
    assert refused({**data, "view": {**data["view"], "events": [draw]}})["field"] == "view.events"
    assert refused({**data, "view": {**data["view"], "hand_sizes": [15, 15, 99]}})["reason"] in ("out_of_range", "inconsistent")
    assert refused({**data, "names": ["A", "B"]})["field"] == "names"
    watching = Watching(table="ABCDEF")
    update = Update(seq=0, view=view(state, 0), names=("A", "B", "C"), kinds=("person",) * 3)
    try:
        check_follows(update, welcome=watching)
    except ProtocolError as exc:
        assert exc.values["reason"] == "inconsistent"
    else:
        raise AssertionError("a seat's view taken by a watcher")
    check_follows(good, welcome=watching)


async def test_a_rematch_does_not_wait_for_a_watcher_who_sees_the_new_game(tmp_path):
    """One person at the table: their rematch deals the new game at once, a watcher being
    there or not; the watcher's Rematch and Seen change nothing; it is sent the new game."""
    from mexitrain.net.bot import play_bot
    from mexitrain.net.protocol import Rematch, Seen

    setup = table(2, 1, rounds=1, seed=7, hand_size="5")
    async with served(setup, tmp_path) as server:
        w = Watcher(server)
        await until(lambda: w.of(Watching))
        bot = await asyncio.wait_for(
            play_bot(address(server), server.code, "Ann", backoff=FAST, rematches=1), 60
        )
        assert bot.error is None
        await until(lambda: server.game.games == 2 and server.state.over)
        await until(lambda: w.last is not None and w.last.view.phase == "game_over" and w.last.seq == server.seq
                    and w.last.view.seal == onlooker(server.state).seal)
        seals = {m.view.seal for m in w.of(Onlooker)}
        assert len(seals) == 2  # the first game and the rematch, each with its own seal
        await w.client.send(Rematch())
        await w.client.send(Seen(round=1))
        await w.client.send(Intent(seq=99, action=Draw()))  # answered after the two before it
        await until(lambda: any(m.seq == 99 for m in w.of(Refused)))
        assert server.game.rematch == set() and server.game.games == 2
        await w.close()
