"""Other people's files in a shared data folder (issue 32, items 5 and 6).

Visitors of ``mexitrain serve`` share its data folder by default: the file dialogs must
neither offer nor open a file of a game someone is playing (a running table's
``tables/<CODE>/``, another window's autosave), since the replay viewer shows every hand;
Save as… has a bound in a served game; a path typed with a NUL is refused in one line.

"Another process" holds a lock here as a process does: a ``flock`` on a descriptor of its own
(the locks of :mod:`mexitrain.storage.locks` are ``flock`` locks, per open file); the real
second process, a ``mexitrain host`` hosting a table, is tests/net/test_table_lock.py's and
:func:`test_a_table_hosted_by_another_process_is_neither_listed_nor_opened` here."""

from __future__ import annotations

import asyncio
import fcntl
import os
import re
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from support.games import finished_game, play_first, start
from support.pilot import game_app, settle, wait_for
from support.tables import table
from textual.widgets import Input

from mexitrain.rules import RuleSet
from mexitrain.storage import autosave, game_autosave_path, locks, save_game
from mexitrain.storage.inplay import in_play
from mexitrain.storage.saves import SERVED_SAVES, SERVED_SAVES_BYTES
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens.dialogs import RevealScreen
from mexitrain.ui.screens.replay import ReplayScreen
from mexitrain.ui.screens.saves import FileScreen, JsonTree, LoadScreen, SaveAsScreen
from mexitrain.ui.textual_compat import notices
from mexitrain.ui.widgets import StatusLine

CODE = "ABCDEF"


@contextmanager
def held_elsewhere(lock: Path):
    """``lock`` held as another process holds it."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        os.close(fd)


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """A shared served folder: a finished game in saves/, a table in progress in
    tables/ABCDEF/ (its game, journal and table file), another window's autosave."""
    root = tmp_path / "data"
    setup, final = finished_game(RuleSet(set=6, rounds=1))
    (root / "saves").mkdir(parents=True)
    save_game(root / "saves" / "done.json", final, setup, name="Done")
    game = table(seed=5)
    state = play_first(start(game), 6)
    folder = root / "tables" / CODE
    autosave(state, game, root, path=folder / "game.json")
    (folder / "moves.jsonl").write_text('{"seq":7,"action":{"kind":"draw"}}\n')
    (folder / "table.json").write_text((folder / "game.json").read_text())  # a save: what matters is whose it is
    autosave(state, game, root, path=game_autosave_path(root, "other-window"))
    return root


def served_app(root: Path) -> MexitrainApp:
    return MexitrainApp(None, speed=0, seed=1, data_dir=root, served=True)


async def open_replay_dialog(app: MexitrainApp, pilot) -> FileScreen:
    app.action_open_replay()
    await wait_for(
        pilot, lambda: isinstance(app.screen, FileScreen) and app.screen.query("#file-problem"), "the Open replay dialog"
    )
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


async def type_path(pilot, screen: FileScreen, text: str) -> None:
    box = screen.query_one("#file-path", Input)
    box.value = text
    box.focus()
    await pilot.press("enter")
    await pilot.pause()


async def listed(pilot, tree: JsonTree, folder: Path) -> list[str]:
    """The names the tree lists in ``folder``."""
    tree.path = folder
    await pilot.pause()
    await tree.reload()  # done once the folder is read again
    await pilot.pause()
    return [node.label.plain for node in tree.root.children]


# ---------------------------------------------------------------------------------------
# A running table's files, another window's autosave
# ---------------------------------------------------------------------------------------
RUNNING = {
    "its game": "tables/ABCDEF/game.json",
    "its table file": "tables/ABCDEF/table.json",
    "its journal": "tables/ABCDEF/moves.jsonl",
    "its folder": "tables/ABCDEF",
}


@pytest.mark.parametrize("case", RUNNING)
@pytest.mark.parametrize("lock", ["table.lock", "game.lock"])
async def test_a_running_table_s_files_are_not_opened_by_another_visitor(shared: Path, case: str, lock: str) -> None:
    text = RUNNING[case]
    app = served_app(shared)
    with held_elsewhere(shared / "tables" / CODE / lock):
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            screen = await open_replay_dialog(app, pilot)
            await type_path(pilot, screen, text)
            assert app.screen is screen  # not opened, not even as a folder
            assert screen.problem == (
                f"{text} belongs to a game in progress elsewhere: it opens once that game is over or closed"
            )
            assert not any(isinstance(s, RevealScreen | ReplayScreen) for s in app.screen_stack)
            # nor offered: the tables folder does not list it
            tree = screen.query_one(JsonTree)
            assert await listed(pilot, tree, shared / "tables") == []
            # a path reaching the app by another way (the Load… list, a link) is refused too
            assert app.load_file(shared / "tables" / CODE / "game.json") is False
            await pilot.pause()
            said = [n.message for n in notices(app)]
            assert "game.json belongs to a game in progress elsewhere: it opens once that game is over or closed" in said


async def test_a_closed_table_s_game_opens_as_before(shared: Path) -> None:
    """Once no one holds it (its server closed), the same file opens: it is the refusal's
    only reason."""
    app = served_app(shared)
    async with app.run_test(size=(110, 30)) as pilot:
        await pilot.pause()
        screen = await open_replay_dialog(app, pilot)
        assert await listed(pilot, screen.query_one(JsonTree), shared / "tables") == [CODE]
        await type_path(pilot, screen, "tables/ABCDEF/game.json")
        await wait_for(pilot, lambda: isinstance(app.screen, RevealScreen), "asked before its hidden tiles show")


async def test_another_window_s_autosave_is_neither_listed_nor_opened(shared: Path) -> None:
    path = game_autosave_path(shared, "other-window")
    app = served_app(shared)
    with held_elsewhere(locks.lock_path(path)):
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            screen = await open_replay_dialog(app, pilot)
            assert await listed(pilot, screen.query_one(JsonTree), shared / "autosaves") == []
            await type_path(pilot, screen, "autosaves/other-window.json")
            assert app.screen is screen
            assert "belongs to a game in progress elsewhere" in screen.problem
            # the tree's pick made before its game started is refused in the dialog too
            tree = screen.query_one(JsonTree)
            screen.post_message(JsonTree.FileSelected(tree.root, path))
            await pilot.pause()
            assert app.screen is screen
            assert screen.problem.startswith("other-window.json belongs to a game in progress elsewhere")


async def test_at_a_terminal_too(shared: Path) -> None:
    """Another window at a terminal on the same data folder is another game as well."""
    app = MexitrainApp(None, speed=0, seed=1, data_dir=shared)
    with held_elsewhere(shared / "tables" / CODE / "table.lock"):
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            screen = await open_replay_dialog(app, pilot)
            await type_path(pilot, screen, str(shared / "tables" / CODE / "game.json"))
            assert app.screen is screen and "belongs to a game in progress elsewhere" in screen.problem


async def test_load_does_not_list_a_link_to_a_running_game(shared: Path) -> None:
    (shared / "saves" / "peek.json").symlink_to(shared / "tables" / CODE / "game.json")
    app = MexitrainApp(None, speed=0, seed=1, data_dir=shared)
    with held_elsewhere(shared / "tables" / CODE / "table.lock"):
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            app.action_load_game()
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, LoadScreen) and app.screen.query("#load-reading") and not app.screen.reading,
                "the saves listed",
            )
            assert [info.path.name for info in app.screen.saves] == ["done.json"]


async def test_a_table_hosted_by_another_process_is_neither_listed_nor_opened(shared: Path) -> None:
    """The real case: ``mexitrain host`` in another process on the shared folder, its table in
    its lobby, then playing; a visitor's game can neither list nor open its files. Once the
    host stops, its folder is listed again."""
    env = dict(os.environ, MEXITRAIN_DATA_DIR=str(shared), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mexitrain", "--lang", "en", "host", "--no-play", "--bind", "127.0.0.1",
         "--port", "0", "--players", "2", "--speed", "10", "--ai", "random"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 60)
        m = re.search(r"Table ([A-Z]{4,12}) open on", line)
        assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
        code = m[1]
        folder = shared / "tables" / code
        assert in_play(folder / "table.json")  # in its lobby already
        proc.stdin.write("\n")  # the game starts, a computer in the open seat (a move every 10 s)
        proc.stdin.flush()
        app = served_app(shared)
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            await wait_for(pilot, lambda: (folder / "game.json").exists(), "the deal's full save", seconds=30)
            screen = await open_replay_dialog(app, pilot)
            assert await listed(pilot, screen.query_one(JsonTree), shared / "tables") == [CODE]
            await type_path(pilot, screen, f"tables/{code}/game.json")
            assert app.screen is screen and "belongs to a game in progress elsewhere" in screen.problem
            proc.send_signal(signal.SIGINT)
            await asyncio.to_thread(proc.wait, 30)
            assert not in_play(folder / "game.json")
            assert sorted(await listed(pilot, screen.query_one(JsonTree), shared / "tables")) == sorted([CODE, code])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()


# ---------------------------------------------------------------------------------------
# Save as…: a bound in a served game
# ---------------------------------------------------------------------------------------
async def _save_as(app: MexitrainApp, pilot, name: str) -> None:
    app.action_save_as()
    await wait_for(pilot, lambda: isinstance(app.screen, SaveAsScreen) and app.screen.query("#save-name"), "Save as")
    await pilot.pause()
    app.screen.query_one("#save-name", Input).value = name
    await pilot.press("enter")
    await pilot.pause()


async def test_save_as_stops_at_the_served_bound_in_one_line(tmp_path: Path) -> None:
    root = tmp_path / "data"
    saves = root / "saves"
    saves.mkdir(parents=True)
    for i in range(SERVED_SAVES - 1):
        (saves / f"old {i}.json").write_text("{}")
    app = game_app(data_dir=root, served=True)
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        await _save_as(app, pilot, "last one")  # the 50th file
        await wait_for(pilot, lambda: any(n.title == "Saved" for n in notices(app)), "saved")
        await _save_as(app, pilot, "one too many")
        await wait_for(pilot, lambda: any(n.title == "Not saved" for n in notices(app)), "refused")
        [line] = [n.message for n in notices(app) if n.title == "Not saved"]
        assert line == (
            f"cannot save: this game's saves folder is full ({SERVED_SAVES} files or "
            f"{SERVED_SAVES_BYTES // 2**20} MB at most); save over an old name instead"
        )
        assert len(list(saves.iterdir())) == SERVED_SAVES
        assert not (saves / "one too many.json").exists()
        # saving over an old name is still possible (the file is replaced: a new inode)
        before = (saves / "last one.json").stat().st_ino
        await _save_as(app, pilot, "last one")
        await wait_for(pilot, lambda: isinstance(app.screen, SaveAsScreen) and "exists" in str(
            app.screen.query_one("#save-problem").render()), "asked to replace")
        await pilot.press("enter")
        await wait_for(pilot, lambda: (saves / "last one.json").stat().st_ino != before, "replaced")
        assert len(list(saves.iterdir())) == SERVED_SAVES


async def test_save_as_stops_at_the_served_bytes(tmp_path: Path) -> None:
    root = tmp_path / "data"
    saves = root / "saves"
    saves.mkdir(parents=True)
    (saves / "huge.json").write_bytes(b" " * (SERVED_SAVES_BYTES - 1000))
    app = game_app(data_dir=root, served=True)
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        await _save_as(app, pilot, "sunday")
        await wait_for(pilot, lambda: any(n.title == "Not saved" for n in notices(app)), "refused")
        assert not (saves / "sunday.json").exists()


async def test_at_a_terminal_save_as_has_no_such_bound(tmp_path: Path) -> None:
    root = tmp_path / "data"
    saves = root / "saves"
    saves.mkdir(parents=True)
    for i in range(SERVED_SAVES):
        (saves / f"old {i}.json").write_text("{}")
    app = game_app(data_dir=root)
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        await _save_as(app, pilot, "sunday")
        await wait_for(pilot, lambda: any(n.title == "Saved" for n in notices(app)), "saved")


# ---------------------------------------------------------------------------------------
# Autosaves: a bound in a served game
# ---------------------------------------------------------------------------------------
def _status_text(app) -> str:
    return app.game_screen.query_one(StatusLine).render().plain


@pytest.mark.parametrize("served", [True, False])
async def test_a_new_game_beyond_the_served_autosaves_is_not_autosaved(tmp_path: Path, monkeypatch, served: bool) -> None:
    """A visitor starting game after game cannot fill the disk with autosaves: beyond the
    bound a new game is played unsaved, said once and by the status line; the games there
    are left alone. At a terminal there is no such bound."""
    import mexitrain.ui.app as app_module

    monkeypatch.setattr(app_module, "SERVED_AUTOSAVES", 3)
    root = tmp_path / "data"
    folder = root / "autosaves"
    folder.mkdir(parents=True)
    kept = {}
    for i in range(3):
        path = game_autosave_path(root, f"kept-{i}")
        game = table(seed=20 + i)
        autosave(play_first(start(game), 2), game, root, path=path)
        kept[path] = path.read_bytes()
    app = game_app(table(seed=3), data_dir=root, served=served)
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        app.saver.submit(app.snapshot, app.session.setup, app.speed)
        app.saver.flush()
        if served:
            await wait_for(pilot, lambda: "not saving: too many unfinished games" in _status_text(app), "the status")
            [line] = [n.message for n in notices(app) if n.title == "Saving"]
            assert line == (
                "this game is not autosaved: the data folder holds 3 unfinished games already; "
                "resume one and finish it to make room"
            )
            assert sorted(p.name for p in folder.iterdir() if p.suffix == ".json") == [p.name for p in kept]
            assert {p: p.read_bytes() for p in kept} == kept
        else:
            assert len([p for p in folder.iterdir() if p.suffix == ".json"]) == 4
            assert "not saving" not in _status_text(app)


# ---------------------------------------------------------------------------------------
# A NUL in a typed path
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("served", [True, False])
async def test_a_path_with_a_nul_is_refused_in_one_line(shared: Path, served: bool) -> None:
    app = MexitrainApp(None, speed=0, seed=1, data_dir=shared, served=served)
    async with app.run_test(size=(110, 30)) as pilot:
        await pilot.pause()
        screen = await open_replay_dialog(app, pilot)
        await type_path(pilot, screen, "saves/done\0.json")
        assert app.screen is screen
        assert screen.problem == "saves/done\\x00.json is not a path: it holds a NUL character"
        await type_path(pilot, screen, "saves/done.json" if served else str(shared / "saves" / "done.json"))  # it works on
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay viewer")
