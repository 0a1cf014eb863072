"""A table its host closes on purpose says so (issue 23; docs/protocol.md, "Errors"): every
client is told ``table_closed`` and stops retrying; joining it again later is one error while
it stays closed, and works as ever once ``mexitrain host --resume`` reopens it. A server that
dies without a word keeps the clients retrying (tests/net/test_faults.py)."""

from __future__ import annotations

import asyncio

from support.net import FAST, address, table, until

from mexitrain.net.client import TableClient, closed_path, load_closed
from mexitrain.net.protocol import Error, Welcome
from mexitrain.net.server import TableServer
from mexitrain.rules import apply, legal_actions, new_game


class Seat:
    """A TableClient run in a task, with everything it reported."""

    def __init__(self, server_address: str, code: str, name: str, data_dir) -> None:
        self.client = TableClient(server_address, code, name, data_dir=data_dir, backoff=FAST)
        self.messages: list = []
        self.states: list[str] = []
        self.task = asyncio.create_task(self.client.run(self.messages.append, lambda st: self.states.append(st.state)))

    def welcomed(self) -> bool:
        return any(isinstance(m, Welcome) for m in self.messages)


def lobby_server(tmp_path) -> TableServer:
    return TableServer(table(3, 2), data_dir=tmp_path / "host", open_seats=(0, 1), host_seat=None)


async def test_the_host_closing_tells_every_client_and_they_stop_retrying(tmp_path):
    server = lobby_server(tmp_path)
    await server.start("127.0.0.1", 0)
    seats = [Seat(address(server), server.code, name, tmp_path / name) for name in ("Ann", "Bea")]
    await until(lambda: all(s.welcomed() for s in seats))
    await server.stop()
    for s in seats:
        ended = await asyncio.wait_for(s.task, 10)  # run() returns: no retrying
        assert ended == Error(code="table_closed", values={"resumable": True}, fatal=True)
        assert s.messages[-1] == ended
        assert "retrying" not in s.states and s.states[-1] == "closed"
        assert load_closed(tmp_path / s.client.name, s.client.address, s.client.code, s.client.name) is True


async def test_a_finished_game_closes_for_good(tmp_path):
    server = lobby_server(tmp_path)
    await server.start("127.0.0.1", 0)
    ann = Seat(address(server), server.code, "Ann", tmp_path / "Ann")
    await until(ann.welcomed)
    state = new_game(server.setup.rules, players=3, seed=1)
    while not state.over:
        state = apply(state, legal_actions(state)[0])
    server.game.state = state  # the game is over; Ann is still at the table
    await server.stop()
    ended = await asyncio.wait_for(ann.task, 10)
    assert ended.code == "table_closed" and ended.values == {"resumable": False}


async def test_joining_a_closed_table_again_is_one_error_until_it_is_reopened(tmp_path):
    server = lobby_server(tmp_path)
    port = await server.start("127.0.0.1", 0)
    first = Seat(address(server), server.code, "Ann", tmp_path / "ann")
    await until(first.welcomed)
    await server.stop()
    await asyncio.wait_for(first.task, 10)
    # later: mexitrain join again, nobody listens there any more
    again = Seat(address(server), server.code, "Ann", tmp_path / "ann")
    ended = await asyncio.wait_for(again.task, 10)
    assert ended.code == "table_closed" and ended.values == {"resumable": True}
    assert again.states == ["connecting", "closed"]  # one attempt, no retry loop
    # the host reopens it (mexitrain host --resume): the same seat is taken back, the mark goes
    reopened = TableServer.resume(tmp_path / "host", server.code)
    await reopened.start("127.0.0.1", port)
    try:
        back = Seat(address(server), server.code, "Ann", tmp_path / "ann")
        await until(back.welcomed)
        welcome = next(m for m in back.messages if isinstance(m, Welcome))
        assert welcome.seat == next(m for m in first.messages if isinstance(m, Welcome)).seat
        assert not closed_path(tmp_path / "ann", address(server), server.code, "Ann").exists()
        await back.client.close()
        await asyncio.wait_for(back.task, 10)
    finally:
        await reopened.stop()


async def test_a_restart_keeps_the_clients_retrying(tmp_path):
    server = lobby_server(tmp_path)
    await server.start("127.0.0.1", 0)
    ann = Seat(address(server), server.code, "Ann", None)
    await until(ann.welcomed)
    await server.stop(closed=False)
    await until(lambda: "retrying" in ann.states)
    assert any(isinstance(m, Error) and m.code == "server_closing" for m in ann.messages)
    assert not ann.task.done()
    await ann.client.close()
    await asyncio.wait_for(ann.task, 10)


async def test_ctrl_c_on_a_headless_host_closes_the_table_for_its_guests(tmp_path):
    import signal

    from .test_faults import _host, _line

    proc = _host(tmp_path, "--port", "0", "--players", "3", "--option", "rounds=1")
    try:
        m = await _line(proc, r"Table ([A-Z]{6}) open on 127\.0\.0\.1:(\d+)")
        ann = Seat(f"127.0.0.1:{m.group(2)}", m.group(1), "Ann", tmp_path / "ann")
        await until(ann.welcomed)
        proc.send_signal(signal.SIGINT)
        ended = await asyncio.wait_for(ann.task, 20)
        assert ended.code == "table_closed" and ended.values == {"resumable": True}
        assert "retrying" not in ann.states
        assert await asyncio.to_thread(proc.wait, 20) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()


async def test_after_a_link_that_was_up_the_waits_start_from_the_first_again():
    """The waits between attempts double while a table does not answer; a link that was up
    and was lost starts them from the first again, not from where an old outage left them."""
    from mexitrain.net.protocol import Watching

    client = TableClient("127.0.0.1:9", "ABCD-EFGH", "Ann", data_dir=None, backoff=(0.001, 0.004))
    outcomes = iter(["down", "down", "down", "up", "down", "up", "close"])

    async def connection(on_message, status):
        what = next(outcomes)
        if what == "close":
            await client.close()
            return None
        if what == "down":
            raise OSError("refused")
        client._welcomed(Watching(table="ABCD-EFGH"))
        return None

    client._connection = connection
    statuses = []
    await asyncio.wait_for(client.run(lambda m: None, statuses.append), 10)
    retries = [s.attempt for s in statuses if s.state == "retrying"]
    assert retries == [1, 2, 3, 1, 2, 1]
