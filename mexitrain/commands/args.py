"""What the subcommands share: their errors, argparse in the player's language, the argument
types with their bounds and standard messages, and ``--preset``/``--option``/``--data-dir``.

Every bad argument or value is one line on stderr, ``mexitrain: error: ...``, exit status 2
(:class:`UsageError`); a command that cannot do its work is one line, exit status 1
(:class:`CommandError`). Inside a command's ``run``, wrap the code that turns arguments into
objects in ``with bad_values():``, which turns ``RuleSetError``/``ValueError`` into that
one-line exit-2 error.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

from .. import i18n
from ..i18n import _, ngettext, pgettext


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


def one_line(exc: BaseException) -> str:
    from ..text.names import printable  # a path or a value from a file may hold control characters

    ours = _ours(exc)
    if ours is not None:
        from ..text.errors import error_text  # in the player's language

        return printable(" ".join(error_text(ours).split()))
    if callable(getattr(exc, "errors", None)):  # a pydantic ValidationError: its first error
        from ..text.validation import (
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
        raise UsageError(one_line(exc)) from None


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

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        # a command's parser (``mexitrain simulate``) left with only a --data-dir: it has no
        # data folder (``mexitrain --data-dir DIR simulate`` puts the option after the name)
        if " " in self.prog and (extras[:1] == ["--data-dir"] and len(extras) == 2
                                 or len(extras) == 1 and extras[0].startswith("--data-dir=")):
            raise UsageError(_("{command} keeps no data folder: --data-dir is not one of its options").format(
                command=self.prog.rsplit(" ", 1)[-1]))
        return namespace, extras

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
#: The bounds of the numeric options (docs/command-line.md). A value outside is one line,
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


def shown(text: str, limit: int = 40) -> str:
    """A value the user typed, quoted for a message: control characters escaped, cut short."""
    from ..text.names import printable

    text = printable(text)
    return _q(text if len(text) <= limit else text[: limit - 1] + "…")


def _whole(text: str) -> int | None:
    """``text`` as a whole number (ASCII digits, an optional sign), or None. A number too
    long to be any option's value is refused by its digits, never handed to int() (whose
    4300-digit limit raises its own ValueError)."""
    t = text.strip()
    if not _WHOLE.match(t):
        raise argparse.ArgumentTypeError(
            _("expected a whole number, not {value}").format(value=shown(text))
        )
    return int(t) if len(t.lstrip("+-")) <= 30 else None


def int_between(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``, else one line."""

    def parse(text: str) -> int:
        value = _whole(text)
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                _("must be between {low} and {high}, not {value}").format(
                    low=low, high=high, value=shown(text.strip())
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
    """A seed: a whole number from 0 to 2**129 - 1, in decimal or in hex after ``0x`` (as the
    result screen shows a sealed seed: mexitrain.rules.seeds)."""
    from ..rules.seeds import SEED_MAX, parse_seed

    value = parse_seed(text)
    if value is not None:
        return value
    t = text.strip()
    if _WHOLE.match(t) and t.startswith("-"):
        raise argparse.ArgumentTypeError(_("must be 0 or more, not {value}").format(value=shown(t)))
    if _WHOLE.match(t):
        raise argparse.ArgumentTypeError(
            _("must be between {low} and {high}, not {value}").format(low=0, high=SEED_MAX, value=shown(t))
        )
    raise argparse.ArgumentTypeError(
        _("expected a whole number (or hex after 0x), not {value}").format(value=shown(text))
    )


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
            _("expected a number of seconds, not {value}").format(value=shown(text))
        ) from None
    if not math.isfinite(value) or not 0 <= value <= MAX_SPEED:
        raise argparse.ArgumentTypeError(
            _("must be between 0 and {high} seconds, not {value}").format(
                high=f"{MAX_SPEED:g}", value=shown(text.strip())
            )
        )
    return value


def option_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(
            _("expected {form}, not {value}").format(form=_("KEY=VALUE"), value=shown(text))
        )
    key, value = key.strip(), value.strip()
    if _WHOLE.match(value) and len(value.lstrip("+-")) > MAX_OPTION_DIGITS:
        # the rules range-check every number, but int() of 4300 digits fails before them
        raise argparse.ArgumentTypeError(
            _("option {key} takes a smaller number, not {value}").format(
                key=shown(key), value=shown(value)
            )
        )
    return key, value


def levels_value(text: str, kept: bool = False) -> tuple[str, ...]:
    """A comma-separated list of computer levels, each registered in ``mexitrain.players.LEVELS``
    (or, when ``kept``, in ``KEPT_LEVELS``: a level as it played before, for kept games)."""
    from ..players import KEPT_LEVELS, LEVELS

    known = [*LEVELS, *KEPT_LEVELS] if kept else list(LEVELS)
    levels = tuple(part.strip().lower() for part in text.split(","))
    for level in levels:
        if level not in known:
            raise argparse.ArgumentTypeError(
                _("unknown computer level {level}; choose from {levels}").format(
                    level=shown(level), levels=", ".join(known)
                )
            )
    return levels


def measured_levels_value(text: str) -> tuple[str, ...]:
    """:func:`levels_value` for a tournament or a simulation, which may also seat the kept
    levels (``expert-full``)."""
    return levels_value(text, kept=True)


def _check_name(name: str) -> str:
    """``name`` (stripped, not empty) as :class:`mexitrain.game_setup.SeatConfig` takes it
    (mexitrain.text says which characters a name may hold); a refused name is quoted with
    its control characters escaped."""
    from ..text.names import NAME_MAX, codepoint, first_unprintable, name_fault, printable

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
    if name_fault(name) is not None:  # no visible character: it would show as nobody
        raise argparse.ArgumentTypeError(
            _("name {name} has no visible character").format(name=_q(ascii(name)[1:-1]))
        )
    return name


def names_value(text: str) -> tuple[str, ...]:
    """Seat names, comma-separated, each checked by :func:`name_value`'s rules, no two the
    same (:func:`mexitrain.text.names.repeated_name`)."""
    from ..text.names import printable, repeated_name

    names = tuple(part.strip() for part in text.split(","))
    for name in names:
        if not name:
            raise argparse.ArgumentTypeError(_("empty name in {names}").format(names=_q(printable(text))))
        _check_name(name)
    twice = repeated_name(names)
    if twice is not None:
        raise argparse.ArgumentTypeError(
            _("two seats are named {name}: each needs a name of its own").format(name=_q(printable(twice)))
        )
    return names


def name_value(text: str) -> str:
    """One seat's name (``--name`` of host and join), as the new-game form takes one."""
    name = text.strip()
    if not name:
        raise argparse.ArgumentTypeError(_("a name cannot be empty"))
    return _check_name(name)


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
    from ..rules import make_rules

    with bad_values():
        return make_rules(args.preset or "standard", dict(args.option or ()))


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
            return _("{path} is not a folder").format(path=shown(str(path), 80))
        above = path
        while not above.exists() and above.parent != above:
            above = above.parent
        if not above.is_dir():
            return _("{path} is not a folder").format(path=shown(str(above), 80))
    except OSError as exc:  # a name too long, a loop of links...
        return f"{shown(str(path), 80)}: {exc.strerror or type(exc).__name__}"
    return None


def data_dir_value(text: str) -> str:
    """``--data-dir DIR`` (see :func:`folder_problem`): a bad folder is a usage error."""
    if not text.strip():
        raise argparse.ArgumentTypeError(_("expected a folder, not an empty value"))
    problem = folder_problem(Path(text).expanduser())
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def check_data_dir(args: argparse.Namespace) -> Path | None:
    """The data folder of a command that has ``--data-dir`` (None for the others); the one
    of ``$MEXITRAIN_DATA_DIR`` is checked as ``--data-dir`` is (a usage error, exit 2)."""
    if "data_dir" not in vars(args):
        return None
    from ..storage.paths import ENV_VAR, data_dir

    root = data_dir(args.data_dir)
    if args.data_dir is None:
        problem = folder_problem(root)
        if problem is not None:
            raise UsageError(f"{ENV_VAR}: {problem}")
    return root
