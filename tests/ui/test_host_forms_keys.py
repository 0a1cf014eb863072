"""What the forms on the way to a table offer, and a served game without tables (ui/remote.py,
ui/screens/new_game.py, ui/screens/join.py):

- ``mexitrain serve --no-tables`` (``play --served --no-tables``): Host a table… and Join a
  table… are absent: no "Play together" row, no palette command, their keys do nothing;
- Host a table…'s setup form has no Load… ^O nor Stats ^T (buttons, keys, palette), and no
  key or command there opens another Host/Join form or leads to a local game or a file."""

from __future__ import annotations

from pathlib import Path

from support.pilot import wait_for

from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import NewGameScreen
from mexitrain.ui.screens.join import HostScreen, HostSetupScreen, JoinScreen

NETWORK = {"Host a table…", "Join a table…"}
#: the palette's commands that lead away from a table being set up
AWAY = {"New game", "Load a saved game…", "Open replay…", "Statistics"}


def titles(app: MexitrainApp) -> set[str]:
    return {c.title for c in app.get_system_commands(app.screen)}


def enabled(app: MexitrainApp, key: str) -> bool:
    """Whether ``key`` does something on the current screen (Textual's own answer)."""
    active = app.screen.active_bindings.get(key)
    return active is not None and active.enabled


async def test_without_tables_host_and_join_are_absent(tmp_path: Path) -> None:
    app = MexitrainApp(None, 0, seed=1, data_dir=tmp_path, served=True, tables=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.query("#start"), "the form")
        form = app.screen
        assert not app.tables
        assert not form.query("#row-net") and not form.query("#host") and not form.query("#join")
        assert not titles(app) & NETWORK
        assert {"New game", "Load a saved game…", "Statistics"} <= titles(app)  # the rest stays
        assert not enabled(app, "ctrl+n") and not enabled(app, "ctrl+g")
        await pilot.press("ctrl+n")
        await pilot.press("ctrl+g")
        await pilot.pause()
        app.action_host_table()  # nor by any other way to the action
        app.action_join_table()
        await pilot.pause()
        assert app.screen is form


async def test_by_default_host_and_join_are_there(tmp_path: Path) -> None:
    app = MexitrainApp(None, 0, seed=1, data_dir=tmp_path, served=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.query("#start"), "the form")
        assert app.tables and app.screen.query("#row-net")
        assert NETWORK <= titles(app)
        assert enabled(app, "ctrl+n") and enabled(app, "ctrl+g")
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.screen, JoinScreen), "the Join form")
        assert not enabled(app, "ctrl+n") and not enabled(app, "ctrl+g")  # not a second form over it
        assert not titles(app) & (NETWORK | AWAY)


async def test_the_host_s_setup_offers_nothing_that_leads_away_from_the_table(tmp_path: Path) -> None:
    app = MexitrainApp(None, 0, seed=1, data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.query("#start"), "the form")
        local = app.screen
        assert local.query("#load") and local.query("#stats")  # the local form keeps them
        assert enabled(app, "ctrl+o") and enabled(app, "ctrl+t")
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: isinstance(app.screen, HostScreen), "the Host form")
        assert not enabled(app, "ctrl+n") and not titles(app) & (NETWORK | AWAY)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, HostSetupScreen), "the table's setup")
        form = app.screen
        assert not form.query("#load") and not form.query("#stats")
        for key in ("ctrl+o", "ctrl+t", "ctrl+n", "ctrl+g"):
            assert not enabled(app, key), key
        assert not titles(app) & (NETWORK | AWAY)
        assert "Rules and keys" in titles(app)
        for key in ("ctrl+o", "ctrl+t", "ctrl+n", "ctrl+g"):
            await pilot.press(key)
        await pilot.pause()
        assert app.screen is form
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is local, "back to the local form")
        assert enabled(app, "ctrl+o") and NETWORK <= titles(app)
