"""Shared helpers for the UI tests: tables, waiting for the computer players, playing by keys."""

from __future__ import annotations

import time

from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from mexitrain.rules import RuleSet
from mexitrain.table import GameSetup, SeatConfig
from mexitrain.ui.app import MexitrainApp
from mexitrain.ui.screens import GameScreen

SMALL = RuleSet(set=6, rounds=1)


def table(
    rules: RuleSet = SMALL,
    seed: int = 3,
    kinds: tuple[str, ...] = ("human", "random"),
    names: tuple[str, ...] = ("You", "Bea", "Cal", "Dot", "Eli", "Fay"),
) -> GameSetup:
    seats = tuple(SeatConfig(name=names[i], kind=k) for i, k in enumerate(kinds))  # type: ignore[arg-type]
    return GameSetup(rules=rules, seed=seed, seats=seats)


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


def prepared(setup: GameSetup, **update):
    """The setup's first deal with some fields replaced (hands, boneyard, trains, turn...),
    validated as a snapshot: a tile written high half first (6-0) is refused here, not
    silently ignored by the legal moves later."""
    from mexitrain.rules import GameState, new_game

    state = new_game(setup.rules, players=len(setup.seats), seed=setup.seed)
    return GameState.model_validate({**dict(state), **update})


def empty_trains(state, engine: int):
    from mexitrain.rules import Train

    n = state.players
    return tuple(Train(owner=i, lines=((),), starts=(engine,)) for i in range(n)) + (
        Train(owner=None, lines=((),), starts=(engine,)),
    )
