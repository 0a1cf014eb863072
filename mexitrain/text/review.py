"""The words of a game review (mexitrain.players.review; docs/review.md).

Every sentence is built from facts the review computed: the move chosen, the better one, its
cost in points, and what the game shows afterwards (a tile still in hand at the round's end,
the end a play left open and who played on it next, how the round ended). Names are plain
text: callers render these lines as text, never as markup.

The review's objects are read by their fields only (this layer does not import the players').
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import _, ngettext
from .basics import (
    continued,
    decimal,
    decimal_points,
    join_and,
    point_count,
    seat_called,
    tile_text,
    train_where,
)


def review_viewer(seats: Sequence[int]) -> int | None:
    """Who the review speaks to as "you": the one seat reviewed; with several, nobody."""
    return seats[0] if len(seats) == 1 else None


def chosen_text(action: Any, seat: int, names: Sequence[str], viewer: int | None, players: int) -> str:
    """The move made, as a sentence: "You played 5-9 on the Mexican Train", "Bea drew"."""
    you = seat == viewer
    name = seat_called(names, seat)
    kind = action.type
    if kind == "play":
        where = train_where(names, viewer, players, action.train, action.branch, actor=seat)
        text = _("You played {tile} on {train}") if you else _("{name} played {tile} on {train}")
        return text.format(name=name, tile=tile_text(action.tile), train=where)
    text = {
        "draw": (_("You drew from the boneyard"), _("{name} drew from the boneyard")),
        "mark": (_("You placed your marker"), _("{name} placed their marker")),
        "pass": (_("You passed"), _("{name} passed")),
        "skip": (_("You skipped the Mexican Train"), _("{name} skipped the Mexican Train")),
    }[kind][0 if you else 1]
    return text.format(name=name)


def better_text(action: Any, seat: int, names: Sequence[str], viewer: int | None, players: int) -> str:
    """The better move, to follow "Better:": "9-9 on your train", "draw from the boneyard"."""
    if action.type == "play":
        where = train_where(names, viewer, players, action.train, action.branch, actor=seat)
        return _("{tile} on {train}").format(tile=tile_text(action.tile), train=where)
    return {
        "draw": _("draw from the boneyard"),
        "mark": _("place the marker and pass"),
        "pass": _("pass"),
        "skip": _("skip the Mexican Train"),
    }[action.type]


def decision_place(decision: Any) -> str:
    """"Round 3, move 17"."""
    return _("Round {round}, move {move}").format(round=decision.round, move=decision.move)


def cost_text(decision: Any) -> str:
    """"8.3 points (± 2.1)": the cost and its standard error."""
    return _("{points} (± {error})").format(
        points=decimal_points(decision.cost), error=decimal(decision.error)
    )


def _followed_text(e: Any, names: Sequence[str], viewer: int | None, players: int) -> str:
    name = seat_called(names, e.seat)
    if e.type == "play":
        where = train_where(names, viewer, players, e.train, e.branch, actor=e.seat)
        return _("{name} played {tile} on {train}").format(name=name, tile=tile_text(e.tile), train=where)
    return {
        "draw": _("{name} drew a tile"),
        "mark": _("{name} placed a marker"),
        "pass": _("{name} passed"),
        "skip": _("{name} skipped the Mexican Train"),
    }[e.type].format(name=name)


def fact_lines(decision: Any, facts: Any, names: Sequence[str], viewer: int | None, players: int) -> list[str]:
    """Why the better move was better, in what the game showed afterwards (0 to 4 sentences)."""
    seat = decision.seat
    you = seat == viewer
    name = seat_called(names, seat)
    lines = []
    chosen = decision.chosen
    if facts.kept is not None:
        text = (
            _("You kept {tile}: it was still in your hand at the end of the round ({points}).")
            if you
            else _("{name} kept {tile}: it was still in their hand at the end of the round ({points}).")
        )
        lines.append(text.format(name=name, tile=tile_text(facts.kept), points=point_count(facts.kept_pips)))
    told = None  # the event the sentence on the end left open tells already
    if chosen.type == "play":
        end = chosen.tile[1]
        for e in facts.followed:
            if e.type == "play" and e.train == chosen.train and e.branch == chosen.branch and e.tile[0] == end:
                text = (
                    _("Your {tile} left {end} open on {train}: {other} played {next} on it after.")
                    if you
                    else _("{name}'s {tile} left {end} open on {train}: {other} played {next} on it after.")
                )
                lines.append(
                    text.format(
                        name=name, tile=tile_text(chosen.tile), end=end,
                        train=train_where(names, viewer, players, chosen.train, chosen.branch, actor=seat),
                        other=seat_called(names, e.seat), next=tile_text(e.tile),
                    )
                )
                told = e
                break
    followed = list(facts.followed)  # all of them, in order; not one event told twice alone
    if followed and followed != [told]:
        lines.append(
            _("What followed: {events}.").format(
                # the separator between two events: French spaces it (« ; »)
                events=_("; ").join(_followed_text(e, names, viewer, players) for e in followed)
            )
        )
    if facts.end is not None:
        n = facts.turns_left  # turns of the table after the decision's own turn
        if facts.out_seat is not None and facts.out_seat == seat:
            if n == 0:  # the decision's own turn went on to the last tile (a double covered)
                text = _("You went out in the same turn.") if you else _("{name} went out in the same turn.")
            else:
                text = (
                    ngettext("You went out {n} turn later.", "You went out {n} turns later.", n)
                    if you
                    else ngettext("{name} went out {n} turn later.", "{name} went out {n} turns later.", n)
                )
        elif facts.out_seat is not None:
            text = (
                ngettext(
                    "{other} went out {n} turn later; you were left with {points}.",
                    "{other} went out {n} turns later; you were left with {points}.", n,
                )
                if you
                else ngettext(
                    "{other} went out {n} turn later; {name} was left with {points}.",
                    "{other} went out {n} turns later; {name} was left with {points}.", n,
                )
            )
        elif n == 0:  # the decision was the last turn of a blocked or stuck round
            text = (
                _("The round ended with that turn, no one out; you were left with {points}.")
                if you
                else _("The round ended with that turn, no one out; {name} was left with {points}.")
            )
        else:
            text = (
                ngettext(
                    "The round ended {n} turn later with no one out; you were left with {points}.",
                    "The round ended {n} turns later with no one out; you were left with {points}.", n,
                )
                if you
                else ngettext(
                    "The round ended {n} turn later with no one out; {name} was left with {points}.",
                    "The round ended {n} turns later with no one out; {name} was left with {points}.", n,
                )
            )
        other = seat_called(names, facts.out_seat) if facts.out_seat is not None else ""
        lines.append(text.format(n=n, name=name, other=other, points=point_count(facts.score or 0)))
    return lines


def highlight_lines(
    rank: int, highlight: Any, names: Sequence[str], viewer: int | None, players: int
) -> list[str]:
    """One of the costliest decisions: where, the move made, the better move and its cost,
    then the facts (:func:`fact_lines`)."""
    d = highlight.decision
    move = chosen_text(d.chosen, d.seat, names, viewer, players)
    if d.seat == viewer:  # "You played…" goes on after the colon as the language writes it
        move = continued(move)
    head = _("{rank}. {place}: {move}.").format(rank=rank, place=decision_place(d), move=move)
    better = _("Better: {move}, worth {cost} more on average.").format(
        move=better_text(d.best, d.seat, names, viewer, players), cost=cost_text(d)
    )
    return [head, better, *fact_lines(d, highlight.facts, names, viewer, players)]


def round_line(summary: Any, names: Sequence[str], viewer: int | None, several: bool) -> str:
    """One reviewed seat's round: "Round 3: 14 decisions, 2 costly, 9.4 points lost; scored 23"."""
    decisions = ngettext("{n} decision", "{n} decisions", summary.decisions).format(n=summary.decisions)
    costly = ngettext("{n} costly", "{n} costly", summary.costly).format(n=summary.costly)
    lost = _("{points} lost").format(points=decimal_points(summary.cost))
    if summary.score is None:
        score = _("round not finished")
    else:
        score = _("round score {points}").format(points=point_count(summary.score))
    head = _("Round {round}").format(round=summary.round)
    if several:
        head = _("{head}, {name}").format(head=head, name=seat_called(names, summary.seat))
    return _("{head}: {decisions}, {costly}, {lost}; {score}").format(
        head=head, decisions=decisions, costly=costly, lost=lost, score=score
    )


def total_line(review: Any, names: Sequence[str], viewer: int | None) -> str:
    """"142 decisions reviewed (64 deals a stage): 35.2 points lost in all" (a stage that
    settles a close call takes more: docs/review.md)."""
    n = len(review.decisions)
    return ngettext(
        "{n} decision reviewed ({deals} deals a stage): {points} lost in all.",
        "{n} decisions reviewed ({deals} deals a stage): {points} lost in all.", n,
    ).format(n=n, deals=review.budget, points=decimal_points(review.total))


def review_lines(review: Any, names: Sequence[str], players: int) -> list[str]:
    """The whole review as plain lines: who, the rounds, the total, the costliest decisions."""
    viewer = review_viewer(review.seats)
    several = len(review.seats) > 1
    who = join_and([seat_called(names, s) for s in review.seats])
    lines = [_("Review of the decisions of {who}").format(who=who) if several else _("Review of your decisions")]
    lines += [round_line(r, names, viewer, several) for r in review.rounds]
    lines.append(total_line(review, names, viewer))
    if review.highlights:
        lines.append("")
        lines.append(_("The costliest decisions:"))
        for i, h in enumerate(review.highlights, start=1):
            lines += ([""] if i > 1 else []) + highlight_lines(i, h, names, viewer, players)
    else:
        lines.append(_("No decision was clearly costly: no move found was surely better than the one chosen."))
    return lines
