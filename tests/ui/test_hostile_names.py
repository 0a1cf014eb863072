"""Issue 21, "Text is text": hostile names through Pilot. Markup in a name is shown as typed
and never interpreted (no crash, no action run), and wide characters keep the station and
the train rows aligned in terminal cells."""

from __future__ import annotations

from rich.cells import cell_len
from support.pilot import game_app, human_move, settle
from support.tables import table
from textual.content import Content

from mexitrain.rules import RuleSet
from mexitrain.text.names import fit, shorten
from mexitrain.ui.screens import GameOverScreen, GameScreen, HandoffScreen, RoundOverScreen
from mexitrain.ui.widgets import MoveLog, StationHub, TrainRows

# left column of the station: seats 0-2; right: 3-4
NAMES = ("東京太郎", "[link=x]C[/]", "🚂🚂", "[ @click=app.quit]Bo", "[AFK] Bo")
KINDS = ("human", "human", "random", "random", "random")


def _spans_are_ours(content: Content) -> None:
    """No style in the rendered content came from a name (a link, an action, 'AFK')."""
    for span in content.spans:
        style = str(span.style)
        assert "@click" not in style and "link" not in style and "AFK" not in style, span


def _check_board(app) -> None:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    hub = screen.query_one(StationHub).render()
    _spans_are_ours(hub)
    # every row of the station box has its left wall at the same cell column
    walls = []
    for line in hub.plain.split("\n"):
        at = min((line.index(c) for c in "┫┃┏┗" if c in line), default=None)
        if at is not None and not line.lstrip().startswith("┃"):  # the Mexican Train's stem
            walls.append(cell_len(line[:at]))
    assert len(set(walls)) == 1, hub.plain
    trains = screen.query_one(TrainRows).render()
    _spans_are_ours(trains)
    # every train row's name ends at the same cell column
    rows = trains.plain.split("\n")
    ends = set()
    width = max(4, min(12, (screen.query_one(TrainRows).size.width or 80) // 8))
    for name in NAMES:
        shown = fit(shorten(name, width), width)  # "…" where cut
        row = next(r for r in rows if shown in r)
        ends.add(cell_len(row[: row.index(shown) + len(shown)]))
    assert len(ends) == 1, trains.plain
    log = screen.query_one(MoveLog).query_one("#log-text").render()
    assert isinstance(log, Content)
    _spans_are_ours(log)


async def test_hostile_names_are_plain_text_and_aligned_through_a_whole_game():
    app = game_app(table(RuleSet(set=9, rounds=1), seed=5, kinds=KINDS, names=NAMES))
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        checked = seen_handoff = False
        for _ in range(400):
            if isinstance(app.screen, HandoffScreen):
                text = str(app.screen.query_one("#handoff-text").render())
                assert any(name in text for name in NAMES[:2]), text  # as typed
                seen_handoff = True
                await pilot.press("enter")
                await settle(pilot)
            elif isinstance(app.screen, GameScreen):
                if not checked:
                    _check_board(app)
                    await pilot.press("s")  # the score sheet
                    await pilot.pause()
                    sheet = str(app.screen.query_one("#score-sheet").render())
                    assert "[AFK] Bo" in sheet and "東京太郎" in sheet, sheet
                    await pilot.press("escape")
                    await pilot.press("question_mark")  # the help
                    await pilot.pause()
                    await pilot.press("escape")
                    await pilot.pause()
                    checked = True
                await human_move(pilot)
            else:
                break
        assert checked and seen_handoff
        assert app.is_running and app.return_code is None  # "[ @click=app.quit]" did not quit
        assert isinstance(app.screen, RoundOverScreen)
        leftovers = app.screen.query_one("#leftovers").render()
        _spans_are_ours(leftovers)
        for name in NAMES:
            assert fit(shorten(name, 12), 12).rstrip() in leftovers.plain, leftovers.plain
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        standings = app.screen.query_one("#standings").render()
        for name in NAMES:
            assert name in standings.plain, standings.plain
        _spans_are_ours(standings)
