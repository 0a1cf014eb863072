"""Problems with files in the player's language: saved games, the autosave and statistics
(:class:`~mexitrain.storage.savefile.SaveError`, from its action, code and values), game records
(:class:`~mexitrain.rules.record.RecordError`), strict JSON and the system's own refusals.
"""

from __future__ import annotations

import errno
import shlex
from collections.abc import Sequence
from typing import Any

from ..i18n import N_, _, ngettext
from ..rules.seeds import seed_text
from .basics import join_and, join_or, quote, seat_called, seat_label, tile_text
from .names import cut, printable, shorten
from .refusals import reason_text
from .validation import ruleset_error_text, validation_error_text


def os_problem(v: dict) -> str:
    num = v.get("errno")
    if num == errno.ENOENT:
        return _("there is no such file")
    if num in (errno.EACCES, errno.EPERM):
        return _("permission denied")
    if num == errno.ENOSPC:
        return _("the disk is full")
    if num == errno.EROFS:
        return _("the disk is read-only")
    if num == errno.EISDIR:
        return _("it is a folder, not a file")
    if v.get("error") in ("not a regular file", "the file is too large"):  # storage.safe's refusals
        return _(v["error"])
    return str(v.get("error", ""))


def save_error_text(exc: Any) -> str:
    """A :class:`~mexitrain.storage.savefile.SaveError` as one line in the player's language."""
    code = getattr(exc, "code", None)
    v = getattr(exc, "values", {}) or {}
    action = getattr(exc, "action", None)
    path = getattr(exc, "path", None)
    where = str(path) if path is not None else _("the saved game")
    try:
        text = _save_error_text(action, code, v, where, exc)
    except (KeyError, TypeError, ValueError):
        text = None
    if text is None:
        return str(exc)
    moved = getattr(exc, "moved_to", None)
    if moved is not None:
        text = _("{error}; it was moved to {path}").format(error=text, path=moved)
    return " ".join(text.split())  # one line, whatever a damaged file holds



# Problems with a file that need no more than its path to be told (save problem codes).
_LOAD_PROBLEMS = {
    "empty": N_("cannot load {path}: the file is empty"),
    "not_utf8": N_("cannot load {path}: the file is damaged: it is not text"),
    "too_deep": N_("cannot load {path}: the file is damaged: not valid JSON"),
    "not_json_value": N_("cannot load {path}: the file is damaged: not valid JSON"),
    "bad_speed": N_("cannot load {path}: the game speed it gives is not valid"),
    "bad_date": N_("cannot load {path}: the date it was saved is not valid"),
    "setup_mismatch": N_("cannot load {path}: the game's setup does not match its record"),
}


def _save_error_text(action, code, v: dict, where: str, exc: Any) -> str | None:
    if action == "save":
        if code == "os_error":
            return _("cannot save {path}: {problem}").format(path=where, problem=os_problem(v))
        if code == "name_taken":
            return _("cannot save {path}: a saved game with that name exists").format(path=where)
        if code == "saves_full":
            return saves_full_line(v["files"], v["megabytes"])
        if code == "autosaves_full":
            return autosaves_full_line(v["games"])
        if code == "bad_name":
            return _("cannot save: {name} cannot be used as a save name: use letters or digits").format(
                name=quote(v["name"])
            )
        return None
    if action == "remove":
        if code == "os_error":
            return _("cannot remove {path}: {problem}").format(path=where, problem=os_problem(v))
        return None
    if action == "resume":
        if code == "busy" and v.get("table"):
            return _("cannot reopen table {code}: it is open in another process").format(code=v["table"])
        if code == "busy":
            return _("cannot resume {path}: it is open in another process").format(path=where)
        return None
    if action != "load":
        return None
    if code == "journal_damaged":
        from .journal import journal_damaged_text

        return journal_damaged_text(where, v)
    if code in _LOAD_PROBLEMS:
        return _(_LOAD_PROBLEMS[code]).format(path=where)
    if code == "os_error":
        return _("cannot load {path}: {problem}").format(path=where, problem=os_problem(v))
    if code == "too_large":
        return _("cannot load {path}: the file is too large to be a saved game ({size} bytes)").format(
            path=where, size=v["size"]
        )
    if code == "truncated":
        return _("cannot load {path}: the file is truncated (line {line}, column {column})").format(
            path=where, line=v["line"], column=v["column"]
        )
    if code == "not_json":
        return _(
            "cannot load {path}: the file is damaged: it is not valid JSON (line {line}, column {column})"
        ).format(path=where, line=v["line"], column=v["column"])
    if code == "wrong_format":
        if v.get("format") == "mexitrain-stats":
            return _("cannot load {path}: it is not a mexitrain statistics file").format(path=where)
        return _("cannot load {path}: it is not a mexitrain saved game").format(path=where)
    if code == "newer_version":
        return _(
            "cannot load {path}: it was written by a newer mexitrain (version {version}; "
            "this one reads {reads})"
        ).format(path=where, version=v["version"], reads=v["reads"])
    if code == "illegal_move":
        names = v.get("names")
        seat = v["seat"]
        reason = reason_text(v["reason"], names, None)
        return _("cannot load {path}: round {round}, move {event} by {name} is not allowed: {reason}").format(
            path=where, round=v["round"], event=v["event"], name=seat_called(names, seat),
            reason=reason,
        )
    if code == "bad_record" and isinstance(v.get("error"), ValueError):
        return _("cannot load {path}: {problem}").format(path=where, problem=record_error_text(v["error"]))
    if code == "bad_setup":
        return _("cannot load {path}: the game's setup is not valid: {problem}").format(
            path=where, problem=validation_error_text(v["error"])
        )
    if code == "bad_stats":
        return _("cannot load {path}: the statistics are not valid: {problem}").format(
            path=where, problem=validation_error_text(v["error"])
        )
    if code == "not_strict_json":
        return _("cannot load {path}: the file is damaged: {problem}").format(
            path=where, problem=strict_json_text(v["error"])
        )
    if code == "unknown_version":
        return _("cannot load {path}: unknown version {version} (this mexitrain reads {reads})").format(
            path=where, version=v["version"], reads=v["reads"]
        )
    if code == "internal":
        return _("cannot load {path}: internal error while reading it ({error})").format(
            path=where, error=v["error"]
        )
    if code in _PREDICATES:
        return _("cannot load {path}: the file is damaged: {problem}").format(
            path=where, problem=_record_problem(code, v, _("the file"))
        )
    return _("cannot load {path}: the file is damaged").format(path=where)


#: The longest path a refusal of the file dialogs repeats, in cells.
SHOWN_PATH = 40


def _path_shown(text: str) -> str:
    return shorten(printable(str(text)), SHOWN_PATH) or "''"


def nul_path_line(text: str) -> str:
    """A path typed with a NUL character in it (no file is named so)."""
    return _("{path} is not a path: it holds a NUL character").format(path=_path_shown(text))


def in_play_line(name: str) -> str:
    """A file of a game being played elsewhere (a running table's, another window's autosave):
    opening it would show the hands of a game in progress."""
    return _("{file} belongs to a game in progress elsewhere: it opens once that game is over or closed").format(
        file=_path_shown(name)
    )


def saves_full_line(count: int, megabytes: int) -> str:
    """Save as… at the bound of a served game's ``saves/`` folder."""
    return ngettext(
        "cannot save: this game's saves folder is full ({count} file or {megabytes} MB at most); "
        "save over an old name instead",
        "cannot save: this game's saves folder is full ({count} files or {megabytes} MB at most); "
        "save over an old name instead",
        count,
    ).format(count=count, megabytes=megabytes)


def autosaves_full_line(games: int) -> str:
    """A served game's new autosave beyond the bound of its ``autosaves/`` folder."""
    return ngettext(
        "this game is not autosaved: the data folder holds {games} unfinished game already; "
        "resume one and finish it to make room",
        "this game is not autosaved: the data folder holds {games} unfinished games already; "
        "resume one and finish it to make room",
        games,
    ).format(games=games)


def autosaves_full_reason() -> str:
    """The same, as the status line's short reason ("not saving: …")."""
    return _("too many unfinished games")


def notice_text(notice: Any) -> str:
    """A notice from the autosave or the statistics (a damaged file moved aside) in the
    player's language; a plain string is returned as it is."""
    error = getattr(notice, "error", None)
    moved = getattr(notice, "moved_to", None)
    if error is None or moved is None:
        return str(notice)
    if getattr(notice, "new_stats", False):
        return _("{error}; it was moved to {path} and new statistics were started").format(
            error=save_error_text(error), path=moved
        )
    return _("{error}; it was moved to {path}").format(error=save_error_text(error), path=moved)


# ---------------------------------------------------------------------------------------
# Game records (RecordError's code and values; the file's key names are kept as written)
# ---------------------------------------------------------------------------------------
def _json_type(kind: Any) -> str:
    return {
        "null": _("null"),
        "boolean": _("true or false"),
        "number": _("a number"),
        "string": _("text"),
        "list": _("a list"),
        "object": _("an object"),
    }.get(kind, str(kind))


def _keys(keys: Sequence[str]) -> str:
    return join_and([quote(k) for k in keys])


def _seats(seats: Sequence[int]) -> str:
    return join_and([str(s + 1) for s in seats]) if seats else _("none")


def _numbers(values: Sequence[int]) -> str:
    return ", ".join(str(x) for x in values)


def _shown(value: str) -> str:
    """A value read from a file, quoted for a sentence: printable and at most 40 cells."""
    return quote(cut(printable(value), 40))


def strict_json_text(exc: Any) -> str:
    """What strict JSON refuses (NaN, a key given twice), in the player's language."""
    code = getattr(exc, "code", None)
    v = getattr(exc, "values", {}) or {}
    if code == "not_a_number" and "name" in v:
        return _("{name} is not a number JSON allows").format(name=v["name"])
    if code == "duplicate_key" and "key" in v:
        return _("the key {key} appears twice").format(key=quote(v["key"]))
    return _("not valid JSON")


#: Record problems said of a thing (the field, the move, the round, the record): "must be...".
_PREDICATES: dict[str, Any] = {
    "not_whole_number": lambda v: (
        _("must be a whole number, written without a decimal point") if v["found"] == "number"  # 12.5 or 12.0
        else _("must be a whole number, not {found}").format(found=_json_type(v["found"]))
    ),
    "out_of_range": lambda v: (
        _("must be {min} or more, not {value}") if v.get("max") is None
        else _("must be from {min} to {max}, not {value}")
    ).format(min=v["min"], max=v.get("max"), value=v["value"]),
    "not_a_list": lambda v: _("must be a list, not {found}").format(found=_json_type(v["found"])),
    "wrong_length": lambda v: ngettext(
        "must have {n} entry, one per seat, not {count}", "must have {n} entries, one per seat, not {count}",
        v["length"],
    ).format(n=v["length"], count=v["count"]),
    "not_an_object": lambda v: _("must be an object, not {found}").format(found=_json_type(v["found"])),
    "event_not_an_object": lambda v: _("must be an object, not {found}").format(found=_json_type(v["found"])),
    "not_a_string": lambda v: _("must be text or null, not {found}").format(found=_json_type(v["found"])),
    "missing_keys": lambda v: ngettext("lacks the key {keys}", "lacks the keys {keys}", len(v["keys"])).format(
        keys=_keys(v["keys"])
    ),
    "unknown_keys": lambda v: ngettext(
        "has an unknown key {keys}", "has unknown keys {keys}", len(v["keys"])
    ).format(keys=_keys(v["keys"])),
    "not_a_tile": lambda v: _("must be a tile [a, b] of two whole numbers"),
    "empty_string": lambda v: _("must be a non-empty text"),
}


def _record_where(v: dict, code: str | None = None) -> str | None:
    if code == "illegal_move" and v.get("round") is not None and isinstance(v.get("seat"), int):
        return _("round {round}, move {event} by {seat}").format(
            round=v["round"], event=v["event"], seat=seat_label(v["seat"])
        )
    if v.get("round") is not None and v.get("event") is not None:
        return _("round {round}, move {event}").format(round=v["round"], event=v["event"])
    if v.get("round") is not None:
        return _("round {round}").format(round=v["round"])
    return None


def _record_problem(code: str | None, v: dict, subject: str | None = None) -> str:
    """A record problem without its place (round, move) but with its field."""
    if code in _PREDICATES:
        if v.get("field"):
            subject = quote(v["field"])
        elif subject is None:
            subject = (
                _("the move") if v.get("event") is not None
                else _("the round") if v.get("round") is not None else _("the record")
            )
        return _("{subject} {problem}").format(subject=subject, problem=_PREDICATES[code](v))
    text = _record_clause(code, v)
    if text is None:
        return _("the record is not valid")
    return text


def _record_clause(code: str | None, v: dict) -> str | None:
    if code == "not_in_set":
        return _("{tile} is not a tile of the double-{set} set").format(tile=tile_text(v["tile"]), set=v["set"])
    if code == "tile_order":
        a, b = v["tile"]
        return _("a dealt tile is written low half first, [{a}, {b}]").format(a=a, b=b)
    if code in ("event_type", "bad_end"):
        choices = join_or([quote(c) for c in v["choices"]])
        what = _("the move type") if code == "event_type" else quote("end")
        if v.get("value") is None:
            return _("{what} must be {choices}").format(what=what, choices=choices)
        return _("{what} must be {choices}, not {value}").format(what=what, choices=choices, value=quote(v["value"]))
    if code == "bad_train":
        return _("the train must be a seat number or {mexican}").format(mexican=quote("mexican"))
    if code == "bad_rules":
        return ruleset_error_text(v["error"])
    if code == "no_rounds":
        return _("the record holds no round")
    if code == "too_many_rounds":
        return _("the record has {count} rounds, but the rules play {max}").format(count=v["count"], max=v["max"])
    if code == "end_and_scores":
        return _("a finished round has both {end} and {scores}").format(end=quote("end"), scores=quote("scores"))
    if code == "unfinished_round":
        return _("only the last round may be unfinished")
    if code == "not_a_record":
        if isinstance(v.get("format"), str):
            return _("it is not a mexitrain game record: its format is {format}").format(format=_shown(v["format"]))
        return _("it is not a mexitrain game record")
    if code == "other_version":
        if v["version"] > v["reads"]:
            return _("it was written by a newer mexitrain (version {version}; this one reads {reads})").format(
                version=v["version"], reads=v["reads"]
            )
        return _("it was written by an older mexitrain (version {version}; this one reads {reads})").format(
            version=v["version"], reads=v["reads"]
        )
    if code == "wrong_engine":
        return _("the engine is the double {engine}, not {found}").format(engine=v["engine"], found=v["found"])
    if code == "wrong_seat":
        if str(v.get("field", "")).endswith("engine_seat"):
            return _("{seat} set the engine, not {found}").format(
                seat=seat_label(v["seat"]), found=seat_label(v["found"])
            )
        return _("{seat} plays first, not {found}").format(seat=seat_label(v["seat"]), found=seat_label(v["found"]))
    if code == "wrong_deal":
        return _("{field} is not the deal of seed {seed}").format(field=quote(v["field"]), seed=v["seed"])
    if code == "wrong_seal":
        return _("the seal is not the seal of seed {seed}: the deal was not the one sealed at the start").format(
            seed=seed_text(v["seed"]) if isinstance(v.get("seed"), int) else "?"
        )
    if code == "wrong_result":
        return _("the record gives scores {scores}, the replay gives {replay_scores}").format(
            scores=_numbers(v["scores"]), replay_scores=_numbers(v["replay_scores"])
        ) if tuple(v["scores"]) != tuple(v["replay_scores"]) else _("the record ends the round another way than the replay")
    if code == "game_ended":
        return _("the game ended after round {after}").format(after=v["after"])
    if code == "round_over":
        return _("the round is already over")
    if code == "wrong_turn":
        return _("it is the turn of {turn}, not of {seat}").format(
            turn=seat_label(v["turn"]), seat=seat_label(v["seat"])
        )
    if code == "illegal_move":
        return reason_text(v["reason"], None, None)
    if code == "wrong_draw":
        if v.get("found") is not None:
            return _("the boneyard gives {tile}, not {found}").format(
                tile=tile_text(v["tile"]), found=tile_text(v["found"])
            )
        return _("the boneyard gives {tile}, not that tile").format(tile=tile_text(v["tile"]))
    if code == "round_not_over":
        return ngettext(
            "the record is truncated: the round has not ended after its {n} move",
            "the record is truncated: the round has not ended after its {n} moves",
            v["events"],
        ).format(n=v["events"])
    if code == "round_over_unsaid":
        return _("the round ended, but the record gives no end and scores")
    if code == "game_truncated":
        return _("the record is truncated: round {round} is missing").format(round=v["missing"])
    if code == "wrong_totals":
        return _("the record gives totals {recorded}, the replay gives {replayed}").format(
            recorded=_numbers(v["recorded"]), replayed=_numbers(v["replayed"])
        )
    if code == "wrong_winners":
        return _("the record gives the winners as seats {recorded}, the replay gives {replayed}").format(
            recorded=_seats(v["recorded"]), replayed=_seats(v["replayed"])
        )
    if code == "not_utf8":
        if v.get("offset") is not None:
            return _("the file is damaged: it is not text (byte {offset})").format(offset=v["offset"])
        return _("the file is damaged: it is not text")
    if code == "not_strict_json":
        return _("the file is damaged: {problem}").format(problem=strict_json_text(v["error"]))
    if code == "truncated":
        return _("the file is truncated (line {line}, column {column})").format(line=v["line"], column=v["column"])
    if code == "not_json":
        if "line" in v:
            return _("the file is damaged: it is not valid JSON (line {line}, column {column})").format(
                line=v["line"], column=v["column"]
            )
        return _("the file is damaged: not valid JSON")
    if code == "too_deep":
        return _("the file is damaged: not valid JSON")
    if code == "player_count":
        return _("the game has {players} players, not {given}").format(players=v["players"], given=v["given"])
    if code in ("bad_player", "not_writable"):
        return _("the game cannot be written as a record")
    return None


def record_error_text(exc: Any) -> str:
    """A :class:`~mexitrain.rules.record.RecordError` as one line in the player's language:
    where it is (round, move) and what is wrong, from its code and values."""
    code = getattr(exc, "code", None)
    v = getattr(exc, "values", {}) or {}
    try:
        problem = _record_problem(code, v)
        where = _record_where(v, code)
        text = problem if where is None else _("{where}: {problem}").format(where=where, problem=problem)
    except (KeyError, TypeError, ValueError, IndexError):  # a code without the values it needs
        text = _("the record is not valid")
    if v.get("path"):
        text = _("{path}: {problem}").format(path=v["path"], problem=text)
    return " ".join(text.split())  # one line, whatever a damaged file holds



def resume_line(data_dir: str | None = None) -> str:
    """The line the terminal keeps after a game in progress was quit: how to go on with it.
    ``data_dir``: the ``--data-dir`` it was played with (its autosave is there)."""
    command = "mexitrain" if data_dir is None else f"mexitrain --data-dir {shlex.quote(printable(str(data_dir)))}"
    return _("Your game is autosaved: run {command} to resume it.").format(command=command)
