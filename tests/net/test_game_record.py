"""The finished game's record (protocol version 6, docs/protocol.md#the-games-record): sent to
every seat and watcher once the game is over, right before its last update, once; a guest takes
it only when it replays to the game its views showed (so a host cannot hand it another game)."""

from __future__ import annotations

import json

import pytest
from support.net import FAST, address, bots, served, table

from mexitrain.net.protocol import (
    MAX_SERVER_MESSAGE,
    GameRecord,
    ProtocolError,
    Update,
    decode_server,
    encode,
)
from mexitrain.ui.network_state import NetworkState, TableRequest, checked_record


async def test_each_seat_gets_the_record_once_before_the_last_update_and_it_is_the_game(tmp_path):
    async with served(table(3, 2, seed=5, rounds=2, hand_size="5"), tmp_path) as server:
        results = await bots(server, 2)
        final = server.state
    for bot in results:
        kinds = [type(m) for m in bot.messages]
        assert kinds.count(GameRecord) == 1
        at = kinds.index(GameRecord)
        after = bot.messages[at + 1]
        assert isinstance(after, Update) and after.view.phase == "game_over"
        assert all(not m.view.phase == "game_over" for m in bot.messages[:at] if isinstance(m, Update))
        state = checked_record(bot.messages[at].record, after.view)
        assert state == final  # every hand and move: the very game the table played
        names = [p["name"] for p in json.loads(bot.messages[at].record)["players"]]
        assert names == list(after.names)


async def test_a_watcher_gets_the_record_too(tmp_path):
    from support.net import until

    from mexitrain.net.client import TableClient
    from mexitrain.net.protocol import Onlooker

    async with served(table(2, 2, seed=5, hand_size="5"), tmp_path) as server:
        seen: list = []
        watcher = TableClient(address(server), server.code, "", data_dir=None, watch=True, backoff=FAST)
        import asyncio

        task = asyncio.ensure_future(watcher.run(seen.append))
        await until(lambda: watcher.welcome is not None)
        await bots(server, 2)
        await until(lambda: any(isinstance(m, GameRecord) for m in seen))
        await watcher.close()
        await task
    at = next(i for i, m in enumerate(seen) if isinstance(m, GameRecord))
    last = next(m for m in seen[at:] if isinstance(m, Onlooker))
    assert checked_record(seen[at].record, last.view) == server.state


async def _finished(tmp_path):
    async with served(table(2, 2, seed=5, hand_size="5"), tmp_path) as server:
        [bot, _] = await bots(server, 2)
    record = next(m for m in bot.messages if isinstance(m, GameRecord)).record
    return record, bot.last


async def test_a_record_that_is_not_the_game_shown_is_not_taken(tmp_path):
    record, last = await _finished(tmp_path)
    view = last.view
    assert checked_record(record, view) is not None
    data = json.loads(record)
    other = dict(data, seed=data["seed"] + 1)  # another deal: its moves do not replay
    other.pop("seal", None)
    assert checked_record(json.dumps(other), view) is None
    scores = json.loads(record)
    scores["rounds"][0]["scores"] = [s + 1 for s in scores["rounds"][0]["scores"]]
    assert checked_record(json.dumps(scores), view) is None  # not what the rules score
    assert checked_record("not json", view) is None
    assert checked_record('{"format": 1}', view) is None
    elsewhere = view.model_copy(update={"revealed_seed": (view.revealed_seed or 0) + 1})
    assert checked_record(record, elsewhere) is None  # the game revealed another seed


async def test_the_network_state_takes_the_record_only_at_the_game_s_end(tmp_path):
    record, last = await _finished(tmp_path)
    state = NetworkState(TableRequest("127.0.0.1:1", "KXMPTR", "P0"))
    state.record = record
    assert state.finished_game() is None  # no view yet
    running = last.model_copy(update={"view": last.view.model_copy(update={"phase": "turn", "revealed_seed": None})})
    state.update = running
    assert state.finished_game() is None  # the game is not over
    state.update = last
    game, kinds = state.finished_game()
    assert game.over and game.seed == last.view.revealed_seed
    assert kinds == tuple("human" if k == "person" else "computer" for k in last.kinds)
    assert state.finished_game()[0] is game  # replayed once


def test_a_record_message_is_bounded():
    text = encode(GameRecord(record="{}"))
    assert decode_server(text) == GameRecord(record="{}")
    big = '{"type": "record", "record": "' + "x" * MAX_SERVER_MESSAGE + '"}'
    with pytest.raises(ProtocolError) as err:
        decode_server(big)
    assert err.value.values["reason"] == "too_big"
    with pytest.raises(ProtocolError):
        decode_server('{"type": "record", "record": 5}')

