"""The rule set: every option of docs/rules.md §8, the hand-size table of §2 and the presets."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .errors import CodedError
from .tiles import full_set

#: Every code a :class:`RuleSetError` may carry, with the values it holds: a table the rules
#: cannot deal (``too_few_players``: min, players; ``too_many_players``: set, fast, max, players;
#: ``teams_players``: players; ``no_first_seat``: seat (from 1), players; ``not_enough_tiles``:
#: players, each, need, set, available), options that do not go together (``fast_table``: set;
#: ``too_many_rounds``: set, max, rounds), and what :func:`make_rules` refuses (``unknown_preset``:
#: preset, choices; ``unknown_option``: option, choices; ``not_on_off``, ``not_whole_number``:
#: option, value; ``bad_choice``: option, choices, value; ``too_small``: option, min, value;
#: ``invalid``: option, kind, pydantic's error type, for a refusal without a code of its own).
RULESET_CODES: tuple[str, ...] = (
    "too_few_players", "too_many_players", "teams_players", "no_first_seat", "not_enough_tiles",
    "fast_table", "too_many_rounds", "unknown_preset", "unknown_option", "not_on_off", "bad_choice",
    "too_small", "not_whole_number", "invalid",
)


class RuleSetError(CodedError, ValueError):
    """A rule set, or a rule set with a number of players, that cannot be played.

    Like :class:`~mexitrain.rules.errors.IllegalAction`, it is data: ``code`` (one of
    :data:`RULESET_CODES`) names the problem and ``values`` its particulars (numbers, option
    names, the value given); ``mexitrain.text.validation.ruleset_error_text`` turns them into a
    sentence in the player's language. ``str(error)`` is the developer line
    ``too_many_players (set=12, fast=False, max=10, players=11)``.
    """


#: docs/rules.md §2: (largest player count of the row, tiles each), by (set, table).
HAND_SIZES: dict[tuple[int, str], tuple[tuple[int, int], ...]] = {
    (12, "standard"): ((4, 15), (6, 12), (8, 10), (10, 8)),
    (9, "standard"): ((4, 10), (6, 9), (7, 7), (8, 6)),
    (9, "fast"): ((2, 15), (3, 13), (4, 10)),
    (6, "standard"): ((2, 7), (4, 5)),
    (15, "standard"): ((4, 15), (6, 13), (8, 12), (10, 11), (12, 10)),
    (18, "standard"): ((4, 15), (6, 13), (8, 12), (10, 11), (13, 11)),
}


class RuleSet(BaseModel):
    """Every rule option of docs/rules.md. The defaults are the Standard preset (the French leaflet's rules).
    What each option does, for players, is said in :mod:`mexitrain.text.rules` (``option_help``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    set: Literal[6, 9, 12, 15, 18] = 12
    hand_table: Literal["standard", "fast"] = "standard"
    hand_size: int | None = Field(None, ge=1)
    rounds: int | None = Field(None, ge=1)
    engine: Literal["descending", "highest_double"] = "descending"
    first_player: Literal["random", "chosen", "heaviest"] = "random"
    first_seat: int = Field(0, ge=0)
    double_follow_up: Literal["any", "must_satisfy"] = "any"
    round_end: Literal["boneyard_empty", "until_blocked"] = "boneyard_empty"
    trains_start_public: bool = False
    teams: bool = False
    team_marker: Literal["together", "both_stuck"] = "together"
    open_hands: bool = False
    blanks_wild: bool = False
    opening: Literal["normal", "simultaneous", "first_turn_chain", "delayed_first_turn"] = "normal"
    branching_doubles: bool = False
    swan_drive: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> RuleSet:
        if self.hand_table == "fast" and self.set != 9:
            raise RuleSetError("fast_table", set=self.set)
        if self.engine == "descending" and self.rounds is not None and self.rounds > self.set + 1:
            raise RuleSetError("too_many_rounds", set=self.set, max=self.set + 1, rounds=self.rounds)
        return self

    # -- derived -------------------------------------------------------------------------
    def partner(self, seat: int, players: int) -> int | None:
        """With ``teams``, ``seat``'s partner, sitting opposite (seat i with i + n/2, §8)."""
        return (seat + players // 2) % players if self.teams else None

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Who scores together (§7, §8): each player alone, or each team of partners."""
        if self.teams:
            return tuple((i, i + players // 2) for i in range(players // 2))
        return tuple((i,) for i in range(players))

    @property
    def round_count(self) -> int:
        if self.rounds is not None:
            return self.rounds
        return 1 if self.engine == "highest_double" else self.set + 1

    @property
    def max_players(self) -> int:
        return HAND_SIZES[(self.set, self.hand_table)][-1][0]

    def tiles_each(self, players: int) -> int:
        """Tiles dealt to each of ``players`` (docs/rules.md §2); refuses impossible tables."""
        self.check_players(players)
        return self.hand_size_for(players) if self.hand_size is None else self.hand_size

    def hand_size_for(self, players: int) -> int:
        """The hand size the hand table gives ``players`` (docs/rules.md §2), whatever
        ``hand_size`` says; refuses more players than the table has."""
        for upto, size in HAND_SIZES[(self.set, self.hand_table)]:
            if players <= upto:
                return size
        raise self._too_many(players)

    def _too_many(self, players: int) -> RuleSetError:
        return RuleSetError(
            "too_many_players",
            set=self.set,
            fast=self.hand_table == "fast",
            max=self.max_players,
            players=players,
        )

    def check_players(self, players: int) -> None:
        """Raise :class:`RuleSetError`, with a clear reason, if this table cannot be dealt."""
        if players < 2:
            raise RuleSetError("too_few_players", min=2, players=players)
        if players > self.max_players:
            raise self._too_many(players)
        if self.teams and players not in (4, 6, 8):
            raise RuleSetError("teams_players", players=players)
        if self.first_player == "chosen" and self.first_seat >= players:
            raise RuleSetError("no_first_seat", seat=self.first_seat + 1, players=players)
        each = self.hand_size if self.hand_size is not None else self.hand_size_for(players)
        available = len(full_set(self.set)) - (1 if self.engine == "descending" else 0)
        if each * players > available:
            raise RuleSetError(
                "not_enough_tiles",
                players=players,
                each=each,
                need=each * players,
                set=self.set,
                available=available,
            )

    def changed(self) -> dict[str, object]:
        """The options that differ from the Standard preset."""
        base = RuleSet()
        return {k: v for k, v in self.model_dump().items() if getattr(base, k) != v}


PRESETS: dict[str, RuleSet] = {
    "standard": RuleSet(),
    "fast": RuleSet(set=9, hand_table="fast"),
    "common": RuleSet(
        trains_start_public=True,
        double_follow_up="must_satisfy",
        blanks_wild=True,
        round_end="until_blocked",
    ),
}


def _parse_value(field: str, text: str) -> object:
    annotation = RuleSet.model_fields[field].annotation
    lowered = text.strip().lower()
    if annotation is bool:
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise RuleSetError("not_on_off", option=field, value=text)
    if lowered in ("none", "default", ""):
        return None
    if lowered.lstrip("-").isdigit():
        return int(lowered)
    return lowered.replace("-", "_")


def make_rules(preset: str = "standard", options: dict[str, str] | None = None) -> RuleSet:
    """A preset with ``key=value`` options over it, as the command line gives them.

    Raises :class:`RuleSetError` with a one-line message for an unknown preset or option,
    or a value the option does not take.
    """
    key = preset.strip().lower().replace("_", "-")
    key = {"fast-double-9": "fast", "double-9": "fast"}.get(key, key)
    if key not in PRESETS:
        raise RuleSetError("unknown_preset", preset=preset, choices=tuple(PRESETS))
    values = PRESETS[key].model_dump()
    for name, text in (options or {}).items():
        field = name.strip().replace("-", "_")
        if field not in RuleSet.model_fields:
            raise RuleSetError("unknown_option", option=name, choices=tuple(RuleSet.model_fields))
        values[field] = _parse_value(field, text)
        if field == "first_seat" and isinstance(values[field], int):
            values[field] -= 1  # people count seats from 1
            values["first_player"] = "chosen"
    try:
        return RuleSet(**values)
    except ValidationError as exc:
        raise rule_set_error(exc.errors()[0]) from None


def rule_set_error(err: Any) -> RuleSetError:
    """One pydantic error of a rule set (``ValidationError.errors()[0]``) as a RuleSetError:
    the one the validator raised, or one built from the error's type, place and input."""
    inner = (err.get("ctx") or {}).get("error")
    if isinstance(inner, RuleSetError):
        return inner
    code, values = error_data(err)
    return RuleSetError(code, **values)


def error_data(err: Any) -> tuple[str, dict[str, Any]]:
    """The code and values of one pydantic error of a rule set (see :data:`RULESET_CODES`)."""
    inner = (err.get("ctx") or {}).get("error")
    if isinstance(inner, RuleSetError):
        return inner.code, dict(inner.values)
    loc = err.get("loc") or ()
    field = str(loc[0]) if loc else "rules"
    value = err.get("input")
    kind = err.get("type", "")
    if field == "first_seat" and isinstance(value, int):
        value += 1  # people count seats from 1
    if kind == "literal_error" and field in RuleSet.model_fields:
        choices = get_args(RuleSet.model_fields[field].annotation)
        return "bad_choice", {"option": field, "choices": choices, "value": value}
    if kind == "greater_than_equal":
        least = (err.get("ctx") or {}).get("ge")
        if field == "first_seat" and isinstance(least, int):
            least += 1
        return "too_small", {"option": field, "min": least, "value": value}
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return "not_whole_number", {"option": field, "value": value}
    return "invalid", {"option": field, "kind": str(err.get("type", ""))}
