"""Small games for the storage tests: tables, random play and snapshots along the way."""

from __future__ import annotations

import random

from mexitrain.rules import GameState, RuleSet, apply, legal_actions, make_rules, new_game
from mexitrain.table import GameSetup, default_seats

#: A short table: double-6, two rounds, one person against a random computer.
SHORT_RULES = RuleSet(set=6, rounds=2)


def table(
    rules: RuleSet = SHORT_RULES,
    players: int = 2,
    humans: int = 1,
    seed: int = 3,
    ai: tuple[str, ...] = ("random",),
) -> GameSetup:
    return GameSetup(rules=rules, seed=seed, seats=default_seats(players, humans, ai))


def start(setup: GameSetup) -> GameState:
    return new_game(setup.rules, players=setup.players, seed=setup.seed)


def play(state: GameState, steps: int, rng: random.Random | int = 0) -> GameState:
    """``steps`` random legal actions (fewer if the game ends)."""
    rng = random.Random(rng) if isinstance(rng, int) else rng
    for _ in range(steps):
        if state.over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def history(state: GameState, steps: int, rng: random.Random | int = 0) -> list[GameState]:
    """Every snapshot from ``state`` on, through ``steps`` random actions."""
    rng = random.Random(rng) if isinstance(rng, int) else rng
    out = [state]
    for _ in range(steps):
        if out[-1].over:
            break
        out.append(apply(out[-1], rng.choice(legal_actions(out[-1]))))
    return out


def finish(state: GameState, rng: random.Random | int = 0) -> GameState:
    return play(state, 10**6, rng)


#: Rule sets whose games must all survive a save and a load.
VARIANTS: dict[str, RuleSet] = {
    "standard": make_rules("standard", {"rounds": "2"}),
    "fast": make_rules("fast", {"rounds": "2"}),
    "common": make_rules("common", {"rounds": "2"}),
    "highest_double": RuleSet(set=9, engine="highest_double", rounds=2),
    "teams": RuleSet(set=9, teams=True, rounds=2, team_marker="both_stuck"),
    "simultaneous": RuleSet(set=9, opening="simultaneous", rounds=2),
    "delayed": RuleSet(set=9, opening="delayed_first_turn", rounds=2),
    "branching_swan": RuleSet(set=9, branching_doubles=True, swan_drive=True, rounds=2),
    "until_blocked": RuleSet(set=6, round_end="until_blocked", blanks_wild=True, rounds=3),
}
