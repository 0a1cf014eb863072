"""The data directory and the file names in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mexitrain.storage import paths


def test_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(paths.ENV_VAR, str(tmp_path / "env"))
    assert paths.data_dir(tmp_path / "flag") == tmp_path / "flag"
    assert paths.data_dir() == tmp_path / "env"
    assert paths.data_dir("") == tmp_path / "env"
    monkeypatch.delenv(paths.ENV_VAR)
    import platformdirs

    calls = []

    def fake(name, appauthor=None):
        calls.append(name)
        return str(tmp_path / "platform")

    monkeypatch.setattr(platformdirs, "user_data_dir", fake)
    assert paths.data_dir() == tmp_path / "platform"
    assert calls == ["mexitrain"]


def test_tilde_is_expanded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert paths.data_dir("~/games") == tmp_path / "games"


def test_files_in_the_data_dir(tmp_path: Path) -> None:
    assert paths.autosave_path(tmp_path) == tmp_path / "autosave.json"
    assert paths.saves_dir(tmp_path) == tmp_path / "saves"
    assert paths.stats_path(tmp_path) == tmp_path / "stats.json"
    assert paths.settings_path(tmp_path) == tmp_path / "settings.json"
    assert paths.save_path(tmp_path, "Sunday game") == tmp_path / "saves" / "Sunday game.json"


@pytest.mark.parametrize(
    ("name", "file"),
    [
        ("Sunday", "Sunday.json"),
        ("../../etc/passwd", "etc-passwd.json"),
        ("a/b\\c:d*e?", "a-b-c-d-e.json"),
        ("Partie d'été", "Partie d-été.json"),
        ("game.json", "game.json"),
        ("CON", "CON-game.json"),
        ("  spaced  ", "spaced.json"),
    ],
)
def test_save_file_names_stay_in_the_saves_folder(name: str, file: str) -> None:
    assert paths.save_file_name(name) == file


@pytest.mark.parametrize("name", ["", "   ", "///", "..", "."])
def test_unusable_names(name: str) -> None:
    with pytest.raises(ValueError, match="cannot be used as a save name"):
        paths.save_file_name(name)
