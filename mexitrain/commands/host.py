"""``mexitrain host``: open a table on the network (docs/protocol.md).

It prints the line the others type (``mexitrain join HOST:PORT CODE``), then either plays the
host's seat in the game screens (the server runs in a thread of this process) or, with
``--no-play``, serves the table headless: one line as each person sits, leaves or comes back;
the game starts when every seat is taken, or at once when Enter is pressed (open seats go to
computer players); when the game is over the table closes once everyone has left. Ctrl+C
closes it in one line (exit status 130); ``mexitrain host --resume`` reopens it, with the same
code, seats and tokens, where its autosave left it. The lines go through a bounded log written
by a thread (:mod:`.hostlog`): a terminal or pipe that nobody reads never stops the table.
What a stranger is refused (too many connections, a wrong code…) is one line per address
and kind, then a count once per window (docs/threat-model/flood.md).

The host raises its own open-file limit toward the hard limit where the system lets it (each
connection is a file; the table holds at most ``Limits.max_connections``).

The default port is 8765 (as the app's Host a table…) and the default address 0.0.0.0 (every
IPv4 interface): a family's LAN game needs the computer's LAN address, which is printed. The table code is the only key:
host on a trusted network only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import ipaddress
import os
import re
import shutil
import signal
import socket
import sys
import textwrap
from pathlib import Path

from ..i18n import _
from .args import (
    CommandError,
    UsageError,
    add_data_dir_argument,
    add_rules_arguments,
    bad_values,
    check_data_dir,
    int_between,
    levels_value,
    name_value,
    player_count,
    rules_from_args,
    seed_value,
    shown,
    speed_value,
)

DEFAULT_PORT = 8765
#: the turn timer's bounds (mexitrain.net.protocol.TURN_TIME_MIN and MAX; kept here so that the
#: command's options are read without importing the network code)
TURN_TIME_MIN = 10
TURN_TIME_MAX = 600
DEFAULT_BIND = "0.0.0.0"
_HOSTNAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$")


def bind_value(text: str) -> str:
    """An address to listen on: an IP address or a host name."""
    text = text.strip()
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        pass
    if not _HOSTNAME.fullmatch(text):
        raise argparse.ArgumentTypeError(_("not an address: {value}").format(value=shown(text)))
    return text


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--port", type=int_between(0, 65535), metavar=_("PORT"),
        help=_("port to listen on (default {port}; 0: any free port)").format(port=DEFAULT_PORT),
    )
    p.add_argument(
        "--bind", type=bind_value, default=DEFAULT_BIND, metavar=_("ADDR"),
        help=_("address to listen on (default {addr}: every network of this computer)").format(addr=DEFAULT_BIND),
    )
    p.add_argument("--players", type=player_count, metavar="N", help=_("players at the table (default 4)"))
    add_rules_arguments(p)
    p.add_argument("--seed", type=seed_value, metavar="S", help=_("seed of the deals (default: a fresh one)"))
    p.add_argument(
        "--ai", type=levels_value, metavar=_("LEVEL"),
        help=_("computer level of the seats nobody takes (default planner)"),
    )
    p.add_argument("--name", type=name_value, metavar=_("NAME"), help=_("your name at the table"))
    p.add_argument(
        "--speed", type=speed_value, default=0.6, metavar=_("SECONDS"),
        help=_("delay between computer moves (default 0.6)"),
    )
    p.add_argument(
        "--turn-time", type=int_between(TURN_TIME_MIN, TURN_TIME_MAX), metavar=_("SECONDS"),
        help=_(
            "turn timer: a person's turn that runs past it is played with their expert tip "
            "({low} to {high} seconds; default: no timer)"
        ).format(low=TURN_TIME_MIN, high=TURN_TIME_MAX),
    )
    p.add_argument(
        "--no-play", action="store_true",
        help=_("serve the table without playing a seat (lines on the terminal; Enter starts the game)"),
    )
    p.add_argument(
        "--resume", nargs="?", const="", metavar=_("CODE"),
        help=_("reopen the table (the last one, or CODE) where it stopped"),
    )
    add_data_dir_argument(p)


def lan_addresses() -> list[str]:
    """This computer's addresses another computer of the LAN can reach, best first (the one
    of the default route; no packet is sent)."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the interface
        found.append(s.getsockname()[0])
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = str(info[4][0])
            if addr not in found and not addr.startswith("127."):
                found.append(addr)
    return found or ["127.0.0.1"]


def _shared(bind: str) -> list[str]:
    if bind in ("0.0.0.0", "::", ""):
        return lan_addresses()
    return [bind]


def _hostport(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _default_name() -> str:
    from ..text.names import NAME_MAX, name_fault

    with contextlib.suppress(Exception):
        name = getpass.getuser().strip()[:NAME_MAX]
        if name_fault(name) is None:
            return name
    return _("Host")


def _new_server(args: argparse.Namespace, root: Path, level: str, start_when_full: str | None, on_event):
    from ..game_setup import GameSetup, SeatConfig, random_seed
    from ..net.server import TableServer

    rules = rules_from_args(args)
    players = args.players or 4
    name = args.name or _default_name()
    with bad_values():
        rules.check_players(players)
        seats = tuple(SeatConfig(name=name if i == 0 else f"Seat {i + 1}", kind="human") for i in range(players))
        setup = GameSetup(
            rules=rules, seed=random_seed() if args.seed is None else args.seed, seats=seats,
            seed_chosen=args.seed is not None,
        )
    host_seat = None if args.no_play else 0
    open_seats = tuple(i for i in range(players) if i != host_seat)
    return TableServer(
        setup, data_dir=root, open_seats=open_seats, host_seat=host_seat, pace=args.speed,
        on_event=on_event, start_when_full=start_when_full, turn_time=getattr(args, "turn_time", None),
    )


def _resumed_server(args: argparse.Namespace, root: Path, start_when_full: str | None, on_event):
    from ..net.server import TableServer
    from ..storage.savefile import SaveError
    from ..text import net as t
    from ..text.errors import error_text

    for name in ("players", "preset", "option", "seed", "name"):
        if getattr(args, name, None) is not None:
            raise UsageError(_("--resume reopens the table as it was: --{option} cannot change it").format(option=name))
    try:
        return TableServer.resume(
            root, args.resume or None, pace=args.speed, on_event=on_event, start_when_full=start_when_full,
            turn_time=getattr(args, "turn_time", None),
        )
    except SaveError as exc:
        if exc.code == "no_table":
            raise CommandError(t.no_table_line()) from None
        raise CommandError(error_text(exc)) from None


def _say(line: str) -> None:
    print(line, flush=True)


def _raise_open_files() -> None:
    from ..net.guard import raise_open_files

    raise_open_files()


def _event_line(kind: str, **v) -> str | None:
    from ..text import net as t

    if kind == "joined":
        return t.joined_line(v["name"], v["seat"])
    if kind == "back":
        return t.back_line(v["name"], v["seat"])
    if kind == "left":
        return t.left_line(v["name"], v["seat"], over=v.get("over", False))
    if kind == "started":
        return t.started_line(v["level"])
    if kind == "over":
        return t.game_over_line()
    if kind == "timed":
        return t.timed_line(v["name"], v["seat"])
    if kind == "results_timed":
        return t.results_timed_line(v["name"], v["seat"])
    if kind == "rematch":
        return t.rematch_line(v["name"], v["seat"])
    if kind == "rematch_started":
        return t.rematch_started_line()
    if kind == "watching":
        return t.watching_line(v.get("count", 1))
    if kind == "removed":
        from ..text.chat import removed_line

        return removed_line(v.get("name") or "", v["seat"])
    if kind == "refused":
        extra = {key: value for key, value in v.items() if key not in ("why", "who", "count")}
        return t.refused_line(v["why"], v.get("who"), v.get("count", 1), extra)
    return None


async def _headless(server, bind: str, port: int, level: str, say=_say) -> int:
    from ..text import net as t

    try:
        port = await server.start(bind, port)
    except OSError as exc:
        raise CommandError(t.cannot_listen_line(_hostport(bind, port), exc.strerror or str(exc))) from None
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    status = 0

    def interrupted(code: int) -> None:
        nonlocal status
        status = code
        stop.set()

    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGINT, interrupted, 130)
        loop.add_signal_handler(signal.SIGTERM, interrupted, 143)
    shared = _shared(bind)
    if server.state is not None:
        say(t.resumed_line(server.code, server.state.round, server.state.rules.round_count))
    say(t.serving_line(_hostport(bind, port), server.code, len(server.seats)))
    say(t.join_line(_hostport(shared[0], port), server.code))
    if len(shared) > 1:
        say(t.other_addresses_line(shared[1:]))
    if not server.started:
        say(_prose(t.headless_start_line()))

    typed = bytearray()  # what came since the last newline (at most CONSOLE_LINE bytes kept)

    def enter() -> None:
        # the descriptor itself, not sys.stdin's buffer: lines typed or pasted together all
        # come in one read, and each is taken now (a buffer would hide the rest from the loop)
        try:
            chunk = os.read(sys.stdin.fileno(), 4096)
        except (OSError, ValueError):
            chunk = b""
        if not chunk:  # end of input: nobody will press Enter
            with contextlib.suppress(Exception):
                loop.remove_reader(sys.stdin.fileno())
            return
        typed.extend(chunk)
        *lines, rest = bytes(typed).split(b"\n")
        # a line past the bound is kept as a NUL alone until it ends: then it is no command
        typed[:] = rest if len(rest) <= CONSOLE_LINE else b"\0"
        for line in lines:
            command(line.decode("utf-8", "replace"), server, level, say)

    reading = False
    with contextlib.suppress(Exception):
        if sys.stdin is not None and not sys.stdin.closed:
            loop.add_reader(sys.stdin.fileno(), enter)
            reading = True

    async def finished() -> None:
        while not (server.state is not None and server.state.over and all(s.conn is None for s in server.seats)):
            await asyncio.sleep(0.2)
        stop.set()

    watcher = asyncio.create_task(finished())
    try:
        await stop.wait()
    finally:
        watcher.cancel()
        if reading:
            with contextlib.suppress(Exception):
                loop.remove_reader(sys.stdin.fileno())
        await server.stop()
    if not server.resumable:  # Ctrl+C, or everyone left, after the end: the game is in saves/
        say(t.closed_over_line(None if server.kept is None else str(server.kept)))
    elif status:
        say(t.stopped_line())
    return status


#: What ``host --no-play``'s terminal takes besides Enter: ``remove N`` (French ``retirer N``)
#: and ``hand N`` (French ``confier N``: the seat of a person who is away goes to a computer
#: player until they come back, as the host's Hand over key does).
REMOVE_WORDS = ("remove", "retirer")
HAND_WORDS = ("hand", "confier")
#: The most bytes of a line not yet ended that ``host --no-play`` keeps (a longer one is no
#: command: it is answered with what the terminal takes, whatever it ends with).
CONSOLE_LINE = 256


def command(line: str, server, level: str, say=_say) -> None:
    """One line typed at ``host --no-play``'s terminal: Enter starts the game (when it has not
    started), ``remove N`` removes the person of seat N (from 1; a computer player of
    ``level`` takes the seat, the server's log line says so), ``hand N`` hands the seat of a
    person who is away to a computer player of ``level`` until they come back, anything else
    is answered with what the terminal takes. Typed text is never echoed back."""
    from ..text import net as t

    words = line.split() if len(line) <= CONSOLE_LINE else ["\0"]  # past the bound: no command
    if not words:
        server.start_game(level)
        return
    if len(words) == 2 and words[1].isdigit() and len(words[1]) <= 3:
        seat = int(words[1])
        if words[0].lower() in REMOVE_WORDS:
            if not server.remove(seat - 1, level):
                say(t.not_removed_line(seat))
            return
        if words[0].lower() in HAND_WORDS:
            say(t.handed_line(seat) if server.hand_over(seat - 1, level) else t.not_handed_line(seat))
            return
    say(_prose(t.console_help_line()))


def _prose(text: str) -> str:
    """A long sentence for the host's terminal, wrapped between words to its width (the
    terminal would cut words in two); a pipe or a file gets it whole, on one line."""
    if not sys.stdout.isatty():
        return text
    width = max(20, shutil.get_terminal_size().columns - 1)
    return "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False))


def run(args: argparse.Namespace) -> int:
    from ..storage.paths import data_dir

    root = check_data_dir(args) or Path(data_dir(None))
    level = (args.ai or ("planner",))[0]
    if args.ai and len(args.ai) != 1:
        raise UsageError(_("--ai takes one level for the seats nobody takes"))
    _raise_open_files()
    if args.no_play:
        return _serve_headless(args, root, level)
    server = _open_server(args, root, level, None)
    return _play(server, args, root, _port(args, server), level)


def _open_server(args: argparse.Namespace, root: Path, level: str, on_event):
    start_when_full = level if args.no_play else None
    if args.resume is not None:
        return _resumed_server(args, root, start_when_full, on_event)
    return _new_server(args, root, level, start_when_full, on_event)


def _port(args: argparse.Namespace, server) -> int:
    if args.port is not None:
        return args.port
    return (server.port or DEFAULT_PORT) if args.resume is not None else DEFAULT_PORT


def _serve_headless(args: argparse.Namespace, root: Path, level: str) -> int:
    """The table without a seat for the host: its lines on standard output, its loggers'
    warnings on standard error, each through a :class:`~.hostlog.HostLog`."""
    from .hostlog import HostLog, logging_to

    out = HostLog(sys.stdout, name="host-log")
    err = HostLog(sys.stderr, name="host-errors")

    def on_event(kind: str, **values) -> None:
        line = _event_line(kind, **values)
        if line:
            out.say(line)

    try:
        with logging_to(err, "mexitrain", "websockets"):
            server = _open_server(args, root, level, on_event)
            return asyncio.run(_headless(server, args.bind, _port(args, server), level, say=out.say))
    finally:
        out.close()
        err.close()


def _play(server, args: argparse.Namespace, root: Path, port: int, level: str) -> int:
    from ..i18n import language
    from ..net.server import run_in_thread
    from ..text import net as t

    try:
        from ..ui.network import run_table_app
    except ImportError:
        raise CommandError(t.no_ui_line()) from None
    try:
        st = run_in_thread(server, args.bind, port)
    except OSError as exc:
        raise CommandError(t.cannot_listen_line(_hostport(args.bind, port), exc.strerror or str(exc))) from None
    try:
        shared = _shared(args.bind)
        line = t.join_line(_hostport(shared[0], st.port), server.code)
        _say(line)
        seat = server.host_seat if server.host_seat is not None else 0
        name = server.seats[seat].name
        here = "127.0.0.1" if args.bind in ("0.0.0.0", "::") else args.bind
        status = run_table_app(
            _hostport(here, st.port), server.code, name, data_dir=root, lang=language(),
            host_token=server.host_token, join_line=line,
        )
    finally:
        st.stop()
    return int(status or 0)
