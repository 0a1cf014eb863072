"""``mexitrain join HOST:PORT CODE [--name NAME] [--watch]``: sit at a table on the network,
or watch it (``--watch``: no seat, the game as an onlooker sees it, no move). ``mexitrain join
LINK``: the table's link as a browser opens it (``http://HOST:PORT/t/CODE``, from ``mexitrain
serve``), whose address and code are those; an ``https://`` link (a server behind a TLS
proxy) is reached over TLS at its site's own address (``wss://HOST:443/``).

The address and the code are checked first (a bad one is one line, exit status 2); a table
that cannot be reached is not an error here: the game's screen opens and says it is trying
again (1, 2, 4 … 30 s), as it does when the link drops during a game. The seat's token is
kept in the data folder, so that ``mexitrain join`` again takes the seat back.
"""

from __future__ import annotations

import argparse

from ..i18n import _
from .args import CommandError, UsageError, add_data_dir_argument, name_value, shown


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("address", metavar=_("HOST:PORT"),
                   help=_("the table's address, as the host's screen shows it; or its link, http(s)://HOST:PORT/t/CODE"))
    p.add_argument("code", metavar=_("CODE"), nargs="?", help=_("the table's code (6 letters; not with a link)"))
    p.add_argument("--name", type=name_value, metavar=_("NAME"), help=_("your name at the table (default: your user name)"))
    p.add_argument("--watch", action="store_true",
                   help=_("watch the table rather than sit at it: no seat, never a hand, no move"))
    add_data_dir_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..net.protocol import normalise_code
    from ..ui.address import split_link, table_address

    link = split_link(args.address) if args.code is None else None
    if link is not None:
        args.address, args.code = link
    if table_address(args.address) is None:
        raise UsageError(
            _("{address} is not a table's address: HOST:PORT, for example 192.168.1.20:8765").format(
                address=shown(args.address)
            )
        )
    if args.code is None:
        raise UsageError(_("say the table's code after its address: mexitrain join HOST:PORT CODE, or give its link"))
    code = normalise_code(args.code)
    if code is None:
        raise UsageError(_("{code} is not a table code: 6 letters, for example KXMPTR").format(code=shown(args.code)))
    try:
        from ..ui.network import run_table_app
        from ..ui.screens.join import default_name
    except ImportError as exc:
        raise CommandError(_("the game screens are not available: {error}").format(error=exc)) from None
    watch = bool(getattr(args, "watch", False))
    name = args.name or default_name()
    if not name and not watch:  # a watcher needs no name
        raise UsageError(_("say your name at the table with --name NAME"))
    from ..i18n import language

    status = run_table_app(args.address.strip(), code, name or "", data_dir=getattr(args, "data_dir", None),
                           lang=language(), watch=watch)
    return int(status or 0)
