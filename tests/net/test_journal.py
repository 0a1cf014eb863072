"""The journal through the real resume (mexitrain.net.files.load, TableServer.resume, mexitrain
host --resume): a table killed while writing a move, resumed, killed again while writing a
later move and resumed again has every move announced before each crash; a journal damaged
otherwise stops the resume in one line naming the line; a journal the disk refuses is given
up for full saves after each move."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import os
import shutil
import subprocess
import sys

import pytest
from support.net import table

from mexitrain import cli
from mexitrain.net import files
from mexitrain.net.server import TableServer
from mexitrain.rules.record import replay
from mexitrain.storage import SaveError, saves_dir, tokens
from mexitrain.storage.tokens import journal_path, load_table

from .test_leaks import states_by_seq


def crash_copy(live, code: str, dest) -> None:
    """``dest`` gets the table's files as they are on disk at this instant: what a process
    killed now would leave (the lock files are the process's own, not the disk's)."""
    src, dst = live / "tables" / code, dest / "tables" / code
    dst.mkdir(parents=True, exist_ok=True)
    for name in ("table.json", "game.json", "moves.jsonl"):
        if (src / name).exists():
            shutil.copyfile(src / name, dst / name)


def tear_last_line(root, code: str, keep: int | None) -> int:
    """The crash came ``keep`` bytes into writing the last line (None: halfway; -1: all but
    its newline). Returns the bytes left of it."""
    path = journal_path(root, code)
    data = path.read_bytes()
    start = data.rindex(b"\n", 0, len(data) - 1) + 1
    length = len(data) - start
    keep = length // 2 if keep is None else keep % length
    path.write_bytes(data[: start + keep])
    return keep


async def play_until(server: TableServer, seq: int, dest, *, saved: bool = False) -> dict[int, object]:
    """The server's computers play; when move ``seq`` is written (and about to be announced),
    the disk is copied to ``dest`` (once the full saves handed in are written, if ``saved``).
    Returns the game after each move by then."""
    states: dict[int, object] = {}
    taken = asyncio.Event()
    moved = server.files.moved

    def spy(n, action, before, after, setup):
        moved(n, action, before, after, setup)
        states[n] = after
        if n == seq:
            if saved:
                server.files.saver.flush()
            crash_copy(server.root, server.code, dest)
            taken.set()

    server.files.moved = spy
    await server.start("127.0.0.1", 0)
    try:
        if not server.started:
            server.start_game("random")
        await asyncio.wait_for(taken.wait(), 60)
    finally:
        await server.stop()
    return states


@pytest.mark.parametrize("torn", [1, None, -1], ids=["one-byte", "halfway", "newline-missing"])
async def test_two_crashes_in_a_row_lose_no_announced_move(tmp_path, caplog, torn):
    """Killed while writing move 8, resumed (move 7 is where it stopped, and the host's log
    says the torn line was cut), killed while writing move 20, resumed: moves 8 to 19, played
    after the first resume, are all there."""
    caplog.set_level(logging.WARNING, logger="mexitrain.net.files")
    setup = table(3, 0, seed=11)  # three computer players
    live = TableServer(setup, data_dir=tmp_path / "live", open_seats=(), host_seat=None, pace=0)
    code = live.code
    first = await play_until(live, 8, tmp_path / "crash1")
    kept = tear_last_line(tmp_path / "crash1", code, torn)

    again = TableServer.resume(tmp_path / "crash1", code, pace=0)
    assert again.seq == 7 and again.state == first[7]
    said = [r.getMessage() for r in caplog.records if "moves.jsonl" in r.getMessage()]
    assert said == [f"{journal_path(tmp_path / 'crash1', code)}: its last line, cut short by a crash "
                    f"({kept} byte{'s' if kept > 1 else ''}, a move never announced), was removed"]
    second = await play_until(again, 20, tmp_path / "crash2")
    assert not second[19].over
    tear_last_line(tmp_path / "crash2", code, torn)

    _, _, state = files.load(tmp_path / "crash2", code)
    assert files.count_actions(state) == 19 and state == second[19]
    third = TableServer.resume(tmp_path / "crash2", code, pace=0)
    assert third.seq == 19 and third.state == second[19]
    # moves 8 to 19 as they were announced after the first resume
    assert all(states_by_seq(state)[n] == second[n] for n in range(8, 20))


async def test_the_host_resumes_a_torn_journal_to_the_end_in_one_line(tmp_path):
    """mexitrain host --resume on a journal cut mid-line: the torn line is cut (one line in
    the host's log), the game is played to its end, and the finished game has every move
    announced before the crash."""
    setup = table(3, 0, seed=5)
    live = TableServer(setup, data_dir=tmp_path / "live", open_seats=(), host_seat=None, pace=0)
    code = live.code
    states = await play_until(live, 12, tmp_path / "data")
    tear_last_line(tmp_path / "data", code, None)
    env = dict(os.environ, MEXITRAIN_DATA_DIR=str(tmp_path / "data"))
    proc = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "mexitrain", "--lang", "en", "host", "--no-play", "--bind", "127.0.0.1",
         "--port", "0", "--speed", "0", "--resume", code],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    err = proc.stderr.splitlines()
    assert len(err) == 1 and "moves.jsonl: its last line, cut short by a crash" in err[0], proc.stderr
    assert code in proc.stdout
    kept = sorted(saves_dir(tmp_path / "data").glob("table-*.json"))
    assert len(kept) == 1 and load_table(tmp_path / "data", code).over
    final = states_by_seq(replay(json.loads(kept[0].read_text())["record"]))
    assert final[11] == states[11]


@pytest.fixture
async def stopped_table(tmp_path):
    """A table killed after move 10 was announced (in ``tmp_path/"data"``), and its code."""
    setup = table(3, 0, seed=7)
    live = TableServer(setup, data_dir=tmp_path / "live", open_seats=(), host_seat=None, pace=0)
    await play_until(live, 10, tmp_path / "data")
    return tmp_path / "data", live.code


@pytest.mark.parametrize(
    "line, damage, problem",
    [
        (4, b'{"seq":4,"act\n', "is damaged (it is not a move)"),
        (4, b"", "is damaged (it is move 5, but move 4 is missing)"),
        (4, b'{"seq":4,"action":{"type":"skip"}}\n', "is damaged (move 4 cannot be played)"),  # swan drive only
        (10, b"\x00" * 30 + b"\n", "is damaged (it is not a move)"),
    ],
    ids=["not-a-move", "missing", "illegal", "last-whole-line"],
)
async def test_a_damaged_line_stops_the_resume_in_one_line_naming_it(stopped_table, capsys, line, damage, problem):
    """A whole line that is not the move it should be cannot come from a crash: --resume
    refuses, naming the file and the line, rather than drop every move after it."""
    root, code = stopped_table
    path = journal_path(root, code)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[line - 1] = damage
    path.write_bytes(b"".join(lines))
    with pytest.raises(SaveError) as caught:
        files.load(root, code)
    assert caught.value.code == "journal_damaged" and caught.value.values["line"] == line
    assert cli.main(["--lang", "en", "host", "--data-dir", str(root), "--no-play", "--resume", code]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}: line {line} {problem}" in err, err
    assert path.read_bytes() == b"".join(lines)  # the journal is left as it was, for a person to mend


async def test_a_journal_the_disk_refuses_is_given_up_for_full_saves(tmp_path, monkeypatch, caplog):
    """The disk refuses move 5's line: one line in the host's log, no later move is journalled
    (there would be a hole before it), and each is fully saved instead: a crash after the
    saves are written loses nothing."""
    caplog.set_level(logging.WARNING, logger="mexitrain.net.files")
    append = tokens.Journal.append

    def failing(self, seq, action):
        if seq == 5:
            raise OSError(errno.ENOSPC, "No space left on device")
        append(self, seq, action)

    monkeypatch.setattr(tokens.Journal, "append", failing)
    live = TableServer(table(3, 0, seed=3), data_dir=tmp_path / "live", open_seats=(), host_seat=None, pace=0)
    code = live.code
    submitted = []
    submit = live.files.saver.submit
    live.files.saver.submit = lambda state, setup, speed: (submitted.append(files.count_actions(state)),
                                                          submit(state, setup, speed))
    states = await play_until(live, 15, tmp_path / "crash", saved=True)
    assert [seq for seq, _ in tokens.read_journal(tmp_path / "crash", code)] == [1, 2, 3, 4]
    assert submitted[:12] == [0, *range(5, 16)]
    said = [r.getMessage() for r in caplog.records]
    assert said == [f"cannot write {journal_path(tmp_path / 'live', code)}: the disk is full; "
                    "from now on the game is saved whole after each move"]
    _, _, state = files.load(tmp_path / "crash", code)
    assert files.count_actions(state) == 15 and state == states[15]


def test_the_moves_are_counted_once_to_the_end_of_a_game():
    """A finished game's state keeps its last round's events, which its results hold too: the
    count (the resumed table's sequence number) is still one a move."""
    import random

    from mexitrain.rules import RuleSet, apply, legal_actions, new_game

    state = new_game(RuleSet(set=6, rounds=2, hand_size=5), 2, seed=4)
    rng = random.Random(1)
    played = 0
    while not state.over:
        state = apply(state, rng.choice(legal_actions(state)))
        played += 1
        assert files.count_actions(state) == played
    assert len(state.results) == 2
