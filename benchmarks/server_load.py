"""How the table server holds up: many tables, each with four scripted clients.

A child process serves ``--tables`` tables (one event loop, one TableServer each, 4 open seats,
one round each, started as soon as the four have sat down); the 4 scripted clients of each
table talk to it over real WebSockets on 127.0.0.1 from other processes, as real clients do
(``--client-processes``, default 2: this one and a child, each with half of the tables, so that
one client process's event loop, busy with 100 sockets, is not what gets measured). A client whose turn it is waits
``--think`` seconds (a person thinking), then sends an intent (the first legal action of its
view). For every intent the script measures the time until *every* seat of that table has the
update that follows it, and prints p50 / p95 / max, the updates lost (a seat that skipped a
``seq``), the errors and refusals, the actions played, and the CPU the server and the clients took (in
share of one core: on a 2-core machine the clients run on the same cores as the server).
``--profile FILE`` runs the server under cProfile.

The mixed load (issue #35; off by default, so that a run without it is as before):
``--watchers N`` sends N watchers in all (``Watch`` instead of ``Hello``), spread over the
tables (50 at 50 tables: one each; a table takes at most 20, more are told
``watchers_full``), each in the client process of its table; ``--chat-rate R`` has each table's
seats say R short lines a second in turn (``Say``; at most 5 lines in 10 s a seat, so up to
2 a second a table are taken), the tables staggered over the first second. With either, the
seats stay at their table (the game over or not) until the run's end and ``--drain`` seconds
more (default 1), reading what is on its way, and play no intent after the run's end. The
script prints besides: the latency from an intent to the watcher's ``Onlooker`` of that
``seq`` (p50 / p95 / max) and the onlooker updates lost (a watcher that skipped a ``seq``);
the chat lines said, taken (numbered by the server) and refused (with their codes), the
latency from a ``Say`` to *every* seat's and watcher's ``Chat`` line (p50 / p95 / max), and the
lines lost (a receiver missing a line number, between its lines or after its last one).

Storms (docs/threat-model/flood.md), each on one more table of the same server process, from
a process of its own, while the real players play: ``--reconnect-storm`` (a guest of that
table takes its seat back with its token as fast as it can, from ``--storm-loops`` loops at
once; the table's other guest counts what she is sent) and ``--half-open N`` (N TCP
connections that never say a word, from 127.1.2.2, 127.1.2.3…, ``--per-address`` each,
``--open-rate`` a second, held for the run, or opened and closed ``--rounds`` times). The
script then prints the attempts, how many were let in, what the other guest was sent, how
many silent connections were still open, and the server's memory (RSS; with ``--traced``
Python's own allocations too) and the connections it holds, before, at its highest,
``--settle`` seconds after each round and after the storm.

    .venv/bin/python benchmarks/server_load.py                      # 50 tables x 4, 20 s
    .venv/bin/python benchmarks/server_load.py --tables 10 --seconds 5 --think 0
    .venv/bin/python benchmarks/server_load.py --client-processes 1  # every client in one process
    .venv/bin/python benchmarks/server_load.py --tables 20 --seconds 20 --reconnect-storm --half-open 6000 --rounds 3
    python benchmarks/server_load.py --tables 50 --watchers 50 --chat-rate 1 --seconds 20   # the mixed load

Aim: p95 < 50 ms at 50 tables with people's pace, storms or not; after a storm the server's
memory back near where it started. The mixed load (50 tables x 4 seats, 50 watchers, a line a
second a table): p95 < 50 ms from an intent to every seat's update on a quiet machine, 0
updates lost (seats' and watchers'), 0 chat lines lost. A plain script: it prints figures and asserts nothing
(timings depend on the machine and on what else runs on it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from ai_speed import _pct  # noqa: E402  (the same percentile as the players' timings)


def _raise_open_files() -> None:
    """As mexitrain host does (by hand on an older tree without net/guard.py: the script measures those too)."""
    try:
        from mexitrain.net.guard import raise_open_files
    except ImportError:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
        return
    raise_open_files()


def _probe(child: subprocess.Popen) -> dict:
    """What the server process holds now: {"traced": MB or None, "held": connections}."""
    child.stdin.write("\n")
    child.stdin.flush()
    return json.loads(child.stdout.readline())


def _rss_mb(pid: int) -> float | None:
    """A process's resident memory now, in MB, from /proc (None elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a process has used so far, from /proc (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


async def _serve(tables: int, seed: int, data: str, target: bool = False) -> None:
    from mexitrain.game_setup import GameSetup, SeatConfig
    from mexitrain.net.server import TableServer
    from mexitrain.rules import make_rules

    if os.environ.get("SERVER_LOAD_TRACED"):  # --traced: Python's own allocations are counted
        import tracemalloc

        tracemalloc.start()
    if os.environ.get("SERVER_LOAD_NO_AUTOSAVE"):  # --no-autosave: the autosaves' share of the cost
        from mexitrain.storage.autosaver import Autosaver

        Autosaver.submit = lambda *a: None
    servers = []
    for i in range(tables):
        setup = GameSetup(
            rules=make_rules("standard", {"rounds": "1"}), seed=seed + i,
            seats=tuple(SeatConfig(name=f"S{k}") for k in range(4)),
        )
        server = TableServer(setup, data_dir=Path(data) / str(i), open_seats=(0, 1, 2, 3), host_seat=None,
                             start_when_full="random")
        await server.start("127.0.0.1", 0)
        servers.append(server)
    if target:  # the storms' table: two guests, the game starts when both sit
        _raise_open_files()  # as mexitrain host does
        setup = GameSetup(rules=make_rules("standard", {"rounds": "1"}), seed=seed,
                          seats=tuple(SeatConfig(name=f"S{k}") for k in range(2)))
        victim = TableServer(setup, data_dir=Path(data) / "target", open_seats=(0, 1), host_seat=None,
                             start_when_full="random")
        await victim.start("127.0.0.1", 0)
        servers.append(victim)
    print(json.dumps([[s.port, s.code] for s in servers]), flush=True)
    loop = asyncio.get_running_loop()
    while await loop.run_in_executor(None, sys.stdin.readline):  # until the parent closes stdin
        # a line: the parent asks what the process holds now (Python's own allocations with
        # SERVER_LOAD_TRACED, the TCP connections the tables hold)
        import gc
        import tracemalloc

        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] / 2**20 if tracemalloc.is_tracing() else None
        held = sum(s._admission.count for s in servers) if hasattr(servers[0], "_admission") else None  # older trees
        print(json.dumps({"traced": traced, "held": held}), flush=True)
    for s in servers:
        await s.stop()


def _serve_profiled(tables: int, seed: int, data: str, out: str, target: bool) -> None:
    import cProfile

    profile = cProfile.Profile()
    profile.enable()
    try:
        asyncio.run(_serve(tables, seed, data, target))
    finally:
        profile.disable()
        profile.dump_stats(out)


class _Table:
    def __init__(self, watchers: int = 0) -> None:
        self.sent: dict[int, float] = {}  # seq of the update an intent leads to -> time sent
        self.got: dict[int, int] = {}  # seq -> seats that have it
        self.latencies: list[float] = []
        # the mixed load (--watchers, --chat-rate)
        self.watchers = watchers  # the watchers sent to this table
        self.intents: dict[int, float] = {}  # seq -> time its intent was sent (kept: for the watchers)
        self.watch_latencies: list[float] = []  # intent -> a watcher's onlooker of that seq
        self.seats: list[Any] = []  # the seats' sockets, in the order they were welcomed (who chats)
        self.receivers: list[_Receiver] = []  # seats and watchers in: who hears the chat
        self.pending = 4 + watchers  # clients not yet in (nor turned away)
        self.ready = asyncio.Event()  # every client is in (or turned away): the chat may begin
        self.said: dict[str, tuple[float, int]] = {}  # a line's text -> (time said, receivers then)
        self.heard: dict[str, int] = {}  # a line's text -> receivers that have it
        self.chat_latencies: list[float] = []  # Say -> every receiver's line
        self.top = 0  # the highest line number heard (the server's count of lines taken)

    def arrived(self) -> None:
        self.pending -= 1
        if self.pending <= 0:
            self.ready.set()

    def hear(self, who: _Receiver, data: dict, now: float, stats: dict) -> None:
        """A chat message reaches ``who``: the gaps in its line numbers are lines lost."""
        for line in data["lines"]:
            n = line["n"]
            if n <= who.last:
                continue
            if n > who.last + 1:
                stats["chat lost"] += n - who.last - 1
            who.last = n
            self.top = max(self.top, n)
            text = line.get("text")
            if text not in self.said:
                continue
            k = self.heard[text] = self.heard.get(text, 0) + 1
            when, receivers = self.said[text]
            if k == receivers:
                self.chat_latencies.append(now - when)


class _Receiver:
    """A seat or a watcher, as the chat sees it: the last line number it has."""

    def __init__(self) -> None:
        self.last = 0


async def _client(port: int, code: str, seat_name: str, table: _Table, stats: dict, think: float, stop: float,
                  end: float | None = None) -> None:
    """One seat. ``end`` (the mixed load): the seat stays, reading (the chat too), until
    ``end`` (after the game's end too); it plays no intent after ``stop``."""
    from websockets.asyncio.client import connect

    from mexitrain.net.protocol import Hello, Intent, decode_server, encode
    from mexitrain.rules import view_legal_actions

    mixed = end is not None
    last = None
    me: _Receiver | None = None
    arrived = False

    async def act(seq: int, action: Any) -> None:  # the mixed load: reading goes on while a seat thinks
        if think:
            await asyncio.sleep(think)
        if time.perf_counter() > stop:
            return
        table.sent[seq + 1] = table.intents[seq + 1] = time.perf_counter()
        stats["actions"] += 1
        await ws.send(encode(Intent(seq=seq, action=action)))

    async def play() -> None:
        nonlocal last, me, arrived
        async for text in ws:
            now = time.perf_counter()
            data = json.loads(text)
            kind = data["type"]
            if mixed and kind == "welcome":
                table.seats.append(ws)
                me = _Receiver()
                table.receivers.append(me)
                arrived = True
                table.arrived()
                continue
            if kind == "chat":
                if me is not None:
                    table.hear(me, data, now, stats)
                continue
            if kind in ("error", "refused"):
                if mixed and str(data.get("code", "")).startswith("chat_"):
                    stats["chat refused"] += 1
                    stats["chat refusals"][data["code"]] = stats["chat refusals"].get(data["code"], 0) + 1
                else:
                    stats[kind] += 1
                continue
            if kind != "update":
                continue
            if now > stop and not mixed:
                break  # the run is over: this client leaves (the others see it go and leave too)
            seq = data["seq"]
            if last is not None and seq > last + 1:
                stats["lost"] += seq - last - 1
            if last is not None and seq <= last:
                continue
            last = seq
            n = table.got[seq] = table.got.get(seq, 0) + 1
            if n == 4 and seq in table.sent:
                table.latencies.append(now - table.sent.pop(seq))
            v = data["view"]
            if v["phase"] == "game_over":
                if mixed:
                    continue  # the seat stays at the table (the chat goes on) until the end
                break
            if v["turn"] == v["seat"]:
                if mixed:
                    if now <= stop:
                        tasks.add(asyncio.ensure_future(act(seq, view_legal_actions(decode_server(text).view)[0])))
                    continue
                if think:
                    await asyncio.sleep(think)
                action = view_legal_actions(decode_server(text).view)[0]
                table.sent[seq + 1] = time.perf_counter()
                stats["actions"] += 1
                await ws.send(encode(Intent(seq=seq, action=action)))

    tasks: set[asyncio.Future] = set()
    try:
        async with connect(f"ws://127.0.0.1:{port}/", max_size=2**20, compression=None) as ws:
            await ws.send(encode(Hello(code=code, name=seat_name)))
            if not mixed:
                await play()
                return
            try:
                async with asyncio.timeout(end - time.perf_counter()):
                    await play()
            except TimeoutError:
                pass  # the end of the run
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        if mixed and not arrived:
            table.arrived()


async def _watcher(port: int, code: str, table: _Table, stats: dict, end: float) -> None:
    """One watcher of a table (--watchers): the latency from an intent to its onlooker of that
    seq, the onlooker updates it skipped, the chat it hears; it leaves at ``end``."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from mexitrain.net.protocol import Watch, encode

    last = None
    told = False
    me: _Receiver | None = None
    arrived = False
    try:
        async with connect(f"ws://127.0.0.1:{port}/", max_size=2**20, compression=None) as ws:
            await ws.send(encode(Watch(code=code)))
            try:
                async with asyncio.timeout(end - time.perf_counter()):
                    async for text in ws:
                        now = time.perf_counter()
                        data = json.loads(text)
                        kind = data["type"]
                        if kind == "onlooker":
                            seq = data["seq"]
                            if last is not None and seq > last + 1:
                                stats["onlooker lost"] += seq - last - 1
                            if last is not None and seq <= last:
                                continue
                            last = seq
                            stats["onlookers"] += 1
                            sent = table.intents.get(seq)
                            if sent is not None:
                                table.watch_latencies.append(now - sent)
                        elif kind == "chat":
                            if me is not None:
                                table.hear(me, data, now, stats)
                        elif kind == "watching":
                            stats["watching"] += 1
                            me = _Receiver()
                            table.receivers.append(me)
                            arrived = True
                            table.arrived()
                        elif kind in ("error", "refused"):
                            told = True
                            stats["watch errors"][data.get("code", "?")] = stats["watch errors"].get(data.get("code", "?"), 0) + 1
            except TimeoutError:
                pass  # the end of the run
            except ConnectionClosed:  # closed by the server: after its error (watchers_full), or without a word
                if not told:
                    stats["watch errors"]["closed"] = stats["watch errors"].get("closed", 0) + 1
    finally:
        if not arrived:
            table.arrived()


async def _chat(table: _Table, rate: float, offset: float, stats: dict, stop: float) -> None:
    """A table's chat (--chat-rate): ``rate`` lines a second, said by its seats in turn, from
    when every client of the table is in (``offset`` seconds later, so that the tables do not
    all speak at once) until ``stop``."""
    from websockets.exceptions import ConnectionClosed

    from mexitrain.net.protocol import Say, encode

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(table.ready.wait(), max(0.0, stop - time.perf_counter()))
    start = time.perf_counter() + offset
    i = 0
    while table.seats:
        at = start + i / rate
        if at > stop:
            break
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        ws = table.seats[i % len(table.seats)]
        text = f"line {i + 1}, good luck"
        table.said[text] = (time.perf_counter(), len(table.receivers))
        stats["chat said"] += 1
        try:
            await ws.send(encode(Say(seq=i + 1, text=text)))
        except ConnectionClosed:
            stats["chat unsent"] += 1
        i += 1


async def _clients(tables: list[list], think: float, seconds: float, chat_rate: float = 0.0,
                   drain: float = 0.0) -> dict:
    """The clients of ``tables`` ([port, code] each; with the mixed load [port, code, watchers,
    index, tables]: the table's watchers, its index among all the tables and their number) in
    this process's event loop; their figures."""
    stats: dict[str, Any] = {"actions": 0, "lost": 0, "error": 0, "refused": 0}
    cpu = time.process_time()
    stop = time.perf_counter() + seconds
    per_table = [_Table(*entry[2:3]) for entry in tables]
    mixed = any(len(entry) > 2 for entry in tables) or chat_rate > 0  # the same in every client process
    end = stop + drain if mixed else None
    stats.update({"onlookers": 0, "onlooker lost": 0, "watching": 0, "watch errors": {}, "chat said": 0,
                  "chat refused": 0, "chat refusals": {}, "chat unsent": 0, "chat lost": 0, "chat taken": 0})
    tasks = []
    chats = []
    for entry, t in zip(tables, per_table, strict=True):
        port, code = entry[:2]
        for k in range(4):
            tasks.append(asyncio.wait_for(_client(port, code, f"P{k}", t, stats, think, stop, end), seconds + 30))
        for _ in range(t.watchers):
            tasks.append(asyncio.wait_for(_watcher(port, code, t, stats, end), seconds + 30))
        if chat_rate > 0:
            index, count = (entry[3], entry[4]) if len(entry) > 4 else (0, 1)
            chats.append(asyncio.ensure_future(_chat(t, chat_rate, index / count / chat_rate, stats, stop)))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for c in chats:
        c.cancel()
    await asyncio.gather(*chats, return_exceptions=True)
    stats["failed clients"] = sum(isinstance(r, BaseException) for r in results)
    stats["latencies"] = [x for t in per_table for x in t.latencies]
    stats["watch latencies"] = [x for t in per_table for x in t.watch_latencies]
    stats["chat latencies"] = [x for t in per_table for x in t.chat_latencies]
    for t in per_table:  # the lines a receiver never had after its last one (the gaps are counted as heard)
        stats["chat lost"] += sum(t.top - r.last for r in t.receivers)
        stats["chat taken"] += t.top
    stats["cpu"] = time.process_time() - cpu
    return stats


def _client_child(think: float, seconds: float, chat_rate: float, drain: float) -> None:
    """A process of clients: its tables on stdin, its figures on stdout (JSON)."""
    tables = json.loads(sys.stdin.readline())
    print(json.dumps(asyncio.run(_clients(tables, think, seconds, chat_rate, drain))), flush=True)


def _add(stats: dict, more: dict) -> None:
    for key, value in more.items():
        if isinstance(value, dict):
            for k, v in value.items():
                stats[key][k] = stats[key].get(k, 0) + v
        else:
            stats[key] += value


def _run_clients(tables: list[list], think: float, seconds: float, processes: int, env: dict,
                 chat_rate: float = 0.0, drain: float = 0.0) -> dict:
    """The clients of ``tables`` in ``processes`` processes (this one and ``processes - 1``
    children, each with its share of the tables); their figures added up."""
    shares = [share for share in (tables[i::processes] for i in range(processes)) if share] or [[]]
    children = []
    for share in shares[1:]:
        child = subprocess.Popen(
            [sys.executable, __file__, "--clients", "--think", str(think), "--seconds", str(seconds),
             "--chat-rate", str(chat_rate), "--drain", str(drain)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
        )
        child.stdin.write(json.dumps(share) + "\n")
        child.stdin.flush()
        children.append(child)
    stats = asyncio.run(_clients(shares[0], think, seconds, chat_rate, drain))
    for child in children:
        out, _ = child.communicate(timeout=seconds + drain + 60)
        _add(stats, json.loads(out))
    return stats


# -- the storms ---------------------------------------------------------------------------------


async def _reconnect_storm(port: int, code: str, seconds: float, loops: int) -> dict:
    """The issue's storm: a guest ("Olive") sits and counts what she is sent; another
    ("Mallory") sits, then takes his seat back with his token as fast as he can from
    ``loops`` loops at once for ``seconds``."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from mexitrain.net.protocol import Hello, encode

    uri = f"ws://127.0.0.1:{port}/"
    got = {"lobby": 0, "update": 0, "bytes": 0}
    stats = {"attempts": 0, "welcomed": 0, "too_many": 0, "other": 0}  # other: cut before a word
    stop = asyncio.Event()
    kinds: dict[str, int] = {}

    async def olive() -> None:
        async with connect(uri, max_size=2**20, compression=None) as ws:
            await ws.send(encode(Hello(code=code, name="Olive")))
            seated.set()
            with contextlib.suppress(ConnectionClosed):
                async for text in ws:
                    if counting:
                        kind = json.loads(text)["type"]
                        if kind in got:
                            got[kind] += 1
                        got["bytes"] += len(text)

    async def attempt(token: str) -> None:
        async with connect(uri, max_size=2**20, compression=None, open_timeout=5, local_addr=("127.0.0.2", 0)) as ws:
            with contextlib.suppress(ConnectionClosed):  # refused before it spoke: the answer is read below
                await ws.send(encode(Hello(code=code, name="Mallory", token=token)))
            kind = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if kind["type"] == "welcome":
                stats["welcomed"] += 1
            elif kind.get("code") == "too_many":
                stats["too_many"] += 1
            else:
                stats["other"] += 1

    async def loop(token: str) -> None:
        while not stop.is_set():
            stats["attempts"] += 1
            try:
                await attempt(token)
            except Exception as exc:  # closed at accept (an invalid handshake), reset, timed out
                stats["other"] += 1
                kinds[type(exc).__name__] = kinds.get(type(exc).__name__, 0) + 1

    counting = False
    seated = asyncio.Event()
    watcher = asyncio.create_task(olive())
    await asyncio.wait_for(seated.wait(), 30)
    async with connect(uri, max_size=2**20, compression=None, local_addr=("127.0.0.2", 0)) as ws:
        await ws.send(encode(Hello(code=code, name="Mallory")))
        token = json.loads(await asyncio.wait_for(ws.recv(), 30))["token"]
    await asyncio.sleep(0.5)  # the game is dealt and sent: what comes next is the storm's
    print(json.dumps({"seated": True}), flush=True)  # the other storm may begin
    counting = True
    started = time.perf_counter()
    tasks = [asyncio.create_task(loop(token)) for _ in range(loops)]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    wall = time.perf_counter() - started
    counting = False
    watcher.cancel()
    with contextlib.suppress(BaseException):
        await watcher
    return {**stats, "seconds": wall, "olive": got, "other kinds": kinds}


def _half_open(port: int, n: int, per_address: int, seconds: float, rounds: int, settle: float, rate: float) -> dict:
    """``rounds`` times: ``n`` TCP connections that never say a word, ``per_address`` from
    each of 127.R.2.2, 127.R.2.3… (R the round, from 1), held ``seconds / rounds`` (less ``settle``), then closed;
    after each round's ``settle`` seconds a line {"round": r} (the parent reads the server's
    memory then). They are opened ``rate`` a second (faster, most wait in the kernel's
    queue of the listening socket, which the server never sees). How many the server still
    held at the end of each round (closed by the server: read as end of file or reset; held:
    nothing to read)."""
    _raise_open_files()
    opened = failed = 0
    held: list[int] = []
    took = 0.0
    for r in range(rounds):
        socks = []
        started = time.perf_counter()
        for i in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            try:
                s.bind((f"127.{1 + r}.{2 + i // per_address // 250}.{2 + i // per_address % 250}", 0))
                err = s.connect_ex(("127.0.0.1", port))
            except OSError:
                err = -1
            if err not in (0, errno.EINPROGRESS):
                failed += 1
                s.close()
                continue
            socks.append(s)
            if i % 50 == 49:
                time.sleep(max(0.0, started + (i + 1) / rate - time.perf_counter()))
        took = max(took, time.perf_counter() - started)
        opened += len(socks)
        time.sleep(max(0.0, seconds / rounds - settle - (time.perf_counter() - started)))
        still = 0
        for s in socks:
            try:
                still += s.recv(1) != b""
            except BlockingIOError:
                still += 1  # nothing to read and not closed: held (by the server, or in its backlog)
            except OSError:
                pass  # reset by the server
            s.close()
        held.append(still)
        time.sleep(settle)
        print(json.dumps({"round": r}), flush=True)
    return {"opened": opened, "failed": failed, "held": held, "seconds to open": took}


def _attack(kind: str, port: int, code: str, seconds: float, loops: int, n: int, per_address: int, rounds: int,
            settle: float, rate: float) -> None:
    if kind == "reconnect":
        out = asyncio.run(_reconnect_storm(port, code, seconds, loops))
    else:
        out = _half_open(port, n, per_address, seconds, rounds, settle, rate)
    print(json.dumps(out), flush=True)


def _memory_at_rounds(proc: subprocess.Popen, server: subprocess.Popen, into: list) -> threading.Thread:
    """Read the half-open attacker's lines: the server's memory at each {"round": r}; the
    last line (its figures) is kept in ``into`` too."""
    def run() -> None:
        for line in proc.stdout:
            data = json.loads(line)
            if "round" in data:
                into.append((_rss_mb(server.pid), _probe(server)))
            else:
                into.append(data)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def _last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


class _Memory:
    """The server's RSS, sampled every 0.2 s in a thread: the highest seen."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = _rss_mb(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            now = _rss_mb(self.pid)
            if now is not None and (self.peak is None or now > self.peak):
                self.peak = now

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)


def _mb(x: float | None) -> str:
    return "?" if x is None else f"{x:.0f} MB"


def _held(probe: dict) -> str:
    return "?" if probe.get("held") is None else str(probe["held"])


def _traced(probe: dict) -> str:
    return "" if probe.get("traced") is None else f" (Python {probe['traced']:.1f} MB)"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--think", type=float, default=0.2, help="seconds a client waits before acting")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-autosave", action="store_true", help="the servers skip the autosaves (to measure their cost)")
    p.add_argument("--traced", action="store_true",
                   help="the server counts Python's own allocations (tracemalloc: slower; the memory figures say them)")
    p.add_argument("--profile", metavar="FILE", help="the server process runs under cProfile and writes its stats to FILE")
    p.add_argument("--client-processes", type=int, default=2, metavar="K",
                   help="run the clients in K processes, each with its share of the tables (default 2)")
    p.add_argument("--watchers", type=int, default=0, metavar="N",
                   help="N watchers in all, spread over the tables (50 at 50 tables: one each; at most 20 a table)")
    p.add_argument("--chat-rate", type=float, default=0.0, metavar="R",
                   help="chat lines a second at each table, said by its seats in turn (default 0: no chat)")
    p.add_argument("--drain", type=float, default=1.0, metavar="SECONDS",
                   help="with watchers or chat: seconds everyone stays after the run, to read what is on its way (default 1)")
    p.add_argument("--reconnect-storm", action="store_true",
                   help="a guest of one more table takes its seat back with its token as fast as it can")
    p.add_argument("--storm-loops", type=int, default=4, metavar="K", help="the reconnect storm's loops at once (default 4)")
    p.add_argument("--half-open", type=int, default=0, metavar="N",
                   help="N silent TCP connections to one more table, held for the run")
    p.add_argument("--per-address", type=int, default=30, metavar="K",
                   help="the silent connections from each address, 127.1.2.2 on (default 30)")
    p.add_argument("--open-rate", type=float, default=2000.0, metavar="N",
                   help="the half-open connections opened N a second (default 2000)")
    p.add_argument("--rounds", type=int, default=1, metavar="R",
                   help="the half-open connections opened and closed R times during the run (default 1)")
    p.add_argument("--settle", type=float, default=2.0, metavar="SECONDS",
                   help="after a storm (and each half-open round): seconds before the server's memory is read (default 2)")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--target", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--clients", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--attack", choices=("reconnect", "half-open"), help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--code", help=argparse.SUPPRESS)
    p.add_argument("--data", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve:
        if args.profile:
            _serve_profiled(args.tables, args.seed, args.data, args.profile, args.target)
        else:
            asyncio.run(_serve(args.tables, args.seed, args.data, args.target))
        return 0
    if args.clients:
        _client_child(args.think, args.seconds, args.chat_rate, args.drain)
        return 0
    if args.attack:
        _attack(args.attack, args.port, args.code, args.seconds, args.storm_loops, args.half_open, args.per_address,
                args.rounds, args.settle, args.open_rate)
        return 0
    storm = args.reconnect_storm or args.half_open > 0
    attacks: dict[str, dict] = {}
    memory: dict[str, Any] = {}
    rounds: list[Any] = []
    with tempfile.TemporaryDirectory() as data:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        if args.no_autosave:
            env["SERVER_LOAD_NO_AUTOSAVE"] = "1"
        if args.traced:
            env["SERVER_LOAD_TRACED"] = "1"
        child = subprocess.Popen(
            [sys.executable, __file__, "--serve", "--tables", str(args.tables), "--seed", str(args.seed), "--data", data,
             *(["--profile", args.profile] if args.profile else []), *(["--target"] if storm else [])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
        )
        attackers: list[tuple[str, subprocess.Popen]] = []
        try:
            tables = json.loads(child.stdout.readline())
            target = tables.pop() if storm else None
            mixed = args.watchers > 0 or args.chat_rate > 0
            if mixed:  # each table: its watchers (the N spread over the tables), its index, their number
                n = len(tables)
                tables = [[port, code, args.watchers // n + (i < args.watchers % n), i, n]
                          for i, (port, code) in enumerate(tables)]
            memory["before"] = _rss_mb(child.pid)
            memory["before probe"] = _probe(child)
            sampler = _Memory(child.pid)
            started = time.perf_counter()
            cpu_server = _cpu_seconds(child.pid)
            for kind, wanted in (("reconnect", args.reconnect_storm), ("half-open", args.half_open > 0)):
                if wanted and target is not None:
                    attackers.append((kind, subprocess.Popen(
                        [sys.executable, __file__, "--attack", kind, "--port", str(target[0]), "--code", target[1],
                         "--seconds", str(args.seconds), "--storm-loops", str(args.storm_loops),
                         "--half-open", str(args.half_open), "--per-address", str(args.per_address),
                         "--rounds", str(args.rounds), "--settle", str(args.settle), "--open-rate", str(args.open_rate)],
                        stdout=subprocess.PIPE, text=True, env=env,
                    )))
                    if kind == "reconnect":  # its two guests sit before the table is filled with silence
                        attackers[-1][1].stdout.readline()
                    else:
                        reader = _memory_at_rounds(attackers[-1][1], child, rounds)
            stats = _run_clients(tables, args.think, args.seconds, max(1, args.client_processes), env,
                                 args.chat_rate, args.drain if mixed else 0.0)
            for kind, proc in attackers:
                if kind == "half-open":
                    proc.wait(args.seconds + 60)
                    reader.join(10)
                    attacks[kind] = rounds.pop()
                    memory["rounds"] = rounds
                else:
                    out, _ = proc.communicate(timeout=args.seconds + 60)
                    attacks[kind] = _last_json(out)
            wall = time.perf_counter() - started
            cpu_clients = stats.pop("cpu")
            end_server = _cpu_seconds(child.pid)
            cpu_server = None if cpu_server is None or end_server is None else end_server - cpu_server
            sampler.stop()
            memory["peak"] = sampler.peak
            if storm:
                time.sleep(args.settle)
            memory["after"] = _rss_mb(child.pid)
            memory["after probe"] = _probe(child)
        finally:
            for _, proc in attackers:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            child.stdin.close()
            try:
                child.wait(30)
            except subprocess.TimeoutExpired:
                child.kill()
    lat = [x * 1000 for x in stats.pop("latencies")]
    print(f"tables: {args.tables} x 4 clients in {max(1, args.client_processes)} process(es), "
          f"think {args.think} s, {wall:.1f} s" + (f" (the last {args.drain:g} s reading what was on its way)" if mixed else ""))
    print(f"actions: {stats['actions']} ({stats['actions'] / wall:.0f}/s), updates measured: {len(lat)}")
    if lat:
        print(f"intent -> every seat's update: p50 {statistics.median(lat):.1f} ms, "
              f"p95 {_pct(lat, 0.95):.1f} ms, p99 {_pct(lat, 0.99):.1f} ms, max {max(lat):.1f} ms")
    cores = os.cpu_count() or 1
    share = f"server {cpu_server / wall:.0%}, " if cpu_server is not None else ""
    print(f"CPU (of one core; {cores} cores): {share}clients {cpu_clients / wall:.0%}")
    print(f"lost updates: {stats['lost']}, errors: {stats['error']}, refused: {stats['refused']}, "
          f"failed clients: {stats['failed clients']}")
    if args.watchers > 0:
        watch = [x * 1000 for x in stats["watch latencies"]]
        print(f"watchers: {args.watchers} ({stats['watching']} watching"
              + "".join(f", {n} {code}" for code, n in sorted(stats["watch errors"].items()))
              + f"), onlooker updates: {stats['onlookers']}, measured: {len(watch)}")
        if watch:
            print(f"intent -> the watcher's onlooker: p50 {statistics.median(watch):.1f} ms, "
                  f"p95 {_pct(watch, 0.95):.1f} ms, max {max(watch):.1f} ms")
        print(f"lost onlooker updates: {stats['onlooker lost']}")
    if args.chat_rate > 0:
        said = [x * 1000 for x in stats["chat latencies"]]
        refusals = ", ".join(f"{n} {code}" for code, n in sorted(stats["chat refusals"].items()))
        print(f"chat: {args.chat_rate:g} line(s)/s a table, {stats['chat said']} said, {stats['chat taken']} taken "
              f"(numbered by the servers), refused: {stats['chat refused']}{f' ({refusals})' if refusals else ''}"
              + (f", unsent (seat gone): {stats['chat unsent']}" if stats["chat unsent"] else "")
              + f", measured: {len(said)}")
        if said:
            print(f"say -> every seat's and watcher's line: p50 {statistics.median(said):.1f} ms, "
                  f"p95 {_pct(said, 0.95):.1f} ms, max {max(said):.1f} ms")
        print(f"chat lines lost (a receiver missing a line number): {stats['chat lost']}")
    storm_ = attacks.get("reconnect")
    if storm_:
        secs = storm_["seconds"] or 1
        olive = storm_["olive"]
        print(f"reconnect storm ({args.storm_loops} loops): {storm_['attempts']} attempts "
              f"({storm_['attempts'] / secs:.0f}/s), {storm_['welcomed']} let in, {storm_['too_many']} too_many, "
              f"{storm_['other']} closed without a word {storm_['other kinds'] or ''}")
        print(f"  the other guest was sent {olive['lobby']} lobby ({olive['lobby'] / secs:.1f}/s) and "
              f"{olive['update']} update ({olive['update'] / secs:.1f}/s) messages, {olive['bytes'] / secs / 1024:.1f} KB/s")
    half = attacks.get("half-open")
    if half:
        print(f"half-open: {half['opened']} opened in {args.rounds} round(s), at most {half['seconds to open']:.1f} s "
              f"a round ({half['failed']} failed); still open at each round's end: {half['held']}")
        print(f"  {args.settle:g} s after each round: "
              + ", ".join(f"{_mb(rss)}{_traced(probe)}, {_held(probe)} connections held" for rss, probe in memory["rounds"]))
    if storm or memory.get("before") is not None:
        before, after = memory["before probe"], memory["after probe"]
        print(f"server memory (RSS): before {_mb(memory.get('before'))}{_traced(before)}, highest {_mb(memory.get('peak'))}, "
              f"after {_mb(memory.get('after'))}{_traced(after)}" + (f" ({args.settle:g} s after the storm)" if storm else ""))
        print(f"connections held by the server: before {_held(before)}, after {_held(after)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
