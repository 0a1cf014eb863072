"""Where the expert's gains lie: its candidates valued over many deals, position by position.

Plays one-round Standard games with the planner in every seat and keeps every third decision
of seat 0 that the expert would search. For each, every candidate the expert could search
(the planner's best ``--candidates`` plays and the turn-ending choices) is played out on the
same ``--deals`` sampled deals, as the expert's rollouts do; the mean is the candidate's value
(the seat's score difference, higher is better). It prints:

- how often the planner's own move is the best of them, and how often the best is its 2nd,
  3rd... choice: what a perfect search of the candidates could gain;
- with ``--budgets``, the expert's regret at each budget (the value of the best candidate less
  the value of the one it chose, over ``--seeds`` seeds), lower is better, in points and in
  share of a win; with ``--win-points``, ``--confidence`` and ``--extra``, for every
  combination of those settings. The candidates' values are estimates too: the regrets are
  only compared with each other. ``--cache FILE`` keeps the positions and their values for
  the next run with the same arguments.

    .venv/bin/python benchmarks/expert_regret.py --players 2 --positions 120 --deals 500
    .venv/bin/python benchmarks/expert_regret.py --positions 40 --budgets 64,160

CPU-heavy (the first command takes some 4 minutes here); a plain script that prints figures.
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def positions(
    players: int, count: int, candidates: int, seed: int, states: bool = False, rounds: int = 1,
    preset: str = "standard",
):
    """(view, candidate actions, the planner's action) at searched decisions of seat 0 in games
    of the rule ``preset``; with
    ``states``, also the real snapshot and the round's snapshots before it, one per event.
    With ``rounds`` above 1, games of that many rounds, and decisions of its rounds before
    the last one only (where the expert plays for points, not the game's win)."""
    from mexitrain.players import PlannerPlayer
    from mexitrain.players.expert import ExpertPlayer
    from mexitrain.players.knowledge import lacking_values
    from mexitrain.players.planner import planner_decide
    from mexitrain.rules import apply, make_rules, new_game, view, view_legal_actions

    rules = make_rules(preset, {"rounds": str(rounds)})
    planner = PlannerPlayer()
    expert = ExpertPlayer(0, max_candidates=candidates)
    found: list = []
    game = seed
    k = 0
    while len(found) < count:
        game += 1
        state = new_game(rules, players, game)
        history = []
        while not state.over and len(found) < count:
            history.append(state)
            v = view(state, state.turn)
            legal = view_legal_actions(v)
            if state.turn == 0 and len(legal) > 1 and v.phase != "chain" and (rounds == 1 or state.round < rounds):
                k += 1
                if k % 3 == 0:
                    lacking = lacking_values(v)
                    base, reason, _ = planner_decide(v, v.seat, legal, lacking)
                    w = expert.weights
                    cands = [a for a, _ in expert.candidates(v, legal, lacking, base, reason, w)]
                    if len(cands) > 1:
                        found.append((v, cands, base, state, tuple(history[:-1])) if states else (v, cands, base))
            state = apply(state, planner.choose(v))
    return found


def win_keeping_goal(v):
    """The :class:`~mexitrain.players.expert.Goal` of the seat of ``v`` that values a rollout
    by its points and keeps its share of the game's win aside, in ``.win``."""
    from mexitrain.players.expert import Goal

    class Both(Goal):
        win = 0.0

        def value(self, scores) -> float:
            diff, self.win = self.parts(scores)
            return diff

    return Both(v, v.seat, 1)


def values(v, cands, deals: int, key: int) -> tuple[list[float], list[float]]:
    """Each candidate's mean rollout value over the same ``deals`` sampled deals: its score
    difference and its share of the game's win (which in a one-round game is the round's)."""
    from mexitrain.players.expert import ExpertPlayer, one_round, rollout
    from mexitrain.players.knowledge import Sampler
    from mexitrain.players.planner import DEFAULT_WEIGHTS
    from mexitrain.rules import apply

    goal = win_keeping_goal(v)
    own = ExpertPlayer().weights  # the seat's later moves as the expert's rollouts play them
    weights = [own if i in goal.mine else DEFAULT_WEIGHTS for i in range(v.players)]
    rng = random.Random(f"true:{key}")
    sampler = Sampler(v)
    totals = [0.0] * len(cands)
    wins = [0.0] * len(cands)
    for _ in range(deals):
        det = one_round(sampler.state(rng))
        queues = [rng.sample(det.boneyard, len(det.boneyard)) for _ in range(det.players)]
        for c, action in enumerate(cands):
            totals[c] += rollout(apply(det, action), v.seat, queues, goal=goal, weights=weights)[0]
            wins[c] += goal.win
    return [t / deals for t in totals], [w / deals for w in wins]


def positions_and_values(
    players: int, count: int, candidates: int, seed: int, deals: int, cache: str = "", rounds: int = 1,
    preset: str = "standard",
):
    """(:func:`positions`, each one's :func:`values`), read from the file ``cache`` when it
    was made with the same arguments, else worked out (and kept there, with a ``cache``)."""
    from mexitrain.players.expert import ExpertPlayer

    # the weights of the seat's later moves change the values: a cache made with others is stale
    key = (players, count, candidates, seed, deals, tuple(ExpertPlayer().weights), rounds)
    if preset != "standard":  # (the caches made before presets keep their key)
        key += (preset,)
    path = Path(cache) if cache else None
    if path is not None and path.exists() and pickle.loads(path.read_bytes())[0] == key:
        return pickle.loads(path.read_bytes())[1:]
    found = positions(players, count, candidates, seed, rounds=rounds, preset=preset)
    table = [values(v, cands, deals, i) for i, (v, cands, _) in enumerate(found)]
    if path is not None:
        path.write_bytes(pickle.dumps((key, found, table)))
    return found, table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The expert's candidates valued over many deals.")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--deals", type=int, default=500, help="deals each candidate is played on")
    parser.add_argument("--candidates", type=int, default=10, help="the planner's best plays kept")
    parser.add_argument("--seed", type=int, default=5000, help="games use seeds S+1, S+2...")
    parser.add_argument("--budgets", default="", help="expert budgets to score, e.g. 64,160")
    parser.add_argument("--seeds", type=int, default=2, help="expert seeds per budget")
    parser.add_argument(
        "--cache", default="", help="a file keeping the positions and their values between runs"
    )
    parser.add_argument(
        "--extra", default="", help="with --budgets, the expert's EXTRA values to score, e.g. 0,2"
    )
    parser.add_argument(
        "--confidence", default="", help="with --budgets, the expert's CONFIDENCE values to score, e.g. 0.5,1"
    )
    parser.add_argument(
        "--win-points", default="", help="with --budgets, the expert's WIN_POINTS to score, e.g. 0,100"
    )
    args = parser.parse_args(argv)

    from mexitrain.players.expert import ExpertPlayer

    start = time.process_time()
    found, table = positions_and_values(args.players, args.positions, args.candidates, args.seed, args.deals, args.cache)
    rank = Counter()
    gain = 0.0
    for (_, cands, base), (vals, _) in zip(found, table, strict=True):
        best = max(range(len(vals)), key=vals.__getitem__)
        rank[best] += 1
        gain += vals[best] - vals[cands.index(base)]
    n = len(found)
    print(
        f"{n} positions, {args.players} players, {args.deals} deals each, "
        f"{sum(len(c) for _, c, _ in found) / n:.1f} candidates on average, "
        f"{time.process_time() - start:.0f} s of CPU"
    )
    print("the best candidate is the planner's choice number: " + ", ".join(
        f"{r + 1}: {rank[r]}" for r in sorted(rank)
    ))
    win_gain = sum(max(w) - w[c.index(b)] for (_, c, b), (_, w) in zip(found, table, strict=True))
    print(f"the planner's regret: {gain / n:.2f} points, {100 * win_gain / n:.2f} % of a win a decision")
    points = [{"win_points": float(w)} for w in args.win_points.split(",") if w] or [{}]
    confidences = [{"confidence": float(c)} for c in args.confidence.split(",") if c] or [{}]
    extras = [{"extra": float(e)} for e in args.extra.split(",") if e] or [{}]
    settings = [{**w, **c, **e} for w in points for c in confidences for e in extras]
    for budget in [int(b) for b in args.budgets.split(",") if b]:
        for kw in settings:
            regret = lost = 0.0
            for s in range(args.seeds):
                for (v, cands, _), (vals, wins) in zip(found, table, strict=True):
                    chosen = ExpertPlayer(100 + s, rollouts=budget, max_candidates=4, **kw).choose(v)
                    regret += max(vals) - vals[cands.index(chosen)]
                    lost += max(wins) - wins[cands.index(chosen)]
            label = "".join(f", {k.replace('_', ' ')} {v:g}" for k, v in kw.items())
            print(
                f"expert at {budget} rollouts{label}: regret {regret / (n * args.seeds):.2f} points, "
                f"{100 * lost / (n * args.seeds):.2f} % of a win a decision"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
