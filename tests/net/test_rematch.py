"""Rematch over real WebSockets on 127.0.0.1 (issue #35 item 3; docs/protocol.md): once the
game is over each person may accept a new game; it is dealt when every person at the table
has (not before), with the same seats and rules, a fresh sealed seed and the next first seat;
a person who left gets a computer player or is waited for, as the host chose. The finished
game stays in saves/, the new one has its own journal. An older client is told to update."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from support.net import FAST, address, served, table, until

from mexitrain.net import protocol
from mexitrain.net.bot import play_bot
from mexitrain.net.protocol import (
    PROTOCOL_VERSION,
    Error,
    Lobby,
    Rematch,
    Update,
    Welcome,
    decode_server,
)
from mexitrain.net.server import TableServer
from mexitrain.rules import view
from mexitrain.storage import load_save, saves_dir, tokens


def _kept(root):
    return sorted(saves_dir(root).glob("table-*.json"))


def _games(bot) -> list[list[Update]]:
    """A bot's updates, game by game (a new game: a new seal)."""
    games: list[list[Update]] = []
    seal = object()
    for m in bot.messages:
        if isinstance(m, Update):
            if m.view.seal != seal:
                games.append([])
                seal = m.view.seal
            games[-1].append(m)
    return games


async def test_the_rematch_starts_when_every_person_accepted_and_not_before(tmp_path):
    setup = table(3, 2, seed=5, hand_size="5")
    seen_alone: list[tuple[int, ...]] = []
    early: list[Error] = []

    async def patient(msg, client):
        # Ben accepts only once the table tells him Ann has: the game is still over then
        if not isinstance(msg, Update) or msg.view.phase != "game_over":
            return
        if msg.view.seal == "":  # the first game (seed 5, chosen: no seal)
            if msg.rematch == (1 - msg.view.seat,) and not seen_alone:
                seen_alone.append(msg.rematch)
                assert server.state.over and server.game.games == 1  # one acceptance of two: no new game
                await client.send(Rematch())
        else:  # the end of the rematch
            await client.close()

    async def eager(msg, client):
        # Ann asks for a new game before the end: refused, the game goes on
        if isinstance(msg, Update) and msg.seq == 0 and not early:
            early.append(msg)
            await client.send(Rematch())

    from mexitrain.net.bot import BotResult

    ben = BotResult()
    async with served(setup, tmp_path) as server:
        first_starter = None

        def starter() -> None:
            nonlocal first_starter
            if first_starter is None and server.state is not None:
                first_starter = server.state.starter

        ann_task = asyncio.ensure_future(play_bot(address(server), server.code, "Ann", seed=0, backoff=FAST,
                                                  rematches=1, on_message=eager))
        ben_task = asyncio.ensure_future(play_bot(address(server), server.code, "Ben", seed=1, backoff=FAST,
                                                  until_over=False, on_message=patient, result=ben))
        await until(lambda: server.state is not None)
        starter()
        first_seed = server.setup.seed
        ann, ben = await asyncio.wait_for(asyncio.gather(ann_task, ben_task), 60)
        await until(lambda: len(_kept(tmp_path)) == 2)
        final = server.state
        second_setup = server.setup
        moves = server.seq
    assert len(seen_alone) == 1  # Ben was told that Ann accepted, and the game waited for him
    assert [e.code for e in ann.messages if isinstance(e, Error)] == ["not_over"]
    # two games: the first kept, the second played to its end by the same seats
    for bot in (ann, ben):
        games = _games(bot)
        assert len(games) == 2, [len(g) for g in games]
        assert games[0][-1].view.phase == "game_over" and games[1][-1].view.phase == "game_over"
        assert games[1][0].seq == 0 and games[1][0].view.round == 1 and games[1][0].rematch == ()
        assert games[1][0].names == games[0][-1].names  # the same seats
        assert games[1][0].view.rules == games[0][-1].view.rules
        assert games[0][-1].rematch in ((0,), (1,), (0, 1))
        assert bot.refused == [] and bot.last.view == view(final, bot.last.view.seat)
    # a fresh sealed seed (not the one chosen for the first game), and the next first seat
    assert second_setup.seed != first_seed and not second_setup.seed_chosen
    assert final.starter == (first_starter + 1) % 3
    assert _games(ann)[1][0].view.seal and _games(ann)[1][0].view.seal != _games(ann)[0][-1].view.seal
    saves = [load_save(p) for p in _kept(tmp_path)]
    assert sorted(s.setup.seed for s in saves) == sorted([first_seed, second_setup.seed])
    assert all(s.state.over for s in saves)
    # the new game's journal is its own: its moves from 1, as many as the game had
    lines = list(tokens.read_journal(tmp_path, server.code))
    assert [seq for seq, _ in lines] == list(range(1, len(lines) + 1))
    assert len(lines) == moves == sum(len(r.events) for r in final.results)
    assert tokens.load_table(tmp_path, server.code).over


async def test_a_person_who_left_is_played_by_a_computer_in_the_rematch_by_default(tmp_path):
    setup = table(3, 2, seed=7, hand_size="5")
    async with served(setup, tmp_path) as server:
        stay = asyncio.ensure_future(play_bot(address(server), server.code, "Ann", seed=0, backoff=FAST, rematches=1))
        leave = asyncio.ensure_future(play_bot(address(server), server.code, "Ben", seed=1, backoff=FAST))
        ben = await asyncio.wait_for(leave, 60)  # leaves at the end of the first game
        ann = await asyncio.wait_for(stay, 60)
        await until(lambda: len(_kept(tmp_path)) == 2)
        ben_seat = next(m.seat for m in ben.messages if isinstance(m, Welcome))
        assert server.seats[ben_seat].kind == "person" and server.seats[ben_seat].handed
        assert server.game.games == 2
    second = _games(ann)[1]
    assert second[0].kinds[ben_seat] == "computer"  # played by a computer until Ben comes back
    assert second[-1].view.phase == "game_over"
    lobby = [m for m in ann.messages if isinstance(m, Lobby)][-1]
    assert lobby.absent == "computer" and lobby.seats[ben_seat].level == "random"


async def test_the_rematch_waits_for_a_person_who_left_when_the_host_chose_so(tmp_path):
    setup = table(3, 2, seed=7, hand_size="5")
    async with served(setup, tmp_path, absent="wait") as server:
        stay = asyncio.ensure_future(play_bot(address(server), server.code, "Ann", seed=0, backoff=FAST, rematches=1))
        ben = await asyncio.wait_for(
            play_bot(address(server), server.code, "Ben", seed=1, backoff=FAST), 60
        )  # leaves at the end of the first game
        ben_seat = next(m.seat for m in ben.messages if isinstance(m, Welcome))
        ann_seat = 1 - ben_seat
        await until(lambda: server.game.rematch == {ann_seat} and server.seats[ben_seat].conn is None)
        # Ann accepted, Ben is away: the game stays over, the table waits for Ben
        assert server.state.over and server.game.games == 1 and not stay.done()
        assert server.game.rematch_waits_for() == [ben_seat]
        # Ben comes back with his seat's token and accepts: the new game starts, his seat his own
        back = await asyncio.wait_for(
            play_bot(address(server), server.code, "Ben", seed=1, backoff=FAST, token=ben.client.token, rematches=1),
            60,
        )
        ann = await asyncio.wait_for(stay, 60)
        await until(lambda: len(_kept(tmp_path)) == 2)
        assert not server.seats[ben_seat].handed
    assert next(m.seat for m in back.messages if isinstance(m, Welcome)) == ben_seat
    second = _games(ann)[1]
    assert second[0].kinds[ben_seat] == "person" and second[-1].view.phase == "game_over"
    assert _games(back)[-1][-1].view.phase == "game_over"


async def test_only_the_host_chooses_what_a_rematch_does_with_who_left(tmp_path):
    setup = table(2, 2, seed=7, hand_size="5")
    async with served(setup, tmp_path, start_when_full=None) as server:
        errors: list[Error] = []

        async def once(msg, client):
            if isinstance(msg, Welcome):
                await client.send(Rematch(absent="wait"))
            elif isinstance(msg, Error):
                errors.append(msg)
                await client.close()

        guest = asyncio.ensure_future(play_bot(address(server), server.code, "Eve", backoff=FAST, on_message=once))
        await until(lambda: errors)
        assert errors[0].code == "not_host" and server.game.absent == "computer"
        # the host may, before or after the game starts
        from mexitrain.net.client import TableClient

        host = TableClient(address(server), server.code, "Host", data_dir=None, token=server.host_token, backoff=FAST)
        seen: list = []
        task = asyncio.ensure_future(host.run(seen.append))
        await until(lambda: host.welcome is not None)
        await host.send(Rematch(absent="wait"))
        await until(lambda: server.game.absent == "wait")
        await until(lambda: any(isinstance(m, Lobby) and m.absent == "wait" for m in seen))
        assert not any(isinstance(m, Error) for m in seen)
        await host.close()
        await asyncio.wait_for(asyncio.gather(task, guest), 10)


async def test_a_repeated_rematch_counts_once(tmp_path):
    """At most one Rematch a seat a game counts: a repeat changes nothing and is sent nothing."""
    setup = table(2, 1, seed=7, hand_size="5")
    async with served(setup, tmp_path) as server:
        repeats: list[Update] = []

        async def twice(msg, client):
            if isinstance(msg, Update) and msg.view.phase == "game_over" and not repeats:
                repeats.append(msg)
                for _ in range(5):
                    await client.send(Rematch())

        # one person at the table: their acceptance deals the new game at once
        bot = await asyncio.wait_for(
            play_bot(address(server), server.code, "Ann", backoff=FAST, on_message=twice, rematches=1), 60
        )
        await until(lambda: len(_kept(tmp_path)) == 2)
        assert server.game.games == 2
    assert bot.error is None and len(_games(bot)) == 2
    over = [u for u in _games(bot)[0] if u.view.phase == "game_over"]
    assert [u.rematch for u in over] in ([(), (0,)], [()], [(0,)])  # never a seat twice


async def test_an_older_client_is_told_to_update(tmp_path):
    setup = table(2, 2, seed=7, hand_size="5")
    async with served(setup, tmp_path) as server:
        async with websockets.connect(f"ws://{address(server)}/") as ws:
            await ws.send(json.dumps({"type": "hello", "version": 4, "code": server.code, "name": "Old", "token": None,
                                      "lang": "en"}))
            err = decode_server(await asyncio.wait_for(ws.recv(), 10))
    assert PROTOCOL_VERSION == 6  # 6: the finished game's record (GameRecord)
    assert isinstance(err, Error) and err.code == "version" and err.fatal
    assert err.server_version == 6 and err.values == {"version": 4}


# -- what a client refuses of the new fields -----------------------------------------------------


def _update(**fields) -> str:
    from mexitrain.rules import make_rules, new_game

    rules = make_rules("standard", {"rounds": "1"})
    state = new_game(rules, players=2, seed=3)
    u = Update(seq=0, view=view(state, 0), names=("Ann", "Ben"), kinds=("person", "person"))
    data = json.loads(protocol.encode(u))
    data.update(fields)
    return json.dumps(data)


def _over_update(**fields) -> str:
    from mexitrain.players import make_player
    from mexitrain.rules import apply, make_rules, new_game

    rules = make_rules("standard", {"rounds": "1", "hand_size": "5"})
    state = new_game(rules, players=2, seed=3)
    players = [make_player("random", 0), make_player("random", 1)]
    while not state.over:
        state = apply(state, players[state.turn].choose(view(state, state.turn)))
    u = Update(seq=9, view=view(state, 0), names=("Ann", "Ben"), kinds=("person", "person"))
    data = json.loads(protocol.encode(u))
    data.update(fields)
    return json.dumps(data)


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"turn_left": 5}, "turn_left"),  # a clock without a timer
        ({"turn_time": 30, "turn_left": 31}, "turn_left"),  # more than the timer
        ({"turn_time": 30, "turn_left": -1}, "turn_left"),
        ({"turn_time": 5}, "turn_time"),  # below the bounds
        ({"turn_time": 601}, "turn_time"),
        ({"turn_time": 30, "turn_left": 10, "kinds": ["computer", "computer"]}, "turn_left"),  # a computer's turn
        ({"timed": 0}, "timed"),  # played by a timer the table does not have
        ({"turn_time": 30, "timed": 2}, "timed"),  # no such seat
        ({"rematch": [0]}, "rematch"),  # before the game is over
    ],
)
def test_a_client_refuses_hostile_timer_and_rematch_fields(fields, field):
    with pytest.raises(protocol.ProtocolError) as caught:
        decode_server(_update(**fields))
    assert caught.value.code == protocol.BAD_SERVER_MESSAGE
    assert caught.value.values["field"] == field


def test_a_client_reads_the_timer_and_rematch_fields():
    u = decode_server(_update(turn_time=30, turn_left=12, timed=1))
    assert (u.turn_time, u.turn_left, u.timed, u.rematch) == (30, 12, 1, ())
    assert decode_server(_over_update(rematch=[1, 0])).rematch == (1, 0)
    for hostile in ([0, 0], [0, 5], [-1]):
        with pytest.raises(protocol.ProtocolError) as caught:
            decode_server(_over_update(rematch=hostile))
        assert caught.value.values["field"].startswith("rematch")
    with pytest.raises(protocol.ProtocolError):  # no clock once the game is over
        decode_server(_over_update(turn_time=30, turn_left=3))


async def test_a_table_stopped_after_a_rematch_resumes_the_new_game(tmp_path):
    """The new game is the table's on disk: ``--resume`` reopens it, not the finished one."""
    setup = table(2, 1, seed=7, hand_size="5")
    second: list[Update] = []

    async def until_second(msg, client):
        if isinstance(msg, Update) and msg.view.seal and not second:
            second.append(msg)
            await client.close()

    server = TableServer(setup, data_dir=tmp_path, open_seats=(0,), host_seat=None, start_when_full="random")
    await server.start("127.0.0.1", 0)
    try:
        await asyncio.wait_for(play_bot(address(server), server.code, "Ann", backoff=FAST, rematches=1,
                                        until_over=False, on_message=until_second), 60)
        await until(lambda: server.seats[0].conn is None)
    finally:
        await server.stop()
    state, seq, seed = server.state, server.seq, server.setup.seed  # as it stopped
    assert second and not state.over and seed != 7
    assert tokens.load_table(tmp_path, server.code).started and not tokens.load_table(tmp_path, server.code).over
    resumed = TableServer.resume(tmp_path, server.code)
    try:
        assert resumed.setup.seed == seed and resumed.state == state and resumed.seq == seq
    finally:
        await resumed.files.close(resumed.state, resumed.setup, resumed.seq)
    assert len(_kept(tmp_path)) == 1  # the first game, kept
