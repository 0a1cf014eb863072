"""Static purity checks for the rules engine (``mexitrain/rules``).

The rules engine must be a pure, deterministic library: no UI framework, no
clocks, no filesystem/OS access and no use of the *global* ``random`` state
(randomness must come from an injected ``random.Random`` instance). Sources are
parsed with :mod:`ast`; nothing under ``mexitrain/rules`` is imported here.
"""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = REPO_ROOT / "mexitrain" / "rules"

#: Top-level module names the rules engine must not import.
FORBIDDEN_IMPORTS = frozenset({"textual", "time", "datetime", "os", "pathlib", "io"})
#: The only attributes of the ``random`` module the rules engine may touch.
ALLOWED_RANDOM_ATTRS = frozenset({"Random"})


def _rules_module_files() -> list[Path]:
    """Every ``.py`` module file under ``mexitrain/rules`` (recursively, via pkgutil)."""
    files: list[Path] = []

    def walk(directory: Path) -> None:
        for info in pkgutil.iter_modules([str(directory)]):
            if info.ispkg:
                pkg_dir = directory / info.name
                files.append(pkg_dir / "__init__.py")
                walk(pkg_dir)
            else:
                path = directory / f"{info.name}.py"
                if path.is_file():  # skip extension modules / bytecode-only entries
                    files.append(path)

    if RULES_DIR.is_dir():
        init = RULES_DIR / "__init__.py"
        if init.is_file():
            files.append(init)
        walk(RULES_DIR)
    return sorted(set(files))


def _violations(path: Path, root: Path = REPO_ROOT) -> list[str]:
    """Return human-readable purity violations found in one source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    rel = path.relative_to(root)
    problems: list[str] = []
    # Local names bound to the ``random`` module (``import random``, ``import random as r``).
    random_aliases: set[str] = set()

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in FORBIDDEN_IMPORTS:
                    problems.append(f"{rel}:{node.lineno}: import {alias.name}")
                if alias.name == "random":
                    random_aliases.add(alias.asname or "random")
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                top = node.module.split(".")[0]
                if top in FORBIDDEN_IMPORTS:
                    problems.append(f"{rel}:{node.lineno}: from {node.module} import ...")
                if node.module == "random":
                    for alias in node.names:
                        if alias.name not in ALLOWED_RANDOM_ATTRS:
                            problems.append(
                                f"{rel}:{node.lineno}: from random import {alias.name}"
                                " (use an injected random.Random instance)"
                            )
        elif isinstance(node, ast.Call):
            # __import__("os") / importlib.import_module("time") style dodges.
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else None
            )
            if name in {"__import__", "import_module"} and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    if arg.value.split(".")[0] in FORBIDDEN_IMPORTS | {"random"}:
                        problems.append(f"{rel}:{node.lineno}: dynamic import of {arg.value}")

    random_aliases.add("random")  # be strict even if imported under an unusual form
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in random_aliases
            and node.attr not in ALLOWED_RANDOM_ATTRS
        ):
            problems.append(
                f"{rel}:{node.lineno}: {node.value.id}.{node.attr}"
                " (global random state; use an injected random.Random)"
            )
    return problems


def test_rules_package_exists_with_modules() -> None:
    assert RULES_DIR.is_dir(), f"{RULES_DIR} is missing"
    modules = _rules_module_files()
    assert len(modules) >= 3, f"expected at least 3 rules modules, found {modules}"


@pytest.mark.parametrize(
    "path",
    _rules_module_files() or [pytest.param(None, marks=pytest.mark.skip("no rules modules yet"))],
    ids=lambda p: str(p.relative_to(REPO_ROOT)) if isinstance(p, Path) else "none",
)
def test_rules_module_is_pure(path: Path) -> None:
    problems = _violations(path)
    assert not problems, "impure rules code:\n" + "\n".join(problems)


def test_checker_catches_violations(tmp_path: Path) -> None:
    """Self-test of the checker on synthetic sources (guards against a vacuous pass)."""
    cases = {
        "import textual.widgets": True,
        "from textual.app import App": True,
        "import time": True,
        "from datetime import datetime": True,
        "import os.path": True,
        "from pathlib import Path": True,
        "import io": True,
        "import random\nrandom.shuffle([1])": True,
        "import random as rnd\nx = rnd.randint(1, 6)": True,
        "import random\nf = random.choice": True,
        "from random import shuffle": True,
        "__import__('os')": True,
        "import random\nrng = random.Random(7)\nrng.shuffle([1, 2])": False,
        "from random import Random\nrng = Random(1)": False,
        "from __future__ import annotations\nimport dataclasses, enum, typing": False,
        "from .tiles import Tile": False,
    }
    for i, (src, bad) in enumerate(cases.items()):
        f = tmp_path / f"m{i}.py"
        f.write_text(src + "\n", encoding="utf-8")
        found = _violations(f, root=tmp_path)
        assert bool(found) is bad, (src, found)
