"""Values refused on the new-game form, on the command line and in files' settings: a rule
set that cannot be played (:class:`~mexitrain.rules.ruleset.RuleSetError`) and pydantic's
validation errors, never shown in pydantic's English.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args

from ..i18n import _, ngettext
from ..rules import RuleSet
from ..rules.ruleset import RuleSetError
from .basics import LEVELS, join_or, quote, value_text


def ruleset_error_text(exc: RuleSetError) -> str:
    """Why a rule set, or a rule set with that many players, cannot be played (one line), from
    the error's code and values (:data:`~mexitrain.rules.ruleset.RULESET_CODES`); never the
    error's developer line."""
    code = getattr(exc, "code", None)
    v = getattr(exc, "values", {}) or {}
    try:
        text = _ruleset_error_text(code, v)
    except (KeyError, TypeError, ValueError):  # a code without the values it needs
        text = None
    return text if text is not None else _("these rules cannot be played")


def _ruleset_error_text(code: str | None, v: dict) -> str | None:
    if code == "too_few_players":
        return _("Mexican Train needs at least {min} players").format(min=v["min"])
    if code == "too_many_players":
        if v.get("fast"):
            text = _("the fast double-{set} set takes at most {max} players, not {players}")
        else:
            text = _("the double-{set} set takes at most {max} players, not {players}")
        return text.format(set=v["set"], max=v["max"], players=v["players"])
    if code == "teams_players":
        return _("teams need 4, 6 or 8 players, not {players}").format(players=v["players"])
    if code == "no_first_seat":
        return _("first seat {seat} does not exist with {players} players").format(
            seat=v["seat"], players=v["players"]
        )
    if code == "not_enough_tiles":
        return _(
            "{players} hands of {each} tiles need {need} tiles, "
            "but the double-{set} set has only {available} to deal"
        ).format(**{k: v[k] for k in ("players", "each", "need", "set", "available")})
    if code == "fast_table":
        return _("the fast hand-size table is for the double-9 set only")
    if code == "too_many_rounds":
        return _(
            "a double-{set} game with descending engines has at most {max} rounds, not {rounds}"
        ).format(set=v["set"], max=v["max"], rounds=v["rounds"])
    if code == "not_on_off":
        return _("option {option} takes on or off, not {value}").format(
            option=v["option"], value=quote(v["value"])
        )
    if code == "unknown_preset":
        return _("unknown preset {preset}; choose one of {choices}").format(
            preset=quote(v["preset"]), choices=", ".join(v["choices"])
        )
    if code == "unknown_option":
        return _("unknown option {option}; options are {choices}").format(
            option=quote(v["option"]), choices=", ".join(v["choices"])
        )
    if code == "bad_choice":
        return _("option {option} takes {choices}, not {value}").format(
            option=v["option"], choices=join_or([value_text(c) for c in v["choices"]]), value=value_text(v["value"])
        )
    if code == "too_small":
        return _("option {option} must be at least {min}, not {value}").format(
            option=v["option"], min=v["min"], value=value_text(v["value"])
        )
    if code == "not_whole_number":
        return _("option {option} takes a whole number, not {value}").format(
            option=v["option"], value=value_text(v["value"])
        )
    if code == "invalid" and "option" in v:  # any other value an option refuses
        if v["option"] not in RuleSet.model_fields:
            return _("{field} is not a known setting").format(field=quote(v["option"]))
        return _("{field} is not valid").format(field=_field_text((v["option"],)))
    return None



def _field_text(loc: Sequence[Any]) -> str:
    """Where a pydantic error is, in words: "option hand_size", "the name of seat 2"."""
    parts = [p for p in loc if p != "rules"]
    if len(parts) >= 3 and parts[0] == "seats" and isinstance(parts[1], int):
        if parts[2] == "name":
            return _("the name of seat {n}").format(n=parts[1] + 1)
        if parts[2] == "kind":
            return _("the player of seat {n}").format(n=parts[1] + 1)
    if parts == ["seed"]:
        return _("the seed")
    if parts == ["seats"]:
        return _("the seats")
    if len(parts) == 1 and parts[0] in RuleSet.model_fields:
        return _("option {option}").format(option=parts[0])
    if not parts:
        return _("the settings")
    return quote(".".join(str(p) for p in parts))  # as the file writes it


def _literal_choices(loc: Sequence[Any]) -> tuple[Any, ...]:
    """The values a Literal field takes (RuleSet's options, a seat's player kind)."""
    parts = [p for p in loc if p != "rules"]
    if len(parts) == 1 and parts[0] in RuleSet.model_fields:
        return get_args(RuleSet.model_fields[parts[0]].annotation)
    if parts and parts[-1] == "kind":
        return LEVELS
    return ()


def validation_error_text(exc: Any) -> str:
    """A pydantic ``ValidationError`` as one line in the player's language, from the first
    error's ``type``, ``loc``, ``ctx`` and ``input``: never pydantic's English message."""
    return " ".join(_validation_error_text(exc).split())


def _validation_error_text(exc: Any) -> str:
    try:
        err = exc.errors()[0]
    except (TypeError, IndexError, AttributeError):
        return _("a value is not valid")
    ctx = err.get("ctx") or {}
    inner = ctx.get("error")
    if isinstance(inner, RuleSetError):
        return ruleset_error_text(inner)
    loc = tuple(err.get("loc") or ())
    kind = err.get("type", "")
    field = _field_text(loc)
    value = err.get("input")
    shown = value_text(value) if isinstance(value, (str, int, float, bool)) else None
    if kind in ("literal_error", "enum"):
        choices = _literal_choices(loc)
        if choices and shown is not None:
            return _("{field} takes {choices}, not {value}").format(
                field=field, choices=join_or([value_text(c) for c in choices]), value=shown
            )
        if choices:
            return _("{field} takes {choices}").format(field=field, choices=join_or([value_text(c) for c in choices]))
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        limit = next((ctx[k] for k in ("ge", "gt", "le", "lt") if k in ctx), None)
        text = {
            "greater_than_equal": _("{field} must be at least {limit}"),
            "greater_than": _("{field} must be more than {limit}"),
            "less_than_equal": _("{field} must be at most {limit}"),
            "less_than": _("{field} must be less than {limit}"),
        }[kind]
        line = text.format(field=field, limit=limit)
        return line if shown is None else _("{error}, not {value}").format(error=line, value=shown)
    elif kind in ("int_parsing", "int_type", "int_from_float", "int_parsing_size"):
        if shown is None:
            return _("{field} takes a whole number").format(field=field)
        return _("{field} takes a whole number, not {value}").format(field=field, value=shown)
    elif kind in ("bool_parsing", "bool_type"):
        return _("{field} takes on or off").format(field=field)
    elif kind == "string_too_short" and ctx.get("min_length") == 1:
        return _("{field} cannot be empty").format(field=field)
    elif kind == "string_too_short":
        n = ctx.get("min_length", 0)
        return ngettext(
            "{field} needs at least {n} character", "{field} needs at least {n} characters", n
        ).format(field=field, n=n)
    elif kind == "name_unprintable":
        return _("{field} cannot hold the control character {char}").format(field=field, char=ctx.get("char", "?"))
    elif kind == "name_invisible":
        return _("{field} needs a visible character").format(field=field)
    elif kind == "string_too_long":
        n = ctx.get("max_length", 0)
        return ngettext(
            "{field} takes at most {n} character", "{field} takes at most {n} characters", n
        ).format(field=field, n=n)
    elif kind in ("string_type", "string_unicode"):
        return _("{field} must be text").format(field=field)
    elif kind == "missing":
        return _("{field} is missing").format(field=field)
    elif kind == "extra_forbidden":
        return _("{field} is not a known setting").format(field=field)
    elif kind in ("too_short", "too_long"):
        return _("{field} has the wrong number of entries").format(field=field)
    return _("{field} is not valid").format(field=field)

