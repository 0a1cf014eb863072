"""Player-facing sentences shared by the screens and the command line, in the player's language.

Everything here goes through :mod:`mexitrain.i18n` (``_``, ``ngettext``, ``pgettext``), with
whole sentences as message ids and ``{name}`` placeholders, so a translation may reorder them.
No Textual, no markup: plain strings.

What the interfaces use:

- numbers and things: :func:`tile_text`, :func:`tile_count`, :func:`point_count`, :func:`decimal`,
  :func:`round_count`, :func:`player_count`, :func:`ordinal`, :func:`quote`,
  :func:`join_and`, :func:`join_or`, :func:`level_name`, :func:`seat_label`,
  :func:`preset_title`, :func:`option_help`;
- people and trains: :func:`who`, :func:`train_name`, :func:`train_label`, :func:`side_name`;
- errors as sentences: :func:`reason_text` (an :class:`~mexitrain.rules.IllegalAction`),
  :func:`ruleset_error_text`, :func:`save_error_text`, and :func:`error_text` for any of them;
- the game in words (translated equivalents of ``mexitrain.ui.words``, same signatures):
  :func:`event_line`, :func:`round_header`, :func:`turn_line`, :func:`knock_line`,
  :func:`end_words`, :func:`decided_text`, :func:`winners_text`, :func:`rules_summary`,
  :func:`round_phrase`, :func:`engine_phrase`.

The person whose screen it is reads "you"; everyone else is named. A train is named by its
owner's seat (0-based) or ``"mexican"``, as actions and reasons name it, or by a train index
(``players`` for the Mexican Train) where the board does.
"""

from __future__ import annotations

import errno
from collections.abc import Sequence
from typing import Any

from .i18n import N_, _, ngettext, pgettext
from .rules import Event, RuleSet, SeatView
from .rules.errors import IllegalAction
from .rules.ruleset import RuleSetError
from .rules.tiles import is_double
from .text import cells, printable
from .text import cut as cut_to

MEXICAN = "mexican"


# ---------------------------------------------------------------------------------------
# Numbers and things
# ---------------------------------------------------------------------------------------
def tile_text(tile: Sequence[int]) -> str:
    """``(7, 3)`` -> ``"7-3"`` (the same in every language)."""
    a, b = tile
    return f"{a}-{b}"


def tile_count(n: int) -> str:
    """"1 tile", "2 tiles" (« 1 tuile », « 2 tuiles »)."""
    return ngettext("{n} tile", "{n} tiles", n).format(n=n)


def point_count(n: int) -> str:
    """"1 point", "12 points"."""
    return ngettext("{n} point", "{n} points", n).format(n=n)


def round_count(n: int) -> str:
    """"1 round", "13 rounds" (« 1 manche », « 13 manches »)."""
    return ngettext("{n} round", "{n} rounds", n).format(n=n)


def player_count(n: int) -> str:
    """"1 player", "4 players"."""
    return ngettext("{n} player", "{n} players", n).format(n=n)


def decimal(x: float, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals and the language's decimal mark: "2.5" (« 2,5 »)."""
    return f"{x:.{digits}f}".replace(".", pgettext("decimal mark", "."))


def ordinal(n: int) -> str:
    """A place: "1st", "2nd", "3rd", "4th", "21st" (« 1er », « 2e »...)."""
    if n == 1:
        return pgettext("ordinal", "1st")
    if n % 10 == 1 and n % 100 != 11:
        return pgettext("ordinal", "{n}st").format(n=n)
    if n % 10 == 2 and n % 100 != 12:
        return pgettext("ordinal", "{n}nd").format(n=n)
    if n % 10 == 3 and n % 100 != 13:
        return pgettext("ordinal", "{n}rd").format(n=n)
    return pgettext("ordinal", "{n}th").format(n=n)


def quote(text: Any) -> str:
    """A value the player typed, quoted: 'maybe' (« maybe »)."""
    return pgettext("quoted value", "'{text}'").format(text=text)


def join_and(items: Sequence[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    items = [str(i) for i in items]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def join_or(items: Sequence[Any]) -> str:
    """"A", "A or B", "A, B or C"."""
    items = [str(i) for i in items]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("{first} or {last}").format(first=", ".join(items[:-1]), last=items[-1])


def level_name(kind: str) -> str:
    """A seat kind for display: "human" or a computer level ("random", "planner"...)."""
    if kind == "human":
        return pgettext("player kind", "human")
    if kind == "random":
        return pgettext("computer level", "random")
    if kind == "greedy":
        return pgettext("computer level", "greedy")
    if kind == "planner":
        return pgettext("computer level", "planner")
    if kind == "expert":
        return pgettext("computer level", "expert")
    return kind


def seat_label(seat: int) -> str:
    """Seat ``seat`` (0-based) as people count: "seat 1"."""
    return _("seat {seat}").format(seat=seat + 1)


_PRESET_TITLES = {
    "standard": N_("Standard (seed 000, double-12)"),
    "fast": N_("Fast double-9 (2-4 players)"),
    "common": N_("Common (seed 002 rules + play until blocked)"),
}


def preset_title(key: str) -> str:
    """The title of a rule preset (``mexitrain.rules.PRESETS``)."""
    title = _PRESET_TITLES.get(key)
    return _(title) if title else key


_OPTION_HELP = {
    "set": N_("double-N set (§1)"),
    "hand_table": N_("hand-size table: standard (§2) or the fast double-9 one"),
    "hand_size": N_("tiles each, overriding the table (§2)"),
    "rounds": N_("rounds in the game; default N+1 (one with highest_double) (§3)"),
    "engine": N_("engine of each round: N, N-1, ... or the highest double held (§3)"),
    "first_player": N_("who starts round 1 (§3, §8)"),
    "first_seat": N_("the seat that starts when first_player=chosen"),
    "double_follow_up": N_(
        "after a double: any non-double anywhere, or it must satisfy the double (§6)"
    ),
    "round_end": N_("when a round without a domino ends (§7)"),
    "trains_start_public": N_("personal trains public until first played (§4)"),
    "teams": N_("partners opposite share trains and scores (§8)"),
    "team_marker": N_("when partners' trains become public (§8)"),
    "open_hands": N_("every hand visible to every player (§8)"),
    "blanks_wild": N_("a blank matches any value (§8)"),
    "opening": N_("how each round opens (§8)"),
    "branching_doubles": N_("a satisfied double grows two branches (§8)"),
    "swan_drive": N_("play on following public trains too (§8)"),
}


def option_help(field: str) -> str:
    """What a rules option (a field of :class:`~mexitrain.rules.RuleSet`) does, in a few words.
    The option's name itself (``blanks_wild``) is an identifier and is never translated."""
    text = _OPTION_HELP.get(field)
    if text is not None:
        return _(text)
    info = RuleSet.model_fields.get(field)
    return (info.description or field) if info is not None else field


# ---------------------------------------------------------------------------------------
# People and trains
# ---------------------------------------------------------------------------------------
def seat_name(names: Sequence[str] | None, seat: int) -> str | None:
    """Seat ``seat``'s name, when the table's names are known and hold it."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return None


def seat_called(names: Sequence[str] | None, seat: int) -> str:
    """Seat ``seat``'s name, else "seat N"."""
    return seat_name(names, seat) or seat_label(seat)


def who(names: Sequence[str], viewer: int | None, seat: int) -> str:
    """"You" for the viewer, else the seat's name (at the start of a label)."""
    if seat == viewer:
        return _("You")
    return seat_called(names, seat)


def _is_mexican(index: Any, players: int | None) -> bool:
    return index == MEXICAN or (players is not None and index == players)


def train_name(
    names: Sequence[str] | None,
    viewer: int | None,
    players: int | None,
    index: Any,
    actor: int | None = None,
) -> str:
    """A train inside a sentence: "the Mexican Train", "your train", "their train" (the
    actor's own), "Bea's train" (« le Train Mexicain », « votre train », « son train »,
    « le train de Bea »). ``index``: a seat, ``"mexican"``, or ``players`` for the Mexican Train."""
    if _is_mexican(index, players):
        return _("the Mexican Train")
    if index == viewer:
        return _("your train")
    if actor is not None and index == actor:
        return _("their train")
    if isinstance(index, int):
        name = seat_name(names, index)
        if name is not None:
            return _("{name}'s train").format(name=name)
        return _("the train of seat {seat}").format(seat=index + 1)
    return _("train {ref}").format(ref=quote(index))


def is_you_name(name: str) -> bool:
    """Whether ``name`` is the default name of the one person at the table ("You", in
    English or in the player's language)."""
    return name in ("You", pgettext("player name", "You"))


def short_names(names: Sequence[str], width: int) -> list[str]:
    """Names cut to ``width`` terminal cells for the board, still told apart: names whose cut
    forms would be the same ("Rand", "Rand") keep their last character ("Ran1", "Ran2")."""
    plain = [cut_to(n, width) for n in names]
    cut = [
        cut_to(n, width - cells(n.rstrip()[-1])) + n.rstrip()[-1]
        if cells(n) > width > 1 and plain.count(p) > 1 and n.strip()
        else p
        for n, p in zip(names, plain, strict=True)
    ]
    return [c if cut.count(c) == 1 else p for c, p in zip(cut, plain, strict=True)]


def train_label(names: Sequence[str], players: int, index: Any) -> str:
    """A train's short label on the board: its owner's name, or "Mexican"."""
    if _is_mexican(index, players):
        return pgettext("short train label", "Mexican")
    return seat_called(names, index)


def side_name(names: Sequence[str], side: Sequence[int]) -> str:
    """A seat, or a team of two partners: "Bea", "Bea & Dot"."""
    if len(side) == 2:
        return _("{first} & {second}").format(first=names[side[0]], second=names[side[1]])
    return " & ".join(names[s] for s in side)


def _where(names, viewer, players, ref, branch: int = 0, actor: int | None = None) -> str:
    where = train_name(names, viewer, players, ref, actor)
    if branch:
        where = _("{train} (branch {branch})").format(train=where, branch=branch)
    return where


# ---------------------------------------------------------------------------------------
# Illegal actions
# ---------------------------------------------------------------------------------------
def _why_text(why: str, values: dict, names, viewer) -> str:
    if why == "in_chain":
        return _("you are in the middle of your opening chain")
    if why == "in_swan":
        return _("you are in the middle of a swan drive")
    if why == "chain_goes_on":
        return _("your opening chain goes on while a tile fits your train")
    if why == "draw_first":
        return _("draw a tile first")
    if why == "pass_instead":
        return _("no marker is placed here; pass instead")
    if why == "drawn_playable":
        tile, ref = values["example"]
        return _("the tile you drew can be played ({tile} on {train})").format(
            tile=tile_text(tile), train=train_name(names, viewer, None, ref)
        )
    if why == "marker_here":
        return _("the rules place your marker on your train")
    return why


def reason_text(exc: IllegalAction, names: Sequence[str] | None = None, viewer: int | None = None) -> str:
    """Why an action was refused, as one sentence in the player's language.

    ``names`` are the seats' names (missing names read "seat N"); ``viewer`` is the seat whose
    screen it is (its train reads "your train"). The sentence speaks to the player who tried
    the action ("you").
    """
    code, v = exc.code, exc.values

    def t(key: str) -> str:
        return tile_text(v[key])

    def train(key: str = "train") -> str:
        return train_name(names, viewer, None, v[key])

    if code == "game_over":
        return _("The game is over.")
    if code == "not_in_hand":
        return _("You do not hold {tile}.").format(tile=t("tile"))
    if code == "must_play_drawn":
        return _("You must play the tile you drew, {tile}, or end your turn.").format(tile=t("drawn"))
    if code == "double_follow_up":
        return _("After a double you must play a tile that is not a double; {tile} is a double.").format(
            tile=t("tile")
        )
    if code == "private_train":
        return _("Only its owner may play on {train} until it carries a marker.").format(train=train())
    if code == "blocked_by_double":
        return _("The open double {double} on {train} must be satisfied first.").format(
            double=t("double"), train=train()
        )
    if code == "must_satisfy":
        return _("Your double {double} on {train} must be satisfied first.").format(
            double=t("double"), train=train()
        )
    if code == "chain_own_train":
        return _("Your opening chain goes on your own train only.")
    if code == "first_turn_own_train":
        return _("On your first turn you must start your own train, and you can.")
    if code == "swan_next":
        if v.get("next") is None:
            return _("Your swan drive has no public train left: end your turn.")
        return _("Your swan drive goes on to {train} now.").format(train=train("next"))
    if code == "no_train":
        ref = v.get("ref")
        if isinstance(ref, int) and not isinstance(ref, bool):
            return _("There is no train for seat {seat}.").format(seat=ref + 1)
        return _("There is no train {ref}.").format(ref=quote(ref))
    if code == "no_branch":
        return _("There is no branch {branch} on {train}.").format(branch=v["branch"], train=train())
    if code == "does_not_fit":
        return _("{tile} does not fit {train}, whose open end is {end}.").format(
            tile=t("tile"), train=train(), end=v["end"]
        )
    if code == "wrong_half":
        return _(
            "{tile} cannot be laid that way on {train}: its first half must match the open end {end}."
        ).format(tile=t("tile"), train=train(), end=v["end"])
    if code == "must_play":
        tile, ref = v["example"]
        return _("You hold a tile that can be played, so you must play it: {tile} on {train}, for example.").format(
            tile=tile_text(tile), train=train_name(names, viewer, None, ref)
        )
    if code == "already_drawn":
        return _("You have already drawn this turn.")
    if code == "boneyard_empty":
        return _("The boneyard is empty.")
    if code == "cannot_skip_now":
        return _("Only the Mexican Train may be skipped in a swan drive.")
    if code in ("cannot_mark_now", "cannot_pass_now", "draw_not_allowed"):
        why = _why_text(v.get("why", ""), v, names, viewer)
        if code == "cannot_mark_now":
            return _("You cannot end your turn now: {why}.").format(why=why)
        if code == "cannot_pass_now":
            return _("You cannot pass now: {why}.").format(why=why)
        return _("You cannot draw now: {why}.").format(why=why)
    return _("That move is not allowed.")


# ---------------------------------------------------------------------------------------
# Rule sets
# ---------------------------------------------------------------------------------------
def _shown(value: Any) -> str:
    # a value read from a file is never printed raw
    return quote(printable(value)) if isinstance(value, str) else str(value)


def ruleset_error_text(exc: RuleSetError) -> str:
    """Why a rule set, or a rule set with that many players, cannot be played (one line)."""
    code = getattr(exc, "code", None)
    v = getattr(exc, "values", {})
    try:
        return _ruleset_error_text(code, v) or str(exc)
    except (KeyError, TypeError, ValueError):  # a code without the values it needs
        return str(exc)


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
            option=v["option"], choices=join_or([_shown(c) for c in v["choices"]]), value=_shown(v["value"])
        )
    if code == "too_small":
        return _("option {option} must be at least {min}, not {value}").format(
            option=v["option"], min=v["min"], value=_shown(v["value"])
        )
    if code == "not_whole_number":
        return _("option {option} takes a whole number, not {value}").format(
            option=v["option"], value=_shown(v["value"])
        )
    if code == "invalid" and "option" in v:  # any other value an option refuses
        if v["option"] not in RuleSet.model_fields:
            return _("{field} is not a known setting").format(field=quote(v["option"]))
        return _("{field} is not valid").format(field=_field_text((v["option"],)))
    return None


# ---------------------------------------------------------------------------------------
# Saved games
# ---------------------------------------------------------------------------------------
def _os_problem(v: dict) -> str:
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
    """A :class:`~mexitrain.storage.saves.SaveError` as one line in the player's language."""
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
            return _("cannot save {path}: {problem}").format(path=where, problem=_os_problem(v))
        if code == "name_taken":
            return _("cannot save {path}: a saved game with that name exists").format(path=where)
        if code == "bad_name":
            return _("cannot save: {name} cannot be used as a save name: use letters or digits").format(
                name=quote(v["name"])
            )
        return None
    if action == "remove":
        if code == "os_error":
            return _("cannot remove {path}: {problem}").format(path=where, problem=_os_problem(v))
        return None
    if action != "load":
        return None
    if code in _LOAD_PROBLEMS:
        return _(_LOAD_PROBLEMS[code]).format(path=where)
    if code == "os_error":
        return _("cannot load {path}: {problem}").format(path=where, problem=_os_problem(v))
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
    "not_whole_number": lambda v: _("must be a whole number, not {found}").format(found=_json_type(v["found"])),
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
    if code in ("bad_player", "player_count", "not_writable"):
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


def error_text(exc: BaseException) -> str:
    """Any of the game's errors as one line in the player's language: an IllegalAction, a
    RuleSetError (also inside pydantic's ValidationError), a SaveError; else ``str(exc)``."""
    if isinstance(exc, IllegalAction):
        return reason_text(exc)
    if isinstance(exc, RuleSetError):
        return ruleset_error_text(exc)
    if type(exc).__name__ == "SaveError":
        return save_error_text(exc)
    if type(exc).__name__ == "UndoRefused":
        return undo_refused_text(exc)
    if type(exc).__name__ == "RecordError":
        return record_error_text(exc)
    if isinstance(exc, OSError):  # a file the system refused (its message is in English)
        problem = _os_problem({"errno": exc.errno, "error": exc.strerror or str(exc)})
        if exc.filename:
            return _("{path}: {problem}").format(path=exc.filename, problem=problem)
        return problem
    if callable(getattr(exc, "errors", None)):  # a pydantic ValidationError
        return validation_error_text(exc)
    return str(exc)


# ---------------------------------------------------------------------------------------
# pydantic's validation errors (never shown in pydantic's English)
# ---------------------------------------------------------------------------------------
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
    from typing import get_args

    from .table import SeatConfig

    parts = [p for p in loc if p != "rules"]
    if len(parts) == 1 and parts[0] in RuleSet.model_fields:
        return get_args(RuleSet.model_fields[parts[0]].annotation)
    if parts and parts[-1] == "kind":
        return get_args(SeatConfig.model_fields["kind"].annotation)
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
    shown = _shown(value) if isinstance(value, (str, int, float, bool)) else None
    if kind in ("literal_error", "enum"):
        choices = _literal_choices(loc)
        if choices and shown is not None:
            return _("{field} takes {choices}, not {value}").format(
                field=field, choices=join_or([_shown(c) for c in choices]), value=shown
            )
        if choices:
            return _("{field} takes {choices}").format(field=field, choices=join_or([_shown(c) for c in choices]))
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


# ---------------------------------------------------------------------------------------
# The game in words (translated equivalents of mexitrain.ui.words)
# ---------------------------------------------------------------------------------------
def round_phrase(number: int, total: int | None = None) -> str:
    """"Round 3 of 13", or "Round 3"."""
    if total is None:
        return _("Round {round}").format(round=number)
    return _("Round {round} of {total}").format(round=number, total=total)


def engine_phrase(value: int) -> str:
    """"engine 12-12" (« locomotive 12-12 »)."""
    return _("engine {engine}").format(engine=f"{value}-{value}")


def _team(view: SeatView, seat: int) -> tuple[int, ...]:
    if view.rules.teams:
        return (seat, (seat + view.players // 2) % view.players)
    return (seat,)


def _marked_owner(view: SeatView, index: int) -> int:
    """Whose train a mark event put a marker on (§6 must_satisfy: the double's train)."""
    e = view.events[index]
    if view.rules.double_follow_up != "must_satisfy":
        return e.seat
    for prev in reversed(view.events[:index]):
        if prev.seat != e.seat:
            break
        if prev.type == "play":
            if is_double(prev.tile) and prev.train != MEXICAN:
                return int(prev.train)
            break
    return e.seat


#: ``viewer`` default of the sentences about a view: the view's own seat is "you".
VIEW_SEAT = -1


def event_line(
    view: SeatView, names: Sequence[str], index: int, auto: bool = False, viewer: int | None = VIEW_SEAT
) -> str:
    """One event of this round in words, as ``view.seat`` may know it, told to ``viewer``
    ("you"; None: nobody at the table, as in the replay viewer)."""
    e: Event = view.events[index]
    if viewer == VIEW_SEAT:
        viewer = view.seat
    mine = e.seat == viewer
    name = seat_called(names, e.seat)
    n = view.players
    if e.type == "play":
        where = _where(names, viewer, n, e.train, e.branch, actor=e.seat)
        tile = tile_text(e.tile)
        if is_double(e.tile):
            later = view.events[index + 1 :]
            if mine and not later and view.phase in ("follow_up", "follow_up_drawn"):
                if view.rules.double_follow_up == "must_satisfy":
                    text = _("You played {tile} on {train}: you must satisfy it with a non-double")
                else:
                    text = _("You played {tile} on {train}: you must follow with a non-double")
                return text.format(tile=tile, train=where)
            if not mine:
                return _("{name} played {tile} on {train} (a double)").format(
                    name=name, tile=tile, train=where
                )
        if mine:
            return _("You played {tile} on {train}").format(tile=tile, train=where)
        return _("{name} played {tile} on {train}").format(name=name, tile=tile, train=where)
    if e.type == "draw":
        if e.tile is not None:
            if mine:
                return _("You drew {tile}").format(tile=tile_text(e.tile))
            return _("{name} drew {tile}").format(name=name, tile=tile_text(e.tile))
        if mine:
            return _("You drew a tile")
        return _("{name} drew a tile").format(name=name)
    if e.type == "mark":
        owner = _marked_owner(view, index)
        if view.rules.teams:
            if viewer in _team(view, owner):
                where = _("your team's trains")
            elif owner == e.seat:
                where = _("their team's trains")
            else:
                where = _("{name}'s team's trains").format(name=seat_called(names, owner))
        else:
            where = train_name(names, viewer, n, owner, actor=e.seat)
        if mine:
            if auto:
                text = _("You placed a marker on {train} (automatic: no tile could be played)")
            else:
                text = _("You placed a marker on {train}")
        elif auto:
            text = _("{name} placed a marker on {train} (automatic: no tile could be played)")
        else:
            text = _("{name} placed a marker on {train}")
        return text.format(name=name, train=where)
    if e.type == "pass":
        if mine:
            text = _("You passed (automatic: it was the only move)") if auto else _("You passed")
        elif auto:
            text = _("{name} passed (automatic: it was the only move)")
        else:
            text = _("{name} passed")
        return text.format(name=name)
    if e.type == "skip":
        if mine:
            return _("You skipped the Mexican Train")
        return _("{name} skipped the Mexican Train").format(name=name)
    return f"{name}: {e.type}"  # pragma: no cover


def round_header(view: SeatView, names: Sequence[str], viewer: int | None = VIEW_SEAT) -> str:
    """"Round 3 of 13 · engine 10-10, set by Bea · you start" (``viewer``: as in event_line)."""
    if viewer == VIEW_SEAT:
        viewer = view.seat
    parts = [round_phrase(view.round, view.rules.round_count)]
    engine = f"{view.engine}-{view.engine}"
    if view.engine_seat is None:
        parts.append(_("engine {engine}").format(engine=engine))
    elif view.engine_seat == viewer:
        parts.append(_("engine {engine}, set by you").format(engine=engine))
    else:
        setter = seat_called(names, view.engine_seat)
        parts.append(_("engine {engine}, set by {name}").format(engine=engine, name=setter))
    first = view.first_seat
    if first == viewer:
        parts.append(_("you start"))
    else:
        parts.append(_("{name} starts").format(name=seat_called(names, first)))
    return " · ".join(parts)


def open_doubles(view: SeatView) -> list[tuple[int, int, tuple[int, int]]]:
    """(train index, line, double) of every double at the end of a line."""
    out = []
    for ti, train in enumerate(view.trains):
        for li in train.open_double_lines():
            out.append((ti, li, train.lines[li][-1]))
    return out


def turn_line(
    view: SeatView,
    names: Sequence[str],
    kinds: Sequence[str],
    legal_types: frozenset[str],
    has_play: bool,
    next_train: Any = None,
    person: str | None = None,
) -> str:
    """What is happening now and what the turn still owes. ``next_train``: where the
    legal plays go when they all go to one train (the swan drive's next train).
    ``person``: several people share the terminal: the line names whose turn it is
    ("Ann's turn: …" rather than "Your turn: …"; issue 21)."""
    line = _turn_line(view, names, kinds, legal_types, has_play, next_train, person)
    if person is not None and view.turn == view.seat and kinds[view.turn] == "human" and view.phase != "game_over":
        if not line.startswith(_("{name}'s turn").format(name=person)):
            line = _("{name}: {line}").format(name=person, line=line)
    return line


def _turn_line(
    view: SeatView,
    names: Sequence[str],
    kinds: Sequence[str],
    legal_types: frozenset[str],
    has_play: bool,
    next_train: Any,
    person: str | None,
) -> str:
    def yours(mine: str, theirs: str, **values: Any) -> str:
        return (mine if person is None else theirs).format(name=person, **values)

    if view.phase == "game_over":
        return _("The game is over.")
    turn = view.turn
    n = view.players
    if turn != view.seat or kinds[turn] != "human":
        name = seat_called(names, turn)
        if kinds[turn] != "human":
            return _("{name} ({level}) is playing…").format(name=name, level=level_name(kinds[turn]))
        return _("{name}'s turn").format(name=name)
    rules = view.rules
    phase = view.phase
    if phase == "chain":
        return _("Your opening chain: lay every tile you can on your own train (Enter)")
    if phase == "swan":
        if next_train is None:
            where = _("the next public train")
        else:
            where = train_name(names, view.seat, n, next_train)
        if "skip" in legal_types:
            return _("Swan drive: play on {train} next, or m to stop · n skips it").format(train=where)
        return _("Swan drive: play on {train} next, or m to stop").format(train=where)
    if phase in ("drawn", "follow_up_drawn"):
        drawn = tile_text(view.drawn) if view.drawn else _("a tile")
        if has_play:
            if "pass" in legal_types:
                return _("You drew {tile}: it fits — play it (Enter) — or m to pass").format(tile=drawn)
            return _("You drew {tile}: it fits — play it (Enter)").format(tile=drawn)
        return _("You drew {tile}: it cannot be played — m ends your turn").format(tile=drawn)
    if phase == "follow_up":
        dti, dli = view.double_line or (turn, 0)
        double = tile_text(view.trains[dti].lines[dli][-1])
        where = train_name(names, view.seat, n, dti)
        if not has_play:
            return _("No non-double fits after your {double}: press d to draw").format(double=double)
        if rules.double_follow_up == "must_satisfy":
            return _("Satisfy your double {double} on {train} with a non-double").format(
                double=double, train=where
            )
        return _("Follow your double {double} with a non-double (on it or any train you may use)").format(
            double=double
        )
    blocking = open_doubles(view)
    if not has_play:
        if "draw" in legal_types:
            return yours(
                _("Your turn: no tile fits — press d to draw"), _("{name}'s turn: no tile fits — press d to draw")
            )
        if legal_types & {"mark", "pass"}:
            return yours(
                _("Your turn: nothing fits and the boneyard is empty — m ends your turn"),
                _("{name}'s turn: nothing fits and the boneyard is empty — m ends the turn"),
            )
        return yours(_("Your turn"), _("{name}'s turn"))
    if len(blocking) == 1:
        ti, _li, d = blocking[0]
        where = train_name(names, view.seat, n, ti)
        return yours(
            _("Your turn: the open double {double} on {train} must be satisfied first"),
            _("{name}'s turn: the open double {double} on {train} must be satisfied first"),
            double=tile_text(d),
            train=where,
        )
    if view.rules.opening in ("first_turn_chain", "delayed_first_turn") and view.chain_right[turn]:
        return yours(
            _("Your turn: start your own train to lay a whole chain on it"),
            _("{name}'s turn: start your own train to lay a whole chain on it"),
        )
    return yours(
        _("Your turn: pick a tile (←→) and a train (↑↓), then Enter"),
        _("{name}'s turn: pick a tile (←→) and a train (↑↓), then Enter"),
    )


def knock_line(view: SeatView, names: Sequence[str]) -> str:
    """The knock (§5.4): who is down to one tile ("" when nobody is)."""
    ones = [s for s, k in enumerate(view.hand_sizes) if k == 1]
    if not ones:
        return ""
    others = [seat_called(names, s) for s in ones if s != view.seat]
    if view.seat in ones:
        if not others:
            return _("KNOCK! You have one tile left")
        return _("KNOCK! You and {names} have one tile left each").format(names=join_and(others))
    if len(others) == 1:
        return _("KNOCK! {name} has one tile left").format(name=others[0])
    return _("KNOCK! {names} have one tile left each").format(names=join_and(others))


def end_words(end: str, out_seat: int | None, names: Sequence[str], viewer: int | None) -> str:
    """How a round ended: "Bea went out (domino)", "nobody could play any more (blocked)"."""
    if end == "domino" and out_seat is not None:
        if out_seat == viewer:
            return _("You went out (domino)")
        return _("{name} went out (domino)").format(name=seat_called(names, out_seat))
    if end == "stuck":
        return _("the boneyard ran out and a player could not play")
    if end == "blocked":
        return _("nobody could play any more (blocked)")
    return end


def end_name(end: str) -> str:
    """A round end in one or two words (statistics): "domino", "stuck", "blocked"."""
    if end == "domino":
        return pgettext("round end", "domino")
    if end == "stuck":
        return pgettext("round end", "stuck")
    if end == "blocked":
        return pgettext("round end", "blocked")
    return end


DECIDED = {
    "total": N_("on the lowest total"),
    "zero_rounds": N_("on the tie-break: most rounds scored 0"),
    "lowest_nonzero": N_("on the tie-break: the lowest non-zero round"),
    "shared": N_("a shared win: still tied after both tie-breaks"),
}


def decided_text(key: str) -> str:
    """What decided the winner (``mexitrain.rules.decided_by``), in words."""
    text = DECIDED.get(key)
    return _(text) if text else key


def winners_text(names: Sequence[str], sides: Sequence[Sequence[int]], viewer: int | None = None) -> str:
    """"You win", "Bea wins", "Bea & Dot win", "Bea and Cal win"."""
    if len(sides) == 1 and len(sides[0]) == 1:
        seat = sides[0][0]
        name = seat_name(names, seat)
        if seat == viewer or (name is not None and is_you_name(name)):
            return _("You win")  # not "You wins": the default name of the human seat is "You"
        return _("{name} wins").format(name=name or seat_label(seat))
    return _("{names} win").format(names=join_and([side_name(names, side) for side in sides]))


def option_words(key: str, value: Any) -> str:
    """One rules option's value in words, as :func:`rules_summary` says it."""
    table = {
        ("engine", "descending"): N_("engines count down from the highest double"),
        ("engine", "highest_double"): N_("each round's engine is the highest double held"),
        ("first_player", "random"): N_("the first player is drawn at random"),
        ("first_player", "chosen"): N_("the first player was chosen"),
        ("first_player", "heaviest"): N_("the holder of the heaviest tile starts"),
        ("double_follow_up", "any"): N_("after a double, play a non-double anywhere you may"),
        ("double_follow_up", "must_satisfy"): N_("after a double, the next tile must go on that double"),
        ("round_end", "boneyard_empty"): N_("a round ends when someone must draw from an empty boneyard"),
        ("round_end", "until_blocked"): N_("with the boneyard empty, play on until nobody can move"),
        ("opening", "normal"): N_("one tile a turn from the start"),
        ("opening", "simultaneous"): N_("each round opens with everyone laying a chain on their own train"),
        ("opening", "first_turn_chain"): N_("on your first turn you lay a whole chain on your own train"),
        ("opening", "delayed_first_turn"): N_("the turn you start your train, you may lay a whole chain"),
        ("team_marker", "together"): N_("partners' trains become public and private together"),
        ("team_marker", "both_stuck"): N_("partners' trains become public only when both are stuck"),
        ("trains_start_public", True): N_("personal trains are public until their owner plays on them"),
        ("teams", True): N_("partners sitting opposite share trains and scores"),
        ("open_hands", True): N_("every hand is played face up"),
        ("blanks_wild", True): N_("blanks are wild: a blank matches any value"),
        ("branching_doubles", True): N_("a satisfied double grows two more branches"),
        ("swan_drive", True): N_("after playing on your own train you may go on along the public trains"),
    }
    text = table.get((key, value))
    return _(text) if text else f"{key}={value}"


_UNDO_REFUSED = {
    "game_over": N_("the game is over"),
    "nothing_yet": N_("nothing to undo yet"),
    "round_start": N_("nothing to undo in this round: undo never goes back into an earlier round"),
    "drew": N_("you drew {tile} since then: undoing would reveal a hidden tile"),
    "other_player": N_("{who} has moved since then: undoing would take back their move too"),
    "not_replayable": N_("this game cannot be rebuilt from its moves ({why})"),
}


def undo_refused_text(exc: Any) -> str:
    """Why undo is not possible (a :class:`~mexitrain.rules.undo.UndoRefused`), in words."""
    values = dict(getattr(exc, "values", {}) or {})
    template = _UNDO_REFUSED.get(getattr(exc, "code", ""))
    if template is None:
        return str(exc)
    if "seats" in values:
        values["who"] = join_and([_("the player in seat {seat}").format(seat=s + 1) for s in values["seats"]])
    try:
        return _(template).format(**values)
    except (KeyError, IndexError):
        return str(exc)


def undo_text(state: Any, seat: int, humans: Sequence[int] = ()) -> tuple[bool, str]:
    """:func:`mexitrain.rules.undo.can_undo` in the player's language: ``(True, what undo
    takes back)`` or ``(False, why not)``."""
    from .rules.undo import UndoRefused, _plan

    try:
        plan = _plan(state, seat, humans)
    except UndoRefused as exc:
        return False, undo_refused_text(exc)
    event = state.events[plan.index]
    others = len(state.events) - plan.index - 1
    if event.type == "play":
        if event.train == MEXICAN:
            where = _("the Mexican Train")
        elif event.train == event.seat:
            where = _("your train")
        else:
            where = _("seat {seat}'s train").format(seat=event.train + 1)
        what = _("your play {tile} on {train}").format(tile=tile_text(event.tile), train=where)
    else:
        what = {
            "pass": _("your pass"), "skip": _("your skip"), "mark": _("your marker"), "draw": _("your draw"),
        }.get(event.type, event.type)
    if others:
        return True, ngettext(
            "undo {what} and {n} move after it", "undo {what} and {n} moves after it", others
        ).format(what=what, n=others)
    return True, _("undo {what}").format(what=what)


_SUMMARY_OPTIONS = ("engine", "first_player", "double_follow_up", "round_end", "opening", "team_marker")
_SUMMARY_FLAGS = (
    "trains_start_public", "teams", "open_hands", "blanks_wild", "branching_doubles", "swan_drive",
)


def rules_summary(rules: RuleSet, players: int) -> list[str]:
    """The active rules, one short line each (help screen, new-game screen)."""
    try:
        rules.check_players(players)
        tiles = ngettext("{n} tile each", "{n} tiles each", rules.tiles_each(players)).format(
            n=rules.tiles_each(players)
        )
    except ValueError:
        tiles = _("? tiles each")
    lines = [
        _("double-{set} set, {tiles}, {rounds}").format(
            set=rules.set, tiles=tiles, rounds=round_count(rules.round_count)
        )
    ]
    for key in _SUMMARY_OPTIONS:
        if key == "team_marker" and not rules.teams:
            continue
        value = getattr(rules, key)
        if key == "first_player" and value == "chosen":
            lines.append(_("the first player was chosen (seat {seat})").format(seat=rules.first_seat + 1))
        else:
            lines.append(option_words(key, value))
    for key in _SUMMARY_FLAGS:
        if getattr(rules, key):
            lines.append(option_words(key, True))
    return lines


def rules_choices(rules: RuleSet, players: int) -> list[str]:
    """What the game does where the sources are silent, for the options in force, one line
    each (help screen; RULES.md §10 and docs/rules.md "Choices where the sources are silent")."""
    lines = []
    if rules.set == 9 and players == 8 and rules.hand_size is None and rules.hand_table == "standard":
        lines.append(_("With 8 players on a double-9 set, each gets 6 tiles (7 each cannot be dealt)."))
    if rules.first_player == "heaviest":
        lines.append(_("Heaviest tile first: on equal pips a double wins, then the tile with the higher half."))
    if rules.engine == "highest_double":
        lines.append(_("If nobody holds a double, players draw in turn from the boneyard until one is drawn."))
    if rules.opening == "simultaneous":
        lines.append(
            _("Everyone lays their opening chain before the round can end; each player left with no tile scores 0.")
        )
    if rules.opening == "first_turn_chain":
        lines.append(
            _("On your first turn, if your own train cannot be started you must still play elsewhere if a tile "
              "fits; you draw only when nothing fits.")
        )
    if rules.opening != "normal" and rules.branching_doubles:
        lines.append(_("An opening chain follows one line; the branches of its doubles wait for normal turns."))
    if rules.blanks_wild:
        lines.append(_("A double may be laid on an open 0-0: it satisfies it and opens a new double."))
    if rules.teams and rules.team_marker == "both_stuck":
        if rules.double_follow_up == "must_satisfy":
            lines.append(
                _("A double you cannot satisfy marks the train it is on (with its partner train), whatever your "
                  "partner did.")
            )
        else:
            lines.append(_("Laying a double and failing its follow-up counts as a play: no marker."))
    if rules.swan_drive:
        lines.append(
            _("Swan drive: the Mexican Train is a stop only once started, just after the seat of its starter.")
        )
        if rules.teams:
            lines.append(_("Swan drive: your partner's train is not a stop."))
    lines.append(_("A game still tied after both tie-breaks is a shared win."))
    return lines


__all__ = [
    "DECIDED",
    "decided_text",
    "decimal",
    "end_name",
    "end_words",
    "engine_phrase",
    "error_text",
    "event_line",
    "join_and",
    "join_or",
    "knock_line",
    "level_name",
    "open_doubles",
    "option_help",
    "option_words",
    "ordinal",
    "player_count",
    "point_count",
    "preset_title",
    "quote",
    "reason_text",
    "round_count",
    "round_header",
    "round_phrase",
    "rules_choices",
    "rules_summary",
    "notice_text",
    "record_error_text",
    "ruleset_error_text",
    "strict_json_text",
    "validation_error_text",
    "save_error_text",
    "seat_label",
    "side_name",
    "tile_count",
    "tile_text",
    "train_label",
    "train_name",
    "turn_line",
    "who",
    "winners_text",
]
