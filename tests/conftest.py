"""Shared test configuration: hypothesis profiles chosen by MEXITRAIN_HEAVY.

``default`` keeps the property tests quick enough for every run; ``heavy`` (set
``MEXITRAIN_HEAVY=1``) explores many more games. Tests marked ``slow`` run only when heavy.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from support.heavy import HEAVY

settings.register_profile(
    "default",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "heavy",
    max_examples=1500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("heavy" if HEAVY else "default")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if HEAVY:
        return
    skip = pytest.mark.skip(reason="slow: set MEXITRAIN_HEAVY=1 to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """No test ever touches the real data directory (saves, autosave, stats)."""
    path = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("MEXITRAIN_DATA_DIR", str(path))
    return path


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch):
    """Tests run in English whatever the machine's locale; a test that wants French sets it.

    Subprocesses inherit the cleared locale too, and the language is English again after
    every test.
    """
    from mexitrain import i18n

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    previous = i18n.language()
    i18n.set_language("en")
    yield
    i18n.set_language(previous if previous in i18n.available_languages() else "en")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (pyproject.toml) starts one worker a core; a run of named tests only
    (``pytest tests/x.py::test_y``) is quicker in pytest's own process."""
    args = [a for a in config.args if not a.startswith("-")]
    if args and all("::" in a for a in args):
        return 0
    return None  # xdist's own count: the cores
