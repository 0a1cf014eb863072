"""Statistics of finished games, per person at the table (``<data dir>/stats.sqlite3``; the
``stats.json`` of earlier versions is added to it once, then renamed ``stats.json.migrated``).

For each human seat's name ("You" by default): games played and won, average and best
(lowest) game total, rounds played and rounds gone out (played their last tile), overall,
per computer opponent level and per rule preset. Updated once per finished game by
:func:`record_finished_game`, always with an atomic write; a game already counted (same
seed, table and totals) is not counted twice.

A stats file that cannot be read is never overwritten: :func:`load_stats` raises
:class:`~mexitrain.storage.savefile.SaveError` and leaves it alone, and
:func:`record_finished_game` moves it aside to ``stats.bad-N.json`` before starting afresh.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import urllib.parse
from pathlib import Path
from typing import Annotated, Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from ..game_setup import GameSetup
from ..rules import PRESETS, GameState, standings
from ..text.stats import CUSTOM, PEOPLE_ONLY
from . import atomic
from .paths import stats_db_path, stats_path
from .safe import MAX_DATA, is_regular, open_regular, read_regular
from .savefile import BadContents, Notice, SaveError, check_header_named, os_error, parse_json

FORMAT = "mexitrain-stats"
VERSION = 1
#: How many finished games are remembered so that none is counted twice.
RECENT = 200
# PEOPLE_ONLY (the opponent "level" of a game with no computer player) and CUSTOM (the preset
# of a rule set that matches none exactly) come from mexitrain.text.stats, which words them


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: Bounds of every count read from a statistics file: a value outside them makes the file
#: damaged (one line), never an overflow later in the table.
MAX_COUNT = 10**9
MAX_TOTAL = 10**15
#: Longest name of a person, a level or a preset kept in the statistics.
MAX_NAME = 200
Name = Annotated[str, StringConstraints(max_length=MAX_NAME)]


class Tally(_Model):
    """Counts over some games of one person."""

    games: int = Field(0, ge=0, le=MAX_COUNT)
    wins: int = Field(0, ge=0, le=MAX_COUNT)
    total_sum: int = Field(0, ge=0, le=MAX_TOTAL)  # sum of the game totals, for the average
    best_total: int | None = Field(None, ge=0, le=MAX_TOTAL)  # lowest game total (lowest wins)
    rounds: int = Field(0, ge=0, le=MAX_COUNT)
    rounds_out: int = Field(0, ge=0, le=MAX_COUNT)  # rounds in which they played their last tile

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
    by_level: dict[Name, Tally] = {}  # computer level of the opponents ("people": none)
    by_preset: dict[Name, Tally] = {}  # "standard", "fast", "common" or "custom"


class Stats(_Model):
    format: str = FORMAT
    version: int = VERSION
    players: dict[Name, PlayerStats] = {}
    recent: list[Annotated[str, StringConstraints(max_length=64)]] = Field([], max_length=10 * RECENT)
    # keys of the last games counted


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
    counted: set[str] = set()
    for seat, cfg in enumerate(setup.seats):
        # a game counts once for a name: a table of an earlier version could give two
        # people one name (the form, --names and the table server now refuse it)
        if not cfg.is_human or cfg.name in counted:
            continue
        counted.add(cfg.name)
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


def _bad_stats(exc: ValidationError) -> BadContents:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err.get("loc", ()))
    return BadContents(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")), "bad_stats", error=exc)


def _load_error(path: Path, exc: BaseException) -> SaveError:
    if isinstance(exc, BadContents):
        problem, code, values = str(exc), exc.code, exc.values
    else:  # never a crash over statistics
        problem = f"internal error while reading it ({type(exc).__name__}: {exc})"
        code, values = "internal", {"error": f"{type(exc).__name__}: {exc}"}
    return SaveError(f"cannot load {path}: {problem}", path, problem, action="load", code=code, values=values)


def _read_json(path: Path) -> tuple[Stats, str] | None:
    """The statistics of a ``stats.json`` (the format before SQLite) and the digest of its
    bytes, or None when there is none. Raises :class:`SaveError`; never changes the file."""
    try:
        data = read_regular(path, MAX_DATA)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise os_error("load", path, exc) from None
    try:
        top = parse_json(data)
        check_header_named(top, FORMAT, VERSION, "mexitrain statistics file")
        try:
            stats = Stats.model_validate_json(json.dumps(top), strict=True)
        except ValidationError as exc:
            raise _bad_stats(exc) from None
    except Exception as exc:
        raise _load_error(path, exc) from None
    return stats, hashlib.sha256(data).hexdigest()


# -- the database ----------------------------------------------------------------------------
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (key TEXT PRIMARY KEY, seq INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tallies (
    player TEXT NOT NULL, scope TEXT NOT NULL, name TEXT NOT NULL,
    games INTEGER NOT NULL, wins INTEGER NOT NULL, total_sum INTEGER NOT NULL,
    best_total INTEGER, rounds INTEGER NOT NULL, rounds_out INTEGER NOT NULL,
    PRIMARY KEY (player, scope, name)
);
"""
#: How long a writer waits for another process's transaction to end (seconds).
BUSY_TIMEOUT = 30.0
_COLUMNS = ("games", "wins", "total_sum", "best_total", "rounds", "rounds_out")


def _check_db_file(path: Path) -> bool:
    """Whether the database exists; refuses (``OSError``) a FIFO, a device... unopened by SQLite,
    which would wait on a FIFO."""
    try:
        os.close(open_regular(path))
    except FileNotFoundError:
        return False
    return True


def _connect(path: Path, *, write: bool) -> sqlite3.Connection:
    if write:
        con = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
    else:
        uri = "file:" + urllib.parse.quote(str(path.absolute())) + "?mode=ro"
        con = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None)
    return con


def _db_version(con: sqlite3.Connection) -> None:
    row = con.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    version = row[0] if row else None
    try:
        number = int(version)
    except (TypeError, ValueError):
        raise BadContents(f"unknown version {version!r} (this mexitrain reads {VERSION})", "unknown_version",
                   version=version, reads=VERSION) from None
    if number > VERSION:
        raise BadContents(
            f"it was written by a newer mexitrain (version {number}; this one reads {VERSION})",
            "newer_version", version=number, reads=VERSION,
        )


def _stats_of_db(con: sqlite3.Connection) -> Stats:
    """Every tally in the database, range-checked like the JSON file (a value out of range
    makes the database damaged, never a crash later)."""
    _db_version(con)
    players: dict[str, dict[str, Any]] = {}
    for player, scope, name, *values in con.execute(
        "SELECT player, scope, name, games, wins, total_sum, best_total, rounds, rounds_out FROM tallies"
    ):
        mine = players.setdefault(player, {"overall": {}, "by_level": {}, "by_preset": {}})
        tally = dict(zip(_COLUMNS, values, strict=True))
        if scope == "overall":
            mine["overall"] = tally
        elif scope in ("level", "preset"):
            mine["by_" + scope][name] = tally
        else:
            raise BadContents(f"unknown row kind {scope!r}", "bad_stats_row")
    recent = [k for (k,) in con.execute(f"SELECT key FROM games ORDER BY seq DESC LIMIT {RECENT}")][::-1]
    try:
        return Stats.model_validate({"players": players, "recent": recent}, strict=True)
    except ValidationError as exc:
        raise _bad_stats(exc) from None


def _merge_tally(a: Tally, b: Tally) -> Tally:
    best = [t for t in (a.best_total, b.best_total) if t is not None]
    return Tally(
        games=a.games + b.games, wins=a.wins + b.wins, total_sum=a.total_sum + b.total_sum,
        best_total=min(best) if best else None, rounds=a.rounds + b.rounds, rounds_out=a.rounds_out + b.rounds_out,
    )


def merge_stats(a: Stats, b: Stats) -> Stats:
    """The statistics of both (the tallies of a person, level or preset in both are added)."""
    players = dict(a.players)
    for name, p in b.players.items():
        mine = players.get(name)
        if mine is None:
            players[name] = p
            continue
        by_level = dict(mine.by_level)
        for k, t in p.by_level.items():
            by_level[k] = _merge_tally(by_level[k], t) if k in by_level else t
        by_preset = dict(mine.by_preset)
        for k, t in p.by_preset.items():
            by_preset[k] = _merge_tally(by_preset[k], t) if k in by_preset else t
        players[name] = PlayerStats(overall=_merge_tally(mine.overall, p.overall), by_level=by_level, by_preset=by_preset)
    return Stats(players=players, recent=[*a.recent, *(k for k in b.recent if k not in a.recent)][-RECENT:])


def _rows(stats: Stats):
    for player, p in stats.players.items():
        yield player, "overall", "", p.overall
        for name, t in p.by_level.items():
            yield player, "level", name, t
        for name, t in p.by_preset.items():
            yield player, "preset", name, t


def _add_rows(con: sqlite3.Connection, stats: Stats) -> None:
    """Add ``stats``'s tallies to the database's (inside the caller's transaction)."""
    for player, scope, name, t in _rows(stats):
        row = con.execute(
            "SELECT games, wins, total_sum, best_total, rounds, rounds_out FROM tallies "
            "WHERE player = ? AND scope = ? AND name = ?", (player, scope, name),
        ).fetchone()
        if row is not None:
            try:
                t = _merge_tally(Tally.model_validate(dict(zip(_COLUMNS, row, strict=True)), strict=True), t)
            except ValidationError as exc:
                raise _bad_stats(exc) from None
        con.execute(
            "INSERT OR REPLACE INTO tallies VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (player, scope, name, t.games, t.wins, t.total_sum, t.best_total, t.rounds, t.rounds_out),
        )


def _migrate(con: sqlite3.Connection, root: Path) -> Notice | None:
    """Inside a write transaction: a ``stats.json`` not yet counted is added to the database
    once (its digest is remembered), then renamed ``stats.json.migrated`` (after the commit, by
    the caller). A damaged one is moved aside to ``stats.bad-N.json``; the notice says so."""
    path = stats_path(root)
    try:
        found = _read_json(path)
    except SaveError as exc:
        if not is_regular(path):
            return None  # a FIFO, a device...: left alone, never read
        dest = atomic.move_aside(path)
        return Notice(f"{exc}; it was moved to {dest} and new statistics were started", exc, dest, new_stats=True)
    if found is None:
        return None
    stats, digest = found
    key = f"migrated:{digest}"
    if con.execute("SELECT 1 FROM meta WHERE key = ?", (key,)).fetchone() is None:
        _add_rows(con, stats)
        seq = con.execute("SELECT COALESCE(MAX(seq), 0) FROM games").fetchone()[0]
        for i, k in enumerate(stats.recent, start=1):
            con.execute("INSERT OR IGNORE INTO games VALUES (?, ?)", (k, seq + i))
        con.execute("INSERT INTO meta VALUES (?, ?)", (key, path.name))
    return None


def _finish_migration(root: Path) -> None:
    path = stats_path(root)
    if is_regular(path):
        try:
            os.replace(path, path.with_name(path.name + ".migrated"))
        except OSError:
            pass  # a read-only folder: the digest in the database keeps it from being counted twice


def load_stats(root: str | os.PathLike[str]) -> Stats:
    """The statistics in ``<root>/stats.sqlite3`` (empty when there are none yet), with those of a
    ``stats.json`` of an earlier version not yet moved into it.

    Reads only: nothing is created or changed. A damaged file raises :class:`SaveError` (one line
    naming the file) and is left as it is.
    """
    root = Path(root)
    db = stats_db_path(root)
    try:
        exists = _check_db_file(db)
    except OSError as exc:
        raise os_error("load", db, exc) from None
    stats, migrated = Stats(), set()
    if exists:
        try:
            con = _connect(db, write=False)
            try:
                stats = _stats_of_db(con)
                migrated = {k for (k,) in con.execute("SELECT key FROM meta WHERE key LIKE 'migrated:%'")}
            finally:
                con.close()
        except sqlite3.Error as exc:
            raise _db_error("load", db, exc) from None
        except Exception as exc:
            raise _load_error(db, exc) from None
    found = _read_json(stats_path(root))
    if found is not None and f"migrated:{found[1]}" not in migrated:
        stats = merge_stats(stats, found[0])
    return stats


def _db_error(action: str, path: Path, exc: sqlite3.Error) -> SaveError:
    text = str(exc) or type(exc).__name__
    if action == "load" and isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return SaveError(f"cannot load {path}: the file is damaged ({text})", path, action="load", code="damaged")
    verb = "cannot load" if action == "load" else "cannot save"
    return SaveError(f"{verb} {path}: {text}", path, action=action, code="os_error", values={"errno": None, "error": text})


def record_finished_game(
    root: str | os.PathLike[str], setup: GameSetup, final_state: GameState
) -> StatsUpdate:
    """Count a finished game in ``<root>/stats.sqlite3``, in one transaction: several processes
    may record at once and none is lost. Call it once the game is over, before the autosave is
    cleared; calling it again for the same game changes nothing.

    A ``stats.json`` of an earlier version is moved into the database first (once). A damaged
    statistics file is moved aside to ``stats.bad-N.<ext>`` and new statistics start; the
    returned ``notice`` says so. Raises :class:`SaveError` if the database cannot be written.
    """
    root = Path(root)
    db = stats_db_path(root)
    key = _game_key(setup, final_state)
    game = add_game(Stats(), setup, final_state)
    notice = None
    for attempt in range(2):
        try:
            _check_db_file(db)
            root.mkdir(parents=True, exist_ok=True)
            con = _connect(db, write=True)
        except OSError as exc:
            raise os_error("save", db, exc) from None
        except sqlite3.Error as exc:
            raise _db_error("save", db, exc) from None
        try:
            con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
            con.executescript(_SCHEMA)
            con.execute("BEGIN IMMEDIATE")
            try:
                con.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)", (str(VERSION),))
                _db_version(con)
                migrated = _migrate(con, root)
                notice = notice or migrated
                if con.execute("SELECT 1 FROM games WHERE key = ?", (key,)).fetchone() is not None:
                    counted = False
                else:
                    _add_rows(con, game)
                    seq = con.execute("SELECT COALESCE(MAX(seq), 0) FROM games").fetchone()[0]
                    con.execute("INSERT INTO games VALUES (?, ?)", (key, seq + 1))
                    counted = True
                con.execute("COMMIT")
            except BaseException:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise
            _finish_migration(root)
            stats = _stats_of_db(con)
            return StatsUpdate(stats, counted, notice)
        except (sqlite3.DatabaseError, BadContents) as exc:
            operational = isinstance(exc, sqlite3.OperationalError)
            con.close()
            if operational or attempt:
                raise (_db_error("save", db, exc) if isinstance(exc, sqlite3.Error) else _load_error(db, exc)) from None
            # a damaged database (not a database, values out of range, a newer version...)
            if isinstance(exc, BadContents) and exc.code == "newer_version":
                raise _load_error(db, exc) from None
            error = _db_error("load", db, exc) if isinstance(exc, sqlite3.Error) else _load_error(db, exc)
            dest = atomic.move_aside(db)
            notice = Notice(f"{error}; it was moved to {dest} and new statistics were started", error, dest,
                            new_stats=True)
        finally:
            con.close()
    raise AssertionError("unreachable")  # pragma: no cover


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
    "load_stats",
    "preset_name",
    "record_finished_game",
]
