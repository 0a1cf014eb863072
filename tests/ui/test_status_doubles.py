"""The status line says what blocks as the core judged it (issue #33): an open double whose
suit is all on the table never blocks (§6), and the line never tells the player to satisfy it."""

from __future__ import annotations

from support.pilot import board, game_app, settle
from support.positions import prepared
from support.tables import table

from mexitrain.rules import Train, full_set, tile
from mexitrain.ui.widgets import StatusLine

ENGINE = 6


def _train(owner, laid, marker=False):
    return Train(owner=owner, lines=(tuple(laid),), starts=(ENGINE,), marker=marker)


def _position(setup, *, mine, theirs, mexican, hand):
    used = {tile(a, b) for a, b in [*mine, *theirs, *mexican, *hand, (1, 1), (0, 0), (ENGINE, ENGINE)]}
    boneyard = tuple(t for t in full_set(6) if t not in used)
    return prepared(
        setup,
        hands=(tuple(tile(a, b) for a, b in hand), ((1, 1), (0, 0))),
        boneyard=boneyard,
        trains=(_train(0, mine), _train(1, theirs, marker=True), _train(None, mexican)),
        turn=0,
    )


async def _status(setup, state) -> str:
    app = game_app(setup, state=state)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert board(app).my_turn
        return str(app.game_screen.query_one(StatusLine).render())


async def test_a_double_that_can_never_be_satisfied_is_not_said_to_block():
    setup = table()
    # every 5 is laid: 6-5 5-5 on my train, 4-5 5-3 on Bea's, 2-5 5-1 0-5 on the Mexican
    state = _position(
        setup,
        mine=[(6, 5), (5, 5)],
        theirs=[(6, 4), (4, 5), (5, 3)],
        mexican=[(6, 2), (2, 5), (5, 1), (1, 0), (0, 5)],
        hand=[(3, 4), (2, 2)],
    )
    (double,) = _facts(state).doubles
    assert (double.pips, double.satisfiable, double.blocks) == (5, False, False)
    text = await _status(setup, state)
    assert "satisfy the open double" not in text
    assert "pick a tile" in text  # 3-4 goes on Bea's train, which has a marker


async def test_of_two_doubles_the_one_that_blocks_is_named():
    setup = table()
    # 5-5 on my train cannot be satisfied (every 5 laid); 3-3 on Bea's can (3-4 is in my hand)
    state = _position(
        setup,
        mine=[(6, 5), (5, 5)],
        theirs=[(6, 4), (4, 5), (5, 3), (3, 3)],
        mexican=[(6, 2), (2, 5), (5, 1), (1, 0), (0, 5)],
        hand=[(3, 4), (2, 2)],
    )
    blocks = [d.pips for d in _facts(state).doubles if d.blocks]
    assert blocks == [3]
    text = await _status(setup, state)
    assert "satisfy the open double 3-3 on Bea's train first" in text


def _facts(state):
    from mexitrain.rules import view

    return view(state, 0)
