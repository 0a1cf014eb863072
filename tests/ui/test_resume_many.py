"""Issue 21: one autosave per game; the start offers every unfinished one (newest first), not those
open in another window; a resume that crashed is offered to be moved aside; a read-only folder is
said once."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path

from support.games import play_first, start
from support.pilot import settle
from support.tables import table
from textual.widgets import Button

from mexitrain.storage import autosave, begin_resume, game_autosave_path, load_game, locks
from mexitrain.storage.autosaver import Autosaver
from mexitrain.storage.autosaves import forget_known_good
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import GameScreen
from mexitrain.ui.screens.saves import ResumeScreen
from mexitrain.ui.textual_compat import notices


def _autosave(root: Path, game_id: str, seed: int, minutes_ago: int) -> Path:
    setup = table(seed=seed)
    path = game_autosave_path(root, game_id)
    autosave(play_first(start(setup), 3), setup, root, path=path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["app"]["saved_at"] = (datetime.now(UTC) - timedelta(minutes=minutes_ago)).replace(microsecond=0).isoformat()
    path.write_text(json.dumps(data), encoding="utf-8")
    forget_known_good()
    return path


async def test_every_unfinished_game_is_offered_newest_first_and_one_is_resumed(tmp_path: Path) -> None:
    old = _autosave(tmp_path, "old-game", seed=21, minutes_ago=60)
    new = _autosave(tmp_path, "new-game", seed=22, minutes_ago=5)
    newer = tmp_path / "autosave.json"  # a legacy autosave of a newer mexitrain: left alone, said
    newer.write_text(json.dumps({**json.loads(old.read_text(encoding="utf-8")), "version": 9}), encoding="utf-8")
    app = MexitrainApp(None, speed=0, data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ResumeScreen)
        assert [u.path for u in screen.entries] == [new, old]
        assert any("newer mexitrain" in n.message for n in notices(app))
        screen.query_one("#resume-1", Button).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert app.session.setup.seed == 21
        assert locks.held_here(old)  # this window owns it now
        app.saver.flush()
        assert load_game(old)[1] == app.snapshot  # it goes on in the same file
        assert load_game(new)[0].seed == 22  # the other game is untouched
    assert newer.is_file()
    assert not locks.held_here(old)


async def test_a_game_open_in_another_window_is_not_offered(tmp_path: Path) -> None:
    mine = _autosave(tmp_path, "mine", seed=31, minutes_ago=1)
    theirs = _autosave(tmp_path, "theirs", seed=32, minutes_ago=2)
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import fcntl, os, sys
            fd = os.open({str(locks.lock_path(theirs))!r}, os.O_RDWR | os.O_CREAT)
            fcntl.flock(fd, fcntl.LOCK_EX)
            print("held", flush=True)
            sys.stdin.read()
        """)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        app = MexitrainApp(None, speed=0, data_dir=tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, ResumeScreen)
            assert [u.path for u in app.screen.entries] == [mine]
            assert "another window" in str(app.screen.query_one("#resume-busy").render())
    finally:
        holder.communicate("", timeout=20)
    assert theirs.is_file()


async def test_a_resume_that_crashed_is_offered_to_be_moved_aside(tmp_path: Path) -> None:
    path = _autosave(tmp_path, "crashy", seed=41, minutes_ago=1)
    begin_resume(path)  # as if the last start had died while resuming it
    app = MexitrainApp(None, speed=0, data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        assert app.screen.focused is app.screen.query_one("#aside-0")  # not resumed blindly
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ResumeScreen | GameScreen)
    assert not path.exists()
    assert (path.parent / "crashy.bad-1.json").is_file()
    assert not (path.parent / "crashy.resuming").exists()


async def test_a_resume_that_got_to_the_game_leaves_no_marker(tmp_path: Path) -> None:
    path = _autosave(tmp_path, "fine", seed=42, minutes_ago=1)
    app = MexitrainApp(None, speed=0, data_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        assert not (path.parent / "fine.resuming").exists()


def test_a_folder_that_refuses_autosaves_is_reported_once(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the data folder should be")
    reports: list[str] = []
    saver = Autosaver(blocked, lambda text, _error: reports.append(text))
    setup = table()
    state = start(setup)
    for step in range(1, 6):
        saver.submit(play_first(state, step), setup, 0.0)
        saver.flush()
    saver.close()
    assert len(reports) == 1 and "cannot save" in reports[0]
    assert saver.failing is not None and "cannot save" in saver.failing
