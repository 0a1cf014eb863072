"""The link between a table's client and the app: the client runs in a Textual worker on the
app's own event loop (never a thread: the screen never freezes) and each thing it reports
becomes a Textual message to the app (issue 23).

:class:`ServerSaid` carries a message of the server (Welcome, Lobby, Update, Refused, Error),
:class:`LinkChanged` a :class:`~mexitrain.net.client.LinkStatus`, :class:`ClientEnded` says
the client has stopped. :func:`relay` runs a client and posts them; :func:`real_client` makes
the real :class:`~mexitrain.net.client.TableClient` (tests give a stand-in with the same
interface: ``run(on_message, on_status)``, ``send``, ``close``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.message import Message

from ..i18n import language
from .network_state import TableRequest


class ServerSaid(Message):
    """A message from the table's server (Welcome, Lobby, Update, Refused, Error)."""

    def __init__(self, msg: Any) -> None:
        self.msg = msg
        super().__init__()


class LinkChanged(Message):
    """The link to the table changed (a :class:`~mexitrain.net.client.LinkStatus`)."""

    def __init__(self, status: Any) -> None:
        self.status = status
        super().__init__()


class ClientEnded(Message):
    """The client stopped: closed, or a fatal error from the server."""


#: Makes the client of a table (the request, the data folder where the seat's token is kept).
ClientFactory = Callable[[TableRequest, Path], Any]


def real_client(request: TableRequest, root: Path) -> Any:
    """The real client of ``request``'s table, in the player's language."""
    from ..net.client import TableClient

    return TableClient(request.address, request.code, request.name, data_dir=root, lang=language(),
                       token=request.host_token, watch=request.watch)


async def relay(client: Any, post: Callable[[Message], Any]) -> None:
    """Run ``client`` until it stops, posting what it reports with ``post`` (the app's
    ``post_message``), and :class:`ClientEnded` at the end, whatever the end."""
    try:
        await client.run(lambda msg: post(ServerSaid(msg)), lambda status: post(LinkChanged(status)))
    finally:
        post(ClientEnded())


__all__ = ["ClientEnded", "ClientFactory", "LinkChanged", "ServerSaid", "real_client", "relay"]
