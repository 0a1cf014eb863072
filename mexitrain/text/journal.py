"""A network table's journal (``tables/<CODE>/moves.jsonl``, :mod:`mexitrain.storage.tokens`)
in words: a damaged line that stops ``mexitrain host --resume``, the torn last line a resume
cuts off, and a journal the disk stopped taking.

The storage's errors are read by their fields (text sits below storage and never imports it).
"""

from __future__ import annotations

from typing import Any

from ..i18n import _, ngettext
from .names import printable


def _problem(v: dict[str, Any]) -> str:
    problem = v["problem"]
    if problem == "order":
        return _("move {seq} comes after move {previous}").format(seq=v["seq"], previous=v["previous"])
    if problem == "missing":
        return _("it is move {seq}, but move {expected} is missing").format(seq=v["seq"], expected=v["expected"])
    if problem == "illegal":
        return _("move {seq} cannot be played").format(seq=v["seq"])
    return _("it is not a move")


def journal_damaged_text(path: str, v: dict[str, Any]) -> str:
    """A SaveError ``journal_damaged``: the line that stops the resume, and what to do."""
    return _(
        "cannot resume from {path}: line {line} is damaged ({problem}); to resume without the moves "
        "from there on, remove that line and the ones after it"
    ).format(path=printable(path), line=v["line"], problem=_problem(v))


def journal_trimmed_line(path: str, size: int) -> str:
    """The host's log on a resume that cut off the journal's torn last line."""
    return ngettext(
        "{path}: its last line, cut short by a crash ({n} byte, a move never announced), was removed",
        "{path}: its last line, cut short by a crash ({n} bytes, a move never announced), was removed",
        size,
    ).format(path=printable(path), n=size)


def journal_failed_line(path: str, exc: OSError) -> str:
    """The host's log when a move cannot be written to the journal."""
    from .files import os_problem

    problem = os_problem({"errno": exc.errno, "error": exc.strerror or str(exc)})
    return _("cannot write {path}: {problem}; from now on the game is saved whole after each move").format(
        path=printable(path), problem=problem
    )
