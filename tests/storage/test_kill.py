"""Kill-safety: a process writing autosaves in a loop is killed with SIGKILL at random moments;
the autosave left behind always loads (the last good game)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mexitrain.storage import autosave_path, clean_stale_temps, find_autosave

HEAVY = os.environ.get("MEXITRAIN_HEAVY", "") not in ("", "0")
ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import random, sys
from pathlib import Path
from mexitrain.rules import RuleSet, apply, legal_actions, new_game
from mexitrain.game_setup import GameSetup, default_seats
from mexitrain.storage import autosave

root, seed = Path(sys.argv[1]), int(sys.argv[2])
setup = GameSetup(rules=RuleSet(), seed=seed, seats=default_seats(4, 1, ("random",)))
rng = random.Random(seed)
state = new_game(setup.rules, players=4, seed=seed)
while True:
    state = apply(state, rng.choice(legal_actions(state)))
    autosave(state, setup, root)
    if state.over:
        seed += 1
        setup = setup.model_copy(update={"seed": seed})
        state = new_game(setup.rules, players=4, seed=seed)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs kill -9")
def test_autosave_survives_kill_minus_nine(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    rng = random.Random(2024)
    rounds = 12 if HEAVY else 3
    last_events = -1
    for k in range(rounds):
        seed = 100 + k
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(tmp_path), str(seed)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 30
            # wait until this child has replaced the autosave at least once
            while True:
                game = None
                try:
                    game = find_autosave(tmp_path) if autosave_path(tmp_path).exists() else None
                except Exception:
                    pass
                if game is not None and game.setup.seed >= seed:
                    break
                assert child.poll() is None, child.stderr.read().decode()
                assert time.monotonic() < deadline, "the child never wrote an autosave"
                time.sleep(0.02)
            time.sleep(rng.uniform(0.0, 0.4))
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=30)
        assert child.returncode == -signal.SIGKILL
        game = find_autosave(tmp_path)  # never raises: the file is whole
        assert game is not None
        assert game.setup.seed >= seed and game.state.seed == game.setup.seed
        assert len(game.state.events) + len(game.state.results) > 0
        last_events = len(game.state.events)
        leftovers = {p.name for p in tmp_path.iterdir()} - {"autosave.json"}
        assert all(name.startswith(".autosave.json.") and name.endswith(".tmp") for name in leftovers)
    assert last_events >= 0
    clean_stale_temps(tmp_path, older_than=0)
    assert [p.name for p in tmp_path.iterdir()] == ["autosave.json"]
