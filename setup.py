"""The optional compiled build of the rules core and the expert's rollout policy (issue 22);
everything else is in pyproject.toml.

    python3 -m pip install .                        # pure Python, as always: no compiler needed
    MEXITRAIN_COMPILE=1 python3 -m pip install .    # the hot modules compiled

With ``MEXITRAIN_COMPILE=1`` (and only then) the build asks for Cython and compiles the same
``.py`` files listed in ``HOT`` (of ``mexitrain/rules/core/``) and ``HOT_PLAYERS`` (of
``mexitrain/players/``: ``playout``, the planner's choices inside the expert's rollouts) into
extension modules (Cython's pure-Python mode: no second source). The ``.py`` files are
installed beside them, and are what runs wherever the build is not asked for.
``mexitrain.rules.core.COMPILED`` and ``mexitrain.players.COMPILED`` tell which form runs
(``mexitrain simulate`` prints the first).

If the compiled form is asked for but cannot be built (no C compiler, no Python headers), the
install goes on as pure Python, with one warning line (``pip install -v`` shows it). An
editable install (``pip install -e``) is always pure Python: extension modules beside the
``.py`` files would hide a developer's edits.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

HOT = ("compact", "deal", "moves", "scoring", "step", "lookup")  # mexitrain/rules/core/*.py
HOT_PLAYERS = ("playout",)  # mexitrain/players/*.py: the expert's rollout policy
WANTED = os.environ.get("MEXITRAIN_COMPILE", "").strip() not in ("", "0")

# Cython's directives: Python's semantics (no C division, integers overflow-checked where
# Cython makes them C integers), annotations ignored (the pure form does not check them)
DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,
    "overflowcheck": True,
    "embedsignature": True,
}


def _warn(message: str) -> None:
    print(f"WARNING: mexitrain: {message}; installing the pure-Python form", file=sys.stderr)


class optional_build_ext(build_ext):
    """Cythonizes the hot modules when the build runs (so that setup.py is read without
    Cython, e.g. to learn the build requirements), and falls back to pure Python when they
    cannot be compiled."""

    def finalize_options(self) -> None:
        dist = self.distribution
        if dist.ext_modules and self.editable_mode:
            _warn("an editable install is never compiled")
            dist.ext_modules = []
        elif dist.ext_modules:
            try:
                from Cython.Build import cythonize
            except ImportError:
                _warn("MEXITRAIN_COMPILE is set but Cython is not installed")
                dist.ext_modules = []
            else:
                build = dist.get_command_obj("build")
                build.ensure_finalized()
                dist.ext_modules = cythonize(  # the C files go to the build folder
                    dist.ext_modules, compiler_directives=DIRECTIVES, quiet=True,
                    build_dir=os.path.join(build.build_temp, "cython"),
                    nthreads=os.cpu_count() or 1,
                )
        if self.parallel is None:  # compile the modules side by side
            self.parallel = os.cpu_count() or 1
        super().finalize_options()

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers: pure Python, not half compiled
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            _warn(f"cannot compile the hot modules ({type(exc).__name__}: {exc})")


def _extensions() -> list:
    if not WANTED:
        return []
    from setuptools import Extension

    return [
        Extension(f"mexitrain.{package}.{name}", [f"mexitrain/{package.replace('.', '/')}/{name}.py"])
        for package, names in (("rules.core", HOT), ("players", HOT_PLAYERS))
        for name in names
    ]


setup(
    ext_modules=_extensions(),
    cmdclass={"build_ext": optional_build_ext},
    setup_requires=["Cython>=3.0"] if WANTED else [],
    # a build folder of its own, so that a later pure build never packs a stale compiled module
    options={"build": {"build_base": os.path.join("build", "compiled")}} if WANTED else {},
)
