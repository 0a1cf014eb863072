"""The rules' errors as data: a code and its values, never a sentence.

:class:`CodedError` is what every error of :mod:`mexitrain.rules` is made of:
:class:`IllegalAction` (an action the rules refuse), :class:`~.ruleset.RuleSetError` (rules
that cannot be played), :class:`~.record.RecordError` (a record that does not replay),
:class:`~.record_json.StrictJSONError` and :class:`~.undo.UndoRefused`.

The values are data, not words: tiles are ``(a, b)`` tuples, trains are named as actions
name them (the owner's seat, 0-based, or ``"mexican"``), ``why`` is a sub-code. Interfaces
turn ``code`` and ``values`` into a sentence in the player's language (:mod:`mexitrain.text`:
``refusals.reason_text``, ``validation.ruleset_error_text``, ``files.record_error_text``, the
only places they are worded); ``str(exc)`` is a short developer line, the code and its values:
``not_in_hand (tile=3-7)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

#: Every reason code an :class:`IllegalAction` may carry.
CODES: tuple[str, ...] = (
    "game_over", "not_in_hand", "must_play_drawn", "double_follow_up", "private_train",
    "blocked_by_double", "must_satisfy", "chain_own_train", "first_turn_own_train", "swan_next",
    "no_train", "no_branch", "does_not_fit", "wrong_half", "must_play", "already_drawn",
    "boneyard_empty", "cannot_mark_now", "cannot_pass_now", "cannot_skip_now", "draw_not_allowed",
    "bad_action",
)

#: The ``field`` of ``bad_action``: which part of an action built without validation is not
#: one an action can have (an unknown type, a tile that is not two whole numbers of pips, a
#: branch that is not a whole number).
FIELD_CODES: tuple[str, ...] = ("type", "tile", "branch")

#: The ``why`` sub-codes of ``cannot_mark_now``, ``cannot_pass_now`` and ``draw_not_allowed``.
WHY_CODES: tuple[str, ...] = (
    "in_chain", "in_swan", "chain_goes_on", "draw_first", "pass_instead", "drawn_playable", "marker_here",
)


#: The longest a value is shown in a developer line (a value may come from a file).
_MAX_SHOWN = 200


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _value(value: Any) -> str:
    """A value as the developer line shows it: a tile ``3-7``, an ``(tile, train)`` example
    ``1-4@2``, a sequence ``[3-7 0-0]``, another error as its own developer line, a printable
    string as it is (trains stay as actions name them: ``0``, ``mexican``), anything else as
    ``repr``; one line, at most :data:`_MAX_SHOWN` characters."""
    if isinstance(value, tuple) and len(value) == 2 and _is_int(value[0]) and _is_int(value[1]):
        shown = f"{value[0]}-{value[1]}"
    elif isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], tuple) and not isinstance(value[1], tuple):
        shown = f"{_value(value[0])}@{_value(value[1])}"
    elif isinstance(value, tuple | list):
        shown = "[" + " ".join(_value(v) for v in value) + "]"
    elif isinstance(value, CodedError):
        shown = developer_line(value.code, value.values)
    elif isinstance(value, str) and value.isprintable() and value.strip() == value and value:
        shown = value
    else:
        shown = repr(value)
    return shown if len(shown) <= _MAX_SHOWN else shown[: _MAX_SHOWN - 1] + "…"


def developer_line(code: str, values: Mapping[str, Any]) -> str:
    """``code (key=value, ...)``: the code and its values on one line, for developers and logs."""
    if not values:
        return code
    return f"{code} ({', '.join(f'{k}={_value(v)}' for k, v in values.items())})"


def _rebuild(cls: type[CodedError], code: str, values: dict[str, Any]) -> CodedError:
    return cls(code, **values)


class CodedError(Exception):
    """An error as data: ``code`` names the problem, ``values`` (a read-only mapping) its
    particulars; both are set once, at construction. ``str()`` is :func:`developer_line`.
    It pickles and copies by its code and values, and raised inside a pydantic validator it
    reaches interfaces whole, as ``ctx["error"]`` of the ``ValidationError``."""

    def __init__(self, code: str, **values: Any) -> None:
        super().__init__(developer_line(code, values))
        self._code = code
        self._values = MappingProxyType(values)

    @property
    def code(self) -> str:
        return self._code

    @property
    def values(self) -> Mapping[str, Any]:
        return self._values

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self._code, dict(self._values)))


class IllegalAction(CodedError, ValueError):
    """An action the rules refuse. ``code`` (one of :data:`CODES`) names the rule, ``values``
    its particulars."""
