"""The table's wire protocol (docs/protocol.md): every message, its JSON form, its limits.

One JSON object a WebSocket text message, with a ``type``. Every message is a frozen pydantic
model that refuses unknown fields; numbers and strings are bounded by the models, names pass
the same checks as a seat's name (:mod:`mexitrain.text.names`). A problem is data, a code and
its values (:class:`ProtocolError`, :class:`Error`); the sentences are in
:mod:`mexitrain.text.net`.

A client reads every server message with :func:`decode_server`, which refuses what a hostile
host could harm a guest with (issue 37): every string as a typed name is checked, names have a
visible character, the values of an error or a refusal are those of its code, and a view
holds only what its own rules could give, its fields agreeing (players, seats, tiles, hands,
trains, rounds, events, scores); :func:`check_follows` says whether a message fits the ones
before it. A refused message is ``ProtocolError`` ``bad_server_message`` (docs/threat-model/).

>>> msg = decode_client('{"type": "intent", "seq": 3, "action": {"type": "draw"}}')
>>> msg.seq, msg.action.type
(3, 'draw')
>>> decode_server(encode(Refused(seq=3, code="boneyard_empty", values={}))).code
'boneyard_empty'
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ..game_setup import AI_LEVELS
from ..rules import Action, OnlookerView, RuleSet, SeatView
from ..rules.actions import SIMPLE_ACTIONS
from ..rules.errors import FIELD_CODES, IllegalAction
from ..rules.ruleset import HAND_SIZES, RuleSetError
from ..rules.seeds import SEED_MAX
from ..rules.state import RoundEnd
from ..rules.tiles import full_set
from ..text.chat import CHAT_MAX, REACTIONS
from ..text.names import NAME_MAX, codepoint, first_unprintable, name_fault, visible

#: This protocol's version; a Hello with another one gets ``Error("version", server_version=...)``.
#: 2: the view carries the fair deal (seal, seed_chosen, revealed_seed); 3: the view carries
#: the core's facts (legal, forced, doubles, knock) and a mark event its train (issue 33); 4: the
#: turn timer (StartGame.turn_time, Update.turn_time, turn_left, timed) and the rematch (Rematch,
#: Update.rematch, Lobby.turn_time and absent; issue 35 items 3 and 5); 5: watchers (Watch, Watching,
#: Onlooker, Lobby.watchers, the error watchers_full and the refusal watching; issue 35 item 2), chat
#: and removing a person (Say, Chat, Remove; issue 35 item 4); 6: the finished game's record
#: (GameRecord), sent with the last Update, so that every guest may review and keep it
PROTOCOL_VERSION = 6
#: The most watchers one table takes at once (:class:`Watch`); one more is told ``watchers_full``.
MAX_WATCHERS = 20
#: The turn timer's bounds in whole seconds (``mexitrain host --turn-time``, StartGame.turn_time).
TURN_TIME_MIN = 10
TURN_TIME_MAX = 600
#: The largest client message the server reads, in bytes (larger: ``Error("too_big")``, closed).
MAX_CLIENT_MESSAGE = 16 * 1024
#: The largest server message a client reads, in bytes (a view of a long game stays far below).
MAX_SERVER_MESSAGE = 1024 * 1024
#: The table code's letters: capitals that cannot be mistaken for a digit or each other (no I, O).
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 6
#: The most seats a table may have (the rules allow up to 99 players on a big set).
MAX_SEATS = 99
#: The longest seat token: :func:`secrets.token_urlsafe` of 24 bytes is 32 characters.
TOKEN_MAX = 64

#: Error codes (``Error.code``), each worded by :func:`mexitrain.text.net.error_text`.
ERROR_CODES: tuple[str, ...] = (
    "bad_json",  # not JSON, or not a JSON object
    "unknown_type",  # a ``type`` this version does not know (values: type)
    "bad_message",  # a known type with missing, extra or out-of-bounds fields (values: type, field)
    "too_big",  # larger than MAX_CLIENT_MESSAGE (values: limit)
    "version",  # another protocol version (values: version; server_version set)
    "hello_first",  # a message before Hello, or a second Hello
    "wrong_code",  # not this table's code
    "bad_token",  # a token no seat of this table has
    "bad_name",  # a name a seat may not have (values: char, or length)
    "table_full",  # no open seat left (or the game started) and no token
    "replaced",  # the same seat joined again from another connection
    "not_host",  # StartGame or HandOver from a client without host rights
    "started",  # StartGame when the game runs already
    "bad_seat",  # HandOver of a seat that does not exist, or whose person is not away (values: seat)
    "flood",  # too many messages too fast: disconnected
    "too_slow",  # this client read too slowly and fell too far behind: disconnected
    "too_many",  # too many connections from this address, or to this seat, too fast: closed; retry later
    "server_closing",  # the server restarts: the client reconnects (not sent by mexitrain host)
    "table_closed",  # the host closed the table on purpose (values: resumable): the client stops
    "not_over",  # Rematch while the game is not over
    "watchers_full",  # a Watch when the table has MAX_WATCHERS watchers already (values: limit)
    "internal",  # the server failed on this message (a bug); the table goes on
    "removed",  # the host removed this person (fatal), or their token was a removed seat's
    "bad_remove",  # Remove of a seat that is not another person's (values: seat)
)

#: Refusal codes of the table itself, beside the rules' (:data:`mexitrain.rules.errors.CODES`).
REFUSAL_CODES: tuple[str, ...] = (
    "not_started",  # an intent before the host started the game
    "not_your_turn",  # another seat is to move (values: turn)
    "no_seat",  # this client has no seat (the host of a headless table)
    "results_unseen",  # the next round waits for people to see the results (values: seats)
    "watching",  # an intent from a watcher: someone who watches makes no move
    "chat_empty",  # a Say whose text is nothing once normalised
    "chat_too_long",  # a Say longer than CHAT_MAX characters once normalised (values: limit)
    "chat_too_fast",  # over the seat's chat limit (values: lines, seconds, wait)
)


class ProtocolError(Exception):
    """A message that cannot be read: a code of :data:`ERROR_CODES` and its values."""

    def __init__(self, code: str, **values: Any) -> None:
        self.code = code
        self.values = values
        super().__init__(f"{code} {values}" if values else code)


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
Seq = Annotated[int, Field(ge=0, le=2**53)]
Level = Literal["random", "greedy", "planner", "expert"]
assert set(Level.__args__) == set(AI_LEVELS)  # type: ignore[attr-defined]
Token = Annotated[str, Field(min_length=8, max_length=TOKEN_MAX, pattern=r"^[A-Za-z0-9_-]+$")]
Values = Annotated[dict[str, JsonValue], Field(max_length=16)]
Code = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z_]+$")]
#: What a rematch does with a person who left: their seat goes to a computer player (until they
#: come back), or the new game waits until they are back and accept.
Absent = Literal["computer", "wait"]
TurnTime = Annotated[int, Field(ge=TURN_TIME_MIN, le=TURN_TIME_MAX)]


def _check_name(name: str) -> str:
    fault = name_fault(name)
    if fault is not None:
        code, values = fault
        raise PydanticCustomError(f"name_{code}", "a name a seat cannot have", values)  # type: ignore[arg-type]
    return name


Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX)]


# -- client -> server -------------------------------------------------------------------------


class Hello(_Message):
    """The first message: join table ``code`` as ``name``; ``token`` takes back a seat."""

    type: Literal["hello"] = "hello"
    version: int = Field(PROTOCOL_VERSION, ge=0, le=1_000_000)
    code: str = Field(max_length=32)
    name: Name
    token: Token | None = None
    lang: str = Field("en", max_length=16, pattern=r"^[a-z]{2,3}([_-][A-Za-z0-9]{2,8})?$")

    _name = field_validator("name")(_check_name)


class Intent(_Message):
    """An action for the client's seat; ``seq`` (the client's count) comes back in Refused."""

    type: Literal["intent"] = "intent"
    seq: Seq
    action: Action


class StartGame(_Message):
    """Host only: start now; the open seats become computer players of ``level``.
    ``turn_time``: the turn timer in seconds (0: none; None, or left out: the table's own,
    ``mexitrain host --turn-time``); ``absent``: what a rematch does with a person who left
    (None: the table's own, "computer" unless the host said otherwise)."""

    type: Literal["start"] = "start"
    level: Level = "planner"
    turn_time: int | None = Field(None, ge=0, le=TURN_TIME_MAX, strict=True)
    absent: Absent | None = None

    @field_validator("turn_time")
    @classmethod
    def _turn_time(cls, value: int | None) -> int | None:
        if value is not None and 0 < value < TURN_TIME_MIN:
            raise PydanticCustomError("greater_than_equal", "a turn timer of 0 or at least {ge}", {"ge": TURN_TIME_MIN})
        return value


class HandOver(_Message):
    """Host only: ``seat``, whose person is away, is played by a computer of ``level`` until
    that person comes back with their token."""

    type: Literal["hand_over"] = "hand_over"
    seat: Seat
    level: Level = "planner"


class Bye(_Message):
    """The client leaves for good: its seat stays its own (it may come back with its token)."""

    type: Literal["bye"] = "bye"


class Seen(_Message):
    """This seat's person has seen the results of round ``round`` (Enter on them): the next
    round waits until every person at the table has (``Update.waiting``)."""

    type: Literal["seen"] = "seen"
    round: int = Field(ge=1, le=1_000_000)


class Rematch(_Message):
    """Once the game is over: this seat's person accepts a new game with the same seats and
    rules (``Update.rematch`` lists who has); it starts when every person at the table has.
    ``absent`` (the host only; None: unchanged) says what happens to a person who left: their
    seat goes to a computer player, or the new game waits for them."""

    type: Literal["rematch"] = "rematch"
    absent: Absent | None = None


class Watch(_Message):
    """The first message of someone who watches table ``code`` (instead of a Hello): no seat,
    no token; ``name`` is optional (the server does not show it to anyone). The watcher is
    sent :class:`Watching`, the lobby and an :class:`Onlooker` at every change; any intent
    it sends is refused (``watching``)."""

    type: Literal["watch"] = "watch"
    version: int = Field(PROTOCOL_VERSION, ge=0, le=1_000_000)
    code: str = Field(max_length=32)
    name: Name | None = None
    lang: str = Field("en", max_length=16, pattern=r"^[a-z]{2,3}([_-][A-Za-z0-9]{2,8})?$")

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else _check_name(value)



# -- chat and removing a person (version 5, issue 35 item 4) -------------------------------------

#: The longest text a Say may carry on the wire, before the server normalises it (longer:
#: ``bad_message``); the line kept is at most :data:`CHAT_MAX` characters once normalised.
CHAT_WIRE_MAX = 1000
#: The chat lines a table keeps (the oldest go first): a person who comes back is sent them.
CHAT_KEEP = 200
#: Each seat's chat limit: at most this many lines in this many seconds (more: ``chat_too_fast``).
CHAT_LINES = 5
CHAT_SECONDS = 10
#: A quick reaction, said by its code (each reader sees it in their own language).
Reaction = Literal["nice", "oops", "knock", "thanks", "good_game"]
assert set(Reaction.__args__) == set(REACTIONS)  # type: ignore[attr-defined]


class Say(_Message):
    """A chat line from this client's seat: ``text`` (plain text; the server normalises it and
    refuses it empty or over :data:`CHAT_MAX` characters) or a quick ``reaction``, exactly one.
    ``seq`` (the client's count) comes back in a Refused."""

    type: Literal["say"] = "say"
    seq: Seq
    text: str | None = Field(None, max_length=CHAT_WIRE_MAX)
    reaction: Reaction | None = None

    @model_validator(mode="after")
    def _one(self) -> Say:
        if (self.text is None) == (self.reaction is None):
            raise PydanticCustomError("one_of", "a text or a reaction, exactly one")
        return self


class Remove(_Message):
    """Host only: the person of ``seat`` (not the host's own) leaves the table for good: their
    seat goes to a computer player of ``level``, their token stops working, their connection
    is closed with ``removed``."""

    type: Literal["remove"] = "remove"
    seat: Seat
    level: Level = "planner"



ClientMessage = Annotated[
    Hello | Intent | StartGame | HandOver | Bye | Seen | Rematch | Watch | Say | Remove, Field(discriminator="type")
]
CLIENT_ADAPTER: TypeAdapter[
    Hello | Intent | StartGame | HandOver | Bye | Seen | Rematch | Watch | Say | Remove
] = TypeAdapter(ClientMessage)


# -- server -> client -------------------------------------------------------------------------


class Welcome(_Message):
    """Joined: ``seat`` (None for a host without a seat), the ``token`` to keep for coming
    back, whether this client has host rights, and the table's code."""

    type: Literal["welcome"] = "welcome"
    version: int = PROTOCOL_VERSION
    seat: Seat | None
    token: Token
    host: bool
    table: str = Field(max_length=32)


class LobbySeat(_Message):
    seat: Seat
    name: Annotated[str, Field(max_length=NAME_MAX)]
    kind: Literal["person", "computer", "open"]
    level: Level | None = None
    connected: bool = False
    host: bool = False  # the seat of the table's host (who starts the game)


class Lobby(_Message):
    """Who sits where; sent to everyone whenever it changes (before and during the game)."""

    type: Literal["lobby"] = "lobby"
    seats: tuple[LobbySeat, ...] = Field(max_length=MAX_SEATS)
    rules: RuleSet
    started: bool
    #: the turn timer in seconds (None: none) and what a rematch does with a person who left
    turn_time: TurnTime | None = None
    absent: Absent = "computer"
    #: how many watch the table (:class:`Watch`), at most :data:`MAX_WATCHERS`
    watchers: int = Field(0, ge=0, le=MAX_WATCHERS)


class Away(_Message):
    """A seat whose person dropped ``seconds`` ago (its seat waits for them)."""

    seat: Seat
    name: Annotated[str, Field(max_length=NAME_MAX)]
    seconds: int = Field(ge=0, le=10**9)


class _AtTheTable(_Message):
    """What an :class:`Update` and an :class:`Onlooker` carry beside their view."""

    seq: Seq
    names: tuple[Annotated[str, Field(max_length=NAME_MAX)], ...] = Field(max_length=MAX_SEATS)
    kinds: tuple[Literal["person", "computer"], ...] = Field(max_length=MAX_SEATS)
    away: tuple[Away, ...] = Field((), max_length=MAX_SEATS)
    #: the seats whose people have not seen the last round's results yet: the next round
    #: waits for them (no move is taken until they have, :class:`Seen`)
    waiting: tuple[Seat, ...] = Field((), max_length=MAX_SEATS)
    #: the turn timer (None: none), and the whole seconds left on the current turn (None: no
    #: timer, the game is over, the round waits for results, or a computer is to play): the
    #: client counts down from it
    turn_time: TurnTime | None = None
    turn_left: int | None = Field(None, ge=0, le=TURN_TIME_MAX)
    #: the seat whose move made this update (action ``seq``) was played by the turn timer
    #: (that seat's expert tip), else None
    timed: Seat | None = None
    #: once the game is over: the seats whose people have accepted a rematch so far
    rematch: tuple[Seat, ...] = Field((), max_length=MAX_SEATS)


class Update(_AtTheTable):
    """The game after action number ``seq`` as the receiving seat sees it (``view`` is
    ``rules.view(state, seat)`` for that seat only), with each seat's name and kind
    ("person" or "computer") and who is away."""

    type: Literal["update"] = "update"
    view: SeatView


class Watching(_Message):
    """A watcher's welcome (the answer to :class:`Watch`): the table's code; no seat, no token."""

    type: Literal["watching"] = "watching"
    version: int = PROTOCOL_VERSION
    table: str = Field(max_length=32)

    @property
    def seat(self) -> None:
        """No seat (read alike with a Welcome's)."""
        return None

    @property
    def host(self) -> bool:
        return False


class Onlooker(_AtTheTable):
    """The game after action number ``seq`` as a watcher sees it: ``view`` is
    ``rules.onlooker(state)`` (never a hand, never the boneyard, no draw's tile); the other
    fields are an :class:`Update`'s."""

    type: Literal["onlooker"] = "onlooker"
    view: OnlookerView


class Refused(_Message):
    """The intent ``seq`` was refused: a rules code (IllegalAction's, with its values as
    JSON: tiles are lists) or one of :data:`REFUSAL_CODES`. The connection stays open."""

    type: Literal["refused"] = "refused"
    seq: Seq
    code: Code
    values: Values = {}


class Error(_Message):
    """A problem with the connection or a message (:data:`ERROR_CODES`). ``fatal``: the
    server closes the connection after it; ``server_version`` is set for ``version``."""

    type: Literal["error"] = "error"
    code: Code
    values: Values = {}
    fatal: bool = False
    server_version: int | None = None


class ChatLine(_Message):
    """One line said at the table: its number ``n`` (the table's count, one more each line),
    the speaker's seat and name, and its ``text`` (normalised, at most :data:`CHAT_MAX`
    characters) or its ``reaction``."""

    n: Seq
    seat: Seat
    name: Annotated[str, Field(max_length=NAME_MAX)]
    text: str | None = Field(None, max_length=CHAT_MAX)
    reaction: Reaction | None = None


class Chat(_Message):
    """Chat lines, oldest first: a new line as it is said (to everyone with a seat, and the
    host), or, right after the Welcome, the last ones the table keeps (``recent``: they replace
    what the client had)."""

    type: Literal["chat"] = "chat"
    lines: tuple[ChatLine, ...] = Field(max_length=CHAT_KEEP)
    recent: bool = False



class GameRecord(_Message):
    """The finished game's record (docs/record-format.md, as ``mexitrain/rules/record.py``
    writes it), as JSON text: every hand and every move, sent to each seat and watcher once
    the game is over (right before its last Update), so that a guest may review the game and
    keep it. A guest replays it (strictly, :func:`mexitrain.rules.record.replay`) and takes it
    only when it is the game its views showed: the seed they revealed, the same rules, seats
    and round scores."""

    type: Literal["record"] = "record"
    record: str = Field(min_length=2, max_length=MAX_SERVER_MESSAGE)


ServerMessageType = Welcome | Lobby | Update | Refused | Error | Watching | Onlooker | Chat | GameRecord
ServerMessage = Annotated[ServerMessageType, Field(discriminator="type")]
SERVER_ADAPTER: TypeAdapter[ServerMessageType] = TypeAdapter(ServerMessage)

_CLIENT_TYPES = {"hello", "intent", "start", "hand_over", "bye", "seen", "rematch", "watch", "say", "remove"}
_SERVER_TYPES = {"welcome", "lobby", "update", "refused", "error", "watching", "onlooker", "chat", "record"}


# -- encoding ---------------------------------------------------------------------------------


def encode(msg: BaseModel) -> str:
    """A message as its JSON text (compact, UTF-8 safe)."""
    return msg.model_dump_json()


def _size(text: str | bytes) -> int:
    if isinstance(text, bytes):
        return len(text)
    if len(text) * 4 <= MAX_CLIENT_MESSAGE:
        return len(text)  # at most 4 bytes a character: below any cap either way
    return len(text.encode("utf-8", "surrogatepass"))


def _load(text: str | bytes, limit: int, types: set[str]) -> dict:
    if _size(text) > limit:
        raise ProtocolError("too_big", limit=limit)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in types:
        raise ProtocolError("unknown_type", type=kind[:40] if isinstance(kind, str) else None)
    return data


def _field(exc: ValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return ""
    return ".".join(str(p) for p in errors[0]["loc"][1:])[:80]  # [0] is the type


def decode_client(
    text: str | bytes,
) -> Hello | Intent | StartGame | HandOver | Bye | Seen | Rematch | Watch | Say | Remove:
    """A client message, or :class:`ProtocolError` (bad_json, unknown_type, bad_message,
    too_big, version). A Hello of another version is ``version`` whatever its other fields."""
    if _size(text) <= MAX_CLIENT_MESSAGE:
        try:  # the fast path: JSON parsed and checked in one go
            msg = CLIENT_ADAPTER.validate_json(text)
        except ValidationError:
            pass  # below: which problem it is
        else:
            if not (isinstance(msg, Hello | Watch) and msg.version != PROTOCOL_VERSION):
                return msg
    data = _load(text, MAX_CLIENT_MESSAGE, _CLIENT_TYPES)
    if data["type"] in ("hello", "watch"):
        version = data.get("version")
        if isinstance(version, int) and not isinstance(version, bool) and version != PROTOCOL_VERSION:
            raise ProtocolError("version", version=max(-1, min(version, 1_000_000)))
    try:
        return CLIENT_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError("bad_message", type=data["type"], field=_field(exc)) from None


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


def refusal(msg: Refused) -> IllegalAction:
    """The :class:`IllegalAction` a Refused carries, with its values as the rules have them
    (JSON lists back to tuples), for :func:`mexitrain.text.net.refused_text`."""
    return IllegalAction(msg.code, **_tuples(dict(msg.values)))


def refused_of(seq: int, exc: IllegalAction) -> Refused:
    """The Refused message for a local IllegalAction."""
    return Refused(seq=seq, code=exc.code, values=_lists(dict(exc.values)))


def _lists(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_lists(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _lists(v) for k, v in value.items()}
    return value


# -- table codes ------------------------------------------------------------------------------


def new_code(rng: random.Random) -> str:
    """A fresh table code: 6 letters of :data:`CODE_ALPHABET` (about 2^27 codes)."""
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str | None:
    """``text`` as a table code (any case; spaces and dashes ignored), or None if it is not one."""
    if not isinstance(text, str) or len(text) > 32:
        return None
    code = "".join(ch for ch in text.upper() if ch not in " -")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


# == what a guest refuses: a host cannot harm its guests (issue #37) ===========================
#
# :func:`decode_server` gives a client only a message its screens can show: every string
# passes the check of a typed name (no control character, C0 or C1, DEL, bidi control, line or
# paragraph separator, lone surrogate: :func:`mexitrain.text.names.unprintable`), names have a
# visible character, codes are ``[a-z_]`` words, an Error's or a Refused's values are those
# its code has (checked, bounded; the others dropped), and every count and number is one the
# message's own rules could give (players, seats, tiles within the set, hands, trains, lines,
# rounds, events, scores), its fields agreeing with each other. Anything else is
# ``ProtocolError(BAD_SERVER_MESSAGE, type=..., field=..., reason=...)``; the hostile value
# itself is never in it (a character at most, as its code point).

#: The code of a server message a guest refuses (:func:`decode_server`, :func:`check_follows`):
#: a client's own code, never sent on the wire. Its values: ``type`` (the message's type, or
#: None), ``field`` (where: ``view.players``, ``names.2``; "" for the whole message),
#: ``reason`` (one of :data:`BAD_SERVER_REASONS`), and ``char`` (``unprintable``) or ``limit``
#: (``too_big``). :func:`mexitrain.text.net.error_text` words it in one line.
BAD_SERVER_MESSAGE = "bad_server_message"

#: Why a server message is refused (``values["reason"]`` of :data:`BAD_SERVER_MESSAGE`).
BAD_SERVER_REASONS: tuple[str, ...] = (
    "too_big",  # over MAX_SERVER_MESSAGE bytes (values: limit)
    "bad_json",  # not JSON, or not a JSON object
    "unknown_type",  # a type this version does not know (the type is not repeated)
    "missing",  # a field is missing
    "unknown_field",  # a field this version does not know
    "bad_field",  # a field of the wrong type, or a value it cannot take
    "out_of_range",  # a number, length or count beyond what the rules allow
    "unprintable",  # a string holding a character no name may hold (values: char, "U+001B")
    "invisible",  # a name with no visible character (empty, spaces, zero-width characters)
    "inconsistent",  # the field disagrees with the rest of the message or its rules
    "out_of_order",  # a message that cannot come yet (an update before the welcome)
)

#: The most players any rule set deals to (docs/rules.md §2: 13 on a double-18 set).
MAX_PLAYERS = max(rows[-1][0] for rows in HAND_SIZES.values())
#: The most tiles of any set (double-18: 190).
MAX_TILES = len(full_set(18))
#: The most rounds of a rule set a guest accepts (``rounds`` has no bound of the rules when
#: the engine is the highest double; a descending engine allows at most set + 1).
MAX_ROUNDS = 1000
#: The longest string value of an Error or a Refused (a field's path, a message type).
MAX_TEXT = 80
#: The largest whole number in an Error's or a Refused's values, either sign (JSON's safe range).
MAX_VALUE = 2**53
#: Server messages up to this size are parsed and checked by pydantic in one go; a larger one
#: is parsed first and its lists counted (:func:`_precheck`) before any model is built.
QUICK_SERVER_MESSAGE = 64 * 1024


def max_lines(top: int, branching: bool = True) -> int:
    """The most lines a train of a double-``top`` set can have: its trunk, and with
    ``branching_doubles`` two more for each double (§8)."""
    return 1 + 2 * (top + 1) if branching else 1


def max_events(tiles: int, players: int) -> int:
    """The most events one round of ``players`` with a set of ``tiles`` can have, with room to
    spare: each tile drawn and played once, a marker or a pass after each draw, at most
    ``players`` turns without a play between two plays once the boneyard is empty, and a skip
    (swan drive) or a pass (delayed first turn) beside each."""
    return 2 * (3 * tiles + players * (tiles + 1)) + 2 * players


def max_score(top: int) -> int:
    """A seat's largest score in one round: every pip of a double-``top`` set (§7)."""
    return top * (top + 1) * (top + 2) // 2


#: The most events any round can have (a double-18 set, 13 players).
MAX_EVENTS = max_events(MAX_TILES, MAX_PLAYERS)
#: The most legal actions a view may list: each tile of a hand, laid either way (wild blanks)
#: on each line of each train, and the other actions.
MAX_LEGAL = 2 * MAX_TILES * (MAX_PLAYERS + 1) * max_lines(18) + 8
#: The most open doubles a view may list: a line of each train can end in one.
MAX_DOUBLES = (MAX_PLAYERS + 1) * max_lines(18)

_WORD = re.compile(r"[a-z_]{1,40}")
_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")
_LOC = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,40}")
_CHAR = re.compile(r"U\+[0-9A-F]{4,6}")
#: Keys no values may have: a values dict is spread into calls that take these names.
_RESERVED_KEYS = frozenset({"code", "self"})
_ROUND_ENDS = frozenset(get_args(RoundEnd))


_SEAL = re.compile(r"[0-9a-f]{64}")


class _Refuse(Exception):
    """A server message refused at ``field`` for ``reason`` (raised inside the checks)."""

    def __init__(self, field: str, reason: str, **extra: Any) -> None:
        super().__init__(field, reason)
        self.field, self.reason, self.extra = field, reason, extra

    def error(self, kind: str | None) -> ProtocolError:
        return bad_server_message(kind, self.field, self.reason, **self.extra)


def bad_server_message(kind: str | None, field: str, reason: str, **extra: Any) -> ProtocolError:
    """The :class:`ProtocolError` of a refused server message of type ``kind``."""
    return ProtocolError(BAD_SERVER_MESSAGE, type=kind, field=field, reason=reason, **extra)


# -- strings --------------------------------------------------------------------------------------


def _text(value: Any, field: str, limit: int = MAX_TEXT) -> None:
    if not isinstance(value, str):
        raise _Refuse(field, "bad_field")
    bad = first_unprintable(value)
    if bad is not None:
        raise _Refuse(field, "unprintable", char=codepoint(bad))
    if len(value) > limit:
        raise _Refuse(field, "out_of_range")
    if value and not any(visible(ch) for ch in value):
        raise _Refuse(field, "invisible")  # nothing to see: never a word of the protocol


def _name(value: str, field: str) -> None:
    fault = name_fault(value)
    if fault is None:
        return
    code, values = fault
    if code == "unprintable":
        raise _Refuse(field, "unprintable", char=values["char"])
    raise _Refuse(field, "out_of_range" if code == "too_long" else "invisible")


# -- the values of an Error or a Refused ------------------------------------------------------------


def _int(value: Any, lo: int, hi: int) -> bool:
    return type(value) is int and lo <= value <= hi


def _pair(value: Any, canonical: bool) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and _int(value[0], 0, 18)
        and _int(value[1], 0, 18)
        and (not canonical or value[0] <= value[1])
    )


def _train_ref(value: Any) -> bool:
    return value == "mexican" or _int(value, 0, MAX_PLAYERS - 1)


def _kind(test) -> Any:
    def check(value: Any, field: str) -> None:
        if isinstance(value, str):
            _text(value, field)  # a hostile string is said as such
        if not test(value):
            raise _Refuse(field, "bad_field")

    return check


_TILE = _kind(lambda v: _pair(v, True))  # a tile in a hand: [low, high]
_LAID = _kind(lambda v: _pair(v, False))  # a tile as laid: [half against the end, new end]
_TRAIN = _kind(_train_ref)  # a seat's train, or "mexican"
_NEXT = _kind(lambda v: v is None or _train_ref(v))
_REF = _kind(lambda v: v == "mexican" or _int(v, -MAX_VALUE, MAX_VALUE))  # any train an intent named
_EXAMPLE = _kind(lambda v: isinstance(v, list) and len(v) == 2 and _pair(v[0], False) and _train_ref(v[1]))
_PIP = _kind(lambda v: _int(v, 0, 18))
_BRANCH = _kind(lambda v: _int(v, 0, MAX_VALUE))
_SEAT = _kind(lambda v: _int(v, 0, MAX_SEATS - 1))
_SEATS = _kind(lambda v: isinstance(v, list | tuple) and len(v) <= MAX_SEATS and all(_int(s, 0, MAX_SEATS - 1) for s in v))
_COUNT = _kind(lambda v: _int(v, 0, MAX_VALUE))
_VERSION = _kind(lambda v: _int(v, -1, 1_000_000))
_BOOL = _kind(lambda v: type(v) is bool)
_SUB_CODE = _kind(lambda v: isinstance(v, str) and _WORD.fullmatch(v) is not None)
_CODEPOINT = _kind(lambda v: isinstance(v, str) and _CHAR.fullmatch(v) is not None)
_REASON = _kind(lambda v: isinstance(v, str) and v in BAD_SERVER_REASONS)
_ACTION_TYPE = _kind(lambda v: isinstance(v, str) and v in ("play", *SIMPLE_ACTIONS))  # the move must_play answers
_FIELD_CODE = _kind(lambda v: isinstance(v, str) and v in FIELD_CODES)  # bad_action's


def _text_or_none(value: Any, field: str) -> None:
    if value is not None:
        _text(value, field)


#: code -> {key: (check, required)}: the values each refusal code of the rules
#: (:data:`mexitrain.rules.errors.CODES`, raised by ``rules/core/refusals.py``) and of the
#: table (:data:`REFUSAL_CODES`) carries; :func:`mexitrain.text.refusals.reason_text` reads
#: the required ones without a default.
REFUSED_VALUES: dict[str, dict[str, tuple[Any, bool]]] = {
    "game_over": {},
    "not_in_hand": {"tile": (_TILE, True)},
    "must_play_drawn": {"drawn": (_TILE, True)},
    "double_follow_up": {"tile": (_TILE, True)},
    "private_train": {"train": (_TRAIN, True)},
    "blocked_by_double": {"double": (_LAID, True), "train": (_TRAIN, True)},
    "must_satisfy": {"double": (_LAID, True), "train": (_TRAIN, True)},
    "chain_own_train": {"train": (_TRAIN, False)},
    "first_turn_own_train": {"train": (_TRAIN, False)},
    "swan_next": {"next": (_NEXT, False), "train": (_TRAIN, False)},
    "no_train": {"ref": (_REF, True)},
    "no_branch": {"train": (_TRAIN, True), "branch": (_BRANCH, True)},
    "does_not_fit": {"tile": (_LAID, True), "train": (_TRAIN, True), "end": (_PIP, True)},
    "wrong_half": {"tile": (_LAID, True), "train": (_TRAIN, True), "end": (_PIP, True)},
    "must_play": {"example": (_EXAMPLE, True), "action": (_ACTION_TYPE, False)},
    "bad_action": {"field": (_FIELD_CODE, True)},
    "already_drawn": {},
    "boneyard_empty": {},
    "cannot_mark_now": {"why": (_SUB_CODE, True), "example": (_EXAMPLE, False)},
    "cannot_pass_now": {"why": (_SUB_CODE, True), "example": (_EXAMPLE, False)},
    "cannot_skip_now": {},
    "draw_not_allowed": {"why": (_SUB_CODE, True), "example": (_EXAMPLE, False)},
    "not_started": {},
    "not_your_turn": {"turn": (_SEAT, False)},
    "no_seat": {},
    "results_unseen": {"seats": (_SEATS, False)},
    "watching": {},
    "chat_empty": {},
    "chat_too_long": {"limit": (_COUNT, False)},
    "chat_too_fast": {"lines": (_COUNT, False), "seconds": (_COUNT, False), "wait": (_COUNT, False)},
}

#: code -> {key: (check, required)}: the values each error code (:data:`ERROR_CODES`, and
#: :data:`BAD_SERVER_MESSAGE`) carries; :func:`mexitrain.text.net.error_text` reads them all
#: with a default. A code without an entry keeps no values.
ERROR_VALUES: dict[str, dict[str, tuple[Any, bool]]] = {
    "unknown_type": {"type": (_text_or_none, False)},
    "bad_message": {"type": (_text_or_none, False), "field": (_text, False)},
    "too_big": {"limit": (_COUNT, False)},
    "version": {"version": (_VERSION, False)},
    "bad_name": {"char": (_CODEPOINT, False), "length": (_COUNT, False)},
    "bad_seat": {"seat": (_SEAT, False)},
    "table_closed": {"resumable": (_BOOL, False)},
    "watchers_full": {"limit": (_COUNT, False)},
    "bad_remove": {"seat": (_SEAT, False)},
    BAD_SERVER_MESSAGE: {
        "type": (_text_or_none, False),
        "field": (_text, False),
        "reason": (_REASON, False),
        "char": (_CODEPOINT, False),
        "limit": (_COUNT, False),
    },
}


def _plain(value: Any, field: str, depth: int = 0) -> None:
    """Any value a values dict may hold at all: null, a boolean, a whole number within
    :data:`MAX_VALUE`, a string :func:`_text` takes, or a short list of these (two deep)."""
    if value is None or type(value) is bool:
        return
    if type(value) is int:
        if abs(value) > MAX_VALUE:
            raise _Refuse(field, "out_of_range")
        return
    if isinstance(value, str):
        _text(value, field)
        return
    if isinstance(value, list) and depth < 2:
        if len(value) > 8:
            raise _Refuse(field, "out_of_range")
        for item in value:
            _plain(item, field, depth + 1)
        return
    raise _Refuse(field, "bad_field")


def _check_values(code: str, values: Mapping[str, Any], table: Mapping[str, Mapping[str, tuple[Any, bool]]]) -> dict[str, Any]:
    """``values`` of an Error's or a Refused's ``code`` as a guest keeps them: every key a
    word (never ``code`` nor ``self``), every value plain (:func:`_plain`), the keys ``table``
    gives ``code`` checked (required ones present), the others dropped. Raises
    :class:`_Refuse`."""
    for key, value in values.items():
        if not isinstance(key, str) or _KEY.fullmatch(key) is None or key in _RESERVED_KEYS:
            raise _Refuse("values", "unknown_field")  # the key is not repeated
        _plain(value, f"values.{key}")
    spec = table.get(code, {})
    kept: dict[str, Any] = {}
    for key, (check, required) in spec.items():
        if key not in values:
            if required:
                raise _Refuse(f"values.{key}", "missing")
            continue
        check(values[key], f"values.{key}")
        kept[key] = values[key]
    if kept.get("why") == "drawn_playable" and "example" in spec and "example" not in kept:
        raise _Refuse("values.example", "missing")  # the sentence shows the example
    return kept


# -- the game as a seat sees it ---------------------------------------------------------------------


def _seat(value: Any, players: int, field: str, optional: bool = False) -> None:
    if value is None and optional:
        return
    if not (type(value) is int and 0 <= value < players):
        raise _Refuse(field, "out_of_range")


def _check_rules(rules: RuleSet, field: str = "rules") -> None:
    """Bounds the rules leave open (:class:`RuleSet` checks the rest): at most
    :data:`MAX_ROUNDS` rounds, a hand within the set, a first seat within the most players."""
    if rules.rounds is not None and rules.rounds > MAX_ROUNDS:
        raise _Refuse(f"{field}.rounds", "out_of_range")
    if rules.hand_size is not None and rules.hand_size > MAX_TILES:
        raise _Refuse(f"{field}.hand_size", "out_of_range")
    if rules.first_seat >= MAX_PLAYERS:
        raise _Refuse(f"{field}.first_seat", "out_of_range")


def _events(events: tuple[Any, ...], players: int, top: int, lines: int, limit: int, field: str) -> None:
    if len(events) > limit:
        raise _Refuse(field, "out_of_range")
    for k, e in enumerate(events):
        _seat(e.seat, players, f"{field}.{k}.seat")
        if e.tile is not None and max(e.tile) > top:
            raise _Refuse(f"{field}.{k}.tile", "out_of_range")
        if e.train is not None and e.train != "mexican":
            _seat(e.train, players, f"{field}.{k}.train")
        if not 0 <= e.branch < lines:
            raise _Refuse(f"{field}.{k}.branch", "out_of_range")
        # a play names its tile and train, a mark its train (whose marker); a draw may show
        # its tile; nothing else has either
        play = e.type == "play"
        if (
            (play and (e.train is None or e.tile is None))
            or (e.train is not None and e.type not in ("play", "mark"))
            or (e.tile is not None and e.type not in ("play", "draw"))
        ):
            raise _Refuse(f"{field}.{k}", "inconsistent")
        if e.type != "play" and e.branch:
            raise _Refuse(f"{field}.{k}.branch", "inconsistent")


def _check_facts(v: SeatView, n: int, top: int, field: str) -> None:
    """The core's facts of a view (issue 33) agree with the view: moves only on this seat's
    turn, each a tile of its hand on a line that exists; the forced move one of them and the
    only one; each open double at the end of its line; the knock a seat with one tile."""
    legal = getattr(v, "legal", ())  # an onlooker's view has no moves, no hand
    if legal and not v.my_turn:
        raise _Refuse(f"{field}.legal", "inconsistent")
    hand = {(a, b) if a <= b else (b, a) for a, b in getattr(v, "hand", ())}
    for k, a in enumerate(legal):
        if a.type != "play":
            continue
        ti = n if a.train == "mexican" else a.train
        if not (isinstance(ti, int) and 0 <= ti <= n and 0 <= a.branch < len(v.trains[ti].lines)):
            raise _Refuse(f"{field}.legal.{k}", "out_of_range")
        x, y = a.tile
        if ((x, y) if x <= y else (y, x)) not in hand:
            raise _Refuse(f"{field}.legal.{k}.tile", "inconsistent")
    forced = getattr(v, "forced", None)
    if forced is not None and (legal != (forced,) or forced.type not in ("mark", "pass")):
        raise _Refuse(f"{field}.forced", "inconsistent")
    for k, d in enumerate(v.doubles):
        if not (0 <= d.train <= n and 0 <= d.line < len(v.trains[d.train].lines) and 0 <= d.pips <= top):
            raise _Refuse(f"{field}.doubles.{k}", "out_of_range")
        line = v.trains[d.train].lines[d.line]
        if not line or line[-1] != (d.pips, d.pips) or (d.blocks and (d.owed or not d.satisfiable)):
            raise _Refuse(f"{field}.doubles.{k}", "inconsistent")
    if v.knock is not None:
        _seat(v.knock, n, f"{field}.knock")
        if v.hand_sizes[v.knock] != 1:
            raise _Refuse(f"{field}.knock", "inconsistent")


def _check_view(v: SeatView | OnlookerView, field: str = "view") -> None:
    """Refuse (:class:`_Refuse`) a view its own rules could not give: a number of players
    the rules cannot deal, a seat, turn or starter out of range, per-seat lists of another
    length than the players (the trains one more), tiles outside the set or twice, more tiles
    than the set holds, a round beyond the rules' rounds, more events than a round can have,
    scores beyond a set's pips, results that are not the rounds played. An onlooker's view
    (:class:`OnlookerView`) is checked alike, less what it has not (a seat, hands, a drawn
    tile, moves), and no draw in it may show its tile."""
    watcher = isinstance(v, OnlookerView)
    rules = v.rules
    _check_rules(rules, f"{field}.rules")
    n = v.players
    if not (type(n) is int and 2 <= n <= rules.max_players):
        raise _Refuse(f"{field}.players", "out_of_range")
    try:
        rules.check_players(n)
    except RuleSetError:
        raise _Refuse(f"{field}.players", "inconsistent") from None
    top = rules.set
    tiles = len(full_set(top))
    over = v.phase == "game_over"
    lines = max_lines(top, rules.branching_doubles)
    for name in ("first_seat", "turn") if watcher else ("seat", "first_seat", "turn"):
        _seat(getattr(v, name), n, f"{field}.{name}")
    for name in ("engine_seat", "mexican_starter"):
        _seat(getattr(v, name), n, f"{field}.{name}", optional=True)
    if not 1 <= v.round <= rules.round_count:
        raise _Refuse(f"{field}.round", "out_of_range")
    if not 0 <= v.engine <= top:
        raise _Refuse(f"{field}.engine", "out_of_range")
    for name in ("hand_sizes", "chain_right", "failed") if watcher else ("hands", "hand_sizes", "chain_right", "failed"):
        if len(getattr(v, name)) != n:
            raise _Refuse(f"{field}.{name}", "inconsistent")
    if len(v.trains) != n + 1:
        raise _Refuse(f"{field}.trains", "inconsistent")
    # the hands: this seat's own, the others' only with open hands, each as long as its size
    hands = (None,) * n if watcher else v.hands
    if watcher:
        if any(not 0 <= size <= tiles for size in v.hand_sizes):
            raise _Refuse(f"{field}.hand_sizes", "out_of_range")
        for key in ("events", "last_round_events"):  # an onlooker sees no draw's tile
            if any(e.type == "draw" and e.tile is not None for e in getattr(v, key)):
                raise _Refuse(f"{field}.{key}", "inconsistent")
    elif v.hands[v.seat] != v.hand:
        raise _Refuse(f"{field}.hand", "inconsistent")
    for i, hand in enumerate(() if watcher else hands):
        if (hand is None) == (rules.open_hands or i == v.seat):
            raise _Refuse(f"{field}.hands.{i}", "inconsistent")
        if not 0 <= v.hand_sizes[i] <= tiles:
            raise _Refuse(f"{field}.hand_sizes.{i}", "out_of_range")
        if hand is not None and len(hand) != v.hand_sizes[i]:
            raise _Refuse(f"{field}.hand_sizes.{i}", "inconsistent")
    if not 0 <= v.boneyard_size <= tiles:
        raise _Refuse(f"{field}.boneyard_size", "out_of_range")
    # every tile seen once at most, within the set, the engine aside
    seen = {(v.engine, v.engine)}

    def place(t: tuple[int, int], where: str) -> None:
        a, b = t
        if a > top or b > top:
            raise _Refuse(where, "out_of_range")
        key = (a, b) if a <= b else (b, a)
        if key in seen:
            raise _Refuse(where, "inconsistent")
        seen.add(key)

    for i, hand in enumerate(hands):
        for t in hand or ():
            place(t, f"{field}.hands.{i}")
    on_trains = 0
    for i, train in enumerate(v.trains):
        where = f"{field}.trains.{i}"
        if train.owner != (i if i < n else None):
            raise _Refuse(f"{where}.owner", "inconsistent")
        if not 1 <= len(train.lines) <= lines:
            raise _Refuse(f"{where}.lines", "out_of_range")
        if len(train.starts) != len(train.lines):
            raise _Refuse(f"{where}.starts", "inconsistent")
        if any(not 0 <= s <= top for s in train.starts):
            raise _Refuse(f"{where}.starts", "out_of_range")
        for line in train.lines:
            for t in line:
                place(t, f"{where}.lines")
            on_trains += len(line)
    # every tile is somewhere: in a hand, the boneyard or on a train (the engine aside)
    if sum(v.hand_sizes) + v.boneyard_size + on_trains != tiles - 1:
        raise _Refuse(f"{field}.boneyard_size", "inconsistent")
    if any(train.starts[0] != v.engine for train in v.trains):
        raise _Refuse(f"{field}.trains", "inconsistent")  # every train starts from the engine
    if (v.mexican_starter is None) != (not v.trains[n].lines[0]):
        raise _Refuse(f"{field}.mexican_starter", "inconsistent")
    if (v.engine_seat is None) != (rules.engine == "descending"):
        raise _Refuse(f"{field}.engine_seat", "inconsistent")
    # the turn's state: what each phase owes, and only the variants that have it
    if v.double_line is not None:
        ti, li = v.double_line
        if not (0 <= ti <= n and 0 <= li < len(v.trains[ti].lines)):
            raise _Refuse(f"{field}.double_line", "out_of_range")
    following = v.phase in ("follow_up", "follow_up_drawn")
    if not over and following != (v.double_line is not None):
        raise _Refuse(f"{field}.double_line", "inconsistent")
    if following and v.double_line is not None:
        line = v.trains[v.double_line[0]].lines[v.double_line[1]]
        if not line or line[-1][0] != line[-1][1]:  # a follow-up is owed to a double
            raise _Refuse(f"{field}.double_line", "inconsistent")
    if not watcher and (v.drawn is not None) != (v.phase in ("drawn", "follow_up_drawn") and v.turn == v.seat):
        raise _Refuse(f"{field}.drawn", "inconsistent")
    if not watcher and v.drawn is not None and v.drawn not in v.hand:
        raise _Refuse(f"{field}.drawn", "inconsistent")
    if v.phase == "chain" and rules.opening == "normal":
        raise _Refuse(f"{field}.phase", "inconsistent")
    if any(v.chain_right) and rules.opening not in ("first_turn_chain", "delayed_first_turn"):
        raise _Refuse(f"{field}.chain_right", "inconsistent")
    if (v.phase == "swan" or v.swan_pos is not None) and not rules.swan_drive:
        raise _Refuse(f"{field}.swan_pos", "inconsistent")
    if v.swan_pos is not None and not -1 <= v.swan_pos <= n:
        raise _Refuse(f"{field}.swan_pos", "out_of_range")
    if v.opening_queue and rules.opening != "simultaneous":
        raise _Refuse(f"{field}.opening_queue", "inconsistent")
    if len(set(v.opening_queue)) != len(v.opening_queue):
        raise _Refuse(f"{field}.opening_queue", "inconsistent")
    for k, s in enumerate(v.opening_queue):
        _seat(s, n, f"{field}.opening_queue.{k}")
    if not 0 <= v.idle_turns <= n:
        raise _Refuse(f"{field}.idle_turns", "out_of_range")
    limit = max_events(tiles, n)
    _events(v.events, n, top, lines, limit, f"{field}.events")
    _check_facts(v, n, top, field)
    _events(v.last_round_events, n, top, lines, limit, f"{field}.last_round_events")
    # the rounds played: each one's result, numbered, with every seat's leftovers and score
    if len(v.results) != v.round - (0 if over else 1):
        raise _Refuse(f"{field}.results", "inconsistent")
    if v.last_round_events and not v.results:
        raise _Refuse(f"{field}.last_round_events", "inconsistent")
    most = max_score(top)
    for k, r in enumerate(v.results):
        where = f"{field}.results.{k}"
        if r.number != k + 1:
            raise _Refuse(f"{where}.number", "inconsistent")
        if not 0 <= r.engine <= top:
            raise _Refuse(f"{where}.engine", "out_of_range")
        _seat(r.first_seat, n, f"{where}.first_seat")
        _seat(r.engine_seat, n, f"{where}.engine_seat", optional=True)
        _seat(r.out_seat, n, f"{where}.out_seat", optional=True)
        if r.end not in _ROUND_ENDS:
            raise _Refuse(f"{where}.end", "bad_field")  # a string: never shown, never repeated
        if len(r.leftovers) != n or len(r.scores) != n:
            raise _Refuse(f"{where}.scores", "inconsistent")
        for hand in r.leftovers:
            if len(hand) > tiles or any(max(t) > top for t in hand):
                raise _Refuse(f"{where}.leftovers", "out_of_range")
        if any(not 0 <= s <= most for s in r.scores):
            raise _Refuse(f"{where}.scores", "out_of_range")
    # the winners: known once the game is over, each a seat, once
    if bool(v.winners) != over or len(set(v.winners)) != len(v.winners):
        raise _Refuse(f"{field}.winners", "inconsistent")
    for k, s in enumerate(v.winners):
        _seat(s, n, f"{field}.winners.{k}")
    # the fair deal (docs/fair-deal.md): a seal is SHA-256 in hex or nothing; the seed is
    # revealed at the end only, and within the seeds' range
    if v.seal and not _SEAL.fullmatch(v.seal):
        raise _Refuse(f"{field}.seal", "bad_field")
    if v.revealed_seed is not None and (not over or not 0 <= v.revealed_seed <= SEED_MAX):
        raise _Refuse(f"{field}.revealed_seed", "out_of_range" if over else "inconsistent")


# -- each message ------------------------------------------------------------------------------------

def check_server_message(msg: ServerMessageType) -> ServerMessageType:
    """``msg`` as a guest may take it (:func:`decode_server` calls this on every message it
    decodes): the same message, an Error's or a Refused's values trimmed to its code's
    (:func:`_check_values`); raises :class:`ProtocolError` (:data:`BAD_SERVER_MESSAGE`)."""
    try:
        return _check(msg)
    except _Refuse as refused:
        raise refused.error(msg.type) from None


def _check(msg: ServerMessageType) -> ServerMessageType:
    if isinstance(msg, Welcome):
        if msg.version != PROTOCOL_VERSION:
            raise _Refuse("version", "inconsistent")
        _text(msg.table, "table")
        if normalise_code(msg.table) != msg.table:
            raise _Refuse("table", "bad_field")
        _seat(msg.seat, MAX_PLAYERS, "seat", optional=True)
    elif isinstance(msg, Lobby):
        _check_rules(msg.rules)
        count = len(msg.seats)
        if not 2 <= count <= msg.rules.max_players:
            raise _Refuse("seats", "out_of_range")
        try:
            msg.rules.check_players(count)
        except RuleSetError:
            raise _Refuse("seats", "inconsistent") from None
        for i, s in enumerate(msg.seats):
            if s.seat != i:
                raise _Refuse(f"seats.{i}.seat", "inconsistent")
            if s.name or s.kind != "open":  # an open seat has no name yet
                _name(s.name, f"seats.{i}.name")
            if s.host and s.kind != "person":
                raise _Refuse(f"seats.{i}.host", "inconsistent")
        if sum(s.host for s in msg.seats) > 1:
            raise _Refuse("seats", "inconsistent")
    elif isinstance(msg, Watching):
        if msg.version != PROTOCOL_VERSION:
            raise _Refuse("version", "inconsistent")
        _text(msg.table, "table")
        if normalise_code(msg.table) != msg.table:
            raise _Refuse("table", "bad_field")
    elif isinstance(msg, Update | Onlooker):
        _check_view(msg.view)
        n = msg.view.players
        if len(msg.names) != n:
            raise _Refuse("names", "inconsistent")
        for i, name in enumerate(msg.names):
            _name(name, f"names.{i}")
        if len(msg.kinds) != n:
            raise _Refuse("kinds", "inconsistent")
        if len({a.seat for a in msg.away}) != len(msg.away):
            raise _Refuse("away", "inconsistent")
        for i, a in enumerate(msg.away):
            _seat(a.seat, n, f"away.{i}.seat")
            _name(a.name, f"away.{i}.name")
        if len(set(msg.waiting)) != len(msg.waiting) or (msg.waiting and not msg.view.results):
            raise _Refuse("waiting", "inconsistent")  # only after a round, each seat once
        for i, s in enumerate(msg.waiting):
            _seat(s, n, f"waiting.{i}")
        over = msg.view.phase == "game_over"
        if msg.turn_left is not None and (msg.turn_time is None or over or msg.turn_left > msg.turn_time):
            raise _Refuse("turn_left", "inconsistent")  # a clock only on a timed turn, within the timer
        if msg.turn_left is not None and msg.kinds[msg.view.turn] != "person":
            raise _Refuse("turn_left", "inconsistent")  # a computer's turn is not timed
        if msg.timed is not None:
            _seat(msg.timed, n, "timed")
            if msg.turn_time is None:
                raise _Refuse("timed", "inconsistent")  # played by a timer the table does not have
        if len(set(msg.rematch)) != len(msg.rematch) or (msg.rematch and not over):
            raise _Refuse("rematch", "inconsistent")  # after the game only, each seat once
        for i, s in enumerate(msg.rematch):
            _seat(s, n, f"rematch.{i}")
    elif isinstance(msg, Chat):
        _check_chat(msg)
    elif isinstance(msg, Refused):
        values = _check_values(msg.code, msg.values, REFUSED_VALUES)
        if values != msg.values:
            return msg.model_copy(update={"values": values})
    elif isinstance(msg, Error):
        if msg.server_version is not None and not 0 <= msg.server_version <= 1_000_000:
            raise _Refuse("server_version", "out_of_range")
        values = _check_values(msg.code, msg.values, ERROR_VALUES)
        if values != msg.values:
            return msg.model_copy(update={"values": values})
    return msg


def _check_chat(msg: Chat) -> None:
    """Chat lines as a guest takes them: numbered upwards, each speaker a seat and a name, each
    line a text with no character a name may not hold (never a control, never empty) or a
    reaction, exactly one."""
    last = -1
    for i, line in enumerate(msg.lines):
        if line.n <= last:
            raise _Refuse(f"lines.{i}.n", "inconsistent")
        last = line.n
        _seat(line.seat, MAX_PLAYERS, f"lines.{i}.seat")
        _name(line.name, f"lines.{i}.name")
        if (line.text is None) == (line.reaction is None):
            raise _Refuse(f"lines.{i}.text", "inconsistent")
        if line.text is not None:
            _text(line.text, f"lines.{i}.text", CHAT_MAX)


def check_follows(
    msg: ServerMessageType,
    *,
    welcome: Welcome | Watching | None = None,
    lobby: Lobby | None = None,
    update: Update | Onlooker | None = None,
) -> None:
    """Raise :class:`ProtocolError` (:data:`BAD_SERVER_MESSAGE`) when ``msg``, decoded, cannot
    come after what the client already has of this table: its ``welcome``, last ``lobby`` and
    last ``update`` (None: not yet). An update before the welcome (``out_of_order``), or for
    another seat than the welcome's; a lobby or an update whose players or rules are not those
    of the lobby and update before (a game keeps its seats, and so its number of hand sizes,
    names and trains, and its rules) are ``inconsistent``. The client calls it on each message
    after :func:`decode_server`; it changes nothing."""
    try:
        _follows(msg, welcome, lobby, update)
    except _Refuse as refused:
        raise refused.error(msg.type) from None


def _same_table(players: int, rules: RuleSet, lobby: Lobby | None, update: Update | Onlooker | None, field: str) -> None:
    if lobby is not None:
        if len(lobby.seats) != players:
            raise _Refuse(field + "players", "inconsistent")
        if lobby.rules != rules:
            raise _Refuse(field + "rules", "inconsistent")
    if update is not None:
        if update.view.players != players:
            raise _Refuse(field + "players", "inconsistent")
        if update.view.rules != rules:
            raise _Refuse(field + "rules", "inconsistent")


def _follows(
    msg: ServerMessageType, welcome: Welcome | Watching | None, lobby: Lobby | None, update: Update | Onlooker | None
) -> None:
    if isinstance(msg, Onlooker):  # a watcher's view, only to a watcher
        if welcome is None:
            raise _Refuse("", "out_of_order")
        if not isinstance(welcome, Watching) or isinstance(update, Update):
            raise _Refuse("view", "inconsistent")
        _same_table(msg.view.players, msg.view.rules, lobby, update, "view.")
    elif isinstance(msg, Update):
        if welcome is None:
            raise _Refuse("", "out_of_order")
        if isinstance(welcome, Watching) or isinstance(update, Onlooker):
            raise _Refuse("view", "inconsistent")  # a seat's view, never to a watcher
        if welcome.seat != msg.view.seat:
            raise _Refuse("view.seat", "inconsistent")
        if update is not None and update.view.seat != msg.view.seat:
            raise _Refuse("view.seat", "inconsistent")
        _same_table(msg.view.players, msg.view.rules, lobby, update, "view.")
    elif isinstance(msg, Lobby):
        _same_table(len(msg.seats), msg.rules, lobby, update, "")
    elif isinstance(msg, Welcome) and update is not None and (isinstance(update, Onlooker) or msg.seat != update.view.seat):
        raise _Refuse("seat", "inconsistent")  # coming back takes back the same seat
    elif isinstance(msg, Watching) and isinstance(update, Update):
        raise _Refuse("", "inconsistent")  # a seat does not become a watcher


# -- reading ------------------------------------------------------------------------------------------

#: pydantic's error types of a number, string or list beyond its bounds.
_RANGE_ERRORS = frozenset(
    {
        "greater_than", "greater_than_equal", "less_than", "less_than_equal", "too_long", "too_short",
        "string_too_long", "string_too_short", "int_parsing_size",
    }
)


def _where(loc: tuple[Any, ...]) -> str:
    """pydantic's location of an error as a field's path, with only the model's own names and
    the positions (a key of a values dict or a union's tag is left out, never repeated)."""
    parts = [str(p) for p in loc if type(p) is int or (isinstance(p, str) and _LOC.fullmatch(p))]
    return ".".join(parts)[:MAX_TEXT]


def _invalid(kind: str, exc: ValidationError) -> ProtocolError:
    errors = exc.errors(include_url=False, include_context=False, include_input=False)
    if not errors:
        return bad_server_message(kind, "", "bad_field")
    err = errors[0]
    t = err.get("type", "")
    reason = {"missing": "missing", "extra_forbidden": "unknown_field"}.get(t)
    if reason is None:
        reason = "out_of_range" if t in _RANGE_ERRORS else "bad_field"
    return bad_server_message(kind, _where(tuple(err.get("loc", ()))[1:]), reason)  # [0] is the type


def _count(raw: Any, field: str, limit: int, inner: int | None = None) -> None:
    """Refuse ``raw`` when it is a list longer than ``limit`` (or holding a list longer than
    ``inner``)."""
    if not isinstance(raw, list):
        return
    if len(raw) > limit:
        raise _Refuse(field, "out_of_range")
    if inner is not None and any(isinstance(item, list) and len(item) > inner for item in raw):
        raise _Refuse(field, "out_of_range")


def _precheck(data: dict) -> None:
    """The lists of a parsed server message counted against the largest the rules can give
    (:data:`MAX_PLAYERS`, :data:`MAX_TILES`, :data:`MAX_EVENTS`...) before pydantic builds a
    model of them; :func:`_check_view` checks them against the message's own rules after."""
    v = data.get("view")
    if data.get("type") not in ("update", "onlooker") or not isinstance(v, dict):
        return
    for key in ("hand_sizes", "chain_right", "failed", "opening_queue", "winners"):
        _count(v.get(key), f"view.{key}", MAX_PLAYERS)
    _count(v.get("hand"), "view.hand", MAX_TILES)
    _count(v.get("hands"), "view.hands", MAX_PLAYERS, MAX_TILES)
    _count(v.get("events"), "view.events", MAX_EVENTS)
    _count(v.get("legal"), "view.legal", MAX_LEGAL)
    _count(v.get("doubles"), "view.doubles", MAX_DOUBLES)
    _count(v.get("last_round_events"), "view.last_round_events", MAX_EVENTS)
    _count(v.get("results"), "view.results", MAX_ROUNDS)
    _count(v.get("trains"), "view.trains", MAX_PLAYERS + 1)
    trains = v.get("trains")
    for k, train in enumerate(trains if isinstance(trains, list) else ()):
        if isinstance(train, dict):
            _count(train.get("lines"), f"view.trains.{k}.lines", max_lines(18), MAX_TILES)
            _count(train.get("starts"), f"view.trains.{k}.starts", max_lines(18))
    results = v.get("results")
    for k, result in enumerate(results if isinstance(results, list) else ()):
        if isinstance(result, dict):
            _count(result.get("leftovers"), f"view.results.{k}.leftovers", MAX_PLAYERS, MAX_TILES)
            _count(result.get("scores"), f"view.results.{k}.scores", MAX_PLAYERS)


def decode_server(text: str | bytes) -> ServerMessageType:
    """A server message a guest may take (see above: :func:`check_server_message`), or
    :class:`ProtocolError` with code :data:`BAD_SERVER_MESSAGE` and values ``type``,
    ``field``, ``reason`` (:data:`BAD_SERVER_REASONS`), and ``char`` or ``limit``. Never any
    other exception, whatever ``text`` is."""
    size = _size(text)
    if size > MAX_SERVER_MESSAGE:
        raise bad_server_message(None, "", "too_big", limit=MAX_SERVER_MESSAGE)
    msg = None
    if size <= QUICK_SERVER_MESSAGE:
        try:  # the fast path: JSON parsed and checked in one go
            msg = SERVER_ADAPTER.validate_json(text)
        except ValidationError:
            pass  # below: which problem it is
    if msg is None:
        try:
            data = _load(text, MAX_SERVER_MESSAGE, _SERVER_TYPES)
        except ProtocolError as exc:  # bad_json or unknown_type: the type is not repeated
            raise bad_server_message(None, "", exc.code) from None
        kind = data["type"]
        try:
            _precheck(data)
            msg = SERVER_ADAPTER.validate_python(data)
        except _Refuse as refused:
            raise refused.error(kind) from None
        except ValidationError as exc:
            raise _invalid(kind, exc) from None
    return check_server_message(msg)
