"""Two real processes on one data folder lose no game and no statistic (issue 21, "Done when").

Before: both windows wrote ``autosave.json`` (one game's autosave overwrote, then deleted, the
other's) and ``stats.json`` was read-modify-written without a lock (2 x 60 games ended as ~75).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from mexitrain.storage import find_autosaves, load_game
from mexitrain.storage.stats import load_stats

TIMEOUT = 240

# One "window": plays a game through the app's Autosaver, at the same time as the other process
# (both wait for a go file), then either quits mid-game or finishes it.
WINDOW = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from mexitrain.storage.autosaver import Autosaver
    from support.tables import SHORT_RULES, table
    from support.games import history, start

    root, seed, finish, go = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "finish", Path(sys.argv[4])
    setup = table(SHORT_RULES, seed=seed)
    states = history(start(setup), 10**6, rng=seed)
    if not finish:
        states = states[: len(states) // 2]
    saver = Autosaver(root, lambda text, error: print("REPORT", text, flush=True))
    (root / f"ready-{seed}").write_text("")
    while not go.exists():
        time.sleep(0.01)
    for state in states:
        saver.submit(state, setup, 0.0)
        saver.flush()
    saver.close()
    print("DONE", len(states), states[-1].over, flush=True)
    """
)

# Records ``count`` finished games (each a different seed) into the statistics.
RECORDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from mexitrain.storage.stats import record_finished_game
    from support.tables import SHORT_RULES, table
    from support.games import finish, start

    root, first, count, go = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
    from mexitrain.rules import RuleSet
    games = []
    for seed in range(first, first + count):
        setup = table(rules=RuleSet(set=6, rounds=1), seed=seed)
        games.append((setup, finish(start(setup), seed)))
    (root / f"ready-{first}").write_text("")
    while not go.exists():
        time.sleep(0.005)
    for setup, state in games:
        assert record_finished_game(root, setup, state).counted
    print("DONE", flush=True)
    """
)


def _run_together(tmp_path: Path, script: str, argvs: list[list[str]], ready: list[str]) -> list[str]:
    root = tmp_path / "data"
    root.mkdir()
    go = tmp_path / "go"
    tests = Path(__file__).resolve().parents[1]  # for ``support``
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tests), str(Path.cwd()), os.environ.get("PYTHONPATH", "")])}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(root), *argv, str(go)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )
        for argv in argvs
    ]
    try:
        import time

        deadline = time.monotonic() + TIMEOUT
        while not all((root / f"ready-{r}").exists() for r in ready):
            assert time.monotonic() < deadline, "the processes did not get ready"
            assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
            time.sleep(0.02)
        go.write_text("")  # both start writing at the same moment
        outs = []
        for p in procs:
            out, err = p.communicate(timeout=TIMEOUT)
            assert p.returncode == 0, err
            assert "REPORT" not in out, out
            outs.append(out)
        return outs
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()


def test_two_windows_autosaving_at_once_lose_no_game(tmp_path: Path) -> None:
    """(a) Two games quit mid-way: both are offered at the next start. Then one quits while the
    other finishes: the finished one is counted, the other is still offered."""
    root = tmp_path / "data"
    _run_together(tmp_path, WINDOW, [["11", "quit"], ["12", "quit"]], ["11", "12"])
    found = find_autosaves(root)
    assert [u.error for u in found] == [None, None]
    assert sorted(u.game.setup.seed for u in found if u.game) == [11, 12]
    for u in found:
        assert load_game(u.path)[1] == u.game.state

    other = tmp_path / "second"
    other.mkdir()
    _run_together(other, WINDOW, [["21", "finish"], ["22", "quit"]], ["21", "22"])
    root = other / "data"
    found = find_autosaves(root)
    assert [u.game.setup.seed for u in found if u.game] == [22]  # the unfinished one is kept
    assert load_stats(root).players["You"].overall.games == 1  # the finished one is counted


def test_two_processes_recording_60_games_each_count_120(tmp_path: Path) -> None:
    """(b) 2 processes x 60 finished games recorded into one folder at once: 120 counted."""
    _run_together(tmp_path, RECORDER, [["1000", "60"], ["2000", "60"]], ["1000", "2000"])
    stats = load_stats(tmp_path / "data")
    assert stats.players["You"].overall.games == 120
