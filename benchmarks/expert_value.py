"""The expert whose rollouts stop early on a learned value of the position (issue #36):
:mod:`mexitrain.players.value`, the research level ``expert-v``.

    python benchmarks/expert_value.py fit --players 2 --games 400 --seed 100000
    python benchmarks/expert_value.py regret --players 2 --positions 120 --deals 500 \\
        --cache benchmarks/results/value/regret-2p.pickle --horizons 0,8,12,20
    python benchmarks/expert_value.py tournament --players 2 --games 100 --seed 1 \\
        --ai expert-v,planner --preset standard --option rounds=1 --results FILE
    python benchmarks/expert_value.py paired benchmarks/results/value/v-planner-2p.jsonl \\
        benchmarks/results/expert-planner-2p.jsonl

``fit`` plays ``--games`` Standard games of planners on the rules core (seeds S, S+1...),
stops every few actions (at random, 1 to ``--stride``), keeps each seat's
:func:`~mexitrain.players.value.features` there and its score at the round's end, fits
:class:`~mexitrain.players.value.ScoreModel` by least squares on three quarters of the
games and prints its weights (the line to put in ``value.MODELS``) and, on the last quarter,
how much of the spread of the round scores, and of a seat's score difference, it explains.

``regret`` takes the positions and candidate values of ``benchmarks/expert_regret.py`` (its
``--cache`` file is shared: the same arguments give the same positions) and prints, for the
expert and for ``expert-v`` at each ``--horizons`` (0 is the expert, full rollouts), the mean
regret of its choice (the best candidate's value less its choice's; lower is better) with
its standard error, and the CPU seconds a decision, at each ``--budgets``.

``tournament`` is ``mexitrain tournament`` with ``expert-v`` registered in this process (and
its workers); the default ``expert`` is unchanged, so its kept games replay.

``paired`` is ``benchmarks/expert_equity.py paired`` for ``expert-v``: both levels' win shares
on the games of the two files played on the same deals and seats, and their paired difference
with its 95 % interval.

A plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "benchmarks") not in sys.path:  # the other scripts it uses
    sys.path.insert(0, str(ROOT / "benchmarks"))

NEW = "expert-v"


def register() -> None:
    from mexitrain import players
    from mexitrain.players.expert import ValueExpertPlayer

    players.LEVELS[NEW] = ValueExpertPlayer


def samples(players: int, games: int, seed: int, stride: int):
    """Per game, a list of (features of each seat, the round's scores) at its cuts."""
    from mexitrain.players import playout as fast
    from mexitrain.players.expert import ROLLOUT_PLAN_BUDGET
    from mexitrain.players.value import features
    from mexitrain.rules import make_rules
    from mexitrain.rules.core import new_game

    rules = make_rules("standard")
    rng = random.Random(f"value-fit:{seed}")
    out = []
    for g in range(games):
        c = new_game(rules, players, seed + g)
        kept = []
        while not c.over:
            number = c.round
            here = []
            while not c.over and c.round == number:
                here.append(features(c))
                fast.run(c, None, ROLLOUT_PLAN_BUDGET, max_steps=rng.randint(1, stride))
            scores = c.round_scores[-1]
            kept.extend((rows, scores) for rows in here)
        out.append(kept)
    return out


def explained(pairs, predict) -> tuple[float, float]:
    """(share of the round scores' variance explained, share of seat 0's score difference's)."""
    ys, es, ds, des = [], [], [], []
    for rows, scores in pairs:
        guess = [predict(r) for r in rows]
        for g, y in zip(guess, scores, strict=True):
            ys.append(y)
            es.append(y - g)
        others = (sum(scores) - scores[0]) / (len(scores) - 1)
        guessed = (sum(guess) - guess[0]) / (len(guess) - 1)
        ds.append(others - scores[0])
        des.append(others - scores[0] - (guessed - guess[0]))

    def share(total, error) -> float:
        mean = sum(total) / len(total)
        var = sum((t - mean) ** 2 for t in total)
        m = sum(error) / len(error)
        return 1 - sum((e - m) ** 2 for e in error) / var

    return share(ys, es), share(ds, des)


def fit_command(args) -> int:
    from mexitrain.players.value import MODELS, ScoreModel, fit

    start = time.process_time()
    games = samples(args.players, args.games, args.seed, args.stride)
    cut = len(games) * 3 // 4
    train = [p for g in games[:cut] for p in g]
    test = [p for g in games[cut:] for p in g]
    rows = [r for rs, _ in train for r in rs]
    ys = [y for _, scores in train for y in scores]
    weights = fit(rows, ys)
    scores, diffs = explained(test, ScoreModel(weights).predict)
    naive_scores, naive_diffs = explained(test, lambda r: r[1])  # the pips in hand now
    print(
        f"{args.players} players, {args.games} games (seeds {args.seed}...), {len(rows)} seat positions "
        f"to fit, {sum(len(rs) for rs, _ in test)} to test, {time.process_time() - start:.0f} s of CPU"
    )
    print(f"explained on the test games: round scores {100 * scores:.1f} %, seat 0's score difference {100 * diffs:.1f} %")
    print(f"the pips in hand alone: round scores {100 * naive_scores:.1f} %, difference {100 * naive_diffs:.1f} %")
    for size, kept in sorted(MODELS.items()):
        s, d = explained(test, ScoreModel(kept).predict)
        print(f"the kept model of {size} players: round scores {100 * s:.1f} %, difference {100 * d:.1f} %")
    print(f"    {args.players}: ({', '.join(f'{w:.6g}' for w in weights)}),")
    return 0


def regret_command(args) -> int:
    import expert_regret as er

    from mexitrain.players.expert import FullExpertPlayer, ValueExpertPlayer

    found, table = er.positions_and_values(
        args.players, args.positions, args.candidates, args.seed, args.deals, args.cache, rounds=2,
        preset=args.preset,
    )
    n = len(found)
    print(f"{n} positions, {args.players} players, candidates valued on {args.deals} deals each")
    for budget in [int(b) for b in args.budgets.split(",")]:
        for h in [int(x) for x in args.horizons.split(",")]:
            regrets = []
            cpu = 0.0
            for s in range(args.seeds):
                for (v, cands, _), (vals, _) in zip(found, table, strict=True):
                    if h == 0:
                        player = FullExpertPlayer(100 + s, rollouts=budget, confidence=args.confidence)
                    else:
                        player = ValueExpertPlayer(100 + s, horizon=h, rollouts=budget, confidence=args.confidence)
                    t = time.process_time()
                    chosen = player.choose(v)
                    cpu += time.process_time() - t
                    regrets.append(max(vals) - vals[cands.index(chosen)] if chosen in cands else math.nan)
            kept = [r for r in regrets if r == r]
            mean = sum(kept) / len(kept)
            se = math.sqrt(sum((r - mean) ** 2 for r in kept) / (len(kept) - 1) / len(kept))
            name = "expert" if h == 0 else f"expert-v, horizon {h}"
            print(
                f"{name} at {budget}: regret {mean:.2f} ± {se:.2f} points a decision, "
                f"{cpu / len(regrets):.3f} s of CPU a decision"
                + (f" ({len(regrets) - len(kept)} choices outside the valued candidates)" if len(kept) < len(regrets) else "")
            )
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["tournament"]:
        register()
        from mexitrain.cli import build_parser
        from mexitrain.cli import main as cli

        build_parser().parse_args(["tournament", *argv[1:]])  # its arguments, checked first
        return cli(["tournament", *argv[1:]])
    parser = argparse.ArgumentParser(description="The expert with a learned value of positions.")
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fit", help="fit the score model on planner games")
    f.add_argument("--players", type=int, default=2)
    f.add_argument("--games", type=int, default=400)
    f.add_argument("--seed", type=int, default=100000)
    f.add_argument("--stride", type=int, default=8, help="the most actions between two cuts")
    r = sub.add_parser("regret", help="the regret of expert-v's choices against the expert's")
    r.add_argument("--players", type=int, default=2)
    r.add_argument("--positions", type=int, default=120)
    r.add_argument("--deals", type=int, default=500)
    r.add_argument("--candidates", type=int, default=10)
    r.add_argument("--seed", type=int, default=5000)
    r.add_argument("--cache", default="")
    r.add_argument("--budgets", default="330")
    r.add_argument("--horizons", default="0,12")
    r.add_argument("--seeds", type=int, default=1)
    r.add_argument("--preset", default="standard", help="the rules of the games the positions come from")
    r.add_argument("--confidence", type=float, default=None,
                   help="standard errors another move must win by (default: the expert's, by the table)")
    sub.add_parser("tournament", help="mexitrain tournament with expert-v registered")
    q = sub.add_parser("paired", help="expert-v against the expert on the same deals and seats, from kept games")
    q.add_argument("new", help=f"kept games with {NEW}")
    q.add_argument("old", help="kept games with expert")
    args = parser.parse_args(argv)
    if args.command == "fit":
        return fit_command(args)
    if args.command == "paired":
        import expert_equity

        expert_equity.paired(args.new, args.old, (NEW, "expert"), expert_equity.OLD)
        return 0
    return regret_command(args)


if __name__ == "__main__":
    raise SystemExit(main())
