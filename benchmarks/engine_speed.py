"""How fast the rules engine plays whole games.

Plays seeded games to the end with random players and prints games per second and actions
(``apply`` calls) per second. The default is the full Standard game: 4 players, double-12,
13 rounds.

    .venv/bin/python benchmarks/engine_speed.py                  # 20 games, one process
    .venv/bin/python benchmarks/engine_speed.py --processes 2    # split over two processes
    .venv/bin/python benchmarks/engine_speed.py --mode players   # through view() + RandomPlayer

``--mode engine`` (the default) picks uniformly among ``legal_actions(state)``: it measures
the engine alone. ``--mode players`` asks a ``RandomPlayer`` for each move, as ``mexitrain
simulate`` does, which adds ``view`` and the player's own legal-action search.

Wall-clock figures are what a user sees; the CPU-time figure is what the engine costs when
other programs share the machine. A plain script: it prints figures and asserts nothing, so
no test depends on a machine's speed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without installing the package
    sys.path.insert(0, str(ROOT))


def play_games(job: tuple[str, tuple[tuple[str, str], ...], int, list[int], str]) -> tuple[int, int, float]:
    """Play the games of ``seeds``; returns (games, actions, CPU seconds spent playing)."""
    import random

    from mexitrain.players import RandomPlayer
    from mexitrain.rules import apply, legal_actions, make_rules, new_game, view

    preset, options, players, seeds, mode = job
    rules = make_rules(preset, dict(options))
    actions = 0
    start = time.process_time()
    for seed in seeds:
        state = new_game(rules, players=players, seed=seed)
        if mode == "engine":
            rng = random.Random(seed)
            while not state.over:
                state = apply(state, rng.choice(legal_actions(state)))
                actions += 1
        else:
            bots = [RandomPlayer(seed * 16 + s) for s in range(players)]
            while not state.over:
                seat = state.turn
                state = apply(state, bots[seat].choose(view(state, seat)))
                actions += 1
    return len(seeds), actions, time.process_time() - start


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, not {text!r}")
    return key, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Games and actions per second of the rules engine.")
    parser.add_argument("--games", type=_positive, default=20, help="games to play (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="game i uses seed S+i (default 1)")
    parser.add_argument("--players", type=_positive, default=4, help="players (default 4)")
    parser.add_argument("--preset", default="standard", help="rule preset (default standard)")
    parser.add_argument(
        "--option", type=_option, action="append", default=[], metavar="KEY=VALUE", help="rule option"
    )
    parser.add_argument(
        "--processes", type=_positive, default=1, help="worker processes; 2 uses both cores (default 1)"
    )
    parser.add_argument(
        "--mode",
        choices=("engine", "players"),
        default="engine",
        help="engine: random legal action; players: RandomPlayer through view() (default engine)",
    )
    args = parser.parse_args(argv)

    from mexitrain.rules import RuleSetError, make_rules

    try:
        rules = make_rules(args.preset, dict(args.option))
        rules.check_players(args.players)
    except RuleSetError as exc:
        parser.error(str(exc))

    seeds = [args.seed + i for i in range(args.games)]
    procs = min(args.processes, args.games)
    jobs = [
        (args.preset, tuple(args.option), args.players, seeds[k::procs], args.mode)
        for k in range(procs)
    ]
    print(
        f"{args.games} games, {args.players} players, double-{rules.set}, "
        f"{rules.round_count} rounds, preset {args.preset}, mode {args.mode}, "
        f"{procs} process{'es' if procs > 1 else ''}"
    )
    if procs == 1:
        start = time.perf_counter()
        results = [play_games(jobs[0])]
        wall = time.perf_counter() - start
    else:
        import multiprocessing

        with multiprocessing.Pool(procs) as pool:
            pool.map(_warm_up, range(procs))  # start the workers before timing
            start = time.perf_counter()
            results = pool.map(play_games, jobs)
            wall = time.perf_counter() - start
        for k, (games, actions, secs) in enumerate(results, start=1):
            print(
                f"  process {k}: {games} games in {secs:.2f} s of CPU: "
                f"{games / secs:.2f} games/s, {actions / secs:,.0f} actions/s"
            )
    games = sum(r[0] for r in results)
    actions = sum(r[1] for r in results)
    cpu = max(r[2] for r in results)
    label = "combined" if procs > 1 else "total"
    print(f"{label}: {games} games, {actions:,} actions in {wall:.2f} s (wall clock)")
    print(f"games/s:   {games / wall:.2f} (wall clock), {games / cpu:.2f} (CPU time of the slowest process)")
    print(f"actions/s: {actions / wall:,.0f} (wall clock)")
    print(f"actions per game: {actions / games:,.0f}")
    return 0


def _warm_up(_: int) -> None:
    import mexitrain.players  # noqa: F401
    import mexitrain.rules  # noqa: F401


if __name__ == "__main__":
    raise SystemExit(main())
