"""A table's address as a person types it (``HOST:PORT``), checked before anything connects.

Plain Python (no Textual): ``mexitrain join`` checks its argument with it before the screens
open, the Join form checks what is typed.
"""

from __future__ import annotations

import re
import socket

#: A host name or an IPv4 address (letters, digits, dots, dashes), or an IPv6 address in brackets.
_HOST = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*\.?|\[[0-9A-Fa-f:.]{2,45}\])$")
#: The longest address accepted (a host name is at most 253 characters, a port 5 digits).
ADDRESS_MAX = 260


def split_address(text: str) -> tuple[str, int] | None:
    """``"192.168.1.5:8765"`` -> ``("192.168.1.5", 8765)``; ``"[::1]:80"`` -> ``("::1", 80)``;
    None when ``text`` is not ``HOST:PORT`` with a port from 1 to 65535.

    >>> split_address("example.org:8765")
    ('example.org', 8765)
    >>> split_address("example.org") is None, split_address("a b:1") is None, split_address("h:0") is None
    (True, True, True)
    """
    if not isinstance(text, str) or len(text) > ADDRESS_MAX:
        return None
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isascii() or not port.isdigit() or len(port) > 5:
        return None
    number = int(port)
    if not 1 <= number <= 65535 or not _HOST.match(host):
        return None
    return host.strip("[]"), number


#: A table's link as the served page shows it: ``http(s)://HOST[:PORT]/t/CODE`` (a slash, a
#: query or a fragment after it are ignored).
_LINK = re.compile(r"^(https?)://([^/?#\s]{1,260})/t/([A-Za-z -]{1,32})/?(?:[?#][^\s]*)?$", re.IGNORECASE)
#: A table behind TLS, as :func:`split_link` gives it: the WebSocket URI of its site.
_SECURE = re.compile(r"^wss://([^/?#\s]{1,260})/$", re.IGNORECASE)


def split_link(text: str) -> tuple[str, str] | None:
    """A table's link (``http://HOST:PORT/t/CODE``, the page of ``mexitrain serve``) ->
    (``"HOST:PORT"``, ``"CODE"``) to join it at a terminal (the port 80 when the link has
    none); an ``https://`` link (a server behind a TLS proxy) -> (``"wss://HOST:PORT/"``,
    ``"CODE"``), its site's WebSocket over TLS (port 443 by default). None when ``text`` is
    not such a link. The code is as written: the caller checks it
    (:func:`mexitrain.net.protocol.normalise_code`).

    >>> split_link("http://192.168.1.20:8000/t/KXMPTR")
    ('192.168.1.20:8000', 'KXMPTR')
    >>> split_link("http://example.org/t/kxmptr/")
    ('example.org:80', 'kxmptr')
    >>> split_link("https://dominoes.example.org/t/KXMPTR")
    ('wss://dominoes.example.org:443/', 'KXMPTR')
    >>> split_link("192.168.1.20:8000") is None, split_link("ftp://example.org/t/KXMPTR") is None
    (True, True)
    """
    if not isinstance(text, str) or len(text) > ADDRESS_MAX + 40:
        return None
    match = _LINK.match(text.strip())
    if match is None:
        return None
    scheme, where, code = match.groups()
    secure = scheme.lower() == "https"
    address = where if split_address(where) is not None else f"{where}:{443 if secure else 80}"
    if split_address(address) is None:
        return None
    return (f"wss://{address}/" if secure else address), code


def table_address(text: str) -> tuple[str, int] | None:
    """(host, port) of a table's address: ``HOST:PORT`` (:func:`split_address`), or a table
    behind TLS as :func:`split_link` gives it (``wss://HOST:PORT/``); None otherwise.

    >>> table_address("example.org:8765"), table_address("wss://example.org:443/")
    (('example.org', 8765), ('example.org', 443))
    >>> table_address("wss://example.org/") is None, table_address("ws://example.org:80/") is None
    (True, True)
    """
    if not isinstance(text, str):
        return None
    match = _SECURE.match(text.strip())
    return split_address(match[1] if match else text)


def address_text(host: str, port: int) -> str:
    """The address as a person types it (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def lan_address() -> str:
    """This computer's address on its local network, as others would reach it (the address
    the system would send from; nothing is sent), or 127.0.0.1 when there is none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, never sent to
            return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
