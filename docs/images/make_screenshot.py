"""Make docs/images/game-screen.svg, the README's and the manual's picture of the game.

A Standard game (double-12) at 100x30: you against three planners, a few turns played by
the keys a person would press, then Textual's own SVG screenshot. The data folder is a
temporary one, so nothing of yours is read or written. Run it from the repository's top
folder after a change to the game screen, and look at the picture before committing it:

    python3 docs/images/make_screenshot.py [OUT.svg]
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parent / "game-screen.svg"
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # this checkout's package, not an installed one
SIZE = (100, 30)
TURNS = 6


async def _settle(pilot) -> None:
    """Let the computer players move until it is your turn again."""
    from textual.worker import WorkerCancelled

    app = pilot.app
    for _ in range(2000):
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:  # a computer's turn cut short by the next one: go on
            pass
        await pilot.pause()
        if not app.ai_pending:
            await pilot.pause()
            if not app.ai_pending:
                return
    raise RuntimeError("the computer players never stopped")


async def make() -> str:
    from mexitrain.game_setup import GameSetup, SeatConfig
    from mexitrain.rules import RuleSet
    from mexitrain.ui.app import MexitrainApp

    seats = (
        SeatConfig(name="You", kind="human"),
        SeatConfig(name="Bea", kind="planner"),
        SeatConfig(name="Cal", kind="planner"),
        SeatConfig(name="Dot", kind="planner"),
    )
    app = MexitrainApp(GameSetup(rules=RuleSet(), seed=7, seats=seats), speed=0)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(pilot)
        for _ in range(TURNS):
            board = app.game_screen.board
            key = "enter" if board.plays else ("d" if board.can("draw") else "m")
            await pilot.press(key)
            await _settle(pilot)
        await pilot.press("right")
        await pilot.pause()
        app.clear_notifications()
        await pilot.pause()
        return app.export_screenshot(title="mexitrain")


def main(argv: list[str] | None = None) -> int:
    """Write the picture to OUT, or to the path given (tests/test_docs.py gives one)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else OUT
    before = os.environ.get("MEXITRAIN_DATA_DIR")
    with tempfile.TemporaryDirectory() as data:
        os.environ["MEXITRAIN_DATA_DIR"] = data
        try:
            svg = asyncio.run(make())
        finally:
            if before is None:
                os.environ.pop("MEXITRAIN_DATA_DIR", None)
            else:
                os.environ["MEXITRAIN_DATA_DIR"] = before
    out.write_text(svg, encoding="utf-8")
    print(f"wrote {out} ({len(svg):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
