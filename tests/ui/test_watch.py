"""Watching a table (issue #35 item 2, the app's side): the one game screen shows the
onlooker's view at 80x24, trains, station and counts, no hand ("Watching" in its place), and
no key that moves works; in French too. The server's side is tests/net/test_watch.py."""

from __future__ import annotations

import pytest
from support.fake_table import NAMES, FakeClient, factory, lobby, my_turn_game
from support.pilot import wait_for

from mexitrain import i18n
from mexitrain.net.protocol import Intent, Onlooker, Rematch, Seen, Watching
from mexitrain.rules import apply, legal_actions, onlooker
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.network_state import TableRequest
from mexitrain.ui.screens import GameScreen
from mexitrain.ui.screens.lobby import LobbyScreen
from mexitrain.ui.widgets import HandTray, StatusLine, TrainRows
from mexitrain.ui.widgets.hub import StationHub

MOVES = ("tile", "target", "train", "place", "draw", "end_turn", "skip", "flip", "hint", "sort", "why")


def seen_by_watcher(game, seq: int = 1) -> Onlooker:
    return Onlooker(seq=seq, view=onlooker(game), names=NAMES, kinds=("person", "person", "computer"))


@pytest.fixture
def french():
    before = i18n.language()
    yield lambda: i18n.set_language("fr")
    i18n.set_language(before)


async def _watching(pilot, app, client, game):
    await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
    client.link("connected")
    client.say(Watching(table="KXMPTR"))
    client.say(lobby(started=False).model_copy(update={"watchers": 2}))
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    client.say(lobby(started=True, open_seat=False))
    client.say(seen_by_watcher(game))
    await wait_for(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.board is not None, "the game screen")


async def test_a_watcher_sees_trains_and_counts_never_a_hand_and_cannot_move():
    client = FakeClient()
    request = TableRequest("127.0.0.1:8765", "KXMPTR", "Zoé", watch=True)
    app = MexitrainApp(None, 0, table=request, client_factory=factory(client))
    game = my_turn_game(0)  # a person's turn: still no move for a watcher
    for _ in range(4):
        game = apply(game, legal_actions(game)[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await _watching(pilot, app, client, game)
        screen = app.screen
        board = screen.board
        assert board.watching and board.view.hand == () and not board.my_turn and board.legal == ()
        assert board.selected is None and board.target is None  # nothing aimed at, nothing scrolled to
        assert board.view.hand_sizes == game.hand_sizes and board.view.trains == game.trains
        tray = screen.query_one(HandTray)
        assert tray.header().startswith("Watching")
        for action in MOVES:
            assert not screen.check_action(action, (0,)), action
        assert not app.check_action("undo", ()) and not app.check_action("hand_over", ())
        shown = {k for k, b in screen.active_bindings.items() if b.binding.show and b.enabled}  # the footer's keys
        assert not shown & {"enter", "d", "m", "g", "f", "o", "n", "u", "left", "up", "c"}
        status = str(screen.query_one(StatusLine).render())
        assert NAMES[game.turn] in status and "Your" not in status  # every seat named, nobody is "you"
        hub = str(screen.query_one(StationHub).render())
        assert all(name in hub for name in NAMES)
        await pilot.press("enter", "d", "m", "n", "left", "1")
        await pilot.pause()
        assert not [m for m in client.sent if isinstance(m, Intent)]
        rows = screen.query_one(TrainRows)
        assert rows.region.height > 0 and rows.display
        text = str(tray.render())
        assert "Watching" in text
        hand = set(game.hands[0]) | set(game.hands[1]) | set(game.hands[2])
        assert not {t for t in hand if f"{t[0]}-{t[1]}" in text}
        # the next moves come as onlooker views too
        later = apply(game, legal_actions(game)[0])
        client.say(seen_by_watcher(later, seq=2))
        await wait_for(pilot, lambda: screen.board.view.events == onlooker(later).events, "the next view")
        assert app.source.can_play_again() is False
        await app.source.seen(1)
        app.source.again()
        await pilot.pause()
        assert not [m for m in client.sent if isinstance(m, Seen | Rematch)]


async def test_a_watcher_in_french(french):
    french()
    client = FakeClient()
    request = TableRequest("127.0.0.1:8765", "KXMPTR", "", watch=True)
    app = MexitrainApp(None, 0, table=request, client_factory=factory(client))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
        client.link("connected")
        client.say(Watching(table="KXMPTR"))
        client.say(lobby(started=False).model_copy(update={"watchers": 2}))
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.pause()
        assert "2 spectateurs" in str(app.screen.query_one("#lobby-rules").render())
        assert "Spectateur" in str(app.screen.query_one("#lobby-wait").render())
        client.say(lobby(started=True, open_seat=False))
        client.say(seen_by_watcher(my_turn_game(0)))
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.board is not None, "the game screen")
        header = app.screen.query_one(HandTray).header()
        assert header.startswith("Spectateur") and "main" in header
        assert app.source.help_note.startswith("Vous regardez")


async def test_the_join_forms_watch_button_watches_the_table_without_a_name():
    from mexitrain.ui.screens import NewGameScreen
    from mexitrain.ui.screens.join import JoinScreen

    client = FakeClient()
    requests: list = []

    def make(request, root):
        requests.append(request)
        return client

    app = MexitrainApp(None, 0, client_factory=make, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "the new-game screen")
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen), "the Join form")
        form = app.screen
        form.query_one("#join-address").value = "10.0.0.5:8765"
        form.query_one("#join-code").value = "kxm ptr"
        form.query_one("#join-name").value = ""
        form.query_one("#join-watch").focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        [request] = requests
        assert (request.address, request.code, request.name, request.watch) == ("10.0.0.5:8765", "KXMPTR", "", True)
        assert app.source.watching


def test_the_watchers_lines_in_both_languages(french):
    from mexitrain.net.protocol import Refused, refusal
    from mexitrain.text.net import error_text, refused_line, refused_text, watching_line

    def lines():
        return (
            error_text("watchers_full", {"limit": 20}),
            refused_text(refusal(Refused(seq=1, code="watching"))),
            refused_line("watchers", "10.0.0.9", 3, {"limit": 20}),
            watching_line(2),
        )

    english = lines()
    assert "20" in english[0] and "watching" in english[1] and "3 watchers refused" in english[2]
    assert english[3] == "Someone watches the table (2 watching)."
    french()
    fr = lines()
    assert "spectateurs" in fr[0] and "spectateur" in fr[1] and "3 spectateurs refusés" in fr[2]
    assert fr[3] == "Quelqu'un regarde la table (2 spectateurs)."


async def test_watching_a_real_table_to_its_end(tmp_path):
    """Over a real socket: the app watches a table of two computer players from the lobby to
    the final standings; the game does not wait for it to read a round's results, and no Play
    again is offered."""
    from mexitrain.game_setup import GameSetup, SeatConfig
    from mexitrain.net.server import TableServer
    from mexitrain.rules import RuleSet
    from mexitrain.ui.screens import GameOverScreen, RoundOverScreen

    setup = GameSetup(
        rules=RuleSet(set=6, rounds=2), seed=5,
        seats=(SeatConfig(name="Cal", kind="random"), SeatConfig(name="Dee", kind="random")),
    )
    server = TableServer(setup, data_dir=tmp_path / "server", open_seats=(), host_seat=None, pace=0.02)
    await server.start("127.0.0.1", 0)
    try:
        request = TableRequest(f"127.0.0.1:{server.port}", server.code, "", watch=True)
        app = MexitrainApp(None, 0, data_dir=tmp_path / "client", table=request)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.source.state.connected, "the lobby", seconds=20)
            await wait_for(pilot, lambda: server.lobby().watchers == 1, "counted as a watcher")
            server.start_game("random")
            await wait_for(pilot, lambda: app.game_screen is not None and app.game_screen.board is not None, "the board", seconds=20)
            board = app.game_screen.board
            assert board.watching and board.view.hand == () and board.names == ("Cal", "Dee")
            # the table never waits for the watcher to read the results: the game ends meanwhile
            await wait_for(pilot, lambda: server.state.over, "the game's end", seconds=30)
            for _ in range(4):
                await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen | RoundOverScreen), "the results", seconds=20)
                if isinstance(app.screen, GameOverScreen):
                    break
                await pilot.press("enter")  # the watcher reads round 1's results: nothing is sent
            assert isinstance(app.screen, GameOverScreen) and not app.screen.again
            assert not (tmp_path / "client" / "tokens").exists()  # a watcher keeps no token
            assert server.state.over and len(server.state.results) == 2
    finally:
        await server.stop()
