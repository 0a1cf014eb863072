"""Seat tokens a client keeps, and a server's table files (mexitrain.storage.tokens)."""

from __future__ import annotations

import pytest

from mexitrain.storage import SaveError
from mexitrain.storage.tokens import (
    Journal,
    TableFile,
    TableSeat,
    forget_token,
    load_table,
    load_token,
    read_journal,
    save_table,
    save_token,
    table_dir,
    tables,
    token_path,
)


def test_a_token_is_kept_per_address_code_and_name(tmp_path):
    assert load_token(tmp_path, "h:1", "ABCDEF", "Ann") is None
    save_token(tmp_path, "h:1", "ABCDEF", "Ann", "tok_en-123456")
    assert load_token(tmp_path, "h:1", "ABCDEF", "Ann") == "tok_en-123456"
    assert load_token(tmp_path, "h:1", "ABCDEF", "Bob") is None  # two people on one computer
    assert load_token(tmp_path, "h:2", "ABCDEF", "Ann") is None
    forget_token(tmp_path, "h:1", "ABCDEF", "Ann")
    assert load_token(tmp_path, "h:1", "ABCDEF", "Ann") is None


@pytest.mark.parametrize("content", [b"", b"{", b'{"format": "mexitrain-seat-token", "token": "\\u001b[2J"}', b"x" * 70_000])
def test_a_bad_token_file_is_no_token(tmp_path, content):
    path = token_path(tmp_path, "h:1", "ABCDEF", "Ann")
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert load_token(tmp_path, "h:1", "ABCDEF", "Ann") is None


def test_a_table_file_round_trips_and_a_damaged_one_is_refused(tmp_path):
    table = TableFile(code="ABCDEF", host_token="h" * 32, host_seat=0,
                      seats=(TableSeat(name="Ann", kind="person", token="a" * 32), TableSeat(name="", kind="open")),
                      setup={"seed": 1})
    save_table(tmp_path, table)
    assert load_table(tmp_path, "ABCDEF") == table
    assert tables(tmp_path) == ["ABCDEF"]
    (table_dir(tmp_path, "ABCDEF") / "table.json").write_text('{"format": "mexitrain-table"}')
    with pytest.raises(SaveError) as caught:
        load_table(tmp_path, "ABCDEF")
    assert caught.value.code == "damaged"
    with pytest.raises(ValueError):
        table_dir(tmp_path, "../etc")


def test_the_journal_keeps_whole_lines_only(tmp_path):
    j = Journal(tmp_path, "ABCDEF", fresh=True)
    j.append(1, {"type": "draw"})
    j.append(2, {"type": "mark"})
    j.close()
    path = table_dir(tmp_path, "ABCDEF") / "moves.jsonl"
    path.write_bytes(path.read_bytes() + b'{"seq": 3, "act')  # cut short by a kill
    assert read_journal(tmp_path, "ABCDEF") == [(1, {"type": "draw"}), (2, {"type": "mark"})]
    Journal(tmp_path, "ABCDEF", fresh=True).close()
    assert read_journal(tmp_path, "ABCDEF") == []
