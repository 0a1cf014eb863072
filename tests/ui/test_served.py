"""A game served to a web page (``mexitrain serve`` starts ``play --served``) sees only its data
folder (issue 23, point 7): Open replay…, Load… and Save as neither list nor open a file
outside it, the paths it says are told from it, and nothing in the app switches that off."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.games import finished_game
from support.pilot import game_app, settle, wait_for
from textual.widgets import Input, OptionList

from mexitrain.rules import RuleSet
from mexitrain.storage import save_game, settings
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.fence import Fence, Refused
from mexitrain.ui.screens import NewGameScreen
from mexitrain.ui.screens.replay import ReplayScreen
from mexitrain.ui.screens.saves import FileScreen, JsonTree, LoadScreen, SaveAsScreen
from mexitrain.ui.textual_compat import notices


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Path]:
    """A data folder with a finished game in saves/, and beside it (outside) a finished game,
    a folder of games, and links in the data folder that lead out to them."""
    setup, final = finished_game(RuleSet(set=6, rounds=1))
    root = tmp_path / "data"
    (root / "saves").mkdir(parents=True)
    save_game(root / "saves" / "inside.json", final, setup, name="Inside")
    outside = tmp_path / "private"
    outside.mkdir()
    save_game(outside / "secret.json", final, setup, name="Secret")
    (root / "saves" / "link.json").symlink_to(outside / "secret.json")
    (root / "out").symlink_to(outside, target_is_directory=True)
    return {"root": root, "outside": outside, "secret": outside / "secret.json"}


def served_app(root: Path) -> MexitrainApp:
    return MexitrainApp(None, speed=0, seed=1, data_dir=root, served=True)


async def open_replay_dialog(app: MexitrainApp, pilot) -> FileScreen:
    app.action_open_replay()
    await wait_for(
        pilot, lambda: isinstance(app.screen, FileScreen) and app.screen.query("#file-problem"), "the Open replay dialog"
    )
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


def typed_paths(world: dict[str, Path]) -> dict[str, str]:
    return {
        "absolute": str(world["secret"]),
        "home": "~/secret.json",
        "up": "../private/secret.json",
        "up inside a path": "saves/../../private/secret.json",
        "a link out": "saves/link.json",
        "a folder linked out": "out",
        "a file in a folder linked out": "out/secret.json",
        "the root": "/",
    }


@pytest.mark.parametrize(
    "case",
    ["absolute", "home", "up", "up inside a path", "a link out", "a folder linked out", "a file in a folder linked out", "the root"],
)
async def test_open_replay_refuses_a_typed_path_outside_the_data_folder(world, case: str) -> None:
    text = typed_paths(world)[case]
    app = served_app(world["root"])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = await open_replay_dialog(app, pilot)
        tree = screen.query_one(JsonTree)
        box = screen.query_one("#file-path", Input)
        box.value = text
        box.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen  # not opened, not even as a folder
        assert screen.problem.startswith(text[:20]) or screen.problem.startswith(text[:19])
        assert "is outside the game's data folder: only its files open here" in screen.problem
        assert Path(tree.path) == world["root"] / "saves"
        assert not any(isinstance(s, ReplayScreen) for s in app.screen_stack)


async def test_open_replay_opens_a_typed_path_in_the_data_folder(world) -> None:
    app = served_app(world["root"])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = await open_replay_dialog(app, pilot)
        box = screen.query_one("#file-path", Input)
        assert box.value == "saves/"  # typed from the data folder, which is not named
        box.value = "../private/secret.json"
        box.focus()
        await pilot.press("enter")
        assert screen.problem
        box.value = "saves/inside.json"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay viewer")


async def test_the_folder_tree_stays_in_the_data_folder(world) -> None:
    app = served_app(world["root"])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = await open_replay_dialog(app, pilot)
        tree = screen.query_one(JsonTree)
        await wait_for(pilot, lambda: [n.label.plain for n in tree.root.children] == ["inside.json"], "saves/ listed")
        tree.focus()
        await pilot.press("backspace")  # up to the data folder...
        await wait_for(pilot, lambda: Path(tree.path) == world["root"], "the data folder")
        await wait_for(pilot, lambda: [n.label.plain for n in tree.root.children] == ["saves"], "its folders listed")
        assert tree.check_action("parent", ()) is None  # ...and no further: dimmed
        await pilot.press("backspace")
        await pilot.pause()
        assert Path(tree.path) == world["root"]
        # a file outside reaching the dialog anyway (a race with a link made meanwhile) is refused
        screen.post_message(JsonTree.FileSelected(tree.root, world["secret"]))
        await pilot.pause()
        assert app.screen is screen and "outside the game's data folder" in screen.problem


async def test_load_lists_and_opens_only_the_data_folder_s_saves(world) -> None:
    app = served_app(world["root"])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.action_load_game()
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, LoadScreen) and app.screen.query("#load-reading") and not app.screen.reading,
            "the saves listed",
        )
        screen = app.screen
        assert [info.path.name for info in screen.saves] == ["inside.json"]  # the link out is not listed
        assert screen.query_one("#load-list", OptionList).option_count == 1
        # a path from outside reaching the app anyway is refused in one line, not loaded
        assert app.load_file(world["secret"]) is False
        await pilot.pause()
        said = [n.message for n in notices(app)]
        assert any("is outside the game's data folder" in m for m in said), said
        assert not any(str(world["root"]) in m or str(world["outside"]) in m for m in said), said


async def test_save_as_tells_the_path_from_the_data_folder(tmp_path) -> None:
    root = tmp_path / "data"
    app = game_app(data_dir=root, served=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.action_save_as()
        await wait_for(
            pilot, lambda: isinstance(app.screen, SaveAsScreen) and app.screen.query("#save-name"), "the Save as dialog"
        )
        await pilot.pause()
        app.screen.query_one("#save-name", Input).value = "../../etc/passwd"
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(n.title == "Saved" for n in notices(app)), "saved")
        [saved] = (root / "saves").iterdir()  # a name never leaves saves/
        said = next(n.message for n in notices(app) if n.title == "Saved")
        assert said == f"Saved as '../../etc/passwd' (saves/{saved.name})", said
        assert str(tmp_path) not in said


async def test_a_visitor_cannot_switch_the_fence_off(world) -> None:
    """The served mode comes from the process's arguments only: a preference that names it,
    another language, a new game: the dialogs stay fenced; the app has no way to drop it."""
    settings.save(world["root"], theme="nord")
    data = (world["root"] / "settings.json").read_text().replace("{", '{"served": false, "fence": null, ', 1)
    (world["root"] / "settings.json").write_text(data)
    app = served_app(world["root"])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        fence = app.fence
        assert fence is not None and fence.root == world["root"]
        with pytest.raises(AttributeError):
            app.fence = None  # type: ignore[misc]
        app.post_message(NewGameScreen.LanguageChosen("fr"))
        await pilot.pause()
        app.theme = "textual-light"
        await pilot.pause()
        screen = await open_replay_dialog(app, pilot)
        box = screen.query_one("#file-path", Input)
        box.value = str(world["secret"])
        box.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen.problem
        assert app.fence is fence


async def test_at_a_terminal_the_dialogs_are_not_fenced(world) -> None:
    """Without --served the player's own files open as before (the fence is the served mode's)."""
    app = MexitrainApp(None, speed=0, seed=1, data_dir=world["root"])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.fence is None
        screen = await open_replay_dialog(app, pilot)
        box = screen.query_one("#file-path", Input)
        box.value = str(world["secret"])
        box.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay viewer")


def test_the_fence_itself(world) -> None:
    fence = Fence(world["root"])
    assert fence.typed("saves/inside.json") == world["root"] / "saves" / "inside.json"
    assert fence.typed("") == world["root"]
    for text in ("/etc/passwd", "~root/x", "..", "saves/..", "saves/link.json", "out", "C:\\x", "a\\..\\..\\b"):
        with pytest.raises(Refused):
            fence.typed(text)
    assert fence.inside(world["root"] / "saves" / "inside.json")
    assert not fence.inside(world["root"] / "saves" / "link.json")
    loop = world["root"] / "loop"
    loop.symlink_to(loop)
    assert not fence.inside(loop)
    assert fence.shown(f"cannot load {world['root'] / 'saves' / 'x.json'}: damaged") == "cannot load saves/x.json: damaged"
    assert fence.shown(str(world["root"])) == "."
    line = fence.refusal("\x1b[2J" + "x" * 200)
    assert "\x1b" not in line and "…" in line and len(line) < 160


async def test_the_statistics_problem_tells_the_path_from_the_data_folder(tmp_path) -> None:
    from mexitrain.ui.screens.saves import StatsScreen

    root = tmp_path / "data"
    root.mkdir()
    (root / "stats.sqlite3").write_bytes(b"not a database" * 100)
    app = served_app(root)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.action_stats()
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen), "the statistics")
        assert app.screen.problem == "cannot load stats.sqlite3: the file is damaged"
