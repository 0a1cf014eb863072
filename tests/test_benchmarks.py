"""The benchmark scripts still run (on tiny inputs): they print figures, and nothing here times
anything. ui_speed.py drives the app and is left to its own runs."""

from __future__ import annotations

import gc
import importlib.util
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

CASES = {
    "engine_speed": ["--games", "1", "--players", "2", "--option", "rounds=1"],
    "engine_speed --mode app": ["--mode", "app", "--games", "1", "--players", "2", "--option", "rounds=1"],
    # the compiled form built in a temporary folder (setup.py; kept there for the next run)
    "engine_speed --compiled": [
        "--compiled", "--games", "1", "--players", "2", "--option", "rounds=1", "--repeats", "1",
    ],
    "core_speed": ["--games", "1", "--players", "2", "--option", "rounds=1", "--repeats", "1"],
    "snapshot_floor": ["--actions", "200", "--games", "1"],
    "list_speed": ["--files", "2", "--mb", "0.1", "--rounds", "1", "--cached"],
    "ai_speed": ["--rounds", "1", "--levels", "random,expert", "--budget", "2", "--players", "2"],
    "ai_speed expert-v": ["--rounds", "2", "--levels", "expert-v", "--budget", "2", "--players", "2"],
    "rollout_speed": ["--players", "2", "--states", "2"],
    "review_speed": ["--players", "2", "--rounds", "1", "--budget", "2"],
    "review_bias": ["--level", "greedy", "--decisions", "2", "--budget", "3", "--truth", "3"],
    "expert_regret": [
        "--positions", "2", "--deals", "3", "--budgets", "2", "--seeds", "1",
        "--win-points", "0,100", "--extra", "0,1",
    ],
    "expert_ceiling": [
        "--positions", "2", "--deals", "2", "--budget", "2", "--particles", "3", "--processes", "1",
    ],
    "expert_endgame": ["paired", "--games", "1", "--option", "rounds=1", "--option", "set=6"],
    "expert_equity": [
        "paired", str(BENCHMARKS / "results/equity/me-planner-2p.jsonl"), str(BENCHMARKS / "results/expert-full-planner-2p.jsonl"),
    ],
    "expert_equity tournament": [
        "tournament", "--players", "2", "--games", "1", "--seed", "1", "--ai", "expert-me,random",
        "--option", "rounds=1", "--option", "set=6", "--budget", "2", "--processes", "1",
    ],
    "expert_value": ["fit", "--players", "2", "--games", "2", "--seed", "5"],
    "expert_value regret": [
        "regret", "--players", "2", "--positions", "2", "--deals", "3", "--budgets", "4", "--horizons", "0,4",
    ],
    "expert_value paired": [
        "paired", str(BENCHMARKS / "results/value/v-planner-2p.jsonl"), str(BENCHMARKS / "results/expert-full-planner-2p.jsonl"),
    ],
    "expert_value tournament": [
        "tournament", "--players", "2", "--games", "1", "--seed", "1", "--ai", "expert-v,random",
        "--option", "rounds=2", "--option", "set=6", "--budget", "2", "--processes", "1",
    ],
    "ismcts_match": [
        "--games", "1", "--option", "rounds=1", "--option", "set=6", "--iterations", "8", "--against", "random",
    ],
    "tune_weights": ["check", "--players", "3", "--deals", "2", "--engine", "1", "--processes", "1"],
    "tournament_speed": [
        "--against", "HEAD", "--games", "1", "--budget", "2", "--repeats", "1", "--processes", "1",
    ],
    "server_load": ["--tables", "1", "--seconds", "1", "--think", "0"],
    "server_load --mixed": ["--tables", "1", "--seconds", "1", "--think", "0", "--watchers", "1", "--chat-rate", "1"],
    "server_load --storm": [
        "--tables", "1", "--seconds", "1", "--think", "0", "--reconnect-storm", "--half-open", "40", "--settle", "0",
    ],
}


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(CASES))
def test_benchmark_runs_and_prints_figures(name, capsys):
    if "--compiled" in CASES[name] and not _can_compile():
        pytest.skip("no Cython or no C compiler here")
    callbacks = list(gc.callbacks)  # ai_speed.py times the collector from a callback
    try:
        assert _load(name.split()[0]).main(CASES[name]) in (0, None)
    finally:
        gc.callbacks[:] = callbacks
    out = capsys.readouterr().out
    assert out.strip() and any(ch.isdigit() for ch in out)
    if "--reconnect-storm" in CASES[name]:  # the storms ran and their figures were printed
        assert "reconnect storm" in out and "half-open: 40 opened" in out and "server memory" in out, out
    if "--compiled" in CASES[name]:  # both forms ran, each said so
        assert "this tree, compiled (rules core compiled)" in out, out
        assert "this tree (rules core pure Python)" in out, out


def _can_compile() -> bool:
    import shutil
    import sysconfig

    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return importlib.util.find_spec("Cython") is not None and shutil.which(cc) is not None


def test_every_script_is_covered_or_named():
    scripts = {p.stem for p in BENCHMARKS.glob("*.py")}
    assert scripts == {name.split()[0] for name in CASES} | {"ui_speed"}


def test_a_checked_out_revision_leaves_no_folder_behind():
    """``--against REV`` checks REV out in a temporary worktree: gone afterwards, with the
    temporary folder made to hold it."""
    with _load("engine_speed").checkout("HEAD") as (_rev, worktree):
        assert (worktree / "mexitrain" / "__init__.py").is_file()
    assert not worktree.exists() and not worktree.parent.exists()
