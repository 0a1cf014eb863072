"""How long a `mexitrain tournament` takes here and at an older commit, side by side.

    .venv/bin/python benchmarks/tournament_speed.py --against 1a3c21d --games 40 --repeats 2

runs, in alternating child processes (this tree first in odd rounds, REV first in even ones),

    mexitrain tournament --players 2 --games N --seed S --ai expert,planner --preset standard
                         --option rounds=1 --budget 240 --processes K

on this tree and on REV checked out in a temporary git worktree, and prints each side's wall
time and CPU time (the tournament's worker processes included) with the ratio of the medians.
Both sides play the same deals at the same budget; the expert plays the same moves on both
(its rollouts are the same rules), so the ratio is the time alone. ``--players``, ``--ai``,
``--budget`` and ``--rounds`` change the match. A plain script: it prints figures and asserts
nothing.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_speed import ROOT, _positive, _span, checkout  # noqa: E402

_CHILD = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from mexitrain.cli import main; raise SystemExit(main(sys.argv[2:]))"
)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_tournament(root: Path, argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child and its workers) of one tournament run."""
    cpu, wall = _children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-c", _CHILD, str(root), *argv], check=True, capture_output=True, cwd="/")
    return time.perf_counter() - wall, _children_cpu() - cpu


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="A tournament's time here and at an older commit.")
    p.add_argument("--against", required=True, metavar="REV", help="the git revision to compare with")
    p.add_argument("--games", type=_positive, default=40, help="deals (each under both rotations)")
    p.add_argument("--seed", type=int, default=1, help="first deal's seed (default 1)")
    p.add_argument("--players", type=_positive, default=2)
    p.add_argument("--ai", default="expert,planner")
    p.add_argument("--budget", type=_positive, default=240, help="the expert's rollouts (default 240)")
    p.add_argument("--rounds", type=_positive, default=1, help="rounds a game (default 1)")
    p.add_argument("--processes", type=_positive, default=2)
    p.add_argument("--repeats", type=_positive, default=2)
    args = p.parse_args(argv)
    cmd = [
        "tournament", "--players", str(args.players), "--games", str(args.games),
        "--seed", str(args.seed), "--ai", args.ai, "--preset", "standard",
        "--option", f"rounds={args.rounds}", "--budget", str(args.budget),
        "--processes", str(args.processes),
    ]
    print("mexitrain " + " ".join(cmd) + f"; {args.repeats} runs a side")
    with checkout(args.against) as (rev, old):
        sides = {"this tree": ROOT, f"commit {rev}": old}
        times: dict[str, dict[str, list[float]]] = {n: {"wall": [], "cpu": []} for n in sides}
        for k in range(args.repeats):
            for name in list(sides) if k % 2 == 0 else list(reversed(sides)):
                wall, cpu = time_tournament(sides[name], cmd)
                times[name]["wall"].append(wall)
                times[name]["cpu"].append(cpu)
                print(f"  run {k + 1}, {name}: {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)
    for name, t in times.items():
        print(f"{name}: {_span(t['wall'])} s wall, {_span(t['cpu'])} s CPU")
    here, there = times["this tree"], times[f"commit {rev}"]
    for kind in ("wall", "cpu"):
        ratio = statistics.median(there[kind]) / statistics.median(here[kind])
        print(f"speed-up of this tree over {rev} ({kind}): {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
