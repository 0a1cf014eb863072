"""Why a move or an undo is refused, as one sentence in the player's language, from the
refusal's code and values (:class:`~mexitrain.rules.errors.IllegalAction`,
:class:`~mexitrain.rules.undo.UndoRefused`); and what undo would take back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import N_, _, ngettext
from ..rules.errors import IllegalAction
from ..rules.undo import UndoPlan, UndoRefused
from .basics import MEXICAN, join_and, quote, tile_text, train_name


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
        fits = dict(tile=tile_text(tile), train=train_name(names, viewer, None, ref))
        tried = v.get("action")
        if tried == "draw":
            return _("{tile} fits {train}: draw only when nothing fits.").format(**fits)
        if tried == "mark":
            return _("{tile} fits {train}: you must play; end your turn only when nothing fits.").format(**fits)
        if tried == "pass":
            return _("{tile} fits {train}: you must play; pass only when nothing fits.").format(**fits)
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
    if code == "bad_action":
        field = v.get("field")
        if field == "tile":
            return _("That move names no tile: a tile is two whole numbers of pips.")
        if field == "branch":
            return _("That move names no branch: a branch is a whole number, 0 for the trunk.")
        return _("That is not a move of this game.")
    return _("That move is not allowed.")



_UNDO_REFUSED = {
    "game_over": N_("the game is over"),
    "nothing_yet": N_("nothing to undo yet"),
    "round_start": N_("nothing to undo in this round: undo never goes back into an earlier round"),
    "drew": N_("you drew {tile} since then: undoing would reveal a hidden tile"),
    # the developer's detail (``why``: which move does not replay) is not for the player
    "not_replayable": N_("this game cannot be rebuilt from its moves, so nothing can be undone"),
}


def undo_refused_text(exc: Any) -> str:
    """Why undo is not possible (a :class:`~mexitrain.rules.undo.UndoRefused`), in words, from
    its code and values; never its developer line."""
    values = dict(getattr(exc, "values", {}) or {})
    if getattr(exc, "code", "") == "other_player" and values.get("seats"):
        seats = values["seats"]
        who = join_and([_("the player in seat {seat}").format(seat=s + 1) for s in seats])
        return ngettext(
            "{who} has moved since then: undoing would take back their move too",
            "{who} have moved since then: undoing would take back their moves too",
            len(seats),
        ).format(who=who)
    template = _UNDO_REFUSED.get(getattr(exc, "code", ""))
    if template is None:
        return _("undo is not possible now")
    try:
        if "tile" in values:
            values["tile"] = tile_text(values["tile"])
        return _(template).format(**values)
    except (KeyError, IndexError, TypeError, ValueError):  # a code without the values it needs
        return _("undo is not possible now")


def undo_text(plan: UndoPlan | UndoRefused, done: bool = False) -> tuple[bool, str]:
    """Whether undo is possible now, in the player's language: ``(True, what undo takes
    back)`` for a plan, ``(False, why not)`` for a refusal (the history's answer:
    :meth:`mexitrain.rules.undo.History.plan`). ``done``: the words once it is taken back
    ("Undone: your play 1-6 on your train"), not the offer."""
    if isinstance(plan, UndoRefused):
        return False, undo_refused_text(plan)
    event = plan.event
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
    if done:
        if plan.later:
            return True, ngettext(
                "Undone: {what} and {n} move after it", "Undone: {what} and {n} moves after it", plan.later
            ).format(what=what, n=plan.later)
        return True, _("Undone: {what}").format(what=what)
    if plan.later:
        return True, ngettext(
            "undo {what} and {n} move after it", "undo {what} and {n} moves after it", plan.later
        ).format(what=what, n=plan.later)
    return True, _("undo {what}").format(what=what)
