"""A suggested move for a person: ``hint(view) -> (action, one line of why)``.

The expert's choice (searched within a time cap, so a hint never keeps the screen waiting),
explained in the planner's words: "keeps your train private; sheds 12-11 on the Mexican
Train". With ``time_limit=0`` only the planner is asked (instant).
"""

from __future__ import annotations

from ..rules import Action, SeatView
from .expert import ExpertPlayer
from .planner import PlannerPlayer

#: Seconds the expert may think for a hint by default.
HINT_TIME = 1.0


def hint(
    view: SeatView, time_limit: float | None = HINT_TIME, seed: int = 0, names=None
) -> tuple[Action, str]:
    """The suggested action for the seat of ``view`` (which must be to move), and why; with
    ``names`` (the table's) the reason names the other seats ("Bea is down to 2 tiles").

    Raises ``ValueError`` when it is not that seat's turn.
    """
    if not view.my_turn:
        raise ValueError("it is not this seat's turn")
    if time_limit is not None and time_limit <= 0:
        action, why = PlannerPlayer(seed).decide(view, names)
    else:
        action, why = ExpertPlayer(seed, time_limit=time_limit).decide(view, names)
    return action, why[:1].upper() + why[1:]
