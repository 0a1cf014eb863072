"""A table is held by the one server that runs it, from the moment it listens (its lobby too)
until it closes: ``mexitrain host --resume`` elsewhere is refused in one line, and its files
are in play for every other game (:mod:`mexitrain.storage.inplay`; issue 32, item 5)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys

import pytest
from support.net import served, table

from mexitrain import cli
from mexitrain.commands import host
from mexitrain.net.server import TableServer
from mexitrain.storage.inplay import in_play
from mexitrain.storage.savefile import SaveError


def _host(data_dir, *args):
    env = dict(os.environ, MEXITRAIN_DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "mexitrain", "--lang", "en", "host", "--no-play", "--bind", "127.0.0.1",
         "--port", "0", "--speed", "0", "--ai", "random", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )


async def test_a_table_in_its_lobby_is_not_reopened_twice(tmp_path, monkeypatch, capsys) -> None:
    proc = _host(tmp_path, "--players", "3")
    try:
        line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 60)
        m = re.search(r"Table ([A-Z]{4,12}) open on", line)
        assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
        code = m[1]
        folder = tmp_path / "tables" / code
        assert (folder / "table.json").exists() and not (folder / "game.json").exists()  # in its lobby
        # another process reopening it: refused, in one line, before anything is served
        with pytest.raises(SaveError) as refused:
            TableServer.resume(tmp_path, code)
        assert refused.value.code == "busy"
        served_again: list = []
        monkeypatch.setattr(host, "_headless", lambda server, *a: served_again.append(server) or asyncio.sleep(0, 0))
        for asked in ([code], []):  # by its code, or the newest table
            assert cli.main(["--lang", "en", "host", "--data-dir", str(tmp_path), "--no-play", "--resume", *asked]) == 1
            out, err = capsys.readouterr()
            assert out == ""
            assert err == f"mexitrain: error: cannot reopen table {code}: it is open in another process\n"
        assert served_again == []
        assert in_play(folder / "table.json")  # nor do other games open its files
        # once that server stops, the table is reopened as ever, still in its lobby
        proc.send_signal(signal.SIGINT)
        await asyncio.to_thread(proc.wait, 30)
        assert not in_play(folder / "table.json")
        reopened = TableServer.resume(tmp_path, code)
        assert reopened.code == code and reopened.state is None
        await reopened.files.close(None, reopened.setup, 0)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()


async def test_the_lock_is_held_while_the_table_listens_and_let_go_when_it_closes(tmp_path) -> None:
    async with served(table(3, 2), tmp_path) as server:
        folder = tmp_path / "tables" / server.code
        assert in_play(folder / "table.json") and in_play(folder)  # this process hosts it: in play too
        again = TableServer.resume(tmp_path, server.code)  # the same process: its own lock
        assert again.code == server.code
    assert not in_play(folder / "table.json")


async def test_a_table_that_cannot_be_read_lets_go_of_its_lock(tmp_path) -> None:
    async with served(table(3, 2), tmp_path) as server:
        code = server.code
    (tmp_path / "tables" / code / "table.json").write_text("{")
    with pytest.raises(SaveError):
        TableServer.resume(tmp_path, code)
    assert not in_play(tmp_path / "tables" / code / "table.json")
