"""Never lose a game (issue 5) in the app: autosave and resume, save as / load, undo, the replay
viewer, statistics and ``--load``. Every test uses the temporary data directory of conftest."""

from __future__ import annotations

import os
import re
import sys
import types
from pathlib import Path

import pytest
from support.games import finished_game
from support.pilot import (
    game_app,
    human_move,
    play_until_screen_changes,
    settle,
    to_the_final_standings,
    wait_for,
)
from support.tables import table
from textual.widgets import OptionList, Static

from mexitrain.cli import main
from mexitrain.rules import RuleSet, new_game, view
from mexitrain.storage import autosave_path, load_game, load_save, save_game
from mexitrain.text.events import event_line
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import GameScreen, NewGameScreen
from mexitrain.ui.screens.replay import ReplayScreen, snapshots, step_line
from mexitrain.ui.screens.saves import LoadScreen, ResumeScreen, SaveAsScreen, StatsScreen
from mexitrain.ui.textual_compat import notices
from mexitrain.ui.widgets import HandTray
from mexitrain.ui.widgets.log import log_lines


def root() -> Path:
    return Path(os.environ["MEXITRAIN_DATA_DIR"])


async def test_autosave_after_a_move_loads_to_the_same_snapshot():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await human_move(pilot)
        app.saver.flush()
        path = app.saver.path  # this game's own autosave (issue 21)
        assert path is not None and path.parent == root() / "autosaves" and path.is_file()
        setup, state = load_game(path)
        assert state == app.snapshot
        assert setup == app.session.setup


async def test_a_killed_game_is_offered_again_and_resumes_the_identical_snapshot():
    first = game_app(table(seed=5))
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(3):
            await human_move(pilot)
        first.saver.flush()  # the last action is on disk; nothing is written at exit from here on
        first.saver.close = lambda: None  # type: ignore[method-assign]
        seen = first.snapshot
        # no quit action: the session simply ends (as if the terminal were closed)
    second = MexitrainApp(None, speed=0)
    async with second.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(second.screen, ResumeScreen)
        button = second.screen.query_one("#resume-yes")
        assert "round 1 of 1" in str(button.label)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(second.screen, GameScreen)
        assert second.snapshot == seen


async def test_a_bad_autosave_is_reported_moved_aside_and_the_app_goes_on():
    path = autosave_path(root())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"format": "mexitrain-save", "version": 1, "app":')
    app = MexitrainApp(None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        messages = [n.message for n in notices(app)]
        assert any("cannot load" in m and "autosave.json" in m and "moved to" in m for m in messages)
    assert not path.exists()
    assert (root() / "autosave.bad-1.json").is_file()


async def test_save_as_then_load_from_the_new_game_form():
    bad = root() / "saves" / "broken.json"
    app = game_app(table(seed=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await human_move(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SaveAsScreen)
        await pilot.press(*"sunday", "enter")
        await pilot.pause()
        saved = app.snapshot
        assert (root() / "saves" / "sunday.json").is_file()
        assert load_game(root() / "saves" / "sunday.json")[1] == saved
    bad.write_text("not json at all")
    app = MexitrainApp(None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if isinstance(app.screen, ResumeScreen):  # the autosave of the game above
            await pilot.press("n")
            await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        await wait_for(pilot, lambda: not app.screen.reading, "the saves listed (a worker thread)")
        options = app.screen.query_one(OptionList)
        texts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any("sunday" in t and "round 1 of 1" in t for t in texts)
        assert any("broken.json" in t and "cannot load" in t for t in texts)
        index = next(i for i, t in enumerate(texts) if "sunday" in t)
        options.highlighted = index
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.snapshot == saved
    assert bad.read_text() == "not json at all"


async def test_a_finished_game_is_saved_from_the_game_over_screen_and_opens_in_the_replay_viewer():
    """Ctrl+S on the final standings keeps the game (its autosave is gone by then): Load…
    opens it in the replay viewer, and ``mexitrain review`` reads it."""
    from mexitrain.ui.screens import GameOverScreen

    app = MexitrainApp(table(RuleSet(set=6, rounds=1), seed=5, kinds=("random", "random")), speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_final_standings(pilot)
        assert app.check_action("save_as", ()) is True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SaveAsScreen)
        await pilot.press(*"final", "enter")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        final, setup = app.snapshot, app.session.setup
    game = load_save(root() / "saves" / "final.json")
    assert game.state.over and game.state == final and game.setup == setup
    assert main(["review", str(root() / "saves" / "final.json"), "--budget", "2"]) == 0
    app = MexitrainApp(None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        options = await _load_dialog(pilot)
        index = next(i for i in range(options.option_count) if "final" in str(options.get_option_at_index(i).prompt))
        options.highlighted = index
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.game.state == final


async def _load_dialog(pilot) -> OptionList:
    """Ctrl+O on the new-game screen, once the saves are listed: the list."""
    app = pilot.app
    await pilot.pause()
    await pilot.press("ctrl+o")
    await wait_for(pilot, lambda: isinstance(app.screen, LoadScreen) and not app.screen.reading, "the saves listed")
    return app.screen.query_one(OptionList)


async def test_enter_alone_loads_the_first_listed_save():
    """"↑↓ choose, Enter loads": the first save listed (the newest) is chosen from the start;
    a file that cannot be loaded is listed after the others, and never chosen."""
    (root() / "saves").mkdir(parents=True, exist_ok=True)
    (root() / "saves" / "broken.json").write_text("{")
    app = MexitrainApp(None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        listing = await _load_dialog(pilot)
        assert listing.option_count == 1 and listing.highlighted is None  # nothing to load
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LoadScreen)
        await pilot.press("escape")
    setup = table(seed=6)
    state = new_game(setup.rules, players=setup.players, seed=setup.seed)
    save_game(root() / "saves" / "sunday.json", state, setup, name="sunday")
    app = MexitrainApp(None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        listing = await _load_dialog(pilot)
        prompts = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert "sunday" in prompts[0] and "broken.json" in prompts[1]
        assert listing.highlighted == 0
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.snapshot == state


async def test_undo_after_a_move_restores_the_earlier_snapshot():
    app = game_app(table(seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.check_action("undo", ()) is None  # nothing to undo yet: shown, dimmed
        before = app.snapshot
        await pilot.press("enter")
        await settle(pilot)
        assert app.snapshot != before
        assert app.check_action("undo", ()) is True
        await pilot.press("u")
        await settle(pilot)
        assert app.snapshot == before
        app.saver.flush()
        assert load_game(app.saver.path)[1] == before


async def test_undo_is_refused_past_a_draw_and_the_footer_says_why():
    app = game_app(table(rules=RuleSet(set=6, rounds=1), seed=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(60):
            ok, why = app.undo_state()
            if not ok and "drew" in why:
                break
            assert isinstance(app.screen, GameScreen), "the round ended before a draw"
            await human_move(pilot)
        else:
            raise AssertionError("never refused past a draw")
        assert app.check_action("undo", ()) is None
        screen = app.screen
        active = screen.active_bindings["u"]
        assert active.binding.action == "app.undo" and not active.enabled
        assert "drew" in active.tooltip and "hidden tile" in active.tooltip
        state = app.snapshot
        await pilot.press("u")
        await pilot.pause()
        assert app.snapshot == state
        assert any("hidden tile" in n.message for n in notices(app))


async def test_undo_is_off_with_several_people_unless_allowed():
    setup = table(seed=3, kinds=("human", "human"))
    app = game_app(setup)
    async with app.run_test(size=(80, 24)):
        ok, why = app.undo_state()
        assert not ok and "several people" in why
    app = game_app(setup.model_copy(update={"undo_with_several": True}))
    async with app.run_test(size=(80, 24)):
        ok, why = app.undo_state()
        assert "several people" not in why


async def test_replay_viewer_steps_through_a_finished_game(tmp_path: Path):
    setup, final = finished_game(RuleSet(set=6, rounds=2))
    path = save_game(tmp_path / "done.json", final, setup)
    app = MexitrainApp(None, speed=0, replay=load_save(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        last = len(screen.states) - 1
        assert last == sum(len(r.events) for r in final.results)
        assert screen.step == 0 and screen.state == new_game(setup.rules, players=2, seed=4)
        # a key that would go past an end says so (it did nothing, silently)
        for key in ("left", "home", "pageup"):
            app.clear_notifications()
            await pilot.press(key)
            await pilot.pause()
            assert [n.message for n in notices(app)] == ["This is the deal: nothing comes before it."]
        await pilot.press("end", "right")
        await pilot.pause()
        assert [n.message for n in notices(app)][-1] == "This is the last move: nothing comes after it."
        await pilot.press("home")
        app.clear_notifications()
        await pilot.press("right", "right")
        assert screen.step == 2
        await pilot.press("left")
        assert screen.step == 1
        await pilot.press("end")
        assert screen.step == last and screen.state == final
        await pilot.press("home")
        assert screen.step == 0
        await pilot.press("pagedown")
        assert screen.state.round == 2 and screen.states[screen.step - 1].round == 1
        await pilot.press("pageup")
        assert screen.step == 0
        # every hand face up: the tray and the other hands together hold every hand
        board = screen.board
        assert board is not None and all(h is not None for h in board.view.hands)
        status = str(screen.query_one("#replay-status", Static).render())
        assert "round 1 of 2" in status and "the deal" in status
        await pilot.press("right")
        status = str(screen.query_one("#replay-status", Static).render())
        assert step_line(screen.states, screen.events, 1, screen.names, screen.you) in status
        # one wording with the move log (text.events.event_line), for every step, round ends too
        for i in range(1, last + 1):
            line = step_line(screen.states, screen.events, i, screen.names, screen.you)
            assert re.search(r"\b(played|drew|placed|passed|skipped)\b", line), line
            after = screen.states[i]
            if len(after.results) == len(screen.states[i - 1].results):  # not a round's last move
                told = view(after, 0).model_copy(update={"hands": after.hands, "events": after.events})
                assert line == event_line(told, screen.names, len(after.events) - 1, viewer=screen.you)
        assert screen.you == 0  # the seat named "You" is "you", as in step_line()
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_replay_viewer_tells_the_game_by_names_never_as_you(tmp_path: Path):
    # a replay has no "you": not the seat to move, nor the one who started, nor a human seat
    setup, final = finished_game(RuleSet(set=6, rounds=2))
    setup = setup.model_copy(update={"seats": tuple(s.model_copy(update={"name": n}) for s, n in zip(setup.seats, ("Ann", "Bea"), strict=True))})
    app = MexitrainApp(None, speed=0, replay=load_save(save_game(tmp_path / "named.json", final, setup)))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        seen_starts = set()
        for _ in range(len(screen.states) - 1):
            await pilot.press("right")
            board = screen.board
            assert board is not None and board.viewer is None and screen.you is None
            log = "\n".join(log_lines(board)).lower()
            tray = screen.query_one(HandTray).header().lower()
            for text in (log, tray):
                assert "you" not in text and "your" not in text, text
            seen_starts.add(board.view.first_seat)
            if board.view.first_seat == board.view.seat:  # the "you start" case of a live game
                assert ("ann starts" if board.view.first_seat == 0 else "bea starts") in log
        assert seen_starts == {0, 1}  # both rounds, each seat starting one
        await pilot.press("q")


async def test_statistics_screen_shows_a_finished_game():
    setup, final = finished_game(RuleSet(set=6, rounds=1))
    states, _events = snapshots(load_save(save_game(root() / "whole.json", final, setup)))
    near_end = next(s for s in reversed(states[:-3]) if s.turn == 0 and not s.over)  # a few moves left
    app = game_app(setup, state=near_end)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until_screen_changes(pilot)
        assert app.snapshot.over
        app.action_stats()
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        text = str(app.screen.query_one("#stats-text", Static).render())
        assert "You" in text and "all games" in text
        lines = text.splitlines()  # a line each, as format_stats made them (they showed as ␊)
        assert "␊" not in text and lines[0] == "You" and lines[2].split()[:2] == ["all", "games"]
        app.saver.flush()
        assert not list((root() / "autosaves").glob("*.json"))  # a finished game is not offered again


def _fake_ui(calls: list) -> types.ModuleType:
    module = types.ModuleType("mexitrain.ui.app")
    module.run = lambda setup, speed, **kw: calls.append((setup, speed, kw))  # type: ignore[attr-defined]
    return module


def test_play_load_a_bad_file_is_one_line_and_exit_2(monkeypatch, capsys, tmp_path: Path):
    calls: list = []
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", _fake_ui(calls))
    bad = tmp_path / "game.json"
    bad.write_text('{"format": "chess"}')
    assert main(["--load", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and "not a mexitrain saved game" in err and "Traceback" not in err
    assert bad.read_text() == '{"format": "chess"}' and not calls


def test_play_load_and_replay_pass_the_game_to_the_app(monkeypatch, tmp_path: Path):
    calls: list = []
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", _fake_ui(calls))
    setup, final = finished_game(RuleSet(set=6, rounds=1))
    path = save_game(tmp_path / "g.json", final, setup)
    assert main(["--load", str(path), "--data-dir", str(tmp_path)]) == 0
    assert main(["--replay", str(path)]) == 0
    (s1, _, kw1), (s2, _, kw2) = calls
    assert s1 is None and kw1["load"].state == final and kw1["data_dir"] == str(tmp_path)
    assert s2 is None and kw2["replay"].state == final


@pytest.mark.parametrize("args", [["--load"], ["--replay"]])
def test_play_missing_file(monkeypatch, capsys, tmp_path: Path, args: list[str]):
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", _fake_ui([]))
    missing = tmp_path / "nope.json"
    assert main([*args, str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(missing) in err


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
async def test_kill_9_in_a_real_terminal_then_resume_finds_the_same_game(tmp_path: Path):
    """``mexitrain`` in a pseudo-terminal, a few keys, ``kill -9``: the next start offers the game."""
    import fcntl
    import select
    import signal
    import struct
    import subprocess
    import termios
    import time

    data = tmp_path / "data"

    def autosave_file() -> Path:  # the game's own autosave (issue 21), once it exists
        found = sorted((data / "autosaves").glob("*.json"))
        return found[0] if found else data / "autosaves" / "none.json"

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    cmd = [sys.executable, "-m", "mexitrain", "--data-dir", str(data), "--players", "2", "--seed", "5", "--speed", "0"]
    proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)

    def events_saved() -> int:
        try:
            state = load_game(autosave_file())[1]
        except Exception:
            return -1
        return sum(len(r.events) for r in state.results) + len(state.events)

    def wait_for(condition, limit: float = 30.0) -> bool:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if condition():
                return True
            ready, _, _ = select.select([master], [], [], 0.05)  # drain the screen output meanwhile
            if ready:
                try:
                    os.read(master, 65536)
                except OSError:
                    return condition()
        return condition()

    def mine() -> int:
        try:
            state = load_game(autosave_file())[1]
        except Exception:
            return -1
        return sum(e.seat == 0 for r in (*state.results, state) for e in r.events)

    try:
        assert wait_for(lambda: events_saved() >= 0), "no autosave after the start"
        assert mine() == 0
        for _ in range(8):
            if mine() >= 2:
                break
            before = mine()
            for key in (b"\r", b"d", b"\r", b"m"):  # place, else draw (and place it), else end the turn
                os.write(master, key)
                if wait_for(lambda b=before: mine() > b, 5.0):
                    break
        assert mine() >= 2, "the keys sent did not move"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(master)
    setup, state = load_game(autosave_file())
    app = MexitrainApp(None, speed=0, data_dir=data)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press("r")
        await pilot.pause()
        assert app.session.setup == setup
        # the computer player may already have moved on from the saved snapshot
        now = app.snapshot
        assert now == state or (now.results == state.results and now.events[: len(state.events)] == state.events)


async def test_save_as_an_existing_name_asks_and_enter_again_replaces():
    app = game_app(table(seed=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s", *"game", "enter")
        await pilot.pause()
        first = load_game(root() / "saves" / "game.json")[1]
        await human_move(pilot)
        await pilot.press("ctrl+s", *"game", "enter")
        await pilot.pause()
        assert isinstance(app.screen, SaveAsScreen)
        assert "exists" in str(app.screen.query_one("#save-problem", Static).render())
        assert load_game(root() / "saves" / "game.json")[1] == first  # not replaced yet
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert load_game(root() / "saves" / "game.json")[1] == app.snapshot


async def test_a_bad_file_opened_in_the_app_is_one_message_and_the_app_goes_on(tmp_path: Path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format": "mexitrain-save", "version": 99}')
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        state = app.snapshot
        assert app.load_file(bad) is False
        await pilot.pause()
        assert app.snapshot == state and isinstance(app.screen, GameScreen)
        assert any(str(bad) in n.message and "newer" in n.message for n in notices(app))
    assert bad.read_bytes() == b'{"format": "mexitrain-save", "version": 99}'


async def test_an_autosave_the_disk_refuses_is_reported_and_the_game_goes_on(tmp_path: Path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the data folder should be")
    app = MexitrainApp(table(), speed=0, data_dir=blocked)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await human_move(pilot)
        app.saver.flush()
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert any("cannot save" in n.message for n in notices(app))


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24")])
def test_replay_viewer_snapshot(snap_compare, tmp_path: Path, size):
    setup, final = finished_game(RuleSet(set=6, rounds=2))
    path = save_game(tmp_path / "done.json", final, setup, name="Sunday")
    app = MexitrainApp(None, speed=0, replay=load_save(path))

    async def run_before(pilot) -> None:
        await pilot.press(*["right"] * 9)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


async def test_palette_offers_save_load_replay_and_statistics():
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for title in ("Save game as…", "Load a saved game…", "Open replay…", "Statistics"):
            assert title in titles
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Statistics")
        command.callback()
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        assert "No finished games yet" in str(app.screen.query_one("#stats-text", Static).render())


async def test_open_replay_goes_up_a_folder_with_backspace(tmp_path: Path):
    """Backspace in the folder tree shows the folder above (the footer names the key); in the
    path box it still edits the path."""
    from textual.widgets import DirectoryTree, Input

    from mexitrain.ui.screens.saves import FileScreen

    records = tmp_path / "records"
    records.mkdir()
    (tmp_path / "game-0.json").write_text("{}")
    app = game_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await app.push_screen(FileScreen("Open replay…", str(records) + "/"))
        screen = app.screen
        tree = screen.query_one(DirectoryTree)
        box = screen.query_one("#file-path", Input)
        assert Path(tree.path) == records
        await pilot.press("backspace")  # the path box has the focus: the key edits the text
        assert box.value != str(records) + "/"
        assert Path(tree.path) == records
        tree.focus()
        await pilot.pause()
        assert "Up a folder" in footer_text(screen)
        await pilot.press("backspace")
        await wait_for(pilot, lambda: Path(tree.path) == tmp_path, "the folder above")
        await wait_for(
            pilot,
            lambda: "game-0.json" in [node.label.plain for node in tree.root.children],
            "its files listed",
        )
        assert tree.check_action("parent", ()) is True
        tree.path = Path(tree.path).anchor  # the top of the file system: the key is dimmed
        assert tree.check_action("parent", ()) is None


async def test_open_replay_fits_80x24_with_a_full_folder(tmp_path: Path):
    """At 80x24 a folder of many games fills the list and the help line still shows below it."""
    from textual.widgets import DirectoryTree

    from mexitrain.ui.screens.saves import FileScreen

    for i in range(20):
        (tmp_path / f"game-{i:02}.json").write_text("{}")
    app = game_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await app.push_screen(FileScreen("Open replay…", str(tmp_path) + "/"))
        tree = app.screen.query_one(DirectoryTree)
        await wait_for(
            pilot,
            lambda: sum(n.label.plain.startswith("game-") for n in tree.root.children) == 20,
            "the folder listed",
        )
        await pilot.pause()
        note = app.screen.query_one("#file-box .note")
        box = app.screen.query_one("#file-box")
        assert tree.region.height >= 10
        assert note.region.height == 3 and note.region.bottom <= box.region.bottom - 1
        assert box.region.bottom <= 23  # above the footer


def footer_text(screen) -> str:
    from textual.widgets import Footer

    footer = screen.query_one(Footer)
    return " ".join(str(key.description) for key in footer.query("FooterKey"))


async def test_open_replay_picks_a_record_from_a_folder_tree(tmp_path: Path):
    from textual.widgets import DirectoryTree, Input

    from mexitrain.ui.screens.replay import ReplayScreen as Replay
    from mexitrain.ui.screens.saves import FileScreen

    setup, final = finished_game(RuleSet(set=6, rounds=1))
    records = tmp_path / "records"
    records.mkdir()
    save_game(records / "game-1.json", final, setup)
    (records / "notes.txt").write_text("not a game")
    (records / ".hidden.json").write_text("{}")
    app = game_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        chosen: list = []
        await app.push_screen(FileScreen("Open replay…", str(tmp_path / "nowhere" / "x.json")), chosen.append)
        screen = app.screen
        tree = screen.query_one(DirectoryTree)
        assert Path(tree.path) == tmp_path  # the nearest folder that exists
        # a folder typed and Enter: the tree shows that folder's games, not its other files
        box = screen.query_one("#file-path", Input)
        box.value = str(records)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(tree.root.children) == 1, "the records folder listed")
        assert [node.label.plain for node in tree.root.children] == ["game-1.json"]
        assert tree.has_focus
        await pilot.press("down", "enter")  # the cursor starts on the root: down to the file
        await wait_for(pilot, lambda: chosen, "a file chosen")
        assert chosen == [records / "game-1.json"]
    # through the palette's command, the chosen file opens in the replay viewer
    app = game_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.action_open_replay()
        await pilot.pause()
        box = app.screen.query_one("#file-path", Input)
        box.value = str(records / "game-1.json")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, Replay), "the replay viewer")


# -- the theme, a preference ------------------------------------------------------------------
async def test_the_theme_chosen_is_kept_for_the_next_game(tmp_path):
    """The palette's Theme command changes App.theme: it is saved, and the next start uses it."""
    from mexitrain.storage import settings

    app = game_app(data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert settings.load(tmp_path).get("theme") is None  # starting saves nothing
        app.theme = "nord"
        await pilot.pause()
    assert settings.load(tmp_path)["theme"] == "nord"
    again = game_app(data_dir=tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == "nord"


async def test_an_unknown_saved_theme_is_ignored_and_a_failed_save_is_said(tmp_path, monkeypatch):
    from mexitrain.storage import settings

    settings.save(tmp_path, theme="no-such-theme")
    app = game_app(data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark"

        def refuse(*args, **kwargs):
            raise PermissionError(13, "Permission denied", str(tmp_path / "settings.json"))

        monkeypatch.setattr(settings, "save", refuse)
        app.theme = "nord"
        await pilot.pause()
        said = [(n.title, n.severity) for n in notices(app)]
        assert ("The theme could not be saved", "warning") in said
