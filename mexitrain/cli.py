"""The ``mexitrain`` command line: ``play`` (the default) and ``simulate``.

Every bad argument or value prints one line on stderr, ``mexitrain: error: ...``, and exits
with status 2: no usage dump, no traceback.

Adding a subcommand
-------------------
Register it in :data:`COMMANDS` (or call :func:`register` before :func:`main` runs)::

    COMMANDS["tournament"] = Command(
        help="play computer levels against each other",
        add_arguments=_tournament_arguments,          # (parser) -> None; runs on every call
        run="mexitrain.players.tournament:run",       # (args) -> int; imported only when run
    )

``add_arguments`` fills the subcommand's parser (the shared argument types below, such as
:func:`positive_int`, :func:`seed_value`, :func:`levels_value`, :func:`option_value` and
:func:`add_rules_arguments`, give the standard messages); keep it cheap and import nothing
heavy in it. ``run`` receives the parsed ``argparse.Namespace`` and returns the exit status.
It is a callable or a lazy ``"module:function"`` string, so that a command's imports (and
never ``textual`` outside ``play``) are paid only by that command. Inside ``run``, raise
:class:`UsageError` for a bad value, or wrap the code that turns arguments into objects in
``with bad_values():``, which turns ``RuleSetError``/``ValueError`` into that one-line
exit-2 error. :class:`CommandError` is a one-line failure with exit status 1.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NoReturn

PROG = "mexitrain"
DEFAULT_COMMAND = "play"


# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------
class UsageError(Exception):
    """A bad argument or value: one line on stderr, exit status 2."""


class CommandError(Exception):
    """The command could not do its work: one line on stderr, exit status 1."""


def _one_line(exc: BaseException) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):  # a pydantic ValidationError: its first error, on one line
        try:
            err = errors()[0]
            loc = ".".join(str(p) for p in err.get("loc", ()))
            msg = str(err.get("msg", exc)).removeprefix("Value error, ")
            text = f"{loc}: {msg}" if loc else msg
        except (TypeError, IndexError, AttributeError):
            text = str(exc)
    else:
        text = str(exc) or type(exc).__name__
    return " ".join(text.split())


@contextmanager
def bad_values() -> Iterator[None]:
    """Turn a ``ValueError`` (``RuleSetError``, pydantic's ``ValidationError``...) raised
    while building objects from arguments into a :class:`UsageError`."""
    try:
        yield
    except UsageError:
        raise
    except ValueError as exc:
        raise UsageError(_one_line(exc)) from None


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are a :class:`UsageError` instead of usage + exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


# ---------------------------------------------------------------------------------------
# Argument types (shared by the subcommands)
# ---------------------------------------------------------------------------------------
def _int(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def positive_int(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def non_negative_int(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def seed_value(text: str) -> int:
    return non_negative_int(text)


def player_count(text: str) -> int:
    value = _int(text)
    if value < 2:
        raise argparse.ArgumentTypeError(f"Mexican Train needs at least 2 players, not {value}")
    return value


def speed_value(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 seconds or more, not {text!r}")
    return value


def option_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, not {text!r}")
    return key.strip(), value.strip()


def levels_value(text: str) -> tuple[str, ...]:
    """A comma-separated list of computer levels, each registered in ``mexitrain.players.LEVELS``."""
    from .players import LEVELS

    levels = tuple(part.strip().lower() for part in text.split(","))
    for level in levels:
        if level not in LEVELS:
            raise argparse.ArgumentTypeError(
                f"unknown computer level {level!r}; choose from {', '.join(LEVELS)}"
            )
    return levels


def names_value(text: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in text.split(","))
    for name in names:
        if not name:
            raise argparse.ArgumentTypeError(f"empty name in {text!r}")
        if len(name) > 20:
            raise argparse.ArgumentTypeError(f"name {name!r} is longer than 20 characters")
    return names


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--preset NAME`` and repeatable ``--option KEY=VALUE`` (see :func:`rules_from_args`)."""
    parser.add_argument(
        "--preset",
        metavar="NAME",
        help="rule preset: standard (default), fast (double-9) or common",
    )
    parser.add_argument(
        "--option",
        metavar="KEY=VALUE",
        type=option_value,
        action="append",
        help="a rule option over the preset, e.g. blanks_wild=on, rounds=3, set=9 (repeatable)",
    )


def rules_from_args(args: argparse.Namespace):
    """The RuleSet of ``--preset``/``--option``; a bad one is a :class:`UsageError`."""
    from .rules import make_rules

    with bad_values():
        return make_rules(args.preset or "standard", dict(args.option or ()))


# ---------------------------------------------------------------------------------------
# The command table
# ---------------------------------------------------------------------------------------
Runner = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class Command:
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Runner | str  # a callable, or "module:function" imported when the command runs
    description: str | None = None


def _resolve(run: Runner | str) -> Runner:
    if callable(run):
        return run
    module, _, name = run.partition(":")
    return getattr(importlib.import_module(module), name)


# -- play --------------------------------------------------------------------------------
def _play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=player_count, metavar="N", help="players at the table (default 4)")
    add_rules_arguments(p)
    p.add_argument("--seed", type=seed_value, metavar="S", help="seed of the deals (default: a fresh one)")
    p.add_argument("--names", type=names_value, metavar="A,B,...", help="seat names, one per player")
    p.add_argument(
        "--humans", type=non_negative_int, metavar="K", help="people at this terminal (default 1)"
    )
    p.add_argument(
        "--ai",
        type=levels_value,
        metavar="LEVEL[,LEVEL...]",
        help="computer levels, cycling over the computer seats (default planner)",
    )
    p.add_argument(
        "--speed",
        type=speed_value,
        default=0.6,
        metavar="SECONDS",
        help="delay between computer moves (default 0.6)",
    )
    add_data_dir_argument(p)


def add_data_dir_argument(p: argparse.ArgumentParser) -> None:
    """``--data-dir DIR``: saves, autosave and statistics (mexitrain.storage.paths.data_dir)."""
    p.add_argument(
        "--data-dir",
        metavar="DIR",
        help="folder of saved games, the autosave and statistics "
        "(default: $MEXITRAIN_DATA_DIR, else the user data folder)",
    )


_SETUP_ARGS = ("players", "preset", "option", "seed", "names", "humans", "ai")


def setup_from_args(args: argparse.Namespace):
    """The ``GameSetup`` the ``play`` arguments describe, or None when none was given."""
    if all(getattr(args, name, None) is None for name in _SETUP_ARGS):
        return None
    from .setup import DEFAULT_AI, GameSetup, SeatConfig, default_seats, random_seed

    rules = rules_from_args(args)
    names = args.names
    players = args.players or (len(names) if names else 4)
    humans = 1 if args.humans is None else args.humans
    if names is not None and len(names) != players:
        raise UsageError(f"--names gives {len(names)} names for {players} players")
    if humans > players:
        raise UsageError(f"--humans {humans} is more than the {players} players")
    with bad_values():
        rules.check_players(players)
        seats = default_seats(players, humans, args.ai or (DEFAULT_AI,))
        if names is not None:
            seats = tuple(SeatConfig(name=n, kind=s.kind) for n, s in zip(names, seats, strict=True))
        seed = random_seed() if args.seed is None else args.seed
        return GameSetup(rules=rules, seed=seed, seats=seats)


def run_play(args: argparse.Namespace) -> int:
    setup = setup_from_args(args)
    try:
        from .ui.app import run
    except ImportError as exc:
        raise CommandError(f"the game screens are not available: {exc}") from None
    run(setup, args.speed)
    return 0


# -- simulate ----------------------------------------------------------------------------
def _simulate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=positive_int, default=100, metavar="N", help="games to play (default 100)")
    p.add_argument("--players", type=player_count, default=4, metavar="P", help="players (default 4)")
    p.add_argument(
        "--seed", type=seed_value, default=0, metavar="S", help="game i (from 0) uses seed S+i (default 0)"
    )
    add_rules_arguments(p)
    p.add_argument(
        "--records", metavar="DIR", help="write one record per game (DIR/game-0001.json, ...)"
    )
    p.add_argument(
        "--ai",
        type=levels_value,
        default=("random",),
        metavar="LEVEL[,LEVEL...]",
        help="computer levels, cycling over the seats (default random)",
    )


def _records_dir(text: str):
    from pathlib import Path

    path = Path(text)
    if path.exists() and not path.is_dir():
        raise UsageError(f"--records {text}: not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--records {text}: {exc.strerror or exc}") from None
    return path


def play_game(rules, levels: Sequence[str], seed: int):
    """One game between computer players of ``levels`` (one per seat); the final snapshot."""
    from .players import make_player
    from .rules import apply, new_game, view

    seats = [make_player(level, seed * 16 + i) for i, level in enumerate(levels)]
    state = new_game(rules, players=len(levels), seed=seed)
    while not state.over:
        seat = state.turn
        state = apply(state, seats[seat].choose(view(state, seat)))
    return state


def run_simulate(args: argparse.Namespace) -> int:
    import time

    rules = rules_from_args(args)
    n = args.players
    with bad_values():
        rules.check_players(n)
    levels = [args.ai[i % len(args.ai)] for i in range(n)]
    folder = _records_dir(args.records) if args.records else None
    if folder is not None:
        from .records import to_record, write_record
    width = max(4, len(str(args.games)))

    wins = [0] * n
    totals = [0] * n
    ends = {"domino": 0, "stuck": 0, "blocked": 0}
    rounds = shared = 0
    start = time.perf_counter()
    for i in range(args.games):
        state = play_game(rules, levels, args.seed + i)
        for s in state.winners:
            wins[s] += 1
        if len(state.winners) > 1 and not rules.teams:
            shared += 1
        for r in state.results:
            ends[r.end] += 1
            rounds += 1
            for s in range(n):
                totals[s] += r.scores[s]
        if folder is not None:
            players = [(f"{level.capitalize()} {s + 1}", level) for s, level in enumerate(levels)]
            path = folder / f"game-{i + 1:0{width}d}.json"
            try:
                write_record(path, to_record(state, players))
            except OSError as exc:
                raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
    elapsed = max(time.perf_counter() - start, 1e-9)

    games = args.games
    last = args.seed + games - 1
    preset = args.preset or "standard"
    options = " ".join(f"{k}={v}" for k, v in (args.option or ()))
    print(
        f"{games} games, {n} players, preset {preset}{' ' + options if options else ''}, "
        f"seeds {args.seed}..{last}"
    )
    print(f"speed: {games / elapsed:.2f} games/s ({elapsed:.2f} s)")
    print("wins by seat (a shared win counts for each winner; seats from 1):")
    for s in range(n):
        print(f"  seat {s + 1} ({levels[s]}): {wins[s]} ({100 * wins[s] / games:.1f}%)")
    if shared:
        print(f"  shared wins: {shared} games")
    print("mean total per seat:")
    for s in range(n):
        print(f"  seat {s + 1}: {totals[s] / games:.1f}")
    parts = ", ".join(f"{k} {v}" for k, v in ends.items())
    print(f"round ends: {parts} ({rounds} rounds)")
    if folder is not None:
        print(f"records: {games} files in {folder}")
    return 0


COMMANDS: dict[str, Command] = {
    "play": Command(
        help="play at this terminal (the default command)",
        add_arguments=_play_arguments,
        run=run_play,
        description=(
            "Play Mexican Train at this terminal. With any of --players, --preset, --option, "
            "--seed, --names, --humans or --ai the game starts at once; without them the "
            "new-game screen opens."
        ),
    ),
    "simulate": Command(
        help="play many games between computer players and print statistics",
        add_arguments=_simulate_arguments,
        run=run_simulate,
        description=(
            "Play N games between computer players (game i uses seed S+i) and print games "
            "per second, wins by seat, mean totals and how rounds ended."
        ),
    ),
}


def register(name: str, command: Command) -> None:
    """Add a subcommand (see the module docstring)."""
    COMMANDS[name] = command


register(
    "stats",
    Command(
        help="show the statistics of finished games",
        add_arguments=add_data_dir_argument,
        run="mexitrain.storage.stats:run_command",
        description="Print, for each person, games played and won, average and best totals "
        "and rounds gone out, overall, per computer level and per rule preset.",
    ),
)


def _tournament_arguments(p: argparse.ArgumentParser) -> None:
    from .players.tournament import add_arguments

    add_arguments(p)


register(
    "tournament",
    Command(
        help="measure the computer levels against each other",
        add_arguments=_tournament_arguments,
        run="mexitrain.players.tournament:run",
        description="Play N deals, each under every rotation of the seats, and print for each "
        "level its win share (95%% Wilson interval), points and difference per round and "
        "decisions per second.",
    ),
)


# ---------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------
def build_parser() -> Parser:
    from . import __version__

    parser = Parser(
        prog=PROG,
        description="Mexican Train dominoes in the terminal. Without a command, play.",
        epilog=f"'{PROG} COMMAND --help' describes a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name, command in COMMANDS.items():
        p = sub.add_parser(name, help=command.help, description=command.description or command.help)
        command.add_arguments(p)
    return parser


def _with_default_command(argv: list[str]) -> list[str]:
    if not argv:
        return [DEFAULT_COMMAND]
    first = argv[0]
    if first in COMMANDS or first in ("-h", "--help", "--version"):
        return argv
    if first.startswith("-"):
        return [DEFAULT_COMMAND, *argv]
    return argv


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        args = parser.parse_args(_with_default_command(args_list))
        command = COMMANDS[args.command]
        return int(_resolve(command.run)(args) or 0)
    except UsageError as exc:
        print(f"{PROG}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except CommandError as exc:
        print(f"{PROG}: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except SystemExit as exc:  # --help and --version
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


__all__ = [
    "COMMANDS",
    "Command",
    "CommandError",
    "Parser",
    "UsageError",
    "add_rules_arguments",
    "bad_values",
    "build_parser",
    "levels_value",
    "main",
    "names_value",
    "non_negative_int",
    "option_value",
    "play_game",
    "player_count",
    "positive_int",
    "register",
    "rules_from_args",
    "seed_value",
    "setup_from_args",
    "speed_value",
]
