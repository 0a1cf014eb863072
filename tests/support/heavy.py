"""``MEXITRAIN_HEAVY=1``: the large samples (hypothesis's heavy profile, the tests marked
``slow``, the full tables of the real-process tests). Unset or ``0``: the small sample that
every run keeps."""

from __future__ import annotations

import os

HEAVY = os.environ.get("MEXITRAIN_HEAVY", "") not in ("", "0")
