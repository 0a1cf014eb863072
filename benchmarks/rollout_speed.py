"""How fast the expert plays a round out: on the rules core, and through the reducer.

Every expert decision plays the rest of the round many times with the planner choosing for
every seat. Its rollouts run on the rules core (``mexitrain.rules.core``): a deal becomes one
Core, copied for each rollout and stepped in place, the planner's rollout policy reading the
core (``mexitrain.players.playout``). ``reducer_rollout`` does the same through ``apply`` and
``legal_actions`` with the planner's ``planner_decide`` (the tests demand the same outcome
from both). This prints rollouts and actions per second, from states early in one-round
double-12 games, twice: with the planner's plan caches empty (``cold``, as in a decision,
whose sampled hands are new) and filled by the first pass (``warm``):

- ``core``: from a Core copy, as the expert plays them (the deal converted once);
- ``snapshot``: ``expert.rollout`` from a GameState (the conversion counted in each);
- ``reducer``: through the reducer, snapshot by snapshot.

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
    parser = argparse.ArgumentParser(description="Rollouts per second: on the rules core and through the reducer.")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], help="player counts (default 2 4)")
    parser.add_argument("--states", type=int, default=200, help="states to play out (default 200)")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)

    from mexitrain.players import planner, playout
    from mexitrain.players.expert import ROLLOUT_PLAN_BUDGET, one_round, reducer_rollout, rollout
    from mexitrain.rules import apply, legal_actions, make_rules, new_game

    def core_rollout(s, seat, q):  # as in a decision: s is (core, queues of tile ids)
        return playout.run(s.copy(), q, ROLLOUT_PLAN_BUDGET)

    rules = make_rules("standard", {"rounds": "1"})
    for n in args.players:
        rng = random.Random(args.seed)
        states = []
        for i in range(args.states):
            s = one_round(new_game(rules, n, i))
            for _ in range(rng.randrange(0, 30)):
                s = apply(s, rng.choice(legal_actions(s)))
            if not s.over:
                states.append((s, [rng.sample(s.boneyard, len(s.boneyard)) for _ in range(n)]))
        cores = []
        for s, q in states:
            c = playout.start(s)
            cores.append((c, [[c.tab.id_of[t] for t in x] for x in q]))
        for name, fn, cases in (
            ("core", core_rollout, cores), ("snapshot", rollout, states), ("reducer", reducer_rollout, states),
        ):
            planner._PLAN_CACHE.clear()
            playout._PLANS.clear()
            for label in ("cold", "warm"):
                start = time.process_time()
                actions = sum(fn(s, 0, q)[1] for s, q in cases)
                secs = time.process_time() - start
                print(
                    f"{n} players, {name:8} {label}: {len(states) / secs:6.0f} rollouts/s, "
                    f"{actions / secs:8,.0f} actions/s ({actions / len(states):.0f} actions a rollout)"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
