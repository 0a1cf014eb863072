"""How far a game review's costs are from the costs more deals give (docs/review.md, Precision).

Plays one-round 2-player Standard games of ``--level`` (seat 0) against the planner (seeds 1,
2, ...), takes seat 0's decisions until ``--decisions`` are collected, and reviews each one as
the review does (:func:`mexitrain.players.review.value_decision`, ``--budget`` deals a
stage). Prints, as means a decision with their standard errors: the cost in one stage (the
best move's value less the chosen move's on the deals the best was picked on: the review
before 2026-12-07), the review's cost (its second stage's gap, clipped at 0) and its gap (not
clipped), the share of decisions it calls costly, the cost counted only where it is costly
(what a round's points lost add up), and the gap, on ``--truth`` other deals, between the move
the review named best and the move chosen (0 where they are the same).

The best of several noisy means, measured on the deals it was picked on, is too high on
average; this shows by how much, for a player that chooses well (the expert) and one that
does not (greedy).

    python benchmarks/review_bias.py --level expert --decisions 100
    python benchmarks/review_bias.py --level greedy --decisions 100 --truth 400

A plain script that prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):  # the game, and review_speed's games
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from review_speed import play_game  # noqa: E402

from mexitrain.players.review import DEFAULT_BUDGET, decision_points, value_decision, value_moves  # noqa: E402
from mexitrain.rules import view  # noqa: E402


def means(values: list[list[float]]) -> list[float]:
    return [sum(v) / len(v) for v in values]


def line(name: str, xs: list[float]) -> str:
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    return f"{name:<44} {statistics.mean(xs):6.2f} ± {sd / math.sqrt(len(xs)):.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert", help="the reviewed seat's computer level")
    parser.add_argument("--decisions", type=int, default=50)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="deals a decision, as a review")
    parser.add_argument("--truth", type=int, default=400, help="deals a decision, to compare with")
    args = parser.parse_args(argv)

    one, cost, gap, costly, counted, truth = [], [], [], [], [], []
    seed = 0
    while len(cost) < args.decisions:
        seed += 1
        final = play_game(2, 1, seed, (args.level, "planner"))
        for point in decision_points(final, [0]):
            if len(cost) == args.decisions:
                break
            d = value_decision(point, len(cost) + 1, args.budget, final.seed)
            values = {m.action: m.value for m in d.moves}
            one.append(values[d.best] - values[d.chosen])
            cost.append(d.cost)
            gap.append(d.gap)
            costly.append(100.0 if d.costly else 0.0)
            counted.append(d.cost if d.costly else 0.0)
            if d.best == d.chosen:
                truth.append(0.0)
                continue
            rng = random.Random(f"truth:{seed}:{point.step}")
            moves, values = value_moves(view(point.state, 0), d.chosen, args.truth, rng, only=(d.best,))
            m = means(values)
            truth.append(m[moves.index(d.best)] - m[moves.index(d.chosen)])
    print(f"{args.level} (seat 0) against the planner, 2 players, one round: {len(cost)} decisions of {seed} games")
    print(line(f"cost in one stage, {args.budget} deals (before)", one))
    print(line(f"the review's cost ({args.budget} deals a stage)", cost))
    print(line("the review's gap (not clipped at 0)", gap))
    print(line("decisions called costly, %", costly))
    print(line("the cost of the costly ones (0 elsewhere)", counted))
    print(line(f"the gap to the same best move at {args.truth} other deals", truth))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
