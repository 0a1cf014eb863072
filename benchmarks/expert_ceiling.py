"""How far the expert's kind of search can go: its candidates judged against the real hands,
and what the opponents' plays tell about their hands.

The expert deals the tiles it cannot see at random, consistently with the draws and markers
it saw (:class:`~mexitrain.players.knowledge.Sampler`), and plays the candidate that does best
on those deals. This script takes the searched positions of seat 0 in one-round Standard games
with the planner in every seat (as ``expert_regret.py`` does) and values every candidate in
share of a win of the round, on ``--deals`` deals four ways: twice as the expert deals them
(two independent sets) and twice with the real hands (only the boneyard's order at random).
It prints the gain over the planner's move, in % of a win a decision, of choosing

- the best candidate by the expert's deals, valued on its other deals: what a perfect search
  of the candidates *expects* to gain (the expert's ceiling as it sees the game);
- the same choice valued on the real hands: what that search *does* gain;
- the expert's own choice (``--budget`` rollouts), valued on the real hands;
- the best candidate by the real hands, valued on the other set: what knowing the hands
  would be worth, out of reach of any player that does not peek.

With ``--particles K`` it also asks whether the opponents' plays narrow their hands: K deals
of the Sampler are weighted by whether the planner, holding them, would have made each
opponent's plays since its last draw (``--eps`` for a play it would not have made). It prints
how many tiles of the real hands the dealt hands hold, unweighted and weighted, the error
(Brier score) of "holds a tile with this pip value", and the weights' effective sample size.

    .venv/bin/python benchmarks/expert_ceiling.py --players 2 --positions 200 --deals 400
    .venv/bin/python benchmarks/expert_ceiling.py --players 2 --positions 100 --deals 0 --particles 100

CPU-heavy (``--processes``, 2 by default); a plain script that prints figures.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "benchmarks"):  # the package, and expert_regret.py beside this script
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from expert_regret import positions, win_keeping_goal  # noqa: E402

#: The four sets of deals each candidate is valued on.
SETS = ("sampled", "sampled again", "real", "real again")


def values(job) -> dict[str, list[float]]:
    """Each candidate's share of a win over ``deals`` deals of each of :data:`SETS`."""
    from mexitrain.players.expert import one_round, rollout
    from mexitrain.players.knowledge import Sampler
    from mexitrain.players.planner import DEFAULT_WEIGHTS
    from mexitrain.rules import apply
    from mexitrain.rules.state import evolve

    key, (v, cands, _, state, _), deals = job
    goal = win_keeping_goal(v)
    weights = [DEFAULT_WEIGHTS] * v.players
    sampler = Sampler(v)
    out = {}
    for name in SETS:
        rng = random.Random(f"ceiling:{key}:{name}")
        wins = [0.0] * len(cands)
        for _ in range(deals):
            if name.startswith("sampled"):
                det = one_round(sampler.state(rng))
            else:
                bone = list(state.boneyard)
                rng.shuffle(bone)
                det = one_round(evolve(state, {"boneyard": tuple(bone)}))
            queues = [rng.sample(det.boneyard, len(det.boneyard)) for _ in range(det.players)]
            for c, action in enumerate(cands):
                rollout(apply(det, action), v.seat, queues, goal=goal, weights=weights)
                wins[c] += goal.win
        out[name] = [w / deals for w in wins]
    return out


def opponent_evidence(found, particles: int, eps: float, seed: int) -> dict[str, float]:
    """The Sampler's hands weighted by the planner's likelihood of each opponent's plays."""
    from mexitrain.players.knowledge import Sampler, _played_after, lacking_values
    from mexitrain.players.planner import planner_decide
    from mexitrain.rules import legal_actions, view
    from mexitrain.rules.actions import event_action
    from mexitrain.rules.state import evolve

    sums = dict.fromkeys(("overlap", "overlap weighted", "brier", "brier weighted", "ess"), 0.0)
    pip_cases = 0
    for n, (v, _, _, state, history) in enumerate(found):
        before = {len(s.events): s for s in history}  # the snapshot before each event
        rng = random.Random(f"evidence:{seed}:{n}")
        sampler = Sampler(v)
        deals = [sampler.hands(rng) for _ in range(particles)]
        w = [1.0] * particles
        events = v.events
        played = _played_after(v)  # per seat: (event index, tile) of its plays
        for seat in deals[0]:
            last_draw = max((i for i, e in enumerate(events) if e.seat == seat and e.type == "draw"), default=-1)
            for i in range(last_draw + 1, len(events)):
                e = events[i]
                st = before.get(i)
                if e.seat != seat or e.type != "play" or st is None or len(legal_actions(st)) < 2:
                    continue
                # its hand then: the dealt one and every tile it played since (no draw since)
                later = tuple(t for k, t in played[seat] if k >= i)
                lacking = lacking_values(view(st, seat))  # public: the same for every deal
                action = event_action(e)
                for p in range(particles):
                    hands = list(st.hands)
                    hands[seat] = deals[p][seat] + later
                    sp = evolve(st, {"hands": tuple(hands)})
                    legal = legal_actions(sp)
                    if action not in legal:
                        w[p] = 0.0
                    elif planner_decide(sp, seat, legal, lacking)[0] != action:
                        w[p] *= eps
        total = sum(w)
        if total == 0:
            w, total = [1.0] * particles, float(particles)
        sums["ess"] += total * total / sum(x * x for x in w)
        for seat in deals[0]:
            real = set(state.hands[seat])
            overlap = [len(real & set(d[seat])) for d in deals]
            sums["overlap"] += sum(overlap) / particles
            sums["overlap weighted"] += sum(o * x for o, x in zip(overlap, w, strict=True)) / total
            real_pips = {x for t in real for x in t}
            dealt_pips = [{x for t in d[seat] for x in t} for d in deals]
            for pip in range(v.rules.set + 1):
                truth = 1.0 if pip in real_pips else 0.0
                p_u = sum(pip in q for q in dealt_pips) / particles
                p_w = sum(x for q, x in zip(dealt_pips, w, strict=True) if pip in q) / total
                sums["brier"] += (p_u - truth) ** 2
                sums["brier weighted"] += (p_w - truth) ** 2
                pip_cases += 1
    k = len(found)
    return {
        "overlap": sums["overlap"] / k,
        "overlap weighted": sums["overlap weighted"] / k,
        "brier": sums["brier"] / pip_cases,
        "brier weighted": sums["brier weighted"] / pip_cases,
        "ess": sums["ess"] / k,
    }


def _mean_se(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, math.sqrt(var / len(xs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The expert's ceiling, judged against the real hands.")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--deals", type=int, default=400, help="deals of each set (0: skip the values)")
    parser.add_argument("--seed", type=int, default=7000, help="games use seeds S+1, S+2...")
    parser.add_argument("--budget", type=int, default=160, help="the expert's rollouts (0: skip it)")
    parser.add_argument("--particles", type=int, default=0, help="sampled deals weighed by the opponents' plays")
    parser.add_argument("--eps", type=float, default=0.05, help="weight of a play the planner would not make")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)

    from mexitrain.players.expert import FullExpertPlayer  # as measured: full rollouts

    start = time.time()
    found = positions(args.players, args.positions, 4, args.seed, states=True)
    print(f"{len(found)} positions, {args.players} players, {args.deals} deals of each set")
    if args.deals > 0:
        jobs = [(i, f, args.deals) for i, f in enumerate(found)]
        if args.processes > 1:
            from multiprocessing import Pool

            with Pool(args.processes) as pool:
                table = pool.map(values, jobs)
        else:
            table = [values(job) for job in jobs]

        def best(xs: list[float]) -> int:
            return max(range(len(xs)), key=xs.__getitem__)

        rows = {
            "best by the expert's deals, valued on its other deals": ("sampled", "sampled again"),
            "best by the expert's deals, valued on the real hands": ("sampled", "real again"),
            "best by the real hands, valued on the other real deals": ("real", "real again"),
        }
        gains: dict[str, list[float]] = {label: [] for label in rows}
        expert_gains: list[float] = []
        for (v, cands, base, _, _), vals in zip(found, table, strict=True):
            b = cands.index(base)
            for label, (by, on) in rows.items():
                gains[label].append(vals[on][best(vals[by])] - vals[on][b])
            if args.budget > 0:
                chosen = cands.index(FullExpertPlayer(1, rollouts=args.budget).choose(v))
                expert_gains.append(vals["real again"][chosen] - vals["real again"][b])
        if expert_gains:
            gains[f"the expert's choice at {args.budget} rollouts, valued on the real hands"] = expert_gains
        print("gain over the planner's move, % of a win a decision (± standard error):")
        for label, xs in gains.items():
            m, se = _mean_se(xs)
            print(f"  {label}: {100 * m:+.2f} ± {100 * se:.2f}")
    if args.particles > 0:
        e = opponent_evidence(found, args.particles, args.eps, args.seed)
        print(
            f"opponents' hands, {args.particles} sampled deals weighed by the planner's likelihood of their "
            f"plays (eps {args.eps:g}): tiles of the real hand held {e['overlap']:.2f} unweighted, "
            f"{e['overlap weighted']:.2f} weighted; Brier score of holding each pip value "
            f"{e['brier']:.4f} unweighted, {e['brier weighted']:.4f} weighted; effective sample size {e['ess']:.1f}"
        )
    print(f"{time.time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
