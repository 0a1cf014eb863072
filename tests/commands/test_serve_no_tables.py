"""``mexitrain serve --no-tables``: each visitor's game runs ``play --served --no-tables`` (a
hidden argument of ``play``, as ``--served``), which reaches the app as ``tables=False``
(the screens themselves: tests/ui/test_host_forms_keys.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from mexitrain.cli import build_parser, main
from mexitrain.commands import serve


def test_the_visitors_games_get_no_tables_only_when_asked(tmp_path: Path) -> None:
    folder = str(tmp_path / "data")
    parser = build_parser()
    plain = serve.game_command(parser.parse_args(["serve", "--data-dir", folder]))
    closed = serve.game_command(parser.parse_args(["serve", "--data-dir", folder, "--no-tables"]))
    assert "--no-tables" not in plain
    assert closed == [*plain, "--no-tables"]
    assert closed[:4] == [sys.executable, "-m", "mexitrain", "play"] and "--served" in closed
    # --private-saves: the visitor's own folder, still without tables
    visitor = serve.visitor_command(closed, "0123456789abcdef0123456789abcdef")
    assert visitor[-2:] == ["--served", "--no-tables"]
    assert visitor[visitor.index("--data-dir") + 1] == str(Path(folder) / "visitors" / "0123456789abcdef0123456789abcdef")


def test_play_no_tables_is_hidden_and_reaches_the_app(monkeypatch, capsys) -> None:
    import mexitrain.ui.app as app_module

    seen: list[dict] = []
    monkeypatch.setattr(app_module, "run", lambda setup, speed, **kwargs: seen.append(kwargs) or 0)
    assert main(["play", "--served", "--no-tables"]) == 0
    assert main(["play", "--served"]) == 0
    assert seen[0]["tables"] is False and seen[0]["served"] is True
    # without the tables serve names in its games' environment (net/served.py): none either,
    # never Host a table… / Join a table… on the server's machine (issue #35 item 7)
    assert seen[1]["tables"] is False and "served_tables" not in seen[1]
    assert main(["play", "--help"]) == 0
    assert "--no-tables" not in capsys.readouterr().out
    assert main(["serve", "--help"]) == 0
    assert "--no-tables" in capsys.readouterr().out


def test_the_app_is_made_without_tables(monkeypatch) -> None:
    """ui.app.run hands ``tables`` to the app it runs."""
    import mexitrain.ui.crash as crash
    from mexitrain.ui.app import run

    made: list = []
    monkeypatch.setattr(crash, "run_app", lambda app: made.append(app) or 0)
    assert run(None, 0.6, served=True, tables=False) == 0
    assert run(None, 0.6, served=True) == 0
    assert [app.tables for app in made] == [False, True]
