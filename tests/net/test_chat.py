"""Chat and removing a person over real WebSockets on 127.0.0.1 (issue #35 item 4;
docs/protocol.md#chat): a line reaches every seat with its speaker; a line over 200 characters
is refused (never cut); control characters and markup arrive as plain data; each seat may say
5 lines in 10 seconds; who comes back is given the last lines; the host removes a person,
whose token stops working and whose seat a computer plays; nobody else may remove."""

from __future__ import annotations

import asyncio
import contextlib
import json

import pytest
import websockets
from support.net import FAST, address, table, until

from mexitrain.net.files import read_chat
from mexitrain.net.protocol import (
    CHAT_KEEP,
    Chat,
    Error,
    Hello,
    Lobby,
    Refused,
    Remove,
    Say,
    Update,
    Welcome,
    decode_server,
    encode,
)
from mexitrain.net.server import TableServer
from mexitrain.text.chat import CHAT_MAX


class Clock:
    """A clock the test moves by hand (the chat's rate limit reads the table's clock)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Peer:
    """A raw client: every message it receives is kept, in order."""

    def __init__(self, server: TableServer, name: str, token: str | None = None) -> None:
        self.server, self.name, self.token = server, name, token
        self.messages: list = []
        self.ws = None
        self.task: asyncio.Task | None = None
        self.closed = False

    async def join(self) -> Peer:
        self.ws = await websockets.connect(f"ws://{address(self.server)}/")
        await self.ws.send(encode(Hello(code=self.server.code, name=self.name, token=self.token)))
        self.task = asyncio.create_task(self._read())
        await until(lambda: self.welcome is not None or self.fatal is not None)
        return self

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self.messages.append(decode_server(text))
        except websockets.ConnectionClosed:
            pass
        self.closed = True

    @property
    def welcome(self) -> Welcome | None:
        return next((m for m in self.messages if isinstance(m, Welcome)), None)

    @property
    def fatal(self) -> Error | None:
        return next((m for m in self.messages if isinstance(m, Error) and m.fatal), None)

    def of(self, kind) -> list:
        return [m for m in self.messages if isinstance(m, kind)]

    def chat(self) -> list:
        return [line for m in self.of(Chat) for line in m.lines]

    async def send(self, msg) -> None:
        await self.ws.send(encode(msg))

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        if self.task is not None:
            with contextlib.suppress(Exception):
                await self.task


@contextlib.asynccontextmanager
async def hosted(tmp_path, *, players: int = 3, persons: int = 3, host_seat: int | None = 0, start: bool = False,
                 seed: int = 7, **kw):
    setup = table(players, persons, seed=seed, hand_size="5")
    opens = tuple(i for i in range(persons) if i != host_seat)
    server = TableServer(setup, data_dir=tmp_path, open_seats=opens, host_seat=host_seat, **kw)
    await server.start("127.0.0.1", 0)
    peers: list[Peer] = []
    try:
        host = await Peer(server, "Host", server.host_token).join()
        peers.append(host)
        for i in range(len(opens)):
            peers.append(await Peer(server, f"P{i + 1}").join())
        if start:
            assert server.start_game("random")
            await until(lambda: all(p.of(Update) for p in peers))
        yield server, peers
    finally:
        for p in peers:
            await p.close()
        await server.stop()


async def test_a_line_reaches_every_seat_with_its_speaker(tmp_path):
    async with hosted(tmp_path) as (server, (host, ann, ben)):
        await ann.send(Say(seq=1, text="hello   there\n everyone"))
        await until(lambda: all(p.chat() for p in (host, ann, ben)))
        for p in (host, ann, ben):
            (line,) = p.chat()
            assert (line.seat, line.name, line.text, line.reaction) == (ann.welcome.seat, "P1", "hello there everyone", None)
            assert line.n == 1
        await ben.send(Say(seq=1, reaction="knock"))
        await until(lambda: all(len(p.chat()) == 2 for p in (host, ann, ben)))
        second = host.chat()[1]
        assert (second.n, second.name, second.reaction, second.text) == (2, "P2", "knock", None)


async def test_over_200_characters_is_refused_not_cut_and_empty_is_refused(tmp_path):
    async with hosted(tmp_path) as (server, (host, ann, ben)):
        await ann.send(Say(seq=5, text="x" * (CHAT_MAX + 1)))
        await ann.send(Say(seq=6, text=" \n\t\x1b\x00 "))
        await until(lambda: len(ann.of(Refused)) == 2)
        too_long, empty = ann.of(Refused)
        assert (too_long.seq, too_long.code, too_long.values) == (5, "chat_too_long", {"limit": CHAT_MAX})
        assert (empty.seq, empty.code) == (6, "chat_empty")
        # exactly 200 characters once normalised (the spaces around do not count) is a line
        await ann.send(Say(seq=7, text="  " + "y" * CHAT_MAX + "  "))
        await until(lambda: ben.chat())
        assert ben.chat()[0].text == "y" * CHAT_MAX
        # beyond what the wire carries at all: a bad message, the connection stays
        await ann.ws.send(json.dumps({"type": "say", "seq": 8, "text": "z" * 5000}))
        await until(lambda: any(isinstance(m, Error) and m.code == "bad_message" for m in ann.messages))
        assert not ann.closed


async def test_control_characters_and_markup_arrive_as_plain_data(tmp_path):
    hostile = "[bold]big[/bold] \x1b[2J\x1b]0;title\x07 \u202eevil\u2028next 漢字漢字 [link=http://x]y[/link]"
    async with hosted(tmp_path) as (server, (host, ann, ben)):
        await ann.send(Say(seq=1, text=hostile))
        await until(lambda: ben.chat())
        text = ben.chat()[0].text
        assert text == "[bold]big[/bold] [2J]0;title evil next 漢字漢字 [link=http://x]y[/link]"
        assert not any(ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F for ch in text)
        assert "\u202e" not in text and "\u2028" not in text


async def test_the_sixth_line_in_ten_seconds_is_refused_and_allowed_again_after(tmp_path):
    clock = Clock()
    async with hosted(tmp_path, clock=clock) as (server, (host, ann, ben)):
        for i in range(5):
            await ann.send(Say(seq=i, text=f"line {i}"))
        await until(lambda: len(ben.chat()) == 5)
        clock.now += 4
        await ann.send(Say(seq=5, text="one too many"))
        await until(lambda: ann.of(Refused))
        (refused,) = ann.of(Refused)
        assert (refused.seq, refused.code) == (5, "chat_too_fast")
        assert refused.values == {"lines": 5, "seconds": 10, "wait": 6}
        # another seat has its own limit
        await ben.send(Say(seq=1, text="me too"))
        await until(lambda: len(host.chat()) == 6)
        clock.now += 6  # ten seconds after the first line
        await ann.send(Say(seq=6, text="again"))
        await until(lambda: len(host.chat()) == 7)
        assert host.chat()[-1].text == "again"
        assert len(ann.of(Refused)) == 1


async def test_who_comes_back_is_given_the_last_lines(tmp_path):
    clock = Clock()
    async with hosted(tmp_path, clock=clock) as (server, (host, ann, ben)):
        for i in range(7):
            await host.send(Say(seq=i, text=f"line {i}"))
            await until(lambda i=i: len(ann.chat()) == i + 1)
            clock.now += 3
        await until(lambda: len(ann.chat()) == 7)
        token = ann.welcome.token
        await ann.close()
        again = await Peer(server, "P1", token).join()
        try:
            await until(lambda: again.of(Chat))
            first = again.of(Chat)[0]
            assert first.recent and [line.text for line in first.lines] == [f"line {i}" for i in range(7)]
            assert again.messages.index(again.welcome) < again.messages.index(first)
        finally:
            await again.close()
    # the chat is kept in the table's folder, and read back by a resumed table
    kept = read_chat(tmp_path / "tables" / server.code / "chat.jsonl")
    assert [line.text for line in kept] == [f"line {i}" for i in range(7)]
    resumed = TableServer.resume(tmp_path, server.code)
    assert [line.n for line in resumed.chat.lines] == list(range(1, 8))


async def test_the_table_keeps_at_most_its_bound_of_lines(tmp_path):
    clock = Clock()
    async with hosted(tmp_path, clock=clock) as (server, (host, ann, ben)):
        for i in range(CHAT_KEEP + 3):
            said = server.chat.say(0, "Host", Say(seq=i, text=f"l{i}"))
            server.files.said(said)
            clock.now += 10
        assert len(server.chat.lines) == CHAT_KEEP and server.chat.lines[0].text == "l3"
        back = await Peer(server, "P2", ben.welcome.token).join()
        try:
            await until(lambda: back.of(Chat))
            assert len(back.of(Chat)[0].lines) == CHAT_KEEP
        finally:
            await back.close()
    assert len(read_chat(tmp_path / "tables" / server.code / "chat.jsonl")) <= 2 * CHAT_KEEP


async def test_the_host_removes_a_person_who_cannot_come_back_and_a_computer_plays(tmp_path):
    events = []
    # seed 8: seat 1 (Ann's) plays first
    async with hosted(tmp_path, start=True, seed=8, on_event=lambda k, **v: events.append((k, v))) as (server, (host, ann, ben)):
        seat = ann.welcome.seat
        assert server.state.turn == seat
        token = ann.welcome.token
        await host.send(Remove(seat=seat, level="random"))
        await until(lambda: ann.fatal is not None and ann.closed)
        assert ann.fatal.code == "removed"
        assert server.seats[seat].kind == "computer" and server.seats[seat].level == "random"
        assert ("removed", {"name": "P1", "seat": seat}) in events
        # everyone's lobby and update show it: a computer plays the seat
        await until(lambda: any(
            isinstance(m, Lobby) and m.seats[seat].kind == "computer" for m in ben.messages))
        await until(lambda: ben.of(Update)[-1].kinds[seat] == "computer")
        # coming back with the token: a clear error, fatal
        back = await Peer(server, "P1", token).join()
        try:
            await until(lambda: back.closed)
            assert back.welcome is None and back.fatal is not None and back.fatal.code == "removed"
        finally:
            await back.close()
        # the computer plays the seat: the game goes on past its turn
        await until(lambda: server.seq > 0 and server.state.turn != seat)


async def test_only_the_host_removes_and_never_themselves(tmp_path):
    async with hosted(tmp_path) as (server, (host, ann, ben)):
        await ann.send(Remove(seat=ben.welcome.seat))
        await until(lambda: any(isinstance(m, Error) for m in ann.messages))
        (err,) = [m for m in ann.messages if isinstance(m, Error)]
        assert (err.code, err.fatal) == ("not_host", False)
        assert server.seats[ben.welcome.seat].kind == "person"
        await host.send(Remove(seat=host.welcome.seat))
        await until(lambda: any(isinstance(m, Error) for m in host.messages))
        (err,) = [m for m in host.messages if isinstance(m, Error)]
        assert (err.code, err.values) == ("bad_remove", {"seat": host.welcome.seat})
        assert not ben.closed and not host.closed


async def test_a_host_without_a_seat_cannot_say_but_reads(tmp_path):
    async with hosted(tmp_path, host_seat=None, players=2, persons=2) as (server, (host, ann, ben)):
        await host.send(Say(seq=3, text="hi"))
        await until(lambda: host.of(Refused))
        assert host.of(Refused)[0].code == "no_seat"
        await ann.send(Say(seq=1, reaction="nice"))
        await until(lambda: host.chat())
        assert host.chat()[0].reaction == "nice"


@pytest.mark.parametrize("raw", [
    {"type": "say", "seq": 1},
    {"type": "say", "seq": 1, "text": "a", "reaction": "nice"},
    {"type": "say", "seq": 1, "reaction": "[bold]"},
    {"type": "remove"},
])
async def test_a_bad_say_or_remove_is_a_bad_message(tmp_path, raw):
    async with hosted(tmp_path, players=2, persons=2) as (server, (host, ann)):
        await ann.ws.send(json.dumps(raw))
        await until(lambda: any(isinstance(m, Error) for m in ann.messages))
        assert [m.code for m in ann.messages if isinstance(m, Error)] == ["bad_message"]


async def test_a_finished_games_save_gets_the_chat_beside_it(tmp_path):
    from mexitrain.net.files import chat_beside
    from mexitrain.storage import saves_dir

    setup = table(2, 0, seed=3, hand_size="5")  # two computer players, a host without a seat
    server = TableServer(setup, data_dir=tmp_path, open_seats=(), host_seat=None)
    await server.start("127.0.0.1", 0)
    try:
        said = server.chat.say(0, "P0", Say(seq=1, text="gl hf"))
        server.files.said(said)
        assert server.start_game("random")
        await until(lambda: server.kept is not None, timeout=60)
    finally:
        await server.stop()
    kept = sorted(saves_dir(tmp_path).glob("table-*.json"))
    assert kept == [server.kept]
    assert [line.text for line in read_chat(chat_beside(server.kept))] == ["gl hf"]


@pytest.mark.parametrize("line, field, reason", [
    ({"n": 1, "seat": 0, "name": "Ann", "text": "hi\u001b[2J"}, "lines.0.text", "unprintable"),
    ({"n": 1, "seat": 0, "name": "Ann", "text": "\u200b"}, "lines.0.text", "invisible"),
    ({"n": 1, "seat": 0, "name": "A\u202en", "text": "hi"}, "lines.0.name", "unprintable"),
    ({"n": 1, "seat": 0, "name": "Ann", "text": "x" * (CHAT_MAX + 1)}, "lines.0.text", "out_of_range"),
    ({"n": 1, "seat": 0, "name": "Ann"}, "lines.0.text", "inconsistent"),
    ({"n": 1, "seat": 0, "name": "Ann", "text": "a", "reaction": "nice"}, "lines.0.text", "inconsistent"),
    ({"n": 1, "seat": 0, "name": "Ann", "reaction": "rm -rf"}, "lines.0.reaction", "bad_field"),
])
def test_a_guest_refuses_a_chat_line_a_hostile_host_could_harm_it_with(line, field, reason):
    from mexitrain.net.protocol import BAD_SERVER_MESSAGE, ProtocolError

    with pytest.raises(ProtocolError) as exc:
        decode_server(json.dumps({"type": "chat", "lines": [line]}))
    assert exc.value.code == BAD_SERVER_MESSAGE
    assert (exc.value.values["field"], exc.value.values["reason"]) == (field, reason)


def test_a_guest_refuses_chat_lines_out_of_order_or_too_many():
    from mexitrain.net.protocol import ProtocolError

    one = {"n": 2, "seat": 0, "name": "Ann", "text": "a"}
    with pytest.raises(ProtocolError):
        decode_server(json.dumps({"type": "chat", "lines": [one, {**one, "n": 1}]}))
    with pytest.raises(ProtocolError):
        decode_server(json.dumps({"type": "chat", "lines": [{**one, "n": i} for i in range(CHAT_KEEP + 1)]}))


async def test_a_removed_seat_stays_a_computers_and_its_token_removed_when_the_table_is_resumed(tmp_path):
    async with hosted(tmp_path, start=True) as (server, (host, ann, ben)):
        seat, token = ann.welcome.seat, ann.welcome.token
        await host.send(Remove(seat=seat, level="greedy"))
        await until(lambda: ann.closed)
        await server.files.table_saved()
    resumed = TableServer.resume(tmp_path, server.code)
    s = resumed.seats[seat]
    assert (s.kind, s.level, s.token) == ("computer", "greedy", None)
    assert resumed.game.seat_of_token(token) is None
    assert resumed.game.is_removed(token)  # still answered "removed": only its hash was kept
    assert token not in (tmp_path / "tables" / server.code / "removed.txt").read_text()
    await resumed.start("127.0.0.1", 0)
    try:
        back = await Peer(resumed, "P1", token).join()
        await until(lambda: back.closed)
        assert back.welcome is None and back.fatal.code == "removed"
        await back.close()
    finally:
        await resumed.stop()


def test_the_hosts_log_says_who_was_removed():
    from mexitrain.commands.host import _event_line

    assert _event_line("removed", name="Bea\x1b", seat=1) == "Bea\\x1b was removed from seat 2: a computer player takes it."


async def test_a_watcher_reads_the_chat_and_is_given_the_last_lines_but_says_nothing(tmp_path):
    from mexitrain.net.client import TableClient

    async with hosted(tmp_path) as (server, (host, ann, ben)):
        await ann.send(Say(seq=1, text="before the watcher"))
        await until(lambda: host.chat())
        seen: list = []
        watcher = TableClient(address(server), server.code, "", data_dir=None, backoff=FAST, watch=True)
        task = asyncio.get_running_loop().create_task(watcher.run(seen.append))
        try:
            await until(lambda: any(isinstance(m, Chat) and m.recent for m in seen))
            (recent,) = [m for m in seen if isinstance(m, Chat)]
            assert [line.text for line in recent.lines] == ["before the watcher"]
            await ben.send(Say(seq=1, reaction="nice"))
            await until(lambda: sum(isinstance(m, Chat) for m in seen) == 2)
            assert [m for m in seen if isinstance(m, Chat)][-1].lines[0].reaction == "nice"
            await watcher.send(Say(seq=1, text="from the stands"))
            await until(lambda: any(isinstance(m, Refused) and m.code == "no_seat" for m in seen))
            assert [line.text for line in host.chat()] == ["before the watcher", None]  # never said
        finally:
            await watcher.close()
            await asyncio.wait_for(task, 5)
