"""The table on the network in words: errors and refusals from the server (codes and values,
:mod:`mexitrain.net.protocol`), the link's status, a seat whose person is away, and the lines
``mexitrain host`` prints.

The network's objects are read by their fields (text sits below net/ and never imports it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..i18n import _, ngettext
from ..rules.errors import IllegalAction
from . import chat
from .basics import join_and, level_name
from .names import printable
from .refusals import reason_text

#: The rules' own refusals are worded by text.refusals; these are the table's.
_TABLE_REFUSALS = (
    "not_started", "not_your_turn", "no_seat", "results_unseen", "watching", "chat_empty", "chat_too_long", "chat_too_fast",
)


def clock(seconds: float) -> str:
    """``42`` -> ``"0:42"``, ``3725`` -> ``"1:02:05"`` (the same in every language)."""
    s = max(0, int(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def refused_text(exc: IllegalAction, names: Sequence[str] | None = None, viewer: int | None = None) -> str:
    """Why the server refused an intent, as one sentence (``exc`` is
    :func:`mexitrain.net.protocol.refusal` of the Refused message)."""
    if exc.code == "not_started":
        return _("The game has not started yet: the host starts it.")
    if exc.code == "not_your_turn":
        turn = exc.values.get("turn")
        if isinstance(turn, int) and not isinstance(turn, bool) and names is not None and 0 <= turn < len(names):
            return _("It is not your turn: {name} is to play.").format(name=printable(names[turn]))
        return _("It is not your turn.")
    if exc.code == "no_seat":
        return _("You have no seat at this table.")
    if exc.code == "results_unseen":
        return _("The next round waits until everyone has seen the results.")
    if exc.code == "watching":
        return _("You are watching this table: someone who watches makes no move.")
    if exc.code in ("chat_empty", "chat_too_long", "chat_too_fast"):
        return chat_refused_text(exc.code, exc.values)
    try:
        return reason_text(exc, names, viewer)
    except (KeyError, IndexError, TypeError, ValueError):  # a value missing or of the wrong kind
        return _("That move is not allowed.")


def chat_refused_text(code: str, values: Mapping[str, Any]) -> str:
    """Why a chat line was refused (the table's chat codes, :mod:`mexitrain.text.chat`)."""

    def count(key: str, default: int) -> int:
        value = values.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else default

    if code == "chat_empty":
        return chat.empty_text()
    if code == "chat_too_long":
        return chat.too_long_text(count("limit", chat.CHAT_MAX))
    wait = values.get("wait")
    return chat.too_fast_text(count("lines", 5), count("seconds", 10), wait if isinstance(wait, int) and not isinstance(wait, bool) else None)


def _number(value: Any) -> str:
    """A whole number of an error's values, or "?" when it is missing or not one."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else "?"


def error_text(code: str, values: Mapping[str, Any] | None = None, server_version: int | None = None) -> str:
    """An error from the table (:data:`mexitrain.net.protocol.ERROR_CODES`), or a problem
    of this client's link (``refused_connection``, ``unreachable``, ``untrusted_certificate``, ``lost``,
    ``bad_server_message``), as one line. A value missing or of the wrong kind never raises:
    the sentence goes without it."""
    v = dict(values) if isinstance(values, Mapping) else {}
    if not isinstance(code, str):
        code = ""
    if not (server_version is None or (isinstance(server_version, int) and not isinstance(server_version, bool))):
        server_version = None
    if code == "bad_json":
        return _("The message was not valid JSON.")
    if code == "unknown_type":
        return _("The message's type is not known to this table.")
    if code == "bad_message":
        field = printable(str(v.get("field") or ""))[:80]
        if field:
            return _("The message has a bad field: {field}.").format(field=field)
        return _("The message is not one this table understands.")
    if code == "too_big":
        return _("The message was too large (at most {limit} bytes).").format(limit=_number(v.get("limit")))
    if code == "version":
        if server_version is not None:
            return _(
                "This table speaks version {server} of the protocol and this program version {client}: "
                "use the same version of mexitrain."
            ).format(server=server_version, client=_number(v.get("version")))
        return _("This table speaks another version of the protocol: use the same version of mexitrain.")
    if code == "hello_first":
        return _("The connection did not start by joining the table.")
    if code == "wrong_code":
        return _("There is no table with that code here: check the code.")
    if code == "bad_token":
        return _("This table does not know your seat any more: join again without it.")
    if code == "bad_name":
        return _("That name cannot be used.")
    if code == "table_full":
        return _("Every seat at this table is taken.")
    if code == "replaced":
        return _("Your seat was taken back from another connection.")
    if code == "not_host":
        return _("Only the host can do that.")
    if code == "started":
        return _("The game has already started.")
    if code == "bad_seat":
        seat = v.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
            return _("Seat {seat} cannot be handed over: its player is not away.").format(seat=seat + 1)
        return _("That seat cannot be handed over.")
    if code == "flood":
        return _("Too many messages too fast: disconnected.")
    if code == "too_slow":
        return _("This connection fell too far behind: disconnected.")
    if code == "too_many":
        return _("Too many connections too fast from this address or to this seat: try again in a moment.")
    if code == "server_closing":
        return _("The table's server is restarting.")
    if code == "table_closed":
        if v.get("resumable") is False:
            return _("The game is over and the table closed.")
        return _("The host closed the table; it can be reopened later: join again then.")
    if code == "not_over":
        return _("A new game can be asked for only once this one is over.")
    if code == "watchers_full":
        return _("This table has as many watchers as it takes ({limit}): try again later.").format(
            limit=_number(v.get("limit"))
        )
    if code == "internal":
        return _("The table failed on that message; the game goes on.")
    if code == "removed":
        return chat.removed_text()
    if code == "bad_remove":
        return chat.cannot_remove_text(v.get("seat"))
    # a code of a newer server, or a connection problem of the client (its code)
    if code == "refused_connection":
        return _("Nobody answers at that address.")
    if code == "unreachable":
        return _("That address cannot be reached.")
    if code == "untrusted_certificate":
        return _("The table's secure (https) address shows a certificate this computer does not trust.")
    if code == "lost":
        return _("The connection was lost.")
    if code == "bad_server_message":
        return _("The table sent something this version cannot read: {reason}.").format(
            reason=bad_server_reason(v)
        )
    return _("Network error: {code}.").format(code=printable(str(code))[:40])


def _shown(value: Any, limit: int = 80) -> str:
    """A value from the network as a sentence may hold it: text, escaped, cut."""
    return printable(value if isinstance(value, str) else "")[:limit]


def bad_server_reason(values: Mapping[str, Any] | None) -> str:
    """Why a server message was refused (the values of ``bad_server_message``:
    :data:`mexitrain.net.protocol.BAD_SERVER_REASONS`), as the end of a sentence; a value
    missing or of the wrong kind reads as the general case."""
    v = values if isinstance(values, Mapping) else {}
    reason = v.get("reason")
    field = _shown(v.get("field"))
    if reason == "too_big":
        limit = v.get("limit")
        if isinstance(limit, int) and not isinstance(limit, bool):
            return _("a message over {limit} bytes").format(limit=limit)
        return _("a message too large")
    if reason == "bad_json":
        return _("a message that is not JSON")
    if reason == "unknown_type":
        return _("a message of a type it does not know")
    if reason == "out_of_order":
        return _("a message that cannot come yet")
    if not field:
        return _("a message it does not understand")
    if reason == "missing":
        return _("{field} is missing").format(field=field)
    if reason == "unknown_field":
        return _("{field} is not a field it knows").format(field=field)
    if reason == "out_of_range":
        return _("{field} is beyond what the rules allow").format(field=field)
    if reason == "unprintable":
        char = _shown(v.get("char"), 10)
        if char:
            return _("{field} holds the control character {char}").format(field=field, char=char)
        return _("{field} holds a control character").format(field=field)
    if reason == "invisible":
        return _("{field} is a name with no visible character").format(field=field)
    if reason == "inconsistent":
        return _("{field} does not agree with the rest of the game").format(field=field)
    return _("{field} is not valid").format(field=field)


def link_text(status: Any) -> str:
    """The link to the table in words (a :class:`mexitrain.net.client.LinkStatus`)."""
    state = status.state
    if state == "connecting":
        return _("Connecting to the table…")
    if state == "connected":
        return _("Connected.")
    if state == "retrying":
        why = error_text(status.error) if status.error else ""
        wait = status.retry_in or 0
        line = ngettext(
            "Connection lost; trying again in {n} second (attempt {attempt}).",
            "Connection lost; trying again in {n} seconds (attempt {attempt}).",
            max(1, round(wait)),
        ).format(n=max(1, round(wait)), attempt=status.attempt)
        return f"{line} {why}".strip()
    return _("Disconnected.")


def away_text(away: Any) -> str:
    """A seat whose person dropped (an :class:`mexitrain.net.protocol.Away`)."""
    return _("Waiting for {name} to come back (away {time})").format(
        name=printable(away.name), time=clock(away.seconds)
    )


def waiting_results_text(names: Sequence[str]) -> str:
    """The next round waits for these people to see the last round's results."""
    return _("Waiting for {names} to see the results").format(names=join_and([printable(n) for n in names]))


def back_text(name: str) -> str:
    """A person whose connection had dropped is back at the table."""
    return _("{name} is back").format(name=printable(name))


def turn_clock_text(seconds: int) -> str:
    """The seconds left on the current turn of a timed table (``Update.turn_left``)."""
    return _("Turn: {time} left").format(time=clock(seconds))


def turn_time_text(seconds: int) -> str:
    """A turn timer's length as the lobby offers it: "30 s", "1 min", "2 min 30 s"."""
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return _("{seconds} s").format(seconds=rest)
    if not rest:
        return _("{minutes} min").format(minutes=minutes)
    return _("{minutes} min {seconds} s").format(minutes=minutes, seconds=rest)


def timed_text(name: str) -> str:
    """The move log's line: the turn timer ran out and the table played that seat's expert tip
    (``Update.timed``)."""
    return _("Time ran out: the expert's tip was played for {name}").format(name=printable(name))


def rematch_text(accepted: Sequence[str], waiting: Sequence[str]) -> str:
    """Who has accepted a new game at the table (``Update.rematch``) and whom it waits for."""
    if not accepted:
        return _("Play again? The new game starts when everyone accepts.")
    if not waiting:
        return _("Everyone accepted: the new game starts.")
    return _("{accepted} will play again; waiting for {waiting}").format(
        accepted=join_and([printable(n) for n in accepted]), waiting=join_and([printable(n) for n in waiting])
    )


# -- mexitrain host ---------------------------------------------------------------------------


def join_line(address: str, code: str) -> str:
    """The line the host gives the others (the command itself is never translated)."""
    return _("Others join with: {command}").format(command=f"mexitrain join {address} {code}")


def served_join_line(link: str, page: str, code: str) -> str:
    """The line a served table's lobby gives the others: the link to open in a browser, and
    the command for a terminal (the page's own address: the same port serves the tables)."""
    address = page.split("://", 1)[-1]
    command = f"mexitrain join {address} {code}"
    return _("Friends open {link} · at a terminal: {command}").format(link=link, command=command)


def watching_seated_text() -> str:
    """A table's link opened again in a browser that sits there: the tab watches."""
    return _("This browser already has a seat at this table: this tab watches it.")


def serving_line(address: str, code: str, seats: int) -> str:
    return ngettext(
        "Table {code} open on {address}, {n} seat.",
        "Table {code} open on {address}, {n} seats.",
        seats,
    ).format(code=code, address=address, n=seats)


def other_addresses_line(addresses: Sequence[str]) -> str:
    return _("This computer's other addresses: {addresses}").format(addresses=", ".join(addresses))


def headless_start_line() -> str:
    return _(
        "The game starts when every seat is taken, or press Enter to start now "
        "(open seats go to computer players). \"remove N\" and Enter removes the person of "
        "seat N; \"hand N\" hands the seat of a person who is away to a computer player until "
        "they come back. Ctrl+C closes the table."
    )


def console_help_line() -> str:
    """``host --no-play``: what its terminal takes, said when a line is not one of those."""
    return _(
        "Enter starts the game; \"remove N\" removes the person of seat N from the table "
        "(a computer player takes the seat); \"hand N\" hands the seat of a person who is away "
        "to a computer player until they come back; Ctrl+C closes the table."
    )


def handed_line(seat: int) -> str:
    """``host --no-play``: ``hand N`` done."""
    return _("A computer player plays seat {seat} until its person comes back.").format(seat=seat)


def not_handed_line(seat: int) -> str:
    """``host --no-play``: ``hand N`` of a seat whose person is not away."""
    return _("Seat {seat} cannot be handed over: its player is not away.").format(seat=seat)


def not_removed_line(seat: int) -> str:
    """``host --no-play``: ``remove N`` of a seat that no person holds."""
    return _("Seat {seat} is not a person's: nobody was removed.").format(seat=seat)


def joined_line(name: str, seat: int) -> str:
    return _("{name} sits in seat {seat}.").format(name=printable(name), seat=seat + 1)


def back_line(name: str, seat: int) -> str:
    return _("{name} is back in seat {seat}.").format(name=printable(name), seat=seat + 1)


def left_line(name: str, seat: int, over: bool = False) -> str:
    """A guest's link closed: mid-game their seat waits for them; after the game's end there
    is nothing to come back to."""
    if over:
        return _("{name} left the table (seat {seat}).").format(name=printable(name), seat=seat + 1)
    return _("{name} left seat {seat}; the seat waits for them.").format(name=printable(name), seat=seat + 1)


def started_line(level: str) -> str:
    return _("The game starts; open seats are played by computer players ({level}).").format(
        level=level_name(level)
    )


def results_timed_line(name: str, seat: int) -> str:
    """The host's log: the next round went on without waiting longer for a person to see the
    round's results (the turn timer bounds that wait too)."""
    return _("{name} (seat {seat}) did not see the results within the turn timer: the next round goes on.").format(
        name=printable(name), seat=seat + 1
    )


def timed_line(name: str, seat: int) -> str:
    """The host's log: the turn timer played a seat's expert tip."""
    return _("Time ran out for {name} (seat {seat}): the expert's tip was played.").format(
        name=printable(name), seat=seat + 1
    )


def rematch_line(name: str, seat: int) -> str:
    """The host's log: a person accepted a new game."""
    return _("{name} (seat {seat}) will play again.").format(name=printable(name), seat=seat + 1)


def rematch_started_line() -> str:
    """The host's log: everyone accepted, the new game is dealt."""
    return _("Everyone accepted: a new game starts at the table.")


def watching_line(count: int) -> str:
    """The host's log: someone began watching the table (``count`` watch it now)."""
    return ngettext(
        "Someone watches the table ({count} watching).", "Someone watches the table ({count} watching).", count
    ).format(count=count)


def game_over_line() -> str:
    return _("The game is over. The table closes once everyone has left (or with Ctrl+C).")


def refused_line(why: str, who: str | None, count: int, values: Mapping[str, Any] | None = None) -> str:
    """What one of the table's limits refused (:mod:`mexitrain.net.guard`), said once per
    window: ``count`` connections of kind ``why`` from the address ``who`` (None: from
    addresses not named one by one)."""
    v = dict(values or {})
    who_ = printable(who)[:64] if who else _("other addresses")
    n = count
    if why == "attempts":
        line = ngettext(
            "{who}: {n} connection refused: this address connects too often.",
            "{who}: {n} connections refused: this address connects too often.", n,
        )
    elif why == "seat" and isinstance(v.get("seat"), int):
        return ngettext(
            "{who}: {n} connection refused: {name}'s seat ({seat}) is taken back too often.",
            "{who}: {n} connections refused: {name}'s seat ({seat}) is taken back too often.", n,
        ).format(who=who_, n=n, name=printable(str(v.get("name") or "")), seat=v["seat"] + 1)
    elif why == "seat":
        line = ngettext(
            "{who}: {n} connection refused: the host's token is used too often.",
            "{who}: {n} connections refused: the host's token is used too often.", n,
        )
    elif why == "connections":
        return ngettext(
            "{who}: {n} connection refused: this address holds {limit} already.",
            "{who}: {n} connections refused: this address holds {limit} already.", n,
        ).format(who=who_, n=n, limit=v.get("limit", "?"))
    elif why == "full":
        return ngettext(
            "{n} connection refused: the table holds {limit} already.",
            "{n} connections refused: the table holds {limit} already.", n,
        ).format(n=n, limit=v.get("limit", "?"))
    elif why == "wrong_code":
        line = ngettext(
            "{who}: {n} attempt with a wrong table code.",
            "{who}: {n} attempts with a wrong table code.", n,
        )
    elif why == "bad_token":
        line = ngettext(
            "{who}: {n} attempt with a token no seat has.",
            "{who}: {n} attempts with a token no seat has.", n,
        )
    elif why == "watchers":
        return ngettext(
            "{who}: {n} watcher refused: the table has {limit} watchers already.",
            "{who}: {n} watchers refused: the table has {limit} watchers already.", n,
        ).format(who=who_, n=n, limit=v.get("limit", "?"))
    elif why == "flood":
        line = ngettext(
            "{who}: {n} connection cut off: too many messages too fast.",
            "{who}: {n} connections cut off: too many messages too fast.", n,
        )
    else:
        return ngettext(
            "{who}: {n} connection refused ({why}).",
            "{who}: {n} connections refused ({why}).", n,
        ).format(who=who_, n=n, why=printable(str(why))[:40])
    return line.format(who=who_, n=n)


def dropped_lines_line(count: int) -> str:
    """Lines of the host's log that could not be written (its terminal or pipe did not keep up)."""
    return ngettext(
        "… {n} line dropped: the output was not read fast enough.",
        "… {n} lines dropped: the output was not read fast enough.", count,
    ).format(n=count)


def resumed_line(code: str, round_: int, rounds: int) -> str:
    return _("Table {code} reopened at round {round} of {rounds}.").format(code=code, round=round_, rounds=rounds)


def stopped_line() -> str:
    """The table closed before its game was over: it can be reopened."""
    return _("Table closed: the game is autosaved; mexitrain host --resume reopens it.")


def closed_over_line(kept: str | None) -> str:
    """The table closed once its game was over: nothing to reopen; where the game is kept
    (``kept``, the file in ``saves/``; None if it could not be) and the command that replays
    it, quoted for the shell as it can be typed again."""
    if kept is None:
        return _("Table closed: the game is over.")
    import shlex

    shown = printable(kept)
    return _("Table closed: the game is over and kept in {path}; {command} replays it.").format(
        path=shown, command=f"mexitrain --replay {shlex.quote(shown)}"
    )


def no_table_line() -> str:
    return _("There is no table to reopen in this data folder.")


def cannot_listen_line(address: str, problem: str) -> str:
    return _("Cannot open the table on {address}: {problem}").format(address=address, problem=problem)


def no_ui_line() -> str:
    return _("The table's screen is not available in this version: use --no-play and join from another terminal.")
