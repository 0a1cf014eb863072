"""The Pilot helpers of the UI tests: an app on a table, waiting for the computer players or
for a condition, playing the human's moves by keys."""

from __future__ import annotations

import time

from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from mexitrain.game_setup import GameSetup
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import GameScreen

from .tables import table


def game_app(setup: GameSetup | None = None, **kwargs) -> MexitrainApp:
    return MexitrainApp(setup if setup is not None else table(), speed=0, **kwargs)


async def settle(pilot: Pilot, limit: int = 2000) -> None:
    """Let the computer players move until a human (or a screen) is waited for."""
    app: MexitrainApp = pilot.app  # type: ignore[assignment]
    for _ in range(limit):
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:
            pass
        await pilot.pause()
        if not app.ai_pending:
            await pilot.pause()
            if not app.ai_pending:
                return
    raise AssertionError("the computer players never stopped")


async def wait_for(pilot: Pilot, condition, what: str, limit: int = 400, seconds: float = 10.0) -> None:
    """Let the app run until ``condition()`` holds; fail naming ``what`` if it never does
    within ``limit`` pauses of 10 ms *and* ``seconds`` of wall-clock time: on a machine so
    loaded that the app barely runs, the pauses count its progress; on a fast one, the clock
    leaves slow workers time. A condition that holds returns at once."""
    deadline = time.monotonic() + seconds
    pauses = 0
    while not condition():
        if pauses >= limit and time.monotonic() > deadline:
            raise AssertionError(f"never happened in {pauses} pauses and {seconds:g} s: {what}")
        await pilot.pause(0.01)
        pauses += 1


def board(app: MexitrainApp):
    screen = app.game_screen
    assert screen is not None
    return screen.board


async def human_move(pilot: Pilot) -> str:
    """One move by keys only: Enter on the preselected playable tile, else d, else m."""
    app: MexitrainApp = pilot.app  # type: ignore[assignment]
    b = board(app)
    if b.plays:
        key = "enter"
    elif b.can("draw"):
        key = "d"
    elif b.can("mark") or b.can("pass"):
        key = "m"
    else:
        raise AssertionError(f"no key to press: {b.legal}")
    await pilot.press(key)
    await settle(pilot)
    return key


async def play_until_screen_changes(pilot: Pilot, limit: int = 500) -> list[str]:
    """Press keys for the human until something other than the game screen is on top."""
    app: MexitrainApp = pilot.app  # type: ignore[assignment]
    keys = []
    await settle(pilot)
    for _ in range(limit):
        if not isinstance(app.screen, GameScreen):
            return keys
        keys.append(await human_move(pilot))
    raise AssertionError("the round never ended")
