"""``mexitrain tournament``: measured strength of the computer levels.

Each of N deals (game seeds S, S+1, ...) is played under every rotation of the seats, so
each level sits in every seat of every deal and no seat advantage counts. For every level
it prints the win share with its 95 % Wilson interval (a shared win is split between the
winners; a level holding several seats sums them), the mean points per round, the mean
difference per round to the other seats (negative is better: fewer points) and the
decisions per second.

``--ai`` lists the level of each seat; with fewer levels than players the last one fills the
remaining seats (``--players 4 --ai expert,planner`` is an expert against three planners).
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field

from ..rules import RuleSet, apply, new_game, view


# ---------------------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------------------
def add_arguments(p: argparse.ArgumentParser) -> None:
    from ..cli import add_rules_arguments, levels_value, player_count, positive_int, seed_value

    p.add_argument("--players", type=player_count, default=2, metavar="P", help="players (default 2)")
    p.add_argument(
        "--games", type=positive_int, default=20, metavar="N",
        help="deals to play, each under every rotation of the seats (default 20)",
    )
    p.add_argument("--seed", type=seed_value, default=0, metavar="S", help="deal i uses seed S+i (default 0)")
    p.add_argument(
        "--ai", type=levels_value, default=("planner", "greedy"), metavar="LEVEL[,LEVEL...]",
        help="level of each seat; the last fills the remaining seats (default planner,greedy)",
    )
    add_rules_arguments(p)
    p.add_argument(
        "--budget", type=positive_int, default=None, metavar="ROLLOUTS",
        help="the expert's rollouts per decision (default: its standard strength)",
    )
    p.add_argument(
        "--processes", type=positive_int, default=2, metavar="K",
        help="worker processes (default 2)",
    )


# ---------------------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------------------
@dataclass
class GameResult:
    """One game of one rotation: per seat, the level and what it did."""

    levels: tuple[str, ...]
    win_credit: tuple[float, ...]
    round_scores: tuple[tuple[int, ...], ...]  # per round, per seat
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]


def _make(level: str, seed: int, budget: int | None):
    from . import make_player
    from .expert import ExpertPlayer

    if level == "expert" and budget is not None:
        return ExpertPlayer(seed, rollouts=budget)
    return make_player(level, seed)


def play_one(rules: RuleSet, levels: tuple[str, ...], seed: int, budget: int | None) -> GameResult:
    n = len(levels)
    players = [_make(level, seed * 97 + i, budget) for i, level in enumerate(levels)]
    decisions = [0] * n
    seconds = [0.0] * n
    state = new_game(rules, players=n, seed=seed)
    clock = time.perf_counter
    while not state.over:
        seat = state.turn
        v = view(state, seat)
        t = clock()
        action = players[seat].choose(v)
        seconds[seat] += clock() - t
        decisions[seat] += 1
        state = apply(state, action)
    winners = state.winners
    credit = tuple((1 / len(winners) if i in winners else 0.0) for i in range(n))
    return GameResult(
        levels=levels,
        win_credit=credit,
        round_scores=tuple(r.scores for r in state.results),
        decisions=tuple(decisions),
        seconds=tuple(seconds),
    )


def _job(args: tuple) -> GameResult:
    rules_json, levels, seed, budget = args
    return play_one(RuleSet.model_validate_json(rules_json), levels, seed, budget)


def seat_levels(levels: tuple[str, ...], players: int) -> tuple[str, ...]:
    if len(levels) > players:
        raise ValueError(f"--ai names {len(levels)} levels for {players} players")
    return tuple(levels) + (levels[-1],) * (players - len(levels))


def jobs(rules: RuleSet, levels: tuple[str, ...], games: int, seed: int, budget: int | None) -> list[tuple]:
    n = len(levels)
    rules_json = rules.model_dump_json()
    out = []
    for g in range(games):
        for r in range(n):
            rotated = levels[-r:] + levels[:-r] if r else levels
            out.append((rules_json, rotated, seed + g, budget))
    return out


# ---------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------
def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class LevelStats:
    seats: int = 0  # seats held per game
    wins: float = 0.0
    points: int = 0
    seat_rounds: int = 0
    diff: float = 0.0
    decisions: int = 0
    seconds: float = 0.0
    games: int = 0
    per_game: list[float] = field(default_factory=list)


def summarize(results: list[GameResult]) -> dict[str, LevelStats]:
    stats: dict[str, LevelStats] = {}
    for res in results:
        n = len(res.levels)
        seen = set()
        for seat, level in enumerate(res.levels):
            st = stats.setdefault(level, LevelStats())
            if level not in seen:
                st.games += 1
                st.per_game.append(0.0)
                seen.add(level)
            st.per_game[-1] += res.win_credit[seat]
            st.wins += res.win_credit[seat]
            st.decisions += res.decisions[seat]
            st.seconds += res.seconds[seat]
            for scores in res.round_scores:
                st.points += scores[seat]
                st.seat_rounds += 1
                others = [scores[i] for i in range(n) if i != seat]
                st.diff += scores[seat] - sum(others) / len(others)
        for level in seen:
            stats[level].seats = res.levels.count(level)
    return stats


def report(stats: dict[str, LevelStats], header: str) -> str:
    lines = [header]
    lines.append(
        f"{'level':<8} {'seats':>5} {'win share':>9} {'95% CI':>15} {'pts/round':>9} "
        f"{'diff/round':>10} {'decisions/s':>11} {'wins':>11}"
    )
    for level, st in stats.items():
        share = st.wins / st.games
        lo, hi = wilson(st.wins, st.games)
        pts = st.points / st.seat_rounds
        diff = st.diff / st.seat_rounds
        speed = st.decisions / st.seconds if st.seconds > 0 else float("inf")
        lines.append(
            f"{level:<8} {st.seats:>5} {100 * share:>8.1f}% {f'[{100 * lo:.1f}, {100 * hi:.1f}]':>15} "
            f"{pts:>9.1f} {diff:>+10.1f} {speed:>11.0f} {f'{st.wins:g}/{st.games}':>11}"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    from ..cli import UsageError, bad_values, rules_from_args

    rules = rules_from_args(args)
    players = args.players
    with bad_values():
        rules.check_players(players)
        levels = seat_levels(tuple(args.ai), players)
    if len(set(levels)) < 2:
        raise UsageError("--ai needs at least two different levels to compare")
    work = jobs(rules, levels, args.games, args.seed, args.budget)
    start = time.perf_counter()
    if args.processes > 1 and len(work) > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn" if _no_fork() else "fork").Pool(args.processes) as pool:
            results = pool.map(_job, work, chunksize=1)
    else:
        results = [_job(w) for w in work]
    elapsed = time.perf_counter() - start
    preset = args.preset or "standard"
    options = " ".join(f"{k}={v}" for k, v in (args.option or ()))
    budget = f", expert budget {args.budget} rollouts" if args.budget and "expert" in levels else ""
    header = (
        f"{len(results)} games ({args.games} deals x {players} seat rotations), {players} players, "
        f"preset {preset}{' ' + options if options else ''}, seeds {args.seed}..{args.seed + args.games - 1}"
        f"{budget}; {elapsed:.1f} s"
    )
    print(report(summarize(results), header))
    return 0


def _no_fork() -> bool:
    import multiprocessing

    return "fork" not in multiprocessing.get_all_start_methods()
