"""Any of the game's errors as one line in the player's language, dispatched on its type
(the rules' refusals) or, for a storage error, on the data it carries (action and code).
"""

from __future__ import annotations

from ..i18n import _
from ..rules.errors import IllegalAction
from ..rules.record import RecordError
from ..rules.record_json import StrictJSONError
from ..rules.ruleset import RuleSetError
from ..rules.undo import UndoRefused
from .files import os_problem, record_error_text, save_error_text, strict_json_text
from .refusals import reason_text, undo_refused_text
from .validation import ruleset_error_text, validation_error_text


def _is_save_error(exc: BaseException) -> bool:
    # storage sits above text: its SaveError is recognised by its fields, not imported
    return all(hasattr(exc, key) for key in ("action", "code", "values", "moved_to"))


def error_text(exc: BaseException) -> str:
    """Any of the game's errors as one line in the player's language: an IllegalAction, a
    RuleSetError (also inside pydantic's ValidationError), an UndoRefused, a RecordError, a
    StrictJSONError, a storage SaveError (known by what it carries: the ``action`` that failed and its ``code``),
    an OSError; else ``str(exc)``."""
    if isinstance(exc, IllegalAction):
        return reason_text(exc)
    if isinstance(exc, RuleSetError):
        return ruleset_error_text(exc)
    if isinstance(exc, UndoRefused):
        return undo_refused_text(exc)
    if isinstance(exc, RecordError):
        return record_error_text(exc)
    if isinstance(exc, StrictJSONError):
        return strict_json_text(exc)
    if _is_save_error(exc):
        return save_error_text(exc)
    if isinstance(exc, OSError):  # a file the system refused (its message is in English)
        problem = os_problem({"errno": exc.errno, "error": exc.strerror or str(exc)})
        if exc.filename:
            return _("{path}: {problem}").format(path=exc.filename, problem=problem)
        return problem
    if callable(getattr(exc, "errors", None)):  # a pydantic ValidationError
        return validation_error_text(exc)
    return str(exc)

