"""docs/saves.md names only what exists: its "API for the app" imports run, and every
``name(`` it says of the undo functions is one of the package (issue 24: it still named
``can_undo``, gone since undo eligibility became ``undo_plan`` / ``text.refusals.undo_text``)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "saves.md"


def _api_block() -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## API for the app", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_api_imports_of_docs_saves_run():
    exec(compile(_api_block(), str(DOC), "exec"), {})


def test_every_call_named_in_the_api_table_is_imported_by_the_block():
    """The table's calls (``undo_text(``, ``load_game(``...) are the names the block imports."""
    namespace: dict = {}
    exec(compile(_api_block(), str(DOC), "exec"), namespace)
    section = DOC.read_text(encoding="utf-8").split("## API for the app", 1)[1]
    table = "\n".join(line for line in section.splitlines() if line.startswith("| "))
    called = set(re.findall(r"`(?:\w+ = |ok, text = |setup, state = )?([a-z_]+)\(", table))
    assert called, "no call found in the table"
    assert called <= set(namespace), f"named in docs/saves.md but not imported: {sorted(called - set(namespace))}"
