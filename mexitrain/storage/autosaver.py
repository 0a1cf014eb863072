"""The autosave's background writer, one thread: serialized, latest wins, flushed on exit.

The app hands every new snapshot to :meth:`Autosaver.submit` (it returns at once); the thread
writes the newest one submitted to that game's own autosave (an older one not yet written is skipped: the newer file holds
it). A finished game is counted in the statistics first, then its autosave is cleared.
:meth:`flush` waits until everything submitted is on disk (on quit, and in tests).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from ..game_setup import GameSetup
from ..i18n import _
from ..rules import GameState
from ..text.errors import error_text
from ..text.files import autosaves_full_reason, notice_text, os_problem
from . import locks
from .autosaves import autosave, check_autosave_room, game_autosave_path, new_game_id
from .savefile import SaveError
from .stats import record_finished_game

Report = Callable[[str, bool], None]  # (one-line text, is_error)
Status = Callable[[str | None], None]  # the short reason autosaves fail, or None once they work


class Autosaver:
    """Writes each game's own autosave (``autosaves/<id>.json``) and holds its lock,
    so another window on the same data folder neither overwrites, resumes nor deletes it.

    A game is told apart by its setup object: a new setup (or a new game after a finished one)
    gets a new autosave, unless it was :meth:`adopt`-ed (a resumed autosave keeps its file).
    ``failing`` is the one-line problem while autosaves cannot be written (a read-only data
    folder): it is reported once, then kept for the status, and None again once a write works.
    ``failing_reason`` is its short form for the status line ("the disk is read-only"), and
    ``status`` is called (from the writer thread) each time it changes, with None when saving
    works again.
    """

    def __init__(
        self, root: Path, report: Report | None = None, status: Status | None = None, *, bound: int | None = None
    ) -> None:
        self.root = root
        #: the most autosaves a new game's may join (a served game's; None: no bound)
        self.bound = bound
        self.report = report
        self.status = status
        self._cond = threading.Condition()
        self._pending: tuple[GameState, GameSetup, float | None, Path] | None = None
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self.writes = 0  # files written (tests)
        self.failing: str | None = None
        self.failing_reason: str | None = None
        self.path: Path | None = None  # the autosave of the game being played
        self._setup: GameSetup | None = None
        self._over = False
        self._adopted: dict[int, tuple[GameSetup, Path]] = {}

    def adopt(self, path: Path, setup: GameSetup) -> bool:
        """Continue the autosave ``path`` (a resumed game played with ``setup``); False when
        another window holds it. Call before handing the game's snapshots in."""
        try:
            if not locks.acquire(path):
                return False
        except OSError:
            pass  # a read-only folder: nobody else can write it either
        self._adopted[id(setup)] = (setup, Path(path))
        return True

    def submit(self, state: GameState, setup: GameSetup, speed: float | None) -> None:
        with self._cond:
            if setup is not self._setup or (self._over and not state.over):
                adopted = self._adopted.pop(id(setup), None)
                if adopted is not None and adopted[0] is setup:
                    self.path = adopted[1]
                else:
                    self.path = game_autosave_path(self.root, new_game_id())
                self._setup = setup
            self._over = state.over
            self._pending = (state, setup, speed, self.path)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="autosave", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def flush(self, timeout: float = 10.0) -> None:
        """Block until every submitted snapshot is written."""
        with self._cond:
            self._cond.wait_for(lambda: self._pending is None and not self._busy, timeout=timeout)

    def close(self) -> None:
        self.flush()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self.path is not None:
            locks.release(self.path)  # the game stays resumable by the next start

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending is not None or self._closed)
                if self._pending is None:
                    return
                job, self._pending = self._pending, None
                self._busy = True
            try:
                self.write(*job)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def write(self, state: GameState, setup: GameSetup, speed: float | None, path: Path | None = None) -> None:
        """One autosave (the statistics first for a finished game); problems are reported."""
        path = path if path is not None else game_autosave_path(self.root, new_game_id())
        try:
            if state.over:
                update = record_finished_game(self.root, setup, state)
                if update.notice:
                    self._report(notice_text(update.notice), True)
            else:
                if self.bound is not None and not locks.held_here(path):
                    check_autosave_room(path, self.bound)  # before its lock file is made
                try:
                    locks.acquire(path)
                except OSError:
                    pass  # the write below says what is wrong with the folder
            notice = autosave(state, setup, self.root, speed=speed, path=path, bound=self.bound)
            if state.over:
                locks.release(path, remove=True)
            self.writes += 1
            if self.failing is not None:
                self.failing = self.failing_reason = None
                self._status(None)
            if notice:
                self._report(notice_text(notice), True)
        except SaveError as exc:
            if exc.code == "os_error":
                reason = os_problem(exc.values)
            elif exc.code == "autosaves_full":
                reason = autosaves_full_reason()
            else:
                reason = error_text(exc)
            self._fail(error_text(exc), reason)
        except Exception as exc:  # never let a save problem stop the game
            text = _("autosave failed: {error}").format(error=exc)
            self._fail(text, text)

    def _fail(self, text: str, reason: str) -> None:
        """The first failure is reported; the same problem again is only kept in ``failing``
        (and said by the status line, :attr:`status`)."""
        first = self.failing is None
        changed = reason != self.failing_reason
        self.failing, self.failing_reason = text, reason
        if first:
            self._report(text, True)
        if changed:
            self._status(reason)

    def _status(self, reason: str | None) -> None:
        if self.status is not None:
            try:
                self.status(reason)
            except Exception:
                pass

    def _report(self, text: str, error: bool) -> None:
        if self.report is not None:
            try:
                self.report(text, error)
            except Exception:
                pass
