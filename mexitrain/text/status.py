"""The status line's words: what the turn owes now (the prompt) and the knock (§5.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import _
from ..rules import SeatView
from .basics import continued, join_and, level_name, seat_called, tile_text, train_name
from .events import VIEW_SEAT


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
    ("Ann's turn: …" rather than "Your turn: …")."""
    line = _turn_line(view, names, kinds, legal_types, has_play, next_train, person)
    if person is not None and view.turn == view.seat and kinds[view.turn] == "human" and view.phase != "game_over":
        if not line.startswith(_("{name}'s turn").format(name=person)):
            # what this person's turn owes, after their name: it starts with a word of ours
            line = _("{name}: {line}").format(name=person, line=continued(line))
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
            return _("Swan drive: play on {train} next, or m to stop · g skips it").format(train=where)
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
        return _("Follow your double {double} with a non-double, on any train you may use").format(
            double=double
        )
    # the doubles that block now, as the core judged them (one whose suit is all laid
    # never blocks; nor the one the seat follows)
    blocking = [d for d in view.doubles if d.blocks]
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
        d = (blocking[0].pips, blocking[0].pips)
        where = train_name(names, view.seat, n, blocking[0].train)
        return yours(
            _("Your turn: satisfy the open double {double} on {train} first"),
            _("{name}'s turn: satisfy the open double {double} on {train} first"),
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


def knock_line(view: SeatView, names: Sequence[str], viewer: int | None = VIEW_SEAT) -> str:
    """The knock (§5.4): who is down to one tile ("" when nobody is), told to ``viewer``
    ("you"; VIEW_SEAT: the view's seat; None: nobody, everyone named, as with several people
    at one keyboard)."""
    if viewer == VIEW_SEAT:
        viewer = view.seat
    ones = [s for s, k in enumerate(view.hand_sizes) if k == 1]
    if not ones:
        return ""
    others = [seat_called(names, s) for s in ones if s != viewer]
    if viewer in ones:
        if not others:
            return _("KNOCK! You have one tile left")
        if len(others) == 1:
            return _("KNOCK! You and {names} have one tile left each").format(names=others[0])
        # "You, Ann and Bea" (not "You and Ann and Bea")
        return _("KNOCK! You, {names} have one tile left each").format(names=join_and(others))
    if len(others) == 1:
        return _("KNOCK! {name} has one tile left").format(name=others[0])
    return _("KNOCK! {names} have one tile left each").format(names=join_and(others))

