"""How fast the compact rules core (mexitrain/rules/core) plays whole games, beside today's
reducer path, in the same run (issue 22).

Both sides play the same seeded games with random legal actions: the core in place
(``legal`` + ``step`` on one private Core) and the reducer (``legal_actions`` + ``apply``,
today's ``--mode engine`` of engine_speed.py). The same seed picks the same action index on
both sides, so they play the very same games: the script checks that the final scores agree.
``--players`` adds today's ``mexitrain simulate`` path (``view`` + ``RandomPlayer`` +
``apply``), which the issue's aim (at least 12x, 25x the aim) is measured against.

    .venv/bin/python benchmarks/core_speed.py                 # 10 full 4-player double-12 games
    .venv/bin/python benchmarks/core_speed.py --games 20 --repeats 3 --simulate

Figures are CPU time (process_time) per side, interleaved over repeats, as ranges. A plain
script: it prints figures and asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without installing the package
    sys.path.insert(0, str(ROOT))


def run_core(rules, players: int, seeds: list[int]) -> tuple[int, list, float]:
    from mexitrain.rules import core

    legal, step = core.legal, core.step
    actions = 0
    finals = []
    start = time.process_time()
    for seed in seeds:
        c = core.new_game(rules, players=players, seed=seed)
        rng = random.Random(seed)
        randrange = rng.randrange
        while c.phase != 6:  # not over
            moves = legal(c)
            step(c, moves[randrange(len(moves))])
            actions += 1
        finals.append(tuple(c.round_scores))
    return actions, finals, time.process_time() - start


def run_reducer(rules, players: int, seeds: list[int]) -> tuple[int, list, float]:
    from mexitrain.rules import apply, legal_actions, new_game

    actions = 0
    finals = []
    start = time.process_time()
    for seed in seeds:
        state = new_game(rules, players=players, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            options = legal_actions(state)
            state = apply(state, options[rng.randrange(len(options))])
            actions += 1
        finals.append(tuple(r.scores for r in state.results))
    return actions, finals, time.process_time() - start


def run_simulate(rules, players: int, seeds: list[int]) -> tuple[int, list, float]:
    from mexitrain.players import RandomPlayer
    from mexitrain.rules import apply, new_game, view

    actions = 0
    start = time.process_time()
    for seed in seeds:
        state = new_game(rules, players=players, seed=seed)
        bots = [RandomPlayer(seed * 16 + s) for s in range(players)]
        while not state.over:
            state = apply(state, bots[state.turn].choose(view(state, state.turn)))
            actions += 1
    return actions, [], time.process_time() - start


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, not {text!r}")
    return key, value


def _span(values: list[float]) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:.2f}" if abs(hi - lo) < 0.005 else f"{lo:.2f}-{hi:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The compact core beside the reducer, games/s.")
    parser.add_argument("--games", type=int, default=10, help="games per side and repeat (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="game i uses seed S+i (default 1)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--preset", default="standard", help="rule preset (default standard)")
    parser.add_argument(
        "--option", type=_option, action="append", default=[], metavar="KEY=VALUE", help="rule option"
    )
    parser.add_argument("--repeats", type=int, default=2, help="interleaved repeats (default 2)")
    parser.add_argument(
        "--simulate", action="store_true", help="also time today's simulate path (view + RandomPlayer)"
    )
    args = parser.parse_args(argv)

    from mexitrain.rules import make_rules

    rules = make_rules(args.preset, dict(args.option))
    rules.check_players(args.players)
    seeds = [args.seed + i for i in range(args.games)]
    sides = {"core": run_core, "reducer": run_reducer}
    if args.simulate:
        sides["simulate"] = run_simulate
    print(
        f"{args.games} games x {args.repeats} repeats, {args.players} players, double-{rules.set}, "
        f"{rules.round_count} rounds, preset {args.preset}; CPU time"
    )
    rates: dict[str, list[float]] = {name: [] for name in sides}
    finals: dict[str, list] = {}
    acts: dict[str, int] = {}
    for _ in range(args.repeats):
        for name, run in sides.items():
            actions, final, secs = run(rules, args.players, seeds)
            rates[name].append(args.games / max(secs, 1e-9))
            finals[name] = final
            acts[name] = actions
    for name in sides:
        print(f"  {name:9} {_span(rates[name])} games/s ({acts[name]:,} actions a run)")
    same = finals["core"] == finals["reducer"] and acts["core"] == acts["reducer"]
    print(f"  same games, same scores: {'yes' if same else 'NO'}")
    for name in sides:
        if name != "core":
            ratios = [a / b for a, b in zip(rates["core"], rates[name], strict=True)]
            print(f"  core / {name}: {_span(ratios)}x")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
