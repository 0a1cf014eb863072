"""Issue 21, the last storage edges in the app: Load… opens at once and lists the saves from a
worker thread (their heads only); a data folder that refuses autosaves is notified once and
then said by the status line on every move until saving works again; resuming an autosave takes
its lock first and reads it again, so a game another window took or ended since the offer was
shown is never resumed stale."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from support.games import play_first, start
from support.pilot import game_app, human_move, settle, wait_for
from support.tables import table
from textual.widgets import Button, OptionList

from mexitrain.rules import GameState
from mexitrain.storage import (
    atomic,
    autosave,
    autosaves,
    game_autosave_path,
    load_game,
    locks,
    save_named,
)
from mexitrain.storage import saves as saves_mod
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import GameScreen, NewGameScreen
from mexitrain.ui.screens import saves as saves_screens
from mexitrain.ui.screens.saves import LoadScreen, ResumeScreen
from mexitrain.ui.textual_compat import notices
from mexitrain.ui.widgets import StatusLine


# -- Load… ----------------------------------------------------------------------------------------
async def test_load_opens_at_once_and_lists_big_saves_from_a_worker(tmp_path: Path, monkeypatch) -> None:
    setup = table(seed=7)
    state = play_first(start(setup), 4)
    good = save_named(tmp_path, "big", state, setup)
    body = good.read_text(encoding="utf-8").rstrip()
    for i in range(3):  # 8 MB each, valid saves (JSON whitespace after the record)
        (good.parent / f"big-{i}.json").write_text(body[:-1] + " " * (8 * 2**20) + "}\n", encoding="utf-8")
    text = good.read_text(encoding="utf-8")
    tail = text.index('"rounds"', text.index('"record"'))
    damaged = good.parent / "damaged.json"  # its head is fine, its record is not
    damaged.write_text(text[:tail] + '"rounds": [[[ cut here', encoding="utf-8")
    getattr(saves_mod, "_LISTED", {}).clear()  # listed afresh

    gate = threading.Event()
    threads: list[threading.Thread] = []
    real = saves_mod.list_saves

    def slow_listing(root):
        threads.append(threading.current_thread())
        gate.wait(timeout=5)  # held until the test has seen the dialog open
        return real(root)

    monkeypatch.setattr(saves_screens, "list_saves", slow_listing, raising=False)  # what the dialog calls
    app = MexitrainApp(None, speed=0, data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, LoadScreen), "the Load… dialog")
        screen = app.screen
        assert screen.reading and not gate.is_set()  # open while the listing runs
        assert "Reading saved games" in str(screen.query_one("#load-reading").render())
        assert threads and threads[0] is not threading.main_thread()
        gate.set()
        await wait_for(pilot, lambda: not screen.reading, "the listing done")
        options = screen.query_one(OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert len(prompts) == 5 and not any("cannot load" in p for p in prompts), prompts
        index = next(i for i, info in enumerate(screen.saves) if info.path == damaged)
        options.highlighted = index
        await pilot.press("enter")
        await pilot.pause()
        # chosen, the damaged record is found: one line, and the app goes on
        errors = [n for n in notices(app) if n.severity == "error"]
        assert len(errors) == 1 and "damaged.json" in errors[0].message
        assert not isinstance(app.screen, GameScreen)
    assert damaged.read_text(encoding="utf-8").endswith("cut here")


# -- a folder that refuses autosaves ------------------------------------------------------------------
def _status_text(app) -> str:
    return app.game_screen.query_one(StatusLine).render().plain


async def test_a_failing_autosave_is_notified_once_and_said_by_the_status_on_every_move(monkeypatch) -> None:
    refuse = threading.Event()
    refuse.set()
    real = atomic.write_text

    def write_text(path, text, *args, **kwargs):
        if refuse.is_set():
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real(path, text, *args, **kwargs)

    monkeypatch.setattr(atomic, "write_text", write_text)
    app = game_app(table(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        moves = 0
        while moves < 4 and not app.snapshot.over and isinstance(app.screen, GameScreen):
            await human_move(pilot)
            app.saver.flush()
            await wait_for(pilot, lambda: "not saving: the disk is read-only" in _status_text(app), "the status says it")
            moves += 1
        assert moves >= 2
        saving = [n for n in notices(app) if n.title == "Saving"]
        assert len(saving) == 1 and "read-only" in saving[0].message
        second = _status_text(app).split("\n")[1]
        assert second.rstrip().endswith("not saving: the disk is read-only")  # the counts are kept too
        assert "boneyard" in second or "bone" in second
        refuse.clear()  # the disk works again: the next write clears the mark
        app.saver.submit(app.snapshot, app.session.setup, app.speed)
        app.saver.flush()
        await wait_for(pilot, lambda: "not saving" not in _status_text(app), "the mark gone")
        assert app.saver.failing is None
        assert len([n for n in notices(app) if n.title == "Saving"]) == 1


# -- two windows at resume -------------------------------------------------------------------------------
def _autosave(root: Path, game_id: str, seed: int, minutes_ago: int, steps: int = 3) -> tuple[Path, GameState]:
    setup = table(seed=seed)
    path = game_autosave_path(root, game_id)
    state = play_first(start(setup), steps)
    autosave(state, setup, root, path=path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["app"]["saved_at"] = (datetime.now(UTC) - timedelta(minutes=minutes_ago)).replace(microsecond=0).isoformat()
    path.write_text(json.dumps(data), encoding="utf-8")
    autosaves.forget_known_good()
    return path, state


async def test_a_game_another_window_locks_after_the_offer_is_not_resumed(tmp_path: Path) -> None:
    first, _ = _autosave(tmp_path, "first", seed=51, minutes_ago=1)
    second, _ = _autosave(tmp_path, "second", seed=52, minutes_ago=9)
    app = MexitrainApp(None, speed=0, data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        assert [u.path for u in app.screen.entries] == [first, second]
        before = first.read_bytes()
        fd = os.open(locks.lock_path(first), os.O_RDWR | os.O_CREAT)  # "another window" resumes it now
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ResumeScreen) and app.screen.entries[0].path == second,
                           "the offer again, without the game taken")
            warnings = [n for n in notices(app) if n.severity == "warning"]
            assert [n.message for n in warnings] == ["That game is open in another window"]
            assert not locks.held_here(first)
            assert "1 unfinished game is open in another window" in str(app.screen.query_one("#resume-busy").render())
            app.screen.query_one("#resume-yes", Button).focus()
            await pilot.press("enter")  # the other one resumes
            await settle(pilot)
            assert isinstance(app.screen, GameScreen) and app.session.setup.seed == 52
        finally:
            os.close(fd)
    assert first.read_bytes() == before


async def test_a_game_gone_since_the_offer_is_said_in_one_line_and_not_brought_back(tmp_path: Path) -> None:
    path, _ = _autosave(tmp_path, "taken", seed=61, minutes_ago=1)
    app = MexitrainApp(None, speed=0, data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        path.unlink()  # another window resumed it, finished it and cleared it
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen), "back to the new-game form")
        await pilot.pause()
        lines = [n.message for n in notices(app)]
        assert lines == ["That game is no longer there: another window resumed or finished it"]
        app.saver.flush()
        assert not path.exists()  # not written again from the stale offer
        assert not locks.held_here(path)


async def test_a_game_played_on_since_the_offer_resumes_where_it_is_now(tmp_path: Path) -> None:
    path, listed = _autosave(tmp_path, "moved-on", seed=71, minutes_ago=1)
    app = MexitrainApp(None, speed=0, data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        setup = load_game(path)[0]
        later = play_first(listed, 4)  # another window played on, then quit
        autosave(later, setup, tmp_path, path=path)
        assert later != listed
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game resumed")
        assert app.snapshot.events[: len(later.events)] == later.events  # not the stale listed state
        assert locks.held_here(path)
