"""The command line: ``mexitrain [play]`` and ``mexitrain simulate`` (mexitrain/cli.py, mexitrain/commands/)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from mexitrain import cli
from mexitrain.cli import COMMANDS, Command, main
from mexitrain.commands.args import bad_values, positive_int
from mexitrain.game_setup import DEFAULT_AI, GameSetup
from mexitrain.rules import make_rules
from mexitrain.rules.record import replay
from mexitrain.storage.records import read_record

REPO_ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m mexitrain ARGS`` in a fresh interpreter, from the repository root."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "mexitrain", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def parse_simulate(out: str) -> dict:
    """The figures of ``simulate``'s summary."""
    wins = {int(s): int(w) for s, w in re.findall(r"^  seat (\d+) \(\w+\): (\d+) \(", out, re.M)}
    means = {int(s): float(m) for s, m in re.findall(r"^  seat (\d+): ([\d.]+)$", out, re.M)}
    ends = re.search(r"round ends: domino (\d+), stuck (\d+), blocked (\d+) \((\d+) rounds\)", out)
    speed = re.search(r"speed: ([\d.]+) games/s", out)
    assert ends and speed, out
    return {
        "wins": wins,
        "means": means,
        "ends": tuple(int(x) for x in ends.groups()[:3]),
        "rounds": int(ends.group(4)),
        "speed": float(speed.group(1)),
    }


# ---------------------------------------------------------------------------------------
# simulate
# ---------------------------------------------------------------------------------------
def test_simulate_prints_the_summary(capsys) -> None:
    assert main(["simulate", "--games", "4", "--players", "3", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    figures = parse_simulate(out)
    assert "4 games, 3 players, preset standard, seeds 7..10" in out
    assert "a shared win counts for each winner" in out
    assert sorted(figures["wins"]) == [1, 2, 3] == sorted(figures["means"])
    assert sum(figures["wins"].values()) >= 4
    assert figures["rounds"] == 4 * 13 == sum(figures["ends"])
    assert figures["speed"] > 0


def test_simulate_is_deterministic_and_game_i_uses_seed_s_plus_i(capsys, tmp_path: Path) -> None:
    main(["simulate", "--games", "3", "--seed", "20", "--preset", "fast", "--records", str(tmp_path)])
    first = capsys.readouterr().out
    main(["simulate", "--games", "3", "--seed", "20", "--preset", "fast"])
    second = capsys.readouterr().out

    def strip(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith(("speed:", "records:"))]

    assert strip(first) == strip(second)
    records = [read_record(p) for p in sorted(tmp_path.iterdir())]
    assert [r["seed"] for r in records] == [20, 21, 22]
    figures = parse_simulate(first)
    for s in range(4):
        mean = sum(r["totals"][s] for r in records) / 3
        assert figures["means"][s + 1] == pytest.approx(mean, abs=0.05)
        assert figures["wins"][s + 1] == sum(s in r["winners"] for r in records)


def test_simulate_records_replay(tmp_path: Path, capsys) -> None:
    out = tmp_path / "deep" / "out"
    argv = ["simulate", "--games", "3", "--players", "2", "--seed", "3", "--records", str(out),
            "--option", "set=6", "--option", "blanks_wild=on"]
    assert main(argv) == 0
    assert f"records: 3 files in {out}" in capsys.readouterr().out
    files = sorted(out.iterdir())
    assert [p.name for p in files] == ["game-0001.json", "game-0002.json", "game-0003.json"]
    for path in files:
        record = read_record(path)
        assert record["rules"] == make_rules("standard", {"set": "6", "blanks_wild": "on"}).model_dump()
        assert [p["kind"] for p in record["players"]] == ["random", "random"]
        assert replay(record).over


def test_simulate_levels_cycle_over_seats(capsys, monkeypatch) -> None:
    from mexitrain import players
    from mexitrain.players import RandomPlayer

    monkeypatch.setitem(players.LEVELS, "other", RandomPlayer)
    assert main(["simulate", "--games", "1", "--players", "3", "--ai", "random,other"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 (random)" in out and "seat 2 (other)" in out and "seat 3 (random)" in out


def test_simulate_does_not_import_textual() -> None:
    code = (
        "import sys\n"
        "from mexitrain.cli import main\n"
        "assert main(['simulate', '--games', '1', '--players', '2', '--option', 'set=6']) == 0\n"
        "assert not any(m == 'textual' or m.startswith('textual.') for m in sys.modules), 'textual'\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr


def test_python_dash_m_mexitrain_simulate() -> None:
    proc = run_cli("simulate", "--games", "2", "--players", "2", "--option", "set=6", "--seed", "4")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert parse_simulate(proc.stdout)["rounds"] == 2 * 7


# ---------------------------------------------------------------------------------------
# help
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["simulate", "--help"], ["-h"]])
def test_help(argv: list[str], capsys) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: mexitrain")
    if argv[0] == "simulate":
        for option in ("--games", "--players", "--seed", "--preset", "--option", "--records", "--ai"):
            assert option in out
    if argv[0] == "play":
        for option in ("--players", "--preset", "--option", "--seed", "--names", "--humans", "--ai",
                       "--speed"):
            assert option in out
    if argv[0] in ("--help", "-h"):
        assert "play" in out and "simulate" in out


def test_version(capsys) -> None:
    from mexitrain import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"mexitrain {__version__}"


# ---------------------------------------------------------------------------------------
# bad arguments: one line on stderr, exit 2
# ---------------------------------------------------------------------------------------
BAD = [
    (["simulate", "--frob"], "unrecognized arguments: --frob"),
    (["simulate", "--games", "0"], "--games: must be at least 1, not 0"),
    (["simulate", "--games", "-3"], "--games: must be at least 1, not -3"),
    (["simulate", "--games", "ten"], "--games: expected a whole number, not 'ten'"),
    (["simulate", "--games", "2.5"], "--games: expected a whole number"),
    (["simulate", "--games"], "--games: expected one argument"),
    (["simulate", "--players", "11"], "at most 10 players, not 11"),
    (["simulate", "--players", "5", "--preset", "fast"], "fast double-9 set takes at most 4 players"),
    (["simulate", "--players", "1"], "at least 2 players"),
    (["simulate", "--preset", "nope"], "unknown preset 'nope'"),
    (["simulate", "--option", "nope=1"], "unknown option 'nope'"),
    (["simulate", "--option", "blanks_wild=maybe"], "blanks_wild takes on or off"),
    (["simulate", "--option", "set=7"], "set"),
    (["simulate", "--option", "noequals"], "--option: expected KEY=VALUE"),
    (["simulate", "--option", "teams=on", "--players", "3"], "teams need 4, 6 or 8 players"),
    (["simulate", "--ai", "nobody"], "unknown computer level 'nobody'"),
    (["simulate", "--ai", "human"], "unknown computer level 'human'"),
    (["simulate", "--seed", "-1"], "--seed: must be 0 or more"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["--frob"], "unrecognized arguments: --frob"),
    (["--players", "0"], "at least 2 players"),
    (["--players", "x"], "--players: expected a whole number"),
    (["play", "--humans", "5", "--players", "3"], "--humans 5 is more than the 3 players"),
    (["play", "--humans", "-1"], "--humans: must be 0 or more"),
    (["--names", "A,B", "--players", "4"], "--names gives 2 names for 4 players"),
    (["--names", "A,,B"], "empty name"),
    (["--names", "A" * 21 + ",B"], "longer than 20 characters"),
    (["--names", "Ann,Bo,ann "], "two seats are named 'ann': each needs a name of its own"),
    (["--speed", "-1"], "--speed: must be between 0 and 10 seconds"),
    (["--speed", "nan"], "--speed: must be between 0 and 10 seconds"),
    (["--speed", "fast"], "--speed: expected a number of seconds"),
    (["--seed", "-5"], "--seed: must be 0 or more"),
    (["play", "--option", "rounds=99"], "at most 13 rounds"),
    (["play", "--preset", "common", "--option", "first_seat=9", "--players", "4"], "first seat 9"),
    (["play", "--ai", "random,nobody"], "unknown computer level 'nobody'"),
    # expert-full is kept for tournaments and simulations (its kept games), never seated at a table
    (["play", "--ai", "expert-full"], "unknown computer level 'expert-full'; choose from random, greedy, planner, expert"),
]


@pytest.mark.parametrize(("argv", "needle"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_arguments_in_process(argv: list[str], needle: str, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", _fake_ui([]))
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("mexitrain: error: ")
    assert needle in lines[0]
    assert "usage:" not in captured.err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "0"],
        ["simulate", "--players", "14"],
        ["simulate", "--preset", "nope"],
        ["simulate", "--option", "bogus=1"],
        ["unknown-command"],
        ["--players", "99"],
    ],
)
def test_bad_arguments_in_a_real_process(argv: list[str]) -> None:
    proc = run_cli(*argv)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1, proc.stderr
    assert proc.stderr.startswith("mexitrain: error: ")
    assert "Traceback" not in proc.stderr


def test_records_dir_that_is_a_file(tmp_path: Path, capsys) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    assert main(["simulate", "--games", "1", "--records", str(target)]) == 2
    err = capsys.readouterr().err
    assert err == f"mexitrain: error: --records {target}: not a directory\n"


# ---------------------------------------------------------------------------------------
# play
# ---------------------------------------------------------------------------------------
def _fake_ui(calls: list) -> types.ModuleType:
    module = types.ModuleType("mexitrain.ui.app")

    def run(setup, speed, **kwargs):
        calls.append((setup, speed))

    module.run = run  # type: ignore[attr-defined]
    return module


@pytest.fixture
def ui_calls(monkeypatch) -> list:
    calls: list = []
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", _fake_ui(calls))
    return calls


def test_play_without_options_opens_the_new_game_screen(ui_calls: list) -> None:
    assert main([]) == 0
    assert main(["play"]) == 0
    assert main(["--speed", "0"]) == 0
    assert ui_calls == [(None, 0.6), (None, 0.6), (None, 0.0)]


def test_play_with_options_builds_the_setup(ui_calls: list) -> None:
    assert main(["--players", "3", "--seed", "5", "--speed", "1.5"]) == 0
    [(setup, speed)] = ui_calls
    assert isinstance(setup, GameSetup)
    assert speed == 1.5
    assert setup.seed == 5
    assert setup.rules == make_rules("standard")
    assert [s.kind for s in setup.seats] == ["human", DEFAULT_AI, DEFAULT_AI]
    assert setup.seats[0].name == "You"


def test_play_names_humans_ai_preset_and_options(ui_calls: list, monkeypatch) -> None:
    from mexitrain import players
    from mexitrain.players import RandomPlayer

    monkeypatch.setitem(players.LEVELS, "greedy", RandomPlayer)
    argv = ["play", "--names", "Ann,Bo,Cy,Di", "--humans", "2", "--ai", "random,greedy",
            "--preset", "common", "--option", "blanks_wild=off", "--option", "rounds=3"]
    assert main(argv) == 0
    [(setup, _)] = ui_calls
    assert [s.name for s in setup.seats] == ["Ann", "Bo", "Cy", "Di"]
    assert [s.kind for s in setup.seats] == ["human", "human", "random", "greedy"]
    assert setup.rules == make_rules("common", {"blanks_wild": "off", "rounds": "3"})
    assert 0 <= setup.seed


def test_play_with_zero_humans_and_names_sets_the_player_count(ui_calls: list) -> None:
    assert main(["--names", "A,B", "--humans", "0", "--ai", "random"]) == 0
    [(setup, _)] = ui_calls
    assert setup.players == 2
    assert setup.humans == ()


def test_play_without_the_ui_is_a_one_line_error(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", None)  # import fails
    assert main(["play"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mexitrain: error: the game screens are not available")
    assert len(err.splitlines()) == 1


# ---------------------------------------------------------------------------------------
# registering a subcommand
# ---------------------------------------------------------------------------------------
def test_a_registered_command_runs(monkeypatch, capsys, tmp_path: Path) -> None:
    module = tmp_path / "mexitrain_cli_plugin.py"
    module.write_text("def run(args):\n    print('hello', args.times)\n    return 3\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    def arguments(parser) -> None:
        parser.add_argument("--times", type=positive_int, default=1)

    monkeypatch.setitem(
        COMMANDS, "hello", Command(help="say hello", add_arguments=arguments, run="mexitrain_cli_plugin:run")
    )
    assert "mexitrain_cli_plugin" not in sys.modules
    assert main(["hello", "--times", "2"]) == 3
    assert capsys.readouterr().out == "hello 2\n"
    assert main(["hello", "--times", "0"]) == 2
    assert "--times: must be at least 1, not 0" in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert "say hello" in capsys.readouterr().out


def test_register_function_and_bad_values(monkeypatch, capsys) -> None:
    def run(args) -> int:
        with bad_values():
            raise ValueError("no such\nthing")

    monkeypatch.setattr(cli, "COMMANDS", dict(COMMANDS))
    cli.register("broken", Command(help="x", add_arguments=lambda p: None, run=run))
    assert main(["broken"]) == 2
    assert capsys.readouterr().err == "mexitrain: error: no such thing\n"


def test_the_program_freezes_its_startup_objects_but_main_called_by_code_does_not(tmp_path):
    """The program hides its imports from the garbage collector (shorter full collections,
    no hitch in a turn); a test or a library calling ``main([...])`` keeps its collector as is."""
    import gc

    before = gc.get_freeze_count()
    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    assert gc.get_freeze_count() == before
    code = (
        "import gc, sys\n"
        "from mexitrain.cli import main\n"
        f"sys.argv = ['mexitrain', 'stats', '--data-dir', {str(tmp_path)!r}]\n"
        "status = main()\n"
        "print(status, gc.get_freeze_count())\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    status, frozen = proc.stdout.split()[-2:]
    assert status == "0" and int(frozen) > 1000, proc.stdout + proc.stderr
