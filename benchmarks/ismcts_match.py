"""Information-set MCTS (mexitrain/players/ismcts.py, the research level ``ismcts``) measured
against today's levels: seat-rotated seeded games, every game kept, 95 % intervals, and its
thinking time a decision.

    python benchmarks/ismcts_match.py --players 2 --games 100 --seed 1 --against expert-full \\
        --option rounds=1 --results benchmarks/results/ismcts/ismcts-expert-2p-r1.jsonl
    python benchmarks/ismcts_match.py --players 2 --games 100 --seed 1 --against planner \\
        --option rounds=1 --results benchmarks/results/ismcts/ismcts-planner-2p-r1.jsonl

Each of ``--games`` deals (game seeds S, S+1, ...) is played under every rotation of the
seats, as ``mexitrain tournament`` plays them (the same seat seeds), ``ismcts`` in one seat and
``--against`` in the others. Every game is one JSON line of ``--results`` (a stopped run goes
on where it was): the levels by seat, the seed, the options, the win credit of the ismcts
seat, the round scores, and the CPU seconds of each of its decisions and of the other seats'
(``cpu``, ``cpu_against``). Printed: its win share with the Wilson 95 % interval, its points a
round ahead of the others' mean with a 95 % interval, and its CPU time a decision (median,
95th percentile, worst; over all its decisions and over those it searched) next to the other
level's (this process's CPU time: other programs on a shared machine do not count).

``--iterations``, ``--width``, ``--exploration``, ``--opponents`` and ``--confidence`` change the level's settings for the run
(recorded in each line). ``--diagnose`` plays no match: at seat 0's searched decisions of
``--games`` one-round games of planners it prints the spread of the round's value over the
search's deals, the depth of its walks, and how often it and today's expert leave the
planner's move. A plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ai_speed import _pct  # noqa: E402  (the same percentile as the players' timings)


def _game(rules, levels: tuple[str, ...], seed: int, settings: dict):
    """One game as ``mexitrain tournament`` plays it (its seat seeds): (win credit per seat,
    round scores, CPU seconds of each decision per seat, negative for a searched one)."""
    from mexitrain.game_setup import TOURNAMENT_STRIDE, seat_seed
    from mexitrain.players import make_player
    from mexitrain.players.ismcts import IsmctsPlayer
    from mexitrain.rules import core, view

    n = len(levels)
    seeds = [seat_seed(seed, i, TOURNAMENT_STRIDE) for i in range(n)]
    players = [
        IsmctsPlayer(s, **settings) if lv == "ismcts" else make_player(lv, s)
        for lv, s in zip(levels, seeds, strict=True)
    ]
    c = core.new_game(rules, players=n, seed=seed)
    times: list[list[float]] = [[] for _ in range(n)]
    other = 0  # the ismcts seat's searched decisions where it left the planner's move
    clock = time.process_time
    while not c.over:
        seat = c.turn
        player = players[seat]
        v = view(core.to_state(c), seat)
        t = clock()
        action = player.choose(v)
        dt = clock() - t
        stats = getattr(player, "last_stats", {})
        searched = bool(stats.get("iterations") or stats.get("rollouts"))
        times[seat].append(-dt if searched else dt)
        if searched and stats.get("planner's") is False:
            other += 1
        core.step(c, core.check(c, action))
    winners = core.game_winners(c)
    credit = tuple((1 / len(winners) if i in winners else 0.0) for i in range(n))
    return credit, tuple(c.round_scores), times, other


def ahead(d: dict) -> float:
    """The ismcts seat's points a round fewer than the others' mean (above zero: ahead)."""
    seat = d["levels"].index("ismcts")
    rounds = d["round_scores"]
    n = len(rounds[0])
    return sum(sum(r[i] for i in range(n) if i != seat) / (n - 1) - r[seat] for r in rounds) / len(rounds)


def run(args: argparse.Namespace) -> None:
    from mexitrain.players.tournament import jobs, wilson
    from mexitrain.rules import RuleSet, make_rules

    options = dict(o.split("=", 1) for o in args.option)
    rules = make_rules("standard", options)
    settings = {k: v for k, v in (("iterations", args.iterations), ("width", args.width),
                                  ("exploration", args.exploration), ("opponents", args.opponents),
                                  ("confidence", args.confidence))
                if v is not None}
    levels = ("ismcts",) + (args.against,) * (args.players - 1)
    work = jobs(rules, levels, args.games, args.seed, None)
    done: dict[tuple, dict] = {}
    out = Path(args.results) if args.results else None
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists():
            for line in out.read_text().splitlines():
                if line.endswith("}"):
                    d = json.loads(line)
                    if d.get("settings", {}) == settings:
                        done[(tuple(d["levels"]), d["seed"])] = d
    with (out.open("a") if out is not None else open(os.devnull, "w")) as f:
        for rules_json, lv, seed, _ in work:
            if (tuple(lv), seed) in done:
                continue
            r = RuleSet.model_validate_json(rules_json)
            credit, scores, times, other = _game(r, lv, seed, settings)
            seat = lv.index("ismcts")
            d = {"levels": list(lv), "seed": seed, "rules": options, "settings": settings, "ismcts": credit[seat],
                 "round_scores": scores, "not_planners": other, "cpu": [round(x, 4) for x in times[seat]],
                 "cpu_against": [round(x, 4) for i, ts in enumerate(times) if i != seat for x in ts]}
            f.write(json.dumps(d) + "\n")
            f.flush()
            done[(tuple(lv), seed)] = d
    rows = [done[(tuple(lv), seed)] for _, lv, seed, _ in work if (tuple(lv), seed) in done]
    report(rows, args, options, settings, wilson)


def report(rows: list[dict], args, options, settings, wilson) -> None:
    n = len(rows)
    if not n:
        print("no games")
        return
    wins = sum(d["ismcts"] for d in rows)
    lo, hi = wilson(wins, n)
    pts = [ahead(d) for d in rows]
    mean = sum(pts) / n
    sd = statistics.stdev(pts) if n > 1 else math.inf
    half = 1.96 * sd / math.sqrt(n)
    fair = 100 / args.players
    print(f"{n} games ({args.players} players, {options or 'Standard'}, seeds {args.seed}.., seat-rotated), "
          f"ismcts {settings or '(defaults)'} against {args.against} (fair share {fair:.1f} %)")
    print(f"  ismcts wins {100 * wins / n:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]; "
          f"points a round ahead {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]")
    searched = sum(1 for d in rows for x in d.get("cpu", ()) if x < 0)
    if all("not_planners" in d for d in rows) and searched:
        moved = sum(d["not_planners"] for d in rows)
        print(f"  searched decisions where ismcts left the planner's move: {moved} of {searched} "
              f"({100 * moved / searched:.1f} %)")
    for label, key in (("ismcts", "cpu"), (args.against, "cpu_against")):
        cpu = [x for d in rows for x in d.get(key, ())]
        for which, ts in (("every decision", [abs(x) for x in cpu]), ("searched", [-x for x in cpu if x < 0])):
            if ts:
                print(f"  {label} CPU s a decision, {which} ({len(ts)}): median {statistics.median(ts):.3f}, "
                      f"p95 {_pct(ts, 0.95):.3f}, worst {max(ts):.3f}")


def diagnose(args: argparse.Namespace) -> None:
    """At the searched decisions of seat 0 in one-round games of planners (``--games``
    deals from ``--seed``): the spread of the round's value to the seat over ismcts's deals
    (the standard deviation of its rewards), the depth of its walks, its root visits, and how
    often ismcts and today's expert each leave the planner's move."""
    from mexitrain.players import PlannerPlayer
    from mexitrain.players.expert import FullExpertPlayer
    from mexitrain.players.ismcts import IsmctsPlayer
    from mexitrain.players.knowledge import lacking_values
    from mexitrain.players.planner import planner_decide
    from mexitrain.rules import core, make_rules, view, view_legal_actions

    options = dict(o.split("=", 1) for o in args.option)
    rules = make_rules("standard", options)
    settings = {k: v for k, v in (("iterations", args.iterations), ("width", args.width),
                                  ("exploration", args.exploration), ("opponents", args.opponents),
                                  ("confidence", args.confidence)) if v is not None}
    sds, depths, tops, moved, expert_moved, k = [], [], [], 0, 0, 0
    for g in range(args.games):
        c = core.new_game(rules, players=args.players, seed=args.seed + g)
        planner = PlannerPlayer()
        while not c.over:
            v = view(core.to_state(c), c.turn)
            action = planner.choose(v)
            if c.turn == 0:
                p = IsmctsPlayer(g, **settings)
                a = p.choose(v)
                st = p.last_stats
                if st.get("iterations"):
                    k += 1
                    base = planner_decide(v, v.seat, view_legal_actions(v), lacking_values(v))[0]
                    sds.append(st["sd"])
                    depths.append(st["depth"])
                    tops.append(max(st["visits"].values()) / st["iterations"])
                    moved += a != base
                    expert_moved += FullExpertPlayer(g).choose(v) != base
            core.step(c, core.check(c, action))
    print(f"{k} searched decisions of seat 0 in {args.games} one-round games of planners "
          f"({args.players} players, seeds {args.seed}..), ismcts {settings or '(defaults)'}")
    print(f"  sd of the round's value to the seat over its deals: median {statistics.median(sds):.1f}, "
          f"quartiles {_pct(sds, 0.25):.1f} and {_pct(sds, 0.75):.1f} points")
    print(f"  mean depth of a walk (choices below the root): median {statistics.median(depths):.2f}, "
          f"worst {max(depths):.2f}; the most visited root child's share of visits: median "
          f"{100 * statistics.median(tops):.0f} %")
    print(f"  left the planner's move: ismcts {moved} ({100 * moved / k:.1f} %), today's expert "
          f"{expert_moved} ({100 * expert_moved / k:.1f} %)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=20, help="deals, each under every rotation of the seats")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--against", default="expert-full",
                   help="the level of the other seats (expert-full: the expert its rows were measured against)")
    p.add_argument("--option", action="append", default=[], help="KEY=VALUE over the Standard preset")
    p.add_argument("--results", default=None, help="JSON lines: every game kept; a run goes on where it was")
    p.add_argument("--iterations", type=int, default=None)
    p.add_argument("--width", type=int, default=None)
    p.add_argument("--exploration", type=float, default=None)
    p.add_argument("--opponents", choices=("search", "policy"), default=None)
    p.add_argument("--confidence", type=float, default=None)
    p.add_argument("--diagnose", action="store_true",
                   help="no match: the spread, depth and changes of the search in planner games")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    if args.diagnose:
        diagnose(args)
    else:
        run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
