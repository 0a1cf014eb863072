"""``mexitrain host --no-play``: the line said when the table closes with guests still there.
Mid-game it can be reopened (``--resume``); once the game is over there is nothing to reopen:
the line says so, where the finished game is kept, and the command that replays it.
Real processes, a guest connected over the network (mexitrain.net)."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

from support.net import FAST, until

from mexitrain.commands.host import CONSOLE_LINE
from mexitrain.net.bot import play_bot
from mexitrain.net.client import TableClient
from mexitrain.net.protocol import Update
from mexitrain.storage import load_save, saves_dir
from mexitrain.text import net as t


def _host(data: Path) -> subprocess.Popen[str]:
    """A headless table of 2 seats, 1 round on a double-6 set, computers at once."""
    env = dict(os.environ, MEXITRAIN_DATA_DIR=str(data), PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "mexitrain", "--lang", "en", "host", "--no-play", "--bind", "127.0.0.1",
         "--port", "0", "--players", "2", "--option", "set=6", "--option", "rounds=1", "--speed", "0",
         "--ai", "random", "--seed", "5"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )


async def _line(proc: subprocess.Popen[str], pattern: str, timeout: float = 60.0) -> re.Match[str]:
    def read() -> re.Match[str] | None:
        while True:
            line = proc.stdout.readline()
            if not line:
                return None
            m = re.search(pattern, line)
            if m:
                return m

    m = await asyncio.wait_for(asyncio.to_thread(read), timeout)
    assert m is not None, f"no line matching {pattern!r}"
    return m


async def _closed_by_ctrl_c(proc: subprocess.Popen[str]) -> list[str]:
    """SIGINT; the exit status 130 and nothing on stderr; the lines stdout said then."""
    proc.send_signal(signal.SIGINT)
    out, err = await asyncio.to_thread(proc.communicate, timeout=30)
    assert proc.returncode == 130 and err == "", err
    return out.strip().splitlines()


async def _seated(proc: subprocess.Popen[str]) -> tuple[str, str]:
    m = await _line(proc, r"Table ([A-Z]{6}) open on 127\.0\.0\.1:(\d+)")
    return f"127.0.0.1:{m.group(2)}", m.group(1)


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.communicate()


async def test_ctrl_c_mid_game_says_the_table_can_be_reopened(tmp_path: Path) -> None:
    proc = _host(tmp_path / "host")
    try:
        address, code = await _seated(proc)
        # a guest who sits and never plays: the game waits for them, mid-round
        updates: list[Update] = []
        guest = TableClient(address, code, "Ann", data_dir=tmp_path / "ann", backoff=FAST)
        task = asyncio.create_task(guest.run(lambda m: updates.append(m) if isinstance(m, Update) else None, lambda st: None))
        await _line(proc, r"Ann sits in seat")
        proc.stdin.write("\n")  # Enter: the other seat goes to a computer player
        proc.stdin.flush()
        await until(lambda: bool(updates), timeout=60)
        assert not updates[-1].view.phase == "game_over"
        assert (await _closed_by_ctrl_c(proc))[-1] == t.stopped_line()
        await asyncio.wait_for(task, 20)  # told the table closed: the client stops
        assert not list(saves_dir(tmp_path / "host").glob("*.json"))  # nothing finished to keep
    finally:
        _stop(proc)


async def test_ctrl_c_after_the_end_says_where_the_game_is_and_how_to_replay_it(tmp_path: Path) -> None:
    data = tmp_path / "my data"  # a space: the command printed is quoted for the shell
    proc = _host(data)
    try:
        address, code = await _seated(proc)
        # a guest who plays to the end and stays at the table
        bot = asyncio.create_task(
            play_bot(address, code, "Ann", seed=1, data_dir=tmp_path / "ann", backoff=FAST, until_over=False)
        )
        await _line(proc, r"Ann sits in seat")
        proc.stdin.write("\n")
        proc.stdin.flush()
        await _line(proc, r"The game is over\.")
        said = await _closed_by_ctrl_c(proc)
        last = said[-1]
        # the guest's link closes with the table: nothing waits for them once the game is over
        assert t.left_line("Ann", 0, over=True) in said and not any("waits for them" in s for s in said)
        [kept] = saves_dir(data).glob(f"table-{code}-*.json")
        assert last == (
            f"Table closed: the game is over and kept in {kept}; mexitrain --replay {shlex.quote(str(kept))} replays it."
        )
        assert "--resume" not in last
        assert load_save(kept).state.over
        await asyncio.wait_for(bot, 20)
    finally:
        _stop(proc)


async def test_the_terminal_of_a_table_without_a_seat_removes_a_person(tmp_path: Path) -> None:
    """``host --no-play`` has no screen with Ctrl+X: ``remove N`` and Enter at its terminal
    removes the person of seat N (a computer takes the seat, their token stops working);
    a seat no person holds, or another line, is answered in one line and changes nothing; a
    line past the bound (CONSOLE_LINE) is no command, whatever it ends with."""
    proc = _host(tmp_path / "host")
    try:
        address, code = await _seated(proc)
        guest = TableClient(address, code, "Ann", data_dir=tmp_path / "ann", backoff=FAST)
        task = asyncio.create_task(guest.run(lambda m: None, lambda st: None))
        await _line(proc, r"Ann sits in seat 1\.")
        for typed in (" " * (CONSOLE_LINE + 50) + "remove 1\n", "remove 2\n", "remove 1\n"):
            proc.stdin.write(typed)
        proc.stdin.flush()
        assert (await _line(proc, r"^Enter starts the game; .remove N. removes")).string.count("\n") == 1
        await _line(proc, r"^Seat 2 is not a person's: nobody was removed\.$")
        await _line(proc, r"^Ann was removed from seat 1: a computer player takes it\.$")
        fatal = await asyncio.wait_for(task, 20)
        assert fatal is not None and fatal.code == "removed"
        proc.stdin.write("\n")  # Enter: the game starts with computers in both seats
        proc.stdin.flush()
        await _line(proc, r"The game starts")
    finally:
        _stop(proc)
