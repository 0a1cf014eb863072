"""Game records on disk: strict JSON files written atomically.

The format and its checks live in :mod:`mexitrain.rules.record` (pure, no I/O); this module
only adds files. See ``docs/record-format.md``.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..rules.record import RecordError, dump_record, load_record
from .atomic import write_text
from .safe import MAX_DATA, read_regular


def write_record(path: str | os.PathLike[str], record: dict) -> Path:
    """Write ``record`` to ``path`` atomically and durably (:func:`~mexitrain.storage.atomic.write_text`:
    a temporary file in the same folder, then a rename and the folder's ``fsync``), so a reader
    never sees half a record. Returns the path written."""
    return write_text(path, dump_record(record))


def read_record(path: str | os.PathLike[str]) -> dict:
    """Read and parse a record file (strict JSON, header checked; :func:`~mexitrain.rules.record.replay` checks the rest)."""
    data = read_regular(path, MAX_DATA)  # a FIFO or a device is refused (OSError), never waited on
    try:
        return load_record(data)
    except RecordError as exc:
        raise RecordError(exc.code, **{**exc.values, "path": str(path)}) from None


__all__ = ["read_record", "write_record"]
