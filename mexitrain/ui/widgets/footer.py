"""The footer of the game and replay screens: the keys first, the palette's key if room is left."""

from __future__ import annotations

from textual import events
from textual.widgets import Footer

from ..textual_compat import FooterKey


def _cells(keys) -> int:
    """Columns of compact keys, "key description" one column apart (the palette's key
    has a border: the same count)."""
    return sum(len(w.key_display) + (1 + len(w.description) if w.description else 0) + 1 for w in keys)


class FittingFooter(Footer):
    """A compact footer that gives up the command palette's key (Ctrl+P, listed in the
    help panel) when the screen's keys and it do not fit on one line together, and then, if
    they still do not fit, the keys that are dimmed (not possible now; the help panel lists
    them with their reasons), so that no key that works is cut off (the French footer at 80
    columns, at a table where undo is never possible)."""

    _width = 0

    def compose(self):
        widgets = list(super().compose())
        palette = [w for w in widgets if w.has_class("-command-palette")]
        if not palette or not self.compact:
            yield from widgets
            return
        keys = [w for w in widgets if w not in palette]
        if any(not isinstance(w, FooterKey) for w in keys):
            yield from widgets  # grouped keys: no estimate, keep the default
            return
        width = self.size.width or self.app.size.width
        if _cells(keys) + _cells(palette) <= width:
            yield from widgets
        elif _cells(keys) <= width:
            yield from keys
        else:
            yield from (w for w in keys if not w.has_class("-disabled"))

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._width:
            self._width = event.size.width
            self.refresh(recompose=True)
