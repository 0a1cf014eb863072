"""Each folder is one layer, and a module imports only its own layer or the layers below it.

The layers, bottom to top (docs/layout.md):

    rules/        the rules, pure; imports nothing else of the project
    i18n.py       the gettext machinery
    text/         every sentence
    game_setup.py how a table is set up (rules, seed, seats)
    players/ and storage/   computer players; files. Neither imports the other.
    session.py    the game session, without Textual
    net/          a table on the network: protocol, server, client (without Textual)
    ui/           the Textual app
    commands/     one module a command
    cli.py        main(): parse the arguments, dispatch

Every import counts, the ones inside functions too (read with ``ast``, nothing is run).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mexitrain"

#: The top-level part of the package a module belongs to -> its layer.
LAYERS = {
    "__init__": 0,
    "rules": 0,
    "i18n": 1,
    "text": 2,
    "game_setup": 3,
    "players": 4,
    "storage": 4,
    "session": 5,
    "net": 6,
    "ui": 7,
    "commands": 8,
    "cli": 9,
    "__main__": 10,
    "i18n_tools": 10,  # a developer's tool for the catalogues, run on its own
}
#: Same layer, but never each other.
APART = {frozenset({"players", "storage"})}


def _part(module: str) -> str:
    """``mexitrain.rules.core.step`` -> ``rules``; a name of the package itself
    (``mexitrain.__version__``) -> ``__init__``."""
    parts = module.split(".")
    if len(parts) == 1 or (parts[1].startswith("__") and parts[1] not in LAYERS):
        return "__init__"
    return parts[1]


def _module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import of the package in ``path``."""
    name = _module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "mexitrain"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                if node.module is None:  # from . import x: x may be a module of that package
                    found += [(node.lineno, f"{target}.{a.name}") for a in node.names]
                    continue
            else:
                target = node.module or ""
            if target.split(".")[0] == "mexitrain":
                found.append((node.lineno, target))
    return found


def _violations(root: Path = PACKAGE) -> list[str]:
    bad = []
    for path in sorted(root.rglob("*.py")):
        here = _part(_module_name(path, root))
        for line, target in _imports(path, root):
            there = _part(target)
            where = f"{path.relative_to(root.parent)}:{line} imports {target}"
            if there not in LAYERS:
                bad.append(f"{where}: unknown part {there!r} (add it to LAYERS)")
            elif there != here and LAYERS[there] > LAYERS[here]:
                bad.append(f"{where}: {here} (layer {LAYERS[here]}) may not import {there} (layer {LAYERS[there]})")
            elif frozenset({here, there}) in APART:
                bad.append(f"{where}: {here} and {there} never import each other")
    return bad


def test_every_part_of_the_package_has_a_layer():
    parts = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()
             if (p.is_file() and p.suffix == ".py") or (p.is_dir() and (p / "__init__.py").exists())}
    assert parts <= set(LAYERS), f"no layer for {sorted(parts - set(LAYERS))}"


def test_no_import_runs_up_a_layer():
    assert _violations() == []


def test_the_check_sees_a_violation(tmp_path):
    """The test above can fail: a rules module importing the UI inside a function, and
    storage importing players, are caught; importing down a layer is not."""
    root = tmp_path / "mexitrain"
    for folder in ("rules", "ui", "storage", "players"):
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("", encoding="utf-8")
    (root / "__init__.py").write_text("", encoding="utf-8")
    (root / "rules" / "probe.py").write_text("def f():\n    from ..ui import app\n", encoding="utf-8")
    (root / "storage" / "probe.py").write_text("from mexitrain.players import x\n", encoding="utf-8")
    (root / "ui" / "probe.py").write_text("from ..rules import probe\nfrom mexitrain import __version__\n", encoding="utf-8")
    found = _violations(root)
    assert len(found) == 2, found
    assert "mexitrain/rules/probe.py:2 imports mexitrain.ui: rules (layer 0) may not import ui (layer 7)" in found
    assert "mexitrain/storage/probe.py:1 imports mexitrain.players: storage and players never import each other" in found


#: The rule functions that only the rules core and the computer players call (issue 33): a
#: screen, a sentence, the session and the network read the facts of the view instead.
RULE_FUNCTIONS = ("determinize", "view_legal_actions", "legal_actions", "undo_plan", "round_start")
#: The layers between the core and the screen.
READERS = ("ui", "text", "net", "session.py")


def _rule_calls(root: Path = PACKAGE) -> list[str]:
    found = []
    for part in READERS:
        base = root / part
        for path in sorted([base] if base.is_file() else base.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.ImportFrom):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.Name):
                    names = [node.id]
                elif isinstance(node, ast.Attribute):
                    names = [node.attr]
                for name in names:
                    if name in RULE_FUNCTIONS:
                        found.append(f"{path.relative_to(root.parent)}:{node.lineno} uses {name}")
    return found


def test_no_screen_text_session_or_network_code_works_a_rule_out_again():
    assert _rule_calls() == []


def test_the_rule_check_sees_a_call(tmp_path):
    root = tmp_path / "mexitrain"
    for part in ("ui", "text", "net"):
        (root / part).mkdir(parents=True)
    (root / "session.py").write_text("from .rules import legal_actions\n", encoding="utf-8")
    (root / "ui" / "probe.py").write_text("import x\n\ndef f(v):\n    return x.determinize(v)\n", encoding="utf-8")
    assert len(_rule_calls(root)) == 2
