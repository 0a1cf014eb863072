"""``mexitrain host --no-play`` under a storm (docs/threat-model/flood.md): its lines never
stop the table when nobody reads them (a bounded log written by a thread, lines dropped and
counted), Ctrl+C still closes it, and it raises its own open-file limit."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from mexitrain.commands.hostlog import HostLog
from mexitrain.net.protocol import Hello, Intent, Update, decode_server, encode
from mexitrain.rules import view_legal_actions

fcntl = pytest.importorskip("fcntl")


def _host(data: Path, *args: str, **kw) -> subprocess.Popen[bytes]:
    env = dict(os.environ, MEXITRAIN_DATA_DIR=str(data))
    return subprocess.Popen(
        [sys.executable, "-m", "mexitrain", "--lang", "en", "host", "--no-play", "--bind", "127.0.0.1",
         "--port", "0", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, **kw,
    )


def _first_line(proc) -> tuple[int, str]:
    line = proc.stdout.readline().decode()
    m = re.match(r"Table ([A-Z]{6}) open on 127\.0\.0\.1:(\d+)", line)
    assert m, line
    return int(m.group(2)), m.group(1)


def _stop(proc) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)


async def _answer(ws, timeout=10.0):
    return decode_server(await asyncio.wait_for(ws.recv(), timeout))


@pytest.mark.skipif(not hasattr(fcntl, "F_SETPIPE_SZ"), reason="pipe sizes are Linux's")
async def test_an_unread_output_never_stops_the_table(tmp_path):
    """Nobody reads the host's output (its pipe shrunk to one page); seven seats are taken
    back and left again and again, each line waits; the seat to play still has its legal move
    answered, and Ctrl+C still closes the table (exit 130). Today's host blocks in ``print``
    for good once the pipe is full."""
    proc = _host(tmp_path, "--players", "8", "--seed", "2", "--option", "rounds=1", "--speed", "0", "--ai", "random")
    try:
        port, code = _first_line(proc)
        for pipe in (proc.stdout, proc.stderr):  # from now on nobody reads: one page fills them
            fcntl.fcntl(pipe.fileno(), fcntl.F_SETPIPE_SZ, 4096)
        uri = f"ws://127.0.0.1:{port}/"
        async with connect(uri) as ann:  # seat 0, the first to play with seed 2
            await ann.send(encode(Hello(code=code, name="Ann")))
            assert (await _answer(ann)).seat == 0
            tokens = []
            for i in range(1, 8):
                async with connect(uri) as ws:
                    await ws.send(encode(Hello(code=code, name=f"{'Storm' * 3}{i:04d}")))
                    tokens.append((await _answer(ws)).token)
            # the storm: each seat back and gone twelve times (past its allowance of ten)
            for i, token in enumerate(tokens):
                for _ in range(12):
                    try:
                        async with asyncio.timeout(10), connect(uri, local_addr=(f"127.0.0.{2 + i}", 0)) as ws:
                            await ws.send(encode(Hello(code=code, name="x", token=token)))
                            with contextlib.suppress(ConnectionClosed):
                                await ws.recv()
                    except TimeoutError:
                        break  # the host stopped answering
            update = await _answer(ann)
            while not isinstance(update, Update) or update.view.turn != 0:
                update = await _answer(ann)
            await ann.send(encode(Intent(seq=update.seq, action=view_legal_actions(update.view)[0])))
            while not (isinstance(update, Update) and update.seq > 0):
                update = await _answer(ann)
            assert update.seq == 1
        proc.send_signal(signal.SIGINT)
        assert await asyncio.to_thread(proc.wait, 30) == 130
    finally:
        _stop(proc)


def test_the_host_raises_its_open_file_limit(tmp_path):
    """Started with a soft limit of 256 open files, the host raises it toward its hard limit."""
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 256 or not Path("/proc/self/limits").exists():
        pytest.skip("no room above 256 open files, or no /proc")
    want = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)

    def low() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))

    proc = _host(tmp_path, preexec_fn=low)
    try:
        _first_line(proc)
        limits = Path(f"/proc/{proc.pid}/limits").read_text()
        [row] = [r for r in limits.splitlines() if r.startswith("Max open files")]
        assert int(row.split()[3]) == want, row
    finally:
        _stop(proc)


def _in_thread(fn, timeout=10.0):
    """Run ``fn`` in a thread; fail if it has not returned within ``timeout`` (it blocked)."""
    done = threading.Event()
    out = []

    def run():
        out.append(fn())
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(timeout), "blocked"
    return out[0]


def test_the_log_drops_and_counts_what_an_unread_pipe_cannot_take():
    r, w = os.pipe()
    fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 4096)
    stream = open(w, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    log = HostLog(stream, capacity=10, dropped=lambda n: f"DROPPED {n}")
    try:
        # 2000 lines of 100 bytes: the pipe takes 40, the queue 10, the rest is counted
        _in_thread(lambda: [log.say(f"{i:04d} " + "x" * 95) for i in range(2000)])
        reader = open(r, encoding="utf-8")  # noqa: SIM115
        got = []
        t = threading.Thread(target=lambda: got.extend(reader.read().splitlines()), daemon=True)
        t.start()
        log.say("after")
        assert _in_thread(lambda: log.close(5)) is True
        stream.close()
        t.join(10)
        # each line is written, or counted where it went missing: between two lines written
        # the count says how many were dropped ("after" too if the writer had not caught up)
        expected, counted = 0, 0
        for line in got:
            if line.startswith("DROPPED"):
                expected += int(line.split()[1])
                counted += int(line.split()[1])
            elif line == "after":
                assert expected == 2000
                expected += 1
            else:
                assert int(line[:4]) == expected, line[:10]
                expected += 1
        assert expected == 2001 and counted == log.dropped > 1000
        assert got[-1] == "after" or got[-1].startswith("DROPPED")
    finally:
        with contextlib.suppress(OSError):
            stream.close()


def test_the_log_gives_up_on_an_output_that_never_reads_and_on_a_closed_one():
    r, w = os.pipe()
    fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 4096)
    stream = open(w, "w", encoding="utf-8")  # noqa: SIM115
    log = HostLog(stream, capacity=100)
    _in_thread(lambda: [log.say("y" * 200) for _ in range(100)])
    assert _in_thread(lambda: log.close(0.2)) is False  # stuck writer: close gives up
    os.close(r)  # the reader goes: the writer's EPIPE ends it quietly
    r2, w2 = os.pipe()
    os.close(r2)
    gone = HostLog(open(w2, "w", encoding="utf-8"), capacity=100)  # noqa: SIM115
    _in_thread(lambda: [gone.say("z") for _ in range(50)])
    assert _in_thread(lambda: gone.close(5)) is False
    with contextlib.suppress(OSError):
        stream.close()
