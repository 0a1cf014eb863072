"""A crash inside the game screens, kept for the crash log.

Textual catches an exception raised inside the app, prints its report on the terminal and lets
``App.run()`` return normally, which made a crash exit with status 0: :func:`run_app` keeps
that report and raises the error again (:class:`AppCrashed`) once the terminal is restored;
the command line writes both to the crash log (:mod:`mexitrain.commands.crash`).
"""

from __future__ import annotations

import io
from typing import Any


class AppCrashed(Exception):
    """The game screens stopped on an exception: ``error``, and Textual's report of it."""

    def __init__(self, error: BaseException, details: str = "") -> None:
        super().__init__(str(error))
        self.error = error
        self.details = details


def run_app(app: Any) -> int:
    """Run a Textual app; returns its exit status, or raises :class:`AppCrashed` when an
    exception stopped it (Textual's report goes to the crash log, not to the terminal)."""
    from rich.console import Console

    report = io.StringIO()
    # Textual prints the report of an unhandled exception on its error console after it
    # has restored the terminal (textual 8: App._print_error_renderables)
    app.error_console = Console(
        file=report, width=120, color_system=None, force_terminal=False, markup=False, highlight=False
    )
    app.run()
    error = getattr(app, "_exception", None)  # textual 8 keeps the first unhandled exception
    if error is not None:
        raise AppCrashed(error, report.getvalue())
    code = app.return_code
    return 0 if code is None else int(code)


__all__ = ["AppCrashed", "run_app"]
