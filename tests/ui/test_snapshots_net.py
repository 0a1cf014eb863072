"""Snapshots of the screens of a table on the network at 80x24, in English and French: the
host's lobby, a guest's lobby while the link is retrying, the Join and Host forms, the game
at a table with a seat whose player is away. A stand-in client (support.fake_table) says what
the server says; the clocks are stopped. Update with ``--snapshot-update`` after looking at
every changed picture."""

from __future__ import annotations

import pytest
from support.fake_table import FakeClient, factory, lobby, my_turn_game, update, welcome
from support.pilot import wait_for

from mexitrain import i18n
from mexitrain.net.protocol import Away
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.network_state import TableRequest
from mexitrain.ui.screens import GameScreen
from mexitrain.ui.screens.join import HostScreen, JoinScreen

SIZE = (80, 24)
LANGS = [pytest.param("en", id="en"), pytest.param("fr", id="fr")]


@pytest.fixture(autouse=True)
def _language_back(monkeypatch):
    import getpass

    monkeypatch.setattr(getpass, "getuser", lambda: "ann")  # the Join form's default name
    before = i18n.language()
    yield
    i18n.set_language(before)


def table_app(client: FakeClient, lang: str) -> MexitrainApp:
    i18n.set_language(lang)
    request = TableRequest(
        "127.0.0.1:8765", "KXMPTR", "Ann",
        join_line=__import__("mexitrain.text.net", fromlist=["join_line"]).join_line("192.168.1.20:8765", "KXMPTR"),
    )
    return MexitrainApp(None, 0, table=request, client_factory=factory(client), clock=lambda: 1000.0)


def quiet(pilot) -> None:
    pilot.app.clear_notifications()


@pytest.mark.parametrize("lang", LANGS)
def test_host_lobby(snap_compare, lang):
    client = FakeClient()

    async def run_before(pilot):
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
        client.link("connected")
        client.say(welcome(seat=0, host=True))
        client.say(lobby())
        await pilot.pause()
        quiet(pilot)

    assert snap_compare(table_app(client, lang), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_guest_lobby_while_the_link_is_retrying(snap_compare, lang):
    client = FakeClient()

    async def run_before(pilot):
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
        client.link("connected")
        client.say(welcome(seat=1, host=False))
        client.say(lobby(open_seat=False))
        client.link("retrying", attempt=3, retry_in=4.0, error="lost")
        await pilot.pause()
        quiet(pilot)

    assert snap_compare(table_app(client, lang), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_game_at_a_table_with_a_player_away(snap_compare, lang):
    client = FakeClient()
    game = my_turn_game(0)

    async def run_before(pilot):
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
        client.link("connected")
        client.say(welcome(seat=0, host=True))
        client.say(lobby(started=True, open_seat=False))
        client.say(update(game, seat=0, away=(Away(seat=1, name="Bea", seconds=42),)))
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, GameScreen), "the game")
        await pilot.pause()
        quiet(pilot)

    assert snap_compare(table_app(client, lang), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_join_form(snap_compare, lang):
    async def run_before(pilot):
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, JoinScreen), "the Join form")
        await pilot.press(*"nowhere", "tab")
        await pilot.press("ctrl+s")  # a bad address: said on the form
        await pilot.pause()

    i18n.set_language(lang)
    assert snap_compare(MexitrainApp(None, 0, seed=12345), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_host_form(snap_compare, lang):
    async def run_before(pilot):
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HostScreen), "the Host form")
        await pilot.pause()

    i18n.set_language(lang)
    assert snap_compare(MexitrainApp(None, 0, seed=12345), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_host_setup_form(snap_compare, lang):
    """Host a table's second step: the new-game form with Open ▶, no "Play together" row, the
    long title wrapped onto two lines (never cut)."""
    from mexitrain.ui.screens.join import HostSetupScreen

    async def run_before(pilot):
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HostScreen), "the Host form")
        await pilot.press("ctrl+s")  # the default port
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HostSetupScreen), "the table's setup")
        await pilot.pause()

    i18n.set_language(lang)
    assert snap_compare(MexitrainApp(None, 0, seed=12345), terminal_size=SIZE, run_before=run_before)
