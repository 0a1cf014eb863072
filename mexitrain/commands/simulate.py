"""``mexitrain simulate``: games between computer players, and statistics of them."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from ..i18n import _, ngettext, pgettext
from .args import (
    CommandError,
    UsageError,
    add_rules_arguments,
    bad_values,
    games_value,
    measured_levels_value,
    player_count,
    rules_from_args,
    seed_value,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--games", type=games_value, default=100, metavar="N", help=_("games to play (default 100)")
    )
    p.add_argument(
        "--players", type=player_count, default=4, metavar="P", help=_("players (default 4)")
    )
    p.add_argument(
        "--seed",
        type=seed_value,
        default=0,
        metavar="S",
        help=_("game i (from 0) uses seed S+i (default 0)"),
    )
    add_rules_arguments(p)
    p.add_argument(
        "--records",
        metavar=_("DIR"),
        help=_("write one record per game ({dir}/game-0001.json, ...)").format(dir=_("DIR")),
    )
    p.add_argument(
        "--ai",
        type=measured_levels_value,
        default=("random",),
        metavar=_("LEVEL[,LEVEL...]"),
        help=_("computer levels, cycling over the seats (default random)"),
    )


def _records_dir(text: str) -> Path:
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise UsageError(_("--records {path}: not a directory").format(path=text))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--records {text}: {exc.strerror or exc}") from None
    return path


def play_core(rules, levels: Sequence[str], seed: int):
    """One game between computer players of ``levels`` (one per seat), played on one rules
    core in place (each player sees its seat's compact view); the finished core."""
    from ..game_setup import SIMULATE_STRIDE, seat_seed
    from ..players import make_player
    from ..players.base import core_chooser
    from ..rules.core import new_game, step

    choose = [
        core_chooser(make_player(level, seat_seed(seed, i, SIMULATE_STRIDE))) for i, level in enumerate(levels)
    ]  # each seat's path (legal moves alone, compact view, or seat view) resolved once
    c = new_game(rules, players=len(levels), seed=seed)
    while not c.over:
        step(c, choose[c.turn](c))
    return c


def _round_ends(c) -> list[str]:
    """How each finished round of core ``c`` ended (its results are compact tuples, or
    RoundResult objects when the core came from a snapshot)."""
    return [r[7] if isinstance(r, tuple) else r.end for r in c.results]


def run(args: argparse.Namespace) -> int:
    """Play the games, write their records if asked, print the figures."""
    import time

    from ..rules.core import game_winners
    from ..text.basics import decimal, level_name

    rules = rules_from_args(args)
    n = args.players
    with bad_values():
        rules.check_players(n)
    levels = [args.ai[i % len(args.ai)] for i in range(n)]
    folder = _records_dir(args.records) if args.records else None
    if folder is not None:
        from ..rules.core import to_state
        from ..rules.record import to_record
        from ..storage.records import write_record
    width = max(4, len(str(args.games)))

    wins = [0] * n
    totals = [0] * n
    ends = {"domino": 0, "stuck": 0, "blocked": 0}
    rounds = shared = 0
    start = time.perf_counter()
    for i in range(args.games):
        c = play_core(rules, levels, args.seed + i)
        won = game_winners(c)
        for s in won:
            wins[s] += 1
        if len(won) > 1 and not rules.teams:
            shared += 1
        for end, scores in zip(_round_ends(c), c.round_scores, strict=True):
            ends[end] += 1
            rounds += 1
            for s in range(n):
                totals[s] += scores[s]
        if folder is not None:
            state = to_state(c)  # the pydantic snapshot only where the record needs it
            players = [(f"{level.capitalize()} {s + 1}", level) for s, level in enumerate(levels)]
            path = folder / f"game-{i + 1:0{width}d}.json"
            try:
                write_record(path, to_record(state, players))
            except OSError as exc:
                raise CommandError(
                    _("cannot write {path}: {error}").format(path=path, error=exc.strerror or exc)
                ) from None
    elapsed = max(time.perf_counter() - start, 1e-9)

    games = args.games
    last = args.seed + games - 1
    preset = args.preset or "standard"
    options = " ".join(f"{k}={v}" for k, v in (args.option or ()))
    print(
        _("{games}, {players}, preset {preset}, seeds {first}..{last}").format(
            games=ngettext("{n} game", "{n} games", games).format(n=games),
            players=ngettext("{n} player", "{n} players", n).format(n=n),
            preset=f"{preset} {options}" if options else preset,
            first=args.seed,
            last=last,
        )
    )
    print(_("speed: {rate} games/s ({seconds} s)").format(
        rate=decimal(games / elapsed, 2), seconds=decimal(elapsed, 2)
    ))
    from ..rules.core import COMPILED  # which form of the rules core ran (setup.py)

    print(_("rules core: compiled") if COMPILED else _("rules core: pure Python"))
    print(_("wins by seat (a shared win counts for each winner; seats from 1):"))
    for s in range(n):
        print("  " + _("seat {seat} ({level}): {wins} ({percent}%)").format(
            seat=s + 1, level=level_name(levels[s]), wins=wins[s], percent=decimal(100 * wins[s] / games)
        ))
    if shared:
        print("  " + ngettext("shared wins: {n} game", "shared wins: {n} games", shared).format(n=shared))
    print(_("mean total per seat:"))
    for s in range(n):
        print("  " + _("seat {seat}: {mean}").format(seat=s + 1, mean=decimal(totals[s] / games)))
    end_words = {
        "domino": pgettext("round end", "domino"),
        "stuck": pgettext("round end", "stuck"),
        "blocked": pgettext("round end", "blocked"),
    }
    parts = ", ".join(f"{end_words[k]} {v}" for k, v in ends.items())
    print(_("round ends: {ends} ({rounds})").format(
        ends=parts, rounds=ngettext("{n} round", "{n} rounds", rounds).format(n=rounds)
    ))
    if folder is not None:
        print(ngettext("records: {n} file in {folder}", "records: {n} files in {folder}", games).format(
            n=games, folder=folder
        ))
    return 0
