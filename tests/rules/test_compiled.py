"""The optional compiled build of the rules core and the expert's rollout policy (setup.py,
MEXITRAIN_COMPILE=1) and the pure form are one set of rules and one player: the .pxd files
beside the hot modules only declare types, so they must name exactly the fields the .py
files use, and ``COMPILED`` must tell the truth.

The same behaviour in both forms is proved by running tests/rules (record fixtures byte for
byte, test_core_fast_paths.py, test_core_lockstep.py) and the players' rollout tests
(test_playout.py, test_expert_search.py) against the installed compiled package: the second
stage of .ci/run. Set MEXITRAIN_EXPECT_COMPILED=1 (that stage does) to make the
form a requirement here, so that a build that fell back to pure Python fails."""

from __future__ import annotations

import ast
import os
import re
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from mexitrain.rules import core

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "mexitrain" / "rules" / "core"  # the sources (an installed copy may lack the .pxd files)
PLAYERS = ROOT / "mexitrain" / "players"
SETUP = ROOT / "setup.py"


def _declared(pxd: str, cls: str) -> list[str]:
    """The attribute names a .pxd declares for ``cdef class cls``, in order."""
    text = (CORE / pxd).read_text()
    body = text.split(f"cdef class {cls}:", 1)[1].split("\ncdef class ", 1)[0]
    return re.findall(r"^\s+cdef public \w+ (\w+)\s*$", body, re.M)


def test_compact_pxd_declares_every_position_and_core_slot():
    from mexitrain.rules.core.compact import Position

    assert _declared("compact.pxd", "Position") == list(Position.__slots__)
    assert _declared("compact.pxd", "Core(Position)") == list(core.Core.__slots__)
    assert core.Core.__mro__[1] is Position


def test_tables_pxd_declares_every_table_field():
    tree = ast.parse((CORE / "lookup.py").read_text())
    table = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Lookup")
    init = next(n for n in table.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    fields = {
        node.attr
        for node in ast.walk(init)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        and node.value.id == "self" and isinstance(node.ctx, ast.Store)
    }
    assert sorted(_declared("lookup.pxd", "Lookup")) == sorted(fields)


@pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="run from a source checkout only")
def test_the_pxd_files_are_package_data():
    """An sdist (and a wheel) carries the type declarations, so that a compiled build from
    it is typed like one from the checkout."""
    import tomllib

    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    package = ROOT / "mexitrain"
    shipped = {path for pattern in globs["mexitrain"] for path in package.glob(pattern)}
    assert set(CORE.glob("*.pxd")) | set(PLAYERS.glob("*.pxd")) <= shipped


def test_every_pxd_sits_beside_a_hot_module():
    from mexitrain import players

    assert {p.stem for p in CORE.glob("*.pxd")} == set(core.HOT)
    assert all((CORE / f"{name}.py").is_file() for name in core.HOT)
    assert {p.stem for p in PLAYERS.glob("*.pxd")} <= set(players.HOT)
    assert all((PLAYERS / f"{name}.py").is_file() for name in players.HOT)


@pytest.mark.skipif(not SETUP.is_file(), reason="run from a source checkout only")
def test_setup_compiles_the_hot_modules_and_nothing_else():
    from mexitrain import players

    tree = ast.parse(SETUP.read_text())
    lists = {
        n.targets[0].id: ast.literal_eval(n.value) for n in tree.body
        if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", None) in ("HOT", "HOT_PLAYERS")
    }
    assert tuple(lists["HOT"]) == core.HOT
    assert tuple(lists["HOT_PLAYERS"]) == players.HOT


def test_compiled_says_which_form_runs():
    """Both flags tell the truth, and a build is never half compiled: the rules core and the
    expert's rollout policy are compiled together or not at all."""
    from mexitrain import players

    hot = [f"mexitrain.rules.core.{name}" for name in core.HOT]
    hot += [f"mexitrain.players.{name}" for name in players.HOT]
    files = [sys.modules[name].__file__ for name in hot]
    compiled = [f.endswith(tuple(EXTENSION_SUFFIXES)) for f in files]
    assert core.COMPILED is all(compiled[: len(core.HOT)])
    assert players.COMPILED is all(compiled[len(core.HOT):])
    assert all(compiled) or not any(compiled), files  # never half compiled
    if os.environ.get("MEXITRAIN_EXPECT_COMPILED", "") not in ("", "0"):
        assert core.COMPILED and players.COMPILED, files
