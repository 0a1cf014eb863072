"""The rules of Mexican Train (docs/rules.md) as a pure reducer over immutable snapshots.

>>> from mexitrain.rules import new_game, legal_actions, apply, RuleSet
>>> state = new_game(RuleSet(), players=4, seed=7)
>>> state.round, state.engine, len(state.hands[0]), len(state.boneyard)
(1, 12, 15, 30)
>>> action = legal_actions(state)[0]
>>> apply(state, action).events[-1].seat == state.turn
True
"""

from .actions import (
    ACTION_ADAPTER,
    DRAW,
    MARK,
    MEXICAN,
    PASS,
    SKIP,
    Action,
    Draw,
    Mark,
    Pass,
    Play,
    Skip,
    TrainRef,
)
from .engine import apply, deal, legal_actions, new_game, replay, swan_order
from .errors import IllegalAction
from .ruleset import HAND_SIZES, PRESETS, RuleSet, RuleSetError, make_rules
from .scoring import Standing, decided_by, sides, standings, winners
from .state import Event, GameState, RoundResult, Train
from .tiles import Tile, fmt, full_set, is_double, pips, tile
from .view import (
    OnlookerView,
    OpenDouble,
    PublicRound,
    SeatView,
    determinize,
    onlooker,
    public_part,
    view,
    view_legal_actions,
    watched,
)

__all__ = [
    "ACTION_ADAPTER", "DRAW", "MARK", "MEXICAN", "PASS", "SKIP", "Action", "Draw", "Mark",
    "Pass", "Play", "Skip", "TrainRef", "apply", "deal", "legal_actions", "new_game", "replay",
    "swan_order", "IllegalAction", "HAND_SIZES", "PRESETS",
    "RuleSet", "RuleSetError", "make_rules", "Standing", "decided_by", "sides", "standings",
    "winners", "Event", "GameState", "RoundResult", "Train", "Tile", "fmt", "full_set",
    "is_double", "pips", "tile", "OnlookerView", "onlooker", "public_part", "watched", "OpenDouble", "PublicRound", "SeatView", "determinize", "view",
    "view_legal_actions",
]
