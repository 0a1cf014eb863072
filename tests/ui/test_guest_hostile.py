"""Issue 37: what a table's host cannot do to a guest's screen, through Pilot with a stand-in
client (tests/support/fake_table.py) that hands the app messages built with
``model_construct``: strings no decoder checked, shapes no decoder allowed.

- item 1: every string is shown, never obeyed: nothing a widget draws holds a control, C1,
  bidi or separator character (checked on what the compositor would write, before the
  output guard), and a name full of escapes keeps its row's width;
- item 3: an update that does not hold together ends the link with one line, never the app
  (hypothesis mutates the views);
- item 4: one error pop-up at a time with the count of the others, cut to a few lines; q
  still works after a flood;
- items 5, 6: "Disconnected: <reason>", the lobby says "retrying…" while retrying, a game
  before the welcome is not taken.
"""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from support.fake_table import FakeClient, factory, lobby, my_turn_game, update, welcome
from support.heavy import HEAVY
from support.pilot import wait_for

from mexitrain.net.protocol import (
    Away,
    Error,
    Lobby,
    LobbySeat,
    Refused,
    Update,
    Welcome,
    max_score,
)
from mexitrain.rules import view
from mexitrain.text.visible import UNSAFE, visible
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.network_state import TableRequest
from mexitrain.ui.screens import GameScreen
from mexitrain.ui.screens.lobby import LobbyScreen
from mexitrain.ui.textual_compat import drawn_texts, exiting
from mexitrain.ui.textual_compat import notices as all_notices
from mexitrain.ui.widgets import TrainRows
from mexitrain.ui.widgets.net import NetBar

#: Names no decoder let through: a title, the clipboard, a clear, C1, bidi, a line separator.
NAMES = ("\x1b]0;PWNED\x07Ann", "B\x9b31m\u202eea\u2028", "\x1b]52;c;cm0=\x07Cal")
EVIL = "\x1b]52;c;Y3VybCBldmlsfHNo\x07\x1b[2J\x9d0;x\x9c\u202e"


def app_at_table(client: FakeClient) -> MexitrainApp:
    return MexitrainApp(None, 0, table=TableRequest("127.0.0.1:8765", "KXMPTR", "Ann"), client_factory=factory(client))


def bar(app) -> str:
    return str(app.screen.query_one(NetBar).text)


def hostile_update(game, seat: int = 0, names=NAMES, **fields) -> Update:
    """An update built past the decoder, with ``names`` and an away seat named with escapes."""
    values = dict(
        type="update", seq=1, view=view(game, seat), names=names, kinds=("person", "person", "computer"),
        away=(Away.model_construct(seat=1, name=EVIL[:20], seconds=3),),
    )
    values.update(fields)
    return Update.model_construct(**values)


def drawn_unsafe(app) -> list[str]:
    """The lines the screen would draw that hold a character the terminal could obey."""
    return [line for line in drawn_texts(app) if UNSAFE.search(line)]


def notice_texts(app) -> list[str]:
    return [f"{n.title}\n{n.message}" for n in all_notices(app)]


def notice_unsafe(app) -> list[str]:
    """The notices' titles and lines that hold a character the terminal could obey."""
    return [line for n in all_notices(app) for line in (n.title, *str(n.message).split("\n")) if UNSAFE.search(line)]


async def _connected(pilot, app, client, seat: int = 0, table: str = "KXMPTR") -> None:
    await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
    client.link("connected")
    client.say(Welcome.model_construct(type="welcome", version=1, seat=seat, token="t" * 32, host=False, table=table))


async def test_strings_past_the_decoder_are_shown_and_never_obeyed():
    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(1)
    async with app.run_test(size=(100, 30)) as pilot:
        await _connected(pilot, app, client, table=EVIL)
        seats = tuple(
            LobbySeat.model_construct(seat=i, name=n, kind="person", level=None, connected=True) for i, n in enumerate(NAMES)
        )
        client.say(Lobby.model_construct(type="lobby", seats=seats, rules=game.rules, started=False))
        await wait_for(pilot, lambda: "␛]0;PWNED" in "".join(drawn_texts(app)), "the lobby's names shown")
        assert drawn_unsafe(app) == []

        client.say(hostile_update(game))
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        await wait_for(pilot, lambda: "␛]52;c;cm0=" in "".join(drawn_texts(app)), "the names on the board")
        assert "Waiting for ␛]52;c;Y3" in bar(app)
        assert drawn_unsafe(app) == []

        client.say(Refused.model_construct(type="refused", seq=1, code="not_your_turn", values={"turn": 1}))
        client.say(Error.model_construct(type="error", code="bad_message", values={"field": EVIL}, fatal=False, server_version=None))
        await wait_for(pilot, lambda: len(all_notices(app)) >= 2, "the refusal and the error said")
        assert notice_unsafe(app) == []
        assert any("B\ufffd31m\ufffdea" in t for t in notice_texts(app))
        await pilot.press("s")
        await pilot.pause()
        assert drawn_unsafe(app) == []
        await pilot.press("escape")
        await pilot.pause()
        assert drawn_unsafe(app) == []


async def test_a_name_full_of_escapes_keeps_its_train_row():
    """Item 6: "\\x1b" took four cells for one that the row had measured as none."""
    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(0)
    names = ("Ann", "\x1b" * 19 + "B", "Cal")
    async with app.run_test(size=(100, 30)) as pilot:
        await _connected(pilot, app, client)
        client.say(hostile_update(game, names=names, away=()))
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        await pilot.pause()
        rows = app.screen.query_one(TrainRows)
        lines = rows.render().plain.split("\n")
        assert lines and all(cell_len(line) <= rows.size.width for line in lines), lines
        ends = {cell_len(line[: line.index("🚂") if "🚂" in line else 0]) for line in lines if "␛" in line or "Cal" in line}
        assert len(ends) <= 1, lines


async def test_an_error_flood_shows_one_pop_up_with_a_count_and_q_still_quits():
    """Item 4: 1,000 errors at once froze the guest with a pile of pop-ups; now one, counting
    the others, its details cut to a few lines, and q leaves."""
    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(1)
    async with app.run_test(size=(100, 30)) as pilot:
        await _connected(pilot, app, client)
        client.say(update(game, seat=0))
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        for i in range(1000):
            client.say(Error.model_construct(type="error", code=f"newer_code{'x' * (i % 3)}", values={}, fatal=False,
                                             server_version=None))
        await wait_for(pilot, lambda: any("999 more errors" in t for t in notice_texts(app)), "the count", seconds=60)
        table_notices = [t for t in notice_texts(app) if t.startswith("The table")]
        assert len(table_notices) == 1
        assert len(table_notices[0].split("\n")) <= 1 + 3 + 1  # the title, a few lines, the count
        await pilot.press("q")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "QuitScreen", "the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: exiting(app), "the app leaves")


async def test_an_error_with_long_details_is_cut_to_a_few_lines():
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await _connected(pilot, app, client)
        client.say(Error.model_construct(type="error", code="bad_message", values={"field": "x" * 5000},
                                         fatal=False, server_version=None))
        await wait_for(pilot, lambda: notice_texts(app), "the pop-up")
        [text] = notice_texts(app)
        assert len(text) < 400 and "…" in text


async def test_an_unreadable_message_says_why_and_disconnected():
    """Item 5: "Disconnected." and no reason before, under "Waiting for the host…"."""
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await _connected(pilot, app, client)
        client.say(lobby())
        client.say(Error(code="bad_server_message", values={"reason": "bad_message type=update field=seq"}, fatal=True))
        client.link("closed", error="bad_server_message")
        client.closed.set()
        expected = "Disconnected: The table sent something this version cannot read: bad_message type=update field=seq"
        await wait_for(pilot, lambda: bar(app) == expected, "the reason")
        assert isinstance(app.screen, LobbyScreen)
        wait = str(app.screen.query_one("#lobby-wait").render())
        assert "Waiting for the host" not in wait and "no longer at this table" in wait
        assert not app.screen.query_one("#lobby-seats").display  # over: the last seats are not the table's


async def test_a_link_that_ends_says_why():
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await _connected(pilot, app, client)
        client.link("retrying", attempt=1, retry_in=5.0, error="no_answer")
        await wait_for(pilot, lambda: "did not answer" in bar(app), "the retry's reason")
        client.link("closed", error="lost")
        await wait_for(pilot, lambda: bar(app) == "Disconnected: The connection was lost.", "the reason")


async def test_the_lobby_says_retrying_rather_than_connected_while_retrying():
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await _connected(pilot, app, client)
        client.say(lobby())
        await wait_for(pilot, lambda: "connected · you" in str(app.screen.query_one("#lobby-seats").render()), "connected")
        client.link("retrying", attempt=1, retry_in=5.0, error="lost")
        await wait_for(pilot, lambda: "retrying… · you" in str(app.screen.query_one("#lobby-seats").render()), "retrying")
        assert "connected · you" not in str(app.screen.query_one("#lobby-seats").render())


async def test_a_game_before_the_welcome_is_not_taken():
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: client.running.is_set(), "the client runs")
        client.link("connected")
        client.say(update(my_turn_game(0)))
        client.say(lobby())
        client.say(welcome(seat=0, host=False))
        await wait_for(pilot, lambda: app.source.state.welcome is not None, "the welcome")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert app.source.state.update is None and app.source.state.lobby is None


async def test_another_seats_view_or_a_shape_that_does_not_hold_ends_the_link_not_the_app():
    """Item 3: five names for three seats, a view of another seat: one line, the app stays."""
    for bad in (
        dict(names=("A", "B", "C", "D", "E")),
        dict(view=view(my_turn_game(0), 2)),
        dict(kinds=("person",)),
    ):
        client = FakeClient()
        app = app_at_table(client)
        async with app.run_test(size=(100, 30)) as pilot:
            await _connected(pilot, app, client)
            client.say(hostile_update(my_turn_game(0), **({"names": ("A", "B", "C")} | bad)))
            await wait_for(pilot, lambda a=app: "cannot read" in bar(a), f"the line for {list(bad)}")
            assert client.closed.is_set()  # the link was left
            assert app.is_running and app.source.state.update is None
            await pilot.press("q")
            await wait_for(pilot, lambda a=app: exiting(a), "q leaves at once")


# -- hypothesis: any view the host may send ------------------------------------------------------

_INTS = st.one_of(st.integers(-3, 12), st.sampled_from([-(2**63), 99, 10**15]))


def _mutations():
    """A change of one field of a good view (or of the update), as ``(path, value)``."""
    seat_fields = ["seat", "turn", "first_seat", "engine", "engine_seat", "mexican_starter", "players",
                   "boneyard_size", "round", "swan_pos"]
    return st.one_of(
        st.tuples(st.sampled_from(seat_fields), _INTS),
        st.tuples(st.sampled_from(["hand_sizes", "chain_right", "failed", "hands"]), st.integers(0, 6)),
        st.tuples(st.just("trains"), st.integers(0, 6)),
        st.tuples(st.just("names"), st.integers(0, 6)),
        st.tuples(st.just("kinds"), st.integers(0, 6)),
        st.tuples(st.just("tile"), st.tuples(_INTS, _INTS)),
        st.tuples(st.just("event_seat"), _INTS),
        st.tuples(st.just("result"), st.tuples(st.integers(0, 5), _INTS)),
        st.tuples(st.just("double_line"), st.tuples(_INTS, _INTS)),
    )


def _mutated(game, seat: int, mutation) -> Update:
    """A good update for ``seat`` with ``mutation`` made, unchecked."""
    from mexitrain.rules.state import Event
    from mexitrain.rules.view import PublicRound

    path, value = mutation
    v = view(game, seat)
    up: dict = {}
    vu: dict = {}
    if path in ("hand_sizes", "chain_right", "failed", "hands"):
        old = getattr(v, path)
        vu[path] = tuple((old * 7)[:value])
    elif path == "trains":
        vu["trains"] = tuple((v.trains * 3)[:value])
    elif path == "names":
        up["names"] = tuple(f"N{i}" for i in range(value))
    elif path == "kinds":
        up["kinds"] = ("person",) * value
    elif path == "tile":
        vu["hand"] = (value, *v.hand[1:])
    elif path == "event_seat":
        vu["events"] = (Event.model_construct(seat=value, type="draw", tile=None, train=None, branch=0),)
    elif path == "result":
        n, score = value
        vu["results"] = (PublicRound.model_construct(number=1, engine=6, engine_seat=None, first_seat=0, end="domino",
                                                     out_seat=0, leftovers=((),) * n, scores=(score,) * n),)
    elif path == "double_line":
        vu["double_line"] = value
    else:
        vu[path] = value
    up = {"names": ("A", "B", "C"), **up}
    return hostile_update(game, seat, view=v.model_copy(update=vu), away=(), **up)


async def _feed(update_msg: Update, seat: int) -> None:
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await _connected(pilot, app, client, seat=seat)
        client.say(update_msg)
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen) or "cannot read" in bar(app), "taken or refused")
        if isinstance(app.screen, GameScreen):  # taken: the screens can show it
            for key in ("s", "escape", "right", "down", "question_mark", "escape"):
                await pilot.press(key)
        await pilot.pause()
        assert app.is_running and app.return_code is None
        assert drawn_unsafe(app) == [] and notice_unsafe(app) == []
        await pilot.press("ctrl+q")
        if type(app.screen).__name__ == "QuitScreen":
            await pilot.press("y")
        await wait_for(pilot, lambda: exiting(app), "ctrl+q leaves")
    assert app.return_code in (0, None)


@settings(max_examples=200 if HEAVY else 12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(mutation=_mutations())
def test_no_update_the_host_may_send_crashes_the_guest(mutation):
    seat = 0
    game = my_turn_game(seat)
    asyncio.run(asyncio.wait_for(_feed(_mutated(game, seat, mutation), seat), 60))  # a crash may hang the pilot


def test_visible_keeps_one_cell_for_one_character():
    assert visible("a\x1bb\x9bc\u202ed\u2028e\x7f\x00") == "a␛b\ufffdc\ufffdd\ufffde␡␀"
    assert visible("東京 🚂 مرحبا") == "東京 🚂 مرحبا"  # wide, emoji, right-to-left letters kept
    for text in ("\x1b]0;x\x07", "\u202e\u2066", "\x9b\x9d"):
        assert cell_len(visible(text)) == len(text) and not UNSAFE.search(visible(text))


async def _standings(score: int) -> tuple[object, list[str], str]:
    """After a game-over update whose one round scored ``score`` (80 columns): the standings'
    size and lines, and the link's last line (None, [] and that line when it was refused)."""
    from mexitrain.rules.view import PublicRound

    client = FakeClient()
    app = app_at_table(client)
    game = my_turn_game(0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _connected(pilot, app, client)
        v = view(game, 0)
        result = PublicRound.model_construct(number=1, engine=6, engine_seat=None, first_seat=0, end="domino",
                                             out_seat=2, leftovers=((), (), ()), scores=(score, score - 1, 0))
        v = v.model_copy(update={"phase": "game_over", "results": (result,), "winners": (2,), "legal": (), "forced": None})
        client.say(hostile_update(game, view=v, names=("Ann", "Bea", "Cal"), away=()))
        def said() -> str:
            return app.source.state.fatal or "" if app.local is None else ""

        await wait_for(pilot, lambda: type(app.screen).__name__ == "GameOverScreen" or "cannot read" in said(),
                       "the standings or the line")
        if "cannot read" in said():
            return None, [], said()
        await pilot.pause()
        standings = app.screen.query_one("#standings")
        lines = standings.render().plain.split("\n")
        return standings.size, lines, said()


async def test_a_huge_score_is_refused_and_a_large_one_keeps_the_standings_on_their_lines():
    """Item 6: a score of 10^15 wrapped the standings; now a round score no game can have is
    refused with one line, and the largest taken keeps each standing on one line."""
    standings, lines, said = await _standings(10**15)
    assert standings is None and "update.view.results.0.scores" in said
    standings, lines, said = await _standings(max_score(my_turn_game(0).rules.set) + 1)
    assert standings is None and "update.view.results.0.scores" in said
    largest = max_score(my_turn_game(0).rules.set)  # every pip of the set: the most a round takes
    standings, lines, said = await _standings(largest)
    assert standings is not None and str(largest) in "\n".join(lines)
    assert standings.height == len(lines)  # no line wrapped
    assert all(cell_len(line) <= standings.width for line in lines), lines


async def test_a_table_closed_said_as_not_fatal_still_ends_the_link_and_q_leaves_at_once():
    """The client stops at table_closed, fatal or not (a hostile host sends it non-fatal):
    the app says the link is over and q does not ask about a seat to come back to."""
    client = FakeClient()
    app = app_at_table(client)
    async with app.run_test(size=(100, 30)) as pilot:
        await _connected(pilot, app, client)
        client.say(update(my_turn_game(1), seat=0))
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        client.say(Error(code="table_closed", values={"resumable": True}, fatal=False))
        await wait_for(pilot, lambda: bar(app).startswith("Disconnected: The host closed the table"), "the line")
        await pilot.press("q")
        await wait_for(pilot, lambda: exiting(app), "q leaves at once")
