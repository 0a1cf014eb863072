"""How fast the expert plays a round out: its fast playout against the reducer.

Every expert decision plays the rest of the round many times with the planner choosing for
every seat. ``mexitrain.players.playout`` does it on plain lists; ``reducer_rollout`` does the
same through ``apply`` and ``legal_actions`` (the tests demand the same outcome from both).
This prints rollouts and actions per second of each, from states early in one-round
double-12 games, twice: with the planner's plan cache empty (``cold``, as in a decision, whose
sampled hands are new) and filled by the first pass (``warm``).

    .venv/bin/python benchmarks/rollout_speed.py
    .venv/bin/python benchmarks/rollout_speed.py --players 2 --states 300

CPU time; a plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rollouts per second: the expert's playout and the reducer.")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], help="player counts (default 2 4)")
    parser.add_argument("--states", type=int, default=200, help="states to play out (default 200)")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)

    from mexitrain.players import planner
    from mexitrain.players.expert import _one_round, reducer_rollout, rollout
    from mexitrain.rules import apply, legal_actions, make_rules, new_game

    rules = make_rules("standard", {"rounds": "1"})
    for n in args.players:
        rng = random.Random(args.seed)
        states = []
        for i in range(args.states):
            s = _one_round(new_game(rules, n, i))
            for _ in range(rng.randrange(0, 30)):
                s = apply(s, rng.choice(legal_actions(s)))
            if not s.over:
                states.append((s, [rng.sample(s.boneyard, len(s.boneyard)) for _ in range(n)]))
        for name, fn in (("playout", rollout), ("reducer", reducer_rollout)):
            planner._PLAN_CACHE.clear()
            for label in ("cold", "warm"):
                start = time.process_time()
                actions = sum(fn(s, 0, q)[1] for s, q in states)
                secs = time.process_time() - start
                print(
                    f"{n} players, {name:7} {label}: {len(states) / secs:6.0f} rollouts/s, "
                    f"{actions / secs:8,.0f} actions/s ({actions / len(states):.0f} actions a rollout)"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
