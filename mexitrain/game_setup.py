"""How a table is set up: the rule set, the seed and who sits in each seat.

Shared by the command line, the new-game screen, saved games and the simulators.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from .i18n import _, pgettext
from .rules import RuleSet
from .rules.seeds import SEED_MAX, derived_seed, fresh_seed, keyed
from .text.names import NAME_MAX, codepoint, first_unprintable, name_fault

PlayerKind = Literal["human", "random", "greedy", "planner", "expert"]
AI_LEVELS: tuple[str, ...] = ("random", "greedy", "planner", "expert")
DEFAULT_AI = "planner"
DEFAULT_NAMES = ("You", "Bea", "Cal", "Dot", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit", "Lou", "Max")


class SeatConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=NAME_MAX)
    kind: PlayerKind = "human"

    @field_validator("name")
    @classmethod
    def _printable(cls, name: str) -> str:
        """A name is shown as plain text on every screen and printed by the command line:
        it may not hold a control character (ESC would command the terminal), a lone
        surrogate or a bidi control (:func:`mexitrain.text.names.unprintable`), and it shows as
        someone: at least one visible character (:func:`mexitrain.text.names.name_fault`). The
        form, ``--names`` and every loaded save come through here."""
        bad = first_unprintable(name)
        if bad is not None:
            raise PydanticCustomError(
                "name_unprintable", "a name cannot hold the control character {char}", {"char": codepoint(bad)}
            )
        if name_fault(name) == ("invisible", {}):
            raise PydanticCustomError("name_invisible", "a name needs a visible character")
        return name

    @property
    def is_human(self) -> bool:
        return self.kind == "human"


class GameSetup(BaseModel):
    """Everything needed to start a game. Refuses a table the rules cannot deal."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rules: RuleSet = RuleSet()
    seed: int = Field(0, ge=0, le=SEED_MAX)
    #: The seed was typed on purpose (``--seed``, the form's Seed field, a tournament): its deal
    #: was known before the game, which the result screen and the record say. False for a
    #: fresh seed (:func:`random_seed`), whose deal nobody knew (docs/fair-deal.md).
    seed_chosen: bool = False
    seats: tuple[SeatConfig, ...] = ()
    #: Undo with several people at this terminal (they all agreed, on the new-game form).
    undo_with_several: bool = False

    @model_validator(mode="after")
    def _check(self) -> GameSetup:
        self.rules.check_players(len(self.seats))
        return self

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.is_human)


def default_seats(players: int = 4, humans: int = 1, ai: tuple[str, ...] = (DEFAULT_AI,)) -> tuple[SeatConfig, ...]:
    """``humans`` people first, then computer players whose levels cycle through ``ai``."""
    seats = []
    for i in range(players):
        if i < humans:
            # a name in the player's language (a name is data: it never changes afterwards)
            name = pgettext("player name", "You") if humans == 1 else _("Player {n}").format(n=i + 1)
            seats.append(SeatConfig(name=name, kind="human"))
        else:
            level = ai[(i - humans) % len(ai)]
            # never "You" (DEFAULT_NAMES[0]) for a computer player, e.g. with --humans 0
            seats.append(SeatConfig(name=DEFAULT_NAMES[i % len(DEFAULT_NAMES)] if i % len(DEFAULT_NAMES) else "Ada", kind=level))
    return tuple(seats)


def random_seed() -> int:
    """A fresh seed for a new game: 128 bits of the system's randomness, a sealed seed
    (:func:`mexitrain.rules.seeds.fresh_seed`; the only place the app draws one)."""
    return fresh_seed()


#: A computer seat's own seed is ``game seed * stride + seat``. Each way of playing keeps its
#: stride: another one would play other games for the same seed (simulate's output for a seed,
#: the games a tournament results file holds, a saved game's computer moves).
SIMULATE_STRIDE = 16
TOURNAMENT_STRIDE = 97
PLAY_STRIDE = 100


def seat_seed(seed: int, seat: int, stride: int) -> int:
    """The seed of the computer player in ``seat`` of the game dealt with ``seed``: for a
    sealed seed, drawn from it with HMAC so that nothing of the game's seed follows from a
    computer player's choices; for a classic seed, ``seed * stride + seat`` as before."""
    if keyed(seed):
        return derived_seed(seed, f"seat/{stride}/{seat}")
    return seed * stride + seat
