"""The turn timer over real WebSockets on 127.0.0.1 (issue #35 item 5; docs/protocol.md): a
person's turn that runs past the timer is played with that seat's expert tip (deterministic,
on its own view), the Updates say so and give the clock; a seat away is played the same way;
no timer by default; ``mexitrain host --turn-time`` in one line when bad. The server's clock
is injected: the tests move it and call ``check_clock``, they never wait for real seconds."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

import pytest
from support.net import FAST, address, served, table, until

from mexitrain import cli
from mexitrain.commands import host as host_command
from mexitrain.game_setup import seat_seed
from mexitrain.net import protocol
from mexitrain.net.client import TableClient
from mexitrain.net.protocol import Error, Intent, Lobby, StartGame, Update, Welcome
from mexitrain.net.server import TIMER_STRIDE, TableServer
from mexitrain.players.hint import hint
from mexitrain.rules import apply, view
from mexitrain.storage import tokens


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Guest:
    """A client that only listens (it moves when the test says)."""

    def __init__(self, server: TableServer, name: str, token: str | None = None) -> None:
        self.client = TableClient(address(server), server.code, name, data_dir=None, backoff=FAST, token=token)
        self.messages: list[Any] = []
        self.task = asyncio.get_running_loop().create_task(self.client.run(self.messages.append))

    @property
    def seat(self) -> int | None:
        w = next((m for m in self.messages if isinstance(m, Welcome)), None)
        return None if w is None else w.seat

    def updates(self) -> list[Update]:
        return [m for m in self.messages if isinstance(m, Update)]

    def last(self) -> Update | None:
        ups = self.updates()
        return ups[-1] if ups else None

    async def leave(self) -> None:
        await self.client.close()
        await asyncio.wait_for(self.task, 10)


def _journal(root, code) -> list[tuple[int, dict]]:
    return list(tokens.read_journal(root, code))


def _tip(server: TableServer, state, seat: int):
    return hint(view(state, seat, server.setup.seed_chosen), None, seat_seed(server.setup.seed, seat, TIMER_STRIDE))[0]


async def test_a_turn_past_the_timer_is_played_with_the_seats_expert_tip_and_the_update_says_so(tmp_path):
    clock = Clock()
    events: list[tuple[str, dict]] = []
    setup = table(2, 2, seed=6, hand_size="5")
    async with served(setup, tmp_path, turn_time=30, clock=clock, on_event=lambda k, **v: events.append((k, v))) as server:
        guests = [Guest(server, "Ann"), Guest(server, "Ben")]
        await until(lambda: all(g.last() is not None for g in guests))
        before = server.state
        turn = before.turn
        # the clock: the whole timer is left on the turn just begun, for both seats to count down
        for g in guests:
            assert g.last().turn_time == 30 and g.last().turn_left == 30 and g.last().timed is None
        lobby = next(m for m in guests[0].messages if isinstance(m, Lobby) and m.started)
        assert lobby.turn_time == 30 and lobby.absent == "computer"
        expected = _tip(server, before, turn)
        # 29 s in: the turn is still the person's; their own move is theirs, not the timer's
        clock.now += 29
        server.check_clock()
        mover = next(g for g in guests if g.seat == turn)
        own = next(a for a in view(before, turn).legal if apply(before, a).turn != turn)  # a move ending the turn
        await mover.client.send(Intent(seq=1, action=own))
        await until(lambda: server.seq >= 1 and all(g.last().seq >= 1 for g in guests))
        assert _journal(tmp_path, server.code)[0] == (1, own.model_dump(mode="json"))
        assert all(u.timed is None for g in guests for u in g.updates())
        assert not any(k == "timed" for k, _ in events)
        # the next person's turn runs out: the timer plays their seat's expert tip
        state = server.state
        assert state.turn != turn  # a single laid: the other seat's turn, its clock just begun
        seat = state.turn
        expected = _tip(server, state, seat)
        mark = server.seq
        clock.now += 31
        server.check_clock()
        await until(lambda: server.seq > mark and all(g.last().seq > mark for g in guests))
        line = _journal(tmp_path, server.code)[mark]
        assert line == (mark + 1, expected.model_dump(mode="json"))  # the seat's own tip, deterministic
        for g in guests:
            timed = next(u for u in g.updates() if u.seq == mark + 1)
            assert timed.timed == seat  # the client words it: "Time ran out: … played for Ben"
        assert ("timed", {"name": server.seats[seat].name, "seat": seat}) in events
        assert server.seats[seat].kind == "person" and not server.seats[seat].handed  # still theirs
        for g in guests:
            await g.leave()


async def test_the_timer_plays_every_action_of_a_turn_that_ran_out_then_counts_the_next_one(tmp_path):
    """A turn that ran out is played to its end (a draw then a marker are one turn); the next
    person's turn starts with the whole timer."""
    clock = Clock()
    setup = table(2, 2, seed=11, hand_size="5")
    async with served(setup, tmp_path, turn_time=10, clock=clock) as server:
        guests = [Guest(server, "Ann"), Guest(server, "Ben")]
        await until(lambda: all(g.last() is not None for g in guests))
        first = server.state.turn
        clock.now += 11
        server.check_clock()
        await until(lambda: server.state.turn != first or server.state.over)
        assert server.errors == 0
        await until(lambda: all(g.last().seq == server.seq for g in guests))
        last = guests[0].last()
        if not server.state.over:
            assert last.turn_left == 10  # the other seat's turn: its own whole timer
            assert last.timed == first  # the move that ended the turn was the timer's
        for g in guests:
            await g.leave()


async def test_a_seat_away_longer_than_the_timer_is_played_the_same_way(tmp_path, monkeypatch):
    from mexitrain.players import hint as hint_module

    asked: list = []

    def watched(v, *args):
        asked.append(v)
        return hint(v, *args)

    monkeypatch.setattr(hint_module, "hint", watched)
    clock = Clock()
    setup = table(2, 2, seed=5, hand_size="5")
    async with served(setup, tmp_path, turn_time=20, clock=clock) as server:
        guests = [Guest(server, "Ann"), Guest(server, "Ben")]
        await until(lambda: all(g.last() is not None for g in guests))
        turn = server.state.turn
        away = next(g for g in guests if g.seat == turn)
        stays = next(g for g in guests if g is not away)
        await away.leave()
        await until(lambda: server.seats[turn].conn is None and any(
            a.seat == turn for a in (stays.last().away if stays.last() else ())))
        assert stays.last().turn_left is not None  # an away seat's turn is counted too
        state, mark = server.state, server.seq
        expected = _tip(server, state, turn)
        clock.now += 21
        server.check_clock()
        await until(lambda: server.seq > mark and stays.last().seq > mark)
        assert _journal(tmp_path, server.code)[mark] == (mark + 1, expected.model_dump(mode="json"))
        assert next(u for u in stays.updates() if u.seq == mark + 1).timed == turn
        # the tip was chosen on that seat's own view, the one it is sent: never another hand
        assert asked[0] == view(state, turn, server.setup.seed_chosen)
        assert all(h is None for i, h in enumerate(asked[0].hands) if i != turn)
        assert server.seats[turn].kind == "person" and server.seats[turn].conn is None  # the seat still waits for them
        await stays.leave()


async def test_no_timer_by_default_and_the_host_may_set_one_when_starting(tmp_path):
    setup = table(2, 2, seed=5, hand_size="5")
    async with served(setup, tmp_path) as server:
        guests = [Guest(server, "Ann"), Guest(server, "Ben")]
        await until(lambda: all(g.last() is not None for g in guests))
        assert server.game.turn_time is None and server.game.turn_remaining() is None
        for g in guests:
            u = g.last()
            assert u.turn_time is None and u.turn_left is None and u.timed is None and u.rematch == ()
        for g in guests:
            await g.leave()
    # the host's StartGame carries a timer
    root = tmp_path / "host"
    clock = Clock()
    async with served(setup, root, start_when_full=None, clock=clock) as server:
        host = Guest(server, "Host", token=server.host_token)
        guests = [Guest(server, "Ann"), Guest(server, "Ben")]
        await until(lambda: host.client.welcome is not None and all(g.seat is not None for g in guests))
        await host.client.send(StartGame(level="random", turn_time=45))
        await until(lambda: all(g.last() is not None for g in guests))
        assert server.game.turn_time == 45
        assert all(g.last().turn_time == 45 and g.last().turn_left == 45 for g in guests)
        # only the host starts, and a timer is 0 (none) or 10 to 600 seconds
        await guests[0].client.send(StartGame(level="random", turn_time=30))
        await until(lambda: any(isinstance(m, Error) for m in guests[0].messages))
        assert [m.code for m in guests[0].messages if isinstance(m, Error)] == ["not_host"]
        for g in (host, *guests):
            await g.leave()


@pytest.mark.parametrize("value, ok", [(0, True), (10, True), (600, True), (9, False), (601, False), (-1, False), ("30", False)])
def test_start_games_turn_time_is_bounded(value, ok):
    text = json.dumps({"type": "start", "level": "random", "turn_time": value})
    if ok:
        assert protocol.decode_client(text).turn_time == value
    else:
        with pytest.raises(protocol.ProtocolError) as caught:
            protocol.decode_client(text)
        assert caught.value.code == "bad_message" and caught.value.values["field"] == "turn_time"
    # an older client's start, without the field, is still read
    assert protocol.decode_client('{"type": "start", "level": "random"}').turn_time is None


@pytest.mark.parametrize("value", ["5", "601", "ten", "1e3", "-30"])
def test_a_bad_turn_time_is_one_line_and_exit_2(capsys, tmp_path, value):
    status = cli.main(["host", "--data-dir", str(tmp_path), "--no-play", "--turn-time", value])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("mexitrain: error:") and "--turn-time" in err
    assert "Traceback" not in err


def test_the_turn_time_option_reaches_the_table(tmp_path):
    parser = argparse.ArgumentParser()
    host_command.add_arguments(parser)
    args = parser.parse_args(["--turn-time", "90", "--no-play", "--seed", "3"])
    server = host_command._new_server(args, tmp_path, "planner", "planner", None)
    assert server.game.turn_time == 90 and server.lobby().turn_time == 90
    args = parser.parse_args(["--no-play"])
    assert host_command._new_server(args, tmp_path, "planner", "planner", None).game.turn_time is None
    assert (host_command.TURN_TIME_MIN, host_command.TURN_TIME_MAX) == (protocol.TURN_TIME_MIN, protocol.TURN_TIME_MAX)


def test_the_hosts_log_says_what_the_timer_and_the_rematch_did():
    assert "Bea" in host_command._event_line("timed", name="Bea", seat=1)
    assert "2" in host_command._event_line("timed", name="Bea", seat=1)  # seats counted from 1
    assert "Bea" in host_command._event_line("rematch", name="Bea", seat=1)
    assert host_command._event_line("rematch_started")
    assert "\x1b" not in host_command._event_line("timed", name="B\x1bea", seat=0)


async def test_a_reopened_table_keeps_its_timer_and_rematch_choice_unless_the_host_gives_others(tmp_path):
    setup = table(2, 1, seed=7, hand_size="5")
    server = TableServer(setup, data_dir=tmp_path, open_seats=(1,), host_seat=0, turn_time=45, absent="wait")
    await server.start("127.0.0.1", 0)
    await server.stop()
    kept = tokens.load_table(tmp_path, server.code)
    assert (kept.turn_time, kept.absent) == (45, "wait")
    resumed = TableServer.resume(tmp_path, server.code)
    assert (resumed.game.turn_time, resumed.game.absent) == (45, "wait")
    assert resumed.lobby().turn_time == 45 and resumed.lobby().absent == "wait"
    again = TableServer.resume(tmp_path, server.code, turn_time=90, absent="computer")
    assert (again.game.turn_time, again.game.absent) == (90, "computer")
    # a table.json written before the timer existed: no timer, a computer for who left
    path = tokens.table_dir(tmp_path, server.code) / "table.json"
    old = json.loads(path.read_text())
    del old["turn_time"], old["absent"]
    path.write_text(json.dumps(old))
    older = TableServer.resume(tmp_path, server.code)
    assert (older.game.turn_time, older.game.absent) == (None, "computer")


async def test_the_next_round_waits_for_the_results_no_longer_than_the_timer(tmp_path):
    """With a timer, a person who never closes the round's results (never sends ``seen``)
    holds the next round up for a turn's time, no longer; without one it waits (tested in
    test_games)."""
    clock = Clock()
    events: list[tuple[str, dict]] = []
    setup = table(2, 2, rounds=2, seed=6, hand_size="3", set="6")
    async with served(setup, tmp_path, turn_time=30, clock=clock, on_event=lambda k, **v: events.append((k, v))) as server:
        guests = [Guest(server, "Ann"), Guest(server, "Ben")]
        await until(lambda: all(g.last() is not None for g in guests))
        for _ in range(200):  # every turn of round 1 played by the timer
            if server.state.results:
                break
            mark = server.seq
            clock.now += 31
            server.check_clock()
            await until(lambda mark=mark: server.seq > mark or server.state.results)
        assert len(server.state.results) == 1 and server.game.waiting == {0, 1}
        await until(lambda: all(g.last().waiting == (0, 1) for g in guests))
        clock.now += 29  # within the timer: the round still waits
        server.check_clock()
        await asyncio.sleep(0)
        assert server.game.waiting == {0, 1} and not any(k == "results_timed" for k, _ in events)
        clock.now += 2  # past it: the next round goes on without them
        server.check_clock()
        await until(lambda: all(g.last().waiting == () for g in guests))
        assert not server.game.waiting
        assert [(k, v["seat"]) for k, v in events if k == "results_timed"] == [("results_timed", 0), ("results_timed", 1)]
        assert all(g.last().turn_left == 30 for g in guests)  # round 2's first turn: the whole timer
        for g in guests:
            await g.leave()


def test_the_hosts_log_says_the_next_round_went_on():
    assert "Bea" in host_command._event_line("results_timed", name="Bea", seat=1)
