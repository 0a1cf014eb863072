"""A served game's side of ``mexitrain serve``'s tables (:mod:`mexitrain.net.service`).

``mexitrain serve`` starts each page's game with :data:`ENV` in its environment (never on a
page, never from the visitor): where the table service is, the game's own key (what it
shows the service to act for its page's browser), the address the visitor opened the page
at (the links the game shows are made from it), and, for a ``/t/CODE`` page, that table.
:func:`new_table` opens a table there, :func:`claim` asks for a seat at one (one browser,
one seat); both answer in one line when refused (:class:`ServedRefusal`). Plain Python: the
HTTP calls are made with the standard library, in a thread.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import urllib.error
import urllib.request
from dataclasses import dataclass

from ..game_setup import GameSetup
from ..i18n import _
from .protocol import normalise_code

#: The environment variable ``mexitrain serve`` sets for its games (JSON).
ENV = "MEXITRAIN_SERVED_TABLES"
#: The paths of the service on the serve port, and the header holding the game's key.
TABLES_PATH = "/served/tables"
CLAIM_PATH = "/served/claim"
KEY_HEADER = "X-Mexitrain-Game"
#: Seconds a call to the service may take; the longest answer read.
TIMEOUT = 10.0
MAX_ANSWER = 16 * 1024
#: The most characters of a link kept from the environment.
MAX_LINK = 300
_HEX = re.compile(r"[0-9a-f]{16,64}\Z")


class ServedRefusal(Exception):
    """The service refused (or could not be reached): ``text`` is the one line to show."""

    def __init__(self, text: str, status: int | None = None) -> None:
        super().__init__(text)
        self.text = text
        #: the HTTP status of the service's answer (None: not reached); 409: this browser
        #: already sits at the table (one browser, one seat)
        self.status = status


@dataclass(frozen=True)
class ServedTables:
    """What ``mexitrain serve`` told this game of its tables."""

    service: str  # http://HOST:PORT of the serve process, as this machine reaches it
    key: str
    link: str  # http(s)://HOST:PORT as the visitor opened the page
    table: str | None = None  # a /t/CODE page's table
    #: the page's browser, as a digest of its cookie: in a data folder the visitors share, a
    #: seat's token is kept under the browser as well as the table and the name, so another
    #: browser typing the same name does not find it
    browser: str = ""

    @property
    def address(self) -> str:
        """The table protocol's address (a ``ws://`` URI: the serve port's ``/``; the
        browser's digest in its query, which the server ignores: the tokens are kept by
        address)."""
        address = "ws" + self.service.removeprefix("http") + "/"
        return f"{address}?b={self.browser}" if self.browser else address

    def table_link(self, code: str) -> str:
        """The link friends open to sit at ``code``: ``http://HOST:PORT/t/CODE``."""
        return f"{self.link}/t/{code}"

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> ServedTables | None:
        """The service ``mexitrain serve`` named (None: none, or not readable)."""
        text = (os.environ if environ is None else environ).get(ENV)
        if not text or len(text) > 4096:
            return None
        try:
            data = json.loads(text)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        service, key, link = data.get("service"), data.get("key"), data.get("link")
        if not all(isinstance(v, str) and v for v in (service, key)) or not isinstance(link, str):
            return None
        if not service.startswith("http://"):
            return None
        if not link.startswith(("http://", "https://")) or len(link) > MAX_LINK or not link.isprintable():
            link = service  # the page's address unknown: the service's own
        table = data.get("table")
        table = normalise_code(table) if isinstance(table, str) else None
        browser = data.get("browser")
        if not isinstance(browser, str) or not _HEX.match(browser):
            browser = ""
        return cls(service.rstrip("/"), key, link.rstrip("/"), table, browser)


def _call(url: str, key: str, body: dict) -> dict:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode("utf-8"), method="POST",
        headers={KEY_HEADER: key, "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:  # noqa: S310 - our own server
            data = json.loads(answer.read(MAX_ANSWER))
    except urllib.error.HTTPError as exc:
        try:
            data = json.loads(exc.read(MAX_ANSWER))
        except ValueError:
            data = None
        text = data.get("error") if isinstance(data, dict) else None
        if not isinstance(text, str) or not text or text == "setup":
            text = _("The server refused the table ({status}).").format(status=exc.code)
        raise ServedRefusal(text[:300], exc.code) from None
    except (OSError, ValueError):
        raise ServedRefusal(_("The server's tables cannot be reached; try again.")) from None
    if not isinstance(data, dict):
        raise ServedRefusal(_("The server's tables cannot be reached; try again."))
    return data


async def new_table(served: ServedTables, setup: GameSetup) -> tuple[str, str]:
    """Open a table for ``setup`` on the service; (its code, the host's token)."""
    data = await asyncio.to_thread(
        _call, served.service + TABLES_PATH, served.key, {"setup": setup.model_dump(mode="json")}
    )
    code, token = data.get("code"), data.get("host_token")
    if not isinstance(code, str) or normalise_code(code) != code or not isinstance(token, str):
        raise ServedRefusal(_("The server's tables cannot be reached; try again."))
    return code, token


#: The status of a claim refused because this browser already sits at the table.
SEATED = 409


async def claim(served: ServedTables, code: str) -> None:
    """Ask for a seat at ``code`` (refused: no such table, or this browser sits there:
    ``status`` :data:`SEATED`)."""
    await asyncio.to_thread(_call, served.service + CLAIM_PATH, served.key, {"code": code})


__all__ = ["ENV", "SEATED", "ServedRefusal", "ServedTables", "claim", "new_table"]
