"""The stylesheet lives at the repo top level but must ship inside the package.

``mexitrain/screens.tcss`` is a relative symlink to ``../screens.tcss``; setuptools
copies it into the wheel as a regular file. These tests build a real
(non-editable) wheel, install it into a throw-away venv and read the stylesheet
from an unrelated working directory.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
TOP_LEVEL_TCSS = REPO_ROOT / "screens.tcss"
PACKAGE_TCSS = REPO_ROOT / "mexitrain" / "screens.tcss"


def _clean_env() -> dict[str, str]:
    """Environment for subprocesses that must not see the source checkout."""
    env = dict(os.environ)
    for var in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONSAFEPATH"):
        env.pop(var, None)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(cmd: list[str | os.PathLike[str]], cwd: Path, timeout: float = 120) -> str:
    proc = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, (
        f"command failed ({proc.returncode}): {cmd}\n"
        f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
    )
    return proc.stdout


def _venv_python(venv: Path) -> Path:
    if os.name == "nt":  # pragma: no cover - the project targets POSIX terminals
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def test_source_tree_stylesheet_is_relative_symlink_to_top_level() -> None:
    assert TOP_LEVEL_TCSS.is_file() and not TOP_LEVEL_TCSS.is_symlink()
    assert PACKAGE_TCSS.is_symlink(), "mexitrain/screens.tcss must be a symlink"
    assert os.readlink(PACKAGE_TCSS) == os.path.join("..", "screens.tcss")
    assert PACKAGE_TCSS.read_text(encoding="utf-8") == TOP_LEVEL_TCSS.read_text(encoding="utf-8")


def test_stylesheet_path_in_source_tree() -> None:
    from mexitrain.ui.resources import stylesheet_path

    path = stylesheet_path()
    assert path.is_file()
    assert path.read_text(encoding="utf-8") == TOP_LEVEL_TCSS.read_text(encoding="utf-8")


def test_non_editable_wheel_ships_stylesheet(tmp_path: Path) -> None:
    pytest.importorskip("setuptools", reason="building the wheel needs setuptools (test extra)")
    pytest.importorskip("wheel", reason="building the wheel needs `wheel` (test extra)")
    expected = TOP_LEVEL_TCSS.read_text(encoding="utf-8")

    # 1. Build a regular (non-editable) wheel from a copy of the sources (setuptools leaves
    #    its build/ folder beside the sources it builds: not in the checkout).
    source = tmp_path / "source"
    shutil.copytree(
        REPO_ROOT,
        source,
        symlinks=True,  # mexitrain/screens.tcss stays the symlink that is being tested
        ignore=shutil.ignore_patterns(
            ".git", ".venv", ".ci-venv", "build", "dist", "*.egg-info", "__pycache__",
            ".pytest_cache", ".hypothesis", ".ruff_cache", "out", "tests",
        ),
    )
    wheel_dir = tmp_path / "wheelhouse"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "-w",
            wheel_dir,
            source,
        ],
        cwd=tmp_path,
    )
    wheels = sorted(wheel_dir.glob("mexitrain-*.whl"))
    assert len(wheels) == 1, wheels
    wheel = wheels[0]

    with zipfile.ZipFile(wheel) as zf:
        info = zf.getinfo("mexitrain/screens.tcss")  # KeyError -> not packaged
        # A regular file in the archive, not a stored symlink (S_IFLNK == 0o120000).
        assert (info.external_attr >> 16) & 0o170000 != 0o120000
        assert zf.read(info).decode("utf-8") == expected
        assert "mexitrain/ui/resources.py" in zf.namelist()
        # the served page's icon (mexitrain serve), read from the package
        assert zf.read("mexitrain/web/favicon.png") == (REPO_ROOT / "mexitrain" / "web" / "favicon.png").read_bytes()

    # 2. Install it into a fresh venv and read the stylesheet from an unrelated cwd.
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", venv], cwd=tmp_path)
    py = _venv_python(venv)
    _run(
        [
            py,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--disable-pip-version-check",
            wheel,
        ],
        cwd=tmp_path,
    )

    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    script = (
        "import mexitrain, sys\n"
        "from mexitrain.ui.resources import stylesheet_path\n"
        "print(mexitrain.__file__, file=sys.stderr)\n"
        "from mexitrain.commands.serve import favicon\n"
        "assert favicon()[:8] == b'\\x89PNG\\r\\n\\x1a\\n'\n"
        "print(stylesheet_path().read_text(), end='')\n"
    )
    proc = subprocess.run(
        [str(py), "-c", script],
        cwd=workdir,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    imported_from = Path(proc.stderr.strip().splitlines()[-1]).resolve()
    assert venv.resolve() in imported_from.parents, (
        f"mexitrain was imported from {imported_from}, not from the fresh venv"
    )
    assert proc.stdout == expected
