"""Every stored snapshot belongs to a test that exists.

syrupy fails a run that leaves a snapshot file unused, but only when the tests run in one
process: under pytest-xdist (the suite's ``-n auto``) it skips that check. This test does it
for the whole suite: it collects the modules that own a ``__snapshots__/`` folder (in a
``pytest --collect-only`` process, whatever tests this run selected) and asks each SVG for
its test. A stale file is deleted by hand, or by ``pytest -n 0 --snapshot-update``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
SNAPSHOTS = HERE / "__snapshots__"


def collected(modules: list[Path]) -> set[str]:
    """The test ids (``module_stem::name[param]``) that pytest collects in ``modules``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}  # not a worker
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider",
         *[str(m.relative_to(REPO_ROOT)) for m in modules]],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    ids = set()
    for line in proc.stdout.splitlines():
        path, sep, name = line.partition("::")
        if sep:
            ids.add(f"{Path(path).stem}::{name}")
    return ids


def test_every_snapshot_file_has_its_test() -> None:
    folders = sorted(p for p in SNAPSHOTS.iterdir() if p.is_dir())
    assert folders, "no snapshot folder found"
    modules = [HERE / f"{folder.name}.py" for folder in folders]
    missing_modules = [m.name for m in modules if not m.is_file()]
    assert not missing_modules, f"snapshots of test modules that are gone: {missing_modules}"
    ids = collected(modules)
    stale = [
        str(svg.relative_to(HERE))
        for folder in folders
        for svg in sorted(folder.glob("*.svg"))
        if f"{folder.name}::{svg.stem}" not in ids
    ]
    assert not stale, f"snapshot files no test takes: {stale}"
