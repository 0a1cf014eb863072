"""``mexitrain serve`` as a real process for the tests: started on a free port (``--port 0``,
the port taken is read from the address line it prints), stopped with Ctrl+C (SIGINT) or
killed, never left behind."""

from __future__ import annotations

import os
import re
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

#: How long a server may take to print its address (imports, binding), in seconds.
START_TIMEOUT = 30.0

_URL = re.compile(r"http://127\.0\.0\.1:(\d+)/")


@dataclass
class Served:
    proc: subprocess.Popen[str]
    first_line: str
    url: str  # http://127.0.0.1:PORT/


def env_for(data_dir: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    if data_dir is not None:
        env["MEXITRAIN_DATA_DIR"] = str(data_dir)
    return env


def read_line(proc: subprocess.Popen[str], timeout: float) -> str:
    """The first line of ``proc``'s standard output, waiting at most ``timeout`` seconds
    ("" if the process ended or said nothing by then)."""
    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout):
            return ""
    return proc.stdout.readline()


def stop(proc: subprocess.Popen[str], timeout: float = 20.0) -> tuple[str, str]:
    """Ctrl+C, then the rest of its output; killed if it has not ended within ``timeout``."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@contextmanager
def serving(data_dir: Path, *args: str) -> Iterator[Served]:
    """A running ``mexitrain serve --port 0 --data-dir DATA_DIR ARGS``; killed on the way out
    if the test has not stopped it."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mexitrain", "serve", "--port", "0", "--data-dir", str(data_dir), *args],
        cwd=REPO_ROOT, env=env_for(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        start = time.monotonic()
        line = read_line(proc, START_TIMEOUT)
        m = _URL.search(line)
        if not m:
            out, err = stop(proc)
            raise AssertionError(
                f"no address after {time.monotonic() - start:.1f} s: {line!r} {out!r} {err!r}"
            )
        yield Served(proc, line, f"http://127.0.0.1:{m[1]}/")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
