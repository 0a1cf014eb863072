"""Faults: a client killed mid-turn takes its seat back with its token; the server process
killed with SIGKILL mid-round is reopened by ``mexitrain host --resume`` and the bots
reconnect by themselves; nothing is lost but the moves in flight (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys

from support.net import FAST, address, served, table, until

from mexitrain.net.bot import BotResult, play_bot
from mexitrain.net.protocol import Update, Welcome
from mexitrain.rules import view
from mexitrain.rules.record import replay
from mexitrain.storage import saves_dir
from mexitrain.storage.tokens import load_table

from .test_leaks import states_by_seq


async def test_a_client_killed_mid_turn_takes_its_seat_back(tmp_path):
    setup = table(3, 2, seed=8)
    async with served(setup, tmp_path) as server:
        first = BotResult()
        killed = asyncio.Event()

        def on_message(msg, client):
            # at its own turn, once the game is under way, the connection dies without a word
            if isinstance(msg, Update) and msg.view.my_turn and msg.seq >= 6 and not killed.is_set():
                killed.set()
                client._closing = True  # this process "dies": no reconnection
                client._ws.transport.abort()

        other = asyncio.create_task(play_bot(address(server), server.code, "Bea", seed=2, backoff=FAST))
        ann = asyncio.create_task(play_bot(address(server), server.code, "Ann", seed=1, backoff=FAST,
                                           on_message=on_message, result=first))
        await asyncio.wait_for(killed.wait(), 20)
        await asyncio.wait_for(ann, 10)
        seat = next(m for m in first.messages if isinstance(m, Welcome)).seat
        await until(lambda: server.seats[seat].conn is None)
        stuck = server.seq
        assert server.state.turn == seat  # the game waits for Ann
        # Bea is told Ann is away, with the seconds since she left
        bea = next(r for r in server.seats if r.index != seat and r.kind == "person")
        assert bea.conn is not None
        await asyncio.sleep(1.1)
        assert server._away()[0].seat == seat and server._away()[0].seconds >= 1
        # Ann's program starts again with the token it kept, and the game goes on to its end
        again = await asyncio.wait_for(
            play_bot(address(server), server.code, "Ann", seed=1, backoff=FAST, token=first.client.token), 60
        )
        welcome = next(m for m in again.messages if isinstance(m, Welcome))
        assert welcome.seat == seat
        back = next(m for m in again.messages if isinstance(m, Update))
        assert back.seq == stuck and back.view == view(server.state if server.seq == stuck else back_state(server, stuck), seat)
        result = await asyncio.wait_for(other, 60)
        assert server.state.over and result.last.view.phase == "game_over"
        # Bea saw Ann away, then back
        aways = [m.away for m in result.messages if isinstance(m, Update)]
        assert any(a and a[0].seat == seat for a in aways) and aways[-1] == ()


def back_state(server, seq):
    return states_by_seq(server.state)[seq]


def _host(tmp_path, *args):
    env = dict(os.environ, MEXITRAIN_DATA_DIR=str(tmp_path), PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "mexitrain", "--lang", "en", "host", "--no-play", "--bind", "127.0.0.1",
         "--speed", "0", "--ai", "random", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )


async def _line(proc, pattern, timeout=30.0):
    lines = []

    def read():
        while True:
            line = proc.stdout.readline()
            if not line:
                return None
            lines.append(line)
            m = re.search(pattern, line)
            if m:
                return m

    m = await asyncio.wait_for(asyncio.to_thread(read), timeout)
    assert m is not None, lines
    return m


async def test_the_server_killed_mid_round_is_resumed_and_the_bots_come_back(tmp_path):
    proc = _host(tmp_path, "--port", "0", "--players", "3", "--option", "rounds=1", "--seed", "12")
    try:
        m = await _line(proc, r"Table ([A-Z]{6}) open on 127\.0\.0\.1:(\d+)")
        code, port = m.group(1), int(m.group(2))
        results = [BotResult(), BotResult()]
        seen_before: list[list[Update]] = [[], []]
        dead = asyncio.Event()
        killed_at = []

        def watcher(i):
            def on_message(msg, client):
                if isinstance(msg, Update) and not dead.is_set():
                    seen_before[i].append(msg)
                    if msg.seq >= 25 and not killed_at:
                        killed_at.append(msg.seq)
                        os.kill(proc.pid, signal.SIGKILL)
                        dead.set()
            return on_message

        bots = [
            asyncio.create_task(play_bot(f"127.0.0.1:{port}", code, name, seed=i, data_dir=tmp_path / name,
                                         backoff=FAST, on_message=watcher(i), result=results[i]))
            for i, name in enumerate(("Ann", "Bea"))
        ]
        # both have sat down; Enter starts the game, the third seat goes to a computer
        await _line(proc, r"Ann sits in seat|Bea sits in seat")
        await _line(proc, r"Ann sits in seat|Bea sits in seat")
        proc.stdin.write("\n")
        proc.stdin.flush()
        await asyncio.wait_for(dead.wait(), 60)
        await asyncio.to_thread(proc.wait, 10)
        assert proc.returncode == -signal.SIGKILL
        # the bots keep trying while the table is down
        await until(lambda: all(any(s.state == "retrying" for s in r.statuses) for r in results))
        proc = _host(tmp_path, "--resume")
        await _line(proc, rf"Table {code} open on 127\.0\.0\.1:{port}")
        try:
            done = await asyncio.wait_for(asyncio.gather(*bots), 60)
        except TimeoutError:
            proc.kill()
            raise AssertionError((proc.stdout.read(), proc.stderr.read(), [r.statuses[-3:] for r in results],
                                  [[type(m).__name__ for m in r.messages[-4:]] for r in results])) from None
        await asyncio.to_thread(proc.wait, 20)
        assert proc.returncode == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # nothing lost but the move in flight: every move a seat saw is still there after the resume
    # (the autosave may lag behind; the journal has the rest)
    firsts = []
    for bot in done:
        second = max(i for i, m in enumerate(bot.messages) if isinstance(m, Welcome))
        firsts.append(next(m for m in bot.messages[second:] if isinstance(m, Update)).seq)
    resumed_at = min(firsts)
    assert killed_at[0] <= resumed_at <= killed_at[0] + 1
    kept = sorted(saves_dir(tmp_path).glob("table-*.json"))
    assert len(kept) == 1 and load_table(tmp_path, code).over
    final = replay(json.loads(kept[0].read_text())["record"])
    assert final.over
    states = states_by_seq(final)
    for i, bot in enumerate(done):
        seat = next(m for m in bot.messages if isinstance(m, Welcome)).seat
        welcomes = [m for m in bot.messages if isinstance(m, Welcome)]
        assert len(welcomes) == 2 and welcomes[1].seat == seat and welcomes[0].token == welcomes[1].token
        assert bot.last.view == view(final, seat)
        # what each seat saw before the crash, up to the last saved move, is the game's history
        for u in seen_before[i]:
            if u.seq <= resumed_at:
                assert u.view == view(states[u.seq], seat)
