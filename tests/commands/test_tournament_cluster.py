"""``mexitrain tournament --cluster``: the games played on a Dask distributed cluster are the
games a local run plays, kept in the same results file, resumable the same way; without Dask
(the ``cluster`` extra) the option is one line saying how to install it, and a local run never
imports it.

The tests that need Dask start their own cluster on this machine (two worker processes, one
thread each, listening on 127.0.0.1 only) and play short games (one round of double-6).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mexitrain.cli import main

REPO_ROOT = Path(__file__).resolve().parents[2]

#: 3 players, 3 deals of one round: 9 games.
TOURNAMENT = ["tournament", "--players", "3", "--games", "3", "--seed", "11", "--ai", "greedy,random",
              "--option", "set=6", "--option", "rounds=1"]
GAMES = 9


def _needs_dask():
    return pytest.importorskip(
        "distributed", reason="Dask distributed is not installed (python3 -m pip install -e '.[test]')"
    )


def _games(path: Path) -> dict[tuple, dict]:
    """The file's games by key, each without its timings (the seconds each seat thought)."""
    games: dict[tuple, dict] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        game = json.loads(line)
        key = (game["rules"], tuple(game["levels"]), game["seed"], game["budget"])
        assert key not in games, f"game {key} kept twice"
        del game["seconds"]
        games[key] = game
    return games


def _table(out: str) -> list[list[str]]:
    """The table's rows without the timing column (decisions/s)."""
    rows = [line.split() for line in out.splitlines() if line.startswith(("greedy", "random"))]
    return [row[:7] + row[8:] for row in rows]


def _one_line(capsys) -> str:
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    [line] = err.splitlines()
    assert line.startswith("mexitrain: error: ")
    return line


def _local_run(tmp_path: Path, capsys) -> tuple[Path, str]:
    local = tmp_path / "local.jsonl"
    assert main([*TOURNAMENT, "--processes", "1", "--results", str(local)]) == 0
    return local, capsys.readouterr().out


def test_a_cluster_plays_the_games_of_a_local_run_and_resumes_like_it(tmp_path: Path, capsys) -> None:
    distributed = _needs_dask()
    local, local_out = _local_run(tmp_path, capsys)
    assert len(_games(local)) == GAMES
    remote = tmp_path / "cluster.jsonl"
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
    ) as cluster:
        address = cluster.scheduler_address
        assert main([*TOURNAMENT, "--cluster", address, "--results", str(remote)]) == 0
        out, err = capsys.readouterr()
        assert f"playing on the Dask cluster at {address}: 2 workers now" in err
        assert f"0 of them read from {remote}, {GAMES} played now" in out
        assert _games(remote) == _games(local)  # every game, each once, the same games
        assert _table(out) == _table(local_out) and len(_table(out)) == 2

        # stopped after four games, in the middle of the fifth's line: the same command
        # plays the five others, as a local run does
        lines = remote.read_bytes().splitlines(keepends=True)
        remote.write_bytes(b"".join(lines[:4]) + lines[4][:30])
        assert main([*TOURNAMENT, "--cluster", address, "--results", str(remote)]) == 0
        out = capsys.readouterr().out
        assert f"4 of them read from {remote}, {GAMES - 4} played now" in out
        assert _games(remote) == _games(local)
        assert _table(out) == _table(local_out)


def test_local_n_starts_a_cluster_of_n_processes_and_stops_it(tmp_path: Path, capsys) -> None:
    _needs_dask()
    local, local_out = _local_run(tmp_path, capsys)
    remote = tmp_path / "cluster.jsonl"
    assert main([*TOURNAMENT, "--cluster", "local:2", "--results", str(remote)]) == 0
    out, err = capsys.readouterr()
    assert ": 2 workers now" in err and "tcp://127.0.0.1:" in err
    assert _games(remote) == _games(local)
    assert _table(out) == _table(local_out)


def test_a_worker_with_other_code_is_refused(tmp_path: Path, capsys, monkeypatch) -> None:
    """The workers' code of the rules and players differs from this one's (here: this one's
    digest is made to differ): no game of theirs is kept, the command stops in one line."""
    _needs_dask()
    from mexitrain.commands import cluster

    real = cluster.fingerprint()
    assert len(real) == 16 and real == cluster.fingerprint()
    monkeypatch.setattr(cluster, "fingerprint", lambda: "0" * 16)
    remote = tmp_path / "cluster.jsonl"
    assert main([*TOURNAMENT, "--cluster", "local:1", "--results", str(remote)]) == 1
    _out, err = capsys.readouterr()
    [line] = [x for x in err.splitlines() if x.startswith("mexitrain: error: ")]
    assert "the worker at tcp://127.0.0.1:" in line and "install the same version on every worker" in line
    assert "Traceback" not in err
    assert remote.read_text() == ""


def test_ctrl_c_stops_a_tournament_on_a_cluster_as_a_local_one(tmp_path: Path) -> None:
    """Ctrl+C at a terminal (SIGINT to every process of the group: the command and the
    cluster's processes): one line after the cluster's, status 130, every game counted kept,
    no traceback from a worker, and no process of the group left behind."""
    _needs_dask()
    results = tmp_path / "results.jsonl"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mexitrain", "tournament", "--players", "2", "--games", "200",
         "--ai", "planner,greedy", "--option", "rounds=1", "--cluster", "local:2", "--results", str(results)],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,  # a process group of its own, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as at a terminal
    )
    try:
        first = proc.stderr.readline()
        assert "playing on the Dask cluster at tcp://127.0.0.1:" in first, first
        tenth = proc.stderr.readline()  # a tenth of the games played (not a terminal)
        assert "of 400 games played" in tenth, tenth
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    left = _group(proc.pid)
    for pid in left:  # never left running, even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert left == []
    assert proc.returncode == 130
    assert out == "" and "Traceback" not in err
    [line] = err.splitlines()
    m = re.fullmatch(r"stopped: (\d+) of 400 games played; kept in (.+)", line)
    assert m and m[2] == str(results), line
    kept = len(results.read_text().splitlines())
    assert 40 <= int(m[1]) <= kept <= int(m[1]) + 1


def _group(pgid: int, wait: float = 10) -> list[int]:
    """The processes of group ``pgid`` still running after at most ``wait`` seconds."""
    import time

    if not Path("/proc/self").exists():  # no /proc to look in (not Linux)
        return []
    deadline = time.monotonic() + wait
    while True:
        left = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if os.getpgid(int(entry.name)) == pgid:
                        left.append(int(entry.name))
                except OSError:
                    pass
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def test_an_address_that_does_not_answer_is_one_line(capsys) -> None:
    _needs_dask()
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        assert main([*TOURNAMENT, "--cluster", "tcp://127.0.0.1:1"]) == 1
    line = _one_line(capsys)
    assert line.startswith("mexitrain: error: cannot reach the Dask scheduler at tcp://127.0.0.1:1: ")


def test_without_dask_the_option_says_how_to_install_it(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    results = tmp_path / "r.jsonl"
    assert main([*TOURNAMENT, "--cluster", "tcp://127.0.0.1:8786", "--results", str(results)]) == 1
    assert _one_line(capsys) == (
        "mexitrain: error: --cluster needs Dask distributed, which is not installed: "
        "pip install 'mexitrain[cluster]'"
    )
    assert not results.exists()  # nothing done


def test_a_local_run_never_imports_dask() -> None:
    code = (
        "import sys\n"
        "from mexitrain.cli import main\n"
        f"assert main({[*TOURNAMENT, '--games', '1', '--processes', '1']!r}) == 0\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed'))\n"
        "assert not loaded, loaded\n"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("local:0", "local:N needs N between 1 and 64, not 'local:0'"),
        ("local:65", "local:N needs N between 1 and 64, not 'local:65'"),
        ("local:two", "expected tcp://HOST:PORT (a Dask scheduler) or local:N, not 'local:two'"),
        ("http://example.org:80", "expected tcp://HOST:PORT"),
        ("tcp://host", "expected tcp://HOST:PORT"),
        ("tcp://host:70000", "expected tcp://HOST:PORT"),
        ("tcp://host:8786/x", "expected tcp://HOST:PORT"),
        ("", "expected tcp://HOST:PORT"),
    ],
)
def test_a_bad_cluster_is_a_bad_argument(value: str, message: str, capsys) -> None:
    assert main([*TOURNAMENT, f"--cluster={value}"]) == 2
    line = _one_line(capsys)
    assert line.startswith(f"mexitrain: error: argument --cluster: {message}")


@pytest.mark.parametrize(
    ("value", "address"),
    [
        ("tcp://scheduler.lan:8786", "tcp://scheduler.lan:8786"),
        ("tls://scheduler.example.org:8786", "tls://scheduler.example.org:8786"),
        ("scheduler:8786", "tcp://scheduler:8786"),
        ("tcp://[::1]:8786", "tcp://[::1]:8786"),
        ("local:3", "local:3"),
    ],
)
def test_the_addresses_a_cluster_may_have(value: str, address: str) -> None:
    from mexitrain.commands.cluster import cluster_value

    assert str(cluster_value(value)) == address  # only read: nothing is reached


def test_processes_belong_to_a_local_run(capsys) -> None:
    assert main([*TOURNAMENT, "--processes", "2", "--cluster", "local:2"]) == 2
    assert "--processes is for a local run" in _one_line(capsys)


class _Future:
    """A game already ended on a fake cluster."""

    def __init__(self, value: tuple) -> None:
        self.value = value

    def add_done_callback(self, callback) -> None:
        callback(self)

    def result(self) -> tuple:
        return self.value


@pytest.mark.parametrize("when", ["the last game is counted", "the cluster closes"])
def test_a_ctrl_c_after_the_last_wait_is_never_lost(when: str, monkeypatch) -> None:
    """Under load the games can all be played before this process has counted them: a Ctrl+C
    while it counts the last one, or while the cluster closes (where Dask's own clean-up
    swallows a KeyboardInterrupt), still stops the command (status 130 in the command)."""
    from contextlib import contextmanager
    from types import SimpleNamespace

    from mexitrain.commands import cluster

    def ctrl_c() -> None:
        os.kill(os.getpid(), signal.SIGINT)

    class Client:
        scheduler = SimpleNamespace(address="tcp://127.0.0.1:1")

        def nthreads(self) -> dict:
            return {"tcp://127.0.0.1:2": 1}

        def map(self, _fn, todo, pure):
            return [_Future((job, f"game {job[0]}", "tcp://127.0.0.1:2", cluster.fingerprint())) for job in todo]

    @contextmanager
    def fake_client(_distributed, _where):
        yield Client()
        if when == "the cluster closes":
            try:
                ctrl_c()
            except KeyboardInterrupt:  # as a clean-up that swallows it would
                pass

    monkeypatch.setattr(cluster, "require", lambda: None)
    monkeypatch.setattr(cluster, "_client", fake_client)
    todo = [(i,) for i in range(5)]
    counted = []

    def finished(job, result) -> None:
        counted.append(result)
        if when == "the last game is counted" and len(counted) == len(todo):
            ctrl_c()

    with pytest.raises(KeyboardInterrupt):
        cluster.play(cluster.Cluster(None, 2), todo, finished, ready=lambda line: None)
    assert sorted(counted) == [f"game {i}" for i in range(5)]
