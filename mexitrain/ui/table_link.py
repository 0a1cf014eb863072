"""The link between a table's client and the app: the client runs in a Textual worker on the
app's own event loop (never a thread: the screen never freezes) and each thing it reports
becomes a Textual message to the app (issue 23).

:class:`ServerSaid` carries a message of the server (Welcome, Lobby, Update, Refused, Error),
:class:`LinkChanged` a :class:`~mexitrain.net.client.LinkStatus`, :class:`ClientEnded` says
the client has stopped. :class:`Relay` runs a client and posts them; :func:`real_client` makes
the real :class:`~mexitrain.net.client.TableClient` (tests give a stand-in with the same
interface: ``run(on_message, on_status)``, ``send``, ``close``).

Updates are coalesced: at most one game update (an :class:`~mexitrain.net.protocol.Update`,
or a watcher's :class:`~mexitrain.net.protocol.Onlooker`) waits for the app at a time, and a
newer one takes its place (:class:`UpdateWaiting`, :meth:`Relay.take`). Each update holds the
whole view, so the screen loses nothing but positions it could not have drawn in time; the app
works out what happened between two updates it took (a knock, a round's end) as it does after
a reconnection. A message that came between the two may then be read after the newer update,
which changes nothing: no other message tells the game's position. So a host that sends
updates faster than the guest can draw them (a flood) costs the guest one waiting update,
never a queue that grows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.message import Message

from ..i18n import language
from ..net.protocol import Onlooker, Update
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


class UpdateWaiting(Message):
    """A game update waits in the relay: the app takes the latest with :meth:`Relay.take`."""


#: Makes the client of a table (the request, the data folder where the seat's token is kept).
ClientFactory = Callable[[TableRequest, Path], Any]


def real_client(request: TableRequest, root: Path) -> Any:
    """The real client of ``request``'s table, in the player's language."""
    from ..net.client import TableClient

    return TableClient(request.address, request.code, request.name, data_dir=root, lang=language(),
                       token=request.host_token, watch=request.watch)


class Relay:
    """Runs ``client`` (:meth:`run`), posting what it reports with ``post`` (the app's
    ``post_message``): a game update through the one waiting place (the module's docstring),
    anything else in order as :class:`ServerSaid`, and :class:`ClientEnded` at the end."""

    def __init__(self, client: Any, post: Callable[[Message], Any]) -> None:
        self.client = client
        self.post = post
        self._waiting: Any = None
        #: updates that a newer one replaced before the app took them
        self.replaced = 0

    def said(self, msg: Any) -> None:
        """A message of the server, from the client."""
        if not isinstance(msg, Update | Onlooker):
            self.post(ServerSaid(msg))
            return
        old = self._waiting
        if old is None:
            self._waiting = msg
            self.post(UpdateWaiting())
            return
        if old.timed is not None and msg.timed is None:  # "the turn timer played…" is still said
            msg = msg.model_copy(update={"timed": old.timed})
        self._waiting = msg
        self.replaced += 1

    def take(self) -> Any:
        """The update waiting (None once taken)."""
        msg, self._waiting = self._waiting, None
        return msg

    async def run(self) -> None:
        """Run the client until it stops, and post :class:`ClientEnded`, whatever the end."""
        try:
            await self.client.run(self.said, lambda status: self.post(LinkChanged(status)))
        finally:
            self.post(ClientEnded())


__all__ = [
    "ClientEnded", "ClientFactory", "LinkChanged", "Relay", "ServerSaid", "UpdateWaiting", "real_client",
]
