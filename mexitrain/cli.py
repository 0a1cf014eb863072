"""The ``mexitrain`` command line: parse the arguments and run one of the commands of
:mod:`mexitrain.commands` (one module each):

- ``play`` (the default): play at this terminal (the new-game screen, or a game at once)
- ``simulate``: many games between computer players, and their figures
- ``tournament``: measure the computer levels against each other
- ``stats``: the statistics of finished games
- ``host``: open a table on the network for others to join (and play at it)
- ``join``: sit at a table on the network (``HOST:PORT CODE``)
- ``serve``: the game in a web browser, one game a page

Every bad argument or value prints one line on stderr, ``mexitrain: error: ...``, and exits
with status 2: no usage dump, no traceback.

Adding a subcommand
-------------------
Register it in :data:`COMMANDS` (or call :func:`register` before :func:`main` runs)::

    COMMANDS["tournament"] = Command(
        help=N_("measure the computer levels against each other"),
        add_arguments="mexitrain.commands.tournament:add_arguments",  # (parser) -> None
        run="mexitrain.commands.tournament:run",  # (args) -> int; imported only when run
    )

``add_arguments`` fills the subcommand's parser (the shared argument types of
:mod:`mexitrain.commands.args`, such as ``positive_int``, ``seed_value``, ``levels_value``,
``option_value`` and ``add_rules_arguments``, give the standard messages); keep it cheap and
import nothing heavy in it. ``run`` receives the parsed ``argparse.Namespace`` and returns the
exit status. Each is a callable or a lazy ``"module:function"`` string, so that a command's
imports (and never ``textual`` outside ``play``) are paid only by that command. Inside
``run``, raise ``UsageError`` for a bad value, or wrap the code that turns arguments into
objects in ``with bad_values():``, which turns ``RuleSetError``/``ValueError`` into that
one-line exit-2 error. ``CommandError`` is a one-line failure with exit status 1.

Language
--------
Every text is in the player's language (:mod:`mexitrain.i18n`): ``--lang en|fr`` (a global
option, before or after the command), else the preference saved in ``settings.json``, else
the locale (``LANG=fr_FR.UTF-8``). Mark a command's ``help`` and ``description`` with
:func:`~mexitrain.i18n.N_` (they are translated when the parser is built) and wrap help
texts and messages in ``_()``; argparse's own words are translated by
:class:`~mexitrain.commands.args.Parser`.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import i18n
from .commands import play, simulate
from .commands.args import (
    CommandError,
    Parser,
    UsageError,
    add_data_dir_argument,
    check_data_dir,
    one_line,
    shown,
    translate_argparse,
)
from .i18n import N_, _

PROG = "mexitrain"
DEFAULT_COMMAND = "play"


# ---------------------------------------------------------------------------------------
# The command table
# ---------------------------------------------------------------------------------------
Runner = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class Command:
    help: str
    #: fills the command's parser: a callable, or "module:function" imported when needed
    add_arguments: Callable[[argparse.ArgumentParser], None] | str
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


def _resolve(run: Callable | str) -> Callable:
    if callable(run):
        return run
    module, _sep, name = run.partition(":")
    return getattr(importlib.import_module(module), name)


COMMANDS: dict[str, Command] = {
    "play": Command(
        help=N_("play at this terminal (the default command)"),
        add_arguments=play.add_arguments,
        run=play.run,
        description=N_(
            "Play Mexican Train at this terminal. With any of --players, --preset, --option, "
            "--seed, --names, --humans or --ai the game starts at once; without them the "
            "new-game screen opens."
        ),
    ),
    "simulate": Command(
        help=N_("play many games between computer players and print statistics"),
        add_arguments=simulate.add_arguments,
        run=simulate.run,
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
        run="mexitrain.commands.stats:run",
        description=N_(
            "Print, for each person, games played and won, average and best totals "
            "and rounds gone out, overall, per computer level and per rule preset."
        ),
    ),
)


register(
    "tournament",
    Command(
        help=N_("measure the computer levels against each other"),
        add_arguments="mexitrain.commands.tournament:add_arguments",
        run="mexitrain.commands.tournament:run",
        description=N_(
            "Play N deals, each under every rotation of the seats, and print for each "
            "level its win share (95% Wilson interval), points and difference per round and "
            "decisions per second."
        ),
    ),
)


register(
    "serve",
    Command(
        help=N_("serve the game in a web browser"),
        add_arguments="mexitrain.commands.serve:add_arguments",
        run="mexitrain.commands.serve:run",
        description=N_(
            "Serve Mexican Train as a web page: each visitor plays their own game, in a "
            "process of its own. Only this machine can connect unless --host says otherwise."
        ),
    ),
)


register(
    "join",
    Command(
        help=N_("sit at a table on the network"),
        add_arguments="mexitrain.commands.join:add_arguments",
        run="mexitrain.commands.join:run",
        description=N_(
            "Sit at the table another player hosts (mexitrain host, or Host a table… on the "
            "new-game screen): its address and code are on the host's screen. Joining again "
            "takes your seat back."
        ),
    ),
)


register(
    "host",
    Command(
        help=N_("open a table on the network for others to join"),
        add_arguments="mexitrain.commands.host:add_arguments",
        run="mexitrain.commands.host:run",
        description=N_(
            "Open a table on the network and print the line the others type to join "
            "(mexitrain join HOST:PORT CODE). Play your seat here, or serve the table "
            "headless with --no-play. The table code is the only key: use it on a "
            "trusted network. --resume reopens the table where it stopped."
        ),
    ),
)


register(
    "review",
    Command(
        help=N_("value each decision of a finished game with the expert's search"),
        add_arguments="mexitrain.commands.review:add_arguments",
        run="mexitrain.commands.review:run",
        description=N_(
            "Review a saved game or game record: each of the people's decisions is valued with "
            "the expert's search, as the points it cost on average against the best move "
            "found. Prints one line per round and the three costliest decisions explained."
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
    # only for --help: a --data-dir before the command is handed to it (_command_first)
    parser.add_argument(
        "--data-dir", metavar=_("DIR"), default=argparse.SUPPRESS,
        help=_("the data folder, for any command that has one (also after the command)"),
    )
    sub = parser.add_subparsers(dest="command", metavar=command_word, parser_class=Parser)
    for name, command in COMMANDS.items():
        help_text = _(command.help)
        description = _(command.description) if command.description else help_text
        p = sub.add_parser(name, help=help_text, description=description)
        _resolve(command.add_arguments)(p)
    return parser


def _command_first(argv: list[str]) -> list[str]:
    """``mexitrain --data-dir DIR stats``: a ``--data-dir`` given before the command goes
    after the command's name, where the command's own parser checks it as if it had been
    typed there (the same checks, the same one-line errors; a command without
    ``--data-dir`` refuses it as it would after its name). ``--lang``, the other option
    taken on either side, is read by :func:`choose_language` before this."""
    moved: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] == "--data-dir" and i + 1 < len(argv):
            moved += argv[i : i + 2]
            i += 2
        elif argv[i].startswith("--data-dir="):
            moved.append(argv[i])
            i += 1
        else:
            break
    if moved and i < len(argv) and argv[i] in COMMANDS:
        return [argv[i], *moved, *argv[i + 1 :]]
    return argv  # no command after it: the default command's --data-dir


def _with_default_command(argv: list[str]) -> list[str]:
    argv = _command_first(argv)
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
    from .storage import settings

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
                        lang=shown(langs[-1]), choices=", ".join(i18n.available_languages())
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
    from .commands.crash import describe, write_crash_log

    path = write_crash_log(exc, folder, argv)
    if path is None:
        _say_error(_("unexpected error ({error}); no crash log could be written").format(error=describe(exc)))
    else:
        _say_error(
            _("unexpected error ({error}); the details are in {path}").format(error=describe(exc), path=path)
        )
    return 1


#: Textual redraws at most this many times a second (its own default, 60, makes a key wait up
#: to a frame, 16.7 ms, before its redraw: docs/performance.md); ``TEXTUAL_FPS`` still wins.
FRAMES_PER_SECOND = 120


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status. The language is set for the run and
    restored afterwards.

    Exit statuses: 0 done; 1 the command failed (:class:`CommandError`) or crashed (an
    unexpected exception: one line and a crash log, :mod:`mexitrain.commands.crash`); 2 a bad
    argument, value or file (:class:`UsageError`); 130 stopped by Ctrl+C; 141 standard
    output closed by its reader."""
    os.environ.setdefault("TEXTUAL_FPS", str(FRAMES_PER_SECOND))  # read when Textual is imported
    args_list = list(sys.argv[1:] if argv is None else argv)
    original = list(args_list)
    before = i18n.language()
    folder: Path | None = None
    try:
        args_list = choose_language(args_list)
        parser = build_parser()
        args = parser.parse_args(_with_default_command(args_list))
        folder = check_data_dir(args)
        command = COMMANDS[args.command]
        run = _resolve(command.run)
        if argv is None:  # the real program, not a test calling main([...])
            freeze_startup_objects()
        status = int(run(args) or 0)
        sys.stdout.flush()  # a closed pipe is found here, not in Python's last flush
        return status
    except UsageError as exc:
        _say_error(one_line(exc))
        return 2
    except CommandError as exc:
        _say_error(one_line(exc))
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
    "build_parser",
    "choose_language",
    "freeze_startup_objects",
    "main",
    "register",
]
