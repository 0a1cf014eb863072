"""How fast the interface answers: launch to the first game frame, and a key to the redrawn screen.

Run: ``python benchmarks/ui_speed.py`` (headless, 80x24 and 120x40). Aims: < 1 s, < 50 ms
(issue #33: ≤ 15 ms). Textual redraws at most ``TEXTUAL_FPS`` times a second, which the
``mexitrain`` command sets to :data:`mexitrain.cli.FRAMES_PER_SECOND` (120) as this script
does; ``TEXTUAL_FPS=60 python benchmarks/ui_speed.py`` measures Textual's own default, where a
key waits for the next of 60 frames a second.

The first number is measured from constructing the app to the first paint of the game screen
(table dealt, board shown). The second is the median time from a key press (tile selection,
train selection, the plain-sort toggle) to the end of the screen refresh it caused.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mexitrain.cli import FRAMES_PER_SECOND  # noqa: E402

os.environ.setdefault("TEXTUAL_FPS", str(FRAMES_PER_SECOND))  # as the command does, before Textual

from textual import events  # noqa: E402

from mexitrain.game_setup import GameSetup, default_seats  # noqa: E402
from mexitrain.rules import RuleSet  # noqa: E402
from mexitrain.ui.app import MexitrainApp  # noqa: E402
from mexitrain.ui.screens import GameScreen  # noqa: E402


def setup() -> GameSetup:
    # seed 2: the human (seat 0) moves first, so no computer turn runs before the measure
    return GameSetup(rules=RuleSet(), seed=2, seats=default_seats(4, 1, ("random",)))


async def measure(size: tuple[int, int], presses: int = 30) -> tuple[float, float, float]:
    painted = asyncio.Event()
    start = time.perf_counter()
    app = MexitrainApp(setup(), speed=0)
    first_frame = 0.0
    async with app.run_test(size=size) as pilot:
        screen = None
        while True:
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, GameScreen) and screen.board is not None:
                break
        # the next compositor refresh paints the game screen
        original = screen._compositor_refresh

        def hooked() -> None:
            original()
            painted.set()

        screen._compositor_refresh = hooked  # type: ignore[method-assign]
        screen.refresh()
        await painted.wait()
        first_frame = time.perf_counter() - start
        times = []
        keys = ["right", "down", "left", "up", "o"]
        for i in range(presses):
            painted.clear()
            t0 = time.perf_counter()
            key = keys[i % len(keys)]
            app.post_message(events.Key(key, None))  # as the terminal driver does
            if not painted.is_set():
                await asyncio.wait_for(painted.wait(), 2)
            times.append(time.perf_counter() - t0)
        return first_frame, statistics.median(times), max(times)


def main() -> None:
    print(f"TEXTUAL_FPS={os.environ['TEXTUAL_FPS']}")
    for size in ((80, 24), (120, 40)):
        first, median, worst = asyncio.run(measure(size))
        print(
            f"{size[0]}x{size[1]}: launch -> first game frame {first * 1000:7.1f} ms (aim < 1000)   "
            f"key -> redrawn screen median {median * 1000:5.1f} ms, worst {worst * 1000:5.1f} ms (aim < 50)"
        )


if __name__ == "__main__":
    main()
