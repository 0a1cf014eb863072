"""Tune the planner's weights by self-play, and check what tuned weights win.

The planner scores its plays with a few weights (``mexitrain.players.planner.Weights``). This
script plays one-round double-12 games (Standard preset) in which one seat plays with the
weights under test and every other seat with the planner level's, each deal under every
rotation of the seats, and prints that seat's win share and its mean difference in points
a round (the others' mean less its own; positive is better).

- ``search``: a coordinate search from ``--start``: each sweep tries every weight one step
  up and down and keeps the first change that wins ``--margin`` more on the same deals. The
  games are the expert's fast playouts (the planner's rollout policy, thousands a second);
  the same deals serve every trial, so that what they find must then be checked on others.
- ``check``: the weights on deals the search never saw (``--first`` far from the search's),
  in fast playouts and, with ``--engine N``, in N deals played through the reducer by the
  planner level itself (its full policy) against planners.

    .venv/bin/python benchmarks/tune_weights.py search --players 4 --deals 1500 --sweeps 1
    .venv/bin/python benchmarks/tune_weights.py check --players 4 --deals 2000 --engine 200 \\
        --weights 0.3,1.0,32,22

CPU time on ``--processes`` worker processes; a plain script: it prints figures and asserts
nothing.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mexitrain.players.planner import DEFAULT_WEIGHTS, TUNED_WEIGHTS, Weights  # noqa: E402

#: One step of the search for each weight.
STEPS = Weights(pips=0.3, pips_danger=1.0, shed=4, shed_last=4)


def _rules():
    from mexitrain.rules import make_rules

    return make_rules("standard", {"rounds": "1"})


def _outcome(scores, seat: int) -> tuple[float, float]:
    """(the seat's share of the win, its difference in points: the others' mean less its own)."""
    low = min(scores)
    win = 1 / scores.count(low) if scores[seat] == low else 0.0
    others = [x for i, x in enumerate(scores) if i != seat]
    return win, sum(others) / len(others) - scores[seat]


def _playout_scores(deal: int, seat: int, weights: Weights, players: int):
    """A fast playout of the deal, ``seat`` with ``weights``: the round's scores."""
    from mexitrain.players.playout import playout
    from mexitrain.rules import new_game

    state = new_game(_rules(), players, deal)
    rng = random.Random(f"tune {deal}")
    queues = [rng.sample(state.boneyard, len(state.boneyard)) for _ in range(players)]
    seats = [weights if i == seat else DEFAULT_WEIGHTS for i in range(players)]
    return playout(state, queues, 30, weights=seats)[0]


def _engine_scores(deal: int, seat: int, weights: Weights, players: int):
    """The deal through the reducer, the planner level's full policy in every seat."""
    from mexitrain.players.knowledge import lacking_values
    from mexitrain.players.planner import planner_decide
    from mexitrain.rules import apply, new_game, view, view_legal_actions

    state = new_game(_rules(), players, deal)
    while not state.results:
        v = view(state, state.turn)
        w = weights if state.turn == seat else DEFAULT_WEIGHTS
        action = planner_decide(v, v.seat, view_legal_actions(v), lacking_values(v), weights=w)[0]
        state = apply(state, action)
    return state.results[0].scores


def _tally(job) -> tuple[float, float, int]:
    """Deals ``lo..hi``, each under every rotation: (wins, points, games) of the seat under test."""
    play, weights, players, lo, hi = job
    wins = points = 0.0
    games = 0
    for deal in range(lo, hi):
        for seat in range(players):
            win, diff = _outcome(play(deal, seat, weights, players), seat)
            wins, points, games = wins + win, points + diff, games + 1
    return wins, points, games


def measure(pool, fn, weights: Weights, players: int, first: int, deals: int, parts: int) -> tuple[float, float]:
    """(win share, mean points a round) of ``weights`` in ``deals`` deals from ``first``."""
    bounds = [first + deals * k // parts for k in range(parts + 1)]
    jobs = [(fn, weights, players, bounds[k], bounds[k + 1]) for k in range(parts) if bounds[k] < bounds[k + 1]]
    results = list(pool.map(_tally, jobs) if pool is not None else map(_tally, jobs))
    games = sum(r[2] for r in results)
    return sum(r[0] for r in results) / games, sum(r[1] for r in results) / games


def _parse(text: str) -> Weights:
    values = [float(x) for x in text.split(",")]
    if len(values) != len(Weights._fields):
        raise argparse.ArgumentTypeError(f"give {len(Weights._fields)} numbers: {', '.join(Weights._fields)}")
    return Weights(*values)


def _show(w: Weights) -> str:
    return ", ".join(f"{k}={v:g}" for k, v in w._asdict().items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Tune the planner's weights by self-play.")
    parser.add_argument("mode", choices=["search", "check"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=1500, help="deals per trial (default 1500)")
    parser.add_argument("--first", type=int, default=None, help="first deal (search 0, check 50000)")
    parser.add_argument("--sweeps", type=int, default=1, help="search: sweeps over the weights (default 1)")
    parser.add_argument("--margin", type=float, default=0.004, help="search: win share a change must add")
    parser.add_argument("--start", type=_parse, default=DEFAULT_WEIGHTS, help="search: the weights to start from")
    parser.add_argument("--weights", type=_parse, default=TUNED_WEIGHTS, help="check: the weights (default: the tuned)")
    parser.add_argument("--engine", type=int, default=0, help="check: deals through the reducer too")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    pool = mp.Pool(args.processes) if args.processes > 1 else None  # 1: in this process
    try:
        return _run(args, pool)
    finally:
        if pool is not None:
            pool.terminate()


def _run(args, pool) -> int:
    players = args.players
    fair = 1 / players
    parts = 4 * args.processes
    if args.mode == "check":
        first = 50_000 if args.first is None else args.first
        start = time.perf_counter()
        win, diff = measure(pool, _playout_scores, args.weights, players, first, args.deals, parts)
        games = args.deals * players
        print(f"{_show(args.weights)}, {players} players, fair share {fair:.1%}")
        print(f"  fast playouts, {games} games: wins {win:.1%}, {diff:+.2f} points a round ({time.perf_counter() - start:.0f} s)")
        if args.engine:
            start = time.perf_counter()
            win, diff = measure(pool, _engine_scores, args.weights, players, first, args.engine, parts)
            games = args.engine * players
            print(f"  the planner level through the reducer, {games} games: wins {win:.1%}, {diff:+.2f} points a round ({time.perf_counter() - start:.0f} s)")
        return 0
    first = 0 if args.first is None else args.first
    best = args.start
    score = measure(pool, _playout_scores, best, players, first, args.deals, parts)
    print(f"start {_show(best)}: wins {score[0]:.1%}, {score[1]:+.2f} points", flush=True)
    for sweep in range(args.sweeps):
        for k, name in enumerate(Weights._fields):
            for sign in (1, -1):
                trial = best._replace(**{name: round(best[k] + sign * STEPS[k], 3)})
                got = measure(pool, _playout_scores, trial, players, first, args.deals, parts)
                if got[0] > score[0] + args.margin:
                    best, score = trial, got
                    print(f"  {name} -> {trial[k]:g}: wins {got[0]:.1%}, {got[1]:+.2f} points", flush=True)
                    break
        print(f"after sweep {sweep + 1}: {_show(best)}: wins {score[0]:.1%}, {score[1]:+.2f} points", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
