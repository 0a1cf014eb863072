"""An unexpected error (a bug): one line on the terminal, the whole story in a crash log.

The command line (:func:`mexitrain.cli.main`) turns any exception that is not one of its
one-line errors into exit status 1 and this line on standard error::

    mexitrain: error: unexpected error (ValueError: ...); the details are in DIR/crash-20250101-120000-4242.log

The log (in the data folder, else the system's temporary folder) holds the version, the
command, the Python traceback and, for a crash inside the game screens, Textual's own report
with the local variables. Textual catches an exception raised inside the app, prints its
report on the terminal and lets ``App.run()`` return normally, which made a crash exit with
status 0: :func:`run_app` keeps that report for the log and raises the error again once the
terminal is restored.
"""

from __future__ import annotations

import io
import os
import platform
import sys
import tempfile
import time
import traceback
from pathlib import Path
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


def describe(exc: BaseException) -> str:
    """The error in a few words: "ValueError: bad thing" (first line, at most 120 characters)."""
    from .text.names import printable

    error = exc.error if isinstance(exc, AppCrashed) else exc
    text = str(error).strip().splitlines()
    words = f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
    words = printable(words)
    return words if len(words) <= 120 else words[:119] + "…"


def report_text(exc: BaseException, argv: list[str] | None = None) -> str:
    """What a crash log holds."""
    from . import __version__

    error = exc.error if isinstance(exc, AppCrashed) else exc
    lines = [
        f"mexitrain {__version__} crashed at {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
        f"command: mexitrain {' '.join(argv if argv is not None else sys.argv[1:])!r}",
        f"python {platform.python_version()} on {platform.platform()}",
        "",
        "".join(traceback.format_exception(error)).rstrip(),
    ]
    if isinstance(exc, AppCrashed) and exc.details.strip():
        lines += ["", "Textual's report:", exc.details.rstrip()]
    return "\n".join(lines) + "\n"


def write_crash_log(exc: BaseException, folder: Path | None, argv: list[str] | None = None) -> Path | None:
    """Write the crash log in ``folder`` (made if needed), else in the temporary folder;
    its path, or None when neither could be written."""
    name = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"
    text = report_text(exc, argv)
    for place in (folder, Path(tempfile.gettempdir())):
        if place is None:
            continue
        try:
            place.mkdir(parents=True, exist_ok=True)
            path = place / name
            with open(path, "x", encoding="utf-8", errors="backslashreplace") as f:
                f.write(text)
            return path
        except OSError:
            continue
    return None


__all__ = ["AppCrashed", "describe", "report_text", "run_app", "write_crash_log"]
