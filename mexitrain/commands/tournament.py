"""``mexitrain tournament``: measured strength of the computer levels (the games and the
figures are :mod:`mexitrain.players.tournament`; this module holds the arguments, the results
file, the table and the progress line).

Each of N deals (game seeds S, S+1, ...) is played under every rotation of the seats, so
each level sits in every seat of every deal and no seat advantage counts. For every level
it prints the win share with its 95 % Wilson interval (a shared win is split between the
winners; a level holding several seats sums them), the mean points per round, the mean
difference per round to the other seats (negative is better: fewer points) and the
decisions per second.

``--ai`` lists the level of each seat; with fewer levels than players the last one fills the
remaining seats (``--players 4 --ai expert,planner`` is an expert against three planners).

``--results FILE`` keeps every finished game, one JSON line each, as it ends: a run that is
stopped (a closed terminal, a machine turned off) loses at most the games under way, and the
same command run again plays only the games the file does not hold yet, then reports on all
of them. Every game is deterministic (its deal, its seats' levels and seeds), so a game read
back is the game that would be played. Its lines are keyed by the rules, the seats' levels,
the deal and the budget, so one file may hold several tournaments.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from dataclasses import asdict
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from ..i18n import _, ngettext, pgettext
from ..players.tournament import (
    GameResult,
    LevelStats,
    budgeted,
    jobs,
    play_job,
    seat_levels,
    summarize,
    wilson,
)
from ..storage.safe import MAX_DATA, read_regular
from ..text.basics import decimal, level_name
from ..text.errors import error_text
from .args import (
    CommandError,
    UsageError,
    add_rules_arguments,
    bad_values,
    budget_value,
    games_value,
    measured_levels_value,
    player_count,
    processes_value,
    rules_from_args,
    seed_value,
)
from .cluster import INSTALL, cluster_value


# ---------------------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------------------
def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=player_count, default=2, metavar="P", help=_("players (default 2)"))
    p.add_argument(
        "--games", type=games_value, default=20, metavar="N",
        help=_("deals to play, each under every rotation of the seats (default 20)"),
    )
    p.add_argument(
        "--seed", type=seed_value, default=0, metavar="S", help=_("deal i uses seed S+i (default 0)")
    )
    p.add_argument(
        "--ai", type=measured_levels_value, default=("planner", "greedy"), metavar=_("LEVEL[,LEVEL...]"),
        help=_("level of each seat; the last fills the remaining seats (default planner,greedy)"),
    )
    add_rules_arguments(p)
    p.add_argument(
        "--budget", type=budget_value, default=None, metavar=_("ROLLOUTS"),
        help=_("the expert's rollouts per decision (default: its standard strength)"),
    )
    p.add_argument(
        "--processes", type=processes_value, default=None, metavar="K",
        help=_("worker processes (default 2)"),
    )
    p.add_argument(
        "--cluster", type=cluster_value, default=None, metavar=_("ADDRESS"),
        help=_(
            "play the games on a Dask cluster instead: tcp://HOST:PORT of its scheduler, or "
            "local:N to start one of N processes here (needs {command})"
        ).format(command=INSTALL),
    )
    p.add_argument(
        "--results", metavar=_("FILE"),
        help=_(
            "keep each finished game in FILE (JSON lines) and play only the games it does not "
            "hold yet: a stopped run goes on where it was"
        ),
    )
    p.add_argument(
        "--kept-only", action="store_true",
        help=_(
            "with --results: report on the games FILE holds and play none (safe beside a run "
            "that is writing the file)"
        ),
    )


# ---------------------------------------------------------------------------------------
# The results file
# ---------------------------------------------------------------------------------------
class Played(BaseModel):
    """One line of a results file: which game (rules, levels, deal, budget) and its result."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rules: str  # digest of the rules' JSON
    levels: tuple[str, ...]
    seed: int
    budget: int | None
    win_credit: tuple[float, ...]
    round_scores: tuple[tuple[int, ...], ...]
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]

    @property
    def key(self) -> tuple:
        return (self.rules, self.levels, self.seed, self.budget)

    def result(self) -> GameResult:
        return GameResult(
            levels=self.levels, win_credit=self.win_credit, round_scores=self.round_scores,
            decisions=self.decisions, seconds=self.seconds,
        )


def rules_digest(rules_json: str) -> str:
    return hashlib.sha256(rules_json.encode()).hexdigest()[:16]


def job_key(job: tuple) -> tuple:
    rules_json, levels, seed, budget = job
    return (rules_digest(rules_json), tuple(levels), seed, budget)


def _game(line: str | bytes) -> Played | None:
    try:
        return Played.model_validate_json(line)
    except ValidationError:
        return None


class ResultsFile:
    """The games a results file holds, and the way to add one as it ends."""

    def __init__(self, path: Path, write: bool = True) -> None:
        """``write=False`` only reads (a last line cut short is left out, not dropped)."""

        self.path = path
        self.games: dict[tuple, GameResult] = {}
        try:
            try:  # only a regular file, size capped: a FIFO or a device never hangs the run
                data = read_regular(path, MAX_DATA)
            except FileNotFoundError:
                data = b""
            tail = data[data.rfind(b"\n") + 1 :]
            whole = bool(tail) and _game(tail) is not None
            if not write:
                data = data if whole else data[: len(data) - len(tail)]
            else:
                with path.open("ab") as f:  # it can be written to, before any game is played
                    if whole:
                        f.write(b"\n")  # a whole game whose line lacks its end: keep it
                        data += b"\n"
                    elif tail:  # the line being written when the run stopped: not a game
                        data = data[: len(data) - len(tail)]
                        f.truncate(len(data))
        except OSError as exc:
            raise UsageError(f"--results {error_text(exc)}") from None  # names the file
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if not line.strip():
                continue
            played = _game(line)
            if played is None:
                raise UsageError(
                    _("--results {path}: line {line} is not a game of a tournament").format(
                        path=path, line=number
                    )
                )
            self.games[played.key] = played.result()

    def add(self, job: tuple, result: GameResult) -> None:

        rules, _levels, seed, budget = job_key(job)  # the result's levels are the job's
        line = Played(rules=rules, seed=seed, budget=budget, **asdict(result))
        try:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(line.model_dump_json() + "\n")
        except OSError as exc:
            problem = error_text(OSError(exc.errno, exc.strerror))  # the problem alone, no path
            raise CommandError(_("cannot write {path}: {error}").format(path=self.path, error=problem)) from None
        self.games[line.key] = result


# ---------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------
def report(stats: dict[str, LevelStats], header: str) -> str:
    """The header, then a table of one row per level, in the language of the messages."""
    heads = [
        pgettext("tournament column", "level"), pgettext("tournament column", "seats"),
        pgettext("tournament column", "win share"), pgettext("tournament column", "95% CI"),
        pgettext("tournament column", "pts/round"), pgettext("tournament column", "diff/round"),
        pgettext("tournament column", "decisions/s"), pgettext("tournament column", "wins"),
    ]
    rows = []
    for level, st in stats.items():
        share = st.wins / st.games
        lo, hi = wilson(st.wins, st.games)
        pts = st.points / st.seat_rounds
        diff = st.diff / st.seat_rounds
        speed = st.decisions / st.seconds if st.seconds > 0 else float("inf")
        percent = pgettext("tournament", "{percent}%")
        rows.append([
            level_name(level), str(st.seats), percent.format(percent=decimal(100 * share)),
            f"[{decimal(100 * lo)}, {decimal(100 * hi)}]", decimal(pts),
            ("+" if diff >= 0 else "-") + decimal(abs(diff)), f"{speed:.0f}", f"{st.wins:g}/{st.games}",
        ])
    widths = [max(len(r[i]) for r in [heads, *rows]) for i in range(len(heads))]
    widths = [max(w, m) for w, m in zip(widths, (8, 5, 9, 15, 9, 10, 11, 11), strict=True)]

    def line(cells: list[str]) -> str:  # the level to the left, the figures to the right
        return " ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    return "\n".join([header, line(heads), *(line(r) for r in rows)])


# ---------------------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:

    rules = rules_from_args(args)
    players = args.players
    with bad_values():
        rules.check_players(players)
        levels = seat_levels(tuple(args.ai), players)
    if len(set(levels)) < 2:
        raise UsageError(_("--ai needs at least two different levels to compare"))
    if args.kept_only and not args.results:
        raise UsageError(_("--kept-only needs --results FILE"))
    if args.cluster is not None and args.processes is not None:
        raise UsageError(_("--processes is for a local run: with --cluster, the cluster's workers play"))
    processes = 2 if args.processes is None else args.processes
    if args.cluster is not None:
        from .cluster import require

        require()  # Dask distributed is there, or one line says how to install it
    work = jobs(rules, levels, args.games, args.seed, args.budget)
    kept = ResultsFile(Path(args.results), write=not args.kept_only) if args.results else None
    done: dict[tuple, GameResult] = {}
    if kept is not None:
        done = {job_key(w): kept.games[job_key(w)] for w in work if job_key(w) in kept.games}
        if args.kept_only and not done:
            raise UsageError(_("--results {path} holds no game of this tournament").format(path=kept.path))
    todo = [] if args.kept_only else [w for w in work if job_key(w) not in done]
    start = time.perf_counter()
    progress = Progress(len(todo), start)

    def finished(job: tuple, result: GameResult) -> None:
        done[job_key(job)] = result
        if kept is not None:
            kept.add(job, result)
        progress.step()

    try:
        if args.cluster is not None and todo:
            from . import cluster

            def ready(line: str) -> None:  # the time a game takes counts from now on
                progress.say(line)
                progress.start = time.perf_counter()

            cluster.play(args.cluster, todo, finished, ready)
        elif processes > 1 and len(todo) > 1:
            import multiprocessing

            context = multiprocessing.get_context("spawn" if _no_fork() else "fork")
            # the workers ignore Ctrl+C (each printed its traceback); the parent stops them
            with context.Pool(processes, initializer=_ignore_interrupt) as pool:
                for job, result in pool.imap_unordered(play_job, todo, chunksize=1):
                    finished(job, result)
        else:
            for w in todo:
                finished(*play_job(w))
    except KeyboardInterrupt:  # the pool is terminated on the way out of its ``with``
        progress.stopped()
        played = ngettext(
            "stopped: {played} of {total} game played", "stopped: {played} of {total} games played", len(todo)
        ).format(played=progress.played, total=len(todo))
        if kept is not None:
            played = _("{stopped}; kept in {path}").format(stopped=played, path=kept.path)
        print(played, file=sys.stderr, flush=True)
        return 130
    elapsed = time.perf_counter() - start
    results = [done[job_key(w)] for w in work if job_key(w) in done]  # all, but with --kept-only
    preset = args.preset or "standard"
    options = " ".join(f"{k}={v}" for k, v in (args.option or ()))
    budget = ""
    if args.budget and any(budgeted(level) for level in levels):
        budget = _(", expert budget {rollouts} rollouts").format(rollouts=args.budget)
    header = _(
        "{games} games ({deals} x {players} seat rotations), {players} players, preset {preset}, "
        "seeds {first}..{last}{budget}; {seconds} s"
    ).format(
        # a kept-only report on a file still being written covers part of the tournament
        games=len(results) if len(results) == len(work)
        else _("{n} of {total}").format(n=len(results), total=len(work)),
        deals=ngettext("{n} deal", "{n} deals", args.games).format(n=args.games),
        players=players, preset=f"{preset} {options}" if options else preset, first=args.seed,
        last=args.seed + args.games - 1, budget=budget, seconds=decimal(elapsed),
    )
    if args.kept_only:
        header += "\n" + _("read from {path} (none played)").format(path=kept.path)
    elif kept is not None:
        header += "\n" + ngettext(
            "{n} of them read from {path}, {played} played now",
            "{n} of them read from {path}, {played} played now",
            len(results) - len(todo),
        ).format(n=len(results) - len(todo), path=kept.path, played=len(todo))
    print(report(summarize(results), header))
    return 0


def duration(seconds: float) -> str:
    """A time span as people read it: "45 s", "12 min", "5 h 40 min"."""
    if seconds < 60:
        return _("{seconds} s").format(seconds=decimal(seconds) if seconds < 10 else round(seconds))
    minutes = round(seconds / 60)
    if minutes < 60:
        return _("{minutes} min").format(minutes=minutes)
    return _("{hours} h {minutes} min").format(hours=minutes // 60, minutes=minutes % 60)


class Progress:
    """How far a long tournament has got, on standard error (the table goes to standard
    output): at a terminal one line kept up to date after every game, else (a log file) a
    line at every tenth of the games to play."""

    def __init__(self, total: int, start: float, stream=None) -> None:
        self.total, self.start, self.played = total, start, 0
        self.stream = sys.stderr if stream is None else stream
        self.live = self.stream.isatty()
        self.open = False  # a live line without its end

    def say(self, line: str) -> None:
        """A line of its own on the same stream (before the live line, if any)."""
        self.stopped()
        self.stream.write(line + "\n")
        self.stream.flush()

    def stopped(self) -> None:
        """End the live line, if any, before another line is written."""
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False

    def step(self) -> None:
        self.played += 1
        n, total = self.played, self.total
        if not self.live and n * 10 // total == (n - 1) * 10 // total and n < total:
            return
        each = (time.perf_counter() - self.start) / n
        if n < total:
            line = ngettext(
                "{played} of {total} games played, {each} a game, about {left} left",
                "{played} of {total} games played, {each} a game, about {left} left",
                n,
            ).format(played=n, total=total, each=duration(each), left=duration(each * (total - n)))
        else:
            line = ngettext(
                "{played} of {total} games played, {each} a game",
                "{played} of {total} games played, {each} a game",
                n,
            ).format(played=n, total=total, each=duration(each))
        if self.live:
            end = "\n" if n == total else ""
            self.open = n < total
            self.stream.write("\r\x1b[K" + line + end)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def _ignore_interrupt() -> None:
    """A worker's start: Ctrl+C is the parent's to handle (it terminates the pool)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _no_fork() -> bool:
    import multiprocessing

    return "fork" not in multiprocessing.get_all_start_methods()
