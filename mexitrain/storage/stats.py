"""Statistics of finished games, per person at the table (``<data dir>/stats.json``).

For each human seat's name ("You" by default): games played and won, average and best
(lowest) game total, rounds played and rounds gone out (played their last tile), overall,
per computer opponent level and per rule preset. Updated once per finished game by
:func:`record_finished_game`, always with an atomic write; a game already counted (same
seed, table and totals) is not counted twice.

A stats file that cannot be read is never overwritten: :func:`load_stats` raises
:class:`~mexitrain.storage.saves.SaveError` and leaves it alone, and
:func:`record_finished_game` moves it aside to ``stats.bad-N.json`` before starting afresh.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..i18n import N_, _
from ..messages import decimal, level_name
from ..rules import PRESETS, GameState, standings
from ..setup import GameSetup
from . import atomic
from .paths import stats_path
from .saves import Notice, SaveError, _Bad, _check_header_named, _os_error, _parse_json

FORMAT = "mexitrain-stats"
VERSION = 1
#: How many finished games are remembered so that none is counted twice.
RECENT = 200
#: The opponent "level" of a game with no computer player.
PEOPLE_ONLY = "people"
#: The preset of a rule set that matches none exactly.
CUSTOM = "custom"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Tally(_Model):
    """Counts over some games of one person."""

    games: int = Field(0, ge=0)
    wins: int = Field(0, ge=0)
    total_sum: int = Field(0, ge=0)  # sum of the game totals, for the average
    best_total: int | None = Field(None, ge=0)  # lowest game total (lowest wins)
    rounds: int = Field(0, ge=0)
    rounds_out: int = Field(0, ge=0)  # rounds in which they played their last tile

    @property
    def average(self) -> float | None:
        return self.total_sum / self.games if self.games else None

    def add(self, won: bool, total: int, rounds: int, out: int) -> Tally:
        best = total if self.best_total is None else min(self.best_total, total)
        return Tally(
            games=self.games + 1,
            wins=self.wins + int(won),
            total_sum=self.total_sum + total,
            best_total=best,
            rounds=self.rounds + rounds,
            rounds_out=self.rounds_out + out,
        )


class PlayerStats(_Model):
    overall: Tally = Tally()
    by_level: dict[str, Tally] = {}  # computer level of the opponents ("people": none)
    by_preset: dict[str, Tally] = {}  # "standard", "fast", "common" or "custom"


class Stats(_Model):
    format: str = FORMAT
    version: int = VERSION
    players: dict[str, PlayerStats] = {}
    recent: list[str] = []  # keys of the last games counted


class StatsUpdate(NamedTuple):
    stats: Stats
    counted: bool  # False when the game had been counted already
    notice: str | None  # set when a damaged stats file was moved aside


def preset_name(rules: Any) -> str:
    """The preset a rule set is, or ``"custom"``."""
    for name, preset in PRESETS.items():
        if rules == preset:
            return name
    return CUSTOM


def _game_key(setup: GameSetup, state: GameState) -> str:
    totals = [sum(r.scores[s] for r in state.results) for s in range(state.players)]
    blob = json.dumps(
        [state.seed, state.rules.model_dump(mode="json"), setup.model_dump(mode="json")["seats"], totals],
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def add_game(stats: Stats, setup: GameSetup, state: GameState) -> Stats:
    """``stats`` with the finished game ``state`` (played by ``setup``'s table) counted."""
    if not state.over:
        raise ValueError("only a finished game can be counted in the statistics")
    if setup.players != state.players:
        raise ValueError(f"the setup has {setup.players} seats but the game {state.players} players")
    totals = {seat: st.total for st in standings(state) for seat in st.seats}
    preset = preset_name(state.rules)
    players = dict(stats.players)
    for seat, cfg in enumerate(setup.seats):
        if not cfg.is_human:
            continue
        team = state.team_of(seat)
        levels = sorted(
            {s.kind for i, s in enumerate(setup.seats) if i not in team and not s.is_human}
        ) or [PEOPLE_ONLY]
        won = seat in state.winners
        out = sum(1 for r in state.results if r.out_seat == seat)
        args = (won, totals[seat], len(state.results), out)
        mine = players.get(cfg.name, PlayerStats())
        by_level = dict(mine.by_level)
        for level in levels:
            by_level[level] = by_level.get(level, Tally()).add(*args)
        by_preset = dict(mine.by_preset)
        by_preset[preset] = by_preset.get(preset, Tally()).add(*args)
        players[cfg.name] = PlayerStats(
            overall=mine.overall.add(*args), by_level=by_level, by_preset=by_preset
        )
    return Stats(players=players, recent=stats.recent)


def _read_stats(path) -> Stats:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Stats()
    except OSError as exc:
        raise _os_error("load", path, exc) from None
    try:
        top = _parse_json(data)
        _check_header_named(top, FORMAT, VERSION, "mexitrain statistics file")
        try:
            return Stats.model_validate_json(json.dumps(top), strict=True)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err.get("loc", ()))
            raise _Bad(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")), "bad_stats", error=exc) from None
    except _Bad as exc:
        problem, code, values = str(exc), exc.code, exc.values
    except Exception as exc:  # never a crash over statistics
        problem = f"internal error while reading it ({type(exc).__name__}: {exc})"
        code, values = "internal", {"error": f"{type(exc).__name__}: {exc}"}
    raise SaveError(f"cannot load {path}: {problem}", path, problem, action="load", code=code, values=values)


def load_stats(root: str | os.PathLike[str]) -> Stats:
    """The statistics in ``<root>/stats.json`` (empty when there is none yet).

    A damaged file raises :class:`SaveError` (one line naming the file) and is left as it is.
    """
    return _read_stats(stats_path(root))


def record_finished_game(
    root: str | os.PathLike[str], setup: GameSetup, final_state: GameState
) -> StatsUpdate:
    """Count a finished game in ``<root>/stats.json`` (atomic write). Call it once the game is
    over, before the autosave is cleared; calling it again for the same game changes nothing.

    A damaged stats file is moved aside to ``stats.bad-N.json`` and new statistics start; the
    returned ``notice`` says so. Raises :class:`SaveError` if the file cannot be written.
    """
    path = stats_path(root)
    notice = None
    try:
        stats = _read_stats(path)
    except SaveError as exc:
        if not path.is_file():
            raise
        dest = atomic.move_aside(path)
        notice = Notice(
            f"{exc}; it was moved to {dest} and new statistics were started", exc, dest, new_stats=True
        )
        stats = Stats()
    key = _game_key(setup, final_state)
    if key in stats.recent:
        return StatsUpdate(stats, False, notice)
    stats = add_game(stats, setup, final_state)
    stats = stats.model_copy(update={"recent": [*stats.recent, key][-RECENT:]})
    text = json.dumps(stats.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    try:
        atomic.write_text(path, text)
    except OSError as exc:
        raise _os_error("save", path, exc) from None
    return StatsUpdate(stats, True, notice)


# ---------------------------------------------------------------------------------------
# Display
# ---------------------------------------------------------------------------------------
_HEAD = ("", N_("games"), N_("wins"), N_("win %"), N_("avg total"), N_("best"), N_("rounds out"))


#: Each preset's row label (the preset names are identifiers, not words of every language).
_PRESET_RULES = {
    "standard": N_("standard rules"),
    "fast": N_("fast rules"),
    "common": N_("common rules"),
    CUSTOM: N_("custom rules"),
}


def _preset_rules(preset: str) -> str:
    if preset in _PRESET_RULES:
        return _(_PRESET_RULES[preset])
    return _("{preset} rules").format(preset=preset)


def _row(label: str, t: Tally) -> tuple[str, ...]:
    pct = f"{100 * t.wins / t.games:.0f}%" if t.games else "-"
    avg = decimal(t.average) if t.average is not None else "-"
    best = "-" if t.best_total is None else str(t.best_total)
    out = _("{out} of {rounds}").format(out=t.rounds_out, rounds=t.rounds)
    return (label, str(t.games), str(t.wins), pct, avg, best, out)


def format_stats(stats: Stats) -> str:
    """The statistics as a plain-text table, one block per person."""
    if not stats.players:
        return _("No finished games yet.")
    blocks = []
    for name in sorted(stats.players, key=lambda n: (n != "You", n.casefold())):
        p = stats.players[name]
        head = tuple(_(h) if h else h for h in _HEAD)
        rows = [head, _row(_("all games"), p.overall)]
        rows += [
            _row(_("vs {level}").format(level=level_name(level)) if level != PEOPLE_ONLY else _("people only"), t)
            for level, t in sorted(p.by_level.items())
        ]
        rows += [_row(_preset_rules(preset), t) for preset, t in sorted(p.by_preset.items())]
        widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
        lines = [name]
        for r in rows:
            cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)]
            lines.append("  " + "  ".join(cells).rstrip())
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def run_command(args: Any) -> int:
    """``mexitrain stats [--data-dir DIR]``: print the statistics table."""
    from ..cli import CommandError
    from .paths import data_dir

    root = data_dir(getattr(args, "data_dir", None))
    try:
        stats = load_stats(root)
    except SaveError as exc:
        from ..messages import save_error_text  # in the player's language

        raise CommandError(save_error_text(exc)) from None
    print(format_stats(stats))
    return 0


__all__ = [
    "CUSTOM",
    "FORMAT",
    "PEOPLE_ONLY",
    "PlayerStats",
    "Stats",
    "StatsUpdate",
    "Tally",
    "VERSION",
    "add_game",
    "format_stats",
    "load_stats",
    "preset_name",
    "record_finished_game",
    "run_command",
]
