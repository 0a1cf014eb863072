"""A table behind TLS (docs/browser.md, behind a TLS proxy): ``mexitrain join https://…`` joins
it over ``wss://``. Here a TLS proxy of the test's own, with a certificate it makes, stands in
front of a table; two terminal clients reach it through the proxy and play the game out."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import ssl
import subprocess

import pytest
from support.net import FAST, served, table, until

from mexitrain.net.bot import play_bot
from mexitrain.ui.address import split_link

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="makes its certificate with openssl")


def _certificate(folder):
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    return cert, key


@contextlib.asynccontextmanager
async def tls_proxy(cert, key, port: int):
    """TLS on a port of 127.0.0.1, passed on in plain to ``port`` (as Caddy or nginx would)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    async def pipe(reader, writer):
        with contextlib.suppress(ConnectionError, OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        with contextlib.suppress(Exception):
            writer.close()

    async def handle(reader, writer):
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    proxy = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=context)
    try:
        yield proxy.sockets[0].getsockname()[1]
    finally:
        proxy.close()


async def test_an_https_link_is_joined_over_tls_and_played(tmp_path, monkeypatch):
    cert, key = _certificate(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the clients trust the test's certificate
    async with served(table(2, 2, seed=3, hand_size="5"), tmp_path / "data") as server, \
            tls_proxy(cert, key, server.port) as port:
        address, code = split_link(f"https://localhost:{port}/t/{server.code}")
        assert address == f"wss://localhost:{port}/"
        results = await asyncio.wait_for(
            asyncio.gather(*(play_bot(address, code, f"P{i}", seed=i, backoff=FAST) for i in range(2))), 60
        )
    for bot in results:
        assert bot.error is None and bot.last is not None and bot.last.view.phase == "game_over"


async def test_a_certificate_the_client_does_not_trust_is_said_and_nothing_is_sent(tmp_path):
    """Without trust in the certificate the client sends nothing (no Hello: no seat taken) and
    says why, in its own words, while it tries again."""
    from mexitrain.net.bot import BotResult
    from mexitrain.text.net import error_text

    cert, key = _certificate(tmp_path)  # not trusted: SSL_CERT_FILE is not set
    async with served(table(2, 2, seed=3, hand_size="5"), tmp_path / "data") as server, \
            tls_proxy(cert, key, server.port) as port:
        result = BotResult()
        task = asyncio.ensure_future(
            play_bot(f"wss://localhost:{port}/", server.code, "P0", backoff=FAST, result=result)
        )
        try:
            await until(lambda: any(s.state == "retrying" for s in result.statuses))
            retrying = next(s for s in result.statuses if s.state == "retrying")
            assert retrying.error == "untrusted_certificate"
            assert "certificate" in error_text(retrying.error)
            assert result.messages == [] and not task.done()
            assert all(s.kind == "open" for s in server.game.seats)  # nobody sat
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
