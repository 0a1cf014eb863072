"""The relay between a table's client and the app (mexitrain/ui/table_link.py): at most one
game update waits for the app, a newer one takes its place, and every other message keeps its
order; a flood of updates from a host costs a guest one draw, not one a message
(docs/threat-model/guest.md)."""

from __future__ import annotations

from support.fake_table import FakeClient, factory, lobby, my_turn_game, update, welcome
from support.pilot import wait_for

from mexitrain.net.protocol import Chat, ChatLine, Error, Onlooker
from mexitrain.rules import onlooker
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.network import NetworkTable
from mexitrain.ui.network_state import TableRequest
from mexitrain.ui.screens import GameScreen
from mexitrain.ui.table_link import Relay, ServerSaid, UpdateWaiting


def _relay() -> tuple[Relay, list]:
    posted: list = []
    return Relay(client=None, post=posted.append), posted


def test_a_newer_update_takes_the_place_of_the_one_waiting():
    relay, posted = _relay()
    game = my_turn_game(0)
    first, second, third = (update(game, seq=n) for n in (1, 2, 3))
    relay.said(first)
    relay.said(second)
    relay.said(third)
    assert [type(m) for m in posted] == [UpdateWaiting]  # one call to the app for the three
    assert relay.take() is third and relay.take() is None
    assert relay.replaced == 2
    relay.said(update(game, seq=4))  # taken: the next one is announced again
    assert [type(m) for m in posted] == [UpdateWaiting, UpdateWaiting]


def test_other_messages_pass_in_order_and_are_never_replaced():
    relay, posted = _relay()
    game = my_turn_game(0)
    chat = Chat(lines=(ChatLine(n=1, seat=1, name="Bea", text="hi"),))
    for msg in (welcome(), lobby(), chat, Error(code="flood", fatal=False)):
        relay.said(msg)
    relay.said(update(game, seq=1))
    relay.said(lobby(started=True))
    assert [type(m).__name__ for m in posted] == [
        "ServerSaid", "ServerSaid", "ServerSaid", "ServerSaid", "UpdateWaiting", "ServerSaid"
    ]
    assert [type(m.msg).__name__ for m in posted if isinstance(m, ServerSaid)] == [
        "Welcome", "Lobby", "Chat", "Error", "Lobby"
    ]


def test_the_turn_timer_s_word_is_kept_when_its_update_is_replaced():
    relay, _ = _relay()
    game = my_turn_game(0)
    relay.said(update(game, seq=5).model_copy(update={"timed": 1}))
    relay.said(update(game, seq=6))
    taken = relay.take()
    assert taken.seq == 6 and taken.timed == 1


def test_a_watcher_s_view_is_coalesced_too():
    relay, posted = _relay()
    game = my_turn_game(0)
    looks = [
        Onlooker(seq=n, view=onlooker(game), names=("Ann", "Bea", "Cal"), kinds=("person", "person", "computer"))
        for n in (1, 2)
    ]
    relay.said(looks[0])
    relay.said(looks[1])
    assert len(posted) == 1 and relay.take() is looks[1]


async def test_a_flood_of_updates_is_drawn_once_not_once_a_message(monkeypatch):
    client = FakeClient()
    request = TableRequest("127.0.0.1:8765", "KXMPTR", "Ann")
    app = MexitrainApp(None, 0, table=request, client_factory=factory(client))
    taken: list[int] = []
    real = NetworkTable._take_update

    async def counting(self, msg):
        taken.append(msg.seq)
        await real(self, msg)

    monkeypatch.setattr(NetworkTable, "_take_update", counting)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
        client.link("connected")
        client.say(welcome())
        client.say(lobby(started=True, open_seat=False))
        game = my_turn_game(0)
        for seq in range(1, 301):  # 300 updates at once, faster than any screen
            client.say(update(game, seq=seq))
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        await wait_for(pilot, lambda: app.source.state.update is not None and app.source.state.update.seq == 300, "the last")
        assert taken == [300]  # the 299 before it were replaced while waiting
