"""``mexitrain [play]``: play at this terminal (the Textual app), a new game from the
arguments, the new-game screen without them, ``--load`` or ``--replay`` a saved game."""

from __future__ import annotations

import argparse

from ..i18n import _
from .args import (
    CommandError,
    UsageError,
    add_data_dir_argument,
    add_rules_arguments,
    bad_values,
    humans_value,
    levels_value,
    names_value,
    one_line,
    player_count,
    rules_from_args,
    seed_value,
    speed_value,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--players", type=player_count, metavar="N", help=_("players at the table (default 4)")
    )
    add_rules_arguments(p)
    p.add_argument(
        "--seed", type=seed_value, metavar="S", help=_("seed of the deals (default: a fresh one)")
    )
    p.add_argument(
        "--names", type=names_value, metavar="A,B,...", help=_("seat names, one per player")
    )
    p.add_argument(
        "--humans", type=humans_value, metavar="K", help=_("people at this terminal (default 1)")
    )
    p.add_argument(
        "--ai",
        type=levels_value,
        metavar=_("LEVEL[,LEVEL...]"),
        help=_("computer levels, cycling over the computer seats (default planner)"),
    )
    p.add_argument(
        "--speed",
        type=speed_value,
        default=0.6,
        metavar=_("SECONDS"),
        help=_("delay between computer moves (default 0.6)"),
    )
    add_data_dir_argument(p)
    p.add_argument("--load", metavar=_("FILE"), help=_("continue a saved game (or a game record)"))
    p.add_argument(
        "--replay", metavar=_("FILE"), help=_("step through a saved game or game record move by move")
    )
    # ``mexitrain serve``'s games: the file dialogs see only the data folder (ui/fence.py). Not
    # in --help: only ``serve`` passes it, in the argv of a process no web page can change.
    p.add_argument("--served", action="store_true", help=argparse.SUPPRESS)
    # ``mexitrain serve --no-tables``'s games: no Host a table… / Join a table… (ui/remote.py);
    # hidden as --served is
    p.add_argument("--no-tables", action="store_true", help=argparse.SUPPRESS)



_SETUP_ARGS = ("players", "preset", "option", "seed", "names", "humans", "ai")


def setup_from_args(args: argparse.Namespace):
    """The ``GameSetup`` the ``play`` arguments describe, or None when none was given."""
    if all(getattr(args, name, None) is None for name in _SETUP_ARGS):
        return None
    from ..game_setup import DEFAULT_AI, GameSetup, SeatConfig, default_seats, random_seed

    rules = rules_from_args(args)
    names = args.names
    players = args.players or (len(names) if names else 4)
    humans = 1 if args.humans is None else args.humans
    if names is not None and len(names) != players:
        raise UsageError(
            _("--names gives {names} names for {players} players").format(
                names=len(names), players=players
            )
        )
    if humans > players:
        raise UsageError(
            _("--humans {humans} is more than the {players} players").format(
                humans=humans, players=players
            )
        )
    with bad_values():
        rules.check_players(players)
        seats = default_seats(players, humans, args.ai or (DEFAULT_AI,))
        if names is not None:
            seats = tuple(SeatConfig(name=n, kind=s.kind) for n, s in zip(names, seats, strict=True))
        seed = random_seed() if args.seed is None else args.seed
        return GameSetup(rules=rules, seed=seed, seats=seats, seed_chosen=args.seed is not None)


def _load_file(path: str):
    """A saved game for ``--load``/``--replay``; a bad file is one line (exit 2), untouched."""
    from ..storage import SaveError, load_save

    try:
        return load_save(path)
    except SaveError as exc:
        raise UsageError(one_line(exc)) from None


def run(args: argparse.Namespace) -> int:
    """Open the game screens on the game the arguments describe (see the module docstring)."""
    load = replay = None
    if getattr(args, "load", None) is not None and getattr(args, "replay", None) is not None:
        raise UsageError(_("--load and --replay cannot be used together"))
    if getattr(args, "load", None) is not None:
        load = _load_file(args.load)
        setup = None
    elif getattr(args, "replay", None) is not None:
        replay = _load_file(args.replay)
        setup = None
    else:
        setup = setup_from_args(args)
    try:
        from ..ui.app import run as run_app
    except ImportError as exc:
        raise CommandError(_("the game screens are not available: {error}").format(error=exc)) from None
    extra = {
        "data_dir": getattr(args, "data_dir", None), "load": load, "replay": replay,
        "served": getattr(args, "served", False) or None,
        "tables": False if getattr(args, "no_tables", False) else None,
    }
    data_dir = getattr(args, "data_dir", None)

    def say_how_to_resume(app) -> None:
        """One line once the terminal is back, only when a local game in progress was quit
        with its autosave working (not after a finished game, nor at a network table)."""
        if app.quit_autosaved and app.saver.failing is None:
            from ..text.files import resume_line

            print(resume_line(data_dir))

    if extra["served"] and extra["tables"] is None:  # mexitrain serve's tables (net/served.py)
        from ..net.served import ServedTables

        extra["served_tables"] = ServedTables.from_environment()
        if extra["served_tables"] is None:  # never Host a table… / Join a table… in a served game
            extra["tables"] = False
    status = run_app(setup, args.speed, then=say_how_to_resume, **{k: v for k, v in extra.items() if v is not None})
    return int(status or 0)  # a crash inside the app is raised (mexitrain.ui.crash.AppCrashed)
