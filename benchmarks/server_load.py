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

    .venv/bin/python benchmarks/server_load.py                      # 50 tables x 4, 20 s
    .venv/bin/python benchmarks/server_load.py --tables 10 --seconds 5 --think 0
    .venv/bin/python benchmarks/server_load.py --client-processes 1  # every client in one process

Aim: p95 < 50 ms at 50 tables with people's pace. A plain script: it prints figures and
asserts nothing (timings depend on the machine and on what else runs on it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from ai_speed import _pct  # noqa: E402  (the same percentile as the players' timings)


def _cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a process has used so far, from /proc (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


async def _serve(tables: int, seed: int, data: str) -> None:
    from mexitrain.net.server import TableServer
    from mexitrain.rules import make_rules
    from mexitrain.table import GameSetup, SeatConfig

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
    print(json.dumps([[s.port, s.code] for s in servers]), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent closes stdin
    for s in servers:
        await s.stop()


def _serve_profiled(tables: int, seed: int, data: str, out: str) -> None:
    import cProfile

    profile = cProfile.Profile()
    profile.enable()
    try:
        asyncio.run(_serve(tables, seed, data))
    finally:
        profile.disable()
        profile.dump_stats(out)


class _Table:
    def __init__(self) -> None:
        self.sent: dict[int, float] = {}  # seq of the update an intent leads to -> time sent
        self.got: dict[int, int] = {}  # seq -> seats that have it
        self.latencies: list[float] = []


async def _client(port: int, code: str, seat_name: str, table: _Table, stats: dict, think: float, stop: float) -> None:
    from websockets.asyncio.client import connect

    from mexitrain.net.protocol import Hello, Intent, decode_server, encode
    from mexitrain.rules import view_legal_actions

    last = None
    async with connect(f"ws://127.0.0.1:{port}/", max_size=2**20, compression=None) as ws:
        await ws.send(encode(Hello(code=code, name=seat_name)))
        async for text in ws:
            now = time.perf_counter()
            data = json.loads(text)
            kind = data["type"]
            if kind in ("error", "refused"):
                stats[kind] += 1
                continue
            if kind != "update":
                continue
            if now > stop:
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
                break
            if v["turn"] == v["seat"]:
                if think:
                    await asyncio.sleep(think)
                action = view_legal_actions(decode_server(text).view)[0]
                table.sent[seq + 1] = time.perf_counter()
                stats["actions"] += 1
                await ws.send(encode(Intent(seq=seq, action=action)))


async def _clients(tables: list[list], think: float, seconds: float) -> dict:
    stats = {"actions": 0, "lost": 0, "error": 0, "refused": 0}
    cpu = time.process_time()
    stop = time.perf_counter() + seconds
    per_table = [_Table() for _ in tables]
    tasks = []
    for (port, code), t in zip(tables, per_table, strict=True):
        for k in range(4):
            tasks.append(asyncio.wait_for(_client(port, code, f"P{k}", t, stats, think, stop), seconds + 30))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats["failed clients"] = sum(isinstance(r, BaseException) for r in results)
    stats["latencies"] = [x for t in per_table for x in t.latencies]
    stats["cpu"] = time.process_time() - cpu
    return stats


def _client_child(think: float, seconds: float) -> None:
    """A process of clients: its tables on stdin, its figures on stdout (JSON)."""
    tables = json.loads(sys.stdin.readline())
    print(json.dumps(asyncio.run(_clients(tables, think, seconds))), flush=True)


def _run_clients(tables: list[list], think: float, seconds: float, processes: int, env: dict) -> dict:
    """The clients of ``tables`` in ``processes`` processes (this one and ``processes - 1``
    children, each with its share of the tables); their figures added up."""
    shares = [share for share in (tables[i::processes] for i in range(processes)) if share] or [[]]
    children = []
    for share in shares[1:]:
        child = subprocess.Popen(
            [sys.executable, __file__, "--clients", "--think", str(think), "--seconds", str(seconds)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
        )
        child.stdin.write(json.dumps(share) + "\n")
        child.stdin.flush()
        children.append(child)
    stats = asyncio.run(_clients(shares[0], think, seconds))
    for child in children:
        out, _ = child.communicate(timeout=seconds + 60)
        for key, value in json.loads(out).items():
            stats[key] += value
    return stats


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--think", type=float, default=0.2, help="seconds a client waits before acting")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-autosave", action="store_true", help="the servers skip the autosaves (to measure their cost)")
    p.add_argument("--profile", metavar="FILE", help="the server process runs under cProfile and writes its stats to FILE")
    p.add_argument("--client-processes", type=int, default=2, metavar="K",
                   help="run the clients in K processes, each with its share of the tables (default 2)")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--clients", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--data", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve:
        if args.profile:
            _serve_profiled(args.tables, args.seed, args.data, args.profile)
        else:
            asyncio.run(_serve(args.tables, args.seed, args.data))
        return 0
    if args.clients:
        _client_child(args.think, args.seconds)
        return 0
    with tempfile.TemporaryDirectory() as data:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        if args.no_autosave:
            env["SERVER_LOAD_NO_AUTOSAVE"] = "1"
        child = subprocess.Popen(
            [sys.executable, __file__, "--serve", "--tables", str(args.tables), "--seed", str(args.seed), "--data", data,
             *(["--profile", args.profile] if args.profile else [])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
        )
        try:
            tables = json.loads(child.stdout.readline())
            started = time.perf_counter()
            cpu_server = _cpu_seconds(child.pid)
            stats = _run_clients(tables, args.think, args.seconds, max(1, args.client_processes), env)
            wall = time.perf_counter() - started
            cpu_clients = stats.pop("cpu")
            end_server = _cpu_seconds(child.pid)
            cpu_server = None if cpu_server is None or end_server is None else end_server - cpu_server
        finally:
            child.stdin.close()
            try:
                child.wait(30)
            except subprocess.TimeoutExpired:
                child.kill()
    lat = [x * 1000 for x in stats.pop("latencies")]
    print(f"tables: {args.tables} x 4 clients in {max(1, args.client_processes)} process(es), "
          f"think {args.think} s, {wall:.1f} s")
    print(f"actions: {stats['actions']} ({stats['actions'] / wall:.0f}/s), updates measured: {len(lat)}")
    if lat:
        print(f"intent -> every seat's update: p50 {statistics.median(lat):.1f} ms, "
              f"p95 {_pct(lat, 0.95):.1f} ms, p99 {_pct(lat, 0.99):.1f} ms, max {max(lat):.1f} ms")
    cores = os.cpu_count() or 1
    share = f"server {cpu_server / wall:.0%}, " if cpu_server is not None else ""
    print(f"CPU (of one core; {cores} cores): {share}clients {cpu_clients / wall:.0%}")
    print(f"lost updates: {stats['lost']}, errors: {stats['error']}, refused: {stats['refused']}, "
          f"failed clients: {stats['failed clients']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
