"""Games played on: random legal moves to a point or to the end, the snapshots along the way,
and the rule sets every save must survive."""

from __future__ import annotations

import random

from mexitrain.game_setup import GameSetup
from mexitrain.players import make_player
from mexitrain.rules import GameState, RuleSet, apply, legal_actions, make_rules, new_game, view

from .tables import table


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


def play_first(state: GameState, steps: int) -> GameState:
    """``steps`` times the first legal action (fewer if the game ends): the same game always."""
    for _ in range(steps):
        if state.over:
            break
        state = apply(state, legal_actions(state)[0])
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
    """Random legal actions (chosen by ``rng``) until the game is over."""
    state = play(state, 10**6, rng)
    assert state.over, "the game did not end"
    return state


def finished_game(rules: RuleSet, seed: int = 4) -> tuple[GameSetup, GameState]:
    """A whole game between two computer players of the random level, and its table (a person
    and a random computer: the seats a finished game is saved and counted under)."""
    setup = table(rules=rules, seed=seed, kinds=("human", "random"))
    players = [make_player("random", seed=s) for s in range(2)]
    state = new_game(rules, players=2, seed=seed)
    while not state.over:
        state = apply(state, players[state.turn].choose(view(state, state.turn)))
    return setup, state


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
