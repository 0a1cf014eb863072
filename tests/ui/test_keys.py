"""Every key of the game screen, the mouse, the refused move and the forced move."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.pilot import board, game_app, human_move, settle, wait_for
from support.positions import prepared
from support.tables import table

from mexitrain.i18n import set_language
from mexitrain.rules import RuleSet, Train
from mexitrain.ui.board import canon
from mexitrain.ui.screens import GameScreen, HelpScreen, QuitScreen, ScoreScreen
from mexitrain.ui.textual_compat import notices
from mexitrain.ui.widgets import HandTray, StatusLine, TipPanel, TrainRows


async def test_tile_keys_move_the_selection_both_ways():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        b = board(app)
        assert b.my_turn and b.selected is not None
        tray = [canon(t) for t in b.tray]
        i = tray.index(b.selected)
        for key, step in (("right", 1), ("l", 1), ("left", -1), ("h", -1)):
            await pilot.press(key)
            i = (i + step) % len(tray)
            assert board(app).selected == tray[i], key


async def test_train_keys_arrows_vim_numbers_and_mexican():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        targets = board(app).targets()
        start = targets.index(board(app).target)
        await pilot.press("down")
        assert board(app).target == targets[(start + 1) % len(targets)]
        await pilot.press("j")
        assert board(app).target == targets[(start + 2) % len(targets)]
        await pilot.press("k", "up")
        assert board(app).target == targets[start]
        await pilot.press("2")
        assert board(app).target == (1, 0)
        await pilot.press("0")
        assert board(app).target == (2, 0)  # 2 players: the Mexican Train is train 2
        await pilot.press("1", "x")
        assert board(app).target == (2, 0)
        before = app.snapshot
        await pilot.press("9")  # no seat 9: the key is disabled and changes nothing
        assert board(app).target == (2, 0) and app.snapshot is before


async def test_enter_plays_the_selected_tile_on_the_selected_train():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        state = app.snapshot
        assert (0, 6) in state.hands[0]
        # select 0-6 and the Mexican Train, then place
        while board(app).selected != (0, 6):
            await pilot.press("right")
        await pilot.press("x", "enter")
        await settle(pilot)
        first = app.snapshot.events[0]
        assert (first.seat, first.type, first.train, first.tile) == (0, "play", "mexican", (6, 0))
        assert (0, 6) not in app.snapshot.hands[0]


async def test_illegal_placement_changes_nothing_and_says_why():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        b = board(app)
        bad = next(canon(t) for t in b.tray if canon(t) not in b.playable)
        while board(app).selected != bad:
            await pilot.press("right")
        before = app.snapshot
        await pilot.press("1", "enter")
        await pilot.pause()
        assert app.snapshot is before
        notes = [n for n in notices(app) if n.severity == "warning"]
        assert notes, "a warning was shown"
        assert "does not fit" in notes[-1].message
        assert f"{bad[0]}-{bad[1]}" in notes[-1].message


async def test_draw_then_forced_marker_is_automatic_and_logged():
    setup = table()
    # nothing in the hand fits the empty trains (engine 6), and the drawn tile will not fit either
    state = prepared(setup, hands=(((1, 2), (2, 3)), ((0, 6), (4, 4))), boneyard=((3, 4), (5, 5)))
    app = game_app(setup, state=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        b = board(app)
        assert b.can("draw") and not b.plays
        assert app.screen.check_action("place", ()) is False
        await pilot.press("enter")  # disabled: nothing happens
        assert app.snapshot is state
        await pilot.press("d")
        await pilot.pause()
        await pilot.pause()
        events = app.snapshot.events
        assert [e.type for e in events[:2]] == ["draw", "mark"]
        assert app.snapshot.trains[0].marker
        assert 1 in app.session.auto_events
        from mexitrain.ui.widgets.log import log_lines

        await settle(pilot)
        lines = "\n".join(log_lines(board(app)))
        assert "You drew 3-4" in lines
        assert "automatic" in lines


@pytest.mark.parametrize(("lang", "said"), [("en", "or m to stop · g skips it"), ("fr", "m arrête · g le saute")])
async def test_g_skips_the_mexican_train_in_a_swan_drive(lang, said):
    """g skips; the status line says so (it said n, the tip's key) and, at 80 columns, whole."""
    set_language(lang)
    rules = RuleSet(set=6, rounds=1, swan_drive=True)
    setup = table(rules)
    mex = Train(owner=None, lines=(((6, 3),),), starts=(6,))
    base = prepared(setup)
    trains = base.trains[:-1] + (mex,)
    state = prepared(
        setup,
        hands=(((1, 6), (3, 5), (2, 2)), ((0, 0), (4, 4))),
        trains=trains,
        mexican_starter=0,
        boneyard=((4, 5),),
    )
    app = game_app(setup, state=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        while board(app).selected != (1, 6):
            await pilot.press("right")
        await pilot.press("1", "enter")
        await pilot.pause()
        assert app.snapshot.phase == "swan"
        b = board(app)
        assert b.can("skip") and b.can("pass")
        assert app.screen.check_action("skip", ()) is True
        status = app.game_screen.query_one(StatusLine)
        assert str(status.render()).splitlines()[0].endswith(said)
        assert status.tooltip is None  # nothing was cut
        await pilot.press("g")
        await pilot.pause()
        assert [e.type for e in app.snapshot.events][:2] == ["play", "skip"]


async def test_m_passes_in_a_swan_drive():
    rules = RuleSet(set=6, rounds=1, swan_drive=True)
    setup = table(rules)
    mex = Train(owner=None, lines=(((6, 3),),), starts=(6,))
    base = prepared(setup)
    state = prepared(
        setup,
        hands=(((1, 6), (3, 5), (2, 2)), ((0, 0), (4, 4))),
        trains=base.trains[:-1] + (mex,),
        mexican_starter=0,
        boneyard=((4, 5),),
    )
    app = game_app(setup, state=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        while board(app).selected != (1, 6):
            await pilot.press("right")
        await pilot.press("1", "enter")
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        types = [e.type for e in app.snapshot.events]
        assert types[:2] == ["play", "pass"]


async def test_f_flips_a_blank_tile_with_blanks_wild():
    rules = RuleSet(set=6, rounds=1, blanks_wild=True)
    setup = table(rules)
    state = prepared(setup, hands=(((0, 6), (1, 2)), ((3, 3), (4, 4))))
    app = game_app(setup, state=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        while board(app).selected != (0, 6):
            await pilot.press("right")
        await pilot.press("1")
        assert len(board(app).options()) == 2
        first = board(app).play().tile
        await pilot.press("f")
        flipped = board(app).play().tile
        assert flipped == (first[1], first[0])
        await pilot.press("enter")
        await pilot.pause()
        assert app.snapshot.trains[0].lines[0][0] == flipped


async def test_o_toggles_the_plain_sort():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        planned = board(app).tray
        await pilot.press("o")
        assert board(app).plain and board(app).plan_len == 0
        assert sorted(map(canon, board(app).tray)) == sorted(map(canon, planned))
        await pilot.press("o")
        assert not board(app).plain and board(app).tray == planned


async def test_score_sheet_help_and_quit_keys():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        assert isinstance(app.screen, ScoreScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("f1")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("n")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q", "y")
        await pilot.pause()
    assert app.return_code == 0


async def test_ctrl_q_asks_like_q_while_a_game_runs_even_over_a_dialog():
    """docs/keys.md: ctrl+q is q from any screen (a priority binding): over the score sheet
    it asks too, and it does not stack a second question."""
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s", "ctrl+q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("ctrl+q")
        assert [type(s) for s in app.screen_stack].count(QuitScreen) == 1
        await pilot.press("n")
        assert isinstance(app.screen, ScoreScreen)
        await pilot.press("ctrl+q", "y")
        await pilot.pause()
    assert app.return_code == 0


async def test_mouse_click_selects_a_tile_and_plays_on_a_train():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tray = app.screen.query_one(HandTray)
        line, x0 = tray.tile_at((0, 6))
        await pilot.click(HandTray, offset=(x0 + 1 + 2, line))  # padding 1
        assert board(app).selected == (0, 6)
        rows = app.screen.query_one(TrainRows)
        mex_row = rows.row_of(2, 0)
        await pilot.click(TrainRows, offset=(5, mex_row))
        await settle(pilot)
        assert app.snapshot.events[0].train == "mexican"


async def test_resizing_down_to_40x12_never_crashes():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for size in ((40, 12), (120, 40), (30, 8), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
        await pilot.press("s")
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        await pilot.press("escape", "question_mark")
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        await pilot.press("escape", "q")
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)


async def test_command_palette_offers_game_commands():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for title in ("New game", "Score sheet", "Rules and keys", "Theme"):
            assert title in titles


async def ask_tip(pilot, key: str = "n") -> None:
    """Press the tip key and wait until the coach's answer is on the board."""
    await pilot.press(key)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("key", ["n", "t"])
async def test_n_or_t_gives_a_tip_and_selects_that_move(key):
    app = game_app()
    app.hint_time = 0  # the planner's instant advice
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.check_action("hint", ()) is True
        await ask_tip(pilot, key)
        b = board(app)
        panel = app.screen.query_one(TipPanel)
        assert b.tip is not None and panel.render().plain.endswith("— press Enter to play it"), b.tip
        assert panel.display  # shown at the top of the log's column
        assert b.play() in b.plays  # the suggested move is selected, ready for Enter


async def test_the_tip_covers_the_move_log_not_the_hub():
    """With 8 players at 80 columns the hub is wide: the tip keeps to the log beside it."""
    from mexitrain.ui.widgets import MoveLog, StationHub

    app = game_app(table(RuleSet(set=12, rounds=1), kinds=("human",) + ("random",) * 7,
                         names=("You", "Bea", "Cal", "Dot", "Eli", "Fay", "Gus", "Hal")))
    app.hint_time = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await ask_tip(pilot)
        panel, log, hub = (app.screen.query_one(w) for w in (TipPanel, MoveLog, StationHub))
        assert panel.display and panel.region.width > 0
        assert panel.region.x >= log.region.x >= hub.region.right
        assert panel.region.right <= log.region.right


async def test_the_tip_panel_grows_with_its_text_whatever_it_showed_before():
    """A long tip after short ones at the same width is shown whole (Textual caches a
    widget's height by width alone: the panel once kept the height of "Thinking…")."""
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(TipPanel)
        long = "Keeps your train private; sheds 12-6 on Bea's train — press Enter to play it"
        heights = []
        for tip in (long, None, "Thinking about a tip…", "Thinking again…", long):
            app.screen.board = replace(board(app), tip=tip)
            await pilot.pause()
            await pilot.pause()
            heights.append(panel.size.height)
        fresh, hidden, short, _, again = heights
        assert hidden == 0 and short == 2  # "Tip" and one line
        assert fresh > short and again == fresh


async def test_a_tip_is_gone_once_its_move_is_played():
    """A tip is about one decision: after it, the panel no longer names a tile you played."""
    app = game_app()
    app.hint_time = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await ask_tip(pilot)
        panel = app.screen.query_one(TipPanel)
        assert board(app).tip is not None and panel.display
        await pilot.press("s")  # a dialog over the game changes nothing: the tip is still there
        await pilot.press("escape")
        await pilot.pause()
        assert board(app).tip is not None and panel.display
        await pilot.press("enter")  # play it
        await settle(pilot)
        assert board(app).tip is None
        assert not panel.display


@pytest.mark.parametrize(
    ("kind", "key"), [("draw", "press d to draw"), ("mark", "press m to place your marker"),
                      ("pass", "press m to pass"), ("skip", "press g to skip the Mexican Train")]
)
async def test_a_tip_that_is_not_a_play_names_its_key(monkeypatch, kind, key):
    """Enter plays a suggested tile; a tip to draw, mark, pass or skip says which key does it."""
    from mexitrain.rules import DRAW, MARK, PASS, SKIP
    from mexitrain.ui.screens import game as game_screen

    action = {"draw": DRAW, "mark": MARK, "pass": PASS, "skip": SKIP}[kind]
    asked = []

    def coach(view, **options):
        asked.append(options)
        return action, "the coach's reason"

    monkeypatch.setattr(game_screen, "_hint", coach)
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = board(app)
        await ask_tip(pilot)
        assert board(app).tip == f"the coach's reason — {key}"
        assert board(app).view == before.view  # a tip only tells: nothing was played
        assert asked[-1]["names"] == before.names  # "Bea is down to 1 tile", not "seat 2"


async def test_a_selection_key_repaints_only_what_shows_the_selection(monkeypatch):
    # the hub and the status line do not show the selection: redrawing them on every
    # arrow key only slows the answer to the key (docs/performance.md: key -> redrawn screen)
    from mexitrain.ui.widgets import StationHub, StatusLine

    renders: dict[str, int] = {}

    def counting(cls):
        original = cls.render

        def render(self):
            renders[cls.__name__] = renders.get(cls.__name__, 0) + 1
            return original(self)

        monkeypatch.setattr(cls, "render", render)

    for cls in (StationHub, StatusLine, HandTray):
        counting(cls)
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause()
        before = dict(renders)
        selected = board(app).selected
        await pilot.press("right")
        await pilot.pause()
        assert board(app).selected != selected
        assert renders["HandTray"] > before["HandTray"]
        assert renders["StationHub"] == before["StationHub"] and renders["StatusLine"] == before["StatusLine"]
        state = app.snapshot
        await pilot.press("left")  # back to the preselected playable tile
        await human_move(pilot)  # a move: the hub and the status line show the new position
        await settle(pilot)
        await pilot.pause()
        assert app.snapshot is not state
        assert renders["StationHub"] > before["StationHub"] and renders["StatusLine"] > before["StatusLine"]


async def test_notices_about_the_play_take_each_others_place_instead_of_piling_up():
    """Late in a round a turn that ended by itself and two knocks (§5.4) came at once: three
    toasts stacked over the board. Each notice about the play now replaces the one before;
    the status line still names both knocks, and other notices stay."""
    setup = table(kinds=("human", "planner", "planner"))
    # nothing fits the empty trains (engine 6), nor the tile drawn; Bea and Cal each play one
    state = prepared(
        setup,
        hands=(((1, 2), (2, 3)), ((0, 6), (0, 1)), ((5, 6), (4, 5))),
        boneyard=((3, 4), (1, 1), (2, 2)),
        turn=0,
    )
    app = game_app(setup, state=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.notify("kept", title="Other")
        await pilot.press("d")
        await wait_for(pilot, lambda: app.snapshot.hand_sizes[1:] == (1, 1), "two knocks")
        await settle(pilot)
        await wait_for(pilot, lambda: any(n.title == "Knock" for n in notices(app)), "a knock notice")
        shown = [(n.title, n.message) for n in notices(app)]
        assert shown == [("Other", "kept"), ("Knock", "Knock! Cal has one tile left")]
        from mexitrain.ui.widgets import StatusLine

        assert "KNOCK! Bea and Cal have one tile left each" in str(app.screen.query_one(StatusLine).render())


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_the_quit_question_shows_its_whole_explanation(size):
    """The line under "Quit this game?" wraps in the 44-column box: its second line
    ("game.") was cut off, the label keeping the height of one line."""
    import re

    from .test_french import screen_text

    app = game_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.pause()
        shown = re.sub(r"[\s│]+", " ", screen_text(app))
        assert "y quits now, n (or Esc) goes back to the game." in shown
