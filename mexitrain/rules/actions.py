"""Actions: what a seat can do, as a pydantic discriminated union (docs/rules.md §5, §6, §8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .tiles import Laid

if TYPE_CHECKING:
    from .state import Event

MEXICAN = "mexican"
#: A train is named by its owner's seat (0-based) or ``"mexican"``.
TrainRef = int | Literal["mexican"]


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Play(_Action):
    """Lay ``tile`` = (half against the open end, new open end) on a train's line."""

    type: Literal["play"] = "play"
    tile: Laid
    train: TrainRef
    branch: int = Field(0, ge=0, description="line of the train: 0 is the trunk (branching_doubles)")


class Draw(_Action):
    """Take the top tile of the boneyard (only when no tile can be played, §5.2)."""

    type: Literal["draw"] = "draw"


class Mark(_Action):
    """End the turn without a play, placing the marker where the rules say (§5.2, §6)."""

    type: Literal["mark"] = "mark"


class Pass(_Action):
    """End the turn with no marker, where a variant allows it (delayed first turn, swan drive)."""

    type: Literal["pass"] = "pass"


class Skip(_Action):
    """Swan drive: go past the Mexican Train to the next public train (§8)."""

    type: Literal["skip"] = "skip"


Action = Annotated[Play | Draw | Mark | Pass | Skip, Field(discriminator="type")]
ACTION_ADAPTER: TypeAdapter[Play | Draw | Mark | Pass | Skip] = TypeAdapter(Action)

DRAW = Draw()
MARK = Mark()
PASS = Pass()
SKIP = Skip()

#: The action of each event type that carries no tile (an event's type names its action).
SIMPLE_ACTIONS: dict[str, Draw | Mark | Pass | Skip] = {"draw": DRAW, "mark": MARK, "pass": PASS, "skip": SKIP}


def event_action(event: Event) -> Action:
    """The action that produced ``event``."""
    if event.type == "play":
        return Play(tile=event.tile, train=event.train, branch=event.branch)
    return SIMPLE_ACTIONS[event.type]
