"""An unexpected error (a bug): one line on the terminal, the whole story in a crash log.

The command line (:func:`mexitrain.cli.main`) turns any exception that is not one of its
one-line errors into exit status 1 and this line on standard error::

    mexitrain: error: unexpected error (ValueError: ...); the details are in DIR/crash-20250101-120000-4242.log

The log (in the data folder, else the system's temporary folder) holds the version, the
command, the Python traceback and, for a crash inside the game screens, Textual's own report
with the local variables (:class:`~mexitrain.ui.crash.AppCrashed` carries it).
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
import traceback
from pathlib import Path

from ..ui.crash import AppCrashed


def describe(exc: BaseException) -> str:
    """The error in a few words: "ValueError: bad thing" (first line, at most 120 characters)."""
    from ..text.names import printable

    error = exc.error if isinstance(exc, AppCrashed) else exc
    text = str(error).strip().splitlines()
    words = f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
    words = printable(words)
    return words if len(words) <= 120 else words[:119] + "…"


def report_text(exc: BaseException, argv: list[str] | None = None) -> str:
    """What a crash log holds."""
    from .. import __version__

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


__all__ = ["describe", "report_text", "write_crash_log"]
