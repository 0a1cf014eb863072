"""``--data-dir DIR`` before the command (``mexitrain --data-dir D stats``), as ``--lang``:
the same folder as after it, the same checks and the same one-line errors (mexitrain/cli.py)."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from mexitrain.cli import main


@pytest.fixture
def seen(monkeypatch) -> list:
    """The data folder each command run was given: ``play`` (its screens faked) and ``stats``."""
    import mexitrain.commands.stats as stats

    calls: list = []
    ui = types.ModuleType("mexitrain.ui.app")
    ui.run = lambda setup, speed, **kw: calls.append(("play", kw.get("data_dir")))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mexitrain.ui.app", ui)
    monkeypatch.setattr(stats, "run", lambda args: calls.append(("stats", args.data_dir)) or 0)
    return calls


def test_before_the_command_as_after_it(seen: list, tmp_path: Path) -> None:
    folder = str(tmp_path / "games")
    for argv in (
        ["stats", "--data-dir", folder],
        ["--data-dir", folder, "stats"],
        [f"--data-dir={folder}", "stats"],
        ["--lang", "fr", "--data-dir", folder, "stats"],
        ["--data-dir", folder, "play"],
        ["--data-dir", folder],  # no command: play's
        ["--data-dir", folder, "--speed", "0"],
    ):
        assert main(argv) == 0, argv
    assert seen == [("stats", folder)] * 4 + [("play", folder)] * 3


def test_after_the_command_it_wins_as_the_last_one_given(seen: list, tmp_path: Path) -> None:
    assert main(["--data-dir", str(tmp_path / "a"), "stats", "--data-dir", str(tmp_path / "b")]) == 0
    assert seen == [("stats", str(tmp_path / "b"))]


@pytest.mark.parametrize("where", ["before", "after"])
def test_a_bad_folder_before_the_command_is_the_same_one_line(where: str, seen: list, tmp_path: Path, capsys) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    argv = ["--data-dir", str(a_file), "stats"] if where == "before" else ["stats", "--data-dir", str(a_file)]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and seen == []
    assert err == f"mexitrain: error: argument --data-dir: '{a_file}' is not a folder\n"


def test_a_command_without_a_data_folder_refuses_it_before_as_after(capsys, tmp_path: Path) -> None:
    for argv in (
        ["--data-dir", str(tmp_path), "simulate", "--games", "1", "--players", "2", "--seed", "1"],
        ["simulate", "--games", "1", "--players", "2", "--seed", "1", "--data-dir", str(tmp_path)],
    ):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and err == "mexitrain: error: simulate keeps no data folder: --data-dir is not one of its options\n"
    # with another unknown option, argparse's own line names both
    assert main(["simulate", "--data-dir", str(tmp_path), "--frob"]) == 2
    assert capsys.readouterr().err == f"mexitrain: error: unrecognized arguments: --data-dir {tmp_path} --frob\n"


def test_the_top_level_help_names_it(capsys) -> None:
    assert main(["--help"]) == 0
    assert "--data-dir DIR" in capsys.readouterr().out
