"""Every move key answers (issue #34 item 2): d, m and g, pressed when they do nothing now,
say why in one line, with the rules' reason, as a refused tile does; nothing moves."""

from __future__ import annotations

from support.pilot import board, game_app, settle, wait_for
from support.positions import prepared
from support.tables import table

from mexitrain.ui.textual_compat import notices


def _warnings(app) -> list[str]:
    return [n.message for n in notices(app) if n.severity == "warning"]


async def _answer(pilot, app, key: str) -> str:
    before = app.snapshot
    app.clear_notifications()  # only this key's answer is read
    await pilot.press(key)
    await wait_for(pilot, lambda: _warnings(app), f"an answer to {key}")
    assert app.snapshot is before  # refused: nothing moved
    (text,) = _warnings(app)
    assert "\n" not in text  # one line
    return text


async def test_d_m_g_say_why_when_a_tile_fits():
    setup = table()
    # 5-6 fits the empty trains (engine 6); 1-2 does not
    state = prepared(setup, hands=(((5, 6), (1, 2)), ((0, 0), (4, 4))), boneyard=((3, 4), (5, 5)))
    app = game_app(setup, state=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        b = board(app)
        assert b.my_turn and b.plays and not b.can("draw")
        # the footer still shows d, m and g as not available now (hidden)
        for action in ("draw", "end_turn", "skip"):
            assert app.screen.check_action(action, ()) is False
        shown = {key for key, active in app.screen.active_bindings.items() if active.binding.show}
        assert not {"d", "m", "g"} & shown
        text = await _answer(pilot, app, "d")
        assert text.startswith("6-5 fits ") and text.endswith(": draw only when nothing fits.")
        text = await _answer(pilot, app, "m")
        assert text.startswith("6-5 fits ") and "you must play" in text
        text = await _answer(pilot, app, "g")
        assert text == "Only the Mexican Train may be skipped in a swan drive."


async def test_m_says_draw_first_when_nothing_fits():
    setup = table()
    state = prepared(setup, hands=(((1, 2), (2, 3)), ((0, 6), (4, 4))), boneyard=((3, 4), (5, 5)))
    app = game_app(setup, state=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert board(app).can("draw") and not board(app).can("mark")
        text = await _answer(pilot, app, "m")
        assert text == "You cannot end your turn now: draw a tile first."

