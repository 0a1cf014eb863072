"""``mexitrain review FILE [--budget N] [--seat N] [--data-dir DIR]``: a finished game's decisions, valued.

Reads what the replay viewer opens (a save file or a game record), reviews the people's
decisions (every seat's when no person played; ``--seat`` one seat) with the expert's
search (:mod:`mexitrain.players.review`) and prints one summary line per round, the total,
and the three costliest decisions explained (:mod:`mexitrain.text.review`). A file that
cannot be read is one line (exit 2), never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from ..i18n import _
from .args import UsageError, add_data_dir_argument, int_between, one_line

#: The largest --budget (deals a stage): some 10 s a decision or more.
MAX_REVIEW_BUDGET = 5000


def add_arguments(p: argparse.ArgumentParser) -> None:
    from ..players.review import DEFAULT_BUDGET

    p.add_argument("file", metavar=_("FILE"), help=_("a save file or a game record"))
    p.add_argument(
        "--budget",
        type=int_between(2, MAX_REVIEW_BUDGET),
        default=DEFAULT_BUDGET,
        metavar="N",
        help=_("deals of the unseen tiles in each of a decision's two stages: more is slower and more precise (default {n})").format(
            n=DEFAULT_BUDGET
        ),
    )
    # the data folder's saved language (``mexitrain --data-dir DIR review FILE`` as for any
    # command with a data folder); FILE is read where it is named, never looked up in it
    add_data_dir_argument(p)
    p.add_argument(
        "--seat",
        type=int_between(1, 8),
        metavar="N",
        help=_("review seat N (from 1) instead of the people's seats"),
    )


def run(args: argparse.Namespace) -> int:
    from ..players.review import person_seats, review_game
    from ..storage import SaveError, load_save
    from ..text.names import printable
    from ..text.review import review_lines

    try:
        game = load_save(args.file)
    except SaveError as exc:
        raise UsageError(one_line(exc)) from None
    state = game.state
    names = tuple(printable(s.name) for s in game.setup.seats)
    if args.seat is not None:
        if args.seat > state.players:
            raise UsageError(
                _("--seat: this game has {n} players, not {seat}").format(n=state.players, seat=args.seat)
            )
        seats: tuple[int, ...] = (args.seat - 1,)
    else:
        seats = person_seats([s.kind for s in game.setup.seats])
    tty = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if tty:
            print("\r" + _("Reviewing: {done} of {total} decisions").format(done=done, total=total),
                  end="", file=sys.stderr, flush=True)

    review = review_game(state, seats, args.budget, progress=progress)
    if tty:
        print(file=sys.stderr)
    for line in review_lines(review, names, state.players):
        print(line)
    return 0
