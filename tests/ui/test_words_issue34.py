"""Issue #34, item 4 "Words": the station's labels, the quit dialog, the line after quitting,
the new-game form's look and summary."""

from __future__ import annotations

import re

from support.pilot import game_app, settle
from support.tables import table

from mexitrain.rules import RuleSet
from mexitrain.ui.widgets import StationHub


async def test_the_station_puts_seat_name_and_count_in_one_order_on_both_sides():
    """At 120 columns the right side read "Cal 13 3" (name, tiles, seat) while the left read
    "1 You 15" (seat, name, tiles): both sides now say seat, name, tiles."""
    names = ("You", "Bea", "Cal", "Dot")
    app = game_app(table(RuleSet(), seed=5, kinds=("human",) + ("random",) * 3, names=names))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        view = app.game_screen.board.view
        text = str(app.screen.query_one(StationHub).render())
        for seat, name in enumerate(names):
            count = view.hand_sizes[seat]
            assert re.search(rf"\b{seat + 1} {name} +{count}\b", text), (name, text)
            assert not re.search(rf"{name} +{count} {seat + 1}\b", text), (name, text)
