"""UI tests never read or write the player's real data directory (autosave, saves, settings)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MEXITRAIN_DATA_DIR", str(tmp_path / "mexitrain-data"))
