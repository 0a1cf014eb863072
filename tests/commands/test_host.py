"""mexitrain host: bad options in one line (exit 2), Ctrl+C in one line (exit 130), the join
line, the play mode handing the host's seat to the remote screens."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import pytest

from mexitrain import cli
from mexitrain.commands import host as host_command


@pytest.mark.parametrize(
    "args, words",
    [
        (["--port", "70000"], "--port"),
        (["--bind", "not an address"], "--bind"),
        (["--players", "1"], "--players"),
        (["--ai", "god"], "--ai"),
        (["--name", "A\x1bB"], "--name"),
        (["--preset", "nope"], "nope"),
        (["--no-play", "--resume", "ABCDEF", "--seed", "3"], "--resume"),
    ],
)
def test_a_bad_option_is_one_line_and_exit_2(capsys, tmp_path, args, words):
    status = cli.main(["host", "--data-dir", str(tmp_path), *args])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("mexitrain: error:") and words in err
    assert "\x1b" not in err


def test_resume_without_a_table_is_one_line(capsys, tmp_path):
    assert cli.main(["host", "--data-dir", str(tmp_path), "--no-play", "--resume"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no table to reopen" in err


def test_headless_host_prints_the_join_line_and_ctrl_c_is_one_line(tmp_path):
    env = dict(os.environ, MEXITRAIN_DATA_DIR=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mexitrain", "--lang", "en", "host", "--no-play", "--port", "0",
         "--bind", "127.0.0.1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        first = proc.stdout.readline()
        m = re.match(r"Table ([A-Z]{6}) open on 127\.0\.0\.1:(\d+), 4 seats\.$", first.strip())
        assert m, first
        join = proc.stdout.readline().strip()
        assert join == f"Others join with: mexitrain join 127.0.0.1:{m.group(2)} {m.group(1)}"
        assert "Enter" in proc.stdout.readline()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert out.strip().splitlines() == ["Table closed: the game is autosaved; mexitrain host --resume reopens it."]
    assert err == ""


def test_playing_host_runs_the_remote_screens_with_the_host_token(monkeypatch, tmp_path):
    """Without --no-play the server runs in a thread and the host's seat is played in the
    remote screens (mexitrain.ui.network.run_table_app), with the host's token."""
    import mexitrain.ui.network as remote

    seen = {}

    def fake(address, code, name, *, data_dir, lang, host_token=None, join_line=None, on_exit=None):
        seen.update(address=address, code=code, name=name, token=host_token, line=join_line)
        return 0

    monkeypatch.setattr(remote, "run_table_app", fake)
    monkeypatch.setattr(host_command, "_shared", lambda bind: ["192.0.2.7"])
    status = cli.main(["host", "--data-dir", str(tmp_path), "--port", "0", "--bind", "127.0.0.1", "--name", "Ann",
                       "--players", "3"])
    assert status == 0
    assert seen["name"] == "Ann" and seen["address"].startswith("127.0.0.1:") and len(seen["token"]) >= 32
    assert re.fullmatch(r"[A-Z]{6}", seen["code"])
    port = seen["address"].split(":")[1]
    assert seen["line"] == f"Others join with: mexitrain join 192.0.2.7:{port} {seen['code']}"


class _Table:
    """What ``host_command.command`` uses of a table server, and what it was asked."""

    def __init__(self, removable: set[int]) -> None:
        self.removable, self.asked = removable, []

    def start_game(self, level: str) -> bool:
        self.asked.append(("start", level))
        return True

    def remove(self, seat: int, level: str) -> bool:
        self.asked.append(("remove", seat, level))
        return seat in self.removable

    def hand_over(self, seat: int, level: str) -> bool:
        self.asked.append(("hand", seat, level))
        return seat in self.removable


@pytest.mark.parametrize(
    "line, asked, said",
    [
        ("\n", [("start", "expert")], []),
        ("   \n", [("start", "expert")], []),
        ("remove 2\n", [("remove", 1, "expert")], []),
        ("REMOVE 2\n", [("remove", 1, "expert")], []),
        ("retirer 2\n", [("remove", 1, "expert")], []),
        ("remove 3\n", [("remove", 2, "expert")], ["Seat 3 is not a person's: nobody was removed."]),
        ("remove 0\n", [("remove", -1, "expert")], ["Seat 0 is not a person's: nobody was removed."]),
        ("hand 2\n", [("hand", 1, "expert")], ["A computer player plays seat 2 until its person comes back."]),
        ("confier 2\n", [("hand", 1, "expert")], ["A computer player plays seat 2 until its person comes back."]),
        ("hand 3\n", [("hand", 2, "expert")], ["Seat 3 cannot be handed over: its player is not away."]),
        ("hand two\n", [], ["help"]),
        ("remove two\n", [], ["help"]),
        ("remove 99999999999\n", [], ["help"]),
        ("remove\n", [], ["help"]),
        ("start\n", [], ["help"]),
        ("\x1b[2J remove 2\n", [], ["help"]),
        (" " * (host_command.CONSOLE_LINE + 1) + "remove 2\n", [], ["help"]),
    ],
)
def test_a_line_at_the_terminal_of_a_table_without_a_seat(line, asked, said):
    from mexitrain.text import net as t

    table, lines = _Table({1}), []
    host_command.command(line, table, "expert", lines.append)
    assert table.asked == asked
    assert lines == [t.console_help_line() if s == "help" else s for s in said]


def test_the_terminal_s_long_lines_wrap_between_words(monkeypatch):
    """At a terminal the help is wrapped to its width between words (the terminal cut
    "person" into "person" and "ne"); a pipe gets it on one line (the test above)."""
    import os
    import sys

    from mexitrain.text import net as t

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(host_command.shutil, "get_terminal_size", lambda *a: os.terminal_size((40, 24)))
    lines: list[str] = []
    host_command.command("start\n", _Table(set()), "expert", lines.append)
    rows = lines[0].split("\n")
    assert len(rows) > 3 and all(len(row) <= 39 for row in rows)
    assert " ".join(rows) == t.console_help_line()
