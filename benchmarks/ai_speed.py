"""How fast the computer players decide.

Plays 4-player double-12 games (Standard preset; ``--players`` for another table) and times
every ``choose(view)`` call:

- decisions per second of each level (random, greedy and planner in every seat; the expert in
  seat 1 against planners);
- the planner's median, 99th percentile and worst time per decision (aim: worst <= 5 ms),
  the worst also without the garbage collector's pauses (interpreter-wide, triggered by
  whoever allocates: the engine's snapshots as much as the player);
- the expert's median and 95th-percentile time per decision at its default strength (aim:
  median <= 0.3 s, p95 <= 1 s), over all its decisions and over those it searched; the same
  for the research level ``expert-v`` (issue #36) with ``--levels expert-v``.

    .venv/bin/python benchmarks/ai_speed.py                   # 1 game per level, 13 rounds
    .venv/bin/python benchmarks/ai_speed.py --rounds 3 --games 2 --budget 64

Times are this process's CPU time (``--wall`` for wall-clock time), so that other programs
on a shared machine do not inflate them. A plain script: it prints figures and asserts nothing (timings depend on the machine and on
what else runs on it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(q * (len(values) - 1))))
    return values[k]


#: The levels timed in seat 0 against planners, with their searched decisions apart.
SEARCHING = ("expert", "expert-v")

#: The clock of every figure: this process's CPU time by default (other programs on a shared
#: machine then do not count), wall time with --wall.
CLOCK = time.process_time


class GcClock:
    """Time spent in the garbage collector (interpreter-wide pauses, not the player's work)."""

    def __init__(self) -> None:
        import gc

        self.total = 0.0
        self._start = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = CLOCK()
        else:
            self.total += CLOCK() - self._start


GC = GcClock()


def time_level(level: str, games: int, rounds: int, seed: int, budget: int | None, players: int = 4):
    """Per-decision times of ``level`` (and without GC pauses), and of the expert those it
    searched."""
    from mexitrain.players import make_player
    from mexitrain.players.expert import ExpertPlayer, ValueExpertPlayer
    from mexitrain.rules import RuleSet, apply, new_game, view

    searching = dict(zip(SEARCHING, (ExpertPlayer, ValueExpertPlayer), strict=True))

    rules = RuleSet(rounds=rounds)
    times: list[float] = []
    no_gc: list[float] = []
    searched: list[float] = []
    for g in range(games):
        if level in searching:
            kw = {} if budget is None else {"rollouts": budget}
            seats = [searching[level](seed + g, **kw)] + [make_player("planner", i) for i in range(players - 1)]
            timed = {0}
        else:
            seats = [make_player(level, seed + g * players + i) for i in range(players)]
            timed = set(range(players))
        state = new_game(rules, players, seed + g)
        while not state.over:
            seat = state.turn
            v = view(state, seat)
            gc0 = GC.total
            t = CLOCK()
            action = seats[seat].choose(v)
            dt = CLOCK() - t
            if seat in timed:
                times.append(dt)
                no_gc.append(dt - (GC.total - gc0))
                if level in searching and seats[0].last_stats.get("rollouts"):
                    searched.append(dt)
            state = apply(state, action)
    return times, no_gc, searched


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1, help="games per level (default 1)")
    p.add_argument("--rounds", type=int, default=13, help="rounds per game (default 13, the full game)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--players", type=int, default=4, help="players at the table (default 4)")
    p.add_argument("--budget", type=int, default=None, help="expert rollouts (default: its default)")
    p.add_argument(
        "--levels", default="random,greedy,planner,expert", help="comma-separated levels to time"
    )
    p.add_argument("--wall", action="store_true", help="time with the wall clock, not CPU time")
    args = p.parse_args(argv)
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    from mexitrain.cli import freeze_startup_objects
    from mexitrain.players.expert import default_rollouts

    freeze_startup_objects()  # as the mexitrain program does once it has started
    print(
        f"{args.players} players, double-12 Standard, {args.rounds} round(s), {args.games} game(s) per level; "
        f"expert budget {args.budget or default_rollouts(args.players)} rollouts; "
        f"{'wall-clock' if args.wall else 'CPU'} time"
    )
    for level in args.levels.split(","):
        times, no_gc, searched = time_level(level, args.games, args.rounds, args.seed, args.budget, args.players)
        total = sum(times)
        line = (
            f"{level:<8} {len(times):>6} decisions  {len(times) / total:>9.1f} decisions/s"
            f"  worst {1e3 * max(times):.2f} ms"
        )
        if level == "planner":
            line += (
                f"  median {1e3 * statistics.median(times):.2f} ms  p99 {1e3 * _pct(times, 0.99):.2f} ms"
                f"  (worst {1e3 * max(no_gc):.2f} ms without GC pauses)"
            )
        if level in SEARCHING:
            line += (
                f"  median {statistics.median(times):.3f} s  p95 {_pct(times, 0.95):.3f} s"
                f"; searched {len(searched)}: median "
                f"{statistics.median(searched) if searched else float('nan'):.3f} s"
                f"  p95 {_pct(searched, 0.95):.3f} s"
            )
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
