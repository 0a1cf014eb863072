"""Locate data files shipped inside the installed ``mexitrain`` package."""

from __future__ import annotations

from pathlib import Path

STYLESHEET_NAME = "screens.tcss"


def stylesheet_path() -> Path:
    """Return the filesystem path of the packaged ``screens.tcss`` stylesheet.

    In a source checkout this is ``mexitrain/screens.tcss`` (a relative symlink to
    the top-level ``screens.tcss``); in an installed wheel it is a regular file
    that setuptools copied from it. Either way it is in the package folder, above this module's.
    """
    return Path(__file__).resolve().parent.parent / STYLESHEET_NAME
