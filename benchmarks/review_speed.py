"""How long a game review takes (docs/review.md): a 13-round game of 4 players, one person.

Plays a Standard game (double-12, 13 rounds) with the planner in every seat, takes seat 0
as the person's, and reviews its decisions (mexitrain.players.review.review_game) at the
reduced default budget, or ``--budget N`` deals a stage of a decision. Prints the decisions, the time
and the time per decision. ``--record FILE`` also writes the game as a record, for
``mexitrain review FILE``.

    .venv/bin/python benchmarks/review_speed.py
    .venv/bin/python benchmarks/review_speed.py --budget 64 --record /tmp/game.json

A plain script that prints figures; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mexitrain.players import make_player  # noqa: E402
from mexitrain.players.review import DEFAULT_BUDGET, review_game  # noqa: E402
from mexitrain.rules import apply, make_rules, new_game, view  # noqa: E402


def play_game(players: int, rounds: int, seed: int, levels: tuple[str, ...] = ()):
    """A Standard game of planners, or of ``levels`` seat by seat (the final snapshot)."""
    rules = make_rules("standard", {"rounds": str(rounds)})
    bots = [make_player(levels[i] if levels else "planner", seed * 16 + i) for i in range(players)]
    state = new_game(rules, players=players, seed=seed)
    while not state.over:
        state = apply(state, bots[state.turn].choose(view(state, state.turn)))
    return state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=13)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="deals a stage of a decision")
    parser.add_argument("--record", type=Path, help="also write the game as a record")
    args = parser.parse_args(argv)

    state = play_game(args.players, args.rounds, args.seed)
    if args.record is not None:
        from mexitrain.rules.record import dump_record, to_record

        seats = [("You", "human")] + [(f"Planner {i + 1}", "planner") for i in range(1, args.players)]
        args.record.write_text(dump_record(to_record(state, seats)), encoding="utf-8")
    start, cpu = time.perf_counter(), time.process_time()
    review = review_game(state, [0], args.budget)
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    n = len(review.decisions)
    print(f"python {platform.python_version()}, {args.players} players, {args.rounds} rounds, seed {args.seed}")
    print(f"budget {args.budget} deals a stage: {n} decisions reviewed in {took:.1f} s "
          f"({1000 * took / max(1, n):.0f} ms a decision), {cpu:.1f} s of CPU; total cost {review.total:.1f} points")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} cores, load average {load:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
