"""The autosave, written from one background thread: serialized, latest wins, flushed on exit.

The app hands every new snapshot to :meth:`Autosaver.submit` (it returns at once); the thread
writes the newest one submitted (an older one not yet written is skipped: the newer file holds
it). A finished game is counted in the statistics first, then its autosave is cleared.
:meth:`flush` waits until everything submitted is on disk (on quit, and in tests).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from ..i18n import _
from ..messages import error_text, notice_text
from ..rules import GameState
from ..setup import GameSetup
from ..storage import SaveError, autosave
from ..storage.stats import record_finished_game

Report = Callable[[str, bool], None]  # (one-line text, is_error)


class Autosaver:
    def __init__(self, root: Path, report: Report | None = None) -> None:
        self.root = root
        self.report = report
        self._cond = threading.Condition()
        self._pending: tuple[GameState, GameSetup, float | None] | None = None
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self.writes = 0  # files written (tests)

    def submit(self, state: GameState, setup: GameSetup, speed: float | None) -> None:
        with self._cond:
            self._pending = (state, setup, speed)
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

    def write(self, state: GameState, setup: GameSetup, speed: float | None) -> None:
        """One autosave (the statistics first for a finished game); problems are reported."""
        try:
            if state.over:
                update = record_finished_game(self.root, setup, state)
                if update.notice:
                    self._report(notice_text(update.notice), True)
            notice = autosave(state, setup, self.root, speed=speed)
            self.writes += 1
            if notice:
                self._report(notice_text(notice), True)
        except SaveError as exc:
            self._report(error_text(exc), True)
        except Exception as exc:  # never let a save problem stop the game
            self._report(_("autosave failed: {error}").format(error=exc), True)

    def _report(self, text: str, error: bool) -> None:
        if self.report is not None:
            try:
                self.report(text, error)
            except Exception:
                pass
