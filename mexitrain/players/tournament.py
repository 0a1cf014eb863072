"""The games of ``mexitrain tournament`` and their figures, as pure functions (no files, no
output): each of N deals (game seeds S, S+1, ...) is played under every rotation of the seats,
so each level sits in every seat of every deal and no seat advantage counts; a shared win is
split between the winners and a level holding several seats sums them. The command, its
results file and its table are :mod:`mexitrain.commands.tournament`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from ..game_setup import TOURNAMENT_STRIDE, seat_seed
from ..i18n import _, ngettext
from ..rules import RuleSet, core, view
from ..rules.core.seat import seat_view


@dataclass
class GameResult:
    """One game of one rotation: per seat, the level and what it did."""

    levels: tuple[str, ...]
    win_credit: tuple[float, ...]
    round_scores: tuple[tuple[int, ...], ...]  # per round, per seat
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]


def budgeted(level: str) -> bool:
    """Whether ``--budget`` holds a seat of ``level``: the expert's, and expert-full's."""
    from . import KEPT_LEVELS

    return level == "expert" or level in KEPT_LEVELS


def make_seat(level: str, seed: int, budget: int | None):
    """The player of ``level`` for one seat of a tournament game: an expert held to ``budget``
    rollouts when a budget is given."""
    from . import make_player
    from .expert import ExpertPlayer

    if budgeted(level) and budget is not None:
        player = make_player(level, seed)
        assert isinstance(player, ExpertPlayer)
        player.rollouts = budget
        return player
    return make_player(level, seed)


def play_one(
    rules: RuleSet, levels: tuple[str, ...], seed: int, budget: int | None, rounds: int | None = None
) -> GameResult:
    """One game of the tournament. ``rounds`` stops it after that many rounds (to check a
    kept game's start again without playing all of it); its win credit is then the leaders'."""
    n = len(levels)
    players = [make_seat(level, seat_seed(seed, i, TOURNAMENT_STRIDE), budget) for i, level in enumerate(levels)]
    decisions = [0] * n
    seconds = [0.0] * n
    # one core per game, changed in place; a player sees its seat's compact view, or (a
    # level without choose_move) the SeatView of the position's snapshot
    c = core.new_game(rules, players=n, seed=seed)
    clock = time.perf_counter
    while not c.over and (rounds is None or len(c.results) < rounds):
        seat = c.turn
        player = players[seat]
        fast = getattr(player, "choose_move", None)
        if fast is not None:
            v = seat_view(c, seat)
            t = clock()
            m = fast(v)
            seconds[seat] += clock() - t
        else:
            sv = view(core.to_state(c), seat)
            t = clock()
            action = player.choose(sv)
            seconds[seat] += clock() - t
            m = core.check(c, action)
        decisions[seat] += 1
        core.step(c, m)
    winners = core.game_winners(c)
    credit = tuple((1 / len(winners) if i in winners else 0.0) for i in range(n))
    return GameResult(
        levels=levels,
        win_credit=credit,
        round_scores=tuple(c.round_scores),
        decisions=tuple(decisions),
        seconds=tuple(seconds),
    )


def play_job(args: tuple) -> tuple[tuple, GameResult]:
    """A job of :func:`jobs` (a worker process receives it) and its game's result."""
    rules_json, levels, seed, budget = args
    return args, play_one(RuleSet.model_validate_json(rules_json), levels, seed, budget)


def seat_levels(levels: tuple[str, ...], players: int) -> tuple[str, ...]:
    if len(levels) > players:
        raise ValueError(
            _("--ai names {levels} for {players}").format(
                levels=ngettext("{n} level", "{n} levels", len(levels)).format(n=len(levels)),
                players=ngettext("{n} player", "{n} players", players).format(n=players),
            )
        )
    return tuple(levels) + (levels[-1],) * (players - len(levels))


def jobs(rules: RuleSet, levels: tuple[str, ...], games: int, seed: int, budget: int | None) -> list[tuple]:
    """Every game of the tournament, each deal under each rotation of the seats, as a job
    ``(rules JSON, levels, seed, budget)`` that a worker process can receive."""
    n = len(levels)
    rules_json = rules.model_dump_json()
    out = []
    for g in range(games):
        for r in range(n):
            rotated = levels[-r:] + levels[:-r] if r else levels
            out.append((rules_json, rotated, seed + g, budget))
    return out


# ---------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------
def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class LevelStats:
    seats: int = 0  # seats held per game
    wins: float = 0.0
    points: int = 0
    seat_rounds: int = 0
    diff: float = 0.0
    decisions: int = 0
    seconds: float = 0.0
    games: int = 0
    per_game: list[float] = field(default_factory=list)


def summarize(results: list[GameResult]) -> dict[str, LevelStats]:
    stats: dict[str, LevelStats] = {}
    for res in results:
        n = len(res.levels)
        seen = set()
        for seat, level in enumerate(res.levels):
            st = stats.setdefault(level, LevelStats())
            if level not in seen:
                st.games += 1
                st.per_game.append(0.0)
                seen.add(level)
            st.per_game[-1] += res.win_credit[seat]
            st.wins += res.win_credit[seat]
            st.decisions += res.decisions[seat]
            st.seconds += res.seconds[seat]
            for scores in res.round_scores:
                st.points += scores[seat]
                st.seat_rounds += 1
                others = [scores[i] for i in range(n) if i != seat]
                st.diff += scores[seat] - sum(others) / len(others)
        for level in seen:
            stats[level].seats = res.levels.count(level)
    return stats
