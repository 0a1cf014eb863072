"""``mexitrain stats [--data-dir DIR]``: print the statistics of finished games."""

from __future__ import annotations

import argparse

from ..storage.paths import data_dir
from ..storage.savefile import SaveError
from ..storage.stats import load_stats
from ..text.files import save_error_text
from ..text.stats import format_stats
from .args import CommandError


def run(args: argparse.Namespace) -> int:
    """Print the statistics table; a statistics file that cannot be read is one line, exit 1."""
    root = data_dir(getattr(args, "data_dir", None))
    try:
        stats = load_stats(root)
    except SaveError as exc:
        raise CommandError(save_error_text(exc)) from None  # in the player's language
    print(format_stats(stats))
    return 0
