"""Hidden hands stay hidden with several people at one terminal (issue 21, "Done when").

Whole games are played by keys with two people and a computer player; after every step,
everything on screen (the screenshot's text, the notices, the status line's tooltip) is
searched for the tiles of the hands that seat may not see. Tiles are unique in a set, so a
tile still in another seat's hand is on no train and in no public line of the log: its face
("4│5", "4║4") or its name ("4-5") on screen can only come from that hand.
"""

from __future__ import annotations

import re

from support.pilot import game_app, settle
from support.tables import table

from mexitrain.rules import RuleSet
from mexitrain.ui.screens import GameOverScreen, GameScreen, HandoffScreen, RoundOverScreen
from mexitrain.ui.textual_compat import notices
from mexitrain.ui.widgets import StatusLine

from .test_french import screen_text


def _patterns(tile: tuple[int, int]) -> list[str]:
    a, b = tile
    sep = "║" if a == b else "│"
    faces = {f"{a}{sep}{b}", f"{b}{sep}{a}", f"{a}-{b}", f"{b}-{a}"}
    return [rf"(?<!\d){re.escape(face)}(?!\d)" for face in faces]


def _on_screen(app) -> str:
    parts = [screen_text(app)]
    parts += [f"{n.title} {n.message}" for n in notices(app)]
    if isinstance(app.screen, GameScreen):
        tip = app.screen.query_one(StatusLine).tooltip
        parts.append(str(tip or ""))
    return "\n".join(parts)


def leaks(app) -> list[str]:
    """What is shown of the hands the seat on screen may not see (empty: nothing)."""
    screen = app.screen
    if isinstance(screen, RoundOverScreen | GameOverScreen):
        return []  # every hand is laid open when a round ends (§6)
    state = app.snapshot
    if isinstance(screen, HandoffScreen):
        viewer = None  # between two people: nobody's hand
    else:
        viewer = app.session.shown_seat
    text = _on_screen(app)
    # the log shows, dimmed, the round just finished: the tiles played in it are public
    played = {tuple(sorted(e.tile)) for r in state.results[-1:] for e in r.events if e.type == "play" and e.tile}
    found = []
    for seat, hand in enumerate(state.hands):
        if seat == viewer:
            continue
        for tile in hand:
            if tuple(sorted(tile)) in played:
                continue
            for pattern in _patterns(tile):
                if re.search(pattern, text):
                    found.append(f"seat {seat}'s {tile[0]}-{tile[1]} shown to seat {viewer} on {type(screen).__name__}")
    return found


async def test_two_people_never_see_each_others_tiles_over_a_whole_game(seed=7):
    """Ann and Bo share the keyboard with a computer player between them, for two whole
    rounds (a whole game). The notice "You drew 4-7, which cannot be played…" stayed on the
    hand-off screen and through the next person's turn: it now ends with its seat's turn."""
    setup = table(
        RuleSet(set=6, rounds=2), seed=seed, kinds=("human", "random", "human"), names=("Ann", "Cy", "Bo")
    )
    app = game_app(setup)
    said: list[tuple[int, str]] = []  # (seat on screen, notice) of the turns that ended by themselves
    notice = app.play_notice

    def recording(text, **kwargs):
        if kwargs.get("title") == "No move left" and "drew" in text:
            said.append((app.session.shown_seat, text))
        notice(text, **kwargs)

    app.play_notice = recording
    steps = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        while not isinstance(app.screen, GameOverScreen):
            steps += 1
            assert steps < 2000, "the game never ended"
            assert leaks(app) == []
            screen = app.screen
            if isinstance(screen, HandoffScreen):
                assert app.session.kinds[app.session.shown_seat] == "human"
                await pilot.press("enter")
            elif isinstance(screen, RoundOverScreen):
                await pilot.press("enter")
            elif isinstance(screen, GameScreen):
                board = screen.board
                if board.plays:
                    await pilot.press("enter")
                elif board.can("draw"):
                    await pilot.press("d")
                else:
                    await pilot.press("m")
            else:
                raise AssertionError(f"unexpected screen {screen!r}")
            await settle(pilot)
    assert len(app.snapshot.results) == 2
    # the test saw what it is about: a person's drawn tile that could not be played
    assert said, "no turn ended by itself after a draw: choose another seed"


async def test_several_people_the_status_line_names_whose_turn_it_is():
    setup = table(kinds=("human", "human"), names=("Ann", "Bo"))
    app = game_app(setup)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("enter")
        await pilot.pause()
        first = str(app.screen.query_one(StatusLine).render()).splitlines()[0]
        name = app.session.names[app.session.shown_seat]
        assert f"{name}'s turn" in first or first.split(" ", 1)[1].startswith(f"{name}: ")
        assert "Your turn" not in first
