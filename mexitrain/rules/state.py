"""The immutable game snapshot (frozen pydantic models holding tuples, never lists)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from . import cache
from .actions import MEXICAN, TrainRef
from .ruleset import RuleSet
from .tiles import Laid, Tile, is_double

Phase = Literal["turn", "drawn", "follow_up", "follow_up_drawn", "chain", "swan", "game_over"]
RoundEnd = Literal["domino", "stuck", "blocked"]
EventType = Literal["play", "draw", "mark", "pass", "skip"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# The slots every pydantic model instance has, set directly (BaseModel.__setattr__ refuses
# on frozen models; the slot descriptors are the cheapest way round it).
_SLOTS = BaseModel.__dict__
_get_dict = _SLOTS["__dict__"].__get__
_set_dict = _SLOTS["__dict__"].__set__
_set_fields_set = _SLOTS["__pydantic_fields_set__"].__set__
_set_extra = _SLOTS["__pydantic_extra__"].__set__
_set_private = _SLOTS["__pydantic_private__"].__set__
_new = object.__new__
_FIELDS_SET = cache.new("state.fields_set")  # each set shared, never mutated: the models are frozen


def evolve(obj, update: dict):
    """A copy of frozen model ``obj`` with ``update`` applied, without validation.

    The reducer's fast path (like ``model_copy(update=...)`` but cheaper): the engine only
    passes values it built itself, of the right types. The original is never touched.
    """
    new = _new(obj.__class__)
    _set_dict(new, {**obj.__dict__, **update})
    _set_fields_set(new, obj.__pydantic_fields_set__)
    _set_extra(new, None)
    _set_private(new, None)
    return new


def construct(cls, values: dict):
    """Build a frozen model from complete, already valid ``values`` (every field given)."""
    fields_set = _FIELDS_SET.get(cls)
    if fields_set is None or len(fields_set) != len(values):
        fields_set = _FIELDS_SET.put(cls, set(values))
    return _instance(cls, values, fields_set)


def _instance(cls, values: dict, fields_set: set):
    new = _new(cls)
    _set_dict(new, values)
    _set_fields_set(new, fields_set)
    _set_extra(new, None)
    _set_private(new, None)
    return new


def attached_core(state: GameState):
    """The core ``state`` privately keeps (see :class:`GameState`), or None."""
    try:
        return _get_core(state)
    except AttributeError:
        return None


def attach_core(state: GameState, core) -> None:
    """Let ``state`` keep ``core``, which must equal its fields and never change after."""
    _set_core(state, core)


class Train(_Frozen):
    """A personal train (``owner`` = seat) or the Mexican Train (``owner`` = None).

    ``lines[0]`` is the trunk from the station; with ``branching_doubles`` each satisfied
    double adds two lines that start from its value (``starts``).
    """

    owner: int | None
    lines: tuple[tuple[Laid, ...], ...]
    starts: tuple[int, ...]
    marker: bool = False

    @property
    def ref(self) -> TrainRef:
        return MEXICAN if self.owner is None else self.owner

    @property
    def public(self) -> bool:
        return self.owner is None or self.marker

    def end(self, line: int = 0) -> int:
        laid = self.lines[line]
        return laid[-1][1] if laid else self.starts[line]

    @property
    def ends(self) -> tuple[int, ...]:
        return tuple(self.end(i) for i in range(len(self.lines)))

    @property
    def tiles(self) -> tuple[Laid, ...]:
        """Every tile on the train, trunk first."""
        return tuple(t for line in self.lines for t in line)

    @property
    def started(self) -> bool:
        return bool(self.lines[0])

    def open_double_lines(self) -> tuple[int, ...]:
        """Lines whose last tile is a double not yet satisfied (§6)."""
        return tuple(i for i, line in enumerate(self.lines) if line and is_double(line[-1]))


class Event(_Frozen):
    """One thing that happened, as the game record writes it (docs/record-format.md)."""

    seat: int
    type: EventType
    tile: Laid | None = None
    train: TrainRef | None = None
    branch: int = 0


class RoundResult(_Frozen):
    """A finished round: its deal, its events, how it ended and its scores (§7)."""

    number: int
    engine: int
    engine_seat: int | None = None
    first_seat: int
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    events: tuple[Event, ...]
    end: RoundEnd
    out_seat: int | None
    leftovers: tuple[tuple[Tile, ...], ...]
    scores: tuple[int, ...]


class GameState(_Frozen):
    """Everything about a game at one moment. Only ``apply`` makes the next one.

    A snapshot built by the reducer privately keeps the compact core it was built from,
    in a slot that is not a field: equality, hashing, dumps, copies, pickles
    and ``model_copy`` never see it, and a copy starts without one (the reducer reads its
    core back from the fields then; see :func:`attached_core`).

    **Filled on first read.** ``apply`` returns a snapshot whose ``turn`` and ``phase`` are
    set and whose other fields (hands, trains, boneyard, events, results, round, ...) are
    worked out from its core the first time anything reads one of them: a field, equality,
    a hash, a dump, a copy, a pickle, ``vars()``, pydantic itself (everything goes through
    ``__dict__``, which fills them first). A snapshot is filled at most once, and always to the
    same values, so nothing outside can tell; a loop that only steps the game (a replay to a
    position, a search) never pays for a snapshot it does not read. See :func:`pending`.
    """

    __slots__ = ("_core", "_pending")

    rules: RuleSet
    seed: int
    players: int
    starter: int  # round 1's first seat; later rounds move one seat clockwise
    round: int  # 1-based
    engine: int
    engine_seat: int | None = None  # engine=highest_double: who set it
    first_seat: int
    turn: int
    phase: Phase
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]  # draw order: boneyard[0] is drawn next
    trains: tuple[Train, ...]  # seats 0..n-1, then the Mexican Train
    mexican_starter: int | None = None
    double_line: tuple[int, int] | None = None  # (train index, line) owed a follow-up
    drawn: Tile | None = None
    swan_pos: int | None = None  # index in the swan order of the last train played
    chain_right: tuple[bool, ...]  # opening chain still to be used, per seat
    opening_queue: tuple[int, ...] = ()  # simultaneous opening: seats still to lay
    failed: tuple[bool, ...]  # ended their latest turn without a play (team_marker)
    idle_turns: int = 0  # turns in a row ended without a play, boneyard empty
    dealt_hands: tuple[tuple[Tile, ...], ...]
    dealt_boneyard: tuple[Tile, ...]
    events: tuple[Event, ...] = ()
    results: tuple[RoundResult, ...] = ()
    winners: tuple[int, ...] = ()

    # -- convenience -----------------------------------------------------------------------
    @property
    def mexican(self) -> Train:
        return self.trains[-1]

    def train(self, ref: TrainRef) -> Train:
        return self.trains[-1] if ref == MEXICAN else self.trains[ref]

    @property
    def over(self) -> bool:
        return self.phase == "game_over"

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self.hands)

    def partner(self, seat: int) -> int | None:
        return self.rules.partner(seat, self.players)

    def team_of(self, seat: int) -> tuple[int, ...]:
        p = self.partner(seat)
        return (seat,) if p is None else tuple(sorted((seat, p)))

    # -- filled on first read (see the class's docstring) -------------------------------------
    @property  # type: ignore[override]
    def __dict__(self) -> dict:
        d = _get_dict(self)
        if _FILLED not in d and _fill(self):
            d = _get_dict(self)
        return d

    @__dict__.setter
    def __dict__(self, value: dict) -> None:
        _set_dict(self, value)

    def __getattr__(self, name: str):
        if name in LAZY_FIELDS and _fill(self):  # not set yet: every field set from the core
            return _get_dict(self)[name]
        return super().__getattr__(name)


_get_core = GameState.__dict__["_core"].__get__
_set_core = GameState.__dict__["_core"].__set__
_get_pending = GameState.__dict__["_pending"].__get__
_set_pending = GameState.__dict__["_pending"].__set__

# The fields a snapshot made by ``pending`` leaves to its first read: all but these two,
# which loops read at every step (whose turn, and ``over``)
LAZY_FIELDS = frozenset(GameState.model_fields) - {"turn", "phase"}
_FILLED = "events"  # in a snapshot's dict once its lazy fields are


_ALL_FIELDS = set(GameState.model_fields)  # shared, never mutated: the models are frozen


def pending(values: dict, core, fill, *args) -> GameState:
    """A snapshot of ``core`` with only ``values`` set (every field not in LAZY_FIELDS);
    ``fill(core, *args)`` gives the dict of every field the first time one is read."""
    new = _instance(GameState, values, _ALL_FIELDS)
    _set_core(new, core)
    _set_pending(new, (fill, args))
    return new


def filled(state: GameState) -> bool:
    """Whether every field of ``state`` is set (always, except just after ``apply``)."""
    return _FILLED in _get_dict(state)


def _fill(state: GameState) -> bool:
    """Set every field of a snapshot made by ``pending``; whether it was one not yet set."""
    try:
        work = _get_pending(state)
    except AttributeError:  # a snapshot being built, or not made by ``pending``
        return False
    if work is None:
        return False
    fill, args = work
    _set_dict(state, fill(_get_core(state), *args))  # every field, in the fields' order (as dumps write)
    _set_pending(state, None)  # what it kept (the previous snapshot) is let go
    return True
