"""The lobby and the forms that lead to a table (ui/screens/lobby.py, ui/screens/join.py),
from the Pilot: the host's level and Start, a guest without them, the Join form's checks and
its way to the table, the Host form's port and setup."""

from __future__ import annotations

from support.fake_table import FakeClient, lobby, welcome
from support.pilot import wait_for

from mexitrain.net.protocol import StartGame
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.network_state import TableRequest
from mexitrain.ui.screens import NewGameScreen
from mexitrain.ui.screens.join import HostScreen, HostSetupScreen, JoinScreen
from mexitrain.ui.screens.lobby import LobbyScreen


def recording_app(client: FakeClient, requests: list, **kwargs) -> MexitrainApp:
    def make(request, root):
        requests.append(request)
        return client

    return MexitrainApp(None, 0, client_factory=make, **kwargs)


async def _lobby(pilot, client, **kw) -> LobbyScreen:
    await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
    client.link("connected")
    client.say(welcome(**kw))
    client.say(lobby())
    await pilot.pause()
    return pilot.app.screen


async def test_the_host_chooses_the_level_then_starts():
    client = FakeClient()
    app = recording_app(client, [], table=TableRequest("127.0.0.1:1", "KXMPTR", "Ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _lobby(pilot, client, seat=0, host=True)
        assert isinstance(screen, LobbyScreen)
        assert screen.check_action("start", ()) is True and screen.query_one("#lobby-host").display
        await pilot.press("l")  # planner -> expert
        await pilot.pause()
        assert screen.level == "expert" and app.source.state.level == "expert"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: client.sent, "StartGame sent")
        # the table's own timer (none) and rematch choice, as its lobby said them
        assert client.sent == [StartGame(level="expert", turn_time=0, absent="computer")]


async def test_the_host_sets_the_turn_timer_and_who_leaves_in_the_lobby():
    from textual.widgets import Select

    client = FakeClient()
    app = recording_app(client, [], table=TableRequest("127.0.0.1:1", "KXMPTR", "Ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
        client.link("connected")
        client.say(welcome(seat=0, host=True))
        told = lobby().model_copy(update={"turn_time": 45, "absent": "wait"})  # mexitrain host --turn-time 45
        client.say(told)
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.lobby is not None, "the lobby")
        screen = app.screen
        timer, absent = screen.query_one("#lobby-timer", Select), screen.query_one("#lobby-absent", Select)
        assert timer.value == 45 and absent.value == "wait"  # the table's own, offered first
        assert screen.query_one("#lobby-pace").display and screen.query_one("#lobby-absent-row").display
        timer.value = 120
        absent.value = "computer"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: client.sent, "StartGame sent")
        assert client.sent == [StartGame(level="planner", turn_time=120, absent="computer")]


async def test_a_guest_has_no_timer_nor_who_leaves_to_set():
    client = FakeClient()
    app = recording_app(client, [], table=TableRequest("127.0.0.1:1", "KXMPTR", "Bea"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _lobby(pilot, client, seat=1, host=False)
        assert not screen.query_one("#lobby-pace").display and not screen.query_one("#lobby-absent-row").display


async def test_start_is_dimmed_while_the_link_is_down():
    client = FakeClient()
    app = recording_app(client, [], table=TableRequest("127.0.0.1:1", "KXMPTR", "Ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _lobby(pilot, client, seat=0, host=True)
        client.link("retrying", attempt=1, retry_in=1.0, error="lost")
        await pilot.pause()
        assert screen.check_action("start", ()) is None  # in the footer, dimmed
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert client.sent == []


async def test_a_guest_has_no_start_and_no_level():
    client = FakeClient()
    app = recording_app(client, [], table=TableRequest("127.0.0.1:1", "KXMPTR", "Bea"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _lobby(pilot, client, seat=1, host=False)
        assert screen.check_action("start", ()) is False and screen.check_action("level", ()) is False
        assert not screen.query_one("#lobby-host").display
        assert "Waiting for the host" in str(screen.query_one("#lobby-wait").render())
        await pilot.press("ctrl+s", "l")
        await pilot.pause()
        assert client.sent == []


async def test_names_in_the_lobby_are_plain_text():
    from support.fake_table import RULES

    from mexitrain.net.protocol import Lobby, LobbySeat

    client = FakeClient()
    app = recording_app(client, [], table=TableRequest("127.0.0.1:1", "KXMPTR", "Ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _lobby(pilot, client, seat=0, host=True)
        client.say(Lobby(seats=(LobbySeat(seat=0, name="[b]Ann[/b]", kind="person", connected=True),
                                LobbySeat(seat=1, name="[@click=app.quit]x", kind="person")), rules=RULES, started=False))
        await pilot.pause()
        text = str(screen.query_one("#lobby-seats").render())
        assert "[b]Ann[/b]" in text and "[@click=app.quit]x" in text


async def test_join_form_checks_then_goes_to_the_table():
    client = FakeClient()
    requests: list = []
    app = recording_app(client, requests, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the new-game screen")
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen), "the Join form")
        form = app.screen
        form.query_one("#join-address").value = "10.0.0.5"
        form.query_one("#join-code").value = "kxm ptr"
        form.query_one("#join-name").value = "Bea"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "HOST:PORT" in str(form.query_one("#join-problem").render())
        form.query_one("#join-address").value = "10.0.0.5:8765"
        form.query_one("#join-code").value = "KXMPT"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "6 letters" in str(form.query_one("#join-problem").render())
        form.query_one("#join-code").value = "kxm ptr"
        form.query_one("#join-name").value = "   "
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "name" in str(form.query_one("#join-problem").render())
        assert requests == []
        form.query_one("#join-name").value = "Bea"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        [request] = requests
        assert (request.address, request.code, request.name, request.host_token) == ("10.0.0.5:8765", "KXMPTR", "Bea", None)
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")


async def test_a_link_pasted_as_the_address_gives_the_address_and_the_code():
    """The table's link (mexitrain serve's page, http://HOST:PORT/t/CODE) pasted in the
    address field: the address becomes HOST:PORT and the code field is filled in."""
    client = FakeClient()
    requests: list = []
    app = recording_app(client, requests, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen), "the Join form")
        form = app.screen
        form.query_one("#join-address").value = "http://10.0.0.5:8000/t/kxmptr"
        await wait_for(pilot, lambda: form.query_one("#join-address").value == "10.0.0.5:8000", "the address")
        assert form.query_one("#join-code").value == "kxmptr"
        form.query_one("#join-name").value = "Bea"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: requests, "the request")
        assert (requests[0].address, requests[0].code) == ("10.0.0.5:8000", "KXMPTR")


async def test_join_form_escape_goes_back():
    app = MexitrainApp(None, 0, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen), "the Join form")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "back to the form")
        assert app.local is not None


async def test_host_form_port_then_setup():
    app = MexitrainApp(None, 0, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(app.screen, HostScreen), "the Host form")
        port = app.screen.query_one("#host-port")
        port.value = "80"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "1024" in str(app.screen.query_one("#host-problem").render())
        port.value = "0"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), "the table's setup")
        # no "Play together" row (not even hidden) and the long title wraps, never cut:
        # the first field follows the title's one blank line, and nothing is wider than the form
        form = app.screen
        assert not form.query("#row-net")
        assert not form.query_one("#undo_with_several").display  # a table has no undo
        title = form.query_one("#form-title")
        await wait_for(pilot, lambda: title.region.height == 2, "the title on two lines at 80 columns")
        assert form.query_one("#row-preset").region.y == title.region.bottom + 1
        assert form.query_one("#form").virtual_size.width <= 80
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen) is NewGameScreen, "back to the form")


async def test_the_lobby_says_the_rules_a_guest_would_not_expect():
    """Before the game starts, a guest reads how this table's rules differ from the standard
    game (they said only players, set and rounds; a blanks-wild table looked standard)."""
    from support.fake_table import RULES

    client = FakeClient()
    app = recording_app(client, [], table=TableRequest("127.0.0.1:1", "KXMPTR", "Bea"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _lobby(pilot, client, seat=1, host=False)
        assert str(screen.query_one("#lobby-rules").render()).splitlines() == ["3 players · double-6 · 5 tiles each · 1 round"]
        house = RULES.model_copy(update={"blanks_wild": True, "double_follow_up": "must_satisfy", "hand_size": 6})
        client.say(lobby().model_copy(update={"rules": house}))
        await pilot.pause()
        assert str(screen.query_one("#lobby-rules").render()).splitlines() == [
            "3 players · double-6 · 6 tiles each · 1 round",
            "• after a double, the next tile must go on that double",
            "• blanks are wild: a blank matches any value",
        ]
        # a lobby whose seats its rules cannot deal (teams of 3) is refused before the screen
        client.say(lobby().model_copy(update={"rules": RULES.model_copy(update={"teams": True})}))
        await pilot.pause()
        assert str(screen.query_one("#lobby-rules").render()).splitlines()[0] == "3 players · double-6 · 6 tiles each · 1 round"
