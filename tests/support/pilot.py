"""The Pilot helpers of the UI tests: an app on a table, waiting for the computer players or
for a condition, playing the human's moves by keys."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

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


async def to_the_final_standings(pilot: Pilot, limit: int = 50) -> None:
    """A game of computer players only, played on: Enter on each round's results, until the
    game-over screen shows (asserted)."""
    from mexitrain.ui.screens import GameOverScreen, RoundOverScreen

    app: MexitrainApp = pilot.app  # type: ignore[assignment]
    for _ in range(limit):
        await settle(pilot)
        if isinstance(app.screen, GameOverScreen):
            return
        if isinstance(app.screen, RoundOverScreen):
            await pilot.press("enter")
    raise AssertionError(f"no final standings after {limit} screens")


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


@contextlib.asynccontextmanager
async def ann_at_a_network_table(tmp_path: Path, size: tuple[int, int] = (80, 24)) -> AsyncIterator[tuple[MexitrainApp, Pilot]]:
    """Ann (a person, the table's host) and Cal (random) at a one-round double-six network
    table on 127.0.0.1, a real server: yields Ann's app and its pilot once she is connected in
    the lobby (ctrl+s starts the game: the wait includes the lobby's arrival, before which Start is disabled); the server stops after."""
    from mexitrain.game_setup import SeatConfig
    from mexitrain.net.server import TableServer
    from mexitrain.rules import RuleSet
    from mexitrain.ui.network_state import TableRequest
    from mexitrain.ui.screens.lobby import LobbyScreen

    setup = GameSetup(
        rules=RuleSet(set=6, rounds=1), seed=7,
        seats=(SeatConfig(name="Ann", kind="human"), SeatConfig(name="Cal", kind="random")),
    )
    server = TableServer(setup, data_dir=tmp_path / "server", open_seats=(), host_seat=0)
    await server.start("127.0.0.1", 0)
    try:
        request = TableRequest(f"127.0.0.1:{server.port}", server.code, "Ann", host_token=server.host_token)
        app = MexitrainApp(None, 0, data_dir=tmp_path / "client", table=request)
        async with app.run_test(size=size) as pilot:
            # connected, and the lobby arrived: the host's Start (ctrl+s) is possible
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, LobbyScreen) and app.screen.check_action("start", ()) is True,
                "the lobby, startable", seconds=20,
            )
            yield app, pilot
    finally:
        await server.stop()


async def play_my_turns_at_the_table(pilot: Pilot, through_rounds: bool = False, limit: int = 300) -> int:
    """Press this seat's moves at a network table (a play if one fits, else draw, else pass or
    mark), each awaited until the server's answer arrives, until the game screen gives way to
    the results (with ``through_rounds``, Enter on each round's results, until the game is
    over); returns how many moves were pressed."""
    from mexitrain.ui.screens import GameOverScreen, RoundOverScreen

    app: MexitrainApp = pilot.app  # type: ignore[assignment]
    pressed = 0
    for _ in range(limit):
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, GameOverScreen | RoundOverScreen)
            or (isinstance(app.screen, GameScreen) and app.screen.board is not None and app.screen.board.my_turn),
            "this seat's turn or the results", seconds=20,
        )
        if through_rounds and isinstance(app.screen, RoundOverScreen):
            await pilot.press("enter")
            continue
        if not isinstance(app.screen, GameScreen):
            return pressed
        b, seq = app.screen.board, app.source.state.update.seq
        await pilot.press("enter" if b.plays else ("d" if b.can("draw") else "m"))
        pressed += 1
        await wait_for(pilot, lambda seq=seq: app.source.state.update.seq != seq or not isinstance(app.screen, GameScreen), "the answer", seconds=20)
    raise AssertionError("the game never ended")
