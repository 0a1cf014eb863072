"""Hostile or broken clients never crash the server nor disturb another seat
(docs/protocol.md, "Errors"); refused intents carry the rules' own code and values (§5-§8)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket

import pytest
from support.net import bots, served, table, until
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from mexitrain.net.protocol import (
    MAX_CLIENT_MESSAGE,
    PROTOCOL_VERSION,
    Error,
    HandOver,
    Hello,
    Intent,
    Lobby,
    Refused,
    StartGame,
    Update,
    Welcome,
    decode_server,
    encode,
    refusal,
)
from mexitrain.net.server import Limits
from mexitrain.rules import DRAW, MARK, PASS, SKIP, IllegalAction, Play, apply, legal_actions


class Raw:
    """A client on a bare WebSocket: sends what it is told, reads what comes."""

    def __init__(self, ws):
        self.ws = ws
        self.seen: list = []

    @classmethod
    async def join(cls, server, name="Raw", token=None, code=None, **kw):
        ws = await connect(f"ws://127.0.0.1:{server.port}/", max_size=2**20, **kw)
        raw = cls(ws)
        await ws.send(encode(Hello(code=code or server.code, name=name, token=token)))
        return raw

    async def next(self, kind, timeout=10.0):
        """The next message of type ``kind`` (others are kept in ``seen``)."""
        async def read():
            while True:
                msg = decode_server(await self.ws.recv())
                self.seen.append(msg)
                if isinstance(msg, kind):
                    return msg
        return await asyncio.wait_for(read(), timeout)

    async def closed(self, timeout=10.0):
        """Read until the server closes the connection; the messages read before."""
        async def read():
            try:
                while True:
                    self.seen.append(decode_server(await self.ws.recv()))
            except ConnectionClosed:
                return self.seen
        return await asyncio.wait_for(read(), timeout)


async def _two_people(server):
    a = await Raw.join(server, "Ann")
    wa = await a.next(Welcome)
    b = await Raw.join(server, "Bob")
    wb = await b.next(Welcome)
    ua, ub = await a.next(Update), await b.next(Update)
    assert (wa.seat, wb.seat) == (0, 1)
    return a, b, ua, ub


async def _still_served(server, a, b):
    """The seat to move plays a legal move and both seats get the next update."""
    state = server.state
    mover = a if state.turn == 0 else b
    seq = server.seq
    await mover.ws.send(encode(Intent(seq=999, action=legal_actions(state)[0])))
    for raw in (a, b):
        while (await raw.next(Update)).seq <= seq:
            pass


async def test_refusals_carry_the_rules_code_and_values(tmp_path):
    """§5-§8: every illegal intent comes back as the local apply refuses it; the connection
    stays open and the seat plays on."""
    async with served(table(2, 2, seed=9), tmp_path) as server:
        a, b, ua, ub = await _two_people(server)
        turn = server.state.turn
        mover, other = (a, b) if turn == 0 else (b, a)
        tried = 0
        for action in [DRAW, MARK, PASS, SKIP, Play(tile=(12, 12), train=0), Play(tile=(0, 1), train="mexican"),
                       Play(tile=(5, 6), train=7), Play(tile=(1, 2), train=0, branch=3)]:
            state = server.state
            try:
                apply(state, action)
                continue
            except IllegalAction as exc:
                expected = exc
            tried += 1
            await mover.ws.send(encode(Intent(seq=tried, action=action)))
            got = await mover.next(Refused)
            assert got.seq == tried
            back = refusal(got)
            assert (back.code, back.values) == (expected.code, expected.values)
        assert tried >= 4
        # another seat's intent: not its turn, whose turn it is said
        await other.ws.send(encode(Intent(seq=50, action=legal_actions(server.state)[0])))
        got = await other.next(Refused)
        assert (got.seq, got.code, got.values) == (50, "not_your_turn", {"turn": turn})
        await _still_served(server, a, b)


@pytest.mark.parametrize(
    "payload, code",
    [
        ("{not json", "bad_json"),
        ("[]", "bad_json"),
        ('{"type": "launch_missiles"}', "unknown_type"),
        ('{"type": "intent", "seq": 1, "action": {"type": "draw"}, "x": 1}', "bad_message"),
        ('{"type": "intent", "seq": 1, "action": {"type": "play", "tile": [1, 99], "train": 0}}', "bad_message"),
        (json.dumps({"type": "bye", "pad": "x" * (MAX_CLIENT_MESSAGE + 10)}), "too_big"),
        (b'{"type": "intent", "seq": 1, "action": {"type": "warp"}}', "bad_message"),
        ('{"type": "hello", "code": "AAAAAA", "name": "again"}', "hello_first"),
        ('{"type": "start", "level": "random"}', "not_host"),
        ('{"type": "hand_over", "seat": 1, "level": "random"}', "not_host"),
    ],
)
async def test_a_bad_message_is_an_error_and_the_table_goes_on(tmp_path, payload, code):
    async with served(table(2, 2, seed=2), tmp_path) as server:
        a, b, _, _ = await _two_people(server)
        await a.ws.send(payload)
        err = await a.next(Error)
        assert (err.code, err.fatal) == (code, False)
        await _still_served(server, a, b)
        assert server.errors == 0


async def test_a_frame_over_the_hard_cap_closes_only_that_connection(tmp_path):
    async with served(table(2, 2, seed=2), tmp_path) as server:
        a, b, _, _ = await _two_people(server)
        await a.ws.send("x" * (server.limits.frame_cap + 1))
        await a.closed()
        assert a.ws.close_code == 1009  # message too big
        await until(lambda: server.seats[0].conn is None)
        # seat 0 comes back with its token and the game goes on
        a2 = await Raw.join(server, "Ann", token=server.seats[0].token)
        assert (await a2.next(Welcome)).seat == 0
        await a2.next(Update)
        await _still_served(server, a2, b)


@pytest.mark.parametrize(
    "hello, code",
    [
        (dict(code="ZZZZZZ"), "wrong_code"),
        (dict(token="NoSuchToken_123456"), "bad_token"),
        (dict(version=PROTOCOL_VERSION + 1), "version"),
    ],
)
async def test_a_refused_join_is_one_fatal_error(tmp_path, hello, code):
    async with served(table(2, 2, seed=2), tmp_path) as server:
        a, b, _, _ = await _two_people(server)
        ws = await connect(f"ws://127.0.0.1:{server.port}/")
        data = {"type": "hello", "version": PROTOCOL_VERSION, "code": server.code, "name": "Eve", "token": None, "lang": "en"}
        data.update(hello)
        await ws.send(json.dumps(data))
        raw = Raw(ws)
        seen = await raw.closed()
        assert [(m.code, m.fatal) for m in seen] == [(code, True)]
        if code == "version":
            assert seen[0].server_version == PROTOCOL_VERSION and seen[0].values == {"version": PROTOCOL_VERSION + 1}
        await _still_served(server, a, b)


@pytest.mark.parametrize("first", ["garbage", '{"type": "bye"}', None])
async def test_a_connection_must_start_with_hello(tmp_path, first):
    limits = Limits(hello_timeout=0.5)
    async with served(table(2, 2, seed=2), tmp_path, limits=limits) as server:
        a, b, _, _ = await _two_people(server)
        ws = await connect(f"ws://127.0.0.1:{server.port}/")
        if first is not None:
            await ws.send(first)
        seen = await Raw(ws).closed()
        assert len(seen) == 1 and seen[0].fatal and seen[0].code in ("bad_json", "hello_first")
        await _still_served(server, a, b)


async def test_a_full_table_and_a_started_game_refuse_newcomers(tmp_path):
    async with served(table(2, 2, seed=2), tmp_path) as server:
        a, b, _, _ = await _two_people(server)
        c = await Raw.join(server, "Cy")
        seen = await c.closed()
        assert [(m.code, m.fatal) for m in seen] == [("table_full", True)]
        await _still_served(server, a, b)


async def test_people_who_give_one_name_are_told_apart(tmp_path):
    """One name, one player (at the table, in the log, in each one's statistics): a newcomer
    whose name a seat already has, whatever its case, sits as "name 2", "name 3"…, and so does
    a person who comes back before the deal under a name another seat has."""
    async with served(table(4, 4, seed=2), tmp_path, start_when_full=None) as server:
        people = []
        for name in ("Sam", "sam", "Sam", "Ann"):
            people.append(await Raw.join(server, name))
            await people[-1].next(Welcome)
        assert [s.name for s in server.seats] == ["Sam", "sam 2", "Sam 3", "Ann"]
        lobby = await people[3].next(Lobby)
        assert [seat.name for seat in lobby.seats] == ["Sam", "sam 2", "Sam 3", "Ann"]
        again = await Raw.join(server, "SAM", token=server.seats[3].token)
        assert (await again.next(Welcome)).seat == 3
        assert [s.name for s in server.seats] == ["Sam", "sam 2", "Sam 3", "SAM 4"]
        assert server.errors == 0


async def test_a_replayed_token_takes_the_seat_over(tmp_path):
    """The token is the seat: a second connection with it takes the seat, the first is told
    "replaced" and closed, and the other seat never notices."""
    async with served(table(2, 2, seed=2), tmp_path) as server:
        a, b, _, _ = await _two_people(server)
        thief = await Raw.join(server, "Thief", token=server.seats[0].token)
        assert (await thief.next(Welcome)).seat == 0
        await thief.next(Update)
        seen = await a.closed()
        assert [m.code for m in seen if isinstance(m, Error)] == ["replaced"]
        await _still_served(server, thief, b)


async def test_a_flood_is_cut_off(tmp_path):
    limits = Limits(burst=20, rate=5, close_timeout=0.5)
    async with served(table(2, 2, seed=2), tmp_path, limits=limits) as server:
        a, b, _, _ = await _two_people(server)
        other = 1 - server.state.turn
        flooder = (a, b)[other]
        with contextlib.suppress(ConnectionClosed):
            for i in range(500):
                await flooder.ws.send(encode(Intent(seq=i, action=DRAW)))
        seen = await flooder.closed()
        errors = [m for m in seen if isinstance(m, Error)]
        assert errors and (errors[-1].code, errors[-1].fatal) == ("flood", True)
        refused = [m for m in seen if isinstance(m, Refused)]
        assert len(refused) <= 20  # what was queued before the cut may be dropped with it
        # the flooder's seat waits for its person; the other seat is still served
        await until(lambda: server.seats[other].conn is None)
        good = (a, b)[1 - other]
        upd = await good.next(Update)
        assert [w.seat for w in upd.away] == [other]


async def test_moves_the_table_plays_are_not_counted_as_a_flood(tmp_path):
    """A bot against a computer seat plays as fast as the server answers: far more intents than
    the bucket holds, each one played, and it is never cut off."""
    limits = Limits(burst=5, rate=1)
    async with served(table(2, 1, seed=5), tmp_path, limits=limits) as server:
        [bot] = await bots(server, 1, timeout=60)
        assert bot.error is None and bot.last.view.phase == "game_over"
        assert server.state.over and sum(e.seat == 0 for e in server.state.results[0].events) > 5


async def test_a_slow_reader_is_dropped_without_holding_up_the_others(tmp_path):
    """A client that stops reading fills only its own queue: it is dropped ("too_slow"),
    the others are served, and it may come back with its token."""
    limits = Limits(send_queue=4, sndbuf=4096, write_limit=4096, close_timeout=0.5, seat_burst=1000)
    async with served(table(3, 3, seed=4), tmp_path, limits=limits) as server:
        a = await Raw.join(server, "Ann")
        await a.next(Welcome)
        b = await Raw.join(server, "Bob")
        await b.next(Welcome)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.connect(("127.0.0.1", server.port))
        slow = await Raw.join(server, "Slow", sock=sock)
        await until(lambda: server.started)
        a_token = server.seats[0].token
        # seat 0 drops and comes back again and again: each time every seat is sent the lobby
        # and a view (Bob sees Ann away before she comes back); the slow client reads none of it
        for _ in range(60):
            if server.seats[2].conn is None:
                break
            await a.ws.close()
            await until(lambda: server.seats[0].conn is None)
            while not (await b.next(Update)).away:
                pass
            a = await Raw.join(server, "Ann", token=a_token)
            await a.next(Update)
        await until(lambda: server.seats[2].conn is None)
        # everything still queued for it is gone; "too_slow" is sent if the socket takes it
        seen = await slow.closed()
        assert [m.code for m in seen if isinstance(m, Error)] in ([], ["too_slow"])
        assert slow.ws.close_code in (1006, 1008)
        back = await Raw.join(server, "Slow", token=server.seats[2].token)
        assert (await back.next(Welcome)).seat == 2
        await back.next(Update)


async def test_the_host_starts_and_hands_a_seat_over(tmp_path):
    """StartGame and HandOver need the host's token; a seat handed over is played by a computer
    until its person comes back."""
    setup = table(3, 2, seed=6)
    async with served(setup, tmp_path, start_when_full=None, host_seat=0) as server:
        host = await Raw.join(server, "Host", token=server.host_token)
        assert (await host.next(Welcome)).host
        b = await Raw.join(server, "Bob")
        wb = await b.next(Welcome)
        assert (wb.seat, wb.host) == (1, False)
        await b.ws.send(encode(StartGame(level="random")))
        assert (await b.next(Error)).code == "not_host"
        await host.ws.send(encode(HandOver(seat=1, level="random")))
        assert (await host.next(Error)).code == "bad_seat"  # Bob is here
        await host.ws.send(encode(StartGame(level="random")))
        await host.next(Update)
        await host.ws.send(encode(StartGame(level="random")))
        assert (await host.next(Error)).code == "started"
        bob_token = server.seats[1].token
        await b.ws.close()
        await until(lambda: server.seats[1].conn is None)
        await host.ws.send(encode(HandOver(seat=1, level="random")))
        await until(lambda: server.seats[1].handed)
        # the computer plays for Bob whenever it is his turn (the host plays its own turns)
        def bobs():
            return sum(e.seat == 1 for e in server.state.events)

        before = bobs()
        while bobs() == before:
            seq = server.seq
            if server.state.turn == 0:
                await host.ws.send(encode(Intent(seq=seq, action=legal_actions(server.state)[0])))
            await until(lambda seq=seq: server.seq > seq)
        b2 = await Raw.join(server, "Bob", token=bob_token)
        assert (await b2.next(Welcome)).seat == 1
        upd = await b2.next(Update)
        assert upd.kinds[1] == "person" and not server.seats[1].handed
        assert server.errors == 0
