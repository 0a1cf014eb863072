"""How long Load… takes to list the saved games, and how much memory it needs (issue 21).

Run: ``python benchmarks/list_speed.py`` (5 saves of about 29 MB: a long game padded with JSON
whitespace to the size the issue measured, under the 32 MB a save may have). It prints the time
and the peak of Python memory (tracemalloc) of ``list_saves`` on those files, as written today
(the listing reads each file's head only), and the same files without their ``app.summary``
(saves of earlier versions, read whole). ``--cached`` adds a second listing of the same files
(what reopening Load… costs).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mexitrain.game_setup import GameSetup, default_seats  # noqa: E402
from mexitrain.rules import RuleSet, apply, legal_actions, new_game  # noqa: E402
from mexitrain.storage import list_saves  # noqa: E402
from mexitrain.storage import saves as saves_module  # noqa: E402
from mexitrain.storage.savefile import save_data, save_text  # noqa: E402


def long_game_text(rounds: int) -> str:
    """A save of a 6-player double-12 game, ``rounds`` rounds played with the first legal move."""
    setup = GameSetup(rules=RuleSet(rounds=13), seed=1, seats=default_seats(6, 1, ("random",)))
    state = new_game(setup.rules, players=setup.players, seed=setup.seed)
    while not state.over and len(state.results) < rounds:
        state = apply(state, legal_actions(state)[0])
    return save_text(save_data(state, setup, speed=0.6, name="long game"))


def padded(text: str, size: int) -> str:
    """``text`` with JSON whitespace before its closing brace, ``size`` bytes in all."""
    body = text.rstrip()
    assert body.endswith("}")
    return body[:-1] + " " * max(0, size - len(text.encode("utf-8"))) + "}\n"


def legacy(text: str) -> str:
    """The same save as an earlier mexitrain wrote it (no ``app.summary``)."""
    data = json.loads(text)
    del data["app"]["summary"]
    return save_text(data)


def measure(root: Path) -> tuple[float, float, int]:
    saves_module._LISTED.clear()
    tracemalloc.start()
    start = time.perf_counter()
    infos = list_saves(root)
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert all(i.error is None for i in infos), [i.error for i in infos]
    return seconds, peak / 2**20, len(infos)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=5)
    parser.add_argument("--mb", type=float, default=29.0, help="size of each save, MB")
    parser.add_argument("--rounds", type=int, default=6, help="rounds played in the saved game")
    parser.add_argument("--cached", action="store_true", help="also time a second listing")
    args = parser.parse_args(argv)
    size = int(args.mb * 2**20)
    text = long_game_text(args.rounds)
    for label, body in (("today (head only)", text), ("earlier saves (read whole)", legacy(text))):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "saves"
            folder.mkdir()
            for i in range(args.files):
                (folder / f"game-{i}.json").write_text(padded(body, size), encoding="utf-8")
            seconds, peak, count = measure(Path(tmp))
            print(f"{label}: {count} saves of {args.mb:g} MB listed in {seconds * 1000:.1f} ms, peak {peak:.1f} MB")
            if args.cached:
                start = time.perf_counter()
                list_saves(Path(tmp))
                print(f"  again (cached): {(time.perf_counter() - start) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
