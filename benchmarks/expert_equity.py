"""The expert valuing its rollouts by the game's win before the last round (match equity,
:class:`mexitrain.players.expert.EquityGoal`), against today's expert on the same deals.

    python benchmarks/expert_equity.py tournament --players 2 --games 200 --seed 1 \\
        --ai expert-me,planner --preset standard --results benchmarks/results/equity/me-planner-2p.jsonl
    python benchmarks/expert_equity.py paired benchmarks/results/equity/me-planner-2p.jsonl \\
        benchmarks/results/expert-full-planner-2p.jsonl

``tournament`` is ``mexitrain tournament`` with the level ``expert-me`` registered in this
process (and its workers); today's expert as it was measured against (full rollouts) is the
level ``expert-full``, whose kept games replay.

``paired`` reads two files of kept games (``mexitrain tournament --results``) and, for every
game of the first whose deal and seats the second also played with today's expert
(``expert-full``, or ``expert`` in the 4-player files) where the first has ``expert-me``,
prints both levels' win shares on those games, their paired difference a game with its
95 % interval (a normal interval over the games' differences: the same deals, so
most of the luck cancels), points a round of each (the level's round score against the others'
mean: below zero, fewer), and how many games were the same game (the same scores every round:
every player is deterministic, and the equity changes a choice only when it bends away from
the points, late in a game). Then the paired difference in points a round, with its 95 %
interval, and what a point a round is worth in wins to the second file's level: its share of
the wins had its totals been one point a round lower in each of its games (at four players
the share moves about 4 % a point, so a gain in points can be set against the wins it should
bring).

A plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

NEW = "expert-me"
#: Today's expert as the research levels were measured against it, by its name in a file of
#: kept games: ``expert-full`` in the 2-player files (renamed when the default expert's
#: rollouts were cut at two players, issue #36), ``expert`` in the 4-player ones.
OLD = ("expert-full", "expert")


def register() -> None:
    from mexitrain import players
    from mexitrain.players.expert import EquityExpertPlayer

    players.LEVELS[NEW] = EquityExpertPlayer


def _rows(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _ahead(row: dict, seat: int) -> float:
    """The seat's points a round against the others' mean (below zero: it ends with fewer)."""
    rounds = row["round_scores"]
    n = len(row["levels"])
    return sum(s[seat] - (sum(s) - s[seat]) / (n - 1) for s in rounds) / len(rounds)


def _seat(levels: list[str], names: str | tuple[str, ...]) -> int | None:
    """The one seat of ``levels`` held by the first of ``names`` that holds exactly one."""
    for name in (names,) if isinstance(names, str) else names:
        if levels.count(name) == 1:
            return levels.index(name)
    return None


def paired(new_path: str, old_path: str, new: str | tuple[str, ...] = NEW, old: str | tuple[str, ...] = OLD) -> None:
    """The comparison described at the top, of the level ``new`` against ``old`` (each a
    name, or names of which a game's row holds one)."""
    kept = {}
    for row in _rows(old_path):
        seat = _seat(row["levels"], old)
        if seat is not None:
            kept[(row["rules"], row["seed"], seat, len(row["levels"]))] = row
    pairs = []
    for row in _rows(new_path):
        seat = _seat(row["levels"], new)
        if seat is None:
            continue
        other = kept.get((row["rules"], row["seed"], seat, len(row["levels"])))
        if other is not None:
            pairs.append((row, other, seat))
    if not pairs:
        print("no game of the first file was played on the same deal and seats in the second")
        return
    n = len(pairs)
    first, other, seat = pairs[0]
    new_name, old_name = first["levels"][seat], other["levels"][seat]  # as the files name them
    a = [r["win_credit"][s] for r, _, s in pairs]
    b = [o["win_credit"][s] for _, o, s in pairs]
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean, half = _mean_half(d)
    same = sum(r["round_scores"] == o["round_scores"] for r, o, _ in pairs)
    pa = sum(_ahead(r, s) for r, _, s in pairs) / n
    pb = sum(_ahead(o, s) for _, o, s in pairs) / n
    print(f"{n} games on the same deals and seats ({same} the same game, {n - same} different)")
    print(f"{new_name}: {100 * sum(a) / n:.1f} % of the wins, {pa:+.1f} points a round")
    print(f"{old_name}: {100 * sum(b) / n:.1f} % of the wins, {pb:+.1f} points a round")
    print(f"paired difference a game: {100 * mean:+.2f} % [{100 * (mean - half):+.2f}, {100 * (mean + half):+.2f}]")
    if n > same:
        won = sum(x > 0 for x in d)
        lost = sum(x < 0 for x in d)
        print(f"in the {n - same} different games: {won} won where {old_name} lost (or more of a shared win), {lost} the other way")
    mean_p, half_p = _mean_half([_ahead(r, s) - _ahead(o, s) for r, o, s in pairs])
    print(f"paired difference in points a round: {mean_p:+.2f} [{mean_p - half_p:+.2f}, {mean_p + half_p:+.2f}]")
    olds = [(o, s) for _, o, s in pairs]
    worth = _win_share(olds, 1.0) - _win_share(olds, 0.0)
    print(f"a point a round fewer is worth {100 * worth:+.1f} % of the wins to {old_name} in its games "
          "(its totals lowered by one point a round)")


def _mean_half(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and the half-width of its normal 95 % interval."""
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else math.inf
    return mean, 1.96 * sd / math.sqrt(n)


def _win_share(games: list[tuple[dict, int]], shift: float) -> float:
    """The share of the wins of each game's ``seat`` had it scored ``shift`` points a round
    fewer in every round."""
    credit = 0.0
    for row, seat in games:
        rounds = row["round_scores"]
        totals = [sum(s[i] for s in rounds) for i in range(len(row["levels"]))]
        totals[seat] -= shift * len(rounds)
        low = min(totals)
        if totals[seat] == low:
            credit += 1 / sum(t == low for t in totals)
    return credit / len(games)


def main(argv: list[str] | None = None) -> int | None:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "tournament":
        register()
        from mexitrain.cli import build_parser
        from mexitrain.cli import main as cli_main

        build_parser().parse_args(["tournament", *argv[1:]])  # its arguments, checked first
        return cli_main(["tournament", *argv[1:]])
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("tournament", help=f"mexitrain tournament with the level {NEW}")
    q = sub.add_parser("paired", help=f"{NEW} against today's expert on the same deals and seats, from kept games")
    q.add_argument("new", help=f"kept games with {NEW}")
    q.add_argument("old", help=f"kept games with today's expert ({' or '.join(OLD)})")
    args = p.parse_args(argv)
    paired(args.new, args.old)
    return None


if __name__ == "__main__":
    sys.exit(main())
