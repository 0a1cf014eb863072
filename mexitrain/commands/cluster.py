"""``mexitrain tournament --cluster``: the tournament's games played by the workers of a Dask
distributed cluster instead of local processes (the optional extra ``mexitrain[cluster]``).

Nothing here imports Dask until a tournament is given ``--cluster``: :func:`cluster_value`
only reads the address, :func:`require` imports ``distributed`` or says in one line how to
install it. Each game is one task, :func:`play_checked` on a job of
:func:`mexitrain.players.tournament.jobs` (the rules' JSON, the seats' levels, the deal's seed,
the budget): the same deterministic game as a local run plays, and the same result is kept in
the results file as each game ends. A worker also returns a digest of its code of the rules
and the players (:func:`fingerprint`): a result from a worker whose code differs from this
one's is never kept, the tournament stops in one line.
"""

from __future__ import annotations

import argparse
import hashlib
import queue
import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..i18n import _, ngettext
from .args import MAX_PROCESSES, CommandError, shown

#: How to get Dask distributed, the one line said when it is missing.
INSTALL = "pip install 'mexitrain[cluster]'"

_ADDRESS = re.compile(
    r"(?:(?P<scheme>tcp|tls)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}))"
    r":(?P<port>[0-9]{1,5})\Z"
)
_LOCAL = re.compile(r"local:(?P<n>[0-9]{1,3})\Z")


@dataclass(frozen=True)
class Cluster:
    """Where the games are played: a scheduler's address, or ``workers`` local processes of a
    cluster this command starts and stops (``local:N``)."""

    address: str | None = None
    workers: int = 0

    def __str__(self) -> str:
        return self.address if self.address is not None else f"local:{self.workers}"


def cluster_value(text: str) -> Cluster:
    """An argument type: ``local:N`` (N from 1 to 64) or a Dask scheduler's address,
    ``tcp://HOST:PORT`` or ``tls://HOST:PORT`` (``HOST:PORT`` is tcp)."""
    t = text.strip()
    local = _LOCAL.match(t)
    if local:
        n = int(local["n"])
        if not 1 <= n <= MAX_PROCESSES:
            raise argparse.ArgumentTypeError(
                _("local:N needs N between {low} and {high}, not {value}").format(
                    low=1, high=MAX_PROCESSES, value=shown(t)
                )
            )
        return Cluster(workers=n)
    address = _ADDRESS.match(t)
    if address and 1 <= int(address["port"]) <= 65535:
        return Cluster(address=t if address["scheme"] else f"tcp://{t}")
    raise argparse.ArgumentTypeError(
        _("expected tcp://HOST:PORT (a Dask scheduler) or local:N, not {value}").format(value=shown(t))
    )


def require():
    """The ``distributed`` module, or the one line that says how to install it."""
    try:
        import distributed
    except ImportError:
        raise CommandError(
            _("--cluster needs Dask distributed, which is not installed: {command}").format(command=INSTALL)
        ) from None
    return distributed


@cache
def fingerprint() -> str:
    """A digest of the code that decides a tournament's games: the rules, the players and the
    table's seeds (the ``.py`` and ``.pxd`` files of ``mexitrain/rules``, ``mexitrain/players``
    and ``mexitrain/game_setup.py``, as this process imports them)."""
    package = Path(__file__).resolve().parent.parent
    files = [package / "game_setup.py"]
    for folder in ("rules", "players"):
        files += [p for p in (package / folder).rglob("*") if p.suffix in (".py", ".pxd")]
    digest = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(package).as_posix()):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def play_checked(job: tuple) -> tuple:
    """A worker's task: the job's game, the worker's address and its code's digest."""
    from distributed import get_worker

    from ..players.tournament import play_job

    job, result = play_job(job)
    return job, result, get_worker().address, fingerprint()


@contextmanager
def _client(distributed, where: Cluster) -> Iterator:
    """A client of the cluster at ``where`` (a local one started, then stopped, for local:N);
    an address that does not answer is one line."""
    import logging

    if where.address is None:
        with _children_ignore_ctrl_c():
            cluster = distributed.LocalCluster(
                n_workers=where.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                # its HTTP server (health, a dashboard with bokeh) on a free port of this machine
                # its processes log nothing below CRITICAL: a worker whose scheduler stopped
                # first (Ctrl+C) logs its heartbeat's failure as an ERROR with a traceback;
                # what goes wrong in a game reaches this command through its future
                dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL,
            )
        with cluster, distributed.Client(cluster) as client:
            yield client
        return
    try:
        client = distributed.Client(where.address)
    except (OSError, TimeoutError) as exc:  # refused, unknown host, timed out
        raise CommandError(
            _("cannot reach the Dask scheduler at {address}: {error}").format(
                address=where.address, error=_short(exc)
            )
        ) from None
    with client:
        yield client


@contextmanager
def _children_ignore_ctrl_c() -> Iterator:
    """The processes started inside ignore SIGINT, which they inherit: Ctrl+C at a terminal
    reaches every process of its group, and a local cluster's workers would each print a
    traceback; this command stops them itself. (Ctrl+C is ignored while they start.)"""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _short(exc: BaseException) -> str:
    """An error of Dask's or a worker's in a few words, control characters escaped."""
    from ..text.names import printable

    text = printable(" ".join(str(exc).split())) or type(exc).__name__
    return text if len(text) <= 150 else text[:149] + "…"


def workers(client) -> int:
    """The worker processes the cluster has now (every one: scheduler_info() lists only a
    few in some versions of Dask)."""
    return len(client.nthreads())


def play(where: Cluster, todo: list[tuple], finished: Callable[[tuple, object], None], ready: Callable[[str], None]) -> None:
    """Play every job of ``todo`` on the cluster, calling ``finished(job, result)`` as each game
    ends (in the order they end, as local processes do); ``ready`` is given the line to say
    once the cluster is reached (or started), before the first game. Ctrl+C, an error or a stranger's
    code: leaving the client releases the games not yet played, which the cluster drops."""
    distributed = require()
    mine = fingerprint()
    # Ctrl+C is this command's from here until the cluster is closed: a Ctrl+C that comes
    # while the last games are counted or while the cluster closes is not lost (the command
    # still stops with its line and status 130 once the cluster is closed)
    with _interrupt_only_while_waiting() as waiting, ExitStack() as stack:
        with waiting():  # reaching (or starting) the cluster stops at once
            client = stack.enter_context(_client(distributed, where))
        n = workers(client)
        ready(
            ngettext(
                "playing on the Dask cluster at {address}: {n} worker now",
                "playing on the Dask cluster at {address}: {n} workers now",
                n,
            ).format(address=client.scheduler.address, n=n)
        )
        # each game, as it ends, into a plain queue (the client's thread calls back): this
        # thread waits on the queue, and Ctrl+C stops it there, never inside a call of Dask's
        # (whose clean-up after a KeyboardInterrupt logs a traceback)
        ended: queue.SimpleQueue = queue.SimpleQueue()
        pending = set(client.map(play_checked, todo, pure=False))  # held: a future let go is dropped
        for future in pending:
            future.add_done_callback(ended.put)
        while pending:
            with waiting():
                future = ended.get()
            pending.discard(future)
            _keep(future, mine, finished)


@contextmanager
def _interrupt_only_while_waiting() -> Iterator:
    """Ctrl+C raises KeyboardInterrupt only inside ``with waiting():`` (at once there, or on
    entering it when it came before); elsewhere (in the main thread) it waits for it, at the
    latest until the end of the ``with``, which raises it then."""
    import signal
    import threading

    state = {"asked": False, "waiting": False}

    def on_interrupt(_signum, _frame) -> None:
        if state["waiting"]:
            raise KeyboardInterrupt
        state["asked"] = True

    @contextmanager
    def waiting() -> Iterator:
        if state["asked"]:
            raise KeyboardInterrupt
        state["waiting"] = True
        try:
            yield
        finally:
            state["waiting"] = False

    if threading.current_thread() is not threading.main_thread():
        yield waiting  # no signal handler there: Ctrl+C is the main thread's
        return
    before = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield waiting
    finally:
        signal.signal(signal.SIGINT, before)
    if state["asked"]:  # it came after the last wait: said now, never lost
        raise KeyboardInterrupt


def _keep(future, mine: str, finished: Callable[[tuple, object], None]) -> None:
    """An ended game's result handed to ``finished``, unless it failed or its worker's code
    is not ``mine``."""
    try:
        job, result, worker, theirs = future.result()
    except Exception as exc:  # the game failed on its worker, or the worker died
        raise CommandError(
            _(
                "a game failed on the cluster (the scheduler and every worker need this "
                "mexitrain installed): {error}"
            ).format(error=_short(exc))
        ) from None
    if theirs != mine:
        raise CommandError(
            _(
                "the worker at {worker} plays with other code of the rules or players than "
                "this mexitrain: install the same version on every worker"
            ).format(worker=worker)
        )
    finished(tuple(job), result)
