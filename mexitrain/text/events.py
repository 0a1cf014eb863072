"""The game's events in words: a move, a round's header, how a round ended, who won. One
wording for the move log, the replay viewer and the records' messages to the player.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import _
from ..rules import Event, SeatView
from ..rules.tiles import is_double
from .basics import (
    MEXICAN,
    continued,
    is_you_name,
    join_and,
    seat_called,
    seat_label,
    seat_name,
    side_name,
    tile_text,
    train_name,
    train_where,
)


def round_phrase(number: int, total: int | None = None) -> str:
    """"Round 3 of 13", or "Round 3"."""
    if total is None:
        return _("Round {round}").format(round=number)
    return _("Round {round} of {total}").format(round=number, total=total)



def _team(view: SeatView, seat: int) -> tuple[int, ...]:
    """``seat`` and, with teams, its partner (:meth:`RuleSet.partner`)."""
    partner = view.rules.partner(seat, view.players)
    return (seat,) if partner is None else (seat, partner)


def _marked_owner(view: SeatView, index: int) -> int:
    """Whose train a mark event put a marker on: the event says (the core wrote it; a game
    saved before events said it: the seat's own)."""
    e = view.events[index]
    return e.seat if e.train is None or e.train == MEXICAN else int(e.train)


#: ``viewer`` default of the sentences about a view: the view's own seat is "you".
VIEW_SEAT = -1


def event_line(
    view: SeatView,
    names: Sequence[str],
    index: int,
    auto: bool = False,
    viewer: int | None = VIEW_SEAT,
    *,
    after_colon: bool = False,
) -> str:
    """One event of this round in words, as ``view.seat`` may know it, told to ``viewer``
    ("you"; None: nobody at the table, as in the replay viewer). ``after_colon``: the
    sentence goes on after a label ("Last move: …"): one that starts with "You" is
    :func:`~.basics.continued` (French: « vous avez posé »); one that starts with a name keeps it."""
    if viewer == VIEW_SEAT:
        viewer = view.seat
    text = _event_sentence(view, names, index, auto, viewer)
    if after_colon and view.events[index].seat == viewer:  # "You …": every such sentence
        return continued(text)
    return text


def _event_sentence(view: SeatView, names: Sequence[str], index: int, auto: bool, viewer: int | None) -> str:
    e: Event = view.events[index]
    mine = e.seat == viewer
    name = seat_called(names, e.seat)
    n = view.players
    if e.type == "play":
        where = train_where(names, viewer, n, e.train, e.branch, actor=e.seat)
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



def end_words(
    end: str, out_seat: int | None, names: Sequence[str], viewer: int | None, *, after_colon: bool = False
) -> str:
    """How a round ended: "Bea went out (domino)", "nobody could play any more (blocked)".
    ``after_colon``: as in :func:`event_line` ("Round 3 over: …")."""
    if end == "domino" and out_seat is not None:
        if out_seat == viewer:
            text = _("You went out (domino)")
            return continued(text) if after_colon else text
        return _("{name} went out (domino)").format(name=seat_called(names, out_seat))
    if end == "stuck":
        return _("the boneyard ran out and a player could not play")
    if end == "blocked":
        return _("nobody could play any more (blocked)")
    return end



def winners_text(names: Sequence[str], sides: Sequence[Sequence[int]], viewer: int | None = None) -> str:
    """"You win", "Bea wins", "Bea & Dot win", "Bea and Cal win"."""
    if len(sides) == 1 and len(sides[0]) == 1:
        seat = sides[0][0]
        name = seat_name(names, seat)
        if seat == viewer or (name is not None and is_you_name(name)):
            return _("You win")  # not "You wins": the default name of the human seat is "You"
        return _("{name} wins").format(name=name or seat_label(seat))
    return _("{names} win").format(names=join_and([side_name(names, side) for side in sides]))

