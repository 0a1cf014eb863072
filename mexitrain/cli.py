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

Language
--------
Every text is in the player's language (:mod:`mexitrain.i18n`): ``--lang en|fr`` (a global
option, before or after the command), else the preference saved in ``settings.json``, else
the locale (``LANG=fr_FR.UTF-8``). Mark a command's ``help`` and ``description`` with
:func:`~mexitrain.i18n.N_` (they are translated when the parser is built) and wrap help
texts and messages in ``_()``; argparse's own words are translated here (:class:`Parser`).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import math
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from . import i18n
from .i18n import N_, _, ngettext, pgettext

PROG = "mexitrain"
DEFAULT_COMMAND = "play"


# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------
class UsageError(Exception):
    """A bad argument or value: one line on stderr, exit status 2."""


class CommandError(Exception):
    """The command could not do its work: one line on stderr, exit status 1."""


def _q(text: object) -> str:
    """A value the user typed, quoted: 'ten' (« ten »); the same message as messages.quote."""
    return pgettext("quoted value", "'{text}'").format(text=text)


def _ours(exc: BaseException) -> BaseException | None:
    """The game's own error (RuleSetError, SaveError...) in ``exc``, also inside pydantic's
    ValidationError (a GameSetup that check_players refused); None for anything else."""
    if isinstance(exc, UsageError | CommandError):
        return None
    if type(exc).__module__.startswith("mexitrain."):
        return exc
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            inner = (errors()[0].get("ctx") or {}).get("error")
        except (TypeError, IndexError, AttributeError):
            return None
        if isinstance(inner, BaseException) and type(inner).__module__.startswith("mexitrain."):
            return inner
    return None


def _one_line(exc: BaseException) -> str:
    from .text.names import printable  # a path or a value from a file may hold control characters

    ours = _ours(exc)
    if ours is not None:
        from .text.errors import error_text  # in the player's language

        return printable(" ".join(error_text(ours).split()))
    if callable(getattr(exc, "errors", None)):  # a pydantic ValidationError: its first error
        from .text.validation import (
            validation_error_text,  # in the player's language, not pydantic's
        )

        text = validation_error_text(exc)
    else:
        text = str(exc) or type(exc).__name__
    return printable(" ".join(text.split()))


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


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with "usage: " in the player's language."""

    def add_usage(self, usage, actions, groups, prefix=None) -> None:
        if prefix is None:
            prefix = _("usage: ")
        super().add_usage(usage, actions, groups, prefix)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser in the player's language, whose errors are a :class:`UsageError`
    (one line, exit status 2) instead of usage + exit. Every parser, subcommands' included,
    has ``-h/--help`` and ``--lang``."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["add_help"] = False
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        self.add_argument(
            "-h", "--help", action="help", default=argparse.SUPPRESS,
            help=_("show this help message and exit"),
        )
        self.add_argument(
            "--lang",
            metavar="{" + ",".join(i18n.available_languages()) + "}",
            default=argparse.SUPPRESS,
            help=_("language of the game (default: the saved choice, else the system's)"),
        )

    def error(self, message: str) -> NoReturn:
        raise UsageError(translate_argparse(message))

    def _print_message(self, message: str, file=None) -> None:
        # argparse swallows an OSError here: a closed pipe (mexitrain --help | head -1) must
        # reach main(), which exits with 141 as for every other command that prints
        if message:
            (file or sys.stderr).write(message)


def _patterns() -> list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]]:
    """argparse's English error messages and their translations (argparse 3.11-3.13)."""

    def arguments(m: re.Match[str]) -> str:
        n = int(m["n"])
        return ngettext("expected {n} argument", "expected {n} arguments", n).format(n=n)

    def choice(m: re.Match[str]) -> str:
        return _("invalid choice: {value} (choose from {choices})").format(
            value=m["value"], choices=m["choices"]
        )

    table: list[tuple[str, Callable[[re.Match[str]], str]]] = [
        (r"unrecognized arguments: (?P<args>.*)",
         lambda m: _("unrecognized arguments: {args}").format(args=m["args"])),
        (r"the following arguments are required: (?P<args>.*)",
         lambda m: _("the following arguments are required: {args}").format(args=m["args"])),
        (r"invalid choice: (?P<value>.*?) \(choose from (?P<choices>.*)\)", choice),
        (r"expected one argument", lambda m: _("expected one argument")),
        (r"expected at most one argument", lambda m: _("expected at most one argument")),
        (r"expected at least one argument", lambda m: _("expected at least one argument")),
        (r"expected (?P<n>\d+) arguments?", arguments),
        (r"invalid (?P<type>\S+) value: (?P<value>.*)",
         lambda m: _("invalid {type} value: {value}").format(type=m["type"], value=m["value"])),
        (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.*)",
         lambda m: _("ambiguous option: {option} could match {matches}").format(
             option=m["option"], matches=m["matches"])),
        (r"not allowed with argument (?P<other>.*)",
         lambda m: _("not allowed with argument {other}").format(other=m["other"])),
        (r"one of the arguments (?P<args>.*) is required",
         lambda m: _("one of the arguments {args} is required").format(args=m["args"])),
        (r"ignored explicit argument (?P<value>.*)",
         lambda m: _("ignored explicit argument {value}").format(value=m["value"])),
        (r"unexpected option string: (?P<option>.*)",
         lambda m: _("unexpected option string: {option}").format(option=m["option"])),
    ]
    return [(re.compile(pattern + r"\Z", re.S), fn) for pattern, fn in table]


_ARGUMENT = re.compile(r"argument (?P<name>\S+): (?P<message>.*)\Z", re.S)


def translate_argparse(message: str) -> str:
    """One of argparse's English error messages in the player's language (unchanged when it
    is not one of argparse's, e.g. a message of our own argument types, already translated)."""
    m = _ARGUMENT.match(message)
    if m:
        return _("argument {argument}: {message}").format(
            argument=m["name"], message=translate_argparse(m["message"])
        )
    for pattern, fn in _patterns():
        found = pattern.match(message)
        if found:
            return fn(found)
    return message


# ---------------------------------------------------------------------------------------
# Argument types (shared by the subcommands)
# ---------------------------------------------------------------------------------------
#: The bounds of the numeric options (README, "Command line"). A value outside is one line,
#: exit status 2: a seed that Python could not even print, a pause of 300 years or a
#: tournament of a billion games would crash or hang instead.
MAX_SEED = 2**63 - 1
MAX_SPEED = 10.0  # seconds between computer moves
MAX_PLAYERS = 99  # the rules refuse more than the set can deal long before
MAX_GAMES = 100_000
MAX_BUDGET = 100_000  # the expert's rollouts a decision (its default is 200-240)
MAX_PROCESSES = 64
MAX_OPTION_DIGITS = 9  # an --option KEY=VALUE number: the rules range-check it below that

_WHOLE = re.compile(r"[+-]?[0-9]+\Z")


def _shown(text: str, limit: int = 40) -> str:
    """A value the user typed, quoted for a message: control characters escaped, cut short."""
    from .text.names import printable

    text = printable(text)
    return _q(text if len(text) <= limit else text[: limit - 1] + "…")


def _whole(text: str) -> int | None:
    """``text`` as a whole number (ASCII digits, an optional sign), or None. A number too
    long to be any option's value is refused by its digits, never handed to int() (whose
    4300-digit limit raises its own ValueError)."""
    t = text.strip()
    if not _WHOLE.match(t):
        raise argparse.ArgumentTypeError(
            _("expected a whole number, not {value}").format(value=_shown(text))
        )
    return int(t) if len(t.lstrip("+-")) <= 30 else None


def int_between(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``, else one line."""

    def parse(text: str) -> int:
        value = _whole(text)
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                _("must be between {low} and {high}, not {value}").format(
                    low=low, high=high, value=_shown(text.strip())
                )
            )
        return value

    parse.__name__ = "int"
    return parse


def positive_int(text: str) -> int:
    value = _whole(text)
    if value is not None and value < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1, not {value}").format(value=value))
    return int_between(1, MAX_SEED)(text)


def non_negative_int(text: str) -> int:
    value = _whole(text)
    if value is not None and value < 0:
        raise argparse.ArgumentTypeError(_("must be 0 or more, not {value}").format(value=value))
    return int_between(0, MAX_SEED)(text)


def seed_value(text: str) -> int:
    """A seed: 0 to 2**63 - 1."""
    return non_negative_int(text)


def humans_value(text: str) -> int:
    non_negative_int(text)
    return int_between(0, MAX_PLAYERS)(text)


def games_value(text: str) -> int:
    positive_int(text)
    return int_between(1, MAX_GAMES)(text)


def budget_value(text: str) -> int:
    positive_int(text)
    return int_between(1, MAX_BUDGET)(text)


def processes_value(text: str) -> int:
    positive_int(text)
    return int_between(1, MAX_PROCESSES)(text)


def player_count(text: str) -> int:
    value = _whole(text)
    if value is not None and value < 2:
        raise argparse.ArgumentTypeError(
            _("Mexican Train needs at least 2 players, not {value}").format(value=value)
        )
    return int_between(2, MAX_PLAYERS)(text)


def speed_value(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a number of seconds, not {value}").format(value=_shown(text))
        ) from None
    if not math.isfinite(value) or not 0 <= value <= MAX_SPEED:
        raise argparse.ArgumentTypeError(
            _("must be between 0 and {high} seconds, not {value}").format(
                high=f"{MAX_SPEED:g}", value=_shown(text.strip())
            )
        )
    return value


def option_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(
            _("expected {form}, not {value}").format(form=_("KEY=VALUE"), value=_shown(text))
        )
    key, value = key.strip(), value.strip()
    if _WHOLE.match(value) and len(value.lstrip("+-")) > MAX_OPTION_DIGITS:
        # the rules range-check every number, but int() of 4300 digits fails before them
        raise argparse.ArgumentTypeError(
            _("option {key} takes a smaller number, not {value}").format(
                key=_shown(key), value=_shown(value)
            )
        )
    return key, value


def levels_value(text: str) -> tuple[str, ...]:
    """A comma-separated list of computer levels, each registered in ``mexitrain.players.LEVELS``."""
    from .players import LEVELS

    levels = tuple(part.strip().lower() for part in text.split(","))
    for level in levels:
        if level not in LEVELS:
            raise argparse.ArgumentTypeError(
                _("unknown computer level {level}; choose from {levels}").format(
                    level=_shown(level), levels=", ".join(LEVELS)
                )
            )
    return levels


def names_value(text: str) -> tuple[str, ...]:
    """Seat names as :class:`mexitrain.table.SeatConfig` takes them (mexitrain.text says which
    characters a name may hold); a refused name is quoted with its control characters escaped."""
    from .text.names import NAME_MAX, codepoint, first_unprintable, printable

    names = tuple(part.strip() for part in text.split(","))
    for name in names:
        if not name:
            raise argparse.ArgumentTypeError(_("empty name in {names}").format(names=_q(printable(text))))
        bad = first_unprintable(name)
        if bad is not None:
            raise argparse.ArgumentTypeError(
                _("name {name} holds the control character {char}, which a name cannot").format(
                    name=_q(printable(name)), char=codepoint(bad)
                )
            )
        if len(name) > NAME_MAX:
            raise argparse.ArgumentTypeError(
                _("name {name} is longer than 20 characters").format(name=_q(printable(name[:NAME_MAX]) + "…"))
            )
    return names


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--preset NAME`` and repeatable ``--option KEY=VALUE`` (see :func:`rules_from_args`)."""
    parser.add_argument(
        "--preset",
        metavar=_("NAME"),
        help=_("rule preset: standard (default), fast (double-9) or common"),
    )
    parser.add_argument(
        "--option",
        metavar=_("KEY=VALUE"),
        type=option_value,
        action="append",
        help=_("a rule option over the preset, e.g. blanks_wild=on, rounds=3, set=9 (repeatable)"),
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


def freeze_startup_objects() -> None:
    """Move everything imported so far out of the garbage collector's sight.

    The modules, classes and functions of Textual, pydantic and the game live as long as the
    program, yet every full collection walked all of them: some 40 ms on a slow machine, a
    visible hitch in the middle of a computer player's turn or a key press. Frozen, a full
    collection only looks at the game's own objects (about 6 ms)."""
    gc.collect()
    gc.freeze()


def _resolve(run: Runner | str) -> Runner:
    if callable(run):
        return run
    module, _sep, name = run.partition(":")
    return getattr(importlib.import_module(module), name)


# -- play --------------------------------------------------------------------------------
def _play_arguments(p: argparse.ArgumentParser) -> None:
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


def add_data_dir_argument(p: argparse.ArgumentParser) -> None:
    """``--data-dir DIR``: saves, autosave and statistics (mexitrain.storage.paths.data_dir)."""
    p.add_argument(
        "--data-dir",
        type=data_dir_value,
        metavar=_("DIR"),
        help=_(
            "folder of saved games, the autosave, statistics and settings "
            "(default: $MEXITRAIN_DATA_DIR, else the user data folder)"
        ),
    )


def folder_problem(path: Path) -> str | None:
    """Why ``path`` cannot be the data folder (it or a folder above it is a file, a FIFO...),
    or None. A missing folder is fine: the writers make it, and the folders above it, when
    they first write; a read-only one too: the game then says it cannot save."""
    try:
        if path.exists() and not path.is_dir():
            return _("{path} is not a folder").format(path=_shown(str(path), 80))
        above = path
        while not above.exists() and above.parent != above:
            above = above.parent
        if not above.is_dir():
            return _("{path} is not a folder").format(path=_shown(str(above), 80))
    except OSError as exc:  # a name too long, a loop of links...
        return f"{_shown(str(path), 80)}: {exc.strerror or type(exc).__name__}"
    return None


def data_dir_value(text: str) -> str:
    """``--data-dir DIR`` (see :func:`folder_problem`): a bad folder is a usage error."""
    if not text.strip():
        raise argparse.ArgumentTypeError(_("expected a folder, not an empty value"))
    problem = folder_problem(Path(text).expanduser())
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def _check_data_dir(args: argparse.Namespace) -> Path | None:
    """The data folder of a command that has ``--data-dir`` (None for the others); the one
    of ``$MEXITRAIN_DATA_DIR`` is checked as ``--data-dir`` is (a usage error, exit 2)."""
    if "data_dir" not in vars(args):
        return None
    from .storage.paths import ENV_VAR, data_dir

    root = data_dir(args.data_dir)
    if args.data_dir is None:
        problem = folder_problem(root)
        if problem is not None:
            raise UsageError(f"{ENV_VAR}: {problem}")
    return root


_SETUP_ARGS = ("players", "preset", "option", "seed", "names", "humans", "ai")


def setup_from_args(args: argparse.Namespace):
    """The ``GameSetup`` the ``play`` arguments describe, or None when none was given."""
    if all(getattr(args, name, None) is None for name in _SETUP_ARGS):
        return None
    from .table import DEFAULT_AI, GameSetup, SeatConfig, default_seats, random_seed

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
        return GameSetup(rules=rules, seed=seed, seats=seats)


def _load_file(path: str):
    """A saved game for ``--load``/``--replay``; a bad file is one line (exit 2), untouched."""
    from .storage import SaveError, load_save

    try:
        return load_save(path)
    except SaveError as exc:
        raise UsageError(_one_line(exc)) from None


def run_play(args: argparse.Namespace) -> int:
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
        from .ui.app import run
    except ImportError as exc:
        raise CommandError(_("the game screens are not available: {error}").format(error=exc)) from None
    extra = {"data_dir": getattr(args, "data_dir", None), "load": load, "replay": replay}
    status = run(setup, args.speed, **{k: v for k, v in extra.items() if v is not None})
    return int(status or 0)  # a crash inside the app is raised (mexitrain.crash.AppCrashed)


# -- simulate ----------------------------------------------------------------------------
def _simulate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--games", type=games_value, default=100, metavar="N", help=_("games to play (default 100)")
    )
    p.add_argument(
        "--players", type=player_count, default=4, metavar="P", help=_("players (default 4)")
    )
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        metavar="S",
        help=_("game i (from 0) uses seed S+i (default 0)"),
    )
    add_rules_arguments(p)
    p.add_argument(
        "--records",
        metavar=_("DIR"),
        help=_("write one record per game ({dir}/game-0001.json, ...)").format(dir=_("DIR")),
    )
    p.add_argument(
        "--ai",
        type=levels_value,
        default=("random",),
        metavar=_("LEVEL[,LEVEL...]"),
        help=_("computer levels, cycling over the seats (default random)"),
    )


def _records_dir(text: str):
    from pathlib import Path

    path = Path(text)
    if path.exists() and not path.is_dir():
        raise UsageError(_("--records {path}: not a directory").format(path=text))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--records {text}: {exc.strerror or exc}") from None
    return path


def play_core(rules, levels: Sequence[str], seed: int):
    """One game between computer players of ``levels`` (one per seat), played on one rules
    core in place (each player sees its seat's compact view); the finished core."""
    from .players import make_player
    from .players.base import core_move
    from .rules.core import new_game, step

    seats = [make_player(level, seed * 16 + i) for i, level in enumerate(levels)]
    c = new_game(rules, players=len(levels), seed=seed)
    while not c.over:
        step(c, core_move(seats[c.turn], c))
    return c


def play_game(rules, levels: Sequence[str], seed: int):
    """One game between computer players of ``levels`` (one per seat); the final snapshot."""
    from .rules.core import to_state

    return to_state(play_core(rules, levels, seed))


def _round_ends(c) -> list[str]:
    """How each finished round of core ``c`` ended (its results are compact tuples, or
    RoundResult objects when the core came from a snapshot)."""
    return [r[7] if isinstance(r, tuple) else r.end for r in c.results]


def run_simulate(args: argparse.Namespace) -> int:
    import time

    from .text.basics import decimal, level_name

    rules = rules_from_args(args)
    n = args.players
    with bad_values():
        rules.check_players(n)
    levels = [args.ai[i % len(args.ai)] for i in range(n)]
    folder = _records_dir(args.records) if args.records else None
    if folder is not None:
        from .records import to_record, write_record
        from .rules.core import to_state
    width = max(4, len(str(args.games)))

    wins = [0] * n
    totals = [0] * n
    ends = {"domino": 0, "stuck": 0, "blocked": 0}
    rounds = shared = 0
    start = time.perf_counter()
    for i in range(args.games):
        c = play_core(rules, levels, args.seed + i)
        for s in c.winners:
            wins[s] += 1
        if len(c.winners) > 1 and not rules.teams:
            shared += 1
        for end, scores in zip(_round_ends(c), c.round_scores, strict=True):
            ends[end] += 1
            rounds += 1
            for s in range(n):
                totals[s] += scores[s]
        if folder is not None:
            state = to_state(c)  # the pydantic snapshot only where the record needs it
            players = [(f"{level.capitalize()} {s + 1}", level) for s, level in enumerate(levels)]
            path = folder / f"game-{i + 1:0{width}d}.json"
            try:
                write_record(path, to_record(state, players))
            except OSError as exc:
                raise CommandError(
                    _("cannot write {path}: {error}").format(path=path, error=exc.strerror or exc)
                ) from None
    elapsed = max(time.perf_counter() - start, 1e-9)

    games = args.games
    last = args.seed + games - 1
    preset = args.preset or "standard"
    options = " ".join(f"{k}={v}" for k, v in (args.option or ()))
    print(
        _("{games}, {players}, preset {preset}, seeds {first}..{last}").format(
            games=ngettext("{n} game", "{n} games", games).format(n=games),
            players=ngettext("{n} player", "{n} players", n).format(n=n),
            preset=f"{preset} {options}" if options else preset,
            first=args.seed,
            last=last,
        )
    )
    print(_("speed: {rate} games/s ({seconds} s)").format(
        rate=decimal(games / elapsed, 2), seconds=decimal(elapsed, 2)
    ))
    print(_("wins by seat (a shared win counts for each winner; seats from 1):"))
    for s in range(n):
        print("  " + _("seat {seat} ({level}): {wins} ({percent}%)").format(
            seat=s + 1, level=level_name(levels[s]), wins=wins[s], percent=decimal(100 * wins[s] / games)
        ))
    if shared:
        print("  " + ngettext("shared wins: {n} game", "shared wins: {n} games", shared).format(n=shared))
    print(_("mean total per seat:"))
    for s in range(n):
        print("  " + _("seat {seat}: {mean}").format(seat=s + 1, mean=decimal(totals[s] / games)))
    end_words = {
        "domino": pgettext("round end", "domino"),
        "stuck": pgettext("round end", "stuck"),
        "blocked": pgettext("round end", "blocked"),
    }
    parts = ", ".join(f"{end_words[k]} {v}" for k, v in ends.items())
    print(_("round ends: {ends} ({rounds})").format(
        ends=parts, rounds=ngettext("{n} round", "{n} rounds", rounds).format(n=rounds)
    ))
    if folder is not None:
        print(ngettext("records: {n} file in {folder}", "records: {n} files in {folder}", games).format(
            n=games, folder=folder
        ))
    return 0


COMMANDS: dict[str, Command] = {
    "play": Command(
        help=N_("play at this terminal (the default command)"),
        add_arguments=_play_arguments,
        run=run_play,
        description=N_(
            "Play Mexican Train at this terminal. With any of --players, --preset, --option, "
            "--seed, --names, --humans or --ai the game starts at once; without them the "
            "new-game screen opens."
        ),
    ),
    "simulate": Command(
        help=N_("play many games between computer players and print statistics"),
        add_arguments=_simulate_arguments,
        run=run_simulate,
        description=N_(
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
        help=N_("show the statistics of finished games"),
        add_arguments=add_data_dir_argument,
        run="mexitrain.storage.stats:run_command",
        description=N_(
            "Print, for each person, games played and won, average and best totals "
            "and rounds gone out, overall, per computer level and per rule preset."
        ),
    ),
)


def _tournament_arguments(p: argparse.ArgumentParser) -> None:
    from .players.tournament import add_arguments

    add_arguments(p)


register(
    "tournament",
    Command(
        help=N_("measure the computer levels against each other"),
        add_arguments=_tournament_arguments,
        run="mexitrain.players.tournament:run",
        description=N_(
            "Play N deals, each under every rotation of the seats, and print for each "
            "level its win share (95% Wilson interval), points and difference per round and "
            "decisions per second."
        ),
    ),
)


# ---------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------
def build_parser() -> Parser:
    from . import __version__

    command_word = _("COMMAND")
    parser = Parser(
        prog=PROG,
        description=_("Mexican Train dominoes in the terminal. Without a command, play."),
        epilog=_("'{prog} {command} --help' describes a command's options.").format(
            prog=PROG, command=command_word
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"{PROG} {__version__}",
        help=_("show the version number and exit"),
    )
    sub = parser.add_subparsers(dest="command", metavar=command_word, parser_class=Parser)
    for name, command in COMMANDS.items():
        help_text = _(command.help)
        description = _(command.description) if command.description else help_text
        p = sub.add_parser(name, help=help_text, description=description)
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


def _option_values(argv: list[str], option: str) -> tuple[list[str], list[str], bool]:
    """``argv`` without ``option VALUE``/``option=VALUE`` (up to ``--``), the values found,
    and whether the option came last without its value."""
    rest: list[str] = []
    values: list[str] = []
    missing = False
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i:])
            break
        if arg == option:
            if i + 1 < len(argv):
                values.append(argv[i + 1])
                i += 2
                continue
            missing = True
        elif arg.startswith(option + "="):
            values.append(arg.partition("=")[2])
        else:
            rest.append(arg)
        i += 1
    return rest, values, missing


def choose_language(argv: list[str], environ=None) -> list[str]:
    """Set the language before the parser is built: ``--lang`` (taken out of ``argv``, which
    is returned without it), else the saved preference (in ``--data-dir`` if given), else the
    locale. A missing or unknown ``--lang`` is a :class:`UsageError` (in the fallback language)."""
    from . import settings

    environ = os.environ if environ is None else environ
    rest, langs, missing = _option_values(argv, "--lang")
    _rest, dirs, _missing = _option_values(argv, "--data-dir")
    root = dirs[-1] if dirs else None
    i18n.set_language(settings.choose_language(None, root, environ))
    if missing:
        raise UsageError(translate_argparse("argument --lang: expected one argument"))
    if langs:
        try:
            i18n.set_language(settings.choose_language(langs[-1], root, environ))
        except ValueError:
            raise UsageError(
                _("argument {argument}: {message}").format(
                    argument="--lang",
                    message=_("unknown language {lang}; choose one of {choices}").format(
                        lang=_shown(langs[-1]), choices=", ".join(i18n.available_languages())
                    ),
                )
            ) from None
    return rest


#: An error line longer than this is cut (a 10,000-character value is not worth a screenful).
MAX_ERROR_LINE = 300


def _say_error(message: str) -> None:
    line = _("{prog}: error: {message}").format(prog=PROG, message=message)
    if len(line) > MAX_ERROR_LINE:
        line = line[: MAX_ERROR_LINE - 1] + "…"
    print(line, file=sys.stderr, flush=True)


def _stdout_gone() -> int:
    """Standard output was closed by its reader (``mexitrain stats | head -3``): say nothing,
    point standard output at the null device so that Python's last flush cannot fail too,
    and exit with 141, the status of a program stopped by SIGPIPE, as the shell shows it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor (tests)
        pass
    return 141


def _crashed(exc: BaseException, folder: Path | None, argv: list[str]) -> int:
    """A bug: one line naming it and the crash log that holds the traceback; status 1."""
    from .crash import describe, write_crash_log

    path = write_crash_log(exc, folder, argv)
    if path is None:
        _say_error(_("unexpected error ({error}); no crash log could be written").format(error=describe(exc)))
    else:
        _say_error(
            _("unexpected error ({error}); the details are in {path}").format(error=describe(exc), path=path)
        )
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status. The language is set for the run and
    restored afterwards.

    Exit statuses: 0 done; 1 the command failed (:class:`CommandError`) or crashed (an
    unexpected exception: one line and a crash log, :mod:`mexitrain.crash`); 2 a bad
    argument, value or file (:class:`UsageError`); 130 stopped by Ctrl+C; 141 standard
    output closed by its reader."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    original = list(args_list)
    before = i18n.language()
    folder: Path | None = None
    try:
        args_list = choose_language(args_list)
        parser = build_parser()
        args = parser.parse_args(_with_default_command(args_list))
        folder = _check_data_dir(args)
        command = COMMANDS[args.command]
        run = _resolve(command.run)
        if argv is None:  # the real program, not a test calling main([...])
            freeze_startup_objects()
        status = int(run(args) or 0)
        sys.stdout.flush()  # a closed pipe is found here, not in Python's last flush
        return status
    except UsageError as exc:
        _say_error(_one_line(exc))
        return 2
    except CommandError as exc:
        _say_error(_one_line(exc))
        return 1
    except SystemExit as exc:  # --help and --version
        code = exc.code
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            return _stdout_gone()
        return code if isinstance(code, int) else (0 if code is None else 1)
    except KeyboardInterrupt:
        print(_("{prog}: interrupted").format(prog=PROG), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _stdout_gone()
    except Exception as exc:  # a bug
        return _crashed(exc, folder, original)
    finally:
        i18n.set_language(before)


__all__ = [
    "COMMANDS",
    "Command",
    "CommandError",
    "Parser",
    "UsageError",
    "add_rules_arguments",
    "bad_values",
    "build_parser",
    "data_dir_value",
    "int_between",
    "choose_language",
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
    "translate_argparse",
]
