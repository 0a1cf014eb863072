"""What just happened (issue #34 item 3): each seat's last plays are marked on the trains
and the station until its turn comes round, and whose turn it is shows without colour."""

from __future__ import annotations

from support.pilot import board, game_app, settle
from support.tables import table

from mexitrain.rules import Event, RuleSet, new_game, view
from mexitrain.rules.tiles import tile
from mexitrain.ui.recent import recent_plays, turn_seat
from mexitrain.ui.widgets import StationHub, TrainRows


def four_seats():
    return game_app(table(RuleSet(set=9, rounds=3), seed=11, kinds=("human", "random", "random", "random")))


async def move(pilot) -> None:
    b = board(pilot.app)
    await pilot.press("enter" if b.plays else ("d" if b.can("draw") else "m"))
    await settle(pilot)


def _view_with(events, turn, phase="turn"):
    """A view with these events and this turn (the board does not matter here)."""
    base = view(new_game(RuleSet(set=9, rounds=1), players=3, seed=1), 0)
    return base.model_copy(update={"events": tuple(events), "turn": turn, "phase": phase})


def play(seat, t, train=0):
    return Event(seat=seat, type="play", tile=t, train=train)


def test_each_seat_keeps_its_last_plays_marked_until_its_turn_comes_round():
    events = [
        play(0, (9, 1)),
        Event(seat=1, type="draw"), play(1, (9, 2), 1),
        play(2, (9, 9), "mexican"), play(2, (9, 3), "mexican"),  # a double and its cover: one turn
        play(0, (1, 4)),
        Event(seat=1, type="draw"), Event(seat=1, type="mark"),
    ]
    # seat 2 to move: its own turn (9-9, 9-3) is no longer marked; 0's last (1-4) is, not 9-1
    assert recent_plays(_view_with(events, 2)) == {tile(1, 4): 0}
    # seat 0 to move (before 0's second turn): 1's and 2's last turns are marked
    assert recent_plays(_view_with(events[:5], 0)) == {tile(9, 2): 1, tile(9, 9): 2, tile(9, 3): 2}
    # seat 1 to move: 1 drew and marked last time, nothing of its own to mark
    assert recent_plays(_view_with(events[:6], 1)) == {tile(9, 9): 2, tile(9, 3): 2, tile(1, 4): 0}
    # the game over: every seat's last plays stay
    assert recent_plays(_view_with(events, 2, "game_over")) == {tile(1, 4): 0, tile(9, 9): 2, tile(9, 3): 2}
    assert turn_seat(_view_with(events, 2, "game_over")) is None
    assert turn_seat(_view_with(events, 2)) == 2


def _underlined(content, text: str) -> bool:
    """Whether ``text`` in a rendered Content is underlined."""
    plain = content.plain
    at = plain.find(text)
    assert at >= 0, (text, plain)
    for span in content.spans:
        style = span.style
        underline = getattr(style, "underline", None) if not isinstance(style, str) else ("underline" in style.split() or " u" in f" {style}")
        if underline and span.start <= at < span.end:
            return True
    return False


async def test_the_last_plays_are_marked_on_the_trains_and_the_station():
    app = four_seats()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await move(pilot)
        v = board(app).view
        marks = recent_plays(v)
        assert marks and v.seat not in marks.values()  # the others moved; my turn has come
        rows = app.screen.query_one(TrainRows).render()
        lines = rows.split("\n")
        for ti, train in enumerate(v.trains):
            for t in train.lines[0]:
                a, b = t
                shown = f"{a}│{b}" if a != b else f"{a}║{b}"
                assert _underlined(lines[ti], shown) == (tile(*t) in marks), (ti, t)
        hub = app.screen.query_one(StationHub).render().plain
        assert "→" in hub  # whose turn: an arrow at the name, colour or not


async def test_whose_turn_it_is_shows_on_the_station_and_the_trains():
    app = four_seats()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        v = board(app).view
        assert v.my_turn
        lines = app.screen.query_one(TrainRows).render().plain.split("\n")
        turn_rows = [line for line in lines if "→" in line[:4]]
        assert len(turn_rows) == 1 and turn_rows[0][1] == str(v.seat + 1)
        hub = app.screen.query_one(StationHub).render().plain
        assert hub.count("→") + hub.count("←") == 1
