"""Chat at a network table on screen (issue #35 item 4; the server's side is
tests/net/test_chat.py): w writes a line that reaches the other seat, the lines show under
the move log and in the lobby as plain text, v mutes the others' lines, r sends a quick
reaction, Ctrl+X lets the host remove a person after a confirmation; none of these keys exist
in a local game."""

from __future__ import annotations

import asyncio
import contextlib

import websockets
from support.fake_table import FakeClient, factory, lobby, my_turn_game, update, welcome
from support.pilot import wait_for

from mexitrain.game_setup import GameSetup, SeatConfig
from mexitrain.net.protocol import Chat, ChatLine, Error, Hello, Remove, Say, decode_server, encode
from mexitrain.net.server import TableServer
from mexitrain.rules import RuleSet
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.network_state import TableRequest
from mexitrain.ui.screens import GameScreen
from mexitrain.ui.screens.chat import (
    ChatInputScreen,
    ConfirmRemoveScreen,
    ReactionScreen,
    RemoveScreen,
)
from mexitrain.ui.screens.lobby import LobbyScreen
from mexitrain.ui.textual_compat import notices
from mexitrain.ui.widgets.chat import ChatLines


def app_at_table(client: FakeClient) -> MexitrainApp:
    request = TableRequest("127.0.0.1:8765", "KXMPTR", "Ann")
    return MexitrainApp(None, 0, table=request, client_factory=factory(client))


def shown(app, selector: str = "#chat-strip") -> str:
    strip = app.screen.query_one(selector, ChatLines)
    return str(strip.render()) if strip.display else ""


def line(n: int, seat: int, name: str, text: str | None = None, reaction: str | None = None) -> Chat:
    return Chat(lines=(ChatLine(n=n, seat=seat, name=name, text=text, reaction=reaction),))


async def at_game(pilot, app, client) -> None:
    await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
    client.link("connected")
    client.say(welcome())
    client.say(lobby(started=True, open_seat=False))
    client.say(update(my_turn_game(0)))
    await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")


async def in_the_lobby_as_a_guest(pilot, client) -> None:
    """The client's link up, a guest's welcome at seat 1 and a lobby with no open seat."""
    await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
    client.link("connected")
    client.say(welcome(seat=1, host=False))
    client.say(lobby(open_seat=False))


async def test_typing_a_line_at_a_table_shows_it_on_the_other_seat_over_a_real_table(tmp_path):
    setup = GameSetup(
        rules=RuleSet(set=6, rounds=1), seed=7,
        seats=(SeatConfig(name="Ann", kind="human"), SeatConfig(name="Bea", kind="human")),
    )
    server = TableServer(setup, data_dir=tmp_path / "server", open_seats=(1,), host_seat=0)
    await server.start("127.0.0.1", 0)
    bea: list = []
    ws = None
    try:
        request = TableRequest(f"127.0.0.1:{server.port}", server.code, "Ann", host_token=server.host_token)
        app = MexitrainApp(None, 0, data_dir=tmp_path / "client", table=request)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.source.state.connected, "the lobby", seconds=20)
            # Bea sits at the other seat (a client of her own)
            ws = await websockets.connect(f"ws://127.0.0.1:{server.port}/")
            await ws.send(encode(Hello(code=server.code, name="Bea")))

            async def read():
                with contextlib.suppress(websockets.ConnectionClosed):
                    async for text in ws:
                        bea.append(decode_server(text))

            reader = asyncio.create_task(read())
            await pilot.press("w")
            await wait_for(pilot, lambda: isinstance(app.screen, ChatInputScreen), "the chat's input")
            await pilot.press(*"hi [bold]Bea[/]")
            await pilot.press("enter")
            await wait_for(pilot, lambda: any(isinstance(m, Chat) for m in bea), "Bea gets the line", seconds=20)
            (said,) = [ln for m in bea if isinstance(m, Chat) for ln in m.lines]
            assert (said.seat, said.name, said.text) == (0, "Ann", "hi [bold]Bea[/]")
            # Ann's lobby shows her own line, as it came back from the table, as plain text
            await wait_for(pilot, lambda: "hi [bold]Bea[/]" in shown(app, "#lobby-chat"), "the lobby's chat")
            # Bea answers: on Ann's screen
            await ws.send(encode(Say(seq=1, text="hello\x1b[2J Ann")))
            await wait_for(pilot, lambda: "Bea: hello[2J Ann" in shown(app, "#lobby-chat"), "Bea's line on Ann's screen", seconds=20)
            reader.cancel()
    finally:
        if ws is not None:
            await ws.close()
        await server.stop()


async def test_lines_show_under_the_move_log_as_plain_text_and_mute_hides_the_others():
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_game(pilot, app, client)
        hostile = "[bold]x[/bold] \x1b[2J " + "漢" * 60
        client.say(line(1, 1, "Bea", hostile))
        await wait_for(pilot, lambda: "Bea" in shown(app), "the strip")
        strip = app.screen.query_one("#chat-strip", ChatLines)
        text = shown(app)
        assert "[bold]x[/bold]" in text and "\x1b" not in text and "␛[2J" in text
        assert all(len(row) <= strip.size.width for row in text.splitlines())  # cut to its width...
        from mexitrain.text.names import cells
        assert all(cells(row) <= strip.size.width for row in text.splitlines())  # ...in cells
        client.say(line(2, 0, "Ann", "mine"))
        client.say(line(3, 2, "Cal", reaction="nice"))
        await wait_for(pilot, lambda: "Cal ✦ nice!" in shown(app), "a reaction in words")
        await pilot.press("v")
        await wait_for(pilot, lambda: "Bea" not in shown(app), "muted")
        assert "Ann: mine" in shown(app) and "Cal" not in shown(app) and "muted" in shown(app)
        muted = [n for n in notices(app) if "muted" in str(n.message).lower()]
        assert len(muted) == 1  # said once
        client.say(line(4, 1, "Bea", "still there?"))
        await pilot.pause()
        assert "still there" not in shown(app)
        await pilot.press("v")
        await wait_for(pilot, lambda: "still there?" in shown(app), "unmuted")


async def test_w_sends_a_say_r_a_reaction_and_escape_cancels():
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_game(pilot, app, client)
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatInputScreen), "the input")
        await pilot.press(*"nope", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "cancelled")
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatInputScreen), "the input")
        await pilot.press(*"good luck", "enter")
        await wait_for(pilot, lambda: any(isinstance(m, Say) for m in client.sent), "sent")
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ReactionScreen), "the reactions")
        await pilot.press("2")
        await wait_for(pilot, lambda: sum(isinstance(m, Say) for m in client.sent) == 2, "the reaction sent")
        says = [m for m in client.sent if isinstance(m, Say)]
        assert [(m.text, m.reaction) for m in says] == [("good luck", None), (None, "oops")]
        assert isinstance(app.screen, GameScreen)


async def test_the_host_removes_a_person_after_choosing_and_confirming():
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_game(pilot, app, client)
        assert app.check_action("remove_player", ()) is True
        await pilot.press("ctrl+x")
        await wait_for(pilot, lambda: isinstance(app.screen, RemoveScreen), "whom to remove")
        await pilot.press("1")  # Bea, the only other person
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmRemoveScreen), "the confirmation")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "kept")
        assert not any(isinstance(m, Remove) for m in client.sent)
        await pilot.press("ctrl+x", "1")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmRemoveScreen), "the confirmation")
        await pilot.press("y")
        await wait_for(pilot, lambda: any(isinstance(m, Remove) for m in client.sent), "removed")
        assert [m.seat for m in client.sent if isinstance(m, Remove)] == [1]


async def test_a_removed_person_is_told_in_one_line():
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_game(pilot, app, client)
        client.say(Error(code="removed", fatal=True))
        await wait_for(pilot, lambda: "The host removed you from the table." in (app.source.state.fatal or ""), "told")
        assert app.check_action("chat_say", ()) is None  # nothing to say to a table we left


async def test_not_the_host_no_remove_and_a_host_without_a_seat_does_not_chat():
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await in_the_lobby_as_a_guest(pilot, client)
        await pilot.pause()
        assert app.check_action("remove_player", ()) is False
        assert app.check_action("chat_say", ()) is True
        client.say(welcome(seat=None, host=True))
        await pilot.pause()
        assert app.check_action("chat_say", ()) is False and app.check_action("chat_mute", ()) is True


async def test_the_chat_keys_do_not_exist_in_a_local_game():
    setup = GameSetup(
        rules=RuleSet(set=6, rounds=1), seed=7,
        seats=(SeatConfig(name="Ann", kind="human"), SeatConfig(name="Cal", kind="random")),
    )
    app = MexitrainApp(setup, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "a local game")
        for action in ("chat_say", "chat_react", "chat_mute", "remove_player"):
            assert app.check_action(action, ()) is False
        assert not app.screen.query("#chat-strip")
        await pilot.press("w", "r", "v", "ctrl+x")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_the_replay_of_a_finished_table_game_shows_its_chat(tmp_path):
    """The chat is kept beside a finished table's game in saves/ (tests/net/test_chat.py); the
    replay viewer's c shows it, as plain text; a game without one has no c."""
    import shutil
    from pathlib import Path

    from textual.app import App

    from mexitrain.net.files import chat_beside, write_chat
    from mexitrain.storage import load_save
    from mexitrain.ui.resources import stylesheet_path
    from mexitrain.ui.screens.chat import ChatLogScreen
    from mexitrain.ui.screens.replay import ReplayScreen

    records = Path(__file__).resolve().parent.parent / "fixtures" / "records"
    path = tmp_path / "table-KXMPTR-20261205-070000.json"
    shutil.copy(records / "set6-2p.json", path)
    write_chat(chat_beside(path), [
        ChatLine(n=1, seat=0, name="Ann", text="[bold]gl[/bold]"),
        ChatLine(n=2, seat=1, name="Bea", reaction="good_game"),
    ])
    game = load_save(path)

    class Viewer(App[None]):
        CSS_PATH = str(stylesheet_path())

        def __init__(self, screen) -> None:
            super().__init__()
            self._first = screen

        def on_mount(self) -> None:
            self.push_screen(self._first)

    app = Viewer(ReplayScreen(game))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        assert app.screen.check_action("chat", ()) is True
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatLogScreen), "the chat")
        text = str(app.screen.query_one("#chat-log").render())
        assert "Ann: [bold]gl[/bold]" in text and "Bea ✦ good game!" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "back")
    chat_beside(path).unlink()
    assert ReplayScreen(load_save(path)).check_action("chat", ()) is False


async def test_the_help_at_a_table_lists_the_chat_keys_and_a_reaction_reads_in_french():
    from mexitrain.i18n import language, set_language
    from mexitrain.ui.screens.help import HelpScreen

    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_game(pilot, app, client)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        text = " ".join(str(w.render()) for w in app.screen.query("Static, Label"))
        assert "w writes a line" in text and "v mutes" in text and "Ctrl+X" in text
    before = language()
    set_language("fr")
    try:
        client = FakeClient()
        app = app_at_table(client)
        async with app.run_test(size=(80, 24)) as pilot:
            await at_game(pilot, app, client)
            client.say(line(1, 1, "Bea", reaction="knock"))
            await wait_for(pilot, lambda: "Bea ✦ toc toc" in shown(app), "the reaction in French")
    finally:
        set_language(before)


async def test_a_person_removed_in_the_lobby_no_longer_sees_a_seat_there():
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await in_the_lobby_as_a_guest(pilot, client)
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.lobby is not None, "the lobby")
        screen = app.screen
        assert screen.query_one("#lobby-seats").display and "· you" in str(screen.query_one("#lobby-seats").render())
        client.say(Error(code="removed", fatal=True))
        client.link("closed")
        await wait_for(pilot, lambda: screen.over, "the link ended")
        await pilot.pause()
        assert not screen.query_one("#lobby-seats").display  # the last seats are not the table's any more
        assert not screen.query_one("#lobby-seats-title").display
        assert "no longer at this table" in str(screen.query_one("#lobby-wait").render())
        assert "The host removed you from the table." in screen.link_text
        await pilot.press("q")  # q leaves at once: nothing is left to keep
        await wait_for(pilot, lambda: not app.is_running, "left the table")
