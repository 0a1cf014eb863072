"""The storage modules share helpers by their public, documented names: no module imports
another's underscore name."""

from __future__ import annotations

import ast
from pathlib import Path

import mexitrain.storage

STORAGE = Path(mexitrain.storage.__file__).parent


def test_no_storage_module_imports_a_private_name() -> None:
    found = []
    for path in sorted(STORAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                found += [  # ``_`` is gettext's translation function, not a private name
                    f"{path.name}: {a.name}" for a in node.names if a.name.startswith("_") and a.name != "_"
                ]
    assert found == []


def test_the_shared_helpers_say_what_they_are_for() -> None:
    from mexitrain.storage import savefile

    for name in ("BadContents", "os_error", "file_signature", "parse_json", "check_header",
                 "check_header_named", "parse_setup", "parse_saved_at", "parse_name", "rules_of",
                 "read_bounded"):
        assert getattr(savefile, name).__doc__, name
