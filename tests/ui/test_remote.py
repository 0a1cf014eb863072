"""The app at a table on the network (mexitrain/ui/remote.py, its Table state and screens) against a stand-in client:
the lobby, the game fed by the server's views, intents sent, refusals and away seats shown."""

from __future__ import annotations

from support.fake_table import FakeClient, factory, lobby, my_turn_game, state, update, welcome
from support.pilot import wait_for

from mexitrain.net.protocol import Away, Intent, Refused, StartGame
from mexitrain.rules import legal_actions
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.network_state import TableRequest
from mexitrain.ui.screens import GameScreen
from mexitrain.ui.screens.lobby import LobbyScreen
from mexitrain.ui.widgets.net import NetBar


def app_at_table(client: FakeClient, **request) -> MexitrainApp:
    values = {"address": "127.0.0.1:8765", "code": "KXMPTR", "name": "Ann", **request}
    return MexitrainApp(None, 0, table=TableRequest(**values), client_factory=factory(client))


def bar(app) -> str:
    return str(app.screen.query_one(NetBar).text)


async def test_lobby_then_game_then_an_intent_goes_up():
    client = FakeClient()
    app = app_at_table(client, join_line="Others join with: mexitrain join 10.0.0.5:8765 KXMPTR")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
        assert isinstance(app.screen, LobbyScreen)
        await wait_for(pilot, lambda: "Connecting" in bar(app), "connecting shown")
        client.link("connected")
        client.say(welcome())
        client.say(lobby())
        await pilot.pause()
        text = str(app.screen.query_one("#lobby-seats").render())
        assert "Ann" in text and "open" in text and "random" in text
        assert "mexitrain join 10.0.0.5:8765 KXMPTR" in str(app.screen.query_one("#lobby-join").render())
        assert bar(app) == ""
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: client.sent, "StartGame sent")
        assert client.sent == [StartGame(level="planner", turn_time=0, absent="computer")]  # the lobby's settings
        game = state()
        client.say(lobby(started=True))
        client.say(update(game, seat=game.turn if False else 0))
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        board = app.game_screen.board
        assert board.view.seat == 0 and board.viewer == 0


def notices(app) -> list[str]:
    from mexitrain.ui.textual_compat import notices as all_notices

    return [str(n.message) for n in all_notices(app)]


async def _at_game(pilot, app, client, game, seat=0, **kw) -> None:
    await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
    client.link("connected")
    client.say(welcome(seat=seat, **kw))
    client.say(lobby(started=True, open_seat=False))
    client.say(update(game, seat=seat))
    await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")


async def test_a_move_is_sent_as_an_intent_and_a_refusal_is_said_in_words():
    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_game(pilot, app, client, game)
        board = app.game_screen.board
        assert board.my_turn
        key = "enter" if board.plays else "d"
        await pilot.press(key)
        await wait_for(pilot, lambda: client.sent, "an intent sent")
        sent = client.sent[0]
        assert isinstance(sent, Intent) and sent.seq == 1
        assert sent.action in legal_actions(game)
        # the server refuses it: the same sentence as a local refusal, in the player's words
        client.say(Refused(seq=1, code="not_your_turn", values={"turn": 1}))
        await wait_for(pilot, lambda: any("Bea is to play" in n for n in notices(app)), "the refusal")
        client.say(Refused(seq=1, code="not_in_hand", values={"tile": [6, 6]}))
        await wait_for(pilot, lambda: any("You do not hold 6-6" in n for n in notices(app)), "a rules refusal")


async def test_not_my_turn_no_intent_is_sent():
    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(1)  # Bea's turn: this terminal is Ann's
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_game(pilot, app, client, game, seat=0)
        assert not app.game_screen.board.my_turn
        await pilot.press("enter", "d", "m")
        await pilot.pause()
        assert client.sent == []


async def test_away_seat_shown_with_a_clock_and_the_host_hands_it_over():
    from mexitrain.net.protocol import HandOver

    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_game(pilot, app, client, game)
        assert not app.screen.query_one(NetBar).display
        client.say(update(game, seat=0, seq=2, away=(Away(seat=1, name="Bea", seconds=42),)))
        await wait_for(pilot, lambda: "Waiting for Bea to come back (away 0:4" in bar(app), "the away line")
        assert "c hands the seat" in bar(app)
        assert app.screen.query_one(NetBar).display
        await pilot.press("c")
        await wait_for(pilot, lambda: client.sent, "HandOver sent")
        assert client.sent == [HandOver(seat=1, level="planner")]


async def test_not_the_host_no_hand_over():
    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_game(pilot, app, client, game, host=False)
        client.say(update(game, seat=0, seq=2, away=(Away(seat=1, name="Bea", seconds=3),)))
        await wait_for(pilot, lambda: "Waiting for Bea" in bar(app), "the away line")
        assert "c hands" not in bar(app)
        assert app.check_action("hand_over", ()) is False
        await pilot.press("c")
        await pilot.pause()
        assert client.sent == []


async def test_the_link_retrying_is_on_screen():
    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_game(pilot, app, client, game)
        client.link("retrying", attempt=3, retry_in=4.0, error="lost")
        await wait_for(pilot, lambda: "attempt 3" in bar(app), "the retrying line")
        assert "Connection lost" in bar(app)
        # nothing is sent while the link is down: said, not lost silently
        await pilot.press("enter" if app.game_screen.board.plays else "d")
        await pilot.pause()
        assert client.sent == []
        assert any("Not connected" in n for n in notices(app))
        client.link("connected")
        await wait_for(pilot, lambda: bar(app) == "", "the line goes once connected")


async def test_undo_and_save_are_local_only():
    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_game(pilot, app, client, game)
        assert app.check_action("undo", ()) is None  # dimmed, with its reason
        assert app.check_action("save_as", ()) is False
        assert app.check_action("load_game", ()) is False
        assert app.check_action("open_replay", ()) is False
        await pilot.press("u")
        await wait_for(pilot, lambda: any("not available at a table" in n for n in notices(app)), "why no undo")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert type(app.screen) is GameScreen
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Save game as…" not in titles and "Load a saved game…" not in titles and "Open replay…" not in titles
        assert "Leave the table" in titles


async def test_hand_over_is_dimmed_while_nobody_is_away_and_the_help_says_when_it_works():
    """The host's c stays in the footer, dimmed (possible, not now), while every player is
    here; the table's help says it is the host's key while a player is away."""
    from mexitrain.ui.screens import HelpScreen

    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_game(pilot, app, client, game)
        assert app.check_action("hand_over", ()) is None  # dimmed, not hidden
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the table's help")
        note = str(app.screen.query_one(".help-note").render())
        assert "c Hand over, for the host while a player is away" in note
        await pilot.press("escape")
        client.say(update(game, seat=0, seq=2, away=(Away(seat=1, name="Bea", seconds=3),)))
        await wait_for(pilot, lambda: app.check_action("hand_over", ()) is True, "c works once Bea is away")


async def test_a_seat_handed_over_is_no_longer_waited_for():
    """Once the host has handed Bea's seat to a computer (the server's Update: Bea still away,
    her seat's kind "computer"), the line says a computer plays it, not that the game waits,
    and c (nothing left to hand over) is dimmed."""
    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_game(pilot, app, client, game)
        bea_away = (Away(seat=1, name="Bea", seconds=42),)
        client.say(update(game, seat=0, seq=2, away=bea_away))
        await wait_for(pilot, lambda: "Waiting for Bea" in bar(app), "the away line")
        assert app.check_action("hand_over", ()) is True
        handed = update(game, seat=0, seq=3, away=bea_away).model_copy(update={"kinds": ("person", "computer", "computer")})
        client.say(handed)
        await wait_for(pilot, lambda: "Bea's seat is played by a computer until they come back" in bar(app), "the handed line")
        assert "Waiting for Bea" not in bar(app) and "c hands" not in bar(app)
        assert app.check_action("hand_over", ()) is None  # dimmed: nobody left to hand over
        assert "Hand over" not in [c.title for c in app.get_system_commands(app.screen)]


async def test_the_host_of_mexitrain_host_is_told_that_leaving_closes_the_table():
    """mexitrain host runs the server in the app's process (its host token, no server object
    in the request): q asks whether to close the table for everyone, not "your seat waits"
    (seen at 80x24); a guest is told their seat waits."""
    from mexitrain.ui.screens import QuitScreen

    for token, words, help_words in (
        ("h" * 32, "It closes for everyone", "it closes for everyone"),
        (None, "Your seat waits for you", "your seat waits for you"),
    ):
        client = FakeClient()
        app = app_at_table(client, host_token=token)
        async with app.run_test(size=(80, 24)) as pilot:
            await _at_game(pilot, app, client, my_turn_game(1), host=token is not None)
            leave = [c.help for c in app.get_system_commands(app.screen) if c.title == "Leave the table"]
            assert leave and help_words in leave[0]
            await pilot.press("q")
            await wait_for(pilot, lambda a=app: isinstance(a.screen, QuitScreen), "the question")
            assert words in app.screen.question
            await pilot.press("n")


async def test_the_host_s_french_footer_keeps_every_key_that_works_at_80_columns():
    """At a table in French at 80 columns the keys do not all fit: the dimmed ones (undo,
    never possible at a table; c while nobody is away) give way, so that "s Marque" (the
    score sheet) and "? Aide" stay whole."""
    from textual.widgets._footer import FooterKey

    from mexitrain import i18n

    before = i18n.language()
    i18n.set_language("fr")
    try:
        client = FakeClient()
        app = app_at_table(client)
        async with app.run_test(size=(80, 24)) as pilot:
            await _at_game(pilot, app, client, my_turn_game(0))
            await pilot.pause()
            keys = {str(k.description): k for k in app.screen.query(FooterKey)}
            for name in ("Marque", "Aide", "Quitter", "Domino"):
                region = keys[name].region
                assert region.width >= len(name) + 2 and region.right <= 80, (name, region)
            assert not any(k.has_class("-disabled") for k in keys.values())  # only keys that work
    finally:
        i18n.set_language(before)


async def test_a_table_closed_by_its_host_says_so_and_the_game_stays_readable():
    """The host closed the table (issue 23): one line says so, in the guest's language, instead
    of "Connection lost; trying again…"; the last view stays, s shows the score sheet, and q
    leaves at once (nothing waits for the guest any more)."""
    from mexitrain import i18n
    from mexitrain.net.protocol import Error
    from mexitrain.ui.screens import QuitScreen, ScoreScreen

    for lang, resumable, words in (
        ("en", True, "Disconnected: The host closed the table; it can be reopened later: join again then."),
        ("en", False, "Disconnected: The game is over and the table closed."),
        ("fr", True, "Déconnecté : l'hôte a fermé la table ; elle pourra être rouverte plus tard : rejoignez-la alors."),
    ):
        before = i18n.language()
        i18n.set_language(lang)
        try:
            client = FakeClient()
            app = app_at_table(client)
            game = my_turn_game(1)
            async with app.run_test(size=(80, 24)) as pilot:
                await _at_game(pilot, app, client, game, host=False)
                client.say(Error(code="table_closed", values={"resumable": resumable}, fatal=True))
                client.link("closed", error="table_closed")
                client.closed.set()  # the client's run returns, as the real one does on a fatal error
                await wait_for(pilot, lambda a=app, w=words: bar(a) == w, "the closed line")
                assert isinstance(app.screen, GameScreen) and app.game_screen.board.view == update(game).view
                await pilot.press("s")
                await wait_for(pilot, lambda a=app: isinstance(a.screen, ScoreScreen), "the score sheet")
                await pilot.press("escape")
                await wait_for(pilot, lambda a=app: isinstance(a.screen, GameScreen), "back to the game")
                assert bar(app) == words  # still said, never "trying again"
                await pilot.press("q")
                await wait_for(pilot, lambda a=app: a.local is not None, "left without a question")
                assert not isinstance(app.screen, QuitScreen)
        finally:
            i18n.set_language(before)


def test_a_knock_at_the_table_is_told_as_in_a_local_game():
    """Table.take: a seat down to one tile within the round is a knock, "You" for this seat
    and named for another (session.knock_notice), and nothing at a new round."""
    from mexitrain.ui.network_state import NetworkState as Table

    first = update(state(), seat=0)
    sizes = first.view.hand_sizes

    def with_sizes(u, *pairs, **view_fields):
        new = list(sizes)
        for seat, size in pairs:
            new[seat] = size
        return u.model_copy(update={"view": u.view.model_copy(update={"hand_sizes": tuple(new), **view_fields})})

    table = Table(TableRequest(address="127.0.0.1:8765", code="KXMPTR", name="Ann"))
    assert table.take(with_sizes(first, (0, 2), (1, 2)), 0.0) == []
    texts = [n.text for n in table.take(with_sizes(first, (0, 1), (1, 1)), 1.0)]
    assert texts == ["Knock! You have one tile left", f"Knock! {first.names[1]} has one tile left"]
    table.take(with_sizes(first, (1, 2)), 2.0)
    assert table.take(with_sizes(first, (1, 1), round=first.view.round + 1), 3.0) == []


# -- issue #34 item 5: at a network table --------------------------------------------------------


def _two_round_games(seed: int = 3):
    """A fresh game of two rounds (three seats as the fake table's), and the same game just
    after its first round."""
    import random

    from mexitrain.rules import RuleSet, apply, new_game

    rules = RuleSet(set=6, rounds=2)
    start = new_game(rules, players=3, seed=seed)
    game, rng = start, random.Random(seed)
    while not game.results:
        game = apply(game, rng.choice(legal_actions(game)))
    return rules, start, game


async def test_the_round_results_wait_for_everyone_and_say_for_whom():
    from mexitrain.net.protocol import Seen
    from mexitrain.ui.screens import RoundOverScreen

    client = FakeClient()
    app = app_at_table(client)
    rules, start, ended = _two_round_games()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
        client.link("connected")
        client.say(welcome())
        client.say(lobby(started=True, open_seat=False).model_copy(update={"rules": rules}))
        client.say(update(start))
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        client.say(update(ended, seq=40).model_copy(update={"waiting": (0, 1)}))
        await wait_for(pilot, lambda: isinstance(app.screen, RoundOverScreen), "the round's results")
        assert "Bea" in bar_of_game(app)  # the game screen's line says whom the round waits for
        await pilot.press("enter")
        await wait_for(pilot, lambda: client.sent, "Seen sent")
        assert client.sent == [Seen(round=1)]
        label = str(app.screen.query_one("#round-next").render())
        assert "Waiting for Bea to see the results" in label
        assert isinstance(app.screen, RoundOverScreen)  # it stays while Bea has not
        client.say(update(ended, seq=40).model_copy(update={"waiting": (1,)}))
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)
        client.say(update(ended, seq=40))  # Bea has seen them: the next round goes on
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game again")


def bar_of_game(app) -> str:
    return str(app.game_screen.query_one(NetBar).text)


async def test_a_person_who_comes_back_is_announced():
    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_game(pilot, app, client, game)
        client.say(update(game, seat=0, seq=2, away=(Away(seat=1, name="Bea", seconds=9),)))
        await wait_for(pilot, lambda: "away 0:" in bar(app), "the away line, saying what it counts")
        client.say(update(game, seat=0, seq=3))
        await wait_for(pilot, lambda: any(n == "Bea is back" for n in notices(app)), "Bea is back")


async def test_the_lobby_marks_the_host():
    from mexitrain.net.protocol import LobbySeat

    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
        client.link("connected")
        client.say(welcome(seat=1, host=False))
        seats = lobby().seats
        client.say(lobby().model_copy(update={"seats": (
            seats[0].model_copy(update={"host": True}),
            LobbySeat(seat=1, name="Bea", kind="person", connected=True),
            seats[2],
        )}))
        await wait_for(pilot, lambda: "host" in str(app.screen.query_one("#lobby-seats").render()), "the host marked")
        lines = str(app.screen.query_one("#lobby-seats").render()).splitlines()
        assert "host" in lines[0] and "host" not in lines[1]
