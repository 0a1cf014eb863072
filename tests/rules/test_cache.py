"""The memos of the rules and the players live in mexitrain.rules.cache: keyed by value (typed
where True and 1 could meet), all emptied by one clear(), and the results the same after it."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import mexitrain
from mexitrain.players import LEVELS
from mexitrain.rules import RuleSet, apply, cache, legal_actions, new_game, view
from mexitrain.rules.tiles import full_set, placement_lookup
from mexitrain.rules.undo import round_start
from mexitrain.rules.view import view_legal_actions

PACKAGE = Path(mexitrain.__file__).parent


def _play(seed: int, rounds: int = 2):
    """A game of four planners' and random moves through two finished rounds, with what the
    seats saw on the way (views, legal actions from views, the planner's choices)."""
    rules = RuleSet(set=6, blanks_wild=True)
    state = new_game(rules, players=4, seed=seed)
    rng = random.Random(seed)
    planner = LEVELS["planner"](seed)
    seen = []
    while len(state.results) < rounds and not state.over:
        v = view(state, state.turn)
        seen.append((v, view_legal_actions(v), v.unseen()))
        action = planner.choose(v) if rng.random() < 0.5 else rng.choice(legal_actions(state))
        seen.append(action)
        state = apply(state, action)
    return state, seen


def test_clear_empties_every_cache_and_the_results_stay_the_same() -> None:
    cache.clear()
    state, seen = _play(7)
    start = round_start(state)
    full = [c for c in cache.caches().values() if len(c)]
    assert {"tiles.full_set", "core.lookup", "view.public_rounds", "undo.round_start"} <= {
        c.name for c in full
    }
    cache.clear()
    assert all(len(c) == 0 for c in cache.caches().values())
    again, seen_again = _play(7)
    assert again == state
    assert seen_again == seen
    assert round_start(again) == start


def test_a_typed_cache_never_answers_an_equal_key_of_another_type() -> None:
    c = cache.new("test.typed", typed=True)
    c.put((True, 0), "bool")
    assert c.get((1, 0)) is None
    assert c.memo((1, 0), lambda: "int") == "int"
    assert c.get((True, 0)) == "bool"
    c.put(1, "one")
    assert c.get(True) is None
    r = cache.recent("test.typed_recent", 4, typed=True)
    r.put((False, 3), "bool")
    assert r.get((0, 3)) is None
    assert r.memo((0, 3), lambda: "int") == "int"


def test_the_caches_whose_keys_hold_bools_or_ints_are_typed() -> None:
    placement_lookup(0, True)
    full_set(6)
    _play(3, rounds=1)
    named = cache.caches()
    for name in ("tiles.full_set", "tiles.placement_lookup", "core.lookup", "planner.plan"):
        assert named[name].typed, name
    assert placement_lookup(0, 1) == placement_lookup(0, True)


def test_a_cache_is_keyed_by_value_not_identity() -> None:
    c = cache.recent("test.by_value", 2)
    c.put((1, 2), "x")
    assert c.get(tuple([1, 2])) == "x"
    h = cache.new("test.by_value_hashed")
    h.put((3, 4), "y")
    assert h.get(tuple([3, 4])) == "y"


def test_no_module_state_outside_the_registry() -> None:
    # No `global` rebinds and no memo keyed by id() in the rules or the players.
    for folder in ("rules", "players"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                assert not isinstance(node, ast.Global), f"{path.name}:{node.lineno} global"
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    assert node.func.id != "id", f"{path.name}:{node.lineno} id()"
