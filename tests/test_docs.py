"""The manual builds: ``mkdocs build --strict`` (every page in the nav, every link and anchor
found, no warning at all), with CHANGELOG.md as its Changelog page."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

needs_mkdocs = pytest.mark.skipif(
    importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None,
    reason="mkdocs and mkdocs-material are not installed (python3 -m pip install -e '.[test]')",
)


def _build(site: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")  # Material's notice about its future
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )


@needs_mkdocs
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = _build(site)
    assert done.returncode == 0, done.stdout + done.stderr
    for page in ("index.html", "keys/index.html", "performance/index.html", "changelog/index.html"):
        assert (site / page).is_file(), page
    changelog = (site / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "Unreleased" in changelog and "--8&lt;--" not in changelog  # the file, included
    assert (site / "images" / "game-screen.svg").is_file()
    assert not (site / "images" / "make_screenshot.py").exists()


def test_the_changelog_page_includes_the_changelog() -> None:
    """docs/changelog.md is the snippet line alone: the page is CHANGELOG.md, never a copy."""
    assert (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8").strip() == '--8<-- "CHANGELOG.md"'
    assert (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").startswith("# Changelog\n")


@needs_mkdocs
def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """Strict means strict: a copy of the docs with one link to nowhere does not build."""
    import shutil

    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    shutil.copy(ROOT / "CHANGELOG.md", copy / "CHANGELOG.md")
    with (copy / "docs" / "keys.md").open("a", encoding="utf-8") as f:
        f.write("\n[nowhere](no-such-page.md)\n")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=copy, env=env, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode != 0
    assert "no-such-page.md" in done.stdout + done.stderr


def test_the_screenshot_script_still_makes_the_picture(tmp_path: Path) -> None:
    """docs/images/make_screenshot.py plays a few turns and writes the game screen as SVG (into
    a temporary file here): the README's picture can be made again after a change."""
    import subprocess as sp

    out = tmp_path / "game.svg"
    done = sp.run(
        [sys.executable, str(ROOT / "docs" / "images" / "make_screenshot.py"), str(out)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "Your" in svg and "hand" in svg
