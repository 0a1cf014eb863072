"""A snapshot from ``apply`` is filled on first read (rules/state.py, GameState's docstring).

``apply`` sets a snapshot's turn and phase and leaves its other fields (hands, trains,
events, round, ...) to be worked out from its core the first time anything reads them. Nothing outside may tell:
whatever reads it (a field, equality, a hash, a dump, a copy, a pickle, ``vars()``, a model
holding it) sees the same fields, in the same order, as a snapshot built at once; snapshots
left unread fill to the same values as read ones; and a run of unread snapshots never keeps
the ones before it alive.
"""

from __future__ import annotations

import copy
import gc
import pickle
import random
import weakref

from pydantic import BaseModel, ConfigDict

from mexitrain.rules import GameState, RuleSet, apply, core, legal_actions, new_game
from mexitrain.rules.engine import core_of
from mexitrain.rules.state import LAZY_FIELDS, filled


def _stepped(state: GameState, n: int, seed: int = 0) -> GameState:
    rng = random.Random(seed)
    for _ in range(n):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def _fresh(n: int = 30) -> GameState:
    """A snapshot nobody has read yet, and what it must fill to."""
    return _stepped(new_game(RuleSet(rounds=2), players=3, seed=5), n)


def test_apply_leaves_the_tuples_to_the_first_read():
    state = _fresh()
    assert not filled(state)
    assert state.turn in range(3) and state.phase != "game_over" and not state.over  # set: no fill
    assert not filled(state)
    assert state.round == 1  # any other field fills them all
    assert filled(state)
    assert set(LAZY_FIELDS) < set(GameState.model_fields)


def test_every_way_of_reading_sees_the_same_fields_in_the_same_order():
    want = core.to_state(core_of(_fresh()))
    readers = {
        "field": lambda s: s.events,
        "eq": lambda s: s == want,
        "hash": hash,
        "dump": lambda s: s.model_dump(),
        "json": lambda s: s.model_dump_json(),
        "repr": repr,
        "vars": vars,
        "iter": list,
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
        "model_copy": lambda s: s.model_copy(),
        "pickle": lambda s: pickle.dumps(s),
    }
    for name, read in readers.items():
        state = _fresh()
        read(state)
        assert filled(state), name
        assert state.model_dump_json() == want.model_dump_json(), name
        assert list(vars(state)) == list(GameState.model_fields), name
    state = _fresh()
    assert pickle.loads(pickle.dumps(state)) == want
    assert hash(_fresh()) == hash(want)


def test_a_model_holding_an_unread_snapshot_dumps_it_whole():
    class Holder(BaseModel):
        model_config = ConfigDict(arbitrary_types_allowed=True)
        state: GameState

    want = core.to_state(core_of(_fresh()))
    held = Holder.model_construct(state=_fresh())
    assert held.model_dump()["state"] == want.model_dump()


def test_unread_snapshots_fill_to_what_a_core_stepped_in_place_gives():
    """Random games under random rules, each snapshot read or not at random: a read one
    after unread ones is built from its core alone, after a read one from that one's tuples;
    both equal a full ``to_state`` of a core stepped with the same moves."""
    rng = random.Random(11)
    for game in range(12):
        players = rng.randint(2, 6)
        rules = RuleSet(rounds=2, branching_doubles=rng.random() < 0.5, swan_drive=rng.random() < 0.3)
        state = new_game(rules, players=players, seed=game)
        c = core.new_game(rules, players=players, seed=game)
        while not state.over:
            moves = core.legal(c)
            i = rng.randrange(len(moves))
            state = apply(state, legal_actions(state)[i])
            core.step(c, moves[i])
            if rng.random() < 0.3:
                assert state == core.to_state(c)


def test_a_run_of_unread_snapshots_keeps_none_before_it_alive():
    first = new_game(RuleSet(rounds=1), players=4, seed=3)
    assert filled(first)  # read: the next one may keep it until it fills
    second = apply(first, legal_actions(first)[0])
    state = second
    refs = [weakref.ref(first), weakref.ref(second)]
    del first, second
    for _ in range(5):
        state = apply(state, legal_actions(state)[0])
        refs.append(weakref.ref(state))
    gc.collect()
    assert [r() is not None for r in refs] == [False] * 6 + [True]
    assert state.events == core.to_state(core_of(state)).events
