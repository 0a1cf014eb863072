"""The compact rules core: the rules of docs/rules.md, once, on a small mutable state.

Pure like the rest of ``mexitrain.rules``: no UI, no I/O, no clocks, no global randomness.
A :class:`Core` is changed in place by :func:`step` (copy it with ``Core.copy`` to keep a
position); :func:`legal` gives the moves as ints in the order of ``legal_actions``;
:func:`to_state` gives its GameState. The public reducer (``rules/engine.py``: ``apply``,
``legal_actions``, ``new_game``) is a thin layer over this package.

>>> from mexitrain.rules import RuleSet, new_game as reducer_new_game
>>> c = new_game(RuleSet(), players=4, seed=7)
>>> to_state(c) == reducer_new_game(RuleSet(), players=4, seed=7)
True
>>> step(c, legal(c)[0]); c.turn
1

Files, one idea each: ``tables`` (per-rule-set constants, move and event encodings),
``compact`` (the state), ``deal`` (dealing, round start), ``moves`` (legal moves),
``step`` (one move, then what the rules force), ``scoring`` (round end, winners),
``refusals`` (why a move is refused), ``snapshot`` (to and from GameState).

:data:`COMPILED` is True when the hot modules (``HOT``) run compiled (setup.py,
``MEXITRAIN_COMPILE=1``: the same .py files, with the types of the .pxd files beside them),
False for plain Python; the rules are the same bit for bit either way.
"""

from __future__ import annotations

from ..ruleset import RuleSet
from .compact import Core
from .deal import deal, start_round
from .lookup import M_DRAW, M_MARK, M_PASS, M_SKIP, Lookup, lookup
from .moves import legal, plays
from .refusals import check, refusal
from .scoring import game_winners, hand_pips, mask_total
from .snapshot import from_state, to_state
from .step import settle, step

# the modules setup.py compiles when asked (MEXITRAIN_COMPILE=1)
HOT = ("compact", "deal", "moves", "scoring", "step", "lookup")


def compiled(package: str, names: tuple[str, ...]) -> bool:
    """Whether the modules ``names`` of ``package`` run compiled (imported if they are not
    yet): extension modules, not .py files (setup.py builds both forms from the same sources)."""
    from importlib import import_module
    from importlib.machinery import EXTENSION_SUFFIXES

    return all(
        str(getattr(import_module(f"{package}.{name}"), "__file__", "")).endswith(
            tuple(EXTENSION_SUFFIXES)
        )
        for name in names
    )


COMPILED: bool = compiled(__name__, HOT)


def new_game(rules: RuleSet | None = None, players: int = 4, seed: int = 0) -> Core:
    """The core at the start of round 1 (like ``engine.new_game``)."""
    rules = rules or RuleSet()
    rules.check_players(players)
    c = Core.__new__(Core)
    c.tab = lookup(rules, players)
    c.seed = seed
    c.starter = None
    c.results = []
    c.round_scores = []
    c.winners = ()
    c.over = False
    start_round(c, 1)
    settle(c)
    return c


def actions(c: Core, moves) -> tuple:
    """The Action objects of ``moves`` (shared, immutable, equal to the reducer's)."""
    tab = c.tab
    known = tab._actions
    try:
        return tuple([known[m] for m in moves])
    except KeyError:
        action = tab.action
        return tuple([action(m) for m in moves])


def apply_action(c: Core, action) -> None:
    """Make ``action`` (an Action object) in place; raises IllegalAction, ``c`` untouched."""
    step(c, check(c, action))


__all__ = [
    "COMPILED", "Core", "HOT", "compiled", "M_DRAW", "M_MARK", "M_PASS", "M_SKIP", "Lookup", "actions", "apply_action",
    "check", "deal", "from_state", "game_winners", "hand_pips", "legal", "mask_total", "new_game", "plays", "refusal", "settle",
    "start_round", "step", "lookup", "to_state",
]
