"""Hostile values through the command line (issue 21): every option given markup, terminal
escapes, control characters, right-to-left text, emoji, 10,000 characters, huge,
out-of-range, negative or not-a-number values, or an empty one. None crashes or hangs; a
refused one is exactly one line on standard error, ``mexitrain: error: ...``, with a
non-zero exit status; a control character is never printed, only its escape.

Also: the bounds of the numeric options, the exit status of a crash (1, one line, a crash
log), of Ctrl+C in a tournament (130, one line) and of a closed standard output (141)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from support.heavy import HEAVY

from mexitrain.cli import main
from mexitrain.rules.seeds import SEED_MAX

REPO_ROOT = Path(__file__).resolve().parents[2]

#: The characters a terminal would obey: C0 controls (but the newline ending the line), DEL,
#: C1 controls, and the bidi overrides and isolates.
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")

HOSTILE = {
    "markup": "[link=x]C[/]",
    "click": "[ @click=app.quit]Bo",
    "osc-title": "\x1b]2;pwned\x07",
    "csi-red": "\x1b[31mred",
    "c1-csi": "\x9b31m",
    "rtl-override": "\u202eevil",
    "arabic": "لاعب",
    "emoji": "🚂🎲",
    "long": "x" * 10_000,
    "huge": "9" * 5000,
    "negative": "-7",
    "nan": "nan",
    "inf": "inf",
    "float-overflow": "1e400",
    "empty": "",
}

#: Where an option goes: (command words before it, the option, how the value is written).
OPTIONS = {
    "--names": ((), "--names", "{},Bo"),
    "--seed": ((), "--seed", "{}"),
    "--speed": ((), "--speed", "{}"),
    "--players": ((), "--players", "{}"),
    "--humans": ((), "--humans", "{}"),
    "--option key": ((), "--option", "{}=1"),
    "--option value": ((), "--option", "rounds={}"),
    "--option hand_size": ((), "--option", "hand_size={}"),
    "--option first_seat": ((), "--option", "first_seat={}"),
    "--lang": ((), "--lang", "{}"),
    "--preset": ((), "--preset", "{}"),
    "--ai": ((), "--ai", "{}"),
    "simulate --games": (("simulate",), "--games", "{}"),
    "simulate --seed": (("simulate",), "--seed", "{}"),
    "tournament --budget": (("tournament",), "--budget", "{}"),
    "tournament --processes": (("tournament",), "--processes", "{}"),
    "tournament --cluster": (("tournament",), "--cluster", "{}"),
}

#: The hostile values that are good values of their option: a game would start. Names are
#: text, shown as text (mexitrain.text); an empty --option value or --preset means the default.
VALID = {
    ("--names", "markup"), ("--names", "click"), ("--names", "arabic"), ("--names", "emoji"),
    ("--names", "negative"), ("--names", "nan"), ("--names", "inf"), ("--names", "float-overflow"),
    ("--option value", "empty"), ("--option hand_size", "empty"), ("--preset", "empty"),
}

CASES = [(o, v) for o in OPTIONS for v in HOSTILE]


def argv_of(option: str, value: str) -> list[str]:
    words, flag, form = OPTIONS[option]
    # --option=value: a value starting with "-" is still the option's value
    return [*words, f"{flag}={form.format(HOSTILE[value])}"]


def fake_ui(calls: list) -> types.ModuleType:
    module = types.ModuleType("mexitrain.ui.app")
    module.run = lambda setup, speed, **kw: calls.append((setup, speed, kw))  # type: ignore[attr-defined]
    return module


def check_one_line(status: int, out: str, err: str) -> str:
    assert status != 0
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err[:2000]
    assert lines[0].startswith("mexitrain: error: "), lines[0][:300]
    assert not CONTROL.search(err), ascii(err[:300])
    assert len(lines[0]) <= 300
    return lines[0]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("MEXITRAIN_DATA_DIR", str(folder))
    return folder


@pytest.mark.parametrize(("option", "value"), CASES, ids=[f"{o}={v}" for o, v in CASES])
def test_hostile_value_in_process(option: str, value: str, capsys, monkeypatch, data_dir: Path) -> None:
    calls: list = []
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", fake_ui(calls))
    status = main(argv_of(option, value))
    out, err = capsys.readouterr()
    if (option, value) in VALID:
        assert (status, err) == (0, ""), err[:300]
        [(setup, _speed, _kw)] = calls
        if option == "--names":  # kept as typed: text is text
            assert setup.seats[0].name == HOSTILE[value]
    else:
        check_one_line(status, out, err)
        assert calls == []


def run_cli(*args: str, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    full = dict(os.environ if env is None else env)
    full["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), full.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "mexitrain", *args], cwd=REPO_ROOT, env=full, capture_output=True,
        text=True, encoding="utf-8", errors="surrogateescape", timeout=timeout,
    )


#: The nastiest values, through a real process (the in-process test above covers the whole
#: table): no traceback, no hang, one line, no control byte.
NASTIEST = ("osc-title", "c1-csi", "rtl-override", "long", "huge", "nan", "empty")


def real_process_cases(heavy: bool) -> list[tuple[str, str]]:
    """Every option with every nasty value it refuses when heavy (about 100 processes); else
    one process an option, the values taken in turn (16 options, 7 values), so that every
    option and every nasty value go through a real process at least once."""
    if heavy:
        return [(o, v) for o in OPTIONS for v in NASTIEST if (o, v) not in VALID]
    cases = []
    for i, option in enumerate(OPTIONS):
        turn = [NASTIEST[(i + k) % len(NASTIEST)] for k in range(len(NASTIEST))]
        cases.append((option, next(v for v in turn if (option, v) not in VALID)))
    return cases


def test_the_real_process_sample_has_every_option_and_every_value() -> None:
    sample = real_process_cases(heavy=False)
    assert {o for o, _ in sample} == set(OPTIONS)
    assert {v for _, v in sample} == set(NASTIEST)
    assert set(sample) <= set(real_process_cases(heavy=True))


def test_hostile_values_in_real_processes(tmp_path: Path) -> None:
    env = dict(os.environ, MEXITRAIN_DATA_DIR=str(tmp_path / "data"))
    cases = real_process_cases(HEAVY)
    with ThreadPoolExecutor(4) as pool:
        done = list(pool.map(lambda c: (c, run_cli(*argv_of(*c), env=env)), cases))
    for (option, value), proc in done:
        line = check_one_line(proc.returncode, proc.stdout, proc.stderr)
        assert proc.returncode == 2, (option, value, line)


# ---------------------------------------------------------------------------------------
# bounds of the numeric options
# ---------------------------------------------------------------------------------------
BOUNDS = [
    (["--speed", "1e10"], "--speed: must be between 0 and 10 seconds, not '1e10'"),
    (["--speed", "10.5"], "--speed: must be between 0 and 10 seconds"),
    (["--speed=-inf"], "--speed: must be between 0 and 10 seconds"),
    (["--speed", "nan"], "--speed: must be between 0 and 10 seconds"),
    (["--seed", "9" * 4300], f"--seed: must be between 0 and {SEED_MAX}"),
    (["--seed", str(SEED_MAX + 1)], f"--seed: must be between 0 and {SEED_MAX}"),
    (["--seed", "0x" + "f" * 34], "--seed: expected a whole number (or hex after 0x)"),
    (["--seed", "1.5"], "--seed: expected a whole number"),
    (["--players", "1" + "0" * 40], "--players: must be between 2 and 99"),
    (["--humans", "100"], "--humans: must be between 0 and 99"),
    (["simulate", "--games", "100001"], "--games: must be between 1 and 100000"),
    (["simulate", "--seed", "9" * 5000], "--seed: must be between 0 and"),
    (["tournament", "--games", "10000000000"], "--games: must be between 1 and 100000"),
    (["tournament", "--budget", "100001"], "--budget: must be between 1 and 100000"),
    (["tournament", "--processes", "65"], "--processes: must be between 1 and 64"),
    (["tournament", "--processes", "0"], "--processes: must be at least 1"),
    (["--option", "rounds=" + "9" * 4400], "option 'rounds' takes a smaller number"),
    (["--option", "first_seat=" + "9" * 30], "option 'first_seat' takes a smaller number"),
    (["--option", "hand_size=99999"], "99999 tiles"),  # the rules check it
]


@pytest.mark.parametrize(("argv", "needle"), BOUNDS, ids=[" ".join(a)[:40] for a, _ in BOUNDS])
def test_numeric_options_are_bounded(argv: list[str], needle: str, capsys, monkeypatch, data_dir: Path) -> None:
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", fake_ui([]))
    assert main(argv) == 2
    line = check_one_line(2, *capsys.readouterr())
    assert needle in line


def test_largest_values_are_accepted(monkeypatch, data_dir: Path) -> None:
    calls: list = []
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", fake_ui(calls))
    assert main(["--seed", str(SEED_MAX), "--speed", "10", "--players", "2"]) == 0
    [(setup, speed, _kw)] = calls
    assert (setup.seed, speed, setup.seed_chosen) == (SEED_MAX, 10.0, True)


def test_a_seed_is_chosen_only_when_typed(monkeypatch, data_dir: Path) -> None:
    """No --seed: a fresh sealed seed (128 random bits); --seed in hex as the result screen
    shows it: that seed, said to be chosen (issue #32)."""
    calls: list = []
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", fake_ui(calls))
    assert main(["--players", "2"]) == 0
    assert main(["--players", "2", "--seed", hex(2**128 + 9)]) == 0
    [(fresh, _s1, _k1), (typed, _s2, _k2)] = calls
    assert fresh.seed >= 2**128 and not fresh.seed_chosen
    assert (typed.seed, typed.seed_chosen) == (2**128 + 9, True)


# ---------------------------------------------------------------------------------------
# --humans 0
# ---------------------------------------------------------------------------------------
def test_no_person_at_the_table_no_seat_is_called_you(monkeypatch, data_dir: Path) -> None:
    calls: list = []
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", fake_ui(calls))
    assert main(["--humans", "0", "--players", "4", "--ai", "random"]) == 0
    [(setup, _speed, _kw)] = calls
    names = [s.name for s in setup.seats]
    assert "You" not in names
    assert len(set(names)) == 4
    assert setup.humans == ()


# ---------------------------------------------------------------------------------------
# --data-dir: a bad folder is a usage error (2), for every command
# ---------------------------------------------------------------------------------------
def _bad_folders(tmp_path: Path) -> dict[str, str]:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    return {
        "a file": str(a_file),
        "a FIFO": str(fifo),
        "under a file": str(a_file / "sub" / "dir"),
        "a name too long": str(tmp_path / ("x" * 10_000)),
        "empty": "",
        "escape": str(tmp_path / "\x1b]2;pwned\x07"),
    }


@pytest.mark.parametrize("command", [["play"], ["stats"], ["--players", "2"]])
def test_a_bad_data_folder_is_a_usage_error(command: list[str], tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", fake_ui([]))
    bad = _bad_folders(tmp_path)
    for what, folder in bad.items():
        status = main([*command, "--data-dir", folder])
        if what == "escape":  # a folder name with an escape in it is a good (missing) folder
            capsys.readouterr()
            continue
        line = check_one_line(status, *capsys.readouterr())
        assert status == 2, (what, line)
        assert "--data-dir" in line


def test_the_environment_s_data_folder_is_checked_too(tmp_path: Path, capsys, monkeypatch) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    monkeypatch.setenv("MEXITRAIN_DATA_DIR", str(a_file))
    assert main(["stats"]) == 2
    line = check_one_line(2, *capsys.readouterr())
    assert line == f"mexitrain: error: MEXITRAIN_DATA_DIR: '{a_file}' is not a folder"


def test_data_folders_in_real_processes(tmp_path: Path) -> None:
    """A FIFO, a file, a missing parent and a read-only folder, in real processes: no hang."""
    bad = _bad_folders(tmp_path)
    for what in ("a file", "a FIFO", "under a file"):
        proc = run_cli("stats", "--data-dir", bad[what], timeout=30)
        assert proc.returncode == 2, (what, proc.stderr)
        check_one_line(proc.returncode, proc.stdout, proc.stderr)
    missing = tmp_path / "not" / "yet" / "there"  # made when a game is first saved
    proc = run_cli("stats", "--data-dir", str(missing), timeout=30)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert not missing.exists()  # reading made nothing
    locked = tmp_path / "read-only"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        proc = run_cli("stats", "--data-dir", str(locked), timeout=30)
    finally:
        locked.chmod(0o700)
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr


# ---------------------------------------------------------------------------------------
# A crash: exit status 1, one line, a crash log
# ---------------------------------------------------------------------------------------
CRASHING_APP = """
import sys
from mexitrain.ui import app as ui_app

def on_mount(self):
    raise RuntimeError("deliberate failure \\x1b]2;x\\x07 in on_mount")

ui_app.MexitrainApp.on_mount = on_mount
from mexitrain.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def test_a_crash_inside_the_app_exits_1_with_one_line_and_a_crash_log(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = dict(os.environ, TEXTUAL_DRIVER="textual.drivers.headless_driver:HeadlessDriver")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-c", CRASHING_APP, "--data-dir", str(data), "--players", "2", "--humans", "0",
         "--ai", "random", "--speed", "0"],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    line = check_one_line(proc.returncode, proc.stdout, proc.stderr)
    assert proc.returncode == 1
    [log] = data.glob("crash-*.log")
    assert line == (
        "mexitrain: error: unexpected error (RuntimeError: deliberate failure \\x1b]2;x\\x07 in on_mount);"
        f" the details are in {log}"
    )
    text = log.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text
    assert "in on_mount" in text
    assert "Textual's report" in text


def test_a_crash_outside_the_app_exits_1(tmp_path: Path, capsys, monkeypatch) -> None:
    from mexitrain import cli

    def broken(args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setitem(cli.COMMANDS, "simulate", cli.Command(help="x", add_arguments=lambda p: None, run=broken))
    monkeypatch.setenv("MEXITRAIN_DATA_DIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    assert main(["simulate"]) == 1
    line = check_one_line(1, *capsys.readouterr())
    [log] = tmp_path.glob("crash-*.log")
    assert line.endswith(f"unexpected error (ZeroDivisionError: division by zero); the details are in {log}")
    assert "ZeroDivisionError" in log.read_text()


# ---------------------------------------------------------------------------------------
# Standard output closed early (mexitrain stats | head -3): exit 141, nothing on stderr
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["stats"],
        ["simulate", "--games", "2", "--players", "2"],
        ["tournament", "--players", "2", "--games", "1", "--ai", "random,greedy", "--option", "rounds=1",
         "--processes", "1", "--results", "{results}", "--kept-only"],
        ["--help"],
        ["tournament", "--help"],
        ["--version"],
    ],
    ids=["stats", "simulate", "tournament --kept-only", "--help", "tournament --help", "--version"],
)
def test_a_closed_pipe_is_status_141_and_no_traceback(argv: list[str], tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    if "--kept-only" in argv:  # a file holding the tournament's games
        first = run_cli(*[a.format(results=results) for a in argv if a != "--kept-only"], timeout=120)
        assert first.returncode == 0, first.stderr
    env = dict(os.environ, MEXITRAIN_DATA_DIR=str(tmp_path / "data"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mexitrain", *[a.format(results=results) for a in argv]],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    proc.stdout.close()  # the reader is gone before a word is written
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141
    assert err == ""


# ---------------------------------------------------------------------------------------
# Ctrl+C in a tournament: one line, status 130, the games kept
# ---------------------------------------------------------------------------------------
def _sigint_as_at_a_terminal() -> None:
    """In the child before it starts: Ctrl+C's default. A process started by a shell that
    ignores SIGINT (a background job, ``nohup``, a CI runner) inherits the ignoring, and
    Python then never raises KeyboardInterrupt: the test would see the whole tournament."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_tournament_in_one_line(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mexitrain", "tournament", "--players", "2", "--games", "200",
         "--ai", "planner,greedy", "--option", "rounds=1", "--processes", "2", "--results", str(results)],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_sigint_as_at_a_terminal,
    )
    try:
        first = proc.stderr.readline()  # a tenth of the games played (not a terminal)
        assert "of 400 games played" in first, first
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert out == ""
    assert "Traceback" not in err
    [line] = err.splitlines()
    kept = len(results.read_text().splitlines())
    m = re.fullmatch(r"stopped: (\d+) of 400 games played; kept in (.+)", line)
    assert m, line
    assert m[2] == str(results)
    # every game counted is kept; one more if the stop came between keeping it and counting it
    assert 40 <= int(m[1]) <= kept <= int(m[1]) + 1
