"""Atomic writes: whatever happens mid-write, the last good file survives whole."""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path

import pytest

from mexitrain.storage import atomic


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_write_replaces_and_creates_folders(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "f.json"
    atomic.write_text(target, "one")
    atomic.write_text(target, "two ünïcode\n")
    assert target.read_bytes() == "two ünïcode\n".encode()
    assert _names(target.parent) == ["f.json"]


@pytest.mark.parametrize("failure", [KeyboardInterrupt, RuntimeError, OSError])
def test_interrupted_between_write_and_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: type[BaseException]
) -> None:
    target = tmp_path / "f.json"
    atomic.write_text(target, "good")
    seen: list[str] = []

    def boom(src, dst):
        seen.append(Path(src).read_text())  # the new file was complete...
        raise failure("interrupted")  # ...but never renamed

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(failure):
        atomic.write_text(target, "new")
    assert seen == ["new"]
    assert target.read_text() == "good"
    assert _names(tmp_path) == ["f.json"]  # the temporary file is gone


def test_disk_full_while_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "f.json"
    atomic.write_text(target, "good")
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            self.f.write(data[:3])  # a partial write, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    with pytest.raises(OSError) as info:
        atomic.write_text(target, "much more data")
    assert info.value.errno == errno.ENOSPC
    assert target.read_text() == "good"
    assert _names(tmp_path) == ["f.json"]


def test_stale_temps_are_cleaned_fresh_ones_left(tmp_path: Path) -> None:
    stale = tmp_path / ".f.json.x1y2z3.tmp"
    fresh = tmp_path / ".f.json.a1b2c3.tmp"
    other = tmp_path / ".g.json.q9.tmp"
    keep = tmp_path / "f.json.tmp"  # not one of ours: no leading dot
    for p in (stale, fresh, other, keep):
        p.write_text("partial")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    atomic.write_text(tmp_path / "f.json", "x")  # cleans its own stale temps
    assert not stale.exists() and fresh.exists() and other.exists() and keep.exists()
    removed = atomic.clean_stale_temps(tmp_path, older_than=0)
    assert sorted(p.name for p in removed) == sorted([fresh.name, other.name])
    assert _names(tmp_path) == ["f.json", "f.json.tmp"]
    assert atomic.is_temp_file(stale) and not atomic.is_temp_file(keep)


def test_clean_stale_temps_without_folder(tmp_path: Path) -> None:
    assert atomic.clean_stale_temps(tmp_path / "missing") == []


def test_move_aside_never_clobbers(tmp_path: Path) -> None:
    f = tmp_path / "autosave.json"
    for n in (1, 2, 3):
        f.write_text(f"bad {n}")
        assert atomic.move_aside(f) == tmp_path / f"autosave.bad-{n}.json"
    assert not f.exists()
    assert [(tmp_path / f"autosave.bad-{n}.json").read_text() for n in (1, 2, 3)] == [
        "bad 1", "bad 2", "bad 3",
    ]
