"""The expert's exact endgames (mexitrain/players/endgame.py): how often they apply, what they
change, what they cost, and tournaments of the level that uses them.

    python benchmarks/expert_endgame.py reach --players 2 --games 40 --seed 1
    python benchmarks/expert_endgame.py reach --players 2 --games 40 --seed 1 --option set=6
    python benchmarks/expert_endgame.py paired --players 2 --games 1000 --seed 1 --option rounds=1 \\
        --results benchmarks/results/expert2-paired-2p-r1.jsonl
    python benchmarks/expert_endgame.py nodes --positions 30
    python benchmarks/expert_endgame.py tournament --players 2 --games 1000 --seed 1 \\
        --ai expert-2,planner --preset standard --results benchmarks/results/expert2-planner-2p.jsonl

``reach`` plays one-round games (``--option`` over the Standard preset), the expert with the
endgame search (``expert-2``) in seat 0 against planners, and prints: its decisions, those
where the endgame search applied (exact: one deal left by the view; sampled: a few tiles
left to draw), those it finished within its node budget, those where it chose another move
than the planner's and than today's expert (the default level, asked at the same position),
its nodes, and the CPU time per decision (median, 95th percentile, worst) over all decisions
and over the endgame ones.

``paired`` plays expert-2 against planners on seat-rotated deals and, on the same deal and
seats, today's expert wherever one of expert-2's endgame decisions differed from today's
expert's at the same view (elsewhere the two games are the same game: every player is
deterministic); it prints both win shares and their paired difference with 95 % intervals,
every game kept in ``--results`` (a stopped run goes on where it was). ``nodes`` gives the
solver's speed in nodes a CPU second.

``tournament`` is ``mexitrain tournament`` with the level ``expert-2``
(:class:`mexitrain.players.expert.EndgameExpertPlayer`) registered in this process (and its
workers): the default ``expert`` is unchanged, so its kept games replay.

A plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
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


def register() -> None:
    from mexitrain import players
    from mexitrain.players.expert import EndgameExpertPlayer

    players.LEVELS["expert-2"] = EndgameExpertPlayer


def reach(args: argparse.Namespace) -> None:
    from mexitrain.game_setup import TOURNAMENT_STRIDE, seat_seed
    from mexitrain.players import PlannerPlayer, endgame
    from mexitrain.players.expert import EndgameExpertPlayer, FullExpertPlayer
    from mexitrain.rules import core, make_rules, view

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
        today = FullExpertPlayer(seat_seed(seed, 0, TOURNAMENT_STRIDE))  # as measured: full rollouts
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


def _game(rules, levels: tuple[str, ...], seed: int, watch: bool):
    """One game as ``mexitrain tournament`` plays it (seat seeds, the compact view for levels
    that have a fast path): (win credit per seat, round scores, whether a decision of the
    expert-2 seat differed from today's expert's at the same view)."""
    from mexitrain.game_setup import TOURNAMENT_STRIDE, seat_seed
    from mexitrain.players import make_player
    from mexitrain.players.expert import EndgameExpertPlayer, FullExpertPlayer
    from mexitrain.rules import core, view
    from mexitrain.rules.core.seat import seat_view

    n = len(levels)
    seeds = [seat_seed(seed, i, TOURNAMENT_STRIDE) for i in range(n)]
    players = [
        EndgameExpertPlayer(s) if lv == "expert-2" else make_player(lv, s) for lv, s in zip(levels, seeds, strict=True)
    ]
    c = core.new_game(rules, players=n, seed=seed)
    changed = False
    times: list[float] = []  # CPU s of each expert-2 decision (negative: an endgame one)
    while not c.over:
        seat = c.turn
        player = players[seat]
        fast = getattr(player, "choose_move", None)
        if fast is not None:
            m = fast(seat_view(c, seat))
        else:
            v = view(core.to_state(c), seat)
            t = time.process_time()
            action = player.choose(v)
            dt = time.process_time() - t
            if watch and levels[seat] == "expert-2":
                if player.last_stats.get("endgame") in ("exact", "sampled"):
                    times.append(-dt)
                    if action != FullExpertPlayer(seeds[seat]).choose(v):
                        changed = True
                else:
                    times.append(dt)
            m = core.check(c, action)
        core.step(c, m)
    winners = core.game_winners(c)
    credit = tuple((1 / len(winners) if i in winners else 0.0) for i in range(n))
    return credit, tuple(c.round_scores), changed, times


def paired(args: argparse.Namespace) -> None:
    """expert-2 against planners, and today's expert on the same deals and seats: a game
    where no endgame decision of expert-2 differed from today's expert's is the same game
    (every player is deterministic), so today's expert is played again only on the others."""
    import json
    import math

    from mexitrain.players.tournament import jobs, wilson
    from mexitrain.rules import RuleSet, make_rules

    options = dict(o.split("=", 1) for o in args.option)
    rules = make_rules("standard", options)
    levels = ("expert-2",) + ("planner",) * (args.players - 1)
    work = jobs(rules, levels, args.games, args.seed, None)
    done: dict[tuple, dict] = {}
    out = Path(args.results) if args.results else None
    if out is not None and out.exists():
        for line in out.read_text().splitlines():
            if line.endswith("}"):
                d = json.loads(line)
                done[(tuple(d["levels"]), d["seed"])] = d
    with (out.open("a") if out is not None else open(os.devnull, "w")) as f:
        for rules_json, lv, seed, _ in work:
            if (tuple(lv), seed) in done:
                continue
            r = RuleSet.model_validate_json(rules_json)
            credit, scores, changed, times = _game(r, lv, seed, watch=True)
            seat = lv.index("expert-2")
            d = {"levels": list(lv), "seed": seed, "rules": options, "changed": changed,
                 "expert2": credit[seat], "round_scores": scores, "cpu": [round(x, 4) for x in times]}
            if changed:
                # today's expert as this row measured it: full rollouts (expert-full)
                today = tuple("expert-full" if x == "expert-2" else x for x in lv)
                credit1, scores1, _, _ = _game(r, today, seed, watch=False)
                d["expert"] = credit1[seat]
                d["round_scores_expert"] = scores1
            else:
                d["expert"] = credit[seat]
            f.write(json.dumps(d) + "\n")
            f.flush()
            done[(tuple(lv), seed)] = d
    rows = [done[(tuple(lv), seed)] for _, lv, seed, _ in work if (tuple(lv), seed) in done]
    n = len(rows)
    w2 = sum(d["expert2"] for d in rows)
    w1 = sum(d["expert"] for d in rows)
    lo, hi = wilson(w2, n)
    lo1, hi1 = wilson(w1, n)
    diffs = [d["expert2"] - d["expert"] for d in rows]
    mean = sum(diffs) / n
    var = sum((x - mean) ** 2 for x in diffs) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    print(f"{n} games ({args.players} players, {options or 'Standard'}, seeds {args.seed}.., seat-rotated), "
          f"expert-2 against planners; {sum(d['changed'] for d in rows)} where an endgame decision differed")
    print(f"  expert-2: {100 * w2 / n:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]")
    print(f"  today's expert, same deals: {100 * w1 / n:.1f} % [{100 * lo1:.1f}, {100 * hi1:.1f}]")
    print(f"  paired difference: {100 * mean:+.2f} % a game [{100 * (mean - half):+.2f}, {100 * (mean + half):+.2f}]")

    def ahead(d: dict, key: str) -> float:
        """The seat's points a round fewer than the others' mean (above zero: ahead)."""
        seat = d["levels"].index("expert-2")
        rounds = d[key]
        return sum(sum(r) / (len(r) - 1) - r[seat] * len(r) / (len(r) - 1) for r in rounds) / len(rounds)

    cpu = [x for d in rows for x in d.get("cpu", ())]
    for label, ts in (("every decision", [abs(x) for x in cpu]), ("endgame decisions", [-x for x in cpu if x < 0])):
        if ts:
            print(f"  expert-2's CPU s a decision, {label} ({len(ts)}): median {statistics.median(ts):.3f}, "
                  f"p95 {_pct(ts, 0.95):.3f}, worst {max(ts):.3f}")
    pts = [ahead(d, "round_scores") - ahead(d, "round_scores_expert") for d in rows if d["changed"]]
    if pts:
        print(f"  points a round ahead, expert-2 less today's expert, over the {len(pts)} games that differ: "
              f"{sum(pts) / len(pts):+.2f} (over all games: {sum(pts) / n:+.3f})")


def nodes(args: argparse.Namespace) -> None:
    """The solver's speed: positions of random-play one-round Standard games, two players,
    at a turn with a choice and at most ``--left`` tiles to draw, each solved within the node
    budget; nodes per CPU second, and how many went over the budget."""
    import random

    from mexitrain.players import endgame
    from mexitrain.rules import RuleSet
    from mexitrain.rules.core import COMPILED, legal, new_game, step

    rules = RuleSet(rounds=1)
    total = spent = 0.0
    over = k = 0
    seed = args.seed
    while k < args.positions:
        rng = random.Random(seed)
        c = new_game(rules, 2, seed)
        seed += 1
        while not c.over and (len(c.bone) - c.bpos > args.left or c.phase != 0 or len(legal(c)) < 2):
            step(c, rng.choice(legal(c)))
        if c.over:
            continue
        me = c.turn
        solver = endgame.Solver([me], lambda sc, me=me: sc[1 - me] - sc[me], endgame.NODE_BUDGET)
        t = time.process_time()
        try:
            solver.solve(c)
        except endgame.OutOfBudget:
            over += 1
        spent += time.process_time() - t
        total += solver.nodes
        k += 1
    print(f"{k} positions (<= {args.left} tiles to draw; rules core compiled: {COMPILED}), {over} over "
          f"{endgame.NODE_BUDGET} nodes; {total / spent:.0f} nodes a CPU second")


def main(argv: list[str] | None = None) -> int | None:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "tournament":
        register()
        from mexitrain.cli import main as cli_main

        return cli_main(["tournament", *argv[1:]])
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
    q = sub.add_parser("paired", help="expert-2 and today's expert against planners on the same deals")
    q.add_argument("--players", type=int, default=2)
    q.add_argument("--games", type=int, default=20, help="deals, each under every rotation of the seats")
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--option", action="append", default=[], help="KEY=VALUE over the Standard preset")
    q.add_argument("--results", default=None, help="JSON lines: every game kept; a run goes on where it was")
    o = sub.add_parser("nodes", help="the solver's nodes a second")
    o.add_argument("--positions", type=int, default=30)
    o.add_argument("--left", type=int, default=2, help="tiles left to draw, at most")
    o.add_argument("--seed", type=int, default=1)
    for sp in (q, o):
        sp.add_argument("--max-boneyard", type=int, default=None)
        sp.add_argument("--deals", type=int, default=None)
        sp.add_argument("--nodes", type=int, default=None)
    args = p.parse_args(argv)
    from mexitrain.players import endgame

    for name, value in (("MAX_BONEYARD", args.max_boneyard), ("DEALS", args.deals), ("NODE_BUDGET", args.nodes)):
        if value is not None:
            setattr(endgame, name, value)
    print(f"endgame: MAX_BONEYARD {endgame.MAX_BONEYARD}, DEALS {endgame.DEALS}, NODE_BUDGET {endgame.NODE_BUDGET}")
    saved = (endgame.MAX_BONEYARD, endgame.DEALS, endgame.NODE_BUDGET)
    try:
        if args.command == "paired":
            paired(args)
        elif args.command == "nodes":
            nodes(args)
        else:
            reach(args)
    finally:  # when called in a test's process
        endgame.MAX_BONEYARD, endgame.DEALS, endgame.NODE_BUDGET = saved
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
