"""Game records: any game, finished or not, as a plain JSON-able dict, and its strict replay.

The format is documented field by field in ``docs/record-format.md``. In short::

    {"format": "mexitrain-record", "version": 1, "seed": 7,
     "rules": {...RuleSet.model_dump()...},
     "players": [{"name": "Ann", "kind": "human"}, ...],
     "rounds": [{"engine": 12, "first_seat": 1, "hands": [...], "boneyard": [...],
                 "events": [...], "end": "domino", "scores": [...]}, ...],
     "totals": [...], "winners": [...]}

``replay`` trusts nothing in a record: it re-derives every deal from the seed and the rules,
applies each event through :func:`~mexitrain.rules.engine.apply` and compares every declared
result with the one the replay produces. The first thing that does not hold raises
:class:`RecordError`: a code (:data:`RECORD_CODES`) and values saying where it is (``round``,
``event``, ``field``) and what is wrong; :func:`mexitrain.text.files.record_error_text` says it
in the player's language ("round 3, move 17: ...").

This module is pure: no files, no clocks. ``load_record``/``dump_record`` work on strings
(the strict JSON reader and the line layout are :mod:`.record_json`); reading and writing
files is :mod:`mexitrain.storage.records`' job.

Why one module of over 500 lines: building a record, checking its structure and replaying it
are one format, and every :class:`RecordError` code is raised here, where
``docs/record-format.md``'s table of error codes is checked against it (a test reads this file).
Split, the codes of one format would be spread over several files for no gain in reading.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from .actions import MEXICAN, SIMPLE_ACTIONS, Action, Play
from .engine import apply, new_game
from .errors import CodedError, IllegalAction
from .record_json import StrictJSONError, layout, strict_json
from .ruleset import RuleSet, RuleSetError, rule_set_error
from .seeds import SEED_MAX, check_seal, keyed, seal
from .state import Event, GameState, RoundResult

FORMAT = "mexitrain-record"
VERSION = 1

_TOP_KEYS = ("format", "version", "seed", "rules", "players", "rounds", "totals", "winners")
_TOP_OPTIONAL = ("meta", "seal", "seed_chosen")
_ROUND_KEYS = ("engine", "first_seat", "hands", "boneyard", "events")
_ROUND_OPTIONAL = ("engine_seat", "end", "scores")
_EVENT_KEYS = {
    "play": (("seat", "type", "tile", "train"), ("branch",)),
    "draw": (("seat", "type", "tile"), ()),
    "mark": (("seat", "type"), ()),
    "pass": (("seat", "type"), ()),
    "skip": (("seat", "type"), ()),
}
_ENDS = ("domino", "stuck", "blocked")


#: Every code a :class:`RecordError` may carry (docs/record-format.md, "Error codes").
RECORD_CODES: tuple[str, ...] = (
    "not_json", "truncated", "not_utf8", "not_strict_json", "too_deep", "not_writable", "not_a_record",
    "other_version", "not_an_object", "event_not_an_object", "not_a_list", "wrong_length", "missing_keys",
    "unknown_keys", "empty_string", "bad_player", "player_count", "not_whole_number", "out_of_range",
    "not_a_tile", "not_in_set", "tile_order", "bad_rules", "no_rounds", "too_many_rounds",
    "unfinished_round", "end_and_scores", "bad_end", "event_type", "bad_train", "wrong_engine",
    "wrong_seat", "wrong_deal", "wrong_turn", "wrong_draw", "illegal_move", "round_over",
    "round_not_over", "round_over_unsaid", "wrong_result", "game_ended", "game_truncated",
    "wrong_totals", "wrong_winners", "wrong_seal",
)


class RecordError(CodedError, ValueError):
    """A record that is not a well-formed, legal, self-consistent mexitrain game.

    As with :class:`~mexitrain.rules.errors.IllegalAction`, it is data: ``code`` (one of
    :data:`RECORD_CODES`) and ``values``, which interfaces say in the player's language;
    ``str(exc)`` is the developer line (``wrong_turn (round=2, event=1, turn=0, seat=1)``).
    Where it is, when known: ``round`` and ``event`` (counted from 1) and ``field`` (the key
    path as the file writes it: ``hands[2]``, ``rules.set``); ``path``, the file, is added by
    :mod:`mexitrain.storage.records`. JSON types are named by :func:`json_type` (``"list"``,
    ``"null"``...), tiles are ``(a, b)`` tuples; ``error``/``reason`` hold the underlying
    RuleSetError/IllegalAction/StrictJSONError.
    """


class _Where:
    """Where a problem is: round and event (from 1) and the field's key path."""

    def __init__(self, field: str | None = None, round: int | None = None, event: int | None = None) -> None:
        self.field, self.round, self.event = field, round, event

    def __truediv__(self, key: str | int) -> _Where:
        if isinstance(key, int):
            field = f"{self.field}[{key}]"
        else:
            field = key if self.field is None else f"{self.field}.{key}"
        return _Where(field, self.round, self.event)

    def values(self) -> dict[str, Any]:
        return {k: v for k, v in (("round", self.round), ("event", self.event), ("field", self.field)) if v is not None}


def _error(code: str, where: _Where | None = None, **values: Any) -> RecordError:
    return RecordError(code, **(where.values() if where is not None else {}), **values)


# ---------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------
def _player(p: Any) -> dict[str, str]:
    if isinstance(p, Mapping):
        name, kind = p.get("name"), p.get("kind", "human")
    elif isinstance(p, tuple | list) and len(p) == 2:
        name, kind = p
    elif hasattr(p, "name") and hasattr(p, "kind"):  # a SeatConfig, or anything like it
        name, kind = p.name, p.kind
    else:
        raise RecordError("bad_player", found=type(p).__name__)
    if not isinstance(name, str) or not name or not isinstance(kind, str) or not kind:
        raise RecordError("bad_player", name=name, kind=kind)
    return {"name": name, "kind": kind}


def _tile(t: tuple[int, int]) -> list[int]:
    return [t[0], t[1]]


def _event(e: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": e.seat, "type": e.type}
    if e.type in ("play", "draw"):
        out["tile"] = _tile(e.tile)
    if e.type == "play":
        out["train"] = e.train
        if e.branch:
            out["branch"] = e.branch
    return out


def _round(
    rules: RuleSet,
    engine: int,
    engine_seat: int | None,
    first_seat: int,
    hands: Iterable[Iterable[tuple[int, int]]],
    boneyard: Iterable[tuple[int, int]],
    events: Iterable[Event],
) -> dict[str, Any]:
    out: dict[str, Any] = {"engine": engine}
    if rules.engine == "highest_double":
        out["engine_seat"] = engine_seat
    out["first_seat"] = first_seat
    out["hands"] = [[_tile(t) for t in h] for h in hands]
    out["boneyard"] = [_tile(t) for t in boneyard]
    out["events"] = [_event(e) for e in events]
    return out


def _totals(state: GameState) -> list[int]:
    return [sum(r.scores[s] for r in state.results) for s in range(state.players)]


def to_record(
    state: GameState, players: Iterable[Any], meta: Mapping[str, Any] | None = None, seed_chosen: bool = False
) -> dict:
    """The record of ``state``'s game so far: every finished round, then (unless the game is
    over) the round in progress, without ``end``/``scores``.

    ``players`` gives each seat's name and kind: ``SeatConfig`` objects, ``{"name", "kind"}``
    mappings or ``(name, kind)`` pairs. ``meta`` is an optional free-form JSON object
    (dates, app version...) that replay ignores. A sealed seed's record holds its ``seal``
    (replay checks it); ``seed_chosen`` says the seed was typed on purpose.
    """
    seats = [_player(p) for p in players]
    if len(seats) != state.players:
        raise RecordError("player_count", players=state.players, given=len(seats))
    rules = state.rules
    rounds = []
    for r in state.results:
        d = _round(rules, r.engine, r.engine_seat, r.first_seat, r.hands, r.boneyard, r.events)
        d["end"] = r.end
        d["scores"] = list(r.scores)
        rounds.append(d)
    if not state.over:
        rounds.append(
            _round(
                rules,
                state.engine,
                state.engine_seat,
                state.first_seat,
                state.dealt_hands,
                state.dealt_boneyard,
                state.events,
            )
        )
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "seed": state.seed,
        "rules": rules.model_dump(),
        "players": seats,
        "rounds": rounds,
        "totals": _totals(state),
        "winners": list(state.winners),
    }
    if keyed(state.seed):
        record["seal"] = seal(state.seed)
    if seed_chosen:
        record["seed_chosen"] = True
    if meta is not None:
        record["meta"] = dict(meta)
    return record


# ---------------------------------------------------------------------------------------
# Structure checks (before any replay)
# ---------------------------------------------------------------------------------------
def json_type(value: Any) -> str:
    """What a JSON value is, as a code: "null", "boolean", "number", "string", "list", "object"."""
    if value is None:
        return "null"
    return {
        bool: "boolean", int: "number", float: "number", str: "string", list: "list", dict: "object",
    }.get(type(value), type(value).__name__)


def json_type_name(value: Any) -> str:
    """What a JSON value is, in English words ("a number", "a list", "null"), for the developer
    lines of :mod:`mexitrain.storage`; players read :func:`json_type` through :mod:`mexitrain.text`."""
    kind = json_type(value)
    return {
        "null": "null", "boolean": "a boolean", "number": "a number", "string": "a string",
        "list": "a list", "object": "an object",
    }.get(kind, kind)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _want_int(value: Any, where: _Where, low: int | None = None, high: int | None = None) -> int:
    if not _is_int(value):
        raise _error("not_whole_number", where, found=json_type(value))
    if low is not None and value < low or high is not None and value > high:
        raise _error("out_of_range", where, min=low, max=high, value=value)
    return value


def _want_list(value: Any, where: _Where, length: int | None = None) -> list:
    if not isinstance(value, list):
        raise _error("not_a_list", where, found=json_type(value))
    if length is not None and len(value) != length:
        raise _error("wrong_length", where, length=length, count=len(value))
    return value


def _want_keys(obj: Any, where: _Where, required: Iterable[str], optional: Iterable[str] = ()) -> dict:
    if not isinstance(obj, dict):
        raise _error("not_an_object", where, found=json_type(obj))
    required = tuple(required)
    missing = [k for k in required if k not in obj]
    if missing:
        raise _error("missing_keys", where, keys=tuple(missing))
    allowed = set(required) | set(optional)
    extra = [k for k in obj if k not in allowed]
    if extra:
        raise _error("unknown_keys", where, keys=tuple(extra))
    return obj


def _want_tile(value: Any, where: _Where, top: int) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
        raise _error("not_a_tile", where, found=json_type(value))
    a, b = value
    if not (0 <= a <= top and 0 <= b <= top):
        raise _error("not_in_set", where, tile=(a, b), set=top)
    return (a, b)


def _want_tiles(value: Any, where: _Where, top: int, canonical: bool) -> tuple[tuple[int, int], ...]:
    out = []
    for i, t in enumerate(_want_list(value, where)):
        a, b = _want_tile(t, where / i, top)
        if canonical and a > b:
            raise _error("tile_order", where / i, tile=(b, a))
        out.append((a, b))
    return tuple(out)


def _check_event(e: Any, where: _Where, players: int, top: int) -> Action:
    """The action an event stands for; refuses a malformed event."""
    if not isinstance(e, dict):
        raise _error("event_not_an_object", where, found=json_type(e))
    kind = e.get("type")
    if not isinstance(kind, str) or kind not in _EVENT_KEYS:
        raise _error(
            "event_type", where, choices=tuple(_EVENT_KEYS), value=kind if isinstance(kind, str) else None
        )
    required, optional = _EVENT_KEYS[kind]
    _want_keys(e, where, required, optional)
    _want_int(e["seat"], where / "seat", 0, players - 1)
    if kind == "draw":
        _want_tile(e["tile"], where / "tile", top)
    if kind in SIMPLE_ACTIONS:
        return SIMPLE_ACTIONS[kind]
    tile = _want_tile(e["tile"], where / "tile", top)
    train = e["train"]
    if train != MEXICAN:
        if not _is_int(train):
            raise _error("bad_train", where / "train", found=json_type(train))
        _want_int(train, where / "train", 0, players - 1)
    branch = 0
    if "branch" in e:
        branch = _want_int(e["branch"], where / "branch", 1)
    return Play.model_construct(tile=tile, train=train, branch=branch)


def _check_rules(value: Any) -> RuleSet:
    if not isinstance(value, dict):
        raise _error("not_an_object", _Where("rules"), found=json_type(value))
    try:
        return RuleSet.model_validate(value, strict=True)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise RecordError(
            "bad_rules", field=f"rules.{loc}" if loc else "rules", error=rule_set_error(err)
        ) from None


def _check_header(record: Any) -> None:
    if not isinstance(record, dict):
        raise RecordError("not_a_record", found=json_type(record))
    fmt_ = record.get("format")
    if fmt_ != FORMAT:
        if isinstance(fmt_, str):
            raise RecordError("not_a_record", format=fmt_)
        raise RecordError("not_a_record", found=json_type(fmt_))
    version = record.get("version")
    if not _is_int(version):
        raise RecordError("not_whole_number", field="version", found=json_type(version))
    if version != VERSION:
        raise RecordError("other_version", version=version, reads=VERSION)


def check_record(record: Any) -> tuple[RuleSet, list[list[Action]]]:
    """Check a record's shape and types (no replay): the rule set and each round's actions."""
    _check_header(record)
    _want_keys(record, _Where(), _TOP_KEYS, _TOP_OPTIONAL)
    _want_int(record["seed"], _Where("seed"), 0, SEED_MAX)
    if "seal" in record and not (isinstance(record["seal"], str) and check_seal(record["seed"], record["seal"])):
        raise _error("wrong_seal", _Where("seal"), seed=record["seed"])
    rules = _check_rules(record["rules"])
    players = _want_list(record["players"], _Where("players"))
    for i, p in enumerate(players):
        where = _Where("players") / i
        _want_keys(p, where, ("name", "kind"))
        for key in ("name", "kind"):
            if not isinstance(p[key], str) or not p[key]:
                raise _error("empty_string", where / key, found=json_type(p[key]))
    n = len(players)
    try:
        rules.check_players(n)
    except RuleSetError as exc:
        raise RecordError("bad_rules", field="players", error=exc) from None
    top = rules.set
    rounds = _want_list(record["rounds"], _Where("rounds"))
    if not rounds:
        raise RecordError("no_rounds", field="rounds")
    if len(rounds) > rules.round_count:
        raise RecordError("too_many_rounds", field="rounds", count=len(rounds), max=rules.round_count)
    actions: list[list[Action]] = []
    for k, rd in enumerate(rounds, start=1):
        where = _Where(round=k)
        optional = _ROUND_OPTIONAL if rules.engine == "highest_double" else ("end", "scores")
        required = _ROUND_KEYS + (("engine_seat",) if rules.engine == "highest_double" else ())
        _want_keys(rd, where, required, optional)
        _want_int(rd["engine"], where / "engine", 0, top)
        if "engine_seat" in rd:
            _want_int(rd["engine_seat"], where / "engine_seat", 0, n - 1)
        _want_int(rd["first_seat"], where / "first_seat", 0, n - 1)
        hands = _want_list(rd["hands"], where / "hands", n)
        for s, h in enumerate(hands):
            _want_tiles(h, where / "hands" / s, top, canonical=True)
        _want_tiles(rd["boneyard"], where / "boneyard", top, canonical=True)
        if ("end" in rd) != ("scores" in rd):
            raise _error("end_and_scores", where)
        if "end" in rd:
            if rd["end"] not in _ENDS:
                raise _error(
                    "bad_end", where / "end", choices=_ENDS, value=rd["end"] if isinstance(rd["end"], str) else None
                )
            for s, v in enumerate(_want_list(rd["scores"], where / "scores", n)):
                _want_int(v, where / "scores" / s, 0)
        elif k != len(rounds):
            raise _error("unfinished_round", where)
        events = _want_list(rd["events"], where / "events")
        actions.append(
            [_check_event(e, _Where(round=k, event=j), n, top) for j, e in enumerate(events, start=1)]
        )
    for key in ("totals",):
        for s, v in enumerate(_want_list(record[key], _Where(key), n)):
            _want_int(v, _Where(key) / s, 0)
    winners = _want_list(record["winners"], _Where("winners"))
    for i, w in enumerate(winners):
        _want_int(w, _Where("winners") / i, 0, n - 1)
    if "meta" in record and not isinstance(record["meta"], dict):
        raise _error("not_an_object", _Where("meta"), found=json_type(record["meta"]))
    return rules, actions


# ---------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------
def _check_deal(state: GameState, k: int, rd: dict) -> None:
    """Round ``k``'s recorded deal against the one the seed and rules give."""
    if len(state.results) >= k:  # the round ended before any event could be played
        r: RoundResult | GameState = state.results[k - 1]
        hands, boneyard = r.hands, r.boneyard
    else:
        r = state
        hands, boneyard = state.dealt_hands, state.dealt_boneyard
    where = _Where(round=k)
    if rd["engine"] != r.engine:
        raise _error("wrong_engine", where / "engine", engine=r.engine, found=rd["engine"])
    if "engine_seat" in rd and rd["engine_seat"] != r.engine_seat:
        raise _error("wrong_seat", where / "engine_seat", seat=r.engine_seat, found=rd["engine_seat"])
    if rd["first_seat"] != r.first_seat:
        raise _error("wrong_seat", where / "first_seat", seat=r.first_seat, found=rd["first_seat"])
    for s, (want, got) in enumerate(zip(hands, rd["hands"], strict=True)):
        if [list(t) for t in want] != got:
            raise _error(
                "wrong_deal", where / "hands" / s, seed=state.seed, expected=tuple(map(tuple, want)),
                found=tuple(tuple(t) for t in got),
            )
    if [list(t) for t in boneyard] != rd["boneyard"]:
        raise _error(
            "wrong_deal", where / "boneyard", seed=state.seed, expected=tuple(map(tuple, boneyard)),
            found=tuple(tuple(t) for t in rd["boneyard"]),
        )


def _check_result(state: GameState, k: int, rd: dict) -> None:
    r = state.results[k - 1]
    if rd["end"] != r.end or list(r.scores) != rd["scores"]:
        raise RecordError(
            "wrong_result", round=k, end=rd["end"], scores=tuple(rd["scores"]), replay_end=r.end,
            replay_scores=tuple(r.scores),
        )


def replay(record: Any) -> GameState:
    """Rebuild a recorded game by applying its events; the snapshot after the last one.

    Raises :class:`RecordError` (a code and its values) for the first thing that is wrong:
    format, version, a missing key or a wrong type, a deal that is not the seed's, an
    illegal or out-of-turn event, a declared result that differs from the replay's, or a
    record that stops short of where its game is.
    """
    rules, actions = check_record(record)
    rounds = record["rounds"]
    n = len(record["players"])
    try:
        state = new_game(rules, players=n, seed=record["seed"])
    except RuleSetError as exc:  # pragma: no cover - check_players already passed
        raise RecordError("bad_rules", field="players", error=exc) from None
    for k, (rd, acts) in enumerate(zip(rounds, actions, strict=True), start=1):
        if state.over and len(state.results) < k:
            raise RecordError("game_ended", round=k, after=len(state.results))
        _check_deal(state, k, rd)
        for j, (e, action) in enumerate(zip(rd["events"], acts, strict=True), start=1):
            where = _Where(None, k, j)
            if len(state.results) >= k:
                raise _error("round_over", where, end=state.results[k - 1].end)
            if e["seat"] != state.turn:
                raise _error("wrong_turn", where, turn=state.turn, seat=e["seat"])
            try:
                after = apply(state, action)
            except IllegalAction as exc:
                raise _error("illegal_move", where, seat=e["seat"], reason=exc) from None
            if e["type"] == "draw":
                got = state.boneyard[0]
                if tuple(e["tile"]) != got:
                    raise _error("wrong_draw", where, tile=got, found=tuple(e["tile"]))
            state = after
        finished = len(state.results) >= k
        if "end" in rd:
            if not finished:
                raise RecordError("round_not_over", round=k, events=len(acts), end=rd["end"])
            _check_result(state, k, rd)
        elif finished:
            raise RecordError("round_over_unsaid", round=k, end=state.results[k - 1].end)
    if not state.over and len(state.results) >= len(rounds):
        raise RecordError("game_truncated", missing=state.round)
    totals = _totals(state)
    if record["totals"] != totals:
        raise RecordError(
            "wrong_totals", field="totals", recorded=tuple(record["totals"]), replayed=tuple(totals)
        )
    if record["winners"] != list(state.winners):
        raise RecordError(
            "wrong_winners", field="winners", recorded=tuple(record["winners"]), replayed=tuple(state.winners)
        )
    return state


# ---------------------------------------------------------------------------------------
# JSON text
# ---------------------------------------------------------------------------------------
def load_record(text: str | bytes) -> dict:
    """Parse a record's JSON text strictly (no NaN, no duplicate keys) and check its header.

    The full check is :func:`replay`'s; this refuses what is not a mexitrain record at all.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError("not_utf8", offset=exc.start) from None
    try:
        record = strict_json(text)
    except StrictJSONError as exc:
        raise RecordError("not_strict_json", error=exc) from None
    except json.JSONDecodeError as exc:
        cut = exc.pos >= len(text.rstrip())
        raise RecordError("truncated" if cut else "not_json", line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise RecordError("too_deep") from None
    except ValueError:  # e.g. an integer with thousands of digits
        raise RecordError("not_json") from None
    _check_header(record)
    return record


def dump_record(record: dict) -> str:
    """A record as JSON text: one event, hand or boneyard per line, ending in a newline."""
    try:
        text = layout(record)
    except (TypeError, ValueError) as exc:
        raise RecordError("not_writable", found=type(exc).__name__) from None
    return text + "\n"


__all__ = [
    "FORMAT",
    "RECORD_CODES",
    "VERSION",
    "RecordError",
    "check_record",
    "dump_record",
    "json_type",
    "json_type_name",
    "load_record",
    "replay",
    "to_record",
]
