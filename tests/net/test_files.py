"""The table on disk (mexitrain/net/files.py): every move announced is in the journal before
it is sent, the full save is written at the deal, at each round's end and at the close (not
after every move), and a seat's token is on disk before its person is told it."""

from __future__ import annotations

import time

import pytest
from support.net import FAST, address, bots, served, table

from mexitrain.net import files
from mexitrain.net.bot import BotResult, play_bot
from mexitrain.net.protocol import Update, Welcome
from mexitrain.storage import tokens
from mexitrain.storage.tokens import load_table


@pytest.fixture
def slow_disk(monkeypatch):
    """table.json takes 0.2 s to write (it is written in a worker thread)."""
    save_table = tokens.save_table

    def slow(*args):
        time.sleep(0.2)
        return save_table(*args)

    monkeypatch.setattr(tokens, "save_table", slow)


async def test_every_move_announced_can_be_read_back_at_once(tmp_path, slow_disk):
    """What --resume would read at the moment a seat gets an update is the game as it is: the
    full save (the deal) with the journal's moves played again; the game is announced only once
    table.json says it started, even on a slow disk."""
    checked = []
    async with served(table(3, 1, seed=4), tmp_path) as server:

        def on_message(msg, client):
            if isinstance(msg, Update) and msg.seq in (1, 10, 25, 40):
                _, _, state = files.load(tmp_path, server.code)
                checked.append(msg.seq)
                assert state == server.state and files.count_actions(state) == server.seq

        await play_bot(address(server), server.code, "Ann", backoff=FAST, on_message=on_message)
        assert server.state.over
    assert checked == [1, 10, 25, 40]


async def test_the_full_save_is_written_at_round_ends_not_after_every_move(tmp_path):
    async with served(table(2, 2, rounds=2, seed=6, hand_size="5"), tmp_path) as server:
        await bots(server, 2)
        assert server.state.over and len(server.state.results) == 2
        await server.files.close(server.state, server.setup, server.seq)
        # the deal, the end of round 1, the end of the game: not one a move
        assert server.seq > 20 and 1 <= server.files.saver.writes <= 3


async def test_a_game_stopped_mid_round_is_saved_whole(tmp_path):
    """stop() writes the full save of the game as it is; --resume needs no journal then."""
    setup = table(2, 1, seed=9)
    got = BotResult()

    def on_message(msg, client):
        if isinstance(msg, Update) and msg.seq >= 12:
            client._closing = True
            client._ws.transport.abort()

    async with served(setup, tmp_path) as server:
        await play_bot(address(server), server.code, "Ann", backoff=FAST, on_message=on_message, result=got)
    state, seq = server.state, server.seq  # as the table closed
    assert not state.over and seq >= 12
    (tmp_path / "tables" / server.code / "moves.jsonl").unlink()
    _, _, resumed = files.load(tmp_path, server.code)
    assert resumed == state


async def test_a_new_seat_is_on_disk_before_its_person_is_welcomed(tmp_path, slow_disk):
    """table.json is written in a worker thread (here a slow disk); the Welcome, which tells
    the token, waits for it, so a server killed right after still knows the seat."""
    seen = []
    async with served(table(2, 2, seed=3), tmp_path) as server:

        def on_message(msg, client):
            if isinstance(msg, Welcome):
                seat = load_table(tmp_path, server.code).seats[msg.seat]
                seen.append((seat.kind, seat.token == msg.token, seat.name))

        await bots(server, 2, on_message=on_message)
    assert sorted(seen) == [("person", True, "Bot0"), ("person", True, "Bot1")]
