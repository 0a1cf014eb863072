"""The served mode's fence: a game played from a web page sees only its own data folder.

``mexitrain serve`` starts each visitor's game as ``mexitrain play --served`` (a hidden
argument: nothing on the page can set or clear it, and no preference file holds it). The app
then keeps a :class:`Fence` on its data folder for its whole life, and every part of the game
that shows or opens a file asks it:

- Open replay…: the folder tree starts in the data folder and cannot go above it; a folder or
  a link in it that leads outside is not listed; a typed path is read from the data folder
  (``saves/sunday.json``): an absolute path, ``~``, ``..``, or a link that leads outside is
  refused with one line (:meth:`Fence.typed`);
- Load…: the saves listed and the one chosen must be in the data folder (a link in ``saves/``
  that leads outside is not listed, its head never read);
- Save as: the name is made a file name in ``saves/`` already (:func:`~mexitrain.storage.save_path`);
- the paths the game says (notices, the load list's problems, the statistics' problem) are
  told from the data folder (``saves/sunday.json``), never the server's own folders
  (:meth:`Fence.shown`).

A path is inside when it *resolves* (every link followed) to the data folder or below it.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePath, PureWindowsPath

from ..i18n import _
from ..text.files import nul_path_line
from ..text.names import printable, shorten

#: The longest path a refusal repeats, in cells.
SHOWN_PATH = 40


class Refused(ValueError):
    """A path outside the data folder; ``str()`` is the line that says so."""


class Fence:
    """The data folder ``root``, outside which the served game neither lists nor opens files."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root).absolute()
        self.real = self._resolve(self.root) or self.root

    @staticmethod
    def _resolve(path: Path) -> Path | None:
        try:
            return path.resolve()  # every link followed (a missing part is kept as written)
        except (OSError, RuntimeError, ValueError):  # a loop of links; a NUL in the path
            return None

    def inside(self, path: str | os.PathLike[str]) -> bool:
        """Whether ``path`` (relative: to the data folder) resolves into the data folder."""
        real = self._resolve(self.root / path)
        return real is not None and (real == self.real or real.is_relative_to(self.real))

    def is_top(self, path: str | os.PathLike[str]) -> bool:
        """``path`` is the data folder itself (nothing above it may be shown)."""
        return self._resolve(self.root / path) == self.real

    def typed(self, text: str) -> Path:
        """The file or folder a visitor typed, read from the data folder; raises
        :class:`Refused` for an absolute path, ``~``, ``..``, what leads outside, or a NUL
        character (no file is named with one)."""
        text = text.strip()
        if "\0" in text:
            raise Refused(nul_path_line(text))
        pure = PurePath(text)
        if (
            text.startswith("~")
            or pure.is_absolute()
            or pure.anchor
            or PureWindowsPath(text).anchor
            or ".." in pure.parts
            or ".." in PureWindowsPath(text).parts
            or not self.inside(pure)
        ):
            raise Refused(self.refusal(text))
        return self.root / pure

    def refusal(self, text: str | os.PathLike[str]) -> str:
        """The line said when ``text`` is outside the data folder."""
        return _(
            "{path} is outside the game's data folder: only its files open here (such as saves/sunday.json)"
        ).format(path=shorten(printable(str(text)), SHOWN_PATH) or "''")

    def shown(self, text: str) -> str:
        """``text`` with the data folder's own path taken out: its files are told as
        ``saves/sunday.json``, the folder itself as ``.``."""
        for root in dict.fromkeys((str(self.root), str(self.real))):
            text = text.replace(root + os.sep, "").replace(root, ".")
        return text


__all__ = ["Fence", "Refused"]
