"""One connection cannot flood everyone (docs/threat-model/flood.md): a seat taken back in a
loop, an address that connects too often or holds too many connections, a wrong code, and
seats coming and going are bounded per address and per seat, not per connection; the others
are not sent a message for each; the host hears of each kind once per window. Real sockets on
127.0.0.1 (and 127.0.0.2… as other addresses: the whole of 127/8 is this machine on Linux)."""

from __future__ import annotations

import asyncio
import contextlib
import time

from support.net import served, table, until
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from mexitrain.net.protocol import (
    Error,
    Hello,
    Intent,
    Lobby,
    Refused,
    Update,
    Welcome,
    decode_server,
    encode,
)
from mexitrain.net.server import Limits
from mexitrain.rules import DRAW

from .test_hostile import Raw, _still_served, _two_people


def _refusals(events):
    return [(v["why"], v["who"], v["count"]) for kind, v in events if kind == "refused"]


def _recorder(events):
    def on_event(kind, **values):
        events.append((kind, values))
    return on_event


async def _first_answer(port, hello, local="127.0.0.1"):
    """Connect from ``local``, say ``hello``, and return the first message (None: closed first)."""
    async with connect(f"ws://127.0.0.1:{port}/", local_addr=(local, 0)) as ws:
        with contextlib.suppress(ConnectionClosed):  # refused before it spoke
            await ws.send(encode(hello))
        try:
            return decode_server(await asyncio.wait_for(ws.recv(), 10))
        except ConnectionClosed:
            return None


def _count(raw, kinds):
    return sum(isinstance(m, kinds) for m in raw.seen)


async def _drain(raw, quiet=0.3):
    """Read what ``raw`` is sent until nothing comes for ``quiet`` seconds."""
    with contextlib.suppress(TimeoutError):
        while True:
            raw.seen.append(decode_server(await asyncio.wait_for(raw.ws.recv(), quiet)))


async def test_a_seat_taken_back_in_a_loop_is_refused_and_the_others_hear_nothing(tmp_path):
    """The issue's storm: a seat's token reconnecting as fast as it can. Past the seat's
    allowance each attempt is told ``too_many`` (not fatal: a real client retries later) and
    closed before the seat changes hands; the other seat is sent nothing for all of it (the
    seat never looked away); the host hears of it once."""
    events = []
    limits = Limits(seat_burst=5, seat_rate=0.001, log_window=60, coalesce=2.0)
    async with served(table(2, 2, seed=2), tmp_path, limits=limits, on_event=_recorder(events)) as server:
        a, b, _, _ = await _two_people(server)
        await _drain(b)
        b.seen.clear()
        token = server.seats[0].token
        answers = [await _first_answer(server.port, Hello(code=server.code, name="Ann", token=token)) for _ in range(30)]
        welcomed = [m for m in answers if isinstance(m, Welcome)]
        refused = [m for m in answers if isinstance(m, Error)]
        assert len(welcomed) == 5 and all(w.seat == 0 for w in welcomed)
        assert [(e.code, e.fatal) for e in refused] == [("too_many", False)] * 25
        await _drain(b)
        assert _count(b, (Lobby, Update)) <= 2  # today's server: two a reconnect, 60
        assert _refusals(events) == [("seat", "127.0.0.1", 1)]
        [said] = [v for k, v in events if k == "refused"]
        assert (said["seat"], said["name"]) == (0, "Ann")
        # the seat is still Ann's: her token (past the storm) takes it back, and the game goes on
        server._seat_attempts.get(0).tokens = 1
        ann = await Raw.join(server, "Ann", token=token)
        assert (await ann.next(Welcome)).seat == 0
        await ann.next(Update)
        await _still_served(server, ann, b)


async def _cut_at_once(port, local="127.0.0.1") -> bool:
    """A connection from ``local`` closed before it became a WebSocket."""
    reader, writer = await _held(port, local)
    try:
        return await _closed_at_once(reader)
    finally:
        writer.close()


async def test_an_address_that_connects_too_often_is_refused_and_others_are_not(tmp_path):
    """Per address, not per connection: past its allowance an address's connection is told
    ``too_many`` at once, whatever it would have said; for ``hush`` seconds after that its
    next ones are closed without a word (no handshake to pay for), then told again. Another
    address is served."""
    events = []
    limits = Limits(attempts_burst=6, attempts_rate=0.001, log_window=60, hush=1.0)
    async with served(table(2, 2, seed=2), tmp_path, limits=limits, on_event=_recorder(events)) as server:
        a, b, _, _ = await _two_people(server)  # two of 127.0.0.1's six
        stranger = Hello(code=server.code, name="Eve", token="NoSuchToken_123456")
        answers = [await _first_answer(server.port, stranger) for _ in range(5)]
        assert [m.code for m in answers] == ["bad_token"] * 4 + ["too_many"]
        told = time.monotonic()
        cut = [await _cut_at_once(server.port) for _ in range(5)]
        if time.monotonic() - told < 1.0:  # (a machine too busy to try five times in a second says nothing)
            assert cut == [True] * 5
        await asyncio.sleep(max(0.0, told + 1.0 - time.monotonic()))
        # told again, even with the seat's own token from that address
        assert (await _first_answer(server.port, Hello(code=server.code, name="Ann", token=server.seats[0].token))).code == "too_many"
        # another address has its own allowance
        assert (await _first_answer(server.port, stranger, local="127.0.0.2")).code == "bad_token"
        assert ("attempts", "127.0.0.1", 1) in _refusals(events)
        await _still_served(server, a, b)


async def _held(port, local):
    """A TCP connection from ``local`` that never says a word (a half-open handshake)."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(local, 0))


async def _closed_at_once(reader) -> bool:
    try:
        return await asyncio.wait_for(reader.read(1), 10) == b""
    except ConnectionResetError:
        return True


async def test_connections_are_capped_per_address_and_in_all(tmp_path):
    """Over its address's cap, or over the total, a new TCP connection is closed before a byte
    is read; the seats already there play on, and a slot freed is a slot again."""
    events = []
    limits = Limits(per_address=4, max_connections=6, log_window=60)
    async with served(table(2, 2, seed=2), tmp_path, limits=limits, on_event=_recorder(events)) as server:
        a, b, _, _ = await _two_people(server)  # 127.0.0.1 holds 2
        held = [await _held(server.port, "127.0.0.1") for _ in range(2)]
        await until(lambda: server._admission.count == 4)
        reader, writer = await _held(server.port, "127.0.0.1")
        assert await _closed_at_once(reader)  # 127.0.0.1 holds 4 already
        writer.close()
        held += [await _held(server.port, "127.0.0.2") for _ in range(2)]
        await until(lambda: server._admission.count == 6)
        reader, writer = await _held(server.port, "127.0.0.3")
        assert await _closed_at_once(reader)  # the table holds 6 already
        writer.close()
        assert _refusals(events) == [("connections", "127.0.0.1", 1), ("full", None, 1)]
        await _still_served(server, a, b)
        for _, w in held:
            w.close()
        await until(lambda: server._admission.count == 2)
        assert (await _first_answer(server.port, Hello(code=server.code, name="Cy"), local="127.0.0.3")).code == "table_full"


async def test_a_wrong_code_is_answered_late_and_said_without_holding_up_the_table(tmp_path):
    events = []
    limits = Limits(wrong_code_delay=3.0, log_window=60)
    async with served(table(2, 2, seed=2), tmp_path, limits=limits, on_event=_recorder(events)) as server:
        a, b, _, _ = await _two_people(server)
        started = time.monotonic()
        guess = asyncio.create_task(_first_answer(server.port, Hello(code="ZZZZZZ", name="Eve"), local="127.0.0.2"))
        await until(lambda: _refusals(events) == [("wrong_code", "127.0.0.2", 1)])
        await _still_served(server, a, b)  # the table plays on meanwhile
        answer = await asyncio.wait_for(guess, 10)
        assert (answer.code, answer.fatal) == ("wrong_code", True)
        assert time.monotonic() - started >= 3.0


async def test_what_is_refused_is_said_once_per_window(tmp_path):
    """The first refusal at once, then one count for the rest of the window; a quiet window
    says nothing and forgets the address, whose next refusal is said at once again."""
    events = []
    limits = Limits(attempts_burst=1, attempts_rate=0.001, log_window=1.5, hush=0)
    async with served(table(2, 2, seed=2), tmp_path, limits=limits, on_event=_recorder(events)) as server:
        hello = Hello(code=server.code, name="Eve")
        answers = [await _first_answer(server.port, hello) for _ in range(10)]
        assert isinstance(answers[0], Welcome) and [m.code for m in answers[1:]] == ["too_many"] * 9
        await until(lambda: len(_refusals(events)) == 2)
        assert _refusals(events) == [("attempts", "127.0.0.1", 1), ("attempts", "127.0.0.1", 8)]
        await until(lambda: server._refusals._counts == {})  # a quiet window: forgotten
        assert len(_refusals(events)) == 2
        await _first_answer(server.port, hello)
        assert _refusals(events)[2:] == [("attempts", "127.0.0.1", 1)]


async def test_changes_within_a_tick_make_one_lobby(tmp_path):
    """Three people sit down within one tick: the first one is sent one lobby with all of
    them, not one lobby each."""
    limits = Limits(coalesce=1.0)
    async with served(table(5, 5, seed=2), tmp_path, limits=limits, start_when_full=None) as server:
        first = await Raw.join(server, "Ann")
        await first.next(Welcome)
        assert [s.name for s in (await first.next(Lobby)).seats if s.kind == "person"] == ["Ann"]
        others = []
        for name in ("Bob", "Cy", "Dee"):
            others.append(await Raw.join(server, name))
            await others[-1].next(Welcome)
        lobby = await first.next(Lobby)
        assert [s.name for s in lobby.seats if s.kind == "person"] == ["Ann", "Bob", "Cy", "Dee"]
        await _drain(first)
        assert _count(first, Lobby) == 2
        for raw in others:  # each newcomer gets the lobby once too
            await _drain(raw)
            assert _count(raw, Lobby) == 1


async def test_seats_that_go_and_come_back_are_told_to_the_others_once(tmp_path):
    """A seat drops and comes back several times (each time allowed): the others are told of
    it at the end of the tick, once, and not at all if the seat came back within it."""
    limits = Limits(coalesce=1.0, seat_burst=100)
    async with served(table(3, 3, seed=2), tmp_path, limits=limits) as server:
        a = await Raw.join(server, "Ann")
        await a.next(Welcome)
        b = await Raw.join(server, "Bob")
        await b.next(Welcome)
        c = await Raw.join(server, "Cy")
        await c.next(Welcome)
        await c.next(Update)
        await _drain(b, quiet=1.5)
        b.seen.clear()
        token = server.seats[0].token
        for _ in range(5):  # Ann drops and is back within the tick, five times
            await a.ws.close()
            await until(lambda: server.seats[0].conn is None)
            a = await Raw.join(server, "Ann", token=token)
            await a.next(Welcome)
        await a.next(Update)  # the tick is over
        await _drain(b, quiet=0.5)
        assert _count(b, (Lobby, Update)) == 0  # nothing Bob sees has changed
        await a.ws.close()  # Ann goes for good: once
        upd = await b.next(Update)
        assert [w.seat for w in upd.away] == [0]
        await _drain(b, quiet=1.5)
        assert _count(b, Update) == 1 and _count(b, Lobby) == 1


async def test_a_flood_allowance_is_the_seats_not_the_connections(tmp_path):
    """Reconnecting gives no fresh allowance of messages: the seat's bucket goes with it."""
    limits = Limits(burst=20, rate=0.01, close_timeout=0.5)
    async with served(table(2, 2, seed=2), tmp_path, limits=limits) as server:
        a, b, _, _ = await _two_people(server)
        other = 1 - server.state.turn
        raw = (a, b)[other]
        for i in range(15):  # not its turn: each refused, each counted
            await raw.ws.send(encode(Intent(seq=i, action=DRAW)))
            await raw.next(Refused)
        await raw.ws.close()
        await until(lambda: server.seats[other].conn is None)
        again = await Raw.join(server, "X", token=server.seats[other].token)
        await again.next(Update)
        with contextlib.suppress(ConnectionClosed):
            for i in range(10):
                await again.ws.send(encode(Intent(seq=100 + i, action=DRAW)))
        seen = await again.closed()
        assert [m.code for m in seen if isinstance(m, Error)] == ["flood"]
        assert _count(again, Refused) <= 5
