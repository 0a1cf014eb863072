"""What one action costs before any rule is checked: the floor under engine_speed.py's figure.

A game in which every action only picks one of a few ready actions at random and makes the
next immutable snapshot (the engine's cheapest way, ``state.evolve``: the changed fields of a
frozen pydantic ``GameState`` replaced, the rest shared) cannot be faster than this, whatever
its rules. The script times, per action, over ``--actions`` actions:

- ``choice``: ``random.choice`` among 8 ready actions (what a random player does);
- ``snapshot``: a new ``GameState`` whose hand, turn, phase and event list changed, as a play
  or a draw changes them (one hand rebuilt, one event appended to the round's events);
- ``floor``: both, as one game loop would do them, with no legal-move search and no checks;
- ``engine``: the real thing, ``apply(state, choice(legal_actions(state)))`` (as
  engine_speed.py), over whole Standard games.

and turns each into 4-player double-12 13-round games per second at the engine's measured
actions per game.

    .venv/bin/python benchmarks/snapshot_floor.py

CPU time of this process; a plain script that prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _per_action(loop, count: int) -> float:
    start = time.process_time()
    loop(count)
    return (time.process_time() - start) / count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The cost of one immutable snapshot per action.")
    parser.add_argument("--actions", type=int, default=300_000, help="actions per loop (default 300000)")
    parser.add_argument("--games", type=int, default=10, help="engine games (default 10)")
    args = parser.parse_args(argv)

    from mexitrain.rules import RuleSet, apply, legal_actions, new_game
    from mexitrain.rules.state import evolve

    rules = RuleSet()
    start_state = new_game(rules, players=4, seed=1)
    ready = tuple(legal_actions(start_state)) * 8
    ready = ready[:8]
    rng = random.Random(1)

    def choice(count: int) -> None:
        pick = rng.choice
        for _ in range(count):
            pick(ready)

    def snapshot(count: int, with_choice: bool = False) -> None:
        state = start_state
        events = tuple(range(60))  # a round's events so far, about half-way through a round
        pick = rng.choice
        for i in range(count):
            if with_choice:
                pick(ready)
            hands = state.hands
            seat = i & 3
            hand = hands[seat]
            state = evolve(
                state,
                {
                    "hands": hands[:seat] + (hand[1:] + hand[:1],) + hands[seat + 1 :],
                    "turn": (seat + 1) & 3,
                    "phase": "turn",
                    "events": events + (i,),
                },
            )

    def floor(count: int) -> None:
        snapshot(count, with_choice=True)

    actions = 0
    t0 = time.process_time()
    for seed in range(args.games):
        state = new_game(rules, players=4, seed=seed)
        game_rng = random.Random(seed)
        while not state.over:
            state = apply(state, game_rng.choice(legal_actions(state)))
            actions += 1
    engine = (time.process_time() - t0) / actions
    per_game = actions / args.games

    print(f"4 players, double-12, 13 rounds: {per_game:,.0f} actions a game (random players)")
    for name, cost in (
        ("choice", _per_action(choice, args.actions)),
        ("snapshot", _per_action(snapshot, args.actions)),
        ("floor", _per_action(floor, args.actions)),
        ("engine", engine),
    ):
        print(f"{name:>9}: {cost * 1e6:6.2f} us an action -> {1 / (cost * per_game):8.1f} games/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
