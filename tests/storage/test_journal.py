"""The table's journal, ``moves.jsonl`` (mexitrain.storage.tokens.Journal, read_journal): a
move is announced only once its whole line is written, so a crash at any byte loses none of
the moves announced, even two crashes in a row; a line damaged otherwise is refused, named."""

from __future__ import annotations

import errno
import json
import os

import pytest

from mexitrain.storage import SaveError, tokens
from mexitrain.storage.tokens import Journal, journal_path, read_journal

CODE = "ABCDEF"


def action(seq: int) -> dict:
    return {"type": "play", "tile": [seq % 13, 12 - seq % 13], "train": seq % 3}


def line(seq: int) -> bytes:
    """The bytes of move ``seq``'s line, as the journal writes it."""
    return (json.dumps({"seq": seq, "action": action(seq)}, separators=(",", ":")) + "\n").encode()


def resume(root, announced: list[int], more: int) -> tuple[list[int], int]:
    """What ``host --resume`` does with the journal: read it back, reopen it, and play on
    (``more`` moves, each announced once appended). Returns the moves announced so far and the
    bytes the reopening cut off."""
    moves = read_journal(root, CODE)
    assert [seq for seq, _ in moves] == announced
    assert all(a == action(seq) for seq, a in moves)
    j = Journal(root, CODE)
    try:
        for seq in range(len(moves) + 1, len(moves) + 1 + more):
            j.append(seq, action(seq))
            announced = [*announced, seq]
    finally:
        j.close()
    return announced, j.trimmed


def crash(root, cut: int) -> int:
    """The process dies ``cut`` bytes into writing the journal's last line (its whole length
    at most); returns that line's length."""
    path = journal_path(root, CODE)
    data = path.read_bytes()
    start = data.rindex(b"\n", 0, len(data) - 1) + 1 if data.count(b"\n") > 1 else 0
    path.write_bytes(data[: start + cut])
    return len(data) - start


def test_two_crashes_in_a_row_at_every_byte_lose_no_announced_move(tmp_path, monkeypatch):
    """Crash while writing move 3 (at every byte of its line), resume and play 3 moves on,
    crash while writing the last of them (at every byte of it too), resume: every move whose
    line was whole, and only those, is read back in order, and the journal goes on."""
    syncs = []
    monkeypatch.setattr(tokens.os, "fsync", syncs.append)  # the cut is made durable (not waited on here)
    trims = 0
    length = len(line(3))
    for first in range(length + 1):
        every = first in (0, 1, length // 2, length - 1, length)  # both crashes at every byte
        for second in range(length + 1) if every else (0, first, length - 1, length):
            root = tmp_path / f"{first}-{second}"
            j = Journal(root, CODE, fresh=True)
            for seq in (1, 2, 3):
                j.append(seq, action(seq))
            j.close()
            crash(root, first)
            announced = [1, 2, 3] if first == length else [1, 2]  # move 3 is announced once written
            announced, cut = resume(root, announced, 3)
            assert cut == first % length
            last = len(line(announced[-1]))
            assert crash(root, min(second, last)) == last
            if second < last:
                announced = announced[:-1]
            announced, cut = resume(root, announced, 1)
            assert cut == min(second, last) % last
            assert [seq for seq, _ in read_journal(root, CODE)] == announced, (first, second)
            trims += (first % length > 0) + (min(second, last) % last > 0)
    assert len(syncs) == trims  # each cut is synced before the next line is appended


def test_a_torn_last_line_is_cut_when_the_journal_is_reopened(tmp_path):
    j = Journal(tmp_path, CODE, fresh=True)
    j.append(1, action(1))
    j.close()
    path = journal_path(tmp_path, CODE)
    path.write_bytes(line(1) + line(2)[:-1])  # move 2 whole but for its newline: never announced
    assert read_journal(tmp_path, CODE) == [(1, action(1))]
    j = Journal(tmp_path, CODE)
    assert j.trimmed == len(line(2)) - 1
    assert path.read_bytes() == line(1)
    j.append(2, action(2))
    j.close()
    assert path.read_bytes() == line(1) + line(2)
    assert Journal(tmp_path, CODE).trimmed == 0


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_the_journal_is_the_host_s_alone(tmp_path):
    """Like the full save and table.json (written through mkstemp), only the host may read it."""
    Journal(tmp_path, CODE, fresh=True).close()
    assert journal_path(tmp_path, CODE).stat().st_mode & 0o777 == 0o600


def test_a_torn_line_alone_is_cut_to_nothing(tmp_path):
    path = journal_path(tmp_path, CODE)
    path.parent.mkdir(parents=True)
    path.write_bytes(line(1)[:5])
    assert read_journal(tmp_path, CODE) == []
    j = Journal(tmp_path, CODE)
    j.close()
    assert j.trimmed == 5 and path.read_bytes() == b""


@pytest.mark.parametrize(
    "bad, problem",
    [
        pytest.param(b'{"seq":2,"act' + line(3), "not_a_move", id="torn-then-more"),  # not our writing
        pytest.param(b"\n", "not_a_move", id="empty"),
        pytest.param(b"\x00\x00\x00\n", "not_a_move", id="zeros"),
        pytest.param(b'{"seq":2}\n', "not_a_move", id="no-action"),
        pytest.param(b'{"seq":true,"action":{}}\n', "not_a_move", id="seq-bool"),
        pytest.param(b'{"seq":2,"action":[]}\n', "not_a_move", id="action-list"),
        pytest.param(b"[" * 100_000 + b"\n", "not_a_move", id="too-deep"),
        pytest.param(b"\xff\xfe\n", "not_a_move", id="not-utf8"),
        pytest.param(line(1), "order", id="repeated"),
        pytest.param(line(0), "order", id="backwards"),
    ],
)
@pytest.mark.parametrize("after", [pytest.param(b"", id="last"), pytest.param(line(4) + line(5), id="middle")])
def test_a_damaged_line_is_refused_with_its_number_not_skipped(tmp_path, bad, problem, after):
    """A whole line the journal did not write as one (it writes whole lines and cuts a torn
    one before appending) is damage: read_journal says which line, rather than stop there
    quietly and let the next moves be appended past it."""
    path = journal_path(tmp_path, CODE)
    path.parent.mkdir(parents=True)
    path.write_bytes(line(1) + bad + after)
    with pytest.raises(SaveError) as caught:
        read_journal(tmp_path, CODE)
    err = caught.value
    assert err.code == "journal_damaged" and err.path == path
    assert err.values["line"] == 2 and err.values["problem"] == problem
    assert "line 2" in str(err) and str(path) in str(err) and "\n" not in str(err)


def test_an_unreadable_journal_is_an_error_and_no_journal_is_no_moves(tmp_path):
    assert read_journal(tmp_path, CODE) == []
    path = journal_path(tmp_path, CODE)
    path.mkdir(parents=True)  # a folder where the journal should be
    with pytest.raises(SaveError) as caught:
        read_journal(tmp_path, CODE)
    assert caught.value.code == "os_error" and caught.value.path == path


def test_a_journal_that_is_too_large_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(tokens, "MAX_JOURNAL", 100)
    path = journal_path(tmp_path, CODE)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"".join(line(i) for i in range(1, 10)))
    with pytest.raises(SaveError) as caught:
        read_journal(tmp_path, CODE)
    assert caught.value.code == "os_error"


def test_a_short_write_is_completed(tmp_path, monkeypatch):
    real = os.write
    calls = []

    def short(fd, data):
        calls.append(len(data))
        return real(fd, bytes(data[:7]))

    j = Journal(tmp_path, CODE, fresh=True)
    monkeypatch.setattr(tokens.os, "write", short)
    j.append(1, action(1))
    j.append(2, action(2))
    monkeypatch.undo()
    j.close()
    assert len(calls) > 2
    assert journal_path(tmp_path, CODE).read_bytes() == line(1) + line(2)


def test_a_write_that_fails_halfway_is_cut_before_the_next_append(tmp_path, monkeypatch):
    real = os.write

    def full_disk(fd, data):
        if len(data) > 10:
            return real(fd, bytes(data[:10]))
        raise OSError(errno.ENOSPC, "No space left on device")

    j = Journal(tmp_path, CODE, fresh=True)
    j.append(1, action(1))
    monkeypatch.setattr(tokens.os, "write", full_disk)
    with pytest.raises(OSError):
        j.append(2, action(2))
    monkeypatch.undo()
    assert journal_path(tmp_path, CODE).read_bytes() == line(1)  # the half line is gone
    j.append(2, action(2))
    j.close()
    assert read_journal(tmp_path, CODE) == [(1, action(1)), (2, action(2))]


def test_a_write_that_wrote_nothing_is_an_error_not_a_loop(tmp_path, monkeypatch):
    j = Journal(tmp_path, CODE, fresh=True)
    monkeypatch.setattr(tokens.os, "write", lambda fd, data: 0)
    with pytest.raises(OSError):
        j.append(1, action(1))
    monkeypatch.undo()
    j.close()
    assert read_journal(tmp_path, CODE) == []


def test_a_half_line_that_cannot_be_cut_stops_the_journal(tmp_path, monkeypatch):
    """The disk fails mid-line and the cut fails too: nothing more is appended after the half
    line (it would glue the next move to it), until the cut works."""
    real = os.write

    written = []

    def half(fd, data):
        if not written:
            written.append(real(fd, bytes(data[:10])))
            return written[-1]
        raise OSError(errno.EIO, "Input/output error")

    def no_cut(fd, size):
        raise OSError(errno.EIO, "Input/output error")

    j = Journal(tmp_path, CODE, fresh=True)
    j.append(1, action(1))
    monkeypatch.setattr(tokens.os, "write", half)
    monkeypatch.setattr(tokens.os, "ftruncate", no_cut)
    with pytest.raises(OSError):
        j.append(2, action(2))
    monkeypatch.setattr(tokens.os, "write", real)
    with pytest.raises(OSError):
        j.append(2, action(2))  # refused: the half line is still there
    assert journal_path(tmp_path, CODE).read_bytes() == line(1) + line(2)[:10]
    monkeypatch.undo()
    j.append(2, action(2))  # the cut works again: first the half line goes
    j.close()
    assert journal_path(tmp_path, CODE).read_bytes() == line(1) + line(2)


def test_a_fifo_in_place_of_the_journal_is_refused_at_once(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    path = journal_path(tmp_path, CODE)
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    for fresh in (True, False):
        with pytest.raises(OSError):
            Journal(tmp_path, CODE, fresh=fresh)
