"""Loading a file never executes or unpickles anything: storage code reads JSON only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

STORAGE = Path(__file__).resolve().parents[2] / "mexitrain" / "storage"
UNDO = STORAGE.parent / "rules" / "undo.py"
FORBIDDEN_MODULES = {"pickle", "cPickle", "marshal", "shelve", "dill", "yaml", "importlib", "runpy"}
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__"}


def _files() -> list[Path]:
    return sorted(STORAGE.glob("*.py")) + [UNDO]


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_no_code_loading(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not {a.name.split(".")[0] for a in node.names} & FORBIDDEN_MODULES, path
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            assert node.module.split(".")[0] not in FORBIDDEN_MODULES, path
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, (path, node.lineno)
