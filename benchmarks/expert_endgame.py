"""The expert's exact endgames (mexitrain/players/endgame.py): how often they apply, what they
change, what they cost, and tournaments of the level that uses them.

    python benchmarks/expert_endgame.py reach --players 2 --games 40 --seed 1
    python benchmarks/expert_endgame.py reach --players 2 --games 40 --seed 1 --option set=6
    python benchmarks/expert_endgame.py tournament --players 2 --games 1000 --seed 1 \\
        --ai expert-2,planner --preset standard --results benchmarks/results/expert2-planner-2p.jsonl

``reach`` plays one-round games (``--option`` over the Standard preset), the expert with the
endgame search (``expert-2``) in seat 0 against planners, and prints: its decisions, those
where the endgame search applied (exact: one deal left by the view; sampled: a few tiles
left to draw), those it finished within its node budget, those where it chose another move
than the planner's and than today's expert (the default level, asked at the same position),
its nodes, and the CPU time per decision (median, 95th percentile, worst) over all decisions
and over the endgame ones.

``tournament`` is ``mexitrain tournament`` with the level ``expert-2``
(:class:`mexitrain.players.expert.EndgameExpertPlayer`) registered in this process (and its
workers): the default ``expert`` is unchanged, so its kept games replay.

A plain script: it prints figures and asserts nothing.
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
    return values[min(len(values) - 1, max(0, round(q * (len(values) - 1))))]


def register() -> None:
    from mexitrain import players
    from mexitrain.players.expert import EndgameExpertPlayer

    players.LEVELS["expert-2"] = EndgameExpertPlayer


def reach(args: argparse.Namespace) -> None:
    from mexitrain.players import PlannerPlayer, endgame
    from mexitrain.players.expert import EndgameExpertPlayer, ExpertPlayer
    from mexitrain.rules import core, make_rules, view
    from mexitrain.table import TOURNAMENT_STRIDE, seat_seed

    options = dict(o.split("=", 1) for o in args.option)
    options.setdefault("rounds", "1")
    rules = make_rules("standard", options)
    clock = time.process_time
    times: list[float] = []
    end_times: list[float] = []
    counts = {"decisions": 0, "exact": 0, "sampled": 0, "over budget": 0, "not planner's": 0, "not expert's": 0}
    nodes: list[int] = []
    for g in range(args.games):
        seed = args.seed + g
        n = args.players
        expert = EndgameExpertPlayer(seat_seed(seed, 0, TOURNAMENT_STRIDE), endgame=endgame.NODE_BUDGET)
        today = ExpertPlayer(seat_seed(seed, 0, TOURNAMENT_STRIDE))
        planner = PlannerPlayer()
        others = [PlannerPlayer(seat_seed(seed, i, TOURNAMENT_STRIDE)) for i in range(n)]
        c = core.new_game(rules, players=n, seed=seed)
        while not c.over:
            seat = c.turn
            v = view(core.to_state(c), seat)
            if seat == 0:
                t = clock()
                action = expert.choose(v)
                dt = clock() - t
                times.append(dt)
                counts["decisions"] += 1
                kind = expert.last_stats.get("endgame")
                if kind:
                    counts[kind] += 1
                    nodes.append(expert.last_stats["nodes"])
                    if kind != "over budget":
                        end_times.append(dt)
                        if action != planner.choose(v):
                            counts["not planner's"] += 1
                        if action != today.choose(v):
                            counts["not expert's"] += 1
            else:
                action = others[seat].choose(v)
            core.step(c, core.check(c, action))
    print(f"rules {rules.changed() if hasattr(rules, 'changed') else options}, {args.players} players, "
          f"{args.games} one-round games from seed {args.seed}, expert-2 in seat 0 against planners")
    for k, x in counts.items():
        print(f"  {k}: {x}")
    if nodes:
        print(f"  nodes: median {statistics.median(nodes):.0f}, worst {max(nodes)}")
    for label, ts in (("every decision", times), ("endgame decisions", end_times)):
        if ts:
            print(f"  CPU s a decision, {label} ({len(ts)}): median {statistics.median(ts):.3f}, "
                  f"p95 {_pct(ts, 0.95):.3f}, worst {max(ts):.3f}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "tournament":
        register()
        from mexitrain.cli import main as cli_main

        raise SystemExit(cli_main(["tournament", *sys.argv[2:]]))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("reach", help="how often the endgame search applies, and its cost")
    r.add_argument("--players", type=int, default=2)
    r.add_argument("--games", type=int, default=20)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--option", action="append", default=[], help="KEY=VALUE over the Standard preset")
    r.add_argument("--max-boneyard", type=int, default=None, help="endgame.MAX_BONEYARD for this run")
    r.add_argument("--deals", type=int, default=None, help="endgame.DEALS for this run")
    r.add_argument("--nodes", type=int, default=None, help="endgame.NODE_BUDGET for this run")
    sub.add_parser("tournament", help="mexitrain tournament with the level expert-2")
    args = p.parse_args()
    from mexitrain.players import endgame

    for name, value in (("MAX_BONEYARD", args.max_boneyard), ("DEALS", args.deals), ("NODE_BUDGET", args.nodes)):
        if value is not None:
            setattr(endgame, name, value)
    print(f"endgame: MAX_BONEYARD {endgame.MAX_BONEYARD}, DEALS {endgame.DEALS}, NODE_BUDGET {endgame.NODE_BUDGET}")
    reach(args)


if __name__ == "__main__":
    main()
