"""The table's wire protocol (docs/protocol.md): every message, its JSON form, its limits.

One JSON object a WebSocket text message, with a ``type``. Every message is a frozen pydantic
model that refuses unknown fields; numbers and strings are bounded by the models, names pass
the same checks as a seat's name (:mod:`mexitrain.text.names`). A problem is data, a code and
its values (:class:`ProtocolError`, :class:`Error`); the sentences are in
:mod:`mexitrain.text.net`.

>>> msg = decode_client('{"type": "intent", "seq": 3, "action": {"type": "draw"}}')
>>> msg.seq, msg.action.type
(3, 'draw')
>>> decode_server(encode(Refused(seq=3, code="boneyard_empty", values={}))).code
'boneyard_empty'
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from ..rules import Action, RuleSet, SeatView
from ..rules.errors import IllegalAction
from ..table import AI_LEVELS
from ..text.names import NAME_MAX, codepoint, first_unprintable

#: This protocol's version; a Hello with another one gets ``Error("version", server_version=...)``.
PROTOCOL_VERSION = 1
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
    "internal",  # the server failed on this message (a bug); the table goes on
)

#: Refusal codes of the table itself, beside the rules' (:data:`mexitrain.rules.errors.CODES`).
REFUSAL_CODES: tuple[str, ...] = (
    "not_started",  # an intent before the host started the game
    "not_your_turn",  # another seat is to move (values: turn)
    "no_seat",  # this client has no seat (the host of a headless table)
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


def _check_name(name: str) -> str:
    bad = first_unprintable(name)
    if bad is not None:
        raise ValueError(f"a name cannot hold {codepoint(bad)}")
    if not name.strip():
        raise ValueError("a name cannot be blank")
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
    """Host only: start now; the open seats become computer players of ``level``."""

    type: Literal["start"] = "start"
    level: Level = "planner"


class HandOver(_Message):
    """Host only: ``seat``, whose person is away, is played by a computer of ``level`` until
    that person comes back with their token."""

    type: Literal["hand_over"] = "hand_over"
    seat: Seat
    level: Level = "planner"


class Bye(_Message):
    """The client leaves for good: its seat stays its own (it may come back with its token)."""

    type: Literal["bye"] = "bye"


ClientMessage = Annotated[Hello | Intent | StartGame | HandOver | Bye, Field(discriminator="type")]
CLIENT_ADAPTER: TypeAdapter[Hello | Intent | StartGame | HandOver | Bye] = TypeAdapter(ClientMessage)


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


class Lobby(_Message):
    """Who sits where; sent to everyone whenever it changes (before and during the game)."""

    type: Literal["lobby"] = "lobby"
    seats: tuple[LobbySeat, ...] = Field(max_length=MAX_SEATS)
    rules: RuleSet
    started: bool


class Away(_Message):
    """A seat whose person dropped ``seconds`` ago (its seat waits for them)."""

    seat: Seat
    name: Annotated[str, Field(max_length=NAME_MAX)]
    seconds: int = Field(ge=0, le=10**9)


class Update(_Message):
    """The game after action number ``seq`` as the receiving seat sees it (``view`` is
    ``rules.view(state, seat)`` for that seat only), with each seat's name and kind
    ("person" or "computer") and who is away."""

    type: Literal["update"] = "update"
    seq: Seq
    view: SeatView
    names: tuple[Annotated[str, Field(max_length=NAME_MAX)], ...] = Field(max_length=MAX_SEATS)
    kinds: tuple[Literal["person", "computer"], ...] = Field(max_length=MAX_SEATS)
    away: tuple[Away, ...] = Field((), max_length=MAX_SEATS)


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


ServerMessage = Annotated[Welcome | Lobby | Update | Refused | Error, Field(discriminator="type")]
SERVER_ADAPTER: TypeAdapter[Welcome | Lobby | Update | Refused | Error] = TypeAdapter(ServerMessage)

_CLIENT_TYPES = {"hello", "intent", "start", "hand_over", "bye"}
_SERVER_TYPES = {"welcome", "lobby", "update", "refused", "error"}


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


def decode_client(text: str | bytes) -> Hello | Intent | StartGame | HandOver | Bye:
    """A client message, or :class:`ProtocolError` (bad_json, unknown_type, bad_message,
    too_big, version). A Hello of another version is ``version`` whatever its other fields."""
    if _size(text) <= MAX_CLIENT_MESSAGE:
        try:  # the fast path: JSON parsed and checked in one go
            msg = CLIENT_ADAPTER.validate_json(text)
        except ValidationError:
            pass  # below: which problem it is
        else:
            if not (isinstance(msg, Hello) and msg.version != PROTOCOL_VERSION):
                return msg
    data = _load(text, MAX_CLIENT_MESSAGE, _CLIENT_TYPES)
    if data["type"] == "hello":
        version = data.get("version")
        if isinstance(version, int) and not isinstance(version, bool) and version != PROTOCOL_VERSION:
            raise ProtocolError("version", version=max(-1, min(version, 1_000_000)))
    try:
        return CLIENT_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError("bad_message", type=data["type"], field=_field(exc)) from None


def decode_server(text: str | bytes) -> Welcome | Lobby | Update | Refused | Error:
    """A server message, or :class:`ProtocolError` (bad_json, unknown_type, bad_message, too_big)."""
    if _size(text) <= MAX_SERVER_MESSAGE:
        try:  # the fast path: JSON parsed and checked in one go
            return SERVER_ADAPTER.validate_json(text)
        except ValidationError:
            pass  # below: which problem it is
    data = _load(text, MAX_SERVER_MESSAGE, _SERVER_TYPES)
    try:
        return SERVER_ADAPTER.validate_python(data)
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
